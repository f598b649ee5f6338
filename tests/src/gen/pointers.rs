//! Pointer variables, pointer expressions, pointer parameters and loops that walk a pointer.
//!
//! A pointer variable is declared with the address of a scalar, an array element, a structure,
//! a pointer (`T **`), or a copy of another pointer moved within its range (`p + 2`), and never
//! assigned again (see [`super::objects`]). Pointer expressions produce scalars only: `p - q`
//! and `p < q` for two pointers into the same array (one past its end included), `p == q`,
//! `p != NULL`, `!p`, and `sizeof` of objects and types. A `for` loop may walk a pointer over
//! an array (`for (T *q = a; q < a + n; q++)`) or a string buffer up to its NUL; its body sees
//! `*q` like any other object.
//!
//! A pointer argument (`T *`, `const T *`, `struct r *`, `const char *`) always points into a
//! local object of the caller (never a global, which the callee could also name), and the
//! objects passed to one call are distinct, so a callee's parameters never alias each other or
//! its globals, and the call counts as reading (and unless `const`, writing) those objects.

use super::effects::{Effects, Forbid, VarId};
use super::expr::Ex;
use super::objects::{Base, Node, Pointer, Shape, Step};
use super::types::Ty;
use super::{Gen, Param};

/// How many pointers a chain (`T ***`) may have at most.
const MAX_CHAIN: usize = 3;

/// The number of pointer levels of a shape.
fn chain(s: &Shape) -> usize {
    match s {
        Shape::Pointer(p) => 1 + chain(&p.to),
        _ => 0,
    }
}

impl Gen {
    /// Declares a pointer variable (a global with `out`: pointing at a global, with an address
    /// constant). False if there is nothing to point at.
    pub(super) fn pointer_var(&mut self, out: Option<&mut String>) -> bool {
        let global = out.is_some();
        let Some(node) = self.pick_node(
            |v| !global || v.global,
            |_, n| {
                // an address constant goes through no pointer
                let direct = !n.steps.iter().any(|s| matches!(s, Step::Deref { .. }));
                match &n.shape {
                    Shape::Scalar(_) | Shape::Record(_) => direct || !global,
                    Shape::Array { of, .. } => {
                        (direct || !global) && matches!(**of, Shape::Scalar(_) | Shape::Record(_))
                    }
                    // `&p` for a pointer variable; a copy of a pointer (locals only)
                    Shape::Pointer(_) => {
                        (n.steps.is_empty() && chain(&n.shape) < MAX_CHAIN) || !global
                    }
                    Shape::Bits { .. } | Shape::Func(_) => false,
                }
            },
        ) else {
            return false;
        };
        let name = self.fresh_name(if global { "gp" } else { "p" });
        let text = self.render_const(&node);
        let konst = node.ro || node.konst || node.in_string() || self.rng.chance(15);
        let (pointer, init) = match &node.shape {
            Shape::Array { of, len, nul_last } => {
                let k = self.rng.below(u64::from(*len)) as u32;
                let init = match (k, self.rng.below(3)) {
                    (0, 0) => text.clone(),
                    (_, 1) => format!("&{text}[{k}]"),
                    _ => format!("{text} + {k}"),
                };
                let string = match (&**of, nul_last) {
                    (Shape::Scalar(Ty::Char), true) => Some(len - 1 - k),
                    _ => None,
                };
                // a pointer into a string buffer only reads (its last byte stays NUL)
                let ro = konst || *nul_last;
                let p = Pointer {
                    target: node.target,
                    to: (**of).clone(),
                    lo: -(k as i32),
                    hi: (len - k) as i32,
                    konst: ro,
                    ro,
                    string,
                    base: Some(Base {
                        var: node.var,
                        text,
                        off: k as i32,
                        len: *len,
                    }),
                };
                (p, init)
            }
            Shape::Pointer(_)
                if global
                    || (node.steps.is_empty()
                        && chain(&node.shape) < MAX_CHAIN
                        && self.rng.chance(50)) =>
            {
                // `&p`: a pointer to a pointer variable
                let q = Pointer {
                    target: node.var,
                    to: node.shape.clone(),
                    lo: 0,
                    hi: 1,
                    konst: false,
                    ro: false,
                    string: None,
                    base: None,
                };
                (q, format!("&{text}"))
            }
            Shape::Pointer(p) => {
                // a copy, moved by j within its range (strings only forward)
                let p = (**p).clone();
                let lo = if p.string.is_some() { 0 } else { p.lo };
                let j = self.rng.range(i64::from(lo), i64::from(p.hi) - 1) as i32;
                let init = match j {
                    0 => text.clone(),
                    j if j > 0 && self.rng.chance(30) => format!("&{text}[{j}]"),
                    j if j > 0 => format!("{text} + {j}"),
                    j => format!("{text} - {}", -j),
                };
                let moved = Pointer {
                    lo: p.lo - j,
                    hi: p.hi - j,
                    string: p.string.map(|m| {
                        if m == u32::MAX {
                            m
                        } else {
                            m.saturating_sub(j as u32)
                        }
                    }),
                    base: p.base.clone().map(|b| Base {
                        off: b.off + j,
                        ..b
                    }),
                    ..p
                };
                (moved, init)
            }
            shape => {
                let p = Pointer {
                    target: node.target,
                    to: shape.clone(),
                    lo: 0,
                    hi: 1,
                    konst,
                    ro: konst,
                    string: None,
                    base: Some(Base {
                        var: node.var,
                        text: format!("&{text}"),
                        off: 0,
                        len: 1,
                    }),
                };
                (p, format!("&{text}"))
            }
        };
        let shape = Shape::Pointer(Box::new(pointer));
        let decl = self.declaration(&shape, &name);
        let line = format!("{decl} = {init};");
        match out {
            Some(out) => {
                out.push_str(&line);
                out.push('\n');
            }
            None => self.line(&line),
        }
        self.declare_obj(name, shape, true);
        true
    }

