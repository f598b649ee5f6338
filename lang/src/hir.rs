//! The typed high-level IR: the checker's output and the compiler's input.
//!
//! The HIR is the program after name resolution and type checking, with every one of C's implicit
//! conversions made explicit. Its architecture invariants, which the compiler relies on and the
//! checker guarantees:
//!
//! 1. **Names are resolved.** Variables are [`LocalId`]s (per function; every declaration gets its
//!    own id, so shadowing creates a new one; parameters are the first locals) or [`GlobalId`]s;
//!    calls name a [`FuncId`]. Prototypes are gone: only definitions appear, and a call to a
//!    declared but never defined function is a check error.
//! 2. **Conversions are explicit.** Arithmetic happens only on `int`, `unsigned int`, `long`,
//!    `unsigned long`, `float` and `double`: the checker wraps operands in [`ExprKind::Convert`]
//!    for the integer promotions, the usual arithmetic conversions, conversions at assignment,
//!    argument passing and return, and casts. Values of the types narrower than `int`
//!    (`_Bool`, `char`, `unsigned char`, `short`, `unsigned short`) appear only where storage is
//!    read or written (loads, stores, conversions to them, calls of functions returning them);
//!    every arithmetic use of one goes through a `Convert`.
//! 3. **Both operands of an arithmetic [`ExprKind::Binary`] have the node's type**, except shifts:
//!    for `<<` and `>>` the left operand is promoted and has the node's type, and the right
//!    operand (the count) is *converted to `long`*. That conversion preserves every count's
//!    value except `unsigned long` counts above `LONG_MAX`, which become negative; so the
//!    runtime check `count < 0 || count >= bits(node type)` on the `long` count (equivalently an
//!    unsigned compare of its 64 bits with the width) is exactly C's "out of range".
//!    Comparisons carry their operand type and produce `int`.
//! 4. **Conditions** (of `if`, loops, `?:`, `&&`, `||`, `!`) are scalar expressions of one of the
//!    six arithmetic types (never narrower than `int`, never void) and mean "is not zero".
//! 5. **Array indices are converted to `long`** ([`ScalarType::Long`]); the compiler checks each
//!    against its dimension at run time (`0 <= i < dim`).
//! 6. **Constants are already of their type.** An integer constant is an `i64` holding the value
//!    of its type: sign-extended for the signed types, zero-extended for `unsigned char`,
//!    `unsigned short` and `unsigned int`, 0 or 1 for `_Bool`, the bit pattern for
//!    `unsigned long`. A floating constant is an `f64`; one of type `float` holds exactly a
//!    binary32 value (every `float` is exactly a `double`).
//!
//! Runtime checks are the compiler's business, not the checker's: division and remainder by zero,
//! index out of bounds, shift count out of range and recursion depth. Signed overflow wraps.

use std::fmt;

use crate::builtins::memory::MemFn;
use crate::builtins::Builtin;
use crate::printf_format::Piece;
pub use crate::scalar::ScalarType;
use crate::span::Span;

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The id with index `index`.
            pub fn new(index: usize) -> Self {
                Self(u32::try_from(index).expect("more than u32::MAX ids"))
            }

            /// The index of this id, for indexing the vector it refers to.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

typed_id!(
    /// A function: index into [`Program::functions`]. Displays as `f3`.
    FuncId,
    "f"
);
typed_id!(
    /// A local variable or parameter: index into its [`Function::locals`]. Displays as `l3`.
    LocalId,
    "l"
);
typed_id!(
    /// A global variable: index into [`Program::globals`]. Displays as `g3`.
    GlobalId,
    "g"
);

typed_id!(
    /// A statement label of a function (the target of `goto`), numbered per function in order of
    /// first mention. Displays as `L3`.
    LabelId,
    "L"
);

/// The values a `case` label matches: one (`low == high`), or GNU C's range `case low ...
/// high:`, both ends included, in the order of the switch's type (signed or unsigned), each
/// converted to that type as an integer constant (invariant 6). Shown as `3` or `1...5`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CaseRange {
    /// The first value matched.
    pub low: i64,
    /// The last value matched (`low` for a plain `case`).
    pub high: i64,
}

impl CaseRange {
    /// The label `case value:`.
    pub fn single(value: i64) -> CaseRange {
        CaseRange {
            low: value,
            high: value,
        }
    }

    /// The number of values matched minus one: `high - low` in the switch type's order, as
    /// an unsigned 64-bit count (the width of the range's unsigned compare).
    pub fn extent(self) -> u64 {
        (self.high as u64).wrapping_sub(self.low as u64)
    }

    /// Whether the label matches `value` (a bit pattern of the switch's type).
    pub fn contains(self, value: i64) -> bool {
        (value as u64).wrapping_sub(self.low as u64) <= self.extent()
    }
}

impl fmt::Debug for CaseRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.low == self.high {
            write!(f, "{}", self.low)
        } else {
            write!(f, "{}...{}", self.low, self.high)
        }
    }
}

