//! Strings: buffers (`char b[16] = "ab"`, `char b[] = "xyz"`), `const char *` literals and
//! tables of them, the `<string.h>` functions, `printf("%s")`, `sprintf` and `snprintf`.
//!
//! A string buffer is a `char` array whose last element is never written ([`super::Var`]'s
//! `nul_last`), so it always holds a NUL-terminated string of at most its size minus one
//! characters, whatever the random statements did to its other elements. Every source of a
//! string therefore has a known maximum length (a literal's, a buffer's size minus one, a table's
//! longest entry; unknown only for a `const char *` parameter), and every copy into a buffer is
//! either short enough by that bound or guarded at run time (`if (strlen(s) < 16) strcpy(b,
//! s);`, `if (strlen(b) + strlen(s) < 16) strcat(b, s);`); `sprintf` only formats what fits by a
//! bound on each conversion's length, `snprintf` is given the buffer's size. Copies never overlap
//! (source and destination are different variables) and the results of `strcmp`, `strncmp`
//! and `memcmp` are only compared with 0 (their magnitude is unspecified).

use super::effects::{Effects, Forbid, VarId, STDOUT};
use super::expr::Ex;
use super::objects::{Base, Node, Pointer, Shape};
use super::types::Ty;
use super::Gen;

/// Characters of generated string literals: no `?` (trigraphs) and no `%`; `"` and `\` are
/// escaped by [`c_literal`].
const CHARS: &[char] = &[
    'a', 'b', 'c', 'x', 'y', 'z', 'A', 'Q', '0', '1', '7', ' ', '-', '_', '.', ',', ':', '\n',
    '\t', '"', '\\', 'e', 'o',
];

/// The longest literal the generator writes.
const MAX_LITERAL: u32 = 12;

/// A string's length when nothing bounds it statically (a `const char *` parameter: callers
/// pass literals and buffers, all shorter than this).
const UNKNOWN_LEN: u32 = 40;

/// The C literal for `s` (its escapes).
pub(super) fn c_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string argument: its text, its maximum length (`None` if unknown), the variable holding
/// it (`None` for a literal) and the effects of evaluating it.
pub(super) struct StrSrc {
    pub(super) text: String,
    pub(super) max: Option<u32>,
    pub(super) target: Option<VarId>,
    pub(super) eff: Effects,
}

/// A buffer to write a string into: its text (side-effect free, it may be evaluated twice),
/// size, whether `sizeof` of the text gives that size, and its variable.
struct Buffer {
    text: String,
    cap: u32,
    sized: bool,
    target: VarId,
}

impl Gen {
    /// `len` random characters for a literal.
    pub(super) fn literal_text(&mut self, len: u32) -> String {
        (0..len).map(|_| *self.rng.pick(CHARS)).collect()
    }

    fn string_literal(&mut self) -> (String, u32) {
        let len = self.rng.range(0, i64::from(MAX_LITERAL)) as u32;
        let len = if self.rng.chance(50) { len.min(4) } else { len };
        (c_literal(&self.literal_text(len)), len)
    }

    /// A string: a literal, a buffer (or a suffix of one), a `const char *` variable or
    /// parameter (plus an offset), an entry of a table of strings, a structure's `char` array.
    /// Its indices obey `f`; with `pure` it has no side effects (it is evaluated twice).
    pub(super) fn string_source(&mut self, f: &Forbid, pure: bool) -> StrSrc {
        self.string_source_where(f, pure, &|_: &Gen, _: VarId| true)
    }

