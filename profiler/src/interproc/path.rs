//! An interprocedural path as the edges of `G*fin` it takes, its number (Melski & Reps
//! algorithms 5.1 and 6.1) and regeneration, the inverse (algorithm 5.2, and its twin for
//! unbalanced-right-left paths, which the paper leaves as an exercise).
//!
//! Both walk the path keeping `numValidCompsFromExit` (`nvc`) and, for each open call, the
//! value to restore at its return: a call edge sets `nvc := ψ_r(nvc)` for its return site `r`,
//! a return edge restores it, an intraprocedural edge adds `ρ_e(nvc)`. Piecewise paths also
//! count the open calls; a return edge taken with none open adds the value of equation 35 and
//! sets `nvc` to `numUnbalRLPaths` of the caller's exit. Regeneration picks at each vertex the
//! one valid successor whose range `[value, value + count)` holds what is left of the number
//! (the proof of Theorem 4.1: each successor reserves a range), so it is exact for every
//! number below [`IppNumbering::num_paths`] and refuses the others.

use super::numbering::{EntryTarget, ExitTarget, IppNumbering};
use super::supergraph::{Callee, ProcId, SiteId, Supergraph};
use super::IppKind;
use crate::cfg::Block;
use crate::dag::{DagEdge, DagEdgeKind};

/// One edge of `G*fin` on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// `Entry_global -> Entry_P`: the path starts at a root's entry.
    Root(ProcId),
    /// `Entry_global -> GEntry_P` (piecewise): the path starts in the middle of `P`.
    Resume(ProcId),
    /// An intraprocedural edge of `P` (a real or summary edge, a surrogate `Entry_P -> h` or
    /// `GEntry_P -> h`, or `u -> GExit_P`, which ends the path).
    Edge(ProcId, DagEdge),
    /// The call edge of a site, into its callee's entry.
    Call(SiteId),
    /// The return edge of a site, from its callee's exit to its return site.
    Return(SiteId),
    /// `Exit_P -> Exit_global`: the path ends at a root's exit.
    Exit(ProcId),
}

/// A vertex of `G*fin` on a path (for display).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathVertex {
    /// `Entry_global`.
    EntryGlobal,
    /// `Exit_global`.
    ExitGlobal,
    /// A vertex of a procedure.
    V(ProcId, Block),
    /// `GEntry_P`.
    GEntry(ProcId),
    /// `GExit_P`.
    GExit(ProcId),
}

/// An interprocedural path: the edges it takes from `Entry_global` to `Exit_global`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IppPath {
    /// Its edges, in order.
    pub steps: Vec<Step>,
}

/// The longest path regeneration follows before giving up (a guard against a malformed
/// numbering: real paths are bounded by `maxEnters` times the procedures' sizes).
const MAX_STEPS: usize = 1 << 22;

impl IppPath {
    /// Its vertices, from `Entry_global` to `Exit_global`.
    pub fn vertices(&self, sg: &Supergraph, num: &IppNumbering) -> Vec<PathVertex> {
        let mut out = Vec::with_capacity(self.steps.len() + 2);
        for &step in &self.steps {
            match step {
                Step::Root(p) => {
                    out.push(PathVertex::EntryGlobal);
                    out.push(PathVertex::V(p, sg.proc(p).cfg.entry()));
                }
                Step::Resume(p) => {
                    out.push(PathVertex::EntryGlobal);
                    out.push(PathVertex::GEntry(p));
                }
                Step::Edge(p, d) => match num.dag(p).kind(d) {
                    DagEdgeKind::End(_) => {
                        out.push(PathVertex::GExit(p));
                        out.push(PathVertex::ExitGlobal);
                    }
                    _ => out.push(PathVertex::V(p, num.dag(p).target(d))),
                },
                Step::Call(s) => {
                    if let Callee::Direct(q) = sg.site(s).callee {
                        out.push(PathVertex::V(q, sg.proc(q).cfg.entry()));
                    }
                }
                Step::Return(s) => out.push(PathVertex::V(sg.site(s).caller, sg.site(s).ret)),
                Step::Exit(_) => out.push(PathVertex::ExitGlobal),
            }
        }
        out
    }

