//! Expressions: values into registers, conditions into branches, places (loads and stores).

use super::{is_unsigned, place_local, FnCompiler, Patch};
use crate::builtins::Builtin;
use crate::bytecode::{Addr, Instr, MathFn, Pc, Reg, Site, SiteArg};
use crate::hir::{Arg, BinaryOp, CompareOp, Expr, ExprKind, Place, ScalarType, UnaryOp};

/// A place resolved to where its value lives.
#[derive(Clone, Copy)]
pub(super) enum Loc {
    /// A register (scalar local).
    Reg(Reg),
    /// A global scalar: its byte address and type.
    Global(u32, ScalarType),
    /// An array element: reference register, index register and element type.
    Elem(Reg, Reg, ScalarType),
    /// Memory through a pointer: the pointer's register, a byte offset and the type.
    Ptr(Reg, i16, ScalarType),
    /// A bit-field: its storage unit through a pointer (register, offset, unit type), its
    /// first bit and its width.
    Bits(Reg, i16, ScalarType, u32, u32),
}

impl FnCompiler<'_> {
    // ---- constants ----

    /// The value of a constant expression (integer constants and conversions of them), as a
    /// 64-bit pattern of the expression's type.
    pub(super) fn const_bits(&self, e: &Expr) -> Option<u64> {
        match &e.kind {
            ExprKind::IntConst(v) => Some(*v as u64),
            ExprKind::DoubleConst(d) => Some(d.to_bits()),
            ExprKind::Convert { expr, to } => {
                let from = expr.ty?;
                let bits = self.const_bits(expr)?;
                Some(convert_const(bits, from, *to))
            }
            ExprKind::Unary { op, operand } => {
                let t = e.ty?;
                let v = self.const_bits(operand)?;
                Some(match (op, t) {
                    (UnaryOp::Neg, t) if t.is_floating() => (-f64::from_bits(v)).to_bits(),
                    (UnaryOp::Neg, t) => t.wrap((v as i64).wrapping_neg()) as u64,
                    (UnaryOp::BitNot, t) => t.wrap(!(v as i64)) as u64,
                    (UnaryOp::Not, _) => u64::from(!self.const_truth(operand)?),
                })
            }
            ExprKind::Binary { op, lhs, rhs } => {
                fold_binary(*op, e.ty?, self.const_bits(lhs)?, self.const_bits(rhs)?)
            }
            // gcc folds math calls on constant arguments at compile time (correctly rounded
            // where its rules allow); `eval_constant` reproduces that.
            ExprKind::Builtin { func, args } if func.is_math() => {
                let vals = args
                    .iter()
                    .map(|a| self.const_bits(a).map(f64::from_bits))
                    .collect::<Option<Vec<f64>>>()?;
                func.eval_constant(&vals).map(f64::to_bits)
            }
            _ => None,
        }
    }

    /// The value of an integer constant expression, as a signed 64-bit number.
    pub(super) fn int_const(&self, e: &Expr) -> Option<i64> {
        if e.ty.is_some_and(|t| t.is_integer()) {
            self.const_bits(e).map(|b| b as i64)
        } else {
            None
        }
    }

    /// Whether a condition is a constant, and which.
    pub(super) fn const_truth(&self, e: &Expr) -> Option<bool> {
        let bits = self.const_bits(e)?;
        Some(if e.ty?.is_floating() {
            f64::from_bits(bits) != 0.0
        } else {
            bits != 0
        })
    }

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
    fn binary_rhs_first(
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
    fn compare_operands(&mut self, lhs: &Expr, rhs: &Expr) -> (Reg, Reg) {
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
    fn finish(&mut self, d: Reg, dst: Option<Reg>) -> Reg {
        match dst {
            Some(x) if x != d => {
                self.emit(Instr::Mov { a: x, b: d });
                x
            }
            _ => d,
        }
    }

    fn is_local_reg(&self, r: Reg) -> bool {
        u32::from(r.0) < self.func.locals.len() as u32
    }

    /// Materialises a condition-like expression (`<`, `&&`, `||`, `!`) as 0 or 1.
    fn bool_value(&mut self, e: &Expr, dst: Option<Reg>) -> Reg {
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

    // ---- places ----

    /// Resolves a place, computing array references and indices into registers.
    fn place(&mut self, place: &Place) -> Loc {
        match place {
            Place::Local(l) => Loc::Reg(self.local_reg[l.index()]),
            Place::Global(g) => Loc::Global(self.global_addrs[g.index()], self.place_type(place)),
            Place::Element { array, indices } => {
                let (prefix, last) = indices.split_at(indices.len().saturating_sub(1));
                let aref = self.sub_array(*array, prefix, None);
                let i = match last.first() {
                    Some(idx) => self.expr(idx, None),
                    None => self.alloc(),
                };
                Loc::Elem(aref, i, self.place_type(place))
            }
            Place::Deref { ptr, offset, ty } => {
                let p = self.expr(ptr, None);
                match i16::try_from(*offset) {
                    Ok(imm) => Loc::Ptr(p, imm, *ty),
                    Err(_) => {
                        let q = self.alloc();
                        self.pointer_step(q, p, *offset);
                        Loc::Ptr(q, 0, *ty)
                    }
                }
            }
            Place::BitField {
                ptr,
                offset,
                unit,
                bit_offset,
                width,
            } => {
                let mut p = self.expr(ptr, None);
                let imm = match i16::try_from(*offset) {
                    Ok(imm) => imm,
                    Err(_) => {
                        let q = self.alloc();
                        self.pointer_step(q, p, *offset);
                        p = q;
                        0
                    }
                };
                Loc::Bits(p, imm, *unit, *bit_offset, *width)
            }
        }
    }

    fn place_type(&self, place: &Place) -> ScalarType {
        match place {
            Place::Local(l) => self.func.local(*l).ty.elem(),
            Place::Global(g) => self.program.global(*g).ty.elem(),
            Place::Element { array, .. } => match array {
                crate::hir::ArrayBase::Local(l) => self.func.local(*l).ty.elem(),
                crate::hir::ArrayBase::Global(g) => self.program.global(*g).ty.elem(),
            },
            Place::Deref { ty, .. } => *ty,
            Place::BitField { unit, .. } => *unit,
        }
    }

    fn load(&mut self, loc: Loc, d: Reg) {
        match loc {
            Loc::Reg(r) => {
                if r != d {
                    self.emit(Instr::Mov { a: d, b: r });
                }
            }
            Loc::Global(addr, ty) => {
                self.emit(get_global(ty, d, Addr(addr)));
            }
            Loc::Elem(a, i, ty) => {
                self.emit(load_elem(ty, d, a, i));
            }
            Loc::Ptr(p, imm, ty) => {
                self.emit(load_ptr(ty, d, p, imm));
            }
            Loc::Bits(p, imm, unit, bit, width) => {
                self.emit(load_ptr(unit, d, p, imm));
                self.extract_bits(d, unit, bit, width);
            }
        }
    }

    /// `d` holds a bit-field's storage unit: leaves the field's value, sign-extended for a
    /// signed unit (64-bit shifts: up to the top, then down).
    fn extract_bits(&mut self, d: Reg, unit: ScalarType, bit: u32, width: u32) {
        let up = 64 - bit - width;
        if up > 0 {
            self.emit(Instr::ShlI64 {
                a: d,
                b: d,
                imm: up as i16,
            });
        }
        let down = (64 - width) as i16;
        if down > 0 {
            self.emit(if unit.is_signed() {
                Instr::SarI {
                    a: d,
                    b: d,
                    imm: down,
                }
            } else {
                Instr::ShrI {
                    a: d,
                    b: d,
                    imm: down,
                }
            });
        }
    }

    pub(super) fn store(&mut self, loc: Loc, v: Reg) {
        match loc {
            Loc::Reg(r) => {
                if r != v {
                    self.emit(Instr::Mov { a: r, b: v });
                }
            }
            Loc::Global(addr, ty) => {
                self.emit(set_global(ty, v, Addr(addr)));
            }
            Loc::Elem(a, i, ty) => {
                self.emit(store_elem(ty, v, a, i));
            }
            Loc::Ptr(p, imm, ty) => {
                self.emit(store_ptr(ty, v, p, imm));
            }
            Loc::Bits(p, imm, unit, bit, width) => {
                // unit := (unit & !mask) | ((v << (64 - width)) >>u (64 - width - bit)).
                let u = self.alloc();
                self.emit(load_ptr(unit, u, p, imm));
                let mask = (u64::MAX >> (64 - width)) << bit;
                let k = self.alloc();
                self.load_bits(k, !mask);
                self.emit(Instr::And { a: u, b: u, c: k });
                let t = self.alloc();
                self.emit(Instr::ShlI64 {
                    a: t,
                    b: v,
                    imm: (64 - width) as i16,
                });
                let down = (64 - width - bit) as i16;
                if down > 0 {
                    self.emit(Instr::ShrI {
                        a: t,
                        b: t,
                        imm: down,
                    });
                }
                self.emit(Instr::Or { a: u, b: u, c: t });
                self.emit(store_ptr(unit, u, p, imm));
            }
        }
    }

    /// `place = value`; `used` says whether the expression's value is needed.
    fn assign(
        &mut self,
        e: &Expr,
        place: &Place,
        value: &Expr,
        dst: Option<Reg>,
        used: bool,
    ) -> Reg {
        if let Some(l) = place_local(place) {
            let r = self.local_reg[l.index()];
            self.expr(value, Some(r));
            return self.finish(r, dst);
        }
        if let Place::BitField { .. } = place {
            let v = self.expr(value, None);
            let loc = self.place(place);
            self.at(e.span);
            self.store(loc, v);
            if !used {
                return v;
            }
            // The assignment's value is the field's new value (truncated to its width).
            let d = dst.unwrap_or_else(|| self.alloc());
            self.load(loc, d);
            return d;
        }
        // A small constant stored into an array element, value unused: `StEI*` (a `float`
        // only for 0.0, whose binary32 bits are the immediate's).
        if !used && matches!(place, Place::Element { .. }) {
            let ty = self.place_type(place);
            if let Some(imm) = self
                .const_bits(value)
                .and_then(|b| i16::try_from(b as i64).ok())
                .filter(|&imm| ty != ScalarType::Float || imm == 0)
            {
                if let Loc::Elem(a, i, ty) = self.place(place) {
                    self.at(e.span);
                    self.emit(store_elem_imm(ty, imm, a, i));
                    return a;
                }
            }
        }
        // gcc keeps a call assigned to an element as the assignment's own statement: the
        // call's arguments, then the indices, then the call (rule 3 of the module docs).
        if let Place::Element { indices, .. } = place {
            // The left operands of commas in the value come first.
            let mut last = value;
            while let ExprKind::Comma { rhs, .. } = &last.kind {
                last = rhs;
            }
            if matches!(last.kind, ExprKind::Call { .. } | ExprKind::Builtin { .. })
                && !indices.iter().all(is_unobservable)
            {
                let mut v = value;
                while let ExprKind::Comma { lhs, rhs } = &v.kind {
                    self.effect(lhs);
                    v = rhs;
                }
                return self.assign_call(e, place, last, dst);
            }
        }
        // Otherwise the value first, then the place's indices.
        let v = self.expr(value, None);
        let indices_write = match place {
            Place::Element { indices, .. } => indices.iter().any(writes_locals),
            _ => false,
        };
        let v = if indices_write && self.is_local_reg(v) {
            // Keep the stored value even if evaluating the indices changes that local.
            let t = self.alloc();
            self.emit(Instr::Mov { a: t, b: v });
            t
        } else {
            v
        };
        let loc = self.place(place);
        self.at(e.span);
        self.store(loc, v);
        self.finish(v, dst)
    }

    /// `a[i]..[k] = call(args)` in gcc's order: the arguments, the indices, the call, the store.
    fn assign_call(&mut self, e: &Expr, place: &Place, value: &Expr, dst: Option<Reg>) -> Reg {
        let v = match &value.kind {
            ExprKind::Call { func, args } => {
                // The element's reference and index live below the callee's window.
                let aref = self.alloc();
                let idx = self.alloc();
                let base = self.free;
                self.call_args(value, args);
                let top = self.free;
                let loc = self.place_into(place, aref, idx);
                self.free = top;
                let a = Reg(base.min(u32::from(u16::MAX)) as u16);
                self.max_regs = self.max_regs.max(base + 1);
                self.at(value.span);
                self.emit(Instr::Call {
                    a,
                    f: crate::bytecode::FuncIdx(func.0 as u16),
                });
                self.free = base + 1;
                self.at(e.span);
                self.store(loc, a);
                a
            }
            ExprKind::Builtin { func, args } => {
                let regs = self.builtin_args(args);
                let loc = self.place(place);
                let d = self.alloc();
                self.builtin_emit(value, *func, &regs, Some(d));
                self.at(e.span);
                self.store(loc, d);
                d
            }
            _ => {
                let v = self.expr(value, None);
                let loc = self.place(place);
                self.at(e.span);
                self.store(loc, v);
                v
            }
        };
        self.finish(v, dst)
    }

    /// Resolves an element place into the given registers (reference of the innermost row,
    /// unless it is the array's own register, and index), so that they survive a call whose
    /// window lies above them.
    fn place_into(&mut self, place: &Place, aref: Reg, idx: Reg) -> Loc {
        let Place::Element { array, indices } = place else {
            return self.place(place);
        };
        let mark = self.free;
        let (prefix, last) = indices.split_at(indices.len().saturating_sub(1));
        let a = if prefix.is_empty() {
            self.array_base(*array).0
        } else {
            self.sub_array(*array, prefix, Some(aref))
        };
        if let Some(i) = last.first() {
            self.expr(i, Some(idx));
        }
        self.free = mark;
        Loc::Elem(a, idx, self.place_type(place))
    }

    fn compound(
        &mut self,
        e: &Expr,
        place: &Place,
        op: BinaryOp,
        op_ty: ScalarType,
        value: &Expr,
        dst: Option<Reg>,
    ) -> Reg {
        let pty = self.place_type(place);
        if op_ty == ScalarType::Ptr {
            return self.pointer_compound(e, place, op, value, dst);
        }
        // gcc evaluates a right operand with side effects before the place (rule 4 of the
        // module docs); for a scalar local the order cannot be observed.
        let pre = if place_local(place).is_none() && has_side_effects(value) {
            let v = self.expr(value, None);
            let indices_write = match place {
                Place::Element { indices, .. } => indices.iter().any(writes_locals),
                _ => false,
            };
            Some(if indices_write && self.is_local_reg(v) {
                let t = self.alloc();
                self.emit(Instr::Mov { a: t, b: v });
                t
            } else {
                v
            })
        } else {
            None
        };
        let loc = self.place(place);
        // Current value, converted to the operation's type.
        let cur = match loc {
            Loc::Reg(r) => r,
            _ => {
                let t = self.alloc();
                self.at(e.span);
                self.load(loc, t);
                t
            }
        };
        let mark = self.free;
        let lhs = if pty == op_ty {
            cur
        } else {
            self.at(e.span);
            self.convert(cur, pty, op_ty, None)
        };
        let imm = match (op, self.int_const(value).filter(|_| pre.is_none())) {
            (BinaryOp::Add, Some(c)) => i16::try_from(c).ok(),
            (BinaryOp::Sub, Some(c)) => c.checked_neg().and_then(|c| i16::try_from(c).ok()),
            _ => None,
        }
        .filter(|_| op_ty.is_integer());
        let result_reg = if pty == op_ty {
            match loc {
                Loc::Reg(r) => r,
                _ => cur,
            }
        } else {
            self.alloc()
        };
        match imm {
            Some(imm) => {
                self.at(e.span);
                let ins = match op_ty {
                    ScalarType::UInt => Instr::AddIU32 {
                        a: result_reg,
                        b: lhs,
                        imm,
                    },
                    ScalarType::Long | ScalarType::ULong => Instr::AddI64 {
                        a: result_reg,
                        b: lhs,
                        imm,
                    },
                    _ => Instr::AddI32 {
                        a: result_reg,
                        b: lhs,
                        imm,
                    },
                };
                self.emit(ins);
            }
            None => match self
                .int_const(value)
                .filter(|_| pre.is_none())
                .and_then(|c| immediate_form(op, op_ty, c))
            {
                Some(mk) => {
                    self.at(e.span);
                    self.emit(mk(result_reg, lhs));
                }
                None => {
                    let r = match pre {
                        Some(r) => r,
                        None => self.expr(value, None),
                    };
                    self.at(e.span);
                    self.emit(binary_instr(op, op_ty, result_reg, lhs, r));
                }
            },
        }
        // Operand temporaries are dead; `cur`, the place's registers and the local are below.
        self.free = mark;
        let stored = if pty == op_ty {
            result_reg
        } else {
            self.at(e.span);
            match loc {
                Loc::Reg(r) => self.convert(result_reg, op_ty, pty, Some(r)),
                _ => self.convert(result_reg, op_ty, pty, Some(cur)),
            }
        };
        self.at(e.span);
        if !matches!(loc, Loc::Reg(_)) {
            self.store(loc, stored);
        }
        if let Loc::Bits(..) = loc {
            // The value is the field's new value: truncated to its width.
            self.load(loc, stored);
        }
        self.finish(stored, dst)
    }

    fn inc_dec(
        &mut self,
        e: &Expr,
        place: &Place,
        (increment, prefix, scale): (bool, bool, i64),
        dst: Option<Reg>,
    ) -> Reg {
        let ty = self.place_type(place);
        let loc = self.place(place);
        self.at(e.span);
        let cur = match loc {
            Loc::Reg(r) => r,
            _ => {
                let t = self.alloc();
                self.load(loc, t);
                t
            }
        };
        // The old value of a postfix form (`effect` asks for the prefix form when the value
        // is unused).
        let old = if !prefix {
            let t = dst
                .filter(|d| !self.is_local_reg(*d))
                .unwrap_or_else(|| self.alloc());
            self.emit(Instr::Mov { a: t, b: cur });
            Some(t)
        } else {
            None
        };
        let imm: i16 = if increment { 1 } else { -1 };
        match ty {
            ScalarType::Double | ScalarType::Float => {
                let one = self.alloc();
                // 1.0 as a float register is the double 1.0.
                let bits = if increment { 1.0f64 } else { -1.0f64 }.to_bits();
                self.load_bits(one, bits);
                let (a, b, c) = (cur, cur, one);
                self.emit(if ty == ScalarType::Float {
                    Instr::AddF32 { a, b, c }
                } else {
                    Instr::AddF { a, b, c }
                });
            }
            ScalarType::Int => {
                self.emit(Instr::AddI32 {
                    a: cur,
                    b: cur,
                    imm,
                });
            }
            ScalarType::UInt => {
                self.emit(Instr::AddIU32 {
                    a: cur,
                    b: cur,
                    imm,
                });
            }
            ScalarType::Ptr => {
                let step = if increment { scale } else { -scale };
                self.pointer_step(cur, cur, step);
            }
            ScalarType::Long | ScalarType::ULong => {
                self.emit(Instr::AddI64 {
                    a: cur,
                    b: cur,
                    imm,
                });
            }
            // The types narrower than `int`: add in 64 bits, then convert back (for `_Bool`,
            // `!= 0`: `b++` gives 1, `b--` flips it).
            ScalarType::Bool
            | ScalarType::Char
            | ScalarType::UChar
            | ScalarType::Short
            | ScalarType::UShort => {
                self.emit(Instr::AddI64 {
                    a: cur,
                    b: cur,
                    imm,
                });
                self.emit(narrow_instr(ty, cur, cur));
            }
        }
        if !matches!(loc, Loc::Reg(_)) {
            self.store(loc, cur);
        }
        if let (Loc::Bits(..), None) = (loc, old) {
            // A prefix form's value is the field's new value: truncated to its width.
            self.load(loc, cur);
        }
        match old {
            Some(t) => self.finish(t, dst),
            None => self.finish(cur, dst),
        }
    }

    // ---- pointers ----

    /// Loads into `d` the pointer to the start of a variable in memory: a local's frame
    /// object, or a global.
    fn object_pointer(&mut self, base: crate::hir::ArrayBase, d: Reg) {
        match base {
            // An array parameter: its array reference, converted (the object it is in is
            // found at run time).
            crate::hir::ArrayBase::Local(l)
                if matches!(self.func.local(l).ty, crate::hir::Type::ArrayRef { .. }) =>
            {
                let r = self.local_reg[l.index()];
                self.emit(Instr::ArrToPtr { a: d, b: r });
            }
            crate::hir::ArrayBase::Local(l) => match self.frame_obj[l.index()] {
                Some(r) => {
                    if r != d {
                        self.emit(Instr::Mov { a: d, b: r });
                    }
                }
                None => unreachable!("addressed locals have frame objects"),
            },
            crate::hir::ArrayBase::Global(g) => {
                let p = self.statics.borrow().global(g);
                self.load_bits(d, p);
            }
        }
    }

    /// `&a[i]..[j]` (a prefix of the indices): the array's pointer moved by the elements
    /// and rows before it.
    fn element_address(
        &mut self,
        array: crate::hir::ArrayBase,
        indices: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let (elem, dims) = match array {
            crate::hir::ArrayBase::Local(l) => match &self.func.local(l).ty {
                crate::hir::Type::Array { elem, dims } => (*elem, dims.clone()),
                // An array parameter: its first dimension is unknown (only its inner ones
                // scale the indices).
                crate::hir::Type::ArrayRef { elem, inner } => (
                    *elem,
                    std::iter::once(1).chain(inner.iter().copied()).collect(),
                ),
                t => (t.elem(), vec![1]),
            },
            crate::hir::ArrayBase::Global(g) => match &self.program.global(g).ty {
                crate::hir::Type::Array { elem, dims } => (*elem, dims.clone()),
                t => (t.elem(), vec![1]),
            },
        };
        let d = dst.unwrap_or_else(|| self.alloc());
        let mark = self.free;
        let base = self.alloc();
        self.object_pointer(array, base);
        let mut stride: i64 =
            dims.iter().map(|&n| i64::from(n)).product::<i64>() * i64::from(elem.bytes());
        let mut acc: Option<Reg> = None;
        let mut constant: i64 = 0;
        for (k, index) in indices.iter().enumerate() {
            stride /= i64::from(dims[k].max(1));
            if let Some(c) = self.int_const(index) {
                constant = constant.wrapping_add(c.wrapping_mul(stride));
                continue;
            }
            let i = self.expr(index, None);
            let bytes = self.scaled(i, stride);
            acc = Some(match acc {
                None => bytes,
                Some(a) => {
                    self.emit(Instr::Add64 { a, b: a, c: bytes });
                    a
                }
            });
        }
        match acc {
            Some(a) => {
                self.emit(Instr::PtrAdd {
                    a: base,
                    b: base,
                    c: a,
                });
                self.pointer_step(d, base, constant);
            }
            None => self.pointer_step(d, base, constant),
        }
        self.free = mark.max(u32::from(d.0) + 1).min(self.free);
        d
    }

    /// `d := p` moved by `bytes` (a constant).
    pub(super) fn pointer_step(&mut self, d: Reg, p: Reg, bytes: i64) {
        match i16::try_from(bytes) {
            Ok(0) if d == p => {}
            Ok(0) => {
                self.emit(Instr::Mov { a: d, b: p });
            }
            Ok(imm) => {
                self.emit(Instr::PtrAddI { a: d, b: p, imm });
            }
            Err(_) => {
                let k = self.alloc();
                self.load_bits(k, bytes as u64);
                self.emit(Instr::PtrAdd { a: d, b: p, c: k });
            }
        }
    }

    /// The register holding `i * scale` (`i` a `long` in a register; a new temporary unless
    /// `scale` is 1).
    fn scaled(&mut self, i: Reg, scale: i64) -> Reg {
        if scale == 1 {
            return i;
        }
        let t = self.alloc();
        match i16::try_from(scale) {
            Ok(imm) => {
                self.emit(Instr::MulI64 { a: t, b: i, imm });
            }
            Err(_) => {
                self.load_bits(t, scale as u64);
                self.emit(Instr::Mul64 { a: t, b: i, c: t });
            }
        }
        t
    }

    /// `p += n` or `p -= n` on a pointer place (`value` is the step in bytes, a `long`).
    fn pointer_compound(
        &mut self,
        e: &Expr,
        place: &Place,
        op: BinaryOp,
        value: &Expr,
        dst: Option<Reg>,
    ) -> Reg {
        let v = self.expr(value, None);
        let loc = self.place(place);
        self.at(e.span);
        let cur = match loc {
            Loc::Reg(r) => r,
            _ => {
                let t = self.alloc();
                self.load(loc, t);
                t
            }
        };
        let step = if op == BinaryOp::Sub {
            let t = self.alloc();
            self.emit(Instr::Neg64 { a: t, b: v });
            t
        } else {
            v
        };
        self.emit(Instr::PtrAdd {
            a: cur,
            b: cur,
            c: step,
        });
        if !matches!(loc, Loc::Reg(_)) {
            self.store(loc, cur);
        }
        self.finish(cur, dst)
    }

    // ---- calls ----

    fn call(&mut self, e: &Expr, func: crate::hir::FuncId, args: &[Arg], dst: Option<Reg>) -> Reg {
        // If the destination is the temporary on top of the register stack, the callee's
        // window can start there: the result then lands in place, without a move.
        if let Some(d) = dst {
            if u32::from(d.0) + 1 == self.free && !self.is_local_reg(d) {
                self.free = u32::from(d.0);
            }
        }
        let base = self.free;
        self.call_args(e, args);
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::Call {
            a,
            f: crate::bytecode::FuncIdx(func.0 as u16),
        });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// A call through a function pointer: the arguments as for a direct call, then the
    /// pointer above them; `CallInd` checks at run time that it points to a function with as
    /// many parameters.
    fn call_indirect(&mut self, e: &Expr, callee: &Expr, args: &[Arg], dst: Option<Reg>) -> Reg {
        if let Some(d) = dst {
            if u32::from(d.0) + 1 == self.free && !self.is_local_reg(d) {
                self.free = u32::from(d.0);
            }
        }
        let base = self.free;
        self.call_args(e, args);
        let f = self.expr(callee, None);
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::CallInd {
            a,
            b: f,
            n: args.len().min(usize::from(u16::MAX)) as u16,
        });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// A library function on memory: its arguments in consecutive registers (evaluated last
    /// first, as gcc does), the result in the first.
    fn library_call(
        &mut self,
        e: &Expr,
        func: crate::builtins::memory::MemFn,
        args: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let base = self.free;
        self.consecutive(args, |c, a, r| {
            c.expr(a, Some(r));
        });
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::Lib { f: func, a });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// Evaluates `items` into consecutive registers from the top of the register stack, last
    /// first (gcc's order for arguments, see the module docs), each by `eval` into its
    /// register, and leaves `free` just above them.
    fn consecutive<T>(&mut self, items: &[T], mut eval: impl FnMut(&mut Self, &T, Reg)) {
        let base = self.free;
        for _ in items {
            self.alloc();
        }
        let top = self.free;
        for (k, item) in items.iter().enumerate().rev() {
            let r = Reg((base as usize + k).min(usize::from(u16::MAX)) as u16);
            eval(self, item, r);
            // Temporaries above the registers are dead now.
            self.free = top;
        }
    }

    /// `sprintf(buffer, format, args...)` or `snprintf(buffer, limit, format, args...)`: the
    /// buffer, the limit and the non-literal arguments in consecutive registers, evaluated
    /// last first; the count of characters in the first.
    fn sprintf(
        &mut self,
        e: &Expr,
        buffer: &Expr,
        limit: Option<&Expr>,
        format: &[crate::printf_format::Piece],
        args: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let base = self.free;
        let mut site_args = Vec::with_capacity(args.len());
        let mut values: Vec<&Expr> = vec![buffer];
        values.extend(limit);
        for a in args {
            match (&a.kind, a.ty) {
                (ExprKind::StringLit(s), None) => site_args.push(SiteArg::Str(s.clone())),
                (_, ty) => {
                    values.push(a);
                    site_args.push(site_arg(ty));
                }
            }
        }
        self.consecutive(&values, |c, a, r| {
            c.expr(a, Some(r));
        });
        let p = self.site(Site::Sprintf {
            bounded: limit.is_some(),
            format: format.to_vec(),
            args: site_args,
        });
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::Sprintf { a, p });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// Evaluates a call's arguments into consecutive registers from the top of the register
    /// stack, last argument first (gcc's order, see the module docs), and leaves `free` just
    /// above them.
    fn call_args(&mut self, call: &Expr, args: &[Arg]) {
        self.consecutive(args, |c, a, r| match a {
            Arg::Scalar(x) => {
                c.expr(x, Some(r));
            }
            Arg::Array { base: ab, indices } => {
                c.at(call.span);
                c.sub_array(*ab, indices, Some(r));
            }
            Arg::FromPointer { ptr, stride } => {
                let p = c.expr(ptr, None);
                let s = c.alloc();
                c.load_bits(s, *stride);
                c.at(call.span);
                c.emit(Instr::PtrToArr { a: r, b: p, c: s });
            }
        });
    }

    fn builtin(&mut self, e: &Expr, func: Builtin, args: &[Expr], dst: Option<Reg>) -> Reg {
        let mark = self.free;
        let regs = self.builtin_args(args);
        self.free = mark;
        self.builtin_emit(e, func, &regs, dst)
    }

    /// Evaluates a library function's arguments, last first (as gcc does); the registers
    /// holding them stay allocated.
    fn builtin_args(&mut self, args: &[Expr]) -> Vec<Reg> {
        let mut regs: Vec<Reg> = args.iter().rev().map(|a| self.expr(a, None)).collect();
        regs.reverse();
        regs
    }

    /// Emits the instruction of a library function whose arguments are in `regs`.
    fn builtin_emit(&mut self, e: &Expr, func: Builtin, regs: &[Reg], dst: Option<Reg>) -> Reg {
        let arg = |i: usize| regs.get(i).copied().unwrap_or(Reg(0));
        self.at(e.span);
        if func == Builtin::Exit {
            self.emit(Instr::Exit { a: arg(0) });
            return dst.unwrap_or(arg(0));
        }
        let d = dst.unwrap_or_else(|| self.alloc());
        let (a, b, c) = (d, arg(0), arg(1));
        let ins = match func {
            Builtin::Putchar => Instr::Putchar { a, b },
            Builtin::Rand => Instr::Rand { a },
            Builtin::Srand => Instr::Srand { a: b },
            Builtin::Abs => Instr::Abs32 { a, b },
            Builtin::Labs => Instr::Abs64 { a, b },
            Builtin::Sqrt => Instr::Sqrt { a, b },
            // The absolute value of a float register is exactly `fabsf`'s.
            Builtin::Fabs | Builtin::Fabsf => Instr::Fabs { a, b },
            Builtin::Exit => Instr::Exit { a: b },
            _ => match MathFn::of(func) {
                Some(f) if f.is_binary() => Instr::Math2 { f, a, b, c },
                Some(f) => Instr::Math1 { f, a, b },
                None => unreachable!("every math builtin has a MathFn or its own instruction"),
            },
        };
        self.emit(ins);
        d
    }

    // ---- conditions ----

    /// Emits code that jumps (via `patches`) when `e`'s truth equals `jump_if`, and falls
    /// through otherwise.
    pub(super) fn cond_jump(&mut self, e: &Expr, jump_if: bool, patches: &mut Vec<Patch>) {
        if let Some(truth) = self.const_truth(e) {
            if truth == jump_if {
                patches.push(self.jump());
            }
            return;
        }
        match &e.kind {
            ExprKind::LogicalAnd { lhs, rhs } => {
                if jump_if {
                    let mut skip = Vec::new();
                    self.cond_jump(lhs, false, &mut skip);
                    self.cond_jump(rhs, true, patches);
                    let here = self.here();
                    self.patch_all(skip, here);
                } else {
                    self.cond_jump(lhs, false, patches);
                    self.cond_jump(rhs, false, patches);
                }
            }
            ExprKind::LogicalOr { lhs, rhs } => {
                if jump_if {
                    self.cond_jump(lhs, true, patches);
                    self.cond_jump(rhs, true, patches);
                } else {
                    let mut skip = Vec::new();
                    self.cond_jump(lhs, true, &mut skip);
                    self.cond_jump(rhs, false, patches);
                    let here = self.here();
                    self.patch_all(skip, here);
                }
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => self.cond_jump(operand, !jump_if, patches),
            ExprKind::Comma { lhs, rhs } => {
                self.effect(lhs);
                self.cond_jump(rhs, jump_if, patches);
            }
            ExprKind::Compare {
                op,
                operand_ty,
                lhs,
                rhs,
            } => self.compare_jump(e, *op, *operand_ty, lhs, rhs, jump_if, patches),
            _ => {
                let mark = self.free;
                let r = self.expr(e, None);
                self.at(e.span);
                let p = if e.ty.is_some_and(ScalarType::is_floating) {
                    let z = self.alloc();
                    self.emit(Instr::LoadI { a: z, imm: 0 });
                    if jump_if {
                        self.emit(Instr::JNeF {
                            a: r,
                            b: z,
                            t: Pc(0),
                        })
                    } else {
                        self.emit(Instr::JEqF {
                            a: r,
                            b: z,
                            t: Pc(0),
                        })
                    }
                } else if jump_if {
                    self.emit(Instr::Jnz { a: r, t: Pc(0) })
                } else {
                    self.emit(Instr::Jz { a: r, t: Pc(0) })
                };
                self.free = mark;
                patches.push(p);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn compare_jump(
        &mut self,
        e: &Expr,
        op: CompareOp,
        ty: ScalarType,
        lhs: &Expr,
        rhs: &Expr,
        jump_if: bool,
        patches: &mut Vec<Patch>,
    ) {
        let mark = self.free;
        // Integers: jumping on false is jumping on the negated comparison.
        let int_op = if jump_if { op } else { negate(op) };
        let signed_ok = !is_unsigned(ty) || matches!(int_op, CompareOp::Eq | CompareOp::Ne);
        if ty.is_integer() && signed_ok {
            // Small constant on either side: immediate form.
            let (var, cst, op2) = match (self.int_const(lhs), self.int_const(rhs)) {
                (_, Some(c)) => (lhs, Some(c), int_op),
                (Some(c), None) => (rhs, Some(c), swap(int_op)),
                _ => (lhs, None, int_op),
            };
            if let Some(imm) = cst.and_then(|c| i16::try_from(c).ok()) {
                let a = self.expr(var, None);
                self.at(e.span);
                let t = Pc(0);
                let ins = match op2 {
                    CompareOp::Eq => Instr::JEqI { a, imm, t },
                    CompareOp::Ne => Instr::JNeI { a, imm, t },
                    CompareOp::Lt => Instr::JLtI { a, imm, t },
                    CompareOp::Le => Instr::JLeI { a, imm, t },
                    CompareOp::Gt => Instr::JGtI { a, imm, t },
                    CompareOp::Ge => Instr::JGeI { a, imm, t },
                };
                patches.push(self.emit(ins));
                self.free = mark;
                return;
            }
        }
        let (l, r) = self.compare_operands(lhs, rhs);
        self.at(e.span);
        let t = Pc(0);
        let ins = if ty.is_floating() {
            // NaN makes every ordered comparison false: negate with the `JNLtF` forms.
            match (op, jump_if) {
                (CompareOp::Eq, true) | (CompareOp::Ne, false) => Instr::JEqF { a: l, b: r, t },
                (CompareOp::Ne, true) | (CompareOp::Eq, false) => Instr::JNeF { a: l, b: r, t },
                (CompareOp::Lt, true) => Instr::JLtF { a: l, b: r, t },
                (CompareOp::Le, true) => Instr::JLeF { a: l, b: r, t },
                (CompareOp::Gt, true) => Instr::JLtF { a: r, b: l, t },
                (CompareOp::Ge, true) => Instr::JLeF { a: r, b: l, t },
                (CompareOp::Lt, false) => Instr::JNLtF { a: l, b: r, t },
                (CompareOp::Le, false) => Instr::JNLeF { a: l, b: r, t },
                (CompareOp::Gt, false) => Instr::JNLtF { a: r, b: l, t },
                (CompareOp::Ge, false) => Instr::JNLeF { a: r, b: l, t },
            }
        } else {
            let u = is_unsigned(ty);
            match int_op {
                CompareOp::Eq => Instr::JEq { a: l, b: r, t },
                CompareOp::Ne => Instr::JNe { a: l, b: r, t },
                CompareOp::Lt if u => Instr::JLtU { a: l, b: r, t },
                CompareOp::Le if u => Instr::JLeU { a: l, b: r, t },
                CompareOp::Gt if u => Instr::JLtU { a: r, b: l, t },
                CompareOp::Ge if u => Instr::JLeU { a: r, b: l, t },
                CompareOp::Lt => Instr::JLt { a: l, b: r, t },
                CompareOp::Le => Instr::JLe { a: l, b: r, t },
                CompareOp::Gt => Instr::JLt { a: r, b: l, t },
                CompareOp::Ge => Instr::JLe { a: r, b: l, t },
            }
        };
        patches.push(self.emit(ins));
        self.free = mark;
    }
}

/// `!(a op b)` for integers.
fn negate(op: CompareOp) -> CompareOp {
    match op {
        CompareOp::Eq => CompareOp::Ne,
        CompareOp::Ne => CompareOp::Eq,
        CompareOp::Lt => CompareOp::Ge,
        CompareOp::Le => CompareOp::Gt,
        CompareOp::Gt => CompareOp::Le,
        CompareOp::Ge => CompareOp::Lt,
    }
}

/// `b op' a` equivalent to `a op b`.
fn swap(op: CompareOp) -> CompareOp {
    match op {
        CompareOp::Eq => CompareOp::Eq,
        CompareOp::Ne => CompareOp::Ne,
        CompareOp::Lt => CompareOp::Gt,
        CompareOp::Le => CompareOp::Ge,
        CompareOp::Gt => CompareOp::Lt,
        CompareOp::Ge => CompareOp::Le,
    }
}

/// An immediate-operand instruction for `x op c` in type `ty` (`c` the constant's canonical
/// value), if one applies: `c` must fit in 16 bits, divisors must be non-zero and shift counts
/// in range (otherwise the register form keeps the run-time trap).
fn immediate_form(op: BinaryOp, ty: ScalarType, c: i64) -> Option<Box<dyn Fn(Reg, Reg) -> Instr>> {
    use ScalarType::*;
    let imm = i16::try_from(c).ok()?;
    let bits = i64::from(ty.bits());
    let f: Box<dyn Fn(Reg, Reg) -> Instr> = match (op, ty) {
        (_, Float | Double) => return None,
        (BinaryOp::Mul, UInt) => Box::new(move |a, b| Instr::MulIU32 { a, b, imm }),
        (BinaryOp::Mul, Long | ULong) => Box::new(move |a, b| Instr::MulI64 { a, b, imm }),
        (BinaryOp::Mul, _) => Box::new(move |a, b| Instr::MulI32 { a, b, imm }),
        (BinaryOp::Div | BinaryOp::Rem, _) if imm == 0 => return None,
        (BinaryOp::Div, UInt | ULong) => Box::new(move |a, b| Instr::DivIU { a, b, imm }),
        (BinaryOp::Div, Long) => Box::new(move |a, b| Instr::DivI64 { a, b, imm }),
        (BinaryOp::Div, _) => Box::new(move |a, b| Instr::DivI32 { a, b, imm }),
        (BinaryOp::Rem, UInt | ULong) => Box::new(move |a, b| Instr::RemIU { a, b, imm }),
        (BinaryOp::Rem, _) => Box::new(move |a, b| Instr::RemIS { a, b, imm }),
        (BinaryOp::BitAnd, _) => Box::new(move |a, b| Instr::AndI { a, b, imm }),
        (BinaryOp::Shl | BinaryOp::Shr, _) if c < 0 || c >= bits => return None,
        (BinaryOp::Shl, UInt) => Box::new(move |a, b| Instr::ShlIU32 { a, b, imm }),
        (BinaryOp::Shl, Long | ULong) => Box::new(move |a, b| Instr::ShlI64 { a, b, imm }),
        (BinaryOp::Shl, _) => Box::new(move |a, b| Instr::ShlI32 { a, b, imm }),
        (BinaryOp::Shr, UInt | ULong) => Box::new(move |a, b| Instr::ShrI { a, b, imm }),
        (BinaryOp::Shr, _) => Box::new(move |a, b| Instr::SarI { a, b, imm }),
        _ => return None,
    };
    Some(f)
}

/// The instruction computing `l op r` in type `ty` into `d`.
fn binary_instr(op: BinaryOp, ty: ScalarType, d: Reg, l: Reg, r: Reg) -> Instr {
    use ScalarType::*;
    let (a, b, c) = (d, l, r);
    match (op, ty) {
        (BinaryOp::Add, Double) => Instr::AddF { a, b, c },
        (BinaryOp::Add, Float) => Instr::AddF32 { a, b, c },
        (BinaryOp::Add, UInt) => Instr::AddU32 { a, b, c },
        (BinaryOp::Add, Long | ULong) => Instr::Add64 { a, b, c },
        (BinaryOp::Add, _) => Instr::Add32 { a, b, c },
        (BinaryOp::Sub, Double) => Instr::SubF { a, b, c },
        (BinaryOp::Sub, Float) => Instr::SubF32 { a, b, c },
        (BinaryOp::Sub, UInt) => Instr::SubU32 { a, b, c },
        (BinaryOp::Sub, Long | ULong) => Instr::Sub64 { a, b, c },
        (BinaryOp::Sub, _) => Instr::Sub32 { a, b, c },
        (BinaryOp::Mul, Double) => Instr::MulF { a, b, c },
        (BinaryOp::Mul, Float) => Instr::MulF32 { a, b, c },
        (BinaryOp::Mul, UInt) => Instr::MulU32 { a, b, c },
        (BinaryOp::Mul, Long | ULong) => Instr::Mul64 { a, b, c },
        (BinaryOp::Mul, _) => Instr::Mul32 { a, b, c },
        (BinaryOp::Div, Double) => Instr::DivF { a, b, c },
        (BinaryOp::Div, Float) => Instr::DivF32 { a, b, c },
        (BinaryOp::Div, UInt | ULong) => Instr::DivU { a, b, c },
        (BinaryOp::Div, Long) => Instr::Div64 { a, b, c },
        (BinaryOp::Div, _) => Instr::Div32 { a, b, c },
        (BinaryOp::Rem, UInt | ULong) => Instr::RemU { a, b, c },
        (BinaryOp::Rem, _) => Instr::RemS { a, b, c },
        (BinaryOp::BitAnd, _) => Instr::And { a, b, c },
        (BinaryOp::BitOr, _) => Instr::Or { a, b, c },
        (BinaryOp::BitXor, _) => Instr::Xor { a, b, c },
        (BinaryOp::Shl, UInt) => Instr::ShlU32 { a, b, c },
        (BinaryOp::Shl, Long | ULong) => Instr::Shl64 { a, b, c },
        (BinaryOp::Shl, _) => Instr::Shl32 { a, b, c },
        (BinaryOp::Shr, UInt) => Instr::Shr32 { a, b, c },
        (BinaryOp::Shr, ULong) => Instr::Shr64 { a, b, c },
        (BinaryOp::Shr, Long) => Instr::Sar64 { a, b, c },
        (BinaryOp::Shr, _) => Instr::Sar32 { a, b, c },
    }
}

/// The instruction computing the comparison `l op r` of two `ty` values as 0/1 into `d`.
fn compare_instr(op: CompareOp, ty: ScalarType, d: Reg, l: Reg, r: Reg) -> Instr {
    let a = d;
    if ty.is_floating() {
        return match op {
            CompareOp::Eq => Instr::EqF { a, b: l, c: r },
            CompareOp::Ne => Instr::NeF { a, b: l, c: r },
            CompareOp::Lt => Instr::LtF { a, b: l, c: r },
            CompareOp::Le => Instr::LeF { a, b: l, c: r },
            CompareOp::Gt => Instr::LtF { a, b: r, c: l },
            CompareOp::Ge => Instr::LeF { a, b: r, c: l },
        };
    }
    let u = is_unsigned(ty);
    match op {
        CompareOp::Eq => Instr::Eq { a, b: l, c: r },
        CompareOp::Ne => Instr::Ne { a, b: l, c: r },
        CompareOp::Lt if u => Instr::LtU { a, b: l, c: r },
        CompareOp::Le if u => Instr::LeU { a, b: l, c: r },
        CompareOp::Gt if u => Instr::LtU { a, b: r, c: l },
        CompareOp::Ge if u => Instr::LeU { a, b: r, c: l },
        CompareOp::Lt => Instr::Lt { a, b: l, c: r },
        CompareOp::Le => Instr::Le { a, b: l, c: r },
        CompareOp::Gt => Instr::Lt { a, b: r, c: l },
        CompareOp::Ge => Instr::Le { a, b: r, c: l },
    }
}

/// Whether converting a canonical `from` value to `to` leaves the register unchanged: the same
/// type, `float` to `double` (a float register already holds the equal double), an integer
/// type whose values all belong to the target integer type, or any integer to a 64-bit one
/// (the canonical form of every integer value is its 64-bit two's complement pattern).
fn is_noop_conversion(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::*;
    if from == to || (from, to) == (Float, Double) {
        return true;
    }
    if !(from.is_integer() && to.is_integer()) {
        return false;
    }
    let range = |t: ScalarType| -> (i128, i128) {
        let bits = t.bits();
        match t {
            Bool => (0, 1),
            _ if t.is_signed() => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            _ => (0, (1i128 << bits) - 1),
        }
    };
    let ((flo, fhi), (tlo, thi)) = (range(from), range(to));
    to.bits() == 64 || (tlo <= flo && fhi <= thi)
}

/// The instruction that converts an integer in `b` to the integer type `to` narrower than
/// `long` (truncating and extending, or `!= 0` for `_Bool`), into `a`.
fn narrow_instr(to: ScalarType, a: Reg, b: Reg) -> Instr {
    use ScalarType::*;
    match to {
        Bool => Instr::ToBool { a, b },
        Char => Instr::Sext8 { a, b },
        UChar => Instr::Zext8 { a, b },
        Short => Instr::Sext16 { a, b },
        UShort => Instr::Zext16 { a, b },
        Int => Instr::Sext32 { a, b },
        UInt => Instr::Zext32 { a, b },
        Long | ULong | Float | Double | Ptr => Instr::Mov { a, b },
    }
}

/// Folds an arithmetic operation on two constants of type `ty`, with the instructions'
/// semantics; `None` where the instruction would trap (division by zero, shift count out of
/// range), so the trap stays at run time.
fn fold_binary(op: BinaryOp, ty: ScalarType, l: u64, r: u64) -> Option<u64> {
    if ty == ScalarType::Float {
        let (x, y) = (f64::from_bits(l) as f32, f64::from_bits(r) as f32);
        let v = match op {
            BinaryOp::Add => x + y,
            BinaryOp::Sub => x - y,
            BinaryOp::Mul => x * y,
            BinaryOp::Div => x / y,
            _ => return None,
        };
        return Some(f64::from(v).to_bits());
    }
    if ty == ScalarType::Double {
        let (x, y) = (f64::from_bits(l), f64::from_bits(r));
        return Some(
            match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                _ => return None,
            }
            .to_bits(),
        );
    }
    let (a, b) = (l as i64, r as i64);
    let unsigned = is_unsigned(ty);
    let bits = u64::from(ty.bits());
    let v: i64 = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div | BinaryOp::Rem if b == 0 => return None,
        BinaryOp::Div if unsigned => (l / r) as i64,
        BinaryOp::Div => a.wrapping_div(b),
        BinaryOp::Rem if unsigned => (l % r) as i64,
        BinaryOp::Rem => a.wrapping_rem(b),
        BinaryOp::BitAnd => a & b,
        BinaryOp::BitOr => a | b,
        BinaryOp::BitXor => a ^ b,
        BinaryOp::Shl | BinaryOp::Shr if r >= bits => return None,
        BinaryOp::Shl => ((l) << r) as i64,
        BinaryOp::Shr if unsigned => (l >> r) as i64,
        BinaryOp::Shr => a >> r,
    };
    Some(ty.wrap(v) as u64)
}

/// Converts a constant's bit pattern from one scalar type to another, with the same semantics
/// as the conversion instructions (this is constant folding of `Convert`).
fn convert_const(bits: u64, from: ScalarType, to: ScalarType) -> u64 {
    use ScalarType::*;
    match (from, to) {
        (f, t) if f == t => bits,
        (Float, Double) => bits,
        (Double, Float) => f64::from(f64::from_bits(bits) as f32).to_bits(),
        (Double | Float, Bool) => u64::from(f64::from_bits(bits) != 0.0),
        (Double | Float, _) => {
            let x = f64::from_bits(bits);
            // Same semantics as the VM's conversions (x86-64 gcc).
            let as_i64 = |x: f64| -> i64 {
                if x > -9_223_372_036_854_777_856.0 && x < 9_223_372_036_854_775_808.0 {
                    x as i64
                } else {
                    i64::MIN
                }
            };
            match to {
                UInt => as_i64(x) as u32 as u64,
                Long => as_i64(x) as u64,
                ULong => {
                    const TWO63: f64 = 9_223_372_036_854_775_808.0;
                    if x >= TWO63 {
                        (as_i64(x - TWO63) as u64) ^ (1 << 63)
                    } else {
                        as_i64(x) as u64
                    }
                }
                // `int` and the narrower types: through `int` (`F2I32`, then truncation).
                _ => {
                    let v = if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
                        x as i32
                    } else {
                        i32::MIN
                    };
                    to.wrap(i64::from(v)) as u64
                }
            }
        }
        (ULong, Double) => (bits as f64).to_bits(),
        (_, Double) => ((bits as i64) as f64).to_bits(),
        (ULong, Float) => f64::from(bits as f32).to_bits(),
        (_, Float) => f64::from((bits as i64) as f32).to_bits(),
        (_, t) => t.wrap(bits as i64) as u64,
    }
}

/// Whether evaluating `e` can have an effect (calls, assignments, output, traps are effects
/// only where the value is computed, which we keep).
fn has_effects(e: &Expr) -> bool {
    !matches!(
        &e.kind,
        ExprKind::IntConst(_)
            | ExprKind::DoubleConst(_)
            | ExprKind::StringLit(_)
            | ExprKind::Load(Place::Local(_) | Place::Global(_))
    )
}

/// Loads a constant node (normally already handled by `const_bits` in `expr`).
fn load_const(c: &mut FnCompiler<'_>, e: &Expr, dst: Option<Reg>) -> Reg {
    let d = dst.unwrap_or_else(|| c.alloc());
    let bits = match &e.kind {
        ExprKind::IntConst(v) => *v as u64,
        ExprKind::DoubleConst(d) => d.to_bits(),
        _ => 0,
    };
    c.load_bits(d, bits);
    d
}

/// Whether evaluating `e` may assign to a local (assignments, `++`/`--`); calls cannot, as
/// locals are not addressable.
fn writes_locals(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::WithInit { .. } => true,
        ExprKind::IntConst(_)
        | ExprKind::DoubleConst(_)
        | ExprKind::StringLit(_)
        | ExprKind::Puts { .. } => false,
        ExprKind::ObjectAddr(_)
        | ExprKind::ElementAddr { .. }
        | ExprKind::FuncAddr(_)
        | ExprKind::PtrAdd { .. }
        | ExprKind::PtrDiff { .. }
        | ExprKind::CallIndirect { .. }
        | ExprKind::CopyObject { .. }
        | ExprKind::Memory { .. }
        | ExprKind::Sprintf { .. } => sub_exprs(e).into_iter().any(writes_locals),
        ExprKind::Load(p) => match p {
            Place::Element { indices, .. } => indices.iter().any(writes_locals),
            Place::Deref { ptr, .. } | Place::BitField { ptr, .. } => writes_locals(ptr),
            _ => false,
        },
        ExprKind::Convert { expr, .. } | ExprKind::Discard(expr) => writes_locals(expr),
        ExprKind::Unary { operand, .. } => writes_locals(operand),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::LogicalAnd { lhs, rhs }
        | ExprKind::LogicalOr { lhs, rhs }
        | ExprKind::Comma { lhs, rhs } => writes_locals(lhs) || writes_locals(rhs),
        ExprKind::Conditional {
            cond,
            then_expr,
            else_expr,
        } => writes_locals(cond) || writes_locals(then_expr) || writes_locals(else_expr),
        ExprKind::Call { args, .. } => args.iter().any(|a| match a {
            Arg::Scalar(x) => writes_locals(x),
            Arg::Array { indices, .. } => indices.iter().any(writes_locals),
            Arg::FromPointer { ptr, .. } => writes_locals(ptr),
        }),
        ExprKind::Builtin { args, .. } | ExprKind::Printf { args, .. } => {
            args.iter().any(writes_locals)
        }
    }
}

/// Whether evaluating `e` has a side effect in gcc's sense (`TREE_SIDE_EFFECTS`): a call to a
/// user function, output, an assignment, or a math function that gcc treats as setting
/// `errno` (`sqrt exp log log10 pow atan2 fmod`; measured: gcc -O0 does not count `abs labs
/// fabs floor ceil atan sin cos tan`; their `float` forms are taken to be alike, as gcc gives
/// them the same attributes).
fn has_side_effects(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { .. }
        | ExprKind::CallIndirect { .. }
        | ExprKind::WithInit { .. }
        | ExprKind::Sprintf { .. }
        | ExprKind::Printf { .. }
        | ExprKind::Puts { .. }
        | ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. } => true,
        ExprKind::Memory { func, args } => !func.is_pure() || args.iter().any(has_side_effects),
        ExprKind::Builtin { func, args } => {
            !matches!(
                func.double_form().unwrap_or(*func),
                Builtin::Abs
                    | Builtin::Labs
                    | Builtin::Fabs
                    | Builtin::Floor
                    | Builtin::Ceil
                    | Builtin::Atan
                    | Builtin::Sin
                    | Builtin::Cos
                    | Builtin::Tan
            ) || args.iter().any(has_side_effects)
        }
        _ => sub_exprs(e).iter().any(|x| has_side_effects(x)),
    }
}

