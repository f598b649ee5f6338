//! `--profile=bl`: Ball-Larus path profiling (Ball & Larus 1996; paths end at loop headers,
//! the Jikes RVM yield points of the k-BLPP paper's section 3.2, or at back edges), with
//! tiering.
//!
//! [`BlProbes`] (also the base of `kbl`, which counts the same Ball-Larus ids differently):
//! tier-0 counters until a function's heat passes the threshold, then tier-up ([`tierup`]:
//! smart numbering from the tier-0 edge counts, the plan, the instrumented copy), a new code
//! version for new calls and on-stack replacement of running frames at their next backward
//! jump; each completed path id goes to a [`PathSink`] ([`BlCounts`] for `bl`: the dense
//! counters of the instrumented versions, [`crate::path_counts`], which the loop increments
//! itself, and for functions with more paths than those take a hashbrown table keyed by
//! function and id, behind a small cache of counters).

pub mod delay;
pub mod tierup;
pub mod weights;

use hashbrown::HashMap;
use lang::bytecode::{FuncIdx, Pc, Program};
use profiler::path_hash::PathKeyHash;
use profiler::PathEnds;

use super::{Finished, Profiler, WatchEvent};
use crate::branch_counts::BranchCounts;
use crate::path_counts::DenseCounts;
use crate::probes::{Osr, Probes};
use crate::profile::FunctionProfile;
use crate::tier::tier0::Tier0;
use crate::tier::tiering::{TierUpStats, Tiering};
use crate::version::Version;
use crate::ProfileSettings;
use tierup::{tier_up_bl, TieredBl};

/// The `bl` mode.
pub struct Bl;

impl Profiler for Bl {
    type Probes<'p> = BlProbes<'p, BlCounts>;

    fn start<'p>(
        program: &'p Program,
        settings: &ProfileSettings,
        branch: BranchCounts,
    ) -> Result<BlProbes<'p, BlCounts>, String> {
        let tiering = TierSettings::of(settings);
        Ok(BlProbes::new(program, tiering, BlCounts::default(), branch))
    }

    fn finish(probes: &mut BlProbes<'_, BlCounts>) -> Finished {
        probes.finished()
    }

    fn profile(
        probes: BlProbes<'_, BlCounts>,
        program: &Program,
        _: &ProfileSettings,
    ) -> Option<Result<Vec<FunctionProfile>, String>> {
        let counts = probes.sink.by_function(program.functions.len());
        Some(probes.function_profiles(&counts))
    }

    fn describe(probes: &BlProbes<'_, BlCounts>, event: &WatchEvent) -> Option<String> {
        match *event {
            WatchEvent::Path { func, id } => {
                let n = probes.sink.count(func, id);
                let path = probes.path_text(func, id).unwrap_or_default();
                Some(format!(
                    "{path}; counted {}",
                    crate::profile::text::plural(n, "time")
                ))
            }
            _ => probes.describe_tiering(event),
        }
    }
}

/// Where completed Ball-Larus path ids go.
pub trait PathSink {
    /// True if the sink lets the loop count paths in dense counters of the instrumented
    /// versions ([`crate::path_counts`]): tier-up then gives every function with at most
    /// [`profiler::counters::DENSE_LIMIT`] paths its cells and hands them to
    /// [`PathSink::adopt_dense`], and [`PathSink::on_path`] sees only the other functions'
    /// paths. A sink that needs every path in order (`kbl`) leaves it false.
    const DENSE: bool = false;

    /// True if the sink needs [`PathSink::on_entry`] and [`PathSink::on_return`] of every
    /// activation, also of the functions already instrumented; false if it overrides neither
    /// (the loop then calls no hook on a call or return of an instrumented function:
    /// [`crate::probes::Probes::ACTIVATIONS`]).
    const ACTIVATIONS: bool = true;

    /// Tier-up gave `func`'s instrumented version the dense counters `counts` (only when
    /// [`PathSink::DENSE`]).
    fn adopt_dense(&mut self, func: FuncIdx, counts: DenseCounts) {
        let _ = (func, counts);
    }

