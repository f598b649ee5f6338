//! Macro definitions: what `#define` makes (C99 6.10.3), and when a redefinition is the same
//! definition (6.10.3p2: same parameters, same replacement list with the same whitespace
//! separation).

use std::rc::Rc;

use super::tokens::{At, Kind, Tok};

/// A macro computed when expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `__FILE__`: the presumed file name as a string literal.
    File,
    /// `__LINE__`: the presumed line number.
    Line,
}

/// One macro definition.
#[derive(Clone, Debug)]
pub struct Macro {
    /// The parameters of a function-like macro (`__VA_ARGS__` last if variadic); `None` for
    /// an object-like macro.
    pub params: Option<Vec<Rc<str>>>,
    /// A `...` ends the parameters.
    pub variadic: bool,
    /// The replacement list (`##` operators marked [`Tok::paste`]).
    pub body: Vec<Tok>,
    /// Where the macro's name is in its `#define`.
    pub at: At,
    /// Set for `__FILE__` and `__LINE__`.
    pub builtin: Option<Builtin>,
}

impl Macro {
    /// The index of the parameter named by `tok`, if it names one.
    pub fn param(&self, tok: &Tok) -> Option<usize> {
        if tok.kind != Kind::Ident {
            return None;
        }
        self.params.as_ref()?.iter().position(|p| **p == *tok.text)
    }

    /// True if `other` is the same definition (C99 6.10.3p2).
    pub fn same_as(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.variadic == other.variadic
            && self.builtin == other.builtin
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| a.text == b.text && (i == 0 || a.ws == b.ws))
    }
}

/// The message for `__VA_ARGS__` outside a variadic macro's replacement list.
const VA_ARGS_MISUSE: &str = "`__VA_ARGS__` can only appear in the expansion of a variadic macro";

/// A problem in a `#define`: the token it is at and the message.
pub type DefineError = (At, u32, String);

/// Parse the tokens after `#define`: the name and the definition.
pub fn parse_define(toks: &[Tok], directive: At) -> Result<(Rc<str>, Macro), DefineError> {
    let Some(name) = toks.first() else {
        return Err((directive, 6, "macro name missing after `#define`".into()));
    };
    let len = |t: &Tok| t.text.len() as u32;
    if name.kind != Kind::Ident {
        return Err((name.at, len(name), "macro names must be identifiers".into()));
    }
    if &*name.text == "defined" {
        return Err((
            name.at,
            len(name),
            "`defined` cannot be used as a macro name".into(),
        ));
    }
    let mut i = 1;
    let mut params = None;
    let mut variadic = false;
    if toks.get(1).is_some_and(|t| t.is("(") && !t.ws) {
        let mut list: Vec<Rc<str>> = Vec::new();
        i = 2;
        let missing = |i: usize| -> DefineError {
            let last = &toks[i - 1];
            (
                last.at,
                len(last),
                "missing `)` in macro parameter list".into(),
            )
        };
        if toks.get(i).is_some_and(|t| t.is(")")) {
            i += 1;
        } else {
            loop {
                let t = toks.get(i).ok_or_else(|| missing(i))?;
                i += 1;
                if t.is("...") {
                    variadic = true;
                    list.push("__VA_ARGS__".into());
                    match toks.get(i) {
                        Some(c) if c.is(")") => {
                            i += 1;
                            break;
                        }
                        _ => return Err((t.at, 3, "expected `)` after `...`".into())),
                    }
                }
                if t.kind != Kind::Ident {
                    return Err((
                        t.at,
                        len(t),
                        format!("expected a parameter name, found `{}`", t.text),
                    ));
                }
                if &*t.text == "__VA_ARGS__" {
                    return Err((t.at, len(t), VA_ARGS_MISUSE.into()));
                }
                if list.contains(&t.text) {
                    return Err((
                        t.at,
                        len(t),
                        format!("duplicate macro parameter `{}`", t.text),
                    ));
                }
                list.push(t.text.clone());
                let t = toks.get(i).ok_or_else(|| missing(i))?;
                i += 1;
                if t.is(")") {
                    break;
                }
                if !t.is(",") {
                    return Err((
                        t.at,
                        len(t),
                        format!(
                            "expected `,` or `)` in macro parameter list, found `{}`",
                            t.text
                        ),
                    ));
                }
            }
        }
        params = Some(list);
    } else if let Some(t) = toks.get(1) {
        if !t.ws {
            // C99 6.10.3p3: whitespace is required after the name of an object-like macro.
            return Err((
                t.at,
                len(t),
                "missing whitespace after the macro name".into(),
            ));
        }
    }
    let mut body: Vec<Tok> = toks[i..].to_vec();
    // `a ## ## b` pastes `a` and `b`, as with gcc (C99 leaves pasting `##` undefined).
    body.dedup_by(|next, prev| next.is("##") && prev.is("##"));
    if let Some(first) = body.first_mut() {
        first.ws = false;
    }
    let mut m = Macro {
        params,
        variadic,
        body: Vec::new(),
        at: name.at,
        builtin: None,
    };
    let count = body.len();
    for (k, t) in body.iter_mut().enumerate() {
        if t.is("##") {
            t.paste = true;
            if k == 0 || k + 1 == count {
                return Err((
                    t.at,
                    2,
                    "`##` cannot appear at either end of a macro expansion".into(),
                ));
            }
        }
        if t.kind == Kind::Ident && &*t.text == "__VA_ARGS__" && !variadic {
            return Err((t.at, len(t), VA_ARGS_MISUSE.into()));
        }
    }
    if m.params.is_some() {
        for (k, t) in body.iter().enumerate() {
            if t.is("#") && body.get(k + 1).and_then(|n| m.param(n)).is_none() {
                return Err((t.at, 1, "`#` is not followed by a macro parameter".into()));
            }
        }
    }
    m.body = body;
    Ok((name.text.clone(), m))
}
