//! What an expression denotes before a context asks for a value ([`Operand`]): the leaf the
//! expression checker ([`super::expr`]), pointer arithmetic ([`super::pointers`]), object
//! initializers ([`super::object_init`]) and statements stand on.

use crate::ctype::CType;
use crate::hir::{ArrayBase, Expr, ExprKind, FuncId, Place, ScalarType};
use crate::span::Span;

use super::types::mk;

/// What an expression denotes.
pub(super) enum Operand<'a> {
    /// A value and its C type ([`CType::Void`] for a void expression).
    Value(Expr, CType),
    /// A scalar lvalue (arithmetic or pointer).
    Place {
        place: Place,
        ty: ScalarType,
        cty: CType,
        is_const: bool,
        name: &'a str,
        span: Span,
    },
    /// A named array, possibly partially indexed.
    Array(ArrayVal<'a>),
    /// An array or structure in memory reached through a pointer (`*p` where `p` points to
    /// an array, later `p->s`).
    Pointed {
        ptr: Expr,
        /// A constant byte offset from `ptr` (members of members add up here).
        offset: i64,
        cty: CType,
        is_const: bool,
        span: Span,
    },
    /// A string literal.
    Str(&'a [u8], Span),
    /// A function designator (a function's name).
    Func { id: FuncId, ty: CType, span: Span },
}

/// An array-valued expression.
pub(super) struct ArrayVal<'a> {
    pub(super) base: ArrayBase,
    pub(super) indices: Vec<Expr>,
    pub(super) elem: ScalarType,
    /// The element's C type (a pointer type for an array of pointers).
    pub(super) elem_cty: CType,
    /// The remaining dimensions; the first is `None` for an array parameter's unknown size.
    pub(super) dims: Vec<Option<u32>>,
    pub(super) is_const: bool,
    pub(super) name: &'a str,
    pub(super) span: Span,
}

impl ArrayVal<'_> {
    /// The C type of the (remaining) array.
    pub(super) fn array_type(&self) -> CType {
        self.dims
            .iter()
            .rev()
            .fold(self.elem_cty.clone(), |t, d| CType::Array {
                elem: std::sync::Arc::new(t),
                len: d.map(u64::from),
            })
    }

    pub(super) fn type_name(&self) -> String {
        let mut s = format!("{}{}", if self.is_const { "const " } else { "" }, self.elem);
        for d in &self.dims {
            match d {
                Some(n) => s.push_str(&format!("[{n}]")),
                None => s.push_str("[]"),
            }
        }
        s
    }
}

/// `ptr + offset` bytes (no node for offset 0).
pub(super) fn offset_pointer(ptr: Expr, offset: i64, span: Span) -> Expr {
    if offset == 0 {
        return ptr;
    }
    mk(
        ExprKind::PtrAdd {
            ptr: Box::new(ptr),
            index: Box::new(mk(ExprKind::IntConst(offset), ScalarType::Long, span)),
            scale: 1,
        },
        ScalarType::Ptr,
        span,
    )
}
