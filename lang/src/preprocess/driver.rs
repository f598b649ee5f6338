//! The driver: reads files line by line, runs directives (C99 6.10.1 to 6.10.9), keeps the
//! conditional stack and the include stack, and writes text lines (expanded if they use a
//! macro) to the output with their source map segments.
//!
//! The include stack is a `Vec` of [`Frame`]s, not recursion, so 200 nested includes need no
//! deep native stack.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use super::expr;
use super::headers;
use super::macros::{parse_define, Builtin, Macro};
use super::phases;
use super::source_map::{MappedFile, SourceMap};
use super::tokens::{any_identifier, scan, toks, At, Kind, Tok, NO_EXPANSION};
use super::{PreprocessOptions, Preprocessed};
use crate::check::library::HEADERS;
use crate::diag::Diagnostic;
use crate::diag::Diagnostics;
use crate::lexer::Include;
use crate::span::{LineIndex, Span};

/// The macros gcc 12 predefines with `-std=gnu99` on x86-64 Linux (`gcc -std=gnu99 -dM -E -
/// </dev/null`), for what the VM supports: the target (`__x86_64__`, `__linux__`, `__LP64__`),
/// the sizes, limits and types of the integer types, `float`'s and `double`'s characteristics.
/// Left out: `__GNUC__` and the other macros that announce GNU C or gcc itself (the VM is not
/// gcc), the types it does not have (`__int128`, `_Float16/32/64/128`, `_Decimal`, vectors:
/// `__SSE__`, `__MMX__`), atomics, the code model and position independence, and
/// `linux`/`unix`, which gnu99 defines in the user's namespace. `__DBL_MAX__` and its kin are
/// written without gcc's `L` suffix: each is a double printed to 36 digits, which rounds to the
/// same double directly. The file holds directives only: a comment would put text of the
/// command-line pseudo file into the output, before the main file's.
const PREDEFINED: &str = include_str!("predefined.h");

/// Deepest `#include` nesting (gcc's limit).
pub const MAX_INCLUDE_DEPTH: usize = 200;

/// Largest preprocessed output, in bytes.
pub const MAX_OUTPUT: usize = 64 << 20;

/// One file being read.
#[derive(Debug)]
pub struct Frame {
    /// Its index in the source map.
    pub file: u32,
    /// Its clean text.
    text: Rc<str>,
    /// Offset of the next line to read.
    pos: usize,
    /// Its directory (for `#include "..."`).
    dir: PathBuf,
    /// Height of the conditional stack when the file was entered.
    conds_base: usize,
    /// `#line`'s correction: presumed line minus physical line.
    line_delta: i64,
    /// The presumed file name (`__FILE__`, changed by `#line`).
    presumed: Rc<str>,
    /// The file's canonical path, if it is on disk (for `#pragma once` and cycles).
    path: Option<PathBuf>,
}

impl Frame {
    /// The tokens of the next line if it is a text line (for macro arguments spanning lines);
    /// `None` at the end of the file or before a directive.
    pub fn next_text_line(&mut self) -> Option<Vec<Tok>> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let end = rest.find('\n').unwrap_or(rest.len());
        let line = &rest[..end];
        if is_directive(line) {
            return None;
        }
        let base = self.pos as u32;
        let mut t = toks(line, self.file, base);
        self.pos += end + 1;
        if let Some(first) = t.first_mut() {
            first.nl = true;
        }
        Some(t)
    }
}

/// One open `#if` group.
#[derive(Clone, Copy, Debug)]
struct Cond {
    /// Lines of the current group are kept.
    active: bool,
    /// A group of this `#if` was (or is being) kept.
    taken: bool,
    /// The enclosing group is kept.
    parent_active: bool,
    /// `#else` was seen.
    else_seen: bool,
    /// The directive's name token (for "unterminated").
    at: At,
    /// The directive that opened it.
    name: &'static str,
}

