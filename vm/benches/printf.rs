//! Microbenchmark of `vm::printf::format`: typical conversions, and the exact-decimal
//! worst cases (`%f` of 1e300, `%.17g`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use vm::printf::{format, PrintfArg};

fn bench(c: &mut Criterion) {
    let cases: [(&str, &str, PrintfArg<'static>); 8] = [
        ("int", "%d\n", PrintfArg::Int(-123_456)),
        ("int_padded", "%08x|%-6d\n", PrintfArg::UInt(0xbeef)),
        ("fixed", "%.6f\n", PrintfArg::Double(-12_345.678_901)),
        ("fixed_2", "%8.2f\n", PrintfArg::Double(2.5e-3)),
        ("exp", "%e\n", PrintfArg::Double(6.022e23)),
        ("general", "%g\n", PrintfArg::Double(1.234_567e-5)),
        ("general_17", "%.17g\n", PrintfArg::Double(0.1)),
        ("fixed_huge", "%f\n", PrintfArg::Double(1e300)),
    ];
    let mut group = c.benchmark_group("printf");
    for (name, fmt, arg) in cases {
        let pieces = lang::printf_format::parse(fmt.as_bytes()).expect("valid format");
        let args = [arg, arg];
        let mut out = Vec::with_capacity(512);
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                format(black_box(&pieces), black_box(&args), &mut out);
                black_box(out.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
