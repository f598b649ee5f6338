//! The time to tier a function up: its CFG from the bytecode, Ball-Larus numbering (smart, from
//! an edge profile), the plan, and the instrumented copy of its code (`tier_up_bl`), as the
//! function grows. Each function is a loop around `n` `if`/`else` statements (some nested in
//! a second loop, some `switch`es), so blocks, edges and static paths grow with `n`; its
//! number of instructions is printed with the results.
//! `cargo bench -p vm --bench tierup`; results in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use lang::bytecode::FuncIdx;
use profiler::{EdgeProfile, PathEnds};
use vm::modes::bl::tierup::tier_up_bl;
use vm::tier::cfg_build::FunctionCfg;

/// A program whose function `work` has about `n` branching statements.
fn source(n: usize) -> String {
    let mut body = String::new();
    for i in 0..n {
        match i % 4 {
            0 => body.push_str(&format!("        if (x % {} == 0) s += {i}; else s -= 1;\n", i % 7 + 2)),
            1 => body.push_str(&format!(
                "        for (int j = 0; j < 3; j++) {{ if (j == {}) s ^= j; }}\n",
                i % 3
            )),
            2 => body.push_str(&format!(
                "        switch (x % 4) {{ case 0: s += 1; break; case 1: s += {i}; case 2: s -= 2; break; default: s = s; }}\n"
            )),
            _ => body.push_str(&format!("        if (s > {i} && x < {i}) s = s / 2;\n")),
        }
    }
    format!(
        "int work(int x) {{\n    int s = 0;\n    while (x > 0) {{\n{body}        x = x - 1;\n    }}\n    return s;\n}}\nint main(void) {{ return work(3) & 0; }}\n"
    )
}

fn bench_tier_up(c: &mut Criterion) {
    let mut group = c.benchmark_group("tier_up");
    group.sample_size(20);
    for n in [4usize, 16, 64, 256, 1024] {
        let program =
            lang::compile_source("gen.c", &source(n)).expect("the generator's programs compile");
        let f = program
            .functions
            .iter()
            .position(|f| f.name == "work")
            .expect("work exists");
        let func = &program.functions[f];
        let edges = |fc: &FunctionCfg| EdgeProfile::zeros(fc.cfg());
        eprintln!("tier_up/{n}: {} instructions", func.code.len());
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                tier_up_bl(
                    FuncIdx(f as u16),
                    func,
                    PathEnds::Header,
                    Some(&edges),
                    0,
                    0,
                )
                .expect("tier-up succeeds")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_tier_up);
criterion_main!(benches);
