//! Watching a run: every probe event of a mode, one line each, as it happens, with what the
//! mode makes of it ([`Profiler::describe`]): the papers' walk-throughs (Roy & Srikant's Table
//! 2, the k-BLPP paper's Example 3) on any program.
//!
//! [`Watched`] wraps a mode's probes: every hook is passed on to them, then recorded as a
//! [`WatchEvent`] followed by the mode's description, until the limit of lines is reached. It
//! is a probe type of its own, so the interpreter loop compiled for it is a separate copy: an
//! ordinary run pays nothing for watching.

use std::fmt::Write as _;

use lang::bytecode::{FuncIdx, Pc, ProbeIdx, Program};

use super::Profiler;
use crate::probes::{Osr, Probes};
use crate::version::Version;

/// One probe event of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchEvent {
    /// `func` was entered.
    Entry {
        /// The function.
        func: FuncIdx,
    },
    /// `func` returns (or the program exits in it).
    Return {
        /// The function.
        func: FuncIdx,
    },
    /// The conditional branch at `pc` was taken or not (only in modes that do not count
    /// branches in the loop itself).
    Branch {
        /// The function.
        func: FuncIdx,
        /// The branch.
        pc: Pc,
        /// Whether it jumped.
        taken: bool,
    },
    /// The jump table at `pc` jumped to `target` (in compiled code).
    Switch {
        /// The function.
        func: FuncIdx,
        /// The jump table.
        pc: Pc,
        /// Where it jumped.
        target: Pc,
    },
    /// A backward jump from `pc` to `target` in compiled code: a loop iteration.
    BackEdge {
        /// The function.
        func: FuncIdx,
        /// The jump.
        pc: Pc,
        /// The loop header.
        target: Pc,
    },
    /// The running frame switched to code version `version` at `pc` (on-stack replacement).
    Osr {
        /// The function.
        func: FuncIdx,
        /// The version it runs from now on.
        version: u32,
        /// Where it continues.
        pc: Pc,
    },
    /// A Ball-Larus path of `func` ended with id `id`.
    Path {
        /// The function.
        func: FuncIdx,
        /// The path id.
        id: u64,
    },
    /// The probe instruction `Probe k` ran in `func`.
    Probe {
        /// The function.
        func: FuncIdx,
        /// Its index.
        k: ProbeIdx,
    },
    /// An instrumented version of `func` was made (its tier-up).
    NewVersion {
        /// The function.
        func: FuncIdx,
    },
}

impl WatchEvent {
    /// The event in words, functions named as in `program`.
    pub fn render(&self, program: &Program) -> String {
        let name = |f: FuncIdx| {
            program
                .functions
                .get(f.index())
                .map_or_else(|| f.to_string(), |d| d.name.clone())
        };
        match *self {
            WatchEvent::Entry { func } => format!("enter {}", name(func)),
            WatchEvent::Return { func } => format!("return from {}", name(func)),
            WatchEvent::Branch { func, pc, taken } => format!(
                "{}: branch at pc {} {}",
                name(func),
                pc.0,
                if taken { "taken" } else { "not taken" }
            ),
            WatchEvent::Switch { func, pc, target } => {
                format!("{}: switch at pc {} to pc {}", name(func), pc.0, target.0)
            }
            WatchEvent::BackEdge { func, pc, target } => {
                format!(
                    "{}: loop back from pc {} to pc {}",
                    name(func),
                    pc.0,
                    target.0
                )
            }
            WatchEvent::Osr { func, version, pc } => format!(
                "{}: on-stack replacement into version {version} at pc {}",
                name(func),
                pc.0
            ),
            WatchEvent::Path { func, id } => format!("{}: path {id} ends", name(func)),
            WatchEvent::Probe { func, k } => format!("{}: probe {}", name(func), k.0),
            WatchEvent::NewVersion { func } => format!("{}: instrumented", name(func)),
        }
    }
}

/// A mode's probes, watched. See the module docs.
pub struct Watched<'p, M: Profiler> {
    /// The mode's probes.
    pub probes: M::Probes<'p>,
    /// The events recorded so far, one line each: the event, then the mode's description.
    pub lines: Vec<String>,
    /// The most lines recorded.
    limit: usize,
    program: &'p Program,
    /// An on-stack replacement whose version the loop is about to take: recorded after the
    /// version's [`WatchEvent::NewVersion`], in the order things happened.
    osr: Option<WatchEvent>,
}

impl<'p, M: Profiler> Watched<'p, M> {
    /// Watches `probes` of a run of `program`, recording at most `limit` events.
    pub fn new(probes: M::Probes<'p>, program: &'p Program, limit: usize) -> Self {
        Watched {
            probes,
            lines: Vec::new(),
            limit,
            program,
            osr: None,
        }
    }

    /// Records `event` and what the mode makes of it.
    fn record(&mut self, event: WatchEvent) {
        if let Some(osr) = self.osr.take() {
            self.record(osr);
        }
        if self.lines.len() >= self.limit {
            return;
        }
        let mut line = event.render(self.program);
        if let Some(more) = M::describe(&self.probes, &event) {
            let _ = write!(line, "  [{more}]");
        }
        self.lines.push(line);
    }
}

