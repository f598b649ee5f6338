//! From specifiers and declarators to C types (C99 6.7.2, 6.7.5, 6.7.6).
//!
//! [`Checker::specs_type`] gives the type the specifiers name: a keyword type, a typedef
//! name's type, an enumeration's integer type, or a structure or union (declared or defined
//! on the way: tags live in the block scopes like enum tags, under the key `struct NAME`).
//! [`Checker::declarator_type`] then applies the declarator's derivations to it, from the
//! last one to the first (the one next to the name): `int *a[3]` is an array of three
//! pointers to `int`. Array sizes are integer constant expressions; only the outermost array
//! of a declaration may have its size left out (`int a[] = {...}`, `extern int a[];`, a
//! parameter). A parameter of array type is adjusted to a pointer to its element, and one of
//! function type to a pointer to the function (6.7.5.3p7-8).

use std::sync::Arc;

use crate::ast::{self, DeclSpecs, Derived, NamedType};
use crate::hir::{ScalarType, Type};
use crate::span::Span;

use super::names::Named;
use super::{Checker, MAX_ELEMENTS, MAX_RANK};
use crate::ctype::{CType, FnType, LayoutError, MemberDef, RecordId};

/// True if an initializer may give an array its first dimension (`int a[] = {...}`,
/// `char s[] = "..."`).
pub(super) fn sized_by_initializer(init: Option<&ast::Initializer>) -> bool {
    match init {
        Some(ast::Initializer::List { .. }) => true,
        Some(ast::Initializer::Expr(e)) => matches!(e.kind, ast::ExprKind::Str(_)),
        _ => false,
    }
}

/// The type named by a declaration's specifiers, with its qualifiers.
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    /// The type.
    pub ty: CType,
    /// True if `const` (written, or part of a typedef).
    pub is_const: bool,
}

/// The key under which the tag of a structure or union is stored in the scopes.
fn record_key(is_union: bool, name: &str) -> String {
    if is_union {
        format!("union {name}")
    } else {
        format!("struct {name}")
    }
}

/// How a variable is stored.
pub(super) enum Shape {
    /// A scalar (no dimensions) or an array of scalars: the fast register and array paths.
    Scalar {
        /// The element (or scalar) type.
        elem: ScalarType,
        /// The dimensions, outermost first; the first is `None` until an initializer sizes it.
        dims: Vec<Option<u32>>,
    },
    /// A structure, union or array of them, in memory.
    Object {
        /// Size in bytes.
        size: u64,
        /// Alignment in bytes.
        align: u64,
    },
}

/// The element type and dimensions of an array of scalars (or of a scalar: no dimensions),
/// the shape the scalar and array machinery works with; `None` for other types.
pub(super) fn scalar_shape(ty: &CType) -> Option<(ScalarType, Vec<Option<u32>>)> {
    let mut dims = Vec::new();
    let mut t = ty;
    while let CType::Array { elem, len } = t {
        dims.push(len.map(|n| n as u32));
        t = elem;
    }
    Some((t.scalar()?, dims))
}

/// Whether a parameter is itself `const` (`const int n`, `char *const p`); an array
/// parameter is a pointer, which its element's `const` does not make const.
pub(super) fn declared_const_param(d: &ast::Declarator, specs_const: bool) -> bool {
    match d.derived.first() {
        None => specs_const,
        Some(Derived::Pointer { is_const, .. }) => *is_const,
        Some(_) => false,
    }
}

/// `elem` in arrays of the dimensions `dims`, outermost first (`array_of(int, [2, 3])` is
/// `int [2][3]`).
pub(super) fn array_of(elem: CType, dims: &[u32]) -> CType {
    dims.iter().rev().fold(elem, |t, &n| CType::Array {
        elem: Arc::new(t),
        len: Some(u64::from(n)),
    })
}

