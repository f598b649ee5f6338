//! The path DAG: the CFG with its path-ending edges replaced by Ball-Larus dummy edges.
//!
//! A path starts at the entry or at a *start block* and ends at the exit or by taking a *cut
//! edge*. Which edges are cut depends on the [`PathEnds`] strategy (design note, "Path ends"):
//! - [`PathEnds::Backedge`] (canonical Ball-Larus): the depth-first back edges;
//! - [`PathEnds::Header`] (Jikes RVM yield points, k-BLPP section 3.2): every edge into a loop
//!   header, back edge or loop-entry edge alike.
//!
//! Start blocks are the loop headers. In both strategies, *extra cut blocks* (chosen by the
//! overflow fallback, [`crate::ball_larus`]) also end paths on arrival and start new ones.
//!
//! Each cut edge `u -> h` is replaced by two dummy edges, as in Ball & Larus: `u -> EXIT` (an
//! [`DagEdgeKind::End`] edge, one per cut edge, so that paths ending at different headers stay
//! distinct) and `ENTRY -> h` (a [`DagEdgeKind::Start`] edge, one per start block):
//!
//! ```text
//!   CFG (Roy & Srikant Fig. 1)         DAG, backedge mode (dummies dashed)
//!   1 -> 2 -> 3 -> 5 -> 6              1 -> 2 -> 3 -> 5 -> 6        1 - - -> 2   (Start 2)
//!        2 -> 4 -> 5, 4 -> 6                2 -> 4 -> 5, 4 -> 6     5 - - -> 6   (End 5->2)
//!        5 -> 2 (back edge)
//! ```
//!
//! Out-edges of a block are ordered: real edges in successor order, then its `End` dummies in
//! successor order, then (for the entry) the `Start` dummies by block index. This is the order
//! canonical numbering visits them ("dummy edges after real ones"). The reverse postorder of the
//! depth-first search, with the exit moved last, is a topological order of the DAG.

use crate::cfg::{Block, Cfg, Edge};
use crate::define_index;
use crate::dfs::DepthFirst;
use crate::index::IndexVec;
use std::fmt;
use std::str::FromStr;

/// Where paths end (design note "Path ends").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PathEnds {
    /// Paths end on arriving at any loop header (Jikes yield points; the VM's default).
    #[default]
    Header,
    /// Paths end by taking a back edge (canonical Ball-Larus).
    Backedge,
}

impl fmt::Display for PathEnds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathEnds::Header => "header",
            PathEnds::Backedge => "backedge",
        })
    }
}

impl FromStr for PathEnds {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "header" => Ok(PathEnds::Header),
            "backedge" => Ok(PathEnds::Backedge),
            _ => Err(format!(
                "unknown path-end strategy '{s}' (expected header or backedge)"
            )),
        }
    }
}

define_index!(
    /// An edge of a [`PathDag`]; prints as `d7`.
    pub struct DagEdge = "d";
);

/// What a DAG edge stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DagEdgeKind {
    /// A CFG edge that does not end a path.
    Real(Edge),
    /// The dummy `ENTRY -> h` starting the paths that begin at start block `h`.
    Start(Block),
    /// The dummy `u -> EXIT` standing for the cut edge `u -> h` (the path ends at `h`).
    End(Edge),
}

/// The path DAG of a CFG. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct PathDag {
    entry: Block,
    exit: Block,
    path_ends: PathEnds,
    /// `out_start[b]..out_start[b + 1]` are the DAG edges leaving `b`, in canonical order.
    out_start: Vec<u32>,
    from: IndexVec<DagEdge, Block>,
    to: IndexVec<DagEdge, Block>,
    kind: IndexVec<DagEdge, DagEdgeKind>,
    in_degree: IndexVec<Block, u32>,
    /// Per CFG edge: whether it ends a path.
    is_cut: Vec<bool>,
    /// Per CFG edge: its `Real` or `End` DAG edge.
    dag_edge_of: Vec<DagEdge>,
    /// Per block: its `Start` DAG edge, if it is a start block.
    start_edge: IndexVec<Block, Option<DagEdge>>,
    starts: Vec<Block>,
    extra_cuts: Vec<Block>,
    topo: Vec<Block>,
}

