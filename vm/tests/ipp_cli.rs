//! `vmrun` with Melski & Reps' interprocedural paths, as a process:
//!
//! - `vmrun cfg` on the paper's multi-function file replays Figures 8-9 and 16-17 (JSON),
//!   and bad multi-function files and traces get `file:line` errors and status 65, a profile
//!   kind a multi-function file cannot take status 2;
//! - `vmrun --profile=ipp:context --report` and `--profile-out` on the paper's program as C:
//!   the report's table, the profile's `interprocedural` member read back;
//! - a SIGINT in the middle of a long run keeps the output and a profile marked incomplete;
//! - `vmrun explain` on a multi-function file (text, and html refused) and with an ipp profile.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use vm::profile::Profile;

fn vmrun(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(args)
        .output()
        .unwrap()
}

fn tempdir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vm-ipp-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// `{id: count}` of a `vmrun cfg --format json` replay.
fn counts(out: &Output) -> Vec<(u64, u64)> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_u64().unwrap(), c["count"].as_u64().unwrap()))
        .collect()
}

#[test]
fn vmrun_cfg_replays_the_papers_profiles() {
    let replay = |kind: &str| {
        vmrun(&[
            "cfg",
            "programs/cfgs/melski-reps-pow.cfg",
            "--path-ends",
            "backedge",
            "--profile",
            kind,
            "--trace",
            "@programs/cfgs/melski-reps-pow.trace",
            "--format",
            "json",
        ])
    };
    assert_eq!(
        counts(&replay("ipp:context")),
        [
            (16, 1),
            (18, 9),
            (24, 9),
            (25, 3),
            (27, 3),
            (28, 3),
            (29, 6),
            (30, 3),
            (32, 3),
            (33, 3),
            (34, 5),
            (35, 1)
        ]
    );
    assert_eq!(
        counts(&replay("ipp:piecewise")),
        [
            (6, 1),
            (8, 9),
            (12, 3),
            (14, 5),
            (15, 1),
            (16, 15),
            (17, 3),
            (19, 6),
            (20, 6)
        ]
    );
    let listing = vmrun(&[
        "cfg",
        "programs/cfgs/melski-reps-pow.cfg",
        "--path-ends",
        "backedge",
    ]);
    let text = String::from_utf8_lossy(&listing.stdout);
    assert!(
        text.contains("36 paths") && text.contains("pow: u1 -> u3 <1, 1>"),
        "{text}"
    );
}

