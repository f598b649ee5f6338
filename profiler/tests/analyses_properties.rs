//! The CFG analyses against slow references written from the definitions: iterative data-flow
//! dominators, natural loops by forward reachability, reducibility by T1/T2 reduction.

mod bl_oracle;

use profiler::dominators::{is_reducible, Dominators};
use profiler::generate::{arbitrary, structured};
use profiler::{Block, Cfg, DepthFirst, Loops};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Dominator sets by the iterative data-flow equations: Dom(entry) = {entry},
/// Dom(b) = {b} + intersection of Dom(p) over predecessors p.
fn dominator_sets(cfg: &Cfg) -> Vec<BTreeSet<Block>> {
    let all: BTreeSet<Block> = cfg.blocks().collect();
    let mut dom = vec![all; cfg.num_blocks()];
    dom[cfg.entry().index()] = [cfg.entry()].into();
    loop {
        let mut changed = false;
        for b in cfg.blocks().filter(|&b| b != cfg.entry()) {
            let mut new: Option<BTreeSet<Block>> = None;
            for p in cfg.predecessors(b) {
                new = Some(match new {
                    None => dom[p.index()].clone(),
                    Some(s) => s.intersection(&dom[p.index()]).copied().collect(),
                });
            }
            let mut new = new.unwrap_or_default();
            new.insert(b);
            if new != dom[b.index()] {
                dom[b.index()] = new;
                changed = true;
            }
        }
        if !changed {
            return dom;
        }
    }
}

/// Reducible iff T1 (remove a self-loop) and T2 (merge a block into its unique predecessor)
/// collapse the graph to one node.
fn reducible_by_t1_t2(cfg: &Cfg) -> bool {
    let n = cfg.num_blocks();
    let mut succ: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for e in cfg.edges() {
        succ[cfg.source(e).index()].insert(cfg.target(e).index());
    }
    let mut alive: BTreeSet<usize> = (0..n).collect();
    loop {
        // T1: self-loops go.
        for (i, s) in succ.iter_mut().enumerate() {
            s.remove(&i);
        }
        let preds =
            |v: usize, succ: &Vec<BTreeSet<usize>>, alive: &BTreeSet<usize>| -> Vec<usize> {
                alive
                    .iter()
                    .copied()
                    .filter(|&u| succ[u].contains(&v))
                    .collect()
            };
        // T2: a block with a unique predecessor merges into it.
        let candidate = alive
            .iter()
            .copied()
            .filter(|&v| v != cfg.entry().index())
            .find(|&v| preds(v, &succ, &alive).len() == 1);
        match candidate {
            Some(v) => {
                let u = preds(v, &succ, &alive)[0];
                let moved: Vec<usize> = succ[v].iter().copied().collect();
                succ[u].remove(&v);
                succ[u].extend(moved);
                alive.remove(&v);
            }
            None => return alive.len() == 1,
        }
    }
}

/// Whether `from` reaches `to` without passing through `avoid` (`from != avoid`).
fn reaches_avoiding(cfg: &Cfg, from: Block, to: Block, avoid: Block) -> bool {
    let mut seen = vec![false; cfg.num_blocks()];
    let mut stack = vec![from];
    seen[from.index()] = true;
    while let Some(x) = stack.pop() {
        if x == to {
            return true;
        }
        for &s in cfg.successors(x) {
            if s != avoid && !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    false
}

fn any_cfg() -> impl Strategy<Value = Cfg> {
    prop_oneof![
        (any::<u64>(), 2usize..40, 1u32..4).prop_map(|(s, n, d)| structured(s, n, d)),
        (any::<u64>(), 2usize..14, 0usize..12).prop_map(|(s, n, x)| arbitrary(s, n, x)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn dominators_match_the_dataflow_definition(cfg in any_cfg()) {
        let dfs = DepthFirst::compute(&cfg);
        let doms = Dominators::compute(&cfg, &dfs);
        let sets = dominator_sets(&cfg);
        for a in cfg.blocks() {
            for b in cfg.blocks() {
                prop_assert_eq!(doms.dominates(a, b), sets[b.index()].contains(&a), "{} dom {}", a, b);
            }
        }
        prop_assert_eq!(is_reducible(&cfg, &dfs, &doms), reducible_by_t1_t2(&cfg));
    }

    #[test]
    fn loops_match_the_definitions(cfg in any_cfg()) {
        let dfs = DepthFirst::compute(&cfg);
        let back = bl_oracle::back_edges(&cfg);
        let got: Vec<bool> = cfg.edges().map(|e| dfs.is_back_edge(e)).collect();
        prop_assert_eq!(&got, &back);
        let loops = Loops::compute(&cfg, &dfs);
        let depths = profiler::loops::block_depths(&cfg, &dfs);
        for b in cfg.blocks() {
            prop_assert_eq!(depths[b], loops.block_depth(b));
        }
        let headers: BTreeSet<Block> = cfg.edges().filter(|e| back[e.index()]).map(|e| cfg.target(e)).collect();
        prop_assert_eq!(loops.len(), headers.len());
        for l in loops.ids() {
            let h = loops.header(l);
            let tails: Vec<Block> = cfg
                .edges()
                .filter(|e| back[e.index()] && cfg.target(*e) == h)
                .map(|e| cfg.source(e))
                .collect();
            let expected: Vec<Block> = cfg
                .blocks()
                .filter(|&x| x == h || tails.iter().any(|&t| reaches_avoiding(&cfg, x, t, h)))
                .collect();
            prop_assert_eq!(loops.blocks(l), expected.as_slice());
            let innermost = !expected.iter().any(|&x| x != h && headers.contains(&x));
            prop_assert_eq!(loops.get(l).innermost, innermost);
            // The parent contains the loop; no smaller loop lies between them.
            if let Some(p) = loops.get(l).parent {
                prop_assert!(expected.iter().all(|&x| loops.contains(p, x)));
                prop_assert!(loops.blocks(p).len() >= expected.len());
                prop_assert_eq!(loops.get(l).depth, loops.get(p).depth + 1);
            } else {
                prop_assert_eq!(loops.get(l).depth, 1);
            }
            // Equal sets (irreducible graphs only) nest by header preorder: earlier is outer.
            let supersets = loops
                .ids()
                .filter(|&m| m != l && expected.iter().all(|&x| loops.contains(m, x)))
                .filter(|&m| loops.blocks(m).len() > expected.len() || m < l)
                .map(|m| loops.blocks(m).len())
                .min();
            prop_assert_eq!(supersets, loops.get(l).parent.map(|p| loops.blocks(p).len()));
        }
    }
}