impl PathDag {
    /// Builds the DAG of `cfg` for the strategy `path_ends`, with `extra_cuts` as additional
    /// start blocks (ignored if they are the entry or the exit; duplicates are ignored).
    pub fn new(cfg: &Cfg, dfs: &DepthFirst, path_ends: PathEnds, extra_cuts: &[Block]) -> Self {
        let n = cfg.num_blocks();
        let (entry, exit) = (cfg.entry(), cfg.exit());
        let mut is_extra = IndexVec::from_elem(false, n);
        for &b in extra_cuts {
            if b != entry && b != exit {
                is_extra[b] = true;
            }
        }
        let is_cut: Vec<bool> = cfg
            .edges()
            .map(|e| {
                let t = cfg.target(e);
                is_extra[t]
                    || match path_ends {
                        PathEnds::Backedge => dfs.is_back_edge(e),
                        PathEnds::Header => dfs.is_header(t),
                    }
            })
            .collect();
        let starts: Vec<Block> = cfg
            .blocks()
            .filter(|&b| is_extra[b] || dfs.is_header(b))
            .collect();
        let extra: Vec<Block> = cfg.blocks().filter(|&b| is_extra[b]).collect();

        let total = cfg.num_edges() + starts.len();
        let mut out_start = Vec::with_capacity(n + 1);
        let mut from = IndexVec::with_capacity(total);
        let mut to = IndexVec::with_capacity(total);
        let mut kind = IndexVec::with_capacity(total);
        let mut in_degree = IndexVec::from_elem(0u32, n);
        let mut dag_edge_of = vec![DagEdge::new(0); cfg.num_edges()];
        let mut start_edge = IndexVec::from_elem(None, n);
        for b in cfg.blocks() {
            out_start.push(from.len() as u32);
            for e in cfg.succ_edges(b).filter(|e| !is_cut[e.index()]) {
                let t = cfg.target(e);
                dag_edge_of[e.index()] = from.push(b);
                to.push(t);
                kind.push(DagEdgeKind::Real(e));
                in_degree[t] += 1;
            }
            for e in cfg.succ_edges(b).filter(|e| is_cut[e.index()]) {
                dag_edge_of[e.index()] = from.push(b);
                to.push(exit);
                kind.push(DagEdgeKind::End(e));
                in_degree[exit] += 1;
            }
            if b == entry {
                for &h in &starts {
                    start_edge[h] = Some(from.push(b));
                    to.push(h);
                    kind.push(DagEdgeKind::Start(h));
                    in_degree[h] += 1;
                }
            }
        }
        out_start.push(from.len() as u32);
        let mut topo: Vec<Block> = dfs
            .postorder()
            .iter()
            .rev()
            .copied()
            .filter(|&b| b != exit)
            .collect();
        topo.push(exit);
        PathDag {
            entry,
            exit,
            path_ends,
            out_start,
            from,
            to,
            kind,
            in_degree,
            is_cut,
            dag_edge_of,
            start_edge,
            starts,
            extra_cuts: extra,
            topo,
        }
    }

    /// The entry (source of every path start).
    pub fn entry(&self) -> Block {
        self.entry
    }

    /// The exit (target of every path end).
    pub fn exit(&self) -> Block {
        self.exit
    }

    /// The strategy this DAG was built for.
    pub fn path_ends(&self) -> PathEnds {
        self.path_ends
    }

    /// Number of DAG nodes (the CFG's blocks).
    pub fn num_blocks(&self) -> usize {
        self.out_start.len() - 1
    }

    /// All DAG nodes (the CFG's blocks).
    pub fn blocks_iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = Block> + ExactSizeIterator + Clone {
        (0..self.num_blocks()).map(Block::new)
    }

    /// Number of DAG edges.
    pub fn num_edges(&self) -> usize {
        self.from.len()
    }

    /// All DAG edges.
    pub fn edges(&self) -> impl DoubleEndedIterator<Item = DagEdge> + ExactSizeIterator + Clone {
        self.from.indices()
    }

