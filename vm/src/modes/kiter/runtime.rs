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
//! - `k = ENTRY_PROBE` (0) is the activation's start: it starts the counting (`c[0] :=
//!   entry_init`) and runs the probes of the virtual entry's edge when the CFG has one (that
//!   edge is never listed). It may go first in the instrumented code (new pc 0, never a jump
//!   target), but a VM whose calls always enter a tiered-up function's instrumented code (ours)
//!   calls [`KiterRuntime::on_entry_instrumented`] instead, which does the same without a
//!   dispatched instruction per call: the `kiter:K` sink emits no entry probe.
//! - every other listed edge `e` has its own index `1..`; the edges whose probes do nothing
//!   ([`KIterPlan::is_noop`] in both states) are left out, except that **every edge into the
//!   exit block is listed**: its probe also counts the activation's last path (`c[0] +
//!   exit_add`), so codegen puts it before the `Ret`/`RetV`/`Exit` it stands for.
//!
//! ## State (per activation)
//! [`KiterRuntime::on_entry`] (or [`KiterRuntime::on_entry_instrumented`]) pushes a frame and
//! [`KiterRuntime::on_return`] pops it, for every activation, tiered up or not, so the stack
//! follows the interpreter's. A frame is a small header (its function, its *state*, and `known`
//! for frames that joined by on-stack replacement) and `max(K, 3)` accumulator slots in one
//! flat `Vec<u64>` shared by all frames (frame `i` owns slots `i*w .. (i+1)*w`): after the
//! deepest recursion has been seen once, nothing is allocated. Modes:
//!
//! - *baseline*: pushed by `on_entry`; the activation runs tier-0 code and sees no probe;
//! - *counting*: after the entry probe (or from `on_entry_instrumented`), the plan's
//!   semantics exactly (see
//!   `docs/kiter-plan.md`, "Execution");
//! - *pending*: after [`KiterRuntime::on_osr`] (below);
//! - *done*: after the probe of an edge into the exit (its last path counted).
//!
//! The state is one number: `0` counting with no k-loop active, `1 + itr` counting inside the
//! active k-loop, then baseline, pending and done (`K + 1`, `K + 2`, `K + 3`).
//!
//! ## Step tables: a probe in a few loads
//! Which probe of an edge runs (inside or outside), how many increments it adds (`itr + 1`
//! inside) and which are compensated, what its action does to `itr` and `active`: all of that
//! depends only on the probe index and the frame's state. So at tier-up each function gets a
//! *step table* with `K + 4` entries per probe index, one per state (`Step`, 40 bytes): the
//! increments of `c[0..3]` inline (zeros beyond the step's own; a frame has at least 3 slots,
//! so the fast path adds all three without a loop or a bound), the action pre-decoded (add,
//! path end, back edge with or without the count of `c[K-1]`, loop exit with or without a path
//! end, the exit's count, the activation's start; the `Back` shift is three moves for K <= 3),
//! its restart value and the state after it. The runtime keeps the running frame's state,
//! table, accumulators and dense path counters in a *cursor* ([`crate::step_table::StepCursor`],
//! an allocation of its own; re-derived on entry, return, on-stack replacement, tier-up and
//! growth) that it shares with the interpreter loop ([`KiterRuntime::step_cursor`]): the loop's
//! `Probe` handler runs the common steps itself ([`crate::step_table::try_step`]: one
//! multiply-add for the index, a bound check, three adds, the action, a store of the next
//! state; no call), and calls [`KiterRuntime::on_probe`], the same steps and all others, only
//! for what it does not do (pending frames, hashed counters, shifts of K > 3).
//! Steps with more than three increments (K > 3) add the others out of line, then act as
//! usual. Rare steps go out of line to the general code, the plan's semantics on the decoded
//! state (as before the tables): pending frames, an edge into the exit whose action is not
//! `Add`, the virtual entry's edge, a probe the plan leaves out in a state (a plan for another
//! CFG). A function whose table would exceed 2^18 steps (thousands of probes at a large K) has
//! none and runs every probe that way.
//! Counting is the function's [`PathCounters`] (dense array or hash table).
//!
//! The sink places the increments by Ball's event counting on the unrolled DAG
//! ([`KPlacement::EventCounting`], tier-0 edge counts as weights): only chords of a maximum
//! spanning tree carry increments, so far fewer edges need a probe than with the paper's
//! dummy-edge removal (twins/loops.c: 1.4 probes per iteration instead of 3.6); the path ids,
//! hence the counts, do not depend on the placement.
//!
//! ## On-stack replacement
//! A baseline frame that tiers up in a loop continues in instrumented code at the target of the
//! backward jump. Its accumulators would hold paths whose beginning the probes never saw. The
//! BL design (`docs/design/tiering.md`, "OSR") drops the partial path at its first count and
//! counts from the next path start on; with K accumulators the equivalent is: **count exactly
//! the k-iteration paths that start after the switch**. For that the frame must know whether a
//! k-loop is active; in an irreducible k-loop (a `goto` into the loop) that depends on how the
//! loop was entered, which baseline code does not record. So at tier-up each function gets its
//! *k-loop states* ([`KiterFunction::k_loop_states`]: whether a frame can be at a block with
//! no k-loop active, with one active, on some CFG path from the entry), and
//! [`KiterRuntime::on_osr_at`] at the backward jump `e`:
//!
//! 1. if the state before `e` is determined (one state), the frame becomes pending in it and
//!    `e`'s probe runs (a path starting on `e` is counted, as the Ball-Larus sink's
//!    `Osr { path: Some(..) }`);
//! 2. else if the state after `e` is determined, the frame becomes pending in it after `e`;
//! 3. else it refuses: the frame stays at baseline, and the VM tries again at its next backward
//!    jump.
//!
//! A pending frame is *outside* (no k-loop active, `c[0]` unknown) or *inside* with `known = j`
//! (a k-loop active, `itr >= j` unknown, the `j` youngest accumulators known). A path starts at
//! an `End` action (or `Exit { then: End }`): then the whole state is known (`c[0] := restart`,
//! `itr := 0`, `active := enter`) and the frame is counting. A path also starts at a back edge
//! of a k-loop (`Back`): `c[0] := restart` is known and the older accumulators are not, so the
//! frame shifts and sets `known += 1`; the known accumulators get the *compensated* increments
//! (each started at a back edge, so it lies below `itr`), and when `known` reaches K every live
//! accumulator is known, `itr` is `K - 1` and the frame is counting. Leaving the loop before
//! that carries an unknown survivor (`c[itr]` is older than every known accumulator): the frame
//! is pending outside. Unknown accumulators are never counted, so with late tier-up every count
//! is at most the reference semantics' (tested against the reference semantics, with the rule's
//! decision computed from it, at every backward jump).
//!
//! ## Tables and profiles
//! Each function counts into a [`PathCounters`] (dense up to `profiler::counters::DENSE_LIMIT`
//! static paths, hashed above; nothing aborts). [`KiterRuntime::into_profiles`] identifies
//! every counted id (Algorithm 2, [`KIteration::identify`]) to its block sequence and `end`.
//! The static path counts per K (the paper's Table 4) are [`super::static_counts`]'s. The
//! design is written up in `docs/kiter-runtime.md`.

