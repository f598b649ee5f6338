//! The papers' figures and tables, drawn from a benchmark's results: what each one plots,
//! per program and mode, with its geometric means. [`super::charts`] draws them as SVG and
//! [`super::report`] writes them as tables, so a chart and its table always show the same
//! numbers.
//!
//! - Figure 8 of the k-BLPP paper (Delia, Demetrescu & Finocchi 2013, section 4.2): the cost of
//!   `kbl:K` relative to `bl`;
//! - Figure 9: hash-table operations of `kbl:K` relative to `bl` (one per path), as done by
//!   this VM's k-SF (one per activation and shortcut resolved) and as the paper's Figure 6
//!   would do them (one per slab of `K - 1` paths);
//! - Figures 11 and 12: space, `bl`'s hash-table entries against k-SF nodes, and paths
//!   profiled, `bl`'s distinct paths against k-IPF nodes;
//! - Figures 13 and 14: average degree of internal k-IPF nodes and average depth of k-IPF
//!   leaves;
//! - Table 3 of Roy & Srikant (2009, section 6): the cost of `kiter:K` relative to `bl`;
//! - and every mode's cost relative to `none` (no paper has it: it is what a user pays).

use super::results::{geomean, BenchResults, CellStatus, Metric, ProfileStats, ProgramResult};

/// One figure: a value per program (category) and series (mode), and its means.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The SVG file's name.
    pub file: &'static str,
    /// The title (which paper figure it redraws, and what it shows).
    pub title: String,
    /// The y axis label.
    pub y_label: String,
    /// The programs, in the results' order, then the means (`geomean`, `geomean
    /// loop-heavy`).
    pub categories: Vec<String>,
    /// How many leading categories are programs (the rest are means).
    pub programs: usize,
    /// One per mode shown.
    pub series: Vec<Series>,
    /// Whether the y axis is logarithmic (counts spanning orders of magnitude).
    pub log_y: bool,
    /// A reference line (1.0 for ratios).
    pub baseline: Option<f64>,
    /// Decimals shown in tables.
    pub decimals: usize,
}

/// One mode's values, one per category (`None`: not measured, or the cell failed).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The mode (the legend's label).
    pub name: String,
    /// Per category.
    pub values: Vec<Option<f64>>,
    /// Per category, the smallest and largest value over the timed runs, where the value
    /// is a time ratio measured more than once (round by round: the `n`-th run of the mode
    /// against the `n`-th of its base; a mean's range is the range of the means round by
    /// round); `None` elsewhere.
    pub ranges: Vec<Option<(f64, f64)>>,
}

/// How a figure's value is read off a program for a mode.
type ValueOf<'a> = Box<dyn Fn(&ProgramResult, &str) -> Option<f64> + 'a>;

/// How a figure's value is read off a program for a mode, round by round (a ratio's runs).
type RunsOf<'a> = Box<dyn Fn(&ProgramResult, &str) -> Vec<f64> + 'a>;

/// The smallest and largest of `values`, if there are at least two.
fn range_of(values: &[f64]) -> Option<(f64, f64)> {
    (values.len() >= 2).then(|| {
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    })
}

/// The range of a geometric mean over programs, round by round: the mean of every program's
/// `n`-th value for each round `n` all of them have.
fn mean_range(per_program: &[Vec<f64>]) -> Option<(f64, f64)> {
    let rounds = per_program.iter().map(Vec::len).min()?;
    let means: Vec<f64> = (0..rounds)
        .filter_map(|n| geomean(per_program.iter().map(|v| v[n])))
        .collect();
    range_of(&means)
}

/// What a figure plots, before it is read off the results.
struct Spec<'a> {
    file: &'static str,
    title: String,
    y_label: String,
    modes: Vec<String>,
    value: ValueOf<'a>,
    /// The value round by round, for the error bars (time ratios only).
    runs: Option<RunsOf<'a>>,
    /// Counts spanning orders of magnitude: a logarithmic axis, no decimals.
    counts: bool,
    baseline: Option<f64>,
    decimals: usize,
}

