//! Issue 4's oracle tests on every program of `programs/`, through the real run
//! (`vm::run_program`) in every profiling mode:
//!
//! - (a) `bl --tier-up 0` reports exactly what `trace` reports (every function: blocks,
//!   static paths, and the same `(id, count, blocks, end)` list), in both strategies, and both
//!   equal the paths by definition, split here from the run's time-ordered block trace
//!   ([`tier_support::TierReplay`] with threshold 0);
//! - (b) every reported path is a real path of its function's CFG (rebuilt here with
//!   `FunctionCfg::of_function` and the profiler's `DepthFirst`, not taken from the profile):
//!   consecutive blocks joined by edges none of which ends a path under the strategy, the first
//!   block the entry or the target of a cutting edge, `end: h` an edge from the last block that
//!   cuts, `end: null` a path that reached the exit (and the exit nowhere else);
//! - (c) the output bytes, the exit status and the diagnostics are those of `none` under
//!   `edge`, `trace` and `bl` with tier-up 0, 1, 7 and the default;
//! - (d) with a positive tier-up every count is at most the `trace` count of the same path,
//!   and a function that never tiered up has `tiered_up_at: null`, no paths, and its static
//!   path count;
//! - the stronger check of "the per-function totals match the path ends observed after
//!   tier-up": the tiering rule replayed over the time-ordered trace (heat = invocations plus
//!   backward jumps in baseline code; OSR at the next backward jump; see `TierReplay`) predicts
//!   every function's `tiered_up_at` and its exact path counts, which the `bl` run must report;
//! - (e) determinism: two runs give byte-identical `Profile::to_json` (`bl`, default settings;
//!   on the programs with shorter traces, to keep the debug-build time down).
//!
//! Skipped in debug builds: `programs/twins/*.c` (benchmark twins: 10 to 50 s each per run in
//! a debug build, measured, against about 0.01 to 1 s for the other programs); they are
//! included by `cargo test --release`.

mod tier_support;

use std::path::PathBuf;

use lang::bytecode::Program;
use profiler::{Block, DepthFirst, PathEnds};
use tier_support::{profile_paths, run_chrono, Event, Stepper, TierReplay};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::tier::cfg_build::FunctionCfg;
use vm::{ProfileSettings, RunOptions, RunResult, DEFAULT_TIER_UP};

/// The `.c` files of `dir`, sorted, as `(name, source)`.
fn sources(dir: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), src)
        })
        .collect()
}

/// One run's result and output.
struct Ran {
    result: RunResult,
    out: Vec<u8>,
}

fn run(program: &Program, name: &str, mode: Mode, tier_up: u64, ends: PathEnds) -> Ran {
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            k: 1,
            tier_up,
            path_ends: ends,
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let result = vm::run_program(program, name, &options, &mut out);
    Ran { result, out }
}

/// (b): every path of `fp` is a real path of `fc` under `ends`.
fn assert_real_paths(what: &str, fp: &FunctionProfile, fc: &FunctionCfg, ends: PathEnds) {
    let cfg = fc.cfg();
    let dfs = DepthFirst::compute(cfg);
    let cuts = |u: Block, v: Block| -> bool {
        let e = cfg.find_edge(u, v).unwrap();
        match ends {
            PathEnds::Header => dfs.is_header(v),
            PathEnds::Backedge => dfs.is_back_edge(e),
        }
    };
    // Blocks that some cutting edge enters: where a path after the first may start.
    let starts: Vec<Block> = cfg
        .edges()
        .filter(|&e| cuts(cfg.source(e), cfg.target(e)))
        .map(|e| cfg.target(e))
        .collect();
    assert_eq!(fp.entry, cfg.entry().as_u32(), "{what}");
    assert_eq!(fp.exit, cfg.exit().as_u32(), "{what}");
    assert_eq!(fp.blocks.len(), cfg.num_blocks(), "{what}");
    for p in &fp.paths {
        let here = format!("{what}: path {} {:?} -> {:?}", p.id, p.blocks, p.end);
        let bs: Vec<Block> = p
            .blocks
            .iter()
            .map(|&b| {
                assert!((b as usize) < cfg.num_blocks(), "{here}");
                Block::new(b as usize)
            })
            .collect();
        assert!(
            bs[0] == cfg.entry() || starts.contains(&bs[0]),
            "{here}: starts neither at the entry nor where a path is cut"
        );
        for w in bs.windows(2) {
            assert!(
                cfg.find_edge(w[0], w[1]).is_some(),
                "{here}: {} -> {} is no edge",
                w[0],
                w[1]
            );
            assert!(!cuts(w[0], w[1]), "{here}: runs through a path end");
        }
        let last = *bs.last().unwrap();
        assert!(
            !bs[..bs.len() - 1].contains(&cfg.exit()),
            "{here}: goes on after the exit"
        );
        match p.end {
            Some(h) => {
                let h = Block::new(h as usize);
                assert!(
                    cfg.find_edge(last, h).is_some(),
                    "{here}: no edge to its end"
                );
                assert!(cuts(last, h), "{here}: its end does not cut");
            }
            None => assert_eq!(last, cfg.exit(), "{here}: stops before the exit"),
        }
    }
}

