//! What the instrumentation does at run time (Melski & Reps sections 5.5 and 6.3): a
//! [`PathCounter`] is told every intraprocedural edge, call and return of a run, in order, and
//! says which path number completes when. The `vmrun cfg` replay of a trace and the VM's
//! `ipp` modes run this same state machine.
//!
//! State: `pathNum` (shared along the call chain: the paper passes it by reference), and per
//! activation `numValidCompsFromExit` (`nvc`, the paper's by-value parameter), `pathNumOnEntry`
//! and, for a call at a summary site, the caller's `pathNum` to restore
//! (`pathNumBeforeCall`); piecewise profiling adds `cntOpenLfParens` (`open`).
//! - An edge that does not end a path adds `ρ_e(nvc)`.
//! - An edge `u -> h` that ends one adds `ρ(u -> GExit_P)(nvc)`, counts, and starts the next
//!   path: context, `pathNum := pathNumOnEntry + ρ(Entry_P -> h)(nvc)`; piecewise,
//!   `nvc := X_P`, `pathNum := value(Entry_global -> GEntry_P) + ρ(GEntry_P -> h)(X_P)`,
//!   `open := 0` (figure 16).
//! - A call at a crossing site passes `ψ_r(nvc)` as the callee's `nvc` (`open += 1`); at a
//!   summary site (recursive or indirect, or cut by the fallback) the caller's `pathNum` is
//!   saved and the callee starts the path `Entry_global -> Entry_Q` with `nvc = 1`.
//! - A return to a crossing site restores the caller's `nvc` (`open -= 1`); piecewise, with
//!   no call open, it adds the return edge's value instead and sets the caller's
//!   `nvc := X_S` (figure 17). A return from a summary site counts the callee's path (it ends
//!   with `Exit_Q -> Exit_global`) and restores the caller's `pathNum`.
//! - The program's return from `main` counts the last path.

use super::numbering::IppNumbering;
use super::supergraph::{ProcId, SiteId, Supergraph};
use super::{IppKind, Linear};
use crate::cfg::Edge;
use crate::dag::DagEdgeKind;

/// What taking an intraprocedural edge does to the path number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeAction {
    /// Adds `ρ_e(nvc)`.
    Add(Linear),
    /// Ends the path: adds `end(nvc)` (`ρ` of `u -> GExit_P`), counts, and starts the next one
    /// with the surrogate edge whose `ρ` is `restart`.
    End {
        /// `ρ(u -> GExit_P)`.
        end: Linear,
        /// `ρ(Entry_P -> h)` or `ρ(GEntry_P -> h)`.
        restart: Linear,
    },
}

impl IppNumbering {
    /// What taking CFG edge `e` of procedure `p` of `sg` does.
    pub fn edge_action(&self, sg: &Supergraph, p: ProcId, e: Edge) -> EdgeAction {
        let dag = self.dag(p);
        let d = dag.dag_edge(e);
        match dag.kind(d) {
            DagEdgeKind::End(e) => {
                let h = sg.proc(p).cfg.target(e);
                let start = dag.start_edge(h).expect("a cut edge's target starts paths");
                EdgeAction::End {
                    end: self.rho(p, d),
                    restart: self.rho(p, start),
                }
            }
            _ => EdgeAction::Add(self.rho(p, d)),
        }
    }
}

/// One activation (32 bytes: pushed and popped at every call).
#[derive(Clone, Copy, Debug)]
struct Frame {
    nvc: u64,
    on_entry: u64,
    proc: ProcId,
    /// The site it was called at ([`NO_SITE`] for `main` and calls from unknown places).
    site: u32,
    /// Whether it was called at a summary site: the caller's `pathNum` and `open` are then
    /// the last entry of [`PathCounter::resume`].
    summary: bool,
}

/// [`Frame::site`] of an activation called from no crossing site.
const NO_SITE: u32 = u32::MAX;

impl Frame {
    /// The record of no activation.
    const NONE: Frame = Frame {
        nvc: 0,
        on_entry: 0,
        proc: ProcId::from_u32(0),
        site: NO_SITE,
        summary: false,
    };
}

/// The run-time state machine. See the module docs. It holds no reference to the graph and
/// its numbering: each method is given the ones of its run (always the same), so a profiler
/// can own all three. The running activation's record is a field of its own (read at every
/// edge), the others are on a stack.
#[derive(Clone, Debug)]
pub struct PathCounter {
    path: u64,
    open: u64,
    /// The running activation (meaningful when `depth > 0`).
    top: Frame,
    /// The activations below it, outermost first.
    below: Vec<Frame>,
    /// For each activation called at a summary site, outermost first: the caller's
    /// `pathNum` and `open` to resume with (the paper's `pathNumBeforeCall`).
    resume: Vec<(u64, u64)>,
    depth: usize,
}

impl Default for PathCounter {
    fn default() -> Self {
        PathCounter {
            path: 0,
            open: 0,
            top: Frame::NONE,
            below: Vec::new(),
            resume: Vec::new(),
            depth: 0,
        }
    }
}

impl PathCounter {
    /// A counter before the program starts.
    pub fn new() -> Self {
        PathCounter::default()
    }

    /// The program of `sg` starts in `main`.
    pub fn start(&mut self, sg: &Supergraph, num: &IppNumbering) {
        self.below.clear();
        self.resume.clear();
        self.depth = 0;
        self.enter_root(num, sg.main(), false);
    }

    /// The procedure running, if any.
    pub fn current(&self) -> Option<ProcId> {
        (self.depth > 0).then_some(self.top.proc)
    }

    /// The current activation takes its CFG edge `e`; returns the number of the path it
    /// ends, if it ends one.
    pub fn edge(&mut self, sg: &Supergraph, num: &IppNumbering, e: Edge) -> Option<u64> {
        let p = self.current()?;
        self.act(num, num.edge_action(sg, p, e))
    }

