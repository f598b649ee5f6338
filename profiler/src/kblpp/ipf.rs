//! The k-iterations path forest (k-IPF, the k-BLPP paper's Definition 2) and the conversion of a
//! k-SF into it, Figure 7 (`make_k_ipf` and `join_subtree`, section 2.3).
//!
//! **Conversion.** Lines 1-7 group the k-SF nodes by label (here by function and label, sorted,
//! so the result is deterministic). Lines 8-13 join, for every node `ρ`, the subtree of depth up
//! to `k - 1` below `ρ` under a dummy root (one per function): a node reached by the labels
//! `ℓ(ρ) ... ℓ(σ)` adds `c(σ)` to the k-IPF node with those labels. Figure 7 calls
//! `join_subtree(ρ, φ, k)`, which read literally descends `k` levels below `ρ` and would make
//! sequences of `k + 1` paths; the text ("subtrees of depth up to k - 1") and Definition 2
//! (n-grams with `n <= k`) fix the bound used here, `k - 1`.
//! [`KSlabForest::to_ipf_figure_7`] does exactly this; [`KSlabForest::to_ipf`] does the joins
//! of one label at once, merging their subtrees level by level (same result, no hash table,
//! 2-3x faster; the property tests compare the two).
//!
//! Why this counts n-grams: every stream item increments one k-SF node `σ` whose labels from its
//! root are the items of the current and the previous slab up to the item (only the current slab
//! during the first slab after a `*`); so every n-gram (`n <= k`) ending at that item is a
//! suffix of that label sequence and is counted once, from the ancestor of `σ` where it starts.
//!
//! **Layout.** The result is stored in preorder, per function (functions ascending), roots and
//! children by label; every node keeps its parent, its depth and the end of its subtree, so
//! children, label sequences and subtrees are found without pointers. The conversion reads the
//! forest only, so it can run at any time: after a normal exit, a trap or an interrupt.

use super::forest::{KSlabForest, LabeledNode};
use crate::define_index;
use crate::path_hash::PathKeyHash;
use hashbrown::HashMap;
use serde::Serialize;

define_index!(
    /// A node of an [`Ipf`]: its preorder position.
    pub struct IpfNodeId = "p";
);

/// "No parent" (a root).
const NONE: u32 = u32::MAX;

/// One node of the k-IPF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpfNode {
    label: u64,
    count: u64,
    /// The parent's preorder position, or `NONE` for a root.
    parent: u32,
    /// 0 for a root.
    depth: u32,
    /// One past the last node of this node's subtree.
    end: u32,
}

impl IpfNode {
    /// The label: a BL path id.
    pub fn label(&self) -> u64 {
        self.label
    }
    /// How many times the label sequence from the root to this node occurs in the stream.
    pub fn count(&self) -> u64 {
        self.count
    }
    /// The depth: 0 for a root, so a node at depth `d` is a sequence of `d + 1` BL paths.
    pub fn depth(&self) -> u32 {
        self.depth
    }
    /// The parent, or `None` for a root.
    pub fn parent(&self) -> Option<IpfNodeId> {
        (self.parent != NONE).then_some(IpfNodeId::from_u32(self.parent))
    }
}

/// The shape of a k-IPF or of one function's trees (the paper's Figures 12-14).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct IpfShape {
    /// Number of nodes: distinct sequences of up to k BL paths that occurred (Figure 12).
    pub nodes: u64,
    /// Nodes with at least one child.
    pub internal_nodes: u64,
    /// Nodes without children.
    pub leaves: u64,
    /// Average number of children of an internal node (Figure 13); 0 when there is none.
    pub avg_internal_degree: f64,
    /// Average depth of a leaf, roots at depth 0 (Figure 14); 0 when empty.
    pub avg_leaf_depth: f64,
}

