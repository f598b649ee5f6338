//! Interprocedural overlapping paths (Tallam, Zhang & Gupta 2004, section 3): Ball-Larus
//! paths extended across a call, into the callee or back into the caller, and the bounds
//! their counts give on the paths that cross the call whole.
//!
//! **Interesting paths** (section 3.1). At a call site, a path crosses the call one of two
//! ways ([`Crossing`]):
//! - *Type I* ([`Crossing::Into`]): the caller's Ball-Larus path from its start up to the
//!   block of the call, then the callee's first Ball-Larus path (from its entry to the first
//!   back edge, loop header or its exit);
//! - *Type II* ([`Crossing::Out`]): the callee's last Ball-Larus path (the one that reaches
//!   its exit), then the rest of the caller's path from the block of the call on.
//!
//! **I-OL-K and II-OL-K paths** cut the part after the call at the `(K + 1)`-th predicate
//! ([`super::OlContext::is_predicate`]; the first block of that part, the callee's entry or
//! the block of the call, counts when it branches) or where that part ends, whichever comes
//! first: a part with fewer predicates is kept whole, which is the paper's "the end of a path
//! is a predicate" (Tables 6 and 7), and profiles a site at its maximum overlap when K is
//! beyond it. The counts are kept per call site and callee, as the paper's
//! `count[callee][site][callee path][caller path]` (section 3.3): an indirect call names its
//! callee when it enters it. A call is counted when the callee returned and the caller's path
//! through the call completed.
//!
//! **Bounds** (section 3.2). For each call site and callee, and each way of crossing, the
//! cells are the pairs `before ! after` of a part before the call and a whole part after it.
//! From Ball-Larus counts (equations 9 to 14): one group, every pair, sums to `C`, the number
//! of calls; each pair is capped by the count of its part before (`F_p`: the caller paths
//! through the call's block with that prefix, or the callee's path to its exit) and of its
//! part after (`F_q`: the callee's path from its entry, or the caller paths through the call's
//! block with that suffix). From OL-K counts (equations 15 to 18): the pairs whose part after
//! has the overlap `a` (its start up to its `(K + 1)`-th predicate) sum to `OF(before ! a)`,
//! with the same caps. Both are tightened together until nothing changes (the pair table of
//! [`super::estimate`], shared with the loops, which settles the pairs of one cap as one
//! class, so a site with thousands of paths on each side costs no memory per pair). The caps
//! count every call of the callee (from any site), as a Ball-Larus profile
//! does; `C` and the split of calls by site and callee are what the paper's instrumentation
//! of the call site gives.

use super::definition::overlap_len;
use super::estimate::{Listing, PairTable, Sums};
use super::OlContext;
use crate::cfg::Block;
use hashbrown::HashMap;
use std::collections::BTreeMap;
use std::ops::Range;

/// A call site of a function: the `nth` call (from 0) among the calls of `block`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallSite {
    /// The block the call is in.
    pub block: Block,
    /// Its rank among the block's calls, in their order.
    pub nth: u32,
}

/// The way a path crosses a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Crossing {
    /// Type I: from the caller into the callee.
    Into,
    /// Type II: from the callee back into the caller.
    Out,
}

impl Crossing {
    /// `"into"` or `"out"`, as profiles and reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Crossing::Into => "into",
            Crossing::Out => "out",
        }
    }
}

/// A call site and the function it called, and the way a path crosses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallKey {
    /// Which way paths cross the call.
    pub crossing: Crossing,
    /// The calling function (its index in the program).
    pub caller: u32,
    /// The call site in the caller.
    pub site: CallSite,
    /// The called function.
    pub callee: u32,
}

/// A path across a call: its blocks before the call and after it.
///
/// [`Crossing::Into`]: `before` is the caller's path up to the call's block, `after` the
/// callee's blocks from its entry. [`Crossing::Out`]: `before` is the callee's path to its
/// exit, `after` the caller's blocks from the call's block on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CrossPath {
    /// The blocks before the call (or the return).
    pub before: Vec<Block>,
    /// The blocks after it: whole for an interesting path, up to the overlap's end for an
    /// I-OL or II-OL path.
    pub after: Vec<Block>,
}

/// Counts of paths across calls.
pub type CrossCounts = BTreeMap<(CallKey, CrossPath), u64>;

