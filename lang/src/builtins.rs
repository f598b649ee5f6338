//! The library functions of the language (besides `printf` and `puts`).
//!
//! Each [`Builtin`] is a C library function with a fixed signature: the checker looks a called
//! name up with [`Builtin::lookup`] (a program may not define a function of the same name),
//! converts the arguments to [`Builtin::params`] as C does for a prototyped call, and gives the
//! call the type [`Builtin::result`]. The VM implements them (`vm::libc`) exactly like glibc:
//! `abs`/`labs` wrap on the most negative value (as gcc's `-fwrapv` code does), and the math
//! functions call the same libm as a gcc-compiled program ([`Builtin::eval`]).
//!
//! The `float` forms of the math functions (`sinf`, `powf`, ...) take and return `float`; they
//! compute in binary32 with glibc's float functions (`sinf` is not `(float)sin(x)`).
//!
//! Math calls whose arguments are all constant expressions are different: gcc evaluates them
//! while compiling, even at `-O0`, correctly rounded, and glibc's run-time result can differ in
//! the last bit (`log10` for about 5% of arguments). [`Builtin::eval_constant`] reproduces gcc's
//! folding exactly (module `fold`, exact arithmetic from [`bignum`]); the compiler uses it for
//! such calls.
//!
//! `printf` and `puts` are not here: their first argument must be a string literal, so the
//! checker handles them directly (see [`crate::printf_format`]).

use std::fmt;

use crate::scalar::ScalarType;

pub mod bignum;
mod fold;
pub mod long_double;
pub mod memory;

/// A library function callable from programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Builtin {
    /// `int putchar(int c)`: writes `(unsigned char)c` to stdout and returns it.
    Putchar,
    /// `void exit(int status)`: ends the program; the exit status is `status & 255`.
    Exit,
    /// `int abs(int x)`: absolute value; `abs(INT_MIN)` is `INT_MIN` (wraps).
    Abs,
    /// `long labs(long x)`: absolute value; `labs(LONG_MIN)` is `LONG_MIN` (wraps).
    Labs,
    /// `int rand(void)`: the next value of glibc's generator, in `0..=RAND_MAX` (`2^31 - 1`).
    Rand,
    /// `void srand(unsigned seed)`: restarts glibc's generator from `seed`.
    Srand,
    /// `double sqrt(double x)`: square root (`-nan` for negative `x`).
    Sqrt,
    /// `double fabs(double x)`: absolute value (clears the sign bit).
    Fabs,
    /// `double floor(double x)`: largest integral value not greater than `x`.
    Floor,
    /// `double ceil(double x)`: smallest integral value not less than `x`.
    Ceil,
    /// `double sin(double x)`: sine of `x` radians.
    Sin,
    /// `double cos(double x)`: cosine of `x` radians.
    Cos,
    /// `double tan(double x)`: tangent of `x` radians.
    Tan,
    /// `double atan(double x)`: arc tangent, in `[-pi/2, pi/2]`.
    Atan,
    /// `double asin(double x)`: arc sine, in `[-pi/2, pi/2]` (NaN outside `[-1, 1]`).
    Asin,
    /// `double acos(double x)`: arc cosine, in `[0, pi]` (NaN outside `[-1, 1]`).
    Acos,
    /// `double atan2(double y, double x)`: arc tangent of `y/x` using both signs, in `[-pi, pi]`.
    Atan2,
    /// `double exp(double x)`: `e` raised to `x`.
    Exp,
    /// `double log(double x)`: natural logarithm.
    Log,
    /// `double log10(double x)`: base-10 logarithm.
    Log10,
    /// `double pow(double x, double y)`: `x` raised to `y`.
    Pow,
    /// `double fmod(double x, double y)`: remainder of `x / y` with the sign of `x`.
    Fmod,
    /// `float sqrtf(float x)`: square root, in `float`.
    Sqrtf,
    /// `float fabsf(float x)`: absolute value, in `float`.
    Fabsf,
    /// `float floorf(float x)`: largest integral value not greater than `x`, in `float`.
    Floorf,
    /// `float ceilf(float x)`: smallest integral value not less than `x`, in `float`.
    Ceilf,
    /// `float sinf(float x)`: sine, in `float`.
    Sinf,
    /// `float cosf(float x)`: cosine, in `float`.
    Cosf,
    /// `float tanf(float x)`: tangent, in `float`.
    Tanf,
    /// `float atanf(float x)`: arc tangent, in `float`.
    Atanf,
    /// `float asinf(float x)`.
    Asinf,
    /// `float acosf(float x)`.
    Acosf,
    /// `float atan2f(float y, float x)`: arc tangent of `y/x`, in `float`.
    Atan2f,
    /// `float expf(float x)`: `e` raised to `x`, in `float`.
    Expf,
    /// `float logf(float x)`: natural logarithm, in `float`.
    Logf,
    /// `float log10f(float x)`: base-10 logarithm, in `float`.
    Log10f,
    /// `float powf(float x, float y)`: `x` raised to `y`, in `float`.
    Powf,
    /// `float fmodf(float x, float y)`: remainder of `x / y`, in `float`.
    Fmodf,
}

