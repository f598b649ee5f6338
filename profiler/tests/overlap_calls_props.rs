//! Property tests of the paths across calls (`profiler::overlap::calls`) on random programs:
//! two to four random structured CFGs whose blocks make calls (each visit of a call site
//! calls one of one or two callees, as an indirect call may), run by random walks, for
//! K = 0..4 and 32 and both path-end strategies:
//! - the I-OL-K, II-OL-K and interesting paths counted by `cross_paths_by_definition` equal
//!   those of an oracle written here from section 3.1 alone, on the recorded activations;
//! - the bounds from Ball-Larus counts and from OL-K counts contain the real count of every
//!   interesting path, and name every one that ran;
//! - no part after a call has a degree above `max_overlaps` of its first block;
//! - at K = 32, beyond every overlap, the bounds from OL-K counts are exact;
//! - listing only the pairs with a positive lower bound keeps the flows and lists those,
//!   largest first.

use profiler::generate::{random_walk, structured, Rng};
use profiler::overlap::calls::{
    call_bounds, cross_paths_by_definition, max_overlaps, Activation, Call, CallKey, CallSite,
    CrossCounts, CrossPath, Crossing, Extent, Source,
};
use profiler::overlap::estimate::Listing;
use profiler::overlap::OlContext;
use profiler::{Block, Cfg, DepthFirst, PathEnds};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// A random program: its functions' CFGs and, per function, its call sites: block ->
/// (number of calls, the callees each may call). Function `f` calls only functions above
/// `f`, so runs end.
struct Program {
    cfgs: Vec<Cfg>,
    sites: Vec<BTreeMap<Block, (u32, Vec<u32>)>>,
}

fn program(seed: u64, functions: usize, size: usize, depth: u32) -> Program {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let cfgs: Vec<Cfg> = (0..functions)
        .map(|f| structured(seed.wrapping_add(f as u64 * 7919), size, depth))
        .collect();
    let mut sites = Vec::new();
    for (f, cfg) in cfgs.iter().enumerate() {
        let mut s = BTreeMap::new();
        if f + 1 < functions {
            for b in cfg.blocks() {
                if b != cfg.exit() && rng.chance(30) {
                    let callees = (0..1 + rng.below(2))
                        .map(|_| (f + 1 + rng.below((functions - f - 1) as u64) as usize) as u32)
                        .collect();
                    s.insert(b, (1 + rng.below(2) as u32, callees));
                }
            }
        }
        sites.push(s);
    }
    Program { cfgs, sites }
}

/// The recorded activations: blocks and calls, callees before their callers.
struct Record {
    func: u32,
    blocks: Vec<Block>,
    calls: Vec<Call>,
}

fn run(p: &Program, f: u32, rng: &mut Rng, out: &mut Vec<Record>) -> usize {
    let blocks = random_walk(&p.cfgs[f as usize], rng, 40);
    let mut calls = Vec::new();
    for (at, b) in blocks.iter().enumerate() {
        if let Some((n, callees)) = p.sites[f as usize].get(b) {
            for _ in 0..*n {
                let g = callees[rng.below(callees.len() as u64) as usize];
                let callee = run(p, g, rng, out);
                calls.push(Call { at, callee });
            }
        }
    }
    out.push(Record {
        func: f,
        blocks,
        calls,
    });
    out.len() - 1
}

/// The oracle: section 3.1 on one function's cut edges and predicates, computed here.
struct Rules {
    cut: Vec<Vec<(Block, Block)>>,
    predicate: Vec<Vec<Block>>,
}

impl Rules {
    fn new(cfgs: &[Cfg], ends: PathEnds) -> Rules {
        let mut cut = Vec::new();
        let mut predicate = Vec::new();
        for cfg in cfgs {
            let dfs = DepthFirst::compute(cfg);
            let mut c = Vec::new();
            let mut pr = Vec::new();
            for b in cfg.blocks() {
                let mut branches = cfg.successors(b).len() >= 2;
                for &s in cfg.successors(b).iter() {
                    let back = dfs.is_back_edge(cfg.find_edge(b, s).unwrap());
                    branches |= back;
                    let is_cut = match ends {
                        PathEnds::Backedge => back,
                        PathEnds::Header => dfs.is_header(s),
                    };
                    if is_cut {
                        c.push((b, s));
                    }
                }
                if branches {
                    pr.push(b);
                }
            }
            cut.push(c);
            predicate.push(pr);
        }
        Rules { cut, predicate }
    }

    /// The Ball-Larus path of `blocks` around index `at`: `(start, end)` exclusive.
    fn path_around(&self, f: usize, blocks: &[Block], at: usize) -> (usize, usize) {
        let is_cut = |i: usize| self.cut[f].contains(&(blocks[i - 1], blocks[i]));
        let start = (1..=at).rev().find(|&i| is_cut(i)).unwrap_or(0);
        let end = (at + 1..blocks.len())
            .find(|&i| is_cut(i))
            .unwrap_or(blocks.len());
        (start, end)
    }

    fn cut_part(&self, f: usize, part: &[Block], k: Option<u32>) -> Vec<Block> {
        let Some(k) = k else {
            return part.to_vec();
        };
        let mut out = Vec::new();
        let mut seen = 0;
        for &b in part {
            out.push(b);
            seen += u32::from(self.predicate[f].contains(&b));
            if seen > k {
                break;
            }
        }
        out
    }

