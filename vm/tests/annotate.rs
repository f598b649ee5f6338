//! `vmrun --profile=MODE --annotate[=FILE]` end to end: the annotated source's counts against
//! references that do not use the annotation's code.
//!
//! - Arithmetic and gcov: a program whose loops have known trip counts, run as a process under
//!   every mode that counts Ball-Larus paths (`bl`, `trace`, `kbl:3`, `kiter:1`, with
//!   `--tier-up 0`), shows on each line the count its trip counts give, which is also what
//!   gcc's own `gcov` counts for that line (`gcc --coverage`), on every line that is one
//!   statement; on the other lines (a `for` split over two blocks) it is at most gcov's.
//! - Block entries: on every program of `programs/` (the longest left out of debug builds),
//!   in both path-end strategies, every count of the annotation of `bl --tier-up 0` equals the
//!   count of the busiest block with an instruction on the line (`-` exactly where no
//!   instruction is), where a block's count is the number of times the `trace` sink saw it
//!   entered ([`TraceProbes::keep_activations`]: every block of every
//!   activation, no paths involved); `trace`'s and `kbl:2`'s annotations are the same text
//!   but for the title.
//! - The command line: `--annotate` prints to stderr (stdout is the program's), `--annotate=F`
//!   writes F; without a mode that counts paths it is a usage error (status 2, one line); an
//!   unwritable F is a one-line error, status 1, and no file; after a trap and after SIGINT the
//!   annotation is written and says INCOMPLETE; `kiter:2` shows `?` and says why; a function
//!   that never tiered up is "not profiled" and its lines show `-`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use lang::bytecode::FuncIdx;
use profiler::{BallLarus, Numbering, PathEnds};
use vm::interp::Machine;
use vm::modes::trace::oracle::Oracle;
use vm::modes::trace::TraceProbes;
use vm::profile::annotate::{annotate, AnnotateOptions, CodeLines};
use vm::profile::Mode;
use vm::{ProfileSettings, RunOptions, DEFAULT_MAX_DEPTH};

/// A fresh temporary directory for one test.
fn tempdir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vm-annotate-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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

/// The count column of every source line of an annotation (or of a `.gcov` file), by line
/// number: `count:...:line:source` (gcov: `count:line:source`).
fn counts(annotation: &str, gcov: bool) -> BTreeMap<u32, String> {
    annotation
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.splitn(if gcov { 3 } else { 5 }, ':').collect();
            let line = cols.get(if gcov { 1 } else { 3 })?.trim().parse().ok()?;
            (line > 0).then(|| (line, cols[0].trim().to_string()))
        })
        .collect()
}

/// Loops of known trip counts: `square_sum(37)` runs its loop body 37 times, 13 of them
/// through the `if` (i = 0, 3, ..., 36); `main` calls it 4 times.
const TRIPS: &str = "#include <stdio.h>

int square_sum(int n) {
    int s = 0;
    int i = 0;
    while (i < n) {
        s = s + i * i;
        if (i % 3 == 0)
            s = s - 1;
        i++;
    }
    return s;
}

int never(int x) {
    return -x;
}

