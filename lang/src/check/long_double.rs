//! `long double` (C99 6.2.5p10; x87 80-bit extended precision in 16 bytes, as gcc has it on
//! x86-64), lowered by the checker.
//!
//! The VM's registers hold 64 bits, so a `long double` never lives in one. Like a structure,
//! it lives in memory (a variable, a member, an element, or a *temporary*: a hidden 16-byte
//! local of the function), and an expression of type `long double` is represented by the
//! address of the 16 bytes that hold its value: a `Ptr` expression with the C type
//! [`CType::LongDouble`]. The operators and conversions on it become calls of the VM's
//! `long double` operations ([`MemFn::LdArith`] and its siblings, implemented with
//! [`crate::builtins::long_double`]), each writing its result into a fresh temporary:
//!
//! - `a + b` is `(__ld_arith(&t, &a, &b, ADD), &t)`; `-a` is `__ld_neg`;
//! - `a < b` is `__ld_compare(&a, &b, LT)`, an `int`; a `long double` condition is `a != 0`;
//! - a conversion from an integer or `double` is `(__ld_from_long(&t, x), &t)` (exact); one to
//!   a narrower type is `__ld_to_double(&a)` ... (rounded to nearest once, or truncated to an
//!   integer);
//! - assignment copies the 16 bytes ([`ExprKind::CopyObject`]); parameters and results are
//!   passed as structures are (the caller's copy, the hidden result address);
//! - a constant (`1.5L`, or a `double` constant converted) is a 16-byte static array holding
//!   its bytes, folded with the same arithmetic the VM uses, so constant and run-time values
//!   agree bit for bit.

use crate::ast;
use crate::builtins::long_double::{LdOp, LongDouble, SIZE};
use crate::builtins::memory::MemFn;
use crate::ctype::{CType, Records};
use crate::hir::{
    ArrayBase, BinaryOp, CompareOp, ConstValue, Expr, ExprKind, FieldInit, LocalId, Place,
    ScalarType, Stmt, StmtKind, Type,
};
use crate::span::Span;

use super::expr::boxed;
use super::operand::{offset_pointer, Operand};
use super::records::rereadable;
use super::types::{self, convert, mk, Const};
use super::Checker;

/// A call of the `long double` operation `f` (its result type is the node's).
fn operation(f: MemFn, args: Vec<Expr>, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Memory { func: f, args },
        ty: f.result(),
        span,
    }
}

/// `(effect, value)`: evaluate `effect`, then the pointer `value`.
fn then(effect: Expr, value: Expr, span: Span) -> Expr {
    mk(
        ExprKind::Comma {
            lhs: boxed(effect),
            rhs: boxed(value),
        },
        ScalarType::Ptr,
        span,
    )
}

fn int_const(v: i64, span: Span) -> Expr {
    mk(ExprKind::IntConst(v), ScalarType::Int, span)
}

/// The `long double` operation of a binary arithmetic operator, if it has one.
fn ld_op(op: BinaryOp) -> Option<LdOp> {
    Some(match op {
        BinaryOp::Add => LdOp::Add,
        BinaryOp::Sub => LdOp::Sub,
        BinaryOp::Mul => LdOp::Mul,
        BinaryOp::Div => LdOp::Div,
        _ => return None,
    })
}

/// Whether an object of type `ty` holds a `long double` (is one, or an array or structure
/// with one).
pub(super) fn contains_long_double(ty: &CType, records: &Records) -> bool {
    match ty {
        CType::LongDouble => true,
        CType::Array { elem, .. } => contains_long_double(elem, records),
        CType::Record(id) => records
            .get(*id)
            .members
            .as_ref()
            .is_some_and(|members| members.iter().any(|m| contains_long_double(&m.ty, records))),
        _ => false,
    }
}

/// The storage of a local of type `cty`: a `long double`'s 16-byte alignment (gcc's, kept
/// in every layout) is 8 in a frame, whose area the VM aligns to 8 bytes only. Nothing but
/// the address's low bits can tell: the `long double` operations read unaligned bytes.
pub(super) fn in_frame(ty: Type, cty: &CType, records: &Records) -> Type {
    match ty {
        Type::Object { size, align } if align > 8 && contains_long_double(cty, records) => {
            Type::Object { size, align: 8 }
        }
        other => other,
    }
}

