//! The logic of `vmrun forest --k K --stream "* 6 2 0 0 2 ..."` (the VM's command line only
//! parses arguments and calls [`run`]): builds the k-SF of a raw stream of BL path ids
//! ([`KSlabForest::push`], one fresh cursor at each `*`) and its k-IPF ([`KSlabForest::to_ipf`])
//! and prints both.
//!
//! - `json`: `{"k": K, "ksf": [{"ids": [...], "count": c}, ...], "ipf": [...]}`, every node of
//!   each forest written as the label sequence from its root to it; roots by label, then depth
//!   first with children by label. The k-SF lists every node Figure 6 creates, including the
//!   zero-count upper nodes of slabs after the first (see [`crate::kblpp`]).
//! - `text`: both forests as indented trees (`label (count)`) with their statistics.
//! - `dot`: both forests as Graphviz clusters.
//!
//! A bad token is a [`ForestError::Stream`] naming its position; `k = 0` is a
//! [`ForestError::Usage`]. Both exit with status 2.

use super::forest::{KSlabForest, LabeledNode, RootKey, Siblings};
use super::stream::{parse_stream, StreamError};
use crate::cfg_command::Format;
use crate::executor::StreamItem;
use std::fmt::{self, Write};

/// Everything `vmrun forest` was asked to do.
#[derive(Clone, Debug)]
pub struct ForestCommand {
    /// `--k`: the maximum number of BL paths in a profiled sequence (at least 1).
    pub k: u32,
    /// `--stream`: the stream text (`*` and BL path ids).
    pub stream: String,
    /// `--format`.
    pub format: Format,
    /// `--siblings`: the k-SF's sibling order (does not change any count).
    pub siblings: Siblings,
}

/// Why the command failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForestError {
    /// A bad option value.
    Usage(String),
    /// A bad stream token.
    Stream(StreamError),
}

impl ForestError {
    /// The exit status: 2 for both.
    pub fn exit_code(&self) -> i32 {
        2
    }
}

