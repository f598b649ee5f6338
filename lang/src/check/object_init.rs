//! Initializers of structures, unions and arrays of them (C99 6.7.8).
//!
//! An initializer sets some scalars of the object (its *leaves*: scalar members, elements,
//! bit-fields) and the rest are zero. The walk follows C's rules: a brace list initializes
//! the current object, member by member or element by element; a level whose braces are
//! left out takes as many items as it needs from the enclosing list (brace elision); a
//! designator (`.x = 1`, `[2] = 5`, `.a.b[1] = 3`) belongs to the list it is written in, moves
//! that list's cursor, and the items after it go on from there; only a union's first member
//! is initialized unless a designator names another; a string literal initializes an array of
//! characters; a later initializer of the same leaf wins (6.7.8p19).
//!
//! The result is a list of leaves with their byte offsets and types; the caller converts the
//! values (locals) or evaluates them as constants (objects with static storage).

use crate::ast::{self, Initializer};
use crate::span::Span;

use super::Checker;
use crate::ctype::{BitField, CType};

/// One scalar an initializer sets.
pub(super) struct Leaf<'a> {
    /// Byte offset in the object (for a bit-field, of its storage unit).
    pub offset: u64,
    /// The leaf's type (a bit-field's declared type).
    pub ty: CType,
    /// Where a bit-field's bits are.
    pub bits: Option<BitField>,
    /// The value.
    pub value: LeafValue<'a>,
}

