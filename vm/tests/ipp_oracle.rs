//! Oracle tests of `--profile=ipp:context` and `ipp:piecewise` (Melski & Reps'
//! interprocedural paths, issue 19) on the programs of `programs/` (the `bench_*` ones
//! excepted), through the real run (`vm::run_program`):
//!
//! - for both kinds and both path-end strategies, the paths and counts of the profile's
//!   `interprocedural` member equal those cut by definition
//!   ([`profiler::interproc::definition::paths_by_definition`]) from the walk the `trace` sink
//!   records (every block of every activation, and its calls, nested in order), and each
//!   counted number regenerates to its path; a program with an activation that does not reach
//!   its exit (`exit` from a callee) is skipped and named if too few are left;
//! - the output is `none`'s, and every profile passes `Profile::check`.
//!
//! And the run-time errors: recursion deeper than `--max-depth` ends with the usual error and
//! the profile of the paths completed, marked incomplete, with the paths in progress counted
//! as such.

mod tier_support;

use std::collections::BTreeMap;

use lang::bytecode::Program;
use profiler::interproc::definition::{paths_by_definition, Event};
use profiler::interproc::path::regenerate;
use profiler::interproc::{IppKind, IppNumbering};
use profiler::PathEnds;
use tier_support::{programs, recorded_activations, run_k};
use vm::modes::ipp::graph::ProgramGraph;
use vm::modes::trace::Activation;
use vm::profile::Mode;

/// The walk of activation `a` (and, nested, its callees') on the supergraph.
fn walk(graph: &ProgramGraph, acts: &[Activation], a: usize, out: &mut Vec<Event>) {
    let act = &acts[a];
    let split = &graph.funcs[act.func.index()];
    let sg_cfg = &graph.sg.proc(ProgramGraph::proc(act.func)).cfg;
    let cfg = split.fc.cfg();
    if let Some(e) = split.extra_entry {
        let first = sg_cfg.successors(e)[0];
        out.push(Event::Edge(sg_cfg.find_edge(e, first).unwrap()));
    }
    let mut calls = act.calls.iter().peekable();
    for (i, &b) in act.blocks.iter().enumerate() {
        let mut nth = 0;
        while let Some(c) = calls.next_if(|c| c.at == i) {
            let site = split.block_sites[b][nth];
            nth += 1;
            let callee = ProgramGraph::proc(acts[c.callee].func);
            out.push(Event::Call { site, callee });
            walk(graph, acts, c.callee, out);
        }
        if let Some(&next) = act.blocks.get(i + 1) {
            let e = cfg.find_edge(b, next).expect("the trace follows the CFG");
            out.push(Event::Edge(split.edge[e]));
        }
    }
    out.push(Event::Return);
}

/// Checks `program`'s `ipp` profiles against the paths by definition, both kinds and both
/// path ends; `false` if an activation did not finish (the run is skipped). Returns the
/// profiles' fallback messages too.
fn check_program(name: &str, program: &Program) -> Option<Vec<String>> {
    let graph = ProgramGraph::new(program).unwrap();
    let none = run_k(program, name, Mode::None, 1, 0, PathEnds::Header);
    let mut fallback = Vec::new();
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        let (_, acts) = recorded_activations(program, ends)?;
        let main = acts
            .iter()
            .rposition(|a| a.func == program.main)
            .expect("main ran");
        let mut events = Vec::new();
        walk(&graph, &acts, main, &mut events);
        for (kind, mode) in [
            (IppKind::Context, Mode::IppContext),
            (IppKind::Piecewise, Mode::IppPiecewise),
        ] {
            let what = format!("{name}: ipp:{kind}, {ends} path ends");
            let num = IppNumbering::new(&graph.sg, kind, ends, u64::MAX).unwrap();
            let mut expected: BTreeMap<u64, u64> = BTreeMap::new();
            for p in paths_by_definition(&graph.sg, &num, &events) {
                let n = p.number(&graph.sg, &num).expect("a path has a number");
                assert_eq!(regenerate(&graph.sg, &num, n).as_ref(), Some(&p), "{what}");
                *expected.entry(n).or_insert(0) += 1;
            }
            let ran = run_k(program, name, mode, 1, 0, ends);
            assert_eq!(ran.out, none.out, "{what}: printed what none did not");
            let profile = ran.result.profile.expect("a profile");
            profile.check().unwrap_or_else(|e| panic!("{what}: {e}"));
            let section = profile.interprocedural.expect("an interprocedural member");
            assert_eq!(section.static_paths, num.num_paths(), "{what}");
            assert_eq!(section.incomplete, 0, "{what}");
            let counted: BTreeMap<u64, u64> =
                section.paths.iter().map(|p| (p.id, p.count)).collect();
            assert_eq!(counted, expected, "{what}");
            for f in &section.fallback {
                assert!(
                    ran.result.stderr.contains(f.as_str()),
                    "{what}: the fallback is not on stderr: {}",
                    ran.result.stderr
                );
            }
            fallback.extend(section.fallback);
        }
    }
    Some(fallback)
}

