//! The results of a benchmark run: the data model of `results.json` (schema in
//! `docs/bench.md`), read back by `vmrun bench --compare`, and the ratios and means every
//! table and chart is made of.
//!
//! A run is a list of programs; a program has one [`Cell`] per mode, in the order of
//! `settings.modes`; a cell holds every timed run ([`Sample`]), their medians, and the
//! statistics of the profile its warm-up run wrote ([`ProfileStats`]).

use serde::{Deserialize, Serialize};

/// The value of the `format` field.
pub const FORMAT: &str = "vmrun-bench-results";
/// The value of the `version` field (bumped when a field changes meaning or is removed).
pub const VERSION: u32 = 1;

/// A whole benchmark run. Field order is the JSON order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchResults {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] when written by this version.
    pub version: u32,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// The machine it ran on.
    pub machine: Machine,
    /// The commit of the checkout it ran in, if it ran in a git checkout.
    pub commit: Option<Commit>,
    /// The `vmrun` binary measured.
    pub vmrun: String,
    /// How it was run.
    pub settings: Settings,
    /// False when it was interrupted: the programs and runs after the interruption are missing.
    pub complete: bool,
    /// Wall time of the whole run, in seconds.
    pub duration_seconds: f64,
    /// Every program, in the order run.
    pub programs: Vec<ProgramResult>,
}

/// The machine a run was made on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// Its host name.
    pub hostname: String,
    /// Operating system and kernel release (`uname -sr`).
    pub os: String,
    /// The processor's model name.
    pub cpu: String,
    /// Logical processors available to the run.
    pub cores: usize,
    /// Physical memory, in KiB.
    pub memory_kib: u64,
}

/// A git commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    /// The commit id (full hash).
    pub id: String,
    /// Whether tracked files had uncommitted changes.
    pub dirty: bool,
}

/// The settings of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The modes, as given to `--profile` (`none` first).
    pub modes: Vec<String>,
    /// Timed runs per program and mode.
    pub runs: u32,
    /// Whether each program had an untimed warm-up round (which also wrote the profiles);
    /// without it (`--quick`) the first timed run writes the profile, and its time includes
    /// writing it.
    pub warmup: bool,
    /// The time limit of one run, in seconds.
    pub timeout_seconds: f64,
    /// `--tier-up` of every run.
    pub tier_up: u64,
    /// `--path-ends` of every run.
    pub path_ends: String,
    /// How instructions were counted: `perf`, `callgrind` or `none`.
    pub instructions: String,
    /// Why instructions were not counted, when they were not.
    pub instructions_note: Option<String>,
}

/// One program's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramResult {
    /// Its name (file stem or directory).
    pub name: String,
    /// Its source files.
    pub files: Vec<String>,
    /// Its family in the suite's manifest.
    pub family: Option<String>,
    /// Whether the manifest marks it loop-heavy (`null`: not listed).
    pub loop_heavy: Option<bool>,
    /// The manifest's one-line description.
    pub about: Option<String>,
    /// Why the program could not be measured at all (its `none` run failed), if so.
    pub failure: Option<String>,
    /// Its static path counts for K = 1..5, if it compiled.
    pub static_paths: Option<StaticPaths>,
    /// One cell per mode, in the order of `settings.modes`.
    pub cells: Vec<Cell>,
}

/// Static path counts of a program (Roy & Srikant's Table 4): Ball-Larus (K = 1) and
/// k-iteration paths for each K.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticPaths {
    /// The values of K (1 is Ball-Larus).
    pub k: Vec<u32>,
    /// The sum over the program's functions, per K (saturating at 2^64 - 1).
    pub total: Vec<u64>,
    /// Per function.
    pub functions: Vec<FunctionPaths>,
}

/// Static path counts of one function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionPaths {
    /// Its name.
    pub name: String,
    /// The line of its definition.
    pub line: u32,
    /// Its path count per K.
    pub paths: Vec<u64>,
    /// Per K, whether the numbering took a fallback (a loop profiled acyclically, or extra
    /// cuts; `vmrun paths` lists them).
    pub fallback: Vec<bool>,
}

