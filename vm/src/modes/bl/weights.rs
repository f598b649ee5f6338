//! The weights smart numbering orders a block's edges by: how much a nonzero value on each
//! edge would cost the instrumented code, not only how often the edge runs.
//!
//! Smart numbering (Bond & McKinley 2005; the k-BLPP paper's section 3.2) gives the first edge
//! out of every block, in order of decreasing weight, the value 0, so that edge needs no
//! increment. With the edge frequencies as weights, the hottest edge is free. But in this VM
//! an increment costs a dispatch only on some edges: the rest carry it for nothing or for an
//! add ([`super::tierup::lower`]):
//! - a cut edge (a path end): its value is a constant of the count it makes anyway (unless
//!   the path end may move to the branch of the block it enters, [`super::delay`]);
//! - an edge into the exit: the return counts the path (`RetPc`), the value is its constant;
//! - a `Jmp`'s edge: the jump becomes a `PathJmp` carrying the increment;
//! - an edge into a chain of blocks with one way in and one way out that reaches one of those:
//!   the increment moves along the chain (`fold_lone_increments` in [`super::tierup`]).
//!
//! On the other edges (a fall-through into a join, a conditional branch taken, a jump-table
//! arm) a value costs a `PathAdd` or a `PathJmp` stub, one dispatch each time the edge runs.
//! So each edge weighs its frequency times what a value would cost there: nothing where it
//! merges into a count or a path start, an add where a `Jmp` carries it, a dispatch and an
//! add (about twice that) elsewhere; the 0 goes to the edge where a value would cost most. An
//! `if`-`else` whose arms run equally often (a binary search) now puts its value on the `then`
//! arm, whose `Jmp` over the `else` carries it, instead of on the `else` arm's branch, which
//! needed a stub. The order only changes which id a path gets: the ids stay dense and every
//! count the same.

use lang::bytecode::Function;
use profiler::{Cfg, DepthFirst, Edge, EdgeProfile, PathDag, PathEnds};

use super::delay;
use crate::tier::cfg_build::FunctionCfg;
use crate::tier::codegen::{self, Carrier};

/// What a nonzero value on an edge costs each time the edge runs, in units of the add that a
/// `PathJmp` does more than a `Jmp` (about six machine instructions: the constant, the
/// register in the machine, the add, the store). A `PathAdd` or a stub costs that add and a
/// dispatch (about five more, and a mispredicted indirect jump now and then): about twice.
/// (A factor of 3 made heapsort's inner loop pay the add on its hot arm: at tier-up, in the
/// heap's building, both arms had run about as often.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueCost {
    /// Part of a constant the edge's probes load anyway: a count's or a path start's.
    Merged = 0,
    /// Carried by a `Jmp`, which becomes a `PathJmp`: an add, no dispatch.
    OnJump = 1,
    /// An instruction of its own (a `PathAdd`) or a stub (a `PathJmp` after a taken branch
    /// or a jump-table arm): a dispatch and an add.
    Dispatch = 2,
}

/// `profile`'s weights, each multiplied by what a value on its edge would cost (see the module
/// docs): the numbering of `fc` under `path_ends` should order each block's edges by these.
pub fn by_dispatch_cost(
    fc: &FunctionCfg,
    func: &Function,
    path_ends: PathEnds,
    profile: &EdgeProfile,
) -> EdgeProfile {
    let cfg = fc.cfg();
    let dag = PathDag::new(cfg, &DepthFirst::compute(cfg), path_ends, &[]);
    let mut weights = profile.clone();
    // The entry's edge keeps its weight: its value would be a constant the call cannot set.
    for e in cfg.edges().filter(|&e| cfg.source(e) != cfg.entry()) {
        let cost = value_cost(fc, func, &dag, e) as u64;
        weights.edges[e] = weights.edges[e].saturating_mul(cost);
    }
    weights
}

