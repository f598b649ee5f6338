//! Dense path counters, kept by the interpreter loop itself.
//!
//! Ball and Larus (1996, section 3.5) count a routine's paths in an array indexed by path id
//! when the routine has few enough paths, and in a hash table otherwise; Roy and Srikant do the
//! same for k-iteration paths (`profiler::counters`). Here the array belongs to the code
//! version: an instrumented version of a function with at most
//! [`profiler::counters::DENSE_LIMIT`] static paths gets [`DenseCounts`] of one cell per path
//! id, and the loop of a mode with [`crate::probes::Probes::DENSE_PATHS`] counts a completed
//! path as one increment of cell `id` of the running version: a load of the cells' address, a
//! comparison with their number and an add, with no call, no hash and no key comparison. Any
//! other id (every id of a function with more paths, whose version has no cells) goes to the
//! mode's sink as before ([`crate::probes::Probes::on_path`]).
//!
//! The cells are shared (`Rc`) between the version, which the loop increments, and the mode's
//! sink, which reads them when the profile is written: the loop cannot reach the sink's data,
//! and the sink cannot reach the machine's versions.
//!
//! A frame that entered its path mid-way by on-stack replacement must not count that path
//! (see [`crate::probes::Osr::path`]): its path register is set to [`UNKNOWN_PATH`], far
//! above any dense id, so that path's count, and only it, falls to the loop's slow path, which
//! drops it.

use std::cell::Cell;
use std::rc::Rc;

/// The path register of a frame that entered its path mid-way by on-stack replacement, in a
/// mode with dense counts: every id computed from it is at least `2^63` (plain placement adds
/// only non-negative values, fewer than the function's path count), so its count is never a
/// dense cell.
pub const UNKNOWN_PATH: u64 = 1 << 63;

/// The dense path counters of one instrumented version (none: no cells).
#[derive(Clone, Debug)]
pub struct DenseCounts {
    /// Keeps the cells alive.
    cells: Rc<[Cell<u64>]>,
    /// `cells`' first cell (kept apart so that the loop's increment loads one pointer).
    ptr: *const Cell<u64>,
    /// Number of cells: the function's path count.
    len: u64,
}

impl Default for DenseCounts {
    fn default() -> Self {
        DenseCounts::new(0)
    }
}

impl DenseCounts {
    /// Zeroed cells for the path ids `0..paths`.
    pub fn new(paths: usize) -> DenseCounts {
        let cells: Rc<[Cell<u64>]> = (0..paths).map(|_| Cell::new(0)).collect();
        let ptr = cells.as_ptr();
        DenseCounts {
            cells,
            ptr,
            len: paths as u64,
        }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Counts path `id` if it has a cell; false (nothing counted) otherwise.
    #[inline(always)]
    pub fn bump(&self, id: u64) -> bool {
        if id < self.len {
            // SAFETY: `id < len`, the number of cells `ptr` points at, which `self` keeps alive.
            let cell = unsafe { &*self.ptr.add(id as usize) };
            cell.set(cell.get().wrapping_add(1));
            true
        } else {
            false
        }
    }

    /// The count of path `id` (0 without a cell).
    pub fn get(&self, id: u64) -> u64 {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.cells.get(i))
            .map_or(0, Cell::get)
    }

    /// The `(id, count)` pairs of the ids counted at least once, in increasing id order.
    pub fn counted(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.get() != 0)
            .map(|(id, c)| (id as u64, c.get()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_with_cells_are_counted_and_others_refused() {
        let counts = DenseCounts::new(4);
        let view = counts.clone();
        for id in [0, 3, 3, 4, u64::MAX, UNKNOWN_PATH + 2] {
            assert_eq!(counts.bump(id), id < 4, "id {id}");
        }
        assert_eq!(view.counted().collect::<Vec<_>>(), vec![(0, 1), (3, 2)]);
        assert!(!DenseCounts::default().bump(0));
    }
}
