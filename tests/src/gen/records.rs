//! Structures and unions: the program's record types, their initializers (brace lists, nested
//! braces, designators such as `.in.x = 1` and `[2].name = "ab"`), variables and arrays of them,
//! structure assignment, and a union whose other member is written and read back.
//!
//! Members are scalars, bit-fields (signed and unsigned, assigned in-range values only: see
//! [`super::expr`]), arrays, string buffers (`char name[N]`, whose last byte stays NUL), nested
//! structures and arrays of them, and function pointers (called only after a null check, so a
//! zeroed structure is fine). A union is `union u { I i; X x; unsigned char b[sizeof(I)]; }`:
//! ordinary expressions only use `i` and read its bytes through `b` (little-endian, which gcc
//! on x86-64 fixes); `x` is written and read back in one statement that restores `i`.

use std::fmt::Write as _;

use super::effects::{Effects, Forbid, STDOUT};
use super::format;
use super::objects::{Member, Node, RecId, Record, Shape, Step};
use super::types::{Ty, ALL_TYPES, INT_TYPES};
use super::Gen;

/// Member names, taken in order.
const MEMBER_NAMES: &[&str] = &[
    "x", "y", "k", "n", "w", "v", "lo", "hi", "id", "val", "cnt", "tag", "d", "at", "sz", "q",
];

impl Gen {
    /// Generates the structure and union types; returns their definitions.
    pub(super) fn record_types(&mut self) -> String {
        let mut out = String::new();
        for k in 0..self.rng.range(2, 4) {
            let rec = self.struct_type(k as usize);
            self.define_record(rec, &mut out);
        }
        for k in 0..self.rng.range(1, 2) {
            let i = *self.rng.pick(&INT_TYPES);
            let x = *self.rng.pick(&ALL_TYPES);
            let rec = Record {
                c_name: format!("union u{k}"),
                typedef: format!("u{k}_t"),
                union: true,
                members: vec![
                    member("i", Shape::Scalar(i)),
                    member("x", Shape::Scalar(x)),
                    member("b", Shape::array(Shape::Scalar(Ty::UChar), i.bits() / 8)),
                ],
            };
            self.define_record(rec, &mut out);
        }
        // The pair of an argument sort (see `heap`): not used as a member or variable.
        out.push_str("struct kv { int key; int idx; };\n");
        out
    }

    /// Adds a record type and its definition (and typedef).
    fn define_record(&mut self, rec: Record, out: &mut String) {
        let _ = writeln!(out, "{} {{", rec.c_name);
        for m in &rec.members {
            let text = match (&m.shape, &m.name) {
                (Shape::Bits { signed, width }, name) => {
                    let t = match (signed, self.rng.below(2)) {
                        (true, 0) => "int",
                        (true, _) => "signed int",
                        (false, 0) => "unsigned",
                        (false, _) => "unsigned int",
                    };
                    match name {
                        Some(n) => format!("{t} {n} : {width}"),
                        None => format!("{t} : {width}"),
                    }
                }
                (shape, Some(n)) => self.declaration(shape, n),
                (_, None) => unreachable!("only bit-fields are unnamed"),
            };
            let _ = writeln!(out, "    {text};");
        }
        out.push_str("};\n");
        let _ = writeln!(out, "typedef {} {};", rec.c_name, rec.typedef);
        self.records.push(rec);
    }