/// The preprocessor's state.
pub struct Pp<'o> {
    /// The options.
    options: &'o PreprocessOptions,
    /// The defined macros.
    pub(crate) macros: HashMap<Rc<str>, Rc<Macro>>,
    /// Macro names' ids for hide sets.
    pub(crate) names: HashMap<Rc<str>, u32>,
    /// Macro names shared by the source map's expansions.
    pub(crate) shared_names: HashMap<Box<str>, Arc<str>>,
    /// The source map being built.
    pub(crate) map: SourceMap,
    /// Start of the line being processed (for `__LINE__`).
    line_at: At,
    /// Its `#line` correction.
    line_delta: i64,
    /// The presumed name of the file being read (`__FILE__`).
    pub(crate) presumed: Rc<str>,
    /// Tokens made by expansions so far.
    pub(crate) budget: usize,
    /// Nesting of argument pre-expansion.
    pub(crate) depth: u32,
    /// The output text.
    out: String,
    /// The errors.
    diags: Diagnostics,
    /// The `#include <...>` of the library's headers.
    includes: Vec<Include>,
    /// The open conditionals.
    conds: Vec<Cond>,
    /// Files with `#pragma once`.
    once: HashSet<PathBuf>,
    /// Stop reading (a missing include, a too deep include, too much output).
    fatal: bool,
    /// The names that may be macros (or `_Pragma`), for the fast path.
    filter: NameFilter,
}

/// A filter on identifiers that can be macro names: a bit per (first byte, length) of every
/// name ever defined. Most identifiers of a line fail it, with no hashing.
#[derive(Clone, Debug)]
struct NameFilter {
    bits: Vec<u64>,
}

impl Default for NameFilter {
    fn default() -> NameFilter {
        NameFilter {
            bits: vec![0; 256 * 64 / 64],
        }
    }
}

impl NameFilter {
    /// The bit of a name.
    fn bit(name: &str) -> usize {
        let first = name.as_bytes().first().copied().unwrap_or(0) as usize;
        first * 64 + name.len().min(63)
    }

    /// Note that `name` may be a macro.
    fn add(&mut self, name: &str) {
        let b = NameFilter::bit(name);
        self.bits[b / 64] |= 1 << (b % 64);
    }

    /// False if `name` was never added.
    fn may_contain(&self, name: &str) -> bool {
        let b = NameFilter::bit(name);
        self.bits[b / 64] & (1 << (b % 64)) != 0
    }
}

