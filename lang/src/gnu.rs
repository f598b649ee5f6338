//! GNU C's extensions that live in the token stream (the gcc manual, "Extensions to the C
//! Language Family"), handled between the lexer and the parser:
//!
//! - the alternate keywords (`__inline__`, `__restrict`, `__const`, `__signed__`,
//!   `__volatile__`, ...) are spelled as their keywords by the lexer
//!   ([`crate::lexer::keyword_alias`]);
//! - `__extension__` (which only silences `-pedantic` warnings) is dropped;
//! - an attribute list `__attribute__((a, b(args), ...))` is dropped wherever it stands, once
//!   every attribute in it is one that does not change what a correct program does: hints to
//!   the optimiser and the linker (`noinline`, `always_inline`, `hot`, `used`, `section`,
//!   `weak` ...), warnings (`unused`, `format`, `deprecated`, `warn_unused_result` ...) and
//!   `noreturn` (a function that returns anyway is undefined behaviour). An attribute the VM
//!   does not know is ignored too, as gcc ignores one it does not know;
//! - the layout attributes `aligned` and `packed` become the tokens [`ALIGNED`] (followed by
//!   the attribute's parenthesized argument, if any) and [`PACKED`], which the grammar accepts
//!   where gcc's attributes stand in declarations: among the declaration specifiers, after a
//!   declarator, after `struct`/`union`/`enum` and after a body's `}`
//!   (`crate::check` lays out what they apply to);
//! - an attribute that changes the behaviour of a program and that the VM does not honour yet
//!   ([`UNSUPPORTED_ATTRIBUTES`]: `constructor`, `cleanup`, `vector_size`, ...) is an error
//!   naming it: dropping it would run another program than gcc's;
//! - `asm` statements and `asm` labels of declarations are an error: the VM runs bytecode, not
//!   machine code.

use crate::diag::{Diagnostic, Diagnostics};
use crate::lexer::Tok;
use crate::span::Span;

/// A token with its byte range, as the lexer produces them.
type Token = (usize, Tok, usize);

/// Attributes that change a program's layout or behaviour, which the VM does not honour yet,
/// with the reason: each is an error rather than silently running another program than gcc's.
pub const UNSUPPORTED_ATTRIBUTES: &[(&str, &str)] = &[
    ("constructor", "it runs a function before `main`"),
    ("destructor", "it runs a function after `main`"),
    (
        "cleanup",
        "it runs a function when a variable goes out of scope",
    ),
    ("vector_size", "vector types are not supported"),
    ("mode", "it changes the width of an integer type"),
    ("transparent_union", "it changes how arguments are passed"),
    ("alias", "it makes one function or variable another's"),
    ("ifunc", "it chooses a function at load time"),
    (
        "scalar_storage_order",
        "it changes the byte order of members",
    ),
    (
        "designated_init",
        "it changes which initializers are accepted",
    ),
];

/// The token `__attribute__((aligned(N)))` becomes, followed by `(N)` (`()` for a bare
/// `aligned`).
pub const ALIGNED: Tok = Tok::Punct("__aligned__");

/// The token `__attribute__((packed))` becomes.
pub const PACKED: Tok = Tok::Punct("__packed__");

/// Removes `__extension__` and attribute lists from `tokens` and reports attributes the VM
/// does not honour and `asm`. Never panics, whatever the tokens.
pub fn strip_extensions(tokens: &mut Vec<Token>, diags: &mut Diagnostics) {
    if !tokens
        .iter()
        .any(|(_, t, _)| matches!(t, Tok::Ident(name) if is_extension_word(name)))
    {
        return;
    }
    let input = std::mem::take(tokens);
    // Layout attributes waiting for the first specifier of the declaration they start.
    let mut deferred: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < input.len() {
        let (start, tok, end) = &input[i];
        match tok {
            Tok::Ident(name) if name == "__extension__" => i += 1,
            Tok::Ident(name) if name == "__attribute__" || name == "__attribute" => {
                // A layout attribute that starts a declaration (`__attribute__((aligned(16)))
                // int x;`) goes after the first specifier, where the grammar takes it (and
                // where it means the same: the declared names').
                // After a `}`, only when a keyword follows: `struct s { ... }
                // __attribute__((packed)) x;` keeps its place, applying to the structure.
                let mut layout = Vec::new();
                let after = attribute_list(&input, i, &mut layout, diags);
                let keyword_follows = matches!(
                    input.get(after).map(|t| &t.1),
                    Some(Tok::Punct(kw)) if kw.starts_with(|c: char| c.is_ascii_alphabetic())
                );
                let starts_declaration = match tokens.last().map(|t| &t.1) {
                    None | Some(Tok::Punct(";" | "{")) => true,
                    Some(Tok::Punct("}")) => keyword_follows,
                    _ => false,
                };
                if starts_declaration {
                    deferred.extend(layout);
                } else {
                    tokens.extend(layout);
                }
                i = after;
                continue;
            }
            Tok::Ident(name) if is_asm(&input, i, name) => {
                diags.push(
                    Diagnostic::error(
                        Span::new(*start, *end),
                        format!(
                            "`{name}` is not supported: the VM runs bytecode, not machine code"
                        ),
                    )
                    .with_label("inline assembly or an assembler name"),
                );
                // Skip the rest of the construct: its parenthesized operands.
                i = skip_asm(&input, i + 1);
            }
            _ => {
                tokens.push(input[i].clone());
                i += 1;
            }
        }
        if !deferred.is_empty() && !is_attribute_at(&input, i) {
            tokens.append(&mut deferred);
        }
    }
    tokens.append(&mut deferred);
}

