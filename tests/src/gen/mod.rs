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
//! their implicit conversions and casts (see [`expr`]), now and then through GNU C's
//! statement expressions and `__typeof__`, calls of `ld_mix` (arithmetic in `long double`), and calls of a variadic function (`va_mix`, with
//! `<stdarg.h>`) whose further arguments have random types. The declarations and jumps of real C
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
//!
//! # The pointer features
//!
//! With [`Config::pointers`] (off by default, until the VM runs them; off, a seed gives exactly
//! the program it gave before the features existed) programs also use structures, unions,
//! pointers, strings, function pointers, the heap and `qsort`, as new choices beside the scalar
//! ones (whose frequencies stay roughly the same):
//!
//! - **Types** (module `records`): a few `struct` types with scalar, bit-field (signed and
//!   unsigned, unnamed padding ones too), array, `char` buffer, nested structure, array of
//!   structures and function-pointer members, with typedef names; a `union` of an integer, another
//!   scalar and the integer's bytes. Variables, arrays of them and globals get brace and
//!   designated initializers (`{.in.x = 1}`, `{[1].v[2] = 3}`); structures are assigned whole.
//! - **Objects and aliasing** (module `objects`): every object reachable from a variable
//!   (elements, members, pointees) is a path from it; reads and writes of scalars anywhere in
//!   them join the ordinary expressions. An access through a pointer counts as an access to
//!   the variable it points into, so the effects analysis sees aliases. Signed bit-fields are
//!   only assigned values in their range.
//! - **Pointers** (module `pointers`): to scalars, array elements, structures and pointers
//!   (`int **`), declared once and never reassigned, each knowing the offsets it may be
//!   dereferenced at (`p[-2]`..`p[2]`); `*p`, `p[i]`, `p->m`, `p - q` and `<` within one array,
//!   `==`/`!=` with `NULL`, `for` loops walking a pointer (`q++`), `sizeof`. Functions take
//!   `T *`, `const T *`, `struct s *` (sometimes spelled `struct s p[]` or `p[2]`, arrays of
//!   structures as parameters) and `const char *` parameters; callers pass distinct,
//!   non-global objects, so parameters alias neither each other nor a global. `long` is never
//!   spelled `long long` then (gcc types `&x` by the spelling, and `long *` and `long long *`
//!   do not mix).
//! - **Strings** (module `strings`): `char` buffers whose last byte is never written (so they
//!   always end in NUL), `const char *` literals and tables of them, `strlen strcpy strcat
//!   strcmp strncmp strchr memcpy memmove memset memcmp` with sizes known to fit or guarded at
//!   run time, `printf("%s")`, `sprintf` only when its output's bound fits, `snprintf`.
//!   `strcmp` and friends are only compared with 0.
//! - **Function pointers** (module `funcs`): pure functions of a few signatures, called
//!   directly, through variables, parameters, tables indexed in range, and structure members
//!   (after a null check).
//! - **The heap and `qsort`** (module `heap`): blocks allocated with `malloc`/`calloc`, used by
//!   random statements, freed at the end of their block, which nothing leaves early (no
//!   `return`, `break`, `continue` or `exit` inside); `qsort` of integer arrays and of
//!   `struct kv` pairs with total orders.
//!
//! The front end's current limits and bugs shape a few choices: array parameters are not used
//! as pointer values (`T a[]` then `a + 1`), `malloc`ed blocks are not passed to array
//! parameters, structures are not passed by value, a local structure is not initialized by
//! another (`struct s y = x;` is written `struct s y = {0}; y = x;`), a `const T *` variable is
//! never moved, and `main` uses global structures only through their scalar members (in a
//! program split in two files, `main.c` sees them as `extern`).
//!
//! Checked by `tests/tests/generator_is_well_defined.rs`: AddressSanitizer (with pointer-pair
//! checks and leak detection) and UndefinedBehaviorSanitizer report nothing, and the front end
//! accepts every program.

mod decls;
pub mod effects;
pub mod expr;
pub mod format;
mod funcs;
mod heap;
mod macros;
mod objects;
mod pointers;
mod program;
mod records;
pub mod rng;
mod stmt;
mod strings;
pub mod types;

use effects::VarId;
use objects::{Record, Shape, Sig, SigId};
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

/// A program whose generator's choices are read from `bytes` (a fuzzer's input, see
/// [`rng::Rng::with_tape`]): the first 8 bytes are the seed, which also picks the
/// configuration ([`Config::varied`]); each later 8 bytes give one draw. Every input gives a
/// well-defined program, as every seed does.
pub fn generate_from_bytes(bytes: &[u8]) -> String {
    let (seed_bytes, tape) = bytes.split_at(bytes.len().min(8));
    let mut seed = [0u8; 8];
    seed[..seed_bytes.len()].copy_from_slice(seed_bytes);
    let seed = u64::from_le_bytes(seed);
    let mut g = Gen::with_rng(Rng::with_tape(seed, tape), Config::varied(seed));
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
    /// For the objects of the pointer features: the element type (`dims` are around it), a
    /// structure, union, pointer or function pointer. `None` for scalars and arrays of `ty`.
    obj: Option<Shape>,
    /// A string buffer (a `char` array): its last element is never written, so it always ends
    /// with a NUL and every string function on it stays inside.
    nul_last: bool,
    /// A `malloc`ed array: its name is a pointer (`sizeof` gives a pointer's size).
    heap: bool,
    /// An array parameter (`T a[]`): the checker does not take it as a pointer value yet
    /// (`a + 1`, `p = a`), so only its elements are used by the pointer features (`&a[1]`).
    array_param: bool,
}

impl Var {
    /// True for the scalar generator's variables (scalars and arrays of scalars).
    fn plain(&self) -> bool {
        self.obj.is_none()
    }
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
    /// `T *p`, `const T *p`, `struct r *p`: callers pass the address of `len` objects of type
    /// `to` (a scalar or a structure), distinct from every other argument and never global.
    Pointer {
        to: Shape,
        len: u32,
        konst: bool,
    },
    /// `const char *s`: a NUL-terminated string of unknown length.
    Str,
    /// A function pointer, never null.
    Func(SigId),
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
    /// The function may call `exit` (through `finish`, perhaps in a callee).
    exits: bool,
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
    /// The current function may call `exit` (for [`Func::exits`]).
    fx_exits: bool,
    /// Open `malloc` scopes around the statement being generated: no `return`, `break`,
    /// `continue` or `exit` may skip their `free`.
    heap_live: u32,
    /// The structure and union types of the program (pointer features).
    records: Vec<Record>,
    /// The function-pointer signatures and their functions (pointer features).
    sigs: Vec<Sig>,
    /// The `qsort` comparison functions used, emitted with the type definitions.
    comparators: std::collections::BTreeSet<String>,
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
