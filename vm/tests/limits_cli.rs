//! Every limit of a run, end to end (`vmrun` as a process): `--max-steps`, `--max-depth`,
//! `--stack-size`, `--max-memory` reached by the program's `malloc` and `--max-memory` reached
//! by the profile's structures. Each ends the run with exit status 70 and a runtime error
//! `FILE:LINE:COL: runtime error: ...` that names the limit and the option raising it
//! (snapshots in `snapshots/`), after all the output printed before it; the profile written
//! is marked `"complete": false` with that first line as its `reason`.
//!
//! `--max-steps` also stops every profiling mode at the same place (the probes a mode adds are
//! not counted), and is exact: a limit of the number of instructions a run executes lets it
//! finish, one less stops it.

mod cli_support;

use cli_support::{tempdir, text, vmrun};

use vm::profile::Profile;

/// Runs `source` (as `prog.c`) under `--profile=bl --profile-out` with `limit_args`, checks
/// what every limit must (status 70, the error's first line as the profile's reason, an
/// incomplete profile) and returns stdout and stderr.
fn hit_limit(test: &str, source: &str, limit_args: &[&str]) -> (String, String) {
    let dir = tempdir("limits", test);
    std::fs::write(dir.join("prog.c"), source).unwrap();
    let mut args = vec!["--profile=bl", "--tier-up=0", "--profile-out=p.json"];
    args.extend_from_slice(limit_args);
    args.push("prog.c");
    let o = vmrun(&dir, &args);
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(70), "{test}: {stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("prog.c:") && first.contains(": runtime error: "),
        "{test}: {stderr}"
    );
    let json = std::fs::read_to_string(dir.join("p.json")).expect("the profile is written");
    let profile = Profile::from_json(&json).expect("the profile reads back");
    assert!(!profile.complete, "{test}");
    assert_eq!(profile.reason.as_deref(), Some(first), "{test}");
    let _ = std::fs::remove_dir_all(&dir);
    (stdout, stderr)
}

/// Prints a line per iteration, forever.
const FOREVER: &str = "#include <stdio.h>
int main(void) {
    long s = 0;
    for (int i = 0; ; i++) {
        s += i % 7;
        printf(\"%d %ld\\n\", i, s);
    }
    return 0;
}
";

#[test]
fn max_steps_stops_the_run_with_its_output_and_profile() {
    let (stdout, stderr) = hit_limit("steps", FOREVER, &["--max-steps=5000"]);
    insta::assert_snapshot!("max_steps", stderr);
    // The output printed up to the limit, line by line as gcc would print it.
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() > 100, "{stdout}");
    let mut s = 0;
    for (i, line) in lines.iter().enumerate() {
        s += i % 7;
        assert_eq!(*line, format!("{i} {s}"));
    }
}

