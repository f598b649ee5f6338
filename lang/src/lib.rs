//! The C-subset language: lexer, parser, type checker and compiler to register bytecode.
//!
//! Pipeline: source files --[`preprocess`] (C99 phases 1-4)--> text and its source map
//! --[`lexer`] (logos)--> tokens --parser (lalrpop)--> AST (spans on every node) --checker
//! (names, types, C's conversions)--> [`hir`] (typed, explicit conversions, resolved ids)
//! --compiler--> register bytecode. Spans after the preprocessor are offsets of its output; the
//! [`preprocess::SourceMap`] maps diagnostics and the bytecode's `line:col` back to the files.
//!
//! Entry point for the front end: [`check_source`]. Errors of every phase are collected in
//! [`Diagnostics`] and rendered in one place ([`Diagnostics::render`]).
#![deny(missing_docs)]

pub mod ast;
pub mod builtins;
pub mod bytecode;
pub mod check;
pub mod compile;
pub mod diag;
pub mod hir;
pub mod lexer;
pub mod parse;
pub mod preprocess;
pub mod printf_format;
pub mod span;
pub mod typedef_names;

pub use diag::{Diagnostic, Diagnostics};
pub use preprocess::PreprocessOptions;

/// The syntax tree of a source file and its `#include` lines.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The top-level items.
    pub unit: ast::TranslationUnit,
    /// The `#include <...>` lines.
    pub includes: Vec<lexer::Include>,
    /// Deepest statement plus expression plus initializer nesting (see
    /// [`parse::parse_with_nesting`]).
    pub nesting: u32,
}

/// Lex and parse one source file, without preprocessing (`#include <...>` lines are the only
/// directives accepted). Returns the AST, or every lexical and syntax error found. Never
/// panics.
pub fn parse_source(source: &str) -> Result<Parsed, Diagnostics> {
    parse_text(source, true)
}

/// Lex and parse preprocessed text ([`preprocess::Preprocessed::text`]); the includes are
/// the preprocessor's. Errors are in positions of the text (see [`preprocess::SourceMap`]).
pub fn parse_preprocessed(pp: &preprocess::Preprocessed) -> Result<Parsed, Diagnostics> {
    let mut parsed = match parse_text(&pp.text, false) {
        Ok(parsed) => parsed,
        Err(mut diags) => {
            diags.extend(check::unsupported_headers(&pp.includes));
            diags.sort();
            return Err(diags);
        }
    };
    parsed.includes = pp.includes.clone();
    Ok(parsed)
}

/// Lex (reading directives or not) and parse.
fn parse_text(source: &str, directives: bool) -> Result<Parsed, Diagnostics> {
    let mut diags = Diagnostics::new();
    let mut lexed = if directives {
        lexer::lex(source, &mut diags)
    } else {
        lexer::lex_preprocessed(source, &mut diags)
    };
    typedef_names::mark(&mut lexed.tokens);
    let mut syntax = Diagnostics::new();
    let (unit, nesting) = parse::parse_with_nesting(lexed.tokens, source.len(), &mut syntax);
    // A syntax error on a line that already has an error is almost always its consequence
    // (a dropped stray character, an unterminated literal, an unsupported keyword): keep
    // only the first error of each line.
    if !syntax.is_empty() {
        let index = span::LineIndex::new(source);
        let mut lines: Vec<u32> = diags.iter().map(|d| index.line(d.span.start)).collect();
        syntax.sort();
        for d in syntax {
            let line = index.line(d.span.start);
            if !lines.contains(&line) {
                lines.push(line);
                diags.push(d);
            }
        }
    }
    if diags.is_empty() {
        Ok(Parsed {
            unit,
            includes: lexed.includes,
            nesting,
        })
    } else {
        diags.sort();
        Err(diags)
    }
}

/// Stack size of the thread that checks deeply nested programs. The checker recurses once per
/// nesting level of expressions and statements (at most [`ast::MAX_DEPTH`] each, enforced by
/// the parser); with debug builds' large frames that needs a few MiB, more than a test
/// thread's default 2 MiB. The memory is only reserved, not touched, unless used.
const FRONT_END_STACK: usize = 64 << 20;

