//! The bytecode interpreter and the `vmrun` command's library.
//!
//! [`run_source`] compiles and runs a program in-process (Contract 4); [`run_program`] runs an
//! already compiled one. The interpreter itself is [`interp::execute`], a single dispatch loop
//! generic over [`probes::Probes`] so that profiling modes are separate monomorphised copies.
//!
//! Exit statuses follow `sysexits.h` for the VM's own failures: [`EXIT_USAGE`],
//! [`EXIT_COMPILE_ERROR`], [`EXIT_NO_INPUT`], [`EXIT_RUNTIME_ERROR`]; otherwise a run exits
//! with the program's own status (`main`'s result or `exit`'s argument, masked to `0..=255`).
#![deny(missing_docs)]

pub mod interp;
pub mod libc;
pub mod printf;
pub mod probes;
pub mod profile;
pub mod tier;
pub mod trap;

use std::io::Write;

use lang::bytecode::Program;

/// Exit status for a command-line usage error.
pub const EXIT_USAGE: i32 = 2;
/// Exit status when the program does not compile (diagnostics on stderr).
pub const EXIT_COMPILE_ERROR: i32 = 65;
/// Exit status when the program file cannot be read.
pub const EXIT_NO_INPUT: i32 = 66;
/// Exit status after a runtime error (trap).
pub const EXIT_RUNTIME_ERROR: i32 = 70;

/// The default of `--max-depth`: the most calls that may be active at once (main included).
pub const DEFAULT_MAX_DEPTH: u32 = 100_000;

/// Options of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Maximum number of active calls (main counts as one); a deeper call is a runtime error.
    pub max_depth: u32,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// The outcome of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    /// The program's exit status (0..=255), or [`EXIT_COMPILE_ERROR`] or
    /// [`EXIT_RUNTIME_ERROR`].
    pub exit_status: i32,
    /// What the VM reports on stderr: rendered diagnostics, or a runtime error with its stack
    /// trace; empty after a normal run.
    pub stderr: String,
}

/// Compiles and runs a program; its stdout bytes go to `stdout` (flushed also on traps).
///
/// `exit_status` is the program's status (0..=255), or [`EXIT_COMPILE_ERROR`] (65) with the
/// diagnostics in `stderr`, or [`EXIT_RUNTIME_ERROR`] (70) with
/// `file:line:col: runtime error: ...` and a stack trace in `stderr`.
pub fn run_source(
    file_name: &str,
    source: &str,
    options: &RunOptions,
    stdout: &mut dyn Write,
) -> RunResult {
    match lang::compile_source(file_name, source) {
        Ok(program) => run_program(&program, file_name, options, stdout),
        Err(diags) => RunResult {
            exit_status: EXIT_COMPILE_ERROR,
            stderr: diags.render(file_name, source),
        },
    }
}

/// Runs a compiled program (see [`run_source`]). `file_name` is used in runtime error reports.
pub fn run_program(
    program: &Program,
    file_name: &str,
    options: &RunOptions,
    stdout: &mut dyn Write,
) -> RunResult {
    if let Err(e) = lang::bytecode::verify::verify(program) {
        return RunResult {
            exit_status: EXIT_RUNTIME_ERROR,
            stderr: format!("{file_name}: internal error: {e}\n"),
        };
    }
    let mut machine = interp::Machine::new(program, options.max_depth);
    let result = interp::execute(&mut machine, &mut probes::NoProbes, stdout);
    machine.flush(stdout);
    match result {
        Ok(exit) => RunResult {
            exit_status: exit.status(),
            stderr: String::new(),
        },
        Err(trap) => RunResult {
            exit_status: EXIT_RUNTIME_ERROR,
            stderr: trap.render(file_name),
        },
    }
}