/// How a `printf`-family argument of type `ty` is passed (a register of its kind).
fn site_arg(ty: Option<ScalarType>) -> SiteArg {
    match ty {
        Some(ScalarType::Double) => SiteArg::Double,
        Some(ScalarType::UInt | ScalarType::ULong) => SiteArg::UInt,
        Some(ScalarType::Ptr) => SiteArg::Ptr,
        _ => SiteArg::Int,
    }
}

/// Whether `e` contains a call to a user function or output (something that can change
/// globals or arrays, or print).
fn has_call(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { .. }
        | ExprKind::CallIndirect { .. }
        | ExprKind::WithInit { .. }
        | ExprKind::Sprintf { .. }
        | ExprKind::Printf { .. }
        | ExprKind::Puts { .. } => true,
        ExprKind::Memory { func, .. } if !func.is_pure() => true,
        ExprKind::Builtin {
            func: Builtin::Putchar | Builtin::Exit | Builtin::Rand | Builtin::Srand,
            ..
        } => true,
        _ => sub_exprs(e).iter().any(|x| has_call(x)),
    }
}

/// Whether the moment `e` is evaluated cannot be observed: it only reads locals and constants
/// and cannot trap.
fn is_unobservable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntConst(_) | ExprKind::DoubleConst(_) | ExprKind::Load(Place::Local(_)) => true,
        ExprKind::Convert { expr, .. } => is_unobservable(expr),
        ExprKind::Unary { operand, .. } => is_unobservable(operand),
        ExprKind::Binary { op, lhs, rhs } => {
            !matches!(
                op,
                BinaryOp::Div | BinaryOp::Rem | BinaryOp::Shl | BinaryOp::Shr
            ) && is_unobservable(lhs)
                && is_unobservable(rhs)
        }
        ExprKind::Compare { lhs, rhs, .. } => is_unobservable(lhs) && is_unobservable(rhs),
        _ => false,
    }
}