    /// The path written as the paper does, `Entry_global -> v1 -> ... -> Exit_global`, with
    /// vertices named by `name` and `GEntry_P`/`GExit_P` by `special` (`gentry`, `gexit`).
    pub fn text(
        &self,
        sg: &Supergraph,
        num: &IppNumbering,
        name: &dyn Fn(ProcId, Block) -> String,
        special: &dyn Fn(ProcId, bool) -> String,
    ) -> String {
        let mut s = String::new();
        for (i, v) in self.vertices(sg, num).into_iter().enumerate() {
            if i > 0 {
                s.push_str(" -> ");
            }
            match v {
                PathVertex::EntryGlobal => s.push_str("Entry_global"),
                PathVertex::ExitGlobal => s.push_str("Exit_global"),
                PathVertex::V(p, b) => s.push_str(&name(p, b)),
                PathVertex::GEntry(p) => s.push_str(&special(p, true)),
                PathVertex::GExit(p) => s.push_str(&special(p, false)),
            }
        }
        s
    }

    /// The path's number (algorithm 5.1 for context paths, 6.1 for piecewise ones), or `None`
    /// if it is not a path of `num`'s graph.
    pub fn number(&self, sg: &Supergraph, num: &IppNumbering) -> Option<u64> {
        let mut steps = self.steps.iter();
        let (mut path, mut nvc, mut open) = match steps.next()? {
            Step::Root(p) => (num.entry_value(EntryTarget::Entry(*p))?, 1, 1u64),
            Step::Resume(p) => (
                num.entry_value(EntryTarget::GEntry(*p))?,
                num.unbal_exit(*p),
                0,
            ),
            _ => return None,
        };
        let mut saved: Vec<u64> = Vec::new();
        for &step in steps {
            match step {
                Step::Edge(p, d) => path = path.checked_add(num.rho(p, d).checked_apply(nvc)?)?,
                Step::Call(s) => {
                    let site = sg.site(s);
                    saved.push(nvc);
                    nvc = num.psi(site.caller, site.ret).checked_apply(nvc)?;
                    open += 1;
                }
                Step::Return(s) => {
                    let site = sg.site(s);
                    if open == 0 {
                        if !matches!(site.callee, Callee::Direct(_)) {
                            return None;
                        }
                        path = path.checked_add(num.return_value(s))?;
                        nvc = num.unbal_exit(site.caller);
                    } else {
                        nvc = saved.pop()?;
                        open -= 1;
                    }
                }
                Step::Exit(_) => {}
                Step::Root(_) | Step::Resume(_) => return None,
            }
        }
        Some(path)
    }
}

/// Where regeneration stands.
#[derive(Clone, Copy)]
enum At {
    V(ProcId, Block),
    GEntry(ProcId),
}

/// The one of `options` (`(value, count)` in order) whose range holds `n`, and its value.
fn pick(options: impl Iterator<Item = (u64, u64)>, n: u64) -> Option<(usize, u64)> {
    options
        .enumerate()
        .find(|(_, (value, count))| *count > 0 && *value <= n && n - *value < *count)
        .map(|(i, (value, _))| (i, value))
}

/// The call site whose call vertex is `v` of `p` and its callee, if paths cross it.
fn crossing_at(
    sg: &Supergraph,
    num: &IppNumbering,
    p: ProcId,
    v: Block,
) -> Option<(SiteId, ProcId)> {
    let s = sg.proc(p).site_at(v)?;
    Some((s, num.crossing_callee(sg, s)?))
}

