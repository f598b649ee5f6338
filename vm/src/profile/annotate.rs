//! The annotated source of a [`Profile`] (`vmrun --profile=MODE --annotate[=FILE]`): the
//! program's text with, on every line, how often it ran and which of its function's hottest
//! paths run through it, in the spirit of gcov's annotated source.
//!
//! ```text
//!     count:  share:ABCD: line:source
//! function odd_sum (line 4): entered 3 times, 33 paths (4 of 6 static), tiered up at 0
//!   A  45.5% 15x  id 5: 7, 6 -> 7 (header)
//!   ...
//!        30: 100.0%:ABCD:    6:    for (int i = 0; i < n; i++) {
//!        30:  90.9%:AB.D:    7:        if (i % 2 == 1)
//!        15:  45.5%:.B.D:    8:            s += i;
//! ```
//!
//! Counts come from the profile's paths (each with its count and block sequence), lines from
//! the compiled program: [`CodeLines`] lists, for each block, the source lines its
//! instructions are on (the profile's `lines` member is only the first and last of them: a
//! block of a `for` loop's step that also holds the statement after an inner loop spans the
//! whole body without running it). The source is only printed.
//!
//! **Count.** A block's *runs* are `sum(count x occurrences of the block on the path)` over the
//! function's paths. A line's count is the largest number of runs of a block with an
//! instruction on it: the number of times the busiest of its blocks ran. For a line that is one
//! block (a plain statement) that is exactly how often it ran; for a line split over several
//! blocks (the init, test and step of a `for`, the two operands of `&&`) it is the count of the
//! busiest part, a lower bound of how often control entered the line (the sum would count one
//! visit to `a && b` twice; gcov counts a `for` line once more per loop, for its first test).
//!
//! Which activity that counts: Ball-Larus paths cut an activation's block sequence into
//! consecutive pieces (a path that ends at a header does not include it: the next path starts
//! there), so every block run lies on exactly one counted path and the runs are exact, for the
//! paths completed while the function was profiled: after it tiered up (`tiered_up_at`), not
//! the path in progress at an on-stack replacement, nor those left in progress when the run
//! stopped (then `complete` is false and the header says *incomplete*). That holds for `bl`,
//! `trace` (paths by definition), `kbl:K` (its `paths` are the BL paths, the first level of
//! the k-IPF) and `kiter:1` (plain Ball-Larus). It does not hold for `kiter:K` with `K > 1`:
//! Roy & Srikant's k-iteration paths overlap (each back edge of an innermost loop starts a new
//! one while the K - 1 older ones go on, so an iteration lies on up to K counted paths), and a
//! path that starts at a loop header right after entering the loop has the same id as one that
//! starts there after a back edge, so how much two counted paths overlap cannot be told from
//! the profile. In that mode the count column shows `?` for a line that ran (on some counted
//! path) and the header says why; the share and the marks are still exact.
//!
//! **Share and marks.** A line's *share* is the percentage of the function's completed paths
//! (weighted by count) that run through one of its blocks. The *marks* are one column per hot
//! path: the function's `top` hottest paths (the profile's order: count, then id; at most
//! [`MAX_MARKS`]) are lettered `A`, `B`, ... in a legend under the function's header, and a
//! line shows the letter of every hot path through it, `.` for the others.
//!
//! A function's header, printed above its definition, gives its paths and when it tiered up,
//! and (exact modes) how many times it was *entered*: the count of its paths that start at its
//! entry, one per completed activation.
//!
//! **Other lines.** `-`: no instruction (blank, comment, declaration without initializer,
//! `else`), outside every function, or in a function that was not profiled (it never tiered
//! up: its header says so, as gcov shows the lines of a file it has no data for); `#####`
//! (gcov's mark): code of a profiled function that is on no counted path (it never ran, or ran
//! only before its function tiered up). A line belongs to the function whose definition is the
//! last one at or above it.

use std::fmt::Write;

use lang::bytecode::Program;

