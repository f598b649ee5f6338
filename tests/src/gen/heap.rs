//! The heap and `qsort`.
//!
//! A `malloc` scope is a block that allocates an array of scalars, a structure or an array of
//! structures (`malloc`, `calloc`; initialized by a loop, `memset` or a copy unless `calloc`
//! zeroed it), runs ordinary random statements that use it like any other object, and frees
//! it at its end. Nothing may leave the block without passing the `free`: inside it there are
//! no `return`s, no `break`/`continue` of an enclosing loop, no `exit` (not even in a called
//! function: [`super::Func::exits`]), and no `goto` out of it (the generator's gotos stay
//! inside their own statement). The block is the allocation's scope, so nothing uses it after
//! the `free`.
//!
//! `qsort` sorts an array of integers (or a part of one), ascending or descending, or an array
//! of `struct kv { int key; int idx; }` pairs built from any array (an argument sort): the
//! comparison functions are total orders (ties in `key` are broken by the distinct `idx`), so
//! the result does not depend on the algorithm.

use super::effects::{Effects, Forbid, STDOUT};
use super::objects::{Pointer, RecId, Shape};
use super::strings::scalar_array;
use super::types::{Ty, INT_TYPES};
use super::Gen;

impl Gen {
    /// A block with a heap allocation used by random statements, then freed.
    pub(super) fn heap_scope(&mut self, depth: u32) -> bool {
        let name = self.fresh_name("h");
        let structs: Vec<RecId> = (0..self.records.len())
            .filter(|&r| !self.records[r].union)
            .collect();
        self.line("{");
        self.indent += 1;
        self.scopes.push(Vec::new());
        match self.rng.below(3) {
            0 | 1 => self.heap_array(&name),
            _ => {
                let r = *self.rng.pick(&structs);
                if self.rng.chance(50) {
                    self.heap_record(&name, r);
                } else {
                    self.heap_records(&name, r);
                }
            }
        }
        let (loops, breakables) = (self.loops, self.breakables);
        self.loops = 0;
        self.breakables = 0;
        self.heap_live += 1;
        self.block_body(depth + 1);
        self.heap_live -= 1;
        self.loops = loops;
        self.breakables = breakables;
        self.line(&format!("free({name});"));
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        true
    }

    /// `if (h == NULL) exit(1);` in one of its spellings.
    fn null_check(&mut self, name: &str) {
        let cond = match self.rng.below(3) {
            0 => format!("{name} == NULL"),
            1 => format!("!{name}"),
            _ => format!("{name} == 0"),
        };
        self.line(&format!("if ({cond}) exit(1);"));
    }

    /// `T *h = malloc(n * sizeof *h);` and its initialization.
    fn heap_array(&mut self, name: &str) {
        let ty = self.random_type();
        let t = ty.c_name();
        let n = *self.rng.pick(&[2u32, 3, 4, 5, 8]);
        let calloc = self.rng.chance(35);
        let alloc = if calloc {
            match self.rng.below(2) {
                0 => format!("calloc({n}, sizeof *{name})"),
                _ => format!("calloc({n}, sizeof({t}))"),
            }
        } else {
            match self.rng.below(3) {
                0 => format!("malloc({n} * sizeof *{name})"),
                1 => format!("malloc(sizeof({t}) * {n})"),
                _ => format!("({t} *)malloc({n} * sizeof({t}))"),
            }
        };
        self.line(&format!("{t} *{name} = {alloc};"));
        self.null_check(name);
        if !calloc {
            if self.rng.chance(30) {
                self.line(&format!("memset({name}, 0, {n} * sizeof *{name});"));
            } else {
                let k = self.fresh_name("k");
                let v = self.element_init(ty);
                self.line(&format!(
                    "for (int {k} = 0; {k} < {n}; {k}++) {name}[{k}] = {v};"
                ));
            }
        }
        let id = self.declare(name.to_string(), ty, vec![n], true, None);
        self.vars[id as usize].heap = true;
    }

    /// `struct r *h = malloc(sizeof *h);` initialized by a copy, `memset` or `calloc`.
    fn heap_record(&mut self, name: &str, r: RecId) {
        let shape = Shape::Record(r);
        let ty = self.type_name(&shape);
        let source = self.pick_node(|_| true, |_, n| n.shape == shape);
        match (source, self.rng.below(3)) {
            (Some(src), 0 | 1) => {
                self.line(&format!("{ty} *{name} = malloc(sizeof *{name});"));
                self.null_check(name);
                let (text, eff) = self.render(&src, false, 1, &Forbid::none());
                self.note(&Self::node_read(&src, &eff));
                self.line(&format!("*{name} = {text};"));
            }
            (_, 2) => {
                self.line(&format!("{ty} *{name} = malloc(sizeof({ty}));"));
                self.null_check(name);
                self.line(&format!("memset({name}, 0, sizeof *{name});"));
            }
            _ => {
                self.line(&format!("{ty} *{name} = calloc(1, sizeof *{name});"));
                self.null_check(name);
            }
        }
        let target = self.pseudo_var("heap", true);
        let p = Pointer {
            target,
            to: shape,
            lo: 0,
            hi: 1,
            konst: false,
            ro: false,
            string: None,
            base: None,
        };
        self.declare_obj(name.to_string(), Shape::Pointer(Box::new(p)), true);
    }

