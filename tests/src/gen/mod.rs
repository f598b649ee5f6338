//! A generator of random, well-defined C programs in the language subset.
//!
//! [`generate`] turns a seed into a complete program: a prelude of guard helpers, globals of
//! every type (scalars and arrays with brace initializers), a few functions with scalar and
//! array parameters (`T a[]`, `T a[][N]`, rows `m[i]` passed as arrays), a bounded recursive
//! function and a mutually recursive pair declared through prototypes, and `main`. Bodies mix
//! declarations (with shadowing), assignments, every compound assignment, `++`/`--`, `if`
//! chains, bounded `for`/`while`/`do` loops with `break`/`continue`, `switch` with
//! fallthrough and `default` anywhere, and `printf` calls with random flags, widths,
//! precisions and length modifiers. Expressions use every operator and all scalar types with
//! their implicit conversions and casts (see [`expr`]). The declarations and jumps of real C
//! programs come too (module `decls`): typedef names, enumeration constants, `sizeof`, `static`
//! locals, designated initializers, and `goto` (skips, loops of labels entered in the middle,
//! exits from nested loops).
//!
//! The programs are meant to behave identically under gcc (`-std=c99 -fwrapv -O0`) and the VM:
//! no undefined behaviour (guarded division, masked shifts, in-range indices, range-checked
//! double-to-integer conversions, no unsequenced conflicts: [`effects`]), no unspecified
//! evaluation order that could change the output, no uninitialized reads, and bounded running
//! time (a static cost estimate limits loop trip counts and calls: [`Config::budget`]).
//!
//! The same seed always gives the same program ([`rng::Rng`] is SplitMix64), so a failing
//! case is reproduced from its seed alone.

mod decls;
pub mod effects;
pub mod expr;
pub mod format;
mod program;
pub mod rng;
mod stmt;
pub mod types;

use effects::VarId;
use rng::Rng;
use types::Ty;

/// Knobs of the generator.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of ordinary functions besides `main` (at least 1).
    pub functions: usize,
    /// Maximum nesting depth of expressions.
    pub expr_depth: u32,
    /// Maximum nesting depth of statements (blocks, loops, ifs, switches).
    pub stmt_depth: u32,
    /// Statements per block, at most.
    pub block_len: u32,
    /// Estimated statement executions allowed per function (callees included); bounds the
    /// running time of a generated program.
    pub budget: u64,
    /// Also generate structures, unions, pointers, strings, function pointers, the heap and
    /// `qsort` (see the module docs). Off by default, and off with the same seed the programs
    /// are exactly those of the scalar generator.
    pub pointers: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            functions: 4,
            expr_depth: 3,
            stmt_depth: 3,
            block_len: 6,
            budget: 4000,
            pointers: false,
        }
    }
}

impl Config {
    /// A configuration varied with the seed around the default (expression depth 2-5,
    /// statement depth 2-4, 2-7 functions, block length 4-8), so that a batch of seeds mixes
    /// small dense programs with larger, deeper ones.
    pub fn varied(seed: u64) -> Config {
        let mut r = Rng::new(seed ^ 0x0c0f_1e5e_ed00_d00d);
        Config {
            functions: r.range(2, 7) as usize,
            expr_depth: r.range(2, 5) as u32,
            stmt_depth: r.range(2, 4) as u32,
            block_len: r.range(4, 8) as u32,
            budget: Config::default().budget,
            pointers: false,
        }
    }

    /// The same configuration with [`Config::pointers`] on.
    pub fn with_pointers(self) -> Config {
        Config {
            pointers: true,
            ..self
        }
    }
}

