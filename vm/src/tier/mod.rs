//! Tiered execution: what every profiling mode that instruments shares ([`crate::modes`] holds
//! the modes themselves).
//!
//! - [`cfg_build`]: the CFG of one code version, with the maps between pcs and blocks and between
//!   bytecode edges (a branch at a pc, taken or not, or one arm of a jump table) and CFG edges;
//!   its module docs say where the loop headers (yield points) are in the bytecode.
//! - [`tier0`]: the tier-0 counters (heat, branch and jump-table outcomes) and the edge profile
//!   they give;
//! - [`tiering`]: where each function stands (compiled, instrumented, failed), the queue of
//!   instrumented versions, tier-up costs;
//! - [`codegen`]: the instrumented copy of a function (probe instructions on CFG edges).
//!
//! The design (tier-0 counters, tier-up, instrumented code, OSR) is in
//! `docs/design/tiering.md`.

pub mod cfg_build;
pub mod codegen;
pub mod tier0;
pub mod tiering;
