//! `vmrun overlap-precision FILE --k 0..K`: how tightly Ball-Larus and overlapping-path counts
//! bound the real flow of two-iteration paths on one run of a program (Tallam, Zhang & Gupta
//! 2004, section 4.1: their Figure 5 and Table 8).
//!
//! The program runs once under the `trace` sink, which records every activation's blocks; for
//! every function and every K of the range, the OL-K paths and the interesting paths (two
//! consecutive iterations) are counted by definition along those records
//! ([`profiler::overlap::estimate::flows`]), and the definite and potential flows summed over
//! the program's loops are printed against the real flow; the same for the paths across
//! calls (section 3: Type I into the callee, Type II back out, per call site and callee,
//! [`profiler::overlap::calls::call_flows`]), whose real flow is twice the calls counted. The whole record is kept in memory
//! (about 4 bytes a block run), so this is for programs of up to some tens of millions of
//! blocks. An activation that did not return (`exit` from a callee, a trap) is left out.
//!
//! Exit status: 0, 2 for a bad option, 65 when the program does not compile, 66 when it
//! cannot be read.

use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use clap::Args;
use lang::bytecode::FuncIdx;
use profiler::overlap::calls::{self, call_flows, CallFlows};
use profiler::overlap::estimate::{flows, Flows};
use profiler::overlap::{OlContext, OlGraph, MAX_OVERLAP};
use profiler::trace::Trace;
use profiler::{Block, PathEnds};
use vm::interp::Machine;
use vm::modes::trace::TraceProbes;
use vm::DEFAULT_MAX_DEPTH;

/// Arguments of `vmrun overlap-precision`.
#[derive(Args, Debug)]
pub struct OverlapPrecisionArgs {
    /// The program: one or more C-subset source files, linked as by `vmrun FILE...`.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The degrees of overlap: `N` or an inclusive range `A..B` (0 <= A <= B <= 32).
    #[arg(long, value_name = "RANGE", default_value = "0..3", value_parser = parse_degrees)]
    pub k: Degrees,
    /// Where paths end: `header` (on arriving at any loop header) or `backedge` (Ball-Larus).
    #[arg(long, value_name = "STRATEGY", default_value = "backedge", value_parser = parse_path_ends)]
    pub path_ends: PathEnds,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    preprocess: super::preprocess_args::PreprocessArgs,
}

/// An inclusive range of degrees of overlap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Degrees(pub RangeInclusive<u32>);

/// Parses `N` or `A..B` (also `A..=B`), `0 <= A <= B <=` [`MAX_OVERLAP`].
pub fn parse_degrees(s: &str) -> Result<Degrees, String> {
    let (a, b) = super::parse_u32_range(s, "0..3")?;
    if b > MAX_OVERLAP {
        return Err(format!("overlap {b} is above the limit of {MAX_OVERLAP}"));
    }
    Ok(Degrees(a..=b))
}

fn parse_path_ends(s: &str) -> Result<PathEnds, String> {
    s.parse::<PathEnds>()
}

/// One row: a degree of overlap and the program's flows, of its loops and of its calls.
struct Row {
    k: u32,
    flows: Flows,
    calls: CallFlows,
}

/// Runs the command.
pub fn run(args: &OverlapPrecisionArgs) -> i32 {
    let (name, program) = match super::read_and_compile(&args.files, &args.preprocess.options()) {
        Ok(compiled) => compiled,
        Err(code) => return code,
    };
    let mut probes = match TraceProbes::new(&program, args.path_ends) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("vmrun overlap-precision: {name}: {e}");
            return vm::EXIT_RUNTIME_ERROR;
        }
    };
    probes.keep_activations = true;
    let mut m = Machine::new(&program, DEFAULT_MAX_DEPTH);
    let (_, mut probes) = vm::run::execute(&mut m, probes, &mut Vec::new());
    probes.close_unfinished();
    let mut rows: Vec<Row> = args
        .k
        .0
        .clone()
        .map(|k| Row {
            k,
            flows: Flows::default(),
            calls: CallFlows::default(),
        })
        .collect();
    let mut most_overlap = 0;
    for f in 0..program.functions.len() {
        let fc = probes.cfg(FuncIdx(f as u16));
        let runs: Vec<&[Block]> = probes
            .activations
            .iter()
            .filter(|a| a.func.index() == f && a.finished)
            .map(|a| a.blocks.as_slice())
            .collect();
        if runs.is_empty() {
            continue;
        }
        let trace = Trace::from_invocations(runs);
        for row in &mut rows {
            let Ok(cx) = OlContext::new(fc.cfg(), args.path_ends, row.k) else {
                continue;
            };
            if row.k == *args.k.0.end() {
                if let Ok(g) = OlGraph::new(&cx) {
                    most_overlap = g.overlaps().map(|(_, d)| d).fold(most_overlap, u32::max);
                }
            }
            match flows(&cx, &trace) {
                Ok(fl) => row.flows += fl,
                Err(e) => {
                    eprintln!("vmrun overlap-precision: {name}: function {f}: {e}");
                    return vm::EXIT_RUNTIME_ERROR;
                }
            }
        }
    }
    let runs: Vec<calls::Activation<'_>> = probes.activations.iter().map(|a| a.as_run()).collect();
    for row in &mut rows {
        let contexts: Result<Vec<OlContext<'_>>, _> = (0..program.functions.len())
            .map(|f| OlContext::new(probes.cfg(FuncIdx(f as u16)).cfg(), args.path_ends, row.k))
            .collect();
        if let Ok(contexts) = contexts {
            row.calls = call_flows(&contexts, &runs);
        }
    }
    let out = if args.json {
        json(&name, args.path_ends, most_overlap, &rows)
    } else {
        text(&name, args.path_ends, most_overlap, &rows)
    };
    super::print_output(&out)
}

