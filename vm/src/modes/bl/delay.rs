//! Path ends delayed to the branch of the block they end at.
//!
//! Under `header` path ends every arrival at a loop header `H` ends a path: the edge `u -> H`
//! runs `count(r + c); r = s` (`c` the value of the dummy edge `u -> EXIT`, `s` that of
//! `ENTRY -> H`, the k-BLPP paper's section 3.2). When the edge is a fall-through, as the end
//! of a `while` or `for` body falling into its test placed after it, that is one `PathEnd`
//! instruction, one more dispatch per iteration; and the test's edge back into the body, being
//! a taken edge, needs a `PathJmp` stub for its increment.
//!
//! When `H` is a block whose last instruction is a conditional branch, the count can wait
//! until the branch: the edges into `H` only add `c` (nothing when `c = 0`, the usual value of
//! a body's last edge), and each of `H`'s two edges out runs `count(r); r = s + val(H -> x)`.
//! The taken one is then the branch's `Pe` twin (no dispatch), the fall-through one a
//! `PathEnd`. Every path is counted with the same id, once, and in the same order relative to
//! every other path: nothing but `H`'s own instructions runs between the arrival and the
//! count, and they cannot end the run (`cannot_end_the_run`: no call, whose callee could
//! `exit`, no access that could trap), so a run never stops with a completed path uncounted.
//!
//! Which headers: those where every arrival ends a path (a loop header under `header` path
//! ends, or an extra cut block), whose branch has two distinct edges out, neither ending a
//! path nor leaving the function, and whose edges in are all forward in the code (no signal
//! poll between an arrival and its count: polls are at backward jumps) and add their `c`
//! without a stub (a fall-through or a `Jmp`, or `c = 0`). Among those, the ones where the
//! expected dispatches fall, by the tier-0 counts completed by the static estimate
//! ([`EdgeProfile::with_static_estimate`]): before, one per fall-through arrival and one per
//! exit with an increment; after, one per arrival with a non-zero `c` by fall-through and
//! one per exit by the fall-through edge.
//!
//! An on-stack replacement into `H` starts with the path in progress unknown
//! ([`crate::probes::Osr::path`] `None`): the count at `H`'s branch is then the tier-0 path's,
//! and is dropped.
//!
//! (Headers that read an array in their test, `while (a[i] != x)`, would gain too, but an
//! out-of-bounds read there would stop the run between the arrival and the count. Counting
//! that path after the trap needs the trap's pc outside the loop, and every way tried of
//! keeping it, in the machine or in a thread-local set by the stack-trace builder, made
//! LLVM compile the interpreter loop differently: `bl` ran 5% more instructions on `fib`,
//! which has no loop at all. Measured with callgrind.)

use lang::bytecode::{Flow, Function, Instr};
use profiler::index::IndexVec;
use profiler::{BlPlan, Block, Edge, EdgeProfile, Placement, Probe};

use crate::tier::cfg_build::{BlockKind, FunctionCfg};
use crate::tier::codegen::{carrier, Carrier};

/// The headers of `plan` whose path ends are delayed to their branch (see the module docs),
/// as a flag per block. `weights` are the edge weights the numbering used.
pub fn delayed_headers(
    plan: &BlPlan,
    fc: &FunctionCfg,
    func: &Function,
    weights: &EdgeProfile,
) -> IndexVec<Block, bool> {
    let cfg = fc.cfg();
    let mut delayed = IndexVec::from_elem(false, cfg.num_blocks());
    if plan.placement != Placement::Plain {
        return delayed;
    }
    for h in cfg.blocks() {
        delayed[h] = delay_pays(plan, fc, func, weights, h).unwrap_or(false);
    }
    delayed
}

/// Whether delaying `h`'s path ends is allowed and saves dispatches; `None` when not allowed.
fn delay_pays(
    plan: &BlPlan,
    fc: &FunctionCfg,
    func: &Function,
    weights: &EdgeProfile,
    h: Block,
) -> Option<bool> {
    let cfg = fc.cfg();
    if !plan.every_arrival_starts_a_path(h) || !matches!(plan.start[h], Probe::Set(_)) {
        return None;
    }
    if !may_delay(fc, func, h) {
        return None;
    }
    let outs: Vec<Edge> = cfg.succ_edges(h).collect();
    let [a, b] = outs[..] else { return None };
    if [a, b]
        .iter()
        .any(|&x| plan.cut[x] || cfg.target(x) == cfg.exit())
    {
        return None;
    }
    let w = |e: Edge| weights.edges[e];
    let mut before = 0u64;
    let mut after = 0u64;
    for &e in cfg.pred_edges(h) {
        let Probe::CountAdd(c) = plan.edges[e] else {
            return None;
        };
        if !plan.cut[e] {
            return None;
        }
        let carrier = carrier(fc, func, e)?;
        let stub_for_add = c != 0 && matches!(carrier, Carrier::Branch | Carrier::Arm);
        if !fc.is_forward(e) || stub_for_add {
            return None;
        }
        if matches!(carrier, Carrier::FallThrough | Carrier::Arm) {
            before = before.saturating_add(w(e));
        }
        if c != 0 && carrier == Carrier::FallThrough {
            after = after.saturating_add(w(e));
        }
    }
    for x in [a, b] {
        let increment = !matches!(plan.edges[x], Probe::None | Probe::Add(0));
        let carrier = carrier(fc, func, x)?;
        if increment {
            before = before.saturating_add(w(x));
        }
        if carrier == Carrier::FallThrough {
            after = after.saturating_add(w(x));
        }
    }
    Some(after < before)
}

