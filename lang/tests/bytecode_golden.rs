//! Golden tests: the exact bytecode compiled from small snippets (the disassembler's output).
//!
//! Each snapshot shows the compiler's choices that matter for speed and for the profilers:
//! loops tested at the bottom, fused compare-and-branch and increment-and-branch, immediate
//! forms, switch tables versus compare chains, short-circuit conditions as branches, array
//! rows and bounds-checked element access, and the source location of every instruction.
//! Refresh after an intended change with `cargo insta review` (or `INSTA_UPDATE=always`).

use lang::bytecode::disasm::disassemble;

fn disasm(source: &str) -> String {
    match lang::compile_source("t.c", source) {
        Ok(p) => {
            lang::bytecode::verify::verify(&p).expect("compiled code verifies");
            disassemble(&p)
        }
        Err(d) => panic!("does not compile:\n{}", d.render("t.c", source)),
    }
}

#[test]
fn bytecode_recursive_fib() {
    insta::assert_snapshot!(disasm(
        "int fib(int n) {\n    if (n < 2) return n;\n    return fib(n - 1) + fib(n - 2);\n}\nint main(void) { return fib(10); }\n"
    ));
}

#[test]
fn bytecode_for_loop_fuses_step_and_test() {
    insta::assert_snapshot!(disasm(
        "int main(void) {\n    int s = 0;\n    int n = 100;\n    for (int i = 0; i < n; i++) s += i;\n    for (long j = 0; j < 7; j++) s -= 1;\n    return s;\n}\n"
    ));
}

#[test]
fn bytecode_while_and_do_while_test_at_the_bottom() {
    insta::assert_snapshot!(disasm(
        "int main(void) {\n    int x = 10, y = 0;\n    while (x > 0) { x = x - 3; if (x == 4) continue; y++; }\n    do { y--; } while (y >= 2);\n    while (1) { if (y > 100) break; y = y * 2 + 1; }\n    return y;\n}\n"
    ));
}

#[test]
fn bytecode_short_circuit_conditions_are_branches() {
    insta::assert_snapshot!(disasm(
        "int f(int a, int b, double d) {\n    if (a < b && (b != 3 || !(d < 1.5))) return 1;\n    int v = a > 0 || b > 0;\n    return v + !a;\n}\nint main(void) { return f(1, 2, 3.0); }\n"
    ));
}

#[test]
fn bytecode_dense_switch_uses_a_jump_table() {
    insta::assert_snapshot!(disasm(
        "int main(void) {\n    int r = 0;\n    for (int i = 0; i < 6; i++) {\n        switch (i) {\n        case 0: r += 1; break;\n        case 1: r += 2;\n        case 2: r += 3; break;\n        case 3: case 4: r -= 1; break;\n        default: r = r * 2;\n        }\n    }\n    return r;\n}\n"
    ));
}

#[test]
fn bytecode_sparse_switch_uses_compares() {
    insta::assert_snapshot!(disasm(
        "int g(long v) {\n    switch (v) {\n    case -5: return 1;\n    case 1000: return 2;\n    case 100000: return 3;\n    }\n    return 0;\n}\nint main(void) { return g(3); }\n"
    ));
}

#[test]
fn bytecode_arrays_rows_and_parameters() {
    insta::assert_snapshot!(disasm(
        "double m[3][4];\nint sum(int a[], int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }\nint main(void) {\n    int v[5] = {1, 2, 3};\n    int g[2][5];\n    m[2][3] = 1.5;\n    g[1][4] = v[2]++;\n    return sum(v, 5) + sum(g[1], 5) + (int)m[2][3];\n}\n"
    ));
}

#[test]
fn bytecode_conversions_and_unsigned_arithmetic() {
    insta::assert_snapshot!(disasm(
        "int main(void) {\n    char c = 'a';\n    unsigned u = 7;\n    long l = -3;\n    unsigned long ul = 5;\n    double d = c;\n    u = u - 1;\n    c += 1;\n    l = l / u;\n    ul = ul >> c % 8;\n    d = d * ul + u;\n    return (int)d + (u < 3) + (unsigned)c;\n}\n"
    ));
}

#[test]
fn bytecode_narrow_types_and_float() {
    insta::assert_snapshot!(disasm(
        "#include <math.h>\nunsigned char bytes[4];\nint main(void) {\n    short s = 300;\n    unsigned short us = s * 300;\n    _Bool b = us;\n    float f = 0.5f;\n    double d = f;\n    bytes[1] = s + us;\n    s++;\n    f = f * 3 + b;\n    f = sqrtf(f) + sinf(f);\n    d = d + f;\n    f = d;\n    b = d;\n    return (int)f + s + bytes[1] + (f < d);\n}\n"
    ));
}

#[test]
fn bytecode_globals_and_library_calls() {
    insta::assert_snapshot!(disasm(
        "#include <stdio.h>\n#include <math.h>\n#include <stdlib.h>\nint count = 3;\ndouble xs[2] = {1.0, 4.0};\nint main(void) {\n    count++;\n    printf(\"%d %s %.2f\\n\", count, \"x\", sqrt(xs[1]) + pow(2.0, 3.0));\n    puts(\"done\");\n    putchar('\\n');\n    return abs(-count);\n}\n"
    ));
}

/// gcc -O0's order where C leaves it unspecified (see the `compile` module docs): arguments
/// last to first; a call stored into an element runs after the indices (its arguments before
/// them); a compound assignment's side-effecting value comes before the place; a global on
/// the left of `+` is read after a call on the right.
#[test]
fn bytecode_evaluation_order_follows_gcc() {
    insta::assert_snapshot!(disasm(
        "int g;\nint a[4];\nint f(int x, int y) { g = x; return y; }\nint main(void) {\n    a[g] = f(1, g);\n    a[g] += f(2, 3);\n    return g + f(g, 0);\n}\n"
    ));
}

#[test]
fn bytecode_block_scopes_of_addressed_locals() {
    // `t`'s block (a loop body) is opened before the loop and closed after it, where `break`
    // lands; `u`'s nested block ends at its `}` and at the `goto` that leaves it; the label
    // inside `u`'s block revives it (a jump from outside may enter there); `w` lives in the
    // function's own block, which needs no marks.
    insta::assert_snapshot!(disasm(
        "void use(int *p) { *p += 1; }\nint main(void) {\n    int w = 0;\n    use(&w);\n    for (int i = 0; i < 3; i++) {\n        int t = i;\n        use(&t);\n        if (t > 2) break;\n    }\n    {\n        int u = 1;\n    again:\n        use(&u);\n        if (u < 3) goto again;\n        if (u == 3) goto out;\n    }\nout:\n    return w;\n}\n"
    ));
}
