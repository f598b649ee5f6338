//! The front end never panics (nor overflows its stack), whatever the input: random bytes,
//! random soups of C tokens, mutations of valid programs, and nesting at the depth limit.

use proptest::prelude::*;

/// Run the whole front end and render its diagnostics (rendering must not panic either).
fn front_end(source: &str) {
    match lang::check_source("fuzz.c", source) {
        Ok(program) => {
            let _ = program.dump();
        }
        Err(diags) => {
            let rendered = diags.render("fuzz.c", source);
            assert!(!diags.is_empty());
            assert!(rendered.contains("fuzz.c:"), "{rendered}");
            assert!(!rendered.contains("internal error"), "{rendered}");
        }
    }
}

/// Tokens of C (and a few of what is not C) to build token soups from.
const VOCABULARY: &[&str] = &[
    "int",
    "long",
    "unsigned",
    "char",
    "double",
    "void",
    "const",
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "struct",
    "float",
    "short",
    "signed",
    "_Bool",
    "1.5f",
    "sinf",
    "sizeof",
    "typedef",
    "enum",
    "static",
    "extern",
    "volatile",
    "register",
    "inline",
    "T",
    "lbl",
    "rand",
    "srand",
    "[",
    "]",
    ".",
    "#define M(a) a\n",
    "#include <stdint.h>\n",
    "main",
    "x",
    "y",
    "a",
    "printf",
    "puts",
    "sqrt",
    "exit",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "<<=",
    ">>=",
    "&=",
    "|=",
    "^=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "&",
    "|",
    "^",
    "~",
    "!",
    "&&",
    "||",
    "?",
    ":",
    "++",
    "--",
    ".",
    "->",
    "...",
    "0",
    "1",
    "42",
    "0x1f",
    "077",
    "4294967296",
    "1.5",
    "1e3",
    "'a'",
    "'\\n'",
    "\"%d\\n\"",
    "\"s\"",
    "#include <stdio.h>\n",
    "#include <math.h>\n",
    "#define",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "@",
    "\n",
];

const SEED_PROGRAMS: &[&str] = &[
    "#include <stdio.h>\nint g[3] = {1, 2, 3};\nint f(int v[], int n) { int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }\nint main(void) { printf(\"%d\\n\", f(g, 3)); return 0; }\n",
    "#include <math.h>\ndouble h(double x) { return x > 1 ? sqrt(x) : -x; }\nint main(void) { long l = 5; unsigned u = 3u; char c = 'c'; switch (l) { case 1: u++; default: c += u; } while (c) c--; do { l <<= 1; } while (l < 100); return (int)h(l); }\n",
    "int m[2][2] = {{1, 2}, {3, 4}};\nint r(int x) { if (x <= 0) return 0; else return x + r(x - 1); }\nint main(void) { int a = m[1][1], b = (a, 2); a = b ? a : b; a = !a || b && ~a; return r(a) % 7; }\n",
    "typedef unsigned char T;\nenum E { A, B = 4 };\nstatic T t[3] = { [1] = B };\nint k(n) int n; { static int s; s += n; return s; }\nint main(void) { int i = 0; again: i++; if (i < A + 3) goto again; return (int)sizeof(T) + k(t[1]) + (int)sizeof t; }\n",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..80).prop_map(|toks| toks.join(" "))
}

/// A valid program with some of its tokens (split at spaces) deleted, duplicated or replaced.
fn mutated_program() -> impl Strategy<Value = String> {
    (
        prop::sample::select(SEED_PROGRAMS),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                0u8..3,
                prop::sample::select(VOCABULARY),
            ),
            1..6,
        ),
    )
        .prop_map(|(program, edits)| {
            let mut words: Vec<String> = program.split(' ').map(str::to_string).collect();
            for (at, kind, tok) in edits {
                if words.is_empty() {
                    break;
                }
                let i = at.index(words.len());
                match kind {
                    0 => {
                        words.remove(i);
                    }
                    1 => {
                        let w = words[i].clone();
                        words.insert(i, w);
                    }
                    _ => words[i] = tok.to_string(),
                }
            }
            words.join(" ")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        front_end(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_token_soups(source in token_soup()) {
        front_end(&source);
    }

    #[test]
    fn mutated_valid_programs(source in mutated_program()) {
        front_end(&source);
    }
}

#[test]
fn seed_programs_are_valid() {
    for p in SEED_PROGRAMS {
        assert!(lang::check_source("seed.c", p).is_ok(), "{p}");
    }
}

#[test]
fn nesting_at_the_limit_is_checked_without_overflow() {
    // Just under the limit: accepted, and the recursive checker must cope (in a test
    // thread's small stack) with expression depth and statement depth at the same time.
    let depth = lang::ast::MAX_DEPTH as usize - 2;
    let expr = format!("{}x{}", "-(".repeat(depth), ")".repeat(depth));
    let inner = format!("x = {expr};");
    let source = format!(
        "int main(void) {{ int x = 1; {}{}{} return x; }}\n",
        "if (x) ".repeat(depth),
        inner,
        ""
    );
    front_end(&source);
    assert!(lang::check_source("deep.c", &source).is_ok());
    let init = format!(
        "int a[1] = {}1{};\nint main(void) {{ return a[0]; }}\n",
        "{".repeat(depth),
        "}".repeat(depth)
    );
    front_end(&init);
    let conds = format!(
        "int main(void) {{ int x = 1; return {}x{}; }}\n",
        "x ? ".repeat(depth),
        " : 0".repeat(depth)
    );
    front_end(&conds);
}

#[test]
fn nesting_checked_on_the_callers_thread_fits_a_small_stack() {
    // Programs this shallow are checked on the caller's thread (no large-stack thread):
    // every split between statement and expression nesting must fit in 1 MiB, half a test
    // thread's stack, even in a debug build.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for stmts in (0..=44).step_by(4) {
                let exprs = 44 - stmts;
                let expr = format!("{}x{}", "-(".repeat(exprs), ")".repeat(exprs));
                let source = format!(
                    "int main(void) {{ int x = 1; {}x = {expr}; return x; }}\n",
                    "if (x) ".repeat(stmts)
                );
                assert!(lang::check_source("shallow.c", &source).is_ok(), "{source}");
            }
        })
        .unwrap();
    assert!(worker.join().is_ok());
}

