//! The math library against gcc: every `math.h` builtin, computed by `vm::libc` in this
//! process, must give the bit-identical double (NaN signs included) that a gcc-compiled program
//! computes at run time, for a sample of special and random arguments. Also `abs`/`labs` on
//! their wrapping edge and `putchar`'s byte conversion.
//!
//! A second test records where gcc's *compile-time* folding of a call with constant
//! arguments (done with MPFR, correctly rounded, even at `-O0`) differs from the run-time
//! libm value: such a program prints different bits than the VM, which evaluates at run time.

mod printf_support;

use lang::builtins::Builtin;
use printf_support::{gcc_run, seed, Rng, PREAMBLE};
use vm::libc;

const ONE_ARG: [Builtin; 11] = [
    Builtin::Sqrt,
    Builtin::Fabs,
    Builtin::Floor,
    Builtin::Ceil,
    Builtin::Sin,
    Builtin::Cos,
    Builtin::Tan,
    Builtin::Atan,
    Builtin::Exp,
    Builtin::Log,
    Builtin::Log10,
];

const TWO_ARGS: [Builtin; 3] = [Builtin::Atan2, Builtin::Pow, Builtin::Fmod];

fn special_values() -> Vec<f64> {
    vec![
        // Signaling and payload-carrying NaNs (not producible by programs, but libm's handling
        // of them must still be matched bit for bit).
        f64::from_bits(0x7ff4_4d90_ace5_2443),
        f64::from_bits(0xfff0_0000_0000_0001),
        f64::from_bits(0x7ff8_0000_dead_beef),
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.0,
        2.5,
        -2.5,
        3.0,
        10.0,
        100.0,
        1e-300,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        -std::f64::consts::FRAC_PI_4,
        1e22,
        709.78,
        710.0,
        -745.2,
        -746.0,
        0.1,
        1e-10,
        123_456.789,
        4_503_599_627_370_496.5,
    ]
}

fn random_value(rng: &mut Rng) -> f64 {
    let magnitude = match rng.below(4) {
        0 => rng.below(1 << 20) as f64 / 1024.0,
        1 => {
            (rng.below(1 << 30) as f64 / (1u64 << 30) as f64)
                * 10f64.powi(rng.below(40) as i32 - 20)
        }
        2 => f64::from_bits(rng.next_u64() >> 1),
        _ => rng.below(2000) as f64 / 100.0,
    };
    if rng.chance(1, 3) {
        -magnitude
    } else {
        magnitude
    }
}

fn c_double(x: f64) -> String {
    format!("D({:#x}ul)", x.to_bits())
}

/// Parses gcc's output: one hexadecimal bit pattern per line.
fn parse_bits(output: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(output)
        .lines()
        .map(|l| u64::from_str_radix(l, 16).expect("hex bits"))
        .collect()
}

const BITS_HELPER: &str =
    "static unsigned long B(double x) { unsigned long b; memcpy(&b, &x, sizeof b); return b; }\n";

#[test]
fn math_functions_are_bit_identical_to_gcc_at_run_time() {
    let seed = seed(77);
    let mut rng = Rng::new(seed);
    let mut values = special_values();
    values.extend((0..150).map(|_| random_value(&mut rng)));
    let mut calls: Vec<(Builtin, Vec<f64>)> = Vec::new();
    for f in ONE_ARG {
        for &x in &values {
            calls.push((f, vec![x]));
        }
    }
    for f in TWO_ARGS {
        for &x in &values[..20] {
            for &y in &values[..20] {
                calls.push((f, vec![x, y]));
            }
        }
        for _ in 0..300 {
            let (x, y) = (*rng.pick(&values), *rng.pick(&values));
            calls.push((f, vec![x, y]));
        }
    }
    let mut source = String::from(PREAMBLE);
    source.push_str(BITS_HELPER);
    source.push_str("int main(void) {\n");
    for (f, args) in &calls {
        let args: Vec<String> = args.iter().map(|&a| c_double(a)).collect();
        source.push_str(&format!(
            "printf(\"%016lx\\n\", B({}({})));\n",
            f.name(),
            args.join(", ")
        ));
    }
    source.push_str("return 0;\n}\n");
    let expected = parse_bits(&gcc_run(&source));
    assert_eq!(expected.len(), calls.len());
    let mut failures = Vec::new();
    for ((f, args), want) in calls.iter().zip(expected) {
        let got = f.eval(args).expect("a math builtin").to_bits();
        if got != want {
            failures.push(format!(
                "{}({:?}): gcc {:?} ({want:#x}), vm {:?} ({got:#x})",
                f.name(),
                args,
                f64::from_bits(want),
                f64::from_bits(got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} math calls differ (seed {seed}):\n{}",
        failures.len(),
        calls.len(),
        failures.join("\n")
    );
}

#[test]
fn integer_builtins_match_gcc() {
    let ints = [0, 1, -1, 42, -42, i32::MAX, i32::MIN, i32::MIN + 1];
    let longs = [0, 1, -1, i64::MAX, i64::MIN, i64::MIN + 1, -(1 << 40)];
    let chars = [0, 65, 127, 128, 255, 256, 321, -1, -128, i32::MIN];
    let mut source = String::from(PREAMBLE);
    source.push_str("#include <stdlib.h>\nint main(void) {\nint i; long l;\n");
    for v in ints {
        source.push_str(&format!("i = (int)({v}L); printf(\"%d\\n\", abs(i));\n"));
    }
    for v in longs {
        let lit = if v == i64::MIN {
            "(-9223372036854775807L - 1)".to_string()
        } else {
            format!("{v}L")
        };
        source.push_str(&format!("l = {lit}; printf(\"%ld\\n\", labs(l));\n"));
    }
    for v in chars {
        source.push_str(&format!(
            "i = (int)({v}L); i = putchar(i); printf(\"=%d\\n\", i);\n"
        ));
    }
    source.push_str("return 0;\n}\n");
    let expected = gcc_run(&source);

    let mut got = Vec::new();
    for v in ints {
        got.extend_from_slice(format!("{}\n", libc::abs(v)).as_bytes());
    }
    for v in longs {
        got.extend_from_slice(format!("{}\n", libc::labs(v)).as_bytes());
    }
    for v in chars {
        let r = libc::putchar(v, &mut got);
        got.extend_from_slice(format!("={r}\n").as_bytes());
    }
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&expected)
    );
    assert_eq!(got, expected);
}

#[test]
fn every_math_builtin_is_callable_with_its_arity() {
    for b in Builtin::ALL {
        let args = vec![0.5; b.params().len()];
        assert_eq!(b.eval(&args).is_some(), b.is_math(), "{b}");
    }
    assert_eq!(Builtin::Sin.eval(&[1.0, 2.0]), None);
}

/// A constant-argument call in C source: decimal literals with 17 significant digits denote
/// the exact double (a negative one is a folded unary minus).
fn c_constant_call(f: Builtin, args: &[f64]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a.is_nan() || a.is_infinite() {
                c_double(*a)
            } else {
                format!("{a:.16e}")
            }
        })
        .collect();
    format!("{}({})", f.name(), args.join(", "))
}

