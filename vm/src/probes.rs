//! The interpreter's probe hooks: how profilers observe execution.
//!
//! The dispatch loop ([`crate::interp::execute`]) is generic over a [`Probes`] type and is
//! monomorphised once per profiling mode, as Lua's `lvm.c` routes hooks through one flag but
//! without even the flag test: with [`NoProbes`] every hook is an empty inline function behind
//! `if P::ENABLED`, a constant `false`, so the `none` build of the loop contains no probe code
//! at all. A mode pays only for the hooks it implements.
//!
//! Hook points (all carry the running function and the pc of the instruction concerned):
//! * [`Probes::on_entry`]: a function was entered (its frame is set up, before its first
//!   instruction). Tier-0 invocation counters live here.
//! * [`Probes::on_branch`]: a conditional branch at `pc` was taken or not.
//! * [`Probes::on_switch`]: a jump table at `pc` selected `target`.
//! * [`Probes::on_back_edge`]: control is about to move from `pc` to a lower (or equal)
//!   `target`. Every loop is compiled with its test at the bottom, so this fires once per
//!   repeated iteration of every loop: for `while`/`for` loops it is the bottom test's branch
//!   back to the body (their CFG header is the test block, entered by the jump from the loop
//!   entry and by falling out of the body); for `do`-`while`, fused `for` loops and
//!   `for (;;)` it is the back edge to the header itself. This is the yield point for
//!   on-stack replacement: returning `Some(Osr)` makes the frame continue in another code
//!   version of the same function (see [`Osr`]).
//! * [`Probes::on_return`]: the function is about to return (or the program to exit in it).
//!
//!
//! Instrumented code versions (made at tier-up, see [`crate::tier`]) contain probe
//! *instructions*. The path-register instructions (`PathSet`, `PathAdd`, `PathJmp`) run inside
//! the loop on a register of the frame; a completed path is handed to [`Probes::on_path`], and
//! a sink-specific `Probe k` instruction to [`Probes::on_probe`] (`ProbePath k` to
//! [`Probes::on_probe_path`] with the register's value, which it then clears: the `ipp`
//! modes add constants inline and hand the sum to the sink at its events). A mode that does not
//! instrument (`P::PATHS` false) never has these instructions in its code, and the loop does
//! not even save the path register across calls.
//!
//! Tiering: a mode with `P::TIERS` creates code versions inside its hooks (it cannot reach the
//! [`crate::interp::Machine`]); the loop collects them with [`Probes::take_version`] right after
//! [`Probes::on_entry`] and [`Probes::on_back_edge`], and before acting on an [`Osr`].

use lang::bytecode::{FuncIdx, Pc, ProbeIdx};

use crate::step_table::StepCursor;
use crate::version::Version;

/// A request to switch the running frame to another code version at a loop header
/// (on-stack replacement). The version must be a version of the same function with the same
/// register and array layout; execution continues at `pc` in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Osr {
    /// Index of the code version in [`crate::interp::Machine::versions`].
    pub version: u32,
    /// Where to continue in that version.
    pub pc: Pc,
    /// The path register's value if `pc` starts a path (the target of the back edge is a path
    /// start: its initial value); `None` when the frame enters the middle of a path, whose
    /// beginning it has not recorded: the path in progress is then dropped, and counting
    /// starts with the next path (the loop sets the frame's `pending` flag).
    pub path: Option<u64>,
}

