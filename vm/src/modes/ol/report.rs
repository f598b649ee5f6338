//! The `ol` report's section of a function: per loop, the flow of its two-iteration paths as
//! Ball-Larus and OL counts bound it, and the pairs of iterations that certainly ran; per call
//! site and callee, the same for the paths into the callee and back out of it (Tallam et al.
//! sections 2.2 and 3.2). Paths are written as source lines, `before ! after`.

use std::fmt::Write as _;

use crate::profile::overlap::{OverlapSection, PairBounds};
use crate::profile::text::{line_spans, plural, ReportOptions};
use crate::profile::{FunctionProfile, Profile};

/// The most pairs listed per loop or call site (with `--top N`, at most `N`).
const MOST_PAIRS: usize = 5;

/// `definite..potential`.
fn range([definite, potential]: [u64; 2]) -> String {
    if definite == potential {
        format!("{definite} (exact)")
    } else {
        format!("{definite}..{potential}")
    }
}

/// The source lines of `blocks` of `f`, or `-` for none.
fn lines(f: &FunctionProfile, blocks: &[u32]) -> String {
    let spans = line_spans(f, blocks);
    if spans.is_empty() {
        "-".to_string()
    } else {
        spans.join(", ")
    }
}

/// Lists the pairs of `bounds`, parts written with `before` and `after`, after a line that
/// says how many certainly ran and may have (`[certain, possible]`).
fn pairs(
    out: &mut String,
    counts: [u64; 2],
    bounds: &[PairBounds],
    most: usize,
    (before, after): (&FunctionProfile, &FunctionProfile),
) {
    let listed = bounds.len().min(most);
    let _ = writeln!(
        out,
        "      {} certainly ran, {} may have{}",
        counts[0],
        counts[1],
        if (listed as u64) < counts[0] {
            format!("; the {listed} most certain:")
        } else if listed > 0 {
            ":".to_string()
        } else {
            String::new()
        }
    );
    for b in bounds.iter().take(most) {
        let _ = writeln!(
            out,
            "      {:>14}  {} ! {}",
            range([b.lower, b.upper]),
            lines(before, &b.before),
            lines(after, &b.after)
        );
    }
}

/// `, overlap capped at N` when a loop's or call site's degree `overlap` is below `k`.
fn capped(overlap: u32, k: u32) -> String {
    if overlap < k {
        format!(", overlap capped at {overlap}")
    } else {
        String::new()
    }
}

/// Writes `function`'s section.
pub fn render(
    out: &mut String,
    profile: &Profile,
    function: &FunctionProfile,
    section: &OverlapSection,
    options: &ReportOptions,
) {
    let most = if options.top == 0 {
        MOST_PAIRS
    } else {
        options.top.min(MOST_PAIRS)
    };
    let k = profile.k;
    if !section.loops.is_empty() || !section.calls.is_empty() {
        let _ = writeln!(
            out,
            "  flows bounded by Ball-Larus and OL-{k} counts (Tallam et al.), with the pairs that \
             certainly ran:"
        );
    }
    for l in &section.loops {
        let at = function
            .lines(l.header)
            .map_or(format!("block {}", l.header), |s| format!("line {}", s[0]));
        let capped = capped(l.overlap, k);
        let _ = writeln!(
            out,
            "    loop at {at}{capped}: two iterations: from BL {}, from OL {}",
            range(l.from_bl),
            range(l.from_ol)
        );
        pairs(out, l.pairs, &l.bounds, most, (function, function));
    }
    for c in &section.calls {
        let Some(callee) = profile.functions.iter().find(|g| g.name == c.callee) else {
            continue;
        };
        let (way, before, after) = if c.crossing == "into" {
            ("into", function, callee)
        } else {
            ("out of", callee, function)
        };
        let capped = capped(c.overlap, k);
        let _ = writeln!(
            out,
            "    call at {}:{} ({}) {way} {}{capped}: from BL {}, from OL {}",
            c.line,
            c.col,
            plural(c.calls, "call"),
            c.callee,
            range(c.from_bl),
            range(c.from_ol)
        );
        pairs(out, c.pairs, &c.bounds, most, (before, after));
    }
}
