//! Runtime errors of the checked memory, one program per class (`tests/runtime_errors/`):
//! out of bounds through a pointer (heap, stack, global, wide reads, `strcpy`/`strcat`),
//! null, use after free, double free, bad frees, a stack object used after its function
//! returned or after its block ended, through array parameters (a negative index before the
//! array, a freed block), misaligned accesses, and leaks reported at exit.
//!
//! Each `NAME.c` has a `NAME.txt`, written (with gcc's sanitizer report for reference) by
//! `make_error_txt.py` from where the fault is in the source: `fault: LINE:COL (..., which
//! starts at col START)`, the byte offset, the object, and the stdout printed before the fault.
//! The VM must print exactly that stdout, exit with status 70 and report
//! `NAME.c:LINE:COL: runtime error: ...` (the operator's column or the expression's start),
//! naming the kind of fault, the object and the offset; under `bl` too, with the function
//! instrumented from its first call. A `fault: none` program (a leak) must keep gcc's exit
//! status and output and report the blocks never freed with where they were allocated.

use std::path::{Path, PathBuf};

use vm::{Mode, ProfileSettings, RunOptions};

/// What a `.txt` file expects.
#[derive(Debug)]
struct Expected {
    /// `(line, col, start col)` of the fault, `None` for a leak.
    fault: Option<(u32, u32, u32)>,
    /// The byte offset, if a number.
    offset: Option<i64>,
    /// The object line.
    object: String,
    /// The stdout before the fault (or of the whole run).
    stdout: String,
    /// A leak program's exit status.
    status: Option<i32>,
}

fn parse(txt: &str) -> Expected {
    let field = |name: &str| -> String {
        txt.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no `{name}:` line in\n{txt}"))
            .to_string()
    };
    let fault = field("fault");
    let fault = (!fault.starts_with("none")).then(|| {
        let (pos, rest) = fault.split_once(' ').expect("fault: L:C (...)");
        let (line, col) = pos.split_once(':').expect("L:C");
        let start = rest
            .rsplit_once("starts at col ")
            .map(|(_, c)| c.trim_end_matches(')'))
            .expect("which starts at col N");
        (
            line.parse().unwrap(),
            col.parse().unwrap(),
            start.parse().unwrap(),
        )
    });
    let offset = field("byte offset")
        .split_whitespace()
        .next()
        .and_then(|w| w.parse().ok());
    let mut stdout = String::new();
    let mut lines = txt.lines().skip_while(|l| !l.starts_with("stdout"));
    lines.next();
    for l in lines.take_while(|l| l.starts_with("  ")) {
        stdout.push_str(&l[2..]);
        stdout.push('\n');
    }
    let status = field("kind")
        .split_once("exit status ")
        .and_then(|(_, rest)| rest.split_whitespace().next()?.parse().ok());
    Expected {
        fault,
        offset,
        object: field("object"),
        stdout,
        status,
    }
}

/// The words every report of the fault class the file name says must contain.
fn class_words(name: &str) -> &'static [&'static str] {
    const CLASSES: [(&str, &[&str]); 12] = [
        ("oob_", &["out-of-bounds"]),
        ("wide_read_", &["out-of-bounds read"]),
        ("strcpy_", &["strcpy", "out-of-bounds write"]),
        ("strcat_", &["strcat", "out-of-bounds write"]),
        ("null_", &["null pointer"]),
        ("uaf_", &["after it was freed at"]),
        ("double_free", &["double free", "already freed at"]),
        ("dangling_", &["returned"]),
        ("scope_", &["after the block declaring it ended"]),
        ("free_interior", &["not to its start"]),
        ("free_", &["not a heap block"]),
        ("misaligned_", &["misaligned"]),
    ];
    CLASSES
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map_or(&[], |(_, words)| words)
}

fn run(path: &Path, mode: Mode) -> (i32, String, String) {
    let source = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap().to_string();
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            tier_up: 0,
            ..ProfileSettings::default()
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let r = vm::run_sources_with(
        &[(name.as_str(), source.as_str())],
        &Default::default(),
        &options,
        &mut out,
    );
    (
        r.exit_status,
        String::from_utf8_lossy(&out).into_owned(),
        r.stderr,
    )
}

/// The problems with one program's run, if any.
fn check(path: &Path, mode: Mode) -> Vec<String> {
    let name = path.file_name().unwrap().to_str().unwrap();
    let stem = name.trim_end_matches(".c");
    let want = parse(&std::fs::read_to_string(path.with_extension("txt")).unwrap());
    let (status, stdout, stderr) = run(path, mode);
    let mut problems = Vec::new();
    if stdout != want.stdout {
        problems.push(format!("stdout {stdout:?}, expected {:?}", want.stdout));
    }
    match want.fault {
        None => {
            let allocated = format!("allocated at {name}:");
            if Some(status) != want.status {
                problems.push(format!("exit status {status}, expected {:?}", want.status));
            }
            if !stderr.contains("memory leak") || !stderr.contains(&allocated) {
                problems.push(format!("no leak report naming `{allocated}`"));
            }
        }
        Some((line, col, start)) => {
            if status != vm::EXIT_RUNTIME_ERROR {
                problems.push(format!("exit status {status}, expected 70"));
            }
            let first = stderr.lines().next().unwrap_or("");
            let at = |c: u32| format!("{name}:{line}:{c}: runtime error: ");
            if !first.starts_with(&at(col)) && !first.starts_with(&at(start)) {
                problems.push(format!("report does not start with `{}`", at(start)));
            }
            for word in class_words(stem) {
                if !first.contains(word) {
                    problems.push(format!("report does not say `{word}`"));
                }
            }
            if let Some(offset) = want.offset.filter(|&o| o != 0) {
                if !first.contains(&format!("offset {offset}")) {
                    problems.push(format!("report does not name offset {offset}"));
                }
            }
            // The object: a named one in quotes, or a heap block of its size.
            let quoted = want
                .object
                .split('\'')
                .nth(1)
                .filter(|_| !stem.starts_with("null_"));
            let heap = want
                .object
                .find("heap block of ")
                .map(|i| want.object[i..].split(" bytes").next().unwrap().to_string());
            if let Some(h) = heap {
                if !first.contains(&h) {
                    problems.push(format!("report does not name the {h} bytes"));
                }
            } else if let Some(q) = quoted {
                if !first.contains(&format!("'{q}'")) {
                    problems.push(format!("report does not name '{q}'"));
                }
            }
        }
    }
    problems
        .into_iter()
        .map(|p| format!("{name} ({mode:?}): {p}\n  stderr: {}", stderr.trim_end()))
        .collect()
}

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime_errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_fault_class_is_reported_at_its_location() {
    let files = programs();
    assert!(files.len() >= 25, "expected the runtime error corpus");
    for class in [
        "oob_",
        "null_",
        "uaf_",
        "double_free",
        "dangling_",
        "scope_",
        "free_",
        "leak_",
    ] {
        assert!(
            files
                .iter()
                .any(|f| f.file_name().unwrap().to_str().unwrap().starts_with(class)),
            "no program of class {class}"
        );
    }
    let problems: Vec<String> = e2e::parallel_map(&files, |f| {
        let mut p = check(f, Mode::None);
        p.extend(check(f, Mode::Bl));
        p
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
