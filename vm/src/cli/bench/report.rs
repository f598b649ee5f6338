//! The human side of a benchmark's results: the summary printed on the terminal (overheads
//! against `none` and `bl`, the goals, the failures) and `report.md`, which adds every figure
//! (its chart and its table), Roy & Srikant's static path counts, memory, tier-up times and
//! the profiles' statistics, under a header saying what was run, where and when.

use std::fmt::Write as _;

use super::figures::{figures, goals, Figure, Goal};
use super::results::{BenchResults, CellStatus, Metric, OlFlows, ProgramResult};
use super::table::{count, fixed, Table};

/// A figure as a table: one row per program (loop-heavy ones marked `*`) and mean, one
/// column per series; a time ratio measured in several rounds is followed by its range over
/// the rounds, `1.234 (1.210-1.262)`.
pub fn figure_table(figure: &Figure, results: &BenchResults) -> Table {
    let mut t = Table::new(
        std::iter::once("program".to_string()).chain(figure.series.iter().map(|s| s.name.clone())),
    );
    for (i, category) in figure.categories.iter().enumerate() {
        let name = match results.programs.get(i) {
            Some(p) if i < figure.programs => program_label(p),
            _ => category.clone(),
        };
        let mut row = vec![name];
        row.extend(figure.series.iter().map(|s| {
            let value = fixed(s.values[i], figure.decimals);
            match (s.values[i], s.ranges.get(i).copied().flatten()) {
                (Some(_), Some((lo, hi))) => format!(
                    "{value} ({}-{})",
                    fixed(Some(lo), figure.decimals),
                    fixed(Some(hi), figure.decimals)
                ),
                _ => value,
            }
        }));
        t.row(row);
    }
    t
}

/// A program's name, with `*` when it is loop-heavy.
fn program_label(p: &ProgramResult) -> String {
    if p.loop_heavy == Some(true) {
        format!("{} *", p.name)
    } else {
        p.name.clone()
    }
}

/// A program is loop-heavy when at least this share of the Ball-Larus paths it completes end
/// at a loop header (the manifest's marks are checked against it).
pub const LOOP_HEAVY_SHARE: f64 = 0.5;

/// The programs whose manifest mark the `bl` profile contradicts: `name (share S, marked M)`.
fn contradicted_marks(results: &BenchResults) -> Vec<String> {
    results
        .programs
        .iter()
        .filter_map(|p| {
            let marked = p.loop_heavy?;
            let share = p.cell("bl")?.profile?.loop_path_share;
            let measured = share >= LOOP_HEAVY_SHARE;
            (marked != measured).then(|| {
                format!(
                    "{} (marked {}, but {:.0}% of its paths end at a loop header)",
                    p.name,
                    if marked {
                        "loop-heavy"
                    } else {
                        "not loop-heavy"
                    },
                    share * 100.0
                )
            })
        })
        .collect()
}

/// Pairs of modes whose order in CPU time contradicts their order in instructions (both
/// counted: `--instructions callgrind`), as geometric means over the loop-heavy programs (all
/// programs if none is marked) of each mode's ratio to `none`: a mode that executes more
/// instructions than another but runs in less time tells of the build (code layout) or the
/// machine, not of the modes' work (`vmrun bench --builds` measures how much).
pub fn order_contradictions(results: &BenchResults) -> Vec<String> {
    let judged = results.judged_programs();
    let mean = |mode: &str, metric: Metric| {
        super::results::geomean(judged.iter().filter_map(|p| p.ratio(mode, "none", metric)))
    };
    let costs: Vec<(&String, f64, f64)> = results
        .settings
        .modes
        .iter()
        .filter_map(|m| Some((m, mean(m, Metric::CpuTime)?, mean(m, Metric::Instructions)?)))
        .collect();
    let mut notes = Vec::new();
    for (i, (a, ta, ia)) in costs.iter().enumerate() {
        for (b, tb, ib) in &costs[i + 1..] {
            if (ta < tb) != (ia < ib) && (ia / ib - 1.0).abs() > 0.01 {
                let (fast, slow, t_fast, t_slow, i_fast, i_slow) = if ta < tb {
                    (a, b, ta, tb, ia, ib)
                } else {
                    (b, a, tb, ta, ib, ia)
                };
                notes.push(format!(
                    "`{fast}` ran in less time than `{slow}` ({t_fast:.3} against {t_slow:.3} of                      none's) but executed more instructions ({i_fast:.3} against {i_slow:.3})"
                ));
            }
        }
    }
    notes
}

