//! `vmrun bench` end to end (issue 12): the `vmrun` binary run as a process on small programs
//! written to a temporary directory.
//!
//! - the smoke test: `vmrun bench --quick` on two small programs with every default mode
//!   writes results.json (read back, every cell ok, the profile statistics present where a
//!   mode has them), results.csv (a row per program and mode), report.md and SVG charts that
//!   parse as XML, and prints the summary;
//! - a program that does not compile, one that runs past `--timeout` and one of several files
//!   (a directory) are failed rows, and the other programs are still measured (exit status 1);
//! - SIGINT during a run stops the benchmark, writes what was gathered marked incomplete, and
//!   exits with 130;
//! - `--keep-profiles` keeps each mode's profile; `--compare` of a run with itself finds no
//!   significant change; `--render` writes the same outputs again; bad arguments exit with 2;
//! - `--builds` measures two binaries side by side: each build's own results and `builds.md`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn tempdir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vm-bench-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn vmrun() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
}

fn run(args: &[&str]) -> Output {
    vmrun().args(args).output().expect("vmrun runs")
}

/// A loop with a data-dependent branch, so every mode has paths to count.
const LOOPS: &str = "#include <stdio.h>\n\
int collatz(long n) { int steps = 0; while (n != 1) { if (n % 2 == 0) n = n / 2; else n = 3 * n + 1; steps++; } return steps; }\n\
int main(void) { long total = 0; for (int i = 1; i < 3000; i++) total += collatz(i); printf(\"%ld\\n\", total); return 0; }\n";

/// Short calls in a loop and a switch.
const CALLS: &str = "#include <stdio.h>\n\
int classify(int x) { switch (x % 4) { case 0: return 1; case 1: return x; case 2: return -x; default: return 2; } }\n\
int main(void) { int s = 0; for (int i = 0; i < 20000; i++) s += classify(i); printf(\"%d\\n\", s); return 3; }\n";

fn results(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("results.json")).expect("results.json written");
    serde_json::from_str(&text).expect("results.json is JSON")
}

fn cells(program: &Value) -> &Vec<Value> {
    program["cells"].as_array().unwrap()
}

#[test]
fn quick_smoke_run_writes_every_output() {
    let dir = tempdir("smoke");
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(suite.join("loops.c"), LOOPS).unwrap();
    std::fs::write(suite.join("calls.c"), CALLS).unwrap();
    std::fs::write(
        suite.join("suite.json"),
        r#"{"programs": [{"name": "loops", "family": "wcet", "loop_heavy": true}]}"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = run(&[
        "bench",
        "--quick",
        "--out",
        out.to_str().unwrap(),
        suite.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("Overhead relative to none"), "{stdout}");
    assert!(
        stdout.contains("Every mode printed what none printed"),
        "{stdout}"
    );

    let r = results(&out);
    assert_eq!(r["format"], "vmrun-bench-results");
    assert_eq!(r["complete"], true);
    assert_eq!(r["settings"]["warmup"], false);
    let modes: Vec<&str> = r["settings"]["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        modes,
        [
            "none",
            "edge",
            "bl",
            "kiter:2",
            "kiter:3",
            "kbl:2",
            "kbl:4",
            "kbl:8",
            "kbl:16",
            "ol:1",
            "ol:2",
            "ipp:context",
            "ipp:piecewise"
        ]
    );
    let programs = r["programs"].as_array().unwrap();
    let names: Vec<&str> = programs
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["calls", "loops"], "name order");
    assert_eq!(programs[1]["loop_heavy"], true);
    assert_eq!(
        programs[0]["loop_heavy"],
        Value::Null,
        "not in the manifest"
    );
    for p in programs {
        assert_eq!(p["failure"], Value::Null);
        assert!(p["static_paths"]["total"].as_array().unwrap().len() == 5);
        for c in cells(p) {
            assert_eq!(
                c["status"], "ok",
                "{} {}: {}",
                p["name"], c["mode"], c["message"]
            );
            assert_eq!(c["runs"].as_array().unwrap().len(), 1);
            let mode = c["mode"].as_str().unwrap();
            let profile = &c["profile"];
            if mode == "none" {
                assert_eq!(*profile, Value::Null);
                continue;
            }
            // vmrun's own peak memory: a few MiB for these programs (not the benchmark's).
            let rss = c["median"]["max_rss_kib"].as_u64().unwrap();
            assert!((500..200_000).contains(&rss), "{mode}: {rss} KiB");
            if mode != "edge" {
                assert!(profile["paths_executed"].as_u64().unwrap() > 0, "{mode}");
                assert!(
                    c["median"]["tier_ups"].as_u64().unwrap() > 0,
                    "{mode} tiered up"
                );
            }
            if mode.starts_with("kbl:") {
                assert!(profile["ksf_nodes"].as_u64().unwrap() > 0, "{mode}");
                assert!(profile["ipf_nodes"].as_u64().unwrap() > 0, "{mode}");
            }
            if mode == "bl" {
                assert_eq!(profile["hash_ops"], profile["paths_executed"]);
            }
            if mode.starts_with("ol:") {
                // The flows of the interesting paths contain the real flow.
                let f = &profile["flows"];
                let real = f["real"].as_u64().unwrap();
                assert!(real > 0, "{mode}: {f}");
                for source in ["from_bl", "from_ol"] {
                    let d = f[source][0].as_u64().unwrap();
                    let p = f[source][1].as_u64().unwrap();
                    assert!(d <= real && real <= p, "{mode} {source}: {f}");
                }
            } else {
                assert_eq!(profile["flows"], Value::Null, "{mode}");
            }
        }
    }
    // loops spends nearly all its paths iterating; the bl profile says so.
    let loops_bl = &cells(&programs[1])[2];
    assert!(loops_bl["profile"]["loop_path_share"].as_f64().unwrap() > 0.9);

    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        1 + 2 * 13,
        "a header and a row per program and mode"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("# Benchmark results: 2 programs, 13 modes"),
        "{report}"
    );
    assert!(
        report.contains("## Interprocedural paths: distinct paths and cost"),
        "{report}"
    );
    assert!(
        report.contains("## Overlapping paths: precision of the flow estimates"),
        "{report}"
    );
    let svgs: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    assert_eq!(
        svgs.len(),
        9,
        "overhead, Figures 8, 9 (twice), 11-14, Table 3: {svgs:?}"
    );
    for svg in svgs {
        let text = std::fs::read_to_string(&svg).unwrap();
        roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{} is not XML: {e}", svg.display()));
        let name = svg.file_name().unwrap().to_str().unwrap();
        assert!(
            report.contains(&format!("]({name})")),
            "report links {name}"
        );
    }
}

