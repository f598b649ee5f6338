//! `vmrun explain` and `vmrun --watch` end to end, checked against the papers: the Ball-Larus
//! slides' values and path ids, Roy & Srikant's Table 1 (numbering) and Table 2 (the paths
//! counted along the trace), the k-BLPP paper's Example 3 (the stream and its k-slab forest);
//! the pictures parse (DOT with layout-rs's parser and, when installed, Graphviz; SVG as XML);
//! the page is self-contained; bad input gets one line and exit status 2, and leaves no file.
//! The text of every demo is kept as an insta snapshot.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (programs and docs are named relative to it, as a user types them).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn vmrun(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("vmrun runs")
}

/// stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let out = vmrun(args);
    assert!(
        out.status.success(),
        "vmrun {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The lines of section `title` (up to the next numbered section).
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| !l.contains(title));
    lines
        .next()
        .unwrap_or_else(|| panic!("no section {title}:\n{text}"));
    lines
        .take_while(|l| !l.is_empty() && !is_section_title(l))
        .collect()
}

/// `4. numPaths(v): ...`: a numbered section title.
fn is_section_title(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(". ")
}

#[test]
fn the_slides_graph_numpaths_values_and_path_ids() {
    let text = ok(&["explain", "programs/cfgs/ball-larus-slides.cfg"]);
    // The slides: NumPaths A 6, B 4, C 2, D 2, E 1, F 1.
    let num_paths: Vec<(String, u64)> = section(&text, "4. numPaths")
        .iter()
        .map(|l| {
            let mut w = l.split_whitespace();
            (
                w.next().unwrap().to_string(),
                w.next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    for (block, n) in [("A", 6), ("B", 4), ("C", 2), ("D", 2), ("E", 1), ("F", 1)] {
        assert!(
            num_paths.contains(&(block.to_string(), n)),
            "numPaths({block}) = {n}: {num_paths:?}"
        );
    }
    // "Path Regeneration": R = 3 picks A -> B (R = 3 - 2), B -> C, C -> D (0 each), D -> E
    // (R = 1 - 1) and E -> F.
    let values = section(&text, "5. Edge values");
    for (edge, value) in [
        ("A -> B", 2),
        ("B -> C", 0),
        ("C -> D", 0),
        ("D -> E", 1),
        ("E -> F", 0),
    ] {
        let line = values
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{edge} ")))
            .unwrap_or_else(|| panic!("no value of {edge}: {values:#?}"));
        let got: u64 = line.split_whitespace().last().unwrap().parse().unwrap();
        assert_eq!(got, value, "Val({edge})");
    }
    let paths = section(&text, "8. Path ids");
    assert!(paths.contains(&"     3  A B C D E F -> exit"), "{paths:#?}");
    assert_eq!(paths.len(), 6);
}

/// Roy & Srikant's Table 1: u, e, val, numPaths(u), cval, invalidPaths(u) (the paper counts
/// blocks outside the loop as iteration 1, `explain` as 0: no k-loop active).
#[rustfmt::skip]
const TABLE_1: [(&str, &str, u64, u64, u64, &str); 18] = [
    ("6", "6 -> E", 0, 1, 0, "-"), ("5", "5 -> 6", 0, 1, 0, "-"), ("5", "5 -> E", 1, 2, 0, "-"),
    ("3", "3 -> 5", 0, 2, 0, "-"), ("4", "4 -> 5", 0, 2, 0, "-"), ("4", "4 -> 6", 2, 3, 0, "-"),
    ("2", "2 -> 3", 0, 2, 0, "-"), ("2", "2 -> 4", 2, 5, 0, "-"), ("5", "5 -> 2", 0, 5, 0, "0"),
    ("5", "5 -> 6", 5, 6, 0, "1"), ("3", "3 -> 5", 0, 6, 0, "1"), ("4", "4 -> 5", 0, 6, 0, "1"),
    ("4", "4 -> 6", 6, 7, 1, "2"), ("2", "2 -> 3", 0, 6, 0, "1"), ("2", "2 -> 4", 6, 13, 1, "3"),
    ("1", "1 -> 2", 0, 13, 0, "-"), ("S", "S -> 1", 0, 13, 0, "0"), ("S", "S -> 2", 13, 26, 0, "3"),
];

#[test]
fn roy_srikant_table_1_in_the_explanation() {
    let text = ok(&[
        "explain",
        "programs/cfgs/roy-srikant-fig1.cfg",
        "--k",
        "2",
        "--path-ends",
        "backedge",
    ]);
    let rows: Vec<(String, String, u64, u64, u64, String)> = section(&text, "10. 2-iteration")
        .iter()
        .filter(|l| l.contains("->"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let num = |i: usize| w[i].parse::<u64>().unwrap();
            (
                w[0].to_string(),
                w[1..4].join(" "),
                num(5),
                num(6),
                num(7),
                w[8].to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String, u64, u64, u64, String)> = TABLE_1
        .iter()
        .map(|&(u, e, v, n, cv, inv)| (u.into(), e.into(), v, n, cv, inv.into()))
        .collect();
    assert_eq!(rows, expected, "{text}");
    assert!(text.contains("static paths: 23"));
}

/// The paths counted by `vmrun --watch`, as the paper's node names, given the program's
/// mapping of blocks to nodes.
fn watched_paths(args: &[&str], prefix: &str, nodes: &[&str]) -> Vec<String> {
    let out = vmrun(args);
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(|l| {
            let blocks = &l[l.find('[').expect("a description") + 1..];
            blocks
                .split(" -> ")
                .next()
                .unwrap()
                .split_whitespace()
                .map(|b| b.trim_start_matches('b').parse::<usize>().unwrap())
                .filter_map(|b| nodes.get(b).copied())
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect()
}

#[test]
fn roy_srikant_table_2_the_paths_counted_along_the_trace() {
    // programs/demo/roy_srikant_fig1.c: blocks b0..b5 are the paper's nodes 1..6.
    let nodes = ["1", "2", "3", "4", "5", "6"];
    let counted = watched_paths(
        &[
            "--profile=kiter:2",
            "--tier-up",
            "0",
            "--path-ends",
            "backedge",
            "--watch",
            "100000",
            "programs/demo/roy_srikant_fig1.c",
        ],
        "main: counts path ",
        &nodes,
    );
    // Table 2's Path column: the first three and the last.
    assert_eq!(
        counted[..3],
        ["1-2-3-5-2-4-5", "2-4-5-2-3-5", "2-3-5-2-4-5"],
        "{counted:?}"
    );
    assert_eq!(counted.last().unwrap(), "2-3-5-2-4-5-6");
    // Figure 1's trace 1 (2 3 5 2 4 5)^100 6: 199 back edges, the first counting nothing
    // (the loop has not run twice yet), and the exit.
    assert_eq!(counted.len(), 199);
}

#[test]
fn kblpp_example_3_the_stream_and_its_forest() {
    // programs/demo/delia_kblpp_fig3.c: b0 A, b1 B, b2 D, b3 C, b4 E, b5 F.
    let nodes = ["A", "B", "D", "C", "E", "F"];
    let args = [
        "--profile=kbl:4",
        "--tier-up",
        "0",
        "--path-ends",
        "backedge",
        "--watch",
        "100000",
        "programs/demo/delia_kblpp_fig3.c",
    ];
    let stream = watched_paths(&args, "main: path ", &nodes);
    // The paper's stream * 6 2 0 0 2 2 0 0 2 2 0 0 2 3, its ids regenerated in its numbering
    // (6 = ABCE, 2 = BCE, 0 = BDE, 3 = BCEF).
    let paper: Vec<&str> = "ABCE BCE BDE BDE BCE BCE BDE BDE BCE BCE BDE BDE BCE BCEF"
        .split(' ')
        .collect();
    let ours: Vec<String> = stream.iter().map(|p| p.replace('-', "")).collect();
    assert_eq!(ours, paper);
    // The forest the run built is the 4-SF of the paper's stream.
    let out = vmrun(&args);
    let last = String::from_utf8_lossy(&out.stderr)
        .lines()
        .rfind(|l| l.starts_with("main: path "))
        .unwrap()
        .to_string();
    let forest = ok(&[
        "forest",
        "--k",
        "4",
        "--stream",
        "* 6 2 0 0 2 2 0 0 2 2 0 0 2 3",
        "--format",
        "json",
    ]);
    let forest: serde_json::Value = serde_json::from_str(&forest).unwrap();
    let nodes = forest["ksf"].as_array().expect("the k-SF's nodes").len();
    assert!(
        last.contains(&format!("k-SF {nodes} nodes")),
        "{last} (the paper's stream gives {nodes} nodes)"
    );
}

/// Every demo and CFG file, and a few programs.
fn pictured() -> Vec<&'static str> {
    vec![
        "programs/demo/roy_srikant_fig1.c",
        "programs/demo/delia_kblpp_fig3.c",
        "programs/demo/tallam_table2.c",
        "programs/demo/ball_larus_slides.c",
        "programs/cfgs/ball-larus-slides.cfg",
        "programs/cfgs/roy-srikant-fig1.cfg",
        "programs/cfgs/irreducible.cfg",
        "programs/cfgs/nested-loops.cfg",
        "programs/nqueens.c",
        "programs/switch_cases.c",
    ]
}

#[test]
fn dot_output_parses_and_svg_output_is_xml() {
    for file in pictured() {
        let dot = ok(&["explain", file, "--format", "dot"]);
        let mut parser = layout::gv::DotParser::new(&dot);
        assert!(
            parser.process().is_ok(),
            "{file}: DOT does not parse:\n{dot}"
        );
        if vm::explain::dot::graphviz_available() {
            vm::explain::dot::graphviz_svg(&dot)
                .unwrap_or_else(|e| panic!("{file}: Graphviz rejects the DOT: {e}"));
        }
        let svg = ok(&["explain", file, "--format", "svg"]);
        let doc = roxmltree::Document::parse_with_options(
            &svg,
            roxmltree::ParsingOptions {
                allow_dtd: true,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{file}: SVG is not XML: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        // The pure-Rust layout too, used when Graphviz is missing.
        let svg = vm::explain::dot::layout_svg(&dot).expect("layout-rs draws it");
        roxmltree::Document::parse(&svg)
            .unwrap_or_else(|e| panic!("{file}: layout-rs SVG is not XML: {e}"));
    }
}

#[test]
fn the_page_is_self_contained() {
    let dir = std::env::temp_dir().join(format!("explain-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.html");
    ok(&[
        "explain",
        "programs/demo/roy_srikant_fig1.c",
        "--format",
        "html",
        "-o",
        page.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    for external in ["<script src", "<link", "@import", "<img", "<iframe"] {
        assert!(!html.contains(external), "the page loads {external}");
    }
    // `url(#id)` names a marker of the page itself (the SVG drawn without Graphviz has them).
    let urls = html.matches("url(").count();
    assert_eq!(urls, html.matches("url(#").count(), "the page loads a url(");
    assert!(html.contains("<svg"), "a picture");
    assert!(html.contains("id=\"register\""), "the step-through");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn heat_from_a_profile_is_the_heat_of_a_run() {
    let dir = std::env::temp_dir().join(format!("explain-heat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("p.json");
    let file = "programs/demo/tallam_table2.c";
    let run = vmrun(&[
        "--profile=bl",
        "--tier-up",
        "0",
        "--profile-out",
        profile.to_str().unwrap(),
        file,
    ]);
    assert!(run.status.success());
    let from_run = ok(&["explain", file, "--run"]);
    let from_profile = ok(&["explain", file, "--profile-in", profile.to_str().unwrap()]);
    let blocks = |t: &str| section(t, "1. CFG").join("\n");
    assert_eq!(blocks(&from_run), blocks(&from_profile));
    assert!(
        blocks(&from_run).contains("ran 500"),
        "{}",
        blocks(&from_run)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bad request: exit status 2, one line on stderr naming the problem, nothing written.
fn refused(args: &[&str], out: Option<&Path>, what: &str) {
    let result = vmrun(args);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.contains(what), "{args:?}: {stderr}");
    if let Some(out) = out {
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
}

#[test]
fn bad_input_gets_one_line_and_status_2() {
    let dir = std::env::temp_dir().join(format!("explain-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.html");
    let o = out.to_str().unwrap();
    let demo = "programs/demo/roy_srikant_fig1.c";
    refused(
        &["explain", demo, "--func", "nosuch", "-o", o],
        Some(&out),
        "no function 'nosuch'",
    );
    refused(&["explain", demo, "--k", "9", "-o", o], Some(&out), "--k 9");
    refused(&["explain", demo, "--k", "0", "-o", o], Some(&out), "--k 0");
    let missing = dir.join("no/such/dir/page.html");
    refused(
        &[
            "explain",
            demo,
            "--format",
            "html",
            "-o",
            missing.to_str().unwrap(),
        ],
        Some(&missing),
        "does not exist",
    );
    // A profile of another program.
    let profile = dir.join("other.json");
    let run = vmrun(&[
        "--profile=bl",
        "--profile-out",
        profile.to_str().unwrap(),
        "programs/nqueens.c",
    ]);
    assert!(run.status.success());
    refused(
        &[
            "explain",
            demo,
            "--profile-in",
            profile.to_str().unwrap(),
            "-o",
            o,
        ],
        Some(&out),
        "does not belong to",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn explain_text_of_the_demos() {
    for demo in [
        "roy_srikant_fig1",
        "delia_kblpp_fig3",
        "tallam_table2",
        "ball_larus_slides",
    ] {
        let file = format!("programs/demo/{demo}.c");
        let text = ok(&[
            "explain",
            &file,
            "--run",
            "--path-ends",
            "backedge",
            "--k",
            "2",
        ]);
        insta::assert_snapshot!(format!("explain_{demo}"), text);
    }
}
