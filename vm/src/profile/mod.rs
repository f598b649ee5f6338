//! Path profiles: the data model of `--profile-out` (JSON, `docs/profile-format.md`) and of the
//! human report ([`report`]) and of the annotated source ([`annotate`]).
//!
//! A [`Profile`] is what one run measured: run-wide settings (`mode`, `k`, `path_ends`,
//! `tier_up`), whether the run finished (`complete`), and per function its blocks with their
//! source lines, its number of static paths and the paths it executed with their counts. A path
//! is written as in the design note `cfg-format.md` ("How a path is written"): its block
//! sequence and `end`, the header block where it was cut, or `null` when it reached the exit.
//!
//! **Determinism** (issue 4, item 5): the same program and options must give a byte-identical
//! file, so every order is fixed here, never left to a hash table: functions in program order
//! (their index in the bytecode), blocks by id, paths by count (descending) then id
//! (ascending); members are written in declaration order by [`Profile::to_json`], the only
//! writer (it lays the text out by hand, one block or path per line, and is tested to read
//! back through the `serde` derive to an equal profile). [`Profile::check`] verifies these orders and the references between fields, and
//! [`Profile::from_json`] applies it, so a profile read back is one this module could have
//! written.
//!
//! **Later modes.** `kiter` (k-iteration paths) fills the same `paths` with k-iteration paths
//! (ids from the k-iteration numbering, `k` > 1): the `(blocks, end)` shape already covers
//! them.
//!
//! **`kbl`** (k-BLPP, [`kbl`]) keeps the BL `paths` (the first level of the k-IPF) and adds per
//! function two optional members, written only when present so that every other mode's file is
//! unchanged: `ipf`, every k-IPF node as `{"ids": [...], "count": c}` ([`IpfEntry`]: the BL ids
//! from its root, lexicographic order), and `stats` ([`KblFunctionStats`]: hash-table
//! operations, k-SF nodes, k-IPF nodes, average degree of internal nodes, average leaf depth,
//! k-SF node bytes: the k-BLPP paper's Figures 9 and 11-14). [`Profile::check`] validates them.

pub mod annotate;
pub mod edges;
pub mod interproc;
pub mod kbl;
pub mod overlap;
pub mod report;
pub mod saved;
pub mod text;

use profiler::{BallLarus, Numbering, Path, PathEnds};
use serde::{Deserialize, Serialize};

use crate::tier::cfg_build::FunctionCfg;

pub use crate::modes::table::Mode;
pub use interproc::InterprocSection;
pub use kbl::{IpfEntry, KblFunctionStats};
pub use overlap::OverlapSection;

/// The value of the `format` field.
pub const FORMAT: &str = "vmrun-path-profile";
/// The value of the `version` field (bumped when a field changes meaning or is removed).
pub const VERSION: u32 = 2;

/// `PathEnds` as a JSON string (`"header"`, `"backedge"`), via its `Display`/`FromStr`.
mod path_ends_name {
    use profiler::PathEnds;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &PathEnds, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(p)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathEnds, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One run's profile. Field order is the JSON order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] when written by this module.
    pub version: u32,
    /// The program's file name as given on the command line.
    pub program: String,
    /// The profiling mode.
    pub mode: Mode,
    /// Iterations per path: 1 for Ball-Larus paths (every mode of this version).
    pub k: u32,
    /// The path-end strategy.
    #[serde(with = "path_ends_name")]
    pub path_ends: PathEnds,
    /// The `--tier-up` threshold.
    pub tier_up: u64,
    /// False when the run ended by a trap, a limit or a signal: the counts are those of the
    /// paths completed until then.
    pub complete: bool,
    /// Why the run stopped early (only when `complete` is false): the first line of its
    /// runtime error, which names the limit and the option that raises it
    /// (`p.c:7:3: runtime error: step limit reached: ... (see --max-steps)`), or of its
    /// interrupt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The program's source files as run, each with a hash of its text, so that `vmrun report
    /// --annotate` annotates them only when they are unchanged (empty when not recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<SourceFile>,
    /// The preprocessor options of the run (`-D`, `-U`, `-I`, each as one argument:
    /// `-DN=3`), to compile the sources again the same way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preprocess: Vec<String>,
    /// Every function of the program, in program order.
    pub functions: Vec<FunctionProfile>,
    /// `ipp:context` and `ipp:piecewise` only: the interprocedural paths ([`interproc`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interprocedural: Option<InterprocSection>,
}

