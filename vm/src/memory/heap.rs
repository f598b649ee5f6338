//! The heap allocator: where `malloc`'s blocks go in the heap region.
//!
//! Blocks are 16-byte aligned and their sizes rounded up to a multiple of 16 (at least 16:
//! `malloc(0)` gets a block of its own, which no access fits), their *capacity*
//! ([`capacity`]). The allocator keeps no header in the program's memory: the object table
//! has each block's start and size, from which `free` recomputes the capacity, so an
//! overflow (caught anyway) could not corrupt the allocator.
//!
//! - Small blocks (capacity up to [`SMALL_MAX`]): one size class per multiple of 16, each a
//!   LIFO free list of addresses, refilled from a chunk of about 16 KiB carved from the large
//!   blocks. Small blocks never go back to the large ones. `malloc` and `free` are O(1).
//! - Large blocks: best fit among the free ranges (ordered by size, then address), split when
//!   larger; freeing coalesces with free neighbours, and a free range that ends at the top of
//!   the heap lowers the top instead. O(log n) in the number of free ranges.
//! - The top (the break): when nothing fits, the heap grows at its top, and the memory vector
//!   grows (by at least 64 KiB) to cover it, up to the memory limit.
//!
//! Addresses are reused soon after a free; that does not hide a use after free, which is
//! caught by the pointer's tag ([`super::objects`]), not by its address.

use std::collections::{BTreeMap, BTreeSet};

use crate::byte_memory::Memory as Store;

/// Capacities up to this are small (size classes).
pub const SMALL_MAX: u32 = 512;
/// Bytes carved at once for a small size class (rounded down to a multiple of its capacity).
const CHUNK: u32 = 16 * 1024;
/// The memory vector's length grows by at least this much (its capacity doubles, so copies
/// stay amortized whatever this is: it only sets how many zero bytes are written ahead).
const GROWTH: usize = 64 << 10;

/// The capacity of a block of `size` bytes: `size` rounded up to a multiple of 16, at least
/// 16; `None` if it does not fit in 32 bits.
pub fn capacity(size: u64) -> Option<u32> {
    let rounded = size.max(1).checked_add(15)? & !15;
    u32::try_from(rounded).ok()
}

/// One small size class.
#[derive(Clone, Debug, Default)]
struct SizeClass {
    /// Freed blocks, most recently freed last.
    free: Vec<u32>,
    /// The unused part of the class's current chunk.
    bump: u32,
    bump_end: u32,
}

/// The allocator of the heap region `start .. limit` (see the module docs).
#[derive(Clone, Debug)]
pub(super) struct Heap {
    /// The heap region's first address (16-aligned).
    start: u32,
    /// One past the highest address ever handed out or free in a range: the break.
    top: u32,
    /// The memory limit: no block ends beyond it.
    limit: u32,
    /// Small size classes, by `capacity / 16 - 1`.
    classes: Vec<SizeClass>,
    /// Free large ranges below `top`: start to size.
    free_by_addr: BTreeMap<u32, u32>,
    /// The same ranges, by size then start.
    free_by_size: BTreeSet<(u32, u32)>,
    /// Capacities of the live blocks, summed.
    in_use: u64,
    /// The most `in_use` has been.
    peak: u64,
}

/// Counters of the heap, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapStats {
    /// Bytes of live blocks (capacities).
    pub in_use: u64,
    /// The most bytes live at once.
    pub peak: u64,
    /// Bytes between the heap's start and its top (what the heap takes of the memory).
    pub reserved: u64,
}

impl Heap {
    /// An empty heap starting at `start` (16-aligned) whose blocks must end by `limit`.
    pub fn new(start: u32, limit: u32) -> Heap {
        debug_assert!(start.is_multiple_of(16) && start <= limit);
        Heap {
            start,
            top: start,
            limit,
            classes: vec![SizeClass::default(); (SMALL_MAX / 16) as usize],
            free_by_addr: BTreeMap::new(),
            free_by_size: BTreeSet::new(),
            in_use: 0,
            peak: 0,
        }
    }

