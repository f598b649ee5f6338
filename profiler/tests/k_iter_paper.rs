//! Roy & Srikant 2009's worked example (Figure 1), as tests: Figure 2 (the 10 acyclic and 23
//! two-iteration static paths, with the paper's ids), Table 1 (the execution trace of
//! Algorithm 1) and Table 2 (the instrumented run along `1 (2 3 5 2 4 5)^100 6`).

use profiler::ball_larus::{BallLarus, Fallback, Numbering};
use profiler::cfg_text::{parse_cfg, ParsedCfg};
use profiler::executor::StreamItem;
use profiler::k_iteration::report::TableRow;
use profiler::k_iteration::{execute, KIterConfig, KIterError, KIteration, KPlacement};
use profiler::trace::Trace;
use profiler::{Block, DepthFirst, Loops, PathEnds};

const FIGURE_1: &str = "# Roy & Srikant 2009, Figure 1\nentry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n";

struct Fixture {
    p: ParsedCfg,
    dfs: DepthFirst,
    loops: Loops,
}

fn figure_1() -> Fixture {
    let p = parse_cfg(FIGURE_1).expect("Figure 1 parses");
    let dfs = DepthFirst::compute(&p.cfg);
    let loops = Loops::compute(&p.cfg, &dfs);
    Fixture { p, dfs, loops }
}

impl Fixture {
    fn kit(&self, k: u32, ends: PathEnds) -> KIteration<'_> {
        KIteration::compute(
            &self.p.cfg,
            &self.dfs,
            &self.loops,
            KIterConfig::new(k, ends),
        )
        .expect("numbering")
    }

    fn b(&self, name: &str) -> Block {
        self.p
            .block(name)
            .unwrap_or_else(|| panic!("no block {name}"))
    }

    /// All paths as the paper writes them: `1-2-3-5` (ends at a back edge) or `1-2-3-5-6`.
    fn listing(&self, kit: &KIteration<'_>) -> Vec<String> {
        kit.paths()
            .map(|r| {
                let (_, path) = r.expect("identify");
                let nodes: Vec<&str> = path.nodes.iter().map(|&b| self.p.name(b)).collect();
                if let Some(h) = path.end {
                    assert_eq!(self.p.name(h), "2", "every cut path ends at the header");
                }
                nodes.join("-")
            })
            .collect()
    }
}

/// u, target ("E" = End), i(u), val, numPaths(u), cval, invalidPaths(u).
type Table1Row = (&'static str, &'static str, u32, u64, u64, u64, Option<u64>);
/// Edge (from, to), c, f, itr, counted.
type Table2Row = (&'static str, &'static str, [i64; 2], bool, u32, Option<u64>);

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn figure_2_acyclic_paths_have_the_papers_ids() {
    let f = figure_1();
    let kit = f.kit(1, PathEnds::Backedge);
    assert_eq!(kit.num_paths(), 10);
    let expected = [
        "1-2-3-5-6",
        "1-2-3-5",
        "1-2-4-5-6",
        "1-2-4-5",
        "1-2-4-6",
        "2-3-5-6",
        "2-3-5",
        "2-4-5-6",
        "2-4-5",
        "2-4-6",
    ];
    assert_eq!(f.listing(&kit), strings(&expected));
}

#[test]
fn figure_2_two_iteration_paths_have_the_papers_ids() {
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Backedge);
    assert_eq!(kit.num_paths(), 23);
    let expected = [
        "1-2-3-5-2-3-5-6",
        "1-2-3-5-2-3-5",
        "1-2-3-5-2-4-5-6",
        "1-2-3-5-2-4-5",
        "1-2-3-5-2-4-6",
        "1-2-3-5-6",
        "1-2-4-5-2-3-5-6",
        "1-2-4-5-2-3-5",
        "1-2-4-5-2-4-5-6",
        "1-2-4-5-2-4-5",
        "1-2-4-5-2-4-6",
        "1-2-4-5-6",
        "1-2-4-6",
        "2-3-5-2-3-5-6",
        "2-3-5-2-3-5",
        "2-3-5-2-4-5-6",
        "2-3-5-2-4-5",
        "2-3-5-2-4-6",
        "2-4-5-2-3-5-6",
        "2-4-5-2-3-5",
        "2-4-5-2-4-5-6",
        "2-4-5-2-4-5",
        "2-4-5-2-4-6",
    ];
    assert_eq!(f.listing(&kit), strings(&expected));
    assert_eq!(kit.identify(23).unwrap(), None);
}

