//! `printf` rendering, byte-identical to glibc.
//!
//! [`format()`] renders a format string parsed at check time ([`lang::printf_format::parse`])
//! with the run-time argument values. Every flag, width, precision, length modifier and
//! conversion the parser accepts prints exactly the bytes glibc's `printf` prints; the
//! differential tests in `vm/tests/printf_*.rs` hold this against gcc-compiled C.
//!
//! # Integers
//!
//! An argument is taken as a 64-bit pattern and cut to the width the length modifier names
//! (`hh` 8, `h` 16, none 32, `l`/`ll` 64 bits), then read as signed (`%d %i`) or unsigned
//! (`%u %o %x %X`): this is what C's `va_arg` plus the conversion to `short`/`char` does, so
//! `%u` of `-1` prints `4294967295` and `%hd` of `40000` prints `-25536`. The precision is the
//! minimum number of digits (`%.0d` of 0 prints no digits), `#` makes octal start with `0` and
//! prefixes non-zero hexadecimal with `0x`/`0X`, and the `0` flag pads with zeros after the
//! sign and prefix unless a precision or `-` is given.
//!
//! # Floating point: exact decimal conversion
//!
//! glibc prints the *exact* binary value of the double, correctly rounded to the requested
//! number of digits under the default rounding mode (round half to even on exact ties, which
//! happen only when the decimal expansion ends exactly at a 5). We do the same with a small
//! arbitrary-precision integer ([`Big`]): a finite `x = m * 2^e` scaled by `10^k` is the
//! fraction `N / D` with `N = m * 2^max(e,0) * 10^max(k,0)` and `D = 2^max(-e,0) * 10^max(-k,0)`;
//! the quotient `q = floor(N / D)` is computed by dividing by powers of five and shifting, and
//! the rounding direction by comparing `2N` with `(2q + 1) * D`. When `N` and `D` stay below
//! `2^126` (ordinary magnitudes and precisions) the same is done in `u128` arithmetic.
//!
//! * `%f` with precision `p` prints `round(|x| * 10^p)` with the point `p` digits from the right.
//!   Since `x * 10^-e` is an integer when `e < 0`, digits past position `-e` (at most 1074) are
//!   exact zeros and are appended without arithmetic, so `%.60000f` stays cheap.
//! * `%e` with precision `p` needs `P = p + 1` significant digits and the decimal exponent `X`
//!   with `10^X <= |x| < 10^(X+1)`: `X` is estimated from the binary exponent, corrected by
//!   looking at the digit count of `floor(|x| * 10^(P-1-X))`, and bumped when rounding carries
//!   into a new digit (`9.96` to 2 digits is `1.0e+01`). A double has at most 767 significant
//!   decimal digits, so beyond 800 digits the expansion is exact and zeros are appended.
//! * `%g` with precision `P` (0 means 1, default 6) takes the `%e` digits and exponent `X`;
//!   if `P > X >= -4` it prints them in `%f` style with precision `P - 1 - X`, otherwise in
//!   `%e` style with precision `P - 1`; then, unless `#` is given, trailing zeros of the
//!   fraction and a bare trailing point are removed. (Rounding to `P` significant digits gives
//!   the same digits as `%f` at precision `P - 1 - X`, even when rounding carried, so one
//!   conversion serves both styles.)
//! * glibc's one quirk is reproduced: with `#`, when the unrounded value has exponent `P - 1`
//!   (`%f` style with no fraction digits) and rounding carries to exponent `P`, glibc prints
//!   the `%e` style mantissa as a bare `1.`: `%#.3g` of 999.5 is `1.e+03`, not `1.00e+03`.
//!
//! The sign is the sign *bit*: `-0.0` prints as `-0.000000`, and a NaN with the sign bit set
//! prints as `-nan` (what x86-64 produces for `0.0/0.0` and `sqrt(-1)`), as glibc does.
//! Infinities and NaNs print `inf`/`nan` (`INF`/`NAN` for `F E G`), padded with spaces even
//! when the `0` flag is given.

use lang::builtins::bignum::Big;
use lang::builtins::long_double::{FloatParts, LongDouble};
use lang::printf_format::{Conv, Piece, Spec};

