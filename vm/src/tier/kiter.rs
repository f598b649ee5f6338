//! The runtime of Roy & Srikant's Algorithm 3 (CGO 2009, section 4.2) for the VM: the
//! `kiter:K` sink's state and its probes, the per-function path-frequency tables, and the
//! profiles built from them. The numbering and the plan are the profiler crate's
//! ([`profiler::k_iteration`]); this module runs that plan on the VM's frames, exactly as its
//! reference executor ([`KIterState::take_edge`](profiler::k_iteration::KIterState::take_edge))
//! does, and adds what a VM needs: several functions, interleaved activations, functions that
//! tier up late and frames that switch to instrumented code in the middle of a loop.
//!
//! ## Probes
//! [`KiterRuntime::tier_up`] numbers a function's k-iteration paths and returns the CFG edges
//! that need a `Probe { k }` instruction, each with its probe index `k`:
//!
//! - `k = ENTRY_PROBE` (0) goes first in the instrumented code (new pc 0, before any code,
//!   never a jump target): it starts the activation's counting (`c[0] := entry_init`) and runs
//!   the probes of the virtual entry's edge when the CFG has one (that edge is never listed).
//! - every other listed edge `e` has its own index `1..`; the edges whose probes do nothing
//!   ([`KIterPlan::is_noop`] in both states) are left out, except that **every edge into the
//!   exit block is listed**: its probe also counts the activation's last path (`c[0] +
//!   exit_add`), so codegen puts it before the `Ret`/`RetV`/`Exit` it stands for.
//!
//! ## State (per activation)
//! [`KiterRuntime::on_entry`] pushes a frame and [`KiterRuntime::on_return`] pops it, for every
//! activation, tiered up or not, so the stack follows the interpreter's. A frame is a small
//! header (mode, `itr`, `active`, and `known` for frames that joined by on-stack replacement)
//! and K accumulator slots in one flat `Vec<u64>` shared by all frames (frame `i` owns slots
//! `i*K .. (i+1)*K`): after the deepest recursion has been seen once, nothing is allocated.
//! Modes:
//!
//! - *baseline*: pushed by `on_entry`; the activation runs tier-0 code and sees no probe;
//! - *counting*: after the entry probe, the plan's semantics exactly (see
//!   `docs/kiter-plan.md`, "Execution");
//! - *pending*: after [`KiterRuntime::on_osr`] (below);
//! - *done*: after the probe of an edge into the exit (its last path counted).
//!
//! ## On-stack replacement
//! A baseline frame that tiers up in a loop continues in instrumented code at the target of the
//! backward jump (the bytecode edge itself ran no probe). Its accumulators would hold paths whose
//! beginning the probes never saw. The BL design (`docs/design/tiering.md`, "OSR") drops the
//! partial path at its first count and counts from the next path start on; with K accumulators
//! the equivalent is: **count exactly the k-iteration paths that start after the switch**. The
//! frame is *pending* with `known = 0` accumulators known. A path starts at an `End` action
//! (outside probes, or `Exit { then: End }`): then the whole state is known (`c[0] := restart`,
//! `itr := 0`, `active := enter`) and the frame is counting. A path also starts at a back edge of
//! a k-loop (`Back`): `c[0] := restart` is known and the older accumulators are not, so the
//! frame shifts and sets `known += 1`; the known accumulators get the *compensated* increments
//! (each started at a back edge, so it lies below `itr`), and when `known` reaches K every live
//! accumulator is known, `itr` is `K - 1` and the frame is counting. Leaving the loop before
//! that carries an unknown survivor (`c[itr]` is older than every known accumulator): `known :=
//! 0`. Unknown accumulators are never counted, so with late tier-up every count is at most the
//! reference semantics' (tested against the reference with the switch at every backward jump).
//! When the backward jump is itself a listed CFG edge ([`KiterRuntime::on_osr_at`]), its probe
//! runs in the pending frame, so a path starting on that edge (a back edge of a k-loop, a path
//! end) is counted too, as the Ball-Larus sink's `Osr { path: Some(..) }` does.
//! The probe of an edge is chosen by `active`; a pending frame does not know `active`, and uses
//! the edge's only probe (in a reducible CFG, which the compiler always emits, each edge has
//! exactly one: `inside` when its source is in a k-loop); an edge with both (an irreducible
//! k-loop) does not resynchronise a pending frame unless both probes end the path alike.
//!
//! ## Tables and profiles
//! Each function counts into a [`PathCounters`] (dense up to `profiler::counters::DENSE_LIMIT`
//! static paths, hashed above; nothing aborts). [`KiterRuntime::into_profiles`] identifies
//! every counted id (Algorithm 2, [`KIteration::identify`]) to its block sequence and `end`.
//! [`static_path_counts`] gives the static path counts per K (the paper's Table 4) for
//! `vmrun paths`. The design is written up in `docs/kiter-runtime.md`.

