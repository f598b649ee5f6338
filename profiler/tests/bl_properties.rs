//! Property tests of Ball-Larus numbering, regeneration, placement and execution against the
//! reference semantics in `bl_oracle` (definitions only), on random structured (reducible) and
//! arbitrary (possibly irreducible) CFGs, both path-end strategies, both numberings, both
//! placements, with and without the overflow fallback.

mod bl_oracle;

use bl_oracle::{count_paths, static_paths, Cuts, NodePath};
use profiler::executor::execute;
use profiler::generate::{arbitrary, random_walk, structured, Rng};
use profiler::{BallLarus, BlError, Cfg, EdgeProfile, Numbering, PathEnds, Placement, Trace};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug)]
enum Shape {
    Structured { size: usize, depth: u32 },
    Arbitrary { nodes: usize, extra: usize },
}

fn make(shape: Shape, seed: u64) -> Cfg {
    match shape {
        Shape::Structured { size, depth } => structured(seed, size, depth),
        Shape::Arbitrary { nodes, extra } => arbitrary(seed, nodes, extra),
    }
}

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (2usize..40, 1u32..4).prop_map(|(size, depth)| Shape::Structured { size, depth }),
        (2usize..12, 0usize..10).prop_map(|(nodes, extra)| Shape::Arbitrary { nodes, extra }),
    ]
}

fn path_ends() -> impl Strategy<Value = PathEnds> {
    prop_oneof![Just(PathEnds::Header), Just(PathEnds::Backedge)]
}

fn random_profile(cfg: &Cfg, rng: &mut Rng) -> EdgeProfile {
    let mut p = EdgeProfile::zeros(cfg);
    for e in cfg.edges() {
        p.edges[e] = rng.below(5);
    }
    p
}

const CAP: usize = 20_000;

/// The static numbering is perfect: ids 0..N-1 regenerate to distinct paths, exactly the paths
/// enumerated by definition.
fn check_numbering(
    cfg: &Cfg,
    bl: &BallLarus,
    ends: PathEnds,
) -> Result<Option<BTreeSet<NodePath>>, TestCaseError> {
    let cuts = Cuts::new(cfg, ends, bl.dag().extra_cuts());
    let Some(expected) = static_paths(cfg, &cuts, CAP) else {
        return Ok(None);
    };
    prop_assert_eq!(bl.num_paths(), expected.len() as u64);
    let mut got = BTreeSet::new();
    for id in 0..bl.num_paths() {
        let p = bl
            .regenerate(cfg, id)
            .expect("every id below N regenerates");
        prop_assert!(
            got.insert((p.nodes, p.end)),
            "id {} regenerates to a path seen before",
            id
        );
    }
    prop_assert!(bl.regenerate(cfg, bl.num_paths()).is_none());
    prop_assert_eq!(&got, &expected);
    Ok(Some(expected))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn numbering_is_perfect_and_plans_count_by_definition(
        shape in shapes(),
        seed in any::<u64>(),
        ends in path_ends(),
        smart in any::<bool>(),
        small_limit in prop_oneof![Just(None), (4u64..60).prop_map(Some)],
    ) {
        let cfg = make(shape, seed);
        let mut rng = Rng::new(seed ^ 0x5151);
        let profile = random_profile(&cfg, &mut rng);
        let numbering = if smart { Numbering::Smart(&profile) } else { Numbering::Canonical };
        let limit = small_limit.unwrap_or(u64::MAX);
        let bl = match BallLarus::new(&cfg, ends, numbering, limit) {
            Ok(bl) => bl,
            Err(BlError::LimitTooSmall { .. }) => {
                // Cutting at every block leaves one path per edge: only a smaller limit may fail.
                prop_assert!(limit < cfg.num_edges().max(1) as u64, "limit {} failed", limit);
                return Ok(());
            }
        };
        prop_assert!(bl.num_paths() <= limit);
        if smart {
            // Bond & McKinley: the hottest edge out of each block has value 0.
            let freqs = profile.dag_frequencies(&cfg, bl.dag());
            for b in cfg.blocks() {
                let hottest = bl.dag().out_edges(b).map(|d| freqs[d]).max();
                let zero = bl.numbering().out_edges_by_value(b).first().copied();
                if let (Some(h), Some(z)) = (hottest, zero) {
                    prop_assert_eq!(freqs[z], h);
                    prop_assert_eq!(bl.numbering().val(z), 0);
                }
            }
        }
        prop_assert_eq!(bl.fallbacks().is_empty(), bl.dag().extra_cuts().is_empty());
        if check_numbering(&cfg, &bl, ends)?.is_none() {
            return Ok(());
        }

        let invocations: Vec<Vec<_>> = (0..1 + rng.below(3)).map(|_| random_walk(&cfg, &mut rng, 40)).collect();
        let trace = Trace::from_invocations(invocations.iter().map(|v| v.as_slice()));
        let cuts = Cuts::new(&cfg, ends, bl.dag().extra_cuts());
        let expected = count_paths(&cfg, &cuts, &invocations);
        let weights = random_profile(&cfg, &mut rng);
        for (placement, w) in [
            (Placement::Plain, None),
            (Placement::EventCounting, None),
            (Placement::EventCounting, Some(&weights)),
            (Placement::EventCounting, Some(&profile)),
        ] {
            let plan = bl.plan(&cfg, placement, w);
            let ex = execute(&cfg, &trace, &plan).unwrap();
            let mut got: BTreeMap<NodePath, u64> = BTreeMap::new();
            for (&id, &c) in &ex.counts {
                prop_assert!(id < bl.num_paths(), "{} emitted id {} >= N", placement, id);
                let p = bl.regenerate(&cfg, id).unwrap();
                *got.entry((p.nodes, p.end)).or_insert(0) += c;
            }
            prop_assert_eq!(&got, &expected, "placement {}", placement);
        }
    }
}

