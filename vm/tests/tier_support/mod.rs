//! Test support shared by the `tier_*` and `profile_*` tests: a block-level trace recorder built
//! on the interpreter's existing [`Probes`] hooks, and profiles computed by definition from it.
//!
//! The recorder reconstructs, for every activation, the blocks it entered: between two hook
//! events control moves deterministically (fall-throughs and forward `Jmp`s), and every cycle
//! of the code contains a backward jump, which fires a hook (`on_branch`, `on_switch`, or
//! `on_back_edge` for a backward `Jmp`), so advancing lazily to the block that ends at the
//! event's pc recovers every block in order. A branch event at a pc that this advance cannot
//! reach is a disagreement between the CFG builder and the interpreter, and panics.
//!
//! Limitation (acceptable for tests, not for the VM's `trace` sink, which records block
//! entries directly): an activation abandoned by a trap or by `exit` in a callee is only
//! advanced to its last event, so its unfinished path may miss its last deterministic blocks.
//!
//! Also here (used by `tier_run`, `tier_cases` and `e2e`'s `tier_random`, which includes this
//! file by path):
//! - [`run_chrono`]: the real `trace` sink's run as a time-ordered [`Event`] stream (calls,
//!   blocks, returns of every activation, interleaved as they happened);
//! - [`Stepper`] and [`TierReplay`]: the path-end definition and the tiering rule (heat,
//!   tier-up, on-stack replacement) replayed over that stream: what `bl --tier-up N` must
//!   count, for any `N`;
//! - [`Observed`] and [`run_observed`]: `bl` with a sink that logs calls, OSR switches and
//!   path ends;
//! - [`check_tiering`]: every oracle check of issue 4 on one program.

#![allow(dead_code)]

use std::collections::HashMap;

use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::{BallLarus, Block, DepthFirst, Numbering, Path, PathEnds};
use vm::interp::{execute, Machine};
use vm::modes::trace::oracle::{Oracle, PathCounts};
use vm::probes::{Osr, Probes};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::tier::cfg_build::{BcEdge, FunctionCfg, Way};
use vm::{ProfileSettings, RunOptions, RunResult, DEFAULT_TIER_UP};

/// One activation being recorded.
struct Activation {
    func: FuncIdx,
    blocks: Vec<Block>,
}

/// Records every activation's blocks.
pub struct TraceProbes<'a> {
    cfgs: &'a [FunctionCfg],
    stack: Vec<Activation>,
    /// Activations that returned (or exited), in the order they finished.
    pub finished: Vec<(FuncIdx, Vec<Block>)>,
    /// Number of `on_return` events.
    pub returns: u64,
    /// Tier-0 style counters, as the hooks report them: invocations per function.
    pub invocations: HashMap<FuncIdx, u64>,
    /// Conditional branch outcomes per `(function, pc, taken)`.
    pub branches: HashMap<(FuncIdx, Pc, bool), u64>,
    /// Jump table targets per `(function, pc, target)`.
    pub switches: HashMap<(FuncIdx, Pc, Pc), u64>,
}

impl<'a> TraceProbes<'a> {
    /// A recorder for a program whose functions have these CFGs.
    pub fn new(cfgs: &'a [FunctionCfg]) -> Self {
        TraceProbes {
            cfgs,
            stack: Vec::new(),
            finished: Vec::new(),
            returns: 0,
            invocations: HashMap::new(),
            branches: HashMap::new(),
            switches: HashMap::new(),
        }
    }

    /// Activations still running when the run ended (innermost last).
    pub fn unfinished(&self) -> Vec<(FuncIdx, Vec<Block>)> {
        self.stack
            .iter()
            .map(|a| (a.func, a.blocks.clone()))
            .collect()
    }

    fn push(&mut self, b: Block) {
        self.stack.last_mut().unwrap().blocks.push(b);
    }

    /// Follows the deterministic successors of the top activation's current block until the
    /// block whose last pc is `pc` (`None`: until a block that returns or exits).
    fn advance(&mut self, func: FuncIdx, pc: Option<Pc>) {
        let act = self.stack.last_mut().unwrap();
        assert_eq!(act.func, func, "event of {func} while {} runs", act.func);
        let fc = &self.cfgs[func.index()];
        let cfg = fc.cfg();
        let mut steps = 0;
        loop {
            let cur = *act.blocks.last().unwrap();
            let last = fc.last_pc(cur);
            match pc {
                Some(pc) if last == Some(pc) => return,
                // Only a block ending in a return or `exit` has the exit as successor.
                None if cfg.successors(cur) == [cfg.exit()] => return,
                _ => {}
            }
            let succ = cfg.successors(cur);
            assert_eq!(
                succ.len(),
                1,
                "{func}: event at {pc:?} unreachable from {cur} without a branch"
            );
            assert_ne!(
                succ[0],
                cfg.exit(),
                "{func}: ran past a return to reach {pc:?}"
            );
            act.blocks.push(succ[0]);
            steps += 1;
            assert!(steps <= cfg.num_blocks(), "{func}: cycle without a hook");
        }
    }
}

