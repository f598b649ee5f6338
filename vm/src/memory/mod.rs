//! Checked byte-addressed memory: C objects, pointers, `malloc` and `<string.h>`, where every
//! access out of an object's bounds, through null or a dangling pointer, or misaligned, is a
//! [`Fault`] that names the object and the byte offset, as a sanitizer would report it.
//!
//! # Layout
//!
//! One linear memory of byte addresses (`u32`, C layout, little-endian), one `Vec<u8>`:
//!
//! ```text
//! 0      16         globals.end         stack.end = heap_start            max_memory
//! +------+-------------+-------------------+--------------------- ... ----+
//! | null | globals and | frames (locals),  | heap: malloc's blocks        |
//! |      | literals    | stack_size bytes  | (grows on demand)            |
//! +------+-------------+-------------------+--------------------- ... ----+
//! ```
//!
//! Addresses `0 .. 16` never hold an object. The globals region is laid out by the compiler
//! ([`Memory::add_global`]); the frame region is a stack ([`Memory::push_local`],
//! [`Memory::release_stack`]) of fixed size ([`DEFAULT_STACK_SIZE`]); the heap
//! ([`heap`]) grows the vector on demand up to [`MemoryOptions::max_memory`]. The initial
//! vector is allocated zeroed (`vec![0; n]`, which the OS maps lazily), so a large frame
//! region costs no resident memory until used.
//!
//! # Pointers
//!
//! A pointer is a `u64`: a *tag* above a byte address.
//!
//! ```text
//!  63        56 55                 32 31                               0
//! +------------+---------------------+----------------------------------+
//! | generation |        slot         |          byte address            |
//! +------------+---------------------+----------------------------------+
//! ```
//!
//! The slot names an entry of the [`ObjectTable`]: `{ start, end, tag }` of one object
//! (global, string literal, local whose address escapes, heap block). The null pointer is 0:
//! slot 0 is a permanent entry no pointer matches. Pointer arithmetic changes only the address
//! ([`ptr_add`]): the tag says which object the pointer was derived from, however far it moved.
//!
//! An access of `width` bytes at `p + offset` ([`ObjectTable::check`]) needs
//!
//! ```text
//! e = table[slot(p)];  a = address(p) + offset   (in i64: never wraps)
//! e.tag == tag(p)  &&  e.start <= a  &&  a + width <= e.end  &&  a % width == 0
//! ```
//!
//! one table load and five compares (the slot against the table's length too), inlined;
//! the message is built by a `#[cold]` function only when the check fails. When an object
//! dies (freed, or its function returned), its entry is emptied and its slot's generation
//! incremented, so pointers to it fail the tag compare from then on, even after the slot (and
//! the memory) is reused by another object (up to the generation's wrap, below).
//!
//! # What is detected
//!
//! - out-of-bounds accesses, before or after the object, at any distance (the tag, not the
//!   address, picks the object: running into a neighbour is still out of bounds);
//! - null pointer dereferences (with the offset, e.g. of a field), and pointers that are not
//!   the address of any object (an integer cast to a pointer);
//! - use after free (naming where the block was allocated and freed), double free, `free` of
//!   something that is not a heap block or not its start;
//! - use of a local after its function returned, and of a block-scope local after its block
//!   ended while its function runs (ASan's stack-use-after-scope: the compiler marks the
//!   block's entries and exits, `lang/src/compile/scopes.rs`);
//! - through an array parameter (`int a[]`, an array reference of address and length whose
//!   indexing checks only the length): passing a dead pointer to it (`PtrToArr` checks it),
//!   an index past the end of the pointer's object, an index before the start of the object
//!   (an index before the pointer, `a[-1]`, is allowed when it stays inside the object, as C
//!   allows), and an access after the block it points into was freed while the parameter
//!   lives (`interp::array_params`);
//! - misaligned loads and stores of 2, 4 and 8 bytes (objects are laid out aligned);
//! - overlapping `memcpy`/`strcpy`/`strncpy`/`strcat` arguments, strings without their
//!   terminating null byte, and `memcmp` beyond either object (checked on the whole range, as
//!   ASan's `strict_memcmp`);
//! - heap blocks never freed ([`Memory::leaks`]), and allocations beyond the memory limit.
//!
//! Not detected:
//!
//! - a stale pointer whose slot has since died exactly `k × 256` times: its generation (8
//!   bits) has wrapped around to the pointer's. Heap slots are reused least recently freed
//!   first and only when more than [`objects::QUARANTINE_SLOTS`] (4096) wait, so that takes
//!   a million frees in between; frame slots are reused by the next call at the same depth,
//!   so a pointer to a local that returned escapes detection if it is used exactly 256 calls
//!   later. Sanitizers bound detection in the same way (ASan's quarantine holds 256 MiB).
//! - accesses inside the object but outside the intended sub-object (`s.a[5]` landing in
//!   `s.b`): bounds are per object, not per field or per row;
//! - a use through a pointer to a loop body's block-scope local in the loop's own condition or
//!   step, between two passes through the body (the body's scope is opened before the loop
//!   and closed after it, so that its marks cost once per loop: `lang/src/compile/scopes.rs`);
//! - reads of uninitialized memory (it reads as zero: frames and heap blocks are cleared);
//! - pointer arithmetic beyond the object that is not used to access memory (C's
//!   undefined behaviour, harmless here); a pointer moved beyond the 32-bit address space
//!   saturates to an address no object contains ([`ptr_add`]).
//! - more than 16,777,215 objects at once, or memory beyond 4 GiB: these are errors
//!   ([`FaultKind::TooManyObjects`], [`FaultKind::OutOfMemory`]).
//!
//! # Costs
//!
//! - Per object: 16 bytes of hot table entry and 24 bytes of cold description (40 bytes);
//!   a declaration (name, function) once per declared object of the program, not per
//!   instance. A local costs its slot only while its function runs (frame slots are reused).
//! - Per heap block: its size rounded up to 16 (at least 16: at most 15 bytes of rounding,
//!   16 for `malloc(0)`), no in-band header; a small size class holds at most one partly
//!   carved 16 KiB chunk; freed slots in the quarantine keep 40 bytes each (at most
//!   160 KiB).
//! - Per access: the check above, measured against the alternatives below.
//!
//! # The choice, measured
//!
//! `cargo bench -p vm --bench pointer_checks` compares four representations on three
//! workloads: the sum of a 1M-`int` array through a pointer and an index, a chase through a
//! randomly linked list of 100k nodes (each its own object; two accesses per node), and a
//! byte-by-byte `strlen` over 1 MB. The pointer goes through `black_box` before every access,
//! as an interpreter's register would, so no check is hoisted out of a loop.
//!
//! | ns per access              |   sum | chase | strlen |
//! |----------------------------|------:|------:|-------:|
//! | unchecked (the floor)      |  0.42 |  5.09 |   0.42 |
//! | **tagged** (this module)   |  1.24 |  6.75 |   0.96 |
//! | tagged, unchecked indexing |  1.11 |  6.59 |   0.95 |
//! | fat pointers               |  0.86 | 12.53 |   0.88 |
//! | shadow map                 |  0.85 |  5.65 |   0.75 |
//!
//! (The best median of three runs, criterion with 20 samples of 2 s, x86-64 with 2 cores
//! shared with other builds: differences under 10% are noise.) *Fat pointers* are
//! `id:32 | offset:32` checked against a table `{ base, len }`; the *shadow map* has one byte
//! per 8-byte granule holding the low 8 bits of the owner's slot, compared with the pointer's
//! (ASan's shadow with HWASan's tags). Every checked variant checks alignment.
//!
//! Tagged addresses were chosen, although on tight loops they pay about 0.35 ns per access
//! more than the other two (the tag compare: 0.8 ns over the floor against 0.45):
//!
//! - Fat pointers must read the table before they know the address, so a pointer chase waits
//!   for two dependent loads per step: twice the time of the others. A tagged pointer carries
//!   its address: the load starts at once, and the check, predicted to pass, runs beside it.
//!   Fat pointers also need the table to compare, subtract or convert pointers, and a table
//!   of `{ base, len }` alone misses a use after free once an id is reused.
//! - The shadow map is the fastest checked variant (also by 1.1 ns on the chase), but its
//!   8-bit tags detect only probabilistically: an access landing in another object with the
//!   same tag (1 in 255), or in freed memory reallocated under the same tag, passes; it cannot
//!   say which object a pointer was derived from (many share a tag), which every message
//!   names; bounds within a granule (`char s[5]; s[6]`) need a partial-granule encoding and
//!   another compare; and every allocation, free and call with escaping locals paints
//!   `size / 8` shadow bytes (and the shadow takes 12.5% more memory).
//! - The tagged check is exact: the tag names the object, so every fault names it with the
//!   offset and, for a heap block, where it was allocated and freed; a dangling pointer is
//!   caught whatever reused its memory.
//!
//! In the interpreter, where each load is one dispatched instruction of a few ns, the
//! difference shrinks further. The safe slice indexing after the check costs about 0.1 ns
//! (the `unchecked indexing` row): not worth an `unsafe` resting on the table's invariant.
//!
//! # Files
//!
//! - [`fault`]: the faults and their messages;
//! - [`objects`]: the object table, the check, and slot management (static, frame, heap);
//! - [`heap`]: the allocator (size classes, best fit, growth);
//! - [`strings`]: `memcpy` ... `strchr`, C strings for `printf` and `sprintf`.