/// The overhead table: `none`'s median time (or instructions) and every mode relative to it.
fn overhead_table(results: &BenchResults, overhead: &Figure) -> Table {
    let metric = results.metric();
    let mut t = figure_table(overhead, results);
    let unit = match metric {
        Metric::Instructions => "none (M instr.)".to_string(),
        _ => format!("none {} (s)", metric.name()),
    };
    t.header.insert(1, unit);
    for (i, row) in t.rows.iter_mut().enumerate() {
        let value = results
            .programs
            .get(i)
            .filter(|_| i < overhead.programs)
            .and_then(|p| p.cell("none"))
            .and_then(|c| c.value(metric))
            .map(|v| match metric {
                Metric::Instructions => v / 1e6,
                _ => v,
            });
        row.insert(1, fixed(value, 3));
    }
    t
}

/// One line per goal: the median ratio, the limit, met or not, and the worst program.
fn goal_lines(goals: &[Goal], metric: Metric) -> Vec<String> {
    goals
        .iter()
        .map(|g| {
            let shown: Vec<String> = g
                .medians
                .iter()
                .map(|(m, v)| format!("{} {}", fixed(*v, 3), m.name()))
                .collect();
            let verdict = match g.median(metric) {
                Some(v) if v <= g.limit => "met",
                Some(_) => "NOT MET",
                None => "not measured",
            };
            let worst = g
                .worst
                .as_ref()
                .map(|(name, r)| format!("; worst {name} {r:.3}"))
                .unwrap_or_default();
            format!(
                "{} / {} <= {:.2}: median {} over {} loop-heavy programs: {verdict} (in {}){worst}",
                g.mode,
                g.base,
                g.limit,
                shown.join(", "),
                g.programs,
                metric.name()
            )
        })
        .collect()
}

/// Every failed cell and program, one line each.
fn failures(results: &BenchResults) -> Vec<String> {
    let mut out = Vec::new();
    for p in &results.programs {
        if let Some(why) = &p.failure {
            out.push(format!("{}: program failed: {why}", p.name));
            continue;
        }
        for c in &p.cells {
            if !matches!(c.status, CellStatus::Ok | CellStatus::NotRun) {
                let status = serde_json::to_value(c.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                out.push(format!(
                    "{} {}: {status}: {}",
                    p.name,
                    c.mode,
                    c.message.as_deref().unwrap_or("")
                ));
            }
        }
    }
    out
}

/// One line on how instructions were counted, or why not.
fn instructions_line(results: &BenchResults) -> String {
    let s = &results.settings;
    match (s.instructions.as_str(), &s.instructions_note) {
        ("none", Some(note)) => format!("instructions: not counted: {note}"),
        ("none", None) => "instructions: not counted".to_string(),
        (tool, _) => format!("instructions: counted by {tool}"),
    }
}

/// The terminal summary.
pub fn terminal(results: &BenchResults) -> String {
    let metric = results.metric();
    let figs = figures(results);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "vmrun bench: {} programs x {} modes, {} timed run(s) each; {}; ratios of {} medians{}",
        results.programs.len(),
        results.settings.modes.len(),
        results.settings.runs,
        instructions_line(results),
        metric.name(),
        if results.complete {
            ""
        } else {
            " (INTERRUPTED: partial results)"
        }
    );
    if let Some(overhead) = figs.iter().find(|f| f.file == "overhead-vs-none.svg") {
        let _ = writeln!(
            o,
            "\nOverhead relative to none ({}; * loop-heavy)",
            metric.name()
        );
        o.push_str(&overhead_table(results, overhead).text());
    }
    let mut against_bl = Vec::new();
    for file in ["table3-kiter-vs-bl.svg", "fig08-kbl-vs-bl.svg"] {
        if let Some(f) = figs.iter().find(|f| f.file == file) {
            against_bl.extend(f.series.iter().cloned());
        }
    }
    if let Some(base) = figs.iter().find(|f| f.file == "fig08-kbl-vs-bl.svg") {
        let combined = Figure {
            series: against_bl,
            ..base.clone()
        };
        let _ = writeln!(o, "\nRelative to bl ({})", metric.name());
        o.push_str(&figure_table(&combined, results).text());
    }
    let goal_text = goal_lines(&goals(results), metric);
    if !goal_text.is_empty() {
        let _ = writeln!(o, "\nGoals (median over the loop-heavy programs):");
        for line in goal_text {
            let _ = writeln!(o, "  {line}");
        }
    }
    for note in order_contradictions(results) {
        let _ = writeln!(o, "\nTime contradicts instructions: {note}.");
    }
    let contradicted = contradicted_marks(results);
    if !contradicted.is_empty() {
        let _ = writeln!(
            o,
            "\nLoop-heavy marks the bl profiles contradict (at least {:.0}% of paths ending at a loop header): {}",
            LOOP_HEAVY_SHARE * 100.0,
            contradicted.join("; ")
        );
    }
    let failed = failures(results);
    if failed.is_empty() {
        let _ = writeln!(
            o,
            "\nEvery mode printed what none printed and exited as it did, on every program."
        );
    } else {
        let _ = writeln!(o, "\nFailures ({}):", failed.len());
        for line in failed {
            let _ = writeln!(o, "  {line}");
        }
    }
    o
}

