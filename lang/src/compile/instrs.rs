//! The bytecode instruction for an operation at a scalar type: arithmetic, comparisons,
//! narrowing conversions, loads and stores of globals, array elements and memory through
//! pointers (with their immediate forms). The leaf of the expression compiler.

use super::is_unsigned;
use crate::bytecode::{Addr, Instr, Reg};
use crate::hir::{BinaryOp, CompareOp, ScalarType};

/// An immediate-operand instruction for `x op c` in type `ty` (`c` the constant's canonical
/// value), if one applies: `c` must fit in 16 bits, divisors must be non-zero and shift counts
/// in range (otherwise the register form keeps the run-time trap).
pub(super) fn immediate_form(
    op: BinaryOp,
    ty: ScalarType,
    c: i64,
) -> Option<Box<dyn Fn(Reg, Reg) -> Instr>> {
    use ScalarType::*;
    let imm = i16::try_from(c).ok()?;
    let bits = i64::from(ty.bits());
    let f: Box<dyn Fn(Reg, Reg) -> Instr> = match (op, ty) {
        (_, Float | Double) => return None,
        (BinaryOp::Mul, UInt) => Box::new(move |a, b| Instr::MulIU32 { a, b, imm }),
        (BinaryOp::Mul, Long | ULong) => Box::new(move |a, b| Instr::MulI64 { a, b, imm }),
        (BinaryOp::Mul, _) => Box::new(move |a, b| Instr::MulI32 { a, b, imm }),
        (BinaryOp::Div | BinaryOp::Rem, _) if imm == 0 => return None,
        (BinaryOp::Div, UInt | ULong) => Box::new(move |a, b| Instr::DivIU { a, b, imm }),
        (BinaryOp::Div, Long) => Box::new(move |a, b| Instr::DivI64 { a, b, imm }),
        (BinaryOp::Div, _) => Box::new(move |a, b| Instr::DivI32 { a, b, imm }),
        (BinaryOp::Rem, UInt | ULong) => Box::new(move |a, b| Instr::RemIU { a, b, imm }),
        (BinaryOp::Rem, _) => Box::new(move |a, b| Instr::RemIS { a, b, imm }),
        (BinaryOp::BitAnd, _) => Box::new(move |a, b| Instr::AndI { a, b, imm }),
        (BinaryOp::Shl | BinaryOp::Shr, _) if c < 0 || c >= bits => return None,
        (BinaryOp::Shl, UInt) => Box::new(move |a, b| Instr::ShlIU32 { a, b, imm }),
        (BinaryOp::Shl, Long | ULong) => Box::new(move |a, b| Instr::ShlI64 { a, b, imm }),
        (BinaryOp::Shl, _) => Box::new(move |a, b| Instr::ShlI32 { a, b, imm }),
        (BinaryOp::Shr, UInt | ULong) => Box::new(move |a, b| Instr::ShrI { a, b, imm }),
        (BinaryOp::Shr, _) => Box::new(move |a, b| Instr::SarI { a, b, imm }),
        _ => return None,
    };
    Some(f)
}

