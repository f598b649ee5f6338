//! Register bytecode: the compiler's output and the interpreter's input.
//!
//! A [`Program`] is a list of [`Function`]s plus the initial contents of the global memory.
//! Each function has its own code (a vector of 8-byte [`Instr`]s, three-address, typed: the
//! static types of the language make run-time tag checks unnecessary), and side tables indexed
//! from the instructions: a constant pool, array shapes, jump tables, printf/puts sites, and the
//! source location of every instruction.
//!
//! ## Registers and frames
//! A function's registers `r0 .. r{num_regs-1}` are a window on one VM-wide stack of untyped
//! 64-bit slots. Parameters arrive in `r0 ..`; a call `Call rA, f` places the callee's window
//! at the caller's `rA` (the compiler put the arguments in `rA ..`), and the callee's result
//! comes back in `rA` (Lua's convention). The locals' registers are zero at function entry.
//!
//! ## Memory and arrays
//! Globals and arrays live in one VM-wide memory of bytes, addressed by `u32` byte addresses
//! ([`Addr`]), every value in its C representation (little-endian, at its C size: `_Bool` and
//! `char` 1 byte, `short` 2, `int` and `float` 4, `long` and `double` 8). Addresses
//! `0 .. FIRST_GLOBAL` (16) never hold an object, so a future null pointer (0) points at
//! nothing. The globals follow, in declaration order, each at its natural alignment (a scalar
//! at a multiple of its size, an array at a multiple of [`ARRAY_ALIGN`], 8); then, from
//! [`Program::globals_end`], the stack of per-frame array areas ([`Function::array_bytes`]
//! per function, zeroed at entry; every local array and every area starts at a multiple of 8).
//! An array value in a register is an [`ArrayRef`]: the byte address of its first element
//! and its first dimension; the other dimensions are static and stored in the function's
//! [`Shape`]s (strides in bytes), which `Row` uses to step into a sub-array. Loads and stores
//! name the element's width (`LdE32S`, `StE8`, ...): an element access scales the index by
//! it. Every index is checked against its dimension. This is C's layout, so a later `char *`
//! can address any byte of any object, and a pointer can be a 64-bit register value holding a
//! 32-bit byte address.
//!
//! ## Control flow
//! Jump targets are absolute instruction indices ([`Pc`]). The [`Flow`] of each opcode (derived
//! from the table in [`ops`]) is all a CFG builder needs: block leaders are instruction 0, every
//! jump target and every instruction after a branch or a return (see [`Function::leaders`]).
//! Loops are compiled with the test at the bottom, so the back edge of every loop is a
//! conditional branch (or a `Jmp`) to a lower pc; the interpreter's probe hooks see these.

pub mod disasm;
pub mod docs;
pub mod meter;
pub mod ops;
pub mod verify;

use std::fmt;

pub use ops::{Flow, Instr, MathFn, OpInfo, Opcode, Operand, OPCODES};

use crate::printf_format::Piece;

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident($inner:ty), $fmt:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub $inner);

        impl $name {
            /// The index as a `usize`.
            #[inline(always)]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, $fmt, self.0)
            }
        }
    };
}

index_type!(
    /// A register of the current window. Displays as `r3`.
    Reg(u16),
    "r{}"
);
index_type!(
    /// An instruction index within a function's code (a jump target). Displays as `@12`.
    Pc(u16),
    "@{}"
);
index_type!(
    /// An index into a function's constant pool. Displays as `k2`.
    ConstIdx(u16),
    "k{}"
);
index_type!(
    /// A byte address of the VM's memory (the operand of `GetG*`/`SetG*`: a global scalar).
    /// Displays as `m24`.
    Addr(u32),
    "m{}"
);
index_type!(
    /// An index into a function's array shapes. Displays as `s1`.
    ShapeIdx(u8),
    "s{}"
);
index_type!(
    /// An index into a function's jump tables. Displays as `t0`.
    TableIdx(u16),
    "t{}"
);
index_type!(
    /// A function of the program. Displays as `f2`.
    FuncIdx(u16),
    "f{}"
);
index_type!(
    /// An index into a function's printf/puts sites. Displays as `p0`.
    SiteIdx(u16),
    "p{}"
);
index_type!(
    /// An index into an instrumented version's probe constants (or, for `Probe`, a probe of
    /// the profiling mode's sink). Displays as `q4`.
    ProbeIdx(u16),
    "q{}"
);

