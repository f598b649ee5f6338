//! `vmrun bench --compare OLD.json NEW.json`: what changed between two benchmark runs (before
//! and after an optimisation), per program and mode, and which changes stand out from the
//! noise of the runs.
//!
//! Both runs are compared in one metric: instructions if both counted them, otherwise CPU
//! time. The noise of a cell is the spread of its runs, `(max - min) / median`; a change is
//! significant when it is larger than the noise of both cells (their larger spread). Under
//! callgrind a count is exact but for the few thousand instructions that differ with the
//! binary's path, the arguments and the environment at start-up: its noise is
//! [`CALLGRIND_NOISE`]. A cell with a single timed run has no
//! measurable spread: its changes are shown but not judged. Programs and modes present in
//! only one of the runs are listed as such.

use std::fmt::Write as _;

use super::results::{geomean, BenchResults, Cell, Metric};
use super::table::{fixed, Table};

/// How one cell changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The program.
    pub program: String,
    /// The mode.
    pub mode: String,
    /// The old and new medians.
    pub old: f64,
    /// The new median.
    pub new: f64,
    /// The noise the change is judged against (a fraction), if both cells have one.
    pub noise: Option<f64>,
}

impl Change {
    /// `new / old - 1`.
    pub fn relative(&self) -> f64 {
        self.new / self.old - 1.0
    }

    /// Whether the change is larger than the noise (`None`: cannot tell).
    pub fn significant(&self) -> Option<bool> {
        self.noise.map(|n| self.relative().abs() > n)
    }
}

/// The noise of a callgrind count: 0.01%, far above what start-up differences make (a few
/// thousand instructions of runs of billions) and far below any change of the code that runs.
pub const CALLGRIND_NOISE: f64 = 1e-4;

/// The relative spread of a cell's runs in `metric` ([`CALLGRIND_NOISE`] for a callgrind
/// count), if it has at least two runs.
fn noise(cell: &Cell, metric: Metric, callgrind: bool) -> Option<f64> {
    if metric == Metric::Instructions && callgrind {
        return Some(CALLGRIND_NOISE);
    }
    let values: Vec<f64> = cell.runs.iter().filter_map(|r| metric.of(r)).collect();
    if values.len() < 2 {
        return None;
    }
    let median = super::results::median(&values);
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (median > 0.0).then(|| (hi - lo) / median)
}

/// The metric both runs have.
fn common_metric(old: &BenchResults, new: &BenchResults) -> Metric {
    if old.metric() == Metric::Instructions && new.metric() == Metric::Instructions {
        Metric::Instructions
    } else {
        Metric::CpuTime
    }
}

/// Every cell usable in both runs, and what is in only one of them.
pub fn changes(old: &BenchResults, new: &BenchResults) -> (Metric, Vec<Change>, Vec<String>) {
    let metric = common_metric(old, new);
    let callgrind = |r: &BenchResults| r.settings.instructions == "callgrind";
    let mut out = Vec::new();
    let mut unmatched = Vec::new();
    for np in &new.programs {
        let Some(op) = old.programs.iter().find(|p| p.name == np.name) else {
            unmatched.push(format!("{}: only in the new run", np.name));
            continue;
        };
        for nc in &np.cells {
            let Some(oc) = op.cell(&nc.mode) else {
                unmatched.push(format!("{} {}: only in the new run", np.name, nc.mode));
                continue;
            };
            let (Some(o), Some(n)) = (oc.value(metric), nc.value(metric)) else {
                unmatched.push(format!(
                    "{} {}: not measured in both runs ({:?} / {:?})",
                    np.name, nc.mode, oc.status, nc.status
                ));
                continue;
            };
            let noise = noise(oc, metric, callgrind(old))
                .zip(noise(nc, metric, callgrind(new)))
                .map(|(a, b)| a.max(b));
            out.push(Change {
                program: np.name.clone(),
                mode: nc.mode.clone(),
                old: o,
                new: n,
                noise,
            });
        }
    }
    for op in &old.programs {
        if !new.programs.iter().any(|p| p.name == op.name) {
            unmatched.push(format!("{}: only in the old run", op.name));
        }
    }
    (metric, out, unmatched)
}

