//! The parser: tokens to AST, with the lalrpop grammar in `grammar.lalrpop`.
//!
//! The grammar's actions are one line each and call the node builders of [`ParseState`], which
//! compute spans and nesting depths and collect errors. Syntax errors are recovered at block-item
//! and top-level level (lalrpop's `!` token: the parser pops states until one accepts an error,
//! then skips tokens until one fits); as in yacc, an error within three tokens of the previous
//! recovery point is not reported, so one mistake gives one message. lalrpop's lists of expected
//! terminals are turned into readable text by [`describe_expected`] (operators are dropped when
//! a closing token is possible, the many tokens that start an expression become "an expression").
//!
//! Every node builder checks the subtree depth against [`MAX_DEPTH`]: a deeper expression,
//! statement or initializer is reported once and replaced by an error node, so the AST handed to
//! the (recursive) checker is never deeper than that.

use lalrpop_util::{lalrpop_mod, ErrorRecovery, ParseError};

use crate::ast::*;
use crate::diag::{Diagnostic, Diagnostics};
use crate::hir::ScalarType;
use crate::lexer::Tok;
use crate::span::Span;

lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_qualifications, missing_docs)]
    grammar
);

/// A lalrpop error over our tokens.
type Error = ParseError<usize, Tok, ()>;
/// A recovered lalrpop error.
type Recovery = ErrorRecovery<usize, Tok, ()>;

/// Parse a token list (from [`crate::lexer::lex`]) into a translation unit. Syntax errors are
/// appended to `diags`; the returned AST contains error nodes where they were. Never panics.
pub fn parse(
    tokens: Vec<(usize, Tok, usize)>,
    source_len: usize,
    diags: &mut Diagnostics,
) -> TranslationUnit {
    parse_with_nesting(tokens, source_len, diags).0
}

/// [`parse`], also returning the AST's nesting: the deepest statement nesting plus the deepest
/// expression nesting plus the deepest initializer nesting (each at most [`MAX_DEPTH`]). The
/// checker's recursion depth is bounded by it.
pub fn parse_with_nesting(
    tokens: Vec<(usize, Tok, usize)>,
    source_len: usize,
    diags: &mut Diagnostics,
) -> (TranslationUnit, u32) {
    let mut st = ParseState {
        diags: Diagnostics::new(),
        token_spans: tokens.iter().map(|(l, _, r)| (*l, *r)).collect(),
        statement_ends: tokens
            .iter()
            .map(|(_, t, _)| matches!(t, Tok::Punct(";" | "}")))
            .collect(),
        source_len,
        resume: None,
        too_deep_reported: false,
        deepest: [0; 3],
    };
    let input = tokens.into_iter().map(Ok::<_, ()>);
    let result = grammar::TranslationUnitParser::new().parse(&mut st, input);
    let unit = match result {
        Ok(unit) => unit,
        Err(error) => {
            st.report(error, 0);
            TranslationUnit { items: Vec::new() }
        }
    };
    diags.extend(st.diags);
    (unit, st.deepest.iter().sum())
}

/// One declaration specifier as written: a keyword (`int`, `unsigned`, `const`, `static`, ...),
/// a typedef name or an `enum` specifier.
#[derive(Clone, Debug)]
pub enum TypeWord {
    /// A keyword and its range.
    Keyword(&'static str, Span),
    /// A typedef name and its range.
    TypeName(String, Span),
    /// An `enum` specifier (boxed: rare and large).
    Enum(Box<EnumSpec>),
    /// A `struct` or `union` specifier.
    Record(Box<RecordSpec>),
    /// A `typeof` specifier and its range.
    TypeOf(Box<TypeOfArg>, Span),
    /// A GNU C layout attribute among the specifiers.
    Attr(Attribute),
}

impl TypeWord {
    /// The keyword `word` at `l..r`.
    pub fn keyword(word: &'static str, l: usize, r: usize) -> TypeWord {
        TypeWord::Keyword(word, Span::new(l, r))
    }

    /// The typedef name `name` at `l..r`.
    pub fn type_name(name: String, l: usize, r: usize) -> TypeWord {
        TypeWord::TypeName(name, Span::new(l, r))
    }

    /// `typeof (arg)` at `l..r`.
    pub fn type_of(arg: TypeOfArg, l: usize, r: usize) -> TypeWord {
        TypeWord::TypeOf(Box::new(arg), Span::new(l, r))
    }

    /// The keyword, if the word is one.
    fn word(&self) -> Option<&'static str> {
        match self {
            TypeWord::Keyword(w, _) => Some(w),
            _ => None,
        }
    }

    /// Where it is written.
    fn span(&self) -> Span {
        match self {
            TypeWord::Keyword(_, span)
            | TypeWord::TypeName(_, span)
            | TypeWord::TypeOf(_, span) => *span,
            TypeWord::Enum(e) => e.span,
            TypeWord::Record(r) => r.span,
            TypeWord::Attr(Attribute::Aligned(_, span) | Attribute::Packed(span)) => *span,
        }
    }
}

