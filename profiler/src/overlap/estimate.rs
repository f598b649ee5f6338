//! Bounds on the frequencies of interesting paths from Ball-Larus or OL-K counts (the paper's
//! section 2.2), and their real frequencies counted by definition.
//!
//! An *interesting path* of loop `h` is two consecutive iterations `i ! j`: `i` the part in the
//! loop of a path that ends by a back edge into `h` (from its last visit of `h`, or all of it
//! when it started inside the loop at another header), `j` the part in the loop of the path
//! that starts at `h` right after (up to where it leaves the loop or ends). The paper's
//! equations, for each `i ! j`:
//! - `OF(i, a)`, the count of the OL paths of `i` whose overlap `a` is a prefix of `j`, is the
//!   sum of `F(i ! j')` over the `j'` that start with `a` (equation 3); with Ball-Larus counts
//!   `a` is empty and `OF(i)` the number of times `i` ended by the back edge;
//! - `U(i ! j) = min(OF(i, a) - sum of L(i ! j') over the other j', F_i - X_i, F_j - E_j)`
//!   (equation 7): `F_i - X_i` the times `i` was followed by the back edge, `F_j - E_j` the
//!   times `j` came after one (under `header` path ends a path starting at `h` may also come
//!   after the loop's entry: its count is then only an upper bound of that);
//! - `L(i ! j) = max(OF(i, a) - sum of U(i ! j') over the other j', 0)` (equation 8);
//!
//! repeated until nothing changes. The definite flow of a loop is the sum of its lower bounds,
//! the potential flow the sum of its upper bounds; both contain the real flow, the number of
//! times the back edges were taken.
//!
//! The paper's worked example (Tables 4 and 5, `programs/cfgs/tallam-table2.cfg`) gives
//! definite and potential flows of 0 and 2000 from OL-0 and exact ones from OL-2, as printed.
//! From OL-1 the equations give 500 and 1500, not the paper's 250 and 1250: its Table 5 bounds
//! `2 ! 3` by 0 and 250, but `OF(2, P1 P2) = F(2 ! 2) + F(2 ! 3) = 500` with
//! `F(2 ! 2) <= F_2 - E_2 = 250` forces `F(2 ! 3) >= 250`, and a run with the same OL-1
//! counts (`1 1 2 3` and `2 3`, 250 times each) has `F(2 ! 3) = 500`: 250 is not an upper
//! bound. (Its definite and potential flows are the sums of its Table 5 columns.)

use super::definition::{follow, Ended, OlPath};
use super::OlContext;
use crate::cfg::Block;
use crate::trace::{walk, Trace, TraceError, WalkEvent};
use std::collections::BTreeMap;

/// The iteration before a back edge and the overlap after it: the key of one `OF(i, a)`.
type Group = (Vec<Block>, Vec<Block>);

/// Two consecutive iterations of a loop: `first ! second`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Interesting {
    /// The loop's header.
    pub header: Block,
    /// The iteration before the back edge (its blocks in the loop).
    pub first: Vec<Block>,
    /// The iteration after it (its blocks in the loop, from the header).
    pub second: Vec<Block>,
}

/// The bounds on one interesting path's frequency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The interesting path.
    pub path: Interesting,
    /// Its lower bound.
    pub lower: u64,
    /// Its upper bound.
    pub upper: u64,
}

/// A loop's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopBounds {
    /// The loop's header.
    pub header: Block,
    /// Every pair of an iteration that ended by a back edge and one that started after one,
    /// with its bounds, in order.
    pub paths: Vec<Bounds>,
    /// The sum of the lower bounds.
    pub definite: u64,
    /// The sum of the upper bounds.
    pub potential: u64,
}

/// The blocks of `p` in the loop of `h` before its back edge into `h`: from its last visit of
/// `h`, or all of them.
fn iteration_before(p: &OlPath, h: Block) -> Vec<Block> {
    let from = p.nodes.iter().rposition(|&b| b == h).unwrap_or(0);
    p.nodes[from..].to_vec()
}

/// The blocks of `q` (a path starting at header `h`) while it stays in the loop.
fn iteration_after(cx: &OlContext<'_>, q: &[Block], h: Block) -> Vec<Block> {
    let cfg = cx.cfg();
    let mut out = vec![h];
    for w in q.windows(2) {
        match cfg.find_edge(w[0], w[1]) {
            Some(e) if cx.goes_on(h, e) => out.push(w[1]),
            _ => break,
        }
    }
    out
}