/// One function's part of a k-IPF, with its statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IpfFunction {
    /// The routine.
    pub function: u32,
    /// Hash-table operations on this function's roots (Figure 9): one per activation and one
    /// per shortcut resolved.
    pub hash_ops: u64,
    /// The root lookups Figure 6 would do for this function: one per slab.
    pub slab_starts: u64,
    /// Nodes of this function's k-SF trees (Figure 11).
    pub ksf_nodes: u64,
    /// The shape of this function's k-IPF trees.
    pub shape: IpfShape,
    /// Preorder positions `start..end` of this function's nodes.
    #[serde(skip)]
    start: u32,
    #[serde(skip)]
    end: u32,
}

impl IpfFunction {
    /// This function's nodes, in preorder.
    pub fn node_ids(&self) -> impl DoubleEndedIterator<Item = IpfNodeId> + ExactSizeIterator {
        (self.start..self.end).map(IpfNodeId::from_u32)
    }
}

/// Run-wide statistics of a k-SF and its k-IPF (the metrics of the paper's section 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct KblppStats {
    /// The k.
    pub k: u32,
    /// BL path ids pushed.
    pub pushes: u64,
    /// Hash-table operations done (root lookups; Figure 9 compares them with one per path for
    /// BL): one per activation and one per shortcut resolved.
    pub hash_ops: u64,
    /// The root lookups Figure 6 would do: one per slab (`O(1 + N/(k-1))` per activation of
    /// `N` paths).
    pub slab_starts: u64,
    /// Children lookups during construction (Figure 6, lines 13 and 21).
    pub child_lookups: u64,
    /// Siblings scanned over by those lookups (section 4.2's "node scans").
    pub sibling_steps: u64,
    /// Nodes of the k-SF (Figure 11).
    pub ksf_nodes: u64,
    /// Trees of the k-SF (entries of the root hash table).
    pub ksf_roots: u64,
    /// Bytes held by the k-SF: node arena (24 bytes a node), root table and root cache, as
    /// allocated.
    pub ksf_bytes: u64,
    /// The shape of the whole k-IPF (Figures 12-14).
    pub ipf: IpfShape,
}

/// A k-iterations path forest: for each function, the prefix forest of every sequence of up to
/// k consecutive BL paths of one activation, with its number of occurrences.
#[derive(Clone, Debug, PartialEq)]
pub struct Ipf {
    k: u32,
    nodes: Vec<IpfNode>,
    functions: Vec<IpfFunction>,
    stats: KblppStats,
}

/// A k-IPF node while the conversion builds it.
struct Building {
    label: u64,
    count: u64,
    /// The parent (a building position); dummy roots are their own parent.
    parent: u32,
}

/// The k-SF nodes grouped as Figure 7's sets `s(r)`, per function.
struct Grouped {
    /// Every node, sorted by (function, label, position).
    order: Vec<u32>,
    /// The function of every node (by position).
    function_of: Vec<u32>,
    /// The number of k-SF nodes of every function.
    ksf_nodes_of: HashMap<u32, u64>,
}