use super::text::{lines_of, path_texts, percent, plural, ReportOptions};
use super::{FunctionProfile, Mode, Profile};
use crate::tier::cfg_build::{BlockKind, FunctionCfg};

/// The most hot paths lettered per function (`A` to `Z`).
pub const MAX_MARKS: usize = 26;

/// The widest legend line (an 100-column terminal); longer path texts are cut with `...`.
const WIDTH: usize = 100;

/// What the annotation shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnnotateOptions {
    /// The hot paths lettered per function (`0`: as many as possible), at most [`MAX_MARKS`].
    pub top: usize,
}

impl Default for AnnotateOptions {
    /// As many hot paths as the report lists ([`ReportOptions::default`]).
    fn default() -> Self {
        AnnotateOptions {
            top: ReportOptions::default().top,
        }
    }
}

impl AnnotateOptions {
    /// The number of marks for a function with `paths` paths.
    fn marks(&self, paths: usize) -> usize {
        let top = if self.top == 0 { MAX_MARKS } else { self.top };
        top.min(MAX_MARKS).min(paths)
    }
}

/// The source lines of every block's instructions, per function: what a line's count is
/// taken from (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeLines {
    /// `functions[f][b]`: the lines of block `b` of function `f` (program order, as in the
    /// profile), ascending, without repeats.
    functions: Vec<Vec<Vec<u32>>>,
}

impl CodeLines {
    /// From the lines of every block of every function (`functions[f][b]`, in any order).
    pub fn new(mut functions: Vec<Vec<Vec<u32>>>) -> CodeLines {
        for lines in functions.iter_mut().flatten() {
            lines.sort_unstable();
            lines.dedup();
        }
        CodeLines { functions }
    }

    /// The lines of a compiled program's blocks, from its functions' CFGs (the blocks and ids
    /// the profile has) and its instructions' locations (line 0, unknown, left out).
    pub fn of_program(program: &Program) -> Result<CodeLines, String> {
        let mut functions = Vec::with_capacity(program.functions.len());
        for f in &program.functions {
            let fc = FunctionCfg::of_function(f).map_err(|e| format!("{}: {e:?}", f.name))?;
            let blocks = fc
                .blocks()
                .map(|(_, info)| match info.kind {
                    BlockKind::Code { start, end } => f.locs[start.0 as usize..end.0 as usize]
                        .iter()
                        .map(|l| l.line)
                        .filter(|&l| l != 0)
                        .collect(),
                    _ => Vec::new(),
                })
                .collect();
            functions.push(blocks);
        }
        Ok(CodeLines::new(functions))
    }
}

/// Whether a profile's path counts give exact per-line run counts (see the module docs): all
/// modes but `kiter:K` with `K > 1`, whose k-iteration paths overlap.
pub fn exact_counts(profile: &Profile) -> bool {
    !(profile.mode == Mode::Kiter && profile.k > 1)
}

/// What one line shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    /// No code, outside every function, or in a function not profiled.
    NoData,
    /// Code of a profiled function: its count, the count of the paths through it, and a bit
    /// per hot path through it (bit `r` for rank `r`).
    Code { runs: u64, through: u64, marks: u32 },
}

/// One function's lines: `cells[line - first]` for lines `first..first + cells.len()`.
struct FunctionLines {
    first: u32,
    cells: Vec<Cell>,
}

