//! Statements: declarations (with shadowing), expression statements, `printf`/`puts`/`putchar`,
//! `if` chains, bounded loops (`for`, `while`, `do`) with `break`/`continue`, `switch` with
//! fallthrough, blocks, early returns and exits. Every loop's trip count is fixed and its
//! counter read-only, and the running cost estimate (loop multipliers) is kept within budget.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::effects::{Effects, Forbid, STDOUT};
use super::expr::Ex;
use super::format;
use super::program::SHAPES;
use super::types::{Ty, ALL_TYPES, INT_TYPES};
use super::{Gen, VarId};

impl Gen {
    pub(super) fn block_body(&mut self, depth: u32) {
        let n = self.rng.range(1, self.cfg.block_len as i64);
        for _ in 0..n {
            if self.remaining() == 0 {
                break;
            }
            self.stmt(depth);
        }
    }

    pub(super) fn nested_block(&mut self, depth: u32) {
        self.scopes.push(Vec::new());
        self.indent += 1;
        self.block_body(depth);
        self.indent -= 1;
        self.scopes.pop();
    }

    pub(super) fn stmt(&mut self, depth: u32) {
        self.charge(1);
        let nest = depth < self.cfg.stmt_depth && self.remaining() > 4 * self.mult;
        let weights = [
            3,                                       // declaration
            7,                                       // expression statement
            5,                                       // printf
            if nest { 3 } else { 0 },                // if
            if nest { 3 } else { 0 },                // for
            if nest { 1 } else { 0 },                // while
            if nest { 1 } else { 0 },                // do-while
            if nest { 2 } else { 0 },                // switch
            if nest { 1 } else { 0 },                // block
            if self.breakables > 0 { 1 } else { 0 }, // break / continue
            if depth > 0 && !self.in_main && self.heap_live == 0 {
                1
            } else {
                0
            }, // early return
            2,                                       // call statement
            1,                                       // putchar / puts
            if depth > 0 && self.rng.chance(5) && self.heap_live == 0 {
                1
            } else {
                0
            }, // exit from a nested call
            if nest { 2 } else { 0 },                // goto
            if self.cfg.pointers { 5 } else { 0 },   // pointer features
            if self.cfg.pointers && nest { 2 } else { 0 }, // pointer features with a body
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
            14 => self.goto_stmt(depth),
            12 => {
                if self.rng.chance(50) {
                    let e = self.int_expr(1, &Forbid::none());
                    self.note(&e.eff);
                    self.line(&format!("putchar({});", e.text));
                } else {
                    let text = *self.rng.pick(&[
                        "puts(\"--\");",
                        "puts(\"\");",
                        "puts(\"a\\tb\");",
                        super::macros::stringized_puts(),
                    ]);
                    self.line(text);
                }
                self.fx_writes.insert(STDOUT);
            }
            13 => {
                let c = self.pure_expr(2);
                let code = self.int_expr(1, &Forbid::none());
                self.note(&code.eff);
                self.line(&format!(
                    "if ({}) finish((int)({}) & 127);",
                    c.text, code.text
                ));
                self.fx_writes.insert(STDOUT);
                self.fx_exits = true;
            }
            15 => {
                if !self.object_stmt() {
                    self.expr_stmt();
                }
            }
            _ => {
                let done = match self.rng.below(5) {
                    0 | 1 => self.heap_scope(depth),
                    2 => self.walk_stmt(depth),
                    3 => self.string_loop(depth),
                    _ => self.heap_scope(depth),
                };
                if !done {
                    self.expr_stmt();
                }
            }
        }
    }

    /// A statement of the pointer features without a body: structure assignment, the string
    /// and memory functions, a union's other member, `qsort`, a function-pointer member
    /// assignment. False if nothing fits.
    fn object_stmt(&mut self) -> bool {
        match self.rng.below(11) {
            0..=2 => self.record_assign_stmt(),
            3..=6 => self.string_stmt(),
            7 => self.union_stmt(),
            8 => self.qsort_stmt(),
            _ => self.func_member_stmt(),
        }
    }