index_type!(
    /// An index into an instrumented version's path-end pairs `E[k] = (c, s)`: a branch
    /// with a path end on its taken edge runs `count(P + c); P := s` (at most 256 pairs a
    /// version, so that such a branch fits in 8 bytes). Displays as `e1`.
    PairIdx(u8),
    "e{}"
);

/// The first byte address that can hold an object: `0 .. FIRST_GLOBAL` stay unused (0 is the
/// null pointer of a later pointer type). The first global lives here.
pub const FIRST_GLOBAL: u32 = 16;

/// The alignment of every array (global or local, whatever its element type) and of every
/// frame's array area, in bytes. At least the largest scalar's, so later pointer code can
/// rely on any array being 8-aligned.
pub const ARRAY_ALIGN: u32 = 8;

/// An array reference as held in a register: the byte address of element 0 (low 32 bits) and
/// the first dimension (high 32 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayRef {
    /// Byte address of the first element.
    pub base: u32,
    /// Number of elements (or rows) along the first dimension.
    pub dim: u32,
}

impl ArrayRef {
    /// Packs the reference into a register value.
    #[inline(always)]
    pub fn pack(self) -> u64 {
        u64::from(self.base) | (u64::from(self.dim) << 32)
    }

    /// Unpacks a register value.
    #[inline(always)]
    pub fn unpack(v: u64) -> ArrayRef {
        ArrayRef {
            base: v as u32,
            dim: (v >> 32) as u32,
        }
    }
}

/// The static part of an array type seen from one dimension: how many bytes one step along
/// that dimension covers, and the size of the next dimension. Used by `Row` and `ZeroArr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Bytes per step (the product of the remaining dimensions and the element size).
    pub stride: u32,
    /// The next dimension (the `dim` of the row reference `Row` produces).
    pub inner: u32,
}

/// The jump table of a `switch` compiled by `JTab`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTable {
    /// The case value of `targets[0]`.
    pub low: i64,
    /// Targets of the values `low, low + 1, ...`.
    pub targets: Vec<Pc>,
    /// Target of every other value.
    pub default: Pc,
}

/// How a printf argument register is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteArg {
    /// A signed integer register (`int`, `long`): the next argument register as `i64`.
    Int,
    /// An unsigned integer register (`unsigned`, `unsigned long`): the next register as `u64`.
    UInt,
    /// A `double` register.
    Double,
    /// A string literal (for `%s`): no register.
    Str(Vec<u8>),
    /// A pointer register: to the characters of a string for `%s`, printed for `%p`.
    Ptr,
}

/// A printf, puts or sprintf call site: the static data of one `Printf`, `Puts` or `Sprintf`
/// instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Site {
    /// `printf`: the parsed format and the arguments (consuming registers `a ..` in order).
    Printf {
        /// The parsed format string.
        format: Vec<Piece>,
        /// One entry per argument.
        args: Vec<SiteArg>,
    },
    /// `puts`: the text (a newline is added).
    Puts(Vec<u8>),
    /// `sprintf` (or `snprintf` if `bounded`): the parsed format and the arguments, which
    /// consume registers after the buffer (and the limit).
    Sprintf {
        /// Whether a size limit (`snprintf`) follows the buffer.
        bounded: bool,
        /// The parsed format string.
        format: Vec<Piece>,
        /// One entry per argument.
        args: Vec<SiteArg>,
    },
}

impl Site {
    /// Number of registers the site's arguments occupy.
    pub fn reg_args(&self) -> usize {
        match self {
            Site::Printf { args, .. } => args
                .iter()
                .filter(|a| !matches!(a, SiteArg::Str(_)))
                .count(),
            Site::Puts(_) => 0,
            Site::Sprintf { bounded, args, .. } => {
                1 + usize::from(*bounded)
                    + args
                        .iter()
                        .filter(|a| !matches!(a, SiteArg::Str(_)))
                        .count()
            }
        }
    }
}

/// A source location (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Loc {
    /// Line.
    pub line: u32,
    /// Column (bytes).
    pub col: u32,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An object in a function's array area that a pointer may point to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameObject {
    /// Its byte offset in the frame's array area.
    pub offset: u32,
    /// Its size in bytes.
    pub size: u32,
    /// The local's name (for runtime errors).
    pub name: String,
}

