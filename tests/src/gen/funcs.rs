//! Function pointers: a few signatures `T (*)(A, B)`, each with pure functions of that type
//! (`op0_1(a, b)`: an expression of their parameters only, so calling them anywhere has no
//! effect), called directly, through function-pointer variables and parameters, through tables
//! indexed in range, and through structure members. A function-pointer variable, parameter or
//! table element is never null; a structure member may be (zeroed structures), so a call
//! through one is guarded: `(s.f ? s.f(x, y) : z)`.

use super::effects::{Effects, Forbid, STDOUT};
use super::expr::Ex;
use super::objects::{Shape, Sig, SigId, Step};
use super::types::Ty;
use super::Gen;

/// Result and parameter types of the signatures.
const SIG_TYPES: &[Ty] = &[Ty::Int, Ty::Int, Ty::Long, Ty::UInt, Ty::Double, Ty::Char];

impl Gen {
    /// Chooses the program's function-pointer signatures.
    pub(super) fn signatures(&mut self) {
        for _ in 0..self.rng.range(1, 2) {
            let ret = *self.rng.pick(SIG_TYPES);
            let params = (0..self.rng.range(1, 2))
                .map(|_| *self.rng.pick(SIG_TYPES))
                .collect();
            self.sigs.push(Sig {
                ret,
                params,
                funcs: Vec::new(),
            });
        }
    }

    /// Defines 2-4 pure functions of each signature, one per line; returns their text.
    pub(super) fn sig_functions(&mut self) -> String {
        let mut out = String::new();
        for s in 0..self.sigs.len() {
            for k in 0..self.rng.range(2, 4) {
                let name = format!("op{s}_{k}");
                let sig = self.sigs[s].clone();
                // only the parameters are visible, and nothing may print: a pure function
                let saved = std::mem::replace(&mut self.scopes, vec![Vec::new(), Vec::new()]);
                let mut params = Vec::new();
                for &t in &sig.params {
                    let p = self.fresh_name("a");
                    params.push(format!("{} {p}", t.c_name()));
                    self.declare(p, t, vec![], true, None);
                }
                let e = self.expr(2, &Forbid::none().without_access(STDOUT));
                let e = self.convertible_to(e, sig.ret);
                self.scopes = saved;
                out.push_str(&format!(
                    "{} {name}({}) {{ return {}; }}\n",
                    sig.ret.c_name(),
                    params.join(", "),
                    e.text
                ));
                self.sigs[s].funcs.push(name);
            }
        }
        out
    }

    /// A function of signature `s` as a never-null value: its name, `&name`, or a function
    /// pointer variable, parameter or table element; the text and the effects of evaluating it.
    pub(super) fn func_value(&mut self, s: SigId, f: &Forbid) -> Option<(String, Effects)> {
        let node = if self.rng.chance(50) {
            self.pick_node(
                |_| true,
                |_, n| {
                    n.shape == Shape::Func(s)
                        && f.may_read(n.target)
                        && !n.steps.iter().any(|s| matches!(s, Step::Member(_)))
                },
            )
        } else {
            None
        };
        match node {
            Some(n) => {
                let (text, mut eff) = self.render(&n, false, 1, f);
                eff.reads.insert(n.target);
                Some((text, eff))
            }
            None => {
                if self.sigs[s].funcs.is_empty() {
                    return None;
                }
                let name = self.rng.pick(&self.sigs[s].funcs).clone();
                let text = if self.rng.chance(20) {
                    format!("(&{name})")
                } else {
                    name
                };
                Some((text, Effects::none()))
            }
        }
    }

