//! Preprocessing tokens (C99 6.4: header names aside): identifiers, pp-numbers, character
//! constants, string literals, punctuators, and any other single character.
//!
//! [`scan`] splits one line of clean text (see [`super::phases`]) into token ranges; it never
//! fails: an unterminated literal runs to the end of the line (the lexer reports it if the
//! line is not skipped).

use std::rc::Rc;

/// What kind of preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier (or keyword).
    Ident,
    /// A preprocessing number (C99 6.4.8).
    Number,
    /// A character constant, quotes included.
    Char,
    /// A string literal, quotes included.
    Str,
    /// A punctuator (`#` and `##` included).
    Punct,
    /// Any other character (a stray one, or an unterminated literal to the end of its line).
    Other,
    /// The empty token of C99 6.10.3.3 (an empty argument next to `##`); never output.
    Placemarker,
}

/// One token found by [`scan`]: its kind, byte range in the line, and whether whitespace
/// precedes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// The kind.
    pub kind: Kind,
    /// Offset of its first byte in the scanned text.
    pub start: usize,
    /// Offset one past its last byte.
    pub end: usize,
    /// Whitespace comes before it.
    pub ws: bool,
}

/// Punctuators, longest first (C99 6.4.6, digraphs aside).
const PUNCTS: &[&str] = &[
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", "&", "*",
    "+", "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#",
];

/// Length of the punctuator at the start of `b`, if one is there (the longest).
fn punct_len(b: &[u8]) -> Option<usize> {
    let first = *b.first()?;
    if !b"[](){}.&*+-~!/%<>^|?:;=,#".contains(&first) {
        return None;
    }
    // Candidates start with the same byte; PUNCTS lists the longest first.
    PUNCTS
        .iter()
        .find(|p| p.as_bytes()[0] == first && b.starts_with(p.as_bytes()))
        .map(|p| p.len())
}

/// Calls `f` on every identifier of `line` (not those inside pp-numbers and literals) until
/// it returns true; returns whether one did. The fast path of text lines: cheaper than
/// [`scan`].
pub fn any_identifier(line: &str, mut f: impl FnMut(&str) -> bool) -> bool {
    let b = line.as_bytes();
    let n = b.len();
    let mut i = 0;
    while i < n {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            i += 1;
            while i < n && is_ident(b[i]) {
                i += 1;
            }
            if f(&line[start..i]) {
                return true;
            }
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < n && b[i + 1].is_ascii_digit()) {
            i = pp_number_end(b, i);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < n {
                if b[i] == b'\\' {
                    i += 2;
                } else if b[i] == c {
                    i += 1;
                    break;
                } else {
                    i += 1;
                }
            }
        } else {
            i += 1;
        }
    }
    false
}

/// True for bytes that continue an identifier.
fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Split `line` (no newline inside) into preprocessing tokens.
pub fn scan(line: &str) -> Vec<Scanned> {
    let mut out = Vec::new();
    scan_into(line, &mut out);
    out
}

