//! The instruction set, defined once.
//!
//! `for_each_op!` lists every opcode exactly once, with its one-line semantics and its named,
//! typed operands. Everything else is generated from that table: the [`Instr`] enum, the
//! mnemonic, the control-flow [`Flow`] of each opcode (and from it `is_branch`, `successors`,
//! `is_return`), operand visitors for registers and jump targets (used by the verifier, the
//! disassembler and, later, by the instrumenting code generator that rewrites targets), the
//! disassembler's operand printing and the opcode reference in `docs/bytecode.md`.
//!
//! Notation in the semantics column, in the style of Lua's `lopcodes.h`:
//! `R[A]` register `a` of the current window; `K[k]` the function's constant pool;
//! `Q[k]` a probe constant of an instrumented version, `E[k]` its path-end pair `(c, s)`, `P`
//! the frame's path register,
//! `count(x)` hands path id `x` to the profiling mode's sink; `C[i]` the running version's
//! tier-0 branch counters (`vm`'s `branch_counts`); `M8[x]`/`M16[x]`/`M32[x]`/`M64[x]`
//! the 1, 2, 4 or 8 bytes at byte address `x` of the VM's memory (globals, then the array
//! stack), little-endian: a load extends them to the register's canonical form (below), a store
//! writes the register's low bytes; `E` in an element access is `base(R[B]) + R[C] * width`
//! (the width in bytes of the access); `f64(x)` the double equal to the binary32 bits `x`,
//! `b32(x)` the binary32 bits of the float register `x` (exact: it holds a float's double);
//! `pc` the index of the next instruction; `s32(x)`/`z32(x)`/`s16(x)`/`z16(x)`/`s8(x)`/`z8(x)`
//! truncate to 32 (16, 8) bits and sign- or zero-extend back to 64; `<s`/`<u` signed/unsigned 64-bit comparisons;
//! `base(r)`/`dim(r)` the two halves of an array reference (see [`super::ArrayRef`]);
//! `f32(x)` rounds `x` to the nearest binary32 value (ties to even) and yields it as the double
//! of that value; `+f32 -f32 *f32 /f32` are binary32 operations on registers holding floats.
//!
//! Value representation (the invariant that lets one 64-bit op serve several C types): every
//! register holds its static type's value in canonical 64-bit form: `char`, `short` and `int`
//! sign-extended, `unsigned char`, `unsigned short` and `unsigned int` zero-extended, `_Bool`
//! 0 or 1, `long`/`unsigned long` as is, `double` as its IEEE bits, and `float` as the IEEE bits
//! of the *double* that equals it (every binary32 value is exactly a binary64 value).
//! Consequently comparisons, `& | ^`, right shifts, division of unsigned values and remainders
//! need no 32-bit variants (their 64-bit result on canonical inputs is canonical); only the ops
//! that can carry out of 32 bits (`+ - * << neg`, signed `/` for `INT_MIN / -1`, `~` on
//! unsigned) have `32` (sign-extending) and `U32` (zero-extending) variants. Types narrower than
//! `int` are never operands of arithmetic (C promotes them to `int`), so they need only the
//! conversions that store into them (`Sext8 Zext8 Sext16 Zext16 ToBool`). Keeping `float` as a
//! double makes `float` to `double` free (no instruction), lets every double comparison,
//! branch, negation, `!` and conversion to an integer serve floats unchanged (they give the
//! same result on the exact value), and lets `printf` print a promoted float as is; only the
//! four arithmetic operations (`AddF32 ...`, computed in binary32), conversions to `float`
//! (`F2F32 I2F32 U2F32`, each rounding once from its exact source) and the `f` math functions
//! are specific to floats.
//!
//! Memory, unlike registers, holds every value in its C representation at its C size (`_Bool`
//! and `char` 1 byte, `short` 2, `int` and `float` 4, `long` and `double` 8; `float` as
//! binary32). So loads are typed by width and signedness (`8S 8U 16S 16U 32S 32U 64 F32`:
//! each extends to the canonical form) and stores by width (`8 16 32 64 F32`: each writes the
//! low bytes, which are exact for a canonical value of the element's type).

// The semantics notation `R[A] := R[B] + R[C]` (Lua's `lopcodes.h` style) is not a doc link.
#![allow(rustdoc::broken_intra_doc_links)]

use std::fmt;

use crate::builtins::memory::MemFn;
use crate::builtins::Builtin;

use super::{Addr, ConstIdx, FuncIdx, PairIdx, Pc, ProbeIdx, Reg, ShapeIdx, SiteIdx, TableIdx};

