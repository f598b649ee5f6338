//! Whole programs: the prelude of guard helpers, globals, the recursive helpers, generated
//! functions and `main`; calls of generated functions.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::effects::{Effects, Forbid, VarId, STDOUT};
use super::format;
use super::rng::Rng;
use super::types::{Ty, ALL_TYPES, INT_TYPES};
use super::{Config, Func, Gen, Param, Var};

/// The headers and helper functions every generated program starts with: range-checked conversions from
/// double, guarded division and remainder, `abs`/`labs` without the `MIN` case, a NaN filter
/// for printing (the sign glibc prints for a NaN depends on how it was produced), an exit
/// from a nested call, and a variadic function (`va_mix`: its first argument spells the
/// promoted type of each further one, `i` `int`, `u` `unsigned`, `l` `long`, `k` `unsigned
/// long`, `d` `double`, which it reads with `va_arg` and mixes into a `long`), and `ld_mix`,
/// which applies a string of operations in `long double` to a `double` and a `long` and
/// returns 62 bits of the result's fraction (so every rounding of the 64-bit significand
/// shows).
const INCLUDES: &str =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <stdarg.h>\n\n";

/// [`INCLUDES`] and `<string.h>`, for the pointer features.
const INCLUDES_STRING: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <stdarg.h>\n#include <string.h>\n\n";

/// See [`INCLUDES`]: the helper functions, one per line (the two-file programs make each a
/// `static` by prefixing its line). `fin` adds 0.0 so that a zero prints unsigned: gcc folds
/// `(float)0 - g()` into `-g()`, even at -O0, and prints `-0` where IEEE arithmetic gives `+0`.
const HELPERS: &str = r#"char d2c(double x) { if (x > -128.0 && x < 128.0) return x; return 0; }
unsigned char d2uc(double x) { if (x > -1.0 && x < 256.0) return x; return 5; }
short d2s(double x) { return x > -32769.0 && x < 32768.0 ? (short)x : 6; }
unsigned short d2us(double x) { if (x > -1.0 && x < 65536.0) return x; return 7; }
int d2i(double x) { return x > -2147483648.0 && x < 2147483648.0 ? (int)x : 1; }
unsigned d2u(double x) { if (x > -1.0 && x < 4294967296.0) return (unsigned)x; return 2u; }
long d2l(double x) { return x > -9223372036854775808.0 && x < 9223372036854775808.0 ? (long)x : 3L; }
unsigned long d2ul(double x) { if (x > -1.0 && x < 18446744073709551616.0) return x; return 4ul; }
int div_i(int a, int b) { return b == 0 || (a == (-2147483647 - 1) && b == -1) ? a : a / b; }
int mod_i(int a, int b) { return b == 0 || (a == (-2147483647 - 1) && b == -1) ? a : a % b; }
unsigned div_u(unsigned a, unsigned b) { return b == 0 ? a : a / b; }
unsigned mod_u(unsigned a, unsigned b) { return b == 0 ? a : a % b; }
long div_l(long a, long b) { if (b == 0 || (a == (-9223372036854775807L - 1) && b == -1)) return a; return a / b; }
long mod_l(long a, long b) { if (b == 0 || (a == (-9223372036854775807L - 1) && b == -1)) return a; return a % b; }
unsigned long div_ul(unsigned long a, unsigned long b) { return b == 0 ? a : a / b; }
unsigned long mod_ul(unsigned long a, unsigned long b) { return b == 0 ? a : a % b; }
int safe_abs(int x) { return x == (-2147483647 - 1) ? 0 : abs(x); }
long safe_labs(long x) { return x == (-9223372036854775807L - 1) ? 0 : labs(x); }
double fin(double x) { return x == x ? x + 0.0 : -1.5; }
void finish(int code) { printf("finish %d\n", code); exit(code); }
long va_mix(const char *kinds, ...) { va_list ap; long acc = 0; va_start(ap, kinds); for (; *kinds; kinds++) { if (*kinds == 'i') acc = acc % 1000003 * 3 + va_arg(ap, int) % 1000; else if (*kinds == 'u') acc = acc % 1000003 * 3 + (long)(va_arg(ap, unsigned) % 1000u); else if (*kinds == 'l') acc = acc % 1000003 * 3 + va_arg(ap, long) % 1000; else if (*kinds == 'k') acc = acc % 1000003 * 3 + (long)(va_arg(ap, unsigned long) % 1000ul); else { double x = va_arg(ap, double); acc = acc % 1000003 * 3 + (x > 0.0) - (x < 0.0); } } va_end(ap); return acc; }
long ld_mix(double a, long b, const char *ops) { long double x = a == a && a < 1e300 && a > -1e300 ? a : 1.5, y = b, acc = 0.1L; for (; *ops; ops++) { if (*ops == '+') acc += x; else if (*ops == '-') acc = acc - y / 7; else if (*ops == '*') acc *= 1.0000000001L; else acc = (acc + 1) / 3.0L; while (acc > 1e18L || acc < -1e18L) acc /= 1e9L; } return (long)((acc - (long)acc) * 4611686018427387904.0L); }
"#;

