//! `docs/tutorial.md` never goes stale: every command in its `console` blocks is run and its
//! output compared with the text shown under it. `UPDATE_TUTORIAL=1 cargo test -p vm --test
//! tutorial` rewrites the shown output (and the pictures the tutorial's commands write) instead.
//!
//! A block is ```` ```console ````, then `$ vmrun ARGS`, then the output. What a command shows
//! follows the shell: stdout; with `2>&1 >/dev/null` stderr only; with `2>&1` stdout then
//! stderr (the order a terminal shows them in for these commands, whose program output is
//! short); a final `| head -n N`, `| tail -n N` or `| grep TEXT` filters the lines. Commands
//! run from the repository root.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Splits a command line into words (double and single quotes group; no escapes).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// Runs one tutorial command line (after `$ `) and returns what it shows.
fn run(line: &str) -> String {
    let (command, filter) = match line.split_once(" | ") {
        Some((c, f)) => (c, Some(f)),
        None => (line, None),
    };
    let (command, streams) = if let Some(c) = command.strip_suffix(" 2>&1 >/dev/null") {
        (c, "stderr")
    } else if let Some(c) = command.strip_suffix(" 2>&1") {
        (c, "both")
    } else {
        (command, "stdout")
    };
    let mut args = words(command);
    assert_eq!(
        args.remove(0),
        "vmrun",
        "tutorial commands run vmrun: {line}"
    );
    // A picture the tutorial shows is rewritten only when updating; a check writes it aside.
    if std::env::var_os("UPDATE_TUTORIAL").is_none() {
        for i in 1..args.len() {
            if args[i - 1] == "-o" && args[i].starts_with("docs/") {
                let name = Path::new(&args[i]).file_name().unwrap().to_owned();
                let aside = std::env::temp_dir().join(format!("tutorial-{}", std::process::id()));
                std::fs::create_dir_all(&aside).unwrap();
                args[i] = aside.join(name).to_string_lossy().into_owned();
            }
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(&args)
        .current_dir(root())
        .output()
        .expect("vmrun runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = match streams {
        "stderr" => stderr.into_owned(),
        "both" => format!("{stdout}{stderr}"),
        _ => {
            assert!(
                out.status.success(),
                "{line}: exit status {:?}: {stderr}",
                out.status.code()
            );
            stdout.into_owned()
        }
    };
    let lines: Vec<&str> = shown.lines().collect();
    let kept: Vec<&str> = match filter.map(words).as_deref() {
        None => lines,
        Some([head, n, count]) if head == "head" && n == "-n" => {
            lines.into_iter().take(count.parse().unwrap()).collect()
        }
        Some([tail, n, count]) if tail == "tail" && n == "-n" => {
            let count: usize = count.parse().unwrap();
            lines[lines.len().saturating_sub(count)..].to_vec()
        }
        Some([grep, text]) if grep == "grep" => lines
            .into_iter()
            .filter(|l| l.contains(text.as_str()))
            .collect(),
        Some(other) => panic!("unsupported filter {other:?} in {line}"),
    };
    kept.iter().map(|l| format!("{l}\n")).collect()
}

/// The tutorial with every console block's output replaced by what its command shows now.
fn regenerate(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        out.push('\n');
        if line.trim() != "```console" {
            continue;
        }
        // Commands (one or more `$ ` lines), each followed by its output, up to the fence.
        let mut block: Vec<&str> = Vec::new();
        for l in lines.by_ref() {
            if l.trim() == "```" {
                break;
            }
            block.push(l);
        }
        for l in &block {
            if let Some(command) = l.strip_prefix("$ ") {
                out.push_str(l);
                out.push('\n');
                out.push_str(&run(command));
            }
        }
        out.push_str("```\n");
    }
    out
}

#[test]
fn every_command_in_the_tutorial_shows_what_it_says() {
    let path = root().join("docs").join("tutorial.md");
    let text = std::fs::read_to_string(&path).expect("docs/tutorial.md");
    let fresh = regenerate(&text);
    if std::env::var_os("UPDATE_TUTORIAL").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let (old, new): (Vec<&str>, Vec<&str>) = (text.lines().collect(), fresh.lines().collect());
    if let Some(i) = (0..old.len().max(new.len())).find(|&i| old.get(i) != new.get(i)) {
        panic!(
            "docs/tutorial.md line {}: shown {:?}, the command now gives {:?} \
             (UPDATE_TUTORIAL=1 cargo test -p vm --test tutorial rewrites it)",
            i + 1,
            old.get(i),
            new.get(i)
        );
    }
    assert!(
        text.matches("$ vmrun").count() >= 10,
        "the tutorial runs its commands"
    );
}

#[test]
fn words_split_like_a_shell() {
    assert_eq!(
        words(r#"forest --k 4 --stream "* 6 2 0" 'a b'"#),
        ["forest", "--k", "4", "--stream", "* 6 2 0", "a b"]
    );
}
