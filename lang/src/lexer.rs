//! The lexer: source text to tokens, with logos.
//!
//! Lexing is two steps. The logos automaton (the private `Raw` token type) splits the text
//! into raw tokens: keywords, identifiers, punctuators, and *preprocessing numbers* (C99
//! 6.4.8: a digit or `.digit` followed by letters, digits, `_`, `.` and `e+`/`e-`/`p+`/`p-`),
//! character and string literals with their quotes, and `#` lines. [`lex`] then gives each
//! raw token its value:
//!
//! * a number is an integer constant if it has no `.` and no exponent; its type follows C99
//!   6.4.4.1: unsuffixed decimal constants are `int` or `long` (the first that holds the
//!   value), unsuffixed hex and octal ones `int`, `unsigned int`, `long`, `unsigned long`; the
//!   suffixes `u`, `l`/`ll` and `ul`/`ull` restrict the list. A floating constant (`1.5`,
//!   `1e-3`, `2.`) is a `double`, with an `f`/`F` suffix a `float` (rounded once from the
//!   decimal text, never through `double`), with an `l`/`L` suffix a `long double` (x87 80-bit).
//! * character constants (`'a'`, `'\n'`, `'\x41'`, `'\101'`) are `int`s whose value is that of
//!   the (signed) `char`, so `'\xff'` is -1, as with gcc on x86-64;
//! * string literals keep their bytes with escapes decoded (no terminating NUL);
//! * in raw text ([`lex`]), `#include <header>` lines are recorded (the checker requires the
//!   right header for each library function) and produce no token; any other directive is an
//!   error. The front end lexes the preprocessor's output ([`lex_preprocessed`]), where no
//!   directive is left and a `#` is a stray character.
//!
//! Errors (a bad character, an unterminated comment, string or character constant, a malformed
//! number or escape) are collected as diagnostics; lexing always continues to the end.

use std::fmt;

use logos::Logos;

use crate::diag::{Diagnostic, Diagnostics};
use crate::hir::ScalarType;
use crate::span::Span;

/// A token with a value, as the parser sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier.
    Ident(String),
    /// An identifier that names a typedef where it is used as a type (set by
    /// [`crate::typedef_names::mark`], never by the lexer).
    TypeName(String),
    /// An integer constant.
    Int(IntLit),
    /// A floating constant (`double`).
    Double(f64),
    /// A floating constant with an `f`/`F` suffix (`float`).
    Float(f32),
    /// A floating constant with an `l`/`L` suffix (`long double`): its 80 bits
    /// ([`crate::builtins::long_double::LongDouble::to_bits`]).
    LongDouble(u128),
    /// A character constant: its `int` value.
    Char(i64),
    /// A string literal's bytes (escapes decoded, no terminating NUL).
    Str(Vec<u8>),
    /// A keyword of C that the language does not support (`struct`, `union`, ...).
    Unsupported(&'static str),
    /// A keyword or punctuator of the language; the string is its spelling.
    Punct(&'static str),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(name) => write!(f, "identifier `{name}`"),
            Tok::TypeName(name) => write!(f, "type name `{name}`"),
            Tok::Int(..) | Tok::Double(_) | Tok::Float(_) | Tok::LongDouble(_) => {
                f.write_str("a number")
            }
            Tok::Char(_) => f.write_str("a character constant"),
            Tok::Str(_) => f.write_str("a string literal"),
            Tok::Unsupported(kw) | Tok::Punct(kw) => write!(f, "`{kw}`"),
        }
    }
}

/// The value and type of an integer constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLit {
    /// The value (never negative: `-1` is `-` applied to `1`).
    pub value: u64,
    /// Its C type by C99 6.4.4.1.
    pub ty: ScalarType,
}

/// A header named by an `#include <...>` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Include {
    /// The name between the angle brackets, e.g. `stdio.h`.
    pub header: String,
    /// The span of the whole line.
    pub span: Span,
}

/// The result of lexing one file.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// The tokens with their byte ranges, in order.
    pub tokens: Vec<(usize, Tok, usize)>,
    /// The `#include <...>` lines.
    pub includes: Vec<Include>,
}

/// Keywords of C99 the language does not support.
const UNSUPPORTED: &[&str] = &["_Complex", "_Imaginary"];

/// Keywords of the language.
const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "typeof",
    "_Alignof",
    "__builtin_offsetof",
    "_Static_assert",
];

