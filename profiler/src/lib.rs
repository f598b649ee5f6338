//! Path profiling algorithms on control-flow graphs, independent of any VM: the profiler works
//! on its own [`Cfg`] type; the VM builds one per function from bytecode and applies the plans.
//!
//! Layers, each in its own module (one job per module):
//! - [`index`]: typed `u32` indices ([`define_index!`]) and [`index::IndexVec`];
//! - [`cfg`](mod@cfg): the [`Cfg`] (ordered successors, one entry, one exit) and its
//!   [`CfgBuilder`]; [`cfg_text`]: the `.cfg` text format;
//! - analyses: [`dfs`] (back edges, headers), [`loops`] (natural loops, nesting forest,
//!   innermost loops), [`dominators`] (and reducibility);
//! - [`dag`]: the path DAG with Ball-Larus dummy edges, for both path-end strategies;
//! - [`ball_larus`]: canonical and smart numbering, checked counts and the overflow fallback;
//!   [`regenerate`]: id -> path; [`placement`]: plain and event-counting increments, producing a
//!   [`plan`] ([`BlPlan`]: the probes the VM applies);
//! - [`k_iteration`]: Roy & Srikant's k-iteration paths on the same CFG, loops and DAG;
//! - [`overlap`]: Tallam, Zhang & Gupta's overlapping paths (Ball-Larus paths extended past
//!   back edges), their path graph and numbering, and the bounds they give on two-iteration
//!   paths;
//! - [`interproc`]: Melski & Reps' interprocedural paths (context and piecewise), numbered on
//!   the supergraph with linear edge functions;
//! - [`trace`] (traces with `( ... )^N` groups), [`executor`] (runs any plan along a trace as the
//!   VM's probes would), [`cfg_command`] (the logic of `vmrun cfg`), [`generate`] (random CFGs).
//!
//! The VM's way in, for one function:
//!
//! ```
//! use profiler::{BallLarus, CfgBuilder, Numbering, PathEnds, Placement};
//! let mut b = CfgBuilder::new();
//! let (entry, body, exit) = (b.add_block(), b.add_block(), b.add_block());
//! b.add_edge(entry, body);
//! b.add_edge(body, body); // successors in branch order
//! b.add_edge(body, exit);
//! let cfg = b.finish(entry, exit).unwrap();
//! let bl = BallLarus::new(&cfg, PathEnds::Header, Numbering::Canonical, u64::MAX).unwrap();
//! let plan = bl.plan(&cfg, Placement::Plain, None);
//! // Taking the i-th successor edge of a block runs `plan.edges[cfg.succ_edge(block, i)]`, then,
//! // if that edge ends a path (`plan.cut[e]`), `plan.start[target]`; `plan.entry` and `plan.exit`
//! // run at the entry and the exit. Counted ids regenerate to paths:
//! assert_eq!(bl.num_paths(), 3);
//! assert_eq!(bl.regenerate(&cfg, 0).unwrap().nodes, vec![entry]); // cut at the header `body`
//! ```
#![deny(missing_docs)]

pub mod ball_larus;
pub mod cfg;
pub mod cfg_command;
pub mod cfg_text;
pub mod counters;
pub mod dag;
pub mod dfs;
pub mod dominators;
pub mod edge_counting;
pub mod executor;
pub mod explain;
pub mod generate;
pub mod index;
pub mod interproc;
pub mod k_iteration;
pub mod kblpp;
pub mod loops;
pub mod overlap;
pub mod path_hash;
pub mod placement;
pub mod plan;
pub mod regenerate;
pub mod trace;

pub use ball_larus::{BallLarus, BlError, EdgeProfile, Fallback, Numbering, NumberingKind};
pub use cfg::{Block, Cfg, CfgBuilder, CfgError, Edge};
pub use dag::{DagEdge, DagEdgeKind, PathDag, PathEnds};
pub use dfs::DepthFirst;
pub use dominators::Dominators;
pub use edge_counting::{Boundary, DeriveError, EdgeCounting};
pub use executor::{execute, Execution, Instrumentation, StreamItem};
pub use loops::{LoopId, Loops};
pub use plan::{BlPlan, Placement, Probe};
pub use regenerate::Path;
pub use trace::{Trace, TraceError};
