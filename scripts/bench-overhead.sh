#!/usr/bin/env bash
# Profiling overhead: instruction counts (callgrind's Ir, deterministic: `perf stat -e
# instructions` is not available on our machines) and wall time (hyperfine medians) of every
# program in programs/ and programs/twins/ under several `--profile` modes, as ratios to
# `--profile=none` (or to the first mode given).
#
# Usage: scripts/bench-overhead.sh [MODES...]      default: none edge bl
#   RUNS=N       hyperfine runs per command (default 5); TIME_MIN=S: only time programs whose
#                `none` run takes at least S seconds (default 0.05; shorter runs are all noise)
#   PROGRAMS="a.c b.c"   restrict to these files
#   VMRUN=path   measure this vmrun binary (a saved copy) instead of building one
# Prints a Markdown table and the medians of the ratios (instructions over all programs, time
# over the timed ones). Every command of a program is timed in one hyperfine session,
# interleaved, so ratios are comparable on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
modes=("$@")
[ ${#modes[@]} -eq 0 ] && modes=(none edge bl)
runs=${RUNS:-5}
time_min=${TIME_MIN:-0.05}
if [ -z "${VMRUN:-}" ]; then
  cargo build --release -p vm --bin vmrun >&2
fi
vmrun=${VMRUN:-${CARGO_TARGET_DIR:-target}/release/vmrun}
programs=${PROGRAMS:-$(ls programs/*.c programs/twins/*.c)}
out=$(mktemp -d)
for p in $programs; do
  name=$(echo "$p" | sed 's|programs/||; s|/|_|g; s|\.c$||')
  for m in "${modes[@]}"; do
    ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$vmrun" --profile="$m" "$p" \
         2>&1 >/dev/null </dev/null | sed -n 's/.*Collected : //p' || true)
    echo "$name $m ir $ir" >> "$out/results"
  done
  # Programs may exit with a non-zero status on purpose (exit_negative.c, main_status.c).
  t0=$( { /usr/bin/time -f %e "$vmrun" "$p" >/dev/null </dev/null || true; } 2>&1 | tail -1)
  if python3 -c "import sys; sys.exit(0 if float('$t0') >= $time_min else 1)"; then
    args=()
    for m in "${modes[@]}"; do args+=(-n "$m" "$vmrun --profile=$m $p"); done
    hyperfine -N -i --warmup 1 --runs "$runs" --style none --export-json "$out/$name.json" "${args[@]}" >/dev/null 2>&1 || true
  fi
done
python3 - "$out" "${modes[@]}" <<'PY'
import json, os, statistics, sys
d, modes = sys.argv[1], sys.argv[2:]
ir = {}
for line in open(os.path.join(d, "results")):
    name, mode, _, v = line.split()
    ir.setdefault(name, {})[mode] = int(v)
base = modes[0]
head = "| program | " + " | ".join(f"{m}/{base} Ir" for m in modes[1:]) + " | " + " | ".join(f"{m}/{base} time" for m in modes[1:]) + " |"
print(head)
print("|" + "---|" * (1 + 2 * (len(modes) - 1)))
ratios_ir = {m: [] for m in modes[1:]}
ratios_t = {m: [] for m in modes[1:]}
for name in sorted(ir):
    cells = []
    for m in modes[1:]:
        r = ir[name][m] / ir[name][base]
        ratios_ir[m].append(r)
        cells.append(f"{r:.3f}")
    f = os.path.join(d, name + ".json")
    if os.path.exists(f):
        res = {r["command"]: r["median"] for r in json.load(open(f))["results"]}
        for m in modes[1:]:
            r = res[m] / res[base]
            ratios_t[m].append(r)
            cells.append(f"{r:.3f}")
    else:
        cells += ["-"] * (len(modes) - 1)
    print(f"| {name} | " + " | ".join(cells) + " |")
print()
for m in modes[1:]:
    t = ratios_t[m]
    print(f"median {m}/{base}: instructions {statistics.median(ratios_ir[m]):.3f} over {len(ratios_ir[m])} programs (max {max(ratios_ir[m]):.3f}); "
          f"time {statistics.median(t):.3f} over {len(t)} timed programs" if t else f"median {m}/{base}: instructions {statistics.median(ratios_ir[m]):.3f}")
PY
