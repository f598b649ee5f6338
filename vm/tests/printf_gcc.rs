//! Differential tests of `vm::printf::format` against glibc: every case is printed by a
//! gcc-compiled C program and by `format`, and the bytes must be identical.
//!
//! `hand_picked_*` cross hand-chosen formats with edge values (INT_MIN, ULONG_MAX, rounding
//! ties, subnormals, huge and tiny magnitudes, negative zero, infinities, NaNs of both signs);
//! `random_sweep` draws flags x width x precision x length x conversion x value at random
//! (seed printed on failure; set `PRINTF_SEED` to reproduce or explore).

mod printf_support;

use lang::builtins::long_double::LongDouble;
use printf_support::{compare_with_gcc, seed, Case, Rng, TArg};

const INT_VALUES: &[i32] = &[
    0,
    1,
    -1,
    7,
    42,
    -42,
    99,
    100,
    127,
    128,
    -128,
    -129,
    255,
    256,
    32767,
    32768,
    -32768,
    -32769,
    65535,
    65536,
    123_456_789,
    i32::MAX,
    i32::MIN,
    i32::MIN + 1,
];

const LONG_VALUES: &[i64] = &[
    0,
    1,
    -1,
    42,
    -42,
    i32::MAX as i64,
    i32::MIN as i64,
    4_294_967_295,
    4_294_967_296,
    1_000_000_000_000,
    -1_000_000_000_000_000_000,
    i64::MAX,
    i64::MIN,
    i64::MIN + 1,
];

fn double_values() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        2.5,
        -2.5,
        3.5,
        0.25,
        0.125,
        0.375,
        0.0625,
        9.5,
        99.5,
        999.5,
        0.95,
        0.995,
        0.05,
        0.15,
        0.35,
        1.005,
        2.675,
        1.45,
        4.35,
        8.5,
        9.999_999,
        9.999_999_5,
        0.1,
        0.2,
        0.3,
        1.0 / 3.0,
        2.0 / 3.0,
        std::f64::consts::PI,
        -std::f64::consts::E,
        123.456,
        1e-5,
        1e-4,
        0.000_123_4,
        0.000_099_999_9,
        5e-5,
        123_456.0,
        999_999.5,
        1_234_567.0,
        1e15,
        1e16,
        1e17,
        9_007_199_254_740_993.0,
        1e21,
        1e22,
        1e23,
        9.223_372_036_854_776e18,
        1.844_674_407_370_955_2e19,
        1e100,
        1e300,
        -1e300,
        1e-300,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::from_bits(0x0008_0000_0000_0000),
        f64::EPSILON,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
    ];
    // Exact ties at several decimal positions: k + 0.5 * 10^-j for small j.
    for j in 0..4 {
        for k in [0u32, 1, 2, 3, 12, 45] {
            let x = (f64::from(2 * k + 1)) / (2.0 * 10f64.powi(j));
            v.push(x);
        }
    }
    v
}

fn int_formats() -> Vec<&'static str> {
    vec![
        "%d", "%i", "%5d", "%-5d|", "%05d", "%-05d|", "%+d", "% d", "%+ d", "%.0d", "%.3d",
        "%08.3d", "%-8.3d|", "%+.0d", "% .0d", "%5.0d", "%+08d", "% 08d", "%012d", "%.12d", "%hd",
        "%hhd", "%+hd", "%07hhd", "%1d", "%2i", "%-+7d|", "%.1d", "%+.10d",
    ]
}

fn uint_formats() -> Vec<&'static str> {
    vec![
        "%u", "%x", "%X", "%o", "%#x", "%#X", "%#o", "%#.0o", "%#.0x", "%.0x", "%.0u", "%.0o",
        "%08x", "%#08x", "%-#8x|", "%#5.3o", "%#.5o", "%#10.6X", "%hu", "%hx", "%hhx", "%hho",
        "%hhu", "%#hx", "%-12u|", "%012o", "%.12x", "%5x", "%-0#10x|", "%#2o",
    ]
}

fn long_formats() -> Vec<&'static str> {
    vec![
        "%ld",
        "%li",
        "%lld",
        "%+ld",
        "% 22ld",
        "%-22ld|",
        "%022ld",
        "%.20ld",
        "%lu",
        "%lx",
        "%lX",
        "%lo",
        "%#lx",
        "%#lo",
        "%llu",
        "%llx",
        "%#llX",
        "%025lu",
        "%.0lu",
        "%-#25llo|",
    ]
}