#[test]
fn every_program_counts_its_interprocedural_paths_by_definition() {
    let mut checked = 0;
    let mut skipped = Vec::new();
    for (name, src) in programs() {
        let program = lang::compile_source(&name, &src).unwrap();
        match check_program(&name, &program) {
            Some(_) => checked += 1,
            None => skipped.push(name.clone()),
        }
    }
    assert!(
        checked >= 100,
        "{checked} programs checked, skipped: {skipped:?}"
    );
}

/// A chain of 40 functions, each with four paths to each of two calls of the next: 4^40 paths
/// through the chain, beyond 64 bits. The numbering cuts calls (reported on stderr and in the
/// profile), and the counts still equal the definition's.
#[test]
fn more_than_2_64_paths_fall_back_and_say_so() {
    let n = 40;
    let mut src = String::from("#include <stdio.h>\nint f40(int x) { return x & 7; }\n");
    for i in (0..n).rev() {
        src.push_str(&format!(
            "int f{i}(int x) {{ int y = x; if (x & 1) y += 3; else y -= 1; \
             if (x & 2) y ^= 5; return f{}(y) + f{}(y + 1); }}\n",
            i + 1,
            i + 1
        ));
    }
    // Keep the run short: main calls the chain's tail, and the head once with a depth cut.
    src.push_str(
        "int main(void) { int s = 0; for (int i = 0; i < 5; i++) s += f35(i); \
         printf(\"%d\\n\", s); return 0; }\n",
    );
    let program = lang::compile_source("chain.c", &src).unwrap();
    let fallback = check_program("chain.c", &program).expect("the run finishes");
    assert!(!fallback.is_empty(), "no fallback reported");
}

#[test]
fn recursion_deeper_than_max_depth_keeps_the_profile_so_far() {
    let src = "int down(int n) { if (n == 0) return 0; return 1 + down(n - 1); }\n\
               int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += down(5); \
               return s + down(100000); }\n";
    let program = lang::compile_source("deep.c", src).unwrap();
    for mode in [Mode::IppContext, Mode::IppPiecewise] {
        let options = vm::RunOptions {
            profile: vm::ProfileSettings {
                mode,
                k: 1,
                tier_up: 0,
                path_ends: PathEnds::Header,
                max_nodes: None,
            },
            max_depth: 200,
            collect_profile: true,
            ..vm::RunOptions::default()
        };
        let mut out = Vec::new();
        let result = vm::run_program(&program, "deep.c", &options, &mut out);
        assert_ne!(result.exit_status, 0);
        assert!(result.stderr.contains("runtime error"), "{}", result.stderr);
        let profile = result.profile.expect("the profile so far");
        assert!(!profile.complete);
        profile.check().unwrap();
        let section = profile.interprocedural.unwrap();
        // The three calls of down(5) completed their recursive paths; the deep one left every
        // level's path in progress.
        assert!(section.paths.iter().map(|p| p.count).sum::<u64>() >= 3 * 6);
        assert!(section.incomplete >= 199, "{}", section.incomplete);
    }
}
