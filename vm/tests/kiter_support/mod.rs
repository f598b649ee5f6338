//! The reference semantics of k-iteration counting (`shared/design/cfg-format.md`, "Reference
//! semantics of k-iteration counting"), re-implemented on node sequences from the design note
//! alone, and the on-stack replacement rule of `docs/kiter-runtime.md` computed from it: shared
//! by `kiter_runtime` and `kiter_osr`.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use profiler::{Block, Cfg, Fallback, Path, PathEnds};

/// Loops by the design note's definitions, computed naively: back edges by a recursive
/// depth-first search from the entry (successors in order; `u -> v` is a back edge when `v` is
/// on the stack), natural loops by a backward search from the tails stopping at the header.
pub struct Loopy {
    pub back: BTreeSet<(Block, Block)>,
    /// Natural loop of each header.
    pub natural: BTreeMap<Block, BTreeSet<Block>>,
}

impl Loopy {
    pub fn new(cfg: &Cfg) -> Self {
        fn dfs(
            cfg: &Cfg,
            u: Block,
            seen: &mut BTreeSet<Block>,
            stack: &mut BTreeSet<Block>,
            back: &mut BTreeSet<(Block, Block)>,
        ) {
            seen.insert(u);
            stack.insert(u);
            for &v in cfg.successors(u) {
                if !seen.contains(&v) {
                    dfs(cfg, v, seen, stack, back);
                } else if stack.contains(&v) {
                    back.insert((u, v));
                }
            }
            stack.remove(&u);
        }
        let mut back = BTreeSet::new();
        dfs(
            cfg,
            cfg.entry(),
            &mut BTreeSet::new(),
            &mut BTreeSet::new(),
            &mut back,
        );
        let preds = |x: Block| -> Vec<Block> {
            cfg.blocks()
                .filter(|&p| cfg.successors(p).contains(&x))
                .collect()
        };
        let mut natural: BTreeMap<Block, BTreeSet<Block>> = BTreeMap::new();
        for &(t, h) in &back {
            let set = natural.entry(h).or_insert_with(|| BTreeSet::from([h]));
            let mut work = vec![t];
            while let Some(x) = work.pop() {
                if set.insert(x) {
                    work.extend(preds(x));
                }
            }
        }
        Loopy { back, natural }
    }

    pub fn is_header(&self, b: Block) -> bool {
        self.natural.contains_key(&b)
    }

    pub fn in_loop(&self, h: Block, x: Block) -> bool {
        self.natural.get(&h).is_some_and(|l| l.contains(&x))
    }

    /// Headers of innermost loops: loops containing no other loop's header.
    pub fn innermost(&self) -> BTreeSet<Block> {
        self.natural
            .iter()
            .filter(|(&h, l)| l.iter().all(|&x| x == h || !self.is_header(x)))
            .map(|(&h, _)| h)
            .collect()
    }
}

/// A partial path and the index of the step that started it (0: the entry).
pub type Partial = (Vec<Block>, usize);

/// The reference machine for one function.
pub struct Reference<'a> {
    pub cfg: &'a Cfg,
    pub loops: Loopy,
    pub k: usize,
    pub ends: PathEnds,
    pub k_headers: BTreeSet<Block>,
    pub cuts: BTreeSet<Block>,
}

impl<'a> Reference<'a> {
    /// The machine for `cfg`, with the fallbacks the numbering took (demoted loops are not
    /// k-loops; extra cut blocks end paths like headers).
    pub fn new(cfg: &'a Cfg, k: usize, ends: PathEnds, fallbacks: &[Fallback]) -> Self {
        let loops = Loopy::new(cfg);
        let mut k_headers = loops.innermost();
        let mut cuts = BTreeSet::new();
        for f in fallbacks {
            match f {
                Fallback::LoopToAcyclic { header, .. } => {
                    k_headers.remove(header);
                }
                Fallback::ExtraCuts { blocks, .. } => cuts.extend(blocks.iter().copied()),
            }
        }
        Reference {
            cfg,
            loops,
            k,
            ends,
            k_headers,
            cuts,
        }
    }

    pub fn ends_path(&self, u: Block, v: Block) -> bool {
        self.cuts.contains(&v)
            || match self.ends {
                PathEnds::Header => self.loops.is_header(v),
                PathEnds::Backedge => self.loops.back.contains(&(u, v)),
            }
    }

