//! `vmrun a.c b.c`: a program of several files, each its own translation unit, linked. The
//! run, its runtime errors, its profile, `--annotate`, `disasm`, `explain` and the link errors
//! name each function's own file.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory with `main.c`, `util.c` and `util.h`.
fn fixture(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vmrun_multi_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("write {name}: {e}"))
    };
    write(
        "util.h",
        "#ifndef UTIL_H\n#define UTIL_H\nextern int calls;\nint divide(int a, int b);\n#endif\n",
    );
    write(
        "util.c",
        "#include \"util.h\"\nint calls;\nstatic int count;\n\nstatic int checked(int a, int b) {\n    count++;\n    return a / b;\n}\nint divide(int a, int b) {\n    calls++;\n    return checked(a, b);\n}\n",
    );
    write(
        "main.c",
        "#include <stdio.h>\n#include \"util.h\"\nstatic int count = 40;\nint main(void) {\n    int s = 0;\n    for (int i = 1; i <= 4; i++)\n        s += divide(100, i);\n    printf(\"%d %d %d\\n\", s, calls, count);\n    return divide(1, s - 208);\n}\n",
    );
    dir
}

/// Runs `vmrun ARGS`; returns the status, stdout and stderr.
fn vmrun(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(args)
        .output()
        .expect("run vmrun");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

#[test]
fn runs_and_traps_name_each_functions_file() {
    let dir = fixture("run");
    let (main, util) = (path(&dir, "main.c"), path(&dir, "util.c"));
    let (status, out, err) = vmrun(&[&main, &util]);
    // 100 + 50 + 33 + 25 = 208: the last call divides by zero in util.c's static helper.
    assert_eq!(out, "208 4 40\n");
    assert_eq!(status, 70, "{err}");
    assert!(
        err.starts_with(&format!(
            "{util}:7:12: runtime error: integer division by zero\n"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("  checked at {util}:7:12\n")),
        "{err}"
    );
    assert!(
        err.contains(&format!("  divide at {util}:11:12\n")),
        "{err}"
    );
    assert!(err.contains(&format!("  main at {main}:9:12\n")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn profiles_and_annotations_name_each_functions_file() {
    let dir = fixture("profile");
    let (main, util) = (path(&dir, "main.c"), path(&dir, "util.c"));
    let json = path(&dir, "prof.json");
    let annotated = path(&dir, "annotated.txt");
    let (status, _, err) = vmrun(&[
        "--profile=bl",
        "--tier-up",
        "0",
        "--profile-out",
        &json,
        &format!("--annotate={annotated}"),
        &main,
        &util,
    ]);
    assert_eq!(status, 70, "{err}");
    let profile = vm::profile::Profile::from_json(&std::fs::read_to_string(&json).unwrap())
        .expect("the profile reads back");
    assert_eq!(profile.program, format!("{main} {util}"));
    let file_of = |name: &str| {
        let f = profile.functions.iter().find(|f| f.name == name).unwrap();
        (f.file.clone(), f.line)
    };
    assert_eq!(file_of("main"), (main.clone(), 4));
    assert_eq!(file_of("divide"), (util.clone(), 9));
    assert_eq!(file_of("checked"), (util.clone(), 5));
    let text = std::fs::read_to_string(&annotated).unwrap();
    let main_at = text
        .find(&format!("==> {main} <=="))
        .expect("main.c annotated");
    let util_at = text
        .find(&format!("==> {util} <=="))
        .expect("util.c annotated");
    assert!(main_at < util_at);
    assert!(
        text[util_at..].contains("function checked (line 5)"),
        "{text}"
    );
    assert!(
        text[main_at..util_at].contains("function main (line 4)"),
        "{text}"
    );
    assert!(
        !text[main_at..util_at].contains("function checked"),
        "{text}"
    );
    // The text report names each function's file with its line.
    let report = path(&dir, "report.txt");
    let (status, _, err) = vmrun(&[
        "--profile=bl",
        "--tier-up",
        "0",
        &format!("--report={report}"),
        &main,
        &util,
    ]);
    assert_eq!(status, 70, "{err}");
    let report = std::fs::read_to_string(&report).unwrap();
    assert!(report.contains(&format!("main ({main}:4):")), "{report}");
    assert!(report.contains(&format!("divide ({util}:9):")), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn disasm_and_explain_name_each_functions_file() {
    let dir = fixture("disasm");
    let (main, util) = (path(&dir, "main.c"), path(&dir, "util.c"));
    let (status, out, err) = vmrun(&["disasm", &main, &util]);
    assert_eq!(status, 0, "{err}");
    assert!(
        out.contains(&format!("function main (f0) at {main}:4:5:")),
        "{out}"
    );
    assert!(out.contains(&format!(" at {util}:5:12:")), "{out}");
    let (status, out, err) = vmrun(&["explain", "--func", "checked", &main, &util]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains(&format!("== checked ({util}:5) ==")), "{out}");
    let (status, out, err) = vmrun(&["paths", &main, &util]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains(&format!("{util}:5")), "{out}");
    let (status, out, err) = vmrun(&["paths", "--format", "json", &main, &util]);
    assert_eq!(status, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let checked = doc["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "checked")
        .expect("checked");
    assert_eq!(checked["file"], util.as_str());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn link_errors_name_both_places() {
    let dir = fixture("link");
    let (main, util) = (path(&dir, "main.c"), path(&dir, "util.c"));
    std::fs::write(
        dir.join("again.c"),
        "\n\nint divide(int a, int b) { return a - b; }\n",
    )
    .unwrap();
    let again = path(&dir, "again.c");
    let (status, _, err) = vmrun(&[&main, &util, &again]);
    assert_eq!(status, 65, "{err}");
    assert!(
        err.contains(&format!("{again}:3:5: error: redefinition of `divide`")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{util}:9:5: note: previous definition is here")),
        "{err}"
    );
    // Without util.c, `divide` and `calls` are used but defined nowhere.
    let (status, _, err) = vmrun(&[&main]);
    assert_eq!(status, 65, "{err}");
    assert!(
        err.contains("function `divide` is declared but never defined"),
        "{err}"
    );
    std::fs::write(dir.join("lib.c"), "int unused;\n").unwrap();
    let (status, _, err) = vmrun(&[&main, &path(&dir, "lib.c")]);
    assert_eq!(status, 65, "{err}");
    assert!(
        err.contains(&format!(
            "{main}:7:14: error: undefined reference to `divide`"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{main}:8:29: error: undefined reference to `calls`"
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
