//! The front end on valid programs: every construct of the language is accepted (and gcc, the
//! reference, accepts the same program with `-std=c99 -pedantic-errors`), and the HIR makes C's
//! precedence, associativity and conversions explicit as C99 specifies them.
//!
//! The HIR expectations are snapshots of `Program::dump()` (see `lang/src/hir.rs`, module
//! `dump`), in `tests/snapshots/`; refresh with
//! `INSTA_UPDATE=always cargo test -p lang --test front_end` (or `cargo insta review`) and
//! review the diff: each one was checked by hand against C99 6.3 (conversions) and 6.5
//! (expressions).

mod support;

use support::gcc_accepts;

use insta::assert_snapshot;

/// The HIR dump of `source`, which must be accepted.
fn hir(source: &str) -> String {
    match lang::check_source("prog.c", source) {
        Ok(p) => p.dump(),
        Err(d) => panic!("rejected:\n{}", d.render("prog.c", source)),
    }
}

/// The HIR dump of `body` placed in `int main(void) { ... }` after the standard includes.
fn main_hir(decls: &str, body: &str) -> String {
    hir(&format!("#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n{decls}\nint main(void) {{\n{body}\nreturn 0;\n}}\n"))
}

/// One program per construct of the spec (docs/language.md).
const CONSTRUCTS: &[(&str, &str)] = &[
    ("includes and comments", "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n// line\n/* block\n comment */\nint main(void) { return 0; }"),
    ("all scalar types", "int a; long b; unsigned c; unsigned int d; unsigned long e; unsigned long int f; long int g; long unsigned h; char i; double j; const int k = 1; int const l = 2;\nint main(void) { return a + k + l; }"),
    ("several declarators", "int a = 1, b, c[3] = {1, 2, 3}, d[2][2] = {{1, 2}, {3, 4}};\nint main(void) { int x, y = 2, z[2]; x = y; z[0] = x; return z[0] + a + b + c[2] + d[1][1]; }"),
    ("global initializers are constant expressions", "int a = 1 + 2 * 3;\nlong b = 1L << 40;\nunsigned c = -1;\ndouble d = 1.0 / 3;\nchar e = 'a' + 1;\nint f = (int)2.9;\ndouble g = 10;\nint h = 7 > 3 ? 1 : 2;\nint i = !0 && 1 || 0;\nint main(void) { return a; }"),
    ("arrays with constant-expression sizes", "int a[2 + 3];\ndouble m[2][3 * 2];\nchar s[4][4][4];\nint main(void) { int v[(int)2.5]; v[1] = 1; a[4] = 2; m[1][5] = 1.5; s[3][3][3] = 'x'; return v[1]; }"),
    ("brace initializers, partial and elided", "int a[5] = {1, 2};\nint b[] = {1, 2, 3};\nint m[2][3] = {{1}, {4, 5, 6}};\nint n[2][2] = {1, 2, 3, 4};\nint k[][2] = {{1, 2}, {3, 4}, {5}};\ndouble d[3] = {1, 2.5,};\nint main(void) { int l[3] = {7}; int s = {3}; return a[1] + b[2] + m[1][2] + n[1][0] + k[2][0] + l[0] + s + (int)d[1]; }"),
    ("mixed declarations and for declarations", "int main(void) { int s = 0; s++; int t = s; for (int i = 0; i < 3; i++) { int j = i; s += j; } for (int i = 0, j = 1; i < j; i++) s += t; return s; }"),
    ("block scoping and shadowing", "int x = 1;\nint main(void) { int r = x; int x = 2; { int x = 3; r += x; } { r += x; double x = 1.5; r += (int)x; } return r; }"),
    ("prototypes and recursion", "int odd(int n);\nint even(int n) { return n == 0 ? 1 : odd(n - 1); }\nint odd(int n) { return n == 0 ? 0 : even(n - 1); }\nint fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\nint main(void) { return even(10) + fact(5); }"),
    ("prototypes without names, void functions, (void)", "void hello(void);\ndouble scale(double, int);\nint main(void) { hello(); return (int)scale(2.0, 3); }\nvoid hello(void) { return; }\ndouble scale(double x, int k) { return x * k; }"),
    ("array parameters by reference and rows", "void fill(int v[], int n, int x) { for (int i = 0; i < n; i++) v[i] = x; }\nint trace(int m[][3], int n) { int t = 0; for (int i = 0; i < n; i++) t += m[i][i]; return t; }\nint sum3(int m[3][3]) { return m[0][0] + m[2][2]; }\nint main(void) { int a[4]; int m[3][3] = {{1}, {0, 2}, {0, 0, 3}}; fill(a, 4, 7); fill(m[1], 3, 5); return a[3] + trace(m, 3) + sum3(m); }"),
    ("const array parameter", "int total(const int v[], int n) { int s = 0; while (n > 0) s += v[--n]; return s; }\nconst int data[3] = {1, 2, 3};\nint main(void) { int w[2] = {4, 5}; return total(data, 3) + total(w, 2); }"),
    ("every statement", "int main(void) { int i = 0, s = 0; ; { } if (i) s = 1; if (i) s = 2; else s = 3; while (i < 3) i++; do { i--; } while (i > 0); for (;;) { if (s > 10) break; s++; continue; } for (i = 0; i < 2; i++) ; switch (s) { case 1: s = 0; break; case 11: case 12: s = 5; default: s++; } return s; }"),
    ("dangling else binds to the inner if", "int main(void) { int a = 1, b = 0, r = 0; if (a) if (b) r = 1; else r = 2; return r; }"),
    ("switch with nesting, fallthrough and blocks", "int main(void) { int x = 2, y = 0; switch (x) { case 1: { y = 1; } case 2: switch (y) { case 0: y = 7; break; default: break; } default: if (x) { case 3: y++; } } return y; }"),
    ("switch on every integer type", "int main(void) { long l = 5; unsigned u = 3; char c = 'a'; unsigned long ul = 9; switch (l) { case 5L: break; } switch (u) { case 3u: break; } switch (c) { case 'a': break; } switch (ul) { case -1: break; case 9: break; } return 0; }"),
    ("all binary operators", "int main(void) { int a = 7, b = 3; long r = a + b - a * b / b % b; r += (a << 2) >> 1; r += a < b; r += a > b; r += a <= b; r += a >= b; r += a == b; r += a != b; r += a & b; r += a | b; r += a ^ b; r += a && b; r += a || b; return (int)r; }"),
    ("unary operators, increments, casts", "int main(void) { int a = 5; double d = 2.5; a = -a; a = +a; a = ~a; a = !a; a++; a--; ++a; --a; d++; --d; a = (int)d + (unsigned)a + (long)a + (char)a + (unsigned long)a + (int)(double)a; d = (double)a / 2; return a; }"),
    ("assignment and every compound assignment", "int main(void) { int a = 1; char c = 2; double d = 1.0; unsigned u = 5; a += 1; a -= 1; a *= 3; a /= 2; a %= 5; a <<= 2; a >>= 1; a &= 7; a |= 8; a ^= 3; c += 300; d *= a; u -= 10; d /= 3; a = c = 65; return a; }"),
    ("conditional, comma, logical short-circuit", "int main(void) { int a = 1, b = 2, c; c = a ? b : 3; c = (a, b); c = a > b ? a : b > 0 ? b : 0; c = a && (b = 5); c = a || (b = 6); for (a = 0, b = 0; a < 3; a++, b++) c += a; return c; }"),
    ("constants of every kind", "int main(void) { long l = 2147483648; unsigned long h = 0xffffffffffffffff; unsigned u = 0xffffffffu; int o = 0777; long ll = 5LL; unsigned long ul = 5ul; double e = 1e-3, f = .5, g = 2., k = 1.5E+2; char c = '\\n', q = '\\'', z = '\\0', x = '\\x41', oc = '\\101'; return (int)(l + h + u + o + ll + ul + e + f + g + k + c + q + z + x + oc); }"),
    ("library calls", "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\nint main(void) { double x = sqrt(2.0) + fabs(-1) + floor(1.5) + ceil(1.5) + sin(1) + cos(1) + tan(1) + atan(1) + atan2(1, 2) + exp(1) + log(2) + log10(100) + pow(2, 10) + fmod(7, 3); putchar('a'); putchar('\\n'); puts(\"line\"); printf(\"%d %i %u %x %X %o %c %f %F %e %E %g %G %s %%\\n\", 1, 2, 3u, 255, 255, 8, 'z', x, x, x, x, x, x, \"str\"); printf(\"%ld %lu %lld %5.2f %-8d|%+d % d %05d %#x %.3e\\n\", 1L, 2UL, 3L, 1.5, 4, 5, 6, 7, 255, 12345.678); if (abs(-3) + labs(-4L) > 100) exit(3); return 0; }"),
    ("exit in a void function", "#include <stdlib.h>\nvoid die(int code) { exit(code); }\nint main(void) { die(4); return 0; }"),
    ("main without parameters", "int main() { return 0; }"),
    ("adjacent string literals", "#include <stdio.h>\nint main(void) { printf(\"a\" \"b\" \"%d\\n\", 1); puts(\"x\" \"y\"); return 0; }"),
    ("keywords as parts of identifiers", "int int_value; double double_it(double doubled) { return doubled * 2; }\nint main(void) { int iff = 1, whilst = 2, returned = 3; return iff + whilst + returned + int_value + (int)double_it(1); }"),
    ("static and extern at file scope", "extern int n;\nstatic int count;\nstatic int bump(void);\nint main(void) { return bump() + n; }\nint n = 2;\nstatic int bump(void) { return ++count; }"),
    ("the narrow types, long long, _Bool and float in every spelling", "short a; short int b; signed short c; unsigned short d; unsigned short int e; signed char f; unsigned char g; signed h; signed int i; signed long j; long long k; long long int l; unsigned long long m; signed long long int n; _Bool o = 2; float p = 1.5f; int long long q; short r[3] = {1, 2, 3};\nfloat half(float x) { return x / 2; }\nint main(void) { unsigned char u[2]; u[1] = 300; return a + o + (int)half(p) + r[2] + u[1]; }"),
    ("float math functions", "#include <math.h>\nint main(void) { float x = sqrtf(2.0f) + fabsf(-1) + floorf(1.5f) + ceilf(1.5f) + sinf(1) + cosf(1) + tanf(1) + atanf(1) + atan2f(1, 2) + expf(1) + logf(2) + log10f(100) + powf(2, 10) + fmodf(7, 3); return (int)x; }"),
    ("local names may shadow library functions", "#include <math.h>\nint main(void) { int exp = 3; double sqrt = 2.0; return exp + (int)sqrt; }"),
];

