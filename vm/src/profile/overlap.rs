//! Mode `ol`'s part of a function's profile: the bounds that its counts give on the paths
//! across its loops' back edges and across its calls (Tallam, Zhang & Gupta 2004, sections 2.2
//! and 3.2), and its counts of paths across calls (section 3.1). See docs/profile-format.md.

use serde::{Deserialize, Serialize};

use super::{FunctionProfile, Mode, Profile};

/// `ol` only: a function's estimates and its paths across calls.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverlapSection {
    /// Its loops, by header.
    pub loops: Vec<LoopEstimate>,
    /// Its call sites, by block, rank in the block, callee, then crossing.
    pub calls: Vec<CallEstimate>,
}

/// The bounds on the paths of two consecutive iterations of one loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopEstimate {
    /// The loop's header block.
    pub header: u32,
    /// The degree of overlap its paths were counted with: `k`, or its maximum overlap when
    /// that is smaller (capped).
    pub overlap: u32,
    /// The real flow of its two-iteration paths: the back edges taken between two counted
    /// iterations (the counts tell it exactly, not how it splits among the pairs).
    pub flow: u64,
    /// `[definite, potential]` flow from the Ball-Larus counts (the OL counts with their
    /// overlaps dropped).
    pub from_bl: [u64; 2],
    /// `[definite, potential]` flow from the OL counts.
    pub from_ol: [u64; 2],
    /// From the OL counts, `[certain, possible]`: how many pairs certainly ran (a lower bound
    /// above 0) and how many may have (an upper bound above 0).
    pub pairs: [u64; 2],
    /// From the OL counts, the pairs of iterations that certainly ran (lower bound above 0),
    /// at most 100, the largest lower bounds first: `before` the iteration ending by the back
    /// edge, `after` the next one.
    pub bounds: Vec<PairBounds>,
}

/// Bounds on the frequency of one path made of two parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairBounds {
    /// The blocks of the first part.
    pub before: Vec<u32>,
    /// The blocks of the second part.
    pub after: Vec<u32>,
    /// The lower bound.
    pub lower: u64,
    /// The upper bound.
    pub upper: u64,
}

/// A path across a call and its count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossCount {
    /// The blocks before the call (or the return).
    pub before: Vec<u32>,
    /// The blocks after it, up to where the overlap stops.
    pub after: Vec<u32>,
    /// How many times it ran.
    pub count: u64,
}

/// One call site, one callee and one way of crossing: the I-OL-K (`into`) or II-OL-K
/// (`out`) paths counted and the bounds they give.
///
/// `into`: `before` blocks are this function's (up to the call's block), `after` blocks
/// the callee's (from its entry). `out`: `before` blocks are the callee's (its path to the
/// exit), `after` blocks this function's (from the call's block on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallEstimate {
    /// The block the call is in.
    pub block: u32,
    /// Its rank among the block's calls.
    pub nth: u32,
    /// The call's source line.
    pub line: u32,
    /// The call's source column.
    pub col: u32,
    /// The function called.
    pub callee: String,
    /// `into` (Type I) or `out` (Type II).
    pub crossing: String,
    /// The degree of overlap its paths were counted with: `k`, or the site's maximum overlap
    /// when that is smaller (capped; the callee's from its entry for `into`, this function's
    /// from the call's block for `out`).
    pub overlap: u32,
    /// The calls counted.
    pub calls: u64,
    /// Every path across the call counted.
    pub paths: Vec<CrossCount>,
    /// `[definite, potential]` flow from the Ball-Larus counts and the number of calls.
    pub from_bl: [u64; 2],
    /// `[definite, potential]` flow from the counts of `paths`.
    pub from_ol: [u64; 2],
    /// From the counts of `paths`, `[certain, possible]`: how many whole paths across the call
    /// certainly ran and how many may have.
    pub pairs: [u64; 2],
    /// From `paths`, the whole paths across the call that certainly ran (lower bound above
    /// 0), at most 100, the largest lower bounds first.
    pub bounds: Vec<PairBounds>,
}