/// Calls `$m!` with the whole instruction table. Each entry:
/// `/// semantics` `Name { operand: Type, ... } => flow;` where `flow` is one of
/// `Next` (falls through), `Jump` (goes to operand `t`), `Cond` (falls through or goes to `t`),
/// `Table` (switch through a jump table), `Call` (falls through after a call), `Return`
/// (leaves the function), `Halt` (ends the program).
#[macro_export]
macro_rules! for_each_op {
    ($m:ident) => {
        $m! {
            // ---- moves and constants ----
            /// R[A] := R[B]
            Mov { a: Reg, b: Reg } => Next;
            /// R[A] := imm (sign-extended to 64 bits)
            LoadI { a: Reg, imm: i32 } => Next;
            /// R[A] := K[k]
            LoadK { a: Reg, k: ConstIdx } => Next;

            // ---- global scalars (g: the global's byte address, verified in range and aligned) ----
            /// R[A] := s8(M8[g]) (char)
            GetG8S { a: Reg, g: Addr } => Next;
            /// R[A] := z8(M8[g]) (unsigned char, _Bool)
            GetG8U { a: Reg, g: Addr } => Next;
            /// R[A] := s16(M16[g]) (short)
            GetG16S { a: Reg, g: Addr } => Next;
            /// R[A] := z16(M16[g]) (unsigned short)
            GetG16U { a: Reg, g: Addr } => Next;
            /// R[A] := s32(M32[g]) (int)
            GetG32S { a: Reg, g: Addr } => Next;
            /// R[A] := z32(M32[g]) (unsigned int)
            GetG32U { a: Reg, g: Addr } => Next;
            /// R[A] := M64[g] (long, unsigned long, double)
            GetG64 { a: Reg, g: Addr } => Next;
            /// R[A] := f64(M32[g]) (float)
            GetGF32 { a: Reg, g: Addr } => Next;
            /// M8[g] := R[A] (the low byte: char, unsigned char, _Bool)
            SetG8 { a: Reg, g: Addr } => Next;
            /// M16[g] := R[A] (the low 16 bits: short, unsigned short)
            SetG16 { a: Reg, g: Addr } => Next;
            /// M32[g] := R[A] (the low 32 bits: int, unsigned int)
            SetG32 { a: Reg, g: Addr } => Next;
            /// M64[g] := R[A] (long, unsigned long, double)
            SetG64 { a: Reg, g: Addr } => Next;
            /// M32[g] := b32(R[A]) (float)
            SetGF32 { a: Reg, g: Addr } => Next;

            // ---- arrays (E = base(R[B]) + R[C] * the access's width in bytes) ----
            /// R[A] := array reference K[k] with its base relative to this frame's array area
            LocalArr { a: Reg, k: ConstIdx } => Next;
            /// check R[C] <u dim(R[B]); R[A] := ref(base(R[B]) + R[C] * stride(s), inner(s))
            Row { a: Reg, b: Reg, c: Reg, s: ShapeIdx } => Next;
            /// check R[C] <u dim(R[B]); R[A] := s8(M8[E]) (char)
            LdE8S { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := z8(M8[E]) (unsigned char, _Bool)
            LdE8U { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := s16(M16[E]) (short)
            LdE16S { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := z16(M16[E]) (unsigned short)
            LdE16U { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := s32(M32[E]) (int)
            LdE32S { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := z32(M32[E]) (unsigned int)
            LdE32U { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := M64[E] (long, unsigned long, double)
            LdE64 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); R[A] := f64(M32[E]) (float)
            LdEF32 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); M8[E] := R[A] (the low byte)
            StE8 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); M16[E] := R[A] (the low 16 bits)
            StE16 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); M32[E] := R[A] (the low 32 bits)
            StE32 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); M64[E] := R[A]
            StE64 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); M32[E] := b32(R[A]) (float)
            StEF32 { a: Reg, b: Reg, c: Reg } => Next;
            /// check R[C] <u dim(R[B]); M8[E] := imm (its low byte)
            StEI8 { b: Reg, c: Reg, imm: i16 } => Next;
            /// check R[C] <u dim(R[B]); M16[E] := imm
            StEI16 { b: Reg, c: Reg, imm: i16 } => Next;
            /// check R[C] <u dim(R[B]); M32[E] := imm (sign-extended; 0 also stores a float 0.0)
            StEI32 { b: Reg, c: Reg, imm: i16 } => Next;
            /// check R[C] <u dim(R[B]); M64[E] := imm (sign-extended; 0 also stores a double 0.0)
            StEI64 { b: Reg, c: Reg, imm: i16 } => Next;
            /// M8[base(R[A]) .. base(R[A]) + dim(R[A]) * stride(s)] := 0 (zero a whole array; stride in bytes)
            ZeroArr { a: Reg, s: ShapeIdx } => Next;

            // ---- pointers (P = the address R[B] + imm, checked: inside a live object, aligned) ----
            /// R[A] := pointer to this frame's object o = imm (its bytes in the array area; registered as an object until the function returns); imm = o | SCOPE_BEGIN: object o's block is entered (it lives again if its block had ended), imm = o | SCOPE_END: its block ends (accesses through pointers to it fail until it is entered again); R[A] keeps the pointer
            FrameObj { a: Reg, imm: i32 } => Next;
            /// R[A] := the array reference of the rows of R[C] bytes from the pointer R[B] to the end of its object (checked: live, aligned; null gives an empty array)
            PtrToArr { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := the pointer to the first element of the array reference R[B] (the live object it lies in, found by address)
            ArrToPtr { a: Reg, b: Reg } => Next;
            /// R[A] := R[B] with its address moved by R[C] bytes (signed; the address must stay in 32 bits)
            PtrAdd { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] with its address moved by imm bytes
            PtrAddI { a: Reg, b: Reg, imm: i16 } => Next;
            /// check R[B] and R[C] point into the same object; R[A] := address(R[B]) - address(R[C]) (bytes, signed)
            PtrDiff { a: Reg, b: Reg, c: Reg } => Next;
            /// copy R[C] bytes from the object R[B] points to, to the object R[A] points to (both ranges checked; they may overlap)
            Copy { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := s8(M8[P]) (char)
            LdP8S { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := z8(M8[P]) (unsigned char, _Bool)
            LdP8U { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := s16(M16[P]) (short)
            LdP16S { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := z16(M16[P]) (unsigned short)
            LdP16U { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := s32(M32[P]) (int)
            LdP32S { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := z32(M32[P]) (unsigned int)
            LdP32U { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := M64[P] (long, unsigned long, double, pointers)
            LdP64 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := f64(M32[P]) (float)
            LdPF32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// M8[P] := R[A] (the low byte)
            StP8 { a: Reg, b: Reg, imm: i16 } => Next;
            /// M16[P] := R[A] (the low 16 bits)
            StP16 { a: Reg, b: Reg, imm: i16 } => Next;
            /// M32[P] := R[A] (the low 32 bits)
            StP32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// M64[P] := R[A]
            StP64 { a: Reg, b: Reg, imm: i16 } => Next;
            /// M32[P] := b32(R[A]) (float)
            StPF32 { a: Reg, b: Reg, imm: i16 } => Next;

            // ---- integer arithmetic ----
            /// R[A] := s32(R[B] + R[C])
            Add32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := z32(R[B] + R[C])
            AddU32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] + R[C] (64-bit, wrapping)
            Add64 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := s32(R[B] + imm)
            AddI32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := z32(R[B] + imm)
            AddIU32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] + imm (64-bit, wrapping)
            AddI64 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := s32(R[B] * imm)
            MulI32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := z32(R[B] * imm)
            MulIU32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] * imm (64-bit, wrapping)
            MulI64 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := s32(R[B] /s imm) (imm != 0, from a constant divisor)
            DivI32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] /s imm (imm != 0; long)
            DivI64 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] /u imm (imm != 0; unsigned int and unsigned long)
            DivIU { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] %s imm (imm != 0)
            RemIS { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] %u imm (imm != 0)
            RemIU { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] & imm (imm sign-extended)
            AndI { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := s32(R[B] << imm) (0 <= imm < 32, checked by the compiler)
            ShlI32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := z32(R[B] << imm) (0 <= imm < 32)
            ShlIU32 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] << imm (0 <= imm < 64)
            ShlI64 { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] >>s imm (int or long; 0 <= imm < width)
            SarI { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := R[B] >>u imm (unsigned int or unsigned long; 0 <= imm < width)
            ShrI { a: Reg, b: Reg, imm: i16 } => Next;
            /// R[A] := s32(R[B] - R[C])
            Sub32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := z32(R[B] - R[C])
            SubU32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] - R[C] (64-bit, wrapping)
            Sub64 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := s32(R[B] * R[C])
            Mul32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := z32(R[B] * R[C])
            MulU32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] * R[C] (64-bit, wrapping)
            Mul64 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap if R[C] = 0; R[A] := s32(R[B] /s R[C]) (INT_MIN / -1 wraps)
            Div32 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap if R[C] = 0; R[A] := R[B] /s R[C] (LONG_MIN / -1 wraps)
            Div64 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap if R[C] = 0; R[A] := R[B] /u R[C] (unsigned int and unsigned long)
            DivU { a: Reg, b: Reg, c: Reg } => Next;
            /// trap if R[C] = 0; R[A] := R[B] %s R[C] (MIN % -1 is 0)
            RemS { a: Reg, b: Reg, c: Reg } => Next;
            /// trap if R[C] = 0; R[A] := R[B] %u R[C]
            RemU { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := s32(-R[B])
            Neg32 { a: Reg, b: Reg } => Next;
            /// R[A] := z32(-R[B])
            NegU32 { a: Reg, b: Reg } => Next;
            /// R[A] := -R[B] (64-bit, wrapping)
            Neg64 { a: Reg, b: Reg } => Next;
            /// R[A] := R[B] & R[C]
            And { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] | R[C]
            Or { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] ^ R[C]
            Xor { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := ~R[B] (int, long, unsigned long)
            Not { a: Reg, b: Reg } => Next;
            /// R[A] := z32(~R[B]) (unsigned int)
            NotU32 { a: Reg, b: Reg } => Next;
            /// trap unless R[C] <u 32; R[A] := s32(R[B] << R[C])
            Shl32 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap unless R[C] <u 32; R[A] := z32(R[B] << R[C])
            ShlU32 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap unless R[C] <u 64; R[A] := R[B] << R[C]
            Shl64 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap unless R[C] <u 32; R[A] := R[B] >>s R[C] (int)
            Sar32 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap unless R[C] <u 64; R[A] := R[B] >>s R[C] (long)
            Sar64 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap unless R[C] <u 32; R[A] := R[B] >>u R[C] (unsigned int)
            Shr32 { a: Reg, b: Reg, c: Reg } => Next;
            /// trap unless R[C] <u 64; R[A] := R[B] >>u R[C] (unsigned long)
            Shr64 { a: Reg, b: Reg, c: Reg } => Next;

            // ---- double arithmetic ----
            /// R[A] := R[B] + R[C] (double)
            AddF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] - R[C] (double)
            SubF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] * R[C] (double)
            MulF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] / R[C] (double)
            DivF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := -R[B] (double; also float)
            NegF { a: Reg, b: Reg } => Next;

            // ---- float arithmetic ----
            /// R[A] := R[B] +f32 R[C] (float)
            AddF32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] -f32 R[C] (float)
            SubF32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] *f32 R[C] (float)
            MulF32 { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] /f32 R[C] (float)
            DivF32 { a: Reg, b: Reg, c: Reg } => Next;

            // ---- comparisons producing 0 or 1 ----
            /// R[A] := R[B] == R[C] (integers)
            Eq { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] != R[C] (integers)
            Ne { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] <s R[C]
            Lt { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] <=s R[C]
            Le { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] <u R[C]
            LtU { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] <=u R[C]
            LeU { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] == R[C] (double)
            EqF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] != R[C] (double; true if either is NaN)
            NeF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] < R[C] (double)
            LtF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] <= R[C] (double)
            LeF { a: Reg, b: Reg, c: Reg } => Next;
            /// R[A] := R[B] == 0 (integer `!`)
            IsZero { a: Reg, b: Reg } => Next;
            /// R[A] := R[B] == 0.0 (double `!`)
            IsZeroF { a: Reg, b: Reg } => Next;

            // ---- conversions ----
            /// R[A] := s8(R[B]) (to char)
            Sext8 { a: Reg, b: Reg } => Next;
            /// R[A] := z8(R[B]) (to unsigned char)
            Zext8 { a: Reg, b: Reg } => Next;
            /// R[A] := s16(R[B]) (to short)
            Sext16 { a: Reg, b: Reg } => Next;
            /// R[A] := z16(R[B]) (to unsigned short)
            Zext16 { a: Reg, b: Reg } => Next;
            /// R[A] := R[B] != 0 (integer to _Bool)
            ToBool { a: Reg, b: Reg } => Next;
            /// R[A] := R[B] != 0.0 (double or float to _Bool; NaN gives 1)
            ToBoolF { a: Reg, b: Reg } => Next;
            /// R[A] := s32(R[B]) (to int)
            Sext32 { a: Reg, b: Reg } => Next;
            /// R[A] := z32(R[B]) (to unsigned int)
            Zext32 { a: Reg, b: Reg } => Next;
            /// R[A] := (double) (signed 64-bit) R[B]
            I2F { a: Reg, b: Reg } => Next;
            /// R[A] := (double) (unsigned 64-bit) R[B]
            U2F { a: Reg, b: Reg } => Next;
            /// R[A] := f32(R[B]) (double to float)
            F2F32 { a: Reg, b: Reg } => Next;
            /// R[A] := f32((signed 64-bit) R[B]) (integer to float, rounded once)
            I2F32 { a: Reg, b: Reg } => Next;
            /// R[A] := f32((unsigned 64-bit) R[B]) (unsigned long to float, rounded once)
            U2F32 { a: Reg, b: Reg } => Next;
            /// R[A] := (int) R[B] (double or float; out of range gives INT_MIN, as x86-64 cvttsd2si)
            F2I32 { a: Reg, b: Reg } => Next;
            /// R[A] := (unsigned) R[B] (double; via a 64-bit conversion, as gcc on x86-64)
            F2U32 { a: Reg, b: Reg } => Next;
            /// R[A] := (long) R[B] (double; out of range gives LONG_MIN)
            F2I64 { a: Reg, b: Reg } => Next;
            /// R[A] := (unsigned long) R[B] (double; as gcc's x86-64 sequence)
            F2U64 { a: Reg, b: Reg } => Next;

            // ---- branches ----
            /// pc := t
            Jmp { t: Pc } => Jump;
            /// if R[A] != 0 then pc := t
            Jnz { a: Reg, t: Pc } => Cond;
            /// if R[A] == 0 then pc := t
            Jz { a: Reg, t: Pc } => Cond;
            /// if R[A] == R[B] then pc := t (integers)
            JEq { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] != R[B] then pc := t (integers)
            JNe { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <s R[B] then pc := t
            JLt { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <=s R[B] then pc := t
            JLe { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <u R[B] then pc := t
            JLtU { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <=u R[B] then pc := t
            JLeU { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] == imm then pc := t
            JEqI { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] != imm then pc := t
            JNeI { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] <s imm then pc := t
            JLtI { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] <=s imm then pc := t
            JLeI { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] >s imm then pc := t
            JGtI { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] >=s imm then pc := t
            JGeI { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] == R[B] then pc := t (double)
            JEqF { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] != R[B] then pc := t (double; taken if either is NaN)
            JNeF { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] < R[B] then pc := t (double)
            JLtF { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <= R[B] then pc := t (double)
            JLeF { a: Reg, b: Reg, t: Pc } => Cond;
            /// if not (R[A] < R[B]) then pc := t (double; taken if either is NaN)
            JNLtF { a: Reg, b: Reg, t: Pc } => Cond;
            /// if not (R[A] <= R[B]) then pc := t (double; taken if either is NaN)
            JNLeF { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <s R[B] then pc := t (`for` loop step and test)
            IncJLt32 { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <=s R[B] then pc := t
            IncJLe32 { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := R[A] + 1; if R[A] <s R[B] then pc := t (long)
            IncJLt64 { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <s imm then pc := t
            IncJLtI32 { a: Reg, imm: i16, t: Pc } => Cond;
            /// v := R[A] - low(tab); pc := targets(tab)[v] if v <u len(tab) else default(tab)
            JTab { a: Reg, tab: TableIdx } => Table;

            // ---- calls and library functions ----
            /// call f with arguments R[A..A+nparams(f)] (the callee's window starts at R[A]); R[A] := result
            Call { a: Reg, f: FuncIdx } => Call;
            /// f := the function R[B] points to (else a runtime error); if nparams(f) != n a runtime error; call f with arguments R[A..A+n]; R[A] := result
            CallInd { a: Reg, b: Reg, n: u16 } => Call;
            /// return R[A] to the caller
            Ret { a: Reg } => Return;
            /// return without a value
            RetV { } => Return;
            /// return R[A] to the caller, after this frame's objects die (functions with `FrameObj`)
            RetF { a: Reg } => Return;
            /// return without a value, after this frame's objects die
            RetVF { } => Return;
            /// end the program with exit status R[A] & 255 (`exit`)
            Exit { a: Reg } => Halt;
            /// R[A] := putchar(R[B]) (writes the byte, yields it as unsigned char)
            Putchar { a: Reg, b: Reg } => Next;
            /// R[A] := rand() (glibc's generator, the VM's state)
            Rand { a: Reg } => Next;
            /// srand(z32(R[A])) (restarts glibc's generator)
            Srand { a: Reg } => Next;
            /// print with printf site p, arguments R[A..A+nargs(p)]; R[A] := the number of bytes printed
            Printf { a: Reg, p: SiteIdx } => Next;
            /// writes the text of puts site p, then a newline; R[A] := the number of bytes written
            Puts { a: Reg, p: SiteIdx } => Next;
            /// R[A] := f(R[A], R[A+1], ...) for the library function on memory f (mem*, str*, malloc, calloc, realloc, free, puts; each byte checked as a pointer access)
            Lib { f: MemFn, a: Reg } => Next;
            /// R[A] := sprintf(R[A], format ...) (or snprintf(R[A], R[A+1], ...)) with the printf site p, its arguments after the buffer (and limit)
            Sprintf { a: Reg, p: SiteIdx } => Next;
            /// R[A] := s32(|R[B]|) (abs, wrapping)
            Abs32 { a: Reg, b: Reg } => Next;
            /// R[A] := |R[B]| (labs, wrapping)
            Abs64 { a: Reg, b: Reg } => Next;
            /// R[A] := sqrt(R[B])
            Sqrt { a: Reg, b: Reg } => Next;
            /// R[A] := fabs(R[B])
            Fabs { a: Reg, b: Reg } => Next;
            /// R[A] := f(R[B]) for the unary math function f (floor ceil sin cos tan atan asin acos exp log log10 and their float forms, and sqrtf)
            Math1 { f: MathFn, a: Reg, b: Reg } => Next;
            /// R[A] := f(R[B], R[C]) for the binary math function f (atan2 pow fmod and their float forms)
            Math2 { f: MathFn, a: Reg, b: Reg, c: Reg } => Next;

            // ---- run limits (only in programs metered for `vmrun --max-steps`) ----
            /// steps := steps - imm, or a runtime error if fewer than imm steps are left (first in every basic block of a metered program: imm is the block's length)
            Fuel { imm: i32 } => Next;

            // ---- edge probes (only in instrumented versions made by the VM's tier-up) ----
            /// C[2(pc-1)+1] += 1: counts an edge of the spanning tree's complement (a chord: `edge` mode's event counting of edges) in the running version's counter of this instruction
            CountEdge {} => Next;

            // ---- path probes (only in instrumented versions made by the VM's tier-up) ----
            /// P := Q[k] (start a path: the path register gets its initial value)
            PathSet { k: ProbeIdx } => Next;
            /// P := P + Q[k] (wrapping)
            PathAdd { k: ProbeIdx } => Next;
            /// P := P + Q[k]; pc := t (the increment of a taken branch edge, as a stub)
            PathJmp { k: ProbeIdx, t: Pc } => Jump;
            /// count(P + Q[c]); P := Q[s] (a path ends at a cut edge and the next one starts)
            PathEnd { c: ProbeIdx, s: ProbeIdx } => Next;
            /// count(P + Q[c]); P := Q[s]; pc := t (a taken branch edge that ends a path, as a stub)
            PathEndJmp { c: ProbeIdx, s: ProbeIdx, t: Pc } => Jump;
            /// count(P + Q[c]) (a path ends at the function's exit)
            PathCount { c: ProbeIdx } => Next;
            /// count(Q[c]) (a path whose id is known statically ends: event counting)
            PathCountK { c: ProbeIdx } => Next;
            /// count(P + Q[c]), then return R[A] as Ret (a path ends at the function's exit)
            RetPc { a: Reg, c: ProbeIdx } => Return;
            /// count(P + Q[c]), then return as RetV (a path ends at the function's exit)
            RetVPc { c: ProbeIdx } => Return;
            /// if R[A] != 0 then count(P + E[k].c), P := E[k].s, pc := t: Jnz with a path end on its taken edge
            JnzPe { a: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] == 0 then count(P + E[k].c), P := E[k].s, pc := t: Jz with a path end on its taken edge
            JzPe { a: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] == R[B] then count(P + E[k].c), P := E[k].s, pc := t (integers): JEq with a path end on its taken edge
            JEqPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] != R[B] then count(P + E[k].c), P := E[k].s, pc := t (integers): JNe with a path end on its taken edge
            JNePe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <s R[B] then count(P + E[k].c), P := E[k].s, pc := t: JLt with a path end on its taken edge
            JLtPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <=s R[B] then count(P + E[k].c), P := E[k].s, pc := t: JLe with a path end on its taken edge
            JLePe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <u R[B] then count(P + E[k].c), P := E[k].s, pc := t: JLtU with a path end on its taken edge
            JLtUPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <=u R[B] then count(P + E[k].c), P := E[k].s, pc := t: JLeU with a path end on its taken edge
            JLeUPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] == imm then count(P + E[k].c), P := E[k].s, pc := t: JEqI with a path end on its taken edge
            JEqIPe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            /// if R[A] != imm then count(P + E[k].c), P := E[k].s, pc := t: JNeI with a path end on its taken edge
            JNeIPe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <s imm then count(P + E[k].c), P := E[k].s, pc := t: JLtI with a path end on its taken edge
            JLtIPe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <=s imm then count(P + E[k].c), P := E[k].s, pc := t: JLeI with a path end on its taken edge
            JLeIPe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            /// if R[A] >s imm then count(P + E[k].c), P := E[k].s, pc := t: JGtI with a path end on its taken edge
            JGtIPe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            /// if R[A] >=s imm then count(P + E[k].c), P := E[k].s, pc := t: JGeI with a path end on its taken edge
            JGeIPe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            /// if R[A] == R[B] then count(P + E[k].c), P := E[k].s, pc := t (double): JEqF with a path end on its taken edge
            JEqFPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] != R[B] then count(P + E[k].c), P := E[k].s, pc := t (double; taken if either is NaN): JNeF with a path end on its taken edge
            JNeFPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] < R[B] then count(P + E[k].c), P := E[k].s, pc := t (double): JLtF with a path end on its taken edge
            JLtFPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if R[A] <= R[B] then count(P + E[k].c), P := E[k].s, pc := t (double): JLeF with a path end on its taken edge
            JLeFPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if not (R[A] < R[B]) then count(P + E[k].c), P := E[k].s, pc := t (double; taken if either is NaN): JNLtF with a path end on its taken edge
            JNLtFPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// if not (R[A] <= R[B]) then count(P + E[k].c), P := E[k].s, pc := t (double; taken if either is NaN): JNLeF with a path end on its taken edge
            JNLeFPe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <s R[B] then count(P + E[k].c), P := E[k].s, pc := t (`for` loop step and test): IncJLt32 with a path end on its taken edge
            IncJLt32Pe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <=s R[B] then count(P + E[k].c), P := E[k].s, pc := t: IncJLe32 with a path end on its taken edge
            IncJLe32Pe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// R[A] := R[A] + 1; if R[A] <s R[B] then count(P + E[k].c), P := E[k].s, pc := t (long): IncJLt64 with a path end on its taken edge
            IncJLt64Pe { a: Reg, b: Reg, t: Pc, k: PairIdx } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <s imm then count(P + E[k].c), P := E[k].s, pc := t: IncJLtI32 with a path end on its taken edge
            IncJLtI32Pe { a: Reg, imm: i16, t: Pc, k: PairIdx } => Cond;
            // ---- tier-0 counted branches (only in the compiled versions of a mode that counts
            //      branch outcomes: the machine rewrites each conditional branch to its twin when
            //      the run starts, so no other mode's branch pays for counting) ----
            /// if R[A] != 0 then pc := t; C[2 * pc + taken] += 1: Jnz, counted
            JnzC { a: Reg, t: Pc } => Cond;
            /// if R[A] == 0 then pc := t; C[2 * pc + taken] += 1: Jz, counted
            JzC { a: Reg, t: Pc } => Cond;
            /// if R[A] == R[B] (integers) then pc := t; C[2 * pc + taken] += 1: JEq, counted
            JEqC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] != R[B] (integers) then pc := t; C[2 * pc + taken] += 1: JNe, counted
            JNeC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <s R[B] then pc := t; C[2 * pc + taken] += 1: JLt, counted
            JLtC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <=s R[B] then pc := t; C[2 * pc + taken] += 1: JLe, counted
            JLeC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <u R[B] then pc := t; C[2 * pc + taken] += 1: JLtU, counted
            JLtUC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <=u R[B] then pc := t; C[2 * pc + taken] += 1: JLeU, counted
            JLeUC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] == imm then pc := t; C[2 * pc + taken] += 1: JEqI, counted
            JEqIC { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] != imm then pc := t; C[2 * pc + taken] += 1: JNeI, counted
            JNeIC { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] <s imm then pc := t; C[2 * pc + taken] += 1: JLtI, counted
            JLtIC { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] <=s imm then pc := t; C[2 * pc + taken] += 1: JLeI, counted
            JLeIC { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] >s imm then pc := t; C[2 * pc + taken] += 1: JGtI, counted
            JGtIC { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] >=s imm then pc := t; C[2 * pc + taken] += 1: JGeI, counted
            JGeIC { a: Reg, imm: i16, t: Pc } => Cond;
            /// if R[A] == R[B] (double) then pc := t; C[2 * pc + taken] += 1: JEqF, counted
            JEqFC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] != R[B] (double; taken if either is NaN) then pc := t; C[2 * pc + taken] += 1: JNeF, counted
            JNeFC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] < R[B] (double) then pc := t; C[2 * pc + taken] += 1: JLtF, counted
            JLtFC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if R[A] <= R[B] (double) then pc := t; C[2 * pc + taken] += 1: JLeF, counted
            JLeFC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if not (R[A] < R[B]) (double; taken if either is NaN) then pc := t; C[2 * pc + taken] += 1: JNLtF, counted
            JNLtFC { a: Reg, b: Reg, t: Pc } => Cond;
            /// if not (R[A] <= R[B]) (double; taken if either is NaN) then pc := t; C[2 * pc + taken] += 1: JNLeF, counted
            JNLeFC { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <s R[B] then pc := t; C[2 * pc + taken] += 1: IncJLt32, counted
            IncJLt32C { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <=s R[B] then pc := t; C[2 * pc + taken] += 1: IncJLe32, counted
            IncJLe32C { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := R[A] + 1; if R[A] <s R[B] then pc := t (long); C[2 * pc + taken] += 1: IncJLt64, counted
            IncJLt64C { a: Reg, b: Reg, t: Pc } => Cond;
            /// R[A] := s32(R[A] + 1); if R[A] <s imm then pc := t; C[2 * pc + taken] += 1: IncJLtI32, counted
            IncJLtI32C { a: Reg, imm: i16, t: Pc } => Cond;
            /// run probe k of the profiling mode's sink (block entries, k-iteration probes)
            Probe { k: ProbeIdx } => Next;
            /// run probe k of the sink with the path register's value, then r := 0 (the `ipp` modes: the constants added since the sink's last event)
            ProbePath { k: ProbeIdx } => Next;
        }
    };
}

/// How an instruction passes control on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Falls through to the next instruction.
    Next,
    /// Always goes to its target `t`.
    Jump,
    /// Falls through or goes to its target `t`.
    Cond,
    /// Goes to one of the targets of its jump table (`JTab`).
    Table,
    /// Calls a function, then falls through.
    Call,
    /// Returns from the function.
    Return,
    /// Ends the program.
    Halt,
}

