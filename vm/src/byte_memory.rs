//! The VM's memory: bytes at `u32` byte addresses, every value in its C representation.
//!
//! Layout (chosen by the compiler, see [`lang::bytecode`]): addresses `0 .. 16` never hold an
//! object, the globals follow from [`lang::bytecode::FIRST_GLOBAL`] up to
//! [`lang::bytecode::Program::globals_end`], then the stack of per-frame array areas, which
//! grows as calls go deeper. Values are little-endian at their C size; the interpreter's loads
//! extend them to the registers' canonical 64-bit forms and its stores truncate.
//!
//! The backing store is a vector of `u64`, so the bytes are 8-byte aligned (aligned values
//! stay aligned on the host), and it always holds [`PAD`] bytes past the addressable end. An
//! access of up to 8 bytes that *starts* below the end therefore stays inside the allocation,
//! which makes the bounds check of every array access a single comparison
//! ([`Memory::load`], [`Memory::store`]); global scalars, verified to lie inside the globals,
//! need none ([`Memory::load_unchecked`]).
//!
//! The store is allocated zeroed (`calloc`), and the compiler's initial image leaves trailing
//! zeros out ([`lang::bytecode::Program::memory_init`]), so the pages of a large global array
//! count towards the process's memory only once the program touches them.

/// Bytes the backing store holds past the addressable end (the widest access, minus one,
/// rounded up to a word).
pub const PAD: usize = 8;

/// The most bytes memory may address: byte addresses are `u32`.
pub const MAX_BYTES: usize = 1 << 32;

/// A value memory holds: an unsigned integer of 1, 2, 4 or 8 bytes.
pub trait Scalar: Copy + sealed::Sealed {
    /// The value whose little-endian representation `self` holds (a no-op on little-endian
    /// hosts).
    fn le_to_host(self) -> Self;
    /// The little-endian representation of the value (a no-op on little-endian hosts).
    fn host_to_le(self) -> Self;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            #[inline(always)]
            fn le_to_host(self) -> Self {
                <$t>::from_le(self)
            }
            #[inline(always)]
            fn host_to_le(self) -> Self {
                <$t>::to_le(self)
            }
        }
    )*};
}

scalar!(u8, u16, u32, u64);

/// The VM's memory (see the module docs).
pub struct Memory {
    /// The bytes, 8-byte aligned; `words.len() * 8 >= end + PAD`.
    words: Vec<u64>,
    /// The addressable bytes: `0 .. end`.
    end: usize,
}

impl Clone for Memory {
    fn clone(&self) -> Memory {
        crate::alloc_meter::program_memory(0, 0, self.words.len() * 8, self.end);
        let copy = Memory {
            words: self.words.clone(),
            end: self.end,
        };
        crate::alloc_meter::program_memory(self.words.len() * 8, self.end, copy.held(), self.end);
        copy
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        crate::alloc_meter::program_memory(self.held(), self.end, 0, 0);
    }
}

impl Memory {
    /// A memory of `size` bytes (at least `init.len()`) starting with the bytes `init`, the
    /// rest zero.
    pub fn new(init: &[u8], size: usize) -> Memory {
        let end = size.max(init.len());
        let words = (end + PAD).div_ceil(8);
        // Announced before the allocation, which the meter would otherwise count as the
        // profile's.
        crate::alloc_meter::program_memory(0, 0, words * 8, end);
        let mut mem = Memory {
            // Zeroed allocation: pages nobody writes are never made resident.
            words: vec![0; words],
            end,
        };
        mem.bytes_mut()[..init.len()].copy_from_slice(init);
        crate::alloc_meter::program_memory(words * 8, end, mem.held(), end);
        mem
    }

    /// The bytes its vector holds (its capacity), for [`crate::alloc_meter`].
    fn held(&self) -> usize {
        self.words.capacity() * 8
    }