/// Whether an attribute list starts at `i` (another one before the first specifier).
fn is_attribute_at(tokens: &[Token], i: usize) -> bool {
    matches!(tokens.get(i).map(|t| &t.1), Some(Tok::Ident(name)) if name == "__attribute__" || name == "__attribute")
}

/// Whether `name` starts one of the constructs [`strip_extensions`] handles.
fn is_extension_word(name: &str) -> bool {
    matches!(
        name,
        "__extension__" | "__attribute__" | "__attribute" | "__asm__" | "__asm" | "asm"
    )
}

/// Whether the identifier `name` at `i` is the keyword `asm` (gcc's `__asm__` and `__asm`
/// always; plain `asm`, an ordinary identifier in C99, only where it is followed by `(` or a
/// qualifier of an `asm` statement).
fn is_asm(tokens: &[Token], i: usize, name: &str) -> bool {
    match name {
        "__asm__" | "__asm" => true,
        "asm" => matches!(
            tokens.get(i + 1).map(|t| &t.1),
            Some(Tok::Punct("(" | "volatile" | "inline" | "goto"))
        ),
        _ => false,
    }
}

/// The index after an `asm` construct whose keyword ended before `i`: its qualifiers and its
/// parenthesized operands.
fn skip_asm(tokens: &[Token], mut i: usize) -> usize {
    while matches!(
        tokens.get(i).map(|t| &t.1),
        Some(Tok::Punct("volatile" | "inline" | "goto"))
    ) {
        i += 1;
    }
    if matches!(tokens.get(i).map(|t| &t.1), Some(Tok::Punct("("))) {
        matching_paren(tokens, i).map_or(tokens.len(), |close| close + 1)
    } else {
        i
    }
}

