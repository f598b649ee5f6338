//! The k-slab forest (k-SF) and its streaming construction, the k-BLPP paper's Definition 3 and
//! Figure 6 (section 2.3), laid out as in section 3.3.
//!
//! **Layout.** Nodes live in one arena (`Vec<KsfNode>`, 24 bytes each: label, counter,
//! first child, next sibling; links are `u32` arena positions). Tree roots are found through a
//! `hashbrown` map keyed by [`RootKey`] (function, BL id); that map is the only hash table of
//! the profiler. A label below a root is a BL id of the root's function.
//!
//! **Cursor.** The paper's `(n, τ, β)` state belongs to one routine activation: every activation
//! frame keeps its own [`Cursor`], so recursion and interleaved calls each build their own
//! slabs while sharing one forest. A `*` marker (routine entry, or an OSR entry into a frame
//! whose earlier paths went elsewhere) is a fresh cursor, [`Cursor::default`].
//!
//! **Shortcuts: one step a path instead of two.** Figure 6 walks two nodes for every path after
//! the first slab: `τ` down the upper chain of the current slab (from a root found in the hash
//! table), and `β` down the lower part, where it counts. Only `β` is ever counted; `τ` is needed
//! once a slab, as the node the next slab's `β` starts from. And `τ` at the end of a slab is a
//! function of `β` there: `β` spells the previous slab and this one, `τ` spells this one. So
//! the cursor keeps only the counted node and its depth, and each node at depth `2k - 3` (the
//! last node of a later slab, which never has children) keeps, in its first-child link, a
//! *shortcut* to that `τ`. A path is then one step: the child of the counted node, or at a slab
//! end the child of the shortcut's target. The depth tells where the slab is (`n mod (k-1)`): a
//! first slab ends at depth `k - 2`, a later one at `2k - 3`.
//!
//! A shortcut is resolved when it is first needed, at the start of the slab after the one it
//! ends: the slab's labels are read upwards from its last node (through the *threads*: the last
//! child of every list keeps a link to its parent in its next-sibling link), and the upper chain
//! is walked down from its root, adding the nodes missing. That is one root lookup and `k - 2`
//! child lookups per distinct pair of consecutive slabs followed by a third, instead of one
//! root lookup per slab and `k - 2` child lookups per slab; and upper chains are created only
//! when a slab follows, so the forest is exactly Definition 3's (Figure 6 also creates the
//! zero-count upper chain of each activation's last slab). The paper's work counts remain
//! available: [`PushCounters::slab_starts`] is Figure 6's number of root lookups.
//!
//! Threads and shortcuts are *tagged* links (top bit set, `LINK`); the arena holds fewer
//! than `2^31 - 1` nodes, so a tagged link, like `NONE`, fails every bounds check: code that
//! follows children and siblings with `nodes.get(link)` stops at them without a test of its own.
//!
//! **K = 1.** Definition 3 needs `k >= 2` (slabs of `k - 1 >= 1` items). For `k = 1` every item
//! is looked up as a root and counted there, which is Ball-Larus profiling with the same hash
//! table; the forest then has one level.
//!
//! **Sibling order.** The paper scans a node's children linearly (lines 13 and 21) and
//! suggests, for its worst case (many scans over long sibling lists), moving hot children to the
//! front (section 4.2, eclipse). [`Siblings::Append`] keeps children in creation order (a new
//! child goes to the end, where the failed scan stopped); [`Siblings::MoveToFront`] moves every
//! child found to the front of its list and inserts new ones there;
//! [`Siblings::MoveToFrontAfter`] appends, and moves a child to the front only when its scan
//! stepped over at least N siblings; [`Siblings::Transpose`] appends, and swaps a child found
//! after one or more steps with its predecessor. All build the same forest up to sibling order, so every
//! count is the same (`profiler/benches/kblpp.rs` measures which is faster; `docs/kblpp.md`).

mod prune;

pub use prune::PruneStats;

use crate::define_index;
use crate::path_hash::PathKeyHash;
use hashbrown::HashMap;
use std::fmt;
use std::str::FromStr;

define_index!(
    /// A node of a [`KSlabForest`]: its position in the arena.
    pub struct NodeId = "n";
);

/// "No node": an empty first-child link, the next-sibling link of a root, an empty cursor.
const NONE: u32 = u32::MAX;

/// The tag bit of a link that is not a child or a sibling (see "Shortcuts" in the module
/// documentation): the next-sibling link of a last child holds `LINK | parent`, and the
/// first-child link of a node at depth `2k - 3` holds `LINK | upper` once resolved. The arena
/// holds fewer than `LINK - 1` nodes, so a tagged link (and `NONE`) fails every bounds check:
/// "is this a child?" is `nodes.get(link)`.
const LINK: u32 = 1 << 31;

/// The largest number of nodes the arena may hold (tagged links and `NONE` stay out of range).
const MAX_NODES: usize = LINK as usize - 1;

/// `link` if it names a child or a sibling (not a thread, a shortcut or `NONE`).
#[inline(always)]
fn real(link: u32) -> Option<u32> {
    (link < LINK).then_some(link)
}

/// The key of a tree root: the routine and the Ball-Larus path id the tree starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RootKey {
    /// The routine (the VM's function index).
    pub function: u32,
    /// The BL path id.
    pub bl_id: u64,
}

impl RootKey {
    /// The key of path `bl_id` of `function`.
    #[inline]
    pub const fn new(function: u32, bl_id: u64) -> Self {
        RootKey { function, bl_id }
    }
}

