//! `results.csv`: one row per program and mode, for spreadsheets and plotting scripts. The
//! columns are [`COLUMNS`] (documented in `docs/bench.md`): the medians, the ratios to `none`
//! and to `bl` of wall time, CPU time and instructions, the profile statistics, and the
//! program's static path counts. An empty field is a value that does not apply or was not
//! measured.

use super::results::{BenchResults, Cell, Metric, ProgramResult};

/// The header of `results.csv`, in order.
pub const COLUMNS: [&str; 42] = [
    "program",
    "family",
    "loop_heavy",
    "mode",
    "status",
    "runs",
    "wall_s",
    "cpu_s",
    "instructions",
    "wall_vs_none",
    "cpu_vs_none",
    "instructions_vs_none",
    "wall_vs_bl",
    "cpu_vs_bl",
    "instructions_vs_bl",
    "max_rss_kib",
    "tier_ups",
    "tier_up_s",
    "profile_run_s",
    "paths_executed",
    "distinct_paths",
    "loop_path_share",
    "hash_ops",
    "hash_ops_vs_bl",
    "slab_starts",
    "ksf_nodes",
    "ksf_bytes",
    "ipf_nodes",
    "ipf_bytes",
    "avg_internal_degree",
    "avg_leaf_depth",
    "real_flow",
    "bl_definite_flow",
    "bl_potential_flow",
    "ol_definite_flow",
    "ol_potential_flow",
    "static_paths_k1",
    "static_paths_k2",
    "static_paths_k3",
    "static_paths_k4",
    "static_paths_k5",
    "message",
];

/// The CSV text of `results`.
pub fn render(results: &BenchResults) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS).map_err(|e| e.to_string())?;
    for p in &results.programs {
        for cell in &p.cells {
            w.write_record(row(p, cell)).map_err(|e| e.to_string())?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

fn row(p: &ProgramResult, cell: &Cell) -> Vec<String> {
    let opt = |v: Option<String>| v.unwrap_or_default();
    let num = |v: Option<u64>| opt(v.map(|v| v.to_string()));
    let real = |v: Option<f64>| opt(v.filter(|v| v.is_finite()).map(|v| format!("{v:.6}")));
    let ratio = |base: &str, metric: Metric| real(p.ratio(&cell.mode, base, metric));
    let median = cell.median.filter(|_| cell.usable());
    let profile = cell.profile.as_ref();
    let flows = profile.and_then(|s| s.flows);
    let static_k = |i: usize| {
        num(p
            .static_paths
            .as_ref()
            .and_then(|s| s.total.get(i).copied()))
    };
    let bl_paths = p
        .cell("bl")
        .and_then(|c| c.profile.as_ref())
        .map(|s| s.paths_executed);
    let hash_vs_bl = profile
        .and_then(|s| s.hash_ops)
        .zip(bl_paths.filter(|&n| n > 0))
        .map(|(h, b)| h as f64 / b as f64);
    vec![
        p.name.clone(),
        opt(p.family.clone()),
        opt(p.loop_heavy.map(|b| b.to_string())),
        cell.mode.clone(),
        serde_json::to_value(cell.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        cell.runs.len().to_string(),
        real(median.map(|m| m.wall_seconds)),
        real(median.map(|m| m.cpu_seconds)),
        num(median.and_then(|m| m.instructions)),
        ratio("none", Metric::WallTime),
        ratio("none", Metric::CpuTime),
        ratio("none", Metric::Instructions),
        ratio("bl", Metric::WallTime),
        ratio("bl", Metric::CpuTime),
        ratio("bl", Metric::Instructions),
        num(median.map(|m| m.max_rss_kib)),
        num(median.map(|m| u64::from(m.tier_ups))),
        real(median.map(|m| m.tier_up_seconds)),
        real(cell.profile_run_seconds),
        num(profile.map(|s| s.paths_executed)),
        num(profile.map(|s| s.distinct_paths)),
        real(profile.map(|s| s.loop_path_share)),
        num(profile.and_then(|s| s.hash_ops)),
        real(hash_vs_bl),
        num(profile.and_then(|s| s.slab_starts)),
        num(profile.and_then(|s| s.ksf_nodes)),
        num(profile.and_then(|s| s.ksf_bytes)),
        num(profile.and_then(|s| s.ipf_nodes)),
        num(profile.and_then(|s| s.ipf_bytes)),
        real(profile.and_then(|s| s.avg_internal_degree)),
        real(profile.and_then(|s| s.avg_leaf_depth)),
        num(flows.map(|f| f.real)),
        num(flows.map(|f| f.from_bl[0])),
        num(flows.map(|f| f.from_bl[1])),
        num(flows.map(|f| f.from_ol[0])),
        num(flows.map(|f| f.from_ol[1])),
        static_k(0),
        static_k(1),
        static_k(2),
        static_k(3),
        static_k(4),
        opt(cell.message.clone().or_else(|| p.failure.clone())),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::example;
    use super::*;

    #[test]
    fn one_row_per_program_and_mode_with_the_documented_columns() {
        let results = example();
        let text = render(&results).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .unwrap()
            .iter()
            .map(str::to_string)
            .collect();
        assert_eq!(header, COLUMNS);
        let doc = include_str!("../../../../docs/bench.md");
        for column in COLUMNS {
            assert!(
                doc.contains(&format!("`{column}`")),
                "column {column} is not documented in docs/bench.md"
            );
        }
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 6, "2 programs x 3 modes");
        let col = |name: &str| COLUMNS.iter().position(|c| *c == name).unwrap();
        let loops_bl = &rows[1];
        assert_eq!(&loops_bl[col("program")], "loops");
        assert_eq!(&loops_bl[col("mode")], "bl");
        let ratio: f64 = loops_bl[col("wall_vs_none")].parse().unwrap();
        assert!((ratio - 1.15).abs() < 1e-6, "{ratio}");
        let kbl = &rows[2];
        assert_eq!(&kbl[col("ksf_nodes")], "40");
        assert_eq!(&kbl[col("static_paths_k2")], "25");
        let mismatch = &rows[5];
        assert_eq!(&mismatch[col("status")], "mismatch");
        assert_eq!(
            &mismatch[col("wall_vs_bl")],
            "",
            "no ratio for a failed cell"
        );
        assert!(mismatch[col("message")].contains("exit status 70"));
    }
}
