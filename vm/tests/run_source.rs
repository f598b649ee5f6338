//! The library API (Contract 4) end to end: exit statuses, runtime traps with locations and
//! stack traces, output flushed on traps, `exit`, and the probe hooks (including on-stack
//! replacement) the profilers build on.
//!
//! Expected outputs here follow from C's semantics by hand (gcc's own output for the same
//! programs is compared in the e2e differential tests).

use lang::bytecode::{FuncIdx, Pc};
use vm::interp::{execute, Exit, Machine};
use vm::probes::{Osr, Probes};
use vm::version::Version;
use vm::{run_source, RunOptions, EXIT_COMPILE_ERROR, EXIT_RUNTIME_ERROR};

fn run_with(src: &str, options: &RunOptions) -> (i32, String, String) {
    let mut out = Vec::new();
    let r = run_source("p.c", src, options, &mut out);
    (
        r.exit_status,
        String::from_utf8_lossy(&out).into_owned(),
        r.stderr,
    )
}

fn run(src: &str) -> (i32, String, String) {
    run_with(src, &RunOptions::default())
}

#[test]
fn main_result_is_the_exit_status_masked_to_a_byte() {
    let (status, out, err) = run("int main(void) { return 256 + 7; }");
    assert_eq!((status, out.as_str(), err.as_str()), (7, "", ""));
    let (status, _, _) = run("int main(void) { return -1; }");
    assert_eq!(status, 255);
}

#[test]
fn old_c_void_main_exits_with_status_0() {
    // gcc leaves whatever its last call returned (here `printf`'s 2) as the status of a
    // `void main`; the VM documents 0, from `return;` and from falling off the end, with
    // locals whose address is taken too (the frame-object return).
    let early = "#include <stdio.h>\nvoid main(void) { int n = 2; int *p = &n; \
                 printf(\"%d\\n\", *p); if (n > 1) return; printf(\"no\\n\"); }";
    assert_eq!(run(early), (0, "2\n".into(), String::new()));
    let end = "#include <stdio.h>\nvoid main() { printf(\"hi\\n\"); }";
    assert_eq!(run(end), (0, "hi\n".into(), String::new()));
    let args = "#include <stdio.h>\nvoid main(int argc, char **argv) { printf(\"%d\\n\", argc); }";
    assert_eq!(run(args), (0, "1\n".into(), String::new()));
}

#[test]
fn a_failed_assert_stops_with_the_assertion_and_its_place_after_the_output() {
    // glibc prints `prog: p.c:3: check: Assertion `x < 2' failed.` and aborts (status 134);
    // the VM exits with that status, its report a runtime error's.
    let src = "#include <stdio.h>\n#include <assert.h>\n\
               int check(int x) { assert(x < 2); return x; }\n\
               int main(void) { for (int i = 0; i < 4; i++) printf(\"%d\\n\", check(i)); return 0; }";
    let (status, out, err) = run(src);
    assert_eq!(status, 134);
    assert_eq!(out, "0\n1\n");
    assert!(
        err.starts_with(
            "p.c:3:20: runtime error: assertion `x < 2` failed at p.c:3 in function `check`"
        ),
        "{err}"
    );
    // Switched off by NDEBUG before the header, the expression is not even evaluated.
    let off = "#define NDEBUG\n#include <assert.h>\n#include <stdio.h>\n\
               int main(void) { int n = 0; assert(n++); printf(\"%d\\n\", n); return 0; }";
    assert_eq!(run(off), (0, "0\n".into(), String::new()));
}

#[test]
fn abort_ends_the_program_with_sigabrts_status() {
    // glibc's abort raises SIGABRT: a shell sees status 134. (glibc does not flush stdout's
    // buffer then; the VM writes what the program printed, as it does after any runtime error.)
    let src = "#include <stdio.h>\n#include <stdlib.h>\n\
               void check(int n) { if (n > 2) abort(); }\n\
               int main(void) { for (int i = 0; i < 5; i++) { check(i); printf(\"%d\\n\", i); } return 0; }";
    let (status, out, err) = run(src);
    assert_eq!(status, 134);
    assert_eq!(out, "0\n1\n2\n");
    assert!(
        err.starts_with("p.c:3:32: runtime error: the program called abort()"),
        "{err}"
    );
}

