#!/usr/bin/env bash
# Times vmrun against lua5.4, luajit -joff and python3 on programs/twins/ (same algorithm and
# output in each language) and prints a Markdown table of medians and ratios.
#
# Usage: scripts/bench-twins.sh [RUNS]   (default 7 runs per command, after 1 warm-up run)
# Needs: hyperfine, lua5.4, python3; luajit optional (Lua 5.1 syntax: it cannot run twins that use
# Lua 5.3+ integer division or bitwise operators, shown as "-").
# Every command of one twin is timed in the same session, interleaved by hyperfine, so ratios are
# comparable even on a shared, noisy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
cargo build --release -p vm --bin vmrun >&2
vmrun=${CARGO_TARGET_DIR:-target}/release/vmrun
out=$(mktemp -d)
for c in programs/twins/*.c; do
  name=$(basename "$c" .c)
  cmds=("$vmrun $c" "lua5.4 programs/twins/$name.lua" "python3 programs/twins/$name.py")
  names=(vmrun lua5.4 python3)
  if command -v luajit >/dev/null && luajit -joff "programs/twins/$name.lua" >/dev/null 2>&1; then
    cmds+=("luajit -joff programs/twins/$name.lua"); names+=(luajit-joff)
  fi
  args=()
  for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
  hyperfine -N --warmup 1 --runs "$runs" --style none --export-json "$out/$name.json" "${args[@]}" >/dev/null
done
python3 - "$out" <<'PY'
import json, os, statistics, sys
d = sys.argv[1]
rows, rl, rp, rj = [], [], [], []
for f in sorted(os.listdir(d)):
    res = {r["command"]: r["median"] for r in json.load(open(os.path.join(d, f)))["results"]}
    vm = res["vmrun"]
    lj = res.get("luajit-joff")
    rl.append(vm / res["lua5.4"]); rp.append(vm / res["python3"])
    if lj: rj.append(vm / lj)
    fmt = lambda x: f"{x:.3f}" if x else "-"
    rows.append(f"| {f[:-5]} | {fmt(vm)} | {fmt(res['lua5.4'])} | {fmt(lj)} | {fmt(res['python3'])} "
                f"| {vm/res['lua5.4']:.2f} | {(vm/lj if lj else 0) and f'{vm/lj:.2f}' or '-'} | {vm/res['python3']:.2f} |")
print("| twin | vmrun (s) | lua5.4 (s) | luajit -joff (s) | python3 (s) | vmrun/lua5.4 | vmrun/luajit | vmrun/python3 |")
print("|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
print(f"\nMedian vmrun/lua5.4: {statistics.median(rl):.2f}; max vmrun/python3: {max(rp):.2f}; "
      f"median vmrun/luajit -joff: {statistics.median(rj):.2f} (over {len(rj)} twins)")
PY
