//! The path graph of OL-K paths (section 2.3 of the paper) and its Ball-Larus numbering.
//!
//! **Construction.** Start from the Ball-Larus DAG ([`crate::dag::PathDag`]: real edges, `ENTRY -> h`
//! start edges, `u -> EXIT` end edges for the cut edges). For each loop header `h`, the
//! *overlapping graph* holds copies `(v, c)` of the blocks `v` of `h`'s loop, `c` the number of
//! predicates before `v` on the extension (`0 <= c <= K`), from the root `(h, 0)`: with
//! `c' = c + [v is a predicate]`, a copy with `c' = K + 1` only stops (a dummy edge to the
//! exit: the `(K + 1)`-th predicate ends the path); otherwise each edge `v -> w` that the
//! extension may follow ([`OlContext::goes_on`]) leads to `(w, c')`, and one dummy stop edge
//! leads to the exit if any other edge out of `v` leaves the loop or is a cut. The end edge
//! of every back edge `u -> h` leads into the root `(h, 0)` instead of the exit.
//!
//! **Numbering.** Ball-Larus on this DAG, in reverse topological order (the exit, the copies by
//! decreasing `c` and, within one `c`, in the body's reverse topological order, then the
//! blocks): `val(e) = numPaths(v)` before adding `numPaths(target)`, each block's edges in
//! successor order with the dummy edges last. Every path from the entry to the exit is one OL
//! path and every OL path one graph path, so ids are dense: `0..num_paths()`.
//!
//! **Edge classes** (the paper's DI, PI, DNI): an edge `v -> w` of the body is followed by an
//! extension whose predicates up to and including `v` number at most `K`. With `lo` and `hi`
//! the fewest and most predicates on the body's paths from `h` through `v`: DI when
//! `hi <= K`, PI when `lo <= K < hi`, DNI when `lo > K`. (Figure 1: with `K = 2`,
//! `P'3 -> B'2` is PI, reached after `P1 B1 P3`, two predicates, or after `P1 P2 P3`, three.)

use super::definition::OlPath;
use super::{OlContext, OlError};
use crate::cfg::{Block, Edge};
use crate::dag::DagEdgeKind;
use crate::define_index;
use crate::index::IndexVec;
use std::collections::HashMap;

define_index!(
    /// A node of an [`OlGraph`]: a block (same index as the block) or a copy in an
    /// overlapping graph; prints as `n4`.
    pub struct OlNode = "n";
);

define_index!(
    /// An edge of an [`OlGraph`]; prints as `o7`.
    pub struct OlEdge = "o";
);

/// What a node of the path graph stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A block of the CFG (the Ball-Larus DAG's node).
    Block(Block),
    /// The copy of `block` in the overlapping graph of `header`, after `predicates` predicates.
    Copy {
        /// The loop header the extension started at.
        header: Block,
        /// The block copied.
        block: Block,
        /// How many predicates precede it on the extension.
        predicates: u32,
    },
}

/// What an edge of the path graph stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OlEdgeKind {
    /// A CFG edge between blocks (not a cut).
    Real(Edge),
    /// A path start at the header: `ENTRY -> h`.
    Start(Block),
    /// A cut edge that ends a path not extended: `u -> EXIT`.
    End(Edge),
    /// A back edge: its path goes on into the header's overlapping graph.
    IntoOverlap(Edge),
    /// A CFG edge inside an overlapping graph.
    Copy(Edge),
    /// The end of an extension: a copy to the exit.
    Stop,
}

/// The DI, PI and DNI classes of the paper's section 2.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeClass {
    /// Definitely instrumented: on every extension through it within `K + 1` predicates.
    Definitely,
    /// Possibly instrumented: within `K + 1` predicates on some paths only.
    Possibly,
    /// Definitely not instrumented: beyond `K + 1` predicates on every path.
    DefinitelyNot,
}

impl EdgeClass {
    /// The paper's abbreviation: `DI`, `PI` or `DNI`.
    pub fn abbreviation(self) -> &'static str {
        match self {
            EdgeClass::Definitely => "DI",
            EdgeClass::Possibly => "PI",
            EdgeClass::DefinitelyNot => "DNI",
        }
    }
}

