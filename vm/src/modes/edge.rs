//! `--profile=edge`: the tier-0 counters alone, everywhere, for the whole run: invocations,
//! loop iterations, every branch's and jump table's outcomes. Nothing tiers up and no path is
//! counted, so its cost is the counters' (what every tiering mode pays before tier-up).

use lang::bytecode::{FuncIdx, Pc, Program};

use crate::branch_counts::BranchCounts;
use crate::probes::{Osr, Probes};
use crate::tier::tier0::Tier0;

/// `--profile=edge`: the tier-0 counters, everywhere, for the whole run.
#[derive(Clone, Debug)]
pub struct EdgeProbes {
    /// The counters.
    pub tier0: Tier0,
}

impl EdgeProbes {
    /// Zero counters for `program`, with the machine's branch counters `branch`.
    pub fn new(program: &Program, branch: BranchCounts) -> EdgeProbes {
        EdgeProbes {
            tier0: Tier0::new(program, branch),
        }
    }
}

impl Probes for EdgeProbes {
    const ENABLED: bool = true;
    const COUNTS: bool = true;

    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        self.tier0.entry(func);
    }

    #[inline(always)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.tier0.switch(func, pc, target);
    }

    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, _pc: Pc, _target: Pc) -> Option<Osr> {
        self.tier0.back_edge(func);
        None
    }
}
