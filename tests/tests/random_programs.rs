//! Random differential test: at least 300 generated programs (see `e2e::gen`) per run, each
//! compiled with gcc and compared with `vm::run_source` (stdout bytes and exit status).
//!
//! The seeds are `base..base+count` where `base` comes from `E2E_SEED` (reproducible runs) or
//! from the clock, and `count` from `E2E_COUNT` (default 300). On failure every failing seed
//! is printed, with the program written to a file in the temp directory, and the command that
//! reproduces one case.

use std::time::Duration;

use e2e::gen::{base_seed, generate, generate_units, generate_with, Config};
use e2e::reference::{gcc_outcome_files, gcc_outcome_of_text, require_gcc};
use e2e::vmrun::{vm_outcome, vm_outcome_files, vm_time_limit};

fn count() -> u64 {
    std::env::var("E2E_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

#[test]
fn generated_programs_match_gcc() {
    check_single_files("random_programs", count(), "", generate);
}

/// With the pointer features on (`Config::pointers`: structures, unions, pointers, strings,
/// function pointers, the heap and `qsort`, all well defined): half as many seeds.
#[test]
fn generated_programs_with_pointers_match_gcc() {
    check_single_files(
        "random_programs (pointers)",
        (count() / 2).max(1),
        "--pointers ",
        |seed| generate_with(seed, &Config::varied(seed).with_pointers()),
    );
}

/// Generates the programs of `n` seeds with `generate` (printed by the example `gen` with
/// `flag`), and compares each with gcc's build.
fn check_single_files(label: &str, n: u64, flag: &str, generate: impl Fn(u64) -> String + Sync) {
    require_gcc();
    let base = base_seed();
    eprintln!(
        "{label}: seeds {base}..{} (set E2E_SEED={base} to reproduce)",
        base.wrapping_add(n)
    );
    let seeds: Vec<u64> = (0..n).map(|i| base.wrapping_add(i)).collect();
    let results = e2e::parallel_map(&seeds, |&seed| {
        let source = generate(seed);
        let expected = gcc_outcome_of_text(&source, Duration::from_secs(30));
        let actual = vm_outcome(&format!("gen{seed}.c"), &source, vm_time_limit());
        expected.compare(&actual).map(|diff| {
            let path = std::env::temp_dir().join(format!("e2e-gen-{seed}.c"));
            let saved = match std::fs::write(&path, &source) {
                Ok(()) => format!("program written to {}", path.display()),
                Err(e) => format!("could not write {}: {e}", path.display()),
            };
            format!("seed {seed} ({saved}):\n{diff}")
        })
    });
    let failures: Vec<&String> = results.iter().flatten().collect();
    if !failures.is_empty() {
        let shown: Vec<&str> = failures.iter().take(20).map(|s| s.as_str()).collect();
        panic!(
            "{} of {n} generated programs differ from gcc (base seed {base}; rerun with E2E_SEED={base}; \
             print one with `cargo run -p e2e --example gen -- {flag}SEED`):\n\n{}{}",
            failures.len(),
            shown.join("\n"),
            if failures.len() > 20 { "\n(only the first 20 shown)" } else { "" }
        );
    }
}

/// The same programs split into two translation units (`e2e::gen::generate_units`): globals
/// and functions in `lib.c`, `main` in `main.c` with `extern` declarations and prototypes,
/// and a `static` copy of the helpers in each file. One seed in three of the single-file run.
#[test]
fn generated_programs_of_two_files_match_gcc() {
    require_gcc();
    let base = base_seed();
    let n = (count() / 3).max(1);
    eprintln!(
        "random_programs (two files): seeds {base}..{} (set E2E_SEED={base} to reproduce)",
        base.wrapping_add(n)
    );
    let seeds: Vec<u64> = (0..n).map(|i| base.wrapping_add(i)).collect();
    let results = e2e::parallel_map(&seeds, |&seed| {
        let units = generate_units(seed);
        let dir = e2e::reference::scratch_dir(&format!("units{seed}"));
        let paths: Vec<std::path::PathBuf> = units
            .iter()
            .map(|(name, text)| {
                let path = dir.join(name);
                std::fs::write(&path, text).expect("write a generated unit");
                path
            })
            .collect();
        let expected = gcc_outcome_files(&paths, Duration::from_secs(30));
        let files: Vec<(String, String)> = paths
            .iter()
            .zip(&units)
            .map(|(p, (_, text))| (p.display().to_string(), text.clone()))
            .collect();
        let actual = vm_outcome_files(&files, vm_time_limit());
        let diff = expected.compare(&actual);
        match diff {
            None => {
                let _ = std::fs::remove_dir_all(&dir);
                None
            }
            Some(diff) => Some(format!(
                "seed {seed} (files kept in {}):\n{diff}",
                dir.display()
            )),
        }
    });
    let failures: Vec<&String> = results.iter().flatten().collect();
    assert!(
        failures.is_empty(),
        "{} of {n} two-file programs differ from gcc (rerun with E2E_SEED={base}):\n\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