/// The type of a variable's storage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// One scalar.
    Scalar(ScalarType),
    /// An array of `dims.iter().product()` elements in row-major order, `dims` outermost first.
    /// Every dimension is at least 1.
    Array {
        /// Element type.
        elem: ScalarType,
        /// The dimensions, outermost first (`int m[2][3]` has `[2, 3]`).
        dims: Vec<u32>,
    },
    /// A structure, a union, or an array of them: `size` bytes in memory, aligned to `align`,
    /// only ever accessed through pointers to it ([`ExprKind::ObjectAddr`]).
    Object {
        /// Size in bytes.
        size: u64,
        /// Alignment in bytes.
        align: u64,
    },
    /// An array parameter (`T a[]`, `T a[][N]`): a reference to the caller's array (or to a row
    /// of it), whose first dimension is not known statically but comes from the argument at run
    /// time. Writes through it are seen by the caller.
    ArrayRef {
        /// Element type.
        elem: ScalarType,
        /// The dimensions after the first (empty for `T a[]`, `[N]` for `T a[][N]`).
        inner: Vec<u32>,
    },
}

impl Type {
    /// The element type of an array, or the type of a scalar (`unsigned char` for the bytes
    /// of an [`Type::Object`]).
    pub fn elem(&self) -> ScalarType {
        match self {
            Type::Scalar(t) => *t,
            Type::Array { elem, .. } | Type::ArrayRef { elem, .. } => *elem,
            Type::Object { .. } => ScalarType::UChar,
        }
    }

    /// Number of indices needed to reach one element (0 for a scalar or an object).
    pub fn rank(&self) -> usize {
        match self {
            Type::Scalar(_) | Type::Object { .. } => 0,
            Type::Array { dims, .. } => dims.len(),
            Type::ArrayRef { inner, .. } => inner.len() + 1,
        }
    }

    /// Total number of elements of a fixed-size array (1 for a scalar, the size in bytes for
    /// an object, `None` for a reference).
    pub fn size(&self) -> Option<u64> {
        match self {
            Type::Scalar(_) => Some(1),
            Type::Object { size, .. } => Some(*size),
            Type::Array { dims, .. } => Some(dims.iter().map(|&d| u64::from(d)).product()),
            Type::ArrayRef { .. } => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Scalar(t) => write!(f, "{t}"),
            Type::Array { elem, dims } => {
                write!(f, "{elem}")?;
                dims.iter().try_for_each(|d| write!(f, "[{d}]"))
            }
            Type::ArrayRef { elem, inner } => {
                write!(f, "{elem}[]")?;
                inner.iter().try_for_each(|d| write!(f, "[{d}]"))
            }
            Type::Object { size, align } => write!(f, "object({size} bytes, align {align})"),
        }
    }
}

/// A checked program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Global variables, indexed by [`GlobalId`], in declaration order.
    pub globals: Vec<Global>,
    /// Function definitions, indexed by [`FuncId`], in order of their first declaration.
    pub functions: Vec<Function>,
    /// The `main` function (it returns `int` and takes no parameters).
    pub main: FuncId,
}

impl Program {
    /// The function `id`.
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    /// The global `id`.
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.index()]
    }
}

/// A compile-time constant value of a scalar type (global initializers).
#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    /// An integer of the slot's type, represented as in invariant 6 of the module docs.
    Int(i64),
    /// A `double`.
    Double(f64),
    /// An address constant (C99 6.6p9): a pointer `offset` bytes from the start of `base`.
    Address {
        /// What it points into.
        base: AddressBase,
        /// Bytes from its start.
        offset: i64,
    },
}

/// The object or function an address constant points into.
#[derive(Clone, Debug, PartialEq)]
pub enum AddressBase {
    /// A global variable (or `static` local).
    Global(GlobalId),
    /// A function.
    Function(FuncId),
    /// A string literal's array (its bytes, with the terminating NUL).
    String(Vec<u8>),
}

/// One scalar an object's initializer sets: a member, an element or a bit-field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInit<V> {
    /// Byte offset in the object (for a bit-field, of its storage unit).
    pub offset: u64,
    /// The type of the value in memory (a bit-field's unit type).
    pub ty: ScalarType,
    /// For a bit-field, its first bit in the unit and its width.
    pub bits: Option<(u32, u32)>,
    /// The value (an expression of type `ty` for a local, a constant for a global).
    pub value: V,
}

/// A global variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// Its name in the source.
    pub name: String,
    /// Its type (never [`Type::ArrayRef`]).
    pub ty: Type,
    /// Initial values, one per element in row-major order, already converted to the element
    /// type. The list may be shorter than the variable (`ty.size()` elements): the elements
    /// after it are zero. It ends at the last element an initializer gives, so a large array
    /// without initializer costs nothing here (`int a[10000000];` has an empty list). Empty
    /// for a [`Type::Object`], whose initializer is `fields`.
    pub init: Vec<ConstValue>,
    /// For a [`Type::Object`]: the scalars its initializer sets (the rest is zero).
    pub fields: Vec<FieldInit<ConstValue>>,
    /// The alignment GNU C's `aligned` attribute asks for (1 without it); the variable is
    /// aligned to the larger of this and its type's alignment.
    pub align: u64,
    /// The declarator's span.
    pub span: Span,
}

/// A local variable or parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    /// Its name in the source.
    pub name: String,
    /// Its type ([`Type::ArrayRef`] only for array parameters).
    pub ty: Type,
    /// The alignment GNU C's `aligned` attribute asks for (1 without it; at most
    /// `crate::bytecode::ARRAY_ALIGN`, the alignment of a frame's array area).
    pub align: u64,
    /// The declarator's span.
    pub span: Span,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Its name in the source.
    pub name: String,
    /// The parameters, in order: always `LocalId(0)..LocalId(params.len())`.
    pub params: Vec<LocalId>,
    /// Every local of the function (parameters first), indexed by [`LocalId`]. All locals are
    /// zeroed once at function entry (reading an uninitialized local gives 0).
    pub locals: Vec<Local>,
    /// Result type; `None` for `void`.
    pub ret: Option<ScalarType>,
    /// The body.
    pub body: Block,
    /// Span of the definition's declarator (name and parameter list).
    pub span: Span,
}

