#!/usr/bin/env bash
# Coverage-guided fuzzing of one target for N minutes (docs/testing.md, "Fuzzing").
#
#   scripts/fuzz.sh TARGET MINUTES [JOBS]
#   scripts/fuzz.sh --list
#
# Installs cargo-fuzz from the registry when it is missing (it needs the nightly toolchain,
# installed on the team's machines), seeds the corpus from fuzz/seeds/TARGET (.cfg files,
# streams and profiles of the repository; the front end's are programs/*.c) the first time, runs libFuzzer for
# MINUTES with JOBS processes (default 1), then minimizes the corpus into fuzz/corpus/TARGET,
# which is committed and replayed by `cargo test` (tests/tests/fuzz_replay.rs). A crash leaves
# its input in fuzz/artifacts/TARGET/: copy it into fuzz/corpus/TARGET/ with a name saying
# what it found, fix the bug, and the replay keeps it fixed. The last line printed is the
# run's totals (executions, time), for docs/testing.md.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"
targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^vm-fuzz$')

if [[ "${1:-}" == "--list" ]]; then
    echo "$targets"
    exit 0
fi
if [[ $# -lt 2 ]] || ! grep -qx "$1" <<<"$targets"; then
    echo "usage: scripts/fuzz.sh TARGET MINUTES [JOBS]  (targets: $(echo $targets))" >&2
    exit 2
fi
target=$1
minutes=$2
jobs=${3:-1}

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz from the registry (once)" >&2
    cargo +nightly install cargo-fuzz --locked
fi

corpus="corpus/$target"
work="work/$target"
mkdir -p "$corpus" "$work" "artifacts/$target"
if [[ -d "seeds/$target" ]]; then
    cp -n "seeds/$target"/* "$work"/ 2>/dev/null || true
fi
if [[ "$target" == front_end_bytes ]]; then
    # The repository's programs are the front end's seeds.
    cp -n ../programs/*.c "$work"/ 2>/dev/null || true
fi
cp -n "$corpus"/* "$work"/ 2>/dev/null || true

# AddressSanitizer keeps freed memory in a quarantine (256 MiB by default); a smaller one keeps
# the targets that run thousands of programs in one process under the RSS limit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}
# -rss_limit_mb: a run may not grow past 2 GiB (the targets bound their programs' memory far
# below); -timeout: one input may not take more than 20 s (the compile-and-run target runs gcc).
log="$work.log"
# SANITIZER=none fuzzes without AddressSanitizer (the Rust code is memory-safe but for the
# interpreter's unchecked register and code accesses, which ASan covers): compile_and_run,
# which spawns gcc for every input, grows past the RSS limit under ASan within minutes.
sanitizer=${SANITIZER:-address}
cargo +nightly fuzz run --sanitizer "$sanitizer" "$target" --jobs "$jobs" "$work" -- \
    -max_total_time=$((minutes * 60)) -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 2>&1 | tee "$log" | grep -E "^#[0-9]+.*(pulse|DONE)|ERROR|panicked" || true

# The committed corpus: the inputs that crashed once (named crash-*, kept), then the
# smallest inputs of the minimized working corpus (the set that keeps the coverage reached),
# up to KEEP in all, so that the repository and CI's replay stay small. The whole working
# corpus stays in fuzz/work/TARGET for the next run.
keep=${KEEP:-400}
cargo +nightly fuzz cmin --sanitizer "$sanitizer" "$target" "$work" >/dev/null 2>&1 || true
rm -rf "$corpus.new" && mkdir -p "$corpus.new"
cp "$corpus"/crash-* "$corpus.new"/ 2>/dev/null || true
room=$((keep - $(ls "$corpus.new" | wc -l)))
if [[ $room -gt 0 ]]; then
    # (A process substitution: `head` closing the pipe early must not fail the script.)
    mapfile -t smallest < <(ls -S -r "$work" | head -n "$room")
    for f in "${smallest[@]}"; do cp "$work/$f" "$corpus.new/"; done
fi
rm -rf "$corpus" && mv "$corpus.new" "$corpus"
echo "$target: $(ls "$corpus" | wc -l) corpus inputs kept in fuzz/$corpus ($(ls "$work" | wc -l) in fuzz/$work)"
grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|Done [0-9]+ runs" "$log" | tail -3
if ls "artifacts/$target"/crash-* >/dev/null 2>&1 || grep -q "ERROR: libFuzzer" "$log"; then
    echo "$target: FOUND A CRASH: see fuzz/artifacts/$target/ and $log" >&2
    exit 1
fi