/// [`scan`] into `out` (cleared first).
pub fn scan_into(line: &str, out: &mut Vec<Scanned>) {
    out.clear();
    let b = line.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut ws = false;
    while i < n {
        let c = b[i];
        if matches!(c, b' ' | b'\t' | b'\r' | b'\x0B' | b'\x0C' | b'\n') {
            ws = true;
            i += 1;
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            i += 1;
            while i < n && is_ident(b[i]) {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < n && b[i + 1].is_ascii_digit()) {
            i = pp_number_end(b, i);
            Kind::Number
        } else if c == b'"' || c == b'\'' {
            i += 1;
            let mut closed = false;
            while i < n {
                if b[i] == b'\\' {
                    i += 2;
                } else if b[i] == c {
                    i += 1;
                    closed = true;
                    break;
                } else {
                    i += 1;
                }
            }
            i = i.min(n);
            match (closed, c) {
                (true, b'"') => Kind::Str,
                (true, _) => Kind::Char,
                _ => Kind::Other,
            }
        } else if let Some(len) = punct_len(&b[i..]) {
            i += len;
            Kind::Punct
        } else {
            // Any other character, whole (UTF-8).
            i += line[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Other
        };
        out.push(Scanned {
            kind,
            start,
            end: i,
            ws,
        });
        ws = false;
    }
}

/// A hide set (Prosser's algorithm): the names of the macros a token came out of, which it
/// may not expand again (C99 6.10.3.4p2). Sorted name ids, shared: all the tokens of one
/// replacement usually have the same set, so copying a token copies a pointer.
#[derive(Clone, Debug, Default)]
pub struct HideSet(Option<Rc<[u32]>>);

impl HideSet {
    /// The empty set.
    pub fn new() -> HideSet {
        HideSet(None)
    }

    /// The ids, sorted.
    fn ids(&self) -> &[u32] {
        self.0.as_deref().unwrap_or(&[])
    }

    /// True if `id` is in the set.
    pub fn contains(&self, id: u32) -> bool {
        self.ids().binary_search(&id).is_ok()
    }

    /// The set of sorted `ids`.
    fn of(ids: Vec<u32>) -> HideSet {
        if ids.is_empty() {
            HideSet(None)
        } else {
            HideSet(Some(ids.into()))
        }
    }

    /// `self ∪ {id}`.
    pub fn with(&self, id: u32) -> HideSet {
        if self.contains(id) {
            return self.clone();
        }
        let mut ids = self.ids().to_vec();
        let at = ids.partition_point(|&x| x < id);
        ids.insert(at, id);
        HideSet::of(ids)
    }

    /// `self ∩ other`.
    pub fn intersect(&self, other: &HideSet) -> HideSet {
        if self.same(other) {
            return self.clone();
        }
        HideSet::of(
            self.ids()
                .iter()
                .copied()
                .filter(|&x| other.contains(x))
                .collect(),
        )
    }

    /// `self ∪ other`.
    pub fn union(&self, other: &HideSet) -> HideSet {
        if self.0.is_none() || self.same(other) {
            return other.clone();
        }
        if other.0.is_none() {
            return self.clone();
        }
        let (a, b) = (self.ids(), other.ids());
        let mut ids = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let next = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if x == y => {
                    i += 1;
                    j += 1;
                    x
                }
                (Some(&x), Some(&y)) if x < y => {
                    i += 1;
                    x
                }
                (Some(&x), None) => {
                    i += 1;
                    x
                }
                (_, Some(&y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            ids.push(next);
        }
        HideSet::of(ids)
    }

    /// True if both are the same shared set (or both empty).
    fn same(&self, other: &HideSet) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Where a token was spelled: file, offset in its clean text, and the macro expansion it
/// came out of ([`NO_EXPANSION`] for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// Index of the file in the source map.
    pub file: u32,
    /// Offset in the file's clean text.
    pub clean: u32,
    /// The expansion the token belongs to, or [`NO_EXPANSION`].
    pub exp: u32,
}

/// [`At::exp`] of a token written in the source.
pub const NO_EXPANSION: u32 = u32::MAX;

/// A preprocessing token being expanded.
#[derive(Clone, Debug)]
pub struct Tok {
    /// Its kind.
    pub kind: Kind,
    /// Its spelling.
    pub text: Rc<str>,
    /// Whitespace precedes it.
    pub ws: bool,
    /// It starts a new source line (output on a new line).
    pub nl: bool,
    /// A `##` of a replacement list (an operator, unlike a `##` from an argument).
    pub paste: bool,
    /// The macros it may not expand again.
    pub hs: HideSet,
    /// Where it was spelled.
    pub at: At,
}

impl Tok {
    /// True if the token is the punctuator `p`.
    pub fn is(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }
}

/// The tokens of `line` (clean text starting at clean offset `base` of `file`).
pub fn toks(line: &str, file: u32, base: u32) -> Vec<Tok> {
    scan(line)
        .into_iter()
        .map(|s| Tok {
            kind: s.kind,
            text: line[s.start..s.end].into(),
            ws: s.ws,
            nl: false,
            paste: false,
            hs: HideSet::new(),
            at: At {
                file,
                clean: base + s.start as u32,
                exp: NO_EXPANSION,
            },
        })
        .collect()
}

/// The end of the pp-number starting at `start` (C99 6.4.8: digits, letters, `_`, `.`, and a
/// sign right after `e`, `E`, `p` or `P`).
fn pp_number_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < b.len() {
        let d = b[i];
        let sign = matches!(d, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
        if sign || is_ident(d) || d == b'.' {
            i += 1;
        } else {
            break;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(line: &str) -> Vec<(&str, Kind, bool)> {
        scan(line)
            .into_iter()
            .map(|s| (&line[s.start..s.end], s.kind, s.ws))
            .collect()
    }

    #[test]
    fn kinds_and_spacing() {
        use Kind::*;
        assert_eq!(
            spell("a1 1.e+5x .5 'c' \"s\\\"\" ##>>= @ \"open"),
            vec![
                ("a1", Ident, false),
                ("1.e+5x", Number, true),
                (".5", Number, true),
                ("'c'", Char, true),
                ("\"s\\\"\"", Str, true),
                ("##", Punct, true),
                (">>=", Punct, false),
                ("@", Other, true),
                ("\"open", Other, true),
            ]
        );
    }

    #[test]
    fn identifiers_outside_numbers_and_literals() {
        let mut seen = Vec::new();
        let line = "a1 1e+5x .5f 'c' \"s t\" _u+v";
        assert!(!any_identifier(line, |w| {
            seen.push(w.to_string());
            false
        }));
        assert_eq!(seen, ["a1", "_u", "v"]);
        assert!(any_identifier(line, |w| w == "_u"));
    }
}