impl<'p, M: Profiler> Probes for Watched<'p, M> {
    const ENABLED: bool = true;
    const PATHS: bool = <M::Probes<'p> as Probes>::PATHS;
    const TIERS: bool = <M::Probes<'p> as Probes>::TIERS;
    const COUNTS: bool = <M::Probes<'p> as Probes>::COUNTS;

    fn on_entry(&mut self, func: FuncIdx) {
        self.probes.on_entry(func);
        self.record(WatchEvent::Entry { func });
    }

    fn on_branch(&mut self, func: FuncIdx, pc: Pc, taken: bool) {
        self.probes.on_branch(func, pc, taken);
        self.record(WatchEvent::Branch { func, pc, taken });
    }

    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.probes.on_switch(func, pc, target);
        self.record(WatchEvent::Switch { func, pc, target });
    }

    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        let osr = self.probes.on_back_edge(func, pc, target);
        self.record(WatchEvent::BackEdge { func, pc, target });
        if let Some(o) = osr {
            let event = WatchEvent::Osr {
                func,
                version: o.version,
                pc: o.pc,
            };
            if self.probes.version_ready() {
                // The hook tiered the function up: its version comes first.
                self.osr = Some(event);
            } else {
                self.record(event);
            }
        }
        osr
    }

    fn on_return(&mut self, func: FuncIdx) {
        self.probes.on_return(func);
        self.record(WatchEvent::Return { func });
    }

    fn on_path(&mut self, func: FuncIdx, id: u64) {
        self.probes.on_path(func, id);
        self.record(WatchEvent::Path { func, id });
    }

    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx) {
        self.probes.on_probe(func, k);
        self.record(WatchEvent::Probe { func, k });
    }

    fn version_ready(&self) -> bool {
        self.probes.version_ready()
    }

    fn take_version(&mut self) -> Option<Version> {
        let version = self.probes.take_version()?;
        let osr = self.osr.take();
        self.record(WatchEvent::NewVersion { func: version.func });
        if let Some(osr) = osr {
            self.record(osr);
        }
        Some(version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::Machine;
    use crate::modes::{bl::Bl, kbl::Kbl, kiter::Kiter, trace::Trace, Mode};
    use crate::ProfileSettings;

    /// A loop whose body takes one of two paths, in a function called twice.
    const LOOP: &str = "#include <stdio.h>\n\
        int f(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i % 3 == 0) s += i; else s--; } return s; }\n\
        int main(void) { printf(\"%d\\n\", f(5) + f(1500)); return 0; }\n";

    /// The first `limit` lines of a watched run of `LOOP` under `M`, and its output.
    fn watch<M: Profiler>(
        mode: Mode,
        k: u32,
        tier_up: u64,
        limit: usize,
    ) -> (Vec<String>, Vec<u8>) {
        let program = lang::compile_source("t.c", LOOP).expect("compiles");
        let settings = ProfileSettings {
            mode,
            k,
            tier_up,
            ..ProfileSettings::default()
        };
        let mut machine = Machine::new(&program, crate::DEFAULT_MAX_DEPTH);
        let probes = M::start(&program, &settings, machine.branch_counts().clone()).unwrap();
        let mut out = Vec::new();
        let mut watched = Watched::<M>::new(probes, &program, limit);
        let result = crate::interp::execute(&mut machine, &mut watched, &mut out);
        machine.flush(&mut out);
        assert!(result.is_ok());
        (watched.lines, out)
    }

    #[test]
    fn watching_records_the_events_and_what_the_mode_makes_of_them() {
        let (lines, out) = watch::<Kbl>(Mode::Kbl, 3, 0, 40);
        let mut plain = Vec::new();
        crate::run_source("t.c", LOOP, &crate::RunOptions::default(), &mut plain);
        assert_eq!(out, plain, "watching changes nothing the program does");
        assert_eq!(lines.len(), 40, "at most the limit");
        assert!(
            lines.iter().any(|l| l.starts_with("enter f  [k-SF")),
            "{lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("f: path ") && l.contains("cursor at depth")),
            "{lines:#?}"
        );

        let (lines, _) = watch::<Kiter>(Mode::Kiter, 2, 0, 60);
        assert!(lines.iter().any(|l| l.contains("c = [")), "{lines:#?}");

        let (lines, _) = watch::<Trace>(Mode::Trace, 1, 0, 30);
        assert!(
            lines.iter().any(|l| l.contains("path so far: ")),
            "{lines:#?}"
        );
    }

    #[test]
    fn a_watched_tier_up_and_on_stack_replacement() {
        let (lines, _) = watch::<Bl>(Mode::Bl, 1, 1000, 100_000);
        let made = lines
            .iter()
            .position(|l| l.starts_with("f: instrumented  [tiered up at heat"))
            .expect("f tiers up");
        let osr = lines
            .iter()
            .position(|l| l.starts_with("f: on-stack replacement into version"))
            .expect("the running loop switches");
        assert!(made < osr, "{:#?}", &lines[made.saturating_sub(2)..osr + 2]);
        assert!(lines[osr + 1..]
            .iter()
            .any(|l| l.starts_with("f: path ") && l.contains("counted")));
    }
}
