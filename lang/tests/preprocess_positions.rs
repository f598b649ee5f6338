//! Positions after preprocessing: the bytecode's `line:col` (runtime errors, profiles,
//! `--annotate`) and the checker's notes point at the original lines, through comments over
//! several lines, line splices, macros over several lines and included files.

use std::collections::BTreeSet;

/// The lines of every instruction of function `name`.
fn lines_of(program: &lang::bytecode::Program, name: &str) -> BTreeSet<u32> {
    let f = program
        .functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    f.locs.iter().map(|l| l.line).collect()
}

#[test]
fn bytecode_lines_are_the_original_lines() {
    // The test runs in `lang/`.
    let source = "#include <stdio.h>
#include \"tests/preprocess/positions.h\"
/* a comment
   over lines */
#define DIV(a, b) \\
    ((a) / (b))
int main(void) {
    int x = 1;
    int y = DIV(x,
                x);
    printf(\"%d\\n\", twice(y));
    return 0;
}
";
    let program = lang::compile_source("pos.c", source)
        .unwrap_or_else(|d| panic!("{}", d.render("pos.c", source)));
    let main = lines_of(&program, "main");
    assert!(
        main.is_subset(&BTreeSet::from([7, 8, 9, 10, 11, 12, 13])),
        "{main:?}"
    );
    assert!(
        main.contains(&8) && main.contains(&9) && main.contains(&11),
        "{main:?}"
    );
    // Code from a header is attributed to its `#include` line (locations have no file yet).
    assert_eq!(lines_of(&program, "twice"), BTreeSet::from([2]));
    // The division's column is the macro invocation's.
    let f = &program.functions.iter().find(|f| f.name == "main").unwrap();
    assert!(
        f.locs.iter().any(|l| l.line == 9 && l.col == 13),
        "{:?}",
        f.locs
    );
}

#[test]
fn checker_notes_name_original_places() {
    let source = "#define DECL int x;\nDECL\n/* two\nlines */ DECL\nint main(void) { return 0; }\n";
    let d = lang::check_source("notes.c", source).expect_err("redeclared");
    let rendered = d.render("notes.c", source);
    assert!(rendered.contains("notes.c:1:"), "{rendered}");
    assert!(
        rendered.contains("in expansion of macro `DECL` at notes.c:4:10"),
        "{rendered}"
    );
    assert!(
        rendered.contains("previous definition at 1:18 (in expansion of macro `DECL` at 2:1)"),
        "{rendered}"
    );
}

#[test]
fn command_line_options_are_one_line_each() {
    let options = lang::PreprocessOptions {
        defines: vec![("N".into(), Some("1\nint injected;".into()))],
        undefines: vec!["X\nint other;".into()],
        include_dirs: Vec::new(),
    };
    let pp = lang::preprocess::preprocess("o.c", "N\n", &options).expect("preprocesses");
    assert_eq!(
        lang::preprocess::token_spellings(&pp.text),
        ["1", "int", "injected", ";"]
    );
}
