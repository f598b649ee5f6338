//! Math calls with constant arguments, evaluated the way gcc folds them at compile time.
//!
//! gcc evaluates a call such as `log10(2.0)` or `sin(1.0 / 3)` whose arguments are constant
//! expressions while compiling, even at `-O0`, with MPFR: the result is the exact value
//! *correctly rounded* to double. glibc's run-time `log10`, `sin`, `pow`, ... are accurate to
//! about half an ulp but not always correctly rounded, so such a call can print a different last
//! digit from the same call on a variable. To print what gcc's program prints, the compiler
//! evaluates constant-argument calls with [`Builtin::eval_constant`], which uses this module.
//!
//! # gcc's folding rules (`fold-const-call.c`, `do_mpfr_arg1/2`, `do_mpfr_ckconv`)
//!
//! * Only finite arguments are folded; `log` and `log10` only for arguments `> 0`.
//! * The MPFR result (53 bits, unbounded exponent range) is used only if it is a finite number
//!   that converts to double exactly: an overflow, a NaN, or a tiny result that is not exactly
//!   representable as a subnormal double is left to the run-time library.
//! * `sqrt`, `fabs`, `floor`, `ceil`, `fmod` are exact, so folding and run time agree.
//!
//! # How the exact value is computed
//!
//! A small binary floating-point type ([`Float`]: a [`Big`] mantissa, an `i64` exponent,
//! truncating arithmetic at a chosen precision) evaluates each function to about 300 bits with
//! textbook series, then rounds once to 53 bits. That is the correctly rounded result unless
//! the exact value lies within about `2^-300` (relative) of a rounding boundary; the known
//! worst cases of these functions over all doubles come within about `2^-120` of one, so the
//! margin is ample. Exact results (`log(1)`, `log10(1000)`, `pow(4, 0.5)`: values that lie
//! *on* a double, not between two) round correctly from either side; `pow` with a small
//! positive integer exponent, whose result may be an exact tie between two doubles, is
//! computed exactly.
//!
//! * `exp(x)`: `x = k ln 2 + r`, then `exp(r / 2^12)` by Taylor series, squared 12 times.
//! * `log(x)`: `x = 2^t y` with `y` in `[sqrt(1/2), sqrt(2)]`, `log y = 2 atanh((y-1)/(y+1))`;
//!   `log10(x) = log(x) / log(10)`.
//! * `sin`, `cos`, `tan`: `x = q pi/2 + r` with `pi` (Machin's formula) carried to enough bits
//!   for the size of `x` (Cody-Waite reduction with a long `pi`), then Taylor series of `r`.
//! * `atan(x)`: `pi/2 - atan(1/x)` for `|x| > 1`, three argument halvings
//!   `x / (1 + sqrt(1 + x^2))`, then the Taylor series; `atan2` adds the quadrant.
//! * `asin(x) = atan(x / sqrt((1 - x)(1 + x)))`, `acos(x) = 2 atan(sqrt((1 - x) / (1 + x)))`
//!   (`1 - x` and `1 + x` are exact: no cancellation near `+-1`).
//! * `pow(x, y) = exp(y log x)` (sign from an odd integer `y`), exactly for `y` in `1..=64`.

use std::sync::OnceLock;

use super::bignum::Big;
use super::Builtin;

/// Working precision in bits of the series evaluations.
const PREC: usize = 320;

/// A binary floating-point number `(-1)^neg * m * 2^e` of arbitrary precision. Operations
/// truncate their result to the requested number of bits.
#[derive(Clone, Debug)]
struct Float {
    neg: bool,
    m: Big,
    e: i64,
}

impl Float {
    fn zero() -> Float {
        Float {
            neg: false,
            m: Big::zero(),
            e: 0,
        }
    }

    fn from_u64(v: u64) -> Float {
        Float {
            neg: false,
            m: Big::from_u64(v),
            e: 0,
        }
    }

    fn from_i64(v: i64) -> Float {
        Float {
            neg: v < 0,
            m: Big::from_u64(v.unsigned_abs()),
            e: 0,
        }
    }