/// Splits the attributes out of specifier words: an attribute right after an `enum`,
/// `struct` or `union` body (`struct s { ... } __attribute__((packed))`) applies to that type,
/// as gcc places it; any other applies to the declared names.
fn attributes_placed(words: Vec<TypeWord>) -> (Vec<TypeWord>, Vec<Attribute>) {
    if !words.iter().any(|w| matches!(w, TypeWord::Attr(_))) {
        return (words, Vec::new());
    }
    let mut kept: Vec<TypeWord> = Vec::with_capacity(words.len());
    let mut attrs = Vec::new();
    let mut after_body = false;
    for word in words {
        match (word, kept.last_mut()) {
            (TypeWord::Attr(a), Some(TypeWord::Record(rec))) if after_body => rec.attrs.push(a),
            (TypeWord::Attr(a), Some(TypeWord::Enum(e))) if after_body => e.attrs.push(a),
            (TypeWord::Attr(a), _) => attrs.push(a),
            (word, _) => {
                after_body = match &word {
                    TypeWord::Record(rec) => rec.members.is_some(),
                    TypeWord::Enum(e) => e.body.is_some(),
                    _ => false,
                };
                kept.push(word);
            }
        }
    }
    (kept, attrs)
}

/// The specifiers `int`, implied where C89 let the type out (at `span`).
fn implicit_int(span: Span) -> DeclSpecs {
    DeclSpecs {
        ty: Some(BaseType::Scalar(ScalarType::Int)),
        named: None,
        is_const: false,
        is_volatile: false,
        storage: None,
        attrs: Vec::new(),
        span,
    }
}

/// Specifier keywords that say nothing about the type: qualifiers, storage classes and the
/// function specifier `inline` (accepted and ignored: the VM has no inlining to hint).
const NOT_TYPE_WORDS: &[&str] = &[
    "const", "volatile", "restrict", "static", "extern", "typedef", "auto", "register", "inline",
];

/// The type spelled by type keywords (without qualifiers and storage classes): C99 6.7.2's
/// combinations, in any order. `signed char` is `char` (which is signed); `long long` is `long`
/// (both 64 bits on x86-64, the same behaviour).
fn keyword_type(words: &[&str]) -> Result<BaseType, String> {
    use ScalarType::*;
    let count = |w: &str| words.iter().filter(|t| **t == w).count();
    let invalid = || {
        Err(format!(
            "invalid combination of type specifiers `{}`",
            words.join(" ")
        ))
    };
    // `Some(true)` for `unsigned`, `Some(false)` for `signed`.
    let unsigned = match (count("signed"), count("unsigned")) {
        (0, 0) => None,
        (1, 0) => Some(false),
        (0, 1) => Some(true),
        _ => return invalid(),
    };
    let pick = |signed: ScalarType, unsigned_ty: ScalarType| {
        Ok(BaseType::Scalar(if unsigned == Some(true) {
            unsigned_ty
        } else {
            signed
        }))
    };
    let words_of = (
        count("void"),
        count("_Bool"),
        count("char"),
        count("short"),
        count("int"),
        count("long"),
        count("float"),
        count("double"),
    );
    match (words_of, unsigned) {
        ((1, 0, 0, 0, 0, 0, 0, 0), None) => Ok(BaseType::Void),
        ((0, 1, 0, 0, 0, 0, 0, 0), None) => Ok(BaseType::Scalar(Bool)),
        ((0, 0, 1, 0, 0, 0, 0, 0), _) => pick(Char, UChar),
        ((0, 0, 0, 1, 0..=1, 0, 0, 0), _) => pick(Short, UShort),
        ((0, 0, 0, 0, 0, 0, 0, 0), None) => Err("a type is required".into()),
        ((0, 0, 0, 0, 0..=1, 0, 0, 0), _) => pick(Int, UInt),
        ((0, 0, 0, 0, 0..=1, 1..=2, 0, 0), _) => pick(Long, ULong),
        ((0, 0, 0, 0, 0, 0, 1, 0), None) => Ok(BaseType::Scalar(Float)),
        ((0, 0, 0, 0, 0, 0, 0, 1), None) => Ok(BaseType::Scalar(Double)),
        ((0, 0, 0, 0, 0, 1, 0, 1), None) => Ok(BaseType::LongDouble),
        _ => invalid(),
    }
}

/// The parser's state: collected errors and what is needed to report them well.
pub struct ParseState {
    /// Syntax errors found so far.
    diags: Diagnostics,
    /// Byte range of every token, in order (to find token indices and previous-token ends).
    token_spans: Vec<(usize, usize)>,
    /// For every token: true if it is `;` or `}`.
    statement_ends: Vec<bool>,
    /// Length of the source (location of end of input).
    source_len: usize,
    /// Token index at which parsing resumed after the last recovered error.
    resume: Option<usize>,
    /// True once a too-deep nesting has been reported (reported only once).
    too_deep_reported: bool,
    /// The deepest statement, expression and initializer built so far.
    deepest: [u32; 3],
}

fn max_depth<'a>(depths: impl IntoIterator<Item = &'a u32>) -> u32 {
    depths.into_iter().copied().max().unwrap_or(0)
}

impl ParseState {
    // ----- errors -----

    /// Report a recovered error and return `value` (the node standing for the bad text).
    pub fn recover<T>(&mut self, e: Recovery, value: T) -> T {
        let dropped = e.dropped_tokens.len();
        self.report(e.error, dropped);
        value
    }

    /// Report a recovered error inside a block; the bad text becomes an error statement.
    pub fn recover_item(&mut self, e: Recovery) -> BlockItem {
        let span = match &e.error {
            ParseError::UnrecognizedToken {
                token: (l, _, r), ..
            } => Span::new(*l, *r),
            _ => Span::new(self.source_len, self.source_len),
        };
        let stmt = Stmt {
            kind: StmtKind::Error,
            span,
            depth: 1,
        };
        self.recover(e, BlockItem::Stmt(stmt))
    }

