//! `vmrun report PROFILE.json`: a saved profile rendered again without running the program.
//!
//! - Every mode's profiles of real programs read back (the checks of `Profile::check`, the
//!   paths walked along the recorded CFG, accept every profile the VM writes) and render the
//!   same report as the run did;
//! - the command prints exactly what `--report` and `--annotate` printed during the run, and
//!   its JSON and dot forms carry the same hot paths;
//! - `--annotate` refuses a source file changed since the run;
//! - hostile profiles (wrong types, numbers beyond 2^64, nesting 10,000 deep, ids that do not
//!   exist, a path that is not a path of the CFG, and more) get one line on stderr and exit
//!   status 65, never a panic.

mod cli_support;

use std::path::Path;

use cli_support::{tempdir, text, vmrun};

use serde_json::Value;
use vm::profile::saved::{self, ReportFormat};
use vm::profile::text::ReportOptions;
use vm::profile::Profile;

fn program(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

const PROGRAMS: &[&str] = &[
    "collatz.c",
    "goto_paths.c",
    "switch_cases.c",
    "recursion.c",
    "sort_quick.c",
    "funcptr_interp.c",
];

/// Every mode's profile of real programs reads back equal and renders the same report.
#[test]
fn every_modes_profiles_read_back_and_render_the_same_report() {
    for name in PROGRAMS {
        let source = program(name);
        // Every mode that writes a profile.
        for spec in cli_support::every_mode().iter().filter(|m| *m != "none") {
            for tier_up in [0, 50] {
                let (mode, k) = vm::modes::table::parse_spec(spec).unwrap();
                let options = vm::RunOptions {
                    profile: vm::ProfileSettings {
                        mode,
                        k,
                        tier_up,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let run = vm::run_source(name, &source, &options, &mut std::io::sink());
                let profile = run.profile.expect("a profiling mode writes a profile");
                let loaded = saved::load(&profile.to_json())
                    .unwrap_or_else(|e| panic!("{name} {spec} --tier-up {tier_up}: {e}"));
                assert_eq!(loaded, profile, "{name} {spec}");
                let options = ReportOptions::default();
                assert_eq!(
                    saved::render(&loaded, &options, ReportFormat::Text),
                    vm::profile::report::render(&profile, &options),
                    "{name} {spec}"
                );
            }
        }
    }
}

/// The command prints what the run printed, in every form.
#[test]
fn report_and_annotate_are_what_the_run_printed() {
    let dir = tempdir("report", "same");
    std::fs::write(dir.join("collatz.c"), program("collatz.c")).unwrap();
    let o = vmrun(
        &dir,
        &[
            "--profile=kbl:3",
            "--tier-up=0",
            "--profile-out=p.json",
            "--report=r.txt",
            "--annotate=a.txt",
            "--top=4",
            "-DUNUSED=1",
            "collatz.c",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report = std::fs::read_to_string(dir.join("r.txt")).unwrap();
    let annotated = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    let again = vmrun(&dir, &["report", "p.json", "--top=4"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), report);
    let again = vmrun(&dir, &["report", "p.json", "--top=4", "--annotate"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), annotated);

    // JSON: the same hot paths, counts and shares.
    let profile =
        Profile::from_json(&std::fs::read_to_string(dir.join("p.json")).unwrap()).unwrap();
    let json = vmrun(&dir, &["report", "p.json", "--format=json", "--top=2"]);
    assert_eq!(json.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["format"], "vmrun-path-report");
    let hottest = profile.functions.iter().max_by_key(|f| f.total()).unwrap();
    let first = &v["functions"][0];
    assert_eq!(first["name"], hottest.name.as_str());
    assert_eq!(first["total"], hottest.total());
    let paths = first["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 2.min(hottest.paths.len()));
    for (p, want) in paths.iter().zip(&hottest.paths) {
        assert_eq!(p["id"], want.id);
        assert_eq!(p["count"], want.count);
    }
    assert!(first["ipf_trees"].as_array().is_some_and(|t| !t.is_empty()));

    // Dot: a graph with a node per shown k-IPF node, and edges within trees.
    let dot = vmrun(&dir, &["report", "p.json", "--format=dot"]);
    assert_eq!(dot.status.code(), Some(0));
    let dot = text(&dot.stdout);
    assert!(
        dot.starts_with("digraph profile {") && dot.ends_with("}\n"),
        "{dot}"
    );
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    assert!(dot.contains(" -> "), "{dot}");

    // A CFG with flows for a `bl` profile.
    let o = vmrun(
        &dir,
        &[
            "--profile=bl",
            "--tier-up=0",
            "--profile-out=b.json",
            "collatz.c",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let dot = text(&vmrun(&dir, &["report", "b.json", "--format=dot"]).stdout);
    assert!(
        dot.contains("penwidth=") && dot.contains("style=dashed"),
        "{dot}"
    );

    // A changed source is not annotated.
    std::fs::write(dir.join("collatz.c"), program("collatz.c") + "\n").unwrap();
    let changed = vmrun(&dir, &["report", "p.json", "--annotate"]);
    assert_eq!(changed.status.code(), Some(65));
    let err = text(&changed.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("collatz.c changed since the profile was written"),
        "{err}"
    );
    std::fs::remove_file(dir.join("collatz.c")).unwrap();
    let gone = vmrun(&dir, &["report", "p.json", "--annotate"]);
    assert_eq!(gone.status.code(), Some(66));
    let _ = std::fs::remove_dir_all(&dir);
}

/// One hostile change to a good profile's JSON value.
type Hostile = (&'static str, fn(&mut Value));

/// A `kbl` profile's JSON, good, to spoil.
fn good_profile() -> Value {
    let options = vm::RunOptions {
        profile: vm::ProfileSettings {
            mode: vm::Mode::Kbl,
            k: 3,
            tier_up: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let run = vm::run_source(
        "collatz.c",
        &program("collatz.c"),
        &options,
        &mut std::io::sink(),
    );
    serde_json::from_str(&run.profile.unwrap().to_json()).unwrap()
}

fn f0(v: &mut Value) -> &mut Value {
    &mut v["functions"][0]
}

const HOSTILE: &[Hostile] = &[
    ("a string for a number", |v| v["k"] = "three".into()),
    ("a number for a string", |v| v["mode"] = 7.into()),
    ("an object for an array", |v| {
        v["functions"] = serde_json::json!({})
    }),
    ("null for a count", |v| {
        f0(v)["paths"][0]["count"] = Value::Null
    }),
    ("a negative count", |v| {
        f0(v)["paths"][0]["count"] = (-1).into()
    }),
    ("a fraction for an id", |v| {
        f0(v)["paths"][0]["id"] = 1.5.into()
    }),
    ("a count beyond 2^64", |v| {
        f0(v)["paths"][0]["count"] = serde_json::from_str("18446744073709551616").unwrap()
    }),
    ("static paths beyond 2^64", |v| {
        f0(v)["static_paths"] = serde_json::from_str("1e300").unwrap()
    }),
    ("a block id beyond 2^32", |v| {
        f0(v)["entry"] = 4294967296u64.into()
    }),
    ("a missing member", |v| {
        v.as_object_mut().unwrap().remove("functions");
    }),
    ("an unknown mode", |v| v["mode"] = "fast".into()),
    ("an unknown version", |v| v["version"] = 999.into()),
    ("a path block that does not exist", |v| {
        f0(v)["paths"][0]["blocks"][0] = 100000.into()
    }),
    ("a path end that does not exist", |v| {
        f0(v)["paths"][0]["end"] = 100000.into()
    }),
    ("a successor that does not exist", |v| {
        f0(v)["blocks"][0]["succs"][0] = 100000.into()
    }),
    ("an entry that does not exist", |v| {
        f0(v)["entry"] = 100000.into()
    }),
    ("a path id beyond the static paths", |v| {
        let n = f0(v)["static_paths"].clone();
        f0(v)["paths"][0]["id"] = n;
    }),
    ("a k-IPF id that does not exist", |v| {
        f0(v)["ipf"][0]["ids"][0] = 100000.into()
    }),
    ("a k-IPF sequence longer than k", |v| {
        f0(v)["ipf"][0]["ids"] = serde_json::json!([0, 0, 0, 0, 0])
    }),
    ("a path that is not a path of the CFG", |v| {
        let blocks = f0(v)["paths"][0]["blocks"].as_array_mut().unwrap();
        blocks.reverse();
        blocks.insert(0, blocks[0].clone());
    }),
    ("a path that skips a block", |v| {
        let paths = f0(v)["paths"].as_array_mut().unwrap();
        let long = paths
            .iter_mut()
            .find(|p| p["blocks"].as_array().unwrap().len() >= 3)
            .unwrap();
        long["blocks"].as_array_mut().unwrap().remove(1);
    }),
    ("a duplicate path id", |v| {
        let p = f0(v)["paths"][0].clone();
        f0(v)["paths"].as_array_mut().unwrap().insert(1, p);
    }),
    ("a complete profile with a reason", |v| {
        v["reason"] = "why".into()
    }),
];

fn check_refused(dir: &Path, what: &str, json: &[u8]) {
    std::fs::write(dir.join("bad.json"), json).unwrap();
    let o = vmrun(dir, &["report", "bad.json"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(65), "{what}: {err}");
    assert!(o.stdout.is_empty(), "{what}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(err.starts_with("vmrun report: bad.json: "), "{what}: {err}");
}

#[test]
fn hostile_profiles_get_one_line_and_exit_65() {
    let dir = tempdir("report", "hostile");
    let good = good_profile();
    std::fs::write(dir.join("good.json"), good.to_string()).unwrap();
    let o = vmrun(&dir, &["report", "good.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for (what, spoil) in HOSTILE {
        let mut v = good.clone();
        spoil(&mut v);
        check_refused(&dir, what, v.to_string().as_bytes());
    }
    // Texts that are not profiles at all.
    let deep_array = "[".repeat(10_000) + &"]".repeat(10_000);
    let mut deep_member = good.to_string();
    deep_member.insert_str(1, &format!("\"x\": {deep_array}, "));
    let mut deep_object = String::new();
    for _ in 0..10_000 {
        deep_object.push_str("{\"a\": ");
    }
    deep_object.push('1');
    deep_object.push_str(&"}".repeat(10_000));
    let truncated = good.to_string()[..200].to_string();
    for (what, text) in [
        ("nesting 10,000 deep", deep_array.as_bytes()),
        ("nesting 10,000 deep in a member", deep_member.as_bytes()),
        ("objects nested 10,000 deep", deep_object.as_bytes()),
        ("an empty file", b"".as_slice()),
        ("truncated", truncated.as_bytes()),
        ("not UTF-8", b"{\"format\": \"\xff\xfe\"}".as_slice()),
        ("not JSON", b"profile: yes".as_slice()),
    ] {
        check_refused(&dir, what, text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