    /// A call through a function pointer (or of a function of a signature by name).
    pub(super) fn func_call(&mut self, d: u32, f: &Forbid) -> Option<Ex> {
        let ready: Vec<SigId> = (0..self.sigs.len())
            .filter(|&s| !self.sigs[s].funcs.is_empty())
            .collect();
        if ready.is_empty() {
            return None;
        }
        // a structure member that may be null, or a never-null value
        let member = if self.rng.chance(30) {
            self.pick_node(
                |_| true,
                |_, n| {
                    matches!(n.shape, Shape::Func(_))
                        && f.may_read(n.target)
                        && f.may_read(n.var)
                        && n.steps.iter().any(|s| matches!(s, Step::Member(_)))
                },
            )
        } else {
            None
        };
        let (s, callee, guarded, mut eff) = match member {
            Some(n) => {
                let Shape::Func(s) = n.shape else {
                    return None;
                };
                let text = self.render_const(&n);
                (s, text, true, Effects::read(n.target))
            }
            None => {
                let s = *self.rng.pick(&ready);
                let (text, eff) = self.func_value(s, f)?;
                (s, text, false, eff)
            }
        };
        let sig = self.sigs[s].clone();
        let mut args = Vec::new();
        for &t in &sig.params {
            let a = self.expr(d, &f.after(&eff));
            let a = self.convertible_to(a, t);
            eff.union_with(&a.eff);
            args.push(a.text);
        }
        let args = args.join(", ");
        let call = if self.rng.chance(25) {
            format!("(*{callee})({args})")
        } else {
            format!("{callee}({args})")
        };
        if guarded {
            let other = sig.ret.random_literal(&mut self.rng);
            Some(Ex::new(
                format!("({callee} ? {call} : {other})"),
                sig.ret.promote(),
                eff,
            ))
        } else {
            Some(Ex::new(call, sig.ret, eff))
        }
    }

    /// `T (*f)(A, B) = op;` or a table `T (*t[3])(A, B) = {op, &op, ...}` (a global with
    /// `out`).
    pub(super) fn func_var(&mut self, out: Option<&mut String>) {
        let global = out.is_some();
        let s = self.rng.index(self.sigs.len());
        let funcs = self.sigs[s].funcs.clone();
        let table = self.rng.chance(50);
        let name = self.fresh_name(if global { "gf" } else { "f" });
        let text = if table {
            let n = self.rng.range(2, 4) as u32;
            let items: Vec<String> = (0..n)
                .map(|_| {
                    let f = self.rng.pick(&funcs).clone();
                    if self.rng.chance(20) {
                        format!("&{f}")
                    } else {
                        f
                    }
                })
                .collect();
            let decl = self.declaration(&Shape::Func(s), &format!("{name}[{n}]"));
            let decl = if self.rng.chance(40) {
                decl.replacen(&format!("[{n}]"), "[]", 1)
            } else {
                decl
            };
            let text = format!("{decl} = {{{}}};", items.join(", "));
            self.declare_obj(name, Shape::array(Shape::Func(s), n), false);
            text
        } else {
            let init = if global {
                self.rng.pick(&funcs).clone()
            } else {
                self.func_value(s, &Forbid::none()).map_or_else(
                    || funcs[0].clone(),
                    |(t, e)| {
                        self.note(&e);
                        t
                    },
                )
            };
            let decl = self.declaration(&Shape::Func(s), &name);
            self.declare_obj(name, Shape::Func(s), false);
            format!("{decl} = {init};")
        };
        match out {
            Some(out) => {
                out.push_str(&text);
                out.push('\n');
            }
            None => self.line(&text),
        }
    }

    /// `s.f = op;` (or `NULL`, or another never-null function value): a structure member.
    pub(super) fn func_member_stmt(&mut self) -> bool {
        let Some(node) =
            self.pick_node(|_| true, |_, n| matches!(n.shape, Shape::Func(_)) && !n.ro)
        else {
            return false;
        };
        let Shape::Func(s) = node.shape else {
            return false;
        };
        let (text, eff) = self.render(&node, true, 1, &Forbid::none());
        let value = if self.rng.chance(15) {
            ("NULL".to_string(), Effects::none())
        } else {
            let f = Forbid::none().after(&eff).without_write(node.target);
            match self.func_value(s, &f) {
                Some(v) => v,
                None => return false,
            }
        };
        let mut all = eff.union(&value.1);
        all.writes.insert(node.target);
        self.note(&all);
        self.line(&format!("{text} = {};", value.0));
        true
    }
}
