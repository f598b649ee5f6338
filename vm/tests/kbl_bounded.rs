//! `--profile=kbl:K --max-nodes N`: the k-slab forest kept within N nodes by pruning its cold
//! subtrees, checked against the unbounded forest on the same runs.
//!
//! - With a spill large enough (nothing evicted), every count is the unbounded run's: the
//!   profile's `paths` and `ipf` are equal, for programs of the repository, K from 2 to 8,
//!   bounds from a few dozen nodes up, and with recursion (active frames pinned);
//! - when the spill overflows, the function's counts are marked lower bounds (`lost_at_most`),
//!   and every count is below the truth by at most that much (and never above it);
//! - the report says which.

mod cli_support;

use vm::profile::report::{render, ReportOptions};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::{ProfileSettings, RunOptions};

fn program(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

fn profile(name: &str, source: &str, k: u32, max_nodes: Option<usize>) -> Profile {
    let options = RunOptions {
        profile: ProfileSettings {
            mode: Mode::Kbl,
            k,
            tier_up: 0,
            max_nodes,
            ..Default::default()
        },
        ..Default::default()
    };
    let r = vm::run_source(name, source, &options, &mut std::io::sink());
    assert!(
        r.exit_status != vm::EXIT_RUNTIME_ERROR,
        "{name}: {}",
        r.stderr
    );
    let p = r.profile.expect("kbl writes a profile");
    p.check()
        .unwrap_or_else(|e| panic!("{name} k {k} {max_nodes:?}: {e}"));
    p
}

/// A function's counts: its paths `(id, count)` and its k-IPF entries `(ids, count)`.
type Counts = (Vec<(u64, u64)>, Vec<(Vec<u64>, u64)>);

/// The counts of a function: its paths and its k-IPF entries.
fn counts(f: &FunctionProfile) -> Counts {
    let paths = f.paths.iter().map(|p| (p.id, p.count)).collect();
    let ipf = f
        .ipf
        .iter()
        .flatten()
        .map(|e| (e.ids.clone(), e.count))
        .collect();
    (paths, ipf)
}

const PROGRAMS: &[&str] = &[
    "collatz.c",
    "recursion.c",
    "sort_quick.c",
    "switch_cases.c",
    "fsm_table.c",
    "bytecode_interp.c",
];

#[test]
fn bounded_counts_equal_the_unbounded_ones_while_nothing_is_evicted() {
    let mut pruned_runs = 0;
    for name in PROGRAMS {
        let source = program(name);
        for k in [2, 3, 5, 8] {
            let exact = profile(name, &source, k, None);
            for max_nodes in [16, 64, 500] {
                let bounded = profile(name, &source, k, Some(max_nodes));
                for (e, b) in exact.functions.iter().zip(&bounded.functions) {
                    let stats = b.kbl_stats.expect("kbl stats");
                    assert_eq!(stats.max_nodes, max_nodes as u64);
                    pruned_runs += usize::from(stats.prunings > 0);
                    if stats.lost_at_most == 0 {
                        assert_eq!(
                            counts(b),
                            counts(e),
                            "{name} k {k} --max-nodes {max_nodes}: {}",
                            e.name
                        );
                    } else {
                        check_lower_bounds(e, b, stats.lost_at_most);
                    }
                }
            }
        }
    }
    assert!(
        pruned_runs > 20,
        "the bounds were seldom reached: {pruned_runs}"
    );
}

/// Every bounded count is at most the exact one and at most `lost` below it.
fn check_lower_bounds(exact: &FunctionProfile, bounded: &FunctionProfile, lost: u64) {
    let (_, exact_ipf) = counts(exact);
    let (_, bounded_ipf) = counts(bounded);
    let truth: std::collections::HashMap<Vec<u64>, u64> = exact_ipf.into_iter().collect();
    for (ids, count) in &bounded_ipf {
        let t = truth.get(ids).copied().unwrap_or(0);
        assert!(*count <= t, "{}: {ids:?} {count} above {t}", bounded.name);
    }
    let found: std::collections::HashMap<Vec<u64>, u64> = bounded_ipf.into_iter().collect();
    for (ids, t) in truth {
        let count = found.get(&ids).copied().unwrap_or(0);
        assert!(
            t - count <= lost,
            "{}: {ids:?} lost {}",
            bounded.name,
            t - count
        );
    }
}

/// A program with many distinct cold sequences overflows a small spill: its counts are marked
/// lower bounds, stay within the bound, and the report says so.
#[test]
fn an_overflowing_spill_marks_lower_bounds() {
    let source = cli_support::random_switch(200_000, 0);
    let exact = profile("random.c", &source, 5, None);
    let bounded = profile("random.c", &source, 5, Some(200));
    let main = &bounded.functions[0];
    let stats = main.kbl_stats.unwrap();
    assert!(stats.prunings > 10 && stats.lost_at_most > 0, "{stats:?}");
    check_lower_bounds(&exact.functions[0], main, stats.lost_at_most);
    let report = render(&bounded, &ReportOptions::default());
    assert!(
        report.contains("LOWER BOUNDS: the k-SF was kept within 200 nodes"),
        "{report}"
    );
    // The file says it too, and reads back.
    let back = Profile::from_json(&bounded.to_json()).unwrap();
    assert_eq!(
        back.functions[0].kbl_stats.unwrap().lost_at_most,
        stats.lost_at_most
    );
}
