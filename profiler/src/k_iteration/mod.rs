//! k-iteration path profiling (Roy & Srikant, "Profiling k-Iteration Paths: A Generalization of
//! the Ball-Larus Profiling Algorithm", CGO 2009), in mixed mode: innermost loops are profiled
//! with paths spanning up to K iterations, the other loops acyclically.
//!
//! ```text
//!        1                Roy & Srikant Figure 1, K = 2, backedge path ends: 23 static paths,
//!        |                e.g. id 3 = 1-2-3-5-2-4-5 (ends at the back edge 5 -> 2 after two
//!   +--> 2                iterations), id 19 = 2-4-5-2-3-5, id 15 = 2-3-5-2-4-5-6.
//!   |   / \               The unrolled DAG has two versions of the loop {2,3,4,5}:
//!   |  3   4 --+          Start -> 1 -> 2' -> {3',4'} -> 5' -> 2'' -> {3'',4''} -> 5'' -> End
//!   |   \ /    |          plus Start -> 2' (delta start) and 5'' -> End (delta end); the paths
//!   +--- 5     |          from 2' that leave the loop in the first iteration (via 4' -> 6 or
//!        |     |          5' -> 6) are invalid and compensated away (cval).
//!        6 <---+
//! ```
//!
//! What is counted is normative: the design note `cfg-format.md`, "Reference semantics of
//! k-iteration counting". The pieces, one module each:
//! - `unrolled` (private): the loop-unrolled DAG `G_lu(K)` of section 3.1, implicit, as states
//!   `(block, iteration)`; reachable states only;
//! - `numbering` (private): Algorithm 1, `numPaths`/`val` per iteration and the compensation
//!   `invalidPaths`/`cval` of section 3.2.2, with checked arithmetic;
//! - `identify` (private, [`KIteration::identify`]): Algorithm 2, id -> path, linear in the
//!   path's length;
//! - [`plan`]: removal of the dummy edges (section 4.1) and the instrumentation of Algorithm 3,
//!   as plain data ([`KIterPlan`]) that the VM and [`execute()`] run;
//! - [`mod@execute`]: runs a plan along a trace, as the VM's probes would (the paper's Table 2);
//! - [`report`]: the numbering tables (the paper's Table 1) and the static path listing.
//!
//! The VM's way in, for one function (a self-loop, K = 2, `header` path ends):
//!
//! ```
//! use profiler::k_iteration::{KIterConfig, KIterState, KIteration, KPlacement};
//! use profiler::{CfgBuilder, DepthFirst, Loops, PathEnds};
//! let mut b = CfgBuilder::new();
//! let (entry, body, exit) = (b.add_block(), b.add_block(), b.add_block());
//! b.add_edge(entry, body);
//! b.add_edge(body, body);
//! b.add_edge(body, exit);
//! let cfg = b.finish(entry, exit).unwrap();
//! let dfs = DepthFirst::compute(&cfg);
//! let loops = Loops::compute(&cfg, &dfs);
//! let kit = KIteration::compute(&cfg, &dfs, &loops, KIterConfig::new(2, PathEnds::Header)).unwrap();
//! let plan = kit.plan(KPlacement::DummyRemoval);
//! // One frame: entry, body, body, body, exit.
//! let mut ids = Vec::new();
//! let mut frame = KIterState::new(&plan);
//! for e in [cfg.succ_edge(entry, 0), cfg.succ_edge(body, 0), cfg.succ_edge(body, 0), cfg.succ_edge(body, 1)] {
//!     frame.take_edge(&plan, e, &mut |id| ids.push(id)).unwrap();
//! }
//! frame.finish(&plan, &mut |id| ids.push(id)).unwrap();
//! let paths: Vec<_> = ids.iter().map(|&id| kit.identify(id).unwrap().unwrap()).collect();
//! assert_eq!(paths[0].nodes, vec![entry]); // cut on arriving at the header
//! assert_eq!((paths[1].nodes.clone(), paths[1].end), (vec![body, body], Some(body))); // 2 iterations
//! assert_eq!(paths[2].nodes, vec![body, body, exit]); // started by the first back edge
//! ```
//!
//! **No aborts** (the paper gives up above 60,000 static paths). [`KIteration::compute`] first
//! numbers with every innermost loop as a k-loop. If a count exceeds `u64` or
//! [`KIterConfig::max_paths`], it checks that acyclic profiling of every loop fits, then demotes
//! k-loops to acyclic profiling, largest first (ranked by their saturated number of paths from
//! the header's first version), in cumulative batches of 1, 2, 4, ... loops until the numbering
//! fits. If even acyclic profiling does not fit, every loop is profiled acyclically and paths are
//! additionally cut at the extra cut blocks Ball-Larus numbering chooses for the same limit
//! ([`crate::ball_larus`]), so that K = 1 stays identical to Ball-Larus. Every demoted loop and
//! the cut blocks are reported in [`KIteration::fallbacks`] and in the plan
//! ([`Fallback::LoopToAcyclic`], [`Fallback::ExtraCuts`]; for K = 1, which is acyclic
//! profiling already, only the cuts).

