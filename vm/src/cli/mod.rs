//! The `vmrun` command line (clap derive).
//!
//! `vmrun [OPTIONS] FILE` runs a program; subcommands inspect it (`vmrun disasm FILE`).
//! Exit statuses: the program's own (0..=255), or 2 for a usage error, 65 when the program does
//! not compile, 66 when the file cannot be read, 70 after a runtime error.

mod cfg;
mod disasm;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};
use vm::{RunOptions, DEFAULT_MAX_DEPTH, EXIT_COMPILE_ERROR, EXIT_NO_INPUT};

/// Run C-subset programs on a register bytecode VM.
///
/// `vmrun prog.src` compiles and runs a program (the extension does not matter) and exits with
/// its status. Exit statuses of the VM itself: 2 usage error, 65 compile error (diagnostics on
/// stderr), 66 file cannot be read, 70 runtime error (division by zero, index out of bounds,
/// shift out of range, call depth; reported as `file:line:col: runtime error: ...` with a stack
/// trace, after the program's output so far).
#[derive(Parser, Debug)]
#[command(
    name = "vmrun",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

/// Options of a run (the default command).
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program to run (C-subset source; any extension).
    #[arg(required = true, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Maximum number of active calls, `main` included; a deeper call stops the program with a
    /// runtime error.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    max_depth: u32,
    /// Profiling mode. Only `none` (the plain interpreter, no probes) exists so far.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = ProfileMode::None)]
    profile: ProfileMode,
}

/// What the run profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProfileMode {
    /// No profiling: the interpreter without probes.
    None,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print each function's bytecode with basic blocks (`bN:`) and source locations.
    Disasm(disasm::DisasmArgs),
    /// Path profiling on control-flow graphs given as text (see `vmrun cfg --help`).
    Cfg(cfg::CfgArgs),
}

/// Parses the command line, runs the command and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Disasm(args)) => disasm::run(&args),
        Some(Command::Cfg(args)) => cfg::run(&args),
        None => run(&cli.run),
    }
}

/// Reads a program file; on failure prints the error and returns the exit status to use.
pub fn read_source(path: &Path) -> Result<String, i32> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => {
            eprintln!("vmrun: cannot read {}: {e}", path.display());
            Err(EXIT_NO_INPUT)
        }
    }
}

fn run(args: &RunArgs) -> i32 {
    let Some(path) = &args.file else {
        return vm::EXIT_USAGE;
    };
    let source = match read_source(path) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let name = path.display().to_string();
    let options = RunOptions {
        max_depth: args.max_depth,
    };
    let _ = args.profile;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let result = vm::run_source(&name, &source, &options, &mut lock);
    let _ = lock.flush();
    if !result.stderr.is_empty() {
        eprint!("{}", result.stderr);
    }
    if result.exit_status == EXIT_COMPILE_ERROR && result.stderr.is_empty() {
        eprintln!("vmrun: {name}: compile error");
    }
    result.exit_status
}