    fn token_index(&self, offset: usize) -> usize {
        self.token_spans.partition_point(|&(l, _)| l < offset)
    }

    /// Turn a lalrpop error into a diagnostic, unless it follows the last recovery too closely.
    fn report(&mut self, error: Error, dropped: usize) {
        let (index, diagnostic) = match error {
            ParseError::UnrecognizedToken {
                token: (l, tok, r),
                expected,
            } => {
                let index = self.token_index(l);
                (
                    index,
                    self.unexpected_token(index, &tok, Span::new(l, r), &expected),
                )
            }
            ParseError::UnrecognizedEof { location, expected } => {
                let at = Span::new(location, location);
                let what = if expected.iter().any(|e| e == "\"}\"") {
                    "`}`".to_string()
                } else {
                    describe_expected(&expected)
                };
                (
                    self.token_spans.len(),
                    Diagnostic::error(at, format!("expected {what} at end of input"))
                        .with_label(format!("expected {what}")),
                )
            }
            ParseError::ExtraToken { token: (l, tok, r) } => (
                self.token_index(l),
                Diagnostic::error(Span::new(l, r), format!("unexpected {tok}")),
            ),
            ParseError::InvalidToken { location } => (
                self.token_index(location),
                Diagnostic::error(Span::new(location, location), "invalid token"),
            ),
            ParseError::User { error: () } => {
                (0, Diagnostic::error(Span::default(), "syntax error"))
            }
        };
        // An error right after a statement's end is a new mistake, not a consequence of the
        // last one.
        let after_statement =
            index > 0 && self.statement_ends.get(index - 1).copied().unwrap_or(false);
        let suppressed = !after_statement && self.resume.is_some_and(|resume| index < resume + 3);
        if !suppressed {
            self.diags.push(diagnostic);
        }
        self.resume = Some(index + dropped);
    }

    fn unexpected_token(
        &self,
        index: usize,
        tok: &Tok,
        span: Span,
        expected: &[String],
    ) -> Diagnostic {
        let wanted = describe_expected(expected);
        if let Tok::Unsupported(kw) = tok {
            let message = if matches!(*kw, "_Complex" | "_Imaginary") {
                format!("type `{kw}` is not supported")
            } else {
                format!("`{kw}` is not supported in this language")
            };
            return Diagnostic::error(span, message).with_label("not supported");
        }
        let wants = |name: &str| expected.iter().any(|e| e.trim_matches('"') == name);
        if matches!(tok, Tok::Punct("{")) && wants("=") && !wants("[") {
            // `int f(void) {` where only a declaration can continue: a definition inside a
            // function, usually because the previous function lacks its closing brace.
            return Diagnostic::error(span, "a function cannot be defined inside another function")
                .with_label("is a `}` missing before this definition?");
        }
        let semicolon_missing =
            expected.iter().any(|e| e == "\";\"") && !matches!(tok, Tok::Punct(";"));
        if semicolon_missing && wanted == "`;`" && index > 0 {
            // Like gcc: point just after the previous token.
            let prev_end = self.token_spans[index - 1].1;
            return Diagnostic::error(
                Span::new(prev_end, prev_end),
                format!("expected `;` before {tok}"),
            )
            .with_label("expected `;`");
        }
        Diagnostic::error(span, format!("expected {wanted}, found {tok}"))
            .with_label(format!("expected {wanted}"))
    }

    // ----- depth guard -----

    fn too_deep(&mut self, span: Span, what: &str) {
        if !self.too_deep_reported {
            self.too_deep_reported = true;
            self.diags.push(
                Diagnostic::error(span, format!("{what} nested too deeply"))
                    .with_label(format!("the limit is {MAX_DEPTH} levels")),
            );
        }
    }

    fn expr(&mut self, kind: ExprKind, l: usize, r: usize, child_depth: u32) -> Expr {
        let span = Span::new(l, r);
        let depth = child_depth + 1;
        if depth > MAX_DEPTH {
            self.too_deep(span, "expression");
            return Expr {
                kind: ExprKind::Error,
                span,
                depth: 1,
            };
        }
        self.deepest[1] = self.deepest[1].max(depth);
        Expr { kind, span, depth }
    }

    fn stmt(&mut self, kind: StmtKind, l: usize, r: usize, child_depth: u32) -> Stmt {
        let span = Span::new(l, r);
        let depth = child_depth + 1;
        if depth > MAX_DEPTH {
            self.too_deep(span, "statement");
            return Stmt {
                kind: StmtKind::Error,
                span,
                depth: 1,
            };
        }
        self.deepest[0] = self.deepest[0].max(depth);
        Stmt { kind, span, depth }
    }

    // ----- declarations -----

