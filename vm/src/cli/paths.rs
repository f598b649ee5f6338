//! `vmrun paths FILE --k 1..5`: the static path counts of every function, Ball-Larus and
//! k-iteration for each K of the range (Roy & Srikant's Table 4 for our programs), with the
//! fallbacks the numbering took (innermost loops demoted to acyclic profiling, extra cut
//! blocks). The counts come from [`vm::modes::kiter::static_counts::static_path_counts`]; this file parses the
//! arguments and renders them as text or JSON.
//!
//! Exit status: 0, 2 for a bad option (an empty or zero K range), 65 when the program does not
//! compile, 66 when it cannot be read, 70 if a function cannot be numbered (never expected:
//! without a limit the numbering always falls back instead).

use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use clap::Args;
use profiler::{Block, PathEnds};
use vm::modes::kiter::static_counts::{static_path_counts, StaticPathCounts};
use vm::EXIT_RUNTIME_ERROR;

/// The largest K accepted: the unrolled graph has about K + 1 states per block of a k-loop, and
/// the counts exceed `u64` (and fall back to acyclic profiling) long before.
pub const MAX_K: u32 = 64;

/// Arguments of `vmrun paths`.
#[derive(Args, Debug)]
#[command(after_long_help = "\
Output (text): one row per function: its line, its number of innermost loops (the loops \
profiled over K iterations; outer loops are profiled acyclically), its Ball-Larus path count and \
its k-iteration path count for each K. A count marked * took a fallback, listed below the table: \
a loop whose k-iteration ids exceed 2^64 is profiled acyclically, and if even acyclic ids do not \
fit, paths are also cut at extra blocks. Nothing is ever refused (Roy & Srikant gave up above \
60,000 paths). Details: docs/kiter-runtime.md.")]
pub struct PathsArgs {
    /// The program: one or more C-subset source files, linked as by `vmrun FILE...`.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The values of K: `N` or an inclusive range `A..B` (1 <= A <= B <= 64); K = 1 is
    /// Ball-Larus.
    #[arg(long, value_name = "RANGE", default_value = "1..5", value_parser = parse_k_range)]
    pub k: KRange,
    /// Where paths end: `header` (on arriving at any loop header) or `backedge` (Ball-Larus).
    #[arg(long, value_name = "STRATEGY", default_value = "header", value_parser = parse_path_ends)]
    pub path_ends: PathEnds,
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = PathsFormat::Text)]
    pub format: PathsFormat,
    #[command(flatten)]
    preprocess: super::preprocess_args::PreprocessArgs,
}

/// An inclusive range of K values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KRange(pub RangeInclusive<u32>);

/// `--format` of `vmrun paths`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PathsFormat {
    /// One table row per function, then the fallbacks.
    Text,
    /// One JSON document.
    Json,
}

/// Parses `N` or `A..B` (also `A..=B`), 1 <= A <= B <= [`MAX_K`].
pub fn parse_k_range(s: &str) -> Result<KRange, String> {
    let (a, b) = super::parse_u32_range(s, "1..5")?;
    if a == 0 {
        return Err("K starts at 1 (K = 1 is Ball-Larus)".into());
    }
    if b > MAX_K {
        return Err(format!("K = {b} is above the largest supported K, {MAX_K}"));
    }
    Ok(KRange(a..=b))
}

fn parse_path_ends(s: &str) -> Result<PathEnds, String> {
    s.parse::<PathEnds>()
}

/// How a block is named in the output: `b3 (line 14)`, `b3 (lines 14-16)` or `b3`.
fn block_name(c: &StaticPathCounts, b: Block) -> String {
    match c.cfg.lines(b) {
        Some([x, y]) if x == y => format!("{b} (line {x})"),
        Some([x, y]) => format!("{b} (lines {x}-{y})"),
        None => b.to_string(),
    }
}

/// The fallbacks of one function as `(what, message)`: `bl` or `k=K`.
fn fallbacks(c: &StaticPathCounts) -> Vec<(String, String)> {
    let name = |b: Block| block_name(c, b);
    let mut out: Vec<(String, String)> = c
        .bl_fallbacks
        .iter()
        .map(|f| ("bl".to_string(), f.render(&name)))
        .collect();
    for row in &c.rows {
        for f in &row.fallbacks {
            out.push((format!("k={}", row.k), f.render(&name)));
        }
    }
    out
}

