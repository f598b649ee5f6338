//! C's arithmetic type rules (C99 6.3.1) and constant evaluation (C99 6.6).
//!
//! * [`promote`]: the integer promotions (6.3.1.1): `_Bool`, `char`, `unsigned char`, `short`
//!   and `unsigned short` become `int` (which holds all their values); the other types of the
//!   language are unchanged.
//! * [`default_promote`]: the default argument promotions (6.5.2.2p6) of `printf`'s variable
//!   arguments: the integer promotions, and `float` becomes `double`.
//! * [`usual_arithmetic`]: the usual arithmetic conversions (6.3.1.8): `double` wins, then
//!   `float` (an integer operand is converted to `float`; `float` with `float` stays `float`,
//!   as gcc computes on x86-64, `FLT_EVAL_METHOD` 0); else both operands are promoted; equal types stay; same signedness takes the higher rank; an
//!   unsigned type of rank at least the signed one's wins; else the signed type if it can hold
//!   every value of the unsigned one (`long` vs `unsigned int`); else the unsigned version of
//!   the signed type (cannot happen with our types, every case is covered above).
//! * [`convert`]: wrap an expression in `Convert` (folding it right away if the operand is a
//!   constant and the conversion is exact or well-defined).
//! * [`eval`]: evaluate a checked HIR expression as a constant with the semantics of the target
//!   (wrapping integer arithmetic, truncating division, arithmetic right shift), reporting what
//!   C leaves undefined (division by zero, shift counts out of range, out-of-range double to
//!   integer conversions) as errors. NaN results of arithmetic are positive, as in gcc's
//!   constant folding (`0.0/0.0` folds to `nan`, not the `-nan` an x86 division produces).

use crate::hir::{BinaryOp, CompareOp, Expr, ExprKind, ScalarType, UnaryOp};
use crate::span::Span;

/// The integer promotions: the types narrower than `int` to `int`.
pub fn promote(t: ScalarType) -> ScalarType {
    use ScalarType::*;
    match t {
        Bool | Char | UChar | Short | UShort => Int,
        other => other,
    }
}

/// The default argument promotions: the integer promotions, and `float` to `double`.
pub fn default_promote(t: ScalarType) -> ScalarType {
    match promote(t) {
        ScalarType::Float => ScalarType::Double,
        other => other,
    }
}

/// Integer conversion rank (6.3.1.1), increasing with the width: `_Bool` lowest, then
/// `char`, `short`, `int`, `long` (each with its unsigned twin). Not meaningful for floating
/// types.
fn rank(t: ScalarType) -> u8 {
    use ScalarType::*;
    match t {
        Bool => 0,
        Char | UChar => 1,
        Short | UShort => 2,
        Int | UInt | Float => 3,
        Long | ULong | Double | Ptr => 4,
    }
}

/// The usual arithmetic conversions: the common type of two arithmetic operands.
pub fn usual_arithmetic(a: ScalarType, b: ScalarType) -> ScalarType {
    use ScalarType::*;
    if a == Double || b == Double {
        return Double;
    }
    if a == Float || b == Float {
        return Float;
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if rank(a) >= rank(b) { a } else { b };
    }
    let (signed, unsigned) = if a.is_signed() { (a, b) } else { (b, a) };
    if rank(unsigned) >= rank(signed) {
        unsigned
    } else {
        // Only `long` vs `unsigned int` reaches here: `long` holds every `unsigned int`.
        signed
    }
}

/// Build an expression node.
pub fn mk(kind: ExprKind, ty: ScalarType, span: Span) -> Expr {
    Expr {
        kind,
        ty: Some(ty),
        span,
    }
}

/// A void expression that does nothing (`(void)0`): the value of a statement expression
/// whose last item is not an expression, `__builtin_unreachable()`.
pub fn void_expr(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Discard(Box::new(mk(ExprKind::IntConst(0), ScalarType::Int, span))),
        ty: None,
        span,
    }
}

