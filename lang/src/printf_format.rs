//! `printf` format strings: parsing and the argument each conversion expects.
//!
//! The language's `printf` takes a *literal* format string, so the whole format is parsed at
//! check time: the checker ([`parse`]) turns the literal's bytes into [`Piece`]s, reports a
//! malformed or unsupported conversion as a [`FormatError`] (a byte offset into the literal
//! plus a message), and matches every conversion's [`ArgKind`] against the type of the
//! corresponding argument after C's default argument promotions ([`ArgKind::accepts`]). The
//! compiler stores the pieces; the VM renders them (`vm::printf::format`, byte-identical to
//! glibc).
//!
//! # What is accepted
//!
//! A conversion is `%[flags][width][.[precision]][length]conversion`, where
//!
//! * flags are any of `-`, `+`, space, `0`, `#`, in any order, repeats allowed;
//! * width and precision are decimal numbers of at most [`MAX_WIDTH`]; a `.` with no digits is
//!   precision 0;
//! * length is `hh`, `h`, `l` or `ll`;
//! * the conversion is one of `d i u x X o c f F e E g G s %`.
//!
//! Within that grammar a combination is accepted exactly when C99 defines its behaviour *and*
//! gcc's `-Wformat` does not flag it as meaningless for that conversion:
//!
//! | conversion | flags          | precision | length            | argument (after promotion) |
//! |------------|----------------|-----------|-------------------|----------------------------|
//! | `d` `i`    | `- + space 0`  | yes       | none `hh h l ll`  | `int` (`long` with `l`/`ll`) |
//! | `u`        | `- 0`          | yes       | none `hh h l ll`  | `unsigned` (`unsigned long` with `l`/`ll`) |
//! | `o` `x` `X`| `- 0 #`        | yes       | none `hh h l ll`  | `unsigned` (`unsigned long` with `l`/`ll`) |
//! | `f F e E g G a A` | `- + space 0 #` | yes | none, `l`       | `double`                   |
//! | `c`        | `-`            | no        | none              | `int`                      |
//! | `s`        | `-`            | yes       | none              | a string literal           |
//! | `%`        | none           | no        | none              | none                       |
//!
//! Combinations where C99 says a flag is *ignored* are accepted (glibc ignores them too):
//! `-` with `0`, `+` with space, and `0` with a precision on an integer conversion.
//!
//! A `*` width or `.*` precision takes its value from an `int` argument before the
//! conversion's own ([`arguments`]).
//!
//! Rejected with a [`FormatError`]: positional arguments (`%1$d`),
//! `%n`, wide characters/strings (`%lc`, `%ls`), the lengths `L j z t q`,
//! the `'` and `I` flags, any other conversion character, a flag/precision/length the table
//! does not allow, a `%` at the end of the string, and an embedded NUL byte (C's `printf`
//! would stop there).

use std::fmt;

use crate::scalar::ScalarType;

/// The largest width or precision accepted (larger ones are rejected rather than risking
/// gigabytes of padding).
pub const MAX_WIDTH: u32 = 65_535;

/// One part of a parsed format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Bytes printed as they are (never empty; adjacent literal bytes are merged).
    Literal(Vec<u8>),
    /// A conversion specification (`%...`), including `%%`.
    Conversion(Spec),
}

/// The flags of a conversion specification.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    /// `-`: left-justify within the field width.
    pub left: bool,
    /// `+`: always print a sign for signed conversions.
    pub plus: bool,
    /// space: print a space where a `+` sign would go.
    pub space: bool,
    /// `0`: pad with leading zeros instead of spaces.
    pub zero: bool,
    /// `#`: alternate form (`0` prefix for `%o`, `0x` for `%x`, keep the point for floats,
    /// keep trailing zeros for `%g`).
    pub alt: bool,
}

