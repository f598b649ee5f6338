//! Expressions: operands, values and C's conversions made explicit, lvalues, arrays, `sizeof`
//! and casts.
//!
//! An AST expression first becomes an [`Operand`] ([`super::operand`]): a scalar value, a
//! *place* (a scalar lvalue: variable or fully indexed array element), an array (a variable or
//! a partially indexed one, usable only for further indexing or as a call argument), or a
//! string literal (usable only as a `printf`/`puts` argument). The contexts then ask for what
//! they need: [`Checker::rvalue`] (a value, possibly void), [`Checker::scalar`] (a non-void
//! value), [`Checker::arith`] (a value after the integer promotions: what every operator works
//! on), or a modifiable place. The operators are checked in [`super::operators`], calls of the
//! program's functions in [`super::calls`] and of the library's in [`super::library_calls`].

use crate::ast::{self, ExprKind as K, UnaryOp as AstUnary};
use crate::ctype::CType;
use crate::diag::Diagnostic;
use crate::hir::{ArrayBase, Expr, ExprKind, Place, ScalarType, Type};
use crate::span::Span;

use super::library::standard_header_of;
use super::operand::{offset_pointer, ArrayVal, Operand};
use super::types::{convert, mk, promote};
use super::{Checker, FileSym, Sym};

/// The bytes C sees of a string literal: up to the first NUL (`puts("a\0b")` prints `a`).
pub(super) fn c_string(bytes: &[u8]) -> Vec<u8> {
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes[..len].to_vec()
}

