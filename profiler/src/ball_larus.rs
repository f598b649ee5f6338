//! Ball-Larus path numbering on the path DAG, canonical or smart, with checked path counts and
//! the overflow fallback.
//!
//! **Numbering** (k-BLPP paper, Figure 2; Ball & Larus 1996): visit the blocks in reverse
//! topological order; the exit has `numPaths = 1`; any other block `v` gets, for each outgoing
//! DAG edge `e = v -> w` in turn, `val(e) = numPaths(v)` and then `numPaths(v) += numPaths(w)`.
//! The sum of `val` along any DAG path from the entry to the exit is a unique id in
//! `0..numPaths(entry)`. The turn order is:
//! - [`Numbering::Canonical`]: successors in order, dummy edges after real ones
//!   ([`PathDag::out_edges`]);
//! - [`Numbering::Smart`] (Bond & McKinley 2005, k-BLPP section 3.2): by decreasing edge
//!   frequency (ties keep the canonical order), so the hottest edge out of each block gets
//!   `val = 0` and needs no instrumentation.
//!
//! ```text
//!   Ball-Larus slides:  A -> C B,  B -> C D,  C -> D,  D -> F E,  E -> F   (exit F)
//!   numPaths: F 1, E 1, D 2 (D->F 0, D->E 1), C 2, B 4 (B->C 0, B->D 2), A 6 (A->C 0, A->B 2)
//!   path 3 = A->B (2) + B->C (0) + C->D (0) + D->E (1) = A B C D E F
//! ```
//!
//! **No aborts** (issue item 7): every `numPaths` is computed with checked arithmetic against a
//! configurable `limit` (default `u64::MAX`). When the total would exceed it, [`BallLarus::new`]
//! adds *extra cut blocks*: a cut block ends every path arriving at it and starts new ones, like
//! a loop header under `header` path ends. They are chosen greedily in reverse topological order
//! with a per-block budget `B`: whenever a block's path count exceeds `B`, its successors with
//! the most paths become cut blocks until it fits. Every start then has at most `B` paths of its
//! own, so the total is at most `B` times the number of starts, hence `B` times the number of
//! blocks. With a large limit (`u64::MAX`), `B = limit / blocks`: one O(V + E) pass, and the
//! total fits. With a small limit (tests), `B` starts at `limit / 2` and is halved until the total
//! fits, which cuts fewer blocks. The choice is reported as a [`Fallback::ExtraCuts`], never
//! silently. The greedy choice is not optimal; when it cannot fit the limit, the last resort cuts
//! at every block, which leaves exactly one path per CFG edge. So numbering succeeds whenever
//! `limit >= number of edges`; below that it may fail ([`BlError::LimitTooSmall`]) even where
//! some cleverer set of cuts would fit.

use crate::cfg::{Block, Cfg, Edge};
use crate::dag::{DagEdge, DagEdgeKind, PathDag, PathEnds};
use crate::dfs::DepthFirst;
use crate::index::IndexVec;
use std::fmt;
use std::str::FromStr;

/// Execution counts of the CFG's edges (a tier-0 edge profile, or edges counted along a trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeProfile {
    /// Count of every CFG edge, indexed by [`Edge`].
    pub edges: IndexVec<Edge, u64>,
}

impl EdgeProfile {
    /// An all-zero profile for `cfg`.
    pub fn zeros(cfg: &Cfg) -> Self {
        EdgeProfile {
            edges: IndexVec::from_elem(0, cfg.num_edges()),
        }
    }

