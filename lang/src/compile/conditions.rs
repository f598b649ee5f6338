//! Conditions compiled into branches: `&&`, `||`, `!` and comparisons jump straight to their
//! targets instead of computing a truth value first.

use super::{is_unsigned, FnCompiler, Patch};
use crate::bytecode::{Instr, Pc};
use crate::hir::{CompareOp, Expr, ExprKind, ScalarType, UnaryOp};

impl FnCompiler<'_> {
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
    pub(super) fn compare_jump(
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
pub(super) fn negate(op: CompareOp) -> CompareOp {
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
pub(super) fn swap(op: CompareOp) -> CompareOp {
    match op {
        CompareOp::Eq => CompareOp::Eq,
        CompareOp::Ne => CompareOp::Ne,
        CompareOp::Lt => CompareOp::Gt,
        CompareOp::Le => CompareOp::Ge,
        CompareOp::Gt => CompareOp::Lt,
        CompareOp::Ge => CompareOp::Le,
    }
}
