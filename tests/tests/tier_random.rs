//! Issue 4's oracle tests on generated programs (`e2e::gen`): each program run in every
//! profiling mode with the checks of `vm/tests/tier_run.rs` (shared code:
//! `vm/tests/tier_support`, `check_tiering`): `bl --tier-up 0` equals `trace` and the paths
//! by definition in both strategies, every path is a path of the CFG, the output, exit status
//! and diagnostics equal those of `--profile=none`, and at small thresholds (2, 5, 50) and the
//! default the counts are exactly those the tiering rule predicts from the time-ordered trace
//! (at most the oracle's), with byte-identical profiles across two runs.
//!
//! The seeds are `base..base+count`: `base` from `E2E_SEED` (to reproduce a run) or the clock,
//! `count` from `E2E_TIER_COUNT` (default 30). A failure names its seed, writes the program to
//! the temp directory and says how to rerun.

#[path = "../../vm/tests/tier_support/mod.rs"]
mod tier_support;

use e2e::gen::{base_seed, generate};
use profiler::PathEnds;
use vm::DEFAULT_TIER_UP;

fn count() -> u64 {
    std::env::var("E2E_TIER_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30)
}

const THRESHOLDS: &[(PathEnds, &[u64])] = &[
    (PathEnds::Header, &[0, 2, 50]),
    (PathEnds::Backedge, &[0, 5, DEFAULT_TIER_UP]),
];

/// Checks one seed; `Err` with the failure (and where the program was saved).
fn check_seed(seed: u64) -> Result<(), String> {
    let source = generate(seed);
    let name = format!("gen{seed}.c");
    let result = std::panic::catch_unwind(|| {
        tier_support::check_tiering(&name, &source, THRESHOLDS, true);
    });
    result.map_err(|payload| {
        let msg = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let path = std::env::temp_dir().join(format!("e2e-tier-{seed}.c"));
        let saved = match std::fs::write(&path, &source) {
            Ok(()) => format!("program written to {}", path.display()),
            Err(e) => format!("could not write {}: {e}", path.display()),
        };
        format!("seed {seed} ({saved}): {msg}")
    })
}

#[test]
fn generated_programs_profile_by_definition() {
    let base = base_seed();
    let n = count();
    eprintln!(
        "tier_random: seeds {base}..{} (set E2E_SEED={base} to reproduce)",
        base.wrapping_add(n)
    );
    let workers = e2e::worker_count().min(n.max(1) as usize) as u64;
    // Threads with a large stack: the compiler recurses on deep generated expressions.
    let handles: Vec<_> = (0..workers)
        .map(|w| {
            std::thread::Builder::new()
                .name(format!("tier-random-{w}"))
                .stack_size(64 << 20)
                .spawn(move || {
                    (0..n)
                        .filter(|i| i % workers == w)
                        .filter_map(|i| check_seed(base.wrapping_add(i)).err())
                        .collect::<Vec<String>>()
                })
                .unwrap()
        })
        .collect();
    let failures: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {n} generated programs fail (rerun with E2E_SEED={base}; print one with \
         `cargo run -p e2e --example gen -- SEED`):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