/// The path numbered `n` (algorithm 5.2 and its piecewise twin), or `None` if `n` is not a
/// path number of `num`.
pub fn regenerate(sg: &Supergraph, num: &IppNumbering, n: u64) -> Option<IppPath> {
    if n >= num.num_paths() {
        return None;
    }
    let entries = num.entries();
    let (i, value) = pick(entries.iter().map(|e| (e.value, e.count)), n)?;
    let mut left = n - value;
    let mut steps = Vec::new();
    let (mut at, mut nvc, rooted) = match entries[i].to {
        EntryTarget::Entry(p) => {
            steps.push(Step::Root(p));
            (At::V(p, sg.proc(p).cfg.entry()), 1u64, true)
        }
        EntryTarget::GEntry(p) => {
            steps.push(Step::Resume(p));
            (At::GEntry(p), num.unbal_exit(p), false)
        }
    };
    let piecewise = num.kind() == IppKind::Piecewise;
    // The open calls: the site and the nvc to restore.
    let mut open: Vec<(SiteId, u64)> = Vec::new();
    while steps.len() < MAX_STEPS {
        match at {
            At::GEntry(p) => {
                let edges: Vec<DagEdge> = num.gentry_edges(p).collect();
                let options = edges
                    .iter()
                    .map(|&d| (num.rho(p, d).apply(nvc), num.psi_target(p, d).apply(nvc)));
                let (k, value) = pick(options, left)?;
                left -= value;
                steps.push(Step::Edge(p, edges[k]));
                at = At::V(p, num.dag(p).target(edges[k]));
            }
            At::V(p, v) => {
                let proc = sg.proc(p);
                if v == proc.cfg.exit() {
                    if let Some((s, saved)) = open.pop() {
                        steps.push(Step::Return(s));
                        nvc = saved;
                        at = At::V(sg.site(s).caller, sg.site(s).ret);
                    } else if piecewise && !rooted {
                        let exits = num.exits(p);
                        let (k, value) = pick(exits.iter().map(|e| (e.value, e.count)), left)?;
                        left -= value;
                        match exits[k].to {
                            ExitTarget::Global => {
                                steps.push(Step::Exit(p));
                                break;
                            }
                            ExitTarget::Site(s) => {
                                steps.push(Step::Return(s));
                                let caller = sg.site(s).caller;
                                nvc = num.unbal_exit(caller);
                                at = At::V(caller, sg.site(s).ret);
                            }
                        }
                    } else {
                        steps.push(Step::Exit(p));
                        break;
                    }
                } else if let Some((s, q)) = crossing_at(sg, num, p, v) {
                    steps.push(Step::Call(s));
                    open.push((s, nvc));
                    nvc = num.psi(p, sg.site(s).ret).apply(nvc);
                    at = At::V(q, sg.proc(q).cfg.entry());
                } else {
                    let edges: Vec<DagEdge> = num.out_edges(p, v).collect();
                    let options = edges
                        .iter()
                        .map(|&d| (num.rho(p, d).apply(nvc), num.psi_target(p, d).apply(nvc)));
                    let (k, value) = pick(options, left)?;
                    left -= value;
                    let d = edges[k];
                    steps.push(Step::Edge(p, d));
                    if matches!(num.dag(p).kind(d), DagEdgeKind::End(_)) {
                        break;
                    }
                    at = At::V(p, num.dag(p).target(d));
                }
            }
        }
    }
    (left == 0).then_some(IppPath { steps })
}

/// Every path of `num`'s graph, enumerated by definition (a depth-first walk of `G*fin` that
/// follows only valid successors), for tests on small graphs: at most `limit` paths.
pub fn enumerate(sg: &Supergraph, num: &IppNumbering, limit: usize) -> Vec<IppPath> {
    let mut out = Vec::new();
    for e in num.entries() {
        let (start, at, rooted) = match e.to {
            EntryTarget::Entry(p) => (Step::Root(p), At::V(p, sg.proc(p).cfg.entry()), true),
            EntryTarget::GEntry(p) => (Step::Resume(p), At::GEntry(p), false),
        };
        let mut steps = vec![start];
        walk_all(
            sg,
            num,
            at,
            rooted,
            &mut Vec::new(),
            &mut steps,
            &mut out,
            limit,
        );
    }
    out
}