fn double_formats() -> Vec<&'static str> {
    vec![
        "%f",
        "%F",
        "%e",
        "%E",
        "%g",
        "%G",
        "%.0f",
        "%.1f",
        "%.2f",
        "%.3f",
        "%.10f",
        "%.17f",
        "%.20f",
        "%.0e",
        "%.1e",
        "%.2e",
        "%.10e",
        "%.16e",
        "%.17e",
        "%.20e",
        "%.0g",
        "%.1g",
        "%.2g",
        "%.3g",
        "%.10g",
        "%.15g",
        "%.16g",
        "%.17g",
        "%.25g",
        "%#f",
        "%#.0f",
        "%#e",
        "%#.0e",
        "%#g",
        "%#.0g",
        "%#.3g",
        "%#.10G",
        "%+f",
        "% f",
        "%+ f",
        "%+e",
        "% g",
        "%+G",
        "%010f",
        "%-10f|",
        "%010.3e",
        "%-+12.4g|",
        "%015g",
        "%+015.3f",
        "% 012e",
        "%lf",
        "%le",
        "%lg",
        "%lE",
        "%.f",
        "%.e",
        "%.g",
        "%5.0f",
        "%5.1e",
        "%30.20g",
        "%-30.20e|",
        "%.300f",
        "%.1074f",
        "%.1100f",
        "%.770e",
        "%.800e",
        "%#.800g",
        "%.800g",
        "%.60g",
        "%#.60g",
        "%.340f",
        "%#.0F",
    ]
}

fn char_formats() -> Vec<&'static str> {
    vec!["%c", "%3c", "%-3c|", "[%c]", "%1c", "%c%c"]
}

fn string_formats() -> Vec<&'static str> {
    vec![
        "%s",
        "%10s",
        "%-10s|",
        "%.2s",
        "%.0s",
        "%.s",
        "%10.3s",
        "%-10.3s|",
        "%1s",
        "%.20s",
        "<%s>",
        "%s and %s",
    ]
}

#[test]
fn hand_picked_integers_match_glibc() {
    let mut cases = Vec::new();
    for f in int_formats() {
        for &v in INT_VALUES {
            cases.push(Case::new(f, vec![TArg::I32(v)]));
        }
        // Signed conversion of an unsigned argument prints the bit pattern.
        for v in [0u32, 2_147_483_648, 4_294_967_295] {
            cases.push(Case::new(f, vec![TArg::U32(v)]));
        }
    }
    for f in uint_formats() {
        for &v in INT_VALUES {
            cases.push(Case::new(f, vec![TArg::U32(v as u32)]));
            cases.push(Case::new(f, vec![TArg::I32(v)]));
        }
    }
    for f in long_formats() {
        for &v in LONG_VALUES {
            cases.push(Case::new(f, vec![TArg::I64(v)]));
            cases.push(Case::new(f, vec![TArg::U64(v as u64)]));
        }
        cases.push(Case::new(f, vec![TArg::U64(u64::MAX)]));
    }
    compare_with_gcc("hand_picked_integers", &cases);
}

#[test]
fn hand_picked_doubles_match_glibc() {
    let mut cases = Vec::new();
    let values = double_values();
    for f in double_formats() {
        for &v in &values {
            cases.push(Case::new(f, vec![TArg::F64(v)]));
        }
    }
    compare_with_gcc("hand_picked_doubles", &cases);
}

#[test]
fn hand_picked_chars_strings_and_literals_match_glibc() {
    let mut cases = Vec::new();
    for f in char_formats() {
        let n = f.matches('%').count();
        for v in [
            65,
            97,
            0,
            10,
            127,
            128,
            200,
            255,
            256 + 65,
            -1,
            -200,
            i32::MIN,
        ] {
            cases.push(Case::new(f, vec![TArg::I32(v); n]));
        }
        cases.push(Case::new(f, vec![TArg::U32(4_294_967_041); n]));
    }
    let strings: [&[u8]; 6] = [
        b"",
        b"a",
        b"hello",
        b"hello, world",
        b"\xff\x80 \t",
        b"100%",
    ];
    for f in string_formats() {
        let n = f.matches('%').count();
        for s in strings {
            cases.push(Case::new(f, vec![TArg::Str(s.to_vec()); n]));
        }
    }
    for f in [
        "%%",
        "a%%b",
        "%%%%",
        "100%%",
        "%5d%%",
        "%% %d %%",
        "",
        "plain text",
    ] {
        let n = f.matches('%').count() - 2 * f.matches("%%").count();
        cases.push(Case::new(f, vec![TArg::I32(7); n]));
    }
    cases.push(Case {
        format: b"bytes \x01\x7f\x80\xff\t and %d\n".to_vec(),
        args: vec![TArg::I32(-3)],
    });
    cases.push(Case::new(
        "%d %u %ld %lu %x %c %s %f %e %g %% %5.2f|%-6d|%+.3e",
        vec![
            TArg::I32(-5),
            TArg::U32(5),
            TArg::I64(-6),
            TArg::U64(6),
            TArg::U32(255),
            TArg::I32(66),
            TArg::Str(b"str".to_vec()),
            TArg::F64(1.5),
            TArg::F64(-2.25e-10),
            TArg::F64(1e-5),
            TArg::F64(1.234_567_5),
            TArg::I32(12),
            TArg::F64(6.02214076e23),
        ],
    ));
    compare_with_gcc("hand_picked_chars_strings_literals", &cases);
}

