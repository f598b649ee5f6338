//! placeholder
pub mod libc;
pub mod printf;
