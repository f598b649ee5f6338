//! The source map: from a byte offset of the preprocessed text back to the original file,
//! line and column, and the chain of macro expansions it came out of.
//!
//! The preprocessor writes its output in *segments*: a run of bytes copied from one place of
//! one file (a whole unchanged line, or one token of a macro expansion). Offsets inside a
//! segment map linearly to the file's clean text ([`super::phases::Clean`]), which maps back to
//! the original text. Consecutive segments that continue each other are merged, so a file
//! without macros costs one segment per directive. Diagnostics of the later phases (lexer,
//! parser, checker) are mapped with [`SourceMap::remap`]; the bytecode's `line:col` comes
//! from [`SourceMap::main_line_col`].

use std::sync::Arc;

use super::phases::Clean;
use super::tokens::{At, NO_EXPANSION};
use crate::diag::{Diagnostic, Diagnostics, SourceText};
use crate::span::{LineCol, LineIndex, Span};

/// One file read by the preprocessor.
#[derive(Clone, Debug)]
pub struct MappedFile {
    /// Its name as shown in diagnostics (the main file's as given, others' as found).
    pub name: String,
    /// Its original text.
    pub text: Arc<str>,
    /// Its text after line splicing and comment removal, with the map back.
    pub clean: Clean,
    /// Line starts of the original text.
    pub lines: LineIndex,
    /// Where it was included from (file and clean offset of the `#include`), `None` for the
    /// main file.
    pub included_at: Option<(u32, u32)>,
}

/// One expansion of a macro.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// The macro's name.
    pub name: Arc<str>,
    /// Where the macro name was (its own expansion, if it came out of another macro).
    pub at: At,
}

/// A run of output bytes copied from one place.
#[derive(Clone, Copy, Debug)]
struct Segment {
    /// First output offset.
    out: u32,
    /// Where that byte came from.
    at: At,
}

/// From preprocessed text back to the sources. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Every file read, the main file first.
    pub(crate) files: Vec<MappedFile>,
    /// Every macro expansion, indexed by [`At::exp`].
    pub(crate) expansions: Vec<Expansion>,
    /// Segments sorted by output offset.
    segments: Vec<Segment>,
    /// Length of the output.
    out_len: u32,
}

impl SourceMap {
    /// Start a segment at output offset `out` copied from `at` (merged with the previous one
    /// if it continues it).
    pub(crate) fn segment(&mut self, out: usize, at: At) {
        let out = out as u32;
        if let Some(last) = self.segments.last_mut() {
            if last.at.file == at.file
                && last.at.exp == at.exp
                && at.clean >= last.at.clean
                && at.clean - last.at.clean == out - last.out
            {
                return;
            }
            if last.out == out {
                last.at = at;
                return;
            }
        }
        self.segments.push(Segment { out, at });
    }

    /// Record the output's final length.
    pub(crate) fn finish(&mut self, out_len: usize) {
        self.out_len = out_len as u32;
    }

    /// The name of the main file (the one preprocessed; `""` for an empty map).
    pub fn main_file_name(&self) -> &str {
        self.files.first().map_or("", |f| f.name.as_str())
    }

    /// The files read (the main file first), for diagnostics that point into them.
    pub fn source_texts(&self) -> Vec<SourceText> {
        self.texts()
    }

    /// Length of the preprocessed text.
    pub fn output_len(&self) -> usize {
        self.out_len as usize
    }

    /// Where output offset `offset` came from.
    fn at(&self, offset: u32) -> Option<At> {
        let i = match self.segments.binary_search_by_key(&offset, |s| s.out) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let s = self.segments[i];
        let file = self.files.get(s.at.file as usize)?;
        let clean = (s.at.clean + (offset - s.out)).min(file.clean.text.len() as u32);
        Some(At { clean, ..s.at })
    }

    /// The original offset of a spelling place.
    fn orig(&self, at: At) -> u32 {
        self.files[at.file as usize].clean.orig(at.clean)
    }

    /// `file:line:col` of a spelling place (just `line:col` in the main file).
    pub(crate) fn describe_at(&self, at: At) -> String {
        let f = &self.files[at.file as usize];
        let lc = f.lines.line_col(self.orig(at));
        if at.file == 0 {
            lc.to_string()
        } else {
            format!("{}:{lc}", f.name)
        }
    }

    /// Whether output offset `offset` was spelled in one of the front end's standard headers
    /// (`<stdio.h>`, ...), not in a file of the program: a token out of a macro expansion
    /// counts where the macro was invoked.
    pub fn in_standard_header(&self, offset: u32) -> bool {
        let Some(mut at) = self.at(offset) else {
            return false;
        };
        while let Some(e) = self.expansions.get(at.exp as usize) {
            at = e.at;
        }
        self.files
            .get(at.file as usize)
            .is_some_and(|f| f.name.starts_with('<') && f.included_at.is_some())
    }

    /// `line:col` (or `file:line:col` outside the main file) of output offset `offset`, for
    /// notes such as "previously declared at 3:5".
    /// A place inside a macro expansion also names the expansion.
    pub fn describe(&self, offset: u32) -> String {
        let Some(at) = self.at(offset) else {
            return "?".into();
        };
        let place = self.describe_at(at);
        match self.expansions.get(at.exp as usize) {
            Some(e) => format!(
                "{place} (in expansion of macro `{}` at {})",
                e.name,
                self.describe_at(e.at)
            ),
            None => place,
        }
    }

