//! `vmrun forest --k K --stream "* 6 2 0 0 2 ..."`: the k-slab forest and the k-iterations path
//! forest of a raw stream of Ball-Larus path ids (k-BLPP, `docs/kblpp.md`). This file only parses
//! the arguments; the logic (and its tests) live in `profiler::kblpp::command`.
//!
//! Exit status: 0 on success; 2 for a bad stream token (`stream:LINE:COL: token N '...'` on
//! stderr) or a bad option; 66 when `--stream @FILE` cannot be read.

use clap::Args;
use profiler::cfg_command::Format;
use profiler::kblpp::command::{self, ForestCommand};
use profiler::kblpp::Siblings;

/// Arguments of `vmrun forest`.
#[derive(Args, Debug, Clone)]
pub struct ForestArgs {
    /// Profile every sequence of up to K consecutive BL paths (K >= 1; 1 is Ball-Larus).
    #[arg(long, value_name = "K")]
    pub k: u32,
    /// The stream: `*` (a routine entry) and BL path ids separated by spaces, e.g.
    /// "* 6 2 0 0 2 2 0 0 2 2 0 0 2 3" (the k-BLPP paper's Example 3); `@FILE` reads it from a
    /// file.
    #[arg(long, value_name = "STREAM", allow_hyphen_values = true)]
    pub stream: String,
    /// Output format: `text`, `json` or `dot`.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: FormatArg,
    /// The k-SF's sibling order while building: `append`, `mtf` (move-to-front), `mtf:N`
    /// (move to the front after a scan of N siblings) or `transpose`. Changes no count.
    #[arg(long, value_name = "ORDER", default_value = "append")]
    pub siblings: SiblingsArg,
}

/// `--format`.
#[derive(Debug, Clone, Copy)]
pub struct FormatArg(pub Format);

impl std::str::FromStr for FormatArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        s.parse().map(FormatArg)
    }
}

/// `--siblings`.
#[derive(Debug, Clone, Copy)]
pub struct SiblingsArg(pub Siblings);

impl std::str::FromStr for SiblingsArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        s.parse().map(SiblingsArg)
    }
}

/// Runs `vmrun forest`; returns the exit status.
pub fn run(args: &ForestArgs) -> i32 {
    let stream = match args.stream.strip_prefix('@') {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("vmrun forest: cannot read {path}: {e}");
                return 66;
            }
        },
        None => args.stream.clone(),
    };
    let cmd = ForestCommand {
        k: args.k,
        stream,
        format: args.format.0,
        siblings: args.siblings.0,
    };
    match command::run(&cmd) {
        Ok(out) => super::print_output(&out),
        Err(e) => {
            eprintln!("vmrun forest: {e}");
            e.exit_code()
        }
    }
}