/// The alternate spellings of keywords that gcc accepts in every mode (GNU C; the rest of
/// GNU C's token-level extensions are in [`crate::gnu`]), and the keyword each
/// spells.
const KEYWORD_ALIASES: &[(&str, &str)] = &[
    ("__inline__", "inline"),
    ("__inline", "inline"),
    ("__restrict__", "restrict"),
    ("__restrict", "restrict"),
    ("__const__", "const"),
    ("__const", "const"),
    ("__signed__", "signed"),
    ("__signed", "signed"),
    ("__volatile__", "volatile"),
    ("__volatile", "volatile"),
    ("__typeof__", "typeof"),
    ("__typeof", "typeof"),
    ("__alignof__", "_Alignof"),
    ("__alignof", "_Alignof"),
];

/// The keyword that `text`, an alternate spelling, stands for.
pub fn keyword_alias(text: &str) -> Option<&'static str> {
    if !text.starts_with("__") {
        return None;
    }
    KEYWORD_ALIASES
        .iter()
        .find(|(alias, _)| *alias == text)
        .map(|(_, keyword)| *keyword)
}

/// Raw tokens recognized by the logos automaton.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\x0B\x0C]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
enum Raw {
    /// `/*` without a matching `*/` (a terminated comment is a longer match and skipped).
    #[token("/*")]
    UnterminatedComment,
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Word,
    /// A preprocessing number (C99 6.4.8).
    #[regex(r"\.?[0-9]([0-9A-Za-z_.]|[eEpP][+-])*")]
    Number,
    #[regex(r#"'([^'\\\n]|\\[^\n])*'"#)]
    CharLit,
    #[regex(r#"'([^'\\\n]|\\[^\n])*"#)]
    UnterminatedChar,
    #[regex(r#""([^"\\\n]|\\[^\n])*""#)]
    StrLit,
    #[regex(r#""([^"\\\n]|\\[^\n])*"#)]
    UnterminatedStr,
    /// A `#` and the rest of its line.
    #[regex(r"#[^\n]*", allow_greedy = true)]
    Directive,
    #[regex(r"\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\*=|/=|%=|\+=|-=|&=|\^=|\|=")]
    #[regex(r"[\[\](){}.&*+\-~!/%<>^|?:;=,]")]
    Punct,
}

/// Interned spellings of punctuators (the parser matches on `&'static str`).
const PUNCTS: &[&str] = &[
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "[", "]", "(", ")", "{", "}", ".", "&", "*", "+",
    "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",",
];

/// Lex `source`, collecting errors into `diags`. Never panics.
pub fn lex(source: &str, diags: &mut Diagnostics) -> Lexed {
    lex_with(source, true, diags)
}

/// Lex the preprocessor's output ([`crate::preprocess`]): it has no directives left, so a `#`
/// is always a stray character (even at the start of a line, where a macro may have put it).
pub fn lex_preprocessed(source: &str, diags: &mut Diagnostics) -> Lexed {
    lex_with(source, false, diags)
}

/// [`lex`], with `#` lines read as directives or not.
fn lex_with(source: &str, directives: bool, diags: &mut Diagnostics) -> Lexed {
    translation_phases(source, diags);
    let mut out = Lexed::default();
    // Typical C has a token every 4 to 5 bytes: one allocation instead of a dozen regrowths.
    out.tokens.reserve(source.len() / 4);
    let mut lexer = Raw::lexer(source);
    while let Some(raw) = lexer.next() {
        let range = lexer.span();
        let text = &source[range.clone()];
        let span = Span::new(range.start, range.end);
        let tok = match raw {
            Err(()) => {
                let c = source[range.start..].chars().next().unwrap_or('?');
                let end = range.start + c.len_utf8();
                let what = if c.is_ascii_graphic() {
                    format!("`{c}`")
                } else {
                    format!("{:?}", c)
                };
                diags.push(
                    Diagnostic::error(
                        Span::new(range.start, end),
                        format!("stray {what} in program"),
                    )
                    .with_label("not a valid token"),
                );
                if end > range.end {
                    lexer.bump(end - range.end);
                }
                continue;
            }
            Ok(Raw::UnterminatedComment) => {
                diags.push(
                    Diagnostic::error(span, "unterminated comment")
                        .with_label("expected `*/` to close this"),
                );
                break;
            }
            Ok(Raw::Word) => word(text),
            Ok(Raw::Number) => match number(text) {
                Ok(tok) => tok,
                Err(message) => {
                    diags.push(Diagnostic::error(span, message));
                    Tok::Int(IntLit {
                        value: 0,
                        ty: ScalarType::Int,
                    })
                }
            },
            Ok(Raw::CharLit) => char_constant(&text[1..text.len() - 1], span, diags),
            Ok(Raw::UnterminatedChar) => {
                diags.push(
                    Diagnostic::error(span, "missing terminating `'` character")
                        .with_label("expected `'` before the end of the line"),
                );
                Tok::Char(0)
            }
            Ok(Raw::StrLit) => Tok::Str(unescape(&text[1..text.len() - 1], span.start + 1, diags)),
            Ok(Raw::UnterminatedStr) => {
                diags.push(
                    Diagnostic::error(span, "missing terminating `\"` character")
                        .with_label("expected `\"` before the end of the line"),
                );
                Tok::Str(unescape(&text[1..], span.start + 1, diags))
            }
            Ok(Raw::Directive) if !directives => {
                diags.push(
                    Diagnostic::error(
                        Span::new(range.start, range.start + 1),
                        "stray `#` in program",
                    )
                    .with_label("not a valid token"),
                );
                continue;
            }
            Ok(Raw::Directive) => {
                directive(source, range.start, text, span, &mut out.includes, diags);
                continue;
            }
            Ok(Raw::Punct) => match spelling(PUNCTS, text) {
                Some(p) => Tok::Punct(p),
                None => continue,
            },
        };
        out.tokens.push((range.start, tok, range.end));
    }
    out
}

