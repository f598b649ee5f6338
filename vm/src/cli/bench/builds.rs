//! `vmrun bench --builds a=FILE,b=FILE,...`: the same suite measured with several `vmrun`
//! binaries at once, to tell how much of a mode's measured cost belongs to the build.
//!
//! Binaries of the same source whose code layout differs (another checkout path, unrelated code
//! added: `scripts/layout-builds.sh` makes three) should give every mode the same cost: a
//! ratio that moves with the build measures the linker, not the profiler (BENCHMARKS 1.4 saw
//! `bl`/`none` move from 1.13 to 1.95 between builds of one source). Every (mode, build) pair is
//! a cell of its own, interleaved run by run with the others (`none@a none@b bl@a bl@b ...`),
//! so the machine's drift hits all builds alike; each build's results are then written as a
//! run of their own (`OUT/NAME/`), and `OUT/builds.md` compares them: per mode, the geometric
//! mean over the loop-heavy programs of its CPU time relative to `none` and to `bl` in each
//! build, and the spread across builds (largest over smallest, less one). With
//! `--instructions callgrind` (counts do not depend on the build), each time ratio to `bl` is
//! also set against the instruction ratio.

use std::path::{Path, PathBuf};

use super::results::{geomean, BenchResults, Metric};
use super::table::{fixed, Table};

/// The largest spread across builds of a mode's time ratio to `none` that the goal accepts
/// (issue 35: 5%).
pub const SPREAD_LIMIT: f64 = 0.05;

/// The largest distance between a mode's time ratio to `bl` and its instruction ratio that the
/// goal accepts (issue 35: within 10%).
pub const INSTRUCTION_TOLERANCE: f64 = 0.10;

/// One binary measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// Its name (the directory its results are written to).
    pub name: String,
    /// The `vmrun` binary.
    pub vmrun: PathBuf,
}

/// Parses `--builds`: `NAME=FILE` items, comma-separated, at least two, names distinct and
/// usable as directory names, every file existing.
pub fn parse(list: &str) -> Result<Vec<Build>, String> {
    let mut builds: Vec<Build> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, file) = item
            .split_once('=')
            .ok_or_else(|| format!("--builds: `{item}` is not NAME=FILE"))?;
        let name = name.trim();
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(format!(
                "--builds: the name `{name}` must be letters, digits, `-` or `_`"
            ));
        }
        if builds.iter().any(|b| b.name == name) {
            return Err(format!("--builds: the name `{name}` is given twice"));
        }
        let vmrun = PathBuf::from(file.trim());
        if !vmrun.is_file() {
            return Err(format!("--builds: {}: no such file", vmrun.display()));
        }
        builds.push(Build {
            name: name.to_string(),
            vmrun,
        });
    }
    if builds.len() < 2 {
        return Err("--builds: give at least two builds, NAME=FILE,NAME=FILE".into());
    }
    Ok(builds)
}

/// The label of the cell of `mode` measured with `build` while the runs are made.
pub fn cell_label(mode: &str, build: &str) -> String {
    format!("{mode}@{build}")
}

/// The results of one build, out of a run whose cells are every mode with every build
/// (labelled by [`cell_label`], in the order mode by mode, build by build).
pub fn split(all: &BenchResults, modes: &[String], build: &Build) -> BenchResults {
    let mut one = all.clone();
    one.vmrun = build.vmrun.display().to_string();
    one.settings.modes = modes.to_vec();
    for program in &mut one.programs {
        program.cells = modes
            .iter()
            .filter_map(|mode| {
                let label = cell_label(mode, &build.name);
                let mut cell = program.cells.iter().find(|c| c.mode == label)?.clone();
                cell.mode = mode.clone();
                Some(cell)
            })
            .collect();
    }
    one
}

/// The geometric mean over the judged programs of `mode`'s ratio to `base` in `metric`.
fn mean_ratio(results: &BenchResults, mode: &str, base: &str, metric: Metric) -> Option<f64> {
    geomean(
        results
            .judged_programs()
            .iter()
            .filter_map(|p| p.ratio(mode, base, metric)),
    )
}

/// One mode's costs in every build.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeSpread {
    /// The mode.
    pub mode: String,
    /// Per build, its CPU time over `none`'s (geometric mean over the judged programs).
    pub vs_none: Vec<Option<f64>>,
    /// The spread of `vs_none` across builds: largest over smallest, less one.
    pub spread: Option<f64>,
    /// Per build, its CPU time over `bl`'s, when `bl` was run.
    pub vs_bl: Vec<Option<f64>>,
    /// Its instructions over `bl`'s (callgrind, the first build), when counted.
    pub instructions_vs_bl: Option<f64>,
}

