//! The compiler: typed HIR to register bytecode.
//!
//! One pass over each function's HIR, emitting [`Instr`]s into a growing vector, in the style
//! of Lua's `lcode.c`:
//!
//! * **Registers as a stack.** Every local (parameters first, then each declaration, including
//!   array references) is pinned to its own register for the whole function. Temporaries are
//!   handed out above them in LIFO order (`FnCompiler::alloc`); a statement releases all its
//!   temporaries, and the maximum ever used gives `num_regs`.
//! * **Destinations instead of moves.** Expression compilation takes an optional destination
//!   register; a node writes its result there with its own final instruction instead of
//!   computing into a temporary and moving (the idea behind Lua's `VRELOC` and wasmi's
//!   result retargeting). A read of a local with no destination needs no code at all.
//! * **Conditions as branches.** Conditions of `if`, loops, `?:`, `&&`, `||` and `!` compile to
//!   fused compare-and-branch instructions (`JLt r1, r2`, `JLtI r1, 10`) jumping to patch lists,
//!   never materialising 0/1 unless a value is needed.
//! * **Loops test at the bottom**, so each iteration runs one branch; `for (...; i < n; i++)`
//!   over an `int` or `long` becomes a single `IncJLt32`/`IncJLt64` per iteration.
//! * **`switch`**: a jump table (`JTab`) when the cases are dense, else a chain of equality
//!   branches; case labels anywhere in the body become the targets.
//! * **Runtime checks** are part of the instructions: `Div*`/`Rem*` trap on zero, `Row`/`LdE`/
//!   `StE` check each index against its dimension, shifts check their count, `Call` checks
//!   the depth.
//!
//! ## Evaluation order
//!
//! C leaves unspecified the order in which the operands of most operators and the arguments
//! of a call are evaluated, yet programs whose side effects are observed in that order are
//! valid, and gcc is our reference. These rules were measured against gcc 12.2 x86-64
//! (`gcc -std=c99 -fwrapv -O0`) with small programs tracing calls (`programs/eval_order_rules.c`
//! prints one line per rule and is compared with gcc by the e2e tests):
//!
//! | # | construct | gcc -O0 order (what we compile) |
//! |---|-----------|----------------------------------|
//! | 1 | call arguments: user functions, `printf`, library functions (`pow(f(), g())`) | last argument to first, each fully (nested calls included) before the previous one; the row indices of an array argument likewise |
//! | 2 | operands of `+ - * / % << >> & \| ^ < <= > >= == !=`, indices `m[i][j]`, loads | left to right (first index first) |
//! | 3 | `a[i]..[k] = v` | `v` a call (user or library function, not under a conversion, possibly after comma operands): the call's arguments, the indices, then the call and the store; any other `v`: `v` first, then the indices |
//! | 4 | `p op= v` (element or global) | `v` first if it has side effects (a call, an assignment, `++`/`--`, or `sqrt exp log log10 pow atan2 fmod`, which may set `errno`; not `abs labs fabs floor ceil atan sin cos tan`); else the indices first. `++`/`--`: indices, load, store |
//! | 5 | `g op f()` with `op` in `+ * & \| ^` or a comparison, `g` a global scalar (through same-size integer conversions) | `f()` first, `g` read after: gcc's folding puts a variable second (`g < f()` becomes `f() > g`) |
//! | 6 | `(-A) + B`, `(~A) + B` (`B` not a negation); integer `A - (B - C)` | `B` before `A` (folded to `B - A`, `B - A - 1`); `A`, `C`, `B` (folded to `A + (C - B)`) |
//! | 7 | `,` `?:` `&&` `\|\|`, initializer lists, `return` | defined by C: left to right, in order |
//!
//! Rules 3 to 6 are applied only where the order can be observed (a call on the other side,
//! indices that read memory or can trap); elsewhere the cheaper code is kept. Runtime traps
//! follow the same order: each check sits in the instruction of its subexpression (a row
//! index `m[i][..]` is checked when its `Row` runs, before a call stored into the element; the
//! element's index when it is loaded or stored; a division when it is evaluated), so a program
//! traps where gcc's evaluation would reach the faulty subexpression. Not reproduced: gcc's
//! other folding rewrites that move operands, such as `(g + 1) + f()` reassociated to
//! `(g + f()) + 1`, `(g + 0) + f()` or `x + f() * 0`.
//!
//! One more of gcc's folds changes a value, not an order, and is reproduced: `0.0 - x` becomes
//! `-x` when `x` cannot be -0.0 (converted from an integer, `fabs`, a constant other than -0.0,
//! or a conditional of such arms), so `0.0 - 0` and `0 - (c ? i : 1.5)` are -0.0.
//!
//! ## Memory layout
//!
//! C's layout, byte-addressed (see [`crate::bytecode`]): the globals from byte
//! [`FIRST_GLOBAL`] in declaration order, a scalar at a multiple of its size, an array at a
//! multiple of [`ARRAY_ALIGN`], with their initial values as bytes (`GlobalLayout`); each
//! function's local arrays in its frame's array area (zeroed at entry), each at a multiple of
//! [`ARRAY_ALIGN`] from the area's start. Every load and store names its element's width and
//! signedness (`LdE32S`, `StE8`, `GetGF32`, ...), and `Row` strides are in bytes. A prologue,
//! inserted in front of the body once it is known which arrays the function uses, loads the
//! references of the local arrays (`LocalArr`) and of the global arrays the function touches
//! (`LoadK`).