impl Probes for TraceProbes<'_> {
    const ENABLED: bool = true;
    // Every block is recorded, so every branch's outcome is needed.
    const BRANCHES: bool = true;

    fn on_entry(&mut self, func: FuncIdx) {
        *self.invocations.entry(func).or_insert(0) += 1;
        let fc = &self.cfgs[func.index()];
        let mut blocks = vec![fc.cfg().entry()];
        if fc.has_virtual_entry() {
            blocks.push(fc.block_of_pc(Pc(0)).unwrap());
        }
        self.stack.push(Activation { func, blocks });
    }

    fn on_branch(&mut self, func: FuncIdx, pc: Pc, taken: bool) {
        *self.branches.entry((func, pc, taken)).or_insert(0) += 1;
        self.advance(func, Some(pc));
        let fc = &self.cfgs[func.index()];
        let way = if taken { Way::Taken } else { Way::Next };
        let e = fc
            .edge(BcEdge { pc, way })
            .unwrap_or_else(|| panic!("{func}: no CFG edge for {pc} {way}"));
        let t = fc.cfg().target(e);
        self.push(t);
    }

    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        *self.switches.entry((func, pc, target)).or_insert(0) += 1;
        self.advance(func, Some(pc));
        let fc = &self.cfgs[func.index()];
        let t = fc.block_starting_at(target).unwrap();
        let from = fc.block_of_pc(pc).unwrap();
        assert!(fc.cfg().find_edge(from, t).is_some());
        self.push(t);
    }

    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        // Conditional branches and tables already reported the step; a backward `Jmp` has no
        // other hook.
        let fc = &self.cfgs[func.index()];
        let from = fc.block_of_pc(pc).unwrap();
        let is_jump = fc.last_pc(from) == Some(pc)
            && fc.cfg().out_degree(from) == 1
            && fc
                .bytecode_edges(fc.cfg().succ_edge(from, 0))
                .iter()
                .any(|bc| bc.pc == pc && bc.way == Way::Taken)
            && fc.edge(BcEdge { pc, way: Way::Next }).is_none();
        if is_jump {
            self.advance(func, Some(pc));
            let t = fc.block_starting_at(target).unwrap();
            self.push(t);
        }
        None
    }

    fn on_return(&mut self, func: FuncIdx) {
        self.advance(func, None);
        let exit = self.cfgs[func.index()].cfg().exit();
        self.push(exit);
        let act = self.stack.pop().unwrap();
        self.finished.push((act.func, act.blocks));
        self.returns += 1;
    }
}

/// A compiled program, its CFGs and the recorded run.
pub struct Recorded {
    /// The program.
    pub program: Program,
    /// One CFG per function.
    pub cfgs: Vec<FunctionCfg>,
    /// Finished activations per function.
    pub finished: Vec<Vec<Vec<Block>>>,
    /// Activations still running at the end.
    pub unfinished: Vec<(FuncIdx, Vec<Block>)>,
    /// Whether the run ended normally (return from main or `exit`).
    pub complete: bool,
    /// Number of returns observed.
    pub returns: u64,
    /// What the program printed.
    pub stdout: Vec<u8>,
    /// Per function, the edge profile tier 0's counters imply
    /// ([`FunctionCfg::edge_profile`]).
    pub tier0_profiles: Vec<profiler::EdgeProfile>,
}

/// Compiles and runs `src`, recording every activation.
pub fn record(name: &str, src: &str) -> Recorded {
    let program =
        lang::compile_source(name, src).unwrap_or_else(|d| panic!("{}", d.render(name, src)));
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| FunctionCfg::of_function(f).unwrap())
        .collect();
    let mut probes = TraceProbes::new(&cfgs);
    let mut out = Vec::new();
    let complete = {
        let mut m = Machine::new(&program, 10_000);
        let r = execute(&mut m, &mut probes, &mut out);
        m.flush(&mut out);
        r.is_ok()
    };
    let mut finished = vec![Vec::new(); program.functions.len()];
    for (f, blocks) in std::mem::take(&mut probes.finished) {
        finished[f.index()].push(blocks);
    }
    let unfinished = probes.unfinished();
    let returns = probes.returns;
    let tier0_profiles = cfgs
        .iter()
        .enumerate()
        .map(|(i, fc)| {
            let f = FuncIdx(i as u16);
            fc.edge_profile(
                probes.invocations.get(&f).copied().unwrap_or(0),
                |pc, taken| probes.branches.get(&(f, pc, taken)).copied().unwrap_or(0),
                |pc, t| probes.switches.get(&(f, pc, t)).copied().unwrap_or(0),
            )
        })
        .collect();
    Recorded {
        program,
        cfgs,
        finished,
        unfinished,
        complete,
        returns,
        stdout: out,
        tier0_profiles,
    }
}

/// The oracle's counts of every function of a recorded run: the paths of the finished
/// activations, and the completed paths of the unfinished ones (whose last path in progress
/// goes to `unfinished`).
pub fn oracle_counts(rec: &Recorded, ends: PathEnds) -> Vec<PathCounts> {
    rec.cfgs
        .iter()
        .zip(&rec.finished)
        .enumerate()
        .map(|(i, (fc, acts))| {
            let oracle = Oracle::new(fc.cfg(), ends, &[]);
            let mut counts = oracle.count(acts.iter().map(|a| &a[..])).unwrap();
            for (f, blocks) in &rec.unfinished {
                if f.index() == i {
                    oracle.add_activation(blocks, &mut counts).unwrap();
                }
            }
            counts
        })
        .collect()
}

/// The profile a `bl` run with `--tier-up 0` must produce (every function instrumented before
/// it runs, so smart numbering sees all-zero counts and numbers canonically): paths counted by
/// definition, ids from the canonical numbering.
pub fn profile_by_definition(name: &str, rec: &Recorded, ends: PathEnds) -> Profile {
    profile_from_counts(name, rec, ends, oracle_counts(rec, ends))
}

/// [`profile_by_definition`] from already computed [`oracle_counts`].
pub fn profile_from_counts(
    name: &str,
    rec: &Recorded,
    ends: PathEnds,
    counts: Vec<PathCounts>,
) -> Profile {
    let mut profile = Profile::new(name, Mode::Bl, ends, 0, rec.complete);
    for ((f, fc), counts) in rec.program.functions.iter().zip(&rec.cfgs).zip(counts) {
        let bl = BallLarus::new(fc.cfg(), ends, Numbering::Canonical, u64::MAX).unwrap();
        let counted: Vec<(u64, u64, Path)> = counts
            .counts
            .into_iter()
            .map(|(p, n)| {
                let id = vm::modes::trace::path_id(&bl, fc.cfg(), &p)
                    .expect("a path by definition has a canonical id");
                (id, n, p)
            })
            .collect();
        let mut fp =
            FunctionProfile::new(&f.name, f.loc.line, fc, bl.num_paths(), Some(0), counted);
        fp.file = rec
            .program
            .files
            .get(f.file as usize)
            .cloned()
            .unwrap_or_default();
        profile.functions.push(fp);
    }
    profile
}

