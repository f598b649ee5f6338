//! The control-flow graph of one function's bytecode, as a [`profiler::Cfg`].
//!
//! ## Blocks
//! Leaders are found from the instruction table's [`Flow`] property alone (no opcode is named
//! here): pc 0, every target of a `Jump`/`Cond` instruction and every arm and default of a
//! `Table` (`JTab`), and every instruction after one that does not simply fall through
//! (`Jump`, `Cond`, `Table`, `Return`, `Halt`). `Call` and `Next` instructions never end a
//! block, and neither does an instruction that may trap: a trap abandons the activation in the
//! middle of its block (the path in progress is then incomplete, see [`crate::modes::trace::oracle`]).
//!
//! Successors of a block are the successors of its last instruction, in this order (the order
//! the profiler's depth-first search and canonical numbering visit them): the fall-through
//! first, then the branch target; for a jump table its arms in table order, then its default,
//! each distinct target once (several arms, or a conditional branch whose target is the next
//! instruction, share one CFG edge; [`FunctionCfg::bytecode_edges`] lists them all).
//!
//! One virtual **exit** block joins every `Ret`/`RetV` (a `Return` flow) and every `Exit`
//! (a `Halt` flow: the program ends in this activation, so its last path ends at the exit like
//! a return's). When pc 0 is itself a jump target (a function whose body starts with a loop
//! entered at the top, such as a `do`-`while`), the entry block would have predecessors, which a
//! [`Cfg`] forbids: a virtual **entry** block with no instructions then comes first, with one
//! edge to the block of pc 0.
//!
//! **Numbering** (stable: the same code always gives the same ids): the virtual entry if any,
//! then the code blocks in pc order, then the exit. Code the function can never run is
//! dropped: instructions unreachable from pc 0 along the bytecode's own successors (the
//! compiler's implicit `RetV` after a final `return`, the code after a `break`) get no block,
//! [`FunctionCfg::block_of_pc`] returns `None` for them and they never execute, so no path can
//! contain them. Every block is then reachable from the entry; blocks of a loop the function
//! never leaves cannot reach the exit, which the profiler allows (their paths end at headers).
//!
//! ## Loop headers and yield points
//! The compiler puts loop tests at the bottom, so the backward pc jump of a loop is not always
//! the profiler's back edge. The profiler's headers are the targets of depth-first back edges
//! (visiting successors in the order above). For structured code (loop statements, `break`,
//! `continue`, and `goto`s that do not jump into a loop) the graphs are reducible and a loop's
//! header is its *entry block*: the first block of the loop that control reaches from outside,
//! whatever the DFS order. A `goto` into a loop gives the loop a second entry, and the graph
//! is irreducible: the header is then whichever entry the depth-first search reaches first
//! (`docs/language.md`, "Loops and goto"). For the reducible shapes, two cases:
//!
//! ```text
//!   while (c) body;                          do body; while (c);  /  for with a guard
//!     @2  Jmp   @6        (loop entry)         @2  body ...        <- header (top)
//!     @3  body ...                              ...
//!     @6  test; Jcc @3    <- header (bottom)    @5  test; Jcc @2    (backward jump = back edge)
//!   back edge: the fall-through @5 -> @6;     back edge: the backward jump @5 -> @2
//!   the backward jump @6 -> @3 is a tree edge
//! ```
//!
//! In the first shape the header is the test block at the *bottom*, entered by a forward `Jmp`
//! from before the loop and by the fall-through (or a forward `continue` jump) from the body;
//! the backward pc jump leaves the test, which may span several blocks (`i < n && ok`: the
//! header holds `i < n`, the backward jump is in the block of `ok`). In the second the header is
//! the block at the *top* and the backward pc jump enters it. In both, every backward pc jump
//! lies inside a loop (both ends in one natural loop), and since any cycle of the code must
//! jump to a lower or equal pc somewhere, every iteration of every loop takes at least one
//! backward pc jump: the interpreter's [`crate::probes::Probes::on_back_edge`] hook fires at
//! least once per iteration, though not necessarily at the header.
//!
//! The **yield point** of a header (where a path is cut under `header` path ends, where the
//! next path starts, and so where a frame that switched to instrumented code mid-loop starts
//! counting) is the header block's first pc, [`FunctionCfg::first_pc`]: arriving there is
//! arriving at the header, by whichever edge. [`FunctionCfg::yield_points`] lists them. The
//! design note (`docs/design/tiering.md`) says how on-stack replacement, triggered by tier
//! 0 at a backward jump, joins the instrumented code and starts counting at the next yield
//! point.
//!
//! ## Smart numbering input
//! [`FunctionCfg::edge_profile`] turns tier 0's counters (invocations, branch outcomes by pc,
//! jump-table targets by pc) into a [`profiler::EdgeProfile`]; edges without a counter (out of
//! single-successor blocks) follow by flow conservation.

