//! The `kiter:K` runtime (`vm::modes::kiter::runtime`) against the reference semantics of k-iteration
//! counting (`shared/design/cfg-format.md`, "Reference semantics of k-iteration counting",
//! re-implemented here on node sequences from the design note alone), on every program of
//! `programs/` (the benchmarks excepted), K = 1..4, both path-end strategies.
//!
//! The activations are the ones the block-level recorder (`tier_support`) saw; they are fed to
//! the runtime as its probes would be called by instrumented code (`on_entry_instrumented`, or
//! `on_entry` and the entry probe, then the probe of every listed edge taken, `on_return`),
//! with activations nested in
//! one another so that the runtime's frame stack is exercised. The runtime's profiles (ids
//! identified back to block sequences) must equal the reference's counts exactly; its ids must
//! equal those of the profiler's reference executor (`KIterState`); K = 1 must equal the
//! Ball-Larus paths by definition (`vm::modes::trace::oracle`); and frames switched to instrumented
//! code mid-loop (`on_osr`, at every kind of backward jump) must count exactly the paths that
//! start after the switch. Besides: `vmrun cfg --trace T --profile kiter:K` on the same CFGs and
//! activations counts the same paths, and the correspondence with the k-BLPP paper's k-IPF
//! documented in `docs/kiter-runtime.md` holds.

mod kiter_support;
mod tier_support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use kiter_support::{switch_from, Reference};
use lang::bytecode::FuncIdx;
use profiler::k_iteration::{KIterConfig, KIterState, KIteration, KPlacement};
use profiler::{Block, Cfg, DepthFirst, Edge, Fallback, Loops, Path, PathEnds};
use tier_support::{programs, record, Recorded};
use vm::modes::kiter::runtime::{KiterRuntime, OsrSwitch, ENTRY_PROBE};
use vm::modes::trace::oracle::{Oracle, PathCounts};
use vm::tier::cfg_build::FunctionCfg;

// ---------------------------------------------------------------------------------------------
// Driving the runtime.

/// Per function: the probe index of each listed edge.
type Sites = Vec<HashMap<Edge, u16>>;

/// The placement of the increments for K: event counting (what the `kiter:K` sink uses) for
/// even K, the paper's dummy-edge removal (the runtime's default) for odd K, so both run at two
/// values of K without doubling the tests' time (ids and counts do not depend on it; the step
/// tables do: other increments, other no-op probes).
fn placement(k: u32) -> KPlacement {
    if k.is_multiple_of(2) {
        KPlacement::EventCounting
    } else {
        KPlacement::DummyRemoval
    }
}

fn tier_up_all(rec: &Recorded, k: u32, ends: PathEnds) -> (KiterRuntime, Sites) {
    let mut rt = KiterRuntime::new(k, ends)
        .unwrap()
        .with_placement(placement(k));
    let mut sites = Vec::new();
    for (i, fc) in rec.cfgs.iter().enumerate() {
        let listed = rt.tier_up(FuncIdx(i as u16), fc).unwrap();
        let cfg = fc.cfg();
        // Every edge into the exit is listed; the virtual entry's edge never is; indices are
        // distinct and never the entry probe's.
        for e in cfg.edges() {
            let listed_here = listed.iter().any(|&(x, _)| x == e);
            if cfg.target(e) == cfg.exit() {
                assert!(listed_here, "{e} into the exit is not listed");
            }
            if fc.has_virtual_entry() && cfg.source(e) == cfg.entry() {
                assert!(!listed_here);
            }
        }
        let map: HashMap<Edge, u16> = listed.iter().copied().collect();
        assert_eq!(map.len(), listed.len());
        assert!(map.values().all(|&k| k != ENTRY_PROBE));
        assert_eq!(
            map.values().collect::<BTreeSet<_>>().len(),
            listed.len(),
            "probe indices are distinct"
        );
        sites.push(map);
    }
    (rt, sites)
}