// ---------------------------------------------------------------------------------------------
// A time-ordered trace of the real `trace` sink, and a replay of tiering over it.
// ---------------------------------------------------------------------------------------------

/// One step of a run, in the order it happened, as the `trace` mode's instrumented code
/// reports it: a call, a block entered by the running activation, a return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An activation of the function starts (its entry block follows).
    Enter(FuncIdx),
    /// The running activation enters the block (the virtual entry first, the exit last).
    Block(FuncIdx, Block),
    /// The running activation returns (or calls `exit`).
    Return(FuncIdx),
}

/// The real `trace` sink ([`vm::modes::trace::TraceProbes`]) with its block probes, and a
/// time-ordered [`Event`] stream handed to `on_event` as the run goes (the sink itself keeps
/// paths per activation; tiering depends on the global order of calls and loop iterations).
/// The sink's code versions (every function instrumented) are installed before the run, so
/// the wrapper only forwards the hooks the instrumented code calls.
pub struct Chrono<'p, F: FnMut(Event)> {
    /// The wrapped sink.
    pub inner: vm::modes::trace::TraceProbes<'p>,
    cfgs: &'p [FunctionCfg],
    on_event: F,
}

impl<F: FnMut(Event)> Probes for Chrono<'_, F> {
    const ENABLED: bool = true;

    fn on_entry(&mut self, func: FuncIdx) {
        self.inner.on_entry(func);
        (self.on_event)(Event::Enter(func));
        let fc = &self.cfgs[func.index()];
        if fc.has_virtual_entry() {
            (self.on_event)(Event::Block(func, fc.cfg().entry()));
        }
    }

    fn on_probe(&mut self, func: FuncIdx, k: lang::bytecode::ProbeIdx) {
        self.inner.on_probe(func, k);
        (self.on_event)(Event::Block(func, Block::new(k.index())));
    }

    fn on_return(&mut self, func: FuncIdx) {
        self.inner.on_return(func);
        let exit = self.cfgs[func.index()].cfg().exit();
        (self.on_event)(Event::Block(func, exit));
        (self.on_event)(Event::Return(func));
    }
}

/// Runs `program` under the real `trace` sink (paths split under `ends`), handing every
/// [`Event`] to `on_event` in time order. Returns the sink's per-function profiles, the
/// program's output and whether the run ended normally.
pub fn run_chrono(
    program: &Program,
    cfgs: &[FunctionCfg],
    ends: PathEnds,
    on_event: impl FnMut(Event),
) -> (Vec<FunctionProfile>, Vec<u8>, bool) {
    let mut inner = vm::modes::trace::TraceProbes::new(program, ends).unwrap();
    let mut m = Machine::new(program, vm::DEFAULT_MAX_DEPTH);
    let mut installed = 0;
    while let Some(v) = inner.take_version() {
        let f = v.func;
        let index = m.add_version(v).unwrap();
        m.set_entry(f, index);
        installed += 1;
    }
    assert_eq!(installed, program.functions.len());
    let mut probes = Chrono {
        inner,
        cfgs,
        on_event,
    };
    let mut out = Vec::new();
    let r = execute(&mut m, &mut probes, &mut out);
    m.flush(&mut out);
    probes.inner.close_unfinished();
    assert!(probes.inner.errors.is_empty(), "{:?}", probes.inner.errors);
    (probes.inner.function_profiles().unwrap(), out, r.is_ok())
}

/// A path as compared across runs: its blocks and end (numbering-independent).
pub type PathKey = (Vec<u32>, Option<u32>);

/// One block entered, with what every replay needs to know about the step into it (worked out
/// once for all replays of a run).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The function of the running activation.
    pub func: FuncIdx,
    /// The block entered.
    pub to: Block,
    /// The block the step leaves (`None` for the activation's first block).
    pub from: Option<Block>,
    /// The step is a backward pc jump (`first_pc(to) <= last_pc(from)`).
    pub backward: bool,
    /// The step ends a path under `header` (arrives at a loop header) and under `backedge`
    /// (takes a DFS back edge).
    pub cuts: [bool; 2],
    /// `to` is the exit.
    pub exit: bool,
    /// Under `header` and under `backedge`: every arrival at the block the step leaves ends a
    /// path (a loop header under `header`, an extra cut block under both), so a path in
    /// progress there began on arriving at it.
    pub from_starts: [bool; 2],
}

/// A step of the run as the replays see it.
#[derive(Clone, Copy, Debug)]
pub enum Replayed {
    /// A call of the function.
    Enter(FuncIdx),
    /// A block entered.
    Step(Step),
    /// A return of the function.
    Return(FuncIdx),
}

/// Turns [`Event`]s into [`Replayed`] steps: the definition of path ends (`modes::trace::oracle`'s
/// rules, re-implemented here from the profiler's depth-first search: `header` cuts on
/// arriving at a loop header, `backedge` on taking a DFS back edge, and both on arriving at
/// one of the extra cut blocks the numbering takes when a function has more than 2^64 paths,
/// see [`extra_cuts`]) and of backward jumps, from the CFGs alone.
pub struct Stepper {
    header: Vec<Vec<bool>>,
    /// Per strategy (header, backedge), function and block: an extra cut block.
    extra: [Vec<Vec<bool>>; 2],
    /// Per function and block, the targets of its DFS back edges.
    back: Vec<Vec<Vec<Block>>>,
    first_pc: Vec<Vec<Option<Pc>>>,
    last_pc: Vec<Vec<Option<Pc>>>,
    exit: Vec<Block>,
    stack: Vec<(FuncIdx, Option<Block>)>,
}