/// Observers of execution; see the module docs. Every method has an empty default.
pub trait Probes {
    /// False if no hook does anything: the loop then skips all hook calls at compile time.
    const ENABLED: bool;
    /// True if the mode runs instrumented versions with path instructions: the loop then keeps
    /// the path register and the pending flag of every frame.
    const PATHS: bool = false;
    /// True if the mode creates code versions ([`Probes::take_version`]).
    const TIERS: bool = false;
    /// True if the mode counts every conditional branch's outcomes in tier 0 (the versions
    /// that are not instrumented): when the run starts, the machine rewrites every conditional
    /// branch of the compiled versions to its counted twin ([`lang::bytecode::Instr::counted`]),
    /// which adds one to the running version's counter of the outcome
    /// ([`crate::branch_counts`]). The loop itself has no test for it: a mode that does not
    /// count runs the plain branches, untouched.
    const COUNTS: bool = false;
    /// True if the loop counts a completed path id itself in the running version's dense
    /// counters when it has a cell there ([`crate::path_counts`]), calling
    /// [`Probes::on_path`] only for the other ids; the frame that entered its path mid-way by
    /// on-stack replacement then gets the path register [`crate::path_counts::UNKNOWN_PATH`].
    const DENSE_PATHS: bool = false;
    /// True if the mode's [`Probes::on_entry`] and [`Probes::on_return`] must see every
    /// activation, also of functions running instrumented code; false if they only serve
    /// tier 0 (counting calls to tier up), so that a call and a return of an instrumented
    /// function call no hook at all (`bl`: its paths are counted by the loop).
    const ACTIVATIONS: bool = true;
    /// True if the probes need [`Probes::on_branch`], every conditional branch's outcome (a
    /// test's recorder of the blocks run): [`crate::interp::execute`] then runs the loop
    /// compiled for these probes alone, as for a watched run, since the shared loop of the
    /// profiling modes hooks no branch.
    const BRANCHES: bool = false;
    /// True only for a watched run ([`crate::modes::watch`]): the loop then calls
    /// [`Probes::on_instr`] before every instruction. Every other mode's loop has no trace of
    /// it.
    const WATCH: bool = false;

    /// Function `func` was entered.
    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        let _ = func;
    }

    /// The conditional branch at `pc` of `func` was `taken` or fell through. Called only by
    /// the loop compiled for the probes alone (`P::BRANCHES` or `P::WATCH`), and not for the
    /// counted twins of tier 0 (`P::COUNTS`).
    #[inline(always)]
    fn on_branch(&mut self, func: FuncIdx, pc: Pc, taken: bool) {
        let _ = (func, pc, taken);
    }

    /// The jump table at `pc` of `func` jumped to `target`.
    #[inline(always)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        let _ = (func, pc, target);
    }

    /// Control moves backwards from `pc` to `target` in `func` (a loop-header arrival).
    /// Return `Some` to continue in another code version (on-stack replacement).
    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        let _ = (func, pc, target);
        None
    }

    /// Function `func` returns (or the program exits while it runs).
    #[inline(always)]
    fn on_return(&mut self, func: FuncIdx) {
        let _ = func;
    }

    /// A path of `func` ended with path id `id` (a `PathEnd`, `PathCount` or `PathCountK`
    /// instruction; never for the partial path of a frame that entered by OSR mid-path, nor,
    /// with `P::DENSE_PATHS`, for an id the loop counted in the version's dense counters).
    #[inline(always)]
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        let _ = (func, id);
    }

    /// The instruction `Probe k` ran in `func` (its meaning is the sink's).
    #[inline(always)]
    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx) {
        let _ = (func, k);
    }

    /// The instruction `ProbePath k` ran in `func` with the path register at `path` (the
    /// register is then 0): a sink event that also takes the increments the code added
    /// inline since the last one (the default: [`Probes::on_probe`], ignoring `path`).
    #[inline(always)]
    fn on_probe_path(&mut self, func: FuncIdx, k: ProbeIdx, path: u64) {
        let _ = path;
        self.on_probe(func, k);
    }

    /// Watching only (`P::WATCH`): the running frame of `version` is about to execute the
    /// instruction at `pc`, with its path register at `path` (meaningful in instrumented code
    /// of a mode with `P::PATHS`).
    #[inline(always)]
    fn on_instr(&mut self, version: &Version, pc: Pc, path: u64) {
        let _ = (version, pc, path);
    }

    /// A code version the hooks created since the last call, to be installed as the version
    /// new calls of its function run. Versions are numbered in the order they are taken,
    /// after the functions' compiled versions (so the `n`-th version taken gets index
    /// `functions + n`), which lets a hook name a version in an [`Osr`] before it is installed.
    #[inline(always)]
    fn take_version(&mut self) -> Option<Version> {
        None
    }

    /// Whether [`Probes::take_version`] has a version to give (a cheap test the loop makes
    /// before calling it).
    #[inline(always)]
    fn version_ready(&self) -> bool {
        false
    }

    /// The step cursor of a mode whose `Probe` instructions are steps of a table
    /// ([`crate::step_table`]: `kiter`), asked once when the run starts; the shared loop then
    /// runs a probe's `Add` step itself and calls [`Probes::on_probe`] only for the others.
    /// Null (the default): every probe goes to [`Probes::on_probe`]. A mode that returns one
    /// keeps it valid for the whole run and touches it only inside its hooks.
    fn step_cursor(&mut self) -> *mut StepCursor {
        std::ptr::null_mut()
    }
}

