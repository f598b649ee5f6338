//! Every program of `programs/` run with a block-level recorder on the interpreter's existing
//! hooks (`tier_support`): the recorded activations are walks of the CFGs the builder made
//! (so the builder agrees with the interpreter on every block and edge taken), the oracle
//! splits them into paths in both strategies, and recording changes nothing the program does.

mod tier_support;

use profiler::trace::edge_profile;
use profiler::PathEnds;
use profiler::{execute, BallLarus, DepthFirst, Numbering, Placement, Trace};
use tier_support::{oracle_counts, profile_from_counts, programs, record};
use vm::modes::trace::oracle::Oracle;
use vm::profile::FunctionProfile;

#[test]
fn recorded_activations_split_into_paths_in_both_strategies() {
    let mut programs_seen = 0;
    for (name, src) in programs() {
        let rec = record(&name, &src);
        // Recording does not change what the program prints.
        let mut out = Vec::new();
        let plain = vm::run_source(&name, &src, &vm::RunOptions::default(), &mut out);
        assert_eq!(rec.stdout, out, "{name}");
        assert_eq!(
            rec.complete,
            plain.exit_status != vm::EXIT_RUNTIME_ERROR,
            "{name}"
        );
        let finished: u64 = rec.finished.iter().map(|a| a.len() as u64).sum();
        assert_eq!(finished, rec.returns, "{name}");
        let header = oracle_counts(&rec, PathEnds::Header);
        let backedge = oracle_counts(&rec, PathEnds::Backedge);
        for (i, (h, b)) in header.iter().zip(&backedge).enumerate() {
            let f = &rec.program.functions[i].name;
            let acts = rec.finished[i].len() as u64;
            // Each finished activation ends with exactly one path at the exit.
            let at_exit = |c: &vm::modes::trace::oracle::PathCounts| -> u64 {
                c.counts
                    .iter()
                    .filter(|(p, _)| p.end.is_none())
                    .map(|(_, n)| n)
                    .sum()
            };
            assert_eq!(at_exit(h), acts, "{name} {f}");
            assert_eq!(at_exit(b), acts, "{name} {f}");
            // Header cuts include every back-edge cut.
            assert!(h.total() >= b.total(), "{name} {f}");
            let abandoned = rec
                .unfinished
                .iter()
                .filter(|(g, _)| g.index() == i)
                .count();
            assert_eq!(h.unfinished.len(), abandoned, "{name} {f}");
            assert_eq!(b.unfinished.len(), abandoned, "{name} {f}");
        }
        // The profiles by definition are well-formed, and every path is a path of the CFG:
        // consecutive blocks joined by edges, starting at the entry or a header, cut at a
        // header (by a back edge under `backedge`).
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let counts = match ends {
                PathEnds::Header => header.clone(),
                PathEnds::Backedge => backedge.clone(),
            };
            let profile = profile_from_counts(&name, &rec, ends, counts);
            profile.check().unwrap();
            assert_eq!(profile.complete, rec.complete);
            for (fp, fc) in profile.functions.iter().zip(&rec.cfgs) {
                let cfg = fc.cfg();
                let dfs = DepthFirst::compute(cfg);
                for p in &fp.paths {
                    let bs: Vec<profiler::Block> = p
                        .blocks
                        .iter()
                        .map(|&b| profiler::Block::new(b as usize))
                        .collect();
                    assert!(
                        bs[0] == cfg.entry() || dfs.is_header(bs[0]),
                        "{name} {}",
                        fp.name
                    );
                    for w in bs.windows(2) {
                        assert!(cfg.find_edge(w[0], w[1]).is_some(), "{name} {}", fp.name);
                    }
                    if let Some(h) = p.end {
                        let h = profiler::Block::new(h as usize);
                        let e = cfg.find_edge(*bs.last().unwrap(), h).unwrap();
                        assert!(dfs.is_header(h));
                        if ends == PathEnds::Backedge {
                            assert!(dfs.is_back_edge(e));
                        }
                    }
                }
            }
        }
        // Tier 0's counters imply the exact edge profile of every function whose
        // activations all finished.
        for (i, fc) in rec.cfgs.iter().enumerate() {
            if rec.unfinished.iter().any(|(g, _)| g.index() == i) {
                continue;
            }
            let trace = Trace::from_invocations(rec.finished[i].iter().map(|a| &a[..]));
            let exact = edge_profile(fc.cfg(), &trace).unwrap();
            assert_eq!(
                rec.tier0_profiles[i], exact,
                "{name} {}",
                rec.program.functions[i].name
            );
        }
        // What the `bl` sink will do: run the plan (from the tier-0 counts' smart numbering, or
        // canonical as with `--tier-up 0`; either placement) along the finished activations,
        // count the ids, and build the profile with `FunctionProfile::from_ids`: the same
        // paths and counts as by definition.
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            for (i, fc) in rec.cfgs.iter().enumerate() {
                let acts = &rec.finished[i];
                // Long runs (hash_table's probing, life's neighbour counts: millions of blocks)
                // are left to the cheaper checks above; the plan machinery is exercised on
                // every other function and on generated CFGs (`tier_oracle`).
                let steps: usize = acts.iter().map(Vec::len).sum();
                if acts.is_empty() || steps > 200_000 {
                    continue;
                }
                let cfg = fc.cfg();
                let trace = Trace::from_invocations(acts.iter().map(|a| &a[..]));
                let mut by_def: Vec<(Vec<u32>, Option<u32>, u64)> = Oracle::new(cfg, ends, &[])
                    .count(acts.iter().map(|a| &a[..]))
                    .unwrap()
                    .counts
                    .into_iter()
                    .map(|(p, n)| {
                        let bs = p.nodes.iter().map(|b| b.as_u32()).collect();
                        (bs, p.end.map(|b| b.as_u32()), n)
                    })
                    .collect();
                by_def.sort();
                // Canonical with plain increments, smart with event counting (both pairs
                // are covered on generated CFGs by `tier_oracle`).
                for (smart, placement) in
                    [(false, Placement::Plain), (true, Placement::EventCounting)]
                {
                    let numbering = if smart {
                        Numbering::Smart(&rec.tier0_profiles[i])
                    } else {
                        Numbering::Canonical
                    };
                    let bl = BallLarus::new(cfg, ends, numbering, u64::MAX).unwrap();
                    let plan = bl.plan(cfg, placement, Some(&rec.tier0_profiles[i]));
                    let ids = execute(cfg, &trace, &plan).unwrap().counts;
                    let f = &rec.program.functions[i];
                    let fp =
                        FunctionProfile::from_ids(&f.name, f.loc.line, fc, &bl, 0, ids).unwrap();
                    let mut got: Vec<(Vec<u32>, Option<u32>, u64)> = fp
                        .paths
                        .iter()
                        .map(|p| (p.blocks.clone(), p.end, p.count))
                        .collect();
                    got.sort();
                    assert_eq!(got, by_def, "{name} {} {ends} {placement}", f.name);
                }
            }
        }
        programs_seen += 1;
    }
    assert!(programs_seen >= 20);
}
