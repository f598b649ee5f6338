//! The logic of `vmrun cfg FILE.cfg` (the VM's command line only parses arguments and calls
//! [`run`]): list the static paths of a textual CFG with their ids, or execute an
//! instrumentation plan along a trace and print the emitted stream and the counts, as text, JSON
//! or Graphviz dot.
//!
//! - Without a trace: `{"static_paths": N, "paths": [{"id", "nodes", "end"}...]}` ordered by id
//!   (text: the paths, then the `numPaths`/`val` tables and the plan's probes; for K >= 2 the
//!   k-iteration table of Algorithm 1 with `cval`).
//! - With a trace: `{"stream": ["*", 3, ...], "counts": [{"id", "nodes", "end", "count"}...]}`,
//!   from running the plan's probes along the trace ([`crate::executor`]), not from
//!   re-enumerating paths. Smart numbering takes its edge frequencies from the trace.
//! - `dot`: the path DAG with each edge's value (and probe, under event counting).
//!
//! Bad input (the CFG file, the trace) gives [`CommandError::Input`] with `file:line: message`;
//! inconsistent options give [`CommandError::Usage`].

pub mod options;

pub use options::{CfgCommand, CommandError, Format, ProfileKind};

use crate::ball_larus::{BallLarus, Numbering, NumberingKind};
use crate::cfg::Block;
use crate::cfg_text::{parse_cfg, ParsedCfg};
use crate::dag::DagEdgeKind;
use crate::dfs::DepthFirst;
use crate::executor::{execute, StreamItem};
use crate::k_iteration::{self, report as kreport, KIterConfig, KIteration, KPlacement};
use crate::loops::Loops;
use crate::plan::{BlPlan, Placement};
use crate::regenerate::Path;
use crate::trace::{edge_profile, Trace};
use options::pretty;
use serde::Serialize;
use std::fmt::{self, Write};

