//! The subset's scalar types and the C99 rules the generator needs to know the type of every
//! expression it builds: integer promotions and the usual arithmetic conversions (LP64:
//! int 32-bit, long 64-bit, char signed 8-bit).

use super::rng::Rng;

/// A scalar type of the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `char` (signed, 8 bits).
    Char,
    /// `int` (32 bits).
    Int,
    /// `unsigned` (32 bits).
    UInt,
    /// `long` (64 bits).
    Long,
    /// `unsigned long` (64 bits).
    ULong,
    /// `double`.
    Double,
}

/// Every scalar type.
pub const ALL_TYPES: [Ty; 6] = [Ty::Char, Ty::Int, Ty::UInt, Ty::Long, Ty::ULong, Ty::Double];

/// The integer types.
pub const INT_TYPES: [Ty; 5] = [Ty::Char, Ty::Int, Ty::UInt, Ty::Long, Ty::ULong];

impl Ty {
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            Ty::Char => "char",
            Ty::Int => "int",
            Ty::UInt => "unsigned",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
            Ty::Double => "double",
        }
    }

    /// True for the integer types.
    pub fn is_integer(self) -> bool {
        self != Ty::Double
    }

    /// True for the signed integer types.
    pub fn is_signed_integer(self) -> bool {
        matches!(self, Ty::Char | Ty::Int | Ty::Long)
    }

    /// The integer promotion (char to int; others unchanged).
    pub fn promote(self) -> Ty {
        if self == Ty::Char {
            Ty::Int
        } else {
            self
        }
    }

    /// Width in bits of an integer type.
    pub fn bits(self) -> u32 {
        match self {
            Ty::Char => 8,
            Ty::Int | Ty::UInt => 32,
            Ty::Long | Ty::ULong | Ty::Double => 64,
        }
    }

    /// Short tag used in helper-function names (`div_i`, `d2ul`, ...).
    pub fn tag(self) -> &'static str {
        match self {
            Ty::Char => "c",
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
        }
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

fn double_literal(rng: &mut Rng) -> String {
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
