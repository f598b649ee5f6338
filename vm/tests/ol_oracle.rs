//! Oracle tests of `--profile=ol:K` (overlapping paths, issue 18) on the programs of
//! `programs/` (the `bench_*` ones excepted), through the real run (`vm::run_program`):
//!
//! - with `--tier-up 0`, for K in {0, 1, 2, 4} (debug builds: {0, 2}) and both path-end
//!   strategies, every function's OL paths (blocks, end, overlap) and counts equal those
//!   counted by definition ([`profiler::overlap::ol_paths_by_definition`]) along every
//!   activation's blocks, which the `trace` sink records (`TraceProbes::keep_activations`);
//!   a program with an activation that does not reach its exit (`exit` from a callee) is
//!   skipped and named if too few are left;
//! - with the default tier-up, every count is at most the reference's (the paths run before
//!   tier-up are not counted);
//! - with `--tier-up 0`, the I-OL-K and II-OL-K paths across every call site (the profile's
//!   `overlap.calls`) equal those counted by definition
//!   ([`profiler::overlap::calls::cross_paths_by_definition`]) along the activations and
//!   their calls, which the `trace` sink records too; with the default tier-up at most them;
//! - the bounds the profile gives (`overlap.loops` and `overlap.calls`) contain the real
//!   frequency of every interesting path it lists (two consecutive iterations, a path across
//!   a call whole) counted by definition, and every flow contains the real flow;
//! - the output is `none`'s, and every profile passes `Profile::check`.

mod tier_support;

use std::collections::BTreeMap;

use lang::bytecode::Program;
use profiler::overlap::calls::{self, cross_paths_by_definition, Extent};
use profiler::overlap::estimate::{interesting_by_definition, Interesting};
use profiler::overlap::{ol_paths_by_definition, OlContext, OlPath};
use profiler::trace::Trace;
use profiler::{Block, PathEnds};
use tier_support::{programs, recorded_activations, run_k};
use vm::modes::trace::Activation;
use vm::profile::Mode;
use vm::profile::Profile;
use vm::tier::cfg_build::FunctionCfg;
use vm::DEFAULT_TIER_UP;

/// `(function, path)` -> count.
type Counts = BTreeMap<(usize, OlPath), u64>;

