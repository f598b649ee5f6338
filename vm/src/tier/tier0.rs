//! Tier 0: the cheap counters the baseline interpreter keeps for every function (the k-BLPP
//! paper's section 3.1: Jikes RVM's baseline compiler counts invocations and loop iterations to
//! pick methods to optimise, and edge counts to guide them).
//!
//! Per function: `heat` (invocations plus backward jumps: at least one per loop iteration, see
//! [`super::cfg_build`]), the number of invocations, and for every conditional branch its
//! not-taken/taken counts, in one flat vector indexed `offset[f] + 2 * pc + taken` (one load
//! of the offset and one increment per branch); jump tables count their targets in a hash map
//! (rare). [`Tier0::edge_profile`] turns the counts into the edge profile smart numbering
//! wants.

use hashbrown::HashMap;
use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::EdgeProfile;

use super::cfg_build::FunctionCfg;

/// The tier-0 counters of every function of a program.
#[derive(Clone, Debug)]
pub struct Tier0 {
    /// Invocations plus backward jumps, per function: the tier-up trigger.
    pub heat: Vec<u64>,
    /// Invocations per function.
    pub invocations: Vec<u64>,
    branch_offset: Vec<usize>,
    branch: Vec<u64>,
    switch: HashMap<(FuncIdx, Pc, Pc), u64>,
}

impl Tier0 {
    /// Zero counters for every function of `program`.
    pub fn new(program: &Program) -> Tier0 {
        let mut branch_offset = Vec::with_capacity(program.functions.len());
        let mut total = 0;
        for f in &program.functions {
            branch_offset.push(total);
            total += 2 * f.code.len();
        }
        let n = program.functions.len();
        Tier0 {
            heat: vec![0; n],
            invocations: vec![0; n],
            branch_offset,
            branch: vec![0; total],
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

    /// The conditional branch at `pc` of `func` went one way.
    #[inline(always)]
    pub fn branch(&mut self, func: FuncIdx, pc: Pc, taken: bool) {
        let i = self.branch_offset[func.index()] + 2 * pc.index() + usize::from(taken);
        self.branch[i] += 1;
    }

    /// The jump table at `pc` of `func` went to `target`.
    #[inline]
    pub fn switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        *self.switch.entry((func, pc, target)).or_insert(0) += 1;
    }

    /// The times the branch at `pc` of `func` went one way.
    pub fn branch_count(&self, func: FuncIdx, pc: Pc, taken: bool) -> u64 {
        self.branch
            .get(self.branch_offset[func.index()] + 2 * pc.index() + usize::from(taken))
            .copied()
            .unwrap_or(0)
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
