//! `--profile=edge`: edge profiling with tiering, counting chords only (Ball 1994; Knuth &
//! Stevenson 1973), in an instrumented tier like `bl`'s.
//!
//! Tier 0 is every tiering mode's: invocations and loop iterations (heat), every branch's
//! outcomes. Once a function's heat passes the threshold it tiers up (at its next call, or at
//! a backward jump by on-stack replacement, as `bl`): its CFG gets a maximum spanning tree
//! ([`profiler::EdgeCounting`]) weighted by what counting each edge would cost, the tier-0
//! edge frequencies (completed by the static estimate) times the host work of its counter,
//! and only the tree's complement, the *chords*, is counted in the instrumented copy. The rest
//! follows by flow conservation when the profile is written. Instrumented code calls no hook
//! at all: not on calls, returns or backward jumps.
//!
//! ## How a chord is counted
//! Every counter is a cell of the version's own counters ([`crate::branch_counts`]), which
//! the loop bumps without a hook:
//! - a chord out of a conditional branch rides on the branch: its *counted twin*
//!   ([`lang::bytecode::Instr::counted`]) adds one to the cell of the outcome it takes, about
//!   four host instructions on every execution of the branch, either way;
//! - any other chord (a fall-through, a `Jmp`, a jump-table arm, an edge into the exit), and a
//!   branch's chord that is cold while the branch is hot, gets a `CountEdge` instruction where
//!   only that edge runs it ([`crate::tier::codegen`]: after the block, before the jump or
//!   return, or in a stub for a taken edge or a table arm): one dispatch more, only when taken.
//!
//! The tree's weights are these costs, so Kruskal keeps the expensive edges in the tree. A loop
//! costs one counter per iteration (every cycle has a chord), usually its bottom test's twin.
//!
//! ## Exact counts
//! The derivation needs every activation of the instrumented code to be a cycle through
//! `EXIT -> ENTRY`. Two kinds are not, and the mode records both: frames that switched to the
//! instrumented code at a loop header (on-stack replacement: counted per target block, the
//! jump itself was counted by tier 0) and frames still in the instrumented code when the run
//! ended (the callers of an `exit`, a trapped or interrupted frame: [`Profiler::stopped`]).
//! The profile's `edge_counts` are then exactly the edges the instrumented code took; like the
//! path modes' counts, they start at tier-up (`tiered_up_at`), and `--tier-up 0` counts the
//! whole run.

use hashbrown::HashMap;
use lang::bytecode::{Flow, FuncIdx, Function, Instr, Pc, Program};
use profiler::index::IndexVec;
use profiler::{Block, Boundary, Edge as CfgEdge, EdgeCounting, EdgeProfile, PathEnds};

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::{BranchCounts, Counters};
use crate::interp::LiveFrame;
use crate::probes::{Osr, Probes};
use crate::profile::FunctionProfile;
use crate::tier::cfg_build::{FunctionCfg, Way};
use crate::tier::codegen::{self, Carrier, ProbeCode};
use crate::tier::tier0::Tier0;
use crate::tier::tiering::Tiering;
use crate::version::Version;
use crate::ProfileSettings;

/// The `edge` mode.
pub struct Edge;

impl Profiler for Edge {
    type Probes<'p> = EdgeProbes<'p>;

    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<EdgeProbes<'p>, String> {
        Ok(EdgeProbes::new(program, settings.tier_up, branch))
    }

    fn stopped(probes: &mut EdgeProbes<'_>, frames: &[LiveFrame]) {
        probes.stopped(frames);
    }

    fn finish(probes: &mut EdgeProbes<'_>) -> Finished {
        Finished {
            warnings: probes.tiering.warnings.clone(),
            tier_ups: probes.tiering.stats,
        }
    }

    fn profile(
        probes: EdgeProbes<'_>,
        _: &Program,
        settings: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        Some(probes.function_profiles(settings.path_ends))
    }

    fn describe(probes: &EdgeProbes<'_>, event: &WatchEvent) -> Option<String> {
        let heat = |func: FuncIdx| probes.tiering.tier0.heat[func.index()];
        match *event {
            WatchEvent::NewVersion { func } => probes.tiering.tiered(func).map(|t| {
                format!(
                    "tiered up at heat {}: {} of {} edges counted",
                    t.tiered_up_at,
                    t.chords.len(),
                    t.fc.cfg().num_edges()
                )
            }),
            WatchEvent::Osr { func, .. } => Some(format!(
                "switched to instrumented code at heat {}",
                heat(func)
            )),
            WatchEvent::Entry { func } | WatchEvent::BackEdge { func, .. }
                if probes.tiering.tiered(func).is_none() =>
            {
                Some(format!("heat {}", heat(func)))
            }
            _ => None,
        }
    }
}