int main(void) {
    int total = 0;
    for (int r = 0; r < 4; r++) {
        total += square_sum(37);
        total %= 1000;
    }
    if (total < 0)
        total = never(total);
    printf(\"%d\\n\", total);
    return 0;
}
";

/// The counts `TRIPS` must show, from its trip counts alone.
fn trips_by_arithmetic() -> BTreeMap<u32, String> {
    let (calls, n, thirds) = (4u64, 37u64, 37u64.div_ceil(3));
    let mut want = BTreeMap::new();
    for (line, count) in [
        (4, calls),           // int s = 0;
        (5, calls),           // int i = 0;
        (6, calls * (n + 1)), // while (i < n): one more test than iterations
        (7, calls * n),       // the body
        (8, calls * n),       // if (i % 3 == 0)
        (9, calls * thirds),  // s = s - 1;
        (10, calls * n),      // i++;
        (12, calls),          // return s;
        (20, 1),              // int total = 0;
        (21, calls),          // for: the busiest of its blocks (body, step, test)
        (22, calls),          // total += square_sum(37);
        (23, calls),          // total %= 1000;
        (25, 1),              // if (total < 0)
        (27, 1),              // printf
        (28, 1),              // return 0;
    ] {
        want.insert(line, count.to_string());
    }
    // Never ran: `never`'s body (profiled from the start: --tier-up 0), and its call.
    want.insert(16, "#####".to_string());
    want.insert(26, "#####".to_string());
    for line in 1..=29 {
        want.entry(line).or_insert_with(|| "-".to_string());
    }
    want
}

#[test]
fn counts_are_the_trip_counts_in_every_mode_of_ball_larus_paths() {
    let dir = tempdir("trips");
    std::fs::write(dir.join("trips.c"), TRIPS).unwrap();
    let want = trips_by_arithmetic();
    let mut first: Option<String> = None;
    for mode in ["bl", "trace", "kbl:3", "kiter:1"] {
        for ends in ["header", "backedge"] {
            let o = vmrun(
                &dir,
                &[
                    &format!("--profile={mode}"),
                    "--tier-up=0",
                    &format!("--path-ends={ends}"),
                    "--annotate=a.txt",
                    "trips.c",
                ],
            );
            assert_eq!(o.status.code(), Some(0), "{mode}: {}", text(&o.stderr));
            assert!(o.stderr.is_empty(), "{mode}: {}", text(&o.stderr));
            let a = std::fs::read_to_string(dir.join("a.txt")).unwrap();
            assert_eq!(counts(&a, false), want, "{mode} {ends}:\n{a}");
            assert!(
                a.contains("function never (line 15): entered 0 times, 0 paths"),
                "{a}"
            );
            // Only the title differs between modes and strategies, but for the paths'
            // shares: compare the count columns of header-ended runs.
            if ends == "header" {
                let body: String = a
                    .lines()
                    .skip(1)
                    .filter(|l| l.contains(':'))
                    .map(|l| format!("{}\n", l.split(':').next().unwrap()))
                    .collect();
                assert_eq!(first.get_or_insert(body.clone()), &body, "{mode}");
            }
        }
    }
}

#[test]
fn counts_agree_with_gcov() {
    let dir = tempdir("gcov");
    std::fs::write(dir.join("trips.c"), TRIPS).unwrap();
    let gcc = Command::new("gcc")
        .current_dir(&dir)
        .args([
            "-std=c99",
            "-fwrapv",
            "-O0",
            "--coverage",
            "trips.c",
            "-o",
            "trips",
            "-lm",
        ])
        .output()
        .expect("gcc is the reference of the tests: install it");
    assert!(gcc.status.success(), "{}", text(&gcc.stderr));
    let run = Command::new(dir.join("trips"))
        .current_dir(&dir)
        .output()
        .unwrap();
    let gcov = Command::new("gcov")
        .current_dir(&dir)
        .args(["-o", ".", "trips.c"])
        .output()
        .expect("gcov comes with gcc: install it");
    assert!(gcov.status.success(), "{}", text(&gcov.stderr));
    let gcov = counts(
        &std::fs::read_to_string(dir.join("trips.c.gcov")).unwrap(),
        true,
    );
    let o = vmrun(
        &dir,
        &["--profile=bl", "--tier-up=0", "--annotate=a.txt", "trips.c"],
    );
    assert_eq!(o.stdout, run.stdout);
    let ours = counts(&std::fs::read_to_string(dir.join("a.txt")).unwrap(), false);
    let source: Vec<&str> = TRIPS.lines().collect();
    let mut compared = 0;
    for (&line, count) in &ours {
        if count == "#####" {
            assert_eq!(gcov[&line], "#####", "line {line}");
        }
        let Ok(n) = count.parse::<u64>() else {
            continue;
        };
        let g: u64 = gcov[&line]
            .parse()
            .unwrap_or_else(|_| panic!("line {line}"));
        let src = source[line as usize - 1].trim();
        if src.starts_with("for ") {
            // Split over two blocks (init and first test; body, step and test).
            assert!(n <= g, "line {line}: {n} > gcov's {g}");
        } else {
            assert_eq!(n, g, "line {line}: {src}");
            compared += 1;
        }
    }
    assert_eq!(compared, 14);
}

/// Programs whose trace is too long for a debug build (as in `kbl_oracle`).
const RELEASE_ONLY: &[&str] = &[
    "bench_branches.c",
    "bench_calls.c",
    "bench_loops.c",
    "collatz.c",
    "hash_table.c",
    "life.c",
    "nqueens.c",
    "recursion.c",
    "mandelbrot.c",
];

/// The reference counts of a program's lines: the trace's block entries per function (an
/// activation abandoned by `exit` or a trap only up to its last path end, since its path in
/// progress is not counted), then per line the most entries of a block with an instruction
/// on it (by the instructions' locations); lines without an instruction are not in it.
fn block_entry_counts(program: &lang::bytecode::Program, ends: PathEnds) -> BTreeMap<u32, u64> {
    let mut probes = TraceProbes::new(program, ends).unwrap();
    probes.keep_activations = true;
    let mut m = Machine::new(program, DEFAULT_MAX_DEPTH);
    let (_, mut probes) = vm::run::execute(&mut m, probes, &mut Vec::new());
    probes.close_unfinished();
    let n = program.functions.len();
    let cfgs: Vec<_> = (0..n)
        .map(|f| probes.cfg(FuncIdx(f as u16)).clone())
        .collect();
    let mut entries: Vec<Vec<u64>> = cfgs.iter().map(|fc| vec![0; fc.blocks().count()]).collect();
    for a in &probes.activations {
        let fc = &cfgs[a.func.index()];
        let mut upto = a.blocks.len();
        if !a.finished {
            let bl = BallLarus::new(fc.cfg(), ends, Numbering::Canonical, u64::MAX).unwrap();
            let oracle = Oracle::new(fc.cfg(), ends, bl.dag().extra_cuts());
            upto = (1..a.blocks.len())
                .rev()
                .find(|&i| oracle.cuts(a.blocks[i - 1], a.blocks[i]))
                .unwrap_or(0);
        }
        for b in &a.blocks[..upto] {
            entries[a.func.index()][b.index()] += 1;
        }
    }
    let mut lines: BTreeMap<u32, (usize, u64)> = BTreeMap::new();
    for (f, fc) in cfgs.iter().enumerate() {
        // The program's own file (library code in C, `qsort`, has lines of its own file).
        if program.functions[f].file != 0 {
            continue;
        }
        for (pc, loc) in program.functions[f].locs.iter().enumerate() {
            let Some(b) = fc.block_of_pc(lang::bytecode::Pc(pc as u16)) else {
                continue; // unreachable code
            };
            if loc.line == 0 {
                continue;
            }
            let e = lines.entry(loc.line).or_insert((f, 0));
            assert_eq!(e.0, f, "line {} in two functions", loc.line);
            e.1 = e.1.max(entries[f][b.index()]);
        }
    }
    lines.into_iter().map(|(l, (_, c))| (l, c)).collect()
}

fn annotated(name: &str, source: &str, mode: Mode, k: u32, ends: PathEnds) -> String {
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            k,
            tier_up: 0,
            path_ends: ends,
            max_nodes: None,
        },
        collect_profile: true,
        ..RunOptions::default()
    };
    let r = vm::run_source(name, source, &options, &mut Vec::new());
    let program = lang::compile_source(name, source).unwrap();
    let code = CodeLines::of_program(&program).unwrap();
    annotate(
        &r.profile.unwrap(),
        source,
        &code,
        &AnnotateOptions::default(),
    )
}

