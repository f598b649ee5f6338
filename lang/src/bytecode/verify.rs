//! The load-time verifier: the facts the interpreter relies on to skip checks in its loop.
//!
//! A program that passes [`verify`] satisfies, for every function:
//! 1. the code is non-empty, has at most `u16::MAX` instructions, and its last instruction never
//!    falls through (so `pc` can never run off the end);
//! 2. every register operand is below `num_regs`, and `num_params <= num_locals <= num_regs`,
//!    `num_regs >= 1`, and every array parameter is a parameter's register;
//!    register ranges (call arguments, printf arguments) end at or below `num_regs`;
//! 3. every jump target (including jump tables) is a valid instruction index;
//! 4. every constant, shape, table and site index is in range, and site kinds match their
//!    instructions; every global access (`GetG*`, `SetG*`) lies inside the globals
//!    (`FIRST_GLOBAL <= g` and `g + width <= globals_end`) at a multiple of its width, and
//!    `memory_init` ends at or before `globals_end`;
//! 5. `array_bytes` is a multiple of `ARRAY_ALIGN`, and `LocalArr` constants point inside the
//!    frame's area: the base is a multiple of `ARRAY_ALIGN` and `base + dim <= array_bytes`;
//!    so do the frame objects, and `FrameObj` names one of them
//!    (every element takes at least a byte);
//! 6. `locs` has one entry per instruction;
//! 7. probe instructions appear only in instrumented versions, and their probe constants and
//!    path-end pairs exist ([`verify_instrumented`]).
//!
//! With these facts the interpreter may index its register window without bounds checks (its
//! stack always holds `base + num_regs` slots for the running frame), and access global
//! scalars without bounds checks (its memory always holds the globals). Array elements are
//! checked at run time: their addresses come from registers.
//!
//! [`FIRST_GLOBAL`]: super::FIRST_GLOBAL

use std::fmt;

use super::{ArrayRef, Function, Instr, JumpTable, Loc, Program, Site, ARRAY_ALIGN, FIRST_GLOBAL};
use crate::builtins::memory::MemFn;

/// Why a program failed verification (always a compiler bug or a corrupted program).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function's name.
    pub function: String,
    /// The offending instruction, if any.
    pub pc: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pc {
            Some(pc) => write!(
                f,
                "bad bytecode in {} at @{pc}: {}",
                self.function, self.message
            ),
            None => write!(f, "bad bytecode in {}: {}", self.function, self.message),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks the invariants listed in the module docs.
pub fn verify(program: &Program) -> Result<(), VerifyError> {
    if program.main.index() >= program.functions.len() {
        return Err(VerifyError {
            function: "<program>".into(),
            pc: None,
            message: format!("main {} does not exist", program.main),
        });
    }
    let end = program.globals_end;
    if end < FIRST_GLOBAL || program.memory_init.len() > end as usize {
        return Err(VerifyError {
            function: "<program>".into(),
            pc: None,
            message: format!(
                "global memory of {} initial bytes does not fit {FIRST_GLOBAL} .. {end}",
                program.memory_init.len()
            ),
        });
    }
    for func in &program.functions {
        verify_function(program, func)?;
    }
    Ok(())
}

/// The probe tables of an instrumented version, as the verifier sees them: their sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProbeTables {
    /// Number of probe constants (`Q`).
    pub consts: usize,
    /// Number of path-end pairs (`E`).
    pub pairs: usize,
}

/// Invariant 7 for one probe instruction: its probe constants `operands` and its path-end
/// pair `pair`, if it has one.
fn probe_operands_ok(
    probe: Option<ProbeTables>,
    operands: &[super::ProbeIdx],
    pair: Option<super::PairIdx>,
    ins: &Instr,
) -> Result<(), String> {
    let Some(ProbeTables { consts: n, pairs }) = probe else {
        return Err(format!("{} outside an instrumented version", ins.name()));
    };
    if let Some(k) = pair.filter(|k| k.index() >= pairs) {
        return Err(format!("path-end pair {k} out of range ({pairs} pairs)"));
    }
    // `Probe` names a probe of the sink, not a constant: only its presence is checked here.
    if matches!(ins, Instr::Probe { .. } | Instr::ProbePath { .. }) {
        return Ok(());
    }
    match operands.iter().find(|q| q.index() >= n) {
        Some(q) => Err(format!("probe constant {q} out of range ({n} constants)")),
        None => Ok(()),
    }
}

