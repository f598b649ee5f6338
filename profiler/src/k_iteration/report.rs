//! Reports for `vmrun cfg`: the execution trace of Algorithm 1 (the paper's Table 1), the
//! static path listing, and the result of running a plan along a trace (the paper's Table 2).
//!
//! Every function takes `name`, which prints a block (the `.cfg` file's names).

use super::execute::KIterRun;
use super::numbering::out_edges;
use super::plan::KIterPlan;
use super::unrolled::END;
use super::{KIterError, KIteration};
use crate::cfg::{Block, Edge};
use crate::executor::StreamItem;
use crate::regenerate::Path;
use serde_json::{json, Value};
use std::fmt::Write;

/// One row of Algorithm 1's execution trace: one DAG edge `from -> to` as it is numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// The source block, `None` for `Start`.
    pub from: Option<Block>,
    /// The target block, `None` for `End`.
    pub to: Option<Block>,
    /// The CFG edge (`None` for `Start`'s edges and the exit's edge to `End`). For an edge to
    /// `End` it is the cut edge (the path ends at its target).
    pub edge: Option<Edge>,
    /// The source's iteration: 1..=K in an active k-loop, 0 when no k-loop is active.
    pub iteration: u32,
    /// `val` of the edge.
    pub val: u64,
    /// `numPaths(from)` after the edge (running sum).
    pub num_paths: u64,
    /// `cval` of the edge.
    pub cval: u64,
    /// `invalidPaths(from)` after the edge, for compensated sources (`Start` and states of
    /// compensated loops below iteration K).
    pub invalid: Option<u64>,
}

impl KIteration<'_> {
    /// The rows of Algorithm 1's execution, in the order it numbers the edges (states in reverse
    /// topological order, each state's out-edges in DAG order, `Start` last): the paper's
    /// Table 1.
    pub fn table(&self) -> Vec<TableRow> {
        let (un, nums) = (&self.un, &self.nums);
        let mut rows = Vec::new();
        for &x in &un.postorder {
            let comp = nums.is_compensated(un, x);
            let (mut p, mut inv) = (0u64, 0u64);
            for (d, e) in out_edges(un, x) {
                let (tp, via) = nums.through(un, d);
                p = p.wrapping_add(tp);
                inv = inv.wrapping_add(via);
                let t = un.target[d];
                rows.push(TableRow {
                    from: Some(un.state_block[x as usize]),
                    to: (t != END).then(|| un.state_block[t as usize]),
                    edge: e,
                    iteration: un.iteration(x),
                    val: nums.val[d],
                    num_paths: p,
                    cval: nums.cval(d),
                    invalid: comp.then_some(inv),
                });
            }
        }
        let (mut p, mut inv) = (0u64, 0u64);
        for (j, &t) in un.start_to.iter().enumerate() {
            p = p.wrapping_add(nums.paths[t as usize]);
            inv = inv.wrapping_add(nums.invalid(t));
            rows.push(TableRow {
                from: None,
                to: Some(un.state_block[t as usize]),
                edge: None,
                iteration: 1,
                val: nums.start_val[j],
                num_paths: p,
                cval: nums.start_cval[j],
                invalid: Some(inv),
            });
        }
        rows
    }

    /// Algorithm 1's execution as text, one row per numbered edge (the paper's Table 1 columns:
    /// u, e, i(u), val, numPaths(u), cval, invalidPaths(u)), then the number of static paths and
    /// the fallbacks taken.
    pub fn render_table(&self, name: &dyn Fn(Block) -> String) -> String {
        let node = |b: Option<Block>, end: &str| b.map_or(end.to_string(), name);
        let rows = self.table();
        let mut cells: Vec<[String; 7]> = vec![[
            "u".into(),
            "e".into(),
            "i(u)".into(),
            "val".into(),
            "numPaths(u)".into(),
            "cval".into(),
            "invalidPaths(u)".into(),
        ]];
        for r in &rows {
            cells.push([
                node(r.from, "S"),
                format!("{} -> {}", node(r.from, "S"), node(r.to, "E")),
                r.iteration.to_string(),
                r.val.to_string(),
                r.num_paths.to_string(),
                r.cval.to_string(),
                r.invalid.map_or("-".into(), |v| v.to_string()),
            ]);
        }
        let mut widths = [0usize; 7];
        for row in &cells {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let mut out = format!(
            "k-iteration numbering, K = {}, {} path ends (i(u) = 0: no k-loop active; E = End, S = Start)\n",
            self.k(),
            self.config().path_ends
        );
        for row in &cells {
            let line: Vec<String> = row
                .iter()
                .zip(widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            let _ = writeln!(out, "{}", line.join("  ").trim_end());
        }
        let _ = writeln!(out, "static paths: {}", self.num_paths());
        for f in self.fallbacks() {
            let _ = writeln!(out, "fallback: {f}");
        }
        out
    }
}

/// A path as JSON: `{"id", "nodes", "end"}` (`end` is `null` at the exit).
pub fn path_json(id: u64, path: &Path, name: &dyn Fn(Block) -> String) -> Value {
    json!({
        "id": id,
        "nodes": path.nodes.iter().map(|&b| name(b)).collect::<Vec<_>>(),
        "end": path.end.map(name),
    })
}

/// A path as text: `id: n1-n2-...-nk` followed by `(ends at H)` or `(exit)`.
pub fn path_text(id: u64, path: &Path, name: &dyn Fn(Block) -> String) -> String {
    let nodes: Vec<String> = path.nodes.iter().map(|&b| name(b)).collect();
    match path.end {
        Some(h) => format!("{id}: {} (ends at {})", nodes.join("-"), name(h)),
        None => format!("{id}: {} (exit)", nodes.join("-")),
    }
}

/// The static paths: `{"static_paths": N, "paths": [{"id", "nodes", "end"}, ...]}` ordered by
/// id, at most `limit` of them (then `"truncated": true`), plus `"fallbacks"` (one sentence
/// each, empty when none).
pub fn static_paths_json(
    kit: &KIteration<'_>,
    name: &dyn Fn(Block) -> String,
    limit: u64,
) -> Result<Value, KIterError> {
    let paths = kit
        .paths()
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .map(|p| p.map(|(id, p)| path_json(id, &p, name)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "static_paths": kit.num_paths(),
        "paths": paths,
        "truncated": kit.num_paths() > limit,
        "fallbacks": kit.fallbacks().iter().map(|f| f.to_string()).collect::<Vec<_>>(),
    }))
}