/// The hash a profile records of a source text (its `sources`): FNV-1a over the bytes, 64
/// bits, as 16 lowercase hex digits. A check that the file is the one that ran, not a
/// defence against forgery.
pub fn source_hash(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// A source file of the program and the hash of its text ([`source_hash`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceFile {
    /// Its name as given on the command line.
    pub file: String,
    /// The FNV-1a hash (64 bits, 16 hex digits) of its bytes.
    pub fnv1a64: String,
}

/// One function's part of a [`Profile`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionProfile {
    /// Its name in the source.
    pub name: String,
    /// The source file it is defined in, as named on the command line; its `line` and its
    /// blocks' `lines` are lines of that file. Empty in profiles written before programs could
    /// have several files (read as the profile's `program`).
    #[serde(default)]
    pub file: String,
    /// The line of its definition.
    pub line: u32,
    /// The id of its entry block.
    pub entry: u32,
    /// The id of its exit block (the virtual block joining every return and `exit`).
    pub exit: u32,
    /// Every block of its CFG, by id.
    pub blocks: Vec<BlockLines>,
    /// The number of paths its numbering has (ids are `0..static_paths`).
    pub static_paths: u64,
    /// The paths executed at least once, by count (descending) then id.
    pub paths: Vec<PathCount>,
    /// The value of its tier-0 counter (invocations plus loop-header arrivals) when it was
    /// tiered up, or `None` if it never was (then `paths` is empty).
    pub tiered_up_at: Option<u64>,
    /// `edge` only, for a function that tiered up: how many times its instrumented code took
    /// each CFG edge, one count per successor in the order of `blocks` and their `succs`
    /// (block 0's edges first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge_counts: Option<Vec<u64>>,
    /// `kbl` only: every node of its k-IPF, in lexicographic order of the id sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipf: Option<Vec<IpfEntry>>,
    /// `kbl` only: the statistics of its k-SF and k-IPF.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "stats")]
    pub kbl_stats: Option<KblFunctionStats>,
    /// Its calls through function pointers: per call site and callee, how many times
    /// (every profiling mode counts them), by site then callee.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indirect_calls: Vec<IndirectCallCount>,
    /// `ol` only: the bounds on paths across its loops' back edges and its calls, and its
    /// counts of paths across calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlap: Option<OverlapSection>,
}

/// How many times one call site called one function through a pointer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndirectCallCount {
    /// The call's source line.
    pub line: u32,
    /// The call's source column.
    pub col: u32,
    /// The function called.
    pub callee: String,
    /// How many times.
    pub count: u64,
}

/// A block, its source lines and its successors in the CFG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockLines {
    /// The block id (its index in [`FunctionProfile::blocks`]).
    pub id: u32,
    /// The first and last source line of its instructions, `None` for the virtual entry and
    /// exit blocks.
    pub lines: Option<[u32; 2]>,
    /// The ids of its successors, one per CFG edge in the CFG's order: with them a profile
    /// read back carries its CFG, against which [`Profile::check`] verifies every path.
    pub succs: Vec<u32>,
}

/// One executed path and its count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathCount {
    /// Its id in the function's numbering.
    pub id: u64,
    /// How many times it was completed.
    pub count: u64,
    /// Its block sequence.
    pub blocks: Vec<u32>,
    /// The header block where it was cut, or `None` if it reached the exit (the exit is then
    /// the last of `blocks`).
    pub end: Option<u32>,
    /// `ol` only: for a path cut by a back edge, the blocks run after it up to where its
    /// overlap stops, from the header `end` on (Tallam et al.'s overlapping path); empty for
    /// every other path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overlap: Vec<u32>,
}

