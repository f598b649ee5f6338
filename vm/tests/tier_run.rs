//! Issue 4's oracle tests on every program of `programs/`, through the real run
//! (`vm::run_program`) in every profiling mode:
//!
//! - (a) `bl --tier-up 0` reports exactly what `trace` reports (every function: blocks,
//!   static paths, and the same `(id, count, blocks, end)` list), in both strategies, and both
//!   equal the paths by definition, split here from the run's time-ordered block trace
//!   ([`tier_support::TierReplay`] with threshold 0);
//! - (b) every reported path is a real path of its function's CFG (rebuilt here with
//!   `FunctionCfg::of_function` and the profiler's `DepthFirst`, not taken from the profile):
//!   consecutive blocks joined by edges none of which ends a path under the strategy, the first
//!   block the entry or the target of a cutting edge, `end: h` an edge from the last block that
//!   cuts, `end: null` a path that reached the exit (and the exit nowhere else);
//! - (c) the output bytes, the exit status and the diagnostics are those of `none` under
//!   `edge`, `trace` and `bl` with tier-up 0, 1, 7 and the default;
//! - (d) with a positive tier-up every count is at most the `trace` count of the same path,
//!   and a function that never tiered up has `tiered_up_at: null`, no paths, and its static
//!   path count;
//! - the stronger check of "the per-function totals match the path ends observed after
//!   tier-up": the tiering rule replayed over the time-ordered trace (heat = invocations plus
//!   backward jumps in baseline code; OSR at the next backward jump; see `TierReplay`) predicts
//!   every function's `tiered_up_at` and its exact path counts, which the `bl` run must report;
//!   and the same run with a logging sink (`tier_support::Observed`) shows the VM switching
//!   exactly the frames the replay switches by OSR, and handing the sink exactly as many path
//!   ends as the profile's totals;
//! - (e) determinism: two runs give byte-identical `Profile::to_json` (`bl`, default settings;
//!   on the programs with shorter traces, to keep the debug-build time down).
//!
//! Skipped in debug builds: `programs/twins/*.c` (benchmark twins: 10 to 50 s each per run in
//! a debug build, measured, against about 0.01 to 1 s for the other programs); they are
//! included by `cargo test --release`.

mod tier_support;

use profiler::PathEnds;
use tier_support::{base_name, check_tiering, run, run_chrono, sources, Stepper, TierReplay};
use vm::profile::{Mode, Profile};
use vm::tier::cfg_build::FunctionCfg;
use vm::DEFAULT_TIER_UP;

/// The tier-up thresholds run in each strategy (0: the oracle comparison).
const THRESHOLDS: &[(PathEnds, &[u64])] = &[
    (PathEnds::Header, &[0, 1, DEFAULT_TIER_UP]),
    (PathEnds::Backedge, &[0, 7, DEFAULT_TIER_UP]),
];

fn check_all(dir: &str, filter: impl Fn(&str) -> bool) -> usize {
    let mut seen = 0;
    for (name, src) in sources(dir) {
        if filter(base_name(&name)) {
            check_tiering(&name, &src, THRESHOLDS, true);
            seen += 1;
        }
    }
    seen
}

/// Programs `a*` to `l*` (split in two tests so that the harness runs them in parallel).
#[test]
fn programs_a_to_l() {
    let n = check_all("../programs", |n| n < "m");
    assert!(n >= 20, "{n}");
}

/// Programs `m*` to `z*`.
#[test]
fn programs_m_to_z() {
    let n = check_all("../programs", |n| n >= "m");
    assert!(n >= 20, "{n}");
}

/// The benchmark twins (release builds only: see the module docs).
#[cfg(not(debug_assertions))]
#[test]
fn twins() {
    let n = check_all("../programs/twins", |_| true);
    assert!(n >= 7, "{n}");
}

/// The replay itself on a program whose tiering is worked out by hand: `main` loops 3000
/// times (a `while`, whose backward jump goes from the test at the bottom, the header, into
/// the body), so with tier-up 1000 its heat (1 for the call, then 1 per backward jump) passes
/// 1000 at the 1000th jump, into the body of iteration 999. Under `header` the path in
/// progress began at the test (every arrival there ends a path): iterations 999..2999 are
/// counted, 2001 paths into the header. Under `backedge` its start is unknown: it is dropped,
/// and iterations 1000..2999 are counted. Both end with the last test out to the return.
#[test]
fn replay_of_a_worked_example() {
    let src = "int main(void) {
    int s = 0;
    int i = 0;
    while (i < 3000) {
        s += i;
        i++;
    }
    return s % 256;
}
";
    let program = lang::compile_source("w.c", src).unwrap();
    let cfgs: Vec<FunctionCfg> = program
        .functions
        .iter()
        .map(|f| FunctionCfg::of_function(f).unwrap())
        .collect();
    let mut header = TierReplay::new(cfgs.len(), 1000, PathEnds::Header);
    let mut backedge = TierReplay::new(cfgs.len(), 1000, PathEnds::Backedge);
    let mut stepper = Stepper::new(&cfgs);
    run_chrono(&program, &cfgs, PathEnds::Header, |ev| {
        let step = stepper.step(ev);
        header.event(&step);
        backedge.event(&step);
    });
    for (r, mid_path, total) in [(&header, 0, 2002), (&backedge, 1, 2001)] {
        assert_eq!(r.heat.tiered_up_at[0], Some(1001));
        assert_eq!((r.osr_frames[0], r.osr_mid_path[0]), (1, mid_path));
        assert_eq!(r.counts[0].total(), total);
    }
}

