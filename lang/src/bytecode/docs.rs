//! Generates the opcode reference (`docs/bytecode.md`) from the instruction table, so the
//! documentation can never disagree with the instruction set. The test
//! `lang/tests/bytecode_docs.rs` checks the committed file against this output
//! (`UPDATE_DOCS=1 cargo test -p lang --test bytecode_docs` rewrites it).

use std::fmt::Write;

use super::{Flow, OPCODES};

const INTRO: &str = include_str!("docs_intro.md");

/// The full text of `docs/bytecode.md`.
pub fn reference() -> String {
    let mut out = String::from(INTRO);
    out.push_str("\n## Opcodes\n\n");
    out.push_str(
        "Generated from `lang/src/bytecode/ops.rs` (the `for_each_op!` table). Operands: \
         `a b c` registers, `t` jump target, `imm` immediate, `k` constant, `g` global address, \
         `s` shape, `tab` jump table, `f` function or math function, `p` printf/puts site.\n\n",
    );
    out.push_str("| opcode | operands | flow | semantics |\n|---|---|---|---|\n");
    for op in OPCODES {
        let operands: Vec<String> = op
            .operands
            .iter()
            .map(|(name, kind)| format!("{name}: {}", kind()))
            .collect();
        let flow = match op.flow {
            Flow::Next => "next",
            Flow::Jump => "jump",
            Flow::Cond => "branch",
            Flow::Table => "table",
            Flow::Call => "call",
            Flow::Return => "return",
            Flow::Halt => "halt",
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | `{}` |",
            op.name,
            operands.join(", "),
            flow,
            op.doc.trim().replace('|', "\\|")
        );
    }
    let _ = writeln!(out, "\n{} opcodes, 8 bytes per instruction.", OPCODES.len());
    out
}
