//! The bodies of the cargo-fuzz targets (`fuzz/fuzz_targets/`, `docs/testing.md`), here so that
//! the plain test `tests/tests/fuzz_replay.rs` replays every committed corpus input through the
//! same code without the nightly toolchain.
//!
//! Each function takes the fuzzer's bytes and returns normally for every input the tool must
//! handle (rejecting it with an error is handling it); a panic, an abort or a signal is the
//! finding. [`Target`] names them for the replay.

use std::time::Duration;

use profiler::cfg_command::{self, CfgCommand, Format, ProfileKind};
use profiler::kblpp::command::{self as forest_command, ForestCommand};
use profiler::kblpp::Siblings;
use profiler::PathEnds;

/// A fuzz target: its name (the file in `fuzz/fuzz_targets/` and the corpus directory) and
/// its body.
#[derive(Clone, Copy)]
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// What it runs on one input.
    pub run: fn(&[u8]),
}

/// Every target, in the order `docs/testing.md` lists them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "front_end_bytes",
        run: front_end_bytes,
    },
    Target {
        name: "front_end_tokens",
        run: front_end_tokens,
    },
    Target {
        name: "compile_and_run",
        run: compile_and_run,
    },
    Target {
        name: "cfg_text",
        run: cfg_text,
    },
    Target {
        name: "forest_stream",
        run: forest_stream,
    },
    Target {
        name: "profile_json",
        run: profile_json,
    },
];

/// The most instructions a fuzzed program may execute: enough for every generated program,
/// small enough that an endless loop ends in well under a second.
pub const FUZZ_MAX_STEPS: u64 = 20_000_000;

/// Whether `source` could make the preprocessor read a file: an `include` (also spelled across
/// line continuations) not followed by `<` (a system header, which is built in and never read
/// from disk without `-I`). Fuzzed sources must not open files of the machine they run on.
fn mentions_include(source: &[u8]) -> bool {
    let joined: Vec<u8> = {
        let mut out = Vec::with_capacity(source.len());
        let mut i = 0;
        while i < source.len() {
            if source[i] == b'\\' {
                let mut j = i + 1;
                if source.get(j) == Some(&b'\r') {
                    j += 1;
                }
                if source.get(j) == Some(&b'\n') {
                    i = j + 1;
                    continue;
                }
            }
            out.push(source[i]);
            i += 1;
        }
        out
    };
    joined.windows(7).enumerate().any(|(at, w)| {
        w == b"include"
            && joined[at + 7..]
                .iter()
                .find(|b| !matches!(b, b' ' | b'\t'))
                .is_none_or(|&b| b != b'<')
    })
}

/// Compiles `source` (and, when it compiles, runs it under a step limit): the front end and
/// the interpreter must give a diagnostic or a result for any text.
fn compile_then_run(source: &str) {
    if mentions_include(source.as_bytes()) {
        return;
    }
    let files = [("fuzz.c", source)];
    if let Ok(program) = lang::compile_sources_with(&files, &Default::default()) {
        let options = vm::RunOptions {
            max_steps: Some(FUZZ_MAX_STEPS),
            collect_profile: false,
            memory: vm::MemoryLimits {
                stack_size: 1 << 20,
                max_memory: 16 << 20,
            },
            ..Default::default()
        };
        let _ = vm::run_program(&program, "fuzz.c", &options, &mut std::io::sink());
    }
}

/// The front end on arbitrary bytes (read as UTF-8 with replacement characters).
pub fn front_end_bytes(data: &[u8]) {
    compile_then_run(&String::from_utf8_lossy(data));
}

/// The tokens and fragments a token soup is made of: every punctuator, keywords, type names,
/// library names, literals of every kind, preprocessor directives and macro operators.
const SOUP: &[&str] = &[
    "int",
    "char",
    "short",
    "long",
    "unsigned",
    "signed",
    "float",
    "double",
    "void",
    "_Bool",
    "struct",
    "union",
    "enum",
    "typedef",
    "static",
    "extern",
    "const",
    "volatile",
    "register",
    "auto",
    "inline",
    "sizeof",
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "main",
    "x",
    "y",
    "f",
    "s",
    "a",
    "p",
    "printf",
    "malloc",
    "free",
    "exit",
    "strlen",
    "memcpy",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    ":",
    "?",
    ".",
    "->",
    "...",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "<<=",
    ">>=",
    "&=",
    "|=",
    "^=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "~",
    "!",
    "&&",
    "||",
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "++",
    "--",
    "0",
    "1",
    "-1",
    "7",
    "255",
    "0x7fffffff",
    "2147483648",
    "18446744073709551615u",
    "1e308",
    "0.5f",
    "1.0",
    "'a'",
    "'\\n'",
    "'\\0'",
    "\"%d\\n\"",
    "\"%s %lu %c %5.2f\\n\"",
    "\"abc\"",
    "\"\"",
    "\n",
    "\n#define M(a, b) a ## b\n",
    "\n#define N 3\n",
    "\n#if N\n",
    "\n#ifdef M\n",
    "\n#else\n",
    "\n#endif\n",
    "\n#undef N\n",
    "#",
    "##",
    "M",
    "N",
    "__LINE__",
    "__FILE__",
    "//",
    "/*",
    "*/",
    "\\\n",
];