    /// The counts completed by the static estimate `10^(loop depth)` (the depth of an edge's
    /// shallower end, capped at 9) added to every edge: the weights of a profile taken early.
    ///
    /// A tier-0 profile covers only what ran before the function tiered up, often its first
    /// loop: every later loop has zero counts, and numbering or placement by those counts alone
    /// would order that loop's edges arbitrarily (the exit of an inner loop as likely to get
    /// increment 0 as its body). With the estimate added, edges that ran keep their order by
    /// count (the estimate is equal for edges of one loop depth), and edges that did not run are
    /// ordered as Ball and Larus's static heuristic orders them: staying in a loop before
    /// leaving it.
    pub fn with_static_estimate(&self, cfg: &Cfg) -> EdgeProfile {
        let dfs = DepthFirst::compute(cfg);
        let depth = crate::loops::block_depths(cfg, &dfs);
        let edges = cfg
            .edges()
            .map(|e| {
                let d = depth[cfg.source(e)].min(depth[cfg.target(e)]).min(9);
                self.edges[e].saturating_add(10u64.pow(d))
            })
            .collect();
        EdgeProfile {
            edges: IndexVec::from_raw(edges),
        }
    }

    /// The frequency of every DAG edge: a real or `End` edge has its CFG edge's count; the
    /// `Start` edge of block `h` has the total count of the cut edges into `h`.
    pub fn dag_frequencies(&self, cfg: &Cfg, dag: &PathDag) -> IndexVec<DagEdge, u64> {
        let mut into_start = IndexVec::from_elem(0u64, cfg.num_blocks());
        for e in cfg.edges() {
            if dag.is_cut(e) {
                let t = cfg.target(e);
                into_start[t] = into_start[t].saturating_add(self.edges[e]);
            }
        }
        let freqs = dag
            .edges()
            .map(|d| match dag.kind(d) {
                DagEdgeKind::Real(e) | DagEdgeKind::End(e) => self.edges[e],
                DagEdgeKind::Start(h) => into_start[h],
            })
            .collect();
        IndexVec::from_raw(freqs)
    }
}

/// The order in which a block's outgoing edges receive their values.
#[derive(Clone, Copy, Debug)]
pub enum Numbering<'a> {
    /// Successors in order, dummy edges after real ones.
    Canonical,
    /// Hottest edge first (value 0), by the given edge frequencies.
    Smart(&'a EdgeProfile),
}

/// The name of a numbering, for command lines (`canonical` or `smart`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NumberingKind {
    /// [`Numbering::Canonical`].
    #[default]
    Canonical,
    /// [`Numbering::Smart`].
    Smart,
}

impl FromStr for NumberingKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "canonical" => Ok(NumberingKind::Canonical),
            "smart" => Ok(NumberingKind::Smart),
            _ => Err(format!(
                "unknown numbering '{s}' (expected canonical or smart)"
            )),
        }
    }
}

impl fmt::Display for NumberingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberingKind::Canonical => "canonical",
            NumberingKind::Smart => "smart",
        })
    }
}

/// A fallback taken instead of aborting (issue item 7). Every fallback is listed in the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The acyclic path count exceeded the limit; these blocks also cut paths (like headers).
    ExtraCuts {
        /// The extra cut blocks, by block index.
        blocks: Vec<Block>,
        /// The configured limit on the number of static paths.
        limit: u64,
        /// The path count without the extra cuts, or `None` if it does not even fit in a u64.
        paths_without: Option<u64>,
    },
    /// A k-iteration loop is profiled acyclically instead (used by the k-iteration plans).
    LoopToAcyclic {
        /// The loop's header.
        header: Block,
        /// Why.
        reason: String,
    },
}

impl Fallback {
    /// The message, with blocks named by `name`; lists the extra cut blocks.
    pub fn render(&self, name: &dyn Fn(Block) -> String) -> String {
        match self {
            Fallback::ExtraCuts {
                blocks,
                limit,
                paths_without,
            } => {
                let without =
                    paths_without.map_or("more than 2^64 - 1".to_string(), |n| n.to_string());
                let names: Vec<String> = blocks.iter().map(|&b| name(b)).collect();
                format!(
                    "{without} acyclic paths exceed the limit {limit}; paths are also cut on arriving at {} extra block(s): {}",
                    blocks.len(),
                    names.join(" ")
                )
            }
            Fallback::LoopToAcyclic { header, reason } => {
                format!(
                    "loop at {} is profiled acyclically: {reason}",
                    name(*header)
                )
            }
        }
    }
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|b: Block| b.to_string()))
    }
}

