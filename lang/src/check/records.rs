//! Structures and unions in expressions (C99 6.5.2.3, 6.5.16.1): member access with `.` and
//! `->`, bit-fields, and assignment of whole structures.
//!
//! A structure is never a value in a register: an expression of structure type is an
//! [`Operand::Pointed`], a pointer to its first byte plus a constant offset. `s.a.b` only adds
//! offsets; a scalar member is a [`Place::Deref`] at the final offset, a bit-field a
//! [`Place::BitField`] (its storage unit and bits, as laid out by [`crate::ctype`]), an array
//! or structure member again an `Operand::Pointed`. `s = t` copies the bytes
//! ([`ExprKind::CopyObject`]).

use crate::ast;
use crate::hir::{Expr, ExprKind, Place, ScalarType};
use crate::span::Span;

use super::operand::{offset_pointer, Operand};
use super::Checker;
use crate::ctype::CType;

impl Checker<'_> {
    /// `base.name` (or `base->name` if `arrow`).
    pub(super) fn member<'a>(
        &mut self,
        base: &ast::Expr,
        name: &str,
        name_span: Span,
        arrow: bool,
        span: Span,
    ) -> Option<Operand<'a>> {
        let (ptr, offset, cty, is_const) = if arrow {
            let (p, pty) = self.typed(base)?;
            match pty {
                CType::Pointer { to, to_const } if matches!(*to, CType::Record(_)) => {
                    (p, 0, (*to).clone(), to_const)
                }
                other => {
                    self.err(
                        base.span,
                        format!(
                            "`->` needs a pointer to a structure or union, not `{}`",
                            self.spell(&other)
                        ),
                    );
                    return None;
                }
            }
        } else {
            match self.operand(base)? {
                Operand::Pointed {
                    ptr,
                    offset,
                    cty: cty @ CType::Record(_),
                    is_const,
                    ..
                } => (ptr, offset, cty, is_const),
                other => {
                    let ty = self.operand_type(&other);
                    let hint = if ty.ends_with('*') {
                        " (use `->` for a pointer)"
                    } else {
                        ""
                    };
                    self.err(
                        base.span,
                        format!(
                            "request for member `{name}` in something that is not a structure or union (`{ty}`){hint}"
                        ),
                    );
                    return None;
                }
            }
        };
        let CType::Record(id) = cty else { return None };
        let record = self.link.records.get(id);
        let Some(members) = &record.members else {
            let what = record.name();
            self.err(
                base.span,
                format!("`{what}` is incomplete (not defined here)"),
            );
            return None;
        };
        let Some(m) = members.iter().find(|m| m.name == name).cloned() else {
            let what = record.name();
            self.err(name_span, format!("`{what}` has no member named `{name}`"));
            return None;
        };
        let offset = offset + m.offset as i64;
        let is_const = is_const || m.is_const;
        if let Some(bits) = m.bits {
            let unit = m.ty.scalar()?;
            return Some(Operand::Place {
                place: Place::BitField {
                    ptr: Box::new(ptr),
                    offset,
                    unit,
                    bit_offset: bits.bit_offset,
                    width: bits.width,
                },
                ty: unit,
                cty: m.ty,
                is_const,
                name: "",
                span,
            });
        }
        match m.ty.scalar() {
            Some(t) => Some(Operand::Place {
                place: Place::Deref {
                    ptr: Box::new(ptr),
                    offset,
                    ty: t,
                },
                ty: t,
                cty: m.ty,
                is_const,
                name: "",
                span,
            }),
            None => Some(Operand::Pointed {
                ptr,
                offset,
                cty: m.ty,
                is_const,
                span,
            }),
        }
    }

    /// `a = b` where `a` is a structure or union: `None` if `a` is not one (the caller then
    /// checks a scalar assignment), else the copy (or `Some(None)` after an error).
    pub(super) fn record_assignment(
        &mut self,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<Option<(Expr, CType)>> {
        // Only a structure-typed left side is handled here; look without reporting.
        let probe = self.quietly(|c| c.operand(a));
        let Some(Operand::Pointed {
            cty: CType::Record(_),
            ..
        }) = probe
        else {
            return None;
        };
        let Some(Operand::Pointed {
            ptr,
            offset,
            cty,
            is_const,
            span: lspan,
        }) = self.operand(a)
        else {
            return Some(None);
        };
        if is_const {
            self.err(lspan, "assignment of a read-only structure");
            return Some(None);
        }
        // C99 6.3.2.1p1: a structure with a `const` member (at any depth) is not a
        // modifiable lvalue.
        if let Some(member) = const_member(&cty, &self.link.records) {
            self.err(
                lspan,
                format!("assignment of a structure with the read-only member `{member}`"),
            );
            return Some(None);
        }
        let src = match self.operand(b) {
            Some(Operand::Pointed {
                ptr: p,
                offset: o,
                cty: t,
                span: s,
                ..
            }) if self.compatible(&t, &cty) => offset_pointer(p, o, s),
            Some(Operand::Pointed { cty: t, .. })
            | Some(Operand::Value(_, t))
            | Some(Operand::Place { cty: t, .. }) => {
                self.err(
                    b.span,
                    format!(
                        "incompatible types in assignment: expected `{}` but the value has type `{}`",
                        self.spell(&cty),
                        self.spell(&t)
                    ),
                );
                return Some(None);
            }
            Some(_) => {
                self.err(
                    b.span,
                    format!("a value of type `{}` is required here", self.spell(&cty)),
                );
                return Some(None);
            }
            None => return Some(None),
        };
        let size = self.link.records.size_of(&cty)?;
        let dst = offset_pointer(ptr, offset, lspan);
        let reread = rereadable(&dst).then(|| dst.clone());
        let copy = Expr {
            kind: ExprKind::CopyObject {
                dst: Box::new(dst),
                src: Box::new(src),
                size,
            },
            ty: None,
            span,
        };
        // The assignment's value is the left operand's new value (C99 6.5.16p3): the copy,
        // then the destination's address again, when computing it twice reads the same
        // object (`g = (h = k)`, `x = (*p = s)`). A destination with effects of its own
        // (`*p++ = s`) leaves the assignment a void expression statement.
        Some(Some(match reread {
            Some(address) => (
                Expr {
                    kind: ExprKind::Comma {
                        lhs: Box::new(copy),
                        rhs: Box::new(address),
                    },
                    ty: Some(ScalarType::Ptr),
                    span,
                },
                cty,
            ),
            None => (copy, CType::Void),
        }))
    }

    /// Run `f` with diagnostics discarded (to look at an expression's kind before checking
    /// it for real).
    pub(super) fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.diags.len();
        let out = f(self);
        self.diags.truncate(saved);
        out
    }
}

