//! The reference implementation: compile a C file with gcc and run it.
//!
//! gcc is required; every function here panics with a clear message if it is missing, so a
//! machine without gcc fails the differential tests instead of silently skipping them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::outcome::Outcome;

/// The gcc flags of the reference build, as the language spec states them.
pub const GCC_FLAGS: &[&str] = &["-std=c99", "-fwrapv", "-O0", "-x", "c"];

/// Panics with a clear message unless `gcc --version` runs.
pub fn require_gcc() {
    match Command::new("gcc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(s) if s.success() => {}
        Ok(s) => {
            panic!("gcc is required for the differential tests, but `gcc --version` failed: {s}")
        }
        Err(e) => panic!("gcc is required for the differential tests, but it cannot be run: {e}"),
    }
}

/// A fresh scratch directory under the system temp dir (not removed automatically: callers
/// remove it when done; it is small).
pub fn scratch_dir(tag: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("e2e-{tag}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Compiles `source` with gcc and the given extra flags into `dir/name`. Returns the
/// executable's path, or gcc's stderr if compilation failed.
pub fn compile(
    source: &Path,
    dir: &Path,
    name: &str,
    extra_flags: &[&str],
) -> Result<PathBuf, String> {
    compile_files(&[source.to_path_buf()], dir, name, extra_flags)
}

/// Like [`compile`] for a program of several source files (compiled and linked together).
pub fn compile_files(
    sources: &[PathBuf],
    dir: &Path,
    name: &str,
    extra_flags: &[&str],
) -> Result<PathBuf, String> {
    let exe = dir.join(name);
    let out = Command::new("gcc")
        .args(GCC_FLAGS)
        .args(sources)
        .args(["-lm", "-o"])
        .arg(&exe)
        .args(extra_flags)
        .output()
        .unwrap_or_else(|e| {
            panic!("gcc is required for the differential tests, but it cannot be run: {e}")
        });
    if out.status.success() {
        Ok(exe)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Runs an executable with a time limit, capturing stdout and stderr. A process killed by a
/// signal gets the status `-signal`.
pub fn run_executable(exe: &Path, limit: Duration) -> Outcome {
    run_executable_env(exe, limit, &[])
}

/// [`run_executable`] with extra environment variables (sanitizers' run-time options).
pub fn run_executable_env(exe: &Path, limit: Duration, env: &[(&str, &str)]) -> Outcome {
    let mut child = Command::new(exe)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    let mut stdout_pipe = child.stdout.take().expect("piped stdout");
    let mut stderr_pipe = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout_pipe, &mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr_pipe, &mut buf);
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{} ran longer than {limit:?} (the reference build must terminate)",
                    exe.display()
                );
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => panic!("waiting for {}: {e}", exe.display()),
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    // a death by signal (a crash of the reference build) is reported as minus the signal number
    let code = match status.code() {
        Some(c) => c,
        None => {
            use std::os::unix::process::ExitStatusExt;
            -status.signal().unwrap_or(0)
        }
    };
    Outcome {
        stdout,
        status: code,
        stderr,
    }
}

/// Compiles `source` (a file) with the reference flags and runs it. Panics if gcc rejects it:
/// every program given to the differential tests must be valid C.
pub fn gcc_outcome(source: &Path, limit: Duration) -> Outcome {
    gcc_outcome_files(&[source.to_path_buf()], limit)
}

/// Like [`gcc_outcome`] for a program of several source files.
pub fn gcc_outcome_files(sources: &[PathBuf], limit: Duration) -> Outcome {
    let dir = scratch_dir("gcc");
    let exe = match compile_files(sources, &dir, "prog", &[]) {
        Ok(exe) => exe,
        Err(msg) => {
            let _ = std::fs::remove_dir_all(&dir);
            panic!("gcc rejected {sources:?}:\n{msg}")
        }
    };
    let outcome = run_executable(&exe, limit);
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

/// Like [`gcc_outcome_of_text`], but returns `None` when gcc rejects the program (or the
/// reference build crashes or runs past `limit`) instead of panicking; for reducers.
pub fn gcc_outcome_of_text_checked(source: &str, limit: Duration) -> Option<Outcome> {
    let dir = scratch_dir("gccc");
    let file = dir.join("prog.c");
    std::fs::write(&file, source)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
    let result = match compile(
        &file,
        &dir,
        "prog",
        &[
            "-Werror=implicit-function-declaration",
            "-Werror=return-type",
        ],
    ) {
        Ok(exe) => std::panic::catch_unwind(|| run_executable(&exe, limit))
            .ok()
            .filter(|o| o.status >= 0),
        Err(_) => None,
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Like [`gcc_outcome`] for a source held in memory: writes it to a scratch file first.
pub fn gcc_outcome_of_text(source: &str, limit: Duration) -> Outcome {
    let dir = scratch_dir("gcct");
    let file = dir.join("prog.c");
    std::fs::write(&file, source)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
    let exe = match compile(&file, &dir, "prog", &[]) {
        Ok(exe) => exe,
        Err(msg) => {
            let _ = std::fs::remove_dir_all(&dir);
            panic!("gcc rejected a generated program:\n{msg}\n--- program ---\n{source}")
        }
    };
    let outcome = run_executable(&exe, limit);
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}