/// The index of the `)` that closes the `(` at `open` (which must be one), if any.
pub(crate) fn matching_paren(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, (_, tok, _)) in tokens.iter().enumerate().skip(open) {
        match tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Checks the attribute list whose `__attribute__` is at `at`, appends the layout attributes
/// in it to `out` as [`ALIGNED`] and [`PACKED`] tokens, and returns the index after it.
fn attribute_list(
    tokens: &[Token],
    at: usize,
    out: &mut Vec<Token>,
    diags: &mut Diagnostics,
) -> usize {
    let (start, _, end) = tokens[at];
    let keyword = Span::new(start, end);
    let opens = |k: usize| matches!(tokens.get(k).map(|t| &t.1), Some(Tok::Punct("(")));
    if !opens(at + 1) || !opens(at + 2) {
        diags.push(
            Diagnostic::error(keyword, "expected `((` after `__attribute__`")
                .with_label("an attribute list is `__attribute__((name, name(arguments)))`"),
        );
        return at + 1;
    }
    let Some(outer_close) = matching_paren(tokens, at + 1) else {
        diags.push(
            Diagnostic::error(keyword, "unterminated attribute list")
                .with_label("its `((` is never closed"),
        );
        return tokens.len();
    };
    let inner_close = outer_close - 1;
    if matching_paren(tokens, at + 2) != Some(inner_close) {
        // `__attribute__((a) b)`: not the double parentheses gcc requires.
        diags.push(
            Diagnostic::error(keyword, "malformed attribute list")
                .with_label("an attribute list is `__attribute__((name, name(arguments)))`"),
        );
        return outer_close + 1;
    }
    // The attributes: between the inner parentheses, separated by commas at depth 0, each a
    // name (an identifier or a keyword such as `const`) with optional arguments.
    let mut k = at + 3;
    while k < inner_close {
        let (s, tok, e) = &tokens[k];
        let name = match tok {
            Tok::Ident(name) => name.as_str(),
            Tok::Punct(kw) if kw.chars().all(|c| c.is_ascii_alphabetic() || c == '_') => kw,
            Tok::Punct(",") => {
                k += 1;
                continue;
            }
            _ => {
                diags.push(
                    Diagnostic::error(
                        Span::new(*s, *e),
                        format!("expected an attribute name, found {tok}"),
                    )
                    .with_label("in this attribute list"),
                );
                return outer_close + 1;
            }
        };
        let bare = name
            .strip_prefix("__")
            .and_then(|n| n.strip_suffix("__"))
            .unwrap_or(name);
        if let Some((_, why)) = UNSUPPORTED_ATTRIBUTES.iter().find(|(n, _)| *n == bare) {
            diags.push(
                Diagnostic::error(
                    Span::new(*s, *e),
                    format!("attribute `{name}` is not supported: {why}"),
                )
                .with_label("the VM would run this program differently from gcc without it"),
            );
        }
        k += 1;
        let args_end = if matches!(tokens.get(k).map(|t| &t.1), Some(Tok::Punct("("))) {
            matching_paren(tokens, k).map_or(inner_close, |close| close + 1)
        } else {
            k
        };
        match bare {
            "aligned" => {
                out.push((*s, ALIGNED, *e));
                if args_end > k {
                    out.extend_from_slice(&tokens[k..args_end]);
                } else {
                    // Bare `aligned`: empty parentheses keep the grammar LR(1).
                    out.push((*s, Tok::Punct("("), *e));
                    out.push((*s, Tok::Punct(")"), *e));
                }
            }
            "packed" => out.push((*s, PACKED, *e)),
            _ => {}
        }
        k = args_end;
    }
    outer_close + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_preprocessed;

    /// The tokens of `source` after [`strip_extensions`], as text, and the error messages.
    fn stripped(source: &str) -> (String, Vec<String>) {
        let mut diags = Diagnostics::new();
        let mut lexed = lex_preprocessed(source, &mut diags);
        strip_extensions(&mut lexed.tokens, &mut diags);
        let text: Vec<String> = lexed
            .tokens
            .iter()
            .map(|(s, _, e)| source[*s..*e].to_string())
            .collect();
        (
            text.join(" "),
            diags.iter().map(|d| d.message.clone()).collect(),
        )
    }

    #[test]
    fn attribute_lists_are_dropped_wherever_they_stand() {
        let (text, errors) = stripped(
            "__attribute__((noinline)) static int f(void) __attribute__ ((__unused__, format(printf, 1, 2)));\n\
             struct __attribute__((__may_alias__)) s { int x __attribute__((unused)); };",
        );
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(text, "static int f ( void ) ; struct s { int x ; } ;");
    }

    #[test]
    fn a_layout_attribute_starting_a_declaration_follows_its_first_specifier() {
        let (text, errors) =
            stripped("__attribute__((aligned(16))) __attribute__((unused)) static int x;");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(text, "static aligned ( 16 ) int x ;");
    }

    #[test]
    fn extension_is_dropped() {
        let (text, errors) = stripped("long x = __extension__ 1;");
        assert!(errors.is_empty());
        assert_eq!(text, "long x = 1 ;");
    }

    #[test]
    fn attributes_that_change_behaviour_are_errors() {
        let (_, errors) = stripped("void f(void) __attribute__((constructor));");
        assert_eq!(
            errors,
            ["attribute `constructor` is not supported: it runs a function before `main`"]
        );
    }

    #[test]
    fn layout_attributes_become_tokens_for_the_grammar() {
        let (text, errors) = stripped(
            "struct s { char c; } __attribute__((unused, packed)); int a[4] __attribute__((__aligned__(2 * 8), cold));",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            text,
            "struct s { char c ; } packed ; int a [ 4 ] __aligned__ ( 2 * 8 ) ;"
        );
    }

    #[test]
    fn unknown_attributes_are_ignored_as_gcc_does() {
        let (text, errors) = stripped("int x __attribute__((some_future_attribute(1, \"a\")));");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(text, "int x ;");
    }

    #[test]
    fn malformed_lists_are_errors_not_panics() {
        for source in [
            "int x __attribute__;",
            "int x __attribute__(noinline);",
            "int x __attribute__((noinline);",
            "int x __attribute__((",
            "int x __attribute__((1));",
            "__attribute__",
        ] {
            let (_, errors) = stripped(source);
            assert!(!errors.is_empty(), "no error for {source:?}");
        }
    }

    #[test]
    fn asm_is_an_error_but_asm_may_name_a_variable() {
        let (_, errors) = stripped("void f(void) { __asm__ volatile (\"nop\" : : : \"memory\"); }");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("not supported"));
        let (text, errors) = stripped("int asm = 1; int y = asm + 1;");
        assert!(errors.is_empty());
        assert_eq!(text, "int asm = 1 ; int y = asm + 1 ;");
    }
}
