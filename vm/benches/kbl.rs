//! k-BLPP forest statistics of `--profile=kbl:K` on the loop-heavy programs (issue 5, "k-SF
//! nodes and memory", "hash operations against bl"): for each program and K, the BL paths
//! pushed (one hash-table operation each under `bl`), the root lookups Figure 6 would do (slab
//! starts: the paper predicts `O(1 + N/(K-1))` per call of N paths) and those the k-SF does
//! (one per call and one per shortcut resolved), children lookups and sibling steps, k-SF
//! nodes and roots, the forest's bytes (`KSlabForest::memory_bytes`: node arena capacity and
//! root table) and bytes per node, and k-IPF nodes. Deterministic counts, not timings (those
//! come from `vmrun bench`, which runs the `vmrun` binary under every mode).
//!
//! `cargo bench -p vm --bench kbl [-- PROGRAM.c ...]` (default: the programs listed in
//! `BENCHMARKS.md`, "k-BLPP overhead"); `KBL_KS="2 8"` restricts K; `KBL_SIBLINGS=transpose`
//! (or `mtf`, `mtf:N`) selects the sibling order. Prints a Markdown table.

use std::path::PathBuf;

use profiler::kblpp::Siblings;
use vm::interp::Machine;
use vm::modes::bl::{BlProbes, TierSettings};
use vm::modes::kbl::KblSink;
use vm::{DEFAULT_MAX_DEPTH, DEFAULT_TIER_UP};

/// The programs of `BENCHMARKS.md`, "k-BLPP overhead": the three `bench_*` programs and those
/// whose `none` run takes more than 20 ms in a release build.
const DEFAULT_PROGRAMS: &[&str] = &[
    "bench_branches.c",
    "bench_calls.c",
    "bench_loops.c",
    "life.c",
    "twins/fib.c",
    "twins/heapsort.c",
    "twins/loops.c",
    "twins/matmul.c",
    "twins/nbody.c",
    "twins/sieve.c",
    "twins/spectral.c",
];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs");
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.ends_with(".c"))
        .collect();
    let programs: Vec<String> = if args.is_empty() {
        DEFAULT_PROGRAMS.iter().map(|s| s.to_string()).collect()
    } else {
        args
    };
    let ks: Vec<u32> = std::env::var("KBL_KS")
        .unwrap_or_else(|_| "2 3 4 6 8 11 16".to_string())
        .split_whitespace()
        .map(|k| k.parse().expect("KBL_KS: numbers"))
        .collect();
    let siblings: Siblings = std::env::var("KBL_SIBLINGS")
        .unwrap_or_else(|_| "append".to_string())
        .parse()
        .expect("KBL_SIBLINGS");
    println!(
        "| program | K | BL paths (bl hash ops) | Figure 6 hash ops (slab starts) | per path | 1/(K-1) | k-SF hash ops done | per path | child lookups | sibling steps | k-SF nodes | roots | bytes | bytes/node | k-IPF nodes |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for name in &programs {
        let path = root.join(name);
        let path = if path.exists() {
            path
        } else {
            PathBuf::from(name)
        };
        let source = std::fs::read_to_string(&path).expect("program");
        let program = lang::compile_source(name, &source).expect("compiles");
        for &k in &ks {
            let mut m = Machine::new(&program, DEFAULT_MAX_DEPTH);
            let tiering = TierSettings {
                threshold: DEFAULT_TIER_UP,
                path_ends: profiler::PathEnds::Header,
            };
            let counts = m.branch_counts().clone();
            let sink = KblSink::with_siblings(k, siblings);
            let probes = BlProbes::new(&program, tiering, sink, counts);
            let (_, mut probes) = vm::run::execute(&mut m, probes, &mut std::io::sink());
            let ipf = probes.sink.finish().to_ipf();
            let s = ipf.stats();
            let per_path = |n: u64| n as f64 / s.pushes.max(1) as f64;
            println!(
                "| {name} | {k} | {} | {} | {:.3} | {:.3} | {} | {:.3} | {} | {} | {} | {} | {} | {:.1} | {} |",
                s.pushes,
                s.slab_starts,
                per_path(s.slab_starts),
                1.0 / f64::from(k.max(2) - 1),
                s.hash_ops,
                per_path(s.hash_ops),
                s.child_lookups,
                s.sibling_steps,
                s.ksf_nodes,
                s.ksf_roots,
                s.ksf_bytes,
                s.ksf_bytes as f64 / s.ksf_nodes.max(1) as f64,
                s.ipf.nodes
            );
        }
    }
}