pub mod fault;
pub mod heap;
pub mod objects;
pub mod strings;

#[cfg(test)]
mod tests;

use std::fmt;
use std::ops::Range;

pub use fault::{Access, AccessKind, AccessSize, Fault, FaultKind, ObjectDesc, ObjectKind};
pub use heap::HeapStats;
pub use objects::{Decl, DeclId, DeclKind, FreedArrayed, ObjectTable};

use crate::byte_memory::Memory as Store;
use heap::{capacity, Heap};

/// Where something happened, for messages: an opaque number the interpreter chooses (an
/// instruction index, a location id) and renders with [`Fault::render`].
pub type Site = u32;

/// Addresses below this hold no object (0 is the null pointer).
pub const RESERVED: u32 = 16;
/// The default size of the frame region: 64 MiB.
pub const DEFAULT_STACK_SIZE: u32 = 64 << 20;
/// The default memory limit: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u32 = 1 << 30;
/// The largest memory limit: the 32-bit address space but its last 64 KiB, where no memory is
/// ever placed (the addresses of the dangling array references that stand for array
/// parameters whose block was freed: `interp::array_params`).
pub const MAX_MEMORY: u32 = 0xffff_0000;

/// The sizes of a [`Memory`]'s regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryOptions {
    /// Bytes of globals and string literals (the compiler's layout).
    pub globals_size: u32,
    /// Bytes of the frame region.
    pub stack_size: u32,
    /// The most bytes the memory may take, heap included (at most [`MAX_MEMORY`]).
    pub max_memory: u32,
}

