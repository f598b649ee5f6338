//! Expressions: typing, C's conversions made explicit, lvalues, arrays, calls, `printf`.
//!
//! An AST expression first becomes an [`Operand`]: a scalar value, a *place* (a scalar lvalue:
//! variable or fully indexed array element), an array (a variable or a partially indexed one,
//! usable only for further indexing or as a call argument), or a string literal (usable only as
//! a `printf`/`puts` argument). The contexts then ask for what they need: [`Checker::rvalue`]
//! (a value, possibly void), [`Checker::scalar`] (a non-void value), [`Checker::arith`] (a
//! value after the integer promotions: what every operator works on), or a modifiable place.

use crate::ast::{self, BinaryOp as AstOp, ExprKind as K, UnaryOp as AstUnary};
use crate::builtins::memory::MemFn;
use crate::builtins::Builtin;
use crate::diag::Diagnostic;
use crate::hir::{
    Arg, ArrayBase, BinaryOp, CompareOp, Expr, ExprKind, FuncId, Place, ScalarType, Type, UnaryOp,
};
use crate::printf_format::{self, ArgKind, Piece};
use crate::span::Span;

use super::ctype::CType;
use super::library::standard_header_of;
use super::types::{convert, default_promote, mk, promote, usual_arithmetic};
use super::{Checker, FileSym, ParamTy, Sym};

/// What an expression denotes.
pub(super) enum Operand<'a> {
    /// A value and its C type ([`CType::Void`] for a void expression).
    Value(Expr, CType),
    /// A scalar lvalue (arithmetic or pointer).
    Place {
        place: Place,
        ty: ScalarType,
        cty: CType,
        is_const: bool,
        name: &'a str,
        span: Span,
    },
    /// A named array, possibly partially indexed.
    Array(ArrayVal<'a>),
    /// An array or structure in memory reached through a pointer (`*p` where `p` points to
    /// an array, later `p->s`).
    Pointed {
        ptr: Expr,
        /// A constant byte offset from `ptr` (members of members add up here).
        offset: i64,
        cty: CType,
        is_const: bool,
        span: Span,
    },
    /// A string literal.
    Str(&'a [u8], Span),
    /// A function designator (a function's name).
    Func { id: FuncId, ty: CType, span: Span },
}

/// An array-valued expression.
pub(super) struct ArrayVal<'a> {
    pub(super) base: ArrayBase,
    pub(super) indices: Vec<Expr>,
    pub(super) elem: ScalarType,
    /// The element's C type (a pointer type for an array of pointers).
    pub(super) elem_cty: CType,
    /// The remaining dimensions; the first is `None` for an array parameter's unknown size.
    pub(super) dims: Vec<Option<u32>>,
    pub(super) is_const: bool,
    pub(super) name: &'a str,
    pub(super) span: Span,
}

impl ArrayVal<'_> {
    /// The C type of the (remaining) array.
    pub(super) fn array_type(&self) -> CType {
        self.dims
            .iter()
            .rev()
            .fold(self.elem_cty.clone(), |t, d| CType::Array {
                elem: std::sync::Arc::new(t),
                len: d.map(u64::from),
            })
    }

    fn type_name(&self) -> String {
        let mut s = format!("{}{}", if self.is_const { "const " } else { "" }, self.elem);
        for d in &self.dims {
            match d {
                Some(n) => s.push_str(&format!("[{n}]")),
                None => s.push_str("[]"),
            }
        }
        s
    }
}

fn binop(op: AstOp) -> BinaryOp {
    match op {
        AstOp::Mul => BinaryOp::Mul,
        AstOp::Div => BinaryOp::Div,
        AstOp::Rem => BinaryOp::Rem,
        AstOp::Add => BinaryOp::Add,
        AstOp::Sub => BinaryOp::Sub,
        AstOp::Shl => BinaryOp::Shl,
        AstOp::Shr => BinaryOp::Shr,
        AstOp::BitAnd => BinaryOp::BitAnd,
        AstOp::BitXor => BinaryOp::BitXor,
        _ => BinaryOp::BitOr,
    }
}

fn cmpop(op: AstOp) -> Option<CompareOp> {
    Some(match op {
        AstOp::Lt => CompareOp::Lt,
        AstOp::Gt => CompareOp::Gt,
        AstOp::Le => CompareOp::Le,
        AstOp::Ge => CompareOp::Ge,
        AstOp::Eq => CompareOp::Eq,
        AstOp::Ne => CompareOp::Ne,
        _ => return None,
    })
}