impl FunctionProfile {
    /// A function's profile from its CFG, its number of static paths, when it tiered up, and
    /// its counted paths `(id, count, path)` in any order (zero counts are dropped).
    pub fn new(
        name: &str,
        line: u32,
        fc: &FunctionCfg,
        static_paths: u64,
        tiered_up_at: Option<u64>,
        counted: impl IntoIterator<Item = (u64, u64, Path)>,
    ) -> FunctionProfile {
        let cfg = fc.cfg();
        let blocks = fc
            .blocks()
            .map(|(b, info)| BlockLines {
                id: b.as_u32(),
                lines: info.lines,
                succs: cfg.successors(b).iter().map(|s| s.as_u32()).collect(),
            })
            .collect();
        let mut paths: Vec<PathCount> = counted
            .into_iter()
            .filter(|&(_, count, _)| count > 0)
            .map(|(id, count, path)| PathCount {
                id,
                count,
                blocks: path.nodes.iter().map(|b| b.as_u32()).collect(),
                end: path.end.map(|b| b.as_u32()),
                overlap: Vec::new(),
            })
            .collect();
        sort_paths(&mut paths);
        FunctionProfile {
            name: name.to_string(),
            file: String::new(),
            line,
            entry: cfg.entry().as_u32(),
            exit: cfg.exit().as_u32(),
            blocks,
            static_paths,
            paths,
            tiered_up_at,
            edge_counts: None,
            ipf: None,
            kbl_stats: None,
            indirect_calls: Vec::new(),
            overlap: None,
        }
    }

    /// A tiered-up function's profile from what the `bl` sink counted: `(id, count)` pairs in
    /// `bl`'s numbering (the one its instrumented code was generated from), regenerated to
    /// paths. An id outside the numbering is an error naming it.
    pub fn from_ids(
        name: &str,
        line: u32,
        fc: &FunctionCfg,
        bl: &BallLarus,
        tiered_up_at: u64,
        ids: impl IntoIterator<Item = (u64, u64)>,
    ) -> Result<FunctionProfile, String> {
        let mut counted = Vec::new();
        for (id, count) in ids {
            let path = bl.regenerate(fc.cfg(), id).ok_or_else(|| {
                format!(
                    "function {name}: path id {id} is not below its {} static paths",
                    bl.num_paths()
                )
            })?;
            counted.push((id, count, path));
        }
        Ok(FunctionProfile::new(
            name,
            line,
            fc,
            bl.num_paths(),
            Some(tiered_up_at),
            counted,
        ))
    }

    /// The profile of a function that never tiered up: its blocks, no paths, and the number
    /// of static paths of its canonical numbering under `path_ends` (what `--tier-up 0` would
    /// have used).
    pub fn not_tiered(
        name: &str,
        line: u32,
        fc: &FunctionCfg,
        path_ends: PathEnds,
    ) -> FunctionProfile {
        // Without a limit the numbering always succeeds (overflow takes extra cuts instead).
        let static_paths = BallLarus::new(fc.cfg(), path_ends, Numbering::Canonical, u64::MAX)
            .map_or(0, |bl| bl.num_paths());
        FunctionProfile::new(name, line, fc, static_paths, None, Vec::new())
    }

    /// Why `blocks` followed by `end` is not a walk along this function's CFG edges (the
    /// first missing edge), or `None` if it is one. Blocks must exist.
    pub fn not_a_path(&self, blocks: &[u32], end: Option<u32>) -> Option<String> {
        let walk: Vec<u32> = blocks.iter().copied().chain(end).collect();
        walk.windows(2).find_map(|w| {
            let succs = &self.blocks.get(w[0] as usize)?.succs;
            (!succs.contains(&w[1])).then(|| format!("no edge {} -> {}", w[0], w[1]))
        })
    }

    /// The sum of the path counts.
    pub fn total(&self) -> u64 {
        self.paths
            .iter()
            .fold(0u64, |acc, p| acc.saturating_add(p.count))
    }