impl KSlabForest {
    /// Converts the forest into its k-IPF. Reads the forest only: it can be called at any
    /// time, and pushing may continue afterwards.
    ///
    /// This is Figure 7 with the joins of one label done together: the k-IPF tree of label `r`
    /// is the merge of the subtrees (depth `k - 1`) of all k-SF nodes labeled `r`, built level
    /// by level: the nodes merged into one k-IPF node are kept in a buffer per depth, their
    /// children gathered into the next depth's buffer and sorted by label, and each run of one
    /// label becomes one child, counters summed. No hash table, and the preorder comes out
    /// directly. [`to_ipf_figure_7`](Self::to_ipf_figure_7) is the literal version, kept as
    /// the reference it is tested against.
    pub fn to_ipf(&self) -> Ipf {
        let ksf = self.raw_nodes();
        let depth_limit = self.k() as usize - 1;
        let g = self.grouped();
        let mut nodes: Vec<IpfNode> = Vec::new();
        let mut parts = Vec::new();
        // levels[t]: the k-SF nodes of the runs at depth t, sorted by label.
        let mut levels: Vec<Vec<u32>> = vec![Vec::new()];
        // (depth, next position in levels[depth], the k-IPF node the runs hang below)
        let mut frames: Vec<(usize, usize, u32)> = Vec::new();
        let mut at = 0;
        while at < g.order.len() {
            let function = g.function_of[g.order[at] as usize];
            let mut to = at;
            while to < g.order.len() && g.function_of[g.order[to] as usize] == function {
                to += 1;
            }
            let start = nodes.len() as u32;
            levels[0].clear();
            levels[0].extend_from_slice(&g.order[at..to]);
            frames.push((0, 0, NONE));
            while let Some(&mut (depth, ref mut pos, parent)) = frames.last_mut() {
                let level = &levels[depth];
                if *pos >= level.len() {
                    frames.pop();
                    if parent != NONE {
                        nodes[parent as usize].end = nodes.len() as u32;
                    }
                    continue;
                }
                // One run of equal labels: one k-IPF node (join_subtree, lines 1-7).
                let label = ksf[level[*pos] as usize].label();
                let mut run_end = *pos;
                let mut count = 0u64;
                while run_end < level.len() && ksf[level[run_end] as usize].label() == label {
                    count += ksf[level[run_end] as usize].count();
                    run_end += 1;
                }
                let run = *pos..run_end;
                *pos = run_end;
                let me = nodes.len() as u32;
                nodes.push(IpfNode {
                    label,
                    count,
                    parent,
                    depth: depth as u32,
                    end: me + 1,
                });
                // Lines 8-11: the children of the whole run, one level down.
                if depth < depth_limit {
                    if levels.len() == depth + 1 {
                        levels.push(Vec::new());
                    }
                    let (upper, lower) = levels.split_at_mut(depth + 1);
                    let next = &mut lower[0];
                    next.clear();
                    for &rho in &upper[depth][run] {
                        let (mut child, _) = self.links(rho);
                        while let Some(sigma) = child {
                            next.push(sigma);
                            child = self.links(sigma).1;
                        }
                    }
                    if !next.is_empty() {
                        next.sort_unstable_by_key(|&sigma| ksf[sigma as usize].label());
                        frames.push((depth + 1, 0, me));
                    }
                }
            }
            parts.push((function, start, nodes.len() as u32));
            at = to;
        }
        self.assemble(nodes, parts, &g)
    }