/// A length modifier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Length {
    /// No modifier: `int` / `unsigned int` / `double`.
    #[default]
    None,
    /// `hh`: the `int` argument is converted to `signed char` / `unsigned char`.
    Char,
    /// `h`: the `int` argument is converted to `short` / `unsigned short`.
    Short,
    /// `l`: `long` / `unsigned long` (no effect on floating conversions).
    Long,
    /// `ll`: `long long` / `unsigned long long` (64 bits, like `long`).
    LongLong,
    /// `j`: `intmax_t` / `uintmax_t` (64 bits, `long` in glibc).
    IntMax,
    /// `z`: `size_t` (64 bits, `unsigned long`, the type of `sizeof`) and its signed type.
    Size,
    /// `t`: `ptrdiff_t` (64 bits, `long`) and its unsigned type.
    PtrDiff,
    /// `L`: `long double` for the floating conversions (glibc also takes it as `ll` on the
    /// integer ones).
    LongDouble,
}

impl Length {
    /// The number of value bits of the integer argument this length selects
    /// (8, 16, 32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            Length::Char => 8,
            Length::Short => 16,
            Length::None => 32,
            Length::Long
            | Length::LongLong
            | Length::IntMax
            | Length::Size
            | Length::PtrDiff
            | Length::LongDouble => 64,
        }
    }

    /// The modifier as written in a format string (`""`, `"hh"`, `"h"`, `"l"`, `"ll"`, `"j"`,
    /// `"z"`, `"t"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Length::None => "",
            Length::Char => "hh",
            Length::Short => "h",
            Length::Long => "l",
            Length::LongLong => "ll",
            Length::IntMax => "j",
            Length::Size => "z",
            Length::PtrDiff => "t",
            Length::LongDouble => "L",
        }
    }
}

/// A conversion character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conv {
    /// `d` or `i`: signed decimal.
    Signed,
    /// `u`: unsigned decimal.
    Unsigned,
    /// `o`: unsigned octal.
    Octal,
    /// `x`: unsigned hexadecimal with `abcdef`.
    HexLower,
    /// `X`: unsigned hexadecimal with `ABCDEF`.
    HexUpper,
    /// `c`: the `int` argument converted to `unsigned char`, printed as one byte.
    Char,
    /// `f`: fixed-point decimal (`inf`, `nan`).
    FixedLower,
    /// `F`: fixed-point decimal (`INF`, `NAN`).
    FixedUpper,
    /// `e`: exponent form `d.ddde+dd`.
    ExpLower,
    /// `E`: exponent form `d.dddE+dd`.
    ExpUpper,
    /// `g`: the shorter of `%e`/`%f` style, trailing zeros removed.
    GeneralLower,
    /// `G`: like `g` with `E`, `INF`, `NAN`.
    GeneralUpper,
    /// `a`: hexadecimal floating point, `0x1.8p+3`, as glibc writes it.
    HexFloatLower,
    /// `A`: like `a` with `0X`, `ABCDEF`, `P`, `INF`, `NAN`.
    HexFloatUpper,
    /// `s`: the bytes of a string (up to its NUL, or `precision` bytes).
    Str,
    /// `p`: a pointer, as glibc prints it: `0x` and lower-case hex digits, `(nil)` for null.
    Pointer,
    /// `%%`: a literal `%`.
    Percent,
}

impl Conv {
    /// Whether this is one of the integer conversions `d i u o x X`.
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Conv::Signed | Conv::Unsigned | Conv::Octal | Conv::HexLower | Conv::HexUpper
        )
    }

    /// Whether this is one of the floating conversions `f F e E g G a A`.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Conv::FixedLower
                | Conv::FixedUpper
                | Conv::ExpLower
                | Conv::ExpUpper
                | Conv::GeneralLower
                | Conv::GeneralUpper
                | Conv::HexFloatLower
                | Conv::HexFloatUpper
        )
    }

    /// Whether a floating conversion prints in upper case (`F E G A`).
    pub fn is_upper(self) -> bool {
        matches!(
            self,
            Conv::HexUpper
                | Conv::FixedUpper
                | Conv::ExpUpper
                | Conv::GeneralUpper
                | Conv::HexFloatUpper
        )
    }
}