/// Whether block `h`'s code could have its path ends delayed, whatever the numbering: a
/// conditional branch with two distinct edges out, after instructions that cannot end the run.
pub fn may_delay(fc: &FunctionCfg, func: &Function, h: Block) -> bool {
    let BlockKind::Code { start, end } = fc.block(h).kind else {
        return false;
    };
    let code = &func.code[start.index()..end.index()];
    let Some((branch, before)) = code.split_last() else {
        return false;
    };
    branch.flow() == Flow::Cond
        && before.iter().all(cannot_end_the_run)
        && fc.cfg().out_degree(h) == 2
}

/// Whether `ins` always passes control to the next instruction: no call, no trap, no exit
/// (a conservative list: register moves and constants, integer and floating arithmetic that
/// wraps or rounds, shifts by a constant, comparisons, conversions between registers, reads of
/// globals).
fn cannot_end_the_run(ins: &Instr) -> bool {
    use Instr::*;
    matches!(
        ins,
        Mov { .. }
            | LoadI { .. }
            | LoadK { .. }
            | GetG8S { .. }
            | GetG8U { .. }
            | GetG16S { .. }
            | GetG16U { .. }
            | GetG32S { .. }
            | GetG32U { .. }
            | GetG64 { .. }
            | GetGF32 { .. }
            | Add32 { .. }
            | Add64 { .. }
            | AddU32 { .. }
            | AddI32 { .. }
            | AddI64 { .. }
            | AddIU32 { .. }
            | Sub32 { .. }
            | Sub64 { .. }
            | SubU32 { .. }
            | Mul32 { .. }
            | Mul64 { .. }
            | MulU32 { .. }
            | MulI32 { .. }
            | MulI64 { .. }
            | MulIU32 { .. }
            | Neg32 { .. }
            | Neg64 { .. }
            | NegU32 { .. }
            | And { .. }
            | AndI { .. }
            | Or { .. }
            | Xor { .. }
            | Not { .. }
            | NotU32 { .. }
            | ShlI32 { .. }
            | ShlI64 { .. }
            | ShlIU32 { .. }
            | ShrI { .. }
            | SarI { .. }
            | Sext8 { .. }
            | Sext16 { .. }
            | Sext32 { .. }
            | Zext8 { .. }
            | Zext16 { .. }
            | Zext32 { .. }
            | Eq { .. }
            | Ne { .. }
            | Lt { .. }
            | Le { .. }
            | LtU { .. }
            | LeU { .. }
            | EqF { .. }
            | NeF { .. }
            | LtF { .. }
            | LeF { .. }
            | IsZero { .. }
            | IsZeroF { .. }
            | ToBool { .. }
            | ToBoolF { .. }
            | AddF { .. }
            | SubF { .. }
            | MulF { .. }
            | NegF { .. }
            | I2F { .. }
            | U2F { .. }
    )
}

#[cfg(test)]
mod tests {
    use lang::bytecode::FuncIdx;
    use profiler::PathEnds;

    use super::*;
    use crate::modes::bl::tierup::tier_up_bl;

    /// The delayed headers of `main` in `src`, and the instructions of its instrumented code.
    fn tier_up_main(src: &str, ends: PathEnds) -> (Vec<Block>, Vec<Instr>) {
        let program = lang::compile_source("t.c", src).expect("compiles");
        let (i, func) = program
            .functions
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == "main")
            .expect("main");
        let (tiered, version) = tier_up_bl(FuncIdx(i as u16), func, ends, None, 0, 0).unwrap();
        let delayed = tiered
            .delayed
            .iter_enumerated()
            .filter(|(_, &d)| d)
            .map(|(b, _)| b)
            .collect();
        (delayed, version.code.to_vec())
    }

    const STRIDED: &str = "int main(void) {
    int s = 0;
    for (int i = 0; i < 1000; i += 3) s += i;
    return s & 255;
}
";

    #[test]
    fn a_test_after_its_body_counts_the_iteration_in_its_branch() {
        let (delayed, code) = tier_up_main(STRIDED, PathEnds::Header);
        assert_eq!(delayed.len(), 1, "{code:?}");
        // The body falls into the test: no `PathEnd` between them, the branch back into the
        // body is a `Pe` twin, and the only `PathEnd` left is on the loop's exit.
        let pe = code.iter().filter(|i| i.name().ends_with("Pe")).count();
        let ends = code
            .iter()
            .filter(|i| matches!(i, Instr::PathEnd { .. }))
            .count();
        assert_eq!((pe, ends), (1, 1), "{code:?}");
    }

    #[test]
    fn backedge_path_ends_and_tests_that_may_trap_are_not_delayed() {
        assert!(tier_up_main(STRIDED, PathEnds::Backedge).0.is_empty());
        let reads = "int a[100];
int main(void) {
    int i = 0;
    while (a[i] != 7 && i < 99) i += 2;
    return i;
}
";
        let (delayed, code) = tier_up_main(reads, PathEnds::Header);
        assert!(delayed.is_empty(), "{code:?}");
    }
}
