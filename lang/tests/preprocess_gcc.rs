//! Differential test of the preprocessor against `gcc -E -P -std=c99`: every `.c` file under
//! `tests/preprocess/` (macro corner cases, the C99 standard's examples of 6.10.3.5, `#if`
//! arithmetic, includes), random macro definitions and uses, and random `#if` expressions that
//! gcc accepts (two thirds and nine tenths of them), must give the same sequence of
//! preprocessing tokens. Whitespace is
//! not compared (the standard leaves most of it to the implementation), and gcc's `#pragma`
//! lines (it passes pragmas through, we ignore them) are dropped from its output.

use std::path::{Path, PathBuf};
use std::process::Command;

use lang::preprocess::{preprocess, token_spellings, PreprocessOptions};

/// The inputs: `tests/preprocess/*.c`, sorted.
fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/preprocess");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    files
}

/// gcc's preprocessed text of `file`. Panics if gcc cannot be run: it is the reference.
fn gcc_output(file: &Path) -> String {
    let out = Command::new("gcc")
        .args(["-E", "-P", "-std=c99"])
        .arg(file)
        .output()
        .expect("gcc is required by this test (the reference preprocessor) but could not be run");
    assert!(
        out.status.success(),
        "gcc -E failed on {}:\n{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim_start().starts_with("#pragma"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where two token sequences first differ, with some context.
fn first_difference(ours: &[&str], gcc: &[&str]) -> Option<String> {
    let i = ours.iter().zip(gcc).position(|(a, b)| a != b);
    let i = match i {
        Some(i) => i,
        None if ours.len() == gcc.len() => return None,
        None => ours.len().min(gcc.len()),
    };
    let around = |t: &[&str]| t[i.saturating_sub(8)..(i + 8).min(t.len())].join(" ");
    Some(format!(
        "token {i}:\n  ours: ... {}\n  gcc:  ... {}",
        around(ours),
        around(gcc)
    ))
}

#[test]
fn preprocessor_matches_gcc() {
    let files = inputs();
    assert!(
        files.len() >= 10,
        "expected the inputs under tests/preprocess/"
    );
    let mut failures = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let source = std::fs::read_to_string(file).expect("read input");
        let ours = match preprocess(&name, &source, &PreprocessOptions::default()) {
            Ok(pp) => pp.text,
            Err(d) => {
                failures.push(format!("{name}: rejected:\n{}", d.render(&name, &source)));
                continue;
            }
        };
        let gcc = gcc_output(file);
        if let Some(diff) = first_difference(&token_spellings(&ours), &token_spellings(&gcc)) {
            failures.push(format!("{name}: {diff}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files differ from gcc -E:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// `-D`, `-U` and `-I` give what gcc's same options give.
#[test]
fn command_line_options_match_gcc() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/preprocess");
    let source = "#include \"guarded.h\"\nN F(2) GUARDED_VALUE\n#ifdef GONE\ngone\n#endif\n#ifdef FLAG\nFLAG\n#endif\n";
    let file = std::env::temp_dir().join(format!("pp_options_{}.c", std::process::id()));
    std::fs::write(&file, source).expect("write temporary file");
    let options = PreprocessOptions {
        defines: vec![
            ("N".into(), Some("10".into())),
            ("F(x)".into(), Some("((x) * N)".into())),
            ("FLAG".into(), None),
            ("GONE".into(), Some("1".into())),
        ],
        undefines: vec!["GONE".into()],
        include_dirs: vec![dir.clone()],
    };
    let name = file.display().to_string();
    let ours = preprocess(&name, source, &options)
        .unwrap_or_else(|d| panic!("{}", d.render(&name, source)))
        .text;
    let out = Command::new("gcc")
        .args([
            "-E",
            "-P",
            "-std=c99",
            "-DN=10",
            "-DF(x)=((x) * N)",
            "-DFLAG",
            "-DGONE=1",
            "-UGONE",
        ])
        .arg(format!("-I{}", dir.display()))
        .arg(&file)
        .output()
        .expect("gcc is required by this test (the reference preprocessor) but could not be run");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gcc = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(token_spellings(&ours), token_spellings(&gcc));
}

mod random {
    //! Random macro definitions and uses: whenever gcc accepts the input, we must accept it
    //! and give the same tokens.

    use proptest::prelude::*;

    use super::*;

    const NAMES: &[&str] = &["A", "B", "C", "F", "G", "H"];
    const PARAMS: &[&str] = &["p", "q", "r"];

    /// One macro definition: name, parameters (`None`: object-like), variadic, body choices.
    type Def = (usize, Option<usize>, bool, Vec<u8>);

    fn def() -> impl Strategy<Value = Def> {
        (
            0..NAMES.len(),
            prop::option::of(0..=PARAMS.len()),
            any::<bool>(),
            prop::collection::vec(any::<u8>(), 0..7),
        )
    }

    /// The text of a definition.
    fn define((name, params, variadic, body): &Def) -> String {
        let mut s = format!("#define {}", NAMES[*name]);
        let mut usable: Vec<&str> = Vec::new();
        if let Some(n) = params {
            usable.extend(&PARAMS[..*n]);
            let mut list: Vec<&str> = usable.clone();
            if *variadic {
                list.push("...");
                usable.push("__VA_ARGS__");
            }
            s.push_str(&format!("({})", list.join(", ")));
        }
        s.push(' ');
        for &b in body {
            let tok = match b % 12 {
                0..=2 => NAMES[b as usize / 12 % NAMES.len()].to_string(),
                3..=4 if !usable.is_empty() => usable[b as usize / 12 % usable.len()].to_string(),
                5 if !usable.is_empty() => format!("#{}", usable[b as usize / 12 % usable.len()]),
                6 => "##".into(),
                7 => "(".into(),
                8 => ")".into(),
                9 => ",".into(),
                10 => "1".into(),
                _ => "x".into(),
            };
            s.push_str(&tok);
            s.push(' ');
        }
        s
    }

    /// A line using the macros.
    fn use_line(choices: &[u8]) -> String {
        choices
            .iter()
            .map(|&b| match b % 8 {
                0..=2 => NAMES[b as usize / 8 % NAMES.len()],
                3 => "(",
                4 => ")",
                5 => ",",
                6 => "1",
                _ => "y",
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn random_macros_match_gcc(
            defs in prop::collection::vec(def(), 1..6),
            uses in prop::collection::vec(prop::collection::vec(any::<u8>(), 1..12), 1..4),
        ) {
            let mut source = String::new();
            let mut defined = Vec::new();
            for d in &defs {
                // A different redefinition is an error here, only a warning for gcc.
                if !defined.contains(&d.0) {
                    defined.push(d.0);
                    source.push_str(&define(d));
                    source.push('\n');
                }
            }
            for u in &uses {
                source.push_str(&use_line(u));
                source.push('\n');
            }
            let dir = std::env::temp_dir();
            let file = dir.join(format!("pp_random_{}_{:x}.c", std::process::id(), fxhash(&source)));
            std::fs::write(&file, &source).expect("write temporary file");
            let out = Command::new("gcc")
                .args(["-E", "-P", "-std=c99"])
                .arg(&file)
                .output()
                .expect("gcc is required by this test (the reference preprocessor) but could not be run");
            let _ = std::fs::remove_file(&file);
            if out.status.success() {
                let gcc = String::from_utf8_lossy(&out.stdout).into_owned();
                let ours = preprocess("r.c", &source, &PreprocessOptions::default());
                let ours = match ours {
                    Ok(pp) => pp.text,
                    Err(d) => {
                        return Err(TestCaseError::fail(format!(
                            "gcc accepts, we reject:\n{source}\n{}",
                            d.render("r.c", &source)
                        )))
                    }
                };
                let (a, b) = (token_spellings(&ours), token_spellings(&gcc));
                prop_assert!(
                    a == b,
                    "differs from gcc -E:\n{}\n{}",
                    source,
                    first_difference(&a, &b).unwrap_or_default()
                );
            }
        }
    }

    /// A hash for unique temporary names.
    fn fxhash(s: &str) -> u64 {
        s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    }
}

mod random_if {
    //! Random `#if` expressions: whenever gcc accepts one, we must take the same branch.

    use proptest::prelude::*;

    use super::*;

    /// An expression of depth at most `depth` from `choices`.
    fn expr(choices: &[u8], at: &mut usize, depth: u32) -> String {
        let mut next = || {
            let c = choices.get(*at).copied().unwrap_or(0);
            *at += 1;
            c
        };
        const LEAVES: &[&str] = &[
            "0",
            "1",
            "2",
            "7",
            "-1",
            "255u",
            "0x7fffffffffffffff",
            "18446744073709551615u",
            "'a'",
            "'\\377'",
            "X",
            "UNDEF",
            "defined X",
            "defined(UNDEF)",
            "63",
            "64u",
            "010",
        ];
        const BINARY: &[&str] = &[
            "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|",
            "&&", "||", ",",
        ];
        let c = next();
        if depth == 0 || c % 4 == 0 {
            return LEAVES[next() as usize % LEAVES.len()].to_string();
        }
        match c % 4 {
            1 => {
                let op = ["-", "~", "!", "+"][next() as usize % 4];
                format!("{op}({})", expr(choices, at, depth - 1))
            }
            2 => {
                let a = expr(choices, at, depth - 1);
                let b = expr(choices, at, depth - 1);
                format!("({a} ? {b} : {})", expr(choices, at, depth - 1))
            }
            _ => {
                let op = BINARY[next() as usize % BINARY.len()];
                let a = expr(choices, at, depth - 1);
                format!("({a} {op} {})", expr(choices, at, depth - 1))
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn random_if_expressions_match_gcc(choices in prop::collection::vec(any::<u8>(), 64)) {
            let mut source = String::from("#define X 3\n");
            let mut at = 0;
            for i in 0..4 {
                let e = expr(&choices, &mut at, 4);
                source.push_str(&format!("#if {e}\nyes{i}\n#else\nno{i}\n#endif\n"));
            }
            let file = std::env::temp_dir()
                .join(format!("pp_if_{}_{}.c", std::process::id(), choices.iter().map(|&c| c as u64).sum::<u64>()));
            std::fs::write(&file, &source).expect("write temporary file");
            let out = Command::new("gcc")
                .args(["-E", "-P", "-std=c99"])
                .arg(&file)
                .output()
                .expect("gcc is required by this test (the reference preprocessor) but could not be run");
            let _ = std::fs::remove_file(&file);
            if out.status.success() {
                let gcc = String::from_utf8_lossy(&out.stdout).into_owned();
                let ours = match preprocess("r.c", &source, &PreprocessOptions::default()) {
                    Ok(pp) => pp.text,
                    Err(d) => {
                        return Err(TestCaseError::fail(format!(
                            "gcc accepts, we reject:\n{source}\n{}",
                            d.render("r.c", &source)
                        )))
                    }
                };
                prop_assert_eq!(token_spellings(&ours), token_spellings(&gcc), "{}", source);
            }
        }
    }
}