/// How a node's children are ordered while the forest is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Siblings {
    /// Creation order: a new child is appended at the end of the list (the paper's layout).
    #[default]
    Append,
    /// Move-to-front: a child found by a scan is moved to the front, a new child is inserted
    /// there (the paper's suggested fix for long scans, section 4.2).
    MoveToFront,
    /// Adaptive: creation order, but a child found after stepping over at least this many
    /// siblings is moved to the front (only long scans pay for a move).
    MoveToFrontAfter(u32),
    /// Transpose: a child found after at least one step swaps places with the sibling before
    /// it, so frequent children drift forward and a rare one moves by one place only.
    Transpose,
}

impl Siblings {
    /// The scan length from which a found child moves to the front (`u32::MAX`: never).
    fn move_after(self) -> u32 {
        match self {
            Siblings::Append => u32::MAX,
            Siblings::MoveToFront => 1,
            Siblings::MoveToFrontAfter(n) => n.max(1),
            Siblings::Transpose => 1,
        }
    }
}

impl FromStr for Siblings {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "append" => Ok(Siblings::Append),
            "move-to-front" | "mtf" => Ok(Siblings::MoveToFront),
            "transpose" => Ok(Siblings::Transpose),
            _ => s
                .strip_prefix("mtf:")
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n >= 1)
                .map(Siblings::MoveToFrontAfter)
                .ok_or_else(|| {
                    format!(
                        "unknown sibling order '{s}' (expected append, mtf, mtf:N with N >= 1 or transpose)"
                    )
                }),
        }
    }
}

impl fmt::Display for Siblings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Siblings::Append => f.write_str("append"),
            Siblings::MoveToFront => f.write_str("mtf"),
            Siblings::MoveToFrontAfter(n) => write!(f, "mtf:{n}"),
            Siblings::Transpose => f.write_str("transpose"),
        }
    }
}

/// One node of the k-SF: a BL id, its counter and its first-child/next-sibling links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KsfNode {
    /// `ℓ(node)`: the BL path id.
    label: u64,
    /// `c(node)`: how many times the stream ended a counted sequence here (Figure 6, lines 27
    /// and 29). Zero for upper-part nodes reached only after the first slab.
    count: u64,
    /// The first child, or `NONE`.
    first_child: u32,
    /// The next sibling, or `NONE`.
    next_sibling: u32,
}

impl KsfNode {
    #[inline]
    fn new(label: u64) -> Self {
        KsfNode {
            label,
            count: 0,
            first_child: NONE,
            next_sibling: NONE,
        }
    }

    /// The node's label: a BL path id.
    pub fn label(&self) -> u64 {
        self.label
    }

    /// The node's counter.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// Slots of the root cache ([`KSlabForest::root`]); a power of two.
const ROOT_CACHE: usize = 256;

/// One slot of the root cache: a root key and its node (`node == NONE`: empty).
#[derive(Clone, Copy, Debug)]
struct RootSlot {
    /// The key's BL id.
    label: u64,
    /// The key's function.
    function: u32,
    /// The root node, or `NONE`.
    node: u32,
}

impl RootSlot {
    /// A slot that holds no key.
    const EMPTY: RootSlot = RootSlot {
        label: 0,
        function: 0,
        node: NONE,
    };

    /// The slot of `key`: the top bits of the key word times a 64-bit odd constant
    /// (Fibonacci hashing; BL ids are dense small integers, which this spreads over every slot).
    #[inline(always)]
    fn of(key: RootKey) -> usize {
        let word = (u64::from(key.function) << 32) ^ key.bl_id;
        (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - ROOT_CACHE.trailing_zeros())) as usize
    }
}

/// The profiling state of one routine activation: the paper's `(n mod (k-1), τ, β)`.
///
/// Only the counted node and its depth are kept: `τ` during the first slab after a `*` (line
/// 29), `β` after it (line 27). The depth tells where the activation is in its slab (`n mod
/// (k-1)`): a first slab ends at depth `k - 2`, a later one at `2k - 3`. `τ` of a later slab
/// is not walked; the next slab finds it through the shortcut of the slab's last node
/// (module documentation). [`Cursor::default`] is the state just after a `*` marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The node the last push counted (`τ` in the first slab, `β` after it), or `NONE` right
    /// after `*`.
    at: u32,
    /// The depth of `at` (a root is at depth 0).
    depth: u32,
    /// The function of the activation (for the root lookups of its later slabs).
    function: u32,
}

impl Default for Cursor {
    /// The state just after a `*` marker: `n = 0`, `τ = β = null`.
    fn default() -> Self {
        Cursor {
            at: NONE,
            depth: 0,
            function: 0,
        }
    }
}

impl Cursor {
    /// True when no item was pushed since the last `*`.
    pub fn is_fresh(&self) -> bool {
        self.at == NONE
    }

    /// The depth of the node the last push counted (a root is at depth 0), or `None` right
    /// after `*`.
    pub fn depth(&self) -> Option<u32> {
        (!self.is_fresh()).then_some(self.depth)
    }

    /// The node the last push counted, or `None` right after `*`.
    pub fn node(&self) -> Option<NodeId> {
        (!self.is_fresh()).then(|| NodeId::new(self.at as usize))
    }
}