/// The start of `part` (a path's blocks from the call on) that an OL-K path keeps: up to and
/// including its `(K + 1)`-th predicate under `cx` (the part's function), or all of it.
pub fn overlap_of<'b>(cx: &OlContext<'_>, part: &'b [Block]) -> &'b [Block] {
    &part[..overlap_len(part, cx.k(), |b| cx.is_predicate(b))]
}

/// The maximum overlap of a part that starts at each block (by block id): the most predicates
/// on a path of the DAG from it to where its path ends, the end counted as one (the paper's
/// "we assume gEx is a predicate node"), minus one. The maximum overlap of the paths into a
/// callee is its entry's; of the paths back into a caller, the call's block's.
pub fn max_overlaps(cx: &OlContext<'_>) -> Vec<u32> {
    let cfg = cx.cfg();
    let mut most = vec![0u32; cfg.num_blocks()];
    // Reverse topological order: a block's successors along uncut edges come first.
    for &b in cx.dag().topological_order().iter().rev() {
        let mut may_end = cfg.out_degree(b) == 0;
        let mut after = 0;
        for e in cfg.succ_edges(b) {
            if cx.dag().is_cut(e) {
                may_end = true;
            } else {
                after = after.max(most[cfg.target(e).index()]);
            }
        }
        let on = if after > 0 {
            u32::from(cx.is_predicate(b)) + after
        } else {
            0
        };
        most[b.index()] = on.max(u32::from(may_end));
    }
    most.into_iter().map(|n| n.saturating_sub(1)).collect()
}

/// Where the Ball-Larus paths of one activation's `blocks` start again: every index `i` whose
/// step `blocks[i - 1] -> blocks[i]` the DAG cuts, in order.
fn path_starts<'b>(
    cx: &'b OlContext<'_>,
    blocks: &'b [Block],
) -> impl DoubleEndedIterator<Item = usize> + 'b {
    (1..blocks.len()).filter(move |&i| {
        cx.cfg()
            .find_edge(blocks[i - 1], blocks[i])
            .is_some_and(|e| cx.dag().is_cut(e))
    })
}

/// The Ball-Larus paths of one activation's blocks under `cx`: the ranges of `blocks` each
/// path covers, in order.
pub fn path_spans(cx: &OlContext<'_>, blocks: &[Block]) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut start = 0;
    for i in path_starts(cx, blocks) {
        spans.push(start..i);
        start = i;
    }
    if start < blocks.len() {
        spans.push(start..blocks.len());
    }
    spans
}

/// A call an activation made: at which of its blocks, and the callee's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// The index in the caller's blocks of the block the call is in.
    pub at: usize,
    /// The callee's activation (an index into the activations given with it).
    pub callee: usize,
}

/// One activation of a function, as a trace records it.
#[derive(Clone, Copy, Debug)]
pub struct Activation<'a> {
    /// The function (an index into the contexts given with it).
    pub func: u32,
    /// Every block it entered, from the entry.
    pub blocks: &'a [Block],
    /// The calls it made, in order.
    pub calls: &'a [Call],
    /// Whether it returned.
    pub finished: bool,
}

/// Which paths across calls [`cross_paths_by_definition`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// The interesting paths: the parts after the calls whole.
    Whole,
    /// The I-OL-K and II-OL-K paths, K of each function's context.
    Overlap,
}

