//! Differential test: every program under `programs/` (recursively, except `programs/cfgs/`,
//! twins included) must print the same bytes and exit with the same status under the VM
//! (`vm::run_source`, in-process) as when compiled by gcc (`-std=c99 -fwrapv -O0 -lm`).
//! All mismatches are reported together, each with the first differing line.

use std::time::Duration;

use e2e::outcome::Outcome;
use e2e::programs::{all_programs, display_name};
use e2e::reference::{gcc_outcome, require_gcc};
use e2e::vmrun::{vm_outcome, vm_time_limit};

#[test]
fn every_program_matches_gcc() {
    require_gcc();
    let files = all_programs();
    assert!(
        files.len() >= 30,
        "expected the program corpus under programs/, found {} files",
        files.len()
    );
    let results = e2e::parallel_map(&files, |file| {
        let name = display_name(file);
        let source =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
        let expected: Outcome = gcc_outcome(file, Duration::from_secs(60));
        // The VM gets the file's real path: `#include "..."` looks in the file's directory.
        let actual = vm_outcome(&file.display().to_string(), &source, vm_time_limit());
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