impl Default for MemoryOptions {
    fn default() -> Self {
        MemoryOptions {
            globals_size: 0,
            stack_size: DEFAULT_STACK_SIZE,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

/// Where the regions are (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The globals region: `RESERVED .. RESERVED + globals_size`.
    pub globals: Range<u32>,
    /// The frame region, 16-aligned.
    pub stack: Range<u32>,
    /// The heap's start (the frame region's end).
    pub heap_start: u32,
    /// The memory limit.
    pub max_memory: u32,
}

/// The frame region's top and the number of live locals, to return to with
/// [`Memory::release_stack`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackMark {
    top: u32,
    locals: usize,
}

/// Heap blocks still live (at exit): see [`Memory::leaks`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeakReport {
    /// How many blocks.
    pub blocks: u64,
    /// Their bytes (as asked for).
    pub bytes: u64,
    /// By allocation site, most bytes first.
    pub sites: Vec<LeakSite>,
}

/// The leaked blocks of one allocation site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeakSite {
    /// Where they were allocated.
    pub site: Site,
    /// How many.
    pub blocks: u64,
    /// Their bytes.
    pub bytes: u64,
}

impl LeakReport {
    /// The report, with sites written by `sites`; empty if nothing leaked.
    pub fn render(&self, sites: &dyn Fn(Site) -> String) -> String {
        if self.blocks == 0 {
            return String::new();
        }
        let plural = |n: u64, one: &str, many: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        };
        let mut s = format!(
            "{} ({}) never freed:",
            plural(self.blocks, "heap block", "heap blocks"),
            plural(self.bytes, "byte", "bytes")
        );
        for leak in &self.sites {
            s.push_str(&format!(
                "\n  {} ({}) allocated at {}",
                plural(leak.blocks, "block", "blocks"),
                plural(leak.bytes, "byte", "bytes"),
                sites(leak.site)
            ));
        }
        s
    }
}

impl fmt::Display for LeakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|site| format!("site {site}")))
    }
}

impl fmt::Debug for Memory {
    /// A summary: the bytes themselves would be megabytes of output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Memory")
            .field("layout", &self.layout)
            .field("bytes", &self.store.len())
            .field("stack_top", &self.stack_top)
            .field("live_objects", &self.objects.live_objects())
            .field("slots", &self.objects.slots())
            .field("heap", &self.heap.stats())
            .finish()
    }
}

