//! Tallam, Zhang & Gupta 2004's worked example (Tables 2-5, `programs/cfgs/tallam-table2.cfg`
//! and `tallam-table4.trace`), as tests: the number of OL paths of each degree (Table 3), the
//! DI, PI and DNI edges of section 2.3, and the bounds of Table 5 with the definite and
//! potential flows of section 2.2.3.

use profiler::cfg_text::{parse_cfg, ParsedCfg};
use profiler::executor::execute;
use profiler::overlap::estimate::{bounds, interesting_by_definition, Listing, LoopBounds};
use profiler::overlap::{ol_paths_by_definition, EdgeClass, OlContext, OlGraph, OlPath};
use profiler::trace::Trace;
use profiler::{Block, PathEnds};
use std::collections::BTreeMap;

fn read(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/cfgs");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

struct Example {
    p: ParsedCfg,
}

impl Example {
    fn new(text: &str) -> Self {
        Example {
            p: parse_cfg(text).expect("parses"),
        }
    }

    fn b(&self, name: &str) -> Block {
        self.p
            .block(name)
            .unwrap_or_else(|| panic!("no block {name}"))
    }

    fn blocks(&self, names: &str) -> Vec<Block> {
        names.split_whitespace().map(|n| self.b(n)).collect()
    }

    fn trace(&self, text: &str) -> Trace {
        Trace::parse(text, &|n| self.p.block(n)).expect("trace parses")
    }

    fn cx(&self, k: u32) -> OlContext<'_> {
        OlContext::new(&self.p.cfg, PathEnds::Backedge, k).unwrap()
    }
}

fn table2() -> Example {
    Example::new(&read("tallam-table2.cfg"))
}

/// The number of predicates in a path's overlap, minus one: its degree.
fn degree(ex: &Example, cx: &OlContext<'_>, p: &OlPath) -> Option<u32> {
    let _ = ex;
    let preds = p.overlap.iter().filter(|&&b| cx.is_predicate(b)).count() as u32;
    (!p.overlap.is_empty()).then(|| preds.saturating_sub(1))
}

#[test]
fn table_3_counts_the_ol_paths_of_each_degree() {
    let ex = table2();
    // Degree 0: 6 (paths 4-9 to P1); 1: 12 (each extended to P2 or to P3 by B1);
    // 2: 12 (through B2 or B3); the paths P1 B1 P3 stops at the loop's end, degree 1.
    for (k, by_degree) in [
        (0, vec![(0, 6)]),
        (1, vec![(1, 12)]),
        (2, vec![(1, 6), (2, 12)]),
    ] {
        let cx = ex.cx(k);
        let g = OlGraph::new(&cx).unwrap();
        let mut got: BTreeMap<u32, u32> = BTreeMap::new();
        let mut not_extended = 0;
        for id in 0..g.num_paths() {
            let p = g.regenerate(&ex.p.cfg, id).unwrap();
            assert_eq!(g.id_of(&ex.p.cfg, &p), Some(id), "{p:?}");
            match degree(&ex, &cx, &p) {
                Some(d) => *got.entry(d).or_insert(0) += 1,
                None => not_extended += 1,
            }
        }
        assert_eq!(got, by_degree.into_iter().collect(), "K = {k}");
        // Groups 1 and 4 of Table 2: the paths that reach the exit.
        assert_eq!(not_extended, 6, "K = {k}");
        assert_eq!(g.max_overlap(ex.b("P1")), Some(k.min(2)));
    }
    // "the maximum overlap possible for the loop in Table 2 is only 2": K = 5 is capped.
    let g = OlGraph::new(&ex.cx(5)).unwrap();
    assert_eq!(g.max_overlap(ex.b("P1")), Some(2));
    assert_eq!(g.num_paths(), OlGraph::new(&ex.cx(2)).unwrap().num_paths());
}

#[test]
fn the_edge_classes_of_section_2_3() {
    // Figure 1's loop, as its text describes it: `P'3 -> B'2` is PI with overlap 2 (two
    // predicates after P1 B1 P3, three after P1 P2 P3); with overlap 1, `P3 -> B2` is DNI.
    let ex = Example::new(
        "entry En\nexit Ex\nEn -> P1\nP1 -> B1 P2\nB1 -> P3\nP2 -> P3 B3\nB3 -> P4\n\
         P3 -> B2 P4\nB2 -> P4\nP4 -> P1 Ex\n",
    );
    let class = |k: u32, from: &str, to: &str| {
        let g = OlGraph::new(&ex.cx(k)).unwrap();
        let e = ex.p.cfg.find_edge(ex.b(from), ex.b(to)).unwrap();
        g.edge_classes(ex.b("P1"))
            .iter()
            .find(|&&(x, _)| x == e)
            .map(|&(_, c)| c)
    };
    assert_eq!(class(2, "P1", "P2"), Some(EdgeClass::Definitely));
    assert_eq!(class(2, "B1", "P3"), Some(EdgeClass::Definitely));
    assert_eq!(class(2, "P3", "B2"), Some(EdgeClass::Possibly));
    assert_eq!(class(1, "P3", "B2"), Some(EdgeClass::DefinitelyNot));
    // The back edge is no edge of the overlapping graph.
    assert_eq!(class(2, "P4", "P1"), None);
}

