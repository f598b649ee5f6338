//! `vmrun forest` end to end: the k-BLPP paper's Example 3 stream through the binary, in the
//! three formats, and the exit status and message of bad input.

use std::process::{Command, Output};

/// The stream of the paper's Figure 3 / Example 3.
const EXAMPLE_3: &str = "* 6 2 0 0 2 2 0 0 2 2 0 0 2 3";

fn vmrun(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(args)
        .output()
        .expect("vmrun runs")
}

fn json(k: &str, stream: &str) -> serde_json::Value {
    let out = vmrun(&["forest", "--k", k, "--stream", stream, "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// The `(ids, count)` entries of one forest in the JSON output.
fn entries(v: &serde_json::Value, forest: &str) -> Vec<(Vec<u64>, u64)> {
    v[forest]
        .as_array()
        .expect("a list of nodes")
        .iter()
        .map(|n| {
            assert_eq!(n.as_object().unwrap().len(), 2, "only ids and count: {n}");
            let ids = n["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            (ids, n["count"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn example_3_json() {
    let v = json("4", EXAMPLE_3);
    assert_eq!(v.as_object().unwrap().len(), 3);
    assert_eq!(v["k"], 4);
    let ipf = entries(&v, "ipf");
    // The 4-IPF counts the n-grams (n <= 4) of the stream: check every one by brute force.
    let ids: Vec<u64> = EXAMPLE_3[2..]
        .split(' ')
        .map(|t| t.parse().unwrap())
        .collect();
    let mut expected = std::collections::BTreeMap::<Vec<u64>, u64>::new();
    for start in 0..ids.len() {
        for n in 1..=4.min(ids.len() - start) {
            *expected.entry(ids[start..start + n].to_vec()).or_default() += 1;
        }
    }
    assert_eq!(ipf.len(), expected.len());
    for (seq, count) in &ipf {
        assert_eq!(expected.get(seq), Some(count), "{seq:?}");
    }
    assert!(ipf.contains(&(vec![2, 0, 0, 2], 3)));
    // Deterministic order: label sequences ascending (preorder with children by label).
    let seqs: Vec<&Vec<u64>> = ipf.iter().map(|(s, _)| s).collect();
    let mut sorted = seqs.clone();
    sorted.sort();
    assert_eq!(seqs, sorted);
    // The 4-SF: roots 0, 2, 6 (slab starts), 6 levels, every path counted once.
    let ksf = entries(&v, "ksf");
    let roots: Vec<u64> = ksf
        .iter()
        .filter(|(s, _)| s.len() == 1)
        .map(|(s, _)| s[0])
        .collect();
    assert_eq!(roots, vec![0, 2, 6]);
    assert_eq!(ksf.iter().map(|(s, _)| s.len()).max(), Some(6));
    assert_eq!(ksf.iter().map(|(_, c)| c).sum::<u64>(), 14);
    assert!(ksf.contains(&(vec![6, 2, 0, 0, 2, 2], 1)));
}

#[test]
fn same_output_twice_and_for_every_sibling_order() {
    let run = |siblings: &str| {
        vmrun(&[
            "forest",
            "--k",
            "3",
            "--stream",
            "* 1 2 1 2 1 3 * 1 2 2 1",
            "--format",
            "json",
            "--siblings",
            siblings,
        ])
        .stdout
    };
    let first = run("append");
    assert_eq!(first, run("append"));
    assert_eq!(first, run("mtf"));
    assert_eq!(first, run("mtf:2"));
}

#[test]
fn text_and_dot() {
    let out = vmrun(&["forest", "--k", "4", "--stream", EXAMPLE_3]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "4-SF: 22 nodes in 3 trees, 6 levels (at most 6); 14 paths, 4 hash-table operations (5 slabs)"
        ),
        "{text}"
    );
    assert!(text.contains("4-IPF: 22 nodes"), "{text}");
    let out = vmrun(&["forest", "--k", "2", "--stream", "* 5 5", "--format", "dot"]);
    let dot = String::from_utf8(out.stdout).unwrap();
    assert!(dot.starts_with("digraph kblpp {"), "{dot}");
    assert!(dot.contains("ksf0 -> ksf1;"), "{dot}");
}

#[test]
fn bad_input_exits_2_with_the_token_position() {
    let out = vmrun(&["forest", "--k", "4", "--stream", "* 6 2 zero 2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("stream:1:7: token 4 'zero'"), "{err}");
    assert!(out.stdout.is_empty());
    let out = vmrun(&["forest", "--k", "0", "--stream", "* 1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = vmrun(&["forest", "--k", "2", "--stream", "* -1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("token 2 '-1'"), "{err}");
    let out = vmrun(&["forest", "--k", "2", "--stream", "@/nonexistent/stream.txt"]);
    assert_eq!(out.status.code(), Some(66));
}
