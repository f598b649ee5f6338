//! Telling typedef names from other identifiers, between the lexer and the parser.
//!
//! C's grammar is not context-free: in `T (x);` or `(T) - 1`, whether `T` is a type depends on
//! the declarations in scope (C99 6.7.7). C compilers solve this with the "lexer hack": the
//! parser tells the lexer which names are types. Our LALR(1) parser takes the whole token list
//! at once, so this pass does the same job on that list before parsing: it walks the tokens
//! once, follows scopes (`{` `}`) and declarations, and turns each identifier that names a
//! typedef *in a place where it is used as a type* into [`Tok::TypeName`].
//!
//! The rules, as in C:
//! - `typedef SPECIFIERS name, name2[4];` declares type names in the current scope;
//! - an identifier declared otherwise (a variable, function, parameter or enumerator) hides a
//!   type name of an outer scope until its own scope ends;
//! - a type name is a type specifier only where no other type specifier came before it in the
//!   same run of specifiers: in `typedef int T; void f(void) { int T = 1; }` the second `T` is
//!   a declarator (it declares a variable that hides the type).
//!
//! Parameters belong to the scope of the function body that follows their list (or to the
//! body of a `for` whose header declares them). The braces of an `enum` (and, for later,
//! `struct` and `union`) body open no scope; enumerators are declared in the enclosing scope,
//! members in no scope. After `goto`, `.` and `->`, and before a `:` (a label), an identifier is
//! never a type. GNU C's `typeof (...)` is a type specifier: its parenthesis holds an expression
//! or a type name, not a declarator, and the specifiers go on after it.
//!
//! The pass only classifies: a wrong program stays wrong, and the parser and checker report
//! it (a type name where an expression is expected is a syntax error).

use std::collections::HashMap;

use crate::lexer::Tok;

/// What a name means in one scope.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Meaning {
    /// A typedef name.
    Type,
    /// Any other ordinary identifier (hides a type name of an outer scope).
    Other,
}

/// An open bracket and what it opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// `(`: a parameter list, a `for` header, a call, a cast or a parenthesized expression.
    Paren,
    /// `(` right after declaration specifiers: a parenthesized declarator (`int (*f)(int)`,
    /// `typedef int (*fn)(void)`), whose first identifier is the name declared (a type name
    /// if `typedef`), in the scope (or parameter list) around it.
    DeclParen {
        /// The declaration is a `typedef`.
        typedef: bool,
        /// Its name has been seen.
        named: bool,
    },
    /// `[`.
    Bracket,
    /// `{` of a block, function body or initializer: opens a scope.
    Scope,
    /// `{` of an `enum` body: enumerators go to the enclosing scope.
    EnumBody,
    /// `{` of a `struct` or `union` body: members are in no scope.
    MemberBody,
    /// `(` of a `typeof`: an expression or a type name, after which the run of specifiers
    /// (saved with the bracket) goes on with a type.
    TypeOf,
}

/// A run of declaration specifiers.
#[derive(Clone, Copy, Default)]
struct SpecifierRun {
    /// A type specifier (keyword, type name, enum/struct/union) has been seen.
    has_type: bool,
    /// `typedef` has been seen.
    typedef: bool,
}

/// The declaration whose declarators are being read (outside parentheses).
#[derive(Clone, Copy)]
struct Declaring {
    /// True for a `typedef` declaration.
    typedef: bool,
    /// The bracket depth of its specifiers (a `,` at this depth starts the next declarator).
    depth: usize,
    /// True between a `,` at that depth and the next declarator's name.
    expecting_name: bool,
}

/// Where an `enum`, `struct` or `union` specifier is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tag {
    /// Right after the keyword: an identifier is the tag.
    Keyword { is_enum: bool },
    /// After the tag: a `{` opens the body.
    Named { is_enum: bool },
}

/// Keywords that specify a type.
const TYPE_KEYWORDS: &[&str] = &[
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool",
];

/// Keywords that may come in a run of specifiers without specifying a type.
const OTHER_SPECIFIERS: &[&str] = &[
    "const", "volatile", "restrict", "static", "extern", "typedef", "register", "auto", "inline",
];

/// The pass's state.
#[derive(Default)]
struct Marker {
    scopes: Vec<HashMap<String, Meaning>>,
    /// Open brackets, with the run of specifiers an enum/struct/union body interrupted.
    open: Vec<(Open, Option<SpecifierRun>)>,
    /// The current run of declaration specifiers, if inside one.
    run: Option<SpecifierRun>,
    declaring: Option<Declaring>,
    tag: Option<Tag>,
    /// Names declared in the innermost open parameter list (or `for` header), and those of
    /// the enclosing lists.
    params: Vec<String>,
    outer_params: Vec<Vec<String>>,
    /// Parameters of the list that closed at the previous token: a `{` right after gives
    /// them to its scope.
    closed_params: Option<Vec<String>>,
    /// The previous token was `goto`, `.` or `->`: the next identifier is not a type.
    plain_next: bool,
    /// The previous token was `{` or `,` (an enumerator may follow in an enum body).
    after_list_start: bool,
    /// The previous token was `typeof`: a `(` now opens its operand, not a declarator.
    typeof_next: bool,
}

