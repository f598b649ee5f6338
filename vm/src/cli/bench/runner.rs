//! Making the runs of a benchmark, in the order of [`super::schedule`], and turning each into
//! the results: samples, profile statistics, and the failures of cells and programs.
//!
//! Every run is a separate `vmrun` process (what a user runs), started with the mode, the
//! common options and `--stats-out` (tier-ups and their time); the warm-up run of each mode
//! (or with `--quick` its first timed run) also writes its profile, which is read back for
//! the profile statistics. The first `none` run of a program is the reference: every later run
//! must print the same stdout and exit with the same status, or its cell fails as a mismatch
//! (its remaining runs are skipped; the other cells go on). A program whose reference run
//! fails (does not compile, traps, times out) is reported as failed and its other runs are
//! skipped. An interrupt (SIGINT/SIGTERM) stops the benchmark after the run in progress,
//! which is passed the signal and not counted, and leaves the results gathered so far.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use profiler::PathEnds;
use vm::run_stats::RunStats;

use super::check::{difference, Reference};
use super::child::{self, ChildRun, End};
use super::instructions::{self, Counter};
use super::profile_stats::profile_file_stats;
use super::progress::Progress;
use super::results::{Cell, CellStatus, FunctionPaths, ProgramResult, Sample, StaticPaths};
use super::schedule::{schedule, Round, Rounds, Step};
use super::suite::Program;

/// The values of K of the static path counts.
pub const STATIC_KS: std::ops::RangeInclusive<u32> = 1..=5;

/// How the runs are made.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The programs.
    pub programs: Vec<Program>,
    /// The cells of each program, by label: the modes as `--profile` takes them, `none` first
    /// (with `--builds`, `MODE@BUILD`: every mode with every build).
    pub modes: Vec<String>,
    /// Per cell (in the order of `modes`), the mode and the binary it runs.
    pub cells: Vec<CellRun>,
    /// The rounds of each program.
    pub rounds: Rounds,
    /// The time limit of one run (callgrind runs get 100 times as much).
    pub limit: Duration,
    /// `--tier-up` of every run.
    pub tier_up: u64,
    /// `--path-ends` of every run.
    pub path_ends: PathEnds,
    /// How instructions are counted.
    pub counter: Counter,
    /// Where the runs' statistics and profiles are written while running.
    pub scratch: PathBuf,
    /// Where to keep every cell's profile, if anywhere.
    pub keep_profiles: Option<PathBuf>,
    /// `--builds`: the binaries measured side by side (empty: one binary, `vmrun`).
    pub builds: Vec<super::builds::Build>,
    /// The modes without the builds (equal to `modes` without `--builds`).
    pub base_modes: Vec<String>,
    /// The binary measured without `--builds` (and the one named in the results).
    pub vmrun: PathBuf,
}

/// What one cell runs: a mode with a `vmrun` binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRun {
    /// The mode, as `--profile` takes it.
    pub mode: String,
    /// The binary.
    pub vmrun: PathBuf,
}

/// What [`run`] gathered.
pub struct Gathered {
    /// Every program started, in order (the last one partial if interrupted).
    pub programs: Vec<ProgramResult>,
    /// False if an interrupt stopped it.
    pub complete: bool,
}

/// What one program's runs have found so far.
struct ProgramState {
    result: ProgramResult,
    reference: Option<Reference>,
    callgrind: Vec<Option<u64>>,
}

