//! Path profiling algorithms on control-flow graphs, independent of any VM.
//!
//! Layers, each in its own module:
//! - [`index`]: typed `u32` indices ([`define_index!`]) and [`index::IndexVec`];
//! - [`cfg`]: the [`cfg::Cfg`] (ordered successors, one entry, one exit) and its builder;
//!   [`cfg_text`]: the `.cfg` text format;
//! - analyses: [`dfs`] (back edges, headers), [`loops`] (natural loops, nesting forest,
//!   innermost loops), [`dominators`] (and reducibility);
//! - [`dag`]: the path DAG with Ball-Larus dummy edges, for both path-end strategies;
//! - [`ball_larus`]: canonical and smart numbering, with checked counts and the overflow fallback.
#![deny(missing_docs)]

pub mod ball_larus;
pub mod cfg;
pub mod cfg_command;
pub mod cfg_text;
pub mod dag;
pub mod dfs;
pub mod dominators;
pub mod executor;
pub mod generate;
pub mod index;
pub mod k_iteration;
pub mod loops;
pub mod placement;
pub mod plan;
pub mod regenerate;
pub mod trace;

pub use ball_larus::{BallLarus, BlError, EdgeProfile, Fallback, Numbering, NumberingKind};
pub use cfg::{Block, Cfg, CfgBuilder, CfgError, Edge};
pub use dag::{DagEdge, DagEdgeKind, PathDag, PathEnds};
pub use dfs::DepthFirst;
pub use dominators::Dominators;
pub use executor::{execute, Execution, Instrumentation, StreamItem};
pub use loops::{LoopId, Loops};
pub use plan::{BlPlan, Placement, Probe};
pub use regenerate::Path;
pub use trace::{Trace, TraceError};
