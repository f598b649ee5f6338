//! The objects of the pointer features and the lvalues reachable from them.
//!
//! A variable of the scalar generator is a scalar or an array of scalars; with
//! [`super::Config::pointers`] a variable may also be a structure or union, an array of them, a
//! pointer, a function pointer or a table of them ([`Shape`]). Every object reachable from a
//! variable is a [`Node`]: a path of steps (`[i]`, `.m`, a dereference `*p` / `p[i]` / `p->m`)
//! from the variable, with the shape at its end and the variable whose storage it is (its
//! *target*: the variable itself, or what a pointer on the way points into). Effects
//! ([`super::effects`]) are recorded on the target, so an access through a pointer conflicts
//! with a direct access to the same variable, as C's aliasing demands.
//!
//! What keeps the pointers well defined: a pointer variable is never assigned after its
//! declaration (only the walking pointers of `for` loops move, in their loop header), it points
//! into an object declared before it in the same or an enclosing scope (or into a global, or
//! into the heap block of an enclosing `malloc` scope), and it knows the range of offsets it
//! may be dereferenced at ([`Pointer::lo`]..[`Pointer::hi`]): a pointer to `a[2]` of an
//! `int a[5]` reads `p[-2]` to `p[2]`. Pointer differences and `<` only combine pointers into
//! the same array ([`Base`]).

use std::fmt::Write as _;

use super::effects::{Effects, Forbid, VarId};
use super::expr::{Ex, Place};
use super::types::Ty;
use super::Gen;

/// Index of a structure or union type in [`Gen::records`].
pub(super) type RecId = usize;
/// Index of a function-pointer signature in [`Gen::sigs`].
pub(super) type SigId = usize;

/// The type of an object, as far as the generator needs to know it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Shape {
    /// A scalar.
    Scalar(Ty),
    /// A bit-field member (`int` if signed, else `unsigned`) of `width` bits.
    Bits {
        /// Signed (`int` / `signed int`) rather than `unsigned`.
        signed: bool,
        /// Width in bits: 1-32 if signed, 1-31 if unsigned (so it promotes to `int`).
        width: u32,
    },
    /// An array. `nul_last`: a string buffer of `char`, whose last element is never written.
    Array {
        /// The element type.
        of: Box<Shape>,
        /// The number of elements.
        len: u32,
        /// The last element always holds a NUL.
        nul_last: bool,
    },
    /// A structure or union.
    Record(RecId),
    /// A pointer with a fixed target.
    Pointer(Box<Pointer>),
    /// A function pointer of a signature.
    Func(SigId),
}

/// A pointer: where it points and how far it may be dereferenced.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Pointer {
    /// The variable whose storage it points into.
    pub(super) target: VarId,
    /// The type pointed to (a scalar, a structure, or a pointer for `T **`).
    pub(super) to: Shape,
    /// `p[lo]` to `p[hi - 1]` are valid objects (`lo <= 0 < hi`).
    pub(super) lo: i32,
    /// See [`Pointer::lo`].
    pub(super) hi: i32,
    /// Declared as a pointer to `const`.
    pub(super) konst: bool,
    /// Never written through (pointers to `const`, into string buffers, to loop counters).
    pub(super) ro: bool,
    /// A `char` pointer to a NUL-terminated string of at most this many characters
    /// (`u32::MAX`: unknown); the NUL is inside `lo..hi`.
    pub(super) string: Option<u32>,
    /// The array it points into, if the generator knows it.
    pub(super) base: Option<Base>,
}

/// An array a pointer points into: pointers with the same `var` and `text` may be subtracted
/// and compared with `<`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Base {
    /// The variable the array is reached from.
    pub(super) var: VarId,
    /// The array's text (`a`, `s.v`, `p->items[1].v`), with constant indices: valid wherever
    /// `var` is visible by its name.
    pub(super) text: String,
    /// The pointer is the array plus `off`.
    pub(super) off: i32,
    /// The array's length.
    pub(super) len: u32,
}

