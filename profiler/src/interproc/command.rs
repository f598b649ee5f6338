//! `vmrun cfg FILE.cfg` for a file of several procedures ([`super::text`]): the numbering of
//! its interprocedural paths (`ψ` and `ρ` as in the paper's Figure 7, `maxEnters`, the edges out
//! of `Entry_global`, every path by number), or with `--trace` the counts of a replay, as text,
//! JSON or Graphviz dot. `--profile ipp:context` (the default) or `ipp:piecewise` picks the
//! paths.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::{json, Value};

use super::numbering::{EntryTarget, ExitTarget, IppNumbering};
use super::path::regenerate;
use super::runtime::PathCounter;
use super::supergraph::{Callee, ProcId, Supergraph};
use super::text::{parse_program, ParsedProgram};
use super::{definition::Event, IppKind, Linear};
use crate::cfg::Block;
use crate::cfg_command::options::{CfgCommand, CommandError, Format};
use crate::dag::DagEdgeKind;

/// Runs `vmrun cfg` on a multi-procedure file for paths of kind `kind`.
pub fn run(cmd: &CfgCommand, kind: IppKind) -> Result<String, CommandError> {
    let parsed =
        parse_program(&cmd.source).map_err(|e| CommandError::Input(e.render(&cmd.file)))?;
    let sg = &parsed.sg;
    let num = IppNumbering::new(sg, kind, cmd.path_ends, cmd.max_paths)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", cmd.file)))?;
    let counts = match &cmd.trace {
        None => None,
        Some(text) => {
            let runs = parsed
                .runs(text)
                .map_err(|e| CommandError::Input(format!("{}: {e}", cmd.file)))?;
            Some(count(sg, &num, &runs))
        }
    };
    Ok(match cmd.format {
        Format::Dot => dot(&parsed, &num),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&json_of(&parsed, &num, counts.as_ref(), cmd))
                .expect("JSON values serialize");
            s.push('\n');
            s
        }
        Format::Text => text(&parsed, &num, counts.as_ref(), cmd),
    })
}

/// Replays `runs` through the run-time state machine: the count of each path number.
pub fn count(sg: &Supergraph, num: &IppNumbering, runs: &[Vec<Event>]) -> BTreeMap<u64, u64> {
    let mut counts = BTreeMap::new();
    let mut counter = PathCounter::new();
    for run in runs {
        counter.start(sg, num);
        for &event in run {
            let done = match event {
                Event::Edge(e) => counter.edge(sg, num, e),
                Event::Call { site, callee } => {
                    counter.call(sg, num, site, callee);
                    None
                }
                Event::Return => counter.ret(num),
            };
            if let Some(n) = done {
                *counts.entry(n).or_insert(0) += 1;
            }
        }
    }
    counts
}

/// The path numbered `n` as vertex names.
fn path_names(parsed: &ParsedProgram, num: &IppNumbering, n: u64) -> Option<String> {
    let p = regenerate(&parsed.sg, num, n)?;
    Some(p.text(
        &parsed.sg,
        num,
        &|p, b| parsed.name(p, b).to_string(),
        &|p, g| parsed.special(p, g).to_string(),
    ))
}

/// `⟨a, b⟩` as JSON.
fn lin(l: Linear) -> Value {
    json!([l.a, l.b])
}

/// The name of the target of an edge out of `Entry_global`.
fn entry_name(parsed: &ParsedProgram, to: EntryTarget) -> String {
    match to {
        EntryTarget::Entry(p) => parsed.name(p, parsed.sg.proc(p).cfg.entry()).to_string(),
        EntryTarget::GEntry(p) => parsed.special(p, true).to_string(),
    }
}

/// Every intraprocedural edge of `G*fin` with a non-zero `ρ`: (procedure, from, to, ρ), the
/// vertices by the file's names (the paper's Figure 7 labels).
pub fn labelled_edges(
    parsed: &ParsedProgram,
    num: &IppNumbering,
) -> Vec<(ProcId, String, String, Linear)> {
    let sg = &parsed.sg;
    let mut out = Vec::new();
    for p in sg.procs() {
        let dag = num.dag(p);
        for d in dag.edges() {
            let rho = num.rho(p, d);
            if rho.is_zero() {
                continue;
            }
            let from = match dag.kind(d) {
                DagEdgeKind::Start(_) if num.kind() == IppKind::Piecewise => {
                    parsed.special(p, true).to_string()
                }
                _ => parsed.name(p, dag.source(d)).to_string(),
            };
            let to = match dag.kind(d) {
                DagEdgeKind::End(_) => parsed.special(p, false).to_string(),
                _ => parsed.name(p, dag.target(d)).to_string(),
            };
            out.push((p, from, to, rho));
        }
    }
    out
}

