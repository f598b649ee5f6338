//! The command line on irreducible control flow: `vmrun explain` (text, every step-through
//! mode's page) and `vmrun paths` on the `goto` programs of `programs/`, and `vmrun cfg` on an
//! irreducible `.cfg` graph with a trace whose counts are worked out by hand from the
//! reference semantics.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// stdout of a run that must succeed with nothing on stderr.
fn ok(args: &[&str]) -> String {
    let out = vmrun(args);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "vmrun {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn goto_programs() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("programs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("goto_") && n.ends_with(".c"))
        .map(|n| format!("programs/{n}"))
        .collect();
    v.sort();
    assert!(v.len() >= 4, "{v:?}");
    v
}

/// The text of function `func` in `explain`'s output.
fn function_text<'a>(text: &'a str, func: &str) -> &'a str {
    let start = text
        .find(&format!("== {func} ("))
        .unwrap_or_else(|| panic!("no function {func}"));
    let rest = &text[start + 3..];
    &text[start..start + 3 + rest.find("\n== ").unwrap_or(rest.len())]
}

#[test]
fn explain_shows_irreducible_loops_and_their_second_way_in() {
    let mut irreducible = 0;
    for file in goto_programs() {
        for ends in ["header", "backedge"] {
            for k in ["1", "3"] {
                let text = ok(&["explain", &file, "--k", k, "--path-ends", ends, "--run"]);
                assert!(text.contains("8. Path ids"), "{file}");
                irreducible += text.matches("    irreducible: ").count();
            }
        }
    }
    assert!(irreducible >= 4 * 5, "{irreducible}");
    // Loops with two entries say so; structured loops and goto loops with one entry do not.
    let text = ok(&["explain", "programs/goto_loops.c"]);
    for f in ["two_way_entry", "inner_entry", "ping_pong"] {
        assert!(function_text(&text, f).contains("irreducible:"), "{f}");
    }
    for f in ["gcd_steps", "find_pair"] {
        let t = function_text(&text, f);
        assert!(t.contains("loop at") && !t.contains("irreducible:"), "{f}");
    }
}

#[test]
fn every_step_through_mode_pages_the_goto_programs() {
    let dir = std::env::temp_dir().join(format!("goto_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in goto_programs() {
        for (mode, k) in [("bl", "1"), ("trace", "1"), ("kiter", "2"), ("kbl", "3")] {
            let out = dir.join("page.html");
            let out = out.to_str().unwrap();
            ok(&[
                "explain",
                &file,
                "--format",
                "html",
                "--step-mode",
                mode,
                "--k",
                k,
                "--steps",
                "2000",
                "-o",
                out,
            ]);
            let page = std::fs::read_to_string(out).unwrap();
            assert!(
                page.starts_with("<!DOCTYPE html>") && page.len() > 1000,
                "{file}"
            );
        }
        let svg = ok(&["explain", &file, "--format", "svg"]);
        assert!(svg.contains("<svg"), "{file}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn paths_counts_the_goto_programs() {
    for file in goto_programs() {
        for ends in ["header", "backedge"] {
            let text = ok(&["paths", &file, "--k", "1..4", "--path-ends", ends]);
            // K = 1 is Ball-Larus in every row (columns: function line innermost BL k=1 ...).
            let rows: Vec<Vec<&str>> = text
                .lines()
                .skip(2)
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .filter(|w| w.len() == 8)
                .collect();
            assert!(rows.len() >= 3, "{file}: {text}");
            for w in rows {
                assert_eq!(w[3], w[4], "{file}: {w:?}");
            }
            let json = ok(&["paths", &file, "--k", "2", "--format", "json"]);
            let _: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        }
    }
}

/// `programs/cfgs/irreducible.cfg`: `s -> a b; a -> b z; b -> a`, header `a` (the depth-first
/// search reaches `a` first), back edge `b -> a`, natural loop `{s, a, b}`. The trace
/// `s b a b a z ; s a b a z` under `header` path ends, K = 2, by the reference semantics:
/// `s -> b` enters the loop elsewhere than at `a` (not active); `b -> a` is a back edge taken
/// while the loop is inactive: a path end, counting `s b (-> a)`, and a run starts at `a`;
/// `a -> b -> a` is the run's back edge (one iteration, `itr = 1`); `a -> z` leaves the loop
/// with the survivor `a b a`, counted at the exit as `a b a z`. The second activation enters at
/// `a` (`s (-> a)`), then the same run: `a b a z` twice in all.
#[test]
fn cfg_profiles_an_irreducible_graph_along_a_trace() {
    let json = ok(&[
        "cfg",
        "programs/cfgs/irreducible.cfg",
        "--k",
        "2",
        "--trace",
        "s b a b a z ; s a b a z",
        "--profile",
        "kiter:2",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut got: Vec<(String, String, u64)> = v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let nodes: Vec<&str> = c["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap())
                .collect();
            (
                nodes.join(" "),
                c["end"].as_str().unwrap_or("exit").to_string(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort();
    let want = vec![
        ("a b a z".to_string(), "exit".to_string(), 2),
        ("s".to_string(), "a".to_string(), 1),
        ("s b".to_string(), "a".to_string(), 1),
    ];
    assert_eq!(got, want);
    // Ball-Larus and the static listing work on it too, under both strategies.
    for ends in ["header", "backedge"] {
        let text = ok(&[
            "cfg",
            "programs/cfgs/irreducible.cfg",
            "--path-ends",
            ends,
            "--trace",
            "s b a b a z",
            "--profile",
            "bl",
        ]);
        assert!(text.contains("counts:"), "{text}");
        ok(&[
            "cfg",
            "programs/cfgs/irreducible.cfg",
            "--k",
            "3",
            "--path-ends",
            ends,
        ]);
    }
}