/// A random double: all bit patterns, "nice" decimals, exact ties, and magnitudes across the
/// whole range.
fn random_double(rng: &mut Rng) -> f64 {
    match rng.below(8) {
        0 => f64::from_bits(rng.next_u64()),
        1 => {
            // A short decimal such as 12.345 or 0.0625.
            let digits = rng.below(1_000_000) as f64;
            digits / 10f64.powi(rng.below(9) as i32)
        }
        2 => {
            // An exact binary fraction, often a decimal tie at some position.
            let n = rng.below(1 << 20) as f64;
            n / (1u64 << rng.below(24)) as f64
        }
        3 => {
            // A subnormal.
            f64::from_bits(rng.below(1 << 52))
        }
        4 => {
            // Any magnitude from 1e-320 to 1e308.
            let exp = rng.below(628) as i32 - 320;
            (1.0 + rng.below(1 << 30) as f64 / (1u64 << 30) as f64) * 10f64.powi(exp)
        }
        5 => *rng.pick(&[
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
        ]),
        6 => {
            // Integers, some large.
            (rng.next_u64() >> rng.below(64)) as f64
        }
        _ => {
            // Close to a power of ten (rounding carries: 9.9999..., 0.00099999...).
            let p = 10f64.powi(rng.below(40) as i32 - 20);
            p * (1.0 - rng.below(1000) as f64 * f64::EPSILON)
        }
    }
    .copysign(if rng.chance(1, 4) { -1.0 } else { 1.0 })
}

fn random_integer_bits(rng: &mut Rng) -> u64 {
    match rng.below(4) {
        0 => rng.next_u64(),
        1 => rng.next_u64() >> rng.below(64),
        2 => rng.below(300).wrapping_sub(150),
        _ => *rng.pick(&[
            0,
            u64::MAX,
            i64::MIN as u64,
            i64::MAX as u64,
            i32::MIN as i64 as u64,
            i32::MAX as u64,
            u32::MAX as u64,
        ]),
    }
}

/// One random valid conversion specification and a matching argument.
fn random_case(rng: &mut Rng) -> Case {
    let conv = *rng.pick(&[
        'd', 'i', 'u', 'x', 'X', 'o', 'c', 'f', 'F', 'e', 'E', 'g', 'G', 's', 'f', 'e', 'g', 'a',
        'A',
    ]);
    let allowed_flags: &[char] = match conv {
        'd' | 'i' => &['-', '+', ' ', '0'],
        'u' => &['-', '0'],
        'x' | 'X' | 'o' => &['-', '0', '#'],
        'c' | 's' => &['-'],
        _ => &['-', '+', ' ', '0', '#'],
    };
    let mut spec = String::from("%");
    for _ in 0..rng.below(4) {
        spec.push(*rng.pick(allowed_flags));
    }
    if rng.chance(2, 3) {
        // A width never starts with 0 (that would be the `0` flag).
        spec.push_str(&(1 + rng.below(30)).to_string());
    }
    if conv != 'c' && rng.chance(2, 3) {
        spec.push('.');
        match rng.below(10) {
            0 => {}
            1 => spec.push_str(&(20 + rng.below(400)).to_string()),
            _ => spec.push_str(&rng.below(20).to_string()),
        }
    }
    let length = match conv {
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' => *rng.pick(&["", "", "l", "ll", "h", "hh"]),
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => *rng.pick(&["", "", "", "l"]),
        _ => "",
    };
    spec.push_str(length);
    spec.push(conv);
    let long = length.starts_with('l');
    let bits = random_integer_bits(rng);
    let signed_arg = rng.chance(1, 2);
    let arg = match conv {
        'c' => TArg::I32(bits as i32),
        's' => {
            let len = rng.below(12) as usize;
            TArg::Str((0..len).map(|_| b'a' + rng.below(26) as u8).collect())
        }
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => TArg::F64(random_double(rng)),
        _ if long && signed_arg => TArg::I64(bits as i64),
        _ if long => TArg::U64(bits),
        _ if signed_arg => TArg::I32(bits as i32),
        _ => TArg::U32(bits as u32),
    };
    Case::new(&spec, vec![arg])
}