    /// The number of addressable bytes.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.end
    }

    /// Whether no byte is addressable.
    pub fn is_empty(&self) -> bool {
        self.end == 0
    }

    /// The addressable bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the words hold at least `end` initialized bytes; u8 has no alignment needs.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.end) }
    }

    /// The addressable bytes, mutably.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `bytes`, and `self` is borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.end) }
    }

    /// Makes addresses below `end` addressable (the new bytes are zero). Never shrinks.
    pub fn grow(&mut self, end: usize) {
        if end > self.end {
            // The padding may hold the tail of an access that started below the old end.
            let old = self.end;
            let held = self.words.len() * 8;
            // SAFETY: `old .. held` lies inside the words' initialized bytes.
            unsafe {
                std::ptr::write_bytes(self.words.as_mut_ptr().cast::<u8>().add(old), 0, held - old)
            };
            let words = (end + PAD).div_ceil(8);
            let (held, used) = (self.held(), self.end);
            // Doubling (amortized growth), announced to the meter before the reallocation.
            let capacity = if words > self.words.capacity() {
                words.max(self.words.capacity() * 2)
            } else {
                self.words.capacity()
            };
            crate::alloc_meter::program_memory(held, used, capacity * 8, end);
            self.words.reserve_exact(capacity - self.words.len());
            self.words.resize(words, 0);
            self.end = end;
            crate::alloc_meter::program_memory(capacity * 8, end, self.held(), end);
        }
    }

    /// The value at byte address `addr`, or `None` if `addr` is not below the end (an access
    /// that starts below the end is inside the allocation: see [`PAD`]).
    #[inline(always)]
    pub fn load<T: Scalar>(&self, addr: usize) -> Option<T> {
        if addr < self.end {
            // SAFETY: `addr < end` and `end + PAD <= words.len() * 8`, with
            // `size_of::<T>() <= PAD`: the read is inside the allocation.
            Some(unsafe { self.load_unchecked(addr) })
        } else {
            None
        }
    }

    /// Stores `v` at byte address `addr`; false (and nothing stored) if `addr` is not below
    /// the end.
    #[inline(always)]
    #[must_use]
    pub fn store<T: Scalar>(&mut self, addr: usize, v: T) -> bool {
        if addr < self.end {
            // SAFETY: as in `load`.
            unsafe { self.store_unchecked(addr, v) };
            true
        } else {
            false
        }
    }

    /// The value at byte address `addr`, without a bounds check.
    ///
    /// # Safety
    /// `addr` must be below [`Memory::len`].
    #[inline(always)]
    pub unsafe fn load_unchecked<T: Scalar>(&self, addr: usize) -> T {
        debug_assert!(addr < self.end);
        // SAFETY: the caller guarantees `addr < end`; see `load`. Unaligned reads are allowed.
        unsafe {
            self.words
                .as_ptr()
                .cast::<u8>()
                .add(addr)
                .cast::<T>()
                .read_unaligned()
                .le_to_host()
        }
    }

    /// Stores `v` at byte address `addr`, without a bounds check.
    ///
    /// # Safety
    /// `addr` must be below [`Memory::len`].
    #[inline(always)]
    pub unsafe fn store_unchecked<T: Scalar>(&mut self, addr: usize, v: T) {
        debug_assert!(addr < self.end);
        // SAFETY: the caller guarantees `addr < end`; see `load`.
        unsafe {
            self.words
                .as_mut_ptr()
                .cast::<u8>()
                .add(addr)
                .cast::<T>()
                .write_unaligned(v.host_to_le())
        }
    }

    /// Zeroes `len` bytes from `addr`; false (and nothing zeroed) if they are not all
    /// addressable.
    #[must_use]
    pub fn zero(&mut self, addr: usize, len: usize) -> bool {
        match addr.checked_add(len) {
            Some(end) if end <= self.end => {
                self.bytes_mut()[addr..end].fill(0);
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_little_endian_at_byte_addresses() {
        let mut m = Memory::new(&[0, 1, 2, 3], 16);
        assert_eq!(m.len(), 16);
        assert_eq!(m.load::<u16>(1), Some(0x0201));
        assert!(m.store::<u32>(5, 0xdead_beef));
        assert_eq!(m.bytes()[5..9], [0xef, 0xbe, 0xad, 0xde]);
        assert_eq!(m.load::<u64>(4), Some(0x00de_adbe_ef00));
        // The last byte can start an access: the padding absorbs the rest.
        assert_eq!(m.load::<u64>(15), Some(0));
        assert_eq!(m.load::<u8>(16), None);
        assert!(!m.store::<u8>(16, 1));
    }

    #[test]
    fn growing_adds_zero_bytes_and_keeps_the_old_ones() {
        let mut m = Memory::new(&[7; 20], 24);
        m.grow(100);
        assert_eq!(m.len(), 100);
        assert_eq!(m.bytes()[..20], [7; 20]);
        assert!(m.bytes()[20..].iter().all(|&b| b == 0));
        assert!(m.store::<u64>(99, u64::MAX));
        m.grow(108);
        assert_eq!(m.bytes()[99..108], [255, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(m.zero(0, 100));
        assert!(!m.zero(9, 100));
        assert_eq!(m.load::<u64>(0), Some(0));
    }
}
