//! `G*fin` and its dense numbering (Melski & Reps sections 3.2, 5.1-5.3 and 6.1).
//!
//! **Transformations.** 0 (piecewise only): a vertex `GEntry_P` per procedure, entered from
//! `Entry_global`. 1: a vertex `GExit_P` per procedure, left to `Exit_global`. 2: each edge that
//! ends a path ([`PathEnds`]; the paper's back edges) `u -> h` is replaced by `u -> GExit_P` and
//! the surrogate `Entry_P -> h` (`GEntry_P -> h` for piecewise profiling). Both come from the
//! procedure's [`PathDag`], whose `End` edges are read as going to `GExit_P` and whose `Start`
//! edges leave `Entry_P` (or `GEntry_P`). 3: the call graph is searched depth-first from `main`
//! (then from every procedure not reached), callees in call-site order; a call whose callee is
//! on the search stack is recursive, and every call site from that caller to that callee keeps
//! only its summary edge `c -> r`, while the callee gets the edges `Entry_global -> Entry_R` and
//! `Exit_R -> Exit_global` (it becomes a *root*). Indirect calls are treated the same way
//! (section 9.2.3), and then every procedure is a root.
//!
//! **maxEnters** bounds how often an unbalanced-left path can enter each procedure: 1 for a
//! root, plus `maxEnters[Q]` for every non-recursive call site in `Q` that calls it (section
//! 3.2). It is finite because the call graph left is acyclic, which is why the number of paths
//! is finite.
//!
//! **ψ and ρ** (section 5.2). Procedures are visited callees first (the post-order of the search
//! above), vertices in reverse topological order: `ψ_Exit = ⟨1, 0⟩`, `ψ_GExit = ⟨0, 1⟩`, a
//! non-recursive call vertex `c` to `Q` with return site `r` has `ψ_c = ψ_Entry_Q ∘ ψ_r`, any
//! other vertex the sum of its successors' (equations 19-22). The edges out of a vertex get the
//! running sums of their targets' `ψ` (equation 24), in the [`PathDag`]'s order (real edges in
//! successor order, then the path-ending edges, then the surrogates by block).
//!
//! **Out of `Entry_global`** (equations 25-27): context profiling takes the roots, `main`
//! first, each with `ψ_Entry_R(1)` paths; piecewise profiling takes, procedure by procedure
//! (`main` first), `Entry_P` for a root and then `GEntry_P` with `ψ_GEntry_P(X_P)` paths, where
//! `X_P = numUnbalRLPaths[Exit_P]`: the number of unbalanced-right-left paths from `Exit_P`,
//! summed over its successors (`Exit_global` for a root, then the return sites of the calls on
//! `P`, each with `ψ_r(X_S)` for its procedure `S`; equations 33-34), callers first. A return
//! edge taken with no open call gets the running sum of those counts (equation 35).
//!
//! **Fallback.** When the number of paths exceeds the limit (at most `2^64 - 1`), the numbering
//! is not dense in 64 bits; as section 8 suggests, Transformation 3 is then applied to more
//! call sites (all calls of the procedure whose `ψ` overflowed, or the calls on the procedure
//! with the most paths), which splits paths at those calls, and when no call is left to cut,
//! the procedure with the most paths gets extra cut blocks as Ball-Larus's own fallback does
//! ([`crate::ball_larus`]). Each step is an [`IppFallback`], reported with the profile.

use std::collections::BTreeSet;
use std::fmt;

use super::supergraph::{Callee, ProcId, SiteId, Supergraph};
use super::{IppKind, Linear};
use crate::ball_larus::{BallLarus, Numbering};
use crate::cfg::Block;
use crate::dag::{DagEdge, DagEdgeKind, PathDag, PathEnds};
use crate::dfs::DepthFirst;
use crate::index::IndexVec;

