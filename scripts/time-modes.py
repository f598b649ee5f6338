#!/usr/bin/env python3
"""Wall-clock and CPU time of `vmrun --profile=MODE prog.c` for several modes, interleaved.

Usage: scripts/time-modes.py [--vmrun PATH] [--runs N] [--min-ms M] MODE... -- PROG.c...

The first mode is the base of every ratio. For each program, every mode runs once as a
warm-up, then N rounds run every mode once each, in an order rotated every round, so a change
of machine load during the measurement falls on all modes alike (hyperfine times one command's
runs after the other's). Per mode the median wall time and the median CPU time (user + system
of the child, from wait4) are kept; the table gives their ratios to the base mode. Programs
whose base wall time is below --min-ms are left out of the time medians (their ratios are
shown but are mostly process start-up), unless --min-ms is 0.
Prints a Markdown table and the medians of the ratios.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    """Runs `cmd` with output discarded; returns (wall seconds, cpu seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = 0  # reaped by wait4; keep Popen from waiting again
    return wall, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vmrun", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "vmrun"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--min-ms", type=float, default=0.0)
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if "--" not in args.rest:
        ap.error("give the modes, then --, then the programs")
    cut = args.rest.index("--")
    modes, programs = args.rest[:cut], args.rest[cut + 1:]
    if len(modes) < 2 or not programs:
        ap.error("need at least two modes and one program")
    base = modes[0]
    rows = []
    wall_ratios = {m: [] for m in modes[1:]}
    cpu_ratios = {m: [] for m in modes[1:]}
    for prog in programs:
        cmds = {m: [args.vmrun, f"--profile={m}", prog] for m in modes}
        for m in modes:
            run_once(cmds[m])
        wall = {m: [] for m in modes}
        cpu = {m: [] for m in modes}
        for r in range(args.runs):
            order = modes[r % len(modes):] + modes[:r % len(modes)]
            for m in order:
                w, c = run_once(cmds[m])
                wall[m].append(w)
                cpu[m].append(c)
        med_w = {m: statistics.median(wall[m]) for m in modes}
        med_c = {m: statistics.median(cpu[m]) for m in modes}
        counted = args.min_ms == 0 or med_w[base] * 1000 >= args.min_ms
        cells = []
        for m in modes[1:]:
            rw = med_w[m] / med_w[base]
            rc = med_c[m] / med_c[base] if med_c[base] > 0 else float("nan")
            if counted:
                wall_ratios[m].append(rw)
                cpu_ratios[m].append(rc)
            cells.append(f"{rw:.3f} / {rc:.3f}")
        name = prog.replace("programs/", "").replace("/", "_").removesuffix(".c")
        rows.append(f"| {name} | {med_w[base] * 1000:.1f} | " + " | ".join(cells) + " |")
        print(f"{name} done", file=sys.stderr)
    print(f"| program | {base} wall ms | " +
          " | ".join(f"{m}/{base} wall / cpu" for m in modes[1:]) + " |")
    print("|---|---|" + "---|" * (len(modes) - 1))
    print("\n".join(rows))
    print()
    for m in modes[1:]:
        w, c = wall_ratios[m], cpu_ratios[m]
        if w:
            print(f"median {m}/{base}: wall {statistics.median(w):.3f} (max {max(w):.3f}), "
                  f"cpu {statistics.median(c):.3f} (max {max(c):.3f}) over {len(w)} programs")


if __name__ == "__main__":
    main()