/// How a cell ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellStatus {
    /// Every run printed what `none` printed and exited as it did.
    Ok,
    /// A run's stdout or exit status differed from `none`'s (see `message`).
    Mismatch,
    /// A run went past the time limit.
    Timeout,
    /// A run could not be made or measured, or the profile could not be read (see `message`).
    Failed,
    /// Not run: the program failed, or the benchmark was interrupted first.
    NotRun,
}

/// One program under one mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The mode (`none`, `bl`, `kbl:8`, ...).
    pub mode: String,
    /// How it went.
    pub status: CellStatus,
    /// What went wrong, for any status but `ok`.
    pub message: Option<String>,
    /// The timed runs.
    pub runs: Vec<Sample>,
    /// Per field, the median of `runs` (for `instructions` under callgrind: the count of the
    /// callgrind run); `null` when there is no run.
    pub median: Option<Sample>,
    /// Wall time of the warm-up run, which also wrote the profile, in seconds.
    pub profile_run_seconds: Option<f64>,
    /// What its profile says (not for `none`, which writes none).
    pub profile: Option<ProfileStats>,
}

/// One timed run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Wall time from spawning the process to its exit, in seconds.
    pub wall_seconds: f64,
    /// User plus system CPU time, in seconds.
    pub cpu_seconds: f64,
    /// Peak resident memory, in KiB.
    pub max_rss_kib: u64,
    /// Instructions executed (user space), when counted.
    pub instructions: Option<u64>,
    /// Functions tiered up.
    pub tier_ups: u32,
    /// Wall time spent tiering up, in seconds.
    pub tier_up_seconds: f64,
}

/// What a cell's profile says: the quantities of the k-BLPP paper's Figures 9 and 11-14 and
/// more, summed or averaged over the program's functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileStats {
    /// Functions that were tiered up (instrumented).
    pub functions_tiered: u64,
    /// Paths completed (Ball-Larus paths; k-iteration paths under `kiter`).
    pub paths_executed: u64,
    /// Distinct (function, path) pairs completed: the entries of `bl`'s hash table.
    pub distinct_paths: u64,
    /// The share of completed paths that end at a loop header rather than at the exit: how
    /// much of the run is spent iterating loops.
    pub loop_path_share: f64,
    /// Hash-table operations: one per path for `bl` (Ball-Larus's table), the k-SF root
    /// lookups done for `kbl`; `null` for other modes.
    pub hash_ops: Option<u64>,
    /// `kbl`: the root lookups the paper's Figure 6 would do (one per slab of K - 1 paths).
    pub slab_starts: Option<u64>,
    /// `kbl`: k-slab forest nodes (Figure 11).
    pub ksf_nodes: Option<u64>,
    /// `kbl`: bytes of k-SF nodes.
    pub ksf_bytes: Option<u64>,
    /// `kbl`: k-IPF nodes, i.e. distinct sequences of up to K paths (Figure 12).
    pub ipf_nodes: Option<u64>,
    /// `kbl`: bytes of the k-IPF's nodes in memory.
    pub ipf_bytes: Option<u64>,
    /// `kbl`: average number of children of an internal k-IPF node, over the whole program
    /// (Figure 13).
    pub avg_internal_degree: Option<f64>,
    /// `kbl`: average depth of a k-IPF leaf, roots at depth 0, over the whole program
    /// (Figure 14).
    pub avg_leaf_depth: Option<f64>,
    /// `ol`: the flows of the interesting paths (two iterations of a loop, a path across a
    /// call), summed over the program's loops and call sites (Tallam et al.'s Table 8).
    #[serde(default)]
    pub flows: Option<OlFlows>,
}

/// The total flow of a program's interesting paths and the bounds on it from an `ol:K`
/// profile: the real flow is exact in the counts (back edges and calls counted), the split
/// among the paths is what is bounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OlFlows {
    /// The real flow.
    pub real: u64,
    /// `[definite, potential]` from the Ball-Larus counts the profile holds.
    pub from_bl: [u64; 2],
    /// `[definite, potential]` from the OL-K counts.
    pub from_ol: [u64; 2],
}

