//! k-iteration numbering and placement on generated CFGs of 10^3 to 10^5 blocks, K = 2, 3, 4:
//! the cost should grow as O(K (V + E)). Each iteration runs what a VM runs on tier-up: depth-first
//! search, loops, `KIteration::compute` (with the no-abort fallbacks when the counts exceed u64)
//! and `KIteration::plan` (dummy-edge removal).
//!
//! Two families of CFGs:
//! - `chain`: chains of loop nests; each segment is a diamond followed by a while loop whose body
//!   holds a diamond, a conditional break and, every other segment, an inner loop. Under `header`
//!   path ends the counts fit in a u64 (paths are cut at every header): pure numbering cost.
//!   Under `backedge` path ends they do not, and the bench measures the fallback (every loop
//!   acyclic, then Ball-Larus's extra cuts).
//! - `structured`: the crate's generator (`generate::structured(42, size, 6)`, the same graphs as
//!   the Ball-Larus bench), `header` path ends.
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p profiler --bench k_iter`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use profiler::generate::structured;
use profiler::k_iteration::{KIterConfig, KIteration, KPlacement};
use profiler::{Cfg, CfgBuilder, DepthFirst, Loops, PathEnds};
use std::hint::black_box;

/// A chain of loop nests of about `n` blocks (see the module documentation).
fn loop_chain(n: usize) -> Cfg {
    let mut b = CfgBuilder::new();
    let entry = b.add_block();
    let mut at = entry;
    let mut segment = 0usize;
    while b.num_blocks() + 16 < n {
        // diamond: at -> l, r -> j
        let [l, r, j] = [b.add_block(), b.add_block(), b.add_block()];
        b.add_edge(at, l);
        b.add_edge(at, r);
        b.add_edge(l, j);
        b.add_edge(r, j);
        // while loop: j -> h; h -> body, after
        let [h, body, bl, br, latch, after] = [
            b.add_block(),
            b.add_block(),
            b.add_block(),
            b.add_block(),
            b.add_block(),
            b.add_block(),
        ];
        b.add_edge(j, h);
        b.add_edge(h, body);
        b.add_edge(h, after);
        b.add_edge(body, bl);
        b.add_edge(body, br);
        b.add_edge(bl, latch);
        b.add_edge(br, after); // conditional break
        b.add_edge(br, latch);
        if segment % 2 == 1 {
            // an inner loop in the latch: latch -> ih; ih -> ib, it; ib -> ih; it -> h
            let [ih, ib, it] = [b.add_block(), b.add_block(), b.add_block()];
            b.add_edge(latch, ih);
            b.add_edge(ih, ib);
            b.add_edge(ih, it);
            b.add_edge(ib, ih);
            b.add_edge(it, h);
        } else {
            b.add_edge(latch, h);
        }
        at = after;
        segment += 1;
    }
    let exit = b.add_block();
    b.add_edge(at, exit);
    b.finish(entry, exit).expect("generated CFG is valid")
}

/// The whole pipeline, as a VM runs it on tier-up.
fn number_and_plan(cfg: &Cfg, k: u32, ends: PathEnds) -> (u64, usize) {
    let dfs = DepthFirst::compute(cfg);
    let loops = Loops::compute(cfg, &dfs);
    let kit = KIteration::compute(cfg, &dfs, &loops, KIterConfig::new(k, ends)).expect("numbering");
    let plan = kit.plan(KPlacement::DummyRemoval);
    (kit.num_paths(), plan.values.len())
}

/// A family of generated CFGs: a label, path ends, a generator and three sizes.
type Family = (&'static str, PathEnds, fn(usize) -> Cfg, [usize; 3]);

fn generated_structured(n: usize) -> Cfg {
    structured(42, n, 6)
}

fn bench(c: &mut Criterion) {
    let families: [Family; 3] = [
        (
            "chain/header",
            PathEnds::Header,
            loop_chain,
            [1_000, 10_000, 100_000],
        ),
        (
            "chain/backedge",
            PathEnds::Backedge,
            loop_chain,
            [1_000, 10_000, 100_000],
        ),
        (
            "structured/header",
            PathEnds::Header,
            generated_structured,
            [1_200, 10_500, 105_000],
        ),
    ];
    for (label, ends, make, sizes) in families {
        let mut group = c.benchmark_group(format!("k_iter_number_and_plan/{label}"));
        group.sample_size(10);
        for n in sizes {
            let cfg = make(n);
            group.throughput(Throughput::Elements(cfg.num_blocks() as u64));
            for k in [2u32, 3, 4] {
                let id = BenchmarkId::new(format!("K={k}"), cfg.num_blocks());
                group.bench_with_input(id, &cfg, |bencher, cfg| {
                    bencher.iter(|| black_box(number_and_plan(cfg, k, ends)))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