use std::fmt;

use lang::bytecode::{Flow, Function, Instr, JumpTable, Loc, Pc};
use profiler::index::IndexVec;
use profiler::{Block, Cfg, CfgBuilder, CfgError, DepthFirst, Edge, EdgeProfile};
use smallvec::{smallvec, SmallVec};

/// How control leaves the instruction at a pc along one bytecode edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Way {
    /// To the next instruction: a fall-through, or a conditional branch not taken.
    Next,
    /// To the jump target of a `Jump` or a taken `Cond` instruction.
    Taken,
    /// To arm `k` of a jump table (the target of value `low + k`).
    Arm(u32),
    /// To a jump table's default target.
    Default,
    /// Out of the function: a return, or the end of the program (`Exit`).
    Leave,
}

impl fmt::Display for Way {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Way::Next => f.write_str("next"),
            Way::Taken => f.write_str("taken"),
            Way::Arm(k) => write!(f, "arm {k}"),
            Way::Default => f.write_str("default"),
            Way::Leave => f.write_str("leave"),
        }
    }
}

/// One bytecode edge: the instruction at `pc` passing control on along `way`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BcEdge {
    /// The last instruction of the source block.
    pub pc: Pc,
    /// Which way control leaves it.
    pub way: Way,
}

impl fmt::Display for BcEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.pc, self.way)
    }
}

/// What a block of a [`FunctionCfg`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// The virtual entry (no instructions; only when pc 0 is a jump target).
    Entry,
    /// Instructions `start .. end` of the code (`end` exclusive).
    Code {
        /// First instruction.
        start: Pc,
        /// One past the last instruction.
        end: Pc,
    },
    /// The virtual exit joining every return and `Exit`.
    Exit,
}

/// A block of a [`FunctionCfg`]: its instructions and its source lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// What the block stands for.
    pub kind: BlockKind,
    /// The smallest and largest source line of its instructions (lines known as 0 are
    /// ignored); `None` for the virtual blocks and for code without line information.
    pub lines: Option<[u32; 2]>,
}

/// Why a code version has no CFG. The verifier rejects all of these first, so the VM never
/// sees one; the builder still reports them rather than panicking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CfgBuildError {
    /// The code is empty.
    Empty,
    /// `code` and `locs` differ in length.
    LocsMismatch {
        /// Number of instructions.
        code: usize,
        /// Number of locations.
        locs: usize,
    },
    /// A jump target (or table entry) is outside the code.
    BadTarget {
        /// The branch.
        pc: Pc,
        /// The target.
        target: Pc,
    },
    /// A `Jump` or `Cond` instruction without a target operand (an instruction table
    /// inconsistent with its flows).
    NoTarget {
        /// The instruction.
        pc: Pc,
    },
    /// A `JTab` names a jump table that does not exist.
    BadTable {
        /// The `JTab`.
        pc: Pc,
    },
    /// The last instruction falls through past the end of the code.
    FallsOffEnd {
        /// The last instruction's pc.
        pc: Pc,
    },
    /// The profiler rejected the graph (cannot happen for graphs built here; kept for honesty).
    Cfg(CfgError),
}