    /// Counters.
    pub fn stats(&self) -> HeapStats {
        HeapStats {
            in_use: self.in_use,
            peak: self.peak,
            reserved: (self.top - self.start) as u64,
        }
    }

    /// The memory limit.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// A block of capacity `cap` (a multiple of 16), growing `memory` if needed; `None` if
    /// the memory limit does not leave room for it. The block's bytes are not cleared.
    pub fn alloc(&mut self, cap: u32, memory: &mut Store) -> Option<u32> {
        debug_assert!(cap >= 16 && cap.is_multiple_of(16));
        let addr = if cap <= SMALL_MAX {
            self.alloc_small(cap, memory)?
        } else {
            self.alloc_large(cap, memory)?
        };
        self.in_use += cap as u64;
        self.peak = self.peak.max(self.in_use);
        Some(addr)
    }

    /// Frees the block at `addr` of capacity `cap` (what [`Heap::alloc`] gave).
    pub fn release(&mut self, addr: u32, cap: u32) {
        self.in_use -= cap as u64;
        if cap <= SMALL_MAX {
            self.classes[(cap / 16 - 1) as usize].free.push(addr);
        } else {
            self.release_large(addr, cap);
        }
    }

    fn alloc_small(&mut self, cap: u32, memory: &mut Store) -> Option<u32> {
        let class = (cap / 16 - 1) as usize;
        if let Some(addr) = self.classes[class].free.pop() {
            return Some(addr);
        }
        let c = &self.classes[class];
        if c.bump_end - c.bump < cap {
            // A whole chunk, or near the memory limit just the block.
            let mut chunk = CHUNK / cap * cap;
            let at = match self.alloc_large(chunk, memory) {
                Some(at) => at,
                None => {
                    chunk = cap;
                    self.alloc_large(cap, memory)?
                }
            };
            let c = &mut self.classes[class];
            c.bump = at;
            c.bump_end = at + chunk;
        }
        let c = &mut self.classes[class];
        let addr = c.bump;
        c.bump += cap;
        Some(addr)
    }

    fn alloc_large(&mut self, cap: u32, memory: &mut Store) -> Option<u32> {
        if let Some(&(size, addr)) = self.free_by_size.range((cap, 0)..).next() {
            self.free_by_size.remove(&(size, addr));
            self.free_by_addr.remove(&addr);
            if size > cap {
                self.insert_free(addr + cap, size - cap);
            }
            return Some(addr);
        }
        let addr = self.top;
        // The run's limit counts the profile's structures too (`alloc_meter`): the heap ends
        // where they leave no room.
        let room = crate::alloc_meter::limit().saturating_sub(crate::alloc_meter::others());
        let limit = u64::from(self.limit).min(room) as u32;
        let end = addr.checked_add(cap).filter(|&end| end <= limit)?;
        if memory.len() < end as usize {
            let len = (end as usize)
                .max(memory.len() + GROWTH)
                .min(limit as usize);
            memory.grow(len);
        }
        self.top = end;
        Some(addr)
    }

    fn release_large(&mut self, mut addr: u32, mut size: u32) {
        if let Some((&before, &before_size)) = self.free_by_addr.range(..addr).next_back() {
            if before + before_size == addr {
                self.remove_free(before, before_size);
                addr = before;
                size += before_size;
            }
        }
        if let Some(&after_size) = self.free_by_addr.get(&(addr + size)) {
            self.remove_free(addr + size, after_size);
            size += after_size;
        }
        if addr + size == self.top {
            self.top = addr;
        } else {
            self.insert_free(addr, size);
        }
    }

    fn insert_free(&mut self, addr: u32, size: u32) {
        self.free_by_addr.insert(addr, size);
        self.free_by_size.insert((size, addr));
    }