/// One run-time argument of `printf`, after the default argument promotions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PrintfArg<'a> {
    /// A signed integer (`char`, `int` and `long` values, sign-extended).
    Int(i64),
    /// An unsigned integer (`unsigned int` and `unsigned long` values, zero-extended).
    UInt(u64),
    /// A `double`.
    Double(f64),
    /// A `long double` (`%Lf` ...).
    LongDouble(LongDouble),
    /// The bytes of a string literal (no terminating NUL).
    Str(&'a [u8]),
}

impl PrintfArg<'_> {
    /// The argument as a 64-bit pattern, for the integer conversions and `%c`.
    ///
    /// The checker guarantees integer arguments for these conversions; the other cases only
    /// keep a mismatched call from panicking (a double converts like a C cast to `long`, a
    /// string reads as 0).
    fn bits(self) -> u64 {
        match self {
            PrintfArg::Int(v) => v as u64,
            PrintfArg::UInt(v) => v,
            PrintfArg::Double(d) => d as i64 as u64,
            PrintfArg::LongDouble(x) => x.to_i64() as u64,
            PrintfArg::Str(_) => 0,
        }
    }

    /// The argument as a double, for the floating conversions (integers convert by value,
    /// a string reads as 0; the checker prevents both).
    fn double(self) -> f64 {
        match self {
            PrintfArg::Double(d) => d,
            PrintfArg::LongDouble(x) => x.to_f64(),
            PrintfArg::Int(v) => v as f64,
            PrintfArg::UInt(v) => v as f64,
            PrintfArg::Str(_) => 0.0,
        }
    }
}

