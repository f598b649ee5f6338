//! Ball-Larus numbering and placement on generated structured CFGs of 10^3 to 10^5 blocks.
//! Goal (issue 3): linear growth; a 100,000-block CFG numbered and placed in under 50 ms.
//!
//! Each iteration runs the whole pipeline a VM would run on tier-up: depth-first search, path
//! DAG, numbering (with the overflow fallback when the path count exceeds u64), and the plan.
//!
//! Run: `cargo bench -p profiler --bench bl_numbering`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use profiler::generate::structured;
use profiler::{BallLarus, Numbering, PathEnds, Placement};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("bl_number_and_place");
    group.sample_size(20);
    // Requested sizes chosen so that the pruned graphs have about 10^3, 10^4 and 10^5 blocks.
    for &size in &[1_200usize, 10_500, 105_000] {
        let cfg = structured(42, size, 6);
        group.throughput(Throughput::Elements(cfg.num_blocks() as u64));
        for (label, ends, placement) in [
            ("header/plain", PathEnds::Header, Placement::Plain),
            (
                "header/event-counting",
                PathEnds::Header,
                Placement::EventCounting,
            ),
            ("backedge/plain", PathEnds::Backedge, Placement::Plain),
        ] {
            group.bench_with_input(BenchmarkId::new(label, cfg.num_blocks()), &cfg, |b, cfg| {
                b.iter(|| {
                    let bl = BallLarus::new(cfg, ends, Numbering::Canonical, u64::MAX).unwrap();
                    black_box(bl.plan(cfg, placement, None))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
