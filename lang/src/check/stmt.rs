//! Statements, local declarations and initializers.
//!
//! Blocks open scopes; `for` opens one for its declaration. `break` needs an enclosing loop or
//! switch, `continue` a loop. `case`/`default` labels belong to the innermost switch: their
//! values are integer constant expressions converted to the switch's promoted type, and must
//! be distinct. A labelled statement becomes the label followed by the statement.
//!
//! Array initializers follow C99 6.7.8 including brace elision: a brace list initializes one
//! sub-array; an expression where a sub-array is expected starts taking as many elements as
//! that sub-array needs from the current list. `int a[] = {...}` and `int m[][3] = {...}` get
//! their first dimension from the initializer.

use std::collections::HashMap;

use crate::ast::{self, BlockItem, ForInit, Initializer, StmtKind as S};
use crate::diag::Diagnostic;
use crate::hir::{self, CaseRange, Expr, Init, ScalarType, Stmt, StmtKind, Type};
use crate::span::Span;

use super::declarators::Shape;
use super::types::{convert, eval, void_expr, Const};
use super::{is_integer_constant_expression, Checker, SwitchCtx};
use crate::ctype::CType;

impl Checker<'_> {
    fn push_scope(&mut self) {
        if let Some(fs) = self.fs.as_mut() {
            fs.scopes.push(HashMap::new());
        }
    }

    fn pop_scope(&mut self) {
        if let Some(fs) = self.fs.as_mut() {
            fs.scopes.pop();
        }
    }

    /// Check block items in the current scope, appending their HIR.
    pub(super) fn block_items(&mut self, items: &[BlockItem], out: &mut Vec<Stmt>) {
        for item in items {
            match item {
                BlockItem::Decl(d) => self.local_declaration(d, out),
                BlockItem::Stmt(s) => self.stmt(s, out),
                BlockItem::StaticAssert(a) => self.static_assert(a),
            }
        }
    }

    /// GNU C's `({ items })`: the block's statements, then the value of its last item if
    /// that is an expression statement (a structure's address, as for a call's result), else
    /// void. The block has its own scope.
    pub(super) fn statement_expression(
        &mut self,
        b: &ast::Block,
        span: Span,
    ) -> Option<(hir::Expr, CType)> {
        if self.fs.is_none() {
            self.err(
                span,
                "a statement expression is only allowed inside a function",
            );
            return None;
        }
        self.push_scope();
        let (last, items) = match b.items.split_last() {
            Some((
                BlockItem::Stmt(ast::Stmt {
                    kind: S::Expr(e), ..
                }),
                rest,
            )) => (Some(e), rest),
            _ => (None, &b.items[..]),
        };
        let mut init = Vec::new();
        self.block_items(items, &mut init);
        let value = match last {
            Some(e) => self.typed_or_record(e),
            None => Some((void_expr(span), CType::Void)),
        };
        self.pop_scope();
        let (value, cty) = value?;
        Some((
            hir::Expr {
                ty: value.ty,
                kind: hir::ExprKind::WithInit {
                    init,
                    value: Box::new(value),
                },
                span,
            },
            cty,
        ))
    }

    /// A block with its own scope.
    fn block(&mut self, b: &ast::Block) -> hir::Block {
        self.push_scope();
        let mut stmts = Vec::new();
        self.block_items(&b.items, &mut stmts);
        self.pop_scope();
        hir::Block {
            stmts,
            span: b.span,
        }
    }

    /// One statement as one HIR statement (a labelled statement becomes a block of label and
    /// statement).
    fn single(&mut self, s: &ast::Stmt) -> Stmt {
        let mut out = Vec::new();
        self.stmt(s, &mut out);
        if out.len() == 1 {
            if let Some(one) = out.pop() {
                return one;
            }
        }
        Stmt {
            kind: StmtKind::Block(hir::Block {
                stmts: out,
                span: s.span,
            }),
            span: s.span,
        }
    }

    fn in_loop<T>(&mut self, f: impl FnOnce(&mut Checker) -> T) -> T {
        if let Some(fs) = self.fs.as_mut() {
            fs.loops += 1;
        }
        let r = f(self);
        if let Some(fs) = self.fs.as_mut() {
            fs.loops -= 1;
        }
        r
    }

    fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        let span = s.span;
        let kind = match &s.kind {
            S::Block(b) => Some(StmtKind::Block(self.block(b))),
            S::Expr(e) => self.rvalue(e).map(StmtKind::Expr),
            S::Empty => Some(StmtKind::Block(hir::Block {
                stmts: Vec::new(),
                span,
            })),
            S::If(c, t, e) => {
                let cond = self.condition(c);
                let then_branch = Box::new(self.single(t));
                let else_branch = e.as_ref().map(|e| Box::new(self.single(e)));
                cond.map(|cond| StmtKind::If {
                    cond,
                    then_branch,
                    else_branch,
                })
            }
            S::While(c, body) => {
                let cond = self.condition(c);
                let body = Box::new(self.in_loop(|c| c.single(body)));
                cond.map(|cond| StmtKind::While { cond, body })
            }
            S::DoWhile(body, c) => {
                let body = Box::new(self.in_loop(|c| c.single(body)));
                let cond = self.condition(c);
                cond.map(|cond| StmtKind::DoWhile { body, cond })
            }
            S::For(init, c, step, body) => {
                self.push_scope();
                let mut init_out = Vec::new();
                let mut ok = true;
                match init.as_ref() {
                    ForInit::None => {}
                    ForInit::Expr(e) => match self.rvalue(e) {
                        Some(e) => init_out.push(Stmt {
                            span: e.span,
                            kind: StmtKind::Expr(e),
                        }),
                        None => ok = false,
                    },
                    ForInit::Decl(d) => self.local_declaration(d, &mut init_out),
                }
                let cond = match c {
                    None => Some(None),
                    Some(c) => self.condition(c).map(Some),
                };
                let step = match step {
                    None => Some(None),
                    Some(e) => self.rvalue(e).map(Some),
                };
                let body = Box::new(self.in_loop(|c| c.single(body)));
                self.pop_scope();
                match (ok, cond, step) {
                    (true, Some(cond), Some(step)) => Some(StmtKind::For {
                        init: init_out,
                        cond,
                        step,
                        body,
                    }),
                    _ => None,
                }
            }
            S::Switch(value, body) => self.switch(value, body),
            S::Case(value, body) => {
                let label = self.case_label(Some((value, None)), span);
                if let Some(label) = label {
                    out.push(Stmt { kind: label, span });
                }
                self.stmt(body, out);
                return;
            }
            S::CaseRange(low, high, body) => {
                let label = self.case_label(Some((low, Some(high))), span);
                if let Some(label) = label {
                    out.push(Stmt { kind: label, span });
                }
                self.stmt(body, out);
                return;
            }
            S::Default(body) => {
                let label = self.case_label(None, span);
                if let Some(label) = label {
                    out.push(Stmt { kind: label, span });
                }
                self.stmt(body, out);
                return;
            }
            S::Break => {
                let fs = self.fs.as_ref();
                if fs.is_some_and(|fs| fs.loops > 0 || !fs.switches.is_empty()) {
                    Some(StmtKind::Break)
                } else {
                    self.err(span, "`break` statement not within a loop or switch");
                    None
                }
            }
            S::Continue => {
                if self.fs.as_ref().is_some_and(|fs| fs.loops > 0) {
                    Some(StmtKind::Continue)
                } else {
                    self.err(span, "`continue` statement not within a loop");
                    None
                }
            }
            S::Return(value) => self.return_stmt(value.as_ref(), span),
            S::Labeled(name, name_span, body) => {
                if let Some(id) = self.define_label(name, *name_span) {
                    out.push(Stmt {
                        kind: StmtKind::Label(id),
                        span,
                    });
                }
                self.stmt(body, out);
                return;
            }
            S::Goto(name, name_span) => self.use_label(name, *name_span).map(StmtKind::Goto),
            S::Error => None,
        };
        if let Some(kind) = kind {
            out.push(Stmt { kind, span });
        }
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> Option<StmtKind> {
        let (ret, fname, result) = {
            let fs = self.fs.as_ref()?;
            (fs.ret, fs.name.clone(), fs.result)
        };
        if let Some(result) = result {
            return self.return_record(value, result, &fname, span);
        }
        match (value, ret) {
            (None, None) => Some(StmtKind::Return(None)),
            (Some(v), None) => {
                self.rvalue(v);
                self.err(
                    span,
                    format!("`return` with a value in function `{fname}` returning `void`"),
                );
                None
            }
            (None, Some(t)) => {
                self.err(
                    span,
                    format!("`return` without a value in function `{fname}` returning `{t}`"),
                );
                None
            }
            (Some(v), Some(_)) => {
                let ret_ty = self.fs.as_ref()?.ret_ty.clone();
                let (value, vty) = self.typed_scalar(v)?;
                let value = self.assign_convert(value, &vty, &ret_ty, v.span, "return")?;
                Some(StmtKind::Return(Some(value)))
            }
        }
    }

    /// `return s;` in a function returning a structure: copied to the address the caller
    /// passed (the hidden parameter `result`).
    fn return_record(
        &mut self,
        value: Option<&ast::Expr>,
        result: hir::LocalId,
        fname: &str,
        span: Span,
    ) -> Option<StmtKind> {
        let ret_ty = self.fs.as_ref()?.ret_ty.clone();
        let Some(v) = value else {
            self.err(
                span,
                format!(
                    "`return` without a value in function `{fname}` returning `{}`",
                    self.spell(&ret_ty)
                ),
            );
            return None;
        };
        let src = match if ret_ty == CType::LongDouble {
            None
        } else {
            Some(self.operand(v)?)
        } {
            None => self.long_double_value(v)?,
            Some(super::operand::Operand::Pointed {
                ptr,
                offset,
                cty,
                span: s,
                ..
            }) if self.compatible(&cty, &ret_ty) => super::operand::offset_pointer(ptr, offset, s),
            Some(_) => {
                self.err(
                    v.span,
                    format!(
                        "incompatible types when returning from `{fname}`: expected `{}`",
                        self.spell(&ret_ty)
                    ),
                );
                return None;
            }
        };
        let size = self.link.records.size_of(&ret_ty)?;
        let dst = super::types::mk(
            hir::ExprKind::Load(hir::Place::Local(result)),
            ScalarType::Ptr,
            span,
        );
        let copy = Expr {
            kind: hir::ExprKind::CopyObject {
                dst: Box::new(dst),
                src: Box::new(src),
                size,
            },
            ty: None,
            span,
        };
        Some(StmtKind::Block(hir::Block {
            stmts: vec![
                Stmt {
                    kind: StmtKind::Expr(copy),
                    span,
                },
                Stmt {
                    kind: StmtKind::Return(None),
                    span,
                },
            ],
            span,
        }))
    }

    fn switch(&mut self, value: &ast::Expr, body: &ast::Stmt) -> Option<StmtKind> {
        let v = self.arith(value);
        let ty = match v.as_ref().and_then(|v| v.ty) {
            Some(t) if t.is_integer() => t,
            Some(t) => {
                self.err(
                    value.span,
                    format!("switch quantity is not an integer (it has type `{t}`)"),
                );
                ScalarType::Int
            }
            None => ScalarType::Int,
        };
        if let Some(fs) = self.fs.as_mut() {
            fs.switches.push(SwitchCtx {
                ty,
                cases: Vec::new(),
                default: None,
            });
        }
        let body = match &body.kind {
            S::Block(b) => self.block(b),
            _ => {
                let s = self.single(body);
                hir::Block {
                    span: s.span,
                    stmts: vec![s],
                }
            }
        };
        let ctx = self.fs.as_mut().and_then(|fs| fs.switches.pop())?;
        let v = v.filter(|v| v.ty.is_some_and(|t| t.is_integer()))?;
        Some(StmtKind::Switch {
            value: v,
            body,
            cases: ctx.cases.iter().map(|&(c, _)| c).collect(),
            has_default: ctx.default.is_some(),
        })
    }

    /// A `case` (with a value, or GNU C's range `low ... high`) or `default` label of the
    /// innermost switch.
    fn case_label(
        &mut self,
        value: Option<(&ast::Expr, Option<&ast::Expr>)>,
        span: Span,
    ) -> Option<StmtKind> {
        let Some(ty) = self
            .fs
            .as_ref()
            .and_then(|fs| fs.switches.last())
            .map(|s| s.ty)
        else {
            let (what, at) = match value {
                Some((v, high)) => (
                    "`case` label",
                    Span::new(span.start as usize, high.unwrap_or(v).span.end as usize),
                ),
                None => (
                    "`default` label",
                    Span::new(span.start as usize, span.start as usize + 7),
                ),
            };
            self.err(at, format!("{what} not within a switch statement"));
            if let Some((v, high)) = value {
                self.rvalue(v);
                if let Some(h) = high {
                    self.rvalue(h);
                }
            }
            return None;
        };
        let Some((value, high)) = value else {
            let prev = self
                .fs
                .as_ref()
                .and_then(|fs| fs.switches.last())
                .and_then(|s| s.default);
            if let Some(prev) = prev {
                let note = format!("the first `default` is at {}", self.at(prev));
                let at = Span::new(span.start as usize, span.start as usize + 7);
                self.error(
                    Diagnostic::error(at, "multiple `default` labels in one switch")
                        .with_note(note),
                );
                return None;
            }
            if let Some(ctx) = self.fs.as_mut().and_then(|fs| fs.switches.last_mut()) {
                ctx.default = Some(span);
            }
            return Some(StmtKind::Default);
        };
        let low = self.case_value(value, ty);
        let high_value = high.map(|h| self.case_value(h, ty));
        let low = low?;
        let range = match high_value {
            None => CaseRange::single(low),
            Some(high_value) => {
                let high_value = high_value?;
                let ordered = if ty.is_signed() {
                    low <= high_value
                } else {
                    (low as u64) <= (high_value as u64)
                };
                if !ordered {
                    // gcc: "empty range specified", a warning; the label matches nothing.
                    return None;
                }
                CaseRange {
                    low,
                    high: high_value,
                }
            }
        };
        let labels_span = Span::new(
            value.span.start as usize,
            high.unwrap_or(value).span.end as usize,
        );
        let prev = self
            .fs
            .as_ref()
            .and_then(|fs| fs.switches.last())
            .and_then(|s| {
                s.cases
                    .iter()
                    .find(|&&(r, _)| r.contains(range.low) || range.contains(r.low))
            })
            .map(|&(r, s)| (r, s));
        if let Some((prev, at)) = prev {
            let note = format!("previously used at {}", self.at(at));
            let message = match (high, prev.low == prev.high) {
                (None, true) => "duplicate case value",
                (None, false) => "duplicate case value: an earlier case range matches it",
                (Some(_), _) => "this case range overlaps the values of an earlier case label",
            };
            self.error(Diagnostic::error(labels_span, message).with_note(note));
            return None;
        }
        if let Some(ctx) = self.fs.as_mut().and_then(|fs| fs.switches.last_mut()) {
            ctx.cases.push((range, labels_span));
        }
        Some(StmtKind::Case(range))
    }

    /// `_Static_assert(condition, "message");`: an error showing the message if the condition,
    /// an integer constant expression, is 0.
    pub(super) fn static_assert(&mut self, a: &ast::StaticAssert) {
        let Some(e) = self.arith(&a.condition) else {
            return;
        };
        let value =
            e.ty.filter(|t| t.is_integer())
                .filter(|_| is_integer_constant_expression(&e))
                .and_then(|_| match eval(&e) {
                    Ok(Const::Int(c)) => Some(c),
                    _ => None,
                });
        match value {
            None => self.err(
                a.condition.span,
                "the condition of `_Static_assert` must be an integer constant expression",
            ),
            Some(0) => self.err(
                a.span,
                format!(
                    "static assertion failed: \"{}\"",
                    String::from_utf8_lossy(&a.message)
                ),
            ),
            Some(_) => {}
        }
    }

    /// The value of a `case` label's expression, converted to the switch's type `ty`.
    fn case_value(&mut self, value: &ast::Expr, ty: ScalarType) -> Option<i64> {
        let e = self.arith(value)?;
        let ety = e.ty?;
        if !ety.is_integer() || !is_integer_constant_expression(&e) {
            self.err(
                value.span,
                "case label must be an integer constant expression",
            );
            return None;
        }
        match eval(&convert(e, ty)) {
            Ok(Const::Int(c)) => Some(c),
            Ok(Const::Double(_)) => None,
            Err(err) => {
                self.error(
                    Diagnostic::error(
                        err.span,
                        "case label must be an integer constant expression",
                    )
                    .with_label(err.message),
                );
                None
            }
        }
    }

    // ----- declarations -----

    fn local_declaration(&mut self, d: &ast::Declaration, out: &mut Vec<Stmt>) {
        match d.specs.storage {
            Some((ast::StorageClass::Typedef, _)) => return self.typedef_declaration(d),
            Some((ast::StorageClass::Static, _)) => return self.static_locals(d),
            Some((ast::StorageClass::Extern, _)) => return self.block_externs(d),
            Some((ast::StorageClass::Auto | ast::StorageClass::Register, _)) | None => {}
        }
        let Some(base) = self.specs_type(&d.specs) else {
            return;
        };
        if d.declarators.is_empty() {
            self.declares_nothing(d);
            return;
        }
        for id in &d.declarators {
            let decl = &id.declarator;
            if decl.function().is_some() {
                self.function_declaration(&base, None, id);
                continue;
            }
            let (cty, elem, mut dims) =
                match self.object_shape(&base, decl, id.init.as_deref(), false) {
                    Some((cty, Shape::Scalar { elem, dims })) => (cty, elem, dims),
                    Some((cty, Shape::Object { size, align })) => {
                        self.object_local(
                            decl,
                            id.init.as_deref(),
                            cty,
                            size,
                            align,
                            Self::declared_const(decl, base.is_const),
                            id.span,
                            out,
                        );
                        continue;
                    }
                    None => continue,
                };
            if dims.is_empty() {
                // The name is in scope from the end of its declarator, so `int x = x;` reads
                // the new `x` as in C.
                let storage = self.scalar_storage(&decl.name, elem);
                let boxed = !matches!(storage, Type::Scalar(_));
                let Some(local) = self.declare_local(
                    &decl.name,
                    decl.name_span,
                    storage,
                    cty.clone(),
                    Self::declared_const(decl, base.is_const),
                ) else {
                    continue;
                };
                let init = match &id.init {
                    None => None,
                    Some(init) => match self.scalar_initializer(init, &cty) {
                        Some(e) if boxed => Some(Init::Array(vec![(0, e)])),
                        Some(e) => Some(Init::Scalar(e)),
                        None => continue,
                    },
                };
                out.push(Stmt {
                    kind: StmtKind::Decl { local, init },
                    span: id.span,
                });
            } else {
                // An array's size must be known before its initializer is checked.
                let entries = match &id.init {
                    None => Some(Vec::new()),
                    Some(init) => {
                        let elem_cty = super::declarators::innermost(&cty).clone();
                        self.array_initializer(init, &mut dims, &elem_cty, &decl.name)
                    }
                };
                let dims: Vec<u32> = dims.into_iter().map(|d| d.unwrap_or(1)).collect();
                let ty = Type::Array { elem, dims };
                let cty = super::declarators::with_dims(&cty, &ty, &self.link.records);
                let Some(local) = self.declare_local(
                    &decl.name,
                    decl.name_span,
                    ty,
                    cty,
                    Self::declared_const(decl, base.is_const),
                ) else {
                    continue;
                };
                let Some(entries) = entries else { continue };
                let init = id.init.as_ref().map(|_| Init::Array(entries));
                out.push(Stmt {
                    kind: StmtKind::Decl { local, init },
                    span: id.span,
                });
            }
        }
        for id in &d.declarators {
            if id.declarator.function().is_none() {
                self.align_variable(&d.specs, id);
            }
        }
    }

    /// A local structure, union or array of them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn object_local(
        &mut self,
        decl: &ast::Declarator,
        init: Option<&Initializer>,
        cty: CType,
        size: u64,
        align: u64,
        is_const: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) {
        if cty == CType::LongDouble {
            self.long_double_local(decl, init, is_const, span, out);
            return;
        }
        // `struct s y = x;`: initialized by a copy of a structure of the same type (C99
        // 6.7.8p13).
        if let (Some(Initializer::Expr(e)), CType::Record(_)) = (init, &cty) {
            if !matches!(e.kind, ast::ExprKind::Str(_)) {
                let ty = Type::Object { size, align };
                let Some(local) =
                    self.declare_local(&decl.name, decl.name_span, ty, cty.clone(), is_const)
                else {
                    return;
                };
                let src = match self.operand(e) {
                    Some(super::operand::Operand::Pointed {
                        ptr,
                        offset,
                        cty: t,
                        span: s,
                        ..
                    }) if self.compatible(&t, &cty) => {
                        super::operand::offset_pointer(ptr, offset, s)
                    }
                    Some(_) => {
                        self.err(
                            e.span,
                            format!(
                                "`{}` must be initialized by a brace-enclosed list or a `{}`",
                                decl.name,
                                self.spell(&cty)
                            ),
                        );
                        return;
                    }
                    None => return,
                };
                let dst = super::types::mk(
                    hir::ExprKind::ObjectAddr(hir::ArrayBase::Local(local)),
                    ScalarType::Ptr,
                    decl.name_span,
                );
                out.push(Stmt {
                    kind: StmtKind::Decl { local, init: None },
                    span,
                });
                out.push(Stmt {
                    kind: StmtKind::Expr(Expr {
                        kind: hir::ExprKind::CopyObject {
                            dst: Box::new(dst),
                            src: Box::new(src),
                            size,
                        },
                        ty: None,
                        span,
                    }),
                    span,
                });
                return;
            }
        }
        let leaves = match init {
            Some(init) => match self.object_initializer(init, &cty, &decl.name) {
                Some(found) => Some(found),
                None => return,
            },
            None => None,
        };
        let (size, align, cty) = match (&leaves, &cty) {
            (Some((_, count)), CType::Array { elem, len: None }) => {
                let (size, align) = self.sized_object(&cty, *count, size, align);
                let cty = CType::Array {
                    elem: elem.clone(),
                    len: Some((*count).max(1)),
                };
                (size, align, cty)
            }
            _ => (size, align, cty),
        };
        let ty = Type::Object { size, align };
        let Some(local) = self.declare_local(&decl.name, decl.name_span, ty, cty, is_const) else {
            return;
        };
        // Members initialized by a whole structure: copied once the scalars are stored.
        let mut copies = Vec::new();
        let init = match leaves {
            Some((leaves, _)) => {
                let mut fields = Vec::new();
                for leaf in &leaves {
                    if let (CType::LongDouble, super::object_init::LeafValue::Expr(e)) =
                        (&leaf.ty, &leaf.value)
                    {
                        let Some(copy) = self.long_double_member(local, leaf.offset, e) else {
                            return;
                        };
                        copies.push(copy);
                        continue;
                    }
                    if let super::object_init::LeafValue::Object(e) = leaf.value {
                        let Some(copy) = self.member_copy(local, leaf.offset, &leaf.ty, e) else {
                            return;
                        };
                        copies.push(copy);
                        continue;
                    }
                    let Some((value, ty)) = self.leaf_value(leaf) else {
                        return;
                    };
                    fields.push(hir::FieldInit {
                        offset: leaf.offset,
                        ty,
                        bits: leaf.bits.map(|b| (b.bit_offset, b.width)),
                        value,
                    });
                }
                Some(Init::Object(fields))
            }
            None => None,
        };
        out.push(Stmt {
            kind: StmtKind::Decl { local, init },
            span,
        });
        out.extend(copies.into_iter().map(|e| Stmt {
            span: e.span,
            kind: StmtKind::Expr(e),
        }));
    }

    /// The copy of the structure `e` into the member at `offset` of the object `local`.
    fn member_copy(
        &mut self,
        local: hir::LocalId,
        offset: u64,
        ty: &CType,
        e: &ast::Expr,
    ) -> Option<Expr> {
        let Some(super::operand::Operand::Pointed {
            ptr,
            offset: o,
            span: s,
            ..
        }) = self.operand(e)
        else {
            self.err(e.span, format!("a `{}` is required here", self.spell(ty)));
            return None;
        };
        let src = super::operand::offset_pointer(ptr, o, s);
        let base = super::types::mk(
            hir::ExprKind::ObjectAddr(hir::ArrayBase::Local(local)),
            ScalarType::Ptr,
            e.span,
        );
        let dst = super::operand::offset_pointer(base, offset as i64, e.span);
        Some(Expr {
            kind: hir::ExprKind::CopyObject {
                dst: Box::new(dst),
                src: Box::new(src),
                size: self.link.records.size_of(ty)?,
            },
            ty: None,
            span: e.span,
        })
    }

    /// The initializer of a scalar (`= e` or `= { e }`), converted to `ty`.
    pub(super) fn scalar_initializer(&mut self, init: &Initializer, ty: &CType) -> Option<Expr> {
        match init {
            Initializer::Expr(e) => {
                let (v, vty) = self.typed_scalar(e)?;
                self.assign_convert(v, &vty, ty, e.span, "initialization")
            }
            Initializer::List { items, span, .. } => match items.as_slice() {
                [Initializer::Expr(e)] => {
                    let (v, vty) = self.typed_scalar(e)?;
                    self.assign_convert(v, &vty, ty, e.span, "initialization")
                }
                _ => {
                    self.err(*span, "a scalar must be initialized by one expression");
                    None
                }
            },
            Initializer::Designated { span, .. } => {
                self.err(*span, "a designator needs an array to designate in");
                None
            }
        }
    }

    /// The flat `(index, value)` entries of an array initializer, values converted to `elem`.
    /// Sets an unknown first dimension from the initializer.
    pub(super) fn array_initializer(
        &mut self,
        init: &Initializer,
        dims: &mut [Option<u32>],
        elem: &CType,
        name: &str,
    ) -> Option<Vec<(u32, Expr)>> {
        let chars = matches!(elem, CType::Scalar(ScalarType::Char | ScalarType::UChar));
        let (items, span) = match init {
            Initializer::List { items, span, .. } => (items.as_slice(), *span),
            // `char s[] = "text"`: the string initializes the whole array.
            Initializer::Expr(e) if chars && dims.len() == 1 && is_string(e) => {
                (std::slice::from_ref(init), e.span)
            }
            _ => {
                self.error(
                    Diagnostic::error(
                        init.span(),
                        format!("array `{name}` must be initialized by a brace-enclosed list"),
                    )
                    .with_label("expected `{ ... }`"),
                );
                return None;
            }
        };
        let mut flat: Vec<(u64, Flat)> = Vec::new();
        let mut ok = true;
        let n = self.braced(dims, items, 0, chars, &mut flat, &mut ok);
        if dims[0].is_none() {
            let total = dims[1..]
                .iter()
                .flatten()
                .map(|&d| u64::from(d))
                .product::<u64>()
                .max(1);
            if n == 0 || n.saturating_mul(total) > super::MAX_ELEMENTS {
                self.err(
                    span,
                    format!(
                        "cannot determine a valid size for array `{name}` from its initializer"
                    ),
                );
                return None;
            }
            dims[0] = Some(n as u32);
        }
        let mut out = Vec::new();
        for (index, value) in flat {
            let v = match value {
                Flat::Expr(e) => self.typed_scalar(e).and_then(|(v, vty)| {
                    self.assign_convert(v, &vty, elem, e.span, "initialization")
                }),
                Flat::Byte(b, span) => elem.scalar().map(|t| {
                    convert(
                        super::types::mk(
                            hir::ExprKind::IntConst(i64::from(b)),
                            ScalarType::Int,
                            span,
                        ),
                        t,
                    )
                }),
            };
            match v {
                Some(v) => out.push((index as u32, v)),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Initialize the aggregate `dims` from a whole brace list; returns the number of
    /// first-dimension elements initialized (one more than the highest index).
    fn braced<'a>(
        &mut self,
        dims: &[Option<u32>],
        items: &'a [Initializer],
        offset: u64,
        chars: bool,
        flat: &mut Vec<(u64, Flat<'a>)>,
        ok: &mut bool,
    ) -> u64 {
        let mut idx = 0;
        let at = Level {
            skip: 0,
            top: true,
            offset,
            chars,
        };
        let n = self.fill(dims, items, &mut idx, at, flat, ok);
        if let Some(extra) = items.get(idx) {
            self.err(extra.span(), "excess elements in array initializer");
            *ok = false;
        }
        n
    }

    /// Initialize the aggregate `dims` from `items[*idx..]`, consuming what it needs (brace
    /// elision); returns the number of first-dimension elements initialized (one more than
    /// the highest index). A designation (`[i] = v`, `[i][j] = v`) belongs to the brace list
    /// it is written in: an elided level stops at one and leaves it to the list's own level,
    /// which moves to element `i` and goes on from there (C99 6.7.8p17-20).
    fn fill<'a>(
        &mut self,
        dims: &[Option<u32>],
        items: &'a [Initializer],
        idx: &mut usize,
        at: Level,
        flat: &mut Vec<(u64, Flat<'a>)>,
        ok: &mut bool,
    ) -> u64 {
        let stride: u64 = dims[1..].iter().flatten().map(|&d| u64::from(d)).product();
        let limit = dims[0].map_or(u64::MAX, u64::from);
        // A string literal initializes a whole array of characters (C99 6.7.8p14).
        if let (true, 1, Some(Initializer::Expr(e))) = (at.chars, dims.len(), items.get(*idx)) {
            if let ast::ExprKind::Str(bytes) = &e.kind {
                *idx += 1;
                return self.string_row(bytes, e.span, dims[0], at.offset, flat, ok);
            }
        }
        let mut skip = at.skip;
        let mut i = 0u64;
        let mut count = 0u64;
        while let Some(item) = items.get(*idx) {
            let (designators, value) = match item {
                Initializer::Designated {
                    designators, value, ..
                } => (&designators[skip.min(designators.len())..], &**value),
                other => (&[][..], other),
            };
            let consumed = skip + designators.len();
            if let Some(first) = designators.first() {
                if !at.top && skip == 0 {
                    break;
                }
                let Some(k) = self.designator_index(first, limit) else {
                    *ok = false;
                    *idx += 1;
                    skip = 0;
                    continue;
                };
                i = k;
                if let Some(second) = designators.get(1) {
                    if dims.len() == 1 {
                        self.err(
                            designator_span(second),
                            "too many designators: the element is not an array",
                        );
                        *ok = false;
                        *idx += 1;
                    } else {
                        let inner = Level {
                            skip: skip + 1,
                            top: false,
                            offset: at.offset + i * stride,
                            chars: at.chars,
                        };
                        self.fill(&dims[1..], items, idx, inner, flat, ok);
                    }
                    skip = 0;
                    i += 1;
                    count = count.max(i);
                    continue;
                }
            } else if i >= limit {
                break;
            }
            let here = at.offset + i * stride;
            if dims.len() == 1 {
                match value {
                    Initializer::Expr(e) => flat.push((here, Flat::Expr(e))),
                    Initializer::List { span, .. } | Initializer::Designated { span, .. } => {
                        self.err(*span, "braces around a scalar initializer");
                        *ok = false;
                    }
                }
                *idx += 1;
            } else {
                let inner = &dims[1..];
                match value {
                    Initializer::List { items: sub, .. } => {
                        *idx += 1;
                        self.braced(inner, sub, here, at.chars, flat, ok);
                    }
                    _ => {
                        let elided = Level {
                            skip: consumed,
                            top: false,
                            offset: here,
                            chars: at.chars,
                        };
                        self.fill(inner, items, idx, elided, flat, ok);
                    }
                }
            }
            skip = 0;
            i += 1;
            count = count.max(i);
            if at.offset.saturating_add(i.saturating_mul(stride.max(1))) > super::MAX_ELEMENTS {
                break;
            }
        }
        count
    }

    /// A row of characters initialized by a string literal: its bytes, then its terminating
    /// NUL if the row has room for it (`char s[3] = "abc"` has none, as C allows); returns the
    /// number of elements initialized.
    fn string_row(
        &mut self,
        bytes: &[u8],
        span: Span,
        len: Option<u32>,
        offset: u64,
        flat: &mut Vec<(u64, Flat)>,
        ok: &mut bool,
    ) -> u64 {
        let n = bytes.len() as u64;
        let fits = len.is_none_or(|l| n <= u64::from(l));
        if !fits {
            self.err(
                span,
                format!(
                    "initializer-string for array of chars is too long ({n} characters for {})",
                    len.unwrap_or(0)
                ),
            );
            *ok = false;
            return 0;
        }
        for (k, &b) in bytes.iter().enumerate() {
            flat.push((offset + k as u64, Flat::Byte(b, span)));
        }
        let with_nul = len.is_none_or(|l| n < u64::from(l));
        if with_nul {
            flat.push((offset + n, Flat::Byte(0, span)));
            n + 1
        } else {
            n
        }
    }

    /// The element a `[index]` designator names: an integer constant expression, at least 0
    /// and less than `limit`.
    pub(super) fn designator_index(&mut self, d: &ast::Designator, limit: u64) -> Option<u64> {
        let (index, span) = match d {
            ast::Designator::Index(index, span) => (index, *span),
            ast::Designator::Member(name, span) => {
                self.err(
                    *span,
                    format!(
                        "member designator `.{name}` needs a struct (structs are not supported)"
                    ),
                );
                return None;
            }
        };
        let e = self.scalar(index)?;
        if !is_integer_constant_expression(&e) {
            self.err(
                index.span,
                "an array designator's index must be an integer constant expression",
            );
            return None;
        }
        let value = match eval(&e) {
            Ok(Const::Int(v)) => v,
            Ok(Const::Double(_)) => return None,
            Err(err) => {
                self.err(err.span, err.message);
                return None;
            }
        };
        let unsigned = e.ty.is_some_and(|t| !t.is_signed());
        if (value < 0 && !unsigned) || (value as u64) >= limit.min(super::MAX_ELEMENTS) {
            self.err(
                span,
                format!("array index {value} in initializer exceeds array bounds"),
            );
            return None;
        }
        Some(value as u64)
    }
}

/// One value of a flattened array initializer.
#[derive(Clone, Copy)]
enum Flat<'a> {
    /// An expression of the source.
    Expr(&'a ast::Expr),
    /// A character of a string literal (or its terminating NUL), and the literal's range.
    Byte(u8, Span),
}

/// True if `e` is a string literal.
fn is_string(e: &ast::Expr) -> bool {
    matches!(e.kind, ast::ExprKind::Str(_))
}

/// Where a level of [`Checker::fill`] starts.
#[derive(Clone, Copy)]
struct Level {
    /// How many designators of the first item an enclosing level has already applied.
    skip: usize,
    /// True for the level of a brace list itself (designations apply here), false for a
    /// level entered by brace elision.
    top: bool,
    /// Flat index of the aggregate's first element.
    offset: u64,
    /// True if the elements are characters (a string literal may initialize a row).
    chars: bool,
}

/// A designator's range.
fn designator_span(d: &ast::Designator) -> Span {
    match d {
        ast::Designator::Index(_, span) | ast::Designator::Member(_, span) => *span,
    }
}
