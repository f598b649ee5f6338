//! Places: where a scalar lvalue lives ([`Loc`]: a register, a global, an array element, memory
//! through a pointer, a bit-field), loading from and storing to it, and the expressions that
//! write places (assignments, compound assignments, `++` and `--`).

use super::effects::{has_side_effects, is_unobservable, writes_locals};
use super::instrs::{
    binary_instr, get_global, immediate_form, load_elem, load_ptr, narrow_instr, set_global,
    store_elem, store_elem_imm, store_ptr,
};
use super::{place_local, FnCompiler};
use crate::bytecode::{Addr, Instr, Reg};
use crate::hir::{BinaryOp, Expr, ExprKind, Place, ScalarType};

/// A place resolved to where its value lives.
#[derive(Clone, Copy)]
pub(super) enum Loc {
    /// A register (scalar local).
    Reg(Reg),
    /// A global scalar: its byte address and type.
    Global(u32, ScalarType),
    /// An array element: reference register, index register and element type.
    Elem(Reg, Reg, ScalarType),
    /// Memory through a pointer: the pointer's register, a byte offset and the type.
    Ptr(Reg, i16, ScalarType),
    /// A bit-field: its storage unit through a pointer (register, offset, unit type), its
    /// first bit and its width.
    Bits(Reg, i16, ScalarType, u32, u32),
}