/// Where a chord's count is read: the cells of the instrumented version's counters that add
/// up to it, each `(pc, taken)`.
type Cells = smallvec::SmallVec<[(Pc, bool); 2]>;

/// A function after tier-up: its CFG, which edges its code counts and where.
#[derive(Debug)]
pub struct TieredEdge {
    /// The CFG of its compiled code.
    pub fc: FunctionCfg,
    /// The spanning tree and its chords.
    pub counting: EdgeCounting,
    /// Every chord and the cells its count is the sum of.
    pub chords: Vec<(CfgEdge, Cells)>,
    /// Where each block starts in the instrumented version (OSR targets).
    pub block_start: IndexVec<Block, Option<Pc>>,
    /// The code blocks by their start in the instrumented version (to place a stopped frame).
    starts: Vec<(Pc, Block)>,
    /// The index the instrumented version gets in the machine.
    pub version_index: u32,
    /// The function's tier-0 heat when it tiered up (0 with `--tier-up 0`).
    pub tiered_up_at: u64,
    /// The instrumented version's counters (shared with the version).
    counters: Counters,
}

impl TieredEdge {
    /// The block a frame of the instrumented version standing at `pc` is in.
    fn block_at(&self, pc: Pc) -> Option<Block> {
        let i = self.starts.partition_point(|&(start, _)| start <= pc);
        i.checked_sub(1).map(|i| self.starts[i].1)
    }

    /// Every edge's count in the instrumented code, from the chords' cells and the flow that
    /// entered (`enters`) or stopped (`leaves`) mid-graph.
    fn edge_counts(&self, boundary: &Boundary) -> Result<IndexVec<CfgEdge, u64>, String> {
        let cfg = self.fc.cfg();
        let mut chords = IndexVec::from_elem(0, cfg.num_edges());
        for (e, cells) in &self.chords {
            chords[*e] = cells
                .iter()
                .fold(0u64, |acc, &(pc, taken)| acc + self.counters.get(pc, taken));
        }
        self.counting
            .derive(cfg, &chords, boundary)
            .map_err(|e| e.to_string())
    }
}

/// Host work, in instructions, of counting an edge with a `CountEdge` instruction of its own
/// (a dispatch and an increment; a taken branch's or a table arm's stub adds a jump).
const SEPARATE_COST: u64 = 10;
const STUB_COST: u64 = 16;
/// Host work of counting a branch's outcome in its counted twin, per execution of the branch.
const TWIN_COST: u64 = 4;

/// How an edge is counted if it is a chord.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counter {
    /// By its branch's counted twin.
    Twin,
    /// By a `CountEdge` instruction of its own.
    Separate,
}

/// The cheaper way to count edge `e` and what it costs over the run, by the frequencies of
/// `profile`.
fn counter(fc: &FunctionCfg, func: &Function, profile: &EdgeProfile, e: CfgEdge) -> (Counter, u64) {
    let cfg = fc.cfg();
    let freq = profile.edges[e].max(1);
    let separate = match codegen::carrier(fc, func, e) {
        Some(Carrier::Branch | Carrier::Arm) => STUB_COST,
        _ => SEPARATE_COST,
    };
    let on_branch = fc.bytecode_edges(e).first().is_some_and(|bc| {
        func.code
            .get(bc.pc.index())
            .is_some_and(|ins| ins.flow() == Flow::Cond && ins.counted().is_some())
    });
    if !on_branch {
        return (Counter::Separate, freq.saturating_mul(separate));
    }
    let branch = cfg
        .succ_edges(cfg.source(e))
        .map(|x| profile.edges[x].max(1))
        .fold(0, u64::saturating_add);
    let twin = branch.saturating_mul(TWIN_COST);
    let own = freq.saturating_mul(separate);
    if twin <= own {
        (Counter::Twin, twin)
    } else {
        (Counter::Separate, own)
    }
}

