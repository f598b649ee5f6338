//! `vmrun explain`: the whole story of path profiling for each function of a program (or a
//! `.cfg` file), from source to hot paths, as text, Graphviz, SVG or one self-contained web
//! page.
//!
//! [`Explained`] is the data: per function, every step of [`profiler::explain`] (loops, the
//! DAG and its dummy edges, `numPaths`, edge values, the spanning tree and its chords, the path
//! ids; for K > 1 Roy & Srikant's Table 1), plus what only a program has: each block's source
//! lines, the instrumented bytecode `--profile=bl` runs, and, when the program was run
//! ([`ExplainRequest::run`]) or a profile given, each block's heat and the counted paths. The
//! renderers ([`text`], [`dot`], [`html`]) only format it.
//!
//! The run behind heat and the page's step-through is `--profile=bl --tier-up 0` under the
//! chosen path ends: every function instrumented before it runs, with canonical numbering, so
//! the ids counted are the ids of the table (with `--numbering smart` the table follows the
//! run's edge frequencies and the page says the recorded run numbered canonically).

pub mod dot;
pub mod html;
pub mod text;

use std::collections::HashMap;

use lang::bytecode::{FuncIdx, Program};
use profiler::explain::{explain, CfgExplanation, ExplainOptions};
use profiler::{Block, EdgeProfile, NumberingKind, PathEnds};
use serde::Serialize;

use crate::modes::bl::tierup::{numbering_weights, tier_up_bl};
use crate::modes::watch::WatchLine;
use crate::profile::{FunctionProfile, Profile};
use crate::tier::cfg_build::FunctionCfg;
use crate::{Mode, ProfileSettings, RunOptions, WatchOptions};

/// The largest K `explain` accepts (Roy & Srikant's tables grow with K).
pub const MAX_K: u32 = 8;

/// What to explain and how.
#[derive(Clone, Debug)]
pub struct ExplainRequest {
    /// Only this function (by name).
    pub func: Option<String>,
    /// K > 1: also the k-iteration numbering.
    pub k: u32,
    /// Where paths end.
    pub path_ends: PathEnds,
    /// Canonical or smart numbering (smart takes the run's or the profile's edge counts).
    pub numbering: NumberingKind,
    /// Run the program (`--profile=bl --tier-up 0`) for heat and counts.
    pub run: bool,
    /// Record this many events of the run for the step-through (0: none).
    pub steps: usize,
    /// The mode of the recorded run for the step-through (`bl`, `kiter`, `kbl`, `trace`).
    pub step_mode: Mode,
    /// A profile of the program to take heat and counts from instead of running it.
    pub profile: Option<Profile>,
    /// The most path ids listed per function.
    pub list_limit: u64,
    /// The preprocessor's options (`-D`, `-U`, `-I`).
    pub preprocess: lang::PreprocessOptions,
}

impl Default for ExplainRequest {
    fn default() -> Self {
        ExplainRequest {
            func: None,
            k: 1,
            path_ends: PathEnds::Header,
            numbering: NumberingKind::Canonical,
            run: false,
            steps: 0,
            step_mode: Mode::Bl,
            profile: None,
            list_limit: 64,
            preprocess: lang::PreprocessOptions::default(),
        }
    }
}

/// One function, explained.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionExplained {
    /// Its name.
    pub name: String,
    /// The line of its definition (`None` in a `.cfg` file).
    pub line: Option<u32>,
    /// The source file of its definition, for a program of several files (`None`: the
    /// explained file).
    pub file: Option<String>,
    /// Every step of path profiling on its CFG.
    pub cfg: CfgExplanation,
    /// Each block's first and last source line (`None`: virtual block, or a `.cfg` file).
    pub block_lines: Vec<Option<[u32; 2]>>,
    /// How many times each block ran, when the program was run or a profile given.
    pub heat: Option<Vec<u64>>,
    /// The paths counted in that run or profile: `(id, count)`, hottest first.
    pub path_counts: Vec<(u64, u64)>,
    /// From an `ipp` profile: the interprocedural paths that run through the function,
    /// `(id, count, source lines)`, hottest first.
    pub interprocedural: Vec<(u64, u64, String)>,
    /// The instrumented bytecode of `--profile=bl` (programs only).
    pub instrumented: Option<String>,
}