    /// A function definition: `specs declarator body`, or C89's `declarator body` with an
    /// implicit `int` result, or an old-style (K&R) definition `int f(a, b) int a; double b;
    /// { ... }` (C99 6.9.1, still valid C99), which becomes the prototyped definition
    /// `int f(int a, double b)` (a parameter without a declaration is an `int`).
    pub fn function(
        &mut self,
        specs: Option<DeclSpecs>,
        mut declarator: Declarator,
        decls: Vec<Declaration>,
        body: Block,
        l: usize,
        r: usize,
    ) -> Item {
        let specs = specs.unwrap_or_else(|| implicit_int(declarator.name_span));
        match declarator.derived.first_mut() {
            Some(Derived::Function {
                params, old_style, ..
            }) => {
                if !decls.is_empty() {
                    if *old_style {
                        self.old_style_params(params, &decls);
                    } else {
                        self.diags.push(Diagnostic::error(
                            decls[0].span,
                            "parameter declarations before the body of a function whose parameters are already declared in its prototype",
                        ));
                    }
                }
            }
            _ => {
                self.diags.push(Diagnostic::error(
                    declarator.span,
                    format!(
                        "`{}` is followed by a body but does not declare a function",
                        declarator.name
                    ),
                ));
                return Item::Error;
            }
        }
        Item::Function(Box::new(FunctionDef {
            specs,
            declarator,
            body,
            span: Span::new(l, r),
        }))
    }

    /// Give the parameters of an identifier list the types their declarations say.
    fn old_style_params(&mut self, params: &mut [Param], decls: &[Declaration]) {
        let mut declared = vec![false; params.len()];
        for d in decls {
            for id in &d.declarators {
                let decl = &id.declarator;
                let Some(i) = params.iter().position(|p| p.declarator.name == decl.name) else {
                    self.diags.push(Diagnostic::error(
                        decl.name_span,
                        format!("declaration of `{}`, which is not a parameter", decl.name),
                    ));
                    continue;
                };
                if let Some(init) = &id.init {
                    self.diags.push(Diagnostic::error(
                        init.span(),
                        format!("parameter `{}` is initialized", decl.name),
                    ));
                }
                if declared[i] {
                    self.diags.push(Diagnostic::error(
                        decl.name_span,
                        format!("parameter `{}` declared twice", decl.name),
                    ));
                }
                declared[i] = true;
                params[i] = Param {
                    specs: d.specs.clone(),
                    declarator: decl.clone(),
                    span: decl.span,
                };
            }
        }
    }

    /// A declaration.
    pub fn declaration(
        &mut self,
        specs: DeclSpecs,
        declarators: Vec<InitDeclarator>,
        l: usize,
        r: usize,
    ) -> Declaration {
        Declaration {
            specs,
            declarators,
            span: Span::new(l, r),
        }
    }

    /// Resolve a list of declaration specifiers: the type (C99 6.7.2's allowed combinations of
    /// keywords, restricted to the language's types, or one typedef name or enum specifier),
    /// the qualifiers and the storage class (at most one, C99 6.7.1).
    pub fn specs(&mut self, words: Vec<TypeWord>, l: usize, r: usize) -> DeclSpecs {
        let span = Span::new(l, r);
        let (words, attrs) = attributes_placed(words);
        let count = |w: &str| words.iter().filter(|t| t.word() == Some(w)).count();
        let is_const = count("const") > 0;
        let is_volatile = count("volatile") > 0;
        let mut storage: Option<(StorageClass, Span)> = None;
        let mut named: Option<NamedType> = None;
        for word in &words {
            let class = match word {
                TypeWord::Keyword("static", _) => StorageClass::Static,
                TypeWord::Keyword("extern", _) => StorageClass::Extern,
                TypeWord::Keyword("typedef", _) => StorageClass::Typedef,
                TypeWord::Keyword("auto", _) => StorageClass::Auto,
                TypeWord::Keyword("register", _) => StorageClass::Register,
                TypeWord::Keyword(..) => continue,
                TypeWord::TypeName(name, span) => {
                    self.named_type(
                        &mut named,
                        NamedType::Typedef {
                            name: name.clone(),
                            span: *span,
                        },
                    );
                    continue;
                }
                TypeWord::Enum(e) => {
                    self.named_type(&mut named, NamedType::Enum(e.clone()));
                    continue;
                }
                TypeWord::Record(rec) => {
                    self.named_type(&mut named, NamedType::Record(rec.clone()));
                    continue;
                }
                TypeWord::TypeOf(arg, span) => {
                    let arg = arg.clone();
                    self.named_type(&mut named, NamedType::TypeOf { arg, span: *span });
                    continue;
                }
                TypeWord::Attr(_) => continue,
            };
            match storage {
                None => storage = Some((class, word.span())),
                Some((first, _)) => self.diags.push(Diagnostic::error(
                    word.span(),
                    format!(
                        "`{}` after `{}`: a declaration has at most one storage class",
                        class.keyword(),
                        first.keyword()
                    ),
                )),
            }
        }
        let keywords: Vec<&str> = words
            .iter()
            .filter_map(TypeWord::word)
            .filter(|w| !NOT_TYPE_WORDS.contains(w))
            .collect();
        let ty = if named.is_some() {
            if !keywords.is_empty() {
                self.diags.push(Diagnostic::error(
                    span,
                    format!(
                        "`{}` cannot be combined with a typedef name, `enum`, `struct`, `union` or `typeof`",
                        keywords.join(" ")
                    ),
                ));
            }
            None
        } else {
            match keyword_type(&keywords) {
                Ok(t) => Some(t),
                // Old C's implicit `int`: `register i;`, `static x = 1;`, `const n = 2;` (gcc
                // -std=c99 accepts it with a warning, "type defaults to `int`").
                Err(_) if keywords.is_empty() => Some(BaseType::Scalar(ScalarType::Int)),
                Err(message) => {
                    self.diags.push(Diagnostic::error(span, message));
                    None
                }
            }
        };
        DeclSpecs {
            ty,
            named: named.map(Box::new),
            is_const,
            is_volatile,
            storage,
            attrs,
            span,
        }
    }

