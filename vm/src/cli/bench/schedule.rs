//! The order of a benchmark's runs: program after program, and within a program the modes
//! interleaved run by run (`none bl kbl:8 none bl kbl:8 ...`), so that a drift of the machine
//! (another process, thermal throttling, a cache warmed by the previous run) hits every mode
//! alike instead of one mode's block of runs.
//!
//! Each program's runs come in rounds, each round running every mode once, in the order given
//! (`none` first, so its output is known before any other mode's is checked against it):
//! 1. a **warm-up** round (left out by `--quick`), not timed, whose runs also write the profile
//!    and its statistics;
//! 2. `runs` **timed** rounds;
//! 3. with `--instructions callgrind`, one round under callgrind (deterministic instruction
//!    counts, ~50 times slower, not timed).

/// What a run of a round is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// Warms the caches up and writes the profile; not timed.
    Warmup,
    /// The `n`th timed run (from 1).
    Timed(u32),
    /// Counts instructions under callgrind; not timed.
    Callgrind,
}

/// One run: which program, which round, which mode (indices into the run's lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The program's index.
    pub program: usize,
    /// The round.
    pub round: Round,
    /// The mode's index.
    pub mode: usize,
}

/// How many rounds of which kind each program gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounds {
    /// Whether there is a warm-up round.
    pub warmup: bool,
    /// The number of timed rounds.
    pub timed: u32,
    /// Whether there is a callgrind round.
    pub callgrind: bool,
}

impl Rounds {
    /// The rounds of one program, in order.
    pub fn list(&self) -> Vec<Round> {
        let mut rounds = Vec::new();
        if self.warmup {
            rounds.push(Round::Warmup);
        }
        rounds.extend((1..=self.timed).map(Round::Timed));
        if self.callgrind {
            rounds.push(Round::Callgrind);
        }
        rounds
    }
}

/// Every run of `programs` programs under `modes` modes, in the order they are made.
pub fn schedule(programs: usize, modes: usize, rounds: Rounds) -> Vec<Step> {
    let list = rounds.list();
    let mut steps = Vec::with_capacity(programs * modes * list.len());
    for program in 0..programs {
        for &round in &list {
            for mode in 0..modes {
                steps.push(Step {
                    program,
                    round,
                    mode,
                });
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(step: &Step) -> String {
        let round = match step.round {
            Round::Warmup => "w".to_string(),
            Round::Timed(n) => n.to_string(),
            Round::Callgrind => "c".to_string(),
        };
        format!("p{}{}{}", step.program, round, ["A", "B", "C"][step.mode])
    }

    #[test]
    fn modes_are_interleaved_run_by_run_within_each_program() {
        let rounds = Rounds {
            warmup: true,
            timed: 2,
            callgrind: false,
        };
        let order: Vec<String> = schedule(2, 3, rounds).iter().map(label).collect();
        assert_eq!(
            order.join(" "),
            "p0wA p0wB p0wC p01A p01B p01C p02A p02B p02C \
             p1wA p1wB p1wC p11A p11B p11C p12A p12B p12C"
        );
    }

    #[test]
    fn quick_has_no_warmup_and_callgrind_comes_last() {
        let rounds = Rounds {
            warmup: false,
            timed: 1,
            callgrind: true,
        };
        let order: Vec<String> = schedule(1, 2, rounds).iter().map(label).collect();
        assert_eq!(order.join(" "), "p01A p01B p0cA p0cB");
        assert!(schedule(0, 3, rounds).is_empty());
    }
}