/// The same limit stops every mode after the same output: the probes are not counted.
#[test]
fn max_steps_stops_every_mode_at_the_same_place() {
    let dir = tempdir("limits", "modes");
    std::fs::write(dir.join("prog.c"), FOREVER).unwrap();
    let mut seen: Option<(String, String)> = None;
    for mode in cli_support::every_mode() {
        for tier_up in ["0", "5"] {
            let o = vmrun(
                &dir,
                &[
                    &format!("--profile={mode}"),
                    &format!("--tier-up={tier_up}"),
                    "--max-steps=20000",
                    "prog.c",
                ],
            );
            assert_eq!(o.status.code(), Some(70), "{mode}");
            let got = (text(&o.stdout), text(&o.stderr));
            match &seen {
                None => seen = Some(got),
                Some(first) => assert_eq!(&got, first, "{mode} --tier-up={tier_up}"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts every instruction the loop executes (the oracle of `--max-steps`).
struct CountInstructions(u64);

impl vm::probes::Probes for CountInstructions {
    const ENABLED: bool = true;
    const WATCH: bool = true;

    fn on_instr(&mut self, _: &vm::version::Version, _: lang::bytecode::Pc, _: u64) {
        self.0 += 1;
    }
}

/// A run that executes N instructions (counted one by one by the loop, without metering)
/// finishes under `--max-steps N` and stops under `--max-steps N - 1`.
#[test]
fn max_steps_is_exact() {
    let source = "int f(int x) {\n    return x % 3 == 0 ? x / 3 : x + 1;\n}\n\
                  int main(void) {\n    int s = 0;\n    for (int i = 0; i < 10; i++) {\n\
                  if (i % 2) s += f(i); else { switch (i) { case 0: s--; break; default: s++; } }\n\
                  }\n    return s;\n}\n";
    let program = lang::compile_source("p.c", source).unwrap();
    let mut machine = vm::interp::Machine::new(&program, 100);
    let (result, counted) =
        vm::run::execute(&mut machine, CountInstructions(0), &mut std::io::sink());
    let status = result.expect("the program runs").status();
    let executed = counted.0;
    let run = |max: u64| {
        let options = vm::RunOptions {
            max_steps: Some(max),
            ..Default::default()
        };
        vm::run_program(&program, "p.c", &options, &mut std::io::sink()).exit_status
    };
    assert_eq!(run(executed), status);
    assert_eq!(run(executed - 1), vm::EXIT_RUNTIME_ERROR);
}

#[test]
fn max_depth_stops_deep_recursion_with_its_output_and_profile() {
    let source = "#include <stdio.h>
int down(int n) {
    if (n % 1000 == 0) printf(\"depth %d\\n\", n);
    return down(n + 1) + 1;
}
int main(void) {
    return down(0);
}
";
    let (stdout, stderr) = hit_limit("depth", source, &["--max-depth=2500"]);
    insta::assert_snapshot!("max_depth", stderr);
    assert_eq!(stdout, "depth 0\ndepth 1000\ndepth 2000\n");
}

#[test]
fn stack_size_stops_a_frame_that_does_not_fit() {
    let source = "#include <stdio.h>
int fill(int n) {
    int a[256];
    a[n % 256] = n;
    printf(\"frame %d\\n\", n);
    return fill(n + 1) + a[n % 256];
}
int main(void) {
    return fill(0);
}
";
    let (stdout, stderr) = hit_limit("stack", source, &["--stack-size=8K"]);
    insta::assert_snapshot!("stack_size", stderr);
    // 1,024 bytes of array a frame: 8 fill the 8K stack, the 9th does not fit.
    let frames: Vec<&str> = stdout.lines().collect();
    assert_eq!(frames.len(), 8, "{stdout}");
    for (i, line) in frames.iter().enumerate() {
        assert_eq!(*line, format!("frame {i}"));
    }
}

#[test]
fn max_memory_stops_malloc_beyond_it() {
    let source = "#include <stdio.h>
#include <stdlib.h>
int main(void) {
    for (int i = 0; i < 1000; i++) {
        char *p = malloc(1 << 20);
        p[0] = (char)i;
        printf(\"block %d\\n\", i);
    }
    return 0;
}
";
    let (stdout, stderr) = hit_limit("malloc", source, &["--max-memory=16M", "--stack-size=1M"]);
    insta::assert_snapshot!("max_memory_malloc", stderr);
    let blocks = stdout.lines().count();
    assert!((8..16).contains(&blocks), "{stdout}");
}

/// A k-slab forest that outgrows the limit while the program's own memory stays small.
#[test]
fn max_memory_stops_a_profile_that_outgrows_it() {
    let source = cli_support::random_switch(400_000_000, 100_000);
    let dir = tempdir("limits", "forest");
    std::fs::write(dir.join("prog.c"), &source).unwrap();
    let o = vmrun(
        &dir,
        &[
            "--profile=kbl:12",
            "--max-memory=48M",
            "--stack-size=1M",
            "--profile-out=p.json",
            "prog.c",
        ],
    );
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(70), "{stderr}");
    // Where the run noticed depends on the allocator's sizes: the snapshot leaves out the place.
    let first = stderr.lines().next().unwrap_or_default();
    let message = first.split_once(": runtime error: ").map(|(_, m)| m);
    insta::assert_snapshot!("max_memory_profile", message.unwrap_or(first));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() > 2, "{stdout}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(*line, format!("{}", i * 100000));
    }
    let json = std::fs::read_to_string(dir.join("p.json")).expect("the profile is written");
    let profile = Profile::from_json(&json).expect("the profile reads back");
    assert!(!profile.complete);
    assert_eq!(profile.reason.as_deref(), Some(first));
    assert!(profile.functions[0]
        .ipf
        .as_ref()
        .is_some_and(|ipf| ipf.len() > 1000));
    let _ = std::fs::remove_dir_all(&dir);
}
