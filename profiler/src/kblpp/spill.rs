//! The counts a bounded k-slab forest pruned away ([`KSlabForest::prune`]), kept by the last
//! labels of the node that held them, so that the k-IPF built at the end still includes them.
//!
//! Figure 7 adds the count of every k-SF node `σ` to each sequence that is a suffix (of at most
//! `k` labels) of the labels from its root to `σ`: what it credits depends on the last `k`
//! labels only. When a pruning removes `σ`, its count is added here under those last (at most
//! `k`) labels, its *tail*: one hash operation a pruned node, and one entry for every removed
//! node with that tail (a cold node the stream creates again and that is pruned again, and the
//! nodes that differ only in their labels nearer the root). A tail is itself a k-IPF
//! sequence, so there are never more tails than sequences in the k-IPF. Past `cap` tails they
//! are *folded*: each is credited to its suffixes as Figure 7 would, in counts by sequence,
//! where the cold contexts of a hot sequence add up under that one sequence. So
//! `forest.to_ipf()` plus the spill ([`Spill::ipf_counts`]) is exactly the k-IPF of the
//! unbounded forest, as long as the spill keeps every sequence it was given.
//!
//! It keeps at most `4 x cap` sequences. Beyond, about half of them are evicted
//! (space-saving in the spirit of Metwally, Agrawal and El Abbadi, 2005): the coldest, ranked
//! by their whole count so far (what the spill holds plus what the pruned forest counts of the
//! same sequence, so a sequence hot in the forest but rarely spilled is not taken for a cold
//! one), and only from the functions that hold more than their fair share of the room
//! (max-min fairness: a small function's few sequences are not pushed out by a large
//! function's long tail of cold ones). Every count of a function that lost something becomes a
//! lower bound, below the true count by at most what the function lost ([`Spill::evicted`]).
//!
//! [`KSlabForest::prune`]: super::KSlabForest::prune

use hashbrown::HashMap;
use smallvec::SmallVec;

/// A k-IPF sequence of one function: its BL path ids.
pub type Sequence = SmallVec<[u64; 8]>;

/// Counts by (function, sequence).
pub type SequenceCounts = HashMap<(u32, Sequence), u64>;

/// Counts of pruned k-SF nodes: by tail (function, the node's last `k` labels) until there are
/// `cap` of those, then folded into counts by k-IPF sequence (at most `4 x cap`).
#[derive(Clone, Debug, Default)]
pub struct Spill {
    /// The `k` of the forest.
    k: u32,
    /// The most tails held before they are folded.
    cap: usize,
    /// Counts by tail, each to be credited to every suffix of its tail.
    tails: SequenceCounts,
    /// Counts by k-IPF sequence, from the tails folded.
    sequences: SequenceCounts,
    /// Per function, the sum of the counts evicted (absent: nothing evicted).
    evicted: HashMap<u32, u64>,
}

impl Spill {
    /// An empty spill for a forest of `k`, folding its tails into sequences past `cap` of them
    /// (at least 1) and holding at most `4 x cap` sequences.
    pub fn new(k: u32, cap: usize) -> Spill {
        Spill {
            k: k.max(1),
            cap: cap.max(1),
            ..Spill::default()
        }
    }

    /// Adds `count` to a removed node of `function` whose labels from its root end with
    /// `labels` (its last `k` labels or more; all of them for a node nearer the root).
    pub fn add(&mut self, function: u32, labels: &[u64], count: u64) {
        if count == 0 {
            return;
        }
        let tail = &labels[labels.len().saturating_sub(self.k as usize)..];
        let c = self
            .tails
            .entry((function, Sequence::from_slice(tail)))
            .or_default();
        *c = c.saturating_add(count);
    }

    /// Brings the spill back within its capacity after a pruning's [`Spill::add`]s: folds the
    /// tails past `cap` of them, and past `4 x cap` sequences evicts about half (module
    /// documentation). `forest_counts` gives what the pruned forest counts by sequence (its
    /// k-IPF's counts), asked for only when sequences are evicted.
    pub fn settle(&mut self, forest_counts: impl FnOnce() -> SequenceCounts) {
        if self.tails.len() > self.cap {
            credit_suffixes(&mut self.sequences, self.tails.drain());
        }
        if self.sequences.len() > self.cap.saturating_mul(4) {
            self.evict(&forest_counts());
        }
    }

