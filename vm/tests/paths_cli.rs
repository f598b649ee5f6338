//! `vmrun paths`: static Ball-Larus and k-iteration path counts per function, run as a
//! command. The counts of `programs/kiter_wide.c` are checked against closed forms worked out
//! by hand from the definitions (Roy & Srikant section 2; `shared/design/cfg-format.md`):
//!
//! `mix` is `entry -> guard`; `guard -> exit | body`; a body of six independent if/else
//! diamonds (W = 2^6 = 64 ways through one iteration) ending in the loop test `t`; `t -> body`
//! (the back edge; `body` is the header) `| exit`. With K iterations:
//!
//! - `header` path ends: from the entry, `entry guard exit` and `entry guard` cut at the
//!   header (2); from the header, paths leaving after j = 1..K iterations (W^j each) and paths
//!   of K iterations cut at the K-th back edge (W^K): `2 + sum_{j=1..K} W^j + W^K`.
//! - `backedge` path ends: from the entry, `entry guard exit` (1), through the loop leaving
//!   after j = 1..K iterations (W^j) or cut at the K-th back edge (W^K); from the header (after
//!   a back edge), exactly K iterations, then leaving or cut at a back edge (2 W^K):
//!   `1 + sum_{j=1..K} W^j + 3 W^K`.
//!
//! K = 1 gives Ball-Larus (130 and 257 paths); K = 3 gives 528,450 and 1,052,737: above the
//! 60,000 at which the paper's profiler gave up.

use std::process::{Command, Output};

fn vmrun(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("vmrun runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn mix_by_hand(k: u32, backedge: bool) -> u64 {
    let w: u64 = 64;
    let sum: u64 = (1..=k).map(|j| w.pow(j)).sum();
    if backedge {
        1 + sum + 3 * w.pow(k)
    } else {
        2 + sum + w.pow(k)
    }
}

#[test]
fn kiter_wide_counts_match_the_closed_forms() {
    for (ends, backedge) in [("header", false), ("backedge", true)] {
        let o = vmrun(&[
            "paths",
            "programs/kiter_wide.c",
            "--k",
            "1..4",
            "--path-ends",
            ends,
            "--format",
            "json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["path_ends"], ends);
        assert_eq!(v["k"], serde_json::json!([1, 4]));
        let mix = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "mix")
            .unwrap();
        assert_eq!(mix["innermost_loops"], 1);
        assert_eq!(mix["bl"], mix_by_hand(1, backedge));
        for (i, k) in (1..=4u32).enumerate() {
            let row = &mix["kiter"][i];
            assert_eq!(row["k"], k);
            assert_eq!(row["paths"], mix_by_hand(k, backedge), "{ends}, K = {k}");
            assert_eq!(row["k_loops"], 1);
            assert_eq!(row["fallbacks"], serde_json::json!([]));
        }
        assert!(mix["kiter"][2]["paths"].as_u64().unwrap() > 60_000);
    }
}

#[test]
fn the_text_table_shows_the_counts_and_the_fallbacks() {
    let o = vmrun(&["paths", "programs/kiter_wide.c", "--k", "3"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let mix: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("mix "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(mix, ["mix", "10", "1", "130", "528450"]);
    // K = 11: 64^11 ways overflow u64, so the loop falls back to acyclic profiling (the BL
    // count), marked and explained.
    let o = vmrun(&["paths", "programs/kiter_wide.c", "--k", "11"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["mix", "10", "1", "130", "130*"]));
    assert!(text.contains("mix, k=11: loop at b"), "{text}");
    assert!(text.contains("profiled acyclically"), "{text}");
}

#[test]
fn bad_ranges_and_files_are_clear_errors() {
    for (range, why) in [
        ("3..1", "empty"),
        ("0..2", "starts at 1"),
        ("x", "not a number"),
        ("1..100", "largest"),
    ] {
        let o = vmrun(&["paths", "programs/kiter_wide.c", "--k", range]);
        assert_eq!(o.status.code(), Some(2), "--k {range}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "--k {range}: {err}");
    }
    let o = vmrun(&["paths", "programs/no_such_program.c"]);
    assert_eq!(o.status.code(), Some(66));
    let dir = std::env::temp_dir().join(format!("paths_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.c");
    std::fs::write(&bad, "int main(void) { return x; }\n").unwrap();
    let o = vmrun(&["paths", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.c:1:"));
    std::fs::remove_dir_all(&dir).unwrap();
}
