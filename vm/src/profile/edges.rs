//! The human report of an `edge` profile: per function that tiered up, its edges by count,
//! each with the source lines of its two blocks (`b3 (line 7) -> b5 (lines 9-11)`). Functions
//! come hottest first, by the flow through their hottest edge's source, i.e. their largest edge
//! count (ties in program order).

use std::fmt::Write;

use super::text::{percent, plural, shown, span, ReportOptions};
use super::{FunctionProfile, Profile};

/// An edge of a profile and its count: `(from, to, count)`.
pub type EdgeCount = (u32, u32, u64);

/// Every edge of `f` with its count, in the order of `edge_counts`.
pub fn edges(f: &FunctionProfile) -> Vec<EdgeCount> {
    let counts = f.edge_counts.as_deref().unwrap_or_default();
    f.blocks
        .iter()
        .flat_map(|b| b.succs.iter().map(move |&s| (b.id, s)))
        .zip(counts)
        .map(|((from, to), &c)| (from, to, c))
        .collect()
}

/// A block as the report names it: `b3 (7)`, `b3 (7-9)`, or `b0` for a virtual block.
fn block(f: &FunctionProfile, id: u32) -> String {
    match f.lines(id) {
        Some(lines) => format!("b{id} ({})", span(lines)),
        None if id == f.exit => format!("b{id} (exit)"),
        None => format!("b{id} (entry)"),
    }
}

/// Writes the body of the report of an `edge` profile.
pub fn report(profile: &Profile, options: &ReportOptions, out: &mut String) {
    let mut order: Vec<(&FunctionProfile, Vec<EdgeCount>)> = profile
        .functions
        .iter()
        .filter(|f| f.edge_counts.is_some())
        .map(|f| (f, edges(f)))
        .collect();
    let hottest = |es: &[EdgeCount]| es.iter().map(|e| e.2).max().unwrap_or(0);
    order.sort_by_key(|(_, es)| std::cmp::Reverse(hottest(es)));
    for (f, mut es) in order {
        let taken = es.iter().filter(|e| e.2 > 0).count();
        let total: u64 = es.iter().map(|e| e.2).fold(0, u64::saturating_add);
        let _ = writeln!(
            out,
            "\n{} (line {}): {} of {} taken since tier-up at {}, {} in all",
            f.name,
            f.line,
            plural(taken as u64, "edge"),
            es.len(),
            f.tiered_up_at.unwrap_or(0),
            plural(total, "traversal")
        );
        es.retain(|e| e.2 > 0);
        es.sort_by_key(|e| std::cmp::Reverse(e.2));
        let n = shown(es.len(), options.top);
        if n > 0 {
            let _ = writeln!(out, "{:>12}  {:>6}  edge", "count", "share");
        }
        for &(from, to, c) in &es[..n] {
            let _ = writeln!(
                out,
                "{c:>12}  {:>6}  {} -> {}",
                percent(c, total),
                block(f, from),
                block(f, to)
            );
        }
        if n < es.len() {
            let rest: u64 = es[n..].iter().map(|e| e.2).sum();
            let _ = writeln!(
                out,
                "{rest:>12}  {:>6}  ({} more)",
                percent(rest, total),
                plural((es.len() - n) as u64, "edge")
            );
        }
    }
    let never: Vec<&str> = profile
        .functions
        .iter()
        .filter(|f| f.edge_counts.is_none())
        .map(|f| f.name.as_str())
        .collect();
    if !never.is_empty() {
        let _ = writeln!(out, "\nNever tiered up (no counts): {}", never.join(", "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_follow_the_blocks_succs() {
        let f = FunctionProfile {
            name: "f".into(),
            file: String::new(),
            line: 1,
            entry: 0,
            exit: 2,
            blocks: vec![
                super::super::BlockLines {
                    id: 0,
                    lines: Some([1, 1]),
                    succs: vec![1, 2],
                },
                super::super::BlockLines {
                    id: 1,
                    lines: Some([2, 3]),
                    succs: vec![2],
                },
                super::super::BlockLines {
                    id: 2,
                    lines: None,
                    succs: vec![],
                },
            ],
            static_paths: 2,
            paths: vec![],
            tiered_up_at: Some(0),
            edge_counts: Some(vec![4, 6, 4]),
            ipf: None,
            kbl_stats: None,
            indirect_calls: vec![],
            overlap: None,
        };
        assert_eq!(edges(&f), vec![(0, 1, 4), (0, 2, 6), (1, 2, 4)]);
        assert_eq!(block(&f, 1), "b1 (2-3)");
        assert_eq!(block(&f, 2), "b2 (exit)");
    }
}