/// Every path across a call along `runs`, with its count: for each call whose callee returned
/// and whose caller's path through it completed (the caller returned), its Type I and Type II
/// path. `contexts[f]` is function `f`'s context (its `k` for [`Extent::Overlap`]).
pub fn cross_paths_by_definition(
    contexts: &[OlContext<'_>],
    runs: &[Activation<'_>],
    extent: Extent,
) -> CrossCounts {
    // Keyed by borrowed parts while counting (millions of calls, few distinct paths).
    let mut counts: HashMap<(CallKey, &[Block], &[Block]), u64> = HashMap::new();
    for run in runs.iter().filter(|r| r.finished && !r.calls.is_empty()) {
        let cx = &contexts[run.func as usize];
        let spans = path_spans(cx, run.blocks);
        // The calls come in the order of their blocks: the span of each follows.
        let mut span = 0;
        let mut nth = 0;
        for (i, call) in run.calls.iter().enumerate() {
            nth = if i > 0 && run.calls[i - 1].at == call.at {
                nth + 1
            } else {
                0
            };
            while span < spans.len() && spans[span].end <= call.at {
                span += 1;
            }
            let callee = &runs[call.callee];
            let Some(through) = spans.get(span).filter(|s| s.contains(&call.at)) else {
                continue;
            };
            if !callee.finished || callee.blocks.is_empty() {
                continue;
            }
            let ccx = &contexts[callee.func as usize];
            let (first, last) = first_and_last_paths(ccx, callee.blocks);
            let site = CallSite {
                block: run.blocks[call.at],
                nth,
            };
            let key = |crossing| CallKey {
                crossing,
                caller: run.func,
                site,
                callee: callee.func,
            };
            let cut = |cx: &OlContext<'_>, part| match extent {
                Extent::Whole => part,
                Extent::Overlap => overlap_of(cx, part),
            };
            let into = (
                key(Crossing::Into),
                &run.blocks[through.start..=call.at],
                cut(ccx, first),
            );
            let out = (
                key(Crossing::Out),
                last,
                cut(cx, &run.blocks[call.at..through.end]),
            );
            *counts.entry(into).or_insert(0) += 1;
            *counts.entry(out).or_insert(0) += 1;
        }
    }
    counts
        .into_iter()
        .map(|((key, before, after), c)| {
            let path = CrossPath {
                before: before.to_vec(),
                after: after.to_vec(),
            };
            ((key, path), c)
        })
        .collect()
}

/// The first and the last Ball-Larus paths of an activation's `blocks` (not empty).
fn first_and_last_paths<'b>(cx: &OlContext<'_>, blocks: &'b [Block]) -> (&'b [Block], &'b [Block]) {
    let first_end = path_starts(cx, blocks).next().unwrap_or(blocks.len());
    let last_start = path_starts(cx, blocks).next_back().unwrap_or(0);
    (&blocks[..first_end], &blocks[last_start..])
}

/// The Ball-Larus path counts of every function, `(blocks, count)` (a path's end does not
/// matter here: paths with the same blocks are added up).
pub type BlCounts<'a> = [Vec<(&'a [Block], u64)>];

/// The bounds on one path across a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossBounds {
    /// The interesting path.
    pub path: CrossPath,
    /// Its lower bound.
    pub lower: u64,
    /// Its upper bound.
    pub upper: u64,
}

/// The bounds at one call site for one callee and one way of crossing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallBounds {
    /// The call site, the callee and the crossing.
    pub key: CallKey,
    /// The number of calls counted (the real flow: every call crosses once each way).
    pub calls: u64,
    /// Every pair of a part before and a whole part after, with its bounds, in order.
    pub paths: Vec<CrossBounds>,
    /// The sum of the lower bounds.
    pub definite: u64,
    /// The sum of the upper bounds.
    pub potential: u64,
    /// How many pairs may have run (an upper bound above 0), listed or not.
    pub possible: u64,
    /// How many pairs certainly ran (a lower bound above 0), listed or not.
    pub certain: u64,
}

/// What the bounds are derived from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Ball-Larus counts and the number of calls per site and callee (equations 9 to 14).
    BallLarus,
    /// I-OL-K and II-OL-K counts (equations 15 to 18).
    Overlap,
}

/// The counts of the `paths` that `keep` keeps, those with the same blocks added up.
fn whole_paths(
    paths: &[(&[Block], u64)],
    keep: impl Fn(&[Block]) -> bool,
) -> BTreeMap<Vec<Block>, u64> {
    let mut out = BTreeMap::new();
    for &(nodes, c) in paths.iter().filter(|(n, _)| keep(n)) {
        *out.entry(nodes.to_vec()).or_insert(0) += c;
    }
    out
}

/// The counts of the parts of `paths` that contain block `b`, cut there: `(blocks up to and
/// with b, count)` or `(blocks from b on, count)`.
fn parts_through(paths: &[(&[Block], u64)], b: Block, prefix: bool) -> BTreeMap<Vec<Block>, u64> {
    let mut out = BTreeMap::new();
    for &(nodes, c) in paths {
        if let Some(i) = nodes.iter().position(|&x| x == b) {
            let part = if prefix { &nodes[..=i] } else { &nodes[i..] };
            *out.entry(part.to_vec()).or_insert(0) += c;
        }
    }
    out
}

