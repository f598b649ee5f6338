//! `--profile=kiter:K` in the running VM with late tier-up, exactly: every profile equals the
//! reference semantics of k-iteration counting (`kiter_support::Reference`, from the design
//! note) run on the activations the real `trace` sink records (`tier_support::run_chrono`),
//! each from the point the tiering rule and the on-stack replacement rule of
//! `docs/kiter-runtime.md` say it starts counting. Nothing of the VM's counters, numbering,
//! plan or code generation is used to compute the expectation:
//!
//! - a function's heat is its invocations plus the backward pc jumps of its baseline frames,
//!   counted until it tiers up, as soon as the heat exceeds the threshold;
//! - a call of a tiered-up function counts every k-iteration path of its activation;
//! - a baseline frame of a tiered-up function tries to switch at each backward jump `u -> v`
//!   (step `q`): on the edge (counting the paths that start at step `q` or later) when whether
//!   a k-loop is active is the same on every CFG path from the entry to `u`, else after it
//!   (paths starting after step `q`) when it is the same on every path to `v` through the edge,
//!   else not at all (it stays baseline until its next backward jump); a frame that never
//!   switches counts nothing.
//!
//! Every program of `programs/` whose run is short enough for a debug build (the `goto_*.c`
//! programs with their irreducible loops among them), K = 1..3, both strategies, thresholds that
//! make functions tier up in the middle of their loops.

mod kiter_support;
mod tier_support;

use std::collections::BTreeMap;

use kiter_support::{switch_from, Reference};
use lang::bytecode::FuncIdx;
use profiler::k_iteration::{KIterConfig, KIteration};
use profiler::{Block, DepthFirst, Loops, Path, PathEnds};
use tier_support::{run_chrono, run_k, sources, Event, Heat, Replayed, Stepper};
use vm::profile::Mode;
use vm::tier::cfg_build::FunctionCfg;

/// How an activation counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum From {
    /// Baseline code all along: nothing.
    Baseline,
    /// Instrumented from its entry: every path.
    Entry,
    /// Switched: the paths that start after this step.
    After(usize),
}

/// One activation of the run.
struct Act {
    func: FuncIdx,
    blocks: Vec<Block>,
    from: From,
    finished: bool,
}

/// The activations of a run, in call order, with the steps the tiering rule switches them at.
fn replay(
    events: &[Event],
    stepper: &mut Stepper,
    refs: &[Reference],
    active_at: &[BTreeMap<Block, std::collections::BTreeSet<Option<Block>>>],
    threshold: u64,
    refused: &mut usize,
) -> Vec<Act> {
    let n = refs.len();
    let mut heat = Heat::new(n, threshold);
    let mut acts: Vec<Act> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for &ev in events {
        match stepper.step(ev) {
            Replayed::Enter(f) => {
                heat.warm(f.index());
                stack.push(acts.len());
                acts.push(Act {
                    func: f,
                    blocks: Vec::new(),
                    from: if heat.tiered(f.index()) {
                        From::Entry
                    } else {
                        From::Baseline
                    },
                    finished: false,
                });
            }
            Replayed::Return(_) => {
                let a = stack.pop().unwrap();
                acts[a].finished = true;
            }
            Replayed::Step(s) => {
                let a = &mut acts[*stack.last().unwrap()];
                a.blocks.push(s.to);
                let i = s.func.index();
                if !(s.backward && a.from == From::Baseline) {
                    continue;
                }
                heat.warm(i);
                if !heat.tiered(i) {
                    continue;
                }
                let q = a.blocks.len() - 1;
                let u = s.from.unwrap();
                match switch_from(&refs[i], &active_at[i], (u, s.to), q, true) {
                    Some(p) => a.from = From::After(p),
                    None => *refused += 1,
                }
            }
        }
    }
    acts
}

fn check(name: &str, src: &str, ks: &[u32], thresholds: &[u64]) -> Option<(usize, usize)> {
    let program =
        lang::compile_source(name, src).unwrap_or_else(|d| panic!("{}", d.render(name, src)));
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| FunctionCfg::of_function(f).unwrap())
        .collect();
    let mut events = Vec::new();
    run_chrono(&program, &cfgs, PathEnds::Header, |e| events.push(e));
    if events.len() > MAX_EVENTS && !name.starts_with("goto_") {
        return None;
    }
    let mut switched = 0;
    let mut refused = 0;
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        for &k in ks {
            // The numbering's fallbacks (demoted loops) decide which loops are k-loops.
            let fallbacks: Vec<_> = cfgs
                .iter()
                .map(|fc| {
                    let cfg = fc.cfg();
                    let dfs = DepthFirst::compute(cfg);
                    let loops = Loops::compute(cfg, &dfs);
                    KIteration::compute(cfg, &dfs, &loops, KIterConfig::new(k, ends))
                        .unwrap()
                        .fallbacks()
                        .to_vec()
                })
                .collect();
            let refs: Vec<Reference> = cfgs
                .iter()
                .zip(&fallbacks)
                .map(|(fc, fb)| Reference::new(fc.cfg(), k as usize, ends, fb))
                .collect();
            let active_at: Vec<_> = refs.iter().map(|r| r.active_at()).collect();
            for &n in thresholds {
                let mut stepper = Stepper::new(&cfgs);
                let acts = replay(&events, &mut stepper, &refs, &active_at, n, &mut refused);
                let mut expected: Vec<BTreeMap<Path, u64>> = vec![BTreeMap::new(); cfgs.len()];
                for a in &acts {
                    let osr = match a.from {
                        From::Baseline => continue,
                        From::Entry => None,
                        From::After(p) => {
                            switched += 1;
                            Some(p)
                        }
                    };
                    refs[a.func.index()].run(
                        &a.blocks,
                        a.finished,
                        osr,
                        &mut expected[a.func.index()],
                    );
                }
                let ran = run_k(&program, name, Mode::Kiter, k, n, ends);
                let profile = ran
                    .result
                    .profile
                    .unwrap_or_else(|| panic!("{name}: no profile"));
                for (i, fp) in profile.functions.iter().enumerate() {
                    let got: BTreeMap<Path, u64> = fp
                        .paths
                        .iter()
                        .map(|p| {
                            let path = Path {
                                nodes: p.blocks.iter().map(|&b| Block::new(b as usize)).collect(),
                                end: p.end.map(|b| Block::new(b as usize)),
                            };
                            (path, p.count)
                        })
                        .collect();
                    assert_eq!(
                        got, expected[i],
                        "{name}: {}, kiter:{k}, {ends}, --tier-up {n}",
                        fp.name
                    );
                }
            }
        }
    }
    Some((switched, refused))
}

/// The recorded runs must be short for the reference (a debug build, K partial paths copied at
/// every step): programs with longer runs are left out, but never the goto programs.
const MAX_EVENTS: usize = 60_000;

#[test]
fn late_tier_up_counts_exactly_the_paths_after_each_switch() {
    let mut switched = 0;
    let mut refused = 0;
    let mut programs = 0;
    for (name, src) in sources("../programs") {
        if name.starts_with("bench") {
            continue;
        }
        let Some((s, r)) = check(&name, &src, &[1, 2, 3], &[1, 5, 40]) else {
            continue;
        };
        switched += s;
        refused += r;
        programs += 1;
    }
    assert!(programs >= 8, "{programs} programs");
    // Frames do switch mid-loop, and the irreducible loops make some switches wait.
    assert!(
        switched > 100 && refused > 10,
        "{switched} switched, {refused} refused"
    );
}