    /// `func` tiered up to the instrumented code generated from `tiered` (its ids are in
    /// `tiered.bl`'s numbering).
    fn on_tier_up(&mut self, func: FuncIdx, tiered: &TieredBl) {
        let _ = (func, tiered);
    }

    /// An activation of `func` starts (in any code version).
    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        let _ = func;
    }

    /// The running activation of `func` ends (return or program exit).
    #[inline(always)]
    fn on_return(&mut self, func: FuncIdx) {
        let _ = func;
    }

    /// The running activation of `func` switched to instrumented code in the middle of a loop
    /// (on-stack replacement): its next path is its first recorded one.
    #[inline(always)]
    fn on_osr(&mut self, func: FuncIdx) {
        let _ = func;
    }

    /// The running activation of `func` completed the path with id `id`.
    fn on_path(&mut self, func: FuncIdx, id: u64);
}

/// `--profile=bl`'s sink: path counts in a hashbrown table keyed by (function, id), for the
/// functions with more paths than dense counters take ([`PathSink::DENSE`]: the loop counts the
/// others' paths in their versions' cells, which the sink holds too and reads at the end).
///
/// The table is fronted by a small direct-mapped cache of where recently counted paths'
/// counters are ([`CACHED_PATHS`] entries, chosen by the id's low bits plus the function): a
/// hot loop alternates between a few paths, and counting one of them is a key comparison and
/// an increment instead of a hash lookup. Every count still lands in the table. The cached
/// pointers are dropped on every insertion (the only operation that moves the table's values),
/// and the table is never reachable mutably from outside.
#[derive(Debug)]
pub struct BlCounts {
    counts: HashMap<(FuncIdx, u64), u64, PathKeyHash>,
    /// Recently counted keys and their counters in `counts` (null: empty entry).
    cache: [CachedPath; CACHED_PATHS],
    /// The dense counters of the functions that have them.
    dense: Vec<(FuncIdx, DenseCounts)>,
}

/// The number of entries of [`BlCounts`]' counter cache (a power of two).
pub const CACHED_PATHS: usize = 16;

/// One entry of [`BlCounts`]' counter cache.
#[derive(Clone, Copy, Debug)]
struct CachedPath {
    key: (FuncIdx, u64),
    count: *mut u64,
}

impl CachedPath {
    const EMPTY: CachedPath = CachedPath {
        key: (FuncIdx(0), 0),
        count: std::ptr::null_mut(),
    };
}

impl Default for BlCounts {
    fn default() -> Self {
        BlCounts {
            counts: HashMap::default(),
            cache: [CachedPath::EMPTY; CACHED_PATHS],
            dense: Vec::new(),
        }
    }
}

impl PathSink for BlCounts {
    const DENSE: bool = true;
    const ACTIVATIONS: bool = false;

    fn adopt_dense(&mut self, func: FuncIdx, counts: DenseCounts) {
        self.dense.push((func, counts));
    }

    #[inline(always)]
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        let slot = cache_slot(func, id);
        // SAFETY: `cache_slot` is below `CACHED_PATHS`.
        let entry = unsafe { self.cache.get_unchecked(slot) };
        if entry.key == (func, id) && !entry.count.is_null() {
            // SAFETY: a non-null cached pointer points at the value of its key in `counts`: set
            // by `lookup` from `get_mut`, every entry reset to null before each insertion (the
            // only operation that can move values), and `counts` is private to this type.
            unsafe { *entry.count += 1 };
        } else {
            self.lookup(func, id, slot);
        }
    }
}

/// The cache entry of a key: the low bits of the id plus the function (path ids of a hot loop
/// are small distinct numbers, so they rarely share an entry).
#[inline(always)]
fn cache_slot(func: FuncIdx, id: u64) -> usize {
    (id as usize).wrapping_add(usize::from(func.0).wrapping_mul(7)) & (CACHED_PATHS - 1)
}

