//! The bytecode interpreter and the `vmrun` command's library.
//!
//! [`run_source`] compiles and runs a program in-process (Contract 4); [`run_program`] runs an
//! already compiled one, under the profiling mode of [`RunOptions::profile`]. The interpreter
//! itself is [`interp::execute`], a single dispatch loop shared by every mode: [`run_program`]
//! picks the mode once from the table of modes ([`modes`]), and the mode's probes
//! ([`probes::Probes`]) run behind one `dyn` reference, so that every mode runs the same
//! machine code and differs from `none` only by its probes' work
//! (`docs/design/dispatch.md`).
//!
//! Exit statuses follow `sysexits.h` for the VM's own failures: [`EXIT_USAGE`],
//! [`EXIT_COMPILE_ERROR`], [`EXIT_NO_INPUT`], [`EXIT_RUNTIME_ERROR`]; otherwise a run exits
//! with the program's own status (`main`'s result or `exit`'s argument, masked to `0..=255`).
#![deny(missing_docs)]

pub mod alloc_meter;
pub mod branch_counts;
pub mod byte_memory;
pub mod explain;
pub mod interp;
pub mod libc;
pub mod memory;
pub mod memory_calls;
pub mod modes;
pub mod path_counts;
pub mod printf;
pub mod probes;
pub mod profile;
pub mod rand;
pub mod run;
pub mod run_stats;
pub mod signals;
pub mod step_table;
pub mod tier;
pub mod trap;
pub mod version;

use std::io::Write;

use profiler::PathEnds;

pub use profile::Mode;
pub use run::{run_program, run_program_watched, WatchOptions};

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

/// The default of `--tier-up`: a function is instrumented once its heat (invocations plus
/// backward jumps, i.e. loop iterations) exceeds this.
pub const DEFAULT_TIER_UP: u64 = 1000;

/// Options of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Maximum number of active calls (main counts as one); a deeper call is a runtime error.
    pub max_depth: u32,
    /// The most instructions the program may execute (`--max-steps`), `None` for no limit;
    /// the run stops with a runtime error before the basic block that would pass it
    /// ([`lang::bytecode::meter`]: probes a mode adds are not counted).
    pub max_steps: Option<u64>,
    /// What the run profiles.
    pub profile: ProfileSettings,
    /// Whether to assemble the profile at the end ([`RunResult::profile`]); the command line
    /// does only when it will write it (`--profile-out`, `--report`), since building every
    /// function's CFG and numbering costs as much as a short program's whole run.
    pub collect_profile: bool,
    /// The sizes of the program's memory (`--stack-size`, `--max-memory`).
    pub memory: MemoryLimits,
}

/// How much memory a program may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimits {
    /// Bytes of the array stack: the local arrays, structures and addressed locals of the
    /// active calls (`--stack-size`); a call whose locals do not fit stops the program.
    pub stack_size: u32,
    /// The most bytes of memory in all: globals and string literals, the array stack and the
    /// heap (`--max-memory`); an allocation beyond it fails with a runtime error.
    pub max_memory: u32,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            stack_size: memory::DEFAULT_STACK_SIZE,
            max_memory: memory::DEFAULT_MAX_MEMORY,
        }
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_steps: None,
            profile: ProfileSettings::default(),
            collect_profile: true,
            memory: MemoryLimits::default(),
        }
    }
}

/// The profiling settings of a run (`--profile`, `--tier-up`, `--path-ends`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfileSettings {
    /// The mode.
    pub mode: Mode,
    /// `K` of the multi-iteration modes (1 otherwise).
    pub k: u32,
    /// The tier-up threshold (`0`: every function instrumented before it runs).
    pub tier_up: u64,
    /// Where paths end.
    pub path_ends: PathEnds,
    /// `kbl`: the most k-slab forest nodes kept (`--max-nodes`), `None` for no bound.
    pub max_nodes: Option<usize>,
}

