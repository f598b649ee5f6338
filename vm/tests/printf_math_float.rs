//! The `float` functions of `math.h` (`sinf`, `powf`, ...) against gcc: the VM's run-time value
//! (`Builtin::eval`, which calls glibc's float functions) must be the bit-identical binary32 a
//! gcc-compiled program computes, and the value of a call with constant arguments
//! (`Builtin::eval_constant`) must be what gcc's compile-time folding gives (MPFR at 24 bits).
//!
//! Floats travel as their 32-bit patterns (`F(bits)` in C). Signaling NaNs are not sampled: a
//! program cannot make one, and the VM's float registers (doubles) would quiet it on entry.

mod printf_support;

use lang::builtins::Builtin;
use printf_support::{gcc_run, seed, Rng, PREAMBLE};

const ONE_ARG: [Builtin; 11] = [
    Builtin::Sqrtf,
    Builtin::Fabsf,
    Builtin::Floorf,
    Builtin::Ceilf,
    Builtin::Sinf,
    Builtin::Cosf,
    Builtin::Tanf,
    Builtin::Atanf,
    Builtin::Expf,
    Builtin::Logf,
    Builtin::Log10f,
];

const TWO_ARGS: [Builtin; 3] = [Builtin::Atan2f, Builtin::Powf, Builtin::Fmodf];

const HELPERS: &str =
    "static float F(unsigned b) { float x; memcpy(&x, &b, sizeof x); return x; }\n\
static unsigned B(float x) { unsigned b; memcpy(&b, &x, sizeof b); return b; }\n";

fn special_values() -> Vec<f32> {
    vec![
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
        1e-30,
        1e30,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7fc0_beef),
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        -std::f32::consts::FRAC_PI_4,
        88.7,
        89.0,
        -103.9,
        -104.0,
        0.1,
        1e-10,
        123_456.79,
        8_388_608.5,
        1e10,
    ]
}

fn random_value(rng: &mut Rng) -> f32 {
    let magnitude = match rng.below(4) {
        0 => rng.below(1 << 20) as f32 / 1024.0,
        1 => {
            (rng.below(1 << 24) as f32 / (1u32 << 24) as f32)
                * 10f32.powi(rng.below(20) as i32 - 10)
        }
        2 => f32::from_bits((rng.next_u64() >> 33) as u32),
        _ => rng.below(2000) as f32 / 100.0,
    };
    // No signaling NaNs (see the module docs).
    let magnitude = if magnitude.is_nan() {
        f32::NAN
    } else {
        magnitude
    };
    if rng.chance(1, 3) {
        -magnitude
    } else {
        magnitude
    }
}

/// Parses gcc's output: one hexadecimal 32-bit pattern per line.
fn parse_bits(output: &[u8]) -> Vec<u32> {
    String::from_utf8_lossy(output)
        .lines()
        .map(|l| u32::from_str_radix(l, 16).expect("hex bits"))
        .collect()
}

/// Runs `calls` (each printed by `call`) through gcc and returns the bit patterns of the
/// results.
fn gcc_bits(calls: &[(Builtin, Vec<f32>)], call: impl Fn(Builtin, &[f32]) -> String) -> Vec<u32> {
    let mut source = String::from(PREAMBLE);
    source.push_str(HELPERS);
    source.push_str("int main(void) {\n");
    for (f, args) in calls {
        source.push_str(&format!("printf(\"%08x\\n\", B({}));\n", call(*f, args)));
    }
    source.push_str("return 0;\n}\n");
    let bits = parse_bits(&gcc_run(&source));
    assert_eq!(bits.len(), calls.len());
    bits
}

/// A call with run-time arguments.
fn c_run_time_call(f: Builtin, args: &[f32]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|a| format!("F({:#x}u)", a.to_bits()))
        .collect();
    format!("{}({})", f.name(), args.join(", "))
}

/// A call with constant arguments: 9 significant digits denote the exact float (a negative
/// one is a folded unary minus); non-finite arguments are run-time values, as gcc does not
/// fold them anyway.
fn c_constant_call(f: Builtin, args: &[f32]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a.is_finite() {
                format!("{a:.8e}f")
            } else {
                format!("F({:#x}u)", a.to_bits())
            }
        })
        .collect();
    format!("{}({})", f.name(), args.join(", "))
}

fn sample_calls(rng: &mut Rng, randoms: usize) -> Vec<(Builtin, Vec<f32>)> {
    let mut values = special_values();
    values.extend((0..randoms).map(|_| random_value(rng)));
    let mut calls = Vec::new();
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
        // Small integer exponents and bases: exact results and ties of powf.
        for _ in 0..40 {
            let base = (rng.below(1 << 12) + (1 << 11)) as f32;
            calls.push((f, vec![base, 2.0]));
            calls.push((f, vec![-(rng.below(50) as f32) / 8.0, rng.below(12) as f32]));
        }
    }
    calls
}

fn compare(
    calls: &[(Builtin, Vec<f32>)],
    expected: &[u32],
    eval: impl Fn(Builtin, &[f64]) -> f64,
    what: &str,
    seed: u64,
) {
    let mut failures = Vec::new();
    for ((f, args), &want) in calls.iter().zip(expected) {
        let wide: Vec<f64> = args.iter().map(|&a| f64::from(a)).collect();
        let got = (eval(*f, &wide) as f32).to_bits();
        if got != want {
            failures.push(format!(
                "{}({:?}): gcc {:?} ({want:#x}), vm {:?} ({got:#x})",
                f.name(),
                args,
                f32::from_bits(want),
                f32::from_bits(got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {what} differ (seed {seed}):\n{}",
        failures.len(),
        calls.len(),
        failures.join("\n")
    );
}

#[test]
fn float_math_functions_are_bit_identical_to_gcc_at_run_time() {
    let seed = seed(78);
    let mut rng = Rng::new(seed);
    let calls = sample_calls(&mut rng, 150);
    let expected = gcc_bits(&calls, c_run_time_call);
    compare(
        &calls,
        &expected,
        |f, a| f.eval(a).expect("a math builtin"),
        "run-time float math calls",
        seed,
    );
}

#[test]
fn constant_float_calls_match_gcc_compile_time_folding() {
    let seed = seed(98);
    let mut rng = Rng::new(seed);
    let calls = sample_calls(&mut rng, 100);
    let expected = gcc_bits(&calls, c_constant_call);
    compare(
        &calls,
        &expected,
        |f, a| f.eval_constant(a).expect("a math builtin"),
        "constant float math calls",
        seed,
    );
    // The test must exercise the difference between folding and glibc's float functions.
    let run_time_differs = calls
        .iter()
        .filter(|(f, args)| {
            let wide: Vec<f64> = args.iter().map(|&a| f64::from(a)).collect();
            f.eval_constant(&wide).map(f64::to_bits) != f.eval(&wide).map(f64::to_bits)
        })
        .count();
    assert!(
        run_time_differs > 0,
        "no sample argument distinguishes folding from run-time libm"
    );
}

#[test]
fn float_functions_take_and_give_float() {
    for f in ONE_ARG.iter().chain(&TWO_ARGS) {
        assert!(f.is_math() && f.is_float_math(), "{f}");
        assert!(f
            .params()
            .iter()
            .all(|&t| t == lang::hir::ScalarType::Float));
        assert_eq!(f.result(), Some(lang::hir::ScalarType::Float));
        let d = f.double_form().expect("a double form");
        assert_eq!(format!("{d}f"), f.name());
    }
}