#[test]
fn large_graphs_fall_back_instead_of_overflowing() {
    // 100 diamonds in a row: 2^100 paths, more than u64 holds.
    let mut text = String::from("entry s0\nexit s100\n");
    for i in 0..100 {
        text += &format!(
            "s{i} -> a{i} b{i}\na{i} -> s{}\nb{i} -> s{}\n",
            i + 1,
            i + 1
        );
    }
    let p = profiler::cfg_text::parse_cfg(&text).unwrap();
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        let bl = BallLarus::new(&p.cfg, ends, Numbering::Canonical, u64::MAX).unwrap();
        match bl.fallbacks() {
            [profiler::Fallback::ExtraCuts {
                blocks,
                paths_without: None,
                ..
            }] => assert!(!blocks.is_empty()),
            other => panic!("expected an extra-cut fallback, got {other:?}"),
        }
        // Still perfect: spot-check regeneration at both ends of the id range and the sum.
        let last = bl.regenerate(&p.cfg, bl.num_paths() - 1).unwrap();
        assert!(last.nodes.len() >= 2);
        let mut rng = Rng::new(3);
        let inv = random_walk(&p.cfg, &mut rng, 1000);
        let trace = Trace::from_invocations([inv.as_slice()]);
        let cuts = Cuts::new(&p.cfg, ends, bl.dag().extra_cuts());
        let expected = count_paths(&p.cfg, &cuts, std::slice::from_ref(&inv));
        for placement in [Placement::Plain, Placement::EventCounting] {
            let ex = execute(&p.cfg, &trace, &bl.plan(&p.cfg, placement, None)).unwrap();
            let got: BTreeMap<NodePath, u64> = ex
                .counts
                .iter()
                .map(|(&id, &c)| {
                    let path = bl.regenerate(&p.cfg, id).unwrap();
                    ((path.nodes, path.end), c)
                })
                .collect();
            assert_eq!(got, expected);
        }
    }
}
