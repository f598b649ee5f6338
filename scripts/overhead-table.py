#!/usr/bin/env python3
"""The table and medians of scripts/bench-overhead.sh from its raw results.

Usage: scripts/overhead-table.py DIR MODE...   (the first mode is the base of every ratio)
DIR holds `results` (lines "program mode ir N"; N = 0 when instructions were not counted) and
one hyperfine JSON export per timed program (`program.json`).
"""
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
        if ir[name][base] == 0:
            cells.append("-")
            continue
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
    i = ratios_ir[m]
    parts = []
    if i:
        parts.append(f"instructions {statistics.median(i):.3f} over {len(i)} programs (max {max(i):.3f})")
    if t:
        parts.append(f"time {statistics.median(t):.3f} over {len(t)} timed programs (max {max(t):.3f})")
    print(f"median {m}/{base}: " + "; ".join(parts))
