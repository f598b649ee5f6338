//! Shrinks a program on which the VM and gcc disagree, for bug reports:
//! `cargo run -p e2e --example reduce -- prog.c > small.c`.
//!
//! Repeatedly deletes chunks of lines (halving the chunk size down to single lines) while the
//! program still compiles with gcc and the VM's stdout or exit status still differs from
//! gcc's. Lines that open or close blocks, and top-level `return` statements, are never
//! deleted, so the result keeps the structure (loops stay bounded, functions keep returning a
//! value). Works best on generated programs, which put one statement per line.

use std::time::Duration;

use e2e::reference::{gcc_outcome_of_text_checked, require_gcc};
use e2e::vmrun::vm_outcome;

fn deletable(line: &str) -> bool {
    let t = line.trim();
    !(t.is_empty()
        || t.ends_with('{')
        || t.starts_with('}')
        || t.starts_with('#')
        || t.starts_with("case ")
        || t == "default:"
        || (line.starts_with("    return") && !line.starts_with("     ")))
}

/// True if gcc accepts the program and the VM disagrees with it; `compile_error` says whether
/// the original disagreement was the VM rejecting the program (status 65), which must stay
/// the same kind (a deletion that changes a variable's type can make the checker reject a
/// printf format).
fn interesting(lines: &[&str], compile_error: bool) -> bool {
    let source = lines.join("\n") + "\n";
    let Some(expected) = gcc_outcome_of_text_checked(&source, Duration::from_secs(10)) else {
        return false;
    };
    let actual = vm_outcome("reduce.c", &source, Duration::from_secs(30));
    expected.compare(&actual).is_some()
        && (actual.status == vm::EXIT_COMPILE_ERROR) == compile_error
}

/// The index of the line closing the statement that line `open` starts (`open` ends with `{`):
/// the first line after which the braces balance again and which opens nothing new (so an
/// `if` takes its whole `else` chain and a `do` its `while`).
fn block_end(lines: &[&str], open: usize) -> Option<usize> {
    let mut depth: i64 = 0;
    for (i, line) in lines.iter().enumerate().skip(open) {
        depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
        if depth == 0 && !line.trim_end().ends_with('{') {
            return Some(i);
        }
        if depth < 0 {
            return None;
        }
    }
    None
}

/// Tries deleting whole statements that contain blocks (loops, ifs, switches, blocks),
/// outermost first. Returns the new line list and whether anything was deleted.
fn delete_blocks(mut lines: Vec<&str>, compile_error: bool) -> (Vec<&str>, bool) {
    let mut progress = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim_start();
        let statement_opener = line.starts_with("    ")
            && line.trim_end().ends_with('{')
            && ["for ", "while ", "if ", "do ", "switch ", "{"]
                .iter()
                .any(|k| t.starts_with(k));
        if statement_opener {
            if let Some(end) = block_end(&lines, i) {
                let trial: Vec<&str> = lines[..i]
                    .iter()
                    .chain(lines[end + 1..].iter())
                    .copied()
                    .collect();
                if interesting(&trial, compile_error) {
                    lines = trial;
                    progress = true;
                    eprintln!("reduce: {} lines", lines.len());
                    continue;
                }
            }
        }
        i += 1;
    }
    (lines, progress)
}

fn main() {
    let path = match std::env::args().nth(1) {
        Some(p) => p,
        None => {
            eprintln!("usage: reduce FILE.c");
            std::process::exit(2);
        }
    };
    require_gcc();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut lines: Vec<&str> = text.lines().collect();
    let first = vm_outcome("reduce.c", &text, Duration::from_secs(30));
    let compile_error = first.status == vm::EXIT_COMPILE_ERROR;
    if !interesting(&lines, compile_error) {
        eprintln!("{path}: gcc and the VM agree (or gcc rejects it); nothing to reduce");
        std::process::exit(1);
    }
    loop {
        let (reduced, progress) = delete_blocks(lines, compile_error);
        lines = reduced;
        if !progress {
            break;
        }
    }
    let mut chunk = lines.len() / 2;
    while chunk >= 1 {
        let mut progress = false;
        let mut start = 0;
        while start < lines.len() {
            let candidates: Vec<usize> = (start..lines.len())
                .filter(|&i| deletable(lines[i]))
                .take(chunk)
                .collect();
            if candidates.is_empty() {
                break;
            }
            let trial: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| !candidates.contains(i))
                .map(|(_, l)| *l)
                .collect();
            if interesting(&trial, compile_error) {
                lines = trial;
                progress = true;
                eprintln!("reduce: {} lines", lines.len());
            } else {
                start = candidates.last().map_or(lines.len(), |&i| i + 1);
            }
        }
        if !progress {
            chunk /= 2;
        }
    }
    let (reduced, _) = delete_blocks(lines, compile_error);
    println!("{}", reduced.join("\n"));
}
