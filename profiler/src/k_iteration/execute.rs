//! Runs a [`KIterPlan`] along a trace exactly as the VM's probes do (the plan's runtime
//! semantics, [`super::plan`]): the reference implementation of the probes, and the engine of
//! `vmrun cfg --trace ... --profile kiter:K`. It reproduces the paper's Table 2.
//!
//! [`KIterState`] is one frame's state; [`execute`] runs a [`Trace`] and collects the emitted ids
//! in order (the *stream*, `*` where an invocation starts), their counts and, on request, every
//! step. [`KIterPlan`] also implements the crate's [`Instrumentation`], so the generic
//! [`crate::executor::execute`] runs it like a Ball-Larus plan.

use super::plan::{Action, AfterExit, KIterPlan, Probe};
use crate::cfg::{Block, Cfg, Edge};
use crate::executor::{Instrumentation, StreamItem};
use crate::trace::{walk, Trace, TraceError, WalkEvent};
use std::collections::BTreeMap;
use std::fmt;

/// The k-iteration profiling state of one frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KIterState {
    /// The accumulators `c[0..K]`.
    pub c: Vec<u64>,
    /// Iterations completed in the current run of the active loop, saturating at `K - 1`.
    pub itr: u32,
    /// Whether a k-loop is active.
    pub active: bool,
}

/// Why a plan could not be run along a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The trace does not fit the CFG.
    Trace(TraceError),
    /// The plan has no probe for an edge in the current state, or counted an id out of range:
    /// the plan does not belong to this CFG (or is broken).
    PlanMismatch(String),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Trace(e) => write!(f, "{e}"),
            ExecError::PlanMismatch(m) => write!(f, "the plan does not fit the trace: {m}"),
        }
    }
}

impl std::error::Error for ExecError {}

impl KIterState {
    /// The state at the start of an invocation.
    pub fn new(plan: &KIterPlan) -> Self {
        let mut c = vec![0u64; plan.k.max(1) as usize];
        c[0] = plan.entry_init;
        KIterState {
            c,
            itr: 0,
            active: false,
        }
    }

    /// Runs the probe of edge `e`, calling `count` with every path id completed.
    pub fn take_edge(
        &mut self,
        plan: &KIterPlan,
        e: Edge,
        count: &mut impl FnMut(u64),
    ) -> Result<(), ExecError> {
        let probes = plan
            .edges
            .get(e)
            .ok_or_else(|| ExecError::PlanMismatch(format!("edge {e} is not in the plan")))?;
        let probe = if self.active {
            &probes.inside
        } else {
            &probes.outside
        };
        let probe: &Probe = probe.as_ref().ok_or_else(|| {
            let state = if self.active {
                "inside an active loop"
            } else {
                "outside k-loops"
            };
            ExecError::PlanMismatch(format!("edge {e} has no probe {state}"))
        })?;
        let k = self.c.len();
        if self.active {
            let itr = self.itr as usize;
            let comp = plan.inc_compensated(probe);
            for (c, &inc) in self.c[..itr].iter_mut().zip(comp) {
                *c = c.wrapping_add(inc);
            }
            self.c[itr] = self.c[itr].wrapping_add(plan.inc(probe, true)[itr]);
        } else {
            self.c[0] = self.c[0].wrapping_add(plan.inc(probe, false)[0]);
        }
        match probe.action {
            Action::Add => {}
            Action::Enter => self.enter(),
            Action::End { restart, enter } => self.end(restart, enter, plan, count)?,
            Action::Back { restart } => {
                if self.itr as usize == k - 1 {
                    emit(plan, self.c[k - 1], count)?;
                }
                for j in (1..k).rev() {
                    self.c[j] = self.c[j - 1];
                }
                self.c[0] = restart;
                if (self.itr as usize) < k - 1 {
                    self.itr += 1;
                }
            }
            Action::Exit { then } => {
                self.c[0] = self.c[self.itr as usize];
                for x in &mut self.c[1..] {
                    *x = 0;
                }
                self.itr = 0;
                self.active = false;
                match then {
                    AfterExit::Continue => {}
                    AfterExit::Enter => self.enter(),
                    AfterExit::End { restart, enter } => self.end(restart, enter, plan, count)?,
                }
            }
        }
        Ok(())
    }

    /// Counts the last path of an invocation, at the exit.
    pub fn finish(
        &mut self,
        plan: &KIterPlan,
        count: &mut impl FnMut(u64),
    ) -> Result<(), ExecError> {
        if self.active {
            return Err(ExecError::PlanMismatch(
                "the exit is reached inside a k-loop".into(),
            ));
        }
        emit(plan, self.c[0].wrapping_add(plan.exit_add), count)
    }

