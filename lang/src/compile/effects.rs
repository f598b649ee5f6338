//! What evaluating an expression may do, for the compiler's choices of order and of what to
//! skip: side effects, calls, writes to locals, reads that cannot be observed, and the order in
//! which a binary operator's operands are best evaluated.

use crate::builtins::Builtin;
use crate::hir::{Arg, BinaryOp, Expr, ExprKind, Place, ScalarType, UnaryOp};

/// Whether evaluating `e` can have an effect (calls, assignments, output, traps are effects
/// only where the value is computed, which we keep).
pub(super) fn has_effects(e: &Expr) -> bool {
    !matches!(
        &e.kind,
        ExprKind::IntConst(_)
            | ExprKind::DoubleConst(_)
            | ExprKind::StringLit(_)
            | ExprKind::Load(Place::Local(_) | Place::Global(_))
    )
}

/// Whether evaluating `e` may assign to a local (assignments, `++`/`--`); calls cannot, as
/// locals are not addressable.
pub(super) fn writes_locals(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::WithInit { .. } => true,
        ExprKind::IntConst(_)
        | ExprKind::DoubleConst(_)
        | ExprKind::StringLit(_)
        | ExprKind::Puts { .. } => false,
        ExprKind::ObjectAddr(_)
        | ExprKind::ElementAddr { .. }
        | ExprKind::FuncAddr(_)
        | ExprKind::PtrAdd { .. }
        | ExprKind::PtrDiff { .. }
        | ExprKind::CallIndirect { .. }
        | ExprKind::CopyObject { .. }
        | ExprKind::Memory { .. }
        | ExprKind::Sprintf { .. } => sub_exprs(e).into_iter().any(writes_locals),
        ExprKind::Load(p) => match p {
            Place::Element { indices, .. } => indices.iter().any(writes_locals),
            Place::Deref { ptr, .. } | Place::BitField { ptr, .. } => writes_locals(ptr),
            _ => false,
        },
        ExprKind::Convert { expr, .. } | ExprKind::Discard(expr) => writes_locals(expr),
        ExprKind::Unary { operand, .. } => writes_locals(operand),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::LogicalAnd { lhs, rhs }
        | ExprKind::LogicalOr { lhs, rhs }
        | ExprKind::Comma { lhs, rhs } => writes_locals(lhs) || writes_locals(rhs),
        ExprKind::Conditional {
            cond,
            then_expr,
            else_expr,
        } => writes_locals(cond) || writes_locals(then_expr) || writes_locals(else_expr),
        ExprKind::Call { args, .. } => args.iter().any(|a| match a {
            Arg::Scalar(x) => writes_locals(x),
            Arg::Array { indices, .. } => indices.iter().any(writes_locals),
            Arg::FromPointer { ptr, .. } => writes_locals(ptr),
        }),
        ExprKind::Builtin { args, .. } | ExprKind::Printf { args, .. } => {
            args.iter().any(writes_locals)
        }
    }
}

/// Whether evaluating `e` has a side effect in gcc's sense (`TREE_SIDE_EFFECTS`): a call to a
/// user function, output, an assignment, or a math function that gcc treats as setting
/// `errno` (`sqrt exp log log10 pow atan2 fmod`; measured: gcc -O0 does not count `abs labs
/// fabs floor ceil atan sin cos tan`; their `float` forms are taken to be alike, as gcc gives
/// them the same attributes).
pub(super) fn has_side_effects(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { .. }
        | ExprKind::CallIndirect { .. }
        | ExprKind::WithInit { .. }
        | ExprKind::Sprintf { .. }
        | ExprKind::Printf { .. }
        | ExprKind::Puts { .. }
        | ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. } => true,
        ExprKind::Memory { func, args } => !func.is_pure() || args.iter().any(has_side_effects),
        ExprKind::Builtin { func, args } => {
            !matches!(
                func.double_form().unwrap_or(*func),
                Builtin::Abs
                    | Builtin::Labs
                    | Builtin::Fabs
                    | Builtin::Floor
                    | Builtin::Ceil
                    | Builtin::Atan
                    | Builtin::Sin
                    | Builtin::Cos
                    | Builtin::Tan
            ) || args.iter().any(has_side_effects)
        }
        _ => sub_exprs(e).iter().any(|x| has_side_effects(x)),
    }
}

