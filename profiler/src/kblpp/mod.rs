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
//! into slabs of `k - 1` paths. The first slab descends from a tree root, found through the
//! only hash table (keyed by function and BL id), and is counted there (`τ`, the upper part,
//! levels `0..=k-2`). Each later slab is appended below the last upper node of the slab before
//! it (`β`, the lower part, levels `k-1..=2k-3`), and the lower node is the one counted. So a
//! k-SF has at most `2k - 2` levels, and Figure 6 does a hash-table operation once every
//! `k - 1` paths (`O(1 + N/(k-1))` per call of `N` paths). Figure 6 also walks each later
//! slab's upper chain (`τ`) beside `β`; here a *shortcut* from the last node of a slab to its
//! upper chain end replaces that walk (module [`forest`]), so a path is one child step, and
//! root lookups happen once per activation and once per distinct slab pair:
//!
//! ```text
//!   Example 3 (k = 4):  * | 6 2 0 | 0 2 2 | 0 0 2 | 2 0 0 | 2 3      slabs s1 .. s5
//!
//!   6 (1)                      0 (0)                       2 (0)
//!   └ 2 (1)                    ├ 2 (0)                     └ 0 (0)
//!     └ 0 (1)     <- s1        │ └ 2 (0)                     └ 0 (0)
//!       └ 0 (1)                │   └ 0 (1)   <- s2 s3          └ 2 (1)   <- s4 s5
//!         └ 2 (1)              │     └ 0 (1)                     └ 3 (1)
//!           └ 2 (1) <- s1 s2   │       └ 2 (1)
//!                              └ 0 (0)
//!                                └ 2 (0)
//!                                  └ 2 (1)   <- s3 s4
//!                                    └ 0 (1)
//!                                      └ 0 (1)
//! ```
//!
//! Each counter counts the stream positions that ended there; upper nodes of slabs after the
//! first are created with count 0, when a slab follows them. This is exactly Definition 3's
//! forest (the prefix forest of the paper's list L); Figure 6 would also create the upper chain
//! `<2, 3>` of the last slab, with count 0 (the tests check both facts).
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
pub mod spill;
pub mod stream;

pub use forest::{
    Cursor, KSlabForest, KsfNode, LabeledNode, NodeId, PruneStats, PushCounters, RootKey, Siblings,
};
pub use ipf::{Ipf, IpfFunction, IpfNode, IpfNodeId, IpfShape, KblppStats};
pub use spill::Spill;
