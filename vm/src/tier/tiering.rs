//! The tiering bookkeeping every path-profiling mode shares (`bl`, `kbl`, `kiter`): tier-0
//! counters, where each function stands (compiled code, instrumented, or failed to tier up),
//! the queue of instrumented versions waiting to be installed, and the index the next one
//! will get. The modes differ only in how they make an instrumented version and what they
//! keep about it (`T`: [`crate::modes::bl::tierup::TieredBl`] for Ball-Larus, the k-iteration sites for
//! `kiter`); [`Tiering::install`] records the outcome.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use lang::bytecode::{FuncIdx, Program};

use super::tier0::Tier0;
use crate::branch_counts::BranchCounts;
use crate::version::Version;

/// Where a function stands.
#[derive(Debug)]
enum State<T> {
    /// Counting at tier 0.
    Baseline,
    /// Instrumented.
    Tiered(Box<T>),
    /// Tier-up failed (reported once); stays at tier 0 for good.
    Failed,
}

/// Tier-0 counters and tier-up state of every function; `T` is what a mode keeps about a
/// tiered-up function.
#[derive(Debug)]
pub struct Tiering<'p, T> {
    /// The program.
    pub program: &'p Program,
    /// A function tiers up when its heat exceeds this (`0`: all of them, before the run).
    pub threshold: u64,
    /// The tier-0 counters.
    pub tier0: Tier0,
    state: Vec<State<T>>,
    /// `tiered[f]`: whether `f` has instrumented code (the hot-path test of the hooks).
    tiered: Vec<bool>,
    ready: VecDeque<Version>,
    /// Versions created so far (installed or ready), to predict the next one's index.
    versions_made: u32,
    /// Tier-up failures, one line each.
    pub warnings: Vec<String>,
    /// How many tier-ups were done and how long they took.
    pub stats: TierUpStats,
}

/// What tiering cost a run: the tier-ups done (successful or not) and the wall time spent in
/// them (building the CFG, numbering, planning and generating the instrumented code).
/// `vmrun --stats-out` writes it; `vmrun bench` reports it per program and mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TierUpStats {
    /// Functions tiered up (or that failed to).
    pub count: u32,
    /// Total time spent tiering up.
    pub time: Duration,
}

impl<'p, T> Tiering<'p, T> {
    /// Every function of `program` at tier 0, with the machine's branch counters `branch`.
    pub fn new(program: &'p Program, threshold: u64, branch: BranchCounts) -> Self {
        let n = program.functions.len();
        Tiering {
            program,
            threshold,
            tier0: Tier0::new(program, branch),
            state: (0..n).map(|_| State::Baseline).collect(),
            tiered: vec![false; n],
            ready: VecDeque::new(),
            versions_made: 0,
            warnings: Vec::new(),
            stats: TierUpStats::default(),
        }
    }

    /// Whether `f` has instrumented code.
    #[inline(always)]
    pub fn is_tiered(&self, f: FuncIdx) -> bool {
        self.tiered[f.index()]
    }

    /// Counts a call of `f`, which has no instrumented code; true if it should tier up now.
    #[inline(always)]
    pub fn entry_is_hot(&mut self, f: FuncIdx) -> bool {
        self.tier0.entry(f) > self.threshold && self.can_tier_up(f)
    }

    /// Counts a backward jump of a baseline frame of `f`; true if the frame is hot: `f` has
    /// instrumented code already, or just got hot (the caller then tiers up and switches).
    #[inline(always)]
    pub fn back_edge_is_hot(&mut self, f: FuncIdx) -> bool {
        self.tiered[f.index()] || self.tier0.back_edge(f) > self.threshold
    }

    /// Whether `f` is still at tier 0 and has not failed to tier up.
    pub fn can_tier_up(&self, f: FuncIdx) -> bool {
        matches!(self.state[f.index()], State::Baseline)
    }

    /// The index the next instrumented version will get in the machine.
    pub fn next_version_index(&self) -> u32 {
        self.program.functions.len() as u32 + self.versions_made
    }

    /// Records the outcome of tiering `f` up, begun at `started`: its instrumented version is
    /// queued for the loop, or the failure reported, and `f` stays at tier 0 for good.
    pub fn install(&mut self, f: FuncIdx, made: Result<(T, Version), String>, started: Instant) {
        self.stats.count += 1;
        self.stats.time += started.elapsed();
        match made {
            Ok((tiered, version)) => {
                self.versions_made += 1;
                self.ready.push_back(version);
                self.state[f.index()] = State::Tiered(Box::new(tiered));
                self.tiered[f.index()] = true;
            }
            Err(e) => {
                self.warnings.push(format!(
                    "function {} stays at tier 0 (not profiled): {e}",
                    self.program.functions[f.index()].name
                ));
                self.state[f.index()] = State::Failed;
            }
        }
    }

    /// What the mode kept about `f`, if it tiered up.
    pub fn tiered(&self, f: FuncIdx) -> Option<&T> {
        match &self.state[f.index()] {
            State::Tiered(t) => Some(t),
            _ => None,
        }
    }

    /// Whether a version is waiting to be installed.
    #[inline(always)]
    pub fn version_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    /// The next version to install, in creation order.
    pub fn take_version(&mut self) -> Option<Version> {
        self.ready.pop_front()
    }
}
