//! The instrumented copy of a function's code: probe instructions inserted on CFG edges.
//!
//! Input: the compiled [`Function`], its [`FunctionCfg`] and a [`ProbeCode`]: the instructions
//! to run on entry, on taking each CFG edge, and on entering each block (every profiling mode
//! lowers its plan to this form: Ball-Larus increments and counts, trace block records,
//! k-iteration probes). Output: a [`Version`] with the same registers, arrays, constants and
//! sites (so a frame can switch to it mid-run: on-stack replacement), and where each block now
//! starts.
//!
//! ## Layout
//! Code blocks are emitted in pc order (unreachable code is dropped); each is its *label*
//! (where jumps to it land), its block probes, then its instructions. The probes of an edge go
//! where only that edge runs them (the k-BLPP paper's section 3.2: increments fused with the
//! branches that choose the edge):
//! - fall-through edge (a `Cond` not taken, or a block ending because the next pc is a
//!   leader): right after the block's last instruction, before the next block's label;
//! - `Jmp`: before the jump (a lone `PathAdd` is fused with it into `PathJmp`);
//! - taken edge of a `Cond` that only ends a path (its probes are one `PathEnd`, the usual
//!   back edge of a loop under `backedge` path ends, and of a `do`-`while` or fused `for` loop
//!   under `header`): the branch's `Pe` twin ([`Instr::with_path_end_on_taken`]), which ends
//!   the path itself when taken, with the pair of constants it reads in the version's
//!   path-end pairs (up to 256 a version): no stub, no extra dispatch;
//! - any other taken edge of a `Cond` with probes, arm of a `JTab`: a *stub* after all blocks,
//!   `probes; Jmp label` (or `PathJmp` when the probes are one `PathAdd`), and the branch or
//!   table entry is retargeted to the stub, so the edge costs one dispatch and only when taken;
//!   a `Cond` whose target is the next instruction (one CFG edge both ways) jumps to the
//!   fall-through probes instead;
//! - edge into the exit (`Ret`, `RetV`, `Exit`): before the returning instruction, followed by
//!   the exit block's probes; a final `PathCount` and a `Ret` (`RetV`) become one `RetPc`
//!   (`RetVPc`).
//!
//! New pc 0 holds the entry probes, then (when the CFG has a virtual entry, i.e. old pc 0 is a
//! loop header) the virtual entry's block and edge probes; jumps to old pc 0 land on the first
//! block's label, after them. Inserted instructions take the source location of the instruction
//! they follow (or precede), so traps and stack traces keep pointing at the source.
//!
//! Targets are resolved in a second pass ([`Instr::for_each_target_mut`]), and the result is
//! checked against the 65,535-instruction limit of a version.

use hashbrown::HashMap;
use lang::bytecode::{Flow, FuncIdx, Function, Instr, JumpTable, Loc, PairIdx, Pc, ProbeIdx};
use profiler::index::IndexVec;
use profiler::{Block, Edge};

use super::cfg_build::{BcEdge, BlockKind, FunctionCfg, Way};
use crate::version::Version;

/// What to insert: the probe instructions of each place, and the constants they read.
#[derive(Clone, Debug, Default)]
pub struct ProbeCode {
    /// Run at the start of every activation (new pc 0).
    pub entry: Vec<Instr>,
    /// Run when control takes each CFG edge (for an edge into the exit: before the return).
    pub edges: IndexVec<Edge, Vec<Instr>>,
    /// Run when control enters each block (after the edge's probes). For the exit block: after
    /// the probes of the edge into it, before the return.
    pub blocks: IndexVec<Block, Vec<Instr>>,
    /// Run right before the instruction at each of these pcs (of the original code), inside
    /// its block: the `ipp` modes say which call site a call is made from.
    pub before: HashMap<Pc, Vec<Instr>>,
    /// The version's probe constants (`Q[k]` of the path instructions).
    pub consts: Vec<u64>,
    /// Where each constant is in `consts` (for reuse).
    index: HashMap<u64, ProbeIdx>,
}