    /// [`Gen::string_source`] from a variable satisfying `allowed` (or a literal).
    pub(super) fn string_source_where(
        &mut self,
        f: &Forbid,
        pure: bool,
        allowed: &dyn Fn(&Gen, VarId) -> bool,
    ) -> StrSrc {
        // the storage of a string node: the array's, or what the pointer points into
        let storage = |n: &Node| -> Option<VarId> {
            match &n.shape {
                Shape::Array { nul_last: true, .. } => Some(n.target),
                Shape::Pointer(p) if p.string.is_some() => Some(p.target),
                _ => None,
            }
        };
        let node = if self.rng.chance(30) {
            None
        } else {
            let candidates: Vec<Node> = self
                .visible()
                .into_iter()
                .filter(|&v| v != STDOUT)
                .flat_map(|v| self.nodes(v))
                .filter(|n| {
                    storage(n).is_some_and(|t| allowed(self, t) && f.may_read(t))
                        && f.may_read(n.target)
                        && f.may_read(n.var)
                })
                .collect();
            if candidates.is_empty() {
                None
            } else {
                Some(candidates[self.rng.index(candidates.len())].clone())
            }
        };
        let Some(node) = node else {
            let (text, len) = self.string_literal();
            return StrSrc {
                text,
                max: Some(len),
                target: None,
                eff: Effects::none(),
            };
        };
        let (text, eff) = if pure {
            let t = self.render_const(&node);
            (t, Effects::none())
        } else {
            self.render(&node, false, 1, f)
        };
        let (hi, max) = match &node.shape {
            Shape::Array { len, .. } => (*len as i32, Some(len - 1)),
            Shape::Pointer(p) => (p.hi, p.string.filter(|&m| m != u32::MAX)),
            _ => unreachable!("filtered above"),
        };
        // now and then a suffix: the string starting k characters in (still before its NUL)
        let k = if hi > 1 && self.rng.chance(25) {
            self.rng.range(1, i64::from(hi) - 1) as u32
        } else {
            0
        };
        let text = if k == 0 {
            text
        } else if self.rng.chance(50) {
            format!("({text} + {k})")
        } else {
            format!("(&{text}[{k}])")
        };
        let target = storage(&node).unwrap_or(node.target);
        let mut eff = eff;
        eff.reads.insert(node.target);
        eff.reads.insert(target);
        StrSrc {
            text,
            max: max.map(|m| m.saturating_sub(k)),
            target: Some(target),
            eff,
        }
    }

    /// A writable string buffer (a side-effect-free text for it).
    fn buffer(&mut self, f: &Forbid) -> Option<Buffer> {
        let node = self.pick_node(
            |_| true,
            |_, n| {
                !n.ro
                    && f.may_write(n.target)
                    && matches!(n.shape, Shape::Array { nul_last: true, .. })
            },
        )?;
        let Shape::Array { len, .. } = node.shape else {
            return None;
        };
        let text = self.render_const(&node);
        Some(Buffer {
            text,
            cap: len,
            sized: true,
            target: node.target,
        })
    }

    /// An expression of the string functions: `strlen`, the sign of `strcmp`, `strncmp` and
    /// `memcmp`, `strchr` found or its offset.
    pub(super) fn string_expr(&mut self, f: &Forbid) -> Option<Ex> {
        let op = *self.rng.pick(&["<", ">", "==", "!=", "<=", ">="]);
        match self.rng.below(7) {
            0 | 1 => {
                let s = self.string_source(f, false);
                Some(Ex::new(format!("strlen({})", s.text), Ty::ULong, s.eff))
            }
            2 | 3 => {
                let a = self.string_source(f, false);
                let b = self.string_source(&f.after(&a.eff), false);
                let eff = a.eff.union(&b.eff);
                let text = if self.rng.chance(60) {
                    format!("(strcmp({}, {}) {op} 0)", a.text, b.text)
                } else {
                    let n = self.rng.range(0, 5);
                    format!("(strncmp({}, {}, {n}) {op} 0)", a.text, b.text)
                };
                Some(Ex::new(text, Ty::Int, eff))
            }
            4 => {
                let s = self.string_source(f, true);
                let c = *self
                    .rng
                    .pick(&["'a'", "'x'", "'0'", "' '", "'\\0'", "'-'", "65"]);
                // the offset needs one object: two occurrences of a literal may be two
                if s.target.is_none() || self.rng.chance(50) {
                    Some(Ex::new(
                        format!("(strchr({}, {c}) != NULL)", s.text),
                        Ty::Int,
                        s.eff,
                    ))
                } else {
                    let t = &s.text;
                    Some(Ex::new(
                        format!("(strchr({t}, {c}) ? strchr({t}, {c}) - {t} : -1L)"),
                        Ty::Long,
                        s.eff,
                    ))
                }
            }
            5 => self.memcmp_expr(op, f),
            _ => {
                let (lit, len) = self.string_literal();
                let k = self.rng.range(0, i64::from(len));
                Some(Ex::new(format!("{lit}[{k}]"), Ty::Char, Effects::none()))
            }
        }
    }

