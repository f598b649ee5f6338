//! The program corpus: every `.c` file under `programs/` except `programs/cfgs/`, and every
//! program of several files: a directory holding a `main.c` is one program made of all its
//! `.c` files (each its own translation unit, linked: `gcc a.c b.c`, `vmrun a.c b.c`).

use std::path::{Path, PathBuf};

/// The repository's `programs/` directory.
pub fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("programs")
}

/// Every program under `programs/` (recursively, skipping `programs/cfgs/`), sorted: a `.c`
/// file, or a directory holding a `main.c` for a program of several files (see
/// [`program_files`]).
pub fn all_programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(&programs_dir(), &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => panic!("cannot read {}: {e}", dir.display()),
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.join("main.c").is_file() {
                out.push(path);
                continue;
            }
            if path.file_name().is_some_and(|n| n == "cfgs")
                && path.parent() == Some(&programs_dir())
            {
                continue;
            }
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "c") {
            out.push(path);
        }
    }
}

/// The path of `file` relative to the repository root, for messages.
pub fn display_name(file: &Path) -> String {
    let root = programs_dir().join("..");
    let root = root.canonicalize().unwrap_or(root);
    let file_abs = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    file_abs
        .strip_prefix(&root)
        .unwrap_or(&file_abs)
        .display()
        .to_string()
}

/// The source files of a program of [`all_programs`]: the file itself, or every `.c` file of
/// a program directory, sorted by name.
pub fn program_files(program: &Path) -> Vec<PathBuf> {
    if !program.is_dir() {
        return vec![program.to_path_buf()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(program)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", program.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    files
}