/// Where an edge out of `Entry_global` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryTarget {
    /// `Entry_P` of a root.
    Entry(ProcId),
    /// `GEntry_P` (piecewise profiling).
    GEntry(ProcId),
}

/// An edge out of `Entry_global`, with its value and the number of paths that take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryEdge {
    /// Its target.
    pub to: EntryTarget,
    /// Its value (equation 27).
    pub value: u64,
    /// The paths that start with it.
    pub count: u64,
}

/// Where an edge out of `Exit_P` goes when no call is open (piecewise profiling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitTarget {
    /// `Exit_global` (`P` is a root).
    Global,
    /// The return site of this call site.
    Site(SiteId),
}

/// An edge out of `Exit_P`, with its value when taken with no call open (equation 35) and
/// `numUnbalRLPaths` of its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitEdge {
    /// Its target.
    pub to: ExitTarget,
    /// Its value.
    pub value: u64,
    /// The unbalanced-right-left paths from its target.
    pub count: u64,
}

/// One step of the fallback (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IppFallback {
    /// No path crosses the calls from `caller` to `callee` any more (Transformation 3 applied
    /// to them as if they were recursive).
    CutCalls {
        /// The calling procedure.
        caller: ProcId,
        /// The called procedure.
        callee: ProcId,
    },
    /// Paths of `proc` are also cut on arriving at these blocks.
    ExtraCuts {
        /// The procedure.
        proc: ProcId,
        /// The blocks.
        blocks: Vec<Block>,
    },
}

impl IppFallback {
    /// The message, with procedures named by `name`.
    pub fn render(&self, name: &dyn Fn(ProcId) -> String) -> String {
        match self {
            IppFallback::CutCalls { caller, callee } => format!(
                "interprocedural paths exceed 2^64 - 1 (or the limit): calls from {} to {} are cut (no path crosses them)",
                name(*caller),
                name(*callee)
            ),
            IppFallback::ExtraCuts { proc, blocks } => {
                let list: Vec<String> = blocks.iter().map(|b| b.to_string()).collect();
                format!(
                    "interprocedural paths exceed 2^64 - 1 (or the limit) with every call cut: paths of {} are also cut at {}",
                    name(*proc),
                    list.join(" ")
                )
            }
        }
    }
}

/// Why no numbering could be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberingError {
    /// Even with every call cut and extra cut blocks, the paths exceed the limit.
    TooManyPaths {
        /// The limit.
        limit: u64,
    },
}

impl fmt::Display for NumberingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberingError::TooManyPaths { limit } => write!(
                f,
                "the interprocedural paths exceed the limit {limit} even with every call cut"
            ),
        }
    }
}

impl std::error::Error for NumberingError {}

/// The numbering of a supergraph's interprocedural paths. See the module docs.
#[derive(Clone, Debug)]
pub struct IppNumbering {
    kind: IppKind,
    path_ends: PathEnds,
    dags: IndexVec<ProcId, PathDag>,
    /// Per call site: whether it keeps only its summary edge (no path crosses it).
    summary: IndexVec<SiteId, bool>,
    /// Per procedure: whether `Entry_global -> Entry_P` exists.
    is_root: IndexVec<ProcId, bool>,
    /// Callees before callers.
    order: Vec<ProcId>,
    max_enters: IndexVec<ProcId, u64>,
    psi: IndexVec<ProcId, IndexVec<Block, Linear>>,
    psi_gentry: IndexVec<ProcId, Linear>,
    rho: IndexVec<ProcId, IndexVec<DagEdge, Linear>>,
    entries: Vec<EntryEdge>,
    exits: IndexVec<ProcId, Vec<ExitEdge>>,
    unbal_exit: IndexVec<ProcId, u64>,
    /// Per procedure: the value of `Entry_global -> GEntry_P` (piecewise; 0 otherwise).
    resume_value: IndexVec<ProcId, u64>,
    /// Per procedure: the value of `Entry_global -> Entry_P` (0 for a procedure that is no
    /// root).
    root_value: IndexVec<ProcId, u64>,
    /// Per call site: the value of its return edge taken with no call open (piecewise).
    return_value: IndexVec<SiteId, u64>,
    total: u64,
    fallback: Vec<IppFallback>,
}