/// A loop's overlapping graph: its root and what its extensions reach.
#[derive(Clone, Debug)]
struct Overlapping {
    header: Block,
    root: OlNode,
    /// The most predicates any extension holds.
    most_predicates: u32,
    /// The class of each edge of the loop's body that an extension may follow.
    classes: Vec<(Edge, EdgeClass)>,
}

/// The numbered path graph of OL-K paths (see the module docs).
#[derive(Clone, Debug)]
pub struct OlGraph {
    k: u32,
    entry: OlNode,
    exit: OlNode,
    nodes: IndexVec<OlNode, NodeKind>,
    out_start: Vec<u32>,
    target: IndexVec<OlEdge, OlNode>,
    kind: IndexVec<OlEdge, OlEdgeKind>,
    val: IndexVec<OlEdge, u64>,
    num_paths: IndexVec<OlNode, u64>,
    /// The graph edge of each CFG edge outside the copies (real, end or into an overlap).
    edge_of: Vec<OlEdge>,
    start_of: HashMap<Block, OlEdge>,
    loops: Vec<Overlapping>,
}

impl OlGraph {
    /// Builds and numbers the path graph of `cx`.
    pub fn new(cx: &OlContext<'_>) -> Result<Self, OlError> {
        let cfg = cx.cfg();
        let dag = cx.dag();
        let k = cx.k();
        let mut nodes: IndexVec<OlNode, NodeKind> =
            IndexVec::from_raw(cfg.blocks().map(NodeKind::Block).collect());
        // Each node's edges, (kind, target), in numbering order.
        let mut out: Vec<Vec<(OlEdgeKind, OlNode)>> = vec![Vec::new(); cfg.num_blocks()];
        let mut copy_of: HashMap<(Block, Block, u32), OlNode> = HashMap::new();
        let mut loops = Vec::new();
        let topo_pos = {
            let mut pos = IndexVec::from_elem(0usize, cfg.num_blocks());
            for (i, &b) in dag.topological_order().iter().enumerate() {
                pos[b] = i;
            }
            pos
        };
        let exit = OlNode::new(cfg.exit().index());
        for l in cx.loops().ids() {
            let h = cx.loops().header(l);
            let root = OlNode::new(nodes.len());
            nodes.push(NodeKind::Copy {
                header: h,
                block: h,
                predicates: 0,
            });
            out.push(Vec::new());
            copy_of.insert((h, h, 0), root);
            let mut work = vec![root];
            let mut most_predicates = 0;
            while let Some(n) = work.pop() {
                let NodeKind::Copy {
                    block: v,
                    predicates: c,
                    ..
                } = nodes[n]
                else {
                    unreachable!("the work list holds copies")
                };
                let after = c + u32::from(cx.is_predicate(v));
                most_predicates = most_predicates.max(after);
                let mut edges = Vec::new();
                if after <= k {
                    let mut leaves = false;
                    for e in cfg.succ_edges(v) {
                        if !cx.goes_on(h, e) {
                            leaves = true;
                            continue;
                        }
                        let w = cfg.target(e);
                        let next = *copy_of.entry((h, w, after)).or_insert_with(|| {
                            let id = nodes.push(NodeKind::Copy {
                                header: h,
                                block: w,
                                predicates: after,
                            });
                            out.push(Vec::new());
                            work.push(id);
                            id
                        });
                        edges.push((OlEdgeKind::Copy(e), next));
                    }
                    if leaves {
                        edges.push((OlEdgeKind::Stop, exit));
                    }
                } else {
                    edges.push((OlEdgeKind::Stop, exit));
                }
                out[n.index()] = edges;
            }
            loops.push(Overlapping {
                header: h,
                root,
                most_predicates,
                classes: edge_classes(cx, h),
            });
        }
        let root_of: HashMap<Block, OlNode> = loops.iter().map(|o| (o.header, o.root)).collect();
        for b in cfg.blocks() {
            for d in dag.out_edges(b) {
                let (kind, to) = match dag.kind(d) {
                    DagEdgeKind::Real(e) => {
                        (OlEdgeKind::Real(e), OlNode::new(dag.target(d).index()))
                    }
                    DagEdgeKind::Start(h) => (OlEdgeKind::Start(h), OlNode::new(h.index())),
                    DagEdgeKind::End(e) if cx.extends_past(e) => {
                        (OlEdgeKind::IntoOverlap(e), root_of[&cfg.target(e)])
                    }
                    DagEdgeKind::End(e) => (OlEdgeKind::End(e), exit),
                };
                out[b.index()].push((kind, to));
            }
        }
        // Lay the edges out per node.
        let mut out_start = Vec::with_capacity(nodes.len() + 1);
        let mut target = IndexVec::new();
        let mut kind = IndexVec::new();
        let mut edge_of = vec![OlEdge::new(0); cfg.num_edges()];
        let mut start_of = HashMap::new();
        for edges in &out {
            out_start.push(target.len() as u32);
            for &(ek, to) in edges {
                let id = target.push(to);
                kind.push(ek);
                match ek {
                    OlEdgeKind::Real(e) | OlEdgeKind::End(e) | OlEdgeKind::IntoOverlap(e) => {
                        edge_of[e.index()] = id
                    }
                    OlEdgeKind::Start(h) => {
                        start_of.insert(h, id);
                    }
                    OlEdgeKind::Copy(_) | OlEdgeKind::Stop => {}
                }
            }
        }
        out_start.push(target.len() as u32);
        let mut graph = OlGraph {
            k,
            entry: OlNode::new(cfg.entry().index()),
            exit,
            nodes,
            out_start,
            val: IndexVec::from_elem(0, target.len()),
            target,
            kind,
            num_paths: IndexVec::new(),
            edge_of,
            start_of,
            loops,
        };
        graph.number(&topo_pos)?;
        Ok(graph)
    }

