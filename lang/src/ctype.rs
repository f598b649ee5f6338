//! C's types (C99 6.2.5) as the checker sees them, with x86-64 System V sizes and layouts.
//!
//! [`CType`] is the full type of a declaration or expression: `void`, an arithmetic type, a
//! pointer (to any type, remembering whether the pointed-to object is `const`), an array
//! (possibly of unknown length, `int a[]`), a structure or union ([`RecordId`] into the
//! [`Records`] table), or a function type. The HIR keeps only what code generation needs
//! (scalar types, byte offsets, sizes); this module is where C's type rules live.
//!
//! Layout follows the System V x86-64 ABI (section 3.1.2), as gcc implements it: every
//! scalar is aligned to its size (`char` 1, `short` 2, `int`/`float` 4, `long`/`double`/
//! pointers 8); an array is aligned as its element; a structure places each member at the
//! next offset aligned for it, is aligned as its most aligned member and is padded to a
//! multiple of that alignment; a union's members all start at 0. Bit-fields
//! ([`layout`](Records::define)): a bit-field of declared type `T` goes at the next free bit
//! unless it would cross a boundary of `sizeof(T)` bytes (then it starts at the next such
//! boundary); a zero-width bit-field moves to the next boundary of its type; named
//! bit-fields align the structure like a member of type `T`, unnamed ones do not. The tests
//! check these layouts against gcc's `sizeof`, `offsetof` and bit positions on random
//! structures.

use std::fmt;
use std::sync::Arc;

use crate::scalar::ScalarType;
use crate::span::Span;

/// A structure or union: index into [`Records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(pub u32);

/// A C type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    /// `void` (only as a function result or behind a pointer).
    Void,
    /// An arithmetic type (an enumeration is its integer type).
    Scalar(ScalarType),
    /// A pointer.
    Pointer {
        /// The pointed-to type.
        to: Arc<CType>,
        /// True if the pointed-to object is `const` (`const char *`).
        to_const: bool,
    },
    /// An array; `len` is `None` for an array of unknown size (`extern int a[];`, a
    /// parameter `int a[]` before it is adjusted to a pointer).
    Array {
        /// The element type.
        elem: Arc<CType>,
        /// The number of elements.
        len: Option<u64>,
    },
    /// A structure or union.
    Record(RecordId),
    /// `long double`: x87 80-bit extended precision in 16 bytes (see
    /// [`crate::builtins::long_double`]). An arithmetic type in C, but not one of the VM's
    /// scalars: like a structure it lives in memory and the checker handles its values
    /// through their addresses, lowering arithmetic to library operations.
    LongDouble,
    /// A function type.
    Function(Arc<FnType>),
}

/// A function's type: result and parameter types (after C's adjustments: array and function
/// parameters are pointers).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnType {
    /// The result type ([`CType::Void`] for none).
    pub ret: CType,
    /// The parameter types.
    pub params: Vec<CType>,
    /// True for a variadic function (`int f(const char *fmt, ...)`).
    pub variadic: bool,
}

impl CType {
    /// `int`.
    pub const INT: CType = CType::Scalar(ScalarType::Int);

    /// A pointer to `to`.
    pub fn pointer_to(to: CType, to_const: bool) -> CType {
        CType::Pointer {
            to: Arc::new(to),
            to_const,
        }
    }

    /// The scalar type of a value of this type in a register: arithmetic types are
    /// themselves, pointers are [`ScalarType::Ptr`]; `None` for `void`, arrays, records and
    /// functions (which are not scalars).
    pub fn scalar(&self) -> Option<ScalarType> {
        match self {
            CType::Scalar(t) => Some(*t),
            CType::Pointer { .. } => Some(ScalarType::Ptr),
            _ => None,
        }
    }

    /// True for arithmetic types and pointers (C99 6.2.5p21).
    pub fn is_scalar(&self) -> bool {
        self.scalar().is_some()
    }

    /// True for the arithmetic types (C99 6.2.5p18): the integer and floating types,
    /// `long double` included.
    pub fn is_arithmetic(&self) -> bool {
        match self {
            CType::Scalar(t) => *t != ScalarType::Ptr,
            CType::LongDouble => true,
            _ => false,
        }
    }