/// Counters of the work done by [`KSlabForest::push`] (the paper's cost model, section 2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushCounters {
    /// Items pushed (BL path ends).
    pub pushes: u64,
    /// Hash-table operations done: root lookups (`find(R, r)`; an insertion is part of the
    /// same operation), one at the first item after each `*` and one per shortcut resolved.
    pub hash_ops: u64,
    /// Slab starts: the root lookups Figure 6 does (one per slab of `k - 1` items, the paper's
    /// `O(1 + N/(k-1))` per activation of `N` items); at least `hash_ops`.
    pub slab_starts: u64,
    /// Shortcuts resolved: first uses of the slab end of a later slab as a start (each one root
    /// lookup and up to `k - 2` child lookups).
    pub shortcuts: u64,
    /// Children lookups: one per push but those at a root, `k - 2` per shortcut resolved.
    pub child_lookups: u64,
    /// Siblings stepped over by those lookups before the match (or the end of the list).
    pub sibling_steps: u64,
}

/// A k-slab forest under construction (k-BLPP paper, Definition 3 and Figure 6).
///
/// ```
/// use profiler::kblpp::{Cursor, KSlabForest, RootKey};
/// // Example 3 of the paper: * 6 2 0 0 2 2 0 0 2 2 0 0 2 3, k = 4.
/// let mut forest = KSlabForest::new(4);
/// let mut cursor = Cursor::default(); // just after `*`
/// for id in [6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3] {
///     forest.push(&mut cursor, RootKey::new(0, id));
/// }
/// let ipf = forest.to_ipf();
/// assert_eq!(ipf.count(0, &[2, 0, 0, 2]), 3); // the paper's hot 4-gram
/// let work = forest.counters();
/// assert_eq!(work.slab_starts, 5); // Figure 6: a root lookup per slab of k - 1 = 3 items
/// assert_eq!(work.hash_ops, 4); // here: after `*`, and for the shortcuts of s1·s2 .. s3·s4
/// ```
#[derive(Clone, Debug)]
pub struct KSlabForest {
    /// The `k` of the k-SF (at least 1).
    k: u32,
    /// Items per slab: `k - 1`, or 1 when `k = 1`.
    slab: u32,
    /// The depth of the last node of a later slab, where a shortcut is kept: `2k - 3`
    /// (`u32::MAX` for `k = 1`, which has no later slab).
    last_depth: u32,
    /// How children are ordered.
    siblings: Siblings,
    /// `siblings.move_after()`, cached for the scan loop.
    move_after: u32,
    /// The arena; `NodeId(i)` is `nodes[i]`.
    nodes: Vec<KsfNode>,
    /// `R`: the roots, by (function, label).
    roots: HashMap<(u32, u64), NodeId, PathKeyHash>,
    /// A direct-mapped cache in front of `roots`: slot [`RootSlot::of`] holds the last key
    /// looked up there. Roots never move, so a slot stays right until it is overwritten.
    root_cache: Box<[RootSlot; ROOT_CACHE]>,
    /// Siblings stepped over so far ([`PushCounters::sibling_steps`]).
    sibling_steps: u64,
    /// Shortcuts resolved so far, by function ([`PushCounters::shortcuts`]).
    shortcuts: HashMap<u32, u64>,
    /// The labels of one slab, while a shortcut is resolved (kept to reuse its allocation).
    slab_labels: Vec<u64>,
    /// [`push`](Self::push) reports when the arena holds this many nodes.
    node_limit: usize,
    /// Per function, the counts of the nodes pruned away ([`KSlabForest::prune`]), so that the
    /// work counters, derived from the node counts, still count their pushes.
    pruned: HashMap<u32, PrunedWork>,
}

/// The work counters' part of the counts of pruned nodes: `(pushes, counts at roots, counts
/// at depth k - 1)`.
type PrunedWork = (u64, u64, u64);

/// The position of a node added to an arena of `len` nodes. Panics when the arena is full
/// ([`MAX_NODES`], 2^31 - 1 nodes: 48 GiB of nodes).
fn new_position(len: usize) -> u32 {
    assert!(len < MAX_NODES, "a k-SF holds at most 2^31 - 1 nodes");
    len as u32
}

impl KSlabForest {
    /// An empty k-SF with children in creation order. Panics if `k == 0`.
    pub fn new(k: u32) -> Self {
        Self::with_siblings(k, Siblings::Append)
    }

    /// An empty k-SF with the given sibling order. Panics if `k == 0`.
    pub fn with_siblings(k: u32, siblings: Siblings) -> Self {
        assert!(k >= 1, "k-SF needs k >= 1");
        KSlabForest {
            k,
            slab: (k - 1).max(1),
            last_depth: (2 * k).checked_sub(3).unwrap_or(u32::MAX),
            siblings,
            move_after: siblings.move_after(),
            nodes: Vec::new(),
            roots: HashMap::with_hasher(PathKeyHash),
            root_cache: Box::new([RootSlot::EMPTY; ROOT_CACHE]),
            sibling_steps: 0,
            shortcuts: HashMap::new(),
            slab_labels: Vec::new(),
            pruned: HashMap::new(),
            node_limit: usize::MAX,
        }
    }

    /// A cursor for a new activation: the state just after a `*` marker.
    #[inline]
    pub fn start(&self) -> Cursor {
        Cursor::default()
    }

