//! The abstract syntax tree: the parser's output, the checker's input.
//!
//! The AST mirrors the source: names are strings, types are as written, nothing is converted.
//! Every node has a [`Span`]. Expressions, statements and initializer lists also record their
//! `depth` (height of the subtree); the parser never builds a subtree deeper than
//! [`MAX_DEPTH`], replacing it by an error node, so every later recursive pass (the checker,
//! and `Drop`) runs in bounded stack space whatever the input.

use crate::hir::ScalarType;
use crate::span::Span;

/// The deepest expression, statement or initializer nesting the front end accepts.
pub const MAX_DEPTH: u32 = 256;

/// A whole source file.
#[derive(Clone, Debug, PartialEq)]
pub struct TranslationUnit {
    /// The top-level items, in order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A declaration of globals and/or function prototypes.
    Decl(Declaration),
    /// A function definition.
    Function(Box<FunctionDef>),
    /// `_Static_assert(condition, "message");` (C11, which gcc accepts in C99 mode).
    StaticAssert(StaticAssert),
    /// Unparsable text (a syntax error was reported).
    Error,
}

/// `_Static_assert(condition, "message");`: a compile-time check, at file or block scope.
#[derive(Clone, Debug, PartialEq)]
pub struct StaticAssert {
    /// An integer constant expression that must not be 0.
    pub condition: Expr,
    /// The message shown when it is 0.
    pub message: Vec<u8>,
    /// The whole declaration.
    pub span: Span,
}

/// A base type as written by the type specifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    /// `void`
    Void,
    /// One of the scalar types.
    Scalar(ScalarType),
    /// `long double`.
    LongDouble,
}

/// A storage-class specifier (C99 6.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    /// `static`: at file scope, internal linkage (the name is private to its file); in a
    /// block, static storage.
    Static,
    /// `extern`: a declaration of an object or function defined in some file of the program.
    Extern,
    /// `typedef`
    Typedef,
    /// `auto` (block scope: what a local is anyway)
    Auto,
    /// `register` (block scope and parameters: a hint, ignored)
    Register,
}

impl StorageClass {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            StorageClass::Static => "static",
            StorageClass::Extern => "extern",
            StorageClass::Typedef => "typedef",
            StorageClass::Auto => "auto",
            StorageClass::Register => "register",
        }
    }
}

/// A type named by the specifiers rather than spelled with keywords: the checker resolves it.
#[derive(Clone, Debug, PartialEq)]
pub enum NamedType {
    /// A typedef name.
    Typedef {
        /// The name.
        name: String,
        /// Where it is written.
        span: Span,
    },
    /// `enum tag`, `enum tag { ... }` or `enum { ... }`.
    Enum(Box<EnumSpec>),
    /// `struct tag`, `union tag { ... }`, `struct { ... }`.
    Record(Box<RecordSpec>),
    /// GNU C's `typeof (expression)` or `typeof (type)` (also spelled `__typeof__`).
    TypeOf {
        /// What the type is taken of.
        arg: Box<TypeOfArg>,
        /// The whole specifier.
        span: Span,
    },
}

/// One step of `__builtin_offsetof`'s member designator: `.name` (the first one without the
/// dot) or `[index]`.
#[derive(Clone, Debug, PartialEq)]
pub enum OffsetofStep {
    /// A member, and where its name is written.
    Member(String, Span),
    /// An array index (an integer constant expression).
    Index(Expr),
}

/// What `typeof` takes the type of.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeOfArg {
    /// An expression: its type, without evaluating it (as `sizeof`).
    Expr(Expr),
    /// A type name.
    Type(TypeName),
}

/// A GNU C attribute that changes a layout (`__attribute__((aligned(16)))`,
/// `__attribute__((packed))`; `crate::gnu` drops the others).
#[derive(Clone, Debug, PartialEq)]
pub enum Attribute {
    /// `aligned(N)`, or `aligned` alone (`None`: the target's largest alignment, 16).
    Aligned(Option<Expr>, Span),
    /// `packed`.
    Packed(Span),
}

impl Attribute {
    /// True if `attrs` has `packed`.
    pub fn packed_in(attrs: &[Attribute]) -> bool {
        attrs.iter().any(|a| matches!(a, Attribute::Packed(_)))
    }
}

/// An `enum` specifier.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    /// The tag and its range, if any.
    pub tag: Option<(String, Span)>,
    /// The enumerators, if the specifier has a body.
    pub body: Option<Vec<Enumerator>>,
    /// Attributes after `enum` or after the body's `}` (`packed`).
    pub attrs: Vec<Attribute>,
    /// The whole specifier.
    pub span: Span,
}

