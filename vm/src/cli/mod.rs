//! The `vmrun` command line (clap derive).
//!
//! `vmrun [OPTIONS] FILE...` runs a program (one or more C files, each its own translation
//! unit, linked into one program); subcommands inspect it (`vmrun disasm FILE...`).
//! Exit statuses: the program's own (0..=255), or 2 for a usage error, 65 when the program does
//! not compile, 66 when the file cannot be read, 70 after a runtime error.

mod bench;
mod cfg;
mod disasm;
mod explain;
mod forest;
mod overlap_precision;
mod paths;
mod preprocess_args;
mod report_cmd;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};
use profiler::PathEnds;
use vm::profile::annotate::{self, AnnotateOptions, CodeLines};
use vm::profile::report::{self, ReportOptions};
use vm::run_stats::RunStats;
use vm::{
    Mode, ProfileSettings, RunOptions, DEFAULT_MAX_DEPTH, DEFAULT_TIER_UP, EXIT_COMPILE_ERROR,
    EXIT_NO_INPUT,
};

/// Run C-subset programs on a register bytecode VM.
///
/// `vmrun prog.src` compiles and runs a program (the extension does not matter) and exits with
/// its status; `vmrun a.c b.c` compiles each file as its own translation unit and links them
/// (`static` names are private to their file, `extern` declarations name another file's
/// definitions). Exit statuses of the VM itself: 2 usage error, 65 compile error (diagnostics on
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
    /// The program to run: one or more C-subset source files (any extension), each compiled
    /// as its own translation unit (own preprocessing with the same -D/-U/-I, own file scope)
    /// and linked into one program.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Maximum number of active calls, `main` included; a deeper call stops the program with a
    /// runtime error.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    max_depth: u32,
    /// The most instructions the program may execute: the run stops with a runtime error
    /// before the basic block that would take it past N (the instructions a profiling mode
    /// adds are not counted, so N stops every mode at the same place). Without it, no limit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,
    /// The most memory the run may use in all: the program's globals, array stack and
    /// `malloc` heap, and the profile's structures (path tables, the k-slab forest, counters),
    /// in bytes or with a suffix `K`, `M` or `G` (powers of 1024), at most 4G; a run that needs
    /// more stops with a runtime error naming the limit, and writes its output and its profile
    /// so far.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    max_memory: u32,
    /// The size of the array stack, where the local arrays, structures and addressed locals
    /// of the active calls live (`K`, `M`, `G` suffixes as for --max-memory); a call whose
    /// locals do not fit stops the program with a runtime error.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    stack_size: u32,
    /// Profiling mode: `none` (the pure interpreter), `edge` (edge counts of every function that
    /// tiers up: chords of a spanning tree counted, the rest by flow conservation), `bl` (Ball-Larus path counts of every function that tiers up), `trace` (every
    /// block entered; paths counted by definition; slow, for tests and teaching), `kbl:K`
    /// (k-BLPP: every sequence of up to K consecutive Ball-Larus paths, in a k-slab forest),
    /// `kiter:K` (Roy & Srikant's k-iteration paths), `ol:K` (Tallam et al.'s overlapping
    /// paths: each path cut by a back edge with the blocks after it up to the (K + 1)-th
    /// predicate, K from 0 to 32).
    #[arg(long, value_name = "MODE", default_value = "none", value_parser = parse_mode)]
    profile: ModeSpec,
    /// A function is instrumented once its heat (calls plus loop iterations) exceeds N; 0
    /// instruments every function before it first runs. Running frames switch to the
    /// instrumented code at their next loop iteration (on-stack replacement). `trace` always
    /// instruments everything.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TIER_UP)]
    tier_up: u64,
    /// Where paths end: `header` (at every arrival at a loop header: the Jikes RVM yield-point
    /// strategy) or `backedge` (only at loop back edges, Ball-Larus).
    #[arg(long, value_name = "STRATEGY", default_value = "header", value_parser = parse_path_ends)]
    path_ends: PathEnds,
    /// Write the profile as JSON (docs/profile-format.md) to FILE; also after a runtime error
    /// or an interrupt (then marked `"complete": false`).
    #[arg(long, value_name = "FILE")]
    profile_out: Option<PathBuf>,
    /// Write the run's statistics as JSON to FILE: exit status, tier-ups and the time they
    /// took, run time and peak memory (docs/profile-format.md, "Run statistics"); `vmrun
    /// bench` reads them.
    #[arg(long, value_name = "FILE")]
    stats_out: Option<PathBuf>,
    /// Print the human report (hot paths per function as source lines) to stderr, or with
    /// `--report=FILE` to FILE.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "-"
    )]
    report: Option<PathBuf>,
    /// Print the program's source annotated with the profile (per line: how many times it
    /// ran, the share of its function's paths through it, which of the `--top` hottest paths
    /// run through it) to stderr, or with `--annotate=FILE` to FILE; needs a mode that counts
    /// paths (`bl`, `trace`, `kiter:K`, `kbl:K`; docs/profile-format.md, "Annotated source").
    #[arg(
        long,
        value_name = "FILE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "-"
    )]
    annotate: Option<PathBuf>,
    /// The most paths the report lists per function (0: all); with `--annotate`, the hot
    /// paths lettered per function (at most 26).
    #[arg(long, value_name = "N", default_value_t = ReportOptions::default().top)]
    top: usize,
    /// `kbl` reports: prune k-IPF nodes below this percentage of their root's count (and
    /// leave out trees whose root has less than this share of the function's paths).
    #[arg(long, value_name = "PERCENT", default_value_t = ReportOptions::default().min_share, value_parser = parse_min_share)]
    min_share: f64,
    /// `kbl` only: keep the k-slab forest within N nodes (at least 2) by pruning its coldest
    /// subtrees when it reaches N (their counts are kept in a spill of N tails, the nodes'
    /// last K labels, and 4N sequences); counts stay exact unless the spill overflows, and
    /// then the profile marks the function's counts as lower bounds (`lost_at_most`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(2..))]
    max_nodes: Option<u64>,
    /// Print the run's first N probe events to stderr as they happen: each CFG edge taken
    /// (with its source lines and the path register after it), each path id emitted with its
    /// blocks and lines, tier-ups, on-stack replacements, and what the mode does with each
    /// (k-iteration counters, the k-slab forest's cursor and size). Best with `--tier-up 0`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    watch: Option<u64>,
    #[command(flatten)]
    preprocess: preprocess_args::PreprocessArgs,
}