/// Renders `pieces` with `args` (one per conversion other than `%%`, in order) and appends
/// the bytes to `out`, exactly as glibc's `printf` would print them.
///
/// The checker guarantees that the arguments match the conversions. Should they not, the
/// rendering stays panic-free: a missing argument reads as integer 0, and a mismatched one is
/// converted as described on [`PrintfArg`]'s helpers.
pub fn format(pieces: &[Piece], args: &[PrintfArg<'_>], out: &mut Vec<u8>) {
    let mut next = args.iter().copied();
    for piece in pieces {
        match piece {
            Piece::Literal(bytes) => out.extend_from_slice(bytes),
            Piece::Conversion(spec) => {
                if spec.conv == Conv::Percent {
                    out.push(b'%');
                    continue;
                }
                if spec.width_star || spec.precision_star {
                    let mut fixed = *spec;
                    let mut int = || next.next().map_or(0, |a| a.bits() as i32);
                    if spec.width_star {
                        // A negative width is the `-` flag and its absolute value.
                        let w = int();
                        fixed.flags.left |= w < 0;
                        fixed.width = Some(w.unsigned_abs());
                    }
                    if spec.precision_star {
                        // A negative precision is taken as if it were omitted.
                        let p = int();
                        fixed.precision = u32::try_from(p).ok();
                    }
                    let arg = next.next().unwrap_or(PrintfArg::Int(0));
                    format_one(&fixed, arg, out);
                    continue;
                }
                let arg = next.next().unwrap_or(PrintfArg::Int(0));
                format_one(spec, arg, out);
            }
        }
    }
}

/// Renders one conversion (not `%%`) with its argument.
pub fn format_one(spec: &Spec, arg: PrintfArg<'_>, out: &mut Vec<u8>) {
    match spec.conv {
        Conv::Percent => out.push(b'%'),
        Conv::Signed | Conv::Unsigned | Conv::Octal | Conv::HexLower | Conv::HexUpper => {
            format_integer(spec, arg.bits(), out)
        }
        Conv::Char => {
            // `%c` converts the int argument to unsigned char.
            let byte = [arg.bits() as u8];
            pad_simple(spec, &byte, out);
        }
        Conv::Str => {
            // The checker guarantees a string; anything else prints as an empty string.
            let bytes: &[u8] = match arg {
                PrintfArg::Str(s) => s,
                _ => &[],
            };
            let shown = match spec.precision {
                Some(p) => &bytes[..bytes.len().min(p as usize)],
                None => bytes,
            };
            pad_simple(spec, shown, out);
        }
        Conv::Pointer => {
            // glibc: `(nil)` for a null pointer, else `0x` and lower-case hex digits.
            let bits = arg.bits();
            let body = if bits == 0 {
                b"(nil)".to_vec()
            } else {
                format!("{bits:#x}").into_bytes()
            };
            pad_simple(spec, &body, out);
        }
        Conv::FixedLower
        | Conv::FixedUpper
        | Conv::ExpLower
        | Conv::ExpUpper
        | Conv::GeneralLower
        | Conv::GeneralUpper => format_float(spec, FloatValue::of(arg), out),
        Conv::HexFloatLower | Conv::HexFloatUpper => match arg {
            PrintfArg::LongDouble(x) => format_hex_long_double(spec, x, out),
            _ => format_hex_float(spec, arg.double(), out),
        },
    }
}

/// A floating argument as the decimal conversions see it.
struct FloatValue {
    negative: bool,
    parts: FloatParts,
    /// How many significant decimal digits the type can have at most (past them every digit
    /// is 0): 767 for a `double`, 11,505 for a `long double`.
    max_significant: usize,
}

impl FloatValue {
    fn of(arg: PrintfArg<'_>) -> FloatValue {
        match arg {
            PrintfArg::LongDouble(x) => FloatValue {
                negative: x.is_sign_negative(),
                parts: x.parts(),
                max_significant: 11_600,
            },
            _ => {
                let x = arg.double();
                let parts = if x.is_nan() {
                    FloatParts::NaN
                } else if x.is_infinite() {
                    FloatParts::Infinite
                } else {
                    let (m, e) = decompose(x.abs());
                    FloatParts::Finite { m, e }
                };
                FloatValue {
                    negative: x.is_sign_negative(),
                    parts,
                    max_significant: 800,
                }
            }
        }
    }
}

/// Renders `a A` as glibc does: `0x1.8p+3`; a subnormal as `0x0.0000000000001p-1022`; zero as
/// `0x0p+0`. Without a precision, the 13 hex digits of the fraction with trailing zeros
/// removed; with one, rounded to it to nearest, ties to even, a carry going into the leading
/// digit (`%.0a` of 1.5 is `0x2p+0`).
fn format_hex_float(spec: &Spec, x: f64, out: &mut Vec<u8>) {
    if !x.is_finite() {
        let sign = sign_prefix(spec, x.is_sign_negative());
        pad_field(spec, sign, non_finite(x, spec.conv.is_upper()), false, out);
        return;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (leading, exponent) = match (biased, fraction) {
        (0, 0) => (0u8, 0i64),
        (0, _) => (0, -1022),
        _ => (1, biased - 1023),
    };
    // The 13 fraction digits, most significant first.
    let digits = (0..13)
        .rev()
        .map(|k| ((fraction >> (4 * k)) & 0xf) as u8)
        .collect();
    write_hex_float(spec, x.is_sign_negative(), leading, digits, exponent, out);
}

/// Renders `%La` as glibc does for the x87 format: the significand's top four bits as the
/// leading hex digit (`1.0L` is `0x8p-3`), the other 60 bits as 15 fraction digits, a
/// denormal with the smallest normal's exponent.
fn format_hex_long_double(spec: &Spec, x: LongDouble, out: &mut Vec<u8>) {
    let negative = x.is_sign_negative();
    let (m, e) = match x.parts() {
        FloatParts::Finite { m, e } => (m, e),
        special => {
            let text = non_finite_text(special == FloatParts::NaN, spec.conv.is_upper());
            pad_field(spec, sign_prefix(spec, negative), text, false, out);
            return;
        }
    };
    // `m * 2^e` with the point after the leading hex digit: the exponent is e + 60.
    let exponent = if m == 0 { 0 } else { e + 60 };
    let digits = (0..15)
        .rev()
        .map(|k| ((m >> (4 * k)) & 0xf) as u8)
        .collect();
    write_hex_float(spec, negative, (m >> 60) as u8, digits, exponent, out);
}

/// Writes a finite `%a`/`%A` value: the hex digit `leading`, the fraction `digits` (most
/// significant first) and the binary `exponent`. Without a precision the fraction's trailing
/// zeros are removed; with one it is rounded to nearest, ties to even, a carry going into the
/// leading digit (`%.0a` of 1.5 is `0x2p+0`), and a carry out of a leading `f` renormalized
/// as glibc does (`0xf.fp0L` to one digit is `0x1p+4`).
fn write_hex_float(
    spec: &Spec,
    negative: bool,
    mut leading: u8,
    mut digits: Vec<u8>,
    mut exponent: i64,
    out: &mut Vec<u8>,
) {
    let upper = spec.conv.is_upper();
    let significant = digits.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
    let precision = spec.precision.map_or(significant, |p| p as usize);
    if precision < significant {
        let next = digits[precision];
        let more = next & 7 != 0 || precision + 1 < significant;
        let last_odd = if precision == 0 {
            leading & 1 == 1
        } else {
            digits[precision - 1] & 1 == 1
        };
        digits.truncate(precision);
        if next >= 8 && (more || last_odd) {
            let mut k = precision;
            loop {
                if k == 0 {
                    leading += 1;
                    break;
                }
                k -= 1;
                if digits[k] == 15 {
                    digits[k] = 0;
                } else {
                    digits[k] += 1;
                    break;
                }
            }
        }
        if leading == 16 {
            leading = 1;
            exponent += 4;
        }
    } else {
        digits.truncate(significant);
        digits.resize(precision, 0);
    }
    let hex = |d: u8| {
        let table: &[u8; 16] = if upper {
            b"0123456789ABCDEF"
        } else {
            b"0123456789abcdef"
        };
        table[d as usize]
    };
    let mut prefix = sign_prefix(spec, negative).to_vec();
    prefix.extend_from_slice(if upper { b"0X" } else { b"0x" });
    let mut body = vec![hex(leading)];
    if !digits.is_empty() || spec.flags.alt {
        body.push(b'.');
    }
    body.extend(digits.iter().map(|&d| hex(d)));
    body.push(if upper { b'P' } else { b'p' });
    body.extend_from_slice(format!("{exponent:+}").as_bytes());
    pad_field(spec, &prefix, &body, spec.flags.zero, out);
}

/// Pads `body` with spaces to the field width (`%c`, `%s`).
fn pad_simple(spec: &Spec, body: &[u8], out: &mut Vec<u8>) {
    let fill = (spec.width.unwrap_or(0) as usize).saturating_sub(body.len());
    if spec.flags.left {
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(body);
    }
}

/// Writes `prefix` (sign, `0x`), then `body`, padded to the field width: on the right with
/// spaces for `-`, between prefix and body with zeros when `zero_pad`, else on the left with
/// spaces.
fn pad_field(spec: &Spec, prefix: &[u8], body: &[u8], zero_pad: bool, out: &mut Vec<u8>) {
    let len = prefix.len() + body.len();
    let fill = (spec.width.unwrap_or(0) as usize).saturating_sub(len);
    if spec.flags.left {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zero_pad {
        out.extend_from_slice(prefix);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

/// The sign prefix for a value with the given sign: `-`, or `+`/space per the flags.
fn sign_prefix(spec: &Spec, negative: bool) -> &'static [u8] {
    if negative {
        b"-"
    } else if spec.flags.plus {
        b"+"
    } else if spec.flags.space {
        b" "
    } else {
        b""
    }
}

/// Renders `d i u o x X`.
fn format_integer(spec: &Spec, bits: u64, out: &mut Vec<u8>) {
    let width = spec.length.bits();
    let (negative, magnitude) = if spec.conv == Conv::Signed {
        // Sign-extend from the length's width (C's conversion to short / signed char).
        let shift = 64 - width;
        let value = ((bits << shift) as i64) >> shift;
        (value < 0, value.unsigned_abs())
    } else {
        let mask = if width == 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        (false, bits & mask)
    };

    // Digits, least significant first.
    let mut digits = [0u8; 64];
    let mut n = 0;
    let mut v = magnitude;
    let (base, alphabet): (u64, &[u8; 16]) = match spec.conv {
        Conv::Octal => (8, b"0123456789abcdef"),
        Conv::HexLower => (16, b"0123456789abcdef"),
        Conv::HexUpper => (16, b"0123456789ABCDEF"),
        _ => (10, b"0123456789abcdef"),
    };
    while v != 0 {
        digits[n] = alphabet[(v % base) as usize];
        v /= base;
        n += 1;
    }
    let mut min_digits = spec.precision.map_or(1, |p| p as usize);
    if spec.flags.alt && spec.conv == Conv::Octal && min_digits <= n {
        // `#o`: the first digit must be 0 (also makes `%#.0o` of 0 print "0").
        min_digits = n + 1;
    }
    let mut body = Vec::with_capacity(min_digits.max(n));
    body.resize(min_digits.saturating_sub(n), b'0');
    body.extend(digits[..n].iter().rev());

    let prefix: &[u8] = match spec.conv {
        Conv::Signed => sign_prefix(spec, negative),
        Conv::HexLower if spec.flags.alt && magnitude != 0 => b"0x",
        Conv::HexUpper if spec.flags.alt && magnitude != 0 => b"0X",
        _ => b"",
    };
    let zero_pad = spec.flags.zero && spec.precision.is_none();
    pad_field(spec, prefix, &body, zero_pad, out);
}

/// How glibc writes an infinity or a NaN (without its sign), in either case.
fn non_finite(x: f64, upper: bool) -> &'static [u8] {
    non_finite_text(x.is_nan(), upper)
}

/// `nan`, `NAN`, `inf` or `INF`.
fn non_finite_text(nan: bool, upper: bool) -> &'static [u8] {
    match (nan, upper) {
        (true, false) => b"nan",
        (true, true) => b"NAN",
        (false, false) => b"inf",
        (false, true) => b"INF",
    }
}

/// Renders `f F e E g G`.
fn format_float(spec: &Spec, value: FloatValue, out: &mut Vec<u8>) {
    let prefix = sign_prefix(spec, value.negative);
    let upper = spec.conv.is_upper();
    let x = match value.parts {
        FloatParts::Finite { m, e } => Finite {
            m,
            e,
            max_significant: value.max_significant,
        },
        FloatParts::NaN => {
            pad_field(spec, prefix, non_finite_text(true, upper), false, out);
            return;
        }
        FloatParts::Infinite => {
            pad_field(spec, prefix, non_finite_text(false, upper), false, out);
            return;
        }
    };
    let alt = spec.flags.alt;
    let mut body = Vec::new();
    match spec.conv {
        Conv::FixedLower | Conv::FixedUpper => {
            let precision = spec.precision.unwrap_or(6) as usize;
            fixed_digits(x, precision, alt, &mut body);
        }
        Conv::ExpLower | Conv::ExpUpper => {
            let precision = spec.precision.unwrap_or(6) as usize;
            let (digits, exp, _) = significant_digits(x, precision + 1);
            exp_form(&digits, precision + 1, exp, alt, upper, &mut body);
        }
        _ => {
            let p = match spec.precision.unwrap_or(6) {
                0 => 1,
                p => p as usize,
            };
            let (digits, exp, carried) = significant_digits(x, p);
            if alt && carried && exp == p as i64 {
                // glibc quirk: when the unrounded value would print in `%f` style with no
                // fraction digits (exponent P - 1) but rounding carries into a new digit,
                // glibc switches to `%e` style and prints the mantissa as `1.` without the
                // zeros `#` asks for: `%#.3g` of 999.5 is `1.e+03`, `%#g` of 999999.5 is
                // `1.e+06` (without `#` the zeros are removed anyway).
                exp_form(b"1", 1, exp, true, upper, &mut body);
            } else if (p as i64) > exp && exp >= -4 {
                let frac = (p as i64 - 1 - exp) as usize;
                let mut text = Vec::new();
                if exp >= 0 {
                    let int_len = exp as usize + 1;
                    text.extend_from_slice(&digits[..int_len]);
                    text.push(b'.');
                    text.extend_from_slice(&digits[int_len..]);
                } else {
                    text.extend_from_slice(b"0.");
                    text.resize(text.len() + (-exp - 1) as usize, b'0');
                    text.extend_from_slice(&digits);
                }
                // Pad the significant digits computed (capped) up to the precision.
                let point = text.iter().position(|&b| b == b'.').unwrap_or(text.len());
                let have = text.len() - point - 1;
                text.resize(text.len() + frac.saturating_sub(have), b'0');
                if !alt {
                    strip_fraction_zeros(&mut text);
                }
                body = text;
            } else {
                exp_form(&digits, p, exp, alt, upper, &mut body);
                if !alt {
                    // Strip zeros of the mantissa, keeping the exponent.
                    let e_pos = body
                        .iter()
                        .position(|&b| b == b'e' || b == b'E')
                        .unwrap_or(body.len());
                    let exponent = body.split_off(e_pos);
                    strip_fraction_zeros(&mut body);
                    body.extend_from_slice(&exponent);
                }
            }
        }
    }
    pad_field(spec, prefix, &body, spec.flags.zero, out);
}

/// Removes trailing zeros after a decimal point, then the point itself if nothing follows.
fn strip_fraction_zeros(text: &mut Vec<u8>) {
    if !text.contains(&b'.') {
        return;
    }
    while text.last() == Some(&b'0') {
        text.pop();
    }
    if text.last() == Some(&b'.') {
        text.pop();
    }
}

/// Writes `d.ddd` (`count` significant digits, `digits` possibly shorter: the rest are
/// zeros) and the exponent `e+XX` / `E+XX` with at least two digits.
fn exp_form(digits: &[u8], count: usize, exp: i64, alt: bool, upper: bool, body: &mut Vec<u8>) {
    body.push(digits[0]);
    if count > 1 || alt {
        body.push(b'.');
    }
    body.extend_from_slice(&digits[1..]);
    body.resize(body.len() + count.saturating_sub(digits.len()), b'0');
    body.push(if upper { b'E' } else { b'e' });
    body.push(if exp < 0 { b'-' } else { b'+' });
    let magnitude = exp.unsigned_abs();
    if magnitude < 10 {
        body.push(b'0');
    }
    body.extend_from_slice(magnitude.to_string().as_bytes());
}

/// Splits a finite, non-negative double into `(m, e)` with `x = m * 2^e`.
fn decompose(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let exp_field = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if exp_field == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_field - 1075)
    }
}

