//! Edge profiling by counting chords only (Knuth & Stevenson 1973; Ball 1994, "Efficiently
//! counting program events with support for on-line queries", section 3; the event counting
//! of Ball & Larus 1996, section 3.3, applies the same idea to path ids).
//!
//! Add the edge `EXIT -> ENTRY` to the CFG, so that every complete activation is a cycle, and
//! take a spanning tree of the undirected graph. Flow is conserved at every block (what enters
//! leaves), so the counts of the edges *not* in the tree (the *chords*) determine the counts of
//! all the others: the tree edges are recovered afterwards by peeling the tree's leaves, each
//! leaf's one unknown edge carrying whatever its block's known edges leave unbalanced. Only
//! chords need a counter, and a maximum spanning tree by expected frequency puts them on the
//! cold edges: a loop of any shape costs one counter increment per iteration (some edge of
//! every cycle must be a chord), straight-line code none at all. `EXIT -> ENTRY` is forced
//! into the tree: activations are counted by no instruction.
//!
//! **Activations that are not whole cycles.** A VM sees activations that do not start at the
//! entry (a frame that switched to this code in the middle of a loop: on-stack replacement)
//! and activations that never reach the exit (frames still running when the program called
//! `exit`, trapped or was interrupted). Either breaks conservation at one block, so
//! [`EdgeCounting::derive`] takes them as a [`Boundary`]: flow that entered at a block from
//! outside, and flow that left at a block. With it, the derived counts are exact.
//!
//! ```text
//!   A -> B, B -> C, C -> B (back edge), C -> D, EXIT -> ENTRY = D -> A
//!   5 edges, 4 blocks: a tree of 3 (D-A forced, B-C, C-D), 5 - 3 = 2 chords: A -> B, C -> B
//!   count(A -> B) = 1 activation, count(C -> B) = 9 iterations repeated
//!   =>  B: in 1 + 9 = out (B -> C) = 10;  C: in 10 = 9 + C -> D, so C -> D = 1.
//! ```

use std::fmt;

use crate::cfg::{Block, Cfg, Edge};
use crate::index::IndexVec;
use crate::placement::PotentialForest;

/// Which edges of a CFG carry a counter (the chords of a maximum spanning tree), and how the
/// other edges' counts follow from theirs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeCounting {
    in_tree: IndexVec<Edge, bool>,
}

/// Flow that crosses the boundary of a CFG other than by its entry and exit: activations that
/// began at a block in the middle (`enters`) and activations still in a block when counting
/// stopped (`leaves`), each with how many.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Boundary {
    /// `(b, n)`: `n` activations started at block `b` (not at the entry).
    pub enters: Vec<(Block, u64)>,
    /// `(b, n)`: `n` activations stopped in block `b` (not at the exit).
    pub leaves: Vec<(Block, u64)>,
}

/// Why the counts could not be derived: the chord counts and the boundary do not describe
/// flows through this CFG (counts from another graph, or a boundary missing a frame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeriveError {
    /// The block where flow is not conserved.
    pub block: Block,
    /// How much more flow enters it than leaves.
    pub excess: i128,
}

impl fmt::Display for DeriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "edge counts do not conserve flow at block {}: {} more in than out",
            self.block, self.excess
        )
    }
}

impl std::error::Error for DeriveError {}

impl EdgeCounting {
    /// The chords of a maximum spanning tree of `cfg` (undirected, with `EXIT -> ENTRY`
    /// forced in) by `weight`: Kruskal's algorithm, heavier edges first, ties in edge order.
    /// An edge that should rather not be counted (hot, or expensive to count) weighs more.
    pub fn new(cfg: &Cfg, weight: &IndexVec<Edge, u64>) -> EdgeCounting {
        let mut sets = PotentialForest::new(cfg.num_blocks());
        sets.union(cfg.exit().index(), cfg.entry().index(), 0);
        let mut order: Vec<Edge> = cfg.edges().collect();
        order.sort_by_key(|&e| std::cmp::Reverse(weight[e]));
        let mut in_tree = IndexVec::from_elem(false, cfg.num_edges());
        for e in order {
            if sets.union(cfg.source(e).index(), cfg.target(e).index(), 0) {
                in_tree[e] = true;
            }
        }
        EdgeCounting { in_tree }
    }

    /// Whether `e` carries a counter.
    pub fn is_chord(&self, e: Edge) -> bool {
        !self.in_tree[e]
    }