    /// A random structure type `struct r{k}`: 2-6 members (more with runs of bit-fields), the
    /// first one most often a scalar.
    fn struct_type(&mut self, k: usize) -> Record {
        let mut members = Vec::new();
        let mut names = MEMBER_NAMES.iter();
        let structs: Vec<RecId> = (0..self.records.len())
            .filter(|&r| !self.records[r].union)
            .collect();
        let n = self.rng.range(2, 6);
        for i in 0..n {
            let Some(name) = names.next() else { break };
            let weights = [
                if i == 0 { 20 } else { 6 },              // scalar
                3,                                        // bit-fields
                2,                                        // array
                1,                                        // string buffer
                if structs.is_empty() { 0 } else { 2 },   // nested structure
                if structs.is_empty() { 0 } else { 1 },   // array of structures
                if self.sigs.is_empty() { 0 } else { 1 }, // function pointer
            ];
            let shape = match self.rng.weighted(&weights) {
                0 => Shape::Scalar(self.random_type()),
                1 => {
                    // a run of bit-fields sharing units, now and then an unnamed one
                    for _ in 0..self.rng.range(0, 2) {
                        if let Some(extra) = names.next() {
                            members.push(member(extra, self.bits_shape()));
                        }
                    }
                    if self.rng.chance(15) {
                        let width = if self.rng.chance(30) {
                            0
                        } else {
                            self.rng.range(1, 7) as u32
                        };
                        members.push(Member {
                            name: None,
                            shape: Shape::Bits {
                                signed: false,
                                width,
                            },
                        });
                    }
                    self.bits_shape()
                }
                2 => Shape::array(
                    Shape::Scalar(self.random_type()),
                    self.rng.range(2, 4) as u32,
                ),
                3 => Shape::Array {
                    of: Box::new(Shape::Scalar(Ty::Char)),
                    len: self.rng.range(2, 8) as u32,
                    nul_last: true,
                },
                4 => Shape::Record(*self.rng.pick(&structs)),
                5 => Shape::array(
                    Shape::Record(*self.rng.pick(&structs)),
                    self.rng.range(2, 3) as u32,
                ),
                _ => Shape::Func(self.rng.index(self.sigs.len())),
            };
            members.push(member(name, shape));
        }
        Record {
            c_name: format!("struct r{k}"),
            typedef: format!("r{k}_t"),
            union: false,
            members,
        }
    }

    fn bits_shape(&mut self) -> Shape {
        let signed = self.rng.chance(45);
        let max = if signed { 32 } else { 31 };
        let width = if self.rng.chance(70) {
            self.rng.range(1, 8) as u32
        } else {
            self.rng.range(1, max) as u32
        };
        Shape::Bits { signed, width }
    }

    /// An initializer for an object of shape `shape`: constant expressions only if `constant`
    /// (static storage), else side-effect-free expressions too. Every value is in range for
    /// its member (bit-fields, `char` buffers keep their last byte zero).
    pub(super) fn initializer(&mut self, shape: &Shape, constant: bool) -> String {
        match shape {
            Shape::Scalar(t) => {
                if !constant {
                    return self.element_init(*t);
                }
                let lit = if t.is_integer() {
                    *self.rng.pick(&INT_TYPES)
                } else {
                    *self.rng.pick(&ALL_TYPES)
                };
                lit.random_literal(&mut self.rng)
            }
            Shape::Bits { signed, width } => {
                let (lo, hi) = bits_range(*signed, *width);
                self.rng.range(lo, hi).to_string()
            }
            Shape::Array { of, len, nul_last } => {
                if *nul_last {
                    let max = i64::from(*len) - 1;
                    let n = self.rng.range(0, max) as u32;
                    if self.rng.chance(20) && n > 0 {
                        let chars: Vec<String> = (0..n)
                            .map(|_| format!("'{}'", *self.rng.pick(&['a', 'Z', '0', '-', ' '])))
                            .collect();
                        return format!("{{{}}}", chars.join(", "));
                    }
                    return super::strings::c_literal(&self.literal_text(n));
                }
                if self.rng.chance(25) {
                    let at = self.rng.below(u64::from(*len));
                    let v = self.initializer(of, constant);
                    return format!("{{[{at}] = {v}}}");
                }
                let n = self.rng.range(1, i64::from(*len));
                let parts: Vec<String> = (0..n).map(|_| self.initializer(of, constant)).collect();
                format!("{{{}}}", parts.join(", "))
            }
            Shape::Record(r) => self.record_init(*r, constant),
            Shape::Func(s) => {
                let funcs = self.sigs[*s].funcs.clone();
                match self.rng.below(6) {
                    0 => "0".to_string(),
                    1 => "NULL".to_string(),
                    2 => format!("&{}", self.rng.pick(&funcs)),
                    _ => self.rng.pick(&funcs).clone(),
                }
            }
            Shape::Pointer(_) => unreachable!("pointers are initialized by their declarations"),
        }
    }