/// A program or CFG file, explained. See the module docs.
#[derive(Clone, Debug, Serialize)]
pub struct Explained {
    /// The file as named on the command line.
    pub file: String,
    /// The program's source (`None` for a `.cfg` file).
    pub source: Option<String>,
    /// K.
    pub k: u32,
    /// Where the heat comes from (`a run (--profile=bl --tier-up 0)`, a profile file), if any.
    pub heat_from: Option<String>,
    /// The functions.
    pub functions: Vec<FunctionExplained>,
    /// The recorded run's first events, for the step-through.
    pub steps: Vec<WatchLine>,
    /// The recorded run's mode (`bl`, `kbl:3`, ...), if one was recorded.
    pub step_mode: Option<String>,
    /// What the program printed in the recorded run (at most a few kilobytes).
    pub output: Option<String>,
}

/// Why a program cannot be explained: one line, for exit status 2 (usage) or 65 (the
/// program does not compile).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainError {
    /// A bad option, function name or profile.
    Usage(String),
    /// The source does not compile (the rendered diagnostics).
    Compile(String),
    /// A function's CFG cannot be built or numbered.
    Internal(String),
}

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExplainError::Usage(m) | ExplainError::Compile(m) | ExplainError::Internal(m) => {
                f.write_str(m.trim_end())
            }
        }
    }
}

/// Checks K against the range `explain` accepts.
pub fn check_k(k: u32) -> Result<(), ExplainError> {
    if (1..=MAX_K).contains(&k) {
        Ok(())
    } else {
        Err(ExplainError::Usage(format!(
            "--k {k} is out of range (1 to {MAX_K})"
        )))
    }
}

/// Explains a program given as source.
pub fn explain_program(
    file: &str,
    source: &str,
    request: &ExplainRequest,
) -> Result<Explained, ExplainError> {
    explain_files(&[(file, source)], request)
}