use std::fmt;
use std::ops::RangeInclusive;

use lang::bytecode::{FuncIdx, Program};
use profiler::counters::PathCounters;
use profiler::k_iteration::{
    Action, AfterExit, KIterConfig, KIterError, KIterPlan, KIteration, KPlacement, Probe,
};
use profiler::{
    BallLarus, BlError, DepthFirst, Edge, EdgeProfile, Fallback, Loops, Numbering, PathEnds,
};

use super::cfg_build::{CfgBuildError, FunctionCfg};
use crate::profile::FunctionProfile;

/// The probe index of the entry probe, the first instruction of every instrumented version.
pub const ENTRY_PROBE: u16 = 0;

/// Why a function cannot be k-iteration profiled, or a profile cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KiterError {
    /// K must be at least 1.
    ZeroK,
    /// The function's code has no CFG (the verifier rejects such code first).
    Cfg {
        /// The function.
        func: String,
        /// What is wrong.
        error: CfgBuildError,
    },
    /// The profiler could not number the paths.
    Numbering {
        /// The function.
        func: String,
        /// What went wrong.
        error: KIterError,
    },
    /// More edges need a probe than a `u16` probe index can name.
    TooManyProbes {
        /// The function.
        func: FuncIdx,
        /// How many probes it would need (the entry probe included).
        probes: usize,
    },
    /// A counted id that the function's numbering does not have (a broken plan).
    UnknownId {
        /// The function.
        func: String,
        /// The id.
        id: u64,
        /// Its number of static paths.
        static_paths: u64,
    },
}

impl fmt::Display for KiterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KiterError::ZeroK => f.write_str("k-iteration profiling needs K >= 1"),
            KiterError::Cfg { func, error } => write!(f, "function {func}: {error}"),
            KiterError::Numbering { func, error } => write!(f, "function {func}: {error}"),
            KiterError::TooManyProbes { func, probes } => write!(
                f,
                "function {func} needs {probes} k-iteration probes, more than {}",
                u16::MAX as usize + 1
            ),
            KiterError::UnknownId {
                func,
                id,
                static_paths,
            } => write!(
                f,
                "function {func}: path id {id} is not below its {static_paths} static k-iteration paths"
            ),
        }
    }
}

impl std::error::Error for KiterError {}

/// Numbers `cfg`'s k-iteration paths (no limit below `u64`: the profiler falls back by itself).
fn number<'a>(
    cfg: &'a profiler::Cfg,
    dfs: &'a DepthFirst,
    k: u32,
    path_ends: PathEnds,
) -> Result<KIteration<'a>, KIterError> {
    let loops = Loops::compute(cfg, dfs);
    KIteration::compute(cfg, dfs, &loops, KIterConfig::new(k, path_ends))
}

/// The probes of one probe index.
#[derive(Clone, Copy, Debug)]
struct Op {
    outside: Option<Probe>,
    inside: Option<Probe>,
    /// The edge enters the exit block: count the last path after the probe.
    to_exit: bool,
}

