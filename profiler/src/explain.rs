//! Every step of path profiling on one CFG, as data: what `vmrun explain` prints, draws and
//! steps through. It knows nothing of bytecode: the VM adds source lines and instrumented code,
//! a `.cfg` file its node names.
//!
//! The steps, in the order the papers take them:
//! 1. the CFG, its depth-first back edges and natural loops ([`crate::loops`]);
//! 2. the path DAG (Ball & Larus 1996 section 3.1, with the Jikes RVM's yield-point cuts of
//!    the k-BLPP paper section 3.2 under `header` path ends): every edge that ends a path,
//!    `u -> h`, is replaced by the dummy edges `ENTRY -> h` and `u -> EXIT`;
//! 3. `numPaths(v)` per block and `val(e)` per DAG edge (Ball & Larus Figure 5), canonical or
//!    smart (hottest edge 0);
//! 4. event counting (Ball & Larus sections 3.3-3.4): a maximum spanning tree of the DAG plus
//!    `EXIT -> ENTRY`; the chords carry the increments `Inc(c)`, and the initialization and
//!    the count fold into the first and last chords of every path;
//! 5. the plain placement the VM's instrumented code runs (every edge adds its value);
//! 6. the table of path ids, each regenerated from its id (Ball & Larus section 3.5);
//! 7. for K > 1, Roy & Srikant's Algorithm 1 on the K-iteration unrolled DAG: the table of
//!    `val`, `numPaths`, `cval` and `invalidPaths` per edge and iteration (their Table 1).

use serde::Serialize;

use crate::ball_larus::{BallLarus, BlError, EdgeProfile, Numbering, NumberingKind};
use crate::cfg::{Block, Cfg};
use crate::dag::{DagEdge, DagEdgeKind, PathEnds};
use crate::dfs::DepthFirst;
use crate::index::IndexVec;
use crate::k_iteration::{KIterConfig, KIteration};
use crate::loops::Loops;
use crate::plan::Placement;

/// What to explain.
#[derive(Clone, Copy, Debug)]
pub struct ExplainOptions<'w> {
    /// Where paths end.
    pub path_ends: PathEnds,
    /// Canonical or smart numbering (smart needs `weights`).
    pub numbering: NumberingKind,
    /// Edge frequencies: the spanning tree's weights (without them, the static estimate
    /// `10^(loop depth)`), and smart numbering's order unless `order` is given.
    pub weights: Option<&'w EdgeProfile>,
    /// The weights smart numbering orders each block's edges by, when not the frequencies
    /// (the VM weighs them by what a value on each edge would cost its code).
    pub order: Option<&'w EdgeProfile>,
    /// K > 1: also Roy & Srikant's numbering of K-iteration paths.
    pub k: u32,
    /// The most path ids listed.
    pub list_limit: u64,
}

/// A block of the CFG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlockRow {
    /// Its id.
    pub id: u32,
    /// Its name (`b3` in a program, the node's name in a `.cfg` file).
    pub name: String,
    /// Its successors' ids, in edge order.
    pub succs: Vec<u32>,
    /// `numPaths`: the number of paths from it to EXIT in the DAG.
    pub num_paths: u64,
    /// Whether it is a loop header.
    pub loop_header: bool,
    /// Whether paths start at it (a dummy `ENTRY -> it` exists).
    pub path_start: bool,
    /// How many loops contain it.
    pub loop_depth: u32,
}

/// A CFG edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeRow {
    /// Its id.
    pub id: u32,
    /// Its source block.
    pub from: u32,
    /// Its target block.
    pub to: u32,
    /// Whether depth-first search finds it a back edge.
    pub back: bool,
    /// Whether it ends a path (then the DAG holds two dummy edges instead).
    pub cut: bool,
    /// `val` of the DAG edge it is (a real edge), or of its `u -> EXIT` dummy (a cut edge).
    pub value: u64,
    /// Whether that DAG edge is in the event-counting spanning tree.
    pub tree: bool,
    /// The event-counting probe on it (`-`, `r += 2`, `count[r]`, ...), then for a cut edge
    /// the start probe of the next path.
    pub increment: String,
    /// The plain placement's probe on it, as the VM's instrumented code runs it.
    pub plain: String,
}

/// A dummy edge of the DAG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DummyRow {
    /// `ENTRY -> h` (`start`) or `u -> EXIT` (`end`).
    pub kind: &'static str,
    /// The block it leaves (`None`: ENTRY).
    pub from: Option<u32>,
    /// The block it enters (`None`: EXIT).
    pub to: Option<u32>,
    /// Its value.
    pub value: u64,
    /// The cut edge it stands for (an `end` dummy).
    pub cut_edge: Option<u32>,
    /// Whether it is in the spanning tree.
    pub tree: bool,
}

