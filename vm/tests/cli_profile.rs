//! `vmrun`'s profiling options end to end (issue 4, item 4): the `vmrun` binary run as a
//! process on small programs written to a temporary directory.
//!
//! - `--profile=bl --profile-out F` writes JSON with every field the issue lists (checked on
//!   the raw JSON, then read back by `Profile::from_json`, which checks it), equal to the
//!   in-process run's profile, byte-identical across two processes (determinism);
//! - `--report` prints the human report to stderr (stdout keeps only the program's output),
//!   `--report=FILE` writes the same text to the file;
//! - a trap: status 70, the output so far, the profile with `complete: false`;
//! - SIGINT and SIGTERM (sent with `kill(2)` once the program's output has appeared): status
//!   130 and 143, all the output printed before the signal (including the part still
//!   buffered), and the profile with `complete: false` and the interrupted loop's paths (`bl`;
//!   `none`, `edge` and `trace` stop the same way);
//! - bad flags exit with status 2 and say what is wrong.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use profiler::PathEnds;
use serde_json::Value;
use vm::profile::{Mode, Profile};
use vm::{ProfileSettings, RunOptions, DEFAULT_TIER_UP};

/// A fresh temporary directory for one test.
fn tempdir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vm-cli-profile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn vmrun(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Prints 127, the most Collatz steps of a start below 300 (231 takes 127; checked with gcc).
const LOOPS: &str = "#include <stdio.h>
int collatz(int n) {
    int steps = 0;
    while (n != 1) {
        if (n % 2 == 0) n = n / 2;
        else n = 3 * n + 1;
        steps++;
    }
    return steps;
}
int never(int x) { return x > 0 ? x : -x; }
int main(void) {
    int best = 0;
    for (int i = 1; i < 300; i++) {
        int s = collatz(i);
        if (s > best) best = s;
    }
    printf(\"%d\\n\", best + never(0));
    return 0;
}
";

/// The members of a JSON object.
fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

/// Every field the issue lists, with its JSON type.
fn assert_issue_fields(json: &str) {
    let v: Value = serde_json::from_str(json).unwrap();
    for k in [
        "format",
        "version",
        "program",
        "mode",
        "k",
        "path_ends",
        "tier_up",
        "complete",
        "functions",
    ] {
        assert!(keys(&v).contains(&k), "no {k}");
    }
    assert!(v["format"].is_string() && v["program"].is_string() && v["mode"].is_string());
    assert!(v["version"].is_u64() && v["k"].is_u64() && v["tier_up"].is_u64());
    assert!(v["path_ends"].is_string() && v["complete"].is_boolean());
    let functions = v["functions"].as_array().unwrap();
    assert!(!functions.is_empty());
    for f in functions {
        for k in [
            "name",
            "line",
            "blocks",
            "static_paths",
            "paths",
            "tiered_up_at",
        ] {
            assert!(keys(f).contains(&k), "function without {k}: {f}");
        }
        assert!(f["name"].is_string() && f["line"].is_u64() && f["static_paths"].is_u64());
        assert!(f["tiered_up_at"].is_u64() || f["tiered_up_at"].is_null());
        for b in f["blocks"].as_array().unwrap() {
            assert!(keys(b).contains(&"id") && keys(b).contains(&"lines"), "{b}");
            let lines = &b["lines"];
            assert!(
                lines.is_null() || lines.as_array().is_some_and(|l| l.len() == 2),
                "{b}"
            );
        }
        for p in f["paths"].as_array().unwrap() {
            let mut k = keys(p);
            k.sort_unstable();
            assert_eq!(k, ["blocks", "count", "end", "id"], "{p}");
            assert!(p["blocks"].as_array().is_some_and(|b| !b.is_empty()), "{p}");
            assert!(p["end"].is_u64() || p["end"].is_null(), "{p}");
        }
    }
}

fn in_process(name: &str, src: &str, mode: Mode, tier_up: u64, ends: PathEnds) -> Profile {
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            k: 1,
            tier_up,
            path_ends: ends,
            max_nodes: None,
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    vm::run_source(name, src, &options, &mut out)
        .profile
        .unwrap()
}

#[test]
fn profile_out_writes_every_field_and_reads_back() {
    let dir = tempdir("out");
    write(&dir, "loops.c", LOOPS);
    for (args, mode, tier_up, ends) in [
        (
            vec!["--profile=bl", "--profile-out", "p.json", "loops.c"],
            Mode::Bl,
            DEFAULT_TIER_UP,
            PathEnds::Header,
        ),
        (
            vec![
                "--profile",
                "bl",
                "--tier-up",
                "0",
                "--path-ends",
                "backedge",
                "--profile-out=p.json",
                "loops.c",
            ],
            Mode::Bl,
            0,
            PathEnds::Backedge,
        ),
        (
            vec![
                "--profile=trace",
                "--path-ends=header",
                "--profile-out",
                "p.json",
                "loops.c",
            ],
            Mode::Trace,
            DEFAULT_TIER_UP,
            PathEnds::Header,
        ),
    ] {
        let o = vmrun(&dir, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stdout), "127\n", "{args:?}");
        assert!(o.stderr.is_empty(), "{args:?}: {}", text(&o.stderr));
        let json = std::fs::read_to_string(dir.join("p.json")).unwrap();
        assert_issue_fields(&json);
        let p = Profile::from_json(&json).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(p.format, vm::profile::FORMAT);
        assert_eq!(
            (
                p.program.as_str(),
                p.mode,
                p.k,
                p.path_ends,
                p.tier_up,
                p.complete
            ),
            ("loops.c", mode, 1, ends, tier_up, true),
            "{args:?}"
        );
        let names: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["collatz", "never", "main"], "{args:?}");
        // The command records the source file and its hash; otherwise the profile is what the
        // library computes for the same run.
        let sources: Vec<(&str, &str)> = p
            .sources
            .iter()
            .map(|s| (s.file.as_str(), s.fnv1a64.as_str()))
            .collect();
        assert_eq!(
            sources,
            [("loops.c", vm::profile::source_hash(LOOPS).as_str())],
            "{args:?}"
        );
        let mut without_sources = p.clone();
        without_sources.sources.clear();
        assert_eq!(
            without_sources,
            in_process("loops.c", LOOPS, mode, tier_up, ends),
            "{args:?}"
        );
        // `collatz` runs hot (298 calls, thousands of iterations): profiled; `never` is
        // called once: with a positive threshold it never tiers up.
        let collatz = &p.functions[0];
        assert!(collatz.tiered_up_at.is_some() && collatz.total() > 0);
        if mode == Mode::Bl && tier_up > 0 {
            assert_eq!(p.functions[1].tiered_up_at, None);
            assert!(p.functions[1].paths.is_empty());
        }
        // Determinism: another process writes the same bytes.
        let o2 = vmrun(&dir, &args);
        assert_eq!(o2.status.code(), Some(0));
        let json2 = std::fs::read_to_string(dir.join("p.json")).unwrap();
        assert_eq!(json, json2, "{args:?}: two runs differ");
    }
}