    /// Processes one BL path id of the activation whose state is `cursor` (Figure 6,
    /// `process_bl_path_id(r)` for `r ≠ *`; for `*` use a fresh cursor).
    ///
    /// Every push increments exactly one counter. Allocation-free once the forest holds every
    /// node the stream reaches.
    ///
    /// The common cases are inlined into the caller: inside a slab, the wanted child of the
    /// counted node at the head of its list; at the start of a later slab, the resolved
    /// shortcut of the slab that ended and the wanted child of its target at the head of its
    /// list; right after `*`, the root in the root cache. Each touches the cursor and one or
    /// two nodes (or the cache slot); everything else (`push_general`: scans, new nodes,
    /// shortcut resolution, the root table) is out of line.
    ///
    /// Returns whether the forest holds [`set_node_limit`](Self::set_node_limit) nodes or
    /// more: always false on the inlined paths, which add no node, so a caller that tests it
    /// pays only on the slow path.
    #[inline(always)]
    pub fn push(&mut self, cursor: &mut Cursor, key: RootKey) -> bool {
        debug_assert!(
            cursor.at == NONE || cursor.function == key.function,
            "one cursor fed paths of two functions"
        );
        // A fresh cursor (`NONE`) fails the bounds check.
        if let Some(node) = self.nodes.get(cursor.at as usize) {
            let mut next = node.first_child;
            let mut depth = cursor.depth + 1;
            if next >= LINK {
                // The last node of a later slab, with its shortcut resolved (an unresolved
                // one, `NONE`, or a node without children fails the bounds check): the next
                // slab starts below the upper node of this one (lines 6-11, 21-27).
                if let Some(upper) = self.nodes.get((next & !LINK) as usize) {
                    next = upper.first_child;
                    depth = self.k - 1;
                }
            }
            // Lines 13-18 (first slab, `τ`) or 21-27 (later slabs, `β`), the wanted node at
            // the head of its list.
            if let Some(head) = self.nodes.get_mut(next as usize) {
                if head.label == key.bl_id {
                    head.count += 1;
                    cursor.at = next;
                    cursor.depth = depth;
                    return false;
                }
            }
        } else if let Some(root) = self.cached_root(key) {
            // Line 29 right after `*`: counted at the root.
            self.nodes[root as usize].count += 1;
            *cursor = Cursor {
                at: root,
                depth: 0,
                function: key.function,
            };
            return false;
        }
        self.push_general(cursor, key)
    }

    /// Processes `n` consecutive occurrences of the same BL path id in one activation: the
    /// forest, the cursor and the work counters end up exactly as after `n` calls of
    /// [`push`](Self::push) (same nodes, counters, sibling order, scans and shortcuts), in
    /// `O(k + scans)` pushes instead of `n`. Returns whether the forest holds
    /// [`set_node_limit`](Self::set_node_limit) nodes or more.
    ///
    /// Why: after a few slabs of `r r r ...`, every slab starts at the last node `L` of the
    /// chain `T r^(k-1)`, where `T` is the upper chain end of `r^(k-1)` and `L`'s shortcut,
    /// counts the `k - 1` nodes of that chain below `T` (depth `k - 1 ..= 2k - 3`) and ends
    /// at `L` again: the cursor is left as it was found. Once one such slab created no node,
    /// resolved no shortcut and moved no sibling, every further
    /// slab only adds 1 to those `k - 1` counters (and repeats its scans): the whole slabs
    /// left are added at once, then the rest is pushed one by one. "Moved no sibling": its
    /// scans stepped over fewer siblings in all than the order's threshold for a move (so
    /// [`Siblings::Append`] needs no scan-free slab, and every further slab steps over as many
    /// siblings, which are added too). For `k = 1` the slab is the root itself.
    pub fn push_run(&mut self, cursor: &mut Cursor, key: RootKey, n: u64) -> bool {
        self.push_run_unchecked(cursor, key, n);
        self.nodes.len() >= self.node_limit
    }

    /// [`push_run`](Self::push_run) without the node count.
    fn push_run_unchecked(&mut self, cursor: &mut Cursor, key: RootKey, n: u64) {
        let slab = u64::from(self.slab);
        let mut left = n;
        // Short runs: not worth the checks (the first slabs are pushed one by one anyway).
        if left <= 4 * slab + 2 {
            for _ in 0..left {
                self.push(cursor, key);
            }
            return;
        }
        // To a slab start, then one full slab of r's.
        while !self.ends_slab(cursor) {
            self.push(cursor, key);
            left -= 1;
        }
        for _ in 0..slab {
            self.push(cursor, key);
        }
        left -= slab;
        // Slabs until one that only counted.
        while left >= slab {
            let before = (
                self.nodes.len(),
                self.sibling_steps,
                self.shortcuts_resolved(),
            );
            let start = *cursor;
            for _ in 0..slab {
                self.push(cursor, key);
            }
            left -= slab;
            let stepped = self.sibling_steps - before.1;
            // Steady: the slab ended where it started, on the last node of a later slab (for
            // k = 1, at the root), whose shortcut it followed already resolved; it added no
            // node, and no scan of it reached `move_after` (their sum did not), so none moved.
            if *cursor == start
                && (self.k == 1 || start.depth == self.last_depth)
                && self.nodes.len() == before.0
                && self.shortcuts_resolved() == before.2
                && stepped < u64::from(self.move_after)
            {
                let times = left / slab;
                self.add_to_slab(cursor, key, times);
                self.sibling_steps += stepped * times;
                left %= slab;
                break;
            }
        }
        for _ in 0..left {
            self.push(cursor, key);
        }
    }