/// Runs the command; returns what to print on standard output.
pub fn run(cmd: &CfgCommand) -> Result<String, CommandError> {
    if crate::interproc::text::is_program(&cmd.source) {
        return match cmd.profile {
            None => crate::interproc::command::run(cmd, crate::interproc::IppKind::Context),
            Some(ProfileKind::Ipp(kind)) => crate::interproc::command::run(cmd, kind),
            Some(_) => Err(CommandError::Usage(format!(
                "{}: a file of several functions takes --profile ipp:context or ipp:piecewise",
                cmd.file
            ))),
        };
    }
    if let Some(ProfileKind::Ipp(_)) = cmd.profile {
        return Err(CommandError::Usage(format!(
            "{}: --profile ipp:... needs a file of several functions ('function NAME' lines)",
            cmd.file
        )));
    }
    let parsed = parse_cfg(&cmd.source).map_err(|e| CommandError::Input(e.render(&cmd.file)))?;
    if let Some(ProfileKind::Ol(k)) = cmd.profile {
        return crate::overlap::command::run(cmd, &parsed, k);
    }
    let k = match (cmd.profile, cmd.k) {
        (Some(ProfileKind::KIter(a)), Some(b)) if a != b => {
            return Err(CommandError::Usage(format!(
                "--k {b} contradicts --profile kiter:{a}"
            )));
        }
        (Some(ProfileKind::KIter(a)), _) => a,
        (Some(ProfileKind::Bl), Some(b)) if b != 1 => {
            return Err(CommandError::Usage(format!(
                "--k {b} contradicts --profile bl"
            )));
        }
        (_, Some(0)) => return Err(CommandError::Usage("--k must be at least 1".into())),
        (_, k) => k.unwrap_or(1),
    };
    if cmd.profile.is_some() && cmd.trace.is_none() {
        return Err(CommandError::Usage("--profile needs --trace".into()));
    }
    let trace = match &cmd.trace {
        None => None,
        Some(text) => Some(
            Trace::parse(text, &|n| parsed.block(n))
                .map_err(|e| CommandError::Input(e.to_string()))?,
        ),
    };
    let name = |b: Block| parsed.name(b).to_string();
    let trace_profile = match &trace {
        Some(t) => {
            Some(edge_profile(&parsed.cfg, t).map_err(|e| CommandError::Input(e.render(&name)))?)
        }
        None => None,
    };
    if cmd.numbering == NumberingKind::Smart && trace_profile.is_none() {
        return Err(CommandError::Usage(
            "--numbering smart takes its edge frequencies from --trace".into(),
        ));
    }
    if k >= 2 {
        if cmd.format == Format::Dot {
            return Err(CommandError::Usage(
                "--format dot draws the Ball-Larus DAG (use K = 1)".into(),
            ));
        }
        return run_kiter(cmd, &parsed, k, trace.as_ref(), trace_profile.as_ref());
    }

    let cfg = &parsed.cfg;
    let numbering = match &trace_profile {
        Some(p) if cmd.numbering == NumberingKind::Smart => Numbering::Smart(p),
        _ => Numbering::Canonical,
    };
    // The only error is a --max-paths too small for the graph: a usage error.
    let bl = BallLarus::new(cfg, cmd.path_ends, numbering, cmd.max_paths)
        .map_err(|e| CommandError::Usage(format!("{}: {}", cmd.file, e.render(&name))))?;
    let placement = match &cmd.placement {
        None => Placement::Plain,
        Some(p) => p.parse::<Placement>().map_err(CommandError::Usage)?,
    };
    let plan = bl.plan(cfg, placement, trace_profile.as_ref());
    match (&trace, cmd.format) {
        (_, Format::Dot) => Ok(dot(&parsed, &bl, &plan)),
        (None, Format::Json) => Ok(pretty(&static_json(&parsed, &bl, cmd.list_limit))),
        (None, Format::Text) => Ok(static_text(&parsed, &bl, &plan, cmd.list_limit)),
        (Some(t), format) => {
            let ex = execute(cfg, t, &plan).map_err(|e| CommandError::Input(e.render(&name)))?;
            let counts: Vec<(u64, u64, Path)> = ex
                .counts
                .iter()
                .map(|(&id, &c)| {
                    let path = bl.regenerate(cfg, id).ok_or_else(|| {
                        CommandError::Input(format!(
                            "{}: internal error: counted id {id} has no path",
                            cmd.file
                        ))
                    })?;
                    Ok((id, c, path))
                })
                .collect::<Result<_, CommandError>>()?;
            if format == Format::Json {
                let out = RunOut {
                    static_paths: bl.num_paths(),
                    stream: ex
                        .stream
                        .iter()
                        .map(|s| match *s {
                            StreamItem::Invocation => stream_out(true, 0),
                            StreamItem::Path(id) => stream_out(false, id),
                        })
                        .collect(),
                    counts: counts
                        .iter()
                        .map(|(id, c, p)| path_out(*id, p, &name, Some(*c)))
                        .collect(),
                    fallbacks: bl.fallbacks().iter().map(|f| f.render(&name)).collect(),
                };
                Ok(pretty(&out))
            } else {
                let mut out = header_text(&parsed, &bl, &plan);
                let stream: Vec<String> = ex.stream.iter().map(stream_text).collect();
                let _ = writeln!(out, "stream: {}", stream.join(" "));
                let _ = writeln!(out, "counts:");
                for (id, c, p) in &counts {
                    let _ = writeln!(out, "{c:>8}  {}", path_text(*id, p, &name));
                }
                Ok(out)
            }
        }
    }
}

/// Traces up to this many steps get the per-step table (the paper's Table 2) in text output.
const STEP_TABLE_LIMIT: usize = 200;