impl Builtin {
    /// Every builtin, in declaration order.
    pub const ALL: [Builtin; 38] = [
        Builtin::Putchar,
        Builtin::Exit,
        Builtin::Abs,
        Builtin::Labs,
        Builtin::Rand,
        Builtin::Srand,
        Builtin::Sqrt,
        Builtin::Fabs,
        Builtin::Floor,
        Builtin::Ceil,
        Builtin::Sin,
        Builtin::Cos,
        Builtin::Tan,
        Builtin::Atan,
        Builtin::Asin,
        Builtin::Acos,
        Builtin::Atan2,
        Builtin::Exp,
        Builtin::Log,
        Builtin::Log10,
        Builtin::Pow,
        Builtin::Fmod,
        Builtin::Sqrtf,
        Builtin::Fabsf,
        Builtin::Floorf,
        Builtin::Ceilf,
        Builtin::Sinf,
        Builtin::Cosf,
        Builtin::Tanf,
        Builtin::Atanf,
        Builtin::Asinf,
        Builtin::Acosf,
        Builtin::Atan2f,
        Builtin::Expf,
        Builtin::Logf,
        Builtin::Log10f,
        Builtin::Powf,
        Builtin::Fmodf,
    ];

    /// The builtin called `name` in C, if any.
    pub fn lookup(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The C name of the function (`"atan2"`).
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Putchar => "putchar",
            Builtin::Exit => "exit",
            Builtin::Abs => "abs",
            Builtin::Labs => "labs",
            Builtin::Rand => "rand",
            Builtin::Srand => "srand",
            Builtin::Sqrt => "sqrt",
            Builtin::Fabs => "fabs",
            Builtin::Floor => "floor",
            Builtin::Ceil => "ceil",
            Builtin::Sin => "sin",
            Builtin::Cos => "cos",
            Builtin::Tan => "tan",
            Builtin::Atan => "atan",
            Builtin::Asin => "asin",
            Builtin::Acos => "acos",
            Builtin::Atan2 => "atan2",
            Builtin::Exp => "exp",
            Builtin::Log => "log",
            Builtin::Log10 => "log10",
            Builtin::Pow => "pow",
            Builtin::Fmod => "fmod",
            Builtin::Sqrtf => "sqrtf",
            Builtin::Fabsf => "fabsf",
            Builtin::Floorf => "floorf",
            Builtin::Ceilf => "ceilf",
            Builtin::Sinf => "sinf",
            Builtin::Cosf => "cosf",
            Builtin::Tanf => "tanf",
            Builtin::Atanf => "atanf",
            Builtin::Asinf => "asinf",
            Builtin::Acosf => "acosf",
            Builtin::Atan2f => "atan2f",
            Builtin::Expf => "expf",
            Builtin::Logf => "logf",
            Builtin::Log10f => "log10f",
            Builtin::Powf => "powf",
            Builtin::Fmodf => "fmodf",
        }
    }

    /// The parameter types; arguments are converted to them as for a prototyped C call.
    pub fn params(self) -> &'static [ScalarType] {
        use ScalarType::{Double, Float, Int, Long, UInt};
        match self {
            Builtin::Atan2f | Builtin::Powf | Builtin::Fmodf => &[Float, Float],
            Builtin::Sqrtf
            | Builtin::Fabsf
            | Builtin::Floorf
            | Builtin::Ceilf
            | Builtin::Sinf
            | Builtin::Cosf
            | Builtin::Tanf
            | Builtin::Atanf
            | Builtin::Asinf
            | Builtin::Acosf
            | Builtin::Expf
            | Builtin::Logf
            | Builtin::Log10f => &[Float],
            Builtin::Putchar | Builtin::Exit | Builtin::Abs => &[Int],
            Builtin::Labs => &[Long],
            Builtin::Rand => &[],
            Builtin::Srand => &[UInt],
            Builtin::Atan2 | Builtin::Pow | Builtin::Fmod => &[Double, Double],
            Builtin::Sqrt
            | Builtin::Fabs
            | Builtin::Floor
            | Builtin::Ceil
            | Builtin::Sin
            | Builtin::Cos
            | Builtin::Tan
            | Builtin::Atan
            | Builtin::Asin
            | Builtin::Acos
            | Builtin::Exp
            | Builtin::Log
            | Builtin::Log10 => &[Double],
        }
    }

    /// The result type; `None` for `exit`, which returns `void` (and never returns).
    pub fn result(self) -> Option<ScalarType> {
        match self {
            Builtin::Exit | Builtin::Srand => None,
            Builtin::Putchar | Builtin::Abs | Builtin::Rand => Some(ScalarType::Int),
            Builtin::Labs => Some(ScalarType::Long),
            _ if self.is_float_math() => Some(ScalarType::Float),
            _ => Some(ScalarType::Double),
        }
    }

    /// Whether this is one of the functions of `math.h`, `double` or `float` (all but
    /// `putchar`, `exit`, `abs`, `labs`, `rand`, `srand`).
    pub fn is_math(self) -> bool {
        !matches!(
            self,
            Builtin::Putchar
                | Builtin::Exit
                | Builtin::Abs
                | Builtin::Labs
                | Builtin::Rand
                | Builtin::Srand
        )
    }

    /// Whether this is one of the `float` functions of `math.h` (`sinf`, `powf`, ...).
    pub fn is_float_math(self) -> bool {
        self.double_form().is_some()
    }

    /// The `double` function a `float` math function is the `f` form of (`Sinf` gives `Sin`);
    /// `None` for every other function.
    pub fn double_form(self) -> Option<Builtin> {
        Some(match self {
            Builtin::Sqrtf => Builtin::Sqrt,
            Builtin::Fabsf => Builtin::Fabs,
            Builtin::Floorf => Builtin::Floor,
            Builtin::Ceilf => Builtin::Ceil,
            Builtin::Sinf => Builtin::Sin,
            Builtin::Cosf => Builtin::Cos,
            Builtin::Tanf => Builtin::Tan,
            Builtin::Atanf => Builtin::Atan,
            Builtin::Asinf => Builtin::Asin,
            Builtin::Acosf => Builtin::Acos,
            Builtin::Atan2f => Builtin::Atan2,
            Builtin::Expf => Builtin::Exp,
            Builtin::Logf => Builtin::Log,
            Builtin::Log10f => Builtin::Log10,
            Builtin::Powf => Builtin::Pow,
            Builtin::Fmodf => Builtin::Fmod,
            _ => return None,
        })
    }

    /// The header that declares the function in C (`"stdio.h"`, `"stdlib.h"` or `"math.h"`).
    pub fn header(self) -> &'static str {
        match self {
            Builtin::Putchar => "stdio.h",
            Builtin::Exit | Builtin::Abs | Builtin::Labs | Builtin::Rand | Builtin::Srand => {
                "stdlib.h"
            }
            _ => "math.h",
        }
    }
}

