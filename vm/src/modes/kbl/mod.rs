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

pub mod report;

use std::fmt::Write;

use lang::bytecode::{FuncIdx, Program};
use profiler::kblpp::{Cursor, Ipf, KSlabForest, RootKey, Siblings, Spill};

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::modes::bl::{BlProbes, PathSink, TierSettings};
use crate::profile::text::ReportOptions;
use crate::profile::{FunctionProfile, IpfEntry, KblFunctionStats, Profile};
use crate::ProfileSettings;

/// The function of [`KblSink::top`] when no frame is active: never equal to a `u16` index.
const NO_FRAME: u32 = u32::MAX;

/// [`KblSink::last`] when the running frame has no path to repeat: never a BL id (ids are
/// below the number of paths, which fits a `u64`).
const NO_PATH: u64 = u64::MAX;

/// Repeats of the running frame's last path pushed one by one before the next ones are held
/// back (a short run costs less pushed than held and pushed with [`KSlabForest::push_run`]).
const PUSH_REPEATS: u64 = 8;

/// The `kbl` mode's [`PathSink`]: a k-slab forest and one cursor per active frame.
///
/// The running frame's cursor is kept apart from the callers' (in `top`, at a fixed place in
/// the sink), so a path end reads and updates it without going through the stack.
///
/// **Repeats.** A hot loop often repeats one path (`bl` counts those with a last-path cache).
/// A path is pushed when it completes, except the repeats of the running frame's previous
/// path after the first 8 (`PUSH_REPEATS`): those are held back (one comparison and one
/// increment each) and go into the forest with [`KSlabForest::push_run`] (exactly their
/// pushes one by one, in `O(k)`) when another path comes, and before any call, return,
/// on-stack replacement or read of the forest. So the forest receives the pushes in stream
/// order and ends up exactly as with one push per path (same nodes, counters, sibling order
/// and work counters).
#[derive(Clone, Debug)]
pub struct KblSink {
    /// The k-SF built so far, except the held repeats.
    forest: KSlabForest,
    /// The running frame: its function as a `u32` (`NO_FRAME` when none) and its cursor.
    top: (u32, Cursor),
    /// The running frame's last path (`NO_PATH`: none since it started, called or returned).
    last: u64,
    /// Completions of `last` in a row after its first; those above [`PUSH_REPEATS`] are held.
    repeats: u64,
    /// The callers' `top`s, innermost last (the first one entered is `NO_FRAME`'s); their
    /// repeats were pushed when they called.
    stack: Vec<(u32, Cursor)>,
    /// `--max-nodes`, 0 for none.
    max_nodes: usize,
    /// The counts pruned away ([`profiler::kblpp::spill`]).
    spill: Spill,
    /// Prunings done.
    prunings: u64,
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
            last: NO_PATH,
            repeats: 0,
            stack: Vec::with_capacity(64),
            max_nodes: 0,
            spill: Spill::new(1, 1),
            prunings: 0,
        }
    }

    /// Keeps the forest within `max_nodes` nodes (`--max-nodes`, at least 2): when it reaches
    /// them, its coldest nodes are pruned down to half (those the active frames stand on are
    /// kept) and their counts spilled by the nodes' last `k` labels, in a spill of
    /// `max_nodes` such tails and `4 x max_nodes` sequences ([`KSlabForest::prune`],
    /// [`Spill`]).
    pub fn bounded(mut self, max_nodes: usize) -> KblSink {
        let max_nodes = max_nodes.max(2);
        self.forest.set_node_limit(max_nodes);
        self.max_nodes = max_nodes;
        self.spill = Spill::new(self.forest.k(), max_nodes);
        self
    }

    /// Prunes the forest to half its bound (module docs of [`KSlabForest::prune`]); if the
    /// active frames alone need more, the next pruning waits until the forest has grown by
    /// half the bound again.
    #[cold]
    #[inline(never)]
    fn prune(&mut self) {
        let keep = self.max_nodes / 2;
        let mut cursors: Vec<&mut Cursor> = std::iter::once(&mut self.top.1)
            .chain(self.stack.iter_mut().map(|(_, c)| c))
            .collect();
        let stats = self.forest.prune(keep, &mut cursors, &mut self.spill);
        self.prunings += 1;
        self.forest
            .set_node_limit(self.max_nodes.max(stats.kept + keep.max(1)));
    }

    /// The counts pruned away so far, and the prunings done.
    pub fn spilled(&self) -> (&Spill, u64) {
        (&self.spill, self.prunings)
    }

    /// The forest with every path completed so far (the held repeats pushed first).
    pub fn finish(&mut self) -> &KSlabForest {
        self.flush();
        &self.forest
    }

    /// The state of the forest and of the running frame's cursor, in one line (for watching a
    /// run): nodes, the cursor's depth, and the repeats held back.
    pub fn summary(&self) -> String {
        let cursor = self.top.1;
        let cursor = match (cursor.depth(), cursor.node()) {
            (Some(d), Some(n)) => {
                // The paper's τ walks the first slab (levels 0 to k - 2), β the later ones.
                let name = if d + 1 < self.forest.k() { "τ" } else { "β" };
                let node = self.forest.node(n);
                format!(
                    "{name} at depth {d} (node {n}: path {}, count {})",
                    node.label(),
                    node.count()
                )
            }
            _ => "cursor fresh (τ = β = null)".to_string(),
        };
        let held = self.repeats.saturating_sub(PUSH_REPEATS);
        let held = if held > 0 {
            format!(", {held} repeats held")
        } else {
            String::new()
        };
        format!("k-SF {} nodes, {cursor}{held}", self.forest.len())
    }

    /// The number of nodes of the forest (the held repeats not pushed yet).
    pub fn forest_len(&self) -> usize {
        self.forest.len()
    }

    /// Number of frames whose cursor is kept (the call depth as the sink sees it).
    pub fn depth(&self) -> usize {
        let saved = self.stack.iter().filter(|(f, _)| *f != NO_FRAME).count();
        saved + usize::from(self.top.0 != NO_FRAME)
    }

    /// Pushes the running frame's held repeats and forgets its last path (the frame is about
    /// to change, or the forest to be read).
    #[inline(always)]
    fn flush(&mut self) {
        if self.repeats > PUSH_REPEATS {
            self.push_held();
        }
        self.repeats = 0;
        self.last = NO_PATH;
    }

    /// Pushes the held repeats of `last` (those above [`PUSH_REPEATS`]).
    #[inline(never)]
    fn push_held(&mut self) {
        let key = RootKey::new(self.top.0, self.last);
        let held = self.repeats - PUSH_REPEATS;
        self.repeats = 0;
        if self.forest.push_run(&mut self.top.1, key, held) {
            self.prune();
        }
    }

    /// The path of `func` arrived with no matching frame on top: a fresh sequence for it, in
    /// place of the running frame's (or as the running frame, when there is none).
    #[cold]
    #[inline(never)]
    fn unbalanced(&mut self, func: FuncIdx, id: u64) {
        self.flush();
        self.top = (u32::from(func.0), self.forest.start());
        self.advance(id);
    }

    /// A path of the running frame other than its last one: pushes the held repeats (in
    /// another function, so that this one calls nothing on its common path and saves no
    /// registers), then the path.
    #[inline(never)]
    fn advance(&mut self, id: u64) {
        if self.repeats > PUSH_REPEATS {
            self.advance_after_held(id);
            return;
        }
        self.repeats = 0;
        self.last = id;
        self.push(id);
    }

    /// [`advance`](Self::advance) after held repeats.
    #[inline(never)]
    fn advance_after_held(&mut self, id: u64) {
        self.push_held();
        self.last = id;
        self.push(id);
    }

    /// Pushes a repeat of the running frame's last path (out of line, so that a held repeat,
    /// the caller's other branch, needs no registers saved).
    #[inline(never)]
    fn push_repeat(&mut self) {
        self.push(self.last);
    }

    /// Pushes a completion of `id` by the running frame.
    #[inline(always)]
    fn push(&mut self, id: u64) {
        // True only on the forest's slow path, when a node was added at the bound.
        if self
            .forest
            .push(&mut self.top.1, RootKey::new(self.top.0, id))
        {
            self.prune();
        }
    }
}