impl Spec<'_> {
    /// The figure over every program of `results`, with geometric means over all programs
    /// and over the loop-heavy ones.
    fn read(self, results: &BenchResults) -> Figure {
        let programs = &results.programs;
        let mut categories: Vec<String> = programs.iter().map(|p| p.name.clone()).collect();
        categories.push("geomean".into());
        categories.push("geomean loop-heavy".into());
        let series = self
            .modes
            .iter()
            .map(|mode| {
                let mut values: Vec<Option<f64>> =
                    programs.iter().map(|p| (self.value)(p, mode)).collect();
                let all = geomean(values.iter().flatten().copied());
                let loop_heavy = geomean(
                    programs
                        .iter()
                        .zip(&values)
                        .filter(|(p, _)| p.loop_heavy == Some(true))
                        .filter_map(|(_, v)| *v),
                );
                values.push(all);
                values.push(loop_heavy);
                let ranges = match &self.runs {
                    Some(runs) => {
                        let per: Vec<Vec<f64>> = programs.iter().map(|p| runs(p, mode)).collect();
                        let mut ranges: Vec<Option<(f64, f64)>> =
                            per.iter().map(|v| range_of(v)).collect();
                        let measured = |heavy: bool| -> Vec<Vec<f64>> {
                            programs
                                .iter()
                                .zip(&per)
                                .filter(|(p, v)| {
                                    !v.is_empty() && (!heavy || p.loop_heavy == Some(true))
                                })
                                .map(|(_, v)| v.clone())
                                .collect()
                        };
                        ranges.push(mean_range(&measured(false)));
                        ranges.push(mean_range(&measured(true)));
                        ranges
                    }
                    None => vec![None; values.len()],
                };
                Series {
                    name: mode.clone(),
                    values,
                    ranges,
                }
            })
            .collect();
        Figure {
            file: self.file,
            title: self.title,
            y_label: self.y_label,
            categories,
            programs: programs.len(),
            series,
            log_y: self.counts,
            baseline: self.baseline,
            decimals: self.decimals,
        }
    }
}

/// The modes of `results` whose name starts with `prefix` (`kbl:`, `kiter:`).
fn modes_with(results: &BenchResults, prefix: &str) -> Vec<String> {
    results
        .settings
        .modes
        .iter()
        .filter(|m| m.starts_with(prefix))
        .cloned()
        .collect()
}

fn stats<'a>(p: &'a ProgramResult, mode: &str) -> Option<&'a ProfileStats> {
    p.cell(mode)
        .filter(|c| c.status == CellStatus::Ok)
        .and_then(|c| c.profile.as_ref())
}

