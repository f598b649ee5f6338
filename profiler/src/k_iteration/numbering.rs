//! Algorithm 1 of Roy & Srikant (path numbering of k-iteration static paths, with the
//! compensation of invalid paths of section 3.2.2), on the [unrolled DAG](super::unrolled).
//!
//! The states are visited in reverse topological order (the postorder of the exploration); for
//! each state `x` and each out-edge `d: x -> y` in DAG order:
//!
//! ```text
//! val(d)  := numPaths(x);      numPaths(x) += numPaths(y)           (numPaths(End) = 1)
//! if x is compensated:                                               (see below)
//!     cval(d) := invalidPaths(x)
//!     invalidPaths(x) += numPaths(y)      if d leaves the loop (a loop-exit edge)
//!                        invalidPaths(y)  otherwise
//! ```
//!
//! A state `(b, i)` is *compensated* when its loop `L` is compensated and `i < K`; `Start` is
//! always compensated (its edges' `invalidPaths` are those of their targets). A loop is
//! compensated when `K >= 2` and every path starting at its header is a `delta^start` path
//! (started by the loop's own back edge in iteration K): such a path is invalid if it leaves the
//! loop before completing K iterations, and the compensation numbers the valid ones perfectly
//! (the paper's Theorem 1). When paths can also start at the header otherwise (under `header`
//! path ends, or a back edge taken while the loop is inactive in an irreducible graph), the
//! design note gives both kinds one numbering, that of the larger set, in which no path is
//! invalid; the loop is then not compensated.
//!
//! The id of a path is `sum of val(d)`, minus `cval(d)` on its `Start` edge and, for a
//! `delta^start` path of a compensated loop `L`, on its edges leaving compensated states of `L`
//! (equation (1) of the paper). The ids are exactly `0 .. numPaths(Start) - invalidPaths(Start)`.
//!
//! All counts are computed with checked arithmetic; exceeding `u64` or the configured limit is
//! reported as [`Overflow`] and handled by the caller (falling back to acyclic profiling).

use super::unrolled::{Unrolled, END, NONE};
use crate::cfg::Edge;

/// The path counts did not fit (`u64` overflow or above the configured limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Overflow;

/// The result of Algorithm 1 on one unrolled DAG. Invariants: `paths[x] >= invalid[x]` for every
/// state; `val`/`cval` are set for every DAG edge leaving a reachable state; `cval` is 0 on edges
/// leaving uncompensated states.
#[derive(Clone, Debug)]
pub(crate) struct Numbers {
    /// `numPaths` of each state (0 for unreachable states).
    pub paths: Vec<u64>,
    /// `invalidPaths` of each state (0 unless compensated); empty when no loop is compensated.
    invalid: Vec<u64>,
    /// `val` of each DAG edge.
    pub val: Vec<u64>,
    /// `cval` of each DAG edge; empty when no loop is compensated.
    cval: Vec<u64>,
    /// `numPaths(Start)`.
    pub start_paths: u64,
    /// `invalidPaths(Start)`.
    pub start_invalid: u64,
    /// `val` of `Start`'s edges (in `Unrolled::start_to` order).
    pub start_val: Vec<u64>,
    /// `cval` of `Start`'s edges.
    pub start_cval: Vec<u64>,
    /// Per k-loop: whether it is compensated.
    pub compensated: Vec<bool>,
}

impl Numbers {
    /// Number of valid static paths (the ids are `0..num_paths()`).
    pub fn num_paths(&self) -> u64 {
        self.start_paths - self.start_invalid
    }

    /// `invalidPaths` of state `x`.
    #[inline]
    pub fn invalid(&self, x: u32) -> u64 {
        self.invalid.get(x as usize).copied().unwrap_or(0)
    }

    /// `cval` of DAG edge `d`.
    #[inline]
    pub fn cval(&self, d: usize) -> u64 {
        self.cval.get(d).copied().unwrap_or(0)
    }

    /// Whether state `x` of `un` is compensated.
    #[inline]
    pub fn is_compensated(&self, un: &Unrolled<'_>, x: u32) -> bool {
        let l = un.state_loop[x as usize];
        if l == NONE || !self.compensated[l as usize] {
            return false;
        }
        un.iteration(x) < un.k
    }

