//! k-BLPP in bounded memory: pruning the cold subtrees of a k-slab forest on the fly.
//!
//! The k-BLPP paper leaves open how to profile in bounded space (section 5) and suggests
//! approximate counting of the hot paths. [`KSlabForest::prune`] keeps at most `keep` nodes
//! (plus those the running activations stand on): a node's *heat* is the largest counter in
//! its subtree, so heat never grows going down and keeping the hottest nodes keeps whole root
//! paths. Every removed node's count goes to the [`Spill`] under its last `k` labels, which
//! credits it at the end to the sequences Figure 7 would have (the suffixes of at most `k`
//! labels), so the k-IPF of the pruned forest plus the spill equals the unbounded one while
//! the spill keeps everything. A removed node the stream reaches again is created again with count 0
//! and counts on.
//!
//! The arena is rebuilt in preorder: child lists keep their order (and the thread to their
//! parent at their end), shortcuts to kept nodes are moved, shortcuts to removed ones become
//! unresolved (resolved again on first use, adding the upper chain again), the root table is
//! rebuilt and the root cache emptied, and the cursors of the active frames are moved.
//!
//! Then the spill is settled ([`Spill::settle`]): when it must evict, it ranks its sequences
//! by their whole count, its own plus what the pruned forest counts of them (Figure 7 over the
//! kept nodes, worked out only then: a transient table of at most `k` entries a node).

use super::super::spill::{credit_suffixes, Sequence, SequenceCounts, Spill};
use super::{real, Cursor, KSlabForest, KsfNode, NodeId, RootSlot, LINK, NONE, ROOT_CACHE};

/// What one pruning did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PruneStats {
    /// Nodes before.
    pub before: usize,
    /// Nodes kept.
    pub kept: usize,
    /// Nodes kept only because an active frame stands on them (or below them).
    pub pinned: usize,
    /// The heat a node needed to be kept (above it, or pinned).
    pub threshold: u64,
}