/// Every figure the results can give (those whose modes were run).
pub fn figures(results: &BenchResults) -> Vec<Figure> {
    let metric = results.metric();
    let what = metric.name();
    let modes = &results.settings.modes;
    let kbl = modes_with(results, "kbl:");
    let kiter = modes_with(results, "kiter:");
    let has_bl = modes.iter().any(|m| m == "bl");
    let bl_and_kbl: Vec<String> = std::iter::once("bl".to_string())
        .chain(kbl.iter().cloned())
        .collect();

    // `metric` of each mode relative to `base`.
    let ratio = |file, title: String, modes: Vec<String>, base: &'static str| Spec {
        file,
        title,
        y_label: format!("{what} / {base}"),
        modes,
        value: Box::new(move |p: &ProgramResult, m: &str| p.ratio(m, base, metric)),
        runs: Some(Box::new(move |p: &ProgramResult, m: &str| {
            p.run_ratios(m, base, metric)
        })),
        counts: false,
        baseline: Some(1.0),
        decimals: 3,
    };
    // A k-SF count of each `kbl:K` relative to `bl`'s hash operations (one per path).
    let per_bl_path = |file, title: &str, count: fn(&ProfileStats) -> Option<u64>, decimals| Spec {
        file,
        title: title.to_string(),
        y_label: "hash operations / bl's".into(),
        modes: kbl.clone(),
        value: Box::new(move |p: &ProgramResult, m: &str| {
            let n = count(stats(p, m)?)?;
            let bl = stats(p, "bl")?.hash_ops.filter(|&n| n > 0)?;
            Some(n as f64 / bl as f64)
        }),
        runs: None,
        counts: true,
        baseline: Some(1.0),
        decimals,
    };
    // `bl`'s distinct paths beside a count of each `kbl:K`.
    let against_bl =
        |file, title: &str, y_label: &str, count: fn(&ProfileStats) -> Option<u64>| Spec {
            file,
            title: title.to_string(),
            y_label: y_label.to_string(),
            modes: bl_and_kbl.clone(),
            value: Box::new(move |p: &ProgramResult, m: &str| {
                let s = stats(p, m)?;
                let n = if m == "bl" {
                    s.distinct_paths
                } else {
                    count(s)?
                };
                Some(n as f64)
            }),
            runs: None,
            counts: true,
            baseline: None,
            decimals: 0,
        };
    // A k-IPF shape statistic of each `kbl:K`.
    let shape = |file, title: &str, y_label: &str, value: fn(&ProfileStats) -> Option<f64>| Spec {
        file,
        title: title.to_string(),
        y_label: y_label.to_string(),
        modes: kbl.clone(),
        value: Box::new(move |p: &ProgramResult, m: &str| value(stats(p, m)?)),
        runs: None,
        counts: false,
        baseline: None,
        decimals: 3,
    };

    let mut specs = Vec::new();
    let others: Vec<String> = modes.iter().filter(|m| *m != "none").cloned().collect();
    if !others.is_empty() {
        let title = format!("Profiling overhead: {what} of each mode relative to none");
        specs.push(ratio("overhead-vs-none.svg", title, others, "none"));
    }
    if has_bl && !kbl.is_empty() {
        let title = format!("k-BLPP Figure 8: {what} of kbl:K relative to bl");
        specs.push(ratio("fig08-kbl-vs-bl.svg", title, kbl.clone(), "bl"));
        specs.push(per_bl_path(
            "fig09-hash-ops-vs-bl.svg",
            "k-BLPP Figure 9: hash-table operations of kbl:K relative to bl (done by this VM's k-SF)",
            |s| s.hash_ops,
            6,
        ));
        specs.push(per_bl_path(
            "fig09-figure6-hash-ops-vs-bl.svg",
            "k-BLPP Figure 9: hash-table operations of kbl:K relative to bl (the paper's Figure 6: one per slab)",
            |s| s.slab_starts,
            4,
        ));
        specs.push(against_bl(
            "fig11-space.svg",
            "k-BLPP Figure 11: space, bl's hash-table entries and kbl:K's k-SF nodes",
            "entries / nodes",
            |s| s.ksf_nodes,
        ));
        specs.push(against_bl(
            "fig12-paths-profiled.svg",
            "k-BLPP Figure 12: paths profiled, bl's distinct paths and kbl:K's k-IPF nodes",
            "paths",
            |s| s.ipf_nodes,
        ));
    }
    if !kbl.is_empty() {
        specs.push(shape(
            "fig13-ipf-degree.svg",
            "k-BLPP Figure 13: average degree of k-IPF internal nodes",
            "children per internal node",
            |s| s.avg_internal_degree,
        ));
        specs.push(shape(
            "fig14-ipf-leaf-depth.svg",
            "k-BLPP Figure 14: average depth of k-IPF leaves",
            "depth (roots at 0)",
            |s| s.avg_leaf_depth,
        ));
    }
    if has_bl && !kiter.is_empty() {
        let title = format!("Roy & Srikant Table 3: {what} of kiter:K relative to bl");
        specs.push(ratio("table3-kiter-vs-bl.svg", title, kiter, "bl"));
    }
    specs.into_iter().map(|spec| spec.read(results)).collect()
}

/// A profiling goal of the project, checked on the loop-heavy programs: the median over them
/// of `mode`'s metric relative to `base` at most `limit`.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The mode measured.
    pub mode: &'static str,
    /// What it is compared with.
    pub base: &'static str,
    /// The largest median ratio that meets the goal.
    pub limit: f64,
    /// The median ratio per metric measured (`None`: no loop-heavy program has both cells).
    pub medians: Vec<(Metric, Option<f64>)>,
    /// The loop-heavy program with the largest ratio, and that ratio (in the results' metric).
    pub worst: Option<(String, f64)>,
    /// How many loop-heavy programs the medians are over.
    pub programs: usize,
}

impl Goal {
    /// The median in the results' metric.
    pub fn median(&self, metric: Metric) -> Option<f64> {
        self.medians
            .iter()
            .find(|(m, _)| *m == metric)
            .and_then(|(_, v)| *v)
    }
}