    /// The number of `paths` through DAG edge `d` (to `t`), and how many of them are invalid for
    /// a `delta^start` path at a compensated source.
    #[inline]
    pub fn through(&self, un: &Unrolled<'_>, d: usize) -> (u64, u64) {
        let t = un.target[d];
        let tp = if t == END { 1 } else { self.paths[t as usize] };
        let via = if un.exits[d] {
            tp
        } else if t == END {
            0
        } else {
            self.invalid(t)
        };
        (tp, via)
    }
}

/// The out-edges of state `x` in DAG order, with their CFG edges: edges to states in successor
/// order, then the edges to `End` in successor order (for the exit block, its single edge to
/// `End`, which has no CFG edge).
pub(crate) fn out_edges<'u>(
    un: &'u Unrolled<'_>,
    x: u32,
) -> impl Iterator<Item = (usize, Option<Edge>)> + 'u {
    let u = un.state_block[x as usize];
    let s = un.iteration(x);
    let exit = (u == un.cfg.exit()).then_some((un.exit_dedge as usize, None));
    let all = move || {
        un.cfg
            .succ_edges(u)
            .map(move |e| (un.dedge(e, s) as usize, Some(e)))
    };
    let real = all().filter(move |&(d, _)| un.target[d] != END);
    let ends = all().filter(move |&(d, _)| un.target[d] == END);
    real.chain(ends).chain(exit)
}

/// Runs Algorithm 1 on `un`; fails if a count exceeds `u64` or `numPaths(Start)` exceeds `limit`.
pub(crate) fn number(un: &Unrolled<'_>, limit: u64) -> Result<Numbers, Overflow> {
    let n = un.num_states();
    let compensated: Vec<bool> = un
        .restarts_from_outside
        .iter()
        .map(|&r| un.k >= 2 && !r)
        .collect();
    let any_compensated = compensated.iter().any(|&c| c);
    let mut nums = Numbers {
        paths: vec![0; n],
        invalid: if any_compensated {
            vec![0; n]
        } else {
            Vec::new()
        },
        val: vec![0; un.num_dedges()],
        cval: if any_compensated {
            vec![0; un.num_dedges()]
        } else {
            Vec::new()
        },
        start_paths: 0,
        start_invalid: 0,
        start_val: Vec::with_capacity(un.start_to.len()),
        start_cval: Vec::with_capacity(un.start_to.len()),
        compensated,
    };
    for &x in &un.postorder {
        let comp = nums.is_compensated(un, x);
        let (mut p, mut inv) = (0u64, 0u64);
        for (d, _) in out_edges(un, x) {
            let (tp, via) = nums.through(un, d);
            nums.val[d] = p;
            p = p.checked_add(tp).ok_or(Overflow)?;
            if comp {
                nums.cval[d] = inv;
                inv += via; // inv <= p: no overflow
            }
        }
        nums.paths[x as usize] = p;
        if comp {
            nums.invalid[x as usize] = inv;
        }
    }
    let (mut p, mut inv) = (0u64, 0u64);
    for &t in &un.start_to {
        nums.start_val.push(p);
        nums.start_cval.push(inv);
        p = p.checked_add(nums.paths[t as usize]).ok_or(Overflow)?;
        inv += nums.invalid(t);
    }
    if p > limit {
        return Err(Overflow);
    }
    nums.start_paths = p;
    nums.start_invalid = inv;
    Ok(nums)
}

/// `numPaths` of every state with saturating arithmetic (no compensation): used to rank loops
/// when some must fall back to acyclic profiling.
pub(crate) fn saturating_paths(un: &Unrolled<'_>) -> Vec<u64> {
    let mut paths = vec![0u64; un.num_states()];
    for &x in &un.postorder {
        let mut p = 0u64;
        for (d, _) in out_edges(un, x) {
            let t = un.target[d];
            p = p.saturating_add(if t == END { 1 } else { paths[t as usize] });
        }
        paths[x as usize] = p;
    }
    paths
}