/// The annotated source of `profile`'s program, whose text is `source` and whose blocks'
/// lines are `code` (see the module docs).
pub fn annotate(
    profile: &Profile,
    source: &str,
    code: &CodeLines,
    options: &AnnotateOptions,
) -> String {
    // Library code in C linked after the program (`qsort`, in a file named like
    // `<qsort.c>`) has lines of its own file: left out.
    if profile.functions.iter().any(is_library) {
        let (part, lines) = functions_of(profile, code, |f| !is_library(f));
        return annotate(&part, source, &lines, options);
    }
    let text: Vec<&str> = source.lines().collect();
    let exact = exact_counts(profile);
    // Each function owns the lines from its definition to the next definition.
    let mut order: Vec<usize> = (0..profile.functions.len()).collect();
    order.sort_by_key(|&i| profile.functions[i].line);
    let last_line = text.len() as u32;
    let owned: Vec<FunctionLines> = (0..order.len())
        .map(|j| {
            let f = &profile.functions[order[j]];
            let end = order
                .get(j + 1)
                .map_or(last_line, |&n| profile.functions[n].line.saturating_sub(1));
            function_lines(
                f,
                code.functions.get(order[j]),
                f.line,
                end.max(f.line),
                options,
            )
        })
        .collect();
    let width = profile
        .functions
        .iter()
        .map(|f| options.marks(f.paths.len()))
        .max()
        .unwrap_or(0)
        .max(1);

    let mut out = String::new();
    header(&mut out, profile, exact, width);
    let mut next = 0; // the next function (in `order`) whose header is due
    for (i, src) in text.iter().enumerate() {
        let line = i as u32 + 1;
        while next < order.len() && profile.functions[order[next]].line <= line {
            function_header(&mut out, &profile.functions[order[next]], exact, options);
            next += 1;
        }
        let cell = next
            .checked_sub(1)
            .and_then(|j| owned[j].cells.get((line - owned[j].first) as usize))
            .copied()
            .unwrap_or(Cell::NoData);
        let owner = next.checked_sub(1).map(|j| &profile.functions[order[j]]);
        let _ = writeln!(
            out,
            "{}:{line:>5}:{src}",
            columns(cell, owner, exact, width)
        );
    }
    // Definitions beyond the text (a source that is not the profile's).
    for &i in &order[next..] {
        function_header(&mut out, &profile.functions[i], exact, options);
    }
    out
}

/// The annotated sources of a program of one or more files, `(name, text)` as compiled: with
/// one file, [`annotate`]; with several, each file under a `==> name <==` line, annotated
/// with the functions defined in it (the profile's [`FunctionProfile::file`]).
pub fn annotate_files(
    profile: &Profile,
    files: &[(&str, &str)],
    code: &CodeLines,
    options: &AnnotateOptions,
) -> String {
    if let [(_, source)] = files {
        return annotate(profile, source, code, options);
    }
    let mut out = String::new();
    for (n, (name, source)) in files.iter().enumerate() {
        let (part, lines) = functions_of(profile, code, |f| f.file == *name);
        if n > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "==> {name} <==");
        out.push_str(&annotate(&part, source, &lines, options));
    }
    out
}

/// Whether `f` is library code in C (its file is named `<...>`).
fn is_library(f: &FunctionProfile) -> bool {
    f.file.starts_with('<')
}

/// The profile and code lines of the functions `keep` selects.
fn functions_of(
    profile: &Profile,
    code: &CodeLines,
    keep: impl Fn(&FunctionProfile) -> bool,
) -> (Profile, CodeLines) {
    let kept: Vec<usize> = (0..profile.functions.len())
        .filter(|&i| keep(&profile.functions[i]))
        .collect();
    let mut part = profile.clone();
    part.functions = kept.iter().map(|&i| profile.functions[i].clone()).collect();
    let lines = CodeLines {
        functions: kept
            .iter()
            .map(|&i| code.functions.get(i).cloned().unwrap_or_default())
            .collect(),
    };
    (part, lines)
}