impl Stepper {
    /// A stepper for a program with these CFGs.
    pub fn new(cfgs: &[FunctionCfg]) -> Stepper {
        let mut st = Stepper {
            header: Vec::new(),
            extra: [Vec::new(), Vec::new()],
            back: Vec::new(),
            first_pc: Vec::new(),
            last_pc: Vec::new(),
            exit: Vec::new(),
            stack: Vec::new(),
        };
        for fc in cfgs {
            let cfg = fc.cfg();
            let dfs = profiler::DepthFirst::compute(cfg);
            let blocks: Vec<Block> = fc.blocks().map(|(b, _)| b).collect();
            st.header
                .push(blocks.iter().map(|&b| dfs.is_header(b)).collect());
            for (s, ends) in [PathEnds::Header, PathEnds::Backedge]
                .into_iter()
                .enumerate()
            {
                let mut extra = vec![false; blocks.len()];
                for b in extra_cuts(fc, ends) {
                    extra[b.index()] = true;
                }
                st.extra[s].push(extra);
            }
            let mut back = vec![Vec::new(); blocks.len()];
            for e in cfg.edges() {
                if dfs.is_back_edge(e) {
                    back[cfg.source(e).index()].push(cfg.target(e));
                }
            }
            st.back.push(back);
            st.first_pc
                .push(blocks.iter().map(|&b| fc.first_pc(b)).collect());
            st.last_pc
                .push(blocks.iter().map(|&b| fc.last_pc(b)).collect());
            st.exit.push(cfg.exit());
        }
        st
    }

    /// The step of an event.
    pub fn step(&mut self, ev: Event) -> Replayed {
        match ev {
            Event::Enter(f) => {
                self.stack.push((f, None));
                Replayed::Enter(f)
            }
            Event::Return(f) => {
                let (g, _) = self.stack.pop().unwrap();
                assert_eq!(g, f);
                Replayed::Return(f)
            }
            Event::Block(f, v) => {
                let i = f.index();
                let top = self.stack.last_mut().unwrap();
                assert_eq!(top.0, f);
                let from = top.1.replace(v);
                let from_starts = from.map_or([false, false], |u| {
                    [
                        self.header[i][u.index()] || self.extra[0][i][u.index()],
                        self.extra[1][i][u.index()],
                    ]
                });
                let (backward, cuts) = match from {
                    None => (false, [false, false]),
                    Some(u) => {
                        let backward =
                            match (self.last_pc[i][u.index()], self.first_pc[i][v.index()]) {
                                (Some(a), Some(b)) => b <= a,
                                _ => false,
                            };
                        let back_edge = self.back[i][u.index()].contains(&v);
                        let extra = |s: usize| self.extra[s][i][v.index()];
                        (
                            backward,
                            [self.header[i][v.index()] || extra(0), back_edge || extra(1)],
                        )
                    }
                };
                Replayed::Step(Step {
                    func: f,
                    to: v,
                    from,
                    backward,
                    cuts,
                    exit: v == self.exit[i],
                    from_starts,
                })
            }
        }
    }
}

/// The extra cut blocks of `fc` under `ends`: where the Ball-Larus numbering cuts paths when
/// the function has more paths than 64-bit ids can number (`profiler::BallLarus::new`'s
/// fallback; none for almost every function). Which blocks these are depends only on the CFG
/// and the strategy, not on the numbering, so a run's `trace` and `bl` profiles and every
/// tier-up agree on them.
pub fn extra_cuts(fc: &FunctionCfg, ends: PathEnds) -> Vec<Block> {
    BallLarus::new(fc.cfg(), ends, Numbering::Canonical, u64::MAX)
        .unwrap()
        .dag()
        .extra_cuts()
        .to_vec()
}

/// A hasher for keys that are already well mixed 64-bit hashes.
#[derive(Default)]
pub struct PreHashed(u64);