/// The first seed of a run of generated programs: `E2E_SEED` if set (to replay a failure),
/// otherwise the clock, so every run tries new programs. Panics on a malformed `E2E_SEED`.
pub fn base_seed() -> u64 {
    match std::env::var("E2E_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("E2E_SEED must be an unsigned integer, got {s:?}")),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    }
}

/// Generates the program for `seed` with [`Config::varied`]`(seed)`.
pub fn generate(seed: u64) -> String {
    generate_with(seed, &Config::varied(seed))
}

/// Generates the program for `seed` with the given configuration.
pub fn generate_with(seed: u64, config: &Config) -> String {
    let mut g = Gen::new(seed, config.clone());
    g.program(seed)
}

/// The program for `seed` (the same as [`generate`]'s) as two translation units, `lib.c` (the
/// globals and functions) and `main.c` (`main`, with `extern` declarations and prototypes of
/// the other file's names), each with its own `static` copy of the helper functions: name and
/// text of each file.
pub fn generate_units(seed: u64) -> Vec<(String, String)> {
    generate_units_with(seed, &Config::varied(seed))
}

/// [`generate_units`] with the given configuration.
pub fn generate_units_with(seed: u64, config: &Config) -> Vec<(String, String)> {
    let mut g = Gen::new(seed, config.clone());
    g.units(seed)
}

/// A variable known to the generator.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    /// Array dimensions (empty for scalars). For array parameters, the first dimension is the
    /// length every caller passes.
    dims: Vec<u32>,
    /// False for loop counters (and the pseudo-variable `STDOUT`).
    writable: bool,
    /// For loop counters: the value is always in `0..bound` inside the loop body.
    bound: Option<u32>,
    /// True for globals.
    global: bool,
}

/// A parameter of a generated function.
#[derive(Clone, Debug)]
enum Param {
    Scalar(Ty),
    /// An `int`/`unsigned` recursion depth: callers pass a value below the bound.
    Depth(u32),
    Array {
        ty: Ty,
        dims: Vec<u32>,
    },
}

/// A generated function, as its callers see it.
#[derive(Clone, Debug)]
struct Func {
    name: String,
    ret: Option<Ty>,
    params: Vec<Param>,
    /// Globals and `STDOUT` the function may write (transitively).
    writes: std::collections::BTreeSet<VarId>,
    /// Estimated statement executions of one call (callees included).
    cost: u64,
}

/// The generator's state.
struct Gen {
    rng: Rng,
    cfg: Config,
    /// Every variable ever declared; index = id; id 0 is `STDOUT`.
    vars: Vec<Var>,
    /// Scopes of visible variable ids, outermost first.
    scopes: Vec<Vec<VarId>>,
    /// A name hidden while its own declaration's initializer is generated.
    hidden: Option<String>,
    /// Functions callable from the one being generated.
    funcs: Vec<Func>,
    /// Ids of the globals.
    globals: Vec<VarId>,
    /// Output of the function being generated.
    out: String,
    indent: usize,
    /// Estimated executions so far in the current function, the current loop multiplier and
    /// the function's budget.
    cost: u64,
    mult: u64,
    budget: u64,
    /// Writes to globals/`STDOUT` made by the current function (for [`Func::writes`]).
    fx_writes: std::collections::BTreeSet<VarId>,
    /// Inside a loop (for `continue`) / inside a loop or switch (for `break`).
    loops: u32,
    breakables: u32,
    /// Result type of the current function (`None` for void).
    ret: Option<Ty>,
    /// Generating `main` (no early returns there, so the output is not cut short).
    in_main: bool,
    fresh: u32,
}

#[cfg(test)]
mod tests {
    use super::generate;

    /// A handful of seeds exercise every scalar type, their spellings, float constants and
    /// the float math functions.
    #[test]
    fn programs_use_every_type() {
        let all: String = (0..30).map(generate).collect();
        for needle in [
            "_Bool ",
            "unsigned char ",
            "short ",
            "unsigned short ",
            "float ",
            "long long",
            "f)",
            "(float)",
            "d2us(",
        ] {
            assert!(all.contains(needle), "no `{needle}` in 30 programs");
        }
        assert!(
            ["sinf(", "cosf(", "powf(", "sqrtf(", "fabsf(", "expf("]
                .iter()
                .any(|f| all.contains(f)),
            "no float math function in 30 programs"
        );
    }
}