    /// An expression without side effects (falls back to a literal).
    pub(super) fn pure_expr(&mut self, depth: u32) -> Ex {
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

    pub(super) fn random_type(&mut self) -> Ty {
        *self.rng.pick(&[
            Ty::Char,
            Ty::Int,
            Ty::Int,
            Ty::UInt,
            Ty::Long,
            Ty::ULong,
            Ty::Double,
            Ty::Double,
            Ty::Float,
            Ty::Short,
            Ty::UShort,
            Ty::UChar,
            Ty::Bool,
        ])
    }

    pub(super) fn decl(&mut self, depth: u32) {
        if self.cfg.pointers && self.rng.chance(35) {
            return self.object_decl();
        }
        if self.rng.chance(8) {
            return self.static_local();
        }
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
        let spelled = if self.rng.chance(25) {
            self.spell(ty)
        } else {
            self.spelling(ty).to_string()
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

    /// A declaration of the pointer features: a structure or union (or an array of them), a
    /// pointer, a string buffer or `const char *`, a function pointer or table.
    fn object_decl(&mut self) {
        match self.rng.below(10) {
            0..=2 => self.record_var(None, None, false),
            3..=5 => {
                if !self.pointer_var(None) {
                    self.string_pointer(None);
                }
            }
            6 => self.string_buffer(None),
            7 => self.string_pointer(None),
            _ => self.func_var(None),
        }
    }

    /// An integer or double literal (or a side-effect-free expression) for an array element.
    pub(super) fn element_init(&mut self, ty: Ty) -> String {
        if self.rng.chance(30) {
            let e = self.pure_expr(1);
            if !(e.ty.is_floating() && ty.is_integer()) {
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
    pub(super) fn brace_init(
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

    pub(super) fn local_array(&mut self, ty: Ty, dims: Vec<u32>) -> VarId {
        let name = self.fresh_name(if dims.len() == 1 { "a" } else { "m" });
        let (init, complete) =
            if dims.len() == 1 && matches!(ty, Ty::Char | Ty::UChar) && self.rng.chance(20) {
                // a string literal fills an array of characters (its NUL too if there is room)
                let text: String = (0..self.rng.range(0, i64::from(dims[0])))
                    .map(|_| *self.rng.pick(&['a', 'Z', '0', ' ', '~']))
                    .collect();
                (format!("\"{text}\""), text.len() + 1 == dims[0] as usize)
            } else if dims.len() == 1 && self.rng.chance(25) {
                (self.designated_init(dims[0], ty), false)
            } else {
                self.brace_init(&dims, &mut |g: &mut Gen| g.element_init(ty))
            };
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
        let spelled = self.spell(ty);
        self.line(&format!("{spelled} {name}{dims_text} = {init};"));
        self.declare(name, ty, dims, true, None)
    }

    pub(super) fn expr_stmt(&mut self) {
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
        if self.rng.chance(10) {
            // discarded explicitly, as real code silences unused results
            self.line(&format!("(void){};", e.text));
        } else {
            self.line(&format!("{};", e.text));
        }
    }

    pub(super) fn print_stmt(&mut self) {
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
                let (spec, mut arg) = format::string_conversion(&mut self.rng);
                if self.cfg.pointers && self.rng.chance(70) {
                    let (text, eff) = self.printf_string(&Forbid::none().after(&acc));
                    acc.union_with(&eff);
                    arg = text;
                }
                fmt.push_str(&spec);
                args.push(arg);
                continue;
            }
            let depth = self.rng.range(0, 2) as u32;
            let e = self.expr(depth, &Forbid::none().after(&acc));
            acc.union_with(&e.eff);
            fmt.push_str(&format::conversion(&mut self.rng, e.ty));
            args.push(if e.ty.is_floating() {
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

    pub(super) fn condition(&mut self) -> Ex {
        let e = self.expr(2, &Forbid::none());
        self.note(&e.eff);
        e
    }

    pub(super) fn if_stmt(&mut self, depth: u32) {
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
    pub(super) fn trip_count(&mut self) -> Option<u32> {
        let mut k = self.rng.range(1, 6) as u64;
        while k > 1 && self.mult.saturating_mul(k).saturating_mul(6) > self.remaining() {
            k -= 1;
        }
        if self.mult.saturating_mul(k).saturating_mul(3) > self.remaining() {
            return None;
        }
        Some(k as u32)
    }

    pub(super) fn loop_body(&mut self, depth: u32, k: u32) {
        let saved = self.mult;
        self.mult = self.mult.saturating_mul(k as u64);
        self.loops += 1;
        self.breakables += 1;
        self.nested_block(depth + 1);
        self.loops -= 1;
        self.breakables -= 1;
        self.mult = saved;
    }

    pub(super) fn counter_type(&mut self) -> Ty {
        *self.rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::Int,
            Ty::UInt,
            Ty::Long,
            Ty::Char,
            Ty::ULong,
            Ty::Short,
            Ty::UShort,
            Ty::UChar,
        ])
    }

    pub(super) fn for_stmt(&mut self, depth: u32) {
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

    pub(super) fn while_stmt(&mut self, depth: u32) {
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

    pub(super) fn do_stmt(&mut self, depth: u32) {
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

    pub(super) fn switch_stmt(&mut self, depth: u32) {
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
    pub(super) fn case_body(&mut self, depth: u32, last: bool) {
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

    pub(super) fn jump_stmt(&mut self) {
        let c = self.pure_expr(1);
        let kw = if self.loops > 0 && self.rng.chance(40) {
            "continue"
        } else {
            "break"
        };
        self.line(&format!("if ({}) {kw};", c.text));
    }

    pub(super) fn return_stmt(&mut self, conditional: bool) {
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
}