/// Moves pointer `p` by `delta` bytes: only its address changes, never its tag. An address
/// that would leave `0 ..= u32::MAX` saturates there (to 0 or `u32::MAX`), which no object
/// contains: every access through it faults.
#[inline(always)]
pub fn ptr_add(p: u64, delta: i64) -> u64 {
    let a = (p as u32 as i64)
        .saturating_add(delta)
        .clamp(0, u32::MAX as i64);
    (p & !0xffff_ffff) | a as u64
}

/// A pointer's byte address.
#[inline(always)]
pub fn address(p: u64) -> u32 {
    p as u32
}

/// The checked memory: bytes, object table, frame stack and heap (see the module docs).
#[derive(Clone)]
pub struct Memory {
    /// Every byte, addresses `0 .. bytes.len()`. Invariant: every live object of `objects`
    /// lies inside, so a checked address indexes it without fail.
    pub(crate) store: Store,
    pub(crate) objects: ObjectTable,
    heap: Heap,
    layout: Layout,
    /// The frame region's first free byte.
    stack_top: u32,
}

impl Memory {
    /// A memory with the regions of `options`, all zero; the layout error if the globals and
    /// the frame region do not fit in the memory limit.
    pub fn new(options: MemoryOptions) -> Result<Memory, Fault> {
        Memory::with_image(&[], options)
    }

    /// A memory with the regions of `options` whose bytes from address 0 start as `image`
    /// (the compiler's initial globals, [`lang::bytecode::Program::memory_init`]), the rest
    /// zero; the layout error as for [`Memory::new`], or if the image does not fit in the
    /// globals.
    pub fn with_image(image: &[u8], options: MemoryOptions) -> Result<Memory, Fault> {
        let globals_end = RESERVED as u64 + options.globals_size as u64;
        let stack_start = globals_end.next_multiple_of(16);
        let heap_start = (stack_start + options.stack_size as u64).next_multiple_of(16);
        let max_memory = options.max_memory.min(MAX_MEMORY);
        if image.len() as u64 > globals_end {
            return Err(FaultKind::Internal(format!(
                "initial image of {} bytes beyond the globals' end {globals_end}",
                image.len()
            ))
            .into());
        }
        if heap_start > max_memory as u64 {
            return Err(FaultKind::Layout {
                needed: heap_start,
                limit: max_memory as u64,
            }
            .into());
        }
        let layout = Layout {
            globals: RESERVED..globals_end as u32,
            stack: stack_start as u32..heap_start as u32,
            heap_start: heap_start as u32,
            max_memory,
        };
        Ok(Memory {
            store: Store::new(image, heap_start as usize),
            objects: ObjectTable::new(),
            heap: Heap::new(heap_start as u32, max_memory),
            stack_top: layout.stack.start,
            layout,
        })
    }

    /// The regions.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The object table.
    pub fn objects(&self) -> &ObjectTable {
        &self.objects
    }

    /// Every byte of the memory, addresses `0 ..` (unchecked: for dumps and tests).
    pub fn bytes(&self) -> &[u8] {
        self.store.bytes()
    }

    /// The globals region's bytes, for the initial values (index 0 is address
    /// `layout().globals.start`).
    pub fn global_bytes_mut(&mut self) -> &mut [u8] {
        let Range { start, end } = self.layout.globals.clone();
        &mut self.store.bytes_mut()[start as usize..end as usize]
    }

    /// Registers a declaration (once per global, string literal or local of the program).
    pub fn declare(&mut self, decl: Decl) -> DeclId {
        self.objects.declare(decl)
    }

    /// Makes the global or string literal `decl` an object at `addr .. addr + size` of the
    /// globals region; returns the pointer to it.
    pub fn add_global(&mut self, decl: DeclId, addr: u32, size: u32) -> Result<u64, Fault> {
        let globals = &self.layout.globals;
        if addr < globals.start || addr as u64 + size as u64 > globals.end as u64 {
            return Err(FaultKind::Internal(format!(
                "global at {addr}..{} outside the globals region {globals:?}",
                addr as u64 + size as u64
            ))
            .into());
        }
        self.objects.add_static(decl, addr, size)
    }

    /// The frame region's state, to return to when the function being entered returns.
    pub fn stack_mark(&self) -> StackMark {
        StackMark {
            top: self.stack_top,
            locals: self.objects.local_depth(),
        }
    }

