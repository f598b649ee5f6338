//! The `kbl` members of a function's profile: its k-IPF (`ipf`) and the statistics of its
//! k-SF and k-IPF (`stats`), how they are written, and what `check` verifies.
//!
//! A k-IPF node is the sequence of BL ids `<r1, ..., rn>` (`1 <= n <= k`) from its root to it,
//! with how many times these `n` paths ran consecutively in one activation of the function
//! (k-BLPP paper, Definition 2). Entries are written in lexicographic order of their ids,
//! which is the preorder of the forest with children by id, one entry per line:
//!
//! ```text
//!       "ipf": [
//!         {"ids": [0], "count": 1},
//!         {"ids": [0, 2], "count": 1},
//!         {"ids": [2], "count": 10},
//!         {"ids": [2, 2], "count": 9}
//!       ],
//!       "stats": {"hash_ops": 1, "slab_starts": 6, "ksf_nodes": 4, "ipf_nodes": 4, "avg_internal_degree": 1.0, "avg_leaf_depth": 1.0, "ksf_bytes": 96}
//! ```

use serde::{Deserialize, Serialize};

use super::{FunctionProfile, Mode, Profile};

/// One k-IPF node: the BL ids from its root to it, and its count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IpfEntry {
    /// The BL path ids `<r1, ..., rn>`, `1 <= n <= k`.
    pub ids: Vec<u64>,
    /// How many times the `n` paths ran consecutively in one activation.
    pub count: u64,
}

/// One function's k-SF and k-IPF statistics (the k-BLPP paper's Figures 9 and 11-14).
///
/// The two averages are rounded to 4 decimals, so that they are written and read back exactly
/// (equality compares their bits).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct KblFunctionStats {
    /// Hash-table operations on the function's k-SF roots: one per activation and one per
    /// shortcut resolved (`bl` does one per path).
    pub hash_ops: u64,
    /// The root lookups the paper's Figure 6 would do: one per slab of `k - 1` paths.
    #[serde(default)]
    pub slab_starts: u64,
    /// Nodes of its k-SF trees.
    pub ksf_nodes: u64,
    /// Nodes of its k-IPF trees (the number of `ipf` entries).
    pub ipf_nodes: u64,
    /// Average number of children of an internal k-IPF node (0 when there is none).
    pub avg_internal_degree: f64,
    /// Average depth of a k-IPF leaf, roots at depth 0 (0 when there is none).
    pub avg_leaf_depth: f64,
    /// Bytes of its k-SF nodes (`ksf_nodes` times the node size, 24 bytes); the root table and
    /// the arena's spare capacity are run-wide and not included.
    pub ksf_bytes: u64,
    /// `--max-nodes`: the most k-SF nodes the run kept (0: no bound).
    #[serde(default)]
    pub max_nodes: u64,
    /// How many times the k-SF was pruned to stay within `max_nodes` (run-wide).
    #[serde(default)]
    pub prunings: u64,
    /// 0 when every count of the function is exact; otherwise every count of its `paths` and
    /// `ipf` is a lower bound, at most this much below the true count (the pruned counts the
    /// bounded spill could not keep).
    #[serde(default)]
    pub lost_at_most: u64,
}

impl PartialEq for KblFunctionStats {
    fn eq(&self, other: &Self) -> bool {
        self.hash_ops == other.hash_ops
            && self.slab_starts == other.slab_starts
            && self.ksf_nodes == other.ksf_nodes
            && self.ipf_nodes == other.ipf_nodes
            && self.avg_internal_degree.to_bits() == other.avg_internal_degree.to_bits()
            && self.avg_leaf_depth.to_bits() == other.avg_leaf_depth.to_bits()
            && self.ksf_bytes == other.ksf_bytes
            && self.max_nodes == other.max_nodes
            && self.prunings == other.prunings
            && self.lost_at_most == other.lost_at_most
    }
}

impl Eq for KblFunctionStats {}

/// `x` rounded to 4 decimals.
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

impl KblFunctionStats {
    /// The statistics, with the averages rounded to 4 decimals.
    pub fn new(
        (hash_ops, slab_starts): (u64, u64),
        ksf_nodes: u64,
        ipf_nodes: u64,
        avg_internal_degree: f64,
        avg_leaf_depth: f64,
        ksf_bytes: u64,
    ) -> KblFunctionStats {
        KblFunctionStats {
            hash_ops,
            slab_starts,
            ksf_nodes,
            ipf_nodes,
            avg_internal_degree: round4(avg_internal_degree),
            avg_leaf_depth: round4(avg_leaf_depth),
            ksf_bytes,
            max_nodes: 0,
            prunings: 0,
            lost_at_most: 0,
        }
    }
}

/// An `f64` as JSON: Rust's shortest round-trip form, always with a decimal point or exponent.
fn float(x: f64) -> String {
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "0.0".to_string()
    }
}

