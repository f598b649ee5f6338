//! Bounds on the frequencies of interesting paths from Ball-Larus or OL-K counts (the paper's
//! section 2.2), and their real frequencies counted by definition.
//!
//! An *interesting path* of loop `h` is two consecutive iterations `i ! j`: `i` the part in the
//! loop of a path that ends by a back edge into `h` (from its last visit of `h`, or all of it
//! when it started inside the loop at another header), `j` the part in the loop of the path
//! that starts at `h` right after (up to where it leaves the loop or ends). The paper's
//! equations, for each `i ! j`:
//! - `OF(i, a)`, the count of the OL paths of `i` whose overlap is `a`, is the sum of
//!   `F(i ! j')` over the `j'` whose overlap is `a`: their start up to the `(K + 1)`-th
//!   predicate, or all of them (equation 3); a pair whose overlap was never counted with `i`
//!   did not run. With Ball-Larus counts `a` is empty and `OF(i)` the number of times `i` ended
//!   by the back edge;
//! - `U(i ! j) = min(OF(i, a) - sum of L(i ! j') over the other j', F_i - X_i, F_j - E_j)`
//!   (equation 7): `F_i - X_i` the times `i` was followed by the back edge, `F_j - E_j` the
//!   times `j` came after one (under `header` path ends a path starting at `h` may also come
//!   after the loop's entry: its count is then only an upper bound of that);
//! - `L(i ! j) = max(OF(i, a) - sum of U(i ! j') over the other j', 0)` (equation 8);
//!
//! repeated until nothing changes (each group apart, its pairs gathered by cap:
//! [`Listing`] says which pairs are listed, the flows count all). The definite flow of a loop
//! is the sum of its lower bounds,
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

use super::definition::{follow, overlap_len, Ended, OlPath};
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
    /// The real flow: how many times a back edge was taken between two counted iterations
    /// (the counts say it exactly, only not how it splits among the pairs).
    pub flow: u64,
    /// How many pairs may have run (an upper bound above 0), listed or not.
    pub possible: u64,
    /// How many pairs certainly ran (a lower bound above 0), listed or not.
    pub certain: u64,
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
/// (no overlaps) or of OL paths, listing the pairs `listing` asks for.
pub fn bounds(
    cx: &OlContext<'_>,
    counts: &BTreeMap<OlPath, u64>,
    listing: Listing,
) -> Vec<LoopBounds> {
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
        // Each pair i ! j is in the group of i and the overlap j starts with: the extension
        // of i follows j up to its (K + 1)-th predicate. Ball-Larus counts have no overlap.
        let no_overlaps = of.keys().all(|(_, a)| a.is_empty());
        let table = PairTable::new(
            row.iter().map(|(i, &c)| (i.as_slice(), c)).collect(),
            col.iter().map(|(j, &c)| (j.as_slice(), c)).collect(),
            |j| {
                if no_overlaps {
                    &[]
                } else {
                    &j[..overlap_len(j, cx.k(), |b| cx.is_predicate(b))]
                }
            },
            Sums::ByBefore(
                of.iter()
                    .map(|((i, a), &c)| ((i.as_slice(), a.as_slice()), c))
                    .collect(),
            ),
            u64::MAX,
        );
        let solved = table.solve(listing);
        out.push(LoopBounds {
            header: h,
            paths: solved
                .listed
                .into_iter()
                .map(|(first, second, lower, upper)| Bounds {
                    path: Interesting {
                        header: h,
                        first: first.to_vec(),
                        second: second.to_vec(),
                    },
                    lower,
                    upper,
                })
                .collect(),
            definite: solved.definite,
            potential: solved.potential,
            flow: row.values().sum(),
            possible: solved.possible,
            certain: solved.certain,
        });
    }
    out
}

/// Which pairs a computation of bounds lists (their flows always count every pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Every pair of a part before and a part after that were counted, in order, the ones
    /// that cannot have run with bounds `0..=0`: fine for small graphs, quadratic in their
    /// paths.
    All,
    /// The pairs that certainly ran (a lower bound above 0), at most `most`, the largest
    /// lower bounds first.
    Definite {
        /// How many at most.
        most: usize,
    },
}

