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

#![allow(dead_code)]

use std::collections::HashMap;

use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::{BallLarus, Block, Numbering, Path, PathEnds};
use vm::interp::{execute, Machine};
use vm::probes::{Osr, Probes};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::tier::cfg_build::{BcEdge, FunctionCfg, Way};
use vm::tier::oracle::{Oracle, PathCounts};

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
            .map(|(p, n)| (path_id(&bl, fc.cfg(), &p), n, p))
            .collect();
        profile.functions.push(FunctionProfile::new(
            &f.name,
            f.loc.line,
            fc,
            bl.num_paths(),
            Some(0),
            counted,
        ));
    }
    profile
}

/// The id of `path` in `bl`'s numbering: the sum of the numbering's values along its DAG edges
/// (the `Start` dummy of its first block unless it starts at the entry, its real edges, and the
/// `End` dummy of its cut edge). Checked by regenerating the id.
pub fn path_id(bl: &BallLarus, cfg: &profiler::Cfg, path: &Path) -> u64 {
    let dag = bl.dag();
    let nb = bl.numbering();
    let first = path.nodes[0];
    let mut id = if first == cfg.entry() {
        0
    } else {
        nb.val(
            dag.start_edge(first)
                .expect("a path starts at the entry or a start block"),
        )
    };
    let mut steps: Vec<(Block, Block)> = path.nodes.windows(2).map(|w| (w[0], w[1])).collect();
    if let Some(end) = path.end {
        steps.push((*path.nodes.last().unwrap(), end));
    }
    for (u, v) in steps {
        let e = cfg.find_edge(u, v).expect("a path follows CFG edges");
        id += nb.val(dag.dag_edge(e));
    }
    assert_eq!(bl.regenerate(cfg, id).as_ref(), Some(path));
    id
}