pub mod execute;
mod identify;
mod numbering;
pub mod plan;
pub mod report;
mod unrolled;

pub use crate::executor::StreamItem;
pub use execute::{execute, ExecError, KIterFrame, KIterRun, KIterState, StepRow};
pub use plan::{Action, AfterExit, EdgeProbes, KIterPlan, KLoopInfo, KPlacement, Probe};

pub use crate::ball_larus::Fallback;

use crate::ball_larus::{BallLarus, BlError, Numbering};
use crate::cfg::{Block, Cfg};
use crate::dag::PathEnds;
use crate::dfs::DepthFirst;
use crate::loops::{LoopId, Loops};
use numbering::{Numbers, Overflow};
use std::fmt;
use unrolled::{KLoops, Unrolled};

/// Parameters of k-iteration numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KIterConfig {
    /// The number of iterations K a path may span (>= 1; K = 1 is Ball-Larus).
    pub k: u32,
    /// Where paths end.
    pub path_ends: PathEnds,
    /// The largest number of (valid and invalid) paths of the unrolled DAG accepted before
    /// falling back; `u64::MAX` by default. Tests lower it to force the fallbacks. Under it,
    /// every id is below `max_paths` too.
    pub max_paths: u64,
}

impl KIterConfig {
    /// K iterations, the given path ends, no limit below `u64`.
    pub fn new(k: u32, path_ends: PathEnds) -> Self {
        KIterConfig {
            k,
            path_ends,
            max_paths: u64::MAX,
        }
    }
}

/// Why k-iteration numbering is impossible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KIterError {
    /// K must be at least 1.
    ZeroK,
    /// Even cutting paths at every block leaves more than `max_paths` paths (a block's
    /// out-degree exceeds what the limit allows; see [`BlError::LimitTooSmall`]).
    LimitTooSmall {
        /// The configured limit.
        max_paths: u64,
    },
    /// The unrolled graph (about K + 1 states per block of a k-loop) would have more than
    /// 2^32 - 2 states or edges.
    TooLarge,
    /// A broken internal invariant (a bug), reported instead of panicking.
    Internal(String),
}

impl fmt::Display for KIterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KIterError::ZeroK => write!(f, "k-iteration profiling needs K >= 1"),
            KIterError::LimitTooSmall { max_paths } => {
                write!(f, "the path limit {max_paths} is too small even when paths are cut at every block")
            }
            KIterError::TooLarge => {
                write!(f, "K is too large for this CFG: the unrolled graph would exceed 2^32 states or edges")
            }
            KIterError::Internal(m) => write!(f, "internal error in k-iteration numbering: {m}"),
        }
    }
}

impl std::error::Error for KIterError {}

/// The k-iteration numbering of one CFG: the unrolled DAG with Algorithm 1's values, the
/// fallbacks taken, path identification ([`KIteration::identify`]) and the instrumentation plan
/// ([`KIteration::plan`]).
#[derive(Clone, Debug)]
pub struct KIteration<'a> {
    un: Unrolled<'a>,
    nums: Numbers,
    config: KIterConfig,
    fallbacks: Vec<Fallback>,
}