    /// The source lines of block `id`, if it exists and has any.
    pub fn lines(&self, id: u32) -> Option<[u32; 2]> {
        self.blocks.get(id as usize).and_then(|b| b.lines)
    }

    /// How many times each block ran, by block id, from the counted paths: each path's count
    /// times the block's occurrences on it (exact for Ball-Larus paths; k-iteration paths
    /// overlap).
    pub fn block_runs(&self) -> Vec<u64> {
        let mut runs = vec![0u64; self.blocks.len()];
        for p in &self.paths {
            for &b in &p.blocks {
                if let Some(r) = runs.get_mut(b as usize) {
                    *r = r.saturating_add(p.count);
                }
            }
        }
        runs
    }
}

/// Checks the `format` and `version` members of one of `vmrun`'s JSON documents (profile,
/// run statistics, benchmark results) against what its reader expects.
pub fn check_header(
    format: &str,
    version: u32,
    expected_format: &str,
    expected_version: u32,
) -> Result<(), String> {
    if format != expected_format {
        return Err(format!(
            "format is '{format}', expected '{expected_format}'"
        ));
    }
    if version != expected_version {
        return Err(format!(
            "version {version} is not supported (expected {expected_version})"
        ));
    }
    Ok(())
}

/// Sorts paths in the profile's order: count descending, then id ascending.
pub fn sort_paths(paths: &mut [PathCount]) {
    paths.sort_by(|a, b| b.count.cmp(&a.count).then(a.id.cmp(&b.id)));
}

impl Profile {
    /// A profile with the given settings and no functions yet.
    pub fn new(
        program: &str,
        mode: Mode,
        path_ends: PathEnds,
        tier_up: u64,
        complete: bool,
    ) -> Profile {
        Profile {
            format: FORMAT.to_string(),
            version: VERSION,
            program: program.to_string(),
            mode,
            k: 1,
            path_ends,
            tier_up,
            complete,
            reason: None,
            sources: Vec::new(),
            preprocess: Vec::new(),
            functions: Vec::new(),
            interprocedural: None,
        }
    }