/// Whether `e` contains a call to a user function or output (something that can change
/// globals or arrays, or print).
pub(super) fn has_call(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { .. }
        | ExprKind::CallIndirect { .. }
        | ExprKind::WithInit { .. }
        | ExprKind::Sprintf { .. }
        | ExprKind::Printf { .. }
        | ExprKind::Puts { .. } => true,
        ExprKind::Memory { func, .. } if !func.is_pure() => true,
        ExprKind::Builtin {
            func: Builtin::Putchar | Builtin::Exit | Builtin::Rand | Builtin::Srand,
            ..
        } => true,
        _ => sub_exprs(e).iter().any(|x| has_call(x)),
    }
}

/// Whether the moment `e` is evaluated cannot be observed: it only reads locals and constants
/// and cannot trap.
pub(super) fn is_unobservable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntConst(_) | ExprKind::DoubleConst(_) | ExprKind::Load(Place::Local(_)) => true,
        ExprKind::Convert { expr, .. } => is_unobservable(expr),
        ExprKind::Unary { operand, .. } => is_unobservable(operand),
        ExprKind::Binary { op, lhs, rhs } => {
            !matches!(
                op,
                BinaryOp::Div | BinaryOp::Rem | BinaryOp::Shl | BinaryOp::Shr
            ) && is_unobservable(lhs)
                && is_unobservable(rhs)
        }
        ExprKind::Compare { lhs, rhs, .. } => is_unobservable(lhs) && is_unobservable(rhs),
        _ => false,
    }
}

/// The direct subexpressions of `e` (array indices of places and arguments included).
pub(super) fn sub_exprs(e: &Expr) -> Vec<&Expr> {
    fn place(p: &Place) -> Vec<&Expr> {
        match p {
            Place::Element { indices, .. } => indices.iter().collect(),
            Place::Deref { ptr, .. } | Place::BitField { ptr, .. } => vec![ptr],
            _ => Vec::new(),
        }
    }
    match &e.kind {
        ExprKind::IntConst(_)
        | ExprKind::DoubleConst(_)
        | ExprKind::StringLit(_)
        | ExprKind::Puts { .. } => Vec::new(),
        ExprKind::Load(p) => place(p),
        ExprKind::Convert { expr, .. } | ExprKind::Discard(expr) => vec![expr],
        // The initialization's own expressions are not operands of the node.
        ExprKind::WithInit { value, .. } => vec![value],
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Compare { lhs, rhs, .. }
        | ExprKind::LogicalAnd { lhs, rhs }
        | ExprKind::LogicalOr { lhs, rhs }
        | ExprKind::Comma { lhs, rhs } => vec![lhs, rhs],
        ExprKind::Conditional {
            cond,
            then_expr,
            else_expr,
        } => vec![cond, then_expr, else_expr],
        ExprKind::Assign { place: p, value }
        | ExprKind::CompoundAssign {
            place: p, value, ..
        } => {
            let mut v = place(p);
            v.push(value);
            v
        }
        ExprKind::IncDec { place: p, .. } => place(p),
        ExprKind::Call { args, .. } => args
            .iter()
            .flat_map(|a| match a {
                Arg::Scalar(x) => vec![x],
                Arg::Array { indices, .. } => indices.iter().collect(),
                Arg::FromPointer { ptr, .. } => vec![ptr],
            })
            .collect(),
        ExprKind::Builtin { args, .. } | ExprKind::Printf { args, .. } => args.iter().collect(),
        ExprKind::ObjectAddr(_) | ExprKind::FuncAddr(_) => Vec::new(),
        ExprKind::ElementAddr { indices, .. } => indices.iter().collect(),
        ExprKind::PtrAdd { ptr, index, .. } => vec![ptr, index],
        ExprKind::PtrDiff { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::CopyObject { dst, src, .. } => vec![dst, src],
        ExprKind::Memory { args, .. } => args.iter().collect(),
        ExprKind::Sprintf {
            buffer,
            limit,
            args,
            ..
        } => std::iter::once(&**buffer)
            .chain(limit.as_deref())
            .chain(args)
            .collect(),
        ExprKind::CallIndirect { callee, args } => std::iter::once(&**callee)
            .chain(args.iter().flat_map(|a| match a {
                Arg::Scalar(x) => vec![x],
                Arg::Array { indices, .. } => indices.iter().collect(),
                Arg::FromPointer { ptr, .. } => vec![ptr],
            }))
            .collect(),
    }
}

/// Whether `e` is a plain scalar global read, possibly through conversions that keep its size
/// (what gcc's `tree_swap_operands_p` calls a variable after `STRIP_NOPS`).
pub(super) fn is_global_variable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Load(Place::Global(_)) => true,
        ExprKind::Convert { expr, to } => {
            expr.ty.is_some_and(|from| {
                from.is_integer()
                    && to.is_integer()
                    && from != ScalarType::Bool
                    && *to != ScalarType::Bool
                    && from.bits() == to.bits()
            }) && is_global_variable(expr)
        }
        _ => false,
    }
}