/// Convert `e` (a scalar expression) to `to`. Constants are converted at once when the result
/// is defined; otherwise a `Convert` node is added. No node is added if `e` already has type `to`.
pub fn convert(e: Expr, to: ScalarType) -> Expr {
    if e.ty == Some(to) {
        return e;
    }
    if let Some(from) = e.ty {
        let folded = match e.kind {
            ExprKind::IntConst(v) => convert_const(Const::Int(v), from, to, e.span).ok(),
            ExprKind::DoubleConst(x) => convert_const(Const::Double(x), from, to, e.span).ok(),
            _ => None,
        };
        if let Some(c) = folded {
            return const_expr(c, to, e.span);
        }
    }
    let span = e.span;
    mk(
        ExprKind::Convert {
            expr: Box::new(e),
            to,
        },
        to,
        span,
    )
}

/// The expression for constant `c` of type `ty`.
pub fn const_expr(c: Const, ty: ScalarType, span: Span) -> Expr {
    match c {
        Const::Int(v) => mk(ExprKind::IntConst(v), ty, span),
        Const::Double(x) => mk(ExprKind::DoubleConst(x), ty, span),
    }
}

/// A constant value: an integer in the representation of its type (see [`ScalarType::wrap`]),
/// or a `double`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    /// An integer constant.
    Int(i64),
    /// A floating constant.
    Double(f64),
}

impl Const {
    fn is_zero(self) -> bool {
        match self {
            Const::Int(v) => v == 0,
            Const::Double(x) => x == 0.0,
        }
    }
}

/// Why an expression has no constant value.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstError {
    /// The offending sub-expression.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

fn cerr<T>(span: Span, message: impl Into<String>) -> Result<T, ConstError> {
    Err(ConstError {
        span,
        message: message.into(),
    })
}

/// Convert a constant of type `from` to type `to` as C does; a floating value out of the
/// target integer type's range (undefined behaviour) is an error. Conversions to `float` round
/// once, directly from the source value (never through `double`).
pub fn convert_const(
    c: Const,
    from: ScalarType,
    to: ScalarType,
    span: Span,
) -> Result<Const, ConstError> {
    use ScalarType::*;
    Ok(match (c, to) {
        (Const::Int(v), Double) => Const::Double(if from == ULong {
            v as u64 as f64
        } else {
            v as f64
        }),
        (Const::Int(v), Float) => Const::Double(f64::from(if from == ULong {
            v as u64 as f32
        } else {
            v as f32
        })),
        (Const::Int(v), _) => Const::Int(to.wrap(v)),
        (Const::Double(x), Double) => Const::Double(x),
        (Const::Double(x), Float) => Const::Double(f64::from(x as f32)),
        (Const::Double(x), Bool) => Const::Int(i64::from(x != 0.0)),
        (Const::Double(x), _) => {
            let t = x.trunc();
            let (lo, hi): (f64, f64) = match to {
                Char => (-128.0, 127.0),
                UChar => (0.0, 255.0),
                Short => (-32768.0, 32767.0),
                UShort => (0.0, 65535.0),
                Int => (-2147483648.0, 2147483647.0),
                UInt => (0.0, 4294967295.0),
                Long => (-9223372036854775808.0, 9223372036854775807.0),
                _ => (0.0, 18446744073709551615.0),
            };
            // `hi` of the 64-bit types is not representable: it rounds up to 2^63 / 2^64.
            let in_range = t >= lo && (t < hi || (t == hi && to.bits() < 64));
            if !in_range {
                return cerr(
                    span,
                    format!("conversion of {x} to `{to}` is out of range (undefined behaviour)"),
                );
            }
            Const::Int(if to == ULong {
                t as u64 as i64
            } else {
                t as i64
            })
        }
    })
}