    /// Converts the forest into its k-IPF exactly as Figure 7 does: every k-SF node's subtree
    /// (depth `k - 1`) is joined on its own under its function's dummy root, one hash lookup
    /// per node visited; the result is then laid out in preorder. The same result as
    /// [`to_ipf`](Self::to_ipf), slower; kept as its reference.
    pub fn to_ipf_figure_7(&self) -> Ipf {
        let ksf = self.raw_nodes();
        let depth_limit = self.k() - 1;
        let g = self.grouped();
        let order = &g.order;
        let function_of = &g.function_of;

        // Lines 8-13: join every subtree of depth up to k - 1 under the function's dummy root.
        let mut building: Vec<Building> = Vec::new();
        let mut dummies: Vec<(u32, u32)> = Vec::new(); // (function, dummy), ascending
        let mut child_of: HashMap<(u32, u64), u32, PathKeyHash> = HashMap::with_hasher(PathKeyHash);
        let mut join: Vec<(u32, u32, u32)> = Vec::new(); // (ρ, γ, remaining depth)
        for &rho in order {
            let function = function_of[rho as usize];
            let phi = match dummies.last() {
                Some(&(f, d)) if f == function => d,
                _ => {
                    let d = building.len() as u32;
                    building.push(Building {
                        label: 0,
                        count: 0,
                        parent: d,
                    });
                    dummies.push((function, d));
                    d
                }
            };
            join.push((rho, phi, depth_limit));
            while let Some((rho, gamma, d)) = join.pop() {
                // join_subtree(ρ, γ, d), lines 1-7.
                let label = ksf[rho as usize].label();
                let count = ksf[rho as usize].count();
                let delta = *child_of.entry((gamma, label)).or_insert_with(|| {
                    building.push(Building {
                        label,
                        count: 0,
                        parent: gamma,
                    });
                    building.len() as u32 - 1
                });
                building[delta as usize].count += count;
                // Lines 8-11.
                if d > 0 {
                    let (mut child, _) = self.links(rho);
                    while let Some(sigma) = child {
                        join.push((sigma, delta, d - 1));
                        child = self.links(sigma).1;
                    }
                }
            }
        }
        drop(child_of);

        // Line 14 and the layout: preorder per function, children by label, dummies removed.
        let mut kids: Vec<(u32, u64, u32)> = building
            .iter()
            .enumerate()
            .filter(|&(i, b)| b.parent != i as u32)
            .map(|(i, b)| (b.parent, b.label, i as u32))
            .collect();
        kids.sort_unstable();
        let mut first_kid = vec![0u32; building.len() + 1];
        for &(parent, _, _) in &kids {
            first_kid[parent as usize + 1] += 1;
        }
        for i in 0..building.len() {
            first_kid[i + 1] += first_kid[i];
        }

        let mut nodes: Vec<IpfNode> = Vec::with_capacity(kids.len());
        let mut parts = Vec::with_capacity(dummies.len());
        // (building position, parent preorder position, depth); `None` closes a subtree.
        let mut walk: Vec<Option<(u32, u32, u32)>> = Vec::new();
        let mut open: Vec<u32> = Vec::new();
        for &(function, dummy) in &dummies {
            let start = nodes.len() as u32;
            let (a, b) = (first_kid[dummy as usize], first_kid[dummy as usize + 1]);
            for i in (a..b).rev() {
                walk.push(Some((kids[i as usize].2, NONE, 0)));
            }
            while let Some(item) = walk.pop() {
                let Some((at, parent, depth)) = item else {
                    let closed = open.pop().expect("balanced walk");
                    nodes[closed as usize].end = nodes.len() as u32;
                    continue;
                };
                let me = nodes.len() as u32;
                let b = &building[at as usize];
                nodes.push(IpfNode {
                    label: b.label,
                    count: b.count,
                    parent,
                    depth,
                    end: me + 1,
                });
                open.push(me);
                walk.push(None);
                let (a, z) = (first_kid[at as usize], first_kid[at as usize + 1]);
                for i in (a..z).rev() {
                    walk.push(Some((kids[i as usize].2, me, depth + 1)));
                }
            }
            parts.push((function, start, nodes.len() as u32));
        }
        self.assemble(nodes, parts, &g)
    }

    /// Figure 7, lines 1-7: the function of every node and the nodes sorted by (function,
    /// label), which groups them into the sets `s(r)` of each function.
    fn grouped(&self) -> Grouped {
        let ksf = self.raw_nodes();
        let mut function_of = vec![0u32; ksf.len()];
        let mut ksf_nodes_of: HashMap<u32, u64> = HashMap::new();
        let mut stack: Vec<u32> = Vec::new();
        for (key, root) in self.roots() {
            stack.push(root.as_u32());
            let mut size = 0u64;
            while let Some(at) = stack.pop() {
                function_of[at as usize] = key.function;
                size += 1;
                let (mut child, _) = self.links(at);
                while let Some(c) = child {
                    stack.push(c);
                    child = self.links(c).1;
                }
            }
            *ksf_nodes_of.entry(key.function).or_default() += size;
        }
        let mut order: Vec<u32> = (0..ksf.len() as u32).collect();
        order.sort_unstable_by_key(|&at| (function_of[at as usize], ksf[at as usize].label(), at));
        Grouped {
            order,
            function_of,
            ksf_nodes_of,
        }
    }