/// Shapes of array parameters and of the local arrays declared to match them.
pub(super) const SHAPES: &[&[u32]] = &[&[4], &[5], &[8], &[3, 4], &[2, 5], &[2, 3, 2]];

impl Gen {
    pub(super) fn new(seed: u64, cfg: Config) -> Gen {
        Gen::with_rng(Rng::new(seed), cfg)
    }

    /// A generator drawing its choices from `rng`.
    pub(super) fn with_rng(rng: Rng, cfg: Config) -> Gen {
        let stdout = Var {
            name: "<stdout>".into(),
            ty: Ty::Int,
            dims: vec![],
            writable: false,
            bound: None,
            global: true,
            obj: None,
            nul_last: false,
            heap: false,
            array_param: false,
        };
        Gen {
            rng,
            cfg,
            vars: vec![stdout],
            scopes: vec![Vec::new()],
            hidden: None,
            funcs: Vec::new(),
            globals: Vec::new(),
            out: String::new(),
            indent: 0,
            cost: 0,
            mult: 1,
            budget: 0,
            fx_writes: BTreeSet::new(),
            loops: 0,
            breakables: 0,
            ret: None,
            in_main: false,
            fresh: 0,
            fx_exits: false,
            heap_live: 0,
            records: Vec::new(),
            sigs: Vec::new(),
            comparators: BTreeSet::new(),
        }
    }

    /// Ids of the variables visible here (innermost declaration of each name).
    pub(super) fn visible(&self) -> Vec<VarId> {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        if let Some(h) = &self.hidden {
            seen.insert(h.as_str());
        }
        let mut out = Vec::new();
        for scope in self.scopes.iter().rev() {
            for &id in scope.iter().rev() {
                if seen.insert(self.vars[id as usize].name.as_str()) {
                    out.push(id);
                }
            }
        }
        out
    }

    pub(super) fn declare(
        &mut self,
        name: String,
        ty: Ty,
        dims: Vec<u32>,
        writable: bool,
        bound: Option<u32>,
    ) -> VarId {
        let id = self.vars.len() as VarId;
        let global = self.scopes.len() == 1;
        self.vars.push(Var {
            name,
            ty,
            dims,
            writable,
            bound,
            global,
            obj: None,
            nul_last: false,
            heap: false,
            array_param: false,
        });
        self.scopes.last_mut().expect("a scope").push(id);
        if global {
            self.globals.push(id);
        }
        id
    }

    pub(super) fn fresh_name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    pub(super) fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Records the writes of an emitted full expression that callers can observe.
    pub(super) fn note(&mut self, eff: &Effects) {
        for &w in &eff.writes {
            if w == STDOUT || self.vars[w as usize].global {
                self.fx_writes.insert(w);
            }
        }
    }

    pub(super) fn charge(&mut self, n: u64) {
        self.cost = self.cost.saturating_add(self.mult.saturating_mul(n));
    }

    pub(super) fn remaining(&self) -> u64 {
        self.budget.saturating_sub(self.cost)
    }

