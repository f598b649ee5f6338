//! The interpreter's probe hooks: how profilers observe execution.
//!
//! The dispatch loop ([`crate::interp::execute`]) is generic over a [`Probes`] type and is
//! monomorphised once per profiling mode, as Lua's `lvm.c` routes hooks through one flag but
//! without even the flag test: with [`NoProbes`] every hook is an empty inline function behind
//! `if P::ENABLED`, a constant `false`, so the `none` build of the loop contains no probe code
//! at all. A mode pays only for the hooks it implements.
//!
//! Hook points (all carry the running function and the pc of the instruction concerned):
//! * [`Probes::on_entry`]: a function was entered (its frame is set up, before its first
//!   instruction). Tier-0 invocation counters live here.
//! * [`Probes::on_branch`]: a conditional branch at `pc` was taken or not.
//! * [`Probes::on_switch`]: a jump table at `pc` selected `target`.
//! * [`Probes::on_back_edge`]: control is about to move from `pc` to a lower (or equal)
//!   `target`. Every loop is compiled with its test at the bottom, so this fires once per
//!   repeated iteration of every loop: for `while`/`for` loops it is the bottom test's branch
//!   back to the body (their CFG header is the test block, entered by the jump from the loop
//!   entry and by falling out of the body); for `do`-`while`, fused `for` loops and
//!   `for (;;)` it is the back edge to the header itself. This is the yield point for
//!   on-stack replacement: returning `Some(Osr)` makes the frame continue in another code
//!   version of the same function (see [`Osr`]).
//! * [`Probes::on_return`]: the function is about to return (or the program to exit in it).
//!
//! Instrumented code (issue 4) will add probe *instructions* to a copy of a function's code;
//! they dispatch to further hooks on the same trait, so the same rule holds: a mode that does
//! not use them never sees them.

use lang::bytecode::{FuncIdx, Pc};

/// A request to switch the running frame to another code version at a loop header
/// (on-stack replacement). The version must be a version of the same function with the same
/// register and array layout; execution continues at `pc` in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Osr {
    /// Index of the code version in [`crate::interp::Machine::versions`].
    pub version: u32,
    /// Where to continue in that version.
    pub pc: Pc,
}

/// Observers of execution; see the module docs. Every method has an empty default.
pub trait Probes {
    /// False if no hook does anything: the loop then skips all hook calls at compile time.
    const ENABLED: bool;

    /// Function `func` was entered.
    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        let _ = func;
    }

    /// The conditional branch at `pc` of `func` was `taken` or fell through.
    #[inline(always)]
    fn on_branch(&mut self, func: FuncIdx, pc: Pc, taken: bool) {
        let _ = (func, pc, taken);
    }

    /// The jump table at `pc` of `func` jumped to `target`.
    #[inline(always)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        let _ = (func, pc, target);
    }

    /// Control moves backwards from `pc` to `target` in `func` (a loop-header arrival).
    /// Return `Some` to continue in another code version (on-stack replacement).
    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        let _ = (func, pc, target);
        None
    }

    /// Function `func` returns (or the program exits while it runs).
    #[inline(always)]
    fn on_return(&mut self, func: FuncIdx) {
        let _ = func;
    }
}

/// No profiling: the pure interpreter.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbes;

impl Probes for NoProbes {
    const ENABLED: bool = false;
}