/// The bounds of the loop at P1 from the OL-`k` counts of `trace`, by interesting path written
/// as the paper does (`1 ! 3`), with the real frequencies.
fn table_5(ex: &Example, k: u32, trace: &str) -> (LoopBounds, BTreeMap<(u32, u32), u64>) {
    let cx = ex.cx(k);
    let trace = ex.trace(trace);
    let g = OlGraph::new(&cx).unwrap();
    // The counts the probes make, regenerated, are the counts by definition.
    let run = execute(&ex.p.cfg, &trace, &g).unwrap();
    let counted: BTreeMap<OlPath, u64> = run
        .counts
        .iter()
        .map(|(&id, &c)| (g.regenerate(&ex.p.cfg, id).unwrap(), c))
        .collect();
    assert_eq!(counted, ol_paths_by_definition(&cx, &trace).unwrap());
    let mut loops = bounds(&cx, &counted, Listing::All);
    assert_eq!(loops.len(), 1);
    let real = interesting_by_definition(&cx, &trace)
        .unwrap()
        .into_iter()
        .map(|(p, c)| ((ex.loop_path(&p.first), ex.loop_path(&p.second)), c))
        .collect();
    (loops.remove(0), real)
}

impl Example {
    /// The paper's number of a loop path of Table 2.
    fn loop_path(&self, blocks: &[Block]) -> u32 {
        (1..=3)
            .find(|&i| {
                blocks == self.blocks(["P1 B1 P3", "P1 P2 B2 P3", "P1 P2 B3 P3"][i as usize - 1])
            })
            .unwrap_or_else(|| panic!("not a loop path: {blocks:?}"))
    }
}

/// `(lower, upper)` of `i ! j` in `b`.
fn cell(ex: &Example, b: &LoopBounds, i: u32, j: u32) -> (u64, u64) {
    b.paths
        .iter()
        .find(|c| ex.loop_path(&c.path.first) == i && ex.loop_path(&c.path.second) == j)
        .map_or((0, 0), |c| (c.lower, c.upper))
}

#[test]
fn table_5_bounds_from_ol_0_and_exact_flows_from_ol_2() {
    let ex = table2();
    let trace = read("tallam-table4.trace");
    let (ol0, real) = table_5(&ex, 0, &trace);
    // Table 4: the real frequencies.
    let expected_real: BTreeMap<(u32, u32), u64> =
        [((1, 1), 250), ((1, 3), 250), ((2, 2), 250), ((2, 3), 250)].into();
    assert_eq!(real, expected_real);
    // Table 5, OL-0 columns (lower, upper), rows 1 ! 1 to 3 ! 3.
    let paper = [
        (0, 250),
        (0, 250),
        (0, 500),
        (0, 250),
        (0, 250),
        (0, 500),
        (0, 0),
        (0, 0),
        (0, 0),
    ];
    for (x, &want) in paper.iter().enumerate() {
        let (i, j) = (x as u32 / 3 + 1, x as u32 % 3 + 1);
        assert_eq!(cell(&ex, &ol0, i, j), want, "{i} ! {j}");
    }
    // Section 2.2.3: definite and potential flows 0 and 2000 (real: 1000).
    assert_eq!((ol0.definite, ol0.potential), (0, 2000));
    // OL-2 reaches the loop's maximum overlap: every bound is exact.
    let (ol2, _) = table_5(&ex, 2, &trace);
    for b in &ol2.paths {
        let key = (ex.loop_path(&b.path.first), ex.loop_path(&b.path.second));
        let r = real.get(&key).copied().unwrap_or(0);
        assert_eq!((b.lower, b.upper), (r, r), "{key:?}");
    }
    assert_eq!((ol2.definite, ol2.potential), (1000, 1000));
}

#[test]
fn ol_1_bounds_contain_every_run_with_the_same_counts() {
    let ex = table2();
    let (ol1, real) = table_5(&ex, 1, &read("tallam-table4.trace"));
    for b in &ol1.paths {
        let key = (ex.loop_path(&b.path.first), ex.loop_path(&b.path.second));
        let r = real.get(&key).copied().unwrap_or(0);
        assert!(b.lower <= r && r <= b.upper, "{key:?}: {r} not in {b:?}");
    }
    // Exact where the paper has it (1 ! 1, 2 ! 1), and the flows the equations give.
    assert_eq!(cell(&ex, &ol1, 1, 1), (250, 250));
    assert_eq!(cell(&ex, &ol1, 2, 1), (0, 0));
    assert_eq!((ol1.definite, ol1.potential), (500, 1500));
    // The paper's Table 5 bounds 2 ! 3 by 250 from above; this run has the same OL-1 counts
    // (and the same Ball-Larus counts) and runs 2 ! 3 500 times.
    let other = "(En P1 B1 P3 P1 B1 P3 P1 P2 B2 P3 P1 P2 B3 P3 Ex ;)^250 \
                 (En P1 P2 B2 P3 P1 P2 B3 P3 Ex ;)^250";
    let (same, real_other) = table_5(&ex, 1, other);
    assert_eq!(same, ol1, "the same counts give the same bounds");
    assert_eq!(real_other.get(&(2, 3)), Some(&500));
    assert_eq!(cell(&ex, &same, 2, 3), (250, 500));
}
