//! The human report of a [`Profile`] (`--report`): per function, its hot paths by count and
//! share, each shown as the source lines it runs through, then totals.
//!
//! ```text
//! Path profile of loop.c (mode bl, path ends header, tier-up 0)
//!
//! main (line 3): 11 paths completed (100.0% of all), 4 of 5 static paths executed, tiered up at 0
//!      count   share          id  path (source lines)
//!          6   54.5%           2  7 -> 5 (header)
//!          3   27.3%           1  7, 8 -> 5 (header)
//! ...
//! Totals: 11 paths completed in 1 function; 4 distinct paths executed
//! ```
//!
//! A path's lines are its blocks' line spans in order (`first-last`, or one number), with
//! consecutive repeats merged and the virtual entry left out; it ends with `-> N (header)`,
//! the first line of the header block where it was cut, or `-> return` when it reached the
//! exit. Functions are listed by total count (descending), then in program order; functions
//! without paths are named on one line at the end.

use std::fmt::Write;

use super::{FunctionProfile, PathCount, Profile};

/// What the report shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// The most paths listed per function (`0`: all); the rest are summed on one line.
    pub top: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions { top: 10 }
    }
}

fn span(lines: [u32; 2]) -> String {
    if lines[0] == lines[1] {
        lines[0].to_string()
    } else {
        format!("{}-{}", lines[0], lines[1])
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0%".to_string()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The source lines a path runs through, as the [module documentation](self) writes them.
pub fn path_lines(f: &FunctionProfile, p: &PathCount) -> String {
    let mut spans: Vec<String> = Vec::new();
    for &b in &p.blocks {
        if b == f.exit {
            continue;
        }
        let s = match f.lines(b) {
            Some(l) => span(l),
            None if b == f.entry => continue,
            None => format!("b{b}"),
        };
        if spans.last() != Some(&s) {
            spans.push(s);
        }
    }
    let end = match p.end {
        Some(h) => match f.lines(h) {
            Some(l) => format!("{} (header)", l[0]),
            None => format!("b{h} (header)"),
        },
        None => "return".to_string(),
    };
    if spans.is_empty() {
        format!("-> {end}")
    } else {
        format!("{} -> {end}", spans.join(", "))
    }
}

/// Renders the report.
pub fn render(profile: &Profile, options: &ReportOptions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Path profile of {} (mode {}, path ends {}, tier-up {})",
        profile.program, profile.mode, profile.path_ends, profile.tier_up
    );
    if !profile.complete {
        let _ = writeln!(
            out,
            "INCOMPLETE: the run did not finish (trap, limit or signal); counts cover the paths \
             completed before it stopped"
        );
    }
    let grand: u64 = profile
        .functions
        .iter()
        .fold(0u64, |acc, f| acc.saturating_add(f.total()));
    let mut order: Vec<&FunctionProfile> = profile
        .functions
        .iter()
        .filter(|f| !f.paths.is_empty())
        .collect();
    // Stable: ties keep program order.
    order.sort_by_key(|f| std::cmp::Reverse(f.total()));
    for f in &order {
        let total = f.total();
        let tier = match f.tiered_up_at {
            Some(n) => format!("tiered up at {n}"),
            None => "never tiered up".to_string(),
        };
        let _ = writeln!(
            out,
            "\n{} (line {}): {} completed ({} of all), {} of {} static paths executed, {}",
            f.name,
            f.line,
            plural(total, "path"),
            percent(total, grand),
            f.paths.len(),
            f.static_paths,
            tier
        );
        let _ = writeln!(
            out,
            "{:>10} {:>7} {:>11}  path (source lines)",
            "count", "share", "id"
        );
        let shown = if options.top == 0 {
            f.paths.len()
        } else {
            options.top.min(f.paths.len())
        };
        for p in &f.paths[..shown] {
            let _ = writeln!(
                out,
                "{:>10} {:>7} {:>11}  {}",
                p.count,
                percent(p.count, total),
                p.id,
                path_lines(f, p)
            );
        }
        let rest = &f.paths[shown..];
        if !rest.is_empty() {
            let n: u64 = rest.iter().map(|p| p.count).sum();
            let _ = writeln!(
                out,
                "{:>10} {:>7} {:>11}  ... {} more paths",
                n,
                percent(n, total),
                "",
                rest.len()
            );
        }
    }
    let distinct: usize = order.iter().map(|f| f.paths.len()).sum();
    let _ = writeln!(
        out,
        "\nTotals: {} completed in {}; {} executed",
        plural(grand, "path"),
        plural(order.len() as u64, "function"),
        plural(distinct as u64, "distinct path")
    );
    let idle: Vec<&str> = profile
        .functions
        .iter()
        .filter(|f| f.paths.is_empty())
        .map(|f| f.name.as_str())
        .collect();
    if !idle.is_empty() {
        let _ = writeln!(out, "No paths completed in: {}", idle.join(", "));
    }
    out
}