#[test]
fn failing_and_timed_out_programs_are_reported_in_their_rows() {
    let dir = tempdir("failures");
    let broken = dir.join("broken.c");
    std::fs::write(&broken, "int main(void) { return undeclared; }\n").unwrap();
    let endless = dir.join("endless.c");
    std::fs::write(
        &endless,
        "int main(void) { unsigned x = 1; while (x != 0) x = x * 3 + 2 * (x == 7); return 0; }\n",
    )
    .unwrap();
    let fine = dir.join("fine.c");
    std::fs::write(&fine, CALLS).unwrap();
    // A directory holding a directory of .c files: one program of several files.
    let parent = dir.join("multi");
    let several = parent.join("several");
    std::fs::create_dir_all(&several).unwrap();
    std::fs::write(several.join("main.c"), CALLS).unwrap();
    std::fs::write(several.join("util.c"), "int util(void) { return 1; }\n").unwrap();
    let out = dir.join("out");
    let o = run(&[
        "bench",
        "--quick",
        "--modes",
        "bl",
        "--timeout",
        "1",
        "--out",
        out.to_str().unwrap(),
        broken.to_str().unwrap(),
        endless.to_str().unwrap(),
        fine.to_str().unwrap(),
        parent.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    let r = results(&out);
    let programs = r["programs"].as_array().unwrap();
    let failure = |i: usize| programs[i]["failure"].as_str().unwrap_or("").to_string();
    assert!(
        failure(0).contains("status 65") && failure(0).contains("undeclared"),
        "{}",
        failure(0)
    );
    assert!(failure(1).contains("time limit of 1 s"), "{}", failure(1));
    for i in [0, 1] {
        for c in cells(&programs[i]) {
            assert_eq!(c["status"], "not_run");
        }
    }
    assert_eq!(programs[2]["failure"], Value::Null);
    for c in cells(&programs[2]) {
        assert_eq!(c["status"], "ok", "the run went on: {c}");
    }
    assert!(stdout.contains("broken: program failed"), "{stdout}");
    // A directory of several files is one program: its files are compiled and linked.
    assert_eq!(programs[3]["name"], "several");
    assert_eq!(programs[3]["files"].as_array().unwrap().len(), 2);
    assert_eq!(programs[3]["failure"], Value::Null);
    for c in cells(&programs[3]) {
        assert_eq!(c["status"], "ok", "the program of several files ran: {c}");
    }
}

#[test]
fn sigint_writes_the_results_gathered_so_far() {
    let dir = tempdir("sigint");
    for i in 0..4 {
        std::fs::write(dir.join(format!("p{i}.c")), LOOPS).unwrap();
    }
    let out = dir.join("out");
    let mut child = vmrun()
        .args(["bench", "--runs", "3", "--modes", "bl,kbl:4", "--out"])
        .arg(&out)
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the first program is done (its line is printed), then interrupt.
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.starts_with("[1/4] p0"), "{first}");
    // SAFETY: sends SIGINT to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    assert!(rest.iter().any(|l| l.starts_with("Results in")), "{rest:?}");
    assert_eq!(status.code(), Some(130));
    let r = results(&out);
    assert_eq!(r["complete"], false);
    let programs = r["programs"].as_array().unwrap();
    assert!(
        !programs.is_empty() && programs.len() < 4,
        "stopped part way: {} programs",
        programs.len()
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("**INCOMPLETE**"));
}

#[test]
fn compare_and_render_read_a_saved_run() {
    let dir = tempdir("compare");
    let prog = dir.join("loops.c");
    std::fs::write(&prog, LOOPS).unwrap();
    let out = dir.join("out");
    let o = run(&[
        "bench",
        "--runs",
        "2",
        "--modes",
        "bl",
        "--out",
        out.to_str().unwrap(),
        prog.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let json = out.join("results.json");
    let c = run(&[
        "bench",
        "--compare",
        json.to_str().unwrap(),
        json.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&c.stdout);
    assert_eq!(c.status.code(), Some(0));
    assert!(text.contains("loops"), "{text}");
    assert!(text.contains("within noise"), "{text}");
    assert!(
        !text.contains("SLOWER") && !text.contains("faster"),
        "{text}"
    );

    let missing = run(&[
        "bench",
        "--compare",
        "/nonexistent.json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(66));
    let not_results = dir.join("x.json");
    std::fs::write(&not_results, "{\"format\": \"other\"}").unwrap();
    let bad = run(&[
        "bench",
        "--compare",
        not_results.to_str().unwrap(),
        json.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(65));
}

#[test]
fn bad_arguments_exit_with_status_2_and_say_why() {
    let dir = tempdir("usage");
    let cases: [(&[&str], &str); 3] = [
        (
            &["bench", "--modes", "bl,fast"],
            "unknown profile mode 'fast'",
        ),
        (
            &["bench", "/nonexistent/suite"],
            "no such file or directory",
        ),
        (&["bench", "--modes", "kbl:0"], "K must be"),
    ];
    for (args, expected) in cases {
        let o = vmrun().args(args).current_dir(&dir).output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let o = vmrun().args(["bench"]).current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no PATH given"));
}

#[test]
fn builds_are_measured_side_by_side_each_with_its_own_results() {
    let dir = tempdir("builds");
    let prog = dir.join("loops.c");
    std::fs::write(&prog, LOOPS).unwrap();
    let out = dir.join("out");
    let exe = env!("CARGO_BIN_EXE_vmrun");
    let o = run(&[
        "bench",
        "--quick",
        "--modes",
        "bl",
        "--builds",
        &format!("one={exe},two={exe}"),
        "--out",
        out.to_str().unwrap(),
        prog.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for build in ["one", "two"] {
        let r = results(&out.join(build));
        assert_eq!(r["vmrun"], exe);
        assert_eq!(r["settings"]["modes"], serde_json::json!(["none", "bl"]));
        let program = &r["programs"][0];
        let modes: Vec<&str> = cells(program)
            .iter()
            .map(|c| c["mode"].as_str().unwrap())
            .collect();
        assert_eq!(
            modes,
            ["none", "bl"],
            "{build}: its own cells, named by mode"
        );
        for c in cells(program) {
            assert_eq!(c["status"], "ok", "{build}: {c}");
            assert_eq!(c["runs"].as_array().unwrap().len(), 1);
        }
        assert!(out.join(build).join("report.md").is_file());
    }
    let builds = std::fs::read_to_string(out.join("builds.md")).expect("builds.md written");
    assert!(builds.contains("| bl |"), "{builds}");
    assert!(
        builds.contains("/none, one") && builds.contains("/none, two"),
        "{builds}"
    );
    assert!(builds.contains("spread"), "{builds}");
    assert!(
        stdout.contains("The same suite with several builds"),
        "{stdout}"
    );
    // A build that does not exist, or a single build, is a usage error.
    for bad in [
        format!("one={exe},two=/no/such/vmrun"),
        format!("one={exe}"),
    ] {
        let o = run(&["bench", "--builds", &bad, prog.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--builds"));
    }
}
