//! `vmrun cfg FILE.cfg --profile ol:K [--trace T]`: the OL-K paths of a textual CFG, or their
//! counts along a trace with the bounds they give on two-iteration paths, next to those the
//! same run's Ball-Larus counts give and to the real frequencies.
//!
//! - Without a trace: each loop's degree of overlap (capped at its maximum), its edge classes
//!   (DI, PI, DNI) and the static OL paths by id.
//! - With a trace: the counts the probes make ([`super::execute`]), and per loop the definite
//!   and potential flows from Ball-Larus and from OL-K counts against the real flow, with every
//!   interesting path's bounds (text), or all of it as JSON.

use super::estimate::{
    bounds, interesting_by_definition, without_overlaps, Interesting, Listing, LoopBounds,
};
use super::{OlContext, OlGraph, OlPath};
use crate::ball_larus::NumberingKind;
use crate::cfg::Block;
use crate::cfg_command::options::{pretty, CfgCommand, CommandError, Format};
use crate::cfg_text::ParsedCfg;
use crate::executor::execute;
use crate::trace::Trace;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Serialize)]
struct PathOut {
    id: u64,
    nodes: Vec<String>,
    end: Option<String>,
    overlap: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
}

#[derive(Serialize)]
struct LoopOut {
    header: String,
    degree: u32,
    capped: bool,
    edges: Vec<ClassOut>,
}

#[derive(Serialize)]
struct ClassOut {
    from: String,
    to: String,
    class: &'static str,
}

#[derive(Serialize)]
struct FlowOut {
    definite: u64,
    potential: u64,
}

#[derive(Serialize)]
struct BoundOut {
    first: Vec<String>,
    second: Vec<String>,
    lower: u64,
    upper: u64,
    real: u64,
}

#[derive(Serialize)]
struct EstimateOut {
    header: String,
    real_flow: u64,
    from_bl: FlowOut,
    from_ol: FlowOut,
    paths: Vec<BoundOut>,
}

#[derive(Serialize)]
struct Out {
    k: u32,
    path_ends: String,
    static_paths: u64,
    loops: Vec<LoopOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<PathOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counts: Option<Vec<PathOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds: Option<Vec<EstimateOut>>,
}

/// Runs `--profile ol:K` for `cmd` on `parsed`.
pub fn run(cmd: &CfgCommand, parsed: &ParsedCfg, k: u32) -> Result<String, CommandError> {
    let usage = |m: &str| Err(CommandError::Usage(m.to_string()));
    if cmd.k.is_some_and(|x| x != 1) {
        return usage("--k counts k-iteration paths; --profile ol:K sets the overlap itself");
    }
    if cmd.numbering != NumberingKind::Canonical || cmd.placement.is_some() {
        return usage("--profile ol:K numbers canonically with plain placement");
    }
    if cmd.format == Format::Dot {
        return usage("--format dot draws the Ball-Larus DAG (use --profile bl)");
    }
    let cfg = &parsed.cfg;
    let name = |b: Block| parsed.name(b).to_string();
    let names = |bs: &[Block]| bs.iter().map(|&b| name(b)).collect::<Vec<_>>();
    let cx = OlContext::new(cfg, cmd.path_ends, k)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", cmd.file)))?;
    let graph = OlGraph::new(&cx).map_err(|e| CommandError::Usage(format!("{}: {e}", cmd.file)))?;
    if graph.num_paths() > cmd.max_paths {
        return Err(CommandError::Usage(format!(
            "{}: {} OL paths: more than --max-paths {}",
            cmd.file,
            graph.num_paths(),
            cmd.max_paths
        )));
    }
    let path_out = |id: u64, p: &OlPath, count: Option<u64>| PathOut {
        id,
        nodes: names(&p.nodes),
        end: p.end.map(name),
        overlap: names(&p.overlap),
        count,
    };
    let regenerate = |id: u64| {
        graph.regenerate(cfg, id).ok_or_else(|| {
            CommandError::Input(format!("{}: internal error: id {id} has no path", cmd.file))
        })
    };
    let loops: Vec<LoopOut> = graph
        .overlaps()
        .map(|(h, degree)| LoopOut {
            header: name(h),
            degree,
            capped: degree < k,
            edges: graph
                .edge_classes(h)
                .iter()
                .map(|&(e, c)| ClassOut {
                    from: name(cfg.source(e)),
                    to: name(cfg.target(e)),
                    class: c.abbreviation(),
                })
                .collect(),
        })
        .collect();
    let mut out = Out {
        k,
        path_ends: cmd.path_ends.to_string(),
        static_paths: graph.num_paths(),
        loops,
        paths: None,
        counts: None,
        bounds: None,
    };
    match &cmd.trace {
        None => {
            if graph.num_paths() > cmd.list_limit {
                return Err(CommandError::Usage(format!(
                    "{} static paths: more than --list-limit {}",
                    graph.num_paths(),
                    cmd.list_limit
                )));
            }
            let paths = (0..graph.num_paths())
                .map(|id| Ok(path_out(id, &regenerate(id)?, None)))
                .collect::<Result<_, CommandError>>()?;
            out.paths = Some(paths);
        }
        Some(text) => {
            let trace = Trace::parse(text, &|n| parsed.block(n))
                .map_err(|e| CommandError::Input(e.to_string()))?;
            let input = |e: crate::trace::TraceError| CommandError::Input(e.render(&name));
            let run = execute(cfg, &trace, &graph).map_err(input)?;
            let mut counted: BTreeMap<OlPath, u64> = BTreeMap::new();
            let mut counts = Vec::new();
            for (&id, &c) in &run.counts {
                let p = regenerate(id)?;
                counts.push(path_out(id, &p, Some(c)));
                counted.insert(p, c);
            }
            counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.id.cmp(&b.id)));
            out.counts = Some(counts);
            let real = interesting_by_definition(&cx, &trace).map_err(input)?;
            out.bounds = Some(estimates(&cx, &counted, &real, &names));
        }
    }
    match cmd.format {
        Format::Json => Ok(pretty(&out)),
        _ => Ok(text(&out)),
    }
}