/// Tiers `func` (function `index`) up for edge counting. `edges` gives the tier-0 edge profile
/// (`None`: the static estimate alone, for `--tier-up 0`). The version will get index
/// `version_index` in the machine.
pub fn tier_up_edge(
    index: FuncIdx,
    func: &Function,
    edges: Option<&dyn Fn(&FunctionCfg) -> EdgeProfile>,
    version_index: u32,
    tiered_up_at: u64,
) -> Result<(TieredEdge, Version), String> {
    let fc = FunctionCfg::of_function(func).map_err(|e| e.to_string())?;
    let cfg = fc.cfg();
    let profile = match edges {
        Some(edges) => edges(&fc),
        None => EdgeProfile::zeros(cfg),
    }
    .with_static_estimate(cfg);
    let how: IndexVec<CfgEdge, (Counter, u64)> = IndexVec::from_raw(
        cfg.edges()
            .map(|e| counter(&fc, func, &profile, e))
            .collect(),
    );
    let weight = IndexVec::from_raw(how.iter().map(|&(_, cost)| cost).collect());
    let counting = EdgeCounting::new(cfg, &weight);

    let mut probes = ProbeCode::new(&fc);
    let mut twins: Vec<Pc> = Vec::new();
    for e in counting.chords() {
        match how[e].0 {
            Counter::Twin => twins.extend(fc.bytecode_edges(e).iter().map(|bc| bc.pc)),
            Counter::Separate => probes.edges[e].push(Instr::CountEdge {}),
        }
    }
    let made = codegen::instrument(index, func, &fc, &probes).map_err(|e| e.to_string())?;
    let mut version = made.version;
    let mut chords = Vec::new();
    for e in counting.chords() {
        let cells: Cells = match how[e].0 {
            Counter::Twin => fc
                .bytecode_edges(e)
                .iter()
                .filter_map(|bc| {
                    let at = made.new_pc[bc.pc.index()]?;
                    Some((at, bc.way == Way::Taken))
                })
                .collect(),
            // An edge of dropped code has no probes: it never runs.
            Counter::Separate => made.edge_probes_at[e]
                .map(|at| (at, true))
                .into_iter()
                .collect(),
        };
        chords.push((e, cells));
    }
    twins.sort_unstable();
    twins.dedup();
    for pc in twins {
        if let Some(at) = made.new_pc[pc.index()] {
            let ins = &mut version.code[at.index()];
            *ins = ins
                .counted()
                .ok_or_else(|| format!("{pc}: a branch without a counted twin"))?;
        }
    }
    let mut starts: Vec<(Pc, Block)> = made
        .block_start
        .iter()
        .enumerate()
        .filter_map(|(b, at)| Some(((*at)?, Block::new(b))))
        .collect();
    starts.sort_unstable();
    let counters = version.counters.clone();
    Ok((
        TieredEdge {
            fc,
            counting,
            chords,
            block_start: made.block_start,
            starts,
            version_index,
            tiered_up_at,
            counters,
        },
        version,
    ))
}

/// `--profile=edge`: tier-0 counters, then chords only in instrumented code.
pub struct EdgeProbes<'p> {
    tiering: Tiering<'p, TieredEdge>,
    /// Frames that switched to instrumented code, by function and the block they entered.
    entered: HashMap<(FuncIdx, Block), u64>,
    /// Frames still in instrumented code when the run ended, by function and block.
    stopped: HashMap<(FuncIdx, Block), u64>,
}

impl<'p> EdgeProbes<'p> {
    /// Probes for `program` tiering up at heat `threshold` (0: every function before the
    /// run), with the machine's branch counters `branch`.
    pub fn new(program: &'p Program, threshold: u64, branch: BranchCounts) -> Self {
        let mut probes = EdgeProbes {
            tiering: Tiering::new(program, threshold, branch),
            entered: HashMap::new(),
            stopped: HashMap::new(),
        };
        if threshold == 0 {
            for f in 0..program.functions.len() {
                probes.tier_up(FuncIdx(f as u16));
            }
        }
        probes
    }

    /// The tier-0 counters.
    pub fn tier0(&self) -> &Tier0 {
        &self.tiering.tier0
    }

    /// Tiers `f` up.
    #[cold]
    #[inline(never)]
    fn tier_up(&mut self, f: FuncIdx) {
        let started = std::time::Instant::now();
        let t = &self.tiering;
        let func = &t.program.functions[f.index()];
        let profile = |fc: &FunctionCfg| t.tier0.edge_profile(f, fc);
        let edges: Option<&dyn Fn(&FunctionCfg) -> EdgeProfile> = if t.threshold == 0 {
            None
        } else {
            Some(&profile)
        };
        let made = tier_up_edge(
            f,
            func,
            edges,
            t.next_version_index(),
            t.tier0.heat[f.index()],
        );
        self.tiering.install(f, made, started);
    }

