//! The declarations and jumps of "Real C": typedef names, enumeration constants, `sizeof`,
//! `static` locals, designated initializers, and `goto` (forward skips, loops made of labels
//! that may be entered in the middle, which makes the control-flow graph irreducible, and exits
//! from nested loops).
//!
//! Every form stays well defined and bounded: a loop made of labels counts down a counter the
//! generated expressions may read but not write, as the loop statements' counters; a `static`
//! local is treated as a global for the effects analysis (its value outlives the call, so two
//! calls in one expression must not both write it).

use std::fmt::Write as _;

use super::effects::Effects;
use super::expr::Ex;
use super::macros::MACROS;
use super::types::{Ty, ALL_TYPES};
use super::Gen;

/// The enumeration constants of the prelude and their values.
const ENUM_CONSTANTS: &[(&str, i64)] = &[
    ("K_ZERO", 0),
    ("K_ONE", 1),
    ("K_SEVEN", 7),
    ("K_EIGHT", 8),
    ("K_NEG", -3),
    ("K_NEXT", -2),
];

/// The typedef name the prelude gives `ty`.
fn typedef_name(ty: Ty) -> String {
    format!("t_{}", ty.c_name().replace(' ', "_"))
}

/// Typedefs of every scalar type and an enumeration, for the prelude.
pub(super) fn prelude() -> String {
    let mut out = String::new();
    for ty in ALL_TYPES {
        let _ = writeln!(out, "typedef {} {};", ty.c_name(), typedef_name(ty));
    }
    out.push_str("enum constants { K_ZERO, K_ONE, K_SEVEN = 7, K_EIGHT, K_NEG = -3, K_NEXT };\n");
    out.push_str(MACROS);
    out
}

impl Gen {
    /// How a declaration spells `ty`: its keywords, or now and then its typedef name.
    pub(super) fn spell(&mut self, ty: Ty) -> String {
        if self.rng.chance(25) {
            typedef_name(ty)
        } else {
            ty.c_name().to_string()
        }
    }

    /// [`Ty::spelling`], but with the pointer features never `long long`: gcc types `&x` of a
    /// `long long x` as `long long *`, which a `long *` may not take (nor `p - q` mix them),
    /// and the generator only knows `Ty::Long`.
    pub(super) fn spelling(&mut self, ty: Ty) -> &'static str {
        let s = ty.spelling(&mut self.rng);
        if self.cfg.pointers && s.contains("long long") {
            ty.c_name()
        } else {
            s
        }
    }

    /// A constant leaf other than a literal: an enumeration constant or a `sizeof`.
    pub(super) fn named_constant(&mut self) -> Ex {
        if self.rng.chance(60) {
            let (name, _) = *self.rng.pick(ENUM_CONSTANTS);
            Ex {
                text: name.to_string(),
                ty: Ty::Int,
                eff: Effects::none(),
            }
        } else {
            let ty = *self.rng.pick(&ALL_TYPES);
            let spelled = self.spell(ty);
            Ex {
                text: format!("sizeof({spelled})"),
                ty: Ty::ULong,
                eff: Effects::none(),
            }
        }
    }

    /// `static T name = constant;`: a local that keeps its value between calls.
    pub(super) fn static_local(&mut self) {
        let ty = self.random_type();
        let name = self.fresh_name("s");
        let init = self.constant_initializer(ty);
        let spelled = self.spell(ty);
        self.line(&format!("static {spelled} {name} = {init};"));
        let id = self.declare(name, ty, vec![], true, None);
        // Its value outlives the call: for the effects analysis it is a global.
        self.vars[id as usize].global = true;
    }

    /// A one-dimensional brace initializer with designators (`{[3] = x, y, [0] = z}`): the
    /// elements named and the ones after them, inside the bounds.
    pub(super) fn designated_init(&mut self, len: u32, ty: Ty) -> String {
        let mut parts = Vec::new();
        let mut next = 0u32;
        for _ in 0..self.rng.range(1, 4) {
            let value = self.element_init(ty);
            if next < len && self.rng.chance(40) {
                parts.push(value);
                next += 1;
            } else {
                let at = self.rng.below(len as u64) as u32;
                parts.push(format!("[{at}] = {value}"));
                next = at + 1;
            }
        }
        format!("{{{}}}", parts.join(", "))
    }

    /// A statement built with `goto`.
    pub(super) fn goto_stmt(&mut self, depth: u32) {
        match self.rng.below(3) {
            0 => self.goto_skip(depth),
            1 => self.goto_loop(depth),
            _ => self.goto_out_of_loops(depth),
        }
    }

    /// `if (c) goto skip; { ... } skip:;`
    fn goto_skip(&mut self, depth: u32) {
        let label = self.fresh_name("skip");
        let c = self.pure_expr(2);
        self.line(&format!("if ({}) goto {label};", c.text));
        self.line("{");
        self.nested_block(depth + 1);
        self.line("}");
        self.line(&format!("{label}:;"));
    }

    /// A counted loop made of labels, entered at its top or (if a condition holds) in its
    /// middle: two entries, an irreducible loop.
    fn goto_loop(&mut self, depth: u32) {
        let Some(k) = self.trip_count() else {
            return self.expr_stmt();
        };
        let name = self.fresh_name("g");
        self.line("{");
        self.indent += 1;
        self.scopes.push(Vec::new());
        self.line(&format!("int {name} = {k};"));
        self.declare(name.clone(), Ty::Int, vec![], false, Some(k + 1));
        if self.rng.chance(60) {
            let c = self.pure_expr(1);
            self.line(&format!("if ({}) goto {name}_mid;", c.text));
        }
        let saved = self.mult;
        self.mult = self.mult.saturating_mul(u64::from(k));
        self.line(&format!("{name}_top:;"));
        self.line("{");
        self.nested_block(depth + 1);
        self.line("}");
        self.line(&format!("{name}_mid:;"));
        self.line("{");
        self.nested_block(depth + 1);
        self.line("}");
        self.line(&format!("if (--{name} > 0) goto {name}_top;"));
        self.mult = saved;
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
    }

    /// Two nested counted loops, left from the inner one by a `goto` past both.
    fn goto_out_of_loops(&mut self, depth: u32) {
        let Some(k) = self.trip_count() else {
            return self.expr_stmt();
        };
        let (outer, inner, out) = (
            self.fresh_name("o"),
            self.fresh_name("i"),
            self.fresh_name("out"),
        );
        self.scopes.push(Vec::new());
        self.line(&format!(
            "for (int {outer} = 0; {outer} < {k}; {outer}++) {{"
        ));
        self.declare(outer, Ty::Int, vec![], false, Some(k));
        self.indent += 1;
        self.line(&format!("for (int {inner} = 0; {inner} < 2; {inner}++) {{"));
        self.declare(inner, Ty::Int, vec![], false, Some(2));
        let c = self.pure_expr(2);
        // The body in a block of its own: its declarations must not hide what `c` reads.
        self.line("    {");
        self.loop_body(depth + 1, 2 * k);
        self.line("    }");
        self.line(&format!("    if ({}) goto {out};", c.text));
        self.line("}");
        self.indent -= 1;
        self.line("}");
        self.scopes.pop();
        self.line(&format!("{out}:;"));
    }
}
