//! `--profile=kbl:K`: k-BLPP (D'Elia, Demetrescu & Finocchi 2013, sections 2.2-2.3 and 3.3) on
//! top of `bl`'s probes.
//!
//! [`KblSink`] is a [`PathSink`] run as [`BlProbes<KblSink>`], so tiering, on-stack replacement
//! and the Ball-Larus ids are exactly those of `bl`. Instead of counting each id in a hash
//! table, it feeds the BL path-id stream into a k-slab forest ([`KSlabForest`], Figure 6):
//!
//! - every activation frame has its own [`Cursor`] (the paper's `(n, τ, β)`), kept on a stack
//!   that follows calls and returns, so recursion and interleaved activations build their own
//!   slabs;
//! - a routine entry pushes a fresh cursor (the paper's `*` marker); an on-stack replacement
//!   resets the running frame's cursor (its first recorded path starts a new sequence, since
//!   the paths before it were not recorded);
//! - every completed path is pushed with the running frame's cursor, keyed by (function, id).
//!
//! When the run ends (normally, by a trap or by an interrupt), [`kbl_profiles`] converts the
//! forest into the k-IPF (Figure 7): its first level is the BL path counts (the profile's
//! `paths`), and every node becomes one `ipf` entry of its function, with the per-function
//! statistics of the paper's Figures 9 and 11-14.
//!
//! The sink never panics on an unbalanced event stream (a path with no frame, or a frame of
//! another function on top): it then starts a fresh sequence for the function that reported
//! the path.

use std::io::Write;

use lang::bytecode::{FuncIdx, Program};
use profiler::kblpp::{Cursor, Ipf, KSlabForest, RootKey, Siblings};

use super::sinks::{BlProbes, PathSink, TierSettings};
use crate::interp::{Exit, Machine};
use crate::profile::{FunctionProfile, IpfEntry, KblFunctionStats};
use crate::run::{execute, ProfileBuilder};
use crate::trap::Trap;
use crate::ProfileSettings;

/// Run-wide statistics of a `kbl` run (what the benchmarks report beside the profile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KblRunStats {
    /// BL paths pushed (what `bl` counts with one hash-table operation each).
    pub pushes: u64,
    /// Hash-table operations (root lookups, one per slab of `k - 1` paths).
    pub hash_ops: u64,
    /// Children lookups during construction.
    pub child_lookups: u64,
    /// Siblings stepped over by those lookups.
    pub sibling_steps: u64,
    /// Nodes of the k-SF.
    pub ksf_nodes: u64,
    /// Trees of the k-SF.
    pub ksf_roots: u64,
    /// Bytes held by the k-SF (node arena and root table, as allocated).
    pub memory_bytes: u64,
    /// Nodes of the k-IPF.
    pub ipf_nodes: u64,
}

/// The function of [`KblSink::top`] when no frame is active: never equal to a `u16` index.
const NO_FRAME: u32 = u32::MAX;

/// The `kbl` mode's [`PathSink`]: a k-slab forest and one cursor per active frame.
///
/// The running frame's cursor is kept apart from the callers' (in `top`, at a fixed place in
/// the sink), so a path end reads and updates it without going through the stack.
#[derive(Clone, Debug)]
pub struct KblSink {
    /// The k-SF built so far.
    pub forest: KSlabForest,
    /// The running frame: its function as a `u32` (`NO_FRAME` when none) and its cursor.
    top: (u32, Cursor),
    /// The callers' `top`s, innermost last (the first one entered is `NO_FRAME`'s).
    stack: Vec<(u32, Cursor)>,
}

impl KblSink {
    /// An empty forest for `k` (at least 1) with children in creation order.
    pub fn new(k: u32) -> KblSink {
        KblSink::with_siblings(k, Siblings::Append)
    }

    /// An empty forest for `k` (at least 1) with the given sibling order.
    pub fn with_siblings(k: u32, siblings: Siblings) -> KblSink {
        let forest = KSlabForest::with_siblings(k.max(1), siblings);
        let top = (NO_FRAME, forest.start());
        KblSink {
            forest,
            top,
            stack: Vec::with_capacity(64),
        }
    }

    /// Number of frames whose cursor is kept (the call depth as the sink sees it).
    pub fn depth(&self) -> usize {
        let saved = self.stack.iter().filter(|(f, _)| *f != NO_FRAME).count();
        saved + usize::from(self.top.0 != NO_FRAME)
    }

    /// The path of `func` arrived with no matching frame on top: a fresh sequence for it, in
    /// place of the running frame's (or as the running frame, when there is none).
    #[cold]
    #[inline(never)]
    fn unbalanced(&mut self, func: FuncIdx, id: u64) {
        let function = u32::from(func.0);
        let mut cursor = self.forest.start();
        self.forest.push(&mut cursor, RootKey::new(function, id));
        self.top = (function, cursor);
    }
}

impl PathSink for KblSink {
    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        let start = self.forest.start();
        let caller = std::mem::replace(&mut self.top, (u32::from(func.0), start));
        self.stack.push(caller);
    }

    #[inline(always)]
    fn on_return(&mut self, _func: FuncIdx) {
        self.top = self.stack.pop().unwrap_or((NO_FRAME, Cursor::default()));
    }

    fn on_osr(&mut self, func: FuncIdx) {
        self.top = (u32::from(func.0), self.forest.start());
    }

    #[inline(always)]
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        let function = u32::from(func.0);
        if self.top.0 == function {
            self.forest
                .push(&mut self.top.1, RootKey::new(function, id));
        } else {
            self.unbalanced(func, id);
        }
    }
}