/// A structure or union type.
#[derive(Clone, Debug)]
pub(super) struct Record {
    /// `struct r2` or `union u0`.
    pub(super) c_name: String,
    /// A typedef name for it.
    pub(super) typedef: String,
    /// A union: only its first member (an integer) is written and read, and its last member
    /// (`unsigned char b[sizeof first]`) reads the first one's bytes.
    pub(super) union: bool,
    /// The members in order.
    pub(super) members: Vec<Member>,
}

/// A member of a structure or union.
#[derive(Clone, Debug)]
pub(super) struct Member {
    /// Its name (`None` for an unnamed bit-field, which only pads).
    pub(super) name: Option<String>,
    /// Its type.
    pub(super) shape: Shape,
}

/// A function-pointer signature `ret (*)(params)` and the pure functions of that type.
#[derive(Clone, Debug)]
pub(super) struct Sig {
    /// Result type.
    pub(super) ret: Ty,
    /// Parameter types.
    pub(super) params: Vec<Ty>,
    /// Names of the functions of this signature defined so far.
    pub(super) funcs: Vec<String>,
}

/// One step of a path from a variable to an object inside it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    /// An array element `[i]`; for a string buffer, writes stay off the last element.
    Index {
        /// The array's length.
        len: u32,
        /// The array is a string buffer.
        nul_last: bool,
    },
    /// A member `.m` (or `->m` right after a dereference).
    Member(String),
    /// The object a pointer points at, at an offset in `lo..hi`.
    Deref {
        /// Smallest offset.
        lo: i32,
        /// One past the largest offset.
        hi: i32,
    },
}

/// An object reachable from a variable.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The variable the path starts at.
    pub(super) var: VarId,
    /// The path.
    pub(super) steps: Vec<Step>,
    /// The object's type.
    pub(super) shape: Shape,
    /// The variable whose storage it is.
    pub(super) target: VarId,
    /// It may not be written.
    pub(super) ro: bool,
    /// It is reached through a pointer to `const` (C forbids writing it too).
    pub(super) konst: bool,
}

/// How deep node enumeration goes (pointer chains and nested records are shallower anyway).
const MAX_PATH: usize = 10;

impl Shape {
    /// `Shape::Array` of `of`.
    pub(super) fn array(of: Shape, len: u32) -> Shape {
        Shape::Array {
            of: Box::new(of),
            len,
            nul_last: false,
        }
    }

    /// The shape of an array of `of` with dimensions `dims` (`of` itself if none).
    pub(super) fn wrap(of: Shape, dims: &[u32], nul_last: bool) -> Shape {
        let mut s = of;
        for (i, &len) in dims.iter().enumerate().rev() {
            s = Shape::Array {
                of: Box::new(s),
                len,
                nul_last: nul_last && i + 1 == dims.len(),
            };
        }
        s
    }

    /// The type of the expression reading this scalar or bit-field.
    pub(super) fn read_ty(&self) -> Option<Ty> {
        match self {
            Shape::Scalar(t) => Some(*t),
            Shape::Bits { .. } => Some(Ty::Int),
            _ => None,
        }
    }

    /// True for scalars and bit-fields.
    pub(super) fn is_leaf(&self) -> bool {
        self.read_ty().is_some()
    }
}

impl Node {
    /// An element of a string buffer: it may be its last one, which is never written, so a
    /// pointer to it only reads.
    pub(super) fn in_string(&self) -> bool {
        matches!(self.steps.last(), Some(Step::Index { nul_last: true, .. }))
    }
}

impl Gen {
    /// The shape of variable `v`.
    pub(super) fn shape_of(&self, v: VarId) -> Shape {
        let var = &self.vars[v as usize];
        let elem = var.obj.clone().unwrap_or(Shape::Scalar(var.ty));
        Shape::wrap(elem, &var.dims, var.nul_last)
    }

