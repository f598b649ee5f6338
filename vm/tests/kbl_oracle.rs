//! Oracle tests of `--profile=kbl:K` (issue 5) on every program of `programs/`, through the
//! real run (`vm::run_program`):
//!
//! - with `--tier-up 0`, in both path-end strategies and for K in {1, 2, 3, 4, 8}, every
//!   function's k-IPF equals the n-gram counts (n = 1..K) of its BL path ids per activation.
//!   The reference is computed here, independently of the profiler: the `trace` sink records
//!   every activation's blocks ([`TraceProbes::keep_activations`]), each activation is split
//!   into paths by definition (a path ends at an edge that cuts under the strategy,
//!   [`Oracle::cuts`], or at the exit), each path is mapped to its canonical id
//!   ([`trace::path_id`], the numbering `bl --tier-up 0` uses), and the n-grams are counted
//!   within each activation (an activation start is the k-BLPP `*` marker);
//! - the first level of the k-IPF, i.e. the profile's `paths`, is exactly what `bl` reports;
//! - with the default tier-up, every k-IPF count is at most the tier-up-0 oracle's count of the
//!   same sequence of paths (ids translated through the paths' blocks, since a profile-guided
//!   numbering may give other ids);
//! - the output bytes and exit status are those of `none`;
//! - every profile passes `Profile::check` and reads back equal from its JSON.
//!
//! Skipped in debug builds (to keep the test time near 30 s): `programs/twins/*.c` and the
//! programs of [`RELEASE_ONLY`], whose path streams are the longest (seconds each in a debug
//! build); `cargo test --release -p vm --test kbl_oracle` includes them (measured: the
//! programs in 5 s; the twins in 175 s with a 2 GB peak, for their traces of millions of
//! activations).

mod tier_support;

use std::collections::HashMap;

use lang::bytecode::{FuncIdx, Program};
use profiler::{BallLarus, Numbering, Path, PathEnds};
use tier_support::{run_k, sources, Ran};
use vm::interp::Machine;
use vm::modes::trace::oracle::Oracle;
use vm::modes::trace::{path_id, TraceProbes};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::{DEFAULT_MAX_DEPTH, DEFAULT_TIER_UP};

/// The K tested.
const KS: &[u32] = &[1, 2, 3, 4, 8];
const MAX_K: usize = 8;

/// `(function, ids)` -> count.
type Grams = HashMap<(u32, Vec<u64>), u64>;

/// The n-gram counts of the reference as a trie: node 0 is a dummy root per function's
/// sequences (its children are keyed by `(0, function as id)`), then one node per sequence.
#[derive(Default)]
struct Trie {
    /// `(parent, label)` -> node.
    child: HashMap<(u32, u64), u32>,
    /// The count and depth (1 for a one-id sequence) of every node.
    nodes: Vec<(u64, u32)>,
}

impl Trie {
    fn step(&mut self, parent: u32, label: u64, depth: u32) -> u32 {
        let next = self.nodes.len() as u32;
        let at = *self.child.entry((parent, label)).or_insert(next);
        if at == next {
            self.nodes.push((0, depth));
        }
        at
    }

    fn find(&self, f: u32, ids: &[u64]) -> Option<u32> {
        let mut at = *self.child.get(&(0, u64::from(f)))?;
        for &id in ids {
            at = *self.child.get(&(at, id))?;
        }
        Some(at)
    }

    /// The count of `ids` in `f` (0 if it never occurred).
    fn count(&self, f: u32, ids: &[u64]) -> u64 {
        self.find(f, ids).map_or(0, |n| self.nodes[n as usize].0)
    }

    /// Number of sequences of at most `k` ids.
    fn len_upto(&self, k: u32) -> usize {
        self.nodes
            .iter()
            .filter(|&&(_, d)| d >= 1 && d <= k)
            .count()
    }
}