impl Builtin {
    /// A one-argument math function applied to `x` at run time: Rust's `f64` and `f32`
    /// methods, which call the same glibc libm functions (`sin`, `sinf`, ...) a gcc-compiled
    /// program calls (or are exact operations), so the bits are identical. A `float` function
    /// takes and returns a `float` held in an `f64` (exactly; see the bytecode's value
    /// representation). `None` if this is not a one-argument math function.
    #[inline]
    pub fn eval1(self, x: f64) -> Option<f64> {
        if self.is_float_math() {
            return self.eval1_f32(x as f32).map(f64::from);
        }
        Some(match self {
            Builtin::Sqrt => x.sqrt(),
            Builtin::Fabs => x.abs(),
            // Rust's floor/ceil return a signaling NaN unchanged; glibc's quiet it (x + x
            // does, keeping sign and payload). Every other input gives the exact result.
            Builtin::Floor if x.is_nan() => x + x,
            Builtin::Ceil if x.is_nan() => x + x,
            Builtin::Floor => x.floor(),
            Builtin::Ceil => x.ceil(),
            Builtin::Sin => x.sin(),
            Builtin::Cos => x.cos(),
            Builtin::Tan => x.tan(),
            Builtin::Atan => x.atan(),
            Builtin::Asin => x.asin(),
            Builtin::Acos => x.acos(),
            Builtin::Exp => x.exp(),
            Builtin::Log => x.ln(),
            Builtin::Log10 => x.log10(),
            _ => return None,
        })
    }