/// Evaluate a checked expression as a constant. Anything that reads or writes storage or calls
/// a function is not constant; the comma operator is not allowed in constant expressions
/// (C99 6.6p3).
pub fn eval(e: &Expr) -> Result<Const, ConstError> {
    let ty = e.ty.unwrap_or(ScalarType::Int);
    match &e.kind {
        ExprKind::IntConst(v) => Ok(Const::Int(*v)),
        ExprKind::DoubleConst(x) => Ok(Const::Double(*x)),
        ExprKind::Convert { expr, to } => {
            let v = eval(expr)?;
            convert_const(v, expr.ty.unwrap_or(ScalarType::Int), *to, expr.span)
        }
        ExprKind::Unary { op, operand } => {
            let v = eval(operand)?;
            Ok(match (op, v) {
                (UnaryOp::Not, v) => Const::Int(i64::from(v.is_zero())),
                (UnaryOp::Neg, Const::Int(v)) => Const::Int(ty.wrap(v.wrapping_neg())),
                (UnaryOp::Neg, Const::Double(x)) => Const::Double(-x),
                (UnaryOp::BitNot, Const::Int(v)) => Const::Int(ty.wrap(!v)),
                (UnaryOp::BitNot, Const::Double(_)) => {
                    return cerr(e.span, "`~` on a floating value")
                }
            })
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (eval(lhs)?, eval(rhs)?);
            binary(*op, ty, a, b, e.span)
        }
        ExprKind::Compare {
            op,
            operand_ty,
            lhs,
            rhs,
        } => {
            let (a, b) = (eval(lhs)?, eval(rhs)?);
            let ord = match (a, b) {
                (Const::Double(x), Const::Double(y)) => x.partial_cmp(&y),
                (Const::Int(x), Const::Int(y)) if operand_ty.is_signed() => Some(x.cmp(&y)),
                (Const::Int(x), Const::Int(y)) => Some((x as u64).cmp(&(y as u64))),
                _ => return cerr(e.span, "mixed comparison"),
            };
            use std::cmp::Ordering::*;
            let result = match op {
                CompareOp::Eq => ord == Some(Equal),
                CompareOp::Ne => ord != Some(Equal),
                CompareOp::Lt => ord == Some(Less),
                CompareOp::Le => matches!(ord, Some(Less | Equal)),
                CompareOp::Gt => ord == Some(Greater),
                CompareOp::Ge => matches!(ord, Some(Greater | Equal)),
            };
            Ok(Const::Int(i64::from(result)))
        }
        ExprKind::LogicalAnd { lhs, rhs } => {
            if eval(lhs)?.is_zero() {
                Ok(Const::Int(0))
            } else {
                Ok(Const::Int(i64::from(!eval(rhs)?.is_zero())))
            }
        }
        ExprKind::LogicalOr { lhs, rhs } => {
            if !eval(lhs)?.is_zero() {
                Ok(Const::Int(1))
            } else {
                Ok(Const::Int(i64::from(!eval(rhs)?.is_zero())))
            }
        }
        ExprKind::Conditional {
            cond,
            then_expr,
            else_expr,
        } => {
            if eval(cond)?.is_zero() {
                eval(else_expr)
            } else {
                eval(then_expr)
            }
        }
        ExprKind::Comma { .. } => cerr(
            e.span,
            "the comma operator is not allowed in a constant expression",
        ),
        ExprKind::Load(_) => cerr(
            e.span,
            "a variable's value is not a constant (even if it is `const`)",
        ),
        ExprKind::Call { .. }
        | ExprKind::Builtin { .. }
        | ExprKind::Printf { .. }
        | ExprKind::Puts { .. } => cerr(e.span, "a function call is not a constant"),
        ExprKind::Discard(_) => cerr(e.span, "a void expression is not a constant"),
        ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } => {
            cerr(e.span, "an assignment is not a constant")
        }
        ExprKind::StringLit(_) => cerr(e.span, "a string literal is not an arithmetic constant"),
        ExprKind::ObjectAddr(_)
        | ExprKind::ElementAddr { .. }
        | ExprKind::FuncAddr(_)
        | ExprKind::PtrAdd { .. }
        | ExprKind::PtrDiff { .. } => cerr(e.span, "an address is not an arithmetic constant"),
        ExprKind::CallIndirect { .. } | ExprKind::Memory { .. } | ExprKind::Sprintf { .. } => {
            cerr(e.span, "a function call is not a constant")
        }
        ExprKind::CopyObject { .. } => cerr(e.span, "an assignment is not a constant"),
        ExprKind::WithInit { .. } => cerr(e.span, "a compound literal is not a constant"),
    }
}