fn list(xs: &[u32]) -> String {
    let items: Vec<String> = xs.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

fn bounds_json(bounds: &[PairBounds]) -> String {
    let items: Vec<String> = bounds
        .iter()
        .map(|b| {
            format!(
                "{{\"before\": {}, \"after\": {}, \"lower\": {}, \"upper\": {}}}",
                list(&b.before),
                list(&b.after),
                b.lower,
                b.upper
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// Writes `f`'s `overlap` member (the last of the function), one line per loop and per call
/// site.
pub(super) fn write_json(o: &mut String, f: &FunctionProfile) {
    let Some(s) = &f.overlap else {
        return;
    };
    let q = |s: &str| serde_json::to_string(s).expect("strings always serialize");
    o.push_str("      \"overlap\": {\n        \"loops\": [");
    for (j, l) in s.loops.iter().enumerate() {
        let sep = if j + 1 < s.loops.len() { "," } else { "" };
        o.push_str(&format!(
            "\n          {{\"header\": {}, \"overlap\": {}, \"flow\": {}, \"from_bl\": {}, \
             \"from_ol\": {}, \"pairs\": {}, \"bounds\": {}}}{sep}",
            l.header,
            l.overlap,
            l.flow,
            list64(&l.from_bl),
            list64(&l.from_ol),
            list64(&l.pairs),
            bounds_json(&l.bounds)
        ));
    }
    o.push_str(if s.loops.is_empty() {
        "],\n"
    } else {
        "\n        ],\n"
    });
    o.push_str("        \"calls\": [");
    for (j, c) in s.calls.iter().enumerate() {
        let sep = if j + 1 < s.calls.len() { "," } else { "" };
        let paths: Vec<String> = c
            .paths
            .iter()
            .map(|p| {
                format!(
                    "{{\"before\": {}, \"after\": {}, \"count\": {}}}",
                    list(&p.before),
                    list(&p.after),
                    p.count
                )
            })
            .collect();
        o.push_str(&format!(
            "\n          {{\"block\": {}, \"nth\": {}, \"line\": {}, \"col\": {}, \"callee\": {}, \
             \"crossing\": {}, \"overlap\": {}, \"calls\": {}, \"paths\": [{}], \
             \"from_bl\": {}, \"from_ol\": {}, \"pairs\": {}, \"bounds\": {}}}{sep}",
            c.block,
            c.nth,
            c.line,
            c.col,
            q(&c.callee),
            q(&c.crossing),
            c.overlap,
            c.calls,
            paths.join(", "),
            list64(&c.from_bl),
            list64(&c.from_ol),
            list64(&c.pairs),
            bounds_json(&c.bounds)
        ));
    }
    o.push_str(if s.calls.is_empty() {
        "]\n"
    } else {
        "\n        ]\n"
    });
    o.push_str("      }\n");
}

fn list64(xs: &[u64; 2]) -> String {
    format!("[{}, {}]", xs[0], xs[1])
}

/// Checks `f`'s `overlap` member against the profile `p`: present only in mode `ol`; every
/// block it names exists in its function (the callee's for the callee's parts); every
/// crossing `into` or `out`; counts positive and adding up to `calls`; every pair listed
/// certain (lower bound above 0) and at most its upper bound, no more listed than certain and
/// no more certain than possible; the real flow (`flow`, `calls`) between the definite and the
/// potential flows; overlaps at most `k`.
pub(super) fn check(p: &Profile, f: &FunctionProfile) -> Result<(), String> {
    let Some(s) = &f.overlap else {
        return Ok(());
    };
    if p.mode != Mode::Ol {
        return Err(format!(
            "overlap is only written in mode ol, not {}",
            p.mode
        ));
    }
    let blocks_of = |name: &str| {
        p.functions
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.blocks.len() as u32)
    };
    let own = f.blocks.len() as u32;
    let within = |xs: &[u32], n: u32| xs.iter().all(|&b| b < n);
    let bounds_ok = |bs: &[PairBounds], [certain, possible]: [u64; 2], nb: u32, na: u32| {
        bs.len() as u64 <= certain
            && certain <= possible
            && bs.iter().all(|b| {
                0 < b.lower && b.lower <= b.upper && within(&b.before, nb) && within(&b.after, na)
            })
    };
    let contain = |[d, p]: [u64; 2], flow: u64| d <= flow && flow <= p;
    for l in &s.loops {
        if l.header >= own
            || l.overlap > p.k
            || !contain(l.from_bl, l.flow)
            || !contain(l.from_ol, l.flow)
            || !bounds_ok(&l.bounds, l.pairs, own, own)
        {
            return Err(format!("overlap: loop at block {} is malformed", l.header));
        }
    }
    for c in &s.calls {
        let bad = |what: &str| {
            Err(format!(
                "overlap: call at line {}:{}: {what}",
                c.line, c.col
            ))
        };
        let Some(callee) = blocks_of(&c.callee) else {
            return bad("its callee is not a function of the profile");
        };
        let (nb, na) = match c.crossing.as_str() {
            "into" => (own, callee),
            "out" => (callee, own),
            _ => return bad("its crossing is neither into nor out"),
        };
        if c.block >= own {
            return bad("its block does not exist");
        }
        if c.overlap > p.k {
            return bad("its overlap is above the profile's k");
        }
        if c.paths.iter().any(|x| x.count == 0) {
            return bad("a path has count 0");
        }
        if c.paths.iter().map(|x| x.count).sum::<u64>() != c.calls {
            return bad("its paths' counts do not add up to its calls");
        }
        if !c
            .paths
            .iter()
            .all(|x| within(&x.before, nb) && within(&x.after, na))
            || !contain(c.from_bl, c.calls)
            || !contain(c.from_ol, c.calls)
            || !bounds_ok(&c.bounds, c.pairs, nb, na)
        {
            return bad("it names a block that does not exist or has bounds out of order");
        }
    }
    Ok(())
}