/// One enumerator: `NAME` or `NAME = value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    /// The name.
    pub name: String,
    /// The name's range.
    pub name_span: Span,
    /// The explicit value.
    pub value: Option<Expr>,
}

/// The specifiers of a declaration, parameter or cast: a type, qualifiers and a storage class.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpecs {
    /// The type spelled with keywords; `None` if the specifiers were invalid (the error is
    /// already reported) or if the type is [`named`](Self::named).
    pub ty: Option<BaseType>,
    /// A typedef name or enum specifier, when the type is not spelled with keywords (boxed:
    /// rare, and the parser's stack entries stay small).
    pub named: Option<Box<NamedType>>,
    /// True if `const` was given.
    pub is_const: bool,
    /// True if `volatile` was given.
    pub is_volatile: bool,
    /// `static`, `extern` or `typedef`, with its range.
    pub storage: Option<(StorageClass, Span)>,
    /// Attributes among the specifiers, which apply to every declared name.
    pub attrs: Vec<Attribute>,
    /// The specifiers' range.
    pub span: Span,
}

/// A declaration: specifiers and one or more declarators.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// The shared specifiers.
    pub specs: DeclSpecs,
    /// The declarators, in order.
    pub declarators: Vec<InitDeclarator>,
    /// The whole declaration including `;`.
    pub span: Span,
}

/// A declarator with its optional initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    /// The declarator.
    pub declarator: Declarator,
    /// `= initializer`.
    pub init: Option<Box<Initializer>>,
    /// Attributes after the declarator (`char heap[N] __attribute__((aligned));`).
    pub attrs: Vec<Attribute>,
    /// Declarator and initializer.
    pub span: Span,
}

/// A declared name and its type derivations (C99 6.7.5): `*p`, `a[3]`, `f(int)`,
/// `(*fp)(int)`. An abstract declarator (in a cast, `sizeof` or an unnamed parameter) has an
/// empty name.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The name (empty for an abstract declarator).
    pub name: String,
    /// The name's range (for an abstract declarator, where the name would be).
    pub name_span: Span,
    /// The derivations, from the name outwards: `*a[3]` is `[Array(3), Pointer]` (an array of
    /// three pointers), `(*a)[3]` is `[Pointer, Array(3)]` (a pointer to an array of three).
    /// The declared type is the specifiers' type with these applied from the last to the first.
    pub derived: Vec<Derived>,
    /// The whole declarator.
    pub span: Span,
}

/// One type derivation of a declarator.
#[derive(Clone, Debug, PartialEq)]
pub enum Derived {
    /// `*` (with `const` if the pointer itself is const: `* const p`).
    Pointer {
        /// True for `* const`.
        is_const: bool,
        /// The `*` and its qualifiers.
        span: Span,
    },
    /// `[size]`.
    Array(ArrayDim),
    /// `(params)`.
    Function {
        /// The parameters (empty for `()` and `(void)`).
        params: Vec<Param>,
        /// True for empty parentheses `()`: in a declaration that is not a definition, C99
        /// leaves the parameters unspecified (`int f();`), unlike `(void)`.
        empty_parens: bool,
        /// True for an old-style identifier list `f(a, b)` (the parameters' types come from
        /// the declarations before the body; until then each is an `int`).
        old_style: bool,
        /// Where `, ...` is, if the parameter list ends with it (a variadic function).
        variadic: Option<Span>,
        /// From `(` to `)`.
        span: Span,
    },
}

impl Declarator {
    /// An abstract declarator with no derivations (the type is the specifiers' type).
    pub fn none(at: Span) -> Declarator {
        Declarator {
            name: String::new(),
            name_span: at,
            derived: Vec::new(),
            span: at,
        }
    }

    /// True if the declarator names nothing (a cast's or `sizeof`'s type, an unnamed
    /// parameter).
    pub fn is_abstract(&self) -> bool {
        self.name.is_empty()
    }

    /// The array dimensions, outermost first, if every derivation is an array (`a`, `a[2][3]`):
    /// the declarators the language had before pointers.
    pub fn plain_dims(&self) -> Option<Vec<&ArrayDim>> {
        self.derived
            .iter()
            .map(|d| match d {
                Derived::Array(dim) => Some(dim),
                _ => None,
            })
            .collect()
    }

    /// Where the `...` of a variadic function's parameter list is, if the declarator
    /// declares one.
    pub fn variadic(&self) -> Option<Span> {
        match self.derived.first() {
            Some(Derived::Function { variadic, .. }) => *variadic,
            _ => None,
        }
    }

