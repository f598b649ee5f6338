//! `vmrun explain FILE`: every step from source to hot paths, for each function of a program
//! or for a `.cfg` file (the logic is in [`vm::explain`]; this file parses the arguments and
//! writes the result).
//!
//! Exit status: 0; 2 for a bad option, an unknown function, a K out of range, a profile of
//! another program or an output directory that does not exist (one line on stderr, no file
//! written); 65 when the program does not compile; 66 when a file cannot be read.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use profiler::{NumberingKind, PathEnds};
use vm::explain::{self, ExplainError, ExplainRequest};
use vm::profile::Profile;
use vm::{Mode, EXIT_COMPILE_ERROR, EXIT_NO_INPUT, EXIT_USAGE};

/// Arguments of `vmrun explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The program (one or more C-subset source files, linked as by `vmrun FILE...`) or a
    /// textual CFG (one `.cfg` file, see docs/cfg-guide.md).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Only this function.
    #[arg(long, value_name = "NAME")]
    func: Option<String>,
    /// Also number K-iteration paths (Roy & Srikant's Table 1), 2 to 8; for the step-through
    /// of `kiter` and `kbl`, their K.
    #[arg(long, value_name = "K", default_value_t = 1)]
    k: u32,
    /// Where paths end: `header` (at every loop header) or `backedge` (Ball-Larus).
    #[arg(long, value_name = "STRATEGY", default_value = "header", value_parser = parse_path_ends)]
    path_ends: PathEnds,
    /// `canonical` (successors in order) or `smart` (as the VM's tier-up numbers: the edge of
    /// each branch where a value would cost most, by frequency times cost, gets 0; needs
    /// `--run` or `--profile-in`).
    #[arg(long, value_name = "ORDER", default_value = "canonical", value_parser = parse_numbering)]
    numbering: NumberingKind,
    /// `text`, `dot` (Graphviz), `svg` (the CFG drawn) or `html` (one self-contained page
    /// with a step-through of a recorded run).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write to OUT instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: Option<PathBuf>,
    /// Colour blocks by heat and list hot paths from this profile of the program
    /// (`vmrun --profile=bl --profile-out FILE`; a bl, kbl or trace profile, or an ipp profile,
    /// whose interprocedural paths through each function are listed).
    #[arg(long, value_name = "FILE", conflicts_with = "run")]
    profile_in: Option<PathBuf>,
    /// Run the program (`--profile=bl --tier-up 0`) for heat and hot paths.
    #[arg(long)]
    run: bool,
    /// `html`: how many events of the run the page steps through.
    #[arg(long, value_name = "N", default_value_t = 400)]
    steps: usize,
    /// `html`: the mode of the recorded run: `bl`, `trace`, `kiter` or `kbl` (with `--k`).
    #[arg(long, value_name = "MODE", default_value = "bl", value_parser = parse_step_mode)]
    step_mode: Mode,
    /// The most path ids listed per function.
    #[arg(long, value_name = "N", default_value_t = 64)]
    list_limit: u64,
    #[command(flatten)]
    preprocess: super::preprocess_args::PreprocessArgs,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Dot,
    Svg,
    Html,
}

fn parse_path_ends(s: &str) -> Result<PathEnds, String> {
    s.parse()
}

fn parse_numbering(s: &str) -> Result<NumberingKind, String> {
    s.parse()
}

fn parse_step_mode(s: &str) -> Result<Mode, String> {
    match s {
        "bl" => Ok(Mode::Bl),
        "trace" => Ok(Mode::Trace),
        "kiter" => Ok(Mode::Kiter),
        "kbl" => Ok(Mode::Kbl),
        _ => Err(format!(
            "unknown mode '{s}' (expected bl, trace, kiter or kbl; K comes from --k)"
        )),
    }
}

/// A one-line usage error: exit status 2.
fn usage(message: impl std::fmt::Display) -> i32 {
    eprintln!("vmrun explain: {message}");
    EXIT_USAGE
}

/// Whether FILE is a textual CFG rather than a program.
fn is_cfg_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cfg")
}

