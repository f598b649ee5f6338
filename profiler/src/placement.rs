//! Increment placement: from edge values to an instrumentation plan ([`BlPlan`]).
//!
//! **Plain**: each DAG edge carries its own value. `r = 0` at the entry; `r += val(e)` on each
//! real edge with a non-zero value; a cut edge `u -> h` runs `count[r + val(u -> EXIT)]` then
//! `r = val(ENTRY -> h)`; `count[r]` at the exit.
//!
//! **Event counting** (Ball & Larus 1996 section 3.3-3.4, after Ball 1994): add the edge
//! `EXIT -> ENTRY` to the DAG and build a maximum spanning tree of the undirected graph by edge
//! weight (Kruskal, with `EXIT -> ENTRY` forced in). Only the *chords* (non-tree edges) get
//! increments: with potentials `phi` along the tree (`phi(ENTRY) = 0`, `phi(w) = phi(v) + val(e)`
//! across a tree edge `e = v -> w`), `Inc(c) = val(c) + phi(v) - phi(w)` for a chord `c = v -> w`,
//! so the sum of `Inc` over the chords of any ENTRY-EXIT path equals the sum of `val` over all its
//! edges (the `phi` terms telescope). Then the two foldings of the paper:
//! - *initialization*: walk forward from ENTRY through tree edges into blocks with a single
//!   incoming edge; the first edges beyond that region get `r = Inc(c)` (a chord) or `r = 0` (a
//!   tree edge) instead of a separate `r = 0` at the entry;
//! - *counting*: walk backward from EXIT through tree edges out of blocks with a single outgoing
//!   edge; the edges entering that region get `count[r + Inc(c)]` (a chord) or `count[r]`
//!   instead of `count[r]` at the exit (`count[Inc(c)]` when both meet on one edge).
//!
//! Because the tree contains `EXIT -> ENTRY`, no tree path joins ENTRY to EXIT, so the two
//! regions are disjoint: on every path the initialization comes before the count.
//!
//! The remaining chords get `r += Inc(c)`. Weights are the edge frequencies of a profile, or
//! without one a static estimate, `10^(loop depth)` (capped at depth 9). Dummy edges weigh 0: their increments fold
//! into the count and the reset that a cut edge performs anyway, so they are the best chords.
//!
//! ```text
//!   slides graph, all weights equal:  tree = the edges Kruskal meets first; every path from A
//!   to F crosses the chords once per chord on it, and sum(Inc) = path id.
//! ```

use crate::ball_larus::{BallLarus, EdgeProfile};
use crate::cfg::Cfg;
use crate::dag::{DagEdge, DagEdgeKind};
use crate::index::IndexVec;
use crate::loops::block_depths;
use crate::plan::{BlPlan, Placement, Probe};

impl BallLarus {
    /// The instrumentation plan for `placement`. Event counting uses `weights` (edge
    /// frequencies) when given, else the static estimate.
    pub fn plan(&self, cfg: &Cfg, placement: Placement, weights: Option<&EdgeProfile>) -> BlPlan {
        let dag = self.dag();
        let dag_probes = match placement {
            Placement::Plain => None,
            Placement::EventCounting => Some(event_counting(self, cfg, weights)),
        };
        let n = cfg.num_blocks();
        let mut plan = BlPlan {
            path_ends: dag.path_ends(),
            placement,
            num_paths: self.num_paths(),
            entry: Probe::None,
            edges: IndexVec::from_elem(Probe::None, cfg.num_edges()),
            cut: IndexVec::from_raw(cfg.edges().map(|e| dag.is_cut(e)).collect()),
            start: IndexVec::from_elem(Probe::None, n),
            is_start: IndexVec::from_elem(false, n),
            exit: Probe::None,
            extra_cuts: dag.extra_cuts().to_vec(),
            fallbacks: self.fallbacks().to_vec(),
            spanning_tree: Vec::new(),
        };
        for &h in dag.starts() {
            plan.is_start[h] = true;
        }
        match dag_probes {
            None => {
                let nb = self.numbering();
                plan.entry = Probe::Set(0);
                plan.exit = Probe::CountAdd(0);
                for e in cfg.edges() {
                    let d = dag.dag_edge(e);
                    plan.edges[e] = if dag.is_cut(e) {
                        Probe::CountAdd(nb.val(d))
                    } else {
                        Probe::add(nb.val(d))
                    };
                }
                for &h in dag.starts() {
                    plan.start[h] = Probe::Set(dag.start_edge(h).map_or(0, |d| nb.val(d)));
                }
            }
            Some(EventCounting::SinglePath) => plan.exit = Probe::CountConst(0),
            Some(EventCounting::Probes(probes, tree)) => {
                plan.spanning_tree = tree;
                for e in cfg.edges() {
                    plan.edges[e] = probes[dag.dag_edge(e)];
                }
                for &h in dag.starts() {
                    if let Some(d) = dag.start_edge(h) {
                        plan.start[h] = probes[d];
                    }
                }
            }
        }
        plan
    }
}

