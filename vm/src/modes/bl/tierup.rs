//! Tier-up for Ball-Larus profiling: a function's CFG, its path numbering, its plan, and the
//! instrumented copy of its code (the k-BLPP paper's section 3.2, as in Jikes RVM: paths are
//! numbered when a method is recompiled, with the baseline's edge counts).
//!
//! Steps, for function `f`:
//! 1. [`FunctionCfg::of_function`] on the compiled code (kept: the profile reports its blocks);
//! 2. [`BallLarus::new`] under the run's path-end strategy: smart numbering from the tier-0
//!    edge profile ([`crate::tier::tier0::Tier0::edge_profile`], completed by the static
//!    estimate for the loops that had not run yet: [`EdgeProfile::with_static_estimate`]; the
//!    hottest successor of every branch that would pay a dispatch for an increment gets
//!    increment 0: [`weights`]), or canonical numbering when the function tiers up before
//!    running (`--tier-up 0`, no counts yet); no limit but the 64-bit id width, beyond which
//!    the profiler cuts paths at extra blocks by itself (reported as a fallback);
//! 3. [`BallLarus::plan`] with [`Placement::Plain`]: every path starts with `r = value`,
//!    every edge adds its value, and every path end counts `r + c`;
//! 4. [`delay::delayed_headers`]: the loop headers whose path ends are better counted at
//!    their branch than on arrival (a `while` test placed after its body, which the body
//!    falls into: no `PathEnd` per iteration, the count rides on the branch's `Pe` twin);
//! 5. [`lower`]: each CFG edge's probes become path instructions
//!    ([`lang::bytecode::Instr::PathAdd`] and friends), adjacent probes merged (an increment
//!    followed by a count is one `PathCount`; a count followed by the next path's start is
//!    one `PathEnd`); the entry's `r = 0` is left to the call, which zeroes the register;
//! 6. [`codegen::instrument`] lays out the new version.

use lang::bytecode::{FuncIdx, Function, Instr, Pc};
use profiler::index::IndexVec;
use profiler::{
    BallLarus, BlPlan, Block, Edge, EdgeProfile, Numbering, PathEnds, Placement, Probe,
};
use smallvec::SmallVec;

use super::{delay, weights};
use crate::probes::Osr;
use crate::tier::cfg_build::FunctionCfg;
use crate::tier::codegen::{self, ProbeCode};
use crate::version::Version;

/// A function after Ball-Larus tier-up: what its instrumented code was generated from.
#[derive(Debug)]
pub struct TieredBl {
    /// The CFG of its compiled code.
    pub fc: FunctionCfg,
    /// Its path numbering (regenerates the ids its probes count).
    pub bl: BallLarus,
    /// The plan its probes implement.
    pub plan: BlPlan,
    /// The start blocks whose path ends its code counts at their branch instead of on
    /// arrival ([`super::delay`]).
    pub delayed: IndexVec<Block, bool>,
    /// Where each block starts in the instrumented version (OSR targets).
    pub block_start: IndexVec<Block, Option<Pc>>,
    /// The index the instrumented version gets in the machine.
    pub version_index: u32,
    /// The function's tier-0 heat when it tiered up (0 with `--tier-up 0`).
    pub tiered_up_at: u64,
}

impl TieredBl {
    /// The on-stack replacement for a baseline frame of this function about to jump from `pc`
    /// to `target` (a backward jump): continue at `target`'s block in the instrumented
    /// version, with the path register the instrumented code would have there when the frame
    /// is known to be at a fixed distance from a path start:
    /// - the jump's edge ends a path: the next path starts at `target` (its start value),
    ///   unless `target` counts its arrivals at its branch ([`super::delay`]): then the count
    ///   there is the tier-0 path's, and `path: None` drops it;
    /// - the jump leaves a block where every arrival starts a path (a loop header under
    ///   `header` path ends, or an extra cut block): the path in progress began on arriving at
    ///   that block, so the register is that block's start value plus the edge's increment
    ///   (this is the usual case of a `while` loop, whose backward jump leaves its test: the
    ///   header; the frame then counts the iteration it is in);
    /// - otherwise the start of the path in progress is unknown: `path: None`, and the frame
    ///   drops it (see [`Osr::path`]).
    ///
    /// `None` if `pc` or `target` is not where the CFG says blocks end and start (a bug).
    pub fn osr(&self, pc: Pc, target: Pc) -> Option<Osr> {
        let from = self.fc.block_of_pc(pc)?;
        let to = self.fc.block_starting_at(target)?;
        let e = self.fc.cfg().find_edge(from, to)?;
        let cuts_on_every_arrival = self.plan.every_arrival_starts_a_path(from);
        let path = match (self.plan.cut[e], self.plan.start[to], self.plan.start[from]) {
            // The code counts the path ending at `to` at `to`'s branch: the tier-0 path's,
            // which the frame drops.
            (true, _, _) if self.delayed[to] => None,
            (true, Probe::Set(start), _) => Some(start),
            (false, _, Probe::Set(start)) if cuts_on_every_arrival => match self.plan.edges[e] {
                Probe::Add(x) => Some(start.wrapping_add(x)),
                Probe::None => Some(start),
                _ => None,
            },
            _ => None,
        };
        Some(Osr {
            version: self.version_index,
            pc: self.block_start[to]?,
            path,
        })
    }
}

