//! The k-iteration loop-unrolled DAG `G_lu(k)` (Roy & Srikant 2009, section 3.1), built
//! implicitly from the CFG.
//!
//! A *state* is a pair `(block, s)`:
//! - `s = 0`: no k-iteration loop is active (the block may still belong to one, when the loop
//!   was entered elsewhere than at its header in an irreducible graph);
//! - `s = i`, `1 <= i <= K`: the block's k-loop `L` is active and the path being followed is in
//!   its `i`-th iteration (the block is `b^i`, the `i`-th version of the block in the paper).
//!
//! Blocks of k-loops have `K + 1` states, the others one. The DAG has two more nodes, `Start` and
//! `End`. Its edges follow the reference semantics of the design note (`cfg-format.md`,
//! "Reference semantics of k-iteration counting"), one DAG edge per (CFG edge, source state):
//!
//! | from        | CFG edge `u -> v`                                   | to                    |
//! |-------------|-----------------------------------------------------|-----------------------|
//! | `(u, i)`    | leaves `L` (an *exit*): as from `(u, 0)` below      |                       |
//! | `(u, i<K)`  | back edge of `L`                                    | `(h, i+1)`            |
//! | `(u, K)`    | back edge of `L`                                    | `End` (path ends at h)|
//! | `(u, i)`    | other edge inside `L`                               | `(v, i)`              |
//! | `(u, 0)`    | ends a path (back edge / edge into a header / cut)  | `End` (ends at `v`)   |
//! | `(u, 0)`    | enters k-loop `L'` at its header from outside       | `(v, 1)`              |
//! | `(u, 0)`    | any other edge                                      | `(v, 0)`              |
//! | `(exit, 0)` | (the invocation ends)                               | `End` (end `null`)    |
//!
//! `Start` has one edge to `(entry, 0)`, then one *restart* edge per start block `v` (loop
//! headers and extra cut blocks, by block index, as in the acyclic [`crate::dag::PathDag`]) to
//! `(v, 1)` if `v` heads a k-loop and `(v, 0)` otherwise. The restart edge of a k-loop's header
//! is the paper's dummy edge `delta_L^start`; the `End` edges of `(t, K)` are `delta_L^end`.
//!
//! Out-edges of a state are ordered as in the acyclic DAG: the edges to states in successor
//! order, then the `End` edges in successor order. Only the states reachable from `Start` are
//! explored, by one depth-first search in that order; its postorder is the reverse topological
//! order used by the numbering (for Figure 1 it is the paper's `[E, 6, 5, 3, 4, 2, 1, S]` with the
//! loop visited twice, exactly Table 1). The search also proves acyclicity: meeting a state on
//! the stack is reported as an internal error instead of looping.

use super::KIterError;
use crate::cfg::{Block, Cfg, Edge};
use crate::dag::PathEnds;
use crate::dfs::DepthFirst;
use crate::index::IndexVec;
use crate::loops::{LoopId, Loops};
use smallvec::SmallVec;

/// "No value" for the `u32` tables below.
pub(crate) const NONE: u32 = u32::MAX;
/// Target of a DAG edge that ends the path.
pub(crate) const END: u32 = u32::MAX - 1;

/// The k-iteration loops (innermost loops not demoted to acyclic profiling), numbered densely.
#[derive(Clone, Debug)]
pub(crate) struct KLoops {
    /// The loop of `Loops` each k-loop is.
    pub ids: Vec<LoopId>,
    /// The header of each k-loop.
    pub header: Vec<Block>,
    /// The k-loop headed by a block, or `NONE`.
    pub of_header: IndexVec<Block, u32>,
    /// The k-loops containing each block (more than one only in irreducible graphs).
    pub members: IndexVec<Block, SmallVec<[u32; 1]>>,
}

impl KLoops {
    /// The k-loops `chosen` (innermost loops of `loops`).
    pub fn new(cfg: &Cfg, loops: &Loops, chosen: &[LoopId]) -> Self {
        let n = cfg.num_blocks();
        let mut of_header = IndexVec::from_elem(NONE, n);
        let mut members: IndexVec<Block, SmallVec<[u32; 1]>> =
            IndexVec::from_elem(SmallVec::new(), n);
        let mut header = Vec::with_capacity(chosen.len());
        for (k, &l) in chosen.iter().enumerate() {
            let h = loops.header(l);
            header.push(h);
            of_header[h] = k as u32;
            for &b in loops.blocks(l) {
                members[b].push(k as u32);
            }
        }
        KLoops {
            ids: chosen.to_vec(),
            header,
            of_header,
            members,
        }
    }