/// One conversion specification, e.g. `%-08.3lx`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The flags.
    pub flags: Flags,
    /// The minimum field width, if given.
    pub width: Option<u32>,
    /// The precision, if given (`.` alone is `Some(0)`).
    pub precision: Option<u32>,
    /// The width is `*`: an `int` argument before the value gives it (a negative one means
    /// the `-` flag and its absolute value).
    pub width_star: bool,
    /// The precision is `.*`: an `int` argument (after the width's) gives it (a negative one
    /// means none).
    pub precision_star: bool,
    /// The length modifier.
    pub length: Length,
    /// The conversion character.
    pub conv: Conv,
    /// The conversion character exactly as written (`d` and `i` are both [`Conv::Signed`]).
    pub conv_char: u8,
}

impl Spec {
    /// The kind of argument this conversion consumes.
    pub fn arg(&self) -> ArgKind {
        let long = self.length.bits() == 64;
        match self.conv {
            Conv::Signed if long => ArgKind::Long,
            Conv::Signed => ArgKind::Int,
            Conv::Unsigned | Conv::Octal | Conv::HexLower | Conv::HexUpper if long => {
                ArgKind::ULong
            }
            Conv::Unsigned | Conv::Octal | Conv::HexLower | Conv::HexUpper => ArgKind::UInt,
            Conv::Char => ArgKind::Char,
            Conv::Str => ArgKind::Str,
            Conv::Pointer => ArgKind::Pointer,
            Conv::Percent => ArgKind::None,
            _ if self.length == Length::LongDouble => ArgKind::LongDouble,
            Conv::FixedLower
            | Conv::FixedUpper
            | Conv::ExpLower
            | Conv::ExpUpper
            | Conv::GeneralLower
            | Conv::GeneralUpper
            | Conv::HexFloatLower
            | Conv::HexFloatUpper => ArgKind::Double,
        }
    }
}

impl fmt::Display for Spec {
    /// Writes the specification back in printf syntax, e.g. `%-08.3lx`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("%")?;
        let flags = self.flags;
        for (on, c) in [
            (flags.left, '-'),
            (flags.plus, '+'),
            (flags.space, ' '),
            (flags.zero, '0'),
            (flags.alt, '#'),
        ] {
            if on {
                write!(f, "{c}")?;
            }
        }
        if self.width_star {
            f.write_str("*")?;
        } else if let Some(w) = self.width {
            write!(f, "{w}")?;
        }
        if self.precision_star {
            f.write_str(".*")?;
        } else if let Some(p) = self.precision {
            write!(f, ".{p}")?;
        }
        write!(f, "{}{}", self.length.as_str(), char::from(self.conv_char))
    }
}

/// What argument a conversion consumes, as the type gcc expects after the default argument
/// promotions (so `char` arguments arrive as `int`).
///
/// The checker maps each kind to the required promoted scalar type and calls
/// [`ArgKind::accepts`] to decide whether an argument fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgKind {
    /// A 32-bit integer printed as signed (`%d`, `%i`, also with `h`/`hh`): `int`.
    Int,
    /// A 32-bit integer printed as unsigned (`%u %o %x %X`, also with `h`/`hh`): `unsigned`.
    UInt,
    /// A 64-bit integer printed as signed (`%ld`, `%lld`): `long`.
    Long,
    /// A 64-bit integer printed as unsigned (`%lu %lo %lx %llu ...`): `unsigned long`.
    ULong,
    /// A `double` (`%f %e %g` and upper-case forms, also with `l`).
    Double,
    /// A `long double` (`%Lf %Le %Lg %La` and upper-case forms): passed as a pointer to the
    /// value (the checker's representation of `long double` values).
    LongDouble,
    /// An `int` printed as one byte (`%c`).
    Char,
    /// A string: a literal, or a pointer to characters (`%s`).
    Str,
    /// A pointer of any type (`%p`).
    Pointer,
    /// No argument (`%%`).
    None,
}

