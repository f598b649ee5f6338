//! The supergraph `G*` of a program (Melski & Reps section 2.2): one control-flow graph per
//! procedure, each call represented by a *call vertex* and a *return-site vertex*, linked by the
//! call edge `c -> Entry_Q` and the return edge `Exit_Q -> r`.
//!
//! Each procedure is a [`Cfg`] in which a call vertex `c` has exactly one successor, its return
//! site `r`, and `r` has `c` as its only predecessor: the edge `c -> r` stands for the call (the
//! order of the procedure's vertices puts `r` after `c`, as section 5.2.2 asks), and becomes the
//! *summary edge* when the call site is recursive (Transformation 3). A vertex may be a return
//! site and the call vertex of the next call at once (two calls in a row).

use std::fmt;

use crate::cfg::{Block, Cfg};
use crate::define_index;
use crate::index::IndexVec;

define_index!(
    /// A procedure of a [`Supergraph`]; prints as `p2`.
    pub struct ProcId = "p";
);

define_index!(
    /// A call site of a [`Supergraph`]; prints as `s4`.
    pub struct SiteId = "s";
);

/// What a call site calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// Always this procedure.
    Direct(ProcId),
    /// A procedure known only at run time (a call through a function pointer): handled like a
    /// recursive call (section 9.2.3), so no path crosses it.
    Indirect,
}

/// One call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The procedure that calls.
    pub caller: ProcId,
    /// Its call vertex.
    pub call: Block,
    /// Its return-site vertex.
    pub ret: Block,
    /// What it calls.
    pub callee: Callee,
}

/// One procedure.
#[derive(Clone, Debug)]
pub struct Procedure {
    /// Its name (for messages and reports).
    pub name: String,
    /// Its control-flow graph.
    pub cfg: Cfg,
    /// Its call sites, in the order of their call vertices.
    pub sites: Vec<SiteId>,
    /// The call site of each vertex that is a call vertex.
    site_at: IndexVec<Block, Option<SiteId>>,
}

impl Procedure {
    /// The call site whose call vertex is `b`, if any.
    pub fn site_at(&self, b: Block) -> Option<SiteId> {
        self.site_at[b]
    }
}

/// Why a supergraph is malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SupergraphError {
    /// `main` is not a procedure.
    NoMain,
    /// A call site names a procedure that does not exist.
    NoSuchProcedure(SiteId),
    /// The call vertex of a site does not have its return site as its only successor.
    CallVertex {
        /// The procedure.
        proc: String,
        /// The call vertex.
        call: Block,
    },
    /// The return site of a call has another predecessor than its call vertex.
    ReturnSite {
        /// The procedure.
        proc: String,
        /// The return-site vertex.
        ret: Block,
    },
    /// A procedure's entry is a call vertex (the entry also starts the paths that begin at
    /// loop headers: give the call a vertex of its own).
    EntryCalls {
        /// The procedure.
        proc: String,
    },
    /// Two call sites share a call vertex.
    TwoCalls {
        /// The procedure.
        proc: String,
        /// The call vertex.
        call: Block,
    },
}

impl fmt::Display for SupergraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SupergraphError::NoMain => write!(f, "the program has no procedure main"),
            SupergraphError::NoSuchProcedure(s) => {
                write!(f, "call site {s} calls a procedure that does not exist")
            }
            SupergraphError::CallVertex { proc, call } => write!(
                f,
                "in {proc}: call vertex {call} must have its return site as its only successor"
            ),
            SupergraphError::ReturnSite { proc, ret } => write!(
                f,
                "in {proc}: return site {ret} must have its call vertex as its only predecessor"
            ),
            SupergraphError::EntryCalls { proc } => write!(
                f,
                "in {proc}: the entry must not be a call vertex (give the call a vertex of its own)"
            ),
            SupergraphError::TwoCalls { proc, call } => {
                write!(f, "in {proc}: vertex {call} makes two calls")
            }
        }
    }
}

impl std::error::Error for SupergraphError {}

/// A program's supergraph. See the module docs.
#[derive(Clone, Debug)]
pub struct Supergraph {
    procs: IndexVec<ProcId, Procedure>,
    sites: IndexVec<SiteId, CallSite>,
    main: ProcId,
}

impl Supergraph {
    /// The supergraph of the procedures `procs` (name and CFG) with the call sites `sites`,
    /// whose program starts in `main`; checks the shape of every call.
    pub fn new(
        procs: Vec<(String, Cfg)>,
        sites: Vec<CallSite>,
        main: ProcId,
    ) -> Result<Supergraph, SupergraphError> {
        if main.index() >= procs.len() {
            return Err(SupergraphError::NoMain);
        }
        let mut procs: IndexVec<ProcId, Procedure> = IndexVec::from_raw(
            procs
                .into_iter()
                .map(|(name, cfg)| Procedure {
                    site_at: IndexVec::from_elem(None, cfg.num_blocks()),
                    name,
                    cfg,
                    sites: Vec::new(),
                })
                .collect(),
        );
        let sites: IndexVec<SiteId, CallSite> = IndexVec::from_raw(sites);
        for (s, site) in sites.iter_enumerated() {
            let exists = |p: ProcId| p.index() < procs.len();
            if !exists(site.caller) {
                return Err(SupergraphError::NoSuchProcedure(s));
            }
            if let Callee::Direct(q) = site.callee {
                if !exists(q) {
                    return Err(SupergraphError::NoSuchProcedure(s));
                }
            }
            let p = &mut procs[site.caller];
            let cfg = &p.cfg;
            let (c, r) = (site.call, site.ret);
            if c == cfg.entry() {
                return Err(SupergraphError::EntryCalls {
                    proc: p.name.clone(),
                });
            }
            if c.index() >= cfg.num_blocks() || cfg.successors(c) != [r] {
                return Err(SupergraphError::CallVertex {
                    proc: p.name.clone(),
                    call: c,
                });
            }
            if cfg.in_degree(r) != 1 {
                return Err(SupergraphError::ReturnSite {
                    proc: p.name.clone(),
                    ret: r,
                });
            }
            if p.site_at[c].is_some() {
                return Err(SupergraphError::TwoCalls {
                    proc: p.name.clone(),
                    call: c,
                });
            }
            p.site_at[c] = Some(s);
        }
        for p in procs.raw_iter_mut() {
            p.sites = p.site_at.iter().flatten().copied().collect();
        }
        Ok(Supergraph { procs, sites, main })
    }

    /// The procedure the program starts in.
    pub fn main(&self) -> ProcId {
        self.main
    }

    /// Number of procedures.
    pub fn num_procs(&self) -> usize {
        self.procs.len()
    }

    /// Every procedure's id.
    pub fn procs(&self) -> impl ExactSizeIterator<Item = ProcId> + Clone {
        (0..self.procs.len()).map(ProcId::new)
    }

    /// Procedure `p`.
    pub fn proc(&self, p: ProcId) -> &Procedure {
        &self.procs[p]
    }

    /// Number of call sites.
    pub fn num_sites(&self) -> usize {
        self.sites.len()
    }

    /// Call site `s`.
    pub fn site(&self, s: SiteId) -> &CallSite {
        &self.sites[s]
    }

    /// Every call site's id.
    pub fn sites(&self) -> impl ExactSizeIterator<Item = SiteId> + Clone {
        (0..self.sites.len()).map(SiteId::new)
    }

    /// The procedure named `name`.
    pub fn proc_named(&self, name: &str) -> Option<ProcId> {
        self.procs().find(|&p| self.procs[p].name == name)
    }
}