/// Runs `program` on `m` under `--profile=kbl:K` (`settings.k`), writing its output to
/// `stdout`. Returns the run's result, the tier-up warnings, and the builder of the functions'
/// profiles (BL `paths` from the k-IPF's first level, plus `ipf` and `stats`), which works
/// after traps and interrupts as well.
pub fn run<'p>(
    m: &mut Machine<'p>,
    program: &'p Program,
    settings: &ProfileSettings,
    stdout: &mut dyn Write,
) -> (Result<Exit, Trap>, Vec<String>, ProfileBuilder<'p>) {
    let tiering = TierSettings {
        threshold: settings.tier_up,
        path_ends: settings.path_ends,
    };
    let counts = m.branch_counts().clone();
    let probes = BlProbes::new(program, tiering, KblSink::new(settings.k), counts);
    let (result, probes) = execute(m, probes, stdout);
    let warnings = probes.warnings().to_vec();
    let functions: ProfileBuilder<'p> = Box::new(move || {
        let ipf = probes.sink.forest.to_ipf();
        kbl_profiles(&probes, &ipf, program.functions.len()).map(|(functions, _)| functions)
    });
    (result, warnings, functions)
}

/// The `(id, count)` pairs of the k-IPF's first level (the BL path counts) of every function,
/// indexed by function, by id.
pub fn level_one(ipf: &Ipf, num_functions: usize) -> Vec<Vec<(u64, u64)>> {
    let mut out = vec![Vec::new(); num_functions];
    for f in ipf.functions() {
        if let Some(slot) = out.get_mut(f.function as usize) {
            *slot = ipf
                .roots(f)
                .map(|r| (ipf.node(r).label(), ipf.node(r).count()))
                .collect();
        }
    }
    out
}

/// Every function's profile under `kbl` from the probes and the k-IPF of their forest: the BL
/// paths of the first level, every k-IPF node as an [`IpfEntry`] (preorder, which is the
/// lexicographic order of the id sequences), and the statistics; also the run-wide statistics.
pub fn kbl_profiles(
    probes: &BlProbes<'_, KblSink>,
    ipf: &Ipf,
    num_functions: usize,
) -> Result<(Vec<FunctionProfile>, KblRunStats), String> {
    let counts = level_one(ipf, num_functions);
    let mut functions = probes.function_profiles(&counts)?;
    let node_bytes = std::mem::size_of::<profiler::kblpp::KsfNode>() as u64;
    for (i, fp) in functions.iter_mut().enumerate() {
        let mut entries = Vec::new();
        let mut stats = KblFunctionStats::default();
        if let Some(f) = ipf.function(i as u32) {
            let mut ids: Vec<u64> = Vec::new();
            for id in f.node_ids() {
                let n = ipf.node(id);
                ids.truncate(n.depth() as usize);
                ids.push(n.label());
                entries.push(IpfEntry {
                    ids: ids.clone(),
                    count: n.count(),
                });
            }
            stats = KblFunctionStats::new(
                f.hash_ops,
                f.ksf_nodes,
                f.shape.nodes,
                f.shape.avg_internal_degree,
                f.shape.avg_leaf_depth,
                f.ksf_nodes * node_bytes,
            );
        }
        fp.ipf = Some(entries);
        fp.kbl_stats = Some(stats);
    }
    let s = ipf.stats();
    let run = KblRunStats {
        pushes: s.pushes,
        hash_ops: s.hash_ops,
        child_lookups: s.child_lookups,
        sibling_steps: s.sibling_steps,
        ksf_nodes: s.ksf_nodes,
        ksf_roots: s.ksf_roots,
        memory_bytes: probes.sink.forest.memory_bytes() as u64,
        ipf_nodes: s.ipf.nodes,
    };
    Ok((functions, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FuncIdx = FuncIdx(0);
    const G: FuncIdx = FuncIdx(1);

    #[test]
    fn frames_interleave_and_osr_starts_a_new_sequence() {
        let mut s = KblSink::new(3);
        s.on_entry(F);
        s.on_path(F, 1);
        s.on_entry(G); // a call in the middle of F's sequence
        s.on_path(G, 7);
        s.on_path(G, 8);
        s.on_return(G);
        s.on_path(F, 2); // continues F's sequence: <1, 2>
        s.on_osr(F);
        s.on_path(F, 3); // a new sequence: no <2, 3>
        s.on_return(F);
        let ipf = s.forest.to_ipf();
        assert_eq!(ipf.count(0, &[1, 2]), 1);
        assert_eq!(ipf.count(0, &[2, 3]), 0);
        assert_eq!(ipf.count(0, &[3]), 1);
        assert_eq!(ipf.count(1, &[7, 8]), 1);
        assert_eq!(ipf.count(0, &[1, 7]), 0);
        assert_eq!(s.depth(), 0);
    }

    #[test]
    fn unbalanced_events_do_not_panic() {
        let mut s = KblSink::new(2);
        s.on_return(F); // nothing to pop
        s.on_path(F, 4); // no frame: a fresh sequence
        s.on_path(F, 5);
        s.on_entry(G);
        s.on_path(F, 6); // G's frame on top: a fresh sequence for F
        s.on_osr(G);
        let ipf = s.forest.to_ipf();
        assert_eq!(ipf.count(0, &[4, 5]), 1);
        assert_eq!(ipf.count(0, &[5, 6]), 0);
        assert_eq!(ipf.count(0, &[6]), 1);
    }
}
