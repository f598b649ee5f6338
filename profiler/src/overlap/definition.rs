//! OL-K paths counted by definition along a trace (the reference the numbering and the probes
//! are tested against): split the run into Ball-Larus paths, and extend each one that ends by a
//! back edge with the blocks that follow, as the [module docs](super) define.

use super::OlContext;
use crate::cfg::Block;
use crate::trace::{walk, Trace, TraceError, WalkEvent};
use std::collections::BTreeMap;

/// An overlapping path: a Ball-Larus path (`nodes`, `end` as in [`crate::regenerate::Path`])
/// and, when it ended by a back edge into `end`, the blocks after it up to where the overlap
/// stops (`overlap`, starting with the header `end`); empty for a path not extended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OlPath {
    /// The blocks of the Ball-Larus path.
    pub nodes: Vec<Block>,
    /// The header the path was cut at, or `None` at the exit.
    pub end: Option<Block>,
    /// The blocks run after the back edge, from the header on (empty: not extended).
    pub overlap: Vec<Block>,
}

/// An extension in progress.
struct Open {
    path: OlPath,
    predicates: u32,
}

/// Every OL path of `cx` along `trace`, with its count.
pub fn ol_paths_by_definition(
    cx: &OlContext<'_>,
    trace: &Trace,
) -> Result<BTreeMap<OlPath, u64>, TraceError> {
    let cfg = cx.cfg();
    let mut counts: BTreeMap<OlPath, u64> = BTreeMap::new();
    let mut count = |p: OlPath| *counts.entry(p).or_insert(0) += 1;
    let mut current: Vec<Block> = Vec::new();
    let mut open: Option<Open> = None;
    // Starts an extension at `h`; returns it, or counts it at once if `h` is its last predicate.
    let start = |path: OlPath, h: Block, count: &mut dyn FnMut(OlPath)| {
        let predicates = u32::from(cx.is_predicate(h));
        if predicates > cx.k() {
            count(path);
            None
        } else {
            Some(Open { path, predicates })
        }
    };
    walk(cfg, trace, |event| match event {
        WalkEvent::Enter => current = vec![cfg.entry()],
        WalkEvent::Edge(e, b) => {
            if let Some(mut o) = open.take() {
                let h = o.path.end.expect("an extended path ends at a header");
                if cx.goes_on(h, e) {
                    o.path.overlap.push(b);
                    o.predicates += u32::from(cx.is_predicate(b));
                    if o.predicates > cx.k() {
                        count(o.path);
                    } else {
                        open = Some(o);
                    }
                } else {
                    count(o.path);
                }
            }
            match follow(cx, &mut current, e, b) {
                Some(Ended::ByBackEdge(nodes)) => {
                    let path = OlPath {
                        nodes,
                        end: Some(b),
                        overlap: vec![b],
                    };
                    open = start(path, b, &mut count);
                }
                Some(Ended::Otherwise(nodes)) => count(OlPath {
                    nodes,
                    end: Some(b),
                    overlap: Vec::new(),
                }),
                None => {}
            }
        }
        WalkEvent::Exit => {
            if let Some(o) = open.take() {
                count(o.path);
            }
            count(OlPath {
                nodes: std::mem::take(&mut current),
                end: None,
                overlap: Vec::new(),
            });
        }
    })?;
    Ok(counts)
}

/// A Ball-Larus path that an edge ended (its blocks).
pub(crate) enum Ended {
    /// By a back edge: its path is extended.
    ByBackEdge(Vec<Block>),
    /// By another cut edge.
    Otherwise(Vec<Block>),
}

/// Takes edge `e` into `b` for the path in progress `current`: the path that `e` ends, if it
/// is a cut (`current` then starts again at `b`), or `None` (`b` joins `current`).
pub(crate) fn follow(
    cx: &OlContext<'_>,
    current: &mut Vec<Block>,
    e: crate::cfg::Edge,
    b: Block,
) -> Option<Ended> {
    if !cx.dag().is_cut(e) {
        current.push(b);
        return None;
    }
    let nodes = std::mem::replace(current, vec![b]);
    Some(if cx.extends_past(e) {
        Ended::ByBackEdge(nodes)
    } else {
        Ended::Otherwise(nodes)
    })
}

/// The length of the start of `part` (a path's blocks from a call on, or after a loop's
/// header) that an OL-K path keeps: up to and including its `(k + 1)`-th predicate under
/// `is_predicate`, or all of it ([`super::calls::overlap_of`] with the predicates of a context).
pub fn overlap_len(part: &[Block], k: u32, is_predicate: impl Fn(Block) -> bool) -> usize {
    let mut predicates = 0;
    for (i, &b) in part.iter().enumerate() {
        predicates += u32::from(is_predicate(b));
        if predicates > k {
            return i + 1;
        }
    }
    part.len()
}