enum EventCounting {
    /// The CFG is a single block (the entry is the exit): count path 0 at the exit.
    SinglePath,
    /// A probe per DAG edge, and the DAG edges of the spanning tree.
    Probes(IndexVec<DagEdge, Probe>, Vec<DagEdge>),
}

/// Static weight classes: `1 + min(loop depth, 9)` for real edges (depth of the shallower end,
/// standing for a weight of `10^depth`), 0 for dummy edges.
fn static_classes(cfg: &Cfg, bl: &BallLarus) -> Vec<u8> {
    let dag = bl.dag();
    let depth = block_depths(cfg, bl.dfs());
    dag.edges()
        .map(|d| match dag.kind(d) {
            DagEdgeKind::Real(e) => 1 + depth[cfg.source(e)].min(depth[cfg.target(e)]).min(9) as u8,
            DagEdgeKind::Start(_) | DagEdgeKind::End(_) => 0,
        })
        .collect()
}

/// The DAG edges by decreasing weight, ties by edge index (the order Kruskal takes them in).
/// A profile: one unstable sort of packed `(weight, index)` keys, weights saturated at 2^32 - 1
/// (edges that hot go into the tree first anyway). The static estimate has 11 weight classes:
/// a counting sort, O(E).
fn kruskal_order(cfg: &Cfg, bl: &BallLarus, weights: Option<&EdgeProfile>) -> Vec<DagEdge> {
    let dag = bl.dag();
    match weights {
        Some(p) => {
            let w = p.dag_frequencies(cfg, dag);
            let mut keys: Vec<u64> = dag
                .edges()
                .map(|d| {
                    // Dummy edges weigh 0 (module docs).
                    let w = if matches!(dag.kind(d), DagEdgeKind::Real(_)) {
                        w[d]
                    } else {
                        0
                    };
                    ((u64::from(u32::MAX) - w.min(u64::from(u32::MAX))) << 32)
                        | u64::from(d.as_u32())
                })
                .collect();
            keys.sort_unstable();
            keys.into_iter()
                .map(|k| DagEdge::from_u32(k as u32))
                .collect()
        }
        None => {
            let class = static_classes(cfg, bl);
            let mut start = [0usize; 12];
            for &c in &class {
                start[10 - c as usize + 1] += 1;
            }
            for i in 0..11 {
                start[i + 1] += start[i];
            }
            let mut order = vec![DagEdge::new(0); class.len()];
            for (i, &c) in class.iter().enumerate() {
                let slot = &mut start[10 - c as usize];
                order[*slot] = DagEdge::new(i);
                *slot += 1;
            }
            order
        }
    }
}

