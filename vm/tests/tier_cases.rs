//! The required cases, by definition: small programs whose paths, shown as the source
//! lines they run through (`6 7 10 -> 6`, `2 4 5 -> return`: see `lines_form`), are worked out
//! by hand from C's semantics (the comment above each case says how). Each case is checked
//! three ways, in both strategies: the block recorder on the interpreter's hooks
//! (`tier_support`) counted by the oracle, and the real runs `vmrun --profile=bl --tier-up 0`
//! and `--profile=trace` (`vm::run_program`). Cases about tiering itself (a function never
//! tiered up, on-stack replacement in the middle of a loop, a trap inside a profiled loop) run
//! `bl` with the thresholds they are about.

mod tier_support;

use profiler::PathEnds;
use tier_support::{profile_by_definition, record};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::{ProfileSettings, RunOptions, RunResult, DEFAULT_TIER_UP};

/// `(count, lines)` of every path of `f`, by count (descending) then lines. A path's lines
/// are the source lines of its blocks in order, each block's span expanded, consecutive
/// repeats merged (so the form does not depend on how a statement's code is split into
/// blocks), then `-> N` for a cut at the header whose first line is N, or `-> return`.
fn lines_form(f: &FunctionProfile) -> Vec<(u64, String)> {
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

/// The paths of `func` by definition from the block recorder.
fn paths(src: &str, func: &str, ends: PathEnds) -> Vec<(u64, String)> {
    let rec = record("case.c", src);
    let p = profile_by_definition("case.c", &rec, ends);
    lines_form(function(&p, func))
}

fn function<'a>(p: &'a Profile, func: &str) -> &'a FunctionProfile {
    p.functions.iter().find(|f| f.name == func).unwrap()
}

/// A real run of `src` (`vm::run_program`); its output and result (with the profile).
fn run(src: &str, mode: Mode, tier_up: u64, ends: PathEnds) -> (Vec<u8>, RunResult) {
    let program = lang::compile_source("case.c", src).unwrap();
    let options = RunOptions {
        profile: ProfileSettings {
            mode,
            k: 1,
            tier_up,
            path_ends: ends,
            max_nodes: None,
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let r = vm::run_program(&program, "case.c", &options, &mut out);
    assert!(r.profile.is_some(), "{}", r.stderr);
    (out, r)
}

/// The paths of `func` in a real run.
fn run_paths(
    src: &str,
    func: &str,
    mode: Mode,
    tier_up: u64,
    ends: PathEnds,
) -> Vec<(u64, String)> {
    let (_, r) = run(src, mode, tier_up, ends);
    lines_form(function(r.profile.as_ref().unwrap(), func))
}

fn expect(v: &[(u64, &str)]) -> Vec<(u64, String)> {
    v.iter().map(|&(n, s)| (n, s.to_string())).collect()
}

/// Checks the paths of `func` under both strategies: by definition from the recorder, and in
/// the real `bl --tier-up 0` and `trace` runs.
fn check(src: &str, func: &str, header: &[(u64, &str)], backedge: &[(u64, &str)]) {
    for (ends, want) in [(PathEnds::Header, header), (PathEnds::Backedge, backedge)] {
        let want = expect(want);
        assert_eq!(paths(src, func, ends), want, "{func} {ends} by definition");
        assert_eq!(
            run_paths(src, func, Mode::Bl, 0, ends),
            want,
            "{func} {ends} bl --tier-up 0"
        );
        assert_eq!(
            run_paths(src, func, Mode::Trace, 0, ends),
            want,
            "{func} {ends} trace"
        );
    }
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

const WALK: &str = "int walk(int n) {
    int s = 1;
    for (int i = 0; i < n; i++)
        s += walk(i);
    return s;
}
int main(void) { return walk(3) - 8; }
";

/// Recursion from inside a loop: each activation's path is suspended across the recursive
/// call (line 4) and resumed after it. walk(n) calls walk(0..n-1): walk(3) makes 8
/// activations, n = 3, 2, 1, 1 and four times 0. The guarded `for` has its header at the body,
/// one block holding line 4 and the step and test of line 3 (so it reads `3 4`, and a cut
/// there `-> 3`). `header`: n = 0 goes from the entry past the guard to the return (4 times); every
/// n >= 1 has an entry path into the header (4), a last iteration that leaves by the test
/// (line 3) to the return (4), and the other iterations back to the header (3 - 1 + 2 - 1 = 3).
/// `backedge`: the entry edge does not cut, so each first iteration joins its entry path: it
/// goes back (n = 3, 2) or leaves (n = 1, twice); the remaining iterations of n = 3 (i = 1
/// back, i = 2 out) and n = 2 (i = 1 out).
#[test]
fn recursion_inside_a_loop() {
    check(
        WALK,
        "walk",
        &[
            (4, "2 3 -> 3"),
            (4, "2 3 5 -> return"),
            (4, "3 4 5 -> return"),
            (3, "3 4 -> 3"),
        ],
        &[
            (4, "2 3 5 -> return"),
            (2, "2 3 4 -> 3"),
            (2, "2 3 4 5 -> return"),
            (2, "3 4 5 -> return"),
            (1, "3 4 -> 3"),
        ],
    );
}

const SIGN: &str = "int sign(int x) {
    if (x < 0)
        return -1;
    return 1;
}
int main(void) { return sign(-5) + sign(5); }
";

/// A function never tiered up: with the default threshold, `sign` (called twice: heat 2) and
/// `main` (heat 1) stay at tier 0: `tiered_up_at` null, no paths, but their blocks and static
/// path counts (2 for `sign`: one per return; 1 for `main`) are reported. With `--tier-up 0`
/// the same function has one path per return.
#[test]
fn a_function_never_tiered_up() {
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        let (out, r) = run(SIGN, Mode::Bl, DEFAULT_TIER_UP, ends);
        assert!(out.is_empty());
        assert_eq!(r.exit_status, 0);
        let p = r.profile.unwrap();
        p.check().unwrap();
        assert!(p.complete);
        for (name, static_paths) in [("sign", 2), ("main", 1)] {
            let f = function(&p, name);
            assert_eq!(f.tiered_up_at, None, "{name}");
            assert!(f.paths.is_empty(), "{name}");
            assert_eq!(f.static_paths, static_paths, "{name}");
            assert!(f.blocks.iter().any(|b| b.lines.is_some()), "{name}");
        }
        // Three calls pass a threshold of 2 only at the third: not here.
        let (_, r) = run(SIGN, Mode::Bl, 2, ends);
        assert_eq!(
            function(r.profile.as_ref().unwrap(), "sign").tiered_up_at,
            None
        );
        // A threshold of 1: the second call tiers up (heat 2 > 1) and is counted, from its
        // entry: sign(5) returns 1 (line 4).
        let (_, r) = run(SIGN, Mode::Bl, 1, ends);
        let f = function(r.profile.as_ref().unwrap(), "sign");
        assert_eq!(f.tiered_up_at, Some(2));
        assert_eq!(lines_form(f), expect(&[(1, "2 4 -> return")]));
    }
    let want = [(1, "2 3 -> return"), (1, "2 4 -> return")];
    check(SIGN, "sign", &want, &want);
}

