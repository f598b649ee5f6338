//! Watching a run: every probe event of a mode, one line each, as it happens, with what the
//! mode makes of it ([`Profiler::describe`]): the papers' walk-throughs (Roy & Srikant's Table
//! 2, the k-BLPP paper's Example 3) on any program.
//!
//! [`Watched`] wraps a mode's probes: every hook is passed on to them, then recorded as a
//! [`WatchEvent`] followed by the mode's description, until the limit of lines is reached. It
//! is a probe type of its own, so the interpreter loop compiled for it is a separate copy: an
//! ordinary run pays nothing for watching. It sets [`Probes::WATCH`], so its loop also reports
//! every instruction ([`Probes::on_instr`]): from those it sees each block the running frame
//! enters (the CFG edge taken, in compiled and instrumented code alike) and each change of the
//! path register, which instrumented code updates without a hook.
//!
//! Each event becomes a [`WatchLine`]: the text `vmrun --watch N` prints, and the function,
//! block, source line and path register a step-through page highlights.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;

use lang::bytecode::{FuncIdx, Pc, ProbeIdx, Program};
use profiler::Block;
use serde::Serialize;

use super::Profiler;
use crate::probes::{Osr, Probes};
use crate::tier::cfg_build::FunctionCfg;
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
    /// The running frame of `func` entered block `to` of its CFG, from block `from` (`None`
    /// for the first block of an activation).
    Block {
        /// The function.
        func: FuncIdx,
        /// The block it leaves.
        from: Option<Block>,
        /// The block it enters.
        to: Block,
    },
    /// The path register of the running frame of `func` changed inside a block (instrumented
    /// code; a change on an edge is shown with the [`WatchEvent::Block`] it leads to).
    Register {
        /// The function.
        func: FuncIdx,
        /// Its new value.
        value: u64,
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
    /// A probe counted path `id` of `func` (a multi-iteration path of `kiter`).
    Counted {
        /// The function.
        func: FuncIdx,
        /// The path id.
        id: u64,
    },
    /// An instrumented version of `func` was made (its tier-up).
    NewVersion {
        /// The function.
        func: FuncIdx,
    },
}

impl WatchEvent {
    /// The function the event happens in.
    pub fn func(&self) -> FuncIdx {
        match *self {
            WatchEvent::Entry { func }
            | WatchEvent::Return { func }
            | WatchEvent::Block { func, .. }
            | WatchEvent::Register { func, .. }
            | WatchEvent::Branch { func, .. }
            | WatchEvent::Switch { func, .. }
            | WatchEvent::BackEdge { func, .. }
            | WatchEvent::Osr { func, .. }
            | WatchEvent::Path { func, .. }
            | WatchEvent::Probe { func, .. }
            | WatchEvent::Counted { func, .. }
            | WatchEvent::NewVersion { func } => func,
        }
    }

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
            WatchEvent::Block {
                func,
                from: Some(from),
                to,
            } => format!("{}: edge {from} -> {to}", name(func)),
            WatchEvent::Block {
                func,
                from: None,
                to,
            } => format!("{}: at {to}", name(func)),
            WatchEvent::Register { func, value } => {
                format!("{}: path register r = {value}", name(func))
            }
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
            WatchEvent::Counted { func, id } => format!("{}: counts path {id}", name(func)),
            WatchEvent::NewVersion { func } => format!("{}: instrumented", name(func)),
        }
    }
}

/// One recorded event: its text and where the run was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatchLine {
    /// The line `vmrun --watch` prints: the event, then in brackets what the mode makes of it.
    pub text: String,
    /// The function it happened in.
    pub func: String,
    /// The block of that function's CFG the running frame is in, once known.
    pub block: Option<u32>,
    /// The source line of the instruction the frame is at, once known.
    pub line: Option<u32>,
    /// The frame's path register, when it runs instrumented code of a mode that keeps one.
    pub register: Option<u64>,
    /// The Ball-Larus path id, when the event is the end of a path.
    pub path: Option<u64>,
}

/// What is known of an active frame.
#[derive(Clone, Copy, Debug)]
struct FrameView {
    func: FuncIdx,
    block: Option<Block>,
    line: Option<u32>,
    register: u64,
    /// Whether `register` is a path register: the frame runs instrumented code of a mode
    /// that keeps one (`P::PATHS`).
    has_register: bool,
}

