//! Block scopes of the locals pointers may point to: where their objects' lives end and begin
//! again, so that an access through a pointer to a block-scope local after its block ended is
//! caught (ASan's stack-use-after-scope; C99 6.2.4p5: the object's lifetime is the execution
//! of its block, entered in any way, and ends when the block ends in any way).
//!
//! Every local whose address is taken is an object of its frame for the whole call (`FrameObj`
//! in the prologue). For one declared in a nested block (or in a `for` statement's first
//! clause), the compiler marks its block's boundaries with `FrameObj` on the object's index
//! and [`SCOPE_BEGIN`] or [`SCOPE_END`] (an out-of-line call in the interpreter, about 40
//! instructions; the register keeps the object's pointer):
//!
//! - *entries*: the block's start, and every label inside it that a jump from outside may
//!   reach (statement labels, and `case`/`default` labels of a `switch` outside the block),
//!   revive its objects (nothing if they are live);
//! - *exits*: falling off the block's end, and every `break`, `continue` and `goto` that
//!   leaves it, end its objects' scope (a `return` ends every object of the frame anyway).
//!
//! A loop's body block is the exception: its scope is opened before the loop and closed after
//! it (where `break` lands), not at every pass, so that a mark costs once per loop, not twice
//! per iteration (a mark is an out-of-line call, about 120 instructions). A pointer to a body
//! local kept from one pass to the next is valid in the next anyway (the object comes back at
//! the same address, as ASan sees it); what this leaves undetected is a use through such a
//! pointer in the loop's own condition or step, between two passes. After the loop, and
//! after any `goto` out of it, the use is a runtime error naming the local. Blocks without
//! such locals, and every local whose address is never taken (a plain variable, an array
//! only indexed), cost nothing.

use std::collections::HashMap;

use super::FnCompiler;
use crate::bytecode::{Instr, Reg, SCOPE_BEGIN, SCOPE_END};
use crate::hir::{Block, LabelId, Stmt, StmtKind};

/// A scope: the address of its [`Block`] or of its `for` [`Stmt`] (the HIR is not moved while
/// a function compiles).
pub(super) type ScopeId = usize;

/// The scope of a block.
pub(super) fn block_scope(b: &Block) -> ScopeId {
    b as *const Block as usize
}

/// The scope of a `for` statement's first clause.
pub(super) fn for_scope(s: &Stmt) -> ScopeId {
    s as *const Stmt as usize
}

/// What the compiler knows of a function's scopes before compiling it.
#[derive(Default)]
pub(super) struct Scopes {
    /// The frame objects (their pointers' registers and their indices among the frame's
    /// objects) declared directly in each scope that has any.
    pub objects: HashMap<ScopeId, Vec<(Reg, i32)>>,
    /// For each statement label, the scopes with objects that enclose it, outermost first.
    pub around_label: HashMap<LabelId, Vec<ScopeId>>,
    /// The scopes with objects open where compilation stands, outermost first.
    pub open: Vec<ScopeId>,
}

impl Scopes {
    /// The scopes of `body` (a function's body, whose own declarations live for the whole
    /// call); `object` gives the pointer register and the object index of a local that is a
    /// frame object whose address is taken.
    pub fn of(body: &Block, object: &dyn Fn(crate::hir::LocalId) -> Option<(Reg, i32)>) -> Scopes {
        let mut scopes = Scopes::default();
        let mut chain = Vec::new();
        for s in &body.stmts {
            scopes.visit(s, object, &mut chain);
        }
        scopes
    }