/// Reject what C's first translation phases would change before tokenization (C99 5.1.1.2):
/// trigraphs (`??!` is `|` for `gcc -std=c99`, even inside string literals) and line splices
/// (a backslash at the end of a line joins it with the next one, even in a `//` comment).
/// Programs using them would mean something else to gcc than to our lexer.
fn translation_phases(source: &str, diags: &mut Diagnostics) {
    let bytes = source.as_bytes();
    for (i, w) in bytes.windows(3).enumerate() {
        if w[0] == b'?' && w[1] == b'?' && b"=/'()!<>-".contains(&w[2]) {
            let tri = String::from_utf8_lossy(w);
            diags.push(
                Diagnostic::error(
                    Span::new(i, i + 3),
                    format!("trigraph `{tri}` is not supported"),
                )
                .with_label("C99 replaces trigraphs before anything else, even in string literals"),
            );
        }
    }
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'\\' {
            continue;
        }
        let rest = &bytes[i + 1..];
        let blanks = rest
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t' || c == b'\r')
            .count();
        if rest.get(blanks) == Some(&b'\n') {
            diags.push(
                Diagnostic::error(
                    Span::new(i, i + 1),
                    "line continuation (backslash at the end of a line) is not supported",
                )
                .with_label("C joins this line with the next one"),
            );
        }
    }
}

