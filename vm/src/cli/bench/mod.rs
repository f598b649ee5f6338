//! `vmrun bench [PATH...]`: runs a suite of programs under every profiling mode, checks that
//! profiling changed nothing the programs print, and writes the overheads, the profiles'
//! statistics and the papers' figures (`docs/bench.md`); `vmrun bench --compare OLD NEW`
//! compares two such runs.
//!
//! The parts, in the order a run goes through them:
//! - [`suite`]: which programs the PATHs name, and the manifest that marks them loop-heavy;
//! - [`schedule`]: the order of the runs, modes interleaved run by run;
//! - [`runner`] (with [`child`], [`check`], [`instructions`], [`profile_stats`],
//!   [`progress`]): making each run as a separate process and recording it;
//! - [`results`]: the data model of `results.json`; [`machine`]: where and when;
//! - [`csv_file`], [`report`] (with [`table`]), [`figures`] and [`charts`]: the outputs;
//! - [`compare`], for `--compare`; [`builds`], for `--builds` (the same suite with several
//!   binaries, to tell the build's part in a cost from the profiler's).

mod builds;
mod charts;
mod check;
mod child;
mod compare;
mod csv_file;
mod figures;
mod instructions;
mod machine;
mod profile_stats;
mod progress;
mod report;
mod results;
mod runner;
mod schedule;
mod suite;
mod table;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use profiler::PathEnds;

use self::instructions::{Counter, InstructionsArg};
use self::results::{BenchResults, Settings};
use self::schedule::Rounds;
use super::ModeSpec;

/// The modes measured when `--modes` is not given.
pub const DEFAULT_MODES: &str =
    "none,edge,bl,kiter:2,kiter:3,kbl:2,kbl:4,kbl:8,kbl:16,ol:1,ol:2,ipp:context,ipp:piecewise";

/// The suite measured when no PATH is given.
pub const DEFAULT_SUITE: &str = "programs/bench";

/// Arguments of `vmrun bench`.
#[derive(Args, Debug)]
#[command(after_long_help = "\
Every run is a separate vmrun process, the modes interleaved run by run (none bl kbl:8 none bl \
kbl:8 ...) after one untimed warm-up round that also writes each mode's profile. Every run's \
stdout and exit status must equal the program's none run: a difference fails that cell, not the \
benchmark. Ctrl-C stops after the run in progress and writes what was gathered. Outputs in \
--out: results.json, results.csv, report.md and one SVG chart per figure; the summary is \
printed. Exit status: 0, 1 if a program or cell failed, 2 usage error, 130/143 interrupted \
(results written). --compare OLD NEW compares two runs; --render RESULTS redraws a run's report \
and charts. Details: docs/bench.md.")]
pub struct BenchArgs {
    /// Programs to run: a program file, or a directory whose .c files are programs and whose
    /// subdirectories holding .c files are programs of several files (default:
    /// programs/bench).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The profiling modes, comma-separated (`none` is always run, first: it is the reference).
    #[arg(long, value_name = "LIST", default_value = DEFAULT_MODES)]
    pub modes: String,
    /// Timed runs per program and mode (the median is reported).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// The directory the results are written to (created if needed).
    #[arg(long, value_name = "DIR", default_value = "bench-results")]
    pub out: PathBuf,
    /// A first look: one timed run per cell and no warm-up round (the timed run also writes
    /// the profile, so its time includes writing it).
    #[arg(long)]
    pub quick: bool,
    /// The time limit of one run, in seconds (a run past it is killed and its cell fails).
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub timeout: f64,
    /// How to count instructions: `auto` (perf stat if the machine has the counter), `perf`,
    /// `callgrind` (an extra, exact but ~50x slower round) or `off`.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = InstructionsArg::Auto)]
    pub instructions: InstructionsArg,
    /// `--tier-up` of every run.
    #[arg(long, value_name = "N", default_value_t = vm::DEFAULT_TIER_UP)]
    pub tier_up: u64,
    /// `--path-ends` of every run: `header` or `backedge`.
    #[arg(long, value_name = "STRATEGY", default_value = "header", value_parser = parse_path_ends)]
    pub path_ends: PathEnds,
    /// The vmrun binary to measure (default: this one), e.g. a saved build to compare with.
    #[arg(long, value_name = "FILE")]
    pub vmrun: Option<PathBuf>,
    /// Measure several vmrun binaries side by side, every mode with every build, interleaved
    /// run by run: NAME=FILE,NAME=FILE,... Each build's results go to OUT/NAME/, and
    /// OUT/builds.md gives each mode's cost per build and its spread across builds (builds of
    /// one source whose code layout differs: scripts/layout-builds.sh).
    #[arg(long, value_name = "LIST", conflicts_with_all = ["vmrun", "compare", "render"])]
    pub builds: Option<String>,
    /// Keep every mode's profile in DIR/profiles/PROGRAM.MODE.json.
    #[arg(long)]
    pub keep_profiles: bool,
    /// Compare two results.json files (before and after a change) instead of running.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"], conflicts_with_all = ["paths", "quick", "keep_profiles", "render"])]
    pub compare: Option<Vec<PathBuf>>,
    /// Write report.md, results.csv and the charts again into --out from a results.json,
    /// without running anything (after a change to how they are drawn).
    #[arg(long, value_name = "RESULTS", conflicts_with_all = ["paths", "quick", "keep_profiles"])]
    pub render: Option<PathBuf>,
}

