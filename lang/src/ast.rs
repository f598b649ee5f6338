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
    /// Unparsable text (a syntax error was reported).
    Error,
}

/// A base type as written by the type specifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    /// `void`
    Void,
    /// One of the scalar types.
    Scalar(ScalarType),
}

/// The specifiers of a declaration, parameter or cast: a type and `const`.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpecs {
    /// The type; `None` if the specifiers were invalid (the error is already reported).
    pub ty: Option<BaseType>,
    /// True if `const` was given.
    pub is_const: bool,
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
    /// Declarator and initializer.
    pub span: Span,
}

/// A declared name and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The name.
    pub name: String,
    /// The name's range.
    pub name_span: Span,
    /// Variable (maybe array) or function.
    pub kind: DeclaratorKind,
    /// The whole declarator.
    pub span: Span,
}

/// The shape of a declarator.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclaratorKind {
    /// A variable: a scalar if `dims` is empty, else an array.
    Object {
        /// The array dimensions `[N]`, outermost first.
        dims: Vec<ArrayDim>,
    },
    /// A function `name(params)`.
    Function {
        /// The parameters (empty for `()` and `(void)`).
        params: Vec<Param>,
    },
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
    /// Its name and the name's range (absent in prototypes such as `int f(int)`).
    pub name: Option<(String, Span)>,
    /// Array dimensions (the first may be `[]`).
    pub dims: Vec<ArrayDim>,
    /// The whole parameter.
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
}

impl Initializer {
    /// The initializer's range.
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List { span, .. } => *span,
        }
    }

    /// Nesting depth (0 for an expression).
    pub fn depth(&self) -> u32 {
        match self {
            Initializer::Expr(_) => 0,
            Initializer::List { depth, .. } => *depth,
        }
    }
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// Result specifiers.
    pub specs: DeclSpecs,
    /// The declarator (always [`DeclaratorKind::Function`]).
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
    /// `default: stmt`
    Default(Box<Stmt>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return expr;`
    Return(Option<Expr>),
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
    /// `(type) expr`
    Cast(DeclSpecs, Box<Expr>),
    /// `array[index]`
    Index(Box<Expr>, Box<Expr>),
    /// `callee(args)`
    Call(Box<Expr>, Vec<Expr>),
    /// Unparsable or too deeply nested (an error was reported).
    Error,
}
