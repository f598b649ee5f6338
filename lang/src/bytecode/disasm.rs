//! The disassembler: each function's code with block boundaries and source lines.
//!
//! Output format (stable; golden tests pin it):
//! ```text
//! function fib (f0) at 3:5: params 1, locals 1, registers 3, array bytes 0
//!   b0:
//!        0  JGeI      r0, 2, @2                 ; 4:9
//!        1  Ret       r0                        ; 4:20
//!   b1:
//!        2  AddI32    r1, r0, -1                ; 5:12
//! ```
//! Blocks are numbered in code order; a line `bN:` starts every basic block
//! ([`super::Function::leaders`]). Side tables (constants, shapes, jump tables, sites) follow the
//! code when present.

use std::fmt::Write;

use super::{Function, Program, Site};

/// Disassembles every function of `program`.
pub fn disassemble(program: &Program) -> String {
    let mut out = String::new();
    if !program.globals.is_empty() {
        out.push_str("globals:\n");
        for g in &program.globals {
            let _ = writeln!(out, "  {} {} [{}] {} bytes", g.addr, g.name, g.len, g.size);
        }
        out.push('\n');
    }
    for (i, func) in program.functions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if program.files.len() > 1 {
            // A program of several files: each function's header names its file.
            let mut text = String::new();
            disassemble_function(func, i, &mut text);
            let at = format!(" at {}: ", func.loc);
            let file = program.file_of(crate::bytecode::FuncIdx(i as u16));
            out.push_str(&text.replacen(&at, &format!(" at {file}:{}: ", func.loc), 1));
        } else {
            disassemble_function(func, i, &mut out);
        }
    }
    out
}

/// Disassembles one function (`index` is its [`super::FuncIdx`]) into `out`.
pub fn disassemble_function(func: &Function, index: usize, out: &mut String) {
    let _ = writeln!(
        out,
        "function {} (f{index}) at {}: params {}, locals {}, registers {}, array bytes {}",
        func.name, func.loc, func.num_params, func.num_locals, func.num_regs, func.array_bytes
    );
    let leaders = func.leaders();
    let mut block = 0usize;
    for (pc, ins) in func.code.iter().enumerate() {
        if leaders[pc] {
            let _ = writeln!(out, "  b{block}:");
            block += 1;
        }
        let mut text = format!("{:>6}  {ins}", pc);
        let width = 44;
        if text.len() < width {
            text.extend(std::iter::repeat_n(' ', width - text.len()));
        }
        let loc = func.locs.get(pc).copied().unwrap_or_default();
        let _ = writeln!(out, "{text} ; {loc}{}", frame_object_note(func, ins));
    }
    if !func.consts.is_empty() {
        out.push_str("  constants:");
        for (i, k) in func.consts.iter().enumerate() {
            let _ = write!(out, " k{i}={k:#x}");
        }
        out.push('\n');
    }
    for (i, s) in func.shapes.iter().enumerate() {
        let _ = writeln!(out, "  shape s{i}: stride {}, inner {}", s.stride, s.inner);
    }
    for (i, t) in func.tables.iter().enumerate() {
        let targets: Vec<String> = t.targets.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            out,
            "  table t{i}: low {}, [{}], default {}",
            t.low,
            targets.join(" "),
            t.default
        );
    }
    for (i, site) in func.sites.iter().enumerate() {
        match site {
            Site::Printf { format, args } => {
                let _ = writeln!(
                    out,
                    "  site p{i}: printf {} args {args:?}",
                    format_text(format)
                );
            }
            Site::Puts(text) => {
                let _ = writeln!(out, "  site p{i}: puts {:?}", String::from_utf8_lossy(text));
            }
            Site::Sprintf {
                bounded,
                format,
                args,
            } => {
                let name = if *bounded { "snprintf" } else { "sprintf" };
                let _ = writeln!(
                    out,
                    "  site p{i}: {name} {} args {args:?}",
                    format_text(format)
                );
            }
        }
    }
}

/// What a `FrameObj` does, after its location: which object it registers, or whose block it
/// enters or leaves (the scope marks' immediates are otherwise large numbers).
fn frame_object_note(func: &Function, ins: &super::Instr) -> String {
    let super::Instr::FrameObj { imm, .. } = *ins else {
        return String::new();
    };
    let name = func
        .frame_objects
        .get((imm & super::FRAME_OBJECT_INDEX) as usize)
        .map_or("?", |o| o.name.as_str());
    if imm & super::SCOPE_BEGIN != 0 {
        format!(" (the block of `{name}` is entered)")
    } else if imm & super::SCOPE_END != 0 {
        format!(" (the block of `{name}` ends)")
    } else {
        format!(" (`{name}`)")
    }
}

fn format_text(pieces: &[crate::printf_format::Piece]) -> String {
    use crate::printf_format::Piece;
    let mut s = String::new();
    for p in pieces {
        match p {
            Piece::Literal(bytes) => s.push_str(&String::from_utf8_lossy(bytes)),
            Piece::Conversion(spec) => {
                let _ = write!(s, "{spec}");
            }
        }
    }
    format!("{s:?}")
}