/// The probe calls of the steps `from..` of an activation (step `i` is `blocks[i-1] ->
/// blocks[i]`), as instrumented code makes them.
fn probe_steps(
    rt: &mut KiterRuntime,
    fc: &FunctionCfg,
    sites: &HashMap<Edge, u16>,
    f: FuncIdx,
    blocks: &[Block],
    from: usize,
) {
    let cfg = fc.cfg();
    for i in from.max(1)..blocks.len() {
        let (u, v) = (blocks[i - 1], blocks[i]);
        let e = cfg.find_edge(u, v).unwrap();
        if fc.has_virtual_entry() && u == cfg.entry() {
            continue; // the entry probe ran it
        }
        if let Some(&k) = sites.get(&e) {
            rt.on_probe(f, k);
        }
    }
}

/// One activation, with `inner` run nested inside it halfway through.
fn drive_nested(
    rt: &mut KiterRuntime,
    rec: &Recorded,
    sites: &Sites,
    outer: (FuncIdx, &[Block]),
    inner: &[(FuncIdx, &[Block])],
) {
    let (f, blocks) = outer;
    let fc = &rec.cfgs[f.index()];
    // As the `kiter:K` sink starts a call of instrumented code (the unfinished activations
    // below start by the entry probe instead).
    rt.on_entry_instrumented(f);
    let half = blocks.len() / 2;
    probe_steps(rt, fc, &sites[f.index()], f, &blocks[..half.max(1)], 1);
    let depth = rt.depth();
    if let Some((&first, rest)) = inner.split_first() {
        drive_nested(rt, rec, sites, first, rest);
    }
    assert_eq!(rt.depth(), depth);
    probe_steps(rt, fc, &sites[f.index()], f, blocks, half.max(1));
    rt.on_return(f);
}

/// The runtime's counts per function, as paths, and by id.
fn runtime_counts(rt: &KiterRuntime, rec: &Recorded) -> Vec<BTreeMap<Path, u64>> {
    let profiles = rt.into_profiles(&rec.program, |_| Some(0)).unwrap();
    profiles
        .iter()
        .map(|fp| {
            fp.paths
                .iter()
                .map(|p| {
                    let path = Path {
                        nodes: p.blocks.iter().map(|&b| Block::new(b as usize)).collect(),
                        end: p.end.map(|b| Block::new(b as usize)),
                    };
                    (path, p.count)
                })
                .collect()
        })
        .collect()
}

/// Steps of the activations of one function that the tests feed to the runtime: the
/// recorded runs are up to millions of steps, and the reference is slow in a debug build.
const STEP_BUDGET: usize = 10_000;

/// The activations a test drives: finished ones (each from the entry to the exit) and
/// unfinished ones (a prefix from the entry: those the run abandoned, and the first
/// `STEP_BUDGET` steps of a function's first activation when it alone exceeds the budget).
struct Sample<'r> {
    finished: Vec<(FuncIdx, &'r [Block])>,
    unfinished: Vec<(FuncIdx, &'r [Block])>,
}

fn sample(rec: &Recorded) -> Sample<'_> {
    let mut finished = Vec::new();
    let mut unfinished = Vec::new();
    for (i, acts) in rec.finished.iter().enumerate() {
        let f = FuncIdx(i as u16);
        let mut left = STEP_BUDGET;
        for a in acts {
            if a.len() <= left {
                finished.push((f, &a[..]));
                left -= a.len();
            } else {
                if left == STEP_BUDGET {
                    unfinished.push((f, &a[..left]));
                }
                break;
            }
        }
    }
    for (f, blocks) in &rec.unfinished {
        unfinished.push((*f, &blocks[..blocks.len().min(STEP_BUDGET)]));
    }
    Sample {
        finished,
        unfinished,
    }
}

/// Every program recorded once for all tests of this file.
fn recordings() -> &'static [(String, Recorded)] {
    static RECS: OnceLock<Vec<(String, Recorded)>> = OnceLock::new();
    RECS.get_or_init(|| {
        programs()
            .into_iter()
            .map(|(name, src)| {
                let rec = record(&name, &src);
                (name, rec)
            })
            .collect()
    })
}

