//! Dominators (Lengauer & Tarjan 1979, "A fast algorithm for finding dominators in a
//! flowgraph", the simple O(E log V) version with path compression) and the reducibility check.
//!
//! `a` dominates `b` when every path from the entry to `b` passes through `a`. The algorithm
//! runs in three phases over the depth-first preorder of [`DepthFirst`]:
//! 1. semidominators, in reverse preorder, with a link-eval forest;
//! 2. implicit immediate dominators from the buckets of semidominators;
//! 3. explicit immediate dominators, in preorder.
//!
//! Then the dominator tree is numbered by a depth-first walk so that [`Dominators::dominates`]
//! is O(1). A graph is *reducible* when every back edge `u -> h` has `h` dominating `u`
//! ([`is_reducible`]); the iterative data-flow algorithm is kept in the tests as the reference.

use crate::cfg::{Block, Cfg};
use crate::dfs::DepthFirst;
use crate::index::IndexVec;

const NONE: u32 = u32::MAX;

/// The dominator tree. Invariant: `idom(entry) == None`, `idom(b) == Some(_)` for every other
/// block reachable from the entry (an unreachable exit has no dominator and dominates nothing); `[tree_in[b], tree_out[b])` is the interval of `b`'s subtree in a preorder of the tree.
#[derive(Clone, Debug)]
pub struct Dominators {
    idom: IndexVec<Block, Option<Block>>,
    tree_in: IndexVec<Block, u32>,
    tree_out: IndexVec<Block, u32>,
}

impl Dominators {
    /// Computes the dominators of `cfg` (whose depth-first search is `dfs`).
    pub fn compute(cfg: &Cfg, dfs: &DepthFirst) -> Self {
        // Vertices are the visited blocks (all but an unreachable exit), numbered in preorder.
        let order = dfs.preorder(); // vertex number v <-> block order[v]
        let n = order.len();
        let blocks = cfg.num_blocks();
        let num = |b: Block| dfs.pre(b);
        let parent: Vec<u32> = order
            .iter()
            .map(|&b| dfs.tree_parent(b).map_or(NONE, num))
            .collect();
        let mut semi: Vec<u32> = (0..n as u32).collect();
        let mut idom: Vec<u32> = vec![NONE; n];
        let mut ancestor: Vec<u32> = vec![NONE; n];
        let mut label: Vec<u32> = (0..n as u32).collect();
        let mut bucket_head: Vec<u32> = vec![NONE; n];
        let mut bucket_next: Vec<u32> = vec![NONE; n];
        let mut path: Vec<u32> = Vec::new();

        // eval(v): the vertex of minimum semidominator on the forest path above v.
        let eval = |v: u32,
                    ancestor: &mut Vec<u32>,
                    label: &mut Vec<u32>,
                    semi: &Vec<u32>,
                    path: &mut Vec<u32>|
         -> u32 {
            if ancestor[v as usize] == NONE {
                return v;
            }
            // Compress the path from v to the child of its forest root, top-down.
            path.clear();
            let mut x = v;
            while ancestor[ancestor[x as usize] as usize] != NONE {
                path.push(x);
                x = ancestor[x as usize];
            }
            while let Some(y) = path.pop() {
                let a = ancestor[y as usize] as usize;
                if semi[label[a] as usize] < semi[label[y as usize] as usize] {
                    label[y as usize] = label[a];
                }
                ancestor[y as usize] = ancestor[a];
            }
            label[v as usize]
        };

        for w in (1..n as u32).rev() {
            let wb = order[w as usize];
            for p in cfg.predecessors(wb) {
                let u = eval(num(p), &mut ancestor, &mut label, &semi, &mut path);
                if semi[u as usize] < semi[w as usize] {
                    semi[w as usize] = semi[u as usize];
                }
            }
            let s = semi[w as usize] as usize;
            bucket_next[w as usize] = bucket_head[s];
            bucket_head[s] = w;
            let pw = parent[w as usize];
            ancestor[w as usize] = pw;
            let mut v = std::mem::replace(&mut bucket_head[pw as usize], NONE);
            while v != NONE {
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                idom[v as usize] = if semi[u as usize] < semi[v as usize] {
                    u
                } else {
                    pw
                };
                v = bucket_next[v as usize];
            }
        }
        for w in 1..n {
            if idom[w] != semi[w] {
                idom[w] = idom[idom[w] as usize];
            }
        }

        let mut idom_b = IndexVec::from_elem(None, blocks);
        for w in 1..n {
            idom_b[order[w]] = Some(order[idom[w] as usize]);
        }
        // Number the dominator tree: children lists, then an iterative DFS.
        let mut child_start = vec![0u32; n + 1];
        for w in 1..n {
            child_start[idom[w] as usize + 1] += 1;
        }
        for i in 0..n {
            child_start[i + 1] += child_start[i];
        }
        let mut fill = child_start.clone();
        let mut children = vec![0u32; n.saturating_sub(1)];
        for (w, &d) in idom.iter().enumerate().skip(1) {
            let p = d as usize;
            children[fill[p] as usize] = w as u32;
            fill[p] += 1;
        }
        // An unvisited block gets an empty interval that no other interval contains.
        let mut tree_in = IndexVec::from_elem(u32::MAX, blocks);
        let mut tree_out = IndexVec::from_elem(0u32, blocks);
        let mut counter = 0u32;
        let mut stack: Vec<(u32, u32)> = vec![(0, child_start[0])];
        tree_in[order[0]] = 0;
        counter += 1;
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            if next < child_start[v as usize + 1] {
                top.1 += 1;
                let c = children[next as usize];
                tree_in[order[c as usize]] = counter;
                counter += 1;
                stack.push((c, child_start[c as usize]));
            } else {
                tree_out[order[v as usize]] = counter;
                stack.pop();
            }
        }
        Dominators {
            idom: idom_b,
            tree_in,
            tree_out,
        }
    }

    /// The immediate dominator of `b` (`None` for the entry).
    #[inline]
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b]
    }

    /// Whether `a` dominates `b` (reflexive). O(1).
    #[inline]
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        self.tree_in[a] <= self.tree_in[b] && self.tree_in[b] < self.tree_out[a]
    }
}

/// Whether `cfg` is reducible: every back edge `u -> h` (in the depth-first search `dfs`) has
/// its header `h` dominating `u`.
pub fn is_reducible(cfg: &Cfg, dfs: &DepthFirst, doms: &Dominators) -> bool {
    dfs.back_edges()
        .iter()
        .all(|&e| doms.dominates(cfg.target(e), cfg.source(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;

    #[test]
    fn figure_1_dominators() {
        let p =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let d = Dominators::compute(&p.cfg, &dfs);
        let idom = |n: &str| d.idom(p.block(n).unwrap()).map(|b| p.name(b).to_string());
        assert_eq!(idom("1"), None);
        assert_eq!(idom("2").as_deref(), Some("1"));
        assert_eq!(idom("5").as_deref(), Some("2"));
        assert_eq!(idom("6").as_deref(), Some("2"));
        assert!(d.dominates(p.block("2").unwrap(), p.block("4").unwrap()));
        assert!(!d.dominates(p.block("3").unwrap(), p.block("5").unwrap()));
        assert!(is_reducible(&p.cfg, &dfs, &d));
    }

    #[test]
    fn two_entry_loop_is_irreducible() {
        let p = parse_cfg("entry s\nexit z\ns -> a b\na -> b z\nb -> a\n").unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let d = Dominators::compute(&p.cfg, &dfs);
        assert!(!is_reducible(&p.cfg, &dfs, &d));
    }
}