/// Replace every identifier that is used as a typedef name by [`Tok::TypeName`]. See the
/// [module documentation](self).
pub fn mark(tokens: &mut [(usize, Tok, usize)]) {
    // Without a `typedef` no identifier can name a type: most programs skip the walk.
    if !tokens
        .iter()
        .any(|(_, t, _)| matches!(t, Tok::Punct("typedef")))
    {
        return;
    }
    let mut m = Marker {
        scopes: vec![HashMap::new()],
        ..Marker::default()
    };
    // The end of a GNU C layout attribute being skipped (see below).
    let mut attribute_end = 0;
    for index in 0..tokens.len() {
        // `crate::gnu`'s layout attributes (`__packed__`, `__aligned__ (N)`) stand between
        // specifiers and declarators without changing what is declared: skipped, keeping
        // the state; a type name in the argument (`aligned(sizeof(T))`) is still marked.
        if index < attribute_end {
            if let Tok::Ident(name) = &mut tokens[index].1 {
                if m.lookup(name) == Some(Meaning::Type) {
                    let name = std::mem::take(name);
                    tokens[index].1 = Tok::TypeName(name);
                }
            }
            continue;
        }
        match tokens[index].1 {
            crate::gnu::PACKED => continue,
            crate::gnu::ALIGNED => {
                let open = index + 1;
                let opens = matches!(tokens.get(open), Some((_, Tok::Punct("("), _)));
                attribute_end = opens
                    .then(|| crate::gnu::matching_paren(tokens, open))
                    .flatten()
                    .map_or(open, |close| close + 1);
                continue;
            }
            _ => {}
        }
        let label = matches!(tokens.get(index + 1), Some((_, Tok::Punct(":"), _)));
        let tok = &mut tokens[index].1;
        let closed_params = m.closed_params.take();
        let plain = std::mem::take(&mut m.plain_next);
        let after_list_start = std::mem::take(&mut m.after_list_start);
        match tok {
            Tok::Ident(name) => {
                if m.identifier(name, plain, after_list_start, label) {
                    let name = std::mem::take(name);
                    *tok = Tok::TypeName(name);
                }
            }
            Tok::Punct(k) | Tok::Unsupported(k) => m.keyword_or_punct(k, closed_params),
            _ => {
                m.run = None;
                m.tag = None;
            }
        }
    }
}

impl Marker {
    /// What `name` means here.
    fn lookup(&self, name: &str) -> Option<Meaning> {
        // Parameters (and `for` declarations) of the lists being read are in scope already.
        let declared_in_parens = |list: &Vec<String>| list.iter().any(|p| p == name);
        if declared_in_parens(&self.params) || self.outer_params.iter().any(declared_in_parens) {
            return Some(Meaning::Other);
        }
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// The innermost open bracket.
    fn innermost(&self) -> Option<Open> {
        self.open.last().map(|(o, _)| *o)
    }

    /// The innermost open bracket that is not a parenthesized declarator's.
    fn enclosing(&self) -> Option<Open> {
        self.open
            .iter()
            .rev()
            .map(|(o, _)| *o)
            .find(|o| !matches!(o, Open::DeclParen { .. }))
    }

    /// Declare `name` where a declarator here belongs.
    fn declare(&mut self, name: &str, meaning: Meaning) {
        match self.enclosing() {
            Some(Open::Paren) => self.params.push(name.to_string()),
            Some(Open::MemberBody) => {} // a member: its own namespace
            _ => {
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(name.to_string(), meaning);
                }
            }
        }
    }