#[test]
fn table_1_is_the_execution_of_algorithm_1() {
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Backedge);
    // The paper's rows: u, target ("E" = End), i(u), val, numPaths(u), cval, invalidPaths(u).
    // The paper numbers blocks outside the loop as iteration 1; here they are iteration 0 (no
    // k-loop active).
    #[rustfmt::skip]
    let paper: [Table1Row; 18] = [
        ("6", "E", 1, 0, 1, 0, None),
        ("5", "6", 2, 0, 1, 0, None),
        ("5", "E", 2, 1, 2, 0, None),
        ("3", "5", 2, 0, 2, 0, None),
        ("4", "5", 2, 0, 2, 0, None),
        ("4", "6", 2, 2, 3, 0, None),
        ("2", "3", 2, 0, 2, 0, None),
        ("2", "4", 2, 2, 5, 0, None),
        ("5", "2", 1, 0, 5, 0, Some(0)),
        ("5", "6", 1, 5, 6, 0, Some(1)),
        ("3", "5", 1, 0, 6, 0, Some(1)),
        ("4", "5", 1, 0, 6, 0, Some(1)),
        ("4", "6", 1, 6, 7, 1, Some(2)),
        ("2", "3", 1, 0, 6, 0, Some(1)),
        ("2", "4", 1, 6, 13, 1, Some(3)),
        ("1", "2", 1, 0, 13, 0, None),
        ("S", "1", 1, 0, 13, 0, Some(0)),
        ("S", "2", 1, 13, 26, 0, Some(3)),
    ];
    let loop_blocks = ["2", "3", "4", "5"];
    let expected: Vec<TableRow> = paper
        .iter()
        .map(|&(u, v, i, val, num_paths, cval, invalid)| TableRow {
            from: (u != "S").then(|| f.b(u)),
            to: (v != "E").then(|| f.b(v)),
            edge: match (u, v) {
                ("S", _) => None,
                (_, "E") if u == "6" => None,
                (_, "E") => f.p.cfg.find_edge(f.b(u), f.b("2")),
                _ => f.p.cfg.find_edge(f.b(u), f.b(v)),
            },
            iteration: if u == "S" || loop_blocks.contains(&u) {
                i
            } else {
                0
            },
            val,
            num_paths,
            cval,
            invalid,
        })
        .collect();
    assert_eq!(kit.table(), expected);
    let text = kit.render_table(&|b| f.p.name(b).to_string());
    assert!(text.contains("static paths: 23"), "{text}");
}

/// The paper's trace.
fn table_2_trace(f: &Fixture) -> Trace {
    Trace::parse("1 (2 3 5 2 4 5)^100 6", &|n| f.p.block(n)).expect("trace parses")
}

#[test]
fn table_2_ids_along_the_trace() {
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Backedge);
    for placement in [
        KPlacement::DummyRemoval,
        KPlacement::EdgeValues,
        KPlacement::EventCounting,
    ] {
        let plan = kit.plan(placement);
        let run = execute(&plan, &f.p.cfg, &table_2_trace(&f), false).expect("run");
        // 199 back edges: none counted at the first, then 3, then 19 and 16 alternately; 15 at
        // the exit.
        let mut expected = vec![StreamItem::Invocation, StreamItem::Path(3)];
        for i in 0..197 {
            expected.push(StreamItem::Path(if i % 2 == 0 { 19 } else { 16 }));
        }
        expected.push(StreamItem::Path(15));
        assert_eq!(run.stream, expected, "{placement}");
        let counts: Vec<(u64, u64)> = run.counts.iter().map(|(&a, &b)| (a, b)).collect();
        assert_eq!(counts, vec![(3, 1), (15, 1), (16, 98), (19, 99)]);
        // The crate's generic executor runs the plan the same way.
        let generic =
            profiler::executor::execute(&f.p.cfg, &table_2_trace(&f), &plan).expect("run");
        assert_eq!(generic.stream, run.stream);
    }
}

