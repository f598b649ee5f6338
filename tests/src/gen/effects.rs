//! Side-effect bookkeeping that keeps generated expressions well defined and deterministic.
//!
//! C99 leaves the order of evaluation of most operands unspecified, and modifying an object
//! twice (or reading it other than to compute its new value) between sequence points is
//! undefined. gcc and the VM may legitimately pick different orders, so the generator must
//! never produce an expression whose result depends on the order. It tracks, for every
//! generated expression, the set of variables it reads and writes (a whole array counts as one
//! variable; printing counts as a write of the pseudo-variable [`STDOUT`]; a call counts as
//! reading every global and writing what the callee may write). When it combines two
//! operands that are unsequenced relative to each other, the second is generated under a
//! [`Forbid`] derived from the first: it may not touch what the first writes, nor write what
//! the first touches.

use std::collections::BTreeSet;

/// The id of a variable (or of the pseudo-variable [`STDOUT`]).
pub type VarId = u32;

/// The pseudo-variable written by anything that prints.
pub const STDOUT: VarId = 0;

/// What an expression reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Variables read.
    pub reads: BTreeSet<VarId>,
    /// Variables written (including [`STDOUT`] for output).
    pub writes: BTreeSet<VarId>,
}

impl Effects {
    /// No reads, no writes.
    pub fn none() -> Effects {
        Effects::default()
    }

    /// Reads one variable.
    pub fn read(v: VarId) -> Effects {
        let mut e = Effects::none();
        e.reads.insert(v);
        e
    }

    /// Adds everything `other` reads and writes.
    pub fn union_with(&mut self, other: &Effects) {
        self.reads.extend(other.reads.iter().copied());
        self.writes.extend(other.writes.iter().copied());
    }

    /// The union of two effect sets.
    pub fn union(mut self, other: &Effects) -> Effects {
        self.union_with(other);
        self
    }

    /// True if this expression has no side effects.
    pub fn is_pure(&self) -> bool {
        self.writes.is_empty()
    }
}

/// Restrictions on an expression about to be generated.
#[derive(Clone, Debug, Default)]
pub struct Forbid {
    /// Variables the expression must not write (they are read elsewhere).
    pub no_write: BTreeSet<VarId>,
    /// Variables the expression must neither read nor write (they are written elsewhere).
    pub no_access: BTreeSet<VarId>,
}

impl Forbid {
    /// No restrictions.
    pub fn none() -> Forbid {
        Forbid::default()
    }

    /// The restrictions for an operand unsequenced with an already generated one whose
    /// effects are `done`.
    pub fn after(&self, done: &Effects) -> Forbid {
        let mut f = self.clone();
        f.no_access.extend(done.writes.iter().copied());
        f.no_write.extend(done.reads.iter().copied());
        f.no_write.extend(done.writes.iter().copied());
        f
    }

    /// Also forbids writing `v`.
    pub fn without_write(&self, v: VarId) -> Forbid {
        let mut f = self.clone();
        f.no_write.insert(v);
        f
    }

    /// Also forbids touching `v`.
    pub fn without_access(&self, v: VarId) -> Forbid {
        let mut f = self.clone();
        f.no_access.insert(v);
        f
    }

    /// May `v` be read?
    pub fn may_read(&self, v: VarId) -> bool {
        !self.no_access.contains(&v)
    }

    /// May `v` be written?
    pub fn may_write(&self, v: VarId) -> bool {
        !self.no_access.contains(&v) && !self.no_write.contains(&v)
    }

    /// Are effects `e` allowed here?
    pub fn allows(&self, e: &Effects) -> bool {
        e.reads.iter().all(|&v| self.may_read(v)) && e.writes.iter().all(|&v| self.may_write(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsequenced_operands_cannot_conflict() {
        // left operand: x++ (reads and writes x = 5); right operand must not touch x
        let mut left = Effects::read(5);
        left.writes.insert(5);
        let f = Forbid::none().after(&left);
        assert!(!f.may_read(5));
        assert!(!f.allows(&Effects::read(5)));
        assert!(f.may_read(6) && f.may_write(6));
        // left operand only reads y = 7: the right may read y but not write it
        let f = Forbid::none().after(&Effects::read(7));
        assert!(f.may_read(7) && !f.may_write(7));
    }
}