#[test]
fn exit_ends_the_program_from_any_depth() {
    let src = "#include <stdio.h>\n#include <stdlib.h>\n\
               void f(int n) { if (n == 0) { printf(\"bye\\n\"); exit(3); } f(n - 1); }\n\
               int main(void) { f(5); printf(\"not reached\\n\"); return 0; }";
    assert_eq!(run(src), (3, "bye\n".into(), String::new()));
}

#[test]
fn compile_errors_exit_65_with_diagnostics() {
    let (status, out, err) = run("int main(void) { return y; }");
    assert_eq!(status, EXIT_COMPILE_ERROR);
    assert_eq!(out, "");
    assert!(err.starts_with("p.c:1:25: error:"), "{err}");
}

#[test]
fn division_by_zero_reports_location_and_trace_after_flushing_output() {
    let src = "#include <stdio.h>\n\
               int q(int a, int b) {\n    return a / b;\n}\n\
               int main(void) {\n    printf(\"before\\n\");\n    return q(1, 0);\n}\n";
    let (status, out, err) = run(src);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert_eq!(out, "before\n");
    assert_eq!(
        err,
        "p.c:3:12: runtime error: integer division by zero\n\
         stack trace (innermost first):\n  q at p.c:3:12\n  main at p.c:7:12\n"
    );
}

#[test]
fn remainder_by_zero_and_wrapping_division() {
    let (status, _, err) = run("int main(void) { long z = 0; return (int)(5L % z); }");
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(err.contains("integer remainder by zero"), "{err}");
    // INT_MIN / -1 wraps (gcc -fwrapv semantics), and INT_MIN % -1 is 0: no trap.
    let src = "#include <stdio.h>\nint main(void) { int m = -2147483647 - 1; int d = -1;\n\
               printf(\"%d %d\\n\", m / d, m % d); return 0; }";
    assert_eq!(run(src), (0, "-2147483648 0\n".into(), String::new()));
}

#[test]
fn each_index_is_checked_against_its_own_dimension() {
    // m[0][5] is inside the 12 elements but outside the second dimension (4).
    let src = "int m[3][4];\nint main(void) {\n    int j = 5;\n    return m[0][j];\n}\n";
    let (status, _, err) = run(src);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(
        err.starts_with(
            "p.c:4:12: runtime error: array index 5 out of bounds for dimension of size 4"
        ),
        "{err}"
    );
    let src = "int main(void) {\n    int a[3];\n    int i = -1;\n    a[i] = 2;\n    return 0;\n}\n";
    let (status, _, err) = run(src);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(err.contains("array index -1 out of bounds"), "{err}");
}

#[test]
fn array_parameters_are_checked_against_the_callers_array() {
    let src = "void set(int a[], int i) { a[i] = 1; }\n\
               int main(void) { int v[4]; set(v, 3); set(v, 4); return 0; }";
    let (status, _, err) = run(src);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(
        err.contains("index 4 out of bounds for dimension of size 4"),
        "{err}"
    );
    assert!(err.contains("  set at p.c:1:28\n  main at p.c:2:"), "{err}");
}

#[test]
fn shift_counts_are_checked_for_the_promoted_type() {
    let (status, _, err) = run("int main(void) { int k = 32; return 1 << k; }");
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(
        err.contains("shift count 32 out of range for a 32-bit operand"),
        "{err}"
    );
    let (status, _, err) = run("int main(void) { int k = -1; return 8 >> k; }");
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(err.contains("shift count -1 out of range"), "{err}");
    // 64-bit operands accept counts up to 63.
    let (status, _, _) = run("int main(void) { int k = 40; return (int)((1L << k) >> 38); }");
    assert_eq!(status, 4);
}

#[test]
fn recursion_deeper_than_max_depth_traps_with_a_collapsed_trace() {
    let src = "int down(int n) {\n    return n == 0 ? 0 : 1 + down(n - 1);\n}\n\
               int main(void) {\n    return down(100);\n}\n";
    assert_eq!(run(src).0, 100);
    let (status, _, err) = run_with(
        src,
        &RunOptions {
            max_depth: 50,
            ..RunOptions::default()
        },
    );
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(err.contains("more than 50 active calls"), "{err}");
    // main plus 49 activations of down (the innermost is the one calling); the repeated call
    // site shows once with its count.
    assert!(err.contains("  down at p.c:2:29 (x49)\n"), "{err}");
    assert!(err.ends_with("  main at p.c:5:12\n"), "{err}");
}