#[test]
fn accepts_every_construct_and_so_does_gcc() {
    for (name, source) in CONSTRUCTS {
        if let Err(d) = lang::check_source("prog.c", source) {
            panic!("{name}: rejected:\n{}", d.render("prog.c", source));
        }
        if let Err(e) = gcc_accepts(source) {
            panic!("{name}: accepted by us but rejected by gcc -std=c99 -pedantic-errors:\n{e}");
        }
    }
}

#[test]
fn narrow_and_float_conversions_are_explicit() {
    assert_snapshot!(main_hir(
        "short s; unsigned short us; unsigned char uc; _Bool b; float f; double d; long long ll;",
        "s = s + us;\nuc = uc * 2;\nb = f;\nf = f * 2 + s;\nd = f * d;\nf = sinf(f) + 1;\nprintf(\"%f %d %hu %lld\\n\", f, b, us, ll);\nus++;\nf += 0.1;\nb = uc > 1.5f;"
    ));
}

#[test]
fn precedence_and_associativity() {
    assert_snapshot!(main_hir(
        "int a, b, c, d; double x;",
        "a = b - c - d;\na = b = c;\na = b + c * d;\na = b << c + d;\na = b < c == c < d;\na = b & c | d ^ a;\na = !b && c || d;\na = b ? c : d ? a : b;\nx = (double)a / b;\na = -b * c;\na = b++ + ++c;\na = b, c;\na += b *= c;"
    ));
}