    /// Ball-Larus numbering in reverse topological order (see the module docs).
    fn number(&mut self, topo_pos: &IndexVec<Block, usize>) -> Result<(), OlError> {
        let mut order: Vec<OlNode> = self.nodes.indices().collect();
        let rank = |n: OlNode| match self.nodes[n] {
            // The exit first, then the copies (deepest first), then the blocks.
            NodeKind::Block(b) if n == self.exit => (0, 0, usize::MAX - topo_pos[b]),
            NodeKind::Copy {
                block, predicates, ..
            } => (1, u32::MAX - predicates, usize::MAX - topo_pos[block]),
            NodeKind::Block(b) => (2, 0, usize::MAX - topo_pos[b]),
        };
        order.sort_by_key(|&n| rank(n));
        let mut num_paths = IndexVec::from_elem(0u64, self.nodes.len());
        for n in order {
            if n == self.exit {
                num_paths[n] = 1;
                continue;
            }
            let mut np = 0u64;
            for e in self.out_edges(n) {
                self.val[e] = np;
                np = np
                    .checked_add(num_paths[self.target[e]])
                    .ok_or(OlError::TooManyPaths)?;
            }
            num_paths[n] = np;
        }
        self.num_paths = num_paths;
        Ok(())
    }

    /// The degree of overlap asked for.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The number of OL paths (ids are `0..num_paths()`).
    pub fn num_paths(&self) -> u64 {
        self.num_paths[self.entry]
    }

    /// The number of nodes (blocks and copies).
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// What node `n` stands for.
    pub fn node(&self, n: OlNode) -> NodeKind {
        self.nodes[n]
    }

    /// The edges out of `n`, in increasing value.
    pub fn out_edges(&self, n: OlNode) -> impl Iterator<Item = OlEdge> + Clone {
        self.edge_range(n).map(OlEdge::new)
    }

    /// The indices of `n`'s edges: they are contiguous, their values increasing.
    fn edge_range(&self, n: OlNode) -> std::ops::Range<usize> {
        self.out_start[n.index()] as usize..self.out_start[n.index() + 1] as usize
    }

    /// The node edge `e` leads to.
    pub fn target(&self, e: OlEdge) -> OlNode {
        self.target[e]
    }

    /// What edge `e` stands for.
    pub fn kind(&self, e: OlEdge) -> OlEdgeKind {
        self.kind[e]
    }

    /// The value (increment) of edge `e`.
    pub fn val(&self, e: OlEdge) -> u64 {
        self.val[e]
    }

    /// The entry node.
    pub fn entry(&self) -> OlNode {
        self.entry
    }

    /// The exit node.
    pub fn exit(&self) -> OlNode {
        self.exit
    }

    /// The graph edge of CFG edge `e` outside the overlapping graphs: a real edge, an end, or
    /// the way into the header's overlapping graph.
    pub fn edge_of(&self, e: Edge) -> OlEdge {
        self.edge_of[e.index()]
    }

