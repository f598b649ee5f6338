//! The numbers a benchmark reads off a run's profile (`--profile-out`): paths executed and
//! distinct, hash-table operations, for `kbl` the k-SF and k-IPF sizes and the k-IPF's
//! shape over the whole program (the k-BLPP paper's Figures 9 and 11-14), for `ol` the flows
//! of its loops and call sites (Tallam et al.'s Table 8), for `ipp` its interprocedural paths
//! (the program's, counted in place of the functions').
//!
//! A `kbl:16` profile can hold millions of k-IPF entries (hundreds of megabytes of JSON), so
//! the file is not read into a [`vm::profile::Profile`]: it is streamed through a reader that keeps only
//! what the statistics need (`Summary`): per function whether it tiered up, its paths' counts
//! and ends, its `stats`, and its `ipf` entries folded into counts on the fly. Blocks and id
//! lists are skipped without being stored. (The benchmark's own memory matters: a process it
//! forks starts from its resident set.)
//!
//! The k-IPF's average internal degree and leaf depth are computed over all the program's
//! k-IPF nodes at once (not as a mean of the functions' averages, which would weigh a
//! function of three nodes like one of a million), from the `ipf` entries: they are written
//! in preorder, so an entry is internal exactly when the next entry of its function is one id
//! longer (its first child).

use std::fmt;
use std::io::BufReader;
use std::path::Path;

use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::Deserialize;
use vm::profile::{KblFunctionStats, Mode};

use super::results::{OlFlows, ProfileStats};

/// Bytes of one k-IPF node in memory.
pub fn ipf_node_bytes() -> u64 {
    std::mem::size_of::<profiler::kblpp::IpfNode>() as u64
}

/// What the statistics need of a profile.
#[derive(Deserialize)]
struct Summary {
    mode: Mode,
    functions: Vec<FunctionSummary>,
    #[serde(default)]
    interprocedural: Option<InterprocSummary>,
}

/// What the statistics need of the `ipp` modes' `interprocedural` member: its paths.
#[derive(Deserialize)]
struct InterprocSummary {
    paths: Vec<PathSummary>,
}

/// What the statistics need of a function.
#[derive(Deserialize)]
struct FunctionSummary {
    paths: Vec<PathSummary>,
    tiered_up_at: Option<u64>,
    #[serde(default)]
    ipf: Option<IpfShape>,
    #[serde(default)]
    stats: Option<KblFunctionStats>,
    #[serde(default)]
    overlap: Option<OverlapFlows>,
}

/// What the statistics need of an `ol` function's `overlap` member: its flows.
#[derive(Deserialize)]
struct OverlapFlows {
    loops: Vec<FlowSummary>,
    calls: Vec<FlowSummary>,
}

/// One loop's or call site's flows (`flow` for a loop, `calls` for a call site).
#[derive(Deserialize)]
struct FlowSummary {
    #[serde(default)]
    flow: u64,
    #[serde(default)]
    calls: u64,
    from_bl: [u64; 2],
    from_ol: [u64; 2],
}

/// What the statistics need of a path.
#[derive(Deserialize)]
struct PathSummary {
    count: u64,
    end: Option<u32>,
}

/// A function's `ipf` entries, counted as they are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct IpfShape {
    nodes: u64,
    internal: u64,
    /// Nodes below a root: the sum of the internal nodes' degrees.
    children: u64,
    leaves: u64,
    /// The sum of the leaves' depths.
    leaf_depths: u64,
}

impl IpfShape {
    /// Counts entry of `len` ids, given the length of the previous entry (internal exactly
    /// when this one is its first child).
    fn add(&mut self, previous: Option<u64>, len: u64) {
        self.nodes += 1;
        if len > 1 {
            self.children += 1;
        }
        if let Some(p) = previous {
            self.close(p, len == p + 1);
        }
    }

