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

use super::numbering::{EntryTarget, IppNumbering};
use super::supergraph::{Callee, ProcId, SiteId, Supergraph};
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

/// One activation.
#[derive(Clone, Copy, Debug)]
struct Frame {
    proc: ProcId,
    nvc: u64,
    on_entry: u64,
    /// The site it was called at (`None` for `main` and calls from unknown places).
    site: Option<SiteId>,
    /// For an activation called at a summary site: the caller's `pathNum` and `open`.
    resume: Option<(u64, u64)>,
}

impl Frame {
    /// The record of no activation.
    const NONE: Frame = Frame {
        proc: ProcId::from_u32(0),
        nvc: 0,
        on_entry: 0,
        site: None,
        resume: None,
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
    depth: usize,
}

impl Default for PathCounter {
    fn default() -> Self {
        PathCounter {
            path: 0,
            open: 0,
            top: Frame::NONE,
            below: Vec::new(),
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
        self.depth = 0;
        self.enter_root(num, sg.main(), None);
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
    #[inline]
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
        let s = sg.site(site);
        let crossing = !num.is_summary(site) && s.callee == Callee::Direct(callee);
        if crossing {
            self.call_crossing(num, site, callee, num.psi(s.caller, s.ret));
        } else {
            self.call_unknown(num, callee);
        }
    }

    /// The current activation calls `callee` at `site`, a site paths cross (no summary edge)
    /// whose return site's `ψ` is `ret_psi` (what [`PathCounter::call`] looks up, worked out
    /// once by the caller).
    #[inline]
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
            proc: callee,
            nvc,
            on_entry: self.path,
            site: Some(site),
            resume: None,
        });
    }

    /// The current activation calls `callee` from a place that is no call site of the
    /// supergraph, or through a pointer: the call is a summary edge.
    pub fn call_unknown(&mut self, num: &IppNumbering, callee: ProcId) {
        let resume = Some((self.path, self.open));
        self.enter_root(num, callee, resume);
    }

    /// Starts the path `Entry_global -> Entry_p`.
    fn enter_root(&mut self, num: &IppNumbering, p: ProcId, resume: Option<(u64, u64)>) {
        self.path = num.entry_value(EntryTarget::Entry(p)).unwrap_or_default();
        self.open = 1;
        self.push(Frame {
            proc: p,
            nvc: 1,
            on_entry: self.path,
            site: None,
            resume,
        });
    }

    /// The current activation returns (at its exit) to its caller, or ends the program;
    /// returns the number of the path this ends, if it ends one.
    pub fn ret(&mut self, num: &IppNumbering) -> Option<u64> {
        if self.depth == 0 {
            return None;
        }
        let frame = self.top;
        self.depth -= 1;
        if self.depth == 0 {
            return Some(self.path);
        }
        self.top = self.below.pop().expect("depth counts the records");
        if let Some((path, open)) = frame.resume {
            let done = self.path;
            self.path = path;
            self.open = open;
            return Some(done);
        }
        if self.open == 0 {
            if let Some(s) = frame.site {
                self.path = self.path.wrapping_add(num.return_value(s));
            }
            self.top.nvc = num.unbal_exit(self.top.proc);
        } else {
            self.open -= 1;
        }
        None
    }

    /// The run stops with activations in progress (a trap, `exit` in a callee, an
    /// interrupt): their paths never complete. Returns how many were in progress (the
    /// current one and those saved at summary sites).
    pub fn abandon(&mut self) -> u64 {
        let pending = if self.depth == 0 {
            0
        } else {
            let saved = self.below.iter().chain([&self.top]);
            1 + saved.filter(|f| f.resume.is_some()).count() as u64
        };
        self.below.clear();
        self.depth = 0;
        pending
    }

    /// Whether activations are in progress.
    pub fn running(&self) -> bool {
        self.depth > 0
    }
}
