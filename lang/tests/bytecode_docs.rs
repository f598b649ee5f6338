//! `docs/bytecode.md` is generated from the instruction table; this test keeps it in sync.
//! Refresh with `UPDATE_DOCS=1 cargo test -p lang --test bytecode_docs`.

use std::path::PathBuf;

#[test]
fn bytecode_reference_matches_the_instruction_table() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/bytecode.md");
    let expected = lang::bytecode::docs::reference();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/bytecode.md is stale: run UPDATE_DOCS=1 cargo test -p lang --test bytecode_docs"
    );
}

#[test]
fn every_opcode_is_documented_once() {
    let mut names: Vec<&str> = lang::bytecode::OPCODES.iter().map(|o| o.name).collect();
    assert!(lang::bytecode::OPCODES
        .iter()
        .all(|o| !o.doc.trim().is_empty()));
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n);
}
