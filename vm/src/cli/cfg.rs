//! `vmrun cfg FILE.cfg`: path numbering and profiling on a textual CFG, for teaching and for
//! checking the algorithms against the papers. This file only parses the arguments; the logic
//! (and its tests) live in `profiler::cfg_command`.
//!
//! Exit status: 0 on success, 65 for a bad CFG file or trace (`file:line: message` on stderr),
//! 66 when a file cannot be read, 2 for inconsistent options.

use clap::Args;
use profiler::cfg_command::{self, CfgCommand, Format, ProfileKind};
use profiler::{NumberingKind, PathEnds};
use std::path::PathBuf;

/// Arguments of `vmrun cfg`.
#[derive(Args, Debug, Clone)]
pub struct CfgArgs {
    /// The CFG file (format: docs, "Textual CFGs").
    pub file: PathBuf,
    /// List (or, with --trace, profile) k-iteration paths spanning up to K iterations; 1 is
    /// Ball-Larus.
    #[arg(long, value_name = "K")]
    pub k: Option<u32>,
    /// Where paths end: `header` (on arriving at any loop header) or `backedge` (Ball-Larus).
    #[arg(long, value_name = "STRATEGY", default_value = "header")]
    pub path_ends: PathEndsArg,
    /// Ball-Larus numbering: `canonical` (successors in order) or `smart` (hottest edge gets 0;
    /// frequencies from --trace).
    #[arg(long, value_name = "ORDER", default_value = "canonical")]
    pub numbering: NumberingArg,
    /// Increment placement. Ball-Larus: `plain` (every edge value, the default) or
    /// `event-counting` (chords of a maximum spanning tree). k-iteration: `dummy-removal` (the
    /// default, Roy & Srikant 4.1), `edge-values` or `event-counting`.
    #[arg(long, value_name = "PLACEMENT")]
    pub placement: Option<String>,
    /// A trace to run the instrumentation along: node names, `( ... )^N` groups, `;` between
    /// invocations; `@FILE` reads it from a file.
    #[arg(long, value_name = "TRACE")]
    pub trace: Option<String>,
    /// The profile to run along the trace: `bl`, `kiter:K` or `ol:K` (overlapping paths of
    /// degree K, 0 to 32, Tallam et al.: listed without a trace, counted with one, with the
    /// bounds they give on two-iteration paths).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<ProfileArg>,
    /// Output format: `text`, `json` or `dot`.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: FormatArg,
    /// Limit on the number of static paths before falling back (extra cuts / acyclic loops).
    #[arg(long, value_name = "N", default_value_t = u64::MAX)]
    pub max_paths: u64,
    /// List at most N static paths.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub list_limit: u64,
}

macro_rules! from_str_arg {
    ($(#[$m:meta])* $name:ident($inner:ty)) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name(pub $inner);

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                s.parse::<$inner>().map($name)
            }
        }
    };
}

from_str_arg!(
    /// `--path-ends`.
    PathEndsArg(PathEnds)
);
from_str_arg!(
    /// `--numbering`.
    NumberingArg(NumberingKind)
);
from_str_arg!(
    /// `--profile`.
    ProfileArg(ProfileKind)
);
from_str_arg!(
    /// `--format`.
    FormatArg(Format)
);

fn read(path: &std::path::Path) -> Result<String, i32> {
    std::fs::read_to_string(path).map_err(|e| {
        eprintln!("vmrun cfg: cannot read {}: {e}", path.display());
        66
    })
}

/// Runs `vmrun cfg`; returns the exit status.
pub fn run(args: &CfgArgs) -> i32 {
    let source = match read(&args.file) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let trace = match &args.trace {
        Some(t) => match t.strip_prefix('@') {
            Some(path) => match read(std::path::Path::new(path)) {
                Ok(s) => Some(s),
                Err(code) => return code,
            },
            None => Some(t.clone()),
        },
        None => None,
    };
    let mut cmd = CfgCommand::new(args.file.display().to_string(), source);
    cmd.k = args.k;
    cmd.path_ends = args.path_ends.0;
    cmd.numbering = args.numbering.0;
    cmd.placement = args.placement.clone();
    cmd.trace = trace;
    cmd.profile = args.profile.map(|p| p.0);
    cmd.format = args.format.0;
    cmd.max_paths = args.max_paths;
    cmd.list_limit = args.list_limit;
    match cfg_command::run(&cmd) {
        Ok(out) => super::print_output(&out),
        Err(e) => {
            eprintln!("{e}");
            e.exit_code()
        }
    }
}