#[test]
fn table_2_accumulators_after_dummy_edge_removal() {
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Backedge);
    let plan = kit.plan(KPlacement::DummyRemoval);
    let run = execute(&plan, &f.p.cfg, &table_2_trace(&f), true).expect("run");
    // The paper's rows: edge, c, f, itr, counted. The paper also adds increments to counters
    // that hold no path yet (c[1] before the first back edge); the plan leaves them alone, so
    // only the live counters c[0..=itr] are compared.
    #[rustfmt::skip]
    let paper: [Table2Row; 13] = [
        ("1", "2", [-13, 0], false, 0, None),
        ("2", "3", [0, 0], false, 0, None),
        ("3", "5", [0, 1], false, 0, None),
        ("5", "2", [0, 0], true, 1, None),
        ("2", "4", [18, 2], true, 1, None),
        ("4", "5", [18, 3], true, 1, None),
        ("5", "2", [0, 18], true, 1, Some(3)),
        ("2", "3", [13, 18], true, 1, None),
        ("3", "5", [13, 19], true, 1, None),
        ("5", "2", [0, 13], true, 1, Some(19)),
        ("2", "4", [18, 15], true, 1, None),
        ("4", "5", [18, 16], true, 1, None),
        ("5", "2", [0, 18], true, 1, Some(16)),
    ];
    for (row, &(u, v, c, flag, itr, counted)) in run.steps.iter().zip(&paper) {
        assert_eq!(row.edge, f.p.cfg.find_edge(f.b(u), f.b(v)).unwrap());
        let live = row.state.itr as usize + 1;
        let got: Vec<i64> = row.state.c[..live].iter().map(|&x| x as i64).collect();
        assert_eq!(got, c[..live].to_vec(), "row {u} -> {v}");
        assert_eq!(row.state.itr, itr);
        // The paper's flag f is "K iterations seen", i.e. itr == K - 1 in an active loop.
        assert_eq!(row.state.active && row.state.itr == 1, flag);
        assert_eq!(row.counted, counted.into_iter().collect::<Vec<_>>());
    }
    let last = run.steps.last().unwrap();
    assert_eq!(last.edge, f.p.cfg.find_edge(f.b("5"), f.b("6")).unwrap());
    assert_eq!(last.state.c, vec![15, 0]);
    assert!(!last.state.active);
    assert_eq!(last.state.itr, 0);
    assert_eq!(last.counted, vec![15]);
}

#[test]
fn k_1_is_ball_larus_in_both_path_end_modes() {
    let f = figure_1();
    for ends in [PathEnds::Backedge, PathEnds::Header] {
        let kit = f.kit(1, ends);
        let bl = BallLarus::new(&f.p.cfg, ends, Numbering::Canonical, u64::MAX).unwrap();
        assert_eq!(kit.num_paths(), bl.num_paths());
        for id in 0..bl.num_paths() {
            assert_eq!(
                kit.identify(id).unwrap(),
                bl.regenerate(&f.p.cfg, id),
                "{ends} id {id}"
            );
        }
    }
}