    /// `(memcmp(a, b, n) op 0)` for two arrays of one scalar type.
    fn memcmp_expr(&mut self, op: &str, f: &Forbid) -> Option<Ex> {
        let a = self.pick_node(
            |_| true,
            |_, n| f.may_read(n.target) && scalar_array(n).is_some(),
        )?;
        let (ty, la) = scalar_array(&a)?;
        let b = self.pick_node(
            |_| true,
            |_, n| f.may_read(n.target) && scalar_array(n).is_some_and(|(t, _)| t == ty),
        )?;
        let (_, lb) = scalar_array(&b)?;
        let at = self.render_const(&a);
        let bt = self.render_const(&b);
        let n = self.rng.range(0, i64::from(la.min(lb)));
        let mut eff = Effects::read(a.target);
        eff.reads.insert(b.target);
        Some(Ex::new(
            format!("(memcmp({at}, {bt}, {n} * sizeof({})) {op} 0)", ty.c_name()),
            Ty::Int,
            eff,
        ))
    }

    /// A statement of the string and memory functions: `strcpy`, `strcat`, `sprintf`,
    /// `snprintf`, `memset`, `memcpy`, `memmove`. False if nothing fits.
    pub(super) fn string_stmt(&mut self) -> bool {
        match self.rng.below(8) {
            0 | 1 => self.strcpy_stmt(),
            2 => self.strcat_stmt(),
            3 | 4 => self.sprintf_stmt(),
            5 => self.memset_stmt(),
            6 => self.memcpy_stmt(),
            _ => self.memmove_stmt(),
        }
    }

    fn strcpy_stmt(&mut self) -> bool {
        let Some(b) = self.buffer(&Forbid::none()) else {
            return false;
        };
        let s = self.string_source(&Forbid::none().without_access(b.target), true);
        let mut eff = s.eff.clone();
        eff.writes.insert(b.target);
        self.note(&eff);
        if s.max.is_some_and(|m| m < b.cap) && self.rng.chance(70) {
            self.line(&format!("strcpy({}, {});", b.text, s.text));
        } else {
            let size = self.size_text(&b);
            self.line(&format!(
                "if (strlen({}) < {size}) strcpy({}, {});",
                s.text, b.text, s.text
            ));
        }
        true
    }

    fn strcat_stmt(&mut self) -> bool {
        let Some(b) = self.buffer(&Forbid::none()) else {
            return false;
        };
        let s = self.string_source(&Forbid::none().without_access(b.target), true);
        let mut eff = s.eff.clone();
        eff.writes.insert(b.target);
        eff.reads.insert(b.target);
        self.note(&eff);
        let size = self.size_text(&b);
        self.line(&format!(
            "if (strlen({}) + strlen({}) < {size}) strcat({}, {});",
            b.text, s.text, b.text, s.text
        ));
        true
    }

    /// `sizeof b` or the number.
    fn size_text(&mut self, b: &Buffer) -> String {
        if b.sized && self.rng.chance(50) {
            format!("sizeof {}", b.text)
        } else {
            b.cap.to_string()
        }
    }