#[test]
fn random_sweep_matches_glibc() {
    let seed = seed(20_261_121);
    let mut rng = Rng::new(seed);
    let cases: Vec<Case> = (0..6000).map(|_| random_case(&mut rng)).collect();
    compare_with_gcc(&format!("random_sweep (PRINTF_SEED={seed})"), &cases);
}

/// Values just below, at and just above the point where rounding to `P` significant digits
/// carries into a new digit (`9.95` -> `10.0`), for every `P` up to 17, in every floating
/// style and with `#` (glibc has a quirk here that `vm::printf` reproduces).
#[test]
fn rounding_carries_match_glibc() {
    let mut cases = Vec::new();
    for p in 0..=17i32 {
        let digits = p.max(1);
        for n in [-7, -5, -4, -3, -1, 0, 1, 2, 5, 6, 7, 15, 16, 22, 300] {
            // The decimal tie 10^n - 0.5 * 10^(n - digits), and its neighbours.
            let tie = 10f64.powi(n) - 0.5 * 10f64.powi(n - digits);
            for x in [
                tie,
                f64::from_bits(tie.to_bits() + 1),
                f64::from_bits(tie.to_bits() - 1),
            ] {
                for f in [
                    "%#.*g",
                    "%.*g",
                    "%#.*e",
                    "%.*e",
                    "%#.*f",
                    "%+#012.*g",
                    "%-#14.*G|",
                ] {
                    let f = f.replace('*', &p.to_string());
                    cases.push(Case::new(&f, vec![TArg::F64(x)]));
                    cases.push(Case::new(&f, vec![TArg::F64(-x)]));
                }
            }
        }
    }
    compare_with_gcc("rounding_carries", &cases);
}

/// `long double` values as the x87 holds them: from doubles (exact), with all 64 bits of
/// significand used, at the extremes of the exponent range (`LDBL_MAX`, the smallest normal,
/// denormals) and the special values.
fn long_double_values(rng: &mut Rng) -> Vec<u128> {
    let exponent = |e: u128| e << 64;
    let mut v: Vec<u128> = double_values()
        .into_iter()
        .map(|d| LongDouble::from_f64(d).to_bits())
        .collect();
    v.extend([
        exponent(0x3ffb) | 0xcccc_cccc_cccc_cccd,          // 0.1L
        exponent(0x3ffd) | 0xaaaa_aaaa_aaaa_aaab,          // 1/3
        exponent(0x403e) | u128::from(u64::MAX),           // 2^64 - 1
        exponent(0x7ffe) | u128::from(u64::MAX),           // LDBL_MAX
        exponent(0x0001) | 1 << 63,                        // LDBL_MIN
        1,                                                 // the smallest denormal
        u128::from(u64::MAX >> 1),                         // the largest denormal
        exponent(0x7fff) | 1 << 63,                        // inf
        exponent(0xffff) | 0xc000_0000_0000_0000,          // -nan (x87 indefinite)
        exponent(0x8000 | 0x3fff) | 0xffff_ffff_ffff_fff8, // -1.99...
        exponent(0x3fff + 70) | 0x8000_0000_0000_0001,     // 2^70 + 2^7: an integer
    ]);
    for _ in 0..60 {
        let e = rng.below(0x7fff) as u128;
        let sign = u128::from(rng.chance(1, 4)) << 79;
        let m = u128::from(rng.next_u64() | 1 << 63);
        v.push(sign | exponent(e.max(1)) | m);
    }
    v
}

#[test]
fn long_doubles_match_glibc() {
    let seed = seed(20_261_207);
    let mut rng = Rng::new(seed);
    let values = long_double_values(&mut rng);
    let mut formats: Vec<String> = double_formats()
        .into_iter()
        .map(|f| {
            // `L` before the conversion character (in place of an `l`).
            let at = f.find(|c: char| "fFeEgGaA".contains(c)).unwrap_or(f.len());
            let (head, rest) = f.split_at(at);
            format!("{}L{rest}", head.trim_end_matches('l'))
        })
        .collect();
    formats.extend(
        [
            "%La", "%LA", "%.0La", "%.3La", "%.15La", "%#.0La", "%+20.4La", "%-12La|",
        ]
        .map(String::from),
    );
    let mut cases = Vec::new();
    for f in &formats {
        for &v in &values {
            cases.push(Case::new(f, vec![TArg::F80(v)]));
        }
    }
    compare_with_gcc(&format!("long_doubles (PRINTF_SEED={seed})"), &cases);
}
