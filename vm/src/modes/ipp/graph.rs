//! The supergraph of a compiled program (Melski & Reps section 2.2), as the profiler's
//! [`Supergraph`]: each function's [`FunctionCfg`] with every block that makes calls split at
//! them, so each call gets a call vertex and a return-site vertex.
//!
//! A block `b` with calls at pcs `p1 < ... < pm` becomes the vertices `b.0 .. b.m`: `b.0` is
//! entered by `b`'s in-edges, `b.(i-1)` is the call vertex of the call at `pi` and `b.i` its
//! return site, and `b.m` leaves by `b`'s out-edges. A block without calls is one vertex.
//! When the entry block itself calls, the procedure gets a vertex of its own in front of it
//! (the entry also starts the paths that begin at loop headers, and may not be a call vertex).
//! Splitting blocks into chains changes neither the depth-first search's back edges nor the
//! loop headers, so paths are cut where `bl` cuts them. `Call` is a direct call site,
//! `CallInd` an indirect one (section 9.2.3).

use lang::bytecode::{FuncIdx, Instr, Pc, Program};
use profiler::index::IndexVec;
use profiler::interproc::{CallSite, Callee, ProcId, SiteId, Supergraph};
use profiler::{Block, CfgBuilder, Edge};

use crate::tier::cfg_build::{BlockKind, FunctionCfg};

/// One function's side of the split.
#[derive(Debug)]
pub struct SplitFunction {
    /// The function's CFG of bytecode.
    pub fc: FunctionCfg,
    /// Per bytecode-CFG edge: the supergraph edge it stands for.
    pub edge: IndexVec<Edge, Edge>,
    /// Per supergraph vertex: the bytecode-CFG block it is part of.
    pub block_of: IndexVec<Block, Block>,
    /// The calls, in pc order: the pc of each and its site.
    pub calls: Vec<(Pc, SiteId)>,
    /// Per bytecode-CFG block: its call sites in pc order.
    pub block_sites: IndexVec<Block, Vec<SiteId>>,
    /// The vertex added in front of an entry block that calls, if any.
    pub extra_entry: Option<Block>,
}

/// A program's supergraph and how it maps to the bytecode.
#[derive(Debug)]
pub struct ProgramGraph {
    /// The supergraph (one procedure per function, same indices).
    pub sg: Supergraph,
    /// Per function.
    pub funcs: Vec<SplitFunction>,
}

impl ProgramGraph {
    /// The supergraph of `program`.
    pub fn new(program: &Program) -> Result<ProgramGraph, String> {
        let mut named = Vec::with_capacity(program.functions.len());
        let mut sites = Vec::new();
        let mut funcs = Vec::with_capacity(program.functions.len());
        for (i, func) in program.functions.iter().enumerate() {
            let fc = FunctionCfg::of_function(func)
                .map_err(|e| format!("function {}: {e}", func.name))?;
            let cfg = fc.cfg();
            // The calls of each block, in pc order.
            let mut block_calls: IndexVec<Block, Vec<(Pc, Callee)>> =
                IndexVec::from_elem(Vec::new(), cfg.num_blocks());
            for (b, info) in fc.blocks() {
                if let BlockKind::Code { start, end } = info.kind {
                    for pc in start.index()..end.index() {
                        let callee = match func.code[pc] {
                            Instr::Call { f, .. } => Callee::Direct(ProcId::new(f.index())),
                            Instr::CallInd { .. } => Callee::Indirect,
                            _ => continue,
                        };
                        block_calls[b].push((Pc(pc as u16), callee));
                    }
                }
            }
            let mut builder = CfgBuilder::new();
            let mut block_of: IndexVec<Block, Block> = IndexVec::new();
            let extra_entry = (!block_calls[cfg.entry()].is_empty()).then(|| {
                block_of.push(cfg.entry());
                builder.add_block()
            });
            // first[b] and last[b]: the vertices b.0 and b.m.
            let mut first = IndexVec::from_elem(Block::new(0), cfg.num_blocks());
            let mut last = IndexVec::from_elem(Block::new(0), cfg.num_blocks());
            let mut block_sites = IndexVec::from_elem(Vec::new(), cfg.num_blocks());
            let mut calls = Vec::new();
            for b in cfg.blocks() {
                let v0 = builder.add_block();
                block_of.push(b);
                first[b] = v0;
                let mut prev = v0;
                for &(pc, callee) in &block_calls[b] {
                    let r = builder.add_block();
                    block_of.push(b);
                    builder.add_edge(prev, r);
                    let site = SiteId::new(sites.len());
                    sites.push(CallSite {
                        caller: ProcId::new(i),
                        call: prev,
                        ret: r,
                        callee,
                    });
                    calls.push((pc, site));
                    block_sites[b].push(site);
                    prev = r;
                }
                last[b] = prev;
            }
            if let Some(e) = extra_entry {
                builder.add_edge(e, first[cfg.entry()]);
            }
            for b in cfg.blocks() {
                for &s in cfg.successors(b) {
                    builder.add_edge(last[b], first[s]);
                }
            }
            let entry = extra_entry.unwrap_or(first[cfg.entry()]);
            let split = builder
                .finish(entry, last[cfg.exit()])
                .map_err(|e| format!("function {}: {e}", func.name))?;
            let edge = IndexVec::from_raw(
                cfg.edges()
                    .map(|e| {
                        split
                            .find_edge(last[cfg.source(e)], first[cfg.target(e)])
                            .expect("every edge is copied")
                    })
                    .collect(),
            );
            named.push((func.name.clone(), split));
            funcs.push(SplitFunction {
                fc,
                edge,
                block_of,
                calls,
                block_sites,
                extra_entry,
            });
        }
        let sg = Supergraph::new(named, sites, ProcId::new(program.main.index()))
            .map_err(|e| e.to_string())?;
        Ok(ProgramGraph { sg, funcs })
    }

    /// The procedure of function `f`.
    pub fn proc(f: FuncIdx) -> ProcId {
        ProcId::new(f.index())
    }
}