/// A mode's probes, watched. See the module docs.
pub struct Watched<'p, M: Profiler> {
    /// The mode's probes.
    pub probes: M::Probes<'p>,
    /// The events recorded so far.
    pub lines: Vec<WatchLine>,
    /// The most lines recorded.
    limit: usize,
    program: &'p Program,
    /// Where each line is also written as it happens (`vmrun --watch`), if anywhere.
    out: Option<Box<dyn Write + 'p>>,
    /// An on-stack replacement whose version the loop is about to take: recorded after the
    /// version's [`WatchEvent::NewVersion`], in the order things happened.
    osr: Option<WatchEvent>,
    /// The active frames, innermost last.
    frames: Vec<FrameView>,
    /// Per code version (by address), the block starting at each pc that starts one.
    block_starts: HashMap<usize, HashMap<u16, Block>>,
    /// Per function, the CFG of its compiled code (built on first use).
    cfgs: HashMap<FuncIdx, Option<FunctionCfg>>,
    /// The size of the mode's growing structure at the last event ([`Profiler::watched_size`]).
    size: Option<u64>,
}

impl<'p, M: Profiler> Watched<'p, M> {
    /// Watches `probes` of a run of `program`, recording at most `limit` events.
    pub fn new(probes: M::Probes<'p>, program: &'p Program, limit: usize) -> Self {
        let size = M::watched_size(&probes).map(|(n, _)| n);
        Watched {
            probes,
            lines: Vec::new(),
            limit,
            program,
            out: None,
            osr: None,
            frames: Vec::new(),
            block_starts: HashMap::new(),
            cfgs: HashMap::new(),
            size,
        }
    }

    /// Also writes each line's text to `out` as it is recorded.
    pub fn printing_to(mut self, out: Box<dyn Write + 'p>) -> Self {
        self.out = Some(out);
        self
    }

    /// Whether the limit of lines has been reached.
    pub fn is_full(&self) -> bool {
        self.lines.len() >= self.limit
    }

    /// The CFG of `func`'s compiled code (`None` if it cannot be built).
    fn cfg(&mut self, func: FuncIdx) -> Option<&FunctionCfg> {
        let program = self.program;
        self.cfgs
            .entry(func)
            .or_insert_with(|| {
                program
                    .functions
                    .get(func.index())
                    .and_then(|f| FunctionCfg::of_function(f).ok())
            })
            .as_ref()
    }

    /// The block that starts at `pc` of `version`, if one does.
    fn block_at(&mut self, version: &Version, pc: Pc) -> Option<Block> {
        let key = version as *const Version as usize;
        if !self.block_starts.contains_key(&key) {
            let mut starts = HashMap::new();
            if version.instrumented {
                for (b, at) in version.block_start.iter().enumerate() {
                    if let Some(at) = at {
                        starts.insert(at.0, Block::new(b));
                    }
                }
            } else if let Some(fc) = self.cfg(version.func) {
                for (b, _) in fc.blocks() {
                    if let Some(at) = fc.first_pc(b) {
                        starts.insert(at.0, b);
                    }
                }
            }
            self.block_starts.insert(key, starts);
        }
        self.block_starts[&key].get(&pc.0).copied()
    }

    /// Records `event` and what the mode makes of it.
    fn record(&mut self, event: WatchEvent) {
        if let Some(osr) = self.osr.take() {
            self.record(osr);
        }
        if self.is_full() {
            return;
        }
        let mut text = event.render(self.program);
        let frame = self
            .frames
            .last()
            .copied()
            .filter(|f| f.func == event.func());
        if let (WatchEvent::Block { func, to, .. }, Some(frame)) = (event, frame) {
            if let Some(lines) = self.cfg(func).and_then(|fc| fc.lines(to)) {
                let _ = write!(text, " ({})", crate::profile::text::lines_label(lines));
            }
            if frame.has_register {
                let _ = write!(text, ", r = {}", frame.register);
            }
        }
        let more = match event {
            WatchEvent::Counted { func, id } => M::path_text(&self.probes, func, id),
            _ => M::describe(&self.probes, &event),
        };
        if let Some(more) = more {
            let _ = write!(text, "  [{more}]");
        }
        if let Some((now, what)) = M::watched_size(&self.probes) {
            let grown = now.saturating_sub(self.size.unwrap_or(now));
            if grown > 0 {
                let _ = write!(text, " (+{})", crate::profile::text::plural(grown, what));
            }
            self.size = Some(now);
        }
        let func = self
            .program
            .functions
            .get(event.func().index())
            .map_or_else(|| event.func().to_string(), |d| d.name.clone());
        let line = WatchLine {
            text,
            func,
            block: frame.and_then(|f| f.block).map(|b| b.index() as u32),
            line: frame.and_then(|f| f.line),
            register: frame.filter(|f| f.has_register).map(|f| f.register),
            path: match event {
                WatchEvent::Path { id, .. } | WatchEvent::Counted { id, .. } => Some(id),
                _ => None,
            },
        };
        if let Some(out) = &mut self.out {
            let _ = writeln!(out, "{}", line.text);
        }
        self.lines.push(line);
    }
}

