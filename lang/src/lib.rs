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
pub mod ctype;
pub mod diag;
pub mod gnu;
pub mod hir;
pub mod lexer;
pub mod parse;
pub mod preprocess;
pub mod printf_format;
pub mod scalar;
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
    gnu::strip_extensions(&mut lexed.tokens, &mut diags);
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

/// A checked program of one or more source files, with what the compiler needs to locate
/// its code in them.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The linked program.
    pub program: hir::Program,
    /// The source map of each translation unit's preprocessed text, in command-line order.
    pub maps: Vec<preprocess::SourceMap>,
    /// The translation unit each function was defined in, by function id.
    pub func_unit: Vec<u32>,
}

/// Runs `f`, turning a panic (a bug) into an internal-error diagnostic.
fn guarded<T>(f: impl FnOnce() -> Result<T, Diagnostics>) -> Result<T, Diagnostics> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(internal_error()))
}

/// The front end of one file: the checked program and the source map of its preprocessed
/// text.
fn front_end(
    file_name: &str,
    source: &str,
    options: &PreprocessOptions,
) -> Result<(hir::Program, preprocess::SourceMap), Diagnostics> {
    let checked = front_end_files(&[(file_name, source)], options)?;
    // The program's own file is the first unit (library code in C comes after it).
    let map = checked.maps.into_iter().next().unwrap_or_default();
    Ok((checked.program, map))
}

/// Preprocess, parse and check each file of a program as its own translation unit (own
/// preprocessing with the same options, own file scope) and link them: see
/// [`check::link`]. With one file this is [`check_source_with`]. Errors of every file are
/// reported (each in its own file: the diagnostics' files are every unit's files, in order);
/// linking errors (undefined or duplicate external names, no `main`) only when every file
/// checked cleanly. Never panics.
pub fn check_sources_with(
    files: &[(&str, &str)],
    options: &PreprocessOptions,
) -> Result<Checked, Diagnostics> {
    front_end_files(files, options)
}

/// A library file written in C (`lang/src/prelude/`): which functions it defines, the file
/// name its code is shown under, and its text.
type PreludeFile = (fn(&str) -> bool, &'static str, &'static str);

/// The library files written in C.
const PRELUDE: &[PreludeFile] = &[
    (
        |f| f == "qsort",
        "<qsort.c>",
        include_str!("prelude/qsort.c"),
    ),
    (
        |f| CTYPE_FUNCTIONS.contains(&f),
        "<ctype.c>",
        include_str!("prelude/ctype.c"),
    ),
    (
        |f| check::bit_builtin(f).is_some(),
        "<builtins.c>",
        include_str!("prelude/builtins.c"),
    ),
];

/// `<ctype.h>`'s functions, which `prelude/ctype.c` defines.
const CTYPE_FUNCTIONS: &[&str] = &[
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint",
    "ispunct", "isspace", "isupper", "isxdigit", "tolower", "toupper",
];

/// Whether a library file written in C (the prelude) defines the function `name`.
pub(crate) fn prelude_defines(name: &str) -> bool {
    PRELUDE.iter().any(|(defines, ..)| defines(name))
}

/// [`check_sources_with`].
fn front_end_files(
    files: &[(&str, &str)],
    options: &PreprocessOptions,
) -> Result<Checked, Diagnostics> {
    let whole = files.len() == 1;
    let mut linker = check::link::Linker::new();
    let mut all = Diagnostics::new();
    let mut texts: Vec<diag::SourceText> = Vec::new();
    let mut maps = Vec::new();
    // The library functions written in C that call back into the program come after the
    // program's files, each only if some file uses it (so other programs are unchanged).
    let mut units: Vec<(&str, &str, bool)> = files.iter().map(|&(n, s)| (n, s, false)).collect();
    let mut index = 0;
    loop {
        if index == units.len() {
            let needed = PRELUDE.iter().find(|(defines, file, _)| {
                linker.needed_definitions().any(defines) && !units.iter().any(|u| u.0 == *file)
            });
            match needed {
                Some(&(_, file, text)) => units.push((file, text, true)),
                None => break,
            }
        }
        let (name, source, library) = units[index];
        let ctx = check::UnitCtx {
            index: index as u32,
            file_base: texts.len() as u32,
            whole: whole && !library,
            library,
        };
        index += 1;
        match unit_front_end(name, source, options, &mut linker, ctx) {
            Ok(map) => {
                texts.extend(map.source_texts());
                maps.push(map);
            }
            Err(diags) => {
                let unit_texts = if diags.files().is_empty() {
                    vec![diag::SourceText {
                        name: name.to_string(),
                        text: source.into(),
                    }]
                } else {
                    diags.files().to_vec()
                };
                for mut d in diags {
                    d.file += ctx.file_base;
                    all.push(d);
                }
                texts.extend(unit_texts);
                maps.push(preprocess::SourceMap::default());
            }
        }
    }
    if !all.is_empty() {
        all.set_files(texts);
        return Err(all);
    }
    let end = {
        let len = files.first().map_or(0, |(_, s)| s.len());
        check::link::Place {
            file: 0,
            span: span::Span::new(len, len),
            text: String::new(),
            unit: 0,
        }
    };
    match guarded(|| Ok(linker.finish(!whole, end))) {
        Ok(Ok(linked)) => Ok(Checked {
            program: linked.program,
            maps,
            func_unit: linked.func_unit,
        }),
        Ok(Err(errors)) => {
            errors.into_iter().for_each(|d| all.push(d));
            all.set_files(texts);
            Err(all)
        }
        Err(diags) => Err(diags),
    }
}

