//! Lists the imports between the files of the workspace's crates, and the circles among them
//! (`e2e::import_graph`).
//!
//! Usage: `cargo run -p e2e --example import_graph -- [CRATE...]` (default: every crate:
//! lang, profiler, vm, vm (binary), tests). Exits 1 if a circle is found.

use std::path::Path;

use e2e::import_graph::{workspace_targets, ImportGraph};

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace");
    let mut circles = 0;
    for (name, dir, root) in workspace_targets(workspace) {
        let krate = name.split(' ').next().unwrap_or(&name);
        if !wanted.is_empty() && !wanted.iter().any(|w| w == krate || *w == name) {
            continue;
        }
        let graph = match ImportGraph::read(&dir, &root) {
            Ok(graph) => graph,
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(2);
            }
        };
        println!("# {name}");
        for (from, to, paths) in graph.edges() {
            println!("{from} -> {to}: {}", paths.join(", "));
        }
        for circle in graph.circles() {
            circles += 1;
            print!("CIRCLE {circle}");
        }
    }
    if circles > 0 {
        eprintln!("{circles} import circle(s)");
        std::process::exit(1);
    }
}
