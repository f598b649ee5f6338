//! Running a compiled program under a profiling mode: picks the mode's probe type once, runs
//! the monomorphised loop, and turns what the probes gathered into a [`Profile`], whether the
//! run finished, trapped or was interrupted.

use std::io::Write;

use lang::bytecode::Program;

use crate::interp::{self, Exit, Machine};
use crate::modes::bl::{BlCounts, BlProbes, TierSettings};
use crate::modes::edge::EdgeProbes;
use crate::modes::trace::TraceProbes;
use crate::probes::{NoProbes, Probes};
use crate::profile::{FunctionProfile, Mode, Profile};
use crate::tier::cfg_build::FunctionCfg;
use crate::tier::tiering::TierUpStats;
use crate::trap::{Trap, TrapKind};
use crate::{RunOptions, RunResult, EXIT_RUNTIME_ERROR};

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
    if let Err(e) = lang::bytecode::verify::verify(program) {
        return internal_error(file_name, &e.to_string());
    }
    let settings = options.profile;
    let tiering = TierSettings {
        threshold: settings.tier_up,
        path_ends: settings.path_ends,
    };
    let mut machine = Machine::new(program, options.max_depth);
    let m = &mut machine;
    let run = match settings.mode {
        Mode::None => {
            let (result, _) = execute(m, NoProbes, stdout);
            return finish(file_name, SinkRun::without_profile(result), None);
        }
        Mode::Edge => {
            let probes = EdgeProbes::new(program, m.branch_counts().clone());
            let (result, _) = execute(m, probes, stdout);
            SinkRun {
                result,
                warnings: Vec::new(),
                tier_ups: TierUpStats::default(),
                functions: Box::new(|| untiered_profiles(program, options)),
            }
        }
        Mode::Bl => {
            let counts = m.branch_counts().clone();
            let probes = BlProbes::new(program, tiering, BlCounts::default(), counts);
            let (result, probes) = execute(m, probes, stdout);
            SinkRun {
                result,
                warnings: probes.warnings().to_vec(),
                tier_ups: probes.tier_up_stats(),
                functions: Box::new(move || {
                    let counts = probes.sink.by_function(program.functions.len());
                    probes.function_profiles(&counts)
                }),
            }
        }
        Mode::Kiter => match crate::modes::kiter::run(m, program, &settings, stdout) {
            Ok(run) => run,
            Err(e) => return internal_error(file_name, &e),
        },
        Mode::Kbl => crate::modes::kbl::run(m, program, &settings, stdout),
        Mode::Trace => match TraceProbes::new(program, settings.path_ends) {
            Ok(probes) => {
                let (result, mut probes) = execute(m, probes, stdout);
                probes.close_unfinished();
                let mut warnings = probes.errors.clone();
                warnings.truncate(20);
                SinkRun {
                    result,
                    warnings,
                    tier_ups: TierUpStats::default(),
                    functions: Box::new(move || probes.function_profiles()),
                }
            }
            Err(e) => return internal_error(file_name, &format!("cannot instrument: {e}")),
        },
    };
    finish(file_name, run, Some(options))
}

/// The result of a run that could not start: an internal error of the VM.
fn internal_error(file_name: &str, message: &str) -> RunResult {
    RunResult {
        exit_status: EXIT_RUNTIME_ERROR,
        stderr: format!("{file_name}: internal error: {message}\n"),
        profile: None,
        tier_ups: TierUpStats::default(),
    }
}

/// Runs the loop with probes `P`, flushing the program's output whatever happens.
pub fn execute<P: Probes>(
    machine: &mut Machine<'_>,
    mut probes: P,
    stdout: &mut dyn Write,
) -> (Result<Exit, Trap>, P) {
    let result = interp::execute(machine, &mut probes, stdout);
    machine.flush(stdout);
    (result, probes)
}

/// The profiles of a mode that never instruments: every function with its blocks, no paths.
fn untiered_profiles(
    program: &Program,
    options: &RunOptions,
) -> Result<Vec<FunctionProfile>, String> {
    program
        .functions
        .iter()
        .map(|func| {
            let fc = FunctionCfg::of_function(func)
                .map_err(|e| format!("function {}: {e}", func.name))?;
            Ok(FunctionProfile::not_tiered(
                &func.name,
                func.loc.line,
                &fc,
                options.profile.path_ends,
            ))
        })
        .collect()
}

/// Assembles the functions' profiles (only called when the profile is wanted).
pub type ProfileBuilder<'a> = Box<dyn FnOnce() -> Result<Vec<FunctionProfile>, String> + 'a>;

/// What a mode's run gives back: how the program ended, the profiler's warnings, what tiering
/// cost, and how to build the profile.
pub struct SinkRun<'a> {
    /// How the program ended.
    pub result: Result<Exit, Trap>,
    /// The profiler's warnings (a function it could not instrument), one line each.
    pub warnings: Vec<String>,
    /// The tier-ups done and their time.
    pub tier_ups: TierUpStats,
    /// Builds the functions' profiles (called only when the profile is wanted).
    pub functions: ProfileBuilder<'a>,
}

impl SinkRun<'_> {
    /// The run of a mode that profiles nothing (`none`).
    fn without_profile(result: Result<Exit, Trap>) -> Self {
        SinkRun {
            result,
            warnings: Vec::new(),
            tier_ups: TierUpStats::default(),
            functions: Box::new(|| Ok(Vec::new())),
        }
    }
}

/// The run's result: exit status, stderr text, tier-up costs and profile (if `options` asks
/// for one).
fn finish(file_name: &str, run: SinkRun<'_>, options: Option<&RunOptions>) -> RunResult {
    let mut stderr = String::new();
    for w in &run.warnings {
        stderr.push_str(&format!("{file_name}: warning: {w}\n"));
    }
    let (exit_status, complete) = match &run.result {
        Ok(exit) => (exit.status(), true),
        Err(trap) => {
            stderr.push_str(&trap.render(file_name));
            match trap.kind {
                TrapKind::Interrupted(signal) => (128 + signal, false),
                _ => (EXIT_RUNTIME_ERROR, false),
            }
        }
    };
    let profile = options
        .filter(|options| options.collect_profile)
        .and_then(|options| match (run.functions)() {
            Ok(functions) => {
                let s = options.profile;
                let mut p = Profile::new(file_name, s.mode, s.path_ends, s.tier_up, complete);
                p.k = s.k;
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
        tier_ups: run.tier_ups,
    }
}