    /// The exact value of a finite double.
    fn from_f64(x: f64) -> Float {
        let bits = x.to_bits();
        let exp_field = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e) = if exp_field == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), exp_field - 1075)
        };
        Float {
            neg: x.is_sign_negative(),
            m: Big::from_u64(m),
            e,
        }
    }

    fn is_zero(&self) -> bool {
        self.m.is_zero()
    }

    /// The exponent of the leading bit: `|self|` is in `[2^top, 2^(top+1))`. Zero gives
    /// `i64::MIN / 4`.
    fn top(&self) -> i64 {
        if self.is_zero() {
            i64::MIN / 4
        } else {
            self.e + self.m.bit_len() as i64 - 1
        }
    }

    /// Truncates the mantissa to at most `prec` bits.
    fn normalize(mut self, prec: usize) -> Float {
        let len = self.m.bit_len();
        if len > prec {
            let shift = len - prec;
            self.m.shr(shift);
            self.e += shift as i64;
        }
        if self.m.is_zero() {
            self.e = 0;
        }
        self
    }

    fn negate(mut self) -> Float {
        self.neg = !self.neg;
        self
    }

    fn abs(mut self) -> Float {
        self.neg = false;
        self
    }

    fn mul_pow2(mut self, k: i64) -> Float {
        self.e += k;
        self
    }

    fn add(&self, other: &Float, prec: usize) -> Float {
        if self.is_zero() {
            return other.clone().normalize(prec);
        }
        if other.is_zero() {
            return self.clone().normalize(prec);
        }
        let gap = prec as i64 + 8;
        if self.top() > other.top() + gap {
            return self.clone().normalize(prec);
        }
        if other.top() > self.top() + gap {
            return other.clone().normalize(prec);
        }
        let e = self.e.min(other.e);
        let mut a = self.m.clone();
        a.shl((self.e - e) as usize);
        let mut b = other.m.clone();
        b.shl((other.e - e) as usize);
        let (neg, m) = if self.neg == other.neg {
            (self.neg, a.add(&b))
        } else if a >= b {
            (self.neg, a.sub(&b))
        } else {
            (other.neg, b.sub(&a))
        };
        Float { neg, m, e }.normalize(prec)
    }

    fn sub(&self, other: &Float, prec: usize) -> Float {
        self.add(&other.clone().negate(), prec)
    }

    fn mul(&self, other: &Float, prec: usize) -> Float {
        Float {
            neg: self.neg != other.neg,
            m: self.m.mul(&other.m),
            e: self.e + other.e,
        }
        .normalize(prec)
    }

    /// `self / other`; `other` must not be zero.
    fn div(&self, other: &Float, prec: usize) -> Float {
        if self.is_zero() {
            return Float::zero();
        }
        let shift = (prec + 2 + other.m.bit_len()).saturating_sub(self.m.bit_len());
        let mut n = self.m.clone();
        n.shl(shift);
        Float {
            neg: self.neg != other.neg,
            m: n.div(&other.m),
            e: self.e - shift as i64 - other.e,
        }
        .normalize(prec)
    }

    fn div_small(&self, k: u32, prec: usize) -> Float {
        let mut m = self.m.clone();
        let shift = (prec + 40).saturating_sub(m.bit_len());
        m.shl(shift);
        m.div_small(k);
        Float {
            neg: self.neg,
            m,
            e: self.e - shift as i64,
        }
        .normalize(prec)
    }

    /// `sqrt(|self|)`.
    fn sqrt(&self, prec: usize) -> Float {
        if self.is_zero() {
            return Float::zero();
        }
        let mut shift = (2 * prec + 4).saturating_sub(self.m.bit_len()) as i64;
        if (self.e - shift) % 2 != 0 {
            shift += 1;
        }
        let mut m = self.m.clone();
        m.shl(shift as usize);
        Float {
            neg: false,
            m: m.isqrt(),
            e: (self.e - shift) / 2,
        }
        .normalize(prec)
    }

    /// An approximation as a double (the leading 64 bits, truncated; saturating to zero or
    /// infinity outside the double range). Used only to steer argument reductions.
    fn approx(&self) -> f64 {
        if self.is_zero() {
            return 0.0;
        }
        let len = self.m.bit_len();
        let mut top = self.m.clone();
        let shift = len.saturating_sub(64);
        top.shr(shift);
        let mut value = top.low_u64() as f64;
        let mut exp = self.e + shift as i64;
        while exp > 0 {
            let step = exp.min(1000);
            value *= 2f64.powi(step as i32);
            exp -= step;
        }
        while exp < 0 {
            let step = exp.max(-1000);
            value *= 2f64.powi(step as i32);
            exp -= step;
        }
        if self.neg {
            -value
        } else {
            value
        }
    }

    /// Whether `self` is negligible next to `sum` at precision `prec`.
    fn negligible(&self, sum: &Float, prec: usize) -> bool {
        self.is_zero() || self.top() < sum.top() - prec as i64 - 4
    }

    /// Rounds to the format's precision (ties to even) with an unbounded exponent, then
    /// converts to a value of the format if that is exact, as gcc's `do_mpfr_ckconv` requires:
    /// `None` on overflow or for a tiny result that is not exactly a subnormal of the format.
    /// A binary32 result is returned as the `f64` equal to it.
    fn round_like_gcc(&self, format: Format) -> Option<f64> {
        let p = format.precision;
        let sign = if self.neg { -1.0 } else { 1.0 };
        if self.is_zero() {
            return Some(0.0f64.copysign(sign));
        }
        let len = self.m.bit_len();
        let mut top = self.top();
        let mut mant = if len <= p {
            self.m.low_u64() << (p - len)
        } else {
            let shift = len - p;
            let mut q = self.m.clone();
            q.shr(shift);
            let mut mant = q.low_u64();
            let half = self.m.bit(shift - 1);
            let sticky = self.m.any_bits_below(shift - 1);
            if half && (sticky || mant & 1 == 1) {
                mant += 1;
            }
            mant
        };
        if mant == 1 << p {
            mant >>= 1;
            top += 1;
        }
        let emax = (1i64 << (format.exponent_bits - 1)) - 1;
        let emin = 1 - emax;
        if top > emax {
            return None;
        }
        let fraction_bits = p - 1;
        let bits = if top < emin {
            let lost = (emin - top) as u32;
            if lost as usize >= p || mant & ((1u64 << lost) - 1) != 0 {
                return None;
            }
            mant >> lost
        } else {
            (((top + emax) as u64) << fraction_bits) | (mant & ((1u64 << fraction_bits) - 1))
        };
        let value = if format == Format::BINARY32 {
            f64::from(f32::from_bits(bits as u32))
        } else {
            f64::from_bits(bits)
        };
        Some(value.copysign(sign))
    }
}

