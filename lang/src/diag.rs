//! Diagnostics: collected by every phase, never thrown, rendered in one place.
//!
//! Each phase (lexer, parser, checker) pushes [`Diagnostic`]s into a [`Diagnostics`] list and
//! keeps going, so one run reports as many independent errors as it can find. Rendering uses
//! codespan-reporting and looks like gcc's:
//!
//! ```text
//! prog.c:3:12: error: expected `;`, found `}`
//!   ┌─ prog.c:3:12
//!   │
//! 3 │     x = x + 1
//!   │            ^ expected `;`
//! ```

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

use crate::span::{LineIndex, Span};

/// One error with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where the error is (the caret points at its start).
    pub span: Span,
    /// One-line description of what is wrong.
    pub message: String,
    /// A short text printed under the caret, typically what was expected.
    pub label: Option<String>,
    /// Further lines of explanation (e.g. where a previous declaration is).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span` with `message`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span,
            message: message.into(),
            label: None,
            notes: Vec::new(),
        }
    }

    /// Set the text shown under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    /// Add a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
}

/// A list of errors, in the order they were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// Append one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.list.push(diagnostic);
    }

    /// Append an error at `span` with `message`.
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::error(span, message));
    }

    /// Append all diagnostics of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }

    /// True if there is no diagnostic.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The diagnostics in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    /// Sort by position (stable: errors at the same place keep their order) and drop exact
    /// duplicates.
    pub fn sort(&mut self) {
        self.list.sort_by_key(|d| (d.span.start, d.span.end));
        self.list.dedup();
    }

    /// One line per diagnostic, `line:col: message` (compact form for tests and logs).
    pub fn summary(&self, source: &str) -> String {
        let index = LineIndex::new(source);
        let mut out = String::new();
        for d in &self.list {
            out.push_str(&format!(
                "{}: {}\n",
                index.line_col(d.span.start),
                d.message
            ));
        }
        out
    }

    /// Render every diagnostic as `file:line:col: error: message`, followed by the source line
    /// with a caret under the error and the label (what was expected) and notes.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let index = LineIndex::new(source);
        let file = SimpleFile::new(file_name, source);
        let config = Config::default();
        let mut out = String::new();
        for d in &self.list {
            let span = clamp_to_chars(source, d.span);
            let pos = index.line_col(span.start);
            out.push_str(&format!("{file_name}:{pos}: error: {}\n", d.message));
            let label =
                Label::primary((), span.range()).with_message(d.label.clone().unwrap_or_default());
            // The header line above replaces codespan's own "error: ..." line, so the
            // diagnostic passed to it has no message; only its snippet part is kept.
            let cs = CsDiagnostic::error()
                .with_labels(vec![label])
                .with_notes(d.notes.clone());
            match term::emit_into_string(&config, &file, &cs) {
                Ok(text) => {
                    let snippet = text.split_once('\n').map_or("", |(_, rest)| rest);
                    out.push_str(snippet);
                }
                Err(_) => out.push('\n'),
            }
        }
        out
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics { list: vec![d] }
    }
}

/// Shrink/move `span` so it lies within `source` and on character boundaries (codespan slices
/// the source with it).
fn clamp_to_chars(source: &str, span: Span) -> Span {
    let fix = |mut i: usize| {
        i = i.min(source.len());
        while !source.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(span.start as usize);
    let end = fix(span.end as usize).max(start);
    Span::new(start, end)
}