/// `report.md`, linking the charts written beside it (`charts`: the files that were written).
pub fn markdown(results: &BenchResults, charts: &[String]) -> String {
    let metric = results.metric();
    let figs = figures(results);
    let s = &results.settings;
    let m = &results.machine;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Benchmark results: {} programs, {} modes\n",
        results.programs.len(),
        s.modes.len()
    );
    if !results.complete {
        let _ = writeln!(
            o,
            "**INCOMPLETE**: the run was interrupted; the programs and runs after that point are missing.\n"
        );
    }
    let _ = writeln!(o, "- command: `{}`", results.command_line.join(" "));
    let _ = writeln!(
        o,
        "- date: {}; duration {:.0} s",
        results.date, results.duration_seconds
    );
    let _ = writeln!(
        o,
        "- machine: {} ({}, {} cores, {:.1} GiB), {}",
        m.hostname,
        m.cpu,
        m.cores,
        m.memory_kib as f64 / (1 << 20) as f64,
        m.os
    );
    match &results.commit {
        Some(c) => {
            let dirty = if c.dirty {
                " with uncommitted changes"
            } else {
                ""
            };
            let _ = writeln!(o, "- commit: {}{dirty}; vmrun: `{}`", c.id, results.vmrun);
        }
        None => {
            let _ = writeln!(
                o,
                "- commit: not a git checkout; vmrun: `{}`",
                results.vmrun
            );
        }
    }
    let _ = writeln!(
        o,
        "- modes: {}; {} timed run(s) per program and mode, interleaved, {}; tier-up {}, path ends {}; time limit {} s per run",
        s.modes.join(", "),
        s.runs,
        if s.warmup {
            "after a warm-up run that wrote the profile"
        } else {
            "no warm-up (--quick: the timed run also wrote the profile)"
        },
        s.tier_up,
        s.path_ends,
        s.timeout_seconds
    );
    let _ = writeln!(
        o,
        "- compared: medians of {}; {}",
        metric.name(),
        instructions_line(results)
    );
    let _ = writeln!(
        o,
        "- `*` marks loop-heavy programs (the suite's manifest); the goals are read off them\n"
    );

    let _ = writeln!(o, "## Failures\n");
    let failed = failures(results);
    if failed.is_empty() {
        let _ = writeln!(
            o,
            "None: every mode printed exactly what `none` printed and exited as it did, on every program.\n"
        );
    } else {
        for line in failed {
            let _ = writeln!(o, "- {line}");
        }
        o.push('\n');
    }

    let goal_text = goal_lines(&goals(results), metric);
    if !goal_text.is_empty() {
        let _ = writeln!(o, "## Goals\n");
        for line in goal_text {
            let _ = writeln!(o, "- {line}");
        }
        o.push('\n');
    }
    let order = order_contradictions(results);
    if !order.is_empty() {
        let _ = writeln!(
            o,
            "**Time contradicts instructions** (geometric means over the loop-heavy programs, \
             relative to `none`): the build's code layout or the machine, not the modes' work, \
             decided these orders; `vmrun bench --builds` measures the build's part.\n"
        );
        for note in order {
            let _ = writeln!(o, "- {note}");
        }
        o.push('\n');
    }
    let contradicted = contradicted_marks(results);
    if !contradicted.is_empty() {
        let _ = writeln!(
            o,
            "Loop-heavy marks of the manifest that the `bl` profiles contradict: {}.\n",
            contradicted.join("; ")
        );
    }

    for f in &figs {
        let _ = writeln!(o, "## {}\n", f.title);
        if charts.iter().any(|c| c == f.file) {
            let _ = writeln!(o, "![{}]({})\n", f.title, f.file);
        }
        let table = if f.file == "overhead-vs-none.svg" {
            overhead_table(results, f)
        } else {
            figure_table(f, results)
        };
        o.push_str(&table.markdown());
        o.push('\n');
    }

    o.push_str(&static_paths_section(results));
    o.push_str(&resources_section(results));
    o.push_str(&profiles_section(results));
    o.push_str(&precision_section(results));
    o.push_str(&interprocedural_section(results));
    o
}