    /// Record a typedef name or enum specifier; a second one is an error.
    fn named_type(&mut self, named: &mut Option<NamedType>, new: NamedType) {
        if named.is_some() {
            let span = match &new {
                NamedType::Typedef { span, .. } | NamedType::TypeOf { span, .. } => *span,
                NamedType::Enum(e) => e.span,
                NamedType::Record(r) => r.span,
            };
            self.diags.push(Diagnostic::error(
                span,
                "two types in one declaration's specifiers",
            ));
        } else {
            *named = Some(new);
        }
    }

    /// `enum tag`, `enum tag { ... }`, `enum { ... }`.
    pub fn enum_spec(
        &mut self,
        attrs: Vec<Attribute>,
        tag: Option<(usize, String, usize)>,
        body: Option<Vec<Enumerator>>,
        l: usize,
        r: usize,
    ) -> EnumSpec {
        EnumSpec {
            tag: tag.map(|(tl, name, tr)| (name, Span::new(tl, tr))),
            body,
            attrs,
            span: Span::new(l, r),
        }
    }

    /// `NAME` or `NAME = value` in an enum body.
    pub fn enumerator(
        &mut self,
        name: String,
        value: Option<Expr>,
        l: usize,
        m: usize,
    ) -> Enumerator {
        Enumerator {
            name,
            name_span: Span::new(l, m),
            value,
        }
    }

    /// A declarator with its optional initializer.
    pub fn init_declarator(
        &mut self,
        declarator: Declarator,
        attrs: Vec<Attribute>,
        init: Option<Initializer>,
        l: usize,
        r: usize,
    ) -> InitDeclarator {
        InitDeclarator {
            declarator,
            init: init.map(Box::new),
            attrs,
            span: Span::new(l, r),
        }
    }

    /// A declarator that is just a name.
    pub fn name_declarator(&mut self, name: String, l: usize, r: usize) -> Declarator {
        Declarator {
            name,
            name_span: Span::new(l, r),
            derived: Vec::new(),
            span: Span::new(l, r),
        }
    }

    /// The empty abstract declarator at offset `at`.
    pub fn abstract_declarator(&mut self, at: usize) -> Declarator {
        Declarator::none(Span::new(at, at))
    }

    /// `( declarator )`: the same derivations, a wider span.
    pub fn paren_declarator(&mut self, mut d: Declarator, l: usize, r: usize) -> Declarator {
        d.span = Span::new(l, r);
        d
    }

    /// `declarator [size]`.
    pub fn array_declarator(
        &mut self,
        mut d: Declarator,
        dim: ArrayDim,
        l: usize,
        r: usize,
    ) -> Declarator {
        d.derived.push(Derived::Array(dim));
        d.span = Span::new(l.min(d.span.start as usize), r);
        d
    }

    /// `declarator (params)`; `pl..r` is the parameter list with its parentheses.
    pub fn function_declarator(
        &mut self,
        mut d: Declarator,
        params: (Vec<Param>, bool, Option<Span>),
        pl: usize,
        r: usize,
    ) -> Declarator {
        let (params, empty_parens, variadic) = params;
        d.derived.push(Derived::Function {
            params,
            empty_parens,
            old_style: false,
            variadic,
            span: Span::new(pl, r),
        });
        d.span = Span::new((d.span.start as usize).min(pl), r);
        d
    }

    /// `declarator (a, b)`: an old-style identifier list; each parameter is an `int` until the
    /// declarations before the body say otherwise.
    pub fn kr_declarator(
        &mut self,
        mut d: Declarator,
        ids: Vec<(usize, String, usize)>,
        pl: usize,
        r: usize,
    ) -> Declarator {
        let params = ids
            .into_iter()
            .map(|(il, id, ir)| {
                let span = Span::new(il, ir);
                Param {
                    specs: implicit_int(span),
                    declarator: self.name_declarator(id, il, ir),
                    span,
                }
            })
            .collect();
        d.derived.push(Derived::Function {
            params,
            empty_parens: false,
            old_style: true,
            variadic: None,
            span: Span::new(pl, r),
        });
        d.span = Span::new((d.span.start as usize).min(pl), r);
        d
    }

    /// `* declarator`: the pointers apply after the direct declarator's derivations.
    pub fn pointer_declarator(
        &mut self,
        pointers: Vec<(bool, usize, usize)>,
        mut d: Declarator,
        l: usize,
        r: usize,
    ) -> Declarator {
        for (is_const, pl, pr) in pointers.into_iter().rev() {
            d.derived.push(Derived::Pointer {
                is_const,
                span: Span::new(pl, pr),
            });
        }
        d.span = Span::new(l, r.max(d.span.end as usize));
        d
    }

    /// A type name: specifiers and an optional abstract declarator (ending at `r`).
    pub fn type_name(&mut self, specs: DeclSpecs, d: Option<Declarator>, r: usize) -> TypeName {
        let declarator = d.unwrap_or_else(|| self.abstract_declarator(r));
        TypeName { specs, declarator }
    }

    /// `struct tag`, `union tag { ... }`, `struct { ... }`.
    pub fn record_spec(
        &mut self,
        is_union: bool,
        attrs: Vec<Attribute>,
        tag: Option<(usize, String, usize)>,
        members: Option<Vec<MemberDecl>>,
        l: usize,
        r: usize,
    ) -> RecordSpec {
        RecordSpec {
            is_union,
            tag: tag.map(|(tl, name, tr)| (name, Span::new(tl, tr))),
            members,
            attrs,
            span: Span::new(l, r),
        }
    }