/// A natural loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopRow {
    /// Its header.
    pub header: u32,
    /// Its blocks, header included.
    pub blocks: Vec<u32>,
    /// Its back edges (edge ids).
    pub back_edges: Vec<u32>,
    /// Its nesting depth (1: outermost).
    pub depth: u32,
    /// Its blocks that control reaches from the entry without passing its header (the header
    /// does not dominate them): empty in a reducible CFG; in an irreducible one (a `goto` into
    /// the loop), the loop's other way in.
    pub entered_elsewhere: Vec<u32>,
}

/// A path and its id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathRow {
    /// Its id.
    pub id: u64,
    /// The blocks it visits.
    pub blocks: Vec<u32>,
    /// The header it ends at, or `None` at the exit.
    pub end: Option<u32>,
}

/// Every step of path profiling on one CFG. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CfgExplanation {
    /// The entry block.
    pub entry: u32,
    /// The exit block.
    pub exit: u32,
    /// Where paths end (`header`, `backedge`).
    pub path_ends: String,
    /// `canonical` or `smart`.
    pub numbering: String,
    /// The blocks.
    pub blocks: Vec<BlockRow>,
    /// The CFG edges.
    pub edges: Vec<EdgeRow>,
    /// The dummy edges of the DAG.
    pub dummies: Vec<DummyRow>,
    /// The loops.
    pub loops: Vec<LoopRow>,
    /// The number of paths (ids are `0..num_paths`).
    pub num_paths: u64,
    /// The first paths, by id.
    pub paths: Vec<PathRow>,
    /// Event counting: the probe at the entry, at each path start, at the exit.
    pub entry_probe: String,
    /// Event counting: the probe on arriving at the exit.
    pub exit_probe: String,
    /// Event counting: `(h, probe)` for every block where paths start.
    pub start_probes: Vec<(u32, String)>,
    /// Fallbacks the numbering took (64-bit overflow).
    pub fallbacks: Vec<String>,
    /// K > 1: Roy & Srikant's Table 1 for this CFG, as text.
    pub kiter_table: Option<String>,
    /// K > 1: the number of K-iteration paths.
    pub kiter_paths: Option<u64>,
}

/// Why a CFG cannot be explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainError(pub String);

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExplainError {}

