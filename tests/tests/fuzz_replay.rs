//! Every committed fuzzing input (`fuzz/corpus/TARGET/`: the minimized corpus of each
//! cargo-fuzz target, and the inputs that once crashed, named for what they found) replayed
//! through the same target body (`e2e::fuzz`) as a plain test: no nightly toolchain needed, and
//! a bug a fuzzer found stays fixed. A panic on any input fails the test, naming the file.

use std::path::PathBuf;

fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus")).join(target)
}

#[test]
fn every_fuzz_corpus_input_is_handled() {
    // The compile-and-run target compares with gcc.
    e2e::reference::require_gcc();
    let mut failures = Vec::new();
    let mut replayed = 0;
    for target in e2e::fuzz::TARGETS {
        let dir = corpus_dir(target.name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        let inputs: Vec<(PathBuf, Vec<u8>)> = files
            .into_iter()
            .map(|f| {
                let bytes = std::fs::read(&f).expect("a corpus input reads");
                (f, bytes)
            })
            .collect();
        replayed += inputs.len();
        let results = e2e::parallel_map(&inputs, |(file, bytes)| {
            std::panic::catch_unwind(|| (target.run)(bytes))
                .err()
                .map(|payload| {
                    format!(
                        "{}: {}",
                        file.display(),
                        e2e::vmrun::panic_message(payload.as_ref())
                    )
                })
        });
        failures.extend(results.into_iter().flatten());
    }
    eprintln!("fuzz_replay: {replayed} inputs replayed");
    assert!(
        failures.is_empty(),
        "{} fuzz inputs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