fn run_kiter(
    cmd: &CfgCommand,
    parsed: &ParsedCfg,
    k: u32,
    trace: Option<&Trace>,
    weights: Option<&crate::ball_larus::EdgeProfile>,
) -> Result<String, CommandError> {
    let cfg = &parsed.cfg;
    let name = |b: Block| parsed.name(b).to_string();
    let input = |e: &dyn fmt::Display| CommandError::Input(format!("{}: {e}", cmd.file));
    let dfs = DepthFirst::compute(cfg);
    let loops = Loops::compute(cfg, &dfs);
    let config = KIterConfig {
        k,
        path_ends: cmd.path_ends,
        max_paths: cmd.max_paths,
    };
    let kit = KIteration::compute(cfg, &dfs, &loops, config).map_err(|e| match e {
        k_iteration::KIterError::LimitTooSmall { .. } => {
            CommandError::Usage(format!("{}: {e}", cmd.file))
        }
        e => input(&e),
    })?;
    match trace {
        None => {
            if kit.num_paths() > cmd.list_limit {
                return Err(CommandError::Usage(format!(
                    "{} static paths: more than --list-limit {}",
                    kit.num_paths(),
                    cmd.list_limit
                )));
            }
            if cmd.format == Format::Json {
                let paths = kit
                    .paths()
                    .map(|p| p.map(|(id, path)| path_out(id, &path, &name, None)))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| input(&e))?;
                let out = ListingOut {
                    static_paths: kit.num_paths(),
                    paths,
                    truncated: false,
                    fallbacks: kit.fallbacks().iter().map(|f| f.render(&name)).collect(),
                };
                return Ok(pretty(&out));
            }
            let mut out = format!(
                "static paths: {} (K = {k}, path ends: {})\n",
                kit.num_paths(),
                cmd.path_ends
            );
            for f in kit.fallbacks() {
                let _ = writeln!(out, "fallback: {}", f.render(&name));
            }
            for p in kit.paths() {
                let (id, path) = p.map_err(|e| input(&e))?;
                let _ = writeln!(out, "{}", path_text(id, &path, &name));
            }
            let _ = writeln!(out, "\nnumbering (Roy & Srikant Algorithm 1):");
            out.push_str(&kit.render_table(&name));
            Ok(out)
        }
        Some(t) => {
            let placement = match &cmd.placement {
                None => KPlacement::default(),
                Some(p) => p.parse::<KPlacement>().map_err(CommandError::Usage)?,
            };
            let plan = kit.plan_weighted(placement, weights);
            // The trace was already checked along the CFG (edge frequencies), with named errors.
            let short = cmd.format == Format::Text && t.steps().nth(STEP_TABLE_LIMIT).is_none();
            let run = k_iteration::execute(&plan, cfg, t, short).map_err(|e| input(&e))?;
            if cmd.format == Format::Json {
                let mut counts = Vec::with_capacity(run.counts.len());
                for (&id, &c) in &run.counts {
                    let path = kit.identify(id).map_err(|e| input(&e))?.ok_or_else(|| {
                        CommandError::Input(format!(
                            "{}: internal error: counted id {id} has no path",
                            cmd.file
                        ))
                    })?;
                    counts.push(path_out(id, &path, &name, Some(c)));
                }
                let out = RunOut {
                    static_paths: kit.num_paths(),
                    stream: run
                        .stream
                        .iter()
                        .map(|s| match *s {
                            StreamItem::Invocation => stream_out(true, 0),
                            StreamItem::Path(id) => stream_out(false, id),
                        })
                        .collect(),
                    counts,
                    fallbacks: kit.fallbacks().iter().map(|f| f.render(&name)).collect(),
                };
                Ok(pretty(&out))
            } else {
                let mut out = format!(
                    "static paths: {} (K = {k}, path ends: {})\n",
                    kit.num_paths(),
                    cmd.path_ends
                );
                for f in kit.fallbacks() {
                    let _ = writeln!(out, "fallback: {}", f.render(&name));
                }
                out.push_str(
                    &kreport::render_run(&kit, &plan, &run, &name).map_err(|e| input(&e))?,
                );
                let _ = writeln!(out, "\nplan ({placement}):");
                out.push_str(&kreport::render_plan(&plan, cfg, &name));
                Ok(out)
            }
        }
    }
}