    /// Whether the next push starts a slab (`n mod (k - 1) = 0`): right after `*`, for k = 1
    /// always, else at the end of the first slab (depth `k - 2`) or of a later one (`2k - 3`).
    fn ends_slab(&self, cursor: &Cursor) -> bool {
        cursor.at == NONE
            || self.k == 1
            || cursor.depth == self.k - 2
            || cursor.depth == self.last_depth
    }

    /// Shortcuts resolved so far, all functions (a sum over a map of one entry per function).
    fn shortcuts_resolved(&self) -> u64 {
        self.shortcuts.values().sum()
    }

    /// Adds `times` to the counters one slab of `key`'s label counts from the steady state of
    /// [`push_run`](Self::push_run) (the cursor at a slab start, on the last node of a later
    /// slab whose shortcut is `T`): the root for `k = 1`, else the `k - 1` nodes labeled `r`
    /// below `T`.
    fn add_to_slab(&mut self, cursor: &Cursor, key: RootKey, times: u64) {
        if times == 0 {
            return;
        }
        debug_assert!(self.ends_slab(cursor));
        if self.k == 1 {
            let root = self.root(key);
            self.nodes[root as usize].count += times;
            return;
        }
        let shortcut = self.nodes[cursor.at as usize].first_child;
        debug_assert!(shortcut != NONE && shortcut & LINK != 0);
        let mut at = shortcut & !LINK;
        for _ in 0..self.slab {
            at = self
                .find_child(at, key.bl_id)
                .expect("the slab just pushed created every node of the chain");
            self.nodes[at as usize].count += times;
        }
    }

    /// The child of `parent` labeled `label`, if any (a scan that changes nothing).
    fn find_child(&self, parent: u32, label: u64) -> Option<u32> {
        let mut at = self.nodes[parent as usize].first_child;
        while let Some(node) = self.nodes.get(at as usize) {
            if node.label == label {
                return Some(at);
            }
            at = node.next_sibling;
        }
        None
    }

    /// [`push`](Self::push) in general (Figure 6, lines 6-29): slab starts, scans, new nodes,
    /// shortcuts.
    #[inline(never)]
    fn push_general(&mut self, cursor: &mut Cursor, key: RootKey) -> bool {
        let label = key.bl_id;
        if cursor.at == NONE || self.k == 1 {
            // Lines 6-11 and 29: the first slab after `*` starts at a root (every item, for
            // k = 1).
            *cursor = Cursor {
                at: self.root(key),
                depth: 0,
                function: key.function,
            };
        } else if cursor.depth == self.last_depth {
            // Lines 6-11 and 21-27: a slab after a later slab; `β` starts at the upper node
            // of the slab that ended (`τ`), its last node's shortcut.
            let upper = self.shortcut(cursor.at, cursor.function);
            cursor.at = self.child(upper, label);
            cursor.depth = self.k - 1;
        } else {
            // Lines 13-18 (first slab, `τ`; after its end at depth k - 2, `β` starts there)
            // or 21-27 (later slabs, `β`).
            cursor.at = self.child(cursor.at, label);
            cursor.depth += 1;
        }
        self.nodes[cursor.at as usize].count += 1;
        self.nodes.len() >= self.node_limit
    }

    /// The upper node of the slab that ended at `last` (a node at depth `2k - 3`): the node
    /// reached from the root of the slab's first label by its other labels, which Figure 6
    /// reaches as `τ`. Resolved on first use (root lookup and child walk, adding the nodes
    /// missing; the slab's labels are read upwards through the threads) and kept as `last`'s
    /// shortcut.
    #[inline(never)]
    fn shortcut(&mut self, last: u32, function: u32) -> u32 {
        let link = self.nodes[last as usize].first_child;
        if link != NONE {
            return link & !LINK;
        }
        let mut labels = std::mem::take(&mut self.slab_labels);
        labels.clear();
        let mut at = last;
        labels.push(self.nodes[at as usize].label);
        for _ in 1..self.slab {
            at = self.parent(at);
            labels.push(self.nodes[at as usize].label);
        }
        labels.reverse();
        let mut upper = self.root(RootKey::new(function, labels[0]));
        for &label in &labels[1..] {
            upper = self.child(upper, label);
        }
        self.slab_labels = labels;
        self.nodes[last as usize].first_child = LINK | upper;
        *self.shortcuts.entry(function).or_default() += 1;
        upper
    }

    /// The parent of `at` (not a root): the thread at the end of its sibling list.
    fn parent(&self, mut at: u32) -> u32 {
        loop {
            let next = self.nodes[at as usize].next_sibling;
            if next >= LINK {
                debug_assert_ne!(next, NONE, "a root has no parent");
                return next & !LINK;
            }
            at = next;
        }
    }

    /// `find(R, r)`, adding the root if missing (lines 8-11): the root cache, then the table.
    #[inline(always)]
    fn root(&mut self, key: RootKey) -> u32 {
        match self.cached_root(key) {
            Some(node) => node,
            None => self.root_lookup(key),
        }
    }

    /// The root of `key` if the root cache holds it.
    #[inline(always)]
    fn cached_root(&self, key: RootKey) -> Option<u32> {
        let slot = &self.root_cache[RootSlot::of(key)];
        (slot.label == key.bl_id && slot.function == key.function && slot.node != NONE)
            .then_some(slot.node)
    }

