//! Paths by definition: the reference the `bl` sink is checked against.
//!
//! Given a CFG and the blocks one activation entered, in order (as the `trace` sink records
//! them: the entry first, then one block per edge taken, the exit last if the activation
//! returned), split the sequence into paths by the design note's rules (`cfg-format.md`,
//! "Path ends") and count each `(blocks, end)`:
//!
//! - a path starts at the entry, or at the block where the previous path was cut;
//! - on each step `u -> v`, the path is cut when the edge ends a path under the strategy:
//!   `header`: `v` is a loop header (arriving by a back edge or by a loop-entry edge alike);
//!   `backedge`: `u -> v` is a depth-first back edge. The finished path is counted with
//!   `end = v`, and the next path starts as `[v]`;
//! - in both strategies an *extra cut block* (the profiler's overflow fallback,
//!   [`profiler::BallLarus::new`]) cuts on every arrival, like a header under `header`;
//! - arriving at the exit finishes the path with the exit as its last block and `end = None`.
//!
//! Nothing here depends on path numbering, placement or the plan: only the CFG, its
//! depth-first back edges and headers (which the profiler's definition fixes, successors
//! visited in order). An activation that stops before the exit (a trap, or a caller frame
//! abandoned by `exit` in a callee) leaves its last path unfinished: it is reported apart and
//! never counted, as no probe counts it either.

use std::collections::BTreeMap;
use std::fmt;

use profiler::index::IndexVec;
use profiler::{Block, Cfg, DepthFirst, Path, PathEnds};

/// A step of an activation that the CFG does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleError {
    /// The sequence does not start at the entry.
    NotAtEntry(Block),
    /// `from -> to` is not an edge.
    NoEdge {
        /// Source of the step.
        from: Block,
        /// Target of the step.
        to: Block,
        /// Index of `to` in the sequence.
        position: usize,
    },
    /// The sequence goes on after the exit.
    AfterExit {
        /// Index of the first block after the exit.
        position: usize,
    },
}

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OracleError::NotAtEntry(b) => write!(f, "the activation starts at {b}, not the entry"),
            OracleError::NoEdge { from, to, position } => {
                write!(f, "step {position}: {from} -> {to} is not an edge")
            }
            OracleError::AfterExit { position } => {
                write!(f, "step {position}: the activation goes on after the exit")
            }
        }
    }
}

impl std::error::Error for OracleError {}

/// The path splitter for one CFG and one strategy.
#[derive(Clone, Debug)]
pub struct Oracle<'c> {
    cfg: &'c Cfg,
    dfs: DepthFirst,
    path_ends: PathEnds,
    extra_cut: IndexVec<Block, bool>,
}

/// Counts of the paths of one or more activations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathCounts {
    /// How many times each path was completed.
    pub counts: BTreeMap<Path, u64>,
    /// The unfinished last path of every activation that stopped before the exit, in order.
    pub unfinished: Vec<Vec<Block>>,
}

impl PathCounts {
    /// The total number of completed paths.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }
}

impl<'c> Oracle<'c> {
    /// A splitter for `cfg` under `path_ends`, with the overflow fallback's `extra_cuts` (empty
    /// when the numbering took none).
    pub fn new(cfg: &'c Cfg, path_ends: PathEnds, extra_cuts: &[Block]) -> Self {
        let mut extra_cut = IndexVec::from_elem(false, cfg.num_blocks());
        for &b in extra_cuts {
            extra_cut[b] = true;
        }
        Oracle {
            cfg,
            dfs: DepthFirst::compute(cfg),
            path_ends,
            extra_cut,
        }
    }

    /// Whether taking the edge `from -> to` ends a path (it must be an edge).
    pub fn cuts(&self, from: Block, to: Block) -> bool {
        if self.extra_cut[to] {
            return true;
        }
        match self.path_ends {
            PathEnds::Header => self.dfs.is_header(to),
            PathEnds::Backedge => self
                .cfg
                .find_edge(from, to)
                .is_some_and(|e| self.dfs.is_back_edge(e)),
        }
    }