    /// Removes about half of the sequences, remembering per function what was lost. The room
    /// left is shared among the functions by max-min fairness (water-filling): a function
    /// holding no more than its share keeps every sequence; each function above its share
    /// keeps its hottest up to it, hottest by the count spilled plus the forest's.
    fn evict(&mut self, forest: &SequenceCounts) {
        let entries: Vec<((u32, Sequence), u64, u64)> = self
            .sequences
            .drain()
            .map(|(key, c)| {
                let rank = c.saturating_add(forest.get(&key).copied().unwrap_or(0));
                (key, c, rank)
            })
            .collect();
        let mut by_function: HashMap<u32, Vec<u64>> = HashMap::new();
        for ((function, _), _, rank) in &entries {
            by_function.entry(*function).or_default().push(*rank);
        }
        let mut sizes: Vec<(usize, u32)> = by_function.iter().map(|(&f, r)| (r.len(), f)).collect();
        sizes.sort_unstable();
        let mut room = entries.len() / 2;
        // Per function over its share, the rank at or below which its sequences go (those at
        // the threshold stay when it is above the function's lowest rank).
        let mut thresholds: HashMap<u32, (u64, u64)> = HashMap::new();
        for (i, &(size, function)) in sizes.iter().enumerate() {
            let share = room / (sizes.len() - i);
            if size <= share {
                room -= size;
                continue;
            }
            room -= share;
            let ranks = by_function.get_mut(&function).expect("counted above");
            let (_, &mut threshold, _) = ranks.select_nth_unstable_by(share, |a, b| b.cmp(a));
            let lowest = *ranks.iter().min().expect("the function holds sequences");
            thresholds.insert(function, (threshold, lowest));
        }
        for (key, c, rank) in entries {
            let keep = thresholds.get(&key.0).is_none_or(|&(threshold, lowest)| {
                rank > threshold || (threshold > lowest && rank == threshold)
            });
            if keep {
                self.sequences.insert(key, c);
            } else {
                let e = self.evicted.entry(key.0).or_default();
                *e = e.saturating_add(c);
            }
        }
    }

    /// What the spill adds to the k-IPF, by (function, sequence): the sequences folded, and
    /// each tail not folded yet credited to every suffix of it.
    pub fn ipf_counts(&self) -> SequenceCounts {
        let mut out = self.sequences.clone();
        credit_suffixes(
            &mut out,
            self.tails.iter().map(|(key, &c)| (key.clone(), c)),
        );
        out
    }

    /// The sum of the counts `function` lost by evictions: every count of it is at most that
    /// much below the truth; 0 when it lost nothing (its counts are exact).
    pub fn evicted(&self, function: u32) -> u64 {
        self.evicted.get(&function).copied().unwrap_or(0)
    }