impl OlFlows {
    /// `x` against the real flow, as `-3.6` (percent), or `None` without flow.
    pub fn off(&self, x: u64) -> Option<f64> {
        (self.real > 0).then(|| (x as f64 / self.real as f64 - 1.0) * 100.0)
    }
}

/// What a table or chart compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Instructions executed.
    Instructions,
    /// CPU time.
    CpuTime,
    /// Wall time.
    WallTime,
}

impl Metric {
    /// How it is named in tables and charts.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Instructions => "instructions",
            Metric::CpuTime => "CPU time",
            Metric::WallTime => "wall time",
        }
    }

    /// The metric's value in `sample`.
    pub fn of(self, sample: &Sample) -> Option<f64> {
        match self {
            Metric::Instructions => sample.instructions.map(|n| n as f64),
            Metric::CpuTime => Some(sample.cpu_seconds),
            Metric::WallTime => Some(sample.wall_seconds),
        }
    }
}

impl Cell {
    /// A cell with nothing measured yet.
    pub fn new(mode: &str) -> Self {
        Cell {
            mode: mode.to_string(),
            status: CellStatus::Ok,
            message: None,
            runs: Vec::new(),
            median: None,
            profile_run_seconds: None,
            profile: None,
        }
    }

    /// Whether its runs can be compared with another cell's (it went well and has runs).
    pub fn usable(&self) -> bool {
        self.status == CellStatus::Ok && self.median.is_some()
    }

    /// The median of `metric`, if the cell is usable.
    pub fn value(&self, metric: Metric) -> Option<f64> {
        self.median
            .as_ref()
            .filter(|_| self.usable())
            .and_then(|m| metric.of(m))
    }

    /// Records a failure: the first one's status and message stay.
    pub fn fail(&mut self, status: CellStatus, message: String) {
        if self.status == CellStatus::Ok {
            self.status = status;
            self.message = Some(message);
        }
    }

    /// Sets `median` from `runs`; `callgrind` is the count of a callgrind run, which stands
    /// for the instructions if the runs counted none.
    pub fn summarize(&mut self, callgrind: Option<u64>) {
        self.median = median_sample(&self.runs);
        if let Some(m) = &mut self.median {
            if m.instructions.is_none() {
                m.instructions = callgrind;
            }
        }
    }
}

/// The median of each field of `runs` (`None` when empty); instructions only if every run has
/// them.
pub fn median_sample(runs: &[Sample]) -> Option<Sample> {
    if runs.is_empty() {
        return None;
    }
    let of = |f: &dyn Fn(&Sample) -> f64| median(&runs.iter().map(f).collect::<Vec<_>>());
    let instructions: Option<Vec<f64>> = runs
        .iter()
        .map(|r| r.instructions.map(|n| n as f64))
        .collect();
    Some(Sample {
        wall_seconds: of(&|r| r.wall_seconds),
        cpu_seconds: of(&|r| r.cpu_seconds),
        max_rss_kib: of(&|r| r.max_rss_kib as f64).round() as u64,
        instructions: instructions.map(|v| median(&v).round() as u64),
        tier_ups: of(&|r| f64::from(r.tier_ups)).round() as u32,
        tier_up_seconds: of(&|r| r.tier_up_seconds),
    })
}

/// The median of `values` (the mean of the middle two for an even count; NaN for none).
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The geometric mean of the positive values among `values` (`None` if there are none).
pub fn geomean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((0.0, 0u32), |(s, n), v| (s + v.ln(), n + 1));
    (n > 0).then(|| (sum / f64::from(n)).exp())
}