    /// Every object reachable from variable `v`, the variable itself first.
    pub(super) fn nodes(&self, v: VarId) -> Vec<Node> {
        let var = &self.vars[v as usize];
        let root = Node {
            var: v,
            steps: Vec::new(),
            shape: self.shape_of(v),
            target: v,
            ro: !var.writable,
            konst: false,
        };
        let mut out = Vec::new();
        self.walk(root, &mut out);
        if var.array_param {
            // not a pointer value for the checker yet: only its elements
            out.retain(|n| !matches!(n.shape, Shape::Array { .. }));
        }
        out
    }

    fn walk(&self, node: Node, out: &mut Vec<Node>) {
        let mut children = Vec::new();
        if node.steps.len() < MAX_PATH {
            match &node.shape {
                Shape::Array { of, len, nul_last } => children.push(Node {
                    steps: push(
                        &node.steps,
                        Step::Index {
                            len: *len,
                            nul_last: *nul_last,
                        },
                    ),
                    shape: (**of).clone(),
                    ..node.clone()
                }),
                Shape::Record(r) => {
                    let rec = &self.records[*r];
                    let last = rec.members.len() - 1;
                    for (i, m) in rec.members.iter().enumerate() {
                        let Some(name) = &m.name else { continue };
                        // a union is only used through its first member and its bytes
                        if rec.union && i != 0 && i != last {
                            continue;
                        }
                        children.push(Node {
                            steps: push(&node.steps, Step::Member(name.clone())),
                            shape: m.shape.clone(),
                            ro: node.ro || (rec.union && i == last),
                            ..node.clone()
                        });
                    }
                }
                Shape::Pointer(p) => children.push(Node {
                    var: node.var,
                    steps: push(&node.steps, Step::Deref { lo: p.lo, hi: p.hi }),
                    shape: p.to.clone(),
                    target: p.target,
                    ro: p.ro,
                    konst: p.konst,
                }),
                Shape::Scalar(_) | Shape::Bits { .. } | Shape::Func(_) => {}
            }
        }
        out.push(node);
        for c in children {
            self.walk(c, out);
        }
    }

    /// Picks a node satisfying `keep` among the nodes of the visible variables chosen by
    /// `vars` (a variable first, uniformly among those with such a node, then one of its nodes).
    pub(super) fn pick_node(
        &mut self,
        vars: impl Fn(&super::Var) -> bool,
        keep: impl Fn(&Gen, &Node) -> bool,
    ) -> Option<Node> {
        let mut groups: Vec<Vec<Node>> = Vec::new();
        for v in self.visible() {
            if v == super::effects::STDOUT || !vars(&self.vars[v as usize]) {
                continue;
            }
            // In a program split in two files, the checker takes a global structure declared
            // `extern` in `main.c` as a type other than `main.c`'s own structure of that name
            // (reported): `main` uses global structures only through their scalars.
            let split_safe =
                |n: &Node| !(self.in_main && self.vars[v as usize].global && has_record(&n.shape));
            let nodes: Vec<Node> = self
                .nodes(v)
                .into_iter()
                .filter(|n| split_safe(n) && keep(self, n))
                .collect();
            if !nodes.is_empty() {
                groups.push(nodes);
            }
        }
        if groups.is_empty() {
            return None;
        }
        let g = self.rng.index(groups.len());
        let i = self.rng.index(groups[g].len());
        Some(groups.swap_remove(g).swap_remove(i))
    }

