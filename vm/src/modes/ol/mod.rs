//! `--profile=ol:K`: overlapping paths (Tallam, Zhang & Gupta 2004, section 2) on top of `bl`'s
//! probes: each Ball-Larus path that ends by a back edge is counted with the blocks that run
//! after it, up to the `(K + 1)`-th predicate (the definition, the path graph and its numbering
//! are [`profiler::overlap`]'s).
//!
//! [`OlSink`] is a [`PathSink`] run as [`BlProbes<OlSink>`], so tiering, on-stack replacement and
//! the Ball-Larus ids are exactly those of `bl`. The paper adds a second path register to the
//! loop's edges, guarded by a predicate counter. The VM does not need probes on those edges:
//! an OL path's id in the path graph is the value of its Ball-Larus path (up to the
//! overlapping graph's root, [`PathValue::Head`]) plus the value of its overlap, and the
//! overlap is the start of the next path of the same activation, which the sink sees
//! complete. So per activation the sink keeps the head of the last path that ended by a back
//! edge; when the next path completes it counts `head + overlap value of that path`; a path
//! that does not end by a back edge is counted with its own id ([`PathValue::Whole`]). Both
//! values depend on the Ball-Larus id alone and are worked out once per id, from its blocks.
//!
//! Counts are exact for every path completed in instrumented code with its predecessor in the
//! same activation. An on-stack replacement starts a fresh activation record (the path before
//! it ran in tier 0: the first instrumented path is counted, not the overlap reaching into it),
//! and a run that stops (a trap, `exit`, an interrupt) in the middle of the path after a back
//! edge loses that one OL path: its overlap never completed as a path.
//!
//! The same sink counts the paths across calls of the paper's section 3 (module `calls`), and
//! the profile carries the bounds both kinds of counts give (module `estimates`, written in the
//! report by module `report`).

mod calls;
mod estimates;
mod report;

use calls::{
    call_pcs, id_calls, CallSites, CrossCounts, CrossKey, Frame, IdCalls, Parts, Pending,
    MAX_PENDING, NONE,
};
use hashbrown::HashMap;
use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::counters::DENSE_LIMIT;
use profiler::overlap::calls::Crossing;
use profiler::overlap::{OlContext, OlGraph, PathValue};
use profiler::{BallLarus, Block, Cfg, PathEnds};
use std::collections::BTreeMap;

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::modes::bl::tierup::TieredBl;
use crate::modes::bl::{BlProbes, PathSink, TierSettings};
use crate::profile::text::ReportOptions;
use crate::profile::{FunctionProfile, PathCount, Profile};
use crate::tier::cfg_build::FunctionCfg;
use crate::ProfileSettings;

/// What a Ball-Larus id of a tiered-up function means for its OL paths, in 24 bytes (read
/// on every path).
#[derive(Clone, Copy, Debug, Default)]
struct IdValues {
    /// Its value in the path graph ([`OlGraph::value_of`]): its OL id ([`WHOLE`]) or the
    /// value of its head ([`HEAD`]).
    value: u64,
    /// The value of the overlap it gives the path before it, when it starts at a loop header
    /// after a back edge ([`OlGraph::overlap_value`]); [`NO_OVERLAP`] otherwise.
    overlap: u64,
    /// Its meaning across calls: an index into [`FunctionOl::id_calls`].
    calls: u32,
    /// [`UNKNOWN`] (not worked out yet), [`WHOLE`], [`HEAD`] or [`INVALID`].
    kind: u8,
}

/// [`IdValues::kind`]: not worked out yet.
const UNKNOWN: u8 = 0;
/// [`IdValues::kind`]: the path is counted whole, `value` is its OL id.
const WHOLE: u8 = 1;
/// [`IdValues::kind`]: the path waits for its overlap, `value` is its head's value.
const HEAD: u8 = 2;
/// [`IdValues::kind`]: not an id of the function's numbering.
const INVALID: u8 = 3;
/// [`IdValues::overlap`]: the path gives no overlap.
const NO_OVERLAP: u64 = u64::MAX;