/// A finite non-negative value `m * 2^e` and the most significant decimal digits its type
/// can have.
#[derive(Clone, Copy)]
struct Finite {
    m: u64,
    e: i64,
    max_significant: usize,
}

/// Writes `x` in `%f` style with `precision` fraction digits.
fn fixed_digits(x: Finite, precision: usize, alt: bool, body: &mut Vec<u8>) {
    let Finite { m, e, .. } = x;
    // Digits past position -e of the fraction are exact zeros.
    let exact_places = if e >= 0 { 0 } else { (-e) as usize };
    let k = precision.min(exact_places);
    let mut digits = scale_round_digits(m, e, k as i64);
    if digits.len() <= k {
        let mut padded = vec![b'0'; k + 1 - digits.len()];
        padded.extend_from_slice(&digits);
        digits = padded;
    }
    let int_len = digits.len() - k;
    body.extend_from_slice(&digits[..int_len]);
    if precision > 0 || alt {
        body.push(b'.');
    }
    body.extend_from_slice(&digits[int_len..]);
    body.resize(body.len() + (precision - k), b'0');
}

/// The first `count` significant decimal digits of `x`, correctly rounded, and the decimal
/// exponent of the first one. Returns fewer digits than `count` when the rest are exactly
/// zero (`count` above the type's most significant digits). Zero has exponent 0.
/// The flag tells whether rounding carried into a new leading digit (`9.96` to 2 digits is
/// `1.0` with exponent 1).
fn significant_digits(x: Finite, count: usize) -> (Vec<u8>, i64, bool) {
    let count = count.clamp(1, x.max_significant);
    let Finite { m, e, .. } = x;
    if m == 0 {
        return (vec![b'0'; count], 0, false);
    }
    let bit_len = 64 - i64::from(m.leading_zeros());
    // x is in [2^(bit_len-1+e), 2^(bit_len+e)); estimate floor(log10 x), then correct.
    let mut exp = ((bit_len - 1 + e) as f64 * std::f64::consts::LOG10_2).floor() as i64;
    loop {
        let k = count as i64 - 1 - exp;
        let (digits, half) = scale_floor_digits(m, e, k);
        if digits.len() > count {
            exp += 1;
            continue;
        }
        if digits.len() < count {
            exp -= 1;
            continue;
        }
        let round_up = match half {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => (digits[count - 1] - b'0') % 2 == 1,
        };
        if !round_up {
            return (digits, exp, false);
        }
        let mut digits = digits;
        if increment_decimal(&mut digits) {
            // 99..9 rounded up to 100..0: one more digit, drop the last zero.
            digits.truncate(count);
            return (digits, exp + 1, true);
        }
        return (digits, exp, false);
    }
}