impl Function {
    /// The local `id`.
    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.index()]
    }
}

/// A braced block (or the body of a function or switch).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements, in order.
    pub stmts: Vec<Stmt>,
    /// From the `{` to the `}`.
    pub span: Span,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Its source range.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// A nested block `{ ... }`; also the empty statement `;` (an empty block).
    Block(Block),
    /// An expression evaluated for its side effects.
    Expr(Expr),
    /// A declaration of one local. Without an initializer nothing happens at run time; with one,
    /// the local is (re)initialized every time control passes here.
    Decl {
        /// The declared local.
        local: LocalId,
        /// Its initializer.
        init: Option<Init>,
    },
    /// `if (cond) then_branch else else_branch`.
    If {
        /// The condition (invariant 4).
        cond: Expr,
        /// Taken when `cond` is not zero.
        then_branch: Box<Stmt>,
        /// Taken otherwise, if present.
        else_branch: Option<Box<Stmt>>,
    },
    /// `while (cond) body`.
    While {
        /// The condition (invariant 4), tested before each iteration.
        cond: Expr,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// The loop body.
        body: Box<Stmt>,
        /// The condition (invariant 4), tested after each iteration.
        cond: Expr,
    },
    /// `for (init; cond; step) body`. `init`'s declarations are scoped to the loop.
    For {
        /// Declarations or one expression statement, run once before the loop.
        init: Vec<Stmt>,
        /// The condition (invariant 4); `None` means always true.
        cond: Option<Expr>,
        /// Evaluated after the body and on `continue`.
        step: Option<Expr>,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `switch (value) body`. Control jumps to the `Case` label whose value equals `value`, else
    /// to `Default` if there is one, else past the switch. Labels fall through.
    Switch {
        /// The controlling expression, promoted (`int`, `unsigned int`, `long` or `unsigned long`).
        value: Expr,
        /// The body, containing the [`StmtKind::Case`] and [`StmtKind::Default`] labels of this
        /// switch anywhere inside it (at any block depth, but neither inside a nested switch nor
        /// inside a loop within this switch, so control never jumps into a loop).
        body: Block,
        /// The case values and ranges, in source order, disjoint, converted to `value`'s type.
        cases: Vec<CaseRange>,
        /// True if the body contains a `default:` label.
        has_default: bool,
    },
    /// A `case` label of the innermost enclosing switch; the value (or GNU C's range) is
    /// converted to the switch's type (invariant 6). The labelled statement follows as the next
    /// statement.
    Case(CaseRange),
    /// The `default:` label of the innermost enclosing switch.
    Default,
    /// Leave the innermost loop or switch.
    Break,
    /// Go to the next iteration of the innermost loop (its step, for `for`).
    Continue,
    /// Return from the function; the value is converted to the result type.
    Return(Option<Expr>),
    /// A statement label (`name:`): the target of the `goto`s naming it. The labelled
    /// statement follows as the next statement.
    Label(LabelId),
    /// `goto name;`: jump to the label, which is somewhere in the same function (before or
    /// after, possibly inside a loop or block that control has not entered).
    Goto(LabelId),
}

/// The initializer of a local declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// `= expr` for a scalar, converted to the local's type.
    Scalar(Expr),
    /// A brace initializer of an array: the array is first zero-filled, then each listed
    /// element (flat row-major index, value converted to the element type) is stored, in order.
    Array(Vec<(u32, Expr)>),
    /// The initializer of a [`Type::Object`]: zero-filled, then each listed scalar stored, in
    /// order.
    Object(Vec<FieldInit<Expr>>),
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type; `None` for void (calls of void functions, `printf`, `puts`, and `?:` or `,`
    /// whose result is void). A void expression only appears as an expression statement, the
    /// left operand of `,`, a `for` step, or an operand of such a void `?:`/`,`.
    pub ty: Option<ScalarType>,
    /// Its source range.
    pub span: Span,
}

/// An lvalue: a scalar storage location.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// A scalar local.
    Local(LocalId),
    /// A scalar global.
    Global(GlobalId),
    /// One element of an array, with exactly one index per dimension (`rank` of its type), each
    /// converted to `long` (invariant 5).
    Element {
        /// The array.
        array: ArrayBase,
        /// The indices, outermost first.
        indices: Vec<Expr>,
    },
    /// A bit-field: `width` bits from bit `bit_offset` of the storage unit of type `unit` at
    /// `offset` bytes from `ptr` (little-endian: bit 0 is the lowest bit of the first byte).
    /// Read, the bits are sign-extended for a signed `unit` and zero-extended otherwise (the
    /// value has type `unit`); written, the value is truncated to `width` bits and the other
    /// bits of the unit are kept.
    BitField {
        /// The pointer to the structure (or to the unit's object).
        ptr: Box<Expr>,
        /// The storage unit's byte offset.
        offset: i64,
        /// The storage unit's type (the bit-field's declared type).
        unit: ScalarType,
        /// The first bit within the unit.
        bit_offset: u32,
        /// The number of bits (1 to the unit's width).
        width: u32,
    },
    /// The value of type `ty` stored at `offset` bytes from the pointer `ptr` (`*p`, `p[i]`
    /// once `p + i` is computed, `p->x`). Checked at run time: `ptr` must point into a live
    /// object with `ty`'s size of room at that offset, suitably aligned.
    Deref {
        /// The pointer (of type [`ScalarType::Ptr`]).
        ptr: Box<Expr>,
        /// A constant byte offset added to it.
        offset: i64,
        /// The type of the value in memory.
        ty: ScalarType,
    },
}