/// One tiered-up function's path graph, the values of its ids, worked out as they come, and
/// its OL path counts: in arrays indexed by id when the numbering has at most
/// [`DENSE_LIMIT`] ids (as `bl`'s dense counters), in hash tables otherwise.
#[derive(Debug)]
struct FunctionOl {
    cfg: Cfg,
    bl: BallLarus,
    graph: OlGraph,
    /// By Ball-Larus id (empty above the limit).
    dense_ids: Vec<IdValues>,
    sparse_ids: HashMap<u64, IdValues>,
    /// By OL id (empty above the limit).
    dense_counts: Vec<u64>,
    sparse_counts: HashMap<u64, u64>,
    /// The degree of overlap.
    k: u32,
    /// Whether each block is a predicate.
    is_predicate: Vec<bool>,
    /// Its call sites.
    sites: CallSites,
    /// The meaning across calls of the ids seen ([`IdValues::calls`]).
    id_calls: Vec<IdCalls>,
    /// The parts of paths across calls that run in it.
    parts: Parts,
}

impl FunctionOl {
    /// The function of `tiered`, whose calls are at `call_pcs`.
    fn new(
        tiered: &TieredBl,
        path_ends: PathEnds,
        k: u32,
        call_pcs: &[Pc],
    ) -> Result<FunctionOl, String> {
        let sites = CallSites::new(call_pcs, &tiered.fc);
        let cfg = tiered.fc.cfg().clone();
        let cx = OlContext::new(&cfg, path_ends, k).map_err(|e| e.to_string())?;
        let graph = OlGraph::new(&cx).map_err(|e| e.to_string())?;
        let is_predicate = cfg.blocks().map(|b| cx.is_predicate(b)).collect();
        let dense = |n: u64| if n <= DENSE_LIMIT { n as usize } else { 0 };
        Ok(FunctionOl {
            k,
            is_predicate,
            sites,
            id_calls: Vec::new(),
            parts: Parts::default(),
            dense_ids: vec![IdValues::default(); dense(tiered.bl.num_paths())],
            dense_counts: vec![0; dense(graph.num_paths())],
            cfg,
            bl: tiered.bl.clone(),
            graph,
            sparse_ids: HashMap::new(),
            sparse_counts: HashMap::new(),
        })
    }

    /// The values of Ball-Larus id `id` (kind [`INVALID`]: not an id of this function's
    /// numbering).
    #[inline(always)]
    fn values(&mut self, id: u64) -> IdValues {
        match self.dense_ids.get(id as usize) {
            Some(v) if v.kind != UNKNOWN => *v,
            _ => self.values_slow(id),
        }
    }

    /// [`FunctionOl::values`] of an id seen for the first time, or above the dense limit.
    #[cold]
    #[inline(never)]
    fn values_slow(&mut self, id: u64) -> IdValues {
        if (id as usize) < self.dense_ids.len() {
            let v = self.work_out(id);
            self.dense_ids[id as usize] = v;
            return v;
        }
        match self.sparse_ids.get(&id) {
            Some(&v) => v,
            None => {
                let v = self.work_out(id);
                self.sparse_ids.insert(id, v);
                v
            }
        }
    }

    /// [`FunctionOl::values`] from the id's blocks.
    #[cold]
    fn work_out(&mut self, id: u64) -> IdValues {
        let invalid = IdValues {
            kind: INVALID,
            ..IdValues::default()
        };
        let Some(p) = self.bl.regenerate(&self.cfg, id) else {
            return invalid;
        };
        let Some(value) = self.graph.value_of(&self.cfg, &p.nodes, p.end) else {
            return invalid;
        };
        let overlap = self
            .graph
            .overlap_value(&self.cfg, &p.nodes)
            .map_or(NO_OVERLAP, |(value, _)| value);
        let calls = self.id_calls.len() as u32;
        let meaning = id_calls(
            &p.nodes,
            &self.sites,
            self.k,
            &self.is_predicate,
            &mut self.parts,
        );
        self.id_calls.push(meaning);
        let (value, kind) = match value {
            PathValue::Whole(ol) => (ol, WHOLE),
            PathValue::Head(head) => (head, HEAD),
        };
        IdValues {
            value,
            overlap,
            calls,
            kind,
        }
    }

    /// Counts OL path `ol`.
    #[inline(always)]
    fn count(&mut self, ol: u64) {
        match self.dense_counts.get_mut(ol as usize) {
            Some(c) => *c += 1,
            None => self.count_sparse(ol),
        }
    }

    /// [`FunctionOl::count`] above the dense limit.
    #[cold]
    #[inline(never)]
    fn count_sparse(&mut self, ol: u64) {
        *self.sparse_counts.entry(ol).or_insert(0) += 1;
    }

    /// Every counted OL path, `(id, count)`.
    fn counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self
            .dense_counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(id, &c)| (id as u64, c));
        dense.chain(self.sparse_counts.iter().map(|(&id, &c)| (id, c)))
    }
}

