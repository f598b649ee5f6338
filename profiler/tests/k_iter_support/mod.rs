//! Test oracles for k-iteration profiling, written from the design note alone and independent
//! of `profiler::k_iteration`: the loops by definition, the reference semantics of k-iteration
//! counting on node sequences, a brute-force enumeration of the static paths, and small random
//! CFG and trace generators.

#![allow(dead_code)]

use profiler::{Block, Cfg, CfgBuilder, PathEnds};
use std::collections::{BTreeSet, HashSet};

/// A counted path: the blocks visited and where it was cut (`None` at the exit).
pub type RefPath = (Vec<Block>, Option<Block>);

/// The loop structure by the design note's definitions, computed naively.
pub struct Structure {
    n: usize,
    succ: Vec<Vec<usize>>,
    entry: usize,
    exit: usize,
    /// `back[u]` lists the successors `v` of `u` such that `u -> v` is a back edge.
    back: Vec<Vec<usize>>,
    header: Vec<bool>,
    /// `natural[h]`: the natural loop of header `h` (empty for non-headers).
    natural: Vec<BTreeSet<usize>>,
}

impl Structure {
    /// Back edges by a recursive depth-first search from the entry, successors in order; natural
    /// loops by backward search from the tails, stopping at the header.
    pub fn new(cfg: &Cfg) -> Self {
        let n = cfg.num_blocks();
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|b| {
                cfg.successors(Block::new(b))
                    .iter()
                    .map(|s| s.index())
                    .collect()
            })
            .collect();
        let mut back = vec![Vec::new(); n];
        let mut visited = vec![false; n];
        let mut on_stack = vec![false; n];
        fn dfs(
            u: usize,
            succ: &[Vec<usize>],
            v: &mut [bool],
            s: &mut [bool],
            back: &mut [Vec<usize>],
        ) {
            v[u] = true;
            s[u] = true;
            for &w in &succ[u] {
                if !v[w] {
                    dfs(w, succ, v, s, back);
                } else if s[w] {
                    back[u].push(w);
                }
            }
            s[u] = false;
        }
        let entry = cfg.entry().index();
        dfs(entry, &succ, &mut visited, &mut on_stack, &mut back);
        let mut header = vec![false; n];
        for &h in back.iter().flatten() {
            header[h] = true;
        }
        let mut natural = vec![BTreeSet::new(); n];
        for h in 0..n {
            if !header[h] {
                continue;
            }
            let mut set = BTreeSet::from([h]);
            let mut work: Vec<usize> = (0..n).filter(|&u| back[u].contains(&h)).collect();
            while let Some(x) = work.pop() {
                if set.insert(x) {
                    work.extend((0..n).filter(|&p| succ[p].contains(&x)));
                }
            }
            natural[h] = set;
        }
        Structure {
            n,
            succ,
            entry,
            exit: cfg.exit().index(),
            back,
            header,
            natural,
        }
    }

    /// The headers of innermost loops (loops containing no other loop's header).
    pub fn innermost_headers(&self) -> BTreeSet<Block> {
        (0..self.n)
            .filter(|&h| {
                self.header[h] && self.natural[h].iter().all(|&x| x == h || !self.header[x])
            })
            .map(Block::new)
            .collect()
    }

    fn is_back(&self, u: usize, v: usize) -> bool {
        self.back[u].contains(&v)
    }

    fn in_loop(&self, h: usize, x: usize) -> bool {
        self.natural[h].contains(&x)
    }
}

/// The k-iteration profiling machine of the design note, on node sequences.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Machine {
    at: usize,
    /// The live counters `c[0..=itr]`.
    c: Vec<Vec<usize>>,
    itr: usize,
    active: Option<usize>,
}

/// What the reference semantics needs to know besides the CFG.
pub struct Params<'a> {
    /// The loop structure.
    pub s: &'a Structure,
    /// K.
    pub k: usize,
    /// Path ends.
    pub ends: PathEnds,
    /// Headers of the loops profiled over K iterations (the innermost loops, minus any demoted).
    pub k_headers: BTreeSet<usize>,
    /// Extra cut blocks: arriving there ends a path.
    pub cuts: BTreeSet<usize>,
}

