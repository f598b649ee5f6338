//! The control-flow graph: blocks, edges with ordered successor lists, one entry and one exit.
//!
//! ```text
//!        b0 (entry)          successors are ordered: b1's edges are e1 (to b2), then e2 (to b3);
//!        |                   edge ids are dense and grouped by source block, in successor order
//!        b1                  (compressed sparse rows), so "the i-th successor edge of b" is
//!       /  \                 `succ_edge(b, i)` in O(1) and a per-edge table is a plain vector.
//!     b2    b3
//!       \  /
//!        b4 (exit)
//! ```
//!
//! A [`Cfg`] is built with a [`CfgBuilder`] (the VM builds one from bytecode; [`crate::cfg_text`]
//! builds one from the `.cfg` format). [`CfgBuilder::finish`] checks the invariants every
//! analysis relies on:
//! - the entry has no predecessors and the exit has no successors;
//! - every block is reachable from the entry, except possibly the exit (a function that never
//!   returns: its paths all end at loop headers);
//! - every block other than the exit has at least one successor (no dead ends);
//! - no edge appears twice (a path is a sequence of blocks, so parallel edges would make two
//!   paths indistinguishable).
//!
//! Blocks that cannot reach the exit (infinite loops) are allowed: every cycle contains a back
//! edge, so they still end their paths; [`Cfg::blocks_not_reaching_exit`] lists them for callers
//! (such as the `.cfg` format) that forbid them.

use crate::define_index;
use crate::index::IndexVec;
use std::fmt;

define_index!(
    /// A basic block of a [`Cfg`]; prints as `b12`.
    pub struct Block = "b";
);

define_index!(
    /// An edge of a [`Cfg`]; prints as `e3`. Edges of one block are numbered consecutively, in
    /// successor order.
    pub struct Edge = "e";
);

/// A control-flow graph. See the [module documentation](self) for its invariants.
#[derive(Clone, Debug)]
pub struct Cfg {
    entry: Block,
    exit: Block,
    /// `succ_start[b]..succ_start[b + 1]` are the edges leaving `b`, in successor order;
    /// `succ_start.len() == num_blocks + 1`.
    succ_start: Vec<u32>,
    /// Source of every edge.
    edge_from: IndexVec<Edge, Block>,
    /// Target of every edge (so `edge_to[succ_start[b]..succ_start[b+1]]` is b's successor list).
    edge_to: Vec<Block>,
    /// `pred_start[b]..pred_start[b + 1]` index `pred_edges`: the edges entering `b`, by edge id.
    pred_start: Vec<u32>,
    /// Edges grouped by target.
    pred_edges: Vec<Edge>,
}

/// Why a [`CfgBuilder`] could not make a [`Cfg`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CfgError {
    /// An edge or the entry/exit names a block that was never added.
    NoSuchBlock(Block),
    /// The entry block has an incoming edge (from the given block).
    EntryHasPredecessor(Block),
    /// The exit block has an outgoing edge (to the given block).
    ExitHasSuccessor(Block),
    /// The same edge was added twice.
    DuplicateEdge(Block, Block),
    /// The block cannot be reached from the entry.
    Unreachable(Block),
    /// The block is not the exit and has no successors.
    DeadEnd(Block),
}

impl fmt::Display for CfgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CfgError::NoSuchBlock(b) => write!(f, "block {b} does not exist"),
            CfgError::EntryHasPredecessor(p) => write!(f, "the entry has a predecessor ({p})"),
            CfgError::ExitHasSuccessor(s) => write!(f, "the exit has a successor ({s})"),
            CfgError::DuplicateEdge(a, b) => write!(f, "duplicate edge {a} -> {b}"),
            CfgError::Unreachable(b) => write!(f, "block {b} is unreachable from the entry"),
            CfgError::DeadEnd(b) => write!(f, "block {b} has no successors but is not the exit"),
        }
    }
}

impl std::error::Error for CfgError {}

/// Collects blocks and edges, then checks and freezes them into a [`Cfg`].
///
/// Successor order is the order in which `add_edge` is called for the same source block.
#[derive(Clone, Debug, Default)]
pub struct CfgBuilder {
    num_blocks: usize,
    edges: Vec<(Block, Block)>,
}