#[test]
fn profile_has_every_function_in_program_order() {
    let src = "int g(int x) { return x + 1; }\nint main(void) { return g(1) - 3; }\n";
    let program = lang::compile_source("o.c", src).unwrap();
    let r = run(&program, "o.c", Mode::Bl, 0, PathEnds::Header);
    let p: &Profile = r.result.profile.as_ref().unwrap();
    let names: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
    let want: Vec<&str> = program.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, want);
    assert_eq!(r.result.exit_status, 255);
}

/// Tiering corner cases, each through every check of `check_tiering` at thresholds low enough
/// that functions tier up in the middle of everything (the replay says what must be counted):
/// a loop at a function's first instruction (a virtual entry, backward jumps to pc 0), nested
/// loops, recursion out of a loop body (deep frames tier up first, outer frames switch at
/// their next backward jump), a `switch` with `continue` in a loop, `exit` from a loop of a
/// callee, a trap deep in a recursion, mutual recursion, `&&` loop tests, `for (;;)` with
/// `break`.
#[test]
fn tiering_corner_cases() {
    const CASES: &[(&str, &str)] = &[
        (
            "loop_at_pc0.c",
            "int spin(int n) {
    do {
        n = n - 1;
    } while (n > 0);
    return n;
}
int main(void) {
    int s = 0;
    for (int i = 0; i < 20; i++) s += spin(i + 30);
    return s;
}
",
        ),
        (
            "nested.c",
            "int main(void) {
    int s = 0;
    for (int i = 0; i < 30; i++)
        for (int j = 0; j < 30; j++)
            if ((i ^ j) & 1) s++;
            else s += 2;
    return s % 256;
}
",
        ),
        (
            "rec_loop.c",
            "int rec(int d) {
    int s = 0;
    for (int i = 0; i < 5; i++) {
        s += i;
        if (d > 0 && i == 2) s += rec(d - 1);
    }
    return s;
}
int main(void) { return rec(6) % 256; }
",
        ),
        (
            "switch_loop.c",
            "int main(void) {
    int s = 0;
    int i = 0;
    while (i < 100) {
        switch (i % 4) {
        case 0: s += 1;
        case 1: s += 2; break;
        case 2: i++; continue;
        default: s -= 1;
        }
        i++;
    }
    return s % 256;
}
",
        ),
        (
            "exit_in_loop.c",
            "#include <stdlib.h>
int deep(int n) {
    int i = 0;
    while (1) {
        i++;
        if (i > n) {
            if (n > 40) exit(3);
            return i;
        }
    }
    return 0;
}
int main(void) {
    int s = 0;
    for (int k = 1; k <= 5; k++) s += deep(k * 10);
    return s;
}
",
        ),
        (
            "trap_in_recursion.c",
            "#include <stdio.h>
int f(int n) {
    int s = 0;
    for (int i = 0; i < 10; i++) s += 100 / (n - 3);
    if (n > 0) s += f(n - 1);
    return s;
}
int main(void) {
    printf(\"start\\n\");
    return f(30) % 256;
}
",
        ),
        (
            "mutual.c",
            "int odd(int n);
int even(int n) {
    int s = 0;
    for (int i = 0; i < n % 3; i++) s++;
    return n == 0 ? 1 : odd(n - 1) + s;
}
int odd(int n) {
    int s = 0;
    while (s < n % 4) s++;
    return n == 0 ? 0 : even(n - 1) + s;
}
int main(void) {
    int t = 0;
    for (int k = 0; k < 12; k++) t += even(k);
    return t % 256;
}
",
        ),
        (
            "and_loop.c",
            "int a[20] = {5, 4, 3, 2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5};
int main(void) {
    int s = 0;
    for (int k = 0; k < 10; k++) {
        int i = k;
        while (i < 20 && a[i] != 0) {
            s += a[i];
            i++;
        }
        for (;;) {
            if (s % 7 == 0) break;
            s++;
        }
    }
    return s % 256;
}
",
        ),
    ];
    const LOW: &[(PathEnds, &[u64])] = &[
        (PathEnds::Header, &[0, 1, 2, 3, 10]),
        (PathEnds::Backedge, &[0, 1, 4, 10]),
    ];
    for (name, src) in CASES {
        check_tiering(name, src, LOW, true);
    }
}