    /// Number of k-loops.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether k-loop `l` contains block `b`.
    #[inline]
    pub fn contains(&self, l: u32, b: Block) -> bool {
        self.members[b].contains(&l)
    }
}

/// A DAG edge's target, as computed by [`Unrolled::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// The target state, or `END`.
    pub to: u32,
    /// The k-loop active in the target state (`NONE` for `s = 0` states and `END`).
    pub to_loop: u32,
    /// The edge leaves the active k-loop (a loop-exit edge taken while the loop is active).
    pub exits: bool,
    /// The edge is the back edge of the active loop in iteration `K` (`delta^end`): the path
    /// restarting at the header is a `delta^start` path.
    pub delta: bool,
}

/// The unrolled DAG of one CFG for one set of k-loops, with its reachable states explored.
/// Invariants (after [`Unrolled::new`]): `postorder` lists every reachable state once, each
/// after all its successors; `state_loop[x]` is the active k-loop of every reachable state with
/// `s >= 1`; `target[d]` is set for every DAG edge leaving a reachable state.
#[derive(Clone, Debug)]
pub(crate) struct Unrolled<'a> {
    pub cfg: &'a Cfg,
    pub dfs: &'a DepthFirst,
    pub k: u32,
    pub path_ends: PathEnds,
    pub kloops: KLoops,
    /// Extra cut blocks (overflow fallback): arriving there ends a path.
    pub is_cut: IndexVec<Block, bool>,
    /// First state of each block; the block has `K + 1` states if it is in a k-loop, else one.
    pub state_base: IndexVec<Block, u32>,
    /// The block of each state.
    pub state_block: Vec<Block>,
    /// First DAG edge of each CFG edge: DAG edge `edge_base[e] + s` leaves state `s` of the source.
    pub edge_base: Vec<u32>,
    /// The DAG edge `(exit, 0) -> End`.
    pub exit_dedge: u32,
    /// Start blocks in order (the targets of `Start`'s restart edges).
    pub starts: Vec<Block>,
    /// Target state of `Start`'s edges: `(entry, 0)`, then one per start block.
    pub start_to: Vec<u32>,
    /// The active k-loop of each state (`NONE` for `s = 0` or unreachable states).
    pub state_loop: Vec<u32>,
    /// Whether each state is reachable from `Start`.
    pub reachable: Vec<bool>,
    /// Per DAG edge: target state, `END`, or `NONE` if its source is unreachable.
    pub target: Vec<u32>,
    /// Per DAG edge: whether it leaves the active k-loop.
    pub exits: Vec<bool>,
    /// Reachable states, successors first (`End` and `Start` excluded).
    pub postorder: Vec<u32>,
    /// Per k-loop: whether some path restarts at its header other than by the loop's own back
    /// edge in iteration K. Then the paths starting at the header are not only `delta^start`
    /// paths and none is invalid (design note: both kinds share one numbering).
    pub restarts_from_outside: Vec<bool>,
}