fn parse_path_ends(s: &str) -> Result<PathEnds, String> {
    s.parse()
}

/// Runs `vmrun bench`; returns the exit status.
pub fn run(args: &BenchArgs) -> i32 {
    if let Some(files) = &args.compare {
        return run_compare(&files[0], &files[1]);
    }
    if let Some(file) = &args.render {
        return run_render(file, &args.out);
    }
    match prepare(args) {
        Ok(plan) => measure(args, plan),
        Err(message) => {
            eprintln!("vmrun bench: {message}");
            vm::EXIT_USAGE
        }
    }
}

fn run_compare(old: &Path, new: &Path) -> i32 {
    match (BenchResults::read_file(old), BenchResults::read_file(new)) {
        (Ok(o), Ok(n)) => super::print_output(&compare::render(
            &old.display().to_string(),
            &new.display().to_string(),
            &o,
            &n,
        )),
        (Err((status, message)), _) | (_, Err((status, message))) => {
            eprintln!("{message}");
            status
        }
    }
}

/// `--render`: the outputs of a saved run, written again.
fn run_render(file: &Path, out: &Path) -> i32 {
    let results = match BenchResults::read_file(file) {
        Ok(r) => r,
        Err((status, message)) => {
            eprintln!("{message}");
            return status;
        }
    };
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("vmrun bench: cannot create {}: {e}", out.display());
        return 1;
    }
    match write_outputs(out, &results, false) {
        Ok(written) => {
            eprintln!("Written in {}: {}", out.display(), written.join(", "));
            0
        }
        Err(e) => {
            eprintln!("vmrun bench: {e}");
            1
        }
    }
}

/// The modes of `--modes`, checked, without repeats, `none` first.
fn parse_modes(list: &str) -> Result<Vec<String>, String> {
    let mut modes = vec!["none".to_string()];
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let spec: ModeSpec = super::parse_mode(item).map_err(|e| format!("--modes: {e}"))?;
        let name = spec.to_string();
        if !modes.contains(&name) {
            modes.push(name);
        }
    }
    Ok(modes)
}

/// Everything a run needs, checked before the first run.
fn prepare(args: &BenchArgs) -> Result<runner::Plan, String> {
    let modes = parse_modes(&args.modes)?;
    let paths = if args.paths.is_empty() {
        let suite = PathBuf::from(DEFAULT_SUITE);
        if !suite.is_dir() {
            return Err(format!(
                "no PATH given and there is no {DEFAULT_SUITE} here: give the programs to run"
            ));
        }
        vec![suite]
    } else {
        args.paths.clone()
    };
    let programs = suite::discover(&paths)?;
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(format!(
            "--timeout must be a positive number of seconds, not {}",
            args.timeout
        ));
    }
    let counter =
        instructions::choose(args.instructions).map_err(|e| format!("--instructions: {e}"))?;
    let builds = match &args.builds {
        Some(list) => builds::parse(list)?,
        None => Vec::new(),
    };
    let vmrun = match &args.vmrun {
        Some(p) if p.is_file() => p.clone(),
        Some(p) => return Err(format!("--vmrun {}: no such file", p.display())),
        None => {
            std::env::current_exe().map_err(|e| format!("cannot find this vmrun binary: {e}"))?
        }
    };
    let (labels, cells) = if builds.is_empty() {
        let cells = modes
            .iter()
            .map(|m| runner::CellRun {
                mode: m.clone(),
                vmrun: vmrun.clone(),
            })
            .collect();
        (modes.clone(), cells)
    } else {
        let mut labels = Vec::new();
        let mut cells = Vec::new();
        for m in &modes {
            for b in &builds {
                labels.push(builds::cell_label(m, &b.name));
                cells.push(runner::CellRun {
                    mode: m.clone(),
                    vmrun: b.vmrun.clone(),
                });
            }
        }
        (labels, cells)
    };
    let runs = if args.quick { 1 } else { args.runs };
    let scratch = std::env::temp_dir().join(format!("vmrun-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let keep_profiles = if args.keep_profiles {
        let dir = args.out.join("profiles");
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Some(dir)
    } else {
        None
    };
    Ok(runner::Plan {
        programs,
        modes: labels,
        cells,
        rounds: Rounds {
            warmup: !args.quick,
            timed: runs,
            callgrind: counter == Counter::Callgrind,
        },
        limit: Duration::from_secs_f64(args.timeout),
        tier_up: args.tier_up,
        path_ends: args.path_ends,
        counter,
        scratch,
        keep_profiles,
        builds,
        base_modes: modes,
        vmrun,
    })
}