#[test]
fn report_goes_to_stderr_or_to_a_file() {
    let dir = tempdir("report");
    write(&dir, "loops.c", LOOPS);
    let o = vmrun(&dir, &["loops.c", "--profile=bl", "--report"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "127\n");
    let report = text(&o.stderr);
    // The report names the hot function, shows its hottest path's count, and the totals.
    let p = in_process(
        "loops.c",
        LOOPS,
        Mode::Bl,
        DEFAULT_TIER_UP,
        PathEnds::Header,
    );
    let collatz = &p.functions[0];
    assert!(report.contains("collatz"), "{report}");
    assert!(
        report.contains(&collatz.paths[0].count.to_string()),
        "{report}"
    );
    assert!(report.contains(&collatz.total().to_string()), "{report}");
    assert_eq!(
        report,
        vm::profile::report::render(&p, &vm::profile::report::ReportOptions::default())
    );

    // The flag may come before the program: it takes a file only as `--report=FILE`.
    let o = vmrun(&dir, &["--profile=bl", "--report", "loops.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "127\n");
    assert_eq!(text(&o.stderr), report);

    let o = vmrun(&dir, &["--profile=bl", "--report=r.txt", "loops.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "127\n");
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("r.txt")).unwrap(), report);
}

#[test]
fn a_trap_writes_an_incomplete_profile() {
    let dir = tempdir("trap");
    write(
        &dir,
        "trap.c",
        "#include <stdio.h>
int main(void) {
    int s = 0;
    for (int i = 4; i > -4; i--) {
        printf(\"%d\\n\", i);
        s += 12 / i;
    }
    return s;
}
",
    );
    for mode in ["bl", "trace", "edge"] {
        let o = vmrun(
            &dir,
            &[
                &format!("--profile={mode}"),
                "--tier-up=0",
                "--profile-out=t.json",
                "trap.c",
            ],
        );
        assert_eq!(o.status.code(), Some(70), "{mode}");
        assert_eq!(text(&o.stdout), "4\n3\n2\n1\n0\n", "{mode}");
        assert!(
            text(&o.stderr).contains("trap.c:6:"),
            "{mode}: {}",
            text(&o.stderr)
        );
        let json = std::fs::read_to_string(dir.join("t.json")).unwrap();
        let p = Profile::from_json(&json).unwrap();
        assert!(!p.complete, "{mode}");
        assert_eq!(
            p.reason.as_deref(),
            Some("trap.c:6:14: runtime error: integer division by zero"),
            "{mode}"
        );
        // Four iterations back to the header completed before the trap (plus, under
        // `header`, the entry path into it); `edge` counts no paths.
        let want = if mode == "edge" { 0 } else { 5 };
        assert_eq!(p.functions[0].total(), want, "{mode}");
    }
}

const FOREVER: &str = "#include <stdio.h>
int main(void) {
    for (int i = 0; i < 7000; i++)
        printf(\"line %d\\n\", i);
    int x = 0;
    while (1) {
        x = x * 3 + 1;
        if (x > 1000000) x = x % 1000;
    }
    return x;
}
";

/// Runs FOREVER, sends `signal` once its output has appeared and the printing is over, and
/// returns the status, the output and the profile.
fn interrupted(signal: i32, name: &str, mode: &str) -> (Option<i32>, Vec<u8>, Option<Profile>) {
    let dir = tempdir(name);
    write(&dir, "forever.c", FOREVER);
    let mode_arg = format!("--profile={mode}");
    let mut args = vec![mode_arg.as_str()];
    if mode != "none" {
        args.push("--profile-out=f.json");
    }
    args.push("forever.c");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .current_dir(&dir)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let seen = Arc::new(AtomicUsize::new(0));
    let out = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let (seen, out) = (seen.clone(), out.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        out.lock().unwrap().extend_from_slice(&buf[..n]);
                        seen.fetch_add(n, Ordering::SeqCst);
                    }
                }
            }
        })
    };
    let start = Instant::now();
    while seen.load(Ordering::SeqCst) == 0 {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("no output from vmrun within 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // The first 64 KiB are out; the rest of the 7000 lines takes well under a millisecond.
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "vmrun stopped by itself"
    );
    let pid = child.id() as libc::pid_t;
    // SAFETY: `kill` only sends a signal to our own child process, which has not been reaped
    // (`try_wait` above found it running), so the pid cannot have been reused.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("vmrun did not stop within 20 s of signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    reader.join().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(stderr.contains("interrupted"), "{stderr}");
    let profile = (mode != "none").then(|| {
        let json = std::fs::read_to_string(dir.join("f.json"))
            .unwrap_or_else(|e| panic!("no profile after signal {signal}: {e}; stderr: {stderr}"));
        Profile::from_json(&json).unwrap()
    });
    let out = out.lock().unwrap().clone();
    (status.code(), out, profile)
}

/// Status, output and (but for `none`) an incomplete profile after `signal` in `mode`.
fn check_any_mode(signal: i32, name: &str, mode: &str, want_status: i32) -> Option<Profile> {
    let (code, out, p) = interrupted(signal, name, mode);
    assert_eq!(code, Some(want_status), "{mode}");
    let want: String = (0..7000).map(|i| format!("line {i}\n")).collect();
    assert!(
        want.len() > 1 << 16,
        "the output must overflow the VM's buffer"
    );
    assert_eq!(
        out.len(),
        want.len(),
        "{mode}: all the output, the buffered part too"
    );
    assert_eq!(text(&out), want, "{mode}");
    if let Some(p) = &p {
        assert!(!p.complete, "{mode}");
        assert_eq!(p.mode.name(), mode);
        let name = if signal == libc::SIGINT {
            "SIGINT"
        } else {
            "SIGTERM"
        };
        let reason = p.reason.as_deref().unwrap_or_default();
        assert!(
            reason.starts_with("forever.c:") && reason.ends_with(&format!("interrupted by {name}")),
            "{mode}: {reason}"
        );
    }
    p
}

fn check_interrupted(signal: i32, name: &str, want_status: i32) {
    let p = check_any_mode(signal, name, "bl", want_status).unwrap();
    assert_eq!(p.mode, Mode::Bl);
    // `main` tiered up in its first loop and its infinite loop's paths were counted.
    let main = &p.functions[0];
    assert_eq!(main.tiered_up_at, Some(DEFAULT_TIER_UP + 1));
    assert!(main.total() > 7000 - DEFAULT_TIER_UP);
    let loop_lines = |path: &vm::profile::PathCount| {
        path.blocks
            .iter()
            .any(|&b| main.lines(b).is_some_and(|[lo, hi]| lo <= 7 && 7 <= hi))
    };
    assert!(main.paths.iter().any(loop_lines), "{:?}", main.paths);
}

#[test]
fn sigint_stops_with_130_and_writes_output_and_profile() {
    check_interrupted(libc::SIGINT, "sigint", 130);
}

#[test]
fn sigterm_stops_with_143_and_writes_output_and_profile() {
    check_interrupted(libc::SIGTERM, "sigterm", 143);
}

#[test]
fn bad_flags_are_usage_errors() {
    let dir = tempdir("flags");
    write(&dir, "loops.c", LOOPS);
    for (args, says) in [
        (vec!["--profile=bogus", "loops.c"], "bogus"),
        (vec!["--path-ends", "x", "loops.c"], "'x'"),
        (vec!["--tier-up=many", "--profile=bl", "loops.c"], "many"),
        (
            vec!["--profile-out", "p.json", "loops.c"],
            "--profile-out and --report need a profiling mode",
        ),
        (
            vec!["--profile=none", "--report=r.txt", "loops.c"],
            "need a profiling mode",
        ),
    ] {
        let o = vmrun(&dir, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: the program must not run");
        let err = text(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!dir.join("p.json").exists());
    assert!(!dir.join("r.txt").exists());
}

/// The report of a run worked out by hand (the `while` loop of `tier_cases`' on-stack
/// replacement case): `main` tiers up at its 1000th backward jump, from its header into the
/// body of i = 999, then counts i = 999..2999: 1334 iterations through the `else` (lines 4,
/// 5, 6, 7 back to the header at line 4), 667 through line 5 alone, and the last test out to
/// the return: 2002 paths, shares 66.6%, 33.3%, 0.0%.
/// `--top 2` lists the two hottest only.
#[test]
fn report_shows_hot_paths_as_source_lines_with_counts_and_shares() {
    let dir = tempdir("report-lines");
    write(
        &dir,
        "w.c",
        "int main(void) {
    int s = 0;
    int i = 0;
    while (i < 3000) {
        if (i % 3 == 0) s += i;
        else s -= 1;
        i++;
    }
    return s % 256;
}
",
    );
    let o = vmrun(&dir, &["--profile=bl", "--report=r.txt", "w.c"]);
    assert_eq!(o.status.code(), Some((1_498_500 - 2000) % 256));
    let report = std::fs::read_to_string(dir.join("r.txt")).unwrap();
    let line_of = |needle: &str| -> String {
        report
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in\n{report}"))
            .to_string()
    };
    assert!(report.contains("main"), "{report}");
    assert!(report.contains("2002"), "{report}");
    assert!(report.contains("1001"), "tiered-up heat: {report}");
    for (count, share, lines) in [
        (1334, "66.6%", "4, 5, 6, 7 -> 4"),
        (667, "33.3%", "4, 5, 7 -> 4"),
        (1, "0.0%", "4, 9 -> return"),
    ] {
        let l = line_of(lines);
        assert!(l.contains(&count.to_string()), "{l}");
        assert!(l.contains(share), "{l}");
    }
    let o = vmrun(&dir, &["--profile=bl", "--top=2", "--report=r2.txt", "w.c"]);
    assert_eq!(o.status.code(), Some((1_498_500 - 2000) % 256));
    let top2 = std::fs::read_to_string(dir.join("r2.txt")).unwrap();
    assert!(
        top2.contains("4, 5, 6, 7 -> 4") && top2.contains("4, 5, 7 -> 4"),
        "{top2}"
    );
    assert!(!top2.contains("4, 9 -> return"), "{top2}");
}

/// Every mode stops on a signal the same way (`none` writes no profile).
#[test]
fn every_mode_stops_on_sigint_and_sigterm() {
    for mode in ["none", "edge", "trace"] {
        check_any_mode(libc::SIGINT, &format!("int-{mode}"), mode, 130);
        check_any_mode(libc::SIGTERM, &format!("term-{mode}"), mode, 143);
    }
}

#[test]
fn indirect_calls_are_counted_per_site_in_every_mode() {
    // `apply` calls through its pointer 7 times: 3 to `inc`, 4 to `dbl`; `main` calls `dbl`
    // once through a table. The callees are profiled like any function.
    let src = "#include <stdio.h>\n\
               static int inc(int x) { return x + 1; }\n\
               static int dbl(int x) { return 2 * x; }\n\
               static int apply(int (*f)(int), int x) { return f(x); }\n\
               int main(void) {\n\
               \x20 int (*table[2])(int) = {inc, dbl};\n\
               \x20 int s = 0;\n\
               \x20 for (int i = 0; i < 7; i++) s += apply(i < 3 ? inc : dbl, i);\n\
               \x20 s += table[1](s);\n\
               \x20 printf(\"%d\\n\", s);\n\
               \x20 return 0;\n\
               }\n";
    for mode in [Mode::Edge, Mode::Bl, Mode::Trace, Mode::Kiter, Mode::Kbl] {
        let p = in_process("calls.c", src, mode, 0, PathEnds::Header);
        let calls = |name: &str| {
            p.functions
                .iter()
                .find(|f| f.name == name)
                .unwrap()
                .indirect_calls
                .iter()
                .map(|c| (c.line, c.callee.as_str(), c.count))
                .collect::<Vec<_>>()
        };
        assert_eq!(calls("apply"), [(4, "inc", 3), (4, "dbl", 4)], "{mode:?}");
        assert_eq!(calls("main"), [(9, "dbl", 1)], "{mode:?}");
        assert!(calls("inc").is_empty(), "{mode:?}");
        let back = Profile::from_json(&p.to_json()).unwrap();
        assert_eq!(back, p, "{mode:?}: the JSON keeps them");
    }
    let dir = tempdir("indirect_calls");
    let file = write(&dir, "calls.c", src);
    let out = vmrun(
        &dir,
        &["--profile=edge", "--report", file.to_str().unwrap()],
    );
    let report = text(&out.stderr);
    assert!(
        report.contains("Calls through function pointers")
            && report.contains("4  apply at 4:")
            && report.contains("-> dbl"),
        "{report}"
    );
}