    /// Counts the previous entry, of `len` ids, as internal or as a leaf.
    fn close(&mut self, len: u64, internal: bool) {
        if internal {
            self.internal += 1;
        } else {
            self.leaves += 1;
            self.leaf_depths += len.saturating_sub(1);
        }
    }

    fn merge(&mut self, other: &IpfShape) {
        self.nodes += other.nodes;
        self.internal += other.internal;
        self.children += other.children;
        self.leaves += other.leaves;
        self.leaf_depths += other.leaf_depths;
    }
}

impl<'de> Deserialize<'de> for IpfShape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = IpfShape;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of k-IPF entries")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IpfShape, A::Error> {
                let mut shape = IpfShape::default();
                let mut previous = None;
                while let Some(entry) = seq.next_element::<EntryLength>()? {
                    shape.add(previous, entry.ids.0);
                    previous = Some(entry.ids.0);
                }
                if let Some(p) = previous {
                    shape.close(p, false);
                }
                Ok(shape)
            }
        }
        d.deserialize_seq(Entries)
    }
}

/// An `ipf` entry, of which only the number of ids is kept.
#[derive(Deserialize)]
struct EntryLength {
    ids: Length,
    #[allow(dead_code)]
    count: IgnoredAny,
}

/// The length of a JSON array, its elements skipped.
struct Length(u64);

impl<'de> Deserialize<'de> for Length {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = Length;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Length, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Length(n))
            }
        }
        d.deserialize_seq(Counter)
    }
}

/// The statistics of the profile in `path`, streamed from the file.
pub fn profile_file_stats(path: &Path) -> Result<ProfileStats, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let summary: Summary = serde_json::from_reader(BufReader::with_capacity(1 << 16, file))
        .map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))?;
    Ok(summary_stats(&summary))
}

/// The statistics of a profile's text (tests).
#[cfg(test)]
fn profile_text_stats(text: &str) -> ProfileStats {
    summary_stats(&serde_json::from_str(text).expect("a profile"))
}

