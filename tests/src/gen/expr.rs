//! Expression generation. Every expression comes with its C type (computed with C's rules in
//! [`super::types`]) and its [`Effects`], so that the generator can keep it well defined:
//!
//! - integer division and remainder are guarded against a zero divisor and `MIN / -1`
//!   (inline when both operands are side-effect free, else through the `div_*`/`mod_*`
//!   helpers of the prelude);
//! - shift counts are masked below the promoted width, and signed left operands of `<<` are
//!   masked non-negative and small enough not to overflow;
//! - a double or float is converted to an integer type (other than `_Bool`) only inside a
//!   range check (`d2*` helpers or an inline `?:`), because an out-of-range conversion is
//!   undefined;
//! - array indices are reduced modulo the dimension (or are loop counters known in range);
//! - unsequenced operands never conflict (see [`super::effects`]).

use super::effects::{Effects, Forbid, VarId, STDOUT};
use super::types::{usual, Ty, ALL_TYPES, INT_TYPES};
use super::Gen;

/// A generated expression.
#[derive(Clone, Debug)]
pub struct Ex {
    /// C source text (parenthesised unless it is a literal or a name).
    pub text: String,
    /// Its C type (after C's rules; `Char` only for char-typed lvalues, casts and helpers).
    pub ty: Ty,
    /// What it reads and writes.
    pub eff: Effects,
}

impl Ex {
    /// An expression from its parts.
    pub(super) fn new(text: String, ty: Ty, eff: Effects) -> Ex {
        Ex { text, ty, eff }
    }

    /// True if it has no side effects.
    pub fn is_pure(&self) -> bool {
        self.eff.is_pure()
    }

    /// True if it reads no variable and has no side effects (gcc may fold it).
    pub fn is_constant(&self) -> bool {
        self.eff.reads.is_empty() && self.eff.writes.is_empty()
    }
}

/// An assignable place: a scalar variable or an array element, or (pointer features) a
/// scalar member or pointee.
pub(super) struct Place {
    /// Its C text.
    pub(super) text: String,
    /// Its type (`int` for a bit-field).
    pub(super) ty: Ty,
    /// The variable whose storage it is.
    pub(super) var: VarId,
    /// The effects of its indices.
    pub(super) index_eff: Effects,
    /// A bit-field: signed, width. A signed one is only assigned values in its range.
    pub(super) bits: Option<(bool, u32)>,
}

/// The exclusive range of doubles whose truncation fits an integer type.
fn double_range(ty: Ty) -> (&'static str, &'static str) {
    match ty {
        Ty::Bool => ("-1e308", "1e308"),
        Ty::Char => ("-128.0", "128.0"),
        Ty::UChar => ("-1.0", "256.0"),
        Ty::Short => ("-32769.0", "32768.0"),
        Ty::UShort => ("-1.0", "65536.0"),
        Ty::Int => ("-2147483648.0", "2147483648.0"),
        Ty::UInt => ("-1.0", "4294967296.0"),
        Ty::Long => ("-9223372036854775808.0", "9223372036854775808.0"),
        Ty::ULong => ("-1.0", "18446744073709551616.0"),
        Ty::Float | Ty::Double => unreachable!("not an integer type"),
    }
}