    /// A member declaration `specs a, *b, c : 3;`.
    pub fn member_decl(
        &mut self,
        specs: DeclSpecs,
        declarators: Vec<MemberDeclarator>,
        l: usize,
        r: usize,
    ) -> MemberDecl {
        MemberDecl {
            specs,
            declarators,
            span: Span::new(l, r),
        }
    }

    /// A member declarator, maybe a bit-field (`name : bits`, or unnamed `: bits`).
    pub fn member_declarator(
        &mut self,
        d: Option<Declarator>,
        bits: Option<Expr>,
        attrs: Vec<Attribute>,
        l: usize,
        r: usize,
    ) -> MemberDeclarator {
        let declarator = d.unwrap_or_else(|| self.abstract_declarator(l));
        MemberDeclarator {
            declarator,
            bits,
            attrs,
            span: Span::new(l, r),
        }
    }

    /// `[size]`
    pub fn array_dim(&mut self, size: Option<Expr>, l: usize, r: usize) -> ArrayDim {
        ArrayDim {
            size,
            span: Span::new(l, r),
        }
    }

    /// A parameter list: `(void)` is the empty list.
    pub fn params(&mut self, params: Vec<Param>) -> Vec<Param> {
        match params.as_slice() {
            [p] if p.specs.ty == Some(BaseType::Void)
                && p.declarator.is_abstract()
                && p.declarator.derived.is_empty()
                && !p.specs.is_const =>
            {
                Vec::new()
            }
            _ => params,
        }
    }

    /// One parameter, named or abstract.
    pub fn param(
        &mut self,
        specs: DeclSpecs,
        declarator: Option<Declarator>,
        l: usize,
        r: usize,
    ) -> Param {
        let declarator = declarator.unwrap_or_else(|| self.abstract_declarator(r));
        Param {
            specs,
            declarator,
            span: Span::new(l, r),
        }
    }

    /// `[i][j] = value` in an initializer list.
    pub fn designated(
        &mut self,
        designators: Vec<Designator>,
        value: Initializer,
        l: usize,
        r: usize,
    ) -> Initializer {
        Initializer::Designated {
            designators,
            value: Box::new(value),
            span: Span::new(l, r),
        }
    }

    /// `[index]` designator.
    pub fn index_designator(&mut self, index: Expr, l: usize, r: usize) -> Designator {
        Designator::Index(index, Span::new(l, r))
    }

    /// `.member` designator.
    pub fn member_designator(&mut self, name: String, l: usize, r: usize) -> Designator {
        Designator::Member(name, Span::new(l, r))
    }

    /// `{ items }`
    pub fn init_list(&mut self, items: Vec<Initializer>, l: usize, r: usize) -> Initializer {
        let span = Span::new(l, r);
        if items.is_empty() {
            self.diags.push(
                Diagnostic::error(span, "empty initializer braces are not allowed in C99")
                    .with_label("expected at least one initializer"),
            );
        }
        let depth = 1 + items.iter().map(Initializer::depth).max().unwrap_or(0);
        self.deepest[2] = self.deepest[2].max(depth.min(MAX_DEPTH));
        if depth > MAX_DEPTH {
            self.too_deep(span, "initializer");
            return Initializer::List {
                items: Vec::new(),
                span,
                depth: 1,
            };
        }
        Initializer::List { items, span, depth }
    }

    // ----- statements -----

    /// `{ items }`
    pub fn block(&mut self, items: Vec<BlockItem>, l: usize, r: usize) -> Block {
        Block {
            items,
            span: Span::new(l, r),
        }
    }

    fn block_depth(block: &Block) -> u32 {
        block
            .items
            .iter()
            .map(|i| match i {
                BlockItem::Decl(_) | BlockItem::StaticAssert(_) => 1,
                BlockItem::Stmt(s) => s.depth,
            })
            .max()
            .unwrap_or(0)
    }

    /// A block used as a statement.
    pub fn block_stmt(&mut self, block: Block, l: usize, r: usize) -> Stmt {
        let depth = Self::block_depth(&block);
        self.stmt(StmtKind::Block(block), l, r, depth)
    }

    /// A statement without sub-statements.
    pub fn simple(&mut self, kind: StmtKind, l: usize, r: usize) -> Stmt {
        self.stmt(kind, l, r, 0)
    }

    /// `if`
    pub fn if_stmt(
        &mut self,
        cond: Expr,
        then: Stmt,
        otherwise: Option<Stmt>,
        l: usize,
        r: usize,
    ) -> Stmt {
        let depth = then.depth.max(otherwise.as_ref().map_or(0, |s| s.depth));
        self.stmt(
            StmtKind::If(cond, Box::new(then), otherwise.map(Box::new)),
            l,
            r,
            depth,
        )
    }

    /// `while`
    pub fn while_stmt(&mut self, cond: Expr, body: Stmt, l: usize, r: usize) -> Stmt {
        let depth = body.depth;
        self.stmt(StmtKind::While(cond, Box::new(body)), l, r, depth)
    }

    /// `do ... while`
    pub fn do_while(&mut self, body: Stmt, cond: Expr, l: usize, r: usize) -> Stmt {
        let depth = body.depth;
        self.stmt(StmtKind::DoWhile(Box::new(body), cond), l, r, depth)
    }

