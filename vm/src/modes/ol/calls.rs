//! The `ol` mode's paths across calls (Tallam, Zhang & Gupta 2004, section 3; the definitions
//! and the bounds are [`profiler::overlap::calls`]'): I-OL-K paths (the caller's path up to a
//! call, then the callee's first path up to its `(K + 1)`-th predicate) and II-OL-K paths
//! (the callee's path to its return, then the caller's path from the call up to its
//! `(K + 1)`-th predicate), counted per call site and callee.
//!
//! The paper passes the caller's path register and the callee's id (`func`) across the call
//! and counts `count[callee][site][callee path][caller path]` at the end of the caller's
//! overlapping graph. Here no probe is added: the sink already sees every activation start,
//! every path complete and every return. Each activation keeps the ids of its first and last
//! paths; at its return the caller's activation records the call (callee, the part of its
//! first path an I-OL-K path keeps, its last path). When the caller's path completes, its
//! Ball-Larus id says which call sites it passed, in order ([`IdCalls::sites`]): the recorded
//! calls are paired with them and each is counted twice, into and out of the callee. Both
//! parts of a path are interned per function ([`Parts`]), worked out once per Ball-Larus id.
//!
//! A call is counted when the callee ran its whole activation in instrumented code and the
//! caller's path through the call did too: an on-stack replacement drops the calls of the
//! path it interrupts, and a path whose recorded calls do not match its call sites (which
//! only a trap could leave) counts none.

use hashbrown::HashMap;
use lang::bytecode::{Function, Instr, Pc};
use profiler::overlap::calls::{CallSite, Crossing};
use profiler::overlap::definition::overlap_len;
use profiler::Block;
use smallvec::SmallVec;

use crate::tier::cfg_build::FunctionCfg;

/// Blocks of paths interned per function: an id per distinct sequence.
#[derive(Debug, Default)]
pub(super) struct Parts {
    ids: HashMap<Vec<Block>, u32>,
    blocks: Vec<Vec<Block>>,
}

impl Parts {
    /// The id of `blocks`, new if they were not seen.
    pub(super) fn intern(&mut self, blocks: &[Block]) -> u32 {
        if let Some(&id) = self.ids.get(blocks) {
            return id;
        }
        let id = self.blocks.len() as u32;
        self.blocks.push(blocks.to_vec());
        self.ids.insert(blocks.to_vec(), id);
        id
    }

    /// The blocks of part `id`.
    pub(super) fn blocks(&self, id: u32) -> &[Block] {
        &self.blocks[id as usize]
    }
}

/// What one Ball-Larus id of a tiered-up function means across calls.
#[derive(Clone, Debug)]
pub(super) struct IdCalls {
    /// As a callee's first path: the part an I-OL-K path keeps.
    pub first: u32,
    /// As a callee's last path: the whole path.
    pub whole: u32,
    /// As a caller's path: each call along it, in order, with the path up to the call's
    /// block and the part from that block on that a II-OL-K path keeps.
    pub sites: Box<[(CallSite, u32, u32)]>,
}

/// The pcs of `func`'s calls (direct and through a pointer), in order.
pub(super) fn call_pcs(func: &Function) -> Vec<Pc> {
    // Verified code fits its pcs (`Pc` is 16 bits).
    func.code
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Instr::Call { .. } | Instr::CallInd { .. }))
        .map(|(pc, _)| Pc(pc as u16))
        .collect()
}

/// A function's calls: per block, the pcs of its calls in order.
#[derive(Clone, Debug, Default)]
pub(super) struct CallSites {
    by_block: Vec<SmallVec<[Pc; 1]>>,
}

impl CallSites {
    /// The calls at `pcs` (in order, [`call_pcs`]) placed in the blocks of `fc` (a call in
    /// unreachable code has no block and no site).
    pub fn new(pcs: &[Pc], fc: &FunctionCfg) -> CallSites {
        let mut by_block = vec![SmallVec::new(); fc.num_blocks()];
        for &pc in pcs {
            if let Some(b) = fc.block_of_pc(pc) {
                by_block[b.index()].push(pc);
            }
        }
        CallSites { by_block }
    }

    /// The number of calls in block `b`.
    pub fn calls_in(&self, b: Block) -> usize {
        self.by_block.get(b.index()).map_or(0, SmallVec::len)
    }

    /// The pc of call site `site`, if it exists.
    pub fn pc(&self, site: CallSite) -> Option<Pc> {
        self.by_block
            .get(site.block.index())?
            .get(site.nth as usize)
            .copied()
    }
}