/// A size in bytes: a number with an optional suffix `K`, `M` or `G` (powers of 1024), below
/// 4 GiB.
fn parse_size(s: &str) -> Result<u32, String> {
    let (digits, unit) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&s[..i], c.to_ascii_uppercase()),
        _ => (s, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        _ => return Err(format!("'{s}': the size's unit must be K, M or G")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("'{s}' is not a size (a number of bytes, or with K, M or G)"))?;
    let bytes = n.checked_shl(shift).filter(|&b| b >> shift == n);
    match bytes {
        // Up to the 4 GiB of 32-bit addresses, of which the VM uses all but the last 64 KiB.
        Some(b) if b <= 1 << 32 => Ok(b.min(u64::from(vm::memory::MAX_MEMORY)) as u32),
        _ => Err(format!("'{s}' is more than the 4G the VM can address")),
    }
}

pub(crate) fn parse_min_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a percentage between 0 and 100")),
    }
}

/// A `--profile` value: the mode and its `K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeSpec {
    mode: Mode,
    k: u32,
}

impl std::fmt::Display for ModeSpec {
    /// The `--profile` value: `bl`, `kbl:8`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&vm::modes::table::spec_name(self.mode, self.k))
    }
}

/// Parses a `--profile` value (`none`, `bl`, `kbl:8`, ...).
pub(crate) fn parse_mode(s: &str) -> Result<ModeSpec, String> {
    let (mode, k) = vm::modes::table::parse_spec(s)?;
    Ok(ModeSpec { mode, k })
}

fn parse_path_ends(s: &str) -> Result<PathEnds, String> {
    s.parse()
}

