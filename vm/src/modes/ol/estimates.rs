//! The `ol` profile's estimates: from the counts of a run, the bounds on the paths of two
//! consecutive iterations of every loop ([`profiler::overlap::estimate::bounds`], Tallam et al.
//! section 2.2) and on the paths across every call site
//! ([`profiler::overlap::calls::call_bounds`], section 3.2), each from the Ball-Larus counts
//! the OL counts hold and from the OL counts themselves, written in each function's
//! [`OverlapSection`].

use std::collections::BTreeMap;

use lang::bytecode::Program;
use profiler::overlap::calls::{
    call_bounds, max_overlaps, CallBounds, CallKey, CrossCounts, CrossPath, Crossing, Source,
};
use profiler::overlap::estimate::{bounds, without_overlaps, Listing, LoopBounds};
use profiler::overlap::{OlContext, OlPath};
use profiler::Block;

use super::OlSink;
use crate::profile::overlap::{CallEstimate, CrossCount, LoopEstimate, PairBounds};
use crate::profile::{FunctionProfile, OverlapSection};
use crate::tier::cfg_build::FunctionCfg;
use crate::ProfileSettings;

/// The pairs a profile lists per loop and per call site: the ones that certainly ran (a
/// lower bound above 0), at most this many, the largest lower bounds first. The flows count
/// every pair; listing them all would be quadratic in the paths (a loop with 9,000 paths has
/// 81 million pairs of iterations).
pub const MAX_LISTED: usize = 100;

const LISTED: Listing = Listing::Definite { most: MAX_LISTED };
const FLOWS_ONLY: Listing = Listing::Definite { most: 0 };

/// What the estimates need of one function's profile.
pub(super) struct Facts {
    /// Its CFG.
    pub fc: FunctionCfg,
    /// Each loop header with the degree of overlap its paths were counted with.
    pub overlaps: Vec<(Block, u32)>,
    /// Its OL path counts.
    pub ol: BTreeMap<OlPath, u64>,
}

fn ids(bs: &[Block]) -> Vec<u32> {
    bs.iter().map(|b| b.as_u32()).collect()
}

/// `(definite, potential)` as a pair.
fn flow(definite: u64, potential: u64) -> [u64; 2] {
    [definite, potential]
}

/// A pair's bounds as the profile writes them.
fn pair_bounds(before: &[Block], after: &[Block], lower: u64, upper: u64) -> PairBounds {
    PairBounds {
        before: ids(before),
        after: ids(after),
        lower,
        upper,
    }
}

/// The loop estimates of one function.
fn loops(cx: &OlContext<'_>, facts: &Facts) -> Vec<LoopEstimate> {
    let from_bl = bounds(cx, &without_overlaps(&facts.ol), FLOWS_ONLY);
    let from_ol = bounds(cx, &facts.ol, LISTED);
    let bl_of = |h: Block| from_bl.iter().find(|l: &&LoopBounds| l.header == h);
    from_ol
        .iter()
        .map(|l| {
            let bl = bl_of(l.header);
            LoopEstimate {
                header: l.header.as_u32(),
                overlap: facts
                    .overlaps
                    .iter()
                    .find(|(h, _)| *h == l.header)
                    .map_or(0, |&(_, d)| d),
                flow: l.flow,
                from_bl: bl.map_or([0, 0], |b| flow(b.definite, b.potential)),
                from_ol: flow(l.definite, l.potential),
                pairs: [l.certain, l.possible],
                bounds: l
                    .paths
                    .iter()
                    .map(|b| pair_bounds(&b.path.first, &b.path.second, b.lower, b.upper))
                    .collect(),
            }
        })
        .collect()
}

/// The counts of paths across calls the sink holds, with their blocks.
fn cross_counts(sink: &OlSink) -> CrossCounts {
    let mut out = CrossCounts::new();
    for (key, &count) in &sink.cross.totals() {
        let parts = |f: u32| {
            sink.functions[f as usize]
                .as_ref()
                .map(|f| &f.parts)
                .expect("a function with counted calls tiered up")
        };
        let (before, after) = match key.crossing {
            Crossing::Into => (parts(key.caller), parts(key.callee)),
            Crossing::Out => (parts(key.callee), parts(key.caller)),
        };
        let call = CallKey {
            crossing: key.crossing,
            caller: key.caller,
            site: key.site,
            callee: key.callee,
        };
        let path = CrossPath {
            before: before.blocks(key.before).to_vec(),
            after: after.blocks(key.after).to_vec(),
        };
        *out.entry((call, path)).or_insert(0) += count;
    }
    out
}

