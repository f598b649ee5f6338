//! `--profile=edge`: the tier-0 counters alone, everywhere, for the whole run: invocations,
//! loop iterations, every branch's and jump table's outcomes. Nothing tiers up and no path is
//! counted, so its cost is the counters' (what every tiering mode pays before tier-up).

use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::PathEnds;

use super::{Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::probes::{Osr, Probes};
use crate::profile::FunctionProfile;
use crate::tier::cfg_build::FunctionCfg;
use crate::tier::tier0::Tier0;
use crate::ProfileSettings;

/// The `edge` mode.
pub struct Edge;

impl Profiler for Edge {
    type Probes<'p> = EdgeProbes;

    fn start(
        program: &Program,
        _: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<EdgeProbes, String> {
        Ok(EdgeProbes::new(program, branch))
    }

    fn profile(
        _: EdgeProbes,
        program: &Program,
        settings: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        Some(untiered_profiles(program, settings.path_ends))
    }

    fn describe(probes: &EdgeProbes, event: &WatchEvent) -> Option<String> {
        match *event {
            WatchEvent::Entry { func } | WatchEvent::BackEdge { func, .. } => {
                Some(format!("heat {}", probes.tier0.heat[func.index()]))
            }
            _ => None,
        }
    }
}

/// The profiles of a mode that never instruments: every function with its blocks and the
/// static paths of its canonical numbering under `path_ends`, no paths.
pub fn untiered_profiles(
    program: &Program,
    path_ends: PathEnds,
) -> Result<Vec<FunctionProfile>, String> {
    program
        .functions
        .iter()
        .map(|func| {
            let fc = FunctionCfg::of_function(func)
                .map_err(|e| format!("function {}: {e}", func.name))?;
            Ok(FunctionProfile::not_tiered(
                &func.name,
                func.loc.line,
                &fc,
                path_ends,
            ))
        })
        .collect()
}

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