    /// Reserves `size` zeroed bytes aligned to `align` (a power of two, at most 16) in the
    /// frame region, with no object of their own (a frame's non-escaping data); returns their
    /// address, or the stack overflow fault.
    pub fn stack_alloc(&mut self, size: u32, align: u32) -> Result<u32, Fault> {
        debug_assert!(align.is_power_of_two() && align <= 16);
        let start = (self.stack_top as u64).next_multiple_of(align as u64);
        let end = start + size as u64;
        if end > self.layout.stack.end as u64 {
            return Err(FaultKind::StackOverflow {
                size: size as u64,
                limit: (self.layout.stack.end - self.layout.stack.start) as u64,
            }
            .into());
        }
        self.store.bytes_mut()[start as usize..end as usize].fill(0);
        self.stack_top = end as u32;
        Ok(start as u32)
    }

    /// Pushes the local `decl` (`size` zeroed bytes aligned to `align`) as an object of the
    /// running function; returns the pointer to it.
    pub fn push_local(&mut self, decl: DeclId, size: u32, align: u32) -> Result<u64, Fault> {
        let addr = self.stack_alloc(size, align)?;
        self.objects.push_local(decl, addr, size)
    }

    /// Returns to `mark`: the locals pushed since die (pointers to them fault "after f
    /// returned") and their bytes are free again.
    pub fn release_stack(&mut self, mark: StackMark) {
        self.objects.pop_locals_to(mark.locals);
        self.stack_top = mark.top;
    }

    /// Checks an access of `width` (1, 2, 4 or 8) bytes at `p + offset`; returns its address.
    #[inline(always)]
    pub fn check(&self, p: u64, offset: i64, width: u32, kind: AccessKind) -> Result<usize, Fault> {
        self.objects.check(p, offset, width, kind)
    }

    #[inline(always)]
    fn load<const N: usize>(&self, p: u64, offset: i64) -> Result<[u8; N], Fault> {
        let a = self.objects.check(p, offset, N as u32, AccessKind::Read)?;
        let mut out = [0; N];
        out.copy_from_slice(&self.store.bytes()[a..a + N]);
        Ok(out)
    }

    #[inline(always)]
    fn store<const N: usize>(&mut self, p: u64, offset: i64, value: [u8; N]) -> Result<(), Fault> {
        let a = self.objects.check(p, offset, N as u32, AccessKind::Write)?;
        self.store.bytes_mut()[a..a + N].copy_from_slice(&value);
        Ok(())
    }

    /// Loads the byte at `p + offset`.
    #[inline(always)]
    pub fn load_u8(&self, p: u64, offset: i64) -> Result<u8, Fault> {
        Ok(self.load::<1>(p, offset)?[0])
    }

    /// Loads the little-endian `u16` at `p + offset`.
    #[inline(always)]
    pub fn load_u16(&self, p: u64, offset: i64) -> Result<u16, Fault> {
        self.load(p, offset).map(u16::from_le_bytes)
    }

    /// Loads the little-endian `u32` at `p + offset`.
    #[inline(always)]
    pub fn load_u32(&self, p: u64, offset: i64) -> Result<u32, Fault> {
        self.load(p, offset).map(u32::from_le_bytes)
    }

    /// Loads the little-endian `u64` at `p + offset`.
    #[inline(always)]
    pub fn load_u64(&self, p: u64, offset: i64) -> Result<u64, Fault> {
        self.load(p, offset).map(u64::from_le_bytes)
    }

    /// Stores a byte at `p + offset`.
    #[inline(always)]
    pub fn store_u8(&mut self, p: u64, offset: i64, value: u8) -> Result<(), Fault> {
        self.store(p, offset, [value])
    }

    /// Stores a little-endian `u16` at `p + offset`.
    #[inline(always)]
    pub fn store_u16(&mut self, p: u64, offset: i64, value: u16) -> Result<(), Fault> {
        self.store(p, offset, value.to_le_bytes())
    }

    /// Stores a little-endian `u32` at `p + offset`.
    #[inline(always)]
    pub fn store_u32(&mut self, p: u64, offset: i64, value: u32) -> Result<(), Fault> {
        self.store(p, offset, value.to_le_bytes())
    }

    /// Stores a little-endian `u64` at `p + offset`.
    #[inline(always)]
    pub fn store_u64(&mut self, p: u64, offset: i64, value: u64) -> Result<(), Fault> {
        self.store(p, offset, value.to_le_bytes())
    }