impl ArgKind {
    /// Whether a scalar argument whose type *after the default argument promotions* is `ty`
    /// is acceptable for this kind.
    ///
    /// The rule: the argument must have the same *width and class* as the conversion
    /// expects; a signed/unsigned mismatch of the same width is accepted (gcc accepts it
    /// without `-Wformat-signedness`, and glibc prints the bit pattern, which `vm::printf`
    /// reproduces). So `Int`, `UInt` and `Char` accept `int` and `unsigned`; `Long` and
    /// `ULong` accept `long` and `unsigned long`; `Double` accepts only `double`. `Str` accepts
    /// no scalar (only a string literal, which the checker matches itself) and `None` nothing.
    /// `char` is never a promoted type (it promotes to `int`), so it is not accepted: pass
    /// the promoted type.
    pub fn accepts(self, ty: ScalarType) -> bool {
        use ScalarType as T;
        match self {
            ArgKind::Int | ArgKind::UInt | ArgKind::Char => matches!(ty, T::Int | T::UInt),
            ArgKind::Long | ArgKind::ULong => matches!(ty, T::Long | T::ULong),
            ArgKind::Double => ty == T::Double,
            ArgKind::Pointer => ty == T::Ptr,
            ArgKind::Str | ArgKind::None | ArgKind::LongDouble => false,
        }
    }

    /// The scalar type a conversion of this kind names (`None` for `%s` and `%%`): the
    /// natural type to mention in a mismatch message.
    pub fn scalar_type(self) -> Option<ScalarType> {
        match self {
            ArgKind::Int | ArgKind::Char => Some(ScalarType::Int),
            ArgKind::UInt => Some(ScalarType::UInt),
            ArgKind::Long => Some(ScalarType::Long),
            ArgKind::ULong => Some(ScalarType::ULong),
            ArgKind::Double => Some(ScalarType::Double),
            ArgKind::Pointer => Some(ScalarType::Ptr),
            ArgKind::Str | ArgKind::None | ArgKind::LongDouble => None,
        }
    }

    /// The C type a conversion of this kind expects, for error messages (`"int"`,
    /// `"unsigned long"`, `"a string literal"`, ...).
    pub fn describe(self) -> &'static str {
        match self {
            ArgKind::Int | ArgKind::Char => "int",
            ArgKind::UInt => "unsigned int",
            ArgKind::Long => "long",
            ArgKind::ULong => "unsigned long",
            ArgKind::Double => "double",
            ArgKind::LongDouble => "long double",
            ArgKind::Str => "char *",
            ArgKind::Pointer => "a pointer",
            ArgKind::None => "no argument",
        }
    }
}

/// The arguments a parsed format consumes, in order (`%%` consumes none): for each
/// conversion, the `int` of a `*` width, the `int` of a `.*` precision, then its value.
pub fn arg_kinds(pieces: &[Piece]) -> Vec<ArgKind> {
    arguments(pieces)
        .into_iter()
        .map(|(_, kind)| kind)
        .collect()
}

/// The arguments a parsed format consumes, in order, each with the conversion it belongs
/// to and its kind (see [`arg_kinds`]).
pub fn arguments(pieces: &[Piece]) -> Vec<(&Spec, ArgKind)> {
    let mut out = Vec::new();
    for p in pieces {
        if let Piece::Conversion(spec) = p {
            if spec.conv == Conv::Percent {
                continue;
            }
            if spec.width_star {
                out.push((spec, ArgKind::Int));
            }
            if spec.precision_star {
                out.push((spec, ArgKind::Int));
            }
            out.push((spec, spec.arg()));
        }
    }
    out
}

/// A malformed or unsupported format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset, within the bytes given to [`parse`], of the offending character.
    pub offset: usize,
    /// What is wrong, e.g. "`*` width is not supported".
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for FormatError {}

/// Parses the bytes of a format string literal (escapes already decoded, without the
/// terminating NUL).
///
/// Offsets in errors are into `bytes`; a checker whose literal contains escape sequences
/// maps them back to source columns (or points at the literal's start).
pub fn parse(bytes: &[u8]) -> Result<Vec<Piece>, FormatError> {
    let mut pieces = Vec::new();
    let mut literal = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            0 => return Err(err(i, "embedded NUL byte in format string")),
            b'%' => {
                let (spec, next) = parse_spec(bytes, i)?;
                if !literal.is_empty() {
                    pieces.push(Piece::Literal(std::mem::take(&mut literal)));
                }
                pieces.push(Piece::Conversion(spec));
                i = next;
            }
            b => {
                literal.push(b);
                i += 1;
            }
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Literal(literal));
    }
    Ok(pieces)
}