/// Runs the whole recorded program through the runtime (activations nested three deep, the
/// unfinished ones last, never returning) and checks it against the reference semantics, the
/// profiler's executor and, for K = 1, Ball-Larus by definition.
fn check_program(name: &str, rec: &Recorded, k: u32, ends: PathEnds) {
    let (mut rt, sites) = tier_up_all(rec, k, ends);
    let sample = sample(rec);
    for group in sample.finished.chunks(3) {
        drive_nested(&mut rt, rec, &sites, group[0], &group[1..]);
    }
    assert_eq!(rt.depth(), 0);
    for (f, blocks) in &sample.unfinished {
        let fc = &rec.cfgs[f.index()];
        rt.on_entry(*f);
        rt.on_probe(*f, ENTRY_PROBE);
        probe_steps(&mut rt, fc, &sites[f.index()], *f, blocks, 1);
    }
    let got = runtime_counts(&rt, rec);
    for (i, fc) in rec.cfgs.iter().enumerate() {
        let fname = &rec.program.functions[i].name;
        let what = format!("{name}: {fname}, K = {k}, {ends}");
        let kf = rt.function(FuncIdx(i as u16)).unwrap();
        let reference = Reference::new(fc.cfg(), k as usize, ends, kf.fallbacks());
        let mut expected = BTreeMap::new();
        for &(f, a) in &sample.finished {
            if f.index() == i {
                reference.run(a, true, None, &mut expected);
            }
        }
        for &(f, blocks) in &sample.unfinished {
            if f.index() == i {
                reference.run(blocks, false, None, &mut expected);
            }
        }
        assert_eq!(got[i], expected, "{what}");
        // The same ids as the profiler's reference executor.
        let plan = kf.plan();
        let mut by_executor: BTreeMap<u64, u64> = BTreeMap::new();
        let cfg = fc.cfg();
        for &(_, a) in sample.finished.iter().filter(|(f, _)| f.index() == i) {
            let mut st = KIterState::new(plan);
            let mut emit = |id| *by_executor.entry(id).or_insert(0) += 1;
            for w in a.windows(2) {
                st.take_edge(plan, cfg.find_edge(w[0], w[1]).unwrap(), &mut emit)
                    .unwrap();
            }
            st.finish(plan, &mut emit).unwrap();
        }
        for &(f, blocks) in &sample.unfinished {
            if f.index() == i {
                let mut st = KIterState::new(plan);
                let mut emit = |id| *by_executor.entry(id).or_insert(0) += 1;
                for w in blocks.windows(2) {
                    st.take_edge(plan, cfg.find_edge(w[0], w[1]).unwrap(), &mut emit)
                        .unwrap();
                }
            }
        }
        let by_runtime: BTreeMap<u64, u64> = kf.counters().iter().collect();
        assert_eq!(by_runtime, by_executor, "{what}: ids");
        if k == 1 {
            let oracle = Oracle::new(cfg, ends, &[]);
            let mut bl = PathCounts::default();
            for &(f, a) in sample.finished.iter().chain(&sample.unfinished) {
                if f.index() == i {
                    oracle.add_activation(a, &mut bl).unwrap();
                }
            }
            assert_eq!(got[i], bl.counts, "{what}: K = 1 is Ball-Larus");
        }
    }
}

#[test]
fn every_program_counts_as_the_reference_semantics() {
    let mut seen = 0;
    for (name, rec) in recordings() {
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            for k in 1..=4 {
                check_program(name, rec, k, ends);
            }
        }
        seen += 1;
    }
    assert!(seen >= 20, "only {seen} programs");
}

/// The positions where on-stack replacement can happen: step `i` follows a backward pc jump
/// (the tier-0 `on_back_edge` hook), so the frame continues at the first pc of `blocks[i]`.
fn osr_points(fc: &FunctionCfg, blocks: &[Block]) -> Vec<usize> {
    (1..blocks.len())
        .filter(|&i| {
            let (u, v) = (blocks[i - 1], blocks[i]);
            match (fc.last_pc(u), fc.first_pc(v)) {
                (Some(from), Some(to)) => to.index() <= from.index(),
                _ => false,
            }
        })
        .collect()
}

