//! gcc's built-in functions that need no library behind them (the gcc manual, "Other
//! Built-in Functions Provided by GCC"): calls the checker turns into plain expressions.
//!
//! - `__builtin_expect(long exp, long c)`: the value of `exp` converted to `long`; `c`, the
//!   value `exp` is expected to have, only guides gcc's block layout, so it is checked and
//!   evaluated for its effects but does not change the result.
//!
//! - `__builtin_inf()`, `__builtin_huge_val()` (`double`), `__builtin_inff()`,
//!   `__builtin_huge_valf()` (`float`): positive infinity, a constant (`<math.h>`'s
//!   `INFINITY`, `HUGE_VAL`, `HUGE_VALF`).
//! - `__builtin_nan("")`, `__builtin_nanf("")`: the quiet NaN gcc makes (`0x7ff8000000000000`,
//!   `0x7fc00000`; `<math.h>`'s `NAN`), a constant; only the empty payload string is taken.
//!
//! - The bit built-ins (`__builtin_popcount`, `__builtin_clz`, `__builtin_ctz`,
//!   `__builtin_parity`, `__builtin_ffs` and their `l`/`ll` forms, `__builtin_bswap16/32/64`):
//!   calls of C code of the library (`lang/src/prelude/builtins.c`), linked in when used.
//! - `__builtin_` followed by the name of a library function the VM implements
//!   (`__builtin_memcpy`, `__builtin_strlen`, `__builtin_fabs`, ...): that function, with or
//!   without its header, as gcc's built-ins are.
//! - `__builtin_unreachable()`: a void expression; reaching it is undefined behaviour, and
//!   the program goes on with what follows, as gcc's code at `-O0` does.
//!
//! A program that defines a function of one of these names calls its own function.

use crate::ast;
use crate::ctype::CType;
use crate::hir::{Arg, Expr, ExprKind, ScalarType};
use crate::span::Span;

use super::types::{convert, mk, void_expr};
use super::Checker;

impl Checker<'_> {
    /// The call `name(args)` if `name` is one of gcc's built-ins handled here: `None` when it
    /// is not one, `Some(None)` when it is but the call is wrong (reported).
    pub(super) fn gnu_builtin_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Option<(Expr, CType)>> {
        match name {
            "__builtin_expect" => Some(self.builtin_expect(args, span)),
            "__builtin_va_area" => Some(self.va_area(args, span)),
            "__builtin_unreachable" => Some(self.builtin_unreachable(args, span)),
            _ if bit_builtin(name).is_some() => Some(self.bit_builtin_call(name, args, span)),
            _ if name
                .strip_prefix("__builtin_")
                .is_some_and(|f| super::library_header(f).is_some()) =>
            {
                // No header needed, as for gcc's built-ins.
                let function = &name["__builtin_".len()..];
                Some(self.library_function_call(function, span, args, span))
            }
            "__builtin_inf" | "__builtin_huge_val" => {
                Some(self.floating_constant(name, args, f64::INFINITY, ScalarType::Double, span))
            }
            "__builtin_inff" | "__builtin_huge_valf" => {
                Some(self.floating_constant(name, args, f64::INFINITY, ScalarType::Float, span))
            }
            "__builtin_nan" | "__builtin_nanf" => {
                let ty = if name == "__builtin_nan" {
                    ScalarType::Double
                } else {
                    ScalarType::Float
                };
                let [payload] = args else {
                    self.err(
                        span,
                        format!("`{name}` takes 1 argument (a string), not {}", args.len()),
                    );
                    return Some(None);
                };
                if !matches!(&payload.kind, ast::ExprKind::Str(bytes) if bytes.is_empty()) {
                    self.err(
                        payload.span,
                        format!("`{name}` takes only the empty string `\"\"` here (a NaN without payload)"),
                    );
                    return Some(None);
                }
                Some(self.floating_constant(name, &[], f64::NAN, ty, span))
            }
            _ => None,
        }
    }

    /// `__builtin_expect(exp, c)`.
    fn builtin_expect(&mut self, args: &[ast::Expr], span: Span) -> Option<(Expr, CType)> {
        let [exp, expected] = args else {
            self.err(
                span,
                format!(
                    "`__builtin_expect` takes 2 arguments (the value and the value it is expected to have), not {}",
                    args.len()
                ),
            );
            return None;
        };
        let value = self.integer_argument(exp, "first")?;
        let guess = self.integer_argument(expected, "second")?;
        let value = convert(value, ScalarType::Long);
        let guess = Expr {
            kind: ExprKind::Discard(Box::new(guess)),
            ty: None,
            span,
        };
        // `c` for its effects, then `exp`: the order of a call's arguments is unspecified, and
        // this is the one gcc uses on x86-64 (right to left).
        let both = mk(
            ExprKind::Comma {
                lhs: Box::new(guess),
                rhs: Box::new(value),
            },
            ScalarType::Long,
            span,
        );
        Some((both, CType::Scalar(ScalarType::Long)))
    }

    /// `__builtin_unreachable()`.
    fn builtin_unreachable(&mut self, args: &[ast::Expr], span: Span) -> Option<(Expr, CType)> {
        if !args.is_empty() {
            self.err(
                span,
                format!(
                    "`__builtin_unreachable` takes no arguments, not {}",
                    args.len()
                ),
            );
            return None;
        }
        Some((void_expr(span), CType::Void))
    }

    /// A call of one of the bit built-ins, C code of the library.
    fn bit_builtin_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
        let (ret, param) = bit_builtin(name)?;
        let out = self.library_args(name, args, &[CType::Scalar(param)], span)?;
        let place = self.place(span);
        self.link.used(name, || place);
        let func = self.link.external_function(name, self.ctx.index);
        Some((
            Expr {
                kind: ExprKind::Call {
                    func,
                    args: out.into_iter().map(Arg::Scalar).collect(),
                },
                ty: Some(ret),
                span,
            },
            CType::Scalar(ret),
        ))
    }

    /// A built-in without arguments whose value is the constant `value` of type `ty`.
    fn floating_constant(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        value: f64,
        ty: ScalarType,
        span: Span,
    ) -> Option<(Expr, CType)> {
        if !args.is_empty() {
            self.err(
                span,
                format!("`{name}` takes no arguments, not {}", args.len()),
            );
            return None;
        }
        Some((
            mk(ExprKind::DoubleConst(value), ty, span),
            CType::Scalar(ty),
        ))
    }

    /// An argument of a built-in that takes an integer: its value after the promotions.
    fn integer_argument(&mut self, arg: &ast::Expr, which: &str) -> Option<Expr> {
        let value = self.arith(arg)?;
        if !value.ty.is_some_and(ScalarType::is_integer) {
            self.err(
                arg.span,
                format!("the {which} argument of `__builtin_expect` must be an integer"),
            );
            return None;
        }
        Some(value)
    }
}