/// A binary floating-point format of the results: precision and exponent width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Format {
    /// Significand bits, including the implicit one.
    precision: usize,
    /// Width of the exponent field.
    exponent_bits: u32,
}

impl Format {
    /// `double`.
    const BINARY64: Format = Format {
        precision: 53,
        exponent_bits: 11,
    };
    /// `float`.
    const BINARY32: Format = Format {
        precision: 24,
        exponent_bits: 8,
    };
}

/// `sum_{k>=0} u^(2k+1) / (2k+1)` times `(-1)^k` if `alternating` (atan), else all positive
/// (atanh). Requires `|u| < 1`; converges fast for small `|u|`.
fn odd_series(u: &Float, alternating: bool, prec: usize) -> Float {
    let u2 = u.mul(u, prec);
    let mut power = u.clone();
    let mut sum = u.clone();
    let mut k: u32 = 1;
    loop {
        power = power.mul(&u2, prec);
        let term = power.div_small(2 * k + 1, prec);
        if term.negligible(&sum, prec) {
            return sum;
        }
        sum = if alternating && k % 2 == 1 {
            sum.sub(&term, prec)
        } else {
            sum.add(&term, prec)
        };
        k += 1;
    }
}

/// Bits to which the constants `pi`, `ln 2` and `ln 10` are computed once and cached: enough
/// for the largest precision any evaluation asks for (`pi` for reducing `|x|` up to `2^1024`).
const PI_BITS: usize = 1600;
const LOG_BITS: usize = 640;

/// `ln 2 = 2 atanh(1/3)`, to `prec <= LOG_BITS` bits.
fn ln2(prec: usize) -> Float {
    static LN2: OnceLock<Float> = OnceLock::new();
    debug_assert!(prec <= LOG_BITS);
    LN2.get_or_init(|| {
        let third = Float::from_u64(1).div_small(3, LOG_BITS);
        odd_series(&third, false, LOG_BITS).mul_pow2(1)
    })
    .clone()
    .normalize(prec)
}