#[test]
fn frames_switched_mid_loop_count_exactly_the_paths_started_after_the_switch() {
    let mut switched = 0usize;
    // Switches on the edge, after it, and refused (then retried at the next backward jump).
    let mut how = [0usize; 3];
    for (name, rec) in recordings() {
        for ends in [PathEnds::Header, PathEnds::Backedge] {
            for k in 1..=4u32 {
                let (mut rt, sites) = tier_up_all(rec, k, ends);
                let mut expected: Vec<BTreeMap<Path, u64>> = vec![BTreeMap::new(); rec.cfgs.len()];
                let sample = sample(rec);
                for (i, fc) in rec.cfgs.iter().enumerate() {
                    let f = FuncIdx(i as u16);
                    let kf = rt.function(f).unwrap();
                    let reference = Reference::new(fc.cfg(), k as usize, ends, kf.fallbacks());
                    let active_at = reference.active_at();
                    // At most 8 activations per function, each switched at up to 4 points
                    // spread over its run (the first backward jump, the last, two between).
                    let acts = sample
                        .finished
                        .iter()
                        .map(|&(g, a)| (g, a, true))
                        .chain(sample.unfinished.iter().map(|&(g, a)| (g, a, false)))
                        .filter(|&(g, _, _)| g == f)
                        .take(8);
                    for (_, a, done) in acts {
                        let points = osr_points(fc, a);
                        let mut chosen: Vec<usize> = [0, points.len() / 3, 2 * points.len() / 3]
                            .iter()
                            .filter_map(|&j| points.get(j).copied())
                            .chain(points.last().copied())
                            // Any step too: the rule does not depend on where the switch is.
                            .chain([a.len() / 2, a.len() / 3].into_iter().filter(|&q| q >= 1))
                            .collect();
                        chosen.sort_unstable();
                        chosen.dedup();
                        for p in chosen {
                            // The virtual entry's edge has no probe of its own (the entry
                            // probe runs it) and is no jump: no switch happens on it.
                            let virtual_entry = fc.has_virtual_entry() && p == 1;
                            for on_edge in [false, true] {
                                if on_edge && virtual_entry {
                                    continue;
                                }
                                rt.on_entry(f);
                                // Switch at step p, or, where the rule refuses, at the next
                                // backward jumps, as the VM does.
                                let tries = std::iter::once(p)
                                    .chain(points.iter().copied().filter(|&q| q > p));
                                let mut from = None;
                                for q in tries {
                                    let (u, v) = (a[q - 1], a[q]);
                                    let edge = fc.cfg().find_edge(u, v).unwrap();
                                    let want =
                                        switch_from(&reference, &active_at, (u, v), q, on_edge);
                                    let got = if on_edge {
                                        match rt.on_osr_at(f, edge) {
                                            OsrSwitch::OnEdge => Some(q - 1),
                                            OsrSwitch::AfterEdge => Some(q),
                                            OsrSwitch::Refused => None,
                                        }
                                    } else {
                                        rt.on_osr(f, edge).then_some(q)
                                    };
                                    assert_eq!(
                                        got, want,
                                        "{name}: {}, K = {k}, {ends}: switch at {u} -> {v}",
                                        rec.program.functions[i].name
                                    );
                                    match got {
                                        Some(x) if x < q => how[0] += 1,
                                        Some(_) => how[1] += 1,
                                        None => how[2] += 1,
                                    }
                                    if got.is_some() {
                                        from = Some((q, got));
                                        break;
                                    }
                                }
                                if let Some((q, at)) = from {
                                    probe_steps(&mut rt, fc, &sites[i], f, a, q + 1);
                                    reference.run(a, done, at, &mut expected[i]);
                                }
                                if done {
                                    rt.on_return(f);
                                }
                                switched += 1;
                            }
                        }
                    }
                }
                let got = runtime_counts(&rt, rec);
                for i in 0..rec.cfgs.len() {
                    assert_eq!(
                        got[i], expected[i],
                        "{name}: {}, K = {k}, {ends}",
                        rec.program.functions[i].name
                    );
                }
            }
        }
    }
    assert!(switched > 2000, "only {switched} switches");
    // Every rule is exercised (irreducible loops: `programs/goto_*.c`).
    assert!(how.iter().all(|&n| n > 20), "on, after, refused: {how:?}");
}