    /// Handle an identifier; true if it is used as a type name.
    fn identifier(&mut self, name: &str, plain: bool, after_list_start: bool, label: bool) -> bool {
        self.typeof_next = false;
        if plain {
            self.run = None;
            return false;
        }
        if let Some(Tag::Keyword { is_enum }) = self.tag {
            self.tag = Some(Tag::Named { is_enum });
            return false;
        }
        self.tag = None;
        if let Some((Open::DeclParen { typedef, named }, _)) = self.open.last_mut() {
            if !*named {
                // The name of a parenthesized declarator.
                *named = true;
                let typedef = *typedef;
                self.run = None;
                let meaning = if typedef {
                    Meaning::Type
                } else {
                    Meaning::Other
                };
                self.declare(name, meaning);
                return false;
            }
        }
        if after_list_start && self.innermost() == Some(Open::EnumBody) {
            // An enumerator: declared in the scope enclosing the enum body.
            if let Some(scope) = self.scopes.last_mut() {
                scope.insert(name.to_string(), Meaning::Other);
            }
            self.run = None;
            return false;
        }
        if label && self.innermost() != Some(Open::MemberBody) {
            // `name:` is a statement label (labels have their own namespace).
            self.run = None;
            return false;
        }
        let run = self.run.unwrap_or_default();
        let depth = self.open.len();
        let meaning = |typedef: bool| {
            if typedef {
                Meaning::Type
            } else {
                Meaning::Other
            }
        };
        if let Some(d) = self
            .declaring
            .as_mut()
            .filter(|d| d.expecting_name && d.depth == depth && self.run.is_none())
        {
            // The next declarator's name after a `,`: never a type.
            d.expecting_name = false;
            let typedef = d.typedef;
            self.declare(name, meaning(typedef));
            return false;
        }
        if !run.has_type && self.lookup(name) == Some(Meaning::Type) {
            self.run = Some(SpecifierRun {
                has_type: true,
                ..run
            });
            return true;
        }
        self.run = None;
        if run.has_type {
            // A declarator's name right after the specifiers.
            if self.innermost() != Some(Open::Paren) {
                self.declaring = Some(Declaring {
                    typedef: run.typedef,
                    depth,
                    expecting_name: false,
                });
            }
            self.declare(name, meaning(run.typedef));
        } else if let Some(d) = self.declaring.as_mut() {
            d.expecting_name = false;
        }
        false
    }

    /// Handle a keyword or punctuator.
    fn keyword_or_punct(&mut self, k: &'static str, closed_params: Option<Vec<String>>) {
        let is_type = TYPE_KEYWORDS.contains(&k);
        if is_type || OTHER_SPECIFIERS.contains(&k) {
            let mut run = self.run.unwrap_or_default();
            run.has_type |= is_type;
            run.typedef |= k == "typedef";
            self.run = Some(run);
            self.tag = None;
            return;
        }
        let tag = self.tag.take();
        if self.typeof_next {
            self.typeof_next = false;
            if k == "(" {
                let mut run = self.run.take().unwrap_or_default();
                run.has_type = true;
                self.outer_params.push(std::mem::take(&mut self.params));
                self.open.push((Open::TypeOf, Some(run)));
                return;
            }
        }
        match k {
            "typeof" => self.typeof_next = true,
            ")" if self.innermost() == Some(Open::TypeOf) => {
                if let Some((_, run)) = self.open.pop() {
                    self.run = run;
                }
                self.params = self.outer_params.pop().unwrap_or_default();
            }
            "enum" | "struct" | "union" => {
                let mut run = self.run.unwrap_or_default();
                run.has_type = true;
                self.run = Some(run);
                self.tag = Some(Tag::Keyword {
                    is_enum: k == "enum",
                });
            }
            "{" => {
                self.after_list_start = true;
                let body = match tag {
                    Some(Tag::Keyword { is_enum } | Tag::Named { is_enum }) => Some(is_enum),
                    None => None,
                };
                match body {
                    Some(is_enum) => {
                        let open = if is_enum {
                            Open::EnumBody
                        } else {
                            Open::MemberBody
                        };
                        self.open.push((open, self.run.take()));
                    }
                    None => {
                        let function_body = closed_params.is_some();
                        if function_body
                            && self.declaring.is_some_and(|d| d.depth == self.open.len())
                        {
                            self.declaring = None;
                        }
                        self.open.push((Open::Scope, None));
                        let mut scope = HashMap::new();
                        for name in closed_params.unwrap_or_default() {
                            scope.insert(name, Meaning::Other);
                        }
                        self.scopes.push(scope);
                        self.run = None;
                    }
                }
            }
            "}" => {
                match self.open.pop() {
                    Some((Open::EnumBody | Open::MemberBody, run)) => {
                        // `enum E { ... } x;`: the specifiers go on after the body.
                        self.run = run.or(Some(SpecifierRun {
                            has_type: true,
                            typedef: false,
                        }));
                    }
                    Some((Open::Scope, _)) => {
                        if self.scopes.len() > 1 {
                            self.scopes.pop();
                        }
                        self.run = None;
                    }
                    _ => self.run = None,
                }
                self.end_declarations_deeper_than(self.open.len());
            }
            "(" if self.run.is_some_and(|r| r.has_type) => {
                // Specifiers, then `(`: a parenthesized declarator.
                let typedef = self.run.is_some_and(|r| r.typedef);
                self.open.push((
                    Open::DeclParen {
                        typedef,
                        named: false,
                    },
                    None,
                ));
                self.run = None;
            }
            "(" => {
                self.outer_params.push(std::mem::take(&mut self.params));
                self.open.push((Open::Paren, None));
                self.run = None;
            }
            ")" if matches!(self.innermost(), Some(Open::DeclParen { .. })) => {
                self.open.pop();
                self.run = None;
            }
            ")" => {
                if self.innermost() == Some(Open::Paren) {
                    self.open.pop();
                    let outer = self.outer_params.pop().unwrap_or_default();
                    self.closed_params = Some(std::mem::replace(&mut self.params, outer));
                }
                self.run = None;
            }
            "[" => {
                self.open.push((Open::Bracket, None));
                self.run = None;
            }
            "]" => {
                if self.innermost() == Some(Open::Bracket) {
                    self.open.pop();
                }
                self.run = None;
            }
            "," => {
                self.run = None;
                self.after_list_start = true;
                let depth = self.open.len();
                if let Some(d) = self.declaring.as_mut().filter(|d| d.depth == depth) {
                    d.expecting_name = true;
                }
            }
            ";" => {
                self.run = None;
                if self.declaring.is_some_and(|d| d.depth >= self.open.len()) {
                    self.declaring = None;
                }
            }
            // A pointer declarator keeps the run: `T *x` declares `x`.
            "*" if self.run.is_some_and(|r| r.has_type) => {}
            "goto" | "." | "->" => {
                self.run = None;
                self.plain_next = true;
            }
            _ => self.run = None,
        }
    }

