//! Translation phases 1 to 3 as far as positions are concerned (C99 5.1.1.2): line splicing
//! (a backslash followed by a newline is deleted) and comments (each replaced by one space).
//!
//! The result is the *clean* text the directives and pp-tokens are read from, and a table to
//! map each clean offset back to the original one, so every diagnostic and every output token
//! still points at the original `line:col`. Trigraphs are not replaced (the lexer rejects them).

use crate::diag::Diagnostic;
use crate::span::Span;

/// A file's text after splicing and comment removal, with the map back to the original.
#[derive(Clone, Debug)]
pub struct Clean {
    /// The clean text (lines end at `\n`; a final `\n` is added if missing).
    pub text: String,
    /// Points `(clean, orig)` from which clean offsets map linearly to original ones, sorted
    /// by `clean`; the first is `(0, 0)`.
    deltas: Vec<(u32, u32)>,
}

impl Clean {
    /// The original offset of clean offset `at`.
    pub fn orig(&self, at: u32) -> u32 {
        let i = match self.deltas.binary_search_by_key(&at, |&(c, _)| c) {
            Ok(i) => {
                // Several points at one clean offset (a removed splice right before a comment):
                // the last one holds.
                let mut i = i;
                while i + 1 < self.deltas.len() && self.deltas[i + 1].0 == at {
                    i += 1;
                }
                i
            }
            Err(i) => i - 1,
        };
        let (c, o) = self.deltas[i];
        o + (at - c)
    }
}

/// Splice lines and replace comments in `source`. An unterminated block comment is an error
/// (its span in the original text); the text up to it is kept.
pub fn clean(source: &str) -> (Clean, Option<Diagnostic>) {
    let bytes = source.as_bytes();
    // Fast path: nothing to splice or remove.
    let mut out = Clean {
        text: String::with_capacity(source.len() + 1),
        deltas: vec![(0, 0)],
    };
    let needs_work = memchr_any(bytes);
    if !needs_work {
        out.text.push_str(source);
        if !source.is_empty() && !source.ends_with('\n') {
            out.text.push('\n');
        }
        return (out, None);
    }
    let mut text: Vec<u8> = Vec::with_capacity(bytes.len() + 1);
    let mut i = 0;
    let mut error = None;
    // Inside a string or character literal (comments are not recognized there).
    let mut quote: Option<u8> = None;
    let n = bytes.len();
    // Length of a splice (backslash, optional carriage return, newline) at `j`, or 0.
    let splice_at = |j: usize| -> usize {
        if bytes[j] != b'\\' {
            return 0;
        }
        match (bytes.get(j + 1), bytes.get(j + 2)) {
            (Some(b'\n'), _) => 2,
            (Some(b'\r'), Some(b'\n')) => 3,
            _ => 0,
        }
    };
    let mark = |deltas: &mut Vec<(u32, u32)>, clean: usize, orig: usize| {
        deltas.push((clean as u32, orig as u32));
    };
    // Next byte at or after `j` skipping splices: (byte, its index).
    let next = |mut j: usize| -> Option<(u8, usize)> {
        while j < n {
            let s = splice_at(j);
            if s == 0 {
                return Some((bytes[j], j));
            }
            j += s;
        }
        None
    };
    while i < n {
        let s = splice_at(i);
        if s > 0 {
            i += s;
            mark(&mut out.deltas, text.len(), i);
            continue;
        }
        let b = bytes[i];
        if let Some(q) = quote {
            text.push(b);
            if b == b'\\' {
                if let Some((c, j)) = next(i + 1) {
                    if j != i + 1 {
                        mark(&mut out.deltas, text.len(), j);
                    }
                    text.push(c);
                    i = j + 1;
                    continue;
                }
            } else if b == q || b == b'\n' {
                quote = None;
            }
            i += 1;
            continue;
        }
        match b {
            b'"' | b'\'' => {
                // In `#include <a'b>` a quote is not a literal, but a header name containing
                // a quote is undefined behaviour anyway.
                quote = Some(b);
                text.push(b);
                i += 1;
            }
            b'/' => match next(i + 1) {
                Some((b'/', j)) => {
                    // A line comment: up to the newline (a splice continues it).
                    let start = i;
                    let mut k = j + 1;
                    while k < n {
                        let s = splice_at(k);
                        if s > 0 {
                            k += s;
                        } else if bytes[k] == b'\n' {
                            break;
                        } else {
                            k += 1;
                        }
                    }
                    mark(&mut out.deltas, text.len(), start);
                    text.push(b' ');
                    mark(&mut out.deltas, text.len(), k);
                    i = k;
                }
                Some((b'*', j)) => {
                    let start = i;
                    let mut k = j + 1;
                    let mut closed = false;
                    while let Some((c, at)) = next(k) {
                        if c == b'*' {
                            if let Some((b'/', at2)) = next(at + 1) {
                                k = at2 + 1;
                                closed = true;
                                break;
                            }
                        }
                        k = at + 1;
                    }
                    if !closed {
                        error = Some(
                            Diagnostic::error(Span::new(start, start + 2), "unterminated comment")
                                .with_label("expected `*/` to close this"),
                        );
                        break;
                    }
                    mark(&mut out.deltas, text.len(), start);
                    text.push(b' ');
                    mark(&mut out.deltas, text.len(), k);
                    i = k;
                }
                _ => {
                    text.push(b);
                    i += 1;
                }
            },
            _ => {
                text.push(b);
                i += 1;
            }
        }
    }
    if !text.is_empty() && text.last() != Some(&b'\n') {
        text.push(b'\n');
    }
    // Only whole characters are copied or replaced by ASCII spaces: still UTF-8.
    out.text = String::from_utf8(text)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (out, error)
}

/// True if `bytes` may hold something to clean: a backslash before a line end, or a `/`
/// followed by `/` or `*` (maybe inside a literal: the slow path knows).
fn memchr_any(bytes: &[u8]) -> bool {
    bytes
        .windows(2)
        .any(|w| matches!(w, [b'\\', b'\n' | b'\r'] | [b'/', b'/' | b'*']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_and_comments_map_back() {
        let src = "ab\\\ncd /* x\ny */ e // z\nf";
        let (c, err) = clean(src);
        assert!(err.is_none());
        assert_eq!(c.text, "abcd   e  \nf\n");
        let orig = |s: &str| c.orig(c.text.find(s).unwrap() as u32) as usize;
        assert_eq!(orig("cd"), src.find("cd").unwrap());
        assert_eq!(orig("e"), src.find(" e").unwrap() + 1);
        assert_eq!(orig("f"), src.find('f').unwrap());
        assert_eq!(c.orig(0), 0);
    }

    #[test]
    fn escapes_alone_take_the_fast_path() {
        let (c, _) = clean("\"a\\n\" '\\''\n");
        assert_eq!(c.text, "\"a\\n\" '\\''\n");
        assert_eq!(c.deltas.len(), 1);
    }

    #[test]
    fn comments_in_literals_and_unterminated() {
        let (c, _) = clean("\"/* no */\" '/' // x\n");
        assert_eq!(c.text, "\"/* no */\" '/'  \n");
        let (_, err) = clean("a /* b");
        assert_eq!(err.map(|d| d.span), Some(Span::new(2, 4)));
    }
}