/// Explains `cfg`, its blocks named by `name`.
pub fn explain(
    cfg: &Cfg,
    name: &dyn Fn(Block) -> String,
    options: &ExplainOptions<'_>,
) -> Result<CfgExplanation, ExplainError> {
    let numbering = match (options.numbering, options.order.or(options.weights)) {
        (NumberingKind::Smart, Some(w)) => Numbering::Smart(w),
        (NumberingKind::Smart, None) => {
            return Err(ExplainError(
                "smart numbering needs edge frequencies (a run or a profile)".into(),
            ))
        }
        (NumberingKind::Canonical, _) => Numbering::Canonical,
    };
    let bl = BallLarus::new(cfg, options.path_ends, numbering, u64::MAX)
        .map_err(|e: BlError| ExplainError(e.render(name)))?;
    let plain = bl.plan(cfg, Placement::Plain, options.weights);
    let events = bl.plan(cfg, Placement::EventCounting, options.weights);
    let dfs = DepthFirst::compute(cfg);
    let loops = Loops::compute(cfg, &dfs);
    let dag = bl.dag();
    let nb = bl.numbering();
    let mut tree = IndexVec::from_elem(false, dag.num_edges());
    for &d in &events.spanning_tree {
        tree[d] = true;
    }
    let in_tree = |d: DagEdge| tree[d];
    let id = |b: Block| b.index() as u32;

    let blocks = cfg
        .blocks()
        .map(|b| BlockRow {
            id: id(b),
            name: name(b),
            succs: cfg.successors(b).iter().map(|&s| id(s)).collect(),
            num_paths: nb.num_paths(b),
            loop_header: loops.loop_of_header(b).is_some(),
            path_start: dag.start_edge(b).is_some(),
            loop_depth: loops.block_depth(b),
        })
        .collect();
    let edges = cfg
        .edges()
        .map(|e| {
            let d = dag.dag_edge(e);
            let to = cfg.target(e);
            let (increment, plain_probe) = if plain.cut[e] {
                (
                    format!("{} ; {}", events.edges[e], events.start[to]),
                    format!("{} ; {}", plain.edges[e], plain.start[to]),
                )
            } else {
                (events.edges[e].to_string(), plain.edges[e].to_string())
            };
            EdgeRow {
                id: e.index() as u32,
                from: id(cfg.source(e)),
                to: id(to),
                back: dfs.is_back_edge(e),
                cut: plain.cut[e],
                value: nb.val(d),
                tree: in_tree(d),
                increment,
                plain: plain_probe,
            }
        })
        .collect();
    let dummies = dag
        .edges()
        .filter_map(|d| match dag.kind(d) {
            DagEdgeKind::Real(_) => None,
            DagEdgeKind::Start(h) => Some(DummyRow {
                kind: "start",
                from: None,
                to: Some(id(h)),
                value: nb.val(d),
                cut_edge: None,
                tree: in_tree(d),
            }),
            DagEdgeKind::End(e) => Some(DummyRow {
                kind: "end",
                from: Some(id(cfg.source(e))),
                to: None,
                value: nb.val(d),
                cut_edge: Some(e.index() as u32),
                tree: in_tree(d),
            }),
        })
        .collect();
    let doms = crate::dominators::Dominators::compute(cfg, &dfs);
    let loop_rows = loops
        .ids()
        .map(|l| {
            let data = loops.get(l);
            LoopRow {
                header: id(data.header),
                blocks: data.blocks.iter().map(|&b| id(b)).collect(),
                back_edges: data.back_edges.iter().map(|e| e.index() as u32).collect(),
                depth: data.depth,
                entered_elsewhere: data
                    .blocks
                    .iter()
                    .filter(|&&b| !doms.dominates(data.header, b))
                    .map(|&b| id(b))
                    .collect(),
            }
        })
        .collect();
    let paths = (0..bl.num_paths().min(options.list_limit))
        .filter_map(|i| {
            bl.regenerate(cfg, i).map(|p| PathRow {
                id: i,
                blocks: p.nodes.iter().map(|&b| id(b)).collect(),
                end: p.end.map(id),
            })
        })
        .collect();
    let (kiter_table, kiter_paths) = if options.k > 1 {
        let config = KIterConfig {
            k: options.k,
            path_ends: options.path_ends,
            max_paths: u64::MAX,
        };
        let kit = KIteration::compute(cfg, &dfs, &loops, config)
            .map_err(|e| ExplainError(format!("k-iteration numbering: {e}")))?;
        (Some(kit.render_table(name)), Some(kit.num_paths()))
    } else {
        (None, None)
    };
    Ok(CfgExplanation {
        entry: id(cfg.entry()),
        exit: id(cfg.exit()),
        path_ends: options.path_ends.to_string(),
        numbering: bl.numbering_kind().to_string(),
        blocks,
        edges,
        dummies,
        loops: loop_rows,
        num_paths: bl.num_paths(),
        paths,
        entry_probe: events.entry.to_string(),
        exit_probe: events.exit.to_string(),
        start_probes: dag
            .starts()
            .iter()
            .map(|&h| (id(h), events.start[h].to_string()))
            .collect(),
        fallbacks: bl.fallbacks().iter().map(|f| f.render(name)).collect(),
        kiter_table,
        kiter_paths,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;

    /// The Ball-Larus slides' graph: A..F, six paths, each id regenerated from the values.
    const SLIDES: &str = "entry A\nexit F\nA -> B C\nB -> C D\nC -> D\nD -> E F\nE -> F\n";

    fn explain_text(text: &str, k: u32, path_ends: PathEnds) -> CfgExplanation {
        let parsed = parse_cfg(text).expect("parses");
        let options = ExplainOptions {
            path_ends,
            numbering: NumberingKind::Canonical,
            weights: None,
            order: None,
            k,
            list_limit: 100,
        };
        explain(&parsed.cfg, &|b| parsed.name(b).to_string(), &options).expect("explains")
    }

    #[test]
    fn the_slides_graph_has_six_paths_and_the_values_sum_to_each_id() {
        let x = explain_text(SLIDES, 1, PathEnds::Header);
        assert_eq!(x.num_paths, 6);
        assert_eq!(x.blocks[0].num_paths, 6, "numPaths(A)");
        assert!(x.loops.is_empty() && x.dummies.is_empty());
        // By definition: a path's id is the sum of the values of its edges.
        for p in &x.paths {
            let sum: u64 = p
                .blocks
                .windows(2)
                .map(|w| {
                    x.edges
                        .iter()
                        .find(|e| e.from == w[0] && e.to == w[1])
                        .expect("an edge")
                        .value
                })
                .sum();
            assert_eq!(sum, p.id, "{p:?}");
        }
        // The tree spans the blocks: |V| - 1 edges of the DAG plus EXIT -> ENTRY, i.e. as
        // many tree edges as blocks minus one among the CFG's edges (the extra one is
        // EXIT -> ENTRY, not listed).
        let tree = x.edges.iter().filter(|e| e.tree).count();
        assert_eq!(tree, x.blocks.len() - 2);
    }

    #[test]
    fn roy_srikant_figure_1_has_one_loop_a_back_edge_and_its_dummies() {
        let fig1 = "entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n";
        let x = explain_text(fig1, 2, PathEnds::Backedge);
        assert_eq!(x.loops.len(), 1);
        let back: Vec<&EdgeRow> = x.edges.iter().filter(|e| e.back).collect();
        assert_eq!(back.len(), 1);
        let name = |b: u32| x.blocks[b as usize].name.as_str();
        assert_eq!((name(back[0].from), name(back[0].to)), ("5", "2"));
        assert_eq!(x.dummies.len(), 2);
        // Figure 2: ten acyclic paths; Table 1's last row: 23 static 2-iteration paths.
        assert_eq!(x.num_paths, 10);
        assert_eq!(x.kiter_paths, Some(23));
        assert!(x.kiter_table.as_deref().unwrap().contains("cval"));
    }
}