fn event_counting(bl: &BallLarus, cfg: &Cfg, weights: Option<&EdgeProfile>) -> EventCounting {
    let dag = bl.dag();
    if dag.entry() == dag.exit() {
        // A single block: one path, no edges to put the count on.
        return EventCounting::SinglePath;
    }
    let nb = bl.numbering();
    let n = dag.num_blocks();
    let m = dag.num_edges();
    // Maximum spanning tree (Kruskal), EXIT -> ENTRY (value 0) first. The union-find also
    // keeps each block's potential relative to its root, so no separate tree walk is needed.
    let mut forest = PotentialForest::new(n);
    forest.union(dag.exit().index(), dag.entry().index(), 0);
    let mut in_tree = IndexVec::from_elem(false, m);
    for d in kruskal_order(cfg, bl, weights) {
        if forest.union(dag.source(d).index(), dag.target(d).index(), nb.val(d)) {
            in_tree[d] = true;
        }
    }

    // Initialization region I: ENTRY, and every block whose only incoming edge is a tree edge
    // from I (topological order sees the source first).
    let mut in_init = IndexVec::from_elem(false, n);
    in_init[dag.entry()] = true;
    for &v in dag.topological_order() {
        if in_init[v] {
            for d in dag.out_edges(v) {
                let w = dag.target(d);
                if in_tree[d] && dag.in_degree(w) == 1 {
                    in_init[w] = true;
                }
            }
        }
    }
    // Counting region R: EXIT, and every block whose only outgoing edge is a tree edge into R
    // (reverse topological order sees the target first).
    let mut in_count = IndexVec::from_elem(false, n);
    in_count[dag.exit()] = true;
    for &v in dag.topological_order().iter().rev() {
        if dag.out_degree(v) == 1 {
            let d = dag.out_edges(v).next().unwrap_or(DagEdge::new(0));
            in_count[v] = in_tree[d] && in_count[dag.target(d)];
        }
    }
    // The tree holds EXIT -> ENTRY, so no tree path joins ENTRY to EXIT: the two regions are
    // disjoint, and on every path the edge leaving I comes before the edge entering R (a path
    // can leave and enter on the same edge: then both fold into one probe).
    debug_assert!(dag.blocks_iter().all(|b| !(in_init[b] && in_count[b])));
    let mut probes = IndexVec::from_elem(Probe::None, m);
    for d in dag.edges() {
        let (v, w) = (dag.source(d), dag.target(d));
        // Leaving I: the first probe of every path through d (r is set here).
        let set = in_init[v] && !in_init[w];
        // Entering R: the last probe of every path through d (the path is counted here).
        let count = in_count[w] && !in_count[v];
        let c = if in_tree[d] {
            0
        } else {
            // Inc(c) = val(c) + phi(v) - phi(w); both potentials are relative to one root.
            let (_, pv) = forest.find(v.index());
            let (_, pw) = forest.find(w.index());
            nb.val(d).wrapping_add(pv).wrapping_sub(pw)
        };
        probes[d] = match (set, count) {
            (true, true) => Probe::CountConst(c),
            (true, false) => Probe::Set(c),
            (false, true) => Probe::CountAdd(c),
            (false, false) => Probe::add(c),
        };
    }
    let tree = dag.edges().filter(|&d| in_tree[d]).collect();
    EventCounting::Probes(probes, tree)
}

/// Union-find (union by size, path halving) that also keeps potentials: `off[x]` is
/// `phi(x) - phi(parent[x])` (modulo 2^64), so `find` returns `phi(x) - phi(root)`. Also the
/// plain union-find of [`crate::edge_counting`] (every potential 0).
pub(crate) struct PotentialForest {
    parent: Vec<u32>,
    size: Vec<u32>,
    off: Vec<u64>,
}

impl PotentialForest {
    pub(crate) fn new(n: usize) -> Self {
        PotentialForest {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
            off: vec![0; n],
        }
    }

    /// The root of `x` and `phi(x) - phi(root)`.
    fn find(&mut self, mut x: usize) -> (usize, u64) {
        let mut acc = 0u64;
        loop {
            let p = self.parent[x] as usize;
            if p == x {
                return (x, acc);
            }
            let gp = self.parent[p] as usize;
            // Path halving: x skips to its grandparent, its offset absorbs its parent's.
            self.off[x] = self.off[x].wrapping_add(self.off[p]);
            self.parent[x] = gp as u32;
            acc = acc.wrapping_add(self.off[x]);
            x = gp;
        }
    }