    /// A one-argument `float` math function at run time (glibc's `sinf`, ...).
    fn eval1_f32(self, x: f32) -> Option<f32> {
        Some(match self {
            Builtin::Sqrtf => x.sqrt(),
            Builtin::Fabsf => x.abs(),
            // As for `floor`: glibc quiets a signaling NaN.
            Builtin::Floorf | Builtin::Ceilf if x.is_nan() => x + x,
            Builtin::Floorf => x.floor(),
            Builtin::Ceilf => x.ceil(),
            Builtin::Sinf => x.sin(),
            Builtin::Cosf => x.cos(),
            Builtin::Tanf => x.tan(),
            Builtin::Atanf => x.atan(),
            Builtin::Asinf => x.asin(),
            Builtin::Acosf => x.acos(),
            Builtin::Expf => x.exp(),
            Builtin::Logf => x.ln(),
            Builtin::Log10f => x.log10(),
            _ => return None,
        })
    }

    /// A two-argument math function (`atan2(y, x)`, `pow(x, y)`, `fmod(x, y)` and their `float`
    /// forms) applied to `(a, b)` in C's argument order at run time. `None` if this is not a
    /// two-argument math function.
    #[inline]
    pub fn eval2(self, a: f64, b: f64) -> Option<f64> {
        if self.is_float_math() {
            let (x, y) = (a as f32, b as f32);
            return Some(f64::from(match self {
                Builtin::Atan2f => x.atan2(y),
                Builtin::Powf => x.powf(y),
                Builtin::Fmodf => x % y,
                _ => return None,
            }));
        }
        Some(match self {
            Builtin::Atan2 => a.atan2(b),
            Builtin::Pow => a.powf(b),
            // Rust's `%` on f64 is C's fmod (truncated remainder, sign of the dividend).
            Builtin::Fmod => a % b,
            _ => return None,
        })
    }

    /// A math function applied to `args` at run time ([`Builtin::eval1`] or
    /// [`Builtin::eval2`]). `None` if this is not a math function or `args` has the wrong
    /// length.
    pub fn eval(self, args: &[f64]) -> Option<f64> {
        match *args {
            [x] => self.eval1(x),
            [a, b] => self.eval2(a, b),
            _ => None,
        }
    }

    /// What a gcc-compiled program computes for this math function applied to `args` when
    /// every argument is a *constant expression* (`log10(2.0)`, `sin(1.0 / 3)`): gcc folds
    /// such a call at compile time to the correctly rounded result when that is a finite
    /// double exactly representable (and, for `log`/`log10`, the argument is positive);
    /// otherwise the call happens at run time, and this returns [`Builtin::eval`]'s value.
    /// Calls with non-constant arguments must use [`Builtin::eval`]. `None` if this is not a
    /// math function or `args` has the wrong length.
    pub fn eval_constant(self, args: &[f64]) -> Option<f64> {
        let run_time = self.eval(args)?;
        Some(fold::fold(self, args).unwrap_or(run_time))
    }
}

impl fmt::Display for Builtin {
    /// Writes the C name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
