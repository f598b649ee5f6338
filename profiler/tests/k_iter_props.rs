//! Property tests of k-iteration profiling against oracles written from the design note alone
//! (`k_iter_support`): on random structured (reducible, nested loops, early exits, multiway
//! branches) and arbitrary (irreducible, self-loops, infinite loops) CFGs, from the test's own
//! small generators and from the crate's (`profiler::generate`), for K = 1..4 and both path-end
//! strategies:
//! - the numbering is perfect: the ids are exactly `0..N`, each identifies a distinct path, and
//!   the paths are exactly those a brute-force exploration of the reference semantics counts;
//! - running the plan along random traces emits, in order, the ids of exactly the paths the
//!   reference semantics counts, for every placement;
//! - K = 1 is Ball-Larus (the same id for every path);
//! - under a lowered path limit, the fallbacks (acyclic loops, extra cuts) are reported and the
//!   numbering stays perfect for the semantics with those fallbacks.

mod k_iter_support;

use k_iter_support::{arbitrary, structured, walk, Params, RefPath, Rng, Structure};
use profiler::ball_larus::{BallLarus, Fallback, Numbering};
use profiler::executor::StreamItem;
use profiler::k_iteration::{execute, KIterConfig, KIterError, KIteration, KPlacement};
use profiler::trace::Trace;
use profiler::{Block, Cfg, DepthFirst, Loops, PathEnds};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Brute force gives up (and the case is skipped) beyond this many machine states.
const MAX_STATES: usize = 100_000;

fn ends_of(header: bool) -> PathEnds {
    if header {
        PathEnds::Header
    } else {
        PathEnds::Backedge
    }
}

/// Checks everything for one CFG; `trace_seed` drives the random traces.
fn check(
    cfg: &Cfg,
    k: u32,
    ends: PathEnds,
    max_paths: u64,
    trace_seed: u64,
) -> Result<(), TestCaseError> {
    let dfs = DepthFirst::compute(cfg);
    let loops = Loops::compute(cfg, &dfs);
    let config = KIterConfig {
        k,
        path_ends: ends,
        max_paths,
    };
    let kit = match KIteration::compute(cfg, &dfs, &loops, config) {
        Ok(kit) => kit,
        Err(KIterError::LimitTooSmall { .. }) if max_paths < u64::MAX => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("numbering failed: {e}"))),
    };
    let s = Structure::new(cfg);

    // The k-loops are the innermost loops, minus those reported as demoted.
    let k_headers: BTreeSet<Block> = kit.k_loops().iter().map(|&l| loops.header(l)).collect();
    let demoted: BTreeSet<Block> = kit
        .fallbacks()
        .iter()
        .filter_map(|f| match f {
            Fallback::LoopToAcyclic { header, .. } => Some(*header),
            Fallback::ExtraCuts { .. } => None,
        })
        .collect();
    prop_assert!(k_headers.is_disjoint(&demoted));
    if k > 1 || kit.cut_blocks().is_empty() {
        prop_assert_eq!(&k_headers | &demoted, s.innermost_headers());
    } else {
        // K = 1 with extra cuts is Ball-Larus with those cuts: no loop is a k-loop, and none is
        // reported as demoted (one iteration is acyclic profiling anyway).
        prop_assert!(k_headers.is_empty() && demoted.is_empty());
    }
    if max_paths == u64::MAX {
        prop_assert!(
            kit.fallbacks().is_empty(),
            "fallbacks without a limit: {:?}",
            kit.fallbacks()
        );
    }
    prop_assert!(kit.num_paths() <= max_paths);

    let params = Params {
        s: &s,
        k: k as usize,
        ends,
        k_headers: k_headers.iter().map(|b| b.index()).collect(),
        cuts: kit.cut_blocks().iter().map(|b| b.index()).collect(),
    };
    let Some(brute) = params.brute_force(MAX_STATES) else {
        return Ok(());
    };

    // Perfect numbering.
    prop_assert_eq!(kit.num_paths(), brute.len() as u64);
    let mut seen: BTreeSet<RefPath> = BTreeSet::new();
    for r in kit.paths() {
        let (id, p) = r.map_err(|e| TestCaseError::fail(e.to_string()))?;
        let rp = (p.nodes, p.end);
        prop_assert!(
            brute.contains(&rp),
            "id {} is {:?}, which the semantics never counts",
            id,
            rp
        );
        prop_assert!(seen.insert(rp), "id {} repeats a path", id);
    }
    prop_assert_eq!(kit.identify(kit.num_paths()).ok().flatten(), None);

    // K = 1 is Ball-Larus.
    if k == 1 {
        let bl = BallLarus::new(cfg, ends, Numbering::Canonical, max_paths).expect("BL numbering");
        prop_assert_eq!(bl.num_paths(), kit.num_paths());
        for id in 0..bl.num_paths() {
            prop_assert_eq!(
                bl.regenerate(cfg, id),
                kit.identify(id).unwrap(),
                "id {}",
                id
            );
        }
    }

    // Running the plan = the reference semantics, on random traces.
    if s_entry_reaches_exit(cfg) {
        let mut rng = Rng::new(trace_seed);
        let invocations: Vec<Vec<Block>> = (0..1 + rng.below(3))
            .map(|_| walk(cfg, &mut rng, 60))
            .collect();
        let mut expected: Vec<Option<RefPath>> = Vec::new();
        for inv in &invocations {
            expected.push(None);
            expected.extend(params.run(inv).into_iter().map(Some));
        }
        let trace = Trace::from_invocations(invocations.iter().map(|v| v.as_slice()));
        // Event counting also with the trace's own edge profile as spanning-tree weights.
        let profile = profiler::trace::edge_profile(cfg, &trace).expect("the trace fits the CFG");
        let plans = [
            kit.plan(KPlacement::EdgeValues),
            kit.plan(KPlacement::DummyRemoval),
            kit.plan(KPlacement::EventCounting),
            kit.plan_weighted(KPlacement::EventCounting, Some(&profile)),
        ];
        for plan in &plans {
            let placement = plan.placement;
            let run = execute(plan, cfg, &trace, false)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let got: Vec<Option<RefPath>> = run
                .stream
                .iter()
                .map(|item| match item {
                    StreamItem::Invocation => None,
                    StreamItem::Path(id) => kit.identify(*id).unwrap().map(|p| (p.nodes, p.end)),
                })
                .collect();
            prop_assert_eq!(&got, &expected, "placement {}", placement);
        }
    }
    Ok(())
}