/// The entry of `table` spelled `text`. Length and first byte are compared before the whole
/// spelling: this runs for every token, and most entries differ in one of those.
fn spelling(table: &[&'static str], text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    let first = *bytes.first()?;
    table
        .iter()
        .copied()
        .find(|p| p.len() == bytes.len() && p.as_bytes()[0] == first && p.as_bytes() == bytes)
}

/// A keyword, unsupported keyword or identifier.
fn word(text: &str) -> Tok {
    if let Some(kw) = spelling(KEYWORDS, text) {
        Tok::Punct(kw)
    } else if let Some(kw) = keyword_alias(text) {
        Tok::Punct(kw)
    } else if let Some(kw) = spelling(UNSUPPORTED, text) {
        Tok::Unsupported(kw)
    } else {
        Tok::Ident(text.to_string())
    }
}

/// Give a preprocessing number its value and type, or say why it is not a valid constant.
fn number(text: &str) -> Result<Tok, String> {
    let bytes = text.as_bytes();
    let is_hex = bytes.len() > 1 && bytes[0] == b'0' && (bytes[1] | 0x20) == b'x';
    let is_float = if is_hex {
        text.contains(['.', 'p', 'P'])
    } else {
        text.contains(['.', 'e', 'E'])
    };
    if is_float {
        return float(text, is_hex);
    }
    let (digits_end, radix, start) = if is_hex {
        let end = 2 + bytes[2..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        (end, 16, 2)
    } else {
        let end = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if bytes[0] == b'0' {
            (end, 8, 0)
        } else {
            (end, 10, 0)
        }
    };
    let digits = &text[start..digits_end];
    let suffix = &text[digits_end..];
    if is_hex && digits.is_empty() {
        return Err(format!("invalid constant `{text}`: no digits after `0x`"));
    }
    let (unsigned, long) = match suffix {
        "" => (false, false),
        "u" | "U" => (true, false),
        "l" | "L" | "ll" | "LL" => (false, true),
        "ul" | "uL" | "Ul" | "UL" | "lu" | "lU" | "Lu" | "LU" | "ull" | "uLL" | "Ull" | "ULL"
        | "llu" | "llU" | "LLu" | "LLU" => (true, true),
        _ => return Err(format!("invalid suffix `{suffix}` on integer constant")),
    };
    if radix == 8 {
        if let Some(bad) = digits.chars().find(|c| !('0'..='7').contains(c)) {
            return Err(format!("invalid digit `{bad}` in octal constant"));
        }
    }
    let value = u64::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix)
        .map_err(|_| "integer constant is too large for any integer type".to_string())?;
    use ScalarType::*;
    let candidates: &[ScalarType] = match (radix == 10, unsigned, long) {
        (true, false, false) => &[Int, Long],
        (true, false, true) => &[Long],
        (false, false, false) => &[Int, UInt, Long, ULong],
        (false, false, true) => &[Long, ULong],
        (_, true, false) => &[UInt, ULong],
        (_, true, true) => &[ULong],
    };
    let fits = |t: &ScalarType| match t {
        Int => value <= i32::MAX as u64,
        UInt => value <= u32::MAX as u64,
        Long => value <= i64::MAX as u64,
        _ => true,
    };
    match candidates.iter().find(|t| fits(t)) {
        Some(&ty) => Ok(Tok::Int(IntLit { value, ty })),
        None => Err("integer constant is too large for its type".to_string()),
    }
}

/// A floating constant (C99 6.4.4.2): `double`, or `float` with an `f`/`F` suffix.
fn float(text: &str, is_hex: bool) -> Result<Tok, String> {
    if is_hex {
        return hex_float(text);
    }
    let mantissa_end = text
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || c == 'e'
                || c == 'E'
                || ((c == '+' || c == '-') && i > 0 && matches!(&text[i - 1..i], "e" | "E")))
        })
        .map_or(text.len(), |(i, _)| i);
    let (body, suffix) = text.split_at(mantissa_end);
    let is_float = match suffix {
        "" => false,
        "f" | "F" => true,
        "l" | "L" => return long_double(body, text),
        _ => return Err(format!("invalid suffix `{suffix}` on floating constant")),
    };
    let exp_ok = match body.find(['e', 'E']) {
        Some(i) => {
            let exp = body[i + 1..].trim_start_matches(['+', '-']);
            !exp.is_empty()
                && exp.bytes().all(|b| b.is_ascii_digit())
                && body[i + 1..].len() - exp.len() <= 1
        }
        None => true,
    };
    let mantissa = body.split(['e', 'E']).next().unwrap_or("");
    if !exp_ok || mantissa.matches('.').count() > 1 || !mantissa.bytes().any(|b| b.is_ascii_digit())
    {
        return Err(format!("invalid floating constant `{text}`"));
    }
    let invalid = |_| format!("invalid floating constant `{text}`");
    if is_float {
        // Parsed straight to binary32: correctly rounded once from the decimal value.
        body.parse::<f32>().map(Tok::Float).map_err(invalid)
    } else {
        body.parse::<f64>().map(Tok::Double).map_err(invalid)
    }
}

/// A `long double` constant (`1.5L`, `0x1p-16400L`): `body` (the text without its suffix)
/// correctly rounded to the x87 80-bit format.
fn long_double(body: &str, text: &str) -> Result<Tok, String> {
    let valid_decimal = body.bytes().any(|b| b.is_ascii_digit())
        && !body.ends_with(['e', 'E', '+', '-'])
        && body.matches('.').count() <= 1;
    let is_hex = body.starts_with("0x") || body.starts_with("0X");
    if !is_hex && !valid_decimal {
        return Err(format!("invalid floating constant `{text}`"));
    }
    crate::builtins::long_double::LongDouble::parse(body)
        .map(|v| Tok::LongDouble(v.to_bits()))
        .ok_or_else(|| format!("invalid floating constant `{text}`"))
}