/// `FrameObj`'s `imm` with this bit: the block declaring frame object `imm & FRAME_OBJECT_INDEX`
/// is entered (see `lang/src/compile/scopes.rs`).
pub const SCOPE_BEGIN: i32 = 1 << 28;
/// `FrameObj`'s `imm` with this bit: the block declaring frame object `imm & FRAME_OBJECT_INDEX`
/// ends.
pub const SCOPE_END: i32 = 2 << 28;
/// The frame object index of a `FrameObj`'s `imm` (below [`SCOPE_BEGIN`]).
pub const FRAME_OBJECT_INDEX: i32 = SCOPE_BEGIN - 1;

/// An object with static storage that pointers may point to: a global variable or a string
/// literal. The VM registers them in order, so object `i` has slot `i + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticObject {
    /// Its name (`"s"`, or a string literal's text).
    pub name: String,
    /// Its byte address.
    pub addr: u32,
    /// Its size in bytes.
    pub size: u32,
}

/// The tag (high 32 bits) of every pointer to a function: slot 0, which no object has, with
/// generation 255, so that no access through it passes the memory's checks.
pub const FUNCTION_TAG: u32 = 0xff00_0000;

/// The pointer to function `f`: [`FUNCTION_TAG`] above the function's index (never null).
pub fn function_pointer(f: FuncIdx) -> u64 {
    (u64::from(FUNCTION_TAG) << 32) | u64::from(f.0)
}

/// The function `p` points to, if it is a pointer made by [`function_pointer`] for a function
/// of a program with `functions` functions.
pub fn pointer_function(p: u64, functions: usize) -> Option<FuncIdx> {
    let index = p as u32 as usize;
    ((p >> 32) as u32 == FUNCTION_TAG && index < functions).then_some(FuncIdx(index as u16))
}

/// The pointer to the start of static object `index` (slot `index + 1`, generation 0).
pub fn static_pointer(index: usize, addr: u32) -> u64 {
    ((index as u64 + 1) << 32) | u64::from(addr)
}

/// One compiled function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Its name in the source.
    pub name: String,
    /// Where it is defined.
    pub loc: Loc,
    /// The source file it is defined in (and every [`Function::locs`] is in): an index into
    /// [`Program::files`]. Code that came from a header included by that file has the line
    /// of the `#include`.
    pub file: u32,
    /// Number of parameters (they arrive in `r0 ..`).
    pub num_params: u16,
    /// The parameters that are array references (`int a[]`, `int m[][4]`: [`ArrayRef`]s, not
    /// pointers), by register (each below `num_params`). The VM finds them in live frames when
    /// a heap block is freed, since indexing them checks only their dimension.
    pub array_params: Vec<Reg>,
    /// Registers pinned to locals (`num_params ..= num_regs`): registers
    /// `num_params .. num_locals` are zeroed at entry (reading an uninitialized local gives 0);
    /// temporaries above them are always written before they are read.
    pub num_locals: u16,
    /// Registers used (`>= max(num_locals, 1)`): the window size.
    pub num_regs: u16,
    /// Bytes of this frame's local arrays (zeroed at entry; a multiple of [`ARRAY_ALIGN`]).
    pub array_bytes: u32,
    /// The objects of its frame that pointers can point to (locals whose address is taken,
    /// arrays used as pointers): `FrameObj` registers object `o` of this list.
    pub frame_objects: Vec<FrameObject>,
    /// The code; the last instruction never falls through.
    pub code: Vec<Instr>,
    /// Source location of each instruction (same length as `code`).
    pub locs: Vec<Loc>,
    /// Constant pool (64-bit patterns).
    pub consts: Vec<u64>,
    /// Array shapes used by `Row` and `ZeroArr`.
    pub shapes: Vec<Shape>,
    /// Jump tables used by `JTab`.
    pub tables: Vec<JumpTable>,
    /// printf/puts sites.
    pub sites: Vec<Site>,
}

impl Function {
    /// Which instructions start a basic block: instruction 0, every jump target, and every
    /// instruction following a branch, a return or `Exit`.
    pub fn leaders(&self) -> Vec<bool> {
        let n = self.code.len();
        let mut leader = vec![false; n];
        if n > 0 {
            leader[0] = true;
        }
        for (pc, ins) in self.code.iter().enumerate() {
            match ins.flow() {
                Flow::Jump | Flow::Cond | Flow::Return | Flow::Halt => {
                    if let Some(t) = ins.target() {
                        if t.index() < n {
                            leader[t.index()] = true;
                        }
                    }
                    if pc + 1 < n {
                        leader[pc + 1] = true;
                    }
                }
                Flow::Table => {
                    if let Instr::JTab { tab, .. } = ins {
                        if let Some(table) = self.tables.get(tab.index()) {
                            for t in table.targets.iter().chain([&table.default]) {
                                if t.index() < n {
                                    leader[t.index()] = true;
                                }
                            }
                        }
                    }
                    if pc + 1 < n {
                        leader[pc + 1] = true;
                    }
                }
                Flow::Next | Flow::Call => {}
            }
        }
        leader
    }