/// The tier-up thresholds run in each strategy (0: the oracle comparison).
fn thresholds(ends: PathEnds) -> &'static [u64] {
    match ends {
        PathEnds::Header => &[0, 1, DEFAULT_TIER_UP],
        PathEnds::Backedge => &[0, 7, DEFAULT_TIER_UP],
    }
}

/// Every check of the module docs on one program.
fn check_program(name: &str, src: &str) {
    let program = lang::compile_source(name, src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| FunctionCfg::of_function(f).unwrap())
        .collect();
    let nf = program.functions.len();
    let fname = |i: usize| &program.functions[i].name;

    // (c) The reference behaviour: no probes at all.
    let plain = run(
        &program,
        name,
        Mode::None,
        DEFAULT_TIER_UP,
        PathEnds::Header,
    );
    assert!(plain.result.profile.is_none(), "{name}");
    let same = |what: &str, r: &Ran| {
        assert_eq!(r.out, plain.out, "{name} {what}: output differs from none");
        assert_eq!(
            r.result.exit_status, plain.result.exit_status,
            "{name} {what}: exit status differs from none"
        );
        assert_eq!(
            r.result.stderr, plain.result.stderr,
            "{name} {what}: stderr differs from none"
        );
    };
    let complete = plain.result.exit_status != vm::EXIT_RUNTIME_ERROR;

    // `edge`: same behaviour, a profile without paths.
    let edge = run(
        &program,
        name,
        Mode::Edge,
        DEFAULT_TIER_UP,
        PathEnds::Header,
    );
    same("edge", &edge);
    let ep = edge.result.profile.as_ref().unwrap();
    ep.check().unwrap();
    assert_eq!(ep.complete, complete, "{name} edge");
    assert_eq!(ep.functions.len(), nf, "{name} edge");
    for f in &ep.functions {
        assert!(
            f.paths.is_empty() && f.tiered_up_at.is_none(),
            "{name} edge"
        );
    }

    // The time-ordered trace (the real `trace` sink under `header`), and the replays of every
    // threshold of both strategies over it.
    let mut replays: Vec<(PathEnds, u64, TierReplay)> = Vec::new();
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        for &n in thresholds(ends) {
            replays.push((ends, n, TierReplay::new(nf, n, ends)));
        }
    }
    let mut events = 0u64;
    let mut stepper = Stepper::new(&cfgs);
    let (trace_header, chrono_out, chrono_ok) =
        run_chrono(&program, &cfgs, PathEnds::Header, |ev: Event| {
            events += 1;
            let step = stepper.step(ev);
            for (_, _, r) in &mut replays {
                r.event(&step);
            }
        });
    assert!(events > 0, "{name}");
    assert_eq!(chrono_out, plain.out, "{name} trace (events)");
    assert_eq!(chrono_ok, complete, "{name} trace (events)");

    // `trace` under `backedge` through the real run.
    let trace_back = run(
        &program,
        name,
        Mode::Trace,
        DEFAULT_TIER_UP,
        PathEnds::Backedge,
    );
    same("trace backedge", &trace_back);
    let tbp = trace_back.result.profile.as_ref().unwrap();
    tbp.check().unwrap();
    assert_eq!(tbp.complete, complete, "{name} trace");
    assert_eq!(tbp.mode, Mode::Trace);
    assert_eq!(tbp.path_ends, PathEnds::Backedge);

    for ends in [PathEnds::Header, PathEnds::Backedge] {
        let trace_fns: &[FunctionProfile] = match ends {
            PathEnds::Header => &trace_header,
            PathEnds::Backedge => &tbp.functions,
        };
        assert_eq!(trace_fns.len(), nf, "{name}");
        let oracle = &replays
            .iter()
            .find(|(e, n, _)| *e == ends && *n == 0)
            .unwrap()
            .2;
        // The trace sink's paths are the paths by definition.
        for (i, fp) in trace_fns.iter().enumerate() {
            let what = format!("{name} trace {ends} {}", fname(i));
            assert_real_paths(&what, fp, &cfgs[i], ends);
            assert_eq!(
                profile_paths(fp),
                oracle.paths(i),
                "{what}: not by definition"
            );
            assert_eq!(fp.tiered_up_at, Some(0), "{what}");
        }
        for &n in thresholds(ends) {
            let what = format!("{name} bl --tier-up {n} --path-ends {ends}");
            let bl = run(&program, name, Mode::Bl, n, ends);
            same(&what, &bl);
            let bp = bl.result.profile.as_ref().unwrap();
            bp.check().unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                (bp.mode, bp.k, bp.path_ends, bp.tier_up, bp.complete),
                (Mode::Bl, 1, ends, n, complete),
                "{what}"
            );
            assert_eq!(bp.functions.len(), nf, "{what}");
            if n == 0 {
                // (a) exactly the trace's profile.
                assert_eq!(bp.functions, trace_fns, "{what}: differs from trace");
            }
            let replay = &replays
                .iter()
                .find(|(e, m, _)| *e == ends && *m == n)
                .unwrap()
                .2;
            for (i, fp) in bp.functions.iter().enumerate() {
                let what = format!("{what} {}", fname(i));
                let tf = &trace_fns[i];
                assert_eq!(
                    (&fp.name, fp.line, &fp.blocks),
                    (&tf.name, tf.line, &tf.blocks),
                    "{what}"
                );
                // (b)
                assert_real_paths(&what, fp, &cfgs[i], ends);
                // (d) at most the oracle's count, path by path.
                let oracle = profile_paths(tf);
                for (key, count) in profile_paths(fp) {
                    let full = oracle
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(0, |(_, c)| *c);
                    assert!(count <= full, "{what}: {key:?} counted {count} > {full}");
                }
                match fp.tiered_up_at {
                    None => {
                        assert!(fp.paths.is_empty(), "{what}: paths but never tiered");
                        assert_eq!(fp.static_paths, tf.static_paths, "{what}");
                    }
                    Some(at) => assert!(at > n || n == 0, "{what}: tiered up at {at}"),
                }
                // The replayed tiering rule: when it tiered up and every count.
                assert_eq!(
                    fp.tiered_up_at, replay.tiered_up_at[i],
                    "{what}: tiered_up_at"
                );
                assert_eq!(
                    profile_paths(fp),
                    replay.paths(i),
                    "{what}: not the paths counted after tier-up (OSR frames {}, {} mid-path)",
                    replay.osr_frames[i],
                    replay.osr_mid_path[i]
                );
            }
            // (e) Determinism, on the default settings.
            // (Programs with long traces are left to the cheaper checks: the determinism of
            // every order is tested across processes by `cli_profile` and on generated
            // programs by `e2e`'s `tier_random`.)
            if n == DEFAULT_TIER_UP && ends == PathEnds::Header && events < 300_000 {
                let again = run(&program, name, Mode::Bl, n, ends);
                assert_eq!(
                    again.result.profile.as_ref().unwrap().to_json(),
                    bp.to_json(),
                    "{what}: two runs differ"
                );
            }
        }
    }
}