    /// The k-IPF from its preorder nodes and each function's range `(function, start, end)`.
    fn assemble(&self, nodes: Vec<IpfNode>, parts: Vec<(u32, u32, u32)>, g: &Grouped) -> Ipf {
        let lookups_of = self.root_lookups_by_function();
        let functions = parts
            .into_iter()
            .map(|(function, start, end)| IpfFunction {
                function,
                hash_ops: lookups_of.get(&function).map_or(0, |l| l.0),
                slab_starts: lookups_of.get(&function).map_or(0, |l| l.1),
                ksf_nodes: g.ksf_nodes_of.get(&function).copied().unwrap_or(0),
                shape: shape(&nodes[start as usize..end as usize], start as usize),
                start,
                end,
            })
            .collect();
        let counters = self.counters();
        let stats = KblppStats {
            k: self.k(),
            pushes: counters.pushes,
            hash_ops: counters.hash_ops,
            slab_starts: counters.slab_starts,
            child_lookups: counters.child_lookups,
            sibling_steps: counters.sibling_steps,
            ksf_nodes: self.len() as u64,
            ksf_roots: self.num_roots() as u64,
            ksf_bytes: self.memory_bytes() as u64,
            ipf: shape(&nodes, 0),
        };
        Ipf {
            k: self.k(),
            nodes,
            functions,
            stats,
        }
    }
}

/// The shape of the whole trees `nodes`, which start at preorder position `base`.
fn shape(nodes: &[IpfNode], base: usize) -> IpfShape {
    let mut s = IpfShape {
        nodes: nodes.len() as u64,
        ..IpfShape::default()
    };
    let mut children = 0u64;
    let mut leaf_depths = 0u64;
    // In preorder, a node is internal iff the next node is its first child.
    for (i, n) in nodes.iter().enumerate() {
        if n.end as usize > base + i + 1 {
            s.internal_nodes += 1;
        } else {
            s.leaves += 1;
            leaf_depths += u64::from(n.depth);
        }
        if n.parent != NONE {
            children += 1;
        }
    }
    if s.internal_nodes > 0 {
        s.avg_internal_degree = children as f64 / s.internal_nodes as f64;
    }
    if s.leaves > 0 {
        s.avg_leaf_depth = leaf_depths as f64 / s.leaves as f64;
    }
    s
}

impl Ipf {
    /// The k.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of nodes (all functions).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the stream had no path.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node `id`.
    pub fn node(&self, id: IpfNodeId) -> &IpfNode {
        &self.nodes[id.index()]
    }

    /// The functions with at least one path, ascending.
    pub fn functions(&self) -> &[IpfFunction] {
        &self.functions
    }

    /// The part of `function`, if it has any path.
    pub fn function(&self, function: u32) -> Option<&IpfFunction> {
        self.functions
            .binary_search_by_key(&function, |f| f.function)
            .ok()
            .map(|i| &self.functions[i])
    }

    /// Run-wide statistics.
    pub fn stats(&self) -> &KblppStats {
        &self.stats
    }

