//! The counts a bounded k-slab forest pruned away ([`KSlabForest::prune`]), kept by the label
//! sequence of the node that held them, so that the k-IPF built at the end still includes
//! them.
//!
//! Figure 7 adds the count of every k-SF node `σ` to each sequence that is a suffix (of at most
//! `k` labels) of the labels from its root to `σ`. When a pruning removes `σ`, its count is
//! added here under that label sequence (one entry per distinct removed node: a cold node that
//! the stream creates again and that is pruned again adds to the same entry, one hash
//! operation a pruned node). Past `cap` such entries they are *folded*: each is credited to its
//! suffixes as Figure 7 would, in counts by sequence, where the cold contexts of a hot sequence
//! add up under that one sequence. So `forest.to_ipf()` plus the spill
//! ([`Spill::ipf_counts`]) is exactly the k-IPF of the unbounded forest, as long as the spill
//! holds every sequence it was given. It holds at most `4 x cap` sequences: beyond that, the
//! coldest half is evicted (space-saving in the spirit of Metwally, Agrawal and El Abbadi,
//! 2005), and every count of the functions that lost something becomes a lower bound, below
//! the true count by at most what they lost ([`Spill::evicted`]).
//!
//! [`KSlabForest::prune`]: super::KSlabForest::prune

use std::hash::{Hash, Hasher};

use hashbrown::{Equivalent, HashMap};
use smallvec::SmallVec;

/// A k-IPF sequence of one function: its BL path ids.
pub type Sequence = SmallVec<[u64; 8]>;

/// An entry's key: a function and the labels from a root to a removed node.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    function: u32,
    labels: Box<[u64]>,
}

/// A key to look up without allocating (hashes as [`Key`] does).
struct KeyRef<'a> {
    function: u32,
    labels: &'a [u64],
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.function.hash(state);
        self.labels.hash(state);
    }
}

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.function.hash(state);
        self.labels.hash(state);
    }
}

impl Equivalent<Key> for KeyRef<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.function == key.function && *self.labels == *key.labels
    }
}

impl From<&KeyRef<'_>> for Key {
    fn from(k: &KeyRef<'_>) -> Key {
        Key {
            function: k.function,
            labels: k.labels.into(),
        }
    }
}

/// Counts of pruned k-SF nodes: by node (function, labels from the root) until there are
/// `cap` of those, then folded into counts by k-IPF sequence (at most `4 x cap`).
#[derive(Clone, Debug, Default)]
pub struct Spill {
    /// The `k` of the forest.
    k: u32,
    /// The most node entries held before they are folded.
    cap: usize,
    /// Counts by removed node: a cold node pruned again and again adds to one entry.
    nodes: HashMap<Key, u64>,
    /// Counts by k-IPF sequence, from the node entries folded.
    sequences: HashMap<(u32, Sequence), u64>,
    /// Per function, the sum of the counts evicted (absent: nothing evicted).
    evicted: HashMap<u32, u64>,
}

impl Spill {
    /// An empty spill for a forest of `k`, folding its node entries into sequences past `cap`
    /// of them (at least 1) and holding at most `4 x cap` sequences.
    pub fn new(k: u32, cap: usize) -> Spill {
        Spill {
            k: k.max(1),
            cap: cap.max(1),
            ..Spill::default()
        }
    }

    /// Adds `count` to the node of `function` reached by `labels` from its root.
    pub fn add(&mut self, function: u32, labels: &[u64], count: u64) {
        if count == 0 {
            return;
        }
        let key = KeyRef { function, labels };
        if let Some(c) = self.nodes.get_mut(&key) {
            *c = c.saturating_add(count);
            return;
        }
        self.nodes.insert(Key::from(&key), count);
        if self.nodes.len() > self.cap {
            self.fold();
        }
    }

    /// Credits every node entry to its sequences (Figure 7) and empties them; past the
    /// sequences' capacity, evicts the coldest half of those.
    fn fold(&mut self) {
        let k = self.k as usize;
        for (key, count) in self.nodes.drain() {
            let n = key.labels.len();
            for len in 1..=n.min(k) {
                let c = self
                    .sequences
                    .entry((key.function, Sequence::from_slice(&key.labels[n - len..])))
                    .or_default();
                *c = c.saturating_add(count);
            }
        }
        if self.sequences.len() > 4 * self.cap {
            self.evict();
        }
    }

