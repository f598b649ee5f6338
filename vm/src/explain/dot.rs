//! `vmrun explain --format dot|svg`: the CFG as a Graphviz graph: blocks labelled with their
//! lines and `numPaths`, filled by heat when the program ran (white to red, on a log scale),
//! loop headers doubled; edges labelled with their value and increment, back edges dashed,
//! spanning-tree edges bold.
//!
//! SVG: Graphviz's `dot -Tsvg` when it is installed (its layout is the reference), otherwise
//! the pure-Rust `layout-rs`, so `--format svg` works on a fresh machine.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

use super::{Explained, FunctionExplained};

/// Quotes a DOT string.
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A heat colour from white (cold) to red (hottest), on a log scale.
pub fn heat_colour(heat: u64, max: u64) -> String {
    if heat == 0 || max == 0 {
        return "#ffffff".to_string();
    }
    let share = ((heat as f64).ln_1p() / (max as f64).ln_1p()).clamp(0.0, 1.0);
    let g = (235.0 - 180.0 * share) as u8;
    format!("#ff{g:02x}{g:02x}")
}

/// One function's graph, nodes prefixed with `prefix` (so several can share a file).
fn function(out: &mut String, f: &FunctionExplained, prefix: &str) {
    let c = &f.cfg;
    let max = f
        .heat
        .as_ref()
        .map_or(0, |h| h.iter().copied().max().unwrap_or(0));
    let node = |b: u32| quote(&format!("{prefix}{}", c.blocks[b as usize].name));
    for b in &c.blocks {
        let mut parts = vec![b.name.clone()];
        if let Some(lines) = f.block_lines.get(b.id as usize).copied().flatten() {
            parts.push(crate::profile::text::lines_label(lines));
        }
        if b.id == c.entry {
            parts.push("entry".to_string());
        }
        if b.id == c.exit {
            parts.push("exit".to_string());
        }
        parts.push(format!("numPaths {}", b.num_paths));
        let mut attrs = Vec::new();
        if let Some(h) = &f.heat {
            let heat = h[b.id as usize];
            parts.push(format!("ran {heat}"));
            attrs.push(format!(
                "style=filled, fillcolor=\"{}\"",
                heat_colour(heat, max)
            ));
        }
        attrs.insert(0, format!("label={}", label(&parts)));
        if b.loop_header {
            attrs.push("peripheries=2".to_string());
        }
        let _ = writeln!(out, "  {} [{}];", node(b.id), attrs.join(", "));
    }
    for e in &c.edges {
        let mut parts = vec![if e.cut {
            format!("ends path: {}", e.plain)
        } else {
            format!("val {}", e.value)
        }];
        if !e.cut && e.increment != "-" {
            parts.push(format!("chord: {}", e.increment));
        }
        let mut attrs = vec![format!("label={}", label(&parts))];
        if e.back {
            attrs.push("style=dashed".to_string());
        }
        if e.tree {
            attrs.push("penwidth=2".to_string());
        }
        let _ = writeln!(
            out,
            "  {} -> {} [{}];",
            node(e.from),
            node(e.to),
            attrs.join(", ")
        );
    }
}

/// A DOT label of several lines.
fn label(parts: &[String]) -> String {
    let lines: Vec<String> = parts
        .iter()
        .map(|p| p.replace('\\', "\\\\").replace('"', "\\\""))
        .collect();
    format!("\"{}\"", lines.join("\\n"))
}

/// The whole explanation as one Graphviz digraph (one cluster per function when there are
/// several).
pub fn render(x: &Explained) -> String {
    let mut out = String::from("digraph explain {\n  node [shape=box, fontname=\"monospace\"];\n  edge [fontname=\"monospace\", fontsize=10];\n");
    if x.functions.len() == 1 {
        function(&mut out, &x.functions[0], "");
    } else {
        for (i, f) in x.functions.iter().enumerate() {
            let _ = writeln!(out, "  subgraph cluster_{i} {{");
            let _ = writeln!(out, "  label={};", quote(&f.name));
            function(&mut out, f, &format!("{}.", f.name));
            out.push_str("  }\n");
        }
    }
    out.push_str("}\n");
    out
}

/// One function's graph alone (the page draws one picture per function).
pub fn render_function(f: &FunctionExplained) -> String {
    let mut out = String::from("digraph cfg {\n  node [shape=box, fontname=\"monospace\"];\n  edge [fontname=\"monospace\", fontsize=10];\n");
    function(&mut out, f, "");
    out.push_str("}\n");
    out
}

/// Whether Graphviz's `dot` can be run.
pub fn graphviz_available() -> bool {
    Command::new("dot")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Draws a DOT graph as SVG: with Graphviz's `dot` when installed, else with `layout-rs`.
pub fn to_svg(dot: &str) -> Result<String, String> {
    if graphviz_available() {
        return graphviz_svg(dot);
    }
    layout_svg(dot)
}

/// `dot -Tsvg`.
pub fn graphviz_svg(dot: &str) -> Result<String, String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run Graphviz's dot: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(dot.as_bytes())
            .map_err(|e| format!("cannot write to dot: {e}"))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("dot failed: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "dot failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The pure-Rust layout (`layout-rs`), used when Graphviz is not installed.
pub fn layout_svg(dot: &str) -> Result<String, String> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};
    let mut parser = DotParser::new(dot);
    let graph = parser
        .process()
        .map_err(|e| format!("the DOT graph does not parse: {e}"))?;
    let mut builder = GraphBuilder::new();
    builder.visit_graph(&graph);
    let mut visual = builder.get();
    let mut svg = SVGWriter::new();
    visual.do_it(false, false, false, &mut svg);
    Ok(svg.finalize())
}