impl KSlabForest {
    /// Removes the coldest nodes so that at most `keep` remain besides those the `cursors`
    /// (the active frames) stand on and their ancestors; moves the cursors to the rebuilt
    /// arena and adds every removed count to `spill` (module documentation).
    pub fn prune(
        &mut self,
        keep: usize,
        cursors: &mut [&mut Cursor],
        spill: &mut Spill,
    ) -> PruneStats {
        let n = self.nodes.len();
        // Preorder from the roots in key order (a deterministic arena), with parents, depths
        // and each node's function.
        let mut roots: Vec<((u32, u64), NodeId)> =
            self.roots.iter().map(|(&k, &v)| (k, v)).collect();
        roots.sort_unstable_by_key(|&(k, _)| k);
        let mut parent = vec![NONE; n];
        let mut depth = vec![0u32; n];
        let mut function = vec![0u32; n];
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let mut stack: Vec<u32> = Vec::new();
        for &((f, _), root) in &roots {
            stack.push(root.as_u32());
            function[root.index()] = f;
            while let Some(x) = stack.pop() {
                order.push(x);
                // Children pushed in reverse so that they come out in list order.
                let first = stack.len();
                let mut c = real(self.nodes[x as usize].first_child);
                while let Some(child) = c {
                    parent[child as usize] = x;
                    depth[child as usize] = depth[x as usize] + 1;
                    function[child as usize] = f;
                    stack.push(child);
                    c = real(self.nodes[child as usize].next_sibling);
                }
                stack[first..].reverse();
            }
        }
        // Heat: the largest count in the subtree; the active frames' nodes and their
        // ancestors are pinned (infinitely hot).
        let mut heat: Vec<u64> = self.nodes.iter().map(KsfNode::count).collect();
        for &x in order.iter().rev() {
            let p = parent[x as usize];
            if p != NONE {
                heat[p as usize] = heat[p as usize].max(heat[x as usize]);
            }
        }
        for cursor in cursors.iter() {
            let mut at = cursor.at;
            while (at as usize) < n {
                heat[at as usize] = u64::MAX;
                at = parent[at as usize];
            }
        }
        let pinned = heat.iter().filter(|&&h| h == u64::MAX).count();
        if n <= keep {
            return PruneStats {
                before: n,
                kept: n,
                pinned,
                threshold: 0,
            };
        }
        let mut sorted = heat.clone();
        let (_, &mut threshold, _) = sorted.select_nth_unstable_by(keep, |a, b| b.cmp(a));
        let kept = |x: u32| heat[x as usize] > threshold || heat[x as usize] == u64::MAX;

        // The removed counts, to the sequences Figure 7 credits them to: the labels from the
        // root down to each node are kept along the preorder walk.
        let mut path: Vec<u64> = Vec::new();
        for &x in &order {
            let d = depth[x as usize];
            let node = &self.nodes[x as usize];
            path.truncate(d as usize);
            path.push(node.label);
            let count = node.count;
            if kept(x) || count == 0 {
                continue;
            }
            let work = self.pruned.entry(function[x as usize]).or_default();
            work.0 += count;
            if d == 0 {
                work.1 += count;
            } else if self.k > 1 && d == self.k - 1 {
                work.2 += count;
            }
            // The spill keeps the last k labels, all Figure 7 credits the count by.
            spill.add(function[x as usize], &path, count);
        }

        // The rebuilt arena, in preorder.
        let mut new_index = vec![NONE; n];
        let mut nodes: Vec<KsfNode> = Vec::new();
        for &x in &order {
            if kept(x) {
                new_index[x as usize] = nodes.len() as u32;
                nodes.push(self.nodes[x as usize]);
            }
        }
        for &x in &order {
            let to = new_index[x as usize];
            if to == NONE {
                continue;
            }
            let old = self.nodes[x as usize];
            // The first kept child, or the shortcut moved (or dropped: unresolved).
            nodes[to as usize].first_child = if old.first_child != NONE && old.first_child >= LINK {
                let target = new_index[(old.first_child & !LINK) as usize];
                if target == NONE {
                    NONE
                } else {
                    LINK | target
                }
            } else {
                let mut c = real(old.first_child);
                while let Some(child) = c.filter(|&c| !kept(c)) {
                    c = real(self.nodes[child as usize].next_sibling);
                }
                c.map_or(NONE, |c| new_index[c as usize])
            };
            // The next kept sibling, or the thread to the parent (a root has neither).
            let p = parent[x as usize];
            nodes[to as usize].next_sibling = if p == NONE {
                NONE
            } else {
                let mut s = real(old.next_sibling);
                while let Some(sibling) = s.filter(|&s| !kept(s)) {
                    s = real(self.nodes[sibling as usize].next_sibling);
                }
                s.map_or(LINK | new_index[p as usize], |s| new_index[s as usize])
            };
        }
        self.nodes = nodes;
        self.roots.retain(|_, node| new_index[node.index()] != NONE);
        for node in self.roots.values_mut() {
            *node = NodeId::from_u32(new_index[node.index()]);
        }
        *self.root_cache = [RootSlot::EMPTY; ROOT_CACHE];
        for cursor in cursors.iter_mut() {
            if (cursor.at as usize) < n {
                cursor.at = new_index[cursor.at as usize];
            }
        }
        spill.settle(|| self.sequence_counts());
        PruneStats {
            before: n,
            kept: self.nodes.len(),
            pinned,
            threshold,
        }
    }