mod calls;
mod conditions;
mod constants;
mod effects;
mod expr;
mod instrs;
mod places;
mod pointers;
mod scopes;
mod stmt;

use std::collections::HashMap;

use crate::bytecode::{
    static_pointer, Addr, ArrayRef, ConstIdx, FrameObject, FuncIdx, Function, GlobalInfo, Instr,
    JumpTable, Loc, Pc, Program, Reg, Shape, ShapeIdx, Site, SiteIdx, StaticObject, TableIdx,
    ARRAY_ALIGN, FIRST_GLOBAL,
};
use crate::diag::{Diagnostic, Diagnostics};
use crate::hir::{self, ConstValue, GlobalId, LabelId, LocalId, ScalarType, Type};
use crate::preprocess::SourceMap;
use crate::span::Span;

/// Compiles a checked program. Fails (with diagnostics naming the function) only when a
/// function exceeds the bytecode's limits (65,535 instructions or registers per function,
/// 2^31 bytes of globals or of one function's local arrays).
pub fn compile_program(program: &hir::Program, lines: &SourceMap) -> Result<Program, Diagnostics> {
    let units = vec![0; program.functions.len()];
    compile_units(program, &[lines], &units).map_err(|errors| {
        let mut diags = Diagnostics::new();
        errors.into_iter().for_each(|(_, d)| diags.push(d));
        diags
    })
}