const OSR_WHILE: &str = "int main(void) {
    int s = 0;
    int i = 0;
    while (i < 3000) {
        if (i % 3 == 0) s += i;
        else s -= 1;
        i++;
    }
    return s % 256;
}
";

const OSR_DO: &str = "int main(void) {
    int s = 0;
    int i = 0;
    do {
        if (i % 3 == 0) s += i;
        else s -= 1;
        i++;
    } while (i < 3000);
    return s % 256;
}
";

/// On-stack replacement in the middle of a loop: `main`, called once, loops 3000 times and is
/// profiled with the default threshold (1000). Its heat is 1 (the call) plus one per backward
/// jump; the k-th backward jump makes it 1 + k, so the 1000th tiers it up (`tiered_up_at`
/// 1001) and the frame switches right there.
///
/// `while`: the test is at the bottom (line 4, the header) and its backward jump goes into the
/// body of the next iteration: the 1000th starts iteration i = 999. Under `header` the path
/// in progress began at the test (every arrival at a header starts a path), so it is counted:
/// i = 999..2999, each from the header through the body back to it (i % 3 == 0 for 999,
/// 1002, ..., 2997: 667 times line 5 alone, 1334 times the `else`), then the last test out to
/// the return. Under `backedge` the test starts no path: the start of the one in progress is
/// unknown, it is not counted, and i = 1000..2999 are (666 and 1334).
///
/// `do`-`while`: the backward jump goes to the header (the body's top, line 5) and ends a path
/// in both strategies: the frame starts a fresh path there, at iteration i = 1000. Counted:
/// i = 1000..2998 back to the header (666 through line 5 alone, 1333 through the `else`), and
/// i = 2999 (an `else`) out to the return.
#[test]
fn on_stack_replacement_in_the_middle_of_a_loop() {
    for ends in [PathEnds::Header, PathEnds::Backedge] {
        for (src, want) in [
            (
                OSR_WHILE,
                vec![
                    (1334, "4 5 6 7 -> 4"),
                    (
                        if ends == PathEnds::Header { 667 } else { 666 },
                        "4 5 7 -> 4",
                    ),
                    (1, "4 9 -> return"),
                ],
            ),
            (
                OSR_DO,
                vec![
                    (1333, "5 6 7 8 -> 5"),
                    (666, "5 7 8 -> 5"),
                    (1, "5 6 7 8 9 -> return"),
                ],
            ),
        ] {
            let (_, r) = run(src, Mode::Bl, DEFAULT_TIER_UP, ends);
            let (plain, _) = run(src, Mode::Edge, DEFAULT_TIER_UP, ends);
            let p = r.profile.unwrap();
            p.check().unwrap();
            let f = function(&p, "main");
            assert_eq!(f.tiered_up_at, Some(1001), "{ends}");
            assert_eq!(lines_form(f), expect(&want), "{ends}\n{src}");
            // The program's result is unchanged: sum of multiples of 3 below 3000 minus 2000.
            assert_eq!(r.exit_status, (1_498_500 - 2000) % 256, "{ends}");
            assert!(plain.is_empty());
        }
    }
}