    /// [`root`](Self::root) when the cache does not hold `key`: the table, adding the root if
    /// missing; the key then replaces its cache slot's.
    #[inline(never)]
    fn root_lookup(&mut self, key: RootKey) -> u32 {
        let nodes = &mut self.nodes;
        let node = *self
            .roots
            .entry((key.function, key.bl_id))
            .or_insert_with(|| {
                let node = NodeId::from_u32(new_position(nodes.len()));
                nodes.push(KsfNode::new(key.bl_id));
                node
            });
        self.root_cache[RootSlot::of(key)] = RootSlot {
            label: key.bl_id,
            function: key.function,
            node: node.as_u32(),
        };
        node.as_u32()
    }

    /// The child of `parent` labeled `label`, added if missing (lines 13-17 and 21-25). The
    /// scan is inlined (into `push_general`, itself out of line); moves
    /// and insertions are out of line.
    #[inline(always)]
    fn child(&mut self, parent: u32, label: u64) -> u32 {
        let mut prev = NONE;
        let mut at = self.nodes[parent as usize].first_child;
        let mut steps = 0u32;
        // A thread or `NONE` is never a valid position: the bounds check also ends the list.
        while let Some(node) = self.nodes.get(at as usize) {
            if node.label == label {
                self.sibling_steps += u64::from(steps);
                if steps >= self.move_after {
                    self.move_forward(parent, prev, at);
                }
                return at;
            }
            steps += 1;
            prev = at;
            at = node.next_sibling;
        }
        self.sibling_steps += u64::from(steps);
        self.add_child(parent, prev, label)
    }

    /// Moves `at`, a child of `parent` found past the head of the list right after `prev`, to
    /// the front, or one place forward for [`Siblings::Transpose`]. The thread to `parent`
    /// stays on whichever child ends the list.
    #[inline(never)]
    fn move_forward(&mut self, parent: u32, prev: u32, at: u32) {
        let first = self.nodes[parent as usize].first_child;
        // Unlink `at` (after `prev`) and put it first, or just before `prev`.
        self.nodes[prev as usize].next_sibling = self.nodes[at as usize].next_sibling;
        let (before, link) = if self.siblings == Siblings::Transpose {
            // The sibling before `prev`, if any (a second walk, for this order only).
            let (mut before_prev, mut x) = (NONE, first);
            while x != prev {
                (before_prev, x) = (x, self.nodes[x as usize].next_sibling);
            }
            (before_prev, prev)
        } else {
            (NONE, first)
        };
        self.nodes[at as usize].next_sibling = link;
        if before == NONE {
            self.nodes[parent as usize].first_child = at;
        } else {
            self.nodes[before as usize].next_sibling = at;
        }
    }

    /// Adds a child labeled `label` to `parent`: after `last`, the last child (`NONE`: no
    /// children), or first for [`Siblings::MoveToFront`]. A child that ends the list takes
    /// over the thread to `parent`.
    #[inline(never)]
    fn add_child(&mut self, parent: u32, last: u32, label: u64) -> u32 {
        let new = new_position(self.nodes.len());
        let mut node = KsfNode::new(label);
        if self.siblings == Siblings::MoveToFront || last == NONE {
            let first = self.nodes[parent as usize].first_child;
            node.next_sibling = real(first).unwrap_or(LINK | parent);
            self.nodes[parent as usize].first_child = new;
        } else {
            node.next_sibling = self.nodes[last as usize].next_sibling;
            self.nodes[last as usize].next_sibling = new;
        }
        self.nodes.push(node);
        new
    }

    /// From now on [`push`](Self::push) and [`push_run`](Self::push_run) return true once the
    /// forest holds `limit` nodes or more (a bounded forest prunes then: [`Self::prune`]).
    pub fn set_node_limit(&mut self, limit: usize) {
        self.node_limit = limit;
    }

    /// The `k` of this forest.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The sibling order used while building.
    pub fn siblings(&self) -> Siblings {
        self.siblings
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of trees (entries of the root table).
    pub fn num_roots(&self) -> usize {
        self.roots.len()
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &KsfNode {
        &self.nodes[id.index()]
    }

    /// The children of `id`, in the current sibling order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            nodes: &self.nodes,
            at: self.nodes[id.index()].first_child,
        }
    }

    /// Every root with its key, sorted by key.
    pub fn roots(&self) -> Vec<(RootKey, NodeId)> {
        let mut roots: Vec<(RootKey, NodeId)> = self
            .roots
            .iter()
            .map(|(&(function, bl_id), &node)| (RootKey { function, bl_id }, node))
            .collect();
        roots.sort_unstable_by_key(|&(key, _)| key);
        roots
    }

    /// The work counters so far. The pushes and lookups are derived from the node counters,
    /// which keeps them off the hot path (see `for_each_count`); this walks the forest.
    pub fn counters(&self) -> PushCounters {
        let (mut pushes, mut at_roots, mut lower_starts) = (0u64, 0u64, 0u64);
        self.for_each_count(|_, depth, count| {
            pushes += count;
            if depth == 0 {
                at_roots += count;
            } else if depth == self.k - 1 {
                lower_starts += count;
            }
        });
        for &(p, r, l) in self.pruned.values() {
            pushes += p;
            at_roots += r;
            lower_starts += l;
        }
        let shortcuts = self.shortcuts_resolved();
        PushCounters {
            pushes,
            hash_ops: at_roots + shortcuts,
            slab_starts: at_roots + lower_starts,
            shortcuts,
            child_lookups: pushes - at_roots + shortcuts * u64::from(self.slab - 1),
            sibling_steps: self.sibling_steps,
        }
    }

