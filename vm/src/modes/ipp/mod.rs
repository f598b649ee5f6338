//! `--profile=ipp:context` and `--profile=ipp:piecewise`: Melski & Reps' interprocedural paths
//! (1998; the numbering, the run-time state machine and regeneration are
//! [`profiler::interproc`]'s).
//!
//! **Whole program.** A path number depends on the whole call graph (each caller's `ψ`
//! functions take its callees' in), so every function is instrumented before the program
//! starts, from one numbering of the program's supergraph ([`graph`]); `--tier-up` does not
//! apply. Tiering functions one by one would leave the callers of an instrumented callee
//! uninstrumented, and the paths crossing them could not be numbered.
//!
//! **Probes.** The paper's optimisation (section 5.5.1) splits each `ρ_e(nvc) = a·nvc + b`
//! into what needs the context and what does not; most edges have `a = 0`. An edge with a
//! constant `ρ` gets a `PathAdd b` on the machine's path register, as in `bl`; an edge whose
//! `ρ` needs `nvc`, an edge that ends a path, and each call (right before the call
//! instruction, with its site's callee and return-site `ψ` worked out) get one `ProbePath k`,
//! which hands the register to the sink and clears it. The register is *not* saved across
//! calls (the mode does not set `Probes::PATHS`): like the paper's `pathNum`, passed by
//! reference, it runs on through a callee and back, and a callee's increments reach the sink
//! at the caller's next event. Only a root's exit (where its path may end: `main`, a procedure
//! called recursively or through a pointer) has a `ProbePath` to hand the register over. So
//! the sink sees the constants' sum at each of its events, and the path number is the paper's
//! whatever the order of the additions. The sink keeps the paper's state
//! ([`PathCounter`]): `pathNum`, shared along the call chain, and per activation
//! `numValidCompsFromExit` (the paper's extra by-value parameter, here a field of the sink's
//! frame record, section 5.5), `pathNumOnEntry` and the caller's `pathNum` saved at a recursive
//! call; piecewise profiling adds the count of open calls. A call probe at a site that paths
//! cross pushes the callee's record itself, with `ψ_r(nvc)` from the table; an entry whose
//! record no probe pushed (a recursive call, a call through a pointer) starts a new path, as
//! section 5.5 does for recursive calls and section 9.2.3 suggests for indirect ones.
//! Completed paths are counted by number in one table for the program ([`PathCounters`]: an
//! array up to 2^16 paths, a hash table above).
//!
//! **Overflow.** When the program's paths do not fit in 64 bits, the numbering cuts calls (and
//! then blocks) until they do (section 8's hybrid, [`profiler::interproc::numbering`]); each
//! step is a warning on stderr and is listed in the profile's `fallback`.
//!
//! **Profile.** Functions are listed with their blocks and no paths; the paths are the
//! profile's `interprocedural` member ([`crate::profile::interproc`]), regenerated to the
//! blocks they run through in each function.

pub mod graph;

use lang::bytecode::{FuncIdx, Instr, ProbeIdx, Program};
use profiler::counters::PathCounters;
use profiler::interproc::path::{regenerate, Step};
use profiler::interproc::runtime::EdgeAction;
use profiler::interproc::{IppKind, IppNumbering, PathCounter, SiteId};
use profiler::DagEdgeKind;

use super::untiered_profiles;
use super::{Finished, Profiler};
use crate::branch_counts::BranchCounts;
use crate::probes::Probes;
use crate::profile::interproc::{InterprocPath, InterprocSection, Stretch};
use crate::profile::FunctionProfile;
use crate::tier::codegen::{instrument, ProbeCode};
use crate::version::Version;
use crate::ProfileSettings;
use graph::ProgramGraph;

/// What a `ProbePath k` of an instrumented function does (after adding the register).
#[derive(Clone, Copy, Debug)]
enum ProbeAction {
    /// An edge's action on the path number.
    Edge(EdgeAction),
    /// The next call is made at this site.
    Site(SiteAction),
    /// Nothing more (a root's exit: its path may end at its return).
    Flush,
}

/// A call site, worked out for the call.
#[derive(Clone, Copy, Debug)]
struct SiteAction {
    site: SiteId,
    /// The callee, when paths cross the site (`None`: a summary site).
    crossing: Option<profiler::interproc::ProcId>,
    /// `ψ` of the return site.
    ret_psi: profiler::interproc::Linear,
}

/// The `ipp` modes' probes (`PIECEWISE`: the kind of paths, fixed at compile time so the
/// sink's hot path does not test it). See the module docs.
pub struct IppProbes<const PIECEWISE: bool> {
    graph: ProgramGraph,
    num: IppNumbering,
    counter: PathCounter,
    /// Every function's probes: function `f`'s probe `k` is `actions[first[f] + k]`.
    actions: Vec<ProbeAction>,
    first: Vec<usize>,
    counts: PathCounters,
    /// The callee whose record the call probe pushed, for the entry about to come.
    pushed: Option<profiler::interproc::ProcId>,
    started: bool,
    ready: Vec<Version>,
    /// Paths in progress when the run stopped.
    incomplete: u64,
    /// The functions instrumented before the run, and the time the numbering and the
    /// instrumentation took (the run statistics' tier-ups).
    instrumented: crate::tier::tiering::TierUpStats,
}