    /// The JSON text: two-space indentation, one line per member down to the blocks and paths,
    /// and each block and each path on one line (`{"id": 2, "count": 6, ...}`); ends with a
    /// newline. This is the only writer (see the module docs on determinism); [`Self::from_json`]
    /// reads it back to an equal profile.
    pub fn to_json(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).expect("strings always serialize");
        let opt = |v: Option<u64>| v.map_or("null".to_string(), |v| v.to_string());
        let list = |xs: &[u32]| {
            let items: Vec<String> = xs.iter().map(u32::to_string).collect();
            format!("[{}]", items.join(", "))
        };
        let mut o = String::new();
        o.push_str("{\n");
        o.push_str(&format!("  \"format\": {},\n", q(&self.format)));
        o.push_str(&format!("  \"version\": {},\n", self.version));
        o.push_str(&format!("  \"program\": {},\n", q(&self.program)));
        o.push_str(&format!("  \"mode\": {},\n", q(self.mode.name())));
        o.push_str(&format!("  \"k\": {},\n", self.k));
        o.push_str(&format!(
            "  \"path_ends\": {},\n",
            q(&self.path_ends.to_string())
        ));
        o.push_str(&format!("  \"tier_up\": {},\n", self.tier_up));
        o.push_str(&format!("  \"complete\": {},\n", self.complete));
        if let Some(reason) = &self.reason {
            o.push_str(&format!("  \"reason\": {},\n", q(reason)));
        }
        if !self.sources.is_empty() {
            let files: Vec<String> = self
                .sources
                .iter()
                .map(|f| {
                    format!(
                        "{{\"file\": {}, \"fnv1a64\": {}}}",
                        q(&f.file),
                        q(&f.fnv1a64)
                    )
                })
                .collect();
            o.push_str(&format!("  \"sources\": [{}],\n", files.join(", ")));
        }
        if !self.preprocess.is_empty() {
            let args: Vec<String> = self.preprocess.iter().map(|a| q(a)).collect();
            o.push_str(&format!("  \"preprocess\": [{}],\n", args.join(", ")));
        }
        if self.functions.is_empty() {
            o.push_str("  \"functions\": []");
            self.write_interprocedural(&mut o);
            return o;
        }
        o.push_str("  \"functions\": [\n");
        for (i, f) in self.functions.iter().enumerate() {
            o.push_str("    {\n");
            o.push_str(&format!("      \"name\": {},\n", q(&f.name)));
            o.push_str(&format!("      \"file\": {},\n", q(&f.file)));
            o.push_str(&format!("      \"line\": {},\n", f.line));
            o.push_str(&format!("      \"entry\": {},\n", f.entry));
            o.push_str(&format!("      \"exit\": {},\n", f.exit));
            o.push_str("      \"blocks\": [");
            for (j, b) in f.blocks.iter().enumerate() {
                let lines = b.lines.map_or("null".to_string(), |l| list(&l));
                let sep = if j + 1 < f.blocks.len() { "," } else { "" };
                o.push_str(&format!(
                    "\n        {{\"id\": {}, \"lines\": {lines}, \"succs\": {}}}{sep}",
                    b.id,
                    list(&b.succs)
                ));
            }
            o.push_str(if f.blocks.is_empty() {
                "],\n"
            } else {
                "\n      ],\n"
            });
            o.push_str(&format!("      \"static_paths\": {},\n", f.static_paths));
            o.push_str("      \"paths\": [");
            for (j, p) in f.paths.iter().enumerate() {
                let sep = if j + 1 < f.paths.len() { "," } else { "" };
                let overlap = if p.overlap.is_empty() {
                    String::new()
                } else {
                    format!(", \"overlap\": {}", list(&p.overlap))
                };
                o.push_str(&format!(
                    "\n        {{\"id\": {}, \"count\": {}, \"blocks\": {}, \"end\": {}{overlap}}}{sep}",
                    p.id,
                    p.count,
                    list(&p.blocks),
                    opt(p.end.map(u64::from))
                ));
            }
            o.push_str(if f.paths.is_empty() {
                "],\n"
            } else {
                "\n      ],\n"
            });
            let after_indirect = f.ipf.is_some() || f.kbl_stats.is_some() || f.overlap.is_some();
            let after_edges = after_indirect || !f.indirect_calls.is_empty();
            let more = after_edges || f.edge_counts.is_some();
            o.push_str(&format!(
                "      \"tiered_up_at\": {}{}\n",
                opt(f.tiered_up_at),
                if more { "," } else { "" }
            ));
            if let Some(counts) = &f.edge_counts {
                let items: Vec<String> = counts.iter().map(u64::to_string).collect();
                o.push_str(&format!(
                    "      \"edge_counts\": [{}]{}\n",
                    items.join(", "),
                    if after_edges { "," } else { "" }
                ));
            }
            if !f.indirect_calls.is_empty() {
                o.push_str("      \"indirect_calls\": [");
                for (j, c) in f.indirect_calls.iter().enumerate() {
                    let sep = if j + 1 < f.indirect_calls.len() {
                        ","
                    } else {
                        ""
                    };
                    o.push_str(&format!(
                        "\n        {{\"line\": {}, \"col\": {}, \"callee\": {}, \"count\": {}}}{sep}",
                        c.line,
                        c.col,
                        q(&c.callee),
                        c.count
                    ));
                }
                o.push_str(if after_indirect {
                    "\n      ],\n"
                } else {
                    "\n      ]\n"
                });
            }
            kbl::write_json(&mut o, f);
            overlap::write_json(&mut o, f);
            o.push_str(if i + 1 < self.functions.len() {
                "    },\n"
            } else {
                "    }\n"
            });
        }
        o.push_str("  ]");
        self.write_interprocedural(&mut o);
        o
    }

    /// The end of the document: the `interprocedural` member if any, and the closing brace.
    fn write_interprocedural(&self, o: &mut String) {
        match &self.interprocedural {
            Some(section) => {
                o.push_str(",\n");
                interproc::write_json(o, section);
                o.push_str("}\n");
            }
            None => o.push_str("\n}\n"),
        }
    }

    /// Reads a profile and [checks](Profile::check) it.
    pub fn from_json(text: &str) -> Result<Profile, String> {
        let p: Profile = serde_json::from_str(text)
            .map_err(|e| format!("line {}:{}: {e}", e.line(), e.column()))?;
        p.check()?;
        Ok(p)
    }

    /// Checks what the format promises: the `format` and `version`, block ids `0..n` in order,
    /// entry and exit among them, path ids below `static_paths` and distinct, positive counts,
    /// paths in order, every block of a path and its `end` an existing block, a path that
    /// reached the exit ending with the exit block.
    pub fn check(&self) -> Result<(), String> {
        check_header(&self.format, self.version, FORMAT, VERSION)?;
        if self.complete && self.reason.is_some() {
            return Err("a complete profile gives a reason for stopping".to_string());
        }
        if let Some(f) = self
            .sources
            .iter()
            .find(|f| f.fnv1a64.len() != 16 || !f.fnv1a64.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return Err(format!("source {}: the hash is not 16 hex digits", f.file));
        }
        for f in &self.functions {
            let err = |what: String| Err(format!("function {}: {what}", f.name));
            let n = f.blocks.len() as u32;
            if let Some((i, b)) = f.blocks.iter().enumerate().find(|(i, b)| b.id != *i as u32) {
                return err(format!("block number {i} has id {}", b.id));
            }
            if let Some(b) = f.blocks.iter().find(|b| b.succs.iter().any(|&s| s >= n)) {
                return err(format!(
                    "block {} has a successor that does not exist",
                    b.id
                ));
            }
            if f.entry >= n || f.exit >= n {
                return err(format!(
                    "entry {} or exit {} is not one of its {n} blocks",
                    f.entry, f.exit
                ));
            }
            let mut ids: Vec<u64> = f.paths.iter().map(|p| p.id).collect();
            ids.sort_unstable();
            if ids.windows(2).any(|w| w[0] == w[1]) {
                return err("a path id appears twice".to_string());
            }
            for p in &f.paths {
                if p.id >= f.static_paths {
                    return err(format!(
                        "path {} is not below static_paths {}",
                        p.id, f.static_paths
                    ));
                }
                if p.count == 0 {
                    return err(format!("path {} has count 0", p.id));
                }
                if p.blocks.is_empty()
                    || p.blocks
                        .iter()
                        .chain(&p.end)
                        .chain(&p.overlap)
                        .any(|&b| b >= n)
                {
                    return err(format!("path {} names a block that does not exist", p.id));
                }
                if let Some(gap) = f.not_a_path(&p.blocks, p.end) {
                    return err(format!("path {} is not a path of the CFG: {gap}", p.id));
                }
                if p.end.is_none() && p.blocks.last() != Some(&f.exit) {
                    return err(format!(
                        "path {} has no end but does not reach the exit",
                        p.id
                    ));
                }
            }
            if f.paths
                .windows(2)
                .any(|w| (w[1].count, w[0].id) > (w[0].count, w[1].id))
            {
                return err("paths are not sorted by count, then id".to_string());
            }
            if let Some(counts) = &f.edge_counts {
                let edges: usize = f.blocks.iter().map(|b| b.succs.len()).sum();
                if counts.len() != edges {
                    return err(format!("{} edge counts for {edges} edges", counts.len()));
                }
                if self.mode != Mode::Edge || f.tiered_up_at.is_none() {
                    return err("edge counts outside mode edge or before tier-up".to_string());
                }
            }
            kbl::check(self, f).or_else(err)?;
            overlap::check(self, f).or_else(err)?;
        }
        if let Some(section) = &self.interprocedural {
            interproc::check(self, section)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_hash_is_fnv1a_64() {
        // The reference test vectors of FNV-1a (64 bits).
        assert_eq!(source_hash(""), "cbf29ce484222325");
        assert_eq!(source_hash("a"), "af63dc4c8601ec8c");
        assert_eq!(source_hash("foobar"), "85944171f73967e8");
    }
}