    /// The parameters and `empty_parens` if the declarator declares a function (its first
    /// derivation is a parameter list; later ones derive the result type).
    pub fn function(&self) -> Option<(&[Param], bool)> {
        match self.derived.first() {
            Some(Derived::Function {
                params,
                empty_parens,
                ..
            }) => Some((params, *empty_parens)),
            _ => None,
        }
    }
}

/// One `[size]` of an array declarator.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDim {
    /// The size expression, absent in `[]`.
    pub size: Option<Expr>,
    /// From `[` to `]`.
    pub span: Span,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its specifiers.
    pub specs: DeclSpecs,
    /// Its declarator (abstract in prototypes such as `int f(int, char *)`).
    pub declarator: Declarator,
    /// The whole parameter.
    pub span: Span,
}

impl Param {
    /// The parameter's name and its range, unless the declarator is abstract.
    pub fn name(&self) -> Option<(&str, Span)> {
        (!self.declarator.is_abstract())
            .then_some((self.declarator.name.as_str(), self.declarator.name_span))
    }
}

/// A type name (C99 6.7.6): specifiers and an abstract declarator, as in casts and `sizeof`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    /// The specifiers.
    pub specs: DeclSpecs,
    /// The abstract declarator (no derivations for a plain `(int)`).
    pub declarator: Declarator,
}

/// A `struct` or `union` specifier.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSpec {
    /// True for `union`.
    pub is_union: bool,
    /// The tag and its range, if any.
    pub tag: Option<(String, Span)>,
    /// The member declarations, if the specifier has a body.
    pub members: Option<Vec<MemberDecl>>,
    /// Attributes after `struct`/`union` or after the body's `}` (`packed`, `aligned`).
    pub attrs: Vec<Attribute>,
    /// The whole specifier.
    pub span: Span,
}

/// A member declaration in a `struct` or `union` body: `int x, *p, bits : 3;`.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberDecl {
    /// The shared specifiers.
    pub specs: DeclSpecs,
    /// The declarators.
    pub declarators: Vec<MemberDeclarator>,
    /// The whole declaration including `;`.
    pub span: Span,
}

/// One member declarator, maybe a bit-field.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberDeclarator {
    /// The declarator (abstract for an unnamed bit-field `int : 3`).
    pub declarator: Declarator,
    /// The width of a bit-field.
    pub bits: Option<Expr>,
    /// Attributes after the declarator (`aligned`, `packed`).
    pub attrs: Vec<Attribute>,
    /// The whole member declarator.
    pub span: Span,
}

/// An initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// `= expr`.
    Expr(Expr),
    /// `= { ... }`.
    List {
        /// The elements.
        items: Vec<Initializer>,
        /// From `{` to `}`.
        span: Span,
        /// Nesting depth of braces (1 for a flat list).
        depth: u32,
    },
    /// `[index]... = value` inside a list (C99 6.7.8 designations).
    Designated {
        /// The designators, outermost first.
        designators: Vec<Designator>,
        /// The value.
        value: Box<Initializer>,
        /// From the first designator to the end of the value.
        span: Span,
    },
}

/// One designator of a designated initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    /// `[index]`
    Index(Expr, Span),
    /// `.member`
    Member(String, Span),
}

impl Initializer {
    /// The initializer's range.
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List { span, .. } | Initializer::Designated { span, .. } => *span,
        }
    }

    /// Nesting depth (0 for an expression).
    pub fn depth(&self) -> u32 {
        match self {
            Initializer::Expr(_) => 0,
            Initializer::List { depth, .. } => *depth,
            Initializer::Designated { value, .. } => value.depth(),
        }
    }
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// Result specifiers.
    pub specs: DeclSpecs,
    /// The declarator (its first derivation is the parameter list).
    pub declarator: Declarator,
    /// The body.
    pub body: Block,
    /// The whole definition.
    pub span: Span,
}

/// A `{ ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Declarations and statements, in order.
    pub items: Vec<BlockItem>,
    /// From `{` to `}`.
    pub span: Span,
}

/// An element of a block.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockItem {
    /// A local declaration.
    Decl(Declaration),
    /// A statement.
    Stmt(Stmt),
    /// `_Static_assert(condition, "message");`
    StaticAssert(StaticAssert),
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Its range.
    pub span: Span,
    /// Statement nesting depth (1 for a statement without sub-statements).
    pub depth: u32,
}

