//! The twin benchmarks (`programs/twins/NAME.{c,lua,py}`) print the same bytes in all three
//! languages: the gcc build of `NAME.c` is the reference for `lua5.4 NAME.lua` and
//! `python3 NAME.py`. (The VM's output on `NAME.c` is checked by `gcc_diff`.) The Lua side is
//! skipped, with a printed notice, only when `lua5.4` is not installed; gcc and python3 are
//! required.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use e2e::outcome::first_difference;
use e2e::programs::programs_dir;
use e2e::reference::{gcc_outcome, require_gcc};

/// True if `tool flag` runs (the flag asks for the version).
fn installed(tool: &str, flag: &str) -> bool {
    Command::new(tool)
        .arg(flag)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run(tool: &str, script: &Path) -> Vec<u8> {
    let mut cmd = Command::new(tool);
    if tool == "luajit" {
        cmd.arg("-joff");
    }
    let out = cmd
        .arg(script)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool} {}: {e}", script.display()));
    assert!(
        out.status.success(),
        "{tool} {} failed: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn twins_agree_with_the_gcc_build() {
    require_gcc();
    assert!(
        installed("python3", "--version"),
        "python3 is required for the twin benchmarks"
    );
    let lua = installed("lua5.4", "-v");
    if !lua {
        println!("SKIPPED the Lua twins: lua5.4 is not installed (apt-get install lua5.4)");
    }
    let luajit = installed("luajit", "-v");
    if !luajit {
        println!("SKIPPED the LuaJIT runs of the Lua twins: luajit is not installed");
    }
    let dir = programs_dir().join("twins");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".c"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(
        names.len() >= 7,
        "expected at least 7 twins, found {names:?}"
    );
    let failures: Vec<String> = e2e::parallel_map(&names, |name| {
        let reference = gcc_outcome(&dir.join(format!("{name}.c")), Duration::from_secs(60));
        assert_eq!(
            reference.status, 0,
            "{name}.c exits with {}",
            reference.status
        );
        let mut problems = Vec::new();
        let mut tools = vec![("python3", "py")];
        if lua {
            tools.push(("lua5.4", "lua"));
        }
        if luajit {
            tools.push(("luajit", "lua"));
        }
        for (tool, ext) in tools {
            let script = dir.join(format!("{name}.{ext}"));
            assert!(script.exists(), "missing twin {}", script.display());
            let out = run(tool, &script);
            if out != reference.stdout {
                problems.push(format!(
                    "{name}.{ext} under {tool} differs from {name}.c:\n{}",
                    first_difference(&reference.stdout, &out)
                ));
            }
        }
        problems
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