    /// A scalar made of pointers: a difference or comparison of two pointers into one array,
    /// a null test, or a `sizeof`.
    pub(super) fn pointer_expr(&mut self, f: &Forbid) -> Option<Ex> {
        match self.rng.below(5) {
            0 | 1 => self.pointer_pair(),
            2 => self.null_test(f),
            _ => self.sizeof_expr(),
        }
    }

    /// `p - q`, `p < q`, ... for two pointers into one array.
    fn pointer_pair(&mut self) -> Option<Ex> {
        let visible = self.visible();
        // pointer variables that know their array, grouped by it
        let pointers: Vec<(VarId, Base)> = visible
            .iter()
            .filter_map(|&v| match &self.vars[v as usize].obj {
                Some(Shape::Pointer(p)) if self.vars[v as usize].dims.is_empty() => {
                    p.base.clone().map(|b| (v, b))
                }
                _ => None,
            })
            .collect();
        let (var, array, len, mut terms) = if !pointers.is_empty() && self.rng.chance(70) {
            let (_, b) = self.rng.pick(&pointers).clone();
            let terms: Vec<(String, i32)> = pointers
                .iter()
                .filter(|(_, o)| o.var == b.var && o.text == b.text)
                .map(|(v, o)| (self.vars[*v as usize].name.clone(), o.off))
                .collect();
            (b.var, b.text, b.len, terms)
        } else {
            let node = self.pick_node(|_| true, |_, n| matches!(n.shape, Shape::Array { .. }))?;
            let Shape::Array { len, .. } = node.shape else {
                return None;
            };
            let text = self.render_const(&node);
            (node.var, text, len, Vec::new())
        };
        // the array itself, if its variable is visible (a scalar's `&x` is an array of one)
        if visible.contains(&var) {
            let text = if array.starts_with('&') && len == 1 {
                format!("({array})")
            } else {
                array
            };
            terms.push((text, 0));
        }
        if terms.is_empty() {
            return None;
        }
        let pick = |g: &mut Gen| -> (String, i32) {
            let (t, off) = g.rng.pick(&terms).clone();
            // move it anywhere in the array or one past its end
            let to = g.rng.range(0, i64::from(len)) as i32;
            let d = to - off;
            let text = match d {
                0 => t,
                d if d > 0 && to < len as i32 && g.rng.chance(30) => format!("&{t}[{d}]"),
                d if d > 0 => format!("({t} + {d})"),
                d => format!("({t} - {})", -d),
            };
            (text, to)
        };
        let (a, _) = pick(self);
        let (b, _) = pick(self);
        let (text, ty) = match self.rng.below(4) {
            0 | 1 => (format!("({a} - {b})"), Ty::Long),
            _ => {
                let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                (format!("({a} {op} {b})"), Ty::Int)
            }
        };
        Some(Ex::new(text, ty, Effects::none()))
    }

