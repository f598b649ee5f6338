//! `--profile=kbl:K` in the running VM with late tier-up, exactly: every function's k-IPF equals
//! the n-gram counts (n <= K) of the Ball-Larus paths each activation counts, worked out from
//! the real `trace` sink's time-ordered run (`tier_support::run_chrono`) by the tiering rule of
//! `bl` (`docs/design/tiering.md`; `tier_support::TierReplay` states it), nothing of the VM's
//! counters, numbering, plan or code generation used:
//!
//! - a function's heat is its invocations plus the backward pc jumps of its baseline frames,
//!   counted until it tiers up, as soon as the heat exceeds the threshold;
//! - a call of a tiered-up function counts every path of its activation (split by definition:
//!   [`tier_support::Step::cuts`]);
//! - a baseline frame of a tiered-up function switches at its next backward jump `u -> v`: if
//!   the jump ends a path, counting starts with a fresh path at `v`; else if every arrival at
//!   `u` ends a path, the path in progress began at `u` and is counted; else the path in
//!   progress is not counted, and counting starts with the next;
//! - an activation's sequence of counted paths starts afresh at the switch (the paths before
//!   it were not seen), and the k-IPF counts the n-grams of each activation's sequence.
//!
//! Every program of `programs/` whose run is short enough for a debug build (the `goto_*.c`
//! programs, with irreducible loops and recursion inside them, always), K = 2 and 3, both
//! strategies, thresholds that make functions tier up in the middle of their loops.

mod tier_support;

use std::collections::HashMap;

use profiler::PathEnds;
use tier_support::{run_chrono, run_k, sources, Event, Heat, PathKey, Replayed, Stepper};
use vm::profile::Mode;
use vm::tier::cfg_build::FunctionCfg;

/// `(function, paths)` -> count.
type Grams = HashMap<(usize, Vec<PathKey>), u64>;

/// An activation of the replay.
enum Frame {
    /// Baseline code: nothing counted.
    Baseline,
    /// Instrumented code: the path in progress (`drop`: its start was not seen), and the
    /// paths counted so far.
    Counting {
        func: usize,
        cur: Vec<u32>,
        drop: bool,
        seq: Vec<PathKey>,
    },
}

fn add_grams(into: &mut Grams, f: usize, seq: &[PathKey], k: usize) {
    for n in 1..=k {
        for g in seq.windows(n) {
            *into.entry((f, g.to_vec())).or_insert(0) += 1;
        }
    }
}

/// The n-grams the tiering rule says `kbl:K --tier-up threshold` counts.
fn replay(
    events: &[Event],
    cfgs: &[FunctionCfg],
    threshold: u64,
    ends: PathEnds,
    k: usize,
    switched: &mut usize,
) -> Grams {
    let s = match ends {
        PathEnds::Header => 0,
        PathEnds::Backedge => 1,
    };
    let mut stepper = Stepper::new(cfgs);
    let n = cfgs.len();
    let mut heat = Heat::new(n, threshold);
    let mut grams = Grams::new();
    let mut stack: Vec<Frame> = Vec::new();
    let close = |fr: Frame, grams: &mut Grams| {
        if let Frame::Counting { func, seq, .. } = fr {
            add_grams(grams, func, &seq, k);
        }
    };
    for &ev in events {
        match stepper.step(ev) {
            Replayed::Enter(f) => {
                heat.warm(f.index());
                stack.push(if heat.tiered(f.index()) {
                    Frame::Counting {
                        func: f.index(),
                        cur: Vec::new(),
                        drop: false,
                        seq: Vec::new(),
                    }
                } else {
                    Frame::Baseline
                });
            }
            Replayed::Return(_) => {
                let fr = stack.pop().unwrap();
                close(fr, &mut grams);
            }
            Replayed::Step(st) => {
                let i = st.func.index();
                let v = st.to.as_u32();
                let cut = st.cuts[s];
                let top = stack.last_mut().unwrap();
                if st.backward && matches!(top, Frame::Baseline) {
                    heat.warm(i);
                    if heat.tiered(i) {
                        *switched += 1;
                        let from_start = st.from_starts[s];
                        let cur = if cut {
                            vec![v]
                        } else if from_start {
                            vec![st.from.unwrap().as_u32(), v]
                        } else {
                            vec![v]
                        };
                        *top = Frame::Counting {
                            func: i,
                            cur,
                            drop: !cut && !from_start,
                            seq: Vec::new(),
                        };
                        continue;
                    }
                }
                let Frame::Counting { cur, drop, seq, .. } = top else {
                    continue;
                };
                if cut {
                    if !*drop {
                        seq.push((std::mem::take(cur), Some(v)));
                    }
                    *drop = false;
                    cur.clear();
                }
                cur.push(v);
                if st.exit {
                    if !*drop {
                        seq.push((std::mem::take(cur), None));
                    }
                    *drop = false;
                }
            }
        }
    }
    // Activations the run abandoned (`exit`, a trap): what they counted.
    while let Some(fr) = stack.pop() {
        close(fr, &mut grams);
    }
    grams
}

/// The recorded runs must be short for a debug build; longer ones are left out, but never the
/// goto programs.
const MAX_EVENTS: usize = 200_000;

#[test]
fn late_tier_up_counts_exactly_the_n_grams_of_the_paths_after_each_switch() {
    let mut switched = 0;
    let mut programs = 0;
    for (name, src) in sources("../programs") {
        if name.starts_with("bench") {
            continue;
        }
        let program = lang::compile_source(&name, &src)
            .unwrap_or_else(|d| panic!("{}", d.render(&name, &src)));
        let cfgs: Vec<FunctionCfg> = program
            .functions
            .iter()
            .map(|f| FunctionCfg::of_function(f).unwrap())
            .collect();
        let mut events = Vec::new();
        run_chrono(&program, &cfgs, PathEnds::Header, |e| events.push(e));
        if events.len() > MAX_EVENTS && !name.starts_with("goto_") {
            continue;
        }
        programs += 1;
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            for k in [2u32, 3] {
                for threshold in [1u64, 5, 40] {
                    let want = replay(&events, &cfgs, threshold, ends, k as usize, &mut switched);
                    let ran = run_k(&program, &name, Mode::Kbl, k, threshold, ends);
                    let p = ran.result.profile.expect("a kbl profile");
                    let mut got = Grams::new();
                    for (f, fp) in p.functions.iter().enumerate() {
                        let path: HashMap<u64, PathKey> = fp
                            .paths
                            .iter()
                            .map(|q| (q.id, (q.blocks.clone(), q.end)))
                            .collect();
                        for e in fp.ipf.as_ref().expect("kbl writes ipf") {
                            let g = e.ids.iter().map(|id| path[id].clone()).collect();
                            assert!(got.insert((f, g), e.count).is_none());
                        }
                    }
                    if got != want {
                        let mut diff: Vec<_> = want
                            .iter()
                            .filter(|(g, c)| got.get(g) != Some(c))
                            .map(|(g, c)| (g, *c, got.get(g).copied()))
                            .chain(
                                got.iter()
                                    .filter(|(g, _)| !want.contains_key(g))
                                    .map(|(g, c)| (g, 0, Some(*c))),
                            )
                            .collect();
                        diff.sort();
                        diff.truncate(5);
                        panic!("{name}: kbl:{k}, {ends}, --tier-up {threshold}: (sequence, want, got) {diff:?}");
                    }
                }
            }
        }
    }
    assert!(programs >= 20, "{programs} programs");
    assert!(switched > 100, "{switched} switches");
}