/// `a op b` in type `ty` (for shifts, `b` is the `long` count).
fn binary(
    op: BinaryOp,
    ty: ScalarType,
    a: Const,
    b: Const,
    span: Span,
) -> Result<Const, ConstError> {
    use ScalarType::*;
    let (x, y) = match (a, b) {
        (Const::Double(x), Const::Double(y)) => {
            let r = if ty == Float {
                let (x, y) = (x as f32, y as f32);
                f64::from(match op {
                    BinaryOp::Add => x + y,
                    BinaryOp::Sub => x - y,
                    BinaryOp::Mul => x * y,
                    BinaryOp::Div => x / y,
                    _ => return cerr(span, format!("`{}` on floats", op.symbol())),
                })
            } else {
                match op {
                    BinaryOp::Add => x + y,
                    BinaryOp::Sub => x - y,
                    BinaryOp::Mul => x * y,
                    BinaryOp::Div => x / y,
                    _ => return cerr(span, format!("`{}` on doubles", op.symbol())),
                }
            };
            // gcc folds NaN-producing operations to a positive NaN.
            return Ok(Const::Double(if r.is_nan() { f64::NAN } else { r }));
        }
        (Const::Int(x), Const::Int(y)) => (x, y),
        _ => return cerr(span, "mixed-type operation"),
    };
    let r = match op {
        BinaryOp::Add => x.wrapping_add(y),
        BinaryOp::Sub => x.wrapping_sub(y),
        BinaryOp::Mul => x.wrapping_mul(y),
        BinaryOp::Div | BinaryOp::Rem => {
            if y == 0 {
                return cerr(span, "division by zero in a constant expression");
            }
            let div = op == BinaryOp::Div;
            match ty {
                Int => {
                    let (x, y) = (x as i32, y as i32);
                    i64::from(if div {
                        x.wrapping_div(y)
                    } else {
                        x.wrapping_rem(y)
                    })
                }
                Long => {
                    if div {
                        x.wrapping_div(y)
                    } else {
                        x.wrapping_rem(y)
                    }
                }
                _ => {
                    let (x, y) = (x as u64, y as u64);
                    (if div { x / y } else { x % y }) as i64
                }
            }
        }
        BinaryOp::BitAnd => x & y,
        BinaryOp::BitOr => x | y,
        BinaryOp::BitXor => x ^ y,
        BinaryOp::Shl => x.wrapping_shl(shift_count(y, ty, span)?),
        BinaryOp::Shr => {
            let n = shift_count(y, ty, span)?;
            if ty.is_signed() {
                x >> n
            } else {
                ((x as u64) >> n) as i64
            }
        }
    };
    Ok(Const::Int(ty.wrap(r)))
}