impl std::hash::Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Mixes a block (or an end) into a path's running hash.
fn mix(h: u64, x: u64) -> u64 {
    let h = (h ^ x.wrapping_add(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 31)
}

/// Path counts keyed by a hash of the path, the path kept to check that equal hashes are
/// equal paths.
#[derive(Clone, Default)]
pub struct PathTable {
    map: HashMap<u64, (PathKey, u64), std::hash::BuildHasherDefault<PreHashed>>,
}

impl PathTable {
    fn add(&mut self, hash: u64, path: &[u32], end: Option<u32>) {
        let h = mix(hash, end.map_or(u64::MAX, u64::from));
        let slot = self
            .map
            .entry(h)
            .or_insert_with(|| ((path.to_vec(), end), 0));
        assert!(
            slot.0 .0 == path && slot.0 .1 == end,
            "two paths with the same hash: {:?} and {path:?} -> {end:?}",
            slot.0
        );
        slot.1 += 1;
    }

    /// The paths and their counts, sorted.
    pub fn paths(&self) -> Vec<(PathKey, u64)> {
        let mut v: Vec<(PathKey, u64)> = self.map.values().cloned().collect();
        v.sort();
        v
    }

    /// The number of paths counted.
    pub fn total(&self) -> u64 {
        self.map.values().map(|(_, n)| n).sum()
    }
}

/// What an activation of the replay counts.
enum Counting {
    /// Baseline code: nothing.
    Baseline,
    /// Instrumented code: the path so far (and its running hash); `drop` while the frame is in
    /// the path it entered by on-stack replacement mid-way (its end is not counted).
    Paths {
        cur: Vec<u32>,
        hash: u64,
        drop: bool,
    },
}

/// The heat part of the tiering rule: a function's heat is its invocations plus the backward
/// pc jumps its frames made in baseline code, counted until it tiers up, which happens as soon
/// as the heat exceeds the threshold (threshold 0: every function before the run, at heat 0).
pub struct Heat {
    threshold: u64,
    heat: Vec<u64>,
    /// Per function, the heat at which it tiered up (`None`: never).
    pub tiered_up_at: Vec<Option<u64>>,
}

impl Heat {
    /// The heat of `functions` functions under tier-up threshold `threshold`.
    pub fn new(functions: usize, threshold: u64) -> Heat {
        Heat {
            threshold,
            heat: vec![0; functions],
            tiered_up_at: vec![if threshold == 0 { Some(0) } else { None }; functions],
        }
    }

    /// One invocation of, or backward jump in a baseline frame of, function `i`.
    pub fn warm(&mut self, i: usize) {
        if self.tiered_up_at[i].is_none() {
            self.heat[i] += 1;
            if self.heat[i] > self.threshold {
                self.tiered_up_at[i] = Some(self.heat[i]);
            }
        }
    }

    /// True once function `i` has tiered up.
    pub fn tiered(&self, i: usize) -> bool {
        self.tiered_up_at[i].is_some()
    }
}

/// The tiering rule of `bl` (docs/design/tiering.md), replayed over a time-ordered trace:
/// what `--profile=bl --tier-up N` must count, worked out from the blocks the program entered
/// and nothing of the VM's tier-0 counters, numbering, plan or code generation.
///
/// - A function's heat is its invocations plus the backward pc jumps its frames made in
///   baseline code, counted only until it tiers up, which happens as soon as the heat exceeds
///   `N` (`N = 0`: every function before the run, at heat 0).
/// - A call that finds (or makes) its function tiered runs instrumented from its entry and
///   counts every path by definition.
/// - A baseline frame of a tiered function switches at its next backward jump `u -> v`
///   (on-stack replacement; possibly the very jump that tiered it up): if `u -> v` ends a
///   path under the strategy, counting starts with a fresh path at `v`; otherwise, if every
///   arrival at `u` ends a path (a loop header under `header`, an extra cut block), the path
///   in progress began at `u` and is counted as `u, v, ...` (the usual `while` loop, whose
///   backward jump leaves the test, its header); otherwise the path in progress (whose start
///   was not seen) is not counted and counting starts with the next.
/// - A frame that never switches counts nothing.
pub struct TierReplay {
    strategy: usize,
    stack: Vec<Counting>,
    /// The functions' heat and when each tiered up.
    pub heat: Heat,
    /// Per function, the paths counted.
    pub counts: Vec<PathTable>,
    /// Per function, the frames that switched by on-stack replacement.
    pub osr_frames: Vec<u64>,
    /// Per function, the frames that switched at a jump that does not end a path (their first
    /// path end is not counted).
    pub osr_mid_path: Vec<u64>,
    /// Per function, the edges `(from, to)` taken by frames after they switched (or from
    /// their entry, for calls of tiered functions): what `--profile=edge --tier-up N` counts.
    pub edges: Vec<std::collections::BTreeMap<(u32, u32), u64>>,
}

impl TierReplay {
    /// A replay of threshold `n` under `ends` for a program of `functions` functions.
    pub fn new(functions: usize, n: u64, ends: PathEnds) -> Self {
        TierReplay {
            strategy: match ends {
                PathEnds::Header => 0,
                PathEnds::Backedge => 1,
            },
            stack: Vec::new(),
            heat: Heat::new(functions, n),
            counts: vec![PathTable::default(); functions],
            osr_frames: vec![0; functions],
            osr_mid_path: vec![0; functions],
            edges: vec![Default::default(); functions],
        }
    }

    /// Feeds one step.
    pub fn event(&mut self, ev: &Replayed) {
        match *ev {
            Replayed::Enter(f) => {
                self.heat.warm(f.index());
                self.stack.push(if self.heat.tiered(f.index()) {
                    Counting::Paths {
                        cur: Vec::new(),
                        hash: 0,
                        drop: false,
                    }
                } else {
                    Counting::Baseline
                });
            }
            Replayed::Return(_) => {
                self.stack.pop().unwrap();
            }
            Replayed::Step(s) => self.block(&s),
        }
    }

    fn block(&mut self, s: &Step) {
        let i = s.func.index();
        let cut = s.cuts[self.strategy];
        let v = s.to.as_u32();
        if s.backward && matches!(self.stack.last(), Some(Counting::Baseline)) {
            self.heat.warm(i);
            if self.heat.tiered(i) {
                self.osr_frames[i] += 1;
                let from_start = s.from_starts[self.strategy];
                let cur = if cut {
                    vec![v]
                } else if from_start {
                    // The path began on arriving at `u`, the block the jump leaves.
                    vec![s.from.unwrap().as_u32(), v]
                } else {
                    self.osr_mid_path[i] += 1;
                    vec![v]
                };
                let hash = cur.iter().fold(0, |h, &b| mix(h, u64::from(b)));
                *self.stack.last_mut().unwrap() = Counting::Paths {
                    cur,
                    hash,
                    drop: !cut && !from_start,
                };
                return;
            }
        }
        let Some(Counting::Paths { cur, hash, drop }) = self.stack.last_mut() else {
            return;
        };
        if let Some(u) = s.from {
            *self.edges[i].entry((u.as_u32(), v)).or_insert(0) += 1;
        }
        if cut {
            if !*drop {
                self.counts[i].add(*hash, cur, Some(v));
            }
            *drop = false;
            cur.clear();
            *hash = 0;
        }
        cur.push(v);
        *hash = mix(*hash, u64::from(v));
        if s.exit {
            if !*drop {
                self.counts[i].add(*hash, cur, None);
            }
            *drop = false;
        }
    }

    /// The counted paths of function `f`, sorted.
    pub fn paths(&self, f: usize) -> Vec<(PathKey, u64)> {
        self.counts[f].paths()
    }
}

/// The paths of a profile's function as `((blocks, end), count)`, sorted.
pub fn profile_paths(f: &FunctionProfile) -> Vec<(PathKey, u64)> {
    let mut v: Vec<(PathKey, u64)> = f
        .paths
        .iter()
        .map(|p| ((p.blocks.clone(), p.end), p.count))
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// The whole oracle check of one program (`tier_run`, and `e2e`'s `tier_random`).
// ---------------------------------------------------------------------------------------------

/// One run's result and output.
pub struct Ran {
    /// The result.
    pub result: RunResult,
    /// The output.
    pub out: Vec<u8>,
}

/// Runs a compiled program with `vm::run_program` under the given profiling settings (K = 1).
pub fn run(program: &Program, name: &str, mode: Mode, tier_up: u64, ends: PathEnds) -> Ran {
    run_k(program, name, mode, 1, tier_up, ends)
}

/// [`run`] with the K of the modes that have one (`kiter:K`, `kbl:K`).
pub fn run_k(
    program: &Program,
    name: &str,
    mode: Mode,
    k: u32,
    tier_up: u64,
    ends: PathEnds,
) -> Ran {
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            k,
            tier_up,
            path_ends: ends,
            max_nodes: None,
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let result = vm::run_program(program, name, &options, &mut out);
    Ran { result, out }
}

/// (b): every path of `fp` is a real path of `fc` under `ends` (with the numbering's extra
/// cuts, if it took any: [`extra_cuts`]).
pub fn assert_real_paths(what: &str, fp: &FunctionProfile, fc: &FunctionCfg, ends: PathEnds) {
    let cfg = fc.cfg();
    let dfs = DepthFirst::compute(cfg);
    let extra = extra_cuts(fc, ends);
    let cuts = |u: Block, v: Block| -> bool {
        let e = cfg.find_edge(u, v).unwrap();
        extra.contains(&v)
            || match ends {
                PathEnds::Header => dfs.is_header(v),
                PathEnds::Backedge => dfs.is_back_edge(e),
            }
    };
    // Blocks that some cutting edge enters: where a path after the first may start.
    let starts: Vec<Block> = cfg
        .edges()
        .filter(|&e| cuts(cfg.source(e), cfg.target(e)))
        .map(|e| cfg.target(e))
        .collect();
    assert_eq!(fp.entry, cfg.entry().as_u32(), "{what}");
    assert_eq!(fp.exit, cfg.exit().as_u32(), "{what}");
    assert_eq!(fp.blocks.len(), cfg.num_blocks(), "{what}");
    for p in &fp.paths {
        let here = format!("{what}: path {} {:?} -> {:?}", p.id, p.blocks, p.end);
        let bs: Vec<Block> = p
            .blocks
            .iter()
            .map(|&b| {
                assert!((b as usize) < cfg.num_blocks(), "{here}");
                Block::new(b as usize)
            })
            .collect();
        assert!(
            bs[0] == cfg.entry() || starts.contains(&bs[0]),
            "{here}: starts neither at the entry nor where a path is cut"
        );
        for w in bs.windows(2) {
            assert!(
                cfg.find_edge(w[0], w[1]).is_some(),
                "{here}: {} -> {} is no edge",
                w[0],
                w[1]
            );
            assert!(!cuts(w[0], w[1]), "{here}: runs through a path end");
        }
        let last = *bs.last().unwrap();
        assert!(
            !bs[..bs.len() - 1].contains(&cfg.exit()),
            "{here}: goes on after the exit"
        );
        match p.end {
            Some(h) => {
                let h = Block::new(h as usize);
                assert!(
                    cfg.find_edge(last, h).is_some(),
                    "{here}: no edge to its end"
                );
                assert!(cuts(last, h), "{here}: its end does not cut");
            }
            None => assert_eq!(last, cfg.exit(), "{here}: stops before the exit"),
        }
    }
}

/// Every check of `tier_run`'s module docs on one program: `none`, `edge`, `trace` in both
/// strategies, and `bl` at each threshold of `thresholds` in its strategy (0 must be among
/// them for each strategy: the oracle comparison); with `determinism`, the default `bl` run
/// (header, [`vm::DEFAULT_TIER_UP`], or the highest threshold given) twice on programs with
/// short traces.
pub fn check_tiering(name: &str, src: &str, thresholds: &[(PathEnds, &[u64])], determinism: bool) {
    let program = lang::compile_source(name, src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| FunctionCfg::of_function(f).unwrap())
        .collect();
    let nf = program.functions.len();
    let fname = |i: usize| &program.functions[i].name;

    // (c) The reference behaviour: no probes at all.
    let plain = run(
        &program,
        name,
        Mode::None,
        DEFAULT_TIER_UP,
        PathEnds::Header,
    );
    assert!(plain.result.profile.is_none(), "{name}");
    let same = |what: &str, r: &Ran| {
        assert_eq!(r.out, plain.out, "{name} {what}: output differs from none");
        assert_eq!(
            r.result.exit_status, plain.result.exit_status,
            "{name} {what}: exit status differs from none"
        );
        assert_eq!(
            r.result.stderr, plain.result.stderr,
            "{name} {what}: stderr differs from none"
        );
    };
    // Whether the run ends normally (`main` returns or `exit` is called), not by a trap: by the
    // runtime error report on stderr (the exit status cannot tell: a program may exit with 70).
    let complete = !plain.result.stderr.contains("runtime error");
    assert_eq!(
        complete,
        plain.result.stderr.is_empty(),
        "{name}: stderr of a complete run: {}",
        plain.result.stderr
    );

    // The time-ordered trace (the real `trace` sink under `header`), and the replays of every
    // threshold of both strategies over it.
    let mut replays: Vec<(PathEnds, u64, TierReplay)> = Vec::new();
    for &(ends, ns) in thresholds {
        assert!(ns.contains(&0), "{ends}: threshold 0 is the oracle");
        for &n in ns {
            replays.push((ends, n, TierReplay::new(nf, n, ends)));
        }
    }
    let det_n = thresholds[0].1.iter().copied().max().unwrap();
    let mut events = 0u64;
    let mut stepper = Stepper::new(&cfgs);
    let (trace_header, chrono_out, chrono_ok) =
        run_chrono(&program, &cfgs, PathEnds::Header, |ev: Event| {
            events += 1;
            let step = stepper.step(ev);
            for (_, _, r) in &mut replays {
                r.event(&step);
            }
        });
    // The real runs name each function's file; so must the replayed profile.
    let mut trace_header = trace_header;
    for (fp, func) in trace_header.iter_mut().zip(&program.functions) {
        fp.file = program
            .files
            .get(func.file as usize)
            .cloned()
            .unwrap_or_default();
    }
    assert!(events > 0, "{name}");
    assert_eq!(chrono_out, plain.out, "{name} trace (events)");
    assert_eq!(chrono_ok, complete, "{name} trace (events)");

    // `trace` under `backedge` through the real run.
    let trace_back = run(
        &program,
        name,
        Mode::Trace,
        DEFAULT_TIER_UP,
        PathEnds::Backedge,
    );
    same("trace backedge", &trace_back);
    let tbp = trace_back.result.profile.as_ref().unwrap();
    tbp.check().unwrap();
    assert_eq!(tbp.complete, complete, "{name} trace");
    assert_eq!(tbp.mode, Mode::Trace);
    assert_eq!(tbp.path_ends, PathEnds::Backedge);

    for &(ends, ns) in thresholds {
        let trace_fns: &[FunctionProfile] = match ends {
            PathEnds::Header => &trace_header,
            PathEnds::Backedge => &tbp.functions,
        };
        assert_eq!(trace_fns.len(), nf, "{name}");
        let oracle = &replays
            .iter()
            .find(|(e, n, _)| *e == ends && *n == 0)
            .unwrap()
            .2;
        // The trace sink's paths are the paths by definition.
        for (i, fp) in trace_fns.iter().enumerate() {
            let what = format!("{name} trace {ends} {}", fname(i));
            assert_real_paths(&what, fp, &cfgs[i], ends);
            assert_eq!(
                profile_paths(fp),
                oracle.paths(i),
                "{what}: not by definition"
            );
            assert_eq!(fp.tiered_up_at, Some(0), "{what}");
        }
        for &n in ns {
            let what = format!("{name} bl --tier-up {n} --path-ends {ends}");
            let bl = run(&program, name, Mode::Bl, n, ends);
            same(&what, &bl);
            let bp = bl.result.profile.as_ref().unwrap();
            bp.check().unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                (bp.mode, bp.k, bp.path_ends, bp.tier_up, bp.complete),
                (Mode::Bl, 1, ends, n, complete),
                "{what}"
            );
            assert_eq!(bp.functions.len(), nf, "{what}");
            if n == 0 {
                // (a) exactly the trace's profile (paths; the oracle's replay does not
                // count calls through pointers, which `indirect_calls_are_counted_per_site`
                // checks).
                assert_eq!(
                    without_calls(&bp.functions),
                    without_calls(trace_fns),
                    "{what}: differs from trace"
                );
            }
            let replay = &replays
                .iter()
                .find(|(e, m, _)| *e == ends && *m == n)
                .unwrap()
                .2;
            for (i, fp) in bp.functions.iter().enumerate() {
                let what = format!("{what} {}", fname(i));
                let tf = &trace_fns[i];
                assert_eq!(
                    (&fp.name, fp.line, &fp.blocks),
                    (&tf.name, tf.line, &tf.blocks),
                    "{what}"
                );
                // (b)
                assert_real_paths(&what, fp, &cfgs[i], ends);
                // (d) at most the oracle's count, path by path.
                let oracle = profile_paths(tf);
                for (key, count) in profile_paths(fp) {
                    let full = oracle
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(0, |(_, c)| *c);
                    assert!(count <= full, "{what}: {key:?} counted {count} > {full}");
                }
                // The number of static paths does not depend on the numbering (smart after
                // tier-up, canonical in `trace`), nor on whether the function tiered up.
                assert_eq!(fp.static_paths, tf.static_paths, "{what}: static paths");
                match fp.tiered_up_at {
                    None => {
                        assert!(fp.paths.is_empty(), "{what}: paths but never tiered");
                    }
                    Some(at) => assert!(at > n || n == 0, "{what}: tiered up at {at}"),
                }
                // The replayed tiering rule: when it tiered up and every count.
                assert_eq!(
                    fp.tiered_up_at, replay.heat.tiered_up_at[i],
                    "{what}: tiered_up_at"
                );
                assert_eq!(
                    profile_paths(fp),
                    replay.paths(i),
                    "{what}: not the paths counted after tier-up (OSR frames {}, {} mid-path)",
                    replay.osr_frames[i],
                    replay.osr_mid_path[i]
                );
            }
            // `edge` at the same threshold: tiers up when `bl` does, and counts exactly the
            // edges the replay's switched frames took (chords counted, the rest derived).
            if ends == thresholds[0].0 {
                let what = format!("{name} edge --tier-up {n}");
                let edge = run(&program, name, Mode::Edge, n, ends);
                same(&what, &edge);
                let ep = edge.result.profile.as_ref().unwrap();
                ep.check().unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!((ep.complete, ep.functions.len()), (complete, nf), "{what}");
                for (i, f) in ep.functions.iter().enumerate() {
                    let what = format!("{what} {}", fname(i));
                    assert!(f.paths.is_empty(), "{what}");
                    assert_eq!(
                        f.tiered_up_at, replay.heat.tiered_up_at[i],
                        "{what}: tiered_up_at"
                    );
                    assert_eq!(f.edge_counts.is_some(), f.tiered_up_at.is_some(), "{what}");
                    let counted: std::collections::BTreeMap<(u32, u32), u64> =
                        vm::profile::edges::edges(f)
                            .into_iter()
                            .filter(|e| e.2 > 0)
                            .map(|(a, b, c)| ((a, b), c))
                            .collect();
                    assert_eq!(
                        counted, replay.edges[i],
                        "{what}: not the edges taken after tier-up"
                    );
                }
            }
            // What the VM did, seen from inside: the same run with a sink that logs the
            // frames switched by OSR and every path end (positive thresholds, short traces).
            if n > 0 && events < 300_000 {
                let (fns, seen, out) = run_observed(&program, n, ends);
                assert_eq!(out, plain.out, "{what} (observed)");
                assert_eq!(fns, without_calls(&bp.functions), "{what} (observed)");
                for i in 0..nf {
                    let f = FuncIdx(i as u16);
                    assert_eq!(
                        seen.osr.get(&f).copied().unwrap_or(0),
                        replay.osr_frames[i],
                        "{what} {}: frames switched by OSR",
                        fname(i)
                    );
                    assert_eq!(
                        seen.ends.get(&f).copied().unwrap_or(0),
                        bp.functions[i].total(),
                        "{what} {}: path ends after tier-up",
                        fname(i)
                    );
                    assert_eq!(
                        seen.entries.get(&f).copied().unwrap_or(0),
                        seen.returns.get(&f).copied().unwrap_or(0)
                            + seen.unfinished.iter().filter(|&&g| g == f).count() as u64,
                        "{what} {}: calls and returns",
                        fname(i)
                    );
                }
            }
            // (e) Determinism.
            // (Programs with long traces are left to the cheaper checks: the determinism of
            // every order is tested across processes by `cli_profile` and on generated
            // programs by `e2e`'s `tier_random`.)
            if determinism && n == det_n && ends == thresholds[0].0 && events < 300_000 {
                let again = run(&program, name, Mode::Bl, n, ends);
                assert_eq!(
                    again.result.profile.as_ref().unwrap().to_json(),
                    bp.to_json(),
                    "{what}: two runs differ"
                );
            }
        }
    }
}

/// A `bl` path sink that logs what the VM did besides counting: calls, returns, frames
/// switched by on-stack replacement and path ends, per function.
#[derive(Default)]
pub struct Observed {
    /// The counts, as `bl`'s own sink keeps them.
    pub counts: vm::modes::bl::BlCounts,
    /// Activations started.
    pub entries: HashMap<FuncIdx, u64>,
    /// Activations ended.
    pub returns: HashMap<FuncIdx, u64>,
    /// Frames switched to instrumented code by OSR.
    pub osr: HashMap<FuncIdx, u64>,
    /// Paths handed to the sink.
    pub ends: HashMap<FuncIdx, u64>,
    /// Functions with an activation still running at the end.
    pub unfinished: Vec<FuncIdx>,
    stack: Vec<FuncIdx>,
}

impl vm::modes::bl::PathSink for Observed {
    fn on_entry(&mut self, func: FuncIdx) {
        *self.entries.entry(func).or_insert(0) += 1;
        self.stack.push(func);
    }

    fn on_return(&mut self, func: FuncIdx) {
        *self.returns.entry(func).or_insert(0) += 1;
        assert_eq!(self.stack.pop(), Some(func), "return of {func}");
    }

    fn on_osr(&mut self, func: FuncIdx) {
        *self.osr.entry(func).or_insert(0) += 1;
        assert_eq!(self.stack.last(), Some(&func), "OSR of {func}");
    }

    fn on_path(&mut self, func: FuncIdx, id: u64) {
        *self.ends.entry(func).or_insert(0) += 1;
        self.counts.on_path(func, id);
    }
}

/// Runs `program` under `bl` (threshold `n`, strategy `ends`) with the [`Observed`] sink:
/// the function profiles, the log and the output.
pub fn run_observed(
    program: &Program,
    n: u64,
    ends: PathEnds,
) -> (Vec<FunctionProfile>, Observed, Vec<u8>) {
    use vm::modes::bl::{BlProbes, TierSettings};
    let settings = TierSettings {
        threshold: n,
        path_ends: ends,
    };
    let mut m = Machine::new(program, vm::DEFAULT_MAX_DEPTH);
    let branch = m.branch_counts().clone();
    let mut probes = BlProbes::new(program, settings, Observed::default(), branch);
    let mut out = Vec::new();
    let _ = execute(&mut m, &mut probes, &mut out);
    m.flush(&mut out);
    let counts = probes.sink.counts.by_function(program.functions.len());
    let mut fns = probes.function_profiles(&counts).unwrap();
    // As the real runs, each function's profile names its file.
    for (fp, func) in fns.iter_mut().zip(&program.functions) {
        fp.file = program
            .files
            .get(func.file as usize)
            .cloned()
            .unwrap_or_default();
    }
    let mut seen = std::mem::take(&mut probes.sink);
    seen.unfinished = std::mem::take(&mut seen.stack);
    (fns, seen, out)
}

/// The `.c` files of `dir` (relative to the `vm` crate), as (path, source), sorted by name.
/// The path is the file's real path, so that `#include "..."` finds the headers beside it;
/// [`base_name`] gives the file name.
pub fn sources(dir: &str) -> Vec<(String, String)> {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            (p.display().to_string(), src)
        })
        .collect()
}

