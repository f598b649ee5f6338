//! Algorithm 2 of Roy & Srikant: path identification, id -> path.
//!
//! Starting at `Start` with `r = id`, at each state the out-edge `d` is chosen whose range of ids
//! `[off(d), off(d) + count(d))` holds `r`, where `off(d) = val(d)` (minus `cval(d)` on `Start`'s
//! edges, and on the edges of a compensated state of the loop a `delta^start` path started in)
//! and `count(d)` is the number of (valid) paths through `d`; then `r -= off(d)`. This is the
//! paper's greedy choice ("the highest `val` not exceeding `n`") made exact for edges whose
//! paths are all invalid. The cost is the path's length times the out-degrees along it.

use super::numbering::out_edges;
use super::unrolled::{END, NONE};
use super::{KIterError, KIteration};
use crate::cfg::Block;
use crate::regenerate::Path;

impl KIteration<'_> {
    /// The path with id `id` (the blocks visited and where it was cut, as the design note
    /// writes paths), or `None` if `id >= num_paths()`.
    pub fn identify(&self, id: u64) -> Result<Option<Path>, KIterError> {
        if id >= self.num_paths() {
            return Ok(None);
        }
        let (un, nums) = (&self.un, &self.nums);
        let broken = || KIterError::Internal(format!("path id {id} falls in no edge's range"));
        let mut r = id;
        // The Start edge: always compensated.
        let mut chosen = None;
        for (j, &t) in un.start_to.iter().enumerate() {
            let off = nums.start_val[j] - nums.start_cval[j];
            let count = nums.paths[t as usize] - nums.invalid(t);
            if r >= off && r - off < count {
                chosen = Some((j, t, off));
                break;
            }
        }
        let (j, mut x, off) = chosen.ok_or_else(broken)?;
        r -= off;
        // A path starting at a compensated loop's header is a delta^start path of that loop.
        let delta_loop = if j > 0 && nums.is_compensated(un, x) {
            un.state_loop[x as usize]
        } else {
            NONE
        };
        let mut nodes = vec![un.state_block[x as usize]];
        loop {
            let comp = delta_loop != NONE
                && un.state_loop[x as usize] == delta_loop
                && nums.is_compensated(un, x);
            let mut next = None;
            for (d, e) in out_edges(un, x) {
                let (tp, via) = nums.through(un, d);
                let (off, count) = if comp {
                    (nums.val[d] - nums.cval(d), tp - via)
                } else {
                    (nums.val[d], tp)
                };
                if r >= off && r - off < count {
                    next = Some((d, e, off));
                    break;
                }
            }
            let (d, e, off) = next.ok_or_else(broken)?;
            r -= off;
            let t = un.target[d];
            if t == END {
                let end: Option<Block> = e.map(|e| un.cfg.target(e));
                return Ok(Some(Path { nodes, end }));
            }
            x = t;
            nodes.push(un.state_block[x as usize]);
        }
    }

    /// Every static path with its id, in id order.
    pub fn paths(&self) -> impl Iterator<Item = Result<(u64, Path), KIterError>> + '_ {
        (0..self.num_paths()).map(move |id| {
            let p = self
                .identify(id)?
                .ok_or_else(|| KIterError::Internal(format!("path id {id} has no path")))?;
            Ok((id, p))
        })
    }
}