/// Whether `p` ends by a back edge (into `p.end`).
fn ends_by_back_edge(cx: &OlContext<'_>, p: &OlPath) -> bool {
    match (p.nodes.last(), p.end) {
        (Some(&u), Some(h)) => cx.cfg().find_edge(u, h).is_some_and(|e| cx.extends_past(e)),
        _ => false,
    }
}

/// The bounds on every loop's interesting paths from `counts`, a profile of Ball-Larus paths
/// (no overlaps) or of OL paths.
pub fn bounds(cx: &OlContext<'_>, counts: &BTreeMap<OlPath, u64>) -> Vec<LoopBounds> {
    let mut out = Vec::new();
    for l in cx.loops().ids() {
        let h = cx.loops().header(l);
        // OF(i, a), F_i - X_i, and the bound on F_j - E_j.
        let mut of: BTreeMap<Group, u64> = BTreeMap::new();
        let mut row: BTreeMap<Vec<Block>, u64> = BTreeMap::new();
        let mut col: BTreeMap<Vec<Block>, u64> = BTreeMap::new();
        for (p, &c) in counts {
            if p.end == Some(h) && ends_by_back_edge(cx, p) {
                let i = iteration_before(p, h);
                *of.entry((i.clone(), p.overlap.clone())).or_insert(0) += c;
                *row.entry(i).or_insert(0) += c;
            }
            if p.nodes.first() == Some(&h) {
                *col.entry(iteration_after(cx, &p.nodes, h)).or_insert(0) += c;
            }
        }
        if row.is_empty() {
            continue;
        }
        // The cells, each with its group: (i, the longest observed overlap of i that j starts
        // with). A pair with no such overlap never ran: both bounds 0.
        let mut cells: Vec<(Interesting, Option<Group>)> = Vec::new();
        for i in row.keys() {
            for j in col.keys() {
                let group = of
                    .range((i.clone(), Vec::new())..)
                    .take_while(|((fi, _), _)| fi == i)
                    .filter(|((_, a), _)| j.starts_with(a))
                    .max_by_key(|((_, a), _)| a.len())
                    .map(|(g, _)| g.clone());
                cells.push((
                    Interesting {
                        header: h,
                        first: i.clone(),
                        second: j.clone(),
                    },
                    group,
                ));
            }
        }
        let n = cells.len();
        let mut lower = vec![0u64; n];
        let mut upper: Vec<u64> = cells
            .iter()
            .map(|(p, g)| match g {
                None => 0,
                Some(_) => row[&p.first].min(col[&p.second]),
            })
            .collect();
        let mut members: BTreeMap<&Group, Vec<usize>> = BTreeMap::new();
        for (x, (_, g)) in cells.iter().enumerate() {
            if let Some(g) = g {
                members.entry(g).or_default().push(x);
            }
        }
        let groups: Vec<(u64, Vec<usize>)> =
            members.into_iter().map(|(g, xs)| (of[g], xs)).collect();
        settle(&mut lower, &mut upper, &groups);
        let paths: Vec<Bounds> = cells
            .into_iter()
            .enumerate()
            .map(|(x, (path, _))| Bounds {
                path,
                lower: lower[x],
                upper: upper[x],
            })
            .collect();
        out.push(LoopBounds {
            header: h,
            definite: paths.iter().map(|b| b.lower).sum(),
            potential: paths.iter().map(|b| b.upper).sum(),
            paths,
        });
    }
    out
}