impl Checker<'_> {
    /// A fresh 16-byte temporary of the function: its address.
    pub(super) fn long_double_temporary(&mut self, span: Span) -> Option<Expr> {
        let id = self.hidden_local(
            Type::Object {
                size: SIZE,
                align: SIZE,
            },
            CType::LongDouble,
            span,
        )?;
        Some(mk(
            ExprKind::ObjectAddr(ArrayBase::Local(id)),
            ScalarType::Ptr,
            span,
        ))
    }

    /// The constant `value`: the address of 16 static bytes holding it.
    pub(super) fn long_double_constant(&mut self, value: LongDouble, span: Span) -> Expr {
        mk(
            ExprKind::StringLit(value.to_bytes().to_vec()),
            ScalarType::Ptr,
            span,
        )
    }

    /// The value `v` of the arithmetic type `vty` as a `long double` (the address of its
    /// bytes): itself if it is one, else converted (exactly: every `long`, `unsigned long`
    /// and `double` is a `long double`). Constants are converted while checking.
    pub(super) fn convert_to_long_double(
        &mut self,
        v: Expr,
        vty: &CType,
        span: Span,
    ) -> Option<Expr> {
        let t = match vty {
            CType::LongDouble => return Some(v),
            CType::Scalar(t) if *t != ScalarType::Ptr => *t,
            _ => {
                self.err(
                    span,
                    format!(
                        "a value of type `{}` cannot be converted to `long double`",
                        self.spell(vty)
                    ),
                );
                return None;
            }
        };
        // A constant (`types::eval` refuses anything with effects or loads) converts now.
        if let Ok(c) = types::eval(&v) {
            let value = constant_value(c, t);
            return Some(self.long_double_constant(value, span));
        }
        let (f, arg) = if t.is_floating() {
            (MemFn::LdFromDouble, convert(v, ScalarType::Double))
        } else if t == ScalarType::ULong {
            (MemFn::LdFromULong, v)
        } else {
            (MemFn::LdFromLong, convert(v, ScalarType::Long))
        };
        let temp = self.long_double_temporary(span)?;
        let call = operation(f, vec![temp.clone(), arg], span);
        Some(then(call, temp, span))
    }

    /// The `long double` at `p` converted to the scalar type `to` (C99 6.3.1.4, 6.3.1.5):
    /// truncated toward zero to an integer, rounded to nearest (once) to `double` or `float`,
    /// compared with zero for `_Bool`.
    pub(super) fn convert_from_long_double(&mut self, p: Expr, to: ScalarType, span: Span) -> Expr {
        match to {
            ScalarType::Bool => self.long_double_truth(p, span),
            ScalarType::Double => operation(MemFn::LdToDouble, vec![p], span),
            ScalarType::Float => operation(MemFn::LdToFloat, vec![p], span),
            ScalarType::ULong | ScalarType::Ptr => operation(MemFn::LdToULong, vec![p], span),
            t => convert(operation(MemFn::LdToLong, vec![p], span), t),
        }
    }

    /// `(target) v` where `v` (of type `vty`) or `target` is a `long double`.
    pub(super) fn long_double_cast(
        &mut self,
        v: Expr,
        vty: &CType,
        target: &CType,
        span: Span,
    ) -> Option<(Expr, CType)> {
        match target {
            CType::LongDouble => Some((
                self.convert_to_long_double(v, vty, span)?,
                CType::LongDouble,
            )),
            CType::Scalar(t) if *t != ScalarType::Ptr && *vty == CType::LongDouble => {
                Some((self.convert_from_long_double(v, *t, span), target.clone()))
            }
            _ => {
                self.err(
                    span,
                    format!(
                        "cannot convert a value of type `{}` to `{}`",
                        self.spell(vty),
                        self.spell(target)
                    ),
                );
                None
            }
        }
    }

    /// `p != 0` for the `long double` at `p`: an `int` (a NaN is true).
    pub(super) fn long_double_truth(&mut self, p: Expr, span: Span) -> Expr {
        let zero = self.long_double_constant(LongDouble::ZERO, span);
        operation(
            MemFn::LdCompare,
            vec![p, zero, int_const(CompareOp::Ne.code(), span)],
            span,
        )
    }

    /// `l op r` where one operand is a `long double` (the usual arithmetic conversions make
    /// both one): `+ - * /` give a `long double`, the comparisons an `int`.
    pub(super) fn long_double_binary(
        &mut self,
        op: ast::BinaryOp,
        (l, lty): (Expr, CType),
        (r, rty): (Expr, CType),
        span: Span,
    ) -> Option<(Expr, CType)> {
        let symbol = op.symbol();
        let arithmetic_op = super::operators::arithmetic_op(op);
        let compare = super::operators::compare_op(op);
        let ld = arithmetic_op.and_then(ld_op);
        if (ld.is_none() && compare.is_none()) || !lty.is_arithmetic() || !rty.is_arithmetic() {
            self.err(
                span,
                format!(
                    "invalid operands to binary `{symbol}` (have `{}` and `{}`)",
                    self.spell(&lty),
                    self.spell(&rty)
                ),
            );
            return None;
        }
        let l = self.convert_to_long_double(l, &lty, span)?;
        let r = self.convert_to_long_double(r, &rty, span)?;
        if let Some(cop) = compare {
            let e = operation(
                MemFn::LdCompare,
                vec![l, r, int_const(cop.code(), span)],
                span,
            );
            return Some((e, CType::INT));
        }
        let op = ld?;
        Some((self.long_double_arith(op, l, r, span)?, CType::LongDouble))
    }

    /// `l op r` on two `long double`s: the address of a temporary holding the result.
    pub(super) fn long_double_arith(
        &mut self,
        op: LdOp,
        l: Expr,
        r: Expr,
        span: Span,
    ) -> Option<Expr> {
        let temp = self.long_double_temporary(span)?;
        let call = operation(
            MemFn::LdArith,
            vec![temp.clone(), l, r, int_const(op.code(), span)],
            span,
        );
        Some(then(call, temp, span))
    }

    /// `-p`.
    pub(super) fn long_double_neg(&mut self, p: Expr, span: Span) -> Option<Expr> {
        let temp = self.long_double_temporary(span)?;
        let call = operation(MemFn::LdNeg, vec![temp.clone(), p], span);
        Some(then(call, temp, span))
    }

    /// A copy of the value at `p` in a fresh temporary (for a value that must not change
    /// with its variable: a postfix increment's old value, an argument).
    pub(super) fn long_double_copy(&mut self, p: Expr, span: Span) -> Option<Expr> {
        let temp = self.long_double_temporary(span)?;
        let copy = Expr {
            kind: ExprKind::CopyObject {
                dst: boxed(temp.clone()),
                src: boxed(p),
                size: SIZE,
            },
            ty: None,
            span,
        };
        Some(then(copy, temp, span))
    }

    /// An argument for a `long double` parameter: its value converted, in a copy of the
    /// caller's that the callee may change.
    pub(super) fn long_double_argument(&mut self, a: &ast::Expr) -> Option<Expr> {
        let v = self.long_double_value(a)?;
        self.long_double_copy(v, a.span)
    }

    /// Stores the `long double` at `value` into the 16 bytes at `dst`: a void expression.
    pub(super) fn long_double_store(dst: Expr, value: Expr, span: Span) -> Expr {
        Expr {
            kind: ExprKind::CopyObject {
                dst: boxed(dst),
                src: boxed(value),
                size: SIZE,
            },
            ty: None,
            span,
        }
    }

    /// Whether `e` designates a `long double` object (an assignment's or increment's
    /// operand), looked at without reporting anything.
    pub(super) fn is_long_double_lvalue(&mut self, e: &ast::Expr) -> bool {
        use ast::ExprKind as K;
        if !matches!(
            e.kind,
            K::Ident(_) | K::Index(..) | K::Member { .. } | K::Unary(ast::UnaryOp::Deref, _)
        ) {
            return false;
        }
        matches!(
            self.quietly(|c| c.operand(e)),
            Some(Operand::Pointed {
                cty: CType::LongDouble,
                ..
            })
        )
    }

    /// The address of the `long double` object `e` designates, checked modifiable, and the
    /// effect that computes it once (`None` when computing it again is the same).
    fn long_double_target(&mut self, e: &ast::Expr, what: &str) -> Option<(Option<Expr>, Expr)> {
        let Some(Operand::Pointed {
            ptr,
            offset,
            is_const,
            span,
            ..
        }) = self.operand(e)
        else {
            return None;
        };
        if is_const {
            self.err(span, format!("{what} of a read-only `long double`"));
            return None;
        }
        let address = offset_pointer(ptr, offset, span);
        if rereadable(&address) {
            return Some((None, address));
        }
        let pointer = CType::pointer_to(CType::LongDouble, false);
        let id = self.hidden_local(Type::Scalar(ScalarType::Ptr), pointer, span)?;
        let bind = mk(
            ExprKind::Assign {
                place: Place::Local(id),
                value: boxed(address),
            },
            ScalarType::Ptr,
            span,
        );
        Some((
            Some(bind),
            mk(ExprKind::Load(Place::Local(id)), ScalarType::Ptr, span),
        ))
    }

    /// `++x`, `x++`, `--x`, `x--` on a `long double` object: its new or old value.
    pub(super) fn long_double_inc_dec(
        &mut self,
        x: &ast::Expr,
        increment: bool,
        prefix: bool,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let what = if increment { "increment" } else { "decrement" };
        let (bind, dst) = self.long_double_target(x, what)?;
        let one = self.long_double_constant(LongDouble::from_i64(1), span);
        let op = if increment { LdOp::Add } else { LdOp::Sub };
        let step = operation(
            MemFn::LdArith,
            vec![dst.clone(), dst.clone(), one, int_const(op.code(), span)],
            span,
        );
        let mut effects: Vec<Expr> = bind.into_iter().collect();
        let value = if prefix {
            effects.push(step);
            dst
        } else {
            let old = self.long_double_temporary(span)?;
            effects.push(Self::long_double_store(old.clone(), dst, span));
            effects.push(step);
            old
        };
        Some((seq(effects, value, span), CType::LongDouble))
    }

    /// `x = v` or `x op= v` on a `long double` object: the value stored.
    pub(super) fn long_double_assign(
        &mut self,
        op: Option<ast::BinaryOp>,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let target = self.long_double_target(a, "assignment");
        let value = match op {
            None => self.long_double_value(b).map(|v| (v, CType::LongDouble)),
            Some(_) => self.typed_arith(b),
        };
        let ((bind, dst), value) = (target?, value?);
        let value = match op {
            None => value.0,
            Some(op) => {
                let current = (dst.clone(), CType::LongDouble);
                self.long_double_binary(op, current, value, span)?.0
            }
        };
        let mut effects: Vec<Expr> = bind.into_iter().collect();
        effects.push(Self::long_double_store(dst.clone(), value, span));
        Some((seq(effects, dst, span), CType::LongDouble))
    }

    /// `place op= v` where the place is of the scalar type `ty` and `v` a `long double`: the
    /// operation in `long double`, the result converted back (C99 6.5.16.2).
    pub(super) fn long_double_into_place(
        &mut self,
        place: Place,
        ty: ScalarType,
        cty: CType,
        op: BinaryOp,
        v: Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let Some(op) = ld_op(op) else {
            self.err(
                span,
                format!(
                    "invalid operands to `{}=` (have `{}` and `long double`)",
                    op.symbol(),
                    self.spell(&cty)
                ),
            );
            return None;
        };
        let current = mk(ExprKind::Load(place.clone()), ty, span);
        if !rereadable(&current) {
            self.err(
                span,
                "a compound assignment of a `long double` to an element whose indices have effects is not supported: assign `x = x op y`",
            );
            return None;
        }
        let current = self.convert_to_long_double(current, &CType::Scalar(ty), span)?;
        let result = self.long_double_arith(op, current, v, span)?;
        let value = self.convert_from_long_double(result, ty, span);
        Some((
            mk(
                ExprKind::Assign {
                    place,
                    value: boxed(value),
                },
                ty,
                span,
            ),
            cty,
        ))
    }

    /// A local `long double` variable and its initializer (`= e` or `= { e }`).
    pub(super) fn long_double_local(
        &mut self,
        decl: &ast::Declarator,
        init: Option<&ast::Initializer>,
        is_const: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) {
        let value = match init.map(single_expression) {
            None => None,
            Some(Some(e)) => match self.long_double_value(e) {
                Some(v) => Some(v),
                None => return,
            },
            Some(None) => {
                self.err(
                    span,
                    "a `long double` must be initialized by one expression",
                );
                return;
            }
        };
        let ty = Type::Object {
            size: SIZE,
            align: SIZE,
        };
        let Some(local) =
            self.declare_local(&decl.name, decl.name_span, ty, CType::LongDouble, is_const)
        else {
            return;
        };
        out.push(Stmt {
            kind: StmtKind::Decl { local, init: None },
            span,
        });
        if let Some(value) = value {
            let dst = mk(
                ExprKind::ObjectAddr(ArrayBase::Local(local)),
                ScalarType::Ptr,
                decl.name_span,
            );
            out.push(Stmt {
                kind: StmtKind::Expr(Self::long_double_store(dst, value, span)),
                span,
            });
        }
    }

    /// The store of `e` into the `long double` member (or element) at `offset` of the local
    /// object `local`.
    pub(super) fn long_double_member(
        &mut self,
        local: LocalId,
        offset: u64,
        e: &ast::Expr,
    ) -> Option<Expr> {
        let value = self.long_double_value(e)?;
        let base = mk(
            ExprKind::ObjectAddr(ArrayBase::Local(local)),
            ScalarType::Ptr,
            e.span,
        );
        let dst = offset_pointer(base, offset as i64, e.span);
        Some(Self::long_double_store(dst, value, e.span))
    }

    /// The initial bytes of a `long double` with static storage at `offset` of its object:
    /// its value as two 8-byte fields (`None` after an error, reported).
    pub(super) fn long_double_static(
        &mut self,
        init: &ast::Initializer,
        offset: u64,
    ) -> Option<Vec<FieldInit<ConstValue>>> {
        let Some(e) = single_expression(init) else {
            self.err(
                init.span(),
                "a `long double` must be initialized by one expression",
            );
            return None;
        };
        let bits = self.long_double_constant_value(e)?.to_bits();
        let field = |at: u64, value: u64| FieldInit {
            offset: offset + at,
            ty: ScalarType::ULong,
            bits: None,
            value: ConstValue::Int(value as i64),
        };
        Some(vec![field(0, bits as u64), field(8, (bits >> 64) as u64)])
    }

    /// The value of an arithmetic expression `e` as a `long double` (for an initializer, an
    /// argument, a returned value).
    pub(super) fn long_double_value(&mut self, e: &ast::Expr) -> Option<Expr> {
        let (v, t) = self.typed_scalar(e)?;
        self.convert_to_long_double(v, &t, e.span)
    }

    /// The constant value of the `long double` initializer `e` (of an object with static
    /// storage), folded as the VM computes.
    pub(super) fn long_double_constant_value(&mut self, e: &ast::Expr) -> Option<LongDouble> {
        match self.fold_long_double(e) {
            Some(v) => Some(v),
            None => {
                self.err(
                    e.span,
                    "initializer element is not a constant (a `long double` constant expression is required)",
                );
                None
            }
        }
    }

    /// Folds a constant expression to a `long double`: `long double` constants and the
    /// operators, casts and conversions on them, or any other arithmetic constant.
    fn fold_long_double(&mut self, e: &ast::Expr) -> Option<LongDouble> {
        use ast::ExprKind as K;
        match &e.kind {
            K::LongDouble(bits) => Some(LongDouble::from_bits(*bits)),
            K::Unary(ast::UnaryOp::Neg, x) => Some(self.fold_long_double(x)?.negated()),
            K::Unary(ast::UnaryOp::Plus, x) => self.fold_long_double(x),
            K::Binary(op, a, b) => {
                let op = super::operators::arithmetic_op(*op).and_then(ld_op)?;
                let a = self.fold_long_double(a)?;
                let b = self.fold_long_double(b)?;
                Some(a.arith(op, b))
            }
            K::Cast(_, x) => {
                // `(long double) x` or a cast of a constant to another arithmetic type.
                let (_, t) = self.quietly(|c| c.typed(e))?;
                if t == CType::LongDouble {
                    return self.fold_long_double(x);
                }
                self.fold_scalar(e)
            }
            _ => self.fold_scalar(e),
        }
    }

    /// An arithmetic constant expression of a type other than `long double`, converted.
    fn fold_scalar(&mut self, e: &ast::Expr) -> Option<LongDouble> {
        let (v, t) = self.quietly(|c| c.typed(e))?;
        match t {
            CType::Scalar(s) if s != ScalarType::Ptr => {
                Some(constant_value(types::eval(&v).ok()?, s))
            }
            _ => None,
        }
    }
}

/// The constant `c` of type `ty` as a `long double` (exactly: every 64-bit integer and every
/// `double` is one).
fn constant_value(c: Const, ty: ScalarType) -> LongDouble {
    match c {
        Const::Int(i) if ty == ScalarType::ULong => LongDouble::from_u64(i as u64),
        Const::Int(i) => LongDouble::from_i64(i),
        Const::Double(x) => LongDouble::from_f64(x),
    }
}

/// The expression of the initializer `e` or `{ e }`.
fn single_expression(init: &ast::Initializer) -> Option<&ast::Expr> {
    match init {
        ast::Initializer::Expr(e) => Some(e),
        ast::Initializer::List { items, .. } => match items.as_slice() {
            [ast::Initializer::Expr(e)] => Some(e),
            _ => None,
        },
        ast::Initializer::Designated { .. } => None,
    }
}

/// `(e1, e2, ..., value)`: the effects in order, then the pointer `value`.
fn seq(effects: Vec<Expr>, value: Expr, span: Span) -> Expr {
    effects
        .into_iter()
        .rev()
        .fold(value, |acc, effect| then(effect, acc, span))
}