    /// Joins the trees of `u` and `v` with an edge meaning `phi(v) = phi(u) + val`; false if they
    /// were already one tree (the edge is then a chord).
    pub(crate) fn union(&mut self, u: usize, v: usize, val: u64) -> bool {
        let (ru, du) = self.find(u);
        let (rv, dv) = self.find(v);
        if ru == rv {
            return false;
        }
        // phi(rv) - phi(ru) = du + val - dv.
        let rel = du.wrapping_add(val).wrapping_sub(dv);
        if self.size[ru] >= self.size[rv] {
            self.parent[rv] = ru as u32;
            self.off[rv] = rel;
            self.size[ru] += self.size[rv];
        } else {
            self.parent[ru] = rv as u32;
            self.off[ru] = rel.wrapping_neg();
            self.size[rv] += self.size[ru];
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::ball_larus::{BallLarus, EdgeProfile, Numbering};
    use crate::cfg_text::parse_cfg;
    use crate::dag::PathEnds;
    use crate::plan::{Placement, Probe};

    /// Sums the probes along a path of the slides graph by hand (no executor).
    fn run(plan: &crate::plan::BlPlan, p: &crate::cfg_text::ParsedCfg, names: &[&str]) -> Vec<u64> {
        let mut out = Vec::new();
        let mut r = 0xdead_beef;
        out.extend(plan.entry.apply(&mut r));
        for w in names.windows(2) {
            let (a, b) = (p.block(w[0]).unwrap(), p.block(w[1]).unwrap());
            plan.on_edge(&mut r, p.cfg.find_edge(a, b).unwrap(), b, |id| out.push(id));
        }
        out.extend(plan.exit.apply(&mut r));
        out
    }

    #[test]
    fn both_placements_count_the_slides_paths_by_their_ids() {
        let p =
            parse_cfg("entry A\nexit F\nA -> C B\nB -> C D\nC -> D\nD -> F E\nE -> F\n").unwrap();
        let bl =
            BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
        let paths: [&[&str]; 6] = [
            &["A", "C", "D", "F"],
            &["A", "C", "D", "E", "F"],
            &["A", "B", "C", "D", "F"],
            &["A", "B", "C", "D", "E", "F"],
            &["A", "B", "D", "F"],
            &["A", "B", "D", "E", "F"],
        ];
        for placement in [Placement::Plain, Placement::EventCounting] {
            let plan = bl.plan(&p.cfg, placement, None);
            for (id, path) in paths.iter().enumerate() {
                assert_eq!(
                    run(&plan, &p, path),
                    vec![id as u64],
                    "{placement} path {path:?}"
                );
            }
        }
    }

    #[test]
    fn event_counting_keeps_the_hot_path_nearly_free() {
        let p =
            parse_cfg("entry A\nexit F\nA -> C B\nB -> C D\nC -> D\nD -> F E\nE -> F\n").unwrap();
        let bl =
            BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
        let hot = ["A", "B", "C", "D", "E", "F"];
        let mut prof = EdgeProfile::zeros(&p.cfg);
        for e in p.cfg.edges() {
            prof.edges[e] = 1;
        }
        for w in hot.windows(2) {
            let e = p
                .cfg
                .find_edge(p.block(w[0]).unwrap(), p.block(w[1]).unwrap())
                .unwrap();
            prof.edges[e] = 100;
        }
        let executed = |plan: &crate::plan::BlPlan| {
            let mut k = usize::from(!plan.entry.is_none()) + usize::from(!plan.exit.is_none());
            for w in hot.windows(2) {
                let e = p
                    .cfg
                    .find_edge(p.block(w[0]).unwrap(), p.block(w[1]).unwrap())
                    .unwrap();
                k += usize::from(!plan.edges[e].is_none());
            }
            k
        };
        let ec = bl.plan(&p.cfg, Placement::EventCounting, Some(&prof));
        let plain = bl.plan(&p.cfg, Placement::Plain, None);
        assert_eq!(run(&ec, &p, &hot), vec![3]);
        assert_eq!(executed(&plain), 4);
        assert_eq!(executed(&ec), 2, "r = 0 where paths join, and the count");
        assert_eq!(ec.entry, Probe::None);
    }

    #[test]
    fn counting_sort_orders_like_a_stable_sort_by_weight() {
        let cfg = crate::generate::structured(5, 300, 4);
        let bl = BallLarus::new(&cfg, PathEnds::Header, Numbering::Canonical, u64::MAX).unwrap();
        let class = super::static_classes(&cfg, &bl);
        let mut want: Vec<usize> = (0..class.len()).collect();
        want.sort_by_key(|&i| std::cmp::Reverse(class[i]));
        let got: Vec<usize> = super::kruskal_order(&cfg, &bl, None)
            .iter()
            .map(|d| d.index())
            .collect();
        assert_eq!(got, want);
        assert!(class.iter().any(|&c| c >= 3), "the graph has nested loops");
    }

    #[test]
    fn a_single_block_counts_its_one_path() {
        let p = parse_cfg("entry a\nexit a\n").unwrap();
        let bl = BallLarus::new(&p.cfg, PathEnds::Header, Numbering::Canonical, u64::MAX).unwrap();
        for placement in [Placement::Plain, Placement::EventCounting] {
            assert_eq!(run(&bl.plan(&p.cfg, placement, None), &p, &["a"]), vec![0]);
        }
    }
}