impl ProbeCode {
    /// Empty probes for every edge and block of `fc`.
    pub fn new(fc: &FunctionCfg) -> ProbeCode {
        let cfg = fc.cfg();
        ProbeCode {
            entry: Vec::new(),
            edges: IndexVec::from_elem(Vec::new(), cfg.num_edges()),
            blocks: IndexVec::from_elem(Vec::new(), cfg.num_blocks()),
            before: HashMap::new(),
            consts: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Adds a probe constant (reusing an equal one) and returns its index, or `None` if the
    /// version already has 65,536 distinct constants.
    pub fn constant(&mut self, value: u64) -> Option<ProbeIdx> {
        if let Some(&k) = self.index.get(&value) {
            return Some(k);
        }
        let k = ProbeIdx(u16::try_from(self.consts.len()).ok()?);
        self.consts.push(value);
        self.index.insert(value, k);
        Some(k)
    }
}

/// The path-end pairs `E[k] = [c, s]` of a version under construction (at most 256).
#[derive(Default)]
struct PathEndPairs {
    pairs: Vec<[u64; 2]>,
}

impl PathEndPairs {
    /// The index of the pair `[c, s]`, added if new; `None` once the version has 256 (the
    /// branch then keeps its stub).
    fn pair(&mut self, c: u64, s: u64) -> Option<PairIdx> {
        let k = match self.pairs.iter().position(|&p| p == [c, s]) {
            Some(k) => k,
            None => {
                u8::try_from(self.pairs.len()).ok()?;
                self.pairs.push([c, s]);
                self.pairs.len() - 1
            }
        };
        Some(PairIdx(k as u8))
    }
}

/// An instrumented version and where its blocks start.
#[derive(Clone, Debug)]
pub struct Instrumented {
    /// The new code version (not yet verified: [`crate::interp::Machine::add_version`] does).
    pub version: Version,
    /// The new pc of each code block's label (where jumps to the block land: its block probes,
    /// then its first instruction); `None` for the virtual blocks.
    pub block_start: IndexVec<Block, Option<Pc>>,
    /// The new pc of each instruction of the compiled code (`None` for dropped code).
    pub new_pc: Vec<Option<Pc>>,
    /// The new pc of the first probe instruction of each edge whose probes were emitted (an
    /// edge's probes are emitted once, inline or in one stub).
    pub edge_probes_at: IndexVec<Edge, Option<Pc>>,
}

/// Why no instrumented version could be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodegenError {
    /// The new code would exceed the 65,535 instructions a version may hold.
    TooLong {
        /// Its length.
        len: usize,
    },
    /// The CFG does not describe this function's code (a bug).
    Mismatch(String),
}

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodegenError::TooLong { len } => write!(
                f,
                "instrumented code would have {len} instructions (at most 65535)"
            ),
            CodegenError::Mismatch(m) => write!(f, "CFG and code disagree: {m}"),
        }
    }
}

/// A jump destination before layout is final.
#[derive(Clone, Copy, Debug)]
enum Label {
    /// A code block's label.
    Block(Block),
    /// A stub (index into the stub list).
    Stub(usize),
    /// A fixed position of the new code.
    At(usize),
}

/// A stub: probes, then a jump to a block.
struct Stub {
    probes: Vec<Instr>,
    /// The edge the probes are for.
    edge: Edge,
    to: Block,
    loc: Loc,
}

/// The new code under construction.
struct Emitter {
    code: Vec<Instr>,
    locs: Vec<Loc>,
    /// (position, label) of every instruction whose target is to be resolved.
    fixups: Vec<(usize, Label)>,
}

impl Emitter {
    fn push(&mut self, ins: Instr, loc: Loc) -> usize {
        self.code.push(ins);
        self.locs.push(loc);
        self.code.len() - 1
    }

    fn push_all(&mut self, probes: &[Instr], loc: Loc) {
        for &p in probes {
            self.push(p, loc);
        }
    }

