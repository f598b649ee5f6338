//! Natural loops, the loop nesting forest and innermost loops (design note `cfg-format.md`).
//!
//! ```text
//!   1 -> 2 -> 3 -> 5 -> 6      Roy & Srikant Figure 1: the back edge 5 -> 2 makes 2 a header;
//!        ^ \-> 4 -/|           its natural loop is {2, 3, 4, 5}: 2 plus every block that
//!        |    (4->6)|          reaches the tail 5 without passing through 2.
//!        \---------/
//! ```
//!
//! - A *loop header* is the target of a depth-first back edge ([`DepthFirst`]); each header has
//!   one loop, whose back edges are all the back edges into it.
//! - The *natural loop* of header `h` is `h` plus every block that reaches a tail of one of
//!   `h`'s back edges without passing through `h`: one backward search per header, stopping at
//!   `h`. The cost is the total size of the loops plus their incoming edges, O((V + E) d) for
//!   loop nesting depth d (linear for the shallow nests of real code).
//! - The *nesting forest*: the parent of a loop is the smallest other loop that contains all its
//!   blocks (for equal sets, the loop whose header comes first in preorder is the parent). In a
//!   reducible graph natural loops are nested or disjoint and this is the usual forest; in an
//!   irreducible one the definition above still gives a forest.
//! - A loop is *innermost* when it contains no other loop's header.
//!
//! Loops are numbered `L0, L1, ...` by the preorder of their headers, so a parent comes before
//! its children.

use crate::cfg::{Block, Cfg, Edge};
use crate::define_index;
use crate::dfs::DepthFirst;
use crate::index::IndexVec;

define_index!(
    /// A natural loop; prints as `L3`.
    pub struct LoopId = "L";
);

/// One natural loop.
#[derive(Clone, Debug)]
pub struct LoopData {
    /// The header (the target of the loop's back edges).
    pub header: Block,
    /// The back edges into the header, in edge order.
    pub back_edges: Vec<Edge>,
    /// The blocks of the loop, header included, sorted by block index.
    pub blocks: Vec<Block>,
    /// The enclosing loop in the nesting forest.
    pub parent: Option<LoopId>,
    /// Nesting depth: 1 for an outermost loop.
    pub depth: u32,
    /// Whether the loop contains no other loop's header.
    pub innermost: bool,
}

/// All natural loops of a CFG and their nesting forest.
#[derive(Clone, Debug)]
pub struct Loops {
    loops: IndexVec<LoopId, LoopData>,
    loop_of_header: IndexVec<Block, Option<LoopId>>,
    /// The deepest loop containing each block.
    innermost_of: IndexVec<Block, Option<LoopId>>,
    /// Number of loops containing each block.
    block_depth: IndexVec<Block, u32>,
}

