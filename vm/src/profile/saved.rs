//! Saved profiles read back and rendered again without running the program (`vmrun report
//! PROFILE.json`): the text report ([`super::report`], with the k-IPF trees of a `kbl`
//! profile), the same content as JSON for scripts, or Graphviz dot (the k-IPF trees of a
//! `kbl` profile; every other profile's CFGs with the flow its paths counted on each edge).
//!
//! A profile file is input from anywhere, so [`load`] trusts nothing: the text must be at
//! most [`MAX_PROFILE_BYTES`], parse as a profile (wrong types, a number beyond 2^64 - 1, a
//! missing member and nesting deeper than 128 levels are `serde_json` errors, found before any
//! deep recursion or large allocation), and pass [`Profile::check`] (block ids, successors
//! and paths that are walks of the function's CFG, path ids below `static_paths`, counts and
//! orders, the k-IPF and the other modes' members). Every failure is one line naming where
//! the text is wrong or what it contradicts. Rendering allocates in proportion to the text
//! read (never to a count or an id written in it).
//!
//! Nesting is limited to [`MAX_NESTING`] levels by a scan before parsing: the parser has its
//! own limit (128) but skips members it does not know without one.

use std::fmt::Write;

use serde_json::{json, Value};

use super::text::{by_heat, lines_of, path_texts, shown, ReportOptions};
use super::{FunctionProfile, IpfEntry, Profile};

/// The largest profile file read (1 GiB): a longer one is refused before it is parsed.
pub const MAX_PROFILE_BYTES: u64 = 1 << 30;

/// The value of the JSON report's `format` member.
pub const REPORT_FORMAT: &str = "vmrun-path-report";

/// How `vmrun report` renders a profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// The human report.
    #[default]
    Text,
    /// The report's content as JSON ([`REPORT_FORMAT`]).
    Json,
    /// Graphviz dot.
    Dot,
}

impl std::str::FromStr for ReportFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(ReportFormat::Text),
            "json" => Ok(ReportFormat::Json),
            "dot" => Ok(ReportFormat::Dot),
            _ => Err(format!("unknown format '{s}' (expected text, json or dot)")),
        }
    }
}

/// The deepest nesting of arrays and objects a profile may have (a profile nests 6 levels;
/// members it does not know are ignored, but not beyond this depth).
pub const MAX_NESTING: usize = 32;

/// Reads a saved profile: parsed, then checked ([`Profile::check`]); the error is one line.
pub fn load(text: &str) -> Result<Profile, String> {
    if text.len() as u64 > MAX_PROFILE_BYTES {
        return Err(format!(
            "the profile is {} bytes, more than the {MAX_PROFILE_BYTES} read",
            text.len()
        ));
    }
    check_nesting(text)?;
    Profile::from_json(text).map_err(|e| e.replace('\n', " "))
}

/// Refuses arrays and objects nested deeper than [`MAX_NESTING`], naming where (a scan that
/// skips strings; the parser reports any other syntax error).
fn check_nesting(text: &str) -> Result<(), String> {
    let (mut depth, mut line, mut col) = (0usize, 1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        col += 1;
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "line {line}:{col}: arrays and objects nested more than {MAX_NESTING} deep"
                    ));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            '\n' => {
                line += 1;
                col = 0;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Renders `profile` in `format`, with the report's `top` and `min_share`.
pub fn render(profile: &Profile, options: &ReportOptions, format: ReportFormat) -> String {
    match format {
        ReportFormat::Text => super::report::render(profile, options),
        ReportFormat::Json => {
            let mut text = serde_json::to_string_pretty(&report_json(profile, options))
                .expect("a JSON value always serializes");
            text.push('\n');
            text
        }
        ReportFormat::Dot => dot(profile, options),
    }
}

/// [`load`], then [`render`].
pub fn report_text(
    text: &str,
    options: &ReportOptions,
    format: ReportFormat,
) -> Result<String, String> {
    Ok(render(&load(text)?, options, format))
}

/// `part / whole` as a percentage rounded to 0.1 (0 for an empty whole).
fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// The k-IPF trees of `f` the report shows: roots with at least `min_share` percent of the
/// function's paths, hottest first, the first `top`, each with the nodes kept by the paper's
/// pruning (positions into `ipf`).
fn ipf_trees(f: &FunctionProfile, ipf: &[IpfEntry], options: &ReportOptions) -> Vec<Vec<usize>> {
    let (_, mut roots) = crate::modes::kbl::report::roots_shown(ipf, f.total(), options.min_share);
    roots.truncate(shown(roots.len(), options.top));
    roots
        .into_iter()
        .map(|r| crate::modes::kbl::report::pruned(ipf, r, options.min_share).0)
        .collect()
}

/// The report's content as a JSON value.
fn report_json(profile: &Profile, options: &ReportOptions) -> Value {
    let grand: u64 = profile
        .functions
        .iter()
        .fold(0u64, |acc, f| acc.saturating_add(f.total()));
    let functions: Vec<Value> = by_heat(profile)
        .into_iter()
        .map(|f| {
            let total = f.total();
            let texts = path_texts(f);
            let n = shown(f.paths.len(), options.top);
            let paths: Vec<Value> = f.paths[..n]
                .iter()
                .map(|p| {
                    json!({"id": p.id, "count": p.count, "share": share(p.count, total),
                           "lines": lines_of(&texts, p.id)})
                })
                .collect();
            let mut v = json!({
                "name": f.name, "file": f.file, "line": f.line, "total": total,
                "share": share(total, grand), "static_paths": f.static_paths,
                "executed": f.paths.len(), "paths": paths,
                "more_paths": f.paths.len() - n,
            });
            if let Some(ipf) = &f.ipf {
                let trees: Vec<Value> = ipf_trees(f, ipf, options)
                    .into_iter()
                    .map(|kept| {
                        let root = ipf[kept[0]].count;
                        let nodes: Vec<Value> = kept
                            .iter()
                            .map(|&i| {
                                json!({"ids": ipf[i].ids, "count": ipf[i].count,
                                       "share_of_root": share(ipf[i].count, root)})
                            })
                            .collect();
                        Value::Array(nodes)
                    })
                    .collect();
                v["ipf_trees"] = Value::Array(trees);
            }
            v
        })
        .collect();
    let mut v = json!({
        "format": REPORT_FORMAT, "version": 1, "program": profile.program,
        "mode": profile.mode.name(), "k": profile.k, "path_ends": profile.path_ends.to_string(),
        "complete": profile.complete, "total": grand, "functions": functions,
    });
    if let Some(reason) = &profile.reason {
        v["reason"] = json!(reason);
    }
    if let Some(section) = &profile.interprocedural {
        let total = section
            .paths
            .iter()
            .fold(0u64, |acc, p| acc.saturating_add(p.count));
        let n = shown(section.paths.len(), options.top);
        let paths: Vec<Value> = section.paths[..n]
            .iter()
            .map(|p| {
                json!({"id": p.id, "count": p.count, "share": share(p.count, total),
                       "lines": p.lines})
            })
            .collect();
        v["interprocedural"] = json!({"kind": section.kind, "total": total, "paths": paths,
                                      "more_paths": section.paths.len() - n});
    }
    v
}

/// A dot string literal.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialize")
}