impl Op {
    const NONE: Op = Op {
        outside: None,
        inside: None,
        to_exit: false,
    };
}

/// One tiered-up function: its CFG, plan, probe table and path counts.
#[derive(Clone, Debug)]
pub struct KiterFunction {
    fc: FunctionCfg,
    plan: KIterPlan,
    /// `ops[k]` for probe index `k`; `ops[ENTRY_PROBE]` holds the virtual entry edge's probes.
    ops: Vec<Op>,
    sites: Vec<(Edge, u16)>,
    counters: PathCounters,
}

impl KiterFunction {
    /// The function's CFG (as built at tier-up).
    pub fn cfg(&self) -> &FunctionCfg {
        &self.fc
    }

    /// The instrumentation plan its probes run.
    pub fn plan(&self) -> &KIterPlan {
        &self.plan
    }

    /// The edges with a probe and their probe indices (what [`KiterRuntime::tier_up`] returned).
    pub fn sites(&self) -> &[(Edge, u16)] {
        &self.sites
    }

    /// The path counts so far, by id.
    pub fn counters(&self) -> &PathCounters {
        &self.counters
    }

    /// The fallbacks the numbering took (loops demoted to acyclic profiling, extra cuts).
    pub fn fallbacks(&self) -> &[Fallback] {
        &self.plan.fallbacks
    }
}

/// What a frame is doing (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Baseline,
    Counting,
    Pending,
    Done,
}

/// A frame's header; its accumulators are `slots[i*K .. (i+1)*K]` for frame `i`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: FuncIdx,
    mode: Mode,
    active: bool,
    /// Iterations completed in the current run of the active loop, saturating at K - 1.
    itr: u32,
    /// Pending only: how many of the youngest accumulators hold paths begun after the switch.
    known: u32,
}

/// The `kiter:K` runtime for one run: per function its plan and counts, per activation its
/// state. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct KiterRuntime {
    k: u32,
    path_ends: PathEnds,
    placement: KPlacement,
    funcs: Vec<Option<Box<KiterFunction>>>,
    frames: Vec<Frame>,
    slots: Vec<u64>,
}

impl KiterRuntime {
    /// A runtime for K-iteration paths (K >= 1) under `path_ends`, placement
    /// [`KPlacement::DummyRemoval`].
    pub fn new(k: u32, path_ends: PathEnds) -> Result<Self, KiterError> {
        if k == 0 {
            return Err(KiterError::ZeroK);
        }
        Ok(KiterRuntime {
            k,
            path_ends,
            placement: KPlacement::DummyRemoval,
            funcs: Vec::new(),
            frames: Vec::new(),
            slots: Vec::new(),
        })
    }

    /// The same runtime with another placement of the increments (for functions tiered up
    /// afterwards).
    pub fn with_placement(mut self, placement: KPlacement) -> Self {
        self.placement = placement;
        self
    }

    /// K.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The path-end strategy.
    pub fn path_ends(&self) -> PathEnds {
        self.path_ends
    }

    /// Function `func`'s state, if it tiered up.
    pub fn function(&self, func: FuncIdx) -> Option<&KiterFunction> {
        self.funcs.get(func.index()).and_then(|f| f.as_deref())
    }

    /// The number of activations on the runtime's stack.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Tiers `func` up: numbers its paths, builds its plan (unweighted placement) and its
    /// counter table; returns the edges that need a `Probe` with their probe indices (see the
    /// [module documentation](self): [`ENTRY_PROBE`] goes at the new pc 0 in addition). A
    /// second call for the same function returns the same sites and keeps the counts.
    pub fn tier_up(
        &mut self,
        func: FuncIdx,
        fc: &FunctionCfg,
    ) -> Result<Vec<(Edge, u16)>, KiterError> {
        self.tier_up_weighted(func, fc, None)
    }

