//! Depth-first search from the entry, visiting successors in order: pre- and postorder numbers
//! and the back edges.
//!
//! An edge `u -> v` is a *back edge* when `v` is on the DFS stack when the edge is examined
//! (this includes self-loops); its target is a *loop header* (design note `cfg-format.md`,
//! "Back edges"). Removing the back edges leaves an acyclic graph, and the reverse postorder is a
//! topological order of it. Iterative, O(V + E).

use crate::cfg::{Block, Cfg, Edge};
use crate::index::IndexVec;

const NO_PARENT: u32 = u32::MAX;

/// The result of the depth-first search. Invariants: every block is visited except an unreachable
/// exit; `preorder[pre[b]] == b`, `postorder[post[b]] == b`.
#[derive(Clone, Debug)]
pub struct DepthFirst {
    preorder: Vec<Block>,
    postorder: Vec<Block>,
    pre: IndexVec<Block, u32>,
    post: IndexVec<Block, u32>,
    /// Parent in the depth-first tree, `NO_PARENT` for the entry.
    tree_parent: IndexVec<Block, u32>,
    is_back: Vec<bool>,
    back_edges: Vec<Edge>,
    is_header: IndexVec<Block, bool>,
    headers: Vec<Block>,
}

impl DepthFirst {
    /// Runs the search on `cfg`.
    pub fn compute(cfg: &Cfg) -> Self {
        let n = cfg.num_blocks();
        const UNSEEN: u32 = u32::MAX;
        let mut pre = IndexVec::from_elem(UNSEEN, n);
        let mut post = IndexVec::from_elem(UNSEEN, n);
        let mut preorder = Vec::with_capacity(n);
        let mut postorder = Vec::with_capacity(n);
        let mut is_back = vec![false; cfg.num_edges()];
        let mut tree_parent = IndexVec::from_elem(NO_PARENT, n);
        // A block is on the stack when it has a preorder number and no postorder number yet.
        // Stack of (block, next edge id, end of its edge ids).
        let mut stack: Vec<(Block, u32, u32)> = Vec::new();
        let root = cfg.entry();
        pre[root] = 0;
        preorder.push(root);
        let (lo, hi) = cfg.succ_range(root);
        stack.push((root, lo as u32, hi as u32));
        while let Some(top) = stack.last_mut() {
            let (b, i, end) = *top;
            if i < end {
                top.1 += 1;
                let e = Edge::from_u32(i);
                let s = cfg.target(e);
                if pre[s] == UNSEEN {
                    pre[s] = preorder.len() as u32;
                    preorder.push(s);
                    tree_parent[s] = b.as_u32();
                    let (lo, hi) = cfg.succ_range(s);
                    stack.push((s, lo as u32, hi as u32));
                } else if post[s] == UNSEEN {
                    is_back[i as usize] = true;
                }
            } else {
                post[b] = postorder.len() as u32;
                postorder.push(b);
                stack.pop();
            }
        }
        let back_edges: Vec<Edge> = cfg.edges().filter(|e| is_back[e.index()]).collect();
        let mut is_header = IndexVec::from_elem(false, n);
        for &e in &back_edges {
            is_header[cfg.target(e)] = true;
        }
        let headers = cfg.blocks().filter(|&b| is_header[b]).collect();
        DepthFirst {
            preorder,
            postorder,
            pre,
            post,
            tree_parent,
            is_back,
            back_edges,
            is_header,
            headers,
        }
    }

    /// Blocks in preorder (entry first).
    pub fn preorder(&self) -> &[Block] {
        &self.preorder
    }

    /// Blocks in postorder (entry last).
    pub fn postorder(&self) -> &[Block] {
        &self.postorder
    }

    /// Preorder number of `b` (the entry is 0).
    #[inline]
    pub fn pre(&self, b: Block) -> u32 {
        self.pre[b]
    }

    /// Postorder number of `b`.
    #[inline]
    pub fn post(&self, b: Block) -> u32 {
        self.post[b]
    }

    /// The parent of `b` in the depth-first spanning tree (`None` for the entry).
    #[inline]
    pub fn tree_parent(&self, b: Block) -> Option<Block> {
        let p = self.tree_parent[b];
        (p != NO_PARENT).then(|| Block::from_u32(p))
    }

    /// Whether `e` is a back edge.
    #[inline]
    pub fn is_back_edge(&self, e: Edge) -> bool {
        self.is_back[e.index()]
    }

    /// All back edges, in edge-id order.
    pub fn back_edges(&self) -> &[Edge] {
        &self.back_edges
    }

    /// Whether `b` is a loop header (the target of a back edge).
    #[inline]
    pub fn is_header(&self, b: Block) -> bool {
        self.is_header[b]
    }

    /// All loop headers, in block order.
    pub fn headers(&self) -> &[Block] {
        &self.headers
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;

    #[test]
    fn roy_srikant_figure_1_has_one_back_edge() {
        let parsed =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        let cfg = &parsed.cfg;
        let dfs = DepthFirst::compute(cfg);
        let names: Vec<_> = dfs
            .back_edges()
            .iter()
            .map(|&e| (parsed.name(cfg.source(e)), parsed.name(cfg.target(e))))
            .collect();
        assert_eq!(names, vec![("5", "2")]);
        assert_eq!(
            dfs.headers()
                .iter()
                .map(|&h| parsed.name(h))
                .collect::<Vec<_>>(),
            vec!["2"]
        );
    }

    #[test]
    fn self_loops_are_back_edges_and_order_matters() {
        // a -> b c ; b -> c ; c -> b d : visiting b first makes c -> b the back edge.
        let parsed = parse_cfg("entry a\nexit d\na -> b c\nb -> b c\nc -> b d\n").unwrap();
        let cfg = &parsed.cfg;
        let dfs = DepthFirst::compute(cfg);
        let names: Vec<_> = dfs
            .back_edges()
            .iter()
            .map(|&e| {
                format!(
                    "{}{}",
                    parsed.name(cfg.source(e)),
                    parsed.name(cfg.target(e))
                )
            })
            .collect();
        assert_eq!(names, vec!["bb", "cb"]);
    }
}
