//! Tests of the printf format parser: the pieces it produces, the errors it reports (offset
//! and message), the argument kinds, and a differential check against gcc's `-Wformat`: every
//! format we accept compiles without a format warning when given the argument type we say it
//! takes, and every combination we reject as invalid (rather than merely unsupported) is one
//! gcc warns about.

use std::io::Write;
use std::process::{Command, Stdio};

use lang::hir::ScalarType;
use lang::printf_format::{
    arg_kinds, parse, ArgKind, Conv, Flags, FormatError, Length, Piece, Spec, MAX_WIDTH,
};

fn spec(text: &str) -> Spec {
    match parse(text.as_bytes()) {
        Ok(pieces) => match pieces.as_slice() {
            [Piece::Conversion(s)] => *s,
            other => panic!("{text:?} parsed to {other:?}, not one conversion"),
        },
        Err(e) => panic!("{text:?} rejected: {e}"),
    }
}

fn error(text: &str) -> FormatError {
    match parse(text.as_bytes()) {
        Ok(pieces) => panic!("{text:?} accepted as {pieces:?}"),
        Err(e) => e,
    }
}

#[test]
fn literals_and_conversions_alternate() {
    let pieces = parse(b"x = %d, y = %5.2f%%\n").unwrap();
    assert_eq!(pieces.len(), 6);
    assert_eq!(pieces[0], Piece::Literal(b"x = ".to_vec()));
    assert!(matches!(pieces[1], Piece::Conversion(s) if s.conv == Conv::Signed));
    assert_eq!(pieces[2], Piece::Literal(b", y = ".to_vec()));
    assert!(matches!(pieces[3], Piece::Conversion(s) if s.conv == Conv::FixedLower));
    assert!(matches!(pieces[4], Piece::Conversion(s) if s.conv == Conv::Percent));
    assert_eq!(pieces[5], Piece::Literal(b"\n".to_vec()));
    assert_eq!(parse(b"").unwrap(), vec![]);
    assert_eq!(
        parse(b"\xff plain \x01").unwrap(),
        vec![Piece::Literal(b"\xff plain \x01".to_vec())]
    );
}

#[test]
fn the_64_bit_lengths_of_stdint_and_sizeof_are_read() {
    for (text, length) in [
        ("%zu", Length::Size),
        ("%jd", Length::IntMax),
        ("%tx", Length::PtrDiff),
    ] {
        assert_eq!(spec(text).length, length, "{text}");
        assert_eq!(spec(text).length.bits(), 64, "{text}");
    }
}

#[test]
fn flags_width_precision_and_length_are_read() {
    let s = spec("%-+ 0#12.7lf");
    assert_eq!(
        s.flags,
        Flags {
            left: true,
            plus: true,
            space: true,
            zero: true,
            alt: true
        }
    );
    assert_eq!(
        (s.width, s.precision, s.length),
        (Some(12), Some(7), Length::Long)
    );
    assert_eq!(s.conv, Conv::FixedLower);

    let s = spec("%05d");
    assert!(s.flags.zero);
    assert_eq!(s.width, Some(5));
    assert_eq!(spec("%.d").precision, Some(0));
    assert_eq!(spec("%.0d").precision, Some(0));
    assert_eq!(spec("%d").precision, None);
    assert_eq!(spec("%--5d").width, Some(5)); // repeated flags are allowed
    assert_eq!(spec("%hhx").length, Length::Char);
    assert_eq!(spec("%hx").length, Length::Short);
    assert_eq!(spec("%llo").length, Length::LongLong);
    assert_eq!(spec("%i").conv, Conv::Signed);
    assert_eq!(spec("%i").conv_char, b'i');
    assert_eq!(
        spec(&format!("%{MAX_WIDTH}.{MAX_WIDTH}f")).width,
        Some(MAX_WIDTH)
    );
}

#[test]
fn display_writes_the_spec_back() {
    for text in [
        "%-+ 0#12.7lf",
        "%05d",
        "%.0x",
        "%hhu",
        "%lld",
        "%10.3s",
        "%c",
        "%%",
        "%#G",
    ] {
        let s = spec(text);
        assert_eq!(s.to_string(), text);
        assert_eq!(spec(&s.to_string()), s);
    }
}