impl Params<'_> {
    fn start(&self) -> Machine {
        Machine {
            at: self.s.entry,
            c: vec![vec![self.s.entry]],
            itr: 0,
            active: None,
        }
    }

    fn ends_path(&self, u: usize, v: usize) -> bool {
        self.cuts.contains(&v)
            || match self.ends {
                PathEnds::Backedge => self.s.is_back(u, v),
                PathEnds::Header => self.s.header[v],
            }
    }

    /// Steps 1 to 4 of the design note for the edge `m.at -> v`.
    fn step(&self, m: &mut Machine, v: usize, count: &mut dyn FnMut(&[usize], Option<usize>)) {
        let u = m.at;
        // 1. Leaving the active k-loop.
        if let Some(h) = m.active {
            if self.s.in_loop(h, u) && !self.s.in_loop(h, v) {
                let survivor = m.c[m.itr].clone();
                m.c = vec![survivor];
                m.itr = 0;
                m.active = None;
            }
        }
        if m.active == Some(v) && self.s.is_back(u, v) {
            // 2. A back edge of the active k-loop.
            if m.itr == self.k - 1 {
                count(&m.c[m.itr], Some(v));
            }
            let mut shifted = vec![vec![v]];
            shifted.extend(m.c.iter().take(self.k - 1).map(|p| {
                let mut p = p.clone();
                p.push(v);
                p
            }));
            m.itr = (m.itr + 1).min(self.k - 1);
            shifted.truncate(m.itr + 1);
            m.c = shifted;
        } else if self.ends_path(u, v) {
            // 3. A path end.
            count(&m.c[0], Some(v));
            m.c[0] = vec![v];
            if self.k_headers.contains(&v) {
                m.active = Some(v);
                m.itr = 0;
                m.c.truncate(1);
            }
        } else {
            // 4. Any other edge.
            for p in &mut m.c {
                p.push(v);
            }
            if self.k_headers.contains(&v) && !self.s.in_loop(v, u) {
                m.active = Some(v);
                m.itr = 0;
                m.c.truncate(1);
            }
        }
        m.at = v;
    }

    /// The paths counted along one invocation (a block sequence from the entry to the exit).
    pub fn run(&self, invocation: &[Block]) -> Vec<RefPath> {
        let mut out = Vec::new();
        let mut m = self.start();
        assert_eq!(invocation.first().map(|b| b.index()), Some(self.s.entry));
        for b in &invocation[1..] {
            self.step(&mut m, b.index(), &mut |p, end| {
                out.push((blocks(p), end.map(Block::new)))
            });
        }
        assert_eq!(m.at, self.s.exit);
        out.push((blocks(&m.c[0]), None));
        out
    }

    /// Every path the semantics can count, by exhaustive exploration of the machine's states
    /// (`None` if there are more than `max_states`).
    pub fn brute_force(&self, max_states: usize) -> Option<BTreeSet<RefPath>> {
        let mut seen: HashSet<Machine> = HashSet::new();
        let mut work = vec![self.start()];
        let mut found = BTreeSet::new();
        while let Some(m) = work.pop() {
            if !seen.insert(m.clone()) {
                continue;
            }
            if seen.len() > max_states {
                return None;
            }
            if m.at == self.s.exit {
                found.insert((blocks(&m.c[0]), None));
                continue;
            }
            for &v in &self.s.succ[m.at] {
                let mut next = m.clone();
                self.step(&mut next, v, &mut |p, end| {
                    found.insert((blocks(p), end.map(Block::new)));
                });
                work.push(next);
            }
        }
        Some(found)
    }
}

fn blocks(p: &[usize]) -> Vec<Block> {
    p.iter().map(|&i| Block::new(i)).collect()
}

/// A small deterministic random number generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// Seeded generator (any seed).
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
}

/// Builds CFGs edge by edge, skipping duplicate edges.
struct Builder {
    edges: Vec<(usize, usize)>,
    n: usize,
}

impl Builder {
    fn block(&mut self) -> usize {
        self.n += 1;
        self.n - 1
    }

    fn edge(&mut self, a: usize, b: usize) {
        if !self.edges.contains(&(a, b)) {
            self.edges.push((a, b));
        }
    }

    fn finish(self, entry: usize, exit: usize) -> Cfg {
        let mut b = CfgBuilder::new();
        b.add_blocks(self.n);
        for (x, y) in self.edges {
            b.add_edge(Block::new(x), Block::new(y));
        }
        b.finish(Block::new(entry), Block::new(exit))
            .expect("generated CFG is valid")
    }
}

/// A structured (reducible) CFG: sequences, 2- and 3-way branches, while and do-while loops
/// nested up to depth 3, conditional `break`s and early `return`s; at most about `size` blocks.
pub fn structured(seed: u64, size: usize) -> Cfg {
    let mut rng = Rng::new(seed);
    let mut b = Builder {
        edges: Vec::new(),
        n: 0,
    };
    let entry = b.block();
    let exit = b.block();
    let first = b.block();
    b.edge(entry, first);
    let mut budget = size.saturating_sub(3) as isize;
    region(&mut b, &mut rng, first, exit, None, exit, 0, &mut budget);
    b.finish(entry, exit)
}

