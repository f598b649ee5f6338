//! Tier-0 branch counters, kept by the interpreter loop itself.
//!
//! Every code version owns a [`Counters`] slice of two cells per instruction: at a conditional
//! branch at `pc`, the loop of a counting mode ([`crate::probes::Probes::COUNTS`]) adds one to
//! cell `2 * pc + taken` of the running version, with a load of the slice's address from the
//! version and one increment: about four host instructions, the cheapest way to count every
//! branch outcome (a sink hook needs the function index, the sink's pointer and a table
//! lookup, over twice the work; measured in `BENCHMARKS.md`).
//!
//! The compiled versions' slices are views of one shared allocation ([`BranchCounts`]), which
//! the sinks keep a handle to: tier-up reads a function's counts from it to number its paths
//! (smart numbering). Instrumented versions get a private slice of their own: in `edge` mode
//! their counted twins and `CountEdge` instructions count the chords of a spanning tree there
//! ([`crate::modes::edge`], which keeps a handle to the slice); other modes' instrumented code
//! has no counted instruction.

use std::cell::Cell;
use std::rc::Rc;

use lang::bytecode::{FuncIdx, Pc, Program};

/// The counter cells of one code version: two per instruction.
#[derive(Clone, Debug)]
pub struct Counters {
    /// Keeps the cells alive.
    cells: Rc<[Cell<u64>]>,
    /// The first cell of this version's slice, inside `cells`.
    ptr: *const Cell<u64>,
    /// Number of cells of the slice.
    len: usize,
}

impl Default for Counters {
    fn default() -> Self {
        Counters::new(0)
    }
}

impl Counters {
    /// Zeroed cells for a version of `instructions` instructions.
    pub fn new(instructions: usize) -> Counters {
        let cells: Rc<[Cell<u64>]> = (0..2 * instructions).map(|_| Cell::new(0)).collect();
        let ptr = cells.as_ptr();
        Counters {
            cells,
            ptr,
            len: 2 * instructions,
        }
    }

    /// Number of cells (twice the instructions covered).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The count of the branch at `pc` going one way (0 outside the slice).
    pub fn get(&self, pc: Pc, taken: bool) -> u64 {
        let i = 2 * pc.index() + usize::from(taken);
        if i < self.len {
            // SAFETY: `ptr .. ptr + len` lies inside `cells`, which `self` keeps alive.
            unsafe { (*self.ptr.add(i)).get() }
        } else {
            0
        }
    }

    /// Counts the branch at `pc` going one way.
    ///
    /// # Safety
    /// `pc` must be an instruction of the version the slice was made for (the verifier
    /// guarantees it for every pc the loop runs, and the slice covers every instruction).
    #[inline(always)]
    pub unsafe fn bump(&self, pc: usize, taken: bool) {
        let i = 2 * pc + usize::from(taken);
        debug_assert!(i < self.len);
        // SAFETY: the caller guarantees `i < len`; the cells are alive (see `get`).
        let cell = unsafe { &*self.ptr.add(i) };
        cell.set(cell.get().wrapping_add(1));
    }
}

/// The counters of every compiled version of a program, by function: what tier-up reads.
#[derive(Clone, Debug)]
pub struct BranchCounts {
    functions: Vec<Counters>,
}

impl BranchCounts {
    /// Zeroed counters for every function of `program`, in one allocation.
    pub fn new(program: &Program) -> BranchCounts {
        let total: usize = program.functions.iter().map(|f| f.code.len()).sum();
        let all = Counters::new(total);
        let mut start = 0;
        let functions = program
            .functions
            .iter()
            .map(|f| {
                let len = 2 * f.code.len();
                // SAFETY: `start + len <= 2 * total`: the slices partition the allocation.
                let ptr = unsafe { all.ptr.add(start) };
                start += len;
                Counters {
                    cells: Rc::clone(&all.cells),
                    ptr,
                    len,
                }
            })
            .collect();
        BranchCounts { functions }
    }

    /// The counters of function `f`'s compiled version.
    pub fn of(&self, f: FuncIdx) -> &Counters {
        &self.functions[f.index()]
    }

    /// The count of the branch at `pc` of `f`'s compiled code going one way.
    pub fn get(&self, f: FuncIdx, pc: Pc, taken: bool) -> u64 {
        self.functions
            .get(f.index())
            .map_or(0, |c| c.get(pc, taken))
    }
}