impl PathSink for KblSink {
    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        self.flush();
        let start = self.forest.start();
        let caller = std::mem::replace(&mut self.top, (u32::from(func.0), start));
        self.stack.push(caller);
    }

    #[inline(always)]
    fn on_return(&mut self, _func: FuncIdx) {
        self.flush();
        self.top = self.stack.pop().unwrap_or((NO_FRAME, Cursor::default()));
    }

    fn on_osr(&mut self, func: FuncIdx) {
        self.flush();
        self.top = (u32::from(func.0), self.forest.start());
    }

    #[inline(always)]
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        if self.top.0 != u32::from(func.0) {
            self.unbalanced(func, id);
        } else if self.last != id {
            self.advance(id);
        } else {
            self.repeats += 1;
            if self.repeats <= PUSH_REPEATS {
                self.push_repeat();
            }
        }
    }
}

/// The `kbl:K` mode.
pub struct Kbl;

impl Profiler for Kbl {
    type Probes<'p> = BlProbes<'p, KblSink>;

    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<BlProbes<'p, KblSink>, String> {
        let tiering = TierSettings::of(settings);
        let sink = match settings.max_nodes {
            Some(n) => KblSink::new(settings.k).bounded(n),
            None => KblSink::new(settings.k),
        };
        Ok(BlProbes::new(program, tiering, sink, branch))
    }

    fn finish(probes: &mut BlProbes<'_, KblSink>) -> Finished {
        probes.finished()
    }

    /// The BL `paths` from the k-IPF's first level, plus `ipf` and `stats` per function.
    fn profile(
        mut probes: BlProbes<'_, KblSink>,
        program: &Program,
        _: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        let ipf = probes.sink.finish().to_ipf();
        Some(kbl_profiles(&probes, &ipf, program.functions.len()))
    }

    fn report_section(
        profile: &Profile,
        function: &FunctionProfile,
        options: &ReportOptions,
        out: &mut String,
    ) {
        if let Some(s) = function.kbl_stats.filter(|s| s.max_nodes > 0) {
            let _ = if s.lost_at_most > 0 {
                writeln!(
                    out,
                    "  LOWER BOUNDS: the k-SF was kept within {} nodes ({} prunings) and lost \
                     counts: every count of this function is at most {} below the truth",
                    s.max_nodes, s.prunings, s.lost_at_most
                )
            } else {
                writeln!(
                    out,
                    "  the k-SF was kept within {} nodes ({} prunings); every count is exact",
                    s.max_nodes, s.prunings
                )
            };
        }
        if let Some(ipf) = function.ipf.as_deref().filter(|i| !i.is_empty()) {
            report::render_ipf(out, profile.k, function, ipf, options);
        }
    }

    fn describe(probes: &BlProbes<'_, KblSink>, event: &WatchEvent) -> Option<String> {
        match event {
            WatchEvent::Path { func, id } => Some(format!(
                "{}; {}",
                probes.path_text(*func, *id).unwrap_or_default(),
                probes.sink.summary()
            )),
            WatchEvent::Entry { .. } | WatchEvent::Return { .. } => Some(probes.sink.summary()),
            _ => probes.describe_tiering(event),
        }
    }

    fn watched_size(probes: &BlProbes<'_, KblSink>) -> Option<(u64, &'static str)> {
        Some((probes.sink.forest_len() as u64, "k-SF node"))
    }
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
/// lexicographic order of the id sequences), and the statistics (the run-wide ones are
/// [`Ipf::stats`]). A bounded run (`--max-nodes`) adds the counts its prunings spilled, so the
/// entries are those of the unbounded forest; a function whose spilled counts did not all fit
/// gets `lost_at_most` (all its counts lower bounds).
pub fn kbl_profiles(
    probes: &BlProbes<'_, KblSink>,
    ipf: &Ipf,
    num_functions: usize,
) -> Result<Vec<FunctionProfile>, String> {
    let (spill, prunings) = probes.sink.spilled();
    let mut entries: Vec<Vec<IpfEntry>> = (0..num_functions)
        .map(|i| ipf_entries(ipf, i as u32))
        .collect();
    if !spill.is_empty() {
        let mut spilled: Vec<Vec<(Vec<u64>, u64)>> = vec![Vec::new(); num_functions];
        for ((f, ids), count) in spill.ipf_counts() {
            if let Some(list) = spilled.get_mut(f as usize) {
                list.push((ids.to_vec(), count));
            }
        }
        for (e, spilled) in entries.iter_mut().zip(spilled) {
            *e = with_spilled(std::mem::take(e), spilled);
        }
    }
    let counts: Vec<Vec<(u64, u64)>> = entries
        .iter()
        .map(|es| {
            es.iter()
                .filter(|e| e.ids.len() == 1)
                .map(|e| (e.ids[0], e.count))
                .collect()
        })
        .collect();
    let mut functions = probes.function_profiles(&counts)?;
    let node_bytes = std::mem::size_of::<profiler::kblpp::KsfNode>() as u64;
    for ((i, fp), entries) in functions.iter_mut().enumerate().zip(entries) {
        let mut stats = KblFunctionStats::default();
        if let Some(f) = ipf.function(i as u32) {
            stats = KblFunctionStats::new(
                (f.hash_ops, f.slab_starts),
                f.ksf_nodes,
                entries.len() as u64,
                f.shape.avg_internal_degree,
                f.shape.avg_leaf_depth,
                f.ksf_nodes * node_bytes,
            );
        } else if !entries.is_empty() {
            // Every node of the function was pruned: its entries come from the spill alone.
            stats.ipf_nodes = entries.len() as u64;
        }
        if probes.sink.max_nodes > 0 {
            stats.max_nodes = probes.sink.max_nodes as u64;
            stats.prunings = prunings;
            stats.lost_at_most = spill.evicted(i as u32);
        }
        fp.ipf = Some(entries);
        fp.kbl_stats = Some(stats);
    }
    Ok(functions)
}