    /// What Figure 7 makes of this forest, by (function, sequence): every node's count
    /// credited to each suffix of at most `k` of its labels from the root.
    fn sequence_counts(&self) -> SequenceCounts {
        let k = self.k.max(1) as usize;
        let mut tails = SequenceCounts::new();
        let mut labels: Vec<u64> = Vec::new();
        let mut stack: Vec<(u32, usize)> = Vec::new();
        for (&(function, _), root) in &self.roots {
            stack.push((root.as_u32(), 0));
            while let Some((x, depth)) = stack.pop() {
                let node = &self.nodes[x as usize];
                labels.truncate(depth);
                labels.push(node.label);
                if node.count > 0 {
                    let tail = &labels[labels.len().saturating_sub(k)..];
                    *tails
                        .entry((function, Sequence::from_slice(tail)))
                        .or_default() += node.count;
                }
                let mut c = real(node.first_child);
                while let Some(child) = c {
                    stack.push((child, depth + 1));
                    c = real(self.nodes[child as usize].next_sibling);
                }
            }
        }
        let mut counts = SequenceCounts::new();
        credit_suffixes(&mut counts, tails);
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::spill::Spill;
    use super::*;
    use crate::kblpp::RootKey;

    /// A deterministic stream of one function with hot and cold ids: pseudo-random with a
    /// hot loop.
    fn stream(len: usize, seed: u64) -> Vec<Option<u64>> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (x >> 33) % 23 {
                    0 => None, // a routine entry `*`
                    1..=14 => Some(0),
                    15..=18 => Some(1),
                    r => Some(r + (x >> 40) % 60),
                }
            })
            .collect()
    }

    /// The k-IPF of the stream, unbounded and pruned to `keep` nodes whenever the forest
    /// reaches `limit`, as `(function, sequence) -> count` maps (the pruned one plus its spill).
    fn both(k: u32, items: &[Option<u64>], limit: usize, keep: usize, cap: usize) -> Compared {
        let mut exact = KSlabForest::new(k);
        let mut bounded = KSlabForest::new(k);
        let mut spill = Spill::new(k, cap);
        let (mut c1, mut c2) = (Cursor::default(), Cursor::default());
        let mut prunings = 0;
        for item in items {
            match item {
                None => {
                    c1 = Cursor::default();
                    c2 = Cursor::default();
                }
                Some(id) => {
                    exact.push(&mut c1, RootKey::new(0, *id));
                    bounded.push(&mut c2, RootKey::new(0, *id));
                    if bounded.len() >= limit {
                        let work = bounded.counters();
                        bounded.prune(keep, &mut [&mut c2], &mut spill);
                        prunings += 1;
                        assert!(bounded.len() <= keep + 2 * k as usize);
                        // The work counters are the same before and after.
                        let after = bounded.counters();
                        assert_eq!((after.pushes, after.hash_ops), (work.pushes, work.hash_ops));
                        assert_eq!(after.slab_starts, work.slab_starts);
                    }
                }
            }
        }
        // Every push and every slab start is still counted.
        let (b, e) = (bounded.counters(), exact.counters());
        assert_eq!((b.pushes, b.slab_starts), (e.pushes, e.slab_starts));
        let map = |f: &KSlabForest| {
            let ipf = f.to_ipf();
            let mut m = std::collections::BTreeMap::new();
            for i in 0..ipf.len() {
                let node = crate::kblpp::IpfNodeId::new(i);
                m.insert(ipf.ids(node), ipf.node(node).count());
            }
            m
        };
        let mut bounded_map = map(&bounded);
        for ((_, seq), c) in spill.ipf_counts() {
            *bounded_map.entry(seq.to_vec()).or_default() += c;
        }
        bounded_map.retain(|_, c| *c > 0);
        Compared {
            exact: map(&exact),
            bounded: bounded_map,
            prunings,
            evicted: spill.evicted(0),
        }
    }

    struct Compared {
        exact: std::collections::BTreeMap<Vec<u64>, u64>,
        bounded: std::collections::BTreeMap<Vec<u64>, u64>,
        prunings: usize,
        evicted: u64,
    }

    #[test]
    fn pruned_forest_plus_spill_is_the_exact_k_ipf() {
        for k in 1..=5 {
            for seed in 0..6 {
                let items = stream(3000, seed);
                let c = both(k, &items, 40, 20, usize::MAX);
                assert!(
                    c.prunings > 0,
                    "k {k} seed {seed}: the bound was never reached"
                );
                assert_eq!(c.evicted, 0);
                assert_eq!(c.bounded, c.exact, "k {k} seed {seed}");
            }
        }
    }

    #[test]
    fn with_a_small_spill_counts_are_lower_bounds_within_what_was_evicted() {
        for k in 2..=4 {
            let items = stream(4000, 99);
            let c = both(k, &items, 40, 20, 30);
            assert!(c.evicted > 0);
            for (seq, &count) in &c.bounded {
                let truth = c.exact.get(seq).copied().unwrap_or(0);
                assert!(count <= truth, "k {k}: {seq:?} {count} > {truth}");
                assert!(truth - count <= c.evicted, "k {k}: {seq:?}");
            }
            for (seq, &truth) in &c.exact {
                let count = c.bounded.get(seq).copied().unwrap_or(0);
                assert!(truth - count <= c.evicted, "k {k}: {seq:?} lost");
            }
        }
    }
}