/// Melski & Reps against the others: per program, the distinct paths each of `bl`, the `ol`
/// modes and the `ipp` modes counted, and each `ipp` and `ol` mode's cost over `bl` (the
/// table's metric); empty without `ipp` modes.
fn interprocedural_section(results: &BenchResults) -> String {
    let modes = &results.settings.modes;
    let ipp: Vec<&String> = modes.iter().filter(|m| m.starts_with("ipp:")).collect();
    let mut o = String::new();
    if ipp.is_empty() {
        return o;
    }
    let others: Vec<&String> = modes
        .iter()
        .filter(|m| *m == "bl" || m.starts_with("ol:"))
        .collect();
    let metric = results.metric();
    let _ = writeln!(
        o,
        "\n## Interprocedural paths: distinct paths and cost\n\n\
         Melski & Reps' paths cross calls and returns (`ipp:context` with their calling \
         context, `ipp:piecewise` without), Tallam et al.'s overlapping paths extend Ball-Larus \
         paths across back edges and calls (`ol:K`): the distinct paths each profile holds, and \
         each mode's {} over `bl`'s (median over the programs).\n",
        metric.name()
    );
    let mut header = vec!["program".to_string()];
    header.extend(others.iter().chain(&ipp).map(|m| format!("{m} distinct")));
    header.extend(
        others
            .iter()
            .chain(&ipp)
            .filter(|m| **m != "bl")
            .map(|m| format!("{m} / bl")),
    );
    let mut t = Table::new(header);
    let costly: Vec<&&String> = others.iter().chain(&ipp).filter(|m| **m != "bl").collect();
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); costly.len()];
    for p in &results.programs {
        let mut row = vec![program_label(p)];
        for m in others.iter().chain(&ipp) {
            let s = p.cell(m).and_then(|c| c.profile);
            row.push(count(s.map(|s| s.distinct_paths)));
        }
        for (i, m) in costly.iter().enumerate() {
            let r = p.ratio(m, "bl", metric);
            if let Some(r) = r {
                ratios[i].push(r);
            }
            row.push(fixed(r, 3));
        }
        t.row(row);
    }
    let mut last = vec!["median".to_string()];
    last.extend(vec![String::new(); others.len() + ipp.len()]);
    for r in &ratios {
        last.push(if r.is_empty() {
            "-".to_string()
        } else {
            format!("{:.3}", super::results::median(r))
        });
    }
    t.row(last);
    o.push_str(&t.markdown());
    o
}