    /// The successors of the instruction at `pc`, in order: fall-through first, then the
    /// target (for `JTab`: the table's targets, then its default; duplicates removed).
    pub fn successors(&self, pc: usize) -> Vec<Pc> {
        let ins = &self.code[pc];
        let next = Pc((pc + 1) as u16);
        match ins.flow() {
            Flow::Next | Flow::Call => vec![next],
            Flow::Jump => ins.target().into_iter().collect(),
            Flow::Cond => {
                let t = ins.target().expect("conditional branch has a target");
                if t == next {
                    vec![next]
                } else {
                    vec![next, t]
                }
            }
            Flow::Table => {
                let mut out = Vec::new();
                if let Instr::JTab { tab, .. } = ins {
                    let table = &self.tables[tab.index()];
                    for &t in table.targets.iter().chain([&table.default]) {
                        if !out.contains(&t) {
                            out.push(t);
                        }
                    }
                }
                out
            }
            Flow::Return | Flow::Halt => Vec::new(),
        }
    }
}

/// Where a global variable lives in memory (for the disassembler and debugging).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalInfo {
    /// Its name in the source.
    pub name: String,
    /// The byte address of its first byte.
    pub addr: Addr,
    /// Number of elements (1 for a scalar).
    pub len: u32,
    /// Its size in bytes (`sizeof`).
    pub size: u32,
}

/// A compiled program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The functions, indexed by [`FuncIdx`].
    pub functions: Vec<Function>,
    /// The entry point.
    pub main: FuncIdx,
    /// The globals, in declaration order.
    pub globals: Vec<GlobalInfo>,
    /// Initial contents of memory from address 0: the bytes of the globals' initial values.
    /// Every byte after it, up to [`Program::globals_end`], is zero (trailing zeros are left
    /// out, so a large zero-initialized array costs nothing until the program touches it).
    pub memory_init: Vec<u8>,
    /// The end of the globals (exclusive; a multiple of [`ARRAY_ALIGN`], at least
    /// [`FIRST_GLOBAL`]): the array stack starts here.
    pub globals_end: u32,
    /// The objects with static storage (the globals, then the string literals used as
    /// values), in the order the VM registers them (see [`static_pointer`]).
    pub static_objects: Vec<StaticObject>,
    /// The program's source files (the `.c` files, as named on the command line), indexed by
    /// [`Function::file`].
    pub files: Vec<String>,
}

impl Program {
    /// The function `f`.
    pub fn function(&self, f: FuncIdx) -> &Function {
        &self.functions[f.index()]
    }

    /// The name of the source file function `f` is defined in (`""` if unknown).
    pub fn file_of(&self, f: FuncIdx) -> &str {
        self.functions
            .get(f.index())
            .and_then(|func| self.files.get(func.file as usize))
            .map_or("", String::as_str)
    }
}

/// The conditional branches and their `Pe` twins (the same branch with a path end on its taken
/// edge), each pair listed once; [`Instr::with_path_end_on_taken`] and
/// [`Instr::path_end_on_taken`] are generated from the list.
macro_rules! path_end_twins {
    ($($plain:ident => $twin:ident { $($field:ident),* };)*) => {
        impl Instr {
            /// The form of this conditional branch that also ends a path on its taken edge (its
            /// `Pe` twin: `count(P + E[k].c); P := E[k].s` when the branch is taken, before the
            /// jump), which the instrumenting code generator uses instead of a stub
            /// `PathEndJmp` after the branch; `None` for any other instruction.
            pub fn with_path_end_on_taken(self, k: PairIdx) -> Option<Instr> {
                Some(match self {
                    $(Instr::$plain { $($field),* } => Instr::$twin { $($field,)* k },)*
                    _ => return None,
                })
            }

            /// A branch with a path end on its taken edge as the plain branch and the index of
            /// its path-end pair; `None` for any other instruction.
            pub fn path_end_on_taken(self) -> Option<(Instr, PairIdx)> {
                Some(match self {
                    $(Instr::$twin { $($field,)* k } => (Instr::$plain { $($field),* }, k),)*
                    _ => return None,
                })
            }
        }
    };
}