/// A math function of `math.h` implemented by [`Instr::Math1`] / [`Instr::Math2`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MathFn {
    /// `floor`
    Floor,
    /// `ceil`
    Ceil,
    /// `sin`
    Sin,
    /// `cos`
    Cos,
    /// `tan`
    Tan,
    /// `atan`
    Atan,
    /// `asin`
    Asin,
    /// `acos`
    Acos,
    /// `exp`
    Exp,
    /// `log`
    Log,
    /// `log10`
    Log10,
    /// `atan2`
    Atan2,
    /// `pow`
    Pow,
    /// `fmod`
    Fmod,
    /// `sqrtf`
    Sqrtf,
    /// `floorf`
    Floorf,
    /// `ceilf`
    Ceilf,
    /// `sinf`
    Sinf,
    /// `cosf`
    Cosf,
    /// `tanf`
    Tanf,
    /// `atanf`
    Atanf,
    /// `asinf`
    Asinf,
    /// `acosf`
    Acosf,
    /// `expf`
    Expf,
    /// `logf`
    Logf,
    /// `log10f`
    Log10f,
    /// `atan2f`
    Atan2f,
    /// `powf`
    Powf,
    /// `fmodf`
    Fmodf,
}

impl MathFn {
    /// Every math function of [`Instr::Math1`] / [`Instr::Math2`].
    pub const ALL: [MathFn; 29] = [
        MathFn::Floor,
        MathFn::Ceil,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Tan,
        MathFn::Atan,
        MathFn::Asin,
        MathFn::Acos,
        MathFn::Exp,
        MathFn::Log,
        MathFn::Log10,
        MathFn::Atan2,
        MathFn::Pow,
        MathFn::Fmod,
        MathFn::Sqrtf,
        MathFn::Floorf,
        MathFn::Ceilf,
        MathFn::Sinf,
        MathFn::Cosf,
        MathFn::Tanf,
        MathFn::Atanf,
        MathFn::Asinf,
        MathFn::Acosf,
        MathFn::Expf,
        MathFn::Logf,
        MathFn::Log10f,
        MathFn::Atan2f,
        MathFn::Powf,
        MathFn::Fmodf,
    ];

