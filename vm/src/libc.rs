//! The library functions of the language ([`lang::builtins::Builtin`]), as glibc computes them.
//!
//! * `abs` and `labs` wrap on the most negative value (`abs(INT_MIN) == INT_MIN`): that is what
//!   gcc's code does (glibc's `abs` is `x < 0 ? -x : x`, and the negation wraps in two's
//!   complement; gcc inlines the same).
//! * The `math.h` functions ([`lang::builtins::Builtin::eval`]) are Rust's `f64` methods,
//!   which call the very same glibc `libm` functions a gcc-compiled program calls (`sin`,
//!   `exp`, `pow`, ...), or are exact operations (`sqrt`, `fabs`, `floor`, `ceil`, `fmod` are
//!   exactly rounded by definition), so the results are bit-identical at run time. `vm/tests/printf_math.rs` checks a sample against gcc.
//! * Calls whose arguments are all *constant expressions* are a special case: gcc evaluates
//!   them at compile time, even at `-O0`, with correctly rounded arithmetic (MPFR), and glibc's
//!   run-time `log10` (about 5% of arguments) and `sin cos tan exp atan2 pow` (about 0.1%)
//!   can differ from that in the last bit. [`lang::builtins::Builtin::eval_constant`] gives what
//!   gcc's program computes for such a call (the correctly rounded value where gcc folds, the
//!   run-time value where it does not); the compiler uses it for constant-argument calls, and
//!   the interpreter [`lang::builtins::Builtin::eval1`]/`eval2` for the rest.
//! * `putchar` writes `(unsigned char)c` and returns it as an `int`; `exit` is the interpreter's
//!   business (it ends the run with status `n & 255`).

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
