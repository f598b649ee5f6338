//! Statements, functions and whole programs.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::effects::{Effects, Forbid, VarId, STDOUT};
use super::expr::Ex;
use super::format;
use super::rng::Rng;
use super::types::{Ty, ALL_TYPES, INT_TYPES};
use super::{Config, Func, Gen, Param, Var};

/// Helper functions every generated program starts with: range-checked conversions from
/// double, guarded division and remainder, `abs`/`labs` without the `MIN` case, a NaN filter
/// for printing (the sign glibc prints for a NaN depends on how it was produced), and an exit
/// from a nested call.
const PRELUDE: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <math.h>

char d2c(double x) { if (x > -128.0 && x < 128.0) return x; return 0; }
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
double fin(double x) { return x == x ? x : -1.5; }
void finish(int code) { printf("finish %d\n", code); exit(code); }
"#;

/// Shapes of array parameters and of the local arrays declared to match them.
const SHAPES: &[&[u32]] = &[&[4], &[5], &[8], &[3, 4], &[2, 5], &[2, 3, 2]];

impl Gen {
    pub(super) fn new(seed: u64, cfg: Config) -> Gen {
        let stdout = Var {
            name: "<stdout>".into(),
            ty: Ty::Int,
            dims: vec![],
            writable: false,
            bound: None,
            global: true,
        };
        Gen {
            rng: Rng::new(seed),
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

    fn declare(
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
        });
        self.scopes.last_mut().expect("a scope").push(id);
        if global {
            self.globals.push(id);
        }
        id
    }

    fn fresh_name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Records the writes of an emitted full expression that callers can observe.
    fn note(&mut self, eff: &Effects) {
        for &w in &eff.writes {
            if w == STDOUT || self.vars[w as usize].global {
                self.fx_writes.insert(w);
            }
        }
    }

    fn charge(&mut self, n: u64) {
        self.cost = self.cost.saturating_add(self.mult.saturating_mul(n));
    }