    /// `p != NULL`, `!p`, `f == 0` for a pointer, function pointer or heap block.
    fn null_test(&mut self, f: &Forbid) -> Option<Ex> {
        let node = self.pick_node(
            |_| true,
            |g, n| {
                f.may_read(n.target)
                    && f.may_read(n.var)
                    && (matches!(n.shape, Shape::Pointer(_) | Shape::Func(_))
                        || (n.steps.is_empty() && g.vars[n.var as usize].heap))
            },
        )?;
        let (p, eff) = self.render(&node, false, 1, f);
        let mut eff = eff;
        eff.reads.insert(node.target);
        let text = match self.rng.below(5) {
            0 => format!("({p} != NULL)"),
            1 => format!("({p} == NULL)"),
            2 => format!("(!{p})"),
            3 => format!("(0 != {p})"),
            _ => format!("({p} == 0)"),
        };
        Some(Ex::new(text, Ty::Int, eff))
    }

    /// `sizeof` of a structure type, of an object of the pointer features, or of a pointer
    /// type (as gcc lays them out on x86-64).
    fn sizeof_expr(&mut self) -> Option<Ex> {
        let text = match self.rng.below(3) {
            0 if !self.records.is_empty() => {
                let r = self.rng.index(self.records.len());
                let t = self.type_name(&Shape::Record(r));
                format!("sizeof({t})")
            }
            1 => {
                let t = *self.rng.pick(&super::types::ALL_TYPES);
                let stars = if self.rng.chance(30) { "**" } else { "*" };
                format!("sizeof({} {stars})", t.c_name())
            }
            _ => {
                let node = self.pick_node(
                    |v| !v.plain() || v.nul_last || v.heap,
                    |_, n| !matches!(n.shape, Shape::Bits { .. }),
                )?;
                let t = self.render_const(&node);
                format!("sizeof {t}")
            }
        };
        Some(Ex::new(text, Ty::ULong, Effects::none()))
    }

    /// `for (T *q = a; q < a + n; q++) { ... }` over an array, or `for (char *q = b; *q;
    /// q++)` over a string buffer: the body reads (and for arrays writes) `*q`.
    pub(super) fn walk_stmt(&mut self, depth: u32) -> bool {
        let Some(node) = self.pick_node(
            |_| true,
            |_, n| {
                !n.konst
                    && matches!(&n.shape, Shape::Array { of, .. } if matches!(**of, Shape::Scalar(_) | Shape::Record(_)))
            },
        ) else {
            return false;
        };
        let Shape::Array { of, len, nul_last } = node.shape.clone() else {
            return false;
        };
        let trips = if nul_last { len - 1 } else { len }.max(1);
        if self.mult.saturating_mul(u64::from(trips)).saturating_mul(3) > self.remaining() {
            return false;
        }
        let a = self.render_const(&node);
        let q = self.fresh_name("q");
        let t = self.declaration(&of, &format!("*{q}"));
        let header = if nul_last {
            match self.rng.below(2) {
                0 => format!("for ({t} = {a}; *{q} != '\\0'; {q}++)"),
                _ => format!("for ({t} = {a}; *{q}; ++{q})"),
            }
        } else {
            match self.rng.below(3) {
                0 => format!("for ({t} = {a}; {q} < {a} + {len}; {q}++)"),
                1 => format!("for ({t} = &{a}[0]; {q} != {a} + {len}; ++{q})"),
                _ => format!("for ({t} = {a}; {q} <= &{a}[{}]; {q} += 1)", len - 1),
            }
        };
        self.scopes.push(Vec::new());
        self.line(&format!("{header} {{"));
        let p = Pointer {
            target: node.target,
            to: *of,
            lo: 0,
            hi: 1,
            konst: false,
            ro: node.ro || nul_last,
            string: None,
            base: None,
        };
        self.declare_obj(q, Shape::Pointer(Box::new(p)), false);
        self.note(&Effects::read(node.target));
        self.loop_body(depth, trips);
        self.line("}");
        self.scopes.pop();
        true
    }