impl Loops {
    /// Finds the loops of `cfg` from its depth-first search `dfs`.
    pub fn compute(cfg: &Cfg, dfs: &DepthFirst) -> Self {
        let n = cfg.num_blocks();
        // Headers in preorder (a header is the target of a back edge, so it was visited).
        let headers: Vec<Block> = dfs
            .preorder()
            .iter()
            .copied()
            .filter(|&b| dfs.is_header(b))
            .collect();
        let mut loop_of_header: IndexVec<Block, Option<LoopId>> = IndexVec::from_elem(None, n);
        for (i, &h) in headers.iter().enumerate() {
            loop_of_header[h] = Some(LoopId::new(i));
        }
        let mut loops: IndexVec<LoopId, LoopData> = IndexVec::with_capacity(headers.len());
        // The back edges grouped by loop, in edge order within a loop (a counting sort), so
        // that each loop's list is allocated once at its exact size.
        let loop_index = |e: Edge| loop_of_header[cfg.target(e)].map_or(0, |l| l.index());
        let mut back_start = vec![0usize; headers.len() + 1];
        for &e in dfs.back_edges() {
            back_start[loop_index(e) + 1] += 1;
        }
        for i in 0..headers.len() {
            back_start[i + 1] += back_start[i];
        }
        let mut back_sorted: Vec<Edge> = dfs.back_edges().to_vec();
        let mut fill = back_start.clone();
        for &e in dfs.back_edges() {
            let l = loop_index(e);
            back_sorted[fill[l]] = e;
            fill[l] += 1;
        }
        // Phase 1: one backward search per header; `stamp` avoids clearing a visited set, and
        // one scratch vector collects each loop's blocks before an exact-size copy.
        let mut stamp: Vec<u32> = vec![u32::MAX; n];
        let mut work: Vec<Block> = Vec::new();
        let mut blocks: Vec<Block> = Vec::new();
        for &h in &headers {
            let id = LoopId::new(loops.len());
            let back_edges: Vec<Edge> =
                back_sorted[back_start[id.index()]..back_start[id.index() + 1]].to_vec();
            blocks.clear();
            blocks.push(h);
            stamp[h.index()] = id.as_u32();
            for &e in &back_edges {
                let t = cfg.source(e);
                if stamp[t.index()] != id.as_u32() {
                    stamp[t.index()] = id.as_u32();
                    blocks.push(t);
                    work.push(t);
                }
            }
            while let Some(x) = work.pop() {
                for p in cfg.predecessors(x) {
                    if stamp[p.index()] != id.as_u32() {
                        stamp[p.index()] = id.as_u32();
                        blocks.push(p);
                        work.push(p);
                    }
                }
            }
            blocks.sort_unstable();
            loops.push(LoopData {
                header: h,
                back_edges,
                blocks: blocks.clone(),
                parent: None,
                depth: 0,
                innermost: true,
            });
        }
        // Phase 2: innermost loops, each block's loop count, and which loops contain each
        // header (flat `(loop of the header, containing loop)` pairs, grouped by header loop;
        // one pass over the loops' blocks, no per-block allocation).
        let mut block_depth = IndexVec::from_elem(0u32, n);
        let mut header_in: Vec<(LoopId, LoopId)> = Vec::new();
        for (id, l) in loops.iter_enumerated() {
            for &b in &l.blocks {
                block_depth[b] += 1;
                if let Some(hl) = loop_of_header[b] {
                    header_in.push((hl, id));
                }
            }
        }
        header_in.sort_unstable();
        for l in loops.raw_iter_mut() {
            l.innermost = !l
                .blocks
                .iter()
                .any(|&b| b != l.header && loop_of_header[b].is_some());
        }
        // Phase 3: parents. Candidates contain the header; order by (size, header preorder).
        let key = |loops: &IndexVec<LoopId, LoopData>, m: LoopId| (loops[m].blocks.len(), m);
        let mut cands: Vec<LoopId> = Vec::new();
        let mut at = 0;
        for id in loops.indices() {
            let mine = key(&loops, id);
            let from = at;
            while at < header_in.len() && header_in[at].0 == id {
                at += 1;
            }
            cands.clear();
            cands.extend(
                header_in[from..at]
                    .iter()
                    .map(|&(_, m)| m)
                    .filter(|&m| m != id && is_outer_key(key(&loops, m), mine)),
            );
            cands.sort_unstable_by_key(|&m| key(&loops, m));
            let parent = cands
                .iter()
                .copied()
                .find(|&m| is_subset(&loops[id].blocks, &loops[m].blocks));
            loops[id].parent = parent;
        }
        // Phase 4: depths, outer loops first (a parent has a smaller key than its child).
        let mut by_key: Vec<LoopId> = loops.indices().collect();
        // Larger sets first; equal sets: smaller id (earlier preorder) first.
        by_key.sort_by(|&a, &b| {
            let (ka, kb) = (key(&loops, a), key(&loops, b));
            kb.0.cmp(&ka.0).then(ka.1.cmp(&kb.1))
        });
        for &id in &by_key {
            loops[id].depth = loops[id].parent.map_or(1, |p| loops[p].depth + 1);
        }
        // The deepest containing loop of each block (ties: the smaller loop, then the larger
        // id): one more pass over the loops' blocks.
        let mut innermost_of: IndexVec<Block, Option<LoopId>> = IndexVec::from_elem(None, n);
        for (id, l) in loops.iter_enumerated() {
            let mine = (l.depth, std::cmp::Reverse(l.blocks.len()), id);
            for &b in &l.blocks {
                let better = match innermost_of[b] {
                    None => true,
                    Some(m) => {
                        let lm: &LoopData = &loops[m];
                        mine > (lm.depth, std::cmp::Reverse(lm.blocks.len()), m)
                    }
                };
                if better {
                    innermost_of[b] = Some(id);
                }
            }
        }
        Loops {
            loops,
            loop_of_header,
            innermost_of,
            block_depth,
        }
    }