fn s_entry_reaches_exit(cfg: &Cfg) -> bool {
    !cfg.blocks_not_reaching_exit().contains(&cfg.entry())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn structured_cfgs(seed in any::<u64>(), size in 4usize..16, k in 1u32..=4, header in any::<bool>(), t in any::<u64>()) {
        let cfg = structured(seed, size);
        check(&cfg, k, ends_of(header), u64::MAX, t)?;
    }

    #[test]
    fn arbitrary_cfgs(seed in any::<u64>(), n in 3usize..9, reach in any::<bool>(), k in 1u32..=4, header in any::<bool>(), t in any::<u64>()) {
        let cfg = arbitrary(seed, n, reach);
        check(&cfg, k, ends_of(header), u64::MAX, t)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// A limit below the k-iteration path count forces loops to acyclic profiling, and a limit
    /// below the acyclic count forces extra cuts: both are reported, and the result is perfect
    /// for the semantics with those fallbacks.
    #[test]
    fn lowered_limits(seed in any::<u64>(), size in 6usize..16, k in 1u32..=4, header in any::<bool>(), frac in 1u64..100, irregular in any::<bool>(), t in any::<u64>()) {
        let cfg = if irregular { arbitrary(seed, 3 + size / 2, true) } else { structured(seed, size) };
        let dfs = DepthFirst::compute(&cfg);
        let loops = Loops::compute(&cfg, &dfs);
        let full = KIteration::compute(&cfg, &dfs, &loops, KIterConfig::new(k, ends_of(header))).unwrap();
        let limit = (full.num_paths() * frac / 100).max(1);
        check(&cfg, k, ends_of(header), limit, t)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The crate's own generators (`profiler::generate`): structured programs with switches and
    /// continues, and arbitrary graphs with shuffled successor lists.
    #[test]
    fn crate_generated_cfgs(
        seed in any::<u64>(),
        structured_graph in any::<bool>(),
        size in 3usize..16,
        depth in 1u32..4,
        extra in 0usize..8,
        k in 1u32..=4,
        header in any::<bool>(),
        t in any::<u64>(),
    ) {
        let cfg = if structured_graph {
            profiler::generate::structured(seed, size, depth)
        } else {
            profiler::generate::arbitrary(seed, 3 + size / 2, extra)
        };
        check(&cfg, k, ends_of(header), u64::MAX, t)?;
    }
}
