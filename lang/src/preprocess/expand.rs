//! Macro expansion (C99 6.10.3): argument collection, substitution with `#` and `##`,
//! argument pre-expansion, and rescanning with hide sets.
//!
//! The algorithm is Prosser's (the one behind the standard's wording; see also chibicc's
//! `preprocess.c`): every token carries a *hide set*, the macros it came out of. A macro name
//! whose macro is in its own hide set is never expanded again, which is the "painted blue"
//! rule of 6.10.3.4p2 and makes every expansion finite. An object-like macro's replacement
//! gets the hide set of its name plus the macro; a function-like macro's gets the
//! intersection of the name's and the closing parenthesis' hide sets plus the macro.

use std::rc::Rc;
use std::sync::Arc;

use super::driver::{Frame, Pp};
use super::macros::{Builtin, Macro};
use super::source_map::Expansion;
use super::tokens::{scan, At, HideSet, Kind, Tok};

/// Most tokens the macro expansions of one line may make or copy (a guard against
/// exponential macros and quadratic argument nesting; the hide sets already make every
/// expansion finite, but not small).
const TOKEN_BUDGET: usize = 1 << 20;

/// Deepest nesting of macro invocations inside macro arguments.
const MAX_NESTING: u32 = 256;

/// Why expansion stopped: the error is already reported.
#[derive(Debug)]
pub struct Failed;