impl ModeSpread {
    /// Whether the spread is within [`SPREAD_LIMIT`] (`None`: not measured in two builds).
    pub fn spread_met(&self) -> Option<bool> {
        self.spread.map(|s| s <= SPREAD_LIMIT)
    }

    /// The build whose time ratio to `bl` is furthest from the instruction ratio, and how far
    /// (the time ratio over the instruction ratio, less one), when both are known.
    pub fn worst_against_instructions(&self) -> Option<f64> {
        let instr = self.instructions_vs_bl?;
        self.vs_bl
            .iter()
            .flatten()
            .map(|t| t / instr - 1.0)
            .max_by(|a, b| a.abs().total_cmp(&b.abs()))
    }
}

/// Every mode's costs across the builds.
pub fn spreads(per_build: &[BenchResults], modes: &[String]) -> Vec<ModeSpread> {
    let has_bl = modes.iter().any(|m| m == "bl");
    modes
        .iter()
        .filter(|m| *m != "none")
        .map(|mode| {
            let vs_none: Vec<Option<f64>> = per_build
                .iter()
                .map(|r| mean_ratio(r, mode, "none", Metric::CpuTime))
                .collect();
            let known: Vec<f64> = vs_none.iter().flatten().copied().collect();
            let spread = (known.len() >= 2).then(|| {
                let max = known.iter().copied().fold(f64::MIN, f64::max);
                let min = known.iter().copied().fold(f64::MAX, f64::min);
                max / min - 1.0
            });
            let vs_bl = per_build
                .iter()
                .map(|r| {
                    (has_bl && mode != "bl")
                        .then(|| mean_ratio(r, mode, "bl", Metric::CpuTime))
                        .flatten()
                })
                .collect();
            let instructions_vs_bl = (has_bl && mode != "bl")
                .then(|| {
                    per_build
                        .first()
                        .and_then(|r| mean_ratio(r, mode, "bl", Metric::Instructions))
                })
                .flatten();
            ModeSpread {
                mode: mode.clone(),
                vs_none,
                spread,
                vs_bl,
                instructions_vs_bl,
            }
        })
        .collect()
}

/// `builds.md`: the builds, then per mode its cost in each build and the verdicts.
pub fn markdown(builds: &[Build], per_build: &[BenchResults], modes: &[String]) -> String {
    let rows = spreads(per_build, modes);
    let judged_count = per_build.first().map_or(0, |r| r.judged_programs().len());
    let mut out = String::from("# The same suite with several builds\n\n");
    out.push_str(&format!(
        "Each mode's CPU time relative to `none` and to `bl` in each build, geometric mean over \
         {judged_count} programs (the loop-heavy ones when the manifest marks any); the modes \
         and builds interleaved run by run. Spread: the largest ratio over the smallest, less \
         one (goal: at most {:.0}%).\n\n",
        SPREAD_LIMIT * 100.0
    ));
    for b in builds {
        out.push_str(&format!(
            "- `{}`: `{}` (its whole report: [{}/report.md]({}/report.md))\n",
            b.name,
            b.vmrun.display(),
            b.name,
            b.name
        ));
    }
    out.push('\n');
    let mut header = vec!["mode".to_string()];
    header.extend(builds.iter().map(|b| format!("/none, {}", b.name)));
    header.push("spread".into());
    header.extend(builds.iter().map(|b| format!("/bl, {}", b.name)));
    header.push("instructions /bl".into());
    header.push("time against instructions (worst build)".into());
    let mut table = Table::new(header);
    for r in &rows {
        let mut cells = vec![r.mode.clone()];
        cells.extend(r.vs_none.iter().map(|v| fixed(*v, 3)));
        cells.push(match (r.spread, r.spread_met()) {
            (Some(s), Some(met)) => {
                format!("{:.1}%{}", s * 100.0, if met { "" } else { " (over)" })
            }
            _ => "-".into(),
        });
        cells.extend(r.vs_bl.iter().map(|v| fixed(*v, 3)));
        cells.push(fixed(r.instructions_vs_bl, 3));
        cells.push(match r.worst_against_instructions() {
            Some(d) => format!(
                "{:+.1}%{}",
                d * 100.0,
                if d.abs() <= INSTRUCTION_TOLERANCE {
                    ""
                } else {
                    " (over 10%)"
                }
            ),
            None => "-".into(),
        });
        table.row(cells);
    }
    out.push_str(&table.markdown());
    let over: Vec<&str> = rows
        .iter()
        .filter(|r| r.spread_met() == Some(false))
        .map(|r| r.mode.as_str())
        .collect();
    let inverted = inversions(&rows, builds);
    if !inverted.is_empty() {
        out.push_str(&format!(
            "\nMeasured faster than a mode whose work it does and more (a build's or the \
             machine's doing, not the mode's): {}.\n",
            inverted.join("; ")
        ));
    }
    out.push_str(&if over.is_empty() {
        format!(
            "\nEvery mode's ratio to `none` is the same in every build within {:.0}%.\n",
            SPREAD_LIMIT * 100.0
        )
    } else {
        format!(
            "\nThe ratio to `none` depends on the build by more than {:.0}% for: {}.\n",
            SPREAD_LIMIT * 100.0,
            over.join(", ")
        )
    });
    out
}