    fn remove_free(&mut self, addr: u32, size: u32) {
        self.free_by_addr.remove(&addr);
        self.free_by_size.remove(&(size, addr));
    }

    /// Checks the allocator's invariants (tests): free ranges are disjoint, non-adjacent,
    /// below the top and the same in both indexes.
    #[cfg(test)]
    pub fn check_invariants(&self) {
        assert_eq!(self.free_by_addr.len(), self.free_by_size.len());
        let mut previous_end = None;
        for (&addr, &size) in &self.free_by_addr {
            assert!(self.free_by_size.contains(&(size, addr)));
            assert!(addr >= self.start && addr + size < self.top);
            assert!(addr % 16 == 0 && size % 16 == 0 && size > 0);
            if let Some(end) = previous_end {
                assert!(end < addr, "free ranges overlap or touch");
            }
            previous_end = Some(addr + size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities() {
        assert_eq!(capacity(0), Some(16));
        assert_eq!(capacity(1), Some(16));
        assert_eq!(capacity(16), Some(16));
        assert_eq!(capacity(17), Some(32));
        assert_eq!(capacity(u32::MAX as u64 - 15), Some(u32::MAX - 15));
        assert_eq!(capacity(u32::MAX as u64 - 14), None);
        assert_eq!(capacity(u64::MAX), None);
    }

    #[test]
    fn small_blocks_come_from_chunks_and_are_reused() {
        let mut memory = Store::new(&[], 64);
        let mut heap = Heap::new(64, 1 << 24);
        let a = heap.alloc(16, &mut memory).unwrap();
        let b = heap.alloc(16, &mut memory).unwrap();
        assert_eq!((a, b), (64, 80));
        assert!(memory.len() >= 64 + CHUNK as usize);
        let c = heap.alloc(32, &mut memory).unwrap();
        assert_eq!(c, 64 + CHUNK);
        heap.release(a, 16);
        assert_eq!(heap.alloc(16, &mut memory), Some(a));
        assert_eq!(heap.stats().in_use, 64);
    }

    #[test]
    fn large_blocks_split_coalesce_and_lower_the_top() {
        let mut memory = Store::new(&[], 0);
        let mut heap = Heap::new(0, 1 << 24);
        let a = heap.alloc(1024, &mut memory).unwrap();
        let b = heap.alloc(2048, &mut memory).unwrap();
        let c = heap.alloc(1024, &mut memory).unwrap();
        assert_eq!((a, b, c), (0, 1024, 3072));
        heap.release(b, 2048);
        // Best fit splits b's range.
        assert_eq!(heap.alloc(1024, &mut memory), Some(1024));
        heap.check_invariants();
        heap.release(a, 1024);
        heap.release(1024, 1024);
        heap.check_invariants();
        // a, b's two halves and the remainder of the split coalesced into one range.
        assert_eq!(heap.free_by_addr.get(&0), Some(&3072));
        heap.release(c, 1024);
        // Everything coalesced into the top.
        assert_eq!(heap.stats().reserved, 0);
        assert!(heap.free_by_addr.is_empty());
    }

    #[test]
    fn the_limit_stops_growth() {
        let mut memory = Store::new(&[], 0);
        let mut heap = Heap::new(0, 4096);
        assert_eq!(heap.alloc(4096, &mut memory), Some(0));
        assert_eq!(memory.len(), 4096);
        assert_eq!(heap.alloc(16, &mut memory), None);
        heap.release(0, 4096);
        // A chunk of 16 KiB does not fit: the class takes a chunk of one block.
        assert_eq!(heap.alloc(16, &mut memory), Some(0));
        assert_eq!(heap.alloc(1024, &mut memory), Some(16));
        assert_eq!(heap.alloc(16, &mut memory), Some(1040));
        assert_eq!(heap.alloc(4096, &mut memory), None);
    }
}
