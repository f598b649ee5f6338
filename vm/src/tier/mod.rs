//! Tiered execution with path probes (issue 4): the pieces that turn a function's bytecode into
//! something the `profiler` crate can number, and the references that check the result.
//!
//! - [`cfg_build`]: the CFG of one code version, with the maps between pcs and blocks and between
//!   bytecode edges (a branch at a pc, taken or not, or one arm of a jump table) and CFG edges;
//!   its module docs say where the loop headers (yield points) are in the bytecode.
//! - [`oracle`]: paths by definition: splits the blocks one activation entered into paths under
//!   a path-end strategy and counts them, independently of any numbering. The `bl` sink's
//!   counts are checked against it.
//!
//! The design of the remaining parts (tier-0 counters, tier-up, instrumented code, OSR, sinks)
//! is in `docs/design/tiering.md`.

pub mod cfg_build;
pub mod codegen;
pub mod tier0;
pub mod tiering;
