//! What `vmrun cfg` is asked to do ([`CfgCommand`]), how it fails ([`CommandError`]) and the
//! output helpers every profile's part of the command shares: the leaf under
//! [`super::run`] and the `ol`/`ipp` commands (`crate::overlap::command`,
//! `crate::interproc::command`), which it dispatches to.

use crate::ball_larus::NumberingKind;
use crate::dag::PathEnds;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    #[default]
    Text,
    /// JSON (field names as in the issue).
    Json,
    /// Graphviz dot.
    Dot,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "dot" => Ok(Format::Dot),
            _ => Err(format!("unknown format '{s}' (expected text, json or dot)")),
        }
    }
}

/// Which profile to run along a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileKind {
    /// Ball-Larus acyclic paths.
    Bl,
    /// k-iteration paths with the given K (`kiter:K`).
    KIter(u32),
    /// Overlapping paths of degree K (`ol:K`, [`crate::overlap`]).
    Ol(u32),
    /// Interprocedural paths (`ipp:context`, `ipp:piecewise`, [`crate::interproc`]), for a
    /// file of several procedures.
    Ipp(crate::interproc::IppKind),
}

impl FromStr for ProfileKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "bl" {
            return Ok(ProfileKind::Bl);
        }
        if let Some(k) = s.strip_prefix("ol:") {
            return match k.parse::<u32>() {
                Ok(k) if k <= crate::overlap::MAX_OVERLAP => Ok(ProfileKind::Ol(k)),
                _ => Err(format!(
                    "unknown profile '{s}' (ol:K takes K from 0 to {})",
                    crate::overlap::MAX_OVERLAP
                )),
            };
        }
        if let Some(kind) = s.strip_prefix("ipp:") {
            return kind.parse().map(ProfileKind::Ipp);
        }
        if let Some(k) = s.strip_prefix("kiter:") {
            if let Ok(k) = k.parse::<u32>() {
                if k >= 1 {
                    return Ok(ProfileKind::KIter(k));
                }
            }
        }
        Err(format!(
            "unknown profile '{s}' (expected bl, kiter:K with K >= 1, ol:K, ipp:context or ipp:piecewise)"
        ))
    }
}

/// Everything `vmrun cfg` was asked to do.
#[derive(Clone, Debug)]
pub struct CfgCommand {
    /// The file name, for messages.
    pub file: String,
    /// The file's text.
    pub source: String,
    /// `--k K`: list (or profile, with a trace) k-iteration paths; 1 means Ball-Larus.
    pub k: Option<u32>,
    /// `--path-ends`.
    pub path_ends: PathEnds,
    /// `--numbering` (Ball-Larus only).
    pub numbering: NumberingKind,
    /// `--placement`: for Ball-Larus `plain` (default) or `event-counting`; for k-iteration
    /// `dummy-removal` (default, Roy & Srikant section 4.1), `edge-values` (alias `plain`) or
    /// `event-counting`.
    pub placement: Option<String>,
    /// `--trace`: the trace text.
    pub trace: Option<String>,
    /// `--profile`.
    pub profile: Option<ProfileKind>,
    /// `--format`.
    pub format: Format,
    /// `--max-paths`: the limit on static paths before falling back.
    pub max_paths: u64,
    /// `--list-limit`: list at most this many static paths.
    pub list_limit: u64,
}

impl CfgCommand {
    /// A command with the defaults for `file` whose text is `source`.
    pub fn new(file: impl Into<String>, source: impl Into<String>) -> Self {
        CfgCommand {
            file: file.into(),
            source: source.into(),
            k: None,
            path_ends: PathEnds::Header,
            numbering: NumberingKind::Canonical,
            placement: None,
            trace: None,
            profile: None,
            format: Format::Text,
            max_paths: u64::MAX,
            list_limit: 100_000,
        }
    }
}

/// Why the command failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Bad input: the CFG file or the trace (exit status 65). Already `file:line: message`.
    Input(String),
    /// Inconsistent options (exit status 2).
    Usage(String),
}

impl CommandError {
    /// The conventional exit status: 65 (`EX_DATAERR`) for input, 2 for usage.
    pub fn exit_code(&self) -> i32 {
        match self {
            CommandError::Input(_) => 65,
            CommandError::Usage(_) => 2,
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Input(m) | CommandError::Usage(m) => f.write_str(m.trim_end()),
        }
    }
}

impl std::error::Error for CommandError {}

/// `v` as pretty-printed JSON with a final newline (an error object if it cannot be).
pub(crate) fn pretty<T: Serialize>(v: &T) -> String {
    let mut s =
        serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
