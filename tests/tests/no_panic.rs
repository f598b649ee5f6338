//! The whole pipeline (`vm::run_source`: lex, parse, check, compile, run) never panics, on
//! random bytes, on soups of C tokens, and on mutations of valid programs: it either runs the
//! program or reports diagnostics with exit status 65 (or a runtime error, 70). Mutations are
//! confined to the loop-free start of generated programs (prelude and globals) so that no
//! mutant can loop forever.

use std::time::Duration;

use e2e::gen::rng::Rng;
use e2e::vmrun::vm_outcome;

/// C tokens for the soups. Loop keywords are left out: a soup that happens to be a valid
/// endless loop would hang its run (the VM has no instruction limit).
const TOKENS: &[&str] = &[
    "int",
    "long",
    "unsigned",
    "char",
    "double",
    "void",
    "const",
    "if",
    "else",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "main",
    "x",
    "y",
    "a",
    "f",
    "printf",
    "putchar",
    "puts",
    "exit",
    "sqrt",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "<<=",
    ">>=",
    "&=",
    "|=",
    "^=",
    "++",
    "--",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "!",
    "~",
    "&",
    "|",
    "^",
    "?",
    ":",
    "0",
    "1",
    "2147483648",
    "0x7fffffff",
    "1e308",
    "3.5",
    "'a'",
    "'\\n'",
    "\"%d\\n\"",
    "\"%s\"",
    "\"%",
    "#include <stdio.h>\n",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
];

/// Runs one input through the VM and checks that it terminated without panicking.
fn check(name: &str, source: &str) {
    let out = vm_outcome(name, source, Duration::from_secs(60));
    assert!(
        !out.stderr.contains("PANICKED"),
        "vm::run_source panicked on this input:\n{source}\n---\n{}",
        out.stderr
    );
}

#[test]
fn random_bytes_do_not_panic() {
    let mut rng = Rng::new(0xb17e5);
    for case in 0..150 {
        let len = rng.below(200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(128) as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        check(&format!("bytes{case}.c"), &text);
    }
}

#[test]
fn token_soups_do_not_panic() {
    let mut rng = Rng::new(0x50u64);
    for case in 0..200 {
        let n = rng.range(1, 60) as usize;
        let mut text = String::new();
        if rng.chance(50) {
            text.push_str("int main(void) { ");
        }
        for _ in 0..n {
            let token: &&str = rng.pick(TOKENS);
            text.push_str(token);
            text.push(' ');
        }
        if rng.chance(50) {
            text.push_str(" return 0; }");
        }
        check(&format!("soup{case}.c"), &text);
    }
}

#[test]
fn mutated_programs_do_not_panic() {
    let mut rng = Rng::new(0x3u64);
    for case in 0..40 {
        let mut bytes = e2e::gen::generate(1000 + case).into_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let loop_free = text
            .find("rec(int n")
            .expect("generated programs define rec");
        for _ in 0..rng.range(1, 6) {
            let at = rng.index(loop_free.min(bytes.len()));
            match rng.below(3) {
                0 => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, *rng.pick(b"(){}[];,+-*/%<>=!&|^~?:'\"0129xu.")),
                _ => {
                    let end = (at + rng.below(30) as usize).min(loop_free).max(at);
                    bytes.drain(at..end);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        check(&format!("mutant{case}.c"), &text);
    }
}
