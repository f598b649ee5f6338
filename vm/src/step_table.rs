//! The step tables of `kiter:K` (Roy & Srikant's Algorithm 3, section 4.2, as the VM runs it:
//! [`crate::modes::kiter::runtime`]) and the cursor through which the interpreter loop runs
//! their common step itself.
//!
//! A `Probe k` instruction of a `kiter` version is one step of its function's table, chosen by
//! `k` and the running frame's state: add up to three increments to the frame's accumulators,
//! then act (nothing, a path end, a back edge's shift, ...) and move to the next state. The
//! runtime keeps the running frame's state, table, accumulators and dense path counters in a
//! [`StepCursor`] of its own allocation and hands its address to the loop once per run
//! ([`crate::probes::Probes::step_cursor`]); the loop's `Probe` handler runs the common steps
//! itself ([`try_step`]: increments, path ends, back edges) with no call, and calls the runtime
//! only for the others (pending frames, loop exits, hashed counters, K > 3 shifts). Its own module, below both the loop and the runtime, so that neither
//! imports the other.

/// A frame's state in one number, the column of the step table: `0` counting with no k-loop
/// active, `1 + itr` counting in the active k-loop after `itr` iterations (`itr < K`), then
/// baseline (`K + 1`), pending (`K + 2`) and done (`K + 3`).
pub type State = u32;

/// What a [`Step`] does after adding its increments (see [`crate::modes::kiter::runtime::KiterRuntime::on_probe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Nothing at all (baseline and done frames, a probe that is a no-op in this state).
    Nop,
    /// The increments, then `state := next`.
    Add,
    /// A path end: count `c[0]`, `c[0] := restart`.
    End,
    /// A back edge of the active k-loop before it saturates: shift, `c[0] := restart`.
    Back,
    /// A back edge at `itr = K - 1`: count `c[K - 1]`, shift, `c[0] := restart`.
    BackCount,
    /// The active k-loop is left: `c[0] := c[itr]`.
    Exit,
    /// The active k-loop is left and the path ends: `c[0] := c[itr]`, count `c[0]`,
    /// `c[0] := restart`.
    ExitEnd,
    /// An edge into the exit with action `Add`, no k-loop active: count `c[0] + exit_add` (held
    /// where `restart` is); the frame is done.
    Finish,
    /// The entry probe: `c[0] := entry_init` (held where `restart` is), counting, inactive.
    Entry,
    /// A step with more than [`INLINE`] increments (K > 3): the others, then [`Step::wide`].
    Wide,
    /// Everything else, by the general code (`KiterRuntime::probe_general`): pending frames,
    /// the entry probe of a CFG with a virtual entry edge, the other edges into the exit,
    /// probes the plan leaves out in the state (a plan for another CFG).
    General,
}

/// How many increments a [`Step`] holds inline; the frames have at least this many
/// accumulators, so the fast path adds all of them without a loop (zeros where the step has
/// fewer).
pub const INLINE: usize = 3;

/// Probe `k` in frame state `s`, decoded at tier-up: entry `k * (K + 4) + s` of its function's
/// step table (40 bytes).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// `c[j] += inc[j]` for `j < 3` (zeros beyond the step's increments).
    pub inc: [u64; INLINE],
    /// The value `c[0]` restarts with (`exit_add` for [`Kind::Finish`], `entry_init` for
    /// [`Kind::Entry`]).
    pub restart: u64,
    /// [`Kind::Wide`] only (K > 3, state `s > 3`): the increments of `c[3..s]` are
    /// `vals[more .. more + s - 3]` in the runtime's value table.
    pub more: u32,
    /// The frame's state after the step.
    pub next: u16,
    /// What follows the increments.
    pub kind: Kind,
    /// [`Kind::Wide`] only: what follows all the increments.
    pub wide: Kind,
}

impl Step {
    /// Does nothing.
    pub const NOP: Step = Step {
        inc: [0; INLINE],
        restart: 0,
        more: 0,
        next: 0,
        kind: Kind::Nop,
        wide: Kind::Nop,
    };
    /// Runs the general code.
    pub const GENERAL: Step = Step {
        kind: Kind::General,
        ..Step::NOP
    };
}

