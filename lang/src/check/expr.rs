//! Expressions: typing, C's conversions made explicit, lvalues, arrays, calls, `printf`.
//!
//! An AST expression first becomes an [`Operand`]: a scalar value, a *place* (a scalar lvalue:
//! variable or fully indexed array element), an array (a variable or a partially indexed one,
//! usable only for further indexing or as a call argument), or a string literal (usable only as
//! a `printf`/`puts` argument). The contexts then ask for what they need: [`Checker::rvalue`]
//! (a value, possibly void), [`Checker::scalar`] (a non-void value), [`Checker::arith`] (a
//! value after the integer promotions: what every operator works on), or a modifiable place.

use crate::ast::{self, BinaryOp as AstOp, ExprKind as K, UnaryOp as AstUnary};
use crate::builtins::Builtin;
use crate::diag::Diagnostic;
use crate::hir::{
    Arg, ArrayBase, BinaryOp, CompareOp, Expr, ExprKind, Place, ScalarType, Type, UnaryOp,
};
use crate::printf_format::{self, ArgKind, Piece};
use crate::span::Span;

use super::library::standard_header_of;
use super::types::{convert, default_promote, mk, promote, usual_arithmetic};
use super::{Checker, FileSym, ParamTy, Sym};

/// What an expression denotes.
pub(super) enum Operand<'a> {
    /// A value (`ty` is `None` for void).
    Value(Expr),
    /// A scalar lvalue.
    Place {
        place: Place,
        ty: ScalarType,
        is_const: bool,
        name: &'a str,
        span: Span,
    },
    /// An array, possibly partially indexed.
    Array(ArrayVal<'a>),
    /// A string literal.
    Str(&'a [u8], Span),
}

/// The size of a pointer (an array parameter) for `sizeof`, as on x86-64.
const POINTER_BYTES: u64 = 8;

/// An array-valued expression.
pub(super) struct ArrayVal<'a> {
    base: ArrayBase,
    indices: Vec<Expr>,
    elem: ScalarType,
    /// The remaining dimensions; the first is `None` for an array parameter's unknown size.
    dims: Vec<Option<u32>>,
    is_const: bool,
    name: &'a str,
    span: Span,
}

