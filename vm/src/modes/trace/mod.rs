//! `--profile=trace`: every block entered, every call and return; paths counted by definition.
//!
//! Every function is instrumented before the program starts (`--tier-up` does not apply), with
//! one `Probe b` instruction at the start of every code block `b` (the virtual entry and exit
//! blocks have no code: an activation records the virtual entry when it starts and the exit
//! when it returns). Each activation's block sequence is split into paths as it runs, by the
//! definition of [`oracle`] (a path ends when an edge cuts under the strategy, or at
//! the exit), so memory stays bounded by the call depth times the longest path; with
//! [`TraceProbes::keep_activations`] the whole sequence of each activation is kept as well,
//! for tests and teaching. Path ids in the profile are those of each function's canonical
//! Ball-Larus numbering, which is what `bl` with `--tier-up 0` uses, so the two profiles are
//! directly comparable.
//!
//! Slow by design: a call into the sink at every block.

pub mod oracle;

use std::collections::BTreeMap;

use lang::bytecode::{FuncIdx, Instr, ProbeIdx, Program};
use profiler::index::IndexVec;
use profiler::overlap::calls::Call;
use profiler::{BallLarus, Block, Cfg, Edge, Numbering, Path, PathEnds};

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::probes::Probes;
use crate::profile::FunctionProfile;
use crate::tier::cfg_build::FunctionCfg;
use crate::tier::codegen::{instrument, ProbeCode};
use crate::version::Version;
use crate::ProfileSettings;
use oracle::Oracle;

/// One function as the trace sees it.
struct Traced {
    fc: FunctionCfg,
    bl: BallLarus,
    /// Whether taking each edge ends a path.
    cut: IndexVec<Edge, bool>,
    counts: BTreeMap<Path, u64>,
}

/// An activation in progress.
struct Open {
    func: FuncIdx,
    /// The current path so far.
    cur: Vec<Block>,
    /// Every block entered (only with `keep_activations`).
    all: Vec<Block>,
    /// The calls it made whose callee finished (only with `keep_activations`).
    calls: Vec<Call>,
}

/// One recorded activation (with [`TraceProbes::keep_activations`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Activation {
    /// The function.
    pub func: FuncIdx,
    /// Every block it entered, the entry first (the exit last if it returned).
    pub blocks: Vec<Block>,
    /// Whether it returned (or ended the program by `exit`).
    pub finished: bool,
    /// The calls it made whose callee finished, in order: the index in `blocks` of the
    /// block the call is in, and the callee's index in [`TraceProbes::activations`].
    pub calls: Vec<Call>,
}

impl Activation {
    /// The activation as the definitions of paths across calls take it
    /// ([`profiler::overlap::calls::cross_paths_by_definition`]).
    pub fn as_run(&self) -> profiler::overlap::calls::Activation<'_> {
        profiler::overlap::calls::Activation {
            func: u32::from(self.func.0),
            blocks: &self.blocks,
            calls: &self.calls,
            finished: self.finished,
        }
    }
}

/// The `trace` mode's probes. See the module docs.
pub struct TraceProbes<'p> {
    program: &'p Program,
    path_ends: PathEnds,
    funcs: Vec<Traced>,
    stack: Vec<Open>,
    ready: Vec<Version>,
    /// Keep every activation's whole block sequence in [`Self::activations`].
    pub keep_activations: bool,
    /// The finished activations in the order they finished, then (after the run) the
    /// unfinished ones, innermost last.
    pub activations: Vec<Activation>,
    /// Calls and returns seen.
    pub calls: u64,
    /// Returns seen (including a final `exit`).
    pub returns: u64,
    /// Steps the CFG does not have (always a VM bug; checked by the tests).
    pub errors: Vec<String>,
}

