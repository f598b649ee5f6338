//! Checks the generator itself, independently of the VM: generated programs compile with gcc,
//! and under UndefinedBehaviorSanitizer (`-fsanitize=undefined -fno-sanitize-recover=all`)
//! they run without any report and print exactly what the plain build prints. A program that
//! trips the sanitizer would make the differential test compare undefined behaviour.
//!
//! With the pointer features on (`Config::pointers`: structures, pointers, strings, the heap),
//! AddressSanitizer runs too, with its pointer-pair checks: out-of-bounds accesses, use after
//! scope or free, leaks (every block is freed before the program ends), overlapping
//! `strcpy`/`memcpy`, and `<` or `-` on pointers into different objects are all reported.
//! The same programs split in two files are checked as well.
//!
//! The front end (`lang`) must accept every generated program, with or without the pointer
//! features; the code generator may still refuse the pointer features, with its "not supported
//! by the code generator yet" and nothing else.

use std::path::PathBuf;
use std::time::Duration;

use e2e::gen::{generate_units_with, generate_with, Config};
use e2e::reference::{compile_files, require_gcc, run_executable_env, scratch_dir};

/// 24 seeds from `E2E_SEED` (or a fixed base), spread apart.
fn seeds() -> Vec<u64> {
    let base: u64 = std::env::var("E2E_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0000);
    (0..24).map(|i| base.wrapping_add(i * 7919)).collect()
}

/// The configuration of a seed, with or without the pointer features.
fn config(seed: u64, pointers: bool) -> Config {
    Config {
        pointers,
        ..Config::varied(seed)
    }
}

/// The sanitizers' flags and run-time options.
fn sanitizers(pointers: bool) -> (Vec<&'static str>, Vec<(&'static str, &'static str)>) {
    if pointers {
        (
            vec![
                "-fsanitize=address,undefined,pointer-compare,pointer-subtract",
                "-fno-sanitize-recover=all",
            ],
            vec![(
                "ASAN_OPTIONS",
                "detect_invalid_pointer_pairs=2:detect_stack_use_after_return=1",
            )],
        )
    } else {
        (
            vec!["-fsanitize=undefined", "-fno-sanitize-recover=all"],
            Vec::new(),
        )
    }
}

/// Compiles `files` plainly and under the sanitizers, runs both, and describes any sanitizer
/// report or difference (`None` if clean, or if the toolchain lacks the sanitizer libraries).
fn sanitized_run(
    what: &str,
    dir: &std::path::Path,
    files: &[PathBuf],
    pointers: bool,
) -> Option<String> {
    let plain = match compile_files(files, dir, "plain", &[]) {
        Ok(exe) => exe,
        Err(e) => return Some(format!("{what}: gcc rejected:\n{e}")),
    };
    let (flags, env) = sanitizers(pointers);
    match compile_files(files, dir, "sanitized", &flags) {
        // some toolchains lack libubsan or libasan: then only the plain build is checked
        Err(e) if e.contains("ubsan") || e.contains("asan") => None,
        Err(e) => Some(format!("{what}: gcc {} failed:\n{e}", flags.join(" "))),
        Ok(sanitized) => {
            let a = run_executable_env(&plain, Duration::from_secs(30), &[]);
            let b = run_executable_env(&sanitized, Duration::from_secs(60), &env);
            if !b.stderr.is_empty() || a.stdout != b.stdout || a.status != b.status {
                Some(format!(
                    "{what}: sanitizer report or different behaviour (status {} vs {}):\n{}",
                    a.status, b.status, b.stderr
                ))
            } else {
                None
            }
        }
    }
}

/// Checks the seeds' programs (and with the pointer features, every fourth one also as two
/// files) under the sanitizers.
fn check_under_sanitizers(pointers: bool) {
    require_gcc();
    let problems = e2e::parallel_map(&seeds(), |&seed| {
        let cfg = config(seed, pointers);
        let dir = scratch_dir(if pointers { "asan" } else { "ubsan" });
        let file = dir.join("prog.c");
        std::fs::write(&file, generate_with(seed, &cfg)).expect("write the program");
        let mut found = sanitized_run(&format!("seed {seed}"), &dir, &[file], pointers);
        if found.is_none() && pointers && seed % 4 == 0 {
            let files: Vec<PathBuf> = generate_units_with(seed, &cfg)
                .into_iter()
                .map(|(name, text)| {
                    let path = dir.join(name);
                    std::fs::write(&path, text).expect("write a unit");
                    path
                })
                .collect();
            found = sanitized_run(&format!("seed {seed} (two files)"), &dir, &files, pointers);
        }
        if found.is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        found.map(|f| format!("{f}\n(files in {})", dir.display()))
    });
    let problems: Vec<String> = problems.into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn generated_programs_have_no_undefined_behaviour() {
    check_under_sanitizers(false);
}

#[test]
fn generated_programs_with_pointers_have_no_undefined_behaviour_or_memory_errors() {
    check_under_sanitizers(true);
}

/// The front end's verdict on a program of one or more files: `None` if it is accepted (and
/// the code generator compiles it, or refuses only the features it does not support yet).
fn front_end_problem(files: &[(String, String)]) -> Option<String> {
    let named: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let options = lang::PreprocessOptions::default();
    if let Err(d) = lang::check_sources_with(&named, &options) {
        return Some(format!(
            "rejected by the checker:\n{}",
            d.render(&files[0].0, &files[0].1)
        ));
    }
    let compiled = if files.len() == 1 {
        lang::compile_source(&files[0].0, &files[0].1).map(|_| ())
    } else {
        lang::compile_sources_with(&named, &options).map(|_| ())
    };
    match compiled {
        Ok(()) => None,
        Err(d)
            if d.iter().all(|d| {
                d.message
                    .contains("not supported by the code generator yet")
            }) =>
        {
            None
        }
        Err(d) => Some(format!(
            "rejected by the code generator:\n{}",
            d.render(&files[0].0, &files[0].1)
        )),
    }
}

#[test]
fn generated_programs_are_accepted_by_the_front_end() {
    let cases: Vec<(u64, bool)> = seeds()
        .into_iter()
        .flat_map(|s| [(s, false), (s, true)])
        .collect();
    let problems = e2e::parallel_map(&cases, |&(seed, pointers)| {
        let cfg = config(seed, pointers);
        let one = vec![("prog.c".to_string(), generate_with(seed, &cfg))];
        let two = generate_units_with(seed, &cfg);
        [one, two].iter().find_map(|files| {
            front_end_problem(files).map(|p| {
                format!(
                    "seed {seed} (pointers: {pointers}, {} file(s)): {p}",
                    files.len()
                )
            })
        })
    });
    let problems: Vec<String> = problems.into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn generation_is_reproducible_and_varied() {
    assert_eq!(e2e::gen::generate(42), e2e::gen::generate(42));
    assert_ne!(e2e::gen::generate(42), e2e::gen::generate(43));
    // the generator exercises the whole language over a handful of seeds
    let text: String = (0..20).map(e2e::gen::generate).collect();
    for needle in [
        "switch (",
        "case ",
        "default:",
        "break;",
        "continue;",
        "do {",
        "while (",
        "for (",
        "? ",
        "<<",
        ">>",
        "<<=",
        ">>=",
        "%=",
        "^=",
        "|=",
        "&=",
        "++",
        "--",
        "&&",
        "||",
        "(char)",
        "(unsigned long)",
        "(double)",
        "sqrt(",
        "pow(",
        "fmod(",
        "atan2(",
        "printf(\"",
        "putchar(",
        "puts(",
        "[][",
        "rec(",
        "is_even(",
        "%l",
    ] {
        assert!(
            text.contains(needle),
            "no generated program contains {needle:?}"
        );
    }
}

#[test]
fn the_pointer_features_are_off_by_default_and_varied_when_on() {
    for seed in 0..5 {
        assert_eq!(
            e2e::gen::generate(seed),
            generate_with(seed, &config(seed, false))
        );
        assert!(!e2e::gen::generate(seed).contains("struct "));
    }
    let with = |seed| generate_with(seed, &config(seed, true));
    assert_eq!(with(42), with(42));
    let text: String = (0..20).map(with).collect();
    for needle in [
        "struct r",
        "union u",
        " : ",
        "->",
        "(*",
        "**",
        " = {.",
        "[1] = ",
        "&",
        "!= NULL",
        "const char *",
        "char b",
        "strlen(",
        "strcpy(",
        "strcat(",
        "strcmp(",
        "strncmp(",
        "strchr(",
        "memcpy(",
        "memset(",
        "memcmp(",
        "sprintf(",
        "snprintf(",
        "%s",
        "malloc(",
        "calloc(",
        "free(",
        "qsort(",
        "cmp_kv",
        "(*p",
        ")(",
        "sizeof(struct",
    ] {
        assert!(
            text.contains(needle),
            "no generated program with pointers contains {needle:?}"
        );
    }
}