/// `ty` with the outermost array's length taken from the storage chosen for it (an array
/// declared `[]` gets the size its initializer gave); `records` sizes structure elements.
pub(super) fn with_dims(ty: &CType, storage: &Type, records: &crate::ctype::Records) -> CType {
    match (ty, storage) {
        (CType::Array { elem, len: None }, Type::Array { dims, .. }) => CType::Array {
            elem: elem.clone(),
            len: dims.first().map(|&n| u64::from(n)),
        },
        (CType::Array { elem, len: None }, Type::Object { size, .. }) => CType::Array {
            elem: elem.clone(),
            len: records.size_of(elem).filter(|&n| n > 0).map(|n| size / n),
        },
        _ => ty.clone(),
    }
}

/// The innermost element type of an array type (the type itself for other types).
pub(super) fn innermost(ty: &CType) -> &CType {
    match ty {
        CType::Array { elem, .. } => innermost(elem),
        other => other,
    }
}

impl Checker<'_> {
    /// The type named by `specs`. `None` if they do not name a valid type (reported).
    pub(super) fn specs_type(&mut self, specs: &DeclSpecs) -> Option<Resolved> {
        let Some(named) = &specs.named else {
            let ty = match specs.ty? {
                ast::BaseType::Void => CType::Void,
                ast::BaseType::Scalar(t) => CType::Scalar(t),
                ast::BaseType::LongDouble => CType::LongDouble,
            };
            return Some(Resolved {
                ty,
                is_const: specs.is_const,
            });
        };
        let (ty, is_const) = match &**named {
            NamedType::Typedef { name, span } => {
                let info = self.typedef_named(name, *span)?;
                (info.ty, info.is_const)
            }
            NamedType::Enum(e) => (CType::Scalar(self.enum_type(e)?), false),
            NamedType::Record(r) => (CType::Record(self.record_type(r)?), false),
            NamedType::TypeOf { arg, .. } => self.type_of(arg)?,
        };
        Some(Resolved {
            ty,
            is_const: specs.is_const || is_const,
        })
    }

    /// The type of declarator `d` over the specifiers' type `base`. `first_may_be_empty`
    /// allows `[]` as the outermost array.
    pub(super) fn declarator_type(
        &mut self,
        base: &CType,
        d: &ast::Declarator,
        first_may_be_empty: bool,
    ) -> Option<CType> {
        let rank = d
            .derived
            .iter()
            .take_while(|x| matches!(x, Derived::Array(_)))
            .count();
        if rank > MAX_RANK {
            self.err(
                d.span,
                format!("array `{}` has more than {MAX_RANK} dimensions", d.name),
            );
            return None;
        }
        let mut ty = base.clone();
        for (i, derivation) in d.derived.iter().enumerate().rev() {
            ty = match derivation {
                Derived::Pointer { .. } => CType::pointer_to(ty, false),
                Derived::Array(dim) => {
                    self.array_element_ok(&ty, &d.name, dim.span)?;
                    let len = match &dim.size {
                        Some(size) => Some(u64::from(self.array_size(size)?)),
                        None if i == 0 && first_may_be_empty => None,
                        None if i > 0 && matches!(d.derived[i - 1], Derived::Pointer { .. }) => {
                            None
                        }
                        None => {
                            let what = if i == 0 {
                                format!("array size missing in `{}`", d.name)
                            } else {
                                format!("array `{}` has an incomplete element type: only the first dimension may be empty", d.name)
                            };
                            self.err(dim.span, what);
                            return None;
                        }
                    };
                    CType::Array {
                        elem: Arc::new(ty),
                        len,
                    }
                }
                Derived::Function {
                    params,
                    span,
                    variadic,
                    ..
                } => {
                    if matches!(ty, CType::Array { .. } | CType::Function(_)) {
                        let what = if matches!(ty, CType::Array { .. }) {
                            "an array"
                        } else {
                            "a function"
                        };
                        self.err(*span, format!("a function cannot return {what}"));
                        return None;
                    }
                    let params = self.param_types(params)?;
                    CType::Function(Arc::new(FnType {
                        ret: ty,
                        params,
                        variadic: variadic.is_some(),
                    }))
                }
            };
        }
        if let Some(total) = self.link.records.size_of(&ty) {
            if scalar_shape(&ty).is_some_and(|(_, dims)| !dims.is_empty()) {
                let count: u64 = scalar_shape(&ty)
                    .map(|(_, dims)| dims.iter().flatten().map(|&n| u64::from(n)).product())
                    .unwrap_or(1);
                if count > MAX_ELEMENTS {
                    let at = match d.derived.first() {
                        Some(Derived::Array(dim)) => dim.span,
                        _ => d.span,
                    };
                    self.err(
                        at,
                        format!(
                            "array `{}` is too large (at most {MAX_ELEMENTS} elements)",
                            d.name
                        ),
                    );
                    return None;
                }
            }
            if total > crate::ctype::MAX_OBJECT_SIZE {
                self.err(d.span, format!("`{}` is too large ({total} bytes)", d.name));
                return None;
            }
        }
        Some(ty)
    }

    /// Report an array of `void`, of functions or of an incomplete structure.
    fn array_element_ok(&mut self, elem: &CType, name: &str, span: Span) -> Option<()> {
        match elem {
            CType::Void => {
                self.err(span, format!("array `{name}` of `void`"));
                None
            }
            CType::Function(_) => {
                self.err(span, format!("array `{name}` of functions"));
                None
            }
            CType::Array { len: None, .. } => {
                self.err(
                    span,
                    format!("array `{name}` has an incomplete element type: only the first dimension may be empty"),
                );
                None
            }
            CType::Record(id) if self.link.records.get(*id).members.is_none() => {
                let what = self.link.records.get(*id).name();
                self.err(span, format!("array `{name}` of incomplete type `{what}`"));
                None
            }
            _ => Some(()),
        }
    }

    /// The types of a prototype's parameters, adjusted (arrays and functions to pointers).
    fn param_types(&mut self, params: &[ast::Param]) -> Option<Vec<CType>> {
        let mut out = Vec::new();
        let mut ok = true;
        for p in params {
            match self.param_type(p) {
                Some((ty, _)) => out.push(ty),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// A parameter's adjusted type and whether its pointed-to elements are `const` (for
    /// `const int a[]`).
    pub(super) fn param_type(&mut self, p: &ast::Param) -> Option<(CType, bool)> {
        let base = self.specs_type(&p.specs)?;
        let ty = self.declarator_type(&base.ty, &p.declarator, true)?;
        let ty = match ty {
            CType::Array { elem, .. } => CType::Pointer {
                to: elem,
                to_const: base.is_const,
            },
            CType::Function(_) => CType::pointer_to(ty, false),
            CType::Pointer { to, .. } if Self::pointee_const(&p.declarator, base.is_const) => {
                CType::Pointer { to, to_const: true }
            }
            other => other,
        };
        if ty == CType::Void {
            let name = p.name().map_or(String::new(), |(n, _)| format!(" `{n}`"));
            self.err(
                p.span,
                format!(
                    "parameter{name} has type `void` (only `(void)` alone means no parameters)"
                ),
            );
            return None;
        }
        Some((ty, base.is_const))
    }

    /// True if the object a declarator declares is itself `const` (cannot be assigned): the
    /// specifiers' `const` for a scalar or an array's elements, a pointer's own `* const`.
    pub(super) fn declared_const(d: &ast::Declarator, specs_const: bool) -> bool {
        match d.derived.iter().find(|x| !matches!(x, Derived::Array(_))) {
            None => specs_const,
            Some(Derived::Pointer { is_const, .. }) => *is_const,
            Some(_) => false,
        }
    }

    /// True if the object a declarator's outermost pointer points to is `const`: the
    /// specifiers are `const` and the pointer is the first derivation applied to them (`const
    /// char *p`), or the next pointer out is `* const` (`char *const *p`).
    pub(super) fn pointee_const(d: &ast::Declarator, specs_const: bool) -> bool {
        match d.derived.as_slice() {
            [Derived::Pointer { .. }] => specs_const,
            [Derived::Pointer { .. }, Derived::Pointer { is_const, .. }, ..] => *is_const,
            _ => false,
        }
    }

    /// The full type of an object declared by `specs` and `d` (`first_may_be_empty` as in
    /// [`Checker::declarator_type`]), with the pointer qualifiers C tracks: `const T *p`.
    pub(super) fn object_type(
        &mut self,
        base: &Resolved,
        d: &ast::Declarator,
        first_may_be_empty: bool,
    ) -> Option<CType> {
        let ty = self.declarator_type(&base.ty, d, first_may_be_empty)?;
        Some(match ty {
            CType::Pointer { to, .. } if Self::pointee_const(d, base.is_const) => {
                CType::Pointer { to, to_const: true }
            }
            other => other,
        })
    }

    /// The full type and storage shape of a variable declared by `base` and `d` with the
    /// initializer `init` (whose braces or string may size its outermost array). `None`
    /// (reported) for `void`, functions and incomplete types.
    pub(super) fn object_shape(
        &mut self,
        base: &Resolved,
        d: &ast::Declarator,
        init: Option<&ast::Initializer>,
        size_elsewhere: bool,
    ) -> Option<(CType, Shape)> {
        // `int a[] = {...}` is sized by its initializer; `extern int a[];` by its definition.
        let has_list = sized_by_initializer(init) || size_elsewhere;
        let ty = self.object_type(base, d, has_list)?;
        if let Some((elem, dims)) = scalar_shape(&ty) {
            return Some((ty, Shape::Scalar { elem, dims }));
        }
        match &ty {
            CType::Void => {
                self.err(
                    d.name_span,
                    format!("variable `{}` declared `void`", d.name),
                );
                None
            }
            CType::Function(_) => {
                // Only a typedef of a function type can give a declarator without its own
                // parameter list a function type (`fn g;`).
                self.err(
                    d.span,
                    format!(
                        "`{}` declared through a function typedef is not supported (write its prototype)",
                        d.name
                    ),
                );
                None
            }
            _ => {
                // An array of structures sized by its initializer: sized once that is read.
                if let CType::Array { elem, len: None } = &ty {
                    if init.is_some() {
                        let align = self.link.records.align_of(&ty);
                        let elem_size = self.link.records.size_of(elem).unwrap_or(0);
                        return Some((
                            ty.clone(),
                            Shape::Object {
                                size: elem_size,
                                align,
                            },
                        ));
                    }
                }
                match self.link.records.size_of(&ty) {
                    Some(size) => {
                        let align = self.link.records.align_of(&ty);
                        Some((ty, Shape::Object { size, align }))
                    }
                    None => {
                        let what = self.link.records.display(&ty).to_string();
                        self.err(
                            d.name_span,
                            format!("variable `{}` has incomplete type `{what}`", d.name),
                        );
                        None
                    }
                }
            }
        }
    }

    /// The result type of a function declarator (its derivations after the parameter list
    /// applied to the specifiers' type) and its spelling; `void`, a scalar or a pointer.
    pub(super) fn result_type(
        &mut self,
        base: &Resolved,
        decl: &ast::Declarator,
    ) -> Option<(CType, String)> {
        let ret_decl = ast::Declarator {
            derived: decl.derived[1..].to_vec(),
            ..decl.clone()
        };
        let ty = self.object_type(base, &ret_decl, false)?;
        match ty {
            CType::Void | CType::Scalar(_) | CType::Pointer { .. } | CType::LongDouble => {
                let spelled = self.link.records.display(&ty).to_string();
                Some((ty, spelled))
            }
            CType::Record(_) if self.link.records.is_complete(&ty) || !decl.derived.is_empty() => {
                let spelled = self.link.records.display(&ty).to_string();
                Some((ty, spelled))
            }
            CType::Array { .. } => {
                self.err(
                    decl.name_span,
                    format!("function `{}` cannot return an array", decl.name),
                );
                None
            }
            CType::Function(_) => {
                self.err(
                    decl.name_span,
                    format!("function `{}` cannot return a function", decl.name),
                );
                None
            }
            CType::Record(_) => {
                self.err(
                    decl.name_span,
                    format!(
                        "function `{}` returns the incomplete type `{}`",
                        decl.name,
                        self.link.records.display(&ty)
                    ),
                );
                None
            }
        }
    }

    /// The record a `struct`/`union` specifier names: declared by `struct tag` if the tag
    /// is not visible, defined by a body.
    fn record_type(&mut self, r: &ast::RecordSpec) -> Option<RecordId> {
        let kw = if r.is_union { "union" } else { "struct" };
        let existing = r.tag.as_ref().and_then(|(name, _)| {
            let key = record_key(r.is_union, name);
            // A body always declares the tag in the current scope; a reference finds the
            // innermost visible declaration.
            if r.members.is_some() {
                self.named_in_current_scope(&key)
            } else {
                self.named(&key)
            }
        });
        let id = match existing {
            Some(Named::Record(id, _)) => id,
            _ => {
                let id = self.link.records.declare(
                    r.is_union,
                    r.tag.as_ref().map(|(n, _)| n.clone()),
                    r.span,
                );
                if let Some((name, span)) = &r.tag {
                    self.declare_named(&record_key(r.is_union, name), Named::Record(id, *span));
                }
                id
            }
        };
        let Some(members) = &r.members else {
            return Some(id);
        };
        if self.link.records.get(id).members.is_some() {
            let name = self.link.records.get(id).name();
            self.err(r.span, format!("redefinition of `{name}`"));
            return None;
        }
        let mut defs: Vec<MemberDef> = Vec::new();
        let mut ok = true;
        let is_struct = kw.starts_with("struct");
        for (mi, m) in members.iter().enumerate() {
            let Some(base) = self.specs_type(&m.specs) else {
                ok = false;
                continue;
            };
            if m.declarators.is_empty() {
                self.err(m.span, format!("declaration does not declare anything (anonymous members of a `{kw}` are not supported)"));
                ok = false;
                continue;
            }
            for (di, md) in m.declarators.iter().enumerate() {
                // C99 6.7.2.1p16: the last member of a structure with another named member
                // may be a flexible array member (`double data[];`), which takes no space.
                let flexible = is_struct
                    && mi + 1 == members.len()
                    && di + 1 == m.declarators.len()
                    && md.bits.is_none()
                    && defs.iter().any(|x| !x.name.is_empty());
                // GNU C's zero-length array as the last member (`char data[0];`, the idiom
                // before C99's flexible array members) is one.
                let zero_length = flexible.then(|| zero_length_as_flexible(&md.declarator));
                let d = zero_length
                    .as_ref()
                    .and_then(Option::as_ref)
                    .unwrap_or(&md.declarator);
                let Some(ty) = self.object_type(&base, d, flexible) else {
                    ok = false;
                    continue;
                };
                if !d.is_abstract() && defs.iter().any(|x| x.name == d.name) {
                    self.err(d.name_span, format!("duplicate member `{}`", d.name));
                    ok = false;
                    continue;
                }
                let width = match &md.bits {
                    None => {
                        let is_flexible = matches!(ty, CType::Array { len: None, .. });
                        if !is_flexible && !self.link.records.is_complete(&ty) {
                            let what = match &ty {
                                CType::Function(_) => "a function".to_string(),
                                CType::Record(rid) if *rid == id => {
                                    format!("`{kw}` itself (use a pointer)")
                                }
                                other => format!(
                                    "incomplete type `{}`",
                                    self.link.records.display(other)
                                ),
                            };
                            self.err(d.span, format!("member `{}` has {what}", d.name));
                            ok = false;
                            continue;
                        }
                        None
                    }
                    Some(bits) => match self.bit_width(bits, &ty, &d.name) {
                        Some(w) => Some(w),
                        None => {
                            ok = false;
                            continue;
                        }
                    },
                };
                let mut member_attrs = m.specs.attrs.clone();
                member_attrs.extend(md.attrs.iter().cloned());
                if ast::Attribute::packed_in(&member_attrs)
                    && width.is_none()
                    && self.link.records.align_of(&ty) > 1
                {
                    self.err(
                        d.span,
                        format!("`packed` on member `{}` is not supported: the VM reads scalars aligned only", d.name),
                    );
                    ok = false;
                    continue;
                }
                let align = self.requested_alignment(&member_attrs);
                defs.push(MemberDef {
                    name: d.name.clone(),
                    ty,
                    is_const: Self::declared_const(d, base.is_const),
                    width,
                    align,
                    span: d.span,
                });
            }
        }
        if !ok {
            return None;
        }
        if !defs.iter().any(|m| !m.name.is_empty()) {
            self.err(r.span, format!("`{kw}` has no named members"));
            return None;
        }
        let attrs = self.record_attrs(&r.attrs);
        match self.link.records.define(id, defs, attrs) {
            Ok(()) => {}
            Err(LayoutError::TooLarge) => {
                self.err(r.span, format!("`{kw}` is too large"));
                return None;
            }
            Err(LayoutError::PackedMisaligned(member)) => {
                self.err(
                    r.span,
                    format!(
                        "`packed` would place member `{member}` off its alignment, which the VM does not support: its checked memory reads scalars aligned only"
                    ),
                );
                return None;
            }
        }
        Some(id)
    }

    /// The width of a bit-field: an integer constant expression from 0 (unnamed only) to the
    /// width of its type, which must be an integer type.
    fn bit_width(&mut self, bits: &ast::Expr, ty: &CType, name: &str) -> Option<u32> {
        let Some(t) = ty.scalar().filter(|t| t.is_integer()) else {
            self.err(
                bits.span,
                format!(
                    "bit-field `{name}` has type `{}`: a bit-field must have an integer type",
                    self.link.records.display(ty)
                ),
            );
            return None;
        };
        let e = self.scalar(bits)?;
        let value = match super::types::eval(&e) {
            Ok(super::types::Const::Int(v)) if super::is_integer_constant_expression(&e) => v,
            _ => {
                self.err(
                    bits.span,
                    "a bit-field's width must be an integer constant expression",
                );
                return None;
            }
        };
        let max = i64::from(if t == ScalarType::Bool { 1 } else { t.bits() });
        if value < 0 || value > max || (value == 0 && !name.is_empty()) {
            let why = if value == 0 {
                format!("zero width for bit-field `{name}`")
            } else {
                format!(
                    "width of bit-field `{name}` ({value}) exceeds its type (at most {max} bits)"
                )
            };
            self.err(bits.span, why);
            return None;
        }
        Some(value as u32)
    }
}

/// `d` with its array dimension `[0]` written `[]`, if `d` declares an array of zero elements
/// (`char data[0]`), for GNU C's zero-length array members.
fn zero_length_as_flexible(d: &ast::Declarator) -> Option<ast::Declarator> {
    let Some(Derived::Array(dim)) = d.derived.first() else {
        return None;
    };
    let Some(ast::Expr {
        kind: ast::ExprKind::Int(0, _),
        ..
    }) = &dim.size
    else {
        return None;
    };
    let mut flexible = d.clone();
    if let Some(Derived::Array(dim)) = flexible.derived.first_mut() {
        dim.size = None;
    }
    Some(flexible)
}