impl<'a> KIteration<'a> {
    /// Numbers the k-iteration paths of `cfg` (with its depth-first search and loops), falling
    /// back as described in the [module documentation](self) when the counts do not fit.
    pub fn compute(
        cfg: &'a Cfg,
        dfs: &'a DepthFirst,
        loops: &Loops,
        config: KIterConfig,
    ) -> Result<Self, KIterError> {
        if config.k == 0 {
            return Err(KIterError::ZeroK);
        }
        let limit = config.max_paths;
        let innermost: Vec<LoopId> = loops.ids().filter(|&l| loops.get(l).innermost).collect();
        let attempt = |chosen: &[LoopId],
                       cuts: &[Block]|
         -> Result<(Unrolled<'a>, Result<Numbers, Overflow>), KIterError> {
            let un = Unrolled::new(
                cfg,
                dfs,
                config.k,
                config.path_ends,
                KLoops::new(cfg, loops, chosen),
                cuts,
            )?;
            let nums = numbering::number(&un, limit);
            Ok((un, nums))
        };
        let (first, nums) = attempt(&innermost, &[])?;
        if let Ok(nums) = nums {
            return Ok(KIteration {
                un: first,
                nums,
                config,
                fallbacks: Vec::new(),
            });
        }
        let demoted = |ids: &[LoopId], why: &str| -> Vec<Fallback> {
            ids.iter()
                .map(|&id| Fallback::LoopToAcyclic {
                    header: loops.header(id),
                    reason: why.to_string(),
                })
                .collect()
        };
        // Acyclic numbering (of every loop) is Ball-Larus numbering: it fits if Ball-Larus
        // needs no extra cuts under the same limit.
        let bl = BallLarus::new(cfg, config.path_ends, Numbering::Canonical, limit).map_err(
            |e| match e {
                BlError::LimitTooSmall { limit, .. } => {
                    KIterError::LimitTooSmall { max_paths: limit }
                }
            },
        )?;
        if !bl.fallbacks().is_empty() {
            let cuts = bl.dag().extra_cuts().to_vec();
            let (un, nums) = attempt(&[], &cuts)?;
            let nums = nums.map_err(|_| {
                KIterError::Internal("the extra cuts do not make the ids fit".into())
            })?;
            let mut fallbacks = if config.k > 1 {
                demoted(&innermost, "even acyclic ids do not fit the limit")
            } else {
                Vec::new()
            };
            fallbacks.extend(bl.fallbacks().iter().cloned());
            return Ok(KIteration {
                un,
                nums,
                config,
                fallbacks,
            });
        }
        // Rank the k-loops by their saturated path count from the header's first version.
        let sat = numbering::saturating_paths(&first);
        let mut ranked: Vec<(u64, LoopId)> = innermost
            .iter()
            .enumerate()
            .map(|(i, &id)| (sat[first.state(first.kloops.header[i], 1) as usize], id))
            .collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut batch = 1usize;
        loop {
            let demoted_ids: Vec<LoopId> = ranked.iter().take(batch).map(|&(_, id)| id).collect();
            let kept: Vec<LoopId> = innermost
                .iter()
                .copied()
                .filter(|id| !demoted_ids.contains(id))
                .collect();
            let (un, nums) = attempt(&kept, &[])?;
            if let Ok(nums) = nums {
                let ids: Vec<LoopId> = innermost
                    .iter()
                    .copied()
                    .filter(|id| demoted_ids.contains(id))
                    .collect();
                let fallbacks = demoted(&ids, "its k-iteration ids do not fit the limit");
                return Ok(KIteration {
                    un,
                    nums,
                    config,
                    fallbacks,
                });
            }
            if batch >= ranked.len() {
                return Err(KIterError::Internal(
                    "acyclic numbering fits but demoting every loop does not".into(),
                ));
            }
            batch = (batch * 2).min(ranked.len());
        }
    }

    /// The parameters.
    pub fn config(&self) -> KIterConfig {
        self.config
    }

    /// K.
    pub fn k(&self) -> u32 {
        self.config.k
    }

    /// The CFG.
    pub fn cfg(&self) -> &'a Cfg {
        self.un.cfg
    }

    /// The number N of static k-iteration paths: the ids are exactly `0..N`.
    pub fn num_paths(&self) -> u64 {
        self.nums.num_paths()
    }

    /// The fallbacks taken (empty when every innermost loop is a k-loop and nothing is cut).
    pub fn fallbacks(&self) -> &[Fallback] {
        &self.fallbacks
    }

    /// The loops profiled over K iterations (innermost loops not demoted), in loop order.
    pub fn k_loops(&self) -> &[LoopId] {
        &self.un.kloops.ids
    }

    /// The extra cut blocks (empty unless acyclic ids did not fit).
    pub fn cut_blocks(&self) -> Vec<Block> {
        self.fallbacks
            .iter()
            .flat_map(|f| match f {
                Fallback::ExtraCuts { blocks, .. } => blocks.clone(),
                Fallback::LoopToAcyclic { .. } => Vec::new(),
            })
            .collect()
    }

    /// Whether k-loop `l` uses compensation (its header starts only `delta^start` paths, which
    /// are invalid when they leave the loop before K iterations). `None` if `l` is not a k-loop.
    pub fn is_compensated(&self, l: LoopId) -> Option<bool> {
        let i = self.un.kloops.ids.iter().position(|&x| x == l)?;
        Some(self.nums.compensated[i])
    }
}