fn err(offset: usize, message: impl Into<String>) -> FormatError {
    FormatError {
        offset,
        message: message.into(),
    }
}

/// Describes a byte for an error message.
fn show(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", char::from(b))
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// Reads a decimal number starting at `*i` (at least one digit present).
fn number(bytes: &[u8], i: &mut usize, what: &str) -> Result<u32, FormatError> {
    let start = *i;
    let mut value: u32 = 0;
    while let Some(d) = bytes.get(*i).filter(|b| b.is_ascii_digit()) {
        value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
        *i += 1;
    }
    if value > MAX_WIDTH {
        return Err(err(
            start,
            format!("{what} {value} is too large (at most {MAX_WIDTH})"),
        ));
    }
    Ok(value)
}

/// Parses the conversion specification starting at the `%` at `start`; returns it and the
/// index just past it.
fn parse_spec(bytes: &[u8], start: usize) -> Result<(Spec, usize), FormatError> {
    let mut i = start + 1;
    let mut flags = Flags::default();
    let mut flag_pos = [None::<usize>; 5];
    loop {
        let slot = match bytes.get(i) {
            Some(b'-') => 0,
            Some(b'+') => 1,
            Some(b' ') => 2,
            Some(b'0') => 3,
            Some(b'#') => 4,
            Some(b'\'') => return Err(err(i, "the ' (thousands grouping) flag is not supported")),
            Some(b'I') => return Err(err(i, "the 'I' flag is not supported")),
            _ => break,
        };
        match slot {
            0 => flags.left = true,
            1 => flags.plus = true,
            2 => flags.space = true,
            3 => flags.zero = true,
            _ => flags.alt = true,
        }
        flag_pos[slot].get_or_insert(i);
        i += 1;
    }
    let mut width = None;
    let mut width_star = false;
    match bytes.get(i) {
        Some(b'*') => {
            width_star = true;
            i += 1;
        }
        Some(b) if b.is_ascii_digit() => {
            width = Some(number(bytes, &mut i, "width")?);
            if bytes.get(i) == Some(&b'$') {
                return Err(err(i, "positional arguments (`%n$`) are not supported"));
            }
        }
        _ => {}
    }
    let mut precision = None;
    let mut precision_pos = None;
    let mut precision_star = false;
    if bytes.get(i) == Some(&b'.') {
        precision_pos = Some(i);
        i += 1;
        match bytes.get(i) {
            Some(b'*') => {
                precision_star = true;
                i += 1;
            }
            Some(b'-') => return Err(err(i, "a negative precision is not allowed")),
            Some(b) if b.is_ascii_digit() => {
                precision = Some(number(bytes, &mut i, "precision")?);
            }
            _ => precision = Some(0),
        }
    }
    let length_pos = i;
    let length = match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b'h'), Some(b'h')) => {
            i += 2;
            Length::Char
        }
        (Some(b'h'), _) => {
            i += 1;
            Length::Short
        }
        (Some(b'l'), Some(b'l')) => {
            i += 2;
            Length::LongLong
        }
        (Some(b'l'), _) => {
            i += 1;
            Length::Long
        }
        (Some(b'j'), _) => {
            i += 1;
            Length::IntMax
        }
        (Some(b'z'), _) => {
            i += 1;
            Length::Size
        }
        (Some(b't'), _) => {
            i += 1;
            Length::PtrDiff
        }
        (Some(b'L'), _) => {
            i += 1;
            Length::LongDouble
        }
        (Some(&c @ b'q'), _) => {
            return Err(err(
                i,
                format!("the length modifier '{}' is not supported", char::from(c)),
            ))
        }
        _ => Length::None,
    };
    let Some(&c) = bytes.get(i) else {
        return Err(err(
            start,
            "incomplete conversion specification at the end of the format string",
        ));
    };
    let conv = match c {
        b'd' | b'i' => Conv::Signed,
        b'u' => Conv::Unsigned,
        b'o' => Conv::Octal,
        b'x' => Conv::HexLower,
        b'X' => Conv::HexUpper,
        b'c' => Conv::Char,
        b'f' => Conv::FixedLower,
        b'F' => Conv::FixedUpper,
        b'e' => Conv::ExpLower,
        b'E' => Conv::ExpUpper,
        b'g' => Conv::GeneralLower,
        b'G' => Conv::GeneralUpper,
        b's' => Conv::Str,
        b'%' => Conv::Percent,
        b'n' => return Err(err(i, "`%n` is not supported")),
        b'p' => Conv::Pointer,
        b'a' => Conv::HexFloatLower,
        b'A' => Conv::HexFloatUpper,
        b'$' => return Err(err(i, "positional arguments (`%n$`) are not supported")),
        other => {
            return Err(err(
                i,
                format!(
                    "unknown conversion {}; expected one of d i u x X o c f F e E g G a A s p %",
                    show(other)
                ),
            ))
        }
    };
    let spec = Spec {
        flags,
        width,
        precision,
        width_star,
        precision_star,
        length,
        conv,
        conv_char: c,
    };
    validate(&spec, &flag_pos, precision_pos, length_pos, start)?;
    Ok((spec, i + 1))
}