impl fmt::Display for CfgBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CfgBuildError::Empty => f.write_str("the function has no code"),
            CfgBuildError::LocsMismatch { code, locs } => {
                write!(f, "{code} instructions but {locs} source locations")
            }
            CfgBuildError::BadTarget { pc, target } => {
                write!(f, "the branch at {pc} jumps to {target}, outside the code")
            }
            CfgBuildError::NoTarget { pc } => {
                write!(f, "the branch at {pc} has no target operand")
            }
            CfgBuildError::BadTable { pc } => {
                write!(
                    f,
                    "the jump table of the instruction at {pc} does not exist"
                )
            }
            CfgBuildError::FallsOffEnd { pc } => {
                write!(f, "the last instruction ({pc}) falls through past the end")
            }
            CfgBuildError::Cfg(e) => write!(f, "invalid control-flow graph: {e}"),
        }
    }
}

impl std::error::Error for CfgBuildError {}

/// The CFG of one code version with its pc <-> block and bytecode edge <-> CFG edge maps. See
/// the [module documentation](self).
#[derive(Clone, Debug)]
pub struct FunctionCfg {
    cfg: Cfg,
    /// Per block: kind and lines. Invariant: code blocks are in increasing pc order and cover
    /// exactly the reachable pcs.
    blocks: IndexVec<Block, BlockInfo>,
    /// The block of every pc, `None` for unreachable code.
    block_of_pc: Vec<Option<Block>>,
    /// The bytecode edges each CFG edge stands for (empty for the virtual entry's edge), in
    /// the order of [`Way`]s at their pc.
    edge_sources: IndexVec<Edge, SmallVec<[BcEdge; 1]>>,
}

/// The successors of one instruction: how control leaves it and where to (`None`: the function
/// returns). Inline for all but `switch` tables, so building a CFG does not allocate per
/// instruction.
type Successors = SmallVec<[(Way, Option<usize>); 2]>;

/// The bytecode successors of the instruction at `pc`: `(way, target)` with `None` for
/// [`Way::Leave`], in successor order, before removing duplicate targets.
fn instr_successors(
    code: &[Instr],
    tables: &[JumpTable],
    pc: usize,
) -> Result<Successors, CfgBuildError> {
    let n = code.len();
    let ins = &code[pc];
    let here = Pc(pc as u16);
    let check = |t: Pc| {
        if t.index() < n {
            Ok(Some(t.index()))
        } else {
            Err(CfgBuildError::BadTarget {
                pc: here,
                target: t,
            })
        }
    };
    let next = || {
        if pc + 1 < n {
            Ok(Some(pc + 1))
        } else {
            Err(CfgBuildError::FallsOffEnd { pc: here })
        }
    };
    let target = || ins.target().ok_or(CfgBuildError::NoTarget { pc: here });
    Ok(match ins.flow() {
        Flow::Next | Flow::Call => smallvec![(Way::Next, next()?)],
        Flow::Jump => smallvec![(Way::Taken, check(target()?)?)],
        Flow::Cond => smallvec![(Way::Next, next()?), (Way::Taken, check(target()?)?)],
        Flow::Table => {
            let table = match ins {
                Instr::JTab { tab, .. } => tables.get(tab.index()),
                _ => None,
            }
            .ok_or(CfgBuildError::BadTable { pc: here })?;
            let mut out = Successors::with_capacity(table.targets.len() + 1);
            for (k, &t) in table.targets.iter().enumerate() {
                out.push((Way::Arm(k as u32), check(t)?));
            }
            out.push((Way::Default, check(table.default)?));
            out
        }
        Flow::Return | Flow::Halt => smallvec![(Way::Leave, None)],
    })
}

impl FunctionCfg {
    /// The CFG of a compiled function's code.
    pub fn of_function(f: &Function) -> Result<FunctionCfg, CfgBuildError> {
        FunctionCfg::build(&f.code, &f.locs, &f.tables)
    }

