//! Statements: blocks, declarations, control flow, `switch`, `break`/`continue`, `return`.

use super::{scopes, Ctx, FnCompiler, Patch};
use crate::bytecode::{ArrayRef, Instr, JumpTable, Pc};
use crate::hir::{
    BinaryOp, Block, CaseRange, CompareOp, Expr, ExprKind, Init, Place, ScalarType, Stmt, StmtKind,
    Type,
};

/// The largest number of jump-table entries per case worth spending on a `switch`.
const TABLE_DENSITY: i64 = 3;

impl FnCompiler<'_> {
    pub(super) fn block(&mut self, block: &Block) {
        let opened = self.open_scope(scopes::block_scope(block));
        for s in &block.stmts {
            self.stmt(s);
        }
        if opened {
            self.close_scope();
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        let mark = self.free;
        self.at(s.span);
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Expr(e) => self.effect(e),
            StmtKind::Decl { local, init } => self.decl(*local, init.as_ref()),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let mut to_else = Vec::new();
                self.cond_jump(cond, false, &mut to_else);
                self.stmt(then_branch);
                match else_branch {
                    Some(e) => {
                        let end = if self.reachable_here() {
                            Some(self.jump())
                        } else {
                            None
                        };
                        let here = self.here();
                        self.patch_all(to_else, here);
                        self.stmt(e);
                        if let Some(j) = end {
                            let here = self.here();
                            self.patch(j, here);
                        }
                    }
                    None => {
                        let here = self.here();
                        self.patch_all(to_else, here);
                    }
                }
            }
            StmtKind::While { cond, body } => self.while_loop(cond, body),
            StmtKind::DoWhile { body, cond } => {
                let body_scope = self.open_loop_body_scope(body);
                let top = self.label_here();
                self.ctx.push(Ctx::Loop {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    scopes: self.open_scopes(),
                });
                self.stmt(body);
                let (breaks, continues) = self.pop_loop();
                let here = self.here();
                self.patch_all(continues, here);
                let mut back = Vec::new();
                self.cond_jump(cond, true, &mut back);
                self.patch_all(back, top);
                let here = self.here();
                self.patch_all(breaks, here);
                if body_scope {
                    self.close_scope();
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let opened = self.open_scope(scopes::for_scope(s));
                for s in init {
                    self.stmt(s);
                }
                self.for_loop(cond.as_ref(), step.as_ref(), body);
                if opened {
                    self.close_scope();
                }
            }
            StmtKind::Switch {
                value,
                body,
                cases,
                has_default,
            } => self.switch(value, body, cases, *has_default),
            StmtKind::Case(v) => {
                let here = self.label_here();
                if let Some(Ctx::Switch { cases, scopes, .. }) = self
                    .ctx
                    .iter_mut()
                    .rev()
                    .find(|c| matches!(c, Ctx::Switch { .. }))
                {
                    if let Some(c) = cases.iter_mut().find(|c| c.0 == *v) {
                        c.1 = Some(here);
                    }
                    let depth = *scopes;
                    self.enter_scopes_from(depth);
                }
            }
            StmtKind::Default => {
                let here = self.label_here();
                if let Some(Ctx::Switch {
                    default, scopes, ..
                }) = self
                    .ctx
                    .iter_mut()
                    .rev()
                    .find(|c| matches!(c, Ctx::Switch { .. }))
                {
                    *default = Some(here);
                    let depth = *scopes;
                    self.enter_scopes_from(depth);
                }
            }
            StmtKind::Label(id) => {
                // Every label counts as reachable (a later `goto` may jump back to it).
                let here = self.label_here();
                let label = self.labels.entry(*id).or_default();
                label.at = Some(here);
                let pending = std::mem::take(&mut label.pending);
                self.patch_all(pending, here);
                self.enter_scopes_from(0);
            }
            StmtKind::Goto(id) => {
                self.leave_scopes_for(*id);
                let j = self.jump();
                let label = self.labels.entry(*id).or_default();
                match label.at {
                    Some(at) => self.patch(j, at),
                    None => label.pending.push(j),
                }
            }
            StmtKind::Break => {
                if let Some(Ctx::Loop { scopes, .. } | Ctx::Switch { scopes, .. }) = self.ctx.last()
                {
                    self.leave_scopes_to(*scopes);
                }
                let j = self.jump();
                match self.ctx.last_mut() {
                    Some(Ctx::Loop { breaks, .. } | Ctx::Switch { breaks, .. }) => breaks.push(j),
                    None => {}
                }
            }
            StmtKind::Continue => {
                if let Some(&Ctx::Loop { scopes, .. }) = self
                    .ctx
                    .iter()
                    .rev()
                    .find(|c| matches!(c, Ctx::Loop { .. }))
                {
                    self.leave_scopes_to(scopes);
                }
                let j = self.jump();
                if let Some(Ctx::Loop { continues, .. }) = self
                    .ctx
                    .iter_mut()
                    .rev()
                    .find(|c| matches!(c, Ctx::Loop { .. }))
                {
                    continues.push(j);
                }
            }
            StmtKind::Return(value) => match value {
                Some(e) => {
                    let r = self.expr(e, None);
                    self.at(s.span);
                    self.emit(Instr::Ret { a: r });
                }
                None => self.void_return(),
            },
        }
        self.free = mark;
    }

    fn pop_loop(&mut self) -> (Vec<Patch>, Vec<Patch>) {
        match self.ctx.pop() {
            Some(Ctx::Loop {
                breaks, continues, ..
            }) => (breaks, continues),
            _ => (Vec::new(), Vec::new()),
        }
    }

    /// A register holding an array reference to the `size` bytes of the frame's array area
    /// from offset `off` (a local's whole storage, to zero and fill it).
    fn flat_view(&mut self, off: u32, size: u32) -> crate::bytecode::Reg {
        let flat = self.alloc();
        let k = self.constant(
            ArrayRef {
                base: off,
                dim: size,
            }
            .pack(),
        );
        self.emit(Instr::LocalArr { a: flat, k });
        flat
    }

    fn decl(&mut self, local: crate::hir::LocalId, init: Option<&Init>) {
        let reg = self.local_reg[local.index()];
        match init {
            None => {}
            Some(Init::Scalar(e)) => {
                self.expr(e, Some(reg));
            }
            Some(Init::Object(fields)) => {
                let size = self.func.local(local).ty.size().unwrap_or(0) as u32;
                let (Some(off), Some(obj)) = (
                    self.local_array_off[local.index()],
                    self.frame_obj[local.index()],
                ) else {
                    return;
                };
                // Zero the whole object through a byte view, then store each scalar.
                let flat = self.flat_view(off, size);
                let s = self.shape(1, 1);
                self.emit(Instr::ZeroArr { a: flat, s });
                for f in fields {
                    let mark = self.free;
                    let v = self.expr(&f.value, None);
                    let (p, imm) = match i16::try_from(f.offset) {
                        Ok(imm) => (obj, imm),
                        Err(_) => {
                            let q = self.alloc();
                            self.pointer_step(q, obj, f.offset as i64);
                            (q, 0)
                        }
                    };
                    let loc = match f.bits {
                        Some((bit, width)) => super::places::Loc::Bits(p, imm, f.ty, bit, width),
                        None => super::places::Loc::Ptr(p, imm, f.ty),
                    };
                    self.store(loc, v);
                    self.free = mark;
                }
            }
            Some(Init::Array(items)) => {
                let size = self.func.local(local).ty.size().unwrap_or(0) as u32;
                let Some(off) = self.local_array_off[local.index()] else {
                    return;
                };
                // A flat view of the whole array, to zero it and store by flat index.
                let flat = self.flat_view(off, size);
                let elem = self.func.local(local).ty.elem();
                let s = self.shape(elem.bytes(), 1);
                self.emit(Instr::ZeroArr { a: flat, s });
                for (index, value) in items {
                    let mark = self.free;
                    let v = self.expr(value, None);
                    let i = self.alloc();
                    self.emit(Instr::LoadI {
                        a: i,
                        imm: *index as i32,
                    });
                    self.emit(super::instrs::store_elem(elem, v, flat, i));
                    self.free = mark;
                }
            }
        }
    }

    fn while_loop(&mut self, cond: &Expr, body: &Stmt) {
        let body_scope = self.open_loop_body_scope(body);
        let always = self.const_truth(cond) == Some(true);
        let entry = if always { None } else { Some(self.jump()) };
        let top = self.label_here();
        self.ctx.push(Ctx::Loop {
            breaks: Vec::new(),
            continues: Vec::new(),
            scopes: self.open_scopes(),
        });
        self.stmt(body);
        let (breaks, continues) = self.pop_loop();
        let test = self.here();
        self.patch_all(continues, test);
        if let Some(e) = entry {
            self.patch(e, test);
        }
        if always {
            let t = self.pc(top);
            self.at(cond.span);
            self.emit(Instr::Jmp { t });
        } else {
            let mut back = Vec::new();
            self.cond_jump(cond, true, &mut back);
            self.patch_all(back, top);
        }
        let here = self.here();
        self.patch_all(breaks, here);
        if body_scope {
            self.close_scope();
        }
    }

    fn for_loop(&mut self, cond: Option<&Expr>, step: Option<&Expr>, body: &Stmt) {
        let body_scope = self.open_loop_body_scope(body);
        self.for_loop_in_scope(cond, step, body);
        if body_scope {
            self.close_scope();
        }
    }

    fn for_loop_in_scope(&mut self, cond: Option<&Expr>, step: Option<&Expr>, body: &Stmt) {
        let cond = cond.filter(|c| self.const_truth(c) != Some(true));
        if let (Some(c), Some(st)) = (cond, step) {
            if let Some(fused) = self.fused_step(c, st) {
                // Test once at the top, then step-and-test at the bottom in one instruction.
                let mut exit = Vec::new();
                self.cond_jump(c, false, &mut exit);
                let top = self.label_here();
                self.ctx.push(Ctx::Loop {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    scopes: self.open_scopes(),
                });
                self.stmt(body);
                let (breaks, continues) = self.pop_loop();
                let here = self.here();
                self.patch_all(continues, here);
                let t = self.pc(top);
                self.at(st.span);
                let mut ins = fused;
                ins.for_each_target_mut(|p| *p = t);
                self.emit(ins);
                let here = self.here();
                self.patch_all(exit, here);
                self.patch_all(breaks, here);
                return;
            }
        }
        let entry = cond.map(|_| self.jump());
        let top = self.label_here();
        self.ctx.push(Ctx::Loop {
            breaks: Vec::new(),
            continues: Vec::new(),
            scopes: self.open_scopes(),
        });
        self.stmt(body);
        let (breaks, continues) = self.pop_loop();
        let here = self.here();
        self.patch_all(continues, here);
        if let Some(st) = step {
            let mark = self.free;
            self.at(st.span);
            self.effect(st);
            self.free = mark;
        }
        let test = self.here();
        if let Some(e) = entry {
            self.patch(e, test);
        }
        match cond {
            Some(c) => {
                let mut back = Vec::new();
                self.cond_jump(c, true, &mut back);
                self.patch_all(back, top);
            }
            None => {
                let t = self.pc(top);
                self.emit(Instr::Jmp { t });
            }
        }
        let here = self.here();
        self.patch_all(breaks, here);
    }

    /// If `step` increments an `int`/`long` local by one and `cond` compares that local with
    /// `<` (or `<=` for `int`) against a local or a small constant, the fused
    /// increment-compare-branch instruction (target still to be set).
    fn fused_step(&self, cond: &Expr, step: &Expr) -> Option<Instr> {
        let stepped = match &step.kind {
            ExprKind::IncDec {
                place: Place::Local(l),
                increment: true,
                ..
            } => *l,
            ExprKind::CompoundAssign {
                place: Place::Local(l),
                op: BinaryOp::Add,
                value,
                ..
            } if self.int_const(value) == Some(1)
                && matches!(
                    self.func.local(*l).ty,
                    Type::Scalar(ScalarType::Int | ScalarType::Long)
                ) =>
            {
                *l
            }
            _ => return None,
        };
        let ty = match self.func.local(stepped).ty {
            Type::Scalar(t @ (ScalarType::Int | ScalarType::Long)) => t,
            _ => return None,
        };
        let ExprKind::Compare {
            op,
            operand_ty,
            lhs,
            rhs,
        } = &cond.kind
        else {
            return None;
        };
        if *operand_ty != ty {
            return None;
        }
        match &lhs.kind {
            ExprKind::Load(Place::Local(l)) if *l == stepped => {}
            _ => return None,
        }
        let a = self.local_reg[stepped.index()];
        let t = Pc(0);
        if let ExprKind::Load(Place::Local(bound)) = &rhs.kind {
            if *bound == stepped {
                return None;
            }
            let b = self.local_reg[bound.index()];
            return match (op, ty) {
                (CompareOp::Lt, ScalarType::Int) => Some(Instr::IncJLt32 { a, b, t }),
                (CompareOp::Le, ScalarType::Int) => Some(Instr::IncJLe32 { a, b, t }),
                (CompareOp::Lt, ScalarType::Long) => Some(Instr::IncJLt64 { a, b, t }),
                _ => None,
            };
        }
        let bound = self.int_const(rhs)?;
        match (op, ty) {
            (CompareOp::Lt, ScalarType::Int) => {
                let imm = i16::try_from(bound).ok()?;
                Some(Instr::IncJLtI32 { a, imm, t })
            }
            (CompareOp::Le, ScalarType::Int) => {
                let imm = i16::try_from(bound + 1).ok()?;
                Some(Instr::IncJLtI32 { a, imm, t })
            }
            _ => None,
        }
    }

    fn switch(&mut self, value: &Expr, body: &Block, cases: &[CaseRange], has_default: bool) {
        let v = self.expr(value, None);
        self.at(value.span);
        // Dispatch: a jump table when dense, else compare-and-branch per case (a GNU C range
        // by one unsigned compare of `value - low` with its extent).
        let (lo, hi) = (
            cases.iter().map(|c| c.low).min(),
            cases.iter().map(|c| c.high).max(),
        );
        // The values the labels match (a range counts as many values as it matches).
        let matched: i128 = cases.iter().map(|c| i128::from(c.extent()) + 1).sum();
        let mut dispatch: Vec<(CaseRange, Patch)> = Vec::new();
        let mut table_at = None;
        let mut default_jump = None;
        let dense = match (lo, hi) {
            (Some(lo), Some(hi)) if lo <= hi => {
                let span = (hi as i128) - (lo as i128) + 1;
                matched >= 4
                    && span <= i128::from(TABLE_DENSITY) * matched.min(cases.len() as i128 * 64) + 4
            }
            _ => false,
        };
        if dense {
            let lo = lo.unwrap_or(0);
            let hi = hi.unwrap_or(0);
            let tab = self.table(JumpTable {
                low: lo,
                targets: vec![Pc(0); (hi - lo + 1) as usize],
                default: Pc(0),
            });
            table_at = Some(tab);
            self.emit(Instr::JTab { a: v, tab });
        } else {
            for &range in cases {
                let p = if range.low != range.high {
                    // `value - low <=u high - low`, in 64 bits: exact for every integer type.
                    let offset = self.alloc();
                    let low = self.alloc();
                    self.load_bits(low, range.low as u64);
                    self.emit(super::instrs::binary_instr(
                        BinaryOp::Sub,
                        ScalarType::ULong,
                        offset,
                        v,
                        low,
                    ));
                    let extent = self.alloc();
                    self.load_bits(extent, range.extent());
                    self.emit(Instr::JLeU {
                        a: offset,
                        b: extent,
                        t: Pc(0),
                    })
                } else {
                    let c = range.low;
                    match i16::try_from(c) {
                        Ok(imm) => self.emit(Instr::JEqI {
                            a: v,
                            imm,
                            t: Pc(0),
                        }),
                        Err(_) => {
                            let k = self.alloc();
                            self.load_bits(k, c as u64);
                            self.emit(Instr::JEq {
                                a: v,
                                b: k,
                                t: Pc(0),
                            })
                        }
                    }
                };
                dispatch.push((range, p));
            }
            default_jump = Some(self.jump());
        }
        self.ctx.push(Ctx::Switch {
            scopes: self.open_scopes(),
            breaks: Vec::new(),
            cases: cases.iter().map(|&c| (c, None)).collect(),
            default: None,
        });
        self.block(body);
        let end = self.here();
        let (breaks, labels, default) = match self.ctx.pop() {
            Some(Ctx::Switch {
                breaks,
                cases,
                default,
                ..
            }) => (breaks, cases, default),
            _ => return,
        };
        let default_target = if has_default {
            default.unwrap_or(end)
        } else {
            end
        };
        let label_of = |c: CaseRange| {
            labels
                .iter()
                .find(|l| l.0 == c)
                .and_then(|l| l.1)
                .unwrap_or(end)
        };
        if let Some(tab) = table_at {
            let d = self.pc(default_target);
            let low = self.tables[tab.index()].low;
            let n = self.tables[tab.index()].targets.len();
            let mut targets = vec![d; n];
            for &c in cases {
                let t = self.pc(label_of(c));
                for k in 0..=c.extent() {
                    let value = c.low.wrapping_add(k as i64);
                    targets[(value - low) as usize] = t;
                }
            }
            let table = &mut self.tables[tab.index()];
            table.targets = targets;
            table.default = d;
        } else {
            for (c, p) in dispatch {
                let t = label_of(c);
                self.patch(p, t);
            }
            if let Some(j) = default_jump {
                self.patch(j, default_target);
            }
        }
        self.patch_all(breaks, end);
    }
}
