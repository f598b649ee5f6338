//! The interprocedural paths of a run *by definition*: cut from the recorded walk (every
//! intraprocedural edge, call and return, in order) as sequences of `G*fin` edges, with no
//! numbering involved. The oracle every count is checked against: a profiler's path numbers,
//! regenerated ([`super::path::regenerate`]), must give exactly these paths, as often.
//!
//! Context paths (section 3.4): a path runs from `Entry_global` through the edges taken; at an
//! edge `u -> h` that ends a path in `P` it ends with `u -> GExit_P`, and the next path is the
//! *context prefix* (the path up to `Entry_P` of the running activation, as it was when `P` was
//! entered) followed by the surrogate `Entry_P -> h`. Piecewise paths (section 6) have no
//! context: the next path is `Entry_global -> GEntry_P -> h`. A call at a summary site saves
//! the caller's path, starts `Entry_global -> Entry_Q`, ends it with `Exit_Q -> Exit_global`
//! at the return, and resumes the caller's path with the summary edge `c -> r`; the program's
//! return from `main` ends the last path.

use super::numbering::IppNumbering;
use super::path::{IppPath, Step};
use super::supergraph::{ProcId, SiteId, Supergraph};
use super::IppKind;
use crate::cfg::Edge;
use crate::dag::DagEdgeKind;

/// One event of a run of a supergraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The running activation takes this edge of its procedure's CFG (never the edge from a
    /// call vertex to its return site: that is a [`Event::Call`] and a [`Event::Return`]).
    Edge(Edge),
    /// The running activation calls `callee` at `site`.
    Call {
        /// The call site.
        site: SiteId,
        /// The procedure entered.
        callee: ProcId,
    },
    /// The running activation, at its exit, returns to its caller (or, for `main`, ends the
    /// run).
    Return,
}

/// One activation of the oracle.
struct Open {
    proc: ProcId,
    /// The site it was called at (`None` for `main`).
    site: Option<SiteId>,
    /// The path up to its entry (context profiling).
    prefix: Vec<Step>,
    /// For a call at a summary site: the caller's path to resume.
    resume: Option<Vec<Step>>,
}

/// The paths of the run `events` of `sg` (starting in `main`), by definition, in the order they
/// complete; paths still in progress when the events stop are not included.
pub fn paths_by_definition(sg: &Supergraph, num: &IppNumbering, events: &[Event]) -> Vec<IppPath> {
    let context = num.kind() == IppKind::Context;
    let mut out = Vec::new();
    let main = sg.main();
    let mut cur = vec![Step::Root(main)];
    let mut stack = vec![Open {
        proc: main,
        site: None,
        prefix: cur.clone(),
        resume: None,
    }];
    for &event in events {
        let Some(top) = stack.last() else { break };
        let p = top.proc;
        match event {
            Event::Edge(e) => {
                let dag = num.dag(p);
                let d = dag.dag_edge(e);
                cur.push(Step::Edge(p, d));
                if let DagEdgeKind::End(_) = dag.kind(d) {
                    out.push(IppPath {
                        steps: std::mem::take(&mut cur),
                    });
                    let h = sg.proc(p).cfg.target(e);
                    let start = dag.start_edge(h).expect("a cut edge's target starts paths");
                    cur = if context {
                        top.prefix.clone()
                    } else {
                        vec![Step::Resume(p)]
                    };
                    cur.push(Step::Edge(p, start));
                }
            }
            Event::Call { site, callee } => {
                if num.crossing_callee(sg, site) == Some(callee) {
                    cur.push(Step::Call(site));
                    stack.push(Open {
                        proc: callee,
                        site: Some(site),
                        prefix: if context { cur.clone() } else { Vec::new() },
                        resume: None,
                    });
                } else {
                    let saved = std::mem::replace(&mut cur, vec![Step::Root(callee)]);
                    stack.push(Open {
                        proc: callee,
                        site: Some(site),
                        prefix: cur.clone(),
                        resume: Some(saved),
                    });
                }
            }
            Event::Return => {
                let done = stack.pop().expect("an activation runs");
                match (done.resume, done.site) {
                    (Some(saved), site) => {
                        cur.push(Step::Exit(done.proc));
                        out.push(IppPath {
                            steps: std::mem::replace(&mut cur, saved),
                        });
                        // The summary edge c -> r.
                        if let (Some(s), Some(caller)) = (site, stack.last()) {
                            let site = sg.site(s);
                            let e = sg
                                .proc(caller.proc)
                                .cfg
                                .find_edge(site.call, site.ret)
                                .expect("a call vertex's edge to its return site");
                            cur.push(Step::Edge(caller.proc, num.dag(caller.proc).dag_edge(e)));
                        }
                    }
                    (None, Some(s)) => cur.push(Step::Return(s)),
                    (None, None) => {
                        cur.push(Step::Exit(done.proc));
                        out.push(IppPath {
                            steps: std::mem::take(&mut cur),
                        });
                    }
                }
            }
        }
    }
    out
}