    /// [`Self::tier_up`] with tier-0 edge counts steering the event-counting placement.
    pub fn tier_up_weighted(
        &mut self,
        func: FuncIdx,
        fc: &FunctionCfg,
        weights: Option<&EdgeProfile>,
    ) -> Result<Vec<(Edge, u16)>, KiterError> {
        if let Some(f) = self.function(func) {
            return Ok(f.sites.clone());
        }
        let cfg = fc.cfg();
        let dfs = DepthFirst::compute(cfg);
        let kit =
            number(cfg, &dfs, self.k, self.path_ends).map_err(|error| KiterError::Numbering {
                func: func.to_string(),
                error,
            })?;
        let plan = kit.plan_weighted(self.placement, weights);
        let entry_edge = fc
            .has_virtual_entry()
            .then(|| cfg.succ_edge(cfg.entry(), 0));
        let op_of = |e: Edge| {
            let p = plan.edges[e];
            Op {
                outside: p.outside,
                inside: p.inside,
                to_exit: cfg.target(e) == cfg.exit(),
            }
        };
        let mut ops = vec![entry_edge.map_or(Op::NONE, op_of)];
        let mut sites = Vec::new();
        for e in cfg.edges() {
            if Some(e) == entry_edge {
                continue;
            }
            let op = op_of(e);
            let noop = |p: Option<Probe>| p.is_none_or(|p| plan.is_noop(&p));
            if !op.to_exit && noop(op.outside) && noop(op.inside) {
                continue;
            }
            let index = u16::try_from(ops.len()).map_err(|_| KiterError::TooManyProbes {
                func,
                probes: ops.len() + 1,
            })?;
            ops.push(op);
            sites.push((e, index));
        }
        let counters = PathCounters::new(plan.num_paths);
        if self.funcs.len() <= func.index() {
            self.funcs.resize_with(func.index() + 1, || None);
        }
        self.funcs[func.index()] = Some(Box::new(KiterFunction {
            fc: fc.clone(),
            plan,
            ops,
            sites: sites.clone(),
            counters,
        }));
        Ok(sites)
    }

    /// An activation of `func` starts (every activation, tiered up or not): pushes a baseline
    /// frame; the entry probe of an instrumented version makes it count.
    #[inline]
    pub fn on_entry(&mut self, func: FuncIdx) {
        self.frames.push(Frame {
            func,
            mode: Mode::Baseline,
            active: false,
            itr: 0,
            known: 0,
        });
        let need = self.frames.len() * self.k as usize;
        if self.slots.len() < need {
            self.slots.resize(need, 0);
        }
    }

    /// The activation of `func` on top returns (or exits): pops its frame.
    #[inline]
    pub fn on_return(&mut self, func: FuncIdx) {
        debug_assert_eq!(self.frames.last().map(|f| f.func), Some(func));
        let _ = func;
        self.frames.pop();
    }

    /// The activation on top (of `func`) switched from baseline code to `func`'s instrumented
    /// version in the middle of its run (on-stack replacement): it counts the paths that start
    /// from now on (see the [module documentation](self)).
    pub fn on_osr(&mut self, func: FuncIdx) {
        if let Some(fr) = self.frames.last_mut() {
            debug_assert_eq!(fr.func, func);
            if self.funcs.get(func.index()).is_some_and(|f| f.is_some()) {
                fr.mode = Mode::Pending;
                fr.known = 0;
                fr.itr = 0;
                fr.active = false;
            }
        }
    }

    /// [`Self::on_osr`] where the backward jump that triggered the switch is itself a listed
    /// CFG edge with probe index `k` (a `do`-`while` or rotated `for` back edge, or any edge
    /// whose probe ends a path): its probe runs in the pending frame, so the paths that start
    /// on that very edge are counted too (nothing is lost when it is a path end or a back edge
    /// of a k-loop). Equivalent to `on_osr(func)` followed by `on_probe(func, k)` (`k` =
    /// [`ENTRY_PROBE`] is ignored).
    pub fn on_osr_at(&mut self, func: FuncIdx, k: u16) {
        self.on_osr(func);
        // The entry probe starts an activation; it is no edge a frame can switch on.
        if k != ENTRY_PROBE {
            self.on_probe(func, k);
        }
    }