    /// `sprintf` when the conversions' lengths fit the buffer, else `snprintf` (whose result,
    /// the length it would have written, is printed now and then).
    fn sprintf_stmt(&mut self) -> bool {
        let Some(b) = self.buffer(&Forbid::none()) else {
            return false;
        };
        let mut fmt = String::new();
        let mut args = Vec::new();
        let mut acc = Effects::none();
        let mut bound: u32 = 0;
        let base = Forbid::none().without_write(b.target);
        for _ in 0..self.rng.range(1, 3) {
            if self.rng.chance(30) {
                let piece = *self.rng.pick(&["-", ":", " ", "ab", "=", "[", "]"]);
                fmt.push_str(piece);
                bound += piece.len() as u32;
            }
            let f = base.after(&acc);
            if self.rng.chance(30) {
                let s = self.string_source(&f.without_access(b.target), false);
                let prec = self.rng.range(0, 8) as u32;
                let (spec, len) = match s.max {
                    Some(m) if self.rng.chance(50) => ("%s".to_string(), m),
                    _ => (format!("%.{prec}s"), prec),
                };
                fmt.push_str(&spec);
                bound += len;
                acc.union_with(&s.eff);
                args.push(s.text);
                continue;
            }
            let e = self.expr(1, &f);
            acc.union_with(&e.eff);
            let width = if self.rng.chance(25) {
                self.rng.range(1, 6) as u32
            } else {
                0
            };
            let w = if width > 0 {
                width.to_string()
            } else {
                String::new()
            };
            let (spec, len, arg) = match e.ty.promote() {
                Ty::Int if self.rng.chance(20) => (format!("%{w}c"), 1, e.text),
                Ty::Int => (format!("%{w}d"), 11, e.text),
                Ty::UInt => (format!("%{w}{}", self.rng.pick(&["u", "x"])), 10, e.text),
                Ty::Long => (format!("%{w}ld"), 20, e.text),
                Ty::ULong => (format!("%{w}l{}", self.rng.pick(&["u", "x"])), 20, e.text),
                _ => {
                    let p = self.rng.range(0, 6) as u32;
                    let conv = *self.rng.pick(&["e", "g", "E", "G"]);
                    (format!("%{w}.{p}{conv}"), p + 9, format!("fin({})", e.text))
                }
            };
            fmt.push_str(&spec);
            bound += len.max(width);
            args.push(arg);
        }
        acc.writes.insert(b.target);
        self.note(&acc);
        let args: String = args.iter().map(|a| format!(", {a}")).collect();
        if bound < b.cap && self.rng.chance(70) {
            self.line(&format!("sprintf({}, \"{fmt}\"{args});", b.text));
        } else {
            let size = self.size_text(&b);
            let call = format!("snprintf({}, {size}, \"{fmt}\"{args})", b.text);
            if self.rng.chance(40) {
                let label = self.fresh_name("sn");
                self.line(&format!("printf(\"{label} %d\\n\", {call});"));
                self.fx_writes.insert(STDOUT);
            } else {
                self.line(&format!("{call};"));
            }
        }
        true
    }

    /// `memset` of an array (a byte every element type can hold: 0 or 1 for `_Bool`, 0 for
    /// floating types) or of a structure with 0.
    fn memset_stmt(&mut self) -> bool {
        let Some(node) = self.pick_node(
            |_| true,
            |_, n| !n.ro && (scalar_array(n).is_some() || matches!(n.shape, Shape::Record(_))),
        ) else {
            return false;
        };
        let text = self.render_const(&node);
        self.note(&Effects {
            reads: Default::default(),
            writes: [node.target].into_iter().collect(),
        });
        if let Some((ty, len)) = scalar_array(&node) {
            let nul_last = matches!(node.shape, Shape::Array { nul_last: true, .. });
            let max = if nul_last { len - 1 } else { len };
            let byte = match ty {
                Ty::Bool => self.rng.range(0, 1).to_string(),
                Ty::Float | Ty::Double => "0".to_string(),
                Ty::Char | Ty::UChar => {
                    (*self.rng.pick(&["'x'", "'-'", "0", "65", "255", "-1"])).to_string()
                }
                _ => (*self.rng.pick(&["0", "1", "255", "0x7f", "-1"])).to_string(),
            };
            // `sizeof` of the array itself (not of the pointer a heap block or an array
            // parameter is)
            let heap_root = node.steps.is_empty() && self.vars[node.var as usize].heap;
            let whole = !(nul_last || heap_root);
            let size = if whole && self.rng.chance(40) {
                format!("sizeof {text}")
            } else {
                let n = self.rng.range(0, i64::from(max));
                match self.rng.below(3) {
                    0 => format!("{n} * sizeof {text}[0]"),
                    1 => format!("sizeof({}) * {n}", ty.c_name()),
                    _ => format!("{n} * sizeof *{text}"),
                }
            };
            self.line(&format!("memset({text}, {byte}, {size});"));
        } else {
            self.line(&format!("memset(&{text}, 0, sizeof {text});"));
        }
        true
    }