/// Pieces of preprocessing directives and macro uses, to build directive soups from.
const DIRECTIVE_PIECES: &[&str] = &[
    "#define A(x, ...) x ## __VA_ARGS__ # x",
    "#define B A(B, B)",
    "#define C(a) C(a) a ## a",
    "#define D defined(A) && A(1,2)",
    "#define E(",
    "#define F(x,x) x",
    "#define G #",
    "#define H(x) #",
    "#define I ##",
    "#undef A",
    "#undef",
    "#if",
    "#if D",
    "#if 1 / 0",
    "#if (1 ? 2 : 3) << 70",
    "#if 'ab' || \"s\"",
    "#ifdef A",
    "#ifndef B",
    "#elif 1",
    "#elif",
    "#else",
    "#endif",
    "#include \"no/such/file.h\"",
    "#include <stdio.h>",
    "#include <nope.h>",
    "#include A(1)",
    "#include",
    "#line 0",
    "#line 5 \"f.c\"",
    "#line x",
    "#error stop",
    "#pragma once",
    "#pragma",
    "#",
    "# 12 \"x\"",
    "#garbage",
    "_Pragma(\"x\")",
    "_Pragma(",
    "A(1, 2)",
    "A(",
    "A(()",
    ")",
    "B C(C) D E",
    "__FILE__ __LINE__ __VA_ARGS__",
    "int main(void) { return A(0,); }",
    "/*",
    "*/",
    "//",
    "\\",
    "'",
    "\"",
    "??=",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random lines of directives and macro uses: the preprocessor and the whole front end
    /// never panic, and every error renders in a file.
    #[test]
    fn directive_soup_never_panics(lines in prop::collection::vec(
        (0..DIRECTIVE_PIECES.len(), 0..DIRECTIVE_PIECES.len(), any::<bool>()), 0..40)
    ) {
        let mut source = String::new();
        for (a, b, join) in lines {
            source.push_str(DIRECTIVE_PIECES[a]);
            source.push(if join { ' ' } else { '\n' });
            source.push_str(DIRECTIVE_PIECES[b]);
            source.push('\n');
        }
        let options = lang::PreprocessOptions::default();
        if let Err(d) = lang::preprocess::preprocess("fuzz.c", &source, &options) {
            let rendered = d.render("fuzz.c", &source);
            prop_assert!(rendered.contains("fuzz.c:"), "{}", rendered);
        }
        front_end(&source);
    }
}

/// Deep nesting in the preprocessor (macro arguments, `#if` parentheses) is an error, not a
/// stack overflow, and an exponential macro stops at the expansion guard.
#[test]
fn preprocessor_nesting_and_size_are_bounded() {
    let n = 100_000;
    let nested_args = format!(
        "#define I(x) x\nint v = {}1{};\n",
        "I(".repeat(n),
        ")".repeat(n)
    );
    let nested_if = format!("#if {}1{}\n#endif\n", "(".repeat(n), ")".repeat(n));
    let nested_unary = format!("#if {}1\n#endif\n", "- ".repeat(n));
    let mut doubling = String::new();
    for i in 0..40 {
        doubling.push_str(&format!("#define M{i} M{} M{}\n", i + 1, i + 1));
    }
    doubling.push_str("M0\n");
    let deep_args = format!(
        "#define I(x) x\nint v = {}1{};\n",
        "I(".repeat(300),
        ")".repeat(300)
    );
    for source in [nested_args, deep_args, nested_if, nested_unary, doubling] {
        let d = lang::preprocess::preprocess("deep.c", &source, &Default::default())
            .expect_err("an error");
        let rendered = d.render("deep.c", &source);
        assert!(rendered.contains("deep.c:"), "{rendered}");
    }
}

/// More than 64 MiB of output (here a 1 MiB header included 70 times) is an error.
#[test]
fn preprocessor_output_is_bounded() {
    let dir = std::env::temp_dir().join(format!("pp_big_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let line = format!("int x{};\n", "0".repeat(60));
    std::fs::write(dir.join("big.h"), line.repeat((1 << 20) / line.len())).expect("write big.h");
    let source = "#include \"big.h\"\n".repeat(70);
    let main = dir.join("main.c").display().to_string();
    let d =
        lang::preprocess::preprocess(&main, &source, &Default::default()).expect_err("too large");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        d.iter().any(|d| d.message.contains("larger than 64 MiB")),
        "{}",
        d.summary(&source)
    );
}