/// Known sums over groups of the pairs of a [`PairTable`].
pub(crate) enum Sums<'a> {
    /// `((before, a), total)`: the pairs of the part before `before` and the parts after
    /// whose class is `a` sum to `total`; the other pairs did not run.
    ByBefore(BTreeMap<(&'a [Block], &'a [Block]), u64>),
    /// Every pair together sums to the total.
    All(u64),
}

/// The pairs `before ! after` of parts before and whole parts after, each part with its
/// count, which caps the pairs it is in; the parts after in classes (the overlap they start
/// with); known sums over groups of pairs (the paper's equations 3, 9 and 15).
pub(crate) struct PairTable<'a> {
    befores: Vec<(&'a [Block], u64)>,
    afters: Vec<(&'a [Block], u64)>,
    /// The class of each part after.
    class_of: Vec<&'a [Block]>,
    sums: Sums<'a>,
    /// A cap on every pair.
    cap: u64,
}

/// What [`PairTable::solve`] finds.
pub(crate) struct Solved<'a> {
    /// The sum of the lower bounds.
    pub definite: u64,
    /// The sum of the upper bounds.
    pub potential: u64,
    /// How many pairs may have run (an upper bound above 0).
    pub possible: u64,
    /// How many pairs certainly ran (a lower bound above 0).
    pub certain: u64,
    /// The pairs listed: `(before, after, lower, upper)`.
    pub listed: Vec<(&'a [Block], &'a [Block], u64, u64)>,
}