/// Tightens the bounds `lower` and `upper` of cells whose sums over each group of `groups`
/// are known, `(total, cells)`: the paper's equations 7 and 8 (17 and 18 across calls),
/// `U(x) <= total - sum of the others' L` and `L(x) >= total - sum of the others' U`, over
/// every group until nothing changes. Each pass only lowers upper bounds and raises lower
/// ones, so this ends (a group settles in a few passes); bounds that contained the truth
/// still do.
pub(crate) fn settle(lower: &mut [u64], upper: &mut [u64], groups: &[(u64, Vec<usize>)]) {
    loop {
        let mut changed = false;
        for (total, xs) in groups {
            let total = i128::from(*total);
            let sum_l: i128 = xs.iter().map(|&x| i128::from(lower[x])).sum();
            let sum_u: i128 = xs.iter().map(|&x| i128::from(upper[x])).sum();
            for &x in xs {
                let (l0, u0) = (i128::from(lower[x]), i128::from(upper[x]));
                let u = u0.min(total - (sum_l - l0)).max(0);
                let l = l0.max(total - (sum_u - u0)).min(u);
                if (u, l) != (u0, l0) {
                    upper[x] = u as u64;
                    lower[x] = l as u64;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// The Ball-Larus counts that OL counts hold: each path with its overlap dropped, the counts
/// of the paths that differ only in it added up.
pub fn without_overlaps(counts: &BTreeMap<OlPath, u64>) -> BTreeMap<OlPath, u64> {
    let mut bl = BTreeMap::new();
    for (p, &c) in counts {
        let plain = OlPath {
            overlap: Vec::new(),
            ..p.clone()
        };
        *bl.entry(plain).or_insert(0) += c;
    }
    bl
}

/// The real frequency of every interesting path along `trace`: each back edge into a header
/// with the iteration before it and the one after it.
pub fn interesting_by_definition(
    cx: &OlContext<'_>,
    trace: &Trace,
) -> Result<BTreeMap<Interesting, u64>, TraceError> {
    let cfg = cx.cfg();
    let mut counts = BTreeMap::new();
    let mut current: Vec<Block> = Vec::new();
    // Iterations waiting for the one after them: (header, the iteration before, the next so far).
    let mut pending: Option<(Block, Vec<Block>, Vec<Block>)> = None;
    let mut close = |pending: &mut Option<(Block, Vec<Block>, Vec<Block>)>| {
        if let Some((h, first, second)) = pending.take() {
            *counts
                .entry(Interesting {
                    header: h,
                    first,
                    second,
                })
                .or_insert(0) += 1;
        }
    };
    walk(cfg, trace, |event| match event {
        WalkEvent::Enter => current = vec![cfg.entry()],
        WalkEvent::Edge(e, b) => {
            if let Some((h, _, second)) = pending.as_mut() {
                if cx.goes_on(*h, e) {
                    second.push(b);
                } else {
                    close(&mut pending);
                }
            }
            if let Some(Ended::ByBackEdge(nodes)) = follow(cx, &mut current, e, b) {
                let p = OlPath {
                    nodes,
                    end: Some(b),
                    overlap: Vec::new(),
                };
                pending = Some((b, iteration_before(&p, b), vec![b]));
            }
        }
        WalkEvent::Exit => close(&mut pending),
    })?;
    Ok(counts)
}

/// The flows of a run's loops: the real one and the definite and potential flows that the
/// Ball-Larus counts and the OL counts give, summed over the loops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flows {
    /// The number of times a back edge was taken between two iterations that both ran.
    pub real: u64,
    /// `(definite, potential)` from the Ball-Larus counts.
    pub from_bl: (u64, u64),
    /// `(definite, potential)` from the OL counts.
    pub from_ol: (u64, u64),
}

impl std::ops::Add for Flows {
    type Output = Flows;

    /// The sums of `self` and `other`.
    fn add(self, other: Flows) -> Flows {
        let pair = |a: (u64, u64), b: (u64, u64)| (a.0 + b.0, a.1 + b.1);
        Flows {
            real: self.real + other.real,
            from_bl: pair(self.from_bl, other.from_bl),
            from_ol: pair(self.from_ol, other.from_ol),
        }
    }
}

impl std::ops::AddAssign for Flows {
    fn add_assign(&mut self, other: Flows) {
        *self = *self + other;
    }
}

/// The flows of `cx`'s loops along `trace` (section 4.1's precision: Figure 5 and Table 8).
pub fn flows(cx: &OlContext<'_>, trace: &Trace) -> Result<Flows, TraceError> {
    let ol = super::ol_paths_by_definition(cx, trace)?;
    let bl = without_overlaps(&ol);
    let real = interesting_by_definition(cx, trace)?;
    let sum = |loops: Vec<LoopBounds>| {
        loops
            .iter()
            .fold((0, 0), |(d, p), l| (d + l.definite, p + l.potential))
    };
    Ok(Flows {
        real: real.values().sum(),
        from_bl: sum(bounds(cx, &bl)),
        from_ol: sum(bounds(cx, &ol)),
    })
}