impl ProgramResult {
    /// Its cell of `mode`, if the run had that mode.
    pub fn cell(&self, mode: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| c.mode == mode)
    }

    /// `metric` of `mode` divided by that of `base`, when both cells are usable.
    pub fn ratio(&self, mode: &str, base: &str, metric: Metric) -> Option<f64> {
        let a = self.cell(mode)?.value(metric)?;
        let b = self.cell(base)?.value(metric)?;
        (b > 0.0).then(|| a / b)
    }

    /// `mode`'s time relative to `base`'s run by run: the ratio of the two cells' `n`-th
    /// timed runs for every round both have (their runs are interleaved, so the `n`-th ones
    /// ran side by side). Empty for instructions (one exact count, no spread) and for a cell
    /// that failed.
    pub fn run_ratios(&self, mode: &str, base: &str, metric: Metric) -> Vec<f64> {
        if metric == Metric::Instructions {
            return Vec::new();
        }
        let (Some(a), Some(b)) = (self.cell(mode), self.cell(base)) else {
            return Vec::new();
        };
        if !a.usable() || !b.usable() {
            return Vec::new();
        }
        a.runs
            .iter()
            .zip(&b.runs)
            .filter_map(|(x, y)| {
                let (x, y) = (metric.of(x)?, metric.of(y)?);
                (y > 0.0).then(|| x / y)
            })
            .collect()
    }
}

impl BenchResults {
    /// The programs a cost is judged on: the loop-heavy ones if the manifest marks any, else
    /// all.
    pub fn judged_programs(&self) -> Vec<&ProgramResult> {
        let heavy: Vec<&ProgramResult> = self
            .programs
            .iter()
            .filter(|p| p.loop_heavy == Some(true))
            .collect();
        if heavy.is_empty() {
            self.programs.iter().collect()
        } else {
            heavy
        }
    }

    /// The metric the tables compare: instructions if every usable cell has them, else CPU
    /// time.
    pub fn metric(&self) -> Metric {
        let cells = || self.programs.iter().flat_map(|p| &p.cells);
        let any = cells().any(Cell::usable);
        let all_counted = cells()
            .filter(|c| c.usable())
            .all(|c| c.value(Metric::Instructions).is_some());
        if any && all_counted {
            Metric::Instructions
        } else {
            Metric::CpuTime
        }
    }