impl<'a> PairTable<'a> {
    /// A table of `befores` and `afters` (distinct parts with their counts), the class of a
    /// part after given by `class`.
    pub(crate) fn new(
        befores: Vec<(&'a [Block], u64)>,
        afters: Vec<(&'a [Block], u64)>,
        class: impl Fn(&'a [Block]) -> &'a [Block],
        sums: Sums<'a>,
        cap: u64,
    ) -> Self {
        let class_of = afters.iter().map(|&(a, _)| class(a)).collect();
        PairTable {
            befores,
            afters,
            class_of,
            sums,
            cap,
        }
    }

    /// The cap of pair `(b, a)` (indices).
    fn cap(&self, b: usize, a: usize) -> u64 {
        self.befores[b].1.min(self.afters[a].1).min(self.cap)
    }

    /// The bounds of every pair: each group settled apart (the groups are disjoint), its pairs
    /// gathered by their cap (pairs with the same cap get the same bounds).
    pub(crate) fn solve(&self, listing: Listing) -> Solved<'a> {
        let mut solved = Solved {
            definite: 0,
            potential: 0,
            possible: 0,
            certain: 0,
            listed: Vec::new(),
        };
        // Every pair's bounds when all are listed, by (before, after) index.
        let mut all: BTreeMap<(usize, usize), (u64, u64)> = BTreeMap::new();
        let nb = self.befores.len();
        let na = self.afters.len();
        match &self.sums {
            Sums::All(total) => {
                let pairs = || (0..nb).flat_map(move |b| (0..na).map(move |a| (b, a)));
                self.settle_pairs(*total, pairs, listing, &mut solved, &mut all);
            }
            Sums::ByBefore(totals) => {
                let mut members: BTreeMap<&[Block], Vec<usize>> = BTreeMap::new();
                for (a, &class) in self.class_of.iter().enumerate() {
                    members.entry(class).or_default().push(a);
                }
                let index: BTreeMap<&[Block], usize> = self
                    .befores
                    .iter()
                    .enumerate()
                    .map(|(b, &(p, _))| (p, b))
                    .collect();
                for (&(before, class), &total) in totals {
                    let (Some(&b), Some(afters)) = (index.get(before), members.get(class)) else {
                        continue;
                    };
                    let pairs = || afters.iter().map(move |&a| (b, a));
                    self.settle_pairs(total, pairs, listing, &mut solved, &mut all);
                }
            }
        }
        match listing {
            Listing::All => {
                for b in 0..nb {
                    for a in 0..na {
                        let (lower, upper) = all.get(&(b, a)).copied().unwrap_or((0, 0));
                        solved
                            .listed
                            .push((self.befores[b].0, self.afters[a].0, lower, upper));
                    }
                }
            }
            Listing::Definite { most } => {
                solved
                    .listed
                    .sort_by(|x, y| (y.2, y.3, x.0, x.1).cmp(&(x.2, x.3, y.0, y.1)));
                solved.listed.truncate(most);
            }
        }
        solved
    }
}

impl<'a> PairTable<'a> {
    /// Settles the group of `pairs` (made twice: to gather their caps, then to list them)
    /// whose frequencies sum to `total`; adds their flows to `solved` and lists them in it or
    /// in `all`, as `listing` says.
    fn settle_pairs<I: Iterator<Item = (usize, usize)>>(
        &self,
        total: u64,
        pairs: impl Fn() -> I,
        listing: Listing,
        solved: &mut Solved<'a>,
        all: &mut BTreeMap<(usize, usize), (u64, u64)>,
    ) {
        let classes = settle_group(total, pairs().map(|(b, a)| self.cap(b, a)));
        for c in classes.values() {
            solved.definite += c.cells * c.lower;
            solved.potential += c.cells * c.upper;
            solved.possible += if c.upper > 0 { c.cells } else { 0 };
            solved.certain += if c.lower > 0 { c.cells } else { 0 };
        }
        if listing == (Listing::Definite { most: 0 }) {
            return;
        }
        for (b, a) in pairs() {
            let c = &classes[&self.cap(b, a)];
            match listing {
                Listing::All => {
                    all.insert((b, a), (c.lower, c.upper));
                }
                Listing::Definite { .. } if c.lower > 0 => {
                    solved
                        .listed
                        .push((self.befores[b].0, self.afters[a].0, c.lower, c.upper))
                }
                Listing::Definite { .. } => {}
            }
        }
    }
}

/// The bounds of the pairs that have one cap.
struct CapClass {
    /// How many pairs have it.
    cells: u64,
    lower: u64,
    upper: u64,
}

/// Settles one group of pairs whose frequencies sum to `total`, each capped by its cap in
/// `caps`: the paper's equations 7 and 8 (13 and 14, 17 and 18 across calls),
/// `U(x) <= total - sum of the others' L` and `L(x) >= total - sum of the others' U`, until
/// nothing changes. Each pass only lowers upper bounds and raises lower ones, so this ends;
/// bounds that contained the truth still do. Pairs with the same cap stay equal, so they are
/// settled as one class with a multiplicity: returns each cap's class.
fn settle_group(total: u64, caps: impl Iterator<Item = u64>) -> BTreeMap<u64, CapClass> {
    let mut classes: BTreeMap<u64, CapClass> = BTreeMap::new();
    for cap in caps {
        classes
            .entry(cap)
            .or_insert(CapClass {
                cells: 0,
                lower: 0,
                upper: cap,
            })
            .cells += 1;
    }
    let total = i128::from(total);
    loop {
        let sum = |f: fn(&CapClass) -> u64| -> i128 {
            classes
                .values()
                .map(|c| i128::from(c.cells) * i128::from(f(c)))
                .sum()
        };
        let (sum_l, sum_u) = (sum(|c| c.lower), sum(|c| c.upper));
        let mut changed = false;
        for c in classes.values_mut() {
            let (l0, u0) = (i128::from(c.lower), i128::from(c.upper));
            let u = u0.min(total - (sum_l - l0)).max(0);
            let l = l0.max(total - (sum_u - u0)).min(u);
            if (u, l) != (u0, l0) {
                c.upper = u as u64;
                c.lower = l as u64;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    classes
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
        from_bl: sum(bounds(cx, &bl, Listing::Definite { most: 0 })),
        from_ol: sum(bounds(cx, &ol, Listing::Definite { most: 0 })),
    })
}
