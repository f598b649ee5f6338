//! Calls: of the program's functions (directly or through a pointer), of the library's
//! functions (`printf` and its family, the memory functions) and of the built-in math
//! functions, with their arguments in consecutive registers.

use super::FnCompiler;
use crate::builtins::Builtin;
use crate::bytecode::{Instr, MathFn, Reg, Site, SiteArg};
use crate::hir::{Arg, Expr, ExprKind, ScalarType};

impl FnCompiler<'_> {
    pub(super) fn call(
        &mut self,
        e: &Expr,
        func: crate::hir::FuncId,
        args: &[Arg],
        dst: Option<Reg>,
    ) -> Reg {
        self.window_at_destination(dst);
        let base = self.free;
        self.call_args(e, args);
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::Call {
            a,
            f: crate::bytecode::FuncIdx(func.0 as u16),
        });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// If the destination is the temporary on top of the register stack, a callee's window
    /// can start there: the result then lands in place, without a move.
    fn window_at_destination(&mut self, dst: Option<Reg>) {
        if let Some(d) = dst {
            if u32::from(d.0) + 1 == self.free && !self.is_local_reg(d) {
                self.free = u32::from(d.0);
            }
        }
    }

    /// A call through a function pointer: the arguments as for a direct call, then the
    /// pointer above them; `CallInd` checks at run time that it points to a function with as
    /// many parameters.
    pub(super) fn call_indirect(
        &mut self,
        e: &Expr,
        callee: &Expr,
        args: &[Arg],
        dst: Option<Reg>,
    ) -> Reg {
        self.window_at_destination(dst);
        let base = self.free;
        self.call_args(e, args);
        let f = self.expr(callee, None);
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::CallInd {
            a,
            b: f,
            n: args.len().min(usize::from(u16::MAX)) as u16,
        });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// A library function on memory: its arguments in consecutive registers (evaluated last
    /// first, as gcc does), the result in the first.
    pub(super) fn library_call(
        &mut self,
        e: &Expr,
        func: crate::builtins::memory::MemFn,
        args: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let base = self.free;
        self.consecutive(args, |c, a, r| {
            c.expr(a, Some(r));
        });
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::Lib { f: func, a });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// Evaluates `items` into consecutive registers from the top of the register stack, last
    /// first (gcc's order for arguments, see the module docs), each by `eval` into its
    /// register, and leaves `free` just above them.
    pub(super) fn consecutive<T>(&mut self, items: &[T], mut eval: impl FnMut(&mut Self, &T, Reg)) {
        let base = self.free;
        for _ in items {
            self.alloc();
        }
        let top = self.free;
        for (k, item) in items.iter().enumerate().rev() {
            let r = Reg((base as usize + k).min(usize::from(u16::MAX)) as u16);
            eval(self, item, r);
            // Temporaries above the registers are dead now.
            self.free = top;
        }
    }

    /// `sprintf(buffer, format, args...)` or `snprintf(buffer, limit, format, args...)`: the
    /// buffer, the limit and the non-literal arguments in consecutive registers, evaluated
    /// last first; the count of characters in the first.
    pub(super) fn sprintf(
        &mut self,
        e: &Expr,
        buffer: &Expr,
        limit: Option<&Expr>,
        format: &[crate::printf_format::Piece],
        args: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let base = self.free;
        let mut site_args = Vec::with_capacity(args.len());
        let mut values: Vec<&Expr> = vec![buffer];
        values.extend(limit);
        for a in args {
            match (&a.kind, a.ty) {
                (ExprKind::StringLit(s), None) => site_args.push(SiteArg::Str(s.clone())),
                (_, ty) => {
                    values.push(a);
                    site_args.push(site_arg(ty));
                }
            }
        }
        self.consecutive(&values, |c, a, r| {
            c.expr(a, Some(r));
        });
        let p = self.site(Site::Sprintf {
            bounded: limit.is_some(),
            format: format.to_vec(),
            args: site_args,
        });
        let a = Reg(base.min(u32::from(u16::MAX)) as u16);
        self.max_regs = self.max_regs.max(base + 1);
        self.at(e.span);
        self.emit(Instr::Sprintf { a, p });
        self.free = base + 1;
        self.finish(a, dst)
    }

    /// Evaluates a call's arguments into consecutive registers from the top of the register
    /// stack, last argument first (gcc's order, see the module docs), and leaves `free` just
    /// above them.
    pub(super) fn call_args(&mut self, call: &Expr, args: &[Arg]) {
        self.consecutive(args, |c, a, r| match a {
            Arg::Scalar(x) => {
                c.expr(x, Some(r));
            }
            Arg::Array { base: ab, indices } => {
                c.at(call.span);
                c.sub_array(*ab, indices, Some(r));
            }
            Arg::FromPointer { ptr, stride } => {
                let p = c.expr(ptr, None);
                let s = c.alloc();
                c.load_bits(s, *stride);
                c.at(call.span);
                c.emit(Instr::PtrToArr { a: r, b: p, c: s });
            }
        });
    }

    pub(super) fn builtin(
        &mut self,
        e: &Expr,
        func: Builtin,
        args: &[Expr],
        dst: Option<Reg>,
    ) -> Reg {
        let mark = self.free;
        let regs = self.builtin_args(args);
        self.free = mark;
        self.builtin_emit(e, func, &regs, dst)
    }

    /// Evaluates a library function's arguments, last first (as gcc does); the registers
    /// holding them stay allocated.
    pub(super) fn builtin_args(&mut self, args: &[Expr]) -> Vec<Reg> {
        let mut regs: Vec<Reg> = args.iter().rev().map(|a| self.expr(a, None)).collect();
        regs.reverse();
        regs
    }

    /// Emits the instruction of a library function whose arguments are in `regs`.
    pub(super) fn builtin_emit(
        &mut self,
        e: &Expr,
        func: Builtin,
        regs: &[Reg],
        dst: Option<Reg>,
    ) -> Reg {
        let arg = |i: usize| regs.get(i).copied().unwrap_or(Reg(0));
        self.at(e.span);
        if func == Builtin::Exit {
            self.emit(Instr::Exit { a: arg(0) });
            return dst.unwrap_or(arg(0));
        }
        let d = dst.unwrap_or_else(|| self.alloc());
        let (a, b, c) = (d, arg(0), arg(1));
        let ins = match func {
            Builtin::Putchar => Instr::Putchar { a, b },
            Builtin::Rand => Instr::Rand { a },
            Builtin::Srand => Instr::Srand { a: b },
            Builtin::Abs => Instr::Abs32 { a, b },
            Builtin::Labs => Instr::Abs64 { a, b },
            Builtin::Sqrt => Instr::Sqrt { a, b },
            // The absolute value of a float register is exactly `fabsf`'s.
            Builtin::Fabs | Builtin::Fabsf => Instr::Fabs { a, b },
            Builtin::Exit => Instr::Exit { a: b },
            _ => match MathFn::of(func) {
                Some(f) if f.is_binary() => Instr::Math2 { f, a, b, c },
                Some(f) => Instr::Math1 { f, a, b },
                None => unreachable!("every math builtin has a MathFn or its own instruction"),
            },
        };
        self.emit(ins);
        d
    }
}

/// How a `printf`-family argument of type `ty` is passed (a register of its kind).
pub(super) fn site_arg(ty: Option<ScalarType>) -> SiteArg {
    match ty {
        Some(ScalarType::Double) => SiteArg::Double,
        Some(ScalarType::UInt | ScalarType::ULong) => SiteArg::UInt,
        Some(ScalarType::Ptr) => SiteArg::Ptr,
        _ => SiteArg::Int,
    }
}