#[test]
fn then_branch_ending_in_a_jump_still_falls_out_through_inner_ifs() {
    // The then-branch's last instruction is `break`'s jump, but its inner `if` can also leave
    // it at the bottom: that path must skip the else-branch. (A generated program found this.)
    let src = "int main(void) {\n    int r = 0;\n    for (int i = 0; i < 4; i++) {\n\
               if (i < 2) {\n            if (i == 1) break;\n        } else {\n\
               r += 100;\n        }\n        r += 1;\n    }\n    return r;\n}\n";
    assert_eq!(run(src).0, 1);
    let src = "int f(int x) {\n    if (x > 0) {\n        if (x > 5) return 2;\n    } else {\n\
               return 3;\n    }\n    return 4;\n}\nint main(void) { return f(1) * 10 + f(9); }";
    assert_eq!(run(src).0, 42);
}

#[test]
fn immediate_operand_forms_keep_c_semantics() {
    // Every right operand is a constant (immediate forms), every left operand a variable.
    let src = "#include <stdio.h>\nint main(void) {\n\
        int m = -2147483647 - 1, n = -7, one = 1, seven = 7;\n\
        unsigned u = 4294967289u;\n\
        unsigned long ul = 18446744073709551615ul;\n\
        long l = -9;\n\
        printf(\"%d %d %d %d\\n\", m / -1, n % 3, n / 2, n * -3);\n\
        printf(\"%u %u %u %u\\n\", u / 2u, u % 10u, u * 3u, u >> 31);\n\
        printf(\"%lu %lu %ld %ld\\n\", ul % 7ul, ul / 3ul, l / 4, l % 4);\n\
        printf(\"%d %d %d %d %ld\\n\", n >> 1, one << 31, seven & -2, n & 255, l << 62);\n\
        return 0;\n}\n";
    let (status, out, err) = run(src);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "-2147483648 -1 -3 21\n\
         2147483644 9 4294967275 1\n\
         1 6148914691236517205 -2 -1\n\
         -4 -2147483648 6 249 -4611686018427387904\n"
    );
}

#[test]
fn chained_assignments_of_constants_to_elements_store_every_element() {
    // The inner `b[1] = 5` is used as a value: it must not become a value-less store.
    let src = "int main(void) {\n    int a[2], b[2];\n    a[0] = b[1] = 5;\n\
               a[1] = 7;\n    return a[0] + b[1] + a[1];\n}\n";
    assert_eq!(run(src).0, 17);
}

#[test]
fn constant_true_if_with_an_empty_then_branch_skips_its_else_at_a_loop_top_or_case() {
    // `if (5) {} else {...}` emits no instruction before the else-branch's jump; at a loop's top
    // or a `case` label right after a jump, that position must still count as reachable (the
    // back edge or the switch's jump arrives there later). A generated program found this.
    let src = "int main(void) {\n    int r = 0;\n    for (int i = 2; i > 0; --i) {\n\
               if (5) { } else { r += 100; }\n    }\n    int w = 2;\n    while (w-- > 0) {\n\
               if (1) { } else { r += 1000; }\n    }\n    do {\n\
               if (7) { } else { r += 10000; }\n    } while (0);\n\
               for (int c = 0; c < 2; c++) {\n        switch (c) {\n        case 0:\n\
               break;\n        case 1:\n            if (3) { } else { r += 7; }\n\
               r += 1;\n            break;\n        }\n    }\n    return r;\n}\n";
    assert_eq!(run(src).0, 1);
}

/// Counts what the hooks see, and optionally switches every frame of `main` to another code
/// version at its first loop-header arrival.
#[derive(Default)]
struct Counting {
    entries: Vec<u16>,
    branches: usize,
    taken: usize,
    back_edges: usize,
    switches: usize,
    returns: usize,
    osr_to: Option<u32>,
    osr_done: bool,
}

impl Probes for Counting {
    const ENABLED: bool = true;
    const BRANCHES: bool = true;

    fn on_entry(&mut self, func: FuncIdx) {
        self.entries.push(func.0);
    }

    fn on_branch(&mut self, _func: FuncIdx, _pc: Pc, taken: bool) {
        self.branches += 1;
        self.taken += usize::from(taken);
    }

    fn on_switch(&mut self, _func: FuncIdx, _pc: Pc, _target: Pc) {
        self.switches += 1;
    }