    /// The roots of `function`'s trees, by label.
    pub fn roots<'a>(&'a self, function: &IpfFunction) -> IpfSiblings<'a> {
        IpfSiblings {
            nodes: &self.nodes,
            at: function.start,
            end: function.end,
        }
    }

    /// The children of `id`, by label.
    pub fn children(&self, id: IpfNodeId) -> IpfSiblings<'_> {
        IpfSiblings {
            nodes: &self.nodes,
            at: id.as_u32() + 1,
            end: self.nodes[id.index()].end,
        }
    }

    /// The nodes of the subtree of `id` (itself first), in preorder.
    pub fn subtree(&self, id: IpfNodeId) -> impl ExactSizeIterator<Item = IpfNodeId> {
        (id.as_u32()..self.nodes[id.index()].end).map(IpfNodeId::from_u32)
    }

    /// The labels (BL ids) from the root to `id`.
    pub fn ids(&self, id: IpfNodeId) -> Vec<u64> {
        let mut ids = Vec::with_capacity(self.nodes[id.index()].depth as usize + 1);
        let mut at = id.as_u32();
        while at != NONE {
            let n = &self.nodes[at as usize];
            ids.push(n.label);
            at = n.parent;
        }
        ids.reverse();
        ids
    }

    /// The node of `function` with labels `ids` from its root, if that sequence occurred.
    pub fn find(&self, function: u32, ids: &[u64]) -> Option<IpfNodeId> {
        let f = self.function(function)?;
        let (&first, rest) = ids.split_first()?;
        let mut at = self.roots(f).find(|&r| self.node(r).label == first)?;
        for &label in rest {
            at = self.children(at).find(|&c| self.node(c).label == label)?;
        }
        Some(at)
    }

    /// How many times the sequence `ids` of BL paths of `function` occurred (0 if it did not,
    /// or if it is empty or longer than k).
    pub fn count(&self, function: u32, ids: &[u64]) -> u64 {
        self.find(function, ids).map_or(0, |n| self.node(n).count)
    }

    /// The subtree of `root` pruned as in the paper's Figure 4: in preorder, every node whose
    /// count is at least `min_share` times the count of `root` (its subtree is skipped
    /// otherwise; by Property 1 counts never grow downwards, so nothing below it would pass).
    pub fn pruned(&self, root: IpfNodeId, min_share: f64) -> Vec<IpfNodeId> {
        let threshold = min_share * self.node(root).count as f64;
        let mut kept = Vec::new();
        let mut at = root.as_u32();
        let end = self.node(root).end;
        while at < end {
            let n = &self.nodes[at as usize];
            if n.count as f64 >= threshold {
                kept.push(IpfNodeId::from_u32(at));
                at += 1;
            } else {
                at = n.end;
            }
        }
        kept
    }

    /// The `limit` most frequent sequences of `function` made of at least `min_paths` BL paths,
    /// by count (descending), then by label sequence.
    pub fn hottest(
        &self,
        function: &IpfFunction,
        min_paths: usize,
        limit: usize,
    ) -> Vec<IpfNodeId> {
        let min_depth = min_paths.saturating_sub(1);
        let mut ranked: Vec<(u64, Vec<u64>, IpfNodeId)> = function
            .node_ids()
            .filter(|&id| self.node(id).depth as usize >= min_depth)
            .map(|id| (self.node(id).count, self.ids(id), id))
            .collect();
        ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        ranked.truncate(limit);
        ranked.into_iter().map(|(_, _, id)| id).collect()
    }

    /// Every node written as its function and label sequence, with its count, in preorder.
    pub fn labeled_nodes(&self) -> Vec<LabeledNode> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut ids: Vec<u64> = Vec::new();
        for f in &self.functions {
            for id in f.node_ids() {
                let n = &self.nodes[id.index()];
                ids.truncate(n.depth as usize);
                ids.push(n.label);
                out.push(LabeledNode {
                    function: f.function,
                    ids: ids.clone(),
                    count: n.count,
                });
            }
        }
        out
    }
}

/// Iterator over sibling nodes of a k-IPF, by label ([`Ipf::roots`], [`Ipf::children`]).
#[derive(Clone, Debug)]
pub struct IpfSiblings<'a> {
    nodes: &'a [IpfNode],
    at: u32,
    end: u32,
}

impl Iterator for IpfSiblings<'_> {
    type Item = IpfNodeId;
    fn next(&mut self) -> Option<IpfNodeId> {
        if self.at >= self.end {
            return None;
        }
        let id = IpfNodeId::from_u32(self.at);
        self.at = self.nodes[self.at as usize].end;
        Some(id)
    }
}