    /// `malloc(size)`: a new zeroed heap block allocated at `site`; the out-of-memory fault
    /// beyond the memory limit.
    pub fn malloc(&mut self, size: u64, site: Site) -> Result<u64, Fault> {
        self.allocate("malloc", 1, size, site)
    }

    /// `calloc(count, size)`: a new zeroed block of `count × size` bytes.
    pub fn calloc(&mut self, count: u64, size: u64, site: Site) -> Result<u64, Fault> {
        self.allocate("calloc", count, size, site)
    }

    fn allocate(
        &mut self,
        by: &'static str,
        count: u64,
        size: u64,
        site: Site,
    ) -> Result<u64, Fault> {
        let out_of_memory = |heap: &Heap| -> Fault {
            FaultKind::OutOfMemory {
                by,
                count,
                size,
                limit: heap.limit() as u64,
                in_use: heap.stats().in_use,
            }
            .into()
        };
        let Some((total, cap)) = count
            .checked_mul(size)
            .and_then(|total| Some((total as u32, capacity(total)?)))
        else {
            return Err(out_of_memory(&self.heap));
        };
        let Some(addr) = self.heap.alloc(cap, &mut self.store) else {
            return Err(out_of_memory(&self.heap));
        };
        match self.objects.add_heap(site, addr, total) {
            Ok(p) => {
                self.store.bytes_mut()[addr as usize..(addr + cap) as usize].fill(0);
                Ok(p)
            }
            Err(fault) => {
                self.heap.release(addr, cap);
                Err(fault)
            }
        }
    }

    /// `free(p)` at `site`: nothing for null; the fault for a double free, or a pointer that
    /// is not the start of a live heap block.
    pub fn free(&mut self, p: u64, site: Site) -> Result<(), Fault> {
        if p == 0 {
            return Ok(());
        }
        let block = self.objects.heap_block(p, "free")?;
        self.release_block(block, site);
        Ok(())
    }

    fn release_block(&mut self, block: objects::Block, site: Site) {
        self.objects.free_heap(block.slot, site);
        let cap = capacity(block.size as u64).expect("a live block's capacity fits");
        self.heap.release(block.start, cap);
    }

    /// `realloc(p, size)` at `site`: a block of `size` bytes with `p`'s contents (up to the
    /// smaller size; the rest zeroed), and `p` freed: every pointer to the old block faults
    /// from now on, even when the new block is at the same address (when the capacity does
    /// not change). `realloc(NULL, size)` is `malloc(size)`; `realloc(p, 0)` frees `p` and
    /// returns null (as glibc).
    pub fn realloc(&mut self, p: u64, size: u64, site: Site) -> Result<u64, Fault> {
        if p == 0 {
            return self.allocate("realloc", 1, size, site);
        }
        let old = self.objects.heap_block(p, "realloc")?;
        if size == 0 {
            self.release_block(old, site);
            return Ok(0);
        }
        let old_cap = capacity(old.size as u64).expect("a live block's capacity fits");
        if capacity(size) == Some(old_cap) {
            let q = self.objects.add_heap(site, old.start, size as u32)?;
            self.objects.free_heap(old.slot, site);
            if size as u32 > old.size {
                self.store.bytes_mut()
                    [(old.start + old.size) as usize..(old.start + size as u32) as usize]
                    .fill(0);
            }
            return Ok(q);
        }
        let q = self.allocate("realloc", 1, size, site)?;
        let new_start = address(q) as usize;
        let kept = old.size.min(size as u32) as usize;
        let from = old.start as usize;
        self.store
            .bytes_mut()
            .copy_within(from..from + kept, new_start);
        self.release_block(old, site);
        Ok(q)
    }

    /// The heap blocks still live, by allocation site (for a report at exit).
    pub fn leaks(&self) -> LeakReport {
        let mut by_site: Vec<(Site, u64)> = self
            .objects
            .heap_blocks()
            .map(|(site, _, size)| (site, size as u64))
            .collect();
        by_site.sort_unstable();
        let mut report = LeakReport::default();
        for (site, size) in by_site {
            report.blocks += 1;
            report.bytes += size;
            match report.sites.last_mut() {
                Some(last) if last.site == site => {
                    last.blocks += 1;
                    last.bytes += size;
                }
                _ => report.sites.push(LeakSite {
                    site,
                    blocks: 1,
                    bytes: size,
                }),
            }
        }
        report
            .sites
            .sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.site.cmp(&b.site)));
        report
    }

    /// The heap's counters.
    pub fn heap_stats(&self) -> HeapStats {
        self.heap.stats()
    }
}