/// The variable holding an array: a local array, an array parameter ([`Type::ArrayRef`]) or a
/// global array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayBase {
    /// A local array or array parameter.
    Local(LocalId),
    /// A global array.
    Global(GlobalId),
}

/// An argument of a user function call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A scalar argument, converted to the parameter's type.
    Scalar(Expr),
    /// An array argument passed by reference: the array `base`, or the sub-array selected by a
    /// prefix of its indices (`m[i]` passes row `i` of `int m[R][C]` as an `int[C]`). The
    /// element type and the dimensions after the first match the parameter's.
    Array {
        /// The array variable.
        base: ArrayBase,
        /// Leading indices (fewer than the array's rank), each converted to `long`.
        indices: Vec<Expr>,
    },
    /// A pointer passed to an array parameter: converted at run time to the array of the
    /// rows (`stride` bytes each) from the pointer to the end of its object, which must be
    /// live and aligned (a null pointer gives an empty array).
    FromPointer {
        /// The pointer, converted to the parameter's pointer type.
        ptr: Expr,
        /// Bytes per element of the parameter's first dimension.
        stride: u64,
    },
}

/// Unary operators on arithmetic values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x` (wrapping for integers). Operand has the node's type.
    Neg,
    /// `~x`, integers only. Operand has the node's type.
    BitNot,
    /// `!x`: 1 if the operand (any arithmetic type) is zero, else 0; the node is `int`.
    Not,
}

/// Binary arithmetic and bitwise operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+` (wrapping for integers).
    Add,
    /// `-` (wrapping for integers).
    Sub,
    /// `*` (wrapping for integers).
    Mul,
    /// `/`: truncating for integers (runtime error on zero; `MIN / -1` wraps).
    Div,
    /// `%`: integers only (runtime error on zero; `MIN % -1` is 0).
    Rem,
    /// `&`, integers only.
    BitAnd,
    /// `|`, integers only.
    BitOr,
    /// `^`, integers only.
    BitXor,
    /// `<<`, integers only (runtime error if the count is out of range).
    Shl,
    /// `>>`, integers only: arithmetic for signed types, logical for unsigned.
    Shr,
}

impl BinaryOp {
    /// The C operator (`"<<"`).
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
        }
    }
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// The C operator (`"<="`).
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "==",
            CompareOp::Ne => "!=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }

    /// The operator's code as `__ld_compare` takes it (0 to 5 in declaration order).
    pub fn code(self) -> i64 {
        match self {
            CompareOp::Eq => 0,
            CompareOp::Ne => 1,
            CompareOp::Lt => 2,
            CompareOp::Le => 3,
            CompareOp::Gt => 4,
            CompareOp::Ge => 5,
        }
    }

    /// The operator with code `code` (see [`CompareOp::code`]).
    pub fn from_code(code: i64) -> Option<CompareOp> {
        Some(match code {
            0 => CompareOp::Eq,
            1 => CompareOp::Ne,
            2 => CompareOp::Lt,
            3 => CompareOp::Le,
            4 => CompareOp::Gt,
            5 => CompareOp::Ge,
            _ => return None,
        })
    }

    /// Whether `order` (`None`: unordered, a NaN) satisfies the comparison, as C's operators
    /// on floating values do.
    pub fn holds(self, order: Option<std::cmp::Ordering>) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match (self, order) {
            (CompareOp::Ne, None) => true,
            (_, None) => false,
            (CompareOp::Eq, Some(o)) => o == Equal,
            (CompareOp::Ne, Some(o)) => o != Equal,
            (CompareOp::Lt, Some(o)) => o == Less,
            (CompareOp::Le, Some(o)) => o != Greater,
            (CompareOp::Gt, Some(o)) => o == Greater,
            (CompareOp::Ge, Some(o)) => o != Less,
        }
    }
}

