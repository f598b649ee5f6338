//! Static path counts (Roy & Srikant 2009, section 6, Table 4): the Ball-Larus and
//! k-iteration path counts of every function of a program for a range of K, with the fallbacks
//! the numbering took (innermost loops demoted to acyclic profiling, extra cut blocks). `vmrun
//! paths` prints them and `vmrun bench` records them; nothing is ever refused (Roy & Srikant
//! gave up above 60,000 paths).

use std::ops::RangeInclusive;

use lang::bytecode::Program;
use profiler::k_iteration::{KIterConfig, KIterError, KIteration};
use profiler::{BallLarus, BlError, DepthFirst, Fallback, Loops, Numbering, PathEnds};

use super::runtime::KiterError;
use crate::tier::cfg_build::FunctionCfg;

/// One row of [`StaticPathCounts`]: the k-iteration numbering for one K.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KRow {
    /// K.
    pub k: u32,
    /// The number of static k-iteration paths (ids `0..paths`).
    pub paths: u64,
    /// How many loops are profiled over K iterations (innermost loops not demoted).
    pub k_loops: usize,
    /// The fallbacks taken (loops demoted to acyclic profiling, extra cut blocks).
    pub fallbacks: Vec<Fallback>,
}

/// The static path counts of one function (a row of Roy & Srikant's Table 4).
#[derive(Clone, Debug)]
pub struct StaticPathCounts {
    /// The function's name.
    pub name: String,
    /// The line of its definition.
    pub line: u32,
    /// The source file it is defined in (the program's file of the function).
    pub file: String,
    /// Its CFG (for naming blocks in the fallbacks).
    pub cfg: FunctionCfg,
    /// Its number of innermost loops (the candidates for k-iteration profiling).
    pub innermost_loops: usize,
    /// The Ball-Larus static path count (canonical numbering, no limit below `u64`).
    pub bl: u64,
    /// The Ball-Larus fallbacks (extra cuts when the count exceeds `u64`).
    pub bl_fallbacks: Vec<Fallback>,
    /// One row per K asked for, in increasing K.
    pub rows: Vec<KRow>,
}

/// The static path counts of every function of `program`, for each K in `ks`, under
/// `path_ends` (`vmrun paths`). An empty range gives no rows.
pub fn static_path_counts(
    program: &Program,
    ks: RangeInclusive<u32>,
    path_ends: PathEnds,
) -> Result<Vec<StaticPathCounts>, KiterError> {
    let mut out = Vec::with_capacity(program.functions.len());
    for fdef in &program.functions {
        let fc = FunctionCfg::of_function(fdef).map_err(|error| KiterError::Cfg {
            func: fdef.name.clone(),
            error,
        })?;
        let cfg = fc.cfg();
        let dfs = DepthFirst::compute(cfg);
        let loops = Loops::compute(cfg, &dfs);
        let innermost_loops = loops.ids().filter(|&l| loops.get(l).innermost).count();
        let bl = BallLarus::new(cfg, path_ends, Numbering::Canonical, u64::MAX).map_err(
            |e: BlError| KiterError::Numbering {
                func: fdef.name.clone(),
                error: match e {
                    BlError::LimitTooSmall { limit, .. } => {
                        KIterError::LimitTooSmall { max_paths: limit }
                    }
                },
            },
        )?;
        let mut rows = Vec::new();
        for k in ks.clone() {
            let kit = KIteration::compute(cfg, &dfs, &loops, KIterConfig::new(k, path_ends))
                .map_err(|error| KiterError::Numbering {
                    func: fdef.name.clone(),
                    error,
                })?;
            rows.push(KRow {
                k,
                paths: kit.num_paths(),
                k_loops: kit.k_loops().len(),
                fallbacks: kit.fallbacks().to_vec(),
            });
        }
        out.push(StaticPathCounts {
            name: fdef.name.clone(),
            line: fdef.loc.line,
            file: program
                .files
                .get(fdef.file as usize)
                .cloned()
                .unwrap_or_default(),
            innermost_loops,
            bl: bl.num_paths(),
            bl_fallbacks: bl.fallbacks().to_vec(),
            rows,
            cfg: fc,
        });
    }
    Ok(out)
}