    /// The C text of a node, with indices and pointer offsets chosen at random in range (reduced
    /// modulo the length, or loop counters known in range) and unsequenced with each other, and
    /// the effects of the indices. The indices do not touch the node's variable or target. With
    /// `write`, the index into a string buffer stays off its last element.
    pub(super) fn render(
        &mut self,
        node: &Node,
        write: bool,
        depth: u32,
        f: &Forbid,
    ) -> (String, Effects) {
        let f = f.without_access(node.var).without_access(node.target);
        let mut text = self.vars[node.var as usize].name.clone();
        let mut eff = Effects::none();
        let mut i = 0;
        while i < node.steps.len() {
            match &node.steps[i] {
                Step::Index { len, nul_last } => {
                    let n = if write && *nul_last { len - 1 } else { *len };
                    let ix = self.index(n, depth, &f.after(&eff));
                    eff.union_with(&ix.eff);
                    let _ = write!(text, "[{}]", ix.text);
                }
                Step::Member(m) => {
                    let _ = write!(text, ".{m}");
                }
                Step::Deref { lo, hi } => {
                    let member = match node.steps.get(i + 1) {
                        Some(Step::Member(m)) => Some(m.clone()),
                        _ => None,
                    };
                    let offset = if hi - lo == 1 {
                        None
                    } else {
                        let ix = self.index((hi - lo) as u32, depth, &f.after(&eff));
                        eff.union_with(&ix.eff);
                        Some(if *lo == 0 {
                            ix.text
                        } else {
                            format!("((int)({}) - {})", ix.text, -lo)
                        })
                    };
                    let (t, fused) = self.deref_text(&text, *lo, offset, member.as_deref());
                    text = t;
                    if fused {
                        i += 1;
                    }
                }
            }
            i += 1;
        }
        (text, eff)
    }

    /// The text of `*(p + off)` in one of C's spellings, and whether it took the member that
    /// follows (`p->m`). `off` is `None` for the constant offset `lo`.
    fn deref_text(
        &mut self,
        p: &str,
        lo: i32,
        off: Option<String>,
        member: Option<&str>,
    ) -> (String, bool) {
        let arrow = member.is_some() && self.rng.chance(60);
        let m = member.unwrap_or_default();
        let text = match off {
            None if lo == 0 => match (arrow, self.rng.below(3)) {
                (true, _) => format!("{p}->{m}"),
                (false, 0) => format!("{p}[0]"),
                _ => format!("(*{p})"),
            },
            None => match (arrow, self.rng.below(3)) {
                (true, _) => format!("({p} + {lo})->{m}"),
                (false, 0) => format!("(*({p} + {lo}))"),
                _ => format!("{p}[{lo}]"),
            },
            Some(o) => match (arrow, self.rng.below(4)) {
                (true, _) => format!("({p} + {o})->{m}"),
                (false, 0) => format!("(*({p} + {o}))"),
                _ => format!("{p}[{o}]"),
            },
        };
        (text, arrow)
    }

    /// The C text of a node with constant indices and offsets (for address constants, pointer
    /// bases, and texts evaluated more than once).
    pub(super) fn render_const(&mut self, node: &Node) -> String {
        let mut text = self.vars[node.var as usize].name.clone();
        let mut i = 0;
        while i < node.steps.len() {
            match &node.steps[i] {
                Step::Index { len, .. } => {
                    let k = self.rng.below(u64::from(*len));
                    let _ = write!(text, "[{k}]");
                }
                Step::Member(m) => {
                    let _ = write!(text, ".{m}");
                }
                Step::Deref { lo, hi } => {
                    let k = self.rng.range(i64::from(*lo), i64::from(*hi) - 1) as i32;
                    let member = match node.steps.get(i + 1) {
                        Some(Step::Member(m)) => Some(m.clone()),
                        _ => None,
                    };
                    let (t, fused) = self.deref_text(&text, k, None, member.as_deref());
                    text = t;
                    if fused {
                        i += 1;
                    }
                }
            }
            i += 1;
        }
        text
    }

    /// A read of a scalar inside a structure, union or pointed-to object.
    pub(super) fn object_read(&mut self, depth: u32, f: &Forbid) -> Option<Ex> {
        let node = self.pick_node(
            |v| !v.plain(),
            |_, n| n.shape.is_leaf() && f.may_read(n.target) && f.may_read(n.var),
        )?;
        let (text, mut eff) = self.render(&node, false, depth, f);
        eff.reads.insert(node.target);
        let ty = node.shape.read_ty()?;
        Some(Ex::new(text, ty, eff))
    }

