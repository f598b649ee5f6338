//! The k-BLPP paper's worked example (D'Elia, Demetrescu, Finocchi 2013): the stream of
//! Figure 3, `* 6 2 0 0 2 2 0 0 2 2 0 0 2 3`, its 4-SF (Example 3, Figure 5) and its 4-IPF
//! (Example 1, Figure 3).

mod kblpp_support;

use kblpp_support::{as_counts, ngram_counts, prefix_forest, Counts};
use profiler::kblpp::{Cursor, KSlabForest, RootKey, Siblings};

/// The BL ids of Figure 3's trace (one invocation).
const STREAM: [u64; 14] = [6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3];

/// The list L of Example 3, as printed. The paper's text has `<0,0,2, 2,0,2,0>` where the
/// prefixes of length >= 4 of `s3 · s4 = <0,0,2,2,0,0>` require `<0,0,2,2,0>`; that is the
/// entry used here.
fn example_3_list() -> Vec<Vec<u64>> {
    vec![
        vec![6],
        vec![6, 2],
        vec![6, 2, 0],
        vec![6, 2, 0, 0],
        vec![6, 2, 0, 0, 2],
        vec![6, 2, 0, 0, 2, 2],
        vec![0, 2, 2, 0],
        vec![0, 2, 2, 0, 0],
        vec![0, 2, 2, 0, 0, 2],
        vec![0, 0, 2, 2],
        vec![0, 0, 2, 2, 0],
        vec![0, 0, 2, 2, 0, 0],
        vec![2, 0, 0, 2],
        vec![2, 0, 0, 2, 3],
    ]
}

fn build(k: u32, siblings: Siblings) -> KSlabForest {
    let mut forest = KSlabForest::with_siblings(k, siblings);
    let mut cursor = Cursor::default();
    for id in STREAM {
        forest.push(&mut cursor, RootKey::new(0, id));
    }
    forest
}

fn key(ids: &[u64]) -> (u32, Vec<u64>) {
    (0, ids.to_vec())
}

#[test]
fn example_3_the_4_sf_is_the_prefix_forest_of_l() {
    let list: Vec<(u32, Vec<u64>)> = example_3_list().into_iter().map(|s| (0, s)).collect();
    let expected = prefix_forest(&list);
    for siblings in [Siblings::Append, Siblings::MoveToFront] {
        let forest = build(4, siblings);
        let ksf = as_counts(&forest.labeled_nodes());
        // Exactly L's prefix forest: Figure 6 (lines 13-17) would also create the upper node
        // <2, 3> of the last slab s5, which Definition 3 leaves out (s5 is never the first of
        // a pair) and which this construction creates only when a slab follows s5.
        assert!(!ksf.contains_key(&key(&[2, 3])));
        assert_eq!(ksf, expected, "{siblings}");
    }
}

#[test]
fn figure_5_shape() {
    let forest = build(4, Siblings::Append);
    // Roots are the first items of the slabs <6,2,0> <0,2,2> <0,0,2> <2,0,0> <2,3>.
    let roots: Vec<u64> = forest.roots().iter().map(|(k, _)| k.bl_id).collect();
    assert_eq!(roots, vec![0, 2, 6]);
    // Figure 6 does one hash-table operation per slab, none for the other 9 paths; here the
    // first slab's root is looked up, and then one root per slab pair that another slab
    // follows (s1·s2, s2·s3, s3·s4): 4.
    let work = forest.counters();
    assert_eq!((work.slab_starts, work.hash_ops, work.shortcuts), (5, 4, 3));
    assert_eq!(forest.counters().pushes, 14);
    // "A k-SF has at most 2k - 2 levels and depth 2k - 3": the chains of s1 s2 and s2 s3
    // reach 6 levels.
    assert_eq!(forest.levels(), 6);
    // Listed in preorder with children by label, i.e. label sequences ascending.
    let listed: Vec<Vec<u64>> = forest.labeled_nodes().into_iter().map(|n| n.ids).collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted);
    // Every path increments exactly one counter.
    let total: u64 = forest.labeled_nodes().iter().map(|n| n.count).sum();
    assert_eq!(total, 14);
}

