//! The interpreter on hand-assembled bytecode: calls and returns, traps with stack traces,
//! the depth limit, printf sites and arrays, independent of the front end.

use lang::bytecode::{
    ArrayRef, ConstIdx, FuncIdx, Function, Instr, Loc, Pc, Program, Reg, Site, SiteArg, SiteIdx,
};
use lang::printf_format;
use vm::{run_program, RunOptions, EXIT_RUNTIME_ERROR};

fn func(name: &str, params: u16, regs: u16, code: Vec<Instr>) -> Function {
    let locs = (0..code.len())
        .map(|i| Loc {
            line: i as u32 + 1,
            col: 1,
        })
        .collect();
    Function {
        name: name.into(),
        loc: Loc { line: 1, col: 1 },
        file: 0,
        num_params: params,
        array_params: Vec::new(),
        num_locals: params,
        num_regs: regs,
        array_bytes: 0,
        frame_objects: Vec::new(),
        code,
        locs,
        consts: Vec::new(),
        shapes: Vec::new(),
        tables: Vec::new(),
        sites: Vec::new(),
    }
}

fn r(i: u16) -> Reg {
    Reg(i)
}

/// fib(n) = n < 2 ? n : fib(n-1) + fib(n-2), as the compiler would lay it out.
fn fib() -> Function {
    func(
        "fib",
        1,
        3,
        vec![
            Instr::JGeI {
                a: r(0),
                imm: 2,
                t: Pc(2),
            },
            Instr::Ret { a: r(0) },
            Instr::AddI32 {
                a: r(1),
                b: r(0),
                imm: -1,
            },
            Instr::Call {
                a: r(1),
                f: FuncIdx(0),
            },
            Instr::AddI32 {
                a: r(2),
                b: r(0),
                imm: -2,
            },
            Instr::Call {
                a: r(2),
                f: FuncIdx(0),
            },
            Instr::Add32 {
                a: r(0),
                b: r(1),
                c: r(2),
            },
            Instr::Ret { a: r(0) },
        ],
    )
}

fn program(functions: Vec<Function>, main: u16) -> Program {
    Program {
        functions,
        main: FuncIdx(main),
        globals: Vec::new(),
        memory_init: Vec::new(),
        globals_end: lang::bytecode::FIRST_GLOBAL,
        static_objects: Vec::new(),
        files: Vec::new(),
    }
}

fn run(p: &Program, depth: u32) -> (i32, String, String) {
    let mut out = Vec::new();
    let res = run_program(
        p,
        "t.c",
        &RunOptions {
            max_depth: depth,
            ..RunOptions::default()
        },
        &mut out,
    );
    (res.exit_status, String::from_utf8(out).unwrap(), res.stderr)
}

#[test]
fn recursive_fib_returns_through_frames() {
    let mut main = func(
        "main",
        0,
        2,
        vec![
            Instr::LoadI { a: r(1), imm: 20 },
            Instr::Call {
                a: r(1),
                f: FuncIdx(0),
            },
            Instr::Printf {
                a: r(1),
                p: SiteIdx(0),
            },
            Instr::LoadI { a: r(0), imm: 300 },
            Instr::Ret { a: r(0) },
        ],
    );
    main.sites.push(Site::Printf {
        format: printf_format::parse(b"fib=%d\n").unwrap(),
        args: vec![SiteArg::Int],
    });
    let (status, out, err) = run(&program(vec![fib(), main], 1), 1000);
    assert_eq!(err, "");
    assert_eq!(out, "fib=6765\n");
    // main's result is masked like a process exit status.
    assert_eq!(status, 300 & 255);
}

#[test]
fn division_by_zero_traps_with_a_stack_trace() {
    let callee = func(
        "divide",
        2,
        2,
        vec![
            Instr::Div32 {
                a: r(0),
                b: r(0),
                c: r(1),
            },
            Instr::Ret { a: r(0) },
        ],
    );
    let mut main = func(
        "main",
        0,
        3,
        vec![
            Instr::Puts {
                a: Reg(0),
                p: SiteIdx(0),
            },
            Instr::LoadI { a: r(1), imm: 7 },
            Instr::LoadI { a: r(2), imm: 0 },
            Instr::Call {
                a: r(1),
                f: FuncIdx(0),
            },
            Instr::Ret { a: r(1) },
        ],
    );
    main.sites.push(Site::Puts(b"before".to_vec()));
    let (status, out, err) = run(&program(vec![callee, main], 1), 1000);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert_eq!(out, "before\n", "output before the trap is flushed");
    assert_eq!(
        err,
        "t.c:1:1: runtime error: integer division by zero\n\
         stack trace (innermost first):\n  divide at t.c:1:1\n  main at t.c:4:1\n"
    );
}

#[test]
fn depth_limit_traps() {
    let (status, _, err) = {
        let mut main = func(
            "main",
            0,
            2,
            vec![
                Instr::LoadI { a: r(1), imm: 30 },
                Instr::Call {
                    a: r(1),
                    f: FuncIdx(0),
                },
                Instr::Ret { a: r(1) },
            ],
        );
        main.name = "main".into();
        run(&program(vec![fib(), main], 1), 10)
    };
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(
        err.contains("call depth limit exceeded: more than 10 active calls"),
        "{err}"
    );
    // main plus nine frames of fib are active, all at the same call (shown once, counted).
    assert!(
        err.contains("  fib at t.c:4:1 (x9)\n  main at t.c:2:1\n"),
        "{err}"
    );
}

#[test]
fn local_arrays_are_bounds_checked_per_dimension() {
    // int a[3][4]; a[2][3] = 5; return a[2][3] + a[1][4]  -> traps on the second index.
    let mut main = func(
        "main",
        0,
        6,
        vec![
            Instr::LocalArr {
                a: r(0),
                k: ConstIdx(0),
            },
            Instr::LoadI { a: r(1), imm: 2 },
            Instr::LoadI { a: r(2), imm: 3 },
            Instr::Row {
                a: r(3),
                b: r(0),
                c: r(1),
                s: lang::bytecode::ShapeIdx(0),
            },
            Instr::LoadI { a: r(4), imm: 5 },
            Instr::StE32 {
                a: r(4),
                b: r(3),
                c: r(2),
            },
            Instr::LdE32S {
                a: r(5),
                b: r(3),
                c: r(2),
            },
            Instr::LoadI { a: r(1), imm: 1 },
            Instr::LoadI { a: r(2), imm: 4 },
            Instr::Row {
                a: r(3),
                b: r(0),
                c: r(1),
                s: lang::bytecode::ShapeIdx(0),
            },
            Instr::LdE32S {
                a: r(4),
                b: r(3),
                c: r(2),
            },
            Instr::Ret { a: r(5) },
        ],
    );
    // 3 rows of 4 four-byte ints: 48 bytes, rows 16 bytes apart.
    main.array_bytes = 48;
    main.consts.push(ArrayRef { base: 0, dim: 3 }.pack());
    main.shapes.push(lang::bytecode::Shape {
        stride: 16,
        inner: 4,
    });
    let (status, _, err) = run(&program(vec![main], 0), 1000);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(
        err.starts_with(
            "t.c:11:1: runtime error: array index 4 out of bounds for dimension of size 4"
        ),
        "{err}"
    );
}

#[test]
fn verifier_rejects_out_of_window_registers() {
    let bad = func("main", 0, 1, vec![Instr::Ret { a: r(5) }]);
    let (status, _, err) = run(&program(vec![bad], 0), 10);
    assert_eq!(status, EXIT_RUNTIME_ERROR);
    assert!(err.contains("register r5 >= 1"), "{err}");
}
