//! How the reports write paths and shares: a path as the source lines it runs through, a
//! count as a share of a total, and the options of the human report. Shared by the report
//! ([`super::report`]) and the modes' report sections ([`crate::modes::Profiler::report_section`]).

use std::collections::HashMap;

use super::{FunctionProfile, PathCount};

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

/// The functions with paths, hottest first (by total count; ties in program order): the
/// order of the report.
pub fn by_heat(profile: &super::Profile) -> Vec<&FunctionProfile> {
    let mut order: Vec<&FunctionProfile> = profile
        .functions
        .iter()
        .filter(|f| !f.paths.is_empty())
        .collect();
    // Stable: ties keep program order.
    order.sort_by_key(|f| std::cmp::Reverse(f.total()));
    order
}

/// How many of `n` items a list limited to `top` shows (all for 0).
pub fn shown(n: usize, top: usize) -> usize {
    if top == 0 {
        n
    } else {
        n.min(top)
    }
}

/// A block's line span: `7` or `7-9`.
pub fn span(lines: [u32; 2]) -> String {
    if lines[0] == lines[1] {
        lines[0].to_string()
    } else {
        format!("{}-{}", lines[0], lines[1])
    }
}

/// A block's lines in words: `line 7` or `lines 7-9`.
pub fn lines_label(lines: [u32; 2]) -> String {
    if lines[0] == lines[1] {
        format!("line {}", lines[0])
    } else {
        format!("lines {}", span(lines))
    }
}

/// A path as its blocks, named, then where it ends and the line spans it runs through:
/// `b1 b2 b4 -> b1 (lines 5, 6, 4)` (repeated spans written once; no parenthesis when no
/// block has lines).
pub fn blocks_and_lines(blocks: &[(String, Option<[u32; 2]>)], end: &str) -> String {
    let names: Vec<&str> = blocks.iter().map(|(n, _)| n.as_str()).collect();
    let mut lines: Vec<String> = Vec::new();
    for s in blocks.iter().filter_map(|(_, l)| l.map(span)) {
        if lines.last() != Some(&s) {
            lines.push(s);
        }
    }
    if lines.is_empty() {
        format!("{} -> {end}", names.join(" "))
    } else {
        format!("{} -> {end} (lines {})", names.join(" "), lines.join(", "))
    }
}

/// A regenerated path of a function's CFG as its blocks and source lines
/// ([`blocks_and_lines`]; `-> exit` for a path that returns). For watching a run, where no
/// profile exists yet.
pub fn block_path_text(fc: &crate::tier::cfg_build::FunctionCfg, path: &profiler::Path) -> String {
    let blocks: Vec<(String, Option<[u32; 2]>)> = path
        .nodes
        .iter()
        .map(|&b| (b.to_string(), fc.lines(b)))
        .collect();
    let end = path
        .end
        .map_or_else(|| "exit".to_string(), |h| h.to_string());
    blocks_and_lines(&blocks, &end)
}

/// `1 path`, `2 paths`.
pub fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `part` as a percentage of `whole`, one decimal (`0.0%` of nothing).
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0%".to_string()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The source lines a path runs through, as [`super::report`]'s documentation writes them.
pub fn path_lines(f: &FunctionProfile, p: &PathCount) -> String {
    let spans = line_spans(f, &p.blocks);
    let end = match p.end {
        Some(h) => match f.lines(h) {
            Some(l) => format!("{} (header)", l[0]),
            None => format!("b{h} (header)"),
        },
        None => "return".to_string(),
    };
    // `ol`: the overlap after the back edge, `! lines` (Tallam et al.'s notation).
    let overlap = line_spans(f, &p.overlap);
    let end = if overlap.is_empty() {
        end
    } else {
        format!("{end} ! {}", overlap.join(", "))
    };
    if spans.is_empty() {
        format!("-> {end}")
    } else {
        format!("{} -> {end}", spans.join(", "))
    }
}

/// The line spans of `blocks`, in order, a repeated span once (the exit, and an entry
/// without lines, left out; a block without lines as `bN`).
pub fn line_spans(f: &FunctionProfile, blocks: &[u32]) -> Vec<String> {
    let mut spans: Vec<String> = Vec::new();
    for &b in blocks {
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
    spans
}

/// Every path's text, keyed by id: its source lines ([`path_lines`]), and, when another path
/// of the function runs through the same lines by other blocks (the two outcomes of `a && b`
/// on one line, say), its block sequence as well (` [blocks 2 3 5]`), so no two rows read
/// alike.
pub fn path_texts(f: &FunctionProfile) -> HashMap<u64, String> {
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
pub fn lines_of(texts: &HashMap<u64, String>, id: u64) -> &str {
    texts.get(&id).map_or("?", String::as_str)
}

/// The report's table of paths: a header naming what `what` the text column is, then the
/// first `top` rows (all for 0) of `rows` (`(count, id, text)`, hottest first) with each
/// count's share of `total`, and the rest summed on one line.
pub fn paths_table(
    rows: &[(u64, u64, &str)],
    total: u64,
    top: usize,
    what: &str,
    out: &mut String,
) {
    use std::fmt::Write;
    let _ = writeln!(
        out,
        "{:>10} {:>7} {:>11}  path ({what})",
        "count", "share", "id"
    );
    let shown = shown(rows.len(), top);
    for (count, id, text) in &rows[..shown] {
        let _ = writeln!(
            out,
            "{:>10} {:>7} {:>11}  {}",
            count,
            percent(*count, total),
            id,
            text
        );
    }
    let rest = &rows[shown..];
    if !rest.is_empty() {
        let n: u64 = rest.iter().map(|r| r.0).sum();
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