    /// The math function that implements `builtin`, if it is one (`sqrt`, `fabs` and `fabsf`
    /// have instructions of their own).
    pub fn of(builtin: Builtin) -> Option<MathFn> {
        MathFn::ALL.into_iter().find(|f| f.builtin() == builtin)
    }

    /// The library function this is: the one definition of its name, signature and semantics
    /// (shared by constant folding in the compiler and by the interpreter).
    pub fn builtin(self) -> Builtin {
        match self {
            MathFn::Floor => Builtin::Floor,
            MathFn::Ceil => Builtin::Ceil,
            MathFn::Sin => Builtin::Sin,
            MathFn::Cos => Builtin::Cos,
            MathFn::Tan => Builtin::Tan,
            MathFn::Atan => Builtin::Atan,
            MathFn::Asin => Builtin::Asin,
            MathFn::Acos => Builtin::Acos,
            MathFn::Exp => Builtin::Exp,
            MathFn::Log => Builtin::Log,
            MathFn::Log10 => Builtin::Log10,
            MathFn::Atan2 => Builtin::Atan2,
            MathFn::Pow => Builtin::Pow,
            MathFn::Fmod => Builtin::Fmod,
            MathFn::Sqrtf => Builtin::Sqrtf,
            MathFn::Floorf => Builtin::Floorf,
            MathFn::Ceilf => Builtin::Ceilf,
            MathFn::Sinf => Builtin::Sinf,
            MathFn::Cosf => Builtin::Cosf,
            MathFn::Tanf => Builtin::Tanf,
            MathFn::Atanf => Builtin::Atanf,
            MathFn::Asinf => Builtin::Asinf,
            MathFn::Acosf => Builtin::Acosf,
            MathFn::Expf => Builtin::Expf,
            MathFn::Logf => Builtin::Logf,
            MathFn::Log10f => Builtin::Log10f,
            MathFn::Atan2f => Builtin::Atan2f,
            MathFn::Powf => Builtin::Powf,
            MathFn::Fmodf => Builtin::Fmodf,
        }
    }