    fn on_back_edge(&mut self, _func: FuncIdx, _pc: Pc, target: Pc) -> Option<Osr> {
        self.back_edges += 1;
        match self.osr_to {
            Some(version) if !self.osr_done => {
                self.osr_done = true;
                Some(Osr {
                    version,
                    pc: target,
                    path: None,
                })
            }
            _ => None,
        }
    }

    fn on_return(&mut self, _func: FuncIdx) {
        self.returns += 1;
    }
}

const LOOPS: &str = "#include <stdio.h>\n\
    int sq(int x) { return x * x; }\n\
    int main(void) {\n\
        int s = 0;\n\
        for (int i = 0; i < 10; i++) {\n\
            switch (i % 4) { case 0: s += sq(i); break; case 1: s -= 1; break; case 2: s += 2; break; case 3: s += 3; break; default: s = -1000; }\n\
        }\n\
        printf(\"%d\\n\", s);\n\
        return 0;\n\
    }\n";

#[test]
fn probes_see_entries_branches_back_edges_switches_and_returns() {
    let program = lang::compile_source("p.c", LOOPS).expect("compiles");
    let mut m = Machine::new(&program, 100);
    let mut probes = Counting::default();
    let mut out = Vec::new();
    let exit = execute(&mut m, &mut probes, &mut out).expect("runs");
    m.flush(&mut out);
    assert_eq!(exit, Exit::Return(0));
    // i%4==0: sq(0)+sq(4)+sq(8) = 80; ==1: i=1,5,9 -> -3; ==2: i=2,6 -> +4; ==3: i=3,7 -> +6
    assert_eq!(String::from_utf8(out).unwrap(), "87\n");
    let main = program.main.0;
    let sq = 1 - main;
    let mut expected = vec![main];
    expected.extend([sq; 3]);
    assert_eq!(probes.entries, expected);
    // The loop test runs once at the top (not taken) and 10 times at the bottom (9 taken
    // back edges); the switch dispatches 10 times.
    assert_eq!(probes.back_edges, 9);
    assert_eq!(probes.switches, 10);
    assert!(probes.branches >= 11, "{}", probes.branches);
    assert_eq!(probes.returns, 4);
}

#[test]
fn on_stack_replacement_continues_in_another_version() {
    let program = lang::compile_source("p.c", LOOPS).expect("compiles");
    let mut m = Machine::new(&program, 100);
    // A second version of main: the same code (an instrumented copy would add probes but
    // keep the layout). Switching to it at a loop header must not change the result.
    let f = &program.functions[program.main.index()];
    let v = m
        .add_version(Version {
            func: program.main,
            code: f.code.clone().into_boxed_slice(),
            locs: f.locs.clone().into_boxed_slice(),
            tables: f.tables.clone().into_boxed_slice(),
            probe_consts: Box::new([]),
            path_end_pairs: Box::new([]),
            instrumented: false,
            tier0: false,
            calls_hooked: false,
            block_start: Box::new([]),
            counters: Default::default(),
            dense: Default::default(),
        })
        .expect("a copy of verified code verifies");
    let mut probes = Counting {
        osr_to: Some(v),
        ..Counting::default()
    };
    let mut out = Vec::new();
    let exit = execute(&mut m, &mut probes, &mut out).expect("runs");
    m.flush(&mut out);
    assert_eq!(exit, Exit::Return(0));
    assert!(probes.osr_done);
    assert_eq!(String::from_utf8(out).unwrap(), "87\n");
    assert_eq!(probes.back_edges, 9);
}

#[test]
fn versions_are_verified_before_they_can_run() {
    let program = lang::compile_source("p.c", LOOPS).expect("compiles");
    let mut m = Machine::new(&program, 100);
    let f = &program.functions[program.main.index()];
    let mut code = f.code.clone();
    code[0] = lang::bytecode::Instr::Mov {
        a: lang::bytecode::Reg(f.num_regs),
        b: lang::bytecode::Reg(0),
    };
    let bad = Version {
        func: program.main,
        code: code.into_boxed_slice(),
        locs: f.locs.clone().into_boxed_slice(),
        tables: f.tables.clone().into_boxed_slice(),
        probe_consts: Box::new([]),
        path_end_pairs: Box::new([]),
        instrumented: false,
        tier0: false,
        calls_hooked: false,
        block_start: Box::new([]),
        counters: Default::default(),
        dense: Default::default(),
    };
    let err = m
        .add_version(bad)
        .expect_err("out-of-window register is rejected");
    assert!(err.message.contains(">= "), "{err}");
}