/// The result of running a plan as JSON: `{"stream": ["*", 3, 19, ...], "counts": [{"id",
/// "nodes", "end", "count"}, ...]}` (counts ordered by id).
pub fn run_json(
    kit: &KIteration<'_>,
    run: &KIterRun,
    name: &dyn Fn(Block) -> String,
) -> Result<Value, KIterError> {
    let stream: Vec<Value> = run
        .stream
        .iter()
        .map(|s| match s {
            StreamItem::Invocation => json!("*"),
            StreamItem::Path(id) => json!(id),
        })
        .collect();
    let mut counts = Vec::with_capacity(run.counts.len());
    for (&id, &count) in &run.counts {
        let path = kit
            .identify(id)?
            .ok_or_else(|| KIterError::Internal(format!("counted id {id} has no path")))?;
        let mut v = path_json(id, &path, name);
        v["count"] = json!(count);
        counts.push(v);
    }
    Ok(json!({ "stream": stream, "counts": counts }))
}

/// The result of running a plan as text: the stream on one line, then one line per counted path
/// (`count  id: nodes`), and, if the run recorded its steps, the paper's Table 2 (edge, `c`
/// printed as signed numbers, `active`, `itr`, ids counted).
pub fn render_run(
    kit: &KIteration<'_>,
    plan: &KIterPlan,
    run: &KIterRun,
    name: &dyn Fn(Block) -> String,
) -> Result<String, KIterError> {
    let mut out = String::new();
    let stream: Vec<String> = run
        .stream
        .iter()
        .map(|s| match s {
            StreamItem::Invocation => "*".to_string(),
            StreamItem::Path(id) => id.to_string(),
        })
        .collect();
    let _ = writeln!(out, "stream: {}", stream.join(" "));
    let _ = writeln!(out, "counts:");
    for (&id, &count) in &run.counts {
        let path = kit
            .identify(id)?
            .ok_or_else(|| KIterError::Internal(format!("counted id {id} has no path")))?;
        let _ = writeln!(out, "{count:>8}  {}", path_text(id, &path, name));
    }
    if !run.steps.is_empty() {
        let cfg = kit.cfg();
        let _ = writeln!(out, "steps (K = {}, placement {}):", plan.k, plan.placement);
        let _ = writeln!(
            out,
            "{:<12} {:<24} {:<6} {:<4} counted",
            "edge", "c", "active", "itr"
        );
        for row in &run.steps {
            let edge = format!(
                "{} -> {}",
                name(cfg.source(row.edge)),
                name(cfg.target(row.edge))
            );
            let c: Vec<String> = row
                .state
                .c
                .iter()
                .map(|&x| (x as i64).to_string())
                .collect();
            let counted: Vec<String> = row.counted.iter().map(|x| x.to_string()).collect();
            let line = format!(
                "{edge:<12} {:<24} {:<6} {:<4} {}",
                format!("[{}]", c.join(", ")),
                row.state.active,
                row.state.itr,
                counted.join(" ")
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    Ok(out)
}

/// A plan as text, one line per probe (signed values; `c += [a, b]` adds `a` to `c[0]` and `b`
/// to `c[1]`; `comp [..]` are the compensated increments for the counters below `itr`), e.g.
/// for Roy & Srikant's Figure 1, K = 2:
///
/// ```text
/// 2 -> 4   inside:  c += [19, 2] comp [18, 2]
/// 5 -> 2   inside:  back, restart 0
/// 5 -> 6   inside:  c += [5, -1]; exit
/// ```
pub fn render_plan(
    plan: &KIterPlan,
    cfg: &crate::cfg::Cfg,
    name: &dyn Fn(Block) -> String,
) -> String {
    use super::plan::{Action, AfterExit};
    let signed = |x: u64| (x as i64).to_string();
    let list = |v: &[u64]| {
        format!(
            "[{}]",
            v.iter().map(|&x| signed(x)).collect::<Vec<_>>().join(", ")
        )
    };
    let end = |restart: u64, enter: bool| {
        format!(
            "count c[0], restart {}{}",
            signed(restart),
            if enter { ", enter" } else { "" }
        )
    };
    let mut out = format!(
        "k-iteration plan: K = {}, {} path ends, placement {}, {} static paths\n",
        plan.k, plan.path_ends, plan.placement, plan.num_paths
    );
    let _ = writeln!(out, "entry: c[0] := {}", signed(plan.entry_init));
    let _ = writeln!(out, "exit: count c[0] + {}", signed(plan.exit_add));
    for l in &plan.k_loops {
        let comp = if l.compensated { " (compensated)" } else { "" };
        let _ = writeln!(out, "k-loop {} at {}{comp}", l.id, name(l.header));
    }
    for f in &plan.fallbacks {
        let _ = writeln!(out, "fallback: {f}");
    }
    for e in cfg.edges() {
        let probes = &plan.edges[e];
        let edge = format!("{} -> {}", name(cfg.source(e)), name(cfg.target(e)));
        for (inside, probe) in [(false, probes.outside), (true, probes.inside)] {
            let Some(p) = probe else { continue };
            if plan.is_noop(&p) {
                continue;
            }
            let mut parts = Vec::new();
            let inc = plan.inc(&p, inside);
            if inc.iter().any(|&x| x != 0) || p.inc_compensated != p.inc {
                let mut s = if inside {
                    format!("c += {}", list(inc))
                } else {
                    format!("c[0] += {}", signed(inc[0]))
                };
                if inside && p.inc_compensated != p.inc {
                    s.push_str(&format!(" comp {}", list(plan.inc_compensated(&p))));
                }
                parts.push(s);
            }
            match p.action {
                Action::Add => {}
                Action::Enter => parts.push("enter".into()),
                Action::End { restart, enter } => parts.push(end(restart, enter)),
                Action::Back { restart } => {
                    parts.push(format!("back, restart {}", signed(restart)))
                }
                Action::Exit { then } => parts.push(match then {
                    AfterExit::Continue => "exit".into(),
                    AfterExit::Enter => "exit, enter".into(),
                    AfterExit::End { restart, enter } => format!("exit, {}", end(restart, enter)),
                }),
            }
            let state = if inside { "inside: " } else { "outside:" };
            let _ = writeln!(out, "{edge:<8} {state} {}", parts.join("; "));
        }
    }
    out
}