impl CfgBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a block and returns it. Blocks are numbered `b0, b1, ...` in the order added.
    pub fn add_block(&mut self) -> Block {
        let b = Block::new(self.num_blocks);
        self.num_blocks += 1;
        b
    }

    /// Adds `n` blocks; returns the first (the others follow consecutively).
    pub fn add_blocks(&mut self, n: usize) -> Block {
        let first = Block::new(self.num_blocks);
        self.num_blocks += n;
        first
    }

    /// Number of blocks added so far.
    pub fn num_blocks(&self) -> usize {
        self.num_blocks
    }

    /// Appends `to` to the successor list of `from`.
    pub fn add_edge(&mut self, from: Block, to: Block) {
        self.edges.push((from, to));
    }

    /// Checks the invariants (see the [module documentation](self)) and builds the graph.
    /// Reports the first violation found, checking in the order of [`CfgError`]'s variants.
    pub fn finish(self, entry: Block, exit: Block) -> Result<Cfg, CfgError> {
        let n = self.num_blocks;
        for b in [entry, exit] {
            if b.index() >= n {
                return Err(CfgError::NoSuchBlock(b));
            }
        }
        for &(a, b) in &self.edges {
            if a.index() >= n {
                return Err(CfgError::NoSuchBlock(a));
            }
            if b.index() >= n {
                return Err(CfgError::NoSuchBlock(b));
            }
        }
        // Stable counting sort of the edges by source: keeps successor order.
        let mut succ_start = vec![0u32; n + 1];
        for &(a, _) in &self.edges {
            succ_start[a.index() + 1] += 1;
        }
        for i in 0..n {
            succ_start[i + 1] += succ_start[i];
        }
        let m = self.edges.len();
        let mut fill = succ_start.clone();
        let mut edge_from = vec![Block::new(0); m];
        let mut edge_to = vec![Block::new(0); m];
        for &(a, b) in &self.edges {
            let slot = fill[a.index()] as usize;
            fill[a.index()] += 1;
            edge_from[slot] = a;
            edge_to[slot] = b;
        }
        let mut pred_start = vec![0u32; n + 1];
        for &b in &edge_to {
            pred_start[b.index() + 1] += 1;
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = pred_start.clone();
        let mut pred_edges = vec![Edge::new(0); m];
        for (e, &b) in edge_to.iter().enumerate() {
            let slot = fill[b.index()] as usize;
            fill[b.index()] += 1;
            pred_edges[slot] = Edge::new(e);
        }
        let cfg = Cfg {
            entry,
            exit,
            succ_start,
            edge_from: IndexVec::from_raw(edge_from),
            edge_to,
            pred_start,
            pred_edges,
        };
        cfg.check()?;
        Ok(cfg)
    }
}

impl Cfg {
    fn check(&self) -> Result<(), CfgError> {
        if let Some(&e) = self.pred_edges(self.entry).first() {
            return Err(CfgError::EntryHasPredecessor(self.source(e)));
        }
        if let Some(&s) = self.successors(self.exit).first() {
            return Err(CfgError::ExitHasSuccessor(s));
        }
        // Duplicate edges: mark each block's successors with the block as a stamp.
        let mut stamp = vec![u32::MAX; self.num_blocks()];
        for b in self.blocks() {
            for &s in self.successors(b) {
                if stamp[s.index()] == b.as_u32() {
                    return Err(CfgError::DuplicateEdge(b, s));
                }
                stamp[s.index()] = b.as_u32();
            }
        }
        let reached = self.reachable_from_entry();
        if let Some(b) = self
            .blocks()
            .find(|&b| !reached[b.index()] && b != self.exit)
        {
            return Err(CfgError::Unreachable(b));
        }
        if let Some(b) = self
            .blocks()
            .find(|&b| b != self.exit && self.out_degree(b) == 0)
        {
            return Err(CfgError::DeadEnd(b));
        }
        Ok(())
    }