impl<'a> Unrolled<'a> {
    /// Builds and explores the unrolled DAG.
    pub fn new(
        cfg: &'a Cfg,
        dfs: &'a DepthFirst,
        k: u32,
        path_ends: PathEnds,
        kloops: KLoops,
        cuts: &[Block],
    ) -> Result<Self, KIterError> {
        let n = cfg.num_blocks();
        let mut is_cut = IndexVec::from_elem(false, n);
        for &b in cuts {
            if b != cfg.entry() && b != cfg.exit() {
                is_cut[b] = true;
            }
        }
        // Sizes first, with checked arithmetic, so that a huge K is refused before allocating.
        let per_loop_block = (k as usize).checked_add(1).ok_or(KIterError::TooLarge)?;
        let loop_blocks = cfg
            .blocks()
            .filter(|&b| !kloops.members[b].is_empty())
            .count();
        let total = loop_blocks
            .checked_mul(per_loop_block)
            .and_then(|x| x.checked_add(n - loop_blocks))
            .ok_or(KIterError::TooLarge)?;
        to_u32(total)?;
        let mut state_base = IndexVec::from_elem(0u32, n);
        let mut state_block = Vec::with_capacity(total);
        for b in cfg.blocks() {
            state_base[b] = state_block.len() as u32;
            let count = if kloops.members[b].is_empty() {
                1
            } else {
                per_loop_block
            };
            state_block.extend(std::iter::repeat_n(b, count));
        }
        let num_states = state_block.len();
        let mut edge_base = Vec::with_capacity(cfg.num_edges());
        let mut num_dedges = 0usize;
        for e in cfg.edges() {
            edge_base.push(to_u32(num_dedges)?);
            num_dedges = num_dedges
                .checked_add(state_count(&state_base, &state_block, cfg.source(e)))
                .ok_or(KIterError::TooLarge)?;
        }
        let exit_dedge = to_u32(num_dedges)?;
        num_dedges += 1;
        // The plan's value table holds at most 2 values per DAG edge and iteration, plus K.
        to_u32(num_dedges.saturating_mul(2).saturating_add(k as usize + 1))?;
        let starts: Vec<Block> = cfg
            .blocks()
            .filter(|&b| (dfs.is_header(b) || is_cut[b]) && b != cfg.entry() && b != cfg.exit())
            .collect();
        let mut un = Unrolled {
            cfg,
            dfs,
            k,
            path_ends,
            restarts_from_outside: vec![false; kloops.len()],
            kloops,
            is_cut,
            state_base,
            state_block,
            edge_base,
            exit_dedge,
            start_to: Vec::with_capacity(starts.len() + 1),
            starts,
            state_loop: vec![NONE; num_states],
            reachable: vec![false; num_states],
            target: vec![NONE; num_dedges],
            exits: vec![false; num_dedges],
            postorder: Vec::with_capacity(num_states),
        };
        un.start_to.push(un.state(cfg.entry(), 0));
        for i in 0..un.starts.len() {
            let v = un.starts[i];
            let (to, _) = un.restart_state(v);
            un.start_to.push(to);
        }
        un.explore()?;
        Ok(un)
    }

    /// The state `(b, s)`.
    #[inline]
    pub fn state(&self, b: Block, s: u32) -> u32 {
        self.state_base[b] + s
    }

    /// The iteration number `s` of a state.
    #[inline]
    pub fn iteration(&self, x: u32) -> u32 {
        x - self.state_base[self.state_block[x as usize]]
    }

    /// Number of states of block `b` (`K + 1` in a k-loop, else 1).
    #[inline]
    pub fn states_of(&self, b: Block) -> usize {
        state_count(&self.state_base, &self.state_block, b)
    }

    /// Total number of states.
    pub fn num_states(&self) -> usize {
        self.state_block.len()
    }

    /// Total number of DAG edges leaving states (the `Start` edges excluded).
    pub fn num_dedges(&self) -> usize {
        self.target.len()
    }

    /// The DAG edge leaving state `s` of `source(e)` along CFG edge `e`.
    #[inline]
    pub fn dedge(&self, e: Edge, s: u32) -> u32 {
        self.edge_base[e.index()] + s
    }

    /// Whether a path starting at `v` begins in iteration 1 of a k-loop: returns the restart state
    /// and its active k-loop.
    pub fn restart_state(&self, v: Block) -> (u32, u32) {
        let l = self.kloops.of_header[v];
        if l == NONE {
            (self.state(v, 0), NONE)
        } else {
            (self.state(v, 1), l)
        }
    }

    /// Whether CFG edge `e` ends a path when no k-loop is active.
    #[inline]
    fn ends_path(&self, e: Edge) -> bool {
        let v = self.cfg.target(e);
        self.is_cut[v]
            || match self.path_ends {
                PathEnds::Backedge => self.dfs.is_back_edge(e),
                PathEnds::Header => self.dfs.is_header(v),
            }
    }

    /// The DAG edge leaving state `s` of `u = source(e)` (active k-loop `lp`) along `e`: the
    /// table of the module documentation.
    pub fn step(&self, s: u32, lp: u32, e: Edge) -> Result<Step, KIterError> {
        let u = self.cfg.source(e);
        let v = self.cfg.target(e);
        if s > 0 {
            if !self.kloops.contains(lp, v) {
                let mut st = self.step_outside(u, e);
                st.exits = true;
                return Ok(st);
            }
            let h = self.kloops.header[lp as usize];
            if v == h {
                if !self.dfs.is_back_edge(e) {
                    // Proved impossible for states reachable from the header (an edge into
                    // the header from a block the header reaches inside the loop is a back
                    // edge); reported rather than guessed.
                    return Err(KIterError::Internal(format!(
                        "edge {u} -> {v} enters the active loop's header without being a back edge"
                    )));
                }
                return Ok(if s < self.k {
                    Step {
                        to: self.state(h, s + 1),
                        to_loop: lp,
                        exits: false,
                        delta: false,
                    }
                } else {
                    Step {
                        to: END,
                        to_loop: NONE,
                        exits: false,
                        delta: true,
                    }
                });
            }
            return Ok(Step {
                to: self.state(v, s),
                to_loop: lp,
                exits: false,
                delta: false,
            });
        }
        Ok(self.step_outside(u, e))
    }

