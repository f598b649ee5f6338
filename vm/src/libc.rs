//! The library functions of the language ([`lang::builtins::Builtin`]), as glibc computes them.
//!
//! * `abs` and `labs` wrap on the most negative value (`abs(INT_MIN) == INT_MIN`): that is what
//!   gcc's code does (glibc's `abs` is `x < 0 ? -x : x`, and the negation wraps in two's
//!   complement; gcc inlines the same).
//! * The `math.h` functions are Rust's `f64` methods, which call the very same glibc `libm`
//!   functions a gcc-compiled program calls (`sin`, `exp`, `pow`, ...), or are exact operations
//!   (`sqrt`, `fabs`, `floor`, `ceil`, `fmod` are exactly rounded by definition), so the results
//!   are bit-identical at run time. `vm/tests/printf_math.rs` checks a sample against gcc.
//! * Calls whose arguments are all *constant expressions* are a special case: gcc evaluates
//!   them at compile time, even at `-O0`, with correctly rounded arithmetic (MPFR), and glibc's
//!   run-time `log10` (about 5% of arguments) and `sin cos tan exp atan2 pow` (about 0.1%)
//!   can differ from that in the last bit. [`constant_call`] gives what gcc's program computes
//!   for such a call (the correctly rounded value where gcc folds, the run-time value where it
//!   does not); the compiler uses it for constant-argument calls, [`call_math`] for the rest.
//! * `putchar` writes `(unsigned char)c` and returns it as an `int`; `exit` is the interpreter's
//!   business (it ends the run with status `n & 255`).

use lang::builtins::Builtin;

pub(crate) mod bignum;
mod fold;

/// `abs(x)`, wrapping on `i32::MIN` like gcc's code.
pub fn abs(x: i32) -> i32 {
    x.wrapping_abs()
}

/// `labs(x)`, wrapping on `i64::MIN` like gcc's code.
pub fn labs(x: i64) -> i64 {
    x.wrapping_abs()
}

/// `putchar(c)`: appends `(unsigned char)c` to `out` and returns that byte as an `int`.
pub fn putchar(c: i32, out: &mut Vec<u8>) -> i32 {
    let byte = c as u8;
    out.push(byte);
    i32::from(byte)
}

/// A one-argument `math.h` function applied to `x`.
///
/// Returns `None` if `builtin` is not a one-argument math function.
pub fn math1(builtin: Builtin, x: f64) -> Option<f64> {
    Some(match builtin {
        Builtin::Sqrt => x.sqrt(),
        Builtin::Fabs => x.abs(),
        Builtin::Floor => x.floor(),
        Builtin::Ceil => x.ceil(),
        Builtin::Sin => x.sin(),
        Builtin::Cos => x.cos(),
        Builtin::Tan => x.tan(),
        Builtin::Atan => x.atan(),
        Builtin::Exp => x.exp(),
        Builtin::Log => x.ln(),
        Builtin::Log10 => x.log10(),
        _ => return None,
    })
}

/// A two-argument `math.h` function (`atan2(y, x)`, `pow(x, y)`, `fmod(x, y)`) applied to
/// `(a, b)` in C's argument order.
///
/// Returns `None` if `builtin` is not a two-argument math function.
pub fn math2(builtin: Builtin, a: f64, b: f64) -> Option<f64> {
    Some(match builtin {
        Builtin::Atan2 => a.atan2(b),
        Builtin::Pow => a.powf(b),
        // Rust's `%` on f64 is C's fmod (truncated remainder, sign of the dividend).
        Builtin::Fmod => a % b,
        _ => return None,
    })
}

/// Calls the math function `builtin` with `args` (as many as [`Builtin::params`] says).
///
/// Returns `None` if `builtin` is not a math function or `args` has the wrong length.
pub fn call_math(builtin: Builtin, args: &[f64]) -> Option<f64> {
    match *args {
        [x] => math1(builtin, x),
        [a, b] => math2(builtin, a, b),
        _ => None,
    }
}

/// What a gcc-compiled program computes for `builtin(args)` when every argument is a
/// *constant expression* (`log10(2.0)`, `sin(1.0 / 3)`, `pow(2, 0.5)`): gcc folds such calls at
/// compile time to the correctly rounded result when it is a finite double (and, for `log`
/// and `log10`, the argument is positive); otherwise the call runs at run time. Calls on
/// variables must use [`call_math`] instead: that is what gcc's program does for them.
///
/// Returns `None` if `builtin` is not a math function or `args` has the wrong length.
pub fn constant_call(builtin: Builtin, args: &[f64]) -> Option<f64> {
    let run_time = call_math(builtin, args)?;
    Some(fold::fold(builtin, args).unwrap_or(run_time))
}