/// For K >= 3 a path started by the first back edge runs its first iteration while the paper's
/// flag `f_delta` is still false; the plan compensates every live counter below `itr` instead.
/// Figure 1, K = 3, `1 2 3 5 2 4 5 2 3 5 2 3 5 6`: the path started at the first back edge
/// (`2-4-5-...`, whose edge 2 -> 4 carries a compensation in iteration 1) survives to the exit.
#[test]
fn k_3_compensates_paths_started_before_the_loop_saturates() {
    let f = figure_1();
    let kit = f.kit(3, PathEnds::Backedge);
    let trace = Trace::parse("1 2 3 5 2 4 5 2 3 5 2 3 5 6", &|n| f.p.block(n)).unwrap();
    for placement in [
        KPlacement::DummyRemoval,
        KPlacement::EdgeValues,
        KPlacement::EventCounting,
    ] {
        let run = execute(&kit.plan(placement), &f.p.cfg, &trace, false).expect("run");
        let paths: Vec<String> = run
            .stream
            .iter()
            .filter_map(|item| match item {
                StreamItem::Invocation => None,
                StreamItem::Path(id) => {
                    let p = kit.identify(*id).unwrap().expect("a valid id");
                    let nodes: Vec<&str> = p.nodes.iter().map(|&b| f.p.name(b)).collect();
                    Some(format!(
                        "{} end {:?}",
                        nodes.join("-"),
                        p.end.map(|h| f.p.name(h))
                    ))
                }
            })
            .collect();
        assert_eq!(
            paths,
            vec![
                "1-2-3-5-2-4-5-2-3-5 end Some(\"2\")",
                "2-4-5-2-3-5-2-3-5-6 end None"
            ]
        );
    }
}

/// The plan of Figure 1 after dummy-edge removal (the paper's Figures 6 and 7), derived by hand
/// from Table 1: the first-iteration out-edges of 2 carry the removed `Start -> 2` value 13
/// (2 -> 3: 0 + 13; 2 -> 4: 6 + 13, compensated 6 - 1 + 13) and the entry edge 1 -> 2 carries
/// -13; the second-iteration in-edges of 5 carry the removed `5 -> End` value 1 and its out-edge
/// 5 -> 6 carries -1; 4 -> 6 keeps its values (6, compensated 5; and 2); the back edge restarts
/// at 13 - 13 = 0 and counts `c[1] + 1 - 1`. Table 2 follows from these values.
#[test]
fn figure_7_instrumentation() {
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Backedge);
    let plan = kit.plan(KPlacement::DummyRemoval);
    let text =
        profiler::k_iteration::report::render_plan(&plan, &f.p.cfg, &|b| f.p.name(b).to_string());
    let expected = "\
k-iteration plan: K = 2, backedge path ends, placement dummy-removal, 23 static paths
entry: c[0] := 0
exit: count c[0] + 0
k-loop L0 at 2 (compensated)
1 -> 2   outside: c[0] += -13; enter
2 -> 3   inside:  c += [13, 0]
2 -> 4   inside:  c += [19, 2] comp [18, 2]
3 -> 5   inside:  c += [0, 1]
4 -> 5   inside:  c += [0, 1]
4 -> 6   inside:  c += [6, 2] comp [5, 2]; exit
5 -> 2   inside:  back, restart 0
5 -> 6   inside:  c += [5, -1]; exit
";
    assert_eq!(text, expected);
}

/// Figure 1 under `header` path ends, K = 2 (derived by hand from the design note): the entry
/// path `1` is cut on arriving at the header; every other path starts at the header and may
/// leave the loop in either iteration, so nothing is invalid (no compensation).
#[test]
fn figure_1_header_path_ends() {
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Header);
    let expected = [
        "1",
        "2-3-5-2-3-5-6",
        "2-3-5-2-3-5",
        "2-3-5-2-4-5-6",
        "2-3-5-2-4-5",
        "2-3-5-2-4-6",
        "2-3-5-6",
        "2-4-5-2-3-5-6",
        "2-4-5-2-3-5",
        "2-4-5-2-4-5-6",
        "2-4-5-2-4-5",
        "2-4-5-2-4-6",
        "2-4-5-6",
        "2-4-6",
    ];
    assert_eq!(f.listing(&kit), strings(&expected));
    assert_eq!(kit.is_compensated(kit.k_loops()[0]), Some(false));
    // The paper's trace: `1` is cut at the header, then 2-3-5-2-4-5 (4) and 2-4-5-2-3-5 (8)
    // alternate from the second back edge on, and 2-3-5-2-4-5-6 (3) ends at the exit.
    let run = execute(
        &kit.plan(KPlacement::DummyRemoval),
        &f.p.cfg,
        &table_2_trace(&f),
        false,
    )
    .unwrap();
    let mut expected = vec![StreamItem::Invocation, StreamItem::Path(0)];
    for i in 0..198 {
        expected.push(StreamItem::Path(if i % 2 == 0 { 4 } else { 8 }));
    }
    expected.push(StreamItem::Path(3));
    assert_eq!(run.stream, expected);
}