    /// A parameter of the pointer features for a generated function.
    pub(super) fn pointer_param(&mut self) -> Param {
        match self.rng.below(7) {
            0 | 1 => Param::Pointer {
                to: Shape::Scalar(self.random_type()),
                len: *self.rng.pick(&[1, 1, 4, 5, 8]),
                konst: self.rng.chance(30),
            },
            2 | 3 => Param::Pointer {
                to: Shape::Record(self.random_record()),
                len: *self.rng.pick(&[1, 1, 2]),
                konst: self.rng.chance(30),
            },
            4 => Param::Str,
            _ => Param::Func(self.rng.index(self.sigs.len())),
        }
    }

    /// Declares a parameter of the pointer features in the function being generated; returns
    /// its C declaration.
    pub(super) fn declare_pointer_param(&mut self, p: &Param, name: String) -> String {
        match p {
            Param::Pointer { to, len, konst } => {
                let target = self.pseudo_var("pointee", !konst);
                let shape = Shape::Pointer(Box::new(Pointer {
                    target,
                    to: to.clone(),
                    lo: 0,
                    hi: *len as i32,
                    konst: *konst,
                    ro: *konst,
                    string: None,
                    base: None,
                }));
                let mut decl = self.declaration(&shape, &name);
                // A pointer to structures is sometimes spelled as the array parameter it is
                // in C (`struct r0 p[]`, `struct r0 p[2]`): arrays of structures as parameters.
                let pointer = format!("*{name}");
                if matches!(to, Shape::Record(_)) && decl.ends_with(&pointer) && self.rng.chance(40)
                {
                    let dim = if self.rng.chance(50) {
                        String::new()
                    } else {
                        len.to_string()
                    };
                    decl.truncate(decl.len() - pointer.len());
                    decl.push_str(&format!("{name}[{dim}]"));
                }
                self.declare_obj(name, shape, true);
                decl
            }
            Param::Str => {
                let target = self.pseudo_var("string", false);
                let shape = Shape::Pointer(Box::new(Pointer {
                    target,
                    to: Shape::Scalar(Ty::Char),
                    lo: 0,
                    hi: 1,
                    konst: true,
                    ro: true,
                    string: Some(u32::MAX),
                    base: None,
                }));
                let decl = self.declaration(&shape, &name);
                self.declare_obj(name, shape, true);
                decl
            }
            Param::Func(s) => {
                let shape = Shape::Func(*s);
                let decl = self.declaration(&shape, &name);
                self.declare_obj(name, shape, false);
                decl
            }
            Param::Scalar(_) | Param::Depth(_) | Param::Array { .. } => {
                unreachable!("not a parameter of the pointer features")
            }
        }
    }