#[test]
fn integer_promotions_and_usual_arithmetic_conversions() {
    assert_snapshot!(main_hir(
        "char c; int i; unsigned u; long l; unsigned long ul; double d;",
        "i = c + c;\nu = i + u;\nl = u + l;\nul = l + ul;\nul = i + ul;\nd = ul + d;\ni = c < u;\ni = -c;\ni = ~u;\ni = !d;\ni = u >> c;\nl = l << i;\ni = i << ul;\nd = c ? d : i;"
    ));
}

#[test]
fn conversions_at_assignment_argument_and_return() {
    assert_snapshot!(hir(
        "#include <math.h>\nchar f(double x, unsigned long n) { return x + n; }\nint main(void) {\n  char c = 300;\n  long l = -1;\n  unsigned u = l;\n  double d = u;\n  c = f(c, c);\n  d = sqrt(c);\n  c += 1.5;\n  u <<= c;\n  c++;\n  d--;\n  return d;\n}\n"
    ));
}

#[test]
fn arrays_elements_rows_and_initializers() {
    assert_snapshot!(hir(
        "int g[2][3] = {1, 2, 3, {4}};\nvoid row(int r[], int n) { r[n - 1] = n; }\nint sum(int m[][3]) { return m[1][2]; }\nint main(void) {\n  char s[] = {'a', 98, 99.5};\n  long m[2][2] = {{1}, 2, 3};\n  row(g[1], 3);\n  s[g[0][1]] += 1;\n  return sum(g) + m[1][1];\n}\n"
    ));
}

