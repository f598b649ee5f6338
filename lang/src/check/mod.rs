//! The checker: AST to HIR. Name resolution, type checking, C's conversions.
//!
//! One pass over the translation unit in source order, as a C compiler does: a name must be
//! declared before it is used, a function must be declared (prototype or definition) before it
//! is called. Scopes are a stack of maps from names to [`LocalId`]s inside a function, over one
//! file-scope map of globals and functions. Every problem becomes a diagnostic and checking
//! goes on (an erroneous expression yields `None`, and enclosing expressions stay silent about
//! it), so one run reports every independent error.
//!
//! The submodules: [`types`] (promotions, usual arithmetic conversions, constant evaluation),
//! `expr` (expressions, calls, `printf`), `stmt` (statements, local declarations,
//! initializers), [`library`] (what the allowed headers declare).
//!
//! Function ids are assigned before the pass: the defined functions, in order of their first
//! declaration, are `f0, f1, ...`, so a call can name its callee before the callee's body has
//! been checked.

mod expr;
pub mod library;
mod stmt;
pub mod types;

use std::collections::HashMap;

use crate::ast::{self, BaseType, DeclSpecs, DeclaratorKind, Initializer, Item};
use crate::diag::{Diagnostic, Diagnostics};
use crate::hir::{self, ConstValue, FuncId, GlobalId, LocalId, ScalarType, Type};
use crate::lexer::Include;
use crate::preprocess::SourceMap;
use crate::span::Span;
use library::Headers;
use types::Const;

/// Most dimensions an array may have.
pub const MAX_RANK: usize = 12;
/// Most elements an array may have (2^26).
pub const MAX_ELEMENTS: u64 = 1 << 26;

/// Check a parsed translation unit; returns the HIR or every error found.
pub fn check(
    unit: &ast::TranslationUnit,
    includes: &[Include],
    map: &SourceMap,
) -> Result<hir::Program, Diagnostics> {
    let mut checker = Checker::new(unit, map);
    for include in includes {
        if !checker.headers.include(&include.header) {
            checker.error(
                Diagnostic::error(
                    include.span,
                    format!("header <{}> is not supported", include.header),
                )
                .with_label("only <stdio.h>, <stdlib.h> and <math.h> may be included"),
            );
        }
    }
    for item in &unit.items {
        match item {
            Item::Decl(d) => checker.global_declaration(d),
            Item::Function(f) => checker.function_definition(f),
            Item::Error => {}
        }
    }
    checker.finish(map.output_len())
}

/// The type of a function parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ParamTy {
    /// A scalar (top-level `const` does not matter for the function's type).
    Scalar(ScalarType),
    /// An array passed by reference: element type, `const` elements, dimensions after the first.
    Array {
        elem: ScalarType,
        is_const: bool,
        inner: Vec<u32>,
    },
}

impl std::fmt::Display for ParamTy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamTy::Scalar(t) => write!(f, "{t}"),
            ParamTy::Array {
                elem,
                is_const,
                inner,
            } => {
                let c = if *is_const { "const " } else { "" };
                write!(f, "{c}{elem}[]")?;
                inner.iter().try_for_each(|d| write!(f, "[{d}]"))
            }
        }
    }
}

/// A checked parameter declaration.
struct ParamDecl {
    ty: ParamTy,
    name: Option<(String, Span)>,
    is_const: bool,
}

/// A function's type.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Signature {
    ret: Option<ScalarType>,
    params: Vec<ParamTy>,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ret {
            Some(t) => write!(f, "{t}(")?,
            None => write!(f, "void(")?,
        }
        if self.params.is_empty() {
            write!(f, "void")?;
        }
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, ")")
    }
}

/// A name declared at file scope.
#[derive(Clone, Debug)]
enum FileSym {
    Global(GlobalId),
    Func(FuncInfo),
}

/// What is known about a declared function.
#[derive(Clone, Debug)]
struct FuncInfo {
    sig: Signature,
    /// Its id if the program defines it.
    id: Option<FuncId>,
    /// True once its definition has been seen.
    defined: bool,
    /// Span of the first declaration's name.
    span: Span,
}

/// A variable's type and qualifier.
#[derive(Clone, Debug)]
struct VarInfo {
    ty: Type,
    is_const: bool,
}