/// Appends `f`'s `ipf` and `stats` members (each line indented for a function object, the
/// last one without a trailing comma), if present.
pub(super) fn write_json(o: &mut String, f: &FunctionProfile) {
    if let Some(ipf) = &f.ipf {
        o.push_str("      \"ipf\": [");
        for (j, e) in ipf.iter().enumerate() {
            let ids: Vec<String> = e.ids.iter().map(u64::to_string).collect();
            let sep = if j + 1 < ipf.len() { "," } else { "" };
            o.push_str(&format!(
                "\n        {{\"ids\": [{}], \"count\": {}}}{sep}",
                ids.join(", "),
                e.count
            ));
        }
        o.push_str(if ipf.is_empty() { "]" } else { "\n      ]" });
        o.push_str(if f.kbl_stats.is_some() { ",\n" } else { "\n" });
    }
    if let Some(s) = &f.kbl_stats {
        // The bound's members only when the run had one, so unbounded profiles are unchanged.
        let bound = if s.max_nodes > 0 {
            format!(
                ", \"max_nodes\": {}, \"prunings\": {}, \"lost_at_most\": {}",
                s.max_nodes, s.prunings, s.lost_at_most
            )
        } else {
            String::new()
        };
        o.push_str(&format!(
            "      \"stats\": {{\"hash_ops\": {}, \"slab_starts\": {}, \"ksf_nodes\": {}, \
             \"ipf_nodes\": {}, \"avg_internal_degree\": {}, \"avg_leaf_depth\": {}, \
             \"ksf_bytes\": {}{bound}}}\n",
            s.hash_ops,
            s.slab_starts,
            s.ksf_nodes,
            s.ipf_nodes,
            float(s.avg_internal_degree),
            float(s.avg_leaf_depth),
            s.ksf_bytes
        ));
    }
}

/// Checks `f`'s `kbl` members against the profile `p`: present exactly in mode `kbl`; every
/// entry has 1 to `k` ids, each below `static_paths`, and a positive count; entries strictly
/// in lexicographic order; every entry's prefix is an entry (a forest), whose count is at least
/// the sum of its children's (the paper's Property 1); the one-id entries are exactly the
/// `paths` with their counts; `stats.ipf_nodes` is the number of entries.
pub(super) fn check(p: &Profile, f: &FunctionProfile) -> Result<(), String> {
    if p.mode != Mode::Kbl {
        if f.ipf.is_some() || f.kbl_stats.is_some() {
            return Err(format!(
                "ipf and stats are only written in mode kbl, not {}",
                p.mode
            ));
        }
        return Ok(());
    }
    let (Some(ipf), Some(stats)) = (&f.ipf, &f.kbl_stats) else {
        return Err("mode kbl needs ipf and stats".to_string());
    };
    if stats.ipf_nodes != ipf.len() as u64 {
        return Err(format!(
            "stats.ipf_nodes is {} but ipf has {} entries",
            stats.ipf_nodes,
            ipf.len()
        ));
    }
    if stats.max_nodes == 0 && (stats.prunings > 0 || stats.lost_at_most > 0) {
        return Err("stats: prunings or lost counts without max_nodes".to_string());
    }
    // Child-count sums of the entries on the current root-to-node stack, checked when popped.
    let mut stack: Vec<(&IpfEntry, u64)> = Vec::new();
    let pop_check = |stack: &mut Vec<(&IpfEntry, u64)>, keep: usize| -> Result<(), String> {
        while stack.len() > keep {
            let (e, children) = stack.pop().expect("len > keep");
            if children > e.count {
                return Err(format!(
                    "ipf {:?} has count {} below its children's sum {children}",
                    e.ids, e.count
                ));
            }
        }
        Ok(())
    };
    let mut level_one: Vec<(u64, u64)> = Vec::new();
    let mut prev: Option<&IpfEntry> = None;
    for e in ipf {
        let n = e.ids.len();
        if n == 0 || n > p.k as usize {
            return Err(format!(
                "ipf {:?} does not have 1 to k = {} ids",
                e.ids, p.k
            ));
        }
        if let Some(&id) = e.ids.iter().find(|&&id| id >= f.static_paths) {
            return Err(format!(
                "ipf {:?}: id {id} is not below static_paths {}",
                e.ids, f.static_paths
            ));
        }
        if e.count == 0 {
            return Err(format!("ipf {:?} has count 0", e.ids));
        }
        if prev.is_some_and(|q| q.ids >= e.ids) {
            return Err(format!("ipf {:?} is out of lexicographic order", e.ids));
        }
        prev = Some(e);
        pop_check(&mut stack, n - 1)?;
        if stack.len() != n - 1
            || stack
                .last()
                .is_some_and(|(q, _)| q.ids[..] != e.ids[..n - 1])
        {
            return Err(format!("ipf {:?} has no parent entry", e.ids));
        }
        if let Some((_, sum)) = stack.last_mut() {
            *sum = sum.saturating_add(e.count);
        }
        stack.push((e, 0));
        if n == 1 {
            level_one.push((e.ids[0], e.count));
        }
    }
    pop_check(&mut stack, 0)?;
    let mut paths: Vec<(u64, u64)> = f.paths.iter().map(|q| (q.id, q.count)).collect();
    paths.sort_unstable();
    if paths != level_one {
        return Err("the ipf's one-id entries are not the paths and their counts".to_string());
    }
    Ok(())
}