/// Tallam et al.'s Table 8 for our programs: from each `ol:K` profile, the definite and
/// potential flows of the interesting paths (two iterations of a loop, a path across a call)
/// against the real flow, bounded from the profile's Ball-Larus counts and from its OL-K
/// counts; empty without `ol` modes.
fn precision_section(results: &BenchResults) -> String {
    let ol: Vec<&String> = results
        .settings
        .modes
        .iter()
        .filter(|m| m.starts_with("ol:"))
        .collect();
    let mut o = String::new();
    if ol.is_empty() {
        return o;
    }
    let _ = writeln!(
        o,
        "\n## Overlapping paths: precision of the flow estimates\n\n\
         From each `ol:K` profile (Tallam et al.'s Table 8): the real flow of the interesting \
         paths (two consecutive iterations of a loop, and a path into and out of each call), \
         which the counts give exactly, and how far below and above it the definite and \
         potential flows are, bounded from the Ball-Larus counts the profile holds and from its \
         OL-K counts. The paper: -38% / +138% from BL, -4% / +8% from OL at a third of the \
         maximum overlap. Means over the programs with flow.\n"
    );
    let mut header = vec!["program".to_string()];
    for m in &ol {
        header.push(format!("{m} real flow"));
        header.push(format!("{m} from BL"));
        header.push(format!("{m} from OL"));
    }
    let pair = |f: &OlFlows, b: [u64; 2]| match (f.off(b[0]), f.off(b[1])) {
        (Some(d), Some(p)) => format!("{d:+.1}% / {p:+.1}%"),
        _ => "-".to_string(),
    };
    let mut t = Table::new(header);
    // Per mode: sums of the percentages and how many programs.
    let mut sums = vec![([0.0f64; 4], 0u32); ol.len()];
    for p in &results.programs {
        let mut row = vec![program_label(p)];
        for (i, m) in ol.iter().enumerate() {
            let flows = p.cell(m).and_then(|c| c.profile).and_then(|s| s.flows);
            match flows {
                Some(f) if f.real > 0 => {
                    row.push(count(Some(f.real)));
                    row.push(pair(&f, f.from_bl));
                    row.push(pair(&f, f.from_ol));
                    let offs = [f.from_bl[0], f.from_bl[1], f.from_ol[0], f.from_ol[1]];
                    for (s, x) in sums[i].0.iter_mut().zip(offs) {
                        *s += f.off(x).unwrap_or(0.0);
                    }
                    sums[i].1 += 1;
                }
                _ => row.extend(["-".to_string(), "-".into(), "-".into()]),
            }
        }
        t.row(row);
    }
    let mut mean = vec!["mean".to_string()];
    for (s, n) in &sums {
        let n = f64::from((*n).max(1));
        mean.push(String::new());
        mean.push(format!("{:+.1}% / {:+.1}%", s[0] / n, s[1] / n));
        mean.push(format!("{:+.1}% / {:+.1}%", s[2] / n, s[3] / n));
    }
    t.row(mean);
    o.push_str(&t.markdown());
    o
}

/// Roy & Srikant's Table 4 for our programs: static paths per function with loops.
fn static_paths_section(results: &BenchResults) -> String {
    let mut o = String::new();
    let ks = results
        .programs
        .iter()
        .find_map(|p| p.static_paths.as_ref().map(|s| s.k.clone()));
    let Some(ks) = ks else {
        return o;
    };
    let _ = writeln!(
        o,
        "## Roy & Srikant Table 4: static paths per function\n\n\
         Ball-Larus paths (K = 1) and k-iteration paths for K = 2..{}, for the functions whose \
         count grows with K (those with innermost loops); `*` marks a count for which the \
         numbering profiled a loop acyclically or took extra cuts (`vmrun paths` lists them; \
         Roy & Srikant gave up above 60,000 paths instead).\n",
        ks.last().copied().unwrap_or(1)
    );
    let mut t = Table::new(
        ["program", "function", "line"]
            .into_iter()
            .map(str::to_string)
            .chain(ks.iter().map(|k| {
                if *k == 1 {
                    "BL".into()
                } else {
                    format!("k={k}")
                }
            })),
    );
    for p in &results.programs {
        let Some(sp) = &p.static_paths else { continue };
        for f in &sp.functions {
            if f.paths.iter().all(|&n| n == f.paths[0]) {
                continue;
            }
            let mut row = vec![p.name.clone(), f.name.clone(), f.line.to_string()];
            row.extend(f.paths.iter().zip(&f.fallback).map(|(n, fb)| {
                let mark = if *fb { "*" } else { "" };
                format!("{}{mark}", count(Some(*n)))
            }));
            t.row(row);
        }
    }
    o.push_str(&t.markdown());
    o.push('\n');
    o
}