impl<const PIECEWISE: bool> IppProbes<PIECEWISE> {
    /// Numbers the paths of `program` and instruments every function.
    pub fn new(program: &Program, settings: &ProfileSettings) -> Result<Self, String> {
        let kind = if PIECEWISE {
            IppKind::Piecewise
        } else {
            IppKind::Context
        };
        let started = std::time::Instant::now();
        let graph = ProgramGraph::new(program)?;
        let num = IppNumbering::new(&graph.sg, kind, settings.path_ends, u64::MAX)
            .map_err(|e| e.to_string())?;
        let mut actions = Vec::new();
        let mut first = Vec::with_capacity(program.functions.len());
        let mut ready = Vec::with_capacity(program.functions.len());
        for (i, (func, split)) in program.functions.iter().zip(&graph.funcs).enumerate() {
            let p = ProgramGraph::proc(FuncIdx(i as u16));
            let mut code = ProbeCode::new(&split.fc);
            let mut table = Vec::new();
            let too_many = || format!("function {}: more than 65,536 probes", func.name);
            let mut probe = |action: ProbeAction| -> Result<Instr, String> {
                let k = u16::try_from(table.len()).map_err(|_| too_many())?;
                table.push(action);
                Ok(Instr::ProbePath { k: ProbeIdx(k) })
            };
            for e in split.fc.cfg().edges() {
                let action = num.edge_action(&graph.sg, p, split.edge[e]);
                code.edges[e] = match action {
                    EdgeAction::Add(rho) if rho.is_zero() => continue,
                    EdgeAction::Add(rho) if rho.a == 0 => {
                        let k = code.constant(rho.b).ok_or_else(too_many)?;
                        vec![Instr::PathAdd { k }]
                    }
                    _ => vec![probe(ProbeAction::Edge(action))?],
                };
            }
            for &(pc, site) in &split.calls {
                let s = graph.sg.site(site);
                let crossing = num.crossing_callee(&graph.sg, site);
                let ret_psi = num.psi(s.caller, s.ret);
                let action = ProbeAction::Site(SiteAction {
                    site,
                    crossing,
                    ret_psi,
                });
                code.before.insert(pc, vec![probe(action)?]);
            }
            // A root's path may end at its return: the register must be in the sink by then.
            if num.is_root(p) {
                code.blocks[split.fc.cfg().exit()] = vec![probe(ProbeAction::Flush)?];
            }
            let inst = instrument(FuncIdx(i as u16), func, &split.fc, &code)
                .map_err(|e| format!("function {}: {e}", func.name))?;
            ready.push(inst.version);
            first.push(actions.len());
            actions.extend(table);
        }
        ready.reverse();
        Ok(IppProbes {
            counts: PathCounters::new(num.num_paths()),
            graph,
            num,
            counter: PathCounter::new(),
            actions,
            first,
            pushed: None,
            started: false,
            instrumented: crate::tier::tiering::TierUpStats {
                count: ready.len() as u32,
                time: started.elapsed(),
            },
            ready,
            incomplete: 0,
        })
    }

    /// The program's paths: each counted number regenerated to its stretches.
    pub fn section(&self) -> Result<InterprocSection, String> {
        let sg = &self.graph.sg;
        let num = &self.num;
        let mut paths = Vec::with_capacity(self.counts.len());
        for (id, count) in self.counts.iter() {
            let path = regenerate(sg, num, id)
                .ok_or_else(|| format!("path number {id} is not below {}", num.num_paths()))?;
            let mut stretches: Vec<Stretch> = Vec::new();
            let mut end = None;
            let open = |stretches: &mut Vec<Stretch>, p: profiler::interproc::ProcId| {
                stretches.push(Stretch {
                    function: p.index() as u32,
                    blocks: Vec::new(),
                    resume: None,
                });
            };
            for step in &path.steps {
                let split = |p: profiler::interproc::ProcId| &self.graph.funcs[p.index()];
                match *step {
                    Step::Root(p) | Step::Resume(p) => {
                        open(&mut stretches, p);
                        if let Step::Root(_) = step {
                            let v = sg.proc(p).cfg.entry();
                            push_block(&mut stretches, split(p).block_of[v].as_u32());
                        }
                    }
                    Step::Edge(p, d) => {
                        let dag = num.dag(p);
                        match dag.kind(d) {
                            DagEdgeKind::End(e) => {
                                let h = sg.proc(p).cfg.target(e);
                                end = Some(split(p).block_of[h].as_u32());
                            }
                            DagEdgeKind::Start(h) => {
                                if let Some(s) = stretches.last_mut() {
                                    s.resume = Some(s.blocks.len() as u32);
                                    s.blocks.push(split(p).block_of[h].as_u32());
                                }
                            }
                            DagEdgeKind::Real(_) => {
                                let v = dag.target(d);
                                push_block(&mut stretches, split(p).block_of[v].as_u32());
                            }
                        }
                    }
                    Step::Call(s) => {
                        if let profiler::interproc::Callee::Direct(q) = sg.site(s).callee {
                            open(&mut stretches, q);
                            let v = sg.proc(q).cfg.entry();
                            push_block(&mut stretches, split(q).block_of[v].as_u32());
                        }
                    }
                    Step::Return(s) => {
                        let site = sg.site(s);
                        open(&mut stretches, site.caller);
                        let b = split(site.caller).block_of[site.ret].as_u32();
                        push_block(&mut stretches, b);
                    }
                    Step::Exit(_) => {}
                }
            }
            paths.push(InterprocPath {
                id,
                count,
                lines: String::new(),
                stretches,
                end,
            });
        }
        paths.sort_by(|a, b| b.count.cmp(&a.count).then(a.id.cmp(&b.id)));
        let name = |p: profiler::interproc::ProcId| sg.proc(p).name.clone();
        Ok(InterprocSection {
            kind: num.kind().name().to_string(),
            static_paths: num.num_paths(),
            incomplete: self.incomplete,
            fallback: num.fallback().iter().map(|f| f.render(&name)).collect(),
            paths,
        })
    }
}