    /// A brace initializer for a structure or union: members in order (the rest zero), or
    /// designators in any order (`.m = v`, `.in.x = v`, `.v[1] = v`).
    fn record_init(&mut self, r: RecId, constant: bool) -> String {
        let rec = self.records[r].clone();
        let named: Vec<&Member> = rec.members.iter().filter(|m| m.name.is_some()).collect();
        if rec.union {
            let v = self.initializer(&named[0].shape, constant);
            return if self.rng.chance(50) {
                format!("{{{v}}}")
            } else {
                format!("{{.i = {v}}}")
            };
        }
        if self.rng.chance(10) {
            return "{0}".to_string();
        }
        if self.rng.chance(60) {
            let n = self.rng.range(1, named.len() as i64) as usize;
            let parts: Vec<String> = named[..n]
                .iter()
                .map(|m| self.initializer(&m.shape, constant))
                .collect();
            return format!("{{{}}}", parts.join(", "));
        }
        let mut picked: Vec<usize> = (0..named.len()).collect();
        let mut parts = Vec::new();
        for _ in 0..self.rng.range(1, 3.min(named.len() as i64)) {
            let m = named[picked.swap_remove(self.rng.index(picked.len()))];
            let name = m.name.as_deref().unwrap_or_default();
            let (designator, shape) = self.designator(name, &m.shape);
            let v = self.initializer(&shape, constant);
            parts.push(format!("{designator} = {v}"));
        }
        format!("{{{}}}", parts.join(", "))
    }

    /// A designator starting at member `name` (`.name`, `.name[2]`, `.name.x`) and the shape
    /// of what it designates.
    fn designator(&mut self, name: &str, shape: &Shape) -> (String, Shape) {
        match shape {
            Shape::Array {
                of, len, nul_last, ..
            } if !nul_last && self.rng.chance(40) => {
                let at = self.rng.below(u64::from(*len));
                (format!(".{name}[{at}]"), (**of).clone())
            }
            Shape::Record(r) if !self.records[*r].union && self.rng.chance(40) => {
                let inner: Vec<Member> = self.records[*r]
                    .members
                    .iter()
                    .filter(|m| m.name.is_some())
                    .cloned()
                    .collect();
                let m = &inner[self.rng.index(inner.len())];
                let (d, s) = self.designator(m.name.as_deref().unwrap_or_default(), &m.shape);
                (format!(".{name}{d}"), s)
            }
            _ => (format!(".{name}"), shape.clone()),
        }
    }

    /// An initializer for an array of `len` records: elements in order, or designated
    /// (`[1] = {...}`, `[0].x = 3`).
    fn records_init(&mut self, r: RecId, len: u32, constant: bool) -> String {
        if self.rng.chance(60) {
            let n = self.rng.range(1, i64::from(len));
            let parts: Vec<String> = (0..n).map(|_| self.record_init(r, constant)).collect();
            return format!("{{{}}}", parts.join(", "));
        }
        let mut parts = Vec::new();
        let mut used = Vec::new();
        for _ in 0..self.rng.range(1, 2) {
            let at = self.rng.below(u64::from(len));
            if used.contains(&at) {
                continue;
            }
            used.push(at);
            let rec = self.records[r].clone();
            let named: Vec<&Member> = rec.members.iter().filter(|m| m.name.is_some()).collect();
            if !rec.union && self.rng.chance(40) {
                let m = named[self.rng.index(named.len())];
                let (d, s) = self.designator(m.name.as_deref().unwrap_or_default(), &m.shape);
                let v = self.initializer(&s, constant);
                parts.push(format!("[{at}]{d} = {v}"));
            } else {
                let v = self.record_init(r, constant);
                parts.push(format!("[{at}] = {v}"));
            }
        }
        format!("{{{}}}", parts.join(", "))
    }

