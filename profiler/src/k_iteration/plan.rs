//! The instrumentation plan: Roy & Srikant's Algorithm 3 as plain data, after the removal of the
//! dummy edges (section 4.1).
//!
//! # Runtime state (per frame)
//! `c[0..K]`: path accumulators (`u64`, all arithmetic wrapping modulo 2^64: increments may be
//! "negative"); `itr`: iterations completed in the current run of the active k-loop, saturating
//! at `K - 1`; `active`: whether a k-loop is active. At most one k-loop is active, and when one
//! is, the current block belongs to it. The counters `c[0..=itr]` are *live*: `c[j]` holds the
//! path that started `j` back edges ago (in iteration `j + 1`); `c[itr]` is the oldest. The
//! others hold no path and are never read.
//!
//! # What the VM runs
//! - On invocation entry: `c[0] := entry_init; itr := 0; active := false`.
//! - On taking CFG edge `e`: the probe `p = edges[e].inside` if `active`, else
//!   `p = edges[e].outside` (the plan leaves `None` where that state cannot occur). A [`Probe`]
//!   first adds its increments, read from the value table `values`, then performs its
//!   [`Action`]:
//!   - outside (one value): `c[0] += values[p.inc]`;
//!   - inside (K values): `c[j] += values[p.inc_compensated + j]` for `j < itr` (these paths
//!     started at the header after a back edge: the paper's compensation, `val - cval`), and
//!     `c[itr] += values[p.inc + itr]`. The paper selects the compensation with its single flag
//!     `f_delta`, which is only right for K = 2: for K >= 3 a path started by the first back
//!     edge must be compensated from its first iteration, while `f_delta` is still false (test
//!     `k_3_compensates_paths_started_before_the_loop_saturates`). When the loop has no
//!     compensation, `p.inc_compensated == p.inc`.
//!   - then the action: [`Action`], [`AfterExit`].
//! - On reaching the exit: count `c[0] + exit_add`.
//!
//! "Count `x`" increments the frequency of path id `x`, always `< num_paths`. A probe with
//! action `Add` and both offsets 0 does nothing ([`KIterPlan::is_noop`]).
//!
//! # Placement
//! The values come from Algorithm 1's `val`/`cval` on the unrolled DAG, shifted by a potential
//! `phi` on its states (each DAG edge `x -> y` carries `w + phi(x) - phi(y)`, `Start` and `End`
//! have potential 0), which leaves every path's sum unchanged ([`KPlacement`]). A CFG edge stands
//! for one DAG edge per state of its source: the outside probe carries the DAG edge from state
//! `(u, 0)`, the inside probe's `j`-th value the one from `(u, j + 1)`.

use super::numbering::out_edges;
use super::unrolled::{END, NONE};
use super::{Fallback, KIteration};
use crate::ball_larus::EdgeProfile;
use crate::cfg::{Block, Edge};
use crate::dag::PathEnds;
use crate::index::IndexVec;
use crate::loops::LoopId;
use std::fmt;

/// Where the dummy edges' values go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KPlacement {
    /// No shift: every edge carries its `val` (and `val - cval`); a path end counts `c + val` of
    /// its dummy `End` edge and the next path starts at the `val - cval` of its `Start` edge.
    EdgeValues,
    /// Roy & Srikant section 4.1 (Ball & Larus): the value `W` of a dummy edge `Start -> v` is
    /// subtracted from `v`'s incoming edges and added to its outgoing edges (`phi(v) = W`), so a
    /// restart sets `c[0] := 0`; for a state without a `Start` edge, the value `W` of its first
    /// dummy `End` edge is added to its incoming edges and subtracted from its outgoing edges
    /// (`phi = -W`), so that path end counts `c` unchanged. This reproduces the paper's Figure 6
    /// and Table 2 (`c = [-13, 0]` after `1 -> 2`).
    #[default]
    DummyRemoval,
    /// Ball's event counting on the unrolled DAG: a maximum spanning tree (edge weights: the
    /// edge profile given to [`KIteration::plan_weighted`], plus one, for edges standing for
    /// CFG edges; 0 for dummy edges, so real edges are preferred), with the virtual edge
    /// `End -> Start` forced in; the potential zeroes every tree edge, so only chords carry
    /// increments (and a restart or a count carries a value only if its dummy edge is a chord).
    EventCounting,
}

impl fmt::Display for KPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KPlacement::EdgeValues => "edge-values",
            KPlacement::DummyRemoval => "dummy-removal",
            KPlacement::EventCounting => "event-counting",
        })
    }
}

