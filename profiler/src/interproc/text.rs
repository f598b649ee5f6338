//! Several procedures in one `.cfg` file, and traces that walk across their calls.
//!
//! ```text
//! # Melski & Reps 1998, Figure 5 (abridged)
//! function main
//! entry v1
//! exit v16
//! gexit v14            # optional: the name of GExit_main (default GExit_main)
//! v5 -> v6 v9
//! v6 call pow -> v7    # v6 calls pow; v7 is its return site
//! function pow
//! entry u1
//! exit u8
//! ```
//!
//! Each `function NAME` starts a procedure whose lines are those of a one-function file
//! ([`crate::cfg_text`]), plus `C call Q -> R` (call vertex `C` calls procedure `Q`, or `*`
//! for a call through a pointer, and returns to `R`: the edge `C -> R` of the procedure's
//! graph) and the optional names of `GExit_P` and `GEntry_P` (`gexit NAME`, `gentry NAME`).
//! The program starts in `main`. Vertex names are unique in the file, so a trace names them
//! alone: `v6 u1 ... u8 v7` walks the call edge `v6 -> u1` and the return edge `u8 -> v7`;
//! each run (`;` separates them) starts at `main`'s entry and ends at its exit.

use std::collections::HashMap;

use super::definition::Event;
use super::supergraph::{CallSite, Callee, ProcId, Supergraph, SupergraphError};
use crate::cfg::Block;
use crate::cfg_text::{is_name_char, parse_cfg, CfgTextError, CfgTextErrors, ParsedCfg};
use crate::index::IndexVec;
use crate::trace::{Step as TraceStep, Trace};

/// A parsed multi-procedure `.cfg` file.
#[derive(Clone, Debug)]
pub struct ParsedProgram {
    /// The supergraph.
    pub sg: Supergraph,
    procs: IndexVec<ProcId, ParsedCfg>,
    gexit: IndexVec<ProcId, String>,
    gentry: IndexVec<ProcId, String>,
    by_name: HashMap<String, (ProcId, Block)>,
    /// Where each procedure's blocks start in the global numbering traces use.
    offsets: IndexVec<ProcId, usize>,
}

impl ParsedProgram {
    /// The file's name for vertex `b` of `p`.
    pub fn name(&self, p: ProcId, b: Block) -> &str {
        self.procs[p].name(b)
    }

    /// The name of `GEntry_P` (`gentry` true) or `GExit_P`.
    pub fn special(&self, p: ProcId, gentry: bool) -> &str {
        if gentry {
            &self.gentry[p]
        } else {
            &self.gexit[p]
        }
    }

    /// The vertex named `name`.
    pub fn vertex(&self, name: &str) -> Option<(ProcId, Block)> {
        self.by_name.get(name).copied()
    }

    /// Parses `text` as a trace of runs and turns each into its events; errors name the step.
    pub fn runs(&self, text: &str) -> Result<Vec<Vec<Event>>, String> {
        let global = |name: &str| {
            self.vertex(name)
                .map(|(p, b)| Block::new(self.offsets[p] + b.index()))
        };
        let trace = Trace::parse(text, &global).map_err(|e| e.to_string())?;
        let local = |g: Block| -> (ProcId, Block) {
            let p = self
                .offsets
                .iter()
                .rposition(|&o| o <= g.index())
                .expect("offsets start at 0");
            let p = ProcId::new(p);
            (p, Block::new(g.index() - self.offsets[p]))
        };
        let sg = &self.sg;
        let main = sg.main();
        let mut runs = Vec::new();
        let mut events = Vec::new();
        // (procedure, vertex) of the last step and the open calls.
        let mut at: Option<(ProcId, Block)> = None;
        let mut open = Vec::new();
        let mut run = 1u64;
        let end_run = |at: Option<(ProcId, Block)>, open: &Vec<_>, run: u64| match at {
            Some((p, v)) if p == main && v == sg.proc(main).cfg.exit() && open.is_empty() => Ok(()),
            Some((p, v)) => Err(format!(
                "trace: run {run} ends at {} in {}, not at the exit of main",
                self.name(p, v),
                sg.proc(p).name
            )),
            None => Err(format!("trace: run {run} is empty")),
        };
        for (n, step) in trace.steps().enumerate() {
            let n = n as u64 + 1;
            match step {
                TraceStep::Separator => {
                    end_run(at, &open, run)?;
                    events.push(Event::Return);
                    runs.push(std::mem::take(&mut events));
                    at = None;
                    run += 1;
                }
                TraceStep::Node(g) => {
                    let (q, w) = local(g);
                    let Some((p, v)) = at else {
                        if q != main || w != sg.proc(main).cfg.entry() {
                            return Err(format!(
                                "trace: step {n}: run {run} starts at {}, not at the entry of main",
                                self.name(q, w)
                            ));
                        }
                        at = Some((q, w));
                        continue;
                    };
                    let wrong = |why: &str| {
                        format!(
                            "trace: step {n}: {} -> {}: {why}",
                            self.name(p, v),
                            self.name(q, w)
                        )
                    };
                    let proc = sg.proc(p);
                    if let Some(s) = proc.site_at(v) {
                        let callee_ok = match sg.site(s).callee {
                            Callee::Direct(c) => c == q,
                            Callee::Indirect => true,
                        };
                        if !callee_ok || w != sg.proc(q).cfg.entry() {
                            return Err(wrong("a call vertex must go to its callee's entry"));
                        }
                        events.push(Event::Call { site: s, callee: q });
                        open.push(s);
                    } else if v == proc.cfg.exit() {
                        let Some(s) = open.pop() else {
                            return Err(wrong("main has returned (end the run with ';')"));
                        };
                        let site = sg.site(s);
                        if (q, w) != (site.caller, site.ret) {
                            return Err(wrong(&format!(
                                "the return must go to {}, the return site of the call",
                                self.name(site.caller, site.ret)
                            )));
                        }
                        events.push(Event::Return);
                    } else {
                        let e = (q == p).then(|| proc.cfg.find_edge(v, w)).flatten();
                        let Some(e) = e else {
                            return Err(wrong("no such edge"));
                        };
                        events.push(Event::Edge(e));
                    }
                    at = Some((q, w));
                }
            }
        }
        end_run(at, &open, run)?;
        events.push(Event::Return);
        runs.push(events);
        Ok(runs)
    }
}