/// Checks one function of `program` (which may be a modified copy of one of its functions, as
/// long as calls and globals refer to `program`). Compiled code contains no probe
/// instructions; [`verify_instrumented`] checks a version that does.
pub fn verify_function(program: &Program, func: &Function) -> Result<(), VerifyError> {
    verify_instrumented(program, func, Body::of(func), None)
}

/// The parts of a function that a code version replaces: its instructions, their source
/// locations and its jump tables. The rest (registers, constants, shapes, sites) is the
/// function's.
#[derive(Clone, Copy, Debug)]
pub struct Body<'a> {
    /// The instructions.
    pub code: &'a [Instr],
    /// One source location per instruction.
    pub locs: &'a [Loc],
    /// The jump tables `JTab` instructions name.
    pub tables: &'a [JumpTable],
}

impl<'a> Body<'a> {
    /// The function's own code.
    pub fn of(func: &'a Function) -> Self {
        Body {
            code: &func.code,
            locs: &func.locs,
            tables: &func.tables,
        }
    }
}

/// Checks a code version `body` of `func`, one of `program`'s functions (checked without
/// copying the function): as [`verify_function`], and (invariant 7) the path instructions'
/// probe-constant and path-end pair operands are in `probe`'s tables. `None` means plain
/// compiled code, where every probe instruction is an error.
pub fn verify_instrumented(
    program: &Program,
    func: &Function,
    body: Body<'_>,
    probe: Option<ProbeTables>,
) -> Result<(), VerifyError> {
    let err = |pc: Option<usize>, message: String| VerifyError {
        function: func.name.clone(),
        pc,
        message,
    };
    let n = body.code.len();
    if n == 0 || n > usize::from(u16::MAX) {
        return Err(err(None, format!("code length {n} out of range")));
    }
    if !body.code[n - 1].is_terminator() {
        return Err(err(Some(n - 1), "last instruction falls through".into()));
    }
    if body.locs.len() != n {
        return Err(err(None, "locs and code differ in length".into()));
    }
    let nregs = usize::from(func.num_regs);
    if nregs == 0 || func.num_params > func.num_locals || func.num_locals > func.num_regs {
        return Err(err(None, "register window too small".into()));
    }
    if let Some(r) = func.array_params.iter().find(|r| r.0 >= func.num_params) {
        return Err(err(None, format!("array parameter {r} is not a parameter")));
    }
    if !func.array_bytes.is_multiple_of(ARRAY_ALIGN) {
        return Err(err(
            None,
            format!(
                "array area of {} bytes is not a multiple of {ARRAY_ALIGN}",
                func.array_bytes
            ),
        ));
    }
    for o in &func.frame_objects {
        if u64::from(o.offset) + u64::from(o.size) > u64::from(func.array_bytes) {
            return Err(err(
                None,
                format!("frame object `{}` lies outside the array area", o.name),
            ));
        }
    }
    for (pc, ins) in body.code.iter().enumerate() {
        let here = |m: String| err(Some(pc), m);
        let mut bad_reg = None;
        ins.for_each_reg(|r| {
            if r.index() >= nregs {
                bad_reg = Some(r);
            }
        });
        if let Some(r) = bad_reg {
            return Err(here(format!("register {r} >= {nregs}")));
        }
        if let Some(t) = ins.target() {
            if t.index() >= n {
                return Err(here(format!("target {t} out of range")));
            }
        }
        let range_ok = |a: usize, len: usize| a + len <= nregs;
        if let (Some(g), Some(width)) = (ins.global_addr(), ins.access_bytes()) {
            let end = u64::from(g.0) + u64::from(width);
            if g.0 < FIRST_GLOBAL
                || end > u64::from(program.globals_end)
                || !g.0.is_multiple_of(width)
            {
                return Err(here(format!(
                    "global access of {width} bytes at {g} outside the globals or misaligned"
                )));
            }
        }
        match *ins {
            Instr::LoadK { k, .. } if k.index() >= func.consts.len() => {
                return Err(here(format!("constant {k} out of range")));
            }
            Instr::LocalArr { k, .. } if k.index() >= func.consts.len() => {
                return Err(here(format!("constant {k} out of range")));
            }
            Instr::FrameObj { imm, .. }
                if imm < 0
                    || imm
                        & !(super::FRAME_OBJECT_INDEX | super::SCOPE_BEGIN | super::SCOPE_END)
                        != 0
                    || imm & super::SCOPE_BEGIN != 0 && imm & super::SCOPE_END != 0
                    || (imm & super::FRAME_OBJECT_INDEX) as usize >= func.frame_objects.len() =>
            {
                return Err(here(format!("frame object {imm} out of range")));
            }
            Instr::Row { s, .. } | Instr::ZeroArr { s, .. } if s.index() >= func.shapes.len() => {
                return Err(here(format!("shape {s} out of range")));
            }
            Instr::JTab { tab, .. } => {
                let Some(table) = body.tables.get(tab.index()) else {
                    return Err(here(format!("jump table {tab} out of range")));
                };
                if table
                    .targets
                    .iter()
                    .chain([&table.default])
                    .any(|t| t.index() >= n)
                {
                    return Err(here(format!("jump table {tab} has a target out of range")));
                }
            }
            Instr::Call { a, f } => {
                let Some(callee) = program.functions.get(f.index()) else {
                    return Err(here(format!("function {f} does not exist")));
                };
                if !range_ok(a.index(), usize::from(callee.num_params).max(1)) {
                    return Err(here(format!("arguments of {f} overflow the window")));
                }
            }
            Instr::CallInd { a, n, .. } if !range_ok(a.index(), usize::from(n).max(1)) => {
                return Err(here("indirect call arguments overflow the window".into()));
            }
            Instr::Lib { f, a } => {
                if f == MemFn::Qsort {
                    return Err(here("qsort is library code, not an instruction".into()));
                }
                if !range_ok(a.index(), f.signature().1.len().max(1)) {
                    return Err(here(format!("arguments of {f} overflow the window")));
                }
            }
            Instr::Sprintf { a, p } => match func.sites.get(p.index()) {
                Some(site @ Site::Sprintf { .. }) => {
                    if !range_ok(a.index(), site.reg_args()) {
                        return Err(here("sprintf arguments overflow the window".into()));
                    }
                }
                _ => return Err(here(format!("{p} is not a sprintf site"))),
            },
            Instr::Printf { a, p } => match func.sites.get(p.index()) {
                Some(site @ Site::Printf { .. }) => {
                    if !range_ok(a.index(), site.reg_args()) {
                        return Err(here("printf arguments overflow the window".into()));
                    }
                }
                _ => return Err(here(format!("{p} is not a printf site"))),
            },
            Instr::Puts { p, .. } if !matches!(func.sites.get(p.index()), Some(Site::Puts(_))) => {
                return Err(here(format!("{p} is not a puts site")));
            }
            Instr::PathSet { k: q }
            | Instr::PathAdd { k: q }
            | Instr::PathJmp { k: q, .. }
            | Instr::PathCount { c: q }
            | Instr::PathCountK { c: q }
            | Instr::RetPc { c: q, .. }
            | Instr::RetVPc { c: q }
            | Instr::Probe { k: q }
            | Instr::ProbePath { k: q } => {
                probe_operands_ok(probe, &[q], None, ins).map_err(here)?
            }
            Instr::PathEnd { c, s } | Instr::PathEndJmp { c, s, .. } => {
                probe_operands_ok(probe, &[c, s], None, ins).map_err(here)?
            }
            _ => {
                if let Some((_, k)) = ins.path_end_on_taken() {
                    probe_operands_ok(probe, &[], Some(k), ins).map_err(here)?
                }
            }
        }
    }
    // Invariant 5: local arrays inside the frame's area.
    for (pc, ins) in body.code.iter().enumerate() {
        if let Instr::LocalArr { k, .. } = *ins {
            let r = ArrayRef::unpack(func.consts[k.index()]);
            if !r.base.is_multiple_of(ARRAY_ALIGN)
                || u64::from(r.base) + u64::from(r.dim) > u64::from(func.array_bytes)
            {
                return Err(err(Some(pc), "local array outside the frame's area".into()));
            }
        }
    }
    Ok(())
}