    /// Number of loops.
    pub fn len(&self) -> usize {
        self.loops.len()
    }

    /// True when the graph has no loops.
    pub fn is_empty(&self) -> bool {
        self.loops.is_empty()
    }

    /// All loop ids, in header preorder.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = LoopId> + ExactSizeIterator + Clone {
        self.loops.indices()
    }

    /// The data of loop `l`.
    pub fn get(&self, l: LoopId) -> &LoopData {
        &self.loops[l]
    }

    /// The header of loop `l`.
    pub fn header(&self, l: LoopId) -> Block {
        self.loops[l].header
    }

    /// The blocks of loop `l`, sorted.
    pub fn blocks(&self, l: LoopId) -> &[Block] {
        &self.loops[l].blocks
    }

    /// Whether block `b` belongs to loop `l` (binary search).
    pub fn contains(&self, l: LoopId, b: Block) -> bool {
        self.loops[l].blocks.binary_search(&b).is_ok()
    }

    /// The loop headed by `b`, if `b` is a header.
    pub fn loop_of_header(&self, b: Block) -> Option<LoopId> {
        self.loop_of_header[b]
    }

    /// The deepest loop containing `b` (ties: the smaller loop).
    pub fn innermost_loop_of(&self, b: Block) -> Option<LoopId> {
        self.innermost_of[b]
    }

    /// Number of loops containing `b`.
    pub fn block_depth(&self, b: Block) -> u32 {
        self.block_depth[b]
    }

    /// The edges leaving loop `l` (source inside, target outside), in edge order.
    pub fn exit_edges(&self, cfg: &Cfg, l: LoopId) -> Vec<Edge> {
        let mut out: Vec<Edge> = self.loops[l]
            .blocks
            .iter()
            .flat_map(|&b| cfg.succ_edges(b))
            .filter(|&e| !self.contains(l, cfg.target(e)))
            .collect();
        out.sort_unstable();
        out
    }

    /// The edges entering loop `l` from outside (source outside, target inside), in edge order.
    pub fn entry_edges(&self, cfg: &Cfg, l: LoopId) -> Vec<Edge> {
        let mut out: Vec<Edge> = self.loops[l]
            .blocks
            .iter()
            .flat_map(|&b| cfg.pred_edges(b).iter().copied())
            .filter(|&e| !self.contains(l, cfg.source(e)))
            .collect();
        out.sort_unstable();
        out
    }
}

/// For each block, the number of natural loops containing it (its loop depth), without
/// building the loops: one backward search per header, O(sum of loop sizes). Equal to
/// [`Loops::block_depth`].
pub fn block_depths(cfg: &Cfg, dfs: &DepthFirst) -> IndexVec<Block, u32> {
    let n = cfg.num_blocks();
    let mut depth = IndexVec::from_elem(0u32, n);
    let mut stamp: Vec<u32> = vec![u32::MAX; n];
    let mut work: Vec<Block> = Vec::new();
    for (i, &h) in dfs.headers().iter().enumerate() {
        let id = i as u32;
        stamp[h.index()] = id;
        depth[h] += 1;
        for &e in cfg.pred_edges(h) {
            let t = cfg.source(e);
            if dfs.is_back_edge(e) && stamp[t.index()] != id {
                stamp[t.index()] = id;
                depth[t] += 1;
                work.push(t);
            }
        }
        while let Some(x) = work.pop() {
            for p in cfg.predecessors(x) {
                if stamp[p.index()] != id {
                    stamp[p.index()] = id;
                    depth[p] += 1;
                    work.push(p);
                }
            }
        }
    }
    depth
}