    /// `for`
    pub fn for_stmt(
        &mut self,
        init: ForInit,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Stmt,
        l: usize,
        r: usize,
    ) -> Stmt {
        let depth = body.depth;
        self.stmt(
            StmtKind::For(
                Box::new(init),
                cond.map(Box::new),
                step.map(Box::new),
                Box::new(body),
            ),
            l,
            r,
            depth,
        )
    }

    /// `switch`
    pub fn switch_stmt(&mut self, value: Expr, body: Stmt, l: usize, r: usize) -> Stmt {
        let depth = body.depth;
        self.stmt(StmtKind::Switch(value, Box::new(body)), l, r, depth)
    }

    /// `case v:` (with `Some(v)`) or `default:` and the labelled statement.
    pub fn case_stmt(&mut self, value: Option<Expr>, body: Stmt, l: usize, r: usize) -> Stmt {
        let depth = body.depth;
        let kind = match value {
            Some(v) => StmtKind::Case(v, Box::new(body)),
            None => StmtKind::Default(Box::new(body)),
        };
        self.stmt(kind, l, r, depth)
    }

    /// `case low ... high: stmt` (GNU C).
    pub fn case_range_stmt(
        &mut self,
        low: Expr,
        high: Expr,
        body: Stmt,
        l: usize,
        r: usize,
    ) -> Stmt {
        let depth = body.depth;
        self.stmt(StmtKind::CaseRange(low, high, Box::new(body)), l, r, depth)
    }

    /// `label: stmt`
    pub fn labeled(&mut self, name: String, body: Stmt, l: usize, m: usize, r: usize) -> Stmt {
        let depth = body.depth;
        self.stmt(
            StmtKind::Labeled(name, Span::new(l, m), Box::new(body)),
            l,
            r,
            depth,
        )
    }

    /// `goto label;`
    pub fn goto_stmt(&mut self, name: String, nl: usize, nr: usize, l: usize, r: usize) -> Stmt {
        self.simple(StmtKind::Goto(name, Span::new(nl, nr)), l, r)
    }

    // ----- expressions -----

    /// `sizeof expr`
    pub fn sizeof_expr(&mut self, e: Expr, l: usize, r: usize) -> Expr {
        let d = e.depth;
        self.expr(ExprKind::SizeofExpr(Box::new(e)), l, r, d)
    }

    /// `sizeof (type)`
    pub fn sizeof_type(&mut self, ty: TypeName, l: usize, r: usize) -> Expr {
        self.leaf(ExprKind::SizeofType(Box::new(ty)), l, r)
    }

    /// `__builtin_offsetof(type, steps)`
    pub fn offsetof(&mut self, ty: TypeName, steps: Vec<OffsetofStep>, l: usize, r: usize) -> Expr {
        let d = max_depth(steps.iter().filter_map(|s| match s {
            OffsetofStep::Index(e) => Some(&e.depth),
            OffsetofStep::Member(..) => None,
        }));
        self.expr(ExprKind::Offsetof(Box::new(ty), steps), l, r, d)
    }

    /// `({ items })`
    pub fn stmt_expr(&mut self, b: Block, l: usize, r: usize) -> Expr {
        self.expr(ExprKind::StmtExpr(Box::new(b)), l, r, 1)
    }

    /// `_Alignof expr`
    pub fn alignof_expr(&mut self, e: Expr, l: usize, r: usize) -> Expr {
        let d = e.depth;
        self.expr(ExprKind::AlignofExpr(Box::new(e)), l, r, d)
    }

    /// `_Alignof (type)`
    pub fn alignof_type(&mut self, ty: TypeName, l: usize, r: usize) -> Expr {
        self.leaf(ExprKind::AlignofType(Box::new(ty)), l, r)
    }

    /// A leaf expression.
    pub fn leaf(&mut self, kind: ExprKind, l: usize, r: usize) -> Expr {
        self.expr(kind, l, r, 0)
    }

    /// `a, b`
    pub fn comma(&mut self, a: Expr, b: Expr, l: usize, r: usize) -> Expr {
        let d = a.depth.max(b.depth);
        self.expr(ExprKind::Comma(Box::new(a), Box::new(b)), l, r, d)
    }

    /// `a = b` or `a op= b`.
    pub fn assign(&mut self, op: &str, a: Expr, b: Expr, l: usize, r: usize) -> Expr {
        let d = a.depth.max(b.depth);
        let op = if op == "=" {
            None
        } else {
            BinaryOp::from_symbol(op)
        };
        self.expr(ExprKind::Assign(op, Box::new(a), Box::new(b)), l, r, d)
    }

    /// `c ? a : b`
    pub fn conditional(&mut self, c: Expr, a: Expr, b: Expr, l: usize, r: usize) -> Expr {
        let d = max_depth([&c.depth, &a.depth, &b.depth]);
        self.expr(
            ExprKind::Conditional(Box::new(c), Box::new(a), Box::new(b)),
            l,
            r,
            d,
        )
    }

    /// `a op b`
    pub fn binary(&mut self, op: BinaryOp, a: Expr, b: Expr, l: usize, r: usize) -> Expr {
        let d = a.depth.max(b.depth);
        self.expr(ExprKind::Binary(op, Box::new(a), Box::new(b)), l, r, d)
    }