/// The `ol` mode's [`PathSink`]: per activation the head of the path waiting for its overlap
/// and the calls of its running path (module `calls`); the OL path counts keyed by (function, id in
/// its path graph) and the counts of paths across calls.
#[derive(Debug)]
pub struct OlSink {
    k: u32,
    path_ends: PathEnds,
    functions: Vec<Option<FunctionOl>>,
    /// Every function's calls ([`FunctionOl`] places them in blocks at tier-up).
    call_pcs: Vec<Vec<Pc>>,
    /// Tier-ups whose path graph could not be built (the function's paths are not counted).
    failures: Vec<String>,
    /// The running activation.
    top: Frame,
    /// The callers' frames, innermost last.
    stack: Vec<Frame>,
    /// The calls of the running paths of every activation on the stack, each frame's from
    /// its `calls_from`.
    pending: Vec<Pending>,
    /// The I-OL-K and II-OL-K path counts.
    cross: CrossCounts,
}

impl OlSink {
    /// A sink for OL-`k` paths under `path_ends` in `program`.
    pub fn new(k: u32, path_ends: PathEnds, program: &Program) -> OlSink {
        OlSink {
            k,
            path_ends,
            functions: (0..program.functions.len()).map(|_| None).collect(),
            call_pcs: program.functions.iter().map(call_pcs).collect(),
            failures: Vec::new(),
            top: Frame::new(u32::MAX, 0),
            stack: Vec::with_capacity(64),
            pending: Vec::with_capacity(64),
            cross: CrossCounts::default(),
        }
    }

    /// Counts the calls the running path of the top activation made, which completed as
    /// the path of `f` whose meaning across calls is `calls`.
    #[inline(never)]
    fn count_calls(&mut self, f: usize, calls: u32) {
        let from = self.top.calls_from as usize;
        if let Some(func) = self.functions[f].as_ref() {
            let sites = &func.id_calls[calls as usize].sites;
            let pending = &self.pending[from..];
            if sites.len() == pending.len() {
                for (&(site, before, after), p) in sites.iter().zip(pending) {
                    let key = |crossing, before, after| CrossKey {
                        crossing,
                        caller: f as u32,
                        site,
                        callee: p.callee,
                        before,
                        after,
                    };
                    self.cross.count(key(Crossing::Into, before, p.first));
                    self.cross.count(key(Crossing::Out, p.last, after));
                }
            }
        }
        self.pending.truncate(from);
    }

    /// The callee `done` returned to the running activation: records the call when the
    /// callee's first and last paths are known.
    #[inline]
    fn record_call(&mut self, done: &Frame) {
        if done.first == NONE || self.pending.len() - self.top.calls_from as usize >= MAX_PENDING {
            return;
        }
        let Some(callee) = self
            .functions
            .get(done.func as usize)
            .and_then(Option::as_ref)
        else {
            return;
        };
        let pending = Pending {
            callee: done.func,
            first: callee.id_calls[done.first as usize].first,
            last: callee.id_calls[done.last as usize].whole,
        };
        self.pending.push(pending);
    }

    /// A fresh activation of `func` that an on-stack replacement (or an unbalanced stream)
    /// starts in the middle: the calls of the path it interrupts are dropped.
    #[cold]
    #[inline(never)]
    fn restart(&mut self, func: FuncIdx) {
        let from = self.top.calls_from as usize;
        self.pending.truncate(from);
        self.top = Frame::new(u32::from(func.0), from);
        self.top.late = true;
    }
}

impl PathSink for OlSink {
    fn on_tier_up(&mut self, func: FuncIdx, tiered: &TieredBl) {
        match FunctionOl::new(tiered, self.path_ends, self.k, &self.call_pcs[func.index()]) {
            Ok(f) => self.functions[func.index()] = Some(f),
            Err(e) => self.failures.push(format!("function {}: {e}", func.0)),
        }
    }

    #[inline]
    fn on_entry(&mut self, func: FuncIdx) {
        let callee = Frame::new(u32::from(func.0), self.pending.len());
        let caller = std::mem::replace(&mut self.top, callee);
        self.stack.push(caller);
    }

    #[inline]
    fn on_return(&mut self, _func: FuncIdx) {
        let caller = self.stack.pop().unwrap_or_else(|| Frame::new(u32::MAX, 0));
        let done = std::mem::replace(&mut self.top, caller);
        self.pending.truncate(done.calls_from as usize);
        if done.last != NONE {
            self.record_call(&done);
        }
    }

    fn on_osr(&mut self, func: FuncIdx) {
        self.restart(func);
    }

