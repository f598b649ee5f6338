//! Runs an instrumentation plan along a trace exactly as the probes would run in the VM, and
//! collects the emitted path ids: the stream (k-BLPP's `*` and ids, Roy & Srikant's Table 2)
//! and the counts.
//!
//! The executor knows nothing of how ids are computed: it calls an [`Instrumentation`] at the
//! entry, on every edge and at the exit. [`BlPlan`] implements it with its probes; the
//! k-iteration plans implement it with their counter arrays. The path register starts each
//! invocation with a poison value, so a plan that reads it before setting it is caught by tests.

use crate::cfg::{Block, Cfg, Edge};
use crate::plan::BlPlan;
use crate::trace::{walk, Trace, TraceError, WalkEvent};
use std::collections::BTreeMap;

/// Probes that emit path ids as a program runs.
pub trait Instrumentation {
    /// The per-invocation state (path registers).
    type State;
    /// An invocation starts at the entry.
    fn enter(&self, emit: &mut dyn FnMut(u64)) -> Self::State;
    /// The edge `edge` is taken, arriving at `target`.
    fn edge(&self, state: &mut Self::State, edge: Edge, target: Block, emit: &mut dyn FnMut(u64));
    /// The invocation arrives at the exit.
    fn exit(&self, state: &mut Self::State, emit: &mut dyn FnMut(u64));
}

/// The value the executor puts in the path register before the entry probe.
pub const POISON: u64 = 0x5eed_dead_beef_0bad;

impl Instrumentation for BlPlan {
    type State = u64;

    fn enter(&self, emit: &mut dyn FnMut(u64)) -> u64 {
        let mut r = POISON;
        if let Some(id) = self.entry.apply(&mut r) {
            emit(id);
        }
        r
    }

    fn edge(&self, r: &mut u64, edge: Edge, target: Block, emit: &mut dyn FnMut(u64)) {
        self.on_edge(r, edge, target, emit);
    }

    fn exit(&self, r: &mut u64, emit: &mut dyn FnMut(u64)) {
        if let Some(id) = self.exit.apply(r) {
            emit(id);
        }
    }
}

/// An element of the emitted stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamItem {
    /// `*`: an invocation starts.
    Invocation,
    /// A path id.
    Path(u64),
}

/// What running a plan along a trace produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Execution {
    /// The stream, in order.
    pub stream: Vec<StreamItem>,
    /// How many times each id was emitted.
    pub counts: BTreeMap<u64, u64>,
}

/// Runs `instr` along `trace`, calling `on` for every stream item.
pub fn execute_with<I: Instrumentation>(
    cfg: &Cfg,
    trace: &Trace,
    instr: &I,
    mut on: impl FnMut(StreamItem),
) -> Result<(), TraceError> {
    let mut state: Option<I::State> = None;
    walk(cfg, trace, |ev| match ev {
        WalkEvent::Enter => {
            on(StreamItem::Invocation);
            state = Some(instr.enter(&mut |id| on(StreamItem::Path(id))));
        }
        WalkEvent::Edge(e, b) => {
            if let Some(s) = state.as_mut() {
                instr.edge(s, e, b, &mut |id| on(StreamItem::Path(id)));
            }
        }
        WalkEvent::Exit => {
            if let Some(s) = state.as_mut() {
                instr.exit(s, &mut |id| on(StreamItem::Path(id)));
            }
        }
    })
}

/// Runs `instr` along `trace` and collects the stream and the counts.
pub fn execute<I: Instrumentation>(
    cfg: &Cfg,
    trace: &Trace,
    instr: &I,
) -> Result<Execution, TraceError> {
    let mut ex = Execution::default();
    execute_with(cfg, trace, instr, |item| {
        if let StreamItem::Path(id) = item {
            *ex.counts.entry(id).or_insert(0) += 1;
        }
        ex.stream.push(item);
    })?;
    Ok(ex)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ball_larus::{BallLarus, Numbering};
    use crate::cfg_text::parse_cfg;
    use crate::dag::PathEnds;
    use crate::plan::Placement;

    #[test]
    fn figure_1_trace_under_backedge_mode() {
        let p =
            parse_cfg("entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n").unwrap();
        let bl =
            BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
        let t = Trace::parse("1 (2 3 5 2 4 5)^100 2 3 5 6", &|n| p.block(n)).unwrap();
        for placement in [Placement::Plain, Placement::EventCounting] {
            let ex = execute(&p.cfg, &t, &bl.plan(&p.cfg, placement, None)).unwrap();
            // Figure 2 ids: 1 = 1-2-3-5, 8 = 2-4-5, 6 = 2-3-5, 5 = 2-3-5-6.
            assert_eq!(
                &ex.stream[..4],
                &[
                    StreamItem::Invocation,
                    StreamItem::Path(1),
                    StreamItem::Path(8),
                    StreamItem::Path(6)
                ]
            );
            assert_eq!(ex.stream.last(), Some(&StreamItem::Path(5)));
            let counts: Vec<(u64, u64)> = ex.counts.into_iter().collect();
            assert_eq!(counts, vec![(1, 1), (5, 1), (6, 99), (8, 100)]);
        }
    }
}