/// The title, the run's settings and the legend of the columns.
fn header(out: &mut String, profile: &Profile, exact: bool, width: usize) {
    let _ = writeln!(
        out,
        "Annotated source of {} (mode {}, path ends {}, tier-up {})",
        profile.program,
        crate::modes::table::spec_name(profile.mode, profile.k),
        profile.path_ends,
        profile.tier_up
    );
    if !profile.complete {
        let _ = writeln!(
            out,
            "INCOMPLETE: the run did not finish (trap, limit or signal); counts cover the paths \
             completed before it stopped"
        );
    }
    let paths = if profile.k > 1 && profile.mode == Mode::Kiter {
        format!("{}-iteration paths", profile.k)
    } else {
        "paths".to_string()
    };
    if exact {
        let _ = writeln!(
            out,
            "count: runs of the line's busiest block, on the {paths} completed while profiled; \
             '#####': none"
        );
        if profile.functions.iter().any(|f| f.tiered_up_at != Some(0)) {
            let _ = writeln!(
                out,
                "       (a function is profiled once it tiers up: what ran before is not \
                 counted)"
            );
        }
    } else {
        let k = profile.k;
        let _ = writeln!(
            out,
            "count: not known ('?': ran, '#####': did not): {paths} overlap (an iteration lies on \
             up to {k}\n       counted paths), so runs per line cannot be told from them: \
             --profile=bl or kbl:{k} counts them"
        );
    }
    let letters = match width {
        1 => "A".to_string(),
        w => format!("A-{}", (b'A' + w as u8 - 1) as char),
    };
    let _ = writeln!(
        out,
        "share: of the function's completed {paths}, those that run through the line\n\
         {letters}: the function's hottest {paths} (listed under its name) that run through \
         the line\n\
         -: no code, or a function not profiled\n"
    );
    let _ = writeln!(
        out,
        "{:>9}:{:>7}:{:<width$}:{:>5}:source",
        "count",
        "share",
        &"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[..width],
        "line"
    );
}

/// A function's header line and the legend of its hot paths.
fn function_header(out: &mut String, f: &FunctionProfile, exact: bool, options: &AnnotateOptions) {
    let Some(tiered) = f.tiered_up_at else {
        let _ = writeln!(
            out,
            "function {} (line {}): not profiled (never tiered up)",
            f.name, f.line
        );
        return;
    };
    let total = f.total();
    let mut line = format!("function {} (line {}): ", f.name, f.line);
    if exact {
        // Every completed activation's first path starts at the entry.
        let entered = f
            .paths
            .iter()
            .filter(|p| p.blocks.first() == Some(&f.entry))
            .fold(0u64, |acc, p| acc.saturating_add(p.count));
        let _ = write!(line, "entered {}, ", plural(entered, "time"));
    }
    let _ = writeln!(
        out,
        "{line}{} ({} of {} static), tiered up at {tiered}",
        plural(total, "path"),
        f.paths.len(),
        f.static_paths
    );
    let texts = path_texts(f);
    let shown = options.marks(f.paths.len());
    let rest = &f.paths[shown..];
    let rest_count = rest.iter().fold(0u64, |acc, p| acc.saturating_add(p.count));
    let digits = f
        .paths
        .first()
        .map_or(1, |p| p.count.max(rest_count).to_string().len());
    for (rank, p) in f.paths[..shown].iter().enumerate() {
        let row = format!(
            "  {} {:>6} {:>digits$}x  id {}: {}",
            (b'A' + rank as u8) as char,
            percent(p.count, total),
            p.count,
            p.id,
            lines_of(&texts, p.id)
        );
        let _ = writeln!(out, "{}", cut(&row));
    }
    if !rest.is_empty() {
        let _ = writeln!(
            out,
            "    {:>6} {:>digits$}x  ... {} more {}",
            percent(rest_count, total),
            rest_count,
            rest.len(),
            if rest.len() == 1 { "path" } else { "paths" }
        );
    }
}

/// `s` cut to [`WIDTH`] characters, ending with `...` when cut.
fn cut(s: &str) -> String {
    if s.chars().count() <= WIDTH {
        s.to_string()
    } else {
        let kept: String = s.chars().take(WIDTH - 3).collect();
        format!("{kept}...")
    }
}

