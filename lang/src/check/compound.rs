//! Compound literals (C99 6.5.2.5): `(type) { initializers }` inside a function is an unnamed
//! object with automatic storage, initialized each time the expression is evaluated, and an
//! lvalue (its address may be taken, its members assigned).
//!
//! The checker declares the object as a hidden local of the function (a name no program can
//! spell), initialized as a declaration `type name = { ... };` would be, and the expression
//! becomes `*(init, &name)`: [`hir::ExprKind::WithInit`] runs the initialization where the
//! literal is evaluated and yields the object's address. Like every local whose address can be
//! taken, it lives in memory for the whole call (a literal evaluated in a loop reuses its
//! object, which C allows: each evaluation re-initializes it).

use crate::ast;
use crate::hir::{self, ArrayBase, ExprKind, ScalarType};
use crate::span::Span;

use super::operand::Operand;
use super::types::mk;
use super::Checker;
use crate::ctype::CType;

impl Checker<'_> {
    /// The operand `(tn) { init }` denotes.
    pub(super) fn compound_literal<'a>(
        &mut self,
        tn: &ast::TypeName,
        init: &ast::Initializer,
        span: Span,
    ) -> Option<Operand<'a>> {
        let cty = self.type_name(tn)?;
        let Some(fs) = self.fs.as_ref() else {
            self.err(
                span,
                "compound literals outside a function are not supported (declare a named object)",
            );
            return None;
        };
        let name = format!("<compound literal {}>", fs.locals.len());
        let size = match (self.link.records.size_of(&cty), &cty) {
            (Some(size), _) => size,
            (None, CType::Array { len: None, .. }) => 0,
            (None, _) => {
                self.err(
                    span,
                    format!("compound literal of incomplete type `{}`", self.spell(&cty)),
                );
                return None;
            }
        };
        let align = self.link.records.align_of(&cty);
        let decl = ast::Declarator {
            name: name.clone(),
            name_span: span,
            derived: Vec::new(),
            span,
        };
        let mut stmts = Vec::new();
        self.object_local(&decl, Some(init), cty, size, align, false, span, &mut stmts);
        let fs = self.fs.as_ref()?;
        let local = hir::LocalId::new(fs.locals.len().checked_sub(1)?);
        if stmts.is_empty() || fs.locals[local.index()].name != name {
            // The initializer was wrong (reported).
            return None;
        }
        let cty = fs.local_info[local.index()].cty.clone();
        let addr = mk(
            ExprKind::ObjectAddr(ArrayBase::Local(local)),
            ScalarType::Ptr,
            span,
        );
        let ptr = hir::Expr {
            kind: ExprKind::WithInit {
                init: stmts,
                value: Box::new(addr),
            },
            ty: Some(ScalarType::Ptr),
            span,
        };
        self.deref(ptr, &CType::pointer_to(cty, false), span)
    }
}