    /// A call of one of the callable functions (with a result if `want_value`): its text, result
    /// type and effects. `None` if no function can be called here.
    pub(super) fn call(
        &mut self,
        d: u32,
        f: &Forbid,
        want_value: bool,
    ) -> Option<(String, Option<Ty>, Effects)> {
        let cands: Vec<usize> = (0..self.funcs.len())
            .filter(|&i| {
                let fu = &self.funcs[i];
                (!want_value || fu.ret.is_some())
                    && !(fu.exits && self.heap_live > 0)
                    && self.mult.saturating_mul(fu.cost) <= self.remaining()
                    && fu.writes.iter().all(|&w| f.may_write(w))
                    && self.globals.iter().all(|&g| f.may_read(g))
            })
            .collect();
        if cands.is_empty() {
            return None;
        }
        let fu = self.funcs[*self.rng.pick(&cands)].clone();
        let mut acc = Effects::none();
        let mut args = Vec::new();
        let mut used: Vec<VarId> = Vec::new();
        for p in &fu.params {
            match p {
                Param::Scalar(ty) => {
                    let e = self.expr(d, &f.after(&acc));
                    let e = self.convertible_to(e, *ty);
                    acc.union_with(&e.eff);
                    args.push(e.text);
                }
                Param::Depth(n) => {
                    let e = self.int_expr(d, &f.after(&acc));
                    acc.union_with(&e.eff);
                    args.push(format!("(unsigned)({}) % {n}u", e.text));
                }
                Param::Array { ty, dims } => {
                    let fa = f.after(&acc);
                    let cands: Vec<VarId> = self
                        .visible()
                        .into_iter()
                        .filter(|&v| {
                            let var = &self.vars[v as usize];
                            var.ty == *ty
                                && var.plain()
                                && !var.nul_last
                                && !var.heap
                                && !var.global
                                && fa.may_write(v)
                                && !used.contains(&v)
                                && (var.dims == *dims
                                    || (var.dims.len() == dims.len() + 1
                                        && var.dims[1..] == dims[..]))
                        })
                        .collect();
                    if cands.is_empty() {
                        return None;
                    }
                    let v = *self.rng.pick(&cands);
                    used.push(v);
                    let var = self.vars[v as usize].clone();
                    let text = if var.dims == *dims {
                        var.name.clone()
                    } else {
                        let i = self.index(var.dims[0], 0, &fa.without_access(v));
                        acc.union_with(&i.eff);
                        format!("{}[{}]", var.name, i.text)
                    };
                    acc.reads.insert(v);
                    acc.writes.insert(v);
                    args.push(text);
                }
                Param::Pointer { .. } | Param::Str | Param::Func(_) => {
                    let arg = self.pointer_arg(p, d, f, &mut acc, &mut used)?;
                    args.push(arg);
                }
            }
        }
        self.charge(fu.cost);
        if fu.exits {
            self.fx_exits = true;
        }
        let mut eff = acc;
        eff.reads.extend(self.globals.iter().copied());
        eff.writes.extend(fu.writes.iter().copied());
        Some((format!("{}({})", fu.name, args.join(", ")), fu.ret, eff))
    }

    // ----- functions and the program -----

    pub(super) fn globals(&mut self, src: &mut String) {
        let n = self.rng.range(4, 8);
        for k in 0..n {
            let ty = if (k as usize) < ALL_TYPES.len() {
                ALL_TYPES[k as usize]
            } else {
                self.random_type()
            };
            let name = format!("g{k}");
            let init = self.constant_initializer(ty);
            let spelled = self.spelling(ty);
            let _ = writeln!(src, "{spelled} {name} = {init};");
            self.declare(name, ty, vec![], true, None);
        }
        for k in 0..self.rng.range(1, 3) {
            let ty = self.random_type();
            let dims = self.rng.pick(SHAPES).to_vec();
            let name = format!("ga{k}");
            let (init, complete) = self.brace_init(&dims, &mut |g: &mut Gen| {
                let t = if ty.is_integer() {
                    *g.rng.pick(&INT_TYPES)
                } else {
                    *g.rng.pick(&ALL_TYPES)
                };
                t.random_literal(&mut g.rng)
            });
            let rest: String = dims[1..].iter().map(|d| format!("[{d}]")).collect();
            let decl_dims = if complete && self.rng.chance(50) {
                format!("[]{rest}")
            } else {
                format!("[{}]{rest}", dims[0])
            };
            let _ = writeln!(src, "{} {name}{decl_dims} = {init};", ty.c_name());
            self.declare(name, ty, dims, true, None);
        }
        if self.cfg.pointers {
            self.object_globals(src);
        }
    }

    /// Globals of the pointer features: structures and unions (and arrays of them), string
    /// buffers and literals, pointers to globals, function pointers and tables.
    fn object_globals(&mut self, src: &mut String) {
        for _ in 0..self.rng.range(1, 3) {
            self.record_var(Some(&mut *src), None, false);
        }
        if self.rng.chance(60) {
            self.string_buffer(Some(&mut *src));
        }
        if self.rng.chance(60) {
            self.string_pointer(Some(&mut *src));
        }
        for _ in 0..self.rng.range(0, 2) {
            self.pointer_var(Some(&mut *src));
        }
        if self.rng.chance(60) {
            self.func_var(Some(&mut *src));
        }
    }

