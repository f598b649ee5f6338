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
#   SKIP_IR=1    wall time only (no callgrind runs)
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
    if [ -n "${SKIP_IR:-}" ]; then echo "$name $m ir 0" >> "$out/results"; continue; fi
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
python3 scripts/overhead-table.py "$out" "${modes[@]}"