#[test]
fn counts_are_the_busiest_blocks_entries_on_every_program() {
    let mut checked = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir("../programs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().unwrap().to_str().unwrap();
        if cfg!(debug_assertions) && RELEASE_ONLY.contains(&name) {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        // The real path, so that `#include "..."` finds the headers beside the program.
        let name = &path.display().to_string();
        let program = lang::compile_source(name, &source).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let reference = block_entry_counts(&program, ends);
            let bl = annotated(name, &source, Mode::Bl, 1, ends);
            for (line, shown) in counts(&bl, false) {
                let want = reference.get(&line);
                let at = format!("{name} ({ends}) line {line}: {}", lines[line as usize - 1]);
                match shown.as_str() {
                    "-" => assert_eq!(want, None, "{at}"),
                    "#####" => assert_eq!(want, Some(&0), "{at}"),
                    n => assert_eq!(want.map(u64::to_string).as_deref(), Some(n), "{at}"),
                }
            }
            // The same counts, shares and paths from `trace` and `kbl:2` (same canonical ids).
            let body = |a: &str| a.lines().skip(1).collect::<Vec<_>>().join("\n");
            for (mode, k) in [(Mode::Trace, 1), (Mode::Kbl, 2)] {
                let other = annotated(name, &source, mode, k, ends);
                assert_eq!(body(&other), body(&bl), "{name} {mode}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked} programs");
}

#[test]
fn annotate_goes_to_stderr_or_to_a_file() {
    let dir = tempdir("where");
    std::fs::write(dir.join("trips.c"), TRIPS).unwrap();
    let o = vmrun(&dir, &["--profile=bl", "--annotate", "trips.c"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout), "772\n");
    let err = text(&o.stderr);
    assert!(
        err.starts_with("Annotated source of trips.c (mode bl, path ends header, tier-up 1000)\n"),
        "{err}"
    );
    // With the default tier-up nothing gets hot (square_sum: 4 calls and 148 iterations).
    assert!(err.contains("function square_sum (line 3): not profiled (never tiered up)"));
    assert_eq!(counts(&err, false)[&7], "-");
    let o = vmrun(
        &dir,
        &["--profile=bl", "--annotate=a.txt", "--report", "trips.c"],
    );
    assert_eq!(o.status.code(), Some(0));
    let file = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    assert_eq!(file, err);
    assert!(text(&o.stderr).starts_with("Path profile of trips.c"));
}

#[test]
fn a_hot_loop_is_counted_after_it_tiers_up() {
    let dir = tempdir("hot");
    let src = "#include <stdio.h>
int main(void) {
    int s = 0;
    for (int i = 0; i < 5000; i++)
        s = s + i % 7;
    printf(\"%d\\n\", s);
    return 0;
}
";
    std::fs::write(dir.join("hot.c"), src).unwrap();
    let o = vmrun(&dir, &["--profile=bl", "--annotate=a.txt", "hot.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let a = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    let c = counts(&a, false);
    // On-stack replacement after about 1000 iterations; the rest are counted.
    let body: u64 = c[&5].parse().unwrap();
    assert!((3900..5000).contains(&body), "{a}");
    assert_eq!(c[&6], "1");
    // Ran once, before the switch.
    assert_eq!(c[&3], "#####", "{a}");
    assert!(a.contains("what ran before is not counted"), "{a}");
}

#[test]
fn annotate_needs_a_mode_that_counts_paths() {
    let dir = tempdir("usage");
    std::fs::write(dir.join("trips.c"), TRIPS).unwrap();
    for args in [
        vec!["--annotate", "trips.c"],
        vec!["--profile=none", "--annotate=a.txt", "trips.c"],
        vec!["--profile=edge", "--annotate", "trips.c"],
    ] {
        let o = vmrun(&dir, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("--annotate"), "{args:?}: {err}");
    }
    assert!(!dir.join("a.txt").exists());
}

#[test]
fn an_unwritable_file_is_one_line_and_no_file() {
    let dir = tempdir("unwritable");
    std::fs::write(dir.join("trips.c"), TRIPS).unwrap();
    let o = vmrun(
        &dir,
        &["--profile=bl", "--annotate=no/such/dir/a.txt", "trips.c"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "772\n");
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("vmrun: cannot write no/such/dir/a.txt: "),
        "{err}"
    );
    assert!(!dir.join("no").exists());
}

#[test]
fn a_trap_still_annotates_and_says_incomplete() {
    let dir = tempdir("trap");
    std::fs::write(
        dir.join("trap.c"),
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
    )
    .unwrap();
    let o = vmrun(&dir, &["--profile=trace", "--annotate=a.txt", "trap.c"]);
    assert_eq!(o.status.code(), Some(70));
    let a = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    assert!(a.lines().nth(1).unwrap().starts_with("INCOMPLETE: "), "{a}");
    // Four completed iterations; the fifth (i = 0) trapped in its path.
    let c = counts(&a, false);
    assert_eq!((c[&5].as_str(), c[&6].as_str()), ("4", "4"), "{a}");
    assert_eq!(c[&8], "#####");
}

#[test]
fn sigint_still_annotates_and_says_incomplete() {
    let dir = tempdir("sigint");
    std::fs::write(
        dir.join("forever.c"),
        "#include <stdio.h>
int main(void) {
    printf(\"started\\n\");
    int x = 0;
    while (1) {
        x = x * 3 + 1;
        if (x > 1000000) x = x % 1000;
    }
    return x;
}
",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .current_dir(&dir)
        .args(["--profile=bl", "--annotate=a.txt", "forever.c"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its output stays buffered until it stops, so give it time to reach its loop.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "vmrun stopped by itself"
    );
    // SAFETY: `kill` only sends SIGINT to our own child, not reaped yet (`try_wait` above
    // found it running), so the pid cannot have been reused.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no stop after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "started\n");
    let a = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    assert!(a.lines().nth(1).unwrap().starts_with("INCOMPLETE: "), "{a}");
    let body: u64 = counts(&a, false)[&6].parse().unwrap();
    assert!(body > 0, "{a}");
}

#[test]
fn kiter_above_one_shows_no_counts_and_says_why() {
    let dir = tempdir("kiter");
    std::fs::write(dir.join("trips.c"), TRIPS).unwrap();
    let o = vmrun(
        &dir,
        &[
            "--profile=kiter:2",
            "--tier-up=0",
            "--annotate=a.txt",
            "trips.c",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let a = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    assert!(a.contains("count: not known ('?': ran, '#####': did not): 2-iteration paths overlap"));
    let c = counts(&a, false);
    assert_eq!(
        (c[&7].as_str(), c[&26].as_str(), c[&2].as_str()),
        ("?", "#####", "-")
    );
    assert!(!c.values().any(|v| v.parse::<u64>().is_ok()), "{a}");
}
