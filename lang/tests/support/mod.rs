//! Helpers shared by the front end's integration tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// gcc's verdict on `source` as strict C99 (`-std=c99 -pedantic-errors -fsyntax-only`: no code
/// generated), except for what the VM accepts on purpose, as gcc does with only a warning, and
/// these programs can contain: arithmetic on `void *` (byte steps; `-Wno-pointer-arith`), a
/// pointer converted to a pointer to another type by assignment (`-Wno-incompatible-pointer-types`)
/// and pointers to different types compared (`-Wno-compare-distinct-pointer-types`). `Err` holds
/// gcc's diagnostics. Panics if gcc cannot be run: it is the reference.
pub fn gcc_accepts(source: &str) -> Result<(), String> {
    let mut child = Command::new("gcc")
        .args([
            "-std=c99",
            "-pedantic-errors",
            "-Wno-pointer-arith",
            "-Wno-incompatible-pointer-types",
            "-Wno-compare-distinct-pointer-types",
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
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}
