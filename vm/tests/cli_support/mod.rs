//! What the tests that run `vmrun` as a process share: a scratch directory per test, running
//! the binary in it, its output as text, and a program whose k-slab forest grows without end.
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Every profiling mode as a `--profile` value (`none` first), with K = 3 for those that take
/// one: the table of modes, so a new mode is tested too.
pub fn every_mode() -> Vec<String> {
    vm::Mode::ALL
        .iter()
        .map(|&m| vm::modes::table::spec_name(m, if m.takes_k() { 3 } else { 1 }))
        .collect()
}

/// A fresh temporary directory for one test of `suite`.
pub fn tempdir(suite: &str, test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vm-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `vmrun ARGS` in `dir`.
pub fn vmrun(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Bytes of output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A loop of `iterations` that takes one of 8 switch arms at pseudo-random (an LCG): its
/// sequences of paths are all different, so its k-slab forest keeps growing. Prints the
/// iteration number every `print_every` iterations (never for 0) and the sum at the end.
pub fn random_switch(iterations: u64, print_every: u64) -> String {
    let print = if print_every == 0 {
        String::new()
    } else {
        format!("        if (i % {print_every} == 0) printf(\"%ld\\n\", i);\n")
    };
    format!(
        "#include <stdio.h>
int main(void) {{
    unsigned x = 12345;
    long s = 0;
    for (long i = 0; i < {iterations}; i++) {{
        x = x * 1103515245u + 12345u;
        switch ((x >> 16) % 8) {{
        case 0: s += 1; break;
        case 1: s += 2; break;
        case 2: s ^= 3; break;
        case 3: s -= 1; break;
        case 4: s += 5; break;
        case 5: s *= 1; break;
        case 6: s += 7; break;
        default: s -= 2; break;
        }}
{print}    }}
    printf(\"%ld\\n\", s);
    return 0;
}}
"
    )
}