/// Why paths could not be numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlError {
    /// Even cutting paths after every block leaves more paths than the limit allows.
    LimitTooSmall {
        /// The limit.
        limit: u64,
        /// A block whose out-degree alone exceeds the per-block budget.
        block: Block,
    },
}

impl BlError {
    /// The message, with blocks named by `name`.
    pub fn render(&self, name: &dyn Fn(Block) -> String) -> String {
        match self {
            BlError::LimitTooSmall { limit, block } => format!(
                "the path limit {limit} is too small: the greedy extra cuts cannot fit it (at block {})",
                name(*block)
            ),
        }
    }
}

impl fmt::Display for BlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|b: Block| b.to_string()))
    }
}

impl std::error::Error for BlError {}

/// `numPaths` and `val` of a numbering, and each block's out-edges in value order.
#[derive(Clone, Debug)]
pub struct BlNumbering {
    num_paths: IndexVec<Block, u64>,
    val: IndexVec<DagEdge, u64>,
    /// The DAG edges grouped as in [`PathDag::out_edges`], each group sorted by `val`.
    by_value: Vec<DagEdge>,
    /// `by_value_start[b]..by_value_start[b+1]` is block b's group.
    by_value_start: Vec<u32>,
}

impl BlNumbering {
    /// Numbers `dag` (Figure 2 of k-BLPP) in the order `numbering`, or returns the first block
    /// (in reverse topological order) whose path count exceeds `limit`.
    pub fn compute(
        cfg: &Cfg,
        dag: &PathDag,
        numbering: Numbering<'_>,
        limit: u64,
    ) -> Result<Self, Block> {
        let n = dag.num_blocks();
        let freqs = match numbering {
            Numbering::Canonical => None,
            Numbering::Smart(p) => Some(p.dag_frequencies(cfg, dag)),
        };
        let mut num_paths = IndexVec::from_elem(0u64, n);
        let mut val = IndexVec::from_elem(0u64, dag.num_edges());
        let mut by_value_start = Vec::with_capacity(n + 1);
        let mut acc = 0u32;
        for b in 0..n {
            by_value_start.push(acc);
            acc += dag.out_degree(Block::new(b)) as u32;
        }
        by_value_start.push(acc);
        let mut by_value = vec![DagEdge::new(0); dag.num_edges()];
        for &v in dag.topological_order().iter().rev() {
            let slot = by_value_start[v.index()] as usize;
            let group = &mut by_value[slot..slot + dag.out_degree(v)];
            for (g, d) in group.iter_mut().zip(dag.out_edges(v)) {
                *g = d;
            }
            if let Some(f) = &freqs {
                group.sort_by_key(|&d| std::cmp::Reverse(f[d]));
            }
            if v == dag.exit() {
                num_paths[v] = 1;
                continue;
            }
            let mut np = 0u64;
            for &d in group.iter() {
                val[d] = np;
                np = np
                    .checked_add(num_paths[dag.target(d)])
                    .filter(|&x| x <= limit)
                    .ok_or(v)?;
            }
            num_paths[v] = np;
        }
        Ok(BlNumbering {
            num_paths,
            val,
            by_value,
            by_value_start,
        })
    }

    /// Number of paths from `b` to the exit in the DAG.
    #[inline]
    pub fn num_paths(&self, b: Block) -> u64 {
        self.num_paths[b]
    }

    /// The value of DAG edge `d`.
    #[inline]
    pub fn val(&self, d: DagEdge) -> u64 {
        self.val[d]
    }

    /// The DAG edges leaving `b`, by increasing value (the order they were numbered in).
    #[inline]
    pub fn out_edges_by_value(&self, b: Block) -> &[DagEdge] {
        let lo = self.by_value_start[b.index()] as usize;
        let hi = self.by_value_start[b.index() + 1] as usize;
        &self.by_value[lo..hi]
    }
}