    /// The DAG edges leaving `b`, in canonical order.
    #[inline]
    pub fn out_edges(
        &self,
        b: Block,
    ) -> impl DoubleEndedIterator<Item = DagEdge> + ExactSizeIterator + Clone {
        (self.out_start[b.index()] as usize..self.out_start[b.index() + 1] as usize)
            .map(DagEdge::new)
    }

    /// Number of DAG edges leaving `b`.
    #[inline]
    pub fn out_degree(&self, b: Block) -> usize {
        (self.out_start[b.index() + 1] - self.out_start[b.index()]) as usize
    }

    /// Number of DAG edges entering `b`.
    #[inline]
    pub fn in_degree(&self, b: Block) -> usize {
        self.in_degree[b] as usize
    }

    /// Source of a DAG edge.
    #[inline]
    pub fn source(&self, d: DagEdge) -> Block {
        self.from[d]
    }

    /// Target of a DAG edge (the exit for `End` edges).
    #[inline]
    pub fn target(&self, d: DagEdge) -> Block {
        self.to[d]
    }

    /// What a DAG edge stands for.
    #[inline]
    pub fn kind(&self, d: DagEdge) -> DagEdgeKind {
        self.kind[d]
    }

    /// Whether CFG edge `e` ends a path.
    #[inline]
    pub fn is_cut(&self, e: Edge) -> bool {
        self.is_cut[e.index()]
    }

    /// The DAG edge of CFG edge `e`: its `Real` edge, or its `End` dummy if `e` is cut.
    #[inline]
    pub fn dag_edge(&self, e: Edge) -> DagEdge {
        self.dag_edge_of[e.index()]
    }

    /// The `Start` dummy of block `b`, if paths start at `b` (a header or an extra cut).
    #[inline]
    pub fn start_edge(&self, b: Block) -> Option<DagEdge> {
        self.start_edge[b]
    }

    /// The start blocks (headers and extra cuts), by block index.
    pub fn starts(&self) -> &[Block] {
        &self.starts
    }

    /// The extra cut blocks this DAG was built with (entry/exit and duplicates removed).
    pub fn extra_cuts(&self) -> &[Block] {
        &self.extra_cuts
    }

    /// A topological order of the DAG: the entry first, the exit last.
    pub fn topological_order(&self) -> &[Block] {
        &self.topo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;

    const FIG1: &str = "entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n";

    #[test]
    fn backedge_mode_replaces_only_the_back_edge() {
        let p = parse_cfg(FIG1).unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let dag = PathDag::new(&p.cfg, &dfs, PathEnds::Backedge, &[]);
        assert_eq!(dag.num_edges(), 9);
        let b5 = p.block("5").unwrap();
        let kinds: Vec<_> = dag
            .out_edges(b5)
            .map(|d| (dag.kind(d), p.name(dag.target(d))))
            .collect();
        let e56 = p.cfg.find_edge(b5, p.block("6").unwrap()).unwrap();
        let e52 = p.cfg.find_edge(b5, p.block("2").unwrap()).unwrap();
        assert_eq!(
            kinds,
            vec![(DagEdgeKind::Real(e56), "6"), (DagEdgeKind::End(e52), "6")]
        );
        let b1 = p.block("1").unwrap();
        let last = dag.out_edges(b1).last().unwrap();
        assert_eq!(dag.kind(last), DagEdgeKind::Start(p.block("2").unwrap()));
        assert!(!dag.is_cut(p.cfg.find_edge(b1, p.block("2").unwrap()).unwrap()));
    }

    #[test]
    fn header_mode_also_cuts_loop_entry_edges() {
        let p = parse_cfg(FIG1).unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let dag = PathDag::new(&p.cfg, &dfs, PathEnds::Header, &[]);
        let b1 = p.block("1").unwrap();
        assert!(dag.is_cut(p.cfg.find_edge(b1, p.block("2").unwrap()).unwrap()));
        assert_eq!(dag.in_degree(p.block("2").unwrap()), 1);
        let topo: Vec<_> = dag.topological_order().iter().map(|&b| p.name(b)).collect();
        assert_eq!(topo.first(), Some(&"1"));
        assert_eq!(topo.last(), Some(&"6"));
    }
}