#[test]
fn switch_labels_are_converted_to_the_promoted_type() {
    assert_snapshot!(main_hir(
        "char c; unsigned u; long l;",
        "switch (c) { case 'a': case 300 - 200: break; default: c = 0; }\nswitch (u) { case -1: break; case 1L << 3: u = 1; }\nswitch (l) { case 5: { case 6: l++; } }"
    ));
}

#[test]
fn printf_arguments_are_promoted_and_typed() {
    assert_snapshot!(main_hir(
        "char c; unsigned u; long l; double d;",
        "printf(\"%d %c %u %x %ld %lu %f %s\\n\", c, c, u, c, l, l, d, \"s\\0hidden\");\nputs(\"done\\0hidden\");"
    ));
}

#[test]
fn global_constants_follow_c_semantics() {
    assert_snapshot!(hir(
        "int a = 2147483647 + 1;\nunsigned b = -1;\nlong c = -1 / 2;\nint d = -7 % 3;\nunsigned long e = -1L;\nchar f = 200;\ndouble g = 1 / 2;\ndouble h = 0.0 / 0.0;\nint i = 10 >> 1 << 2;\nint k = -8 >> 1;\nunsigned m = 0xffffffffu >> 4;\nint main(void) { return 0; }\n"
    ));
}

/// One line per token: position, length, then the token (`Tok`'s Debug form).
fn tokens(source: &str) -> String {
    let mut diags = lang::Diagnostics::new();
    let lexed = lang::lexer::lex(source, &mut diags);
    assert!(diags.is_empty(), "{}", diags.render("prog.c", source));
    let index = lang::span::LineIndex::new(source);
    let mut out = String::new();
    for include in &lexed.includes {
        out.push_str(&format!(
            "{} include <{}>\n",
            index.line_col(include.span.start),
            include.header
        ));
    }
    for (start, tok, end) in &lexed.tokens {
        out.push_str(&format!(
            "{} ({} bytes) {tok:?}\n",
            index.line_col(*start as u32),
            end - start
        ));
    }
    out
}

#[test]
fn token_layer() {
    assert_snapshot!(tokens(
        "#include <stdio.h>\nint main(void) { // comment\n  unsigned long x = 0xffffffffffffffff >> 1u; /* c */\n  char c = '\\x41';\n  x <<= 2147483648;\n  printf(\"%lu %c\\n\" \"!\", x, c);\n  return 1.5e3 > .5 ? 017 : 'z';\n}\n"
    ));
}

/// `int f();` leaves the parameters unspecified in C99: the definition later in the file gives
/// them, old-style or prototyped.
#[test]
fn a_declaration_with_empty_parentheses_takes_the_definitions_parameters() {
    let source = "int twice();\nint add();\nint main(void) { return twice(21) + add(2, 3); }\nint twice(x) int x; { return 2 * x; }\nint add(int a, int b) { return a + b; }\n";
    if let Err(d) = lang::compile_source("prog.c", source) {
        panic!("{}", d.render("prog.c", source));
    }
    // Without a definition in the file it declares no parameters, as before.
    let source = "int f();\nint main(void) { return f(1); }\n";
    assert!(lang::compile_source("prog.c", source).is_err());
}

#[test]
fn pointers_address_of_dereference_and_arithmetic() {
    // C99 6.5.3.2 (`&`, `*`), 6.5.2.1 (`p[i]` is `*(p + i)`, `i[p]` too), 6.5.6 (`p + n`
    // steps by the pointed-to size, `p - q` counts elements), 6.5.9 (comparison with a null
    // pointer constant), 6.3.2.1 (arrays and string literals decay to pointers to their first
    // element), and `&x` puts `x` in memory (a one-element array).
    assert_snapshot!(main_hir(
        "long g;\nint sum(const int *p, int n) { int s = 0; while (n-- > 0) s += *p++; return s; }",
        "int a[4] = {1, 2, 3, 4};\nint x = 5;\nint *p = &x;\n*p = 6;\nint *q = a + 1;\nq[1] = 7;\n2[q] = 8;\nlong d = q - a;\nlong *pg = &g;\nchar *s = \"hi\";\nchar c = *(s + 1);\nint **pp = &p;\n**pp += 1;\nif (p != 0 && !q) return 1;\nreturn sum(a, 4) + (int)d + c + (int)*pg;"
    ));
}