/// One call site's estimate from its bounds from Ball-Larus and OL counts.
fn call_estimate(
    program: &Program,
    sink: &OlSink,
    counts: &CrossCounts,
    (bl, ol): (&CallBounds, &CallBounds),
    overlap: u32,
) -> CallEstimate {
    let key = ol.key;
    let caller = &program.functions[key.caller as usize];
    let loc = sink.functions[key.caller as usize]
        .as_ref()
        .and_then(|f| f.sites.pc(key.site))
        .and_then(|pc| caller.locs.get(pc.0 as usize))
        .copied()
        .unwrap_or(caller.loc);
    let paths = counts
        .range((key, CrossPath::default())..)
        .take_while(|((k, _), _)| *k == key)
        .map(|((_, p), &count)| CrossCount {
            before: ids(&p.before),
            after: ids(&p.after),
            count,
        })
        .collect();
    CallEstimate {
        block: key.site.block.as_u32(),
        nth: key.site.nth,
        line: loc.line,
        col: loc.col,
        callee: program.functions[key.callee as usize].name.clone(),
        crossing: key.crossing.name().to_string(),
        overlap,
        calls: ol.calls,
        paths,
        from_bl: flow(bl.definite, bl.potential),
        from_ol: flow(ol.definite, ol.potential),
        pairs: [ol.certain, ol.possible],
        bounds: ol
            .paths
            .iter()
            .map(|b| pair_bounds(&b.path.before, &b.path.after, b.lower, b.upper))
            .collect(),
    }
}

/// Fills every function's [`OverlapSection`] in `profiles` from `facts` and the sink's counts.
pub(super) fn attach(
    program: &Program,
    settings: &ProfileSettings,
    sink: &OlSink,
    facts: &[Facts],
    profiles: &mut [FunctionProfile],
) {
    let contexts: Vec<Option<OlContext<'_>>> = facts
        .iter()
        .map(|f| OlContext::new(f.fc.cfg(), settings.path_ends, settings.k).ok())
        .collect();
    for ((fp, f), cx) in profiles.iter_mut().zip(facts).zip(&contexts) {
        fp.overlap = Some(OverlapSection {
            loops: cx.as_ref().map_or_else(Vec::new, |cx| loops(cx, f)),
            calls: Vec::new(),
        });
    }
    let Some(contexts) = contexts.into_iter().collect::<Option<Vec<_>>>() else {
        return;
    };
    let counts = cross_counts(sink);
    let bl_paths: Vec<BTreeMap<OlPath, u64>> =
        facts.iter().map(|f| without_overlaps(&f.ol)).collect();
    let bl: Vec<Vec<(&[Block], u64)>> = bl_paths
        .iter()
        .map(|m| m.iter().map(|(p, &c)| (p.nodes.as_slice(), c)).collect())
        .collect();
    let from_bl = call_bounds(&contexts, &counts, &bl, Source::BallLarus, FLOWS_ONLY);
    let from_ol = call_bounds(&contexts, &counts, &bl, Source::Overlap, LISTED);
    let most: Vec<Vec<u32>> = contexts.iter().map(max_overlaps).collect();
    for (b, o) in from_bl.iter().zip(&from_ol) {
        let key = o.key;
        let at = match key.crossing {
            Crossing::Into => {
                most[key.callee as usize][contexts[key.callee as usize].cfg().entry().index()]
            }
            Crossing::Out => most[key.caller as usize][key.site.block.index()],
        };
        let estimate = call_estimate(program, sink, &counts, (b, o), at.min(settings.k));
        if let Some(section) = profiles[o.key.caller as usize].overlap.as_mut() {
            section.calls.push(estimate);
        }
    }
    for fp in profiles.iter_mut() {
        if let Some(section) = fp.overlap.as_mut() {
            section.calls.sort_by(|a, b| {
                (a.block, a.nth, &a.callee, &a.crossing).cmp(&(
                    b.block,
                    b.nth,
                    &b.callee,
                    &b.crossing,
                ))
            });
        }
    }
}