/// What a probe does after its increments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Nothing more.
    Add,
    /// A k-loop is entered at its header from outside: `active := true; itr := 0`.
    Enter,
    /// The path ends (outside probes): count `c[0]`; `c[0] := restart`; if `enter`, the target
    /// heads a k-loop: `active := true; itr := 0`.
    End {
        /// The new path's initial value.
        restart: u64,
        /// Whether the target heads a k-loop.
        enter: bool,
    },
    /// The back edge of the active k-loop: if `itr == K - 1`, count `c[K - 1]` (a path of K
    /// iterations); then shift `c[j] := c[j - 1]` for `j = K-1 .. 1`; `c[0] := restart`; if
    /// `itr < K - 1`, `itr += 1`.
    Back {
        /// The initial value of the path starting at the header.
        restart: u64,
    },
    /// The edge leaves the active k-loop: `c[0] := c[itr]` (the path that survives: the one that
    /// entered the loop, or one that completed K iterations); `c[1..] := 0`; `itr := 0`;
    /// `active := false`; then `then`.
    Exit {
        /// What the edge does next, outside the loop.
        then: AfterExit,
    },
}

/// The second half of an [`Action::Exit`]: the same edge seen from outside the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfterExit {
    /// Nothing more.
    Continue,
    /// The edge enters another k-loop at its header: `active := true; itr := 0`.
    Enter,
    /// The edge ends the path: count `c[0]`; `c[0] := restart`; if `enter`, `active := true;
    /// itr := 0`.
    End {
        /// The new path's initial value.
        restart: u64,
        /// Whether the target heads a k-loop.
        enter: bool,
    },
}

/// The instrumentation of one CFG edge in one runtime state. Its increments live in the plan's
/// value table ([`KIterPlan::values`]); read them with [`KIterPlan::inc`] and
/// [`KIterPlan::inc_compensated`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// Offset in [`KIterPlan::values`] of the increments: one value for an outside probe, K for
    /// an inside probe (`values[inc + j]` is added to `c[j]`). All-zero increments point at the
    /// zeros at offset 0.
    pub inc: u32,
    /// Offset of the compensated increments (K values, for the live counters below `itr`);
    /// equal to `inc` when the probe has no compensation.
    pub inc_compensated: u32,
    /// What follows the increments.
    pub action: Action,
}

/// The probes of one CFG edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EdgeProbes {
    /// When no k-loop is active; `None` if the edge is never taken in that state.
    pub outside: Option<Probe>,
    /// When the source's k-loop is active; `None` if the edge is never taken in that state.
    pub inside: Option<Probe>,
}

/// A k-loop of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KLoopInfo {
    /// The loop.
    pub id: LoopId,
    /// Its header.
    pub header: Block,
    /// Whether its inside probes carry compensated increments.
    pub compensated: bool,
}

/// The k-iteration instrumentation plan of one CFG. See the [module documentation](self) for
/// the exact runtime semantics; [`super::execute()`] is its reference implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KIterPlan {
    /// K: the number of accumulators.
    pub k: u32,
    /// Where paths end.
    pub path_ends: PathEnds,
    /// Number of static paths: every counted id is below it.
    pub num_paths: u64,
    /// How the values were placed.
    pub placement: KPlacement,
    /// `c[0]` at invocation entry.
    pub entry_init: u64,
    /// Added to `c[0]` before counting it at the exit.
    pub exit_add: u64,
    /// The probes of every CFG edge.
    pub edges: IndexVec<Edge, EdgeProbes>,
    /// The increments of all probes; starts with K zeros (shared by all-zero increments).
    pub values: Vec<u64>,
    /// The k-loops.
    pub k_loops: Vec<KLoopInfo>,
    /// The fallbacks taken (demoted loops, cut blocks).
    pub fallbacks: Vec<Fallback>,
}

impl KIterPlan {
    /// The increments of `probe`: one value outside a k-loop, K inside (`inc(p)[j]` for `c[j]`).
    pub fn inc(&self, probe: &Probe, inside: bool) -> &[u64] {
        let n = if inside { self.k as usize } else { 1 };
        &self.values[probe.inc as usize..probe.inc as usize + n]
    }

    /// The compensated increments of an inside probe (K values; `c[j]` for `j < itr` takes
    /// `inc_compensated(p)[j]`).
    pub fn inc_compensated(&self, probe: &Probe) -> &[u64] {
        &self.values
            [probe.inc_compensated as usize..probe.inc_compensated as usize + self.k as usize]
    }