/// The per-block budgets to try: `limit / blocks` alone when it is large (one pass, and the
/// total is then at most `limit`), else `limit / 2, limit / 4, ...` (small limits, as in tests,
/// where fewer cuts matter).
fn budgets(limit: u64, blocks: u64) -> Vec<u64> {
    let one_pass = limit / blocks.max(1);
    if one_pass >= 1 << 20 {
        vec![one_pass]
    } else {
        (1..64).map(|k| limit >> k).take_while(|&b| b > 0).collect()
    }
}

/// The number of paths of `dag`, or `None` if it does not fit in a `u64`.
fn count_paths(dag: &PathDag) -> Option<u64> {
    let mut count = IndexVec::from_elem(0u64, dag.num_blocks());
    for &v in dag.topological_order().iter().rev() {
        if v == dag.exit() {
            count[v] = 1;
            continue;
        }
        let mut np = 0u64;
        for d in dag.out_edges(v) {
            np = np.checked_add(count[dag.target(d)])?;
        }
        count[v] = np;
    }
    Some(count[dag.entry()])
}

/// Path counts only, for choosing extra cuts: greedy in reverse topological order with a
/// per-block budget (see the [module documentation](self)). Fails with a block that cannot fit
/// the budget even with all its successors cut.
fn choose_extra_cuts(cfg: &Cfg, dag: &PathDag, budget: u64) -> Result<Vec<Block>, Block> {
    let n = cfg.num_blocks();
    let mut cut = IndexVec::from_elem(false, n);
    let mut count = IndexVec::from_elem(0u64, n);
    let mut real: Vec<(u64, Block)> = Vec::new();
    for &v in dag.topological_order().iter().rev() {
        if v == dag.exit() {
            count[v] = 1;
            continue;
        }
        // Contributions: a cut target (or dummy edge) counts 1; a real target its count.
        let mut ones = 0u64;
        real.clear();
        for d in dag.out_edges(v) {
            match dag.kind(d) {
                DagEdgeKind::Real(_) => {
                    let w = dag.target(d);
                    if cut[w] || w == dag.exit() {
                        ones += 1;
                    } else {
                        real.push((count[w], w));
                    }
                }
                // A start dummy (from the entry) leads to a start block, which keeps its own
                // paths: the entry's budget covers only its own real paths (module docs).
                DagEdgeKind::Start(_) => {}
                DagEdgeKind::End(_) => ones += 1,
            }
        }
        let mut total = real.iter().fold(ones, |acc, &(c, _)| acc.saturating_add(c));
        if total > budget {
            real.sort_by_key(|&(c, w)| (std::cmp::Reverse(c), w));
            for &(c, w) in real.iter() {
                if total <= budget {
                    break;
                }
                cut[w] = true;
                total = total - c + 1;
            }
            if total > budget {
                return Err(v);
            }
        }
        count[v] = total;
    }
    Ok(cfg.blocks().filter(|&b| cut[b]).collect())
}

/// A numbered CFG: the depth-first search, the path DAG (with any extra cuts), the numbering
/// and the fallbacks taken. This is the entry point for Ball-Larus profiling:
/// [`BallLarus::plan`] gives the instrumentation, [`BallLarus::regenerate`] turns ids into paths.
#[derive(Clone, Debug)]
pub struct BallLarus {
    dfs: DepthFirst,
    dag: PathDag,
    numbering: BlNumbering,
    fallbacks: Vec<Fallback>,
    numbering_kind: NumberingKind,
}

