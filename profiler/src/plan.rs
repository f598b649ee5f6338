//! The instrumentation plan: what the probes do, where. This is what the VM applies to bytecode
//! and what [`crate::executor`] runs along a trace.
//!
//! One path register `r` (a `u64`, arithmetic modulo 2^64: event-counting increments may be
//! "negative") and a table of counters. Every probe is one [`Probe`]:
//!
//! | probe             | effect                    |
//! |-------------------|---------------------------|
//! | `None`            | nothing                   |
//! | `Add(c)`          | `r += c`                  |
//! | `Set(c)`          | `r = c`                   |
//! | `CountAdd(c)`     | `count[r + c]++`          |
//! | `CountConst(c)`   | `count[c]++`              |
//!
//! Probe points of a [`BlPlan`]:
//! - `entry`: when an invocation starts (at the entry block);
//! - `edges[e]`: when CFG edge `e` is taken. For a cut edge (one that ends a path: [`BlPlan::cut`])
//!   this is the *path-end* action, and `start[target]` runs right after it, so a cut edge runs
//!   "`count(r + c)` ; `r = init`";
//! - `start[h]`: when a path starts at start block `h` (a loop header or an extra cut): after a
//!   cut edge into `h`, or when a running frame switches to instrumented code at `h` (OSR);
//! - `exit`: on arriving at the exit.
//!
//! With the plain placement a path's count happens at its end; with Ball's event counting it
//! can happen at the path's last chord, before the remaining (uninstrumented) edges.

use crate::ball_larus::Fallback;
use crate::cfg::{Block, Edge};
use crate::dag::DagEdge;
use crate::dag::PathEnds;
use crate::index::IndexVec;
use std::fmt;
use std::str::FromStr;

/// One probe: an action on the path register `r` and the path counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Probe {
    /// Nothing.
    #[default]
    None,
    /// `r += c` (wrapping).
    Add(u64),
    /// `r = c`.
    Set(u64),
    /// `count[r + c]++` (wrapping add); `r` is dead afterwards.
    CountAdd(u64),
    /// `count[c]++`; `r` is dead afterwards.
    CountConst(u64),
}

impl Probe {
    /// Runs the probe on register `r`; returns the path id it counts, if any.
    #[inline]
    pub fn apply(self, r: &mut u64) -> Option<u64> {
        match self {
            Probe::None => None,
            Probe::Add(c) => {
                *r = r.wrapping_add(c);
                None
            }
            Probe::Set(c) => {
                *r = c;
                None
            }
            Probe::CountAdd(c) => Some(r.wrapping_add(c)),
            Probe::CountConst(c) => Some(c),
        }
    }

    /// Whether the probe does nothing.
    pub fn is_none(self) -> bool {
        self == Probe::None
    }

    /// `Add(c)`, or `None` when `c == 0`.
    pub fn add(c: u64) -> Probe {
        if c == 0 {
            Probe::None
        } else {
            Probe::Add(c)
        }
    }
}

/// Prints probes as the table in the [module documentation](self) writes them; constants print
/// as signed numbers when their top bit is set (a wrapped negative increment).
impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = |x: u64| {
            if x > i64::MAX as u64 {
                (x as i64).to_string()
            } else {
                x.to_string()
            }
        };
        match *self {
            Probe::None => f.write_str("-"),
            Probe::Add(x) => {
                if x > i64::MAX as u64 {
                    write!(f, "r -= {}", (x as i64).unsigned_abs())
                } else {
                    write!(f, "r += {x}")
                }
            }
            Probe::Set(x) => write!(f, "r = {}", c(x)),
            Probe::CountAdd(0) => f.write_str("count[r]"),
            Probe::CountAdd(x) => {
                if x > i64::MAX as u64 {
                    write!(f, "count[r - {}]", (x as i64).unsigned_abs())
                } else {
                    write!(f, "count[r + {x}]")
                }
            }
            Probe::CountConst(x) => write!(f, "count[{}]", c(x)),
        }
    }
}