    /// Steps 3 and 4 of the reference semantics: the edge taken with no active k-loop.
    fn step_outside(&self, u: Block, e: Edge) -> Step {
        let v = self.cfg.target(e);
        if self.ends_path(e) {
            return Step {
                to: END,
                to_loop: NONE,
                exits: false,
                delta: false,
            };
        }
        let l = self.kloops.of_header[v];
        if l != NONE && !self.kloops.contains(l, u) {
            Step {
                to: self.state(v, 1),
                to_loop: l,
                exits: false,
                delta: false,
            }
        } else {
            Step {
                to: self.state(v, 0),
                to_loop: NONE,
                exits: false,
                delta: false,
            }
        }
    }

    /// Depth-first search from `Start`, successors in DAG order: fills `reachable`,
    /// `state_loop`, `target`, `exits`, `postorder` and `restarts_from_outside`.
    fn explore(&mut self) -> Result<(), KIterError> {
        const WHITE: u8 = 0;
        const GRAY: u8 = 1;
        const BLACK: u8 = 2;
        let mut color = vec![WHITE; self.num_states()];
        // Frames: (state, next successor position); the Start frame is handled by the loop
        // over `start_to`.
        let mut stack: Vec<(u32, u32)> = Vec::new();
        let start_to = self.start_to.clone();
        let starts = self.starts.clone();
        for (i, &root) in start_to.iter().enumerate() {
            if color[root as usize] != WHITE {
                continue;
            }
            if i > 0 {
                let (_, l) = self.restart_state(starts[i - 1]);
                self.state_loop[root as usize] = l;
            }
            color[root as usize] = GRAY;
            self.reachable[root as usize] = true;
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (x, pos) = *top;
                let u = self.state_block[x as usize];
                let s = x - self.state_base[u];
                let deg = self.cfg.out_degree(u) as u32;
                if u == self.cfg.exit() {
                    self.target[self.exit_dedge as usize] = END;
                }
                if pos < deg {
                    top.1 += 1;
                    let e = self.cfg.succ_edge(u, pos as usize);
                    let lp = self.state_loop[x as usize];
                    let st = self.step(s, lp, e)?;
                    let d = self.dedge(e, s) as usize;
                    self.target[d] = st.to;
                    self.exits[d] = st.exits;
                    if st.to == END {
                        let v = self.cfg.target(e);
                        let l = self.kloops.of_header[v];
                        if l != NONE && !st.delta {
                            self.restarts_from_outside[l as usize] = true;
                        }
                        continue;
                    }
                    let t = st.to as usize;
                    match color[t] {
                        WHITE => {
                            color[t] = GRAY;
                            self.reachable[t] = true;
                            self.state_loop[t] = st.to_loop;
                            stack.push((st.to, 0));
                        }
                        GRAY => {
                            return Err(KIterError::Internal(format!(
                                "the unrolled graph has a cycle through block {}",
                                self.state_block[t]
                            )))
                        }
                        _ => {
                            if self.state_loop[t] != st.to_loop {
                                return Err(KIterError::Internal(format!(
                                    "block {} is reached with two different active loops",
                                    self.state_block[t]
                                )));
                            }
                        }
                    }
                } else {
                    color[x as usize] = BLACK;
                    self.postorder.push(x);
                    stack.pop();
                }
            }
        }
        Ok(())
    }
}

fn state_count(state_base: &IndexVec<Block, u32>, state_block: &[Block], b: Block) -> usize {
    let next = if b.index() + 1 < state_base.len() {
        state_base[Block::new(b.index() + 1)] as usize
    } else {
        state_block.len()
    };
    next - state_base[b] as usize
}

fn to_u32(n: usize) -> Result<u32, KIterError> {
    u32::try_from(n)
        .ok()
        .filter(|&v| v < END)
        .ok_or(KIterError::TooLarge)
}