/// `ln 10`, to `prec <= LOG_BITS - 20` bits.
fn ln10(prec: usize) -> Float {
    static LN10: OnceLock<Float> = OnceLock::new();
    LN10.get_or_init(|| ln(&Float::from_u64(10), LOG_BITS - 20))
        .clone()
        .normalize(prec)
}

/// `pi` to `prec <= PI_BITS` bits: `16 atan(1/5) - 4 atan(1/239)` (Machin), each `atan(1/n)`
/// by its Taylor series with the powers `n^-(2k+1)` obtained by short divisions, computed once.
fn pi(prec: usize) -> Float {
    static PI: OnceLock<Float> = OnceLock::new();
    debug_assert!(prec <= PI_BITS);
    PI.get_or_init(|| machin_pi(PI_BITS))
        .clone()
        .normalize(prec)
}

fn machin_pi(prec: usize) -> Float {
    let atan_inv = |n: u32| {
        let mut power = Float::from_u64(1).div_small(n, prec);
        let mut sum = power.clone();
        let mut k: u32 = 1;
        loop {
            power = power.div_small(n * n, prec);
            let term = power.div_small(2 * k + 1, prec);
            if term.negligible(&sum, prec) {
                return sum;
            }
            sum = if k % 2 == 1 {
                sum.sub(&term, prec)
            } else {
                sum.add(&term, prec)
            };
            k += 1;
        }
    };
    atan_inv(5)
        .mul_pow2(4)
        .sub(&atan_inv(239).mul_pow2(2), prec)
}

/// Natural logarithm of `x > 0`.
fn ln(x: &Float, prec: usize) -> Float {
    let p = prec + 20;
    let mut t = x.top();
    let mut y = x.clone().mul_pow2(-t);
    if y.approx() > std::f64::consts::SQRT_2 {
        y = y.mul_pow2(-1);
        t += 1;
    }
    let one = Float::from_u64(1);
    let u = y.sub(&one, p).div(&y.add(&one, p), p);
    let log_y = odd_series(&u, false, p).mul_pow2(1);
    if t == 0 {
        log_y
    } else {
        log_y.add(&ln2(p).mul(&Float::from_i64(t), p), p)
    }
}

/// `e^x` for `|x| < 1000`.
fn exp(x: &Float, prec: usize) -> Float {
    const SQUARINGS: i64 = 12;
    let p = prec + 40;
    let k = (x.approx() * std::f64::consts::LOG2_E).round() as i64;
    let r = x
        .sub(&ln2(p).mul(&Float::from_i64(k), p), p)
        .mul_pow2(-SQUARINGS);
    let mut sum = Float::from_u64(1);
    let mut term = Float::from_u64(1);
    let mut i: u32 = 1;
    loop {
        term = term.mul(&r, p).div_small(i, p);
        if term.negligible(&sum, p) {
            break;
        }
        sum = sum.add(&term, p);
        i += 1;
    }
    for _ in 0..SQUARINGS {
        sum = sum.mul(&sum, p);
    }
    sum.mul_pow2(k)
}

/// `(sin r, cos r)` by Taylor series, for `|r| <= pi/4` (roughly).
fn sin_cos_series(r: &Float, prec: usize) -> (Float, Float) {
    let r2 = r.mul(r, prec);
    let mut sin = r.clone();
    let mut term = r.clone();
    let mut k: u32 = 1;
    loop {
        term = term
            .mul(&r2, prec)
            .div_small((2 * k) * (2 * k + 1), prec)
            .negate();
        if term.negligible(&sin, prec) {
            break;
        }
        sin = sin.add(&term, prec);
        k += 1;
    }
    let mut cos = Float::from_u64(1);
    let mut term = Float::from_u64(1);
    let mut k: u32 = 1;
    loop {
        term = term
            .mul(&r2, prec)
            .div_small((2 * k - 1) * (2 * k), prec)
            .negate();
        if term.negligible(&cos, prec) {
            break;
        }
        cos = cos.add(&term, prec);
        k += 1;
    }
    (sin, cos)
}