fn check_all(dir: &str, filter: impl Fn(&str) -> bool) -> usize {
    let mut seen = 0;
    for (name, src) in sources(dir) {
        if filter(&name) {
            check_program(&name, &src);
            seen += 1;
        }
    }
    seen
}

/// Programs `a*` to `l*` (split in two tests so that the harness runs them in parallel).
#[test]
fn programs_a_to_l() {
    let n = check_all("../programs", |n| n < "m");
    assert!(n >= 20, "{n}");
}

/// Programs `m*` to `z*`.
#[test]
fn programs_m_to_z() {
    let n = check_all("../programs", |n| n >= "m");
    assert!(n >= 20, "{n}");
}

/// The benchmark twins (release builds only: see the module docs).
#[cfg(not(debug_assertions))]
#[test]
fn twins() {
    let n = check_all("../programs/twins", |_| true);
    assert!(n >= 7, "{n}");
}

/// The replay itself on a program whose tiering is worked out by hand: `main` loops 3000
/// times (a `while`, whose backward jump goes from the test at the bottom into the body, which
/// is no header), so with tier-up 1000 its heat (1 for the call, then 1 per backward jump)
/// passes 1000 at the 1000th jump, into the body of iteration 999; that partial path is not
/// counted and iterations 1000..2999 are, 2000 paths into the header (the test).
#[test]
fn replay_of_a_worked_example() {
    let src = "int main(void) {
    int s = 0;
    int i = 0;
    while (i < 3000) {
        s += i;
        i++;
    }
    return s % 256;
}
";
    let program = lang::compile_source("w.c", src).unwrap();
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| FunctionCfg::of_function(f).unwrap())
        .collect();
    let mut r = TierReplay::new(cfgs.len(), 1000, PathEnds::Header);
    let mut stepper = Stepper::new(&cfgs);
    run_chrono(&program, &cfgs, PathEnds::Header, |ev| {
        r.event(&stepper.step(ev))
    });
    assert_eq!(r.tiered_up_at[0], Some(1001));
    assert_eq!((r.osr_frames[0], r.osr_mid_path[0]), (1, 1));
    let total: u64 = r.counts[0].total();
    // 2000 iterations into the header, then the last test out to the return.
    assert_eq!(total, 2001);
}

#[test]
fn profile_has_every_function_in_program_order() {
    let src = "int g(int x) { return x + 1; }\nint main(void) { return g(1) - 3; }\n";
    let program = lang::compile_source("o.c", src).unwrap();
    let r = run(&program, "o.c", Mode::Bl, 0, PathEnds::Header);
    let p: &Profile = r.result.profile.as_ref().unwrap();
    let names: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
    let want: Vec<&str> = program.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, want);
    assert_eq!(r.result.exit_status, 255);
}
