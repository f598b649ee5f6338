//! Which local variables have their address taken (`&x`) or are assigned, found before a
//! function body is checked.
//!
//! A scalar local lives in a register, where nothing can point to it; one whose address is
//! taken must live in memory instead (the checker stores it as a one-element array), so this
//! must be known when it is declared, before the `&` that needs it is seen. The scan is by
//! name over the whole body: a name whose address is taken anywhere makes every local of
//! that name live in memory, which is correct and costs only speed for a shadowed namesake.
//!
//! An array parameter (`int a[]`, passed as an array reference) that the body assigns or
//! increments is a pointer variable there: it is converted to a pointer on entry.

use std::collections::HashSet;

use crate::ast::{self, BlockItem, ExprKind as K, ForInit, Initializer, StmtKind as S, UnaryOp};

/// What the body of a function does with names.
#[derive(Default)]
pub(super) struct Names {
    /// The names `x` that appear as `&x`.
    pub addressed: HashSet<String>,
    /// The names assigned to (`x = ...`, `x += ...`) or incremented or decremented: an array
    /// parameter among them is a pointer variable in the body.
    pub modified: HashSet<String>,
}

/// The names whose address `body` takes, and those it assigns.
pub(super) fn scan_names(body: &ast::Block) -> Names {
    let mut names = Names::default();
    block(body, &mut names);
    names
}

fn block(b: &ast::Block, out: &mut Names) {
    for item in &b.items {
        match item {
            BlockItem::Decl(d) => declaration(d, out),
            BlockItem::Stmt(s) => stmt(s, out),
            BlockItem::StaticAssert(_) => {}
        }
    }
}

fn declaration(d: &ast::Declaration, out: &mut Names) {
    for id in &d.declarators {
        if let Some(init) = &id.init {
            initializer(init, out);
        }
    }
}

fn initializer(init: &Initializer, out: &mut Names) {
    match init {
        Initializer::Expr(e) => expr(e, out),
        Initializer::List { items, .. } => items.iter().for_each(|i| initializer(i, out)),
        Initializer::Designated { value, .. } => initializer(value, out),
    }
}

fn stmt(s: &ast::Stmt, out: &mut Names) {
    match &s.kind {
        S::Block(b) => block(b, out),
        S::Expr(e) | S::Return(Some(e)) => expr(e, out),
        S::If(c, t, e) => {
            expr(c, out);
            stmt(t, out);
            if let Some(e) = e {
                stmt(e, out);
            }
        }
        S::While(c, body) | S::DoWhile(body, c) | S::Switch(c, body) | S::Case(c, body) => {
            expr(c, out);
            stmt(body, out);
        }
        S::CaseRange(low, high, body) => {
            expr(low, out);
            expr(high, out);
            stmt(body, out);
        }
        S::For(init, cond, step, body) => {
            match &**init {
                ForInit::Expr(e) => expr(e, out),
                ForInit::Decl(d) => declaration(d, out),
                ForInit::None => {}
            }
            for e in [cond, step].into_iter().flatten() {
                expr(e, out);
            }
            stmt(body, out);
        }
        S::Default(body) | S::Labeled(_, _, body) => stmt(body, out),
        S::Empty | S::Break | S::Continue | S::Return(None) | S::Goto(..) | S::Error => {}
    }
}

fn expr(e: &ast::Expr, out: &mut Names) {
    match &e.kind {
        K::Unary(UnaryOp::AddrOf, x) => {
            if let K::Ident(name) = &x.kind {
                out.addressed.insert(name.clone());
            }
            expr(x, out);
        }
        K::Unary(UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec, x) => {
            if let K::Ident(name) = &x.kind {
                out.modified.insert(name.clone());
            }
            expr(x, out);
        }
        K::Assign(_, a, b) => {
            if let K::Ident(name) = &a.kind {
                out.modified.insert(name.clone());
            }
            expr(a, out);
            expr(b, out);
        }
        K::Unary(_, x) | K::Cast(_, x) | K::SizeofExpr(x) | K::AlignofExpr(x) => expr(x, out),
        K::CompoundLiteral(_, init) => initializer(init, out),
        K::Member { base, .. } => expr(base, out),
        K::Binary(_, a, b) | K::Comma(a, b) | K::Index(a, b) => {
            expr(a, out);
            expr(b, out);
        }
        K::Conditional(c, a, b) => {
            expr(c, out);
            expr(a, out);
            expr(b, out);
        }
        K::Call(f, args) => {
            expr(f, out);
            args.iter().for_each(|a| expr(a, out));
        }
        K::Ident(_)
        | K::Int(..)
        | K::Double(_)
        | K::Float(_)
        | K::LongDouble(_)
        | K::Char(_)
        | K::Str(_)
        | K::SizeofType(_)
        | K::AlignofType(_)
        | K::Error => {}
        K::StmtExpr(b) => block(b, out),
        K::Offsetof(_, steps) => {
            for step in steps {
                if let ast::OffsetofStep::Index(e) = step {
                    expr(e, out);
                }
            }
        }
    }
}