/// No aborts: a limit below the 26 paths of the two-iteration unrolled DAG sends the loop back
/// to acyclic profiling (the 10 Ball-Larus paths), and says so; a limit below 10 also cuts
/// paths at extra blocks, chosen as Ball-Larus chooses them; a limit of 1 is too small.
#[test]
fn lowered_limits_fall_back_and_report_it() {
    let f = figure_1();
    let compute = |max_paths| {
        let config = KIterConfig {
            k: 2,
            path_ends: PathEnds::Backedge,
            max_paths,
        };
        KIteration::compute(&f.p.cfg, &f.dfs, &f.loops, config)
    };
    let kit = compute(25).unwrap();
    assert_eq!(kit.num_paths(), 10);
    assert!(kit.k_loops().is_empty());
    assert_eq!(
        kit.fallbacks(),
        &[Fallback::LoopToAcyclic {
            header: f.b("2"),
            reason: "its k-iteration ids do not fit the limit".into()
        }]
    );
    assert_eq!(
        f.listing(&kit)[..3],
        strings(&["1-2-3-5-6", "1-2-3-5", "1-2-4-5-6"])
    );

    let kit = compute(9).unwrap();
    let bl = BallLarus::new(&f.p.cfg, PathEnds::Backedge, Numbering::Canonical, 9).unwrap();
    assert!(kit.num_paths() <= 9);
    assert!(!kit.cut_blocks().is_empty());
    assert_eq!(kit.cut_blocks(), bl.dag().extra_cuts().to_vec());
    assert!(matches!(kit.fallbacks()[0], Fallback::LoopToAcyclic { .. }));
    assert!(matches!(kit.fallbacks()[1], Fallback::ExtraCuts { .. }));
    for id in 0..kit.num_paths() {
        assert_eq!(kit.identify(id).unwrap(), bl.regenerate(&f.p.cfg, id));
    }

    assert_eq!(
        compute(1).unwrap_err(),
        KIterError::LimitTooSmall { max_paths: 1 }
    );
    let zero = KIteration::compute(
        &f.p.cfg,
        &f.dfs,
        &f.loops,
        KIterConfig::new(0, PathEnds::Header),
    );
    assert_eq!(zero.unwrap_err(), KIterError::ZeroK);
}

/// Large K. Under `header` path ends Figure 1 has `1 + P(1)` paths, where the paths from the
/// header in iteration i number `P(K) = 5` (2-3-5 or 2-4-5, then the exit or the back edge; or
/// 2-4-6) and `P(i) = 2 P(i + 1) + 3`: `2^(K+2) - 2` in all. K = 20 fits; for K = 1000 the loop
/// falls back to acyclic profiling (6 paths); a K so large that the unrolled graph cannot be
/// indexed is refused before anything is allocated.
#[test]
fn large_k() {
    let f = figure_1();
    assert_eq!(f.kit(2, PathEnds::Header).num_paths(), 14);
    assert_eq!(f.kit(20, PathEnds::Header).num_paths(), (1 << 22) - 2);
    let kit = f.kit(1000, PathEnds::Header);
    assert_eq!(kit.num_paths(), 6);
    assert!(matches!(kit.fallbacks(), [Fallback::LoopToAcyclic { .. }]));
    let r = KIteration::compute(
        &f.p.cfg,
        &f.dfs,
        &f.loops,
        KIterConfig::new(u32::MAX, PathEnds::Header),
    );
    assert_eq!(r.unwrap_err(), KIterError::TooLarge);
}