/// Why one attempt at numbering failed: where the count first exceeded 64 bits or the limit.
enum Overflow {
    /// In the `ψ` or `ρ` functions of this procedure.
    InProc(ProcId),
    /// In the totals; `ψ_Entry(1)` of every procedure (saturated).
    Global(IndexVec<ProcId, u64>),
}

impl IppNumbering {
    /// Numbers the paths of `sg` of kind `kind` cut at `path_ends`, with at most `limit`
    /// paths (the fallback cuts more when there are more; an error if even that fails).
    pub fn new(
        sg: &Supergraph,
        kind: IppKind,
        path_ends: PathEnds,
        limit: u64,
    ) -> Result<IppNumbering, NumberingError> {
        let mut cut_pairs: BTreeSet<(ProcId, ProcId)> = BTreeSet::new();
        let mut extra: IndexVec<ProcId, Vec<Block>> =
            IndexVec::from_elem(Vec::new(), sg.num_procs());
        let mut fallback = Vec::new();
        let (recursive, order) = search_call_graph(sg);
        let calls = CallGraph {
            recursive: &recursive,
            order: &order,
        };
        loop {
            match attempt(sg, &calls, kind, path_ends, &cut_pairs, &extra, limit) {
                Ok(mut n) => {
                    n.fallback = fallback;
                    return Ok(n);
                }
                Err(overflow) => {
                    let step = next_cut(sg, &calls, path_ends, &cut_pairs, &extra, overflow, limit)
                        .ok_or(NumberingError::TooManyPaths { limit })?;
                    match &step {
                        IppFallback::CutCalls { caller, callee } => {
                            cut_pairs.insert((*caller, *callee));
                        }
                        IppFallback::ExtraCuts { proc, blocks } => extra[*proc] = blocks.clone(),
                    }
                    fallback.push(step);
                }
            }
        }
    }

    /// The kind of paths numbered.
    pub fn kind(&self) -> IppKind {
        self.kind
    }

    /// Where paths end inside a procedure.
    pub fn path_ends(&self) -> PathEnds {
        self.path_ends
    }

    /// The number of paths: numbers are `0..num_paths()`, each naming one path.
    pub fn num_paths(&self) -> u64 {
        self.total
    }

    /// The path DAG of procedure `p` (its `End` edges go to `GExit_P`, its `Start` edges leave
    /// `Entry_P` or, piecewise, `GEntry_P`).
    pub fn dag(&self, p: ProcId) -> &PathDag {
        &self.dags[p]
    }

    /// Whether call site `s` keeps only its summary edge (recursive, indirect or cut by the
    /// fallback): a call there starts a new path in the callee, and the caller's path resumes
    /// after it.
    pub fn is_summary(&self, s: SiteId) -> bool {
        self.summary[s]
    }

    /// The callee of call site `s` when paths cross it (`None` at a summary site: recursive,
    /// indirect or cut by the fallback).
    pub fn crossing_callee(&self, sg: &Supergraph, s: SiteId) -> Option<ProcId> {
        match sg.site(s).callee {
            Callee::Direct(q) if !self.summary[s] => Some(q),
            _ => None,
        }
    }

    /// Whether `Entry_global -> Entry_P` exists (main and the procedures called at summary
    /// sites).
    pub fn is_root(&self, p: ProcId) -> bool {
        self.is_root[p]
    }

    /// The procedures, callees before callers (the order `ψ` is solved in).
    pub fn order(&self) -> &[ProcId] {
        &self.order
    }

    /// `maxEnters[P]`: how many times at most an unbalanced-left path enters `P`.
    pub fn max_enters(&self, p: ProcId) -> u64 {
        self.max_enters[p]
    }