#[test]
fn accesses_through_pointers_are_checked_against_their_object() {
    // C leaves each of these undefined; the VM stops like a sanitizer, naming the object and
    // the offset, after the output so far.
    let cases: &[(&str, &str)] = &[
        (
            "#include <stdio.h>\nint main(void) {\n  int a[4] = {1, 2, 3, 4};\n  int *p = a;\n  printf(\"x\\n\");\n  return p[4];\n}\n",
            "p.c:6:10: runtime error: out-of-bounds read of 4 bytes at offset 16 of 'a' (local of function main, 16 bytes)",
        ),
        (
            "#include <stdio.h>\nint g[2];\nint main(void) {\n  int *p = g;\n  printf(\"x\\n\");\n  p[-1] = 5;\n  return 0;\n}\n",
            "p.c:6:3: runtime error: out-of-bounds write of 4 bytes at offset -4 of 'g'",
        ),
        (
            "#include <stdio.h>\nint main(void) {\n  int *p = 0;\n  printf(\"x\\n\");\n  return *p;\n}\n",
            "p.c:5:10: runtime error: null pointer dereference (read of 4 bytes)",
        ),
        (
            "#include <stdio.h>\nint *f(void) { int local = 1; return &local; }\nint main(void) {\n  int *p = f();\n  printf(\"x\\n\");\n  return *p;\n}\n",
            "p.c:6:10: runtime error: read of 4 bytes at offset 0 of 'local' (local of function f, 4 bytes) after f returned",
        ),
        (
            "#include <stdio.h>\nint main(void) {\n  char c[8] = {0};\n  int *p = (int *)(c + 1);\n  printf(\"x\\n\");\n  return *p;\n}\n",
            "p.c:6:10: runtime error: misaligned read of 4 bytes at offset 1 of 'c'",
        ),
    ];
    assert_traps_after_x(cases);
}

#[test]
fn calls_through_bad_function_pointers_and_memory_limits_stop_the_program() {
    let cases: &[(&str, &str)] = &[
        (
            "#include <stdio.h>\nint (*f)(int);\nint main(void) {\n  printf(\"x\\n\");\n  return f(1);\n}\n",
            "p.c:5:10: runtime error: call through a null function pointer",
        ),
        (
            "#include <stdio.h>\nint two(int a, int b) { return a + b; }\nint main(void) {\n  int (*f)(int) = (int (*)(int))two;\n  printf(\"x\\n\");\n  return f(1);\n}\n",
            "p.c:6:10: runtime error: call of function `two` through a pointer with 1 argument, but it takes 2",
        ),
        (
            "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  printf(\"x\\n\");\n  char *p = malloc(3000000000UL);\n  return p != 0;\n}\n",
            "p.c:5:13: runtime error: out of memory: malloc of 3000000000 bytes",
        ),
        (
            "#include <stdio.h>\nint deep(int n) { int a[1000]; a[n % 1000] = n; return n == 0 ? 0 : a[n % 1000] + deep(n - 1); }\nint main(void) {\n  printf(\"x\\n\");\n  return deep(90000);\n}\n",
            "p.c:2:",
        ),
        (
            "#include <stdio.h>\n#include <stdlib.h>\nint first(int a[]) { int *p = a; return *p; }\nint *keep;\nint main(void) {\n  keep = malloc(8);\n  free(keep);\n  printf(\"x\\n\");\n  return first(keep);\n}\n",
            "p.c:9:10: runtime error: array argument: read of 4 bytes at offset 0 of heap block of 8 bytes",
        ),
    ];
    assert_traps_after_x(cases);
    // The stack overflow names the stack's size and the option that sets it.
    let (_, _, err) = run(cases[3].0);
    assert!(
        err.contains("stack overflow") && err.contains("--stack-size"),
        "{err}"
    );
}

