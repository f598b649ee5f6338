//! Typedef names, enumerations, and the specifiers that name a type (C99 6.7.2.2, 6.7.7).
//!
//! A declaration's specifiers are resolved to a keyword type before anything else looks at
//! them ([`Checker::resolve_specs`]): a typedef name becomes the type it names (an array
//! typedef also contributes its dimensions, innermost, after the declarator's own), an `enum`
//! specifier becomes the enumeration's integer type, defining its constants on the way.
//!
//! Typedef names, enumerators and tags live in the same scopes as variables: the block scopes
//! of the function being checked, then the file scope's `file_names`. Tags have their own
//! namespace in C; they are stored in the same maps under the key `enum NAME`, which no
//! identifier can spell.
//!
//! An enumeration's type is what gcc gives it (the C standard leaves it to the compiler):
//! `unsigned int` when no constant is negative, else `int`; a `packed` one the smallest
//! that holds its constants (`attributes`). Its constants are `int`s, each
//! one more than the previous unless given a value by an integer constant expression that
//! must fit `int`.

use crate::ast::{self, EnumSpec};
use crate::diag::Diagnostic;
use crate::hir::{GlobalId, LocalId, ScalarType};

use crate::ctype::{CType, RecordId};
use crate::span::Span;

use super::types::{eval, Const};
use super::{is_integer_constant_expression, Checker, Sym};

/// A name in a block scope.
#[derive(Clone, Debug)]
pub(super) enum Scoped {
    /// A local variable or parameter.
    Local(LocalId),
    /// A `static` local: storage of its own, like a global's.
    Static(GlobalId),
    /// A typedef name, an enumerator or a tag.
    Named(Named),
}

/// A typedef name, an enumerator or an enum tag, with where it was declared.
#[derive(Clone, Debug)]
pub(super) enum Named {
    /// A typedef name: an index into the checker's typedefs.
    Typedef(usize, Span),
    /// An enumeration constant and its value.
    EnumConst(i64, Span),
    /// An enumeration tag and the enumeration's type.
    EnumTag(ScalarType, Span),
    /// A structure or union tag.
    Record(RecordId, Span),
}

impl Named {
    /// What an identifier naming this means in an expression.
    pub(super) fn sym(&self) -> Option<Sym> {
        match self {
            Named::Typedef(..) => Some(Sym::Type),
            Named::EnumConst(v, _) => Some(Sym::EnumConst(*v)),
            Named::EnumTag(..) | Named::Record(..) => None,
        }
    }

    /// Where it was declared.
    fn span(&self) -> Span {
        match self {
            Named::Typedef(_, span)
            | Named::EnumConst(_, span)
            | Named::EnumTag(_, span)
            | Named::Record(_, span) => *span,
        }
    }
}

/// What a typedef name stands for.
#[derive(Clone, Debug)]
pub(super) struct TypedefInfo {
    /// The type.
    pub(super) ty: CType,
    /// True if the typedef includes `const`.
    pub(super) is_const: bool,
}

/// The key under which the tag `name` is stored.
fn tag_key(name: &str) -> String {
    format!("enum {name}")
}