/// The text report: a header line, a table (function, line, number of innermost loops, BL, one column
/// per K with `*` marking a count that took a fallback), then the fallbacks.
pub fn render_text(program: &str, path_ends: PathEnds, counts: &[StaticPathCounts]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{program}: static paths per function (path ends: {path_ends}; K = 1 is Ball-Larus)"
    );
    let ks: Vec<u32> = counts
        .first()
        .map(|c| c.rows.iter().map(|r| r.k).collect())
        .unwrap_or_default();
    let mut header = vec![
        "function".to_string(),
        "line".into(),
        "innermost".into(),
        "BL".into(),
    ];
    header.extend(ks.iter().map(|k| format!("k={k}")));
    let mut rows = vec![header];
    // A program of several files names the file with each function's line.
    let several_files = counts.iter().any(|c| c.file != counts[0].file);
    for c in counts {
        let line = if several_files {
            format!("{}:{}", c.file, c.line)
        } else {
            c.line.to_string()
        };
        let mut row = vec![
            c.name.clone(),
            line,
            c.innermost_loops.to_string(),
            mark(c.bl, !c.bl_fallbacks.is_empty()),
        ];
        row.extend(
            c.rows
                .iter()
                .map(|r| mark(r.paths, !r.fallbacks.is_empty())),
        );
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[0]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[i]);
            }
        }
        let _ = writeln!(o, "{}", line.trim_end());
    }
    let all: Vec<(String, (String, String))> = counts
        .iter()
        .flat_map(|c| fallbacks(c).into_iter().map(|f| (c.name.clone(), f)))
        .collect();
    if all.is_empty() {
        let _ = writeln!(
            o,
            "no fallbacks: every innermost loop is profiled over K iterations"
        );
    } else {
        let _ = writeln!(o, "fallbacks (* above):");
        for (func, (what, msg)) in all {
            let _ = writeln!(o, "  {func}, {what}: {msg}");
        }
    }
    o
}

fn mark(n: u64, fell_back: bool) -> String {
    if fell_back {
        format!("{n}*")
    } else {
        n.to_string()
    }
}

/// The JSON report: `{"program", "path_ends", "k": [first, last], "functions": [{"name",
/// "file", "line", "innermost_loops", "bl", "bl_fallbacks", "kiter": [{"k", "paths", "k_loops",
/// "fallbacks"}]}]}` in this order, fallbacks as messages.
pub fn render_json(
    program: &str,
    path_ends: PathEnds,
    ks: &KRange,
    counts: &[StaticPathCounts],
) -> String {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        program: &'a str,
        path_ends: String,
        k: [u32; 2],
        functions: Vec<Func<'a>>,
    }
    #[derive(serde::Serialize)]
    struct Func<'a> {
        name: &'a str,
        file: &'a str,
        line: u32,
        innermost_loops: usize,
        bl: u64,
        bl_fallbacks: Vec<String>,
        kiter: Vec<Row>,
    }
    #[derive(serde::Serialize)]
    struct Row {
        k: u32,
        paths: u64,
        k_loops: usize,
        fallbacks: Vec<String>,
    }
    let functions = counts
        .iter()
        .map(|c| {
            let name = |b: Block| block_name(c, b);
            let render = |fs: &[profiler::Fallback]| fs.iter().map(|f| f.render(&name)).collect();
            Func {
                name: &c.name,
                file: &c.file,
                line: c.line,
                innermost_loops: c.innermost_loops,
                bl: c.bl,
                bl_fallbacks: render(&c.bl_fallbacks),
                kiter: c
                    .rows
                    .iter()
                    .map(|r| Row {
                        k: r.k,
                        paths: r.paths,
                        k_loops: r.k_loops,
                        fallbacks: render(&r.fallbacks),
                    })
                    .collect(),
            }
        })
        .collect();
    let doc = Doc {
        program,
        path_ends: path_ends.to_string(),
        k: [*ks.0.start(), *ks.0.end()],
        functions,
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("plain data always serializes");
    s.push('\n');
    s
}