/// The instruction computing `l op r` in type `ty` into `d`.
pub(super) fn binary_instr(op: BinaryOp, ty: ScalarType, d: Reg, l: Reg, r: Reg) -> Instr {
    use ScalarType::*;
    let (a, b, c) = (d, l, r);
    match (op, ty) {
        (BinaryOp::Add, Double) => Instr::AddF { a, b, c },
        (BinaryOp::Add, Float) => Instr::AddF32 { a, b, c },
        (BinaryOp::Add, UInt) => Instr::AddU32 { a, b, c },
        (BinaryOp::Add, Long | ULong) => Instr::Add64 { a, b, c },
        (BinaryOp::Add, _) => Instr::Add32 { a, b, c },
        (BinaryOp::Sub, Double) => Instr::SubF { a, b, c },
        (BinaryOp::Sub, Float) => Instr::SubF32 { a, b, c },
        (BinaryOp::Sub, UInt) => Instr::SubU32 { a, b, c },
        (BinaryOp::Sub, Long | ULong) => Instr::Sub64 { a, b, c },
        (BinaryOp::Sub, _) => Instr::Sub32 { a, b, c },
        (BinaryOp::Mul, Double) => Instr::MulF { a, b, c },
        (BinaryOp::Mul, Float) => Instr::MulF32 { a, b, c },
        (BinaryOp::Mul, UInt) => Instr::MulU32 { a, b, c },
        (BinaryOp::Mul, Long | ULong) => Instr::Mul64 { a, b, c },
        (BinaryOp::Mul, _) => Instr::Mul32 { a, b, c },
        (BinaryOp::Div, Double) => Instr::DivF { a, b, c },
        (BinaryOp::Div, Float) => Instr::DivF32 { a, b, c },
        (BinaryOp::Div, UInt | ULong) => Instr::DivU { a, b, c },
        (BinaryOp::Div, Long) => Instr::Div64 { a, b, c },
        (BinaryOp::Div, _) => Instr::Div32 { a, b, c },
        (BinaryOp::Rem, UInt | ULong) => Instr::RemU { a, b, c },
        (BinaryOp::Rem, _) => Instr::RemS { a, b, c },
        (BinaryOp::BitAnd, _) => Instr::And { a, b, c },
        (BinaryOp::BitOr, _) => Instr::Or { a, b, c },
        (BinaryOp::BitXor, _) => Instr::Xor { a, b, c },
        (BinaryOp::Shl, UInt) => Instr::ShlU32 { a, b, c },
        (BinaryOp::Shl, Long | ULong) => Instr::Shl64 { a, b, c },
        (BinaryOp::Shl, _) => Instr::Shl32 { a, b, c },
        (BinaryOp::Shr, UInt) => Instr::Shr32 { a, b, c },
        (BinaryOp::Shr, ULong) => Instr::Shr64 { a, b, c },
        (BinaryOp::Shr, Long) => Instr::Sar64 { a, b, c },
        (BinaryOp::Shr, _) => Instr::Sar32 { a, b, c },
    }
}

/// The instruction computing the comparison `l op r` of two `ty` values as 0/1 into `d`.
pub(super) fn compare_instr(op: CompareOp, ty: ScalarType, d: Reg, l: Reg, r: Reg) -> Instr {
    let a = d;
    if ty.is_floating() {
        return match op {
            CompareOp::Eq => Instr::EqF { a, b: l, c: r },
            CompareOp::Ne => Instr::NeF { a, b: l, c: r },
            CompareOp::Lt => Instr::LtF { a, b: l, c: r },
            CompareOp::Le => Instr::LeF { a, b: l, c: r },
            CompareOp::Gt => Instr::LtF { a, b: r, c: l },
            CompareOp::Ge => Instr::LeF { a, b: r, c: l },
        };
    }
    let u = is_unsigned(ty);
    match op {
        CompareOp::Eq => Instr::Eq { a, b: l, c: r },
        CompareOp::Ne => Instr::Ne { a, b: l, c: r },
        CompareOp::Lt if u => Instr::LtU { a, b: l, c: r },
        CompareOp::Le if u => Instr::LeU { a, b: l, c: r },
        CompareOp::Gt if u => Instr::LtU { a, b: r, c: l },
        CompareOp::Ge if u => Instr::LeU { a, b: r, c: l },
        CompareOp::Lt => Instr::Lt { a, b: l, c: r },
        CompareOp::Le => Instr::Le { a, b: l, c: r },
        CompareOp::Gt => Instr::Lt { a, b: r, c: l },
        CompareOp::Ge => Instr::Le { a, b: r, c: l },
    }
}

/// Whether converting a canonical `from` value to `to` leaves the register unchanged: the same
/// type, `float` to `double` (a float register already holds the equal double), an integer
/// type whose values all belong to the target integer type, or any integer to a 64-bit one
/// (the canonical form of every integer value is its 64-bit two's complement pattern).
pub(super) fn is_noop_conversion(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::*;
    if from == to || (from, to) == (Float, Double) {
        return true;
    }
    if !(from.is_integer() && to.is_integer()) {
        return false;
    }
    let range = |t: ScalarType| -> (i128, i128) {
        let bits = t.bits();
        match t {
            Bool => (0, 1),
            _ if t.is_signed() => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            _ => (0, (1i128 << bits) - 1),
        }
    };
    let ((flo, fhi), (tlo, thi)) = (range(from), range(to));
    to.bits() == 64 || (tlo <= flo && fhi <= thi)
}

/// The instruction that converts an integer in `b` to the integer type `to` narrower than
/// `long` (truncating and extending, or `!= 0` for `_Bool`), into `a`.
pub(super) fn narrow_instr(to: ScalarType, a: Reg, b: Reg) -> Instr {
    use ScalarType::*;
    match to {
        Bool => Instr::ToBool { a, b },
        Char => Instr::Sext8 { a, b },
        UChar => Instr::Zext8 { a, b },
        Short => Instr::Sext16 { a, b },
        UShort => Instr::Zext16 { a, b },
        Int => Instr::Sext32 { a, b },
        UInt => Instr::Zext32 { a, b },
        Long | ULong | Float | Double | Ptr => Instr::Mov { a, b },
    }
}

