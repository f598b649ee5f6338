//! Running a compiled program under a profiling mode: one generic path for every mode
//! ([`crate::modes::Profiler`]). The mode is picked once, from the table of modes; the
//! interpreter loop is compiled for its probes; when the run is over, however it ended (normal
//! end, trap, interrupt), the mode settles its state and builds its part of the profile.

use std::io::Write;

use lang::bytecode::Program;

use crate::interp::{self, Exit, Machine};
use crate::modes::table::for_each_mode;
use crate::modes::watch::{WatchLine, Watched};
use crate::modes::{Finished, Mode, Profiler};
use crate::probes::Probes;
use crate::profile::{FunctionProfile, Profile};
use crate::trap::{Trap, TrapKind};
use crate::{RunOptions, RunResult, EXIT_RUNTIME_ERROR};

/// The number of the signal `abort()` raises on Linux.
const SIGABRT: i32 = 6;

/// Runs a compiled program (see [`crate::run_source`]). `file_name` is used in runtime error
/// reports and as the profile's `program`.
///
/// The exit status is the program's (0..=255), [`EXIT_RUNTIME_ERROR`] after a trap, or
/// `128 + n` when signal `n` (SIGINT, SIGTERM: see [`crate::signals`]) interrupted the run.
/// The program's output so far is written to `stdout` in every case, and every mode but `none`
/// returns its profile (`complete: false` unless `main` returned or `exit` was called).
pub fn run_program(
    program: &Program,
    file_name: &str,
    options: &RunOptions,
    stdout: &mut dyn Write,
) -> RunResult {
    let metered = match metered_for(program, file_name, options) {
        Ok(metered) => metered,
        Err(failed) => return *failed,
    };
    let program = metered.as_ref().unwrap_or(program);
    if let Err(e) = lang::bytecode::verify::verify(program) {
        return internal_error(file_name, &e.to_string());
    }
    macro_rules! run_mode {
        ($($(#[$doc:meta])* $variant:ident => $name:literal, $type:path, k: $k:literal;)*) => {
            match options.profile.mode {
                $(Mode::$variant => run_with::<$type>(program, file_name, options, stdout),)*
            }
        };
    }
    for_each_mode!(run_mode)
}

/// How a run is watched ([`crate::modes::watch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchOptions {
    /// The most events recorded.
    pub limit: usize,
    /// Whether each event is also printed to stderr as it happens (`vmrun --watch N`).
    pub echo: bool,
}

/// Runs a compiled program like [`run_program`], watched: also returns the first
/// `watch.limit` probe events, each with the block, source line and path register of the
/// frame it happened in. The loop is compiled separately for watching, so ordinary runs pay
/// nothing for it; the program's output and profile are the same as without watching.
pub fn run_program_watched(
    program: &Program,
    file_name: &str,
    options: &RunOptions,
    watch: WatchOptions,
    stdout: &mut dyn Write,
) -> (RunResult, Vec<WatchLine>) {
    let metered = match metered_for(program, file_name, options) {
        Ok(metered) => metered,
        Err(failed) => return (*failed, Vec::new()),
    };
    let program = metered.as_ref().unwrap_or(program);
    if let Err(e) = lang::bytecode::verify::verify(program) {
        return (internal_error(file_name, &e.to_string()), Vec::new());
    }
    macro_rules! run_mode {
        ($($(#[$doc:meta])* $variant:ident => $name:literal, $type:path, k: $k:literal;)*) => {
            match options.profile.mode {
                $(Mode::$variant => {
                    watch_with::<$type>(program, file_name, options, watch, stdout)
                })*
            }
        };
    }
    for_each_mode!(run_mode)
}

/// Runs `program` under mode `M`, watched.
fn watch_with<M: Profiler>(
    program: &Program,
    file_name: &str,
    options: &RunOptions,
    watch: WatchOptions,
    stdout: &mut dyn Write,
) -> (RunResult, Vec<WatchLine>) {
    let (mut machine, probes) = match start::<M>(program, file_name, options) {
        Ok(started) => started,
        Err(failed) => return (*failed, Vec::new()),
    };
    let mut watched = Watched::<M>::new(probes, program, watch.limit);
    if watch.echo {
        watched = watched.printing_to(Box::new(std::io::stderr()));
    }
    let (result, watched) = execute(&mut machine, watched, stdout);
    let Watched { probes, lines, .. } = watched;
    (
        settle::<M>(&machine, file_name, options, result, probes),
        lines,
    )
}

/// Runs `program` under mode `M`.
fn run_with<M: Profiler>(
    program: &Program,
    file_name: &str,
    options: &RunOptions,
    stdout: &mut dyn Write,
) -> RunResult {
    let (mut machine, probes) = match start::<M>(program, file_name, options) {
        Ok(started) => started,
        Err(failed) => return *failed,
    };
    let (result, probes) = execute(&mut machine, probes, stdout);
    settle::<M>(&machine, file_name, options, result, probes)
}

/// The program with a step charge in front of every basic block when the run has a step limit
/// ([`lang::bytecode::meter`]), `None` without one; the failed run when a function is too
/// large to be metered.
fn metered_for(
    program: &Program,
    file_name: &str,
    options: &RunOptions,
) -> Result<Option<Program>, Box<RunResult>> {
    if options.max_steps.is_none() {
        return Ok(None);
    }
    let mut metered = program.clone();
    match lang::bytecode::meter::meter(&mut metered) {
        Ok(()) => Ok(Some(metered)),
        Err(e) => Err(Box::new(RunResult {
            exit_status: EXIT_RUNTIME_ERROR,
            stderr: format!("{file_name}: runtime error: {e}\n"),
            profile: None,
            tier_ups: Default::default(),
        })),
    }
}

/// A machine for `program` and mode `M`'s probes, or the result of a run that could not start
/// (the memory limits leave no room for the program's globals, or the mode failed).
fn start<'p, M: Profiler>(
    program: &'p Program,
    file_name: &str,
    options: &RunOptions,
) -> Result<(Machine<'p>, M::Probes<'p>), Box<RunResult>> {
    let limits = crate::memory::MemoryOptions {
        globals_size: 0,
        stack_size: options.memory.stack_size,
        max_memory: options.memory.max_memory,
    };
    let mut machine = Machine::with_memory(program, options.max_depth, limits).map_err(|e| {
        Box::new(RunResult {
            exit_status: EXIT_RUNTIME_ERROR,
            stderr: format!(
                "{file_name}: runtime error: {e} (see --max-memory and --stack-size)\n"
            ),
            profile: None,
            tier_ups: Default::default(),
        })
    })?;
    if let Some(max) = options.max_steps {
        machine.set_max_steps(max);
    }
    let probes = M::start(program, &options.profile, machine.branch_counts().clone())
        .map_err(|e| Box::new(internal_error(file_name, &e)))?;
    Ok((machine, probes))
}

/// The end of a run under mode `M`, however it ended: the mode settles its state and builds
/// its part of the profile.
fn settle<M: Profiler>(
    machine: &Machine<'_>,
    file_name: &str,
    options: &RunOptions,
    result: Result<Exit, Trap>,
    mut probes: M::Probes<'_>,
) -> RunResult {
    let program = machine.program;
    M::stopped(&mut probes, &machine.live_frames());
    let finished = M::finish(&mut probes);
    let interprocedural = if options.collect_profile {
        M::interprocedural(&probes)
    } else {
        None
    };
    let functions = if options.collect_profile {
        M::profile(probes, program, &options.profile)
            .map(|r| r.map(|fs| with_indirect_calls(with_files(fs, program), machine)))
    } else {
        None
    };
    // Blocks never freed are reported once the program ended normally (after a runtime
    // error they are expected).
    let leaks = result.as_ref().ok().and_then(|_| machine.leak_report());
    let mut run = finish(file_name, result, finished, functions, options);
    match interprocedural {
        Some(Ok(mut section)) => {
            if let Some(p) = run.profile.as_mut() {
                section.fill_lines(&p.functions);
                p.interprocedural = Some(section);
            }
        }
        Some(Err(e)) => run.stderr.push_str(&format!(
            "{file_name}: internal error: no interprocedural paths: {e}\n"
        )),
        None => {}
    }
    if let Some(leaks) = leaks {
        run.stderr
            .push_str(&format!("{file_name}: warning: memory leak: {leaks}\n"));
    }
    run
}

/// Each function's calls through function pointers, from the machine's counts.
fn with_indirect_calls(
    mut functions: Vec<FunctionProfile>,
    machine: &Machine<'_>,
) -> Vec<FunctionProfile> {
    let program = machine.program;
    for (caller, loc, callee, count) in machine.indirect_calls() {
        let Some(f) = functions
            .get_mut(caller.index())
            .filter(|f| f.name == program.functions[caller.index()].name)
        else {
            continue;
        };
        f.indirect_calls.push(crate::profile::IndirectCallCount {
            line: loc.line,
            col: loc.col,
            callee: program.functions[callee.index()].name.clone(),
            count,
        });
    }
    functions
}

/// Each function's profile names the source file of its definition (the profile lists the
/// program's functions in program order).
fn with_files(mut functions: Vec<FunctionProfile>, program: &Program) -> Vec<FunctionProfile> {
    for (i, f) in functions.iter_mut().enumerate() {
        if let Some(func) = program.functions.get(i).filter(|func| func.name == f.name) {
            if let Some(file) = program.files.get(func.file as usize) {
                f.file = file.clone();
            }
        }
    }
    functions
}

/// Runs the loop with probes `P` (the one loop every mode shares, or for a watched run the
/// loop compiled for its probes: [`interp::execute`]), flushing the program's output whatever
/// happens.
pub fn execute<P: Probes>(
    machine: &mut Machine<'_>,
    mut probes: P,
    stdout: &mut dyn Write,
) -> (Result<Exit, Trap>, P) {
    let result = interp::execute(machine, &mut probes, stdout);
    machine.flush(stdout);
    (result, probes)
}

/// The result of a run that could not start: an internal error of the VM.
fn internal_error(file_name: &str, message: &str) -> RunResult {
    RunResult {
        exit_status: EXIT_RUNTIME_ERROR,
        stderr: format!("{file_name}: internal error: {message}\n"),
        profile: None,
        tier_ups: Default::default(),
    }
}

/// The run's result: exit status, stderr text (the mode's warnings, then the trap, then a
/// profile that could not be built), tier-up costs and profile.
fn finish(
    file_name: &str,
    result: Result<Exit, Trap>,
    finished: Finished,
    functions: Option<Result<Vec<FunctionProfile>, String>>,
    options: &RunOptions,
) -> RunResult {
    let mut stderr = String::new();
    for w in &finished.warnings {
        stderr.push_str(&format!("{file_name}: warning: {w}\n"));
    }
    let mut reason = None;
    let (exit_status, complete) = match &result {
        Ok(exit) => (exit.status(), true),
        Err(trap) => {
            let report = trap.render(file_name);
            reason = report.lines().next().map(str::to_string);
            stderr.push_str(&report);
            match trap.kind {
                TrapKind::Interrupted(signal) => (128 + signal, false),
                // As a native program killed by SIGABRT.
                TrapKind::Aborted | TrapKind::Assertion(_) => (128 + SIGABRT, false),
                _ => (EXIT_RUNTIME_ERROR, false),
            }
        }
    };
    let profile = functions.and_then(|functions| match functions {
        Ok(functions) => {
            let s = options.profile;
            let mut p = Profile::new(file_name, s.mode, s.path_ends, s.tier_up, complete);
            p.k = s.k;
            p.reason = reason;
            p.functions = functions;
            Some(p)
        }
        Err(e) => {
            stderr.push_str(&format!("{file_name}: internal error: no profile: {e}\n"));
            None
        }
    });
    RunResult {
        exit_status,
        stderr,
        profile,
        tier_ups: finished.tier_ups,
    }
}