    /// A constant expression for a global of type `ty`: a literal, or a small expression over
    /// literals that the checker must fold (without overflow, which C forbids in constant
    /// expressions).
    pub(super) fn constant_initializer(&mut self, ty: Ty) -> String {
        match self.rng.below(6) {
            0 if ty.is_integer() => {
                let (a, b) = (self.rng.range(-1000, 1000), self.rng.range(-1000, 1000));
                let op = *self.rng.pick(&["+", "-", "*", "&", "|", "^"]);
                format!("({a} {op} {b})")
            }
            1 if ty.is_integer() => {
                let a = self.rng.range(0, 4096);
                match self.rng.below(4) {
                    0 => format!("({a} << {})", self.rng.range(0, 16)),
                    1 => format!("(~{a})"),
                    2 => format!(
                        "({a} % {} + {a} / {})",
                        self.rng.range(1, 50),
                        self.rng.range(1, 50)
                    ),
                    _ => format!("(({}){})", ty.c_name(), self.rng.range(-100_000, 100_000)),
                }
            }
            2 if ty.is_floating() => {
                format!(
                    "({} * {} - {})",
                    self.rng.range(-50, 50),
                    Ty::Double.random_literal(&mut self.rng),
                    self.rng.range(0, 9)
                )
            }
            3 => {
                let c = self.rng.range(0, 1);
                format!(
                    "({c} ? {} : {})",
                    ty.random_literal(&mut self.rng),
                    ty.random_literal(&mut self.rng)
                )
            }
            _ => ty.random_literal(&mut self.rng),
        }
    }

    /// A bounded recursive function and a mutually recursive pair (declared by prototype);
    /// neither prints nor writes globals, so expressions may call them anywhere.
    pub(super) fn recursive_functions(&mut self, src: &mut String) {
        let ty = *self.rng.pick(&[
            Ty::Int,
            Ty::Long,
            Ty::ULong,
            Ty::Double,
            Ty::UInt,
            Ty::Float,
            Ty::Short,
        ]);
        let t = ty.c_name();
        let ops: &[&str] = if ty.is_floating() {
            &["+", "-", "*"]
        } else {
            &["+", "-", "*", "^"]
        };
        let (o1, o2, o3) = (
            *self.rng.pick(ops),
            *self.rng.pick(ops),
            *self.rng.pick(ops),
        );
        let m = self.rng.range(2, 4);
        let k1 = self.rng.range(1, 9);
        let _ = writeln!(
            src,
            "{t} rec(int n, {t} acc) {{\n    if (n <= 0) return acc {o1} {k1};\n    if (n % {m} == 0) return rec(n - 1, acc {o2} n) {o3} rec(n - 2, acc);\n    return rec(n - 1, acc {o2} {k1});\n}}\n"
        );
        // at most about 2^(n/2) calls for n < 11
        self.funcs.push(Func {
            name: "rec".into(),
            ret: Some(ty),
            params: vec![Param::Depth(11), Param::Scalar(ty)],
            writes: BTreeSet::new(),
            cost: 200,
            exits: false,
        });
        let _ = writeln!(
            src,
            "int is_odd(unsigned n);\nint is_even(unsigned n) {{ return n == 0 ? 1 : is_odd(n - 1); }}\nint is_odd(unsigned n) {{ return n == 0 ? 0 : is_even(n - 1); }}\n"
        );
        for name in ["is_even", "is_odd"] {
            self.funcs.push(Func {
                name: name.into(),
                ret: Some(Ty::Int),
                params: vec![Param::Depth(60)],
                writes: BTreeSet::new(),
                cost: 60,
                exits: false,
            });
        }
        // recursion that reads and writes an array parameter
        let ty = *self.rng.pick(&[
            Ty::Int,
            Ty::Long,
            Ty::Double,
            Ty::Char,
            Ty::UInt,
            Ty::Float,
            Ty::UChar,
            Ty::Short,
        ]);
        let t = ty.c_name();
        let k = self.rng.range(1, 7);
        let _ = writeln!(
            src,
            "{t} rsum({t} a[], int n) {{ return n <= 0 ? a[0] : a[(unsigned)n % 8u] + rsum(a, n - {k}); }}\n\
             void rfill({t} a[], int n) {{\n    if (n <= 0) return;\n    a[(unsigned)(n * {k}) % 8u] += n;\n    rfill(a, n - 1);\n}}\n"
        );
        let arr = Param::Array { ty, dims: vec![8] };
        self.funcs.push(Func {
            name: "rsum".into(),
            ret: Some(ty),
            params: vec![arr.clone(), Param::Depth(20)],
            writes: BTreeSet::new(),
            cost: 20,
            exits: false,
        });
        self.funcs.push(Func {
            name: "rfill".into(),
            ret: None,
            params: vec![arr, Param::Depth(20)],
            writes: BTreeSet::new(),
            cost: 40,
            exits: false,
        });
    }