    fn counts(&self, records: &[Record], k: Option<u32>) -> CrossCounts {
        let mut counts = CrossCounts::new();
        for r in records {
            let f = r.func as usize;
            for (i, c) in r.calls.iter().enumerate() {
                let nth = r.calls[..i].iter().filter(|d| d.at == c.at).count() as u32;
                let callee = &records[c.callee];
                let g = callee.func as usize;
                let (s, e) = self.path_around(f, &r.blocks, c.at);
                let first = self.path_around(g, &callee.blocks, 0);
                let last = self.path_around(g, &callee.blocks, callee.blocks.len() - 1);
                let key = |crossing| CallKey {
                    crossing,
                    caller: r.func,
                    site: CallSite {
                        block: r.blocks[c.at],
                        nth,
                    },
                    callee: callee.func,
                };
                let into = CrossPath {
                    before: r.blocks[s..=c.at].to_vec(),
                    after: self.cut_part(g, &callee.blocks[first.0..first.1], k),
                };
                let out = CrossPath {
                    before: callee.blocks[last.0..last.1].to_vec(),
                    after: self.cut_part(f, &r.blocks[c.at..e], k),
                };
                *counts.entry((key(Crossing::Into), into)).or_insert(0) += 1;
                *counts.entry((key(Crossing::Out), out)).or_insert(0) += 1;
            }
        }
        counts
    }
}

fn check(p: &Program, k: u32, ends: PathEnds, trace_seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(trace_seed);
    let mut records = Vec::new();
    for _ in 0..6 {
        run(p, 0, &mut rng, &mut records);
    }
    let contexts: Vec<OlContext<'_>> = p
        .cfgs
        .iter()
        .map(|c| OlContext::new(c, ends, k).unwrap())
        .collect();
    let acts: Vec<Activation<'_>> = records
        .iter()
        .map(|r| Activation {
            func: r.func,
            blocks: &r.blocks,
            calls: &r.calls,
            finished: true,
        })
        .collect();
    let rules = Rules::new(&p.cfgs, ends);
    let truth = cross_paths_by_definition(&contexts, &acts, Extent::Whole);
    prop_assert_eq!(&truth, &rules.counts(&records, None));
    let ol = cross_paths_by_definition(&contexts, &acts, Extent::Overlap);
    prop_assert_eq!(&ol, &rules.counts(&records, Some(k)));
    // No part after a call has more predicates than its first block's maximum overlap says.
    let most: Vec<Vec<u32>> = contexts.iter().map(max_overlaps).collect();
    for (key, path) in truth.keys() {
        let f = match key.crossing {
            Crossing::Into => key.callee,
            Crossing::Out => key.caller,
        } as usize;
        let inner = path
            .after
            .iter()
            .filter(|b| rules.predicate[f].contains(b))
            .count();
        let last = *path.after.last().unwrap();
        let degree = (inner + usize::from(!rules.predicate[f].contains(&last))) as u32 - 1;
        prop_assert!(
            degree <= most[f][path.after[0].index()],
            "{:?} {:?}",
            key,
            path
        );
    }

    let mut bl: Vec<BTreeMap<&[Block], u64>> = vec![BTreeMap::new(); p.cfgs.len()];
    for r in &records {
        let f = r.func as usize;
        let mut start = 0;
        while start < r.blocks.len() {
            let (_, end) = rules.path_around(f, &r.blocks, start);
            *bl[f].entry(&r.blocks[start..end]).or_insert(0) += 1;
            start = end;
        }
    }
    let bl: Vec<Vec<(&[Block], u64)>> = bl.into_iter().map(|m| m.into_iter().collect()).collect();
    for source in [Source::BallLarus, Source::Overlap] {
        let bounds = call_bounds(&contexts, &ol, &bl, source, Listing::All);
        let mut cells = BTreeMap::new();
        for site in &bounds {
            prop_assert!(site.definite <= site.calls && site.calls <= site.potential);
            for b in &site.paths {
                let t = truth.get(&(site.key, b.path.clone())).copied().unwrap_or(0);
                prop_assert!(
                    b.lower <= t && t <= b.upper,
                    "{:?} {:?}: {} not in {}..={}",
                    source,
                    site.key,
                    t,
                    b.lower,
                    b.upper
                );
                if k == 32 && source == Source::Overlap {
                    prop_assert_eq!((b.lower, b.upper), (t, t));
                }
                cells.insert((site.key, b.path.clone()), ());
            }
        }
        for key in truth.keys() {
            prop_assert!(cells.contains_key(key), "{:?} has no bounds", key);
        }
        // Listing the definite pairs only: the same flows, the pairs with a lower bound
        // above 0, largest first.
        let definite = call_bounds(&contexts, &ol, &bl, source, Listing::Definite { most: 3 });
        prop_assert_eq!(definite.len(), bounds.len());
        for (d, a) in definite.iter().zip(&bounds) {
            prop_assert_eq!(
                (d.key, d.definite, d.potential),
                (a.key, a.definite, a.potential)
            );
            let mut expected: Vec<_> = a.paths.iter().filter(|b| b.lower > 0).cloned().collect();
            expected.sort_by(|x, y| (y.lower, y.upper, &x.path).cmp(&(x.lower, x.upper, &y.path)));
            expected.truncate(3);
            prop_assert_eq!(&d.paths, &expected);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_programs(seed in any::<u64>(), functions in 2usize..5, size in 4usize..24,
                       depth in 1u32..4, k in prop::sample::select(vec![0u32, 1, 2, 4, 32]),
                       header in any::<bool>(), trace_seed in any::<u64>()) {
        let ends = if header { PathEnds::Header } else { PathEnds::Backedge };
        check(&program(seed, functions, size, depth), k, ends, trace_seed)?;
    }
}