/// The name of a `const` member of the structure or union `ty`, at any depth (through
/// member structures and arrays of them), if it has one.
fn const_member(ty: &CType, records: &crate::ctype::Records) -> Option<String> {
    match ty {
        CType::Array { elem, .. } => const_member(elem, records),
        CType::Record(id) => records.get(*id).members.as_ref()?.iter().find_map(|m| {
            if m.is_const {
                Some(m.name.clone())
            } else {
                const_member(&m.ty, records)
            }
        }),
        _ => None,
    }
}

/// Whether evaluating the address `e` again gives the same address and has no effects: the
/// address of a variable or of an element at constant indices, or a pointer loaded from such
/// a place, plus constant offsets.
pub(super) fn rereadable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::ObjectAddr(_) | ExprKind::IntConst(_) => true,
        ExprKind::ElementAddr { indices, .. } => indices.iter().all(rereadable),
        ExprKind::PtrAdd { ptr, index, .. } => rereadable(ptr) && rereadable(index),
        ExprKind::Load(place) => match place {
            Place::Local(_) | Place::Global(_) => true,
            Place::Element { indices, .. } => indices.iter().all(rereadable),
            Place::Deref { ptr, .. } => rereadable(ptr),
            Place::BitField { .. } => false,
        },
        _ => false,
    }
}

/// The copy alone, when `e` is a structure assignment whose value ([`rereadable`] address
/// after the copy) is discarded: the statement `s = t;` compiles to the copy only.
pub(super) fn without_unused_value(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Comma { lhs, rhs }
            if matches!(lhs.kind, ExprKind::CopyObject { .. }) && rereadable(&rhs) =>
        {
            *lhs
        }
        kind => Expr { kind, ..e },
    }
}
