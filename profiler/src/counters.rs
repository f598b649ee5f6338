//! Path-frequency tables: how many times each path id of one function was completed.
//!
//! Roy & Srikant (CGO 2009, section 6) keep "an array-based implementation for a path-frequency
//! table if the number of static paths is low" and switch "to a hashtable-based implementation
//! if a procedure has more than 6000 static paths" (and give up above 60,000). [`PathCounters`]
//! does the same without the give-up:
//!
//! - **dense**: a `Vec<u64>` indexed by the id, when the function has at most
//!   [`DENSE_LIMIT`] static paths. An increment is a bounds check and an add.
//! - **sparse**: a `hashbrown::HashMap<u64, u64>` above, whatever the static count (up to
//!   `u64::MAX` paths): memory grows with the paths actually executed, not with the static ones.
//!
//! Both count in `u64` (an increment per path completed cannot overflow in a run), both accept
//! any id (a dense table keeps an id at or above its size apart, in a small map, rather than
//! panicking; a correct plan never produces one), and [`PathCounters::iter`] lists the counted
//! ids in increasing order either way, so a profile built from either is the same.
//!
//! Why the limit is 2^16 (`profiler/benches/counters.rs`, numbers in `docs/kiter-runtime.md`):
//! per increment the dense table is faster at every size measured (callgrind: 14 instructions
//! per increment against 43 for a hit in the hash table, loop included, whatever the size or
//! access pattern); what it costs is memory and the time to create and scan it, both
//! proportional to the *static* count, while the hash table costs in proportion to the paths
//! *executed*. At 2^16 paths the dense table takes 512 KiB (an L2 cache) and its creation plus
//! final scan cost about as much as a few thousand hash increments, which a profiled function
//! repays quickly; at 2^20 (8 MiB) the hash table is already faster over a quarter-million
//! increments.

use hashbrown::HashMap;

/// The largest number of static paths for which [`PathCounters::new`] uses a dense array
/// (`8 * DENSE_LIMIT` bytes = 512 KiB); above it, a hash table. Chosen by measurement: see the
/// [module documentation](self).
pub const DENSE_LIMIT: u64 = 1 << 16;

/// A path-frequency table for one function (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathCounters {
    static_paths: u64,
    table: Table,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Table {
    /// `counts[id]`; ids at or above `counts.len()` (a plan bug) go to `stray`.
    Dense {
        counts: Vec<u64>,
        stray: HashMap<u64, u64>,
    },
    Sparse(HashMap<u64, u64>),
}

impl PathCounters {
    /// A table for a function with `static_paths` static paths: dense up to [`DENSE_LIMIT`],
    /// sparse above.
    pub fn new(static_paths: u64) -> Self {
        Self::with_dense_limit(static_paths, DENSE_LIMIT)
    }

    /// A table that is dense when `static_paths <= dense_limit` (benchmarks and tests use this
    /// to compare the two kinds at the same size).
    pub fn with_dense_limit(static_paths: u64, dense_limit: u64) -> Self {
        let table = match usize::try_from(static_paths) {
            Ok(n) if static_paths <= dense_limit => Table::Dense {
                counts: vec![0; n],
                stray: HashMap::new(),
            },
            _ => Table::Sparse(HashMap::new()),
        };
        PathCounters {
            static_paths,
            table,
        }
    }

    /// Counts one completion of path `id`.
    #[inline]
    pub fn count(&mut self, id: u64) {
        // Inline: the dense add, or the hash lookup of a path already in the table (almost
        // every count); out of line: the first count of a path, or an id outside a dense table.
        match &mut self.table {
            Table::Dense { counts, .. } => {
                if let Some(c) = usize::try_from(id).ok().and_then(|i| counts.get_mut(i)) {
                    *c += 1;
                    return;
                }
            }
            Table::Sparse(map) => {
                if let Some(c) = map.get_mut(&id) {
                    *c += 1;
                    return;
                }
            }
        }
        self.count_new(id);
    }

    /// [`Self::count`] of an id not yet in the hash table, or outside the dense array.
    #[inline(never)]
    fn count_new(&mut self, id: u64) {
        let map = match &mut self.table {
            Table::Dense { stray, .. } => stray,
            Table::Sparse(map) => map,
        };
        *map.entry(id).or_insert(0) += 1;
    }

    /// The dense array of counts (`counts[id]`), if the table is dense: a caller may count
    /// path `id < len` by adding one to its cell, as [`Self::count`] does. The array never
    /// moves or changes size.
    pub fn dense_mut(&mut self) -> Option<&mut [u64]> {
        match &mut self.table {
            Table::Dense { counts, .. } => Some(counts),
            Table::Sparse(_) => None,
        }
    }

    /// How many times path `id` was counted.
    pub fn get(&self, id: u64) -> u64 {
        match &self.table {
            Table::Dense { counts, stray } => usize::try_from(id)
                .ok()
                .and_then(|i| counts.get(i))
                .copied()
                .or_else(|| stray.get(&id).copied())
                .unwrap_or(0),
            Table::Sparse(map) => map.get(&id).copied().unwrap_or(0),
        }
    }