/// The labels of the innermost switch being checked.
struct SwitchCtx {
    ty: ScalarType,
    /// The loop depth at the switch (labels must not be inside a loop inside the switch).
    loops: u32,
    cases: Vec<(i64, Span)>,
    default: Option<Span>,
}

/// State while checking one function body.
struct FnState {
    locals: Vec<hir::Local>,
    local_info: Vec<VarInfo>,
    scopes: Vec<HashMap<String, LocalId>>,
    ret: Option<ScalarType>,
    name: String,
    loops: u32,
    switches: Vec<SwitchCtx>,
}

/// A resolved name.
enum Sym {
    Local(LocalId),
    Global(GlobalId),
    Func,
}

/// The checker's state.
struct Checker<'m> {
    diags: Diagnostics,
    headers: Headers,
    globals: Vec<hir::Global>,
    global_info: Vec<VarInfo>,
    file_scope: HashMap<String, FileSym>,
    /// Defined functions by id; `None` until checked.
    functions: Vec<Option<hir::Function>>,
    /// Ids of the defined functions, assigned up front.
    func_ids: HashMap<String, FuncId>,
    fs: Option<FnState>,
    /// For `line:col` in notes.
    map: &'m SourceMap,
    /// True if an error about `main`'s declaration was reported (no "missing main" then).
    main_reported: bool,
}