/// Runs `vmrun explain`; returns the exit status.
pub fn run(args: &ExplainArgs) -> i32 {
    if let Err(e) = explain::check_k(args.k) {
        return usage(e);
    }
    if let Some(out) = &args.out {
        let dir = out.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = dir {
            if !dir.is_dir() {
                return usage(format!(
                    "cannot write {}: directory {} does not exist",
                    out.display(),
                    dir.display()
                ));
            }
        }
    }
    let is_cfg = args.files.iter().any(|f| is_cfg_file(f));
    if is_cfg && args.files.len() > 1 {
        return usage("a textual CFG (.cfg) is explained alone: give one file");
    }
    let sources = match super::Sources::read(&args.files) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let profile = match &args.profile_in {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => match Profile::from_json(&text) {
                Ok(p) => Some(p),
                Err(e) => {
                    return usage(format!("{} is not a profile: {e}", path.display()));
                }
            },
            Err(e) => {
                eprintln!("vmrun explain: cannot read {}: {e}", path.display());
                return EXIT_NO_INPUT;
            }
        },
        None => None,
    };
    let request = ExplainRequest {
        func: args.func.clone(),
        k: args.k,
        path_ends: args.path_ends,
        numbering: args.numbering,
        // The page always colours by heat: its run is recorded anyway.
        run: profile.is_none()
            && (args.run
                || args.numbering == NumberingKind::Smart
                || (args.format == Format::Html && !is_cfg)),
        steps: if args.format == Format::Html && !is_cfg {
            args.steps
        } else {
            0
        },
        step_mode: args.step_mode,
        profile,
        list_limit: args.list_limit,
        preprocess: args.preprocess.options(),
    };
    let files = sources.pairs();
    if let [(name, source)] = files.as_slice() {
        if is_cfg && profiler::interproc::text::is_program(source) {
            return explain_supergraph(args, name, source);
        }
    }
    let explained = match files.as_slice() {
        [(name, source)] if is_cfg => explain::explain_cfg_file(name, source, &request),
        _ => explain::explain_files(&files, &request),
    };
    let explained = match explained {
        Ok(x) => x,
        Err(ExplainError::Compile(diagnostics)) => {
            eprint!("{diagnostics}");
            return EXIT_COMPILE_ERROR;
        }
        Err(e) => return usage(e),
    };
    let text = match args.format {
        Format::Text => Ok(explain::text::render(&explained)),
        Format::Dot => Ok(explain::dot::render(&explained)),
        Format::Svg => explain::dot::to_svg(&explain::dot::render(&explained)),
        Format::Html => explain::html::render(&explained),
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => return usage(e),
    };
    match &args.out {
        None => super::print_output(&text),
        Some(out) => write_whole(out, &text),
    }
}

/// Explains a `.cfg` file of several functions: Melski & Reps' numbering of its
/// interprocedural paths (`vmrun cfg`'s listing: `maxEnters`, `ψ`, `ρ`, every path), as text,
/// or `G*fin` labelled like the paper's Figure 7 as dot or SVG.
fn explain_supergraph(args: &ExplainArgs, name: &str, source: &str) -> i32 {
    use profiler::cfg_command::{CfgCommand, Format as CfgFormat};
    let mut cmd = CfgCommand::new(name, source);
    cmd.path_ends = args.path_ends;
    cmd.list_limit = args.list_limit;
    cmd.format = match args.format {
        Format::Text => CfgFormat::Text,
        Format::Dot | Format::Svg => CfgFormat::Dot,
        Format::Html => {
            return usage(
                "a file of several functions is explained as text, dot or svg (--format html \
                 steps through a program's run)",
            )
        }
    };
    let text = match profiler::interproc::command::run(&cmd, profiler::interproc::IppKind::Context)
    {
        Ok(text) => text,
        Err(e) => {
            eprintln!("vmrun explain: {e}");
            return e.exit_code();
        }
    };
    let text = match args.format {
        Format::Svg => match explain::dot::to_svg(&text) {
            Ok(svg) => svg,
            Err(e) => return usage(e),
        },
        _ => text,
    };
    match &args.out {
        None => super::print_output(&text),
        Some(out) => write_whole(out, &text),
    }
}

/// Writes `text` to `out` through a temporary file renamed into place, so a failure leaves no
/// partial file.
fn write_whole(out: &Path, text: &str) -> i32 {
    let tmp = out.with_extension("partial");
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, out));
    match written {
        Ok(()) => 0,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            usage(format!("cannot write {}: {e}", out.display()))
        }
    }
}