    /// Whether `probe` does nothing (all increments zero, no action): the VM can omit it.
    pub fn is_noop(&self, probe: &Probe) -> bool {
        probe.action == Action::Add && probe.inc == 0 && probe.inc_compensated == 0
    }

    /// Number of probes that do something.
    pub fn num_probes(&self) -> usize {
        self.edges
            .iter()
            .flat_map(|p| [p.outside, p.inside])
            .flatten()
            .filter(|p| !self.is_noop(p))
            .count()
    }
}

/// Appends `vals` to the value table and returns their offset (0 for all zeros). The table has
/// at most `K + 2 K` values per DAG edge, which `Unrolled::new` keeps below 2^32.
fn intern(values: &mut Vec<u64>, vals: &[u64]) -> u32 {
    if vals.iter().all(|&x| x == 0) {
        return 0;
    }
    let at = values.len() as u32;
    values.extend_from_slice(vals);
    at
}

impl std::str::FromStr for KPlacement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "edge-values" | "plain" => Ok(KPlacement::EdgeValues),
            "dummy-removal" => Ok(KPlacement::DummyRemoval),
            "event-counting" | "spanning-tree" => Ok(KPlacement::EventCounting),
            _ => Err(format!(
                "unknown k-iteration placement '{s}' (expected edge-values, dummy-removal or event-counting)"
            )),
        }
    }
}

impl KIteration<'_> {
    /// The instrumentation plan with the given placement (event counting without an edge
    /// profile: every real edge weighs the same).
    pub fn plan(&self, placement: KPlacement) -> KIterPlan {
        self.plan_weighted(placement, None)
    }

    /// The instrumentation plan with the given placement; `weights` (an edge profile, e.g.
    /// from a trace or tier 0) steers the event-counting spanning tree towards hot edges.
    pub fn plan_weighted(&self, placement: KPlacement, weights: Option<&EdgeProfile>) -> KIterPlan {
        let (un, nums) = (&self.un, &self.nums);
        let cfg = un.cfg;
        let k = un.k as usize;
        // Potentials.
        let mut phi = vec![0u64; un.num_states()];
        let start_w = |j: usize| nums.start_val[j].wrapping_sub(nums.start_cval[j]);
        if placement == KPlacement::DummyRemoval {
            for &x in &un.postorder {
                let s = un.iteration(x);
                let first_end = cfg
                    .succ_edges(un.state_block[x as usize])
                    .map(|e| un.dedge(e, s) as usize)
                    .find(|&d| un.target[d] == END);
                if let Some(d) = first_end {
                    phi[x as usize] = nums.val[d].wrapping_neg();
                }
            }
            for j in 1..un.start_to.len() {
                phi[un.start_to[j] as usize] = start_w(j);
            }
        }
        if placement == KPlacement::EventCounting {
            phi = spanning_tree_potentials(self, weights);
        }
        let pot = |t: u32| {
            if t == END || t == NONE {
                0
            } else {
                phi[t as usize]
            }
        };
        let plain = |d: usize, x: u32| {
            nums.val[d]
                .wrapping_add(phi[x as usize])
                .wrapping_sub(pot(un.target[d]))
        };
        let comp = |d: usize, x: u32| plain(d, x).wrapping_sub(nums.cval(d));
        let restart_of = |v: Block| -> u64 {
            let j = un.starts.binary_search(&v).map(|i| i + 1).unwrap_or(0);
            if j == 0 {
                0
            } else {
                start_w(j).wrapping_sub(pot(un.start_to[j]))
            }
        };
        let mut values = vec![0u64; k];
        let mut edges: IndexVec<Edge, EdgeProbes> = IndexVec::with_capacity(cfg.num_edges());
        let mut inc = vec![0u64; k];
        let mut incc = vec![0u64; k];
        for e in cfg.edges() {
            let u = cfg.source(e);
            let v = cfg.target(e);
            let enter_v = un.kloops.of_header[v] != NONE;
            let after = |d: usize| {
                let t = un.target[d];
                if t == END {
                    AfterExit::End {
                        restart: restart_of(v),
                        enter: enter_v,
                    }
                } else if un.state_loop[t as usize] != NONE {
                    AfterExit::Enter
                } else {
                    AfterExit::Continue
                }
            };
            let mut probes = EdgeProbes::default();
            let x0 = un.state(u, 0);
            if un.reachable[x0 as usize] {
                let d = un.dedge(e, 0) as usize;
                let action = match after(d) {
                    AfterExit::Continue => Action::Add,
                    AfterExit::Enter => Action::Enter,
                    AfterExit::End { restart, enter } => Action::End { restart, enter },
                };
                let at = intern(&mut values, &[plain(d, x0)]);
                probes.outside = Some(Probe {
                    inc: at,
                    inc_compensated: at,
                    action,
                });
            }
            let mut live = (1..=un.k)
                .map(|s| un.state(u, s))
                .filter(|&x| un.states_of(u) > 1 && un.reachable[x as usize]);
            if let Some(first) = live.next() {
                let lp = un.state_loop[first as usize];
                let d1 = un.dedge(e, un.iteration(first)) as usize;
                let action = if un.exits[d1] {
                    Action::Exit { then: after(d1) }
                } else if v == un.kloops.header[lp as usize] {
                    Action::Back {
                        restart: restart_of(v),
                    }
                } else {
                    Action::Add
                };
                inc.fill(0);
                incc.fill(0);
                for x in std::iter::once(first).chain(live) {
                    let s = un.iteration(x);
                    let d = un.dedge(e, s) as usize;
                    inc[s as usize - 1] = plain(d, x);
                    incc[s as usize - 1] = comp(d, x);
                }
                let at = intern(&mut values, &inc);
                let atc = if incc == inc {
                    at
                } else {
                    intern(&mut values, &incc)
                };
                probes.inside = Some(Probe {
                    inc: at,
                    inc_compensated: atc,
                    action,
                });
            }
            edges.push(probes);
        }
        let x_exit = un.state(cfg.exit(), 0);
        KIterPlan {
            k: un.k,
            path_ends: un.path_ends,
            num_paths: nums.num_paths(),
            placement,
            entry_init: start_w(0).wrapping_sub(pot(un.start_to[0])),
            exit_add: phi[x_exit as usize],
            edges,
            values,
            k_loops: un
                .kloops
                .ids
                .iter()
                .enumerate()
                .map(|(i, &id)| KLoopInfo {
                    id,
                    header: un.kloops.header[i],
                    compensated: nums.compensated[i],
                })
                .collect(),
            fallbacks: self.fallbacks.clone(),
        }
    }
}

