//! `vmrun report PROFILE.json [--top N] [--min-share P] [--format text|json|dot] [--annotate]`:
//! a saved profile rendered again without running the program (`vm::profile::saved`).
//!
//! Exit statuses: 0; 2 for a bad option; 65 when the profile is malformed or contradicts
//! itself (one line on stderr: `vmrun report: p.json: ...`), or when `--annotate` finds a
//! source file changed since the run; 66 when the profile or a source file cannot be read.

use std::path::PathBuf;

use clap::Args;
use vm::profile::saved::{self, ReportFormat};
use vm::profile::text::ReportOptions;
use vm::{EXIT_COMPILE_ERROR, EXIT_NO_INPUT};

use super::preprocess_args::PreprocessArgs;

/// Arguments of `vmrun report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A profile written by `vmrun --profile=MODE --profile-out FILE`.
    #[arg(value_name = "PROFILE")]
    profile: PathBuf,
    /// The most paths (and k-IPF trees) listed per function (0: all).
    #[arg(long, value_name = "N", default_value_t = ReportOptions::default().top)]
    top: usize,
    /// `kbl` profiles: prune k-IPF nodes below this percentage of their root's count (and
    /// leave out trees whose root has less than this share of the function's paths).
    #[arg(long, value_name = "PERCENT", default_value_t = ReportOptions::default().min_share, value_parser = super::parse_min_share)]
    min_share: f64,
    /// `text` (the report `vmrun --report` prints), `json` (the same content for scripts) or
    /// `dot` (Graphviz: the k-IPF trees of a `kbl` profile, otherwise each function's CFG with
    /// the flow its paths put on each edge).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    format: ReportFormat,
    /// Print the program's source annotated with the profile instead (as `vmrun --annotate`):
    /// the source files named in the profile are read again and must be unchanged (their
    /// hashes are in the profile), then compiled with the run's preprocessor options.
    #[arg(long, conflicts_with = "format")]
    annotate: bool,
}

/// Runs `vmrun report`; returns the exit status.
pub fn run(args: &ReportArgs) -> i32 {
    let name = args.profile.display();
    let bytes = match read_limited(&args.profile) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("vmrun report: cannot read {name}: {e}");
            return EXIT_NO_INPUT;
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            eprintln!("vmrun report: {name}: not UTF-8 text (byte {at})");
            return EXIT_COMPILE_ERROR;
        }
    };
    let profile = match saved::load(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("vmrun report: {name}: {e}");
            return EXIT_COMPILE_ERROR;
        }
    };
    let options = ReportOptions {
        top: args.top,
        min_share: args.min_share,
    };
    if !args.annotate {
        return super::print_output(&saved::render(&profile, &options, args.format));
    }
    match annotated(&profile, args.top) {
        Ok(text) => super::print_output(&text),
        Err((status, message)) => {
            eprintln!("vmrun report: {name}: {message}");
            status
        }
    }
}

/// The profile's bytes, at most one more than [`saved::MAX_PROFILE_BYTES`] (so that
/// [`saved::load`] refuses a longer file without it being read whole).
fn read_limited(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(saved::MAX_PROFILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The annotated source of a saved profile: its source files read again, checked against
/// the hashes it recorded, compiled with its preprocessor options.
fn annotated(profile: &vm::profile::Profile, top: usize) -> Result<String, (i32, String)> {
    if profile.sources.is_empty() {
        return Err((
            EXIT_COMPILE_ERROR,
            "the profile names no source files (written before they were recorded)".into(),
        ));
    }
    let mut files = Vec::new();
    for source in &profile.sources {
        let text = std::fs::read_to_string(&source.file).map_err(|e| {
            (
                EXIT_NO_INPUT,
                format!("cannot read the source file {}: {e}", source.file),
            )
        })?;
        if vm::profile::source_hash(&text) != source.fnv1a64 {
            return Err((
                EXIT_COMPILE_ERROR,
                format!(
                    "the source file {} changed since the profile was written (its hash \
                     differs): run the program again for an annotated source",
                    source.file
                ),
            ));
        }
        files.push((source.file.clone(), text));
    }
    let preprocess = PreprocessArgs::from_args(&profile.preprocess)
        .map_err(|e| (EXIT_COMPILE_ERROR, e))?
        .options();
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    super::annotation(profile, &pairs, &preprocess, top).map_err(|e| (EXIT_COMPILE_ERROR, e))
}