/// Runs `vmrun paths`; returns the exit status.
pub fn run(args: &PathsArgs) -> i32 {
    let (name, program) = match super::read_and_compile(&args.files, &args.preprocess.options()) {
        Ok(compiled) => compiled,
        Err(code) => return code,
    };
    let counts = match static_path_counts(&program, args.k.0.clone(), args.path_ends) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("vmrun paths: {name}: {e}");
            return EXIT_RUNTIME_ERROR;
        }
    };
    let out = match args.format {
        PathsFormat::Text => render_text(&name, args.path_ends, &counts),
        PathsFormat::Json => render_json(&name, args.path_ends, &args.k, &counts),
    };
    super::print_output(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "int main(void) {\n  int i = 0, s = 0;\n  while (i < 10) {\n    if (i % 3 == 0) s += i; else s -= 1;\n    i++;\n  }\n  return s & 1;\n}\n";

    fn counts(ks: RangeInclusive<u32>, ends: PathEnds) -> Vec<StaticPathCounts> {
        let program = lang::compile_source("t.c", SRC).unwrap();
        static_path_counts(&program, ks, ends).unwrap()
    }

    #[test]
    fn k_ranges_parse_and_bad_ones_say_why() {
        assert_eq!(parse_k_range("1..5"), Ok(KRange(1..=5)));
        assert_eq!(parse_k_range("2..=3"), Ok(KRange(2..=3)));
        assert_eq!(parse_k_range("3"), Ok(KRange(3..=3)));
        assert!(parse_k_range("0..2").unwrap_err().contains("starts at 1"));
        assert!(parse_k_range("5..1").unwrap_err().contains("empty"));
        assert!(parse_k_range("1..x").unwrap_err().contains("not a number"));
        assert!(parse_k_range("1..65").unwrap_err().contains("largest"));
    }

    /// One `while` loop with a diamond in its body: under `backedge` path ends, counted by
    /// hand from the definitions (cfg-format.md): BL paths are entry-to-exit (1), entry to the
    /// back edge (2), header to the back edge (2), header to the exit (1): 6 in all. The rows
    /// must agree with BL at K = 1 and grow with K.
    #[test]
    fn the_text_table_has_a_row_per_function_and_a_column_per_k() {
        let c = counts(1..=3, PathEnds::Backedge);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].innermost_loops, 1);
        assert_eq!(c[0].bl, 6);
        assert_eq!(c[0].rows[0].paths, c[0].bl);
        assert!(c[0].rows[1].paths > c[0].rows[0].paths);
        assert!(c[0].rows[2].paths > c[0].rows[1].paths);
        let text = render_text("t.c", PathEnds::Backedge, &c);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("path ends: backedge"));
        let head: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(
            head,
            ["function", "line", "innermost", "BL", "k=1", "k=2", "k=3"]
        );
        let row: Vec<&str> = lines[2].split_whitespace().collect();
        let expected: Vec<String> = [
            "main".to_string(),
            "1".into(),
            "1".into(),
            c[0].bl.to_string(),
        ]
        .into_iter()
        .chain(c[0].rows.iter().map(|r| r.paths.to_string()))
        .collect();
        assert_eq!(row, expected);
        assert!(lines[3].starts_with("no fallbacks"));
    }

    #[test]
    fn json_carries_the_same_numbers() {
        let c = counts(2..=4, PathEnds::Header);
        let json = render_json("t.c", PathEnds::Header, &KRange(2..=4), &c);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["path_ends"], "header");
        assert_eq!(v["k"], serde_json::json!([2, 4]));
        let f = &v["functions"][0];
        assert_eq!(f["name"], "main");
        assert_eq!(f["bl"], c[0].bl);
        let ks: Vec<u64> = f["kiter"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["k"].as_u64().unwrap())
            .collect();
        assert_eq!(ks, [2, 3, 4]);
        assert_eq!(f["kiter"][1]["paths"], c[0].rows[1].paths);
    }
}