/// The direct subexpressions of `e` (array indices of places and arguments included).
pub(super) fn sub_exprs(e: &Expr) -> Vec<&Expr> {
    fn place(p: &Place) -> Vec<&Expr> {
        match p {
            Place::Element { indices, .. } => indices.iter().collect(),
            Place::Deref { ptr, .. } | Place::BitField { ptr, .. } => vec![ptr],
            _ => Vec::new(),
        }
    }
    match &e.kind {
        ExprKind::IntConst(_)
        | ExprKind::DoubleConst(_)
        | ExprKind::StringLit(_)
        | ExprKind::Puts { .. } => Vec::new(),
        ExprKind::Load(p) => place(p),
        ExprKind::Convert { expr, .. } | ExprKind::Discard(expr) => vec![expr],
        // The initialization's own expressions are not operands of the node.
        ExprKind::WithInit { value, .. } => vec![value],
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::LogicalAnd { lhs, rhs }
        | ExprKind::LogicalOr { lhs, rhs }
        | ExprKind::Comma { lhs, rhs } => vec![lhs, rhs],
        ExprKind::Conditional {
            cond,
            then_expr,
            else_expr,
        } => vec![cond, then_expr, else_expr],
        ExprKind::Assign { place: p, value }
        | ExprKind::CompoundAssign {
            place: p, value, ..
        } => {
            let mut v = place(p);
            v.push(value);
            v
        }
        ExprKind::IncDec { place: p, .. } => place(p),
        ExprKind::Call { args, .. } => args
            .iter()
            .flat_map(|a| match a {
                Arg::Scalar(x) => vec![x],
                Arg::Array { indices, .. } => indices.iter().collect(),
                Arg::FromPointer { ptr, .. } => vec![ptr],
            })
            .collect(),
        ExprKind::Builtin { args, .. } | ExprKind::Printf { args, .. } => args.iter().collect(),
        ExprKind::ObjectAddr(_) | ExprKind::FuncAddr(_) => Vec::new(),
        ExprKind::ElementAddr { indices, .. } => indices.iter().collect(),
        ExprKind::PtrAdd { ptr, index, .. } => vec![ptr, index],
        ExprKind::PtrDiff { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::CopyObject { dst, src, .. } => vec![dst, src],
        ExprKind::Memory { args, .. } => args.iter().collect(),
        ExprKind::Sprintf {
            buffer,
            limit,
            args,
            ..
        } => std::iter::once(&**buffer)
            .chain(limit.as_deref())
            .chain(args)
            .collect(),
        ExprKind::CallIndirect { callee, args } => std::iter::once(&**callee)
            .chain(args.iter().flat_map(|a| match a {
                Arg::Scalar(x) => vec![x],
                Arg::Array { indices, .. } => indices.iter().collect(),
                Arg::FromPointer { ptr, .. } => vec![ptr],
            }))
            .collect(),
    }
}

/// Whether `e` is a plain scalar global read, possibly through conversions that keep its size
/// (what gcc's `tree_swap_operands_p` calls a variable after `STRIP_NOPS`).
fn is_global_variable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Load(Place::Global(_)) => true,
        ExprKind::Convert { expr, to } => {
            expr.ty.is_some_and(|from| {
                from.is_integer()
                    && to.is_integer()
                    && from != ScalarType::Bool
                    && *to != ScalarType::Bool
                    && from.bits() == to.bits()
            }) && is_global_variable(expr)
        }
        _ => false,
    }
}