    /// The edges that carry a counter, in edge order.
    pub fn chords(&self) -> impl Iterator<Item = Edge> + '_ {
        self.in_tree
            .iter()
            .enumerate()
            .filter(|(_, &t)| !t)
            .map(|(i, _)| Edge::new(i))
    }

    /// Every edge's count, from the chords' counts (`chords[e]` for every chord `e`; the
    /// entries of tree edges are ignored) and the flow that crossed the boundary. Exact when
    /// the counts are those of whole or partial activations as [`Boundary`] describes them.
    pub fn derive(
        &self,
        cfg: &Cfg,
        chords: &IndexVec<Edge, u64>,
        boundary: &Boundary,
    ) -> Result<IndexVec<Edge, u64>, DeriveError> {
        let n = cfg.num_blocks();
        let m = cfg.num_edges();
        let (entry, exit) = (cfg.entry(), cfg.exit());
        // `excess[b]`: known flow into `b` minus known flow out of it.
        let mut excess = vec![0i128; n];
        let mut counts = IndexVec::from_elem(0u64, m);
        for e in cfg.edges().filter(|&e| self.is_chord(e)) {
            let c = chords[e];
            counts[e] = c;
            excess[cfg.target(e).index()] += i128::from(c);
            excess[cfg.source(e).index()] -= i128::from(c);
        }
        for &(b, c) in &boundary.enters {
            // From ENTRY to `b`: the activation's flow appears at `b`.
            excess[b.index()] += i128::from(c);
            excess[entry.index()] -= i128::from(c);
        }
        for &(b, c) in &boundary.leaves {
            excess[b.index()] -= i128::from(c);
            excess[exit.index()] += i128::from(c);
        }
        // The unknown edges: the tree's, and `EXIT -> ENTRY` (index `m`).
        let ends = |i: usize| -> (usize, usize) {
            if i == m {
                (exit.index(), entry.index())
            } else {
                let e = Edge::new(i);
                (cfg.source(e).index(), cfg.target(e).index())
            }
        };
        let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
        let unknown = (0..m)
            .filter(|&i| self.in_tree[Edge::new(i)])
            .chain((entry != exit).then_some(m));
        for i in unknown {
            let (u, v) = ends(i);
            incident[u].push(i);
            incident[v].push(i);
        }
        let mut solved = vec![false; m + 1];
        let mut degree: Vec<usize> = incident.iter().map(Vec::len).collect();
        let mut leaves: Vec<usize> = (0..n).filter(|&b| degree[b] == 1).collect();
        while let Some(v) = leaves.pop() {
            if degree[v] != 1 {
                continue;
            }
            let Some(&i) = incident[v].iter().find(|&&i| !solved[i]) else {
                continue;
            };
            let (u, w) = ends(i);
            // The edge carries what `v` leaves unbalanced: into `v` if `v` has more out than
            // in, out of `v` otherwise.
            let (flow, other) = if w == v {
                (-excess[v], u)
            } else {
                (excess[v], w)
            };
            let count = u64::try_from(flow).map_err(|_| DeriveError {
                block: Block::new(v),
                excess: excess[v],
            })?;
            solved[i] = true;
            excess[v] = 0;
            if w == v {
                excess[other] -= flow;
            } else {
                excess[other] += flow;
            }
            if i < m {
                counts[Edge::new(i)] = count;
            }
            degree[v] -= 1;
            degree[other] -= 1;
            if degree[other] == 1 {
                leaves.push(other);
            }
        }
        match excess.iter().position(|&x| x != 0) {
            Some(b) => Err(DeriveError {
                block: Block::new(b),
                excess: excess[b],
            }),
            None => Ok(counts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;
    use crate::generate::{self, Rng};

    /// Every edge's count in `walks`, each a block sequence of one (possibly partial)
    /// activation, and the boundary they cross.
    fn count_walks(cfg: &Cfg, walks: &[Vec<Block>]) -> (IndexVec<Edge, u64>, Boundary) {
        let mut counts = IndexVec::from_elem(0, cfg.num_edges());
        let mut boundary = Boundary::default();
        for w in walks {
            for pair in w.windows(2) {
                counts[cfg.find_edge(pair[0], pair[1]).expect("a CFG edge")] += 1;
            }
            match w.first() {
                Some(&b) if b != cfg.entry() => boundary.enters.push((b, 1)),
                _ => {}
            }
            match w.last() {
                Some(&b) if b != cfg.exit() => boundary.leaves.push((b, 1)),
                _ => {}
            }
        }
        (counts, boundary)
    }

    #[test]
    fn the_module_example() {
        let p = parse_cfg("entry A\nexit D\nA -> B\nB -> C\nC -> B D\n").unwrap();
        let b = |s| p.block(s).unwrap();
        let e = |x, y| p.cfg.find_edge(b(x), b(y)).unwrap();
        let mut weight = IndexVec::from_elem(1, p.cfg.num_edges());
        weight[e("C", "B")] = 0;
        weight[e("A", "B")] = 0;
        let counting = EdgeCounting::new(&p.cfg, &weight);
        assert_eq!(
            counting.chords().collect::<Vec<_>>(),
            vec![e("A", "B"), e("C", "B")]
        );
        let mut chords = IndexVec::from_elem(0, p.cfg.num_edges());
        chords[e("A", "B")] = 1;
        chords[e("C", "B")] = 9;
        let counts = counting
            .derive(&p.cfg, &chords, &Boundary::default())
            .unwrap();
        assert_eq!(counts[e("A", "B")], 1);
        assert_eq!(counts[e("B", "C")], 10);
        assert_eq!(counts[e("C", "D")], 1);
    }

    #[test]
    fn heavy_edges_stay_in_the_tree() {
        // A loop whose body branches: the hot arm and the back edge weigh most; the chords are
        // cold but one: the hot cycle B -> C -> E -> B needs a chord of its own (its last
        // edge in Kruskal's order), the activation's cycle and the cold arm one each.
        let p = parse_cfg("entry A\nexit F\nA -> B\nB -> C D\nC -> E\nD -> E\nE -> B F\n").unwrap();
        let b = |s| p.block(s).unwrap();
        let e = |x, y| p.cfg.find_edge(b(x), b(y)).unwrap();
        let mut weight = IndexVec::from_elem(1, p.cfg.num_edges());
        for (x, y) in [("B", "C"), ("C", "E"), ("E", "B")] {
            weight[e(x, y)] = 100;
        }
        let counting = EdgeCounting::new(&p.cfg, &weight);
        let chords: Vec<Edge> = counting.chords().collect();
        // 7 edges + EXIT -> ENTRY, 6 blocks: 8 - 5 = 3 chords.
        assert_eq!(chords.len(), 3);
        assert_eq!(chords, vec![e("D", "E"), e("E", "B"), e("E", "F")]);
    }

    #[test]
    fn a_negative_count_is_refused_with_its_block() {
        // Tree: EXIT -> ENTRY and A -> B; chords A -> C and B -> C. Two activations said to
        // start in B, but only one left it: A -> B would carry -1.
        let p = parse_cfg("entry A\nexit C\nA -> B C\nB -> C\n").unwrap();
        let b = |s| p.block(s).unwrap();
        let counting = EdgeCounting::new(&p.cfg, &IndexVec::from_elem(0, p.cfg.num_edges()));
        let mut chords = IndexVec::from_elem(0, p.cfg.num_edges());
        chords[p.cfg.find_edge(b("B"), b("C")).unwrap()] = 1;
        let boundary = Boundary {
            enters: vec![(b("B"), 2)],
            leaves: vec![],
        };
        let err = counting.derive(&p.cfg, &chords, &boundary).unwrap_err();
        assert_eq!(err.block, b("B"));
        assert!(err.to_string().contains("do not conserve flow"), "{err}");
    }

    /// The oracle: on random graphs (structured and arbitrary, irreducible ones included),
    /// random weights and random activations, whole and cut at both ends, the counts derived
    /// from the chords alone equal the counts of every edge.
    #[test]
    fn derived_counts_equal_the_walks_counts() {
        for seed in 0..300u64 {
            let cfg = if seed % 2 == 0 {
                generate::structured(seed, 4 + (seed as usize % 40), 4)
            } else {
                generate::arbitrary(seed, 2 + (seed as usize % 30), seed as usize % 12)
            };
            let mut rng = Rng::new(seed ^ 0x5eed);
            let weight = IndexVec::from_raw((0..cfg.num_edges()).map(|_| rng.below(50)).collect());
            let counting = EdgeCounting::new(&cfg, &weight);
            let mut walks = Vec::new();
            for _ in 0..1 + rng.below(6) {
                let w = generate::random_walk(&cfg, &mut rng, 60);
                let (mut from, mut to) = (0, w.len());
                if rng.chance(30) {
                    from = rng.below(w.len() as u64) as usize;
                }
                if rng.chance(30) {
                    to = from + 1 + rng.below((w.len() - from) as u64) as usize;
                }
                walks.push(w[from..to].to_vec());
            }
            let (counts, boundary) = count_walks(&cfg, &walks);
            let mut chords = IndexVec::from_elem(u64::MAX, cfg.num_edges());
            for c in counting.chords() {
                chords[c] = counts[c];
            }
            let derived = counting
                .derive(&cfg, &chords, &boundary)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(derived, counts, "seed {seed}");
        }
    }
}
