#!/usr/bin/env python3
"""k-BLPP in bounded memory against the exact forest, on the benchmark suite (issue 20).

    scripts/kbl-bounded.py VMRUN [--k K] [--bounds 1000,10000,100000] [--runs 3] [PROGRAM.c ...]

For every program (default: every program of programs/bench/suite.json), runs
`vmrun --profile=kbl:K --tier-up 0` unbounded and with `--max-nodes N` for each bound, and
compares the k-IPF entries (every sequence of 1 to K consecutive Ball-Larus paths of one
function, with its count):

- top-100: the 100 hottest sequences of the exact run (all functions together, by count), and
  the share of them whose bounded count is exactly the exact one;
- error of the rest: over those of the 100 whose count differs, the mean relative error
  (exact - bounded) / exact;
- lower bounds: whether the bounded profile marked any function's counts as lower bounds
  (`lost_at_most` > 0), and that every bounded count is at most the exact one;
- time: the CPU seconds (user + sys) of each run, the modes interleaved, minimum of `--runs`,
  and the ratio bounded / unbounded.

Prints one Markdown table per bound, then the medians, for BENCHMARKS.md.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(vmrun, program, k, bound, out):
    args = [vmrun, f"--profile=kbl:{k}", "--tier-up=0", f"--profile-out={out}"]
    if bound:
        args.append(f"--max-nodes={bound}")
    args.append(program)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0,) and b"runtime error" in done.stderr:
        sys.exit(f"{program}: {done.stderr.decode()}")
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, json.load(open(out))


def sequences(profile):
    counts, lost = {}, 0
    for f in profile["functions"]:
        for e in f.get("ipf") or []:
            counts[(f["name"], f["file"], tuple(e["ids"]))] = e["count"]
        lost = max(lost, (f.get("stats") or {}).get("lost_at_most", 0))
    return counts, lost


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vmrun")
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--bounds", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_intermixed_args()
    bounds = [int(b) for b in a.bounds.split(",")]
    programs = a.programs
    if not programs:
        suite = json.load(open(os.path.join(ROOT, "programs/bench/suite.json")))
        programs = [
            os.path.join(ROOT, "programs/bench", p["name"] + ".c") for p in suite["programs"]
        ]
    tmp = tempfile.mkdtemp(prefix="kbl-bounded-")
    rows = {b: [] for b in bounds}
    for program in programs:
        name = os.path.basename(program)[:-2]
        times = {b: [] for b in [None] + bounds}
        profiles = {}
        for _ in range(a.runs):
            for b in [None] + bounds:
                seconds, p = run(a.vmrun, program, a.k, b, os.path.join(tmp, f"{b}.json"))
                times[b].append(seconds)
                profiles[b] = p
        exact, _ = sequences(profiles[None])
        top = sorted(exact.items(), key=lambda kv: (-kv[1], kv[0]))[:100]
        base = min(times[None])
        for b in bounds:
            got, lost = sequences(profiles[b])
            over = [s for s, c in got.items() if c > exact.get(s, 0)]
            if over:
                sys.exit(f"{name} --max-nodes {b}: counts above the exact ones: {over[:3]}")
            same = sum(1 for s, c in top if got.get(s, 0) == c)
            errors = [(c - got.get(s, 0)) / c for s, c in top if got.get(s, 0) != c]
            prunings = max(
                ((f.get("stats") or {}).get("prunings", 0) for f in profiles[b]["functions"]),
                default=0,
            )
            rows[b].append(
                {
                    "name": name,
                    "exact_nodes": sum(
                        (f.get("stats") or {}).get("ksf_nodes", 0)
                        for f in profiles[None]["functions"]
                    ),
                    "top": len(top),
                    "same": same,
                    "error": statistics.mean(errors) if errors else 0.0,
                    "lost": lost,
                    "prunings": prunings,
                    "ratio": min(times[b]) / base if base > 0 else 1.0,
                    "seconds": base,
                }
            )
        print(f"{name}: done", file=sys.stderr)
    for b in bounds:
        print(f"\n### `--max-nodes {b}` (kbl:{a.k}, tier-up 0)\n")
        print("| program | exact k-SF nodes | prunings | top-100 exact | mean error of the rest | lower bounds marked | time / unbounded |")
        print("|---|---:|---:|---:|---:|---|---:|")
        for r in rows[b]:
            share = 100.0 * r["same"] / r["top"] if r["top"] else 100.0
            print(
                f"| {r['name']} | {r['exact_nodes']} | {r['prunings']} | {share:.0f}% "
                f"({r['same']}/{r['top']}) | {100 * r['error']:.2f}% | "
                f"{'yes (at most ' + str(r['lost']) + ' below)' if r['lost'] else 'no'} | "
                f"{r['ratio']:.3f} |"
            )
        shares = [100.0 * r["same"] / r["top"] for r in rows[b] if r["top"]]
        ratios = [r["ratio"] for r in rows[b] if r["seconds"] >= 0.2]
        print(
            f"\nMedian share of the top-100 exact: {statistics.median(shares):.1f}%, "
            f"minimum {min(shares):.1f}%; programs at 100%: "
            f"{sum(1 for s in shares if s == 100.0)} of {len(shares)}. Median time ratio "
            f"(programs running 0.2 s or more unbounded): "
            f"{statistics.median(ratios) if ratios else float('nan'):.3f}."
        )


if __name__ == "__main__":
    main()
