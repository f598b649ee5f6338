//! The profiling modes: what `--profile=MODE` runs, one module each, registered in one table.
//!
//! A mode is a type implementing [`Profiler`]: its probes (the [`Probes`] type the interpreter
//! loop is compiled for, so the loop stays free of dynamic dispatch), how it starts (the probes
//! of a run, and for a mode that instruments everything up front, the instrumented code), what
//! it says when the run ends (warnings, tier-ups), how it builds its part of the profile (also
//! after a trap or an interrupt), its section of the human report, and what its probe events
//! mean when a run is watched. [`crate::run`] runs every mode through one generic path.
//!
//! | module | mode | paper |
//! |---|---|---|
//! | [`none`] | `none`: the plain interpreter | |
//! | [`edge`] | `edge`: edge counts, chords of a spanning tree only, with tiering | Ball 1994; Knuth & Stevenson 1973 |
//! | [`bl`] | `bl`: Ball-Larus paths, tiering, on-stack replacement | Ball & Larus 1996 |
//! | [`kbl`] | `kbl:K`: sequences of up to K Ball-Larus paths in a k-slab forest | D'Elia, Demetrescu & Finocchi 2013, sections 2-3 |
//! | [`kiter`] | `kiter:K`: k-iteration paths | Roy & Srikant 2009, section 4 |
//! | [`ol`] | `ol:K`: Ball-Larus paths extended past back edges by K + 1 predicates | Tallam, Zhang & Gupta 2004, section 2 |
//! | [`ipp`] | `ipp:context`, `ipp:piecewise`: interprocedural paths numbered with linear edge functions | Melski & Reps 1998, sections 3-6 |
//! | [`trace`] | `trace`: every block entered, paths counted by definition | |
//!
//! What every mode shares (tier-0 counters, the tiering bookkeeping, CFGs of bytecode,
//! instrumented code generation) is in [`crate::tier`]; [`watch`] records the events of a
//! watched run.
//!
//! ## Adding a mode
//! Write one module that implements [`Profiler`] and add its row to the table
//! ([`table`]: `for_each_mode!`): its `Mode` variant, name, type and whether it takes K.
//! Nothing else changes: `--profile` parses the name, [`crate::run`] runs it, the report draws
//! its section, and the profile's `mode` field is its name. The smallest mode one could add
//! keeps the tier-0 counters ([`crate::tier::tier0`]) as its probes, starts them, has nothing to
//! say at the end, and writes every function with its blocks and no paths:
//!
//! ```ignore
//! pub struct Counters;
//!
//! impl Profiler for Counters {
//!     type Probes<'p> = Tier0Probes;
//!
//!     fn start(program: &Program, _: &ProfileSettings, branch: BranchCounts)
//!         -> Result<Tier0Probes, String> {
//!         Ok(Tier0Probes::new(program, branch))
//!     }
//!
//!     fn profile(_: Tier0Probes, program: &Program, settings: &ProfileSettings)
//!         -> Option<Result<Vec<FunctionProfile>, String>> {
//!         Some(untiered_profiles(program, settings.path_ends))
//!     }
//! }
//! ```
//!
//! and its row: `Edge => "edge", $crate::modes::edge::Edge, k: false;`.

pub mod bl;
pub mod edge;
pub mod ipp;
pub mod kbl;
pub mod kiter;
pub mod none;
pub mod ol;
pub mod table;
pub mod trace;
pub mod watch;

use lang::bytecode::{FuncIdx, Program};

use crate::branch_counts::BranchCounts;
use crate::interp::LiveFrame;
use crate::probes::Probes;
use crate::profile::text::ReportOptions;
use crate::profile::{FunctionProfile, Profile};
use crate::tier::tiering::TierUpStats;
use crate::ProfileSettings;
use table::for_each_mode;

pub use table::Mode;
pub use watch::WatchEvent;

/// What a profiling mode is. See the module docs.
pub trait Profiler {
    /// The probes of a run: the interpreter loop is compiled once for them.
    type Probes<'p>: Probes;

    /// The probes of a run of `program` under `settings`, given the machine's tier-0 branch
    /// counters. A mode that instruments every function up front does it here; one that tiers
    /// up does it in its probes, as functions get hot. An error stops the run before it starts
    /// (an internal error: every program that compiles can be profiled).
    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<Self::Probes<'p>, String>;