    /// True for pointer types.
    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Pointer { .. })
    }

    /// The pointed-to type of a pointer.
    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Pointer { to, .. } => Some(to),
            _ => None,
        }
    }

    /// The type an expression of this type has as a value (C99 6.3.2.1): an array becomes a
    /// pointer to its first element, a function a pointer to the function; other types are
    /// unchanged. `elem_const` is whether the array's elements are `const`.
    pub fn decayed(&self, elem_const: bool) -> CType {
        match self {
            CType::Array { elem, .. } => CType::Pointer {
                to: elem.clone(),
                to_const: elem_const,
            },
            CType::Function(_) => CType::pointer_to(self.clone(), false),
            other => other.clone(),
        }
    }
}

/// Where a bit-field's bits are: a storage unit of the member's declared type at the member's
/// byte offset, and the bits in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    /// The first bit within the storage unit (0 is the least significant bit of its first
    /// byte: x86-64 is little-endian).
    pub bit_offset: u32,
    /// The width in bits (at least 1: zero-width bit-fields are not members).
    pub width: u32,
}

/// A member of a structure or union.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Its name (empty for an unnamed bit-field, which only takes space).
    pub name: String,
    /// Its type (for a bit-field, the declared type, e.g. `unsigned int`).
    pub ty: CType,
    /// True if declared `const`.
    pub is_const: bool,
    /// Its byte offset (for a bit-field, the offset of its storage unit).
    pub offset: u64,
    /// For a bit-field, where its bits are.
    pub bits: Option<BitField>,
    /// Where it is declared.
    pub span: Span,
}

/// A structure or union type.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// True for a union.
    pub is_union: bool,
    /// The tag (`None` for an anonymous `struct { ... }`).
    pub tag: Option<String>,
    /// The members, once the type is complete (`None` after only `struct s;` or `struct s *`).
    pub members: Option<Vec<Member>>,
    /// Size in bytes (0 while incomplete).
    pub size: u64,
    /// Alignment in bytes (1 while incomplete).
    pub align: u64,
    /// The alignment its members need to be read aligned: `align`, except for a `packed`
    /// structure, whose `align` is 1 (see [`Records::define`]).
    pub natural_align: u64,
    /// Where the tag was first declared.
    pub span: Span,
}

impl Record {
    /// `struct node`, `union <anonymous>`.
    pub fn name(&self) -> String {
        let kw = if self.is_union { "union" } else { "struct" };
        match &self.tag {
            Some(t) => format!("{kw} {t}"),
            None => format!("{kw} <anonymous>"),
        }
    }

    /// The member called `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.as_ref()?.iter().find(|m| m.name == name)
    }
}

/// A member as declared, before layout.
#[derive(Clone, Debug)]
pub struct MemberDef {
    /// Its name (empty for an unnamed bit-field).
    pub name: String,
    /// Its type.
    pub ty: CType,
    /// True if declared `const`.
    pub is_const: bool,
    /// The width, for a bit-field.
    pub width: Option<u32>,
    /// The alignment its `aligned` attribute asks for, at least its type's.
    pub align: Option<u64>,
    /// Where it is declared.
    pub span: Span,
}

/// The layout attributes of a structure or union (GNU C's `packed` and `aligned`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordAttrs {
    /// `__attribute__((packed))`: no padding, alignment 1.
    pub packed: bool,
    /// `__attribute__((aligned(N)))`: at least this alignment.
    pub align: Option<u64>,
}

/// Why a structure cannot be laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The structure would be larger than the VM's address space.
    TooLarge,
    /// `packed` would move the member named off its type's alignment: the VM's checked
    /// memory reads scalars aligned only.
    PackedMisaligned(String),
}

/// Every structure and union of a program.
#[derive(Clone, Debug, Default)]
pub struct Records {
    records: Vec<Record>,
}

/// The size of a pointer, in bytes.
pub const POINTER_SIZE: u64 = 8;

/// The largest object, in bytes: the VM's addresses are 32 bits.
pub const MAX_OBJECT_SIZE: u64 = 1 << 31;

impl Records {
    /// A new, incomplete structure or union.
    pub fn declare(&mut self, is_union: bool, tag: Option<String>, span: Span) -> RecordId {
        let id = RecordId(self.records.len() as u32);
        self.records.push(Record {
            is_union,
            tag,
            members: None,
            size: 0,
            align: 1,
            natural_align: 1,
            span,
        });
        id
    }

    /// The record `id`.
    pub fn get(&self, id: RecordId) -> &Record {
        &self.records[id.0 as usize]
    }