    /// The start edge `ENTRY -> h` of header `h`.
    pub fn start_of(&self, h: Block) -> Option<OlEdge> {
        self.start_of.get(&h).copied()
    }

    /// The edge out of copy `n` that follows CFG edge `e`, if the extension goes on along it.
    pub fn copy_edge(&self, n: OlNode, e: Edge) -> Option<OlEdge> {
        self.out_edges(n)
            .find(|&o| self.kind[o] == OlEdgeKind::Copy(e))
    }

    /// The stop edge out of copy `n`, if the extension may end there.
    pub fn stop_edge(&self, n: OlNode) -> Option<OlEdge> {
        self.out_edges(n)
            .find(|&o| self.kind[o] == OlEdgeKind::Stop)
    }

    /// The loop headers, each with the degree of overlap its paths get: `K`, or less when no
    /// extension in its body reaches `K + 1` predicates (capped: the maximum overlap).
    pub fn overlaps(&self) -> impl Iterator<Item = (Block, u32)> + '_ {
        self.loops.iter().map(|o| (o.header, self.overlap_of(o)))
    }

    /// The degree of overlap of header `h`'s paths (see [`OlGraph::overlaps`]).
    pub fn max_overlap(&self, h: Block) -> Option<u32> {
        self.loops
            .iter()
            .find(|o| o.header == h)
            .map(|o| self.overlap_of(o))
    }

    fn overlap_of(&self, o: &Overlapping) -> u32 {
        o.most_predicates.saturating_sub(1).min(self.k)
    }

    /// The DI, PI or DNI class of each edge of header `h`'s loop body that an extension may
    /// follow.
    pub fn edge_classes(&self, h: Block) -> &[(Edge, EdgeClass)] {
        self.loops
            .iter()
            .find(|o| o.header == h)
            .map_or(&[], |o| &o.classes)
    }

    /// The OL path with id `id`, or `None` if `id >= num_paths()`.
    pub fn regenerate(&self, cfg: &crate::cfg::Cfg, id: u64) -> Option<OlPath> {
        if id >= self.num_paths() {
            return None;
        }
        let mut r = id;
        let mut n = self.entry;
        let mut path = OlPath {
            nodes: vec![cfg.entry()],
            end: None,
            overlap: Vec::new(),
        };
        loop {
            if n == self.exit && path.end.is_none() {
                return Some(path);
            }
            let edges = self.edge_range(n);
            let i = self.val.as_slice()[edges.clone()]
                .partition_point(|&v| v <= r)
                .checked_sub(1)?;
            let e = OlEdge::new(edges.start + i);
            r -= self.val[e];
            n = self.target[e];
            match self.kind[e] {
                OlEdgeKind::Real(ce) => path.nodes.push(cfg.target(ce)),
                OlEdgeKind::Start(h) => path.nodes = vec![h],
                OlEdgeKind::End(ce) => {
                    path.end = Some(cfg.target(ce));
                    return Some(path);
                }
                OlEdgeKind::IntoOverlap(ce) => {
                    let h = cfg.target(ce);
                    path.end = Some(h);
                    path.overlap.push(h);
                }
                OlEdgeKind::Copy(ce) => path.overlap.push(cfg.target(ce)),
                OlEdgeKind::Stop => return Some(path),
            }
        }
    }

    /// The id of `path`, or `None` if it is not an OL path of this graph.
    pub fn id_of(&self, cfg: &crate::cfg::Cfg, path: &OlPath) -> Option<u64> {
        match self.value_of(cfg, &path.nodes, path.end)? {
            PathValue::Whole(id) => path.overlap.is_empty().then_some(id),
            PathValue::Head(head) => {
                let (&h, _) = path.overlap.split_first()?;
                let (tail, taken) = self.overlap_value(cfg, &path.overlap)?;
                (Some(h) == path.end && taken == path.overlap.len()).then_some(head + tail)
            }
        }
    }

    /// The value of the Ball-Larus path `nodes` cut at `end` (`None`: at the exit) in this
    /// graph: its id if it is not extended, or, if it ends by a back edge, its part of the id
    /// of every OL path that extends it (up to the overlapping graph's root). `None` if it is
    /// not a path of the graph.
    pub fn value_of(
        &self,
        cfg: &crate::cfg::Cfg,
        nodes: &[Block],
        end: Option<Block>,
    ) -> Option<PathValue> {
        let (&first, rest) = nodes.split_first()?;
        let mut id = 0u64;
        if first != cfg.entry() {
            id += self.val[self.start_of(first)?];
        }
        let mut at = first;
        for &b in rest {
            let e = cfg.find_edge(at, b)?;
            let o = self.edge_of(e);
            if self.kind[o] != OlEdgeKind::Real(e) {
                return None;
            }
            id += self.val[o];
            at = b;
        }
        let Some(h) = end else {
            return (at == cfg.exit()).then_some(PathValue::Whole(id));
        };
        let o = self.edge_of(cfg.find_edge(at, h)?);
        match self.kind[o] {
            OlEdgeKind::End(_) => Some(PathValue::Whole(id + self.val[o])),
            OlEdgeKind::IntoOverlap(_) => Some(PathValue::Head(id + self.val[o])),
            _ => None,
        }
    }

    /// The overlap of the blocks `next`, run after a back edge into the header `next[0]`: the
    /// value it adds to a path's [`PathValue::Head`] (the copies' edges and the stop), and how
    /// many of `next`'s blocks it holds (it stops at the `(K + 1)`-th predicate, where the
    /// run leaves the overlapping graph, or at the end of `next`). `None` if `next` does not
    /// start at a header with an overlapping graph or is not a path of the CFG.
    pub fn overlap_value(&self, cfg: &crate::cfg::Cfg, next: &[Block]) -> Option<(u64, usize)> {
        let (&h, rest) = next.split_first()?;
        let mut n = self.loops.iter().find(|o| o.header == h)?.root;
        let mut value = 0u64;
        let mut taken = 1;
        for &b in rest {
            if let Some(stop) = self.only_stop(n) {
                return Some((value + self.val[stop], taken));
            }
            let Some(c) = self.copy_edge(n, cfg.find_edge(next[taken - 1], b)?) else {
                break;
            };
            value += self.val[c];
            n = self.target[c];
            taken += 1;
        }
        Some((value + self.val[self.stop_edge(n)?], taken))
    }

    /// The stop edge of copy `n` when it is its only edge (the extension ends on arriving).
    pub(crate) fn only_stop(&self, n: OlNode) -> Option<OlEdge> {
        let mut edges = self.out_edges(n);
        match (edges.next(), edges.next()) {
            (Some(only), None) if self.kind[only] == OlEdgeKind::Stop => Some(only),
            _ => None,
        }
    }
}