/// `x` against the real flow, as `+12.5%`.
fn off(x: u64, real: u64) -> String {
    if real == 0 {
        "-".to_string()
    } else {
        format!("{:+.1}%", (x as f64 / real as f64 - 1.0) * 100.0)
    }
}

/// The lines of one kind of flow: the real one, then the definite and potential flows from
/// BL counts (`bl`) and, per row, from OL-K counts (`ol`).
fn flow_lines(
    o: &mut String,
    title: &str,
    rows: &[Row],
    real: u64,
    bl: (u64, u64),
    ol: impl Fn(&Row) -> (u64, u64),
) {
    let _ = writeln!(o, "{title}");
    let line = |o: &mut String, what: &str, (d, p): (u64, u64)| {
        let _ = writeln!(
            o,
            "  from {what} definite {d} ({}), potential {p} ({})",
            off(d, real),
            off(p, real)
        );
    };
    line(o, "BL:  ", bl);
    for r in rows {
        line(o, &format!("OL-{}:", r.k), ol(r));
    }
}

fn text(name: &str, ends: PathEnds, most: u32, rows: &[Row]) -> String {
    let mut o = String::new();
    let Some(first) = rows.first() else {
        return o;
    };
    let real = first.flows.real;
    flow_lines(
        &mut o,
        &format!(
            "{name}: flow of two-iteration paths (path ends: {ends}): real {real}; the largest \
             overlap of a loop within the range: {most}"
        ),
        rows,
        real,
        first.flows.from_bl,
        |r| r.flows.from_ol,
    );
    let real = first.calls.real;
    flow_lines(
        &mut o,
        &format!("{name}: flow of paths across calls (into the callee and back out): real {real}"),
        rows,
        real,
        first.calls.from_bl,
        |r| r.calls.from_ol,
    );
    o
}

fn json(name: &str, ends: PathEnds, most: u32, rows: &[Row]) -> String {
    let real = rows.first().map_or(0, |r| r.flows.real);
    let bl = rows.first().map_or((0, 0), |r| r.flows.from_bl);
    // Per degree, `(definite, potential)` as `flows` reads it off a row.
    let per_degree = |flows: fn(&Row) -> (u64, u64)| -> Vec<serde_json::Value> {
        rows.iter()
            .map(|r| {
                let (definite, potential) = flows(r);
                serde_json::json!({"k": r.k, "definite": definite, "potential": potential})
            })
            .collect()
    };
    let ol = per_degree(|r| r.flows.from_ol);
    let calls_ol = per_degree(|r| r.calls.from_ol);
    let calls_bl = rows.first().map_or((0, 0), |r| r.calls.from_bl);
    let doc = serde_json::json!({
        "program": name,
        "path_ends": ends.to_string(),
        "real_flow": real,
        "largest_overlap": most,
        "from_bl": {"definite": bl.0, "potential": bl.1},
        "from_ol": ol,
        "calls": {
            "real_flow": rows.first().map_or(0, |r| r.calls.real),
            "from_bl": {"definite": calls_bl.0, "potential": calls_bl.1},
            "from_ol": calls_ol,
        },
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_parse_and_bad_ones_say_why() {
        assert_eq!(parse_degrees("0..3"), Ok(Degrees(0..=3)));
        assert_eq!(parse_degrees("2"), Ok(Degrees(2..=2)));
        assert!(parse_degrees("3..1").unwrap_err().contains("empty"));
        assert!(parse_degrees("0..33").unwrap_err().contains("limit"));
        assert!(parse_degrees("x").is_err());
    }
}
