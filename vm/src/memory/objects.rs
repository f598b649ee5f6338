//! The object table: which object a pointer's tag names, its bounds, and, on the cold side,
//! what messages say about it.
//!
//! Slot `s` has a 16-byte hot entry `{ start, end, tag, flags }` and a 24-byte cold
//! description. A pointer `tag << 32 | address` is valid for an access of `width` bytes at
//! `address + offset` when `entries[tag & SLOT_MASK].tag == tag` and the bytes lie in
//! `start .. end` ([`ObjectTable::check`]). An entry whose object died has `start == end == 0`,
//! so no access matches it, and a new generation in its tag, so that the pointers to the dead
//! object stay wrong once the slot is reused.
//!
//! Three kinds of slots:
//!
//! - *static* (globals, string literals): added at load, live for the whole run;
//! - *frame* (locals whose address escapes): a stack of slots. Entering a function pushes its
//!   locals, returning pops them (LIFO), which kills them; a slot, once used for frames, is
//!   reused by the next local pushed at the same depth (with its next generation);
//! - *heap*: one per block. A freed slot joins the back of a queue, and allocation takes a
//!   fresh slot until more than [`QUARANTINE_SLOTS`] wait in the queue, then the one freed
//!   longest ago. A slot is thus reused only after thousands of other frees.
//!
//! Each slot remembers its last dead occupant (which object, where freed, its generation), so
//! that a pointer to it is reported precisely ("after it was freed at site 9", "after f
//! returned"); a pointer to an older occupant gets the generic "dangling pointer" message.

use std::collections::VecDeque;

use super::fault::{
    Access, AccessKind, AccessSize, BadFree, DeadKind, Fault, FaultKind, ObjectDesc, ObjectKind,
};
use super::Site;

/// Bits of a tag naming the slot (the low 24); the high 8 are the slot's generation.
pub const SLOT_BITS: u32 = 24;
/// Mask of the slot bits of a tag.
pub const SLOT_MASK: u32 = (1 << SLOT_BITS) - 1;
/// The most objects that can exist at once: slots `1 ..= SLOT_MASK` (slot 0 is the null
/// pointer's, and matches no pointer).
pub const MAX_OBJECTS: u32 = SLOT_MASK;
/// Entries of [`ObjectTable`]'s cache of pointers recently made array references.
const RECENT_ARRAYS: usize = 64;

/// The entry of the cache of recent array references for address `addr`.
fn recent_index(addr: u32) -> usize {
    (addr.wrapping_mul(0x9e37_79b1) >> 26) as usize % RECENT_ARRAYS
}

/// A freed heap slot is reused only when more than this many freed slots wait (see the module
/// docs): 4096 slots of table (160 KiB) keep a pointer to a freed block detectable across at
/// least 4096 × 255 frees.
pub const QUARANTINE_SLOTS: usize = 4096;

/// Slot 0's tag: its slot bits are not 0, so no pointer (whose slot bits select entry 0 only
/// when they are 0) ever matches it.
const NEVER: u32 = u32::MAX;
/// One generation, in a tag.
const GENERATION_STEP: u32 = 1 << SLOT_BITS;

/// `Entry::flags`: the slot's class (low byte) and whether it holds a live object.
const CLASS_STATIC: u32 = 1;
const CLASS_FRAME: u32 = 2;
const CLASS_HEAP: u32 = 3;
const CLASS_MASK: u32 = 0xff;
const LIVE: u32 = 0x100;
/// `Entry::flags`: a frame slot's local whose block has ended while its function runs: not
/// live, its range kept as the slot's last dead occupant's until the block is entered again.
const OUT_OF_SCOPE: u32 = 0x200;

/// The hot half of a slot: everything the access check reads, 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Entry {
    /// The object's first byte address.
    start: u32,
    /// One past its last byte (`start == end == 0` when the slot holds no live object).
    end: u32,
    /// The tag of the pointers to it: generation and slot.
    tag: u32,
    /// Class and liveness (`CLASS_*`, `LIVE`).
    flags: u32,
}

/// The cold half of a slot: what messages say about its occupant and its last dead one.
#[derive(Clone, Copy, Debug, Default)]
struct Cold {
    /// The live object's declaration (static and frame slots) or allocation site (heap).
    what: u32,
    /// The last dead occupant (`dead_flags == 0`: none yet).
    dead_what: u32,
    /// Its start address.
    dead_start: u32,
    /// Its size.
    dead_size: u32,
    /// Where it was freed (heap).
    dead_site: Site,
    /// Its tag (with the generation pointers to it carry).
    dead_tag: u32,
}

/// A heap block freed after a pointer into it was made an array reference
/// ([`ObjectTable::array_at`]): an array parameter of a running function may still refer to it
/// (the interpreter then makes such parameters dangling: `interp::array_params`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreedArrayed {
    /// The pointer to its start (its tag names the dead block).
    pub pointer: u64,
    /// Its first byte address.
    pub start: u32,
    /// One past its last byte.
    pub end: u32,
}

/// A declaration index: what a static or frame object is, registered once per program with
/// [`ObjectTable::declare`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeclId(pub u32);

/// What the compiler says about an object that is not a heap block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    /// Global, string literal, or local of a function.
    pub kind: DeclKind,
    /// The declaration's text (`int a[10]`), or a string literal's text with its quotes.
    pub name: String,
}

/// The kinds of [`Decl`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclKind {
    /// A global or `static` variable.
    Global,
    /// A string literal's array.
    StringLiteral,
    /// A local (whose address is taken) of the named function.
    Local {
        /// The function.
        function: String,
    },
}

