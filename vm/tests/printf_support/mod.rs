//! Shared helpers of the `printf_*` differential tests: running C through gcc, a seeded
//! random number generator, and test arguments that print both as C expressions and as
//! `vm::printf::PrintfArg`s.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use lang::builtins::long_double::LongDouble;
use vm::printf::PrintfArg;

/// Separates the outputs of consecutive cases in a generated C program.
pub const SEPARATOR: &[u8] = b"\x1e\x1f\x1e";

/// The C preamble of every generated program: `D(bits)` makes a double from its bit pattern,
/// so every double (NaN payloads and signs included) reaches printf exactly.
pub const PREAMBLE: &str = "#include <stdio.h>\n#include <string.h>\n#include <math.h>\n\
static double D(unsigned long b) { double x; memcpy(&x, &b, sizeof x); return x; }\n\
static long double LD(unsigned long lo, unsigned long hi) {\n\
  long double x = 0; memcpy(&x, &lo, 8); memcpy((char *)&x + 8, &hi, 2); return x; }\n\
static void sep(void) { fputs(\"\\x1e\\x1f\\x1e\", stdout); }\n";

/// Compiles `source` with `gcc -std=c99 -fwrapv -O0 -x c - -lm`, runs it and returns its
/// stdout. Panics (failing the test loudly) if gcc is missing, compilation fails or the
/// program exits unsuccessfully.
pub fn gcc_run(source: &str) -> Vec<u8> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let exe: PathBuf =
        std::env::temp_dir().join(format!("vm-printf-test-{}-{}", std::process::id(), n));
    let mut child = Command::new("gcc")
        .args([
            "-std=c99", "-fwrapv", "-O0", "-w", "-x", "c", "-", "-lm", "-o",
        ])
        .arg(&exe)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gcc is required for the printf differential tests but could not be started");
    child
        .stdin
        .take()
        .expect("gcc stdin")
        .write_all(source.as_bytes())
        .expect("writing the C program to gcc");
    let compiled = child.wait_with_output().expect("waiting for gcc");
    assert!(
        compiled.status.success(),
        "gcc failed to compile the generated program:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = Command::new(&exe)
        .output()
        .expect("running the gcc-compiled program");
    let _ = std::fs::remove_file(&exe);
    assert!(
        run.status.success(),
        "the gcc-compiled program failed: {:?}",
        run.status
    );
    run.stdout
}

/// A C string literal for `bytes` (printable ASCII kept, everything else as octal escapes).
pub fn c_string(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'?' => s.push_str("\\?"), // no trigraphs
            0x20..=0x7e => s.push(char::from(b)),
            _ => s.push_str(&format!("\\{b:03o}")),
        }
    }
    s.push('"');
    s
}

/// A printf argument of a C type, for generating both sides of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum TArg {
    /// `int`.
    I32(i32),
    /// `unsigned int`.
    U32(u32),
    /// `long`.
    I64(i64),
    /// `unsigned long`.
    U64(u64),
    /// `double`.
    F64(f64),
    /// `long double`: its 80 bits.
    F80(u128),
    /// A string literal.
    Str(Vec<u8>),
}

impl TArg {
    /// The argument as a C expression of its type.
    pub fn to_c(&self) -> String {
        match self {
            TArg::I32(v) => format!("(int)({v}L)"),
            TArg::U32(v) => format!("{v}u"),
            TArg::I64(v) if *v == i64::MIN => "(-9223372036854775807L - 1)".to_string(),
            TArg::I64(v) => format!("{v}L"),
            TArg::U64(v) => format!("{v}ul"),
            TArg::F64(v) => format!("D({:#x}ul)", v.to_bits()),
            TArg::F80(v) => format!("LD({:#x}ul, {:#x}ul)", *v as u64, (*v >> 64) as u64),
            TArg::Str(s) => c_string(s),
        }
    }

    /// The argument as the VM passes it to `vm::printf::format`.
    pub fn to_printf(&self) -> PrintfArg<'_> {
        match self {
            TArg::I32(v) => PrintfArg::Int(i64::from(*v)),
            TArg::U32(v) => PrintfArg::UInt(u64::from(*v)),
            TArg::I64(v) => PrintfArg::Int(*v),
            TArg::U64(v) => PrintfArg::UInt(*v),
            TArg::F64(v) => PrintfArg::Double(*v),
            TArg::F80(v) => PrintfArg::LongDouble(LongDouble::from_bits(*v)),
            TArg::Str(s) => PrintfArg::Str(s),
        }
    }
}

/// One printf call: a format string and its arguments.
#[derive(Clone, Debug)]
pub struct Case {
    /// The format string bytes.
    pub format: Vec<u8>,
    /// The arguments.
    pub args: Vec<TArg>,
}

impl Case {
    /// A case from a format and arguments.
    pub fn new(format: &str, args: Vec<TArg>) -> Case {
        Case {
            format: format.as_bytes().to_vec(),
            args,
        }
    }
}

/// Renders every case with gcc (one program, one run) and with `vm::printf::format`, and
/// panics with a readable report listing the first mismatches. `label` names the test and its
/// seed, if any.
pub fn compare_with_gcc(label: &str, cases: &[Case]) {
    let mut source = String::from(PREAMBLE);
    source.push_str("int main(void) {\n");
    for case in cases {
        source.push_str("printf(");
        source.push_str(&c_string(&case.format));
        for arg in &case.args {
            source.push_str(", ");
            source.push_str(&arg.to_c());
        }
        source.push_str("); sep();\n");
    }
    source.push_str("return 0;\n}\n");
    let expected = gcc_run(&source);
    let expected: Vec<&[u8]> = split(&expected);
    assert_eq!(
        expected.len(),
        cases.len() + 1,
        "{label}: gcc output does not split into one part per case"
    );
    let mut failures = Vec::new();
    for (case, want) in cases.iter().zip(&expected) {
        let pieces = lang::printf_format::parse(&case.format).unwrap_or_else(|e| {
            panic!(
                "{label}: format {:?} rejected: {e}",
                String::from_utf8_lossy(&case.format)
            )
        });
        let args: Vec<PrintfArg<'_>> = case.args.iter().map(TArg::to_printf).collect();
        let mut got = Vec::new();
        vm::printf::format(&pieces, &args, &mut got);
        if got != *want {
            failures.push(format!(
                "format {:?} args {:?}:\n   glibc: {:?}\n      vm: {:?}",
                String::from_utf8_lossy(&case.format),
                case.args,
                String::from_utf8_lossy(want),
                String::from_utf8_lossy(&got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{label}: {} of {} cases differ from glibc; first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Splits gcc's output at the separators.
fn split(output: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + SEPARATOR.len() <= output.len() {
        if &output[i..i + SEPARATOR.len()] == SEPARATOR {
            parts.push(&output[start..i]);
            i += SEPARATOR.len();
            start = i;
        } else {
            i += 1;
        }
    }
    parts.push(&output[start..]);
    parts
}

/// A small deterministic random number generator (xorshift64*), so failures reproduce from
/// the printed seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A uniform value in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// A uniformly chosen element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The seed for a randomized test: `PRINTF_SEED` from the environment, else `default`.
pub fn seed(default: u64) -> u64 {
    std::env::var("PRINTF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
