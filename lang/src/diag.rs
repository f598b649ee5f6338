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

use std::sync::Arc;

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
    /// The file the span is in: an index into [`Diagnostics::files`] once the diagnostics
    /// have been mapped back to the original sources (0, the main file, before).
    pub file: u32,
    /// Other places the diagnostic refers to (a previous definition in another file), each
    /// shown as its own `file:line:col: note: ...` line. Their files are indices into
    /// [`Diagnostics::files`] and their spans are in the original texts (they are not
    /// remapped).
    pub related: Vec<Related>,
}

/// A place a [`Diagnostic`] refers to besides its own, e.g. where a name was first defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// The file: an index into [`Diagnostics::files`].
    pub file: u32,
    /// The range in the file's original text.
    pub span: Span,
    /// What is there (`previous definition is here`).
    pub message: String,
}

impl Diagnostic {
    /// An error at `span` with `message`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span,
            message: message.into(),
            label: None,
            notes: Vec::new(),
            file: 0,
            related: Vec::new(),
        }
    }

    /// Add a related place (see [`Diagnostic::related`]).
    pub fn with_related(mut self, file: u32, span: Span, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            file,
            span,
            message: message.into(),
        });
        self
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

/// A source file that diagnostics may point into: its name and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    /// The name shown in `file:line:col`.
    pub name: String,
    /// The original text of the file.
    pub text: Arc<str>,
}

/// A list of errors, in the order they were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    /// The files the diagnostics' [`Diagnostic::file`] indices name (set by the preprocessor's
    /// source map); when empty, every span is in the text passed to [`Diagnostics::render`].
    files: Vec<SourceText>,
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
        if self.files.is_empty() {
            self.files = other.files;
        }
        self.list.extend(other.list);
    }

    /// Say which files the diagnostics' [`Diagnostic::file`] indices name; [`Diagnostics::render`]
    /// then shows each diagnostic in its own file.
    pub fn set_files(&mut self, files: Vec<SourceText>) {
        self.files = files;
    }

    /// The files set by [`Diagnostics::set_files`].
    pub fn files(&self) -> &[SourceText] {
        &self.files
    }

    /// True if there is no diagnostic.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Drop the diagnostics after the first `len` (to undo a tentative check).
    pub fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    /// The number of diagnostics.
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
        self.list
            .sort_by_key(|d| (d.file, d.span.start, d.span.end));
        self.list.dedup();
    }

    /// One line per diagnostic, `line:col: message` (compact form for tests and logs).
    /// Positions in files other than the main one are prefixed with the file's name.
    pub fn summary(&self, source: &str) -> String {
        let mut out = String::new();
        for d in &self.list {
            let (name, text) = self.file_of(d, "", source);
            let at = LineIndex::new(text).line_col(d.span.start);
            if d.file == 0 {
                out.push_str(&format!("{at}: {}\n", d.message));
            } else {
                out.push_str(&format!("{name}:{at}: {}\n", d.message));
            }
            for r in &d.related {
                if let Some(f) = self.files.get(r.file as usize) {
                    let at = LineIndex::new(&f.text).line_col(r.span.start);
                    out.push_str(&format!("{}:{at}: note: {}\n", f.name, r.message));
                }
            }
        }
        out
    }

    /// The name and text of the file `d` points into (`file_name`/`source` if no files are set).
    fn file_of<'a>(
        &'a self,
        d: &Diagnostic,
        file_name: &'a str,
        source: &'a str,
    ) -> (&'a str, &'a str) {
        match self.files.get(d.file as usize) {
            Some(f) => (&f.name, &f.text),
            None => (file_name, source),
        }
    }

    /// Render every diagnostic as `file:line:col: error: message`, followed by the source line
    /// with a caret under the error and the label (what was expected) and notes.
    /// Once the preprocessor's source map has set the files ([`Diagnostics::set_files`]), each
    /// diagnostic is shown in its own file and `file_name`/`source` are not used.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let config = Config::default();
        let mut out = String::new();
        for d in &self.list {
            let (file_name, source) = self.file_of(d, file_name, source);
            let index = LineIndex::new(source);
            let file = SimpleFile::new(file_name, source);
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
            for r in &d.related {
                self.render_related(r, &mut out);
            }
        }
        out
    }

    /// Render a related place: `file:line:col: note: message` and the source line.
    fn render_related(&self, r: &Related, out: &mut String) {
        let Some(f) = self.files.get(r.file as usize) else {
            return;
        };
        let index = LineIndex::new(&f.text);
        let file = SimpleFile::new(&f.name, &f.text);
        let span = clamp_to_chars(&f.text, r.span);
        let pos = index.line_col(span.start);
        out.push_str(&format!("{}:{pos}: note: {}\n", f.name, r.message));
        let cs = CsDiagnostic::note().with_labels(vec![Label::primary((), span.range())]);
        match term::emit_into_string(&Config::default(), &file, &cs) {
            Ok(text) => out.push_str(text.split_once('\n').map_or("", |(_, rest)| rest)),
            Err(_) => out.push('\n'),
        }
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
        Diagnostics {
            list: vec![d],
            files: Vec::new(),
        }
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