/// Reduces `|x|` (finite, non-zero) to `q * pi/2 + r` with `|r| <= pi/4`; returns `q mod 4`
/// and `(sin r, cos r)`.
fn reduce_quadrant(x: &Float, prec: usize) -> (u64, Float, Float) {
    let x = x.clone().abs();
    // Enough bits of pi that q * pi/2 is exact to 2^-(prec + 80) even for q ~ 2^1024.
    let p = x.top().max(0) as usize + prec + 80;
    let half_pi = pi(p).mul_pow2(-1);
    let y = x.div(&half_pi, p);
    // q = round(y): y's mantissa shifted right by -e, plus one half.
    let q = if y.e >= 0 {
        let mut q = y.m.clone();
        q.shl(y.e as usize);
        q
    } else {
        let shift = (-y.e) as usize;
        let mut half = Big::from_u64(1);
        half.shl(shift - 1);
        let mut q = y.m.add(&half);
        q.shr(shift);
        q
    };
    let quadrant = q.low_u64() & 3;
    let q_float = Float {
        neg: false,
        m: q,
        e: 0,
    };
    let r = x.sub(&q_float.mul(&half_pi, p), p).normalize(prec);
    let (s, c) = sin_cos_series(&r, prec);
    (quadrant, s, c)
}

/// `atan(x)` for any finite `x`.
fn atan(x: &Float, prec: usize) -> Float {
    let p = prec + 30;
    let neg = x.neg;
    let mut a = x.clone().abs();
    let one = Float::from_u64(1);
    let invert = a.approx() > 1.0;
    if invert {
        a = one.div(&a, p);
    }
    for _ in 0..3 {
        // a / (1 + sqrt(1 + a^2)) = tan(atan(a) / 2)
        let root = one.add(&a.mul(&a, p), p).sqrt(p);
        a = a.div(&one.add(&root, p), p);
    }
    let mut result = odd_series(&a, true, p).mul_pow2(3);
    if invert {
        result = pi(p).mul_pow2(-1).sub(&result, p);
    }
    if neg {
        result.negate()
    } else {
        result
    }
}

/// `x^n` exactly, for `n >= 1`.
fn pow_exact(x: &Float, n: u32) -> Float {
    const EXACT: usize = usize::MAX / 4;
    let mut result = Float::from_u64(1);
    let mut base = x.clone();
    let mut n = n;
    while n > 0 {
        if n & 1 == 1 {
            result = result.mul(&base, EXACT);
        }
        n >>= 1;
        if n > 0 {
            base = base.mul(&base, EXACT);
        }
    }
    result
}

