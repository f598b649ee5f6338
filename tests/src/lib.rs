//! End-to-end test support for the C-subset VM.
//!
//! The reference for every program's behaviour is gcc (`gcc -std=c99 -fwrapv -O0 -x c FILE -lm`):
//! a program's stdout bytes and exit status under `vm::run_source` must equal those of the
//! gcc-compiled executable. This crate provides the pieces the tests in `tests/tests/` share:
//!
//! - [`reference`](mod@reference): compile and run a C file with gcc (fails loudly if gcc is missing);
//! - [`vmrun`]: run a source in-process with `vm::run_source`, guarded by a timeout;
//! - [`outcome`]: what a run produced, and a readable comparison of two runs;
//! - [`programs`]: the `.c` files under `programs/` (excluding `programs/cfgs/`);
//! - [`fuzz`]: the bodies of the cargo-fuzz targets, replayed on their corpora by a plain test;
//! - [`import_graph`]: which files of a crate import which, and the circles among them;
//! - [`gen`]: a seeded generator of random, well-defined programs in the subset, reusable by
//!   later oracle tests (profilers compare their counts on the same programs).
#![deny(missing_docs)]

pub mod fuzz;
pub mod gen;
pub mod import_graph;
pub mod outcome;
pub mod programs;
pub mod reference;
pub mod vmrun;

/// The number of worker threads the tests use (the team shares two cores).
pub fn worker_count() -> usize {
    std::env::var("E2E_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(2)
}

/// Runs `work` on every item with [`worker_count`] threads and returns the results in the
/// items' order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..worker_count().min(items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = work(&items[i]);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}