impl ArrayVal<'_> {
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
            K::Index(array, index) => self.index(array, index, e.span),
            K::Str(bytes) => Some(Operand::Str(bytes, e.span)),
            _ => self.value(e).map(Operand::Value),
        }
    }

    fn name_operand<'a>(&mut self, name: &'a str, span: Span) -> Option<Operand<'a>> {
        let Some(sym) = self.lookup(name) else {
            self.undeclared(name, span);
            return None;
        };
        match sym {
            Sym::Func => {
                self.error(
                    Diagnostic::error(span, format!("function `{name}` used as a value"))
                        .with_label("functions can only be called"),
                );
                return None;
            }
            Sym::EnumConst(v) => {
                return Some(Operand::Value(mk(
                    ExprKind::IntConst(v),
                    ScalarType::Int,
                    span,
                )))
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
            Type::Scalar(ty) => Operand::Place {
                place,
                ty,
                is_const: info.is_const,
                name,
                span,
            },
            Type::Array { elem, dims } => Operand::Array(ArrayVal {
                base,
                indices: Vec::new(),
                elem,
                dims: dims.into_iter().map(Some).collect(),
                is_const: info.is_const,
                name,
                span,
            }),
            Type::ArrayRef { elem, inner } => Operand::Array(ArrayVal {
                base,
                indices: Vec::new(),
                elem,
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
        let bytes = |t: ScalarType| u64::from(t.bits() / 8);
        match self.operand(x)? {
            Operand::Value(v) => match v.ty {
                Some(t) => Some(bytes(t)),
                None => {
                    self.err(x.span, "`sizeof` of a void expression");
                    None
                }
            },
            Operand::Place { ty, .. } => Some(bytes(ty)),
            Operand::Array(a) => Some(match a.dims.first() {
                Some(None) => POINTER_BYTES,
                _ => {
                    a.dims
                        .iter()
                        .flatten()
                        .map(|&d| u64::from(d))
                        .product::<u64>()
                        * bytes(a.elem)
                }
            }),
            Operand::Str(text, _) => Some(text.len() as u64 + 1),
        }
    }

    /// `sizeof (type)` and `sizeof (type[N]...)`.
    fn size_of_type(&mut self, specs: &ast::DeclSpecs, dims: &[ast::ArrayDim]) -> Option<u64> {
        let (specs, typedef_dims) = self.resolve_specs(specs)?;
        let all: Vec<ast::ArrayDim> = dims.iter().chain(&typedef_dims).cloned().collect();
        let elem = match specs.ty? {
            ast::BaseType::Scalar(t) => t,
            ast::BaseType::Void => {
                self.err(specs.span, "`sizeof` of type `void`");
                return None;
            }
        };
        let sizes = self.dims(&all, false, "")?;
        let count: u64 = sizes.iter().flatten().map(|&d| u64::from(d)).product();
        Some(count * u64::from(elem.bits() / 8))
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
        let i = self.arith(index);
        let (base, i) = (base?, i?);
        let Operand::Array(mut a) = base else {
            self.err(array.span, "subscripted value is not an array");
            return None;
        };
        let ity = i.ty?;
        if !ity.is_integer() {
            self.err(
                index.span,
                format!("array subscript is not an integer (it has type `{ity}`)"),
            );
            return None;
        }
        a.indices.push(convert(i, ScalarType::Long));
        a.dims.remove(0);
        a.span = span;
        if a.dims.is_empty() {
            Some(Operand::Place {
                place: Place::Element {
                    array: a.base,
                    indices: a.indices,
                },
                ty: a.elem,
                is_const: a.is_const,
                name: a.name,
                span,
            })
        } else {
            Some(Operand::Array(a))
        }
    }

    /// The value of `e`, possibly void.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Option<Expr> {
        match self.operand(e)? {
            Operand::Value(v) => Some(v),
            Operand::Place {
                place, ty, span, ..
            } => Some(mk(ExprKind::Load(place), ty, span)),
            Operand::Array(a) => {
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!(
                            "array `{}` (of type `{}`) used as a value",
                            a.name,
                            a.type_name()
                        ),
                    )
                    .with_label("arrays can only be indexed or passed to functions"),
                );
                None
            }
            Operand::Str(_, span) => {
                self.error(
                    Diagnostic::error(
                        span,
                        "string literals are only allowed as arguments of `printf` and `puts`",
                    )
                    .with_label("there are no strings or pointers in this language"),
                );
                None
            }
        }
    }

    /// The value of `e`, which must not be void.
    pub(super) fn scalar(&mut self, e: &ast::Expr) -> Option<Expr> {
        let v = self.rvalue(e)?;
        if v.ty.is_none() {
            let message = match v.kind {
                ExprKind::Printf { .. } => {
                    "the result of `printf` cannot be used in this language".to_string()
                }
                ExprKind::Puts { .. } => {
                    "the result of `puts` cannot be used in this language".to_string()
                }
                _ => "void value not ignored as it ought to be".to_string(),
            };
            self.err(e.span, message);
            return None;
        }
        Some(v)
    }

    /// The value of `e` after the integer promotions.
    pub(super) fn arith(&mut self, e: &ast::Expr) -> Option<Expr> {
        let v = self.scalar(e)?;
        let ty = v.ty?;
        Some(convert(v, promote(ty)))
    }

    /// A condition: any scalar, promoted.
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Option<Expr> {
        self.arith(e)
    }

    /// A modifiable scalar lvalue; `what` names the operation for messages ("assignment").
    fn modifiable(&mut self, e: &ast::Expr, what: &str) -> Option<(Place, ScalarType)> {
        match self.operand(e)? {
            Operand::Place {
                place,
                ty,
                is_const,
                name,
                span,
            } => {
                if is_const {
                    self.err(span, format!("{what} of read-only variable `{name}`"));
                    return None;
                }
                Some((place, ty))
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
            Operand::Value(_) | Operand::Str(..) => {
                self.error(
                    Diagnostic::error(e.span, format!("lvalue required for {what}"))
                        .with_label("expected a variable or an array element"),
                );
                None
            }
        }
    }

    // ----- value expressions -----

    fn value(&mut self, e: &ast::Expr) -> Option<Expr> {
        let span = e.span;
        match &e.kind {
            K::Int(v, ty) => Some(mk(ExprKind::IntConst(ty.wrap(*v as i64)), *ty, span)),
            K::Double(x) => Some(mk(ExprKind::DoubleConst(*x), ScalarType::Double, span)),
            K::Float(x) => Some(mk(
                ExprKind::DoubleConst(f64::from(*x)),
                ScalarType::Float,
                span,
            )),
            K::Char(c) => Some(mk(ExprKind::IntConst(*c), ScalarType::Int, span)),
            K::Unary(op, x) => self.unary(*op, x, span),
            K::Binary(op, a, b) => self.binary(*op, a, b, span),
            K::Assign(op, a, b) => self.assign(*op, a, b, span),
            K::Conditional(c, a, b) => {
                let c = self.condition(c);
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                let (c, a, b) = (c?, a?, b?);
                let (a, b, ty) = match (a.ty, b.ty) {
                    (None, None) => (a, b, None),
                    (Some(x), Some(y)) => {
                        let t = usual_arithmetic(x, y);
                        (convert(a, t), convert(b, t), Some(t))
                    }
                    _ => {
                        self.err(
                            span,
                            "type mismatch in conditional expression: one arm is void",
                        );
                        return None;
                    }
                };
                Some(Expr {
                    kind: ExprKind::Conditional {
                        cond: boxed(c),
                        then_expr: boxed(a),
                        else_expr: boxed(b),
                    },
                    ty,
                    span,
                })
            }
            K::Comma(a, b) => {
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                let (a, b) = (a?, b?);
                let ty = b.ty;
                Some(Expr {
                    kind: ExprKind::Comma {
                        lhs: boxed(a),
                        rhs: boxed(b),
                    },
                    ty,
                    span,
                })
            }
            K::Cast(ty, x) => {
                let specs = &ty.specs;
                let own_dims = self.plain_dims(&ty.declarator)?;
                if !own_dims.is_empty() {
                    self.err(ty.declarator.span, "cast to an array type");
                    return None;
                }
                if let Some((_, span)) = specs.storage {
                    self.err(span, "a storage class specifier cannot appear in a cast");
                    return None;
                }
                let resolved = self.resolve_specs(specs);
                // `(void)x` takes any expression, even a void one; other casts a scalar.
                let to_void = resolved
                    .as_ref()
                    .is_some_and(|(s, _)| s.ty == Some(ast::BaseType::Void));
                let v = if to_void {
                    self.rvalue(x)
                } else {
                    self.scalar(x)
                };
                let (specs, typedef_dims) = resolved?;
                if !typedef_dims.is_empty() {
                    self.err(specs.span, "cast to an array type");
                    return None;
                }
                let target = specs.ty?;
                let v = v?;
                match target {
                    ast::BaseType::Void => Some(Expr {
                        kind: ExprKind::Discard(boxed(v)),
                        ty: None,
                        span,
                    }),
                    ast::BaseType::Scalar(_) if v.ty.is_none() => {
                        self.err(x.span, "void value not ignored as it ought to be");
                        None
                    }
                    ast::BaseType::Scalar(t) => {
                        if v.ty == Some(t) {
                            // Still a value, not an lvalue: `(int)x = 1` is rejected.
                            return Some(v);
                        }
                        Some(cast_to(v, t, span))
                    }
                }
            }
            K::Call(callee, args) => self.call(callee, args, span),
            K::SizeofExpr(x) => {
                let size = self.size_of_expr(x)?;
                Some(mk(ExprKind::IntConst(size as i64), ScalarType::ULong, span))
            }
            K::SizeofType(ty) => {
                let dims = self.plain_dims(&ty.declarator)?;
                let size = self.size_of_type(&ty.specs, &dims)?;
                Some(mk(ExprKind::IntConst(size as i64), ScalarType::ULong, span))
            }
            K::Ident(_) | K::Index(..) | K::Str(_) => self.rvalue(e),
            K::Member { arrow, .. } => {
                let what = if *arrow { "`->`" } else { "`.`" };
                self.err(span, format!("member access {what} is not supported yet: structures are not supported yet"));
                None
            }
            K::Error => None,
        }
    }

    fn unary(&mut self, op: AstUnary, x: &ast::Expr, span: Span) -> Option<Expr> {
        let (increment, prefix) = match op {
            AstUnary::PreInc => (true, true),
            AstUnary::PreDec => (false, true),
            AstUnary::PostInc => (true, false),
            AstUnary::PostDec => (false, false),
            AstUnary::AddrOf | AstUnary::Deref => {
                let what = if op == AstUnary::AddrOf {
                    "`&` (address of)"
                } else {
                    "`*` (indirection)"
                };
                self.err(
                    span,
                    format!("{what} is not supported yet: pointers are not supported yet"),
                );
                return None;
            }
            AstUnary::Plus | AstUnary::Neg | AstUnary::BitNot | AstUnary::Not => {
                let v = self.arith(x)?;
                let ty = v.ty?;
                let op = match op {
                    AstUnary::Plus => return Some(v),
                    AstUnary::Neg => UnaryOp::Neg,
                    AstUnary::BitNot => {
                        if !ty.is_integer() {
                            self.err(
                                span,
                                format!("wrong type argument to bit-complement (have `{ty}`)"),
                            );
                            return None;
                        }
                        UnaryOp::BitNot
                    }
                    _ => UnaryOp::Not,
                };
                let rty = if op == UnaryOp::Not {
                    ScalarType::Int
                } else {
                    ty
                };
                return Some(mk(
                    ExprKind::Unary {
                        op,
                        operand: boxed(v),
                    },
                    rty,
                    span,
                ));
            }
        };
        let what = if increment { "increment" } else { "decrement" };
        let (place, ty) = self.modifiable(x, what)?;
        Some(mk(
            ExprKind::IncDec {
                place,
                increment,
                prefix,
            },
            ty,
            span,
        ))
    }

    fn binary(&mut self, op: AstOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Option<Expr> {
        let l = self.arith(a);
        let r = self.arith(b);
        let (l, r) = (l?, r?);
        let (lt, rt) = (l.ty?, r.ty?);
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
            return Some(mk(kind, ScalarType::Int, span));
        }
        if let Some(cop) = cmpop(op) {
            let t = usual_arithmetic(lt, rt);
            return Some(mk(
                ExprKind::Compare {
                    op: cop,
                    operand_ty: t,
                    lhs: boxed(convert(l, t)),
                    rhs: boxed(convert(r, t)),
                },
                ScalarType::Int,
                span,
            ));
        }
        let op = binop(op);
        self.arithmetic(op, l, r, span)
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
    ) -> Option<Expr> {
        let Some(op) = op else {
            let place = self.modifiable(a, "assignment");
            let v = self.scalar(b);
            let ((place, ty), v) = (place?, v?);
            return Some(mk(
                ExprKind::Assign {
                    place,
                    value: boxed(convert(v, ty)),
                },
                ty,
                span,
            ));
        };
        let place = self.modifiable(a, "assignment");
        let v = self.arith(b);
        let ((place, ty), v) = (place?, v?);
        let op = binop(op);
        // Type the operation as `place op value` would be, then keep its operand type.
        let probe = self.arithmetic(op, mk(ExprKind::IntConst(0), promote(ty), a.span), v, span)?;
        let ExprKind::Binary { rhs, .. } = probe.kind else {
            return None;
        };
        let op_ty = probe.ty?;
        Some(mk(
            ExprKind::CompoundAssign {
                place,
                op,
                op_ty,
                value: rhs,
            },
            ty,
            span,
        ))
    }

    // ----- calls -----

    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let K::Ident(name) = &callee.kind else {
            self.err(callee.span, "called object is not a function");
            return None;
        };
        match self.lookup(name) {
            Some(Sym::Func) => self.user_call(name, callee.span, args, span),
            Some(_) => {
                self.err(
                    callee.span,
                    format!("called object `{name}` is not a function"),
                );
                None
            }
            None => self.library_call(name, callee.span, args, span),
        }
    }

    fn user_call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
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
        for (i, (a, p)) in args.iter().zip(params).enumerate() {
            match self.argument(a, p, i + 1, name) {
                Some(arg) => out.push(arg),
                None => ok = false,
            }
        }
        // A function declared here but defined in another file of the program: the linker
        // checks that some file defines it.
        let imported = (info.id.is_none() && info.external && !self.ctx.whole).then(|| {
            let place = self.place(name_span);
            self.link.used(name, || place);
            self.link.external_function(name, self.ctx.index)
        });
        let Some(id) = info.id.or(imported).filter(|_| ok) else {
            if ok {
                self.error(
                    Diagnostic::error(
                        name_span,
                        format!("function `{name}` is declared but never defined"),
                    )
                    .with_note(format!("declared at {}", self.at(info.span))),
                );
            }
            return None;
        };
        Some(Expr {
            kind: ExprKind::Call {
                func: id,
                args: out,
            },
            ty: info.sig.ret,
            span,
        })
    }

    fn argument(&mut self, a: &ast::Expr, p: &ParamTy, n: usize, fname: &str) -> Option<Arg> {
        match p {
            ParamTy::Scalar(t) => {
                let v = self.scalar(a)?;
                Some(Arg::Scalar(convert(v, *t)))
            }
            ParamTy::Array {
                elem,
                is_const,
                inner,
            } => {
                let op = self.operand(a)?;
                let Operand::Array(arr) = op else {
                    self.err(
                        a.span,
                        format!("argument {n} of `{fname}` must be an array of type `{p}`"),
                    );
                    return None;
                };
                let arr_inner: Vec<Option<u32>> = arr.dims[1..].to_vec();
                let want: Vec<Option<u32>> = inner.iter().map(|&d| Some(d)).collect();
                if arr.elem != *elem || arr_inner != want {
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
        let header = match name {
            "printf" | "puts" => "stdio.h",
            _ => match Builtin::lookup(name) {
                Some(b) => b.header(),
                None => {
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
                }
            },
        };
        if !self.headers.has(header) {
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
                match self.operand(arg)? {
                    Operand::Str(text, _) => Some(Expr {
                        kind: ExprKind::Puts {
                            text: c_string(text),
                        },
                        ty: None,
                        span,
                    }),
                    _ => {
                        self.err(arg.span, "the argument of `puts` must be a string literal");
                        None
                    }
                }
            }
            _ => {
                let b = Builtin::lookup(name)?;
                let params = b.params();
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
                for (a, &t) in args.iter().zip(params) {
                    match self.scalar(a) {
                        Some(v) => out.push(convert(v, t)),
                        None => ok = false,
                    }
                }
                ok.then(|| Expr {
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
        let Operand::Str(format, fspan) = self.operand(first)? else {
            self.err(
                first.span,
                "the format of `printf` must be a string literal",
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
        let kinds = printf_format::arg_kinds(&pieces);
        let specs: Vec<String> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Conversion(s) if s.arg() != ArgKind::None => {
                    Some(format!("%{}{}", s.length.as_str(), s.conv_char as char))
                }
                _ => None,
            })
            .collect();
        let rest = &args[1..];
        if rest.len() != kinds.len() {
            let which = if rest.len() > kinds.len() {
                "many"
            } else {
                "few"
            };
            self.error(
                Diagnostic::error(
                    span,
                    format!("too {which} arguments for the `printf` format"),
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
                match self.operand(a) {
                    Some(Operand::Str(bytes, s)) => out.push(Expr {
                        kind: ExprKind::StringLit(c_string(bytes)),
                        ty: None,
                        span: s,
                    }),
                    Some(_) => {
                        self.err(
                            a.span,
                            format!("format `{spec}` expects a string literal as argument {n}"),
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
        ok.then_some(Expr {
            kind: ExprKind::Printf {
                format: pieces,
                args: out,
            },
            ty: None,
            span,
        })
    }
}
