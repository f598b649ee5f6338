//! Pointers in expressions (C99 6.5.2.1, 6.5.3.2, 6.5.6, 6.5.8, 6.5.9, 6.5.16.1, 6.3.2.3).
//!
//! * `&x` of a variable, array element or dereferenced pointer; `*p` and `p[i]` (which is
//!   `*(p + i)`), giving a place in memory ([`Place::Deref`]) or, for a pointer to an array,
//!   the array.
//! * Pointer arithmetic: `p + n`, `n + p`, `p - n` step by the pointed-to type's size
//!   ([`ExprKind::PtrAdd`]); `p - q` counts elements ([`ExprKind::PtrDiff`]); `void *`
//!   steps by bytes, as gcc allows.
//! * Comparisons of pointers to compatible types, and with null pointer constants.
//! * The conversions of assignment (and of initialization, argument passing and `return`):
//!   arithmetic to arithmetic; a pointer to a pointer of a compatible type, or from or to
//!   `void *`; a null pointer constant (an integer constant expression equal to 0) to any
//!   pointer; a pointer to `_Bool`. An integer to a pointer or a pointer to an integer needs a
//!   cast, as with gcc 14 (`-Wint-conversion` is an error there), and so do pointers to
//!   incompatible types (`-Wincompatible-pointer-types`).
//! * Casts between pointers, and between pointers and integers.

use std::sync::Arc;

use crate::ast;
use crate::hir::{ArrayBase, CompareOp, Expr, ExprKind, Place, ScalarType};
use crate::span::Span;

use super::operand::Operand;
use super::types::{convert, eval, mk, Const};
use super::{is_integer_constant_expression, Checker};
use crate::ctype::CType;

/// True if `e` is a null pointer constant: an integer constant expression whose value is 0
/// (`0`, `'\0'`, `(void *)0` is handled by its pointer type).
pub(super) fn is_null_constant(e: &Expr) -> bool {
    e.ty.is_some_and(|t| t.is_integer())
        && is_integer_constant_expression(e)
        && matches!(eval(e), Ok(Const::Int(0)))
}

/// The null pointer of a pointer type.
fn null_pointer(span: Span) -> Expr {
    mk(ExprKind::IntConst(0), ScalarType::Ptr, span)
}

/// True if `e` is `(void *)0`-like: a null constant converted to a pointer.
pub(super) fn is_null_pointer(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntConst(0) => e.ty == Some(ScalarType::Ptr),
        ExprKind::Convert {
            expr,
            to: ScalarType::Ptr,
        } => is_null_constant(expr),
        _ => false,
    }
}

