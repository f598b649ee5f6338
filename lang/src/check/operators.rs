//! C's operators (C99 6.5.3-6.5.16): unary operators and increments, the binary arithmetic,
//! comparison and logical operators, the conditional operator and assignments, each with the
//! conversions C applies to its operands made explicit in the HIR.

use crate::ast::{self, BinaryOp as AstOp, ExprKind as K, UnaryOp as AstUnary};
use crate::ctype::CType;
use crate::hir::{BinaryOp, CompareOp, Expr, ExprKind, ScalarType, UnaryOp};
use crate::span::Span;

use super::expr::{boxed, promotes_to_int, read_as};
use super::types::{convert, mk, promote, usual_arithmetic};
use super::Checker;

fn binop(op: AstOp) -> BinaryOp {
    match op {
        AstOp::Mul => BinaryOp::Mul,
        AstOp::Div => BinaryOp::Div,
        AstOp::Rem => BinaryOp::Rem,
        AstOp::Add => BinaryOp::Add,
        AstOp::Sub => BinaryOp::Sub,
        AstOp::Shl => BinaryOp::Shl,
        AstOp::Shr => BinaryOp::Shr,
        AstOp::BitAnd => BinaryOp::BitAnd,
        AstOp::BitXor => BinaryOp::BitXor,
        _ => BinaryOp::BitOr,
    }
}

fn cmpop(op: AstOp) -> Option<CompareOp> {
    Some(match op {
        AstOp::Lt => CompareOp::Lt,
        AstOp::Gt => CompareOp::Gt,
        AstOp::Le => CompareOp::Le,
        AstOp::Ge => CompareOp::Ge,
        AstOp::Eq => CompareOp::Eq,
        AstOp::Ne => CompareOp::Ne,
        _ => return None,
    })
}

/// The arithmetic operator `op` denotes (`None` for comparisons and logical operators).
pub(super) fn arithmetic_op(op: AstOp) -> Option<BinaryOp> {
    match op {
        AstOp::Lt
        | AstOp::Gt
        | AstOp::Le
        | AstOp::Ge
        | AstOp::Eq
        | AstOp::Ne
        | AstOp::And
        | AstOp::Or => None,
        _ => Some(binop(op)),
    }
}

/// The comparison `op` denotes, if it is one.
pub(super) fn compare_op(op: AstOp) -> Option<CompareOp> {
    cmpop(op)
}