#[test]
fn argument_kinds_follow_the_promoted_c_types() {
    let cases = [
        ("%d", ArgKind::Int),
        ("%i", ArgKind::Int),
        ("%hd", ArgKind::Int),
        ("%hhd", ArgKind::Int),
        ("%ld", ArgKind::Long),
        ("%lld", ArgKind::Long),
        ("%u", ArgKind::UInt),
        ("%x", ArgKind::UInt),
        ("%X", ArgKind::UInt),
        ("%o", ArgKind::UInt),
        ("%hu", ArgKind::UInt),
        ("%hhx", ArgKind::UInt),
        ("%lu", ArgKind::ULong),
        ("%llx", ArgKind::ULong),
        ("%lo", ArgKind::ULong),
        ("%c", ArgKind::Char),
        ("%s", ArgKind::Str),
        ("%f", ArgKind::Double),
        ("%lf", ArgKind::Double),
        ("%e", ArgKind::Double),
        ("%G", ArgKind::Double),
        ("%%", ArgKind::None),
    ];
    for (text, kind) in cases {
        assert_eq!(spec(text).arg(), kind, "{text}");
    }
    let pieces = parse(b"%d %% %s %lu %c").unwrap();
    assert_eq!(
        arg_kinds(&pieces),
        vec![ArgKind::Int, ArgKind::Str, ArgKind::ULong, ArgKind::Char]
    );
}

#[test]
fn accepts_same_width_either_signedness() {
    use ScalarType::*;
    let all = [Char, Int, UInt, Long, ULong, Double];
    let accepted = |kind: ArgKind| -> Vec<ScalarType> {
        all.iter().copied().filter(|&t| kind.accepts(t)).collect()
    };
    assert_eq!(accepted(ArgKind::Int), vec![Int, UInt]);
    assert_eq!(accepted(ArgKind::UInt), vec![Int, UInt]);
    assert_eq!(accepted(ArgKind::Char), vec![Int, UInt]);
    assert_eq!(accepted(ArgKind::Long), vec![Long, ULong]);
    assert_eq!(accepted(ArgKind::ULong), vec![Long, ULong]);
    assert_eq!(accepted(ArgKind::Double), vec![Double]);
    assert_eq!(accepted(ArgKind::Str), vec![]);
    assert_eq!(accepted(ArgKind::None), vec![]);
    assert!(ArgKind::Pointer.accepts(Ptr));
    assert_eq!(accepted(ArgKind::Pointer), vec![]);
    assert_eq!(ArgKind::ULong.describe(), "unsigned long");
    assert_eq!(ArgKind::Str.describe(), "char *");
    assert_eq!(ArgKind::Char.scalar_type(), Some(Int));
}

#[test]
fn star_width_and_precision_take_int_arguments_before_the_value() {
    let s = spec("%-*.*f");
    assert!(s.width_star && s.precision_star && s.flags.left);
    assert_eq!((s.width, s.precision), (None, None));
    assert_eq!(s.to_string(), "%-*.*f");
    let pieces = parse(b"%*d|%.*s|%5d").unwrap();
    assert_eq!(
        lang::printf_format::arg_kinds(&pieces),
        [
            ArgKind::Int,
            ArgKind::Int,
            ArgKind::Int,
            ArgKind::Str,
            ArgKind::Int
        ]
    );
}