/// No profiling: the pure interpreter.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbes;

impl Probes for NoProbes {
    const ENABLED: bool = false;
}

/// The hooks of a mode as the one shared interpreter loop calls them: [`Probes`] without its
/// constants, so that a mode's probes can stand behind a `dyn` reference. Every type that
/// implements [`Probes`] implements it.
///
/// The loop is compiled once for every mode ([`Shared`]), so that the modes' relative costs are
/// a property of their probes' work and not of where each mode's copy of the loop was placed
/// by the build (`docs/design/dispatch.md`). The hooks are called only where the running mode
/// asked for them ([`crate::interp::Machine`]'s mode flags, each version's `tier0` and
/// `calls_hooked` flags), and `bl`'s dense path counts stay inside the loop; every other hook
/// is one indirect call (tier-0 entries and loop iterations, the paths of sinks without dense
/// counters, `Probe` instructions): `kiter`'s and `kbl`'s cost includes those calls
/// (BENCHMARKS 1.18).
pub trait Hooks {
    /// See [`Probes::on_entry`]; then whether a version is ready ([`Probes::version_ready`]),
    /// in the same call.
    fn on_entry(&mut self, func: FuncIdx) -> bool;
    /// See [`Probes::on_switch`].
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc);
    /// See [`Probes::on_back_edge`]; then whether a version is ready, in the same call.
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> (Option<Osr>, bool);
    /// See [`Probes::on_return`].
    fn on_return(&mut self, func: FuncIdx);
    /// See [`Probes::on_path`].
    fn on_path(&mut self, func: FuncIdx, id: u64);
    /// See [`Probes::on_probe`].
    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx);
    /// See [`Probes::on_probe_path`].
    fn on_probe_path(&mut self, func: FuncIdx, k: ProbeIdx, path: u64);
    /// See [`Probes::take_version`].
    fn take_version(&mut self) -> Option<Version>;
    /// See [`Probes::version_ready`].
    fn version_ready(&self) -> bool;
    /// See [`Probes::step_cursor`].
    fn step_cursor(&mut self) -> *mut StepCursor;
}

impl<P: Probes> Hooks for P {
    fn on_entry(&mut self, func: FuncIdx) -> bool {
        Probes::on_entry(self, func);
        Probes::version_ready(self)
    }
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        Probes::on_switch(self, func, pc, target);
    }
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> (Option<Osr>, bool) {
        let osr = Probes::on_back_edge(self, func, pc, target);
        (osr, Probes::version_ready(self))
    }
    fn on_return(&mut self, func: FuncIdx) {
        Probes::on_return(self, func);
    }
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        Probes::on_path(self, func, id);
    }
    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx) {
        Probes::on_probe(self, func, k);
    }
    fn on_probe_path(&mut self, func: FuncIdx, k: ProbeIdx, path: u64) {
        Probes::on_probe_path(self, func, k, path);
    }
    fn take_version(&mut self) -> Option<Version> {
        Probes::take_version(self)
    }
    fn version_ready(&self) -> bool {
        Probes::version_ready(self)
    }
    fn step_cursor(&mut self) -> *mut StepCursor {
        Probes::step_cursor(self)
    }
}

