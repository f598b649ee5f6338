//! Interpreter benchmark: each twin of `programs/twins/` run in-process (compile + run, output
//! discarded), with the plain interpreter (`NoProbes`). The Lua/Python comparison with exact
//! commands is in BENCHMARKS.md; this bench tracks the VM itself across changes.
//! `cargo bench -p vm --bench twins`.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};

fn bench_twins(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs/twins");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.retain(|p| p.extension().is_some_and(|e| e == "c"));
    names.sort();
    let mut group = c.benchmark_group("twins");
    group.sample_size(10);
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        let options = vm::RunOptions::default();
        group.bench_function(&name, |b| {
            b.iter(|| {
                let r = vm::run_source(&name, &source, &options, &mut std::io::sink());
                assert_eq!(r.exit_status, 0, "{}", r.stderr);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_twins);
criterion_main!(benches);