/// The bounds at every call site of `counts` (OL-K counts of paths across calls, the K of
/// `contexts`), from `source`, with `bl` the Ball-Larus counts of every function, listing
/// the pairs `listing` asks for.
pub fn call_bounds(
    contexts: &[OlContext<'_>],
    counts: &CrossCounts,
    bl: &BlCounts<'_>,
    source: Source,
    listing: Listing,
) -> Vec<CallBounds> {
    let mut by_key: BTreeMap<CallKey, BTreeMap<&CrossPath, u64>> = BTreeMap::new();
    for ((key, path), &c) in counts {
        *by_key.entry(*key).or_default().entry(path).or_insert(0) += c;
    }
    let mut out = Vec::with_capacity(by_key.len());
    for (key, ol) in by_key {
        let calls: u64 = ol.values().sum();
        let (caller, callee) = (key.caller as usize, key.callee as usize);
        // The counts of the parts before and of the whole parts after (F_p and F_q).
        let (befores, afters, after_cx) = match key.crossing {
            Crossing::Into => {
                let entry = contexts[callee].cfg().entry();
                let afters = whole_paths(&bl[callee], |n| n.first() == Some(&entry));
                let befores = parts_through(&bl[caller], key.site.block, true);
                (befores, afters, &contexts[callee])
            }
            Crossing::Out => {
                let exit = contexts[callee].cfg().exit();
                let befores = whole_paths(&bl[callee], |n| n.last() == Some(&exit));
                let afters = parts_through(&bl[caller], key.site.block, false);
                (befores, afters, &contexts[caller])
            }
        };
        // The parts before that made this call: the observed ones (at a direct call site,
        // exactly the ones Ball-Larus counts show through the call's block).
        let mut rows: Vec<&[Block]> = ol.keys().map(|p| p.before.as_slice()).collect();
        rows.dedup();
        let sums = match source {
            Source::BallLarus => Sums::All(calls),
            Source::Overlap => Sums::ByBefore(
                ol.iter()
                    .map(|(p, &c)| ((p.before.as_slice(), p.after.as_slice()), c))
                    .collect(),
            ),
        };
        let table = PairTable::new(
            rows.iter()
                .map(|&p| (p, befores.get(p).copied().unwrap_or(calls)))
                .collect(),
            afters.iter().map(|(q, &c)| (q.as_slice(), c)).collect(),
            |q| match source {
                Source::BallLarus => &[],
                Source::Overlap => overlap_of(after_cx, q),
            },
            sums,
            calls,
        );
        let solved = table.solve(listing);
        out.push(CallBounds {
            key,
            calls,
            definite: solved.definite,
            potential: solved.potential,
            possible: solved.possible,
            certain: solved.certain,
            paths: solved
                .listed
                .into_iter()
                .map(|(before, after, lower, upper)| CrossBounds {
                    path: CrossPath {
                        before: before.to_vec(),
                        after: after.to_vec(),
                    },
                    lower,
                    upper,
                })
                .collect(),
        });
    }
    out
}

/// No pair listed: the flows alone.
const FLOWS_ONLY: Listing = Listing::Definite { most: 0 };

/// Definite and potential flows of paths across calls, summed over a program's call sites.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallFlows {
    /// The real flow: twice the number of calls counted (each crosses into the callee and
    /// out of it).
    pub real: u64,
    /// `(definite, potential)` from Ball-Larus counts.
    pub from_bl: (u64, u64),
    /// `(definite, potential)` from I-OL-K and II-OL-K counts.
    pub from_ol: (u64, u64),
}

/// The flows of every call site along `runs` (section 4.1's precision, across calls):
/// Ball-Larus counts and OL-K counts of the same runs, against the interesting paths.
pub fn call_flows(contexts: &[OlContext<'_>], runs: &[Activation<'_>]) -> CallFlows {
    let ol = cross_paths_by_definition(contexts, runs, Extent::Overlap);
    let mut bl_paths: Vec<HashMap<&[Block], u64>> = vec![HashMap::new(); contexts.len()];
    for run in runs.iter().filter(|r| r.finished) {
        let cx = &contexts[run.func as usize];
        for s in path_spans(cx, run.blocks) {
            *bl_paths[run.func as usize]
                .entry(&run.blocks[s])
                .or_insert(0) += 1;
        }
    }
    let bl: Vec<Vec<(&[Block], u64)>> = bl_paths
        .into_iter()
        .map(|m| m.into_iter().collect())
        .collect();
    let sum = |bounds: Vec<CallBounds>| {
        bounds
            .iter()
            .fold((0, 0), |(d, p), b| (d + b.definite, p + b.potential))
    };
    CallFlows {
        real: ol.values().sum(),
        from_bl: sum(call_bounds(
            contexts,
            &ol,
            &bl,
            Source::BallLarus,
            FLOWS_ONLY,
        )),
        from_ol: sum(call_bounds(contexts, &ol, &bl, Source::Overlap, FLOWS_ONLY)),
    }
}
