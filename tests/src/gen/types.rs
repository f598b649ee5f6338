//! The subset's scalar types and the C99 rules the generator needs to know the type of every
//! expression it builds: integer promotions and the usual arithmetic conversions (LP64:
//! int 32-bit, long 64-bit, char signed 8-bit, short 16-bit, float binary32 computed in float).

use super::rng::Rng;

/// A scalar type of the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `_Bool`.
    Bool,
    /// `char` (signed, 8 bits).
    Char,
    /// `unsigned char`.
    UChar,
    /// `short` (16 bits).
    Short,
    /// `unsigned short`.
    UShort,
    /// `int` (32 bits).
    Int,
    /// `unsigned` (32 bits).
    UInt,
    /// `long` (64 bits).
    Long,
    /// `unsigned long` (64 bits).
    ULong,
    /// `float` (binary32).
    Float,
    /// `double`.
    Double,
}

/// Every scalar type.
pub const ALL_TYPES: [Ty; 11] = [
    Ty::Char,
    Ty::Int,
    Ty::UInt,
    Ty::Long,
    Ty::ULong,
    Ty::Double,
    Ty::Bool,
    Ty::UChar,
    Ty::Short,
    Ty::UShort,
    Ty::Float,
];

/// The integer types.
pub const INT_TYPES: [Ty; 9] = [
    Ty::Char,
    Ty::Int,
    Ty::UInt,
    Ty::Long,
    Ty::ULong,
    Ty::Bool,
    Ty::UChar,
    Ty::Short,
    Ty::UShort,
];