/// A call site and callee and a crossing: `(caller, crossing, block, nth, callee)`.
type SiteKey = (u32, &'static str, u32, u32, u32);

/// `(site, before, after)` -> count.
type CallCounts = BTreeMap<(SiteKey, Vec<u32>, Vec<u32>), u64>;

/// The site key of call estimate `c` of function `f` in `profile`.
fn site_key(profile: &Profile, f: usize, c: &vm::profile::overlap::CallEstimate) -> SiteKey {
    let callee = profile
        .functions
        .iter()
        .position(|g| g.name == c.callee)
        .unwrap() as u32;
    let crossing = if c.crossing == "into" { "into" } else { "out" };
    (f as u32, crossing, c.block, c.nth, callee)
}

fn ids(bs: &[Block]) -> Vec<u32> {
    bs.iter().map(|b| b.as_u32()).collect()
}

/// The paths across calls by definition along the activations, as I-OL-`k` and II-OL-`k`
/// paths or whole (`extent`).
fn call_reference(
    cfgs: &[FunctionCfg],
    activations: &[Activation],
    ends: PathEnds,
    k: u32,
    extent: Extent,
) -> CallCounts {
    let contexts: Vec<OlContext<'_>> = cfgs
        .iter()
        .map(|fc| OlContext::new(fc.cfg(), ends, k).unwrap())
        .collect();
    let runs: Vec<calls::Activation<'_>> = activations.iter().map(|a| a.as_run()).collect();
    cross_paths_by_definition(&contexts, &runs, extent)
        .into_iter()
        .map(|((key, p), c)| {
            let site = (
                key.caller,
                key.crossing.name(),
                key.site.block.as_u32(),
                key.site.nth,
                key.callee,
            );
            ((site, ids(&p.before), ids(&p.after)), c)
        })
        .collect()
}

/// The paths across calls an `ol` profile counted.
fn calls_counted(profile: &Profile) -> CallCounts {
    let mut out = CallCounts::new();
    for (f, fp) in profile.functions.iter().enumerate() {
        for c in &fp.overlap.as_ref().unwrap().calls {
            let site = site_key(profile, f, c);
            for p in &c.paths {
                let key = (site, p.before.clone(), p.after.clone());
                assert!(
                    out.insert(key, p.count).is_none(),
                    "a path across a call twice"
                );
            }
        }
    }
    out
}

/// Checks that `profile`'s bounds contain the real counts (`loops` of two consecutive
/// iterations per function, `whole` of the paths across calls): every pair it lists, and
/// every loop's and call site's definite and potential flows from Ball-Larus and OL counts.
fn check_bounds(
    name: &str,
    profile: &Profile,
    loops: &[BTreeMap<Interesting, u64>],
    whole: &CallCounts,
) {
    let within = |[d, p]: [u64; 2], real: u64| d <= real && real <= p;
    for (f, fp) in profile.functions.iter().enumerate() {
        let section = fp.overlap.as_ref().unwrap();
        for l in &section.loops {
            let real_of = |before: &[u32], after: &[u32]| {
                loops[f]
                    .iter()
                    .find(|(i, _)| {
                        i.header.as_u32() == l.header
                            && ids(&i.first) == before
                            && ids(&i.second) == after
                    })
                    .map_or(0, |(_, &c)| c)
            };
            for b in &l.bounds {
                let real = real_of(&b.before, &b.after);
                assert!(
                    0 < b.lower && b.lower <= real && real <= b.upper,
                    "{name}: {}: loop at {}: {b:?} does not contain {real}",
                    fp.name,
                    l.header
                );
            }
            let flow: u64 = loops[f]
                .iter()
                .filter(|(i, _)| i.header.as_u32() == l.header)
                .map(|(_, &c)| c)
                .sum();
            assert!(
                within(l.from_bl, flow) && within(l.from_ol, flow),
                "{name}: {}: loop at {}: flows {:?} {:?} do not contain {flow}",
                fp.name,
                l.header,
                l.from_bl,
                l.from_ol
            );
        }
    }
    for (f, fp) in profile.functions.iter().enumerate() {
        for c in &fp.overlap.as_ref().unwrap().calls {
            let site = site_key(profile, f, c);
            for b in &c.bounds {
                let key = (site, b.before.clone(), b.after.clone());
                let real = whole.get(&key).copied().unwrap_or(0);
                assert!(
                    0 < b.lower && b.lower <= real && real <= b.upper,
                    "{name}: call at {}:{}: {b:?} does not contain {real}",
                    c.line,
                    c.col
                );
            }
            let flow: u64 = whole
                .iter()
                .filter(|((s, _, _), _)| *s == site)
                .map(|(_, &n)| n)
                .sum();
            assert_eq!(flow, c.calls, "{name}: call at {}:{}", c.line, c.col);
            assert!(
                within(c.from_bl, flow) && within(c.from_ol, flow),
                "{name}: call at {}:{}: flows {:?} {:?} do not contain {flow}",
                c.line,
                c.col,
                c.from_bl,
                c.from_ol
            );
        }
    }
}

/// The OL-`k` paths by definition of every activation.
fn reference(cfgs: &[FunctionCfg], activations: &[Activation], ends: PathEnds, k: u32) -> Counts {
    let mut out = Counts::new();
    for (f, fc) in cfgs.iter().enumerate() {
        let runs: Vec<&[Block]> = activations
            .iter()
            .filter(|a| a.func.index() == f)
            .map(|a| a.blocks.as_slice())
            .collect();
        let cx = OlContext::new(fc.cfg(), ends, k).unwrap();
        let counted = ol_paths_by_definition(&cx, &Trace::from_invocations(runs)).unwrap();
        out.extend(counted.into_iter().map(|(p, c)| ((f, p), c)));
    }
    out
}

/// The counts of an `ol:K` run, and its profile.
fn counted(
    program: &Program,
    name: &str,
    ends: PathEnds,
    k: u32,
    tier_up: u64,
) -> (Counts, Profile) {
    let ran = run_k(program, name, Mode::Ol, k, tier_up, ends);
    let none = run_k(program, name, Mode::None, 1, tier_up, ends);
    assert_eq!(
        ran.out, none.out,
        "{name}: ol:{k} printed what none did not"
    );
    let profile = ran.result.profile.expect("a profile");
    profile.check().unwrap_or_else(|e| panic!("{name}: {e}"));
    let block = |b: &u32| Block::new(*b as usize);
    let mut out = Counts::new();
    for (f, fp) in profile.functions.iter().enumerate() {
        for p in &fp.paths {
            let path = OlPath {
                nodes: p.blocks.iter().map(block).collect(),
                end: p.end.as_ref().map(block),
                overlap: p.overlap.iter().map(block).collect(),
            };
            assert!(
                out.insert((f, path), p.count).is_none(),
                "{name}: a path twice"
            );
        }
    }
    (out, profile)
}

#[test]
fn every_program_counts_its_overlapping_paths_by_definition() {
    let mut checked = 0;
    let mut skipped = Vec::new();
    // Debug builds (the CI's) check two degrees; release builds four.
    let ks: &[u32] = if cfg!(debug_assertions) {
        &[0, 2]
    } else {
        &[0, 1, 2, 4]
    };
    for (name, src) in programs() {
        let program = lang::compile_source(&name, &src).unwrap();
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            let Some((cfgs, runs)) = recorded_activations(&program, ends) else {
                skipped.push(name.clone());
                continue;
            };
            let loops: Vec<BTreeMap<Interesting, u64>> = cfgs
                .iter()
                .enumerate()
                .map(|(f, fc)| {
                    let runs: Vec<&[Block]> = runs
                        .iter()
                        .filter(|a| a.func.index() == f)
                        .map(|a| a.blocks.as_slice())
                        .collect();
                    let cx = OlContext::new(fc.cfg(), ends, 0).unwrap();
                    interesting_by_definition(&cx, &Trace::from_invocations(runs)).unwrap()
                })
                .collect();
            let whole = call_reference(&cfgs, &runs, ends, 0, Extent::Whole);
            for &k in ks {
                let expected = reference(&cfgs, &runs, ends, k);
                let expected_calls = call_reference(&cfgs, &runs, ends, k, Extent::Overlap);
                let (paths, profile) = counted(&program, &name, ends, k, 0);
                let what = format!("{name}: ol:{k}, {ends} path ends, --tier-up 0");
                assert_eq!(paths, expected, "{what}");
                assert_eq!(calls_counted(&profile), expected_calls, "{what}");
                check_bounds(&what, &profile, &loops, &whole);
                let (paths, profile) = counted(&program, &name, ends, k, DEFAULT_TIER_UP);
                for ((f, p), c) in paths {
                    let most = expected.get(&(f, p.clone())).copied().unwrap_or(0);
                    assert!(c <= most, "{name}: ol:{k}: {p:?} counted {c} > {most}");
                }
                for (key, c) in calls_counted(&profile) {
                    let most = expected_calls.get(&key).copied().unwrap_or(0);
                    assert!(c <= most, "{name}: ol:{k}: {key:?} counted {c} > {most}");
                }
                checked += 1;
            }
        }
    }
    skipped.dedup();
    assert!(
        checked >= 100,
        "{checked} runs checked, skipped: {skipped:?}"
    );
}

