//! `--profile=none`: the plain interpreter. Its probes are [`NoProbes`], whose hooks are all
//! empty and switched off at compile time, so its copy of the interpreter loop has no probe
//! code at all; it measures nothing and writes no profile.

use lang::bytecode::Program;

use super::Profiler;
use crate::branch_counts::BranchCounts;
use crate::probes::NoProbes;
use crate::profile::FunctionProfile;
use crate::ProfileSettings;

/// The `none` mode.
pub struct NoProfiling;

impl Profiler for NoProfiling {
    type Probes<'p> = NoProbes;

    fn start(_: &Program, _: &ProfileSettings, _: BranchCounts) -> Result<NoProbes, String> {
        Ok(NoProbes)
    }

    fn profile(
        _: NoProbes,
        _: &Program,
        _: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        None
    }
}