/// What a nonzero value on edge `e` would cost: followed along the chain of one-way blocks
/// it leads into, as `fold_lone_increments` moves it.
fn value_cost(fc: &FunctionCfg, func: &Function, dag: &PathDag, e: Edge) -> ValueCost {
    let cfg: &Cfg = fc.cfg();
    let mut cur = e;
    loop {
        // A cut edge into a block whose path ends may be delayed to its branch only adds its
        // part of the id there ([`super::delay`]): like an edge into a join.
        if (dag.is_cut(cur) && !delay::may_delay(fc, func, cfg.target(cur)))
            || cfg.target(cur) == cfg.exit()
        {
            return ValueCost::Merged;
        }
        if codegen::carrier(fc, func, cur) == Some(Carrier::Jump) {
            return ValueCost::OnJump;
        }
        match fc.one_way_next(cur) {
            Some(next) => cur = next,
            None => return ValueCost::Dispatch,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::bl::tierup::tier_up_bl;
    use lang::bytecode::{FuncIdx, Instr};

    const LOWER_BOUND: &str = "int lower_bound(int *a, int n, int key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
}
int main(void) { int a[4] = {1, 2, 3, 4}; return lower_bound(a, 4, 3); }
";

    #[test]
    fn equal_arms_put_the_value_on_the_arm_whose_jump_carries_it() {
        let program = lang::compile_source("t.c", LOWER_BOUND).expect("compiles");
        let func = &program.functions[0];
        assert_eq!(func.name, "lower_bound");
        // Every edge equally hot: frequencies alone keep the canonical order, which gives
        // the `else` arm (the branch taken) the value, and so a `PathJmp` stub.
        let flat = |fc: &FunctionCfg| {
            let mut p = EdgeProfile::zeros(fc.cfg());
            for e in fc.cfg().edges() {
                p.edges[e] = 1000;
            }
            p
        };
        let (t, version) =
            tier_up_bl(FuncIdx(0), func, PathEnds::Header, Some(&flat), 0, 0).expect("tiers up");
        let code = &version.code;
        assert_eq!(t.bl.num_paths(), 4);
        // The only instruction added is the loop exit's `PathEnd` (the test's path end is
        // counted in its branch's `Pe` twin): the `then` arm's value rides on its `Jmp` back
        // to the test, and no arm needs a stub or a `PathAdd`.
        assert!(
            !code.iter().any(|i| matches!(i, Instr::PathAdd { .. })),
            "{code:?}"
        );
        assert_eq!(code.len(), func.code.len() + 1, "{code:?}");
    }

    #[test]
    fn a_hot_arm_keeps_its_jump_plain_when_the_cold_arm_pays_less() {
        let program = lang::compile_source("t.c", LOWER_BOUND).expect("compiles");
        let func = &program.functions[0];
        // The `then` arm runs 100 times as often as the `else` arm: an add on each of its
        // runs costs more than a stub on each of the other's.
        let skewed = |fc: &FunctionCfg| {
            let mut p = EdgeProfile::zeros(fc.cfg());
            for e in fc.cfg().edges() {
                let into_else = fc.cfg().target(e) != fc.cfg().exit()
                    && codegen::carrier(fc, func, e) == Some(Carrier::Branch)
                    && fc.is_forward(e);
                p.edges[e] = if into_else { 10 } else { 1000 };
            }
            p
        };
        let (_, version) =
            tier_up_bl(FuncIdx(0), func, PathEnds::Header, Some(&skewed), 0, 0).expect("tiers up");
        let code = &version.code;
        // The `then` arm (`lo = mid + 1`, an `AddI32` by 1) ends in a plain `Jmp`; the `else`
        // arm's branch gets a stub.
        let then_end = code
            .iter()
            .position(|i| matches!(i, Instr::AddI32 { imm: 1, .. }))
            .expect("the then arm");
        assert!(matches!(code[then_end + 1], Instr::Jmp { .. }), "{code:?}");
        assert_eq!(code.len(), func.code.len() + 2, "{code:?}");
    }
}