    /// `memcpy` between two arrays of one scalar type or two structures of one type, in
    /// different variables.
    fn memcpy_stmt(&mut self) -> bool {
        let Some(dst) = self.pick_node(
            |_| true,
            |_, n| !n.ro && (scalar_array(n).is_some() || matches!(n.shape, Shape::Record(_))),
        ) else {
            return false;
        };
        let src = match scalar_array(&dst) {
            Some((ty, _)) => self.pick_node(
                |_| true,
                |_, n| n.target != dst.target && scalar_array(n).is_some_and(|(t, _)| t == ty),
            ),
            None => self.pick_node(
                |_| true,
                |_, n| n.target != dst.target && n.shape == dst.shape,
            ),
        };
        let Some(src) = src else {
            return false;
        };
        let d = self.render_const(&dst);
        let s = self.render_const(&src);
        let mut eff = Effects::read(src.target);
        eff.writes.insert(dst.target);
        self.note(&eff);
        match (scalar_array(&dst), scalar_array(&src)) {
            (Some((ty, ld)), Some((_, ls))) => {
                let nul_last = matches!(dst.shape, Shape::Array { nul_last: true, .. });
                let max = if nul_last { ld - 1 } else { ld }.min(ls);
                let n = self.rng.range(0, i64::from(max));
                let size = if self.rng.chance(50) {
                    format!("{n} * sizeof {d}[0]")
                } else {
                    format!("sizeof({}) * {n}", ty.c_name())
                };
                self.line(&format!("memcpy({d}, {s}, {size});"));
            }
            _ => self.line(&format!("memcpy(&{d}, &{s}, sizeof {d});")),
        }
        true
    }

    /// `memmove` inside one array (the ranges may overlap).
    fn memmove_stmt(&mut self) -> bool {
        let Some(node) = self.pick_node(|_| true, |_, n| !n.ro && scalar_array(n).is_some()) else {
            return false;
        };
        let Some((_, len)) = scalar_array(&node) else {
            return false;
        };
        let nul_last = matches!(node.shape, Shape::Array { nul_last: true, .. });
        let max = if nul_last { len - 1 } else { len };
        let n = self.rng.range(0, i64::from(max));
        let to = self.rng.range(0, i64::from(max) - n);
        let from = self.rng.range(0, i64::from(len) - n);
        let a = self.render_const(&node);
        let mut eff = Effects::read(node.target);
        eff.writes.insert(node.target);
        self.note(&eff);
        self.line(&format!(
            "memmove({a} + {to}, {a} + {from}, {n} * sizeof {a}[0]);"
        ));
        true
    }

    /// `char b[N] = "..."` or `char b[] = "..."`: a string buffer (a global with `out`).
    pub(super) fn string_buffer(&mut self, out: Option<&mut String>) {
        let global = out.is_some();
        let name = self.fresh_name(if global { "gb" } else { "b" });
        let (lit, len) = self.string_literal();
        let (decl, cap) = if len > 1 && self.rng.chance(30) {
            (format!("char {name}[]"), len + 1)
        } else {
            // at least one writable element
            let cap = (len + 1 + self.rng.range(0, 24) as u32).max(2);
            (format!("char {name}[{cap}]"), cap)
        };
        let text = format!("{decl} = {lit};");
        match out {
            Some(out) => {
                out.push_str(&text);
                out.push('\n');
            }
            None => self.line(&text),
        }
        let id = self.declare(name, Ty::Char, vec![cap], true, None);
        self.vars[id as usize].nul_last = true;
    }