    /// Calls `f(function, depth, count)` for every node: its tree's function, its depth (0 for
    /// a root) and its counter.
    ///
    /// Every push increments one counter (Figure 6, lines 27 and 29), at a depth that tells
    /// what it did:
    ///
    /// - depth 0 (a root): the first item after `*`, a root lookup (for k = 1, every item);
    /// - depth `1 ..= k-2`: the first slab's next items (a child of `τ`);
    /// - depth `k - 1` (k >= 2): a later slab's first item, a child of the previous slab's
    ///   upper node (Figure 6 looks up a root there too);
    /// - depth `k ..= 2k-3`: a later slab's next items (a child of `β`).
    fn for_each_count(&self, mut f: impl FnMut(u32, u32, u64)) {
        let mut stack: Vec<(u32, u32, u32)> = self
            .roots
            .iter()
            .map(|(&(function, _), node)| (function, node.as_u32(), 0))
            .collect();
        while let Some((function, at, depth)) = stack.pop() {
            let node = &self.nodes[at as usize];
            f(function, depth, node.count);
            let mut child = node.first_child;
            while let Some(c) = real(child) {
                stack.push((function, c, depth + 1));
                child = self.nodes[c as usize].next_sibling;
            }
        }
    }

    /// Bytes held by the forest: the node arena and the root table (allocated capacity), the
    /// root cache and the forest itself.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<KsfNode>()
            + self.roots.allocation_size()
            + std::mem::size_of::<[RootSlot; ROOT_CACHE]>()
            + self.shortcuts.allocation_size()
            + self.slab_labels.capacity() * std::mem::size_of::<u64>()
            + std::mem::size_of::<Self>()
    }

    /// Number of levels of the deepest tree (0 when empty): at most `2k - 2` for `k >= 2`
    /// (Definition 3), 1 for `k = 1`.
    pub fn levels(&self) -> usize {
        let mut deepest = 0;
        let mut stack: Vec<(u32, usize)> = self.roots.values().map(|n| (n.as_u32(), 1)).collect();
        while let Some((at, level)) = stack.pop() {
            deepest = deepest.max(level);
            let mut child = self.nodes[at as usize].first_child;
            while let Some(c) = real(child) {
                stack.push((c, level + 1));
                child = self.nodes[c as usize].next_sibling;
            }
        }
        deepest
    }

    /// Every node written as its function and the labels from its root to it, with its
    /// counter, in a fixed order: roots by key, then depth first with children by label.
    pub fn labeled_nodes(&self) -> Vec<LabeledNode> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut ids: Vec<u64> = Vec::new();
        // (node, depth), popped in order: children are pushed sorted by label, reversed.
        let mut stack: Vec<(u32, usize)> = Vec::new();
        let mut children: Vec<u32> = Vec::new();
        for (key, root) in self.roots() {
            stack.push((root.as_u32(), 0));
            while let Some((at, depth)) = stack.pop() {
                let node = &self.nodes[at as usize];
                ids.truncate(depth);
                ids.push(node.label);
                out.push(LabeledNode {
                    function: key.function,
                    ids: ids.clone(),
                    count: node.count,
                });
                children.clear();
                children.extend(self.children(NodeId::from_u32(at)).map(NodeId::as_u32));
                children.sort_unstable_by_key(|&c| std::cmp::Reverse(self.nodes[c as usize].label));
                stack.extend(children.iter().map(|&c| (c, depth + 1)));
            }
        }
        out
    }

    /// Root lookups per function: `(hash_ops, slab_starts)`, those done (its first items
    /// after `*`, the counters of its roots, and its shortcuts resolved) and those Figure 6
    /// would do (one per slab: the counters at depths 0 and `k - 1`).
    pub(crate) fn root_lookups_by_function(&self) -> HashMap<u32, (u64, u64)> {
        let mut by_function: HashMap<u32, (u64, u64)> = self
            .shortcuts
            .iter()
            .map(|(&function, &n)| (function, (n, 0)))
            .collect();
        self.for_each_count(|function, depth, count| {
            if depth == 0 || depth == self.k - 1 {
                let entry = by_function.entry(function).or_default();
                entry.1 += count;
                if depth == 0 {
                    entry.0 += count;
                }
            }
        });
        for (&function, &(_, at_roots, lower_starts)) in &self.pruned {
            let entry = by_function.entry(function).or_default();
            entry.0 += at_roots;
            entry.1 += at_roots + lower_starts;
        }
        by_function
    }

    /// The raw arena, for the conversion to a k-IPF.
    pub(crate) fn raw_nodes(&self) -> &[KsfNode] {
        &self.nodes
    }

    /// The first child and next sibling of arena position `at` (`None` for none).
    pub(crate) fn links(&self, at: u32) -> (Option<u32>, Option<u32>) {
        let n = &self.nodes[at as usize];
        (real(n.first_child), real(n.next_sibling))
    }
}

/// A forest node written out: its function, the labels (BL ids) from its root to it, and its
/// counter.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LabeledNode {
    /// The routine the tree belongs to.
    pub function: u32,
    /// The labels from the root to the node (at least one).
    pub ids: Vec<u64>,
    /// The node's counter.
    pub count: u64,
}

