//! Declarators (C99 6.7.5) parse into the derivations C99 gives them, read from the name
//! outwards: `*a[3]` is an array of three pointers, `(*a)[3]` a pointer to an array of three,
//! `*(*f)(int)` a pointer to a function returning a pointer. The expected readings are C99's
//! (6.7.5.1-6.7.5.3 and the examples of 6.7.6), written here as words, not taken from the
//! parser's output.

use lang::ast::{Declarator, Derived, ExprKind, Item, NamedType};

/// The declarator of the single file-scope declaration in `source`.
fn declarator(source: &str) -> Declarator {
    let parsed = lang::parse_source(source).unwrap_or_else(|d| panic!("{source}: {d:?}"));
    match &parsed.unit.items[..] {
        [Item::Decl(d)] => d.declarators[0].declarator.clone(),
        [Item::Function(f)] => f.declarator.clone(),
        other => panic!("{source}: expected one declaration, got {other:?}"),
    }
}

/// The derivations as words: `array`, `pointer`, `const pointer`, `function(N)`.
fn reading(d: &Declarator) -> Vec<String> {
    d.derived
        .iter()
        .map(|x| match x {
            Derived::Pointer {
                is_const: false, ..
            } => "pointer".to_string(),
            Derived::Pointer { is_const: true, .. } => "const pointer".to_string(),
            Derived::Array(_) => "array".to_string(),
            Derived::Function { params, .. } => format!("function({})", params.len()),
        })
        .collect()
}

#[test]
fn derivations_read_from_the_name_outwards() {
    let cases: &[(&str, &[&str])] = &[
        ("int x;", &[]),
        ("int *p;", &["pointer"]),
        ("int **pp;", &["pointer", "pointer"]),
        ("int *a[3];", &["array", "pointer"]),
        ("int (*a)[3];", &["pointer", "array"]),
        ("int m[2][3];", &["array", "array"]),
        ("int *f(void);", &["function(0)", "pointer"]),
        ("int (*f)(int, char);", &["pointer", "function(2)"]),
        ("int *(*f)(int);", &["pointer", "function(1)", "pointer"]),
        ("int (*tab[4])(void);", &["array", "pointer", "function(0)"]),
        (
            "int (*(*g)(void))[5];",
            &["pointer", "function(0)", "pointer", "array"],
        ),
        ("char * const p;", &["const pointer"]),
        ("const char *s;", &["pointer"]),
        ("int * const * q;", &["pointer", "const pointer"]),
        (
            "void (*signal(int, void (*)(int)))(int);",
            &["function(2)", "pointer", "function(1)"],
        ),
    ];
    for (source, expected) in cases {
        let d = declarator(source);
        assert_eq!(reading(&d), *expected, "{source}");
    }
}

#[test]
fn abstract_declarators_in_parameters_casts_and_sizeof() {
    // C99 6.7.6p3's examples of type names, as the parameters of a prototype.
    let d = declarator(
        "void f(int, int *, int *[3], int (*)[3], int (*)[], int *(), int (*)(void), int (*const [])(unsigned int));",
    );
    let Some((params, _)) = d.function() else {
        panic!("not a function")
    };
    let readings: Vec<Vec<String>> = params.iter().map(|p| reading(&p.declarator)).collect();
    let expected: Vec<Vec<&str>> = vec![
        vec![],
        vec!["pointer"],
        vec!["array", "pointer"],
        vec!["pointer", "array"],
        vec!["pointer", "array"],
        vec!["function(0)", "pointer"],
        vec!["pointer", "function(0)"],
        vec!["array", "const pointer", "function(1)"],
    ];
    assert_eq!(readings, expected);
    assert!(params.iter().all(|p| p.name().is_none()));

    let parsed = lang::parse_source(
        "int main(void) { return (int)sizeof(char (*)[4]) + (int)(long)(char *)0; }",
    )
    .expect("parses");
    let Item::Function(f) = &parsed.unit.items[0] else {
        panic!()
    };
    let text = format!("{:?}", f.body);
    assert!(text.contains("SizeofType"), "{text}");
    assert!(text.contains("Cast"), "{text}");
}

#[test]
fn old_style_definitions_take_their_declarations() {
    let parsed =
        lang::parse_source("int f(a, s, n) char *s; long n; { return a; }").expect("parses");
    let Item::Function(f) = &parsed.unit.items[0] else {
        panic!()
    };
    let (params, _) = f.declarator.function().expect("a function");
    let names: Vec<_> = params
        .iter()
        .map(|p| p.name().unwrap().0.to_string())
        .collect();
    assert_eq!(names, ["a", "s", "n"]);
    assert_eq!(reading(&params[1].declarator), ["pointer"]);
    assert!(params[2].declarator.derived.is_empty());
}

#[test]
fn struct_and_union_specifiers_with_bit_fields() {
    let parsed = lang::parse_source(
        "struct node { int value; struct node *next; unsigned flags : 3, : 0; signed s : 4; } head;\ntypedef union u { int i; float f; } U;\nstruct node *p;\n",
    )
    .expect("parses");
    let Item::Decl(d) = &parsed.unit.items[0] else {
        panic!()
    };
    let Some(NamedType::Record(r)) = d.specs.named.as_deref() else {
        panic!("no record specifier")
    };
    assert!(!r.is_union);
    assert_eq!(r.tag.as_ref().unwrap().0, "node");
    let members = r.members.as_ref().expect("a body");
    let names: Vec<(String, bool)> = members
        .iter()
        .flat_map(|m| &m.declarators)
        .map(|m| (m.declarator.name.clone(), m.bits.is_some()))
        .collect();
    assert_eq!(
        names,
        [
            ("value".to_string(), false),
            ("next".to_string(), false),
            ("flags".to_string(), true),
            (String::new(), true),
            ("s".to_string(), true)
        ]
    );
    assert_eq!(reading(&members[1].declarators[0].declarator), ["pointer"]);
    let Item::Decl(u) = &parsed.unit.items[1] else {
        panic!()
    };
    assert!(matches!(u.specs.named.as_deref(), Some(NamedType::Record(r)) if r.is_union));
}

#[test]
fn member_access_and_pointer_operators_parse() {
    let parsed = lang::parse_source(
        "int main(void) { return p->next->value + s.a[1] + *q + (&x)[0] + **pp; }",
    )
    .expect("parses");
    let Item::Function(f) = &parsed.unit.items[0] else {
        panic!()
    };
    let text = format!("{:?}", f.body);
    for needle in ["arrow: true", "arrow: false", "Deref", "AddrOf"] {
        assert!(text.contains(needle), "{needle} missing in {text}");
    }
    assert!(!text.contains(&format!("{:?}", ExprKind::Error)));
}
