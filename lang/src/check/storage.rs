//! Storage classes inside functions (C99 6.2.4, 6.7.1): `static` locals, block-scope `extern`,
//! and declarations that declare nothing.
//!
//! A `static` local has static storage duration, as a global has: it is initialized once,
//! before the program starts, by a constant initializer (zero without one), and keeps its
//! value between calls. It is compiled as a global named `function.name` that only its scope
//! can see. A block-scope `extern` declaration makes a file-scope variable visible in the
//! block (its type must match the variable's).

use crate::ast;
use crate::diag::Diagnostic;
use crate::hir;

use super::declarators::with_dims;
use super::names::Scoped;
use super::{Checker, FileSym, VarInfo};
use crate::ctype::CType;

impl Checker<'_> {
    /// `static T name = constant, ...;` inside a function.
    pub(super) fn static_locals(&mut self, d: &ast::Declaration) {
        let Some(base) = self.specs_type(&d.specs) else {
            return;
        };
        if d.declarators.is_empty() {
            self.declares_nothing(d);
            return;
        }
        let function = self
            .fs
            .as_ref()
            .map(|fs| fs.name.clone())
            .unwrap_or_default();
        for id in &d.declarators {
            let decl = &id.declarator;
            if decl.function().is_some() {
                self.err(
                    decl.span,
                    "a function declared `static` inside a function is not allowed in C",
                );
                continue;
            }
            let Some((cty, shape)) = self.object_shape(&base, decl, id.init.as_deref(), false)
            else {
                continue;
            };
            if !self.check_reserved(&decl.name, decl.name_span, false)
                || !self.free_in_block_scope(&decl.name, decl.name_span)
            {
                continue;
            }
            let Some((ty, values)) =
                self.static_storage(&cty, shape, id.init.as_deref(), &decl.name)
            else {
                continue;
            };
            let cty = with_dims(&cty, &ty, &self.link.records);
            let global = self.link.new_global(
                hir::Global {
                    name: format!("{function}.{}", decl.name),
                    ty: ty.clone(),
                    init: Vec::new(),
                    fields: Vec::new(),
                    align: 1,
                    span: decl.span,
                },
                VarInfo {
                    ty,
                    cty,
                    is_const: Checker::declared_const(decl, base.is_const),
                },
            );
            self.link
                .define_global(global, values.unwrap_or_default(), decl.span);
            if let Some(scope) = self.fs.as_mut().and_then(|fs| fs.scopes.last_mut()) {
                scope.insert(decl.name.clone(), Scoped::Static(global));
            }
            self.align_variable(&d.specs, id);
        }
    }

    /// `extern T name;` inside a function: the file-scope variable `name`, made visible here.
    pub(super) fn block_externs(&mut self, d: &ast::Declaration) {
        let Some(base) = self.specs_type(&d.specs) else {
            return;
        };
        for id in &d.declarators {
            let decl = &id.declarator;
            if let Some(init) = &id.init {
                self.err(
                    init.span(),
                    format!(
                        "`extern` variable `{}` has an initializer inside a function",
                        decl.name
                    ),
                );
                continue;
            }
            if decl.function().is_some() {
                self.function_declaration(&base, None, id);
                continue;
            }
            let Some(cty) = self.object_type(&base, decl, true) else {
                continue;
            };
            if !self.file_scope.contains_key(&decl.name) {
                // The first declaration of a file-scope variable (defined later in this file
                // or in another one): declared at file scope, as C's linkage rules make it.
                let fs = self.fs.take();
                self.global_variable(&base, d.specs.storage, decl, None);
                self.fs = fs;
            }
            let Some(FileSym::Global(global)) = self.file_scope.get(&decl.name).cloned() else {
                self.err(
                    decl.name_span,
                    format!(
                        "`extern` declaration of `{}` inside a function, which is not a variable at file scope",
                        decl.name
                    ),
                );
                continue;
            };
            let global = global.id;
            let declared = &self.link.global_info[global.index()].cty;
            // `extern int a[];` matches `int a[10]`: only the outermost size may be omitted.
            let matches = match (&cty, declared) {
                (
                    CType::Array {
                        elem: e1,
                        len: None,
                    },
                    CType::Array { elem: e2, .. },
                ) => e1 == e2,
                _ => cty == *declared,
            };
            if !matches {
                let note = format!(
                    "declared at {}",
                    self.at(self.link.globals[global.index()].span)
                );
                self.error(
                    Diagnostic::error(
                        decl.name_span,
                        format!("conflicting types for `{}`", decl.name),
                    )
                    .with_note(note),
                );
                continue;
            }
            if !self.free_in_block_scope(&decl.name, decl.name_span) {
                continue;
            }
            if let Some(scope) = self.fs.as_mut().and_then(|fs| fs.scopes.last_mut()) {
                scope.insert(decl.name.clone(), Scoped::Static(global));
            }
            self.align_variable(&d.specs, id);
        }
    }

    /// A declaration without declarators: fine for `enum E { ... };`, `struct s { ... };` and
    /// `struct s;` (its specifiers, already resolved, declared the type), an error otherwise.
    pub(super) fn declares_nothing(&mut self, d: &ast::Declaration) {
        let declares_type = matches!(
            d.specs.named.as_deref(),
            Some(ast::NamedType::Enum(e)) if e.body.is_some() || e.tag.is_some()
        ) || matches!(
            d.specs.named.as_deref(),
            Some(ast::NamedType::Record(r)) if r.members.is_some() || r.tag.is_some()
        );
        if !declares_type || d.specs.storage.is_some() {
            self.err(d.span, "declaration does not declare anything");
        }
    }
}