/// A pointer resolved to its live object, for the library functions: how many bytes from the
/// pointer on are inside the object.
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    /// The pointer.
    pub pointer: u64,
    /// Its address.
    pub addr: u32,
    /// The object's start.
    pub start: u32,
    /// The object's end (one past its last byte).
    pub end: u32,
}

impl View {
    /// The pointer's offset in its object.
    pub fn offset(&self) -> i64 {
        self.addr as i64 - self.start as i64
    }

    /// How many bytes from the pointer on are inside the object (0 if it points outside).
    pub fn avail(&self) -> u64 {
        if self.start <= self.addr && self.addr <= self.end {
            (self.end - self.addr) as u64
        } else {
            0
        }
    }
}

/// A live heap block, as `free` and `realloc` see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Block {
    /// Its slot.
    pub slot: u32,
    /// Its address.
    pub start: u32,
    /// Its size (as asked for).
    pub size: u32,
}

/// The table of every object that exists or has existed: see the module docs.
#[derive(Clone, Debug)]
pub struct ObjectTable {
    /// Hot entries, indexed by slot; entry 0 is permanent and matches nothing.
    entries: Vec<Entry>,
    /// Cold descriptions, parallel to `entries`.
    cold: Vec<Cold>,
    /// Declarations of static and frame objects.
    decls: Vec<Decl>,
    /// The slots used for frame objects, in stack order: `frame_slots[..frame_depth]` hold
    /// the live locals, the rest are dead and wait for the next push at their depth.
    frame_slots: Vec<u32>,
    /// How many locals are live.
    frame_depth: usize,
    /// Freed heap slots, least recently freed first.
    free_heap_slots: VecDeque<u32>,
    /// The static objects' slots by start address, sorted (for [`ObjectTable::pointer_at`]).
    statics_by_address: Vec<(u32, u32)>,
    /// Pointers recently converted to array references (`array_at`), by a hash of their
    /// address: the pointer an array reference at that address came from, tried first by
    /// [`ObjectTable::pointer_at`] (a callee turning its array parameter back into a pointer).
    recent_arrays: Box<[(u32, u64); RECENT_ARRAYS]>,
    /// One bit per slot: whether a pointer into the slot's object was made an array
    /// reference (`array_at`), so that an array parameter may refer to it. Read and cleared
    /// when a heap block is freed (a frame or static slot's bit is never read).
    arrayed: Vec<u64>,
    /// The last heap block freed that a pointer made an array reference pointed into.
    freed_arrayed: Option<FreedArrayed>,
    /// Live objects of every kind.
    live: u32,
    /// The most slots (slot 0 excluded): [`MAX_OBJECTS`], less in tests.
    limit: u32,
}

impl Default for ObjectTable {
    fn default() -> Self {
        ObjectTable::new()
    }
}

impl ObjectTable {
    /// An empty table (slot 0 only).
    pub fn new() -> ObjectTable {
        ObjectTable {
            entries: vec![Entry {
                tag: NEVER,
                ..Entry::default()
            }],
            cold: vec![Cold::default()],
            decls: Vec::new(),
            frame_slots: Vec::new(),
            frame_depth: 0,
            free_heap_slots: VecDeque::new(),
            statics_by_address: Vec::new(),
            recent_arrays: Box::new([(0, 0); RECENT_ARRAYS]),
            arrayed: Vec::new(),
            freed_arrayed: None,
            live: 0,
            limit: MAX_OBJECTS,
        }
    }

    /// Lowers the number of slots, to test the limit without 16M objects.
    #[cfg(test)]
    pub(super) fn set_limit(&mut self, limit: u32) {
        self.limit = limit;
    }

    /// Registers a declaration (once per global, literal or local of the program).
    pub fn declare(&mut self, decl: Decl) -> DeclId {
        self.decls.push(decl);
        DeclId(self.decls.len() as u32 - 1)
    }

    /// A declaration.
    pub fn decl(&self, id: DeclId) -> &Decl {
        &self.decls[id.0 as usize]
    }

    /// How many objects are live.
    pub fn live_objects(&self) -> u32 {
        self.live
    }

    /// How many slots the table has (live, dead and slot 0).
    pub fn slots(&self) -> usize {
        self.entries.len()
    }

    /// How many locals are live (the frame stack's depth).
    pub fn local_depth(&self) -> usize {
        self.frame_depth
    }