#[test]
fn max_memory_bounds_the_heap_and_leaks_are_reported_at_exit() {
    let src = "#include <stdlib.h>\nint main(void) {\n  for (int i = 0; i < 100; i++) {\n    char *p = malloc(1 << 20);\n    if (!p) return 9;\n    p[0] = 1;\n  }\n  return 0;\n}\n";
    let options = RunOptions {
        memory: vm::MemoryLimits {
            max_memory: 80 << 20,
            stack_size: 1 << 20,
        },
        ..RunOptions::default()
    };
    let (status, _, err) = run_with(src, &options);
    assert_eq!(status, EXIT_RUNTIME_ERROR, "{err}");
    assert!(
        err.starts_with("p.c:4:15: runtime error: out of memory: malloc of 1048576 bytes")
            && err.contains("83886080"),
        "{err}"
    );
    // Within the default limit the program ends normally and its blocks are reported.
    let (status, _, err) = run(src);
    assert_eq!(status, 0, "{err}");
    assert!(
        err.contains("memory leak: 100 heap blocks (104857600 bytes) never freed")
            && err.contains("allocated at p.c:4:15"),
        "{err}"
    );
}

#[test]
fn a_program_using_library_code_in_c_keeps_its_own_lines() {
    // `qsort` links C library code after the program: the program's locations stay its own.
    let src = "#include <stdio.h>\n#include <stdlib.h>\nstatic int up(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\nint main(void) {\n  int v[4] = {3, 1, 2, 0};\n  qsort(v, 4, sizeof v[0], up);\n  printf(\"%d\\n\", v[0]);\n  return v[1] / v[0];\n}\n";
    let (status, out, err) = run(src);
    assert_eq!((status, out.as_str()), (EXIT_RUNTIME_ERROR, "0\n"), "{err}");
    assert!(
        err.starts_with("p.c:8:10: runtime error: integer division by zero"),
        "{err}"
    );
    let options = RunOptions {
        profile: vm::ProfileSettings {
            mode: vm::Mode::Bl,
            tier_up: 0,
            ..Default::default()
        },
        ..RunOptions::default()
    };
    let profile = run_source("p.c", src, &options, &mut Vec::new())
        .profile
        .unwrap();
    let files: Vec<(&str, &str, u32)> = profile
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f.file.as_str(), f.line))
        .collect();
    assert_eq!(&files[..2], [("up", "p.c", 3), ("main", "p.c", 4)]);
    assert!(files[2..].iter().all(|f| f.1 == "<qsort.c>"), "{files:?}");
}

/// Each program prints `x` then stops with a runtime error whose report starts as expected.
fn assert_traps_after_x(cases: &[(&str, &str)]) {
    for (src, expected) in cases {
        let (status, out, err) = run(src);
        assert_eq!(status, EXIT_RUNTIME_ERROR, "{src}\n{err}");
        assert_eq!(out, "x\n", "{src}");
        assert!(
            err.starts_with(expected),
            "{src}\nexpected: {expected}\ngot: {err}"
        );
    }
}

#[test]
fn branches_with_a_path_end_need_their_pair() {
    let program = lang::compile_source("p.c", LOOPS).expect("compiles");
    let mut m = Machine::new(&program, 100);
    let f = &program.functions[program.main.index()];
    let mut code = f.code.clone();
    let at = code
        .iter()
        .position(|i| {
            i.with_path_end_on_taken(lang::bytecode::PairIdx(0))
                .is_some()
        })
        .expect("main has a conditional branch");
    code[at] = code[at]
        .with_path_end_on_taken(lang::bytecode::PairIdx(0))
        .unwrap();
    assert_eq!(code[at].path_end_on_taken().unwrap().0, f.code[at]);
    let version = |pairs: &[[u64; 2]]| Version {
        func: program.main,
        code: code.clone().into_boxed_slice(),
        locs: f.locs.clone().into_boxed_slice(),
        tables: f.tables.clone().into_boxed_slice(),
        probe_consts: Box::new([]),
        path_end_pairs: pairs.into(),
        instrumented: true,
        tier0: false,
        calls_hooked: false,
        block_start: Box::new([]),
        counters: Default::default(),
        dense: Default::default(),
    };
    let err = m
        .add_version(version(&[]))
        .expect_err("a missing pair is rejected");
    assert!(
        err.message.contains("path-end pair e0 out of range"),
        "{err}"
    );
    m.add_version(version(&[[0, 0]]))
        .expect("a pair that exists verifies");
    // Compiled code never holds one.
    let mut compiled = f.clone();
    compiled.code = code.clone();
    assert!(lang::bytecode::verify::verify_function(&program, &compiled).is_err());
}