    /// Called once the run is over, before [`Profiler::finish`], with the frames still
    /// running (innermost first: [`crate::interp::Machine::live_frames`]), for a mode whose
    /// counts need to know where activations stopped (`edge`: flow that never reached the
    /// exit). The default ignores them.
    fn stopped(probes: &mut Self::Probes<'_>, frames: &[LiveFrame]) {
        let _ = (probes, frames);
    }

    /// Called once the run is over, however it ended (return, `exit`, trap, interrupt):
    /// settles what was in progress and says what the mode has to say.
    fn finish(probes: &mut Self::Probes<'_>) -> Finished {
        let _ = probes;
        Finished::default()
    }

    /// Every function's profile, in program order, or `None` for a mode that measures
    /// nothing. Called only when the profile is wanted, after [`Profiler::finish`], also when
    /// the run trapped or was interrupted (the counts are then those of the paths completed).
    fn profile(
        probes: Self::Probes<'_>,
        program: &Program,
        settings: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>>;

    /// The mode's section of the human report for `function`, written after its table of
    /// paths (the default: none).
    fn report_section(
        profile: &Profile,
        function: &FunctionProfile,
        options: &ReportOptions,
        out: &mut String,
    ) {
        let _ = (profile, function, options, out);
    }

    /// The program-wide `interprocedural` member of the profile (the `ipp` modes), read off the
    /// probes after [`Profiler::finish`], before [`Profiler::profile`] (the default: none).
    fn interprocedural(
        probes: &Self::Probes<'_>,
    ) -> Option<Result<crate::profile::InterprocSection, String>> {
        let _ = probes;
        None
    }

    /// When a run is watched ([`watch`]): what `event` means in this mode, read off its
    /// probes right after they handled it (the default: nothing more than the event).
    fn describe(probes: &Self::Probes<'_>, event: &WatchEvent) -> Option<String> {
        let _ = (probes, event);
        None
    }

    /// When a run is watched: the paths of `func` counted so far, `(id, count)`, for a mode
    /// that counts paths inside its probe events rather than at `on_path` (`kiter`); the
    /// watcher compares them around each [`WatchEvent::Probe`] to name the paths it counted
    /// (the default: none).
    fn counted(probes: &Self::Probes<'_>, func: FuncIdx) -> Vec<(u64, u64)> {
        let _ = (probes, func);
        Vec::new()
    }

    /// When a run is watched: the size of a structure the mode grows (the k-slab forest's
    /// nodes for `kbl`), whose growth the watcher shows after each event (`+3 nodes`); the
    /// default: none.
    fn watched_size(probes: &Self::Probes<'_>) -> Option<(u64, &'static str)> {
        let _ = probes;
        None
    }

    /// When a run is watched: path `id` of `func` as blocks and source lines, for the paths
    /// [`Profiler::counted`] names (the default: none).
    fn path_text(probes: &Self::Probes<'_>, func: FuncIdx, id: u64) -> Option<String> {
        let _ = (probes, func, id);
        None
    }
}

/// What a mode says when a run is over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// Warnings (a function that could not be instrumented), one line each.
    pub warnings: Vec<String>,
    /// The tier-ups done and their time.
    pub tier_ups: TierUpStats,
}

/// A mode's report section ([`Profiler::report_section`]).
pub type ReportSection = fn(&Profile, &FunctionProfile, &ReportOptions, &mut String);

macro_rules! report_sections {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, $type:path, k: $k:literal;)*) => {
        /// The report section of `mode`.
        pub fn report_section(mode: Mode) -> ReportSection {
            match mode {
                $(Mode::$variant => <$type as Profiler>::report_section,)*
            }
        }
    };
}

for_each_mode!(report_sections);

/// The profiles of a mode that never instruments: every function with its blocks and the
/// static paths of its canonical numbering under `path_ends`, no paths.
pub fn untiered_profiles(
    program: &Program,
    path_ends: profiler::PathEnds,
) -> Result<Vec<FunctionProfile>, String> {
    program
        .functions
        .iter()
        .map(|func| {
            let fc = crate::tier::cfg_build::FunctionCfg::of_function(func)
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