    fn visit(
        &mut self,
        s: &Stmt,
        object: &dyn Fn(crate::hir::LocalId) -> Option<(Reg, i32)>,
        chain: &mut Vec<ScopeId>,
    ) {
        match &s.kind {
            StmtKind::Block(b) => self.block(b, object, chain),
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                self.visit(then_branch, object, chain);
                if let Some(e) = else_branch {
                    self.visit(e, object, chain);
                }
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                self.visit(body, object, chain);
            }
            StmtKind::For { init, body, .. } => {
                let declared = declared_objects(init, object);
                let opened = !declared.is_empty();
                if opened {
                    self.objects.insert(for_scope(s), declared);
                    chain.push(for_scope(s));
                }
                self.visit(body, object, chain);
                if opened {
                    chain.pop();
                }
            }
            StmtKind::Switch { body, .. } => self.block(body, object, chain),
            StmtKind::Label(id) => {
                self.around_label.insert(*id, chain.clone());
            }
            _ => {}
        }
    }

    fn block(
        &mut self,
        b: &Block,
        object: &dyn Fn(crate::hir::LocalId) -> Option<(Reg, i32)>,
        chain: &mut Vec<ScopeId>,
    ) {
        let declared = declared_objects(&b.stmts, object);
        let opened = !declared.is_empty();
        if opened {
            self.objects.insert(block_scope(b), declared);
            chain.push(block_scope(b));
        }
        for s in &b.stmts {
            self.visit(s, object, chain);
        }
        if opened {
            chain.pop();
        }
    }
}

/// The frame objects declared directly by `stmts`.
fn declared_objects(
    stmts: &[Stmt],
    object: &dyn Fn(crate::hir::LocalId) -> Option<(Reg, i32)>,
) -> Vec<(Reg, i32)> {
    stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl { local, .. } => object(*local),
            _ => None,
        })
        .collect()
}

impl FnCompiler<'_> {
    /// Opens scope `id` if it has objects: revives them (its entry) and returns true.
    pub(super) fn open_scope(&mut self, id: ScopeId) -> bool {
        if !self.scopes.objects.contains_key(&id) || self.scopes.open.contains(&id) {
            return false;
        }
        self.scopes.open.push(id);
        self.mark_scopes(&[id], SCOPE_BEGIN);
        true
    }

    /// Opens the scope of a loop's body block around the whole loop (see the module docs);
    /// true if it did.
    pub(super) fn open_loop_body_scope(&mut self, body: &Stmt) -> bool {
        match &body.kind {
            StmtKind::Block(b) => self.open_scope(block_scope(b)),
            _ => false,
        }
    }

    /// Closes the innermost open scope; ends its objects' scope if control reaches its end.
    pub(super) fn close_scope(&mut self) {
        if let Some(id) = self.scopes.open.pop() {
            if self.reachable_here() {
                self.mark_scopes(&[id], SCOPE_END);
            }
        }
    }

    /// How many scopes with objects are open (for a loop or `switch` to know which scopes a
    /// `break` or `continue` leaves).
    pub(super) fn open_scopes(&self) -> usize {
        self.scopes.open.len()
    }

    /// Before a jump out of the open scopes above `depth`: ends their objects' scope.
    pub(super) fn leave_scopes_to(&mut self, depth: usize) {
        let leaving: Vec<ScopeId> = self.scopes.open.get(depth..).unwrap_or(&[]).to_vec();
        self.mark_scopes(&leaving, SCOPE_END);
    }

    /// Before a `goto label`: ends the scope of the objects of the open scopes that do not
    /// enclose the label.
    pub(super) fn leave_scopes_for(&mut self, label: LabelId) {
        let around = self.scopes.around_label.get(&label);
        let leaving: Vec<ScopeId> = self
            .scopes
            .open
            .iter()
            .copied()
            .filter(|id| around.is_none_or(|a| !a.contains(id)))
            .collect();
        self.mark_scopes(&leaving, SCOPE_END);
    }

    /// At a label that jumps from outside the open scopes above `depth` may reach: revives
    /// their objects.
    pub(super) fn enter_scopes_from(&mut self, depth: usize) {
        let entering: Vec<ScopeId> = self.scopes.open.get(depth..).unwrap_or(&[]).to_vec();
        self.mark_scopes(&entering, SCOPE_BEGIN);
    }

    /// `FrameObj` with `mark` ([`SCOPE_BEGIN`] or [`SCOPE_END`]) on every object of `scopes`
    /// (innermost scope first).
    fn mark_scopes(&mut self, scopes: &[ScopeId], mark: i32) {
        for id in scopes.iter().rev() {
            for (a, index) in self.scopes.objects[id].clone() {
                self.emit(Instr::FrameObj {
                    a,
                    imm: index | mark,
                });
            }
        }
    }
}