    /// The C name.
    pub fn name(self) -> &'static str {
        self.builtin().name()
    }

    /// Whether the function takes two arguments.
    pub fn is_binary(self) -> bool {
        self.builtin().params().len() == 2
    }
}

/// An operand type of the instruction table: knows how to print itself and whether it names a
/// register or a jump target.
pub trait Operand: Copy {
    /// The register this operand names, if it is one.
    fn as_reg(self) -> Option<Reg> {
        None
    }
    /// Mutable access to the register this operand names, if it is one.
    fn as_reg_mut(&mut self) -> Option<&mut Reg> {
        None
    }
    /// Mutable access to the jump target this operand holds, if it is one.
    fn as_pc_mut(&mut self) -> Option<&mut Pc> {
        None
    }
    /// Writes the operand as the disassembler shows it.
    fn fmt_operand(&self, f: &mut dyn fmt::Write) -> fmt::Result;
    /// The operand's kind as documented in `docs/bytecode.md`.
    fn kind_name() -> &'static str;
}

impl Operand for Reg {
    fn as_reg(self) -> Option<Reg> {
        Some(self)
    }
    fn as_reg_mut(&mut self) -> Option<&mut Reg> {
        Some(self)
    }
    fn fmt_operand(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{self}")
    }
    fn kind_name() -> &'static str {
        "register"
    }
}