fn json_of(
    parsed: &ParsedProgram,
    num: &IppNumbering,
    counts: Option<&BTreeMap<u64, u64>>,
    cmd: &CfgCommand,
) -> Value {
    let sg = &parsed.sg;
    let name = |p: ProcId| sg.proc(p).name.clone();
    let mut psi = serde_json::Map::new();
    let mut max_enters = serde_json::Map::new();
    for p in sg.procs() {
        let mut m = serde_json::Map::new();
        for b in sg.proc(p).cfg.blocks() {
            m.insert(parsed.name(p, b).to_string(), lin(num.psi(p, b)));
        }
        m.insert(parsed.special(p, false).to_string(), lin(Linear::ONE));
        if num.kind() == IppKind::Piecewise {
            m.insert(parsed.special(p, true).to_string(), lin(num.psi_gentry(p)));
        }
        psi.insert(name(p), Value::Object(m));
        max_enters.insert(name(p), json!(num.max_enters(p)));
    }
    let rho: Vec<Value> = labelled_edges(parsed, num)
        .into_iter()
        .map(|(p, from, to, l)| json!({"function": name(p), "from": from, "to": to, "rho": lin(l)}))
        .collect();
    let entries: Vec<Value> = num
        .entries()
        .iter()
        .map(|e| json!({"to": entry_name(parsed, e.to), "value": e.value, "paths": e.count}))
        .collect();
    let mut out = json!({
        "kind": num.kind().name(),
        "path_ends": num.path_ends().to_string(),
        "static_paths": num.num_paths(),
        "max_enters": max_enters,
        "psi": psi,
        "rho": rho,
        "entries": entries,
        "fallback": num.fallback().iter().map(|f| f.render(&name)).collect::<Vec<_>>(),
    });
    if num.kind() == IppKind::Piecewise {
        let exits: serde_json::Map<String, Value> = sg
            .procs()
            .map(|p| {
                let list: Vec<Value> = num
                    .exits(p)
                    .iter()
                    .map(|e| {
                        let to = match e.to {
                            ExitTarget::Global => "Exit_global".to_string(),
                            ExitTarget::Site(s) => {
                                let site = sg.site(s);
                                parsed.name(site.caller, site.ret).to_string()
                            }
                        };
                        json!({"to": to, "value": e.value, "paths": e.count})
                    })
                    .collect();
                (
                    name(p),
                    json!({"num_unbal_rl_paths": num.unbal_exit(p), "edges": list}),
                )
            })
            .collect();
        out["exits"] = Value::Object(exits);
    }
    match counts {
        Some(counts) => {
            let list: Vec<Value> = counts
                .iter()
                .map(|(&id, &count)| {
                    json!({"id": id, "count": count, "path": path_names(parsed, num, id)})
                })
                .collect();
            out["counts"] = Value::Array(list);
        }
        None => {
            let shown = num.num_paths().min(cmd.list_limit);
            let list: Vec<Value> = (0..shown)
                .map(|id| json!({"id": id, "path": path_names(parsed, num, id)}))
                .collect();
            out["paths"] = Value::Array(list);
        }
    }
    out
}

fn text(
    parsed: &ParsedProgram,
    num: &IppNumbering,
    counts: Option<&BTreeMap<u64, u64>>,
    cmd: &CfgCommand,
) -> String {
    let sg = &parsed.sg;
    let name = |p: ProcId| sg.proc(p).name.clone();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: ipp:{} paths (Melski & Reps), path ends {}: {} paths",
        cmd.file,
        num.kind(),
        num.path_ends(),
        num.num_paths()
    );
    for f in num.fallback() {
        let _ = writeln!(s, "warning: {}", f.render(&name));
    }
    let _ = writeln!(s, "\nmaxEnters:");
    for p in sg.procs() {
        let _ = writeln!(s, "  {:<12} {}", name(p), num.max_enters(p));
    }
    let _ = writeln!(s, "\nψ of each vertex (⟨a, b⟩ is λx. a·x + b):");
    for &p in num.order().iter().rev() {
        let cells: Vec<String> = sg
            .proc(p)
            .cfg
            .blocks()
            .map(|b| format!("{} {}", parsed.name(p, b), num.psi(p, b)))
            .collect();
        let _ = writeln!(s, "  {}: {}", name(p), cells.join(", "));
    }
    let _ = writeln!(s, "\nρ of the edges that are not ⟨0, 0⟩:");
    for (p, from, to, l) in labelled_edges(parsed, num) {
        let _ = writeln!(s, "  {}: {from} -> {to} {l}", name(p));
    }
    let _ = writeln!(s, "\nedges out of Entry_global:");
    for e in num.entries() {
        let _ = writeln!(
            s,
            "  -> {:<12} value {:<6} paths {}",
            entry_name(parsed, e.to),
            e.value,
            e.count
        );
    }
    let summary: Vec<String> = sg
        .sites()
        .filter(|&x| num.is_summary(x))
        .map(|x| {
            let site = sg.site(x);
            let callee = match site.callee {
                Callee::Direct(q) => name(q),
                Callee::Indirect => "*".into(),
            };
            format!("{} -> {callee}", parsed.name(site.caller, site.call))
        })
        .collect();
    if !summary.is_empty() {
        let _ = writeln!(
            s,
            "\nsummary edges (recursive or indirect calls): {}",
            summary.join(", ")
        );
    }
    match counts {
        Some(counts) => {
            let total: u64 = counts.values().sum();
            let _ = writeln!(s, "\ncounts ({total} paths, {} distinct):", counts.len());
            for (&id, &count) in counts {
                let path = path_names(parsed, num, id).unwrap_or_else(|| "?".into());
                let _ = writeln!(s, "  {id:>4}: {count:<6} {path}");
            }
        }
        None => {
            let shown = num.num_paths().min(cmd.list_limit);
            let _ = writeln!(s, "\npaths:");
            for id in 0..shown {
                let path = path_names(parsed, num, id).unwrap_or_else(|| "?".into());
                let _ = writeln!(s, "  {id:>4}: {path}");
            }
            if shown < num.num_paths() {
                let _ = writeln!(s, "  ... ({} more)", num.num_paths() - shown);
            }
        }
    }
    s
}