/// Whether `text` describes several procedures (has a `function` line).
pub fn is_program(text: &str) -> bool {
    text.lines()
        .any(|l| l.split('#').next().unwrap_or("").split_whitespace().next() == Some("function"))
}

/// One `function` section: its name, first line, and its text with other lines blanked.
struct Section {
    name: String,
    line: usize,
    text: String,
    calls: Vec<(usize, String, String, String)>,
    gexit: Option<String>,
    gentry: Option<String>,
}

/// Parses a multi-procedure file. Errors carry 1-based line numbers.
pub fn parse_program(text: &str) -> Result<ParsedProgram, CfgTextErrors> {
    let lines: Vec<&str> = text.lines().collect();
    let mut errors = Vec::new();
    let err = |line: usize, message: String| CfgTextError {
        line,
        column: None,
        message,
    };
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = body.split_whitespace().collect();
        if words.first() == Some(&"function") {
            match words[..] {
                [_, name] if name.chars().all(is_name_char) => {
                    if sections.iter().any(|s| s.name == name) {
                        errors.push(err(line, format!("function {name} is defined twice")));
                    }
                    sections.push(Section {
                        name: name.to_string(),
                        line,
                        // The lines before and the `function` line itself, blank.
                        text: "\n".repeat(i + 1),
                        calls: Vec::new(),
                        gexit: None,
                        gentry: None,
                    });
                }
                _ => errors.push(err(line, "expected 'function NAME'".into())),
            }
            continue;
        }
        let Some(sec) = sections.last_mut() else {
            if !words.is_empty() {
                errors.push(err(line, "a line before the first 'function'".into()));
            }
            continue;
        };
        let kept = match words[..] {
            ["gexit", name] => {
                sec.gexit = Some(name.to_string());
                String::new()
            }
            ["gentry", name] => {
                sec.gentry = Some(name.to_string());
                String::new()
            }
            [c, "call", q, "->", r] => {
                sec.calls
                    .push((line, c.to_string(), q.to_string(), r.to_string()));
                format!("{c} -> {r}")
            }
            [_, "call", ..] => {
                errors.push(err(line, "expected 'CALL call PROCEDURE -> RETURN'".into()));
                String::new()
            }
            _ => raw.to_string(),
        };
        sec.text.push_str(&kept);
        sec.text.push('\n');
    }
    if sections.is_empty() {
        errors.push(err(1, "no 'function' line".into()));
    }
    let mut procs = Vec::new();
    for sec in &sections {
        match parse_cfg(&sec.text) {
            Ok(p) => procs.push(p),
            Err(e) => errors.extend(e.0),
        }
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        return Err(CfgTextErrors(errors));
    }
    let index_of = |name: &str| sections.iter().position(|s| s.name == name);
    let Some(main) = index_of("main") else {
        return Err(CfgTextErrors(vec![err(1, "no function main".into())]));
    };
    let mut by_name = HashMap::new();
    let mut offsets = Vec::new();
    let mut total = 0;
    for (i, (sec, parsed)) in sections.iter().zip(&procs).enumerate() {
        offsets.push(total);
        total += parsed.cfg.num_blocks();
        for b in parsed.cfg.blocks() {
            let name = parsed.name(b).to_string();
            if by_name.insert(name.clone(), (ProcId::new(i), b)).is_some() {
                errors.push(err(
                    sec.line,
                    format!("vertex {name} of function {} is named in another function too (names are unique in the file)", sec.name),
                ));
            }
        }
    }
    let mut sites = Vec::new();
    let mut site_lines = Vec::new();
    for (i, (sec, parsed)) in sections.iter().zip(&procs).enumerate() {
        for (line, c, q, r) in &sec.calls {
            let callee = if q == "*" {
                Some(Callee::Indirect)
            } else {
                index_of(q).map(|j| Callee::Direct(ProcId::new(j)))
            };
            let Some(callee) = callee else {
                errors.push(err(*line, format!("no function {q}")));
                continue;
            };
            let (Some(call), Some(ret)) = (parsed.block(c), parsed.block(r)) else {
                errors.push(err(
                    *line,
                    format!("{c} or {r} is not a vertex of {}", sec.name),
                ));
                continue;
            };
            sites.push(CallSite {
                caller: ProcId::new(i),
                call,
                ret,
                callee,
            });
            site_lines.push(*line);
        }
    }
    if !errors.is_empty() {
        return Err(CfgTextErrors(errors));
    }
    // Sites in the order of their procedures and call vertices, as the supergraph lists them.
    let mut order: Vec<usize> = (0..sites.len()).collect();
    order.sort_by_key(|&k| (sites[k].caller, sites[k].call));
    let sites: Vec<CallSite> = order.iter().map(|&k| sites[k]).collect();
    let site_lines: Vec<usize> = order.iter().map(|&k| site_lines[k]).collect();
    let line_of_call = |proc: &str, b: Block| {
        sections
            .iter()
            .zip(&procs)
            .find(|(s, _)| s.name == proc)
            .and_then(|(s, p)| {
                s.calls
                    .iter()
                    .find(|(_, c, _, r)| p.block(c) == Some(b) || p.block(r) == Some(b))
                    .map(|(l, ..)| *l)
            })
            .unwrap_or(1)
    };
    let named: Vec<(String, crate::cfg::Cfg)> = sections
        .iter()
        .zip(&procs)
        .map(|(s, p)| (s.name.clone(), p.cfg.clone()))
        .collect();
    let sg = Supergraph::new(named, sites, ProcId::new(main)).map_err(|e| {
        let line = match &e {
            SupergraphError::CallVertex { proc, call: b }
            | SupergraphError::ReturnSite { proc, ret: b }
            | SupergraphError::TwoCalls { proc, call: b } => line_of_call(proc, *b),
            SupergraphError::NoSuchProcedure(s) => site_lines[s.index()],
            SupergraphError::EntryCalls { proc } => sections
                .iter()
                .find(|s| &s.name == proc)
                .and_then(|s| s.calls.first().map(|c| c.0))
                .unwrap_or(1),
            SupergraphError::NoMain => 1,
        };
        let message = match &e {
            SupergraphError::CallVertex { proc, call } => format!(
                "in {proc}: call vertex {} must have its return site as its only successor",
                procs[index_of(proc).unwrap_or(0)].name(*call)
            ),
            SupergraphError::ReturnSite { proc, ret } => format!(
                "in {proc}: return site {} must have its call vertex as its only predecessor",
                procs[index_of(proc).unwrap_or(0)].name(*ret)
            ),
            other => other.to_string(),
        };
        CfgTextErrors(vec![err(line, message)])
    })?;
    let gexit = sections
        .iter()
        .map(|s| {
            s.gexit
                .clone()
                .unwrap_or_else(|| format!("GExit_{}", s.name))
        })
        .collect();
    let gentry = sections
        .iter()
        .map(|s| {
            s.gentry
                .clone()
                .unwrap_or_else(|| format!("GEntry_{}", s.name))
        })
        .collect();
    Ok(ParsedProgram {
        sg,
        procs: IndexVec::from_raw(procs),
        gexit: IndexVec::from_raw(gexit),
        gentry: IndexVec::from_raw(gentry),
        by_name,
        offsets: IndexVec::from_raw(offsets),
    })
}