/// The directory of a file name (empty for a bare name).
fn dir_of(name: &str) -> PathBuf {
    Path::new(name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

impl<'o> Pp<'o> {
    /// A preprocessor with the options.
    pub fn new(options: &'o PreprocessOptions) -> Pp<'o> {
        Pp {
            options,
            macros: HashMap::new(),
            names: HashMap::new(),
            shared_names: HashMap::new(),
            map: SourceMap::default(),
            line_at: At {
                file: 0,
                clean: 0,
                exp: NO_EXPANSION,
            },
            line_delta: 0,
            presumed: "".into(),
            budget: 0,
            depth: 0,
            out: String::new(),
            diags: Diagnostics::new(),
            includes: Vec::new(),
            conds: Vec::new(),
            once: HashSet::new(),
            fatal: false,
            filter: NameFilter::default(),
        }
    }

    /// Add a file to the source map and make its frame.
    fn open(
        &mut self,
        name: String,
        text: Arc<str>,
        included_at: Option<(u32, u32)>,
        path: Option<PathBuf>,
    ) -> Frame {
        let (clean, err) = phases::clean(&text);
        let lines = LineIndex::new(&text);
        self.open_clean(name, text, clean, err, lines, included_at, path)
    }

    /// [`Pp::open`] of a text already cleaned.
    #[allow(clippy::too_many_arguments)]
    fn open_clean(
        &mut self,
        name: String,
        text: Arc<str>,
        clean: phases::Clean,
        err: Option<Diagnostic>,
        lines: LineIndex,
        included_at: Option<(u32, u32)>,
        path: Option<PathBuf>,
    ) -> Frame {
        let file = self.map.files.len() as u32;
        if let Some(mut e) = err {
            e.file = file;
            self.diags.push(e);
        }
        let dir = dir_of(&name);
        let frame = Frame {
            file,
            text: clean.text.as_str().into(),
            pos: 0,
            dir,
            conds_base: self.conds.len(),
            line_delta: 0,
            presumed: name.as_str().into(),
            path,
        };
        self.map.files.push(MappedFile {
            lines,
            name,
            text,
            clean,
            included_at,
        });
        frame
    }

    /// The predefined macros ([`PREDEFINED`] after the standard's) and the `-D`/`-U` options,
    /// as the text of a pseudo file.
    fn command_line(&self) -> String {
        let mut s = String::from(
            "#define __STDC__ 1\n#define __STDC_VERSION__ 199901L\n#define __STDC_HOSTED__ 1\n",
        );
        s.push_str(PREDEFINED);
        // An option is one line, whatever it holds.
        let line = |t: &str| t.replace(['\n', '\r'], " ");
        for (name, value) in &self.options.defines {
            s.push_str(&format!(
                "#define {} {}\n",
                line(name),
                line(value.as_deref().unwrap_or("1"))
            ));
        }
        for name in &self.options.undefines {
            s.push_str(&format!("#undef {}\n", line(name)));
        }
        s
    }

    /// Preprocess `source` (the main file, named `file_name`).
    pub fn run(mut self, file_name: &str, source: &str) -> Result<Preprocessed, Diagnostics> {
        self.out.reserve(source.len() + source.len() / 8);
        let path = std::fs::canonicalize(file_name).ok();
        let main = self.open(file_name.to_string(), source.into(), None, path);
        let command_line = self.command_line();
        let cl = self.open("<command line>".into(), command_line.into(), None, None);
        let builtin_at = At {
            file: cl.file,
            clean: 0,
            exp: NO_EXPANSION,
        };
        self.filter.add("_Pragma");
        for (name, b) in [("__FILE__", Builtin::File), ("__LINE__", Builtin::Line)] {
            self.filter.add(name);
            self.macros.insert(
                name.into(),
                Rc::new(Macro {
                    params: None,
                    variadic: false,
                    body: Vec::new(),
                    at: builtin_at,
                    builtin: Some(b),
                }),
            );
        }
        let mut frames = vec![main, cl];
        while !frames.is_empty() && !self.fatal {
            let top = frames.len() - 1;
            let frame = &mut frames[top];
            if frame.pos >= frame.text.len() {
                let base = frame.conds_base;
                frames.pop();
                while self.conds.len() > base {
                    if let Some(c) = self.conds.pop() {
                        let d = self
                            .map
                            .diagnostic_at(
                                c.at,
                                c.name.len() as u32,
                                format!("unterminated `#{}`", c.name),
                            )
                            .with_label(format!("this `#{}` has no `#endif`", c.name));
                        self.diags.push(d);
                    }
                }
                continue;
            }
            let text = frame.text.clone();
            let start = frame.pos;
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            frame.pos = end + 1;
            let line = &text[start..end];
            self.line_at = At {
                file: frame.file,
                clean: start as u32,
                exp: NO_EXPANSION,
            };
            self.line_delta = frame.line_delta;
            if !Rc::ptr_eq(&self.presumed, &frame.presumed) {
                self.presumed = frame.presumed.clone();
            }
            self.budget = 0;
            if is_directive(line) {
                self.directive(&mut frames, line, start);
            } else if self.active() {
                self.text_line(frame_mut(&mut frames, top), line, start);
            }
            if self.out.len() > MAX_OUTPUT {
                let d = self.map.diagnostic_at(
                    self.line_at,
                    1,
                    "preprocessed output larger than 64 MiB",
                );
                self.diags.push(d);
                self.fatal = true;
            }
        }
        self.map.finish(self.out.len());
        if self.diags.is_empty() {
            Ok(Preprocessed {
                text: self.out,
                map: self.map,
                includes: self.includes,
            })
        } else {
            Err(self.map.attach(self.diags))
        }
    }

    /// The presumed line number of the line being processed.
    pub(crate) fn current_line(&self) -> i64 {
        let f = &self.map.files[self.line_at.file as usize];
        i64::from(f.lines.line(f.clean.orig(self.line_at.clean))) + self.line_delta
    }

    /// True if lines are kept (no enclosing group is skipped).
    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    /// Report an error at a token (with the expansions it is in).
    pub(crate) fn error_tok(&mut self, t: &Tok, message: impl Into<String>) {
        let mut d = self
            .map
            .diagnostic_at(t.at, t.text.len().max(1) as u32, message);
        d.notes.extend(self.map.notes(t.at));
        self.diags.push(d);
    }

    /// A text line: copied as is unless it names a macro (or `_Pragma`), else expanded.
    fn text_line(&mut self, frame: &mut Frame, line: &str, start: usize) {
        let filter = &self.filter;
        let macros = &self.macros;
        let uses_macro = any_identifier(line, |word| {
            filter.may_contain(word) && (macros.contains_key(word) || word == "_Pragma")
        });
        if !uses_macro {
            let at = At {
                file: frame.file,
                clean: start as u32,
                exp: NO_EXPANSION,
            };
            self.map.segment(self.out.len(), at);
            self.out.push_str(line);
            self.out.push('\n');
            return;
        }
        let input = toks(line, frame.file, start as u32);
        let mut out = Vec::new();
        if self.expand(input, Some(frame), &mut out).is_ok() {
            self.emit(&out);
        }
    }

    /// Write expanded tokens as one output line (a space where the source had whitespace or
    /// where two tokens would otherwise lex as one).
    fn emit(&mut self, toks: &[Tok]) {
        let mut prev: Option<&Tok> = None;
        for t in toks {
            if let Some(p) = prev {
                if t.nl {
                    self.out.push('\n');
                } else if t.ws || would_merge(p, t) {
                    self.out.push(' ');
                }
            }
            self.map.segment(self.out.len(), t.at);
            self.out.push_str(&t.text);
            prev = Some(t);
        }
        self.out.push('\n');
    }

    /// A directive line (`#` first).
    fn directive(&mut self, frames: &mut Vec<Frame>, line: &str, start: usize) {
        let top = frames.len() - 1;
        let file = frames[top].file;
        let toks = toks(line, file, start as u32);
        let Some(name) = toks.get(1).cloned() else {
            return; // the null directive
        };
        let active = self.active();
        if name.kind != Kind::Ident {
            if active {
                self.error_tok(&name, "invalid preprocessing directive");
            }
            return;
        }
        let rest = &toks[2..];
        match &*name.text {
            "if" | "ifdef" | "ifndef" => {
                let which: &'static str = match &*name.text {
                    "if" => "if",
                    "ifdef" => "ifdef",
                    _ => "ifndef",
                };
                let value = active
                    && match which {
                        "if" => self.condition(&name, rest),
                        _ => self.ifdef(&name, rest) == (which == "ifdef"),
                    };
                self.conds.push(Cond {
                    active: value,
                    taken: value || !active,
                    parent_active: active,
                    else_seen: false,
                    at: name.at,
                    name: which,
                });
            }
            "elif" | "else" | "endif" => self.close_group(frames, &name, rest),
            _ if !active => {}
            "define" => self.define(&name, rest),
            "undef" => match rest.first() {
                Some(t) if t.kind == Kind::Ident && &*t.text != "defined" => {
                    self.macros.remove(&*t.text);
                }
                Some(t) => self.error_tok(t, "macro names must be identifiers"),
                None => self.error_tok(&name, "macro name missing after `#undef`"),
            },
            "include" => self.include(frames, &name, toks[0].at, line, start),
            "line" => self.line_directive(frame_mut(frames, top), &name, rest),
            "error" => {
                let from = (name.at.clean as usize - start) + name.text.len();
                let text = line[from..].trim();
                let hash = toks[0].clone();
                let mut d = self.map.diagnostic_at(
                    hash.at,
                    line.len() as u32 - (hash.at.clean - start as u32),
                    format!("#error {text}"),
                );
                d.notes.extend(self.map.notes(hash.at));
                self.diags.push(d);
            }
            "pragma" => match rest.first().map(|t| &*t.text) {
                Some("once") => {
                    if let Some(path) = frames[top].path.clone() {
                        self.once.insert(path);
                    }
                }
                // `#pragma scalar_storage_order` changes how members are stored: ignoring it
                // would run another program than gcc's. (`#pragma pack` is ignored, as every
                // other pragma: structures keep their natural layout; see docs/language.md.)
                Some(kind @ "scalar_storage_order") => {
                    let message = format!(
                        "`#pragma {kind}` is not supported: it changes how structure members are stored"
                    );
                    self.error_tok(&rest[0], message);
                }
                _ => {}
            },
            other => {
                let message = format!("invalid preprocessing directive `#{other}`");
                self.error_tok(&name, message);
            }
        }
    }

    /// `#elif`, `#else`, `#endif`.
    fn close_group(&mut self, frames: &[Frame], name: &Tok, rest: &[Tok]) {
        let base = frames.last().map_or(0, |f| f.conds_base);
        if self.conds.len() <= base {
            self.error_tok(name, format!("`#{}` without `#if`", name.text));
            return;
        }
        let Some(mut c) = self.conds.pop() else {
            return;
        };
        match &*name.text {
            "endif" => return,
            "else" => {
                if c.else_seen {
                    self.error_tok(name, "`#else` after `#else`");
                }
                c.active = c.parent_active && !c.taken;
                c.taken = true;
                c.else_seen = true;
            }
            _ => {
                if c.else_seen {
                    self.error_tok(name, "`#elif` after `#else`");
                }
                if c.parent_active && !c.taken {
                    c.active = self.condition(name, rest);
                    c.taken = c.active;
                } else {
                    c.active = false;
                }
            }
        }
        self.conds.push(c);
    }

    /// `#ifdef NAME` / `#ifndef NAME`: whether NAME is defined.
    fn ifdef(&mut self, name: &Tok, rest: &[Tok]) -> bool {
        match rest.first() {
            Some(t) if t.kind == Kind::Ident => self.macros.contains_key(&*t.text),
            Some(t) => {
                self.error_tok(t, "macro names must be identifiers");
                false
            }
            None => {
                self.error_tok(name, format!("macro name missing after `#{}`", name.text));
                false
            }
        }
    }

    /// The value of a `#if`/`#elif` condition (false after an error, which is reported).
    fn condition(&mut self, name: &Tok, rest: &[Tok]) -> bool {
        let mut pre = Vec::with_capacity(rest.len());
        let mut i = 0;
        while i < rest.len() {
            let t = &rest[i];
            if t.kind == Kind::Ident && &*t.text == "defined" {
                let paren = rest.get(i + 1).is_some_and(|n| n.is("("));
                let target = rest.get(if paren { i + 2 } else { i + 1 });
                let closed = !paren || rest.get(i + 3).is_some_and(|n| n.is(")"));
                match target {
                    Some(x) if x.kind == Kind::Ident && closed => {
                        let v = self.macros.contains_key(&*x.text);
                        pre.push(Tok {
                            kind: Kind::Number,
                            text: if v { "1" } else { "0" }.into(),
                            ..t.clone()
                        });
                        i += if paren { 4 } else { 2 };
                        continue;
                    }
                    _ => {
                        self.error_tok(t, "operator `defined` requires an identifier");
                        return false;
                    }
                }
            }
            pre.push(t.clone());
            i += 1;
        }
        let mut expanded = Vec::new();
        if self.expand(pre, None, &mut expanded).is_err() {
            return false;
        }
        match expr::evaluate(&expanded) {
            Ok(v) => v.bits != 0,
            Err((at, message)) => {
                let t = at.and_then(|i| expanded.get(i)).unwrap_or(name).clone();
                self.error_tok(&t, message);
                false
            }
        }
    }

    /// `#define`.
    fn define(&mut self, name: &Tok, rest: &[Tok]) {
        match parse_define(rest, name.at) {
            Err((at, len, message)) => {
                let d = self.map.diagnostic_at(at, len, message);
                self.diags.push(d);
            }
            Ok((macro_name, m)) => {
                if let Some(old) = self.macros.get(&macro_name) {
                    // A program may redefine a standard header's macro (`RAND_MAX`): gcc warns,
                    // and the later definition wins.
                    let from_header = self.map.files[old.at.file as usize].name.starts_with('<')
                        && self.map.files[old.at.file as usize].included_at.is_some();
                    if !old.same_as(&m) && !from_header {
                        let previous = self.map.describe_full(old.at);
                        let d = self
                            .map
                            .diagnostic_at(
                                m.at,
                                macro_name.len() as u32,
                                format!("macro `{macro_name}` redefined"),
                            )
                            .with_label("a different definition")
                            .with_note(format!("previous definition at {previous}"));
                        self.diags.push(d);
                    }
                }
                self.filter.add(&macro_name);
                self.macros.insert(macro_name, Rc::new(m));
            }
        }
    }

    /// `#line N ["file"]`.
    fn line_directive(&mut self, frame: &mut Frame, name: &Tok, rest: &[Tok]) {
        let mut expanded = Vec::new();
        if self.expand(rest.to_vec(), None, &mut expanded).is_err() {
            return;
        }
        let number = expanded
            .first()
            .filter(|t| t.kind == Kind::Number && t.text.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.text.parse::<i64>().ok())
            .filter(|n| (1..=2_147_483_647).contains(n));
        let Some(number) = number else {
            let t = expanded.first().unwrap_or(name).clone();
            self.error_tok(&t, "`#line` expects a line number between 1 and 2147483647");
            return;
        };
        match expanded.get(1) {
            Some(t) if t.kind == Kind::Str => {
                frame.presumed = t.text[1..t.text.len() - 1].into();
            }
            Some(t) => {
                let t = t.clone();
                self.error_tok(&t, "invalid file name in `#line`");
                return;
            }
            None => {}
        }
        let f = &self.map.files[frame.file as usize];
        let next = (frame.pos.min(frame.text.len())) as u32;
        let physical = i64::from(f.lines.line(f.clean.orig(next)));
        frame.line_delta = number - physical;
    }

    /// `#include "file"` or `#include <header>`.
    fn include(
        &mut self,
        frames: &mut Vec<Frame>,
        name: &Tok,
        hash_at: At,
        line: &str,
        start: usize,
    ) {
        let top = frames.len() - 1;
        let after = (name.at.clean as usize - start) + name.text.len();
        let arg = line[after..].trim();
        // The header name, for errors about it.
        let lead = line[after..].len() - line[after..].trim_start().len();
        let arg_at = At {
            clean: (start + after + lead) as u32,
            ..name.at
        };
        let line_at = At {
            clean: start as u32,
            ..name.at
        };
        let parsed = if let Some(q) = arg.strip_prefix('"') {
            q.find('"').map(|i| (q[..i].to_string(), true))
        } else if let Some(a) = arg.strip_prefix('<') {
            a.find('>').map(|i| (a[..i].to_string(), false))
        } else {
            // A macro-expanded `#include` (C99 6.10.2p4).
            let rest = toks(
                &line[after..],
                name.at.file,
                name.at.clean + name.text.len() as u32,
            );
            let mut expanded = Vec::new();
            if self.expand(rest, None, &mut expanded).is_err() {
                return;
            }
            match expanded.as_slice() {
                [s] if s.kind == Kind::Str => Some((s.text[1..s.text.len() - 1].to_string(), true)),
                [first, inner @ .., last] if first.is("<") && last.is(">") => {
                    let mut h = String::new();
                    for (i, t) in inner.iter().enumerate() {
                        if i > 0 && t.ws {
                            h.push(' ');
                        }
                        h.push_str(&t.text);
                    }
                    Some((h, false))
                }
                _ => None,
            }
        };
        let Some((header, quoted)) = parsed else {
            self.error_tok(name, "`#include` expects \"FILENAME\" or <FILENAME>");
            return;
        };
        if header.is_empty() {
            self.error_tok(name, "empty file name in `#include`");
            return;
        }
        // gcc's search: the including file's directory for the quote form, then the `-I`
        // directories, then the system headers (here: the front end's own, `headers`).
        let mut dirs: Vec<&Path> = Vec::new();
        if quoted {
            dirs.push(&frames[top].dir);
        }
        dirs.extend(self.options.include_dirs.iter().map(PathBuf::as_path));
        let found = dirs.iter().map(|d| d.join(&header)).find(|p| p.is_file());
        let Some(path) = found else {
            if let Some(text) = headers::text(&header) {
                if frames.len() > MAX_INCLUDE_DEPTH {
                    self.error_tok(
                        name,
                        format!("`#include` nested more than {MAX_INCLUDE_DEPTH} deep"),
                    );
                    self.fatal = true;
                    return;
                }
                if HEADERS.contains(&header.as_str()) {
                    // The checker knows the functions of the library's headers.
                    self.library_header(header.clone(), line_at, line.len());
                }
                frames.push(self.open_builtin(&header, text, hash_at));
                return;
            }
            if !quoted {
                // Another system header: the checker says it is not supported, and goes on.
                self.library_header(header, line_at, line.len());
                return;
            }
            let d = {
                let searched: Vec<String> = dirs
                    .iter()
                    .map(|d| {
                        if d.as_os_str().is_empty() {
                            ".".into()
                        } else {
                            d.display().to_string()
                        }
                    })
                    .collect();
                self.map
                    .diagnostic_at(
                        arg_at,
                        arg.len() as u32,
                        format!("cannot find include file `{header}`"),
                    )
                    .with_label(format!("searched: {}", searched.join(", ")))
            };
            self.diags.push(d);
            self.fatal = true;
            return;
        };
        let canonical = std::fs::canonicalize(&path).ok();
        if canonical.as_ref().is_some_and(|c| self.once.contains(c)) {
            return;
        }
        if frames.len() > MAX_INCLUDE_DEPTH {
            let cycle = canonical.is_some() && frames.iter().any(|f| f.path == canonical);
            let message = if cycle {
                format!("`#include` nested more than {MAX_INCLUDE_DEPTH} deep: `{header}` includes itself (an include cycle without a guard)")
            } else {
                format!("`#include` nested more than {MAX_INCLUDE_DEPTH} deep")
            };
            self.error_tok(name, message);
            self.fatal = true;
            return;
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                self.error_tok(name, format!("cannot read `{}`: {e}", path.display()));
                self.fatal = true;
                return;
            }
        };
        let frame = self.open(
            path.display().to_string(),
            text.into(),
            Some((hash_at.file, hash_at.clean)),
            canonical,
        );
        frames.push(frame);
    }

    /// A frame for the built-in text of the standard header `header`, included at `hash_at`.
    /// The standard headers' texts are fixed: each is cleaned once per thread (a program
    /// includes the same headers from every file, and a test run compiles many programs).
    fn open_builtin(&mut self, header: &str, text: &'static str, hash_at: At) -> Frame {
        type Cleaned = (Arc<str>, phases::Clean, Option<Diagnostic>, LineIndex);
        thread_local! {
            static CLEANED: std::cell::RefCell<HashMap<usize, Cleaned>> =
                std::cell::RefCell::new(HashMap::new());
        }
        let (text, clean, err, lines) = CLEANED.with(|cache| {
            cache
                .borrow_mut()
                .entry(text.as_ptr() as usize)
                .or_insert_with(|| {
                    let (clean, err) = phases::clean(text);
                    (text.into(), clean, err, LineIndex::new(text))
                })
                .clone()
        });
        self.open_clean(
            format!("<{header}>"),
            text,
            clean,
            err,
            lines,
            Some((hash_at.file, hash_at.clean)),
            None,
        )
    }

    /// `#include <h>` of a system header: recorded for the checker (which knows what the
    /// library's headers declare, and rejects the others). The line becomes blanks, so the
    /// include's span covers the whole line.
    fn library_header(&mut self, header: String, line_at: At, len: usize) {
        let out = self.out.len();
        self.map.segment(out, line_at);
        self.out.extend(std::iter::repeat_n(' ', len));
        self.out.push('\n');
        self.includes.push(Include {
            header,
            span: Span::new(out, out + len),
        });
    }
}

/// True if `line` is a directive: `#` first, after blanks (C99 6.10p2).
fn is_directive(line: &str) -> bool {
    line.trim_start_matches([' ', '\t', '\r', '\x0B', '\x0C'])
        .starts_with('#')
}

/// The frame at `i` (a helper to reborrow one frame of the stack).
fn frame_mut(frames: &mut [Frame], i: usize) -> &mut Frame {
    &mut frames[i]
}

/// True if `a` directly followed by `b` would lex differently (so a space is needed).
fn would_merge(a: &Tok, b: &Tok) -> bool {
    let joined = format!("{}{}", a.text, b.text);
    scan(&joined).first().is_none_or(|s| s.end != a.text.len())
}