impl Operand for Pc {
    fn as_pc_mut(&mut self) -> Option<&mut Pc> {
        Some(self)
    }
    fn fmt_operand(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{self}")
    }
    fn kind_name() -> &'static str {
        "jump target"
    }
}

macro_rules! plain_operand {
    ($ty:ty, $kind:literal) => {
        impl Operand for $ty {
            fn fmt_operand(&self, f: &mut dyn fmt::Write) -> fmt::Result {
                write!(f, "{self}")
            }
            fn kind_name() -> &'static str {
                $kind
            }
        }
    };
}

plain_operand!(i16, "16-bit signed immediate");
plain_operand!(u16, "argument count");
plain_operand!(i32, "32-bit signed immediate");
plain_operand!(ConstIdx, "constant pool index");
plain_operand!(Addr, "byte address of a global");
plain_operand!(ShapeIdx, "array shape index");
plain_operand!(TableIdx, "jump table index");
plain_operand!(FuncIdx, "function index");
plain_operand!(SiteIdx, "printf/puts site index");
plain_operand!(ProbeIdx, "probe constant or sink probe index");
plain_operand!(PairIdx, "path-end pair index");

impl Operand for MathFn {
    fn fmt_operand(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        f.write_str(self.name())
    }
    fn kind_name() -> &'static str {
        "math function"
    }
}

