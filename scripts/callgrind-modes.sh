#!/usr/bin/env bash
# Counts the instructions of every program under every profiling mode with callgrind (exact and
# independent of the machine's load), two runs at a time, and prints each mode's ratio: to `none`
# for `edge` and `bl`, to `bl` for `kiter:K` and `kbl:K` (the issue's goals), with median and
# worst over the programs. Given a second results directory, also each mode's change against it.
#
# Usage: scripts/callgrind-modes.sh VMRUN OUTDIR MODES PROGRAM.c...
#        scripts/callgrind-modes.sh --table OUTDIR [BASEDIR]
#   MODES is comma-separated, e.g. none,edge,bl,kiter:2,kiter:3,kbl:8,kbl:16 (`none` is needed
#   for the ratios to `none`, `bl` for those to `bl`). OUTDIR gets one PROGRAM.MODE.ir file per
#   run (the instruction count) and is reused: runs whose file exists are skipped.
# Needs: valgrind, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

table() {
  python3 - "$@" <<'PY'
import glob, os, statistics, sys
ORDER = ["none", "edge", "bl", "kiter:2", "kiter:3", "kbl:2", "kbl:4", "kbl:8", "kbl:16"]
def load(d):
    r = {}
    for f in glob.glob(os.path.join(d, "*.ir")):
        name, mode = os.path.basename(f)[:-3].split(".", 1)
        text = open(f).read().strip()
        if text:
            r[(name, mode)] = int(text)
    return r
runs = load(sys.argv[1])
base = load(sys.argv[2]) if len(sys.argv) > 2 else None
progs = sorted({p for p, _ in runs})
modes = sorted({m for _, m in runs}, key=lambda m: ORDER.index(m) if m in ORDER else 99)
ref = lambda m: "bl" if m.startswith("k") else "none"
print("| program | " + " | ".join(f"{m}" + ("" if m == "none" else f"/{ref(m)}") for m in modes) + " |")
print("|---|" + "---:|" * len(modes))
for p in progs:
    cells = []
    for m in modes:
        v, r = runs.get((p, m)), runs.get((p, ref(m)))
        cells.append(f"{v / 1e6:.0f} M" if m == "none" and v else f"{v / r:.3f}" if v and r else "-")
    print(f"| {p} | " + " | ".join(cells) + " |")
print()
for m in modes:
    if m == "none":
        continue
    rs = [runs[(p, m)] / runs[(p, ref(m))] for p in progs if (p, m) in runs and (p, ref(m)) in runs]
    if rs:
        worst = max(progs, key=lambda p: runs.get((p, m), 0) / runs.get((p, ref(m)), 1))
        print(f"{m}/{ref(m)}: median {statistics.median(rs):.3f}, worst {max(rs):.3f} ({worst})")
if base:
    print()
    for m in modes:
        rs = [runs[(p, m)] / base[(p, m)] for p in progs if (p, m) in runs and (p, m) in base]
        if rs:
            print(f"{m} against the base: geometric mean {statistics.geometric_mean(rs):.4f}, "
                  f"from {min(rs):.3f} to {max(rs):.3f}")
PY
}

if [[ "${1:-}" == "--table" ]]; then
  shift
  table "$@"
  exit 0
fi
if [[ $# -lt 4 ]]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
vmrun=$(realpath "$1"); out=$2; modes=$3; shift 3
mkdir -p "$out"
for mode in ${modes//,/ }; do
  for prog in "$@"; do
    name=$(basename "$prog" .c)
    [[ -s "$out/$name.$mode.ir" ]] || printf '%s\0%s\0%s\0' "$mode" "$prog" "$out/$name.$mode.ir"
  done
done | xargs -0 -n3 -P2 sh -c '
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$0" --profile="$1" "$2" 2>&1 >/dev/null \
    | sed -n "s/.*I *refs: *//p" | tr -d , > "$3"' "$vmrun"
table "$out"