    /// The position the next instruction gets.
    fn here(&self) -> Pc {
        Pc(self.code.len() as u16)
    }

    /// Emits `probes` then a jump to `to`, fusing a lone `PathAdd` (`PathEnd`) into `PathJmp`
    /// (`PathEndJmp`).
    fn probes_then_jump(&mut self, probes: &[Instr], to: Label, loc: Loc) {
        let at = match probes {
            [Instr::PathAdd { k }] => self.push(Instr::PathJmp { k: *k, t: Pc(0) }, loc),
            [Instr::PathEnd { c, s }] => self.push(
                Instr::PathEndJmp {
                    c: *c,
                    s: *s,
                    t: Pc(0),
                },
                loc,
            ),
            _ => {
                self.push_all(probes, loc);
                self.push(Instr::Jmp { t: Pc(0) }, loc)
            }
        };
        self.fixups.push((at, to));
    }
}

/// How control reaches the code of an edge's probes in the layout [`instrument`] makes, which
/// decides what they cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carrier {
    /// Probes right after the source block's last instruction (a fall-through, a branch not
    /// taken, or the virtual entry's edge at pc 0): one dispatch each.
    FallThrough,
    /// A `Jmp`: a lone probe fuses with it.
    Jump,
    /// A conditional branch taken: a path end fuses with it (`Pe` twin), anything else is a
    /// stub.
    Branch,
    /// A jump-table arm: a stub.
    Arm,
}

/// How control reaches edge `e`'s probes (`None` for an edge of no instruction but the
/// virtual entry's, which never happens for an edge of a CFG built from code).
pub fn carrier(fc: &FunctionCfg, func: &Function, e: Edge) -> Option<Carrier> {
    let Some(bc) = fc.bytecode_edges(e).first() else {
        // The virtual entry's edge: its probes run at new pc 0, before the first block.
        return Some(Carrier::FallThrough);
    };
    let flow = func.code.get(bc.pc.index())?.flow();
    Some(match (bc.way, flow) {
        (Way::Next, _) => Carrier::FallThrough,
        (Way::Taken, Flow::Jump) => Carrier::Jump,
        (Way::Taken, _) => Carrier::Branch,
        (Way::Arm(_) | Way::Default, _) => Carrier::Arm,
        (Way::Leave, _) => return None,
    })
}

