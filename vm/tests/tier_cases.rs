//! The required cases, by definition: small programs run with the block recorder
//! (`tier_support`), their paths counted by the oracle and shown as the source lines they run
//! through (`6 7 10 -> 6`, `2 4 5 -> return`: see `paths`). The expected lists
//! are worked out by hand from C's semantics (the comment above each says how); they are what
//! `vmrun --profile=bl --tier-up 0` must report, whatever the numbering.

mod tier_support;

use profiler::PathEnds;
use tier_support::{profile_by_definition, record};

/// `(count, lines)` of every path of `func`, by count (descending) then lines. A path's lines
/// are the source lines of its blocks in order, each block's span expanded, consecutive
/// repeats merged (so the form does not depend on how a statement's code is split into
/// blocks), then `-> N` for a cut at the header whose first line is N, or `-> return`.
fn paths(src: &str, func: &str, ends: PathEnds) -> Vec<(u64, String)> {
    let rec = record("case.c", src);
    let p = profile_by_definition("case.c", &rec, ends);
    let f = p.functions.iter().find(|f| f.name == func).unwrap();
    let mut out: Vec<(u64, String)> = f
        .paths
        .iter()
        .map(|q| {
            let mut lines: Vec<u32> = Vec::new();
            for &b in &q.blocks {
                if let Some([lo, hi]) = f.lines(b) {
                    for l in lo..=hi {
                        if lines.last() != Some(&l) {
                            lines.push(l);
                        }
                    }
                }
            }
            let text: Vec<String> = lines.iter().map(u32::to_string).collect();
            let end = match q.end {
                Some(h) => f.lines(h).map_or("?".to_string(), |l| l[0].to_string()),
                None => "return".to_string(),
            };
            (q.count, format!("{} -> {end}", text.join(" ")))
        })
        .collect();
    out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    out
}

fn expect(v: &[(u64, &str)]) -> Vec<(u64, String)> {
    v.iter().map(|&(n, s)| (n, s.to_string())).collect()
}

/// Checks the paths of `func` under both strategies.
fn check(src: &str, func: &str, header: &[(u64, &str)], backedge: &[(u64, &str)]) {
    assert_eq!(
        paths(src, func, PathEnds::Header),
        expect(header),
        "{func} header"
    );
    assert_eq!(
        paths(src, func, PathEnds::Backedge),
        expect(backedge),
        "{func} backedge"
    );
}

const FACT: &str = "int fact(int n) {
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}
int main(void) { return fact(5) - 120; }
";

const FIND: &str = "int find(int x) {
    for (int i = 0; i < 10; i++) {
        if (i == x)
            return i;
    }
    return -1;
}
int main(void) { return find(3) + find(20) + 1; }
";

const CLASSIFY: &str = "int classify(int x) {
    int r = 0;
    switch (x) {
    case 0: r += 1;
    case 1: r += 10; break;
    case 2: r += 100;
    default: r += 1000;
    }
    return r;
}
int main(void) {
    int s = 0;
    for (int i = 0; i < 5; i++) s += classify(i);
    return s % 256;
}
";

const PICK: &str = "int pick(int a, int b) {
    if (a > 0 && b > 0)
        return 1;
    if (a < 0 || b < 0)
        return 2;
    return 3;
}
int main(void) { return pick(1, 1) + pick(1, -1) + pick(-1, 1) + pick(0, 0) + pick(0, 5); }
";

const NESTED: &str = "int main(void) {
    int s = 0;
    for (int i = 0; i < 3; i++) {
        int j = 0;
        do {
            j++;
            if (j == 2) continue;
            if (j == 4) break;
            s += j;
        } while (j < 5);
    }
    return s;
}
";

const FLAT: &str = "int sq(int x) {
    int y = x * x;
    return y + 1;
}
int main(void) { return sq(1) + sq(2) + sq(3); }
";

/// Recursion: fact(5) makes 5 interleaved activations; 4 take the recursive return (line 4),
/// the innermost returns 1 (line 3). No loop: both strategies agree.
#[test]
fn recursion_interleaves_activations() {
    let want = [(4, "2 4 -> return"), (1, "2 3 -> return")];
    check(FACT, "fact", &want, &want);
}

/// Several returns and a loop left by `return`. The `for` is guarded and rotated: its header is
/// the body's first line (3). find(3): entry path, 3 iterations (i = 0, 1, 2) back to the
/// header, then `return i`. find(20): entry path, 9 iterations (i = 0..8), then i = 9 leaves
/// by the loop test into `return -1` (line 6). Under `backedge` the entry edge into the header
/// does not cut, so each call's first iteration joins its entry path.
#[test]
fn several_returns_and_a_loop_left_by_return() {
    check(
        FIND,
        "find",
        &[
            (12, "3 2 -> 3"),
            (2, "2 -> 3"),
            (1, "3 2 6 -> return"),
            (1, "3 4 -> return"),
        ],
        &[
            (10, "3 2 -> 3"),
            (2, "2 3 2 -> 3"),
            (1, "3 2 6 -> return"),
            (1, "3 4 -> return"),
        ],
    );
}

/// `switch` with fallthrough: 0 runs cases 0 and 1 (break), 1 runs case 1, 2 runs case 2 and
/// falls into default, 3 and 4 run default.
#[test]
fn switch_with_fallthrough() {
    let want = [
        (2, "2 3 7 9 -> return"),
        (1, "2 3 4 5 9 -> return"),
        (1, "2 3 5 9 -> return"),
        (1, "2 3 6 7 9 -> return"),
    ];
    check(CLASSIFY, "classify", &want, &want);
}

/// `&&`/`||` chains: (1,1) returns 1; (1,-1) and (-1,1) return 2 by different paths through
/// the two conditions (same lines, two paths); (0,0) and (0,5) take the same path to
/// `return 3` (b is never tested by `&&` when a <= 0, and `||` tests both).
#[test]
fn short_circuit_chains() {
    let want = [
        (2, "2 4 6 -> return"),
        (1, "2 3 -> return"),
        (1, "2 4 5 -> return"),
        (1, "2 4 5 -> return"),
    ];
    check(PICK, "pick", &want, &want);
}

/// Nested loops, `do`-`while`, `continue` and `break`. Outer `for` (header: line 4, `j = 0`),
/// inner `do` (header: line 6, `j++`). Per outer iteration the inner loop runs j = 1 (adds,
/// loops), 2 (`continue`: to the test, line 10, loops), 3 (adds, loops), 4 (`break`: to the
/// outer step, line 3). Under `header`, arriving at the inner header from `j = 0` cuts too.
#[test]
fn nested_loops_do_while_break_continue() {
    check(
        NESTED,
        "main",
        &[
            (6, "6 7 8 9 10 -> 6"),
            (3, "4 -> 6"),
            (3, "6 7 10 -> 6"),
            (2, "6 7 8 3 -> 4"),
            (1, "2 3 -> 4"),
            (1, "6 7 8 3 12 -> return"),
        ],
        &[
            (3, "6 7 10 -> 6"),
            (3, "6 7 8 9 10 -> 6"),
            (2, "4 6 7 8 9 10 -> 6"),
            (2, "6 7 8 3 -> 4"),
            (1, "2 3 4 6 7 8 9 10 -> 6"),
            (1, "6 7 8 3 12 -> return"),
        ],
    );
}

/// A function without branches has one path, taken once per call.
#[test]
fn a_function_without_branches() {
    let want = [(3, "2 3 -> return")];
    check(FLAT, "sq", &want, &want);
}