/// The value gcc's compile-time folding gives for `builtin(args)` with finite arguments, or
/// `None` when gcc leaves the call to the run-time library. A `float` function (`sinf`) is
/// its `double` form's exact value rounded to binary32 (gcc folds with MPFR at the precision
/// of the result's type).
pub(super) fn fold(builtin: Builtin, args: &[f64]) -> Option<f64> {
    if args.iter().any(|a| !a.is_finite()) {
        return None;
    }
    let (base, format) = match builtin.double_form() {
        Some(d) => (d, Format::BINARY32),
        None => (builtin, Format::BINARY64),
    };
    let result = match (base, args) {
        (Builtin::Exp, &[x]) => {
            if x == 0.0 {
                return Some(1.0);
            }
            if x.abs() > 1000.0 {
                return None;
            }
            exp(&Float::from_f64(x), PREC)
        }
        (Builtin::Log | Builtin::Log10, &[x]) => {
            if x <= 0.0 {
                return None;
            }
            let l = ln(&Float::from_f64(x), PREC);
            if base == Builtin::Log {
                l
            } else {
                l.div(&ln10(PREC + 20), PREC)
            }
        }
        (Builtin::Sin | Builtin::Cos | Builtin::Tan, &[x]) => {
            if x == 0.0 {
                // sin(±0) = ±0, tan(±0) = ±0, cos(±0) = 1.
                return Some(if base == Builtin::Cos { 1.0 } else { x });
            }
            let (quadrant, s, c) = reduce_quadrant(&Float::from_f64(x), PREC);
            let (s, c) = match quadrant {
                0 => (s, c),
                1 => (c, s.negate()),
                2 => (s.negate(), c.negate()),
                _ => (c.negate(), s),
            };
            let value = match base {
                Builtin::Sin => s,
                Builtin::Cos => c,
                _ => s.div(&c, PREC),
            };
            // sin and tan are odd, cos is even.
            if x < 0.0 && base != Builtin::Cos {
                value.negate()
            } else {
                value
            }
        }
        (Builtin::Atan, &[x]) => {
            if x == 0.0 {
                return Some(x);
            }
            atan(&Float::from_f64(x), PREC)
        }
        (Builtin::Asin | Builtin::Acos, &[x]) => {
            // Outside [-1, 1] the result is a NaN: left to the library, as gcc does.
            if !(-1.0..=1.0).contains(&x) {
                return None;
            }
            if base == Builtin::Asin && x == 0.0 {
                return Some(x);
            }
            let one = Float::from_u64(1);
            let v = Float::from_f64(x);
            // 1 - x and 1 + x are exact; neither formula cancels.
            let (below, above) = (one.sub(&v, PREC + 64), one.add(&v, PREC + 64));
            if base == Builtin::Asin {
                // asin x = atan(x / sqrt((1 - x)(1 + x))), +-pi/2 at +-1.
                if below.is_zero() || above.is_zero() {
                    let half_pi = pi(PREC).mul_pow2(-1);
                    if x < 0.0 {
                        half_pi.negate()
                    } else {
                        half_pi
                    }
                } else {
                    let root = below.mul(&above, PREC + 30).sqrt(PREC + 30);
                    atan(&v.div(&root, PREC + 30), PREC)
                }
            } else if above.is_zero() {
                pi(PREC)
            } else {
                // acos x = 2 atan(sqrt((1 - x) / (1 + x))).
                if below.is_zero() {
                    return Some(0.0);
                }
                let t = below.div(&above, PREC + 30).sqrt(PREC + 30);
                atan(&t, PREC).mul_pow2(1)
            }
        }
        (Builtin::Atan2, &[y, x]) => {
            let pi_signed = |negative: bool| {
                let p = pi(PREC);
                if negative {
                    p.negate()
                } else {
                    p
                }
            };
            let y_neg = y.is_sign_negative();
            if y == 0.0 {
                if x > 0.0 || (x == 0.0 && !x.is_sign_negative()) {
                    return Some(y);
                }
                pi_signed(y_neg)
            } else if x == 0.0 {
                pi_signed(y_neg).mul_pow2(-1)
            } else {
                let a = atan(
                    &Float::from_f64(y).div(&Float::from_f64(x), PREC + 30),
                    PREC,
                );
                if x > 0.0 {
                    a
                } else {
                    a.add(&pi_signed(y_neg), PREC)
                }
            }
        }
        (Builtin::Pow, &[x, y]) => return fold_pow(x, y, format),
        (Builtin::Sqrt | Builtin::Fabs | Builtin::Floor | Builtin::Ceil | Builtin::Fmod, _) => {
            // Exactly rounded: folding and run time agree; NaN results are not folded.
            let value = builtin.eval(args)?;
            return (!value.is_nan()).then_some(value);
        }
        _ => return None,
    };
    result.round_like_gcc(format)
}

/// `pow(x, y)` as MPFR computes it, for finite `x` and `y`.
fn fold_pow(x: f64, y: f64, format: Format) -> Option<f64> {
    if y == 0.0 || x == 1.0 {
        return Some(1.0);
    }
    let integer = y == y.trunc();
    let odd = integer && y.abs() < 9.007_199_254_740_992e15 && (y as i64) % 2 != 0;
    if x == 0.0 {
        // pow(±0, y > 0) is +0, or ±0 for an odd integer y; y < 0 gives an infinity.
        return (y > 0.0).then_some(if odd { x } else { 0.0 });
    }
    if x < 0.0 && !integer {
        return None; // NaN
    }
    let base = Float::from_f64(x).abs();
    let magnitude = if integer && (1.0..=64.0).contains(&y) {
        pow_exact(&base, y as u32)
    } else {
        let z = ln(&base, PREC + 64).mul(&Float::from_f64(y), PREC + 64);
        if z.approx().abs() > 1000.0 {
            return None; // certain overflow or underflow
        }
        exp(&z, PREC)
    };
    let value = if x < 0.0 && odd {
        magnitude.negate()
    } else {
        magnitude
    };
    value.round_like_gcc(format)
}