/// `vmrun overlap-precision`: the flows contain the real flow at every degree, the overlap
/// only tightens them, and at the loops' largest overlap they are exact.
#[test]
fn overlap_precision_bounds_the_real_flow_and_tightens_with_the_degree() {
    let file = std::env::temp_dir().join(format!("ol-precision-{}.c", std::process::id()));
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(void) {\n  int s = 0;\n  for (int r = 0; r < 300; r++)\n    \
         for (int i = 0; i < 3; i++) {\n      if ((r & 1) == 0) { if (i < 2) s += 1; else s += 3; }\n      \
         else { if (i < 2) s += 2; else s += 3; }\n    }\n  printf(\"%d\\n\", s);\n  return 0;\n}\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(["overlap-precision", "--k", "0..3", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let real = doc["real_flow"].as_u64().unwrap();
    // 300 outer iterations of 3 inner ones: 2 inner back edges each, 299 outer ones.
    assert_eq!(real, 300 * 2 + 299);
    let flow = |v: &serde_json::Value| {
        (
            v["definite"].as_u64().unwrap(),
            v["potential"].as_u64().unwrap(),
        )
    };
    let (bd, bp) = flow(&doc["from_bl"]);
    assert!(bd <= real && real <= bp);
    let mut last = (bd, bp);
    for row in doc["from_ol"].as_array().unwrap() {
        let (d, p) = flow(row);
        assert!(d <= real && real <= p, "{row}");
        assert!(
            d >= last.0 && p <= last.1,
            "a larger overlap loosened the bounds: {row}"
        );
        last = (d, p);
    }
    assert_eq!(last, (real, real), "exact at the largest overlap");
}