/// The depth-first walk of [`enumerate`].
#[allow(clippy::too_many_arguments)]
fn walk_all(
    sg: &Supergraph,
    num: &IppNumbering,
    at: At,
    rooted: bool,
    open: &mut Vec<SiteId>,
    steps: &mut Vec<Step>,
    out: &mut Vec<IppPath>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    let mut go = |step: Step, next: Option<At>, open: &mut Vec<SiteId>, out: &mut Vec<IppPath>| {
        steps.push(step);
        match next {
            None => out.push(IppPath {
                steps: steps.clone(),
            }),
            Some(at) => walk_all(sg, num, at, rooted, open, steps, out, limit),
        }
        steps.pop();
    };
    match at {
        At::GEntry(p) => {
            for d in num.gentry_edges(p) {
                go(
                    Step::Edge(p, d),
                    Some(At::V(p, num.dag(p).target(d))),
                    open,
                    out,
                );
            }
        }
        At::V(p, v) => {
            let proc = sg.proc(p);
            if v == proc.cfg.exit() {
                if let Some(s) = open.pop() {
                    go(
                        Step::Return(s),
                        Some(At::V(sg.site(s).caller, sg.site(s).ret)),
                        open,
                        out,
                    );
                    open.push(s);
                } else if num.kind() == IppKind::Piecewise && !rooted {
                    for e in num.exits(p) {
                        match e.to {
                            ExitTarget::Global => go(Step::Exit(p), None, open, out),
                            ExitTarget::Site(s) => {
                                let site = sg.site(s);
                                go(
                                    Step::Return(s),
                                    Some(At::V(site.caller, site.ret)),
                                    open,
                                    out,
                                )
                            }
                        }
                    }
                } else if num.is_root(p) {
                    go(Step::Exit(p), None, open, out);
                }
            } else if let Some((s, q)) = crossing_at(sg, num, p, v) {
                open.push(s);
                go(
                    Step::Call(s),
                    Some(At::V(q, sg.proc(q).cfg.entry())),
                    open,
                    out,
                );
                open.pop();
            } else {
                for d in num.out_edges(p, v) {
                    let next = match num.dag(p).kind(d) {
                        DagEdgeKind::End(_) => None,
                        _ => Some(At::V(p, num.dag(p).target(d))),
                    };
                    go(Step::Edge(p, d), next, open, out);
                }
            }
        }
    }
}

/// Checks Theorem 4.1 on `num` by enumeration: the valid paths of its graph (at most `limit`
/// of them) get the numbers `0..num_paths()`, each exactly once, and each number regenerates
/// to its path; returns the paths. For tests and small graphs.
pub fn check_dense(
    sg: &Supergraph,
    num: &IppNumbering,
    limit: usize,
) -> Result<Vec<IppPath>, String> {
    let all = enumerate(sg, num, limit.saturating_add(1));
    if all.len() as u64 != num.num_paths() {
        return Err(format!(
            "{} paths enumerated, {} numbered",
            all.len(),
            num.num_paths()
        ));
    }
    let mut numbers = Vec::with_capacity(all.len());
    for p in &all {
        let n = p.number(sg, num).ok_or("a path has no number")?;
        if regenerate(sg, num, n).as_ref() != Some(p) {
            return Err(format!("number {n} does not regenerate to its path"));
        }
        numbers.push(n);
    }
    numbers.sort_unstable();
    if numbers.iter().enumerate().any(|(i, &n)| n != i as u64) {
        return Err("the numbers are not 0..N each once".into());
    }
    if regenerate(sg, num, num.num_paths()).is_some() {
        return Err("a number beyond the paths regenerates".into());
    }
    Ok(all)
}