/// The reference: per function, the canonical numbering, and the n-gram counts (n <= 8) of
/// the canonical path ids of every activation, split by definition from the `trace` record.
struct Reference {
    numberings: Vec<(vm::tier::cfg_build::FunctionCfg, BallLarus)>,
    grams: Trie,
}

fn reference(program: &Program, ends: PathEnds) -> Reference {
    let mut probes = TraceProbes::new(program, ends).unwrap();
    probes.keep_activations = true;
    let mut m = Machine::new(program, DEFAULT_MAX_DEPTH);
    let (_, mut probes) = vm::run::execute(&mut m, probes, &mut Vec::new());
    probes.close_unfinished();
    assert!(probes.errors.is_empty(), "{:?}", probes.errors);
    let numberings: Vec<_> = (0..program.functions.len())
        .map(|f| {
            let fc = probes.cfg(FuncIdx(f as u16)).clone();
            let bl = BallLarus::new(fc.cfg(), ends, Numbering::Canonical, u64::MAX).unwrap();
            (fc, bl)
        })
        .collect();
    let mut grams = Trie::default();
    grams.nodes.push((0, 0));
    for a in &probes.activations {
        let f = a.func.index();
        let (fc, bl) = &numberings[f];
        let cfg = fc.cfg();
        let oracle = Oracle::new(cfg, ends, bl.dag().extra_cuts());
        // Split by definition (as `Oracle::add_activation`, keeping the order).
        let mut ids: Vec<u64> = Vec::new();
        let mut emit = |nodes: Vec<profiler::Block>, end| {
            let path = Path { nodes, end };
            ids.push(path_id(bl, cfg, &path).expect("a path by definition has an id"));
        };
        if let Some(&first) = a.blocks.first() {
            assert_eq!(first, cfg.entry());
            let mut cur = vec![first];
            for w in a.blocks.windows(2) {
                let (u, v) = (w[0], w[1]);
                if oracle.cuts(u, v) {
                    emit(std::mem::replace(&mut cur, vec![v]), Some(v));
                } else {
                    cur.push(v);
                }
                if v == cfg.exit() {
                    emit(std::mem::take(&mut cur), None);
                }
            }
        }
        let top = grams.step(0, f as u64, 0);
        for start in 0..ids.len() {
            let mut at = top;
            for (n, &id) in ids[start..].iter().take(MAX_K).enumerate() {
                at = grams.step(at, id, n as u32 + 1);
                grams.nodes[at as usize].0 += 1;
            }
        }
    }
    Reference { numberings, grams }
}

/// The k-IPF of a profile as `(function, ids) -> count`, the ids translated by `translate`.
fn ipf_grams(p: &Profile, translate: impl Fn(usize, &FunctionProfile, u64) -> u64) -> Grams {
    let mut out = Grams::new();
    for (f, fp) in p.functions.iter().enumerate() {
        for e in fp.ipf.as_ref().expect("kbl writes ipf") {
            let ids = e.ids.iter().map(|&id| translate(f, fp, id)).collect();
            assert!(out.insert((f as u32, ids), e.count).is_none());
        }
    }
    out
}

