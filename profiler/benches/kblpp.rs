//! k-SF construction throughput ([`KSlabForest::push`], k-BLPP paper Figure 6) for K = 2, 4, 8,
//! 16, with children in creation order (`append`), with the paper's suggested fix,
//! move-to-front (`mtf`, section 4.2), with move-to-front after a scan of at least 4
//! siblings (`mtf:4`) and with transposition (`transpose`: a found child swaps with the one
//! before it), against the Ball-Larus baseline: one hash-table increment per path (`bl`, the
//! same table and hash function as the k-SF's roots). Throughput is in paths (stream items).
//!
//! Streams (deterministic, about 200,000 paths, 4 functions, a `*` every call):
//! - `periodic`: calls of 20-80 loop iterations following a fixed pattern of 3 body paths
//!   (`1 1 2`, as a loop with `if (i % 3 == 2)`): a small forest, the common case;
//! - `loop`: calls of 20-80 loop iterations; an iteration takes one of 4 body paths, the first
//!   with probability 70% (a typical loop with a hot path and a few cold branches);
//! - `wide`: 64 body paths, uniform: many children per node, long scans for both orders;
//! - `phased`: each call alternates a common path `c` with one partner path chosen per call
//!   among 64: every slab starting at `c` scans the 64 children of the root of `c` for the
//!   call's partner, which stays the same during the call (the paper's eclipse-like worst case:
//!   long scans on a few high-degree nodes; move-to-front exploits the locality).
//!
//! Before each `push` measurement the bench prints the forest's size, hash operations per path
//! and siblings stepped over per child lookup. `push/*` measures the steady state (the forest already holds every node the stream reaches;
//! no allocation), `build/*` a fresh forest (allocation included), `to_ipf/*` the conversion
//! (`merge`: `to_ipf`; `figure_7`: the literal `to_ipf_figure_7`).
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p profiler --bench kblpp`. Instruction counts of
//! one configuration: see `run_one` and `docs/kblpp.md`.

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use hashbrown::HashMap;
use profiler::kblpp::{KSlabForest, RootKey, Siblings};
use profiler::path_hash::PathKeyHash;
use std::hint::black_box;
use std::time::Duration;

/// `*` in a generated stream.
const STAR: u64 = u64::MAX;

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A stream of (function, id) items, `STAR` ids marking calls.
type Stream = Vec<(u32, u64)>;

fn generate(kind: &str, paths: usize) -> Stream {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Stream::with_capacity(paths + paths / 10);
    let mut produced = 0;
    while produced < paths {
        let f = rng.below(4) as u32;
        out.push((f, STAR));
        // Entry path, then the iterations, then the exit path.
        out.push((f, 0));
        let partner = 1 + rng.below(64);
        let body = |rng: &mut Rng, i: u64| -> u64 {
            match kind {
                "periodic" => 1 + u64::from(i % 3 == 2),
                "loop" => {
                    if rng.below(10) < 7 {
                        1
                    } else {
                        2 + rng.below(3)
                    }
                }
                "wide" => 1 + rng.below(64),
                "phased" => {
                    if i.is_multiple_of(2) {
                        100
                    } else {
                        partner
                    }
                }
                _ => unreachable!("unknown stream kind"),
            }
        };
        let iterations = 20 + rng.below(61);
        for i in 0..iterations {
            out.push((f, body(&mut rng, i)));
        }
        out.push((f, 1000));
        produced += iterations as usize + 2;
    }
    out
}

fn feed(forest: &mut KSlabForest, stream: &Stream) {
    let mut cursor = forest.start();
    for &(function, id) in stream {
        if id == STAR {
            cursor = forest.start();
        } else {
            forest.push(&mut cursor, RootKey::new(function, id));
        }
    }
}

fn bl(table: &mut HashMap<(u32, u64), u64, PathKeyHash>, stream: &Stream) {
    for &(function, id) in stream {
        if id != STAR {
            *table.entry((function, id)).or_insert(0) += 1;
        }
    }
}

fn paths_in(stream: &Stream) -> u64 {
    stream.iter().filter(|&&(_, id)| id != STAR).count() as u64
}

fn bench_push(c: &mut Criterion) {
    for kind in ["periodic", "loop", "wide", "phased"] {
        let stream = generate(kind, 200_000);
        let mut group = c.benchmark_group(format!("push/{kind}"));
        group.throughput(Throughput::Elements(paths_in(&stream)));
        group.sample_size(20);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        let mut table = HashMap::with_hasher(PathKeyHash);
        bl(&mut table, &stream);
        group.bench_function("bl", |b| b.iter(|| bl(black_box(&mut table), &stream)));
        for k in [2u32, 4, 8, 16] {
            for siblings in [
                Siblings::Append,
                Siblings::MoveToFront,
                Siblings::MoveToFrontAfter(4),
                Siblings::Transpose,
            ] {
                let name = siblings.to_string();
                let mut forest = KSlabForest::with_siblings(k, siblings);
                feed(&mut forest, &stream);
                let n = forest.counters();
                eprintln!(
                    "{kind} k={k} {name}: {} k-SF nodes, {:.3} hash ops/path, {:.2} sibling steps/lookup",
                    forest.len(),
                    n.hash_ops as f64 / n.pushes as f64,
                    n.sibling_steps as f64 / n.child_lookups.max(1) as f64
                );
                group.bench_with_input(BenchmarkId::new(&name, k), &k, |b, _| {
                    b.iter(|| feed(black_box(&mut forest), &stream))
                });
            }
        }
        group.finish();
    }
}

fn bench_build_and_convert(c: &mut Criterion) {
    let stream = generate("loop", 200_000);
    let mut group = c.benchmark_group("build/loop");
    group.throughput(Throughput::Elements(paths_in(&stream)));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for k in [2u32, 8, 16] {
        group.bench_with_input(BenchmarkId::new("append", k), &k, |b, &k| {
            b.iter(|| {
                let mut forest = KSlabForest::new(k);
                feed(&mut forest, &stream);
                forest
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("to_ipf/loop");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for k in [2u32, 8, 16] {
        let mut forest = KSlabForest::new(k);
        feed(&mut forest, &stream);
        group.throughput(Throughput::Elements(forest.len() as u64));
        group.bench_with_input(BenchmarkId::new("merge", k), &k, |b, _| {
            b.iter(|| forest.to_ipf())
        });
        group.bench_with_input(BenchmarkId::new("figure_7", k), &k, |b, _| {
            b.iter(|| forest.to_ipf_figure_7())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_push, bench_build_and_convert);

/// `KBLPP_ONE=STREAM,K,ORDER,PASSES` (ORDER: `bl` or a sibling order) runs one configuration
/// PASSES times over the stream instead of the criterion benches and prints the number of
/// paths in the stream: under `valgrind --tool=callgrind`, the difference between 3 passes and
/// 1 pass, divided by twice the paths, is the deterministic cost of a steady-state push.
fn run_one(spec: &str) {
    let parts: Vec<&str> = spec.split(',').collect();
    let [kind, k, order, passes] = parts[..] else {
        panic!("KBLPP_ONE=STREAM,K,ORDER,PASSES, got {spec:?}");
    };
    let k: u32 = k.parse().expect("K");
    let passes: usize = passes.parse().expect("PASSES");
    let stream = generate(kind, 200_000);
    println!("paths {}", paths_in(&stream));
    if order == "bl" {
        let mut table = HashMap::with_hasher(PathKeyHash);
        for _ in 0..passes {
            bl(&mut table, &stream);
        }
        black_box(&table);
    } else {
        let mut forest = KSlabForest::with_siblings(k, order.parse().expect("sibling order"));
        for _ in 0..passes {
            feed(&mut forest, &stream);
        }
        black_box(&forest);
    }
}

fn main() {
    if let Ok(spec) = std::env::var("KBLPP_ONE") {
        run_one(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
