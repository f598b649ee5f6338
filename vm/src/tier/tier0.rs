//! Tier 0: the cheap counters the baseline interpreter keeps for every function (the k-BLPP
//! paper's section 3.1: Jikes RVM's baseline compiler counts invocations and loop iterations to
//! pick methods to optimise, and edge counts to guide them).
//!
//! Per function: `heat` (invocations plus backward jumps: at least one per loop iteration, see
//! [`super::cfg_build`]) and the number of invocations, counted by the sink's hooks; for every
//! conditional branch its not-taken/taken counts, which the interpreter loop keeps itself in
//! the compiled versions' counters ([`crate::branch_counts`]: one increment per branch, no
//! hook); jump tables count their targets in a hash map (rare).
//! [`Tier0::edge_profile`] turns the counts into the edge profile smart numbering wants.

use hashbrown::HashMap;
use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::EdgeProfile;

use super::cfg_build::FunctionCfg;
use crate::branch_counts::BranchCounts;

/// The tier-0 counters of every function of a program.
#[derive(Clone, Debug)]
pub struct Tier0 {
    /// Invocations plus backward jumps, per function: the tier-up trigger.
    pub heat: Vec<u64>,
    /// Invocations per function.
    pub invocations: Vec<u64>,
    branch: BranchCounts,
    switch: HashMap<(FuncIdx, Pc, Pc), u64>,
}

impl Tier0 {
    /// Zero counters for every function of `program`, reading branch counts from `branch`
    /// (the machine's, [`crate::interp::Machine::branch_counts`]).
    pub fn new(program: &Program, branch: BranchCounts) -> Tier0 {
        let n = program.functions.len();
        Tier0 {
            heat: vec![0; n],
            invocations: vec![0; n],
            branch,
            switch: HashMap::new(),
        }
    }

    /// `func` was entered; returns its new heat.
    #[inline(always)]
    pub fn entry(&mut self, func: FuncIdx) -> u64 {
        let f = func.index();
        self.invocations[f] += 1;
        self.heat[f] += 1;
        self.heat[f]
    }

    /// A backward jump in `func`; returns its new heat.
    #[inline(always)]
    pub fn back_edge(&mut self, func: FuncIdx) -> u64 {
        let h = &mut self.heat[func.index()];
        *h += 1;
        *h
    }

    /// The jump table at `pc` of `func` went to `target`.
    #[inline]
    pub fn switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        *self.switch.entry((func, pc, target)).or_insert(0) += 1;
    }

    /// The times the branch at `pc` of `func` went one way.
    pub fn branch_count(&self, func: FuncIdx, pc: Pc, taken: bool) -> u64 {
        self.branch.get(func, pc, taken)
    }

    /// The times the jump table at `pc` of `func` went to `target`.
    pub fn switch_count(&self, func: FuncIdx, pc: Pc, target: Pc) -> u64 {
        self.switch.get(&(func, pc, target)).copied().unwrap_or(0)
    }

    /// The edge profile of `func` (whose compiled code's CFG is `fc`) the counters imply.
    pub fn edge_profile(&self, func: FuncIdx, fc: &FunctionCfg) -> EdgeProfile {
        fc.edge_profile(
            self.invocations[func.index()],
            |pc, taken| self.branch_count(func, pc, taken),
            |pc, target| self.switch_count(func, pc, target),
        )
    }
}