/// Wall and CPU time, peak memory and tier-up time per program and mode.
fn resources_section(results: &BenchResults) -> String {
    let modes = &results.settings.modes;
    let mut o = String::new();
    let _ = writeln!(o, "## Times (seconds, median of the runs: wall / CPU)\n");
    let mut times = Table::new(std::iter::once("program".to_string()).chain(modes.iter().cloned()));
    for p in &results.programs {
        let mut row = vec![program_label(p)];
        for mode in modes {
            let median = p.cell(mode).filter(|c| c.usable()).and_then(|c| c.median);
            row.push(match median {
                Some(m) => format!("{:.3} / {:.3}", m.wall_seconds, m.cpu_seconds),
                None => "-".into(),
            });
        }
        times.row(row);
    }
    o.push_str(&times.markdown());
    let _ = writeln!(o, "\n## Peak memory (RSS, MiB, median of the runs)\n");
    let mut mem = Table::new(std::iter::once("program".to_string()).chain(modes.iter().cloned()));
    let mut tier = Table::new(std::iter::once("program".to_string()).chain(modes.iter().cloned()));
    for p in &results.programs {
        let mut m_row = vec![program_label(p)];
        let mut t_row = vec![program_label(p)];
        for mode in modes {
            let median = p.cell(mode).and_then(|c| c.median);
            m_row.push(fixed(median.map(|s| s.max_rss_kib as f64 / 1024.0), 1));
            t_row.push(match median {
                Some(s) if s.tier_ups > 0 => {
                    format!("{:.2} ({})", s.tier_up_seconds * 1e3, s.tier_ups)
                }
                Some(_) => "0".into(),
                None => "-".into(),
            });
        }
        mem.row(m_row);
        tier.row(t_row);
    }
    o.push_str(&mem.markdown());
    let _ = writeln!(o, "\n## Tier-up time (ms, and functions tiered up)\n");
    o.push_str(&tier.markdown());
    o.push('\n');
    o
}

