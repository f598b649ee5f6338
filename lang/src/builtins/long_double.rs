//! `long double` as gcc has it on x86-64: the x87 80-bit extended precision format (1 sign bit,
//! 15 exponent bits, a 64-bit significand with an explicit integer bit) stored in 16 bytes,
//! little-endian, the last 6 bytes padding (written as zeros here; gcc leaves them undefined).
//!
//! The arithmetic is `rustc_apfloat`'s `X87DoubleExtended` (LLVM's APFloat, which is what
//! LLVM itself folds x87 constants with): every operation correctly rounded to nearest, ties
//! to even, with the full 64-bit precision, as the x87 unit computes with its precision control
//! at "extended" (Linux's default). Where the x87 hardware and IEEE's abstract rules differ,
//! the hardware wins: an invalid operation (`0/0`, `inf - inf`) gives the x87 "real
//! indefinite", a *negative* quiet NaN (glibc prints it `-nan`), and an operation on a NaN
//! gives that NaN, quieted.
//!
//! The checker folds constant expressions with these functions and the VM runs the program's
//! operations with them (`vm::memory_calls`), so a constant and the same computation at run
//! time agree bit for bit.

use std::cmp::Ordering;

use rustc_apfloat::ieee::{Double, Single, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round};

/// The size of a `long double` in memory, and its alignment (gcc on x86-64).
pub const SIZE: u64 = 16;

/// The bytes of a `long double` that hold its value (the rest is padding).
pub const VALUE_BYTES: usize = 10;

/// An arithmetic operation on two `long double`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LdOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
}

impl LdOp {
    /// The operation's code as the VM's `__ld_arith` takes it (its fourth argument).
    pub fn code(self) -> i64 {
        match self {
            LdOp::Add => 0,
            LdOp::Sub => 1,
            LdOp::Mul => 2,
            LdOp::Div => 3,
        }
    }

    /// The operation with code `code` (see [`LdOp::code`]).
    pub fn from_code(code: i64) -> Option<LdOp> {
        Some(match code {
            0 => LdOp::Add,
            1 => LdOp::Sub,
            2 => LdOp::Mul,
            3 => LdOp::Div,
            _ => return None,
        })
    }
}

/// The parts of a floating value that printing needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatParts {
    /// `m * 2^e` (`m` is 0 for zero).
    Finite {
        /// The significand.
        m: u64,
        /// The binary exponent of its last bit.
        e: i64,
    },
    /// An infinity.
    Infinite,
    /// A NaN.
    NaN,
}

/// An x87 80-bit extended precision value: its 80 bits in the low bits of a `u128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LongDouble(u128);

/// The x87 "real indefinite": the negative quiet NaN an invalid operation produces.
const INDEFINITE: u128 = (0xffffu128 << 64) | (0xc000_0000_0000_0000u128);

const MASK80: u128 = (1u128 << 80) - 1;

impl LongDouble {
    /// Zero.
    pub const ZERO: LongDouble = LongDouble(0);

    /// The value whose 80 bits are the low bits of `bits`.
    pub fn from_bits(bits: u128) -> LongDouble {
        LongDouble(bits & MASK80)
    }

    /// The 80 bits.
    pub fn to_bits(self) -> u128 {
        self.0
    }

    /// The value stored in the first 10 of `bytes` (little-endian).
    pub fn from_bytes(bytes: &[u8]) -> LongDouble {
        let mut b = [0u8; 16];
        let n = bytes.len().min(VALUE_BYTES);
        b[..n].copy_from_slice(&bytes[..n]);
        LongDouble::from_bits(u128::from_le_bytes(b))
    }

