//! `vmrun`'s preprocessor options: `-D NAME[=VALUE]`, `-U NAME`, `-I DIR` (gcc's spelling),
//! on the run command, `disasm` and `explain`; diagnostics and runtime errors point into the original
//! files.

use std::path::PathBuf;
use std::process::Command;

/// A fresh directory with `prog.c` and `inc/cfg.h`.
fn fixture(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vmrun_pp_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inc")).expect("temporary directory");
    std::fs::write(
        dir.join("prog.c"),
        "#include \"cfg.h\"\n#define DIV(a, b) ((a) / (b))\nint main(void) {\n#ifdef LOUD\n    return N + 100;\n#else\n    return DIV(N, ZERO);\n#endif\n}\n",
    )
    .expect("write prog.c");
    std::fs::write(
        dir.join("inc/cfg.h"),
        "#ifndef N\n#define N 3\n#endif\n#ifndef ZERO\n#define ZERO 1\n#endif\n",
    )
    .expect("write cfg.h");
    dir
}

/// Runs `vmrun ARGS`; returns the status and stderr.
fn vmrun(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(args)
        .output()
        .expect("run vmrun");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn defines_undefines_and_include_dirs() {
    let dir = fixture("run");
    let prog = dir.join("prog.c").display().to_string();
    let inc = dir.join("inc").display().to_string();
    let (status, stderr) = vmrun(&[&prog]);
    assert_eq!(status, 65, "{stderr}");
    assert!(
        stderr.contains("cannot find include file `cfg.h`"),
        "{stderr}"
    );
    assert_eq!(vmrun(&["-I", &inc, &prog]).0, 3);
    assert_eq!(
        vmrun(&[&format!("-I{inc}"), "-DN=5", "-DLOUD", "-ULOUD", &prog]).0,
        5
    );
    assert_eq!(vmrun(&["-I", &inc, "-D", "LOUD", &prog]).0, 103);
    // A runtime error inside a macro points at its invocation in prog.c.
    let (status, stderr) = vmrun(&["-I", &inc, "-DZERO=0", &prog]);
    assert_eq!(status, 70, "{stderr}");
    assert!(
        stderr.contains("prog.c:7:12: runtime error: integer division by zero"),
        "{stderr}"
    );
    // A bad -D is an error in the "<command line>" pseudo file.
    let (status, stderr) = vmrun(&["-I", &inc, "-D1X", &prog]);
    assert_eq!(status, 65, "{stderr}");
    assert!(stderr.contains("<command line>:"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(["disasm", "-I", &inc, "-DN=9", "-DLOUD", &prog])
        .output()
        .expect("run vmrun disasm");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("109"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(["explain", "-I", &inc, "-DLOUD", &prog])
        .output()
        .expect("run vmrun explain");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (status, stderr) = vmrun(&["explain", &prog]);
    assert_eq!(status, 65, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