pub(super) fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Wrap `e` in a `Convert` to `to` whose span is `span` (for casts).
pub(super) fn cast_to(e: Expr, to: ScalarType, span: Span) -> Expr {
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
                // A structure value (a call's result) is the address of its temporary copy;
                // a `long double` value the address of the bytes holding it.
                CType::Record(_) | CType::LongDouble => Operand::Pointed {
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
        self.declare_deferred(name);
        // C99 6.4.2.2: `__func__` is the function's name, as if each function began with
        // `static const char __func__[] = "name";` (here its value: a pointer to the string).
        if name == "__func__" && self.lookup(name).is_none() {
            if let Some(function) = self.fs.as_ref().map(|fs| fs.name.clone()) {
                let text = self.string_value(function.as_bytes(), span);
                let ty = CType::pointer_to(CType::Scalar(ScalarType::Char), true);
                return Some(Operand::Value(text, ty));
            }
        }
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
        // An array declared without its size (`extern int a[];`) and not completed yet:
        // reached through its address, as the definition's object.
        if matches!(info.cty, CType::Array { len: None, .. }) {
            return Some(Operand::Pointed {
                ptr: mk(ExprKind::ObjectAddr(base), ScalarType::Ptr, span),
                offset: 0,
                cty: info.cty,
                is_const: info.is_const,
                span,
            });
        }
        Some(match info.ty {
            // A structure parameter: the address of the caller's copy.
            Type::Scalar(ScalarType::Ptr)
                if matches!(info.cty, CType::Record(_) | CType::LongDouble) =>
            {
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
                Some(None) => return Some(crate::ctype::POINTER_SIZE),
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

    /// The type `typeof (arg)` names, and whether it is `const`: an expression's type is
    /// taken as `sizeof` takes it, without evaluating the expression; an array stays an array
    /// and a function designator a function.
    pub(super) fn type_of(&mut self, arg: &ast::TypeOfArg) -> Option<(CType, bool)> {
        match arg {
            ast::TypeOfArg::Type(tn) => self.type_name(tn).map(|t| (t, false)),
            ast::TypeOfArg::Expr(x) => self.type_of_expr(x),
        }
    }

    /// The type of expression `x` and whether it is `const`, without evaluating it (for
    /// `typeof` and `_Alignof`).
    fn type_of_expr(&mut self, x: &ast::Expr) -> Option<(CType, bool)> {
        Some(match self.operand(x)? {
            Operand::Value(_, t) => (t, false),
            Operand::Place { cty, is_const, .. } | Operand::Pointed { cty, is_const, .. } => {
                (cty, is_const)
            }
            Operand::Array(a) => (a.array_type(), a.is_const),
            Operand::Str(text, _) => (
                CType::Array {
                    elem: std::sync::Arc::new(CType::Scalar(ScalarType::Char)),
                    len: Some(text.len() as u64 + 1),
                },
                false,
            ),
            Operand::Func { ty, .. } => (ty, false),
        })
    }

    /// `__builtin_offsetof(type, steps)`: the byte offset of the designated member, from the
    /// structure's layout (C99 7.17p3; GNU C also takes members of members and constant array
    /// indices).
    fn offset_of(&mut self, tn: &ast::TypeName, steps: &[ast::OffsetofStep]) -> Option<u64> {
        let mut ty = self.type_name(tn)?;
        let mut offset = 0u64;
        for step in steps {
            match step {
                ast::OffsetofStep::Member(name, at) => {
                    let CType::Record(id) = ty else {
                        self.err(
                            *at,
                            format!(
                                "`offsetof` of member `{name}` in `{}`, which is not a structure or union",
                                self.spell(&ty)
                            ),
                        );
                        return None;
                    };
                    let record = self.link.records.get(id);
                    let Some(member) = record.member(name) else {
                        let message = if record.members.is_none() {
                            format!("`offsetof` in incomplete type `{}`", record.name())
                        } else {
                            format!("`{}` has no member named `{name}`", record.name())
                        };
                        self.err(*at, message);
                        return None;
                    };
                    if member.bits.is_some() {
                        self.err(*at, format!("`offsetof` of bit-field `{name}`"));
                        return None;
                    }
                    offset = offset.wrapping_add(member.offset);
                    ty = member.ty.clone();
                }
                ast::OffsetofStep::Index(e) => {
                    let CType::Array { elem, .. } = &ty else {
                        self.err(
                            e.span,
                            format!(
                                "`offsetof` indexes `{}`, which is not an array",
                                self.spell(&ty)
                            ),
                        );
                        return None;
                    };
                    let elem = (**elem).clone();
                    let index = self.constant_index(e)?;
                    let size = self.link.records.size_of(&elem)?;
                    offset = offset.wrapping_add((index as u64).wrapping_mul(size));
                    ty = elem;
                }
            }
        }
        Some(offset)
    }

    /// The value of an integer constant expression used as an index.
    fn constant_index(&mut self, e: &ast::Expr) -> Option<i64> {
        let v = self.arith(e)?;
        let evaluated =
            v.ty.filter(|t| t.is_integer())
                .filter(|_| super::is_integer_constant_expression(&v))
                .and_then(
                    |_| match super::types::eval(&convert(v, ScalarType::Long)) {
                        Ok(super::types::Const::Int(c)) => Some(c),
                        _ => None,
                    },
                );
        if evaluated.is_none() {
            self.err(
                e.span,
                "`offsetof`'s index must be an integer constant expression",
            );
        }
        evaluated
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
                CType::LongDouble => Some((offset_pointer(ptr, offset, span), cty)),
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
                            "a value of type `{}` cannot be used here: a scalar (a number or a pointer) is required",
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

    /// The value of `e`, possibly void, for a context that discards it (an expression
    /// statement, the left operand of `,`): a structure or union is allowed there and gives
    /// its address, evaluated for its effects.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Option<Expr> {
        self.typed_or_record(e).map(|(v, t)| match t {
            CType::Record(_) => super::records::without_unused_value(v),
            _ => v,
        })
    }

    /// The value of `e` with its C type, where a structure or union value may stand (the
    /// right operand of `,`, an arm of `?:`, a discarded expression): for one, its address
    /// (a pointer expression) with the record's type, the representation [`Checker::operand`]
    /// turns back into an [`Operand::Pointed`]; otherwise as [`Checker::typed`].
    pub(super) fn typed_or_record(&mut self, e: &ast::Expr) -> Option<(Expr, CType)> {
        match self.operand(e)? {
            Operand::Pointed {
                ptr,
                offset,
                cty: cty @ CType::Record(_),
                span,
                ..
            } => Some((offset_pointer(ptr, offset, span), cty)),
            op => self.operand_value(op, e.span),
        }
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
    pub(super) fn typed_arith(&mut self, e: &ast::Expr) -> Option<(Expr, CType)> {
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

    /// A condition: any scalar (arithmetic or pointer), promoted; a `long double` compared
    /// with zero.
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Option<Expr> {
        let (v, t) = self.typed_arith(e)?;
        Some(self.truth(v, &t, e.span))
    }

    /// The value `v` of type `t` as a condition (invariant 4): itself, or for a `long
    /// double` the `int` `v != 0`.
    pub(super) fn truth(&mut self, v: Expr, t: &CType, span: Span) -> Expr {
        match t {
            CType::LongDouble => self.long_double_truth(v, span),
            _ => v,
        }
    }

    /// A modifiable scalar lvalue and its types; `what` names the operation for messages
    /// ("assignment").
    pub(super) fn modifiable(
        &mut self,
        e: &ast::Expr,
        what: &str,
    ) -> Option<(Place, ScalarType, CType)> {
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
            K::LongDouble(bits) => {
                let value = crate::builtins::long_double::LongDouble::from_bits(*bits);
                Some((self.long_double_constant(value, span), CType::LongDouble))
            }
            K::Char(c) => Some(plain(mk(ExprKind::IntConst(*c), ScalarType::Int, span))),
            K::Unary(op, x) => self.unary(*op, x, span),
            K::Binary(op, a, b) => self.binary(*op, a, b, span),
            K::Assign(op, a, b) => self.assign(*op, a, b, span),
            K::Conditional(c, a, b) => self.conditional(c, a, b, span),
            K::Comma(a, b) => {
                let a = self.rvalue(a);
                let b = self.typed_or_record(b);
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
            K::AlignofExpr(x) => {
                let (ty, _) = self.type_of_expr(x)?;
                let align = self.link.records.align_of(&ty);
                Some(plain(mk(
                    ExprKind::IntConst(align as i64),
                    ScalarType::ULong,
                    span,
                )))
            }
            K::Offsetof(tn, steps) => {
                let offset = self.offset_of(tn, steps)?;
                Some(plain(mk(
                    ExprKind::IntConst(offset as i64),
                    ScalarType::ULong,
                    span,
                )))
            }
            K::AlignofType(tn) => {
                let ty = self.type_name(tn)?;
                let align = self.link.records.align_of(&ty);
                Some(plain(mk(
                    ExprKind::IntConst(align as i64),
                    ScalarType::ULong,
                    span,
                )))
            }
            K::Ident(_) | K::Index(..) | K::Str(_) | K::CompoundLiteral(..) => self.typed(e),
            K::Member { .. } => self.typed(e),
            K::StmtExpr(b) => self.statement_expression(b, span),
            K::Error => None,
        }
    }

    /// `(type) x`.
    fn cast(&mut self, tn: &ast::TypeName, x: &ast::Expr, span: Span) -> Option<(Expr, CType)> {
        let target = self.type_name(tn);
        // `(void)x` takes any expression, even a void one; other casts a scalar.
        let to_void = matches!(target, Some(CType::Void));
        let v = if to_void {
            self.typed_or_record(x)
        } else {
            self.typed_scalar(x)
        };
        let (target, (v, vty)) = (target?, v?);
        if target != CType::Void && (vty == CType::LongDouble || target == CType::LongDouble) {
            return self.long_double_cast(v, &vty, &target, span);
        }
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
            CType::LongDouble => None,
        }
    }

    /// `*x` as an operand.
    pub(super) fn operand_deref<'a>(&mut self, x: &ast::Expr, span: Span) -> Option<Operand<'a>> {
        let (p, pty) = self.typed(x)?;
        self.deref(p, &pty, span)
    }

    // ----- calls -----
}

/// Whether reading the place `place` of type `ty` gives an `int`: a bit-field narrower than
/// `int` is promoted as an `int` would hold it (C99 6.3.1.1p2), as gcc does for any integer
/// bit-field type (a `_Bool` one stays `_Bool`).
pub(super) fn promotes_to_int(place: &Place, ty: ScalarType) -> bool {
    match place {
        Place::BitField { width, unit, .. } => {
            (*width < 32 || (*width == 32 && unit.is_signed())) && ty != ScalarType::Bool
        }
        _ => false,
    }
}

/// The value `e` of a place of C type `cty` as an expression reads it: converted to `int` if
/// the place is a narrow bit-field ([`promotes_to_int`]).
pub(super) fn read_as(e: Expr, cty: CType, narrow: bool) -> (Expr, CType) {
    if narrow {
        (convert(e, ScalarType::Int), CType::INT)
    } else {
        (e, cty)
    }
}
