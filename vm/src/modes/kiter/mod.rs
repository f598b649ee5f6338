//! `--profile=kiter:K`: Roy & Srikant's k-iteration paths in the running VM.
//!
//! The same tiering as `bl` ([`crate::modes::bl::BlProbes`]: tier-0 counters, a function tiers
//! up once its heat passes the threshold, new calls run the instrumented copy, running frames
//! switch at their next backward jump), with the k-iteration plan instead of Ball-Larus
//! increments: [`KiterRuntime::tier_up_weighted`] numbers the function's k-iteration paths
//! (Roy & Srikant, section 4; innermost loops are k-iteration loops, the others acyclic), places
//! the increments by event counting (only the chords of a maximum spanning tree of the unrolled
//! DAG, weighted by the tier-0 edge counts, carry one) and lists the CFG edges whose probes do
//! something; codegen puts one `Probe k` instruction on each of them, and the runtime
//! ([`runtime`]) runs Algorithm 3 on its own per-activation accumulators when they run.
//! A call of a tiered-up function starts counting in [`Probes::on_entry`]
//! ([`KiterRuntime::on_entry_instrumented`]: new calls always run the instrumented code), so
//! the instrumented code has no entry probe.
//! A frame that switches mid-loop counts only the k-iteration paths that start after the
//! switch ([`KiterRuntime::on_osr_at`]: the backward jump's own probe runs first when the
//! frame's k-loop state before it is determined); in an irreducible k-loop, where whether the
//! loop is active depends on how it was entered, the runtime may refuse the switch and the
//! frame stays at tier 0 until its next backward jump.

pub mod runtime;
pub mod static_counts;

use lang::bytecode::{FuncIdx, Instr, Pc, ProbeIdx, Program};
use profiler::index::IndexVec;
use profiler::k_iteration::KPlacement;
use profiler::{Block, PathEnds};

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::probes::{Osr, Probes};
use crate::profile::FunctionProfile;
use crate::tier::cfg_build::FunctionCfg;
use crate::tier::codegen::{instrument, ProbeCode};
use crate::tier::tiering::{TierUpStats, Tiering};
use crate::version::Version;
use crate::ProfileSettings;
use runtime::{KiterRuntime, OsrSwitch};

/// A function with instrumented code.
struct Tiered {
    fc: FunctionCfg,
    block_start: IndexVec<Block, Option<Pc>>,
    version_index: u32,
    tiered_up_at: u64,
}

/// The `kiter:K` probes. See the module docs.
pub struct KiterProbes<'p> {
    tiering: Tiering<'p, Tiered>,
    /// The k-iteration runtime (plans, accumulators, counters).
    pub runtime: KiterRuntime,
}

impl<'p> KiterProbes<'p> {
    /// Probes for `program` counting `k`-iteration paths under `path_ends`; functions tier up
    /// when their heat exceeds `threshold` (0: all of them, before the program starts).
    pub fn new(
        program: &'p Program,
        k: u32,
        path_ends: PathEnds,
        threshold: u64,
        branch: BranchCounts,
    ) -> Result<Self, String> {
        // Event counting: the fewest probes (the ids do not depend on the placement).
        let runtime = KiterRuntime::new(k, path_ends)
            .map_err(|e| e.to_string())?
            .with_placement(KPlacement::EventCounting);
        let mut probes = KiterProbes {
            tiering: Tiering::new(program, threshold, branch),
            runtime,
        };
        if threshold == 0 {
            for f in 0..program.functions.len() {
                probes.tier_up(FuncIdx(f as u16));
            }
        }
        Ok(probes)
    }

    /// Tiers `f` up: plan, probe sites, instrumented copy.
    #[cold]
    #[inline(never)]
    fn tier_up(&mut self, f: FuncIdx) {
        let started = std::time::Instant::now();
        let made = self.make_version(f);
        self.tiering.install(f, made, started);
    }

    fn make_version(&mut self, f: FuncIdx) -> Result<(Tiered, Version), String> {
        let t = &self.tiering;
        let func = &t.program.functions[f.index()];
        let fc = FunctionCfg::of_function(func).map_err(|e| e.to_string())?;
        // Completed by the static estimate for the loops that had not run at tier-up.
        let weights =
            (t.threshold > 0).then(|| t.tier0.edge_profile(f, &fc).with_static_estimate(fc.cfg()));
        let sites = self
            .runtime
            .tier_up_weighted(f, &fc, weights.as_ref())
            .map_err(|e| e.to_string())?;
        // No entry probe: every activation of the instrumented code starts at its pc 0 by a
        // call, and `on_entry` starts its counting (`KiterRuntime::on_entry_instrumented`).
        let mut probes = ProbeCode::new(&fc);
        for &(e, k) in &sites {
            probes.edges[e] = vec![Instr::Probe { k: ProbeIdx(k) }];
        }
        let inst = instrument(f, func, &fc, &probes).map_err(|e| e.to_string())?;
        let tiered = Tiered {
            fc,
            block_start: inst.block_start,
            version_index: t.next_version_index(),
            tiered_up_at: t.tier0.heat[f.index()],
        };
        Ok((tiered, inst.version))
    }

