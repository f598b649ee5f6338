//! The instrumentation plan: Roy & Srikant's Algorithm 3 as plain data, after the removal of the
//! dummy edges (section 4.1).
//!
//! # Runtime state (per frame)
//! `c[0..K]`: path accumulators (`u64`, all arithmetic wrapping modulo 2^64: increments may be
//! "negative"); `itr`: iterations completed in the current run of the active k-loop, saturating
//! at `K - 1`; `active`: whether a k-loop is active. At most one k-loop is active, and when one
//! is, the current block belongs to it. The counters `c[0..=itr]` are *live*: `c[j]` holds the
//! path that started `j` back edges ago (in iteration `j + 1`); `c[itr]` is the oldest.
//!
//! # What the VM runs
//! - On invocation entry: `c[0] := entry_init; itr := 0; active := false`.
//! - On taking CFG edge `e`: the probe `edges[e].inside` if `active`, else `edges[e].outside`
//!   (the plan leaves `None` where that state cannot occur). A [`Probe`] first adds its
//!   increments, then performs its [`Action`]:
//!   - increments, outside probes (one value): `c[0] += inc[0]`;
//!   - increments, inside probes (K values): `c[j] += inc_compensated[j]` for `j < itr` (these
//!     paths started at the header after a back edge: the paper's compensation, `val - cval`),
//!     and `c[itr] += inc[itr]`. (The paper selects the compensation with its single flag
//!     `f_delta`; that is only right for K = 2, since for K >= 3 a path started by the first
//!     back edge is compensated from its first iteration while `f_delta` is still false.)
//!   - actions: see [`Action`] and [`AfterExit`].
//! - On reaching the exit: count `c[0] + exit_add`.
//!
//! "Count `x`" increments the frequency of path id `x`, always `< num_paths`.
//!
//! # Placement
//! The values come from Algorithm 1's `val`/`cval` on the unrolled DAG, shifted by a potential
//! `phi` on its states (each DAG edge `x -> y` carries `w + phi(x) - phi(y)`, `Start` and `End`
//! have potential 0), which leaves every path's sum unchanged ([`KPlacement`]).

use super::numbering::out_edges;
use super::unrolled::{END, NONE};
use super::{Fallback, KIteration};
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
}

impl fmt::Display for KPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KPlacement::EdgeValues => "edge-values",
            KPlacement::DummyRemoval => "dummy-removal",
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

/// The instrumentation of one CFG edge in one runtime state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// Increments: one value for outside probes, K for inside probes (`inc[j]` for `c[j]`).
    pub inc: Vec<u64>,
    /// Compensated increments for the live counters below `itr` (inside probes of compensated
    /// loops only; `None` means equal to `inc`).
    pub inc_compensated: Option<Vec<u64>>,
    /// What follows the increments.
    pub action: Action,
}

impl Probe {
    /// Whether the probe does nothing (all increments zero, no action): the VM can omit it.
    pub fn is_noop(&self) -> bool {
        self.action == Action::Add
            && self.inc.iter().all(|&x| x == 0)
            && self.inc_compensated.iter().flatten().all(|&x| x == 0)
    }
}

/// The probes of one CFG edge.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
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
/// the exact runtime semantics; [`super::execute`] is its reference implementation.
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
    /// The k-loops.
    pub k_loops: Vec<KLoopInfo>,
    /// The fallbacks taken (demoted loops, cut blocks).
    pub fallbacks: Vec<Fallback>,
}

impl KIteration<'_> {
    /// The instrumentation plan with the given placement.
    pub fn plan(&self, placement: KPlacement) -> KIterPlan {
        let (un, nums) = (&self.un, &self.nums);
        let cfg = un.cfg;
        let k = un.k as usize;
        // Potentials.
        let mut phi = vec![0u64; un.num_states()];
        let start_w = |j: usize| nums.start_val[j].wrapping_sub(nums.start_cval[j]);
        if placement == KPlacement::DummyRemoval {
            for &x in &un.postorder {
                let first_end = out_edges(un, x).find(|&(d, e)| e.is_some() && un.target[d] == END);
                if let Some((d, _)) = first_end {
                    phi[x as usize] = nums.val[d].wrapping_neg();
                }
            }
            for j in 1..un.start_to.len() {
                phi[un.start_to[j] as usize] = start_w(j);
            }
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
        let comp = |d: usize, x: u32| plain(d, x).wrapping_sub(nums.cval[d]);
        let restart_of = |v: Block| -> u64 {
            let j = un.starts.binary_search(&v).map(|i| i + 1).unwrap_or(0);
            if j == 0 {
                0
            } else {
                start_w(j).wrapping_sub(pot(un.start_to[j]))
            }
        };
        let mut edges: IndexVec<Edge, EdgeProbes> =
            IndexVec::from_elem(EdgeProbes::default(), cfg.num_edges());
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
            let x0 = un.state(u, 0);
            if un.reachable[x0 as usize] {
                let d = un.dedge(e, 0) as usize;
                let action = match after(d) {
                    AfterExit::Continue => Action::Add,
                    AfterExit::Enter => Action::Enter,
                    AfterExit::End { restart, enter } => Action::End { restart, enter },
                };
                edges[e].outside = Some(Probe {
                    inc: vec![plain(d, x0)],
                    inc_compensated: None,
                    action,
                });
            }
            if un.states_of(u) == 1 {
                continue;
            }
            let live: Vec<u32> = (1..=un.k)
                .map(|s| un.state(u, s))
                .filter(|&x| un.reachable[x as usize])
                .collect();
            let Some(&first) = live.first() else { continue };
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
            let mut inc = vec![0u64; k];
            let mut incc = vec![0u64; k];
            for &x in &live {
                let s = un.iteration(x) as usize;
                let d = un.dedge(e, s as u32) as usize;
                inc[s - 1] = plain(d, x);
                incc[s - 1] = comp(d, x);
            }
            let inc_compensated = (incc != inc).then_some(incc);
            edges[e].inside = Some(Probe {
                inc,
                inc_compensated,
                action,
            });
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