    /// The CFG of a code version: its instructions, their source locations and its jump tables.
    pub fn build(
        code: &[Instr],
        locs: &[Loc],
        tables: &[JumpTable],
    ) -> Result<FunctionCfg, CfgBuildError> {
        let n = code.len();
        if n == 0 {
            return Err(CfgBuildError::Empty);
        }
        if locs.len() != n {
            return Err(CfgBuildError::LocsMismatch {
                code: n,
                locs: locs.len(),
            });
        }
        // Phase 1: successors of every instruction (validating targets).
        let succ: Vec<Successors> = (0..n)
            .map(|pc| instr_successors(code, tables, pc))
            .collect::<Result<_, _>>()?;
        // Phase 2: pcs reachable from pc 0.
        let mut reachable = vec![false; n];
        let mut work = vec![0usize];
        reachable[0] = true;
        while let Some(pc) = work.pop() {
            for &(_, t) in &succ[pc] {
                if let Some(t) = t {
                    if !reachable[t] {
                        reachable[t] = true;
                        work.push(t);
                    }
                }
            }
        }
        // Phase 3: leaders among the reachable pcs.
        let mut leader = vec![false; n];
        leader[0] = true;
        let mut pc0_is_target = false;
        for pc in (0..n).filter(|&pc| reachable[pc]) {
            let ends_block = !matches!(code[pc].flow(), Flow::Next | Flow::Call);
            for &(way, t) in &succ[pc] {
                if let Some(t) = t {
                    if way != Way::Next || ends_block {
                        leader[t] = true;
                    }
                    if t == 0 {
                        pc0_is_target = true;
                    }
                }
            }
        }
        // Phase 4: blocks, numbered virtual entry, code blocks in pc order, exit.
        let mut blocks: IndexVec<Block, BlockInfo> = IndexVec::new();
        if pc0_is_target {
            blocks.push(BlockInfo {
                kind: BlockKind::Entry,
                lines: None,
            });
        }
        let mut block_of_pc = vec![None; n];
        let mut pc = 0;
        while pc < n {
            if !reachable[pc] {
                pc += 1;
                continue;
            }
            let start = pc;
            pc += 1;
            while pc < n && reachable[pc] && !leader[pc] {
                pc += 1;
            }
            let lines = locs[start..pc]
                .iter()
                .map(|l| l.line)
                .filter(|&l| l != 0)
                .fold(None, |acc: Option<[u32; 2]>, l| match acc {
                    None => Some([l, l]),
                    Some([a, b]) => Some([a.min(l), b.max(l)]),
                });
            let b = blocks.push(BlockInfo {
                kind: BlockKind::Code {
                    start: Pc(start as u16),
                    end: Pc(pc as u16),
                },
                lines,
            });
            block_of_pc[start..pc].fill(Some(b));
        }
        let exit = blocks.push(BlockInfo {
            kind: BlockKind::Exit,
            lines: None,
        });
        // Phase 5: edges, in successor order, one per distinct target block.
        let mut builder = CfgBuilder::new();
        builder.add_blocks(blocks.len());
        let entry = Block::new(0);
        let mut sources: Vec<(Block, Block, BcEdge)> = Vec::with_capacity(blocks.len() * 2);
        if pc0_is_target {
            builder.add_edge(entry, Block::new(1));
        }
        for (b, info) in blocks.iter_enumerated() {
            let BlockKind::Code { end, .. } = info.kind else {
                continue;
            };
            let last = end.index() - 1;
            let mut targets: SmallVec<[Block; 2]> = SmallVec::new();
            for &(way, t) in &succ[last] {
                let tb = match t {
                    Some(t) => block_of_pc[t].expect("successors of reachable code are reachable"),
                    None => exit,
                };
                if !targets.contains(&tb) {
                    targets.push(tb);
                    builder.add_edge(b, tb);
                }
                sources.push((
                    b,
                    tb,
                    BcEdge {
                        pc: Pc(last as u16),
                        way,
                    },
                ));
            }
        }
        let cfg = builder.finish(entry, exit).map_err(CfgBuildError::Cfg)?;
        let mut edge_sources = IndexVec::from_elem(SmallVec::new(), cfg.num_edges());
        for (b, tb, bc) in sources {
            let e = cfg
                .find_edge(b, tb)
                .expect("every recorded bytecode edge was added");
            edge_sources[e].push(bc);
        }
        Ok(FunctionCfg {
            cfg,
            blocks,
            block_of_pc,
            edge_sources,
        })
    }

