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

mod addressed;
mod attributes;
mod calls;
mod compound;
mod declarators;
mod expr;
mod gnu_builtins;

pub(crate) use gnu_builtins::bit_builtin;
mod goto;
pub mod library;
mod library_calls;
pub mod link;
mod long_double;
mod names;
mod object_init;
mod operand;
mod operators;
mod pointers;
mod records;
mod stmt;
mod storage;
pub mod types;

use std::collections::HashMap;

use crate::ast::{self, Initializer, Item, StorageClass};
use crate::ctype::CType;
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
    /// True for a library unit written in C (`lang/src/prelude/`), which defines library
    /// functions (`qsort`) that programs may not define.
    pub library: bool,
}

/// Check a parsed translation unit against the program's [`Linker`]: its functions and
/// globals join the linker's, and its declarations of external names are checked against
/// the other units'. Returns every error found, in positions of the preprocessed text (for
/// [`SourceMap::remap`]), except that places in other units are [`Diagnostic::related`]
/// entries in original positions.
pub fn check_unit<'m>(
    unit: &'m ast::TranslationUnit,
    includes: &[Include],
    map: &'m SourceMap,
    linker: &'m mut Linker,
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
            Item::StaticAssert(a) => checker.static_assert(a),
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
    .with_label("the VM provides the C99 standard headers (but <complex.h>, <fenv.h>, <tgmath.h>, <wchar.h>, <wctype.h>) and <unistd.h>, <sys/time.h>, <strings.h>; no `-I` directory has this one")
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
    /// A pointer (declared as one: `int *p`, `char **argv`, `int (*f)(int)`), with its C
    /// spelling for messages.
    Pointer { ty: CType, spelled: String },
    /// A structure or union passed by value: the caller passes the address of a copy it
    /// made, which the callee's parameter names.
    Record { ty: CType, spelled: String },
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
            ParamTy::Pointer { spelled, .. } | ParamTy::Record { spelled, .. } => {
                f.write_str(spelled)
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
    /// The result's scalar type (`None` for `void`).
    ret: Option<ScalarType>,
    /// The result's C type and its spelling (`int *` for a function returning a pointer).
    ret_ty: (CType, String),
    params: Vec<ParamTy>,
    /// `...` after the parameters: the caller passes the further arguments, promoted, in a
    /// block of 8-byte slots whose address is the hidden last argument (`calls`).
    variadic: bool,
}

impl Signature {
    /// The C function type.
    fn c_type(&self) -> CType {
        let params = self.params.iter().map(ParamTy::c_type).collect();
        CType::Function(std::sync::Arc::new(crate::ctype::FnType {
            ret: self.ret_ty.0.clone(),
            params,
            variadic: self.variadic,
        }))
    }
}