    /// `ψ_v` of vertex `v` of `p`.
    pub fn psi(&self, p: ProcId, v: Block) -> Linear {
        self.psi[p][v]
    }

    /// `ψ` of `GEntry_P` (piecewise; `⟨0, 0⟩` in context profiling).
    pub fn psi_gentry(&self, p: ProcId) -> Linear {
        self.psi_gentry[p]
    }

    /// `ρ_e` of DAG edge `d` of `p`.
    pub fn rho(&self, p: ProcId, d: DagEdge) -> Linear {
        self.rho[p][d]
    }

    /// The edges out of `Entry_global`, in order.
    pub fn entries(&self) -> &[EntryEdge] {
        &self.entries
    }

    /// The value of `Entry_global -> target`, if that edge exists.
    pub fn entry_value(&self, target: EntryTarget) -> Option<u64> {
        self.entries
            .iter()
            .find(|e| e.to == target)
            .map(|e| e.value)
    }

    /// Piecewise: the edges out of `Exit_P` with their values when no call is open.
    pub fn exits(&self, p: ProcId) -> &[ExitEdge] {
        &self.exits[p]
    }

    /// Piecewise: `numUnbalRLPaths[Exit_P]` (0 in context profiling).
    pub fn unbal_exit(&self, p: ProcId) -> u64 {
        self.unbal_exit[p]
    }

    /// Piecewise: the value of the return edge of site `s` taken with no call open.
    #[inline]
    pub fn return_value(&self, s: SiteId) -> u64 {
        self.return_value[s]
    }

    /// Piecewise: the value of `Entry_global -> GEntry_P`.
    #[inline]
    pub fn resume_value(&self, p: ProcId) -> u64 {
        self.resume_value[p]
    }

    /// The value of `Entry_global -> Entry_P` for a root (0 for any other procedure).
    #[inline]
    pub fn root_value(&self, p: ProcId) -> u64 {
        self.root_value[p]
    }

    /// The fallback steps taken (empty when the paths fit).
    pub fn fallback(&self) -> &[IppFallback] {
        &self.fallback
    }

    /// The DAG edges out of vertex `v` of `p` that are intraprocedural edges of `G*fin` (the
    /// surrogates leave `GEntry_P` instead of the entry in piecewise profiling).
    pub fn out_edges(&self, p: ProcId, v: Block) -> impl Iterator<Item = DagEdge> + '_ {
        let dag = &self.dags[p];
        let piecewise = self.kind == IppKind::Piecewise;
        dag.out_edges(v)
            .filter(move |&d| !(piecewise && matches!(dag.kind(d), DagEdgeKind::Start(_))))
    }

    /// The surrogate edges out of `GEntry_P` (piecewise).
    pub fn gentry_edges(&self, p: ProcId) -> impl Iterator<Item = DagEdge> + '_ {
        let dag = &self.dags[p];
        let piecewise = self.kind == IppKind::Piecewise;
        dag.starts()
            .iter()
            .filter(move |_| piecewise)
            .filter_map(move |&h| dag.start_edge(h))
    }

    /// `ψ` of the target of DAG edge `d` of `p` (`⟨0, 1⟩` for `GExit_P`).
    pub fn psi_target(&self, p: ProcId, d: DagEdge) -> Linear {
        match self.dags[p].kind(d) {
            DagEdgeKind::End(_) => Linear::ONE,
            _ => self.psi[p][self.dags[p].target(d)],
        }
    }
}