/// Whether `mode` does all of `bl`'s work and more: its probes are `bl`'s plus a sink (`kbl`,
/// `ol`).
fn runs_bl_probes(mode: &str) -> bool {
    mode.starts_with("kbl:") || mode.starts_with("ol:")
}

/// The builds in which a mode's mean time came out below that of a mode whose work it does
/// and more: every mode against `none`, `kbl:K` and `ol:K` against `bl`
/// (`build: mode/base 0.97`).
pub fn inversions(rows: &[ModeSpread], builds: &[Build]) -> Vec<String> {
    let mut found = Vec::new();
    for r in rows {
        for (b, v) in builds.iter().zip(&r.vs_none) {
            if let Some(v) = v.filter(|v| *v < 1.0) {
                found.push(format!("{}: {}/none {v:.3}", b.name, r.mode));
            }
        }
        if runs_bl_probes(&r.mode) {
            for (b, v) in builds.iter().zip(&r.vs_bl) {
                if let Some(v) = v.filter(|v| *v < 1.0) {
                    found.push(format!("{}: {}/bl {v:.3}", b.name, r.mode));
                }
            }
        }
    }
    found
}

/// The directory of one build's results.
pub fn dir(out: &Path, build: &Build) -> PathBuf {
    out.join(&build.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mode_faster_than_one_whose_work_it_does_is_flagged() {
        let builds: Vec<Build> = ["a", "b"]
            .iter()
            .map(|n| Build {
                name: n.to_string(),
                vmrun: PathBuf::from("vmrun"),
            })
            .collect();
        let row = |mode: &str, vs_none: [f64; 2], vs_bl: [f64; 2]| ModeSpread {
            mode: mode.into(),
            vs_none: vs_none.iter().map(|v| Some(*v)).collect(),
            spread: None,
            vs_bl: vs_bl.iter().map(|v| Some(*v)).collect(),
            instructions_vs_bl: None,
        };
        let rows = [
            row("edge", [0.98, 1.02], [0.9, 0.9]),
            row("kbl:8", [1.3, 1.3], [1.1, 0.97]),
            row("kiter:2", [1.2, 1.2], [0.95, 0.95]),
        ];
        assert_eq!(
            inversions(&rows, &builds),
            ["a: edge/none 0.980", "b: kbl:8/bl 0.970"],
            "kiter does not run bl's probes, so it may beat bl"
        );
    }

    #[test]
    fn builds_are_named_files() {
        let exe = std::env::current_exe().unwrap();
        let e = exe.display();
        let builds = parse(&format!("a={e}, b-2={e}")).unwrap();
        assert_eq!(builds.len(), 2);
        assert_eq!(builds[1].name, "b-2");
        assert!(parse(&format!("a={e}"))
            .unwrap_err()
            .contains("at least two"));
        assert!(parse(&format!("a={e},a={e}"))
            .unwrap_err()
            .contains("given twice"));
        assert!(parse(&format!("a/b={e},c={e}"))
            .unwrap_err()
            .contains("letters"));
        assert!(parse("a=/no/such/vmrun,b=/no/such/vmrun")
            .unwrap_err()
            .contains("no such file"));
        assert!(parse(&format!("{e},b={e}"))
            .unwrap_err()
            .contains("NAME=FILE"));
    }
}