/// What a leaf is set to.
pub(super) enum LeafValue<'a> {
    /// An expression, to be converted to the leaf's type.
    Expr(&'a ast::Expr),
    /// A character of a string literal (or its terminating NUL).
    Byte(u8, Span),
    /// A structure or union member (or element) initialized by an expression of its type
    /// (C99 6.7.8p13): the whole object is copied.
    Object(&'a ast::Expr),
}

/// Whether an object of type `ty` is one leaf of an initializer: a scalar or a `long double`.
fn is_leaf(ty: &CType) -> bool {
    ty.is_scalar() || *ty == CType::LongDouble
}

/// Where a walk is: how many designators of the current item the enclosing levels have used,
/// whether this level has its own braces, and its byte offset.
#[derive(Clone, Copy)]
struct Level {
    skip: usize,
    top: bool,
    offset: u64,
}

impl Checker<'_> {
    /// The leaves `init` sets in an object of type `ty` (its outermost array possibly of
    /// unknown size, which the initializer then gives: the returned count). `None` after an
    /// error (reported).
    pub(super) fn object_initializer<'a>(
        &mut self,
        init: &'a Initializer,
        ty: &CType,
        name: &str,
    ) -> Option<(Vec<Leaf<'a>>, u64)> {
        let mut out = Vec::new();
        let mut ok = true;
        let count = match init {
            Initializer::List { items, .. } => {
                let mut idx = 0;
                let at = Level {
                    skip: 0,
                    top: true,
                    offset: 0,
                };
                let n = self.fill_object(ty, items, &mut idx, at, &mut out, &mut ok);
                if let Some(extra) = items.get(idx) {
                    self.err(
                        extra.span(),
                        format!("excess elements in the initializer of `{name}`"),
                    );
                    ok = false;
                }
                n
            }
            Initializer::Expr(e) if is_string(e) && is_char_array(ty) => {
                let items = std::slice::from_ref(init);
                let mut idx = 0;
                let at = Level {
                    skip: 0,
                    top: true,
                    offset: 0,
                };
                self.fill_object(ty, items, &mut idx, at, &mut out, &mut ok)
            }
            other => {
                self.err(
                    other.span(),
                    format!("`{name}` must be initialized by a brace-enclosed list"),
                );
                return None;
            }
        };
        ok.then_some((out, count))
    }

    /// Initialize the object of type `ty` from `items[*idx..]`; returns, for an array, the
    /// number of elements initialized (one more than the highest index), else 1.
    fn fill_object<'a>(
        &mut self,
        ty: &CType,
        items: &'a [Initializer],
        idx: &mut usize,
        at: Level,
        out: &mut Vec<Leaf<'a>>,
        ok: &mut bool,
    ) -> u64 {
        match ty {
            CType::Array { elem, len } => self.fill_array(elem, *len, items, idx, at, out, ok),
            CType::Record(id) => {
                let record = self.link.records.get(*id).clone();
                let members = record.members.clone().unwrap_or_default();
                let mut m = 0usize;
                let mut skip = at.skip;
                let mut done_union = false;
                while let Some(item) = items.get(*idx) {
                    let (designators, value) = designation(item, skip);
                    if let Some(first) = designators.first() {
                        if !at.top && skip == 0 {
                            break;
                        }
                        let ast::Designator::Member(name, span) = first else {
                            self.err(
                                designator_span(first),
                                format!("array index in the initializer of `{}`", record.name()),
                            );
                            *ok = false;
                            *idx += 1;
                            skip = 0;
                            continue;
                        };
                        let Some(k) = members.iter().position(|x| x.name == *name) else {
                            self.err(
                                *span,
                                format!("`{}` has no member named `{name}`", record.name()),
                            );
                            *ok = false;
                            *idx += 1;
                            skip = 0;
                            continue;
                        };
                        m = k;
                        if designators.len() > 1 {
                            let member = &members[m];
                            let inner = Level {
                                skip: skip + 1,
                                top: false,
                                offset: at.offset + member.offset,
                            };
                            if is_leaf(&member.ty) {
                                self.err(
                                    designator_span(&designators[1]),
                                    "too many designators: the member is not an aggregate",
                                );
                                *ok = false;
                                *idx += 1;
                            } else {
                                self.fill_object(&member.ty, items, idx, inner, out, ok);
                            }
                            skip = 0;
                            m += 1;
                            done_union = record.is_union;
                            continue;
                        }
                    } else if m >= members.len() || done_union {
                        break;
                    }
                    let member = &members[m];
                    let here = at.offset + member.offset;
                    if let Some(bits) = member.bits {
                        match value {
                            Initializer::Expr(e) => {
                                out.push(Leaf {
                                    offset: here,
                                    ty: member.ty.clone(),
                                    bits: Some(bits),
                                    value: LeafValue::Expr(e),
                                });
                                *idx += 1;
                            }
                            other => {
                                if let Some(e) = self.braced_scalar(other, ok) {
                                    out.push(Leaf {
                                        offset: here,
                                        ty: member.ty.clone(),
                                        bits: Some(bits),
                                        value: LeafValue::Expr(e),
                                    });
                                }
                                *idx += 1;
                            }
                        }
                    } else {
                        let used = skip + designators.len();
                        self.fill_sub(&member.ty, items, idx, here, (value, used), out, ok);
                    }
                    skip = 0;
                    m += 1;
                    done_union = record.is_union;
                }
                1
            }
            scalar => {
                // A scalar at an elided level takes one item.
                if let Some(item) = items.get(*idx) {
                    let (_, value) = designation(item, at.skip);
                    if let Some(e) = self.braced_scalar(value, ok) {
                        out.push(Leaf {
                            offset: at.offset,
                            ty: scalar.clone(),
                            bits: None,
                            value: LeafValue::Expr(e),
                        });
                    }
                    *idx += 1;
                }
                1
            }
        }
    }

    /// Initialize the elements of an array of `elem` (of `len` elements, or unknown).
    #[allow(clippy::too_many_arguments)]
    fn fill_array<'a>(
        &mut self,
        elem: &CType,
        len: Option<u64>,
        items: &'a [Initializer],
        idx: &mut usize,
        at: Level,
        out: &mut Vec<Leaf<'a>>,
        ok: &mut bool,
    ) -> u64 {
        let size = self.link.records.size_of(elem).unwrap_or(0);
        let limit = len.unwrap_or(u64::MAX);
        // A string literal initializes a whole array of characters (C99 6.7.8p14).
        if let (true, Some(item)) = (is_char(elem), items.get(*idx)) {
            let (designators, value) = designation(item, at.skip);
            if let (true, Initializer::Expr(e)) = (designators.is_empty(), value) {
                if let ast::ExprKind::Str(bytes) = &e.kind {
                    *idx += 1;
                    return self.string_leaves(bytes, e.span, elem, len, at.offset, out, ok);
                }
            }
        }
        let mut skip = at.skip;
        let mut i = 0u64;
        let mut count = 0u64;
        while let Some(item) = items.get(*idx) {
            let (designators, value) = designation(item, skip);
            if let Some(first) = designators.first() {
                if !at.top && skip == 0 {
                    break;
                }
                let Some(k) = self.designator_index(first, limit) else {
                    *ok = false;
                    *idx += 1;
                    skip = 0;
                    continue;
                };
                i = k;
                if designators.len() > 1 {
                    let inner = Level {
                        skip: skip + 1,
                        top: false,
                        offset: at.offset + i * size,
                    };
                    if is_leaf(elem) {
                        self.err(
                            designator_span(&designators[1]),
                            "too many designators: the element is not an aggregate",
                        );
                        *ok = false;
                        *idx += 1;
                    } else {
                        self.fill_object(elem, items, idx, inner, out, ok);
                    }
                    skip = 0;
                    i += 1;
                    count = count.max(i);
                    continue;
                }
            } else if i >= limit {
                break;
            }
            let used = skip + designators.len();
            self.fill_sub(
                elem,
                items,
                idx,
                at.offset + i * size,
                (value, used),
                out,
                ok,
            );
            skip = 0;
            i += 1;
            count = count.max(i);
        }
        count
    }

    /// Initialize one member or element of type `ty` at `here` from the current item: its
    /// `value` and the number of its designators already used (`used`): a brace list for it
    /// alone, a scalar's expression, or the start of an elided aggregate.
    #[allow(clippy::too_many_arguments)]
    fn fill_sub<'a>(
        &mut self,
        ty: &CType,
        items: &'a [Initializer],
        idx: &mut usize,
        here: u64,
        (value, used): (&'a Initializer, usize),
        out: &mut Vec<Leaf<'a>>,
        ok: &mut bool,
    ) {
        match value {
            Initializer::List { items: inner, .. } => {
                *idx += 1;
                if is_leaf(ty) {
                    if let Some(e) = self.braced_scalar(value, ok) {
                        out.push(Leaf {
                            offset: here,
                            ty: ty.clone(),
                            bits: None,
                            value: LeafValue::Expr(e),
                        });
                    }
                    return;
                }
                let mut j = 0;
                let at = Level {
                    skip: 0,
                    top: true,
                    offset: here,
                };
                self.fill_object(ty, inner, &mut j, at, out, ok);
                if let Some(extra) = inner.get(j) {
                    self.err(extra.span(), "excess elements in initializer");
                    *ok = false;
                }
            }
            Initializer::Expr(e) if is_leaf(ty) => {
                *idx += 1;
                out.push(Leaf {
                    offset: here,
                    ty: ty.clone(),
                    bits: None,
                    value: LeafValue::Expr(e),
                });
            }
            Initializer::Expr(e)
                if matches!(ty, CType::Record(_)) && self.is_value_of_type(e, ty) =>
            {
                *idx += 1;
                out.push(Leaf {
                    offset: here,
                    ty: ty.clone(),
                    bits: None,
                    value: LeafValue::Object(e),
                });
            }
            _ => {
                // Brace elision: the aggregate takes what it needs from this list, starting
                // with this item (whose designators are all used).
                let at = Level {
                    skip: used,
                    top: false,
                    offset: here,
                };
                let before = *idx;
                self.fill_object(ty, items, idx, at, out, ok);
                if *idx == before {
                    // Nothing consumed (a designator for another level): skip it to go on.
                    *idx += 1;
                }
            }
        }
    }

    /// Whether `e` is a structure or union compatible with `ty` (then it initializes the
    /// member as a whole; otherwise the member's braces are elided and `e` initializes its
    /// first scalar). Checked quietly: the diagnostics of this look are dropped, and the
    /// expression is checked again where it is used.
    fn is_value_of_type(&mut self, e: &ast::Expr, ty: &CType) -> bool {
        let diags = self.diags.len();
        let found = match self.operand(e) {
            Some(super::operand::Operand::Pointed { cty, .. }) => Some(cty),
            Some(super::operand::Operand::Value(_, t)) => Some(t),
            _ => None,
        };
        self.diags.truncate(diags);
        found.is_some_and(|t| self.compatible(&t, ty))
    }

    /// The expression of a scalar initializer: `e` or `{ e }`.
    fn braced_scalar<'a>(&mut self, init: &'a Initializer, ok: &mut bool) -> Option<&'a ast::Expr> {
        match init {
            Initializer::Expr(e) => Some(e),
            Initializer::List { items, span, .. } => match items.as_slice() {
                [Initializer::Expr(e)] => Some(e),
                _ => {
                    self.err(*span, "a scalar must be initialized by one expression");
                    *ok = false;
                    None
                }
            },
            Initializer::Designated { span, .. } => {
                self.err(*span, "a designator needs an aggregate to designate in");
                *ok = false;
                None
            }
        }
    }

    /// The leaves of a character array initialized by a string literal: its bytes and, if
    /// there is room, the NUL; an array of unknown size gets the literal's length plus one.
    #[allow(clippy::too_many_arguments)]
    fn string_leaves<'a>(
        &mut self,
        bytes: &[u8],
        span: Span,
        elem: &CType,
        len: Option<u64>,
        offset: u64,
        out: &mut Vec<Leaf<'a>>,
        ok: &mut bool,
    ) -> u64 {
        let n = len.unwrap_or(bytes.len() as u64 + 1);
        if bytes.len() as u64 > n {
            self.err(
                span,
                format!(
                    "initializer-string for an array of {n} characters is too long ({} characters)",
                    bytes.len()
                ),
            );
            *ok = false;
            return n;
        }
        for (i, &b) in bytes.iter().chain(std::iter::once(&0)).enumerate() {
            if i as u64 >= n {
                break;
            }
            out.push(Leaf {
                offset: offset + i as u64,
                ty: elem.clone(),
                bits: None,
                value: LeafValue::Byte(b, span),
            });
        }
        n
    }
}

/// The designators of `item` after the first `skip` (used by enclosing levels), and its value.
fn designation(item: &Initializer, skip: usize) -> (&[ast::Designator], &Initializer) {
    match item {
        Initializer::Designated {
            designators, value, ..
        } => (&designators[skip.min(designators.len())..], &**value),
        other => (&[][..], other),
    }
}

fn designator_span(d: &ast::Designator) -> Span {
    match d {
        ast::Designator::Index(_, span) | ast::Designator::Member(_, span) => *span,
    }
}

fn is_string(e: &ast::Expr) -> bool {
    matches!(e.kind, ast::ExprKind::Str(_))
}

fn is_char(t: &CType) -> bool {
    matches!(
        t,
        CType::Scalar(crate::hir::ScalarType::Char | crate::hir::ScalarType::UChar)
    )
}

fn is_char_array(t: &CType) -> bool {
    matches!(t, CType::Array { elem, .. } if is_char(elem))
}