/// Generates the instrumented copy of function `index` of the program, `func` (whose CFG is
/// `fc`), with the probes of `probes`.
pub fn instrument(
    index: FuncIdx,
    func: &Function,
    fc: &FunctionCfg,
    probes: &ProbeCode,
) -> Result<Instrumented, CodegenError> {
    let cfg = fc.cfg();
    let mismatch = |m: String| CodegenError::Mismatch(m);
    let edge_of = |pc: Pc, way: Way| {
        fc.edge(BcEdge { pc, way })
            .ok_or_else(|| mismatch(format!("no CFG edge for {pc} {way}")))
    };
    let target_block = |e: Edge| cfg.target(e);
    let mut out = Emitter {
        code: Vec::with_capacity(func.code.len() * 2),
        locs: Vec::with_capacity(func.code.len() * 2),
        fixups: Vec::new(),
    };
    let mut stubs: Vec<Stub> = Vec::new();
    let mut tables: Vec<JumpTable> = func.tables.clone();
    // Jump-table entries to resolve: (table, arm or None for the default, label).
    let mut table_fixups: Vec<(usize, Option<usize>, Label)> = Vec::new();
    let mut block_start: IndexVec<Block, Option<Pc>> = IndexVec::from_elem(None, cfg.num_blocks());
    let mut label_pos: IndexVec<Block, usize> = IndexVec::from_elem(0, cfg.num_blocks());
    let first_loc = func.locs.first().copied().unwrap_or_default();
    let mut pairs = PathEndPairs::default();
    let mut new_pc: Vec<Option<Pc>> = vec![None; func.code.len()];
    let mut edge_probes_at: IndexVec<Edge, Option<Pc>> = IndexVec::from_elem(None, cfg.num_edges());
    // Emits the probes of edge `e` inline, recording where they start.
    macro_rules! edge_probes {
        ($e:expr, $loc:expr) => {{
            let e: Edge = $e;
            if !probes.edges[e].is_empty() {
                edge_probes_at[e] = Some(out.here());
                out.push_all(&probes.edges[e], $loc);
            }
        }};
    }

    out.push_all(&probes.entry, first_loc);
    if fc.has_virtual_entry() {
        let ventry = cfg.entry();
        out.push_all(&probes.blocks[ventry], first_loc);
        let e = cfg
            .succ_edges(ventry)
            .next()
            .ok_or_else(|| mismatch("virtual entry without an edge".into()))?;
        edge_probes!(e, first_loc);
    }

    for (b, info) in fc.blocks() {
        let BlockKind::Code { start, end } = info.kind else {
            continue;
        };
        let here = out.code.len();
        label_pos[b] = here;
        block_start[b] = Some(Pc(here as u16));
        let (start, end) = (start.index(), end.index());
        out.push_all(&probes.blocks[b], func.locs[start]);
        let before = |pc: usize| {
            probes
                .before
                .get(&Pc(pc as u16))
                .map_or(&[][..], Vec::as_slice)
        };
        for (pc, at) in new_pc.iter_mut().enumerate().take(end - 1).skip(start) {
            out.push_all(before(pc), func.locs[pc]);
            *at = Some(out.here());
            out.push(func.code[pc], func.locs[pc]);
        }
        let last = end - 1;
        let (ins, loc) = (func.code[last], func.locs[last]);
        let lpc = Pc(last as u16);
        out.push_all(before(last), loc);
        new_pc[last] = Some(out.here());
        match ins.flow() {
            Flow::Next | Flow::Call => {
                out.push(ins, loc);
                edge_probes!(edge_of(lpc, Way::Next)?, loc);
            }
            Flow::Cond => {
                let next = edge_of(lpc, Way::Next)?;
                let taken = edge_of(lpc, Way::Taken)?;
                // A taken edge that only ends a path: the branch's `Pe` twin ends it, with no
                // stub (one dispatch less per path on a loop's back edge).
                let fused = match probes.edges[taken][..] {
                    [Instr::PathEnd { c, s }] if next != taken => pairs
                        .pair(probes.consts[c.index()], probes.consts[s.index()])
                        .and_then(|k| ins.with_path_end_on_taken(k)),
                    _ => None,
                };
                let at = out.push(fused.unwrap_or(ins), loc);
                let to = if next == taken {
                    Label::At(at + 1)
                } else if probes.edges[taken].is_empty() || fused.is_some() {
                    Label::Block(target_block(taken))
                } else {
                    stubs.push(Stub {
                        probes: probes.edges[taken].clone(),
                        edge: taken,
                        to: target_block(taken),
                        loc,
                    });
                    Label::Stub(stubs.len() - 1)
                };
                out.fixups.push((at, to));
                edge_probes!(next, loc);
            }
            Flow::Jump => {
                let e = edge_of(lpc, Way::Taken)?;
                if !probes.edges[e].is_empty() {
                    edge_probes_at[e] = Some(out.here());
                }
                out.probes_then_jump(&probes.edges[e], Label::Block(target_block(e)), loc);
                new_pc[last] = Some(Pc((out.code.len() - 1) as u16));
            }
            Flow::Table => {
                let Instr::JTab { tab, .. } = ins else {
                    return Err(mismatch(format!("{lpc}: a table flow that is not JTab")));
                };
                let t = tab.index();
                let arms = func.tables.get(t).map_or(0, |tb| tb.targets.len());
                let ways = (0..arms)
                    .map(|k| (Some(k), Way::Arm(k as u32)))
                    .chain([(None, Way::Default)]);
                // One stub per CFG edge with probes, shared by the arms of that edge.
                let mut stub_of: Vec<(Edge, usize)> = Vec::new();
                for (arm, way) in ways {
                    let e = edge_of(lpc, way)?;
                    let label = if probes.edges[e].is_empty() {
                        Label::Block(target_block(e))
                    } else if let Some(&(_, s)) = stub_of.iter().find(|(x, _)| *x == e) {
                        Label::Stub(s)
                    } else {
                        stubs.push(Stub {
                            probes: probes.edges[e].clone(),
                            edge: e,
                            to: target_block(e),
                            loc,
                        });
                        stub_of.push((e, stubs.len() - 1));
                        Label::Stub(stubs.len() - 1)
                    };
                    table_fixups.push((t, arm, label));
                }
                out.push(ins, loc);
            }
            Flow::Return | Flow::Halt => {
                let e = edge_of(lpc, Way::Leave)?;
                let before = out.code.len();
                edge_probes!(e, loc);
                out.push_all(&probes.blocks[cfg.exit()], loc);
                // A path's count right before `Ret`/`RetV` goes into the return (one dispatch
                // less per call).
                let last_probe = out.code[before..].last();
                let fused = match (last_probe, ins) {
                    (Some(&Instr::PathCount { c }), Instr::Ret { a }) => {
                        Some(Instr::RetPc { a, c })
                    }
                    (Some(&Instr::PathCount { c }), Instr::RetV {}) => Some(Instr::RetVPc { c }),
                    _ => None,
                };
                if let Some(fused) = fused {
                    *out.code.last_mut().expect("the count") = fused;
                    new_pc[last] = Some(Pc((out.code.len() - 1) as u16));
                } else {
                    new_pc[last] = Some(out.here());
                    out.push(ins, loc);
                }
            }
        }
    }

    let mut stub_pos = Vec::with_capacity(stubs.len());
    for stub in &stubs {
        stub_pos.push(out.code.len());
        edge_probes_at[stub.edge] = Some(out.here());
        out.probes_then_jump(&stub.probes, Label::Block(stub.to), stub.loc);
    }
    let len = out.code.len();
    if len > usize::from(u16::MAX) {
        return Err(CodegenError::TooLong { len });
    }
    let resolve = |l: Label| -> Pc {
        Pc(match l {
            Label::Block(b) => label_pos[b],
            Label::Stub(s) => stub_pos[s],
            Label::At(p) => p,
        } as u16)
    };
    for &(at, label) in &out.fixups {
        let t = resolve(label);
        out.code[at].for_each_target_mut(|p| *p = t);
    }
    for &(t, arm, label) in &table_fixups {
        let pc = resolve(label);
        match arm {
            Some(k) => tables[t].targets[k] = pc,
            None => tables[t].default = pc,
        }
    }
    Ok(Instrumented {
        version: Version {
            func: index,
            code: out.code.into_boxed_slice(),
            locs: out.locs.into_boxed_slice(),
            tables: tables.into_boxed_slice(),
            probe_consts: probes.consts.clone().into_boxed_slice(),
            path_end_pairs: pairs.pairs.into_boxed_slice(),
            instrumented: true,
            tier0: false,
            calls_hooked: false,
            block_start: block_start.iter().copied().collect(),
            counters: crate::branch_counts::Counters::new(len),
            dense: Default::default(),
        },
        block_start,
        new_pc,
        edge_probes_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_end_pairs_are_shared_and_at_most_256() {
        let mut pairs = PathEndPairs::default();
        assert_eq!(pairs.pair(1, 2), Some(PairIdx(0)));
        assert_eq!(pairs.pair(2, 1), Some(PairIdx(1)));
        assert_eq!(pairs.pair(1, 2), Some(PairIdx(0)));
        for c in 2..256 {
            assert_eq!(pairs.pair(c, c), Some(PairIdx(c as u8)));
        }
        // The 257th distinct pair has no index: its branch keeps a stub.
        assert_eq!(pairs.pair(1000, 0), None);
        assert_eq!(pairs.pairs.len(), 256);
        assert_eq!(pairs.pair(255, 255), Some(PairIdx(255)));
    }
}