    fn remaining(&self) -> u64 {
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
            }
        }
        self.charge(fu.cost);
        let mut eff = acc;
        eff.reads.extend(self.globals.iter().copied());
        eff.writes.extend(fu.writes.iter().copied());
        Some((format!("{}({})", fu.name, args.join(", ")), fu.ret, eff))
    }

    // ----- statements -----

    fn block_body(&mut self, depth: u32) {
        let n = self.rng.range(1, self.cfg.block_len as i64);
        for _ in 0..n {
            if self.remaining() == 0 {
                break;
            }
            self.stmt(depth);
        }
    }

    fn nested_block(&mut self, depth: u32) {
        self.scopes.push(Vec::new());
        self.indent += 1;
        self.block_body(depth);
        self.indent -= 1;
        self.scopes.pop();
    }

    fn stmt(&mut self, depth: u32) {
        self.charge(1);
        let nest = depth < self.cfg.stmt_depth && self.remaining() > 4 * self.mult;
        let weights = [
            3,                                              // declaration
            7,                                              // expression statement
            5,                                              // printf
            if nest { 3 } else { 0 },                       // if
            if nest { 3 } else { 0 },                       // for
            if nest { 1 } else { 0 },                       // while
            if nest { 1 } else { 0 },                       // do-while
            if nest { 2 } else { 0 },                       // switch
            if nest { 1 } else { 0 },                       // block
            if self.breakables > 0 { 1 } else { 0 },        // break / continue
            if depth > 0 && !self.in_main { 1 } else { 0 }, // early return
            2,                                              // call statement
            1,                                              // putchar / puts
            if depth > 0 && self.rng.chance(5) {
                1
            } else {
                0
            }, // exit from a nested call
        ];
        match self.rng.weighted(&weights) {
            0 => self.decl(depth),
            1 => self.expr_stmt(),
            2 => self.print_stmt(),
            3 => self.if_stmt(depth),
            4 => self.for_stmt(depth),
            5 => self.while_stmt(depth),
            6 => self.do_stmt(depth),
            7 => self.switch_stmt(depth),
            8 => {
                self.line("{");
                self.nested_block(depth + 1);
                self.line("}");
            }
            9 => self.jump_stmt(),
            10 => self.return_stmt(true),
            11 => match self.call(1, &Forbid::none(), false) {
                Some((text, _, eff)) => {
                    self.note(&eff);
                    self.line(&format!("{text};"));
                }
                None => self.expr_stmt(),
            },
            12 => {
                if self.rng.chance(50) {
                    let e = self.int_expr(1, &Forbid::none());
                    self.note(&e.eff);
                    self.line(&format!("putchar({});", e.text));
                } else {
                    let text =
                        *self
                            .rng
                            .pick(&["puts(\"--\");", "puts(\"\");", "puts(\"a\\tb\");"]);
                    self.line(text);
                }
                self.fx_writes.insert(STDOUT);
            }
            _ => {
                let c = self.pure_expr(2);
                let code = self.int_expr(1, &Forbid::none());
                self.note(&code.eff);
                self.line(&format!(
                    "if ({}) finish((int)({}) & 127);",
                    c.text, code.text
                ));
                self.fx_writes.insert(STDOUT);
            }
        }
    }

    /// An expression without side effects (falls back to a literal).
    fn pure_expr(&mut self, depth: u32) -> Ex {
        for _ in 0..4 {
            let e = self.expr(depth, &Forbid::none());
            if e.is_pure() {
                return e;
            }
        }
        Ex {
            text: self.rng.range(0, 3).to_string(),
            ty: Ty::Int,
            eff: Effects::none(),
        }
    }

    fn random_type(&mut self) -> Ty {
        *self.rng.pick(&[
            Ty::Char,
            Ty::Int,
            Ty::Int,
            Ty::UInt,
            Ty::Long,
            Ty::ULong,
            Ty::Double,
            Ty::Double,
        ])
    }

    fn decl(&mut self, depth: u32) {
        if self.rng.chance(20) {
            let dims = self.rng.pick(SHAPES).to_vec();
            let ty = self.random_type();
            self.local_array(ty, dims);
            return;
        }
        let ty = self.random_type();
        let current: BTreeSet<String> = self
            .scopes
            .last()
            .expect("scope")
            .iter()
            .map(|&v| self.vars[v as usize].name.clone())
            .collect();
        // shadow a variable of an enclosing scope now and then
        let outer: Vec<String> = self
            .visible()
            .into_iter()
            .map(|v| self.vars[v as usize].name.clone())
            .filter(|n| !current.contains(n))
            .collect();
        let name = if depth > 0 && !outer.is_empty() && self.rng.chance(30) {
            self.rng.pick(&outer).clone()
        } else {
            self.fresh_name("v")
        };
        self.hidden = Some(name.clone());
        let e = self.expr(self.cfg.expr_depth, &Forbid::none());
        self.hidden = None;
        let e = self.convertible_to(e, ty);
        self.note(&e.eff);
        // `const` locals are never assigned; `unsigned int` is the long spelling of `unsigned`
        let constant = self.rng.chance(10);
        let spelled = if ty == Ty::UInt && self.rng.chance(30) {
            "unsigned int"
        } else {
            ty.c_name()
        };
        let mut text = format!(
            "{}{spelled} {name} = {}",
            if constant { "const " } else { "" },
            e.text
        );
        self.declare(name, ty, vec![], !constant, None);
        if self.rng.chance(20) {
            let second = self.fresh_name("v");
            let e2 = self.expr(2, &Forbid::none());
            let e2 = self.convertible_to(e2, ty);
            self.note(&e2.eff);
            let _ = write!(text, ", {} = {}", second, e2.text);
            self.declare(second, ty, vec![], !constant, None);
        }
        text.push(';');
        self.line(&text);
    }

    /// An integer or double literal (or a side-effect-free expression) for an array element.
    fn element_init(&mut self, ty: Ty) -> String {
        if self.rng.chance(30) {
            let e = self.pure_expr(1);
            if !(e.ty == Ty::Double && ty.is_integer()) {
                return e.text;
            }
        }
        let lit_ty = if ty.is_integer() {
            *self.rng.pick(&INT_TYPES)
        } else {
            *self.rng.pick(&ALL_TYPES)
        };
        lit_ty.random_literal(&mut self.rng)
    }

    /// A brace initializer for an array of shape `dims`, partial at every level (the rest is
    /// zero-filled), with elements made by `item`. The second result is true if the outermost
    /// level is complete (so the first dimension may be left to the initializer: `T a[] = ...`).
    fn brace_init(
        &mut self,
        dims: &[u32],
        item: &mut dyn FnMut(&mut Gen) -> String,
    ) -> (String, bool) {
        let n = self.rng.range(1, dims[0] as i64) as usize;
        let parts: Vec<String> = (0..n)
            .map(|_| {
                if dims.len() == 1 {
                    item(self)
                } else {
                    self.brace_init(&dims[1..], item).0
                }
            })
            .collect();
        (format!("{{{}}}", parts.join(", ")), n == dims[0] as usize)
    }

    fn local_array(&mut self, ty: Ty, dims: Vec<u32>) -> VarId {
        let name = self.fresh_name(if dims.len() == 1 { "a" } else { "m" });
        let (init, complete) = self.brace_init(&dims, &mut |g: &mut Gen| g.element_init(ty));
        let mut dims_text: String = dims.iter().map(|d| format!("[{d}]")).collect();
        if complete && self.rng.chance(40) {
            dims_text = format!(
                "[]{}",
                dims[1..]
                    .iter()
                    .map(|d| format!("[{d}]"))
                    .collect::<String>()
            );
        }
        self.line(&format!("{} {name}{dims_text} = {init};", ty.c_name()));
        self.declare(name, ty, dims, true, None)
    }

    fn expr_stmt(&mut self) {
        let f = Forbid::none();
        let e = match self.effect_expr(self.cfg.expr_depth, &f) {
            Some(e) => e,
            None => {
                // nothing assignable: print instead
                self.print_stmt();
                return;
            }
        };
        self.note(&e.eff);
        self.line(&format!("{};", e.text));
    }

    fn print_stmt(&mut self) {
        let n = self.rng.range(1, 4);
        let mut fmt = format!("{}:", self.fresh_name("p"));
        let mut args: Vec<String> = Vec::new();
        let mut acc = Effects::none();
        for _ in 0..n {
            if self.rng.chance(20) {
                fmt.push_str(&format::literal_text(&mut self.rng));
            } else {
                fmt.push(' ');
            }
            if self.rng.chance(8) {
                let (spec, arg) = format::string_conversion(&mut self.rng);
                fmt.push_str(&spec);
                args.push(arg);
                continue;
            }
            let depth = self.rng.range(0, 2) as u32;
            let e = self.expr(depth, &Forbid::none().after(&acc));
            acc.union_with(&e.eff);
            fmt.push_str(&format::conversion(&mut self.rng, e.ty));
            args.push(if e.ty == Ty::Double {
                format!("fin({})", e.text)
            } else {
                e.text
            });
        }
        self.note(&acc);
        self.fx_writes.insert(STDOUT);
        let args: String = args.iter().map(|a| format!(", {a}")).collect();
        self.line(&format!("printf(\"{fmt}\\n\"{args});"));
    }

    fn condition(&mut self) -> Ex {
        let e = self.expr(2, &Forbid::none());
        self.note(&e.eff);
        e
    }

    fn if_stmt(&mut self, depth: u32) {
        let c = self.condition();
        self.line(&format!("if ({}) {{", c.text));
        self.nested_block(depth + 1);
        let mut arms = 0;
        while arms < 2 && self.rng.chance(35) {
            let c = self.condition();
            self.line(&format!("}} else if ({}) {{", c.text));
            self.nested_block(depth + 1);
            arms += 1;
        }
        if self.rng.chance(50) {
            self.line("} else {");
            self.nested_block(depth + 1);
        }
        self.line("}");
    }

    /// A trip count that keeps the function within its budget, or `None`.
    fn trip_count(&mut self) -> Option<u32> {
        let mut k = self.rng.range(1, 6) as u64;
        while k > 1 && self.mult.saturating_mul(k).saturating_mul(6) > self.remaining() {
            k -= 1;
        }
        if self.mult.saturating_mul(k).saturating_mul(3) > self.remaining() {
            return None;
        }
        Some(k as u32)
    }

    fn loop_body(&mut self, depth: u32, k: u32) {
        let saved = self.mult;
        self.mult = self.mult.saturating_mul(k as u64);
        self.loops += 1;
        self.breakables += 1;
        self.nested_block(depth + 1);
        self.loops -= 1;
        self.breakables -= 1;
        self.mult = saved;
    }

    fn counter_type(&mut self) -> Ty {
        *self.rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::Int,
            Ty::UInt,
            Ty::Long,
            Ty::Char,
            Ty::ULong,
        ])
    }

    fn for_stmt(&mut self, depth: u32) {
        let Some(k) = self.trip_count() else {
            return self.expr_stmt();
        };
        let ty = self.counter_type();
        let name = self.fresh_name("i");
        self.scopes.push(Vec::new());
        let t = ty.c_name();
        if self.rng.chance(8) {
            // a double counter: steps of 0.5 are exact
            self.line(&format!(
                "for (double {name} = 0.0; {name} < {}.0; {name} += 0.5) {{",
                k / 2
            ));
            let trips = 2 * (k / 2);
            self.declare(name, Ty::Double, vec![], false, None);
            self.loop_body(depth, trips.max(1));
            self.line("}");
            self.scopes.pop();
            return;
        }
        match self.rng.below(3) {
            0 => {
                self.line(&format!("for ({t} {name} = 0; {name} < {k}; {name}++) {{"));
                self.declare(name, ty, vec![], false, Some(k));
            }
            1 => {
                self.line(&format!("for ({t} {name} = {k}; {name} > 0; --{name}) {{"));
                self.declare(name, ty, vec![], false, Some(k + 1));
            }
            _ => {
                self.line(&format!(
                    "for ({t} {name} = 0; {name} < {}; {name} += 2) {{",
                    2 * k
                ));
                self.declare(name, ty, vec![], false, Some(2 * k));
            }
        }
        self.loop_body(depth, k);
        self.line("}");
        self.scopes.pop();
    }

    fn while_stmt(&mut self, depth: u32) {
        let Some(k) = self.trip_count() else {
            return self.expr_stmt();
        };
        let ty = self.counter_type();
        let name = self.fresh_name("w");
        self.line("{");
        self.indent += 1;
        self.scopes.push(Vec::new());
        self.line(&format!("{} {name} = {k};", ty.c_name()));
        self.declare(name.clone(), ty, vec![], false, Some(k));
        if self.rng.chance(30) {
            // an extra exit condition, evaluated only while the counter allows another trip
            let c = self.pure_expr(1);
            self.line(&format!("while ({name}-- > 0 && {}) {{", c.text));
        } else {
            self.line(&format!("while ({name}-- > 0) {{"));
        }
        self.loop_body(depth, k);
        self.line("}");
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
    }

    fn do_stmt(&mut self, depth: u32) {
        let Some(k) = self.trip_count() else {
            return self.expr_stmt();
        };
        let ty = self.counter_type();
        let name = self.fresh_name("n");
        self.line("{");
        self.indent += 1;
        self.scopes.push(Vec::new());
        self.line(&format!("{} {name} = {k};", ty.c_name()));
        self.line("do {");
        self.declare(name.clone(), ty, vec![], false, None);
        self.loop_body(depth, k);
        self.line(&format!("}} while (--{name} > 0);"));
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
    }

    fn switch_stmt(&mut self, depth: u32) {
        let n = self.rng.range(2, 5) as u32;
        let e = self.int_expr(2, &Forbid::none());
        self.note(&e.eff);
        let scrutinee = if self.rng.chance(60) {
            format!("(unsigned)({}) % {}u", e.text, n + 1)
        } else {
            e.text
        };
        let mut labels: Vec<i64> = (0..n as i64).collect();
        if self.rng.chance(30) {
            labels.push(*self.rng.pick(&[-1, -2, 65, 100, 4096]));
        }
        let default_at = if self.rng.chance(70) {
            Some(self.rng.index(labels.len() + 1))
        } else {
            None
        };
        self.line(&format!("switch ({scrutinee}) {{"));
        self.breakables += 1;
        for i in 0..=labels.len() {
            if default_at == Some(i) {
                self.line("default:");
                self.case_body(depth, i == labels.len());
            }
            if i < labels.len() {
                let lab = labels[i];
                let text = if lab == 65 && self.rng.chance(50) {
                    "'A'".to_string()
                } else {
                    lab.to_string()
                };
                self.line(&format!("case {text}:"));
                let last = i + 1 == labels.len() && default_at != Some(labels.len());
                self.case_body(depth, last);
            }
        }
        self.breakables -= 1;
        self.line("}");
    }

    /// The statements after a label; an empty one falls through to the next label (C99 needs
    /// a statement after the last label).
    fn case_body(&mut self, depth: u32, last: bool) {
        if !last && self.rng.chance(20) {
            return;
        }
        self.line("{");
        self.nested_block(depth + 1);
        self.line("}");
        if self.rng.chance(70) {
            self.indent += 1;
            self.line("break;");
            self.indent -= 1;
        }
    }

    fn jump_stmt(&mut self) {
        let c = self.pure_expr(1);
        let kw = if self.loops > 0 && self.rng.chance(40) {
            "continue"
        } else {
            "break"
        };
        self.line(&format!("if ({}) {kw};", c.text));
    }

    fn return_stmt(&mut self, conditional: bool) {
        let cond = if conditional {
            format!("if ({}) ", self.pure_expr(1).text)
        } else {
            String::new()
        };
        match self.ret {
            None => self.line(&format!("{cond}return;")),
            Some(ty) => {
                let e = self.expr(self.cfg.expr_depth, &Forbid::none());
                let e = self.convertible_to(e, ty);
                self.note(&e.eff);
                self.line(&format!("{cond}return {};", e.text));
            }
        }
    }

    // ----- functions and the program -----

    fn globals(&mut self, src: &mut String) {
        let n = self.rng.range(4, 8);
        for k in 0..n {
            let ty = if (k as usize) < ALL_TYPES.len() {
                ALL_TYPES[k as usize]
            } else {
                self.random_type()
            };
            let name = format!("g{k}");
            let init = self.constant_initializer(ty);
            let _ = writeln!(src, "{} {name} = {init};", ty.c_name());
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
    }

    /// A constant expression for a global of type `ty`: a literal, or a small expression over
    /// literals that the checker must fold (without overflow, which C forbids in constant
    /// expressions).
    fn constant_initializer(&mut self, ty: Ty) -> String {
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
            2 if ty == Ty::Double => {
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
    fn recursive_functions(&mut self, src: &mut String) {
        let ty = *self
            .rng
            .pick(&[Ty::Int, Ty::Long, Ty::ULong, Ty::Double, Ty::UInt]);
        let t = ty.c_name();
        let ops: &[&str] = if ty == Ty::Double {
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
            });
        }
        // recursion that reads and writes an array parameter
        let ty = *self
            .rng
            .pick(&[Ty::Int, Ty::Long, Ty::Double, Ty::Char, Ty::UInt]);
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
        });
        self.funcs.push(Func {
            name: "rfill".into(),
            ret: None,
            params: vec![arr, Param::Depth(20)],
            writes: BTreeSet::new(),
            cost: 40,
        });
    }

    fn params(&mut self) -> Vec<Param> {
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
        ps
    }

    /// Declares local arrays shaped like the array parameters of callable functions, so calls
    /// find arguments.
    fn arrays_for_calls(&mut self) {
        let shapes: Vec<(Ty, Vec<u32>)> = self
            .funcs
            .iter()
            .flat_map(|f| f.params.iter())
            .filter_map(|p| match p {
                Param::Array { ty, dims } => Some((*ty, dims.clone())),
                Param::Scalar(_) | Param::Depth(_) => None,
            })
            .collect();
        for (ty, dims) in shapes {
            if self.rng.chance(70) {
                self.local_array(ty, dims);
            }
        }
    }

    /// Generates one function; returns its definition text.
    fn function(
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
                    self.declare(pname, *ty, dims.clone(), true, None);
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

    fn main_function(&mut self) -> String {
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
                    Some(Ty::Double) => {
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
            let spec = format::conversion(&mut self.rng, var.ty);
            let fin = |s: String| {
                if var.ty == Ty::Double {
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

    /// The whole program.
    pub(super) fn program(&mut self, seed: u64) -> String {
        let mut src = String::new();
        let _ = writeln!(src, "/* generated by e2e::gen from seed {seed} */");
        src.push_str(PRELUDE);
        src.push('\n');
        self.globals(&mut src);
        src.push('\n');
        self.recursive_functions(&mut src);
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
            });
            defs.push(def);
        }
        if self.rng.chance(50) {
            // prototypes first, definitions in reverse order
            for p in &protos {
                src.push_str(p);
                src.push('\n');
            }
            src.push('\n');
            defs.reverse();
        }
        for d in &defs {
            src.push_str(d);
            src.push('\n');
        }
        let main = self.main_function();
        src.push_str(&main);
        src
    }
}