    /// A call of `func` while it has no instrumented code: counts it, tiers it up once hot.
    #[inline(never)]
    fn entry_at_tier0(&mut self, func: FuncIdx) {
        if self.tiering.entry_is_hot(func) {
            self.tier_up(func);
        }
    }

    /// A backward jump of a baseline frame of a hot `func` to `target`: tier it up if it is
    /// not yet, and switch the frame to the instrumented code at `target`'s block.
    #[cold]
    #[inline(never)]
    fn hot_back_edge(&mut self, func: FuncIdx, target: Pc) -> Option<Osr> {
        if self.tiering.can_tier_up(func) {
            self.tier_up(func);
        }
        let t = self.tiering.tiered(func)?;
        let to = t.fc.block_starting_at(target)?;
        let osr = Osr {
            version: t.version_index,
            pc: t.block_start[to]?,
            path: None,
        };
        *self.entered.entry((func, to)).or_insert(0) += 1;
        Some(osr)
    }

    /// The run is over with `frames` still running: those in instrumented code stopped in the
    /// middle of the graph.
    fn stopped(&mut self, frames: &[LiveFrame]) {
        for frame in frames {
            let Some(t) = self.tiering.tiered(frame.func) else {
                continue;
            };
            if frame.version != t.version_index {
                continue;
            }
            if let Some(b) = t.block_at(frame.pc) {
                *self.stopped.entry((frame.func, b)).or_insert(0) += 1;
            }
        }
    }

    /// The flow that crossed `f`'s instrumented graph other than by its entry and exit.
    fn boundary(&self, f: FuncIdx) -> Boundary {
        let of = |map: &HashMap<(FuncIdx, Block), u64>| {
            let mut v: Vec<(Block, u64)> = map
                .iter()
                .filter(|((g, _), _)| *g == f)
                .map(|(&(_, b), &n)| (b, n))
                .collect();
            v.sort_unstable();
            v
        };
        Boundary {
            enters: of(&self.entered),
            leaves: of(&self.stopped),
        }
    }

    /// Every function's profile, in program order: blocks and static paths (under
    /// `path_ends`, for comparison with the path modes), and for a function that tiered up its
    /// edge counts since then.
    pub fn function_profiles(&self, path_ends: PathEnds) -> Result<Vec<FunctionProfile>, String> {
        let functions = &self.tiering.program.functions;
        let mut out = Vec::with_capacity(functions.len());
        for (i, func) in functions.iter().enumerate() {
            let f = FuncIdx(i as u16);
            let fail = |e: String| format!("function {}: {e}", func.name);
            let profile = match self.tiering.tiered(f) {
                Some(t) => {
                    let counts = t.edge_counts(&self.boundary(f)).map_err(fail)?;
                    let mut p =
                        FunctionProfile::not_tiered(&func.name, func.loc.line, &t.fc, path_ends);
                    p.tiered_up_at = Some(t.tiered_up_at);
                    p.edge_counts = Some(edge_counts_in_profile_order(&t.fc, &counts));
                    p
                }
                None => {
                    let fc = FunctionCfg::of_function(func).map_err(|e| fail(e.to_string()))?;
                    FunctionProfile::not_tiered(&func.name, func.loc.line, &fc, path_ends)
                }
            };
            out.push(profile);
        }
        Ok(out)
    }
}

/// `counts` in the order of the profile's `succs`: block by block, each block's successor
/// edges in CFG order.
fn edge_counts_in_profile_order(fc: &FunctionCfg, counts: &IndexVec<CfgEdge, u64>) -> Vec<u64> {
    let cfg = fc.cfg();
    cfg.blocks()
        .flat_map(|b| cfg.succ_edges(b).map(|e| counts[e]))
        .collect()
}

impl Probes for EdgeProbes<'_> {
    const ENABLED: bool = true;
    const TIERS: bool = true;
    const COUNTS: bool = true;
    const ACTIVATIONS: bool = false;

    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        if !self.tiering.is_tiered(func) {
            self.entry_at_tier0(func);
        }
    }

    #[inline(never)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.tiering.tier0.switch(func, pc, target);
    }

    /// Called only for frames running compiled (tier-0) code.
    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, _pc: Pc, target: Pc) -> Option<Osr> {
        if !self.tiering.back_edge_is_hot(func) {
            return None;
        }
        self.hot_back_edge(func, target)
    }

    #[inline(always)]
    fn version_ready(&self) -> bool {
        self.tiering.version_ready()
    }

    #[inline(never)]
    fn take_version(&mut self) -> Option<Version> {
        self.tiering.take_version()
    }
}