/// Graphviz dot: per function a cluster, the k-IPF trees of a `kbl` profile (a node per kept
/// k-IPF node, labelled with its path id, count and share of its root), otherwise its CFG
/// with each edge labelled with the flow the counted paths put on it (edges no counted path
/// took are dashed).
fn dot(profile: &Profile, options: &ReportOptions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "digraph profile {{\n  label={};\n  node [shape=box, fontname=\"monospace\"];",
        quoted(&format!(
            "{} (mode {}{})",
            profile.program,
            profile.mode,
            if profile.complete { "" } else { ", incomplete" }
        ))
    );
    for (fi, f) in by_heat(profile).into_iter().enumerate() {
        let _ = writeln!(
            out,
            "  subgraph cluster_{fi} {{\n    label={};",
            quoted(&format!(
                "{} (line {}): {} paths",
                f.name,
                f.line,
                f.total()
            ))
        );
        match &f.ipf {
            Some(ipf) => dot_ipf(&mut out, fi, f, ipf, options),
            None => dot_cfg(&mut out, fi, f),
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

/// The kept nodes of `f`'s k-IPF trees, each linked to its parent.
fn dot_ipf(
    out: &mut String,
    fi: usize,
    f: &FunctionProfile,
    ipf: &[IpfEntry],
    options: &ReportOptions,
) {
    let texts = path_texts(f);
    for kept in ipf_trees(f, ipf, options) {
        let root = ipf[kept[0]].count;
        for (j, &i) in kept.iter().enumerate() {
            let e = &ipf[i];
            let id = *e.ids.last().expect("k-IPF nodes have ids");
            let _ = writeln!(
                out,
                "    f{fi}n{i} [label={}];",
                quoted(&format!(
                    "{id}: {}\n{} ({}% of root)",
                    lines_of(&texts, id),
                    e.count,
                    share(e.count, root)
                ))
            );
            // The parent is the last kept node before it one level up.
            if let Some(&parent) = kept[..j]
                .iter()
                .rev()
                .find(|&&p| ipf[p].ids.len() + 1 == e.ids.len())
            {
                let _ = writeln!(out, "    f{fi}n{parent} -> f{fi}n{i};");
            }
        }
    }
}

/// `f`'s CFG with the flow of its counted paths on each edge.
fn dot_cfg(out: &mut String, fi: usize, f: &FunctionProfile) {
    let mut flow: std::collections::HashMap<(u32, u32), u64> = std::collections::HashMap::new();
    for p in &f.paths {
        let walk: Vec<u32> = p.blocks.iter().copied().chain(p.end).collect();
        for w in walk.windows(2) {
            let c = flow.entry((w[0], w[1])).or_default();
            *c = c.saturating_add(p.count);
        }
    }
    let runs = f.block_runs();
    for b in &f.blocks {
        let lines = b
            .lines
            .map_or("(no lines)".to_string(), super::text::lines_label);
        let _ = writeln!(
            out,
            "    f{fi}b{} [label={}];",
            b.id,
            quoted(&format!("b{} {lines}\nran {}", b.id, runs[b.id as usize]))
        );
    }
    let max = flow.values().copied().max().unwrap_or(1).max(1);
    for b in &f.blocks {
        for &s in &b.succs {
            match flow.get(&(b.id, s)) {
                Some(&c) => {
                    let width = 1.0 + 4.0 * c as f64 / max as f64;
                    let _ = writeln!(
                        out,
                        "    f{fi}b{} -> f{fi}b{s} [label=\"{c}\", penwidth={width:.1}];",
                        b.id
                    );
                }
                None => {
                    let _ = writeln!(out, "    f{fi}b{} -> f{fi}b{s} [style=dashed];", b.id);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings_only() {
        let deep = "[".repeat(MAX_NESTING + 1);
        assert!(check_nesting(&deep)
            .unwrap_err()
            .contains("nested more than"));
        let quoted = format!("{{\"a\": \"{}\\\"{}\"}}", deep, deep);
        assert_eq!(check_nesting(&quoted), Ok(()));
        assert_eq!(check_nesting(&"[".repeat(MAX_NESTING)), Ok(()));
    }
}