/// Makes every run of `plan`, reporting progress; stops early on an interrupt.
pub fn run(plan: &Plan, progress: &Progress) -> Gathered {
    let steps = schedule(plan.programs.len(), plan.modes.len(), plan.rounds);
    progress.start(steps.len() as u64);
    let mut gathered = Gathered {
        programs: Vec::new(),
        complete: true,
    };
    let mut state: Option<ProgramState> = None;
    for step in &steps {
        if vm::signals::pending() != 0 {
            gathered.complete = false;
            break;
        }
        if state.as_ref().map(|s| s.result.name.as_str())
            != Some(plan.programs[step.program].name.as_str())
        {
            if let Some(done) = state.take() {
                gathered.programs.push(finish_program(done, progress));
            }
            state = Some(start_program(plan, &plan.programs[step.program]));
        }
        let s = state.as_mut().expect("a program is in progress");
        progress.step(&s.result.name, &plan.modes[step.mode], step.round);
        if !run_step(plan, step, s, progress) {
            gathered.complete = false;
            break;
        }
        progress.advance();
    }
    if let Some(done) = state.take() {
        gathered.programs.push(finish_program(done, progress));
    }
    progress.finish(gathered.complete);
    gathered
}

/// A program's results before its first run: its cells, and its static path counts.
fn start_program(plan: &Plan, program: &Program) -> ProgramState {
    ProgramState {
        result: ProgramResult {
            name: program.name.clone(),
            files: program
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            family: program.info.family.clone(),
            loop_heavy: program.info.loop_heavy,
            about: program.info.about.clone(),
            failure: None,
            static_paths: static_paths(program, plan.path_ends),
            cells: plan.modes.iter().map(|m| Cell::new(m)).collect(),
        },
        reference: None,
        callgrind: vec![None; plan.modes.len()],
    }
}

/// The medians of every cell; a cell without runs is marked not run.
fn finish_program(mut s: ProgramState, progress: &Progress) -> ProgramResult {
    for (cell, callgrind) in s.result.cells.iter_mut().zip(&s.callgrind) {
        cell.summarize(*callgrind);
        if cell.runs.is_empty() && cell.status == CellStatus::Ok {
            cell.status = CellStatus::NotRun;
            cell.message = Some(match &s.result.failure {
                Some(_) => "the program failed (see its failure)".to_string(),
                None => "interrupted before it ran".to_string(),
            });
        }
    }
    progress.program_done(&s.result);
    s.result
}

/// The static path counts of a program that compiles (`None` otherwise: the reference run
/// reports why).
fn static_paths(program: &Program, path_ends: PathEnds) -> Option<StaticPaths> {
    let mut files = Vec::new();
    for file in &program.files {
        files.push((
            file.display().to_string(),
            std::fs::read_to_string(file).ok()?,
        ));
    }
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let compiled = lang::compile_sources_with(&pairs, &Default::default()).ok()?;
    let counts =
        vm::modes::kiter::static_counts::static_path_counts(&compiled, STATIC_KS, path_ends)
            .ok()?;
    let functions: Vec<FunctionPaths> = counts
        .iter()
        .map(|c| FunctionPaths {
            name: c.name.clone(),
            line: c.line,
            paths: std::iter::once(c.bl)
                .chain(c.rows.iter().skip(1).map(|r| r.paths))
                .collect(),
            fallback: std::iter::once(!c.bl_fallbacks.is_empty())
                .chain(c.rows.iter().skip(1).map(|r| !r.fallbacks.is_empty()))
                .collect(),
        })
        .collect();
    let ks: Vec<u32> = STATIC_KS.collect();
    let total = (0..ks.len())
        .map(|i| {
            functions
                .iter()
                .fold(0u64, |acc, f| acc.saturating_add(f.paths[i]))
        })
        .collect();
    Some(StaticPaths {
        k: ks,
        total,
        functions,
    })
}

