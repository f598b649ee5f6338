//! What a benchmark shows while it runs: on a terminal, a progress bar (indicatif) with the
//! program, mode and round of the run in progress and an estimate of the time left, and above
//! it a line per failure and per finished program; elsewhere (a CI log) only those lines.

use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::results::{CellStatus, ProgramResult};
use super::schedule::Round;

/// The progress display of one benchmark run.
pub struct Progress {
    bar: ProgressBar,
    programs_done: std::cell::Cell<usize>,
    programs: usize,
    program_started: std::cell::Cell<Instant>,
}

impl Progress {
    /// A display for a run of `programs` programs; `visible` false draws nothing (tests).
    pub fn new(programs: usize, visible: bool) -> Self {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(0), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} runs, {eta} left  {msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        Progress {
            bar,
            programs_done: std::cell::Cell::new(0),
            programs,
            program_started: std::cell::Cell::new(Instant::now()),
        }
    }

    /// Sets the number of runs.
    pub fn start(&self, runs: u64) {
        self.bar.set_length(runs);
        self.program_started.set(Instant::now());
    }

    /// Shows the run about to be made.
    pub fn step(&self, program: &str, mode: &str, round: Round) {
        let round = match round {
            Round::Warmup => "warm-up".to_string(),
            Round::Timed(n) => format!("run {n}"),
            Round::Callgrind => "callgrind".to_string(),
        };
        self.bar.set_message(format!("{program} {mode} ({round})"));
    }

    /// One run done (or skipped).
    pub fn advance(&self) {
        self.bar.inc(1);
    }

    /// Reports a failed cell or program as soon as it happens.
    pub fn failure(&self, program: &str, mode: &str, message: &str) {
        self.line(&format!("{program} {mode}: {message}"));
    }

    /// Reports a finished program with how long it took and how its cells went.
    pub fn program_done(&self, result: &ProgramResult) {
        let done = self.programs_done.get() + 1;
        self.programs_done.set(done);
        let seconds = self.program_started.get().elapsed().as_secs_f64();
        self.program_started.set(Instant::now());
        let count = |wanted: fn(CellStatus) -> bool| {
            result.cells.iter().filter(|c| wanted(c.status)).count()
        };
        let failed = count(|s| !matches!(s, CellStatus::Ok | CellStatus::NotRun));
        let not_run = count(|s| s == CellStatus::NotRun);
        let summary = match (&result.failure, failed, not_run) {
            (Some(why), _, _) => format!("FAILED: {why}"),
            (None, 0, 0) => "ok".to_string(),
            (None, 0, _) => "interrupted".to_string(),
            (None, n, _) => format!("{n} of {} modes failed", result.cells.len()),
        };
        self.line(&format!(
            "[{done}/{}] {} in {seconds:.0} s: {summary}",
            self.programs, result.name
        ));
    }

    /// Ends the display.
    pub fn finish(&self, complete: bool) {
        if complete {
            self.bar.finish_and_clear();
        } else {
            self.bar
                .abandon_with_message("interrupted: writing the results gathered so far");
        }
    }

    /// A line above the bar (or on stderr when there is no bar).
    fn line(&self, text: &str) {
        if self.bar.is_hidden() {
            eprintln!("{text}");
        } else {
            self.bar.println(text);
        }
    }
}