impl<'p> TraceProbes<'p> {
    /// Instruments every function of `program` with block probes.
    pub fn new(program: &'p Program, path_ends: PathEnds) -> Result<Self, String> {
        let mut funcs = Vec::with_capacity(program.functions.len());
        let mut ready = Vec::with_capacity(program.functions.len());
        for (i, func) in program.functions.iter().enumerate() {
            let index = FuncIdx(i as u16);
            let fc = FunctionCfg::of_function(func)
                .map_err(|e| format!("function {}: {e}", func.name))?;
            let bl = BallLarus::new(fc.cfg(), path_ends, Numbering::Canonical, u64::MAX)
                .map_err(|e| format!("function {}: {}", func.name, e.render(&|b| b.to_string())))?;
            let oracle = Oracle::new(fc.cfg(), path_ends, bl.dag().extra_cuts());
            let cfg: &Cfg = fc.cfg();
            let cut = cfg
                .edges()
                .map(|e| oracle.cuts(cfg.source(e), cfg.target(e)))
                .collect::<Vec<_>>();
            let mut probes = ProbeCode::new(&fc);
            for (b, _) in fc.blocks() {
                if fc.first_pc(b).is_some() {
                    probes.blocks[b] = vec![Instr::Probe {
                        k: ProbeIdx(b.as_u32() as u16),
                    }];
                }
            }
            let inst = instrument(index, func, &fc, &probes)
                .map_err(|e| format!("function {}: {e}", func.name))?;
            ready.push(inst.version);
            funcs.push(Traced {
                fc,
                bl,
                cut: IndexVec::from_raw(cut),
                counts: BTreeMap::new(),
            });
        }
        ready.reverse();
        Ok(TraceProbes {
            program,
            path_ends,
            funcs,
            stack: Vec::new(),
            ready,
            keep_activations: false,
            activations: Vec::new(),
            calls: 0,
            returns: 0,
            errors: Vec::new(),
        })
    }

    /// The running activation enters block `v`.
    fn step(&mut self, v: Block) {
        let Some(open) = self.stack.last_mut() else {
            self.errors
                .push(format!("block {v} entered with no activation"));
            return;
        };
        let t = &mut self.funcs[open.func.index()];
        if let Some(&u) = open.cur.last() {
            match t.fc.cfg().find_edge(u, v) {
                Some(e) if t.cut[e] => {
                    let nodes = std::mem::take(&mut open.cur);
                    *t.counts
                        .entry(Path {
                            nodes,
                            end: Some(v),
                        })
                        .or_insert(0) += 1;
                }
                Some(_) => {}
                None => self.errors.push(format!(
                    "function {}: no edge {u} -> {v}",
                    self.program.functions[open.func.index()].name
                )),
            }
        }
        open.cur.push(v);
        if self.keep_activations {
            open.all.push(v);
        }
    }

    /// Moves the activations still open (a trap, an interrupt, or callers of `exit`) to
    /// [`Self::activations`] as unfinished, outermost first.
    pub fn close_unfinished(&mut self) {
        for open in std::mem::take(&mut self.stack) {
            if self.keep_activations {
                self.activations.push(Activation {
                    func: open.func,
                    blocks: open.all,
                    finished: false,
                    calls: open.calls,
                });
            }
        }
    }

    /// The CFG of function `f`'s compiled code.
    pub fn cfg(&self, f: FuncIdx) -> &FunctionCfg {
        &self.funcs[f.index()].fc
    }

    /// The profile of every function: the paths counted by definition, with the ids of the
    /// canonical numbering.
    pub fn function_profiles(&self) -> Result<Vec<FunctionProfile>, String> {
        let mut out = Vec::with_capacity(self.funcs.len());
        for (func, t) in self.program.functions.iter().zip(&self.funcs) {
            let mut counted = Vec::with_capacity(t.counts.len());
            for (path, &count) in &t.counts {
                let id = path_id(&t.bl, t.fc.cfg(), path)
                    .ok_or_else(|| format!("function {}: a traced path has no id", func.name))?;
                counted.push((id, count, path.clone()));
            }
            out.push(FunctionProfile::new(
                &func.name,
                func.loc.line,
                &t.fc,
                t.bl.num_paths(),
                Some(0),
                counted,
            ));
        }
        Ok(out)
    }