/// The meaning across calls of the path `nodes`, interning its parts in `parts`: `k` the
/// degree, `is_predicate` the function's predicates.
pub(super) fn id_calls(
    nodes: &[Block],
    sites: &CallSites,
    k: u32,
    is_predicate: &[bool],
    parts: &mut Parts,
) -> IdCalls {
    let pred = |b: Block| is_predicate[b.index()];
    let first = parts.intern(&nodes[..overlap_len(nodes, k, pred)]);
    let whole = parts.intern(nodes);
    let mut along = Vec::new();
    for (i, &b) in nodes.iter().enumerate() {
        let n = sites.calls_in(b);
        if n == 0 {
            continue;
        }
        let before = parts.intern(&nodes[..=i]);
        let rest = &nodes[i..];
        let after = parts.intern(&rest[..overlap_len(rest, k, pred)]);
        for nth in 0..n {
            let site = CallSite {
                block: b,
                nth: nth as u32,
            };
            along.push((site, before, after));
        }
    }
    IdCalls {
        first,
        whole,
        sites: along.into_boxed_slice(),
    }
}

/// A path across a call, as counted: both parts interned, `before` in the function the path
/// starts in (the caller [`Crossing::Into`], the callee [`Crossing::Out`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct CrossKey {
    pub crossing: Crossing,
    pub caller: u32,
    pub site: CallSite,
    pub callee: u32,
    pub before: u32,
    pub after: u32,
}

/// A call the running path of an activation made: the callee, the part of its first path an
/// I-OL-K path keeps, and its last path (interned in the callee's parts).
#[derive(Clone, Copy, Debug)]
pub(super) struct Pending {
    pub callee: u32,
    pub first: u32,
    pub last: u32,
}

/// The most calls a path records: a path with more counts none (a path passes each call
/// site once; this bounds what a frame running uninstrumented code could pile up).
pub(super) const MAX_PENDING: usize = 256;

/// No value (`u32::MAX`) in a [`Frame`]'s id fields.
pub(super) const NONE: u32 = u32::MAX;

/// An activation as the `ol` sink follows it: small, since one is pushed and popped per call.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// The path-graph head of its last path cut by a back edge, waiting for its overlap
    /// (`u64::MAX`: none).
    pub head: u64,
    /// Its function (`u32::MAX`: none).
    pub func: u32,
    /// The [`IdCalls`] index of its first path, once it completed ([`NONE`] before); also
    /// [`NONE`] for good when an on-stack replacement started it in the middle (`late`).
    pub first: u32,
    /// The [`IdCalls`] index of its last completed path ([`NONE`]: none yet).
    pub last: u32,
    /// Where its running path's calls start in the sink's stack of pending calls.
    pub calls_from: u32,
    /// An on-stack replacement started it in the middle: its first path is not from the
    /// entry.
    pub late: bool,
}

impl Frame {
    /// A fresh activation of `func` whose calls will start at `calls_from`.
    pub fn new(func: u32, calls_from: usize) -> Frame {
        Frame {
            head: u64::MAX,
            func,
            first: NONE,
            last: NONE,
            calls_from: calls_from as u32,
            late: false,
        }
    }
}

/// Entries of [`CrossCounts`]' cache (a slot is the top 6 bits of a multiplicative hash).
const CACHED: usize = 64;

/// The counts of paths across calls: a hash table fronted by a direct-mapped cache of
/// counts, so the few paths a hot call site repeats are counted by a key comparison and an
/// increment (an evicted entry's count is added to the table). [`CrossCounts::drain`] gives
/// the totals.
#[derive(Debug)]
pub(super) struct CrossCounts {
    table: HashMap<CrossKey, u64>,
    cache: Box<[(CrossKey, u64); CACHED]>,
}

impl Default for CrossCounts {
    fn default() -> Self {
        let empty = CrossKey {
            crossing: Crossing::Into,
            caller: u32::MAX,
            site: CallSite {
                block: Block::new(0),
                nth: 0,
            },
            callee: u32::MAX,
            before: 0,
            after: 0,
        };
        CrossCounts {
            table: HashMap::new(),
            cache: Box::new([(empty, 0); CACHED]),
        }
    }
}

impl CrossCounts {
    /// Counts `key` once.
    #[inline]
    pub fn count(&mut self, key: CrossKey) {
        let site = u64::from(key.site.block.as_u32()) << 8 | u64::from(key.site.nth);
        let mixed = (u64::from(key.before) << 32 | u64::from(key.after))
            .wrapping_add(site << 1 | key.crossing as u64)
            .wrapping_add(u64::from(key.callee) << 40)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = (mixed >> 58) as usize;
        let entry = &mut self.cache[slot];
        if entry.0 == key {
            entry.1 += 1;
        } else {
            self.evict(slot, key);
        }
    }

    /// Adds slot `slot`'s count to the table and gives the slot to `key`, counted once.
    #[cold]
    fn evict(&mut self, slot: usize, key: CrossKey) {
        let (old, n) = std::mem::replace(&mut self.cache[slot], (key, 1));
        if n > 0 {
            *self.table.entry(old).or_insert(0) += n;
        }
    }

    /// Every count, the cache's added in.
    pub fn totals(&self) -> HashMap<CrossKey, u64> {
        let mut all = self.table.clone();
        for &(key, n) in self.cache.iter().filter(|(_, n)| *n > 0) {
            *all.entry(key).or_insert(0) += n;
        }
        all
    }
}