/// A hexadecimal floating constant (C99 6.4.4.2): `0x` hex digits with an optional `.`, a
/// binary exponent `p`/`P` (required), an optional `f`/`F` suffix. Its value, `mantissa x
/// 2^exponent`, is rounded once, to nearest with ties to even, straight to the type's precision
/// (`float`: 24 bits, `double`: 53, fewer for subnormals), as gcc does; too large a value is an
/// infinity (gcc warns).
fn hex_float(text: &str) -> Result<Tok, String> {
    let invalid = || format!("invalid hexadecimal floating constant `{text}`");
    let body = &text[2..];
    let p = body.find(['p', 'P']).ok_or_else(|| {
        format!("hexadecimal floating constant `{text}` needs a binary exponent (`p`)")
    })?;
    let (digits, rest) = (&body[..p], &body[p + 1..]);
    let suffix_at = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '+' || c == '-'))))
        .map_or(rest.len(), |(i, _)| i);
    let (exponent_text, suffix) = rest.split_at(suffix_at);
    let is_float = match suffix {
        "" => false,
        "f" | "F" => true,
        "l" | "L" => return long_double(&text[..text.len() - 1], text),
        _ => return Err(format!("invalid suffix `{suffix}` on floating constant")),
    };
    let exponent_digits = exponent_text.trim_start_matches(['+', '-']);
    if exponent_digits.is_empty() || digits.matches('.').count() > 1 {
        return Err(invalid());
    }
    // A huge exponent saturates: the value is 0 or infinite either way.
    let magnitude: i64 = exponent_digits.parse().unwrap_or(1 << 40).min(1 << 40);
    let mut exponent = if exponent_text.starts_with('-') {
        -magnitude
    } else {
        magnitude
    };
    // The mantissa's leading bits (up to 120 of them) and whether any bit below them is set.
    let mut mantissa: u128 = 0;
    let mut sticky = false;
    let mut any_digit = false;
    let mut after_point = false;
    for c in digits.chars() {
        if c == '.' {
            after_point = true;
            continue;
        }
        let d = c.to_digit(16).ok_or_else(invalid)?;
        any_digit = true;
        if mantissa >> 116 == 0 {
            mantissa = mantissa << 4 | u128::from(d);
            if after_point {
                exponent -= 4;
            }
        } else {
            sticky |= d != 0;
            if !after_point {
                exponent += 4;
            }
        }
    }
    if !any_digit {
        return Err(invalid());
    }
    let value = if is_float {
        round_binary(mantissa, sticky, exponent, 24, -126, 127)
    } else {
        round_binary(mantissa, sticky, exponent, 53, -1022, 1023)
    };
    Ok(if is_float {
        Tok::Float(value as f32)
    } else {
        Tok::Double(value)
    })
}

/// `mantissa x 2^exponent` (with `sticky` set if nonzero bits were dropped below `mantissa`)
/// rounded to nearest, ties to even, to `precision` bits with normal exponents from
/// `min_exponent` to `max_exponent` (IEEE 754 binary32 or binary64); infinite above, subnormal
/// and then 0 below. Returned as an `f64`, which holds the `float` result exactly.
fn round_binary(
    mantissa: u128,
    sticky: bool,
    exponent: i64,
    precision: u32,
    min_exponent: i64,
    max_exponent: i64,
) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let bits = 128 - mantissa.leading_zeros();
    // The value lies in [2^top, 2^(top + 1)).
    let top = i64::from(bits) - 1 + exponent;
    // Bits the result keeps: fewer below the smallest normal exponent.
    let keep = i64::from(precision) - (min_exponent - top).max(0);
    let drop = i64::from(bits) - keep;
    let (mut kept, mut scale) = if drop > 0 {
        if drop > 127 {
            // Below half the smallest subnormal: rounds to 0.
            return 0.0;
        }
        let drop = drop as u32;
        let kept = mantissa >> drop;
        let rest = mantissa & ((1u128 << drop) - 1);
        let half = 1u128 << (drop - 1);
        let round_up = rest > half || (rest == half && (sticky || kept & 1 == 1));
        (kept + u128::from(round_up), exponent + i64::from(drop))
    } else {
        (mantissa, exponent)
    };
    if kept == 0 {
        return 0.0;
    }
    // Rounding may have carried into a new top bit.
    if 128 - kept.leading_zeros() > precision.max(1) && kept & 1 == 0 {
        kept >>= 1;
        scale += 1;
    }
    if i64::from(128 - kept.leading_zeros()) - 1 + scale > max_exponent {
        return f64::INFINITY;
    }
    // `kept` has at most 53 bits: exact as an `f64`; powers of two in steps keep it exact, as
    // every step's value lies between `kept` and the (representable) result.
    let mut value = kept as f64;
    let mut k = scale;
    while k != 0 {
        let step = k.clamp(-1000, 1000);
        value *= 2f64.powi(step as i32);
        k -= step;
    }
    value
}

/// Decode the escapes of a string literal's body (`text` starts at byte `offset`).
pub(crate) fn unescape(text: &str, offset: u32, diags: &mut Diagnostics) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let start = i;
        let (value, next) = escape(bytes, i + 1);
        match value {
            Ok(b) => out.push(b),
            Err(message) => {
                let at = offset as usize;
                diags.push(Diagnostic::error(Span::new(at + start, at + next), message));
            }
        }
        i = next;
    }
    out
}

