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
//! exit. Two paths that cover the same lines through different blocks (the two outcomes of
//! `a && b` on one line, say) also show their block sequences, `[blocks 2 3 5]`. Functions
//! are listed by total count (descending), then in program order; functions without paths are
//! named on one line at the end.
//!
//! In the `ipp` modes the paths are the program's ([`super::interproc`]): one table of
//! interprocedural paths, each as the source lines it runs through in one function after
//! another (`main:13-15 ~> 15, 16 -> power:4-5 -> main:17 (header 15)`, `~>` marking the jump
//! from a function's entry to a loop header that starts its active part), then totals.
//!
//! Each function's table is followed by its mode's section
//! ([`crate::modes::Profiler::report_section`]). In mode `kbl`, that is its k-IPF (the k-BLPP paper's Figure
//! 4): the trees whose root (a BL path) has at least `min_share` percent of the function's
//! paths, hottest first, each pruned below `min_share` percent of its root's count, one node
//! a line with its count, its share of the root, its BL id indented by depth and that path's
//! source lines; then the hottest sequences of 2 to k consecutive paths:
//!
//! ```text
//!   3-IPF: 4 trees (14 nodes), 2 shown; nodes below 10% of their root pruned
//!      count   share  tree of path ids (share of the root): source lines
//!         24  100.0%  5: 9, 10 -> 8 (header)
//!         12   50.0%    └ 5: 9, 10 -> 8 (header)
//!          8   66.7%      └ 3: 9, 11 -> 8 (header)
//!   hottest sequences of 2 to 3 consecutive paths (share of the function's paths):
//!         12   27.3%  3 > 5
//! ```

use std::fmt::Write;

use super::text::{by_heat, lines_of, path_texts, paths_table, percent, plural};
use super::{FunctionProfile, Profile};

pub use super::text::{path_lines, ReportOptions};

/// Renders the report.
pub fn render(profile: &Profile, options: &ReportOptions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} profile of {} (mode {}, path ends {}, tier-up {})",
        if profile.mode == crate::modes::Mode::Edge {
            "Edge"
        } else {
            "Path"
        },
        profile.program,
        profile.mode,
        profile.path_ends,
        profile.tier_up
    );
    if !profile.complete {
        let _ = writeln!(
            out,
            "INCOMPLETE: the run did not finish (trap, limit or signal); counts cover the paths \
             completed before it stopped"
        );
        if let Some(reason) = &profile.reason {
            let _ = writeln!(out, "stopped by: {reason}");
        }
    }
    if profile.mode == crate::modes::Mode::Edge {
        super::edges::report(profile, options, &mut out);
    } else {
        paths_report(profile, options, &mut out);
    }
    indirect_calls_report(profile, &mut out);
    out
}

/// The paths of every function that completed any, hottest first, and the totals.
fn paths_report(profile: &Profile, options: &ReportOptions, out: &mut String) {
    let section = crate::modes::report_section(profile.mode);
    let grand: u64 = profile
        .functions
        .iter()
        .fold(0u64, |acc, f| acc.saturating_add(f.total()));
    let order = by_heat(profile);
    // A program of several files names each function's file with its line.
    let several_files = profile
        .functions
        .iter()
        .any(|f| !f.file.is_empty() && f.file != profile.functions[0].file);
    for f in &order {
        let texts = path_texts(f);
        let total = f.total();
        let tier = match f.tiered_up_at {
            Some(n) => format!("tiered up at {n}"),
            None => "never tiered up".to_string(),
        };
        let place = if several_files {
            format!("{}:{}", f.file, f.line)
        } else {
            format!("line {}", f.line)
        };
        let _ = writeln!(
            out,
            "\n{} ({}): {} completed ({} of all), {} of {} static paths executed, {}",
            f.name,
            place,
            plural(total, "path"),
            percent(total, grand),
            f.paths.len(),
            f.static_paths,
            tier
        );
        let rows: Vec<(u64, u64, &str)> = f
            .paths
            .iter()
            .map(|p| (p.count, p.id, lines_of(&texts, p.id)))
            .collect();
        paths_table(&rows, total, options.top, "source lines", out);
        section(profile, f, options, out);
    }
    if let Some(section) = &profile.interprocedural {
        super::interproc::report(section, options, out);
    } else {
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
    }
}

/// Every call through a function pointer, per caller and site.
fn indirect_calls_report(profile: &Profile, out: &mut String) {
    let indirect: Vec<&FunctionProfile> = profile
        .functions
        .iter()
        .filter(|f| !f.indirect_calls.is_empty())
        .collect();
    if !indirect.is_empty() {
        let _ = writeln!(
            out,
            "\nCalls through function pointers (caller at line:col -> callee):"
        );
        for f in indirect {
            for c in &f.indirect_calls {
                let _ = writeln!(
                    out,
                    "{:>10}  {} at {}:{} -> {}",
                    c.count, f.name, c.line, c.col, c.callee
                );
            }
        }
    }
}