/// The front end on a soup of C tokens: each byte picks one of a list of keywords,
/// punctuators, literals, directives and macro operators.
pub fn front_end_tokens(data: &[u8]) {
    let mut source = String::new();
    for &b in data {
        source.push_str(SOUP[b as usize % SOUP.len()]);
        source.push(' ');
    }
    compile_then_run(&source);
}

/// A generated well-defined program ([`crate::gen::generate_from_bytes`]: the bytes steer the
/// generator) run by the VM under a step limit and by gcc: stdout and exit status must be the
/// same. Skipped when gcc is not installed, rejects the program (a generator bug the
/// generator's own tests look for) or runs past its time limit, and when the VM reaches the
/// step limit or its small memory limits (a program too long or too large to compare here).
pub fn compile_and_run(data: &[u8]) {
    let source = crate::gen::generate_from_bytes(data);
    let program = match lang::compile_source("fuzz.c", &source) {
        Ok(p) => p,
        Err(d) => panic!(
            "the VM rejects a generated program:\n{}\n--- program ---\n{source}",
            d.render("fuzz.c", &source)
        ),
    };
    // Small memory, as in the front-end targets: the fuzzer runs thousands of programs in one
    // process (under AddressSanitizer, whose quarantine keeps freed memory a while).
    let options = vm::RunOptions {
        max_steps: Some(FUZZ_MAX_STEPS * 10),
        collect_profile: false,
        memory: vm::MemoryLimits {
            stack_size: 4 << 20,
            max_memory: 64 << 20,
        },
        ..Default::default()
    };
    let mut stdout = Vec::new();
    let result = vm::run_program(&program, "fuzz.c", &options, &mut stdout);
    let limit = [
        "(see --max-steps)",
        "(see --stack-size)",
        "see --max-memory)",
    ];
    if limit.iter().any(|l| result.stderr.contains(l)) {
        return;
    }
    let Some(expected) =
        crate::reference::gcc_outcome_of_text_checked(&source, Duration::from_secs(20))
    else {
        return;
    };
    let actual = crate::outcome::Outcome {
        stdout,
        status: result.exit_status,
        stderr: result.stderr,
    };
    if let Some(diff) = expected.compare(&actual) {
        panic!("the VM and gcc differ:\n{diff}\n--- program ---\n{source}");
    }
}

/// `vmrun cfg` on a fuzzed `.cfg` text and trace: the first byte picks the options (path
/// ends, profile kind, K, output format), the rest is the file, then after a NUL byte the
/// trace.
pub fn cfg_text(data: &[u8]) {
    let Some((&options, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (source, trace) = match text.split_once('\0') {
        Some((s, t)) => (s.to_string(), Some(t.to_string())),
        None => (text.to_string(), None),
    };
    let mut cmd = CfgCommand::new("fuzz.cfg", source);
    cmd.trace = trace;
    cmd.path_ends = if options & 1 == 0 {
        PathEnds::Header
    } else {
        PathEnds::Backedge
    };
    let k = u32::from(options >> 5) % 4 + 1;
    cmd.profile = match (options >> 1) & 7 {
        0 => None,
        1 => Some(ProfileKind::Bl),
        2 => Some(ProfileKind::KIter(k)),
        3 => Some(ProfileKind::Ol(k - 1)),
        4 => Some(ProfileKind::Ipp(profiler::interproc::IppKind::Context)),
        5 => Some(ProfileKind::Ipp(profiler::interproc::IppKind::Piecewise)),
        _ => {
            cmd.k = Some(k);
            None
        }
    };
    cmd.format = [Format::Text, Format::Json, Format::Dot][usize::from(options >> 4 & 1)];
    cmd.max_paths = 1 << 20;
    cmd.list_limit = 64;
    let _ = cfg_command::run(&cmd);
}

/// `vmrun forest` on a fuzzed stream: the first byte picks K (1 to 8), the sibling order and
/// the output format, the rest is the stream.
pub fn forest_stream(data: &[u8]) {
    let Some((&options, rest)) = data.split_first() else {
        return;
    };
    let cmd = ForestCommand {
        k: u32::from(options & 7) + 1,
        stream: String::from_utf8_lossy(rest).into_owned(),
        format: [Format::Text, Format::Json, Format::Dot][usize::from(options >> 3) % 3],
        siblings: [
            Siblings::Append,
            Siblings::MoveToFront,
            Siblings::MoveToFrontAfter(2),
            Siblings::Transpose,
        ][usize::from(options >> 6)],
    };
    let _ = forest_command::run(&cmd);
}

/// A saved profile read back and re-rendered (`vmrun report`): any text gets a profile or a
/// one-line error.
pub fn profile_json(data: &[u8]) {
    use vm::profile::saved::{self, ReportFormat};
    let text = String::from_utf8_lossy(data);
    if let Ok(profile) = saved::load(&text) {
        for format in [ReportFormat::Text, ReportFormat::Json, ReportFormat::Dot] {
            let options = vm::profile::text::ReportOptions {
                top: data.len() % 5,
                min_share: (data.len() % 30) as f64,
            };
            let _ = saved::render(&profile, &options, format);
        }
    }
}