    /// `(type) { ... }`.
    pub fn compound_literal(
        &mut self,
        ty: TypeName,
        init: Initializer,
        l: usize,
        r: usize,
    ) -> Expr {
        let d = init.depth();
        self.expr(
            ExprKind::CompoundLiteral(Box::new(ty), Box::new(init)),
            l,
            r,
            d,
        )
    }

    /// `(type) e`
    pub fn cast(&mut self, ty: TypeName, e: Expr, l: usize, r: usize) -> Expr {
        let d = e.depth;
        self.expr(ExprKind::Cast(Box::new(ty), Box::new(e)), l, r, d)
    }

    /// `e.name` or `e->name` (`nl` is where the name starts).
    pub fn member(
        &mut self,
        base: Expr,
        name: String,
        arrow: bool,
        nl: usize,
        l: usize,
        r: usize,
    ) -> Expr {
        let d = base.depth;
        let kind = ExprKind::Member {
            base: Box::new(base),
            name,
            name_span: Span::new(nl, r),
            arrow,
        };
        self.expr(kind, l, r, d)
    }

    /// A prefix or postfix unary operator.
    pub fn unary(&mut self, op: UnaryOp, e: Expr, l: usize, r: usize) -> Expr {
        let d = e.depth;
        self.expr(ExprKind::Unary(op, Box::new(e)), l, r, d)
    }

    /// `a[i]`
    pub fn index(&mut self, a: Expr, i: Expr, l: usize, r: usize) -> Expr {
        let d = a.depth.max(i.depth);
        self.expr(ExprKind::Index(Box::new(a), Box::new(i)), l, r, d)
    }

    /// `f(args)`
    pub fn call(&mut self, f: Expr, args: Option<Vec<Expr>>, l: usize, r: usize) -> Expr {
        let args = args.unwrap_or_default();
        let d = f.depth.max(max_depth(args.iter().map(|a| &a.depth)));
        self.expr(ExprKind::Call(Box::new(f), args), l, r, d)
    }
}

/// Tokens that can start an expression.
const EXPR_START: &[&str] = &[
    "Ident",
    "IntLit",
    "DoubleLit",
    "FloatLit",
    "LongDoubleLit",
    "CharLit",
    "StrLit",
    "(",
    "++",
    "--",
    "+",
    "-",
    "~",
    "!",
    "sizeof",
    "_Alignof",
    "__builtin_offsetof",
    "&",
    "*",
];
/// Type keywords (start a declaration, a parameter or a cast).
const TYPE_START: &[&str] = &[
    "void", "char", "int", "long", "unsigned", "double", "const", "volatile", "static", "extern",
    "typedef", "enum", "TypeName", "auto", "register", "inline", "short", "signed", "float",
    "_Bool", "struct", "union", "restrict", "typeof",
];
/// Keywords and tokens that can start a statement besides expressions.
const STMT_START: &[&str] = &[
    "if", "while", "do", "for", "switch", "case", "default", "break", "continue", "return", "{",
    ";", "goto",
];
/// Tokens that continue an expression (dropped from the list when a closing token is possible).
const CONTINUATION: &[&str] = &[
    "*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&",
    "||", "?", "=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", "[", "(", "++",
    "--", ".", "->",
];
/// Tokens that close a construct.
const CLOSERS: &[&str] = &[";", ")", "]", "}", ":", ","];

/// Describe lalrpop's list of expected terminals in words, e.g. "`;`", "an expression",
/// "`,` or `)`", "a declaration or statement".
pub fn describe_expected(expected: &[String]) -> String {
    let mut names: Vec<&str> = expected.iter().map(|e| e.trim_matches('"')).collect();
    let has = |names: &[&str], x: &str| names.contains(&x);
    let binary_ops_possible = has(&names, "+") && has(&names, "*");
    if binary_ops_possible && CLOSERS.iter().any(|c| has(&names, c)) {
        names.retain(|n| !CONTINUATION.contains(n));
    }
    if CLOSERS.iter().any(|&c| c != "," && has(&names, c)) && !has(&names, "Ident") {
        // A comma (operator, separator) is rarely what is missing when a closer is possible.
        names.retain(|&n| n != ",");
    }
    let mut phrases: Vec<String> = Vec::new();
    let expr_possible = has(&names, "Ident") && has(&names, "IntLit");
    let types_possible = TYPE_START.iter().filter(|t| has(&names, t)).count() >= 3;
    let stmt_possible = has(&names, "if") && has(&names, "while");
    if stmt_possible {
        if types_possible {
            phrases.push("a declaration".to_string());
        }
        phrases.push("a statement".to_string());
        names.retain(|n| {
            !STMT_START.contains(n) && !EXPR_START.contains(n) && !TYPE_START.contains(n)
        });
    } else {
        if types_possible {
            phrases.push("a type".to_string());
            names.retain(|n| !TYPE_START.contains(n));
        }
        if expr_possible {
            phrases.push("an expression".to_string());
            names.retain(|n| !EXPR_START.contains(n));
        }
    }
    for n in names {
        phrases.push(match n {
            "Ident" => "an identifier".to_string(),
            "IntLit" | "DoubleLit" | "FloatLit" | "LongDoubleLit" => "a number".to_string(),
            "CharLit" => "a character constant".to_string(),
            "StrLit" => "a string literal".to_string(),
            "TypeName" => "a type name".to_string(),
            other => format!("`{other}`"),
        });
    }
    phrases.dedup();
    if phrases.len() > 8 {
        phrases.truncate(8);
        phrases.push("...".to_string());
    }
    match phrases.as_slice() {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