/// What a Ball-Larus path contributes to the ids of an [`OlGraph`] ([`OlGraph::value_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathValue {
    /// It is not extended: this is its id.
    Whole(u64),
    /// It ends by a back edge: its OL paths' ids are this plus their overlap's value
    /// ([`OlGraph::overlap_value`]).
    Head(u64),
}

/// The DI, PI and DNI class of each body edge of `h`'s loop that an extension may follow:
/// the fewest and most predicates up to and including its source on the body's paths from
/// `h` (a longest and a shortest path over the body's acyclic edges, in topological order).
fn edge_classes(cx: &OlContext<'_>, h: Block) -> Vec<(Edge, EdgeClass)> {
    let cfg = cx.cfg();
    let Some(l) = cx.loops().loop_of_header(h) else {
        return Vec::new();
    };
    let mut fewest: HashMap<Block, u32> = HashMap::new();
    let mut most: HashMap<Block, u32> = HashMap::new();
    fewest.insert(h, 0);
    most.insert(h, 0);
    let mut classes = Vec::new();
    for &v in cx.dag().topological_order() {
        if !cx.loops().contains(l, v) {
            continue;
        }
        let (Some(&lo), Some(&hi)) = (fewest.get(&v), most.get(&v)) else {
            continue;
        };
        let p = u32::from(cx.is_predicate(v));
        let (lo, hi) = (lo + p, hi + p);
        for e in cfg.succ_edges(v).filter(|&e| cx.goes_on(h, e)) {
            let w = cfg.target(e);
            let class = if hi <= cx.k() {
                EdgeClass::Definitely
            } else if lo <= cx.k() {
                EdgeClass::Possibly
            } else {
                EdgeClass::DefinitelyNot
            };
            classes.push((e, class));
            let f = fewest.entry(w).or_insert(lo);
            *f = (*f).min(lo);
            let m = most.entry(w).or_insert(hi);
            *m = (*m).max(hi);
        }
    }
    classes
}