impl BallLarus {
    /// Numbers the paths of `cfg` under `path_ends`, with at most `limit` static paths (use
    /// `u64::MAX` for no limit other than the id width).
    pub fn new(
        cfg: &Cfg,
        path_ends: PathEnds,
        numbering: Numbering<'_>,
        limit: u64,
    ) -> Result<Self, BlError> {
        let dfs = DepthFirst::compute(cfg);
        let dag = PathDag::new(cfg, &dfs, path_ends, &[]);
        let numbering_kind = match numbering {
            Numbering::Canonical => NumberingKind::Canonical,
            Numbering::Smart(_) => NumberingKind::Smart,
        };
        match BlNumbering::compute(cfg, &dag, numbering, limit) {
            Ok(nb) => Ok(BallLarus {
                dfs,
                dag,
                numbering: nb,
                fallbacks: Vec::new(),
                numbering_kind,
            }),
            Err(_) => {
                let paths_without = count_paths(&dag);
                let mut last_block = cfg.entry();
                // The greedy budgets first; if they all fail, cut at every block (then every path
                // is one edge, so there are exactly as many paths as edges).
                let every_block = || {
                    cfg.blocks()
                        .filter(|&b| b != cfg.entry() && b != cfg.exit())
                        .collect::<Vec<_>>()
                };
                let mut attempts = budgets(limit, cfg.num_blocks() as u64).into_iter();
                let mut last_resort = (cfg.num_edges() as u64 <= limit).then(every_block);
                loop {
                    let extra = match attempts.next() {
                        Some(budget) => match choose_extra_cuts(cfg, &dag, budget) {
                            Ok(extra) => extra,
                            Err(block) => {
                                last_block = block;
                                attempts = Vec::new().into_iter();
                                continue;
                            }
                        },
                        None => match last_resort.take() {
                            Some(all) => all,
                            None => break,
                        },
                    };
                    let cut_dag = PathDag::new(cfg, &dfs, path_ends, &extra);
                    match BlNumbering::compute(cfg, &cut_dag, numbering, limit) {
                        Ok(nb) => {
                            let fallbacks = vec![Fallback::ExtraCuts {
                                blocks: extra,
                                limit,
                                paths_without,
                            }];
                            return Ok(BallLarus {
                                dfs,
                                dag: cut_dag,
                                numbering: nb,
                                fallbacks,
                                numbering_kind,
                            });
                        }
                        Err(block) => last_block = block,
                    }
                }
                Err(BlError::LimitTooSmall {
                    limit,
                    block: last_block,
                })
            }
        }
    }

    /// The number of static paths (ids are `0..num_paths()`).
    pub fn num_paths(&self) -> u64 {
        self.numbering.num_paths(self.dag.entry())
    }

    /// The depth-first search of the CFG.
    pub fn dfs(&self) -> &DepthFirst {
        &self.dfs
    }

    /// The path DAG (with the extra cuts, if any).
    pub fn dag(&self) -> &PathDag {
        &self.dag
    }

    /// `numPaths` and `val`.
    pub fn numbering(&self) -> &BlNumbering {
        &self.numbering
    }

    /// Which numbering order was used.
    pub fn numbering_kind(&self) -> NumberingKind {
        self.numbering_kind
    }

