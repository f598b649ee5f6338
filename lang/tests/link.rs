//! Programs of several source files: each file is its own translation unit, linked as a C
//! linker would (`static` names private to their file, one definition per external name), and
//! the errors of linking name both places.

use lang::{compile_sources_with, PreprocessOptions};

/// Compiles `files` and renders the errors (empty on success).
fn errors(files: &[(&str, &str)]) -> String {
    match compile_sources_with(files, &PreprocessOptions::default()) {
        Ok(_) => String::new(),
        Err(d) => d.render("", ""),
    }
}

/// The compact form of the errors: one `file:line:col: message` line each, related places as
/// `file:line:col: note: message`.
fn summary(files: &[(&str, &str)]) -> String {
    match compile_sources_with(files, &PreprocessOptions::default()) {
        Ok(_) => String::new(),
        Err(d) => d.summary(""),
    }
}

const MAIN: &str = "int twice(int x);\nextern int counter;\nint main(void) {\n    counter = twice(3);\n    return counter;\n}\n";
const LIB: &str = "static int count;\nint counter = 1;\nstatic int helper(int x) { count++; return x + x; }\nint twice(int x) { return helper(x); }\n";

#[test]
fn two_files_link() {
    let p = compile_sources_with(
        &[("main.c", MAIN), ("lib.c", LIB)],
        &PreprocessOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.render("", "")));
    assert_eq!(p.files, vec!["main.c".to_string(), "lib.c".to_string()]);
    let main = &p.functions[p.main.index()];
    assert_eq!((main.name.as_str(), main.file), ("main", 0));
    let helper = p.functions.iter().find(|f| f.name == "helper").unwrap();
    assert_eq!(helper.file, 1);
    assert_eq!(helper.loc.line, 3);
}

#[test]
fn static_names_are_private_to_their_file() {
    let a = "static int count = 5;\nstatic int get(void) { return count; }\nint a_get(void) { return get(); }\n";
    let b = "int a_get(void);\nstatic int count = 7;\nstatic int get(void) { return count; }\nint main(void) { return get() + a_get(); }\n";
    assert_eq!(summary(&[("a.c", a), ("b.c", b)]), "");
}

#[test]
fn duplicate_definitions_name_both_places() {
    let a = "int f(void) { return 1; }\nint main(void) { return f(); }\n";
    let b = "\n\nint f(void) { return 2; }\n";
    let text = errors(&[("a.c", a), ("b.c", b)]);
    assert!(
        text.contains("b.c:3:5: error: redefinition of `f`"),
        "{text}"
    );
    assert!(
        text.contains("a.c:1:5: note: previous definition is here"),
        "{text}"
    );
    let text = summary(&[
        ("a.c", "int x = 1;\nint main(void) { return x; }\n"),
        ("b.c", "int x;\n"),
    ]);
    assert_eq!(
        text,
        "b.c:1:5: redefinition of `x`\na.c:1:5: note: previous definition is here\n"
    );
}

#[test]
fn two_mains_and_no_main() {
    let m = "int main(void) { return 0; }\n";
    let text = summary(&[("a.c", m), ("b.c", m)]);
    assert!(text.contains("b.c:1:5: redefinition of `main`"), "{text}");
    let text = summary(&[
        ("a.c", "int f(void) { return 0; }\n"),
        ("b.c", "int g(void) { return 0; }\n"),
    ]);
    assert!(
        text.contains("the program has no `main` function"),
        "{text}"
    );
}

#[test]
fn undefined_symbols_name_the_use() {
    let a = "int f(void);\nextern int x;\nint main(void) {\n    return f() + x;\n}\n";
    let text = summary(&[("a.c", a), ("b.c", "int y;\n")]);
    assert!(text.contains("4:12: undefined reference to `f`"), "{text}");
    assert!(text.contains("4:18: undefined reference to `x`"), "{text}");
}

