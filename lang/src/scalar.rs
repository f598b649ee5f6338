//! The scalar types of the language ([`ScalarType`]): what a value is in a register, a
//! constant, a library function's signature and a `printf` conversion's argument. The leaf the
//! HIR ([`crate::hir`], which re-exports it), C's full types ([`crate::ctype`]), the library's
//! signatures ([`crate::builtins`]) and the `printf` checker ([`crate::printf_format`]) all
//! stand on.

use std::fmt;

/// The scalar types of the language.
///
/// `signed char` is [`ScalarType::Char`] (plain `char` is signed, as with gcc on x86-64) and
/// `long long` / `unsigned long long` are [`ScalarType::Long`] / [`ScalarType::ULong`]: on
/// x86-64 they have the same width, rank behaviour and conversions, so no program can tell
/// them apart by value (only by spelling in messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    /// `_Bool`: 0 or 1 (conversion to it is `!= 0`).
    Bool,
    /// `char` and `signed char`: 8-bit signed (`i8`).
    Char,
    /// `unsigned char`: 8-bit unsigned (`u8`).
    UChar,
    /// `short`: 16-bit signed (`i16`).
    Short,
    /// `unsigned short`: 16-bit unsigned (`u16`).
    UShort,
    /// `int`: 32-bit signed (`i32`).
    Int,
    /// `unsigned int`: 32-bit unsigned (`u32`).
    UInt,
    /// `long` and `long long`: 64-bit signed (`i64`).
    Long,
    /// `unsigned long` and `unsigned long long`: 64-bit unsigned (`u64`).
    ULong,
    /// `float`: IEEE 754 binary32 (`f32`).
    Float,
    /// `double`: IEEE 754 binary64 (`f64`).
    Double,
    /// A pointer (to any type): 64 bits, an object's tag in the high half and a byte address
    /// in the low half (see docs/bytecode.md). Compared as an unsigned 64-bit value; not an
    /// arithmetic type (pointer arithmetic is [`ExprKind`]'s own operations).
    Ptr,
}

impl ScalarType {
    /// True for the integer types (every type except `float`, `double` and pointers).
    pub fn is_integer(self) -> bool {
        !self.is_floating() && self != ScalarType::Ptr
    }

    /// True for the floating types `float` and `double`.
    pub fn is_floating(self) -> bool {
        matches!(self, ScalarType::Float | ScalarType::Double)
    }

    /// True for the signed integer types `char`, `short`, `int`, `long`.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::Char | ScalarType::Short | ScalarType::Int | ScalarType::Long
        )
    }

    /// Storage width in bits (8, 16, 32 or 64; `_Bool` occupies 8).
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::Bool | ScalarType::Char | ScalarType::UChar => 8,
            ScalarType::Short | ScalarType::UShort => 16,
            ScalarType::Int | ScalarType::UInt | ScalarType::Float => 32,
            ScalarType::Long | ScalarType::ULong | ScalarType::Double | ScalarType::Ptr => 64,
        }
    }

    /// Size in bytes of one value in memory (`sizeof`): 1, 2, 4 or 8 (`_Bool` occupies 1).
    pub fn bytes(self) -> u32 {
        self.bits() / 8
    }

    /// The C spelling of the type (`"unsigned long"`).
    pub fn c_name(self) -> &'static str {
        match self {
            ScalarType::Bool => "_Bool",
            ScalarType::Char => "char",
            ScalarType::UChar => "unsigned char",
            ScalarType::Short => "short",
            ScalarType::UShort => "unsigned short",
            ScalarType::Int => "int",
            ScalarType::UInt => "unsigned int",
            ScalarType::Long => "long",
            ScalarType::ULong => "unsigned long",
            ScalarType::Float => "float",
            ScalarType::Double => "double",
            ScalarType::Ptr => "pointer",
        }
    }

    /// Normalize a 64-bit pattern to the `i64` representation of a value of this type
    /// (invariant 6 of the module docs): truncate to the width, then sign-extend for signed
    /// types and zero-extend for unsigned ones; for `_Bool`, 1 unless the pattern is 0 (C's
    /// conversion to `_Bool`). Meaningless for `float` and `double`.
    pub fn wrap(self, bits: i64) -> i64 {
        match self {
            ScalarType::Bool => i64::from(bits != 0),
            ScalarType::Char => bits as i8 as i64,
            ScalarType::UChar => bits as u8 as i64,
            ScalarType::Short => bits as i16 as i64,
            ScalarType::UShort => bits as u16 as i64,
            ScalarType::Int => bits as i32 as i64,
            ScalarType::UInt => bits as u32 as i64,
            ScalarType::Long
            | ScalarType::ULong
            | ScalarType::Float
            | ScalarType::Double
            | ScalarType::Ptr => bits,
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}