/// Wires a region from `from` (already created) to `to`. `brk` is the innermost loop's exit.
#[allow(clippy::too_many_arguments)]
fn region(
    b: &mut Builder,
    rng: &mut Rng,
    from: usize,
    to: usize,
    brk: Option<usize>,
    exit: usize,
    depth: usize,
    budget: &mut isize,
) {
    if *budget <= 0 {
        b.edge(from, to);
        return;
    }
    *budget -= 1;
    match rng.below(12) {
        0 => b.edge(from, to),
        2 | 3 => {
            let mid = b.block();
            region(b, rng, from, mid, brk, exit, depth, budget);
            region(b, rng, mid, to, brk, exit, depth, budget);
        }
        4 | 5 | 1 => {
            for _ in 0..2 + rng.below(2) {
                let arm = b.block();
                b.edge(from, arm);
                region(b, rng, arm, to, brk, exit, depth, budget);
            }
        }
        6 | 7 | 10 if depth < 3 => {
            // while: from -> h; h -> body ... -> h; h -> to
            let h = b.block();
            b.edge(from, h);
            let body = b.block();
            b.edge(h, body);
            region(b, rng, body, h, Some(to), exit, depth + 1, budget);
            b.edge(h, to);
        }
        6 | 7 | 10 => b.edge(from, to),
        8 | 11 if depth < 3 => {
            // do-while: from -> h ... -> t; t -> h; t -> to
            let h = b.block();
            b.edge(from, h);
            let t = b.block();
            region(b, rng, h, t, Some(to), exit, depth + 1, budget);
            b.edge(t, h);
            b.edge(t, to);
        }
        8 | 11 => b.edge(from, to),
        _ => {
            // a conditional break out of the innermost loop, or an early return
            let x = b.block();
            b.edge(from, x);
            b.edge(x, to);
            b.edge(x, brk.filter(|_| rng.chance(70)).unwrap_or(exit));
        }
    }
}

/// An arbitrary CFG of `n >= 3` blocks (entry 0, exit `n - 1`): a random spanning tree from the
/// entry, plus random extra edges (self-loops and irreducible loops included). Blocks may be
/// unable to reach the exit (infinite loops) unless `reach_exit`.
pub fn arbitrary(seed: u64, n: usize, reach_exit: bool) -> Cfg {
    let mut rng = Rng::new(seed);
    let mut b = Builder {
        edges: Vec::new(),
        n,
    };
    let exit = n - 1;
    for i in 1..n {
        let from = rng.below(i.min(n - 1));
        b.edge(from, i);
    }
    let extra = rng.below(n + 2);
    for _ in 0..extra {
        let from = rng.below(n - 1);
        let to = 1 + rng.below(n - 1);
        b.edge(from, to);
    }
    for u in 0..n - 1 {
        if !b.edges.iter().any(|&(x, _)| x == u) {
            b.edge(u, exit);
        }
    }
    if reach_exit {
        loop {
            let reaches = reaching(&b.edges, n, exit);
            let Some(u) = (0..n).find(|&u| !reaches[u]) else {
                break;
            };
            b.edge(u, exit);
        }
    }
    b.finish(0, exit)
}

fn reaching(edges: &[(usize, usize)], n: usize, target: usize) -> Vec<bool> {
    let mut r = vec![false; n];
    r[target] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for &(a, c) in edges {
            if r[c] && !r[a] {
                r[a] = true;
                changed = true;
            }
        }
    }
    r
}

/// A random invocation: a walk from the entry that only enters blocks reaching the exit, about
/// `len` steps long, then the shortest way to the exit.
pub fn walk(cfg: &Cfg, rng: &mut Rng, len: usize) -> Vec<Block> {
    let n = cfg.num_blocks();
    let exit = cfg.exit().index();
    // Distance to the exit.
    let mut dist = vec![usize::MAX; n];
    dist[exit] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for u in 0..n {
            for s in cfg.successors(Block::new(u)) {
                if dist[s.index()] != usize::MAX && dist[s.index()] + 1 < dist[u] {
                    dist[u] = dist[s.index()] + 1;
                    changed = true;
                }
            }
        }
    }
    let mut at = cfg.entry();
    let mut out = vec![at];
    while at.index() != exit {
        let succ: Vec<Block> = cfg
            .successors(at)
            .iter()
            .copied()
            .filter(|s| dist[s.index()] != usize::MAX)
            .collect();
        at = if out.len() < len {
            succ[rng.below(succ.len())]
        } else {
            *succ
                .iter()
                .min_by_key(|s| dist[s.index()])
                .expect("a successor reaches the exit")
        };
        out.push(at);
    }
    out
}
