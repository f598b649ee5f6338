//! The numbers a benchmark reads off a run's profile (`--profile-out`): paths executed and
//! distinct, hash-table operations, and for `kbl` the k-SF and k-IPF sizes and the k-IPF's
//! shape over the whole program (the k-BLPP paper's Figures 9 and 11-14).
//!
//! The k-IPF's average internal degree and leaf depth are computed over all the program's
//! k-IPF nodes at once (not as a mean of the functions' averages, which would weigh a
//! function of three nodes like one of a million), from the `ipf` entries: they are written
//! in preorder, so an entry is internal exactly when the next entry of its function is one id
//! longer (its first child).

use vm::profile::{Mode, Profile};

use super::results::ProfileStats;

/// Bytes of one k-IPF node in memory.
pub fn ipf_node_bytes() -> u64 {
    std::mem::size_of::<profiler::kblpp::IpfNode>() as u64
}

/// The statistics of `profile`.
pub fn profile_stats(profile: &Profile) -> ProfileStats {
    let mut s = ProfileStats::default();
    let mut loop_paths = 0u64;
    for f in &profile.functions {
        if f.tiered_up_at.is_some() {
            s.functions_tiered += 1;
        }
        s.distinct_paths += f.paths.len() as u64;
        for p in &f.paths {
            s.paths_executed = s.paths_executed.saturating_add(p.count);
            if p.end.is_some() {
                loop_paths = loop_paths.saturating_add(p.count);
            }
        }
    }
    if s.paths_executed > 0 {
        s.loop_path_share = loop_paths as f64 / s.paths_executed as f64;
    }
    match profile.mode {
        Mode::Bl => s.hash_ops = Some(s.paths_executed),
        Mode::Kbl => add_kbl(profile, &mut s),
        _ => {}
    }
    s
}

/// The `kbl` members: sums of the functions' `stats`, and the shape of the whole k-IPF.
fn add_kbl(profile: &Profile, s: &mut ProfileStats) {
    let (mut hash_ops, mut slab_starts, mut ksf_nodes, mut ksf_bytes) = (0, 0, 0, 0);
    let (mut nodes, mut internal, mut children, mut leaves, mut leaf_depths) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    for f in &profile.functions {
        if let Some(st) = &f.kbl_stats {
            hash_ops += st.hash_ops;
            slab_starts += st.slab_starts;
            ksf_nodes += st.ksf_nodes;
            ksf_bytes += st.ksf_bytes;
        }
        let entries = f.ipf.as_deref().unwrap_or(&[]);
        for (i, e) in entries.iter().enumerate() {
            nodes += 1;
            if e.ids.len() > 1 {
                children += 1;
            }
            let has_child = entries
                .get(i + 1)
                .is_some_and(|next| next.ids.len() == e.ids.len() + 1);
            if has_child {
                internal += 1;
            } else {
                leaves += 1;
                leaf_depths += e.ids.len() as u64 - 1;
            }
        }
    }
    s.hash_ops = Some(hash_ops);
    s.slab_starts = Some(slab_starts);
    s.ksf_nodes = Some(ksf_nodes);
    s.ksf_bytes = Some(ksf_bytes);
    s.ipf_nodes = Some(nodes);
    s.ipf_bytes = Some(nodes * ipf_node_bytes());
    s.avg_internal_degree = Some(if internal > 0 {
        children as f64 / internal as f64
    } else {
        0.0
    });
    s.avg_leaf_depth = Some(if leaves > 0 {
        leaf_depths as f64 / leaves as f64
    } else {
        0.0
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use vm::{ProfileSettings, RunOptions};

    /// The profile of `source` under `mode`:`k`, every function instrumented from the start.
    fn profile_of(source: &str, mode: Mode, k: u32) -> Profile {
        let options = RunOptions {
            profile: ProfileSettings {
                mode,
                k,
                tier_up: 0,
                ..ProfileSettings::default()
            },
            ..RunOptions::default()
        };
        let mut out = Vec::new();
        let result = vm::run_source("t.c", source, &options, &mut out);
        assert_eq!(result.exit_status, 0, "{}", result.stderr);
        result.profile.expect("a profile")
    }

    /// A loop whose body alternates between two paths, called twice.
    const PROGRAM: &str = "#include <stdio.h>\n\
        int f(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i % 2) s += i; else s -= 1; } return s; }\n\
        int main(void) { printf(\"%d %d\\n\", f(10), f(7)); return 0; }\n";

    #[test]
    fn bl_counts_one_hash_operation_per_path() {
        let p = profile_of(PROGRAM, Mode::Bl, 1);
        let s = profile_stats(&p);
        // Loops are compiled with their test at the bottom, so per call of f(n): one entry path
        // to the header, n - 1 iterations back to it, and the last iteration on to the
        // return: f(10) and f(7) give 2 + 15 + 2 paths; main 1.
        assert_eq!(s.paths_executed, 2 + 15 + 2 + 1);
        assert_eq!(s.hash_ops, Some(s.paths_executed));
        assert_eq!(s.functions_tiered, 2);
        assert_eq!(
            s.distinct_paths,
            p.functions
                .iter()
                .map(|f| f.paths.len() as u64)
                .sum::<u64>()
        );
        // The entry paths and the iterations back to the header end at a header.
        let share = (2.0 + 15.0) / 20.0;
        assert!(
            (s.loop_path_share - share).abs() < 1e-12,
            "{}",
            s.loop_path_share
        );
        assert_eq!(s.ksf_nodes, None);
    }

    #[test]
    fn kbl_shape_over_the_whole_program_matches_each_function_when_alone() {
        let p = profile_of(PROGRAM, Mode::Kbl, 4);
        let s = profile_stats(&p);
        let f = p.functions.iter().find(|f| f.name == "f").unwrap();
        let fs = f.kbl_stats.unwrap();
        let main = p.functions.iter().find(|f| f.name == "main").unwrap();
        assert_eq!(
            main.ipf.as_ref().unwrap().len(),
            1,
            "main has one path, a lone root"
        );
        // The program's nodes are f's and main's single leaf at depth 0.
        assert_eq!(s.ipf_nodes, Some(fs.ipf_nodes + 1));
        assert_eq!(
            s.ksf_nodes,
            Some(fs.ksf_nodes + main.kbl_stats.unwrap().ksf_nodes)
        );
        let f_leaves = f.ipf.as_ref().unwrap().len() as f64 - internal_of(f) as f64;
        let leaf_depth = fs.avg_leaf_depth * f_leaves / (f_leaves + 1.0);
        assert!((s.avg_leaf_depth.unwrap() - leaf_depth).abs() < 1e-3);
        assert!((s.avg_internal_degree.unwrap() - fs.avg_internal_degree).abs() < 1e-3);
        assert_eq!(s.ipf_bytes, Some(s.ipf_nodes.unwrap() * ipf_node_bytes()));
        assert_eq!(
            s.paths_executed,
            profile_stats(&profile_of(PROGRAM, Mode::Bl, 1)).paths_executed
        );
    }

    /// Internal nodes of a function's k-IPF, by definition: entries that prefix another.
    fn internal_of(f: &vm::profile::FunctionProfile) -> usize {
        let entries = f.ipf.as_ref().unwrap();
        entries
            .iter()
            .filter(|e| {
                entries
                    .iter()
                    .any(|o| o.ids.len() == e.ids.len() + 1 && o.ids.starts_with(&e.ids))
            })
            .count()
    }
}