    pub(super) fn params(&mut self) -> Vec<Param> {
        let mut ps = Vec::new();
        for _ in 0..self.rng.range(0, 3) {
            ps.push(Param::Scalar(self.random_type()));
        }
        for _ in 0..self.rng.range(0, 2) {
            let ty = self.random_type();
            let dims = self.rng.pick(SHAPES).to_vec();
            let dims = if dims.len() >= 2 && self.rng.chance(40) {
                dims[1..].to_vec()
            } else {
                dims
            };
            let at = self.rng.index(ps.len() + 1);
            ps.insert(at, Param::Array { ty, dims });
        }
        if self.cfg.pointers {
            for _ in 0..self.rng.range(0, 2) {
                let p = self.pointer_param();
                let at = self.rng.index(ps.len() + 1);
                ps.insert(at, p);
            }
        }
        ps
    }

    /// Declares local arrays shaped like the array parameters of callable functions, so calls
    /// find arguments.
    pub(super) fn arrays_for_calls(&mut self) {
        let shapes: Vec<(Ty, Vec<u32>)> = self
            .funcs
            .iter()
            .flat_map(|f| f.params.iter())
            .filter_map(|p| match p {
                Param::Array { ty, dims } => Some((*ty, dims.clone())),
                _ => None,
            })
            .collect();
        for (ty, dims) in shapes {
            if self.rng.chance(70) {
                self.local_array(ty, dims);
            }
        }
        if self.cfg.pointers {
            let params: Vec<Param> = self
                .funcs
                .iter()
                .flat_map(|f| f.params.iter())
                .filter(|p| matches!(p, Param::Pointer { .. }))
                .cloned()
                .collect();
            for p in params {
                if self.rng.chance(60) {
                    self.local_for_param(&p);
                }
            }
        }
    }

    /// Generates one function; returns its definition text.
    pub(super) fn function(
        &mut self,
        name: String,
        ret: Option<Ty>,
        params: Vec<Param>,
        budget: u64,
    ) -> String {
        self.out.clear();
        self.indent = 1;
        self.cost = 0;
        self.mult = 1;
        self.budget = budget;
        self.fx_writes.clear();
        self.fx_exits = false;
        self.ret = ret;
        self.scopes.push(Vec::new());
        let mut ptexts = Vec::new();
        for p in &params {
            let pname = self.fresh_name("p");
            match p {
                Param::Scalar(ty) => {
                    ptexts.push(format!("{} {pname}", ty.c_name()));
                    self.declare(pname, *ty, vec![], true, None);
                }
                Param::Depth(_) => unreachable!("only the recursive helpers have depth parameters"),
                Param::Array { ty, dims } => {
                    let rest: String = dims[1..].iter().map(|d| format!("[{d}]")).collect();
                    ptexts.push(format!("{} {pname}[]{rest}", ty.c_name()));
                    let id = self.declare(pname, *ty, dims.clone(), true, None);
                    self.vars[id as usize].array_param = true;
                }
                Param::Pointer { .. } | Param::Str | Param::Func(_) => {
                    let decl = self.declare_pointer_param(p, pname);
                    ptexts.push(decl);
                }
            }
        }
        let plist = if ptexts.is_empty() {
            "void".to_string()
        } else {
            ptexts.join(", ")
        };
        let rtext = ret.map_or("void", |t| t.c_name());
        let header = format!("{rtext} {name}({plist})");
        for _ in 0..self.rng.range(1, 4) {
            self.decl(0);
        }
        self.arrays_for_calls();
        let n = self.rng.range(3, 3 + self.cfg.block_len as i64);
        for _ in 0..n {
            if self.remaining() == 0 {
                break;
            }
            self.stmt(0);
        }
        self.print_stmt();
        if ret.is_some() {
            self.return_stmt(false);
        }
        self.scopes.pop();
        format!("{header} {{\n{}}}\n", self.out)
    }