/// The goals of the profiling issues: `bl` within 15% of `none`, `kbl:8` within 10% of `bl`,
/// `kiter:2` within 20% of `bl`, as medians over the loop-heavy programs (those the goals
/// are about), for each goal whose modes were run.
pub fn goals(results: &BenchResults) -> Vec<Goal> {
    const GOALS: [(&str, &str, f64); 3] = [
        ("bl", "none", 1.15),
        ("kbl:8", "bl", 1.10),
        ("kiter:2", "bl", 1.20),
    ];
    let metric = results.metric();
    let modes = &results.settings.modes;
    let loop_heavy: Vec<&ProgramResult> = results
        .programs
        .iter()
        .filter(|p| p.loop_heavy == Some(true))
        .collect();
    GOALS
        .iter()
        .filter(|(mode, base, _)| {
            modes.iter().any(|m| m == mode) && modes.iter().any(|m| m == base)
        })
        .map(|&(mode, base, limit)| {
            let ratios = |metric: Metric| -> Vec<(String, f64)> {
                loop_heavy
                    .iter()
                    .filter_map(|p| Some((p.name.clone(), p.ratio(mode, base, metric)?)))
                    .collect()
            };
            let mut metrics = vec![Metric::WallTime, Metric::CpuTime];
            if metric == Metric::Instructions {
                metrics.push(Metric::Instructions);
            }
            let medians = metrics
                .iter()
                .map(|&m| {
                    let values: Vec<f64> = ratios(m).iter().map(|(_, r)| *r).collect();
                    (
                        m,
                        (!values.is_empty()).then(|| super::results::median(&values)),
                    )
                })
                .collect();
            let in_metric = ratios(metric);
            let worst = in_metric.iter().max_by(|a, b| a.1.total_cmp(&b.1)).cloned();
            Goal {
                mode,
                base,
                limit,
                medians,
                worst,
                programs: in_metric.len(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::example;
    use super::*;

    #[test]
    fn each_figure_has_one_series_per_mode_and_its_means() {
        let results = example();
        let figs = figures(&results);
        let files: Vec<&str> = figs.iter().map(|f| f.file).collect();
        assert_eq!(
            files,
            [
                "overhead-vs-none.svg",
                "fig08-kbl-vs-bl.svg",
                "fig09-hash-ops-vs-bl.svg",
                "fig09-figure6-hash-ops-vs-bl.svg",
                "fig11-space.svg",
                "fig12-paths-profiled.svg",
                "fig13-ipf-degree.svg",
                "fig14-ipf-leaf-depth.svg",
            ],
            "no kiter mode was run: no Table 3"
        );
        let overhead = &figs[0];
        let names: Vec<&str> = overhead.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["bl", "kbl:8"]);
        assert_eq!(overhead.categories.len(), 2 + 2);
        // loops: bl 1.15 / none 1.0 (medians of the CPU times, 0.9 x the wall times).
        let bl = &overhead.series[0].values;
        assert!((bl[0].unwrap() - 1.15).abs() < 1e-9);
        let calls = 0.5 / 0.4;
        let geo = (1.15f64 * calls).sqrt();
        assert!(
            (bl[2].unwrap() - geo).abs() < 1e-9,
            "geomean over both programs"
        );
        assert!(
            (bl[3].unwrap() - 1.15).abs() < 1e-9,
            "loop-heavy: loops only"
        );
        assert_eq!(
            overhead.series[1].values[1], None,
            "calls' kbl:8 mismatched"
        );
        let hash = &figs[2].series[0].values;
        assert_eq!(hash[0], None, "no bl profile in the example: no ratio");
    }

    #[test]
    fn goals_are_medians_over_loop_heavy_programs() {
        let results = example();
        let goals = goals(&results);
        assert_eq!(goals.len(), 2, "kiter:2 was not run");
        let bl = &goals[0];
        assert_eq!((bl.mode, bl.base, bl.limit), ("bl", "none", 1.15));
        assert_eq!(bl.programs, 1);
        assert!((bl.median(Metric::CpuTime).unwrap() - 1.15).abs() < 1e-9);
        assert_eq!(bl.worst.as_ref().unwrap().0, "loops");
    }
}