/// Degenerate CFGs: a single block (entry = exit) has one path; a CFG without loops has its
/// Ball-Larus paths for every K.
#[test]
fn degenerate_cfgs() {
    let mut b = profiler::CfgBuilder::new();
    let only = b.add_block();
    let cfg = b.finish(only, only).expect("one block is a CFG");
    let dfs = DepthFirst::compute(&cfg);
    let loops = Loops::compute(&cfg, &dfs);
    let kit =
        KIteration::compute(&cfg, &dfs, &loops, KIterConfig::new(3, PathEnds::Header)).unwrap();
    assert_eq!(kit.num_paths(), 1);
    assert_eq!(
        kit.identify(0).unwrap().map(|p| (p.nodes, p.end)),
        Some((vec![only], None))
    );
    let trace = Trace::from_invocations([[only].as_slice(), [only].as_slice()]);
    let run = execute(&kit.plan(KPlacement::DummyRemoval), &cfg, &trace, false).unwrap();
    let s = StreamItem::Invocation;
    assert_eq!(
        run.stream,
        vec![s, StreamItem::Path(0), s, StreamItem::Path(0)]
    );

    let p = parse_cfg("entry a\nexit d\na -> b c\nb -> d\nc -> d\n").unwrap();
    let dfs = DepthFirst::compute(&p.cfg);
    let loops = Loops::compute(&p.cfg, &dfs);
    for k in 1..=4 {
        let kit = KIteration::compute(
            &p.cfg,
            &dfs,
            &loops,
            KIterConfig::new(k, PathEnds::Backedge),
        )
        .unwrap();
        assert_eq!(kit.num_paths(), 2);
        assert!(kit.k_loops().is_empty() && kit.fallbacks().is_empty());
    }
}

/// The JSON shapes of the issue: the static path listing and the result of a run.
#[test]
fn json_reports() {
    use profiler::k_iteration::report::{run_json, static_paths_json};
    let f = figure_1();
    let kit = f.kit(2, PathEnds::Backedge);
    let name = |b: Block| f.p.name(b).to_string();
    let listing = static_paths_json(&kit, &name, 100).unwrap();
    assert_eq!(listing["static_paths"], 23);
    assert_eq!(listing["paths"].as_array().unwrap().len(), 23);
    assert_eq!(listing["truncated"], false);
    let short = static_paths_json(&kit, &name, 5).unwrap();
    assert_eq!(
        (
            short["paths"].as_array().unwrap().len(),
            &short["truncated"]
        ),
        (5, &serde_json::json!(true))
    );
    assert_eq!(
        listing["paths"][15],
        serde_json::json!({"id": 15, "nodes": ["2", "3", "5", "2", "4", "5", "6"], "end": null})
    );
    assert_eq!(
        listing["paths"][1],
        serde_json::json!({"id": 1, "nodes": ["1", "2", "3", "5", "2", "3", "5"], "end": "2"})
    );
    let trace = Trace::parse("1 (2 3 5 2 4 5)^2 6", &|n| f.p.block(n)).unwrap();
    let run = execute(&kit.plan(KPlacement::DummyRemoval), &f.p.cfg, &trace, false).unwrap();
    let v = run_json(&kit, &run, &name).unwrap();
    assert_eq!(v["stream"], serde_json::json!(["*", 3, 19, 15]));
    assert_eq!(v["counts"][0]["id"], 3);
    assert_eq!(v["counts"][0]["count"], 1);
    assert_eq!(
        v["counts"][2]["nodes"],
        serde_json::json!(["2", "4", "5", "2", "3", "5"])
    );
}