/// Decode one escape sequence whose backslash is just before `bytes[i]`. Returns the byte (or
/// an error) and the index after the sequence.
fn escape(bytes: &[u8], i: usize) -> (Result<u8, String>, usize) {
    let Some(&c) = bytes.get(i) else {
        return (Err("incomplete escape sequence".into()), i);
    };
    let simple = match c {
        b'n' => Some(b'\n'),
        b't' => Some(b'\t'),
        b'r' => Some(b'\r'),
        b'a' => Some(7),
        b'b' => Some(8),
        b'f' => Some(12),
        b'v' => Some(11),
        b'\\' | b'\'' | b'"' | b'?' => Some(c),
        _ => None,
    };
    if let Some(b) = simple {
        return (Ok(b), i + 1);
    }
    if (b'0'..=b'7').contains(&c) {
        let mut value: u32 = 0;
        let mut j = i;
        while j < bytes.len() && j < i + 3 && (b'0'..=b'7').contains(&bytes[j]) {
            value = value * 8 + u32::from(bytes[j] - b'0');
            j += 1;
        }
        return match u8::try_from(value) {
            Ok(b) => (Ok(b), j),
            Err(_) => (Err("octal escape sequence out of range".into()), j),
        };
    }
    if c == b'x' {
        let mut value: u32 = 0;
        let mut j = i + 1;
        let mut overflow = false;
        while j < bytes.len() && bytes[j].is_ascii_hexdigit() {
            let digit = (bytes[j] as char).to_digit(16).unwrap_or(0);
            value = value.saturating_mul(16).saturating_add(digit);
            overflow |= value > 0xff;
            j += 1;
        }
        if j == i + 1 {
            return (Err("`\\x` used with no following hex digits".into()), j);
        }
        if overflow {
            return (Err("hex escape sequence out of range".into()), j);
        }
        return (Ok(value as u8), j);
    }
    let len = std::str::from_utf8(&bytes[i..])
        .ok()
        .and_then(|s| s.chars().next())
        .map_or(1, char::len_utf8);
    (
        Err(format!(
            "unknown escape sequence `\\{}`",
            String::from_utf8_lossy(&bytes[i..i + len])
        )),
        i + len,
    )
}

/// A character constant's value: exactly one character or escape, as a signed `char` in `int`.
fn char_constant(body: &str, span: Span, diags: &mut Diagnostics) -> Tok {
    let mut inner = Diagnostics::new();
    let bytes = unescape(body, span.start + 1, &mut inner);
    let had_errors = !inner.is_empty();
    diags.extend(inner);
    match bytes.as_slice() {
        [b] => Tok::Char(i64::from(*b as i8)),
        _ if had_errors => Tok::Char(0),
        [] => {
            diags.push(Diagnostic::error(span, "empty character constant"));
            Tok::Char(0)
        }
        _ => {
            diags.push(
                Diagnostic::error(span, "multi-character constants are not supported")
                    .with_label("expected exactly one character"),
            );
            Tok::Char(0)
        }
    }
}

