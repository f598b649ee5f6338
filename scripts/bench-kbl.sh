#!/usr/bin/env bash
# k-BLPP overhead (issue 5; BENCHMARKS.md, "k-BLPP overhead"): `--profile=kbl:K` against `bl`
# and `none` on the loop-heavy programs, default tier-up, header path ends.
#
# Usage: scripts/bench-kbl.sh [PROGRAM.c ...]   default: programs/bench_*.c programs/twins/*.c
#   KS="2 3 4 6 8 11 16"   the K measured
#   IR=0                   skip the callgrind instruction counts (slow: ~50x a run)
#   IR_KS="2 4 8 16"       the K measured under callgrind (default: all of KS)
#   RUNS=N                 hyperfine runs per command (default 5)
# Prints three Markdown tables:
#   1. instructions (callgrind `Ir`, deterministic): kbl:K/bl and kbl:K/none;
#   2. wall time (hyperfine medians): kbl:K/bl; every command of one program in one hyperfine
#      session (interleaved is not possible with hyperfine; commands run one after the other,
#      each `RUNS` times: the machine is shared and noisy, so differences below ~5% are noise);
#   3. peak RSS (`/usr/bin/time -f %M`, KiB) of none, bl and kbl:16, and whether kbl:16 stays
#      within 1 GiB.
# The forest statistics (hash operations, k-SF nodes, bytes) come from
# `cargo bench -p vm --bench kbl` (deterministic counts).
set -euo pipefail
cd "$(dirname "$0")/.."
ks=${KS:-"2 3 4 6 8 11 16"}
ir_ks=${IR_KS:-$ks}
runs=${RUNS:-5}
cargo build --release -p vm --bin vmrun >&2
vmrun=${CARGO_TARGET_DIR:-target}/release/vmrun
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(programs/bench_*.c programs/twins/*.c)
out=$(mktemp -d)
for p in "${programs[@]}"; do
  name=$(echo "$p" | sed 's|programs/||; s|/|_|g; s|\.c$||')
  if [ "${IR:-1}" != 0 ]; then
    for m in none bl $(for k in $ir_ks; do echo kbl:$k; done); do
      ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$vmrun" --profile="$m" "$p" \
           2>&1 >/dev/null </dev/null | sed -n 's/.*Collected : //p' || true)
      echo "$name $m $ir" >> "$out/ir"
    done
  fi
  args=(-n none "$vmrun --profile=none $p" -n bl "$vmrun --profile=bl $p")
  for k in $ks; do args+=(-n "kbl:$k" "$vmrun --profile=kbl:$k $p"); done
  hyperfine -N -i --warmup 1 --runs "$runs" --style none --export-json "$out/$name.json" "${args[@]}" >/dev/null 2>&1
  for m in none bl kbl:16; do
    rss=$( { /usr/bin/time -f %M "$vmrun" --profile="$m" "$p" >/dev/null </dev/null || true; } 2>&1 | tail -1)
    echo "$name $m $rss" >> "$out/rss"
  done
done
python3 - "$out" "$ks" "$ir_ks" <<'PY'
import json, os, statistics, sys
d, ks, ir_ks = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
def table(path):
    t = {}
    if os.path.exists(path):
        for line in open(path):
            name, mode, v = line.split()
            t.setdefault(name, {})[mode] = int(v)
    return t
ir = table(os.path.join(d, "ir"))
if ir:
    print("Instructions (callgrind Ir): kbl:K/bl, then kbl:K/none")
    print("| program | bl/none | " + " | ".join(f"kbl:{k}/bl" for k in ir_ks) + " | " + " | ".join(f"kbl:{k}/none" for k in ir_ks) + " |")
    print("|" + "---|" * (2 + 2 * len(ir_ks)))
    for name in sorted(ir):
        r = ir[name]
        cells = [f"{r['bl'] / r['none']:.3f}"]
        cells += [f"{r['kbl:' + k] / r['bl']:.3f}" for k in ir_ks]
        cells += [f"{r['kbl:' + k] / r['none']:.3f}" for k in ir_ks]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
print("Wall time (hyperfine medians): none and bl in ms, kbl:K/bl")
print("| program | none ms | bl ms | " + " | ".join(f"kbl:{k}/bl" for k in ks) + " |")
print("|" + "---|" * (3 + len(ks)))
worse8 = []
for f in sorted(os.listdir(d)):
    if not f.endswith(".json"):
        continue
    res = {r["command"]: r["median"] for r in json.load(open(os.path.join(d, f)))["results"]}
    cells = [f"{res['none'] * 1000:.1f}", f"{res['bl'] * 1000:.1f}"]
    cells += [f"{res['kbl:' + k] / res['bl']:.3f}" for k in ks]
    if "kbl:8" in res:
        worse8.append(res["kbl:8"] / res["bl"])
    print(f"| {f[:-5]} | " + " | ".join(cells) + " |")
if worse8:
    ok = sum(1 for r in worse8 if r <= 1.0)
    print(f"\nkbl:8 no slower than bl on {ok}/{len(worse8)} programs; worst kbl:8/bl {max(worse8):.3f}; median {statistics.median(worse8):.3f}")
rss = table(os.path.join(d, "rss"))
print("\nPeak RSS (KiB)")
print("| program | none | bl | kbl:16 | kbl:16 within 1 GiB |")
print("|---|---|---|---|---|")
for name in sorted(rss):
    r = rss[name]
    print(f"| {name} | {r['none']} | {r['bl']} | {r['kbl:16']} | {'yes' if r['kbl:16'] < 1 << 20 else 'NO'} |")
PY
rm -rf "$out"