impl Ty {
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            Ty::Bool => "_Bool",
            Ty::Char => "char",
            Ty::UChar => "unsigned char",
            Ty::Short => "short",
            Ty::UShort => "unsigned short",
            Ty::Int => "int",
            Ty::UInt => "unsigned",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
            Ty::Float => "float",
            Ty::Double => "double",
        }
    }

    /// A spelling of the type chosen at random among C's equivalent ones (`short int`,
    /// `signed long long int`, ...).
    pub fn spelling(self, rng: &mut Rng) -> &'static str {
        let options: &[&'static str] = match self {
            Ty::Char => &["char"],
            Ty::UChar => &["unsigned char"],
            Ty::Short => &["short", "short int", "signed short", "signed short int"],
            Ty::UShort => &["unsigned short", "unsigned short int"],
            Ty::Int => &["int", "signed", "signed int"],
            Ty::UInt => &["unsigned", "unsigned int"],
            Ty::Long => &[
                "long",
                "long int",
                "signed long",
                "long long",
                "long long int",
                "signed long long",
            ],
            Ty::ULong => &[
                "unsigned long",
                "unsigned long int",
                "unsigned long long",
                "unsigned long long int",
            ],
            Ty::Bool | Ty::Float | Ty::Double => return self.c_name(),
        };
        // Mostly the plain spelling.
        if rng.chance(70) {
            return self.c_name();
        }
        let picked: &&'static str = rng.pick(options);
        picked
    }

    /// True for the integer types.
    pub fn is_integer(self) -> bool {
        !self.is_floating()
    }

    /// True for `float` and `double`.
    pub fn is_floating(self) -> bool {
        matches!(self, Ty::Float | Ty::Double)
    }

    /// True for the signed integer types.
    pub fn is_signed_integer(self) -> bool {
        matches!(self, Ty::Char | Ty::Short | Ty::Int | Ty::Long)
    }

    /// The integer promotion (the types narrower than int to int; others unchanged).
    pub fn promote(self) -> Ty {
        match self {
            Ty::Bool | Ty::Char | Ty::UChar | Ty::Short | Ty::UShort => Ty::Int,
            other => other,
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool | Ty::Char | Ty::UChar => 8,
            Ty::Short | Ty::UShort => 16,
            Ty::Int | Ty::UInt | Ty::Float => 32,
            Ty::Long | Ty::ULong | Ty::Double => 64,
        }
    }

    /// Short tag used in helper-function names (`div_i`, `d2ul`, ...).
    pub fn tag(self) -> &'static str {
        match self {
            Ty::Bool => "b",
            Ty::Char => "c",
            Ty::UChar => "uc",
            Ty::Short => "s",
            Ty::UShort => "us",
            Ty::Float => "f",
            Ty::Int => "i",
            Ty::UInt => "u",
            Ty::Long => "l",
            Ty::ULong => "ul",
            Ty::Double => "d",
        }
    }

    /// The most negative value of a signed type, as a C expression of that (promoted) type.
    pub fn min_literal(self) -> &'static str {
        match self.promote() {
            Ty::Int => "(-2147483647 - 1)",
            Ty::Long => "(-9223372036854775807L - 1)",
            _ => "0",
        }
    }

    /// A random literal of this type, as C source text (already of exactly this type: char
    /// literals are cast).
    pub fn random_literal(self, rng: &mut Rng) -> String {
        match self {
            Ty::Char => match rng.below(4) {
                0 => format!("'{}'", *rng.pick(&['a', 'Z', '0', ' ', '~', 'q'])),
                1 => format!("(char){}", rng.range(-128, 127)),
                2 => format!("(char){}", rng.range(-3, 3)),
                _ => (*rng.pick(&[r"'\n'", r"'\\'", r"'\''", r"'\t'", r"'\0'"])).to_string(),
            },
            Ty::Int => int_literal(rng),
            Ty::UInt => match rng.below(4) {
                0 => format!("{}{}", rng.below(10), *rng.pick(&["u", "U"])),
                1 => format!("{}u", rng.below(1 << 32)),
                2 => format!("0x{:x}u", rng.below(1 << 32)),
                _ => format!(
                    "{}u",
                    *rng.pick(&[4294967295u64, 2147483648, 2147483647, 65535, 255])
                ),
            },
            Ty::Long => match rng.below(4) {
                0 => format!("{}{}", rng.range(-20, 20), *rng.pick(&["L", "l"])),
                1 => format!("{}L", rng.range(-(1 << 40), 1 << 40)),
                2 => format!("0x{:x}L", rng.below(1 << 62)),
                _ => (*rng.pick(&[
                    "9223372036854775807L",
                    "(-9223372036854775807L - 1)",
                    "4294967296L",
                    "-4294967297L",
                ]))
                .to_string(),
            },
            Ty::ULong => match rng.below(4) {
                0 => format!(
                    "{}{}",
                    rng.below(20),
                    *rng.pick(&["ul", "UL", "lu", "uL", "LU"])
                ),
                1 => format!("{}ul", rng.next_u64()),
                2 => format!("0x{:x}ul", rng.next_u64()),
                _ => format!(
                    "{}ul",
                    *rng.pick(&[
                        18446744073709551615u64,
                        9223372036854775808,
                        4294967295,
                        4294967296
                    ])
                ),
            },
            Ty::Double => double_literal(rng),
            Ty::Bool => match rng.below(3) {
                0 => "(_Bool)1".to_string(),
                1 => "(_Bool)0".to_string(),
                _ => format!("(_Bool){}", rng.range(-3, 3)),
            },
            Ty::UChar => format!(
                "(unsigned char){}",
                *rng.pick(&[0, 1, 127, 128, 200, 255, 256, -1])
            ),
            Ty::Short => match rng.below(2) {
                0 => format!("(short){}", rng.range(-32768, 32767)),
                _ => format!("(short){}", *rng.pick(&[-32768, 32767, -1, 0, 70000])),
            },
            Ty::UShort => match rng.below(2) {
                0 => format!("(unsigned short){}", rng.range(0, 65535)),
                _ => format!(
                    "(unsigned short){}",
                    *rng.pick(&[65535, 65536, -1, 0, 40000])
                ),
            },
            Ty::Float => float_literal(rng),
        }
    }
}

fn float_literal(rng: &mut Rng) -> String {
    if rng.chance(8) {
        return format!("{}f", hex_float_literal(rng));
    }
    match rng.below(5) {
        0 => format!("{}.{}f", rng.range(-20, 20), rng.below(100)),
        1 => format!(
            "{}.{}e{}f",
            rng.range(1, 9),
            rng.below(1000),
            rng.range(-20, 20)
        ),
        2 => (*rng.pick(&[
            "0.1f",
            "0.5F",
            "3.4e38f",
            "1e-40f",
            "16777217.0f",
            "-0.0f",
            "1.f",
            ".75f",
            "(float)0.1",
            "(float)1e300",
        ]))
        .to_string(),
        3 => format!("(float){}", double_literal(rng)),
        _ => format!("{}.{:03}f", rng.range(-5, 5), rng.below(1000)),
    }
}