fn is_outer_key(candidate: (usize, LoopId), mine: (usize, LoopId)) -> bool {
    candidate.0 > mine.0 || (candidate.0 == mine.0 && candidate.1 < mine.1)
}

/// Whether sorted `a` is a subset of sorted `b`.
fn is_subset(a: &[Block], b: &[Block]) -> bool {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::{parse_cfg, ParsedCfg};

    fn names(p: &ParsedCfg, bs: &[Block]) -> Vec<String> {
        bs.iter().map(|&b| p.name(b).to_string()).collect()
    }

    #[test]
    fn figure_1_loop() {
        let p =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let loops = Loops::compute(&p.cfg, &dfs);
        assert_eq!(loops.len(), 1);
        let l = LoopId::new(0);
        assert_eq!(names(&p, loops.blocks(l)), vec!["2", "3", "4", "5"]);
        assert!(loops.get(l).innermost);
        assert_eq!(loops.get(l).depth, 1);
        let exits: Vec<_> = loops
            .exit_edges(&p.cfg, l)
            .iter()
            .map(|&e| format!("{}->{}", p.name(p.cfg.source(e)), p.name(p.cfg.target(e))))
            .collect();
        assert_eq!(exits, vec!["4->6", "5->6"]);
    }

    #[test]
    fn nested_loops_form_a_forest() {
        // a: outer loop header, b: inner loop header (self loop), c: latch of a.
        let p =
            parse_cfg("entry s\nexit z\ns -> a\na -> b z\nb -> b c\nc -> a d\nd -> d z\n").unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let loops = Loops::compute(&p.cfg, &dfs);
        assert_eq!(loops.len(), 3);
        let outer = loops.loop_of_header(p.block("a").unwrap()).unwrap();
        let inner = loops.loop_of_header(p.block("b").unwrap()).unwrap();
        let other = loops.loop_of_header(p.block("d").unwrap()).unwrap();
        assert_eq!(names(&p, loops.blocks(outer)), vec!["a", "b", "c"]);
        assert_eq!(loops.get(inner).parent, Some(outer));
        assert_eq!(loops.get(inner).depth, 2);
        assert_eq!(loops.get(other).parent, None);
        assert!(!loops.get(outer).innermost);
        assert!(loops.get(inner).innermost && loops.get(other).innermost);
        assert_eq!(loops.innermost_loop_of(p.block("b").unwrap()), Some(inner));
        assert_eq!(loops.innermost_loop_of(p.block("c").unwrap()), Some(outer));
        assert_eq!(loops.block_depth(p.block("b").unwrap()), 2);
        let depths = block_depths(&p.cfg, &dfs);
        for b in p.cfg.blocks() {
            assert_eq!(depths[b], loops.block_depth(b));
        }
    }

    #[test]
    fn irreducible_loop_follows_the_definition() {
        // s -> a b ; a <-> b: the DFS makes b -> a the back edge; s reaches b without a.
        let p = parse_cfg("entry s\nexit z\ns -> a b\na -> b z\nb -> a\n").unwrap();
        let dfs = DepthFirst::compute(&p.cfg);
        let loops = Loops::compute(&p.cfg, &dfs);
        assert_eq!(loops.len(), 1);
        assert_eq!(names(&p, loops.blocks(LoopId::new(0))), vec!["s", "a", "b"]);
    }
}