    /// The graph.
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    /// Number of blocks (virtual ones included).
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Kind and lines of block `b`.
    pub fn block(&self, b: Block) -> &BlockInfo {
        &self.blocks[b]
    }

    /// Every block's kind and lines, in block order.
    pub fn blocks(&self) -> impl ExactSizeIterator<Item = (Block, &BlockInfo)> {
        self.blocks.iter_enumerated()
    }

    /// The source line span `[first, last]` of block `b`, if it has instructions with lines.
    pub fn lines(&self, b: Block) -> Option<[u32; 2]> {
        self.blocks[b].lines
    }

    /// Whether the entry is the virtual block (pc 0 is a jump target).
    pub fn has_virtual_entry(&self) -> bool {
        self.blocks[self.cfg.entry()].kind == BlockKind::Entry
    }

    /// The block holding the instruction at `pc`, or `None` if that code is unreachable (or
    /// `pc` is outside the code).
    pub fn block_of_pc(&self, pc: Pc) -> Option<Block> {
        self.block_of_pc.get(pc.index()).copied().flatten()
    }

    /// The first instruction of block `b` (`None` for the virtual blocks). For a loop header
    /// this is its yield point.
    pub fn first_pc(&self, b: Block) -> Option<Pc> {
        match self.blocks[b].kind {
            BlockKind::Code { start, .. } => Some(start),
            _ => None,
        }
    }

    /// The last instruction of block `b` (`None` for the virtual blocks): the one whose
    /// bytecode edges leave the block.
    pub fn last_pc(&self, b: Block) -> Option<Pc> {
        match self.blocks[b].kind {
            BlockKind::Code { end, .. } => Some(Pc(end.0 - 1)),
            _ => None,
        }
    }

    /// Whether CFG edge `e` goes forward in the code: its source block ends before its target
    /// block starts (the virtual entry's edge, which runs before any code, and edges into the
    /// virtual exit count as forward). On-stack replacement enters only at the targets of
    /// backward jumps, so never through a forward edge.
    pub fn is_forward(&self, e: Edge) -> bool {
        match (
            self.last_pc(self.cfg.source(e)),
            self.first_pc(self.cfg.target(e)),
        ) {
            (Some(from), Some(to)) => from < to,
            _ => true,
        }
    }

    /// The edge after `e` in a chain of one-way blocks: the only edge out of `e`'s target,
    /// when `e` is forward ([`FunctionCfg::is_forward`]) and the target has one way in and one
    /// way out. A value carried along such a chain reaches the same paths, and no on-stack
    /// replacement enters inside it.
    pub fn one_way_next(&self, e: Edge) -> Option<Edge> {
        let v = self.cfg.target(e);
        if !self.is_forward(e) || self.cfg.in_degree(v) != 1 || self.cfg.out_degree(v) != 1 {
            return None;
        }
        self.cfg.succ_edges(v).next()
    }

    /// The block control enters when the program arrives at `pc` by a jump or fall-through:
    /// `Some` only if `pc` starts a block.
    pub fn block_starting_at(&self, pc: Pc) -> Option<Block> {
        self.block_of_pc(pc)
            .filter(|&b| self.first_pc(b) == Some(pc))
    }

    /// The CFG edge a bytecode edge stands for, or `None` if `bc.pc` does not end a block or
    /// has no such way out.
    pub fn edge(&self, bc: BcEdge) -> Option<Edge> {
        let b = self.block_of_pc(bc.pc)?;
        if self.last_pc(b) != Some(bc.pc) {
            return None;
        }
        self.cfg
            .succ_edges(b)
            .find(|&e| self.edge_sources[e].contains(&bc))
    }