/// Iterator over the children of a k-SF node ([`KSlabForest::children`]).
#[derive(Clone, Debug)]
pub struct Children<'a> {
    nodes: &'a [KsfNode],
    at: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let at = real(self.at)?;
        self.at = self.nodes[at as usize].next_sibling;
        Some(NodeId::from_u32(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_24_bytes_and_cursor_12() {
        assert_eq!(std::mem::size_of::<KsfNode>(), 24);
        assert_eq!(std::mem::size_of::<Cursor>(), 12);
    }

    #[test]
    fn root_cache_collisions_keep_one_root_per_key() {
        // Many more keys than cache slots, revisited in a scrambled order: every key keeps one
        // root, counted once per slab start, whichever keys shared its slot in between.
        for k in [1, 2, 3] {
            let mut forest = KSlabForest::new(k);
            let mut expected: HashMap<(u32, u64), u64> = HashMap::new();
            let mut x = 12345u64;
            for _ in 0..20_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let key = RootKey::new((x >> 60) as u32 % 3, (x >> 33) % 700);
                let mut cursor = forest.start();
                forest.push(&mut cursor, key);
                *expected.entry((key.function, key.bl_id)).or_default() += 1;
            }
            assert_eq!(forest.num_roots(), expected.len());
            for (key, root) in forest.roots() {
                assert_eq!(
                    forest.node(root).count(),
                    expected[&(key.function, key.bl_id)]
                );
                assert_eq!(forest.node(root).label(), key.bl_id);
            }
            assert_eq!(forest.counters().hash_ops, 20_000);
        }
    }

    #[test]
    fn a_long_run_costs_a_few_slabs() {
        // 10^12 pushes one by one would take hours: the run adds whole slabs at once. The
        // n-grams of r^n are r^j, n - j + 1 times each.
        let n = 1_000_000_000_000u64;
        for k in [1, 2, 4, 8] {
            let mut forest = KSlabForest::new(k);
            let mut cursor = forest.start();
            forest.push(&mut cursor, RootKey::new(0, 5));
            forest.push_run(&mut cursor, RootKey::new(0, 7), n);
            let ipf = forest.to_ipf();
            for j in 1..=u64::from(k) {
                assert_eq!(
                    ipf.count(0, &vec![7; j as usize]),
                    n - j + 1,
                    "k = {k}, j = {j}"
                );
            }
            assert_eq!(ipf.count(0, &[5, 7]), u64::from(k >= 2));
            assert_eq!(forest.counters().pushes, n + 1);
        }
    }

    #[test]
    fn move_to_front_reorders_siblings_only() {
        let mut plain = KSlabForest::new(3);
        let mut mtf = KSlabForest::with_siblings(3, Siblings::MoveToFront);
        for forest in [&mut plain, &mut mtf] {
            for tail in [1, 2, 3, 3, 3] {
                let mut c = Cursor::default();
                forest.push(&mut c, RootKey::new(0, 9));
                forest.push(&mut c, RootKey::new(0, tail));
            }
        }
        let root = plain.roots()[0].1;
        let labels =
            |f: &KSlabForest| -> Vec<u64> { f.children(root).map(|c| f.node(c).label()).collect() };
        assert_eq!(labels(&plain), vec![1, 2, 3]);
        assert_eq!(labels(&mtf), vec![3, 2, 1]);
        assert_eq!(plain.labeled_nodes(), mtf.labeled_nodes());
        // Scans: plain steps over 1 and 2 for each later 3; move-to-front finds 3 first.
        assert!(mtf.counters().sibling_steps < plain.counters().sibling_steps);
    }

    #[test]
    fn move_to_front_after_a_long_scan_only() {
        let mut f = KSlabForest::with_siblings(2, Siblings::MoveToFrontAfter(2));
        let mut c = Cursor::default();
        // k = 2: every item is a slab; the root 9's children record what followed 9.
        for id in [9, 1, 9, 2, 9, 3, 9, 2, 9, 3] {
            f.push(&mut c, RootKey::new(0, id));
        }
        let root = f.roots().into_iter().find(|(k, _)| k.bl_id == 9).unwrap().1;
        let labels: Vec<u64> = f.children(root).map(|n| f.node(n).label()).collect();
        // 2 (one step) stayed; 3 (two steps) moved to the front.
        assert_eq!(labels, vec![3, 1, 2]);
    }

    #[test]
    fn transpose_moves_one_place_forward() {
        let mut f = KSlabForest::with_siblings(2, Siblings::Transpose);
        let mut c = Cursor::default();
        for id in [9, 1, 9, 2, 9, 3, 9, 3, 9, 3, 9, 1] {
            f.push(&mut c, RootKey::new(0, id));
        }
        let root = f.roots().into_iter().find(|(k, _)| k.bl_id == 9).unwrap().1;
        let labels: Vec<u64> = f.children(root).map(|n| f.node(n).label()).collect();
        // Created 1 2 3; 3 found twice: 1 3 2, then 3 1 2; 1 found once: 1 3 2.
        assert_eq!(labels, vec![1, 3, 2]);
    }

    #[test]
    fn sibling_orders_parse_and_print() {
        for s in [
            Siblings::Append,
            Siblings::MoveToFront,
            Siblings::MoveToFrontAfter(4),
            Siblings::Transpose,
        ] {
            assert_eq!(s.to_string().parse::<Siblings>(), Ok(s));
        }
        assert_eq!(
            "move-to-front".parse::<Siblings>(),
            Ok(Siblings::MoveToFront)
        );
        assert!("mtf:0".parse::<Siblings>().is_err());
        assert!("front".parse::<Siblings>().is_err());
    }
}
