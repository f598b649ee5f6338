//! The `interprocedural` member of an `ipp:context` or `ipp:piecewise` profile: the
//! interprocedural paths (Melski & Reps) the run completed, each as the stretches of blocks it
//! runs through in one function after another, with the source lines they cover.
//!
//! ```json
//! "interprocedural": {
//!   "kind": "context", "static_paths": 36, "incomplete": 0, "fallback": [],
//!   "paths": [
//!     {"id": 24, "count": 9, "lines": "main:12 ~> 13-14 -> pow:3 ~> 4-5 (header 4)",
//!      "stretches": [{"function": 1, "blocks": [0, 3, 4]}, ...], "end": 4}
//!   ]
//! }
//! ```
//!
//! A stretch is a maximal run of one activation's blocks on the path (a call or a return starts
//! the next); `function` is the function's index in `functions`, `blocks` are ids of its CFG.
//! `resume` (when present) is the index in `blocks` of the loop header that the stretch jumps
//! to from the function's entry by a surrogate edge: in a context path, what comes before the
//! last such jump is the *context prefix* (the path that led to the activation) and what
//! follows is the *active suffix*; a piecewise path starts with such a jump. `end` is the
//! header where the path was cut (a block of the last stretch's function), or `null` when it
//! left by the exit of `main` or of a procedure called recursively. Paths are sorted by count
//! (descending), then id. `incomplete` counts the paths in progress when the run stopped (a
//! trap, an `exit` inside a call, an interrupt): they never completed and are not counted.

use serde::{Deserialize, Serialize};

use std::fmt::Write;

use super::text::{line_spans, paths_table, plural, span, ReportOptions};
use super::{FunctionProfile, Profile};

/// The `interprocedural` member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterprocSection {
    /// `context` or `piecewise`.
    pub kind: String,
    /// The number of paths of the numbering: ids are `0..static_paths`.
    pub static_paths: u64,
    /// Paths in progress when the run stopped, not counted.
    pub incomplete: u64,
    /// The fallback steps taken because the paths exceeded 64 bits (empty when they fit).
    pub fallback: Vec<String>,
    /// The paths completed, by count (descending), then id.
    pub paths: Vec<InterprocPath>,
}

/// One interprocedural path and its count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterprocPath {
    /// Its number.
    pub id: u64,
    /// How many times it was completed.
    pub count: u64,
    /// Its source lines across functions ([`lines_text`]).
    pub lines: String,
    /// Its stretches, in order.
    pub stretches: Vec<Stretch>,
    /// The header where it was cut, or `None` if it left by a root's exit.
    pub end: Option<u32>,
}

/// A stretch of one activation's blocks on a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stretch {
    /// The function's index in the profile's `functions`.
    pub function: u32,
    /// Its blocks.
    pub blocks: Vec<u32>,
    /// The index in `blocks` of the loop header entered by a surrogate edge, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<u32>,
}

impl InterprocSection {
    /// Writes every path's `lines` from the profile's functions.
    pub fn fill_lines(&mut self, functions: &[FunctionProfile]) {
        for p in &mut self.paths {
            p.lines = lines_text(functions, p);
        }
    }
}

/// The source lines of a path: each stretch as `name:spans` (`~>` where it jumps to a loop
/// header by a surrogate edge), stretches joined by ` -> `, and `(header N)` when it was cut.
pub fn lines_text(functions: &[FunctionProfile], path: &InterprocPath) -> String {
    let mut parts = Vec::new();
    for s in &path.stretches {
        let Some(f) = functions.get(s.function as usize) else {
            parts.push(format!("?{}", s.function));
            continue;
        };
        let text = match s.resume.map(|r| r as usize) {
            Some(r) if r <= s.blocks.len() => {
                let before = line_spans(f, &s.blocks[..r]).join(", ");
                let after = line_spans(f, &s.blocks[r..]).join(", ");
                format!("{before} ~> {after}").trim().to_string()
            }
            _ => line_spans(f, &s.blocks).join(", "),
        };
        if text.is_empty() {
            parts.push(f.name.clone());
        } else {
            parts.push(format!("{}:{text}", f.name));
        }
    }
    let mut out = parts.join(" -> ");
    if let (Some(h), Some(last)) = (path.end, path.stretches.last()) {
        let header = functions
            .get(last.function as usize)
            .and_then(|f| f.lines(h))
            .map_or(format!("b{h}"), span);
        out.push_str(&format!(" (header {header})"));
    }
    out
}