/// Makes the runs of `plan`, writes the outputs and prints the summary.
fn measure(args: &BenchArgs, plan: runner::Plan) -> i32 {
    if let Err(e) = vm::signals::install() {
        eprintln!("vmrun bench: warning: {e} (Ctrl-C will not keep partial results)");
    }
    let date = machine::now_rfc3339();
    let commit = machine::current_commit();
    let host = machine::this_machine();
    let started = Instant::now();
    let progress = progress::Progress::new(plan.programs.len(), true);
    let gathered = runner::run(&plan, &progress);
    let _ = std::fs::remove_dir_all(&plan.scratch);
    let instructions_note = match &plan.counter {
        Counter::Unavailable(why) => Some(why.clone()),
        _ => None,
    };
    let results = BenchResults {
        format: results::FORMAT.into(),
        version: results::VERSION,
        date,
        command_line: std::env::args().collect(),
        machine: host,
        commit,
        vmrun: plan.vmrun.display().to_string(),
        settings: Settings {
            modes: plan.modes.clone(),
            runs: plan.rounds.timed,
            warmup: plan.rounds.warmup,
            timeout_seconds: plan.limit.as_secs_f64(),
            tier_up: plan.tier_up,
            path_ends: plan.path_ends.to_string(),
            instructions: plan.counter.name().into(),
            instructions_note,
        },
        complete: gathered.complete,
        duration_seconds: started.elapsed().as_secs_f64(),
        programs: gathered.programs,
    };
    let mut status = 0;
    if !plan.builds.is_empty() {
        status = write_builds(&args.out, &plan, &results);
    } else {
        match write_outputs(&args.out, &results, true) {
            Ok(written) => {
                super::print_output(&report::terminal(&results));
                eprintln!("Results in {}: {}", args.out.display(), written.join(", "));
            }
            Err(e) => {
                eprintln!("vmrun bench: {e}");
                status = 1;
            }
        }
    }
    let failed = results.programs.iter().any(|p| {
        p.failure.is_some()
            || p.cells.iter().any(|c| {
                !matches!(
                    c.status,
                    results::CellStatus::Ok | results::CellStatus::NotRun
                )
            })
    });
    if failed {
        status = status.max(1);
    }
    match vm::signals::pending() {
        0 => status,
        signal => 128 + signal,
    }
}

/// `--builds`: each build's results written as a run of its own, then `builds.md`; 1 if
/// something could not be written.
fn write_builds(out: &Path, plan: &runner::Plan, all: &BenchResults) -> i32 {
    let mut status = 0;
    let per_build: Vec<BenchResults> = plan
        .builds
        .iter()
        .map(|b| builds::split(all, &plan.base_modes, b))
        .collect();
    for (build, results) in plan.builds.iter().zip(&per_build) {
        let dir = builds::dir(out, build);
        let written = std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))
            .and_then(|()| write_outputs(&dir, results, true));
        if let Err(e) = written {
            eprintln!("vmrun bench: {e}");
            status = 1;
        }
    }
    let text = builds::markdown(&plan.builds, &per_build, &plan.base_modes);
    let path = out.join("builds.md");
    match std::fs::write(&path, &text) {
        Ok(()) => {
            super::print_output(&text);
            eprintln!(
                "Results in {}: builds.md and one directory per build",
                out.display()
            );
        }
        Err(e) => {
            eprintln!("vmrun bench: cannot write {}: {e}", path.display());
            status = 1;
        }
    }
    status
}

/// Writes results.json (if `with_json`), results.csv, report.md and the charts into `dir`;
/// the names written.
fn write_outputs(
    dir: &Path,
    results: &BenchResults,
    with_json: bool,
) -> Result<Vec<String>, String> {
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let mut written = Vec::new();
    if with_json {
        write("results.json", &results.to_json())?;
        written.push("results.json".to_string());
    }
    write("results.csv", &csv_file::render(results)?)?;
    written.push("results.csv".to_string());
    let mut charts = Vec::new();
    for figure in figures::figures(results) {
        match charts::render(&figure) {
            Ok(svg) => {
                write(figure.file, &svg)?;
                charts.push(figure.file.to_string());
            }
            Err(e) => eprintln!("vmrun bench: chart {} not drawn: {e}", figure.file),
        }
    }
    write("report.md", &report::markdown(results, &charts))?;
    written.push("report.md".to_string());
    written.push(format!("{} charts", charts.len()));
    Ok(written)
}
