//! The `kbl` section of the human report (`--report`): after each function's table of paths,
//! its k-IPF trees pruned as in the k-BLPP paper's Figure 4, then its hottest sequences of 2 to
//! K consecutive paths. The layout is shown in [`crate::profile::report`]'s documentation.

use std::fmt::Write;

use crate::profile::text::{lines_of, path_texts, percent, shown, ReportOptions};
use crate::profile::{FunctionProfile, IpfEntry};

/// The subtree of the root entry `ipf[at]` pruned as in the paper's Figure 4: in preorder,
/// every entry whose count is at least `min_share` percent of the root's and whose parent was
/// kept. Returns the kept positions and the end of the root's subtree.
pub(crate) fn pruned(ipf: &[IpfEntry], at: usize, min_share: f64) -> (Vec<usize>, usize) {
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

/// The k-IPF's roots (positions in `ipf`), hottest first (ties by ids), and those of them the
/// report shows: with at least `min_share` percent of the function's `total` paths.
pub(crate) fn roots_shown(
    ipf: &[IpfEntry],
    total: u64,
    min_share: f64,
) -> (Vec<usize>, Vec<usize>) {
    let mut roots: Vec<usize> = (0..ipf.len()).filter(|&i| ipf[i].ids.len() == 1).collect();
    roots.sort_by(|&a, &b| {
        ipf[b]
            .count
            .cmp(&ipf[a].count)
            .then(ipf[a].ids.cmp(&ipf[b].ids))
    });
    let shown = roots
        .iter()
        .copied()
        .filter(|&r| ipf[r].count as f64 * 100.0 >= min_share * total as f64)
        .collect();
    (roots, shown)
}

/// Mode `kbl`: the function's k-IPF trees, pruned, then its hottest multi-iteration paths.
pub fn render_ipf(
    out: &mut String,
    k: u32,
    f: &FunctionProfile,
    ipf: &[IpfEntry],
    options: &ReportOptions,
) {
    let texts = path_texts(f);
    let total = f.total();
    let limit = |n: usize| shown(n, options.top);
    let (roots, listed) = roots_shown(ipf, total, options.min_share);
    let _ = writeln!(
        out,
        "  {k}-IPF: {} trees ({} nodes), {} shown; nodes below {}% of their root pruned",
        roots.len(),
        ipf.len(),
        limit(listed.len()),
        options.min_share
    );
    let _ = writeln!(
        out,
        "{:>10} {:>7}  tree of path ids (share of the root): source lines",
        "count", "share"
    );
    for &r in &listed[..limit(listed.len())] {
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