/// What the profiles say about each program: how loop-heavy it really is, and how many paths.
fn profiles_section(results: &BenchResults) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "## Profiles\n\n\
         From the `bl` profile of each program: paths completed, distinct paths (the entries of \
         `bl`'s hash table), and the share of paths that end at a loop header (how much of the \
         run iterates loops: a program is loop-heavy when at least half do, and `!` marks a \
         manifest mark this contradicts); from `kbl:K`, the k-SF and k-IPF sizes.\n"
    );
    let kbl: Vec<&String> = results
        .settings
        .modes
        .iter()
        .filter(|m| m.starts_with("kbl:"))
        .collect();
    let mut header = vec![
        "program".to_string(),
        "loop-heavy".into(),
        "loop path share".into(),
        "paths".into(),
        "distinct".into(),
    ];
    for m in &kbl {
        header.push(format!("{m} k-SF nodes"));
        header.push(format!("{m} k-IPF nodes"));
    }
    let mut t = Table::new(header);
    for p in &results.programs {
        let bl = p.cell("bl").and_then(|c| c.profile);
        let measured = bl.map(|s| s.loop_path_share >= LOOP_HEAVY_SHARE);
        let mark = match p.loop_heavy {
            Some(true) => "yes",
            Some(false) => "no",
            None => "?",
        };
        let flag = match (p.loop_heavy, measured) {
            (Some(a), Some(b)) if a != b => " !",
            _ => "",
        };
        let mut row = vec![
            p.name.clone(),
            format!("{mark}{flag}"),
            fixed(bl.map(|s| s.loop_path_share), 3),
            count(bl.map(|s| s.paths_executed)),
            count(bl.map(|s| s.distinct_paths)),
        ];
        for m in &kbl {
            let s = p.cell(m).and_then(|c| c.profile);
            row.push(count(s.and_then(|s| s.ksf_nodes)));
            row.push(count(s.and_then(|s| s.ipf_nodes)));
        }
        t.row(row);
    }
    o.push_str(&t.markdown());
    o
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::example;
    use super::super::results::ProfileStats;
    use super::*;

    #[test]
    fn the_terminal_summary_has_the_overheads_goals_and_failures() {
        let text = terminal(&example());
        assert!(text.contains("2 programs x 3 modes"), "{text}");
        assert!(text.contains("loops *"), "loop-heavy marked: {text}");
        assert!(text.contains("bl / none <= 1.15: median"), "{text}");
        assert!(text.contains("over 1 loop-heavy programs"), "{text}");
        assert!(
            text.contains("calls kbl:8: mismatch: exit status 70"),
            "{text}"
        );
    }

    #[test]
    fn the_precision_section_reads_the_ol_flows() {
        let mut results = example();
        assert!(precision_section(&results).is_empty(), "no ol mode");
        results.settings.modes.push("ol:2".into());
        let mut ol = super::super::results::tests::cell("ol:2", &[1.0]);
        ol.profile = Some(ProfileStats {
            flows: Some(OlFlows {
                real: 200,
                from_bl: [100, 400],
                from_ol: [190, 210],
            }),
            ..ProfileStats::default()
        });
        results.programs[0].cells.push(ol);
        let text = precision_section(&results);
        assert!(
            text.contains("| ol:2 real flow | ol:2 from BL | ol:2 from OL |"),
            "{text}"
        );
        assert!(
            text.contains("| 200 | -50.0% / +100.0% | -5.0% / +5.0% |"),
            "{text}"
        );
        // The other program has no ol cell: left out of the means.
        assert!(
            text.contains("| mean |  | -50.0% / +100.0% | -5.0% / +5.0% |"),
            "{text}"
        );
        assert!(markdown(&results, &[]).contains("Overlapping paths: precision"));
    }

    #[test]
    fn manifest_marks_the_profiles_contradict_are_flagged() {
        let mut results = example();
        assert!(
            contradicted_marks(&results).is_empty(),
            "no bl profile, nothing to check"
        );
        let stats = |share: f64| ProfileStats {
            loop_path_share: share,
            ..ProfileStats::default()
        };
        results.programs[0].cells[1].profile = Some(stats(0.3));
        results.programs[1].cells[1].profile = Some(stats(0.4));
        assert_eq!(
            contradicted_marks(&results),
            ["loops (marked loop-heavy, but 30% of its paths end at a loop header)"],
            "calls is marked not loop-heavy and 40% agrees"
        );
        assert!(terminal(&results).contains("Loop-heavy marks the bl profiles contradict"));
        assert!(markdown(&results, &[]).contains("| loops | yes ! | 0.300 |"));
    }

    #[test]
    fn the_report_links_its_charts_and_says_where_it_ran() {
        let results = example();
        let md = markdown(&results, &["fig08-kbl-vs-bl.svg".to_string()]);
        assert!(md.contains("- commit: 0123abcd;"), "{md}");
        assert!(md.contains("![k-BLPP Figure 8"), "{md}");
        assert!(!md.contains("![k-BLPP Figure 9"), "chart not written: {md}");
        assert!(md.contains("## Roy & Srikant Table 4"), "{md}");
        assert!(md.contains("| loops | main | 3 | 10 | 25 |"), "{md}");
        assert!(
            md.contains("| loops * | 1.000 / 0.900 | 1.150 / 1.035 |"),
            "{md}"
        );
    }
    #[test]
    fn a_time_order_against_the_instruction_order_is_noted() {
        let mut results = example();
        assert!(
            order_contradictions(&results).is_empty(),
            "no instructions counted, nothing to compare"
        );
        // loops: bl takes 1.15 of none's time, kbl:8 1.25; in instructions kbl:8 does less.
        for (cell, count) in results.programs[0].cells.iter_mut().zip([100, 150, 140]) {
            cell.median.as_mut().unwrap().instructions = Some(count);
        }
        let notes = order_contradictions(&results);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("`bl` ran in less time than `kbl:8`"),
            "{notes:?}"
        );
        assert!(markdown(&results, &[]).contains("**Time contradicts instructions**"));
        assert!(terminal(&results).contains("Time contradicts instructions: `bl`"));
        // The same order in both: nothing to say.
        results.programs[0].cells[2]
            .median
            .as_mut()
            .unwrap()
            .instructions = Some(160);
        assert!(order_contradictions(&results).is_empty());
    }

    #[test]
    fn a_time_ratio_comes_with_its_range_over_the_rounds() {
        let results = example();
        let md = markdown(&results, &[]);
        // loops: bl's rounds against none's: 1.2/1.0, 1.1/1.1, 1.15/0.9.
        assert!(md.contains("1.150 (1.000-1.278)"), "{md}");
    }
}