    fn on_path(&mut self, func: FuncIdx, id: u64) {
        if self.top.func != u32::from(func.0) {
            self.restart(func);
        }
        let Some(f) = self.functions[func.index()].as_mut() else {
            return;
        };
        let values = f.values(id);
        if values.kind == INVALID {
            return;
        }
        let head = std::mem::replace(&mut self.top.head, u64::MAX);
        if head != u64::MAX && values.overlap != NO_OVERLAP {
            f.count(head + values.overlap);
        }
        if values.kind == WHOLE {
            f.count(values.value);
        } else {
            self.top.head = values.value;
        }
        if self.top.last == NONE && !self.top.late {
            self.top.first = values.calls;
        }
        self.top.last = values.calls;
        if self.pending.len() > self.top.calls_from as usize {
            self.count_calls(func.index(), values.calls);
        }
    }
}

/// The `ol:K` mode.
pub struct Ol;

impl Profiler for Ol {
    type Probes<'p> = BlProbes<'p, OlSink>;

    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<BlProbes<'p, OlSink>, String> {
        let sink = OlSink::new(settings.k, settings.path_ends, program);
        Ok(BlProbes::new(
            program,
            TierSettings::of(settings),
            sink,
            branch,
        ))
    }

    fn finish(probes: &mut BlProbes<'_, OlSink>) -> Finished {
        let mut finished = probes.finished();
        finished
            .warnings
            .extend(probes.sink.failures.iter().cloned());
        finished
    }

    /// Every function's OL paths: a tiered-up function's counted ones, regenerated in its
    /// path graph (`static_paths` is the graph's number of paths).
    fn profile(
        probes: BlProbes<'_, OlSink>,
        program: &Program,
        settings: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        Some(ol_profiles(&probes, program, settings))
    }

    /// The flows and pairs of each loop and call site (module `report`).
    fn report_section(
        profile: &Profile,
        function: &FunctionProfile,
        options: &ReportOptions,
        out: &mut String,
    ) {
        if let Some(section) = &function.overlap {
            report::render(out, profile, function, section, options);
        }
    }

    fn describe(probes: &BlProbes<'_, OlSink>, event: &WatchEvent) -> Option<String> {
        match event {
            WatchEvent::Path { func, id } => probes.path_text(*func, *id),
            _ => probes.describe_tiering(event),
        }
    }
}

/// The profiles of [`Ol::profile`].
fn ol_profiles(
    probes: &BlProbes<'_, OlSink>,
    program: &Program,
    settings: &ProfileSettings,
) -> Result<Vec<FunctionProfile>, String> {
    let sink = &probes.sink;
    let mut out = Vec::with_capacity(program.functions.len());
    let mut facts = Vec::with_capacity(program.functions.len());
    for (i, func) in program.functions.iter().enumerate() {
        let fc =
            FunctionCfg::of_function(func).map_err(|e| format!("function {}: {e}", func.name))?;
        let tiered = probes.tiered(FuncIdx(i as u16));
        // A function that never tiered up still has its path graph's size.
        let untiered;
        let graph = match &sink.functions[i] {
            Some(f) => &f.graph,
            None => {
                untiered = OlContext::new(fc.cfg(), settings.path_ends, settings.k)
                    .and_then(|cx| OlGraph::new(&cx))
                    .map_err(|e| format!("function {}: {e}", func.name))?;
                &untiered
            }
        };
        let mut fp = FunctionProfile::new(
            &func.name,
            func.loc.line,
            &fc,
            graph.num_paths(),
            tiered.map(|t| t.tiered_up_at),
            Vec::new(),
        );
        let counted = sink.functions[i].iter().flat_map(FunctionOl::counts);
        let mut ol = BTreeMap::new();
        for (id, count) in counted {
            let p = graph.regenerate(fc.cfg(), id).ok_or_else(|| {
                format!(
                    "function {}: OL path id {id} is not in its path graph",
                    func.name
                )
            })?;
            let ids = |bs: &[Block]| bs.iter().map(|b| b.as_u32()).collect::<Vec<u32>>();
            fp.paths.push(PathCount {
                id,
                count,
                blocks: ids(&p.nodes),
                end: p.end.map(|b| b.as_u32()),
                overlap: ids(&p.overlap),
            });
            ol.insert(p, count);
        }
        crate::profile::sort_paths(&mut fp.paths);
        out.push(fp);
        facts.push(estimates::Facts {
            overlaps: graph.overlaps().collect(),
            fc,
            ol,
        });
    }
    estimates::attach(program, settings, sink, &facts, &mut out);
    Ok(out)
}