/// Potentials zeroing the edges of a maximum spanning tree of the unrolled DAG (with `Start`,
/// `End` and the virtual edge `End -> Start`), by Kruskal's algorithm and one traversal of the
/// tree from `Start` ([`KPlacement::EventCounting`]).
fn spanning_tree_potentials(kit: &KIteration<'_>, weights: Option<&EdgeProfile>) -> Vec<u64> {
    let (un, nums) = (&kit.un, &kit.nums);
    let n = un.num_states();
    let (start, end) = (n as u32, n as u32 + 1);
    // (weight, a, b, value of a -> b)
    let mut edges: Vec<(u64, u32, u32, u64)> =
        Vec::with_capacity(un.num_dedges() + un.start_to.len());
    for (j, &t) in un.start_to.iter().enumerate() {
        edges.push((
            0,
            start,
            t,
            nums.start_val[j].wrapping_sub(nums.start_cval[j]),
        ));
    }
    for &x in &un.postorder {
        for (d, e) in out_edges(un, x) {
            let t = un.target[d];
            let real = e.is_some() && t != END;
            let w = match (real, e, weights) {
                (false, _, _) => 0,
                (true, Some(e), Some(p)) => p.edges.get(e).copied().unwrap_or(0).saturating_add(1),
                (true, _, _) => 1,
            };
            edges.push((w, x, if t == END { end } else { t }, nums.val[d]));
        }
    }
    edges.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut parent: Vec<u32> = (0..n as u32 + 2).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    parent[end as usize] = start; // the virtual edge End -> Start
    let mut adj: Vec<Vec<(u32, u64, bool)>> = vec![Vec::new(); n + 2];
    for &(_, a, b, v) in &edges {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra as usize] = rb;
            adj[a as usize].push((b, v, true));
            adj[b as usize].push((a, v, false));
        }
    }
    // phi(b) = phi(a) + value(a -> b) makes the tree edge a -> b carry 0.
    let mut phi = vec![0u64; n + 2];
    let mut seen = vec![false; n + 2];
    let mut stack = vec![start, end];
    seen[start as usize] = true;
    seen[end as usize] = true;
    while let Some(a) = stack.pop() {
        for &(b, v, forward) in &adj[a as usize] {
            if !seen[b as usize] {
                seen[b as usize] = true;
                phi[b as usize] = if forward {
                    phi[a as usize].wrapping_add(v)
                } else {
                    phi[a as usize].wrapping_sub(v)
                };
                stack.push(b);
            }
        }
    }
    phi.truncate(n);
    phi
}
