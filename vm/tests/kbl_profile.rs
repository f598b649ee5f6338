//! `--profile=kbl:K` end to end on small programs whose k-IPF is worked out by hand from their
//! source: the JSON members (`k`, `ipf`, `stats`), the report's pruned trees (`--min-share`)
//! and hottest multi-iteration paths, determinism of the file, and the partial profile of a
//! run stopped by a trap.

use std::process::Command;

use profiler::PathEnds;
use vm::profile::report::{render, ReportOptions};
use vm::profile::{Mode, Profile};
use vm::{ProfileSettings, RunOptions, RunResult, EXIT_RUNTIME_ERROR};

/// `f`'s loop runs 10 iterations; `i % 3 == 0` (i = 0, 3, 6, 9) takes the `if` arm. With
/// header ends, each activation of `f` is the path stream
/// `E, A, B, B, A, B, B, A, B, B, X` where `E` enters the loop, `A`/`B` are the two arms'
/// iterations and `X` is the last iteration (an `A`) leaving the loop: so per activation
/// A x3, B x6, E, X once each; <A,B> x3, <B,B> x3, <B,A> x2, <B,X>, <E,A> once; and `main`
/// calls `f` 4 times.
const LOOP: &str = "#include <stdio.h>
int f(int n) {
    int s = 0;
    int i;
    for (i = 0; i < n; i++) {
        if (i % 3 == 0) s += i;
        else s -= 1;
    }
    return s;
}
int main() {
    int t = 0;
    int j;
    for (j = 0; j < 4; j++) t += f(10);
    printf(\"%d\\n\", t);
    return 0;
}
";

fn run(src: &str, k: u32, tier_up: u64) -> (RunResult, Vec<u8>) {
    let options = RunOptions {
        profile: ProfileSettings {
            mode: Mode::Kbl,
            k,
            tier_up,
            path_ends: PathEnds::Header,
            max_nodes: None,
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let r = vm::run_source("loop.c", src, &options, &mut out);
    (r, out)
}

/// The id of `f`'s path by its count (each count below is unique to one path).
fn id_with_count(p: &Profile, func: &str, count: u64) -> u64 {
    let f = p.functions.iter().find(|f| f.name == func).unwrap();
    let hits: Vec<u64> = f
        .paths
        .iter()
        .filter(|q| q.count == count)
        .map(|q| q.id)
        .collect();
    assert_eq!(hits.len(), 1, "{func}: paths with count {count}: {hits:?}");
    hits[0]
}

#[test]
fn hand_counted_sequences_and_report() {
    let (r, out) = run(LOOP, 3, 0);
    assert_eq!(r.exit_status, 0, "{}", r.stderr);
    assert_eq!(String::from_utf8(out).unwrap(), "48\n");
    let p = r.profile.unwrap();
    assert_eq!(p.k, 3);
    p.check().unwrap();
    let f = p.functions.iter().find(|f| f.name == "f").unwrap();
    // A: 3 per activation, B: 6; E and X: 1 each (their ids are told apart by their blocks).
    let a = id_with_count(&p, "f", 12);
    let b = id_with_count(&p, "f", 24);
    let ends: Vec<&vm::profile::PathCount> = f.paths.iter().filter(|q| q.count == 4).collect();
    assert_eq!(ends.len(), 2);
    let x = ends.iter().find(|q| q.end.is_none()).unwrap().id;
    let e = ends.iter().find(|q| q.end.is_some()).unwrap().id;
    let count = |ids: &[u64]| {
        f.ipf
            .as_ref()
            .unwrap()
            .iter()
            .find(|en| en.ids == ids)
            .map_or(0, |en| en.count)
    };
    assert_eq!(count(&[a, b]), 12);
    assert_eq!(count(&[b, b]), 12);
    assert_eq!(count(&[b, a]), 8);
    assert_eq!(count(&[b, x]), 4);
    assert_eq!(count(&[e, a]), 4);
    assert_eq!(count(&[a, b, b]), 12);
    assert_eq!(count(&[b, b, a]), 8);
    assert_eq!(count(&[b, a, b]), 8);
    assert_eq!(count(&[b, b, x]), 4);
    assert_eq!(count(&[e, a, b]), 4);
    assert_eq!(count(&[b, b, b]), 0);
    // 4 roots, 5 pairs, 5 triples.
    assert_eq!(f.ipf.as_ref().unwrap().len(), 14);
    let stats = f.kbl_stats.unwrap();
    assert_eq!(stats.ipf_nodes, 14);
    // 11 paths per activation in slabs of k - 1 = 2: Figure 6 looks up 6 roots per
    // activation. Done: one per activation, and one per distinct pair of slabs that another
    // slab follows: <E,A|B,B>, <B,B|A,B>, <A,B|B,A>, <B,A|B,B>, the same in all 4 activations.
    assert_eq!(stats.slab_starts, 24);
    assert_eq!(stats.hash_ops, 4 + 4);
    assert_eq!(stats.ksf_bytes, stats.ksf_nodes * 24);

    // Report, pruned at 40%: only B's tree has 40% of f's 44 paths; below B only <B,B>
    // (12 of 24) has 40% of the root; the hottest sequences are the three with count 12.
    let text = render(
        &p,
        &ReportOptions {
            top: 3,
            min_share: 40.0,
        },
    );
    let f_part = &text[text.find("\nf (line 2)").unwrap()..text.find("\nmain (line").unwrap()];
    let tree: Vec<&str> = f_part
        .lines()
        .skip_while(|l| !l.contains("tree of path ids"))
        .skip(1)
        .take_while(|l| !l.contains("hottest"))
        .collect();
    assert_eq!(tree.len(), 2, "{f_part}");
    assert!(
        tree[0]
            .trim_start()
            .starts_with(&format!("24  100.0%  {b}: ")),
        "{f_part}"
    );
    assert!(
        tree[1]
            .trim_start()
            .starts_with(&format!("12   50.0%    └ {b}: ")),
        "{f_part}"
    );
    let hottest: Vec<&str> = f_part
        .lines()
        .skip_while(|l| !l.contains("hottest"))
        .skip(1)
        .collect();
    let mut want = vec![
        format!("{a} > {b}"),
        format!("{a} > {b} > {b}"),
        format!("{b} > {b}"),
    ];
    want.sort();
    for (line, w) in hottest.iter().zip(&want) {
        assert!(line.trim_start().starts_with("12   27.3%"), "{f_part}");
        assert!(line.ends_with(w.as_str()), "{f_part}");
    }
    assert_eq!(hottest.len(), 3, "{f_part}");
}

#[test]
fn k_one_is_bl_and_the_file_is_deterministic() {
    let dir = std::env::temp_dir().join(format!("kbl_profile_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("loop.c");
    std::fs::write(&src, LOOP).unwrap();
    let json = |mode: &str, name: &str| {
        let out = dir.join(name);
        let status = Command::new(env!("CARGO_BIN_EXE_vmrun"))
            .args(["--profile", mode, "--tier-up", "2", "--profile-out"])
            .arg(&out)
            .arg(&src)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read_to_string(out).unwrap()
    };
    let one = json("kbl:6", "a.json");
    assert_eq!(one, json("kbl:6", "b.json"));
    let p = Profile::from_json(&one).unwrap();
    assert_eq!(p.k, 6);
    // kbl:1's paths are bl's, and its k-IPF is just them.
    let k1 = Profile::from_json(&json("kbl:1", "c.json")).unwrap();
    let bl = Profile::from_json(&json("bl", "d.json")).unwrap();
    for (fk, fb) in k1.functions.iter().zip(&bl.functions) {
        assert_eq!(fk.paths, fb.paths);
        assert_eq!(fk.ipf.as_ref().unwrap().len(), fb.paths.len());
        assert!(fb.ipf.is_none() && fb.kbl_stats.is_none());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_trap_leaves_a_partial_profile_with_its_ipf() {
    // The 6th iteration (i = 5) divides by zero: f completed E, then the 5 iterations
    // i = 0..4 (one path each) before it.
    let src = LOOP.replace(
        "else s -= 1;",
        "else s -= 1;\n        if (i == 5) s = s / (i - 5);",
    );
    let (r, _) = run(&src, 2, 0);
    assert_eq!(r.exit_status, EXIT_RUNTIME_ERROR, "{}", r.stderr);
    let p = r.profile.unwrap();
    assert!(!p.complete);
    p.check().unwrap();
    let f = p.functions.iter().find(|f| f.name == "f").unwrap();
    assert_eq!(f.total(), 6, "E and 5 iterations: the 6th never completed");
    let ipf = f.ipf.as_ref().unwrap();
    // 6 consecutive paths in one activation: 5 pairs.
    let pairs: u64 = ipf
        .iter()
        .filter(|e| e.ids.len() == 2)
        .map(|e| e.count)
        .sum();
    assert_eq!(pairs, 5);
}