impl<M: Profiler> Watched<'_, M> {
    /// A `Probe k` (`path` `None`) or `ProbePath k` event: runs it, records it and the paths it
    /// counted.
    fn probe_event(&mut self, func: FuncIdx, k: ProbeIdx, path: Option<u64>) {
        let run = |probes: &mut M::Probes<'_>| match path {
            Some(path) => probes.on_probe_path(func, k, path),
            None => probes.on_probe(func, k),
        };
        if self.is_full() {
            return run(&mut self.probes);
        }
        let before: HashMap<u64, u64> = M::counted(&self.probes, func).into_iter().collect();
        run(&mut self.probes);
        self.record(WatchEvent::Probe { func, k });
        let mut counted: Vec<u64> = M::counted(&self.probes, func)
            .into_iter()
            .filter(|(id, n)| before.get(id).copied().unwrap_or(0) < *n)
            .map(|(id, _)| id)
            .collect();
        counted.sort_unstable();
        for id in counted {
            self.record(WatchEvent::Counted { func, id });
        }
    }
}

impl<'p, M: Profiler> Probes for Watched<'p, M> {
    const ENABLED: bool = true;
    const PATHS: bool = <M::Probes<'p> as Probes>::PATHS;
    const TIERS: bool = <M::Probes<'p> as Probes>::TIERS;
    const COUNTS: bool = <M::Probes<'p> as Probes>::COUNTS;
    const WATCH: bool = true;

    fn on_entry(&mut self, func: FuncIdx) {
        self.probes.on_entry(func);
        self.frames.push(FrameView {
            func,
            block: None,
            line: None,
            register: 0,
            has_register: false,
        });
        self.record(WatchEvent::Entry { func });
    }

    fn on_instr(&mut self, version: &Version, pc: Pc, path: u64) {
        if self.is_full() {
            return;
        }
        let to = self.block_at(version, pc);
        let line = version.locs.get(pc.index()).map(|l| l.line);
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.func != version.func {
            return;
        }
        frame.has_register = version.instrumented && <Self as Probes>::PATHS;
        if line.is_some_and(|l| l > 0) {
            frame.line = line;
        }
        let changed = frame.has_register && frame.register != path;
        frame.register = path;
        let func = frame.func;
        match to {
            Some(to) => {
                let from = frame.block.replace(to);
                self.record(WatchEvent::Block { func, from, to });
            }
            None if changed => self.record(WatchEvent::Register { func, value: path }),
            None => {}
        }
    }

    // Branches and jump tables are passed on but not recorded: the block entered next says
    // where they went ([`WatchEvent::Block`]).
    fn on_branch(&mut self, func: FuncIdx, pc: Pc, taken: bool) {
        self.probes.on_branch(func, pc, taken);
    }

    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.probes.on_switch(func, pc, target);
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
        self.frames.pop();
    }

    fn on_path(&mut self, func: FuncIdx, id: u64) {
        self.probes.on_path(func, id);
        self.record(WatchEvent::Path { func, id });
    }

    fn on_probe(&mut self, func: FuncIdx, k: ProbeIdx) {
        self.probe_event(func, k, None);
    }

    fn on_probe_path(&mut self, func: FuncIdx, k: ProbeIdx, path: u64) {
        self.probe_event(func, k, Some(path));
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
        let result = crate::interp::execute_dedicated(&mut machine, &mut watched, &mut out);
        machine.flush(&mut out);
        assert!(result.is_ok());
        (watched.lines.into_iter().map(|l| l.text).collect(), out)
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
                .any(|l| l.starts_with("f: path ") && l.contains("τ at depth 0")),
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