fn int_literal(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("{}", rng.range(-10, 10)),
        1 => format!("0{:o}", rng.below(4096)),
        2 => format!("{}", rng.range(-100_000, 100_000)),
        3 => format!("{}", rng.range(i32::MIN as i64 + 1, i32::MAX as i64)),
        4 => format!("0x{:x}", rng.below(1 << 31)),
        _ => (*rng.pick(&[
            "2147483647",
            "(-2147483647 - 1)",
            "65535",
            "0",
            "1",
            "-1",
            "'A'",
        ]))
        .to_string(),
    }
}

/// A hexadecimal floating constant (C99 6.4.4.2): hex digits, a binary exponent.
fn hex_float_literal(rng: &mut Rng) -> String {
    format!(
        "0x{:x}.{:x}p{}",
        rng.below(16),
        rng.below(1 << 24),
        rng.range(-40, 40)
    )
}

fn double_literal(rng: &mut Rng) -> String {
    if rng.chance(8) {
        return hex_float_literal(rng);
    }
    match rng.below(6) {
        0 => format!("{}.{}", rng.range(-20, 20), rng.below(100)),
        1 => format!("{}.0", rng.range(-1000, 1000)),
        2 => format!(
            "{}.{}e{}",
            rng.range(1, 9),
            rng.below(1000),
            rng.range(-30, 30)
        ),
        3 => format!(
            "-{}.{}e{}",
            rng.range(1, 9),
            rng.below(100),
            rng.range(-8, 12)
        ),
        4 => (*rng.pick(&[
            "0.5",
            "0.1",
            ".25",
            "1e100",
            "1e-300",
            "3.14159265358979",
            "-0.0",
            "2.",
            "1.e2",
            "1E15",
            "2.5E-3",
        ]))
        .to_string(),
        _ => format!("{}.{:03}", rng.range(-5, 5), rng.below(1000)),
    }
}

/// The usual arithmetic conversions (C99 6.3.1.8) on LP64.
pub fn usual(a: Ty, b: Ty) -> Ty {
    if a == Ty::Double || b == Ty::Double {
        return Ty::Double;
    }
    if a == Ty::Float || b == Ty::Float {
        return Ty::Float;
    }
    let (a, b) = (a.promote(), b.promote());
    if a == b {
        return a;
    }
    match (a, b) {
        (Ty::ULong, _) | (_, Ty::ULong) => Ty::ULong,
        (Ty::Long, _) | (_, Ty::Long) => Ty::Long, // long holds every unsigned int value
        _ => Ty::UInt,                             // int with unsigned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_conversions_follow_c99_on_lp64() {
        assert_eq!(usual(Ty::Char, Ty::Char), Ty::Int);
        assert_eq!(usual(Ty::Int, Ty::UInt), Ty::UInt);
        assert_eq!(usual(Ty::Char, Ty::UInt), Ty::UInt);
        assert_eq!(usual(Ty::UInt, Ty::Long), Ty::Long);
        assert_eq!(usual(Ty::Long, Ty::ULong), Ty::ULong);
        assert_eq!(usual(Ty::Int, Ty::ULong), Ty::ULong);
        assert_eq!(usual(Ty::ULong, Ty::Double), Ty::Double);
        assert_eq!(usual(Ty::Short, Ty::UShort), Ty::Int);
        assert_eq!(usual(Ty::Bool, Ty::UChar), Ty::Int);
        assert_eq!(usual(Ty::UShort, Ty::UInt), Ty::UInt);
        assert_eq!(usual(Ty::Float, Ty::ULong), Ty::Float);
        assert_eq!(usual(Ty::Float, Ty::Double), Ty::Double);
    }

    #[test]
    fn literals_are_well_formed() {
        let mut rng = Rng::new(5);
        for _ in 0..2000 {
            for ty in ALL_TYPES {
                let lit = ty.random_literal(&mut rng);
                assert!(!lit.is_empty());
                assert!(!lit.contains("'''"), "{lit}");
            }
        }
    }
}