    /// The line and column in the *main file* of output offset `offset`: of the outermost
    /// macro invocation for a token out of a macro, of the `#include` line for a token of an
    /// included file. (The bytecode's locations have no file yet.)
    pub fn main_line_col(&self, offset: u32) -> LineCol {
        let Some(mut at) = self.at(offset) else {
            return LineCol { line: 1, col: 1 };
        };
        while at.exp != NO_EXPANSION {
            at = self.expansions[at.exp as usize].at;
        }
        while at.file != 0 {
            match self.files[at.file as usize].included_at {
                Some((file, clean)) => {
                    at = At {
                        file,
                        clean,
                        exp: NO_EXPANSION,
                    }
                }
                None => break,
            }
        }
        let f = &self.files[at.file as usize];
        f.lines.line_col(self.orig(at))
    }

    /// The files, for [`Diagnostics::set_files`].
    pub(crate) fn texts(&self) -> Vec<SourceText> {
        self.files
            .iter()
            .map(|f| SourceText {
                name: f.name.clone(),
                text: f.text.clone(),
            })
            .collect()
    }

    /// The notes telling how a place was reached: the macro expansions, innermost first, then
    /// the `#include` lines.
    pub(crate) fn notes(&self, at: At) -> Vec<String> {
        let mut notes = Vec::new();
        let mut exp = at.exp;
        let mut file = at.file;
        let mut guard = 0;
        while exp != NO_EXPANSION && guard < 1000 {
            let e = &self.expansions[exp as usize];
            notes.push(format!(
                "in expansion of macro `{}` at {}",
                e.name,
                self.describe_full(e.at)
            ));
            exp = e.at.exp;
            file = e.at.file;
            guard += 1;
        }
        let mut chain = Vec::new();
        while let Some((from, clean)) = self.files[file as usize].included_at {
            chain.push(At {
                file: from,
                clean,
                exp: NO_EXPANSION,
            });
            file = from;
        }
        // A deep chain (an include cycle) shows its innermost and outermost levels.
        let shown = |at: &At| format!("in file included from {}", self.describe_full(*at));
        if chain.len() > 6 {
            notes.extend(chain[..3].iter().map(shown));
            notes.push(format!(
                "... {} more levels of `#include` ...",
                chain.len() - 5
            ));
            notes.extend(chain[chain.len() - 2..].iter().map(shown));
        } else {
            notes.extend(chain.iter().map(shown));
        }
        notes
    }

    /// `file:line:col` of a spelling place.
    pub(crate) fn describe_full(&self, at: At) -> String {
        let f = &self.files[at.file as usize];
        format!("{}:{}", f.name, f.lines.line_col(self.orig(at)))
    }

    /// A diagnostic about the original file at `at` (span length `len` in the clean text).
    pub(crate) fn diagnostic_at(&self, at: At, len: u32, message: impl Into<String>) -> Diagnostic {
        let f = &self.files[at.file as usize];
        let start = self.orig(at);
        let end = f.clean.orig(at.clean + len).max(start);
        let mut d = Diagnostic::error(Span::new(start as usize, end as usize), message);
        d.file = at.file;
        d
    }

    /// Map diagnostics about the preprocessed text back to the original files, adding the
    /// notes of the macro expansions and includes they are in.
    pub fn remap(&self, diags: Diagnostics) -> Diagnostics {
        let mut out = Diagnostics::new();
        for mut d in diags {
            if let Some((at, span)) = self.original_span(d.span) {
                d.span = span;
                d.file = at.file;
                d.notes.extend(self.notes(at));
            }
            out.push(d);
        }
        out.set_files(self.texts());
        out
    }

    /// Where `span` of the preprocessed text starts, and the span in that file's original
    /// text (ending in the same file, else one byte long).
    fn original_span(&self, span: Span) -> Option<(At, Span)> {
        let at = self.at(span.start)?;
        let start = self.orig(at);
        let end = match self.at(span.end.saturating_sub(1).max(span.start)) {
            Some(e) if e.file == at.file && span.end > span.start => (self.orig(e) + 1).max(start),
            _ => start + u32::from(span.end > span.start),
        };
        Some((at, Span::new(start as usize, end as usize)))
    }

    /// Where a span of the preprocessed text is in the original files: the file (an index
    /// into this map's files, as [`Diagnostic::file`]), the span in that file's original text,
    /// and `file:line:col` of its start (always with the file's name). For diagnostics that
    /// point into another translation unit.
    pub fn place(&self, span: Span) -> (u32, Span, String) {
        match self.original_span(span) {
            Some((at, original)) => (at.file, original, self.describe_full(at)),
            None => (0, span, "?".to_string()),
        }
    }

    /// Set the files of diagnostics made by the preprocessor itself (already in original
    /// positions).
    pub(crate) fn attach(&self, mut diags: Diagnostics) -> Diagnostics {
        diags.set_files(self.texts());
        diags
    }
}