/// The kinds of expression. Unless stated otherwise, operands are evaluated left to right.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer constant of the node's type (invariant 6).
    IntConst(i64),
    /// A floating constant of the node's type (`double`, or `float` holding exactly a binary32
    /// value).
    DoubleConst(f64),
    /// A string literal. As an argument of [`ExprKind::Printf`] for a `%s` conversion its
    /// type is `None` and the bytes exclude the terminating NUL; anywhere else its type is
    /// [`ScalarType::Ptr`], a pointer to the first of its bytes (which include the terminating
    /// NUL) in a static array.
    StringLit(Vec<u8>),
    /// Read a scalar place; the node has the place's type (possibly `char`).
    Load(Place),
    /// Convert `expr` (of any scalar type) to `to` (== the node's type), with C's semantics:
    /// integer to integer truncates or extends (sign-extends from signed sources), anything to
    /// `_Bool` is `!= 0`, integer to floating and `double` to `float` round to nearest (once),
    /// floating to integer truncates toward zero (out-of-range values are undefined in C; the VM
    /// does what x86-64 gcc code does), `float` to `double` is exact.
    Convert {
        /// The converted expression.
        expr: Box<Expr>,
        /// The target type.
        to: ScalarType,
    },
    /// A unary operator (see [`UnaryOp`] for operand types).
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<Expr>,
    },
    /// Binary arithmetic: both operands have the node's type, except the count of a shift,
    /// which is `long` (invariant 3).
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// A comparison of two operands of type `operand_ty`; the node is `int` (0 or 1).
    Compare {
        /// The operator.
        op: CompareOp,
        /// The type both operands have (one of the five arithmetic types).
        operand_ty: ScalarType,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `lhs && rhs`: `int` 1 if both are non-zero; `rhs` is evaluated only if `lhs` is non-zero.
    LogicalAnd {
        /// Left operand (invariant 4).
        lhs: Box<Expr>,
        /// Right operand (invariant 4).
        rhs: Box<Expr>,
    },
    /// `lhs || rhs`: `int` 1 if either is non-zero; `rhs` is evaluated only if `lhs` is zero.
    LogicalOr {
        /// Left operand (invariant 4).
        lhs: Box<Expr>,
        /// Right operand (invariant 4).
        rhs: Box<Expr>,
    },
    /// `cond ? then_expr : else_expr`: evaluates only the selected arm. Both arms have the
    /// node's type (both are void if the node is).
    Conditional {
        /// The condition (invariant 4).
        cond: Box<Expr>,
        /// Value if `cond` is non-zero.
        then_expr: Box<Expr>,
        /// Value otherwise.
        else_expr: Box<Expr>,
    },
    /// `lhs, rhs`: evaluate `lhs` for its effects, then `rhs`; the node has `rhs`'s type.
    Comma {
        /// Evaluated first, value discarded.
        lhs: Box<Expr>,
        /// The result.
        rhs: Box<Expr>,
    },
    /// `place = value`: `value` is already of the place's type; the node has the place's type
    /// and its value is the stored value.
    Assign {
        /// Where to store.
        place: Place,
        /// What to store.
        value: Box<Expr>,
    },
    /// `place op= value`: load the place, convert it to `op_ty`, apply `op` with `value` (already
    /// of type `op_ty`; for shifts the count is `long`, invariant 3), convert the result back to
    /// the place's type and store
    /// it. The node has the place's type and its value is the stored value. The place's
    /// indices are evaluated once.
    CompoundAssign {
        /// Where to load from and store to.
        place: Place,
        /// The arithmetic operator.
        op: BinaryOp,
        /// The type the operation is done in (usual arithmetic conversions of the place's and
        /// the value's types; for shifts, the promoted place type).
        op_ty: ScalarType,
        /// The right operand, of type `op_ty`.
        value: Box<Expr>,
    },
    /// `++place`, `place++`, `--place`, `place--` on any scalar place (including `char`, which
    /// wraps, `double`, which adds 1.0, and pointers, which step by `scale` bytes). The node has
    /// the place's type; its value is the new value if `prefix`, else the old value.
    IncDec {
        /// The place to modify.
        place: Place,
        /// `++` if true, `--` if false.
        increment: bool,
        /// Prefix form (value after) if true, postfix (value before) if false.
        prefix: bool,
        /// For a pointer place, the pointed-to type's size (1 otherwise).
        scale: i64,
    },
    /// A call of a user-defined function; the node has its result type (`None` for void).
    Call {
        /// The callee.
        func: FuncId,
        /// One argument per parameter, matching its kind and type.
        args: Vec<Arg>,
    },
    /// A call of a library function; `args` are converted to [`Builtin::params`] and the node
    /// has [`Builtin::result`]'s type.
    Builtin {
        /// The library function.
        func: Builtin,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// A call of a library function on memory ([`MemFn`]): `args` converted to its
    /// parameters; the node has its result type.
    Memory {
        /// The function.
        func: MemFn,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `sprintf(buffer, "format", ...)` or `snprintf(buffer, limit, "format", ...)`: formats
    /// as `printf` does into the characters `buffer` points to (at most `limit - 1` of them
    /// and a NUL, for `snprintf`); the node is the `int` count of characters the whole output
    /// has.
    Sprintf {
        /// Where to write (`char *`).
        buffer: Box<Expr>,
        /// `snprintf`'s size limit (`unsigned long`).
        limit: Option<Box<Expr>>,
        /// The parsed format string.
        format: Vec<Piece>,
        /// The arguments, as for [`ExprKind::Printf`].
        args: Vec<Expr>,
    },
    /// `printf` with a literal format, parsed. `args` are in order, after the default argument
    /// promotions (`char` to `int`), one per conversion that takes an argument, each of the type
    /// its conversion requires (`%d` `int`, `%ld` `long`, `%u`/`%x` `unsigned int`, `%f` `double`,
    /// `%c` `int`, `%s` a [`ExprKind::StringLit`] or a `char *`). The node is the `int` count
    /// of bytes written.
    Printf {
        /// The parsed format string.
        format: Vec<Piece>,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `puts("...")`: writes `text` then a newline. The node is the `int` count of bytes
    /// written (glibc's result).
    Puts {
        /// The string literal's bytes, without the terminating NUL.
        text: Vec<u8>,
    },
    /// `(void)expr`: evaluates `expr` for its effects and discards its value. The node is void.
    Discard(Box<Expr>),
    /// A pointer to the first byte of a variable that lives in memory: an array, or a scalar
    /// local whose address is taken (stored as a one-element array).
    ObjectAddr(ArrayBase),
    /// A pointer to the element (or row) of an array selected by a prefix of its indices
    /// (each converted to `long`): `&a[i]`, `&m[i][j]`, and `m[i]` used as a value. Indices
    /// are not checked here (a pointer may point anywhere); the access through it is.
    ElementAddr {
        /// The array.
        array: ArrayBase,
        /// Leading indices, outermost first (fewer than or as many as the array's rank).
        indices: Vec<Expr>,
    },
    /// A pointer to the function `FuncId`.
    FuncAddr(FuncId),
    /// Copy `size` bytes from the object `src` points to to the one `dst` points to (structure
    /// assignment; both pointers checked, the objects may be the same). The node is void.
    CopyObject {
        /// The destination.
        dst: Box<Expr>,
        /// The source.
        src: Box<Expr>,
        /// Bytes to copy.
        size: u64,
    },
    /// `ptr + index * scale`: pointer arithmetic (`index` is `long`, `scale` the pointed-to
    /// type's size in bytes, negative for `ptr - index`). The address must stay within the
    /// VM's 32-bit address space (else a runtime error); it may point anywhere else.
    PtrAdd {
        /// The pointer.
        ptr: Box<Expr>,
        /// The number of elements to step (`long`).
        index: Box<Expr>,
        /// Bytes per step.
        scale: i64,
    },
    /// `(lhs - rhs) / scale` for two pointers into the same object (a runtime error
    /// otherwise): the number of elements between them, a `long`.
    PtrDiff {
        /// The first pointer.
        lhs: Box<Expr>,
        /// The second pointer.
        rhs: Box<Expr>,
        /// The pointed-to type's size in bytes.
        scale: i64,
    },
    /// Runs `init` (the declaration and initialization of a compound literal's unnamed
    /// object), then evaluates `value` (its address), which gives the node its type.
    WithInit {
        /// The statements run first.
        init: Vec<Stmt>,
        /// The value.
        value: Box<Expr>,
    },
    /// A call through a pointer to a function: the callee is checked at run time to be a
    /// function taking as many arguments. The node has the result type (`None` for void).
    CallIndirect {
        /// The pointer to the function.
        callee: Box<Expr>,
        /// The arguments, converted to the pointed-to function type's parameters.
        args: Vec<Arg>,
    },
}

/// A compact, indented text form of the HIR, for tests and debugging (`Program::dump`).
///
/// Constants carry their type as a suffix (`5:int`, `5:ulong`, `2.5:double`); conversions are
/// written as the target type applied to the operand (`long(l0)`); arithmetic and comparison
/// operators carry the type they operate in (`(l0 +:long 1:long)`, `(l0 <:double l1)`).
pub mod dump {
    use super::*;

    fn short(t: ScalarType) -> &'static str {
        match t {
            ScalarType::Bool => "bool",
            ScalarType::Char => "char",
            ScalarType::UChar => "uchar",
            ScalarType::Short => "short",
            ScalarType::UShort => "ushort",
            ScalarType::Int => "int",
            ScalarType::UInt => "uint",
            ScalarType::Long => "long",
            ScalarType::ULong => "ulong",
            ScalarType::Float => "float",
            ScalarType::Double => "double",
            ScalarType::Ptr => "pointer",
        }
    }

    fn bytes(b: &[u8]) -> String {
        format!("{:?}", String::from_utf8_lossy(b))
    }

    fn place(p: &Place) -> String {
        match p {
            Place::Local(id) => id.to_string(),
            Place::Global(id) => id.to_string(),
            Place::Element { array, indices } => format!("{}[{}]", base(array), list(indices)),
            Place::Deref { ptr, offset, ty } => {
                format!("*:{}({} + {offset})", short(*ty), expr(ptr))
            }
            Place::BitField {
                ptr,
                offset,
                unit,
                bit_offset,
                width,
            } => format!(
                "bits:{}({} + {offset})[{bit_offset}:{width}]",
                short(*unit),
                expr(ptr)
            ),
        }
    }

    fn base(b: &ArrayBase) -> String {
        match b {
            ArrayBase::Local(id) => id.to_string(),
            ArrayBase::Global(id) => id.to_string(),
        }
    }

    fn list(es: &[Expr]) -> String {
        es.iter().map(expr).collect::<Vec<_>>().join(", ")
    }

    fn format_string(pieces: &[Piece]) -> String {
        let mut out = Vec::new();
        for p in pieces {
            match p {
                Piece::Literal(b) => out.extend_from_slice(b),
                Piece::Conversion(s) => {
                    out.push(b'%');
                    out.extend_from_slice(s.length.as_str().as_bytes());
                    out.push(s.conv_char);
                }
            }
        }
        bytes(&out)
    }

    /// One expression on one line.
    pub fn expr(e: &Expr) -> String {
        let ty = e.ty.map_or("void", short);
        match &e.kind {
            ExprKind::IntConst(v) => format!("{v}:{ty}"),
            ExprKind::DoubleConst(x) => format!("{x:?}:{ty}"),
            ExprKind::StringLit(b) => bytes(b),
            ExprKind::Load(p) => place(p),
            ExprKind::Convert { expr: x, to } => format!("{}({})", short(*to), expr(x)),
            ExprKind::Unary { op, operand } => {
                let op = match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::BitNot => "~",
                    UnaryOp::Not => "!",
                };
                format!("({op}:{ty} {})", expr(operand))
            }
            ExprKind::Binary { op, lhs, rhs } => {
                format!("({} {}:{ty} {})", expr(lhs), op.symbol(), expr(rhs))
            }
            ExprKind::Compare {
                op,
                operand_ty,
                lhs,
                rhs,
            } => {
                format!(
                    "({} {}:{} {})",
                    expr(lhs),
                    op.symbol(),
                    short(*operand_ty),
                    expr(rhs)
                )
            }
            ExprKind::LogicalAnd { lhs, rhs } => format!("({} && {})", expr(lhs), expr(rhs)),
            ExprKind::LogicalOr { lhs, rhs } => format!("({} || {})", expr(lhs), expr(rhs)),
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                format!(
                    "({} ? {} : {}):{ty}",
                    expr(cond),
                    expr(then_expr),
                    expr(else_expr)
                )
            }
            ExprKind::Comma { lhs, rhs } => format!("({}, {})", expr(lhs), expr(rhs)),
            ExprKind::Assign { place: p, value } => {
                format!("({} = {}):{ty}", place(p), expr(value))
            }
            ExprKind::CompoundAssign {
                place: p,
                op,
                op_ty,
                value,
            } => {
                format!(
                    "({} {}=:{} {}):{ty}",
                    place(p),
                    op.symbol(),
                    short(*op_ty),
                    expr(value)
                )
            }
            ExprKind::IncDec {
                place: p,
                increment,
                prefix,
                ..
            } => {
                let op = if *increment { "++" } else { "--" };
                if *prefix {
                    format!("({op}{}):{ty}", place(p))
                } else {
                    format!("({}{op}):{ty}", place(p))
                }
            }
            ExprKind::Call { func, args } => {
                let args: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        Arg::Scalar(e) => expr(e),
                        Arg::Array { base: b, indices } if indices.is_empty() => {
                            format!("&{}", base(b))
                        }
                        Arg::Array { base: b, indices } => {
                            format!("&{}[{}]", base(b), list(indices))
                        }
                        Arg::FromPointer { ptr, stride } => {
                            format!("array({}, {stride})", expr(ptr))
                        }
                    })
                    .collect();
                format!("{func}({}):{ty}", args.join(", "))
            }
            ExprKind::Builtin { func, args } => format!("{func}({}):{ty}", list(args)),
            ExprKind::Printf { format, args } => {
                if args.is_empty() {
                    format!("printf({})", format_string(format))
                } else {
                    format!("printf({}, {})", format_string(format), list(args))
                }
            }
            ExprKind::Puts { text } => format!("puts({})", bytes(text)),
            ExprKind::Discard(inner) => format!("(void)({})", expr(inner)),
            _ => pointer_expr(e),
        }
    }

    /// `decl l = {...}` of a structure's initializer, out of line so that `stmt`'s frame stays
    /// small (it recurses as deep as statements nest).
    #[inline(never)]
    fn object_decl(local: LocalId, fields: &[FieldInit<Expr>]) -> String {
        let items: Vec<String> = fields.iter().map(|f| field(f, expr(&f.value))).collect();
        format!("decl {local} = {{{}}}", items.join(", "))
    }

    /// The pointer, structure and memory-library expressions of [`expr`], out of line so
    /// that `expr`'s own frame stays small (it recurses as deep as the program nests).
    #[inline(never)]
    fn pointer_expr(e: &Expr) -> String {
        let ty = e.ty.map_or("void", short);
        match &e.kind {
            ExprKind::ObjectAddr(b) => format!("&{}", base(b)),
            ExprKind::ElementAddr { array, indices } => {
                format!("&{}[{}]", base(array), list(indices))
            }
            ExprKind::FuncAddr(f) => format!("&{f}"),
            ExprKind::Memory { func, args } => format!("{func}({}):{ty}", list(args)),
            ExprKind::Sprintf {
                buffer,
                limit,
                format,
                args,
            } => {
                let limit = limit
                    .as_ref()
                    .map_or(String::new(), |l| format!("{}, ", expr(l)));
                let mut all = vec![expr(buffer)];
                all.extend(args.iter().map(expr));
                format!(
                    "sprintf({limit}{}, {}):{ty}",
                    format_string(format),
                    all.join(", ")
                )
            }
            ExprKind::CopyObject { dst, src, size } => {
                format!("copy({} <- {}, {size})", expr(dst), expr(src))
            }
            ExprKind::PtrAdd { ptr, index, scale } => {
                format!("({} +* {} * {scale})", expr(ptr), expr(index))
            }
            ExprKind::PtrDiff { lhs, rhs, scale } => {
                format!("(({} -* {}) / {scale}):{ty}", expr(lhs), expr(rhs))
            }
            ExprKind::CallIndirect { callee, args } => {
                let args: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        Arg::Scalar(e) => expr(e),
                        Arg::Array { base: b, indices } => {
                            format!("&{}[{}]", base(b), list(indices))
                        }
                        Arg::FromPointer { ptr, stride } => {
                            format!("array({}, {stride})", expr(ptr))
                        }
                    })
                    .collect();
                format!("(*{})({}):{ty}", expr(callee), args.join(", "))
            }
            ExprKind::WithInit { init, value } => {
                let mut out = String::new();
                for s in init {
                    stmt(s, 0, &mut out);
                }
                format!("({}; {})", out.trim().replace('\n', " "), expr(value))
            }
            _ => String::new(),
        }
    }

    fn stmt(s: &Stmt, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        let line = |out: &mut String, text: String| {
            out.push_str(&pad);
            out.push_str(&text);
            out.push('\n');
        };
        match &s.kind {
            StmtKind::Block(b) => {
                line(out, "{".to_string());
                b.stmts.iter().for_each(|s| stmt(s, depth + 1, out));
                line(out, "}".to_string());
            }
            StmtKind::Expr(e) => line(out, expr(e)),
            StmtKind::Label(id) => line(out, format!("{id}:")),
            StmtKind::Goto(id) => line(out, format!("goto {id}")),
            StmtKind::Decl { local, init } => match init {
                None => line(out, format!("decl {local}")),
                Some(Init::Scalar(e)) => line(out, format!("decl {local} = {}", expr(e))),
                Some(Init::Array(entries)) => {
                    let items: Vec<String> = entries
                        .iter()
                        .map(|(i, e)| format!("[{i}] {}", expr(e)))
                        .collect();
                    line(out, format!("decl {local} = {{{}}}", items.join(", ")))
                }
                Some(Init::Object(fields)) => line(out, object_decl(*local, fields)),
            },
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                line(out, format!("if {}", expr(cond)));
                stmt(then_branch, depth + 1, out);
                if let Some(e) = else_branch {
                    line(out, "else".to_string());
                    stmt(e, depth + 1, out);
                }
            }
            StmtKind::While { cond, body } => {
                line(out, format!("while {}", expr(cond)));
                stmt(body, depth + 1, out);
            }
            StmtKind::DoWhile { body, cond } => {
                line(out, "do".to_string());
                stmt(body, depth + 1, out);
                line(out, format!("while {}", expr(cond)));
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let cond = cond.as_ref().map_or(String::new(), expr);
                let step = step.as_ref().map_or(String::new(), expr);
                line(out, format!("for ; {cond}; {step}"));
                init.iter().for_each(|s| stmt(s, depth + 2, out));
                stmt(body, depth + 1, out);
            }
            StmtKind::Switch {
                value,
                body,
                cases,
                has_default,
            } => {
                let default = if *has_default { " default" } else { "" };
                line(
                    out,
                    format!("switch {} cases {cases:?}{default}", expr(value)),
                );
                b_stmts(&body.stmts, depth + 1, out);
            }
            StmtKind::Case(v) => line(out, format!("case {v:?}:")),
            StmtKind::Default => line(out, "default:".to_string()),
            StmtKind::Break => line(out, "break".to_string()),
            StmtKind::Continue => line(out, "continue".to_string()),
            StmtKind::Return(None) => line(out, "return".to_string()),
            StmtKind::Return(Some(e)) => line(out, format!("return {}", expr(e))),
        }
    }

    fn b_stmts(stmts: &[Stmt], depth: usize, out: &mut String) {
        stmts.iter().for_each(|s| stmt(s, depth, out));
    }

    fn const_value(v: &ConstValue) -> String {
        match v {
            ConstValue::Int(i) => i.to_string(),
            ConstValue::Double(x) => format!("{x:?}"),
            ConstValue::Address { base, offset } => {
                let base = match base {
                    AddressBase::Global(g) => g.to_string(),
                    AddressBase::Function(f) => f.to_string(),
                    AddressBase::String(b) => bytes(b),
                };
                format!("&{base}+{offset}")
            }
        }
    }

    fn field<V>(f: &FieldInit<V>, value: String) -> String {
        match f.bits {
            Some((b, w)) => format!("[{}:{}@{b}:{w}] {value}", f.offset, short(f.ty)),
            None => format!("[{}:{}] {value}", f.offset, short(f.ty)),
        }
    }

    /// The whole program.
    pub fn program(p: &Program) -> String {
        let mut out = String::new();
        for (i, g) in p.globals.iter().enumerate() {
            let init: Vec<String> = g
                .init
                .iter()
                .map(const_value)
                .chain(g.fields.iter().map(|f| field(f, const_value(&f.value))))
                .collect();
            // The elements after the list are zero (see `Global::init`).
            let zeros = match g.ty {
                Type::Object { .. } => 0,
                _ => g.ty.size().unwrap_or(1).saturating_sub(g.init.len() as u64),
            };
            let zeros = if zeros > 0 {
                format!(" then {zeros} zeros")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{} {}: {} = [{}]{zeros}\n",
                GlobalId::new(i),
                g.name,
                g.ty,
                init.join(", ")
            ));
        }
        for (i, f) in p.functions.iter().enumerate() {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|&l| format!("{l} {}: {}", f.local(l).name, f.local(l).ty))
                .collect();
            let ret = f.ret.map_or("void".to_string(), |t| t.to_string());
            let main = if p.main.index() == i { " (main)" } else { "" };
            out.push_str(&format!(
                "{} {}({}) -> {ret}{main}\n",
                FuncId::new(i),
                f.name,
                params.join(", ")
            ));
            for (j, l) in f.locals.iter().enumerate().skip(f.params.len()) {
                out.push_str(&format!(
                    "  local {} {}: {}\n",
                    LocalId::new(j),
                    l.name,
                    l.ty
                ));
            }
            b_stmts(&f.body.stmts, 1, &mut out);
        }
        out
    }
}

impl Program {
    /// The compact text form of [`dump`].
    pub fn dump(&self) -> String {
        dump::program(self)
    }
}
