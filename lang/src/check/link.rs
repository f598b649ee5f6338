//! Linking: the program-wide state shared by the checks of a program's translation units.
//!
//! Each `.c` file is checked on its own (own preprocessing, own file scope), in command-line
//! order, against one [`Linker`]. The linker numbers the program's functions and globals:
//! a name with internal linkage (`static`) gets its own id in each file, a name with external
//! linkage (a function without `static`, a file-scope variable without `static`) one id for
//! the whole program, so a call or a use in one file names the definition in another directly
//! and no renumbering is needed afterwards. The linker also checks what a C linker checks
//! (one definition per external name, a definition for every external name used, one `main`)
//! and, unlike a C linker, that every declaration of an external name in every file has the
//! same type. [`Linker::finish`] reports what can only be known once every file is checked.

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::hir::{self, FuncId, GlobalId};
use crate::span::Span;

use super::VarInfo;
use crate::ctype::{CType, Records};

/// A place in the program's original files: the file (an index into the program's file
/// table: the files of every translation unit, in order), the span in its original text, and
/// its `file:line:col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Index into the program's file table.
    pub file: u32,
    /// Range in the file's original text.
    pub span: Span,
    /// `file:line:col` of its start.
    pub text: String,
    /// The translation unit it is in.
    pub unit: u32,
}

/// What an external name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Function,
    Variable,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Variable => "variable",
        }
    }
}

/// What is known about a name with external linkage.
#[derive(Clone, Debug)]
struct External {
    kind: Kind,
    /// Its type, as written in diagnostics.
    ty: String,
    /// Its first declaration.
    declared: Place,
    /// Its definition.
    defined: Option<Place>,
}

/// The program-wide state of a check: see the module doc.
#[derive(Debug, Default)]
pub struct Linker {
    /// Every global variable, by program id (a declared but not yet defined one has no
    /// initial values).
    pub(super) globals: Vec<hir::Global>,
    /// Type and qualifier of each global, by program id.
    pub(super) global_info: Vec<VarInfo>,
    /// Whether each global has been defined.
    global_defined: Vec<bool>,
    /// Every function, by program id: `None` until its definition has been checked.
    pub(super) functions: Vec<Option<hir::Function>>,
    /// The translation unit of each function (where it is defined, once it is).
    func_unit: Vec<u32>,
    /// Ids of the external functions and globals.
    ext_funcs: HashMap<String, FuncId>,
    ext_globals: HashMap<String, GlobalId>,
    /// Declarations of the external names.
    externals: HashMap<String, External>,
    /// First use of each external name that is not defined in the file using it.
    first_use: HashMap<String, Place>,
    /// Definitions of `static` functions and variables (for a hint when another file uses
    /// the name).
    internal: Vec<(String, Place)>,
    /// Every structure and union of the program's files.
    pub(super) records: Records,
}

/// A linked program: the checked program and the translation unit of each function.
#[derive(Clone, Debug)]
pub struct Linked {
    /// The program.
    pub program: hir::Program,
    /// The translation unit (index in command-line order) of each function, by id.
    pub func_unit: Vec<u32>,
}

impl Linker {
    /// An empty program.
    pub fn new() -> Linker {
        Linker::default()
    }

    /// A new function id (its body is checked in translation unit `unit`).
    pub(super) fn new_function(&mut self, unit: u32) -> FuncId {
        let id = FuncId::new(self.functions.len());
        self.functions.push(None);
        self.func_unit.push(unit);
        id
    }

    /// The id of the external function `name` (a new one at its first mention).
    pub(super) fn external_function(&mut self, name: &str, unit: u32) -> FuncId {
        if let Some(&id) = self.ext_funcs.get(name) {
            return id;
        }
        let id = self.new_function(unit);
        self.ext_funcs.insert(name.to_string(), id);
        id
    }

    /// The external names some unit used and no unit defines (library functions written in
    /// C, to link in; a program may define its own `isdigit`).
    pub fn needed_definitions(&self) -> impl Iterator<Item = &str> {
        self.first_use
            .keys()
            .filter(|name| {
                self.externals
                    .get(name.as_str())
                    .is_none_or(|ext| ext.defined.is_none())
            })
            .map(String::as_str)
    }

    /// Record the body of function `id`, checked in `unit`.
    pub(super) fn define_function(&mut self, id: FuncId, unit: u32, f: hir::Function) {
        self.functions[id.index()] = Some(f);
        self.func_unit[id.index()] = unit;
    }

    /// Give the global `id`, declared as an array without its size (`extern int a[];`), the
    /// type of its definition.
    pub(super) fn complete_global(&mut self, id: GlobalId, ty: hir::Type, cty: CType) {
        self.globals[id.index()].ty = ty.clone();
        let info = &mut self.global_info[id.index()];
        info.ty = ty;
        info.cty = cty;
    }

    /// A new global (declared, not defined yet).
    pub(super) fn new_global(&mut self, global: hir::Global, info: VarInfo) -> GlobalId {
        let id = GlobalId::new(self.globals.len());
        self.globals.push(global);
        self.global_info.push(info);
        self.global_defined.push(false);
        id
    }

    /// The id of the external global `name`, if some file declared it.
    pub(super) fn external_global(&self, name: &str) -> Option<GlobalId> {
        self.ext_globals.get(name).copied()
    }

    /// Make `id` the external global `name`.
    pub(super) fn set_external_global(&mut self, name: &str, id: GlobalId) {
        self.ext_globals.insert(name.to_string(), id);
    }

