#![allow(dead_code)] // Each test binary uses a different part of the oracle.
//! Reference semantics, written from the definitions in `cfg-format.md` and nothing else: no
//! DAG, no numbering. The property tests hold the fast code against these.

use profiler::{Block, Cfg, Edge, PathEnds};
use std::collections::{BTreeMap, BTreeSet};

/// A path as the design note writes it: nodes, and the header it was cut at (None at exit).
pub type NodePath = (Vec<Block>, Option<Block>);

/// Back edges by definition: recursive depth-first search from the entry, successors in order;
/// `u -> v` is a back edge when `v` is on the stack.
pub fn back_edges(cfg: &Cfg) -> Vec<bool> {
    fn go(cfg: &Cfg, v: Block, seen: &mut [bool], on_stack: &mut [bool], back: &mut [bool]) {
        seen[v.index()] = true;
        on_stack[v.index()] = true;
        for e in cfg.succ_edges(v) {
            let t = cfg.target(e);
            if on_stack[t.index()] {
                back[e.index()] = true;
            } else if !seen[t.index()] {
                go(cfg, t, seen, on_stack, back);
            }
        }
        on_stack[v.index()] = false;
    }
    let n = cfg.num_blocks();
    let mut back = vec![false; cfg.num_edges()];
    go(
        cfg,
        cfg.entry(),
        &mut vec![false; n],
        &mut vec![false; n],
        &mut back,
    );
    back
}

/// The cut rule of the path-end strategy, plus extra cut blocks (which act like headers).
pub struct Cuts {
    back: Vec<bool>,
    header: Vec<bool>,
    extra: Vec<bool>,
    path_ends: PathEnds,
}

impl Cuts {
    pub fn new(cfg: &Cfg, path_ends: PathEnds, extra_cuts: &[Block]) -> Self {
        let back = back_edges(cfg);
        let mut header = vec![false; cfg.num_blocks()];
        for e in cfg.edges() {
            if back[e.index()] {
                header[cfg.target(e).index()] = true;
            }
        }
        let mut extra = vec![false; cfg.num_blocks()];
        for b in extra_cuts {
            extra[b.index()] = true;
        }
        Cuts {
            back,
            header,
            extra,
            path_ends,
        }
    }

    /// Whether taking `e` ends a path.
    pub fn is_cut(&self, cfg: &Cfg, e: Edge) -> bool {
        let t = cfg.target(e).index();
        self.extra[t]
            || match self.path_ends {
                PathEnds::Backedge => self.back[e.index()],
                PathEnds::Header => self.header[t],
            }
    }

    /// Where paths may start: the entry, the headers, the extra cuts.
    pub fn starts(&self, cfg: &Cfg) -> Vec<Block> {
        let mut s = vec![cfg.entry()];
        s.extend(
            cfg.blocks()
                .filter(|b| self.header[b.index()] || self.extra[b.index()]),
        );
        s
    }
}

/// Every static path, by enumeration from every start (exponential; small graphs only).
/// Returns `None` if there are more than `cap` paths.
pub fn static_paths(cfg: &Cfg, cuts: &Cuts, cap: usize) -> Option<BTreeSet<NodePath>> {
    fn go(
        cfg: &Cfg,
        cuts: &Cuts,
        path: &mut Vec<Block>,
        out: &mut BTreeSet<NodePath>,
        cap: usize,
    ) -> bool {
        let v = *path.last().unwrap();
        if v == cfg.exit() {
            out.insert((path.clone(), None));
            return out.len() <= cap;
        }
        for e in cfg.succ_edges(v) {
            let t = cfg.target(e);
            if cuts.is_cut(cfg, e) {
                out.insert((path.clone(), Some(t)));
                if out.len() > cap {
                    return false;
                }
            } else {
                path.push(t);
                let ok = go(cfg, cuts, path, out, cap);
                path.pop();
                if !ok {
                    return false;
                }
            }
        }
        true
    }
    let mut out = BTreeSet::new();
    for s in cuts.starts(cfg) {
        if !go(cfg, cuts, &mut vec![s], &mut out, cap) {
            return None;
        }
    }
    Some(out)
}

/// Counts of the paths of the given invocations, by splitting each block sequence at cut edges
/// and at the exit.
pub fn count_paths(cfg: &Cfg, cuts: &Cuts, invocations: &[Vec<Block>]) -> BTreeMap<NodePath, u64> {
    let mut counts = BTreeMap::new();
    for inv in invocations {
        let mut cur = vec![inv[0]];
        for w in inv.windows(2) {
            let e = cfg.find_edge(w[0], w[1]).expect("trace follows the CFG");
            if cuts.is_cut(cfg, e) {
                *counts
                    .entry((std::mem::replace(&mut cur, vec![w[1]]), Some(w[1])))
                    .or_insert(0) += 1;
            } else {
                cur.push(w[1]);
            }
        }
        assert_eq!(inv.last(), Some(&cfg.exit()));
        *counts.entry((cur, None)).or_insert(0) += 1;
    }
    counts
}