    /// A structure type, or a union type now and then.
    pub(super) fn random_record(&mut self) -> RecId {
        let structs: Vec<RecId> = (0..self.records.len())
            .filter(|&r| !self.records[r].union)
            .collect();
        let unions: Vec<RecId> = (0..self.records.len())
            .filter(|&r| self.records[r].union)
            .collect();
        if unions.is_empty() || self.rng.chance(75) {
            *self.rng.pick(&structs)
        } else {
            *self.rng.pick(&unions)
        }
    }

    /// Declares a structure or union variable (of type `r`, else a random one) or an array of
    /// them (if `array`, else now and then): a global with `out` (its text goes there), else a
    /// local, initialized by braces, or now and then by a copy of a visible record of its type.
    pub(super) fn record_var(&mut self, out: Option<&mut String>, r: Option<RecId>, array: bool) {
        let r = r.unwrap_or_else(|| self.random_record());
        let global = out.is_some();
        let name = self.fresh_name(if global { "gr" } else { "r" });
        let array = array || self.rng.chance(30);
        let (shape, init) = if array {
            let len = self.rng.range(2, 4) as u32;
            let init = self.records_init(r, len, global);
            (Shape::array(Shape::Record(r), len), init)
        } else {
            let copy = if global || !self.rng.chance(30) {
                None
            } else {
                self.pick_node(|_| true, |_, n| n.shape == Shape::Record(r))
            };
            if let Some(node) = copy {
                // `struct r x = y;` is what C allows, but the checker wants braces (reported):
                // zeroed, then assigned
                let (text, eff) = self.render(&node, false, 1, &Forbid::none());
                self.note(&Self::node_read(&node, &eff));
                let decl = self.declaration(&Shape::Record(r), &name);
                self.line(&format!("{decl} = {{0}};"));
                self.line(&format!("{name} = {text};"));
                self.declare_obj(name, Shape::Record(r), true);
                return;
            }
            (Shape::Record(r), self.record_init(r, global))
        };
        let decl = self.declaration(&shape, &name);
        let text = format!("{decl} = {init};");
        match out {
            Some(out) => {
                let _ = writeln!(out, "{text}");
            }
            None => self.line(&text),
        }
        self.declare_obj(name, shape, true);
    }

    /// `a = b;` for two structures (or unions) of one type: whole variables, elements,
    /// members, pointees.
    pub(super) fn record_assign_stmt(&mut self) -> bool {
        let Some(dst) = self.pick_node(
            |_| true,
            |_, n| matches!(n.shape, Shape::Record(_)) && !n.ro,
        ) else {
            return false;
        };
        let (dt, de) = self.render(&dst, true, 1, &Forbid::none());
        let f = Forbid::none().after(&de).without_write(dst.target);
        let Some(src) = self.pick_node(
            |_| true,
            |_, n| n.shape == dst.shape && f.may_read(n.target) && f.may_read(n.var),
        ) else {
            return false;
        };
        let (st, se) = self.render(&src, false, 1, &f);
        let mut eff = de.union(&se);
        eff.writes.insert(dst.target);
        eff.reads.insert(src.target);
        self.note(&eff);
        self.line(&format!("{dt} = {st};"));
        true
    }