    /// The bytecode edges CFG edge `e` stands for (several when arms share a target, or when a
    /// conditional branch jumps to the next instruction; none for the virtual entry's edge).
    pub fn bytecode_edges(&self, e: Edge) -> &[BcEdge] {
        &self.edge_sources[e]
    }

    /// The loop headers (depth-first, successors in order: exactly what
    /// [`profiler::BallLarus`] computes) with their yield points, in block order.
    pub fn yield_points(&self, dfs: &DepthFirst) -> Vec<(Block, Pc)> {
        let mut out: Vec<(Block, Pc)> = dfs
            .headers()
            .iter()
            .filter_map(|&h| self.first_pc(h).map(|pc| (h, pc)))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Number of instructions that belong to no block (unreachable code).
    pub fn num_dropped_pcs(&self) -> usize {
        self.block_of_pc.iter().filter(|b| b.is_none()).count()
    }

    /// The edge profile tier 0's counters imply, for smart numbering
    /// ([`profiler::Numbering::Smart`]) and event-counting weights.
    ///
    /// Tier 0 counts what its hooks see: `invocations` (`on_entry`), each conditional branch's
    /// outcomes (`branch(pc, taken)`, from `on_branch`) and each jump table's targets
    /// (`switch(pc, target)`, from `on_switch`; arms sharing a target are one CFG edge and
    /// counted once). Edges out of a block with a single successor (a fall-through, a `Jmp`,
    /// a return) have no counter: they get the block's count, the sum of its incoming edges
    /// (the virtual entry's edge and the entry block's count are `invocations`), by flow
    /// conservation, solved in reverse postorder and repeated until stable, since a back
    /// edge's count is known only after its loop's blocks (at most one pass per loop nesting
    /// level, plus one; capped at the number of blocks for loops without any branch).
    /// For runs whose activations all finished, the result is the exact edge profile.
    pub fn edge_profile(
        &self,
        invocations: u64,
        branch: impl Fn(Pc, bool) -> u64,
        switch: impl Fn(Pc, Pc) -> u64,
    ) -> EdgeProfile {
        let cfg = &self.cfg;
        let mut prof = EdgeProfile::zeros(cfg);
        for b in cfg.blocks().filter(|&b| cfg.out_degree(b) > 1) {
            for e in cfg.succ_edges(b) {
                let t = self.first_pc(cfg.target(e));
                prof.edges[e] = self.edge_sources[e]
                    .iter()
                    .fold(0u64, |acc, bc| {
                        let n = match bc.way {
                            Way::Next => branch(bc.pc, false),
                            Way::Taken => branch(bc.pc, true),
                            _ => 0,
                        };
                        acc.saturating_add(n)
                    })
                    .saturating_add(match self.edge_sources[e].first() {
                        Some(bc) if matches!(bc.way, Way::Arm(_) | Way::Default) => {
                            t.map_or(0, |t| switch(bc.pc, t))
                        }
                        _ => 0,
                    });
            }
        }
        let dfs = DepthFirst::compute(cfg);
        let rpo: Vec<Block> = dfs.postorder().iter().rev().copied().collect();
        let single: Vec<bool> = cfg.blocks().map(|b| cfg.out_degree(b) == 1).collect();
        for _ in 0..cfg.num_blocks().max(1) {
            let mut changed = false;
            for &b in &rpo {
                if !single[b.index()] {
                    continue;
                }
                let count = if b == cfg.entry() {
                    invocations
                } else {
                    cfg.pred_edges(b)
                        .iter()
                        .fold(0u64, |acc, &e| acc.saturating_add(prof.edges[e]))
                };
                let e = cfg.succ_edge(b, 0);
                if prof.edges[e] != count {
                    prof.edges[e] = count;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        prof
    }
}
