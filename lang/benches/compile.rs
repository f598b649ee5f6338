//! Compile-time benchmark: checking and compiling a generated 2,000-line program (the issue's
//! target: under 20 ms), and the preprocessor's share of it: on that program (two `#include`
//! lines, no macro) and on the same program written with macros; every standard header
//! included (target: at most 2 ms more than an empty program) and a Csmith program with its
//! headers (target: at most 50 ms). `cargo bench -p lang --bench compile`.

use criterion::{criterion_group, criterion_main, Criterion};

/// A deterministic program of about `lines` lines mixing every construct: functions with
/// parameters and array parameters, loops, `switch`, conditions, globals, doubles, printf.
fn generate(lines: usize) -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#include <math.h>\nint table[64];\ndouble acc = 0.0;\nlong total;\n",
    );
    let mut n = 0;
    while s.lines().count() < lines {
        s.push_str(&format!(
            "int f{n}(int a, int b, int v[]) {{\n\
             \x20   int s = 0;\n\
             \x20   long w = a * 3L + b;\n\
             \x20   double d = a / 2.0;\n\
             \x20   for (int i = 0; i < 16; i++) {{\n\
             \x20       s += v[i % 8] * (i + {n});\n\
             \x20       if (s > 1000 && (a < b || i == 3)) s -= 999;\n\
             \x20       else if (!(s & 1)) s = s ^ (b << 2);\n\
             \x20   }}\n\
             \x20   while (w > 10) {{ w = w / 3 - 1; d = d * 1.5 + sqrt(d + 1.0); }}\n\
             \x20   switch (s % 6) {{\n\
             \x20   case 0: s += 1; break;\n\
             \x20   case 1: s += 2;\n\
             \x20   case 2: s -= 3; break;\n\
             \x20   case 3: case 4: s = s * 2; break;\n\
             \x20   default: s = -s;\n\
             \x20   }}\n\
             \x20   table[(s & 63)] += (int)d;\n\
             \x20   total = total + w + s;\n\
             \x20   acc = acc + d;\n\
             \x20   return s + (int)(w % 1000);\n\
             }}\n"
        ));
        n += 1;
    }
    s.push_str("int main(void) {\n    int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n    int r = 0;\n");
    for i in 0..n {
        s.push_str(&format!("    r += f{i}(r % 100, {i}, v);\n"));
    }
    s.push_str("    printf(\"%d %ld %.3f\\n\", r, total, acc);\n    return 0;\n}\n");
    s
}

fn bench_compile(c: &mut Criterion) {
    let source = generate(2000);
    assert!(source.lines().count() >= 2000);
    if let Err(d) = lang::compile_source("gen.c", &source) {
        panic!(
            "generated program does not compile:\n{}",
            d.render("gen.c", &source)
        );
    }
    c.bench_function("compile_2000_lines", |b| {
        b.iter(|| lang::compile_source("gen.c", std::hint::black_box(&source)).is_ok())
    });
}

/// The generated program with its constants and a few expressions behind macros, a
/// function-like macro in every loop, and conditionals.
fn with_macros(source: &str) -> String {
    let prelude = "#define LIMIT 1000\n#define STEP(i, n) ((i) + (n))\n#define ODD(s) ((s) & 1)\n\
                   #if defined(LIMIT) && LIMIT > 10\n#define SHIFT 2\n#else\n#define SHIFT 3\n#endif\n";
    let body = source
        .replace("s > 1000", "s > LIMIT")
        .replace("(i + ", "STEP(i, ")
        .replace("(s & 1)", "ODD(s)")
        .replace("<< 2", "<< SHIFT");
    format!("{prelude}{body}")
}

fn bench_preprocess(c: &mut Criterion) {
    let options = lang::PreprocessOptions::default();
    let plain = generate(2000);
    let macros = with_macros(&plain);
    if let Err(d) = lang::compile_source("gen.c", &macros) {
        panic!("{}", d.render("gen.c", &macros));
    }
    c.bench_function("preprocess_2000_lines", |b| {
        b.iter(|| {
            lang::preprocess::preprocess("gen.c", std::hint::black_box(&plain), &options).is_ok()
        })
    });
    c.bench_function("preprocess_2000_lines_with_macros", |b| {
        b.iter(|| {
            lang::preprocess::preprocess("gen.c", std::hint::black_box(&macros), &options).is_ok()
        })
    });
    c.bench_function("compile_2000_lines_with_macros", |b| {
        b.iter(|| lang::compile_source("gen.c", std::hint::black_box(&macros)).is_ok())
    });
}

/// Every standard header the front end ships, included once, before an empty `main`: what
/// including them costs (the target: at most 2 ms), against the empty program alone.
fn bench_headers(c: &mut Criterion) {
    const HEADERS: &[&str] = &[
        "assert.h",
        "ctype.h",
        "errno.h",
        "float.h",
        "inttypes.h",
        "iso646.h",
        "limits.h",
        "locale.h",
        "math.h",
        "setjmp.h",
        "signal.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "string.h",
        "strings.h",
        "sys/time.h",
        "time.h",
        "unistd.h",
    ];
    let empty = "int main(void) {\n    return 0;\n}\n".to_string();
    let all: String = HEADERS
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .chain(std::iter::once(empty.clone()))
        .collect();
    if let Err(d) = lang::compile_source("headers.c", &all) {
        panic!("{}", d.render("headers.c", &all));
    }
    c.bench_function("compile_empty_program", |b| {
        b.iter(|| lang::compile_source("empty.c", std::hint::black_box(&empty)).is_ok())
    });
    c.bench_function("compile_every_standard_header", |b| {
        b.iter(|| lang::compile_source("headers.c", std::hint::black_box(&all)).is_ok())
    });
}

/// A Csmith program (`csmith --seed 1`, about 1,500 lines) with Csmith's headers (1,000 lines
/// of macros and functions in `safe_math.h`): the target is at most 50 ms. Skipped,
/// with a note, where Csmith is not installed (`apt-get install csmith libcsmith-dev`).
fn bench_csmith(c: &mut Criterion) {
    // (Csmith writes a `platform.info` into its working directory.)
    let generated = std::process::Command::new("csmith")
        .args(["--seed", "1"])
        .current_dir(std::env::temp_dir())
        .output();
    let Some(out) = generated.ok().filter(|o| o.status.success()) else {
        eprintln!("compile_csmith_seed_1: skipped, csmith is not installed");
        return;
    };
    let source = String::from_utf8_lossy(&out.stdout).into_owned();
    let options = lang::PreprocessOptions {
        include_dirs: vec!["/usr/include/csmith".into()],
        ..Default::default()
    };
    let files = [("csmith1.c", source.as_str())];
    if let Err(d) = lang::compile_sources_with(&files, &options) {
        panic!("{}", d.render("csmith1.c", &source));
    }
    c.bench_function("compile_csmith_seed_1", |b| {
        b.iter(|| lang::compile_sources_with(std::hint::black_box(&files), &options).is_ok())
    });
}

criterion_group!(
    benches,
    bench_compile,
    bench_preprocess,
    bench_headers,
    bench_csmith
);
criterion_main!(benches);