    /// Complete the record `id` with `members`, laying them out (see the module docs).
    ///
    /// GNU C's attributes: a member's `aligned(N)` raises its alignment; the record's raises
    /// the record's (and so its size, a multiple of it). `packed` leaves out the padding
    /// (gcc: alignment 1 for every member without `aligned`). The VM reads scalars aligned
    /// only, so a `packed` structure is laid out when leaving out the padding moves no member
    /// (the common case of a header structure declared `packed` defensively, where `packed`
    /// only makes its alignment 1), and a `packed` structure nested in another must still be
    /// at a multiple of its members' alignment; otherwise [`LayoutError::PackedMisaligned`].
    pub fn define(
        &mut self,
        id: RecordId,
        members: Vec<MemberDef>,
        attrs: RecordAttrs,
    ) -> Result<(), LayoutError> {
        let is_union = self.get(id).is_union;
        let mut laid = Vec::with_capacity(members.len());
        let mut bit_pos: u64 = 0;
        let mut end_bits: u64 = 0;
        let mut align: u64 = 1;
        let mut explicit_align: u64 = 1;
        for m in members {
            let size = self.size_of(&m.ty).unwrap_or(0);
            let m_align = self.align_of(&m.ty).max(m.align.unwrap_or(1));
            explicit_align = explicit_align.max(m.align.unwrap_or(1));
            if attrs.packed && m.width.is_none() && m.align.is_none() {
                // Leaving out the padding before this member must move nothing.
                let natural = bit_pos.next_multiple_of(m_align * 8);
                if !is_union && natural != bit_pos.next_multiple_of(8) {
                    return Err(LayoutError::PackedMisaligned(m.name));
                }
            }
            if let CType::Record(inner) = &m.ty {
                let inner = self.get(*inner);
                if m.width.is_none()
                    && !is_union
                    && !bit_pos
                        .next_multiple_of(m_align * 8)
                        .is_multiple_of(inner.natural_align * 8)
                {
                    return Err(LayoutError::PackedMisaligned(m.name));
                }
            }
            if is_union {
                bit_pos = 0;
            }
            match m.width {
                Some(width) => {
                    let unit_bits = size * 8;
                    if width == 0 {
                        bit_pos = bit_pos.next_multiple_of(unit_bits.max(8));
                        end_bits = end_bits.max(bit_pos);
                        continue;
                    }
                    let w = u64::from(width);
                    if bit_pos / unit_bits != (bit_pos + w - 1) / unit_bits {
                        bit_pos = bit_pos.next_multiple_of(unit_bits);
                    }
                    let offset = bit_pos / unit_bits * size;
                    let bit_offset = (bit_pos - offset * 8) as u32;
                    if !m.name.is_empty() {
                        align = align.max(m_align);
                        laid.push(Member {
                            name: m.name,
                            ty: m.ty,
                            is_const: m.is_const,
                            offset,
                            bits: Some(BitField { bit_offset, width }),
                            span: m.span,
                        });
                    }
                    bit_pos += w;
                }
                None => {
                    bit_pos = bit_pos.next_multiple_of(m_align * 8);
                    align = align.max(m_align);
                    laid.push(Member {
                        name: m.name,
                        ty: m.ty,
                        is_const: m.is_const,
                        offset: bit_pos / 8,
                        bits: None,
                        span: m.span,
                    });
                    bit_pos += size * 8;
                }
            }
            end_bits = end_bits.max(bit_pos);
            if end_bits > MAX_OBJECT_SIZE * 8 {
                return Err(LayoutError::TooLarge);
            }
        }
        let natural_align = align;
        if let Some(a) = attrs.align {
            align = align.max(a);
        }
        let size = end_bits.div_ceil(8).next_multiple_of(align);
        if attrs.packed && size != end_bits.div_ceil(8) {
            // The tail padding a packed structure leaves out: its arrays would be misaligned.
            let last = laid.last().map_or(String::new(), |m| m.name.clone());
            return Err(LayoutError::PackedMisaligned(last));
        }
        if attrs.packed {
            align = explicit_align.max(attrs.align.unwrap_or(1));
        }
        if size > MAX_OBJECT_SIZE {
            return Err(LayoutError::TooLarge);
        }
        let r = &mut self.records[id.0 as usize];
        r.members = Some(laid);
        r.size = size;
        r.align = align;
        r.natural_align = natural_align.max(align);
        Ok(())
    }