    pub(super) fn main_function(&mut self) -> String {
        self.out.clear();
        self.indent = 1;
        self.cost = 0;
        self.mult = 1;
        self.budget = self.cfg.budget * 3;
        self.fx_writes.clear();
        self.ret = Some(Ty::Int);
        self.in_main = true;
        self.scopes.push(Vec::new());
        for _ in 0..self.rng.range(2, 5) {
            self.decl(0);
        }
        self.arrays_for_calls();
        let n = self.rng.range(4, 4 + 2 * self.cfg.block_len as i64);
        for _ in 0..n {
            if self.remaining() == 0 {
                break;
            }
            self.stmt(0);
        }
        // call every function at least once (each call costs at most one function budget)
        self.budget = self
            .budget
            .saturating_add(self.cfg.budget.saturating_mul(self.funcs.len() as u64));
        for _ in 0..self.funcs.len() {
            if let Some((text, ret, eff)) = self.call(1, &Forbid::none(), false) {
                self.note(&eff);
                match ret {
                    Some(t) if t.is_floating() => {
                        self.line(&format!("printf(\"call %.6g\\n\", fin({text}));"))
                    }
                    Some(t) => {
                        let spec = format::conversion(&mut self.rng, t);
                        self.line(&format!("printf(\"call {spec}\\n\", {text});"));
                    }
                    None => self.line(&format!("{text};")),
                }
            }
        }
        // print the globals
        for g in self.globals.clone() {
            let var = self.vars[g as usize].clone();
            if !var.plain() || var.nul_last {
                self.print_object(g);
                continue;
            }
            let spec = format::conversion(&mut self.rng, var.ty);
            let fin = |s: String| {
                if var.ty.is_floating() {
                    format!("fin({s})")
                } else {
                    s
                }
            };
            let mut loops = String::new();
            let mut label = var.name.clone();
            let mut access = var.name.clone();
            let mut indices = String::new();
            for (level, n) in var.dims.iter().enumerate() {
                let _ = write!(loops, "for (int k{level} = 0; k{level} < {n}; k{level}++) ");
                label.push_str("[%d]");
                let _ = write!(access, "[k{level}]");
                let _ = write!(indices, "k{level}, ");
            }
            self.line(&format!(
                "{loops}printf(\"{label} {spec}\\n\", {indices}{});",
                fin(access)
            ));
        }
        let e = self.int_expr(2, &Forbid::none());
        if self.rng.chance(50) {
            self.line(&format!("return (int)((unsigned)({}) % 256u);", e.text));
        } else {
            self.line(&format!("return (int)({}) % 256;", e.text));
        }
        self.scopes.pop();
        format!("int main(void) {{\n{}}}\n", self.out)
    }

    /// The headers the program includes: the ones it needs, and sometimes standard headers
    /// it does not need, some of them twice (include guards, any order).
    fn includes(&mut self) -> String {
        let mut text = if self.cfg.pointers {
            INCLUDES_STRING
        } else {
            INCLUDES
        }
        .to_string();
        if self.rng.chance(30) {
            for _ in 0..self.rng.range(1, 4) {
                let h = *self.rng.pick(&[
                    "limits.h",
                    "stdint.h",
                    "stddef.h",
                    "float.h",
                    "ctype.h",
                    "assert.h",
                    "string.h",
                    "stdio.h",
                    "math.h",
                    "stdbool.h",
                    "inttypes.h",
                    "errno.h",
                ]);
                text.insert_str(0, &format!("#include <{h}>\n"));
            }
        }
        text
    }