impl Pp<'_> {
    /// The id of a macro name, for hide sets.
    fn name_id(&mut self, name: &Rc<str>) -> u32 {
        if let Some(&id) = self.names.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.insert(name.clone(), id);
        id
    }

    /// The name of a macro as shared by the source map's expansions.
    fn shared_name(&mut self, name: &str) -> Arc<str> {
        if let Some(n) = self.shared_names.get(name) {
            return n.clone();
        }
        let n: Arc<str> = name.into();
        self.shared_names.insert(name.into(), n.clone());
        n
    }

    /// Fully macro-expand `input`. Function-like invocations may continue on the following
    /// lines of `lines` (text lines only). `_Pragma` operators are removed.
    pub(crate) fn expand(
        &mut self,
        input: Vec<Tok>,
        mut lines: Option<&mut Frame>,
        out: &mut Vec<Tok>,
    ) -> Result<(), Failed> {
        let mut stack: Vec<Tok> = input;
        stack.reverse();
        while let Some(t) = stack.pop() {
            if t.kind != Kind::Ident {
                out.push(t);
                continue;
            }
            let Some(m) = self.macros.get(&*t.text).cloned() else {
                if &*t.text == "_Pragma" {
                    self.pragma_operator(&t, &mut stack, lines.as_deref_mut())?;
                    continue;
                }
                out.push(t);
                continue;
            };
            let id = self.name_id(&t.text);
            if t.hs.contains(id) {
                out.push(t);
                continue;
            }
            if let Some(b) = m.builtin {
                out.push(self.builtin(b, t));
                continue;
            }
            if m.params.is_none() {
                let hs = t.hs.with(id);
                let body = self.substitute(&t, &m, &[], hs)?;
                push_front(&mut stack, body);
                continue;
            }
            // Function-like: an invocation only if `(` follows (maybe on a later line).
            if !self.next_is_paren(&mut stack, lines.as_deref_mut()) {
                out.push(t);
                continue;
            }
            let (args, rparen) = self.collect_args(&t, &m, &mut stack, lines.as_deref_mut())?;
            let hs = t.hs.intersect(&rparen.hs).with(id);
            let body = self.substitute(&t, &m, &args, hs)?;
            push_front(&mut stack, body);
        }
        Ok(())
    }

    /// `__FILE__` or `__LINE__` at `t`.
    fn builtin(&mut self, b: Builtin, t: Tok) -> Tok {
        let text: Rc<str> = match b {
            Builtin::Line => self.current_line().to_string().into(),
            Builtin::File => {
                let name = self.presumed.replace('\\', "\\\\").replace('"', "\\\"");
                format!("\"{name}\"").into()
            }
        };
        let kind = if b == Builtin::Line {
            Kind::Number
        } else {
            Kind::Str
        };
        Tok { kind, text, ..t }
    }

    /// Remove a `_Pragma ( string-literal )` operator (C99 6.10.9); its pragma is ignored.
    fn pragma_operator(
        &mut self,
        t: &Tok,
        stack: &mut Vec<Tok>,
        mut lines: Option<&mut Frame>,
    ) -> Result<(), Failed> {
        let mut parts = Vec::new();
        for want in ["(", "\"", ")"] {
            if stack.is_empty() {
                if let Some(frame) = lines.as_deref_mut() {
                    if let Some(more) = frame.next_text_line() {
                        push_front(stack, more);
                    }
                }
            }
            match stack.pop() {
                Some(n) if (want == "\"" && n.kind == Kind::Str) || n.is(want) => parts.push(n),
                _ => {
                    self.error_tok(t, "`_Pragma` takes a parenthesized string literal");
                    return Err(Failed);
                }
            }
        }
        Ok(())
    }

    /// True if the next token is `(`, reading following text lines while there is none.
    fn next_is_paren(&mut self, stack: &mut Vec<Tok>, mut lines: Option<&mut Frame>) -> bool {
        while stack.is_empty() {
            let Some(frame) = lines.as_deref_mut() else {
                return false;
            };
            match frame.next_text_line() {
                Some(more) => push_front(stack, more),
                None => return false,
            }
        }
        stack.last().is_some_and(|n| n.is("("))
    }

    /// Read the arguments of an invocation of `m` whose `(` is next on `stack`. Returns the
    /// arguments (the variable ones as one, `__VA_ARGS__`) and the closing parenthesis.
    fn collect_args(
        &mut self,
        name: &Tok,
        m: &Macro,
        stack: &mut Vec<Tok>,
        mut lines: Option<&mut Frame>,
    ) -> Result<(Vec<Vec<Tok>>, Tok), Failed> {
        let params = m.params.as_ref().map_or(0, Vec::len);
        stack.pop(); // `(`
        let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
        let mut depth = 0u32;
        let rparen = loop {
            if stack.is_empty() {
                if let Some(more) = lines.as_deref_mut().and_then(|f| f.next_text_line()) {
                    push_front(stack, more);
                    continue;
                }
                self.error_tok(
                    name,
                    format!("unterminated argument list invoking macro `{}`", name.text),
                );
                return Err(Failed);
            }
            let Some(mut t) = stack.pop() else {
                return Err(Failed);
            };
            if t.nl {
                t.nl = false;
                t.ws = true;
            }
            if t.is("(") {
                depth += 1;
            } else if t.is(")") {
                if depth == 0 {
                    break t;
                }
                depth -= 1;
            } else if t.is(",") && depth == 0 && !(m.variadic && args.len() == params) {
                args.push(Vec::new());
                continue;
            }
            if let Some(last) = args.last_mut() {
                last.push(t);
            }
        };
        // `f()` passes one empty argument: right for one parameter, none for zero.
        if params == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic && args.len() + 1 == params {
            args.push(Vec::new());
        }
        if args.len() != params {
            let named = if m.variadic { params - 1 } else { params };
            let message = if args.len() < params {
                format!(
                    "macro `{}` requires {named} argument{}, but only {} given",
                    name.text,
                    if named == 1 { "" } else { "s" },
                    args.len()
                )
            } else {
                format!(
                    "macro `{}` passed {} arguments, but takes just {params}",
                    name.text,
                    args.len()
                )
            };
            self.error_tok(name, message);
            return Err(Failed);
        }
        Ok((args, rparen))
    }

    /// The replacement of an invocation of `m` at `name` with `args`, every token with hide
    /// set `hs` added: parameters replaced (C99 6.10.3.1), `#` (6.10.3.2) and `##` (6.10.3.3)
    /// applied, placemarkers removed.
    fn substitute(
        &mut self,
        name: &Tok,
        m: &Macro,
        args: &[Vec<Tok>],
        hs: HideSet,
    ) -> Result<Vec<Tok>, Failed> {
        let exp = self.map.expansions.len() as u32;
        let macro_name = self.shared_name(&name.text);
        self.map.expansions.push(Expansion {
            name: macro_name,
            at: name.at,
        });
        let here = |t: &Tok| At { exp, ..t.at };
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut r: Vec<Tok> = Vec::with_capacity(m.body.len());
        let body = &m.body;
        let function_like = m.params.is_some();
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            if function_like && b.is("#") && !b.paste {
                if let Some(p) = body.get(i + 1).and_then(|n| m.param(n)) {
                    let mut s = stringize(&args[p]);
                    s.at = here(b);
                    s.ws = b.ws;
                    r.push(s);
                    i += 2;
                    continue;
                }
            }
            if let Some(p) = m.param(b) {
                let pasted =
                    body.get(i + 1).is_some_and(|n| n.paste) || (i > 0 && body[i - 1].paste);
                let start = r.len();
                if pasted {
                    if args[p].is_empty() {
                        r.push(Tok {
                            kind: Kind::Placemarker,
                            text: "".into(),
                            at: here(b),
                            ..b.clone()
                        });
                    } else {
                        r.extend(args[p].iter().cloned());
                    }
                } else {
                    if expanded[p].is_none() {
                        self.spend(args[p].len(), name)?;
                        self.depth += 1;
                        if self.depth > MAX_NESTING {
                            self.error_tok(
                                name,
                                "macro invocations nested too deeply in arguments",
                            );
                            return Err(Failed);
                        }
                        let mut e = Vec::new();
                        let result = self.expand(args[p].clone(), None, &mut e);
                        self.depth -= 1;
                        result?;
                        expanded[p] = Some(e);
                    }
                    if let Some(e) = &expanded[p] {
                        r.extend(e.iter().cloned());
                    }
                }
                if let Some(first) = r.get_mut(start) {
                    first.ws = b.ws;
                    first.nl = false;
                }
                i += 1;
                continue;
            }
            r.push(Tok {
                at: here(b),
                ..b.clone()
            });
            i += 1;
        }
        // `##`, left to right.
        let mut out: Vec<Tok> = Vec::with_capacity(r.len());
        let mut it = r.into_iter();
        while let Some(t) = it.next() {
            if t.paste {
                if let (Some(lhs), Some(rhs)) = (out.pop(), it.next()) {
                    out.push(self.paste(lhs, rhs)?);
                    continue;
                }
            }
            out.push(t);
        }
        out.retain(|t| t.kind != Kind::Placemarker);
        for t in &mut out {
            t.hs = t.hs.union(&hs);
        }
        if let Some(first) = out.first_mut() {
            first.ws = name.ws;
            first.nl = name.nl;
        }
        self.spend(out.len(), name)?;
        Ok(out)
    }

    /// Count `tokens` made or copied against the line's [`TOKEN_BUDGET`].
    fn spend(&mut self, tokens: usize, name: &Tok) -> Result<(), Failed> {
        self.budget += tokens;
        if self.budget > TOKEN_BUDGET {
            self.error_tok(
                name,
                "macro expansion too large (more than a million tokens for one line)",
            );
            return Err(Failed);
        }
        Ok(())
    }

    /// `lhs ## rhs`: one token, or an error.
    fn paste(&mut self, lhs: Tok, rhs: Tok) -> Result<Tok, Failed> {
        if lhs.kind == Kind::Placemarker {
            return Ok(Tok { ws: lhs.ws, ..rhs });
        }
        if rhs.kind == Kind::Placemarker {
            return Ok(lhs);
        }
        let text = format!("{}{}", lhs.text, rhs.text);
        let scanned = scan(&text);
        match scanned.as_slice() {
            [one] if one.start == 0 && one.end == text.len() && one.kind != Kind::Other => {
                Ok(Tok {
                    kind: one.kind,
                    text: text.into(),
                    paste: false,
                    ..lhs
                })
            }
            _ => {
                self.error_tok(
                    &lhs,
                    format!(
                        "pasting `{}` and `{}` does not give a valid preprocessing token",
                        lhs.text, rhs.text
                    ),
                );
                Err(Failed)
            }
        }
    }
}

/// Put `toks` in front of the reversed `stack`.
fn push_front(stack: &mut Vec<Tok>, toks: Vec<Tok>) {
    stack.extend(toks.into_iter().rev());
}

/// `# arg`: the argument's spelling as a string literal (C99 6.10.3.2).
fn stringize(arg: &[Tok]) -> Tok {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && (t.ws || t.nl) {
            s.push(' ');
        }
        if matches!(t.kind, Kind::Str | Kind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    let at = arg.first().map_or(
        At {
            file: 0,
            clean: 0,
            exp: super::tokens::NO_EXPANSION,
        },
        |t| t.at,
    );
    Tok {
        kind: Kind::Str,
        text: s.into(),
        ws: false,
        nl: false,
        paste: false,
        hs: HideSet::new(),
        at,
    }
}
