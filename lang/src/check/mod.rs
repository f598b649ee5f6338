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
mod goto;
pub mod library;
pub mod link;
mod names;
mod stmt;
mod storage;
pub mod types;

use std::collections::HashMap;

use crate::ast::{self, BaseType, DeclSpecs, DeclaratorKind, Initializer, Item, StorageClass};
use crate::diag::{Diagnostic, Diagnostics};
use crate::hir::{self, ConstValue, FuncId, GlobalId, LocalId, ScalarType, Type};
use crate::lexer::Include;
use crate::preprocess::SourceMap;
use crate::span::Span;
use library::Headers;
use link::{Linker, Place};
use names::{Named, Scoped};
use types::Const;

/// Most dimensions an array may have.
pub const MAX_RANK: usize = 12;
/// Most elements an array may have (2^26).
pub const MAX_ELEMENTS: u64 = 1 << 26;

/// Where a translation unit is in its program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitCtx {
    /// Its index (command-line order).
    pub index: u32,
    /// The index of its main file in the program's file table (the files of the units before
    /// it come first).
    pub file_base: u32,
    /// True if it is the whole program (one file): a call of a function it declares but does
    /// not define, and a missing `main`, are its own errors, reported where they are.
    pub whole: bool,
}

/// Check a parsed translation unit against the program's [`Linker`]: its functions and
/// globals join the linker's, and its declarations of external names are checked against
/// the other units'. Returns every error found, in positions of the preprocessed text (for
/// [`SourceMap::remap`]), except that places in other units are [`Diagnostic::related`]
/// entries in original positions.
pub fn check_unit(
    unit: &ast::TranslationUnit,
    includes: &[Include],
    map: &SourceMap,
    linker: &mut Linker,
    ctx: UnitCtx,
) -> Result<(), Diagnostics> {
    let mut checker = Checker::new(unit, map, linker, ctx);
    for include in includes {
        if !checker.headers.include(&include.header) {
            checker.error(unsupported_header(include));
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

/// The error for `#include <h>` of a header the language does not have.
fn unsupported_header(include: &Include) -> Diagnostic {
    Diagnostic::error(
        include.span,
        format!("header <{}> is not supported", include.header),
    )
    .with_label("the standard headers are <stdio.h>, <stdlib.h>, <math.h>, <limits.h>, <stdint.h>, <inttypes.h> and <stdbool.h>")
}

/// The errors for the includes of headers the language does not have (reported with syntax
/// errors too, where checking does not run: the missing header often explains them).
pub fn unsupported_headers(includes: &[Include]) -> Diagnostics {
    let mut headers = Headers::default();
    let mut diags = Diagnostics::new();
    for include in includes {
        if !headers.include(&include.header) {
            diags.push(unsupported_header(include));
        }
    }
    diags
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
    Global(GlobalSym),
    Func(FuncInfo),
}

/// What a translation unit knows about a global variable it declares.
#[derive(Clone, Debug)]
struct GlobalSym {
    id: GlobalId,
    /// True for external linkage.
    external: bool,
    /// True once this unit has defined it.
    defined: bool,
    /// Span of the first declaration's name.
    span: Span,
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
    /// True for external linkage (no `static`).
    external: bool,
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
    /// Block scopes, innermost last: locals, static locals, typedef names, enumerators, tags.
    scopes: Vec<HashMap<String, Scoped>>,
    ret: Option<ScalarType>,
    name: String,
    loops: u32,
    switches: Vec<SwitchCtx>,
    /// The function's labels and `goto`s.
    labels: goto::Labels,
}

/// A resolved name.
enum Sym {
    Local(LocalId),
    Global(GlobalId),
    Func,
    /// An enumeration constant: an `int` constant.
    EnumConst(i64),
    /// A typedef name (only reachable when the parser took it for an identifier).
    Type,
}

/// The checker's state.
struct Checker<'m> {
    diags: Diagnostics,
    headers: Headers,
    file_scope: HashMap<String, FileSym>,
    /// Typedef names, enumerators and enum tags declared at file scope.
    file_names: HashMap<String, Named>,
    /// Every typedef's meaning, indexed by the ids in [`Named::Typedef`].
    typedefs: Vec<names::TypedefInfo>,
    /// The program's functions and globals, shared with the other translation units.
    link: &'m mut Linker,
    /// Where this unit is in the program.
    ctx: UnitCtx,
    /// Ids of the functions this unit defines, assigned up front.
    func_ids: HashMap<String, FuncId>,
    /// The parameters of the definitions of functions declared with empty parentheses
    /// (`int f();`, parameters unspecified): such a declaration takes them.
    defined_params: HashMap<String, Vec<ast::Param>>,
    fs: Option<FnState>,
    /// For `line:col` in notes.
    map: &'m SourceMap,
    /// True if an error about `main`'s declaration was reported (no "missing main" then).
    main_reported: bool,
}

impl<'m> Checker<'m> {
    fn new(
        unit: &ast::TranslationUnit,
        map: &'m SourceMap,
        link: &'m mut Linker,
        ctx: UnitCtx,
    ) -> Checker<'m> {
        let mut order: Vec<&str> = Vec::new();
        let mut defined: Vec<&str> = Vec::new();
        let mut internal: Vec<&str> = Vec::new();
        for item in &unit.items {
            match item {
                Item::Function(f) => {
                    order.push(&f.declarator.name);
                    defined.push(&f.declarator.name);
                    if matches!(f.specs.storage, Some((StorageClass::Static, _))) {
                        internal.push(&f.declarator.name);
                    }
                }
                Item::Decl(d) => {
                    for id in &d.declarators {
                        if matches!(id.declarator.kind, DeclaratorKind::Function { .. }) {
                            order.push(&id.declarator.name);
                            if matches!(d.specs.storage, Some((StorageClass::Static, _))) {
                                internal.push(&id.declarator.name);
                            }
                        }
                    }
                }
                Item::Error => {}
            }
        }
        // `int f();` leaves f's parameters unspecified: its definition in this unit gives them.
        let unspecified: Vec<&str> = unit
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Decl(d) => Some(&d.declarators),
                _ => None,
            })
            .flatten()
            .filter(|id| {
                matches!(
                    id.declarator.kind,
                    DeclaratorKind::Function {
                        empty_parens: true,
                        ..
                    }
                )
            })
            .map(|id| id.declarator.name.as_str())
            .collect();
        let mut defined_params = HashMap::new();
        for item in &unit.items {
            if let Item::Function(f) = item {
                if let DeclaratorKind::Function { params, .. } = &f.declarator.kind {
                    if unspecified.contains(&f.declarator.name.as_str()) {
                        defined_params.insert(f.declarator.name.clone(), params.clone());
                    }
                }
            }
        }
        let mut func_ids = HashMap::new();
        for name in order {
            if defined.contains(&name) && !func_ids.contains_key(name) {
                let id = if internal.contains(&name) {
                    link.new_function(ctx.index)
                } else {
                    link.external_function(name, ctx.index)
                };
                func_ids.insert(name.to_string(), id);
            }
        }
        Checker {
            diags: Diagnostics::new(),
            headers: Headers::default(),
            file_scope: HashMap::new(),
            file_names: HashMap::new(),
            typedefs: Vec::new(),
            link,
            ctx,
            func_ids,
            defined_params,
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

    fn finish(mut self, source_len: usize) -> Result<(), Diagnostics> {
        let main = match self.file_scope.get("main") {
            Some(FileSym::Func(FuncInfo {
                id: Some(id),
                defined: true,
                ..
            })) => Some(*id),
            _ => None,
        };
        if main.is_none() && !self.main_reported && self.ctx.whole {
            self.err(
                Span::new(source_len, source_len),
                "the program has no `main` function (expected `int main(void) { ... }`)",
            );
        }
        if !self.diags.is_empty() {
            self.diags.sort();
            return Err(self.diags);
        }
        Ok(())
    }

    /// Where `span` is in the program's files.
    fn place(&self, span: Span) -> Place {
        let (file, span, text) = self.map.place(span);
        Place {
            file: file + self.ctx.file_base,
            span,
            text,
            unit: self.ctx.index,
        }
    }

    // ----- names -----

    /// Resolve `name` in the current scopes.
    fn lookup(&self, name: &str) -> Option<Sym> {
        if let Some(fs) = &self.fs {
            for scope in fs.scopes.iter().rev() {
                match scope.get(name) {
                    Some(Scoped::Local(id)) => return Some(Sym::Local(*id)),
                    Some(Scoped::Static(id)) => return Some(Sym::Global(*id)),
                    Some(Scoped::Named(named)) => return named.sym(),
                    None => {}
                }
            }
        }
        if !self.file_names.is_empty() {
            if let Some(named) = self.file_names.get(name) {
                return named.sym();
            }
        }
        match self.file_scope.get(name)? {
            FileSym::Global(g) => Some(Sym::Global(g.id)),
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
            if let Some((class, span)) = p
                .specs
                .storage
                .filter(|(c, _)| *c != StorageClass::Register)
            {
                self.err(
                    span,
                    format!("a parameter cannot be declared `{}`", class.keyword()),
                );
                ok = false;
                continue;
            }
            let Some((specs, typedef_dims)) = self.resolve_specs(&p.specs) else {
                ok = false;
                continue;
            };
            let dims = stmt::with_typedef_dims(&p.dims, &typedef_dims);
            let ty = match specs.ty {
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
            let pty = if dims.is_empty() {
                ParamTy::Scalar(ty)
            } else {
                match self.dims(&dims, true, name) {
                    Some(dims) => ParamTy::Array {
                        elem: ty,
                        is_const: specs.is_const,
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
                is_const: specs.is_const,
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
        storage: Option<(StorageClass, Span)>,
    ) -> Option<FuncInfo> {
        if !self.check_reserved(name, span, true) {
            return None;
        }
        let is_static = match storage {
            Some((
                class @ (StorageClass::Typedef | StorageClass::Auto | StorageClass::Register),
                at,
            )) => {
                self.err(
                    at,
                    format!("a function cannot be declared `{}`", class.keyword()),
                );
                return None;
            }
            Some((StorageClass::Static, at)) if name == "main" => {
                self.main_reported = true;
                self.err(at, "`main` cannot be `static`: the program starts there");
                return None;
            }
            Some((StorageClass::Static, _)) => true,
            _ => false,
        };
        if name == "main" && (sig.ret != Some(ScalarType::Int) || !sig.params.is_empty()) {
            self.main_reported = true;
            self.err(
                span,
                "`main` must be declared as `int main(void)` in this language",
            );
            return None;
        }
        match self.file_scope.get(name).cloned() {
            Some(FileSym::Global(g)) => {
                let prev = g.span;
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
                if is_static && info.external {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "static declaration of `{name}` follows non-static declaration"
                            ),
                        )
                        .with_note(format!("previously declared at {}", self.at(info.span))),
                    );
                    return None;
                }
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
                self.link_function(name, &info, definition, span)?;
                Some(info)
            }
            None => {
                let info = FuncInfo {
                    sig,
                    id: self.func_ids.get(name).copied(),
                    defined: definition,
                    span,
                    external: !is_static,
                };
                self.file_scope
                    .insert(name.to_string(), FileSym::Func(info.clone()));
                self.link_function(name, &info, definition, span)?;
                Some(info)
            }
        }
    }

    /// Tell the linker about a declaration of a function (checks it against other units).
    fn link_function(
        &mut self,
        name: &str,
        info: &FuncInfo,
        definition: bool,
        span: Span,
    ) -> Option<()> {
        let place = self.place(span);
        if !info.external {
            if definition {
                self.link.internal_definition(name, place);
            }
            return Some(());
        }
        let ty = info.sig.to_string();
        match self.link.declare(name, true, &ty, definition, span, place) {
            Ok(()) => Some(()),
            Err(d) => {
                self.error(d);
                None
            }
        }
    }

    /// `line:col` of a span's start, for notes.
    fn at(&self, span: Span) -> String {
        self.map.describe(span.start)
    }

    fn global_declaration(&mut self, d: &ast::Declaration) {
        match d.specs.storage {
            Some((StorageClass::Typedef, _)) => return self.typedef_declaration(d),
            Some((class @ (StorageClass::Auto | StorageClass::Register), span)) => {
                self.err(
                    span,
                    format!("`{}` is only allowed inside functions", class.keyword()),
                );
                return;
            }
            _ => {}
        }
        let Some((specs, typedef_dims)) = self.resolve_specs(&d.specs) else {
            return;
        };
        if d.declarators.is_empty() {
            self.declares_nothing(d);
            return;
        }
        for id in &d.declarators {
            let decl = &id.declarator;
            match &decl.kind {
                DeclaratorKind::Function {
                    params,
                    empty_parens,
                } => {
                    if let Some(init) = &id.init {
                        self.err(
                            init.span(),
                            format!("function `{}` is initialized like a variable", decl.name),
                        );
                    }
                    let Some(ret) = self.result_type(&specs, &typedef_dims, decl) else {
                        continue;
                    };
                    // `int f();` takes the parameters of f's definition in this unit.
                    let defined = if *empty_parens {
                        self.defined_params.get(&decl.name).cloned()
                    } else {
                        None
                    };
                    let params = defined.as_deref().unwrap_or(params);
                    let Some(params) = self.params(params, false) else {
                        continue;
                    };
                    let sig = Signature {
                        ret,
                        params: params.into_iter().map(|p| p.ty).collect(),
                    };
                    self.declare_function(&decl.name, decl.name_span, sig, false, d.specs.storage);
                }
                DeclaratorKind::Object { dims } => {
                    let dims = stmt::with_typedef_dims(dims, &typedef_dims);
                    self.global_variable(&specs, decl, &dims, id.init.as_deref())
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
        if self.file_names.contains_key(name) && !self.free_at_file_scope(name, decl.name_span) {
            return;
        }
        let (is_static, is_extern) = match specs.storage {
            Some((StorageClass::Static, _)) => (true, false),
            Some((StorageClass::Extern, _)) => (false, true),
            _ => (false, false),
        };
        // `extern int x;` declares; `int x;`, `int x = 1;` (and `extern int x = 1;`) define.
        let defines = init.is_some() || !is_extern;
        let prev = match self.file_scope.get(name) {
            Some(FileSym::Func(f)) => {
                let note = format!("previously declared as a function at {}", self.at(f.span));
                self.error(
                    Diagnostic::error(decl.name_span, format!("redefinition of `{name}`"))
                        .with_note(note),
                );
                return;
            }
            Some(FileSym::Global(g)) => Some(g.clone()),
            None => None,
        };
        if let Some(g) = &prev {
            let clash = if is_static && g.external {
                Some((
                    format!("static declaration of `{name}` follows non-static declaration"),
                    "previous declaration",
                ))
            } else if !is_static && !is_extern && !g.external {
                Some((
                    format!("non-static declaration of `{name}` follows static declaration"),
                    "previous declaration",
                ))
            } else if defines && g.defined {
                Some((format!("redefinition of `{name}`"), "previous definition"))
            } else {
                None
            };
            if let Some((message, what)) = clash {
                let note = format!("{what} at {}", self.at(g.span));
                self.error(Diagnostic::error(decl.name_span, message).with_note(note));
                return;
            }
        }
        let Some((ty, values)) = self.static_storage(elem, dims, init, name) else {
            return;
        };
        let written = |ty: &Type, is_const: bool| {
            if is_const {
                format!("const {ty}")
            } else {
                ty.to_string()
            }
        };
        if let Some(g) = &prev {
            let info = &self.link.global_info[g.id.index()];
            if info.ty != ty || info.is_const != specs.is_const {
                let old = written(&info.ty, info.is_const);
                let note = format!("previously declared at {} as `{old}`", self.at(g.span));
                let new = written(&ty, specs.is_const);
                self.error(
                    Diagnostic::error(
                        decl.name_span,
                        format!("conflicting types for `{name}`: `{new}`"),
                    )
                    .with_note(note),
                );
                return;
            }
        }
        let external = prev.as_ref().map_or(!is_static, |g| g.external);
        let id = match &prev {
            Some(g) => g.id,
            None => {
                let known = if external {
                    self.link.external_global(name)
                } else {
                    None
                };
                match known {
                    Some(id) => id,
                    None => {
                        let global = hir::Global {
                            name: name.clone(),
                            ty: ty.clone(),
                            init: Vec::new(),
                            span: decl.span,
                        };
                        let info = VarInfo {
                            ty: ty.clone(),
                            is_const: specs.is_const,
                        };
                        let id = self.link.new_global(global, info);
                        if external {
                            self.link.set_external_global(name, id);
                        }
                        id
                    }
                }
            }
        };
        self.file_scope.insert(
            name.clone(),
            FileSym::Global(GlobalSym {
                id,
                external,
                defined: defines || prev.as_ref().is_some_and(|g| g.defined),
                span: prev.as_ref().map_or(decl.span, |g| g.span),
            }),
        );
        let place = self.place(decl.name_span);
        if external {
            let ty = written(&ty, specs.is_const);
            if let Err(d) = self
                .link
                .declare(name, false, &ty, defines, decl.name_span, place)
            {
                self.error(d);
                return;
            }
        } else if defines {
            self.link.internal_definition(name, place);
        }
        if defines {
            self.link
                .define_global(id, values.unwrap_or_default(), decl.span);
        }
    }

    /// The type and initial values of an object with static storage (a global or a `static`
    /// local): its initializer must be constant. The values are `None` if an initializer was
    /// wrong (reported), so the object is still declared.
    fn static_storage(
        &mut self,
        elem: ScalarType,
        dims: &[ast::ArrayDim],
        init: Option<&Initializer>,
        name: &str,
    ) -> Option<(Type, Option<Vec<ConstValue>>)> {
        let has_list = stmt::sized_by_initializer(init);
        let dims = self.dims(dims, has_list, name)?;
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
                // Up to the last element given: the rest is zero (see `hir::Global::init`).
                let len = entries
                    .iter()
                    .map(|(i, _)| u64::from(*i) + 1)
                    .max()
                    .unwrap_or(0);
                let mut values = vec![zero(elem); len.min(size) as usize];
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
        Some((ty, values))
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
        let DeclaratorKind::Function { params, .. } = &decl.kind else {
            return;
        };
        let Some((specs, typedef_dims)) = self.resolve_specs(&f.specs) else {
            return;
        };
        let Some(ret) = self.result_type(&specs, &typedef_dims, decl) else {
            return;
        };
        let Some(params) = self.params(params, true) else {
            return;
        };
        let sig = Signature {
            ret,
            params: params.iter().map(|p| p.ty.clone()).collect(),
        };
        let storage = f.specs.storage;
        let Some(info) = self.declare_function(&decl.name, decl.name_span, sig, true, storage)
        else {
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
            labels: goto::Labels::default(),
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
        self.check_labels();
        let Some(fs) = self.fs.take() else { return };
        let unit = self.ctx.index;
        self.link.define_function(
            id,
            unit,
            hir::Function {
                name: decl.name.clone(),
                params: param_ids,
                locals: fs.locals,
                ret,
                body: hir::Block {
                    stmts,
                    span: f.body.span,
                },
                span: decl.span,
            },
        );
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
        if !self.free_in_block_scope(name, span) {
            return None;
        }
        let fs = self.fs.as_mut()?;
        let scope = fs.scopes.last_mut()?;
        let id = LocalId::new(fs.locals.len());
        scope.insert(name.to_string(), Scoped::Local(id));
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
            Sym::Global(id) => self.link.global_info.get(id.index()),
            Sym::Func | Sym::EnumConst(_) | Sym::Type => None,
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
