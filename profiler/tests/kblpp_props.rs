//! Property tests of the k-SF and the k-IPF against the paper's definitions (brute force in
//! `kblpp_support`), on random streams of small BL ids (so that sequences repeat) with `*`
//! markers and several functions, K = 1..=16:
//! - the k-IPF is exactly the n-gram counts of Definition 2, per activation, also when read in
//!   the middle of the stream (a run ended by a trap), and the fast conversion equals the
//!   literal Figure 7;
//! - the k-SF is exactly Definition 3's prefix forest; it has at most 2K - 2 levels (one level
//!   for K = 1); Figure 6 would do one hash-table operation per slab, and the forest does one
//!   per activation plus one per distinct slab pair whose end starts another slab;
//! - Properties 1 and 2 of the paper; move-to-front changes no count;
//! - interleaved activations (calls, recursion) with one cursor each give each activation's
//!   n-gram counts;
//! - Figure 4's pruning (`Ipf::pruned`) and the ranking (`Ipf::hottest`) follow the counts.

mod kblpp_support;

use kblpp_support::{
    as_counts, definition_3_list, ngram_counts, prefix_forest, slabs as slabs_of, Activation,
    Counts,
};
use profiler::kblpp::{Cursor, Ipf, KSlabForest, KsfNode, NodeId, RootKey, Siblings};
use proptest::prelude::*;

/// Activations of up to 3 functions, ids from a small alphabet.
fn activations() -> impl Strategy<Value = Vec<Activation>> {
    prop::collection::vec((0u32..3, prop::collection::vec(0u64..4, 0..40)), 0..6)
}

/// Any sibling order (they must not change any count).
fn sibling_orders() -> impl Strategy<Value = Siblings> {
    prop_oneof![
        Just(Siblings::Append),
        Just(Siblings::MoveToFront),
        (1u32..4).prop_map(Siblings::MoveToFrontAfter),
        Just(Siblings::Transpose),
    ]
}

/// Feeds the activations one after the other (a `*` before each).
fn build(k: u32, siblings: Siblings, acts: &[Activation]) -> KSlabForest {
    let mut forest = KSlabForest::with_siblings(k, siblings);
    for (function, ids) in acts {
        let mut cursor = forest.start();
        for &id in ids {
            forest.push(&mut cursor, RootKey::new(*function, id));
        }
    }
    forest
}

fn ipf_counts(ipf: &Ipf) -> Counts {
    as_counts(&ipf.labeled_nodes())
}