/// The k-IPF nodes of `function` as entries, in preorder (lexicographic order).
fn ipf_entries(ipf: &Ipf, function: u32) -> Vec<IpfEntry> {
    let mut entries = Vec::new();
    if let Some(f) = ipf.function(function) {
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
    }
    entries
}

/// `entries` of a function with the counts spilled for it added, in lexicographic order,
/// every prefix at least the sum of its extensions (module docs of
/// [`profiler::kblpp::spill`]): the entries stay a k-IPF.
fn with_spilled(entries: Vec<IpfEntry>, spilled: Vec<(Vec<u64>, u64)>) -> Vec<IpfEntry> {
    use std::collections::BTreeMap;
    let mut merged: BTreeMap<Vec<u64>, u64> =
        entries.into_iter().map(|e| (e.ids, e.count)).collect();
    for (ids, count) in spilled {
        let c = merged.entry(ids).or_default();
        *c = c.saturating_add(count);
    }
    // Property 1 (a sequence occurs at least as often as its extensions together) holds of
    // the true counts; where evictions left a prefix below its extensions' sum, or missing,
    // it gets that sum, still a lower bound. Longest first, so that a raised prefix counts
    // toward its own parent.
    let longest = merged.keys().map(Vec::len).max().unwrap_or(0);
    for len in (2..=longest).rev() {
        let mut sums: BTreeMap<Vec<u64>, u64> = BTreeMap::new();
        for (ids, &c) in merged.iter().filter(|(ids, _)| ids.len() == len) {
            let s = sums.entry(ids[..len - 1].to_vec()).or_default();
            *s = s.saturating_add(c);
        }
        for (prefix, sum) in sums {
            let c = merged.entry(prefix).or_default();
            *c = (*c).max(sum);
        }
    }
    merged
        .into_iter()
        .filter(|&(_, c)| c > 0)
        .map(|(ids, count)| IpfEntry { ids, count })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use profiler::kblpp::NodeId;

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
        let ipf = s.finish().to_ipf();
        assert_eq!(ipf.count(0, &[1, 2]), 1);
        assert_eq!(ipf.count(0, &[2, 3]), 0);
        assert_eq!(ipf.count(0, &[3]), 1);
        assert_eq!(ipf.count(1, &[7, 8]), 1);
        assert_eq!(ipf.count(0, &[1, 7]), 0);
        assert_eq!(s.depth(), 0);
    }

    /// Every node of the arena, with its children in their order.
    fn arena(forest: &KSlabForest) -> Vec<(profiler::kblpp::KsfNode, Vec<NodeId>)> {
        (0..forest.len())
            .map(NodeId::new)
            .map(|id| (*forest.node(id), forest.children(id).collect()))
            .collect()
    }

    #[test]
    fn runs_build_the_forest_of_one_push_per_path() {
        // A pseudo-random balanced event stream (calls, returns, on-stack replacements, paths
        // that often repeat) into the sink, and the same stream pushed path by path with a
        // stack of cursors: the arenas must be equal node for node (sibling order included),
        // and so the work counters.
        for (k, siblings) in [
            (1, Siblings::Append),
            (2, Siblings::Append),
            (4, Siblings::Transpose),
            (8, Siblings::Append),
            (8, Siblings::MoveToFront),
            (16, Siblings::MoveToFrontAfter(2)),
        ] {
            let mut sink = KblSink::with_siblings(k, siblings);
            let mut plain = KSlabForest::with_siblings(k, siblings);
            let mut frames: Vec<(FuncIdx, Cursor)> = Vec::new();
            let mut x = u64::from(k) * 7919;
            let mut id = 0u64;
            for _ in 0..40_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = x >> 40;
                let func = FuncIdx((frames.len() % 3) as u16);
                match r % 100 {
                    0..=2 if frames.len() < 6 => {
                        sink.on_entry(func);
                        frames.push((func, plain.start()));
                    }
                    3..=5 if !frames.is_empty() => {
                        let (f, _) = frames.pop().unwrap();
                        sink.on_return(f);
                    }
                    6 if !frames.is_empty() => {
                        let top = frames.last_mut().unwrap();
                        sink.on_osr(top.0);
                        top.1 = plain.start();
                    }
                    _ => {
                        if let Some((f, cursor)) = frames.last_mut() {
                            // Repeat the last id 80% of the time, else one of 5.
                            if r % 5 == 0 {
                                id = (r >> 8) % 5;
                            }
                            sink.on_path(*f, id);
                            plain.push(cursor, RootKey::new(u32::from(f.0), id));
                        }
                    }
                }
            }
            let forest = sink.finish();
            assert_eq!(arena(forest), arena(&plain), "k = {k}, {siblings}");
            assert_eq!(forest.counters(), plain.counters(), "k = {k}, {siblings}");
        }
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
        let ipf = s.finish().to_ipf();
        assert_eq!(ipf.count(0, &[4, 5]), 1);
        assert_eq!(ipf.count(0, &[5, 6]), 0);
        assert_eq!(ipf.count(0, &[6]), 1);
    }
}
