//! The C preprocessor: translation phases 1 to 4 (C99 5.1.1.2, 6.10), run before the lexer.
//!
//! [`preprocess`] turns a source file into the text the lexer reads, and a [`SourceMap`] from
//! every byte of that text back to the original file, line and column and the macro
//! expansions it came out of, so every later diagnostic and the bytecode's `line:col` still
//! point at the original place.
//!
//! What is supported: line splicing and comments; object-like and function-like `#define`
//! (`#`, `##`, `__VA_ARGS__`, empty arguments, argument pre-expansion, rescanning with hide
//! sets); `#undef`; `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif` with `defined` and
//! `intmax_t`/`uintmax_t` arithmetic; `#include "file"` (the including file's directory, then
//! [`PreprocessOptions::include_dirs`]) with `#pragma once`; `#include <h>` of the headers the
//! library covers (recorded in [`Preprocessed::includes`] for the checker); `#error`, `#line`,
//! `#pragma` and `_Pragma` (ignored); `__FILE__`, `__LINE__`, `__STDC__`, `__STDC_VERSION__`,
//! `__STDC_HOSTED__`. Not supported: trigraphs (the lexer rejects them) and digraphs.
//!
//! One job per file: [`phases`] (splices, comments), [`tokens`] (pp-tokens), [`macros`]
//! (definitions), `expand` (macro expansion), `expr` (`#if` arithmetic), `driver` (directives,
//! files, output), [`source_map`] (output back to the sources).

mod driver;
mod expand;
mod expr;
pub mod headers;
pub mod macros;
pub mod phases;
pub mod source_map;
pub mod tokens;

use std::path::PathBuf;

pub use driver::{MAX_INCLUDE_DEPTH, MAX_OUTPUT};
pub use source_map::SourceMap;

use crate::diag::Diagnostics;
use crate::lexer::Include;

/// The preprocessor's inputs besides the source: the command line's `-D`, `-U` and `-I`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreprocessOptions {
    /// `-D NAME` (`None`: defined as `1`) and `-D NAME=VALUE`, in order. `NAME` may be
    /// `F(params)` for a function-like macro.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U NAME`, applied after every define.
    pub undefines: Vec<String>,
    /// `-I DIR`: searched for `#include "..."` after the including file's directory, and for
    /// `#include <...>` before the standard headers of the front end, as gcc searches.
    pub include_dirs: Vec<PathBuf>,
}

impl PreprocessOptions {
    /// Add a `-D` option's argument: `NAME` or `NAME=VALUE`.
    pub fn define(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some((name, value)) => self
                .defines
                .push((name.to_string(), Some(value.to_string()))),
            None => self.defines.push((arg.to_string(), None)),
        }
    }
}

/// The result of preprocessing.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    /// The text for the lexer: no directives, no comments, macros expanded.
    pub text: String,
    /// From offsets of `text` back to the sources.
    pub map: SourceMap,
    /// The `#include <...>` lines of the library's headers (spans in `text`).
    pub includes: Vec<Include>,
}

/// Preprocess `source`, the file `file_name` (its directory is where `#include "..."` looks
/// first). Returns the text and its source map, or every error found, in original positions
/// (the diagnostics carry the files, so [`Diagnostics::render`] shows each in its file).
/// Never panics.
pub fn preprocess(
    file_name: &str,
    source: &str,
    options: &PreprocessOptions,
) -> Result<Preprocessed, Diagnostics> {
    driver::Pp::new(options).run(file_name, source)
}

/// The preprocessing tokens of `text` (for comparing preprocessed texts token by token).
pub fn token_spellings(text: &str) -> Vec<&str> {
    tokens::scan(text)
        .into_iter()
        .map(|s| &text[s.start..s.end])
        .collect()
}