/// Every oracle check on one program.
fn check_program(name: &str, src: &str) {
    let program = lang::compile_source(name, src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let Ran {
        result: none,
        out: none_out,
    } = run_k(&program, name, Mode::None, 1, 0, PathEnds::Header);
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        let reference = reference(&program, ends);
        let bl = run_k(&program, name, Mode::Bl, 1, 0, ends).result;
        let bl = bl.profile.unwrap();
        for &k in KS {
            let what = format!("{name} kbl:{k} {ends}");
            let Ran { result: r, out } = run_k(&program, name, Mode::Kbl, k, 0, ends);
            assert_eq!(out, none_out, "{what}: output");
            assert_eq!(r.exit_status, none.exit_status, "{what}: status");
            let p = r.profile.unwrap();
            assert_eq!(p.k, k);
            p.check().unwrap_or_else(|e| panic!("{what}: {e}"));
            if k == 3 {
                let back = Profile::from_json(&p.to_json()).unwrap();
                assert_eq!(back, p, "{what}: round trip");
            }
            for (fk, fb) in p.functions.iter().zip(&bl.functions) {
                assert_eq!(
                    fk.paths, fb.paths,
                    "{what}: {}: level 1 is not bl's",
                    fk.name
                );
            }
            // Every entry is a sequence of the reference with its count, and there are as
            // many entries as sequences of at most k ids: the k-IPF is the n-gram counts.
            for ((f, ids), c) in ipf_grams(&p, |_, _, id| id) {
                let want = reference.grams.count(f, &ids);
                assert_eq!(c, want, "{what}: function {f}, sequence {ids:?}");
            }
            let entries: usize = p
                .functions
                .iter()
                .map(|f| f.ipf.as_ref().unwrap().len())
                .sum();
            assert_eq!(
                entries,
                reference.grams.len_upto(k),
                "{what}: number of sequences"
            );
        }
        // The default tier-up: counts at most the oracle's, sequences compared as paths.
        for k in [2, 4] {
            let what = format!("{name} kbl:{k} {ends} tier-up {DEFAULT_TIER_UP}");
            let Ran { result: r, out } = run_k(&program, name, Mode::Kbl, k, DEFAULT_TIER_UP, ends);
            assert_eq!(out, none_out, "{what}: output");
            assert_eq!(r.exit_status, none.exit_status, "{what}: status");
            let p = r.profile.unwrap();
            p.check().unwrap_or_else(|e| panic!("{what}: {e}"));
            let canonical = |f: usize, fp: &FunctionProfile, id: u64| {
                let pc = fp
                    .paths
                    .iter()
                    .find(|q| q.id == id)
                    .expect("level 1 has every id");
                let path = Path {
                    nodes: pc
                        .blocks
                        .iter()
                        .map(|&b| profiler::Block::new(b as usize))
                        .collect(),
                    end: pc.end.map(|b| profiler::Block::new(b as usize)),
                };
                let (fc, bl) = &reference.numberings[f];
                path_id(bl, fc.cfg(), &path).expect("a reported path is a canonical path")
            };
            for ((f, ids), c) in ipf_grams(&p, canonical) {
                let want = reference.grams.count(f, &ids);
                assert!(c <= want, "{what}: {f} {ids:?} counted {c} > {want}");
            }
        }
    }
}

fn check_all(dir: &str, filter: impl Fn(&str) -> bool) -> usize {
    let mut seen = 0;
    for (name, src) in sources(dir) {
        if filter(tier_support::base_name(&name)) {
            check_program(&name, &src);
            seen += 1;
        }
    }
    seen
}

/// The programs with the longest path streams (4 to 17 s each in a debug build, measured;
/// under 1 s for the others): run by release builds only.
const RELEASE_ONLY: &[&str] = &[
    "bench_branches.c",
    "bench_calls.c",
    "bench_loops.c",
    "collatz.c",
    "hash_table.c",
    "life.c",
    "nqueens.c",
    "recursion.c",
    "sort_quick.c",
];

/// Whether a program is run in this build (see the module docs).
fn in_this_build(name: &str) -> bool {
    !cfg!(debug_assertions) || !RELEASE_ONLY.contains(&name)
}

/// Programs `a*` to `l*` (split so that the harness runs them in parallel).
#[test]
fn programs_a_to_l() {
    let n = check_all("../programs", |n| n < "m" && in_this_build(n));
    assert!(n >= 10, "{n} programs");
}

/// Programs `m*` to `z*`.
#[test]
fn programs_m_to_z() {
    let n = check_all("../programs", |n| n >= "m" && in_this_build(n));
    assert!(n >= 10, "{n} programs");
}

/// The benchmark twins (release builds only: see the module docs).
#[test]
fn twins() {
    if cfg!(debug_assertions) {
        return;
    }
    assert!(check_all("../programs/twins", |_| true) >= 5);
}