/// Tiers `f` up for Ball-Larus profiling: returns the tiered function and its new code
/// version. `edges` is the tier-0 edge profile (`None`: canonical numbering). The version will
/// get index `version_index` in the machine.
pub fn tier_up_bl(
    index: FuncIdx,
    func: &Function,
    path_ends: PathEnds,
    edges: Option<&dyn Fn(&FunctionCfg) -> EdgeProfile>,
    version_index: u32,
    tiered_up_at: u64,
) -> Result<(TieredBl, Version), String> {
    let fc = FunctionCfg::of_function(func).map_err(|e| e.to_string())?;
    // Tier-0 counts cover only the code that ran before tier-up: completed by the static
    // estimate, loops not yet entered number their staying edge first too.
    let profile = edges.map(|edges| edges(&fc).with_static_estimate(fc.cfg()));
    let order = profile
        .as_ref()
        .map(|p| weights::by_dispatch_cost(&fc, func, path_ends, p));
    let numbering = match &order {
        Some(p) => Numbering::Smart(p),
        None => Numbering::Canonical,
    };
    let bl = BallLarus::new(fc.cfg(), path_ends, numbering, u64::MAX)
        .map_err(|e| e.render(&|b| b.to_string()))?;
    let plan = bl.plan(fc.cfg(), Placement::Plain, profile.as_ref());
    let weights = match profile {
        Some(p) => p,
        None => EdgeProfile::zeros(fc.cfg()).with_static_estimate(fc.cfg()),
    };
    let delayed = delay::delayed_headers(&plan, &fc, func, &weights);
    let probes = lower(&plan, &fc, func, &delayed)?;
    let inst = codegen::instrument(index, func, &fc, &probes).map_err(|e| e.to_string())?;
    Ok((
        TieredBl {
            fc,
            bl,
            plan,
            delayed,
            block_start: inst.block_start,
            version_index,
            tiered_up_at,
        },
        inst.version,
    ))
}

/// The weights smart numbering orders `func`'s edges by when it tiers up with the tier-0
/// edge counts `tier0`: the counts completed by the static estimate, times what a value on
/// each edge would cost ([`weights::by_dispatch_cost`]).
pub fn numbering_weights(
    fc: &FunctionCfg,
    func: &Function,
    path_ends: PathEnds,
    tier0: &EdgeProfile,
) -> EdgeProfile {
    weights::by_dispatch_cost(fc, func, path_ends, &tier0.with_static_estimate(fc.cfg()))
}