    /// Adds `value` to the path number: increments the instrumented code summed itself (the
    /// constant `ρ`s, which need no `nvc`) since the last event.
    #[inline]
    pub fn add(&mut self, value: u64) {
        self.path = self.path.wrapping_add(value);
    }

    /// The current activation takes an edge whose action is `action` (what
    /// [`IppNumbering::edge_action`] says of it, worked out once by the caller).
    #[inline]
    pub fn act(&mut self, num: &IppNumbering, action: EdgeAction) -> Option<u64> {
        match num.kind() {
            IppKind::Context => self.act_as::<false>(num, action),
            IppKind::Piecewise => self.act_as::<true>(num, action),
        }
    }

    /// [`PathCounter::act`] for paths of a known kind (`PIECEWISE`), which `num` numbers.
    #[inline(always)]
    pub fn act_as<const PIECEWISE: bool>(
        &mut self,
        num: &IppNumbering,
        action: EdgeAction,
    ) -> Option<u64> {
        if self.depth == 0 {
            return None;
        }
        let frame = &mut self.top;
        match action {
            EdgeAction::Add(rho) => {
                self.path = self.path.wrapping_add(rho.apply(frame.nvc));
                None
            }
            EdgeAction::End { end, restart } => {
                let done = self.path.wrapping_add(end.apply(frame.nvc));
                if PIECEWISE {
                    let p = frame.proc;
                    frame.nvc = num.unbal_exit(p);
                    self.path = num.resume_value(p).wrapping_add(restart.apply(frame.nvc));
                    self.open = 0;
                } else {
                    self.path = frame.on_entry.wrapping_add(restart.apply(frame.nvc));
                }
                Some(done)
            }
        }
    }

    /// Makes `frame` the running activation.
    #[inline(always)]
    fn push(&mut self, frame: Frame) {
        if self.depth > 0 {
            self.below.push(self.top);
        }
        self.top = frame;
        self.depth += 1;
    }

    /// The current activation calls `callee` at `site` (for an indirect site, whatever it
    /// called; a callee other than a direct site's own is treated as an indirect call).
    pub fn call(&mut self, sg: &Supergraph, num: &IppNumbering, site: SiteId, callee: ProcId) {
        if num.crossing_callee(sg, site) == Some(callee) {
            let s = sg.site(site);
            self.call_crossing(num, site, callee, num.psi(s.caller, s.ret));
        } else {
            self.call_unknown(num, callee);
        }
    }

    /// The current activation calls `callee` at `site`, a site paths cross (no summary edge)
    /// whose return site's `ψ` is `ret_psi` (what [`PathCounter::call`] looks up, worked out
    /// once by the caller).
    #[inline(always)]
    pub fn call_crossing(
        &mut self,
        num: &IppNumbering,
        site: SiteId,
        callee: ProcId,
        ret_psi: Linear,
    ) {
        if self.depth == 0 {
            return self.call_unknown(num, callee);
        }
        let nvc = ret_psi.apply(self.top.nvc);
        self.open += 1;
        self.push(Frame {
            nvc,
            on_entry: self.path,
            proc: callee,
            site: site.as_u32(),
            summary: false,
        });
    }

    /// The current activation calls `callee` from a place that is no call site of the
    /// supergraph, or through a pointer: the call is a summary edge.
    pub fn call_unknown(&mut self, num: &IppNumbering, callee: ProcId) {
        self.resume.push((self.path, self.open));
        self.enter_root(num, callee, true);
    }

    /// Starts the path `Entry_global -> Entry_p`.
    fn enter_root(&mut self, num: &IppNumbering, p: ProcId, summary: bool) {
        self.path = num.root_value(p);
        self.open = 1;
        self.push(Frame {
            nvc: 1,
            on_entry: self.path,
            proc: p,
            site: NO_SITE,
            summary,
        });
    }

    /// The current activation returns (at its exit) to its caller, or ends the program;
    /// returns the number of the path this ends, if it ends one.
    #[inline(always)]
    pub fn ret(&mut self, num: &IppNumbering) -> Option<u64> {
        if self.depth <= 1 {
            if self.depth == 0 {
                return None;
            }
            self.depth = 0;
            return Some(self.path);
        }
        let frame = self.top;
        self.depth -= 1;
        self.top = self.below.pop().expect("depth counts the records");
        if !frame.summary && self.open > 0 {
            // Returning to a crossing site with its call open: the common case.
            self.open -= 1;
            return None;
        }
        self.ret_slow(num, frame)
    }

    /// [`PathCounter::ret`] from a summary call, or piecewise with no call open.
    #[cold]
    #[inline(never)]
    fn ret_slow(&mut self, num: &IppNumbering, frame: Frame) -> Option<u64> {
        if frame.summary {
            let done = self.path;
            let (path, open) = self.resume.pop().expect("a summary call saved its caller");
            self.path = path;
            self.open = open;
            return Some(done);
        }
        if frame.site != NO_SITE {
            let s = SiteId::from_u32(frame.site);
            self.path = self.path.wrapping_add(num.return_value(s));
        }
        self.top.nvc = num.unbal_exit(self.top.proc);
        None
    }

    /// The run stops with activations in progress (a trap, `exit` in a callee, an
    /// interrupt): their paths never complete. Returns how many were in progress (the
    /// current one and those saved at summary sites).
    pub fn abandon(&mut self) -> u64 {
        let pending = if self.depth == 0 {
            0
        } else {
            1 + self.resume.len() as u64
        };
        self.below.clear();
        self.resume.clear();
        self.depth = 0;
        pending
    }
}