/// The bounds from the OL counts and from the Ball-Larus counts of the same run (the OL paths
/// with their overlaps dropped), with the real frequencies.
fn estimates(
    cx: &OlContext<'_>,
    counted: &BTreeMap<OlPath, u64>,
    real: &BTreeMap<Interesting, u64>,
    names: &dyn Fn(&[Block]) -> Vec<String>,
) -> Vec<EstimateOut> {
    let from_bl: BTreeMap<Block, LoopBounds> = bounds(cx, &without_overlaps(counted), Listing::All)
        .into_iter()
        .map(|l| (l.header, l))
        .collect();
    bounds(cx, counted, Listing::All)
        .into_iter()
        .map(|l| {
            let flow = |b: Option<&LoopBounds>| FlowOut {
                definite: b.map_or(0, |b| b.definite),
                potential: b.map_or(0, |b| b.potential),
            };
            EstimateOut {
                header: names(&[l.header]).remove(0),
                real_flow: l
                    .paths
                    .iter()
                    .map(|b| real.get(&b.path).copied().unwrap_or(0))
                    .sum(),
                from_bl: flow(from_bl.get(&l.header)),
                from_ol: flow(Some(&l)),
                paths: l
                    .paths
                    .iter()
                    .map(|b| BoundOut {
                        first: names(&b.path.first),
                        second: names(&b.path.second),
                        lower: b.lower,
                        upper: b.upper,
                        real: real.get(&b.path).copied().unwrap_or(0),
                    })
                    .collect(),
            }
        })
        .collect()
}

fn path_text(p: &PathOut) -> String {
    let end = match (&p.end, p.overlap.is_empty()) {
        (None, _) => String::new(),
        (Some(_), false) => format!(" ! {}", p.overlap.join(" ")),
        (Some(h), true) => format!(" -> {h}"),
    };
    format!("id {}: {}{end}", p.id, p.nodes.join(" "))
}