/// Compiles a checked program of several translation units: function `i` was checked in unit
/// `func_unit[i]`, whose preprocessed text `maps[func_unit[i]]` maps back to its files. The
/// bytecode's [`Program::files`] are the units' main files, so a function's
/// [`Function::file`] is its unit. Errors are as [`compile_program`]'s, each with the unit
/// whose preprocessed text its span is in.
pub fn compile_units(
    program: &hir::Program,
    maps: &[&SourceMap],
    func_unit: &[u32],
) -> Result<Program, Vec<(u32, Diagnostic)>> {
    let mut diags = Vec::new();
    let layout = match GlobalLayout::of(program) {
        Ok(layout) => layout,
        Err(d) => {
            diags.push((0, d));
            return Err(diags);
        }
    };
    if program.functions.len() > usize::from(u16::MAX) {
        diags.push((
            0,
            Diagnostic::error(
                program.functions[0].span,
                "too many functions (at most 65535)",
            ),
        ));
        return Err(diags);
    }
    let mut layout = layout;
    let mut statics = Statics::new(&layout);
    if let Err(d) = relocate(program, &mut layout, &mut statics) {
        diags.push((0, d));
        return Err(diags);
    }
    let statics = std::cell::RefCell::new(statics);
    let mut functions = Vec::with_capacity(program.functions.len());
    for (i, func) in program.functions.iter().enumerate() {
        let unit = func_unit.get(i).copied().unwrap_or(0);
        let Some(lines) = maps.get(unit as usize) else {
            diags.push((
                0,
                Diagnostic::error(func.span, "internal error: no source map"),
            ));
            continue;
        };
        match FnCompiler::new(program, func, lines, &layout.addrs, &statics).compile() {
            Ok(mut f) => {
                f.file = unit;
                functions.push(f)
            }
            Err(d) => diags.push((unit, d)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let statics = statics.into_inner();
    let mut memory_init = layout.init;
    let mut globals_end = layout.end;
    if !statics.bytes.is_empty() {
        let start = statics.start as usize;
        memory_init.resize(start, 0);
        memory_init.extend_from_slice(&statics.bytes);
        globals_end = align_up((start + statics.bytes.len()) as u64, ARRAY_ALIGN) as u32;
    }
    Ok(Program {
        functions,
        main: FuncIdx(program.main.0 as u16),
        globals: layout.globals,
        memory_init,
        globals_end,
        static_objects: statics.objects,
        files: maps
            .iter()
            .map(|m| m.main_file_name().to_string())
            .collect(),
    })
}

/// The objects with static storage pointers may point to: the globals, then the string
/// literals the program uses as values, laid out after the globals as the functions are
/// compiled (a literal used twice is one object).
struct Statics {
    objects: Vec<StaticObject>,
    strings: HashMap<Vec<u8>, u64>,
    /// Bytes of the string literals, from address `start`.
    bytes: Vec<u8>,
    start: u32,
}

impl Statics {
    /// The globals of `layout`.
    fn new(layout: &GlobalLayout) -> Statics {
        Statics {
            objects: layout
                .globals
                .iter()
                .map(|g| StaticObject {
                    name: g.name.clone(),
                    addr: g.addr.0,
                    size: g.size,
                })
                .collect(),
            strings: HashMap::new(),
            bytes: Vec::new(),
            start: layout.end,
        }
    }

    /// The pointer to global `g`.
    fn global(&self, g: GlobalId) -> u64 {
        static_pointer(g.index(), self.objects[g.index()].addr)
    }

    /// The pointer to the string literal `bytes` (with its NUL), laid out on first use.
    fn string(&mut self, bytes: &[u8]) -> u64 {
        if let Some(&p) = self.strings.get(bytes) {
            return p;
        }
        let addr = self.start + self.bytes.len() as u32;
        self.bytes.extend_from_slice(bytes);
        let shown: String = String::from_utf8_lossy(&bytes[..bytes.len().saturating_sub(1)])
            .chars()
            .take(24)
            .collect();
        let p = static_pointer(self.objects.len(), addr);
        self.objects.push(StaticObject {
            name: format!("{shown:?}"),
            addr,
            size: bytes.len() as u32,
        });
        self.strings.insert(bytes.to_vec(), p);
        p
    }
}

/// One scalar of a global's initial bytes: address, value bits, width, and for a bit-field
/// its first bit and width.
type Write = (usize, u64, u32, Option<(u32, u32)>);

/// Writes what the layout left out of the globals' initial bytes: the scalars of structure
/// initializers (bit-fields merged into their units), and the address constants (pointers to
/// globals and string literals, which this lays out).
fn relocate(
    program: &hir::Program,
    layout: &mut GlobalLayout,
    statics: &mut Statics,
) -> Result<(), Diagnostic> {
    let address = |v: &ConstValue, statics: &mut Statics| -> Result<u64, ()> {
        match v {
            ConstValue::Int(i) => Ok(*i as u64),
            ConstValue::Double(d) => Ok(d.to_bits()),
            ConstValue::Address { base, offset } => {
                let p = match base {
                    hir::AddressBase::Global(g) => statics.global(*g),
                    hir::AddressBase::String(bytes) => statics.string(bytes),
                    hir::AddressBase::Function(f) => {
                        crate::bytecode::function_pointer(crate::bytecode::FuncIdx(f.0 as u16))
                    }
                };
                Ok(p.wrapping_add(*offset as u64))
            }
        }
    };
    let unsupported = |g: &hir::Global| {
        Diagnostic::error(
            g.span,
            "function pointers are not supported by the code generator yet",
        )
    };
    for (i, g) in program.globals.iter().enumerate() {
        let addr = layout.addrs[i] as usize;
        let mut writes: Vec<Write> = Vec::new();
        if matches!(g.ty, Type::Object { .. }) {
            for f in &g.fields {
                let bits = match (&f.value, f.ty) {
                    (ConstValue::Double(d), ScalarType::Float) => u64::from((*d as f32).to_bits()),
                    (v, _) => address(v, statics).map_err(|()| unsupported(g))?,
                };
                writes.push((addr + f.offset as usize, bits, f.ty.bytes(), f.bits));
            }
        } else {
            let elem = g.ty.elem();
            for (k, v) in g.init.iter().enumerate() {
                if let ConstValue::Address { .. } = v {
                    let bits = address(v, statics).map_err(|()| unsupported(g))?;
                    let at = addr + k * elem.bytes() as usize;
                    writes.push((at, bits, elem.bytes(), None));
                }
            }
        }
        for (at, bits, width, field) in writes {
            let width = width as usize;
            if layout.init.len() < at + width {
                layout.init.resize(at + width, 0);
            }
            let slot = &mut layout.init[at..at + width];
            let mut unit = [0u8; 8];
            unit[..width].copy_from_slice(slot);
            let old = u64::from_le_bytes(unit);
            let new = match field {
                None => bits,
                Some((bit, w)) => {
                    let mask = (u64::MAX >> (64 - w)) << bit;
                    (old & !mask) | ((bits << bit) & mask)
                }
            };
            slot.copy_from_slice(&new.to_le_bytes()[..width]);
        }
    }
    Ok(())
}

/// The most bytes of globals, and of one function's local arrays (byte addresses are 32-bit,
/// and the array stack needs room above the globals).
const MAX_AREA_BYTES: u64 = u32::MAX as u64 / 2;

/// Rounds `n` up to a multiple of `align` (a power of two).
fn align_up(n: u64, align: u32) -> u64 {
    let a = u64::from(align);
    (n + a - 1) & !(a - 1)
}

/// The alignment of a variable of type `ty`: a scalar's size, for arrays [`ARRAY_ALIGN`]
/// (at least their element's size, or a structure's alignment; see `lang::bytecode`'s
/// module docs).
fn alignment(ty: &Type) -> u32 {
    match ty {
        Type::Scalar(t) => t.bytes(),
        Type::Object { align, .. } => ARRAY_ALIGN.max(*align as u32),
        _ => ARRAY_ALIGN.max(ty.elem().bytes()),
    }
}

/// Where the globals live: C's layout from byte [`FIRST_GLOBAL`], in declaration order, each
/// at its natural alignment (see `lang::bytecode`'s module docs), and their initial bytes.
struct GlobalLayout {
    /// Byte address of each global, by [`GlobalId`].
    addrs: Vec<u32>,
    globals: Vec<GlobalInfo>,
    /// Initial bytes from address 0, without trailing zeros.
    init: Vec<u8>,
    /// End of the globals, a multiple of [`ARRAY_ALIGN`].
    end: u32,
}

impl GlobalLayout {
    fn of(program: &hir::Program) -> Result<GlobalLayout, Diagnostic> {
        let mut next = u64::from(FIRST_GLOBAL);
        let mut layout = GlobalLayout {
            addrs: Vec::with_capacity(program.globals.len()),
            globals: Vec::with_capacity(program.globals.len()),
            init: Vec::new(),
            end: 0,
        };
        for g in &program.globals {
            let elem = g.ty.elem();
            let len = g.ty.size().unwrap_or(1);
            let addr = align_up(next, alignment(&g.ty).max(g.align as u32));
            let size = len * u64::from(elem.bytes());
            next = addr + size;
            if next > MAX_AREA_BYTES {
                return Err(Diagnostic::error(
                    g.span,
                    format!("global arrays too large (more than {MAX_AREA_BYTES} bytes in all)"),
                ));
            }
            for (i, v) in g.init.iter().take(len as usize).enumerate() {
                let bits = match *v {
                    ConstValue::Int(i) => i as u64,
                    ConstValue::Double(d) if elem == ScalarType::Float => {
                        u64::from((d as f32).to_bits())
                    }
                    ConstValue::Double(d) => d.to_bits(),
                    // Filled in once the string literals are laid out (`relocate`).
                    ConstValue::Address { .. } => 0,
                };
                if bits == 0 {
                    continue;
                }
                let at = (addr + i as u64 * u64::from(elem.bytes())) as usize;
                let bytes = &bits.to_le_bytes()[..elem.bytes() as usize];
                if layout.init.len() < at + bytes.len() {
                    layout.init.resize(at + bytes.len(), 0);
                }
                layout.init[at..at + bytes.len()].copy_from_slice(bytes);
            }
            layout.addrs.push(addr as u32);
            layout.globals.push(GlobalInfo {
                name: g.name.clone(),
                addr: Addr(addr as u32),
                len: len as u32,
                size: size as u32,
            });
        }
        layout.end = align_up(next, ARRAY_ALIGN) as u32;
        Ok(layout)
    }
}

/// Provisional numbers of the registers pinned to global array references count down from
/// here (see `FnCompiler::renumber_pinned`).
const PINNED_TOP: u16 = u16::MAX;

/// A place in the code whose jump target is patched later.
type Patch = usize;

/// What `break`/`continue` refer to.
enum Ctx {
    Loop {
        breaks: Vec<Patch>,
        continues: Vec<Patch>,
        /// The scopes with objects open outside the loop (`scopes::Scopes::open`).
        scopes: usize,
    },
    Switch {
        /// The scopes with objects open outside the `switch`.
        scopes: usize,
        breaks: Vec<Patch>,
        /// (case values, pc of its label once seen).
        cases: Vec<(hir::CaseRange, Option<usize>)>,
        default: Option<usize>,
    },
}

/// The per-function compiler state (see the module docs).
struct FnCompiler<'a> {
    program: &'a hir::Program,
    func: &'a hir::Function,
    lines: &'a SourceMap,
    global_addrs: &'a [u32],
    /// The program's static objects (globals, string literals).
    statics: &'a std::cell::RefCell<Statics>,
    /// For each local that pointers may point to: its register holding the pointer to it
    /// and its index in `frame_objects`.
    frame_obj: Vec<Option<Reg>>,
    /// The function's frame objects.
    frame_objects: Vec<FrameObject>,
    code: Vec<Instr>,
    locs: Vec<Loc>,
    consts: Vec<u64>,
    const_map: HashMap<u64, ConstIdx>,
    shapes: Vec<Shape>,
    tables: Vec<JumpTable>,
    sites: Vec<Site>,
    /// Register of each local (scalar value or array reference).
    local_reg: Vec<Reg>,
    /// Frame-relative slot of each local array (`None` for scalars and array parameters).
    local_array_off: Vec<Option<u32>>,
    /// Registers holding references to global arrays, assigned on first use.
    global_array_reg: HashMap<GlobalId, Reg>,
    /// First free register (the top of the register stack).
    free: u32,
    /// Highest register count ever used.
    max_regs: u32,
    /// Bytes of the frame's local arrays so far (each array 8-aligned).
    array_bytes: u64,
    ctx: Vec<Ctx>,
    loc: Loc,
    /// The highest instruction index some jump targets (`None` before any patch): when it is
    /// the next instruction to be emitted, control can arrive there even if the last emitted
    /// instruction never falls through.
    last_label: Option<usize>,
    /// Statement labels: where each is (once compiled) and the `goto`s waiting for it.
    labels: HashMap<LabelId, GotoLabel>,
    /// The block scopes of the locals pointers may point to.
    scopes: scopes::Scopes,
    error: Option<Diagnostic>,
}

/// A `goto` target while its function is compiled.
#[derive(Default)]
struct GotoLabel {
    /// Its instruction index, once the label has been reached.
    at: Option<usize>,
    /// Jumps emitted before it was reached, to patch then.
    pending: Vec<Patch>,
}

impl<'a> FnCompiler<'a> {
    fn new(
        program: &'a hir::Program,
        func: &'a hir::Function,
        lines: &'a SourceMap,
        global_addrs: &'a [u32],
        statics: &'a std::cell::RefCell<Statics>,
    ) -> FnCompiler<'a> {
        let mut c = FnCompiler {
            program,
            func,
            lines,
            global_addrs,
            statics,
            frame_obj: Vec::with_capacity(func.locals.len()),
            frame_objects: Vec::new(),
            code: Vec::new(),
            locs: Vec::new(),
            consts: Vec::new(),
            const_map: HashMap::new(),
            shapes: Vec::new(),
            tables: Vec::new(),
            sites: Vec::new(),
            local_reg: Vec::with_capacity(func.locals.len()),
            local_array_off: Vec::with_capacity(func.locals.len()),
            global_array_reg: HashMap::new(),
            free: 0,
            max_regs: 0,
            array_bytes: 0,
            ctx: Vec::new(),
            loc: Loc::default(),
            last_label: None,
            labels: HashMap::new(),
            scopes: scopes::Scopes::default(),
            error: None,
        };
        for local in &func.locals {
            let r = c.alloc();
            c.local_reg.push(r);
            let off = match &local.ty {
                Type::Array { .. } | Type::Object { .. } => {
                    let bytes = local.ty.size().unwrap_or(0) * u64::from(local.ty.elem().bytes());
                    let align = match local.ty {
                        Type::Object { align, .. } => align.max(u64::from(ARRAY_ALIGN)),
                        _ => u64::from(ARRAY_ALIGN),
                    };
                    if align.max(local.align) > u64::from(ARRAY_ALIGN) && c.error.is_none() {
                        // The frame's area is aligned to ARRAY_ALIGN only.
                        c.error = Some(Diagnostic::error(
                            local.span,
                            format!(
                                "`{}` needs an alignment of {} bytes, which a local variable cannot have in the VM: its frames are aligned to {ARRAY_ALIGN} bytes (declare it `static`)",
                                local.name,
                                align.max(local.align)
                            ),
                        ));
                    }
                    let off = align_up(c.array_bytes, align as u32);
                    c.array_bytes = off + bytes;
                    Some(off.min(u64::from(u32::MAX)) as u32)
                }
                _ => None,
            };
            c.local_array_off.push(off);
        }
        // The locals pointers may point to: each is an object of its own while the function
        // runs, its pointer in a register of its own.
        let addressed = addressed_locals(&func.body.stmts);
        for (i, local) in func.locals.iter().enumerate() {
            let id = LocalId::new(i);
            let in_memory = addressed.contains(&id) || matches!(local.ty, Type::Object { .. });
            let obj = match (c.local_array_off[i], in_memory) {
                (Some(offset), true) => {
                    let size = local.ty.size().unwrap_or(0) * u64::from(local.ty.elem().bytes());
                    c.frame_objects.push(FrameObject {
                        offset,
                        size: size as u32,
                        name: local.name.clone(),
                    });
                    Some(c.alloc())
                }
                _ => None,
            };
            c.frame_obj.push(obj);
        }
        // Object indices follow the locals' order, as the prologue registers them.
        let mut index = 0;
        let indices: Vec<Option<i32>> = c
            .frame_obj
            .iter()
            .map(|r| {
                r.map(|_| {
                    index += 1;
                    index - 1
                })
            })
            .collect();
        let frame_obj = &c.frame_obj;
        c.scopes = scopes::Scopes::of(&func.body, &|l: LocalId| {
            let r = frame_obj[l.index()].filter(|_| addressed.contains(&l))?;
            Some((r, indices[l.index()]?))
        });
        c
    }

    /// `return;` of a `void` function. Old C's `void main()` returns 0 to whoever started
    /// the program: its exit status is 0 (what gcc's code leaves is unspecified).
    fn void_return(&mut self) {
        let main = &self.program.functions[self.program.main.index()];
        if std::ptr::eq(self.func, main) {
            let r = self.alloc();
            self.emit(Instr::LoadI { a: r, imm: 0 });
            self.emit(Instr::Ret { a: r });
        } else {
            self.emit(Instr::RetV {});
        }
    }

    fn compile(mut self) -> Result<Function, Diagnostic> {
        self.loc = self.loc_of(self.func.span);
        let body = &self.func.body;
        self.block(body);
        // Falling off the end: `void` functions return; `main` returns 0 (C99); other
        // functions return 0 (C leaves the value undefined).
        self.loc = self.loc_of(Span::new(body.span.end as usize, body.span.end as usize));
        if self.reachable_here() {
            if self.func.ret.is_some() {
                let r = self.alloc();
                self.emit(Instr::LoadI { a: r, imm: 0 });
                self.emit(Instr::Ret { a: r });
            } else {
                self.void_return();
            }
        }
        self.renumber_pinned();
        if !self.frame_objects.is_empty() {
            // Returning ends the frame objects' lives (plain returns need no such work).
            for ins in &mut self.code {
                *ins = match *ins {
                    Instr::Ret { a } => Instr::RetF { a },
                    Instr::RetV {} => Instr::RetVF {},
                    other => other,
                };
            }
        }
        self.insert_prologue();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let array_bytes = align_up(self.array_bytes, ARRAY_ALIGN);
        if array_bytes > MAX_AREA_BYTES {
            return Err(Diagnostic::error(self.func.span, "local arrays too large"));
        }
        if self.code.len() > usize::from(u16::MAX) {
            return Err(Diagnostic::error(
                self.func.span,
                format!(
                    "function `{}` is too large for the bytecode ({} instructions, at most 65535)",
                    self.func.name,
                    self.code.len()
                ),
            ));
        }
        if self.max_regs > u32::from(u16::MAX) {
            return Err(Diagnostic::error(
                self.func.span,
                format!(
                    "function `{}` needs too many registers ({}, at most 65535)",
                    self.func.name, self.max_regs
                ),
            ));
        }
        Ok(Function {
            name: self.func.name.clone(),
            loc: self.loc_of(self.func.span),
            file: 0,
            num_params: self.func.params.len() as u16,
            array_params: self
                .func
                .params
                .iter()
                .filter(|&&p| matches!(self.func.local(p).ty, Type::ArrayRef { .. }))
                .map(|p| Reg(p.index() as u16))
                .collect(),
            num_locals: self.func.locals.len() as u16,
            num_regs: self.max_regs.max(1) as u16,
            array_bytes: array_bytes as u32,
            frame_objects: std::mem::take(&mut self.frame_objects),
            code: self.code,
            locs: self.locs,
            consts: self.consts,
            shapes: self.shapes,
            tables: self.tables,
            sites: self.sites,
        })
    }

    /// Whether control can reach the next instruction to be emitted: the last one falls
    /// through, or some jump targets this position.
    fn reachable_here(&self) -> bool {
        self.code.last().is_none_or(|i| !i.is_terminator())
            || self.last_label == Some(self.code.len())
    }

    /// Puts the array-reference set-up in front of the code, shifting every target.
    fn insert_prologue(&mut self) {
        let mut pro = Vec::new();
        for (index, r) in self.frame_obj.clone().into_iter().flatten().enumerate() {
            pro.push(Instr::FrameObj {
                a: r,
                imm: index as i32,
            });
        }
        for (i, off) in self.local_array_off.clone().into_iter().enumerate() {
            if let Some(off) = off {
                let dims = match &self.func.locals[i].ty {
                    Type::Array { dims, .. } => dims.clone(),
                    _ => continue,
                };
                let k = self.constant(
                    ArrayRef {
                        base: off,
                        dim: dims[0],
                    }
                    .pack(),
                );
                pro.push(Instr::LocalArr {
                    a: self.local_reg[i],
                    k,
                });
            }
        }
        let mut globals: Vec<(GlobalId, Reg)> = self
            .global_array_reg
            .iter()
            .map(|(g, r)| (*g, *r))
            .collect();
        globals.sort();
        for (g, r) in globals {
            let dims = match &self.program.global(g).ty {
                Type::Array { dims, .. } => dims[0],
                _ => 1,
            };
            let k = self.constant(
                ArrayRef {
                    base: self.global_addrs[g.index()],
                    dim: dims,
                }
                .pack(),
            );
            pro.push(Instr::LoadK { a: r, k });
        }
        if pro.is_empty() {
            return;
        }
        let shift = pro.len();
        for ins in &mut self.code {
            ins.for_each_target_mut(|p| {
                p.0 = (p.index() + shift).min(usize::from(u16::MAX)) as u16
            });
        }
        for t in &mut self.tables {
            for p in t.targets.iter_mut().chain([&mut t.default]) {
                p.0 = (p.index() + shift).min(usize::from(u16::MAX)) as u16;
            }
        }
        let loc = self.loc_of(self.func.span);
        let n = pro.len();
        self.code.splice(0..0, pro);
        self.locs.splice(0..0, std::iter::repeat_n(loc, n));
    }

    // ---- emission helpers ----

    fn loc_of(&self, span: Span) -> Loc {
        let lc = self.lines.main_line_col(span.start);
        Loc {
            line: lc.line,
            col: lc.col,
        }
    }

    /// Sets the source location of the instructions emitted next.
    fn at(&mut self, span: Span) {
        self.loc = self.loc_of(span);
    }

    fn emit(&mut self, ins: Instr) -> usize {
        self.code.push(ins);
        self.locs.push(self.loc);
        self.code.len() - 1
    }

    fn here(&self) -> usize {
        self.code.len()
    }

    /// The next instruction's index, recorded as a jump target: for positions some jump will
    /// target once it is emitted later (loop tops, `case` and statement labels), so that
    /// `reachable_here` knows control can arrive there before that jump exists.
    fn label_here(&mut self) -> usize {
        let here = self.here();
        self.pc(here);
        here
    }

    /// The jump target `at` (recorded as a label, see `last_label`).
    fn pc(&mut self, at: usize) -> Pc {
        self.last_label = Some(self.last_label.map_or(at, |l| l.max(at)));
        if at > usize::from(u16::MAX) && self.error.is_none() {
            self.error = Some(Diagnostic::error(
                self.func.span,
                format!(
                    "function `{}` is too large for the bytecode (more than 65535 instructions)",
                    self.func.name
                ),
            ));
        }
        Pc(at.min(usize::from(u16::MAX)) as u16)
    }

    /// Points the jump at `patch` to `target`.
    fn patch(&mut self, patch: Patch, target: usize) {
        let t = self.pc(target);
        self.code[patch].for_each_target_mut(|p| *p = t);
    }

    fn patch_all(&mut self, patches: Vec<Patch>, target: usize) {
        for p in patches {
            self.patch(p, target);
        }
    }

    /// Emits an unconditional jump to be patched.
    fn jump(&mut self) -> Patch {
        self.emit(Instr::Jmp { t: Pc(0) })
    }

    fn alloc(&mut self) -> Reg {
        let r = self.free;
        self.free += 1;
        self.max_regs = self.max_regs.max(self.free);
        Reg(r.min(u32::from(u16::MAX)) as u16)
    }

    fn constant(&mut self, bits: u64) -> ConstIdx {
        if let Some(&k) = self.const_map.get(&bits) {
            return k;
        }
        if self.consts.len() >= usize::from(u16::MAX) && self.error.is_none() {
            self.error = Some(Diagnostic::error(
                self.func.span,
                "too many constants in one function (at most 65535)",
            ));
        }
        let k = ConstIdx(self.consts.len().min(usize::from(u16::MAX)) as u16);
        self.consts.push(bits);
        self.const_map.insert(bits, k);
        k
    }

    fn shape(&mut self, stride: u32, inner: u32) -> ShapeIdx {
        let s = Shape { stride, inner };
        if let Some(i) = self.shapes.iter().position(|x| *x == s) {
            return ShapeIdx(i as u8);
        }
        if self.shapes.len() >= 256 && self.error.is_none() {
            self.error = Some(Diagnostic::error(
                self.func.span,
                "too many distinct array shapes in one function (at most 256)",
            ));
        }
        self.shapes.push(s);
        ShapeIdx((self.shapes.len() - 1).min(255) as u8)
    }

    fn site(&mut self, site: Site) -> SiteIdx {
        self.sites.push(site);
        SiteIdx((self.sites.len() - 1).min(usize::from(u16::MAX)) as u16)
    }

    fn table(&mut self, table: JumpTable) -> TableIdx {
        self.tables.push(table);
        TableIdx((self.tables.len() - 1).min(usize::from(u16::MAX)) as u16)
    }

    /// Loads a 64-bit pattern into `dst`.
    fn load_bits(&mut self, dst: Reg, bits: u64) {
        let v = bits as i64;
        if let Ok(imm) = i32::try_from(v) {
            self.emit(Instr::LoadI { a: dst, imm });
        } else {
            let k = self.constant(bits);
            self.emit(Instr::LoadK { a: dst, k });
        }
    }

    // ---- arrays ----

    /// The register holding the reference of an array variable, and the array's dimensions
    /// after the first (static).
    fn array_base(&mut self, base: hir::ArrayBase) -> (Reg, Vec<u32>) {
        match base {
            hir::ArrayBase::Local(l) => {
                let inner = match &self.func.local(l).ty {
                    Type::Array { dims, .. } => dims[1..].to_vec(),
                    Type::ArrayRef { inner, .. } => inner.clone(),
                    Type::Scalar(_) | Type::Object { .. } => Vec::new(),
                };
                (self.local_reg[l.index()], inner)
            }
            hir::ArrayBase::Global(g) => {
                let inner = match &self.program.global(g).ty {
                    Type::Array { dims, .. } => dims[1..].to_vec(),
                    _ => Vec::new(),
                };
                let r = match self.global_array_reg.get(&g) {
                    Some(&r) => r,
                    None => {
                        // A provisional register, renumbered above all others at the end
                        // (see `renumber_pinned`), so it never collides with a temporary.
                        let r = Reg(PINNED_TOP - self.global_array_reg.len() as u16);
                        self.global_array_reg.insert(g, r);
                        r
                    }
                };
                (r, inner)
            }
        }
    }

    /// The element type of an array variable.
    fn array_elem(&self, base: hir::ArrayBase) -> ScalarType {
        match base {
            hir::ArrayBase::Local(l) => self.func.local(l).ty.elem(),
            hir::ArrayBase::Global(g) => self.program.global(g).ty.elem(),
        }
    }

    /// Gives the provisional registers of global array references their final numbers, right
    /// above the locals, and moves every temporary up to make room. Pinned registers must lie
    /// below every temporary: a call's window starts at a temporary and overlaps everything
    /// above it.
    fn renumber_pinned(&mut self) {
        let n = self.global_array_reg.len() as u32;
        if n == 0 {
            return;
        }
        let floor = u32::from(PINNED_TOP) + 1 - n;
        let locals = self.func.locals.len() as u32;
        let map = |r: &mut Reg| {
            let v = u32::from(r.0);
            let new = if v >= floor {
                locals + (u32::from(PINNED_TOP) - v)
            } else if v >= locals {
                v + n
            } else {
                v
            };
            r.0 = new.min(u32::from(u16::MAX)) as u16;
        };
        for ins in &mut self.code {
            ins.for_each_reg_mut(map);
        }
        for r in self.global_array_reg.values_mut() {
            map(r);
        }
        for r in self.frame_obj.iter_mut().flatten() {
            map(r);
        }
        self.max_regs += n;
    }

    /// Computes the reference of the sub-array selected by `indices` (a prefix of the array's
    /// indices) into a register: `dst` if given.
    fn sub_array(&mut self, base: hir::ArrayBase, indices: &[hir::Expr], dst: Option<Reg>) -> Reg {
        let (mut cur, inner) = self.array_base(base);
        let elem_bytes = u64::from(self.array_elem(base).bytes());
        for (level, idx) in indices.iter().enumerate() {
            let count: u64 = inner[level..].iter().map(|&d| u64::from(d)).product();
            let stride = count * elem_bytes;
            let next = inner.get(level).copied().unwrap_or(1);
            let mark = self.free;
            let i = self.expr(idx, None);
            self.free = mark;
            let last = level + 1 == indices.len();
            let out = match (last, dst) {
                (true, Some(d)) => d,
                // From the second level on, `cur` is a temporary of ours: reuse it.
                _ if level > 0 => cur,
                _ => self.alloc(),
            };
            let s = self.shape(stride.min(u64::from(u32::MAX)) as u32, next);
            self.at(idx.span);
            self.emit(Instr::Row {
                a: out,
                b: cur,
                c: i,
                s,
            });
            cur = out;
        }
        if indices.is_empty() {
            if let Some(d) = dst {
                if d != cur {
                    self.emit(Instr::Mov { a: d, b: cur });
                }
                return d;
            }
        }
        cur
    }
}

/// Whether a scalar type is compared with signed (`<s`) or unsigned (`<u`) comparisons.
fn is_unsigned(t: ScalarType) -> bool {
    matches!(t, ScalarType::UInt | ScalarType::ULong | ScalarType::Ptr)
}

/// The locals whose address the body takes (`ObjectAddr`, `ElementAddr`).
fn addressed_locals(stmts: &[hir::Stmt]) -> std::collections::HashSet<LocalId> {
    let mut out = std::collections::HashSet::new();
    for_each_expr(stmts, &mut |e| match &e.kind {
        hir::ExprKind::ObjectAddr(hir::ArrayBase::Local(l))
        | hir::ExprKind::ElementAddr {
            array: hir::ArrayBase::Local(l),
            ..
        } => {
            out.insert(*l);
        }
        // An array passed to an array parameter: the callee may turn its reference into a
        // pointer, which must find the array's object.
        hir::ExprKind::Call { args, .. } | hir::ExprKind::CallIndirect { args, .. } => {
            for a in args {
                if let hir::Arg::Array {
                    base: hir::ArrayBase::Local(l),
                    ..
                } = a
                {
                    out.insert(*l);
                }
            }
        }
        _ => {}
    });
    out
}

/// Calls `f` on every expression of `stmts`, subexpressions included.
fn for_each_expr(stmts: &[hir::Stmt], f: &mut impl FnMut(&hir::Expr)) {
    fn expr(e: &hir::Expr, f: &mut impl FnMut(&hir::Expr)) {
        f(e);
        // The statements a compound literal or a statement expression runs first.
        if let hir::ExprKind::WithInit { init, .. } = &e.kind {
            for_each_expr(init, f);
        }
        for sub in effects::sub_exprs(e) {
            expr(sub, f);
        }
    }
    use hir::StmtKind as S;
    for s in stmts {
        match &s.kind {
            S::Block(b) => for_each_expr(&b.stmts, f),
            S::Expr(e) | S::Return(Some(e)) => expr(e, f),
            S::Decl { init, .. } => match init {
                Some(hir::Init::Scalar(e)) => expr(e, f),
                Some(hir::Init::Array(entries)) => entries.iter().for_each(|(_, e)| expr(e, f)),
                Some(hir::Init::Object(fields)) => fields.iter().for_each(|x| expr(&x.value, f)),
                None => {}
            },
            S::If {
                cond,
                then_branch,
                else_branch,
            } => {
                expr(cond, f);
                for_each_expr(std::slice::from_ref(then_branch), f);
                if let Some(e) = else_branch {
                    for_each_expr(std::slice::from_ref(e), f);
                }
            }
            S::While { cond, body } | S::DoWhile { body, cond } => {
                expr(cond, f);
                for_each_expr(std::slice::from_ref(body), f);
            }
            S::For {
                init,
                cond,
                step,
                body,
            } => {
                for_each_expr(init, f);
                if let Some(c) = cond {
                    expr(c, f);
                }
                if let Some(st) = step {
                    expr(st, f);
                }
                for_each_expr(std::slice::from_ref(body), f);
            }
            S::Switch { value, body, .. } => {
                expr(value, f);
                for_each_expr(&body.stmts, f);
            }
            _ => {}
        }
    }
}

/// The local a place names, if it is a scalar local.
fn place_local(p: &hir::Place) -> Option<LocalId> {
    match p {
        hir::Place::Local(l) => Some(*l),
        _ => None,
    }
}
