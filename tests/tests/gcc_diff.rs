//! Differential test: every program under `programs/` (recursively, except `programs/cfgs/`,
//! twins included; a directory with a `main.c` is one program of several files) must print the
//! same bytes and exit with the same status under the VM
//! (`vm::run_source`, in-process) as when compiled by gcc (`-std=c99 -fwrapv -O0 -lm`).
//! All mismatches are reported together, each with the first differing line.

use std::time::Duration;

use e2e::outcome::Outcome;
use e2e::programs::{all_programs, display_name, program_files};
use e2e::reference::{gcc_outcome_files, require_gcc};
use e2e::vmrun::{vm_outcome_files, vm_time_limit};

#[test]
fn every_program_matches_gcc() {
    require_gcc();
    let files = all_programs();
    assert!(
        files.len() >= 30,
        "expected the program corpus under programs/, found {} files",
        files.len()
    );
    assert!(
        files.iter().any(|f| f.is_dir()),
        "expected a program of several files (a directory with a main.c) under programs/"
    );
    let results = e2e::parallel_map(&files, |file| {
        let name = display_name(file);
        let sources = program_files(file);
        let texts: Vec<(String, String)> = sources
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(f)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
                (f.display().to_string(), text)
            })
            .collect();
        let expected: Outcome = gcc_outcome_files(&sources, Duration::from_secs(60));
        // The VM gets the files' real paths: `#include "..."` looks in the file's directory.
        let actual = vm_outcome_files(&texts, vm_time_limit());
        (name, expected.compare(&actual))
    });
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(name, diff)| diff.as_ref().map(|d| format!("{name}:\n{d}")))
        .collect();
    if !failures.is_empty() {
        panic!(
            "{} of {} programs differ from gcc:\n\n{}",
            failures.len(),
            results.len(),
            failures.join("\n")
        );
    }
}
