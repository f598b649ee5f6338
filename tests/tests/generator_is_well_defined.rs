//! Checks the generator itself, independently of the VM: generated programs compile with gcc,
//! and under UndefinedBehaviorSanitizer (`-fsanitize=undefined -fno-sanitize-recover=all`)
//! they run without any report and print exactly what the plain build prints. A program that
//! trips the sanitizer would make the differential test compare undefined behaviour.

use std::time::Duration;

use e2e::reference::{compile, require_gcc, run_executable, scratch_dir};

#[test]
fn generated_programs_have_no_undefined_behaviour() {
    require_gcc();
    let base: u64 = std::env::var("E2E_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0000);
    let seeds: Vec<u64> = (0..24).map(|i| base.wrapping_add(i * 7919)).collect();
    let problems = e2e::parallel_map(&seeds, |&seed| {
        let source = e2e::gen::generate(seed);
        let dir = scratch_dir("ubsan");
        let file = dir.join("prog.c");
        std::fs::write(&file, &source).expect("write the program");
        let plain = compile(&file, &dir, "plain", &[])
            .unwrap_or_else(|e| panic!("seed {seed}: gcc rejected:\n{e}"));
        let ubsan = compile(
            &file,
            &dir,
            "ubsan",
            &["-fsanitize=undefined", "-fno-sanitize-recover=all"],
        );
        let result = match ubsan {
            // some toolchains lack libubsan: then only the plain build is checked
            Err(e) if e.contains("ubsan") => None,
            Err(e) => Some(format!(
                "seed {seed}: gcc -fsanitize=undefined failed:\n{e}"
            )),
            Ok(ubsan) => {
                let a = run_executable(&plain, Duration::from_secs(30));
                let b = run_executable(&ubsan, Duration::from_secs(60));
                if !b.stderr.is_empty() || a.stdout != b.stdout || a.status != b.status {
                    Some(format!(
                        "seed {seed}: sanitizer report or different behaviour (status {} vs {}):\n{}",
                        a.status, b.status, b.stderr
                    ))
                } else {
                    None
                }
            }
        };
        let _ = std::fs::remove_dir_all(&dir);
        result
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