impl Default for ProfileSettings {
    fn default() -> Self {
        ProfileSettings {
            mode: Mode::None,
            k: 1,
            tier_up: DEFAULT_TIER_UP,
            path_ends: PathEnds::Header,
            max_nodes: None,
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
    /// trace, and warnings of the profiler (a function it could not instrument); empty after a
    /// normal run.
    pub stderr: String,
    /// The profile, for every mode but `none`, if the program compiled and
    /// [`RunOptions::collect_profile`] asked for it (also after a trap or an interrupt, then
    /// marked incomplete).
    pub profile: Option<profile::Profile>,
    /// The tier-ups done during the run and the time they took (zero for `none`, `edge` and
    /// `trace`, which never tier up).
    pub tier_ups: tier::tiering::TierUpStats,
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
    run_source_with(file_name, source, &Default::default(), options, stdout)
}

/// [`run_source`] with the preprocessor's options (`-D`, `-U`, `-I`).
pub fn run_source_with(
    file_name: &str,
    source: &str,
    preprocess: &lang::PreprocessOptions,
    options: &RunOptions,
    stdout: &mut dyn Write,
) -> RunResult {
    match lang::compile_source_with(file_name, source, preprocess) {
        Ok(program) => run_program(&program, file_name, options, stdout),
        Err(diags) => RunResult {
            exit_status: EXIT_COMPILE_ERROR,
            stderr: diags.render(file_name, source),
            profile: None,
            tier_ups: Default::default(),
        },
    }
}

/// The name a program of several files goes by in reports and in the profile's `program`:
/// its files' names separated by spaces (one file: its name).
pub fn program_name(files: &[(&str, &str)]) -> String {
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    names.join(" ")
}

/// [`run_source_with`] for a program of several source files, `(name, text)` in command-line
/// order: each is its own translation unit, and they are linked into one program
/// ([`lang::compile_sources_with`]). Runtime errors and the profile name each function's file.
pub fn run_sources_with(
    files: &[(&str, &str)],
    preprocess: &lang::PreprocessOptions,
    options: &RunOptions,
    stdout: &mut dyn Write,
) -> RunResult {
    let name = program_name(files);
    match lang::compile_sources_with(files, preprocess) {
        Ok(program) => run_program(&program, &name, options, stdout),
        Err(diags) => RunResult {
            exit_status: EXIT_COMPILE_ERROR,
            stderr: render_diagnostics(&diags, files),
            profile: None,
            tier_ups: Default::default(),
        },
    }
}

/// [`run_sources_with`], watched (see [`run_source_watched`]).
pub fn run_sources_watched_with(
    files: &[(&str, &str)],
    preprocess: &lang::PreprocessOptions,
    options: &RunOptions,
    watch: WatchOptions,
    stdout: &mut dyn Write,
) -> (RunResult, Vec<modes::watch::WatchLine>) {
    let name = program_name(files);
    match lang::compile_sources_with(files, preprocess) {
        Ok(program) => run_program_watched(&program, &name, options, watch, stdout),
        Err(_) => (
            run_sources_with(files, preprocess, options, stdout),
            Vec::new(),
        ),
    }
}

/// Renders the diagnostics of compiling `files` (each in its own file).
pub fn render_diagnostics(diags: &lang::Diagnostics, files: &[(&str, &str)]) -> String {
    let (name, source) = files.first().copied().unwrap_or(("", ""));
    diags.render(name, source)
}

/// [`run_source`], watched: also returns the run's first probe events
/// ([`run_program_watched`]); none if the program does not compile.
pub fn run_source_watched(
    file_name: &str,
    source: &str,
    options: &RunOptions,
    watch: WatchOptions,
    stdout: &mut dyn Write,
) -> (RunResult, Vec<modes::watch::WatchLine>) {
    let preprocess = lang::PreprocessOptions::default();
    run_source_watched_with(file_name, source, &preprocess, options, watch, stdout)
}

/// [`run_source_watched`] with the preprocessor's options (`-D`, `-U`, `-I`).
pub fn run_source_watched_with(
    file_name: &str,
    source: &str,
    preprocess: &lang::PreprocessOptions,
    options: &RunOptions,
    watch: WatchOptions,
    stdout: &mut dyn Write,
) -> (RunResult, Vec<modes::watch::WatchLine>) {
    match lang::compile_source_with(file_name, source, preprocess) {
        Ok(program) => run_program_watched(&program, file_name, options, watch, stdout),
        Err(_) => (
            run_source_with(file_name, source, preprocess, options, stdout),
            Vec::new(),
        ),
    }
}