impl BlCounts {
    /// Counts a path that is not in the cache, and caches its counter in entry `slot`.
    #[inline(never)]
    fn lookup(&mut self, func: FuncIdx, id: u64, slot: usize) {
        // `get_mut` first: the hit (almost every path end) costs half of the entry API's work.
        let count: *mut u64 = match self.counts.get_mut(&(func, id)) {
            Some(count) => {
                *count += 1;
                count
            }
            None => {
                self.cache = [CachedPath::EMPTY; CACHED_PATHS];
                self.counts.entry((func, id)).or_insert(1)
            }
        };
        self.cache[slot] = CachedPath {
            key: (func, id),
            count,
        };
    }

    /// The hashed counts, keyed by (function, path id): the paths of the functions without
    /// dense counters.
    pub fn counts(&self) -> &HashMap<(FuncIdx, u64), u64, PathKeyHash> {
        &self.counts
    }

    /// The count of path `id` of `func` so far.
    pub fn count(&self, func: FuncIdx, id: u64) -> u64 {
        let dense: u64 = self
            .dense
            .iter()
            .filter(|(f, _)| *f == func)
            .map(|(_, d)| d.get(id))
            .sum();
        dense + self.counts.get(&(func, id)).copied().unwrap_or(0)
    }

    /// The `(id, count)` pairs of each function, indexed by function, in increasing id order
    /// (an id counted both densely and in the table, as in a watched run, once with the sum).
    pub fn by_function(&self, num_functions: usize) -> Vec<Vec<(u64, u64)>> {
        let mut out = vec![Vec::new(); num_functions];
        for (&(f, id), &count) in &self.counts {
            out[f.index()].push((id, count));
        }
        for (f, cells) in &self.dense {
            out[f.index()].extend(cells.counted());
        }
        for ids in &mut out {
            ids.sort_unstable();
            ids.dedup_by(|later, kept| {
                let same = later.0 == kept.0;
                if same {
                    kept.1 += later.1;
                }
                same
            });
        }
        out
    }
}

/// The settings of tiering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierSettings {
    /// A function tiers up when its heat (invocations plus backward jumps) exceeds this; `0`
    /// tiers every function up before the program starts.
    pub threshold: u64,
    /// Where paths end.
    pub path_ends: PathEnds,
}

impl TierSettings {
    /// The tiering settings of a run's profile settings (`--tier-up`, `--path-ends`).
    pub fn of(settings: &ProfileSettings) -> TierSettings {
        TierSettings {
            threshold: settings.tier_up,
            path_ends: settings.path_ends,
        }
    }
}

/// Ball-Larus path profiling with tiering, feeding a [`PathSink`]. See the module docs.
pub struct BlProbes<'p, S: PathSink> {
    settings: TierSettings,
    tiering: Tiering<'p, TieredBl>,
    /// The sink.
    pub sink: S,
}

impl<'p, S: PathSink> BlProbes<'p, S> {
    /// Probes for `program`, with the machine's branch counters `branch`; with threshold 0,
    /// every function is tiered up at once (its versions are installed when the run starts).
    pub fn new(
        program: &'p Program,
        settings: TierSettings,
        sink: S,
        branch: BranchCounts,
    ) -> Self {
        let mut probes = BlProbes {
            settings,
            tiering: Tiering::new(program, settings.threshold, branch),
            sink,
        };
        if settings.threshold == 0 {
            for f in 0..program.functions.len() {
                probes.tier_up(FuncIdx(f as u16));
            }
        }
        probes
    }

    /// Tiers `f` up (see [`tierup`]).
    #[cold]
    #[inline(never)]
    fn tier_up(&mut self, f: FuncIdx) {
        let started = std::time::Instant::now();
        let t = &self.tiering;
        let func = &t.program.functions[f.index()];
        let profile = |fc: &crate::tier::cfg_build::FunctionCfg| t.tier0.edge_profile(f, fc);
        let edges: Option<&dyn Fn(&crate::tier::cfg_build::FunctionCfg) -> profiler::EdgeProfile> =
            if self.settings.threshold == 0 {
                None
            } else {
                Some(&profile)
            };
        let index = t.next_version_index();
        let heat = t.tier0.heat[f.index()];
        let mut made = tier_up_bl(f, func, self.settings.path_ends, edges, index, heat);
        if let Ok((tiered, version)) = &mut made {
            if S::DENSE && tiered.bl.num_paths() <= profiler::counters::DENSE_LIMIT {
                version.dense = DenseCounts::new(tiered.bl.num_paths() as usize);
                self.sink.adopt_dense(f, version.dense.clone());
            }
            self.sink.on_tier_up(f, tiered);
        }
        self.tiering.install(f, made, started);
    }

