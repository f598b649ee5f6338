//! Path regeneration: from an id back to the path (Ball & Larus 1996, "Regenerating Paths").
//!
//! Start at the entry with `R = id`; at each block take the outgoing DAG edge with the largest
//! value `<= R`, subtract its value, and move on, until the exit. A `Start` dummy as the first
//! edge means the path begins at that header; an `End` dummy means it ends by the cut edge it
//! stands for. Values of a block's edges increase in numbering order, so each step is a binary
//! search: O(length * log out-degree).
//!
//! ```text
//!   slides, R = 3:  A->B (val 2, R = 1), B->C (0), C->D (0), D->E (1, R = 0), E->F  = A B C D E F
//! ```

use crate::ball_larus::BallLarus;
use crate::cfg::{Block, Cfg};
use crate::dag::DagEdgeKind;

/// A path as the design note writes it: the blocks visited, in order, and `end`, the header the
/// path was cut at (the target of its last, cut, edge), or `None` when it reached the exit (the
/// exit is then the last of `nodes`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path {
    /// The blocks visited.
    pub nodes: Vec<Block>,
    /// Where the path was cut, or `None` at the exit.
    pub end: Option<Block>,
}

impl BallLarus {
    /// The path with id `id`, or `None` if `id >= num_paths()`.
    pub fn regenerate(&self, cfg: &Cfg, id: u64) -> Option<Path> {
        if id >= self.num_paths() {
            return None;
        }
        let dag = self.dag();
        let nb = self.numbering();
        let mut r = id;
        let mut v = dag.entry();
        let mut nodes = vec![v];
        loop {
            if v == dag.exit() {
                return Some(Path { nodes, end: None });
            }
            let out = nb.out_edges_by_value(v);
            let i = out.partition_point(|&d| nb.val(d) <= r).checked_sub(1)?;
            let d = out[i];
            r -= nb.val(d);
            match dag.kind(d) {
                DagEdgeKind::Real(_) => {
                    v = dag.target(d);
                    nodes.push(v);
                }
                DagEdgeKind::Start(h) => {
                    nodes.clear();
                    nodes.push(h);
                    v = h;
                }
                DagEdgeKind::End(e) => {
                    return Some(Path {
                        nodes,
                        end: Some(cfg.target(e)),
                    })
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ball_larus::{BallLarus, Numbering};
    use crate::cfg_text::parse_cfg;
    use crate::dag::PathEnds;

    #[test]
    fn slides_path_3_is_abcdef() {
        let p =
            parse_cfg("entry A\nexit F\nA -> C B\nB -> C D\nC -> D\nD -> F E\nE -> F\n").unwrap();
        let bl =
            BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
        let path = bl.regenerate(&p.cfg, 3).unwrap();
        let names: Vec<_> = path.nodes.iter().map(|&b| p.name(b)).collect();
        assert_eq!(names, vec!["A", "B", "C", "D", "E", "F"]);
        assert_eq!(path.end, None);
        assert!(bl.regenerate(&p.cfg, 6).is_none());
    }

    #[test]
    fn roy_srikant_figure_2_acyclic_paths_with_the_papers_ids() {
        let p =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        let bl =
            BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
        // Figure 2, "Acyclic Paths": a path that does not end at the exit is cut at 2.
        let expected = [
            "1-2-3-5-6",
            "1-2-3-5",
            "1-2-4-5-6",
            "1-2-4-5",
            "1-2-4-6",
            "2-3-5-6",
            "2-3-5",
            "2-4-5-6",
            "2-4-5",
            "2-4-6",
        ];
        assert_eq!(bl.num_paths(), 10);
        for (id, want) in expected.iter().enumerate() {
            let path = bl.regenerate(&p.cfg, id as u64).unwrap();
            let names: Vec<_> = path.nodes.iter().map(|&b| p.name(b)).collect();
            assert_eq!(names.join("-"), *want, "path {id}");
            let end = path.end.map(|b| p.name(b));
            assert_eq!(
                end,
                if want.ends_with('6') { None } else { Some("2") },
                "end of path {id}"
            );
        }
    }
}
