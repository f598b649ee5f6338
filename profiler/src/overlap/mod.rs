//! Overlapping paths (Tallam, Zhang & Gupta 2004, "Extending Path Profiling across Loop
//! Backedges and Procedure Boundaries", section 2): Ball-Larus paths extended past a loop's
//! back edge, so that their counts bound the frequencies of the paths of two consecutive
//! iterations (the paper's *interesting paths*).
//!
//! **Definition** (section 2.1). A *predicate* is a block with two or more successors; the
//! block a back edge leaves (the loop's terminating block) counts as one too. A path that
//! ends by taking a back edge `u -> h` is extended by the blocks that run next, from `h`, up
//! to and including the `(K + 1)`-th predicate: the *OL-K path*. The extension also stops
//! where the next path ends (at a cut edge: any back edge, and under `header` path ends any
//! arrival at a loop header) and where the run leaves `h`'s loop, its last block then being
//! the last one inside: the paper's overlapping graph holds only the loop's body, and such
//! shorter paths are the ones "of degree less than K not contained in the OL-K paths" that
//! the paper profiles too. OL-0 adds no information to a Ball-Larus path whose header is a
//! predicate (the extension is `h` alone); a loop whose body has fewer than `K + 1`
//! predicates on every path is profiled at its maximum overlap ([`OlGraph::max_overlap`]).
//! Paths that end at the exit, or under `header` path ends by entering a loop, are not
//! extended: they are counted as Ball-Larus paths.
//!
//! **Numbering** (section 2.3). The *path graph* is the Ball-Larus DAG in which the dummy edge
//! `u -> EXIT` of each back edge `u -> h` leads instead into the *overlapping graph* of `h`,
//! a copy of the loop's body whose paths are the extensions; its ends get dummy edges to the
//! exit. The paper keeps one copy of each body block and marks the edges that the `K + 1`
//! predicates reach on all paths (DI, definitely instrumented), on some (PI, possibly) or on
//! none (DNI, removed), and guards the PI edges with a run-time predicate counter. Here each
//! copy also records how many predicates precede it (the paper's `ol` counter made part of
//! the node), so the graph's paths are exactly the OL paths and Ball-Larus numbering on it is
//! dense; the DI, PI and DNI classes are still reported ([`OlGraph::edge_classes`]). See
//! [`graph`] for the construction, [`definition`] for the paths counted by definition from a
//! trace (the tests' oracle), [`execute`] for the probes run along a trace, [`estimate`]
//! for the bounds on interesting paths (section 2.2), and [`calls`] for the paths that cross
//! calls and their bounds (section 3).

pub mod calls;
pub mod command;
pub mod definition;
pub mod estimate;
pub mod execute;
pub mod graph;

pub use definition::{ol_paths_by_definition, OlPath};
pub use graph::{EdgeClass, OlGraph, PathValue};

use crate::cfg::{Block, Cfg, Edge};
use crate::dag::{PathDag, PathEnds};
use crate::dfs::DepthFirst;
use crate::loops::Loops;
use std::fmt;

/// The largest degree of overlap `ol:K` accepts: far beyond the paper's choices (2 to 14,
/// a third of its loops' maximum), and it keeps the overlapping graphs at most 33 copies of
/// a loop's body.
pub const MAX_OVERLAP: u32 = 32;

/// Why overlapping paths cannot be numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OlError {
    /// `K` above [`MAX_OVERLAP`].
    OverlapTooLarge(u32),
    /// More OL paths than a 64-bit id can number.
    TooManyPaths,
}

impl fmt::Display for OlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OlError::OverlapTooLarge(k) => write!(
                f,
                "overlap {k} is above the limit of {MAX_OVERLAP} (ol:K takes K from 0 to \
                 {MAX_OVERLAP})"
            ),
            OlError::TooManyPaths => {
                f.write_str("more overlapping paths than a 64-bit id can number")
            }
        }
    }
}

impl std::error::Error for OlError {}

/// A CFG's loops and path ends, with the rules of the definition: which blocks are
/// predicates and where an extension stops.
#[derive(Clone, Debug)]
pub struct OlContext<'a> {
    cfg: &'a Cfg,
    dfs: DepthFirst,
    loops: Loops,
    dag: PathDag,
    k: u32,
}

impl<'a> OlContext<'a> {
    /// The context of `cfg` for OL-`k` paths under `path_ends`.
    pub fn new(cfg: &'a Cfg, path_ends: PathEnds, k: u32) -> Result<Self, OlError> {
        if k > MAX_OVERLAP {
            return Err(OlError::OverlapTooLarge(k));
        }
        let dfs = DepthFirst::compute(cfg);
        let loops = Loops::compute(cfg, &dfs);
        let dag = PathDag::new(cfg, &dfs, path_ends, &[]);
        Ok(OlContext {
            cfg,
            dfs,
            loops,
            dag,
            k,
        })
    }

    /// The CFG.
    pub fn cfg(&self) -> &'a Cfg {
        self.cfg
    }

    /// The degree of overlap asked for.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The Ball-Larus DAG the OL paths extend.
    pub fn dag(&self) -> &PathDag {
        &self.dag
    }

    /// The loops.
    pub fn loops(&self) -> &Loops {
        &self.loops
    }

    /// Whether `b` is a predicate: two or more successors, or the source of a back edge.
    pub fn is_predicate(&self, b: Block) -> bool {
        self.cfg.out_degree(b) >= 2 || self.cfg.succ_edges(b).any(|e| self.dfs.is_back_edge(e))
    }

    /// Whether a path that ends by taking `e` is extended: `e` is a back edge.
    pub fn extends_past(&self, e: Edge) -> bool {
        self.dfs.is_back_edge(e)
    }

    /// Whether the extension of a path cut at header `h` goes on along `e`: `e` is not a cut
    /// and stays inside `h`'s loop.
    pub fn goes_on(&self, h: Block, e: Edge) -> bool {
        !self.dag.is_cut(e)
            && self
                .loops
                .loop_of_header(h)
                .is_some_and(|l| self.loops.contains(l, self.cfg.target(e)))
    }
}