impl ParamTy {
    /// The parameter's C type (after C's adjustment of arrays to pointers).
    fn c_type(&self) -> CType {
        match self {
            ParamTy::Scalar(t) => CType::Scalar(*t),
            ParamTy::Array {
                elem,
                is_const,
                inner,
            } => CType::Pointer {
                to: std::sync::Arc::new(declarators::array_of(CType::Scalar(*elem), inner)),
                to_const: *is_const,
            },
            ParamTy::Pointer { ty, .. } | ParamTy::Record { ty, .. } => ty.clone(),
        }
    }
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}(", self.ret_ty.1)?;
        if self.params.is_empty() {
            write!(f, "void")?;
        }
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{p}")?;
        }
        if self.variadic {
            write!(f, ", ...")?;
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

/// The initial contents of an object with static storage: one value per element (scalars
/// and arrays of scalars) or the scalars set in a structure (the rest zero).
#[derive(Clone, Debug, Default)]
struct StaticInit {
    values: Vec<ConstValue>,
    fields: Vec<hir::FieldInit<ConstValue>>,
}

/// A variable's type and qualifier.
#[derive(Clone, Debug)]
struct VarInfo {
    /// Its storage in the HIR.
    ty: Type,
    /// Its C type.
    cty: CType,
    is_const: bool,
}

/// The labels of the innermost switch being checked.
struct SwitchCtx {
    ty: ScalarType,
    cases: Vec<(hir::CaseRange, Span)>,
    default: Option<Span>,
}

/// State while checking one function body.
struct FnState {
    locals: Vec<hir::Local>,
    local_info: Vec<VarInfo>,
    /// Block scopes, innermost last: locals, static locals, typedef names, enumerators, tags.
    scopes: Vec<HashMap<String, Scoped>>,
    ret: Option<ScalarType>,
    /// The result's C type.
    ret_ty: CType,
    name: String,
    loops: u32,
    switches: Vec<SwitchCtx>,
    /// The function's labels and `goto`s.
    labels: goto::Labels,
    /// The names whose address the body takes (`&x`): such locals live in memory.
    addressed: std::collections::HashSet<String>,
    /// For a function returning a structure: the hidden parameter holding the address to
    /// store the result at.
    result: Option<LocalId>,
    /// For a variadic function: the hidden last parameter, the address of the block of its
    /// further arguments (`__builtin_va_area()`, behind `<stdarg.h>`'s `va_start`).
    va_area: Option<LocalId>,
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
    /// Library functions this unit declares itself (`int printf(const char *, ...);`
    /// without `<stdio.h>`): callable as if their header were included.
    declared_library: std::collections::HashSet<String>,
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
    defined_params: HashMap<String, (Vec<ast::Param>, bool)>,
    fs: Option<FnState>,
    /// For `line:col` in notes.
    map: &'m SourceMap,
    /// True if an error about `main`'s declaration was reported (no "missing main" then).
    main_reported: bool,
    /// The prototypes of the standard headers' functions the VM does not implement yet,
    /// by name: checked only when the program names the function (see
    /// [`Checker::declare_deferred`]). Most programs use none of the hundreds the headers
    /// declare, and checking them was a fifth of an including program's compile time.
    deferred: HashMap<String, (&'m ast::Declaration, usize)>,
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
                        if id.declarator.function().is_some() {
                            order.push(&id.declarator.name);
                            if matches!(d.specs.storage, Some((StorageClass::Static, _))) {
                                internal.push(&id.declarator.name);
                            }
                        }
                    }
                }
                Item::StaticAssert(_) | Item::Error => {}
            }
        }
        // `int f();` (or a call of f before any declaration, C89's implicit declaration)
        // leaves f's parameters unspecified: its definition in this unit gives them.
        let mut defined_params = HashMap::new();
        for item in &unit.items {
            if let Item::Function(f) = item {
                if let Some((params, _)) = f.declarator.function() {
                    let variadic = f.declarator.variadic().is_some();
                    defined_params.insert(f.declarator.name.clone(), (params.to_vec(), variadic));
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
            declared_library: std::collections::HashSet::new(),
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
            deferred: HashMap::new(),
        }
    }

    /// Checks the deferred header prototype of `name`, if there is one, now that the
    /// program names it: at file scope (the current function's scopes set aside, so its
    /// types mean what they meant in the header).
    fn declare_deferred(&mut self, name: &str) {
        if self.deferred.is_empty() {
            return;
        }
        let Some((d, index)) = self.deferred.remove(name) else {
            return;
        };
        let fs = self.fs.take();
        if let Some(base) = self.specs_type(&d.specs) {
            self.function_declaration(&base, d.specs.storage, &d.declarators[index]);
        }
        self.fs = fs;
    }

    /// Whether the file-scope prototype `id` of declaration `d` is one of a standard header's
    /// functions that the VM does not implement, whose checking can wait for a use.
    fn deferrable(&self, d: &ast::Declaration, id: &ast::InitDeclarator) -> bool {
        let decl = &id.declarator;
        !self.ctx.library
            && d.specs
                .storage
                .is_none_or(|(class, _)| class == StorageClass::Extern)
            && id.init.is_none()
            && decl.function().is_some()
            && decl.variadic().is_none()
            && library_header(&decl.name).is_none()
            && self.map.in_standard_header(decl.name_span.start)
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
        // The library's own code, and the standard headers' declarations of their names.
        if self.ctx.library || self.map.in_standard_header(span.start) {
            return true;
        }
        if let Some(h) = self.headers.macro_header(name) {
            self.err(
                span,
                format!("`{name}` is a macro defined by <{h}> and cannot be declared"),
            );
            return false;
        }
        if file_scope {
            // A library function is the library's once its header is included (a program
            // that does not include it may define its own `fabs`, as C allows).
            // (`sprintf` and the functions on memory are reported as their header's
            // declarations, below.)
            let header = match name {
                "printf" | "puts" => Some("stdio.h"),
                _ => crate::builtins::Builtin::lookup(name).map(crate::builtins::Builtin::header),
            };
            if header.is_some_and(|h| self.headers.has(h)) {
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

    /// The signature of a function declarator's parameters, plus their names and spans.
    fn params(&mut self, params: &[ast::Param], need_names: bool) -> Option<Vec<ParamDecl>> {
        let mut out = Vec::new();
        let mut ok = true;
        for p in params {
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
            let Some(base) = self.specs_type(&p.specs) else {
                ok = false;
                continue;
            };
            let Some(full) = self.object_type(&base, &p.declarator, true) else {
                ok = false;
                continue;
            };
            let pty = match &full {
                CType::Void => {
                    self.err(p.span, "a parameter cannot have type `void` (only `(void)` alone means no parameters)");
                    ok = false;
                    continue;
                }
                CType::Scalar(t) => ParamTy::Scalar(*t),
                CType::Array { .. } => match declarators::scalar_shape(&full)
                    .filter(|_| !declarators::innermost(&full).is_pointer())
                {
                    Some((elem, dims)) => ParamTy::Array {
                        elem,
                        is_const: base.is_const,
                        inner: dims[1..].iter().flatten().copied().collect(),
                    },
                    // An array of structures, unions or pointers: the pointer to its first
                    // element that C makes of every array parameter (C99 6.7.5.3p7), so
                    // `a[i].x` and `a[i]->x` are checked against the caller's object
                    // through the pointer (and the elements keep their pointed-to types).
                    None => {
                        let elem_pointer = declarators::innermost(&full).is_pointer();
                        let ty = full.decayed(base.is_const && !elem_pointer);
                        let spelled = self.link.records.display(&ty).to_string();
                        ParamTy::Pointer { ty, spelled }
                    }
                },
                CType::Pointer { .. } | CType::Function(_) => {
                    let ty = full.decayed(false);
                    let spelled = self.link.records.display(&ty).to_string();
                    ParamTy::Pointer { ty, spelled }
                }
                CType::Record(_) | CType::LongDouble => {
                    if !self.link.records.is_complete(&full) {
                        self.err(
                            p.span,
                            format!("parameter has incomplete type `{}`", self.spell(&full)),
                        );
                        ok = false;
                        continue;
                    }
                    let spelled = self.spell(&full);
                    ParamTy::Record {
                        ty: full.clone(),
                        spelled,
                    }
                }
            };
            if need_names && p.name().is_none() {
                self.err(p.span, "parameter name omitted in a function definition");
                ok = false;
            }
            if let Some((n, span)) = p.name() {
                if !self.check_reserved(n, span, false) {
                    ok = false;
                }
                let earlier = params.iter().take_while(|q| !std::ptr::eq(*q, p));
                if earlier.filter_map(|q| q.name()).any(|(m, _)| m == n) {
                    self.err(span, format!("redefinition of parameter `{n}`"));
                    ok = false;
                }
            }
            out.push(ParamDecl {
                ty: pty,
                name: p.name().map(|(n, span)| (n.to_string(), span)),
                is_const: declarators::declared_const_param(&p.declarator, base.is_const),
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
        // Old C's `void main()` is accepted too; its exit status is 0 (see the compiler).
        let main_result = matches!(sig.ret, Some(ScalarType::Int) | None);
        if name == "main" && (!main_result || !is_main_params(&sig.params)) {
            self.main_reported = true;
            self.err(
                span,
                "`main` must be declared as `int main(void)` or `int main(int argc, char **argv)` (or, as old C, `void main`)",
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

    fn global_declaration(&mut self, d: &'m ast::Declaration) {
        if !d.declarators.is_empty() && d.declarators.iter().all(|id| self.deferrable(d, id)) {
            for (index, id) in d.declarators.iter().enumerate() {
                self.deferred.insert(id.declarator.name.clone(), (d, index));
            }
            return;
        }
        for id in &d.declarators {
            self.declare_deferred(&id.declarator.name);
        }
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
                self.function_declaration(&base, d.specs.storage, id);
            } else {
                self.global_variable(&base, d.specs.storage, decl, id.init.as_deref());
                self.align_variable(&d.specs, id);
            }
        }
    }

    /// A function declaration (a prototype, not a definition): at file scope, or in a block
    /// (where C makes it visible to the block only; here it declares the file-scope function,
    /// which is what it names anyway).
    fn function_declaration(
        &mut self,
        base: &declarators::Resolved,
        storage: Option<(StorageClass, Span)>,
        id: &ast::InitDeclarator,
    ) {
        let decl = &id.declarator;
        self.declare_deferred(&decl.name);
        let Some((params, empty_parens)) = decl.function() else {
            return;
        };
        // A prototype of a library function (`int printf(const char *restrict, ...);`, as
        // programs without the header write): the library's own signature applies.
        // (The prelude's own prototypes of what it defines in C stay ordinary declarations.)
        let defined_by_prelude = self.ctx.library
            && crate::builtins::memory::MemFn::lookup(&decl.name)
                .is_some_and(crate::builtins::memory::MemFn::is_written_in_c);
        if library_header(&decl.name).is_some() && !defined_by_prelude {
            self.declared_library.insert(decl.name.clone());
            return;
        }
        if decl
            .variadic()
            .is_some_and(|at| self.map.in_standard_header(at.start))
        {
            // A standard header's variadic function the VM does not implement yet
            // (`fprintf`, `scanf`): left undeclared, so a call names it as unsupported.
            return;
        }
        if let Some(init) = &id.init {
            self.err(
                init.span(),
                format!("function `{}` is initialized like a variable", decl.name),
            );
        }
        let Some(ret) = self.result_type(base, decl) else {
            return;
        };
        // `int f();` takes the parameters of f's definition in this unit.
        let defined = if empty_parens {
            self.defined_params.get(&decl.name).cloned()
        } else {
            None
        };
        let variadic = match &defined {
            Some((_, variadic)) => *variadic,
            None => decl.variadic().is_some(),
        };
        let params = defined.as_ref().map_or(params, |(p, _)| p.as_slice());
        // Parameter names of a prototype are in a scope of their own: check them outside
        // the function being checked.
        let fs = self.fs.take();
        let params = self.params(params, false);
        self.fs = fs;
        let Some(params) = params else {
            return;
        };
        let sig = Signature {
            ret: ret.0.scalar(),
            ret_ty: ret,
            params: params.into_iter().map(|p| p.ty).collect(),
            variadic,
        };
        self.declare_function(&decl.name, decl.name_span, sig, false, storage);
    }

    fn global_variable(
        &mut self,
        base: &declarators::Resolved,
        storage: Option<(StorageClass, Span)>,
        decl: &ast::Declarator,
        init: Option<&Initializer>,
    ) {
        let name = &decl.name;
        let is_extern = matches!(storage, Some((StorageClass::Extern, _)));
        let size_elsewhere = is_extern && init.is_none();
        let Some((cty, mut shape)) = self.object_shape(base, decl, init, size_elsewhere) else {
            return;
        };
        // `extern int a[];`: an array whose size its definition gives (in this file or
        // another). Until then it has one element here; its uses go through its address, so
        // they are checked against the object the definition makes.
        let incomplete = size_elsewhere && matches!(cty, CType::Array { len: None, .. });
        if let declarators::Shape::Scalar { dims, .. } = &mut shape {
            if incomplete {
                dims[0] = Some(1);
            }
        }
        if !self.check_reserved(name, decl.name_span, true) {
            return;
        }
        if self.file_names.contains_key(name) && !self.free_at_file_scope(name, decl.name_span) {
            return;
        }
        let is_const = Checker::declared_const(decl, base.is_const);
        let (is_static, is_extern) = match storage {
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
        let Some((ty, values)) = self.static_storage(&cty, shape, init, name) else {
            return;
        };
        let cty = if incomplete {
            cty
        } else {
            declarators::with_dims(&cty, &ty, &self.link.records)
        };
        let written = |ty: &Type, is_const: bool| {
            let spelled = if incomplete {
                incomplete_spelling(ty)
            } else {
                ty.to_string()
            };
            if is_const {
                format!("const {spelled}")
            } else {
                spelled
            }
        };
        // A declaration that completes (or repeats without its size) an earlier one.
        let known = prev.as_ref().map(|g| g.id).or_else(|| {
            (!is_static)
                .then(|| self.link.external_global(name))
                .flatten()
        });
        if let Some(id) = known {
            let info = &self.link.global_info[id.index()];
            let earlier_incomplete = matches!(info.cty, CType::Array { len: None, .. });
            if (incomplete || earlier_incomplete)
                && info.is_const == is_const
                && same_but_first_dimension(&info.ty, &ty)
            {
                if earlier_incomplete && !incomplete {
                    self.link.complete_global(id, ty.clone(), cty.clone());
                }
                if incomplete {
                    // Keep what is known: the earlier declaration's type.
                    return self.declare_known_global(name, id, prev.as_ref(), decl, is_const);
                }
            }
        }
        if let Some(g) = &prev {
            let info = &self.link.global_info[g.id.index()];
            if info.ty != ty || info.is_const != is_const || info.cty != cty {
                let old = written(&info.ty, info.is_const);
                let note = format!("previously declared at {} as `{old}`", self.at(g.span));
                let new = written(&ty, is_const);
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
                            fields: Vec::new(),
                            align: 1,
                            span: decl.span,
                        };
                        let info = VarInfo {
                            ty: ty.clone(),
                            cty: cty.clone(),
                            is_const,
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
            let ty = written(&ty, is_const);
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

    /// `extern T a[];` of an array this file or an earlier one already declared (`id`): the
    /// name joins the file scope with what is known of it, and the linker checks the
    /// declaration against the others.
    fn declare_known_global(
        &mut self,
        name: &str,
        id: GlobalId,
        prev: Option<&GlobalSym>,
        decl: &ast::Declarator,
        is_const: bool,
    ) {
        if prev.is_none() {
            self.file_scope.insert(
                name.to_string(),
                FileSym::Global(GlobalSym {
                    id,
                    external: true,
                    defined: false,
                    span: decl.span,
                }),
            );
        }
        let info = &self.link.global_info[id.index()];
        let spelled = incomplete_spelling(&info.ty);
        let ty = if is_const {
            format!("const {spelled}")
        } else {
            spelled
        };
        let place = self.place(decl.name_span);
        if let Err(d) = self
            .link
            .declare(name, false, &ty, false, decl.name_span, place)
        {
            self.error(d);
        }
    }

    /// The type and initial values of an object with static storage (a global or a `static`
    /// local): its initializer must be constant. The values are `None` if an initializer was
    /// wrong (reported), so the object is still declared.
    fn static_storage(
        &mut self,
        cty: &CType,
        shape: declarators::Shape,
        init: Option<&Initializer>,
        name: &str,
    ) -> Option<(Type, Option<StaticInit>)> {
        let (elem, dims) = match shape {
            declarators::Shape::Scalar { elem, dims } => (elem, dims),
            declarators::Shape::Object { size, align } => {
                let Some(init) = init else {
                    return Some((Type::Object { size, align }, Some(StaticInit::default())));
                };
                if *cty == CType::LongDouble {
                    let fields = self.long_double_static(init, 0);
                    let init = fields.map(|fields| StaticInit {
                        values: Vec::new(),
                        fields,
                    });
                    return Some((Type::Object { size, align }, init));
                }
                let Some((leaves, count)) = self.object_initializer(init, cty, name) else {
                    return Some((Type::Object { size, align }, None));
                };
                let (size, align) = self.sized_object(cty, count, size, align);
                let mut fields = Vec::new();
                let mut ok = true;
                for leaf in leaves {
                    if let (CType::LongDouble, object_init::LeafValue::Expr(e)) =
                        (&leaf.ty, &leaf.value)
                    {
                        let init = Initializer::Expr((*e).clone());
                        match self.long_double_static(&init, leaf.offset) {
                            Some(more) => fields.extend(more),
                            None => ok = false,
                        }
                        continue;
                    }
                    match self
                        .leaf_value(&leaf)
                        .and_then(|(e, t)| Some((self.constant(&e, t)?, t)))
                    {
                        Some((value, ty)) => fields.push(hir::FieldInit {
                            offset: leaf.offset,
                            ty,
                            bits: leaf.bits.map(|b| (b.bit_offset, b.width)),
                            value,
                        }),
                        None => ok = false,
                    }
                }
                let init = ok.then_some(StaticInit {
                    values: Vec::new(),
                    fields,
                });
                return Some((Type::Object { size, align }, init));
            }
        };
        let elem_cty = declarators::innermost(cty).clone();
        let elem_cty = &elem_cty;
        let (ty, values) = if dims.is_empty() {
            let values = match init {
                None => Some(vec![zero(elem)]),
                Some(init) => self
                    .scalar_initializer(init, elem_cty)
                    .and_then(|e| self.constant(&e, elem))
                    .map(|v| vec![v]),
            };
            (Type::Scalar(elem), values)
        } else {
            let mut dims = dims;
            let entries = match init {
                None => Some(Vec::new()),
                Some(init) => self.array_initializer(init, &mut dims, elem_cty, name),
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
        let values = values.map(|values| StaticInit {
            values,
            fields: Vec::new(),
        });
        Some((ty, values))
    }

    /// The constant value of a global's initializer element (already converted to `elem`).
    fn constant(&mut self, e: &hir::Expr, elem: ScalarType) -> Option<ConstValue> {
        if elem == ScalarType::Ptr {
            if let Some(address) = self.address_constant(e) {
                return Some(address);
            }
        }
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

    /// The address constant `e` denotes (C99 6.6p9): the address of a global or of one of its
    /// elements, a string literal, a function, plus or minus constant steps; `None` if `e` is
    /// not one.
    fn address_constant(&self, e: &hir::Expr) -> Option<ConstValue> {
        use hir::{AddressBase, ArrayBase, ExprKind as E};
        let global_offset = |g: GlobalId, indices: &[hir::Expr]| -> Option<i64> {
            let ty = &self.link.globals[g.index()].ty;
            let (elem, dims) = match ty {
                Type::Array { elem, dims } => (*elem, dims),
                _ => return None,
            };
            let mut offset = 0i64;
            let mut stride: i64 = dims.iter().map(|&d| i64::from(d)).product();
            for (k, index) in indices.iter().enumerate() {
                stride /= i64::from(dims[k]);
                let Ok(Const::Int(i)) = types::eval(index) else {
                    return None;
                };
                offset += i * stride;
            }
            Some(offset * i64::from(elem.bits() / 8))
        };
        match &e.kind {
            E::ObjectAddr(ArrayBase::Global(g)) => Some(ConstValue::Address {
                base: AddressBase::Global(*g),
                offset: 0,
            }),
            E::ElementAddr {
                array: ArrayBase::Global(g),
                indices,
            } => Some(ConstValue::Address {
                base: AddressBase::Global(*g),
                offset: global_offset(*g, indices)?,
            }),
            E::FuncAddr(f) => Some(ConstValue::Address {
                base: AddressBase::Function(*f),
                offset: 0,
            }),
            E::StringLit(bytes) if e.ty.is_some() => Some(ConstValue::Address {
                base: AddressBase::String(bytes.clone()),
                offset: 0,
            }),
            E::PtrAdd { ptr, index, scale } => {
                let ConstValue::Address { base, offset } = self.address_constant(ptr)? else {
                    return None;
                };
                let Ok(Const::Int(i)) = types::eval(index) else {
                    return None;
                };
                Some(ConstValue::Address {
                    base,
                    offset: offset + i * scale,
                })
            }
            E::Convert {
                expr,
                to: ScalarType::Ptr,
            } => self.address_constant(expr),
            _ => None,
        }
    }

    /// The value of an initializer's leaf, converted to the leaf's type, and the type it has
    /// in memory.
    fn leaf_value(&mut self, leaf: &object_init::Leaf<'_>) -> Option<(hir::Expr, ScalarType)> {
        if let object_init::LeafValue::Object(e) = leaf.value {
            self.err(
                e.span,
                "initializer element is not a constant (a structure initialized by a structure value)",
            );
            return None;
        }
        let t = leaf.ty.scalar()?;
        let e = match leaf.value {
            object_init::LeafValue::Object(_) => return None,
            object_init::LeafValue::Expr(e) => {
                let (v, vty) = self.typed_scalar(e)?;
                self.assign_convert(v, &vty, &leaf.ty, e.span, "initialization")?
            }
            object_init::LeafValue::Byte(b, span) => types::convert(
                types::mk(hir::ExprKind::IntConst(i64::from(b)), ScalarType::Int, span),
                t,
            ),
        };
        Some((e, t))
    }

    /// The type, size and alignment of an object whose outermost array of unknown size its
    /// initializer gave `count` elements.
    fn sized_object(&self, cty: &CType, count: u64, size: u64, align: u64) -> (u64, u64) {
        match cty {
            CType::Array { elem, len: None } => {
                let elem_size = self.link.records.size_of(elem).unwrap_or(0);
                (elem_size * count.max(1), align)
            }
            _ => (size, align),
        }
    }

    fn function_definition(&mut self, f: &ast::FunctionDef) {
        self.declare_deferred(&f.declarator.name);
        let decl = &f.declarator;
        let Some((params, _)) = decl.function() else {
            return;
        };
        let variadic = decl.variadic().is_some();
        let Some(base) = self.specs_type(&f.specs) else {
            return;
        };
        let Some(ret_ty) = self.result_type(&base, decl) else {
            return;
        };
        let Some(mut params) = self.params(params, true) else {
            return;
        };
        if decl.name == "main" {
            main_arguments(&mut params);
        }
        let ret = ret_ty.0.scalar();
        let sig = Signature {
            ret,
            ret_ty: ret_ty.clone(),
            params: params.iter().map(|p| p.ty.clone()).collect(),
            variadic,
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
            ret_ty: ret_ty.0.clone(),
            name: decl.name.clone(),
            loops: 0,
            switches: Vec::new(),
            labels: goto::Labels::default(),
            addressed: std::collections::HashSet::new(),
            result: None,
            va_area: None,
        });
        let names = addressed::scan_names(&f.body);
        if let Some(fs) = self.fs.as_mut() {
            fs.addressed = names.addressed;
        }
        let mut param_ids = Vec::new();
        let mut prologue = Vec::new();
        let mut to_box = Vec::new();
        let mut to_pointers = Vec::new();
        // A function returning a structure gets the address to store it at as a hidden first
        // parameter (as the System V ABI does).
        if let (CType::Record(_) | CType::LongDouble, Some(fs)) = (&ret_ty.0, self.fs.as_mut()) {
            let id = LocalId::new(fs.locals.len());
            let ptr = CType::pointer_to(ret_ty.0.clone(), false);
            fs.locals.push(hir::Local {
                name: "<result>".to_string(),
                ty: Type::Scalar(ScalarType::Ptr),
                align: 1,
                span: decl.name_span,
            });
            fs.local_info.push(VarInfo {
                ty: Type::Scalar(ScalarType::Ptr),
                cty: ptr,
                is_const: false,
            });
            fs.result = Some(id);
            param_ids.push(id);
        }
        for ParamDecl { ty, name, is_const } in params {
            let Some((name, span)) = name else { continue };
            let (ty, cty) = match ty {
                ParamTy::Scalar(t) => (Type::Scalar(t), CType::Scalar(t)),
                ParamTy::Array {
                    elem,
                    inner,
                    is_const,
                } => {
                    let cty = CType::Pointer {
                        to: std::sync::Arc::new(declarators::array_of(CType::Scalar(elem), &inner)),
                        to_const: is_const,
                    };
                    (Type::ArrayRef { elem, inner }, cty)
                }
                ParamTy::Pointer { ty, .. } => (Type::Scalar(ScalarType::Ptr), ty),
                // The address of the caller's copy: the name denotes the structure there.
                ParamTy::Record { ty, .. } => (Type::Scalar(ScalarType::Ptr), ty),
            };
            let boxed =
                matches!(ty, Type::Scalar(_)) && cty.is_scalar() && self.is_addressed(&name);
            let to_pointer = matches!(ty, Type::ArrayRef { .. }) && names.modified.contains(&name);
            if let Some(local) = self.declare_local(&name, span, ty, cty.clone(), is_const) {
                param_ids.push(local);
                if boxed {
                    to_box.push((local, name, span, cty, is_const));
                } else if to_pointer {
                    to_pointers.push((local, name, span, cty));
                }
            }
        }
        // A variadic function's hidden last parameter: the address of its further arguments.
        if variadic {
            let char_ptr = CType::pointer_to(CType::Scalar(ScalarType::Char), false);
            let area = Type::Scalar(ScalarType::Ptr);
            if let Some(id) = self.new_local("<va_area>", area, char_ptr, decl.name_span) {
                param_ids.push(id);
                if let Some(fs) = self.fs.as_mut() {
                    fs.va_area = Some(id);
                }
            }
        }
        // Array parameters the body assigns or steps (`a++`, `a = b`): pointer variables,
        // converted from the array references on entry; the name means the pointer.
        for (local, name, span, cty) in to_pointers {
            prologue.extend(self.pointer_parameter(local, &name, span, cty));
        }
        // `main(argc, argv)`: the program has no command-line arguments; its name is `a.out`.
        if decl.name == "main" && param_ids.len() == 2 {
            prologue.extend(self.main_prologue(param_ids[0], param_ids[1], decl.name_span));
        }
        // Parameters whose address is taken: copied into memory on entry, and the name means
        // the copy. The copies are declared after every parameter (the parameters are the
        // first locals, in order).
        for (local, name, span, cty, is_const) in to_box {
            prologue.extend(self.box_parameter(local, &name, span, cty, is_const));
        }
        let mut stmts = prologue;
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
        cty: CType,
        is_const: bool,
    ) -> Option<LocalId> {
        if !self.check_reserved(name, span, false) {
            return None;
        }
        if !self.free_in_block_scope(name, span) {
            return None;
        }
        let ty = long_double::in_frame(ty, &cty, &self.link.records);
        let fs = self.fs.as_mut()?;
        let scope = fs.scopes.last_mut()?;
        let id = LocalId::new(fs.locals.len());
        scope.insert(name.to_string(), Scoped::Local(id));
        fs.locals.push(hir::Local {
            name: name.to_string(),
            ty: ty.clone(),
            align: 1,
            span,
        });
        fs.local_info.push(VarInfo { ty, cty, is_const });
        Some(id)
    }

    /// True if the function being checked takes the address of a variable called `name`.
    fn is_addressed(&self, name: &str) -> bool {
        self.fs
            .as_ref()
            .is_some_and(|fs| fs.addressed.contains(name))
    }

    /// The storage of a scalar local: a register, or a one-element array in memory if its
    /// address is taken.
    fn scalar_storage(&self, name: &str, t: ScalarType) -> Type {
        if self.is_addressed(name) {
            Type::Array {
                elem: t,
                dims: vec![1],
            }
        } else {
            Type::Scalar(t)
        }
    }

    /// The statement copying the parameter `param` into a new memory local of the same name
    /// (which the name then means), for a parameter whose address is taken.
    fn box_parameter(
        &mut self,
        param: LocalId,
        name: &str,
        span: Span,
        cty: CType,
        is_const: bool,
    ) -> Option<hir::Stmt> {
        let t = cty.scalar()?;
        let fs = self.fs.as_mut()?;
        let id = LocalId::new(fs.locals.len());
        let ty = Type::Array {
            elem: t,
            dims: vec![1],
        };
        fs.locals.push(hir::Local {
            name: name.to_string(),
            ty: ty.clone(),
            align: 1,
            span,
        });
        fs.local_info.push(VarInfo { ty, cty, is_const });
        fs.scopes
            .last_mut()?
            .insert(name.to_string(), Scoped::Local(id));
        let value = types::mk(hir::ExprKind::Load(hir::Place::Local(param)), t, span);
        Some(hir::Stmt {
            kind: hir::StmtKind::Decl {
                local: id,
                init: Some(hir::Init::Array(vec![(0, value)])),
            },
            span,
        })
    }

    /// Declares `int name();` at file scope, as a call of an undeclared function did in C89.
    pub(super) fn implicit_declaration(&mut self, name: &str, span: Span) {
        let id = ast::InitDeclarator {
            declarator: ast::Declarator {
                name: name.to_string(),
                name_span: span,
                derived: vec![ast::Derived::Function {
                    params: Vec::new(),
                    empty_parens: true,
                    old_style: false,
                    variadic: None,
                    span,
                }],
                span,
            },
            init: None,
            attrs: Vec::new(),
            span,
        };
        let base = declarators::Resolved {
            ty: CType::INT,
            is_const: false,
        };
        let fs = self.fs.take();
        self.function_declaration(&base, None, &id);
        self.fs = fs;
    }

    /// The statements that give `main`'s parameters their values: `argc = 1` and `argv` the
    /// address of a hidden static `{"a.out", NULL}`.
    fn main_prologue(&mut self, argc: LocalId, argv: LocalId, span: Span) -> Vec<hir::Stmt> {
        let ty = Type::Array {
            elem: ScalarType::Ptr,
            dims: vec![2],
        };
        let global = self.link.new_global(
            hir::Global {
                name: "<argv>".to_string(),
                ty: ty.clone(),
                init: Vec::new(),
                fields: Vec::new(),
                align: 1,
                span,
            },
            VarInfo {
                ty,
                cty: CType::Array {
                    elem: std::sync::Arc::new(CType::pointer_to(
                        CType::Scalar(ScalarType::Char),
                        false,
                    )),
                    len: Some(2),
                },
                is_const: false,
            },
        );
        let init = StaticInit {
            values: vec![
                hir::ConstValue::Address {
                    base: hir::AddressBase::String(b"a.out\0".to_vec()),
                    offset: 0,
                },
                hir::ConstValue::Int(0),
            ],
            fields: Vec::new(),
        };
        self.link.define_global(global, init, span);
        let assign = |place: LocalId, value: hir::Expr| hir::Stmt {
            kind: hir::StmtKind::Expr(hir::Expr {
                ty: value.ty,
                kind: hir::ExprKind::Assign {
                    place: hir::Place::Local(place),
                    value: Box::new(value),
                },
                span,
            }),
            span,
        };
        vec![
            assign(
                argc,
                types::mk(hir::ExprKind::IntConst(1), ScalarType::Int, span),
            ),
            assign(
                argv,
                types::mk(
                    hir::ExprKind::ObjectAddr(hir::ArrayBase::Global(global)),
                    ScalarType::Ptr,
                    span,
                ),
            ),
        ]
    }

    /// The pointer variable an array parameter `param` is in a body that assigns it: declared
    /// with the parameter's name and pointer type `cty`, initialized with the pointer to the
    /// array's first element.
    fn pointer_parameter(
        &mut self,
        param: LocalId,
        name: &str,
        span: Span,
        cty: CType,
    ) -> Option<hir::Stmt> {
        let id = self.new_local(name, Type::Scalar(ScalarType::Ptr), cty, span)?;
        self.fs
            .as_mut()?
            .scopes
            .last_mut()?
            .insert(name.to_string(), Scoped::Local(id));
        let value = types::mk(
            hir::ExprKind::ObjectAddr(hir::ArrayBase::Local(param)),
            ScalarType::Ptr,
            span,
        );
        Some(hir::Stmt {
            kind: hir::StmtKind::Decl {
                local: id,
                init: Some(hir::Init::Scalar(value)),
            },
            span,
        })
    }

    /// A local the checker introduces (a structure argument's copy, a call's structure
    /// result): not in any scope.
    fn hidden_local(&mut self, ty: Type, cty: CType, span: Span) -> Option<LocalId> {
        self.new_local("<temporary>", ty, cty, span)
    }

    /// A new local of the function being checked, in no scope.
    fn new_local(&mut self, name: &str, ty: Type, cty: CType, span: Span) -> Option<LocalId> {
        let ty = long_double::in_frame(ty, &cty, &self.link.records);
        let fs = self.fs.as_mut()?;
        let id = LocalId::new(fs.locals.len());
        fs.locals.push(hir::Local {
            name: name.to_string(),
            ty: ty.clone(),
            align: 1,
            span,
        });
        fs.local_info.push(VarInfo {
            ty,
            cty,
            is_const: false,
        });
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

/// How an array declared without its size (`extern int a[][4];`) is spelled in the
/// linker's type checks: its provisional type with the first dimension left empty.
fn incomplete_spelling(ty: &Type) -> String {
    match ty {
        Type::Array { elem, dims } => {
            let inner: String = dims[1..].iter().map(|d| format!("[{d}]")).collect();
            format!("{elem}[]{inner}")
        }
        other => other.to_string(),
    }
}

/// Whether two array types differ at most in their first dimension (`int[][4]` and
/// `int[3][4]`: one declaration of the array without its size, one with).
fn same_but_first_dimension(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Array { elem: x, dims: m }, Type::Array { elem: y, dims: n }) => {
            x == y && m.len() == n.len() && m[1..] == n[1..]
        }
        _ => false,
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
    if e.ty
        .is_some_and(|t| t.is_floating() || t == ScalarType::Ptr)
    {
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

/// Whether `params` are those `main` may have: none, or `int argc, char **argv`.
fn is_main_params(params: &[ParamTy]) -> bool {
    let char_pointer = CType::pointer_to(CType::Scalar(ScalarType::Char), false);
    match params {
        [] => true,
        [ParamTy::Scalar(ScalarType::Int), ParamTy::Pointer { ty, .. }] => {
            matches!(ty, CType::Pointer { to, .. } if **to == char_pointer)
        }
        _ => false,
    }
}

/// `char *argv[]` as `main`'s parameter is `char **argv` (an array parameter of pointers
/// would be an array reference, which the VM's start does not make).
fn main_arguments(params: &mut [ParamDecl]) {
    if let [_, argv] = params {
        if let ParamTy::Array {
            elem: ScalarType::Ptr,
            inner,
            is_const,
        } = &argv.ty
        {
            if inner.is_empty() {
                let char_pointer = CType::pointer_to(CType::Scalar(ScalarType::Char), false);
                let ty = CType::pointer_to(char_pointer, *is_const);
                argv.ty = ParamTy::Pointer {
                    spelled: "char **".to_string(),
                    ty,
                };
            }
        }
    }
}

/// The header that declares the library function `name`, if it is one (whose signature the
/// library gives).
pub(super) fn library_header(name: &str) -> Option<&'static str> {
    match name {
        "printf" | "puts" | "sprintf" | "snprintf" => Some("stdio.h"),
        _ => crate::builtins::Builtin::lookup(name)
            .map(crate::builtins::Builtin::header)
            .or_else(|| {
                crate::builtins::memory::MemFn::lookup(name)
                    .map(crate::builtins::memory::MemFn::header)
            }),
    }
}