impl Checker<'_> {
    /// The typedef that `name` names here.
    pub(super) fn typedef_named(&mut self, name: &str, span: Span) -> Option<TypedefInfo> {
        match self.named(name) {
            Some(Named::Typedef(index, _)) => self.typedefs.get(index).cloned(),
            _ => {
                self.err(span, format!("`{name}` is not a type name here"));
                None
            }
        }
    }

    /// Declare the typedef names of `typedef SPECIFIERS declarators;`.
    pub(super) fn typedef_declaration(&mut self, d: &ast::Declaration) {
        let Some(base) = self.specs_type(&d.specs) else {
            return;
        };
        for id in &d.declarators {
            let decl = &id.declarator;
            // `typedef int T __attribute__((aligned(8)));` makes a type of another alignment,
            // which the types here cannot express (an `aligned` structure can be written
            // instead); a `packed` on a typedef name gcc ignores too.
            let aligned = d.specs.attrs.iter().chain(&id.attrs).find_map(|a| match a {
                ast::Attribute::Aligned(_, span) => Some(*span),
                ast::Attribute::Packed(_) => None,
            });
            if let Some(at) = aligned {
                self.err(
                    at,
                    format!(
                        "`aligned` on the typedef `{}` is not supported: give the alignment to a structure or a variable",
                        decl.name
                    ),
                );
                continue;
            }
            if let Some(init) = &id.init {
                self.err(
                    init.span(),
                    format!(
                        "typedef `{}` is initialized (a type has no value)",
                        decl.name
                    ),
                );
                continue;
            }
            let Some(ty) = self.object_type(&base, decl, false) else {
                continue;
            };
            if !self.check_reserved(&decl.name, decl.name_span, self.fs.is_none()) {
                continue;
            }
            let index = self.typedefs.len();
            self.typedefs.push(TypedefInfo {
                ty,
                is_const: base.is_const
                    && !matches!(decl.derived.last(), Some(ast::Derived::Pointer { .. })),
            });
            self.declare_named(&decl.name, Named::Typedef(index, decl.name_span));
        }
    }

    /// True if `name` is not yet declared in the current block scope (reporting it otherwise).
    pub(super) fn free_in_block_scope(&mut self, name: &str, span: Span) -> bool {
        let previous = match self.fs.as_ref().and_then(|fs| fs.scopes.last()) {
            Some(scope) => match scope.get(name) {
                Some(Scoped::Local(id)) => self.fs.as_ref().map(|fs| fs.locals[id.index()].span),
                Some(Scoped::Static(id)) => Some(self.link.globals[id.index()].span),
                Some(Scoped::Named(n)) => Some(n.span()),
                None => None,
            },
            None => None,
        };
        self.not_redeclared(name, span, previous)
    }

    /// True if `name` is not yet declared at file scope (reporting it otherwise).
    pub(super) fn free_at_file_scope(&mut self, name: &str, span: Span) -> bool {
        let previous = match (self.file_names.get(name), self.file_scope.get(name)) {
            (Some(n), _) => Some(n.span()),
            (None, Some(super::FileSym::Global(g))) => Some(g.span),
            (None, Some(super::FileSym::Func(f))) => Some(f.span),
            (None, None) => None,
        };
        self.not_redeclared(name, span, previous)
    }

    /// True if there is no `previous` declaration; else reports the redeclaration at `span`.
    fn not_redeclared(&mut self, name: &str, span: Span, previous: Option<Span>) -> bool {
        let Some(prev) = previous else { return true };
        let note = format!("previous declaration at {}", self.at(prev));
        self.error(Diagnostic::error(span, format!("redeclaration of `{name}`")).with_note(note));
        false
    }

    /// Declare a typedef name, enumerator or tag in the current scope.
    pub(super) fn declare_named(&mut self, name: &str, named: Named) {
        let span = named.span();
        if self.fs.is_some() {
            if !self.free_in_block_scope(name, span) {
                return;
            }
            if let Some(scope) = self.fs.as_mut().and_then(|fs| fs.scopes.last_mut()) {
                scope.insert(name.to_string(), Scoped::Named(named));
            }
        } else {
            if !self.free_at_file_scope(name, span) {
                return;
            }
            self.file_names.insert(name.to_string(), named);
        }
    }

    /// What `key` (a name, or a tag's `enum NAME`) means here if it is a typedef name, an
    /// enumerator or a tag: the innermost declaration of it, unless that is a variable.
    pub(super) fn named(&self, key: &str) -> Option<Named> {
        self.fs
            .iter()
            .flat_map(|fs| fs.scopes.iter().rev())
            .find_map(|scope| match scope.get(key) {
                Some(Scoped::Named(n)) => Some(Some(n.clone())),
                Some(_) => Some(None),
                None => None,
            })
            .unwrap_or_else(|| self.file_names.get(key).cloned())
    }

    /// What `key` means in the innermost scope only (file scope outside functions).
    pub(super) fn named_in_current_scope(&self, key: &str) -> Option<Named> {
        let found = match &self.fs {
            Some(fs) => fs.scopes.last().and_then(|scope| scope.get(key)).cloned(),
            None => return self.file_names.get(key).cloned(),
        };
        match found {
            Some(Scoped::Named(n)) => Some(n),
            _ => None,
        }
    }

    /// The type of an `enum` specifier, defining its constants and tag if it has a body.
    pub(super) fn enum_type(&mut self, e: &EnumSpec) -> Option<ScalarType> {
        let Some(body) = &e.body else {
            let (name, span) = e.tag.as_ref()?;
            return match self.named(&tag_key(name)) {
                Some(Named::EnumTag(ty, _)) => Some(ty),
                _ => {
                    self.err(
                        *span,
                        format!("`enum {name}` is not defined (incomplete enumerations are not supported)"),
                    );
                    None
                }
            };
        };
        let mut next: i64 = 0;
        let mut values = Vec::new();
        let mut ok = true;
        for enumerator in body {
            let value = match &enumerator.value {
                None => Some(next),
                Some(expr) => self.enumerator_value(expr),
            };
            let Some(value) = value else {
                ok = false;
                continue;
            };
            if !(i64::from(i32::MIN)..=i64::from(i32::MAX)).contains(&value) {
                self.err(
                    enumerator
                        .value
                        .as_ref()
                        .map_or(enumerator.name_span, |v| v.span),
                    format!(
                        "the value of enumerator `{}` ({value}) does not fit `int`",
                        enumerator.name
                    ),
                );
                ok = false;
                continue;
            }
            if self.check_reserved(&enumerator.name, enumerator.name_span, self.fs.is_none()) {
                self.declare_named(
                    &enumerator.name,
                    Named::EnumConst(value, enumerator.name_span),
                );
            }
            values.push(value);
            next = value + 1;
        }
        let ty = if ast::Attribute::packed_in(&e.attrs) {
            packed_enum_type(&values)
        } else if values.iter().any(|&v| v < 0) {
            ScalarType::Int
        } else {
            ScalarType::UInt
        };
        if let Some((name, span)) = &e.tag {
            self.declare_named(&tag_key(name), Named::EnumTag(ty, *span));
        }
        ok.then_some(ty)
    }

    /// The value of `= expr` in an enumerator: an integer constant expression.
    fn enumerator_value(&mut self, expr: &ast::Expr) -> Option<i64> {
        let e = self.scalar(expr)?;
        if !is_integer_constant_expression(&e) {
            self.err(
                expr.span,
                "an enumerator's value must be an integer constant expression",
            );
            return None;
        }
        match eval(&e) {
            Ok(Const::Int(v)) => Some(e.ty.map_or(v, |t| t.wrap(v))),
            Ok(Const::Double(_)) => None,
            Err(err) => {
                self.err(err.span, err.message);
                None
            }
        }
    }
}

/// The integer type of a `packed` enumeration with these constants, as gcc chooses it.
fn packed_enum_type(values: &[i64]) -> ScalarType {
    let (lo, hi) = values
        .iter()
        .fold((0i64, 0i64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    if lo < 0 {
        if lo >= i64::from(i8::MIN) && hi <= i64::from(i8::MAX) {
            ScalarType::Char
        } else if lo >= i64::from(i16::MIN) && hi <= i64::from(i16::MAX) {
            ScalarType::Short
        } else {
            ScalarType::Int
        }
    } else if hi <= i64::from(u8::MAX) {
        ScalarType::UChar
    } else if hi <= i64::from(u16::MAX) {
        ScalarType::UShort
    } else {
        ScalarType::UInt
    }
}