#[test]
fn bad_multi_function_files_and_traces_name_the_line() {
    let dir = tempdir("bad");
    let good = "function main\nentry a\nexit z\na -> c\nc call f -> r\nr -> z\n\
                function f\nentry b\nexit y\nb -> y\n";
    let cases = [
        (
            "no-main.cfg",
            good.replace("function main", "function start"),
            "no function main",
        ),
        (
            "no-callee.cfg",
            good.replace("call f", "call g"),
            ":5: no function g",
        ),
        (
            "two-preds.cfg",
            good.replace("a -> c\n", "a -> c r\n"),
            ":5: in main: return site r must have its call vertex as its only predecessor",
        ),
        (
            "dup-line.cfg",
            good.replace("r -> z\n", "r -> z\nc -> z\n"),
            ":7: second edge line for node c (the first is on line 5)",
        ),
        (
            "dup.cfg",
            good.replace("entry b\nexit y\nb -> y", "entry a\nexit y\na -> y"),
            "unique",
        ),
        (
            "outside.cfg",
            format!("entry q\n{good}"),
            ":1: a line before the first 'function'",
        ),
        (
            "bad-call.cfg",
            good.replace("c call f -> r", "c call f r"),
            ":5: expected",
        ),
    ];
    for (name, text, expected) in cases {
        let file = write(&dir, name, &text);
        let out = vmrun(&["cfg", &file]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(65), "{name}: {err}");
        assert!(
            err.contains(expected) && err.contains(name),
            "{name}: {err}"
        );
    }
    let file = write(&dir, "good.cfg", good);
    let trace = |t: &str| vmrun(&["cfg", &file, "--profile", "ipp:context", "--trace", t]);
    let ok = trace("a c b y r z ; a c b y r z");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    for (t, expected) in [
        ("a c y", "a call vertex must go to its callee's entry"),
        ("a c b y z", "the return must go to r"),
        ("a c b y", "ends at y in f"),
        ("b y", "not at the entry of main"),
    ] {
        let out = trace(t);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(65), "{t}: {err}");
        assert!(err.contains(expected), "{t}: {err}");
    }
    let out = vmrun(&["cfg", &file, "--profile", "bl"]);
    assert_eq!(out.status.code(), Some(2));
    let out = vmrun(&[
        "cfg",
        "programs/cfgs/roy-srikant-fig1.cfg",
        "--profile",
        "ipp:context",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_report_and_the_profile_of_a_program() {
    let dir = tempdir("report");
    let json = dir.join("p.json");
    let out = vmrun(&[
        "--profile=ipp:context",
        "--path-ends",
        "backedge",
        "--report",
        "--profile-out",
        json.to_str().unwrap(),
        "programs/demo/melski_reps_pow.c",
    ]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1959.0\n");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(
        report.contains("Interprocedural context paths (Melski & Reps): 49 paths completed, 12 of 36 static paths executed"),
        "{report}"
    );
    let profile = Profile::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let section = profile.interprocedural.unwrap();
    let mut counts: Vec<u64> = section.paths.iter().map(|p| p.count).collect();
    counts.sort_unstable();
    // Figures 8-9's counts, whatever the ids of the VM's graph.
    assert_eq!(counts, [1, 1, 3, 3, 3, 3, 3, 3, 5, 6, 9, 9]);
    assert!(section
        .paths
        .iter()
        .any(|p| p.lines.contains("main:") && p.lines.contains("-> power:")));
    let explained = vmrun(&[
        "explain",
        "programs/demo/melski_reps_pow.c",
        "--func",
        "power",
        "--profile-in",
        json.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&explained.stdout);
    assert!(
        text.contains("interprocedural paths through power"),
        "{text}"
    );
    let refused = vmrun(&[
        "explain",
        "programs/cfgs/melski-reps-pow.cfg",
        "--format",
        "html",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let listing = vmrun(&["explain", "programs/cfgs/melski-reps-pow.cfg"]);
    assert!(String::from_utf8_lossy(&listing.stdout).contains("maxEnters"));
}

#[test]
fn an_interrupt_keeps_the_output_and_the_profile_so_far() {
    let dir = tempdir("signal");
    let src = write(
        &dir,
        "long.c",
        "#include <stdio.h>\nlong step(long x) { if (x & 1) return 3 * x + 1; return x / 2; }\n\
         int main(void) { long n = 0; printf(\"start\\n\");\n\
         for (long i = 1; ; i++) { long x = i; while (x != 1) { x = step(x); n++; } }\n\
         return (int)n; }\n",
    );
    let json = dir.join("p.json");
    for mode in ["--profile=ipp:context", "--profile=ipp:piecewise"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vmrun"))
            .args([mode, "--profile-out", json.to_str().unwrap(), &src])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(800));
        let start = Instant::now();
        // SAFETY: kill(2) on our own child's pid.
        assert_eq!(
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
            0
        );
        let out = loop {
            if let Some(_status) = child.try_wait().unwrap() {
                break child.wait_with_output().unwrap();
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no exit after SIGINT"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(
            out.status.code(),
            Some(130),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), "start\n");
        let profile = Profile::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert!(!profile.complete);
        let section = profile.interprocedural.unwrap();
        assert!(section.paths.iter().map(|p| p.count).sum::<u64>() > 100);
        assert!(section.incomplete >= 1);
    }
}
