//! The probes of OL-K profiling run along a trace (the paper's section 2.3, "Instrumentation"):
//! the reference for the VM's probes, tested against [`super::definition`].
//!
//! Two registers, as in the paper: `r` numbers the Ball-Larus path in progress, `ro` the
//! extension in progress, with its place in the overlapping graph (the paper's predicate
//! counter `ol` is part of the copy, [`super::graph`]). On each edge:
//! - an open extension follows the edge's copy (`ro += val`), or, if the edge leaves it (a
//!   cut, or out of the loop), stops: `count[ro + val(stop)]`; arriving at a copy whose only
//!   edge is its stop (the `(K + 1)`-th predicate) stops it at once;
//! - a back edge `u -> h` ends `r`'s path and opens an extension, `ro = r + val(u -> (h, 0))`,
//!   and `r` restarts at `h`: `r = val(ENTRY -> h)`;
//! - another cut edge counts `r`'s path, `count[r + val(u -> EXIT)]`, and restarts `r`;
//! - any other edge adds its value to `r`.
//!
//! At the exit, an open extension stops and `r`'s path is counted.

use super::graph::{OlEdgeKind, OlGraph, OlNode};
use crate::cfg::{Block, Edge};
use crate::executor::Instrumentation;

/// The registers of one invocation.
#[derive(Clone, Copy, Debug)]
pub struct OlRegisters {
    r: u64,
    /// The open extension: its copy and `ro`.
    open: Option<(OlNode, u64)>,
}

impl OlGraph {
    /// Moves `ro` to `n` (value already added); stops at once at a copy whose only edge is
    /// its stop.
    fn arrive(&self, n: OlNode, ro: u64, emit: &mut dyn FnMut(u64)) -> Option<(OlNode, u64)> {
        match self.only_stop(n) {
            Some(stop) => {
                emit(ro + self.val(stop));
                None
            }
            None => Some((n, ro)),
        }
    }
}

impl Instrumentation for OlGraph {
    type State = OlRegisters;

    fn enter(&self, _: &mut dyn FnMut(u64)) -> OlRegisters {
        OlRegisters { r: 0, open: None }
    }

    fn edge(&self, s: &mut OlRegisters, edge: Edge, target: Block, emit: &mut dyn FnMut(u64)) {
        if let Some((n, ro)) = s.open.take() {
            s.open = match self.copy_edge(n, edge) {
                Some(c) => self.arrive(self.target(c), ro + self.val(c), emit),
                None => {
                    let stop = self.stop_edge(n).expect("a copy left by an edge can stop");
                    emit(ro + self.val(stop));
                    None
                }
            };
        }
        let o = self.edge_of(edge);
        match self.kind(o) {
            OlEdgeKind::Real(_) => s.r += self.val(o),
            OlEdgeKind::End(_) => {
                emit(s.r + self.val(o));
                s.r = self.restart(target);
            }
            OlEdgeKind::IntoOverlap(_) => {
                s.open = self.arrive(self.target(o), s.r + self.val(o), emit);
                s.r = self.restart(target);
            }
            OlEdgeKind::Start(_) | OlEdgeKind::Copy(_) | OlEdgeKind::Stop => {
                unreachable!("a CFG edge is a real edge, an end or the way into an overlap")
            }
        }
    }

    fn exit(&self, s: &mut OlRegisters, emit: &mut dyn FnMut(u64)) {
        if let Some((n, ro)) = s.open.take() {
            let stop = self
                .stop_edge(n)
                .expect("an extension open at the exit can stop");
            emit(ro + self.val(stop));
        }
        emit(s.r);
    }
}

impl OlGraph {
    /// `r` at the start of a path at header `h`.
    fn restart(&self, h: Block) -> u64 {
        self.start_of(h).map_or(0, |e| self.val(e))
    }
}
