//! Melski & Reps' interprocedural path profiling (1998): paths that cross calls and returns,
//! numbered densely with *linear functions* on vertices and edges instead of Ball-Larus values,
//! so one copy of each procedure counts correctly in every calling context.
//!
//! The layers, one module each:
//! - [`supergraph`]: the program's supergraph `G*` (section 2.2): one [`Cfg`](crate::Cfg)
//!   per procedure whose call vertices are linked to their return-site vertices, and the call
//!   sites;
//! - [`numbering`]: the graph `G*fin` (section 3.2: Transformation 0 for piecewise profiling,
//!   1 `GExit`, 2 back edges replaced by surrogate edges, 3 recursive call sites replaced by
//!   summary edges), `maxEnters` (the finiteness argument), the `ψ` functions of vertices and
//!   the `ρ` functions of edges (section 5.2, equations 19-24), the values of the edges out of
//!   `Entry_global` (equation 27 and section 6.1.2), `numUnbalRLPaths` and the values of return
//!   edges for piecewise profiling (equations 33-35), and the fallback when the paths do not fit
//!   in 64 bits (section 8's hybrid: more call sites cut, then extra cut blocks);
//! - [`runtime`]: what the instrumentation does at run time (sections 5.5 and 6.3, algorithms
//!   5.1 and 6.1 threaded into execution): a [`runtime::PathCounter`] fed with the edges,
//!   calls and returns of a run; the VM's `ipp` modes run the same state machine;
//! - [`path`]: an interprocedural path as the edges of `G*fin` it takes, its number
//!   (algorithms 5.1 and 6.1) and the inverse, regeneration (algorithm 5.2 and its piecewise
//!   twin, "left as an exercise" in the paper);
//! - [`definition`]: the paths of a run by definition, cut from the recorded walk with no
//!   numbering at all: the oracle the counts are checked against;
//! - [`text`] and [`command`]: several procedures in one `.cfg` file and their traces, for
//!   `vmrun cfg` (the paper's Figures 4-7 are `programs/cfgs/melski-reps-pow.cfg`).
//!
//! ## Context and piecewise paths
//! *Context* path profiling (sections 3-5) counts the unbalanced-left paths of `G*fin`: a path
//! that ends at a back edge of `pow` carries as its *context prefix* the path in `main` that
//! led to the call. *Piecewise* profiling (section 6) drops the context: after a back edge the
//! next path starts at the loop header from `GEntry_P`, may return out of `P` (an unmatched
//! return) and call again, so paths are unbalanced-right-left and there are fewer of them
//! (21 against 36 in the paper's example).
//!
//! ## Path ends
//! The paper cuts paths at back edges. Under [`PathEnds::Header`](crate::PathEnds::Header)
//! (the VM's default) every edge into a loop header is cut the same way: `u -> GExit_P` ends
//! the path and the surrogate `Entry_P -> h` (`GEntry_P -> h`) starts the next. As in
//! [`crate::dag`], there is one `u -> GExit_P` edge per cut edge, so paths that end by
//! different edges stay apart.

pub mod command;
pub mod definition;
pub mod numbering;
pub mod path;
pub mod runtime;
pub mod supergraph;
pub mod text;

use std::fmt;
use std::str::FromStr;

pub use numbering::{IppFallback, IppNumbering, NumberingError};
pub use path::{IppPath, Step};
pub use runtime::PathCounter;
pub use supergraph::{CallSite, Callee, ProcId, Procedure, SiteId, Supergraph, SupergraphError};

/// Which interprocedural paths are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IppKind {
    /// Unbalanced-left paths with their context prefix (section 5).
    Context,
    /// Unbalanced-right-left paths with no context (section 6).
    Piecewise,
}

impl IppKind {
    /// The name used after `ipp:` on the command line.
    pub fn name(self) -> &'static str {
        match self {
            IppKind::Context => "context",
            IppKind::Piecewise => "piecewise",
        }
    }
}

impl fmt::Display for IppKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for IppKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "context" => Ok(IppKind::Context),
            "piecewise" => Ok(IppKind::Piecewise),
            _ => Err(format!(
                "unknown interprocedural profile '{s}' (expected context or piecewise)"
            )),
        }
    }
}

/// The linear function `λx. a·x + b` the paper writes `⟨a, b⟩`: the `ψ` of a vertex (the
/// number of valid completions from it, given the number from its procedure's exit) and the
/// `ρ` of an edge (its value, given the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Linear {
    /// The coefficient.
    pub a: u64,
    /// The constant.
    pub b: u64,
}

impl Linear {
    /// `⟨0, 0⟩`.
    pub const ZERO: Linear = Linear { a: 0, b: 0 };
    /// `⟨1, 0⟩`, the identity: `ψ` of `Exit_P` (equation 19).
    pub const IDENTITY: Linear = Linear { a: 1, b: 0 };
    /// `⟨0, 1⟩`: `ψ` of `GExit_P` (equation 20).
    pub const ONE: Linear = Linear { a: 0, b: 1 };

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(self, other: Linear) -> Option<Linear> {
        Some(Linear {
            a: self.a.checked_add(other.a)?,
            b: self.b.checked_add(other.b)?,
        })
    }

    /// `self ∘ other` (`λz. self(other(z))`), or `None` on overflow.
    pub fn checked_compose(self, other: Linear) -> Option<Linear> {
        Some(Linear {
            a: self.a.checked_mul(other.a)?,
            b: self.a.checked_mul(other.b)?.checked_add(self.b)?,
        })
    }

    /// `a·x + b`, or `None` on overflow.
    pub fn checked_apply(self, x: u64) -> Option<u64> {
        self.a.checked_mul(x)?.checked_add(self.b)
    }

    /// `a·x + b`, wrapping (for values the numbering has shown to fit).
    #[inline(always)]
    pub fn apply(self, x: u64) -> u64 {
        self.a.wrapping_mul(x).wrapping_add(self.b)
    }

    /// Whether this is `⟨0, 0⟩` (an edge that needs no code).
    pub fn is_zero(self) -> bool {
        self == Linear::ZERO
    }
}

impl fmt::Display for Linear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}, {}>", self.a, self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_functions_compose_and_add_as_section_5_2_says() {
        // (λx.a·x+b) ∘ (λy.c·y+d) = λz.(a·c)·z + (a·d + b)
        let f = Linear { a: 2, b: 2 };
        let g = Linear { a: 0, b: 5 };
        assert_eq!(f.checked_compose(g), Some(Linear { a: 0, b: 12 }));
        assert_eq!(f.checked_add(g), Some(Linear { a: 2, b: 7 }));
        assert_eq!(f.checked_apply(5), Some(12));
        assert_eq!(Linear { a: u64::MAX, b: 1 }.checked_apply(2), None);
        assert_eq!("piecewise".parse::<IppKind>(), Ok(IppKind::Piecewise));
        assert!("both".parse::<IppKind>().is_err());
    }
}