#[test]
fn errors_point_at_the_offending_byte() {
    let cases: &[(&str, usize, &str)] = &[
        ("ab %.*c", 4, "a precision cannot be used with `%c`"),
        ("%1$d", 2, "positional arguments"),
        ("x%n", 2, "`%n` is not supported"),
        ("%.3p", 1, "a precision cannot be used with `%p`"),
        ("%qd", 1, "length modifier 'q' is not supported"),
        ("%Ld", 1, "the length modifier 'L' cannot be used with `%d`"),
        ("%Ls", 1, "the length modifier 'L' cannot be used with `%s`"),
        ("%zf", 1, "the length modifier 'z' cannot be used with `%f`"),
        ("%'d", 1, "thousands grouping"),
        ("%Id", 1, "'I' flag"),
        ("%lc", 1, "wide characters"),
        ("%ls", 1, "wide characters"),
        ("%hs", 1, "the length modifier 'h' cannot be used with `%s`"),
        (
            "%llc",
            1,
            "the length modifier 'll' cannot be used with `%c`",
        ),
        ("%k", 1, "unknown conversion 'k'"),
        ("%\n", 1, "unknown conversion byte 0x0a"),
        (
            "%y%d",
            1,
            "expected one of d i u x X o c f F e E g G a A s p %",
        ),
        ("abc%", 3, "incomplete conversion"),
        ("%5", 0, "incomplete conversion"),
        ("%-", 0, "incomplete conversion"),
        ("%l", 0, "incomplete conversion"),
        ("a\0b", 1, "embedded NUL"),
        ("%#d", 1, "the '#' flag cannot be used with `%d`"),
        ("%+u", 1, "the '+' flag cannot be used with `%u`"),
        ("% x", 1, "the ' ' (space) flag cannot be used with `%x`"),
        ("%-+o", 2, "the '+' flag cannot be used with `%o`"),
        ("%05c", 1, "the '0' flag cannot be used with `%c`"),
        ("%05s", 1, "the '0' flag cannot be used with `%s`"),
        ("%#s", 1, "the '#' flag cannot be used with `%s`"),
        ("%+c", 1, "the '+' flag cannot be used with `%c`"),
        ("%.3c", 1, "a precision cannot be used with `%c`"),
        ("%hf", 1, "'h' cannot be used with `%f`"),
        ("%hhg", 1, "'hh' cannot be used with `%g`"),
        ("%llf", 1, "'ll' cannot be used with `%f`"),
        ("%5%", 0, "`%%` must be written exactly"),
        ("%-%", 0, "`%%` must be written exactly"),
        ("%.-1d", 2, "negative precision"),
        ("%65536d", 1, "width 65536 is too large"),
        ("%.99999999999f", 2, "precision 4294967295 is too large"),
    ];
    for &(text, offset, message) in cases {
        let e = error(text);
        assert_eq!(e.offset, offset, "offset for {text:?}: {e}");
        assert!(
            e.message.contains(message),
            "message for {text:?} is {:?}, expected it to contain {message:?}",
            e.message
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Differential check against gcc -Wformat.

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// A random conversion built from the supported vocabulary (so that a rejection can only be an
/// invalid combination, never an unsupported feature; `%lc` and `%ls`, valid C but
/// unsupported, are left to the unit tests above).
fn random_format(rng: &mut Rng) -> String {
    let mut s = String::from("%");
    for _ in 0..rng.below(3) {
        s.push(['-', '+', ' ', '0', '#'][rng.below(5) as usize]);
    }
    if rng.below(2) == 0 {
        s.push_str(&(1 + rng.below(20)).to_string());
    }
    match rng.below(4) {
        0 => s.push('.'),
        1 => s.push_str(&format!(".{}", rng.below(12))),
        _ => {}
    }
    let length = ["", "", "h", "hh", "l", "ll", "L"][rng.below(7) as usize];
    s.push_str(length);
    let convs: &[u8] = if length == "l" {
        b"diuxXofFeEgG%"
    } else if length == "L" {
        b"fFeEgG%"
    } else {
        b"diuxXocfFeEgGs%"
    };
    s.push(char::from(convs[rng.below(convs.len() as u64) as usize]));
    s
}

/// The C argument gcc expects for a format as we parsed it (`long long` for `ll`, which the
/// language passes as `long`: same size and representation).
fn c_argument(spec: &Spec) -> Option<&'static str> {
    let ll = spec.length == Length::LongLong;
    Some(match spec.arg() {
        ArgKind::Int => "1",
        ArgKind::UInt => "1u",
        ArgKind::Long if ll => "1LL",
        ArgKind::Long => "1L",
        ArgKind::ULong if ll => "1ULL",
        ArgKind::ULong => "1UL",
        ArgKind::Double => "1.0",
        ArgKind::LongDouble => "1.0L",
        ArgKind::Char => "65",
        ArgKind::Str => "\"s\"",
        ArgKind::Pointer => "(void *)0",
        ArgKind::None => return None,
    })
}

/// The argument a C programmer would naturally pass for a (possibly invalid) format, judged
/// by its conversion character and length only.
fn natural_argument(text: &str) -> Option<&'static str> {
    let conv = text.chars().last().unwrap();
    let ll = text.contains("ll");
    let l = text.contains('l');
    Some(match conv {
        'd' | 'i' if ll => "1LL",
        'd' | 'i' if l => "1L",
        'd' | 'i' | 'c' => "1",
        'u' | 'x' | 'X' | 'o' if ll => "1ULL",
        'u' | 'x' | 'X' | 'o' if l => "1UL",
        'u' | 'x' | 'X' | 'o' => "1u",
        's' => "\"s\"",
        '%' => return None,
        _ if text.contains('L') => "1.0L",
        _ => "1.0",
    })
}

/// Compiles one printf per line with `gcc -Wformat` and returns, per line, whether gcc gave a
/// format warning other than "flag ignored" / "repeated flag" (which C99 defines as harmless
/// and we accept).
fn gcc_format_warnings(calls: &[String]) -> Vec<bool> {
    let mut source = String::from("#include <stdio.h>\nint main(void) {\n");
    for call in calls {
        source.push_str(call);
        source.push('\n');
    }
    source.push_str("return 0;\n}\n");
    let mut child = Command::new("gcc")
        .args([
            "-std=c99",
            "-fwrapv",
            "-O0",
            "-Wformat",
            "-fsyntax-only",
            "-x",
            "c",
            "-",
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gcc is required for this test but could not be started");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "gcc failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut warned = vec![false; calls.len()];
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("<stdin>:") else {
            continue;
        };
        if !line.contains("warning:") || line.contains("flag ignored") || line.contains("repeated")
        {
            continue;
        }
        let number: usize = rest.split(':').next().unwrap().parse().unwrap();
        // Line 1 is the #include, line 2 `int main`; call i is on line i + 3.
        if let Some(slot) = number.checked_sub(3).and_then(|i| warned.get_mut(i)) {
            *slot = true;
        }
    }
    warned
}

fn c_literal(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[test]
fn accepted_formats_are_exactly_those_gcc_accepts() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut formats: Vec<String> = (0..3000).map(|_| random_format(&mut rng)).collect();
    formats.sort();
    formats.dedup();
    let mut calls = Vec::new();
    let mut accepted = Vec::new();
    for text in &formats {
        match parse(text.as_bytes()) {
            Ok(pieces) => {
                let [Piece::Conversion(spec)] = pieces.as_slice() else {
                    panic!("{text:?} did not parse to one conversion");
                };
                let arg = c_argument(spec)
                    .map(|a| format!(", {a}"))
                    .unwrap_or_default();
                calls.push(format!("printf(\"{}\"{arg});", c_literal(text)));
                accepted.push(true);
            }
            Err(e) => {
                assert!(
                    !e.message.contains("not supported"),
                    "{text:?} uses only supported features but was rejected: {e}"
                );
                let arg = natural_argument(text)
                    .map(|a| format!(", {a}"))
                    .unwrap_or_default();
                calls.push(format!("printf(\"{}\"{arg});", c_literal(text)));
                accepted.push(false);
            }
        }
    }
    let warned = gcc_format_warnings(&calls);
    let mut wrong = Vec::new();
    for ((text, &ok), &warn) in formats.iter().zip(&accepted).zip(&warned) {
        if ok == warn {
            wrong.push(format!(
                "{text:?}: we {} it, gcc {}",
                if ok { "accept" } else { "reject" },
                if warn { "warns" } else { "does not warn" }
            ));
        }
    }
    let accepted_count = accepted.iter().filter(|&&a| a).count();
    assert!(
        accepted_count > 200 && accepted_count < formats.len() - 200,
        "the generator should produce plenty of both: {accepted_count} of {} accepted",
        formats.len()
    );
    assert!(
        wrong.is_empty(),
        "{} of {} formats disagree with gcc -Wformat:\n{}",
        wrong.len(),
        formats.len(),
        wrong.join("\n")
    );
}