use std::fmt;

use lang::bytecode::{FuncIdx, Program};
use profiler::counters::PathCounters;
use profiler::k_iteration::{
    Action, AfterExit, KIterConfig, KIterError, KIterPlan, KIteration, KPlacement, Probe,
};
use profiler::{Block, DepthFirst, Edge, EdgeProfile, Fallback, Loops, PathEnds};

use crate::profile::FunctionProfile;
use crate::step_table::{Kind, State, Step, StepCursor, INLINE};
use crate::tier::cfg_build::{CfgBuildError, FunctionCfg};

/// The probe index of the entry probe, the first instruction of every instrumented version.
pub const ENTRY_PROBE: u16 = 0;

/// What [`KiterRuntime::on_osr_at`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OsrSwitch {
    /// The frame switched on the edge: its probe ran in the pending frame.
    OnEdge,
    /// The frame switched after the edge (the k-loop state before it is not determined).
    AfterEdge,
    /// The frame did not switch: the k-loop state is determined neither before nor after the
    /// edge (or no frame of a tiered-up function runs); it stays at baseline.
    Refused,
}

/// A bit of [`KiterFunction::k_loop_states`]: the block can be reached with no k-loop active.
const MAY_BE_OUTSIDE: u8 = 1;
/// A bit of [`KiterFunction::k_loop_states`]: the block can be reached with a k-loop active.
const MAY_BE_INSIDE: u8 = 2;

/// [`Frame::known`] of a pending frame with no k-loop active (its only live accumulator,
/// `c[0]`, began before the switch).
const PENDING_OUTSIDE: u32 = u32::MAX;
/// [`Frame::known`] of a pending frame that lost track of whether a k-loop is active (only
/// with a plan that says a state cannot occur where it does: a plan for another CFG).
const PENDING_LOST: u32 = u32::MAX - 1;

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

/// The probes of one probe index, as the plan gives them (what the general code runs).
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

/// The most steps a function's table may have: beyond it (thousands of probes at a large K)
/// the function runs every probe through the general code instead. Also `K + 3` must fit
/// [`Step::next`].
const MAX_TABLE_STEPS: usize = 1 << 18;

/// Where a function's step table is in the runtime's `steps`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Table {
    at: usize,
    len: usize,
}

/// The table of a function without one (not tiered up, or a table above
/// [`MAX_TABLE_STEPS`]): every lookup misses, and the probe runs the general code (which
/// ignores functions that did not tier up).
const NO_TABLE: Table = Table { at: 0, len: 0 };

/// How an activation that runs a function's instrumented code starts
/// ([`KiterRuntime::on_entry_instrumented`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// The function did not tier up: a baseline frame.
    Baseline,
    /// `c[0] := entry_init`, counting, inactive.
    Init(u64),
    /// The same, then the probe of the virtual entry's edge: the general code.
    General,
}

/// One tiered-up function: its CFG, plan, probe table and path counts.
#[derive(Clone, Debug)]
pub struct KiterFunction {
    fc: FunctionCfg,
    plan: KIterPlan,
    /// `ops[k]` for probe index `k`; `ops[ENTRY_PROBE]` holds the virtual entry edge's probes.
    ops: Vec<Op>,
    sites: Vec<(Edge, u16)>,
    /// The probe index of each CFG edge, by edge index (`None`: not listed).
    probe_of: Vec<Option<u16>>,
    /// Per block, by block index: the k-loop states a frame can be in there
    /// ([`MAY_BE_OUTSIDE`], [`MAY_BE_INSIDE`]), on some path from the entry.
    states: Vec<u8>,
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

    /// Whether a frame can be at block `b` with no k-loop active, and with one active, on
    /// some path of the CFG from the entry (the plan's states, propagated along every edge:
    /// an over-approximation of what runs can do). Both only in an irreducible k-loop (a
    /// block reached both after its header and from a second entry) or after an extra cut
    /// inside a k-loop; `(false, false)` for a block the plan never reaches.
    pub fn k_loop_states(&self, b: Block) -> (bool, bool) {
        let s = self.states.get(b.index()).copied().unwrap_or(0);
        (s & MAY_BE_OUTSIDE != 0, s & MAY_BE_INSIDE != 0)
    }
}