    /// The number of entries held (tails and sequences).
    pub fn len(&self) -> usize {
        self.tails.len() + self.sequences.len()
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Figure 7's credit: each `(function, labels)` count added to every suffix of its labels
/// (the labels are at most `k` long).
pub fn credit_suffixes(
    counts: &mut SequenceCounts,
    entries: impl IntoIterator<Item = ((u32, Sequence), u64)>,
) {
    for ((function, labels), count) in entries {
        for start in 0..labels.len() {
            let c = counts
                .entry((function, Sequence::from_slice(&labels[start..])))
                .or_default();
            *c = c.saturating_add(count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No counts from a forest.
    fn cold() -> SequenceCounts {
        SequenceCounts::new()
    }

    fn count(s: &Spill, function: u32, sequence: &[u64]) -> Option<u64> {
        s.ipf_counts()
            .get(&(function, Sequence::from_slice(sequence)))
            .copied()
    }

    #[test]
    fn counts_add_up_and_credit_every_suffix_of_the_tail() {
        let mut s = Spill::new(2, 10);
        s.add(0, &[1], 5);
        s.add(0, &[1], 2);
        s.add(1, &[3], 9);
        s.add(1, &[3, 3], 8);
        s.settle(cold);
        assert_eq!(count(&s, 0, &[1]), Some(7));
        // [3] is credited by the tail [3] and, as a suffix, by the tail [3, 3].
        assert_eq!(count(&s, 1, &[3]), Some(17));
        assert_eq!(count(&s, 1, &[3, 3]), Some(8));
        assert_eq!(s.evicted(0) + s.evicted(1), 0);
        // Only the last k labels of a node count: [7, 8, 9] credits [9] and [8, 9].
        s.add(2, &[7, 8, 9], 4);
        assert_eq!(count(&s, 2, &[9]), Some(4));
        assert_eq!(count(&s, 2, &[8, 9]), Some(4));
        assert_eq!(count(&s, 2, &[7, 8, 9]), None);
    }

    #[test]
    fn nodes_with_the_same_last_k_labels_share_an_entry() {
        let mut s = Spill::new(2, 10);
        s.add(2, &[1, 8, 9], 1);
        s.add(2, &[7, 8, 9], 2);
        s.add(2, &[8, 9], 3);
        assert_eq!(s.len(), 1);
        assert_eq!(count(&s, 2, &[8, 9]), Some(6));
        assert_eq!(count(&s, 2, &[9]), Some(6));
    }

    #[test]
    fn tails_fold_into_sequences_then_the_coldest_go() {
        // Two tails, folded at the third; eight sequences at most.
        let mut s = Spill::new(2, 2);
        s.add(0, &[1], 7);
        s.add(1, &[3], 9);
        s.add(1, &[3, 3], 8);
        s.settle(cold);
        assert_eq!(s.len(), 3);
        assert_eq!(count(&s, 1, &[3]), Some(17));
        // Past eight sequences about half go, function 0's coldest: what went is counted.
        for id in 10..30 {
            s.add(0, &[id], 1);
            s.settle(cold);
        }
        assert!(s.len() <= 8 + 2);
        assert!(s.evicted(0) > 0);
        assert_eq!(s.evicted(1), 0);
        assert_eq!(count(&s, 1, &[3]), Some(17));
        assert_eq!(count(&s, 1, &[3, 3]), Some(8));
        assert_eq!(count(&s, 0, &[1]), Some(7));
    }

    #[test]
    fn a_small_function_keeps_its_sequences_against_a_large_ones_cold_tail() {
        // Function 1's two sequences are colder than any of function 0's forty, but within
        // its share of the room.
        let mut s = Spill::new(1, 4);
        s.add(1, &[100], 1);
        s.add(1, &[101], 1);
        s.settle(cold);
        for id in 0..40 {
            s.add(0, &[id], 5 + id);
            s.settle(cold);
        }
        assert!(s.len() <= 16 + 4);
        assert_eq!(s.evicted(1), 0);
        assert!(s.evicted(0) > 0);
        assert_eq!(count(&s, 1, &[100]), Some(1));
        // Function 0 kept its hottest.
        assert_eq!(count(&s, 0, &[39]), Some(44));
        assert_eq!(count(&s, 0, &[30]), Some(35));
    }

    #[test]
    fn a_sequence_hot_in_the_forest_is_kept_though_rarely_spilled() {
        let mut s = Spill::new(1, 2);
        s.add(0, &[7], 1);
        s.settle(cold);
        for id in 10..40 {
            s.add(0, &[id], 3);
            s.settle(|| SequenceCounts::from_iter([((0, Sequence::from_slice(&[7])), 1000)]));
        }
        assert!(s.evicted(0) > 0);
        assert_eq!(count(&s, 0, &[7]), Some(1));
    }

    #[test]
    fn equal_counts_are_evicted_together() {
        let mut s = Spill::new(1, 1);
        for id in 0..6 {
            s.add(0, &[id], 1);
            s.settle(cold);
        }
        assert!(s.len() <= 5);
        assert!(s.evicted(0) >= 1);
    }
}