/// Handle a `#` line: record `#include <header>`, reject anything else.
fn directive(
    source: &str,
    start: usize,
    text: &str,
    span: Span,
    includes: &mut Vec<Include>,
    diags: &mut Diagnostics,
) {
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    if !source[line_start..start].trim().is_empty() {
        diags.push(
            Diagnostic::error(Span::new(start, start + 1), "stray `#` in program")
                .with_label("`#` is only allowed at the start of an `#include` line"),
        );
        return;
    }
    let rest = text[1..].trim_start();
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
    let name = &rest[..name_len];
    if name != "include" {
        let message = if name.is_empty() {
            "invalid preprocessing directive".to_string()
        } else {
            format!("preprocessing directive `#{name}` is not supported")
        };
        diags.push(
            Diagnostic::error(span, message).with_label("only `#include <...>` lines are accepted"),
        );
        return;
    }
    let arg = rest[name_len..].trim();
    let arg = match arg.find("//") {
        Some(i) => arg[..i].trim_end(),
        None => arg,
    };
    match arg.strip_prefix('<').and_then(|a| a.strip_suffix('>')) {
        Some(header) if !header.is_empty() && !header.contains(['<', '>']) => {
            includes.push(Include {
                header: header.trim().to_string(),
                span,
            })
        }
        _ => diags.push(
            Diagnostic::error(span, "malformed `#include` line")
                .with_label("expected `#include <header.h>`"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_keyword_aliases_spell_keywords() {
        assert_eq!(keyword_alias("__inline__"), Some("inline"));
        assert_eq!(keyword_alias("__restrict"), Some("restrict"));
        assert_eq!(keyword_alias("__signed__"), Some("signed"));
        assert_eq!(keyword_alias("inline"), None);
        assert_eq!(keyword_alias("__typeof__"), Some("typeof"));
        assert_eq!(keyword_alias("__x"), None);
    }

    fn toks(src: &str) -> Vec<Tok> {
        let mut d = Diagnostics::new();
        let lexed = lex(src, &mut d);
        assert!(d.is_empty(), "{}", d.summary(src));
        lexed.tokens.into_iter().map(|(_, t, _)| t).collect()
    }

    fn err(src: &str) -> String {
        let mut d = Diagnostics::new();
        lex(src, &mut d);
        d.summary(src)
    }

    #[test]
    fn integer_types_follow_c99() {
        use ScalarType::*;
        let cases: &[(&str, u64, ScalarType)] = &[
            ("0", 0, Int),
            ("2147483647", 2147483647, Int),
            ("2147483648", 2147483648, Long),
            ("0x7fffffff", 0x7fffffff, Int),
            ("0x80000000", 0x80000000, UInt),
            ("0xffffffff", 0xffffffff, UInt),
            ("0x100000000", 0x100000000, Long),
            ("0xffffffffffffffff", u64::MAX, ULong),
            ("017", 15, Int),
            ("037777777777", 0xffffffff, UInt),
            ("5u", 5, UInt),
            ("4294967296u", 4294967296, ULong),
            ("5l", 5, Long),
            ("5LL", 5, Long),
            ("0x8000000000000000L", 1 << 63, ULong),
            ("5ul", 5, ULong),
            ("5LU", 5, ULong),
            ("9223372036854775807", i64::MAX as u64, Long),
        ];
        for &(src, value, ty) in cases {
            assert_eq!(toks(src), vec![Tok::Int(IntLit { value, ty })], "{src}");
        }
    }

    #[test]
    fn bad_integers() {
        assert_eq!(
            err("9223372036854775808"),
            "1:1: integer constant is too large for its type\n"
        );
        assert_eq!(
            err("99999999999999999999"),
            "1:1: integer constant is too large for any integer type\n"
        );
        assert_eq!(err("08"), "1:1: invalid digit `8` in octal constant\n");
        assert_eq!(
            err("12abc"),
            "1:1: invalid suffix `abc` on integer constant\n"
        );
        assert_eq!(
            err("0x"),
            "1:1: invalid constant `0x`: no digits after `0x`\n"
        );
        assert_eq!(
            err("0x1e+5"),
            "1:1: invalid suffix `+5` on integer constant\n"
        );
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64)] = &[
            ("1.5", 1.5),
            ("2.", 2.0),
            (".25", 0.25),
            ("1e3", 1000.0),
            ("1.5E-2", 0.015),
            ("0.1", 0.1),
            ("1e+2", 100.0),
            ("00.5", 0.5),
            ("09.5", 9.5),
        ];
        for &(src, value) in cases {
            assert_eq!(toks(src), vec![Tok::Double(value)], "{src}");
        }
        assert_eq!(toks("1.5f"), vec![Tok::Float(1.5)]);
        assert_eq!(toks("1e3F"), vec![Tok::Float(1000.0)]);
        assert_eq!(toks("0.1f"), vec![Tok::Float(0.1f32)]);
        // Rounded once from the decimal text: through a double this one rounds differently.
        assert_eq!(
            toks("1.00000005960464477539062500001f"),
            vec![Tok::Float(1.000_000_1)]
        );
        // 0.1 to 64 bits: 0xc.ccccccccccccccdp-7 (gcc's `%La`).
        let tenth = (0x3ffbu128 << 64) | 0xcccc_cccc_cccc_cccd;
        assert_eq!(toks("0.1L"), vec![Tok::LongDouble(tenth)]);
        assert_eq!(toks("1e-1l"), vec![Tok::LongDouble(tenth)]);
        assert!(err("1eL").contains("invalid floating constant"));
        assert!(err("1.5ff").contains("invalid suffix"));
        assert!(err("1e").contains("invalid floating constant"));
        assert!(err("1.2.3").contains("invalid floating constant"));
    }

    #[test]
    fn hexadecimal_floating_constants() {
        // Exact values, then rounding: ties to even (`0x1.00000000000008p0` is halfway between
        // 1 and the next double), subnormals, overflow, and `float`'s own rounding.
        assert_eq!(toks("0x1p3"), vec![Tok::Double(8.0)]);
        assert_eq!(toks("0x1.8p-1"), vec![Tok::Double(0.75)]);
        assert_eq!(toks("0X.8P1"), vec![Tok::Double(1.0)]);
        assert_eq!(toks("0xAp0"), vec![Tok::Double(10.0)]);
        assert_eq!(toks("0x1.00000000000008p0"), vec![Tok::Double(1.0)]);
        assert_eq!(
            toks("0x1.00000000000018p0"),
            vec![Tok::Double(f64::from_bits(0x3ff0_0000_0000_0002))]
        );
        assert_eq!(toks("0x1p-1074"), vec![Tok::Double(f64::from_bits(1))]);
        assert_eq!(toks("0x1p-1075"), vec![Tok::Double(0.0)]);
        assert_eq!(toks("0x1.8p-1075"), vec![Tok::Double(f64::from_bits(1))]);
        assert_eq!(toks("0x1p1024"), vec![Tok::Double(f64::INFINITY)]);
        assert_eq!(toks("0x1.0p-100f"), vec![Tok::Float(2f32.powi(-100))]);
        assert_eq!(toks("0x1.000001p0f"), vec![Tok::Float(1.0)]);
        assert_eq!(
            toks("0x1.000003p0f"),
            vec![Tok::Float(1.0 + 2f32.powi(-22))]
        );
        assert_eq!(toks("0x1p-150f"), vec![Tok::Float(0.0)]);
        assert!(err("0x1.8").contains("binary exponent"));
        assert!(err("0x1p").contains("invalid hexadecimal"));
        assert_eq!(
            toks("0x1p3L"),
            vec![Tok::LongDouble((0x4002u128 << 64) | 1 << 63)]
        );
        assert!(err("0xp3").contains("invalid hexadecimal"));
    }

    #[test]
    fn chars_and_strings() {
        assert_eq!(
            toks(r"'a' '\n' '\0' '\x41' '\101' '\xff' '\'' '\\'"),
            [97, 10, 0, 65, 65, -1, 39, 92].map(Tok::Char).to_vec()
        );
        assert_eq!(
            toks(r#""a\tb\"\x41\0""#),
            vec![Tok::Str(b"a\tb\"A\0".to_vec())]
        );
        assert!(err("'ab'").contains("multi-character"));
        assert!(err("''").contains("empty character constant"));
        assert!(err("\"abc\n").contains("missing terminating `\"`"));
        assert!(err(r#""\q""#).contains("unknown escape sequence `\\q`"));
        assert!(err(r#""\x100""#).contains("hex escape sequence out of range"));
    }

    #[test]
    fn comments_directives_punctuators() {
        let src = "#include <stdio.h>\n  # include <math.h> // c\nint/* x */a;//y\n>>= ... ->";
        let mut d = Diagnostics::new();
        let lexed = lex(src, &mut d);
        assert!(d.is_empty());
        let headers: Vec<_> = lexed.includes.iter().map(|i| i.header.as_str()).collect();
        assert_eq!(headers, ["stdio.h", "math.h"]);
        let t: Vec<_> = lexed.tokens.into_iter().map(|(_, t, _)| t).collect();
        assert_eq!(
            t,
            vec![
                Tok::Punct("int"),
                Tok::Ident("a".into()),
                Tok::Punct(";"),
                Tok::Punct(">>="),
                Tok::Punct("..."),
                Tok::Punct("->"),
            ]
        );
        assert!(err("#define X 1").contains("`#define` is not supported"));
        assert!(err("int a; # include <x.h>").contains("stray `#`"));
        assert!(err("#include \"x.h\"").contains("malformed `#include`"));
        assert_eq!(err("int /* abc"), "1:5: unterminated comment\n");
        assert_eq!(
            err("a @ b $ é"),
            "1:3: stray `@` in program\n1:7: stray `$` in program\n1:9: stray 'é' in program\n"
        );
        assert_eq!(toks("goto"), vec![Tok::Punct("goto")]);
        assert_eq!(toks("_Complex"), vec![Tok::Unsupported("_Complex")]);
        assert_eq!(
            toks("short signed float _Bool"),
            ["short", "signed", "float", "_Bool"]
                .map(Tok::Punct)
                .to_vec()
        );
        assert!(err("\"what??!\"").contains("trigraph `??!`"));
        assert!(err("// comment \\\nint x;").contains("line continuation"));
        assert!(err("#include <stdio.h> \\ \n").contains("line continuation"));
        assert_eq!(toks("\"a?b??c\""), vec![Tok::Str(b"a?b??c".to_vec())]);
    }
}
