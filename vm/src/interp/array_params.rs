//! What the loop leaves to the machine about array parameters (`int a[]`, `int m[][4]`):
//! their negative indices, and references into blocks freed while they run.
//!
//! An array parameter is an array reference ([`ArrayRef`]): an address and a dimension, so
//! that indexing it costs the one check `i <u dim` of `LdE*`/`StE*`/`Row` in the loop. Two
//! things fall outside that check. Both are done here, outside the loop, on the path the loop
//! takes when the check fails (it stops as for a trap, so the loop's code is unchanged, and
//! [`super::execute`] resumes it at the next instruction once the work is done):
//!
//! - **Negative indices, as C allows them.** A pointer passed to an array parameter becomes
//!   the rows from it to the end of its object (`PtrToArr`), so an index past the end is
//!   caught by the check. But the pointer may point into the middle of its object
//!   (`f(&x[5])`, `f(p + 1)`), and then `a[-1]` is `x[4]`. [`negative_index`] finds the live
//!   object the reference's address lies in, checks the element against it as an access
//!   through a pointer is checked, and performs the access (or reports the fault, naming the
//!   object and the offset). Only for the parameter's own first dimension: an index of a local
//!   array or of a row (`m[i][-1]`) is checked against its own dimension, as gcc's
//!   `-fsanitize=bounds` checks it.
//! - **Blocks freed while a parameter refers to them.** Indexing checks no liveness, so once
//!   the heap block a live frame's array parameter points into is freed (`free(p)` in a
//!   function running `f(p)`, or a `realloc` of it), its accesses would read freed memory. So a
//!   `free` or `realloc` of a block that a pointer made an array reference pointed into (the
//!   object table keeps a bit per slot) suspends the loop ([`TrapKind::Suspended`]), and, if a
//!   live frame has an array parameter, [`poison_freed`] replaces every such reference into the
//!   freed block with a *dangling reference*: dimension 0 (every index fails the check), and
//!   an address in the last 64 KiB of the address space, where memory never is
//!   ([`crate::memory::MAX_MEMORY`]), that numbers the entry of [`DanglingArrays`] holding the
//!   pointer the reference stands for. An access through it is then a use after free, named
//!   with the block and where it was allocated and freed; used as a pointer (`ArrToPtr`), it
//!   is that dangling pointer again.

use lang::bytecode::{ArrayRef, Instr, Reg};

use super::{f32_bits, Machine};
use crate::memory::{Access, AccessKind, AccessSize, MAX_MEMORY};
use crate::trap::TrapKind;
use crate::version::Version;

/// The references into freed blocks that array parameters held (see the module docs): entry
/// `k` is the pointer that the dangling reference with address `MAX_MEMORY + k` stands for.
/// At most 65,536 at once; the oldest entry is reused after that (its reference still fails
/// every access, with the newer entry's message).
#[derive(Debug, Default)]
pub(crate) struct DanglingArrays {
    pointers: Vec<u64>,
    next: usize,
}

/// The number of dangling references told apart: the addresses above [`MAX_MEMORY`].
const DANGLING_SLOTS: usize = (u32::MAX - MAX_MEMORY) as usize + 1;

impl DanglingArrays {
    /// A dangling reference standing for pointer `p`.
    fn add(&mut self, p: u64) -> u64 {
        let k = self.next;
        if k == self.pointers.len() {
            self.pointers.push(p);
        } else {
            self.pointers[k] = p;
        }
        self.next = (k + 1) % DANGLING_SLOTS;
        ArrayRef {
            base: MAX_MEMORY + k as u32,
            dim: 0,
        }
        .pack()
    }

    /// The pointer the array reference `aref` stands for, if it is a dangling one.
    pub(crate) fn pointer(&self, aref: u64) -> Option<u64> {
        let r = ArrayRef::unpack(aref);
        let k = r.base.checked_sub(MAX_MEMORY)? as usize;
        (r.dim == 0)
            .then(|| self.pointers.get(k).copied())
            .flatten()
    }
}

/// Whether a frame of the running program has an array parameter: the running one (`version`)
/// or a suspended caller.
fn array_params_live(m: &Machine<'_>, version: &Version) -> bool {
    let has = |v: &Version| !m.program.functions[v.func.index()].array_params.is_empty();
    // SAFETY: frames run versions of this machine, which live as long as it.
    has(version) || m.frames.iter().any(|f| has(unsafe { &*f.version }))
}

/// After a `free` or `realloc` of a block that a pointer made an array reference pointed into
/// ([`crate::memory::FreedArrayed`]): makes every array parameter of a live frame that refers
/// into the block a dangling reference (the running frame runs `version`).
pub(crate) fn poison_freed(m: &mut Machine<'_>, version: &Version) {
    let Some(block) = m.memory.objects.take_freed_arrayed() else {
        return;
    };
    if !array_params_live(m, version) {
        return;
    }
    let frames: Vec<(*const Version, usize)> = m
        .frames
        .iter()
        .map(|f| (f.version, f.base))
        .chain(std::iter::once((version as *const Version, m.base)))
        .collect();
    for (v, base) in frames {
        // SAFETY: frames run versions of this machine, which live as long as it.
        let func = unsafe { (*v).func };
        for &r in &m.program.functions[func.index()].array_params {
            let slot = base + r.index();
            let aref = ArrayRef::unpack(m.stack[slot]);
            if (block.start..=block.end).contains(&aref.base) {
                let pointer = (block.pointer & !0xffff_ffff) | u64::from(aref.base);
                m.stack[slot] = m.dangling_arrays.add(pointer);
            }
        }
    }
}