/// The running frame's step table, state, accumulators and path counters, as the loop and
/// the runtime share them: allocated by the runtime on its own (never inside a value the
/// runtime borrows mutably), read and written through raw pointers by both, one at a time.
#[derive(Clone, Copy, Debug)]
pub struct StepCursor {
    /// The running frame's state (the column of its table).
    pub state: State,
    /// Steps per probe index (`K + 4`).
    pub stride: usize,
    /// K.
    pub k: usize,
    /// The running frame's table (`len` steps).
    pub steps: *const Step,
    /// The number of steps of the table (0: every probe goes to the runtime).
    pub len: usize,
    /// The running frame's accumulators (at least [`INLINE`]).
    pub c: *mut u64,
    /// The dense path counters of the running frame's function (`counts_len` cells, path id
    /// `i` in cell `i`); `counts_len` 0 when they are hashed: its path ends go to the runtime.
    pub counts: *mut u64,
    /// The number of cells of `counts`.
    pub counts_len: usize,
}

/// Runs probe `k` on `cursor` if its step is one the loop runs itself (true), or changes
/// nothing (false: the runtime must run the probe). The loop's steps: [`Kind::Add`],
/// [`Kind::Entry`], [`Kind::Finish`], and for K <= [`INLINE`] path ends ([`Kind::End`]), back
/// edges ([`Kind::Back`], [`Kind::BackCount`]) and loop exits ([`Kind::Exit`],
/// [`Kind::ExitEnd`]); a step that counts a path only when the id has a dense cell. Each does
/// what the runtime's `act` does: every increment first, then the action.
///
/// # Safety
/// `cursor` points to a live [`StepCursor`] whose `steps` hold `len` steps, whose `c` holds
/// at least [`INLINE`] accumulators and whose `counts` hold `counts_len` cells, and nothing
/// else accesses them during the call.
#[inline(always)]
pub unsafe fn try_step(cursor: *mut StepCursor, k: u16) -> bool {
    // SAFETY: the caller's guarantee.
    let cur = unsafe { &mut *cursor };
    let at = usize::from(k) * cur.stride + cur.state as usize;
    if at >= cur.len {
        return false;
    }
    // SAFETY: `at < len`.
    let step = unsafe { &*cur.steps.add(at) };
    let c = cur.c;
    // SAFETY (every access of `c` below): indices below `INLINE`, which `c` holds.
    let v = |j: usize| unsafe { *c.add(j) }.wrapping_add(step.inc[j]);
    let set = |j: usize, x: u64| unsafe { *c.add(j) = x };
    // Counts path `id` in its dense cell; false (nothing done) without one.
    let count = |id: u64| {
        if id >= cur.counts_len as u64 {
            return false;
        }
        // SAFETY: `id < counts_len`.
        unsafe { *cur.counts.add(id as usize) += 1 };
        true
    };
    let small = cur.k <= INLINE;
    match step.kind {
        Kind::Add => {
            let (v0, v1, v2) = (v(0), v(1), v(2));
            set(0, v0);
            set(1, v1);
            set(2, v2);
        }
        Kind::End if small => {
            let (v0, v1, v2) = (v(0), v(1), v(2));
            if !count(v0) {
                return false;
            }
            set(0, step.restart);
            set(1, v1);
            set(2, v2);
        }
        Kind::Back if small => {
            let (v0, v1) = (v(0), v(1));
            set(2, v1);
            set(1, v0);
            set(0, step.restart);
        }
        Kind::BackCount if small => {
            let vs = [v(0), v(1), v(2)];
            if !count(vs[cur.k - 1]) {
                return false;
            }
            set(2, vs[1]);
            set(1, vs[0]);
            set(0, step.restart);
        }
        Kind::Exit if small => {
            let vs = [v(0), v(1), v(2)];
            // A loop exit happens in states `1..=K`: `s - 1 < K <= INLINE`.
            let from = vs[(cur.state as usize).wrapping_sub(1).min(INLINE - 1)];
            set(0, from);
            set(1, vs[1]);
            set(2, vs[2]);
        }
        Kind::ExitEnd if small => {
            let vs = [v(0), v(1), v(2)];
            let from = vs[(cur.state as usize).wrapping_sub(1).min(INLINE - 1)];
            if !count(from) {
                return false;
            }
            set(0, step.restart);
            set(1, vs[1]);
            set(2, vs[2]);
        }
        Kind::Finish => {
            let (v0, v1, v2) = (v(0), v(1), v(2));
            if !count(v0.wrapping_add(step.restart)) {
                return false;
            }
            set(0, v0);
            set(1, v1);
            set(2, v2);
        }
        Kind::Entry => {
            let (v1, v2) = (v(1), v(2));
            set(0, step.restart);
            set(1, v1);
            set(2, v2);
        }
        _ => return false,
    }
    cur.state = State::from(step.next);
    true
}