/// The count, share and marks columns of a line (`owner`: the function it belongs to).
fn columns(cell: Cell, owner: Option<&FunctionProfile>, exact: bool, width: usize) -> String {
    match cell {
        Cell::NoData => format!("{:>9}:{:>7}:{:width$}", "-", "", ""),
        Cell::Code {
            runs,
            through,
            marks,
        } => {
            let count = match (runs, exact) {
                (0, _) => "#####".to_string(),
                (n, true) => n.to_string(),
                (_, false) => "?".to_string(),
            };
            let total = owner.map_or(0, FunctionProfile::total);
            let marks: String = (0..width)
                .map(|r| {
                    if marks & (1 << r) != 0 {
                        (b'A' + r as u8) as char
                    } else {
                        '.'
                    }
                })
                .collect();
            format!("{count:>9}:{:>7}:{marks}", percent(through, total))
        }
    }
}

/// The cells of `f`'s lines `first..=last` (`code[b]`: the lines of its block `b`).
fn function_lines(
    f: &FunctionProfile,
    code: Option<&Vec<Vec<u32>>>,
    first: u32,
    last: u32,
    options: &AnnotateOptions,
) -> FunctionLines {
    let n = (last - first + 1) as usize;
    let mut cells = vec![Cell::NoData; n];
    if f.tiered_up_at.is_none() {
        return FunctionLines { first, cells };
    }
    // The owned lines of a block's instructions, as indices into `cells`.
    let covered = |b: u32| {
        code.and_then(|c| c.get(b as usize))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter(|&&l| (first..=last).contains(&l))
            .map(move |&l| (l - first) as usize)
    };
    for (b, &r) in f.block_runs().iter().enumerate() {
        for i in covered(b as u32) {
            cells[i] = match cells[i] {
                Cell::NoData => Cell::Code {
                    runs: r,
                    through: 0,
                    marks: 0,
                },
                Cell::Code {
                    runs,
                    through,
                    marks,
                } => Cell::Code {
                    runs: runs.max(r),
                    through,
                    marks,
                },
            };
        }
    }
    // Each path adds its count once to every line it runs through (`seen`: the last path
    // that did, so a line on two of its blocks counts it once).
    let shown = options.marks(f.paths.len());
    let mut seen = vec![usize::MAX; n];
    for (rank, p) in f.paths.iter().enumerate() {
        for &b in &p.blocks {
            for i in covered(b) {
                if seen[i] == rank {
                    continue;
                }
                seen[i] = rank;
                if let Cell::Code { through, marks, .. } = &mut cells[i] {
                    *through = through.saturating_add(p.count);
                    if rank < shown {
                        *marks |= 1 << rank;
                    }
                }
            }
        }
    }
    FunctionLines { first, cells }
}

#[cfg(test)]
mod tests {
    use profiler::PathEnds;

    use super::*;
    use crate::profile::{BlockLines, PathCount};