    /// Probe `k` of `func` runs in the activation on top.
    #[inline]
    pub fn on_probe(&mut self, func: FuncIdx, k: u16) {
        let kk = self.k as usize;
        let base = self.frames.len().wrapping_sub(1).wrapping_mul(kk);
        let Some(fr) = self.frames.last_mut() else {
            return;
        };
        debug_assert_eq!(fr.func, func);
        let Some(f) = self
            .funcs
            .get_mut(func.index())
            .and_then(|f| f.as_deref_mut())
        else {
            return;
        };
        let c = &mut self.slots[base..base + kk];
        if k == ENTRY_PROBE {
            c[0] = f.plan.entry_init;
            fr.mode = Mode::Counting;
            fr.active = false;
            fr.itr = 0;
            let op = f.ops[0];
            if op.outside.is_some() {
                counting_step(&f.plan, &op, c, fr, &mut f.counters);
            }
            return;
        }
        let Some(op) = f.ops.get(k as usize) else {
            return;
        };
        match fr.mode {
            Mode::Counting => counting_step(&f.plan, op, c, fr, &mut f.counters),
            Mode::Pending => {
                pending_step(&f.plan, op, c, fr);
                if op.to_exit {
                    // A pending frame ends without counting, unless this very edge started a
                    // path (then it is counted as a counting frame would).
                    if fr.mode == Mode::Counting && !fr.active {
                        f.counters.count(c[0].wrapping_add(f.plan.exit_add));
                    }
                    fr.mode = Mode::Done;
                }
            }
            Mode::Baseline | Mode::Done => {}
        }
    }