/// A shift count, if it is in range for a left operand of type `ty`.
fn shift_count(count: i64, ty: ScalarType, span: Span) -> Result<u32, ConstError> {
    if count < 0 || count >= i64::from(ty.bits()) {
        return cerr(
            span,
            format!("shift count {count} is out of range for `{ty}` (undefined behaviour)"),
        );
    }
    Ok(count as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType::*;

    #[test]
    fn usual_arithmetic_conversions_follow_c99() {
        let cases = [
            (Char, Char, Int),
            (Char, UInt, UInt),
            (Int, UInt, UInt),
            (Int, Long, Long),
            (UInt, Long, Long),
            (UInt, ULong, ULong),
            (Long, ULong, ULong),
            (Int, ULong, ULong),
            (ULong, Double, Double),
            (Char, Double, Double),
            (Bool, Bool, Int),
            (UChar, UChar, Int),
            (Short, UShort, Int),
            (UShort, UInt, UInt),
            (Short, Long, Long),
            (Float, Float, Float),
            (Float, ULong, Float),
            (Int, Float, Float),
            (Float, Double, Double),
        ];
        for (a, b, want) in cases {
            assert_eq!(usual_arithmetic(a, b), want, "{a} {b}");
            assert_eq!(usual_arithmetic(b, a), want, "{b} {a}");
        }
    }

    #[test]
    fn constant_conversions() {
        let s = Span::default();
        assert_eq!(
            convert_const(Const::Int(300), Int, Char, s),
            Ok(Const::Int(44))
        );
        assert_eq!(
            convert_const(Const::Int(-1), Int, UInt, s),
            Ok(Const::Int(0xffff_ffff))
        );
        assert_eq!(
            convert_const(Const::Int(-1), Int, ULong, s),
            Ok(Const::Int(-1))
        );
        assert_eq!(
            convert_const(Const::Int(-1), ULong, Double, s),
            Ok(Const::Double(18446744073709551616.0))
        );
        assert_eq!(
            convert_const(Const::Double(-2.9), Double, Int, s),
            Ok(Const::Int(-2))
        );
        assert_eq!(
            convert_const(Const::Double(4294967295.5), Double, UInt, s),
            Ok(Const::Int(4294967295))
        );
        assert!(convert_const(Const::Double(4294967296.0), Double, UInt, s).is_err());
        assert!(convert_const(Const::Double(-1.0), Double, UInt, s).is_err());
        assert!(convert_const(Const::Double(9223372036854775808.0), Double, Long, s).is_err());
        assert!(convert_const(Const::Double(f64::NAN), Double, Int, s).is_err());
        assert_eq!(
            convert_const(Const::Int(70000), Int, Short, s),
            Ok(Const::Int(4464))
        );
        assert_eq!(
            convert_const(Const::Int(-1), Int, UShort, s),
            Ok(Const::Int(65535))
        );
        assert_eq!(
            convert_const(Const::Int(256), Int, Bool, s),
            Ok(Const::Int(1))
        );
        assert_eq!(
            convert_const(Const::Double(0.5), Double, Bool, s),
            Ok(Const::Int(1))
        );
        assert!(convert_const(Const::Double(65536.0), Double, UShort, s).is_err());
        // 2^60 + 2^36 + 1 is just above a tie in binary32 and rounds up; through a double it
        // would first become the tie 2^60 + 2^36 and then round down (double rounding).
        let v = (1i64 << 60) + (1 << 36) + 1;
        assert_eq!(
            convert_const(Const::Int(v), Long, Float, s),
            Ok(Const::Double(f64::from(v as f32)))
        );
        assert_eq!(
            convert_const(Const::Double(0.1), Double, Float, s),
            Ok(Const::Double(f64::from(0.1f32)))
        );
    }

    #[test]
    fn constant_arithmetic_wraps_like_fwrapv() {
        let s = Span::default();
        let int_min = i64::from(i32::MIN);
        assert_eq!(
            binary(
                BinaryOp::Add,
                Int,
                Const::Int(i64::from(i32::MAX)),
                Const::Int(1),
                s
            ),
            Ok(Const::Int(int_min))
        );
        assert_eq!(
            binary(BinaryOp::Div, Int, Const::Int(int_min), Const::Int(-1), s),
            Ok(Const::Int(int_min))
        );
        assert_eq!(
            binary(BinaryOp::Rem, Int, Const::Int(int_min), Const::Int(-1), s),
            Ok(Const::Int(0))
        );
        assert_eq!(
            binary(
                BinaryOp::Div,
                UInt,
                Const::Int(0xffff_ffff),
                Const::Int(2),
                s
            ),
            Ok(Const::Int(0x7fff_ffff))
        );
        assert_eq!(
            binary(BinaryOp::Shr, Int, Const::Int(-8), Const::Int(1), s),
            Ok(Const::Int(-4))
        );
        assert_eq!(
            binary(
                BinaryOp::Shr,
                UInt,
                Const::Int(0xffff_fff8),
                Const::Int(1),
                s
            ),
            Ok(Const::Int(0x7fff_fffc))
        );
        assert_eq!(
            binary(BinaryOp::Shl, Int, Const::Int(1), Const::Int(31), s),
            Ok(Const::Int(int_min))
        );
        assert!(binary(BinaryOp::Shl, Int, Const::Int(1), Const::Int(32), s).is_err());
        assert!(binary(BinaryOp::Div, Long, Const::Int(1), Const::Int(0), s).is_err());
        match binary(
            BinaryOp::Div,
            Double,
            Const::Double(0.0),
            Const::Double(0.0),
            s,
        ) {
            Ok(Const::Double(x)) => assert!(x.is_nan() && x.is_sign_positive()),
            other => panic!("{other:?}"),
        }
    }
}