    /// The size of `ty` in bytes (`sizeof`); `None` for incomplete types (`void`, an array
    /// of unknown size, an incomplete structure) and functions.
    pub fn size_of(&self, ty: &CType) -> Option<u64> {
        match ty {
            CType::Void | CType::Function(_) => None,
            CType::Scalar(t) => Some(u64::from(t.bits() / 8)),
            CType::Pointer { .. } => Some(POINTER_SIZE),
            CType::Array { elem, len } => {
                let n = (*len)?;
                self.size_of(elem)?.checked_mul(n)
            }
            CType::Record(id) => {
                let r = self.get(*id);
                r.members.as_ref().map(|_| r.size)
            }
            CType::LongDouble => Some(crate::builtins::long_double::SIZE),
        }
    }

    /// The alignment of `ty` in bytes (1 for incomplete types).
    pub fn align_of(&self, ty: &CType) -> u64 {
        match ty {
            CType::Void | CType::Function(_) => 1,
            CType::Scalar(t) => u64::from(t.bits() / 8),
            CType::Pointer { .. } => POINTER_SIZE,
            CType::Array { elem, .. } => self.align_of(elem),
            CType::Record(id) => self.get(*id).align,
            CType::LongDouble => crate::builtins::long_double::SIZE,
        }
    }

    /// True if `ty` is complete: its size is known.
    pub fn is_complete(&self, ty: &CType) -> bool {
        self.size_of(ty).is_some()
    }

    /// A displayable spelling of `ty` in C syntax (`int *`, `struct node *`, `int (*)[3]`,
    /// `int (*)(int, char)`).
    pub fn display<'a>(&'a self, ty: &'a CType) -> impl fmt::Display + 'a {
        Spelled { records: self, ty }
    }

    /// C's spelling of `ty` declaring `inner` (a name or an abstract declarator so far).
    fn spell(&self, ty: &CType, inner: String) -> String {
        let with = |base: String| {
            if inner.is_empty() {
                base
            } else {
                format!("{base} {inner}")
            }
        };
        match ty {
            CType::Void => with("void".to_string()),
            CType::Scalar(t) => with(t.c_name().to_string()),
            CType::Record(id) => with(self.get(*id).name()),
            CType::LongDouble => with("long double".to_string()),
            CType::Pointer { to, to_const } => {
                let inner = format!("*{inner}");
                let inner = match **to {
                    CType::Array { .. } | CType::Function(_) => format!("({inner})"),
                    _ => inner,
                };
                let s = self.spell(to, inner);
                if *to_const {
                    format!("const {s}")
                } else {
                    s
                }
            }
            CType::Array { elem, len } => {
                let dim = len.map_or(String::new(), |n| n.to_string());
                self.spell(elem, format!("{inner}[{dim}]"))
            }
            CType::Function(f) => {
                let params: Vec<String> = f
                    .params
                    .iter()
                    .map(|p| self.spell(p, String::new()))
                    .collect();
                let params = match (params.is_empty(), f.variadic) {
                    (true, _) => "void".to_string(),
                    (false, true) => format!("{}, ...", params.join(", ")),
                    (false, false) => params.join(", "),
                };
                self.spell(&f.ret, format!("{inner}({params})"))
            }
        }
    }
}

/// [`Records::display`]'s result.
struct Spelled<'a> {
    records: &'a Records,
    ty: &'a CType,
}

