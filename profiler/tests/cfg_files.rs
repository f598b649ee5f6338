//! Every graph in `programs/cfgs/` through the whole pipeline, and the papers' worked examples
//! through `vmrun cfg`'s logic (`cfg_command::run`), compared with the papers' own numbers.

mod bl_oracle;

use bl_oracle::{count_paths, static_paths, Cuts, NodePath};
use profiler::cfg_command::{run, CfgCommand, Format, ProfileKind};
use profiler::cfg_text::parse_cfg;
use profiler::executor::execute;
use profiler::generate::{random_walk, Rng};
use profiler::{BallLarus, Numbering, PathEnds, Placement, Trace};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn cfg_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs/cfgs")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(cfg_dir().join(name)).unwrap()
}

#[test]
fn every_cfg_file_is_numbered_perfectly_and_counted_exactly() {
    let mut files: Vec<_> = std::fs::read_dir(cfg_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cfg"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        if profiler::interproc::text::is_program(&text) {
            every_interprocedural_path_is_numbered_once(&text);
            continue;
        }
        let parsed = parse_cfg(&text).unwrap();
        let cfg = &parsed.cfg;
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let bl = BallLarus::new(cfg, ends, Numbering::Canonical, u64::MAX).unwrap();
            let cuts = Cuts::new(cfg, ends, &[]);
            let expected = static_paths(cfg, &cuts, 100_000).unwrap();
            let got: BTreeSet<NodePath> = (0..bl.num_paths())
                .map(|id| {
                    let p = bl.regenerate(cfg, id).unwrap();
                    (p.nodes, p.end)
                })
                .collect();
            assert_eq!(got, expected, "{} {ends}", file.display());
            let mut rng = Rng::new(11);
            let invs: Vec<Vec<_>> = (0..20).map(|_| random_walk(cfg, &mut rng, 50)).collect();
            let trace = Trace::from_invocations(invs.iter().map(|v| v.as_slice()));
            let want = count_paths(cfg, &cuts, &invs);
            for placement in [Placement::Plain, Placement::EventCounting] {
                let ex = execute(cfg, &trace, &bl.plan(cfg, placement, None)).unwrap();
                let mut counted: BTreeMap<NodePath, u64> = BTreeMap::new();
                for (&id, &c) in &ex.counts {
                    let p = bl.regenerate(cfg, id).unwrap();
                    *counted.entry((p.nodes, p.end)).or_insert(0) += c;
                }
                assert_eq!(counted, want, "{} {ends} {placement}", file.display());
            }
        }
    }
}

fn json_of(cmd: &CfgCommand) -> Value {
    serde_json::from_str(&run(cmd).unwrap()).unwrap()
}

#[test]
fn roy_srikant_figure_2_acyclic_ids_through_the_command() {
    let mut cmd = CfgCommand::new("roy-srikant-fig1.cfg", read("roy-srikant-fig1.cfg"));
    cmd.path_ends = PathEnds::Backedge;
    cmd.format = Format::Json;
    let v = json_of(&cmd);
    // Figure 2, "Acyclic Paths", ids 0-9.
    let figure_2 = [
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
    assert_eq!(v["static_paths"], 10);
    for (id, path) in figure_2.iter().enumerate() {
        let nodes: Vec<&str> = path.split('-').collect();
        let end = if path.ends_with('6') {
            Value::Null
        } else {
            json!("2")
        };
        assert_eq!(
            v["paths"][id],
            json!({"id": id, "nodes": nodes, "end": end})
        );
    }
}

#[test]
fn roy_srikant_trace_under_bl_counts_the_figure_1_table() {
    // Figure 1's trace 1-(2-3-5-2-4-5)^100-6, acyclic counts: 2-3-5 and 2-4-5 equally often.
    let mut cmd = CfgCommand::new("roy-srikant-fig1.cfg", read("roy-srikant-fig1.cfg"));
    cmd.path_ends = PathEnds::Backedge;
    cmd.format = Format::Json;
    cmd.trace = Some("1 (2 3 5 2 4 5)^100 6".into());
    cmd.profile = Some(ProfileKind::Bl);
    let v = json_of(&cmd);
    let counts: Vec<(u64, u64)> = v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_u64().unwrap(), c["count"].as_u64().unwrap()))
        .collect();
    // 1 = 1-2-3-5 (once), 6 = 2-3-5 (99 times), 8 = 2-4-5 (99 times + the last ends at exit: 7).
    assert_eq!(counts, vec![(1, 1), (6, 99), (7, 1), (8, 99)]);
    let stream = v["stream"].as_array().unwrap();
    assert_eq!(stream.len(), 201);
    assert_eq!(stream[0], json!("*"));
}

#[test]
fn ball_larus_slides_table_and_path_3_through_the_command() {
    let cmd = CfgCommand::new("ball-larus-slides.cfg", read("ball-larus-slides.cfg"));
    let text = run(&cmd).unwrap();
    // The slides' NumPaths table: A 6, B 4, C 2, D 2, E 1, F 1.
    let table: BTreeMap<&str, u64> = text
        .split("numPaths:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap(), w.next().unwrap().parse().unwrap())
        })
        .collect();
    let want: BTreeMap<&str, u64> =
        [("A", 6), ("B", 4), ("C", 2), ("D", 2), ("E", 1), ("F", 1)].into();
    assert_eq!(table, want);
    assert!(text.contains("\n3: A-B-C-D-E-F (exit)\n"), "{text}");
}

/// A file of several functions (Melski & Reps' supergraph): under both kinds of paths and
/// both path ends, the paths enumerated by definition get the numbers `0..N` once each and
/// regenerate.
fn every_interprocedural_path_is_numbered_once(text: &str) {
    use profiler::interproc::path::check_dense;
    use profiler::interproc::{IppKind, IppNumbering};
    let parsed = profiler::interproc::text::parse_program(text).unwrap();
    let sg = &parsed.sg;
    for kind in [IppKind::Context, IppKind::Piecewise] {
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let num = IppNumbering::new(sg, kind, ends, u64::MAX).unwrap();
            check_dense(sg, &num, 100_000).unwrap_or_else(|e| panic!("{kind} {ends}: {e}"));
        }
    }
}