/// The comparison as text: a table of every change, the significant ones marked, and the
/// geometric mean of the change per mode.
pub fn render(old_name: &str, new_name: &str, old: &BenchResults, new: &BenchResults) -> String {
    let (metric, changes, unmatched) = changes(old, new);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Comparing {new_name} ({}) with {old_name} ({}), in {}.\n\
         A change is significant when it exceeds the spread (max - min) / median of the runs of both.",
        new.date,
        old.date,
        metric.name()
    );
    let (unit, scale) = match metric {
        Metric::Instructions => ("M instr.", 1e-6),
        _ => ("s", 1.0),
    };
    let mut t = Table::new([
        "program".to_string(),
        "mode".into(),
        format!("old ({unit})"),
        format!("new ({unit})"),
        "change".into(),
        "noise".into(),
        "verdict".into(),
    ]);
    for c in &changes {
        let verdict = match c.significant() {
            Some(true) if c.relative() < 0.0 => "faster",
            Some(true) => "SLOWER",
            Some(false) => "within noise",
            None => "? (1 run)",
        };
        t.row(vec![
            c.program.clone(),
            c.mode.clone(),
            fixed(Some(c.old * scale), 3),
            fixed(Some(c.new * scale), 3),
            format!("{:+.1}%", c.relative() * 100.0),
            c.noise.map_or("-".into(), |n| format!("{:.1}%", n * 100.0)),
            verdict.to_string(),
        ]);
    }
    o.push_str(&t.text());
    let mut modes: Vec<&str> = Vec::new();
    for c in &changes {
        if !modes.contains(&c.mode.as_str()) {
            modes.push(&c.mode);
        }
    }
    let _ = writeln!(o, "\nGeometric mean of new/old per mode:");
    for mode in modes {
        let of_mode: Vec<&Change> = changes.iter().filter(|c| c.mode == mode).collect();
        let mean = geomean(of_mode.iter().map(|c| c.new / c.old));
        let significant = of_mode
            .iter()
            .filter(|c| c.significant() == Some(true))
            .count();
        let _ = writeln!(
            o,
            "  {mode}: {} ({significant} of {} programs changed beyond the noise)",
            mean.map_or("-".into(), |m| format!("{:+.1}%", (m - 1.0) * 100.0)),
            of_mode.len()
        );
    }
    if !unmatched.is_empty() {
        let _ = writeln!(o, "\nNot compared:");
        for line in unmatched {
            let _ = writeln!(o, "  {line}");
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::{cell, example};
    use super::*;

    #[test]
    fn changes_beyond_the_spread_of_the_runs_are_significant() {
        let old = example();
        let mut new = example();
        // loops: bl 1.2/1.1/1.15 (spread 8.7%) -> 0.9/0.92/0.91 (20% faster: significant);
        // kbl:8 1.3/1.2/1.25 -> 1.26/1.24/1.25 (no change beyond the noise).
        new.programs[0].cells[1] = cell("bl", &[0.9, 0.92, 0.91]);
        new.programs[0].cells[2] = cell("kbl:8", &[1.26, 1.24, 1.25]);
        let (metric, changes, unmatched) = changes(&old, &new);
        assert_eq!(metric, Metric::CpuTime);
        let of = |mode: &str| {
            changes
                .iter()
                .find(|c| c.program == "loops" && c.mode == mode)
                .unwrap()
        };
        assert_eq!(of("bl").significant(), Some(true));
        assert!(of("bl").relative() < -0.15);
        assert_eq!(of("kbl:8").significant(), Some(false));
        assert_eq!(of("none").significant(), Some(false), "the same runs");
        // calls has single runs: shown, not judged; its kbl:8 cell mismatched in both.
        let calls_bl = changes
            .iter()
            .find(|c| c.program == "calls" && c.mode == "bl")
            .unwrap();
        assert_eq!(calls_bl.significant(), None);
        assert!(unmatched
            .iter()
            .any(|u| u.starts_with("calls kbl:8: not measured")));
        let text = render("old.json", "new.json", &old, &new);
        assert!(text.contains("faster"), "{text}");
        assert!(text.contains("? (1 run)"), "{text}");
    }

    #[test]
    fn programs_in_one_run_only_are_listed() {
        let old = example();
        let mut new = example();
        new.programs.remove(1);
        let (_, _, unmatched) = changes(&old, &new);
        assert_eq!(unmatched, ["calls: only in the old run"]);
    }
}