path_end_twins! {
    Jnz => JnzPe { a, t };
    Jz => JzPe { a, t };
    JEq => JEqPe { a, b, t };
    JNe => JNePe { a, b, t };
    JLt => JLtPe { a, b, t };
    JLe => JLePe { a, b, t };
    JLtU => JLtUPe { a, b, t };
    JLeU => JLeUPe { a, b, t };
    JEqI => JEqIPe { a, imm, t };
    JNeI => JNeIPe { a, imm, t };
    JLtI => JLtIPe { a, imm, t };
    JLeI => JLeIPe { a, imm, t };
    JGtI => JGtIPe { a, imm, t };
    JGeI => JGeIPe { a, imm, t };
    JEqF => JEqFPe { a, b, t };
    JNeF => JNeFPe { a, b, t };
    JLtF => JLtFPe { a, b, t };
    JLeF => JLeFPe { a, b, t };
    JNLtF => JNLtFPe { a, b, t };
    JNLeF => JNLeFPe { a, b, t };
    IncJLt32 => IncJLt32Pe { a, b, t };
    IncJLe32 => IncJLe32Pe { a, b, t };
    IncJLt64 => IncJLt64Pe { a, b, t };
    IncJLtI32 => IncJLtI32Pe { a, imm, t };
}

/// The conditional branches and their counted twins (the same branch counting its outcome in
/// the running version's tier-0 counters), each pair listed once; [`Instr::counted`] and
/// [`Instr::uncounted`] are generated from the list.
macro_rules! counted_twins {
    ($($plain:ident => $twin:ident { $($field:ident),* };)*) => {
        impl Instr {
            /// The counted twin of this conditional branch (it also adds one to the running
            /// version's counter of the outcome: tier 0 of a mode that counts branches); `None`
            /// for any other instruction, a counted twin included.
            pub fn counted(self) -> Option<Instr> {
                Some(match self {
                    $(Instr::$plain { $($field),* } => Instr::$twin { $($field),* },)*
                    _ => return None,
                })
            }

            /// A counted twin as its plain branch; `None` for any other instruction.
            pub fn uncounted(self) -> Option<Instr> {
                Some(match self {
                    $(Instr::$twin { $($field),* } => Instr::$plain { $($field),* },)*
                    _ => return None,
                })
            }
        }
    };
}

counted_twins! {
    Jnz => JnzC { a, t };
    Jz => JzC { a, t };
    JEq => JEqC { a, b, t };
    JNe => JNeC { a, b, t };
    JLt => JLtC { a, b, t };
    JLe => JLeC { a, b, t };
    JLtU => JLtUC { a, b, t };
    JLeU => JLeUC { a, b, t };
    JEqI => JEqIC { a, imm, t };
    JNeI => JNeIC { a, imm, t };
    JLtI => JLtIC { a, imm, t };
    JLeI => JLeIC { a, imm, t };
    JGtI => JGtIC { a, imm, t };
    JGeI => JGeIC { a, imm, t };
    JEqF => JEqFC { a, b, t };
    JNeF => JNeFC { a, b, t };
    JLtF => JLtFC { a, b, t };
    JLeF => JLeFC { a, b, t };
    JNLtF => JNLtFC { a, b, t };
    JNLeF => JNLeFC { a, b, t };
    IncJLt32 => IncJLt32C { a, b, t };
    IncJLe32 => IncJLe32C { a, b, t };
    IncJLt64 => IncJLt64C { a, b, t };
    IncJLtI32 => IncJLtI32C { a, imm, t };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_are_eight_bytes() {
        assert_eq!(std::mem::size_of::<Instr>(), 8);
    }

    #[test]
    fn array_refs_round_trip() {
        let r = ArrayRef {
            base: 0xdead_beef,
            dim: 77,
        };
        assert_eq!(ArrayRef::unpack(r.pack()), r);
    }

    /// The compiler gives every math builtin but `sqrt`, `fabs` and `fabsf` (which have
    /// instructions of their own) to `Math1`/`Math2` through `MathFn::of`.
    #[test]
    fn every_math_builtin_has_a_math_fn_or_an_instruction() {
        use crate::builtins::Builtin;
        for b in Builtin::ALL.into_iter().filter(|b| b.is_math()) {
            let own = matches!(b, Builtin::Sqrt | Builtin::Fabs | Builtin::Fabsf);
            assert_eq!(MathFn::of(b).is_some(), !own, "{b}");
        }
        for f in MathFn::ALL {
            assert_eq!(MathFn::of(f.builtin()), Some(f));
        }
    }
}