/// Appends block `b` to the last stretch unless it is already its last block (the vertices of
/// one block split at calls).
fn push_block(stretches: &mut [Stretch], b: u32) {
    if let Some(s) = stretches.last_mut() {
        if s.blocks.last() != Some(&b) {
            s.blocks.push(b);
        }
    }
}

impl<const PIECEWISE: bool> Probes for IppProbes<PIECEWISE> {
    const ENABLED: bool = true;
    const TIERS: bool = true;
    // The path register is not saved across calls: it is the shared `pathNum`'s part not yet
    // in the sink, and a callee's increments simply stay in it for the caller's next event.

    #[inline]
    fn on_entry(&mut self, func: FuncIdx) {
        let p = ProgramGraph::proc(func);
        if !self.started {
            self.started = true;
            self.counter.start(&self.graph.sg, &self.num);
            return;
        }
        // A crossing call's record was pushed by its probe; any other entry is a summary call.
        if self.pushed.take() != Some(p) {
            self.counter.call_unknown(&self.num, p);
        }
    }

    // Inlined into the loop, as `bl`'s counting is: a call per event cost a third of the
    // overhead (callgrind).
    #[inline(always)]
    fn on_probe_path(&mut self, func: FuncIdx, k: ProbeIdx, path: u64) {
        self.counter.add(path);
        match self.actions[self.first[func.index()] + k.index()] {
            ProbeAction::Edge(action) => {
                if let Some(n) = self.counter.act_as::<PIECEWISE>(&self.num, action) {
                    self.counts.count(n);
                }
            }
            ProbeAction::Site(SiteAction {
                site,
                crossing: Some(q),
                ret_psi,
            }) => {
                self.counter.call_crossing(&self.num, site, q, ret_psi);
                self.pushed = Some(q);
            }
            ProbeAction::Site(_) => {}
            ProbeAction::Flush => {}
        }
    }

    #[inline(always)]
    fn on_return(&mut self, _func: FuncIdx) {
        if let Some(n) = self.counter.ret(&self.num) {
            self.counts.count(n);
        }
    }

    fn version_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    fn take_version(&mut self) -> Option<Version> {
        self.ready.pop()
    }
}

/// The `ipp` modes: `Ipp<false>` is `ipp:context`, `Ipp<true>` `ipp:piecewise`.
pub struct Ipp<const PIECEWISE: bool>;

/// `--profile=ipp:context`.
pub type IppContext = Ipp<false>;
/// `--profile=ipp:piecewise`.
pub type IppPiecewise = Ipp<true>;

impl<const PIECEWISE: bool> Profiler for Ipp<PIECEWISE> {
    type Probes<'p> = IppProbes<PIECEWISE>;

    fn start(
        program: &Program,
        settings: &ProfileSettings,
        _: BranchCounts,
    ) -> Result<IppProbes<PIECEWISE>, String> {
        IppProbes::new(program, settings).map_err(|e| format!("cannot instrument: {e}"))
    }

    /// Settles the paths still in progress (not counted) and reports the fallback, and as
    /// tier-ups the functions instrumented before the run.
    fn finish(probes: &mut IppProbes<PIECEWISE>) -> Finished {
        probes.incomplete = probes.counter.abandon();
        let name = |p: profiler::interproc::ProcId| probes.graph.sg.proc(p).name.clone();
        Finished {
            warnings: probes
                .num
                .fallback()
                .iter()
                .map(|f| f.render(&name))
                .collect(),
            tier_ups: probes.instrumented,
        }
    }

    fn profile(
        _: IppProbes<PIECEWISE>,
        program: &Program,
        settings: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        Some(untiered_profiles(program, settings.path_ends))
    }

    fn interprocedural(probes: &IppProbes<PIECEWISE>) -> Option<Result<InterprocSection, String>> {
        Some(probes.section())
    }
}