/// `G*fin` as Graphviz dot, labelled like the paper's Figure 7: each vertex with its `ψ`, each
/// intraprocedural edge with its `ρ` when it is not `⟨0, 0⟩`; call and return edges dashed.
fn dot(parsed: &ParsedProgram, num: &IppNumbering) -> String {
    let sg = &parsed.sg;
    let id = |p: ProcId, b: Block| format!("\"{}\"", parsed.name(p, b));
    let special = |p: ProcId, g: bool| format!("\"{}\"", parsed.special(p, g));
    let mut s = String::from("digraph gfin {\n  node [shape=box, style=rounded];\n");
    let _ = writeln!(s, "  \"Entry_global\"; \"Exit_global\";");
    for p in sg.procs() {
        let proc = sg.proc(p);
        let _ = writeln!(
            s,
            "  subgraph cluster_{} {{\n    label=\"{}\";",
            p.index(),
            proc.name
        );
        for b in proc.cfg.blocks() {
            let _ = writeln!(
                s,
                "    {} [label=\"{}\\n{}\"];",
                id(p, b),
                parsed.name(p, b),
                num.psi(p, b)
            );
        }
        let _ = writeln!(
            s,
            "    {} [label=\"{}\\n<0, 1>\"];",
            special(p, false),
            parsed.special(p, false)
        );
        if num.kind() == IppKind::Piecewise {
            let _ = writeln!(
                s,
                "    {} [label=\"{}\\n{}\"];",
                special(p, true),
                parsed.special(p, true),
                num.psi_gentry(p)
            );
        }
        let dag = num.dag(p);
        for d in dag.edges() {
            let from = match dag.kind(d) {
                DagEdgeKind::Start(_) if num.kind() == IppKind::Piecewise => special(p, true),
                _ => id(p, dag.source(d)),
            };
            let (to, style) = match dag.kind(d) {
                DagEdgeKind::End(_) => (special(p, false), " style=dotted"),
                DagEdgeKind::Start(_) => (id(p, dag.target(d)), " style=dotted"),
                DagEdgeKind::Real(_) => (id(p, dag.target(d)), ""),
            };
            let is_call = proc
                .site_at(dag.source(d))
                .is_some_and(|x| num.crossing_callee(sg, x).is_some());
            if is_call {
                continue;
            }
            let rho = num.rho(p, d);
            let label = if rho.is_zero() {
                String::new()
            } else {
                format!(" label=\"{rho}\"")
            };
            let _ = writeln!(s, "    {from} -> {to} [{}{}];", label.trim_start(), style);
        }
        let _ = writeln!(s, "  }}");
        let _ = writeln!(s, "  {} -> \"Exit_global\";", special(p, false));
        if num.is_root(p) {
            let _ = writeln!(s, "  {} -> \"Exit_global\";", id(p, proc.cfg.exit()));
        }
    }
    for e in num.entries() {
        let to = match e.to {
            EntryTarget::Entry(p) => id(p, sg.proc(p).cfg.entry()),
            EntryTarget::GEntry(p) => special(p, true),
        };
        let _ = writeln!(s, "  \"Entry_global\" -> {to} [label=\"{}\"];", e.value);
    }
    for x in sg.sites() {
        let site = sg.site(x);
        if let Some(q) = num.crossing_callee(sg, x) {
            let qp = sg.proc(q);
            let _ = writeln!(
                s,
                "  {} -> {} [style=dashed];",
                id(site.caller, site.call),
                id(q, qp.cfg.entry())
            );
            let _ = writeln!(
                s,
                "  {} -> {} [style=dashed];",
                id(q, qp.cfg.exit()),
                id(site.caller, site.ret)
            );
        }
    }
    s.push_str("}\n");
    s
}