impl Gen {
    /// A random expression of at most `depth` levels obeying `f`.
    pub(super) fn expr(&mut self, depth: u32, f: &Forbid) -> Ex {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(f);
        }
        let d = depth - 1;
        if self.cfg.pointers && self.rng.chance(12) {
            if let Some(e) = self.object_expr(d, f) {
                return e;
            }
        }
        let choice = self
            .rng
            .weighted(&[12, 4, 5, 5, 6, 4, 4, 4, 3, 2, 2, 2, 3, 3, 1, 3]);
        let made = match choice {
            0 => Some(self.arith(d, f)),
            1 => Some(self.divmod(d, f)),
            2 => Some(self.bitwise(d, f)),
            3 => Some(self.shift(d, f)),
            4 => Some(self.compare(d, f)),
            5 => Some(self.logical(d, f)),
            6 => Some(self.unary(d, f)),
            7 => Some(self.cast(d, f)),
            8 => Some(self.conditional(d, f)),
            9 => self.assign(d, f),
            10 => self.compound(d, f),
            11 => self.incdec(d, f),
            12 => self.call_expr(d, f),
            13 => self.builtin(d, f),
            14 => self.comma(d, f),
            _ => self.array_read(d, f),
        };
        match made {
            // Now and then through GNU C's statement expression and `__typeof__`.
            Some(e) if !e.is_constant() && self.rng.chance(4) => self.statement_expression(e),
            Some(e) => e,
            None => self.leaf(f),
        }
    }

    /// `e` as `({ __typeof__(T) se = (e); se; })` (or with the type spelled), the same value
    /// of the same type; the block's variable shadows nothing the program names.
    fn statement_expression(&mut self, e: Ex) -> Ex {
        let name = self.fresh_name("se");
        let ty = if self.rng.chance(50) {
            format!("__typeof__({})", e.ty.c_name())
        } else {
            e.ty.c_name().to_string()
        };
        Ex::new(
            format!("({{ {ty} {name} = ({}); {name}; }})", e.text),
            e.ty,
            e.eff,
        )
    }

    /// An expression of integer type (doubles are converted with a range check).
    pub(super) fn int_expr(&mut self, depth: u32, f: &Forbid) -> Ex {
        let e = self.expr(depth, f);
        if e.ty.is_floating() {
            let target = *self.rng.pick(&INT_TYPES);
            self.double_to_int(e, target)
        } else {
            e
        }
    }

    /// Converts `e` to a value assignable to a place of type `target` without undefined
    /// behaviour (only doubles going to integer types need a range check).
    pub(super) fn convertible_to(&mut self, e: Ex, target: Ty) -> Ex {
        if e.ty.is_floating() && target.is_integer() {
            self.double_to_int(e, target)
        } else {
            e
        }
    }

    /// Converts a double or float expression to integer type `target` inside a range check
    /// (none for `_Bool`: every value converts).
    pub(super) fn double_to_int(&mut self, e: Ex, target: Ty) -> Ex {
        if target == Ty::Bool {
            return Ex::new(format!("((_Bool)({}))", e.text), Ty::Bool, e.eff);
        }
        let (lo, hi) = double_range(target);
        if e.is_pure() && e.text.len() < 80 && self.rng.chance(50) {
            let t = &e.text;
            let text = format!(
                "({t} > {lo} && {t} < {hi} ? ({})({t}) : {})",
                target.c_name(),
                self.rng.range(-3, 3)
            );
            Ex::new(text, usual(target, Ty::Int), e.eff)
        } else {
            Ex::new(format!("d2{}({})", target.tag(), e.text), target, e.eff)
        }
    }

    /// A literal, a variable read or an array element read (or a member or pointee read).
    pub(super) fn leaf(&mut self, f: &Forbid) -> Ex {
        if self.cfg.pointers && self.rng.chance(25) {
            if let Some(e) = self.object_read(0, f) {
                return e;
            }
        }
        match self.rng.below(20) {
            0..=6 => self.literal(),
            7..=16 => self.var_read(f).unwrap_or_else(|| self.literal()),
            _ => self.array_read(0, f).unwrap_or_else(|| self.literal()),
        }
    }

    fn literal(&mut self) -> Ex {
        if self.rng.chance(8) {
            return self.named_constant();
        }
        let ty = *self.rng.pick(&[
            Ty::Char,
            Ty::Int,
            Ty::Int,
            Ty::Int,
            Ty::UInt,
            Ty::Long,
            Ty::ULong,
            Ty::Double,
            Ty::Double,
            Ty::Float,
            Ty::Short,
            Ty::UChar,
            Ty::UShort,
            Ty::Bool,
        ]);
        let text = ty.random_literal(&mut self.rng);
        // character constants have type int in C
        let ty = if ty == Ty::Char && text.starts_with('\'') {
            Ty::Int
        } else {
            ty
        };
        Ex::new(text, ty, Effects::none())
    }

    fn var_read(&mut self, f: &Forbid) -> Option<Ex> {
        let cands: Vec<VarId> = self
            .visible()
            .into_iter()
            .filter(|&v| {
                let var = &self.vars[v as usize];
                var.dims.is_empty() && var.plain() && f.may_read(v)
            })
            .collect();
        if cands.is_empty() {
            return None;
        }
        let v = *self.rng.pick(&cands);
        let pasted = self.rng.chance(5);
        let var = &self.vars[v as usize];
        let text = match var.name.find(|c: char| c.is_ascii_digit()) {
            // `v12` as `PASTE(v, 12)`: the prelude's `##` macro.
            Some(at) if pasted && at > 0 => {
                format!("PASTE({}, {})", &var.name[..at], &var.name[at..])
            }
            _ => var.name.clone(),
        };
        Some(Ex::new(text, var.ty, Effects::read(v)))
    }

    /// An index expression in `0..n`.
    pub(super) fn index(&mut self, n: u32, depth: u32, f: &Forbid) -> Ex {
        let counters: Vec<VarId> = self
            .visible()
            .into_iter()
            .filter(|&v| {
                let var = &self.vars[v as usize];
                var.dims.is_empty() && var.bound.is_some_and(|b| b <= n) && f.may_read(v)
            })
            .collect();
        if !counters.is_empty() && self.rng.chance(40) {
            let v = *self.rng.pick(&counters);
            return Ex::new(
                self.vars[v as usize].name.clone(),
                self.vars[v as usize].ty,
                Effects::read(v),
            );
        }
        // now and then an index with a side effect: `a[i++] += 1` must evaluate it once
        let e = match self.rng.chance(12) {
            true => self
                .incdec(0, f)
                .filter(|e| e.ty.is_integer())
                .unwrap_or_else(|| self.int_expr(depth, f)),
            false => self.int_expr(depth, f),
        };
        if n.is_power_of_two() && self.rng.chance(50) {
            Ex::new(
                format!("({} & {})", e.text, n - 1),
                usual(e.ty, Ty::Int),
                e.eff,
            )
        } else {
            Ex::new(format!("(unsigned)({}) % {}u", e.text, n), Ty::UInt, e.eff)
        }
    }

    /// `name[i]...` for an array variable: the indices (unsequenced with each other) and
    /// their effects. The indices never touch the array itself.
    fn element(&mut self, v: VarId, depth: u32, f: &Forbid) -> (String, Effects) {
        let var = self.vars[v as usize].clone();
        let mut text = var.name.clone();
        let mut eff = Effects::none();
        let base = f.without_access(v);
        for &n in &var.dims {
            // a string buffer's last element is never written (nor anything its index picks)
            let n = if var.nul_last { n - 1 } else { n };
            let i = self.index(n, depth, &base.after(&eff));
            text.push('[');
            text.push_str(&i.text);
            text.push(']');
            eff.union_with(&i.eff);
        }
        (text, eff)
    }

    pub(super) fn array_read(&mut self, depth: u32, f: &Forbid) -> Option<Ex> {
        let cands: Vec<VarId> = self
            .visible()
            .into_iter()
            .filter(|&v| {
                let var = &self.vars[v as usize];
                !var.dims.is_empty() && var.plain() && f.may_read(v)
            })
            .collect();
        if cands.is_empty() {
            return None;
        }
        let v = *self.rng.pick(&cands);
        let (text, mut eff) = self.element(v, depth.min(1), f);
        eff.reads.insert(v);
        Some(Ex::new(text, self.vars[v as usize].ty, eff))
    }

    fn arith(&mut self, d: u32, f: &Forbid) -> Ex {
        let l = self.expr(d, f);
        let r = self.expr(d, &f.after(&l.eff));
        let op = *self.rng.pick(&["+", "-", "*", "+", "-"]);
        let text = if self.rng.chance(15) {
            // The same expression through a function-like macro of the prelude.
            super::macros::macro_call(op, &l.text, &r.text)
        } else {
            format!("({} {op} {})", l.text, r.text)
        };
        Ex::new(text, usual(l.ty, r.ty), l.eff.union(&r.eff))
    }

    fn divmod(&mut self, d: u32, f: &Forbid) -> Ex {
        let rem = self.rng.chance(40);
        let (mut l, mut r);
        if rem {
            l = self.int_expr(d, f);
            r = self.int_expr(d, &f.after(&l.eff));
        } else {
            l = self.expr(d, f);
            r = self.expr(d, &f.after(&l.eff));
        }
        let ty = usual(l.ty, r.ty);
        let op = if rem { "%" } else { "/" };
        if ty.is_floating() {
            // IEEE division is defined for a zero divisor, but gcc warns about a constant one
            if r.is_constant() {
                if let Some(v) = self.var_read(&f.after(&l.eff)) {
                    r = Ex::new(
                        format!("({} - {})", r.text, v.text),
                        usual(r.ty, v.ty),
                        v.eff,
                    );
                }
            }
            let eff = l.eff.clone().union(&r.eff);
            return Ex::new(format!("({} / {})", l.text, r.text), usual(l.ty, r.ty), eff);
        }
        let eff = l.eff.clone().union(&r.eff);
        if l.is_pure()
            && r.is_pure()
            && !r.is_constant()
            && l.text.len() + r.text.len() < 90
            && self.rng.chance(60)
        {
            let (lt, rt) = (&l.text, &r.text);
            let text = if ty.is_signed_integer() {
                format!(
                    "({rt} != 0 && !({lt} == {} && {rt} == -1) ? {lt} {op} {rt} : {lt})",
                    ty.min_literal()
                )
            } else {
                format!("({rt} != 0 ? {lt} {op} {rt} : {lt})")
            };
            return Ex::new(text, ty, eff);
        }
        // keep narrow operands typed as int for the helpers
        l.ty = l.ty.promote();
        r.ty = r.ty.promote();
        let name = if rem { "mod" } else { "div" };
        Ex::new(
            format!("{name}_{}({}, {})", ty.tag(), l.text, r.text),
            ty,
            eff,
        )
    }

    fn bitwise(&mut self, d: u32, f: &Forbid) -> Ex {
        let l = self.int_expr(d, f);
        let r = self.int_expr(d, &f.after(&l.eff));
        let op = *self.rng.pick(&["&", "|", "^"]);
        Ex::new(
            format!("({} {op} {})", l.text, r.text),
            usual(l.ty, r.ty),
            l.eff.union(&r.eff),
        )
    }

    fn shift(&mut self, d: u32, f: &Forbid) -> Ex {
        let l = self.int_expr(d, f);
        let c = self.int_expr(d.min(1), &f.after(&l.eff));
        let p = l.ty.promote();
        let eff = l.eff.union(&c.eff);
        let (lt, ct) = (&l.text, &c.text);
        let text = if self.rng.chance(50) {
            match p {
                Ty::Int => format!("(({lt} & 65535) << ({ct} & 15))"),
                Ty::UInt => format!("({lt} << ({ct} & 31))"),
                Ty::Long => format!("(({lt} & 0xffffffffL) << ({ct} & 31))"),
                _ => format!("({lt} << ({ct} & 63))"),
            }
        } else {
            let mask = if p.bits() == 64 { 63 } else { 31 };
            format!("({lt} >> ({ct} & {mask}))")
        };
        Ex::new(text, p, eff)
    }

    fn compare(&mut self, d: u32, f: &Forbid) -> Ex {
        let l = self.expr(d, f);
        let r = self.expr(d, &f.after(&l.eff));
        let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
        Ex::new(
            format!("({} {op} {})", l.text, r.text),
            Ty::Int,
            l.eff.union(&r.eff),
        )
    }

    fn logical(&mut self, d: u32, f: &Forbid) -> Ex {
        if self.rng.chance(25) {
            let e = self.expr(d, f);
            return Ex::new(format!("(!{})", e.text), Ty::Int, e.eff);
        }
        // the right operand is sequenced after the left one
        let l = self.expr(d, f);
        let r = self.expr(d, f);
        let op = if self.rng.chance(50) { "&&" } else { "||" };
        Ex::new(
            format!("({} {op} {})", l.text, r.text),
            Ty::Int,
            l.eff.union(&r.eff),
        )
    }

    fn unary(&mut self, d: u32, f: &Forbid) -> Ex {
        let e = self.expr(d, f);
        match self.rng.below(3) {
            0 => Ex::new(format!("(-({}))", e.text), e.ty.promote(), e.eff),
            1 => Ex::new(format!("(+({}))", e.text), e.ty.promote(), e.eff),
            _ => {
                let e = if e.ty.is_floating() {
                    self.double_to_int(e, Ty::Long)
                } else {
                    e
                };
                Ex::new(format!("(~({}))", e.text), e.ty.promote(), e.eff)
            }
        }
    }

    fn cast(&mut self, d: u32, f: &Forbid) -> Ex {
        let e = self.expr(d, f);
        let target = *self.rng.pick(&super::types::ALL_TYPES);
        if e.ty.is_floating() && target.is_integer() {
            return self.double_to_int(e, target);
        }
        Ex::new(
            format!("(({})({}))", target.c_name(), e.text),
            target,
            e.eff,
        )
    }

    fn conditional(&mut self, d: u32, f: &Forbid) -> Ex {
        // the condition is sequenced before the chosen arm
        let c = self.expr(d, f);
        let a = self.expr(d, f);
        let b = self.expr(d, f);
        let eff = c.eff.union(&a.eff).union(&b.eff);
        Ex::new(
            format!("({} ? {} : {})", c.text, a.text, b.text),
            usual(a.ty, b.ty),
            eff,
        )
    }

    fn place(&mut self, d: u32, f: &Forbid) -> Option<Place> {
        if self.cfg.pointers && self.rng.chance(30) {
            if let Some(p) = self.object_place(d.min(1), f) {
                return Some(p);
            }
        }
        let cands: Vec<VarId> = self
            .visible()
            .into_iter()
            .filter(|&v| {
                let var = &self.vars[v as usize];
                var.writable && var.plain() && f.may_write(v)
            })
            .collect();
        if cands.is_empty() {
            return None;
        }
        let v = *self.rng.pick(&cands);
        let var = self.vars[v as usize].clone();
        if var.dims.is_empty() {
            Some(Place {
                text: var.name,
                ty: var.ty,
                var: v,
                index_eff: Effects::none(),
                bits: None,
            })
        } else {
            let (text, eff) = self.element(v, d.min(1), f);
            Some(Place {
                text,
                ty: var.ty,
                var: v,
                index_eff: eff,
                bits: None,
            })
        }
    }

    fn place_effects(p: &Place, value: &Effects, reads_place: bool) -> Effects {
        let mut eff = p.index_eff.clone().union(value);
        eff.writes.insert(p.var);
        if reads_place {
            eff.reads.insert(p.var);
        }
        eff
    }

    /// `place = value`.
    pub(super) fn assign(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        let p = self.place(d, f)?;
        Some(self.assign_to(p, d, f))
    }

    /// `p = value` for a place: a signed bit-field gets a value in its range (`v % 2^(w-1)`),
    /// an unsigned one any integer (reduced modulo 2^w).
    fn assign_to(&mut self, p: Place, d: u32, f: &Forbid) -> Ex {
        let vf = f.after(&p.index_eff).without_write(p.var);
        let v = self.expr(d, &vf);
        let v = match p.bits {
            Some((true, width)) => {
                let v = self.convertible_to(v, Ty::Int);
                let m = 1u64 << (width - 1);
                Ex::new(format!("({} % {m})", v.text), v.ty, v.eff)
            }
            Some((false, _)) => self.convertible_to(v, Ty::UInt),
            None => self.convertible_to(v, p.ty),
        };
        let eff = Self::place_effects(&p, &v.eff, false);
        Ex::new(format!("({} = {})", p.text, v.text), p.ty, eff)
    }

    /// `place op= value`.
    pub(super) fn compound(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        let p = self.place(d, f)?;
        if p.bits.is_some_and(|(signed, _)| signed) {
            return Some(self.assign_to(p, d, f));
        }
        let vf = f.after(&p.index_eff).without_write(p.var);
        let mut ops = vec!["+=", "-=", "*="];
        if p.ty.is_integer() {
            ops.extend(["&=", "|=", "^=", ">>=", "/=", "%="]);
            // `<<=` only where the promoted type is unsigned (`unsigned char` promotes to
            // `int`, which a shift could overflow).
            if !p.ty.promote().is_signed_integer() {
                ops.push("<<=");
            }
        } else {
            ops.push("/=");
        }
        let op = *self.rng.pick(&ops);
        let mut v = if p.ty.is_integer() {
            self.int_expr(d, &vf)
        } else {
            self.expr(d, &vf)
        };
        if op == "/=" && !p.ty.is_integer() && v.is_constant() {
            // no constant zero divisors (gcc warns about them)
            v = Ex::new(format!("({} + 0.5)", v.text), Ty::Double, v.eff);
        }
        let vt = &v.text;
        let rhs = match op {
            "<<=" | ">>=" => {
                let mask = if p.ty.promote().bits() == 64 { 63 } else { 31 };
                format!("({vt} & {mask})")
            }
            "/=" | "%=" if p.ty.is_integer() => {
                if !v.is_pure() {
                    return Some(Ex::new(
                        format!("({} += {})", p.text, vt),
                        p.ty,
                        Self::place_effects(&p, &v.eff, true),
                    ));
                }
                format!("({vt} == 0 || {vt} == -1 ? 7 : {vt})")
            }
            _ => vt.clone(),
        };
        let eff = Self::place_effects(&p, &v.eff, true);
        Some(Ex::new(format!("({} {op} {rhs})", p.text), p.ty, eff))
    }

    /// `++place`, `place--`, ...
    pub(super) fn incdec(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        let p = self.place(d, f)?;
        if p.bits.is_some_and(|(signed, _)| signed) {
            return Some(self.assign_to(p, d, f));
        }
        let op = if self.rng.chance(50) { "++" } else { "--" };
        let text = if self.rng.chance(50) {
            format!("({op}{})", p.text)
        } else {
            format!("({}{op})", p.text)
        };
        let eff = Self::place_effects(&p, &Effects::none(), true);
        Some(Ex::new(text, p.ty, eff))
    }

    /// A call of a generated function with a result.
    fn call_expr(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        let (text, ret, eff) = self.call(d, f, true)?;
        Some(Ex::new(
            text,
            ret.expect("call(want_value) returns a typed function"),
            eff,
        ))
    }

    /// A call of a library function.
    fn builtin(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        if self.rng.chance(10) {
            return Some(self.variadic_call(d, f));
        }
        if self.rng.chance(10) {
            return Some(self.long_double_call(d, f));
        }
        match self.rng.below(10) {
            0 => {
                if !f.may_write(STDOUT) {
                    return None;
                }
                let e = self.int_expr(d, f);
                let mut eff = e.eff;
                eff.writes.insert(STDOUT);
                Some(Ex::new(format!("putchar({})", e.text), Ty::Int, eff))
            }
            1 => {
                let e = self.int_expr(d, f);
                if e.is_pure() && e.text.len() < 60 && self.rng.chance(50) {
                    let x = format!("((int)({}))", e.text);
                    Some(Ex::new(
                        format!("({x} == (-2147483647 - 1) ? 0 : abs({x}))"),
                        Ty::Int,
                        e.eff,
                    ))
                } else {
                    Some(Ex::new(format!("safe_abs({})", e.text), Ty::Int, e.eff))
                }
            }
            2 => {
                let e = self.int_expr(d, f);
                if e.is_pure() && e.text.len() < 60 && self.rng.chance(50) {
                    let x = format!("((long)({}))", e.text);
                    Some(Ex::new(
                        format!("({x} == (-9223372036854775807L - 1) ? 0L : labs({x}))"),
                        Ty::Long,
                        e.eff,
                    ))
                } else {
                    Some(Ex::new(format!("safe_labs({})", e.text), Ty::Long, e.eff))
                }
            }
            _ => {
                let (name, arity) = *self.rng.pick(&[
                    ("sqrt", 1),
                    ("fabs", 1),
                    ("floor", 1),
                    ("ceil", 1),
                    ("sin", 1),
                    ("cos", 1),
                    ("tan", 1),
                    ("atan", 1),
                    ("exp", 1),
                    ("log", 1),
                    ("log10", 1),
                    ("atan2", 2),
                    ("pow", 2),
                    ("fmod", 2),
                ]);
                // the float forms (`sinf`, ...): float arguments and result
                let float = self.rng.chance(35);
                let result = if float { Ty::Float } else { Ty::Double };
                let name = if float {
                    format!("{name}f")
                } else {
                    name.to_string()
                };
                let mut args: Vec<Ex> = Vec::new();
                let mut eff = Effects::none();
                for _ in 0..arity {
                    let a = self.expr(d, &f.after(&eff));
                    eff.union_with(&a.eff);
                    args.push(a);
                }
                if eff.reads.is_empty() {
                    // gcc folds library calls on constants (correctly rounded, with MPFR);
                    // make the argument depend on a variable so both sides call libm
                    let v = self.var_read(&f.after(&eff))?;
                    args[0] = Ex::new(
                        format!("({} + {})", args[0].text, v.text),
                        Ty::Double,
                        v.eff.clone(),
                    );
                    eff.union_with(&v.eff);
                }
                let texts: Vec<String> = args.into_iter().map(|a| a.text).collect();
                Some(Ex::new(
                    format!("{name}({})", texts.join(", ")),
                    result,
                    eff,
                ))
            }
        }
    }

    /// A call of the prelude's variadic `va_mix` with one to four further arguments of random
    /// types (each cast to its type, so the caller's promotion and the callee's `va_arg`
    /// agree), and the kinds string that names their promoted types.
    fn variadic_call(&mut self, d: u32, f: &Forbid) -> Ex {
        let mut eff = Effects::none();
        let mut kinds = String::new();
        let mut args = Vec::new();
        for _ in 0..self.rng.range(1, 5) {
            let t = *self.rng.pick(&ALL_TYPES);
            kinds.push(match t {
                Ty::UInt => 'u',
                Ty::Long => 'l',
                Ty::ULong => 'k',
                Ty::Float | Ty::Double => 'd',
                _ => 'i',
            });
            let a = self.expr(d, &f.after(&eff));
            let a = self.convertible_to(a, t);
            eff.union_with(&a.eff);
            args.push(format!("({})({})", t.c_name(), a.text));
        }
        Ex::new(
            format!("va_mix(\"{kinds}\", {})", args.join(", ")),
            Ty::Long,
            eff,
        )
    }

    /// A call of `ld_mix` (a helper computing in `long double`): a `double` and a `long`
    /// argument and a random string of its operations.
    fn long_double_call(&mut self, d: u32, f: &Forbid) -> Ex {
        let a = self.expr(d, f);
        let a = self.convertible_to(a, Ty::Double);
        let mut eff = a.eff.clone();
        let b = self.expr(d, &f.after(&eff));
        let b = self.convertible_to(b, Ty::Long);
        eff.union_with(&b.eff);
        let ops: String = (0..self.rng.range(1, 7))
            .map(|_| *self.rng.pick(&['+', '-', '*', '/']))
            .collect();
        Ex::new(
            format!(
                "ld_mix((double)({}), (long)({}), \"{ops}\")",
                a.text, b.text
            ),
            Ty::Long,
            eff,
        )
    }

    /// An expression with a side effect (assignment, compound assignment, `++`/`--`, call).
    pub(super) fn effect_expr(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        match self.rng.below(5) {
            0 | 1 => self.assign(d, f),
            2 => self.compound(d, f),
            3 => self.incdec(d, f),
            _ => self.call_expr(d, f).or_else(|| self.assign(d, f)),
        }
    }

    /// An expression of the pointer features: a call through a function pointer, the string
    /// functions, pointer differences and comparisons, `sizeof`.
    fn object_expr(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        match self.rng.below(8) {
            0..=2 => self.func_call(d, f),
            3..=5 => self.string_expr(f),
            _ => self.pointer_expr(f),
        }
    }

    fn comma(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        let a = self.effect_expr(d, f)?;
        let b = self.expr(d, f); // sequenced after `a`
        let eff = a.eff.union(&b.eff);
        Some(Ex::new(format!("({}, {})", a.text, b.text), b.ty, eff))
    }
}