/// One numbering with the calls in `cut_pairs` cut and the blocks in `extra` cutting paths.
fn attempt(
    sg: &Supergraph,
    calls: &CallGraph<'_>,
    kind: IppKind,
    path_ends: PathEnds,
    cut_pairs: &BTreeSet<(ProcId, ProcId)>,
    extra: &IndexVec<ProcId, Vec<Block>>,
    limit: u64,
) -> Result<IppNumbering, Overflow> {
    let n = sg.num_procs();
    let (recursive, order) = (calls.recursive, calls.order.to_vec());
    let summary: IndexVec<SiteId, bool> = IndexVec::from_raw(
        sg.sites()
            .map(|s| {
                let site = sg.site(s);
                match site.callee {
                    Callee::Indirect => true,
                    Callee::Direct(q) => {
                        recursive.contains(&(site.caller, q))
                            || cut_pairs.contains(&(site.caller, q))
                    }
                }
            })
            .collect(),
    );
    let any_indirect = sg.sites().any(|s| sg.site(s).callee == Callee::Indirect);
    let mut is_root = IndexVec::from_elem(any_indirect, n);
    is_root[sg.main()] = true;
    for s in sg.sites() {
        if let (true, Callee::Direct(q)) = (summary[s], sg.site(s).callee) {
            is_root[q] = true;
        }
    }
    let dags: IndexVec<ProcId, PathDag> = IndexVec::from_raw(
        sg.procs()
            .map(|p| {
                let cfg = &sg.proc(p).cfg;
                PathDag::new(cfg, &DepthFirst::compute(cfg), path_ends, &extra[p])
            })
            .collect(),
    );

    // maxEnters, callers first.
    let mut max_enters = IndexVec::from_elem(0u64, n);
    for &p in order.iter().rev() {
        let mut m = u64::from(is_root[p]);
        for s in sg.sites() {
            let site = sg.site(s);
            if !summary[s] && site.callee == Callee::Direct(p) {
                m = m.saturating_add(max_enters[site.caller]);
            }
        }
        max_enters[p] = m;
    }

    // ψ and ρ, callees first.
    let piecewise = kind == IppKind::Piecewise;
    let mut psi: IndexVec<ProcId, IndexVec<Block, Linear>> = IndexVec::from_raw(
        sg.procs()
            .map(|p| IndexVec::from_elem(Linear::ZERO, sg.proc(p).cfg.num_blocks()))
            .collect(),
    );
    let mut psi_gentry = IndexVec::from_elem(Linear::ZERO, n);
    let mut rho: IndexVec<ProcId, IndexVec<DagEdge, Linear>> = IndexVec::from_raw(
        dags.iter()
            .map(|d| IndexVec::from_elem(Linear::ZERO, d.num_edges()))
            .collect(),
    );
    for &p in &order {
        let dag = &dags[p];
        let proc = sg.proc(p);
        let overflow = || Overflow::InProc(p);
        let target_psi = |psi: &IndexVec<Block, Linear>, d: DagEdge| match dag.kind(d) {
            DagEdgeKind::End(_) => Linear::ONE,
            _ => psi[dag.target(d)],
        };
        let intra = |d: &DagEdge| !(piecewise && matches!(dag.kind(*d), DagEdgeKind::Start(_)));
        for &v in dag.topological_order().iter().rev() {
            let value = if v == proc.cfg.exit() {
                Linear::IDENTITY
            } else if let Some(s) = proc.site_at(v).filter(|&s| !summary[s]) {
                let site = sg.site(s);
                let Callee::Direct(q) = site.callee else {
                    unreachable!("indirect sites are summary sites")
                };
                let entry_q = psi[q][sg.proc(q).cfg.entry()];
                entry_q
                    .checked_compose(psi[p][site.ret])
                    .ok_or_else(overflow)?
            } else {
                let mut sum = Linear::ZERO;
                for d in dag.out_edges(v).filter(intra) {
                    rho[p][d] = sum;
                    sum = sum
                        .checked_add(target_psi(&psi[p], d))
                        .ok_or_else(overflow)?;
                }
                sum
            };
            psi[p][v] = value;
        }
        if piecewise {
            let mut sum = Linear::ZERO;
            for &h in dag.starts() {
                let d = dag.start_edge(h).expect("every start block has its edge");
                rho[p][d] = sum;
                sum = sum.checked_add(psi[p][h]).ok_or_else(overflow)?;
            }
            psi_gentry[p] = sum;
        }
    }

    let entry_paths = |p: ProcId| psi[p][sg.proc(p).cfg.entry()].checked_apply(1);
    let saturated = || {
        Overflow::Global(IndexVec::from_raw(
            sg.procs()
                .map(|p| entry_paths(p).unwrap_or(u64::MAX))
                .collect(),
        ))
    };

    // numUnbalRLPaths and the return edges' values, callers first.
    let mut exits: IndexVec<ProcId, Vec<ExitEdge>> = IndexVec::from_elem(Vec::new(), n);
    let mut unbal_exit = IndexVec::from_elem(0u64, n);
    if piecewise {
        for &p in order.iter().rev() {
            let mut edges = Vec::new();
            let mut sum = 0u64;
            let mut push = |to, count: u64| -> Option<()> {
                edges.push(ExitEdge {
                    to,
                    value: sum,
                    count,
                });
                sum = sum.checked_add(count)?;
                Some(())
            };
            if is_root[p] {
                push(ExitTarget::Global, 1).ok_or_else(saturated)?;
            }
            for s in sg.sites() {
                let site = sg.site(s);
                if !summary[s] && site.callee == Callee::Direct(p) {
                    let count = psi[site.caller][site.ret]
                        .checked_apply(unbal_exit[site.caller])
                        .ok_or_else(saturated)?;
                    push(ExitTarget::Site(s), count).ok_or_else(saturated)?;
                }
            }
            exits[p] = edges;
            unbal_exit[p] = sum;
        }
    }

    // The edges out of Entry_global.
    let mut entries = Vec::new();
    let mut total = 0u64;
    let main_first = std::iter::once(sg.main()).chain(sg.procs().filter(|&p| p != sg.main()));
    for p in main_first {
        if is_root[p] {
            let count = entry_paths(p).ok_or_else(saturated)?;
            entries.push(EntryEdge {
                to: EntryTarget::Entry(p),
                value: total,
                count,
            });
            total = total.checked_add(count).ok_or_else(saturated)?;
        }
        if piecewise {
            let count = psi_gentry[p]
                .checked_apply(unbal_exit[p])
                .ok_or_else(saturated)?;
            entries.push(EntryEdge {
                to: EntryTarget::GEntry(p),
                value: total,
                count,
            });
            total = total.checked_add(count).ok_or_else(saturated)?;
        }
    }
    if total > limit {
        return Err(saturated());
    }
    let mut resume_value = IndexVec::from_elem(0u64, n);
    let mut root_value = IndexVec::from_elem(0u64, n);
    for e in &entries {
        match e.to {
            EntryTarget::GEntry(p) => resume_value[p] = e.value,
            EntryTarget::Entry(p) => root_value[p] = e.value,
        }
    }
    let mut return_value = IndexVec::from_elem(0u64, sg.num_sites());
    for edges in exits.iter() {
        for e in edges {
            if let ExitTarget::Site(s) = e.to {
                return_value[s] = e.value;
            }
        }
    }
    Ok(IppNumbering {
        resume_value,
        root_value,
        return_value,
        kind,
        path_ends,
        dags,
        summary,
        is_root,
        order,
        max_enters,
        psi,
        psi_gentry,
        rho,
        entries,
        exits,
        unbal_exit,
        total,
        fallback: Vec::new(),
    })
}