    /// `const char *s = "..."`, or a table `const char *t[] = {"..", ...}` (a global with
    /// `out`).
    pub(super) fn string_pointer(&mut self, out: Option<&mut String>) {
        let global = out.is_some();
        let text;
        if self.rng.chance(35) {
            let name = self.fresh_name(if global { "gn" } else { "n" });
            let n = self.rng.range(2, 5) as u32;
            let lits: Vec<(String, u32)> = (0..n).map(|_| self.string_literal()).collect();
            let min = lits.iter().map(|l| l.1).min().unwrap_or(0);
            let max = lits.iter().map(|l| l.1).max().unwrap_or(0);
            let texts: Vec<&str> = lits.iter().map(|l| l.0.as_str()).collect();
            let size = if self.rng.chance(50) {
                String::new()
            } else {
                n.to_string()
            };
            text = format!("const char *{name}[{size}] = {{{}}};", texts.join(", "));
            let id = self.declare(name, Ty::Char, vec![n], false, None);
            self.vars[id as usize].obj = Some(Shape::Pointer(Box::new(Pointer {
                target: id,
                to: Shape::Scalar(Ty::Char),
                lo: 0,
                hi: min as i32 + 1,
                konst: true,
                ro: true,
                string: Some(max),
                base: None,
            })));
        } else {
            let name = self.fresh_name(if global { "gs" } else { "s" });
            let (lit, len) = self.string_literal();
            text = format!("const char *{name} = {lit};");
            let target = self.pseudo_var("literal", false);
            let p = Pointer {
                target,
                to: Shape::Scalar(Ty::Char),
                lo: 0,
                hi: len as i32 + 1,
                konst: true,
                ro: true,
                string: Some(len),
                base: Some(Base {
                    var: target,
                    text: String::new(),
                    off: 0,
                    len: len + 1,
                }),
            };
            self.declare_obj(name, Shape::Pointer(Box::new(p)), false);
        }
        match out {
            Some(out) => {
                out.push_str(&text);
                out.push('\n');
            }
            None => self.line(&text),
        }
    }

    /// A `%s` argument for `printf` instead of a literal (now and then).
    pub(super) fn printf_string(&mut self, f: &Forbid) -> (String, Effects) {
        let s = self.string_source(f, false);
        (s.text, s.eff)
    }

    /// `for (int k = 0; s[k] != '\0'; k++) { ... }`: a loop over a string's characters.
    pub(super) fn string_loop(&mut self, depth: u32) -> bool {
        let s = self.string_source(&Forbid::none(), true);
        let max = s.max.unwrap_or(UNKNOWN_LEN).max(1);
        if self.mult.saturating_mul(u64::from(max)).saturating_mul(3) > self.remaining() {
            return false;
        }
        let k = self.fresh_name("c");
        self.scopes.push(Vec::new());
        let cond = if self.rng.chance(50) {
            format!("{}[{k}] != '\\0'", s.text)
        } else {
            format!("{}[{k}]", s.text)
        };
        self.line(&format!("for (int {k} = 0; {cond}; {k}++) {{"));
        let bound = s.max.filter(|&m| m > 0);
        self.declare(k, Ty::Int, vec![], false, bound);
        self.note(&s.eff);
        self.loop_body(depth, max);
        self.line("}");
        self.scopes.pop();
        true
    }
}

/// The element type and length of an array of scalars.
pub(super) fn scalar_array(n: &Node) -> Option<(Ty, u32)> {
    match &n.shape {
        Shape::Array { of, len, .. } => match **of {
            Shape::Scalar(t) => Some((t, *len)),
            _ => None,
        },
        _ => None,
    }
}