/// The path instructions of a Ball-Larus plan, per CFG edge (see the module docs), with the
/// path ends at the blocks of `delayed` counted at their branch ([`super::delay`]).
pub fn lower(
    plan: &BlPlan,
    fc: &FunctionCfg,
    func: &Function,
    delayed: &IndexVec<Block, bool>,
) -> Result<ProbeCode, String> {
    let cfg = fc.cfg();
    let mut code = ProbeCode::new(fc);
    // Every call starts the callee's path register at 0 (the interpreter's `Call`), so the
    // usual entry probe, `r = 0`, needs no instruction.
    let entry = match plan.entry {
        Probe::Set(0) => Probe::None,
        other => other,
    };
    code.entry = emit(&mut code, &merge(&[entry]))?;
    let mut edge_probes: IndexVec<Edge, SmallVec<[Probe; 4]>> =
        IndexVec::from_elem(SmallVec::new(), cfg.num_edges());
    for e in cfg.edges() {
        let (from, to) = (cfg.source(e), cfg.target(e));
        let mut probes: SmallVec<[Probe; 4]> = SmallVec::new();
        if delayed[from] {
            // The path that ended on arriving at `from` is counted now, the next starts here.
            probes.extend([Probe::CountAdd(0), plan.start[from]]);
        }
        match plan.edges[e] {
            // The count moves to `to`'s branch: the edge only adds its part of the id.
            Probe::CountAdd(c) if delayed[to] => probes.push(Probe::add(c)),
            edge => {
                probes.push(edge);
                if plan.cut[e] {
                    probes.push(plan.start[to]);
                }
            }
        }
        if to == cfg.exit() {
            probes.push(plan.exit);
        }
        edge_probes[e] = merge(&probes).into_iter().collect();
    }
    fold_lone_increments(fc, func, &mut edge_probes);
    for e in cfg.edges() {
        code.edges[e] = emit(&mut code, &edge_probes[e])?;
    }
    Ok(code)
}

/// Moves each edge's lone increment (`r += a`, which costs a dispatch of its own: a
/// `PathAdd` on a fall-through, a `PathJmp` stub on a taken branch or a switch arm) forward
/// along a chain of blocks that have one way in and one way out, to the first edge of the
/// chain with probes of its own, where it merges into them at no cost (`r += a; count(r + c)`
/// is `count(r + a + c)`, a return's `RetPc` with another constant), or to the first `Jmp`,
/// which carries it at no cost (`PathJmp`). Every path keeps its id, and the register is
/// unchanged wherever a chain ends. Inside a chain it differs, so the chain's blocks must not
/// be entered by on-stack replacement: every edge of the chain must be forward in the code
/// (OSR enters only at the targets of backward jumps).
fn fold_lone_increments(
    fc: &FunctionCfg,
    func: &Function,
    probes: &mut IndexVec<Edge, SmallVec<[Probe; 4]>>,
) {
    let cfg = fc.cfg();
    let jump = |e: Edge| codegen::carrier(fc, func, e) == Some(codegen::Carrier::Jump);
    for e in cfg.edges() {
        let [Probe::Add(a)] = probes[e][..] else {
            continue;
        };
        if jump(e) {
            continue;
        }
        let mut cur = e;
        let into = loop {
            let Some(next) = fc.one_way_next(cur) else {
                break None;
            };
            if !probes[next].is_empty() || jump(next) {
                break Some(next);
            }
            cur = next;
        };
        let Some(into) = into else { continue };
        let mut moved: SmallVec<[Probe; 4]> = SmallVec::new();
        moved.push(Probe::Add(a));
        moved.extend(probes[into].iter().copied());
        let merged = merge(&moved);
        // Free: no more instructions than `into` had, or a lone one on an empty `Jmp` edge.
        if merged.len() <= probes[into].len().max(1) {
            probes[into] = merged.into_iter().collect();
            probes[e].clear();
        }
    }
}

/// Turns a merged sequence of probes (see [`merge`]) into instructions.
fn emit(code: &mut ProbeCode, merged: &[Probe]) -> Result<Vec<Instr>, String> {
    let mut k = |v: u64| {
        code.constant(v)
            .ok_or_else(|| "more than 65536 distinct probe constants".to_string())
    };
    let mut out = Vec::with_capacity(merged.len());
    let mut i = 0;
    while i < merged.len() {
        let ins = match (merged[i], merged.get(i + 1)) {
            (Probe::CountAdd(c), Some(&Probe::Set(s))) => {
                i += 1;
                Instr::PathEnd { c: k(c)?, s: k(s)? }
            }
            (Probe::CountAdd(c), _) => Instr::PathCount { c: k(c)? },
            (Probe::CountConst(c), _) => Instr::PathCountK { c: k(c)? },
            (Probe::Set(s), _) => Instr::PathSet { k: k(s)? },
            (Probe::Add(a), _) => Instr::PathAdd { k: k(a)? },
            (Probe::None, _) => unreachable!("merge drops empty probes"),
        };
        out.push(ins);
        i += 1;
    }
    Ok(out)
}