impl<'m> Checker<'m> {
    fn new(unit: &ast::TranslationUnit, map: &'m SourceMap) -> Checker<'m> {
        let mut order: Vec<&str> = Vec::new();
        let mut defined: Vec<&str> = Vec::new();
        for item in &unit.items {
            match item {
                Item::Function(f) => {
                    order.push(&f.declarator.name);
                    defined.push(&f.declarator.name);
                }
                Item::Decl(d) => {
                    for id in &d.declarators {
                        if matches!(id.declarator.kind, DeclaratorKind::Function { .. }) {
                            order.push(&id.declarator.name);
                        }
                    }
                }
                Item::Error => {}
            }
        }
        let mut func_ids = HashMap::new();
        for name in order {
            if defined.contains(&name) && !func_ids.contains_key(name) {
                func_ids.insert(name.to_string(), FuncId::new(func_ids.len()));
            }
        }
        Checker {
            diags: Diagnostics::new(),
            headers: Headers::default(),
            globals: Vec::new(),
            global_info: Vec::new(),
            file_scope: HashMap::new(),
            functions: vec![None; func_ids.len()],
            func_ids,
            fs: None,
            map,
            main_reported: false,
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn err(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, message));
    }

    fn finish(mut self, source_len: usize) -> Result<hir::Program, Diagnostics> {
        let main = match self.file_scope.get("main") {
            Some(FileSym::Func(FuncInfo {
                id: Some(id),
                defined: true,
                ..
            })) => Some(*id),
            _ => None,
        };
        if main.is_none() && !self.main_reported {
            self.err(
                Span::new(source_len, source_len),
                "the program has no `main` function (expected `int main(void) { ... }`)",
            );
        }
        if !self.diags.is_empty() {
            self.diags.sort();
            return Err(self.diags);
        }
        let functions: Option<Vec<hir::Function>> = self.functions.into_iter().collect();
        match (functions, main) {
            (Some(functions), Some(main)) => Ok(hir::Program {
                globals: self.globals,
                functions,
                main,
            }),
            _ => Err(Diagnostic::error(
                Span::default(),
                "internal error: a function was not checked",
            )
            .into()),
        }
    }

    // ----- names -----

    /// Resolve `name` in the current scopes.
    fn lookup(&self, name: &str) -> Option<Sym> {
        if let Some(fs) = &self.fs {
            for scope in fs.scopes.iter().rev() {
                if let Some(&id) = scope.get(name) {
                    return Some(Sym::Local(id));
                }
            }
        }
        match self.file_scope.get(name)? {
            FileSym::Global(id) => Some(Sym::Global(*id)),
            FileSym::Func(_) => Some(Sym::Func),
        }
    }

    /// Report if `name` may not be declared here because a header or the library owns it.
    fn check_reserved(&mut self, name: &str, span: Span, file_scope: bool) -> bool {
        if let Some(h) = self.headers.macro_header(name) {
            self.err(
                span,
                format!("`{name}` is a macro defined by <{h}> and cannot be declared"),
            );
            return false;
        }
        if file_scope {
            let library = crate::builtins::Builtin::lookup(name).is_some()
                || name == "printf"
                || name == "puts";
            if library {
                self.err(
                    span,
                    format!("`{name}` is a library function and cannot be redeclared"),
                );
                return false;
            }
            if let Some(h) = self.headers.declaring_header(name) {
                self.err(span, format!("`{name}` is already declared by <{h}>"));
                return false;
            }
        }
        true
    }

    // ----- types -----

    /// The scalar type of specifiers, reporting `void` for objects.
    fn object_elem(&mut self, specs: &DeclSpecs, name: &str, span: Span) -> Option<ScalarType> {
        match specs.ty? {
            BaseType::Scalar(t) => Some(t),
            BaseType::Void => {
                self.err(span, format!("variable `{name}` declared `void`"));
                None
            }
        }
    }

    /// Evaluate an array dimension: an integer constant expression, at least 1.
    fn array_size(&mut self, size: &ast::Expr) -> Option<u32> {
        let e = self.scalar(size)?;
        let ty = e.ty?;
        if !ty.is_integer() || !is_integer_constant_expression(&e) {
            let label = if !ty.is_integer() {
                format!("the size has type `{ty}`")
            } else if reads_storage(&e) {
                "variable-length arrays are not supported".to_string()
            } else {
                "only integer constants, and floating constants cast to an integer type, may appear"
                    .to_string()
            };
            self.error(
                Diagnostic::error(
                    size.span,
                    "array size must be an integer constant expression",
                )
                .with_label(label),
            );
            return None;
        }
        match types::eval(&e) {
            Ok(Const::Int(v)) => {
                let positive = if ty.is_signed() { v > 0 } else { v != 0 };
                if !positive {
                    self.err(
                        size.span,
                        format!("array size must be positive (it is {v})"),
                    );
                    None
                } else if (v as u64) > MAX_ELEMENTS {
                    self.err(
                        size.span,
                        format!(
                            "array size {} is too large (at most {MAX_ELEMENTS})",
                            v as u64
                        ),
                    );
                    None
                } else {
                    Some(v as u32)
                }
            }
            Ok(Const::Double(_)) => None,
            Err(e) => {
                self.error(
                    Diagnostic::error(e.span, "array size must be an integer constant expression")
                        .with_label(e.message),
                );
                None
            }
        }
    }

    /// The dimensions of an array declarator; the first may be `None` if `[]` is allowed there.
    fn dims(
        &mut self,
        dims: &[ast::ArrayDim],
        first_may_be_empty: bool,
        name: &str,
    ) -> Option<Vec<Option<u32>>> {
        if dims.len() > MAX_RANK {
            self.err(
                dims[MAX_RANK].span,
                format!("array `{name}` has more than {MAX_RANK} dimensions"),
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, d) in dims.iter().enumerate() {
            match &d.size {
                Some(size) => match self.array_size(size) {
                    Some(n) => out.push(Some(n)),
                    None => ok = false,
                },
                None if i == 0 && first_may_be_empty => out.push(None),
                None => {
                    let what = if i == 0 {
                        format!("array size missing in `{name}`")
                    } else {
                        format!("array `{name}` has an incomplete element type: only the first dimension may be empty")
                    };
                    self.err(d.span, what);
                    ok = false;
                }
            }
        }
        let total = out
            .iter()
            .flatten()
            .try_fold(1u64, |acc, &d| acc.checked_mul(u64::from(d)));
        if ok && total.is_none_or(|t| t > MAX_ELEMENTS) {
            self.err(
                dims[0].span,
                format!("array `{name}` is too large (at most {MAX_ELEMENTS} elements)"),
            );
            return None;
        }
        ok.then_some(out)
    }

    /// The signature of a function declarator's parameters, plus their names and spans.
    fn params(&mut self, params: &[ast::Param], need_names: bool) -> Option<Vec<ParamDecl>> {
        let mut out = Vec::new();
        let mut ok = true;
        for p in params {
            let name = p.name.as_ref().map_or("", |(n, _)| n.as_str());
            let ty = match p.specs.ty {
                None => {
                    ok = false;
                    continue;
                }
                Some(BaseType::Void) => {
                    self.err(p.span, "a parameter cannot have type `void` (only `(void)` alone means no parameters)");
                    ok = false;
                    continue;
                }
                Some(BaseType::Scalar(t)) => t,
            };
            if need_names && p.name.is_none() {
                self.err(p.span, "parameter name omitted in a function definition");
                ok = false;
            }
            if let Some((n, span)) = &p.name {
                if !self.check_reserved(n, *span, false) {
                    ok = false;
                }
                let earlier = params.iter().take_while(|q| !std::ptr::eq(*q, p));
                if earlier.filter_map(|q| q.name.as_ref()).any(|(m, _)| m == n) {
                    self.err(*span, format!("redefinition of parameter `{n}`"));
                    ok = false;
                }
            }
            let pty = if p.dims.is_empty() {
                ParamTy::Scalar(ty)
            } else {
                match self.dims(&p.dims, true, name) {
                    Some(dims) => ParamTy::Array {
                        elem: ty,
                        is_const: p.specs.is_const,
                        inner: dims[1..].iter().flatten().copied().collect(),
                    },
                    None => {
                        ok = false;
                        continue;
                    }
                }
            };
            out.push(ParamDecl {
                ty: pty,
                name: p.name.clone(),
                is_const: p.specs.is_const,
            });
        }
        ok.then_some(out)
    }

    // ----- file scope -----

    /// Declare a function (prototype or definition) at file scope. Returns its info if the
    /// declaration is consistent with earlier ones.
    fn declare_function(
        &mut self,
        name: &str,
        span: Span,
        sig: Signature,
        definition: bool,
    ) -> Option<FuncInfo> {
        if !self.check_reserved(name, span, true) {
            return None;
        }
        if name == "main" && (sig.ret != Some(ScalarType::Int) || !sig.params.is_empty()) {
            self.main_reported = true;
            self.err(
                span,
                "`main` must be declared as `int main(void)` in this language",
            );
            return None;
        }
        match self.file_scope.get(name).cloned() {
            Some(FileSym::Global(id)) => {
                let prev = self.globals[id.index()].span;
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{name}` redeclared as a different kind of symbol"),
                    )
                    .with_note(format!(
                        "previously declared as a variable at {}",
                        self.at(prev)
                    )),
                );
                None
            }
            Some(FileSym::Func(mut info)) => {
                if info.sig != sig {
                    self.error(
                        Diagnostic::error(span, format!("conflicting types for `{name}`: `{sig}`"))
                            .with_note(format!(
                                "previously declared at {} as `{}`",
                                self.at(info.span),
                                info.sig
                            )),
                    );
                    return None;
                }
                if definition {
                    if info.defined {
                        self.error(
                            Diagnostic::error(span, format!("redefinition of function `{name}`"))
                                .with_note(format!("first defined at {}", self.at(info.span))),
                        );
                        return None;
                    }
                    info.defined = true;
                    self.file_scope
                        .insert(name.to_string(), FileSym::Func(info.clone()));
                }
                Some(info)
            }
            None => {
                let info = FuncInfo {
                    sig,
                    id: self.func_ids.get(name).copied(),
                    defined: definition,
                    span,
                };
                self.file_scope
                    .insert(name.to_string(), FileSym::Func(info.clone()));
                Some(info)
            }
        }
    }

    /// `line:col` of a span's start, for notes.
    fn at(&self, span: Span) -> String {
        self.map.describe(span.start)
    }

    fn global_declaration(&mut self, d: &ast::Declaration) {
        for id in &d.declarators {
            let decl = &id.declarator;
            match &decl.kind {
                DeclaratorKind::Function { params } => {
                    if let Some(init) = &id.init {
                        self.err(
                            init.span(),
                            format!("function `{}` is initialized like a variable", decl.name),
                        );
                    }
                    let ret = match d.specs.ty {
                        None => continue,
                        Some(BaseType::Void) => None,
                        Some(BaseType::Scalar(t)) => Some(t),
                    };
                    let Some(params) = self.params(params, false) else {
                        continue;
                    };
                    let sig = Signature {
                        ret,
                        params: params.into_iter().map(|p| p.ty).collect(),
                    };
                    self.declare_function(&decl.name, decl.name_span, sig, false);
                }
                DeclaratorKind::Object { dims } => {
                    self.global_variable(&d.specs, decl, dims, id.init.as_deref())
                }
            }
        }
    }

    fn global_variable(
        &mut self,
        specs: &DeclSpecs,
        decl: &ast::Declarator,
        dims: &[ast::ArrayDim],
        init: Option<&Initializer>,
    ) {
        let name = &decl.name;
        let Some(elem) = self.object_elem(specs, name, decl.name_span) else {
            return;
        };
        if !self.check_reserved(name, decl.name_span, true) {
            return;
        }
        if let Some(prev) = self.file_scope.get(name) {
            let note = match prev {
                FileSym::Global(g) => format!(
                    "previous definition at {}",
                    self.at(self.globals[g.index()].span)
                ),
                FileSym::Func(f) => {
                    format!("previously declared as a function at {}", self.at(f.span))
                }
            };
            self.error(
                Diagnostic::error(decl.name_span, format!("redefinition of `{name}`"))
                    .with_note(note),
            );
            return;
        }
        let has_list = matches!(init, Some(Initializer::List { .. }));
        let Some(dims) = self.dims(dims, has_list, name) else {
            return;
        };
        let (ty, values) = if dims.is_empty() {
            let values = match init {
                None => Some(vec![zero(elem)]),
                Some(init) => self
                    .scalar_initializer(init, elem)
                    .and_then(|e| self.constant(&e, elem))
                    .map(|v| vec![v]),
            };
            (Type::Scalar(elem), values)
        } else {
            let mut dims = dims;
            let entries = match init {
                None => Some(Vec::new()),
                Some(init) => self.array_initializer(init, &mut dims, elem, name),
            };
            let dims: Vec<u32> = dims.into_iter().map(|d| d.unwrap_or(1)).collect();
            let size: u64 = dims.iter().map(|&d| u64::from(d)).product();
            let values = entries.and_then(|entries| {
                let mut values = vec![zero(elem); size as usize];
                let mut ok = true;
                for (index, e) in entries {
                    match self.constant(&e, elem) {
                        Some(v) => values[index as usize] = v,
                        None => ok = false,
                    }
                }
                ok.then_some(values)
            });
            (Type::Array { elem, dims }, values)
        };
        let id = GlobalId::new(self.globals.len());
        self.file_scope.insert(name.clone(), FileSym::Global(id));
        self.globals.push(hir::Global {
            name: name.clone(),
            ty: ty.clone(),
            init: values.unwrap_or_default(),
            span: decl.span,
        });
        self.global_info.push(VarInfo {
            ty,
            is_const: specs.is_const,
        });
    }

    /// The constant value of a global's initializer element (already converted to `elem`).
    fn constant(&mut self, e: &hir::Expr, elem: ScalarType) -> Option<ConstValue> {
        match types::eval(e) {
            Ok(Const::Int(v)) => Some(ConstValue::Int(elem.wrap(v))),
            Ok(Const::Double(x)) => Some(ConstValue::Double(x)),
            Err(err) => {
                self.error(
                    Diagnostic::error(err.span, "initializer element is not a constant")
                        .with_label(err.message),
                );
                None
            }
        }
    }

    fn function_definition(&mut self, f: &ast::FunctionDef) {
        let decl = &f.declarator;
        let DeclaratorKind::Function { params } = &decl.kind else {
            return;
        };
        let ret = match f.specs.ty {
            None => return,
            Some(BaseType::Void) => None,
            Some(BaseType::Scalar(t)) => Some(t),
        };
        let Some(params) = self.params(params, true) else {
            return;
        };
        let sig = Signature {
            ret,
            params: params.iter().map(|p| p.ty.clone()).collect(),
        };
        let Some(info) = self.declare_function(&decl.name, decl.name_span, sig, true) else {
            return;
        };
        let Some(id) = info.id else { return };
        self.fs = Some(FnState {
            locals: Vec::new(),
            local_info: Vec::new(),
            scopes: vec![HashMap::new()],
            ret,
            name: decl.name.clone(),
            loops: 0,
            switches: Vec::new(),
        });
        let mut param_ids = Vec::new();
        for ParamDecl { ty, name, is_const } in params {
            let Some((name, span)) = name else { continue };
            let ty = match ty {
                ParamTy::Scalar(t) => Type::Scalar(t),
                ParamTy::Array { elem, inner, .. } => Type::ArrayRef { elem, inner },
            };
            if let Some(local) = self.declare_local(&name, span, ty, is_const) {
                param_ids.push(local);
            }
        }
        let mut stmts = Vec::new();
        self.block_items(&f.body.items, &mut stmts);
        let Some(fs) = self.fs.take() else { return };
        self.functions[id.index()] = Some(hir::Function {
            name: decl.name.clone(),
            params: param_ids,
            locals: fs.locals,
            ret,
            body: hir::Block {
                stmts,
                span: f.body.span,
            },
            span: decl.span,
        });
    }

    /// Declare a local in the innermost scope; reports a redeclaration in the same scope.
    fn declare_local(
        &mut self,
        name: &str,
        span: Span,
        ty: Type,
        is_const: bool,
    ) -> Option<LocalId> {
        if !self.check_reserved(name, span, false) {
            return None;
        }
        let fs = self.fs.as_mut()?;
        let scope = fs.scopes.last_mut()?;
        if let Some(&prev) = scope.get(name) {
            let prev_span = fs.locals[prev.index()].span;
            let note = format!("previous declaration at {}", self.at(prev_span));
            self.error(
                Diagnostic::error(span, format!("redeclaration of `{name}`")).with_note(note),
            );
            return None;
        }
        let id = LocalId::new(fs.locals.len());
        scope.insert(name.to_string(), id);
        fs.locals.push(hir::Local {
            name: name.to_string(),
            ty: ty.clone(),
            span,
        });
        fs.local_info.push(VarInfo { ty, is_const });
        Some(id)
    }

    /// The type and qualifier of a resolved variable.
    fn var_info(&self, sym: &Sym) -> Option<&VarInfo> {
        match sym {
            Sym::Local(id) => self.fs.as_ref()?.local_info.get(id.index()),
            Sym::Global(id) => self.global_info.get(id.index()),
            Sym::Func => None,
        }
    }
}

/// The zero of a scalar type.
fn zero(t: ScalarType) -> ConstValue {
    if t.is_floating() {
        ConstValue::Double(0.0)
    } else {
        ConstValue::Int(0)
    }
}

/// True if evaluating `e` reads a variable or calls a function.
fn reads_storage(e: &hir::Expr) -> bool {
    use hir::ExprKind as K;
    match &e.kind {
        K::IntConst(_) | K::DoubleConst(_) | K::StringLit(_) => false,
        K::Convert { expr, .. } => reads_storage(expr),
        K::Unary { operand, .. } => reads_storage(operand),
        K::Binary { lhs, rhs, .. }
        | K::Compare { lhs, rhs, .. }
        | K::LogicalAnd { lhs, rhs }
        | K::LogicalOr { lhs, rhs }
        | K::Comma { lhs, rhs } => reads_storage(lhs) || reads_storage(rhs),
        K::Conditional {
            cond,
            then_expr,
            else_expr,
        } => reads_storage(cond) || reads_storage(then_expr) || reads_storage(else_expr),
        _ => true,
    }
}

/// C99 6.6p6: an integer constant expression has integer type and uses floating constants
/// only as immediate operands of casts to integer types.
fn is_integer_constant_expression(e: &hir::Expr) -> bool {
    use hir::ExprKind as K;
    if let K::Convert { expr, to } = &e.kind {
        if to.is_integer() && matches!(expr.kind, K::DoubleConst(_)) {
            return true;
        }
    }
    if e.ty.is_some_and(ScalarType::is_floating) {
        return false;
    }
    match &e.kind {
        K::IntConst(_) => true,
        K::Convert { expr, .. } => is_integer_constant_expression(expr),
        K::Unary { operand, .. } => is_integer_constant_expression(operand),
        K::Binary { lhs, rhs, .. }
        | K::Compare { lhs, rhs, .. }
        | K::LogicalAnd { lhs, rhs }
        | K::LogicalOr { lhs, rhs } => {
            is_integer_constant_expression(lhs) && is_integer_constant_expression(rhs)
        }
        K::Conditional {
            cond,
            then_expr,
            else_expr,
        } => [cond, then_expr, else_expr]
            .iter()
            .all(|e| is_integer_constant_expression(e)),
        _ => false,
    }
}
