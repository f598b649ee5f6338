//! Helpers shared by the front end's integration tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// gcc's diagnostics that `-pedantic-errors` makes errors and plain `-std=c99` only warnings,
/// for conversions the VM makes as gcc does.
const WARNINGS_WITHOUT_PEDANTIC: &[&str] = &[
    "comparison of distinct pointer types lacks a cast",
    "pointer type mismatch in conditional expression",
];

/// gcc's verdict on `source` as strict C99 (`-std=c99 -pedantic-errors -fsyntax-only`: no code
/// generated), except for what the VM accepts on purpose, as gcc does with only a warning, and
/// these programs can contain: arithmetic on `void *` (byte steps; `-Wno-pointer-arith`), a
/// pointer converted to a pointer to another type by assignment (`-Wno-incompatible-pointer-types`,
/// `-Wno-pointer-sign`; and one that drops the pointee's `const`, `-Wno-discarded-qualifiers`),
/// old C's implicit `int` (`-Wno-implicit-int`), and the errors of [`WARNINGS_WITHOUT_PEDANTIC`]
/// (pointers to different types compared, or chosen by `?:`), which have no option of their
/// own. `Err` holds gcc's diagnostics. Panics if gcc cannot be run: it is the reference.
pub fn gcc_accepts(source: &str) -> Result<(), String> {
    let mut child = Command::new("gcc")
        .args([
            "-std=c99",
            "-pedantic-errors",
            "-Wno-pointer-arith",
            "-Wno-incompatible-pointer-types",
            "-Wno-pointer-sign",
            "-Wno-discarded-qualifiers",
            "-Wno-implicit-int",
            "-fwrapv",
            "-fsyntax-only",
            "-x",
            "c",
            "-",
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gcc is required by this test (the reference compiler) but could not be run");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(source.as_bytes())
        .expect("write to gcc");
    let out = child.wait_with_output().expect("gcc");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let only_warnings_for_gcc = stderr
        .lines()
        .filter(|line| line.contains("error:"))
        .all(|line| WARNINGS_WITHOUT_PEDANTIC.iter().any(|w| line.contains(w)));
    if out.status.success() || only_warnings_for_gcc {
        Ok(())
    } else {
        Err(stderr)
    }
}
