//! No file of any crate of the workspace stands on itself through others (issue 36): the
//! `use crate::...`, `use super::...` and path imports between files form no circle
//! (`e2e::import_graph`). `cargo run -p e2e --example import_graph -- CRATE` lists the edges.

use std::path::Path;

use e2e::import_graph::{workspace_targets, ImportGraph};

#[test]
fn no_crate_has_an_import_circle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace");
    let targets = workspace_targets(workspace);
    assert!(targets.len() >= 4, "found only {targets:?}");
    let mut report = String::new();
    for (name, dir, root) in targets {
        let graph = ImportGraph::read(&dir, &root).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !graph.edges().is_empty(),
            "{name}: no imports found, the reader is broken"
        );
        for circle in graph.circles() {
            report.push_str(&format!("{name}: {circle}"));
        }
    }
    assert!(report.is_empty(), "import circles:\n{report}");
}