    /// The 16 bytes gcc stores (the padding as zeros).
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }

    fn float(self) -> X87DoubleExtended {
        X87DoubleExtended::from_bits(self.0)
    }

    fn of(f: X87DoubleExtended) -> LongDouble {
        LongDouble::from_bits(f.to_bits())
    }

    /// Whether the sign bit is set (also for zeros and NaNs).
    pub fn is_sign_negative(self) -> bool {
        self.0 >> 79 & 1 == 1
    }

    /// Whether the value is a NaN (any of the encodings the x87 treats as one).
    pub fn is_nan(self) -> bool {
        self.float().is_nan()
    }

    /// The value of `x`, exactly.
    pub fn from_i64(x: i64) -> LongDouble {
        LongDouble::of(X87DoubleExtended::from_i128(i128::from(x)).value)
    }

    /// The value of `x`, exactly.
    pub fn from_u64(x: u64) -> LongDouble {
        LongDouble::of(X87DoubleExtended::from_u128(u128::from(x)).value)
    }

    /// The value of `x`, exactly (a NaN keeps its sign and the top of its payload).
    pub fn from_f64(x: f64) -> LongDouble {
        let d = Double::from_bits(u128::from(x.to_bits()));
        if d.is_nan() {
            // fldl keeps the payload, shifted to the top, and sets the integer bit.
            let bits = x.to_bits();
            let sign = u128::from(bits >> 63) << 79;
            let payload = u128::from(bits & ((1u64 << 52) - 1)) << 11;
            return LongDouble(sign | (0x7fffu128 << 64) | (1u128 << 63) | payload);
        }
        let mut loses = false;
        LongDouble::of(d.convert(&mut loses).value)
    }

    /// The nearest `double` (ties to even), as `fstpl` rounds.
    pub fn to_f64(self) -> f64 {
        if self.is_nan() {
            let sign = (self.0 >> 79) as u64 & 1;
            let payload = ((self.0 as u64) & ((1u64 << 63) - 1)) >> 11;
            return f64::from_bits(sign << 63 | 0x7ffu64 << 52 | 1u64 << 51 | payload);
        }
        let mut loses = false;
        let d: Double = self.float().convert(&mut loses).value;
        f64::from_bits(d.to_bits() as u64)
    }

    /// The nearest `float` (ties to even), rounded once, as `fstps` rounds.
    pub fn to_f32(self) -> f32 {
        if self.is_nan() {
            return self.to_f64() as f32;
        }
        let mut loses = false;
        let s: Single = self.float().convert(&mut loses).value;
        f32::from_bits(s.to_bits() as u32)
    }

    /// Truncation toward zero to a signed 64-bit integer, as `fisttpll` does: a NaN or a value
    /// out of range gives the "integer indefinite" `i64::MIN`.
    pub fn to_i64(self) -> i64 {
        let mut exact = false;
        let r = self.float().to_i128_r(64, Round::TowardZero, &mut exact);
        if self.is_nan() || r.status.contains(rustc_apfloat::Status::INVALID_OP) {
            return i64::MIN;
        }
        r.value as i64
    }

    /// Truncation toward zero to an unsigned 64-bit integer, as gcc's code does it: values
    /// below 2^63 through the signed conversion, larger ones by subtracting 2^63 first.
    pub fn to_u64(self) -> u64 {
        let two63 = LongDouble::from_u64(1u64 << 63);
        if self.compare(two63) == Some(Ordering::Less) || self.is_nan() {
            self.to_i64() as u64
        } else {
            (self.arith(LdOp::Sub, two63).to_i64() as u64) ^ (1u64 << 63)
        }
    }

    /// `self op rhs`, correctly rounded to nearest, ties to even.
    pub fn arith(self, op: LdOp, rhs: LongDouble) -> LongDouble {
        if self.is_nan() {
            return self.quieted();
        }
        if rhs.is_nan() {
            return rhs.quieted();
        }
        let (a, b) = (self.float(), rhs.float());
        let r = match op {
            LdOp::Add => a.add_r(b, Round::NearestTiesToEven),
            LdOp::Sub => a.sub_r(b, Round::NearestTiesToEven),
            LdOp::Mul => a.mul_r(b, Round::NearestTiesToEven),
            LdOp::Div => a.div_r(b, Round::NearestTiesToEven),
        };
        if r.value.is_nan() {
            return LongDouble(INDEFINITE);
        }
        LongDouble::of(r.value)
    }

    /// `-self`: the sign bit flipped (also for zeros and NaNs), as `fchs` does.
    pub fn negated(self) -> LongDouble {
        LongDouble(self.0 ^ (1u128 << 79))
    }

    fn quieted(self) -> LongDouble {
        LongDouble(self.0 | (1u128 << 62))
    }

    /// How `self` compares with `rhs` (`None` if either is a NaN; zeros of both signs equal).
    pub fn compare(self, rhs: LongDouble) -> Option<Ordering> {
        self.float().partial_cmp(&rhs.float())
    }

    /// The value of a decimal or hexadecimal floating constant's text (without suffix),
    /// correctly rounded; `None` if the text is not one.
    pub fn parse(text: &str) -> Option<LongDouble> {
        let text = text.trim();
        let r = X87DoubleExtended::from_str_r(text, Round::NearestTiesToEven).ok()?;
        Some(LongDouble::of(r.value))
    }

    /// The value's parts: `m * 2^e`, an infinity or a NaN (the sign apart).
    pub fn parts(self) -> FloatParts {
        let exponent = (self.0 >> 64) as u64 & 0x7fff;
        let m = self.0 as u64;
        if self.is_nan() {
            return FloatParts::NaN;
        }
        if exponent == 0x7fff {
            return FloatParts::Infinite;
        }
        // A denormal (exponent field 0) has the exponent of the smallest normal.
        let unbiased = exponent.max(1) as i64 - 16383;
        FloatParts::Finite {
            m,
            e: unbiased - 63,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact_or_correctly_rounded() {
        assert_eq!(LongDouble::from_i64(-5).to_f64(), -5.0);
        assert_eq!(LongDouble::from_u64(u64::MAX).to_u64(), u64::MAX);
        assert_eq!(LongDouble::from_i64(i64::MIN).to_i64(), i64::MIN);
        assert_eq!(LongDouble::from_f64(0.1).to_f64(), 0.1);
        // 2^64 - 1 needs 64 bits: exact in long double, rounds to 2^64 in double.
        assert_eq!(
            LongDouble::from_u64(u64::MAX).to_f64(),
            18446744073709551616.0
        );
        assert_eq!(LongDouble::from_f64(-2.75).to_i64(), -2);
        assert_eq!(LongDouble::from_f64(f64::NAN).to_i64(), i64::MIN);
    }

    #[test]
    fn bytes_are_the_x87_layout() {
        // 1.0L: exponent 16383 (0x3fff), integer bit set.
        let one = LongDouble::from_i64(1).to_bytes();
        assert_eq!(one[..10], [0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0x3f]);
        assert_eq!(LongDouble::from_bytes(&one), LongDouble::from_i64(1));
    }

    #[test]
    fn arithmetic_keeps_64_bits() {
        let third = LongDouble::from_i64(1).arith(LdOp::Div, LongDouble::from_i64(3));
        assert_eq!(
            third.parts(),
            FloatParts::Finite {
                m: 0xaaaa_aaaa_aaaa_aaab,
                e: -65
            }
        );
        assert_eq!(
            LongDouble::parse("0.1"),
            LongDouble::parse("0x1.999999999999999999999p-4")
        );
        let zero = LongDouble::ZERO;
        let nan = zero.arith(LdOp::Div, zero);
        assert!(nan.is_nan() && nan.is_sign_negative());
        assert_eq!(nan.compare(nan), None);
        assert_eq!(zero.negated().compare(zero), Some(Ordering::Equal));
    }
}