/// The result and parameter types of gcc's bit built-in `name`, if it is one (see
/// `lang/src/prelude/builtins.c`, which defines them).
pub(crate) fn bit_builtin(name: &str) -> Option<(ScalarType, ScalarType)> {
    use ScalarType::{Int, Long, UInt, ULong, UShort};
    Some(match name {
        "__builtin_popcount" | "__builtin_parity" | "__builtin_clz" | "__builtin_ctz" => {
            (Int, UInt)
        }
        "__builtin_popcountl"
        | "__builtin_parityl"
        | "__builtin_clzl"
        | "__builtin_ctzl"
        | "__builtin_popcountll"
        | "__builtin_parityll"
        | "__builtin_clzll"
        | "__builtin_ctzll" => (Int, ULong),
        "__builtin_ffs" => (Int, Int),
        "__builtin_ffsl" | "__builtin_ffsll" => (Int, Long),
        "__builtin_bswap16" => (UShort, UShort),
        "__builtin_bswap32" => (UInt, UInt),
        "__builtin_bswap64" => (ULong, ULong),
        _ => return None,
    })
}

impl Checker<'_> {
    /// `__builtin_va_area()`, behind `<stdarg.h>`'s `va_start`: the address of the further
    /// arguments of the variadic function being checked (its hidden last parameter; see
    /// `calls`), as a `char *`.
    fn va_area(&mut self, args: &[ast::Expr], span: Span) -> Option<(Expr, CType)> {
        if !args.is_empty() {
            self.err(span, "`__builtin_va_area` takes no arguments");
            return None;
        }
        let area = self.fs.as_ref().and_then(|fs| fs.va_area);
        let Some(area) = area else {
            self.err(
                span,
                "`va_start` used in a function without `...`: only a variadic function has further arguments",
            );
            return None;
        };
        let char_ptr = CType::pointer_to(CType::Scalar(ScalarType::Char), false);
        Some((
            mk(
                ExprKind::Load(crate::hir::Place::Local(area)),
                ScalarType::Ptr,
                span,
            ),
            char_ptr,
        ))
    }
}