    /// Splits one activation's blocks into paths and adds them to `into`.
    pub fn add_activation(
        &self,
        blocks: &[Block],
        into: &mut PathCounts,
    ) -> Result<(), OracleError> {
        let Some(&first) = blocks.first() else {
            return Ok(());
        };
        if first != self.cfg.entry() {
            return Err(OracleError::NotAtEntry(first));
        }
        let mut cur = vec![first];
        let mut finished = first == self.cfg.exit();
        for (i, w) in blocks.windows(2).enumerate() {
            let (u, v) = (w[0], w[1]);
            if finished {
                return Err(OracleError::AfterExit { position: i + 1 });
            }
            if self.cfg.find_edge(u, v).is_none() {
                return Err(OracleError::NoEdge {
                    from: u,
                    to: v,
                    position: i + 1,
                });
            }
            if self.cuts(u, v) {
                let nodes = std::mem::replace(&mut cur, vec![v]);
                *into
                    .counts
                    .entry(Path {
                        nodes,
                        end: Some(v),
                    })
                    .or_insert(0) += 1;
            } else {
                cur.push(v);
            }
            if v == self.cfg.exit() {
                finished = true;
                let nodes = std::mem::take(&mut cur);
                *into.counts.entry(Path { nodes, end: None }).or_insert(0) += 1;
            }
        }
        if !finished {
            into.unfinished.push(cur);
        }
        Ok(())
    }

    /// The path counts of the given activations.
    pub fn count<'a>(
        &self,
        activations: impl IntoIterator<Item = &'a [Block]>,
    ) -> Result<PathCounts, OracleError> {
        let mut out = PathCounts::default();
        for a in activations {
            self.add_activation(a, &mut out)?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profiler::cfg_text::parse_cfg;

    /// Roy & Srikant 2009, Figure 1, with the design note's worked paths.
    #[test]
    fn figure_1_paths_as_the_design_note_writes_them() {
        let p =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        let b = |n: &str| p.block(n).unwrap();
        let seq: Vec<Block> = ["1", "2", "3", "5", "2", "4", "5", "6"]
            .iter()
            .map(|n| b(n))
            .collect();
        let back = Oracle::new(&p.cfg, PathEnds::Backedge, &[])
            .count([&seq[..]])
            .unwrap();
        let path = |ns: &[&str], end: Option<&str>| Path {
            nodes: ns.iter().map(|n| b(n)).collect(),
            end: end.map(b),
        };
        // "BL path 1-2-3-5 is {nodes: [1,2,3,5], end: 2}".
        assert_eq!(
            back.counts.get(&path(&["1", "2", "3", "5"], Some("2"))),
            Some(&1)
        );
        assert_eq!(
            back.counts.get(&path(&["2", "4", "5", "6"], None)),
            Some(&1)
        );
        assert_eq!(back.total(), 2);
        // Under `header` the entry edge 1 -> 2 cuts too (2 is a header).
        let head = Oracle::new(&p.cfg, PathEnds::Header, &[])
            .count([&seq[..]])
            .unwrap();
        let got: Vec<(Path, u64)> = head.counts.into_iter().collect();
        assert_eq!(
            got,
            vec![
                (path(&["1"], Some("2")), 1),
                (path(&["2", "3", "5"], Some("2")), 1),
                (path(&["2", "4", "5", "6"], None), 1),
            ]
        );
    }

    #[test]
    fn unfinished_activations_and_bad_steps_are_reported() {
        let p = parse_cfg("entry a\nexit z\na -> h\nh -> h z\n").unwrap();
        let b = |n: &str| p.block(n).unwrap();
        let o = Oracle::new(&p.cfg, PathEnds::Backedge, &[]);
        let c = o.count([&[b("a"), b("h"), b("h")][..]]).unwrap();
        assert_eq!(c.unfinished, vec![vec![b("h")]]);
        assert_eq!(c.total(), 1);
        assert_eq!(
            o.count([&[b("a"), b("z")][..]]).unwrap_err(),
            OracleError::NoEdge {
                from: b("a"),
                to: b("z"),
                position: 1
            }
        );
        assert_eq!(
            o.count([&[b("h")][..]]).unwrap_err(),
            OracleError::NotAtEntry(b("h"))
        );
        assert_eq!(
            o.count([&[b("a"), b("h"), b("z"), b("h")][..]])
                .unwrap_err(),
            OracleError::AfterExit { position: 3 }
        );
    }

    #[test]
    fn extra_cut_blocks_cut_in_both_strategies() {
        let p = parse_cfg("entry a\nexit z\na -> m\nm -> z\n").unwrap();
        let b = |n: &str| p.block(n).unwrap();
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let c = Oracle::new(&p.cfg, ends, &[b("m")])
                .count([&[b("a"), b("m"), b("z")][..]])
                .unwrap();
            let got: Vec<Path> = c.counts.into_keys().collect();
            assert_eq!(
                got,
                vec![
                    Path {
                        nodes: vec![b("a")],
                        end: Some(b("m"))
                    },
                    Path {
                        nodes: vec![b("m"), b("z")],
                        end: None
                    },
                ]
            );
        }
    }
}