    fn reachable_from_entry(&self) -> Vec<bool> {
        let mut seen = vec![false; self.num_blocks()];
        let mut stack = vec![self.entry];
        seen[self.entry.index()] = true;
        while let Some(b) = stack.pop() {
            for &s in self.successors(b) {
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push(s);
                }
            }
        }
        seen
    }

    /// The blocks from which the exit cannot be reached (blocks of infinite loops), in order.
    pub fn blocks_not_reaching_exit(&self) -> Vec<Block> {
        let mut seen = vec![false; self.num_blocks()];
        let mut stack = vec![self.exit];
        seen[self.exit.index()] = true;
        while let Some(b) = stack.pop() {
            for p in self.predecessors(b) {
                if !seen[p.index()] {
                    seen[p.index()] = true;
                    stack.push(p);
                }
            }
        }
        self.blocks().filter(|b| !seen[b.index()]).collect()
    }

    /// The entry block (no predecessors).
    #[inline]
    pub fn entry(&self) -> Block {
        self.entry
    }

    /// The exit block (no successors).
    #[inline]
    pub fn exit(&self) -> Block {
        self.exit
    }

    /// Number of blocks.
    #[inline]
    pub fn num_blocks(&self) -> usize {
        self.succ_start.len() - 1
    }

    /// Number of edges.
    #[inline]
    pub fn num_edges(&self) -> usize {
        self.edge_to.len()
    }

    /// All blocks, in index order.
    pub fn blocks(&self) -> impl DoubleEndedIterator<Item = Block> + ExactSizeIterator + Clone {
        (0..self.num_blocks()).map(Block::new)
    }

    /// All edges, in index order (grouped by source, in successor order).
    pub fn edges(&self) -> impl DoubleEndedIterator<Item = Edge> + ExactSizeIterator + Clone {
        (0..self.num_edges()).map(Edge::new)
    }

    /// The successors of `b`, in order.
    #[inline]
    pub fn successors(&self, b: Block) -> &[Block] {
        let (lo, hi) = self.succ_range(b);
        &self.edge_to[lo..hi]
    }

    /// The edges leaving `b`, in successor order.
    #[inline]
    pub fn succ_edges(
        &self,
        b: Block,
    ) -> impl DoubleEndedIterator<Item = Edge> + ExactSizeIterator + Clone {
        let (lo, hi) = self.succ_range(b);
        (lo..hi).map(Edge::new)
    }

    /// The `i`-th edge leaving `b` (the edge to `successors(b)[i]`). Panics if out of range.
    #[inline]
    pub fn succ_edge(&self, b: Block, i: usize) -> Edge {
        let (lo, hi) = self.succ_range(b);
        assert!(lo + i < hi, "block {b} has no successor number {i}");
        Edge::new(lo + i)
    }

    /// Number of successors of `b`.
    #[inline]
    pub fn out_degree(&self, b: Block) -> usize {
        let (lo, hi) = self.succ_range(b);
        hi - lo
    }

    /// The edges entering `b`, in edge-id order.
    #[inline]
    pub fn pred_edges(&self, b: Block) -> &[Edge] {
        let lo = self.pred_start[b.index()] as usize;
        let hi = self.pred_start[b.index() + 1] as usize;
        &self.pred_edges[lo..hi]
    }

    /// The predecessors of `b` (with repetition if several edges came from one block, which the
    /// invariants forbid), in edge-id order.
    pub fn predecessors(&self, b: Block) -> impl Iterator<Item = Block> + '_ {
        self.pred_edges(b).iter().map(move |&e| self.source(e))
    }

    /// Number of predecessors of `b`.
    #[inline]
    pub fn in_degree(&self, b: Block) -> usize {
        self.pred_edges(b).len()
    }

    /// The block `e` leaves.
    #[inline]
    pub fn source(&self, e: Edge) -> Block {
        self.edge_from[e]
    }

    /// The block `e` enters.
    #[inline]
    pub fn target(&self, e: Edge) -> Block {
        self.edge_to[e.index()]
    }

    /// Position of `e` in its source's successor list.
    #[inline]
    pub fn successor_position(&self, e: Edge) -> usize {
        e.index() - self.succ_start[self.source(e).index()] as usize
    }

    /// The edge `from -> to`, if any (a scan of `from`'s successors).
    pub fn find_edge(&self, from: Block, to: Block) -> Option<Edge> {
        let (lo, _) = self.succ_range(from);
        self.successors(from)
            .iter()
            .position(|&s| s == to)
            .map(|i| Edge::new(lo + i))
    }

    /// The edge ids leaving `b` are `lo..hi`.
    #[inline]
    pub(crate) fn succ_range(&self, b: Block) -> (usize, usize) {
        (
            self.succ_start[b.index()] as usize,
            self.succ_start[b.index() + 1] as usize,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diamond() -> (CfgBuilder, [Block; 4]) {
        let mut b = CfgBuilder::new();
        let bs = [b.add_block(), b.add_block(), b.add_block(), b.add_block()];
        b.add_edge(bs[0], bs[2]);
        b.add_edge(bs[0], bs[1]);
        b.add_edge(bs[1], bs[3]);
        b.add_edge(bs[2], bs[3]);
        (b, bs)
    }

    #[test]
    fn edges_are_grouped_by_source_in_successor_order() {
        let (b, [a, x, y, z]) = diamond();
        let cfg = b.finish(a, z).unwrap();
        assert_eq!(cfg.successors(a), &[y, x]);
        assert_eq!(cfg.succ_edge(a, 1), Edge::new(1));
        assert_eq!(cfg.target(cfg.succ_edge(a, 1)), x);
        assert_eq!(cfg.successor_position(Edge::new(1)), 1);
        assert_eq!(cfg.predecessors(z).collect::<Vec<_>>(), vec![x, y]);
        assert_eq!(cfg.find_edge(y, z), Some(Edge::new(3)));
        assert_eq!(cfg.find_edge(z, y), None);
    }

    #[test]
    fn invariants_are_checked() {
        let (mut b, [a, x, _, z]) = diamond();
        b.add_edge(x, a);
        assert_eq!(
            b.finish(a, z).unwrap_err(),
            CfgError::EntryHasPredecessor(x)
        );
        let (mut b, [a, x, _, z]) = diamond();
        b.add_edge(z, x);
        assert_eq!(b.finish(a, z).unwrap_err(), CfgError::ExitHasSuccessor(x));
        let (mut b, [a, x, _, z]) = diamond();
        b.add_edge(x, z);
        assert_eq!(b.finish(a, z).unwrap_err(), CfgError::DuplicateEdge(x, z));
        let (mut b, [a, _, _, z]) = diamond();
        let lost = b.add_block();
        b.add_edge(lost, z);
        assert_eq!(b.finish(a, z).unwrap_err(), CfgError::Unreachable(lost));
        let (mut b, [a, x, _, z]) = diamond();
        let dead = b.add_block();
        b.add_edge(x, dead);
        assert_eq!(b.finish(a, z).unwrap_err(), CfgError::DeadEnd(dead));
    }

    #[test]
    fn a_function_that_never_returns_may_have_an_unreachable_exit() {
        let mut b = CfgBuilder::new();
        let [a, l, z] = [b.add_block(), b.add_block(), b.add_block()];
        b.add_edge(a, l);
        b.add_edge(l, l);
        let cfg = b.finish(a, z).unwrap();
        let dfs = crate::dfs::DepthFirst::compute(&cfg);
        let doms = crate::dominators::Dominators::compute(&cfg, &dfs);
        assert_eq!(doms.idom(l), Some(a));
        assert_eq!(doms.idom(z), None);
        assert!(!doms.dominates(a, z));
        let bl = crate::ball_larus::BallLarus::new(
            &cfg,
            crate::dag::PathEnds::Header,
            crate::ball_larus::Numbering::Canonical,
            u64::MAX,
        )
        .unwrap();
        // a (cut at l) and l (cut at l).
        assert_eq!(bl.num_paths(), 2);
        for placement in [
            crate::plan::Placement::Plain,
            crate::plan::Placement::EventCounting,
        ] {
            let plan = bl.plan(&cfg, placement, None);
            let mut r = 0;
            let mut ids = Vec::new();
            ids.extend(plan.entry.apply(&mut r));
            plan.on_edge(&mut r, cfg.succ_edge(a, 0), l, |id| ids.push(id));
            plan.on_edge(&mut r, cfg.succ_edge(l, 0), l, |id| ids.push(id));
            plan.on_edge(&mut r, cfg.succ_edge(l, 0), l, |id| ids.push(id));
            let paths: Vec<_> = ids
                .iter()
                .map(|&id| bl.regenerate(&cfg, id).unwrap().nodes)
                .collect();
            assert_eq!(paths, vec![vec![a], vec![l], vec![l]], "{placement}");
        }
    }

    #[test]
    fn infinite_loops_are_allowed_and_listed() {
        let mut b = CfgBuilder::new();
        let [a, l, z] = [b.add_block(), b.add_block(), b.add_block()];
        b.add_edge(a, z);
        b.add_edge(a, l);
        b.add_edge(l, l);
        let cfg = b.finish(a, z).unwrap();
        assert_eq!(cfg.blocks_not_reaching_exit(), vec![l]);
    }
}