/// What the depth-first search of the call graph found, once for every attempt.
struct CallGraph<'a> {
    /// The recursive `(caller, callee)` pairs.
    recursive: &'a BTreeSet<(ProcId, ProcId)>,
    /// The procedures, callees before callers.
    order: &'a [ProcId],
}

/// The recursive `(caller, callee)` pairs (back edges of a depth-first search of the call
/// graph from `main`, then from every procedure not reached, callees in call-site order), and
/// the procedures in the search's post-order (callees before callers once those are removed).
fn search_call_graph(sg: &Supergraph) -> (BTreeSet<(ProcId, ProcId)>, Vec<ProcId>) {
    let n = sg.num_procs();
    let callees = |p: ProcId| -> Vec<ProcId> {
        sg.proc(p)
            .sites
            .iter()
            .filter_map(|&s| match sg.site(s).callee {
                Callee::Direct(q) => Some(q),
                Callee::Indirect => None,
            })
            .collect()
    };
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    let mut recursive = BTreeSet::new();
    let mut order = Vec::with_capacity(n);
    let roots = std::iter::once(sg.main()).chain(sg.procs());
    for root in roots {
        if state[root.index()] != 0 {
            continue;
        }
        let mut stack: Vec<(ProcId, Vec<ProcId>, usize)> = vec![(root, callees(root), 0)];
        state[root.index()] = 1;
        while let Some((p, next, i)) = stack.last_mut() {
            if let Some(&q) = next.get(*i) {
                *i += 1;
                let p = *p;
                match state[q.index()] {
                    0 => {
                        state[q.index()] = 1;
                        stack.push((q, callees(q), 0));
                    }
                    1 => {
                        recursive.insert((p, q));
                    }
                    _ => {}
                }
            } else {
                state[p.index()] = 2;
                order.push(*p);
                stack.pop();
            }
        }
    }
    (recursive, order)
}