/// A clone of a runtime in the middle of a run counts on its own accumulators, step tables and
/// counters (the runtime keeps pointers into them): finishing the same activation in both gives
/// the same profile, and an activation run only in the clone does not show in the original.
#[test]
fn a_cloned_runtime_counts_on_its_own() {
    let mut checked = 0;
    for (name, rec) in recordings().iter().take(8) {
        let sample = sample(rec);
        let [(f, a), (g, b), ..] = sample.finished[..] else {
            continue;
        };
        for k in [2, 4] {
            let (mut rt, sites) = tier_up_all(rec, k, PathEnds::Header);
            let half = a.len() / 2;
            rt.on_entry_instrumented(f);
            probe_steps(
                &mut rt,
                &rec.cfgs[f.index()],
                &sites[f.index()],
                f,
                &a[..half.max(1)],
                1,
            );
            let mut copy = rt.clone();
            for r in [&mut rt, &mut copy] {
                probe_steps(
                    r,
                    &rec.cfgs[f.index()],
                    &sites[f.index()],
                    f,
                    a,
                    half.max(1),
                );
                r.on_return(f);
            }
            let original = runtime_counts(&rt, rec);
            assert_eq!(runtime_counts(&copy, rec), original, "{name}, K = {k}");
            copy.on_entry_instrumented(g);
            probe_steps(&mut copy, &rec.cfgs[g.index()], &sites[g.index()], g, b, 1);
            copy.on_return(g);
            assert_eq!(runtime_counts(&rt, rec), original, "{name}, K = {k}");
            let total =
                |c: &[BTreeMap<Path, u64>]| -> u64 { c.iter().flat_map(|m| m.values()).sum() };
            // A finished activation counts at least its last path.
            assert!(
                total(&runtime_counts(&copy, rec)) > total(&original),
                "{name}, K = {k}"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 8,
        "only {checked} programs with two finished activations"
    );
}

/// Functions that never tier up report no paths and their static k-iteration count; a
/// baseline activation sees no probes, and a frame that never ran the entry probe counts
/// nothing even if probes arrive (it is not instrumented).
#[test]
fn untiered_functions_and_baseline_frames_count_nothing() {
    let src = "int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }\n\
               int main(void) { return f(3) & 1; }\n";
    let rec = record("t.c", src);
    let mut rt = KiterRuntime::new(2, PathEnds::Header).unwrap();
    let f = FuncIdx(0);
    let sites = rt.tier_up(f, &rec.cfgs[0]).unwrap();
    // A baseline activation of `f` (no entry probe): probes are ignored.
    rt.on_entry(f);
    for &(_, k) in &sites {
        rt.on_probe(f, k);
    }
    rt.on_return(f);
    assert!(rt.function(f).unwrap().counters().is_empty());
    let profiles = rt.into_profiles(&rec.program, |_| Some(7)).unwrap();
    assert_eq!(profiles[0].tiered_up_at, Some(7));
    assert!(profiles[0].paths.is_empty());
    let main = &profiles[1];
    assert_eq!(main.tiered_up_at, None);
    assert!(main.paths.is_empty());
    let dfs = DepthFirst::compute(rec.cfgs[1].cfg());
    let loops = Loops::compute(rec.cfgs[1].cfg(), &dfs);
    let kit = KIteration::compute(
        rec.cfgs[1].cfg(),
        &dfs,
        &loops,
        KIterConfig::new(2, PathEnds::Header),
    )
    .unwrap();
    assert_eq!(main.static_paths, kit.num_paths());
    assert!(KiterRuntime::new(0, PathEnds::Header).is_err());
}

// ---------------------------------------------------------------------------------------------
// kiter:K against kbl:K: the correspondence documented in docs/kiter-runtime.md, checked on
// the reference's k-iteration paths and the n-grams of the BL paths, both computed here by
// definition (no k-BLPP code involved).

/// The BL paths of one activation in order, or of one path (its last piece keeps `end`).
fn pieces(oracle: &Oracle, nodes: &[Block], end: Option<Block>) -> Vec<Path> {
    let mut out = Vec::new();
    let mut cur = vec![nodes[0]];
    for w in nodes.windows(2) {
        if oracle.cuts(w[0], w[1]) {
            out.push(Path {
                nodes: std::mem::replace(&mut cur, vec![w[1]]),
                end: Some(w[1]),
            });
        } else {
            cur.push(w[1]);
        }
    }
    out.push(Path { nodes: cur, end });
    out
}

fn concat(g: &[Path]) -> Path {
    Path {
        nodes: g.iter().flat_map(|p| p.nodes.iter().copied()).collect(),
        end: g.last().unwrap().end,
    }
}

/// How many cases of each kind [`check_kbl`] checked: paths outside runs, K-windows, short
/// runs, K-grams checked the other way round, and runs of irreducible loops entered elsewhere
/// than at their header (a short run entered by a back edge, a K-gram of back edges that is no
/// window).
#[derive(Default, Debug)]
struct KblCases {
    single: usize,
    windows: usize,
    short_runs: usize,
    k_grams: usize,
    side_entries: usize,
}

/// Checks the documented kiter:K / k-IPF correspondence for one function.
fn check_kbl(
    what: &str,
    fc: &FunctionCfg,
    acts: &[&[Block]],
    k: usize,
    ends: PathEnds,
    seen: &mut KblCases,
) {
    let cfg = fc.cfg();
    let reference = Reference::new(cfg, k, ends, &[]);
    let oracle = Oracle::new(cfg, ends, &[]);
    let mut kiter = BTreeMap::new();
    // The k-IPF: every n-gram (n <= K) of each activation's BL paths, with its count.
    let mut ipf: HashMap<Vec<Path>, u64> = HashMap::new();
    for a in acts {
        reference.run(a, true, None, &mut kiter);
        let bl = pieces(&oracle, a, None);
        for n in 1..=k {
            for g in bl.windows(n) {
                *ipf.entry(g.to_vec()).or_insert(0) += 1;
            }
        }
    }
    let kh = &reference.k_headers;
    let back = |p: &Path, h: Block| {
        p.end == Some(h)
            && reference
                .loops
                .back
                .contains(&(*p.nodes.last().unwrap(), h))
    };
    if k == 1 {
        let level1: BTreeMap<Path, u64> = ipf.iter().map(|(g, &n)| (g[0].clone(), n)).collect();
        assert_eq!(kiter, level1, "{what}: kiter:1 is the IPF's first level");
        return;
    }
    for (p, &n) in &kiter {
        let g = pieces(&oracle, &p.nodes, p.end);
        assert_eq!(concat(&g), *p);
        let h = p.nodes[0];
        match ends {
            PathEnds::Header => {
                assert!(g.len() <= k, "{what}: {p:?} has {} BL paths", g.len());
                if !kh.contains(&h) {
                    assert_eq!(g.len(), 1, "{what}: {p:?} outside runs");
                    assert_eq!(ipf.get(&g), Some(&n), "{what}: {p:?}");
                    seen.single += 1;
                } else if g.len() == k {
                    assert_eq!(ipf.get(&g), Some(&n), "{what}: window {p:?}");
                    seen.windows += 1;
                } else {
                    // A whole run shorter than K: the (r+1)-grams that enter the run, i.e.
                    // whose first BL path ends at the header and is not an iteration (does not
                    // start there). In an irreducible loop it may end by the back edge: the
                    // loop was entered elsewhere than at its header, hence not active.
                    let entering = ipf.iter().filter(|(x, _)| {
                        x.len() == g.len() + 1
                            && x[1..] == g[..]
                            && x[0].end == Some(h)
                            && x[0].nodes[0] != h
                    });
                    if entering.clone().any(|(x, _)| back(&x[0], h)) {
                        seen.side_entries += 1;
                    }
                    let entering: u64 = entering.map(|(_, &c)| c).sum();
                    assert_eq!(entering, n, "{what}: short run {p:?}");
                    assert!(ipf.get(&g).is_some_and(|&c| c >= n));
                    seen.short_runs += 1;
                }
            }
            PathEnds::Backedge => {
                if g.len() <= k {
                    assert!(ipf.contains_key(&g), "{what}: {p:?} is no n-gram");
                }
            }
        }
    }
    // Conversely, every K-gram that is a window of K iterations of one k-loop is a k-iteration
    // path with the same count. `header`: the first BL path starts at the header and the first
    // K - 1 end at its back edge. `backedge`: all K end at its back edge, and the first starts
    // at the header, or starts anywhere but another k-loop's header and enters the loop at its
    // header from outside the loop (else the loop is not active at its back edge: an
    // irreducible loop entered elsewhere, whose first back edge starts the run).
    for (g, &n) in ipf.iter().filter(|(g, _)| g.len() == k) {
        let window = match ends {
            PathEnds::Header => {
                let h = g[0].nodes[0];
                kh.contains(&h) && g[..k - 1].iter().all(|p| back(p, h))
            }
            PathEnds::Backedge => {
                let Some(h) = g[k - 1].end else { continue };
                let first = &g[0].nodes;
                let enters = first
                    .windows(2)
                    .any(|w| w[1] == h && !reference.loops.in_loop(h, w[0]));
                let candidate = kh.contains(&h) && g.iter().all(|p| back(p, h));
                if candidate && first[0] != h && !kh.contains(&first[0]) && !enters {
                    seen.side_entries += 1;
                }
                candidate && (first[0] == h || (!kh.contains(&first[0]) && enters))
            }
        };
        if window {
            assert_eq!(kiter.get(&concat(g)), Some(&n), "{what}: K-gram {g:?}");
            seen.k_grams += 1;
        }
    }
}

#[test]
fn kiter_and_kbl_correspond_as_documented() {
    let mut header = KblCases::default();
    let mut backedge = KblCases::default();
    for (name, rec) in recordings() {
        let sample = sample(rec);
        for (i, fc) in rec.cfgs.iter().enumerate() {
            let acts: Vec<&[Block]> = sample
                .finished
                .iter()
                .filter(|(f, _)| f.index() == i)
                .map(|&(_, a)| a)
                .collect();
            for ends in [PathEnds::Header, PathEnds::Backedge] {
                for k in 1..=4 {
                    let what =
                        format!("{name}: {}, K = {k}, {ends}", rec.program.functions[i].name);
                    let seen = match ends {
                        PathEnds::Header => &mut header,
                        PathEnds::Backedge => &mut backedge,
                    };
                    check_kbl(&what, fc, &acts, k, ends, seen);
                }
            }
        }
    }
    // Not vacuous: every kind of case occurs many times.
    assert!(
        header.single > 100 && header.windows > 100 && header.short_runs > 20,
        "{header:?}"
    );
    assert!(
        header.k_grams > 100 && backedge.k_grams > 100,
        "{header:?} {backedge:?}"
    );
    assert!(
        header.side_entries > 5 && backedge.side_entries > 5,
        "{header:?} {backedge:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// `vmrun cfg FILE --trace T --profile kiter:K` (profiler::cfg_command) and the VM's runtime
// agree: each function's CFG written as a `.cfg` text, its finished activations as a trace.

/// The `.cfg` text of a function's CFG, blocks named `b0`, `b1`, ...
fn cfg_text(cfg: &Cfg) -> String {
    let mut s = format!("entry {}\nexit {}\n", cfg.entry(), cfg.exit());
    for b in cfg.blocks() {
        let succ = cfg.successors(b);
        if !succ.is_empty() {
            let names: Vec<String> = succ.iter().map(|s| s.to_string()).collect();
            s += &format!("{b} -> {}\n", names.join(" "));
        }
    }
    s
}

#[test]
fn vmrun_cfg_with_a_trace_counts_what_the_runtime_counts() {
    use profiler::cfg_command::{self, CfgCommand, Format, ProfileKind};
    let mut compared = 0;
    for (name, rec) in recordings() {
        let sample = sample(rec);
        for (i, fc) in rec.cfgs.iter().enumerate() {
            let cfg = fc.cfg();
            let f = FuncIdx(i as u16);
            let mut budget = 4000usize;
            let acts: Vec<&[Block]> = sample
                .finished
                .iter()
                .filter(|(g, _)| *g == f)
                .map(|&(_, a)| a)
                .take_while(|a| {
                    let fits = a.len() <= budget;
                    budget = budget.saturating_sub(a.len());
                    fits
                })
                .collect();
            if acts.is_empty() {
                continue;
            }
            let trace: Vec<String> = acts
                .iter()
                .map(|a| {
                    a.iter()
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            for ends in [PathEnds::Header, PathEnds::Backedge] {
                for k in [2u32, 3] {
                    let mut cmd = CfgCommand::new(format!("{name}.{i}.cfg"), cfg_text(cfg));
                    cmd.path_ends = ends;
                    cmd.trace = Some(trace.join(" ; "));
                    cmd.profile = Some(ProfileKind::KIter(k));
                    cmd.format = Format::Json;
                    let out = match cfg_command::run(&cmd) {
                        Ok(out) => out,
                        // Functions with a block that cannot reach the exit are not valid
                        // `.cfg` files; nothing to compare.
                        Err(e) if format!("{e:?}").contains("cannot reach") => continue,
                        Err(e) => panic!("{name}: {e:?}"),
                    };
                    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                    // Compared as paths: the text format numbers blocks in order of appearance.
                    let block = |n: &serde_json::Value| -> Block {
                        Block::new(n.as_str().unwrap()[1..].parse().unwrap())
                    };
                    let by_cfg: BTreeMap<Path, u64> = v["counts"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| {
                            let path = Path {
                                nodes: c["nodes"].as_array().unwrap().iter().map(block).collect(),
                                end: (!c["end"].is_null()).then(|| block(&c["end"])),
                            };
                            (path, c["count"].as_u64().unwrap())
                        })
                        .collect();
                    let mut rt = KiterRuntime::new(k, ends).unwrap();
                    let sites: HashMap<Edge, u16> =
                        rt.tier_up(f, fc).unwrap().into_iter().collect();
                    for a in &acts {
                        rt.on_entry(f);
                        rt.on_probe(f, ENTRY_PROBE);
                        probe_steps(&mut rt, fc, &sites, f, a, 1);
                        rt.on_return(f);
                    }
                    let dfs = DepthFirst::compute(cfg);
                    let loops = Loops::compute(cfg, &dfs);
                    let kit =
                        KIteration::compute(cfg, &dfs, &loops, KIterConfig::new(k, ends)).unwrap();
                    let by_vm: BTreeMap<Path, u64> = rt
                        .function(f)
                        .unwrap()
                        .counters()
                        .iter()
                        .map(|(id, n)| (kit.identify(id).unwrap().unwrap(), n))
                        .collect();
                    assert_eq!(by_vm, by_cfg, "{name}: function {i}, K = {k}, {ends}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 200, "only {compared} comparisons");
}

/// At K = 11 the ids of `kiter_wide.c`'s `mix` loop (64 ways per iteration) exceed `u64`: the
/// numbering demotes the loop to acyclic profiling, and the runtime must then count what the
/// reference semantics counts with that loop profiled acyclically.
#[test]
fn demoted_loops_count_acyclically() {
    let (name, rec) = recordings()
        .iter()
        .find(|(n, _)| tier_support::base_name(n) == "kiter_wide.c")
        .expect("programs/kiter_wide.c");
    let mix = rec
        .program
        .functions
        .iter()
        .position(|f| f.name == "mix")
        .unwrap();
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        let (rt, _) = tier_up_all(rec, 11, ends);
        let fallbacks = rt.function(FuncIdx(mix as u16)).unwrap().fallbacks();
        assert!(
            fallbacks
                .iter()
                .any(|f| matches!(f, Fallback::LoopToAcyclic { .. })),
            "{ends}: {fallbacks:?}"
        );
        check_program(name, rec, 11, ends);
    }
}