/// Arguments for the folding test: random values in each function's interesting range, plus
/// special values.
fn folding_arguments(f: Builtin, rng: &mut Rng) -> Vec<Vec<f64>> {
    let mut calls = Vec::new();
    let specials = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        10.0,
        1000.0,
        1e-300,
        1e300,
        1e22,
        709.0,
        -709.0,
        710.0,
        -745.0,
        1e-310,
        3.0,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::PI,
        0.1,
        100.0,
    ];
    let random = |rng: &mut Rng| -> f64 {
        match rng.below(4) {
            0 => rng.below(1 << 24) as f64 / (1u64 << 20) as f64 + 0.001,
            1 => random_value(rng),
            2 => (rng.below(1 << 30) as f64 / (1u64 << 30) as f64 - 0.5) * 1500.0,
            _ => f64::from_bits(rng.next_u64() & !(1 << 63)),
        }
    };
    if f.params().len() == 1 {
        for &x in &specials {
            calls.push(vec![x]);
        }
        for _ in 0..150 {
            calls.push(vec![random(rng)]);
        }
    } else {
        for &x in &specials[..8] {
            for &y in &specials[..8] {
                calls.push(vec![x, y]);
            }
        }
        for _ in 0..120 {
            let x = random(rng);
            let y = match rng.below(3) {
                0 => rng.below(40) as f64 - 20.0,
                1 => (rng.below(1 << 20) as f64 / (1u64 << 16) as f64) - 8.0,
                _ => random(rng),
            };
            calls.push(vec![x, y]);
        }
        // pow: integer exponents, exact results and ties, negative bases.
        for _ in 0..40 {
            let base = (rng.below(1 << 27) + (1 << 26)) as f64;
            calls.push(vec![base, 2.0]);
            calls.push(vec![-(rng.below(50) as f64) / 8.0, rng.below(12) as f64]);
        }
    }
    calls
}

/// Constant-argument calls: gcc folds them at compile time (MPFR, correctly rounded), even at
/// `-O0`; `Builtin::eval_constant` must give the same bits, including where gcc declines to fold
/// (non-finite results, tiny inexact results, log of non-positive numbers) and the run-time
/// libm value is used.
#[test]
fn constant_calls_match_gcc_compile_time_folding() {
    let seed = seed(99);
    let mut rng = Rng::new(seed);
    let mut calls: Vec<(Builtin, Vec<f64>)> = Vec::new();
    for f in ONE_ARG.iter().chain(&TWO_ARGS) {
        for args in folding_arguments(*f, &mut rng) {
            calls.push((*f, args));
        }
    }
    let mut source = String::from(PREAMBLE);
    source.push_str(BITS_HELPER);
    source.push_str("int main(void) {\n");
    for (f, args) in &calls {
        source.push_str(&format!(
            "printf(\"%016lx\\n\", B({}));\n",
            c_constant_call(*f, args)
        ));
    }
    source.push_str("return 0;\n}\n");
    let folded = parse_bits(&gcc_run(&source));
    assert_eq!(folded.len(), calls.len());
    let mut failures = Vec::new();
    let mut run_time_differs = 0;
    for ((f, args), want) in calls.iter().zip(folded) {
        let got = f.eval_constant(args).unwrap().to_bits();
        if f.eval(args).unwrap().to_bits() != want {
            run_time_differs += 1;
        }
        if got != want {
            failures.push(format!(
                "{}: gcc {:?} ({want:#x}), vm {:?} ({got:#x})",
                c_constant_call(*f, args),
                f64::from_bits(want),
                f64::from_bits(got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} constant calls differ from gcc's folding (seed {seed}):\n{}",
        failures.len(),
        calls.len(),
        failures.join("\n")
    );
    // The test must exercise the difference between folding and the run-time library.
    assert!(
        run_time_differs > 0,
        "no sample argument distinguishes folding from run-time libm"
    );
}