impl fmt::Display for ForestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForestError::Usage(m) => f.write_str(m),
            ForestError::Stream(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ForestError {}

/// The forest of a stream: one function (0), a fresh cursor at the start and at every `*`.
pub fn build(k: u32, siblings: Siblings, stream: &[StreamItem]) -> KSlabForest {
    let mut forest = KSlabForest::with_siblings(k, siblings);
    let mut cursor = forest.start();
    for item in stream {
        match *item {
            StreamItem::Invocation => cursor = forest.start(),
            StreamItem::Path(id) => {
                forest.push(&mut cursor, RootKey::new(0, id));
            }
        }
    }
    forest
}

/// Runs the command; returns what to print on standard output.
pub fn run(cmd: &ForestCommand) -> Result<String, ForestError> {
    if cmd.k == 0 {
        return Err(ForestError::Usage(
            "--k must be at least 1 (the longest profiled sequence of BL paths)".into(),
        ));
    }
    let stream = parse_stream(&cmd.stream).map_err(ForestError::Stream)?;
    let forest = build(cmd.k, cmd.siblings, &stream);
    let ipf = forest.to_ipf();
    let ksf_nodes = forest.labeled_nodes();
    let ipf_nodes = ipf.labeled_nodes();
    let k = cmd.k;
    let mut out = String::new();
    match cmd.format {
        Format::Json => {
            let _ = writeln!(out, "{{\"k\": {k},");
            write_json_list(&mut out, "ksf", &ksf_nodes, ",");
            write_json_list(&mut out, "ipf", &ipf_nodes, "}");
        }
        Format::Text => {
            let s = ipf.stats();
            let max_levels = if k == 1 { 1 } else { 2 * u64::from(k) - 2 };
            let _ = writeln!(
                out,
                "{k}-SF: {} nodes in {} trees, {} levels (at most {max_levels}); {} paths, {} hash-table operations ({} slabs), {} sibling steps",
                s.ksf_nodes,
                s.ksf_roots,
                forest.levels(),
                s.pushes,
                s.hash_ops,
                s.slab_starts,
                s.sibling_steps
            );
            write_text_tree(&mut out, &ksf_nodes);
            let _ = writeln!(
                out,
                "{k}-IPF: {} nodes, average degree of internal nodes {:.2}, average leaf depth {:.2}",
                s.ipf.nodes, s.ipf.avg_internal_degree, s.ipf.avg_leaf_depth
            );
            write_text_tree(&mut out, &ipf_nodes);
        }
        Format::Dot => {
            out.push_str("digraph kblpp {\n  node [shape=box, fontname=monospace];\n");
            write_dot_cluster(&mut out, "ksf", &format!("{k}-SF"), &ksf_nodes);
            write_dot_cluster(&mut out, "ipf", &format!("{k}-IPF"), &ipf_nodes);
            out.push_str("}\n");
        }
    }
    Ok(out)
}

fn write_json_list(out: &mut String, name: &str, nodes: &[LabeledNode], close: &str) {
    if nodes.is_empty() {
        let _ = writeln!(out, " \"{name}\": []{close}");
        return;
    }
    let _ = writeln!(out, " \"{name}\": [");
    for (i, n) in nodes.iter().enumerate() {
        let ids: Vec<String> = n.ids.iter().map(u64::to_string).collect();
        let sep = if i + 1 == nodes.len() { "" } else { "," };
        let _ = writeln!(
            out,
            "  {{\"ids\": [{}], \"count\": {}}}{sep}",
            ids.join(", "),
            n.count
        );
    }
    let _ = writeln!(out, " ]{close}");
}

fn write_text_tree(out: &mut String, nodes: &[LabeledNode]) {
    for n in nodes {
        let indent = 2 * n.ids.len();
        let _ = writeln!(
            out,
            "{:indent$}{} ({})",
            "",
            n.ids.last().expect("a node has a label"),
            n.count
        );
    }
}

/// One cluster; a node's parent is the latest earlier node one level up (preorder).
fn write_dot_cluster(out: &mut String, prefix: &str, title: &str, nodes: &[LabeledNode]) {
    let _ = writeln!(
        out,
        "  subgraph cluster_{prefix} {{\n    label=\"{title}\";"
    );
    let mut open: Vec<usize> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let _ = writeln!(
            out,
            "    {prefix}{i} [label=\"{}\\n{}\"];",
            n.ids.last().expect("a node has a label"),
            n.count
        );
        open.truncate(n.ids.len() - 1);
        if let Some(&parent) = open.last() {
            let _ = writeln!(out, "    {prefix}{parent} -> {prefix}{i};");
        }
        open.push(i);
    }
    out.push_str("  }\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(k: u32, stream: &str, format: Format) -> ForestCommand {
        ForestCommand {
            k,
            stream: stream.into(),
            format,
            siblings: Siblings::Append,
        }
    }

    #[test]
    fn json_lists_both_forests_in_label_order() {
        let out = run(&cmd(2, "* 1 1 *\n 0", Format::Json)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let expected = serde_json::json!({
            "k": 2,
            // First slab: <1> counted; second slab: root 1 (not counted) and <1,1> counted;
            // after `*`: <0> counted.
            "ksf": [{"ids": [0], "count": 1}, {"ids": [1], "count": 1}, {"ids": [1, 1], "count": 1}],
            "ipf": [{"ids": [0], "count": 1}, {"ids": [1], "count": 2}, {"ids": [1, 1], "count": 1}],
        });
        assert_eq!(v, expected);
    }

    #[test]
    fn empty_stream_gives_empty_forests() {
        let out = run(&cmd(3, "*", Format::Json)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v, serde_json::json!({"k": 3, "ksf": [], "ipf": []}));
    }

    #[test]
    fn text_and_dot_draw_the_trees() {
        let text = run(&cmd(2, "* 1 1", Format::Text)).unwrap();
        assert!(
            text.contains(
                "2-SF: 2 nodes in 1 trees, 2 levels (at most 2); 2 paths, 1 hash-table operations (2 slabs)"
            ),
            "{text}"
        );
        assert!(
            text.contains("\n  1 (1)\n    1 (1)\n2-IPF: 2 nodes"),
            "{text}"
        );
        let dot = run(&cmd(2, "* 1 1", Format::Dot)).unwrap();
        assert!(
            dot.contains("ksf0 -> ksf1;") && dot.contains("ipf0 -> ipf1;"),
            "{dot}"
        );
        assert!(dot.ends_with("}\n"));
    }

    #[test]
    fn errors_exit_2() {
        let e = run(&cmd(0, "* 1", Format::Text)).unwrap_err();
        assert!(matches!(e, ForestError::Usage(_)) && e.exit_code() == 2);
        let e = run(&cmd(2, "* 1 two", Format::Text)).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("token 3 'two'"), "{e}");
    }
}