/// Explains a program of one or more source files, `(name, text)`, linked as by `vmrun
/// FILE...` (with several, each function names its file and the page shows no source).
pub fn explain_files(
    files: &[(&str, &str)],
    request: &ExplainRequest,
) -> Result<Explained, ExplainError> {
    check_k(request.k)?;
    let name = crate::program_name(files);
    let file = name.as_str();
    let source = match files {
        [(_, source)] => Some(source.to_string()),
        _ => None,
    };
    let program = lang::compile_sources_with(files, &request.preprocess)
        .map_err(|d| ExplainError::Compile(crate::render_diagnostics(&d, files)))?;
    let chosen: Vec<usize> = match &request.func {
        None => (0..program.functions.len()).collect(),
        Some(name) => match program.functions.iter().position(|f| &f.name == name) {
            Some(i) => vec![i],
            None => {
                let names: Vec<&str> = program.functions.iter().map(|f| f.name.as_str()).collect();
                return Err(ExplainError::Usage(format!(
                    "no function '{name}' in {file} (it has {})",
                    names.join(", ")
                )));
            }
        },
    };
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| {
            FunctionCfg::of_function(f)
                .map_err(|e| ExplainError::Internal(format!("{}: {e}", f.name)))
        })
        .collect::<Result<_, _>>()?;
    let profile = match &request.profile {
        Some(p) => {
            check_profile_fits(p, &program, &cfgs, file)?;
            Some(p.clone())
        }
        None if request.run => Some(run_for_profile(&program, file, request)?),
        None => None,
    };
    let heat_from = match (&request.profile, &profile) {
        (Some(p), _) => Some(format!("the profile of {} ({} mode)", p.program, p.mode)),
        (None, Some(_)) => Some(format!(
            "a run (--profile=bl --tier-up 0 --path-ends {})",
            request.path_ends
        )),
        _ => None,
    };
    let (steps, output) = if request.steps > 0 {
        let (steps, output) = record_steps(&program, file, request)?;
        (steps, Some(output))
    } else {
        (Vec::new(), None)
    };
    let mut functions = Vec::new();
    for i in chosen {
        let func = &program.functions[i];
        let fc = &cfgs[i];
        let fprofile = profile.as_ref().map(|p| &p.functions[i]);
        let weights = fprofile.map(|f| edge_frequencies(fc, f));
        // Smart numbering orders by the weights the VM's tier-up uses, so that the table's
        // ids are the instrumented code's.
        let order = weights
            .as_ref()
            .map(|w| numbering_weights(fc, func, request.path_ends, w));
        let options = ExplainOptions {
            path_ends: request.path_ends,
            numbering: request.numbering,
            weights: weights.as_ref(),
            order: order.as_ref(),
            k: request.k,
            list_limit: request.list_limit,
        };
        let cfg = explain(fc.cfg(), &|b| b.to_string(), &options)
            .map_err(|e| ExplainError::Usage(format!("{}: function {}: {e}", file, func.name)))?;
        // The instrumented code numbers as the table does: smart numbering only when asked.
        let smart = weights
            .as_ref()
            .filter(|_| request.numbering == NumberingKind::Smart);
        let instrumented = instrumented_code(&program, i, request.path_ends, smart)
            .map_err(|e| ExplainError::Internal(format!("{}: {e}", func.name)))?;
        functions.push(FunctionExplained {
            name: func.name.clone(),
            line: Some(func.loc.line),
            file: (program.files.len() > 1).then(|| {
                program
                    .file_of(lang::bytecode::FuncIdx(i as u16))
                    .to_string()
            }),
            block_lines: fc.blocks().map(|(b, _)| fc.lines(b)).collect(),
            heat: match profile.as_ref().and_then(|p| p.interprocedural.as_ref()) {
                Some(section) => Some(interprocedural_heat(section, i, fc.num_blocks())),
                None => fprofile.map(FunctionProfile::block_runs),
            },
            interprocedural: profile
                .as_ref()
                .and_then(|p| p.interprocedural.as_ref())
                .map(|section| interprocedural_through(section, i))
                .unwrap_or_default(),
            path_counts: fprofile
                .map(|f| f.paths.iter().map(|p| (p.id, p.count)).collect())
                .unwrap_or_default(),
            cfg,
            instrumented: Some(instrumented),
        });
    }
    Ok(Explained {
        file: file.to_string(),
        source,
        k: request.k,
        heat_from,
        functions,
        steps,
        step_mode: (request.steps > 0).then(|| step_mode_name(request)),
        output,
    })
}

/// How many times each block of function `func` ran on the interprocedural paths of `section`
/// (each path's count for each of its visits).
fn interprocedural_heat(
    section: &crate::profile::InterprocSection,
    func: usize,
    blocks: usize,
) -> Vec<u64> {
    let mut heat = vec![0u64; blocks];
    for p in &section.paths {
        for s in p.stretches.iter().filter(|s| s.function as usize == func) {
            for &b in &s.blocks {
                if let Some(h) = heat.get_mut(b as usize) {
                    *h = h.saturating_add(p.count);
                }
            }
        }
    }
    heat
}

/// The interprocedural paths of `section` with a stretch in function `func`, hottest first.
fn interprocedural_through(
    section: &crate::profile::InterprocSection,
    func: usize,
) -> Vec<(u64, u64, String)> {
    section
        .paths
        .iter()
        .filter(|p| p.stretches.iter().any(|s| s.function as usize == func))
        .map(|p| (p.id, p.count, p.lines.clone()))
        .collect()
}