/// The first clause of a `for`.
#[derive(Clone, Debug, PartialEq)]
pub enum ForInit {
    /// `for (;`
    None,
    /// `for (expr;`
    Expr(Expr),
    /// `for (int i = 0;`
    Decl(Declaration),
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `{ ... }`
    Block(Block),
    /// `expr;`
    Expr(Expr),
    /// `;`
    Empty,
    /// `if (cond) then else otherwise`
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (cond) body`
    While(Expr, Box<Stmt>),
    /// `do body while (cond);`
    DoWhile(Box<Stmt>, Expr),
    /// `for (init; cond; step) body`
    For(
        Box<ForInit>,
        Option<Box<Expr>>,
        Option<Box<Expr>>,
        Box<Stmt>,
    ),
    /// `switch (value) body`
    Switch(Expr, Box<Stmt>),
    /// `case value: stmt`
    Case(Expr, Box<Stmt>),
    /// GNU C's `case low ... high: stmt`.
    CaseRange(Expr, Expr, Box<Stmt>),
    /// `default: stmt`
    Default(Box<Stmt>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return expr;`
    Return(Option<Expr>),
    /// `label: stmt`
    Labeled(String, Span, Box<Stmt>),
    /// `goto label;`
    Goto(String, Span),
    /// Unparsable text (a syntax error was reported).
    Error,
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its range.
    pub span: Span,
    /// Height of the expression tree (1 for a leaf).
    pub depth: u32,
}

/// Unary operators, including increments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `+x`
    Plus,
    /// `-x`
    Neg,
    /// `~x`
    BitNot,
    /// `!x`
    Not,
    /// `++x`
    PreInc,
    /// `--x`
    PreDec,
    /// `x++`
    PostInc,
    /// `x--`
    PostDec,
    /// `&x`
    AddrOf,
    /// `*p`
    Deref,
}

/// Binary operators (not assignments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinaryOp {
    /// The operator's spelling.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
        }
    }

    /// The binary operator of a punctuator (`"+"`, or `"+="` for compound assignment).
    pub fn from_symbol(s: &str) -> Option<BinaryOp> {
        use BinaryOp::*;
        Some(
            match s
                .strip_suffix('=')
                .filter(|s| !s.is_empty() && s.len() <= 2)
                .unwrap_or(s)
            {
                "*" => Mul,
                "/" => Div,
                "%" => Rem,
                "+" => Add,
                "-" => Sub,
                "<<" => Shl,
                ">>" => Shr,
                "<" => Lt,
                ">" => Gt,
                "<=" => Le,
                ">=" => Ge,
                "==" => Eq,
                "!=" => Ne,
                "&" => BitAnd,
                "^" => BitXor,
                "|" => BitOr,
                "&&" => And,
                "||" => Or,
                _ => return None,
            },
        )
    }
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A name.
    Ident(String),
    /// An integer constant and its type.
    Int(u64, ScalarType),
    /// A floating constant.
    Double(f64),
    /// A floating constant with an `f` suffix (type `float`).
    Float(f32),
    /// A floating constant with an `l`/`L` suffix (type `long double`): its 80 bits.
    LongDouble(u128),
    /// A character constant (type `int`).
    Char(i64),
    /// A string literal (adjacent literals concatenated).
    Str(Vec<u8>),
    /// A unary operator or increment.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (`None`) or `lhs op= rhs`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `cond ? a : b`
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b`
    Comma(Box<Expr>, Box<Expr>),
    /// `(type) expr` (the type boxed, so that expressions stay small)
    Cast(Box<TypeName>, Box<Expr>),
    /// `(type) { initializers }`: a compound literal (C99 6.5.2.5), an unnamed object of the
    /// type initialized by the braced list each time it is evaluated
    CompoundLiteral(Box<TypeName>, Box<Initializer>),
    /// `sizeof expr` (not evaluated)
    SizeofExpr(Box<Expr>),
    /// `sizeof (type)`
    SizeofType(Box<TypeName>),
    /// `_Alignof expr` (GNU C's `__alignof__ expr`): the alignment of the expression's type.
    AlignofExpr(Box<Expr>),
    /// `_Alignof (type)` (`__alignof__ (type)`).
    AlignofType(Box<TypeName>),
    /// `__builtin_offsetof(type, member...)`: the byte offset of the member (`offsetof`).
    Offsetof(Box<TypeName>, Vec<OffsetofStep>),
    /// GNU C's statement expression `({ items })`: runs the block; its value is the last
    /// item's, when that is an expression statement (else it is void).
    StmtExpr(Box<Block>),
    /// `array[index]`
    Index(Box<Expr>, Box<Expr>),
    /// `callee(args)`
    Call(Box<Expr>, Vec<Expr>),
    /// `base.name` (`arrow` false) or `base->name` (`arrow` true).
    Member {
        /// The structure (or, with `->`, the pointer to it).
        base: Box<Expr>,
        /// The member's name.
        name: String,
        /// The member name's range.
        name_span: Span,
        /// True for `->`.
        arrow: bool,
    },
    /// Unparsable or too deeply nested (an error was reported).
    Error,
}
