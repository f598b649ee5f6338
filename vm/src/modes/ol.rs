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

use hashbrown::HashMap;
use lang::bytecode::{FuncIdx, Program};
use profiler::counters::DENSE_LIMIT;
use profiler::overlap::{OlContext, OlGraph, PathValue};
use profiler::{BallLarus, Block, Cfg, PathEnds};

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::modes::bl::tierup::TieredBl;
use crate::modes::bl::{BlProbes, PathSink, TierSettings};
use crate::profile::{FunctionProfile, PathCount};
use crate::tier::cfg_build::FunctionCfg;
use crate::ProfileSettings;

/// What a Ball-Larus id of a tiered-up function means for its OL paths.
#[derive(Clone, Copy, Debug)]
struct IdValues {
    /// Its value in the path graph ([`OlGraph::value_of`]).
    value: PathValue,
    /// The value of the overlap it gives the path before it, when it starts at a loop header
    /// after a back edge ([`OlGraph::overlap_value`]).
    overlap: Option<u64>,
}

/// One tiered-up function's path graph, the values of its ids, worked out as they come, and
/// its OL path counts: in arrays indexed by id when the numbering has at most
/// [`DENSE_LIMIT`] ids (as `bl`'s dense counters), in hash tables otherwise.
#[derive(Debug)]
struct FunctionOl {
    cfg: Cfg,
    bl: BallLarus,
    graph: OlGraph,
    /// By Ball-Larus id (empty above the limit).
    dense_ids: Vec<Option<IdValues>>,
    sparse_ids: HashMap<u64, Option<IdValues>>,
    /// By OL id (empty above the limit).
    dense_counts: Vec<u64>,
    sparse_counts: HashMap<u64, u64>,
}

impl FunctionOl {
    fn new(tiered: &TieredBl, path_ends: PathEnds, k: u32) -> Result<FunctionOl, String> {
        let cfg = tiered.fc.cfg().clone();
        let graph = OlContext::new(&cfg, path_ends, k)
            .and_then(|cx| OlGraph::new(&cx))
            .map_err(|e| e.to_string())?;
        let dense = |n: u64| if n <= DENSE_LIMIT { n as usize } else { 0 };
        Ok(FunctionOl {
            dense_ids: vec![None; dense(tiered.bl.num_paths())],
            dense_counts: vec![0; dense(graph.num_paths())],
            cfg,
            bl: tiered.bl.clone(),
            graph,
            sparse_ids: HashMap::new(),
            sparse_counts: HashMap::new(),
        })
    }

    /// The values of Ball-Larus id `id` (`None`: not an id of this function's numbering).
    #[inline]
    fn values(&mut self, id: u64) -> Option<IdValues> {
        match self.dense_ids.get(id as usize) {
            Some(Some(v)) => Some(*v),
            Some(None) => {
                let v = self.work_out(id);
                self.dense_ids[id as usize] = v;
                v
            }
            None => match self.sparse_ids.get(&id) {
                Some(&v) => v,
                None => {
                    let v = self.work_out(id);
                    self.sparse_ids.insert(id, v);
                    v
                }
            },
        }
    }

    /// [`FunctionOl::values`] from the id's blocks.
    #[cold]
    fn work_out(&self, id: u64) -> Option<IdValues> {
        let p = self.bl.regenerate(&self.cfg, id)?;
        Some(IdValues {
            value: self.graph.value_of(&self.cfg, &p.nodes, p.end)?,
            overlap: self
                .graph
                .overlap_value(&self.cfg, &p.nodes)
                .map(|(value, _)| value),
        })
    }

    /// Counts OL path `ol`.
    #[inline]
    fn count(&mut self, ol: u64) {
        match self.dense_counts.get_mut(ol as usize) {
            Some(c) => *c += 1,
            None => *self.sparse_counts.entry(ol).or_insert(0) += 1,
        }
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

/// The `ol` mode's [`PathSink`]: per activation the head of the path waiting for its overlap,
/// and the OL path counts keyed by (function, id in its path graph).
#[derive(Debug)]
pub struct OlSink {
    k: u32,
    path_ends: PathEnds,
    functions: Vec<Option<FunctionOl>>,
    /// Tier-ups whose path graph could not be built (the function's paths are not counted).
    failures: Vec<String>,
    /// The running activation: its function (`u32::MAX`: none) and the waiting head.
    top: (u32, Option<u64>),
    /// The callers' `top`s, innermost last.
    stack: Vec<(u32, Option<u64>)>,
}

impl OlSink {
    /// A sink for OL-`k` paths under `path_ends` in a program of `num_functions` functions.
    pub fn new(k: u32, path_ends: PathEnds, num_functions: usize) -> OlSink {
        OlSink {
            k,
            path_ends,
            functions: (0..num_functions).map(|_| None).collect(),
            failures: Vec::new(),
            top: (u32::MAX, None),
            stack: Vec::with_capacity(64),
        }
    }
}

impl PathSink for OlSink {
    fn on_tier_up(&mut self, func: FuncIdx, tiered: &TieredBl) {
        match FunctionOl::new(tiered, self.path_ends, self.k) {
            Ok(f) => self.functions[func.index()] = Some(f),
            Err(e) => self.failures.push(format!("function {}: {e}", func.0)),
        }
    }

    fn on_entry(&mut self, func: FuncIdx) {
        let caller = std::mem::replace(&mut self.top, (u32::from(func.0), None));
        self.stack.push(caller);
    }

    fn on_return(&mut self, _func: FuncIdx) {
        self.top = self.stack.pop().unwrap_or((u32::MAX, None));
    }

    fn on_osr(&mut self, func: FuncIdx) {
        self.top = (u32::from(func.0), None);
    }

    fn on_path(&mut self, func: FuncIdx, id: u64) {
        if self.top.0 != u32::from(func.0) {
            // An unbalanced stream: a fresh activation record for the function.
            self.top = (u32::from(func.0), None);
        }
        let Some(f) = self.functions[func.index()].as_mut() else {
            return;
        };
        let Some(values) = f.values(id) else {
            return;
        };
        if let Some(head) = self.top.1.take() {
            if let Some(overlap) = values.overlap {
                f.count(head + overlap);
            }
        }
        match values.value {
            PathValue::Whole(ol) => f.count(ol),
            PathValue::Head(head) => self.top.1 = Some(head),
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
        let sink = OlSink::new(settings.k, settings.path_ends, program.functions.len());
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
        }
        crate::profile::sort_paths(&mut fp.paths);
        out.push(fp);
    }
    Ok(out)
}
