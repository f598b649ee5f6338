//! The by-definition path splitter (`vm::modes::trace::oracle`) against the profiler's machinery: on
//! random CFGs (structured and arbitrary, from `profiler::generate`) and on the CFGs of the
//! functions of `programs/`, with random walks as activations, the paths counted by definition
//! equal the ids the Ball-Larus plan emits along the same walks (`profiler::executor`),
//! regenerated to paths, for both path-end strategies, both numberings, both placements, and
//! with the overflow fallback's extra cuts.

use std::collections::BTreeMap;
use std::path::PathBuf;

use profiler::generate::{arbitrary, random_walk, structured, Rng};
use profiler::trace::edge_profile;
use profiler::{execute, BallLarus, Block, Cfg, Numbering, Path, PathEnds, Placement, Trace};
use vm::modes::trace::oracle::Oracle;
use vm::tier::cfg_build::FunctionCfg;

/// Counts from executing the plan along the walks, mapped through regeneration.
fn counts_by_plan(
    cfg: &Cfg,
    bl: &BallLarus,
    placement: Placement,
    trace: &Trace,
) -> BTreeMap<Path, u64> {
    let weights = edge_profile(cfg, trace).unwrap();
    let plan = bl.plan(cfg, placement, Some(&weights));
    let ex = execute(cfg, trace, &plan).unwrap();
    let mut out = BTreeMap::new();
    for (&id, &n) in &ex.counts {
        let path = bl
            .regenerate(cfg, id)
            .unwrap_or_else(|| panic!("id {id} out of range"));
        assert!(out.insert(path, n).is_none(), "two ids for one path");
    }
    out
}

/// Checks the oracle against every plan variant on `walks` (each ends at the exit); returns
/// how many variants had extra cuts.
fn check(cfg: &Cfg, walks: &[Vec<Block>], what: &str) -> usize {
    let mut with_cuts = 0;
    let trace = Trace::from_invocations(walks.iter().map(|w| &w[..]));
    let profile = edge_profile(cfg, &trace).unwrap();
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        // Generous limit (no fallback) and a tight one (extra cuts), when numbering succeeds.
        let limits = [u64::MAX, (cfg.num_edges() as u64 + 1).max(4)];
        for limit in limits {
            for smart in [false, true] {
                let numbering = if smart {
                    Numbering::Smart(&profile)
                } else {
                    Numbering::Canonical
                };
                let Ok(bl) = BallLarus::new(cfg, ends, numbering, limit) else {
                    assert!(
                        limit != u64::MAX,
                        "{what}: numbering failed without a limit"
                    );
                    continue;
                };
                let extra = bl.dag().extra_cuts().to_vec();
                with_cuts += usize::from(!extra.is_empty());
                let oracle = Oracle::new(cfg, ends, &extra)
                    .count(walks.iter().map(|w| &w[..]))
                    .unwrap();
                assert!(oracle.unfinished.is_empty());
                for placement in [Placement::Plain, Placement::EventCounting] {
                    let by_plan = counts_by_plan(cfg, &bl, placement, &trace);
                    assert_eq!(
                        by_plan, oracle.counts,
                        "{what}: {ends}, limit {limit}, smart {smart}, {placement}"
                    );
                }
            }
        }
    }
    with_cuts
}

fn walks(cfg: &Cfg, seed: u64, n: usize, budget: usize) -> Vec<Vec<Block>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| random_walk(cfg, &mut rng, budget))
        .filter(|w| w.last() == Some(&cfg.exit()))
        .collect()
}

#[test]
fn oracle_matches_regenerated_plan_counts_on_structured_cfgs() {
    for seed in 0..120 {
        let cfg = structured(seed, 4 + (seed as usize % 30), 3);
        check(
            &cfg,
            &walks(&cfg, seed, 4, 60),
            &format!("structured {seed}"),
        );
    }
}

#[test]
fn oracle_matches_regenerated_plan_counts_on_arbitrary_cfgs() {
    for seed in 0..120 {
        let cfg = arbitrary(seed, 2 + (seed as usize % 14), seed as usize % 10);
        check(
            &cfg,
            &walks(&cfg, seed, 4, 40),
            &format!("arbitrary {seed}"),
        );
    }
}

#[test]
fn oracle_matches_regenerated_plan_counts_on_program_cfgs() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    let mut checked = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let program = lang::compile_source(&path.display().to_string(), &src).unwrap();
        for (i, f) in program.functions.iter().enumerate() {
            let fc = FunctionCfg::of_function(f).unwrap();
            let cfg = fc.cfg();
            // Functions that never return (their exit is unreachable) have no complete walks.
            let ws = walks(cfg, i as u64, 3, 50);
            if ws.is_empty() {
                continue;
            }
            let _ = check(cfg, &ws, &format!("{} {}", path.display(), f.name));
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}