    /// Define global `id`: its initial values and the span of its definition.
    pub(super) fn define_global(&mut self, id: GlobalId, init: super::StaticInit, span: Span) {
        let g = &mut self.globals[id.index()];
        g.init = init.values;
        g.fields = init.fields;
        g.span = span;
        self.global_defined[id.index()] = true;
    }

    /// Remember the definition of a `static` name.
    pub(super) fn internal_definition(&mut self, name: &str, place: Place) {
        self.internal.push((name.to_string(), place));
    }

    /// Remember the first use of an external name not defined in the using file.
    pub(super) fn used(&mut self, name: &str, place: impl FnOnce() -> Place) {
        if !self.first_use.contains_key(name) {
            self.first_use.insert(name.to_string(), place());
        }
    }

    /// Declare (or define) the external name `name` of kind function (`function`) or
    /// variable, with type `ty`, at `place`. Errors when an earlier file declared it as the
    /// other kind or with another type, or defined it too. The caller has already checked
    /// the declaration against the earlier ones of its own file.
    pub(super) fn declare(
        &mut self,
        name: &str,
        function: bool,
        ty: &str,
        definition: bool,
        span: Span,
        place: Place,
    ) -> Result<(), Diagnostic> {
        let kind = if function {
            Kind::Function
        } else {
            Kind::Variable
        };
        let Some(ext) = self.externals.get_mut(name) else {
            self.externals.insert(
                name.to_string(),
                External {
                    kind,
                    ty: ty.to_string(),
                    defined: definition.then(|| place.clone()),
                    declared: place,
                },
            );
            return Ok(());
        };
        if ext.kind != kind {
            return Err(Diagnostic::error(
                span,
                format!("`{name}` redeclared as a different kind of symbol"),
            )
            .with_related(
                ext.declared.file,
                ext.declared.span,
                format!("previously declared as a {} here", ext.kind.name()),
            ));
        }
        // `int[]` (declared without its size) and `int[3]` are the same array.
        let sized_elsewhere = |a: &str, b: &str| {
            a.split_once("[]").is_some_and(|(elem, inner)| {
                b.strip_prefix(elem)
                    .and_then(|rest| rest.strip_prefix('['))
                    .and_then(|rest| rest.split_once(']'))
                    .is_some_and(|(n, rest)| n.bytes().all(|c| c.is_ascii_digit()) && rest == inner)
            })
        };
        if sized_elsewhere(&ext.ty, ty) {
            ext.ty = ty.to_string();
        }
        if ext.ty != ty && !sized_elsewhere(ty, &ext.ty) {
            return Err(Diagnostic::error(
                span,
                format!(
                    "conflicting types for `{name}`: `{ty}` here, `{}` in another file",
                    ext.ty
                ),
            )
            .with_related(
                ext.declared.file,
                ext.declared.span,
                format!("previously declared here as `{}`", ext.ty),
            )
            .with_note(
                "every declaration of a name with external linkage must have the same type \
                 (a C linker would not notice; this language checks)",
            ));
        }
        if definition {
            if let Some(prev) = &ext.defined {
                if prev.unit != place.unit {
                    return Err(Diagnostic::error(span, format!("redefinition of `{name}`"))
                        .with_related(prev.file, prev.span, "previous definition is here"));
                }
            }
            ext.defined = Some(place);
        }
        Ok(())
    }

    /// The end of linking, once every translation unit has been checked without errors:
    /// every external name used is defined somewhere, and `main` is (unless `needs_main` is
    /// false: a single file's check reports a missing `main` itself). Returns the program,
    /// or the errors (in original positions, files indexed into the program's file table).
    pub fn finish(mut self, needs_main: bool, end: Place) -> Result<Linked, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut used: Vec<(&String, &Place)> = self.first_use.iter().collect();
        used.sort_by_key(|(_, p)| (p.file, p.span.start));
        for (name, place) in used {
            let Some(ext) = self.externals.get(name) else {
                continue;
            };
            if ext.defined.is_some() {
                continue;
            }
            let mut d = Diagnostic::error(place.span, format!("undefined reference to `{name}`"))
                .with_label(format!(
                    "no file of the program defines the {} `{name}`",
                    ext.kind.name()
                ))
                .with_related(ext.declared.file, ext.declared.span, "declared here");
            d.file = place.file;
            for (other, at) in &self.internal {
                if other == name {
                    d = d.with_related(
                        at.file,
                        at.span,
                        format!("a `static` `{name}` is defined here, private to its file"),
                    );
                }
            }
            errors.push(d);
        }
        let main = self
            .ext_funcs
            .get("main")
            .copied()
            .filter(|id| self.functions[id.index()].is_some());
        if main.is_none() && needs_main {
            let mut d = Diagnostic::error(
                end.span,
                "the program has no `main` function (expected `int main(void) { ... }` in one of its files)",
            );
            d.file = end.file;
            errors.push(d);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        // External globals declared but neither defined nor used: zero storage nobody reads
        // (an empty initializer list: see `hir::Global::init`).
        for (g, defined) in self.globals.iter_mut().zip(&self.global_defined) {
            if !defined {
                g.init.clear();
            }
        }
        let functions: Option<Vec<hir::Function>> = self.functions.into_iter().collect();
        match (functions, main) {
            (Some(functions), Some(main)) => Ok(Linked {
                program: hir::Program {
                    globals: self.globals,
                    functions,
                    main,
                },
                func_unit: self.func_unit,
            }),
            _ => Err(vec![Diagnostic::error(
                Span::default(),
                "internal error: a function was not checked",
            )]),
        }
    }
}