#[test]
fn calling_another_files_static_function_is_undefined() {
    let a = "int helper(void);\nint main(void) { return helper(); }\n";
    let b = "static int helper(void) { return 1; }\n";
    let text = summary(&[("a.c", a), ("b.c", b)]);
    assert!(
        text.contains("2:25: undefined reference to `helper`"),
        "{text}"
    );
    assert!(
        text.contains("b.c:1:12: note: a `static` `helper` is defined here"),
        "{text}"
    );
    // Without a declaration it is not even declared in the calling file.
    let text = summary(&[("a.c", "int main(void) { return helper(); }\n"), ("b.c", b)]);
    assert!(text.contains("helper"), "{text}");
}

#[test]
fn mismatched_types_across_files() {
    let a = "long f(int x);\nint main(void) { return (int)f(1); }\n";
    let b = "int f(int x) { return x; }\n";
    let text = summary(&[("a.c", a), ("b.c", b)]);
    assert!(
        text.contains(
            "b.c:1:5: conflicting types for `f`: `int(int)` here, `long(int)` in another file"
        ),
        "{text}"
    );
    assert!(
        text.contains("a.c:1:6: note: previously declared here as `long(int)`"),
        "{text}"
    );
    let text = summary(&[
        (
            "a.c",
            "extern double v;\nint main(void) { return (int)v; }\n",
        ),
        ("b.c", "int v = 3;\n"),
    ]);
    assert!(
        text.contains("b.c:1:5: conflicting types for `v`"),
        "{text}"
    );
    let text = summary(&[
        ("a.c", "extern int v;\nint main(void) { return v; }\n"),
        ("b.c", "int v(void) { return 3; }\n"),
    ]);
    assert!(
        text.contains("redeclared as a different kind of symbol"),
        "{text}"
    );
}

#[test]
fn linkage_rules_within_a_file() {
    let one = |src: &str| summary(&[("a.c", src)]);
    assert_eq!(
        one("extern int x;\nint x = 2;\nint main(void) { return x; }\n"),
        ""
    );
    assert_eq!(
        one("static int x;\nextern int x;\nint main(void) { return x; }\n"),
        ""
    );
    assert_eq!(
        one("static int f(void);\nint f(void) { return 1; }\nint main(void) { return f(); }\n"),
        ""
    );
    assert!(one("int x;\nstatic int x;\nint main(void) { return x; }\n")
        .contains("static declaration of `x` follows non-static declaration"));
    assert!(one(
        "int f(void);\nstatic int f(void) { return 1; }\nint main(void) { return f(); }\n"
    )
    .contains("static declaration of `f` follows non-static declaration"));
    assert!(one("extern int x;\nint main(void) { return x; }\n")
        .contains("2:25: undefined reference to `x`"));
    assert!(one("static int main(void) { return 0; }\n").contains("`main` cannot be `static`"));
    assert_eq!(one("int main(void) { static int n; return n; }\n"), "");
    assert_eq!(
        one("extern int n;\nint main(void) { extern int n; return n; }\nint n = 3;\n"),
        ""
    );
    // A block-scope `extern` declares the file-scope variable; here no file defines it.
    assert!(
        one("int main(void) { extern int n; return n; }\n").contains("undefined reference to `n`")
    );
    assert!(one("int f(static int x);\nint main(void) { return 0; }\n")
        .contains("a parameter cannot be declared `static`"));
    assert!(one("static extern int x;\nint main(void) { return 0; }\n")
        .contains("at most one storage class"));
    assert!(
        one("extern int x;\nextern long x;\nint main(void) { return 0; }\n")
            .contains("conflicting types for `x`")
    );
}

#[test]
fn errors_in_each_file_are_reported_in_their_file() {
    let a = "int main(void) { return 0 }\n";
    let b = "int f(void) { return y; }\n";
    let text = summary(&[("a.c", a), ("b.c", b)]);
    // The first file's positions are unprefixed in the compact form (`render` names it).
    assert!(text.starts_with("1:26: expected `;`"), "{text}");
    assert!(errors(&[("a.c", a), ("b.c", b)]).contains("a.c:1:26: error: expected `;`"));
    assert!(text.contains("b.c:1:22:"), "{text}");
}