/// Writes the member (after `functions`, with the comma before it) into `o`.
pub fn write_json(o: &mut String, section: &InterprocSection) {
    let q = |s: &str| serde_json::to_string(s).expect("strings always serialize");
    o.push_str("  \"interprocedural\": {\n");
    o.push_str(&format!("    \"kind\": {},\n", q(&section.kind)));
    o.push_str(&format!(
        "    \"static_paths\": {},\n",
        section.static_paths
    ));
    o.push_str(&format!("    \"incomplete\": {},\n", section.incomplete));
    let fallback: Vec<String> = section.fallback.iter().map(|f| q(f)).collect();
    o.push_str(&format!("    \"fallback\": [{}],\n", fallback.join(", ")));
    o.push_str("    \"paths\": [");
    for (i, p) in section.paths.iter().enumerate() {
        let sep = if i + 1 < section.paths.len() { "," } else { "" };
        let stretches = serde_json::to_string(&p.stretches).expect("stretches serialize");
        let end = p.end.map_or("null".to_string(), |e| e.to_string());
        o.push_str(&format!(
            "\n      {{\"id\": {}, \"count\": {}, \"lines\": {}, \"stretches\": {stretches}, \"end\": {end}}}{sep}",
            p.id,
            p.count,
            q(&p.lines)
        ));
    }
    o.push_str(if section.paths.is_empty() {
        "]\n  }\n"
    } else {
        "\n    ]\n  }\n"
    });
}

/// Checks the member: the kind, ids below `static_paths` and distinct, positive counts, the
/// order, every stretch's function and blocks existing, `resume` within its stretch, `end` a
/// block of the last stretch's function, and `lines` as [`lines_text`] writes them.
pub fn check(profile: &Profile, section: &InterprocSection) -> Result<(), String> {
    let err = |what: String| Err(format!("interprocedural: {what}"));
    if !matches!(section.kind.as_str(), "context" | "piecewise") {
        return err(format!("unknown kind '{}'", section.kind));
    }
    let mut ids: Vec<u64> = section.paths.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return err("a path id appears twice".into());
    }
    for p in &section.paths {
        if p.id >= section.static_paths || p.count == 0 || p.stretches.is_empty() {
            return err(format!(
                "path {} has an id not below static_paths, a count of 0 or no stretch",
                p.id
            ));
        }
        for s in &p.stretches {
            let Some(f) = profile.functions.get(s.function as usize) else {
                return err(format!("path {} names function {}", p.id, s.function));
            };
            let n = f.blocks.len() as u32;
            if s.blocks.is_empty() || s.blocks.iter().any(|&b| b >= n) {
                return err(format!("path {} names a block that does not exist", p.id));
            }
            if s.resume.is_some_and(|r| r as usize >= s.blocks.len()) {
                return err(format!("path {} resumes outside its stretch", p.id));
            }
        }
        let last = &p.stretches[p.stretches.len() - 1];
        let blocks = profile.functions[last.function as usize].blocks.len() as u32;
        if p.end.is_some_and(|e| e >= blocks) {
            return err(format!("path {} ends at a block that does not exist", p.id));
        }
        if p.lines != lines_text(&profile.functions, p) {
            return err(format!(
                "path {} has lines that do not match its blocks",
                p.id
            ));
        }
    }
    if section
        .paths
        .windows(2)
        .any(|w| (w[1].count, w[0].id) > (w[0].count, w[1].id))
    {
        return err("paths are not sorted by count, then id".into());
    }
    Ok(())
}

/// The report's table of interprocedural paths: the hottest `options.top` (all for 0), with
/// count, share and number, then totals.
pub fn report(section: &InterprocSection, options: &ReportOptions, out: &mut String) {
    let total = section
        .paths
        .iter()
        .fold(0u64, |acc, p| acc.saturating_add(p.count));
    let _ = writeln!(
        out,
        "\nInterprocedural {} paths (Melski & Reps): {} completed, {} of {} static paths executed",
        section.kind,
        plural(total, "path"),
        section.paths.len(),
        section.static_paths
    );
    for f in &section.fallback {
        let _ = writeln!(out, "warning: {f}");
    }
    if section.incomplete > 0 {
        let _ = writeln!(
            out,
            "{} in progress when the run stopped, not counted",
            plural(section.incomplete, "path")
        );
    }
    let rows: Vec<(u64, u64, &str)> = section
        .paths
        .iter()
        .map(|p| (p.count, p.id, p.lines.as_str()))
        .collect();
    paths_table(&rows, total, options.top, "function:source lines", out);
    let _ = writeln!(
        out,
        "\nTotals: {} completed; {} executed",
        plural(total, "interprocedural path"),
        plural(section.paths.len() as u64, "distinct path")
    );
}