/// The probes of the shared loop: any mode's [`Hooks`] behind one type, so that the loop is
/// compiled once for all of them. Its constants say what *some* mode may need (paths, tiering,
/// dense counts); what the running mode needs is read at run time from the machine's mode
/// flags, at calls, returns and backward jumps only, never per instruction. Branches are not
/// hooked (tier 0 counts them in counted twins; only a watched run sees them).
pub struct Shared<'a> {
    hooks: &'a mut dyn Hooks,
    /// Whether the last hook left a version to take (each hook that may make one returns it,
    /// so that [`Probes::version_ready`] is no second call).
    ready: bool,
}

impl<'a> Shared<'a> {
    /// The shared loop's probes for a mode's `hooks`.
    pub fn new(hooks: &'a mut dyn Hooks) -> Self {
        Shared { hooks, ready: true }
    }
}

impl Probes for Shared<'_> {
    const ENABLED: bool = true;
    const PATHS: bool = true;
    const TIERS: bool = true;
    const DENSE_PATHS: bool = true;

    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        self.ready = self.hooks.on_entry(func);
    }
    #[inline(always)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.hooks.on_switch(func, pc, target);
    }
    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        let (osr, ready) = self.hooks.on_back_edge(func, pc, target);
        self.ready = ready;
        osr
    }
    #[inline(always)]
    fn on_return(&mut self, func: FuncIdx) {
        self.hooks.on_return(func);
    }
    #[inline(always)]
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        self.hooks.on_path(func, id);
    }
    #[inline(always)]
    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx) {
        self.hooks.on_probe(func, k);
    }
    #[inline(always)]
    fn on_probe_path(&mut self, func: FuncIdx, k: ProbeIdx, path: u64) {
        self.hooks.on_probe_path(func, k, path);
    }
    #[inline(always)]
    fn take_version(&mut self) -> Option<Version> {
        let v = self.hooks.take_version();
        self.ready = v.is_some();
        v
    }
    #[inline(always)]
    fn version_ready(&self) -> bool {
        self.ready
    }
    fn step_cursor(&mut self) -> *mut StepCursor {
        self.hooks.step_cursor()
    }
}

/// What the running mode asks of the loop, read from its [`Probes`] constants when the run
/// starts and kept in the machine, so that the one shared loop ([`Shared`]) does for each mode
/// what a loop compiled for it would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModeFlags {
    /// The mode has hooks ([`Probes::ENABLED`]): calls, returns, backward jumps, jump tables
    /// and indirect calls report to it.
    pub hooks: bool,
    /// Every frame keeps its own path register ([`Probes::PATHS`]; only with `hooks`, which
    /// the loop tests first).
    pub frame_paths: bool,
    /// The mode instruments hot functions ([`Probes::TIERS`]): its instrumented versions get
    /// no tier-0 hooks.
    pub tiers: bool,
    /// The compiled versions count branch outcomes ([`Probes::COUNTS`]).
    pub counts: bool,
    /// Calls and returns of instrumented code are hooked too ([`Probes::ACTIVATIONS`]).
    pub activations: bool,
}

impl ModeFlags {
    /// The flags of the mode whose probes are `P`.
    pub fn of<P: Probes>() -> ModeFlags {
        ModeFlags {
            hooks: P::ENABLED,
            frame_paths: P::ENABLED && P::PATHS,
            tiers: P::TIERS,
            counts: P::COUNTS,
            activations: P::ACTIVATIONS,
        }
    }

    /// Whether a version gets the tier-0 hooks (jump tables, backward jumps) in this mode.
    pub fn tier0_hooks(self, instrumented: bool) -> bool {
        self.hooks && !(self.tiers && instrumented)
    }

    /// Whether calls of a version and its returns are hooked in this mode.
    pub fn call_hooks(self, instrumented: bool) -> bool {
        self.tier0_hooks(instrumented) || (self.hooks && self.activations)
    }
}