    /// Forget the declaration being read if its depth is greater than `depth`.
    fn end_declarations_deeper_than(&mut self, depth: usize) {
        if self.declaring.is_some_and(|d| d.depth > depth) {
            self.declaring = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::lexer::lex_preprocessed;

    /// The identifiers of `source` that the pass marks as type names, in order.
    fn type_names(source: &str) -> Vec<String> {
        let mut diags = Diagnostics::new();
        let mut lexed = lex_preprocessed(source, &mut diags);
        assert!(diags.is_empty(), "{source}");
        mark(&mut lexed.tokens);
        lexed
            .tokens
            .into_iter()
            .filter_map(|(_, t, _)| match t {
                Tok::TypeName(name) => Some(name),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn typeof_is_a_specifier_whose_parenthesis_is_no_declarator() {
        // `typeof (T) T;` would declare a variable `T`; `typeof (x) y` declares `y`, and the
        // `T` in `typeof (T)` and after it in `(T)` are types.
        assert_eq!(
            type_names("typedef int T; void f(void) { typeof (T) a; typeof (a) T2; T b = (T)a; }"),
            ["T", "T", "T"]
        );
        assert_eq!(
            type_names("typedef int T; void f(void) { typeof (T) T; T = 1; }"),
            ["T"]
        );
    }

    #[test]
    fn a_typedef_name_is_a_type_where_a_type_may_stand() {
        assert_eq!(
            type_names("typedef int T; T x; int f(T a) { return (T)a + sizeof(T); }"),
            ["T", "T", "T", "T"]
        );
        assert_eq!(type_names("typedef int A, B[3]; B b; A a;"), ["B", "A"]);
        assert_eq!(type_names("typedef int T; typedef T U; U u;"), ["T", "U"]);
        assert_eq!(
            type_names("typedef int T; const T x; static T y;"),
            ["T", "T"]
        );
    }

    #[test]
    fn a_declaration_hides_a_type_name_until_its_scope_ends() {
        // `int T` declares a variable: the next `T` in that block is not a type.
        assert_eq!(
            type_names("typedef int T; void f(void) { int T = 1; T = 2; } T g;"),
            ["T"]
        );
        // A parameter hides it in the function body, not after.
        assert_eq!(
            type_names("typedef int T; void f(int T) { T++; } T x;"),
            ["T"]
        );
        // An enumerator hides it in the same scope.
        assert_eq!(
            type_names("typedef int T; void f(void) { enum { T }; int x = T; } T y;"),
            ["T"]
        );
        // A `for` declaration hides it in the loop.
        assert_eq!(
            type_names("typedef int T; void f(void) { for (int T = 0; T < 2; T++) { T--; } T z; }"),
            ["T"]
        );
        // The second declarator of a declaration too.
        assert_eq!(
            type_names("typedef int T; void f(void) { int a, T; T = a; }"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_block_typedef_ends_with_its_block() {
        assert_eq!(
            type_names("void f(void) { { typedef long L; L a; } L = 1; }"),
            ["L"]
        );
    }

    #[test]
    fn names_after_goto_tags_and_members_are_not_types() {
        assert_eq!(
            type_names("typedef int T; enum T { A } e; void f(void) { goto T; T: ; }"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn enum_bodies_do_not_open_scopes() {
        assert_eq!(
            type_names("typedef int T; enum E { A, B } x; T y; void f(void) { enum { T } z; }"),
            ["T"]
        );
    }
}