/// Adds one to a decimal digit string in place; on carry out of the top digit, prepends `1`
/// and returns true.
fn increment_decimal(digits: &mut Vec<u8>) -> bool {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return false;
        }
    }
    digits.insert(0, b'1');
    true
}

/// The decimal digits of `round(m * 2^e * 10^k)`, rounding half to even.
fn scale_round_digits(m: u64, e: i64, k: i64) -> Vec<u8> {
    let (mut digits, half) = scale_floor_digits(m, e, k);
    let round_up = match half {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => digits.last().is_some_and(|d| (d - b'0') % 2 == 1),
    };
    if round_up {
        increment_decimal(&mut digits);
    }
    digits
}

/// The decimal digits of `floor(m * 2^e * 10^k)` and how the remainder compares with one
/// half: in 128-bit arithmetic when the numbers fit (ordinary magnitudes and precisions),
/// else with [`Big`].
fn scale_floor_digits(m: u64, e: i64, k: i64) -> (Vec<u8>, std::cmp::Ordering) {
    if let Some((q, half)) = scale_floor_u128(m, e, k) {
        return (q.to_string().into_bytes(), half);
    }
    let (q, half) = scale_floor(m, e, k);
    (q.to_decimal(), half)
}

/// [`scale_floor`] in `u128` arithmetic, or `None` if the numerator or denominator of the
/// fraction would not stay below `2^126`.
fn scale_floor_u128(m: u64, e: i64, k: i64) -> Option<(u128, std::cmp::Ordering)> {
    const LIMIT: u32 = 126;
    let mut n = u128::from(m);
    let mut d_shift = 0u32; // D = 2^d_shift * 10^d_ten
    if e >= 0 {
        if e + i64::from(64 - m.leading_zeros()) > i64::from(LIMIT) {
            return None;
        }
        n <<= e;
    } else {
        d_shift = u32::try_from(-e).ok().filter(|&s| s < LIMIT)?;
    }
    let mut d_ten = 1u128;
    if k >= 0 {
        n = n.checked_mul(10u128.checked_pow(u32::try_from(k).ok()?)?)?;
    } else {
        d_ten = 10u128.checked_pow(u32::try_from(-k).ok()?)?;
    }
    let d = d_ten.checked_mul(1u128 << d_shift)?;
    if n >> LIMIT != 0 || d >> LIMIT != 0 {
        return None;
    }
    let (q, r) = if d_ten == 1 {
        (n >> d_shift, n & (d - 1))
    } else {
        (n / d, n % d)
    };
    Some((q, (2 * r).cmp(&d)))
}

/// `floor(m * 2^e * 10^k)` and how the remainder compares with one half.
fn scale_floor(m: u64, e: i64, k: i64) -> (Big, std::cmp::Ordering) {
    let mut n = Big::from_u64(m);
    let mut shift_down = 0usize; // D = 2^shift_down * 5^five_down
    let mut five_down = 0usize;
    if e >= 0 {
        n.shl(e as usize);
    } else {
        shift_down = (-e) as usize;
    }
    if k >= 0 {
        n.mul_pow5(k as usize);
        n.shl(k as usize);
    } else {
        five_down = (-k) as usize;
        shift_down += five_down;
    }
    if shift_down == 0 && five_down == 0 {
        return (n, std::cmp::Ordering::Less);
    }
    let mut q = n.clone();
    q.div_pow5(five_down);
    q.shr(shift_down);
    // Compare 2N with (2q + 1) * D.
    let mut t = q.clone();
    t.shl(1);
    t.add_small(1);
    t.mul_pow5(five_down);
    t.shl(shift_down);
    n.shl(1);
    (q, n.cmp(&t))
}