    /// The example of `docs/profile-format.md`: `steps(6)` iterates 8 times, 6 even, 2 odd.
    const STEPS: &str = "#include <stdio.h>

int steps(int n) {
    int s = 0;
    while (n > 1) {
        if (n % 2 == 0)
            n = n / 2;
        else
            n = 3 * n + 1;
        s++;
    }
    return s;
}

int main(void) {
    printf(\"%d\\n\", steps(6));
    return 0;
}
";

    fn blocks(lines: &[Option<[u32; 2]>]) -> Vec<BlockLines> {
        lines
            .iter()
            .enumerate()
            .map(|(id, &lines)| BlockLines {
                id: id as u32,
                lines,
                succs: Vec::new(),
            })
            .collect()
    }

    fn path(id: u64, count: u64, blocks: &[u32], end: Option<u32>) -> PathCount {
        PathCount {
            id,
            count,
            blocks: blocks.to_vec(),
            end,
            overlap: Vec::new(),
        }
    }

    fn function(
        name: &str,
        line: u32,
        lines: &[Option<[u32; 2]>],
        static_paths: u64,
        paths: Vec<PathCount>,
    ) -> FunctionProfile {
        // The hand-built CFG has the edges its paths walk.
        let mut blocks = blocks(lines);
        for p in &paths {
            let walk: Vec<u32> = p.blocks.iter().copied().chain(p.end).collect();
            for w in walk.windows(2) {
                let succs = &mut blocks[w[0] as usize].succs;
                if !succs.contains(&w[1]) {
                    succs.push(w[1]);
                }
            }
        }
        FunctionProfile {
            name: name.to_string(),
            file: String::new(),
            line,
            entry: 0,
            exit: lines.len() as u32 - 1,
            blocks,
            static_paths,
            paths,
            tiered_up_at: Some(0),
            edge_counts: None,
            ipf: None,
            kbl_stats: None,
            indirect_calls: Vec::new(),
            overlap: None,
        }
    }

    /// The profile of `docs/profile-format.md`'s example (`bl --tier-up 0`).
    fn steps_profile(mode: Mode, k: u32) -> Profile {
        let mut p = Profile::new("steps.c", mode, PathEnds::Header, 0, true);
        p.k = k;
        p.functions = vec![
            function(
                "steps",
                3,
                &[
                    Some([4, 5]),
                    Some([6, 6]),
                    Some([7, 7]),
                    Some([9, 9]),
                    Some([10, 10]),
                    Some([5, 5]),
                    Some([12, 12]),
                    None,
                ],
                4,
                vec![
                    path(2, 6, &[5, 1, 2, 4], Some(5)),
                    path(3, 2, &[5, 1, 3, 4], Some(5)),
                    path(0, 1, &[0], Some(5)),
                    path(1, 1, &[5, 6, 7], None),
                ],
            ),
            function(
                "main",
                15,
                &[Some([16, 17]), None],
                1,
                vec![path(0, 1, &[0, 1], None)],
            ),
        ];
        if mode != Mode::Kbl {
            p.check().unwrap();
        }
        p
    }

    /// Every line of every block's span (the hand-built blocks are contiguous).
    fn spans(p: &Profile) -> CodeLines {
        CodeLines::new(
            p.functions
                .iter()
                .map(|f| {
                    f.blocks
                        .iter()
                        .map(|b| b.lines.map_or(Vec::new(), |[a, z]| (a..=z).collect()))
                        .collect()
                })
                .collect(),
        )
    }

    /// `annotate` with the lines of the blocks' spans.
    fn annotate_spans(p: &Profile, source: &str, options: &AnnotateOptions) -> String {
        annotate(p, source, &spans(p), options)
    }

    /// The source lines of an annotation (those with a line number), by line number.
    fn rows(text: &str) -> Vec<String> {
        text.lines()
            .filter(|l| {
                l.split(':')
                    .nth(3)
                    .is_some_and(|n| n.trim().parse::<u32>().is_ok())
            })
            .map(str::to_string)
            .collect()
    }

    /// The count column of line `n` (1-based).
    fn count(text: &str, n: usize) -> String {
        rows(text)[n - 1]
            .split(':')
            .next()
            .unwrap()
            .trim()
            .to_string()
    }

    #[test]
    fn the_example_line_by_line() {
        let text = annotate_spans(
            &steps_profile(Mode::Bl, 1),
            STEPS,
            &AnnotateOptions::default(),
        );
        let expected = "\
Annotated source of steps.c (mode bl, path ends header, tier-up 0)
count: runs of the line's busiest block, on the paths completed while profiled; '#####': none
share: of the function's completed paths, those that run through the line
A-D: the function's hottest paths (listed under its name) that run through the line
-: no code, or a function not profiled

    count:  share:ABCD: line:source
        -:       :    :    1:#include <stdio.h>
        -:       :    :    2:
function steps (line 3): entered 1 time, 10 paths (4 of 4 static), tiered up at 0
  A  60.0% 6x  id 2: 5, 6, 7, 10 -> 5 (header)
  B  20.0% 2x  id 3: 5, 6, 9, 10 -> 5 (header)
  C  10.0% 1x  id 0: 4-5 -> 5 (header)
  D  10.0% 1x  id 1: 5, 12 -> return
        -:       :    :    3:int steps(int n) {
        1:  10.0%:..C.:    4:    int s = 0;
        9: 100.0%:ABCD:    5:    while (n > 1) {
        8:  80.0%:AB..:    6:        if (n % 2 == 0)
        6:  60.0%:A...:    7:            n = n / 2;
        -:       :    :    8:        else
        2:  20.0%:.B..:    9:            n = 3 * n + 1;
        8:  80.0%:AB..:   10:        s++;
        -:       :    :   11:    }
        1:  10.0%:...D:   12:    return s;
        -:       :    :   13:}
        -:       :    :   14:
function main (line 15): entered 1 time, 1 path (1 of 1 static), tiered up at 0
  A 100.0% 1x  id 0: 16-17 -> return
        -:       :    :   15:int main(void) {
        1: 100.0%:A...:   16:    printf(\"%d\\n\", steps(6));
        1: 100.0%:A...:   17:    return 0;
        -:       :    :   18:}
";
        assert_eq!(text, expected);
    }

    #[test]
    fn counts_are_occurrences_times_counts_and_a_line_takes_its_busiest_block() {
        // Block 1 twice on one path; line 3 is shared by blocks 1 and 2.
        let mut p = Profile::new("p.c", Mode::Bl, PathEnds::Header, 0, true);
        p.functions = vec![function(
            "f",
            1,
            &[Some([2, 2]), Some([3, 3]), Some([3, 4]), None],
            9,
            vec![
                path(0, 5, &[0, 1, 2, 1, 3], None),
                path(1, 2, &[0, 2, 3], None),
            ],
        )];
        let src = "int f(void) {\n  a;\n  b; c;\n  d;\n}\n";
        let text = annotate_spans(&p, src, &AnnotateOptions::default());
        assert_eq!(count(&text, 2), "7");
        // Block 1: 2 x 5 = 10 runs; block 2: 5 + 2 = 7.
        assert_eq!(count(&text, 3), "10");
        assert_eq!(count(&text, 4), "7");
        // Path 0 runs through line 3 by three blocks but counts once in the share.
        let row = &rows(&text)[2];
        assert!(row.contains(" 100.0%:AB:"), "{row}");
        assert!(rows(&text)[3].contains(" 100.0%:AB:"), "{text}");
    }

    #[test]
    fn a_line_counts_only_the_blocks_with_an_instruction_on_it() {
        // Block 2 is a loop's step (line 2) joined with the statement after an inner loop
        // (line 6): its span 2-6 covers the inner loop (lines 3-4), which it does not run.
        let mut p = Profile::new("p.c", Mode::Trace, PathEnds::Header, 0, true);
        p.functions = vec![function(
            "f",
            1,
            &[Some([2, 2]), Some([3, 4]), Some([2, 6]), None],
            9,
            vec![
                path(0, 10, &[2], Some(1)),
                path(1, 3, &[1], Some(1)),
                path(2, 1, &[0, 3], None),
            ],
        )];
        let code = CodeLines::new(vec![vec![vec![2], vec![4, 3], vec![6, 2, 6], vec![]]]);
        let src = "void f(void) {\n for (...) {\n  while (...)\n   x++;\n\n  y++;\n }\n}\n";
        let text = annotate(&p, src, &code, &AnnotateOptions::default());
        let counts: Vec<String> = (1..=8).map(|n| count(&text, n)).collect();
        assert_eq!(counts, ["-", "10", "3", "3", "-", "10", "-", "-"]);
        // Path A (block 2) does not run through the inner loop.
        assert!(rows(&text)[2].contains("  21.4%:.B.:"), "{text}");
        assert!(rows(&text)[5].contains("  71.4%:A..:"), "{text}");
        // With the spans, the inner loop would look as busy as the step.
        let text = annotate_spans(&p, src, &AnnotateOptions::default());
        assert_eq!(count(&text, 3), "10");
    }

    #[test]
    fn a_function_never_tiered_up_is_not_profiled_and_one_never_run_shows_hashes() {
        let mut p = steps_profile(Mode::Bl, 1);
        p.tier_up = 1000;
        p.functions[0].paths.clear();
        p.functions[0].tiered_up_at = None;
        p.functions[1].paths.clear();
        let text = annotate_spans(&p, STEPS, &AnnotateOptions::default());
        assert!(text.contains("function steps (line 3): not profiled (never tiered up)\n"));
        assert!((4..=12).all(|n| count(&text, n) == "-"), "{text}");
        assert!(text.contains("function main (line 15): entered 0 times, 0 paths"));
        assert_eq!(count(&text, 16), "#####");
        assert!(rows(&text)[15].contains("   0.0%:.:"), "{text}");
    }

    #[test]
    fn kiter_with_k_above_one_gives_no_counts_and_says_why() {
        let text = annotate_spans(
            &steps_profile(Mode::Kiter, 2),
            STEPS,
            &AnnotateOptions::default(),
        );
        assert!(text.starts_with("Annotated source of steps.c (mode kiter:2,"));
        assert!(text
            .contains("count: not known ('?': ran, '#####': did not): 2-iteration paths overlap"));
        assert!(!text.contains("entered"));
        assert_eq!(count(&text, 7), "?");
        assert!(rows(&text)[6].contains("  60.0%:A...:"));
        // kiter:1 is Ball-Larus: exact.
        let one = annotate_spans(
            &steps_profile(Mode::Kiter, 1),
            STEPS,
            &AnnotateOptions::default(),
        );
        assert_eq!(count(&one, 7), "6");
    }

    #[test]
    fn kbl_counts_are_exact() {
        let text = annotate_spans(
            &steps_profile(Mode::Kbl, 4),
            STEPS,
            &AnnotateOptions::default(),
        );
        assert_eq!(count(&text, 5), "9");
        assert!(text.contains("(mode kbl:4,"));
    }

    #[test]
    fn an_incomplete_run_says_so() {
        let mut p = steps_profile(Mode::Bl, 1);
        p.complete = false;
        let text = annotate_spans(&p, STEPS, &AnnotateOptions::default());
        assert_eq!(
            text.lines().nth(1).unwrap(),
            "INCOMPLETE: the run did not finish (trap, limit or signal); counts cover the paths \
             completed before it stopped"
        );
    }

    #[test]
    fn top_limits_the_lettered_paths_and_sums_the_rest() {
        let text = annotate_spans(
            &steps_profile(Mode::Bl, 1),
            STEPS,
            &AnnotateOptions { top: 2 },
        );
        assert!(
            text.contains("\n     20.0% 2x  ... 2 more paths\n"),
            "{text}"
        );
        assert!(text.contains("A-B: the function's hottest paths"));
        assert!(rows(&text)[4].contains(" 100.0%:AB:"), "{text}");
        assert!(rows(&text)[8].contains("  20.0%:.B:"), "{text}");
        let all = annotate_spans(
            &steps_profile(Mode::Bl, 1),
            STEPS,
            &AnnotateOptions { top: 0 },
        );
        assert!(all.contains("A-D: "));
        assert_eq!(AnnotateOptions { top: 0 }.marks(100), MAX_MARKS);
        assert_eq!(AnnotateOptions { top: 40 }.marks(100), MAX_MARKS);
    }

    #[test]
    fn long_path_texts_are_cut_to_the_width() {
        let lines: Vec<Option<[u32; 2]>> = (0..60)
            .map(|b| Some([b * 2 + 2, b * 2 + 2]))
            .chain([None])
            .collect();
        let mut p = Profile::new("p.c", Mode::Bl, PathEnds::Header, 0, true);
        let all: Vec<u32> = (0..61).collect();
        p.functions = vec![function("f", 1, &lines, 1, vec![path(0, 1, &all, None)])];
        let src = "x;\n".repeat(130);
        let text = annotate_spans(&p, &src, &AnnotateOptions::default());
        let legend = text.lines().find(|l| l.starts_with("  A ")).unwrap();
        assert_eq!(legend.chars().count(), WIDTH);
        assert!(legend.ends_with("..."));
    }
}
