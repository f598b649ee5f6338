//! Constant expressions folded at compile time: integer and floating constants, conversions and
//! the arithmetic of constants, as 64-bit patterns of their types with C's (wrapping)
//! semantics.

use super::{is_unsigned, FnCompiler};
use crate::hir::{BinaryOp, Expr, ExprKind, ScalarType, UnaryOp};

impl FnCompiler<'_> {
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
}

/// Folds an arithmetic operation on two constants of type `ty`, with the instructions'
/// semantics; `None` where the instruction would trap (division by zero, shift count out of
/// range), so the trap stays at run time.
pub(super) fn fold_binary(op: BinaryOp, ty: ScalarType, l: u64, r: u64) -> Option<u64> {
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
pub(super) fn convert_const(bits: u64, from: ScalarType, to: ScalarType) -> u64 {
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
