//! `vmrun explain --format text`: the steps of [`super::Explained`] as sections of plain
//! text, in the order a lecture takes them (Ball & Larus 1996 sections 3.1-3.5; Roy & Srikant
//! 2009 section 4 for K > 1).

use std::fmt::Write as _;

use profiler::explain::{CfgExplanation, DummyRow, EdgeRow};

use super::{counted_paths, path_lines, Explained, FunctionExplained};
use crate::profile::text::lines_label;

/// The whole explanation as text.
pub fn render(x: &Explained) -> String {
    let mut out = String::new();
    for (i, f) in x.functions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        function(&mut out, x, f);
    }
    out.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}

/// A block's name and lines: `b3 (lines 5-6)`.
fn block_label(f: &FunctionExplained, b: u32) -> String {
    let name = &f.cfg.blocks[b as usize].name;
    match f.block_lines.get(b as usize).copied().flatten() {
        Some(lines) => format!("{name} ({})", lines_label(lines)),
        None => name.clone(),
    }
}

fn name(f: &FunctionExplained, b: u32) -> &str {
    &f.cfg.blocks[b as usize].name
}

fn edge_name(f: &FunctionExplained, e: &EdgeRow) -> String {
    format!("{} -> {}", name(f, e.from), name(f, e.to))
}

fn dummy_name(f: &FunctionExplained, d: &DummyRow) -> String {
    match (d.from, d.to) {
        (None, Some(h)) => format!("ENTRY -> {}", name(f, h)),
        (Some(u), None) => format!("{} -> EXIT", name(f, u)),
        _ => "?".to_string(),
    }
}

