//! The profiling modes, one module each.

pub mod bl;
pub mod edge;
pub mod kbl;
pub mod kiter;
pub mod trace;