/// Makes one run and records it; false if the benchmark was interrupted during it.
fn run_step(plan: &Plan, step: &Step, s: &mut ProgramState, progress: &Progress) -> bool {
    let program = &plan.programs[step.program];
    let mode = &plan.modes[step.mode];
    if s.result.failure.is_some() || s.result.cells[step.mode].status != CellStatus::Ok {
        return true;
    }
    let cell_run = &plan.cells[step.mode];
    let writes_profile = cell_run.mode != "none"
        && match step.round {
            Round::Warmup => true,
            Round::Timed(1) => !plan.rounds.warmup,
            _ => false,
        };
    let files = RunFiles::new(&plan.scratch, plan.keep_profiles.as_deref(), program, mode);
    files.clear(writes_profile);
    let command = command(
        plan,
        step.round,
        cell_run,
        &program.files,
        &files,
        writes_profile,
    );
    let limit = match step.round {
        Round::Callgrind => plan.limit * 100,
        _ => plan.limit,
    };
    let ran = match child::run(command, limit) {
        Ok(ran) => ran,
        Err(e) => {
            let cell = &mut s.result.cells[step.mode];
            cell.fail(CellStatus::Failed, e);
            progress.failure(&s.result.name, mode, cell.message.as_deref().unwrap_or(""));
            return true;
        }
    };
    if ran.end == End::Interrupted {
        return false;
    }
    let round = round_name(step.round);
    if s.reference.is_none() {
        // The first run of the program is `none`'s (it comes first in every round).
        match reference_of(&ran, plan.limit) {
            Ok(reference) => s.reference = Some(reference),
            Err(why) => {
                progress.failure(&s.result.name, mode, &why);
                s.result.failure = Some(why);
                return true;
            }
        }
    }
    let reference = s.reference.as_ref().expect("set above");
    let cell = &mut s.result.cells[step.mode];
    if let Some(problem) = run_problem(&ran, reference, plan.limit) {
        let (status, what) = problem;
        cell.fail(status, format!("{round} run: {what}"));
        progress.failure(&s.result.name, mode, cell.message.as_deref().unwrap_or(""));
        return true;
    }
    if cell.message.is_none() && !ran.stderr.trim().is_empty() {
        cell.message = Some(ran.stderr_line().to_string());
    }
    match step.round {
        Round::Callgrind => {
            let log = std::fs::read_to_string(&files.log).unwrap_or_default();
            match instructions::parse_callgrind(&log) {
                Some(n) => s.callgrind[step.mode] = Some(n),
                None => cell.fail(
                    CellStatus::Failed,
                    "callgrind run: no instruction count in valgrind's log".into(),
                ),
            }
        }
        Round::Warmup | Round::Timed(_) => {
            let stats = std::fs::read_to_string(&files.stats)
                .map_err(|e| e.to_string())
                .and_then(|t| RunStats::from_json(&t));
            let stats = match stats {
                Ok(stats) => stats,
                Err(e) => {
                    cell.fail(
                        CellStatus::Failed,
                        format!("{round} run: no run statistics: {e}"),
                    );
                    return true;
                }
            };
            if writes_profile {
                match profile_file_stats(&files.profile) {
                    Ok(stats) => cell.profile = Some(stats),
                    Err(e) => {
                        cell.fail(CellStatus::Failed, format!("{round} run: no profile: {e}"));
                        return true;
                    }
                }
            }
            if step.round == Round::Warmup {
                cell.profile_run_seconds = Some(ran.wall.as_secs_f64());
                return true;
            }
            let instructions = match plan.counter {
                Counter::Perf => std::fs::read_to_string(&files.perf)
                    .ok()
                    .and_then(|t| instructions::parse_perf(&t)),
                _ => None,
            };
            cell.runs.push(Sample {
                wall_seconds: ran.wall.as_secs_f64(),
                cpu_seconds: ran.cpu.as_secs_f64(),
                max_rss_kib: stats.max_rss_kib,
                instructions,
                tier_ups: stats.tier_ups,
                tier_up_seconds: stats.tier_up_seconds,
            });
        }
    }
    true
}

/// The reference of a program from its first `none` run, or why the program cannot be
/// measured.
fn reference_of(ran: &ChildRun, limit: Duration) -> Result<Reference, String> {
    let detail = |what: String| match ran.stderr_line() {
        "" => what,
        line => format!("{what}: {line}"),
    };
    match ran.end {
        End::TimedOut => Err(format!(
            "none run went past the time limit of {} s",
            limit.as_secs_f64()
        )),
        End::Signaled(signal) => Err(detail(format!("none run killed by signal {signal}"))),
        End::Interrupted => Err("interrupted".into()),
        _ if ran.stdout_overflow => Err(format!(
            "none run printed more than {} MiB",
            child::OUTPUT_CAP >> 20
        )),
        End::Exited(status) => {
            let vm_failure = matches!(
                status,
                vm::EXIT_USAGE
                    | vm::EXIT_COMPILE_ERROR
                    | vm::EXIT_NO_INPUT
                    | vm::EXIT_RUNTIME_ERROR
            ) && !ran.stderr.trim().is_empty();
            if vm_failure {
                Err(detail(format!("none run exited with status {status}")))
            } else {
                Ok(Reference {
                    stdout: ran.stdout.clone(),
                    status,
                })
            }
        }
    }
}