fn summary_stats(profile: &Summary) -> ProfileStats {
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
    if let Some(ip) = &profile.interprocedural {
        s.distinct_paths += ip.paths.len() as u64;
        for p in &ip.paths {
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
        Mode::Bl | Mode::IppContext | Mode::IppPiecewise => s.hash_ops = Some(s.paths_executed),
        Mode::Kbl => add_kbl(profile, &mut s),
        Mode::Ol => s.flows = Some(ol_flows(profile)),
        _ => {}
    }
    s
}

/// The `ol` flows summed over every loop and call site.
fn ol_flows(profile: &Summary) -> OlFlows {
    let mut f = OlFlows::default();
    let sections = profile.functions.iter().filter_map(|f| f.overlap.as_ref());
    for x in sections.flat_map(|o| o.loops.iter().chain(&o.calls)) {
        f.real += x.flow + x.calls;
        for i in 0..2 {
            f.from_bl[i] += x.from_bl[i];
            f.from_ol[i] += x.from_ol[i];
        }
    }
    f
}

/// The `kbl` members: sums of the functions' `stats`, and the shape of the whole k-IPF.
fn add_kbl(profile: &Summary, s: &mut ProfileStats) {
    let (mut hash_ops, mut slab_starts, mut ksf_nodes, mut ksf_bytes) = (0, 0, 0, 0);
    let mut shape = IpfShape::default();
    for f in &profile.functions {
        if let Some(st) = &f.stats {
            hash_ops += st.hash_ops;
            slab_starts += st.slab_starts;
            ksf_nodes += st.ksf_nodes;
            ksf_bytes += st.ksf_bytes;
        }
        if let Some(ipf) = &f.ipf {
            shape.merge(ipf);
        }
    }
    let ratio = |a: u64, b: u64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
    s.hash_ops = Some(hash_ops);
    s.slab_starts = Some(slab_starts);
    s.ksf_nodes = Some(ksf_nodes);
    s.ksf_bytes = Some(ksf_bytes);
    s.ipf_nodes = Some(shape.nodes);
    s.ipf_bytes = Some(shape.nodes * ipf_node_bytes());
    s.avg_internal_degree = Some(ratio(shape.children, shape.internal));
    s.avg_leaf_depth = Some(ratio(shape.leaf_depths, shape.leaves));
}

#[cfg(test)]
mod tests {
    use super::*;
    use vm::profile::Profile;
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
        let s = profile_text_stats(&p.to_json());
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
    fn ol_flows_add_up_the_loops_and_the_calls() {
        let s = profile_text_stats(&profile_of(PROGRAM, Mode::Ol, 2).to_json());
        let f = s.flows.expect("ol flows");
        // f(10) and f(7) take their back edge 9 and 6 times between two iterations; the two
        // calls of f are crossed into and out of.
        assert_eq!(f.real, 9 + 6 + 2 * 2);
        for [definite, potential] in [f.from_bl, f.from_ol] {
            assert!(definite <= f.real && f.real <= potential, "{f:?}");
        }
        assert!(f.from_ol[1] - f.from_ol[0] <= f.from_bl[1] - f.from_bl[0]);
        assert_eq!(
            profile_text_stats(&profile_of(PROGRAM, Mode::Bl, 1).to_json()).flows,
            None
        );
    }

    #[test]
    fn kbl_shape_over_the_whole_program_matches_each_function_when_alone() {
        let p = profile_of(PROGRAM, Mode::Kbl, 4);
        let s = profile_text_stats(&p.to_json());
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
        let bl = profile_of(PROGRAM, Mode::Bl, 1).to_json();
        assert_eq!(s.paths_executed, profile_text_stats(&bl).paths_executed);
    }

    /// Nested loops, calls in loops and a branch per iteration: k-IPFs with many functions,
    /// depths and degrees.
    const RICH: &str = "#include <stdio.h>\n\
        int g(int x) { return x % 3 == 0 ? x / 3 : x + 1; }\n\
        int f(int n) { int s = 0; for (int i = 0; i < n; i++) { for (int j = 0; j < i % 5; j++) { if ((i ^ j) & 1) s += g(j); else s--; } } return s; }\n\
        int main(void) { int t = 0; for (int r = 1; r < 40; r++) t += f(r % 9 + 3); printf(\"%d\\n\", t); return 0; }\n";

    #[test]
    fn streamed_kipf_shape_equals_the_definition() {
        for k in 1..=5 {
            let p = profile_of(RICH, Mode::Kbl, k);
            let s = profile_text_stats(&p.to_json());
            let (mut nodes, mut internal, mut children, mut leaves, mut depths) = (0, 0, 0, 0, 0);
            for f in &p.functions {
                let entries = f.ipf.as_deref().unwrap_or(&[]);
                nodes += entries.len();
                children += entries.iter().filter(|e| e.ids.len() > 1).count();
                let inner = internal_of(f);
                internal += inner;
                for e in entries {
                    let has_child = entries
                        .iter()
                        .any(|o| o.ids.len() == e.ids.len() + 1 && o.ids.starts_with(&e.ids));
                    if !has_child {
                        leaves += 1;
                        depths += e.ids.len() - 1;
                    }
                }
            }
            assert_eq!(s.ipf_nodes, Some(nodes as u64), "k = {k}");
            let degree = if internal > 0 {
                children as f64 / internal as f64
            } else {
                0.0
            };
            let depth = if leaves > 0 {
                depths as f64 / leaves as f64
            } else {
                0.0
            };
            assert_eq!(s.avg_internal_degree, Some(degree), "k = {k}");
            assert_eq!(s.avg_leaf_depth, Some(depth), "k = {k}");
            if k >= 3 {
                assert!(internal > 3 && leaves > 3, "a rich forest at k = {k}");
            }
        }
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