    /// An argument for a parameter of the pointer features: its text, with its effects added
    /// to `acc` and the object it points into to `used`. `None` if nothing fits.
    pub(super) fn pointer_arg(
        &mut self,
        p: &Param,
        d: u32,
        f: &Forbid,
        acc: &mut Effects,
        used: &mut Vec<VarId>,
    ) -> Option<String> {
        let fa = f.after(acc);
        match p {
            Param::Pointer { to, len, konst } => {
                let (to, len, konst) = (to.clone(), *len, *konst);
                // what an argument made from a node points into, and whether it is read-only
                // (or `const`, which a non-const parameter cannot take)
                let points = |n: &Node| -> Option<(VarId, bool)> {
                    match &n.shape {
                        Shape::Array {
                            of,
                            len: l,
                            nul_last,
                        } => (**of == to && *l >= len + u32::from(*nul_last && !konst))
                            .then_some((n.target, n.ro || n.konst)),
                        Shape::Pointer(q) => {
                            (n.steps.is_empty() && q.to == to && q.lo <= 0 && q.hi >= len as i32)
                                .then_some((q.target, q.ro || q.konst))
                        }
                        s => (len == 1 && *s == to)
                            .then_some((n.target, n.ro || n.konst || n.in_string())),
                    }
                };
                let node = self.pick_node(
                    |_| true,
                    |g, n| {
                        points(n).is_some_and(|(target, ro)| {
                            !g.vars[target as usize].global
                                && !used.contains(&target)
                                && (konst || !ro)
                                && if konst {
                                    fa.may_read(target) && fa.may_read(n.target)
                                } else {
                                    fa.may_write(target) && fa.may_read(n.target)
                                }
                        })
                    },
                )?;
                let (target, _) = points(&node)?;
                let (text, eff) = self.render(&node, !konst, d.min(1), &fa);
                let arg = match &node.shape {
                    Shape::Array {
                        len: l, nul_last, ..
                    } => {
                        let room = l - len - u32::from(*nul_last && !konst);
                        let k = self.rng.range(0, i64::from(room));
                        match k {
                            0 => text,
                            k if self.rng.chance(50) => format!("&{text}[{k}]"),
                            k => format!("{text} + {k}"),
                        }
                    }
                    Shape::Pointer(q) => {
                        let k = self
                            .rng
                            .range(i64::from(q.lo), i64::from(q.hi - len as i32));
                        match k {
                            0 => text,
                            k if k > 0 => format!("{text} + {k}"),
                            k => format!("{text} - {}", -k),
                        }
                    }
                    _ => format!("&{text}"),
                };
                acc.union_with(&eff);
                acc.reads.insert(target);
                if !konst {
                    acc.writes.insert(target);
                }
                used.push(target);
                Some(arg)
            }
            Param::Str => {
                let s = self.string_source_where(&fa, false, &|g: &Gen, t: VarId| {
                    !g.vars[t as usize].global && !used.contains(&t)
                });
                if let Some(t) = s.target {
                    used.push(t);
                }
                acc.union_with(&s.eff);
                Some(s.text)
            }
            Param::Func(s) => {
                let (text, eff) = self.func_value(*s, &fa)?;
                acc.union_with(&eff);
                Some(text)
            }
            Param::Scalar(_) | Param::Depth(_) | Param::Array { .. } => None,
        }
    }

    /// Declares a local a pointer parameter can be given (a scalar, an array, a structure).
    pub(super) fn local_for_param(&mut self, p: &Param) {
        let Param::Pointer { to, len, .. } = p else {
            return;
        };
        match (to, len) {
            (Shape::Scalar(t), 1) => {
                let name = self.fresh_name("v");
                let init = self.element_init(*t);
                let spelled = self.spell(*t);
                self.line(&format!("{spelled} {name} = {init};"));
                self.declare(name, *t, vec![], true, None);
            }
            (Shape::Scalar(t), n) => {
                self.local_array(*t, vec![*n]);
            }
            (Shape::Record(r), 1) => self.record_var(None, Some(*r), false),
            (Shape::Record(r), _) => self.record_var(None, Some(*r), true),
            _ => {}
        }
    }
}