/// Rejects flag, precision and length combinations outside the accepted table (see the
/// module documentation).
fn validate(
    spec: &Spec,
    flag_pos: &[Option<usize>; 5],
    precision_pos: Option<usize>,
    length_pos: usize,
    start: usize,
) -> Result<(), FormatError> {
    let conv = spec.conv;
    let name = char::from(spec.conv_char);
    if conv == Conv::Percent {
        if flag_pos.iter().any(Option::is_some)
            || spec.width.is_some()
            || spec.width_star
            || precision_pos.is_some()
            || spec.length != Length::None
        {
            return Err(err(
                start,
                "`%%` must be written exactly as `%%` (no flags, width, precision or length)",
            ));
        }
        return Ok(());
    }
    // Which flags (in the order - + space 0 #) each conversion allows.
    let allowed: [bool; 5] = match conv {
        Conv::Signed => [true, true, true, true, false],
        Conv::Unsigned => [true, false, false, true, false],
        Conv::Octal | Conv::HexLower | Conv::HexUpper => [true, false, false, true, true],
        Conv::Char | Conv::Str | Conv::Pointer => [true, false, false, false, false],
        _ => [true; 5],
    };
    const FLAG_CHARS: [char; 5] = ['-', '+', ' ', '0', '#'];
    for k in 0..5 {
        if let (Some(pos), false) = (flag_pos[k], allowed[k]) {
            let flag = if k == 2 {
                "the ' ' (space) flag".to_string()
            } else {
                format!("the '{}' flag", FLAG_CHARS[k])
            };
            return Err(err(pos, format!("{flag} cannot be used with `%{name}`")));
        }
    }
    if let (Some(pos), Conv::Char | Conv::Pointer) = (precision_pos, conv) {
        return Err(err(
            pos,
            format!("a precision cannot be used with `%{name}`"),
        ));
    }
    let length_ok = match spec.length {
        Length::None => true,
        Length::Long => conv.is_integer() || conv.is_float(),
        // glibc also reads `%Ld` as `%lld`; gcc warns, and so does this parser.
        Length::LongDouble => conv.is_float(),
        Length::Char
        | Length::Short
        | Length::LongLong
        | Length::IntMax
        | Length::Size
        | Length::PtrDiff => conv.is_integer(),
    };
    if !length_ok {
        let what = if spec.length == Length::Long && matches!(conv, Conv::Char | Conv::Str) {
            format!("wide characters and strings (`%l{name}`) are not supported")
        } else {
            format!(
                "the length modifier '{}' cannot be used with `%{name}`",
                spec.length.as_str()
            )
        };
        return Err(err(length_pos, what));
    }
    Ok(())
}