/// Merges adjacent probes that act on the register in turn: `r += a; r += b` is `r += a + b`,
/// `r += a; count[r + c]` is `count[r + a + c]`, `r = s; r += a` is `r = s + a`, and so on;
/// empty probes vanish. The counted ids and the final register are unchanged.
pub fn merge(probes: &[Probe]) -> SmallVec<[Probe; 3]> {
    let mut out: SmallVec<[Probe; 3]> = SmallVec::new();
    for &p in probes {
        let merged = match (out.last().copied(), p) {
            (_, Probe::None) => continue,
            (Some(Probe::Add(a)), Probe::Add(b)) => Some(Probe::Add(a.wrapping_add(b))),
            (Some(Probe::Add(a)), Probe::CountAdd(c)) => Some(Probe::CountAdd(a.wrapping_add(c))),
            (Some(Probe::Add(_)), Probe::Set(s)) => Some(Probe::Set(s)),
            (Some(Probe::Set(s)), Probe::Add(a)) => Some(Probe::Set(s.wrapping_add(a))),
            (Some(Probe::Set(s)), Probe::CountAdd(c)) => Some(Probe::CountConst(s.wrapping_add(c))),
            (Some(Probe::Set(_)), Probe::Set(s)) => Some(Probe::Set(s)),
            _ => None,
        };
        match merged {
            Some(m) => *out.last_mut().expect("merged with the last probe") = m,
            None => out.push(p),
        }
    }
    out.retain(|p| !matches!(p, Probe::Add(0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs probes on a register, collecting the counted ids.
    fn run(probes: &[Probe], mut r: u64) -> (Vec<u64>, u64) {
        let mut counted = Vec::new();
        for p in probes {
            if let Some(id) = p.apply(&mut r) {
                counted.push(id);
            }
        }
        (counted, r)
    }

    #[test]
    fn an_increment_on_a_branch_into_a_return_rides_on_the_count() {
        let src = "int fib(int n) {
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}
int main(void) { return fib(10); }
";
        let program = lang::compile_source("t.c", src).expect("compiles");
        let fib = &program.functions[0];
        let (_, version) = tier_up_bl(FuncIdx(0), fib, PathEnds::Header, None, 0, 0).unwrap();
        // Two paths, ids 0 and 1: one of the branch's edges carries the increment, and the
        // block it leads to has one way in and one out (into the return): no `PathAdd` or
        // `PathJmp` is left, the two returns count different constants.
        assert!(
            !version
                .code
                .iter()
                .any(|i| matches!(i, Instr::PathAdd { .. } | Instr::PathJmp { .. })),
            "{:?}",
            version.code
        );
        let counted: Vec<u64> = version
            .code
            .iter()
            .filter_map(|i| match i {
                Instr::RetPc { c, .. } => Some(version.probe_consts[c.index()]),
                _ => None,
            })
            .collect();
        assert_eq!(counted.len(), 2);
        assert_ne!(counted[0], counted[1]);
        assert!(counted.iter().all(|&id| id < 2));
    }

    #[test]
    fn merging_keeps_every_count_and_the_register() {
        use Probe::*;
        let cases: &[&[Probe]] = &[
            &[Add(3), Add(4)],
            &[Add(3), CountAdd(2), Set(7)],
            &[Set(5), Add(2), CountAdd(1)],
            &[None, Add(u64::MAX), Add(1)],
            &[CountAdd(0), Set(4), Add(1)],
            &[Add(2), Set(9), Add(1), CountAdd(3), Set(0)],
            &[CountConst(4), Set(1)],
        ];
        for probes in cases {
            let merged = merge(probes);
            assert!(merged.len() <= probes.len());
            assert!(!merged.iter().any(|p| p.is_none()));
            for r in [0, 1, 1000, u64::MAX] {
                let (want, r_want) = run(probes, r);
                let (got, r_got) = run(&merged, r);
                assert_eq!(got, want, "{probes:?} -> {merged:?}");
                // The register matters only while no count has made it dead.
                if !probes
                    .iter()
                    .any(|p| matches!(p, CountAdd(_) | CountConst(_)))
                    || matches!(probes.last(), Some(Set(_) | Add(_)))
                {
                    assert_eq!(r_got, r_want, "{probes:?} -> {merged:?}");
                }
            }
        }
    }
}