    /// `struct r *h = calloc(n, sizeof *h);`, or `malloc` and a copy into every element.
    fn heap_records(&mut self, name: &str, r: RecId) {
        let shape = Shape::Record(r);
        let ty = self.type_name(&shape);
        let n = self.rng.range(2, 4) as u32;
        let source = self.pick_node(|_| true, |_, node| node.shape == shape);
        match source {
            Some(src) if self.rng.chance(50) => {
                self.line(&format!("{ty} *{name} = malloc({n} * sizeof *{name});"));
                self.null_check(name);
                let (text, eff) = self.render(&src, false, 1, &Forbid::none());
                self.note(&Self::node_read(&src, &eff));
                let k = self.fresh_name("k");
                self.line(&format!(
                    "for (int {k} = 0; {k} < {n}; {k}++) {name}[{k}] = {text};"
                ));
            }
            _ => {
                self.line(&format!("{ty} *{name} = calloc({n}, sizeof({ty}));"));
                self.null_check(name);
            }
        }
        let id = self.declare_obj(name.to_string(), Shape::array(shape, n), true);
        self.vars[id as usize].heap = true;
    }

    /// `qsort` of an integer array (or part of one), or an argument sort through `struct kv`.
    pub(super) fn qsort_stmt(&mut self) -> bool {
        if self.rng.chance(55) {
            let Some(node) = self.pick_node(
                |_| true,
                |_, n| {
                    !n.ro
                        && !matches!(n.shape, Shape::Array { nul_last: true, .. })
                        && scalar_array(n).is_some_and(|(t, _)| t.is_integer())
                },
            ) else {
                return false;
            };
            let Some((ty, len)) = scalar_array(&node) else {
                return false;
            };
            let a = self.render_const(&node);
            let up = self.rng.chance(60);
            let cmp = self.comparator(ty, up);
            let size = match self.rng.below(3) {
                0 => format!("sizeof {a}[0]"),
                1 => format!("sizeof *{a}"),
                _ => format!("sizeof({})", ty.c_name()),
            };
            let start = if self.rng.chance(30) {
                self.rng.range(0, i64::from(len) - 1) as u32
            } else {
                0
            };
            let count = self.rng.range(0, i64::from(len - start)) as u32;
            let count = if start == 0 && self.rng.chance(60) {
                len
            } else {
                count
            };
            let base = if start == 0 {
                a.clone()
            } else {
                format!("{a} + {start}")
            };
            self.charge(u64::from(len) * 4);
            let mut eff = Effects::read(node.target);
            eff.writes.insert(node.target);
            self.note(&eff);
            self.line(&format!("qsort({base}, {count}, {size}, {cmp});"));
            return true;
        }
        let Some(node) = self.pick_node(|_| true, |_, n| scalar_array(n).is_some()) else {
            return false;
        };
        let Some((ty, len)) = scalar_array(&node) else {
            return false;
        };
        let a = self.render_const(&node);
        let kv = self.fresh_name("kv");
        let k = self.fresh_name("k");
        let key = if ty.is_floating() {
            format!("d2i({a}[{k}])")
        } else {
            format!("(int)({a}[{k}])")
        };
        let key = if self.rng.chance(40) {
            format!("{key} % {}", self.rng.range(2, 4))
        } else {
            key
        };
        self.comparators.insert(KV_COMPARATOR.to_string());
        let label = self.fresh_name("sorted");
        self.charge(u64::from(len) * 8);
        self.note(&Effects::read(node.target));
        self.fx_writes.insert(STDOUT);
        self.line("{");
        self.line(&format!("    struct kv {kv}[{len}];"));
        self.line(&format!(
            "    for (int {k} = 0; {k} < {len}; {k}++) {{ {kv}[{k}].key = {key}; {kv}[{k}].idx = {k}; }}"
        ));
        self.line(&format!("    qsort({kv}, {len}, sizeof {kv}[0], cmp_kv);"));
        self.line(&format!("    printf(\"{label}:\");"));
        self.line(&format!(
            "    for (int {k} = 0; {k} < {len}; {k}++) printf(\" %d/%d\", {kv}[{k}].idx, {kv}[{k}].key);"
        ));
        self.line("    printf(\"\\n\");");
        self.line("}");
        true
    }

    /// The name of the comparison function of `ty` (ascending if `up`), recorded for the
    /// program's prelude.
    fn comparator(&mut self, ty: Ty, up: bool) -> String {
        debug_assert!(INT_TYPES.contains(&ty));
        let name = format!("cmp_{}_{}", ty.tag(), if up { "up" } else { "down" });
        let t = ty.c_name();
        let (a, b) = if up { ("x", "y") } else { ("y", "x") };
        let text = if self.rng.chance(50) {
            format!(
                "int {name}(const void *p, const void *q) {{ {t} x = *(const {t} *)p; {t} y = *(const {t} *)q; return ({a} > {b}) - ({a} < {b}); }}"
            )
        } else {
            format!(
                "int {name}(const void *p, const void *q) {{ const {t} *x = p, *y = q; if (*{a} < *{b}) return -1; return *{a} > *{b}; }}"
            )
        };
        // one definition per name (the first one generated)
        if !self
            .comparators
            .iter()
            .any(|c| c.contains(&format!(" {name}(")))
        {
            self.comparators.insert(text);
        }
        name
    }
}

/// The comparison of `struct kv` pairs: by key, ties broken by the (distinct) index.
const KV_COMPARATOR: &str = "int cmp_kv(const void *p, const void *q) { const struct kv *x = p, *y = q; if (x->key != y->key) return x->key < y->key ? -1 : 1; return (x->idx > y->idx) - (x->idx < y->idx); }";