/// What an element instruction does with the element it reaches.
enum Element {
    /// Loads `width` bytes into the register, converted as the instruction converts.
    Load(Reg, fn(u64) -> u64),
    /// Stores the low `width` bytes of the value.
    Store(u64),
    /// Makes the reference of the row (of `width` bytes and this many elements) in the
    /// register.
    Row(Reg, u32),
}

/// The element access `ins` makes: its array register, its index register, its width in bytes
/// and what it does; `None` if `ins` is no element access.
fn element(m: &Machine<'_>, version: &Version, ins: Instr) -> Option<(Reg, Reg, u32, Element)> {
    use Instr::*;
    let regs = &m.stack[m.base..];
    let r = |reg: Reg| regs[reg.index()];
    let float = |v: u64| (f64::from_bits(v) as f32).to_bits().into();
    let width = ins.access_bytes().unwrap_or(0);
    let (b, c, what) = match ins {
        Row { a, b, c, s } => {
            let shape = m.program.functions[version.func.index()].shapes[s.index()];
            return Some((b, c, shape.stride, Element::Row(a, shape.inner)));
        }
        LdE8S { a, b, c } => (b, c, Element::Load(a, |v| v as u8 as i8 as i64 as u64)),
        LdE8U { a, b, c } => (b, c, Element::Load(a, |v| v as u8 as u64)),
        LdE16S { a, b, c } => (b, c, Element::Load(a, |v| v as u16 as i16 as i64 as u64)),
        LdE16U { a, b, c } => (b, c, Element::Load(a, |v| v as u16 as u64)),
        LdE32S { a, b, c } => (b, c, Element::Load(a, |v| v as u32 as i32 as i64 as u64)),
        LdE32U { a, b, c } => (b, c, Element::Load(a, |v| v as u32 as u64)),
        LdE64 { a, b, c } => (b, c, Element::Load(a, |v| v)),
        LdEF32 { a, b, c } => (
            b,
            c,
            Element::Load(a, |v| f32_bits(f32::from_bits(v as u32))),
        ),
        StE8 { a, b, c } | StE16 { a, b, c } | StE32 { a, b, c } | StE64 { a, b, c } => {
            (b, c, Element::Store(r(a)))
        }
        StEF32 { a, b, c } => (b, c, Element::Store(float(r(a)))),
        StEI8 { imm, b, c }
        | StEI16 { imm, b, c }
        | StEI32 { imm, b, c }
        | StEI64 { imm, b, c } => (b, c, Element::Store(i64::from(imm) as u64)),
        _ => return None,
    };
    Some((b, c, width, what))
}

/// An element access at `pc` of `version` (the running frame) whose index failed its check:
/// done here if its array is an array parameter and the element lies inside the object the
/// parameter's address is in (`Ok(true)`: the loop resumes after it), reported as a memory
/// fault if the parameter is a dangling reference or the element lies outside that object,
/// and left as the index trap (`Ok(false)`) otherwise.
pub(crate) fn negative_index(
    m: &mut Machine<'_>,
    version: &Version,
    pc: usize,
) -> Result<bool, TrapKind> {
    let Some(&ins) = version.code.get(pc) else {
        return Ok(false);
    };
    let Some((b, c, width, what)) = element(m, version, ins) else {
        return Ok(false);
    };
    if !m.program.functions[version.func.index()]
        .array_params
        .contains(&b)
    {
        return Ok(false);
    }
    let aref = m.stack[m.base + b.index()];
    let index = m.stack[m.base + c.index()] as i64;
    // A dangling reference stands for its pointer; a live one, for a negative index, for the
    // object its address lies in. Anything else stays the index trap.
    let pointer = m.dangling_arrays.pointer(aref).or_else(|| {
        let base = ArrayRef::unpack(aref).base;
        (index < 0)
            .then(|| m.memory.objects.pointer_at(base))
            .flatten()
    });
    let Some(pointer) = pointer else {
        return Ok(false);
    };
    let kind = match what {
        Element::Store(_) => AccessKind::Write,
        Element::Load(..) | Element::Row(..) => AccessKind::Read,
    };
    let offset = index.wrapping_mul(i64::from(width));
    let checked = match what {
        Element::Row(..) => m.memory.objects.check_range(
            pointer,
            offset,
            u64::from(width),
            Access {
                kind,
                size: AccessSize::Bytes(u64::from(width)),
                by: Some("a row of an array parameter"),
            },
        ),
        _ => m.memory.objects.check(pointer, offset, width, kind),
    };
    let addr =
        checked.map_err(|fault| TrapKind::Memory(m.alloc_sites.render(m.program, &fault)))?;
    let store = &mut m.memory.store;
    let fault = || super::memory_fault(addr);
    match what {
        Element::Load(a, convert) => {
            let raw = match width {
                1 => store.load::<u8>(addr).map(u64::from),
                2 => store.load::<u16>(addr).map(u64::from),
                4 => store.load::<u32>(addr).map(u64::from),
                _ => store.load::<u64>(addr),
            };
            m.stack[m.base + a.index()] = convert(raw.unwrap_or_else(fault));
        }
        Element::Store(v) => {
            let stored = match width {
                1 => store.store(addr, v as u8),
                2 => store.store(addr, v as u16),
                4 => store.store(addr, v as u32),
                _ => store.store(addr, v),
            };
            if !stored {
                fault();
            }
        }
        Element::Row(a, inner) => {
            let row = ArrayRef {
                base: addr as u32,
                dim: inner,
            };
            m.stack[m.base + a.index()] = row.pack();
        }
    }
    Ok(true)
}