impl Operand for MemFn {
    fn fmt_operand(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        f.write_str(self.name())
    }
    fn kind_name() -> &'static str {
        "library function on memory"
    }
}

macro_rules! define_instr {
    ($( $(#[doc = $doc:literal])* $name:ident { $($field:ident : $fty:ty),* $(,)? } => $flow:ident; )*) => {
        /// One bytecode instruction (8 bytes; see the module docs for the notation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Instr {
            $(
                $(#[doc = $doc])*
                #[allow(missing_docs)]
                $name { $($field: $fty),* },
            )*
        }

        /// The opcode of an instruction, without operands.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Opcode {
            $( $(#[doc = $doc])* $name, )*
        }

        /// Static description of one opcode, for documentation.
        #[derive(Clone, Copy, Debug)]
        pub struct OpInfo {
            /// The mnemonic.
            pub name: &'static str,
            /// The one-line semantics.
            pub doc: &'static str,
            /// The operands: name and kind.
            pub operands: &'static [(&'static str, fn() -> &'static str)],
            /// Control flow.
            pub flow: Flow,
        }

        /// Every opcode's description, in table order.
        pub static OPCODES: &[OpInfo] = &[
            $( OpInfo {
                name: stringify!($name),
                doc: concat!($($doc),*),
                operands: &[ $( (stringify!($field), <$fty as Operand>::kind_name) ),* ],
                flow: Flow::$flow,
            }, )*
        ];

        impl Instr {
            /// The opcode.
            pub fn opcode(&self) -> Opcode {
                match self { $( Instr::$name { .. } => Opcode::$name, )* }
            }

            /// The mnemonic (`"AddI32"`).
            pub fn name(&self) -> &'static str {
                match self { $( Instr::$name { .. } => stringify!($name), )* }
            }

            /// How control leaves this instruction.
            pub fn flow(&self) -> Flow {
                match self { $( Instr::$name { .. } => Flow::$flow, )* }
            }

            /// Calls `f` with every register operand (ranges used by calls and printf are not
            /// included: see [`super::verify`]).
            pub fn for_each_reg(&self, mut f: impl FnMut(Reg)) {
                match *self {
                    $( Instr::$name { $($field),* } => {
                        $( if let Some(r) = Operand::as_reg($field) { f(r) } )*
                    } )*
                }
            }

            /// Calls `f` with a mutable reference to every register operand.
            pub fn for_each_reg_mut(&mut self, mut f: impl FnMut(&mut Reg)) {
                match self {
                    $( Instr::$name { $($field),* } => {
                        $( if let Some(r) = Operand::as_reg_mut($field) { f(r) } )*
                    } )*
                }
            }

            /// Calls `f` with a mutable reference to the jump target, if the instruction has one
            /// (jump tables hold theirs in the function's [`super::JumpTable`]s).
            pub fn for_each_target_mut(&mut self, mut f: impl FnMut(&mut Pc)) {
                match self {
                    $( Instr::$name { $($field),* } => {
                        $( if let Some(p) = Operand::as_pc_mut($field) { f(p) } )*
                    } )*
                }
            }

            /// Writes the operands, comma-separated, as the disassembler shows them.
            pub fn fmt_operands(&self, out: &mut dyn fmt::Write) -> fmt::Result {
                match self {
                    $( Instr::$name { $($field),* } => {
                        let mut _first = true;
                        $(
                            if !_first { out.write_str(", ")?; }
                            _first = false;
                            Operand::fmt_operand($field, out)?;
                        )*
                        Ok(())
                    } )*
                }
            }
        }
    };
}

for_each_op!(define_instr);

impl Instr {
    /// The width in bytes of the memory access of a global or element load or store (`GetG*`,
    /// `SetG*`, `LdE*`, `StE*`, `StEI*`): 1, 2, 4 or 8; `None` for every other instruction.
    pub fn access_bytes(&self) -> Option<u32> {
        use Instr::*;
        Some(match self {
            GetG8S { .. } | GetG8U { .. } | SetG8 { .. } => 1,
            LdE8S { .. } | LdE8U { .. } | StE8 { .. } | StEI8 { .. } => 1,
            GetG16S { .. } | GetG16U { .. } | SetG16 { .. } => 2,
            LdE16S { .. } | LdE16U { .. } | StE16 { .. } | StEI16 { .. } => 2,
            GetG32S { .. } | GetG32U { .. } | GetGF32 { .. } | SetG32 { .. } | SetGF32 { .. } => 4,
            LdE32S { .. } | LdE32U { .. } | LdEF32 { .. } => 4,
            StE32 { .. } | StEF32 { .. } | StEI32 { .. } => 4,
            GetG64 { .. } | SetG64 { .. } | LdE64 { .. } | StE64 { .. } | StEI64 { .. } => 8,
            _ => return None,
        })
    }

    /// The global address a `GetG*` or `SetG*` instruction accesses.
    pub fn global_addr(&self) -> Option<super::Addr> {
        use Instr::*;
        match *self {
            GetG8S { g, .. } | GetG8U { g, .. } | GetG16S { g, .. } | GetG16U { g, .. } => Some(g),
            GetG32S { g, .. } | GetG32U { g, .. } | GetG64 { g, .. } | GetGF32 { g, .. } => Some(g),
            SetG8 { g, .. } | SetG16 { g, .. } | SetG32 { g, .. } | SetG64 { g, .. } => Some(g),
            SetGF32 { g, .. } => Some(g),
            _ => None,
        }
    }

    /// The jump target of a `Jump` or `Cond` instruction.
    pub fn target(&self) -> Option<Pc> {
        let mut t = None;
        let mut copy = *self;
        copy.for_each_target_mut(|p| t = Some(*p));
        t
    }

    /// True for instructions that may transfer control somewhere other than the next
    /// instruction (jumps, conditional branches, jump tables).
    pub fn is_branch(&self) -> bool {
        matches!(self.flow(), Flow::Jump | Flow::Cond | Flow::Table)
    }

    /// True for instructions that leave the function (`Ret`, `RetV`) or the program (`Exit`).
    pub fn is_return(&self) -> bool {
        matches!(self.flow(), Flow::Return | Flow::Halt)
    }

    /// True if control never falls through to the next instruction.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self.flow(),
            Flow::Jump | Flow::Table | Flow::Return | Flow::Halt
        )
    }
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<9} ", self.name())?;
        self.fmt_operands(f)
    }
}