    /// The program's parts, in source order.
    fn sections(&mut self, seed: u64) -> Sections {
        let comment = format!("/* generated by e2e::gen from seed {seed} */\n");
        let (types, sig_funcs) = if self.cfg.pointers {
            self.signatures();
            let funcs = self.sig_functions();
            (self.record_types(), funcs)
        } else {
            (String::new(), String::new())
        };
        let mut globals = String::new();
        self.globals(&mut globals);
        let global_ids = self.globals.clone();
        let mut rest = String::new();
        self.recursive_functions(&mut rest);
        let mut defs = Vec::new();
        let mut protos = Vec::new();
        for k in 0..self.cfg.functions.max(1) {
            let ret = if self.rng.chance(25) {
                None
            } else {
                Some(self.random_type())
            };
            let params = self.params();
            let name = format!("f{k}");
            let def = self.function(name.clone(), ret, params.clone(), self.cfg.budget);
            protos.push(
                def.lines()
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches(" {")
                    .to_string()
                    + ";",
            );
            let cost = self.cost.max(1);
            let writes = self.fx_writes.clone();
            self.funcs.push(Func {
                name,
                ret,
                params,
                writes,
                cost,
                exits: self.fx_exits,
            });
            defs.push(def);
        }
        if self.rng.chance(50) {
            // prototypes first, definitions in reverse order
            for p in &protos {
                rest.push_str(p);
                rest.push('\n');
            }
            rest.push('\n');
            defs.reverse();
        }
        for d in &defs {
            rest.push_str(d);
            rest.push('\n');
        }
        let main = self.main_function();
        let mut externs = String::new();
        for &id in &global_ids {
            let v = self.vars[id as usize].clone();
            if v.plain() && !v.nul_last {
                let dims: String = v.dims.iter().map(|d| format!("[{d}]")).collect();
                let _ = writeln!(externs, "extern {} {}{dims};", v.ty.c_name(), v.name);
            } else {
                let shape = self.shape_of(id);
                let decl = self.declaration(&shape, &v.name);
                let _ = writeln!(externs, "extern {decl};");
            }
        }
        // the functions the generator may use: the pure functions of the function-pointer
        // signatures, and the `qsort` comparisons used (one per line)
        let mut funcs = sig_funcs;
        for c in &self.comparators {
            funcs.push_str(c);
            funcs.push('\n');
        }
        Sections {
            comment,
            types,
            funcs,
            globals,
            externs,
            rest,
            main,
        }
    }

    /// The whole program as one file.
    pub(super) fn program(&mut self, seed: u64) -> String {
        let s = self.sections(seed);
        let mut src = s.comment;
        let includes = self.includes();
        src.push_str(&includes);
        src.push_str(HELPERS);
        src.push_str(&super::decls::prelude());
        src.push('\n');
        if self.cfg.pointers {
            src.push_str(&s.types);
            src.push_str(&s.funcs);
            src.push('\n');
        }
        src.push_str(&s.globals);
        src.push('\n');
        src.push_str(&s.rest);
        src.push_str(&s.main);
        src
    }

    /// The same program as two translation units: `lib.c` defines the globals and every
    /// function but `main`; `main.c` declares them (`extern` variables, prototypes) and defines
    /// `main`. Each file has its own `static` copy of the helpers (the same names in both
    /// files, private to each).
    pub(super) fn units(&mut self, seed: u64) -> Vec<(String, String)> {
        let s = self.sections(seed);
        let statics = |text: &str| -> String {
            text.lines()
                .map(|line| {
                    if line.is_empty() {
                        "\n".to_string()
                    } else {
                        format!("static {line}\n")
                    }
                })
                .collect()
        };
        let includes = self.includes();
        let mut head = format!(
            "{}{}{}{}\n",
            s.comment,
            includes,
            statics(HELPERS),
            super::decls::prelude()
        );
        if self.cfg.pointers {
            head.push_str(&s.types);
            head.push_str(&statics(&s.funcs));
            head.push('\n');
        }
        let prototypes: String = s
            .rest
            .lines()
            .filter(|l| !l.starts_with([' ', '}', '/', '#']) && l.contains('(') && l.contains(" {"))
            .map(|l| format!("{};\n", &l[..l.find(" {").unwrap_or(l.len())]))
            .collect();
        let lib = format!("{head}{}\n{}", s.globals, s.rest);
        let main = format!("{head}{}\n{prototypes}\n{}", s.externs, s.main);
        vec![("lib.c".to_string(), lib), ("main.c".to_string(), main)]
    }
}

/// The parts of a generated program.
struct Sections {
    /// The first line (the seed).
    comment: String,
    /// The structure and union types (pointer features).
    types: String,
    /// Functions used through pointers and by `qsort`, one per line (pointer features).
    funcs: String,
    /// The globals' definitions.
    globals: String,
    /// `extern` declarations of the globals.
    externs: String,
    /// The recursive helpers and the generated functions, with their prototypes.
    rest: String,
    /// `main`.
    main: String,
}