/// Where increments go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Every DAG edge's value on that edge; `r = 0` at the entry, `count[r]` at the exit.
    #[default]
    Plain,
    /// Ball's event counting: increments only on the chords of a maximum spanning tree, the
    /// initialization and the count folded into the first and last chords.
    EventCounting,
}

impl FromStr for Placement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "plain" => Ok(Placement::Plain),
            "event-counting" | "spanning-tree" => Ok(Placement::EventCounting),
            _ => Err(format!(
                "unknown placement '{s}' (expected plain or event-counting)"
            )),
        }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Placement::Plain => "plain",
            Placement::EventCounting => "event-counting",
        })
    }
}

/// A Ball-Larus instrumentation plan. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlPlan {
    /// The path-end strategy.
    pub path_ends: PathEnds,
    /// How the increments were placed.
    pub placement: Placement,
    /// Number of static paths: every id counted is in `0..num_paths`.
    pub num_paths: u64,
    /// Probe when an invocation starts.
    pub entry: Probe,
    /// Probe on every CFG edge (for a cut edge, the path-end part).
    pub edges: IndexVec<Edge, Probe>,
    /// Whether each CFG edge ends a path (then `start[target]` runs after `edges[e]`).
    pub cut: IndexVec<Edge, bool>,
    /// Probe when a path starts at a block (only start blocks have one; `None` elsewhere).
    pub start: IndexVec<Block, Probe>,
    /// Whether each block is a start block (a loop header or an extra cut).
    pub is_start: IndexVec<Block, bool>,
    /// Probe on arriving at the exit.
    pub exit: Probe,
    /// The extra cut blocks of the overflow fallback (also in `fallbacks`).
    pub extra_cuts: Vec<Block>,
    /// Every fallback taken.
    pub fallbacks: Vec<Fallback>,
    /// Event counting: the DAG edges of the maximum spanning tree (the other DAG edges are
    /// the chords, which carry the increments); empty for plain placement.
    pub spanning_tree: Vec<DagEdge>,
}

impl BlPlan {
    /// Whether every arrival at block `b` ends a path and starts the next: a loop header
    /// under `header` path ends, or an extra cut block of the overflow fallback.
    pub fn every_arrival_starts_a_path(&self, b: Block) -> bool {
        self.is_start[b] && (self.path_ends == PathEnds::Header || self.extra_cuts.contains(&b))
    }

    /// Runs the probes of taking edge `e` into `target`; calls `count` for each id counted.
    #[inline]
    pub fn on_edge(&self, r: &mut u64, e: Edge, target: Block, mut count: impl FnMut(u64)) {
        if let Some(id) = self.edges[e].apply(r) {
            count(id);
        }
        if self.cut[e] {
            if let Some(id) = self.start[target].apply(r) {
                count(id);
            }
        }
    }

    /// Number of probes that do something (entry, edges, starts, exit).
    pub fn num_probes(&self) -> usize {
        let points = [self.entry, self.exit]
            .into_iter()
            .chain(self.edges.iter().copied());
        points
            .chain(self.start.iter().copied())
            .filter(|p| !p.is_none())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_follow_the_table() {
        let mut r = 5;
        assert_eq!(Probe::Add(3).apply(&mut r), None);
        assert_eq!(r, 8);
        assert_eq!(Probe::Add(u64::MAX).apply(&mut r), None);
        assert_eq!(r, 7);
        assert_eq!(Probe::CountAdd(2).apply(&mut r), Some(9));
        assert_eq!(Probe::Set(1).apply(&mut r), None);
        assert_eq!(r, 1);
        assert_eq!(Probe::CountConst(4).apply(&mut r), Some(4));
        assert_eq!(Probe::Add(u64::MAX).to_string(), "r -= 1");
        assert_eq!(Probe::CountAdd(0).to_string(), "count[r]");
    }
}
