//! Pointers: the address of an object or an element, pointer arithmetic scaled by the pointed-to
//! size, and compound assignments to pointers.

use super::places::Loc;
use super::FnCompiler;
use crate::bytecode::{Instr, Reg};
use crate::hir::{BinaryOp, Expr, Place};

impl FnCompiler<'_> {
    /// Loads into `d` the pointer to the start of a variable in memory: a local's frame
    /// object, or a global.
    pub(super) fn object_pointer(&mut self, base: crate::hir::ArrayBase, d: Reg) {
        match base {
            // An array parameter: its array reference, converted (the object it is in is
            // found at run time).
            crate::hir::ArrayBase::Local(l)
                if matches!(self.func.local(l).ty, crate::hir::Type::ArrayRef { .. }) =>
            {
                let r = self.local_reg[l.index()];
                self.emit(Instr::ArrToPtr { a: d, b: r });
            }
            crate::hir::ArrayBase::Local(l) => match self.frame_obj[l.index()] {
                Some(r) => {
                    if r != d {
                        self.emit(Instr::Mov { a: d, b: r });
                    }
                }
                None => unreachable!("addressed locals have frame objects"),
            },
            crate::hir::ArrayBase::Global(g) => {
                let p = self.statics.borrow().global(g);
                self.load_bits(d, p);
            }
        }
    }

    /// `&a[i]..[j]` (a prefix of the indices): the array's pointer moved by the elements
    /// and rows before it.
    pub(super) fn element_address(
        &mut self,
        array: crate::hir::ArrayBase,
        indices: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let (elem, dims) = match array {
            crate::hir::ArrayBase::Local(l) => match &self.func.local(l).ty {
                crate::hir::Type::Array { elem, dims } => (*elem, dims.clone()),
                // An array parameter: its first dimension is unknown (only its inner ones
                // scale the indices).
                crate::hir::Type::ArrayRef { elem, inner } => (
                    *elem,
                    std::iter::once(1).chain(inner.iter().copied()).collect(),
                ),
                t => (t.elem(), vec![1]),
            },
            crate::hir::ArrayBase::Global(g) => match &self.program.global(g).ty {
                crate::hir::Type::Array { elem, dims } => (*elem, dims.clone()),
                t => (t.elem(), vec![1]),
            },
        };
        let d = dst.unwrap_or_else(|| self.alloc());
        let mark = self.free;
        let base = self.alloc();
        self.object_pointer(array, base);
        let mut stride: i64 =
            dims.iter().map(|&n| i64::from(n)).product::<i64>() * i64::from(elem.bytes());
        let mut acc: Option<Reg> = None;
        let mut constant: i64 = 0;
        for (k, index) in indices.iter().enumerate() {
            stride /= i64::from(dims[k].max(1));
            if let Some(c) = self.int_const(index) {
                constant = constant.wrapping_add(c.wrapping_mul(stride));
                continue;
            }
            let i = self.expr(index, None);
            let bytes = self.scaled(i, stride);
            acc = Some(match acc {
                None => bytes,
                Some(a) => {
                    self.emit(Instr::Add64 { a, b: a, c: bytes });
                    a
                }
            });
        }
        match acc {
            Some(a) => {
                self.emit(Instr::PtrAdd {
                    a: base,
                    b: base,
                    c: a,
                });
                self.pointer_step(d, base, constant);
            }
            None => self.pointer_step(d, base, constant),
        }
        self.free = mark.max(u32::from(d.0) + 1).min(self.free);
        d
    }

    /// `d := p` moved by `bytes` (a constant).
    pub(super) fn pointer_step(&mut self, d: Reg, p: Reg, bytes: i64) {
        match i16::try_from(bytes) {
            Ok(0) if d == p => {}
            Ok(0) => {
                self.emit(Instr::Mov { a: d, b: p });
            }
            Ok(imm) => {
                self.emit(Instr::PtrAddI { a: d, b: p, imm });
            }
            Err(_) => {
                let k = self.alloc();
                self.load_bits(k, bytes as u64);
                self.emit(Instr::PtrAdd { a: d, b: p, c: k });
            }
        }
    }

    /// The register holding `i * scale` (`i` a `long` in a register; a new temporary unless
    /// `scale` is 1).
    pub(super) fn scaled(&mut self, i: Reg, scale: i64) -> Reg {
        if scale == 1 {
            return i;
        }
        let t = self.alloc();
        match i16::try_from(scale) {
            Ok(imm) => {
                self.emit(Instr::MulI64 { a: t, b: i, imm });
            }
            Err(_) => {
                self.load_bits(t, scale as u64);
                self.emit(Instr::Mul64 { a: t, b: i, c: t });
            }
        }
        t
    }

    /// `p += n` or `p -= n` on a pointer place (`value` is the step in bytes, a `long`).
    pub(super) fn pointer_compound(
        &mut self,
        e: &Expr,
        place: &Place,
        op: BinaryOp,
        value: &Expr,
        dst: Option<Reg>,
    ) -> Reg {
        let v = self.expr(value, None);
        let loc = self.place(place);
        self.at(e.span);
        let cur = match loc {
            Loc::Reg(r) => r,
            _ => {
                let t = self.alloc();
                self.load(loc, t);
                t
            }
        };
        let step = if op == BinaryOp::Sub {
            let t = self.alloc();
            self.emit(Instr::Neg64 { a: t, b: v });
            t
        } else {
            v
        };
        self.emit(Instr::PtrAdd {
            a: cur,
            b: cur,
            c: step,
        });
        if !matches!(loc, Loc::Reg(_)) {
            self.store(loc, cur);
        }
        self.finish(cur, dst)
    }
}