    /// A call of `func` while it has no instrumented code: it runs the instrumented code if
    /// this call tiers it up, else its baseline code.
    #[inline(never)]
    fn entry_at_tier0(&mut self, func: FuncIdx) {
        if self.tiering.entry_is_hot(func) {
            self.tier_up(func);
        }
        if self.tiering.is_tiered(func) {
            self.runtime.on_entry_instrumented(func);
        } else {
            self.runtime.on_entry(func);
        }
    }

    /// A backward jump of a baseline frame of `func` once `func` is hot: tier it up if it is
    /// not yet, then switch the frame to the instrumented code.
    #[cold]
    #[inline(never)]
    fn hot_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        if self.tiering.can_tier_up(func) {
            self.tier_up(func);
        }
        let t = self.tiering.tiered(func)?;
        let from = t.fc.block_of_pc(pc)?;
        let to = t.fc.block_starting_at(target)?;
        let e = t.fc.cfg().find_edge(from, to)?;
        let osr = Osr {
            version: t.version_index,
            pc: t.block_start[to]?,
            path: None,
        };
        // Refused where the frame's k-loop state is not determined (an irreducible k-loop):
        // the frame stays at tier 0 and tries again at its next backward jump.
        match self.runtime.on_osr_at(func, e) {
            OsrSwitch::OnEdge | OsrSwitch::AfterEdge => Some(osr),
            OsrSwitch::Refused => None,
        }
    }

    /// When `f` tiered up, if it did.
    pub fn tiered_up_at(&self, f: FuncIdx) -> Option<u64> {
        self.tiering.tiered(f).map(|t| t.tiered_up_at)
    }

    /// Tier-up failures, one line each.
    pub fn warnings(&self) -> &[String] {
        &self.tiering.warnings
    }

    /// The tier-ups done so far and the time they took.
    pub fn tier_up_stats(&self) -> TierUpStats {
        self.tiering.stats
    }
}

impl Probes for KiterProbes<'_> {
    const ENABLED: bool = true;
    const TIERS: bool = true;
    const COUNTS: bool = true;

    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        if self.tiering.is_tiered(func) {
            // New calls run the instrumented code (the loop installs a version right after
            // this hook).
            self.runtime.on_entry_instrumented(func);
        } else {
            self.entry_at_tier0(func);
        }
    }

    #[inline(never)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.tiering.tier0.switch(func, pc, target);
    }

    /// Called only for frames running compiled (tier-0) code.
    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        if !self.tiering.back_edge_is_hot(func) {
            return None;
        }
        self.hot_back_edge(func, pc, target)
    }

    #[inline(always)]
    fn on_return(&mut self, func: FuncIdx) {
        self.runtime.on_return(func);
    }

    #[inline(always)]
    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx) {
        self.runtime.on_probe(func, k.0);
    }

    fn step_cursor(&mut self) -> *mut crate::step_table::StepCursor {
        self.runtime.step_cursor()
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

/// The `kiter:K` mode.
pub struct Kiter;

impl Profiler for Kiter {
    type Probes<'p> = KiterProbes<'p>;

    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<KiterProbes<'p>, String> {
        KiterProbes::new(
            program,
            settings.k,
            settings.path_ends,
            settings.tier_up,
            branch,
        )
    }

    fn finish(probes: &mut KiterProbes<'_>) -> Finished {
        Finished {
            warnings: probes.warnings().to_vec(),
            tier_ups: probes.tier_up_stats(),
        }
    }

    fn profile(
        probes: KiterProbes<'_>,
        program: &Program,
        _: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        Some(
            probes
                .runtime
                .into_profiles(program, |f| probes.tiered_up_at(f))
                .map_err(|e| e.to_string()),
        )
    }

    fn describe(probes: &KiterProbes<'_>, event: &WatchEvent) -> Option<String> {
        match *event {
            WatchEvent::NewVersion { func } => probes
                .tiered_up_at(func)
                .map(|h| format!("tiered up at heat {h}")),
            WatchEvent::Switch { .. } | WatchEvent::BackEdge { .. } => None,
            _ => probes.runtime.running(),
        }
    }

    fn counted(probes: &KiterProbes<'_>, func: FuncIdx) -> Vec<(u64, u64)> {
        probes
            .runtime
            .function(func)
            .map(|f| f.counters().iter().collect())
            .unwrap_or_default()
    }

    fn path_text(probes: &KiterProbes<'_>, func: FuncIdx, id: u64) -> Option<String> {
        probes.runtime.path_text(func, id)
    }
}
