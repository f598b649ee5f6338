//! Random CFGs and traces, deterministic from a seed: for property tests (proptest draws the
//! seed), benchmarks (criterion, up to 10^5 blocks and more) and the VM's tests.
//!
//! - [`structured`]: reducible graphs lowered from a random structured program: sequences,
//!   `if`/`else`, `while` and `do`-`while` loops with `break` and `continue`, multiway `switch`
//!   with fallthrough, early `return`. Nesting depth is bounded, so generation is iterative at
//!   the top level and never recurses deeply, whatever the size.
//! - [`arbitrary`]: any graph satisfying the [`Cfg`] invariants: a random spanning tree from the
//!   entry, a random forward path from every block to the exit, then random extra edges in any
//!   direction (self-loops, irreducible loops), successor lists shuffled.
//! - [`random_walk`]: an invocation following random successors, steered to the exit by
//!   shortest distances once a step budget is spent.
//!
//! The generator is a SplitMix64 ([`Rng`]), so the crate needs no random-number dependency and a
//! seed always gives the same graph.

use crate::cfg::{Block, Cfg, CfgBuilder};

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, good enough for test inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Shuffles a slice (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// Loop targets of `break` and `continue`.
#[derive(Clone, Copy)]
struct LoopCtx {
    cont: Block,
    brk: Block,
}

struct Structured {
    rng: Rng,
    b: CfgBuilder,
    edges: Vec<(Block, Block)>,
    exit: Block,
    budget: usize,
    max_depth: u32,
}

impl Structured {
    fn block(&mut self) -> Block {
        self.budget = self.budget.saturating_sub(1);
        self.b.add_block()
    }

    fn edge(&mut self, a: Block, b: Block) {
        self.edges.push((a, b));
    }

    /// Generates a sequence starting in `cur`; returns where control falls through, if it does.
    fn seq(
        &mut self,
        mut cur: Block,
        depth: u32,
        ctx: Option<LoopCtx>,
        len: usize,
    ) -> Option<Block> {
        for _ in 0..len {
            if self.budget == 0 {
                break;
            }
            cur = self.stmt(cur, depth, ctx)?;
        }
        Some(cur)
    }

    fn nested(&mut self, cur: Block, depth: u32, ctx: Option<LoopCtx>) -> Option<Block> {
        let len = 1 + self.rng.below(3) as usize;
        self.seq(cur, depth + 1, ctx, len)
    }

    /// One statement from `cur`; returns the fall-through block, or `None` after a jump.
    fn stmt(&mut self, cur: Block, depth: u32, ctx: Option<LoopCtx>) -> Option<Block> {
        let deep = depth >= self.max_depth;
        // At the top level every statement falls through, so a large graph keeps growing: no
        // `else` (the join is reachable from `cur`), no `do`-`while` (a body that always returns
        // would make what follows dead), a `switch` always has its default edge, no `return`.
        let top = depth == 0;
        let roll = self.rng.below(100);
        match roll {
            // A plain statement: a new block (or just code in the current one).
            0..=19 => {
                if self.rng.chance(50) {
                    let n = self.block();
                    self.edge(cur, n);
                    Some(n)
                } else {
                    Some(cur)
                }
            }
            20..=44 if !deep => {
                // if / if-else
                let t = self.block();
                let with_else = !top && self.rng.chance(50);
                let e = with_else.then(|| self.block());
                let mut join: Option<Block> = None;
                let mut targets = vec![t];
                if let Some(e) = e {
                    targets.push(e);
                } else {
                    let j = self.block();
                    join = Some(j);
                    targets.push(j);
                }
                self.rng.shuffle(&mut targets);
                for &x in &targets {
                    self.edge(cur, x);
                }
                let ends = [Some(t), e]
                    .into_iter()
                    .flatten()
                    .map(|start| self.nested(start, depth, ctx))
                    .collect::<Vec<_>>();
                for end in ends.into_iter().flatten() {
                    let j = *join.get_or_insert_with(|| self.block());
                    self.edge(end, j);
                }
                join
            }
            45..=59 if !deep => {
                // while
                let h = self.block();
                self.edge(cur, h);
                let body = self.block();
                let x = self.block();
                if self.rng.chance(50) {
                    self.edge(h, body);
                    self.edge(h, x);
                } else {
                    self.edge(h, x);
                    self.edge(h, body);
                }
                if let Some(end) = self.nested(body, depth, Some(LoopCtx { cont: h, brk: x })) {
                    self.edge(end, h);
                }
                Some(x)
            }
            60..=67 if !deep && !top => {
                // do-while: continue goes to the latch, which is created on demand.
                let body = self.block();
                self.edge(cur, body);
                let latch = self.block();
                let x = self.block();
                let end = self.nested(
                    body,
                    depth,
                    Some(LoopCtx {
                        cont: latch,
                        brk: x,
                    }),
                );
                if let Some(end) = end {
                    self.edge(end, latch);
                }
                // The latch is reachable if the body falls through or continues; it always has
                // its two edges so that it is never a dead end.
                self.edge(latch, body);
                self.edge(latch, x);
                Some(x)
            }
            68..=77 if !deep => {
                // switch with 2-5 arms, fallthrough, optional default.
                let arms: Vec<Block> = (0..2 + self.rng.below(4)).map(|_| self.block()).collect();
                let join = self.block();
                let mut targets = arms.clone();
                if top || self.rng.chance(50) {
                    targets.push(join);
                }
                self.rng.shuffle(&mut targets);
                for &a in &targets {
                    self.edge(cur, a);
                }
                let sw = ctx
                    .map(|c| LoopCtx {
                        cont: c.cont,
                        brk: join,
                    })
                    .or(Some(LoopCtx {
                        cont: join,
                        brk: join,
                    }));
                for i in 0..arms.len() {
                    if let Some(end) = self.nested(arms[i], depth, sw) {
                        let fall = i + 1 < arms.len() && self.rng.chance(30);
                        self.edge(end, if fall { arms[i + 1] } else { join });
                    }
                }
                Some(join)
            }
            78..=84 => match ctx {
                Some(c) if self.rng.chance(50) => {
                    self.edge(cur, c.brk);
                    None
                }
                Some(c) => {
                    self.edge(cur, c.cont);
                    None
                }
                None => Some(cur),
            },
            85..=89 if !top => {
                self.edge(cur, self.exit);
                None
            }
            _ => Some(cur),
        }
    }
}

/// A reducible CFG of about `size` blocks (at least 2) from a random structured program with
/// nesting depth at most `max_depth`. See the [module documentation](self).
pub fn structured(seed: u64, size: usize, max_depth: u32) -> Cfg {
    let mut g = Structured {
        rng: Rng::new(seed),
        b: CfgBuilder::new(),
        edges: Vec::new(),
        exit: Block::new(0),
        budget: size.saturating_sub(2),
        max_depth,
    };
    let entry = g.b.add_block();
    g.exit = g.b.add_block();
    let mut cur = Some(entry);
    // Top level: statements until the budget is spent (iterative, so any size is fine).
    while let Some(c) = cur {
        if g.budget == 0 {
            break;
        }
        cur = g.stmt(c, 0, None);
    }
    if let Some(c) = cur {
        g.edge(c, g.exit);
    }
    finish_pruned(g.b, g.edges, entry, g.exit)
}

/// Builds the graph keeping only blocks reachable from the entry (dead code after a jump),
/// renumbered in order. Generated edges never duplicate and every kept block reaches the exit.
fn finish_pruned(b: CfgBuilder, edges: Vec<(Block, Block)>, entry: Block, exit: Block) -> Cfg {
    let n = b.num_blocks();
    let mut succ: Vec<Vec<Block>> = vec![Vec::new(); n];
    for &(a, t) in &edges {
        succ[a.index()].push(t);
    }
    let mut seen = vec![false; n];
    let mut stack = vec![entry];
    seen[entry.index()] = true;
    while let Some(x) = stack.pop() {
        for &s in &succ[x.index()] {
            if !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    let mut map = vec![None; n];
    let mut out = CfgBuilder::new();
    for i in 0..n {
        if seen[i] {
            map[i] = Some(out.add_block());
        }
    }
    for (i, ss) in succ.iter().enumerate() {
        if let Some(a) = map[i] {
            for s in ss {
                if let Some(t) = map[s.index()] {
                    out.add_edge(a, t);
                }
            }
        }
    }
    let (entry, exit) = (
        map[entry.index()].unwrap_or(Block::new(0)),
        map[exit.index()],
    );
    match exit {
        Some(exit) => out
            .finish(entry, exit)
            .expect("generated structured CFG violates an invariant"),
        // The program never returns normally: impossible, every loop has an exit edge.
        None => unreachable!("generated structured CFG without a reachable exit"),
    }
}

/// An arbitrary CFG with `nodes` blocks (at least 2) and about `extra_edges` random additional
/// edges (loops, irreducible regions). See the [module documentation](self).
pub fn arbitrary(seed: u64, nodes: usize, extra_edges: usize) -> Cfg {
    let n = nodes.max(2);
    let mut rng = Rng::new(seed);
    let exit = n - 1;
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let add = |succ: &mut Vec<Vec<usize>>, a: usize, b: usize| {
        if !succ[a].contains(&b) {
            succ[a].push(b);
        }
    };
    for i in 1..n {
        let j = rng.below(i.min(exit) as u64) as usize;
        add(&mut succ, j, i);
    }
    for i in 0..exit {
        let t = i + 1 + rng.below((exit - i) as u64) as usize;
        add(&mut succ, i, t);
    }
    for _ in 0..extra_edges {
        let a = rng.below(exit as u64) as usize;
        let b = 1 + rng.below((n - 1) as u64) as usize;
        add(&mut succ, a, b);
    }
    let mut builder = CfgBuilder::new();
    builder.add_blocks(n);
    for (a, ss) in succ.iter_mut().enumerate() {
        rng.shuffle(ss);
        for &b in ss.iter() {
            builder.add_edge(Block::new(a), Block::new(b));
        }
    }
    builder
        .finish(Block::new(0), Block::new(exit))
        .expect("generated CFG violates an invariant")
}

/// One invocation: a walk from the entry choosing random successors for up to `budget` steps,
/// then the shortest way to the exit. Blocks that cannot reach the exit are avoided once the
/// budget is spent; if the walk is stuck in such a region it stops there (so the result may not
/// end at the exit only for CFGs with infinite loops).
pub fn random_walk(cfg: &Cfg, rng: &mut Rng, budget: usize) -> Vec<Block> {
    let dist = distances_to_exit(cfg);
    let mut walk = vec![cfg.entry()];
    let mut cur = cfg.entry();
    let mut steps = 0usize;
    while cur != cfg.exit() {
        let succ = cfg.successors(cur);
        let next = if steps < budget {
            succ[rng.below(succ.len() as u64) as usize]
        } else {
            match succ
                .iter()
                .copied()
                .filter(|s| dist[s.index()] != u32::MAX)
                .min_by_key(|s| dist[s.index()])
            {
                Some(s) => s,
                None => break,
            }
        };
        walk.push(next);
        cur = next;
        steps += 1;
    }
    walk
}

/// Shortest number of edges from each block to the exit (`u32::MAX` if unreachable).
fn distances_to_exit(cfg: &Cfg) -> Vec<u32> {
    let mut dist = vec![u32::MAX; cfg.num_blocks()];
    let mut queue = std::collections::VecDeque::from([cfg.exit()]);
    dist[cfg.exit().index()] = 0;
    while let Some(b) = queue.pop_front() {
        for p in cfg.predecessors(b) {
            if dist[p.index()] == u32::MAX {
                dist[p.index()] = dist[b.index()] + 1;
                queue.push_back(p);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfs::DepthFirst;
    use crate::dominators::{is_reducible, Dominators};

    #[test]
    fn structured_graphs_are_reducible_and_sized() {
        for seed in 0..200 {
            let cfg = structured(seed, 40, 4);
            let dfs = DepthFirst::compute(&cfg);
            let doms = Dominators::compute(&cfg, &dfs);
            assert!(is_reducible(&cfg, &dfs, &doms), "seed {seed}");
            assert!(cfg.blocks_not_reaching_exit().is_empty(), "seed {seed}");
        }
        let big = structured(7, 100_000, 6);
        assert!(big.num_blocks() > 50_000, "{}", big.num_blocks());
    }

    #[test]
    fn arbitrary_graphs_are_valid_and_walks_end_at_exit() {
        let mut rng = Rng::new(1);
        for seed in 0..200 {
            let cfg = arbitrary(seed, 2 + (seed as usize % 12), seed as usize % 9);
            let w = random_walk(&cfg, &mut rng, 30);
            assert_eq!(w.first(), Some(&cfg.entry()));
            assert_eq!(w.last(), Some(&cfg.exit()));
            for p in w.windows(2) {
                assert!(cfg.find_edge(p[0], p[1]).is_some());
            }
        }
    }
}
