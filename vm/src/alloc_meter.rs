//! The memory limit of a whole run (`vmrun --max-memory`): every byte the process holds on the
//! heap, which is the program's memory (its globals, array stack and `malloc` heap, one byte
//! vector) plus the profile's structures (path tables, the k-slab forest, k-iteration counters,
//! recorded traces) plus the VM's own small bookkeeping.
//!
//! [`MeteredAlloc`] is a global allocator (installed by the `vmrun` binary) that wraps the
//! system allocator and keeps the bytes in use in an atomic. When an allocation takes them past
//! the limit set by [`set_limit`], the allocation still succeeds (the allocator may not fail a
//! request the limit alone refuses: a half-built table would be lost) but the run is told to
//! stop: [`crate::signals::raise_memory_limit`] records it where the interpreter already polls
//! for SIGINT and SIGTERM (every backward jump and every call), so the limit costs the
//! dispatch loop nothing. The run then stops with a runtime error naming the limit and
//! `--max-memory`, and writes its output and its profile so far, like after a signal. The
//! overshoot is at most what is allocated until the next poll: one path-table growth.
//!
//! The program's memory is counted by its addressable bytes (what `--max-memory` always
//! bounded), not by the capacity its vector holds ahead ([`program_memory`]); its own
//! allocations are refused where they happen, as before, once they would not fit beside the
//! other bytes in use ([`others`]): `malloc` returns a null pointer. Only the run is limited:
//! writing the profile at the end may allocate more.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes in use, as the allocator counts them.
static IN_USE: AtomicUsize = AtomicUsize::new(0);
/// The part of [`IN_USE`] that the program's memories hold (their vectors' capacities).
static PROGRAM_HELD: AtomicUsize = AtomicUsize::new(0);
/// The program's memories' addressable bytes (globals, array stack, heap so far): what the
/// limit counts of them, rather than the capacity their vectors hold ahead.
static PROGRAM_USED: AtomicUsize = AtomicUsize::new(0);
/// The limit (`usize::MAX`: none).
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The system allocator, counting the bytes in use against the run's limit.
pub struct MeteredAlloc;

// SAFETY: every method forwards to `System` with the same arguments and only adds counting.
unsafe impl GlobalAlloc for MeteredAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

/// Counts `bytes` more in use; past the limit, asks the run to stop.
#[inline]
fn grew(bytes: usize) {
    IN_USE.fetch_add(bytes, Ordering::Relaxed);
    let counted = others().saturating_add(PROGRAM_USED.load(Ordering::Relaxed) as u64);
    if counted > LIMIT.load(Ordering::Relaxed) as u64 {
        crate::signals::raise_memory_limit();
    }
}

/// Records that a program memory ([`crate::byte_memory::Memory`]) went from holding `held`
/// bytes with `used` addressable to `new_held` and `new_used` (0 and 0 when it is created,
/// when it is dropped).
pub fn program_memory(held: usize, used: usize, new_held: usize, new_used: usize) {
    PROGRAM_HELD.fetch_add(new_held.wrapping_sub(held), Ordering::Relaxed);
    PROGRAM_USED.fetch_add(new_used.wrapping_sub(used), Ordering::Relaxed);
}

/// The bytes in use besides the program's memory: the profile's structures and the VM's own
/// bookkeeping (0 without [`MeteredAlloc`]). The program's heap may grow only while its
/// addressable bytes plus these stay within the limit.
pub fn others() -> u64 {
    IN_USE
        .load(Ordering::Relaxed)
        .saturating_sub(PROGRAM_HELD.load(Ordering::Relaxed)) as u64
}

/// Limits the bytes in use to `bytes` from now on (with [`MeteredAlloc`] installed; without
/// it nothing is counted and the limit never triggers).
pub fn set_limit(bytes: u64) {
    LIMIT.store(
        usize::try_from(bytes).unwrap_or(usize::MAX),
        Ordering::Relaxed,
    );
}

/// The limit set by [`set_limit`].
pub fn limit() -> u64 {
    LIMIT.load(Ordering::Relaxed) as u64
}