const TRAP: &str = "#include <stdio.h>
int main(void) {
    int s = 0;
    for (int i = 3; i > -3; i--) {
        printf(\"%d\\n\", s);
        s += 60 / i;
    }
    return s;
}
";

/// A trap inside a profiled loop: iterations i = 3, 2, 1 complete (s = 20, 50, 110) and
/// i = 0 divides by zero (line 6) after printing. The loop is `Jmp test; body; test: Jcc
/// body`: its header is the test (line 4), and the body with the step `i--` (lines 5, 6 and 4)
/// is one block, so an iteration reads `4 5 6 -> 4`. The run exits with status 70, prints what came
/// before, and its profile is marked incomplete, with exactly the paths completed before the
/// trap: `header`: the entry path into the header (line 4) and the three iterations back to
/// it (i = 0's path is unfinished, never counted); `backedge`: the first iteration joins the
/// entry path, then two more. With `--tier-up 1`, `main` tiers up at its first backward jump
/// (heat 2): from the test (the header) into the body of i = 3, an edge that ends no path.
/// Under `header` the path in progress began at that test, so i = 3, 2, 1 are counted; under
/// `backedge` its start is unknown and it is dropped: i = 2 and i = 1.
#[test]
fn a_trap_inside_a_profiled_loop() {
    let by_definition = [
        (PathEnds::Header, vec![(3, "4 5 6 -> 4"), (1, "3 4 -> 4")]),
        (
            PathEnds::Backedge,
            vec![(2, "4 5 6 -> 4"), (1, "3 4 5 6 -> 4")],
        ),
    ];
    for (ends, want) in by_definition {
        assert_eq!(paths(TRAP, "main", ends), expect(&want), "{ends} recorder");
        for (mode, tier_up, want) in [
            (Mode::Bl, 0, want.clone()),
            (Mode::Trace, 0, want.clone()),
            (
                Mode::Bl,
                1,
                vec![(if ends == PathEnds::Header { 3 } else { 2 }, "4 5 6 -> 4")],
            ),
        ] {
            let what = format!("{mode} --tier-up {tier_up} {ends}");
            let (out, r) = run(TRAP, mode, tier_up, ends);
            assert_eq!(r.exit_status, vm::EXIT_RUNTIME_ERROR, "{what}");
            assert_eq!(
                String::from_utf8(out).unwrap(),
                "0\n20\n50\n110\n",
                "{what}"
            );
            assert!(r.stderr.contains("case.c:6:"), "{what}: {}", r.stderr);
            let p = r.profile.unwrap();
            p.check().unwrap();
            assert!(!p.complete, "{what}");
            assert_eq!(lines_form(function(&p, "main")), expect(&want), "{what}");
        }
    }
}

const TRAP_IN_TEST: &str = "int values[4] = {3, 1, 4, 1};
int main(void) {
    int s = 0;
    int i = 0;
    while (values[i] != 7) {
        s += values[i];
        i++;
    }
    return s;
}
";

/// A trap in a loop's test: the loop is `Jmp test; body; test: Jcc body`, its header the test
/// (line 5; the entry block ends with the `Jmp`, on line 5 too), which reads `values[4]` after
/// four iterations and stops the run there. `header`: the entry path into the test and four
/// iterations, the fourth completed on arriving at the test that traps (so `bl` may not count
/// the paths ending at this test at its branch, as `vm::modes::bl::delay` does for tests that
/// cannot trap); `backedge`: the first iteration joins the entry path, then three more, and the path the trap
/// interrupts (the test alone) is unfinished. Not compared with the block recorder, which
/// learns of a fall-through into a block only at the block's branch and so misses the arrival
/// at the test that traps.
#[test]
fn a_trap_in_a_loop_test() {
    let by_definition = [
        (
            PathEnds::Header,
            vec![(4, "5 6 7 -> 5"), (1, "2 3 4 5 -> 5")],
        ),
        (
            PathEnds::Backedge,
            vec![(3, "5 6 7 -> 5"), (1, "2 3 4 5 6 7 -> 5")],
        ),
    ];
    for (ends, want) in by_definition {
        for mode in [Mode::Bl, Mode::Trace] {
            let what = format!("{mode} {ends}");
            let (_, r) = run(TRAP_IN_TEST, mode, 0, ends);
            assert_eq!(r.exit_status, vm::EXIT_RUNTIME_ERROR, "{what}");
            assert!(r.stderr.contains("case.c:5:"), "{what}: {}", r.stderr);
            let p = r.profile.unwrap();
            assert!(!p.complete, "{what}");
            assert_eq!(lines_form(function(&p, "main")), expect(&want), "{what}");
        }
    }
}