/// Whether a k-loop is active after a probe with action `action` taken with it active or not.
fn active_after(action: Action, active: bool) -> bool {
    match action {
        Action::Add => active,
        Action::Enter | Action::Back { .. } => true,
        Action::End { enter, .. } => enter,
        Action::Exit { then } => match then {
            AfterExit::Continue => false,
            AfterExit::Enter => true,
            AfterExit::End { enter, .. } => enter,
        },
    }
}

/// The k-loop states after edge `e` taken in states `from` (bits [`MAY_BE_OUTSIDE`],
/// [`MAY_BE_INSIDE`]): each state takes its own probe; a state without one (the plan says it
/// cannot occur there) leads nowhere.
fn states_after(plan: &KIterPlan, e: Edge, from: u8) -> u8 {
    let Some(p) = plan.edges.get(e) else {
        return 0;
    };
    let bit = |active| {
        if active {
            MAY_BE_INSIDE
        } else {
            MAY_BE_OUTSIDE
        }
    };
    let mut to = 0;
    if from & MAY_BE_OUTSIDE != 0 {
        if let Some(probe) = p.outside {
            to |= bit(active_after(probe.action, false));
        }
    }
    if from & MAY_BE_INSIDE != 0 {
        if let Some(probe) = p.inside {
            to |= bit(active_after(probe.action, true));
        }
    }
    to
}

/// [`KiterFunction::k_loop_states`] of every block: the entry with no k-loop active (as the
/// entry probe leaves a frame), then the states after each edge, to a fixpoint (each block
/// gains at most two states: O(V + E)).
fn k_loop_states(cfg: &profiler::Cfg, plan: &KIterPlan) -> Vec<u8> {
    let mut states = vec![0u8; cfg.num_blocks()];
    states[cfg.entry().index()] = MAY_BE_OUTSIDE;
    let mut work = vec![cfg.entry()];
    while let Some(b) = work.pop() {
        let from = states[b.index()];
        for e in cfg.succ_edges(b) {
            let t = cfg.target(e);
            let to = states_after(plan, e, from);
            if to & !states[t.index()] != 0 {
                states[t.index()] |= to;
                work.push(t);
            }
        }
    }
    states
}

/// An activation: its function, its state, where its accumulators and its steps are.
#[derive(Clone, Copy, Debug)]
struct Frame {
    func: FuncIdx,
    state: State,
    /// Pending only: [`PENDING_OUTSIDE`] (no k-loop active), or `j < K`: a k-loop is active
    /// and the `j` youngest accumulators hold paths begun after the switch, or
    /// [`PENDING_LOST`].
    known: u32,
    /// Its accumulators are `slots[base .. base + K]`.
    base: usize,
    /// Its function's step table.
    table: Table,
}