    /// Runs the design note's steps 1-4 along `blocks` (an activation from its entry; it
    /// reached the exit if `finished`), counting into `into` every path that started at a step
    /// after `osr` (`None`: every path).
    pub fn run(
        &self,
        blocks: &[Block],
        finished: bool,
        osr: Option<usize>,
        into: &mut BTreeMap<Path, u64>,
    ) {
        assert_eq!(blocks[0], self.cfg.entry());
        let mut count = |p: &Partial, end: Option<Block>| {
            if osr.is_none_or(|o| p.1 > o) {
                let path = Path {
                    nodes: p.0.clone(),
                    end,
                };
                *into.entry(path).or_insert(0) += 1;
            }
        };
        // The live counters c[0..=itr].
        let mut c: Vec<Partial> = vec![(vec![blocks[0]], 0)];
        let mut itr = 0usize;
        let mut active: Option<Block> = None;
        for (i, w) in blocks.windows(2).enumerate() {
            let (u, v) = (w[0], w[1]);
            let step = i + 1;
            assert!(self.cfg.find_edge(u, v).is_some());
            // 1. Leaving the active k-loop.
            if let Some(h) = active {
                if self.loops.in_loop(h, u) && !self.loops.in_loop(h, v) {
                    c = vec![c[itr].clone()];
                    itr = 0;
                    active = None;
                }
            }
            if active == Some(v) && self.loops.back.contains(&(u, v)) {
                // 2. A back edge of the active k-loop.
                if itr == self.k - 1 {
                    count(&c[itr], Some(v));
                }
                let mut shifted: Vec<Partial> = vec![(vec![v], step)];
                for p in c.iter().take(self.k - 1) {
                    let mut p = p.clone();
                    p.0.push(v);
                    shifted.push(p);
                }
                itr = (itr + 1).min(self.k - 1);
                shifted.truncate(itr + 1);
                c = shifted;
            } else if self.ends_path(u, v) {
                // 3. A path end.
                count(&c[0], Some(v));
                c = vec![(vec![v], step)];
                itr = 0;
                active = None;
                if self.k_headers.contains(&v) {
                    active = Some(v);
                }
            } else {
                // 4. Any other edge.
                for p in &mut c {
                    p.0.push(v);
                }
                if self.k_headers.contains(&v) && !self.loops.in_loop(v, u) {
                    active = Some(v);
                    itr = 0;
                    c.truncate(1);
                }
            }
        }
        if finished {
            assert_eq!(*blocks.last().unwrap(), self.cfg.exit());
            count(&c[0], None);
        }
    }
}

impl Reference<'_> {
    /// The reference's `active` after edge `u -> v` taken with `active` (rules 1-4 of
    /// [`Reference::run`] on the `active` component alone, which depends on nothing else).
    pub fn next_active(&self, u: Block, v: Block, active: Option<Block>) -> Option<Block> {
        let mut a = active;
        if let Some(h) = a {
            if self.loops.in_loop(h, u) && !self.loops.in_loop(h, v) {
                a = None;
            }
        }
        if a == Some(v) && self.loops.back.contains(&(u, v)) {
            a
        } else if self.ends_path(u, v) {
            self.k_headers.contains(&v).then_some(v)
        } else if self.k_headers.contains(&v) && !self.loops.in_loop(v, u) {
            Some(v)
        } else {
            a
        }
    }

    /// For every block, the values `active` takes there on the paths of the CFG from the entry
    /// (a search over the pairs (block, active)).
    pub fn active_at(&self) -> BTreeMap<Block, BTreeSet<Option<Block>>> {
        let mut at: BTreeMap<Block, BTreeSet<Option<Block>>> = BTreeMap::new();
        let mut work = vec![(self.cfg.entry(), None)];
        at.entry(self.cfg.entry()).or_default().insert(None);
        while let Some((u, a)) = work.pop() {
            for &v in self.cfg.successors(u) {
                let b = self.next_active(u, v, a);
                if at.entry(v).or_default().insert(b) {
                    work.push((v, b));
                }
            }
        }
        at
    }
}

/// Where a frame switched at edge `u -> v` (step `p`) starts counting, by the definition in
/// `docs/kiter-runtime.md` ("On-stack replacement"): whether a k-loop is active must be the
/// same on every CFG path from the entry to that point. `Some(p - 1)` (the paths starting on
/// the edge count too) when it is before the edge and the switch may run the edge's probe,
/// else `Some(p)` when it is after the edge, else `None` (no switch at this edge).
pub fn switch_from(
    reference: &Reference,
    active_at: &BTreeMap<Block, BTreeSet<Option<Block>>>,
    (u, v): (Block, Block),
    p: usize,
    on_edge: bool,
) -> Option<usize> {
    let determined = |set: &BTreeSet<Option<Block>>| {
        set.iter().all(|a| a.is_some()) || set.iter().all(|a| a.is_none())
    };
    let before = &active_at[&u];
    let after: BTreeSet<Option<Block>> = before
        .iter()
        .map(|&a| reference.next_active(u, v, a))
        .collect();
    if on_edge && determined(before) {
        Some(p - 1)
    } else if determined(&after) {
        Some(p)
    } else {
        None
    }
}