    fn enter(&mut self) {
        self.active = true;
        self.itr = 0;
    }

    fn end(
        &mut self,
        restart: u64,
        enter: bool,
        plan: &KIterPlan,
        count: &mut impl FnMut(u64),
    ) -> Result<(), ExecError> {
        emit(plan, self.c[0], count)?;
        self.c[0] = restart;
        if enter {
            self.enter();
        }
        Ok(())
    }
}

fn emit(plan: &KIterPlan, id: u64, count: &mut impl FnMut(u64)) -> Result<(), ExecError> {
    if id >= plan.num_paths {
        return Err(ExecError::PlanMismatch(format!(
            "counted id {} but there are {} static paths",
            id as i64, plan.num_paths
        )));
    }
    count(id);
    Ok(())
}

/// One edge taken, with the state after its probe (the paper's Table 2 rows). The id counted at
/// the exit is listed on the invocation's last edge, as in Table 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    /// The edge.
    pub edge: Edge,
    /// The state after the probe.
    pub state: KIterState,
    /// The ids counted by the probe.
    pub counted: Vec<u64>,
}

/// The result of running a plan along a trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KIterRun {
    /// The emitted ids in order, with a marker where each invocation starts.
    pub stream: Vec<StreamItem>,
    /// How many times each id was counted.
    pub counts: BTreeMap<u64, u64>,
    /// Every edge taken with the state after it (only when requested).
    pub steps: Vec<StepRow>,
}

/// Runs `plan` along `trace`; records every step when `record_steps`.
pub fn execute(
    plan: &KIterPlan,
    cfg: &Cfg,
    trace: &Trace,
    record_steps: bool,
) -> Result<KIterRun, ExecError> {
    let mut run = KIterRun::default();
    let mut st = KIterState::new(plan);
    let mut fault: Option<ExecError> = None;
    let mut counted: Vec<u64> = Vec::new();
    walk(cfg, trace, |ev| {
        if fault.is_some() {
            return;
        }
        let result = match ev {
            WalkEvent::Enter => {
                run.stream.push(StreamItem::Invocation);
                st = KIterState::new(plan);
                Ok(())
            }
            WalkEvent::Edge(e, _) => st.take_edge(plan, e, &mut |id| counted.push(id)),
            WalkEvent::Exit => st.finish(plan, &mut |id| counted.push(id)),
        };
        if let Err(e) = result {
            fault = Some(e);
            return;
        }
        for &id in &counted {
            run.stream.push(StreamItem::Path(id));
            *run.counts.entry(id).or_insert(0) += 1;
        }
        if record_steps {
            match ev {
                WalkEvent::Edge(edge, _) => {
                    run.steps.push(StepRow {
                        edge,
                        state: st.clone(),
                        counted: counted.clone(),
                    });
                }
                // As in the paper's Table 2, the exit's count is shown on the last edge's row.
                WalkEvent::Exit => {
                    if let Some(last) = run.steps.last_mut() {
                        last.counted.extend_from_slice(&counted);
                    }
                }
                WalkEvent::Enter => {}
            }
        }
        counted.clear();
    })
    .map_err(ExecError::Trace)?;
    match fault {
        Some(e) => Err(e),
        None => Ok(run),
    }
}

/// A frame's state for [`Instrumentation`]: the profiling state and the first fault met (after
/// which the frame emits nothing more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KIterFrame {
    /// The profiling state.
    pub state: KIterState,
    /// The first plan mismatch met, if any.
    pub fault: Option<ExecError>,
}

impl KIterFrame {
    fn run(&mut self, f: impl FnOnce(&mut KIterState) -> Result<(), ExecError>) {
        if self.fault.is_none() {
            if let Err(e) = f(&mut self.state) {
                self.fault = Some(e);
            }
        }
    }
}

impl Instrumentation for KIterPlan {
    type State = KIterFrame;

    fn enter(&self, _emit: &mut dyn FnMut(u64)) -> KIterFrame {
        KIterFrame {
            state: KIterState::new(self),
            fault: None,
        }
    }

    fn edge(&self, frame: &mut KIterFrame, edge: Edge, _target: Block, emit: &mut dyn FnMut(u64)) {
        frame.run(|st| st.take_edge(self, edge, &mut |id| emit(id)));
    }

    fn exit(&self, frame: &mut KIterFrame, emit: &mut dyn FnMut(u64)) {
        frame.run(|st| st.finish(self, &mut |id| emit(id)));
    }
}
