//! Calls of the C library's functions that the VM provides (`printf` and its family, the
//! `<string.h>`/`<stdlib.h>` memory functions, the math functions): each argument checked
//! against the library's signature, and `printf`'s format string against its arguments.

use crate::ast::{self, ExprKind as K};
use crate::builtins::memory::MemFn;
use crate::builtins::Builtin;
use crate::ctype::CType;
use crate::diag::Diagnostic;
use crate::hir::{Arg, Expr, ExprKind, ScalarType};
use crate::printf_format::{self, ArgKind, Piece};
use crate::span::Span;

use super::expr::{boxed, c_string};
use super::library::standard_header_of;
use super::operand::Operand;
use super::types::{convert, default_promote, mk};
use super::Checker;

impl Checker<'_> {
    /// A call of the library function `name` (whose header, or own prototype, must be in
    /// scope), with its C type (a `void *` or `char *` result keeps its pointee).
    pub(super) fn library_call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
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
        self.library_function_call(name, name_span, args, span)
    }

    /// [`Checker::library_call`] without the need of a declaration in scope (gcc's
    /// `__builtin_memcpy` and the like).
    pub(super) fn library_function_call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<(Expr, CType)> {
        let e = self.library_expr(name, name_span, args, span)?;
        let t = match (&e.kind, e.ty) {
            (ExprKind::Memory { func, .. }, Some(_)) => func.signature().0,
            (_, ty) => ty.map_or(CType::Void, CType::Scalar),
        };
        Some((e, t))
    }

    /// The call of a library function whose name is known to be one.
    fn library_expr(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
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

    pub(super) fn printf(&mut self, args: &[ast::Expr], span: Span) -> Option<Expr> {
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
    pub(super) fn library_args(
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
    pub(super) fn memory_call(&mut self, f: MemFn, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let (ret, params) = f.signature();
        let out = self.library_args(f.name(), args, &params, span)?;
        Some(Expr {
            kind: ExprKind::Memory { func: f, args: out },
            ty: ret.scalar(),
            span,
        })
    }

    /// `sprintf(buffer, "format", ...)` or `snprintf(buffer, limit, "format", ...)`.
    pub(super) fn sprintf(
        &mut self,
        limited: bool,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
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
    pub(super) fn format_and_args(
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
            let Some((v, vty)) = self.typed_scalar(a) else {
                ok = false;
                continue;
            };
            if *kind == ArgKind::LongDouble || vty == CType::LongDouble {
                // A `long double` is passed as the address of its bytes (`vm::printf` reads
                // them); no other type converts to or from it here, as with gcc's varargs.
                if *kind == ArgKind::LongDouble && vty == CType::LongDouble {
                    out.push(v);
                } else {
                    self.error(
                        Diagnostic::error(
                            a.span,
                            format!(
                                "format `{spec}` expects an argument of type `{}`, but argument {n} has type `{}`",
                                kind.describe(),
                                self.spell(&vty)
                            ),
                        )
                        .with_label(format!("expected `{}`", kind.describe())),
                    );
                    ok = false;
                }
                continue;
            }
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