/// Explains a textual CFG (`programs/cfgs/*.cfg`): one function, named after the file.
pub fn explain_cfg_file(
    file: &str,
    text: &str,
    request: &ExplainRequest,
) -> Result<Explained, ExplainError> {
    check_k(request.k)?;
    if request.run || request.profile.is_some() || request.steps > 0 {
        return Err(ExplainError::Usage(format!(
            "{file} is a CFG, not a program: it cannot be run (for counts along a trace use \
             `vmrun cfg {file} --trace ...`)"
        )));
    }
    let parsed =
        profiler::cfg_text::parse_cfg(text).map_err(|e| ExplainError::Usage(e.render(file)))?;
    let name = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    if let Some(f) = &request.func {
        if f != &name {
            return Err(ExplainError::Usage(format!(
                "no function '{f}' in {file} (a CFG file holds one graph, named {name})"
            )));
        }
    }
    let options = ExplainOptions {
        path_ends: request.path_ends,
        numbering: request.numbering,
        weights: None,
        order: None,
        k: request.k,
        list_limit: request.list_limit,
    };
    let cfg = explain(&parsed.cfg, &|b| parsed.name(b).to_string(), &options)
        .map_err(|e| ExplainError::Usage(format!("{file}: {e}")))?;
    let blocks = cfg.blocks.len();
    Ok(Explained {
        file: file.to_string(),
        source: None,
        k: request.k,
        heat_from: None,
        functions: vec![FunctionExplained {
            name,
            line: None,
            file: None,
            cfg,
            block_lines: vec![None; blocks],
            heat: None,
            path_counts: Vec::new(),
            interprocedural: Vec::new(),
            instrumented: None,
        }],
        steps: Vec::new(),
        step_mode: None,
        output: None,
    })
}

/// A profile must be of this program: the same functions, each with as many blocks as its
/// CFG here, and a mode whose paths are Ball-Larus paths.
fn check_profile_fits(
    profile: &Profile,
    program: &Program,
    cfgs: &[FunctionCfg],
    file: &str,
) -> Result<(), ExplainError> {
    let bad = |why: String| {
        ExplainError::Usage(format!(
            "the profile (of {}) does not belong to {file}: {why}",
            profile.program
        ))
    };
    if profile.functions.len() != program.functions.len() {
        return Err(bad(format!(
            "it has {} functions, the program {}",
            profile.functions.len(),
            program.functions.len()
        )));
    }
    for ((p, f), fc) in profile.functions.iter().zip(&program.functions).zip(cfgs) {
        if p.name != f.name || p.blocks.len() != fc.num_blocks() {
            return Err(bad(format!(
                "function {} ({} blocks) is {} ({} blocks) in the profile",
                f.name,
                fc.num_blocks(),
                p.name,
                p.blocks.len()
            )));
        }
        for path in &p.paths {
            if path.blocks.iter().any(|&b| b as usize >= fc.num_blocks()) {
                return Err(bad(format!("a path of {} leaves its CFG", f.name)));
            }
        }
    }
    match profile.mode {
        Mode::Bl | Mode::Trace | Mode::Kbl | Mode::Edge => Ok(()),
        // Heat from the interprocedural paths' blocks; their list per function.
        Mode::IppContext | Mode::IppPiecewise => Ok(()),
        other => Err(ExplainError::Usage(format!(
            "heat is taken from Ball-Larus paths: a profile of mode {} has none (use a bl, \
             kbl, trace or ipp profile, or --run)",
            crate::modes::table::spec_name(other, profile.k)
        ))),
    }
}

/// Runs the program under `bl` with every function instrumented up front; its profile.
fn run_for_profile(
    program: &Program,
    file: &str,
    request: &ExplainRequest,
) -> Result<Profile, ExplainError> {
    let options = run_options(Mode::Bl, 1, request.path_ends);
    let mut sink = Vec::new();
    let result = crate::run_program(program, file, &options, &mut sink);
    result.profile.ok_or_else(|| {
        ExplainError::Usage(format!(
            "{file}: the run gave no profile: {}",
            result.stderr.trim_end()
        ))
    })
}

/// The options of the runs behind heat and steps.
fn run_options(mode: Mode, k: u32, path_ends: PathEnds) -> RunOptions {
    RunOptions {
        profile: ProfileSettings {
            mode,
            k,
            tier_up: 0,
            path_ends,
            max_nodes: None,
        },
        collect_profile: true,
        ..RunOptions::default()
    }
}