#[test]
fn example_1_the_4_ipf_counts_the_n_grams() {
    let forest = build(4, Siblings::Append);
    let ipf = forest.to_ipf();
    assert_eq!(forest.to_ipf_figure_7(), ipf);
    let got = as_counts(&ipf.labeled_nodes());
    assert_eq!(got, ngram_counts(&[(0, STREAM.to_vec())], 4));
    // "<2,0,0,2> ... is a 4-gram that occurs 3 times in Σ".
    assert_eq!(ipf.count(0, &[2, 0, 0, 2]), 3);
    // "Exactly one tree for each of the 4 distinct BL path IDs (0, 2, 3, 6)", whose counters
    // are the Ball-Larus counts.
    let f = ipf.function(0).unwrap();
    let level_1: Counts = ipf
        .roots(f)
        .map(|r| (key(&[ipf.node(r).label()]), ipf.node(r).count()))
        .collect();
    let mut bl = Counts::new();
    for id in STREAM {
        *bl.entry(key(&[id])).or_default() += 1;
    }
    assert_eq!(level_1, bl);
    assert_eq!(level_1.len(), 4);
    // No sequence longer than k.
    assert!(got.keys().all(|(_, ids)| ids.len() <= 4));
    assert_eq!(ipf.count(0, &[6, 2, 0, 0, 2]), 0);
}

#[test]
fn example_1_ipf_ids_and_tree_navigation_agree() {
    let ipf = build(4, Siblings::MoveToFront).to_ipf();
    let f = ipf.function(0).unwrap();
    for id in f.node_ids() {
        let ids = ipf.ids(id);
        assert_eq!(ipf.find(0, &ids), Some(id));
        assert_eq!(ids.len(), ipf.node(id).depth() as usize + 1);
        let children: Vec<u64> = ipf.children(id).map(|c| ipf.node(c).label()).collect();
        let mut sorted = children.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(children, sorted, "children by label");
        for c in ipf.children(id) {
            assert_eq!(ipf.node(c).parent(), Some(id));
        }
        assert_eq!(
            ipf.subtree(id).count(),
            1 + ipf
                .children(id)
                .map(|c| ipf.subtree(c).count())
                .sum::<usize>()
        );
    }
}

#[test]
fn stats_of_example_1() {
    let forest = build(4, Siblings::Append);
    let ipf = forest.to_ipf();
    let s = ipf.stats();
    assert_eq!((s.k, s.pushes, s.hash_ops, s.slab_starts), (4, 14, 4, 5));
    assert_eq!(s.ksf_nodes, forest.len() as u64);
    assert_eq!(s.ksf_roots, 3);
    assert!(s.ksf_bytes >= 24 * s.ksf_nodes);
    let counts = ngram_counts(&[(0, STREAM.to_vec())], 4);
    assert_eq!(s.ipf.nodes, counts.len() as u64);
    // Internal nodes and leaves from the brute-force set: a sequence is internal iff it is
    // extended by another one.
    let internal: Vec<&Vec<u64>> = counts
        .keys()
        .map(|(_, ids)| ids)
        .filter(|ids| {
            counts
                .keys()
                .any(|(_, o)| o.len() == ids.len() + 1 && o.starts_with(ids))
        })
        .collect();
    let leaves: Vec<&Vec<u64>> = counts
        .keys()
        .map(|(_, ids)| ids)
        .filter(|ids| !internal.contains(ids))
        .collect();
    let non_roots = counts.keys().filter(|(_, ids)| ids.len() > 1).count();
    assert_eq!(s.ipf.internal_nodes, internal.len() as u64);
    assert_eq!(s.ipf.leaves, leaves.len() as u64);
    let degree = non_roots as f64 / internal.len() as f64;
    assert!((s.ipf.avg_internal_degree - degree).abs() < 1e-12);
    let depth = leaves.iter().map(|l| l.len() - 1).sum::<usize>() as f64 / leaves.len() as f64;
    assert!((s.ipf.avg_leaf_depth - depth).abs() < 1e-12);
    let f = &ipf.functions()[0];
    assert_eq!((f.function, f.hash_ops, f.ksf_nodes), (0, 4, s.ksf_nodes));
    assert_eq!(f.shape, s.ipf);
}