/// Parses `N` or an inclusive range `A..B` (also `A..=B`) into `(A, B)` with `A <= B`;
/// `example` shows a valid range in the messages.
pub(crate) fn parse_u32_range(s: &str, example: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| -> Result<u32, String> {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{t}' is not a number (expected N or A..B, e.g. {example})"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = num(s)?;
            (n, n)
        }
    };
    if a > b {
        return Err(format!("the range {a}..{b} is empty: {a} > {b}"));
    }
    Ok((a, b))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print each function's bytecode with basic blocks (`bN:`) and source locations.
    Disasm(disasm::DisasmArgs),
    /// Path profiling on control-flow graphs given as text (see `vmrun cfg --help`).
    Cfg(cfg::CfgArgs),
    /// k-BLPP on a raw stream of Ball-Larus path ids: the k-slab forest and the k-iteration
    /// path forest (see `vmrun forest --help`).
    Forest(forest::ForestArgs),
    /// Static path counts of every function of a program: Ball-Larus and k-iteration paths for
    /// each K of a range (see `vmrun paths --help`).
    Paths(paths::PathsArgs),
    /// Every step from source to hot paths for each function (CFG, loops, DAG, numPaths,
    /// values, spanning tree, probes, path ids; Roy & Srikant's table for K > 1), as text,
    /// Graphviz, SVG or a self-contained web page (see `vmrun explain --help`).
    Explain(explain::ExplainArgs),
    /// Run a benchmark suite under every profiling mode: overheads, profile statistics and the
    /// papers' figures (see `vmrun bench --help`).
    Bench(bench::BenchArgs),
    /// How tightly Ball-Larus and overlapping-path counts bound the flow of two-iteration
    /// paths on one run of a program, per degree of overlap (Tallam et al.'s Figure 5 and
    /// Table 8; see `vmrun overlap-precision --help`).
    OverlapPrecision(overlap_precision::OverlapPrecisionArgs),
    /// Render a saved profile again without running the program: the text report, JSON or
    /// Graphviz dot, and the annotated source when the source files are unchanged (see `vmrun
    /// report --help`).
    Report(report_cmd::ReportArgs),
}

/// Parses the command line, runs the command and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Disasm(args)) => disasm::run(&args),
        Some(Command::Cfg(args)) => cfg::run(&args),
        Some(Command::Forest(args)) => forest::run(&args),
        Some(Command::Paths(args)) => paths::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Explain(args)) => explain::run(&args),
        Some(Command::OverlapPrecision(args)) => overlap_precision::run(&args),
        Some(Command::Report(args)) => report_cmd::run(&args),
        None => run(&cli.run),
    }
}

/// Writes a subcommand's output to stdout and returns exit status 0 (a closed pipe, as in
/// `| head`, is not an error worth reporting).
pub fn print_output(out: &str) -> i32 {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush());
    0
}

/// A program's source files, read: `(name as given, text)` in command-line order.
pub struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    /// Reads every file; on failure prints the error and returns the exit status to use.
    pub fn read(paths: &[PathBuf]) -> Result<Sources, i32> {
        let mut files = Vec::with_capacity(paths.len());
        for path in paths {
            files.push((path.display().to_string(), read_source(path)?));
        }
        Ok(Sources { files })
    }

    /// The files as `(name, text)` pairs.
    pub fn pairs(&self) -> Vec<(&str, &str)> {
        self.files
            .iter()
            .map(|(n, s)| (n.as_str(), s.as_str()))
            .collect()
    }

    /// The program's name in reports: its files' names separated by spaces.
    pub fn name(&self) -> String {
        vm::program_name(&self.pairs())
    }

    /// Compiles the program; on failure prints the diagnostics and returns
    /// [`EXIT_COMPILE_ERROR`].
    pub fn compile(
        &self,
        preprocess: &lang::PreprocessOptions,
    ) -> Result<lang::bytecode::Program, i32> {
        let pairs = self.pairs();
        lang::compile_sources_with(&pairs, preprocess).map_err(|diags| {
            eprint!("{}", vm::render_diagnostics(&diags, &pairs));
            EXIT_COMPILE_ERROR
        })
    }
}