    /// The path-end strategy.
    pub fn path_ends(&self) -> PathEnds {
        self.path_ends
    }

    /// The running activation's path so far, as its blocks (for watching a run), or `None`
    /// when no activation runs.
    pub fn current_path(&self) -> Option<String> {
        let open = self.stack.last()?;
        let blocks: Vec<String> = open.cur.iter().map(|b| b.to_string()).collect();
        Some(format!("path so far: {}", blocks.join(" ")))
    }
}

/// The id of `path` in the numbering `bl` of `cfg` (the sum of the values of its DAG edges),
/// or `None` if it is not one of its paths.
pub fn path_id(bl: &BallLarus, cfg: &Cfg, path: &Path) -> Option<u64> {
    let dag = bl.dag();
    let nb = bl.numbering();
    let first = *path.nodes.first()?;
    let mut id = if first == cfg.entry() {
        0
    } else {
        nb.val(dag.start_edge(first)?)
    };
    let steps = path.nodes.windows(2).map(|w| (w[0], w[1])).chain(
        path.end
            .map(|end| (*path.nodes.last().unwrap_or(&end), end)),
    );
    for (u, v) in steps {
        let e = cfg.find_edge(u, v)?;
        id = id.checked_add(nb.val(dag.dag_edge(e)))?;
    }
    (bl.regenerate(cfg, id).as_ref() == Some(path)).then_some(id)
}

/// The `trace` mode.
pub struct Trace;

impl Profiler for Trace {
    type Probes<'p> = TraceProbes<'p>;

    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        _: BranchCounts,
    ) -> Result<TraceProbes<'p>, String> {
        TraceProbes::new(program, settings.path_ends).map_err(|e| format!("cannot instrument: {e}"))
    }

    /// Closes the activations still open; reports the first 20 steps the CFG does not have
    /// (a VM bug if any).
    fn finish(probes: &mut TraceProbes<'_>) -> Finished {
        probes.close_unfinished();
        let mut warnings = probes.errors.clone();
        warnings.truncate(20);
        Finished {
            warnings,
            ..Finished::default()
        }
    }

    fn profile(
        probes: TraceProbes<'_>,
        _: &Program,
        _: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        Some(probes.function_profiles())
    }

    fn describe(probes: &TraceProbes<'_>, event: &WatchEvent) -> Option<String> {
        match event {
            WatchEvent::Probe { .. } | WatchEvent::Entry { .. } => probes.current_path(),
            _ => None,
        }
    }
}

impl Probes for TraceProbes<'_> {
    const ENABLED: bool = true;
    const TIERS: bool = true;

    fn on_entry(&mut self, func: FuncIdx) {
        self.calls += 1;
        self.stack.push(Open {
            func,
            cur: Vec::new(),
            all: Vec::new(),
            calls: Vec::new(),
        });
        let fc = &self.funcs[func.index()].fc;
        if fc.has_virtual_entry() {
            let entry = fc.cfg().entry();
            self.step(entry);
        }
    }

    fn on_probe(&mut self, _func: FuncIdx, k: ProbeIdx) {
        self.step(Block::new(k.index()));
    }

    fn on_return(&mut self, func: FuncIdx) {
        self.returns += 1;
        let exit = self.funcs[func.index()].fc.cfg().exit();
        self.step(exit);
        if let Some(open) = self.stack.pop() {
            let t = &mut self.funcs[open.func.index()];
            *t.counts
                .entry(Path {
                    nodes: open.cur,
                    end: None,
                })
                .or_insert(0) += 1;
            if self.keep_activations {
                let callee = self.activations.len();
                self.activations.push(Activation {
                    func: open.func,
                    blocks: open.all,
                    finished: true,
                    calls: open.calls,
                });
                if let Some(caller) = self.stack.last_mut() {
                    if let Some(at) = caller.all.len().checked_sub(1) {
                        caller.calls.push(Call { at, callee });
                    }
                }
            }
        }
    }

    fn version_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    fn take_version(&mut self) -> Option<Version> {
        self.ready.pop()
    }
}