#[test]
fn structures_members_bit_fields_and_assignment() {
    // C99 6.5.2.3: `s.m` and `p->m` are the member at its offset (System V layout: `y` after
    // the `char` is at 4, the bit-fields share the `unsigned` unit at 8, `inner` starts at
    // 16); 6.5.16.1: assigning a structure copies its bytes; 6.7.2.1p10: bit-fields read
    // and write their bits of the unit.
    assert_snapshot!(main_hir(
        "struct inner { double d; };\nstruct s { char c; int y; unsigned lo : 3, hi : 5; struct inner in; int v[2]; };\nint get(struct s *p) { return p->y + p->v[1] + (int)p->in.d; }",
        "struct s a, b;\nstruct s *p = &a;\na.c = 'x';\np->y = 2;\na.lo = 9;\np->hi = a.lo + 1;\nb = a;\nb.in.d = 1.5;\nreturn get(&b) + a.v[0];"
    ));
}

#[test]
fn library_functions_on_memory_and_strings() {
    // <string.h> and <stdlib.h> as C99 7.21 and 7.20 declare them: arguments converted to
    // the parameters (`void *` from any object pointer, `size_t` from `int`), results typed
    // (`strlen` is `size_t`, `malloc` is `void *` which converts to `int *`); `printf("%s")`
    // of a `char *`, `%p` of a pointer; `sprintf`/`snprintf` into a buffer.
    assert_snapshot!(hir(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) {\n  char buf[16];\n  char *s = \"abc\";\n  int *v = malloc(4 * sizeof(int));\n  if (v == NULL) return 1;\n  memset(v, 0, 16);\n  strcpy(buf, s);\n  strcat(buf, \"de\");\n  int n = snprintf(buf, sizeof buf, \"%s-%d\", s, (int)strlen(buf));\n  printf(\"%s %p %d\\n\", buf, (void *)v, strcmp(buf, s) > 0);\n  puts(buf);\n  free(v);\n  return n + (strchr(s, 'b') != 0);\n}\n"
    ));
}

#[test]
fn structure_initializers_and_address_constants() {
    // C99 6.7.8: members in order, brace elision across nested aggregates, designators
    // (`.y`, `[1].name`) moving the cursor, a string literal for a character array member,
    // unnamed bit-fields skipped, the rest zero; an array of structures sized by its
    // initializer; 6.6p9: address constants (a string, a global's element, a function) in
    // static initializers.
    assert_snapshot!(hir(
        "struct pt { int x, y; };\nstruct item { char name[4]; struct pt at; unsigned flag : 1; double w; };\nint table[3];\nint f(void) { return 1; }\nstruct item items[] = { { \"ab\", { 1, 2 }, 1, 0.5 }, [2].name = \"z\", [1] = { \"c\", 3, 4 } };\nchar *names[] = { \"one\", \"two\" };\nint *third = &table[2];\nint (*fp)(void) = f;\nint main(void) {\n  struct pt p = { .y = 7 };\n  struct item it = { \"xy\", 5, 6, 1, 2.5 };\n  return p.y + it.at.y + items[1].at.x + (int)sizeof items + *names[1];\n}\n"
    ));
}

#[test]
fn qsort_links_the_library_code_only_when_used() {
    let with = hir("#include <stdlib.h>\nint cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\nint main(void) { int v[3] = {3, 1, 2}; qsort(v, 3, sizeof v[0], cmp); return v[0]; }\n");
    assert!(with.contains(" qsort("), "{with}");
    assert!(with.contains(" vm_qsort_merge("), "{with}");
    let without = hir("#include <stdlib.h>\nint main(void) { return 0; }\n");
    assert!(!without.contains("qsort"), "{without}");
}

#[test]
fn structures_passed_and_returned_by_value() {
    // C99 6.5.2.2p4: an argument is a copy (the callee may change it freely); 6.8.6.4: the
    // result is a value the caller receives. As in the System V ABI, the caller passes the
    // address of a copy, and a function returning a structure gets the address to store it
    // at as a hidden first parameter.
    assert_snapshot!(hir(
        "struct v { int x, y; };\nstruct v add(struct v a, struct v b) { a.x += b.x; a.y += b.y; return a; }\nint main(void) {\n  struct v p = { 1, 2 }, q = { 3, 4 };\n  struct v (*f)(struct v, struct v) = add;\n  p = add(p, q);\n  q = f(q, q);\n  return p.x + add(p, q).y;\n}\n"
    ));
}