impl Checker<'_> {
    /// True if pointers to `a` and to `b` may be mixed without a cast: the same type (C99
    /// 6.2.7's compatibility, with an array of unknown size compatible with any size), or
    /// either is `void`.
    pub(super) fn compatible_pointees(&self, a: &CType, b: &CType) -> bool {
        // `void *` mixes with pointers to objects, not to functions (C99 6.3.2.3p1).
        if (*a == CType::Void && !is_function(b)) || (*b == CType::Void && !is_function(a)) {
            return true;
        }
        self.compatible(a, b)
    }

    pub(super) fn compatible(&self, a: &CType, b: &CType) -> bool {
        match (a, b) {
            // Structures of two files are compatible when declared alike (C99 6.2.7p1): same
            // kind, tag, and members of compatible types at the same offsets.
            (CType::Record(x), CType::Record(y)) if x != y => {
                let (r, q) = (self.link.records.get(*x), self.link.records.get(*y));
                r.is_union == q.is_union
                    && r.tag == q.tag
                    && r.size == q.size
                    && match (&r.members, &q.members) {
                        (Some(m), Some(n)) => {
                            m.len() == n.len()
                                && m.iter().zip(n).all(|(u, v)| {
                                    u.name == v.name
                                        && u.offset == v.offset
                                        && u.bits == v.bits
                                        && self.compatible(&u.ty, &v.ty)
                                })
                        }
                        _ => true,
                    }
            }
            (CType::Array { elem: x, len: n }, CType::Array { elem: y, len: m }) => {
                (n.is_none() || m.is_none() || n == m) && self.compatible(x, y)
            }
            (CType::Pointer { to: x, .. }, CType::Pointer { to: y, .. }) => self.compatible(x, y),
            (CType::Function(f), CType::Function(g)) => {
                f.params.len() == g.params.len()
                    && self.compatible(&f.ret, &g.ret)
                    && f.params
                        .iter()
                        .zip(&g.params)
                        .all(|(p, q)| self.compatible(p, q))
            }
            _ => a == b,
        }
    }

    /// `ty`'s spelling for messages.
    pub(super) fn spell(&self, ty: &CType) -> String {
        self.link.records.display(ty).to_string()
    }

    /// Convert the value `v` of type `vty` to `to` as assignment does; `what` describes the
    /// context for messages ("assignment", "argument 2 of `f`", "return").
    pub(super) fn assign_convert(
        &mut self,
        v: Expr,
        vty: &CType,
        to: &CType,
        span: Span,
        what: &str,
    ) -> Option<Expr> {
        match (to, vty) {
            (CType::Scalar(t), CType::Scalar(_)) => Some(convert(v, *t)),
            (CType::Scalar(t), CType::LongDouble) if *t != ScalarType::Ptr => {
                Some(self.convert_from_long_double(v, *t, span))
            }
            (CType::LongDouble, CType::Scalar(t)) if *t != ScalarType::Ptr => {
                self.convert_to_long_double(v, vty, span)
            }
            (CType::LongDouble, CType::LongDouble) => Some(v),
            (CType::Scalar(ScalarType::Bool), CType::Pointer { .. }) => {
                Some(convert(v, ScalarType::Bool))
            }
            // Pointers to incompatible types (`int *` from `unsigned *`): gcc converts with a
            // warning ("incompatible pointer types"), and so does the VM, silently; every
            // access through the result is checked against the object it reaches.
            // A function pointer and an object pointer stay apart (C99 6.3.2.3; gcc
            // -pedantic rejects the conversion).
            (CType::Pointer { to: want, .. }, CType::Pointer { to: have, .. })
                if is_function(want) != is_function(have) && !is_null_pointer(&v) =>
            {
                self.err(
                    span,
                    format!(
                        "incompatible pointer types in {what}: expected `{}` but the value has type `{}` (a function pointer and an object pointer)",
                        self.spell(to),
                        self.spell(vty)
                    ),
                );
                None
            }
            (CType::Pointer { .. }, CType::Pointer { .. }) => Some(v),
            (CType::Pointer { .. }, CType::Scalar(_)) if is_null_constant(&v) => {
                Some(null_pointer(v.span))
            }
            (CType::Pointer { .. }, CType::Scalar(t)) if t.is_integer() => {
                self.err(
                    span,
                    format!(
                        "{what} makes a pointer (`{}`) from an integer without a cast",
                        self.spell(to)
                    ),
                );
                None
            }
            (CType::Scalar(t), CType::Pointer { .. }) if t.is_integer() => {
                self.err(
                    span,
                    format!(
                        "{what} makes an integer (`{t}`) from a pointer (`{}`) without a cast",
                        self.spell(vty)
                    ),
                );
                None
            }
            (_, CType::Void) => {
                self.err(span, "void value not ignored as it ought to be");
                None
            }
            _ => {
                self.err(
                    span,
                    format!(
                        "incompatible types in {what}: expected `{}` but the value has type `{}`",
                        self.spell(to),
                        self.spell(vty)
                    ),
                );
                None
            }
        }
    }

    /// `*p` for a pointer value `p` of type `pty`.
    pub(super) fn deref<'a>(&mut self, ptr: Expr, pty: &CType, span: Span) -> Option<Operand<'a>> {
        let CType::Pointer { to, to_const } = pty else {
            self.err(
                span,
                format!(
                    "invalid type argument of unary `*` (have `{}`)",
                    self.spell(pty)
                ),
            );
            return None;
        };
        let to = (**to).clone();
        match &to {
            CType::Void => {
                self.err(span, "dereferencing a `void *` pointer");
                None
            }
            CType::Scalar(_) | CType::Pointer { .. } => Some(Operand::Place {
                place: Place::Deref {
                    ptr: Box::new(ptr),
                    offset: 0,
                    ty: to.scalar()?,
                },
                ty: to.scalar()?,
                cty: to,
                is_const: *to_const,
                name: "",
                span,
            }),
            CType::Function(_) => Some(Operand::Value(ptr, pty.clone())),
            CType::Array { .. } | CType::Record(_) | CType::LongDouble => {
                if !self.link.records.is_complete(&to) && matches!(to, CType::Record(_)) {
                    self.err(
                        span,
                        format!(
                            "dereferencing a pointer to incomplete type `{}`",
                            self.spell(&to)
                        ),
                    );
                    return None;
                }
                Some(Operand::Pointed {
                    ptr,
                    offset: 0,
                    cty: to,
                    is_const: *to_const,
                    span,
                })
            }
        }
    }

    /// The size of what `pty` points to, for pointer arithmetic (1 for `void *`, as gcc);
    /// `None` (reported) for pointers to functions or incomplete types.
    pub(super) fn step_size(&mut self, pty: &CType, span: Span) -> Option<i64> {
        let to = pty.pointee()?;
        if *to == CType::Void {
            return Some(1);
        }
        match self.link.records.size_of(to) {
            Some(n) => Some(n as i64),
            None => {
                self.err(
                    span,
                    format!(
                        "arithmetic on a pointer to an incomplete or function type `{}`",
                        self.spell(to)
                    ),
                );
                None
            }
        }
    }

    /// `p + n` (or `p - n` if `negate`), `n` an integer value.
    pub(super) fn pointer_plus(
        &mut self,
        p: Expr,
        pty: &CType,
        n: Expr,
        negate: bool,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let size = self.step_size(pty, span)?;
        let scale = if negate { -size } else { size };
        let index = convert(n, ScalarType::Long);
        Some((
            mk(
                ExprKind::PtrAdd {
                    ptr: Box::new(p),
                    index: Box::new(index),
                    scale,
                },
                ScalarType::Ptr,
                span,
            ),
            pty.clone(),
        ))
    }

    /// `p - q` for two pointers.
    pub(super) fn pointer_difference(
        &mut self,
        (p, pty): (Expr, CType),
        (q, qty): (Expr, CType),
        span: Span,
    ) -> Option<(Expr, CType)> {
        let (Some(a), Some(b)) = (pty.pointee(), qty.pointee()) else {
            return None;
        };
        if !self.compatible(a, b) {
            self.err(
                span,
                format!(
                    "invalid operands to binary `-` (have `{}` and `{}`): pointers to different types",
                    self.spell(&pty),
                    self.spell(&qty)
                ),
            );
            return None;
        }
        let scale = self.step_size(&pty, span)?;
        Some((
            mk(
                ExprKind::PtrDiff {
                    lhs: Box::new(p),
                    rhs: Box::new(q),
                    scale,
                },
                ScalarType::Long,
                span,
            ),
            CType::Scalar(ScalarType::Long),
        ))
    }

    /// A comparison where at least one operand is a pointer.
    pub(super) fn pointer_compare(
        &mut self,
        op: CompareOp,
        (l, lt): (Expr, CType),
        (r, rt): (Expr, CType),
        span: Span,
    ) -> Option<(Expr, CType)> {
        let equality = matches!(op, CompareOp::Eq | CompareOp::Ne);
        let ok = match (&lt, &rt) {
            // Pointers to different types compare as addresses: gcc warns ("comparison of
            // distinct pointer types lacks a cast") and compares them.
            (CType::Pointer { to: a, .. }, CType::Pointer { to: b, .. }) => {
                is_function(a) == is_function(b)
                    || (equality && (**a == CType::Void || **b == CType::Void))
                    || (equality && (is_null_pointer(&l) || is_null_pointer(&r)))
            }
            // Only `==` and `!=` compare a pointer with a null pointer constant (C99 6.5.8p2
            // allows no integer in an ordered comparison; gcc -pedantic rejects `p > 0`).
            (CType::Pointer { .. }, _) => equality && is_null_constant(&r),
            (_, CType::Pointer { .. }) => equality && is_null_constant(&l),
            _ => false,
        };
        if !ok {
            self.err(
                span,
                format!(
                    "comparison of `{}` and `{}`: {}",
                    self.spell(&lt),
                    self.spell(&rt),
                    if lt.is_pointer() && rt.is_pointer() {
                        "a function pointer and an object pointer"
                    } else {
                        "a pointer and an integer other than the constant 0"
                    }
                ),
            );
            return None;
        }
        let as_ptr = |e: Expr, t: &CType| {
            if t.is_pointer() {
                e
            } else {
                null_pointer(e.span)
            }
        };
        Some((
            mk(
                ExprKind::Compare {
                    op,
                    operand_ty: ScalarType::Ptr,
                    lhs: Box::new(as_ptr(l, &lt)),
                    rhs: Box::new(as_ptr(r, &rt)),
                },
                ScalarType::Int,
                span,
            ),
            CType::INT,
        ))
    }

    /// `&x`.
    pub(super) fn address_of(&mut self, x: &ast::Expr, span: Span) -> Option<(Expr, CType)> {
        let op = self.operand(x)?;
        let ptr = |kind: ExprKind| mk(kind, ScalarType::Ptr, span);
        match op {
            Operand::Place {
                place,
                cty,
                is_const,
                name,
                ..
            } => {
                let e = match place {
                    Place::Deref {
                        ptr: p, offset: 0, ..
                    } => *p,
                    Place::Deref { ptr: p, offset, .. } => ptr(ExprKind::PtrAdd {
                        ptr: p,
                        index: Box::new(mk(ExprKind::IntConst(offset), ScalarType::Long, span)),
                        scale: 1,
                    }),
                    Place::Element { array, indices } => {
                        ptr(ExprKind::ElementAddr { array, indices })
                    }
                    Place::Global(g) => ptr(ExprKind::ObjectAddr(ArrayBase::Global(g))),
                    Place::BitField { .. } => {
                        self.err(x.span, "cannot take the address of a bit-field");
                        return None;
                    }
                    Place::Local(_) => {
                        // Locals whose address is taken are stored in memory (see
                        // `Checker::addressed`); a register local here is a parameter the
                        // scan could not see.
                        self.err(
                            x.span,
                            format!("taking the address of `{name}` is not supported here"),
                        );
                        return None;
                    }
                };
                Some((e, CType::pointer_to(cty, is_const)))
            }
            Operand::Array(a) => {
                let cty = a.array_type();
                let e = self.array_address(&a, span)?;
                Some((e, CType::pointer_to(cty, a.is_const)))
            }
            Operand::Pointed {
                ptr,
                offset,
                cty,
                is_const,
                ..
            } => Some((
                super::operand::offset_pointer(ptr, offset, span),
                CType::pointer_to(cty, is_const),
            )),
            Operand::Func { id, ty, .. } => Some((
                mk(ExprKind::FuncAddr(id), ScalarType::Ptr, span),
                CType::pointer_to(ty, false),
            )),
            Operand::Str(bytes, s) => {
                let len = bytes.len() as u64 + 1;
                let arr = CType::Array {
                    elem: Arc::new(CType::Scalar(ScalarType::Char)),
                    len: Some(len),
                };
                Some((self.string_value(bytes, s), CType::pointer_to(arr, false)))
            }
            Operand::Value(..) => {
                self.err(x.span, "lvalue required as unary `&` operand");
                None
            }
        }
    }

    /// A string literal as a value: a pointer to its first character.
    pub(super) fn string_value(&mut self, bytes: &[u8], span: Span) -> Expr {
        let mut with_nul = bytes.to_vec();
        with_nul.push(0);
        mk(ExprKind::StringLit(with_nul), ScalarType::Ptr, span)
    }

    /// A cast of `v` (of type `vty`) to the pointer or integer type `to`, where one of them is
    /// a pointer.
    pub(super) fn pointer_cast(
        &mut self,
        v: Expr,
        vty: &CType,
        to: &CType,
        span: Span,
    ) -> Option<Expr> {
        let floating = |t: &CType| matches!(t, CType::Scalar(s) if s.is_floating());
        if floating(vty) || floating(to) {
            self.err(
                span,
                format!(
                    "cannot convert between a pointer and a floating type (`{}` to `{}`)",
                    self.spell(vty),
                    self.spell(to)
                ),
            );
            return None;
        }
        let mut e = convert(v, to.scalar()?);
        e.span = span;
        Some(e)
    }
}

/// Whether `t` (a pointer's pointee) is a function type.
pub(super) fn is_function(t: &CType) -> bool {
    matches!(t, CType::Function(_))
}