    /// The counted paths `(id, count)`, ids increasing, counts positive.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut listed: Vec<(u64, u64)> = match &self.table {
            Table::Dense { counts, stray } => counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(i, &c)| (i as u64, c))
                .chain(stray.iter().map(|(&id, &c)| (id, c)))
                .collect(),
            Table::Sparse(map) => map.iter().map(|(&id, &c)| (id, c)).collect(),
        };
        // Dense ids come out sorted; strays (if any) and map entries need the sort.
        listed.sort_unstable_by_key(|&(id, _)| id);
        listed.into_iter()
    }

    /// The number of distinct paths counted.
    pub fn len(&self) -> usize {
        match &self.table {
            Table::Dense { counts, stray } => {
                counts.iter().filter(|&&c| c > 0).count() + stray.len()
            }
            Table::Sparse(map) => map.len(),
        }
    }

    /// Whether no path was counted.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sum of all counts (saturating).
    pub fn total(&self) -> u64 {
        self.iter().fold(0u64, |acc, (_, c)| acc.saturating_add(c))
    }

    /// The number of static paths the table was made for.
    pub fn static_paths(&self) -> u64 {
        self.static_paths
    }

    /// Whether the table is the dense array.
    pub fn is_dense(&self) -> bool {
        matches!(self.table, Table::Dense { .. })
    }

    /// The heap memory the table holds, in bytes: the array's capacity, or the hash table's
    /// buckets (key, value and one control byte each, plus hashbrown's group padding).
    pub fn memory_bytes(&self) -> usize {
        fn map_bytes(m: &HashMap<u64, u64>) -> usize {
            if m.capacity() == 0 {
                return 0;
            }
            // hashbrown keeps a power-of-two number of buckets with at most 7/8 of them full,
            // one control byte per bucket and one group (16 bytes) of trailing control bytes.
            let buckets = (m.capacity() * 8 / 7).next_power_of_two().max(4);
            buckets * (std::mem::size_of::<(u64, u64)>() + 1) + 16
        }
        match &self.table {
            Table::Dense { counts, stray } => {
                counts.capacity() * std::mem::size_of::<u64>() + map_bytes(stray)
            }
            Table::Sparse(map) => map_bytes(map),
        }
    }

    /// Sets every count to 0, keeping the table's kind and memory.
    pub fn clear(&mut self) {
        match &mut self.table {
            Table::Dense { counts, stray } => {
                counts.fill(0);
                stray.clear();
            }
            Table::Sparse(map) => map.clear(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Counts `ids` in a table of each kind and in a `BTreeMap`; all three must agree.
    fn check(static_paths: u64, ids: &[u64]) {
        let mut dense = PathCounters::with_dense_limit(static_paths, u64::MAX);
        let mut sparse = PathCounters::with_dense_limit(static_paths, 0);
        let mut reference: BTreeMap<u64, u64> = BTreeMap::new();
        for &id in ids {
            dense.count(id);
            sparse.count(id);
            *reference.entry(id).or_insert(0) += 1;
        }
        let expected: Vec<(u64, u64)> = reference.iter().map(|(&a, &b)| (a, b)).collect();
        for t in [&dense, &sparse] {
            assert_eq!(t.iter().collect::<Vec<_>>(), expected);
            assert_eq!(t.len(), expected.len());
            assert_eq!(t.total(), ids.len() as u64);
            for &id in ids {
                assert_eq!(t.get(id), reference[&id]);
            }
        }
        assert!(dense.is_dense() || usize::try_from(static_paths).is_err());
        assert!(!sparse.is_dense() || static_paths == 0);
    }

    #[test]
    fn both_kinds_count_the_same() {
        check(10, &[3, 3, 0, 9, 3, 1]);
        check(1, &[0, 0, 0]);
        let ids: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 613).collect();
        check(613, &ids);
    }

    #[test]
    fn out_of_range_ids_are_kept_not_fatal() {
        // A dense table of 4 paths given ids 4, 2^40 and u64::MAX keeps them apart, in order.
        check(4, &[1, 4, u64::MAX, 1 << 40, 4, 0]);
        check(0, &[5]);
    }

    #[test]
    fn the_kind_follows_the_limit() {
        assert!(PathCounters::new(DENSE_LIMIT).is_dense());
        assert!(!PathCounters::new(DENSE_LIMIT + 1).is_dense());
        let huge = PathCounters::new(u64::MAX);
        assert!(!huge.is_dense());
        assert_eq!(huge.memory_bytes(), 0);
        assert_eq!(huge.static_paths(), u64::MAX);
        assert_eq!(
            PathCounters::new(1000).memory_bytes(),
            1000 * std::mem::size_of::<u64>()
        );
    }

    #[test]
    fn a_huge_static_count_counts_sparsely() {
        let mut t = PathCounters::new(u64::MAX);
        for id in [u64::MAX - 1, 7, u64::MAX - 1] {
            t.count(id);
        }
        assert_eq!(
            t.iter().collect::<Vec<_>>(),
            vec![(7, 1), (u64::MAX - 1, 2)]
        );
        assert!(t.memory_bytes() >= 2 * 16);
        t.clear();
        assert!(t.is_empty());
    }
}