impl Checker<'_> {
    /// `c ? a : b`.
    pub(super) fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let c = self.condition(c);
        let a = self.typed_or_record(a);
        let b = self.typed_or_record(b);
        let (c, (a, at), (b, bt)) = (c?, a?, b?);
        let (a, b, ty, cty) = match (&at, &bt) {
            (CType::Void, CType::Void) => (a, b, None, CType::Void),
            // Two structures or unions of the same type: the address of the one chosen.
            (CType::Record(_), CType::Record(_)) if self.compatible(&at, &bt) => {
                (a, b, Some(ScalarType::Ptr), at.clone())
            }
            (CType::LongDouble, _) | (_, CType::LongDouble)
                if at.is_arithmetic() && bt.is_arithmetic() =>
            {
                let a = self.convert_to_long_double(a, &at, span)?;
                let b = self.convert_to_long_double(b, &bt, span)?;
                (a, b, Some(ScalarType::Ptr), CType::LongDouble)
            }
            (CType::Scalar(x), CType::Scalar(y)) => {
                let t = usual_arithmetic(*x, *y);
                (convert(a, t), convert(b, t), Some(t), CType::Scalar(t))
            }
            (CType::Pointer { to: x, .. }, CType::Pointer { to: y, .. }) => {
                let cty = if **x == CType::Void || super::pointers::is_null_pointer(&b) {
                    at.clone()
                } else if **y == CType::Void || super::pointers::is_null_pointer(&a) {
                    bt.clone()
                } else if self.compatible_pointees(x, y) {
                    at.clone()
                } else if super::pointers::is_function(x) || super::pointers::is_function(y) {
                    self.err(
                        span,
                        format!(
                            "pointer type mismatch in conditional expression (`{}` and `{}`)",
                            self.spell(&at),
                            self.spell(&bt)
                        ),
                    );
                    return None;
                } else {
                    // gcc warns ("pointer type mismatch in conditional expression") and
                    // gives the result the type `void *`.
                    CType::pointer_to(CType::Void, false)
                };
                (a, b, Some(ScalarType::Ptr), cty)
            }
            (CType::Pointer { .. }, CType::Scalar(_)) if super::pointers::is_null_constant(&b) => {
                let n = mk(ExprKind::IntConst(0), ScalarType::Ptr, b.span);
                (a, n, Some(ScalarType::Ptr), at.clone())
            }
            (CType::Scalar(_), CType::Pointer { .. }) if super::pointers::is_null_constant(&a) => {
                let n = mk(ExprKind::IntConst(0), ScalarType::Ptr, a.span);
                (n, b, Some(ScalarType::Ptr), bt.clone())
            }
            (CType::Void, _) | (_, CType::Void) => {
                self.err(
                    span,
                    "type mismatch in conditional expression: one arm is void",
                );
                return None;
            }
            _ => {
                self.err(
                    span,
                    format!(
                        "type mismatch in conditional expression (`{}` and `{}`)",
                        self.spell(&at),
                        self.spell(&bt)
                    ),
                );
                return None;
            }
        };
        Some((
            Expr {
                kind: ExprKind::Conditional {
                    cond: boxed(c),
                    then_expr: boxed(a),
                    else_expr: boxed(b),
                },
                ty,
                span,
            },
            cty,
        ))
    }

    pub(super) fn unary(
        &mut self,
        op: AstUnary,
        x: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let (increment, prefix) = match op {
            AstUnary::PreInc => (true, true),
            AstUnary::PreDec => (false, true),
            AstUnary::PostInc => (true, false),
            AstUnary::PostDec => (false, false),
            AstUnary::AddrOf => return self.address_of(x, span),
            AstUnary::Deref => {
                let op = self.operand_deref(x, span)?;
                return self.operand_value(op, span);
            }
            AstUnary::Not => {
                let (v, t) = self.typed_arith(x)?;
                let v = self.truth(v, &t, x.span);
                return Some((
                    mk(
                        ExprKind::Unary {
                            op: UnaryOp::Not,
                            operand: boxed(v),
                        },
                        ScalarType::Int,
                        span,
                    ),
                    CType::INT,
                ));
            }
            AstUnary::Plus | AstUnary::Neg | AstUnary::BitNot => {
                let (v, t) = self.typed_arith(x)?;
                match (&t, op) {
                    (CType::LongDouble, AstUnary::Plus) => return Some((v, t)),
                    (CType::LongDouble, AstUnary::Neg) => {
                        return Some((self.long_double_neg(v, span)?, t))
                    }
                    (CType::Scalar(_), _) => {}
                    _ => {
                        let what = if op == AstUnary::BitNot {
                            "bit-complement"
                        } else {
                            "unary minus or plus"
                        };
                        self.err(
                            span,
                            format!("wrong type argument to {what} (have `{}`)", self.spell(&t)),
                        );
                        return None;
                    }
                }
                let ty = v.ty?;
                let op = match op {
                    AstUnary::Plus => return Some((v, CType::Scalar(ty))),
                    AstUnary::Neg => UnaryOp::Neg,
                    _ => {
                        if !ty.is_integer() {
                            self.err(
                                span,
                                format!("wrong type argument to bit-complement (have `{ty}`)"),
                            );
                            return None;
                        }
                        UnaryOp::BitNot
                    }
                };
                return Some((
                    mk(
                        ExprKind::Unary {
                            op,
                            operand: boxed(v),
                        },
                        ty,
                        span,
                    ),
                    CType::Scalar(ty),
                ));
            }
        };
        let what = if increment { "increment" } else { "decrement" };
        if self.is_long_double_lvalue(x) {
            return self.long_double_inc_dec(x, increment, prefix, span);
        }
        let (place, ty, cty) = self.modifiable(x, what)?;
        let scale = if cty.is_pointer() {
            self.step_size(&cty, span)?
        } else {
            1
        };
        let narrow = promotes_to_int(&place, ty);
        Some(read_as(
            mk(
                ExprKind::IncDec {
                    place,
                    increment,
                    prefix,
                    scale,
                },
                ty,
                span,
            ),
            cty,
            narrow,
        ))
    }

    pub(super) fn binary(
        &mut self,
        op: AstOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let l = self.typed_arith(a);
        let r = self.typed_arith(b);
        let ((l, lty), (r, rty)) = (l?, r?);
        if op == AstOp::And || op == AstOp::Or {
            let l = self.truth(l, &lty, a.span);
            let r = self.truth(r, &rty, b.span);
            let kind = if op == AstOp::And {
                ExprKind::LogicalAnd {
                    lhs: boxed(l),
                    rhs: boxed(r),
                }
            } else {
                ExprKind::LogicalOr {
                    lhs: boxed(l),
                    rhs: boxed(r),
                }
            };
            return Some((mk(kind, ScalarType::Int, span), CType::INT));
        }
        if lty == CType::LongDouble || rty == CType::LongDouble {
            return self.long_double_binary(op, (l, lty), (r, rty), span);
        }
        let pointers = lty.is_pointer() || rty.is_pointer();
        if let Some(cop) = cmpop(op) {
            if pointers {
                return self.pointer_compare(cop, (l, lty), (r, rty), span);
            }
            let (lt, rt) = (l.ty?, r.ty?);
            let t = usual_arithmetic(lt, rt);
            return Some((
                mk(
                    ExprKind::Compare {
                        op: cop,
                        operand_ty: t,
                        lhs: boxed(convert(l, t)),
                        rhs: boxed(convert(r, t)),
                    },
                    ScalarType::Int,
                    span,
                ),
                CType::INT,
            ));
        }
        if pointers {
            let integer = |t: &CType| t.scalar().is_some_and(|s| s.is_integer());
            return match (op, lty.is_pointer(), rty.is_pointer()) {
                (AstOp::Add, true, false) if integer(&rty) => {
                    self.pointer_plus(l, &lty, r, false, span)
                }
                (AstOp::Add, false, true) if integer(&lty) => {
                    self.pointer_plus(r, &rty, l, false, span)
                }
                (AstOp::Sub, true, false) if integer(&rty) => {
                    self.pointer_plus(l, &lty, r, true, span)
                }
                (AstOp::Sub, true, true) => self.pointer_difference((l, lty), (r, rty), span),
                _ => {
                    self.err(
                        span,
                        format!(
                            "invalid operands to binary `{}` (have `{}` and `{}`)",
                            op.symbol(),
                            self.spell(&lty),
                            self.spell(&rty)
                        ),
                    );
                    None
                }
            };
        }
        let op = binop(op);
        let e = self.arithmetic(op, l, r, span)?;
        let t = CType::Scalar(e.ty?);
        Some((e, t))
    }

    /// `l op r` for two promoted operands: checks the operand types and converts them.
    pub(super) fn arithmetic(
        &mut self,
        op: BinaryOp,
        l: Expr,
        r: Expr,
        span: Span,
    ) -> Option<Expr> {
        let (lt, rt) = (l.ty?, r.ty?);
        let integer_only = !matches!(
            op,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        );
        if integer_only && !(lt.is_integer() && rt.is_integer()) {
            self.err(
                span,
                format!(
                    "invalid operands to binary `{}` (have `{lt}` and `{rt}`): integers required",
                    op.symbol()
                ),
            );
            return None;
        }
        let (l, r, t) = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            (l, convert(r, ScalarType::Long), lt)
        } else {
            let t = usual_arithmetic(lt, rt);
            (convert(l, t), convert(r, t), t)
        };
        Some(mk(
            ExprKind::Binary {
                op,
                lhs: boxed(l),
                rhs: boxed(r),
            },
            t,
            span,
        ))
    }

    pub(super) fn assign(
        &mut self,
        op: Option<AstOp>,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        if self.is_long_double_lvalue(a) {
            return self.long_double_assign(op, a, b, span);
        }
        let Some(op) = op else {
            if let K::Member { .. } | K::Ident(_) | K::Unary(AstUnary::Deref, _) | K::Index(..) =
                &a.kind
            {
                if let Some(copy) = self.record_assignment(a, b, span) {
                    return copy;
                }
            }
            let place = self.modifiable(a, "assignment");
            let v = self.typed_scalar(b);
            let ((place, ty, cty), (v, vty)) = (place?, v?);
            let v = self.assign_convert(v, &vty, &cty, b.span, "assignment")?;
            let narrow = promotes_to_int(&place, ty);
            return Some(read_as(
                mk(
                    ExprKind::Assign {
                        place,
                        value: boxed(v),
                    },
                    ty,
                    span,
                ),
                cty,
                narrow,
            ));
        };
        let place = self.modifiable(a, "assignment");
        let v = self.typed_arith(b);
        let ((place, ty, cty), (v, vty)) = (place?, v?);
        if cty.is_pointer() {
            // `p += n`, `p -= n`: the step in bytes, computed in `long`.
            let integer = vty.scalar().is_some_and(|t| t.is_integer());
            if !matches!(op, AstOp::Add | AstOp::Sub) || !integer {
                self.err(
                    span,
                    format!(
                        "invalid operands to `{}=` (have `{}` and `{}`)",
                        op.symbol(),
                        self.spell(&cty),
                        self.spell(&vty)
                    ),
                );
                return None;
            }
            let size = self.step_size(&cty, span)?;
            let bytes = mk(
                ExprKind::Binary {
                    op: BinaryOp::Mul,
                    lhs: boxed(convert(v, ScalarType::Long)),
                    rhs: boxed(mk(ExprKind::IntConst(size), ScalarType::Long, span)),
                },
                ScalarType::Long,
                span,
            );
            return Some((
                mk(
                    ExprKind::CompoundAssign {
                        place,
                        op: binop(op),
                        op_ty: ScalarType::Ptr,
                        value: boxed(bytes),
                    },
                    ty,
                    span,
                ),
                cty,
            ));
        }
        if vty == CType::LongDouble {
            return self.long_double_into_place(place, ty, cty, binop(op), v, span);
        }
        if !matches!(vty, CType::Scalar(_)) {
            self.err(
                b.span,
                format!(
                    "invalid operands to `{}=` (have `{}` and `{}`)",
                    op.symbol(),
                    self.spell(&cty),
                    self.spell(&vty)
                ),
            );
            return None;
        }
        let op = binop(op);
        // Type the operation as `place op value` would be (a narrow bit-field reads as an
        // `int`), then keep its operand type.
        let narrow = promotes_to_int(&place, ty);
        let read = if narrow { ScalarType::Int } else { promote(ty) };
        let probe = self.arithmetic(op, mk(ExprKind::IntConst(0), read, a.span), v, span)?;
        let ExprKind::Binary { rhs, .. } = probe.kind else {
            return None;
        };
        let op_ty = probe.ty?;
        Some(read_as(
            mk(
                ExprKind::CompoundAssign {
                    place,
                    op,
                    op_ty,
                    value: rhs,
                },
                ty,
                span,
            ),
            cty,
            narrow,
        ))
    }
}
