//! Expressions: values into registers ([`FnCompiler::expr`]), expressions evaluated for their
//! effects only ([`FnCompiler::effect`]), truth values and conversions between scalar types.
//! The other jobs of expression code have their own files: constants folded at compile time
//! ([`super::constants`]), places (loads, stores, assignments: [`super::places`]), pointer
//! arithmetic ([`super::pointers`]), calls ([`super::calls`]), conditions compiled into
//! branches ([`super::conditions`]), the instruction for an operation at a type
//! ([`super::instrs`]) and what evaluating an expression may do ([`super::effects`]).

use super::calls::site_arg;
use super::effects::{
    binary_rhs_first, cannot_be_minus_zero, compare_rhs_first, has_call, has_effects,
};
use super::instrs::{
    binary_instr, compare_instr, immediate_form, is_noop_conversion, narrow_instr,
};
use super::{place_local, FnCompiler};
use crate::bytecode::{Instr, Reg, Site, SiteArg};
use crate::hir::{BinaryOp, Expr, ExprKind, ScalarType, UnaryOp};

impl FnCompiler<'_> {
    // ---- statements' expressions ----

    /// Compiles `e` for its side effects only.
    pub(super) fn effect(&mut self, e: &Expr) {
        let mark = self.free;
        match &e.kind {
            ExprKind::IncDec {
                place,
                increment,
                scale,
                ..
            } => {
                self.inc_dec(e, place, (*increment, true, *scale), None);
            }
            ExprKind::Assign { place, value } => {
                self.assign(e, place, value, None, false);
            }
            ExprKind::Comma { lhs, rhs } => {
                self.effect(lhs);
                self.effect(rhs);
            }
            ExprKind::Discard(inner) => self.effect(inner),
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                let mut to_else = Vec::new();
                self.cond_jump(cond, false, &mut to_else);
                self.effect(then_expr);
                let end = self.jump();
                let here = self.here();
                self.patch_all(to_else, here);
                self.effect(else_expr);
                let here = self.here();
                self.patch(end, here);
            }
            _ => {
                if e.ty.is_none() || has_effects(e) {
                    self.expr(e, None);
                }
            }
        }
        self.free = mark;
    }

    // ---- values ----

    /// Compiles `e`, leaving its value in `dst` if given, else in a register of its choice:
    /// a local's own register for a plain read, or a fresh temporary. Only the node's last
    /// instruction writes `dst`, after every operand has been read. A void expression returns
    /// an unspecified register.
    pub(super) fn expr(&mut self, e: &Expr, dst: Option<Reg>) -> Reg {
        if let Some(bits) = self.const_bits(e) {
            let d = dst.unwrap_or_else(|| self.alloc());
            self.at(e.span);
            self.load_bits(d, bits);
            return d;
        }
        match &e.kind {
            ExprKind::IntConst(_) | ExprKind::DoubleConst(_) => load_const(self, e, dst),
            ExprKind::StringLit(bytes) if e.ty.is_some() => {
                let d = dst.unwrap_or_else(|| self.alloc());
                let p = self.statics.borrow_mut().string(bytes);
                self.at(e.span);
                self.load_bits(d, p);
                d
            }
            ExprKind::StringLit(_) => dst.unwrap_or_else(|| self.alloc()),
            ExprKind::Load(place) => {
                if let Some(l) = place_local(place) {
                    let r = self.local_reg[l.index()];
                    return match dst {
                        Some(d) if d != r => {
                            self.at(e.span);
                            self.emit(Instr::Mov { a: d, b: r });
                            d
                        }
                        _ => r,
                    };
                }
                let loc = self.place(place);
                let d = dst.unwrap_or_else(|| self.alloc());
                self.at(e.span);
                self.load(loc, d);
                d
            }
            ExprKind::Convert { expr, to } => {
                let from = expr.ty.unwrap_or(*to);
                if is_noop_conversion(from, *to) {
                    return self.expr(expr, dst);
                }
                let src = self.expr(expr, None);
                self.at(e.span);
                self.convert(src, from, *to, dst)
            }
            ExprKind::Unary { op, operand } => {
                let ty = e.ty.unwrap_or(ScalarType::Int);
                if *op == UnaryOp::Not {
                    return self.bool_value(e, dst);
                }
                let mark = self.free;
                let src = self.expr(operand, None);
                self.free = mark;
                let d = dst.unwrap_or_else(|| self.alloc());
                self.at(e.span);
                let ins = match (op, ty) {
                    (UnaryOp::Neg, t) if t.is_floating() => Instr::NegF { a: d, b: src },
                    (UnaryOp::Neg, ScalarType::UInt) => Instr::NegU32 { a: d, b: src },
                    (UnaryOp::Neg, ScalarType::Long | ScalarType::ULong) => {
                        Instr::Neg64 { a: d, b: src }
                    }
                    (UnaryOp::Neg, _) => Instr::Neg32 { a: d, b: src },
                    (UnaryOp::BitNot, ScalarType::UInt) => Instr::NotU32 { a: d, b: src },
                    (_, _) => Instr::Not { a: d, b: src },
                };
                self.emit(ins);
                d
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let ty = e.ty.unwrap_or(ScalarType::Int);
                // gcc folds `0.0 - x` to `-x` when `x` cannot be -0.0 (converted from an
                // integer, or `fabs`): for x == 0 that gives -0.0 where IEEE subtraction
                // gives +0.0, and gcc -O0 prints -0.0.
                if *op == BinaryOp::Sub
                    && ty.is_floating()
                    && self.const_bits(lhs) == Some(0)
                    && cannot_be_minus_zero(rhs)
                {
                    let mark = self.free;
                    let src = self.expr(rhs, None);
                    self.free = mark;
                    let d = dst.unwrap_or_else(|| self.alloc());
                    self.at(e.span);
                    self.emit(Instr::NegF { a: d, b: src });
                    return d;
                }
                if binary_rhs_first(*op, lhs, rhs) {
                    return self.binary_rhs_first(e, *op, ty, lhs, rhs, dst);
                }
                let mark = self.free;
                let l = self.expr(lhs, None);
                // gcc folds `A - (B - C)` to `A + (C - B)`: C is evaluated before B.
                if let ExprKind::Binary {
                    op: BinaryOp::Sub,
                    lhs: b,
                    rhs: c,
                } = &rhs.kind
                {
                    if *op == BinaryOp::Sub && ty.is_integer() && (has_call(b) || has_call(c)) {
                        let r = self.binary_rhs_first(rhs, BinaryOp::Sub, ty, b, c, None);
                        self.free = mark;
                        let d = dst.unwrap_or_else(|| self.alloc());
                        self.at(e.span);
                        self.emit(binary_instr(*op, ty, d, l, r));
                        return d;
                    }
                }
                // `x + small constant` and `x - small constant` use the immediate forms.
                if let (BinaryOp::Add | BinaryOp::Sub, Some(c)) = (op, self.int_const(rhs)) {
                    let c = if *op == BinaryOp::Sub {
                        c.checked_neg()
                    } else {
                        Some(c)
                    };
                    if let Some(imm) = c.and_then(|c| i16::try_from(c).ok()) {
                        if ty.is_integer() {
                            self.free = mark;
                            let d = dst.unwrap_or_else(|| self.alloc());
                            self.at(e.span);
                            let ins = match ty {
                                ScalarType::UInt => Instr::AddIU32 { a: d, b: l, imm },
                                ScalarType::Long | ScalarType::ULong => {
                                    Instr::AddI64 { a: d, b: l, imm }
                                }
                                _ => Instr::AddI32 { a: d, b: l, imm },
                            };
                            self.emit(ins);
                            return d;
                        }
                    }
                }
                if let Some(mk) = self.int_const(rhs).and_then(|c| immediate_form(*op, ty, c)) {
                    self.free = mark;
                    let d = dst.unwrap_or_else(|| self.alloc());
                    self.at(e.span);
                    self.emit(mk(d, l));
                    return d;
                }
                let r = self.expr(rhs, None);
                self.free = mark;
                let d = dst.unwrap_or_else(|| self.alloc());
                self.at(e.span);
                self.emit(binary_instr(*op, ty, d, l, r));
                d
            }
            ExprKind::Compare { .. } | ExprKind::LogicalAnd { .. } | ExprKind::LogicalOr { .. } => {
                self.bool_value(e, dst)
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                // Each arm writes `d` with its last instruction, after the condition and the
                // arm have read everything, so `d` may be a local.
                let d = dst.unwrap_or_else(|| self.alloc());
                let mut to_else = Vec::new();
                self.cond_jump(cond, false, &mut to_else);
                let mark = self.free;
                self.expr(then_expr, Some(d));
                self.free = mark;
                let end = self.jump();
                let here = self.here();
                self.patch_all(to_else, here);
                self.expr(else_expr, Some(d));
                self.free = mark;
                let here = self.here();
                self.patch(end, here);
                self.finish(d, dst)
            }
            ExprKind::Comma { lhs, rhs } => {
                self.effect(lhs);
                self.expr(rhs, dst)
            }
            ExprKind::Assign { place, value } => self.assign(e, place, value, dst, true),
            ExprKind::CompoundAssign {
                place,
                op,
                op_ty,
                value,
            } => self.compound(e, place, *op, *op_ty, value, dst),
            ExprKind::IncDec {
                place,
                increment,
                prefix,
                scale,
            } => self.inc_dec(e, place, (*increment, *prefix, *scale), dst),
            ExprKind::ObjectAddr(base) => {
                let d = dst.unwrap_or_else(|| self.alloc());
                self.object_pointer(*base, d);
                d
            }
            ExprKind::ElementAddr { array, indices } => self.element_address(*array, indices, dst),
            ExprKind::PtrAdd { ptr, index, scale } => {
                let p = self.expr(ptr, None);
                let d = dst.unwrap_or_else(|| self.alloc());
                match self.int_const(index).and_then(|c| c.checked_mul(*scale)) {
                    Some(bytes) => {
                        self.at(e.span);
                        self.pointer_step(d, p, bytes);
                    }
                    None => {
                        let i = self.expr(index, None);
                        let bytes = self.scaled(i, *scale);
                        self.at(e.span);
                        self.emit(Instr::PtrAdd {
                            a: d,
                            b: p,
                            c: bytes,
                        });
                    }
                }
                d
            }
            ExprKind::PtrDiff { lhs, rhs, scale } => {
                let l = self.expr(lhs, None);
                let r = self.expr(rhs, None);
                let d = dst.unwrap_or_else(|| self.alloc());
                self.at(e.span);
                self.emit(Instr::PtrDiff { a: d, b: l, c: r });
                if *scale != 1 {
                    match i16::try_from(*scale) {
                        Ok(imm) => {
                            self.emit(Instr::DivI64 { a: d, b: d, imm });
                        }
                        Err(_) => {
                            let k = self.alloc();
                            self.load_bits(k, *scale as u64);
                            self.emit(Instr::Div64 { a: d, b: d, c: k });
                        }
                    }
                }
                d
            }
            ExprKind::CopyObject { dst: to, src, size } => {
                let a = self.expr(to, None);
                let b = self.expr(src, None);
                let c = self.alloc();
                self.load_bits(c, *size);
                self.at(e.span);
                self.emit(Instr::Copy { a, b, c });
                dst.unwrap_or(a)
            }
            ExprKind::Call { func, args } => self.call(e, *func, args, dst),
            ExprKind::CallIndirect { callee, args } => self.call_indirect(e, callee, args, dst),
            ExprKind::WithInit { init, value } => {
                for s in init {
                    self.stmt(s);
                }
                self.expr(value, dst)
            }
            ExprKind::FuncAddr(f) => {
                let d = dst.unwrap_or_else(|| self.alloc());
                self.load_bits(
                    d,
                    crate::bytecode::function_pointer(crate::bytecode::FuncIdx(f.0 as u16)),
                );
                d
            }
            ExprKind::Memory { func, args } => self.library_call(e, *func, args, dst),
            ExprKind::Sprintf {
                buffer,
                limit,
                format,
                args,
            } => self.sprintf(e, buffer, limit.as_deref(), format, args, dst),
            ExprKind::Builtin { func, args } => self.builtin(e, *func, args, dst),
            ExprKind::Printf { format, args } => {
                let base = self.free;
                let mut site_args = Vec::with_capacity(args.len());
                // One register per non-string argument, allocated in order, then filled
                // last argument first (gcc's order).
                let mut regs = Vec::with_capacity(args.len());
                for a in args {
                    match (&a.kind, a.ty) {
                        (ExprKind::StringLit(s), None) => site_args.push(SiteArg::Str(s.clone())),
                        (_, ty) => {
                            regs.push((self.alloc(), a));
                            site_args.push(site_arg(ty));
                        }
                    }
                }
                let top = self.free;
                for (r, a) in regs.into_iter().rev() {
                    self.expr(a, Some(r));
                    // Arguments must be contiguous: drop this one's temporaries.
                    self.free = top;
                }
                let p = self.site(Site::Printf {
                    format: format.clone(),
                    args: site_args,
                });
                self.at(e.span);
                let a = Reg(base.min(u32::from(u16::MAX)) as u16);
                // Make sure the window covers `a` even with no register arguments.
                self.max_regs = self.max_regs.max(base + 1);
                self.emit(Instr::Printf { a, p });
                self.free = base;
                match dst {
                    Some(d) if d != a => {
                        self.emit(Instr::Mov { a: d, b: a });
                        d
                    }
                    _ => a,
                }
            }
            ExprKind::Puts { text } => {
                let p = self.site(Site::Puts(text.clone()));
                let a = dst.unwrap_or_else(|| self.alloc());
                self.at(e.span);
                self.emit(Instr::Puts { a, p });
                a
            }
            ExprKind::Discard(inner) => {
                self.effect(inner);
                dst.unwrap_or(Reg(0))
            }
        }
    }

    /// `lhs op rhs` with the right operand evaluated first (see [`binary_rhs_first`]).
    pub(super) fn binary_rhs_first(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        ty: ScalarType,
        lhs: &Expr,
        rhs: &Expr,
        dst: Option<Reg>,
    ) -> Reg {
        let mark = self.free;
        let r = self.expr(rhs, None);
        let l = self.expr(lhs, None);
        self.free = mark;
        let d = dst.unwrap_or_else(|| self.alloc());
        self.at(e.span);
        self.emit(binary_instr(op, ty, d, l, r));
        d
    }

    /// Evaluates the two operands of a comparison, in gcc's order (see [`compare_rhs_first`]).
    pub(super) fn compare_operands(&mut self, lhs: &Expr, rhs: &Expr) -> (Reg, Reg) {
        if compare_rhs_first(lhs, rhs) {
            let r = self.expr(rhs, None);
            let l = self.expr(lhs, None);
            (l, r)
        } else {
            let l = self.expr(lhs, None);
            let r = self.expr(rhs, None);
            (l, r)
        }
    }

    /// After computing into `d`, moves to the requested destination if it differs.
    pub(super) fn finish(&mut self, d: Reg, dst: Option<Reg>) -> Reg {
        match dst {
            Some(x) if x != d => {
                self.emit(Instr::Mov { a: x, b: d });
                x
            }
            _ => d,
        }
    }

    pub(super) fn is_local_reg(&self, r: Reg) -> bool {
        u32::from(r.0) < self.func.locals.len() as u32
    }

    /// Materialises a condition-like expression (`<`, `&&`, `||`, `!`) as 0 or 1.
    pub(super) fn bool_value(&mut self, e: &Expr, dst: Option<Reg>) -> Reg {
        // A plain comparison of two values has a direct instruction.
        if let ExprKind::Compare {
            op,
            operand_ty,
            lhs,
            rhs,
        } = &e.kind
        {
            let mark = self.free;
            let (l, r) = self.compare_operands(lhs, rhs);
            self.free = mark;
            let d = dst.unwrap_or_else(|| self.alloc());
            self.at(e.span);
            self.emit(compare_instr(*op, *operand_ty, d, l, r));
            return d;
        }
        if let ExprKind::Unary {
            op: UnaryOp::Not,
            operand,
        } = &e.kind
        {
            if !matches!(
                operand.kind,
                ExprKind::Compare { .. } | ExprKind::LogicalAnd { .. } | ExprKind::LogicalOr { .. }
            ) {
                let mark = self.free;
                let src = self.expr(operand, None);
                self.free = mark;
                let d = dst.unwrap_or_else(|| self.alloc());
                self.at(e.span);
                if operand.ty.is_some_and(ScalarType::is_floating) {
                    self.emit(Instr::IsZeroF { a: d, b: src });
                } else {
                    self.emit(Instr::IsZero { a: d, b: src });
                }
                return d;
            }
        }
        // General case: branches, then 1 or 0 written after every operand was read (so `d`
        // may be a local).
        let d = dst.unwrap_or_else(|| self.alloc());
        let mut to_false = Vec::new();
        self.cond_jump(e, false, &mut to_false);
        self.at(e.span);
        self.emit(Instr::LoadI { a: d, imm: 1 });
        let end = self.jump();
        let here = self.here();
        self.patch_all(to_false, here);
        self.emit(Instr::LoadI { a: d, imm: 0 });
        let here = self.here();
        self.patch(end, here);
        self.finish(d, dst)
    }

    /// Converts the value in `src` from `from` to `to`, into `dst` (or a register of its choice).
    pub(super) fn convert(
        &mut self,
        src: Reg,
        from: ScalarType,
        to: ScalarType,
        dst: Option<Reg>,
    ) -> Reg {
        use ScalarType::*;
        if is_noop_conversion(from, to) {
            return self.finish(src, dst);
        }
        let mk: fn(Reg, Reg) -> Instr = match (from, to) {
            (Double | Float, Bool) => |a, b| Instr::ToBoolF { a, b },
            (Double | Float, Char | UChar | Short | UShort) => {
                // Through `int`, as gcc's x86-64 code (cvttsd2si, then truncation).
                let d = dst.unwrap_or_else(|| self.alloc());
                self.emit(Instr::F2I32 { a: d, b: src });
                self.emit(narrow_instr(to, d, d));
                return d;
            }
            (Double | Float, Int) => |a, b| Instr::F2I32 { a, b },
            (Double | Float, UInt) => |a, b| Instr::F2U32 { a, b },
            (Double | Float, Long) => |a, b| Instr::F2I64 { a, b },
            (Double | Float, ULong) => |a, b| Instr::F2U64 { a, b },
            (Double, Float) => |a, b| Instr::F2F32 { a, b },
            (ULong, Double) => |a, b| Instr::U2F { a, b },
            (_, Double) => |a, b| Instr::I2F { a, b },
            (ULong, Float) => |a, b| Instr::U2F32 { a, b },
            (_, Float) => |a, b| Instr::I2F32 { a, b },
            (_, Bool) => |a, b| Instr::ToBool { a, b },
            (_, Char) => |a, b| Instr::Sext8 { a, b },
            (_, UChar) => |a, b| Instr::Zext8 { a, b },
            (_, Short) => |a, b| Instr::Sext16 { a, b },
            (_, UShort) => |a, b| Instr::Zext16 { a, b },
            (_, Int) => |a, b| Instr::Sext32 { a, b },
            (_, UInt) => |a, b| Instr::Zext32 { a, b },
            // Not reached: `is_noop_conversion` covers every integer or pointer to a 64-bit
            // integer or pointer (the checker converts no floating value to a pointer).
            (_, Long | ULong | Ptr) => |a, b| Instr::Mov { a, b },
        };
        let d = dst.unwrap_or_else(|| self.alloc());
        self.emit(mk(d, src));
        d
    }
}

/// Loads a constant node (normally already handled by `const_bits` in `expr`).
pub(super) fn load_const(c: &mut FnCompiler<'_>, e: &Expr, dst: Option<Reg>) -> Reg {
    let d = dst.unwrap_or_else(|| c.alloc());
    let bits = match &e.kind {
        ExprKind::IntConst(v) => *v as u64,
        ExprKind::DoubleConst(d) => d.to_bits(),
        _ => 0,
    };
    c.load_bits(d, bits);
    d
}