    /// The profile of every function of `program`, in program order: the paths each tiered-up
    /// function counted, identified to their block sequences and ends, with
    /// `tiered_up_at(func)` as its `tiered_up_at` (0 if it gives `None`); the functions that
    /// never tiered up with no paths, their static k-iteration path count and `None`.
    pub fn into_profiles(
        &self,
        program: &Program,
        tiered_up_at: impl Fn(FuncIdx) -> Option<u64>,
    ) -> Result<Vec<FunctionProfile>, KiterError> {
        let mut out = Vec::with_capacity(program.functions.len());
        for (i, fdef) in program.functions.iter().enumerate() {
            let func = FuncIdx(i as u16);
            let numbering_error = |error| KiterError::Numbering {
                func: fdef.name.clone(),
                error,
            };
            match self.function(func) {
                Some(f) => {
                    let cfg = f.fc.cfg();
                    let dfs = DepthFirst::compute(cfg);
                    let kit = number(cfg, &dfs, self.k, self.path_ends).map_err(numbering_error)?;
                    let static_paths = f.plan.num_paths;
                    let mut counted = Vec::with_capacity(f.counters.len());
                    for (id, n) in f.counters.iter() {
                        let unknown = || KiterError::UnknownId {
                            func: fdef.name.clone(),
                            id,
                            static_paths,
                        };
                        if id >= static_paths {
                            return Err(unknown());
                        }
                        let path = kit
                            .identify(id)
                            .map_err(numbering_error)?
                            .ok_or_else(unknown)?;
                        counted.push((id, n, path));
                    }
                    out.push(FunctionProfile::new(
                        &fdef.name,
                        fdef.loc.line,
                        &f.fc,
                        static_paths,
                        Some(tiered_up_at(func).unwrap_or(0)),
                        counted,
                    ));
                }
                None => {
                    let fc = FunctionCfg::of_function(fdef).map_err(|error| KiterError::Cfg {
                        func: fdef.name.clone(),
                        error,
                    })?;
                    let dfs = DepthFirst::compute(fc.cfg());
                    let kit =
                        number(fc.cfg(), &dfs, self.k, self.path_ends).map_err(numbering_error)?;
                    out.push(FunctionProfile::new(
                        &fdef.name,
                        fdef.loc.line,
                        &fc,
                        kit.num_paths(),
                        None,
                        Vec::new(),
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// The plan's semantics for one probe of a counting frame (`KIterState::take_edge`), then the
/// last path's count if the edge enters the exit.
// The indexed loop over the live accumulators runs fewer instructions than a zip of slices
// for the usual 0..3 iterations (callgrind, K = 2: about 15 fewer per probe).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn counting_step(
    plan: &KIterPlan,
    op: &Op,
    c: &mut [u64],
    fr: &mut Frame,
    counters: &mut PathCounters,
) {
    let probe = if fr.active { &op.inside } else { &op.outside };
    let Some(probe) = probe else {
        // A state the plan says cannot occur (a plan for another CFG): stop counting rather
        // than count a wrong path.
        fr.mode = Mode::Pending;
        fr.known = 0;
        return;
    };
    let k = c.len();
    if fr.active {
        let itr = fr.itr as usize;
        let inc = probe.inc as usize;
        let comp = probe.inc_compensated as usize;
        for j in 0..itr {
            c[j] = c[j].wrapping_add(plan.values[comp + j]);
        }
        c[itr] = c[itr].wrapping_add(plan.values[inc + itr]);
    } else {
        c[0] = c[0].wrapping_add(plan.values[probe.inc as usize]);
    }
    match probe.action {
        Action::Add => {}
        Action::Enter => {
            fr.active = true;
            fr.itr = 0;
        }
        Action::End { restart, enter } => {
            counters.count(c[0]);
            c[0] = restart;
            if enter {
                fr.active = true;
                fr.itr = 0;
            }
        }
        Action::Back { restart } => {
            if fr.itr as usize == k - 1 {
                counters.count(c[k - 1]);
            }
            c.copy_within(0..k - 1, 1);
            c[0] = restart;
            if (fr.itr as usize) < k - 1 {
                fr.itr += 1;
            }
        }
        Action::Exit { then } => {
            c[0] = c[fr.itr as usize];
            fr.itr = 0;
            fr.active = false;
            match then {
                AfterExit::Continue => {}
                AfterExit::Enter => fr.active = true,
                AfterExit::End { restart, enter } => {
                    counters.count(c[0]);
                    c[0] = restart;
                    fr.active = enter;
                }
            }
        }
    }
    if op.to_exit {
        if !fr.active {
            counters.count(c[0].wrapping_add(plan.exit_add));
        }
        fr.mode = Mode::Done;
    }
}

/// One probe of a pending frame (after on-stack replacement; see the module documentation).
fn pending_step(plan: &KIterPlan, op: &Op, c: &mut [u64], fr: &mut Frame) {
    let k = c.len() as u32;
    let resync = |c: &mut [u64], fr: &mut Frame, restart: u64, enter: bool| {
        c[0] = restart;
        fr.mode = Mode::Counting;
        fr.itr = 0;
        fr.active = enter;
    };
    let ends = |p: &Probe| match p.action {
        Action::End { restart, enter }
        | Action::Exit {
            then: AfterExit::End { restart, enter },
        } => Some((restart, enter)),
        _ => None,
    };
    match (op.outside, op.inside) {
        (Some(p), None) => {
            if let Some((restart, enter)) = ends(&p) {
                resync(c, fr, restart, enter);
            }
        }
        (None, Some(p)) => {
            let known = fr.known as usize;
            let comp = p.inc_compensated as usize;
            for (j, cj) in c[..known].iter_mut().enumerate() {
                *cj = cj.wrapping_add(plan.values[comp + j]);
            }
            match p.action {
                Action::Back { restart } => {
                    // `known < K`, so `c[K - 1]` is unknown and not counted.
                    c.copy_within(0..c.len() - 1, 1);
                    c[0] = restart;
                    fr.known += 1;
                    if fr.known == k {
                        fr.mode = Mode::Counting;
                        fr.itr = k - 1;
                        fr.active = true;
                    }
                }
                Action::Exit { then } => {
                    // The survivor `c[itr]` is older than every known accumulator.
                    fr.known = 0;
                    if let AfterExit::End { restart, enter } = then {
                        resync(c, fr, restart, enter);
                    }
                }
                Action::Add | Action::Enter | Action::End { .. } => {}
            }
        }
        (Some(o), Some(i)) => {
            // Only in an irreducible k-loop: `active` is unknown. Resynchronise only when both
            // states end the path the same way.
            if let (Some(a), Some(b)) = (ends(&o), ends(&i)) {
                if a == b {
                    resync(c, fr, a.0, a.1);
                    fr.known = 0;
                }
            }
        }
        (None, None) => {}
    }
}

/// One row of [`StaticPathCounts`]: the k-iteration numbering for one K.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KRow {
    /// K.
    pub k: u32,
    /// The number of static k-iteration paths (ids `0..paths`).
    pub paths: u64,
    /// How many loops are profiled over K iterations (innermost loops not demoted).
    pub k_loops: usize,
    /// The fallbacks taken (loops demoted to acyclic profiling, extra cut blocks).
    pub fallbacks: Vec<Fallback>,
}

/// The static path counts of one function (a row of Roy & Srikant's Table 4).
#[derive(Clone, Debug)]
pub struct StaticPathCounts {
    /// The function's name.
    pub name: String,
    /// The line of its definition.
    pub line: u32,
    /// Its CFG (for naming blocks in the fallbacks).
    pub cfg: FunctionCfg,
    /// Its number of innermost loops (the candidates for k-iteration profiling).
    pub innermost_loops: usize,
    /// The Ball-Larus static path count (canonical numbering, no limit below `u64`).
    pub bl: u64,
    /// The Ball-Larus fallbacks (extra cuts when the count exceeds `u64`).
    pub bl_fallbacks: Vec<Fallback>,
    /// One row per K asked for, in increasing K.
    pub rows: Vec<KRow>,
}

/// The static path counts of every function of `program`, for each K in `ks`, under
/// `path_ends` (`vmrun paths`). An empty range gives no rows.
pub fn static_path_counts(
    program: &Program,
    ks: RangeInclusive<u32>,
    path_ends: PathEnds,
) -> Result<Vec<StaticPathCounts>, KiterError> {
    let mut out = Vec::with_capacity(program.functions.len());
    for fdef in &program.functions {
        let fc = FunctionCfg::of_function(fdef).map_err(|error| KiterError::Cfg {
            func: fdef.name.clone(),
            error,
        })?;
        let cfg = fc.cfg();
        let dfs = DepthFirst::compute(cfg);
        let loops = Loops::compute(cfg, &dfs);
        let innermost_loops = loops.ids().filter(|&l| loops.get(l).innermost).count();
        let bl = BallLarus::new(cfg, path_ends, Numbering::Canonical, u64::MAX).map_err(
            |e: BlError| KiterError::Numbering {
                func: fdef.name.clone(),
                error: match e {
                    BlError::LimitTooSmall { limit, .. } => {
                        KIterError::LimitTooSmall { max_paths: limit }
                    }
                },
            },
        )?;
        let mut rows = Vec::new();
        for k in ks.clone() {
            let kit = KIteration::compute(cfg, &dfs, &loops, KIterConfig::new(k, path_ends))
                .map_err(|error| KiterError::Numbering {
                    func: fdef.name.clone(),
                    error,
                })?;
            rows.push(KRow {
                k,
                paths: kit.num_paths(),
                k_loops: kit.k_loops().len(),
                fallbacks: kit.fallbacks().to_vec(),
            });
        }
        out.push(StaticPathCounts {
            name: fdef.name.clone(),
            line: fdef.loc.line,
            innermost_loops,
            bl: bl.num_paths(),
            bl_fallbacks: bl.fallbacks().to_vec(),
            rows,
            cfg: fc,
        });
    }
    Ok(out)
}