    /// Removes the coldest half of the sequences, remembering per function what was lost.
    fn evict(&mut self) {
        let mut counts: Vec<u64> = self.sequences.values().copied().collect();
        let half = counts.len() / 2;
        let (_, &mut threshold, _) = counts.select_nth_unstable(half);
        // Strictly below the median, or all of them at the median when that is the minimum.
        let lowest = *counts.iter().min().expect("the spill is not empty");
        let evicted = &mut self.evicted;
        self.sequences.retain(|(function, _), c| {
            let keep = *c > threshold || (threshold > lowest && *c == threshold);
            if !keep {
                let e = evicted.entry(*function).or_default();
                *e = e.saturating_add(*c);
            }
            keep
        });
    }

    /// What the spill adds to the k-IPF, by (function, sequence): the sequences folded, and
    /// each node entry not folded yet credited to every suffix of at most `k` of its labels.
    pub fn ipf_counts(&self) -> HashMap<(u32, Sequence), u64> {
        let mut out = self.sequences.clone();
        let k = self.k as usize;
        for (key, &count) in &self.nodes {
            let n = key.labels.len();
            for len in 1..=n.min(k) {
                let c = out
                    .entry((key.function, Sequence::from_slice(&key.labels[n - len..])))
                    .or_default();
                *c = c.saturating_add(count);
            }
        }
        out
    }

    /// The sum of the counts `function` lost by evictions: every count of it is at most that
    /// much below the truth; 0 when it lost nothing (its counts are exact).
    pub fn evicted(&self, function: u32) -> u64 {
        self.evicted.get(&function).copied().unwrap_or(0)
    }

    /// The number of entries held (nodes and sequences).
    pub fn len(&self) -> usize {
        self.nodes.len() + self.sequences.len()
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_until_the_capacity_then_the_coldest_half_goes() {
        // Two node entries, folded at the third; eight sequences at most.
        let mut s = Spill::new(2, 2);
        s.add(0, &[1], 5);
        s.add(0, &[1], 2);
        assert_eq!(s.ipf_counts()[&(0, Sequence::from_slice(&[1]))], 7);
        s.add(0, &[1, 2], 1);
        s.add(1, &[3], 9);
        s.add(1, &[3, 3], 8);
        // [3] is credited by the node [3] and, as a suffix, by the node [3, 3].
        let counts = s.ipf_counts();
        assert_eq!(counts[&(1, Sequence::from_slice(&[3]))], 17);
        assert_eq!(counts[&(1, Sequence::from_slice(&[3, 3]))], 8);
        assert_eq!(counts[&(0, Sequence::from_slice(&[2]))], 1);
        assert_eq!(s.evicted(0) + s.evicted(1), 0);
        // Past eight sequences the cold half goes: the hot [3] stays, and what went is counted.
        for id in 10..20 {
            s.add(0, &[id], 1);
        }
        assert!(s.len() <= 8 + 2);
        assert!(s.evicted(0) > 0);
        assert_eq!(s.ipf_counts()[&(1, Sequence::from_slice(&[3]))], 17);
    }

    #[test]
    fn entries_credit_their_suffixes_up_to_k() {
        let mut s = Spill::new(2, 10);
        s.add(2, &[7, 8, 9], 4);
        let counts = s.ipf_counts();
        assert_eq!(counts.len(), 2);
        assert_eq!(counts[&(2, Sequence::from_slice(&[9]))], 4);
        assert_eq!(counts[&(2, Sequence::from_slice(&[8, 9]))], 4);
    }

    #[test]
    fn equal_counts_are_evicted_together() {
        let mut s = Spill::new(1, 1);
        for id in 0..6 {
            s.add(0, &[id], 1);
        }
        assert!(s.len() <= 5);
        assert!(s.evicted(0) >= 1);
    }
}
