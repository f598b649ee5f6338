//! Property tests of Melski & Reps' interprocedural paths on random programs: two to four
//! random structured procedures whose vertices call (any procedure, so recursion and mutual
//! recursion happen, and sometimes through a pointer), run by random walks that may stop in
//! the middle (a trap), for both kinds of paths and both path-end strategies, with the limit
//! on paths unbounded and small (so the fallback of section 8 runs):
//! - the numbering is dense (Theorem 4.1): the paths enumerated by definition from `G*fin`
//!   (valid successors only) get the numbers `0..N`, each once, and each number regenerates to
//!   its path; no number beyond regenerates;
//! - no context path enters a procedure more often than `maxEnters` (Observation 3.1);
//! - the run-time state machine's counts equal the paths cut from the walk by definition.

use std::collections::BTreeMap;

use profiler::generate::{structured, Rng};
use profiler::interproc::command::count;
use profiler::interproc::definition::{paths_by_definition, Event};
use profiler::interproc::path::{check_dense, regenerate, Step};
use profiler::interproc::{CallSite, Callee, IppKind, IppNumbering, ProcId, SiteId, Supergraph};
use profiler::{Block, Cfg, CfgBuilder, PathEnds};
use proptest::prelude::*;

/// A random program: procedure `i` is a random structured CFG in which some vertices were
/// split into a call vertex and its return site.
fn program(seed: u64, procs: usize, size: usize) -> Supergraph {
    let mut rng = Rng::new(seed ^ 0x1dd);
    let mut named = Vec::new();
    let mut sites = Vec::new();
    for i in 0..procs {
        let base = structured(seed.wrapping_add(i as u64 * 104_729), size, 2);
        let calls: Vec<Block> = base
            .blocks()
            .filter(|&b| b != base.exit() && b != base.entry() && rng.chance(25))
            .collect();
        let (cfg, split) = split_calls(&base, &calls);
        for (c, r) in split {
            let callee = if rng.chance(10) {
                Callee::Indirect
            } else {
                Callee::Direct(ProcId::new(rng.below(procs as u64) as usize))
            };
            sites.push(CallSite {
                caller: ProcId::new(i),
                call: c,
                ret: r,
                callee,
            });
        }
        named.push((format!("f{i}"), cfg));
    }
    Supergraph::new(named, sites, ProcId::new(0)).unwrap()
}

/// `cfg` with each block of `calls` split into itself (the call vertex) and a new return
/// site that takes its successors; returns the pairs.
fn split_calls(cfg: &Cfg, calls: &[Block]) -> (Cfg, Vec<(Block, Block)>) {
    let mut b = CfgBuilder::new();
    b.add_blocks(cfg.num_blocks());
    let mut pairs = Vec::new();
    for u in cfg.blocks() {
        let from = if calls.contains(&u) {
            let r = b.add_block();
            b.add_edge(u, r);
            pairs.push((u, r));
            r
        } else {
            u
        };
        for &v in cfg.successors(u) {
            b.add_edge(from, v);
        }
    }
    (b.finish(cfg.entry(), cfg.exit()).unwrap(), pairs)
}

/// A random run: branches at random, calls at call vertices (a random procedure at an
/// indirect site); stops when the budget is spent or the calls nest too deep.
fn walk(sg: &Supergraph, seed: u64, budget: usize) -> Vec<Event> {
    let mut rng = Rng::new(seed);
    let mut events = Vec::new();
    let main = sg.main();
    let mut at = (main, sg.proc(main).cfg.entry());
    let mut stack: Vec<SiteId> = Vec::new();
    for _ in 0..budget {
        let (p, v) = at;
        let proc = sg.proc(p);
        if let Some(s) = proc.site_at(v) {
            if stack.len() >= 5 {
                break;
            }
            let q = match sg.site(s).callee {
                Callee::Direct(q) => q,
                Callee::Indirect => ProcId::new(rng.below(sg.num_procs() as u64) as usize),
            };
            events.push(Event::Call { site: s, callee: q });
            stack.push(s);
            at = (q, sg.proc(q).cfg.entry());
        } else if v == proc.cfg.exit() {
            events.push(Event::Return);
            match stack.pop() {
                None => break,
                Some(s) => at = (sg.site(s).caller, sg.site(s).ret),
            }
        } else {
            let succ = proc.cfg.successors(v);
            let k = rng.below(succ.len() as u64) as usize;
            let e = proc.cfg.succ_edge(v, k);
            events.push(Event::Edge(e));
            at = (p, succ[k]);
        }
    }
    events
}