impl fmt::Display for Spelled<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.records.spell(self.ty, String::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str, ty: CType, width: Option<u32>) -> MemberDef {
        MemberDef {
            name: name.to_string(),
            ty,
            is_const: false,
            width,
            align: None,
            span: Span::new(0, 0),
        }
    }

    #[test]
    fn spelling_follows_c_declarator_syntax() {
        let r = Records::default();
        let int = CType::INT;
        let p = CType::pointer_to(int.clone(), false);
        assert_eq!(r.display(&p).to_string(), "int *");
        let arr = CType::Array {
            elem: Arc::new(int.clone()),
            len: Some(3),
        };
        assert_eq!(r.display(&arr).to_string(), "int [3]");
        let parr = CType::pointer_to(arr, false);
        assert_eq!(r.display(&parr).to_string(), "int (*)[3]");
        let f = CType::Function(Arc::new(FnType {
            ret: p.clone(),
            params: vec![int.clone(), CType::Scalar(ScalarType::Char)],
            variadic: false,
        }));
        let pf = CType::pointer_to(f, false);
        assert_eq!(r.display(&pf).to_string(), "int *(*)(int, char)");
        let cc = CType::pointer_to(CType::Scalar(ScalarType::Char), true);
        assert_eq!(r.display(&cc).to_string(), "const char *");
    }

    #[test]
    fn sys_v_example_layouts() {
        // The System V x86-64 ABI's figure 3.2-3.5 style examples, with gcc's results.
        let mut r = Records::default();
        let s = r.declare(false, Some("s".into()), Span::new(0, 0));
        let c = CType::Scalar(ScalarType::Char);
        let d = CType::Scalar(ScalarType::Double);
        let sh = CType::Scalar(ScalarType::Short);
        r.define(
            s,
            vec![
                member("c", c.clone(), None),
                member("d", d, None),
                member("s", sh, None),
            ],
            RecordAttrs::default(),
        )
        .unwrap();
        let rec = r.get(s);
        assert_eq!((rec.size, rec.align), (24, 8));
        let offs: Vec<u64> = rec
            .members
            .as_ref()
            .unwrap()
            .iter()
            .map(|m| m.offset)
            .collect();
        assert_eq!(offs, [0, 8, 16]);
        // struct { char c; int j:5; int k:6; int m:7; } : size 4, j at bits 8..13.
        let b = r.declare(false, None, Span::new(0, 0));
        r.define(
            b,
            vec![
                member("c", c, None),
                member("j", CType::INT, Some(5)),
                member("k", CType::INT, Some(6)),
                member("m", CType::INT, Some(7)),
            ],
            RecordAttrs::default(),
        )
        .unwrap();
        let rec = r.get(b);
        assert_eq!((rec.size, rec.align), (4, 4));
        let bits: Vec<(u64, u32)> = rec.members.as_ref().unwrap()[1..]
            .iter()
            .map(|m| (m.offset, m.bits.unwrap().bit_offset))
            .collect();
        assert_eq!(bits, [(0, 8), (0, 13), (0, 19)]);
    }

    #[test]
    fn gnu_layout_attributes_as_gcc_lays_them_out() {
        let mut r = Records::default();
        let c = CType::Scalar(ScalarType::Char);
        let int = CType::INT;
        // struct { int a; char b[4]; } __attribute__((packed)): no padding to leave out,
        // alignment 1 (gcc: sizeof 8, _Alignof 1).
        let p = r.declare(false, None, Span::new(0, 0));
        let packed = RecordAttrs {
            packed: true,
            align: None,
        };
        let chars = CType::Array {
            elem: Arc::new(c.clone()),
            len: Some(4),
        };
        r.define(
            p,
            vec![member("a", int.clone(), None), member("b", chars, None)],
            packed,
        )
        .unwrap();
        assert_eq!((r.get(p).size, r.get(p).align), (8, 1));
        // struct { char c; int i; } __attribute__((packed)) would read `i` misaligned.
        let q = r.declare(false, None, Span::new(0, 0));
        let err = r.define(
            q,
            vec![member("c", c.clone(), None), member("i", int.clone(), None)],
            packed,
        );
        assert_eq!(err, Err(LayoutError::PackedMisaligned("i".into())));
        // ... as would the packed structure at offset 1 of another.
        let outer = r.declare(false, None, Span::new(0, 0));
        let err = r.define(
            outer,
            vec![
                member("c", c.clone(), None),
                member("p", CType::Record(p), None),
            ],
            RecordAttrs::default(),
        );
        assert_eq!(err, Err(LayoutError::PackedMisaligned("p".into())));
        // struct { char c; int x __attribute__((aligned(16))); } __attribute__((aligned(32))):
        // x at 16, alignment 32, size 32.
        let a = r.declare(false, None, Span::new(0, 0));
        let mut x = member("x", int, None);
        x.align = Some(16);
        r.define(
            a,
            vec![member("c", c, None), x],
            RecordAttrs {
                packed: false,
                align: Some(32),
            },
        )
        .unwrap();
        let rec = r.get(a);
        assert_eq!((rec.size, rec.align), (32, 32));
        assert_eq!(rec.members.as_ref().unwrap()[1].offset, 16);
    }
}
