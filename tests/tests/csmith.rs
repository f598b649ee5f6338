//! Differential test on Csmith's random programs (Yang et al., "Finding and understanding
//! bugs in C compilers", PLDI 2011), compiled with Csmith's own headers as its users compile
//! them (`-I /usr/include/csmith`): each program must print gcc's checksum and exit as gcc's
//! build does, plain and under `bl` with every function instrumented from its first call.
//!
//! Csmith's programs exercise what hand-written tests rarely do: structure values in comma
//! and conditional expressions, assignments of pointers to differently signed types, deep
//! expression nesting, the `safe_math.h` macros with hexadecimal floating constants, and
//! `<float.h>`, `<assert.h>`, `<stdint.h>`, `<limits.h>`, `<string.h>`, `<math.h>`.
//! Csmith is required (Debian's `csmith` and `libcsmith-dev`; `.ci/run` installs them).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use e2e::outcome::Outcome;
use e2e::reference::{compile, require_gcc, run_executable, scratch_dir};
use vm::{Mode, ProfileSettings, RunOptions};

/// The seeds: fixed, so a failure reproduces (`csmith --seed N`).
const SEEDS: &[u64] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

/// Where Debian's `libcsmith-dev` puts Csmith's headers.
const CSMITH_INCLUDE: &str = "/usr/include/csmith";

fn require_csmith() {
    let runs = Command::new("csmith")
        .arg("--version")
        .current_dir(std::env::temp_dir())
        .output();
    assert!(
        runs.is_ok_and(|o| o.status.success()),
        "csmith is required by this test (apt-get install csmith libcsmith-dev; .ci/run does)"
    );
    assert!(
        Path::new(CSMITH_INCLUDE).join("csmith.h").is_file(),
        "Csmith's headers are required in {CSMITH_INCLUDE} (apt-get install libcsmith-dev)"
    );
}

/// The program Csmith generates for `seed`, written into `dir`.
fn generate(seed: u64, dir: &Path) -> PathBuf {
    // (Csmith writes a `platform.info` into its working directory.)
    let out = Command::new("csmith")
        .args(["--seed", &seed.to_string()])
        .current_dir(dir)
        .output()
        .expect("csmith runs");
    assert!(out.status.success(), "csmith --seed {seed} failed");
    let path = dir.join(format!("csmith{seed}.c"));
    std::fs::write(&path, out.stdout).expect("write the generated program");
    path
}

/// The VM's run of `source` under `mode` (every function instrumented at its first call).
fn vm_run(name: &str, source: &str, mode: Mode) -> Outcome {
    let preprocess = lang::PreprocessOptions {
        include_dirs: vec![PathBuf::from(CSMITH_INCLUDE)],
        ..Default::default()
    };
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            tier_up: 0,
            ..ProfileSettings::default()
        },
        ..RunOptions::default()
    };
    // Csmith nests expressions deeply: the front end gets a deep stack, as `vmrun`'s.
    let (name, source) = (name.to_string(), source.to_string());
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut out = Vec::new();
            let r = vm::run_sources_with(&[(&name, &source)], &preprocess, &options, &mut out);
            Outcome {
                stdout: out,
                status: r.exit_status,
                stderr: r.stderr,
            }
        })
        .expect("spawn the VM's thread")
        .join()
        .expect("the VM does not panic")
}

#[test]
fn csmith_programs_print_gccs_checksum_plain_and_profiled() {
    require_gcc();
    require_csmith();
    let dir = scratch_dir("csmith");
    let results = e2e::parallel_map(SEEDS, |&seed| {
        let path = generate(seed, &dir);
        let source = std::fs::read_to_string(&path).expect("read the program");
        let exe = compile(
            &path,
            &dir,
            &format!("csmith{seed}"),
            &["-I", CSMITH_INCLUDE, "-w"],
        )
        .unwrap_or_else(|e| panic!("gcc rejects csmith --seed {seed}:\n{e}"));
        let expected = run_executable(&exe, Duration::from_secs(60));
        assert!(
            String::from_utf8_lossy(&expected.stdout).starts_with("checksum = "),
            "gcc's build of seed {seed} printed no checksum"
        );
        let name = path.display().to_string();
        let mut diffs = Vec::new();
        for mode in [Mode::None, Mode::Bl] {
            if let Some(d) = expected.compare(&vm_run(&name, &source, mode)) {
                diffs.push(format!("csmith --seed {seed} under {mode:?}:\n{d}"));
            }
        }
        diffs
    });
    let _ = std::fs::remove_dir_all(&dir);
    let failures: Vec<String> = results.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