    /// A writable scalar inside a structure, union or pointed-to object.
    pub(super) fn object_place(&mut self, depth: u32, f: &Forbid) -> Option<Place> {
        let node = self.pick_node(
            |v| !v.plain(),
            |_, n| n.shape.is_leaf() && !n.ro && f.may_write(n.target) && f.may_read(n.var),
        )?;
        let (text, index_eff) = self.render(&node, true, depth, f);
        let bits = match node.shape {
            Shape::Bits { signed, width } => Some((signed, width)),
            _ => None,
        };
        Some(Place {
            text,
            ty: node.shape.read_ty()?,
            var: node.target,
            index_eff,
            bits,
        })
    }

    /// The C declaration of an object of shape `shape` named `name` (`int (*t[3])(int, int)`,
    /// `const char *s`, `struct r1 a[2][3]`), with typedef names now and then.
    pub(super) fn declaration(&mut self, shape: &Shape, name: &str) -> String {
        match shape {
            Shape::Scalar(t) => format!("{} {name}", t.c_name()),
            Shape::Bits { .. } => unreachable!("bit-fields are declared in their structure"),
            Shape::Record(r) => {
                let rec = &self.records[*r];
                let spelled = if self.rng.chance(25) {
                    rec.typedef.clone()
                } else {
                    rec.c_name.clone()
                };
                format!("{spelled} {name}")
            }
            Shape::Array { of, len, .. } => self.declaration(of, &format!("{name}[{len}]")),
            Shape::Pointer(p) => {
                let inner = format!("*{name}");
                let text = self.declaration(&p.to, &inner);
                if p.konst && !matches!(p.to, Shape::Pointer(_)) {
                    format!("const {text}")
                } else {
                    text
                }
            }
            Shape::Func(s) => {
                let sig = &self.sigs[*s];
                let params: Vec<&str> = sig.params.iter().map(|t| t.c_name()).collect();
                format!("{} (*{name})({})", sig.ret.c_name(), params.join(", "))
            }
        }
    }

    /// The type name of `shape` (for casts and `sizeof`).
    pub(super) fn type_name(&mut self, shape: &Shape) -> String {
        self.declaration(shape, "")
            .replace(" )", ")")
            .trim_end()
            .to_string()
    }

    /// Declares a variable that is not visible by name: the target of pointers the generator
    /// cannot name (a callee's pointee, a heap block, a string literal).
    pub(super) fn pseudo_var(&mut self, what: &str, writable: bool) -> VarId {
        let id = self.vars.len() as VarId;
        self.vars.push(super::Var {
            name: format!("<{what}>"),
            ty: Ty::Int,
            dims: vec![],
            writable,
            bound: None,
            global: false,
            obj: None,
            nul_last: false,
            heap: false,
            array_param: false,
        });
        id
    }

    /// Declares a variable of the pointer features in the current scope.
    pub(super) fn declare_obj(&mut self, name: String, shape: Shape, writable: bool) -> VarId {
        let (elem, dims) = split_dims(shape);
        let ty = elem.read_ty().unwrap_or(Ty::Int);
        let plain = matches!(elem, Shape::Scalar(_));
        let id = self.declare(name, ty, dims, writable, None);
        if !plain {
            self.vars[id as usize].obj = Some(elem);
        }
        id
    }
}

/// An array shape's element type and dimensions (of nested arrays; none for other shapes).
/// String buffers lose their `nul_last` mark: see [`Gen::declare_obj`]'s callers.
pub(super) fn split_dims(shape: Shape) -> (Shape, Vec<u32>) {
    let mut dims = Vec::new();
    let mut s = shape;
    while let Shape::Array { of, len, .. } = s {
        dims.push(len);
        s = *of;
    }
    (s, dims)
}

/// Is `shape` a structure or union, or an array of or pointer to one?
fn has_record(shape: &Shape) -> bool {
    match shape {
        Shape::Record(_) => true,
        Shape::Array { of, .. } => has_record(of),
        Shape::Pointer(p) => has_record(&p.to),
        Shape::Scalar(_) | Shape::Bits { .. } | Shape::Func(_) => false,
    }
}

fn push(steps: &[Step], s: Step) -> Vec<Step> {
    let mut v = steps.to_vec();
    v.push(s);
    v
}
