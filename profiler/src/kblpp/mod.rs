//! k-BLPP: profiling every concatenation of up to k Ball-Larus paths (D'Elia, Demetrescu and
//! Finocchi, "Ball-Larus Path Profiling Across Multiple Loop Iterations", 2013, sections 2.2,
//! 2.3 and 3.3).
//!
//! The probes of a Ball-Larus plan emit a stream of BL path ids, with a `*` marker at every
//! routine entry. The *k-iterations path forest* (k-IPF, Definition 2) is the prefix forest of
//! all n-grams (`n <= k`) of that stream that contain no `*`: a node reached by the labels
//! `<r1, ..., rn>` counts how many times these n paths ran consecutively in one activation.
//! Counting n-grams directly would touch `k` trie nodes per path; instead the stream feeds a
//! *k-slab forest* (k-SF, Definition 3), and the k-IPF is derived from it once, at the end.
//!
//! **k-SF construction** ([`KSlabForest::push`], Figure 6). Between two `*`, the stream is cut
//! into slabs of `k - 1` paths. Each slab starts at a tree root, found through the only hash
//! table (keyed by function and BL id); the rest of the slab descends from it (`τ`, the upper
//! part, levels `0..=k-2`). From the second slab on, each path is also appended below the last
//! node of the previous slab (`β`, the lower part, levels `k-1..=2k-3`), and that lower node is
//! the one counted. So a k-SF has at most `2k - 2` levels, a hash-table operation happens once
//! every `k - 1` paths (`O(1 + N/(k-1))` per call of `N` paths), and every other step follows a
//! first-child/next-sibling list:
//!
//! ```text
//!   Example 3 (k = 4):  * | 6 2 0 | 0 2 2 | 0 0 2 | 2 0 0 | 2 3      slabs s1 .. s5
//!
//!   6 (1)                      0 (0)                       2 (0)
//!   └ 2 (1)                    ├ 2 (0)                     ├ 0 (0)
//!     └ 0 (1)     <- s1        │ └ 2 (0)                   │ └ 0 (0)
//!       └ 0 (1)                │   └ 0 (1)   <- s2 s3      │   └ 2 (1)   <- s4 s5
//!         └ 2 (1)              │     └ 0 (1)               │     └ 3 (1)
//!           └ 2 (1) <- s1 s2   │       └ 2 (1)             └ 3 (0)       <- s5 (upper)
//!                              └ 0 (0)
//!                                └ 2 (0)
//!                                  └ 2 (1)   <- s3 s4
//!                                    └ 0 (1)
//!                                      └ 0 (1)
//! ```
//!
//! Each counter counts the stream positions that ended there; upper nodes of slabs after the
//! first are created with count 0. Definition 3 leaves out the upper nodes of the *last* slab of
//! an activation (above, `<2, 3>`), which Figure 6 still creates; they are the only difference
//! between Figure 6's forest and Definition 3's, and they carry count 0 (the tests check both).
//!
//! **Per-activation state.** The paper's `(n, τ, β)` is a [`Cursor`] (16 bytes, `Copy`), one
//! per activation frame, so recursive and interleaved activations build their own slabs in the
//! shared forest. A `*` (routine entry, OSR entry) is a fresh cursor.
//!
//! **k-IPF conversion** ([`KSlabForest::to_ipf`], Figure 7): for every k-SF node `ρ`, the
//! labeled paths of depth up to `k - 1` below it are merged into the k-IPF and their counters
//! summed. Properties 1 (a node's count is at least the sum of its children's) and 2 (the k-IPF
//! is the top `k` levels of the (k+1)-IPF) follow and are tested.
//!
//! **Layout** (section 3.3): 24-byte nodes in one arena with `u32` first-child/next-sibling
//! links, `u64` labels and counters; the root table is a `hashbrown` map behind a small
//! direct-mapped root cache. [`Siblings`] selects the paper's suggested fix for long sibling
//! scans (move-to-front, section 4.2); it changes no count.
//!
//! Modules: [`forest`] (k-SF), [`ipf`] (k-IPF and statistics), [`stream`] (the text form of a
//! stream), [`command`] (`vmrun forest`). The user documentation is `docs/kblpp.md`.

pub mod command;
pub mod forest;
pub mod ipf;
pub mod stream;

pub use forest::{
    Cursor, KSlabForest, KsfNode, LabeledNode, NodeId, PushCounters, RootKey, Siblings,
};
pub use ipf::{Ipf, IpfFunction, IpfNode, IpfNodeId, IpfShape, KblppStats};
