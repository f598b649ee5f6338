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
}

/// How a figure's value is read off a program for a mode.
type ValueOf<'a> = &'a dyn Fn(&ProgramResult, &str) -> Option<f64>;

/// Builds a figure over every program of `results` for `modes`, with geometric means over
/// all programs and over the loop-heavy ones.
#[allow(clippy::too_many_arguments)]
fn figure(
    results: &BenchResults,
    file: &'static str,
    title: String,
    y_label: String,
    modes: &[String],
    value: ValueOf<'_>,
    log_y: bool,
    baseline: Option<f64>,
    decimals: usize,
) -> Figure {
    let programs = &results.programs;
    let mut categories: Vec<String> = programs.iter().map(|p| p.name.clone()).collect();
    categories.push("geomean".into());
    categories.push("geomean loop-heavy".into());
    let series = modes
        .iter()
        .map(|mode| {
            let mut values: Vec<Option<f64>> = programs.iter().map(|p| value(p, mode)).collect();
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
            Series {
                name: mode.clone(),
                values,
            }
        })
        .collect();
    Figure {
        file,
        title,
        y_label,
        categories,
        programs: programs.len(),
        series,
        log_y,
        baseline,
        decimals,
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
    let kbl = modes_with(results, "kbl:");
    let kiter = modes_with(results, "kiter:");
    let has_bl = results.settings.modes.iter().any(|m| m == "bl");
    let mut out = Vec::new();

    let others: Vec<String> = results
        .settings
        .modes
        .iter()
        .filter(|m| *m != "none")
        .cloned()
        .collect();
    if !others.is_empty() {
        out.push(figure(
            results,
            "overhead-vs-none.svg",
            format!("Profiling overhead: {what} of each mode relative to none"),
            format!("{what} / none"),
            &others,
            &|p, m| p.ratio(m, "none", metric),
            false,
            Some(1.0),
            3,
        ));
    }
    if has_bl && !kbl.is_empty() {
        out.push(figure(
            results,
            "fig08-kbl-vs-bl.svg",
            format!("k-BLPP Figure 8: {what} of kbl:K relative to bl"),
            format!("{what} / bl"),
            &kbl,
            &|p, m| p.ratio(m, "bl", metric),
            false,
            Some(1.0),
            3,
        ));
        let bl_hash_ops = |p: &ProgramResult| stats(p, "bl").and_then(|s| s.hash_ops);
        out.push(figure(
            results,
            "fig09-hash-ops-vs-bl.svg",
            "k-BLPP Figure 9: hash-table operations of kbl:K relative to bl (done by this VM's k-SF)"
                .into(),
            "hash operations / bl's".into(),
            &kbl,
            &|p, m| {
                let done = stats(p, m)?.hash_ops?;
                let bl = bl_hash_ops(p).filter(|&n| n > 0)?;
                Some(done as f64 / bl as f64)
            },
            true,
            Some(1.0),
            6,
        ));
        out.push(figure(
            results,
            "fig09-figure6-hash-ops-vs-bl.svg",
            "k-BLPP Figure 9: hash-table operations of kbl:K relative to bl (the paper's Figure 6: one per slab)"
                .into(),
            "hash operations / bl's".into(),
            &kbl,
            &|p, m| {
                let starts = stats(p, m)?.slab_starts?;
                let bl = bl_hash_ops(p).filter(|&n| n > 0)?;
                Some(starts as f64 / bl as f64)
            },
            true,
            Some(1.0),
            4,
        ));
        let with_bl = |label: &str| -> Vec<String> {
            std::iter::once(label.to_string())
                .chain(kbl.iter().cloned())
                .collect()
        };
        out.push(figure(
            results,
            "fig11-space.svg",
            "k-BLPP Figure 11: space, bl's hash-table entries and kbl:K's k-SF nodes".into(),
            "entries / nodes".into(),
            &with_bl("bl"),
            &|p, m| {
                let s = stats(p, m)?;
                Some(if m == "bl" {
                    s.distinct_paths
                } else {
                    s.ksf_nodes?
                } as f64)
            },
            true,
            None,
            0,
        ));
        out.push(figure(
            results,
            "fig12-paths-profiled.svg",
            "k-BLPP Figure 12: paths profiled, bl's distinct paths and kbl:K's k-IPF nodes".into(),
            "paths".into(),
            &with_bl("bl"),
            &|p, m| {
                let s = stats(p, m)?;
                Some(if m == "bl" {
                    s.distinct_paths
                } else {
                    s.ipf_nodes?
                } as f64)
            },
            true,
            None,
            0,
        ));
    }
    if !kbl.is_empty() {
        out.push(figure(
            results,
            "fig13-ipf-degree.svg",
            "k-BLPP Figure 13: average degree of k-IPF internal nodes".into(),
            "children per internal node".into(),
            &kbl,
            &|p, m| stats(p, m)?.avg_internal_degree,
            false,
            None,
            3,
        ));
        out.push(figure(
            results,
            "fig14-ipf-leaf-depth.svg",
            "k-BLPP Figure 14: average depth of k-IPF leaves".into(),
            "depth (roots at 0)".into(),
            &kbl,
            &|p, m| stats(p, m)?.avg_leaf_depth,
            false,
            None,
            3,
        ));
    }
    if has_bl && !kiter.is_empty() {
        out.push(figure(
            results,
            "table3-kiter-vs-bl.svg",
            format!("Roy & Srikant Table 3: {what} of kiter:K relative to bl"),
            format!("{what} / bl"),
            &kiter,
            &|p, m| p.ratio(m, "bl", metric),
            false,
            Some(1.0),
            3,
        ));
    }
    out
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