/// Reads and compiles the program of `files`: its name and its bytecode, or (after printing
/// why) the exit status to use.
pub(crate) fn read_and_compile(
    files: &[PathBuf],
    preprocess: &lang::PreprocessOptions,
) -> Result<(String, lang::bytecode::Program), i32> {
    let sources = Sources::read(files)?;
    Ok((sources.name(), sources.compile(preprocess)?))
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
    if args.files.is_empty() {
        return vm::EXIT_USAGE;
    }
    let started = std::time::Instant::now();
    let sources = match Sources::read(&args.files) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let files = sources.pairs();
    let name = sources.name();
    let preprocess = args.preprocess.options();
    let options = RunOptions {
        max_depth: args.max_depth,
        max_steps: args.max_steps,
        profile: ProfileSettings {
            mode: args.profile.mode,
            k: args.profile.k,
            tier_up: args.tier_up,
            path_ends: args.path_ends,
            max_nodes: args
                .max_nodes
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        },
        collect_profile: args.profile_out.is_some()
            || args.report.is_some()
            || args.annotate.is_some(),
        memory: vm::MemoryLimits {
            stack_size: args.stack_size,
            max_memory: args.max_memory,
        },
    };
    if args.profile.mode == Mode::None && (args.profile_out.is_some() || args.report.is_some()) {
        eprintln!("vmrun: --profile-out and --report need a profiling mode (--profile=bl, ...)");
        return vm::EXIT_USAGE;
    }
    if args.max_nodes.is_some() && args.profile.mode != Mode::Kbl {
        eprintln!("vmrun: --max-nodes bounds the k-slab forest of --profile=kbl:K only");
        return vm::EXIT_USAGE;
    }
    if args.annotate.is_some() && matches!(args.profile.mode, Mode::None | Mode::Edge) {
        eprintln!(
            "vmrun: --annotate needs a mode that counts paths (--profile=bl, trace, kiter:K or \
             kbl:K)"
        );
        return vm::EXIT_USAGE;
    }
    if let Err(e) = vm::signals::install() {
        eprintln!("vmrun: warning: {e}");
    }
    // The program's memory and the profile's structures together (`vm::alloc_meter`).
    vm::alloc_meter::set_limit(u64::from(args.max_memory));
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let result = match args.watch {
        Some(limit) => {
            let limit = usize::try_from(limit).unwrap_or(usize::MAX);
            let watch = vm::WatchOptions { limit, echo: true };
            let (result, lines) =
                vm::run_sources_watched_with(&files, &preprocess, &options, watch, &mut lock);
            if lines.len() >= limit {
                eprintln!(
                    "vmrun: --watch: the first {limit} events shown; later events are not shown"
                );
            }
            result
        }
        None => vm::run_sources_with(&files, &preprocess, &options, &mut lock),
    };
    let _ = lock.flush();
    if !result.stderr.is_empty() {
        eprint!("{}", result.stderr);
    }
    if result.exit_status == EXIT_COMPILE_ERROR && result.stderr.is_empty() {
        eprintln!("vmrun: {name}: compile error");
    }
    let mut status = result.exit_status;
    let mut failed = false;
    let mut write = |out: &Path, text: String| {
        if let Err(e) = std::fs::write(out, text) {
            eprintln!("vmrun: cannot write {}: {e}", out.display());
            status = status.max(1);
        }
    };
    let mut result = result;
    if let Some(profile) = result.profile.as_mut() {
        profile.sources = files
            .iter()
            .map(|(file, text)| vm::profile::SourceFile {
                file: file.to_string(),
                fnv1a64: vm::profile::source_hash(text),
            })
            .collect();
        profile.preprocess = args.preprocess.as_args();
    }
    if let Some(profile) = &result.profile {
        if let Some(out) = &args.profile_out {
            write(out, profile.to_json());
        }
        if let Some(out) = &args.report {
            let text = report::render(
                profile,
                &ReportOptions {
                    top: args.top,
                    min_share: args.min_share,
                },
            );
            if out.as_os_str() == "-" {
                eprint!("{text}");
            } else {
                write(out, text);
            }
        }
        if let Some(out) = &args.annotate {
            match annotation(profile, &files, &preprocess, args.top) {
                Ok(text) if out.as_os_str() == "-" => eprint!("{text}"),
                Ok(text) => write(out, text),
                Err(e) => {
                    eprintln!("vmrun: internal error: no annotation: {e}");
                    failed = true;
                }
            }
        }
    }
    if let Some(out) = &args.stats_out {
        let seconds = started.elapsed().as_secs_f64();
        let stats = RunStats::new(&name, args.profile.mode, args.profile.k, &result, seconds);
        write(out, stats.to_json());
    }
    if failed {
        status = status.max(1);
    }
    status
}

/// The annotated source of a run (`--annotate`): each file of the program annotated with its
/// functions. The program compiles again, to the same blocks the profile has, for the lines of
/// each block's instructions.
pub(crate) fn annotation(
    profile: &vm::profile::Profile,
    files: &[(&str, &str)],
    preprocess: &lang::PreprocessOptions,
    top: usize,
) -> Result<String, String> {
    let program = lang::compile_sources_with(files, preprocess)
        .map_err(|_| "the program does not compile again".to_string())?;
    let code = CodeLines::of_program(&program)?;
    Ok(annotate::annotate_files(
        profile,
        files,
        &code,
        &AnnotateOptions { top },
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_go_up_to_the_address_space() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        // 4 GiB is the whole address space: the VM takes all of it it can use.
        assert_eq!(parse_size("4G"), Ok(vm::memory::MAX_MEMORY));
        assert_eq!(parse_size("4194304K"), Ok(vm::memory::MAX_MEMORY));
        assert!(parse_size("4194305K")
            .unwrap_err()
            .contains("more than the 4G"));
        assert!(parse_size("5G").is_err());
        assert!(parse_size("12X").is_err());
    }
}
