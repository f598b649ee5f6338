#!/usr/bin/env bash
# Builds three `vmrun` binaries of the same source whose code layout differs, as any commit's
# build differs from the last one's: (a) the source as it is, in a checkout of its own; (b) the
# same in another checkout path (path dependencies' symbol hashes change, so does the order the
# linker places functions in); (c) like (b) with one unrelated, never-called function added to
# `vm/src/lib.rs` (what BENCHMARKS 1.4 and issue 35 found moved the modes' time ratios by up to
# 50%). The working tree is built as it is (tracked files and new ones git does not ignore).
#
# Usage: scripts/layout-builds.sh OUTDIR
#   Writes OUTDIR/vmrun-a, OUTDIR/vmrun-b, OUTDIR/vmrun-c and prints the --builds argument of
#   `vmrun bench` that measures them side by side, e.g.
#   target/release/vmrun bench --builds "$(scripts/layout-builds.sh /tmp/lb)" --modes none,edge,bl
# Environment: RUSTFLAGS and the workspace's .cargo/config.toml apply to every build, as to any.
# The three builds share one target directory for the dependencies (OUTDIR/target), so after the
# first only the project's crates are compiled again.
set -euo pipefail
out=${1:?usage: scripts/layout-builds.sh OUTDIR}
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CARGO_TARGET_DIR="$out/target"
builds=()
for variant in a b c; do
  # Checkouts of different path lengths: the path is part of each path crate's metadata hash.
  case $variant in
    a) src="$out/src-a" ;;
    b) src="$out/source-tree-b" ;;
    c) src="$out/another-source-tree-c" ;;
  esac
  rm -rf "$src"
  mkdir -p "$src"
  git -C "$root" ls-files -z --cached --others --exclude-standard | (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$src"
  if [[ $variant == c ]]; then
    cat >>"$src/vm/src/lib.rs" <<'RS'

/// Unrelated code, never called (scripts/layout-builds.sh): it only moves the rest.
#[no_mangle]
#[inline(never)]
pub extern "C" fn layout_builds_unrelated(n: u64) -> u64 {
    let mut h = n;
    for i in 0..n {
        h = h.rotate_left(7) ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if h % 3 == 0 {
            h = h.wrapping_add(i * i);
        }
    }
    h
}
RS
  fi
  echo "layout build $variant in $src" >&2
  (cd "$src" && cargo build --release -q -p vm --bin vmrun) >&2
  cp "$CARGO_TARGET_DIR/release/vmrun" "$out/vmrun-$variant"
  builds+=("$variant=$out/vmrun-$variant")
done
(IFS=,; echo "${builds[*]}")