fn counts_by_state_machine(
    sg: &Supergraph,
    num: &IppNumbering,
    events: &[Event],
) -> BTreeMap<u64, u64> {
    count(sg, num, &[events.to_vec()])
}

fn check(sg: &Supergraph, kind: IppKind, ends: PathEnds, limit: u64, seed: u64) {
    let num = match IppNumbering::new(sg, kind, ends, limit) {
        Ok(num) => num,
        // Only a tiny limit may be impossible to meet.
        Err(e) => {
            assert!(limit < 1000, "{e}");
            return;
        }
    };
    assert!(num.num_paths() <= limit);
    if num.num_paths() <= 4000 {
        let all = check_dense(sg, &num, 4000)
            .unwrap_or_else(|e| panic!("{kind} {ends} limit {limit}: {e}"));
        for p in &all {
            if kind == IppKind::Context {
                for q in sg.procs() {
                    let enters = p
                        .steps
                        .iter()
                        .filter(|s| match s {
                            Step::Root(r) => *r == q,
                            Step::Call(c) => sg.site(*c).callee == Callee::Direct(q),
                            _ => false,
                        })
                        .count() as u64;
                    assert!(enters <= num.max_enters(q));
                }
            }
        }
    }
    assert_eq!(regenerate(sg, &num, num.num_paths()), None);
    for w in 0..4 {
        let events = walk(sg, seed.wrapping_mul(31).wrapping_add(w), 600);
        let counted = counts_by_state_machine(sg, &num, &events);
        let mut defined: BTreeMap<u64, u64> = BTreeMap::new();
        for p in paths_by_definition(sg, &num, &events) {
            let n = p
                .number(sg, &num)
                .expect("a path by definition has a number");
            assert_eq!(regenerate(sg, &num, n).as_ref(), Some(&p));
            *defined.entry(n).or_insert(0) += 1;
        }
        assert_eq!(counted, defined, "{kind} {ends} limit {limit}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn dense_numbering_and_counts_equal_the_definition(
        seed in any::<u64>(),
        procs in 2usize..5,
        size in 3usize..9,
    ) {
        let sg = program(seed, procs, size);
        for kind in [IppKind::Context, IppKind::Piecewise] {
            for ends in [PathEnds::Header, PathEnds::Backedge] {
                check(&sg, kind, ends, u64::MAX, seed);
                check(&sg, kind, ends, 40, seed);
            }
        }
    }
}

#[test]
fn deep_call_chains_overflow_64_bits_and_fall_back() {
    // 40 procedures, each with a diamond of 4 paths calling the next one twice: 4^40 paths
    // through the chain do not fit in 64 bits.
    let n = 40;
    let mut named = Vec::new();
    let mut sites = Vec::new();
    for i in 0..n {
        let mut b = CfgBuilder::new();
        let entry = b.add_block();
        let (l, r) = (b.add_block(), b.add_block());
        let (c1, r1, c2, r2) = (b.add_block(), b.add_block(), b.add_block(), b.add_block());
        let exit = b.add_block();
        b.add_edge(entry, l);
        b.add_edge(entry, r);
        b.add_edge(l, c1);
        b.add_edge(r, c1);
        b.add_edge(c1, r1);
        b.add_edge(r1, c2);
        b.add_edge(c2, r2);
        b.add_edge(r2, exit);
        named.push((format!("f{i}"), b.finish(entry, exit).unwrap()));
        if i + 1 < n {
            for (c, r) in [(c1, r1), (c2, r2)] {
                sites.push(CallSite {
                    caller: ProcId::new(i),
                    call: c,
                    ret: r,
                    callee: Callee::Direct(ProcId::new(i + 1)),
                });
            }
        }
    }
    let sg = Supergraph::new(named, sites, ProcId::new(0)).unwrap();
    for kind in [IppKind::Context, IppKind::Piecewise] {
        let num = IppNumbering::new(&sg, kind, PathEnds::Header, u64::MAX).unwrap();
        assert!(!num.fallback().is_empty(), "the fallback is reported");
        let events = walk(&sg, 7, 5000);
        let counted = counts_by_state_machine(&sg, &num, &events);
        let defined: usize = paths_by_definition(&sg, &num, &events).len();
        assert_eq!(counted.values().sum::<u64>() as usize, defined);
        for &n in counted.keys() {
            assert!(regenerate(&sg, &num, n).is_some());
        }
    }
}