fn text(out: &Out) -> String {
    let mut s = format!(
        "OL-{} paths (path ends: {}): {} static\n",
        out.k, out.path_ends, out.static_paths
    );
    for l in &out.loops {
        let _ = writeln!(
            s,
            "loop {}: overlap {}{}",
            l.header,
            l.degree,
            if l.capped { " (its maximum)" } else { "" }
        );
        let classes: Vec<String> = l
            .edges
            .iter()
            .map(|c| format!("{}->{} {}", c.from, c.to, c.class))
            .collect();
        let _ = writeln!(s, "  edges: {}", classes.join(", "));
    }
    if let Some(paths) = &out.paths {
        for p in paths {
            let _ = writeln!(s, "  {}", path_text(p));
        }
    }
    if let Some(counts) = &out.counts {
        let _ = writeln!(s, "counts:");
        for p in counts {
            let _ = writeln!(s, "{:>8}  {}", p.count.unwrap_or(0), path_text(p));
        }
    }
    for e in out.bounds.iter().flatten() {
        let pct = |x: u64| {
            if e.real_flow == 0 {
                String::new()
            } else {
                format!(" ({:+.1}%)", (x as f64 / e.real_flow as f64 - 1.0) * 100.0)
            }
        };
        let _ = writeln!(
            s,
            "loop {}: real flow {}; from BL: definite {}{}, potential {}{}; from OL-{}: \
             definite {}{}, potential {}{}",
            e.header,
            e.real_flow,
            e.from_bl.definite,
            pct(e.from_bl.definite),
            e.from_bl.potential,
            pct(e.from_bl.potential),
            out.k,
            e.from_ol.definite,
            pct(e.from_ol.definite),
            e.from_ol.potential,
            pct(e.from_ol.potential),
        );
        for b in &e.paths {
            let _ = writeln!(
                s,
                "  {} ! {}: {} to {} (real {})",
                b.first.join(" "),
                b.second.join(" "),
                b.lower,
                b.upper,
                b.real
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_command::{run as run_command, ProfileKind};
    use crate::dag::PathEnds;

    const TABLE_2: &str = include_str!("../../../programs/cfgs/tallam-table2.cfg");
    const TABLE_4: &str = include_str!("../../../programs/cfgs/tallam-table4.trace");

    fn command(k: u32, trace: Option<&str>) -> CfgCommand {
        let mut cmd = CfgCommand::new("tallam-table2.cfg", TABLE_2);
        cmd.path_ends = PathEnds::Backedge;
        cmd.profile = Some(ProfileKind::Ol(k));
        cmd.trace = trace.map(str::to_string);
        cmd.format = Format::Json;
        cmd
    }

    fn json(cmd: &CfgCommand) -> serde_json::Value {
        serde_json::from_str(&run_command(cmd).expect("runs")).expect("JSON")
    }

    #[test]
    fn the_listing_numbers_every_ol_path_once() {
        // Table 2's 6 paths to the exit and its 6 paths to the back edge, each extended two
        // ways (to P2, or by B1 to P3): 18.
        let out = json(&command(1, None));
        assert_eq!(out["static_paths"], 18);
        let paths = out["paths"].as_array().unwrap();
        assert_eq!(paths.len(), 18);
        let ids: Vec<u64> = paths.iter().map(|p| p["id"].as_u64().unwrap()).collect();
        assert_eq!(ids, (0..18).collect::<Vec<_>>());
        assert_eq!(out["loops"][0]["header"], "P1");
        assert_eq!(out["loops"][0]["degree"], 1);
        // Overlap 5 is beyond the loop's maximum, 2: capped and said.
        let capped = json(&command(5, None));
        assert_eq!(capped["loops"][0]["degree"], 2);
        assert_eq!(capped["loops"][0]["capped"], true);
    }

    #[test]
    fn a_trace_gives_the_flows_of_section_2_2_3() {
        for (k, bl, ol) in [(0, (0, 2000), (0, 2000)), (2, (0, 2000), (1000, 1000))] {
            let out = json(&command(k, Some(TABLE_4)));
            let b = &out["bounds"][0];
            assert_eq!(b["real_flow"], 1000);
            let flow = |f: &serde_json::Value| {
                (
                    f["definite"].as_u64().unwrap(),
                    f["potential"].as_u64().unwrap(),
                )
            };
            assert_eq!(
                (flow(&b["from_bl"]), flow(&b["from_ol"])),
                (bl, ol),
                "K = {k}"
            );
        }
    }

    #[test]
    fn bad_options_are_usage_errors() {
        assert!("ol:33".parse::<ProfileKind>().is_err());
        assert!("ol:x".parse::<ProfileKind>().is_err());
        assert_eq!("ol:32".parse::<ProfileKind>(), Ok(ProfileKind::Ol(32)));
        let mut dot = command(1, None);
        dot.format = Format::Dot;
        let mut k = command(1, None);
        k.k = Some(2);
        for cmd in [dot, k] {
            assert!(matches!(run_command(&cmd), Err(CommandError::Usage(_))));
        }
        let bad_trace = command(1, Some("En P1 P3"));
        assert!(matches!(
            run_command(&bad_trace),
            Err(CommandError::Input(_))
        ));
    }
}
