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
//! In mode `kbl`, each function's table is followed by its k-IPF (the k-BLPP paper's Figure
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

use std::collections::HashMap;
use std::fmt::Write;

use super::{FunctionProfile, IpfEntry, PathCount, Profile};

/// What the report shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportOptions {
    /// The most paths listed per function (`0`: all); the rest are summed on one line. In
    /// mode `kbl`, also the most k-IPF trees and multi-iteration paths listed per function.
    pub top: usize,
    /// Mode `kbl`: k-IPF nodes below this percentage of their root's count are pruned (with
    /// their subtrees), and roots below this percentage of the function's paths are left out
    /// (the k-BLPP paper's Figure 4).
    pub min_share: f64,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            top: 10,
            min_share: 10.0,
        }
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

/// Every path's text, keyed by id: its source lines ([`path_lines`]), and, when another path
/// of the function runs through the same lines by other blocks (the two outcomes of `a && b`
/// on one line, say), its block sequence as well (` [blocks 2 3 5]`), so no two rows read
/// alike.
fn path_texts(f: &FunctionProfile) -> HashMap<u64, String> {
    let lines: Vec<String> = f.paths.iter().map(|p| path_lines(f, p)).collect();
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for l in &lines {
        *uses.entry(l.as_str()).or_default() += 1;
    }
    f.paths
        .iter()
        .zip(&lines)
        .map(|(p, l)| {
            let text = if uses[l.as_str()] > 1 {
                let blocks: Vec<String> = p.blocks.iter().map(u32::to_string).collect();
                format!("{l} [blocks {}]", blocks.join(" "))
            } else {
                l.clone()
            };
            (p.id, text)
        })
        .collect()
}

/// The text of the function's BL path `id` (`?` if it is not among its paths).
fn lines_of(texts: &HashMap<u64, String>, id: u64) -> &str {
    texts.get(&id).map_or("?", String::as_str)
}

/// The subtree of the root entry `ipf[at]` pruned as in the paper's Figure 4: in preorder,
/// every entry whose count is at least `min_share` percent of the root's and whose parent was
/// kept. Returns the kept positions and the end of the root's subtree.
fn pruned(ipf: &[IpfEntry], at: usize, min_share: f64) -> (Vec<usize>, usize) {
    let root = &ipf[at];
    let threshold = min_share / 100.0 * root.count as f64;
    let mut kept = vec![at];
    // The kept ancestors of the current entry: `stack[d]` at depth `d`.
    let mut stack = vec![at];
    let mut end = at + 1;
    while end < ipf.len() && ipf[end].ids.len() > 1 && ipf[end].ids[0] == root.ids[0] {
        let e = &ipf[end];
        let d = e.ids.len() - 1;
        stack.truncate(d);
        let parent_kept = stack.len() == d && ipf[stack[d - 1]].ids[..] == e.ids[..d];
        if parent_kept && e.count as f64 >= threshold {
            kept.push(end);
            stack.push(end);
        }
        end += 1;
    }
    (kept, end)
}

/// Mode `kbl`: the function's k-IPF trees, pruned, then its hottest multi-iteration paths.
fn render_ipf(
    out: &mut String,
    k: u32,
    f: &FunctionProfile,
    ipf: &[IpfEntry],
    options: &ReportOptions,
) {
    let texts = path_texts(f);
    let total = f.total();
    let limit = |n: usize| {
        if options.top == 0 {
            n
        } else {
            options.top.min(n)
        }
    };
    let mut roots: Vec<usize> = (0..ipf.len()).filter(|&i| ipf[i].ids.len() == 1).collect();
    roots.sort_by(|&a, &b| {
        ipf[b]
            .count
            .cmp(&ipf[a].count)
            .then(ipf[a].ids.cmp(&ipf[b].ids))
    });
    let shown: Vec<usize> = roots
        .iter()
        .copied()
        .filter(|&r| ipf[r].count as f64 * 100.0 >= options.min_share * total as f64)
        .collect();
    let _ = writeln!(
        out,
        "  {k}-IPF: {} trees ({} nodes), {} shown; nodes below {}% of their root pruned",
        roots.len(),
        ipf.len(),
        limit(shown.len()),
        options.min_share
    );
    let _ = writeln!(
        out,
        "{:>10} {:>7}  tree of path ids (share of the root): source lines",
        "count", "share"
    );
    for &r in &shown[..limit(shown.len())] {
        let (kept, _) = pruned(ipf, r, options.min_share);
        for i in kept {
            let e = &ipf[i];
            let depth = e.ids.len() - 1;
            let id = *e.ids.last().expect("entries have ids");
            let _ = writeln!(
                out,
                "{:>10} {:>7}  {}{}: {}",
                e.count,
                percent(e.count, ipf[r].count),
                "  ".repeat(depth) + if depth > 0 { "└ " } else { "" },
                id,
                lines_of(&texts, id)
            );
        }
    }
    let mut multi: Vec<&IpfEntry> = ipf.iter().filter(|e| e.ids.len() >= 2).collect();
    multi.sort_by(|a, b| b.count.cmp(&a.count).then(a.ids.cmp(&b.ids)));
    if multi.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "  hottest sequences of 2 to {k} consecutive paths (share of the function's paths):"
    );
    for e in &multi[..limit(multi.len())] {
        let ids: Vec<String> = e.ids.iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "{:>10} {:>7}  {}",
            e.count,
            percent(e.count, total),
            ids.join(" > ")
        );
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
        let texts = path_texts(f);
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
                lines_of(&texts, p.id)
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
        if let Some(ipf) = f.ipf.as_deref().filter(|i| !i.is_empty()) {
            render_ipf(&mut out, profile.k, f, ipf, options);
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