    /// The profile of every function, in program order: a tiered-up function's counted
    /// paths (regenerated from their ids), or a function that never tiered up with no paths.
    pub fn function_profiles(
        &self,
        counts: &[Vec<(u64, u64)>],
    ) -> Result<Vec<FunctionProfile>, String> {
        let functions = &self.tiering.program.functions;
        let mut out = Vec::with_capacity(functions.len());
        for (i, func) in functions.iter().enumerate() {
            let line = func.loc.line;
            out.push(match self.tiering.tiered(FuncIdx(i as u16)) {
                Some(t) => FunctionProfile::from_ids(
                    &func.name,
                    line,
                    &t.fc,
                    &t.bl,
                    t.tiered_up_at,
                    counts.get(i).into_iter().flatten().copied(),
                )?,
                None => {
                    let fc = crate::tier::cfg_build::FunctionCfg::of_function(func)
                        .map_err(|e| format!("function {}: {e}", func.name))?;
                    FunctionProfile::not_tiered(&func.name, line, &fc, self.settings.path_ends)
                }
            });
        }
        Ok(out)
    }

    /// The tiered-up form of `f`, if it tiered up.
    pub fn tiered(&self, f: FuncIdx) -> Option<&TieredBl> {
        self.tiering.tiered(f)
    }

    /// The tier-0 counters.
    pub fn tier0(&self) -> &Tier0 {
        &self.tiering.tier0
    }

    /// Tier-up failures, one line each.
    pub fn warnings(&self) -> &[String] {
        &self.tiering.warnings
    }

    /// The tier-ups done so far and the time they took.
    pub fn tier_up_stats(&self) -> TierUpStats {
        self.tiering.stats
    }

    /// What the probes say when the run is over: tier-up warnings and costs.
    pub fn finished(&self) -> Finished {
        Finished {
            warnings: self.warnings().to_vec(),
            tier_ups: self.tier_up_stats(),
        }
    }

    /// Watching: the blocks and source lines of path `id` of `func` (`b1 b2 b4 -> b1, lines
    /// 5-6 4`), if `func` has tiered up and `id` is one of its paths.
    pub fn path_text(&self, func: FuncIdx, id: u64) -> Option<String> {
        let tiered = self.tiered(func)?;
        let path = tiered.bl.regenerate(tiered.fc.cfg(), id)?;
        Some(crate::profile::text::block_path_text(&tiered.fc, &path))
    }

    /// Watching: what tiering did at `event` (a function's heat, its tier-up, an on-stack
    /// replacement), for the modes built on these probes.
    pub fn describe_tiering(&self, event: &WatchEvent) -> Option<String> {
        match *event {
            WatchEvent::NewVersion { func } => self
                .tiered(func)
                .map(|t| format!("tiered up at heat {}", t.tiered_up_at)),
            WatchEvent::Osr { func, .. } => Some(format!(
                "switched to instrumented code at heat {}",
                self.tier0().heat[func.index()]
            )),
            WatchEvent::Entry { func } | WatchEvent::BackEdge { func, .. }
                if self.tiered(func).is_none() =>
            {
                Some(format!("heat {}", self.tier0().heat[func.index()]))
            }
            _ => None,
        }
    }
}