/// The next fallback step after `overflow`, or `None` when nothing is left to cut.
fn next_cut(
    sg: &Supergraph,
    calls: &CallGraph<'_>,
    path_ends: PathEnds,
    cut_pairs: &BTreeSet<(ProcId, ProcId)>,
    extra: &IndexVec<ProcId, Vec<Block>>,
    overflow: Overflow,
    limit: u64,
) -> Option<IppFallback> {
    let recursive = calls.recursive;
    let crossing = |caller: ProcId, callee: ProcId| {
        !recursive.contains(&(caller, callee)) && !cut_pairs.contains(&(caller, callee))
    };
    let pairs: Vec<(ProcId, ProcId)> = sg
        .sites()
        .filter_map(|s| match sg.site(s).callee {
            Callee::Direct(q) if crossing(sg.site(s).caller, q) => Some((sg.site(s).caller, q)),
            _ => None,
        })
        .collect();
    let worst = match overflow {
        Overflow::InProc(p) => {
            if let Some(&(caller, callee)) = pairs.iter().find(|(c, _)| *c == p) {
                return Some(IppFallback::CutCalls { caller, callee });
            }
            p
        }
        Overflow::Global(paths) => {
            let called = pairs
                .iter()
                .max_by_key(|(_, q)| (paths[*q], std::cmp::Reverse(*q)));
            if let Some(&(caller, callee)) = called {
                return Some(IppFallback::CutCalls { caller, callee });
            }
            sg.procs()
                .filter(|&p| extra[p].is_empty())
                .max_by_key(|&p| (paths[p], std::cmp::Reverse(p)))?
        }
    };
    if !extra[worst].is_empty() {
        return None;
    }
    // Every call is cut: the procedure's paths are its Ball-Larus paths. Give each procedure
    // an equal share of the limit (a root's entry and its GEntry each count once).
    let cfg = &sg.proc(worst).cfg;
    let share = (limit / (2 * sg.num_procs() as u64 + 1)).max(cfg.num_edges() as u64);
    let bl = BallLarus::new(cfg, path_ends, Numbering::Canonical, share).ok()?;
    let blocks = bl.dag().extra_cuts().to_vec();
    if blocks.is_empty() {
        return None;
    }
    Some(IppFallback::ExtraCuts {
        proc: worst,
        blocks,
    })
}