    /// The JSON text (pretty-printed, ending with a newline).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("results serialize");
        text.push('\n');
        text
    }

    /// Reads the `results.json` at `path`; the error is the exit status to use (66: cannot
    /// be read, 65: not a results file) and the message to print.
    pub fn read_file(path: &std::path::Path) -> Result<Self, (i32, String)> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            (
                vm::EXIT_NO_INPUT,
                format!("vmrun: cannot read {}: {e}", path.display()),
            )
        })?;
        Self::from_json(&text)
            .map_err(|e| (vm::EXIT_COMPILE_ERROR, format!("{}:{e}", path.display())))
    }

    /// Reads a `results.json`; the error says what is wrong and where.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let results: BenchResults =
            serde_json::from_str(text).map_err(|e| format!("{}:{}: {e}", e.line(), e.column()))?;
        vm::profile::check_header(&results.format, results.version, FORMAT, VERSION)?;
        Ok(results)
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A sample whose times are `seconds` and whose other fields follow from it.
    pub fn sample(seconds: f64) -> Sample {
        Sample {
            wall_seconds: seconds,
            cpu_seconds: seconds * 0.9,
            max_rss_kib: 4000,
            instructions: None,
            tier_ups: 3,
            tier_up_seconds: 0.001,
        }
    }

    /// A cell of `mode` with runs of these times.
    pub fn cell(mode: &str, times: &[f64]) -> Cell {
        let mut c = Cell::new(mode);
        c.runs = times.iter().map(|&t| sample(t)).collect();
        c.summarize(None);
        c
    }

    /// A small but complete result: two programs, three modes, one failure of each kind that
    /// matters to the tables.
    pub fn example() -> BenchResults {
        let mut kbl = cell("kbl:8", &[1.3, 1.2, 1.25]);
        kbl.profile = Some(ProfileStats {
            functions_tiered: 2,
            paths_executed: 1000,
            distinct_paths: 7,
            loop_path_share: 0.99,
            hash_ops: Some(4),
            slab_starts: Some(143),
            ksf_nodes: Some(40),
            ksf_bytes: Some(960),
            ipf_nodes: Some(30),
            ipf_bytes: Some(960),
            avg_internal_degree: Some(1.5),
            avg_leaf_depth: Some(6.25),
            flows: None,
        });
        let mut mismatch = cell("kbl:8", &[0.5]);
        mismatch.fail(
            CellStatus::Mismatch,
            "exit status 70 where none's is 0".into(),
        );
        BenchResults {
            format: FORMAT.into(),
            version: VERSION,
            date: "2026-11-25T16:00:00Z".into(),
            command_line: vec!["vmrun".into(), "bench".into(), "--runs".into(), "3".into()],
            machine: Machine {
                hostname: "box".into(),
                os: "Linux 6.1".into(),
                cpu: "Some CPU".into(),
                cores: 2,
                memory_kib: 1 << 24,
            },
            commit: Some(Commit {
                id: "0123abcd".into(),
                dirty: false,
            }),
            vmrun: "target/release/vmrun".into(),
            settings: Settings {
                modes: vec!["none".into(), "bl".into(), "kbl:8".into()],
                runs: 3,
                warmup: true,
                timeout_seconds: 600.0,
                tier_up: 1000,
                path_ends: "header".into(),
                instructions: "none".into(),
                instructions_note: Some("perf stat -e instructions: not supported".into()),
            },
            complete: true,
            duration_seconds: 12.5,
            programs: vec![
                ProgramResult {
                    name: "loops".into(),
                    files: vec!["programs/bench/loops.c".into()],
                    family: Some("wcet".into()),
                    loop_heavy: Some(true),
                    about: Some("nested loops".into()),
                    failure: None,
                    static_paths: Some(StaticPaths {
                        k: vec![1, 2],
                        total: vec![10, 25],
                        functions: vec![FunctionPaths {
                            name: "main".into(),
                            line: 3,
                            paths: vec![10, 25],
                            fallback: vec![false, false],
                        }],
                    }),
                    cells: vec![
                        cell("none", &[1.0, 1.1, 0.9]),
                        cell("bl", &[1.2, 1.1, 1.15]),
                        kbl,
                    ],
                },
                ProgramResult {
                    name: "calls".into(),
                    files: vec!["programs/bench/calls.c".into()],
                    family: Some("kblpp".into()),
                    loop_heavy: Some(false),
                    about: None,
                    failure: None,
                    static_paths: None,
                    cells: vec![cell("none", &[0.4]), cell("bl", &[0.5]), mismatch],
                },
            ],
        }
    }

    #[test]
    fn the_json_reads_back_to_the_same_results() {
        let results = example();
        let text = results.to_json();
        assert_eq!(BenchResults::from_json(&text).unwrap(), results);
        let wrong = text.replace(FORMAT, "vmrun-path-profile");
        assert!(BenchResults::from_json(&wrong)
            .unwrap_err()
            .contains("format"));
        let broken = BenchResults::from_json("{\n  \"format\": 3").unwrap_err();
        assert!(broken.starts_with("2:"), "{broken}");
    }

    #[test]
    fn every_written_field_is_documented() {
        // docs/bench.md lists the fields of each object as `| `name` | ...` table rows.
        let doc = include_str!("../../../../docs/bench.md");
        let documented: std::collections::BTreeSet<&str> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .collect();
        let value = serde_json::to_value(example()).unwrap();
        let mut written = std::collections::BTreeSet::new();
        collect_keys(&value, &mut written);
        let undocumented: Vec<&String> = written
            .iter()
            .filter(|k| !documented.contains(k.as_str()))
            .collect();
        assert!(
            undocumented.is_empty(),
            "fields of results.json missing from docs/bench.md: {undocumented:?}"
        );
    }

    fn collect_keys(value: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.insert(k.clone());
                    collect_keys(v, out);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| collect_keys(v, out)),
            _ => {}
        }
    }

    #[test]
    fn medians_ratios_and_means() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        let g = geomean([2.0, 8.0, 0.0, f64::NAN]).unwrap();
        assert!(
            (g - 4.0).abs() < 1e-12,
            "non-positive values are left out: {g}"
        );
        let r = example();
        let loops = &r.programs[0];
        let bl = loops.ratio("bl", "none", Metric::WallTime).unwrap();
        assert!((bl - 1.15).abs() < 1e-12, "{bl}");
        let calls = &r.programs[1];
        assert_eq!(
            calls.ratio("kbl:8", "bl", Metric::WallTime),
            None,
            "a mismatch"
        );
        assert_eq!(r.metric(), Metric::CpuTime, "no instruction counts");
    }
}