impl<S: PathSink> Probes for BlProbes<'_, S> {
    const ENABLED: bool = true;
    const PATHS: bool = true;
    const TIERS: bool = true;
    const COUNTS: bool = true;
    const DENSE_PATHS: bool = S::DENSE;
    const ACTIVATIONS: bool = S::ACTIVATIONS;

    #[inline(always)]
    fn on_entry(&mut self, func: FuncIdx) {
        self.sink.on_entry(func);
        if !self.tiering.is_tiered(func) {
            self.entry_at_tier0(func);
        }
    }

    #[inline(never)]
    fn on_switch(&mut self, func: FuncIdx, pc: Pc, target: Pc) {
        self.tiering.tier0.switch(func, pc, target);
    }

    /// Called only for frames running compiled (tier-0) code.
    #[inline(always)]
    fn on_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        if !self.tiering.back_edge_is_hot(func) {
            return None;
        }
        self.hot_back_edge(func, pc, target)
    }

    #[inline(always)]
    fn on_return(&mut self, func: FuncIdx) {
        self.sink.on_return(func);
    }

    // Inline into the interpreter loop: the sinks keep their common case small (`BlCounts`: a
    // cache probe and an increment) and their slow paths out of line. A call and return around
    // every path end cost little in instructions (2 per path) but 10-45% of `bl`'s time on the
    // loop-heavy twins (interleaved runs of the two builds, same instruction counts otherwise).
    #[inline(always)]
    fn on_path(&mut self, func: FuncIdx, id: u64) {
        self.sink.on_path(func, id);
    }

    #[inline(always)]
    fn version_ready(&self) -> bool {
        self.tiering.version_ready()
    }

    #[inline(never)]
    fn take_version(&mut self) -> Option<Version> {
        self.tiering.take_version()
    }
}

impl<S: PathSink> BlProbes<'_, S> {
    /// A call of `func` while it has no instrumented code: counts it and tiers it up once hot.
    #[inline(never)]
    fn entry_at_tier0(&mut self, func: FuncIdx) {
        if self.tiering.entry_is_hot(func) {
            self.tier_up(func);
        }
    }

    /// A backward jump of a baseline frame of `func` once `func` is hot: tier it up if it is
    /// not yet, then switch the frame to the instrumented code.
    #[cold]
    #[inline(never)]
    fn hot_back_edge(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        if self.tiering.can_tier_up(func) {
            self.tier_up(func);
        }
        self.osr(func, pc, target)
    }

    /// The on-stack replacement of a baseline frame of a tiered-up `func` at its backward
    /// jump from `pc` to `target`.
    fn osr(&mut self, func: FuncIdx, pc: Pc, target: Pc) -> Option<Osr> {
        let osr = self.tiering.tiered(func)?.osr(pc, target)?;
        self.sink.on_osr(func);
        Some(osr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts `stream` with [`BlCounts`] and with a plain map, and compares them.
    fn check(stream: &[(u16, u64)]) {
        let mut sink = BlCounts::default();
        let mut want: std::collections::HashMap<(FuncIdx, u64), u64> = Default::default();
        for &(f, id) in stream {
            sink.on_path(FuncIdx(f), id);
            *want.entry((FuncIdx(f), id)).or_default() += 1;
        }
        let got: std::collections::HashMap<(FuncIdx, u64), u64> =
            sink.counts().iter().map(|(&k, &v)| (k, v)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn cached_counts_equal_plain_counts() {
        // Repeats, alternation, keys sharing a cache entry (ids 16 apart, functions 0 and 7
        // with the same id offset), and enough new keys to make the table grow several times
        // while cached pointers exist.
        let mut stream = Vec::new();
        for round in 0..50u64 {
            for id in [0, 16, 32, 0, 0, 1, 17] {
                stream.push((0, id));
                stream.push((7, id + 9 * 7 % 16));
            }
            for id in 0..40 {
                stream.push(((round % 3) as u16, round * 1000 + id));
                stream.push((0, id % 5));
            }
            stream.push((u16::MAX, u64::MAX - round));
        }
        check(&stream);
        // A pseudo-random stream over a few hundred keys (xorshift, fixed seed).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let random: Vec<(u16, u64)> = (0..20_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ((x % 3) as u16, (x >> 8) % 300)
            })
            .collect();
        check(&random);
    }
}