/// What is wrong with a run compared with the reference, if anything: the cell's status and
/// a message.
fn run_problem(
    ran: &ChildRun,
    reference: &Reference,
    limit: Duration,
) -> Option<(CellStatus, String)> {
    let status = match ran.end {
        End::TimedOut => {
            return Some((
                CellStatus::Timeout,
                format!("went past the time limit of {} s", limit.as_secs_f64()),
            ))
        }
        End::Signaled(signal) => 128 + signal,
        End::Exited(status) => status,
        End::Interrupted => return None,
    };
    if ran.stdout_overflow {
        return Some((
            CellStatus::Mismatch,
            format!("printed more than {} MiB", child::OUTPUT_CAP >> 20),
        ));
    }
    let diff = difference(reference, &ran.stdout, status)?;
    let message = match ran.stderr_line() {
        "" => diff,
        line if status != reference.status => format!("{diff} ({line})"),
        _ => diff,
    };
    Some((CellStatus::Mismatch, message))
}

fn round_name(round: Round) -> String {
    match round {
        Round::Warmup => "warm-up".to_string(),
        Round::Timed(n) => format!("timed #{n}"),
        Round::Callgrind => "callgrind".to_string(),
    }
}

/// The files a run writes.
struct RunFiles {
    stats: PathBuf,
    profile: PathBuf,
    perf: PathBuf,
    log: PathBuf,
}

impl RunFiles {
    /// Removes what an earlier run left, so that a run that writes nothing is not credited
    /// with another's statistics or profile (a kept profile stays unless this run writes
    /// it again).
    fn clear(&self, writes_profile: bool) {
        for f in [&self.stats, &self.perf, &self.log] {
            let _ = std::fs::remove_file(f);
        }
        if writes_profile {
            let _ = std::fs::remove_file(&self.profile);
        }
    }

    fn new(scratch: &Path, keep: Option<&Path>, program: &Program, mode: &str) -> Self {
        let profile_name = format!("{}.{}.json", program.name, mode.replace([':', '@'], "-"));
        RunFiles {
            stats: scratch.join("stats.json"),
            profile: keep.unwrap_or(scratch).join(profile_name),
            perf: scratch.join("perf.txt"),
            log: scratch.join("callgrind.log"),
        }
    }
}

/// The command of one run: the cell's `vmrun` (under perf or callgrind as the round needs)
/// with its mode, the common options, the statistics file, the profile file if it writes one, and
/// the program's files.
fn command(
    plan: &Plan,
    round: Round,
    cell: &CellRun,
    files: &[PathBuf],
    out: &RunFiles,
    writes_profile: bool,
) -> Command {
    let vmrun = &cell.vmrun;
    let mut c = match (round, &plan.counter) {
        (Round::Callgrind, _) => instructions::callgrind_command(vmrun, &out.log),
        (Round::Timed(_), Counter::Perf) => instructions::perf_command(vmrun, &out.perf),
        _ => Command::new(vmrun),
    };
    c.arg(format!("--profile={}", cell.mode))
        .arg(format!("--tier-up={}", plan.tier_up))
        .arg(format!("--path-ends={}", plan.path_ends));
    if round != Round::Callgrind {
        c.arg("--stats-out").arg(&out.stats);
    }
    if writes_profile {
        c.arg("--profile-out").arg(&out.profile);
    }
    c.arg("--").args(files);
    c
}