impl Frame {
    /// The top of an empty stack: baseline, no table (probes do nothing).
    fn none(k: u32) -> Frame {
        Frame {
            func: FuncIdx(0),
            state: k + 1,
            known: 0,
            base: 0,
            table: NO_TABLE,
        }
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

/// A frame's [`State`] spelled out, for the general code.
#[derive(Clone, Copy, Debug)]
struct Decoded {
    mode: Mode,
    active: bool,
    /// Iterations completed in the current run of the active loop, saturating at K - 1.
    itr: u32,
    /// Pending only: see [`Frame::known`].
    known: u32,
}

impl Decoded {
    fn of(fr: &Frame, k: u32) -> Decoded {
        let s = fr.state;
        let mode = match s.checked_sub(k) {
            None | Some(0) => Mode::Counting,
            Some(1) => Mode::Baseline,
            Some(2) => Mode::Pending,
            Some(_) => Mode::Done,
        };
        Decoded {
            mode,
            active: mode == Mode::Counting && s > 0,
            itr: if mode == Mode::Counting {
                s.saturating_sub(1)
            } else {
                0
            },
            known: fr.known,
        }
    }

    fn state(&self, k: u32) -> State {
        match self.mode {
            Mode::Counting if self.active => 1 + self.itr,
            Mode::Counting => 0,
            Mode::Baseline => k + 1,
            Mode::Pending => k + 2,
            Mode::Done => k + 3,
        }
    }
}

/// The `kiter:K` runtime for one run: per function its plan and counts, per activation its
/// state. See the [module documentation](self).
#[derive(Debug)]
pub struct KiterRuntime {
    k: u32,
    path_ends: PathEnds,
    placement: KPlacement,
    funcs: Vec<Option<Box<KiterFunction>>>,
    /// Per function, its step table ([`NO_TABLE`] if none).
    tables: Vec<Table>,
    /// Per function, how its instrumented activations start.
    starts: Vec<Start>,
    /// The step tables of the tiered-up functions, one after the other; a table has `K + 4`
    /// steps per probe index, one per [`State`].
    steps: Vec<Step>,
    /// The steps' increments and restart values.
    vals: Vec<u64>,
    /// The number of states, `K + 4`: the steps per probe index.
    stride: usize,
    /// The accumulators per frame, `max(K, 3)` ([`INLINE`]).
    width: usize,
    /// The running activation ([`Frame::none`] when `depth == 0`).
    top: Frame,
    /// The number of activations: `top` and the callers in `frames`.
    depth: usize,
    /// The callers of `top`, outermost first.
    frames: Vec<Frame>,
    slots: Vec<u64>,
    /// `top`'s state (canonical: `top.state` is only written when `top` becomes a caller),
    /// table and accumulators, shared with the interpreter loop ([`Self::step_cursor`]).
    cursor: CursorCell,
}

/// The [`StepCursor`] in an allocation of its own, so that the loop may write it through a
/// raw pointer while the runtime is borrowed: `steps` is `steps[top.table.at..]` of the runtime
/// (`len` steps), `c` is `slots[top.base..]` (`width` accumulators). [`KiterRuntime::sync`]
/// recomputes them whenever `top`, `steps` or `slots` change (entry, return, on-stack
/// replacement, tier-up, growth).
struct CursorCell(std::ptr::NonNull<StepCursor>);

impl CursorCell {
    fn new(cursor: StepCursor) -> Self {
        CursorCell(std::ptr::NonNull::from(Box::leak(Box::new(cursor))))
    }

    /// A copy of the cursor.
    #[inline(always)]
    fn get(&self) -> StepCursor {
        // SAFETY: the allocation lives as long as `self`; accesses never overlap (the loop
        // writes only between the runtime's calls).
        unsafe { *self.0.as_ptr() }
    }

    /// The cursor, to change.
    #[inline(always)]
    fn get_mut(&mut self) -> &mut StepCursor {
        // SAFETY: as in `get`.
        unsafe { &mut *self.0.as_ptr() }
    }
}

impl Drop for CursorCell {
    fn drop(&mut self) {
        // SAFETY: made by `Box::leak` in `new`, freed only here.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}

impl fmt::Debug for CursorCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl Clone for KiterRuntime {
    fn clone(&self) -> Self {
        let mut rt = KiterRuntime {
            k: self.k,
            path_ends: self.path_ends,
            placement: self.placement,
            funcs: self.funcs.clone(),
            tables: self.tables.clone(),
            starts: self.starts.clone(),
            steps: self.steps.clone(),
            vals: self.vals.clone(),
            stride: self.stride,
            width: self.width,
            top: self.top,
            depth: self.depth,
            frames: self.frames.clone(),
            slots: self.slots.clone(),
            cursor: CursorCell::new(self.cursor.get()),
        };
        // The copy's pointers must point into its own vectors.
        rt.sync();
        rt
    }
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
            tables: Vec::new(),
            starts: Vec::new(),
            steps: Vec::new(),
            vals: Vec::new(),
            stride: k as usize + 4,
            width: (k as usize).max(INLINE),
            top: Frame::none(k),
            depth: 0,
            frames: Vec::new(),
            slots: vec![0; (k as usize).max(INLINE)],
            cursor: CursorCell::new(StepCursor {
                state: k + 1,
                stride: k as usize + 4,
                k: k as usize,
                steps: std::ptr::null(),
                len: 0,
                c: std::ptr::null_mut(),
                counts: std::ptr::null_mut(),
                counts_len: 0,
            }),
        }
        .synced())
    }

    fn synced(mut self) -> Self {
        self.sync();
        self
    }

    /// Points the cursor at `top`'s table, accumulators and dense path counters (its state is
    /// kept).
    #[inline(always)]
    fn sync(&mut self) {
        debug_assert!(self.top.table.at + self.top.table.len <= self.steps.len());
        debug_assert!(self.top.base + self.width <= self.slots.len());
        // In bounds (or one past the end for an empty table): tables lie in `steps`.
        let steps = self.steps.as_ptr().wrapping_add(self.top.table.at);
        let len = self.top.table.len;
        let c = self.slots.as_mut_ptr().wrapping_add(self.top.base);
        // A table means a tiered-up function, whose counters a probe may count in.
        let (counts, counts_len) = if len == 0 {
            (std::ptr::null_mut(), 0)
        } else {
            self.funcs
                .get_mut(self.top.func.index())
                .and_then(|f| f.as_deref_mut())
                .and_then(|f| f.counters.dense_mut())
                .map_or((std::ptr::null_mut(), 0), |d| (d.as_mut_ptr(), d.len()))
        };
        let cur = self.cursor.get_mut();
        cur.steps = steps;
        cur.len = len;
        cur.c = c;
        cur.counts = counts;
        cur.counts_len = counts_len;
    }

    /// The running frame's state.
    #[inline(always)]
    fn state(&self) -> State {
        self.cursor.get().state
    }

    /// Sets the running frame's state.
    #[inline(always)]
    fn set_state(&mut self, s: State) {
        self.cursor.get_mut().state = s;
    }

    /// The running frame with its current state.
    fn top_frame(&self) -> Frame {
        Frame {
            state: self.state(),
            ..self.top
        }
    }

    /// The cursor the interpreter loop runs `Add` steps on ([`crate::step_table`]): valid as
    /// long as the runtime lives.
    pub fn step_cursor(&mut self) -> *mut StepCursor {
        self.cursor.0.as_ptr()
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
        self.depth
    }

    /// Watching: k-iteration path `id` of `func` as blocks and source lines (Algorithm 2
    /// identifies it; the numbering is recomputed, which only a watched run can afford).
    pub fn path_text(&self, func: FuncIdx, id: u64) -> Option<String> {
        let f = self.function(func)?;
        let cfg = f.fc.cfg();
        let dfs = DepthFirst::compute(cfg);
        let kit = number(cfg, &dfs, self.k, self.path_ends).ok()?;
        let path = kit.identify(id).ok()??;
        Some(crate::profile::text::block_path_text(&f.fc, &path))
    }

    /// The running activation in one line (for watching a run): its function, what it is
    /// doing, and its accumulators (`c[0]` first), or `None` when no activation runs.
    pub fn running(&self) -> Option<String> {
        if self.depth == 0 {
            return None;
        }
        let fr = &self.top_frame();
        let d = Decoded::of(fr, self.k);
        let what = match d.mode {
            Mode::Counting if d.active => format!("in its k-loop, iteration {}", d.itr),
            Mode::Counting => "counting".to_string(),
            Mode::Baseline => "at tier 0".to_string(),
            Mode::Pending => match d.known {
                PENDING_OUTSIDE => "pending, outside k-loops".to_string(),
                PENDING_LOST => "pending, k-loop state unknown".to_string(),
                j => format!("pending in its k-loop, {j} accumulators known"),
            },
            Mode::Done => "done".to_string(),
        };
        let c: Vec<String> = self.slots[fr.base..fr.base + self.k as usize]
            .iter()
            .map(u64::to_string)
            .collect();
        Some(format!("f{} {what}, c = [{}]", fr.func.0, c.join(", ")))
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
        let start = match ops[0].outside {
            Some(_) => Start::General,
            None => Start::Init(plan.entry_init),
        };
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
        let table = self.compile_steps(&plan, &ops);
        let counters = PathCounters::new(plan.num_paths);
        if self.funcs.len() <= func.index() {
            self.funcs.resize_with(func.index() + 1, || None);
            self.tables.resize(func.index() + 1, NO_TABLE);
            self.starts.resize(func.index() + 1, Start::Baseline);
        }
        let mut probe_of = vec![None; cfg.num_edges()];
        for &(e, k) in &sites {
            probe_of[e.index()] = Some(k);
        }
        let states = k_loop_states(cfg, &plan);
        self.funcs[func.index()] = Some(Box::new(KiterFunction {
            fc: fc.clone(),
            plan,
            ops,
            sites: sites.clone(),
            probe_of,
            states,
            counters,
        }));
        self.tables[func.index()] = table;
        self.starts[func.index()] = start;
        // Frames of `func` already running (baseline, until on-stack replacement) find their
        // steps from now on.
        for fr in self.frames.iter_mut().chain(std::iter::once(&mut self.top)) {
            if fr.func == func {
                fr.table = table;
            }
        }
        // `steps` may have moved.
        self.sync();
        Ok(sites)
    }

    /// Appends the step table of a function with probes `ops` (see [`Step`]) and returns where
    /// it starts, or [`NO_TABLE`] if it would be larger than [`MAX_TABLE_STEPS`].
    fn compile_steps(&mut self, plan: &KIterPlan, ops: &[Op]) -> Table {
        let k = self.k;
        if ops.len().saturating_mul(self.stride) > MAX_TABLE_STEPS || k + 3 > u32::from(u16::MAX) {
            return NO_TABLE;
        }
        let at = self.steps.len();
        for (index, op) in ops.iter().enumerate() {
            for s in 0..self.stride as State {
                let step = if index == usize::from(ENTRY_PROBE) {
                    // Whatever the state: a fresh activation starts counting.
                    if op.outside.is_some() {
                        Step::GENERAL
                    } else {
                        self.step(Kind::Entry, &[], plan.entry_init, 0)
                    }
                } else if s == k + 2 {
                    Step::GENERAL
                } else if s > k {
                    Step::NOP
                } else {
                    self.counting_step(plan, op, s)
                };
                self.steps.push(step);
            }
        }
        Table {
            at,
            len: self.steps.len() - at,
        }
    }

    /// The step of probe `op` for a counting frame in state `s <= K`: what [`counting_step`]
    /// does, decoded.
    fn counting_step(&mut self, plan: &KIterPlan, op: &Op, s: State) -> Step {
        let k = self.k;
        let active = s > 0;
        let probe = if active { op.inside } else { op.outside };
        let Some(probe) = probe else {
            return Step::GENERAL;
        };
        let mut incs = Vec::with_capacity(s.max(1) as usize);
        if active {
            let itr = (s - 1) as usize;
            let comp = probe.inc_compensated as usize;
            incs.extend_from_slice(&plan.values[comp..comp + itr]);
            incs.push(plan.values[probe.inc as usize + itr]);
        } else {
            incs.push(plan.values[probe.inc as usize]);
        }
        let all = incs.len();
        while incs.last() == Some(&0) {
            incs.pop();
        }
        if incs.len() > INLINE {
            // A wide step reads `s - 3` increments beyond the inline ones.
            incs.resize(all, 0);
        }
        if op.to_exit {
            return match probe.action {
                Action::Add if !active => self.step(Kind::Finish, &incs, plan.exit_add, k + 3),
                _ => Step::GENERAL,
            };
        }
        let (kind, restart, next) = match probe.action {
            Action::Add if incs.is_empty() => return Step::NOP,
            Action::Add => (Kind::Add, 0, s),
            Action::Enter => (Kind::Add, 0, 1),
            Action::End { restart, enter } => (Kind::End, restart, if enter { 1 } else { s }),
            Action::Back { restart } if active => {
                if s == k {
                    (Kind::BackCount, restart, s)
                } else {
                    (Kind::Back, restart, s + 1)
                }
            }
            Action::Exit { then } if active => match then {
                AfterExit::Continue => (Kind::Exit, 0, 0),
                AfterExit::Enter => (Kind::Exit, 0, 1),
                AfterExit::End { restart, enter } => (Kind::ExitEnd, restart, u32::from(enter)),
            },
            Action::Back { .. } | Action::Exit { .. } => return Step::GENERAL,
        };
        self.step(kind, &incs, restart, next)
    }

    /// A step with increments `incs` (at most [`INLINE`] of them, or exactly `s` for state
    /// `s`): the first [`INLINE`] inline, the others (K > 3) in the value table.
    fn step(&mut self, kind: Kind, incs: &[u64], restart: u64, next: State) -> Step {
        let mut inc = [0; INLINE];
        let (first, rest) = incs.split_at(incs.len().min(INLINE));
        inc[..first.len()].copy_from_slice(first);
        let mut step = Step {
            inc,
            restart,
            more: 0,
            next: next as u16,
            kind,
            wide: Kind::Nop,
        };
        if !rest.is_empty() {
            step.more = self.vals.len() as u32;
            self.vals.extend_from_slice(rest);
            step.wide = kind;
            step.kind = Kind::Wide;
        }
        step
    }

    /// An activation of `func` starts (every activation, tiered up or not): pushes a baseline
    /// frame; the entry probe of an instrumented version makes it count.
    #[inline(always)]
    pub fn on_entry(&mut self, func: FuncIdx) {
        self.push(func);
    }

    /// An activation of `func` starts in `func`'s instrumented code (a new call of a
    /// function that tiered up): what [`Self::on_entry`] followed by the entry probe does, so
    /// the code needs no `Probe` for [`ENTRY_PROBE`]. For a function that did not tier up, the
    /// same as [`Self::on_entry`].
    #[inline(always)]
    pub fn on_entry_instrumented(&mut self, func: FuncIdx) {
        self.push(func);
        match self.starts.get(func.index()) {
            Some(&Start::Init(init)) => {
                // SAFETY: the cursor's `c` points to the new frame's `width >= 1` accumulators.
                unsafe { *self.cursor.get().c = init };
                self.set_state(0);
            }
            Some(Start::General) => self.probe_general(func, ENTRY_PROBE),
            Some(Start::Baseline) | None => {}
        }
    }

    /// Pushes a baseline frame for an activation of `func`.
    #[inline(always)]
    fn push(&mut self, func: FuncIdx) {
        let base = if self.depth == 0 {
            0
        } else {
            self.frames.push(self.top_frame());
            self.top.base + self.width
        };
        self.depth += 1;
        self.top = Frame {
            func,
            state: self.k + 1,
            known: 0,
            base,
            table: self.tables.get(func.index()).copied().unwrap_or(NO_TABLE),
        };
        self.set_state(self.k + 1);
        if self.slots.len() < base + self.width {
            self.grow_slots(base + self.width);
        }
        self.sync();
    }

    #[cold]
    #[inline(never)]
    fn grow_slots(&mut self, need: usize) {
        self.slots.resize(need.max(self.slots.len() * 2), 0);
    }

    /// The activation of `func` on top returns (or exits): pops its frame.
    #[inline(always)]
    pub fn on_return(&mut self, func: FuncIdx) {
        debug_assert!(self.depth > 0 && self.top.func == func);
        let _ = func;
        match self.frames.pop() {
            Some(caller) => {
                self.top = caller;
                self.depth -= 1;
            }
            None => {
                self.top = Frame::none(self.k);
                self.depth = 0;
            }
        }
        self.set_state(self.top.state);
        self.sync();
    }

    /// The activation on top (of `func`) switched from baseline code to `func`'s instrumented
    /// version in the middle of its run (on-stack replacement), *after* taking CFG edge `edge`
    /// (its probe does not run): it counts the paths that start from now on (see the [module
    /// documentation](self)). The frame must know whether a k-loop is active after `edge`;
    /// when the function's k-loop state after `edge` is not the same on every path from its
    /// entry (an irreducible k-loop: [`KiterFunction::k_loop_states`]) the switch is refused
    /// and the frame stays at baseline (returns false; the VM keeps it at tier 0 and tries
    /// again at its next backward jump). Also false, doing nothing, when no activation runs,
    /// `func` did not tier up or `edge` is not its CFG's.
    pub fn on_osr(&mut self, func: FuncIdx, edge: Edge) -> bool {
        let Some(f) = self.osr_function(func) else {
            return false;
        };
        let Some(&from) = f.states.get(f.fc.cfg().source(edge).index()) else {
            return false;
        };
        let after = states_after(&f.plan, edge, from);
        self.pend(func, after)
    }

    /// On-stack replacement *on* CFG edge `edge`, the backward jump that triggered it (a
    /// `do`-`while` or rotated `for` back edge, any edge whose probe ends a path): when the
    /// k-loop state before `edge` is the same on every path from the entry, the frame becomes
    /// pending in that state and `edge`'s probe runs in it, so the paths that start on that
    /// very edge are counted too ([`OsrSwitch::OnEdge`]); otherwise, when the state after it is
    /// determined, as [`Self::on_osr`] ([`OsrSwitch::AfterEdge`]: a path starting on `edge` is
    /// not counted); otherwise the switch is refused ([`OsrSwitch::Refused`]: the frame stays
    /// at baseline).
    pub fn on_osr_at(&mut self, func: FuncIdx, edge: Edge) -> OsrSwitch {
        let Some(f) = self.osr_function(func) else {
            return OsrSwitch::Refused;
        };
        let Some(&before) = f.states.get(f.fc.cfg().source(edge).index()) else {
            return OsrSwitch::Refused;
        };
        let probe = f.probe_of.get(edge.index()).copied().flatten();
        if self.pend(func, before) {
            if let Some(k) = probe {
                self.on_probe(func, k);
            }
            OsrSwitch::OnEdge
        } else if self.on_osr(func, edge) {
            OsrSwitch::AfterEdge
        } else {
            OsrSwitch::Refused
        }
    }

    /// The function of the activation on top, if it is `func` and tiered up.
    fn osr_function(&self, func: FuncIdx) -> Option<&KiterFunction> {
        if self.depth == 0 || self.top.func != func {
            return None;
        }
        self.function(func)
    }

    /// Makes the top frame pending in the k-loop state `states` if it is one state (returns
    /// whether it did).
    fn pend(&mut self, func: FuncIdx, states: u8) -> bool {
        let known = match states {
            MAY_BE_OUTSIDE => PENDING_OUTSIDE,
            MAY_BE_INSIDE => 0,
            _ => return false,
        };
        self.set_state(self.k + 2);
        self.top.known = known;
        self.top.table = self.tables[func.index()];
        self.sync();
        true
    }

    /// Probe `k` of `func` runs in the activation on top: one step of the function's table,
    /// chosen by the probe index and the frame's state; the rare cases go to the general code.
    #[inline(always)]
    pub fn on_probe(&mut self, func: FuncIdx, k: u16) {
        debug_assert!(self.depth == 0 || self.top.func == func);
        let cur = self.cursor.get();
        let s = cur.state;
        let at = usize::from(k) * self.stride + s as usize;
        if at >= cur.len {
            return self.probe_general(func, k);
        }
        // SAFETY: the cursor is `top`'s (`sync` runs whenever `top`, `steps` or `slots`
        // change), so `cur.steps[..cur.len]` is `top`'s table inside `steps`, and `cur.c`
        // points to `width` accumulators inside `slots` (`slots.len() >= top.base + width`
        // always holds: `new` allocates `width` slots for the frame-less state, `on_entry`
        // grows them for every frame it pushes, and slots never shrink), which is what `act`
        // needs.
        let step = unsafe { &*cur.steps.add(at) };
        let c = cur.c;
        for (j, inc) in step.inc.into_iter().enumerate() {
            // SAFETY: `j < INLINE <= width`.
            unsafe { *c.add(j) = (*c.add(j)).wrapping_add(inc) };
        }
        if step.kind == Kind::Add {
            // The most common step, before anything the others need is loaded.
            self.set_state(State::from(step.next));
            return;
        }
        let funcs = &mut self.funcs;
        let f = self.top.func.index();
        let mut count = |id| count(funcs, f, id);
        // SAFETY: see `c` above.
        if unsafe {
            act(
                step.kind,
                step.restart,
                c,
                self.k as usize,
                s as usize,
                &mut count,
            )
        } {
            self.set_state(State::from(step.next));
        } else if step.kind != Kind::Nop {
            let step = *step;
            self.probe_rare(step, func, k);
        }
    }

    /// A step `act` does not do: [`Kind::Wide`] (K > 3) or [`Kind::General`].
    #[cold]
    #[inline(never)]
    fn probe_rare(&mut self, step: Step, func: FuncIdx, k: u16) {
        let s = self.state() as usize;
        if step.kind != Kind::Wide {
            return self.probe_general(func, k);
        }
        let more = step.more as usize;
        let c = self.cursor.get().c;
        for (j, v) in (INLINE..s).zip(&self.vals[more..more + s - INLINE]) {
            // SAFETY: `j < s <= K <= width` (wide steps are steps of states above 3).
            unsafe { *c.add(j) = (*c.add(j)).wrapping_add(*v) };
        }
        let funcs = &mut self.funcs;
        let f = self.top.func.index();
        let mut count = |id| count(funcs, f, id);
        // SAFETY: as in `on_probe`.
        if unsafe { act(step.wide, step.restart, c, self.k as usize, s, &mut count) } {
            self.set_state(State::from(step.next));
        }
    }

    /// A probe the step table does not decode ([`Kind::General`]): the plan's semantics on
    /// the frame's decoded state.
    #[cold]
    #[inline(never)]
    fn probe_general(&mut self, func: FuncIdx, k: u16) {
        if self.depth == 0 {
            return;
        }
        let kk = self.k as usize;
        let base = self.top.base;
        let top = self.top_frame();
        let Some(f) = self
            .funcs
            .get_mut(func.index())
            .and_then(|f| f.as_deref_mut())
        else {
            return;
        };
        let Some(c) = self.slots.get_mut(base..base + kk) else {
            return;
        };
        let mut fr = Decoded::of(&top, self.k);
        if k == ENTRY_PROBE {
            c[0] = f.plan.entry_init;
            fr.mode = Mode::Counting;
            fr.active = false;
            fr.itr = 0;
            let op = f.ops[0];
            if op.outside.is_some() {
                counting_step(&f.plan, &op, c, &mut fr, &mut f.counters);
            }
        } else if let Some(op) = f.ops.get(k as usize) {
            match fr.mode {
                Mode::Counting => counting_step(&f.plan, op, c, &mut fr, &mut f.counters),
                Mode::Pending => {
                    pending_step(&f.plan, op, c, &mut fr, &mut f.counters);
                    if op.to_exit {
                        // A pending frame ends without counting, unless this very edge started
                        // a path (then it is counted as a counting frame would).
                        if fr.mode == Mode::Counting && !fr.active {
                            f.counters.count(c[0].wrapping_add(f.plan.exit_add));
                        }
                        fr.mode = Mode::Done;
                    }
                }
                Mode::Baseline | Mode::Done => {}
            }
        }
        self.set_state(fr.state(self.k));
        self.top.known = fr.known;
        // `cur.c` is derived anew after the accesses through `slots` above.
        self.sync();
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

/// Counts path `id` of function `f`.
#[inline(always)]
fn count(funcs: &mut [Option<Box<KiterFunction>>], f: usize, id: u64) {
    if let Some(Some(func)) = funcs.get_mut(f) {
        func.counters.count(id);
    }
}

/// The action of a step of kind `kind` (see [`Kind`]), after all its increments, on the
/// accumulators `c[0..K]` of a frame in state `s`. Returns false, doing nothing, for the kinds
/// it does not do ([`Kind::Nop`], [`Kind::Wide`], [`Kind::General`]); else the frame takes the
/// step's next state.
///
/// # Safety
/// `c` points to at least `max(K, 3)` accumulators, and `s <= K` for the exits.
#[inline(always)]
unsafe fn act(
    kind: Kind,
    restart: u64,
    c: *mut u64,
    k: usize,
    s: usize,
    count: &mut impl FnMut(u64),
) -> bool {
    // SAFETY: every index is below `max(K, 3)`: `0`, `K - 1`, `j < max(K, 3)`, and `s - 1`
    // for the exits, which only occur in states `1..=K`.
    let at = |j: usize| unsafe { &mut *c.add(j) };
    // `c[j] := c[j - 1]` for `j = K-1 .. 1`; with K <= 3 the same moves on all three slots
    // (a slot at or above K holds nothing), without a loop.
    let shift = || {
        if k <= INLINE {
            *at(2) = *at(1);
            *at(1) = *at(0);
        } else {
            for j in (1..k).rev() {
                *at(j) = *at(j - 1);
            }
        }
    };
    match kind {
        Kind::Add => {}
        Kind::End => {
            count(*at(0));
            *at(0) = restart;
        }
        Kind::BackCount => {
            count(*at(k - 1));
            shift();
            *at(0) = restart;
        }
        Kind::Back => {
            shift();
            *at(0) = restart;
        }
        Kind::Exit => *at(0) = *at(s - 1),
        Kind::ExitEnd => {
            *at(0) = *at(s - 1);
            count(*at(0));
            *at(0) = restart;
        }
        Kind::Finish => count(at(0).wrapping_add(restart)),
        Kind::Entry => *at(0) = restart,
        Kind::Nop | Kind::Wide | Kind::General => return false,
    }
    true
}

/// The plan's semantics for one probe of a counting frame (`KIterState::take_edge`), then the
/// last path's count if the edge enters the exit.
#[allow(clippy::needless_range_loop)]
fn counting_step(
    plan: &KIterPlan,
    op: &Op,
    c: &mut [u64],
    fr: &mut Decoded,
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
/// `fr.known` says what the frame knows: [`PENDING_OUTSIDE`] (no k-loop active, `c[0]`
/// unknown), `j < K` (a k-loop active, `itr >= j` unknown, the `j` youngest accumulators
/// known) or [`PENDING_LOST`]. Only known accumulators are ever counted.
fn pending_step(
    plan: &KIterPlan,
    op: &Op,
    c: &mut [u64],
    fr: &mut Decoded,
    counters: &mut PathCounters,
) {
    let k = c.len() as u32;
    let resync = |c: &mut [u64], fr: &mut Decoded, restart: u64, enter: bool| {
        c[0] = restart;
        fr.mode = Mode::Counting;
        fr.itr = 0;
        fr.active = enter;
        fr.known = 0;
    };
    let ends = |p: &Probe| match p.action {
        Action::End { restart, enter }
        | Action::Exit {
            then: AfterExit::End { restart, enter },
        } => Some((restart, enter)),
        _ => None,
    };
    match fr.known {
        PENDING_OUTSIDE => {
            let Some(p) = op.outside else {
                // The plan says this cannot happen outside k-loops (a plan for another CFG).
                fr.known = PENDING_LOST;
                return;
            };
            // `c[0]` is unknown: its increments do not matter, and a path end counts nothing.
            match p.action {
                Action::Add => {}
                Action::Enter => fr.known = 0,
                Action::End { restart, enter } => resync(c, fr, restart, enter),
                Action::Back { .. } | Action::Exit { .. } => fr.known = PENDING_LOST,
            }
        }
        PENDING_LOST => {
            // Nothing known, not even which probe runs: resynchronise where every probe the
            // edge has ends the path the same way.
            let ended: Vec<Option<(u64, bool)>> =
                [op.outside, op.inside].iter().flatten().map(ends).collect();
            if let Some(&Some((restart, enter))) = ended.first() {
                if ended.iter().all(|&x| x == Some((restart, enter))) {
                    resync(c, fr, restart, enter);
                }
            }
        }
        known => {
            let Some(p) = op.inside else {
                fr.known = PENDING_LOST;
                return;
            };
            // A k-loop is active with `itr >= known` iterations: the known accumulators are
            // below `itr` and take the compensated increments (`c[itr]` is unknown).
            let known = (known as usize).min(c.len());
            let comp = p.inc_compensated as usize;
            for (j, cj) in c[..known].iter_mut().enumerate() {
                *cj = cj.wrapping_add(plan.values[comp + j]);
            }
            match p.action {
                Action::Add => {}
                Action::Back { restart } => {
                    // `known < K`, so `c[K - 1]` is unknown and not counted.
                    c.copy_within(0..c.len() - 1, 1);
                    c[0] = restart;
                    fr.known += 1;
                    if fr.known == k {
                        fr.mode = Mode::Counting;
                        fr.itr = k - 1;
                        fr.active = true;
                        fr.known = 0;
                    }
                }
                Action::End { restart, enter } => {
                    // The path in `c[0]` ends (the older ones are dropped): counted if known.
                    if known > 0 {
                        counters.count(c[0]);
                    }
                    resync(c, fr, restart, enter);
                }
                Action::Enter => {
                    // A new run begins with `c[0]` as its only live path.
                    if known > 0 {
                        fr.mode = Mode::Counting;
                        fr.active = true;
                        fr.itr = 0;
                        fr.known = 0;
                    } else {
                        fr.known = 0;
                    }
                }
                Action::Exit { then } => {
                    // The survivor `c[itr]` is older than every known accumulator.
                    match then {
                        AfterExit::Continue => fr.known = PENDING_OUTSIDE,
                        AfterExit::Enter => fr.known = 0,
                        AfterExit::End { restart, enter } => resync(c, fr, restart, enter),
                    }
                }
            }
        }
    }
}