/// Whether gcc -O0 evaluates the right operand of the arithmetic `lhs op rhs` first (rules 5
/// and 6 of the module docs). Only decided where it can be observed: the right operand calls
/// a function.
fn binary_rhs_first(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> bool {
    if !has_call(rhs) {
        return false;
    }
    let commutative = matches!(
        op,
        BinaryOp::Add | BinaryOp::Mul | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
    );
    // Commutative operators put a variable second.
    if commutative && is_global_variable(lhs) {
        return true;
    }
    // `(-A) + B` and `(~A) + B` become `B - A` and `B - A - 1` (but `A + (-B)` wins).
    op == BinaryOp::Add
        && matches!(
            lhs.kind,
            ExprKind::Unary {
                op: UnaryOp::Neg | UnaryOp::BitNot,
                ..
            }
        )
        && !matches!(
            rhs.kind,
            ExprKind::Unary {
                op: UnaryOp::Neg,
                ..
            }
        )
}

/// Whether gcc -O0 evaluates the right operand of a comparison first: a variable on the left
/// is swapped to the right (`g < f()` becomes `f() > g`).
fn compare_rhs_first(lhs: &Expr, rhs: &Expr) -> bool {
    has_call(rhs) && is_global_variable(lhs)
}

/// Whether gcc knows that the double or float `e` is never -0.0 (`tree_expr_maybe_real_minus_zero_p`
/// is false): a conversion from an integer, `fabs`, a constant other than -0.0 (after its
/// conversion, which gcc folds first), or a conditional whose both arms are such.
fn cannot_be_minus_zero(e: &Expr) -> bool {
    // A constant expression is folded first, as gcc does (`(float)-1e-50` is -0.0f).
    if let Ok(crate::check::types::Const::Double(x)) = crate::check::types::eval(e) {
        return !(x == 0.0 && x.is_sign_negative());
    }
    match &e.kind {
        ExprKind::Convert { expr, to } => {
            to.is_floating() && expr.ty.is_some_and(|t| t.is_integer())
        }
        ExprKind::Conditional {
            then_expr,
            else_expr,
            ..
        } => cannot_be_minus_zero(then_expr) && cannot_be_minus_zero(else_expr),
        ExprKind::Builtin {
            func: Builtin::Fabs | Builtin::Fabsf,
            ..
        } => true,
        _ => false,
    }
}

/// `GetG*` for a global scalar of type `ty`: the load of its width that extends to the
/// register's canonical form.
fn get_global(ty: ScalarType, a: Reg, g: Addr) -> Instr {
    use ScalarType::*;
    match ty {
        Char => Instr::GetG8S { a, g },
        Bool | UChar => Instr::GetG8U { a, g },
        Short => Instr::GetG16S { a, g },
        UShort => Instr::GetG16U { a, g },
        Int => Instr::GetG32S { a, g },
        UInt => Instr::GetG32U { a, g },
        Float => Instr::GetGF32 { a, g },
        Long | ULong | Double | Ptr => Instr::GetG64 { a, g },
    }
}

/// `SetG*` for a global scalar of type `ty` (a store of its width).
fn set_global(ty: ScalarType, a: Reg, g: Addr) -> Instr {
    use ScalarType::*;
    match ty {
        Bool | Char | UChar => Instr::SetG8 { a, g },
        Short | UShort => Instr::SetG16 { a, g },
        Int | UInt => Instr::SetG32 { a, g },
        Float => Instr::SetGF32 { a, g },
        Long | ULong | Double | Ptr => Instr::SetG64 { a, g },
    }
}

/// `LdE*` for an element of type `ty`: the load of its width that extends to the register's
/// canonical form.
fn load_elem(ty: ScalarType, a: Reg, b: Reg, c: Reg) -> Instr {
    use ScalarType::*;
    match ty {
        Char => Instr::LdE8S { a, b, c },
        Bool | UChar => Instr::LdE8U { a, b, c },
        Short => Instr::LdE16S { a, b, c },
        UShort => Instr::LdE16U { a, b, c },
        Int => Instr::LdE32S { a, b, c },
        UInt => Instr::LdE32U { a, b, c },
        Float => Instr::LdEF32 { a, b, c },
        Long | ULong | Double | Ptr => Instr::LdE64 { a, b, c },
    }
}

/// `StE*` for an element of type `ty` (a store of its width).
pub(super) fn store_elem(ty: ScalarType, a: Reg, b: Reg, c: Reg) -> Instr {
    use ScalarType::*;
    match ty {
        Bool | Char | UChar => Instr::StE8 { a, b, c },
        Short | UShort => Instr::StE16 { a, b, c },
        Int | UInt => Instr::StE32 { a, b, c },
        Float => Instr::StEF32 { a, b, c },
        Long | ULong | Double | Ptr => Instr::StE64 { a, b, c },
    }
}

/// `LdP*` for a value of type `ty` at `p + imm`.
fn load_ptr(ty: ScalarType, a: Reg, b: Reg, imm: i16) -> Instr {
    use ScalarType::*;
    match ty {
        Char => Instr::LdP8S { a, b, imm },
        Bool | UChar => Instr::LdP8U { a, b, imm },
        Short => Instr::LdP16S { a, b, imm },
        UShort => Instr::LdP16U { a, b, imm },
        Int => Instr::LdP32S { a, b, imm },
        UInt => Instr::LdP32U { a, b, imm },
        Float => Instr::LdPF32 { a, b, imm },
        Long | ULong | Double | Ptr => Instr::LdP64 { a, b, imm },
    }
}

/// `StP*` for a value of type `ty` at `p + imm`.
fn store_ptr(ty: ScalarType, a: Reg, b: Reg, imm: i16) -> Instr {
    use ScalarType::*;
    match ty {
        Bool | Char | UChar => Instr::StP8 { a, b, imm },
        Short | UShort => Instr::StP16 { a, b, imm },
        Int | UInt => Instr::StP32 { a, b, imm },
        Float => Instr::StPF32 { a, b, imm },
        Long | ULong | Double | Ptr => Instr::StP64 { a, b, imm },
    }
}

/// `StEI*` of the width of `ty`: the immediate is the value's bits (for `float`, only 0).
fn store_elem_imm(ty: ScalarType, imm: i16, b: Reg, c: Reg) -> Instr {
    match ty.bytes() {
        1 => Instr::StEI8 { imm, b, c },
        2 => Instr::StEI16 { imm, b, c },
        4 => Instr::StEI32 { imm, b, c },
        _ => Instr::StEI64 { imm, b, c },
    }
}
