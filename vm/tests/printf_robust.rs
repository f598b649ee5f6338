//! `vm::printf::format` never panics, whatever it is given: specifications the parser would
//! reject (precision on `%c`, `#` on `%d`, `h` on `%f`), arguments of the wrong kind, missing
//! arguments, extreme widths and precisions. (Byte-exactness is `printf_gcc.rs`'s business.)

mod printf_support;

use lang::printf_format::{Conv, Flags, Length, Piece, Spec};
use printf_support::{seed, Rng};
use vm::printf::{format, PrintfArg};

const CONVS: [(Conv, u8); 16] = [
    (Conv::Signed, b'd'),
    (Conv::Unsigned, b'u'),
    (Conv::Octal, b'o'),
    (Conv::HexLower, b'x'),
    (Conv::HexUpper, b'X'),
    (Conv::Char, b'c'),
    (Conv::FixedLower, b'f'),
    (Conv::FixedUpper, b'F'),
    (Conv::ExpLower, b'e'),
    (Conv::ExpUpper, b'E'),
    (Conv::GeneralLower, b'g'),
    (Conv::GeneralUpper, b'G'),
    (Conv::HexFloatLower, b'a'),
    (Conv::HexFloatUpper, b'A'),
    (Conv::Str, b's'),
    (Conv::Percent, b'%'),
];

fn random_spec(rng: &mut Rng) -> Spec {
    let (conv, conv_char) = *rng.pick(&CONVS);
    let size = |rng: &mut Rng| match rng.below(6) {
        0 => None,
        1 => Some(rng.below(2000) as u32),
        _ => Some(rng.below(40) as u32),
    };
    Spec {
        flags: Flags {
            left: rng.chance(1, 3),
            plus: rng.chance(1, 3),
            space: rng.chance(1, 3),
            zero: rng.chance(1, 3),
            alt: rng.chance(1, 3),
        },
        width: size(rng),
        precision: size(rng),
        width_star: false,
        precision_star: false,
        length: *rng.pick(&[
            Length::None,
            Length::Char,
            Length::Short,
            Length::Long,
            Length::LongLong,
            Length::IntMax,
            Length::Size,
            Length::PtrDiff,
        ]),
        conv,
        conv_char,
    }
}

fn random_arg(rng: &mut Rng) -> PrintfArg<'static> {
    match rng.below(4) {
        0 => PrintfArg::Int(rng.next_u64() as i64),
        1 => PrintfArg::UInt(rng.next_u64()),
        2 => PrintfArg::Double(f64::from_bits(rng.next_u64())),
        _ => PrintfArg::Str(b"some text"),
    }
}

#[test]
fn arbitrary_specs_and_arguments_never_panic() {
    let seed = seed(4242);
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..4000 {
        let pieces: Vec<Piece> = (0..1 + rng.below(4))
            .map(|_| {
                if rng.chance(1, 4) {
                    Piece::Literal(b"lit".to_vec())
                } else {
                    Piece::Conversion(random_spec(&mut rng))
                }
            })
            .collect();
        // Sometimes fewer arguments than conversions.
        let args: Vec<PrintfArg<'_>> = (0..rng.below(5)).map(|_| random_arg(&mut rng)).collect();
        out.clear();
        format(&pieces, &args, &mut out);
        for piece in &pieces {
            // (`%%` ignores a width; the parser rejects one anyway.)
            if let Piece::Conversion(spec @ Spec { conv, .. }) = piece {
                if *conv == Conv::Percent {
                    continue;
                }
                let width = spec.width.unwrap_or(0) as usize;
                assert!(
                    out.len() >= width,
                    "seed {seed}: output shorter than the width"
                );
            }
        }
    }
}

#[test]
fn extreme_widths_and_precisions_stay_exact_and_cheap() {
    let spec = |conv, conv_char, width, precision| {
        vec![Piece::Conversion(Spec {
            flags: Flags::default(),
            width: Some(width),
            precision: Some(precision),
            width_star: false,
            precision_star: false,
            length: Length::None,
            conv,
            conv_char,
        })]
    };
    let mut out = Vec::new();
    format(
        &spec(Conv::FixedLower, b'f', 65_535, 65_535),
        &[PrintfArg::Double(f64::from_bits(1))],
        &mut out,
    );
    // 5e-324 has 1074 fraction digits; the rest of the 65535 are zeros.
    assert_eq!(out.len(), 2 + 65_535);
    assert!(out.starts_with(b"0.000"));
    assert!(out[2 + 1074..].iter().all(|&b| b == b'0'));
    assert_eq!(out[2 + 1073], b'5'); // the last significant digit of 2^-1074 is 5
    out.clear();
    format(
        &spec(Conv::ExpLower, b'e', 10, 65_535),
        &[PrintfArg::Double(f64::MAX)],
        &mut out,
    );
    assert_eq!(out.len(), 1 + 1 + 65_535 + 5);
    assert!(out.ends_with(b"e+308"));
    out.clear();
    format(
        &spec(Conv::Signed, b'd', 65_535, 65_535),
        &[PrintfArg::Int(-1)],
        &mut out,
    );
    assert_eq!(out.len(), 65_536);
    assert!(out.starts_with(b"-000") && out.ends_with(b"001"));
}