impl FnCompiler<'_> {
    /// Resolves a place, computing array references and indices into registers.
    pub(super) fn place(&mut self, place: &Place) -> Loc {
        match place {
            Place::Local(l) => Loc::Reg(self.local_reg[l.index()]),
            Place::Global(g) => Loc::Global(self.global_addrs[g.index()], self.place_type(place)),
            Place::Element { array, indices } => {
                let (prefix, last) = indices.split_at(indices.len().saturating_sub(1));
                let aref = self.sub_array(*array, prefix, None);
                let i = match last.first() {
                    Some(idx) => self.expr(idx, None),
                    None => self.alloc(),
                };
                Loc::Elem(aref, i, self.place_type(place))
            }
            Place::Deref { ptr, offset, ty } => {
                let p = self.expr(ptr, None);
                match i16::try_from(*offset) {
                    Ok(imm) => Loc::Ptr(p, imm, *ty),
                    Err(_) => {
                        let q = self.alloc();
                        self.pointer_step(q, p, *offset);
                        Loc::Ptr(q, 0, *ty)
                    }
                }
            }
            Place::BitField {
                ptr,
                offset,
                unit,
                bit_offset,
                width,
            } => {
                let mut p = self.expr(ptr, None);
                let imm = match i16::try_from(*offset) {
                    Ok(imm) => imm,
                    Err(_) => {
                        let q = self.alloc();
                        self.pointer_step(q, p, *offset);
                        p = q;
                        0
                    }
                };
                Loc::Bits(p, imm, *unit, *bit_offset, *width)
            }
        }
    }

    pub(super) fn place_type(&self, place: &Place) -> ScalarType {
        match place {
            Place::Local(l) => self.func.local(*l).ty.elem(),
            Place::Global(g) => self.program.global(*g).ty.elem(),
            Place::Element { array, .. } => match array {
                crate::hir::ArrayBase::Local(l) => self.func.local(*l).ty.elem(),
                crate::hir::ArrayBase::Global(g) => self.program.global(*g).ty.elem(),
            },
            Place::Deref { ty, .. } => *ty,
            Place::BitField { unit, .. } => *unit,
        }
    }

    pub(super) fn load(&mut self, loc: Loc, d: Reg) {
        match loc {
            Loc::Reg(r) => {
                if r != d {
                    self.emit(Instr::Mov { a: d, b: r });
                }
            }
            Loc::Global(addr, ty) => {
                self.emit(get_global(ty, d, Addr(addr)));
            }
            Loc::Elem(a, i, ty) => {
                self.emit(load_elem(ty, d, a, i));
            }
            Loc::Ptr(p, imm, ty) => {
                self.emit(load_ptr(ty, d, p, imm));
            }
            Loc::Bits(p, imm, unit, bit, width) => {
                self.emit(load_ptr(unit, d, p, imm));
                self.extract_bits(d, unit, bit, width);
            }
        }
    }

    /// `d` holds a bit-field's storage unit: leaves the field's value, sign-extended for a
    /// signed unit (64-bit shifts: up to the top, then down).
    pub(super) fn extract_bits(&mut self, d: Reg, unit: ScalarType, bit: u32, width: u32) {
        let up = 64 - bit - width;
        if up > 0 {
            self.emit(Instr::ShlI64 {
                a: d,
                b: d,
                imm: up as i16,
            });
        }
        let down = (64 - width) as i16;
        if down > 0 {
            self.emit(if unit.is_signed() {
                Instr::SarI {
                    a: d,
                    b: d,
                    imm: down,
                }
            } else {
                Instr::ShrI {
                    a: d,
                    b: d,
                    imm: down,
                }
            });
        }
    }

    pub(super) fn store(&mut self, loc: Loc, v: Reg) {
        match loc {
            Loc::Reg(r) => {
                if r != v {
                    self.emit(Instr::Mov { a: r, b: v });
                }
            }
            Loc::Global(addr, ty) => {
                self.emit(set_global(ty, v, Addr(addr)));
            }
            Loc::Elem(a, i, ty) => {
                self.emit(store_elem(ty, v, a, i));
            }
            Loc::Ptr(p, imm, ty) => {
                self.emit(store_ptr(ty, v, p, imm));
            }
            Loc::Bits(p, imm, unit, bit, width) => {
                // unit := (unit & !mask) | ((v << (64 - width)) >>u (64 - width - bit)).
                let u = self.alloc();
                self.emit(load_ptr(unit, u, p, imm));
                let mask = (u64::MAX >> (64 - width)) << bit;
                let k = self.alloc();
                self.load_bits(k, !mask);
                self.emit(Instr::And { a: u, b: u, c: k });
                let t = self.alloc();
                self.emit(Instr::ShlI64 {
                    a: t,
                    b: v,
                    imm: (64 - width) as i16,
                });
                let down = (64 - width - bit) as i16;
                if down > 0 {
                    self.emit(Instr::ShrI {
                        a: t,
                        b: t,
                        imm: down,
                    });
                }
                self.emit(Instr::Or { a: u, b: u, c: t });
                self.emit(store_ptr(unit, u, p, imm));
            }
        }
    }

    /// `place = value`; `used` says whether the expression's value is needed.
    pub(super) fn assign(
        &mut self,
        e: &Expr,
        place: &Place,
        value: &Expr,
        dst: Option<Reg>,
        used: bool,
    ) -> Reg {
        if let Some(l) = place_local(place) {
            let r = self.local_reg[l.index()];
            self.expr(value, Some(r));
            return self.finish(r, dst);
        }
        if let Place::BitField { .. } = place {
            let v = self.expr(value, None);
            let loc = self.place(place);
            self.at(e.span);
            self.store(loc, v);
            if !used {
                return v;
            }
            // The assignment's value is the field's new value (truncated to its width).
            let d = dst.unwrap_or_else(|| self.alloc());
            self.load(loc, d);
            return d;
        }
        // A small constant stored into an array element, value unused: `StEI*` (a `float`
        // only for 0.0, whose binary32 bits are the immediate's).
        if !used && matches!(place, Place::Element { .. }) {
            let ty = self.place_type(place);
            if let Some(imm) = self
                .const_bits(value)
                .and_then(|b| i16::try_from(b as i64).ok())
                .filter(|&imm| ty != ScalarType::Float || imm == 0)
            {
                if let Loc::Elem(a, i, ty) = self.place(place) {
                    self.at(e.span);
                    self.emit(store_elem_imm(ty, imm, a, i));
                    return a;
                }
            }
        }
        // gcc keeps a call assigned to an element as the assignment's own statement: the
        // call's arguments, then the indices, then the call (rule 3 of the module docs).
        if let Place::Element { indices, .. } = place {
            // The left operands of commas in the value come first.
            let mut last = value;
            while let ExprKind::Comma { rhs, .. } = &last.kind {
                last = rhs;
            }
            if matches!(last.kind, ExprKind::Call { .. } | ExprKind::Builtin { .. })
                && !indices.iter().all(is_unobservable)
            {
                let mut v = value;
                while let ExprKind::Comma { lhs, rhs } = &v.kind {
                    self.effect(lhs);
                    v = rhs;
                }
                return self.assign_call(e, place, last, dst);
            }
        }
        // Otherwise the value first, then the place's indices.
        let v = self.expr(value, None);
        let indices_write = match place {
            Place::Element { indices, .. } => indices.iter().any(writes_locals),
            _ => false,
        };
        let v = if indices_write && self.is_local_reg(v) {
            // Keep the stored value even if evaluating the indices changes that local.
            let t = self.alloc();
            self.emit(Instr::Mov { a: t, b: v });
            t
        } else {
            v
        };
        let loc = self.place(place);
        self.at(e.span);
        self.store(loc, v);
        self.finish(v, dst)
    }

    /// `a[i]..[k] = call(args)` in gcc's order: the arguments, the indices, the call, the store.
    pub(super) fn assign_call(
        &mut self,
        e: &Expr,
        place: &Place,
        value: &Expr,
        dst: Option<Reg>,
    ) -> Reg {
        let v = match &value.kind {
            ExprKind::Call { func, args } => {
                // The element's reference and index live below the callee's window.
                let aref = self.alloc();
                let idx = self.alloc();
                let base = self.free;
                self.call_args(value, args);
                let top = self.free;
                let loc = self.place_into(place, aref, idx);
                self.free = top;
                let a = Reg(base.min(u32::from(u16::MAX)) as u16);
                self.max_regs = self.max_regs.max(base + 1);
                self.at(value.span);
                self.emit(Instr::Call {
                    a,
                    f: crate::bytecode::FuncIdx(func.0 as u16),
                });
                self.free = base + 1;
                self.at(e.span);
                self.store(loc, a);
                a
            }
            ExprKind::Builtin { func, args } => {
                let regs = self.builtin_args(args);
                let loc = self.place(place);
                let d = self.alloc();
                self.builtin_emit(value, *func, &regs, Some(d));
                self.at(e.span);
                self.store(loc, d);
                d
            }
            _ => {
                let v = self.expr(value, None);
                let loc = self.place(place);
                self.at(e.span);
                self.store(loc, v);
                v
            }
        };
        self.finish(v, dst)
    }

    /// Resolves an element place into the given registers (reference of the innermost row,
    /// unless it is the array's own register, and index), so that they survive a call whose
    /// window lies above them.
    pub(super) fn place_into(&mut self, place: &Place, aref: Reg, idx: Reg) -> Loc {
        let Place::Element { array, indices } = place else {
            return self.place(place);
        };
        let mark = self.free;
        let (prefix, last) = indices.split_at(indices.len().saturating_sub(1));
        let a = if prefix.is_empty() {
            self.array_base(*array).0
        } else {
            self.sub_array(*array, prefix, Some(aref))
        };
        if let Some(i) = last.first() {
            self.expr(i, Some(idx));
        }
        self.free = mark;
        Loc::Elem(a, idx, self.place_type(place))
    }

    pub(super) fn compound(
        &mut self,
        e: &Expr,
        place: &Place,
        op: BinaryOp,
        op_ty: ScalarType,
        value: &Expr,
        dst: Option<Reg>,
    ) -> Reg {
        let pty = self.place_type(place);
        if op_ty == ScalarType::Ptr {
            return self.pointer_compound(e, place, op, value, dst);
        }
        // gcc evaluates a right operand with side effects before the place (rule 4 of the
        // module docs); for a scalar local the order cannot be observed.
        let pre = if place_local(place).is_none() && has_side_effects(value) {
            let v = self.expr(value, None);
            let indices_write = match place {
                Place::Element { indices, .. } => indices.iter().any(writes_locals),
                _ => false,
            };
            Some(if indices_write && self.is_local_reg(v) {
                let t = self.alloc();
                self.emit(Instr::Mov { a: t, b: v });
                t
            } else {
                v
            })
        } else {
            None
        };
        let loc = self.place(place);
        // Current value, converted to the operation's type.
        let cur = match loc {
            Loc::Reg(r) => r,
            _ => {
                let t = self.alloc();
                self.at(e.span);
                self.load(loc, t);
                t
            }
        };
        let mark = self.free;
        let lhs = if pty == op_ty {
            cur
        } else {
            self.at(e.span);
            self.convert(cur, pty, op_ty, None)
        };
        let imm = match (op, self.int_const(value).filter(|_| pre.is_none())) {
            (BinaryOp::Add, Some(c)) => i16::try_from(c).ok(),
            (BinaryOp::Sub, Some(c)) => c.checked_neg().and_then(|c| i16::try_from(c).ok()),
            _ => None,
        }
        .filter(|_| op_ty.is_integer());
        let result_reg = if pty == op_ty {
            match loc {
                Loc::Reg(r) => r,
                _ => cur,
            }
        } else {
            self.alloc()
        };
        match imm {
            Some(imm) => {
                self.at(e.span);
                let ins = match op_ty {
                    ScalarType::UInt => Instr::AddIU32 {
                        a: result_reg,
                        b: lhs,
                        imm,
                    },
                    ScalarType::Long | ScalarType::ULong => Instr::AddI64 {
                        a: result_reg,
                        b: lhs,
                        imm,
                    },
                    _ => Instr::AddI32 {
                        a: result_reg,
                        b: lhs,
                        imm,
                    },
                };
                self.emit(ins);
            }
            None => match self
                .int_const(value)
                .filter(|_| pre.is_none())
                .and_then(|c| immediate_form(op, op_ty, c))
            {
                Some(mk) => {
                    self.at(e.span);
                    self.emit(mk(result_reg, lhs));
                }
                None => {
                    let r = match pre {
                        Some(r) => r,
                        None => self.expr(value, None),
                    };
                    self.at(e.span);
                    self.emit(binary_instr(op, op_ty, result_reg, lhs, r));
                }
            },
        }
        // Operand temporaries are dead; `cur`, the place's registers and the local are below.
        self.free = mark;
        let stored = if pty == op_ty {
            result_reg
        } else {
            self.at(e.span);
            match loc {
                Loc::Reg(r) => self.convert(result_reg, op_ty, pty, Some(r)),
                _ => self.convert(result_reg, op_ty, pty, Some(cur)),
            }
        };
        self.at(e.span);
        if !matches!(loc, Loc::Reg(_)) {
            self.store(loc, stored);
        }
        if let Loc::Bits(..) = loc {
            // The value is the field's new value: truncated to its width.
            self.load(loc, stored);
        }
        self.finish(stored, dst)
    }

    pub(super) fn inc_dec(
        &mut self,
        e: &Expr,
        place: &Place,
        (increment, prefix, scale): (bool, bool, i64),
        dst: Option<Reg>,
    ) -> Reg {
        let ty = self.place_type(place);
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
        // The old value of a postfix form (`effect` asks for the prefix form when the value
        // is unused).
        let old = if !prefix {
            let t = dst
                .filter(|d| !self.is_local_reg(*d))
                .unwrap_or_else(|| self.alloc());
            self.emit(Instr::Mov { a: t, b: cur });
            Some(t)
        } else {
            None
        };
        let imm: i16 = if increment { 1 } else { -1 };
        match ty {
            ScalarType::Double | ScalarType::Float => {
                let one = self.alloc();
                // 1.0 as a float register is the double 1.0.
                let bits = if increment { 1.0f64 } else { -1.0f64 }.to_bits();
                self.load_bits(one, bits);
                let (a, b, c) = (cur, cur, one);
                self.emit(if ty == ScalarType::Float {
                    Instr::AddF32 { a, b, c }
                } else {
                    Instr::AddF { a, b, c }
                });
            }
            ScalarType::Int => {
                self.emit(Instr::AddI32 {
                    a: cur,
                    b: cur,
                    imm,
                });
            }
            ScalarType::UInt => {
                self.emit(Instr::AddIU32 {
                    a: cur,
                    b: cur,
                    imm,
                });
            }
            ScalarType::Ptr => {
                let step = if increment { scale } else { -scale };
                self.pointer_step(cur, cur, step);
            }
            ScalarType::Long | ScalarType::ULong => {
                self.emit(Instr::AddI64 {
                    a: cur,
                    b: cur,
                    imm,
                });
            }
            // The types narrower than `int`: add in 64 bits, then convert back (for `_Bool`,
            // `!= 0`: `b++` gives 1, `b--` flips it).
            ScalarType::Bool
            | ScalarType::Char
            | ScalarType::UChar
            | ScalarType::Short
            | ScalarType::UShort => {
                self.emit(Instr::AddI64 {
                    a: cur,
                    b: cur,
                    imm,
                });
                self.emit(narrow_instr(ty, cur, cur));
            }
        }
        if !matches!(loc, Loc::Reg(_)) {
            self.store(loc, cur);
        }
        if let (Loc::Bits(..), None) = (loc, old) {
            // A prefix form's value is the field's new value: truncated to its width.
            self.load(loc, cur);
        }
        match old {
            Some(t) => self.finish(t, dst),
            None => self.finish(cur, dst),
        }
    }
}
