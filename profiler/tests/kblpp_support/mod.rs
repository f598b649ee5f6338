//! Slow reference implementations for the k-BLPP tests, written from the definitions of the
//! paper (D'Elia, Demetrescu, Finocchi 2013, section 2.2-2.3), not from the crate's code:
//! - [`ngram_counts`]: Definition 2, the k-IPF as counts of every contiguous subsequence of
//!   length 1..=k of one activation's paths (an activation = the paths between two `*`);
//! - [`definition_3_list`] and [`prefix_forest`]: Definition 3's list L of an activation and
//!   Definition 1's prefix forest of a list.

#![allow(dead_code)]

use profiler::kblpp::LabeledNode;
use std::collections::BTreeMap;

/// One activation: its function and the BL ids it emitted, in order.
pub type Activation = (u32, Vec<u64>);

/// (function, label sequence) -> count.
pub type Counts = BTreeMap<(u32, Vec<u64>), u64>;

/// Definition 2: every n-gram (1 <= n <= k) of every activation, counted.
pub fn ngram_counts(activations: &[Activation], k: usize) -> Counts {
    let mut counts = Counts::new();
    for (function, ids) in activations {
        for start in 0..ids.len() {
            for n in 1..=k {
                if start + n > ids.len() {
                    break;
                }
                *counts
                    .entry((*function, ids[start..start + n].to_vec()))
                    .or_default() += 1;
            }
        }
    }
    counts
}

/// The slabs of one activation for k >= 2: its ids cut every k - 1 items.
pub fn slabs(ids: &[u64], k: usize) -> Vec<Vec<u64>> {
    assert!(k >= 2);
    ids.chunks(k - 1).map(<[u64]>::to_vec).collect()
}

/// Definition 3's list L for one activation (k >= 2): all prefixes of `s1 · s2`, and all
/// prefixes of length >= k of `s_i · s_{i+1}` for `i` in `2..=m-1`.
pub fn definition_3_list(ids: &[u64], k: usize) -> Vec<Vec<u64>> {
    let s = slabs(ids, k);
    let mut list = Vec::new();
    if s.is_empty() {
        return list;
    }
    let first: Vec<u64> = s.iter().take(2).flatten().copied().collect();
    for len in 1..=first.len() {
        list.push(first[..len].to_vec());
    }
    for i in 1..s.len().saturating_sub(1) {
        let pair: Vec<u64> = s[i].iter().chain(&s[i + 1]).copied().collect();
        for len in k..=pair.len() {
            list.push(pair[..len].to_vec());
        }
    }
    list
}

/// Definition 1: the prefix forest of a list of (function, sequence): a node for every prefix
/// of every listed sequence, its counter the number of times exactly that sequence is listed.
pub fn prefix_forest(list: &[(u32, Vec<u64>)]) -> Counts {
    let mut forest = Counts::new();
    for (function, seq) in list {
        for len in 1..seq.len() {
            forest.entry((*function, seq[..len].to_vec())).or_default();
        }
        *forest.entry((*function, seq.clone())).or_default() += 1;
    }
    forest
}

/// The crate's labeled nodes as a map (and a check that no label sequence is listed twice).
pub fn as_counts(nodes: &[LabeledNode]) -> Counts {
    let mut counts = Counts::new();
    for n in nodes {
        let old = counts.insert((n.function, n.ids.clone()), n.count);
        assert!(old.is_none(), "node {:?} listed twice", n.ids);
    }
    counts
}