/// `GetG*` for a global scalar of type `ty`: the load of its width that extends to the
/// register's canonical form.
pub(super) fn get_global(ty: ScalarType, a: Reg, g: Addr) -> Instr {
    use ScalarType::*;
    match ty {
        Char => Instr::GetG8S { a, g },
        Bool | UChar => Instr::GetG8U { a, g },
        Short => Instr::GetG16S { a, g },
        UShort => Instr::GetG16U { a, g },
        Int => Instr::GetG32S { a, g },
        UInt => Instr::GetG32U { a, g },
        Float => Instr::GetGF32 { a, g },
        Long | ULong | Double | Ptr => Instr::GetG64 { a, g },
    }
}

/// `SetG*` for a global scalar of type `ty` (a store of its width).
pub(super) fn set_global(ty: ScalarType, a: Reg, g: Addr) -> Instr {
    use ScalarType::*;
    match ty {
        Bool | Char | UChar => Instr::SetG8 { a, g },
        Short | UShort => Instr::SetG16 { a, g },
        Int | UInt => Instr::SetG32 { a, g },
        Float => Instr::SetGF32 { a, g },
        Long | ULong | Double | Ptr => Instr::SetG64 { a, g },
    }
}

/// `LdE*` for an element of type `ty`: the load of its width that extends to the register's
/// canonical form.
pub(super) fn load_elem(ty: ScalarType, a: Reg, b: Reg, c: Reg) -> Instr {
    use ScalarType::*;
    match ty {
        Char => Instr::LdE8S { a, b, c },
        Bool | UChar => Instr::LdE8U { a, b, c },
        Short => Instr::LdE16S { a, b, c },
        UShort => Instr::LdE16U { a, b, c },
        Int => Instr::LdE32S { a, b, c },
        UInt => Instr::LdE32U { a, b, c },
        Float => Instr::LdEF32 { a, b, c },
        Long | ULong | Double | Ptr => Instr::LdE64 { a, b, c },
    }
}

/// `StE*` for an element of type `ty` (a store of its width).
pub(super) fn store_elem(ty: ScalarType, a: Reg, b: Reg, c: Reg) -> Instr {
    use ScalarType::*;
    match ty {
        Bool | Char | UChar => Instr::StE8 { a, b, c },
        Short | UShort => Instr::StE16 { a, b, c },
        Int | UInt => Instr::StE32 { a, b, c },
        Float => Instr::StEF32 { a, b, c },
        Long | ULong | Double | Ptr => Instr::StE64 { a, b, c },
    }
}

/// `LdP*` for a value of type `ty` at `p + imm`.
pub(super) fn load_ptr(ty: ScalarType, a: Reg, b: Reg, imm: i16) -> Instr {
    use ScalarType::*;
    match ty {
        Char => Instr::LdP8S { a, b, imm },
        Bool | UChar => Instr::LdP8U { a, b, imm },
        Short => Instr::LdP16S { a, b, imm },
        UShort => Instr::LdP16U { a, b, imm },
        Int => Instr::LdP32S { a, b, imm },
        UInt => Instr::LdP32U { a, b, imm },
        Float => Instr::LdPF32 { a, b, imm },
        Long | ULong | Double | Ptr => Instr::LdP64 { a, b, imm },
    }
}

/// `StP*` for a value of type `ty` at `p + imm`.
pub(super) fn store_ptr(ty: ScalarType, a: Reg, b: Reg, imm: i16) -> Instr {
    use ScalarType::*;
    match ty {
        Bool | Char | UChar => Instr::StP8 { a, b, imm },
        Short | UShort => Instr::StP16 { a, b, imm },
        Int | UInt => Instr::StP32 { a, b, imm },
        Float => Instr::StPF32 { a, b, imm },
        Long | ULong | Double | Ptr => Instr::StP64 { a, b, imm },
    }
}

/// `StEI*` of the width of `ty`: the immediate is the value's bits (for `float`, only 0).
pub(super) fn store_elem_imm(ty: ScalarType, imm: i16, b: Reg, c: Reg) -> Instr {
    match ty.bytes() {
        1 => Instr::StEI8 { imm, b, c },
        2 => Instr::StEI16 { imm, b, c },
        4 => Instr::StEI32 { imm, b, c },
        _ => Instr::StEI64 { imm, b, c },
    }
}