/// The recorded run's K: `--k`, at least 2 for a multi-iteration mode, 1 for the others.
fn step_k(request: &ExplainRequest) -> u32 {
    if request.step_mode.takes_k() {
        request.k.max(2)
    } else {
        1
    }
}

/// The recorded run's mode as `--profile` names it.
fn step_mode_name(request: &ExplainRequest) -> String {
    crate::modes::table::spec_name(request.step_mode, step_k(request))
}

/// The first `request.steps` events of a watched run, and the program's output (cut at a
/// few kilobytes).
fn record_steps(
    program: &Program,
    file: &str,
    request: &ExplainRequest,
) -> Result<(Vec<WatchLine>, String), ExplainError> {
    let mut options = run_options(request.step_mode, step_k(request), request.path_ends);
    options.collect_profile = false;
    let watch = WatchOptions {
        limit: request.steps,
        echo: false,
    };
    let mut out = Vec::new();
    let (_, lines) = crate::run_program_watched(program, file, &options, watch, &mut out);
    out.truncate(4096);
    Ok((lines, String::from_utf8_lossy(&out).into_owned()))
}

/// The edge frequencies a profile's Ball-Larus paths imply: every consecutive pair of blocks
/// on a path, and the cut edge from its last block to the header it ends at, taken as often
/// as the path was.
pub fn edge_frequencies(fc: &FunctionCfg, f: &FunctionProfile) -> EdgeProfile {
    let cfg = fc.cfg();
    let mut profile = EdgeProfile::zeros(cfg);
    let block = |b: u32| Block::new(b as usize);
    for p in &f.paths {
        let mut add = |u: u32, v: u32| {
            if let Some(e) = cfg.find_edge(block(u), block(v)) {
                profile.edges[e] += p.count;
            }
        };
        for w in p.blocks.windows(2) {
            add(w[0], w[1]);
        }
        if let (Some(&last), Some(h)) = (p.blocks.last(), p.end) {
            add(last, h);
        }
    }
    profile
}

/// The instrumented bytecode of function `index` as `--profile=bl` generates it.
fn instrumented_code(
    program: &Program,
    index: usize,
    path_ends: PathEnds,
    weights: Option<&EdgeProfile>,
) -> Result<String, String> {
    let func = &program.functions[index];
    let edges = weights.map(|w| move |_: &FunctionCfg| w.clone());
    let edges_ref = edges
        .as_ref()
        .map(|f| f as &dyn Fn(&FunctionCfg) -> EdgeProfile);
    let (_, version) = tier_up_bl(FuncIdx(index as u16), func, path_ends, edges_ref, 0, 0)?;
    let mut out = version.disassemble(func, index);
    if !version.probe_consts.is_empty() {
        out.push_str(&format!(
            "  probe constants:{}\n",
            version.probe_constants()
        ));
    }
    Ok(out)
}

/// The source lines of each counted path, `(id, count, text)`, for the text and the page.
pub fn counted_paths(f: &FunctionExplained) -> Vec<(u64, u64, String)> {
    let rows: HashMap<u64, &profiler::explain::PathRow> =
        f.cfg.paths.iter().map(|p| (p.id, p)).collect();
    f.path_counts
        .iter()
        .map(|&(id, count)| {
            let text = rows
                .get(&id)
                .map_or_else(|| format!("path {id}"), |p| path_lines(f, p));
            (id, count, text)
        })
        .collect()
}

/// A path's blocks and their lines: `b1 b2 b4 -> b1 (lines 5, 6, 4)`.
pub fn path_lines(f: &FunctionExplained, p: &profiler::explain::PathRow) -> String {
    let name = |b: u32| f.cfg.blocks[b as usize].name.clone();
    let blocks: Vec<(String, Option<[u32; 2]>)> = p
        .blocks
        .iter()
        .map(|&b| (name(b), f.block_lines.get(b as usize).copied().flatten()))
        .collect();
    let end = p.end.map_or_else(|| "exit".to_string(), name);
    crate::profile::text::blocks_and_lines(&blocks, &end)
}