/// Preprocess, parse and check one translation unit against the program's linker. Returns
/// its source map, or its errors in original positions (files indexed into the unit's own
/// files, except [`Diagnostic::related`] places, already in the program's file table).
fn unit_front_end(
    file_name: &str,
    source: &str,
    options: &PreprocessOptions,
    linker: &mut check::link::Linker,
    ctx: check::UnitCtx,
) -> Result<preprocess::SourceMap, Diagnostics> {
    let pp = guarded(|| Ok(preprocess::preprocess(file_name, source, options)))??;
    let map = &pp.map;
    let parsed = guarded(|| Ok(parse_preprocessed(&pp)))?.map_err(|d| map.remap(d))?;
    let checked = if parsed.nesting <= INLINE_NESTING {
        guarded(|| check::check_unit(&parsed.unit, &parsed.includes, map, linker, ctx))
    } else {
        let on_thread = std::thread::scope(|scope| {
            let linker = &mut *linker;
            let spawned = std::thread::Builder::new()
                .name("front-end".into())
                .stack_size(FRONT_END_STACK)
                .spawn_scoped(scope, || {
                    check::check_unit(&parsed.unit, &parsed.includes, map, linker, ctx)
                });
            spawned
                .ok()
                .map(|handle| handle.join().unwrap_or_else(|_| Err(internal_error())))
        });
        // No thread available: run here (fine for all but pathologically nested programs).
        on_thread.unwrap_or_else(|| {
            guarded(|| check::check_unit(&parsed.unit, &parsed.includes, map, linker, ctx))
        })
    };
    match checked {
        Ok(()) => Ok(pp.map),
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
    let checked = front_end_files(&[(file_name, source)], options)?;
    if let [map] = checked.maps.as_slice() {
        return compile::compile_program(&checked.program, map).map_err(|d| map.remap(d));
    }
    // Library code in C was linked in: a program of several units.
    compile_checked(checked)
}

/// Check and compile a program of several source files, `(name, text)` in command-line
/// order, each its own translation unit, linked into one program (see
/// [`check_sources_with`]). The bytecode's [`bytecode::Program::files`] are the files' names
/// and each function names its file. With one file this is [`compile_source_with`]. Never
/// panics.
pub fn compile_sources_with(
    files: &[(&str, &str)],
    options: &PreprocessOptions,
) -> Result<bytecode::Program, Diagnostics> {
    if let [(name, source)] = files {
        return compile_source_with(name, source, options);
    }
    compile_checked(front_end_files(files, options)?)
}

/// Compiles a checked program of one or more units, its errors mapped back to their files.
fn compile_checked(checked: Checked) -> Result<bytecode::Program, Diagnostics> {
    let maps: Vec<&preprocess::SourceMap> = checked.maps.iter().collect();
    compile::compile_units(&checked.program, &maps, &checked.func_unit).map_err(|errors| {
        // Each error is in the preprocessed text of its unit: map it back, then index its
        // file into the program's file table.
        let mut texts = Vec::new();
        let mut bases = Vec::new();
        for map in &checked.maps {
            bases.push(texts.len() as u32);
            texts.extend(map.source_texts());
        }
        let mut all = Diagnostics::new();
        for (unit, d) in errors {
            let Some(map) = checked.maps.get(unit as usize) else {
                continue;
            };
            for mut d in map.remap(d.into()) {
                d.file += bases[unit as usize];
                all.push(d);
            }
        }
        all.set_files(texts);
        all
    })
}