    /// `{ I sv = u.i; u.x = e; printf(... u.x); u.i = sv; }`: a union's other member written
    /// and read back, then the first one restored.
    pub(super) fn union_stmt(&mut self) -> bool {
        let unions: Vec<RecId> = (0..self.records.len())
            .filter(|&r| self.records[r].union)
            .collect();
        let Some(node) = self.pick_node(
            |_| true,
            |_, n| !n.ro && matches!(n.shape, Shape::Record(r) if unions.contains(&r)),
        ) else {
            return false;
        };
        let Shape::Record(r) = node.shape else {
            return false;
        };
        let u = self.render_const(&node);
        let (Shape::Scalar(i), Shape::Scalar(x)) = (
            self.records[r].members[0].shape.clone(),
            self.records[r].members[1].shape.clone(),
        ) else {
            return false;
        };
        let saved = self.fresh_name("sv");
        let e = self.expr(2, &Forbid::none().without_access(node.target));
        let e = self.convertible_to(e, x);
        let spec = format::conversion(&mut self.rng, x);
        let shown = if x.is_floating() {
            format!("fin({u}.x)")
        } else {
            format!("{u}.x")
        };
        let label = self.fresh_name("u");
        self.line("{");
        self.line(&format!("    {} {saved} = {u}.i;", i.c_name()));
        self.line(&format!("    {u}.x = {};", e.text));
        self.line(&format!("    printf(\"{label} {spec}\\n\", {shown});"));
        self.line(&format!("    {u}.i = {saved};"));
        self.line("}");
        let mut eff = e.eff;
        eff.writes.insert(node.target);
        eff.writes.insert(STDOUT);
        self.note(&eff);
        true
    }

    /// `printf` lines showing every scalar reachable from variable `v` (loops over its
    /// arrays and pointer windows), for `main`'s dump of the globals.
    pub(super) fn print_object(&mut self, v: super::VarId) {
        let leaves: Vec<Node> = self
            .nodes(v)
            .into_iter()
            .filter(|n| n.shape.is_leaf() || matches!(n.shape, Shape::Func(_)))
            .collect();
        for node in leaves {
            let mut loops = String::new();
            let mut text = self.vars[v as usize].name.clone();
            let mut label = text.clone();
            let mut indices = String::new();
            let mut level = 0;
            for step in &node.steps {
                match step {
                    Step::Index { len, .. } => {
                        let _ = write!(
                            loops,
                            "for (int k{level} = 0; k{level} < {len}; k{level}++) "
                        );
                        let _ = write!(text, "[k{level}]");
                        label.push_str("[%d]");
                        let _ = write!(indices, "k{level}, ");
                        level += 1;
                    }
                    Step::Member(m) => {
                        let _ = write!(text, ".{m}");
                        let _ = write!(label, ".{m}");
                    }
                    Step::Deref { lo, hi } => {
                        let _ = write!(
                            loops,
                            "for (int k{level} = {lo}; k{level} < {hi}; k{level}++) "
                        );
                        text = format!("{text}[k{level}]");
                        label = format!("{label}[%d]");
                        let _ = write!(indices, "k{level}, ");
                        level += 1;
                    }
                }
            }
            let (spec, arg) = match node.shape {
                Shape::Func(_) => ("%d".to_string(), format!("{text} != NULL")),
                ref s => {
                    let ty = s.read_ty().unwrap_or(Ty::Int);
                    let spec = format::conversion(&mut self.rng, ty);
                    let arg = if ty.is_floating() {
                        format!("fin({text})")
                    } else {
                        text
                    };
                    (spec, arg)
                }
            };
            self.line(&format!(
                "{loops}printf(\"{label} {spec}\\n\", {indices}{arg});"
            ));
        }
    }

    /// The effects of reading a whole record node.
    pub(super) fn node_read(node: &Node, index: &Effects) -> Effects {
        let mut e = index.clone();
        e.reads.insert(node.target);
        e
    }
}

fn member(name: &str, shape: Shape) -> Member {
    Member {
        name: Some(name.to_string()),
        shape,
    }
}

/// The values a bit-field holds.
pub(super) fn bits_range(signed: bool, width: u32) -> (i64, i64) {
    if signed {
        (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
    } else {
        (0, (1i64 << width) - 1)
    }
}