    /// The fallbacks taken (empty when the paths fit the limit as they are).
    pub fn fallbacks(&self) -> &[Fallback] {
        &self.fallbacks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;

    #[test]
    fn ball_larus_slides_num_paths_table() {
        let p =
            parse_cfg("entry A\nexit F\nA -> C B\nB -> C D\nC -> D\nD -> F E\nE -> F\n").unwrap();
        let bl =
            BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
        let table: Vec<(&str, u64)> = p
            .cfg
            .blocks()
            .map(|b| (p.name(b), bl.numbering().num_paths(b)))
            .collect();
        let mut table = table;
        table.sort();
        assert_eq!(
            table,
            vec![("A", 6), ("B", 4), ("C", 2), ("D", 2), ("E", 1), ("F", 1)]
        );
        let ab = bl.dag().dag_edge(
            p.cfg
                .find_edge(p.block("A").unwrap(), p.block("B").unwrap())
                .unwrap(),
        );
        assert_eq!(bl.numbering().val(ab), 2);
    }

    #[test]
    fn smart_numbering_gives_the_hottest_edge_zero() {
        let p =
            parse_cfg("entry A\nexit F\nA -> C B\nB -> C D\nC -> D\nD -> F E\nE -> F\n").unwrap();
        let mut prof = EdgeProfile::zeros(&p.cfg);
        let ab = p
            .cfg
            .find_edge(p.block("A").unwrap(), p.block("B").unwrap())
            .unwrap();
        prof.edges[ab] = 10;
        let bl = BallLarus::new(
            &p.cfg,
            PathEnds::Backedge,
            Numbering::Smart(&prof),
            u64::MAX,
        )
        .unwrap();
        assert_eq!(bl.numbering().val(bl.dag().dag_edge(ab)), 0);
        assert_eq!(bl.num_paths(), 6);
    }

    #[test]
    fn an_early_profile_with_the_static_estimate_numbers_unrun_loops_staying_first() {
        // An outer loop (h1) that ran a few times before tier-up and an inner loop (h2, body
        // b2) that had not run yet; the inner test's exit is its first successor.
        let p =
            parse_cfg("entry e\nexit x\ne -> h1\nh1 -> x b1\nb1 -> h2\nh2 -> h1 b2\nb2 -> h2\n")
                .unwrap();
        let edge = |a: &str, b: &str| {
            p.cfg
                .find_edge(p.block(a).unwrap(), p.block(b).unwrap())
                .unwrap()
        };
        let mut early = EdgeProfile::zeros(&p.cfg);
        for (a, b, n) in [
            ("e", "h1", 1),
            ("h1", "b1", 3),
            ("b1", "h2", 3),
            ("h2", "h1", 3),
        ] {
            early.edges[edge(a, b)] = n;
        }
        let weights = early.with_static_estimate(&p.cfg);
        // Counts keep their order within a depth; the unrun body outweighs the inner exit.
        assert!(weights.edges[edge("h1", "b1")] > weights.edges[edge("h1", "x")]);
        assert!(weights.edges[edge("h2", "b2")] > weights.edges[edge("h2", "h1")]);
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let by_counts = BallLarus::new(&p.cfg, ends, Numbering::Smart(&early), u64::MAX);
            let blended = BallLarus::new(&p.cfg, ends, Numbering::Smart(&weights), u64::MAX);
            let (by_counts, blended) = (by_counts.unwrap(), blended.unwrap());
            let val = |bl: &BallLarus, a, b| bl.numbering().val(bl.dag().dag_edge(edge(a, b)));
            // By the counts alone the inner loop's exit (it ran) takes value 0 and its body
            // an increment on every iteration; blended, the body is free.
            assert_ne!(val(&by_counts, "h2", "b2"), 0, "{ends}");
            assert_eq!(val(&blended, "h2", "b2"), 0, "{ends}");
            assert_eq!(by_counts.num_paths(), blended.num_paths());
        }
    }

    #[test]
    fn cutting_everywhere_fits_any_limit_of_at_least_the_edge_count() {
        // Roy & Srikant Figure 1 has 8 edges and 10 acyclic paths.
        let p =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        for limit in 8..=10 {
            let bl =
                BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, limit).unwrap();
            assert!(bl.num_paths() <= limit);
        }
    }

    #[test]
    fn overflow_adds_reported_cuts() {
        // A chain of 5 diamonds has 32 paths; a limit of 20 forces extra cuts.
        let mut text = String::from("entry s\nexit z\n");
        for i in 0..5 {
            text += &format!(
                "s{i} -> a{i} b{i}\na{i} -> s{}\nb{i} -> s{}\n",
                i + 1,
                i + 1
            );
        }
        text = text.replace("s0", "s").replace("s5", "z");
        let p = parse_cfg(&text).unwrap();
        let bl = BallLarus::new(&p.cfg, PathEnds::Header, Numbering::Canonical, 20).unwrap();
        assert!(bl.num_paths() <= 20);
        assert!(matches!(
            bl.fallbacks(),
            [Fallback::ExtraCuts {
                paths_without: Some(32),
                ..
            }]
        ));
        assert!(matches!(
            BallLarus::new(&p.cfg, PathEnds::Header, Numbering::Canonical, 3),
            Err(BlError::LimitTooSmall { limit: 3, .. })
        ));
    }
}