    /// Bytes the table takes (capacities of its vectors, declarations excluded).
    pub fn table_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entry>()
            + self.cold.capacity() * size_of::<Cold>()
            + self.frame_slots.capacity() * 4
            + self.free_heap_slots.capacity() * 4
            + self.arrayed.capacity() * 8
    }

    /// Checks an access of `width` (1, 2, 4 or 8) bytes at `offset` from pointer `p`: the
    /// pointer's tag names a live object, the bytes are inside it, and the address is a
    /// multiple of `width`. Returns the address.
    ///
    /// The fast path is a table load and five compares; everything else is in the cold
    /// [`ObjectTable::diagnose`]. The conditions are combined with `&`, not `&&`: 6 to 15%
    /// faster in `benches/pointer_checks.rs`.
    #[inline(always)]
    pub fn check(&self, p: u64, offset: i64, width: u32, kind: AccessKind) -> Result<usize, Fault> {
        debug_assert!(width.is_power_of_two() && width <= 8);
        let tag = (p >> 32) as u32;
        // No overflow: a u32 plus an i64 overflows only upwards, to a negative number, which
        // fails `a >= start`.
        let a = (p as u32 as i64).wrapping_add(offset);
        match self.entries.get((tag & SLOT_MASK) as usize) {
            Some(e)
                if (e.tag == tag)
                    & (a >= e.start as i64)
                    & (a <= e.end as i64 - width as i64)
                    & (a & (width as i64 - 1) == 0) =>
            {
                Ok(a as usize)
            }
            _ => Err(self.diagnose(p, offset, Access::program(kind, width))),
        }
    }

    /// Checks a range of `len` bytes at `offset` from `p` (no alignment required), as library
    /// functions and struct copies access memory; returns its address. An empty range is not
    /// checked (its address is returned as is).
    #[inline(always)]
    pub fn check_range(
        &self,
        p: u64,
        offset: i64,
        len: u64,
        access: Access,
    ) -> Result<usize, Fault> {
        let tag = (p >> 32) as u32;
        let a = (p as u32 as i64).wrapping_add(offset);
        if len == 0 {
            return Ok(a as u32 as usize);
        }
        match self.entries.get((tag & SLOT_MASK) as usize) {
            Some(e)
                if e.tag == tag
                    && a >= e.start as i64
                    && len <= e.end as u64
                    && a <= e.end as i64 - len as i64 =>
            {
                Ok(a as usize)
            }
            _ => Err(self.diagnose(p, offset, access)),
        }
    }

    /// The fault of an access that failed the check: null, invalid, out of bounds,
    /// misaligned, after free, after return, or dangling.
    #[cold]
    #[inline(never)]
    pub fn diagnose(&self, p: u64, offset: i64, access: Access) -> Fault {
        let len = match access.size {
            AccessSize::Bytes(n) => n,
            AccessSize::String => 1,
        };
        let view = match self.resolve(p, access) {
            Ok(view) => view,
            Err(fault) => return self.with_offset(fault, offset),
        };
        let at = view.offset().saturating_add(offset);
        let size = (view.end - view.start) as i64;
        if at < 0 || at > size || len > (size - at) as u64 {
            let first_bad = if at < 0 { at } else { at.max(size) };
            return self.out_of_bounds(&view, at, first_bad, access);
        }
        if len > 1 && access.by.is_none() && (view.addr as i64 + offset) % len as i64 != 0 {
            return FaultKind::Misaligned {
                access,
                object: self.describe_live(view.pointer),
                offset: at,
            }
            .into();
        }
        FaultKind::Internal(format!(
            "access of {len} bytes at offset {at} of a {size}-byte object failed its check"
        ))
        .into()
    }

    /// Adds `offset` to the offset of a fault found by [`ObjectTable::resolve`] (which sees
    /// only the pointer).
    fn with_offset(&self, fault: Fault, offset: i64) -> Fault {
        let mut kind = fault.kind().clone();
        match &mut kind {
            FaultKind::Null { offset: o, .. }
            | FaultKind::UseAfterFree { offset: o, .. }
            | FaultKind::UseAfterReturn { offset: o, .. }
            | FaultKind::UseAfterScope { offset: o, .. } => *o = o.saturating_add(offset),
            _ => return fault,
        }
        kind.into()
    }

    /// Resolves `p` to its live object, or the fault of any access through it: null,
    /// invalid, after free, after return, dangling. The pointer may point outside its object
    /// ([`View::avail`] is then 0).
    pub(super) fn resolve(&self, p: u64, access: Access) -> Result<View, Fault> {
        let tag = (p >> 32) as u32;
        let slot = tag & SLOT_MASK;
        let addr = p as u32;
        if p == 0 {
            return Err(FaultKind::Null { access, offset: 0 }.into());
        }
        let Some(e) = self.entries.get(slot as usize).filter(|_| slot != 0) else {
            return Err(FaultKind::Invalid { access, pointer: p }.into());
        };
        if e.tag == tag && e.flags & LIVE != 0 {
            return Ok(View {
                pointer: p,
                addr,
                start: e.start,
                end: e.end,
            });
        }
        let cold = &self.cold[slot as usize];
        let class = e.flags & CLASS_MASK;
        if e.tag == tag && e.flags & OUT_OF_SCOPE != 0 {
            return Err(FaultKind::UseAfterScope {
                access,
                object: self.describe_dead(slot),
                offset: addr as i64 - cold.dead_start as i64,
            }
            .into());
        }
        if cold.dead_tag == tag && class != CLASS_STATIC {
            let object = self.describe_dead(slot);
            let offset = addr as i64 - cold.dead_start as i64;
            return Err(if class == CLASS_HEAP {
                FaultKind::UseAfterFree {
                    access,
                    object,
                    offset,
                    freed_at: cold.dead_site,
                }
            } else {
                FaultKind::UseAfterReturn {
                    access,
                    object,
                    offset,
                }
            }
            .into());
        }
        Err(match class {
            CLASS_HEAP => FaultKind::Dangling {
                access,
                pointer: p,
                was: DeadKind::Heap,
            },
            CLASS_FRAME => FaultKind::Dangling {
                access,
                pointer: p,
                was: DeadKind::Local,
            },
            _ => FaultKind::Invalid { access, pointer: p },
        }
        .into())
    }

    /// The fault of an access through `view` that reaches outside the object: `offset`
    /// where the access starts, `first_bad` its first byte outside.
    pub(super) fn out_of_bounds(
        &self,
        view: &View,
        offset: i64,
        first_bad: i64,
        access: Access,
    ) -> Fault {
        FaultKind::OutOfBounds {
            access,
            object: self.describe_live(view.pointer),
            offset,
            first_bad,
        }
        .into()
    }

    /// The description of the live object `p` points to, if any.
    pub fn object_of(&self, p: u64) -> Option<ObjectDesc> {
        let access = Access::program(AccessKind::Read, 1);
        self.resolve(p, access)
            .ok()
            .map(|view| self.describe_live(view.pointer))
    }

    /// The live object of a pointer known to resolve.
    fn describe_live(&self, p: u64) -> ObjectDesc {
        let slot = ((p >> 32) as u32 & SLOT_MASK) as usize;
        let e = &self.entries[slot];
        self.describe(e.flags & CLASS_MASK, self.cold[slot].what, e.end - e.start)
    }

    /// The last dead occupant of a slot.
    fn describe_dead(&self, slot: u32) -> ObjectDesc {
        let cold = &self.cold[slot as usize];
        let class = self.entries[slot as usize].flags & CLASS_MASK;
        self.describe(class, cold.dead_what, cold.dead_size)
    }

    fn describe(&self, class: u32, what: u32, size: u32) -> ObjectDesc {
        if class == CLASS_HEAP {
            return ObjectDesc {
                kind: ObjectKind::Heap { site: what },
                name: String::new(),
                size,
            };
        }
        let decl = &self.decls[what as usize];
        ObjectDesc {
            kind: match &decl.kind {
                DeclKind::Global => ObjectKind::Global,
                DeclKind::StringLiteral => ObjectKind::StringLiteral,
                DeclKind::Local { function } => ObjectKind::Local {
                    function: function.clone(),
                },
            },
            name: decl.name.clone(),
            size,
        }
    }

    /// A new slot at the end of the table, or the too-many-objects fault.
    fn new_slot(&mut self) -> Result<u32, Fault> {
        if self.entries.len() > self.limit as usize {
            return Err(FaultKind::TooManyObjects { limit: self.limit }.into());
        }
        let slot = self.entries.len() as u32;
        self.entries.push(Entry {
            tag: slot,
            ..Entry::default()
        });
        self.cold.push(Cold::default());
        Ok(slot)
    }

    /// Makes `slot` hold a live object (with the slot's current generation); returns the
    /// pointer to its start.
    fn occupy(&mut self, slot: u32, class: u32, what: u32, start: u32, size: u32) -> u64 {
        debug_assert!(start.checked_add(size).is_some());
        let e = &mut self.entries[slot as usize];
        e.start = start;
        e.end = start + size;
        e.flags = class | LIVE;
        self.cold[slot as usize].what = what;
        self.live += 1;
        (e.tag as u64) << 32 | start as u64
    }

    /// Kills the object of `slot`: it becomes the slot's last dead occupant, and the slot
    /// moves to its next generation.
    fn kill(&mut self, slot: u32, site: Site) {
        let e = &mut self.entries[slot as usize];
        debug_assert!(e.flags & (LIVE | OUT_OF_SCOPE) != 0);
        let cold = &mut self.cold[slot as usize];
        cold.dead_what = cold.what;
        if e.flags & OUT_OF_SCOPE == 0 {
            // (Out of scope, the range is already the dead occupant's.)
            cold.dead_start = e.start;
            cold.dead_size = e.end - e.start;
        }
        cold.dead_site = site;
        cold.dead_tag = e.tag;
        e.tag = e.tag.wrapping_add(GENERATION_STEP);
        e.start = 0;
        e.end = 0;
        e.flags &= CLASS_MASK;
        self.live -= 1;
    }

    /// Adds a global or string literal at `start .. start + size`, live for the whole run;
    /// returns the pointer to it. The caller checked the range is memory.
    pub fn add_static(&mut self, decl: DeclId, start: u32, size: u32) -> Result<u64, Fault> {
        let slot = self.new_slot()?;
        let at = self
            .statics_by_address
            .partition_point(|&(s, _)| s <= start);
        self.statics_by_address.insert(at, (start, slot));
        Ok(self.occupy(slot, CLASS_STATIC, decl.0, start, size))
    }

    /// Pushes a local at `start .. start + size` on the frame stack; returns the pointer to
    /// it. The caller checked the range is memory.
    pub fn push_local(&mut self, decl: DeclId, start: u32, size: u32) -> Result<u64, Fault> {
        let slot = match self.frame_slots.get(self.frame_depth) {
            Some(&slot) => slot,
            None => {
                let slot = self.new_slot()?;
                self.frame_slots.push(slot);
                slot
            }
        };
        self.frame_depth += 1;
        Ok(self.occupy(slot, CLASS_FRAME, decl.0, start, size))
    }

    /// The local at position `index` of the frame stack leaves its block's scope (`live`
    /// false: every access through a pointer to it fails as a use after scope) or enters it
    /// again (`live` true: it is live again if it was out of scope); returns the pointer to
    /// it, or `None` if the stack is not that deep. Pointers keep their tag: the object comes
    /// back at the same address when its block is entered again, as ASan's
    /// stack-use-after-scope sees it. A local already in the state asked for stays as it is.
    pub fn mark_scope(&mut self, index: usize, live: bool) -> Option<u64> {
        let slot = *self.frame_slots[..self.frame_depth].get(index)? as usize;
        let e = &mut self.entries[slot];
        let cold = &mut self.cold[slot];
        if !live && e.flags == CLASS_FRAME | LIVE {
            // Out of scope, the range is kept as the slot's last dead occupant's.
            cold.dead_what = cold.what;
            cold.dead_start = e.start;
            cold.dead_size = e.end - e.start;
            cold.dead_site = 0;
            cold.dead_tag = e.tag;
            e.start = 0;
            e.end = 0;
            e.flags = CLASS_FRAME | OUT_OF_SCOPE;
        } else if live && e.flags == CLASS_FRAME | OUT_OF_SCOPE {
            e.start = cold.dead_start;
            e.end = cold.dead_start + cold.dead_size;
            e.flags = CLASS_FRAME | LIVE;
        }
        let start = match e.flags & OUT_OF_SCOPE {
            0 => e.start,
            _ => cold.dead_start,
        };
        Some((u64::from(e.tag) << 32) | u64::from(start))
    }

    /// Pops (kills) the locals above depth `depth` (a function returned).
    pub fn pop_locals_to(&mut self, depth: usize) {
        while self.frame_depth > depth {
            self.frame_depth -= 1;
            let slot = self.frame_slots[self.frame_depth];
            self.kill(slot, 0);
        }
    }

    /// Adds a heap block at `start .. start + size`, allocated at `site`; returns the pointer
    /// to it. The caller checked the range is memory.
    pub(super) fn add_heap(&mut self, site: Site, start: u32, size: u32) -> Result<u64, Fault> {
        let slot = if self.free_heap_slots.len() > QUARANTINE_SLOTS {
            self.free_heap_slots.pop_front()
        } else {
            None
        };
        let slot = match slot {
            Some(slot) => slot,
            None => match self.new_slot() {
                Ok(slot) => slot,
                Err(fault) => self.free_heap_slots.pop_front().ok_or(fault)?,
            },
        };
        Ok(self.occupy(slot, CLASS_HEAP, site, start, size))
    }

    /// Frees the heap block of `slot` at `site`.
    pub(super) fn free_heap(&mut self, slot: u32, site: Site) {
        if self.was_arrayed_slot(slot as usize) {
            // (Cleared here, so a heap slot's next occupant starts without it.)
            self.arrayed[slot as usize / 64] &= !(1 << (slot % 64));
            let e = &self.entries[slot as usize];
            self.freed_arrayed = Some(FreedArrayed {
                pointer: (u64::from(e.tag) << 32) | u64::from(e.start),
                start: e.start,
                end: e.end,
            });
        }
        self.kill(slot, site);
        self.free_heap_slots.push_back(slot);
    }

    /// The live heap block `p` points to the start of, or the fault of `by` (`"free"`,
    /// `"realloc"`) on it: double free, not a heap block, not its start, invalid, dangling.
    /// `p` is not null.
    pub(super) fn heap_block(&self, p: u64, by: &'static str) -> Result<Block, Fault> {
        let slot = (p >> 32) as u32 & SLOT_MASK;
        let access = Access::program(AccessKind::Read, 1);
        let bad = |reason| FaultKind::BadFree { by, reason }.into();
        match self.resolve(p, access) {
            Ok(view) => {
                let object = self.describe_live(p);
                if self.entries[slot as usize].flags & CLASS_MASK != CLASS_HEAP {
                    Err(bad(BadFree::NotHeap(object)))
                } else if view.addr != view.start {
                    Err(bad(BadFree::Interior(object, view.offset())))
                } else {
                    Ok(Block {
                        slot,
                        start: view.start,
                        size: view.end - view.start,
                    })
                }
            }
            Err(fault) => Err(match fault.kind() {
                FaultKind::UseAfterFree {
                    object, freed_at, ..
                } => FaultKind::DoubleFree {
                    by,
                    object: object.clone(),
                    freed_at: *freed_at,
                }
                .into(),
                FaultKind::UseAfterReturn { object, .. }
                | FaultKind::UseAfterScope { object, .. } => bad(BadFree::NotHeap(object.clone())),
                FaultKind::Dangling { was, .. } => bad(BadFree::Dangling(p, *was)),
                _ => bad(BadFree::Invalid(p)),
            }),
        }
    }

    /// The pointer to byte address `addr` derived from the live object that contains it (or,
    /// failing that, ends just before it), if one does: how an array reference, which has
    /// only an address, becomes a pointer again. A pointer recently made an array reference
    /// at that address is found at once; statics by address in O(log n); locals by searching
    /// the frame stack from its top (the array is usually the caller's); heap blocks, last,
    /// by a scan of the table.
    pub fn pointer_at(&self, addr: u32) -> Option<u64> {
        let (at, p) = self.recent_arrays[recent_index(addr)];
        if at == addr && p != 0 {
            let slot = (p >> 32) as u32 & SLOT_MASK;
            let e = &self.entries[slot as usize];
            if e.tag == (p >> 32) as u32 && e.flags & LIVE != 0 {
                return Some(p);
            }
        }
        let live = |slot: u32| {
            let e = &self.entries[slot as usize];
            (e.flags & LIVE != 0).then_some(e)
        };
        let inside = |slot: u32, one_past: bool| {
            live(slot).is_some_and(|e| {
                e.start <= addr && (addr < e.end || e.start == addr || (one_past && addr == e.end))
            })
        };
        let found = |one_past: bool| {
            let static_slot = self
                .statics_by_address
                .partition_point(|&(s, _)| s <= addr)
                .checked_sub(1)
                .map(|i| self.statics_by_address[i].1);
            let heap_slots = (1..self.entries.len() as u32)
                .filter(|&slot| self.entries[slot as usize].flags & CLASS_MASK == CLASS_HEAP);
            static_slot
                .into_iter()
                .chain(self.frame_slots[..self.frame_depth].iter().rev().copied())
                .chain(heap_slots)
                .find(|&slot| inside(slot, one_past))
        };
        let slot = found(false).or_else(|| found(true))?;
        Some((u64::from(self.entries[slot as usize].tag) << 32) | u64::from(addr))
    }

    /// The array reference `(address, rows)` of the rows of `stride` bytes from `p` to the
    /// end of its object: how a pointer is passed to an array parameter. A null pointer gives
    /// an empty array; a pointer outside its object, one with no rows left.
    pub fn array_at(&mut self, p: u64, stride: u64) -> Result<(u32, u32), Fault> {
        if p == 0 {
            return Ok((0, 0));
        }
        let access = Access {
            kind: AccessKind::Read,
            size: AccessSize::Bytes(stride),
            by: Some("array argument"),
        };
        let view = self.resolve(p, access)?;
        let rows = match view.addr >= view.start && view.addr <= view.end {
            true => u64::from(view.end - view.addr) / stride.max(1),
            false => 0,
        };
        self.recent_arrays[recent_index(view.addr)] = (view.addr, p);
        let slot = ((p >> 32) as u32 & SLOT_MASK) as usize;
        if slot / 64 >= self.arrayed.len() {
            self.arrayed.resize(slot / 64 + 1, 0);
        }
        self.arrayed[slot / 64] |= 1 << (slot % 64);
        Ok((view.addr, rows.min(u64::from(u32::MAX)) as u32))
    }

    /// Whether a pointer into the object of `slot` was made an array reference since the
    /// object was made (an array parameter may refer to it).
    fn was_arrayed_slot(&self, slot: usize) -> bool {
        self.arrayed
            .get(slot / 64)
            .is_some_and(|bits| bits & (1 << (slot % 64)) != 0)
    }

    /// Whether a heap block that an array parameter may refer to was freed and not taken yet.
    #[inline]
    pub fn has_freed_arrayed(&self) -> bool {
        self.freed_arrayed.is_some()
    }

    /// The last heap block freed that an array parameter may refer to, if it has not been
    /// taken yet (see [`FreedArrayed`]).
    #[inline]
    pub fn take_freed_arrayed(&mut self) -> Option<FreedArrayed> {
        self.freed_arrayed.take()
    }

    /// Every live heap block: its allocation site, start and size.
    pub fn heap_blocks(&self) -> impl Iterator<Item = (Site, u32, u32)> + '_ {
        self.entries
            .iter()
            .zip(&self.cold)
            .filter(|(e, _)| e.flags == CLASS_HEAP | LIVE)
            .map(|(e, c)| (c.what, e.start, e.end - e.start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn global(table: &mut ObjectTable, name: &str) -> DeclId {
        table.declare(Decl {
            kind: DeclKind::Global,
            name: name.to_string(),
        })
    }

    fn local(table: &mut ObjectTable, function: &str, name: &str) -> DeclId {
        table.declare(Decl {
            kind: DeclKind::Local {
                function: function.to_string(),
            },
            name: name.to_string(),
        })
    }

    fn read(table: &ObjectTable, p: u64, offset: i64, width: u32) -> Result<usize, String> {
        table
            .check(p, offset, width, AccessKind::Read)
            .map_err(|f| f.to_string())
    }

    #[test]
    fn entry_is_16_bytes_and_cold_24() {
        assert_eq!(size_of::<Entry>(), 16);
        assert_eq!(size_of::<Cold>(), 24);
    }

    #[test]
    fn in_bounds_accesses_pass_and_return_the_address() {
        let mut table = ObjectTable::new();
        let a = global(&mut table, "int a[10]");
        let p = table.add_static(a, 64, 40).unwrap();
        assert_eq!(read(&table, p, 0, 4), Ok(64));
        assert_eq!(read(&table, p, 36, 4), Ok(100));
        assert_eq!(read(&table, p + 8, 28, 4), Ok(100));
        assert_eq!(read(&table, p, 32, 8), Ok(96));
        assert_eq!(read(&table, p, 39, 1), Ok(103));
    }

    #[test]
    fn out_of_bounds_names_object_and_offset() {
        let mut table = ObjectTable::new();
        let a = global(&mut table, "int a[10]");
        let p = table.add_static(a, 64, 40).unwrap();
        assert_eq!(
            read(&table, p, 40, 4).unwrap_err(),
            "out-of-bounds read of 4 bytes at offset 40 of 'int a[10]' (global, 40 bytes)"
        );
        assert_eq!(
            read(&table, p, -4, 4).unwrap_err(),
            "out-of-bounds read of 4 bytes at offset -4 of 'int a[10]' (global, 40 bytes)"
        );
        assert_eq!(
            table
                .check(p, 36, 8, AccessKind::Write)
                .unwrap_err()
                .to_string(),
            "out-of-bounds write of 8 bytes at offset 36 of 'int a[10]' (global, 40 bytes)"
        );
        // Offsets far outside, in both directions, without wrapping.
        assert!(read(&table, p, i64::MAX, 1).is_err());
        assert!(read(&table, p, i64::MIN, 1).is_err());
        assert!(read(&table, p, 1 << 32, 4).is_err());
        assert!(read(&table, p, -(1 << 32), 4).is_err());
        assert!(read(&table, p | 0xffff_fff0, 0x20, 4).is_err());
        let fault = table.check(p, 1 << 40, 4, AccessKind::Read).unwrap_err();
        assert!(
            matches!(fault.kind(), FaultKind::OutOfBounds { offset, .. } if *offset == 1 << 40)
        );
    }

    #[test]
    fn misaligned_accesses_fail() {
        let mut table = ObjectTable::new();
        let a = global(&mut table, "char b[16]");
        let p = table.add_static(a, 64, 16).unwrap();
        assert_eq!(
            read(&table, p, 1, 4).unwrap_err(),
            "misaligned read of 4 bytes at offset 1 of 'char b[16]' (global, 16 bytes)"
        );
        assert!(read(&table, p, 2, 2).is_ok());
        assert!(read(&table, p, 4, 8).is_err());
        assert!(read(&table, p, 3, 1).is_ok());
    }

    #[test]
    fn null_and_invalid_pointers() {
        let mut table = ObjectTable::new();
        let a = global(&mut table, "int a[10]");
        table.add_static(a, 64, 40).unwrap();
        assert_eq!(
            table
                .check(0, 0, 8, AccessKind::Write)
                .unwrap_err()
                .to_string(),
            "null pointer dereference (write of 8 bytes)"
        );
        assert_eq!(
            read(&table, 0, 12, 4).unwrap_err(),
            "null pointer dereference (read of 4 bytes at offset 12)"
        );
        assert_eq!(
            read(&table, 12345, 0, 1).unwrap_err(),
            "read of 1 byte through invalid pointer 0x3039, the address of no object"
        );
        // A tag naming a slot past the table, and one with the wrong generation of a
        // static slot.
        assert!(matches!(
            table
                .check(0x77_0000_0040, 0, 4, AccessKind::Read)
                .unwrap_err()
                .kind(),
            FaultKind::Invalid { .. }
        ));
        assert!(matches!(
            table
                .check(0x0100_0001_0000_0040, 0, 4, AccessKind::Read)
                .unwrap_err()
                .kind(),
            FaultKind::Invalid { .. }
        ));
    }

    #[test]
    fn use_after_free_and_double_free() {
        let mut table = ObjectTable::new();
        let p = table.add_heap(7, 1024, 24).unwrap();
        assert!(read(&table, p, 20, 4).is_ok());
        let block = table.heap_block(p, "free").unwrap();
        assert_eq!((block.start, block.size), (1024, 24));
        table.free_heap(block.slot, 9);
        assert_eq!(
            read(&table, p, 8, 4).unwrap_err(),
            "read of 4 bytes at offset 8 of heap block of 24 bytes allocated at site 7 after it was freed at site 9"
        );
        assert_eq!(
            table.heap_block(p, "free").unwrap_err().to_string(),
            "free: double free of heap block of 24 bytes allocated at site 7, already freed at site 9"
        );
        assert_eq!(
            table.heap_block(p + 8, "free").unwrap_err().to_string(),
            "free: double free of heap block of 24 bytes allocated at site 7, already freed at site 9"
        );
    }

    #[test]
    fn bad_frees() {
        let mut table = ObjectTable::new();
        let a = global(&mut table, "int a[10]");
        let g = table.add_static(a, 64, 40).unwrap();
        let p = table.add_heap(3, 1024, 32).unwrap();
        assert_eq!(
            table.heap_block(g, "free").unwrap_err().to_string(),
            "free of 'int a[10]' (global, 40 bytes), which is not a heap block"
        );
        assert_eq!(
            table.heap_block(p + 8, "realloc").unwrap_err().to_string(),
            "realloc of a pointer to offset 8 of heap block of 32 bytes allocated at site 3, not to its start"
        );
        assert_eq!(
            table.heap_block(99, "free").unwrap_err().to_string(),
            "free of invalid pointer 0x63, the address of no object"
        );
    }

    #[test]
    fn locals_die_when_popped() {
        let mut table = ObjectTable::new();
        let x = local(&mut table, "f", "x");
        let y = local(&mut table, "g", "int y[2]");
        let depth = table.local_depth();
        let px = table.push_local(x, 4096, 4).unwrap();
        assert!(read(&table, px, 0, 4).is_ok());
        table.pop_locals_to(depth);
        assert_eq!(
            read(&table, px, 0, 4).unwrap_err(),
            "read of 4 bytes at offset 0 of 'x' (local of function f, 4 bytes) after f returned"
        );
        // The same slot, reused by the next call's local: the old pointer still fails, and
        // still names x.
        let py = table.push_local(y, 4096, 8).unwrap();
        assert_eq!(py >> 32 & SLOT_MASK as u64, px >> 32 & SLOT_MASK as u64);
        assert!(read(&table, py, 4, 4).is_ok());
        assert_eq!(
            read(&table, px, 0, 4).unwrap_err(),
            "read of 4 bytes at offset 0 of 'x' (local of function f, 4 bytes) after f returned"
        );
        assert_eq!(
            table.heap_block(px, "free").unwrap_err().to_string(),
            "free of 'x' (local of function f, 4 bytes), which is not a heap block"
        );
        table.pop_locals_to(depth);
        // Two generations later, x is no longer the slot's last occupant.
        table.push_local(y, 4096, 8).unwrap();
        table.pop_locals_to(depth);
        assert_eq!(
            read(&table, px, 0, 4).unwrap_err(),
            format!(
                "read of 4 bytes through dangling pointer {px:#x}: its local's function returned"
            )
        );
    }

    #[test]
    fn locals_out_of_scope_fail_until_their_block_is_entered_again() {
        let mut table = ObjectTable::new();
        let t = local(&mut table, "f", "t");
        let depth = table.local_depth();
        let pt = table.push_local(t, 4096, 8).unwrap();
        // Already live: nothing changes.
        assert_eq!(table.mark_scope(depth, true), Some(pt));
        assert!(read(&table, pt, 7, 1).is_ok());
        assert_eq!(table.mark_scope(depth, false), Some(pt));
        assert_eq!(
            read(&table, pt, 4, 4).unwrap_err(),
            "read of 4 bytes at offset 4 of 't' (local of function f, 8 bytes) after the block declaring it ended"
        );
        assert!(table.pointer_at(4096).is_none());
        assert_eq!(
            table.heap_block(pt, "free").unwrap_err().to_string(),
            "free of 't' (local of function f, 8 bytes), which is not a heap block"
        );
        // Already out of scope: nothing changes.
        assert_eq!(table.mark_scope(depth, false), Some(pt));
        assert_eq!(table.mark_scope(depth + 1, true), None);
        assert_eq!(table.mark_scope(depth, true), Some(pt));
        assert!(read(&table, pt, 4, 4).is_ok());
        assert_eq!(table.pointer_at(4100), Some(pt + 4));
        // The function returns while the block is left: the local dies with its range.
        table.mark_scope(depth, false);
        table.pop_locals_to(depth);
        assert_eq!(
            read(&table, pt, 0, 1).unwrap_err(),
            "read of 1 byte at offset 0 of 't' (local of function f, 8 bytes) after f returned"
        );
        // Its position is no longer on the stack: nothing revives.
        assert_eq!(table.mark_scope(depth, true), None);
        assert!(read(&table, pt, 0, 1).is_err());
        // Marks touch frame slots only.
        let h = table.add_heap(3, 8192, 16).unwrap();
        assert_eq!(table.mark_scope(depth, false), None);
        assert!(read(&table, h, 0, 4).is_ok());
    }

    #[test]
    fn frame_slots_are_a_stack() {
        let mut table = ObjectTable::new();
        let x = local(&mut table, "f", "x");
        let p1 = table.push_local(x, 4096, 4).unwrap();
        let p2 = table.push_local(x, 4100, 4).unwrap();
        let p3 = table.push_local(x, 4104, 4).unwrap();
        assert_eq!(table.local_depth(), 3);
        table.pop_locals_to(1);
        assert!(read(&table, p1, 0, 4).is_ok());
        assert!(read(&table, p2, 0, 4).is_err());
        assert!(read(&table, p3, 0, 4).is_err());
        let q2 = table.push_local(x, 4100, 4).unwrap();
        assert_eq!(q2 >> 32 & SLOT_MASK as u64, p2 >> 32 & SLOT_MASK as u64);
        assert_ne!(q2, p2);
        assert_eq!(table.slots(), 4);
        assert_eq!(table.live_objects(), 2);
    }

    #[test]
    fn freed_heap_slots_are_reused_oldest_first_after_the_quarantine() {
        let mut table = ObjectTable::new();
        let first = table.add_heap(1, 1024, 16).unwrap();
        let first_slot = (first >> 32) as u32 & SLOT_MASK;
        table.free_heap(first_slot, 2);
        let mut others = Vec::new();
        for i in 0..QUARANTINE_SLOTS as u32 {
            let p = table.add_heap(1, 2048 + 16 * i, 16).unwrap();
            others.push(p);
        }
        // None reused the freed slot: the quarantine was not full.
        assert!(others
            .iter()
            .all(|&p| (p >> 32) as u32 & SLOT_MASK != first_slot));
        for &p in &others {
            table.free_heap((p >> 32) as u32 & SLOT_MASK, 3);
        }
        let again = table.add_heap(1, 1024, 16).unwrap();
        assert_eq!((again >> 32) as u32 & SLOT_MASK, first_slot);
        assert_eq!(again >> 56, 1, "the next generation");
        assert!(read(&table, first, 0, 4).is_err());
        // Down to the quarantine's size again: the next block takes a fresh slot.
        let second = table.add_heap(1, 1024, 16).unwrap();
        assert_eq!(
            ((second >> 32) as u32 & SLOT_MASK) as usize,
            table.slots() - 1
        );
    }

    #[test]
    fn generations_wrap_after_256_deaths() {
        let mut table = ObjectTable::new();
        let x = local(&mut table, "f", "x");
        let stale = table.push_local(x, 4096, 4).unwrap();
        table.pop_locals_to(0);
        for generation in 1..256u32 {
            let p = table.push_local(x, 4096, 4).unwrap();
            assert_eq!(p >> 56, generation as u64);
            assert!(read(&table, stale, 0, 4).is_err());
            table.pop_locals_to(0);
        }
        // The 256th reuse has the stale pointer's generation again: the documented blind spot.
        let p = table.push_local(x, 4096, 4).unwrap();
        assert_eq!(p, stale);
        assert!(read(&table, stale, 0, 4).is_ok());
    }

    #[test]
    fn too_many_objects_is_an_error() {
        let mut table = ObjectTable::new();
        assert_eq!(
            FaultKind::TooManyObjects { limit: MAX_OBJECTS }.into_fault().to_string(),
            "too many objects: at most 16777215 (globals, locals whose address is taken and heap blocks) can exist at once"
        );
        table.set_limit(3);
        let x = local(&mut table, "f", "x");
        let p = table.add_heap(1, 1024, 16).unwrap();
        table.push_local(x, 4096, 4).unwrap();
        table.add_heap(1, 1040, 16).unwrap();
        let fault = table.add_heap(1, 1056, 16).unwrap_err();
        assert_eq!(fault.kind(), &FaultKind::TooManyObjects { limit: 3 });
        assert!(table.push_local(x, 4100, 4).is_err());
        // A full table reuses freed heap slots at once, without quarantine.
        let block = table.heap_block(p, "free").unwrap();
        table.free_heap(block.slot, 2);
        let q = table.add_heap(1, 1056, 16).unwrap();
        assert_eq!(q >> 32, (p >> 32) + (1 << 24));
        assert!(read(&table, p, 0, 4).is_err());
    }

    #[test]
    fn ranges() {
        let mut table = ObjectTable::new();
        let a = global(&mut table, "char s[8]");
        let p = table.add_static(a, 64, 8).unwrap();
        let access = Access::library("memset", AccessKind::Write, AccessSize::Bytes(9));
        assert_eq!(table.check_range(p, 0, 8, access), Ok(64));
        assert_eq!(table.check_range(p, 3, 5, access), Ok(67));
        assert_eq!(table.check_range(0, 0, 0, access), Ok(0));
        assert_eq!(
            table.check_range(p, 0, 9, access).unwrap_err().to_string(),
            "memset: out-of-bounds write at offset 8 of 'char s[8]' (global, 8 bytes) while writing 9 bytes from offset 0"
        );
        assert!(table.check_range(p, 0, u64::MAX, access).is_err());
        assert!(table.check_range(p, -1, 2, access).is_err());
    }
}
