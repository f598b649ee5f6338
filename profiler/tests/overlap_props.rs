//! Property tests of overlapping-path profiling on random structured and arbitrary CFGs
//! (`profiler::generate`), for K = 0..4 and both path-end strategies, against an oracle
//! written here from the definition alone (module docs of `profiler::overlap`), on whole
//! recorded block sequences rather than event by event:
//! - the numbering is dense: every id in `0..N` regenerates to a distinct path whose id it is;
//! - running the probes along random traces counts exactly the OL paths of the oracle;
//! - the bounds from the OL counts and from the Ball-Larus counts contain the real frequency
//!   of every pair of consecutive iterations.

use profiler::executor::execute;
use profiler::generate::{arbitrary, random_walk, structured, Rng};
use profiler::overlap::estimate::{bounds, interesting_by_definition, without_overlaps, Listing};
use profiler::overlap::{OlContext, OlGraph, OlPath, PathValue};
use profiler::trace::Trace;
use profiler::{Block, Cfg, DepthFirst, Loops, PathEnds};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Skip graphs with more paths than this (dense enumeration).
const MAX_PATHS: u64 = 20_000;

/// The OL-`k` paths of one invocation's block sequence, by definition; each extended one also
/// goes to `pairs` with the whole Ball-Larus path that came after its back edge.
fn oracle(
    cfg: &Cfg,
    ends: PathEnds,
    k: u32,
    run: &[Block],
    out: &mut BTreeMap<OlPath, u64>,
    pairs: &mut Vec<(OlPath, Vec<Block>)>,
) {
    let dfs = DepthFirst::compute(cfg);
    let loops = Loops::compute(cfg, &dfs);
    let edge = |a: Block, b: Block| cfg.find_edge(a, b).expect("the run follows edges");
    let back = |a: Block, b: Block| dfs.is_back_edge(edge(a, b));
    let cut = |a: Block, b: Block| match ends {
        PathEnds::Backedge => back(a, b),
        PathEnds::Header => dfs.is_header(b),
    };
    let predicate =
        |b: Block| cfg.out_degree(b) >= 2 || cfg.successors(b).iter().any(|&s| back(b, s));
    let mut start = 0;
    for i in 1..=run.len() {
        let ends_here = i == run.len() || cut(run[i - 1], run[i]);
        if !ends_here {
            continue;
        }
        let nodes = run[start..i].to_vec();
        let end = (i < run.len()).then(|| run[i]);
        let mut overlap = Vec::new();
        if let Some(h) = end.filter(|_| back(run[i - 1], run[i])) {
            let l = loops
                .loop_of_header(h)
                .expect("a back edge enters a header");
            let mut preds = 0;
            let mut j = i;
            loop {
                overlap.push(run[j]);
                preds += u32::from(predicate(run[j]));
                let goes_on =
                    j + 1 < run.len() && !cut(run[j], run[j + 1]) && loops.contains(l, run[j + 1]);
                if preds > k || !goes_on {
                    break;
                }
                j += 1;
            }
        }
        let path = OlPath {
            nodes,
            end,
            overlap,
        };
        if !path.overlap.is_empty() {
            let next_end = (i + 1..=run.len())
                .find(|&j| j == run.len() || cut(run[j - 1], run[j]))
                .expect("the run ends");
            pairs.push((path.clone(), run[i..next_end].to_vec()));
        }
        *out.entry(path).or_insert(0) += 1;
        start = i;
    }
}

fn check(cfg: &Cfg, k: u32, ends: PathEnds, trace_seed: u64) -> Result<(), TestCaseError> {
    let cx = OlContext::new(cfg, ends, k).unwrap();
    let g = match OlGraph::new(&cx) {
        Ok(g) if g.num_paths() <= MAX_PATHS => g,
        _ => return Ok(()),
    };
    let mut seen = BTreeSet::new();
    for id in 0..g.num_paths() {
        let p = g.regenerate(cfg, id).expect("every id names a path");
        prop_assert_eq!(g.id_of(cfg, &p), Some(id), "{:?}", p);
        prop_assert!(seen.insert(p));
    }
    prop_assert!(g.regenerate(cfg, g.num_paths()).is_none());

    let mut rng = Rng::new(trace_seed);
    let runs: Vec<Vec<Block>> = (0..8)
        .map(|_| random_walk(cfg, &mut rng, 300))
        .filter(|r| r.last() == Some(&cfg.exit()))
        .collect();
    let trace = Trace::from_invocations(runs.iter().map(|r| r.as_slice()));
    let mut expected = BTreeMap::new();
    let mut pairs = Vec::new();
    for r in &runs {
        oracle(cfg, ends, k, r, &mut expected, &mut pairs);
    }
    // An OL path's id is its Ball-Larus path's value plus the value of the overlap that the
    // whole next path gives (how the VM counts them).
    for (p, next) in &pairs {
        let Some(PathValue::Head(head)) = g.value_of(cfg, &p.nodes, p.end) else {
            return Err(TestCaseError::fail(format!("{p:?} is not extended")));
        };
        let (tail, taken) = g
            .overlap_value(cfg, next)
            .expect("the next path has an overlap");
        prop_assert_eq!(&next[..taken], &p.overlap[..]);
        prop_assert_eq!(Some(head + tail), g.id_of(cfg, p));
    }
    let counted: BTreeMap<OlPath, u64> = execute(cfg, &trace, &g)
        .unwrap()
        .counts
        .iter()
        .map(|(&id, &c)| (g.regenerate(cfg, id).unwrap(), c))
        .collect();
    prop_assert_eq!(&counted, &expected);

    // The bounds contain the truth, from OL counts and from the same run's BL counts.
    let real = interesting_by_definition(&cx, &trace).unwrap();
    let bl = without_overlaps(&expected);
    for counts in [&counted, &bl] {
        for l in bounds(&cx, counts, Listing::All) {
            let mut flow = 0;
            for b in &l.paths {
                let r = real.get(&b.path).copied().unwrap_or(0);
                prop_assert!(b.lower <= r && r <= b.upper, "{:?}: {} not in bounds", b, r);
                flow += r;
            }
            prop_assert!(l.definite <= flow && flow <= l.potential);
        }
        // Every real pair is one of the bounded ones.
        let bounded: BTreeSet<_> = bounds(&cx, counts, Listing::All)
            .into_iter()
            .flat_map(|l| l.paths.into_iter().map(|b| b.path))
            .collect();
        for p in real.keys() {
            prop_assert!(bounded.contains(p), "{:?} not bounded", p);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn structured_cfgs(seed in any::<u64>(), size in 6usize..48, depth in 1u32..5, k in 0u32..5,
                       header in any::<bool>(), trace_seed in any::<u64>()) {
        let ends = if header { PathEnds::Header } else { PathEnds::Backedge };
        check(&structured(seed, size, depth), k, ends, trace_seed)?;
    }

    #[test]
    fn arbitrary_cfgs(seed in any::<u64>(), nodes in 3usize..16, extra in 0usize..12, k in 0u32..5,
                      header in any::<bool>(), trace_seed in any::<u64>()) {
        let ends = if header { PathEnds::Header } else { PathEnds::Backedge };
        check(&arbitrary(seed, nodes, extra), k, ends, trace_seed)?;
    }
}
