//! Dense array against hash table for path-frequency tables ([`profiler::counters`]): where is
//! the crossover that sets `DENSE_LIMIT`?
//!
//! Groups (each table kind forced with `PathCounters::with_dense_limit`, so both are measured
//! at the same static path count N, 2^6 to 2^22):
//! - `increment/<pattern>`: 4096 increments of precomputed ids, per N. Patterns: `hot` (8
//!   distinct ids in a cycle: a loop alternating between a few paths, the common case), `spread`
//!   (xorshift ids among 1024 distinct ids spread over `0..N`: a function with many live paths),
//!   `uniform` (xorshift ids over all of `0..N`: the worst case for both kinds' caches).
//! - `lifetime`: what a function's table costs over a short profiled life: create it, count
//!   the `hot` pattern 64 times (262,144 increments), list the counted ids
//!   (`iter`), drop it. The dense table pays creation and the final scan in proportion to N.
//!
//! Before running, it prints the memory (`memory_bytes`) of each kind after the `spread` and
//! `uniform` patterns, per N. Results and the chosen limit: `docs/kiter-runtime.md`.
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p profiler --bench counters`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use profiler::counters::PathCounters;
use std::hint::black_box;
use std::time::Duration;

const SIZES: [u32; 7] = [6, 10, 14, 16, 18, 20, 22];
const BATCH: usize = 4096;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// `BATCH` ids for `pattern` over `0..n`.
fn ids(pattern: &str, n: u64) -> Vec<u64> {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    match pattern {
        "hot" => (0..BATCH as u64).map(|i| (i % 8) * (n / 8)).collect(),
        "spread" => {
            let live: Vec<u64> = (0..1024).map(|_| xorshift(&mut s) % n).collect();
            (0..BATCH)
                .map(|_| live[(xorshift(&mut s) % 1024) as usize])
                .collect()
        }
        "uniform" => (0..BATCH).map(|_| xorshift(&mut s) % n).collect(),
        _ => unreachable!("unknown pattern"),
    }
}

fn table(n: u64, dense: bool) -> PathCounters {
    PathCounters::with_dense_limit(n, if dense { u64::MAX } else { 0 })
}

fn kind(dense: bool) -> &'static str {
    if dense {
        "dense"
    } else {
        "hash"
    }
}

fn print_memory() {
    eprintln!("memory_bytes after {BATCH} increments (dense / hash):");
    for &p in &SIZES {
        let n = 1u64 << p;
        let mut line = format!("  N = 2^{p:<2}");
        for pattern in ["spread", "uniform"] {
            let mut d = table(n, true);
            let mut h = table(n, false);
            for &id in &ids(pattern, n) {
                d.count(id);
                h.count(id);
            }
            line += &format!(
                "  {pattern}: {} / {} ({} distinct)",
                d.memory_bytes(),
                h.memory_bytes(),
                h.len()
            );
        }
        eprintln!("{line}");
    }
}

fn increments(c: &mut Criterion) {
    print_memory();
    for pattern in ["hot", "spread", "uniform"] {
        let mut g = c.benchmark_group(format!("increment/{pattern}"));
        g.throughput(Throughput::Elements(BATCH as u64));
        for &p in &SIZES {
            let n = 1u64 << p;
            let batch = ids(pattern, n);
            for dense in [true, false] {
                let mut t = table(n, dense);
                // Warm the table: the ids are in it, as in a long run.
                for &id in &batch {
                    t.count(id);
                }
                g.bench_with_input(
                    BenchmarkId::new(kind(dense), format!("2^{p}")),
                    &batch,
                    |b, batch| {
                        b.iter(|| {
                            for &id in batch {
                                t.count(black_box(id));
                            }
                        })
                    },
                );
            }
        }
        g.finish();
    }
}

fn lifetime(c: &mut Criterion) {
    let mut g = c.benchmark_group("lifetime");
    for &p in &SIZES {
        let n = 1u64 << p;
        let batch = ids("hot", n);
        for dense in [true, false] {
            g.bench_with_input(
                BenchmarkId::new(kind(dense), format!("2^{p}")),
                &batch,
                |b, batch| {
                    b.iter(|| {
                        let mut t = table(n, dense);
                        for _ in 0..64 {
                            for &id in batch {
                                t.count(black_box(id));
                            }
                        }
                        black_box(t.iter().count())
                    })
                },
            );
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800));
    targets = increments, lifetime
}
criterion_main!(benches);