fn function(out: &mut String, x: &Explained, f: &FunctionExplained) {
    let c: &CfgExplanation = &f.cfg;
    let file = f.file.as_deref().unwrap_or(&x.file);
    let _ = match f.line {
        Some(line) => writeln!(out, "== {} ({file}:{line}) ==", f.name),
        None => writeln!(out, "== {} ({file}) ==", f.name),
    };
    let _ = writeln!(
        out,
        "{} static paths; path ends: {}; numbering: {}",
        c.num_paths, c.path_ends, c.numbering
    );
    for fb in &c.fallbacks {
        let _ = writeln!(out, "fallback: {fb}");
    }

    let _ = writeln!(out, "\n1. CFG: blocks, their source lines and successors");
    let heat = f.heat.as_ref();
    for b in &c.blocks {
        let succs: Vec<&str> = b.succs.iter().map(|&s| name(f, s)).collect();
        let mut notes = Vec::new();
        if b.id == c.entry {
            notes.push("entry".to_string());
        }
        if b.id == c.exit {
            notes.push("exit".to_string());
        }
        if b.loop_header {
            notes.push("loop header".to_string());
        }
        if let Some(h) = heat {
            notes.push(format!("ran {}", h[b.id as usize]));
        }
        let _ = writeln!(
            out,
            "  {:<22} -> {:<16} {}",
            block_label(f, b.id),
            if succs.is_empty() {
                "-".to_string()
            } else {
                succs.join(" ")
            },
            notes.join(", ")
        );
    }

    let _ = writeln!(out, "\n2. Back edges and loops (depth-first search)");
    let back: Vec<String> = c
        .edges
        .iter()
        .filter(|e| e.back)
        .map(|e| edge_name(f, e))
        .collect();
    if back.is_empty() {
        let _ = writeln!(out, "  no back edges: the CFG is acyclic");
    } else {
        let _ = writeln!(out, "  back edges: {}", back.join(", "));
    }
    for l in &c.loops {
        let blocks: Vec<&str> = l.blocks.iter().map(|&b| name(f, b)).collect();
        let _ = writeln!(
            out,
            "  loop at {} (depth {}): {}",
            block_label(f, l.header),
            l.depth,
            blocks.join(" ")
        );
        if !l.entered_elsewhere.is_empty() {
            let other: Vec<&str> = l.entered_elsewhere.iter().map(|&b| name(f, b)).collect();
            let _ = writeln!(
                out,
                "    irreducible: {} reached from the entry without passing {} (a second way \
                 into the loop)",
                other.join(" "),
                name(f, l.header)
            );
        }
    }

    let _ = writeln!(
        out,
        "\n3. The DAG: each edge that ends a path (path ends: {}) becomes two dummy edges",
        c.path_ends
    );
    if c.dummies.is_empty() {
        let _ = writeln!(out, "  no edge ends a path: the DAG is the CFG");
    }
    for e in c.edges.iter().filter(|e| e.cut) {
        let starts = c
            .dummies
            .iter()
            .find(|d| d.kind == "start" && d.to == Some(e.to));
        let _ = writeln!(
            out,
            "  {:<12} becomes {} and {}",
            edge_name(f, e),
            format_args!("{} -> EXIT", name(f, e.from)),
            starts.map_or("-".into(), |d| dummy_name(f, d))
        );
    }

    let _ = writeln!(
        out,
        "\n4. numPaths(v): paths from v to EXIT (reverse topological order)"
    );
    let mut order: Vec<&profiler::explain::BlockRow> = c.blocks.iter().collect();
    order.sort_by_key(|b| b.num_paths);
    for b in order {
        let _ = writeln!(out, "  {:<6} {}", b.name, b.num_paths);
    }

    let _ = writeln!(
        out,
        "\n5. Edge values val(e): a path's id is the sum of the values on it"
    );
    for e in c.edges.iter().filter(|e| !e.cut) {
        let _ = writeln!(out, "  {:<16} {:>6}", edge_name(f, e), e.value);
    }
    for d in &c.dummies {
        let _ = writeln!(out, "  {:<16} {:>6}  (dummy)", dummy_name(f, d), d.value);
    }

    let _ = writeln!(
        out,
        "\n6. Spanning tree and chords (event counting, Ball & Larus section 3.3)"
    );
    let tree: Vec<String> = c
        .edges
        .iter()
        .filter(|e| e.tree && !e.cut)
        .map(|e| edge_name(f, e))
        .chain(
            c.dummies
                .iter()
                .filter(|d| d.tree)
                .map(|d| dummy_name(f, d)),
        )
        .collect();
    let _ = writeln!(out, "  tree: EXIT -> ENTRY, {}", tree.join(", "));
    let _ = writeln!(out, "  chords and their increments:");
    let _ = writeln!(out, "    at entry: {}", c.entry_probe);
    for e in &c.edges {
        if e.increment != "-" && e.increment != "- ; -" {
            let _ = writeln!(out, "    {:<16} {}", edge_name(f, e), e.increment);
        }
    }
    for (h, p) in &c.start_probes {
        let _ = writeln!(out, "    path start at {}: {p}", name(f, *h));
    }
    let _ = writeln!(out, "    at exit: {}", c.exit_probe);

    if let Some(code) = &f.instrumented {
        let _ = writeln!(
            out,
            "\n7. Instrumented bytecode (--profile=bl, plain placement: every edge adds its value)"
        );
        for e in c.edges.iter().filter(|e| e.plain != "-") {
            let _ = writeln!(out, "  {:<16} {}", edge_name(f, e), e.plain);
        }
        let _ = writeln!(
            out,
            "  (the listing's labels bN number the instrumented code's own blocks, edge stubs \
             included; the probe constants qN and path-end pairs eN hold the values above)"
        );
        out.push_str(code);
    }

    let _ = writeln!(out, "\n8. Path ids (regenerated from the values)");
    for p in &c.paths {
        let _ = writeln!(out, "  {:>4}  {}", p.id, path_lines(f, p));
    }
    if (c.paths.len() as u64) < c.num_paths {
        let _ = writeln!(
            out,
            "  ... {} more (--list-limit)",
            c.num_paths - c.paths.len() as u64
        );
    }

    if let Some(from) = &x.heat_from {
        let _ = writeln!(out, "\n9. Hot paths, from {from}");
        let rows = counted_paths(f);
        if rows.is_empty() {
            let _ = writeln!(out, "  none ran");
        }
        let total: u64 = rows.iter().map(|r| r.1).sum();
        for (id, count, text) in rows.iter().take(20) {
            let _ = writeln!(
                out,
                "  {count:>10}  {:>6}  path {id}: {text}",
                crate::profile::text::percent(*count, total)
            );
        }
        if !f.interprocedural.is_empty() {
            let _ = writeln!(
                out,
                "  interprocedural paths through {} (Melski & Reps; function:source lines):",
                f.name
            );
            let total: u64 = f.interprocedural.iter().map(|r| r.1).sum();
            for (id, count, text) in f.interprocedural.iter().take(20) {
                let _ = writeln!(
                    out,
                    "  {count:>10}  {:>6}  path {id}: {text}",
                    crate::profile::text::percent(*count, total)
                );
            }
        }
    }

    if let Some(table) = &c.kiter_table {
        let _ = writeln!(
            out,
            "\n10. {}-iteration paths: Roy & Srikant's Algorithm 1 (their Table 1)",
            x.k
        );
        out.push_str(table);
    }
}