/// Programs whose nesting ([`Parsed::nesting`]) is at most this are checked on the caller's
/// thread: even with debug builds' frames their recursion needs well under 1 MiB of stack.
/// Deeper ones go to a thread with a [`FRONT_END_STACK`] stack. (A fresh thread per call costs
/// more than the spawn: its allocator cache starts cold, a fifth of the checking time.)
const INLINE_NESTING: u32 = 48;

/// The message for a bug caught in the front end.
fn internal_error() -> Diagnostics {
    Diagnostic::error(
        span::Span::default(),
        "internal error in the front end (please report this program)",
    )
    .into()
}

/// Preprocess, lex, parse and type-check one source file. Returns the typed HIR, or every
/// error found (preprocessing, lexical, syntax, name and type errors; several per run), in
/// the original files' positions. Type checking only runs on a file without lexical or
/// syntax errors. Never panics, whatever the input: lexing and parsing do not recurse,
/// deeply nested programs are checked on a thread with a large stack, and an internal error
/// (a bug) becomes a diagnostic.
pub fn check_source(file_name: &str, source: &str) -> Result<hir::Program, Diagnostics> {
    front_end(file_name, source, &PreprocessOptions::default()).map(|(program, _)| program)
}

/// [`check_source`] with `-D`, `-U` and `-I` options.
pub fn check_source_with(
    file_name: &str,
    source: &str,
    options: &PreprocessOptions,
) -> Result<hir::Program, Diagnostics> {
    front_end(file_name, source, options).map(|(program, _)| program)
}

/// The front end: the checked program and the source map of its preprocessed text.
fn front_end(
    file_name: &str,
    source: &str,
    options: &PreprocessOptions,
) -> Result<(hir::Program, preprocess::SourceMap), Diagnostics> {
    let guarded = |f: &mut dyn FnMut() -> Result<hir::Program, Diagnostics>| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
            .unwrap_or_else(|_| Err(internal_error()))
    };
    let mut pp = None;
    guarded(&mut || {
        pp = Some(preprocess::preprocess(file_name, source, options));
        Err(Diagnostics::new())
    })
    .ok();
    let pp = match pp {
        Some(Ok(pp)) => pp,
        Some(Err(diags)) => return Err(diags),
        None => return Err(internal_error()),
    };
    let map = &pp.map;
    let mut parsed = None;
    guarded(&mut || {
        parsed = Some(parse_preprocessed(&pp));
        Err(Diagnostics::new())
    })
    .ok();
    let parsed = match parsed {
        Some(Ok(parsed)) => parsed,
        Some(Err(diags)) => return Err(map.remap(diags)),
        None => return Err(internal_error()),
    };
    let checked = if parsed.nesting <= INLINE_NESTING {
        guarded(&mut || check::check(&parsed.unit, &parsed.includes, map))
    } else {
        let run = || check::check(&parsed.unit, &parsed.includes, map);
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("front-end".into())
                .stack_size(FRONT_END_STACK)
                .spawn_scoped(scope, run);
            match spawned {
                Ok(handle) => handle.join().unwrap_or_else(|_| Err(internal_error())),
                // No thread available: run here (fine for all but pathologically nested
                // programs).
                Err(_) => guarded(&mut || run()),
            }
        })
    };
    match checked {
        Ok(program) => Ok((program, pp.map)),
        Err(diags) => Err(map.remap(diags)),
    }
}

/// Check and compile one source file to register bytecode (Contract 1): [`check_source`],
/// then [`compile::compile_program`]. Errors are the front end's diagnostics, or the
/// compiler's if a function exceeds the bytecode's limits. Never panics.
pub fn compile_source(file_name: &str, source: &str) -> Result<bytecode::Program, Diagnostics> {
    compile_source_with(file_name, source, &PreprocessOptions::default())
}

/// [`compile_source`] with `-D`, `-U` and `-I` options.
pub fn compile_source_with(
    file_name: &str,
    source: &str,
    options: &PreprocessOptions,
) -> Result<bytecode::Program, Diagnostics> {
    let (program, map) = front_end(file_name, source, options)?;
    compile::compile_program(&program, &map).map_err(|d| map.remap(d))
}