/// Whether gcc -O0 evaluates the right operand of the arithmetic `lhs op rhs` first (rules 5
/// and 6 of the module docs). Only decided where it can be observed: the right operand calls
/// a function.
pub(super) fn binary_rhs_first(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> bool {
    if !has_call(rhs) {
        return false;
    }
    let commutative = matches!(
        op,
        BinaryOp::Add | BinaryOp::Mul | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
    );
    // Commutative operators put a variable second.
    if commutative && is_global_variable(lhs) {
        return true;
    }
    // `(-A) + B` and `(~A) + B` become `B - A` and `B - A - 1` (but `A + (-B)` wins).
    op == BinaryOp::Add
        && matches!(
            lhs.kind,
            ExprKind::Unary {
                op: UnaryOp::Neg | UnaryOp::BitNot,
                ..
            }
        )
        && !matches!(
            rhs.kind,
            ExprKind::Unary {
                op: UnaryOp::Neg,
                ..
            }
        )
}

/// Whether gcc -O0 evaluates the right operand of a comparison first: a variable on the left
/// is swapped to the right (`g < f()` becomes `f() > g`).
pub(super) fn compare_rhs_first(lhs: &Expr, rhs: &Expr) -> bool {
    has_call(rhs) && is_global_variable(lhs)
}

/// Whether gcc knows that the double or float `e` is never -0.0 (`tree_expr_maybe_real_minus_zero_p`
/// is false): a conversion from an integer, `fabs`, a constant other than -0.0 (after its
/// conversion, which gcc folds first), or a conditional whose both arms are such.
pub(super) fn cannot_be_minus_zero(e: &Expr) -> bool {
    // A constant expression is folded first, as gcc does (`(float)-1e-50` is -0.0f).
    if let Ok(crate::check::types::Const::Double(x)) = crate::check::types::eval(e) {
        return !(x == 0.0 && x.is_sign_negative());
    }
    match &e.kind {
        ExprKind::Convert { expr, to } => {
            to.is_floating() && expr.ty.is_some_and(|t| t.is_integer())
        }
        ExprKind::Conditional {
            then_expr,
            else_expr,
            ..
        } => cannot_be_minus_zero(then_expr) && cannot_be_minus_zero(else_expr),
        ExprKind::Builtin {
            func: Builtin::Fabs | Builtin::Fabsf,
            ..
        } => true,
        _ => false,
    }
}
