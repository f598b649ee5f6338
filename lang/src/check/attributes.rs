//! GNU C's layout attributes (the gcc manual, "Common Variable Attributes", "Common Type
//! Attributes"): `aligned` and `packed`, which `crate::gnu` passes to the grammar and the
//! grammar attaches to declarations, specifiers and `struct`/`union`/`enum` specifiers.
//!
//! - `aligned(N)` raises the alignment of a variable, a member or a structure to `N` bytes
//!   (an integer constant expression, a power of two); a bare `aligned` asks for the
//!   target's largest alignment, 16 on x86-64. It never lowers an alignment (gcc's rule
//!   outside `packed`).
//! - `packed` on an enumeration gives it the smallest integer type that holds its
//!   constants (`unsigned char` for 0..255, `signed char` for -128..127, then `short`; the
//!   enumerations' module, `names`, chooses it); on a structure it leaves out the padding
//!   ([`crate::ctype::Records::define`] says which structures the VM can lay out so).

use crate::ast::{self, Attribute};
use crate::ctype::RecordAttrs;

use crate::bytecode::ARRAY_ALIGN;

use super::types::{eval, Const};
use super::{is_integer_constant_expression, Checker, FileSym, Scoped};

/// The alignment of a bare `aligned`: the largest any type has on x86-64 (gcc's
/// `__BIGGEST_ALIGNMENT__`).
pub(super) const BIGGEST_ALIGNMENT: u64 = 16;

/// The largest alignment `aligned(N)` may ask for (gcc's limit for objects in ELF files is
/// far larger; the VM's areas are aligned to pages).
const MAX_ALIGNMENT: u64 = 4096;

impl Checker<'_> {
    /// The largest alignment the `aligned` attributes in `attrs` ask for, if any (errors for
    /// an argument that is not a power of two).
    pub(super) fn requested_alignment(&mut self, attrs: &[Attribute]) -> Option<u64> {
        let mut align = None;
        for attr in attrs {
            let Attribute::Aligned(arg, _) = attr else {
                continue;
            };
            let a = match arg {
                None => BIGGEST_ALIGNMENT,
                Some(e) => match self.alignment_argument(e) {
                    Some(a) => a,
                    None => continue,
                },
            };
            align = Some(align.map_or(a, |b: u64| b.max(a)));
        }
        align
    }

    /// Applies the `aligned` attributes of a variable's specifiers and declarator to the
    /// variable `id` just declared (at file scope or in the innermost block). A local
    /// variable in a frame may ask for at most [`ARRAY_ALIGN`] bytes: the VM's frames are
    /// aligned so (a `static` local has no such limit).
    pub(super) fn align_variable(&mut self, specs: &ast::DeclSpecs, id: &ast::InitDeclarator) {
        if specs.attrs.is_empty() && id.attrs.is_empty() {
            return;
        }
        // `packed` on a variable is ignored, as gcc ignores it (with a warning).
        let mut attrs = specs.attrs.clone();
        attrs.extend(id.attrs.iter().cloned());
        let Some(align) = self.requested_alignment(&attrs) else {
            return;
        };
        let name = &id.declarator.name;
        let scoped = self
            .fs
            .as_ref()
            .and_then(|fs| fs.scopes.last())
            .and_then(|scope| scope.get(name))
            .cloned();
        match scoped {
            Some(Scoped::Local(local)) => {
                if align > u64::from(ARRAY_ALIGN) {
                    self.err(
                        id.declarator.name_span,
                        format!(
                            "`aligned({align})` on a local variable is not supported: the VM aligns its frames to {ARRAY_ALIGN} bytes (declare it `static`)"
                        ),
                    );
                    return;
                }
                if let Some(fs) = self.fs.as_mut() {
                    let l = &mut fs.locals[local.index()];
                    l.align = l.align.max(align);
                }
            }
            Some(Scoped::Static(global)) => {
                let g = &mut self.link.globals[global.index()];
                g.align = g.align.max(align);
            }
            _ if self.fs.is_none() => {
                if let Some(FileSym::Global(g)) = self.file_scope.get(name) {
                    let g = &mut self.link.globals[g.id.index()];
                    g.align = g.align.max(align);
                }
            }
            _ => {}
        }
    }

    /// The attributes of a `struct` or `union` specifier as its layout needs them.
    pub(super) fn record_attrs(&mut self, attrs: &[Attribute]) -> RecordAttrs {
        RecordAttrs {
            packed: Attribute::packed_in(attrs),
            align: self.requested_alignment(attrs),
        }
    }

    /// The value of `aligned(N)`'s `N`: an integer constant expression, a power of two.
    fn alignment_argument(&mut self, e: &ast::Expr) -> Option<u64> {
        let checked = self.scalar(e)?;
        if !is_integer_constant_expression(&checked) {
            self.err(
                e.span,
                "the argument of `aligned` must be an integer constant expression",
            );
            return None;
        }
        let value = match eval(&checked) {
            Ok(Const::Int(v)) => v,
            Ok(Const::Double(_)) => return None,
            Err(err) => {
                self.err(err.span, err.message);
                return None;
            }
        };
        if value <= 0 || !(value as u64).is_power_of_two() || value as u64 > MAX_ALIGNMENT {
            self.err(
                e.span,
                format!(
                    "requested alignment {value} is not a power of two from 1 to {MAX_ALIGNMENT}"
                ),
            );
            return None;
        }
        Some(value as u64)
    }
}