/// Every program of `programs/` except the benchmarks (`bench_*.c`, whose traces are tens of
/// millions of blocks), as (path, source), sorted by name.
pub fn programs() -> Vec<(String, String)> {
    sources("../programs")
        .into_iter()
        .filter(|(name, _)| !base_name(name).starts_with("bench_"))
        .collect()
}

/// The file name of a path of [`sources`] (`kiter_wide.c`).
pub fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The functions' profiles without their calls through pointers (which the oracles' replays
/// do not count; `cli_profile`'s `indirect_calls_are_counted_per_site_in_every_mode` checks
/// them).
fn without_calls(fs: &[FunctionProfile]) -> Vec<FunctionProfile> {
    fs.iter()
        .cloned()
        .map(|mut f| {
            f.indirect_calls.clear();
            f
        })
        .collect()
}

/// Every function's CFG and activations (its runs of blocks and its calls, in order) as the
/// `trace` sink records them in a run of `program`, or `None` if an activation did not finish
/// (`exit` from a callee, a trap).
pub fn recorded_activations(
    program: &Program,
    ends: PathEnds,
) -> Option<(Vec<FunctionCfg>, Vec<vm::modes::trace::Activation>)> {
    let mut probes = vm::modes::trace::TraceProbes::new(program, ends).unwrap();
    probes.keep_activations = true;
    let mut m = Machine::new(program, vm::DEFAULT_MAX_DEPTH);
    let (_, mut probes) = vm::run::execute(&mut m, probes, &mut Vec::new());
    probes.close_unfinished();
    if probes.activations.iter().any(|a| !a.finished) {
        return None;
    }
    let cfgs = (0..program.functions.len())
        .map(|f| probes.cfg(FuncIdx(f as u16)).clone())
        .collect();
    Some((cfgs, std::mem::take(&mut probes.activations)))
}
