//! Runs a [`KIterPlan`] along a trace exactly as the VM's probes do (the plan's runtime
//! semantics, [`super::plan`]): the reference implementation of the probes, and the engine of
//! `vmrun cfg --trace ... --profile kiter:K`. It reproduces the paper's Table 2.
//!
//! [`KIterState`] is one frame's state; [`execute`] runs whole invocations and collects the
//! emitted ids in order (the *stream*, `*` where an invocation starts) and their counts.

use super::plan::{Action, AfterExit, KIterPlan, Probe};
use crate::cfg::{Block, Cfg, Edge};
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

/// Why a probe could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// An invocation is empty, does not start at the entry or does not end at the exit.
    BadInvocation {
        /// 0-based invocation number.
        invocation: usize,
        /// What is wrong.
        message: String,
    },
    /// Two consecutive blocks of the trace are not joined by an edge.
    NoEdge {
        /// 0-based invocation number.
        invocation: usize,
        /// 0-based position of the step's source in the invocation.
        step: usize,
        /// The step's source.
        from: Block,
        /// The step's target.
        to: Block,
    },
    /// The plan has no probe for the edge in the current state, or counted an id out of range:
    /// the plan does not belong to this CFG (or is broken).
    PlanMismatch(String),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::BadInvocation {
                invocation,
                message,
            } => write!(f, "invocation {}: {message}", invocation + 1),
            ExecError::NoEdge {
                invocation,
                step,
                from,
                to,
            } => {
                write!(
                    f,
                    "invocation {}, step {}: there is no edge {from} -> {to}",
                    invocation + 1,
                    step + 1
                )
            }
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
            let comp = probe.inc_compensated.as_ref().unwrap_or(&probe.inc);
            for (c, &inc) in self.c[..itr].iter_mut().zip(comp) {
                *c = c.wrapping_add(inc);
            }
            self.c[itr] = self.c[itr].wrapping_add(probe.inc[itr]);
        } else {
            self.c[0] = self.c[0].wrapping_add(probe.inc[0]);
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

/// One element of the emitted stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamItem {
    /// An invocation starts (`*`).
    Invocation,
    /// A path id was counted.
    Path(u64),
}

impl fmt::Display for StreamItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamItem::Invocation => f.write_str("*"),
            StreamItem::Path(id) => write!(f, "{id}"),
        }
    }
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

/// Runs `plan` along `invocations` (each a block sequence from the entry to the exit); records
/// every step when `record_steps`.
pub fn execute(
    plan: &KIterPlan,
    cfg: &Cfg,
    invocations: &[Vec<Block>],
    record_steps: bool,
) -> Result<KIterRun, ExecError> {
    let mut run = KIterRun::default();
    for (inv, blocks) in invocations.iter().enumerate() {
        let bad = |message: &str| ExecError::BadInvocation {
            invocation: inv,
            message: message.to_string(),
        };
        match (blocks.first(), blocks.last()) {
            (Some(&f), Some(&l)) if f == cfg.entry() && l == cfg.exit() => {}
            (None, _) => return Err(bad("it is empty")),
            (Some(&f), _) if f != cfg.entry() => return Err(bad("it does not start at the entry")),
            _ => return Err(bad("it does not end at the exit")),
        }
        run.stream.push(StreamItem::Invocation);
        let mut st = KIterState::new(plan);
        let mut counted = Vec::new();
        for (i, w) in blocks.windows(2).enumerate() {
            let e = cfg.find_edge(w[0], w[1]).ok_or(ExecError::NoEdge {
                invocation: inv,
                step: i,
                from: w[0],
                to: w[1],
            })?;
            st.take_edge(plan, e, &mut |id| counted.push(id))?;
            for &id in &counted {
                run.stream.push(StreamItem::Path(id));
                *run.counts.entry(id).or_insert(0) += 1;
            }
            if record_steps {
                run.steps.push(StepRow {
                    edge: e,
                    state: st.clone(),
                    counted: std::mem::take(&mut counted),
                });
            }
            counted.clear();
        }
        st.finish(plan, &mut |id| counted.push(id))?;
        for &id in &counted {
            run.stream.push(StreamItem::Path(id));
            *run.counts.entry(id).or_insert(0) += 1;
        }
        // As in the paper's Table 2, the exit's count is shown on the last edge's row.
        if let (true, Some(last)) = (record_steps && blocks.len() > 1, run.steps.last_mut()) {
            last.counted.extend_from_slice(&counted);
        }
    }
    Ok(run)
}