/// The bytes C sees of a string literal: up to the first NUL (`puts("a\0b")` prints `a`).
fn c_string(bytes: &[u8]) -> Vec<u8> {
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes[..len].to_vec()
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// `ptr + offset` bytes (no node for offset 0).
pub(super) fn offset_pointer(ptr: Expr, offset: i64, span: Span) -> Expr {
    if offset == 0 {
        return ptr;
    }
    mk(
        ExprKind::PtrAdd {
            ptr: Box::new(ptr),
            index: Box::new(mk(ExprKind::IntConst(offset), ScalarType::Long, span)),
            scale: 1,
        },
        ScalarType::Ptr,
        span,
    )
}

/// Wrap `e` in a `Convert` to `to` whose span is `span` (for casts).
fn cast_to(e: Expr, to: ScalarType, span: Span) -> Expr {
    let mut c = convert(e, to);
    c.span = span;
    c
}

impl Checker<'_> {
    // ----- operands and their uses -----

    /// What `e` denotes.
    pub(super) fn operand<'a>(&mut self, e: &'a ast::Expr) -> Option<Operand<'a>> {
        match &e.kind {
            K::Ident(name) => self.name_operand(name, e.span),
            K::CompoundLiteral(tn, init) => self.compound_literal(tn, init, e.span),
            K::Index(array, index) => self.index(array, index, e.span),
            K::Str(bytes) => Some(Operand::Str(bytes, e.span)),
            K::Unary(AstUnary::Deref, x) => {
                let (p, pty) = self.typed(x)?;
                self.deref(p, &pty, e.span)
            }
            K::Member {
                base,
                name,
                name_span,
                arrow,
            } => self.member(base, name, *name_span, *arrow, e.span),
            _ => self.value(e).map(|(v, t)| match t {
                // A structure value (a call's result) is the address of its temporary copy.
                CType::Record(_) => Operand::Pointed {
                    ptr: v,
                    offset: 0,
                    cty: t,
                    is_const: false,
                    span: e.span,
                },
                _ => Operand::Value(v, t),
            }),
        }
    }

    fn name_operand<'a>(&mut self, name: &'a str, span: Span) -> Option<Operand<'a>> {
        let Some(sym) = self.lookup(name) else {
            self.undeclared(name, span);
            return None;
        };
        match sym {
            Sym::Func => {
                let Some(FileSym::Func(info)) = self.file_scope.get(name).cloned() else {
                    return None;
                };
                let id = self.function_id(name, span, &info)?;
                return Some(Operand::Func {
                    id,
                    ty: info.sig.c_type(),
                    span,
                });
            }
            Sym::EnumConst(v) => {
                return Some(Operand::Value(
                    mk(ExprKind::IntConst(v), ScalarType::Int, span),
                    CType::INT,
                ))
            }
            Sym::Type => {
                self.err(span, format!("`{name}` is a type name, not a value"));
                return None;
            }
            Sym::Local(_) | Sym::Global(_) => {}
        }
        let info = self.var_info(&sym)?.clone();
        if let (Sym::Global(_), Some(FileSym::Global(g))) = (&sym, self.file_scope.get(name)) {
            if g.external && !g.defined {
                let place = self.place(span);
                self.link.used(name, || place);
            }
        }
        let (place, base) = match sym {
            Sym::Local(id) => (Place::Local(id), ArrayBase::Local(id)),
            Sym::Global(id) => (Place::Global(id), ArrayBase::Global(id)),
            Sym::Func | Sym::EnumConst(_) | Sym::Type => return None,
        };
        Some(match info.ty {
            // A structure parameter: the address of the caller's copy.
            Type::Scalar(ScalarType::Ptr) if matches!(info.cty, CType::Record(_)) => {
                Operand::Pointed {
                    ptr: mk(ExprKind::Load(place), ScalarType::Ptr, span),
                    offset: 0,
                    cty: info.cty,
                    is_const: info.is_const,
                    span,
                }
            }
            Type::Scalar(ty) => Operand::Place {
                place,
                ty,
                cty: info.cty,
                is_const: info.is_const,
                name,
                span,
            },
            // A structure, union or array of them: in memory, reached through its address.
            Type::Object { .. } => Operand::Pointed {
                ptr: mk(ExprKind::ObjectAddr(base), ScalarType::Ptr, span),
                offset: 0,
                cty: info.cty,
                is_const: info.is_const,
                span,
            },
            // A scalar whose address is taken lives in memory as a one-element array.
            Type::Array { elem, .. } if info.cty.is_scalar() => Operand::Place {
                place: Place::Element {
                    array: base,
                    indices: vec![mk(ExprKind::IntConst(0), ScalarType::Long, span)],
                },
                ty: elem,
                cty: info.cty,
                is_const: info.is_const,
                name,
                span,
            },
            Type::Array { elem, dims } => Operand::Array(ArrayVal {
                base,
                indices: Vec::new(),
                elem,
                elem_cty: super::declarators::innermost(&info.cty).clone(),
                dims: dims.into_iter().map(Some).collect(),
                is_const: info.is_const,
                name,
                span,
            }),
            Type::ArrayRef { elem, inner } => Operand::Array(ArrayVal {
                base,
                indices: Vec::new(),
                elem,
                elem_cty: CType::Scalar(elem),
                dims: std::iter::once(None)
                    .chain(inner.into_iter().map(Some))
                    .collect(),
                is_const: info.is_const,
                name,
                span,
            }),
        })
    }

    /// `sizeof x`: the size in bytes of `x`'s type; `x` is checked but not evaluated. An array
    /// parameter (`int a[]`) is a pointer in C: 8 bytes, as with gcc on x86-64.
    fn size_of_expr(&mut self, x: &ast::Expr) -> Option<u64> {
        let ty = match self.operand(x)? {
            Operand::Value(_, t)
            | Operand::Place { cty: t, .. }
            | Operand::Pointed { cty: t, .. } => t,
            Operand::Array(a) => match a.dims.first() {
                Some(None) => return Some(super::ctype::POINTER_SIZE),
                _ => a.array_type(),
            },
            Operand::Str(text, _) => return Some(text.len() as u64 + 1),
            Operand::Func { .. } => {
                self.err(x.span, "`sizeof` of a function");
                return None;
            }
        };
        if ty == CType::Void {
            self.err(x.span, "`sizeof` of a void expression");
            return None;
        }
        match self.link.records.size_of(&ty) {
            Some(n) => Some(n),
            None => {
                self.err(
                    x.span,
                    format!("`sizeof` of incomplete type `{}`", self.spell(&ty)),
                );
                None
            }
        }
    }

    /// `sizeof (type)`.
    fn size_of_type(&mut self, tn: &ast::TypeName) -> Option<u64> {
        let ty = self.type_name(tn)?;
        match (&ty, self.link.records.size_of(&ty)) {
            (_, Some(n)) => Some(n),
            (CType::Void, None) => {
                self.err(tn.specs.span, "`sizeof` of type `void`");
                None
            }
            (_, None) => {
                self.err(
                    tn.specs.span,
                    format!("`sizeof` of incomplete type `{}`", self.spell(&ty)),
                );
                None
            }
        }
    }

    /// The type a type name (of a cast or `sizeof`) names.
    pub(super) fn type_name(&mut self, tn: &ast::TypeName) -> Option<CType> {
        if let Some((_, span)) = tn.specs.storage {
            self.err(
                span,
                "a storage class specifier cannot appear in a type name",
            );
            return None;
        }
        let base = self.specs_type(&tn.specs)?;
        self.object_type(&base, &tn.declarator, false)
    }

    fn undeclared(&mut self, name: &str, span: Span) {
        let d = Diagnostic::error(span, format!("`{name}` undeclared"));
        if let Some(h) = crate::preprocess::headers::defining(name) {
            self.error(d.with_label(format!(
                "`{name}` is defined by <{h}>: add `#include <{h}>`"
            )));
            return;
        }
        let d = match standard_header_of(name) {
            Some(h) if self.headers.macro_header(name).is_some() || self.headers.has(h) => d
                .with_label(format!(
                    "`{name}` from <{h}> is not supported in this language"
                )),
            Some(h) => d.with_label(format!(
                "`{name}` belongs to <{h}>, which is not supported in this language"
            )),
            None => d.with_label("not declared in this scope"),
        };
        self.error(d);
    }

    fn index<'a>(
        &mut self,
        array: &'a ast::Expr,
        index: &ast::Expr,
        span: Span,
    ) -> Option<Operand<'a>> {
        let base = self.operand(array);
        let i = self.typed(index);
        let (base, (i, ity)) = (base?, i?);
        // The named-array fast path: a checked index per dimension.
        if let Operand::Array(mut a) = base {
            let Some(t) = ity.scalar().filter(|t| t.is_integer()) else {
                self.err(
                    index.span,
                    format!(
                        "array subscript is not an integer (it has type `{}`)",
                        self.spell(&ity)
                    ),
                );
                return None;
            };
            a.indices
                .push(convert(convert(i, promote(t)), ScalarType::Long));
            a.dims.remove(0);
            a.span = span;
            return Some(if a.dims.is_empty() {
                Operand::Place {
                    place: Place::Element {
                        array: a.base,
                        indices: a.indices,
                    },
                    ty: a.elem,
                    cty: a.elem_cty,
                    is_const: a.is_const,
                    name: a.name,
                    span,
                }
            } else {
                Operand::Array(a)
            });
        }
        // Anything else is `*(base + index)` (C99 6.5.2.1), either way round.
        let (b, bty) = self.operand_value(base, array.span)?;
        let ((p, pty), (n, nty)) = if bty.is_pointer() {
            ((b, bty), (i, ity))
        } else {
            ((i, ity), (b, bty))
        };
        if !pty.is_pointer() || !nty.scalar().is_some_and(|t| t.is_integer()) {
            self.err(
                array.span,
                format!(
                    "subscripted value is neither an array nor a pointer (it has type `{}`)",
                    self.spell(&pty)
                ),
            );
            return None;
        }
        let (sum, sty) = self.pointer_plus(p, &pty, n, false, span)?;
        self.deref(sum, &sty, span)
    }

    /// An operand as a value with its C type: a place is read, an array decays to a pointer
    /// to its first element, a string literal to a pointer to its first character, a
    /// function designator to a pointer to the function.
    pub(super) fn operand_value(&mut self, op: Operand<'_>, at: Span) -> Option<(Expr, CType)> {
        match op {
            Operand::Value(v, t) => Some((v, t)),
            Operand::Place {
                place,
                ty,
                cty,
                span,
                ..
            } => {
                let narrow = promotes_to_int(&place, ty);
                let load = mk(ExprKind::Load(place), ty, span);
                Some(read_as(load, cty, narrow))
            }
            Operand::Array(a) => {
                let e = self.array_address(&a, a.span)?;
                let elem = match a.array_type() {
                    CType::Array { elem, .. } => elem,
                    _ => return None,
                };
                Some((
                    e,
                    CType::Pointer {
                        to: elem,
                        to_const: a.is_const,
                    },
                ))
            }
            Operand::Pointed {
                ptr,
                offset,
                cty,
                is_const,
                span,
            } => match cty {
                CType::Array { elem, .. } => Some((
                    offset_pointer(ptr, offset, span),
                    CType::Pointer {
                        to: elem,
                        to_const: is_const,
                    },
                )),
                other => {
                    self.err(
                        at,
                        format!(
                            "a value of type `{}` cannot be used here (structures are not supported yet)",
                            self.spell(&other)
                        ),
                    );
                    None
                }
            },
            Operand::Str(bytes, span) => Some((
                self.string_value(bytes, span),
                CType::pointer_to(CType::Scalar(ScalarType::Char), false),
            )),
            Operand::Func { id, ty, span, .. } => Some((
                mk(ExprKind::FuncAddr(id), ScalarType::Ptr, span),
                CType::pointer_to(ty, false),
            )),
        }
    }

    /// The C spelling of what an operand denotes, for messages.
    pub(super) fn operand_type(&self, op: &Operand<'_>) -> String {
        match op {
            Operand::Value(_, t) | Operand::Place { cty: t, .. } => self.spell(t),
            Operand::Pointed { cty, .. } => self.spell(cty),
            Operand::Array(a) => self.spell(&a.array_type()),
            Operand::Str(..) => "char *".to_string(),
            Operand::Func { ty, .. } => self.spell(ty),
        }
    }

    /// The address of a named array (or of one of its rows): a pointer.
    pub(super) fn array_address(&mut self, a: &ArrayVal<'_>, span: Span) -> Option<Expr> {
        Some(mk(
            if a.indices.is_empty() {
                ExprKind::ObjectAddr(a.base)
            } else {
                ExprKind::ElementAddr {
                    array: a.base,
                    indices: a.indices.clone(),
                }
            },
            ScalarType::Ptr,
            span,
        ))
    }

    /// The value of `e` with its C type, possibly void.
    pub(super) fn typed(&mut self, e: &ast::Expr) -> Option<(Expr, CType)> {
        let op = self.operand(e)?;
        self.operand_value(op, e.span)
    }

    /// The value of `e`, possibly void.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Option<Expr> {
        self.typed(e).map(|(v, _)| v)
    }

    /// The value of `e` and its type; `e` must not be void.
    pub(super) fn typed_scalar(&mut self, e: &ast::Expr) -> Option<(Expr, CType)> {
        let (v, t) = self.typed(e)?;
        if v.ty.is_none() {
            self.err(e.span, "void value not ignored as it ought to be");
            return None;
        }
        Some((v, t))
    }

    /// The value of `e`, which must not be void.
    pub(super) fn scalar(&mut self, e: &ast::Expr) -> Option<Expr> {
        self.typed_scalar(e).map(|(v, _)| v)
    }

    /// The value of `e` after the integer promotions, with its type (pointers unchanged).
    fn typed_arith(&mut self, e: &ast::Expr) -> Option<(Expr, CType)> {
        let (v, t) = self.typed_scalar(e)?;
        match t {
            CType::Scalar(s) => {
                let p = promote(s);
                Some((convert(v, p), CType::Scalar(p)))
            }
            other => Some((v, other)),
        }
    }

    /// The value of `e` after the integer promotions; `e` must be arithmetic.
    pub(super) fn arith(&mut self, e: &ast::Expr) -> Option<Expr> {
        let (v, t) = self.typed_arith(e)?;
        if !matches!(t, CType::Scalar(_)) {
            self.err(
                e.span,
                format!(
                    "an arithmetic value is needed here, not `{}`",
                    self.spell(&t)
                ),
            );
            return None;
        }
        Some(v)
    }

    /// A condition: any scalar (arithmetic or pointer), promoted.
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Option<Expr> {
        let (v, _) = self.typed_arith(e)?;
        Some(v)
    }

    /// A modifiable scalar lvalue and its types; `what` names the operation for messages
    /// ("assignment").
    fn modifiable(&mut self, e: &ast::Expr, what: &str) -> Option<(Place, ScalarType, CType)> {
        match self.operand(e)? {
            Operand::Place {
                place,
                ty,
                cty,
                is_const,
                name,
                span,
            } => {
                if is_const {
                    if name.is_empty() {
                        self.err(span, format!("{what} of read-only location"));
                    } else {
                        self.err(span, format!("{what} of read-only variable `{name}`"));
                    }
                    return None;
                }
                Some((place, ty, cty))
            }
            Operand::Array(a) => {
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!("{what} to array `{}` of type `{}`", a.name, a.type_name()),
                    )
                    .with_label("arrays cannot be assigned; assign their elements"),
                );
                None
            }
            Operand::Pointed { span, cty, .. } => {
                self.err(
                    span,
                    format!("{what} to an object of type `{}`", self.spell(&cty)),
                );
                None
            }
            Operand::Value(..) | Operand::Str(..) | Operand::Func { .. } => {
                self.error(
                    Diagnostic::error(e.span, format!("lvalue required for {what}"))
                        .with_label("expected a variable, an array element or `*pointer`"),
                );
                None
            }
        }
    }

    // ----- value expressions -----

    fn value(&mut self, e: &ast::Expr) -> Option<(Expr, CType)> {
        let span = e.span;
        let plain = |v: Expr| {
            let t = v.ty.map_or(CType::Void, CType::Scalar);
            (v, t)
        };
        match &e.kind {
            K::Int(v, ty) => Some(plain(mk(ExprKind::IntConst(ty.wrap(*v as i64)), *ty, span))),
            K::Double(x) => Some(plain(mk(
                ExprKind::DoubleConst(*x),
                ScalarType::Double,
                span,
            ))),
            K::Float(x) => Some(plain(mk(
                ExprKind::DoubleConst(f64::from(*x)),
                ScalarType::Float,
                span,
            ))),
            K::Char(c) => Some(plain(mk(ExprKind::IntConst(*c), ScalarType::Int, span))),
            K::Unary(op, x) => self.unary(*op, x, span),
            K::Binary(op, a, b) => self.binary(*op, a, b, span),
            K::Assign(op, a, b) => self.assign(*op, a, b, span),
            K::Conditional(c, a, b) => self.conditional(c, a, b, span),
            K::Comma(a, b) => {
                let a = self.rvalue(a);
                let b = self.typed(b);
                let (a, (b, bty)) = (a?, b?);
                let ty = b.ty;
                Some((
                    Expr {
                        kind: ExprKind::Comma {
                            lhs: boxed(a),
                            rhs: boxed(b),
                        },
                        ty,
                        span,
                    },
                    bty,
                ))
            }
            K::Cast(tn, x) => self.cast(tn, x, span),
            K::Call(callee, args) => self.call(callee, args, span),
            K::SizeofExpr(x) => {
                let size = self.size_of_expr(x)?;
                Some(plain(mk(
                    ExprKind::IntConst(size as i64),
                    ScalarType::ULong,
                    span,
                )))
            }
            K::SizeofType(tn) => {
                let size = self.size_of_type(tn)?;
                Some(plain(mk(
                    ExprKind::IntConst(size as i64),
                    ScalarType::ULong,
                    span,
                )))
            }
            K::Ident(_) | K::Index(..) | K::Str(_) | K::CompoundLiteral(..) => self.typed(e),
            K::Member { .. } => self.typed(e),
            K::Error => None,
        }
    }

    /// `c ? a : b`.
    fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let c = self.condition(c);
        let a = self.typed(a);
        let b = self.typed(b);
        let (c, (a, at), (b, bt)) = (c?, a?, b?);
        let (a, b, ty, cty) = match (&at, &bt) {
            (CType::Void, CType::Void) => (a, b, None, CType::Void),
            (CType::Scalar(x), CType::Scalar(y)) => {
                let t = usual_arithmetic(*x, *y);
                (convert(a, t), convert(b, t), Some(t), CType::Scalar(t))
            }
            (CType::Pointer { to: x, .. }, CType::Pointer { to: y, .. }) => {
                let cty = if **x == CType::Void || super::pointers::is_null_pointer(&b) {
                    at.clone()
                } else if **y == CType::Void || super::pointers::is_null_pointer(&a) {
                    bt.clone()
                } else if self.compatible_pointees(x, y) {
                    at.clone()
                } else {
                    self.err(
                        span,
                        format!(
                            "pointer type mismatch in conditional expression (`{}` and `{}`)",
                            self.spell(&at),
                            self.spell(&bt)
                        ),
                    );
                    return None;
                };
                (a, b, Some(ScalarType::Ptr), cty)
            }
            (CType::Pointer { .. }, CType::Scalar(_)) if super::pointers::is_null_constant(&b) => {
                let n = mk(ExprKind::IntConst(0), ScalarType::Ptr, b.span);
                (a, n, Some(ScalarType::Ptr), at.clone())
            }
            (CType::Scalar(_), CType::Pointer { .. }) if super::pointers::is_null_constant(&a) => {
                let n = mk(ExprKind::IntConst(0), ScalarType::Ptr, a.span);
                (n, b, Some(ScalarType::Ptr), bt.clone())
            }
            (CType::Void, _) | (_, CType::Void) => {
                self.err(
                    span,
                    "type mismatch in conditional expression: one arm is void",
                );
                return None;
            }
            _ => {
                self.err(
                    span,
                    format!(
                        "type mismatch in conditional expression (`{}` and `{}`)",
                        self.spell(&at),
                        self.spell(&bt)
                    ),
                );
                return None;
            }
        };
        Some((
            Expr {
                kind: ExprKind::Conditional {
                    cond: boxed(c),
                    then_expr: boxed(a),
                    else_expr: boxed(b),
                },
                ty,
                span,
            },
            cty,
        ))
    }

    /// `(type) x`.
    fn cast(&mut self, tn: &ast::TypeName, x: &ast::Expr, span: Span) -> Option<(Expr, CType)> {
        let target = self.type_name(tn);
        // `(void)x` takes any expression, even a void one; other casts a scalar.
        let to_void = matches!(target, Some(CType::Void));
        let v = if to_void {
            self.typed(x)
        } else {
            self.typed_scalar(x)
        };
        let (target, (v, vty)) = (target?, v?);
        match &target {
            CType::Void => Some((
                Expr {
                    kind: ExprKind::Discard(boxed(v)),
                    ty: None,
                    span,
                },
                CType::Void,
            )),
            CType::Scalar(_) if vty.is_pointer() => {
                let e = self.pointer_cast(v, &vty, &target, span)?;
                Some((e, target))
            }
            CType::Scalar(t) => {
                if v.ty == Some(*t) {
                    // Still a value, not an lvalue: `(int)x = 1` is rejected.
                    return Some((v, target));
                }
                Some((cast_to(v, *t, span), target))
            }
            CType::Pointer { .. } => {
                if vty.is_pointer() {
                    let mut v = v;
                    v.span = span;
                    return Some((v, target));
                }
                let e = self.pointer_cast(v, &vty, &target, span)?;
                Some((e, target))
            }
            CType::Array { .. } => {
                self.err(tn.declarator.span, "cast to an array type");
                None
            }
            CType::Function(_) => {
                self.err(tn.declarator.span, "cast to a function type");
                None
            }
            CType::Record(_) => {
                self.err(
                    tn.specs.span,
                    "cast to a structure or union type (a scalar type is required)",
                );
                None
            }
        }
    }

    fn unary(&mut self, op: AstUnary, x: &ast::Expr, span: Span) -> Option<(Expr, CType)> {
        let (increment, prefix) = match op {
            AstUnary::PreInc => (true, true),
            AstUnary::PreDec => (false, true),
            AstUnary::PostInc => (true, false),
            AstUnary::PostDec => (false, false),
            AstUnary::AddrOf => return self.address_of(x, span),
            AstUnary::Deref => {
                let op = self.operand_deref(x, span)?;
                return self.operand_value(op, span);
            }
            AstUnary::Not => {
                let (v, _) = self.typed_arith(x)?;
                return Some((
                    mk(
                        ExprKind::Unary {
                            op: UnaryOp::Not,
                            operand: boxed(v),
                        },
                        ScalarType::Int,
                        span,
                    ),
                    CType::INT,
                ));
            }
            AstUnary::Plus | AstUnary::Neg | AstUnary::BitNot => {
                let v = self.arith(x)?;
                let ty = v.ty?;
                let op = match op {
                    AstUnary::Plus => return Some((v, CType::Scalar(ty))),
                    AstUnary::Neg => UnaryOp::Neg,
                    _ => {
                        if !ty.is_integer() {
                            self.err(
                                span,
                                format!("wrong type argument to bit-complement (have `{ty}`)"),
                            );
                            return None;
                        }
                        UnaryOp::BitNot
                    }
                };
                return Some((
                    mk(
                        ExprKind::Unary {
                            op,
                            operand: boxed(v),
                        },
                        ty,
                        span,
                    ),
                    CType::Scalar(ty),
                ));
            }
        };
        let what = if increment { "increment" } else { "decrement" };
        let (place, ty, cty) = self.modifiable(x, what)?;
        let scale = if cty.is_pointer() {
            self.step_size(&cty, span)?
        } else {
            1
        };
        let narrow = promotes_to_int(&place, ty);
        Some(read_as(
            mk(
                ExprKind::IncDec {
                    place,
                    increment,
                    prefix,
                    scale,
                },
                ty,
                span,
            ),
            cty,
            narrow,
        ))
    }

    /// `*x` as an operand.
    fn operand_deref<'a>(&mut self, x: &ast::Expr, span: Span) -> Option<Operand<'a>> {
        let (p, pty) = self.typed(x)?;
        self.deref(p, &pty, span)
    }

    fn binary(
        &mut self,
        op: AstOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let l = self.typed_arith(a);
        let r = self.typed_arith(b);
        let ((l, lty), (r, rty)) = (l?, r?);
        if op == AstOp::And || op == AstOp::Or {
            let kind = if op == AstOp::And {
                ExprKind::LogicalAnd {
                    lhs: boxed(l),
                    rhs: boxed(r),
                }
            } else {
                ExprKind::LogicalOr {
                    lhs: boxed(l),
                    rhs: boxed(r),
                }
            };
            return Some((mk(kind, ScalarType::Int, span), CType::INT));
        }
        let pointers = lty.is_pointer() || rty.is_pointer();
        if let Some(cop) = cmpop(op) {
            if pointers {
                return self.pointer_compare(cop, (l, lty), (r, rty), span);
            }
            let (lt, rt) = (l.ty?, r.ty?);
            let t = usual_arithmetic(lt, rt);
            return Some((
                mk(
                    ExprKind::Compare {
                        op: cop,
                        operand_ty: t,
                        lhs: boxed(convert(l, t)),
                        rhs: boxed(convert(r, t)),
                    },
                    ScalarType::Int,
                    span,
                ),
                CType::INT,
            ));
        }
        if pointers {
            let integer = |t: &CType| t.scalar().is_some_and(|s| s.is_integer());
            return match (op, lty.is_pointer(), rty.is_pointer()) {
                (AstOp::Add, true, false) if integer(&rty) => {
                    self.pointer_plus(l, &lty, r, false, span)
                }
                (AstOp::Add, false, true) if integer(&lty) => {
                    self.pointer_plus(r, &rty, l, false, span)
                }
                (AstOp::Sub, true, false) if integer(&rty) => {
                    self.pointer_plus(l, &lty, r, true, span)
                }
                (AstOp::Sub, true, true) => self.pointer_difference((l, lty), (r, rty), span),
                _ => {
                    self.err(
                        span,
                        format!(
                            "invalid operands to binary `{}` (have `{}` and `{}`)",
                            op.symbol(),
                            self.spell(&lty),
                            self.spell(&rty)
                        ),
                    );
                    None
                }
            };
        }
        let op = binop(op);
        let e = self.arithmetic(op, l, r, span)?;
        let t = CType::Scalar(e.ty?);
        Some((e, t))
    }

    /// `l op r` for two promoted operands: checks the operand types and converts them.
    fn arithmetic(&mut self, op: BinaryOp, l: Expr, r: Expr, span: Span) -> Option<Expr> {
        let (lt, rt) = (l.ty?, r.ty?);
        let integer_only = !matches!(
            op,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        );
        if integer_only && !(lt.is_integer() && rt.is_integer()) {
            self.err(
                span,
                format!(
                    "invalid operands to binary `{}` (have `{lt}` and `{rt}`): integers required",
                    op.symbol()
                ),
            );
            return None;
        }
        let (l, r, t) = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            (l, convert(r, ScalarType::Long), lt)
        } else {
            let t = usual_arithmetic(lt, rt);
            (convert(l, t), convert(r, t), t)
        };
        Some(mk(
            ExprKind::Binary {
                op,
                lhs: boxed(l),
                rhs: boxed(r),
            },
            t,
            span,
        ))
    }

    fn assign(
        &mut self,
        op: Option<AstOp>,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, CType)> {
        let Some(op) = op else {
            if let K::Member { .. } | K::Ident(_) | K::Unary(AstUnary::Deref, _) | K::Index(..) =
                &a.kind
            {
                if let Some(copy) = self.record_assignment(a, b, span) {
                    return copy;
                }
            }
            let place = self.modifiable(a, "assignment");
            let v = self.typed_scalar(b);
            let ((place, ty, cty), (v, vty)) = (place?, v?);
            let v = self.assign_convert(v, &vty, &cty, b.span, "assignment")?;
            let narrow = promotes_to_int(&place, ty);
            return Some(read_as(
                mk(
                    ExprKind::Assign {
                        place,
                        value: boxed(v),
                    },
                    ty,
                    span,
                ),
                cty,
                narrow,
            ));
        };
        let place = self.modifiable(a, "assignment");
        let v = self.typed_arith(b);
        let ((place, ty, cty), (v, vty)) = (place?, v?);
        if cty.is_pointer() {
            // `p += n`, `p -= n`: the step in bytes, computed in `long`.
            let integer = vty.scalar().is_some_and(|t| t.is_integer());
            if !matches!(op, AstOp::Add | AstOp::Sub) || !integer {
                self.err(
                    span,
                    format!(
                        "invalid operands to `{}=` (have `{}` and `{}`)",
                        op.symbol(),
                        self.spell(&cty),
                        self.spell(&vty)
                    ),
                );
                return None;
            }
            let size = self.step_size(&cty, span)?;
            let bytes = mk(
                ExprKind::Binary {
                    op: BinaryOp::Mul,
                    lhs: boxed(convert(v, ScalarType::Long)),
                    rhs: boxed(mk(ExprKind::IntConst(size), ScalarType::Long, span)),
                },
                ScalarType::Long,
                span,
            );
            return Some((
                mk(
                    ExprKind::CompoundAssign {
                        place,
                        op: binop(op),
                        op_ty: ScalarType::Ptr,
                        value: boxed(bytes),
                    },
                    ty,
                    span,
                ),
                cty,
            ));
        }
        if !matches!(vty, CType::Scalar(_)) {
            self.err(
                b.span,
                format!(
                    "invalid operands to `{}=` (have `{}` and `{}`)",
                    op.symbol(),
                    self.spell(&cty),
                    self.spell(&vty)
                ),
            );
            return None;
        }
        let op = binop(op);
        // Type the operation as `place op value` would be (a narrow bit-field reads as an
        // `int`), then keep its operand type.
        let narrow = promotes_to_int(&place, ty);
        let read = if narrow { ScalarType::Int } else { promote(ty) };
        let probe = self.arithmetic(op, mk(ExprKind::IntConst(0), read, a.span), v, span)?;
        let ExprKind::Binary { rhs, .. } = probe.kind else {
            return None;
        };
        let op_ty = probe.ty?;
        Some(read_as(
            mk(
                ExprKind::CompoundAssign {
                    place,
                    op,
                    op_ty,
                    value: rhs,
                },
                ty,
                span,
            ),
            cty,
            narrow,
        ))
    }

    // ----- calls -----

    fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
        if let K::Ident(name) = &callee.kind {
            match self.lookup(name) {
                Some(Sym::Func) => return self.user_call(name, callee.span, args, span),
                // C89's implicit declaration `int f();` of a function this unit defines
                // later (as old benchmark programs call them; gcc 12 accepts it with a
                // warning): the definition's parameters apply.
                None if self.defined_params.contains_key(name) => {
                    self.implicit_declaration(name, callee.span);
                    return self.user_call(name, callee.span, args, span);
                }
                None => {
                    let e = self.library_call(name, callee.span, args, span)?;
                    let t = match (&e.kind, e.ty) {
                        (ExprKind::Memory { func, .. }, Some(_)) => func.signature().0,
                        (_, ty) => ty.map_or(CType::Void, CType::Scalar),
                    };
                    return Some((e, t));
                }
                Some(_) => {}
            }
        }
        // A call through a pointer to a function (or a function designator in parentheses).
        let (f, fty) = self.typed(callee)?;
        let Some(CType::Function(ft)) = fty.pointee().cloned() else {
            self.err(
                callee.span,
                format!(
                    "called object is not a function or a pointer to a function (it has type `{}`)",
                    self.spell(&fty)
                ),
            );
            for a in args {
                self.operand(a);
            }
            return None;
        };
        if args.len() != ft.params.len() {
            let which = if args.len() > ft.params.len() {
                "many"
            } else {
                "few"
            };
            self.err(
                span,
                format!(
                    "too {which} arguments in a call through a pointer of type `{}` (expected {}, found {})",
                    self.spell(&fty),
                    ft.params.len(),
                    args.len()
                ),
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        let result = self.result_temporary(&ft.ret, span);
        if let Some((_, addr)) = &result {
            out.push(Arg::Scalar(addr.clone()));
        }
        for (i, (a, p)) in args.iter().zip(&ft.params).enumerate() {
            let what = format!("argument {}", i + 1);
            let v = if matches!(p, CType::Record(_)) {
                self.record_copy(a, p, &what)
            } else {
                self.typed_scalar(a)
                    .and_then(|(v, t)| self.assign_convert(v, &t, p, a.span, &what))
            };
            match v {
                Some(v) => out.push(Arg::Scalar(v)),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let call = Expr {
            kind: ExprKind::CallIndirect {
                callee: boxed(f),
                args: out,
            },
            ty: ft.ret.scalar(),
            span,
        };
        Some(self.with_result(call, result, &ft.ret, span))
    }

    /// The id of the function `name` declared by `info`, for a call or its address: a
    /// function declared here but defined in another file of the program is found by the
    /// linker, which checks that some file defines it. `None` (reported) if no file can.
    pub(super) fn function_id(
        &mut self,
        name: &str,
        name_span: Span,
        info: &super::FuncInfo,
    ) -> Option<FuncId> {
        let imported = (info.id.is_none() && info.external && !self.ctx.whole).then(|| {
            let place = self.place(name_span);
            self.link.used(name, || place);
            self.link.external_function(name, self.ctx.index)
        });
        let id = info.id.or(imported);
        if id.is_none() {
            self.error(
                Diagnostic::error(
                    name_span,
                    format!("function `{name}` is declared but never defined"),
                )
                .with_note(format!("declared at {}", self.at(info.span))),
            );
        }
        id
    }

    fn user_call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
        let Some(FileSym::Func(info)) = self.file_scope.get(name).cloned() else {
            return None;
        };
        let params = &info.sig.params;
        if args.len() != params.len() {
            let which = if args.len() > params.len() {
                "many"
            } else {
                "few"
            };
            self.error(
                Diagnostic::error(span, format!("too {which} arguments to function `{name}`"))
                    .with_label(format!("expected {}, found {}", params.len(), args.len()))
                    .with_note(format!(
                        "`{name}` is declared at {} as `{}`",
                        self.at(info.span),
                        info.sig
                    )),
            );
            for a in args {
                self.operand(a);
            }
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        let ret = info.sig.ret_ty.0.clone();
        let result = self.result_temporary(&ret, span);
        if let Some((_, addr)) = &result {
            out.push(Arg::Scalar(addr.clone()));
        }
        for (i, (a, p)) in args.iter().zip(params).enumerate() {
            match self.argument(a, p, i + 1, name) {
                Some(arg) => out.push(arg),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let id = self.function_id(name, name_span, &info)?;
        let call = Expr {
            kind: ExprKind::Call {
                func: id,
                args: out,
            },
            ty: info.sig.ret,
            span,
        };
        Some(self.with_result(call, result, &ret, span))
    }

    /// For a call returning the structure type `ret`: a temporary of the caller to receive
    /// it, and its address (the hidden first argument).
    fn result_temporary(&mut self, ret: &CType, span: Span) -> Option<(crate::hir::LocalId, Expr)> {
        if !matches!(ret, CType::Record(_)) {
            return None;
        }
        let size = self.link.records.size_of(ret)?;
        let align = self.link.records.align_of(ret);
        let id = self.hidden_local(Type::Object { size, align }, ret.clone(), span)?;
        let addr = mk(
            ExprKind::ObjectAddr(ArrayBase::Local(id)),
            ScalarType::Ptr,
            span,
        );
        Some((id, addr))
    }

    /// The value of a call: for a structure result, the address of the temporary it was
    /// stored in (after the call).
    fn with_result(
        &mut self,
        call: Expr,
        result: Option<(crate::hir::LocalId, Expr)>,
        ret: &CType,
        span: Span,
    ) -> (Expr, CType) {
        match result {
            None => (call, ret.clone()),
            Some((_, addr)) => (
                mk(
                    ExprKind::Comma {
                        lhs: boxed(call),
                        rhs: boxed(addr),
                    },
                    ScalarType::Ptr,
                    span,
                ),
                ret.clone(),
            ),
        }
    }

    /// A structure argument passed by value: copied into a temporary of the caller, whose
    /// address is passed.
    fn record_copy(&mut self, a: &ast::Expr, ty: &CType, what: &str) -> Option<Expr> {
        let src = match self.operand(a)? {
            Operand::Pointed {
                ptr,
                offset,
                cty,
                span,
                ..
            } if self.compatible_pointees(&cty, ty) && cty != CType::Void => {
                offset_pointer(ptr, offset, span)
            }
            other => {
                let t = self.operand_type(&other);
                self.err(
                    a.span,
                    format!(
                        "incompatible type for {what}: expected `{}` but the value has type `{t}`",
                        self.spell(ty)
                    ),
                );
                return None;
            }
        };
        let size = self.link.records.size_of(ty)?;
        let align = self.link.records.align_of(ty);
        let temp = self.hidden_local(Type::Object { size, align }, ty.clone(), a.span)?;
        let addr = mk(
            ExprKind::ObjectAddr(ArrayBase::Local(temp)),
            ScalarType::Ptr,
            a.span,
        );
        let copy = Expr {
            kind: ExprKind::CopyObject {
                dst: boxed(addr.clone()),
                src: boxed(src),
                size,
            },
            ty: None,
            span: a.span,
        };
        Some(mk(
            ExprKind::Comma {
                lhs: boxed(copy),
                rhs: boxed(addr),
            },
            ScalarType::Ptr,
            a.span,
        ))
    }

    fn argument(&mut self, a: &ast::Expr, p: &ParamTy, n: usize, fname: &str) -> Option<Arg> {
        match p {
            ParamTy::Scalar(t) => {
                let (v, vty) = self.typed_scalar(a)?;
                let what = format!("argument {n} of `{fname}`");
                let v = self.assign_convert(v, &vty, &CType::Scalar(*t), a.span, &what)?;
                Some(Arg::Scalar(v))
            }
            ParamTy::Pointer { ty, .. } => {
                let (v, vty) = self.typed_scalar(a)?;
                let what = format!("argument {n} of `{fname}`");
                let v = self.assign_convert(v, &vty, ty, a.span, &what)?;
                Some(Arg::Scalar(v))
            }
            ParamTy::Record { ty, .. } => {
                let what = format!("argument {n} of `{fname}`");
                Some(Arg::Scalar(self.record_copy(a, ty, &what)?))
            }
            ParamTy::Array {
                elem,
                is_const,
                inner,
            } => {
                let op = self.operand(a)?;
                let Operand::Array(arr) = op else {
                    // A pointer (or a structure's array member, which decays to one): to the
                    // parameter's pointer type, then an array reference at run time.
                    let (v, vty) = self.operand_value(op, a.span)?;
                    let want = CType::Pointer {
                        to: std::sync::Arc::new(super::declarators::array_of(
                            CType::Scalar(*elem),
                            inner,
                        )),
                        to_const: *is_const,
                    };
                    let what = format!("argument {n} of `{fname}`");
                    let ptr = self.assign_convert(v, &vty, &want, a.span, &what)?;
                    let stride = inner.iter().map(|&d| u64::from(d)).product::<u64>()
                        * u64::from(elem.bytes());
                    return Some(Arg::FromPointer { ptr, stride });
                };
                let arr_inner: Vec<Option<u32>> = arr.dims[1..].to_vec();
                let want: Vec<Option<u32>> = inner.iter().map(|&d| Some(d)).collect();
                if arr.elem != *elem || arr_inner != want || arr.elem_cty != CType::Scalar(*elem) {
                    self.err(
                        a.span,
                        format!(
                            "argument {n} of `{fname}` has type `{}`, expected `{p}`",
                            arr.type_name()
                        ),
                    );
                    return None;
                }
                if arr.is_const && !is_const {
                    self.err(
                        a.span,
                        format!("passing the `const` array `{}` to a parameter of `{fname}` that is not `const`", arr.name),
                    );
                    return None;
                }
                Some(Arg::Array {
                    base: arr.base,
                    indices: arr.indices,
                })
            }
        }
    }

    fn library_call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
        let Some(header) = super::library_header(name) else {
            let d = Diagnostic::error(
                name_span,
                format!("implicit declaration of function `{name}`"),
            );
            let d = match standard_header_of(name) {
                Some(h) => d.with_label(format!(
                    "`{name}` from <{h}> is not supported in this language"
                )),
                None => d.with_label("functions must be declared before they are called"),
            };
            self.error(d);
            for a in args {
                self.operand(a);
            }
            return None;
        };
        if !self.headers.has(header) && !self.declared_library.contains(name) {
            self.error(
                Diagnostic::error(
                    name_span,
                    format!("implicit declaration of function `{name}`"),
                )
                .with_label(format!("add `#include <{header}>`")),
            );
            return None;
        }
        match name {
            "printf" => self.printf(args, span),
            "puts" => {
                let [arg] = args else {
                    self.err(
                        span,
                        format!("`puts` takes exactly one argument, found {}", args.len()),
                    );
                    return None;
                };
                if let K::Str(text) = &arg.kind {
                    return Some(Expr {
                        kind: ExprKind::Puts {
                            text: c_string(text),
                        },
                        ty: Some(ScalarType::Int),
                        span,
                    });
                }
                // `puts(p)` of any string: the library function.
                self.memory_call(MemFn::Puts, args, span)
            }
            "sprintf" | "snprintf" => self.sprintf(name == "snprintf", args, span),
            _ if MemFn::lookup(name).is_some() => {
                let f = MemFn::lookup(name)?;
                let mut e = self.memory_call(f, args, span)?;
                if f == MemFn::Qsort {
                    // `qsort` calls back into the program: it is C code of the library
                    // (`lang/src/prelude/qsort.c`), linked in when a program uses it.
                    let ExprKind::Memory { args, .. } = e.kind else {
                        return None;
                    };
                    let place = self.place(name_span);
                    self.link.used(name, || place);
                    let func = self.link.external_function(name, self.ctx.index);
                    e.kind = ExprKind::Call {
                        func,
                        args: args.into_iter().map(Arg::Scalar).collect(),
                    };
                }
                Some(e)
            }
            _ => {
                let b = Builtin::lookup(name)?;
                let params: Vec<CType> = b.params().iter().map(|&t| CType::Scalar(t)).collect();
                let out = self.library_args(name, args, &params, span)?;
                Some(Expr {
                    kind: ExprKind::Builtin { func: b, args: out },
                    ty: b.result(),
                    span,
                })
            }
        }
    }

    fn printf(&mut self, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let Some(first) = args.first() else {
            self.err(span, "`printf` needs a format string");
            return None;
        };
        let (pieces, out) = self.format_and_args(first, &args[1..], span, "printf")?;
        Some(Expr {
            kind: ExprKind::Printf {
                format: pieces,
                args: out,
            },
            ty: Some(ScalarType::Int),
            span,
        })
    }

    /// The arguments of a call of the library function `name`, converted to `params` as
    /// for a prototyped call; `None` after an error (a wrong count is reported).
    fn library_args(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        params: &[CType],
        span: Span,
    ) -> Option<Vec<Expr>> {
        if args.len() != params.len() {
            let which = if args.len() > params.len() {
                "many"
            } else {
                "few"
            };
            self.err(
                span,
                format!(
                    "too {which} arguments to function `{name}` (expected {}, found {})",
                    params.len(),
                    args.len()
                ),
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, (a, p)) in args.iter().zip(params).enumerate() {
            let what = format!("argument {} of `{name}`", i + 1);
            match self
                .typed_scalar(a)
                .and_then(|(v, t)| self.assign_convert(v, &t, p, a.span, &what))
            {
                Some(v) => out.push(v),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// A call of a [`MemFn`]: arguments converted to its parameter types.
    fn memory_call(&mut self, f: MemFn, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let (ret, params) = f.signature();
        let out = self.library_args(f.name(), args, &params, span)?;
        Some(Expr {
            kind: ExprKind::Memory { func: f, args: out },
            ty: ret.scalar(),
            span,
        })
    }

    /// `sprintf(buffer, "format", ...)` or `snprintf(buffer, limit, "format", ...)`.
    fn sprintf(&mut self, limited: bool, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let name = if limited { "snprintf" } else { "sprintf" };
        let fixed = if limited { 3 } else { 2 };
        if args.len() < fixed {
            self.err(
                span,
                format!(
                    "`{name}` needs at least {fixed} arguments, found {}",
                    args.len()
                ),
            );
            return None;
        }
        let char_p = CType::pointer_to(CType::Scalar(ScalarType::Char), false);
        let buffer = self.typed_scalar(&args[0]).and_then(|(v, t)| {
            self.assign_convert(
                v,
                &t,
                &char_p,
                args[0].span,
                &format!("argument 1 of `{name}`"),
            )
        });
        let limit = if limited {
            let size = CType::Scalar(ScalarType::ULong);
            let l = self.typed_scalar(&args[1]).and_then(|(v, t)| {
                self.assign_convert(
                    v,
                    &t,
                    &size,
                    args[1].span,
                    &format!("argument 2 of `{name}`"),
                )
            });
            Some(l)
        } else {
            None
        };
        let formatted = self.format_and_args(&args[fixed - 1], &args[fixed..], span, name);
        let (buffer, (format, args)) = (buffer?, formatted?);
        let limit = match limit {
            Some(l) => Some(Box::new(l?)),
            None => None,
        };
        Some(mk(
            ExprKind::Sprintf {
                buffer: boxed(buffer),
                limit,
                format,
                args,
            },
            ScalarType::Int,
            span,
        ))
    }

    /// A literal format and the arguments its conversions consume, typed (for `printf` and
    /// `sprintf`).
    fn format_and_args(
        &mut self,
        first: &ast::Expr,
        rest: &[ast::Expr],
        span: Span,
        fname: &str,
    ) -> Option<(Vec<Piece>, Vec<Expr>)> {
        let Operand::Str(format, fspan) = self.operand(first)? else {
            self.err(
                first.span,
                format!("the format of `{fname}` must be a string literal"),
            );
            return None;
        };
        let pieces = match printf_format::parse(format) {
            Ok(p) => p,
            Err(e) => {
                // Point at the offending byte if the literal has no escapes (bytes == source).
                let plain = fspan.len() as usize == format.len() + 2;
                let at = if plain {
                    let o = fspan.start as usize + 1 + e.offset;
                    Span::new(o, o + 1)
                } else {
                    fspan
                };
                self.error(Diagnostic::error(
                    at,
                    format!("invalid printf format: {}", e.message),
                ));
                return None;
            }
        };
        let arguments = printf_format::arguments(&pieces);
        let kinds: Vec<ArgKind> = arguments.iter().map(|(_, k)| *k).collect();
        // How each argument is named in messages: its conversion, or the `*` of one.
        let mut specs: Vec<String> = Vec::with_capacity(kinds.len());
        for p in &pieces {
            if let Piece::Conversion(s) = p {
                if s.arg() == ArgKind::None {
                    continue;
                }
                let conv = format!("%{}{}", s.length.as_str(), s.conv_char as char);
                if s.width_star {
                    specs.push(format!("*` width of `{conv}"));
                }
                if s.precision_star {
                    specs.push(format!(".*` precision of `{conv}"));
                }
                specs.push(conv);
            }
        }
        if rest.len() != kinds.len() {
            let which = if rest.len() > kinds.len() {
                "many"
            } else {
                "few"
            };
            self.error(
                Diagnostic::error(
                    span,
                    format!("too {which} arguments for the `{fname}` format"),
                )
                .with_label(format!(
                    "the format takes {}, found {}",
                    kinds.len(),
                    rest.len()
                )),
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, ((a, kind), spec)) in rest.iter().zip(&kinds).zip(&specs).enumerate() {
            let n = i + 2;
            if *kind == ArgKind::Str {
                if let K::Str(bytes) = &a.kind {
                    out.push(Expr {
                        kind: ExprKind::StringLit(c_string(bytes)),
                        ty: None,
                        span: a.span,
                    });
                    continue;
                }
                match self.typed_scalar(a) {
                    Some((v, CType::Pointer { to, .. }))
                        if matches!(*to, CType::Scalar(ScalarType::Char | ScalarType::UChar)) =>
                    {
                        out.push(v)
                    }
                    Some((_, t)) => {
                        self.err(
                            a.span,
                            format!(
                                "format `{spec}` expects a `char *` argument, but argument {n} has type `{}`",
                                self.spell(&t)
                            ),
                        );
                        ok = false;
                    }
                    None => ok = false,
                }
                continue;
            }
            let Some(v) = self.scalar(a) else {
                ok = false;
                continue;
            };
            let Some(ty) = v.ty.map(default_promote) else {
                continue;
            };
            let v = convert(v, ty);
            match kind.scalar_type() {
                Some(want) if kind.accepts(ty) => out.push(convert(v, want)),
                _ => {
                    self.error(
                        Diagnostic::error(
                            a.span,
                            format!("format `{spec}` expects an argument of type `{}`, but argument {n} has type `{ty}`", kind.describe()),
                        )
                        .with_label(format!("expected `{}`", kind.describe())),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some((pieces, out))
    }
}

/// Whether reading the place `place` of type `ty` gives an `int`: a bit-field narrower than
/// `int` is promoted as an `int` would hold it (C99 6.3.1.1p2), as gcc does for any integer
/// bit-field type (a `_Bool` one stays `_Bool`).
fn promotes_to_int(place: &Place, ty: ScalarType) -> bool {
    match place {
        Place::BitField { width, unit, .. } => {
            (*width < 32 || (*width == 32 && unit.is_signed())) && ty != ScalarType::Bool
        }
        _ => false,
    }
}

/// The value `e` of a place of C type `cty` as an expression reads it: converted to `int` if
/// the place is a narrow bit-field ([`promotes_to_int`]).
fn read_as(e: Expr, cty: CType, narrow: bool) -> (Expr, CType) {
    if narrow {
        (convert(e, ScalarType::Int), CType::INT)
    } else {
        (e, cty)
    }
}