/// A path in JSON: `{"id", "nodes", "end"}` (and `"count"` in a profile), in that order.
#[derive(Serialize)]
struct PathOut {
    id: u64,
    nodes: Vec<String>,
    end: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
}

/// The static path listing.
#[derive(Serialize)]
struct ListingOut {
    static_paths: u64,
    paths: Vec<PathOut>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fallbacks: Vec<String>,
}

/// A profile along a trace.
#[derive(Serialize)]
struct RunOut {
    static_paths: u64,
    stream: Vec<StreamOut>,
    counts: Vec<PathOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fallbacks: Vec<String>,
}

/// `"*"` or an id.
#[derive(Serialize)]
#[serde(untagged)]
enum StreamOut {
    Invocation(&'static str),
    Path(u64),
}

fn path_out(id: u64, path: &Path, name: &dyn Fn(Block) -> String, count: Option<u64>) -> PathOut {
    PathOut {
        id,
        nodes: path.nodes.iter().map(|&b| name(b)).collect(),
        end: path.end.map(name),
        count,
    }
}

fn stream_out(invocation: bool, id: u64) -> StreamOut {
    if invocation {
        StreamOut::Invocation("*")
    } else {
        StreamOut::Path(id)
    }
}

fn stream_text(s: &StreamItem) -> String {
    match s {
        StreamItem::Invocation => "*".into(),
        StreamItem::Path(id) => id.to_string(),
    }
}

/// `id: a-b-c (exit)` or `id: a-b (ends at h)`.
pub fn path_text(id: u64, path: &Path, name: &dyn Fn(Block) -> String) -> String {
    let nodes: Vec<String> = path.nodes.iter().map(|&b| name(b)).collect();
    match path.end {
        Some(h) => format!("{id}: {} (ends at {})", nodes.join("-"), name(h)),
        None => format!("{id}: {} (exit)", nodes.join("-")),
    }
}

fn static_json(parsed: &ParsedCfg, bl: &BallLarus, list_limit: u64) -> ListingOut {
    let name = |b: Block| parsed.name(b).to_string();
    let n = bl.num_paths();
    let shown = n.min(list_limit);
    let paths = (0..shown)
        .filter_map(|id| {
            bl.regenerate(&parsed.cfg, id)
                .map(|p| path_out(id, &p, &name, None))
        })
        .collect();
    ListingOut {
        static_paths: n,
        paths,
        truncated: shown < n,
        fallbacks: bl.fallbacks().iter().map(|f| f.render(&name)).collect(),
    }
}

fn header_text(parsed: &ParsedCfg, bl: &BallLarus, plan: &BlPlan) -> String {
    let mut out = format!(
        "static paths: {} (path ends: {}, numbering: {}, placement: {})\n",
        bl.num_paths(),
        plan.path_ends,
        bl.numbering_kind(),
        plan.placement
    );
    for f in bl.fallbacks() {
        let _ = writeln!(
            out,
            "fallback: {}",
            f.render(&|b| parsed.name(b).to_string())
        );
    }
    out
}

fn dag_edge_text(parsed: &ParsedCfg, bl: &BallLarus, d: crate::dag::DagEdge) -> (String, String) {
    let dag = bl.dag();
    let cfg = &parsed.cfg;
    let n = |b: Block| parsed.name(b);
    match dag.kind(d) {
        DagEdgeKind::Real(e) => (
            format!("{} -> {}", n(cfg.source(e)), n(cfg.target(e))),
            String::new(),
        ),
        DagEdgeKind::Start(h) => (
            format!("ENTRY -> {}", n(h)),
            format!("start of paths at {}", n(h)),
        ),
        DagEdgeKind::End(e) => (
            format!("{} -> EXIT", n(cfg.source(e))),
            format!("cut edge {} -> {}", n(cfg.source(e)), n(cfg.target(e))),
        ),
    }
}

fn static_text(parsed: &ParsedCfg, bl: &BallLarus, plan: &BlPlan, list_limit: u64) -> String {
    let cfg = &parsed.cfg;
    let name = |b: Block| parsed.name(b).to_string();
    let mut out = header_text(parsed, bl, plan);
    let n = bl.num_paths();
    for id in 0..n.min(list_limit) {
        if let Some(p) = bl.regenerate(cfg, id) {
            let _ = writeln!(out, "{}", path_text(id, &p, &name));
        }
    }
    if n > list_limit {
        let _ = writeln!(out, "... ({} more; raise --list-limit)", n - list_limit);
    }
    let nb = bl.numbering();
    let dag = bl.dag();
    let width = cfg
        .blocks()
        .map(|b| parsed.name(b).len())
        .max()
        .unwrap_or(1)
        .max(4);
    let _ = writeln!(out, "\nnumPaths:");
    for &b in dag.topological_order().iter().rev() {
        let _ = writeln!(out, "  {:<width$}  {}", parsed.name(b), nb.num_paths(b));
    }
    let _ = writeln!(out, "\nval (in numbering order):");
    let rows: Vec<(String, u64, String)> = dag
        .topological_order()
        .iter()
        .rev()
        .flat_map(|&b| nb.out_edges_by_value(b).iter().copied())
        .map(|d| {
            let (edge, note) = dag_edge_text(parsed, bl, d);
            (edge, nb.val(d), note)
        })
        .collect();
    let ew = rows.iter().map(|r| r.0.len()).max().unwrap_or(4);
    for (edge, val, note) in rows {
        let _ = writeln!(out, "  {edge:<ew$}  {val:>6}  {note}").map(|_| ());
    }
    let _ = writeln!(out, "\nprobes ({}):", plan.placement);
    let _ = writeln!(out, "  at entry: {}", plan.entry);
    for e in cfg.edges() {
        let probe = plan.edges[e];
        let (s, t) = (cfg.source(e), cfg.target(e));
        let edge = format!("{} -> {}", parsed.name(s), parsed.name(t));
        if plan.cut[e] {
            let _ = writeln!(
                out,
                "  {edge:<ew$}  {probe} ; {} (ends a path)",
                plan.start[t]
            );
        } else if !probe.is_none() {
            let _ = writeln!(out, "  {edge:<ew$}  {probe}");
        }
    }
    for &h in dag.starts() {
        let _ = writeln!(out, "  path start at {}: {}", parsed.name(h), plan.start[h]);
    }
    let _ = writeln!(out, "  at exit: {}", plan.exit);
    out.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}

fn dot_id(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn dot(parsed: &ParsedCfg, bl: &BallLarus, plan: &BlPlan) -> String {
    let cfg = &parsed.cfg;
    let dag = bl.dag();
    let nb = bl.numbering();
    let mut out = String::from("digraph cfg {\n  node [shape=box];\n");
    for b in cfg.blocks() {
        let label = format!("{}\\nnumPaths={}", parsed.name(b), nb.num_paths(b));
        let shape = if dag.start_edge(b).is_some() {
            ", peripheries=2"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {} [label=\"{label}\"{shape}];",
            dot_id(parsed.name(b))
        );
    }
    for d in dag.edges() {
        let from = dot_id(parsed.name(dag.source(d)));
        let to = dot_id(parsed.name(dag.target(d)));
        let probe = match dag.kind(d) {
            DagEdgeKind::Real(e) | DagEdgeKind::End(e) => plan.edges[e],
            DagEdgeKind::Start(h) => plan.start[h],
        };
        let mut label = format!("val={}", nb.val(d));
        if plan.placement == Placement::EventCounting && !probe.is_none() {
            label += &format!("\\n{probe}");
        }
        let style = match dag.kind(d) {
            DagEdgeKind::Real(_) => "",
            DagEdgeKind::Start(_) | DagEdgeKind::End(_) => ", style=dashed",
        };
        let _ = writeln!(out, "  {from} -> {to} [label=\"{label}\"{style}];");
    }
    for e in cfg.edges().filter(|&e| dag.is_cut(e)) {
        let _ = writeln!(
            out,
            "  {} -> {} [style=dotted, color=gray, constraint=false, label=\"cut\"];",
            dot_id(parsed.name(cfg.source(e))),
            dot_id(parsed.name(cfg.target(e)))
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::PathEnds;

    const FIG1: &str = "entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n";

    fn cmd(src: &str) -> CfgCommand {
        CfgCommand::new("fig1.cfg", src)
    }

    use serde_json::{json, Value};

    #[test]
    fn json_listing_has_the_issue_fields() {
        let mut c = cmd(FIG1);
        c.path_ends = PathEnds::Backedge;
        c.format = Format::Json;
        let v: Value = serde_json::from_str(&run(&c).unwrap()).unwrap();
        assert_eq!(v["static_paths"], 10);
        assert_eq!(
            v["paths"][1],
            json!({"id": 1, "nodes": ["1", "2", "3", "5"], "end": "2"})
        );
        assert_eq!(v["paths"][0]["end"], Value::Null);
    }

    #[test]
    fn json_trace_has_stream_and_counts() {
        let mut c = cmd(FIG1);
        c.path_ends = PathEnds::Backedge;
        c.format = Format::Json;
        c.trace = Some("1 (2 3 5 2 4 5)^2 2 3 5 6 ; 1 2 4 6".into());
        c.profile = Some(ProfileKind::Bl);
        let v: Value = serde_json::from_str(&run(&c).unwrap()).unwrap();
        assert_eq!(v["stream"], json!(["*", 1, 8, 6, 8, 5, "*", 4]));
        assert_eq!(
            v["counts"][0],
            json!({"id": 1, "nodes": ["1", "2", "3", "5"], "end": "2", "count": 1})
        );
    }

    #[test]
    fn errors_are_input_or_usage() {
        let e = run(&cmd("entry 1\nexit 6\n1 -> 6 6\n")).unwrap_err();
        assert_eq!(
            e,
            CommandError::Input("fig1.cfg:3:8: duplicate edge 1 -> 6\n".into())
        );
        assert_eq!(e.exit_code(), 65);
        let mut c = cmd(FIG1);
        c.trace = Some("1 2 9".into());
        assert_eq!(
            run(&c).unwrap_err(),
            CommandError::Input("trace 1:5: unknown node '9'".into())
        );
        c.trace = Some("1 2 3 6".into());
        assert_eq!(
            run(&c).unwrap_err(),
            CommandError::Input("trace step 4: there is no edge 3 -> 6".into())
        );
        let mut c = cmd(FIG1);
        c.numbering = NumberingKind::Smart;
        assert_eq!(run(&c).unwrap_err().exit_code(), 2);
    }

    #[test]
    fn text_and_dot_render() {
        let mut c = cmd(FIG1);
        c.path_ends = PathEnds::Backedge;
        let text = run(&c).unwrap();
        assert!(text.starts_with("static paths: 10 (path ends: backedge, numbering: canonical, placement: plain)\n0: 1-2-3-5-6 (exit)\n1: 1-2-3-5 (ends at 2)\n"), "{text}");
        assert!(text.contains("numPaths:\n  6     1\n  5     2\n"), "{text}");
        c.format = Format::Dot;
        let dot = run(&c).unwrap();
        assert!(dot.starts_with("digraph cfg {"));
        assert!(
            dot.contains("\"1\" -> \"2\" [label=\"val=5\", style=dashed];"),
            "{dot}"
        );
    }
}
