//! Calls of the program's functions (C99 6.5.2.2): the callee (a function's name or a pointer
//! to one), each argument converted as if by assignment to its parameter (structures copied,
//! arrays passed by reference), the default argument promotions for `...`, and a structure
//! result in a temporary.
//!
//! A variadic function's further arguments (those matching its `...`) get the default
//! argument promotions and go, in order, into a block of 8-byte slots in the caller's frame
//! (an integer widened to 8 bytes with its sign, so the slot reads back as `int` or `long`
//! alike on this little-endian machine; a `double`; a pointer); the block's address is the
//! hidden last argument, which `<stdarg.h>`'s `va_start` reads (`__builtin_va_area()`) and
//! `va_arg` steps through. The checked memory makes `va_arg` past the last argument an
//! out-of-bounds error naming the block, rather than a read of whatever lies there.

use crate::ast::{self, ExprKind as K};
use crate::ctype::CType;
use crate::diag::Diagnostic;
use crate::hir::{Arg, ArrayBase, Expr, ExprKind, FuncId, Place, ScalarType, Type};
use crate::span::Span;

use super::expr::boxed;
use super::operand::{offset_pointer, Operand};
use super::types::{convert, default_promote, mk};
use super::{Checker, FileSym, ParamTy, Sym};

impl Checker<'_> {
    pub(super) fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
        if let K::Ident(name) = &callee.kind {
            self.declare_deferred(name);
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
                    if let Some(call) = self.gnu_builtin_call(name, args, span) {
                        return call;
                    }
                    // In a program of several files, C89's implicit declaration of a
                    // function another file may define.
                    if !self.ctx.whole
                        && super::library_header(name).is_none()
                        && super::library::standard_header_of(name).is_none()
                    {
                        return self.implicit_external_call(name, callee.span, args, span);
                    }
                    return self.library_call(name, callee.span, args, span);
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
        if args.len() != ft.params.len() && !(ft.variadic && args.len() > ft.params.len()) {
            let which = if args.len() > ft.params.len() {
                "many"
            } else {
                "few"
            };
            self.err(
                span,
                format!(
                    "too {which} arguments in a call through a pointer of type `{}` (expected {}{}, found {})",
                    self.spell(&fty),
                    if ft.variadic { "at least " } else { "" },
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
        let fixed = ft.params.len();
        for (i, (a, p)) in args.iter().zip(&ft.params).enumerate() {
            let what = format!("argument {}", i + 1);
            let v = if *p == CType::LongDouble {
                self.long_double_argument(a)
            } else if matches!(p, CType::Record(_)) {
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
        let area = if ft.variadic {
            let area = self.variadic_arguments(&args[fixed..], fixed, span);
            ok &= area.is_some();
            area
        } else {
            None
        };
        if !ok {
            return None;
        }
        let (stores, area) = area.unzip();
        if let Some(area) = area {
            out.push(Arg::Scalar(area));
        }
        let call = Expr {
            kind: ExprKind::CallIndirect {
                callee: boxed(f),
                args: out,
            },
            ty: ft.ret.scalar(),
            span,
        };
        let call = after(stores.flatten(), call);
        Some(self.with_result(call, result, &ft.ret, span))
    }

    /// A call of `name`, which nothing declares, in a program of several files: C89's
    /// implicit declaration `int name();`, its parameters the types of the arguments after
    /// the default argument promotions (gcc passes them so). The declaration joins the
    /// others of `name` at link time, so a definition in another file whose type differs
    /// (another result than `int`, parameters that are not the promoted arguments) is an
    /// error there naming both, where a real linker would run a mismatched call; no
    /// definition at all is an undefined reference.
    fn implicit_external_call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
        let mut params = Vec::with_capacity(args.len());
        let mut ok = true;
        for (i, a) in args.iter().enumerate() {
            // Typed quietly here: the call below checks the arguments for real.
            let Some((v, cty)) = self.quietly(|c| c.typed_or_record(a)) else {
                self.operand(a);
                ok = false;
                continue;
            };
            let param = match (&cty, v.ty) {
                (CType::Scalar(_), Some(t)) => ParamTy::Scalar(default_promote(t)),
                (CType::Pointer { .. }, _) => {
                    let spelled = self.spell(&cty);
                    ParamTy::Pointer { ty: cty, spelled }
                }
                _ => {
                    self.err(
                        a.span,
                        format!(
                            "argument {} of `{name}` has type `{}`: a function called without a declaration cannot take a structure",
                            i + 1,
                            self.spell(&cty)
                        ),
                    );
                    ok = false;
                    continue;
                }
            };
            params.push(param);
        }
        if !ok {
            return None;
        }
        let sig = super::Signature {
            ret: Some(ScalarType::Int),
            ret_ty: (CType::INT, "int".to_string()),
            params,
            variadic: false,
        };
        let fs = self.fs.take();
        let declared = self.declare_function(name, name_span, sig, false, None);
        self.fs = fs;
        declared?;
        self.user_call(name, name_span, args, span)
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
        // A library function written in C (`<ctype.h>`'s) is linked in from the prelude.
        let elsewhere = !self.ctx.whole || crate::prelude_defines(name);
        let imported = (info.id.is_none() && info.external && elsewhere).then(|| {
            let place = self.place(name_span);
            self.link.used(name, || place);
            self.link.external_function(name, self.ctx.index)
        });
        let id = info.id.or(imported);
        if id.is_none() {
            let declared = self.at(info.span);
            let d = if self.map.in_standard_header(info.span.start) {
                let header = declared.split(':').next().unwrap_or_default().to_string();
                Diagnostic::error(
                    name_span,
                    format!("`{name}` from {header} is not implemented by the VM yet"),
                )
                .with_label("declared by the header, but the VM has no implementation of it yet")
            } else {
                Diagnostic::error(
                    name_span,
                    format!("function `{name}` is declared but never defined"),
                )
            };
            self.error(d.with_note(format!("declared at {declared}")));
        }
        id
    }

    pub(super) fn user_call(
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
        if args.len() != params.len() && !(info.sig.variadic && args.len() > params.len()) {
            let which = if args.len() > params.len() {
                "many"
            } else {
                "few"
            };
            self.error(
                Diagnostic::error(span, format!("too {which} arguments to function `{name}`"))
                    .with_label(format!(
                        "expected {}{}, found {}",
                        if info.sig.variadic { "at least " } else { "" },
                        params.len(),
                        args.len()
                    ))
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
        let area = if info.sig.variadic {
            let area = self.variadic_arguments(&args[params.len()..], params.len(), span);
            ok &= area.is_some();
            area
        } else {
            None
        };
        if !ok {
            return None;
        }
        let (stores, area) = area.unzip();
        if let Some(area) = area {
            out.push(Arg::Scalar(area));
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
        let call = after(stores.flatten(), call);
        Some(self.with_result(call, result, &ret, span))
    }

    /// The further arguments of a call of a variadic function (after `fixed` others): the
    /// stores that put them, promoted, into a block of 8-byte slots of the caller (see the
    /// module docs), and the block's address (a null pointer when there are none).
    fn variadic_arguments(
        &mut self,
        extras: &[ast::Expr],
        fixed: usize,
        span: Span,
    ) -> Option<(Option<Expr>, Expr)> {
        if extras.is_empty() {
            return Some((None, mk(ExprKind::IntConst(0), ScalarType::Ptr, span)));
        }
        let mut values = Vec::with_capacity(extras.len());
        let mut ok = true;
        for (i, a) in extras.iter().enumerate() {
            let Some((v, cty)) = self.typed_or_record(a) else {
                ok = false;
                continue;
            };
            if cty == CType::LongDouble {
                // A `long double` takes two slots (its 16 bytes), as `va_arg` reads it.
                values.push((v, true));
                continue;
            }
            let Some(t) = v.ty.filter(|_| cty.is_scalar()) else {
                self.err(
                    a.span,
                    format!(
                        "argument {} has type `{}`: passing a structure or union through `...` is not supported",
                        fixed + i + 1,
                        self.spell(&cty)
                    ),
                );
                ok = false;
                continue;
            };
            let slot = match default_promote(t) {
                t if t.is_integer() && t.is_signed() => ScalarType::Long,
                t if t.is_integer() => ScalarType::ULong,
                other => other,
            };
            values.push((convert(convert(v, default_promote(t)), slot), false));
        }
        if !ok {
            return None;
        }
        let slots = |long_double: bool| if long_double { 2 } else { 1 };
        let size = VA_SLOT * values.iter().map(|&(_, ld)| slots(ld)).sum::<u64>();
        let block = CType::Array {
            elem: std::sync::Arc::new(CType::Scalar(ScalarType::UChar)),
            len: Some(size),
        };
        let temp = self.new_local(
            "<variadic arguments>",
            Type::Object {
                size,
                align: VA_SLOT,
            },
            block,
            span,
        )?;
        let area = mk(
            ExprKind::ObjectAddr(ArrayBase::Local(temp)),
            ScalarType::Ptr,
            span,
        );
        let mut stores: Option<Expr> = None;
        let mut slot = 0;
        for (v, long_double) in values {
            let ty = v.ty;
            let vspan = v.span;
            let offset = (VA_SLOT * slot) as i64;
            slot += slots(long_double);
            let store = if long_double {
                let dst = super::operand::offset_pointer(area.clone(), offset, vspan);
                Self::long_double_store(dst, v, vspan)
            } else {
                Expr {
                    kind: ExprKind::Assign {
                        place: Place::Deref {
                            ptr: boxed(area.clone()),
                            offset,
                            ty: ty.unwrap_or(ScalarType::Long),
                        },
                        value: boxed(v),
                    },
                    ty,
                    span: vspan,
                }
            };
            stores = Some(match stores {
                None => store,
                Some(prev) => after(Some(prev), store),
            });
        }
        Some((stores, area))
    }

    /// For a call returning the structure type `ret`: a temporary of the caller to receive
    /// it, and its address (the hidden first argument).
    pub(super) fn result_temporary(
        &mut self,
        ret: &CType,
        span: Span,
    ) -> Option<(crate::hir::LocalId, Expr)> {
        if !matches!(ret, CType::Record(_) | CType::LongDouble) {
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
    pub(super) fn with_result(
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
    pub(super) fn record_copy(&mut self, a: &ast::Expr, ty: &CType, what: &str) -> Option<Expr> {
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

    pub(super) fn argument(
        &mut self,
        a: &ast::Expr,
        p: &ParamTy,
        n: usize,
        fname: &str,
    ) -> Option<Arg> {
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
}

/// The bytes of each slot of a variadic call's block of further arguments.
pub(super) const VA_SLOT: u64 = 8;

/// `first, then` (just `then` without `first`), with `then`'s type.
fn after(first: Option<Expr>, then: Expr) -> Expr {
    match first {
        None => then,
        Some(first) => {
            let span = then.span;
            Expr {
                ty: then.ty,
                kind: ExprKind::Comma {
                    lhs: boxed(first),
                    rhs: boxed(then),
                },
                span,
            }
        }
    }
}