/// Property 1: a node's count is at least the sum of its children's.
fn check_property_1(ipf: &Ipf) -> Result<(), TestCaseError> {
    for f in ipf.functions() {
        for id in f.node_ids() {
            let below: u64 = ipf.children(id).map(|c| ipf.node(c).count()).sum();
            prop_assert!(ipf.node(id).count() >= below, "{:?}", ipf.ids(id));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ipf_is_the_ngram_counts(k in 1u32..=16, acts in activations(), siblings in sibling_orders()) {
        let forest = build(k, siblings, &acts);
        let ipf = forest.to_ipf();
        prop_assert_eq!(ipf_counts(&ipf), ngram_counts(&acts, k as usize));
        prop_assert!(ipf.labeled_nodes().iter().all(|n| n.count > 0));
        // The level-by-level merge is Figure 7's joins, node for node.
        prop_assert_eq!(&forest.to_ipf_figure_7(), &ipf);
        check_property_1(&ipf)?;
        // Every push increments exactly one k-SF counter.
        let total: u64 = forest.labeled_nodes().iter().map(|n| n.count).sum();
        let pushes: usize = acts.iter().map(|(_, ids)| ids.len()).sum();
        prop_assert_eq!(total, pushes as u64);
        prop_assert_eq!(forest.counters().pushes, pushes as u64);
    }

    #[test]
    fn ksf_is_definition_3(k in 1u32..=16, acts in activations()) {
        let forest = build(k, Siblings::Append, &acts);
        let k_us = k as usize;
        let max_levels = if k == 1 { 1 } else { 2 * k_us - 2 };
        prop_assert!(forest.levels() <= max_levels);
        // Figure 6: one root lookup per slab of k - 1 paths (per path for k = 1),
        // O(1 + N / (k - 1)) per activation of N paths.
        let slab = (k_us - 1).max(1);
        let slabs: usize = acts.iter().map(|(_, ids)| ids.len().div_ceil(slab)).sum();
        let work = forest.counters();
        prop_assert_eq!(work.slab_starts, slabs as u64);
        // Done here: one root lookup per non-empty activation (every path for k = 1), and one
        // per distinct (function, s_i-1 · s_i) followed by a slab s_i+1 (i >= 2), the first time
        // the end of s_i starts a slab.
        let per_function = |f: Option<u32>| -> (u64, u64) {
            let acts_of: Vec<&Activation> =
                acts.iter().filter(|(g, _)| f.is_none_or(|f| f == *g)).collect();
            if k == 1 {
                let n: usize = acts_of.iter().map(|(_, ids)| ids.len()).sum();
                return (n as u64, 0);
            }
            let starts = acts_of.iter().filter(|(_, ids)| !ids.is_empty()).count();
            let mut pairs = std::collections::BTreeSet::new();
            for (g, ids) in &acts_of {
                let s = slabs_of(ids, k_us);
                for i in 1..s.len().saturating_sub(1) {
                    let pair: Vec<u64> = s[i - 1].iter().chain(&s[i]).copied().collect();
                    pairs.insert((*g, pair));
                }
            }
            (starts as u64 + pairs.len() as u64, pairs.len() as u64)
        };
        let (hash_ops, shortcuts) = per_function(None);
        prop_assert_eq!(work.hash_ops, hash_ops);
        prop_assert_eq!(work.shortcuts, shortcuts);
        prop_assert!(work.hash_ops <= work.slab_starts);
        // Children lookups: every path but the first of an activation, k - 2 per shortcut.
        let pushes: usize = acts.iter().map(|(_, ids)| ids.len()).sum();
        let fresh = acts.iter().filter(|(_, ids)| !ids.is_empty()).count();
        let lookups = if k == 1 { 0 } else { (pushes - fresh) as u64 + shortcuts * (k as u64 - 2) };
        prop_assert_eq!(work.child_lookups, lookups);
        // Per function.
        let ipf = forest.to_ipf();
        for f in ipf.functions() {
            prop_assert_eq!(f.hash_ops, per_function(Some(f.function)).0, "function {}", f.function);
        }
        let summed: u64 = ipf.functions().iter().map(|f| f.hash_ops).sum();
        prop_assert_eq!(summed, hash_ops);
        let ksf = as_counts(&forest.labeled_nodes());
        if k == 1 {
            // Ball-Larus: one root per distinct id, counting it.
            prop_assert_eq!(ksf, ngram_counts(&acts, 1));
            return Ok(());
        }
        let list: Vec<(u32, Vec<u64>)> = acts
            .iter()
            .flat_map(|(f, ids)| definition_3_list(ids, k_us).into_iter().map(move |s| (*f, s)))
            .collect();
        // Exactly Definition 3's forest: Figure 6 would also create the zero-count upper
        // chain of each activation's last slab s_m (m >= 2); the shortcuts create an upper
        // chain only when a slab follows.
        prop_assert_eq!(ksf, prefix_forest(&list));
    }

    #[test]
    fn property_2_k_ipf_is_in_the_next(k in 1u32..=15, acts in activations()) {
        let small = ipf_counts(&build(k, Siblings::Append, &acts).to_ipf());
        let large = ipf_counts(&build(k + 1, Siblings::MoveToFrontAfter(2), &acts).to_ipf());
        let truncated: Counts = large
            .into_iter()
            .filter(|((_, ids), _)| ids.len() <= k as usize)
            .collect();
        prop_assert_eq!(small, truncated);
    }

    #[test]
    fn ipf_at_any_time_counts_the_prefix(
        k in 1u32..=16,
        acts in activations(),
        cut in 0usize..200,
    ) {
        // The run stops (a trap) after `cut` paths; open activations keep what they pushed.
        let mut forest = KSlabForest::new(k);
        let mut left = cut;
        let mut seen: Vec<Activation> = Vec::new();
        'run: for (function, ids) in &acts {
            let mut cursor = Cursor::default();
            seen.push((*function, Vec::new()));
            for &id in ids {
                if left == 0 {
                    break 'run;
                }
                left -= 1;
                forest.push(&mut cursor, RootKey::new(*function, id));
                seen.last_mut().unwrap().1.push(id);
            }
        }
        prop_assert_eq!(ipf_counts(&forest.to_ipf()), ngram_counts(&seen, k as usize));
        // Pushing may continue after a conversion.
        let mut cursor = forest.start();
        forest.push(&mut cursor, RootKey::new(7, 1));
        seen.push((7, vec![1]));
        prop_assert_eq!(ipf_counts(&forest.to_ipf()), ngram_counts(&seen, k as usize));
    }

    #[test]
    fn interleaved_activations_keep_their_own_sequences(
        k in 1u32..=16,
        acts in activations(),
        schedule in prop::collection::vec(0usize..6, 0..300),
        siblings in sibling_orders(),
    ) {
        // Each step lets one activation (chosen by the schedule) emit its next path, as calls
        // and returns interleave frames; leftovers run to the end in order.
        let mut forest = KSlabForest::with_siblings(k, siblings);
        let mut cursors = vec![Cursor::default(); acts.len()];
        let mut next = vec![0usize; acts.len()];
        let order = schedule
            .iter()
            .filter(|_| !acts.is_empty())
            .map(|&s| s % acts.len())
            .chain((0..acts.len()).flat_map(|a| std::iter::repeat_n(a, 40)));
        for a in order {
            let (function, ids) = &acts[a];
            if let Some(&id) = ids.get(next[a]) {
                next[a] += 1;
                forest.push(&mut cursors[a], RootKey::new(*function, id));
            }
        }
        prop_assert!(next.iter().zip(&acts).all(|(&n, (_, ids))| n == ids.len()));
        let ipf = forest.to_ipf();
        prop_assert_eq!(ipf_counts(&ipf), ngram_counts(&acts, k as usize));
        check_property_1(&ipf)?;
    }
}

/// Every node of the arena with its children in their current order.
fn arena(forest: &KSlabForest) -> Vec<(KsfNode, Vec<NodeId>)> {
    (0..forest.len())
        .map(NodeId::new)
        .map(|id| (*forest.node(id), forest.children(id).collect()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_run_is_its_pushes_one_by_one(
        k in 1u32..=12,
        runs in prop::collection::vec((0usize..3, 0u64..3, 1u64..60), 0..40),
        siblings in sibling_orders(),
    ) {
        // Three activations of two functions (0, 1, 0: recursion shares trees), each step a run
        // of one id in one of them; `push_run` must leave the arena (node by node, sibling
        // order included), the cursors and the work counters exactly as the pushes would.
        let functions = [0u32, 1, 0];
        let mut one_by_one = KSlabForest::with_siblings(k, siblings);
        let mut batched = KSlabForest::with_siblings(k, siblings);
        let mut cursors_1 = [Cursor::default(); 3];
        let mut cursors_b = [Cursor::default(); 3];
        for &(a, id, n) in &runs {
            let key = RootKey::new(functions[a], id);
            for _ in 0..n {
                one_by_one.push(&mut cursors_1[a], key);
            }
            batched.push_run(&mut cursors_b[a], key, n);
            prop_assert_eq!(cursors_b[a], cursors_1[a]);
        }
        prop_assert_eq!(arena(&batched), arena(&one_by_one));
        prop_assert_eq!(batched.counters(), one_by_one.counters());
        prop_assert_eq!(batched.to_ipf(), one_by_one.to_ipf());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pruning_and_ranking_follow_the_counts(
        k in 1u32..=8,
        acts in activations(),
        share in 0.0f64..1.0,
        min_paths in 1usize..4,
        limit in 0usize..10,
    ) {
        let ipf = build(k, Siblings::Append, &acts).to_ipf();
        let counts = ngram_counts(&acts, k as usize);
        for f in ipf.functions() {
            let mine: Vec<(&Vec<u64>, u64)> = counts
                .iter()
                .filter(|((g, _), _)| *g == f.function)
                .map(|((_, ids), &c)| (ids, c))
                .collect();
            // Figure 4's pruning: a sequence stays if it and all its prefixes reach the share
            // of the root's count.
            for root in ipf.roots(f) {
                let label = ipf.node(root).label();
                let threshold = share * ipf.node(root).count() as f64;
                let expected: Vec<Vec<u64>> = mine
                    .iter()
                    .filter(|(ids, _)| ids[0] == label)
                    .filter(|(ids, _)| {
                        (1..=ids.len()).all(|n| counts[&(f.function, ids[..n].to_vec())] as f64 >= threshold)
                    })
                    .map(|(ids, _)| (*ids).clone())
                    .collect();
                let got: Vec<Vec<u64>> = ipf.pruned(root, share).into_iter().map(|n| ipf.ids(n)).collect();
                prop_assert_eq!(got, expected);
            }
            // Ranking: count descending, then label sequence.
            let mut expected: Vec<(u64, Vec<u64>)> = mine
                .iter()
                .filter(|(ids, _)| ids.len() >= min_paths)
                .map(|(ids, c)| (*c, (*ids).clone()))
                .collect();
            expected.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            expected.truncate(limit);
            let got: Vec<(u64, Vec<u64>)> = ipf
                .hottest(f, min_paths, limit)
                .into_iter()
                .map(|n| (ipf.node(n).count(), ipf.ids(n)))
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}

#[test]
fn recursion_nests_activations_of_one_function() {
    // f runs 1 1 | calls f (which runs 2 2 2 and returns) | runs 1 1: the outer activation's
    // sequence is 1 1 1 1, not 1 1 2 2 2 1 1.
    let mut forest = KSlabForest::new(3);
    let mut outer = forest.start();
    let key = |id| RootKey::new(0, id);
    forest.push(&mut outer, key(1));
    forest.push(&mut outer, key(1));
    let mut inner = forest.start();
    for _ in 0..3 {
        forest.push(&mut inner, key(2));
    }
    forest.push(&mut outer, key(1));
    forest.push(&mut outer, key(1));
    let ipf = forest.to_ipf();
    assert_eq!(ipf.count(0, &[1, 1, 1]), 2);
    assert_eq!(ipf.count(0, &[2, 2, 2]), 1);
    assert_eq!(ipf.count(0, &[1, 2]), 0);
    assert_eq!(ipf.count(0, &[2, 1]), 0);
}
