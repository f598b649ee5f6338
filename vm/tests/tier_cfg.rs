//! The bytecode CFG builder (`vm::tier::cfg_build`) on every function of `programs/*.c` and on
//! small snippets whose block structure follows from C's semantics.
//!
//! The invariants are checked against the bytecode's own view of control flow
//! (`Function::successors`, `Instr::flow`), recomputed here independently of the builder.

use std::collections::BTreeSet;
use std::path::PathBuf;

use lang::bytecode::{Flow, Function, Pc, Program};
use profiler::dominators::{is_reducible, Dominators};
use profiler::{Block, DepthFirst, Loops};
use vm::tier::cfg_build::{BcEdge, BlockKind, FunctionCfg, Way};

fn compile(name: &str, src: &str) -> Program {
    match lang::compile_source(name, src) {
        Ok(p) => p,
        Err(d) => panic!("{}", d.render(name, src)),
    }
}

fn function<'p>(p: &'p Program, name: &str) -> &'p Function {
    p.functions.iter().find(|f| f.name == name).unwrap()
}

/// Pcs reachable from pc 0 along `Function::successors`.
fn reachable_pcs(f: &Function) -> Vec<bool> {
    let mut seen = vec![false; f.code.len()];
    let mut work = vec![0usize];
    seen[0] = true;
    while let Some(pc) = work.pop() {
        for t in f.successors(pc) {
            if !seen[t.index()] {
                seen[t.index()] = true;
                work.push(t.index());
            }
        }
    }
    seen
}

fn leaves(f: &Function, pc: usize) -> bool {
    matches!(f.code[pc].flow(), Flow::Return | Flow::Halt)
}

/// Checks every invariant of the module documentation on one function.
/// Returns whether the CFG is reducible.
fn check_invariants(f: &Function) -> bool {
    let fc = FunctionCfg::of_function(f).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    let cfg = fc.cfg();
    let n = f.code.len();
    let reach = reachable_pcs(f);
    let name = &f.name;
    // Every reachable pc is in exactly one block, unreachable ones in none.
    let mut owner = vec![None; n];
    let mut last_end = 0;
    for (b, info) in fc.blocks() {
        if let BlockKind::Code { start, end } = info.kind {
            assert!(start < end, "{name}: empty block {b}");
            assert!(start.index() >= last_end, "{name}: blocks out of pc order");
            last_end = end.index();
            for (pc, slot) in owner
                .iter_mut()
                .enumerate()
                .take(end.index())
                .skip(start.index())
            {
                assert!(slot.is_none(), "{name}: @{pc} in two blocks");
                *slot = Some(b);
                assert_eq!(fc.block_of_pc(Pc(pc as u16)), Some(b));
            }
            // Lines: the span of the block's instructions.
            let lines: Vec<u32> = f.locs[start.index()..end.index()]
                .iter()
                .map(|l| l.line)
                .filter(|&l| l != 0)
                .collect();
            let expect = lines
                .iter()
                .min()
                .map(|&lo| [lo, *lines.iter().max().unwrap()]);
            assert_eq!(info.lines, expect, "{name}: lines of {b}");
        }
    }
    for pc in 0..n {
        assert_eq!(owner[pc].is_some(), reach[pc], "{name}: @{pc}");
    }
    assert_eq!(fc.num_dropped_pcs(), reach.iter().filter(|r| !**r).count());
    // Block boundaries: a reachable pc starts a block iff it is 0, or the previous instruction
    // does not fall through to it, or some other reachable instruction jumps to it.
    let mut jumped_to = vec![false; n];
    for pc in (0..n).filter(|&pc| reach[pc]) {
        for t in f.successors(pc) {
            let falls = t.index() == pc + 1 && matches!(f.code[pc].flow(), Flow::Next | Flow::Call);
            if !falls {
                jumped_to[t.index()] = true;
            }
        }
    }
    for pc in (0..n).filter(|&pc| reach[pc]) {
        let starts = pc == 0
            || jumped_to[pc]
            || !reach[pc - 1]
            || !matches!(f.code[pc - 1].flow(), Flow::Next | Flow::Call);
        let b = owner[pc].unwrap();
        assert_eq!(
            fc.first_pc(b) == Some(Pc(pc as u16)),
            starts,
            "{name}: does @{pc} start a block?"
        );
    }
    // Successors agree with the bytecode, in order (duplicates removed); returns and `Exit`
    // go to the exit; the exit's predecessors are exactly those blocks.
    for b in cfg.blocks() {
        let info = fc.block(b);
        match info.kind {
            BlockKind::Code { end, .. } => {
                let last = end.index() - 1;
                let mut expect: Vec<Block> = Vec::new();
                if leaves(f, last) {
                    expect.push(cfg.exit());
                }
                for t in f.successors(last) {
                    let tb = fc.block_of_pc(t).unwrap();
                    assert_eq!(fc.first_pc(tb), Some(t), "{name}: target @{t} mid-block");
                    if !expect.contains(&tb) {
                        expect.push(tb);
                    }
                }
                assert_eq!(cfg.successors(b), &expect[..], "{name}: successors of {b}");
                for e in cfg.succ_edges(b) {
                    let bcs = fc.bytecode_edges(e);
                    assert!(!bcs.is_empty(), "{name}: {e} stands for no bytecode edge");
                    for &bc in bcs {
                        assert_eq!(bc.pc.index(), last);
                        assert_eq!(fc.edge(bc), Some(e), "{name}: {bc}");
                    }
                }
            }
            BlockKind::Entry => {
                assert_eq!(b, cfg.entry());
                assert!(jumped_to[0], "{name}: virtual entry without a jump to pc 0");
                assert_eq!(cfg.successors(b), &[fc.block_of_pc(Pc(0)).unwrap()]);
                assert!(fc.bytecode_edges(cfg.succ_edge(b, 0)).is_empty());
            }
            BlockKind::Exit => assert_eq!(b, cfg.exit()),
        }
    }
    let returning: BTreeSet<Block> = (0..n)
        .filter(|&pc| reach[pc] && leaves(f, pc))
        .map(|pc| owner[pc].unwrap())
        .collect();
    let preds: BTreeSet<Block> = cfg.predecessors(cfg.exit()).collect();
    assert_eq!(preds, returning, "{name}: predecessors of the exit");
    // Entry: pc 0's block, or the virtual entry exactly when something jumps to pc 0.
    assert_eq!(fc.has_virtual_entry(), jumped_to[0], "{name}");
    if !jumped_to[0] {
        assert_eq!(fc.first_pc(cfg.entry()), Some(Pc(0)));
    }
    assert_eq!(cfg.exit().index(), fc.num_blocks() - 1);
    // Blocks that cannot reach the exit lead into a loop the function never leaves (a
    // `while (1)` whose way out is `exit` in a callee); the graph is reducible.
    let dfs = DepthFirst::compute(cfg);
    let loops = Loops::compute(cfg, &dfs);
    let stuck = cfg.blocks_not_reaching_exit();
    if !stuck.is_empty() {
        assert!(
            loops
                .ids()
                .any(|l| loops.blocks(l).iter().all(|b| stuck.contains(b))),
            "{name}: {stuck:?} cannot reach the exit but hold no inescapable loop"
        );
    }
    let doms = Dominators::compute(cfg, &dfs);
    let reducible = is_reducible(cfg, &dfs, &doms);
    check_loop_shapes(f, &fc, &dfs, &reach, reducible);
    reducible
}

/// The module documentation's claims about loops: every backward pc jump lies inside a loop
/// (both ends in one natural loop); every loop contains a backward pc jump (so tier 0's hook
/// fires once per iteration); in a reducible CFG headers are loop entries (the header
/// dominates its loop; in an irreducible one a block of the loop is reached from the entry
/// without it, by a `goto` into the loop); each header's yield point starts it.
fn check_loop_shapes(
    f: &Function,
    fc: &FunctionCfg,
    dfs: &DepthFirst,
    reach: &[bool],
    reducible: bool,
) {
    let cfg = fc.cfg();
    let name = &f.name;
    let loops = Loops::compute(cfg, dfs);
    let doms = Dominators::compute(cfg, dfs);
    let mut backward = Vec::new();
    for pc in (0..f.code.len()).filter(|&pc| reach[pc]) {
        for t in f.successors(pc) {
            if t.index() <= pc {
                backward.push((
                    fc.block_of_pc(Pc(pc as u16)).unwrap(),
                    fc.block_of_pc(t).unwrap(),
                ));
            }
        }
    }
    for &(u, v) in &backward {
        assert!(
            loops
                .ids()
                .any(|l| loops.contains(l, u) && loops.contains(l, v)),
            "{name}: backward jump {u} -> {v} outside every loop"
        );
    }
    for l in loops.ids() {
        assert!(
            backward
                .iter()
                .any(|&(u, v)| loops.contains(l, u) && loops.contains(l, v)),
            "{name}: loop {l} has no backward jump"
        );
        let h = loops.header(l);
        if reducible {
            for &b in loops.blocks(l) {
                assert!(doms.dominates(h, b), "{name}: {h} does not dominate {b}");
            }
        }
    }
    let yields = fc.yield_points(dfs);
    assert_eq!(yields.len(), dfs.headers().len(), "{name}");
    for (h, pc) in yields {
        assert_eq!(fc.block_starting_at(pc), Some(h));
    }
}

#[test]
fn every_function_of_the_programs_has_a_well_formed_cfg() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "expected the programs/ corpus");
    let mut functions = 0;
    let mut headers = 0;
    let mut irreducible = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let program = compile(&path.display().to_string(), &src);
        for f in &program.functions {
            // Structured code compiles to reducible CFGs; only a `goto` (into a loop) can make
            // one irreducible.
            if !check_invariants(f) {
                // The function's source: from its line to the next function's.
                let from = f.loc.line as usize;
                let to = program
                    .functions
                    .iter()
                    .map(|g| g.loc.line as usize)
                    .filter(|&l| l > from)
                    .min()
                    .unwrap_or(usize::MAX);
                let text: Vec<&str> = src
                    .lines()
                    .skip(from.saturating_sub(1))
                    .take(to - from)
                    .collect();
                // Only a jump into a loop makes a CFG irreducible: a `goto`, or a `case`
                // label inside a loop inside its switch (Duff's device).
                let has = |word: &str| text.iter().any(|l| l.contains(word));
                let switch_into_loop =
                    has("switch") && (has("do {") || has("while (") || has("for ("));
                assert!(
                    has("goto") || switch_into_loop,
                    "{}: {}: irreducible without goto or a switch into a loop",
                    path.display(),
                    f.name
                );
                irreducible.push(f.name.clone());
            }
            let fc = FunctionCfg::of_function(f).unwrap();
            headers += DepthFirst::compute(fc.cfg()).headers().len();
            functions += 1;
        }
    }
    assert!(functions > 100, "{functions}");
    assert!(headers > 50, "{headers}");
    // The goto programs have loops with two entries (`programs/goto_*.c`).
    for f in [
        "two_entries",
        "two_way_entry",
        "ping_pong",
        "machine",
        "walk",
    ] {
        assert!(irreducible.iter().any(|g| g == f), "{f}: {irreducible:?}");
    }
}

/// A compact, pc-free description: per block, its kind or lines, then each successor with the
/// bytecode ways that lead there.
fn describe(fc: &FunctionCfg) -> String {
    let cfg = fc.cfg();
    let mut out = String::new();
    for (b, info) in fc.blocks() {
        let what = match (info.kind, info.lines) {
            (BlockKind::Entry, _) => "entry".to_string(),
            (BlockKind::Exit, _) => "exit".to_string(),
            (BlockKind::Code { .. }, Some([a, z])) if a == z => format!("L{a}"),
            (BlockKind::Code { .. }, Some([a, z])) => format!("L{a}-{z}"),
            (BlockKind::Code { .. }, None) => "L?".to_string(),
        };
        out.push_str(&format!("{b} {what}"));
        for e in cfg.succ_edges(b) {
            let ways: Vec<String> = fc
                .bytecode_edges(e)
                .iter()
                .map(|bc| bc.way.to_string())
                .collect();
            out.push_str(&format!(" -> {} [{}]", cfg.target(e), ways.join(",")));
        }
        out.push('\n');
    }
    out
}

fn cfg_of(src: &str, name: &str) -> (Function, FunctionCfg) {
    let p = compile("snippet.c", src);
    let f = function(&p, name).clone();
    assert!(check_invariants(&f), "{name}: irreducible");
    let fc = FunctionCfg::of_function(&f).unwrap();
    (f, fc)
}

#[test]
fn straight_line_code_is_one_block_then_the_exit() {
    let src =
        "int f(int x) {\n  int y = x * 2;\n  return y + 1;\n}\nint main(void) { return f(1); }\n";
    let (_, fc) = cfg_of(src, "f");
    assert_eq!(describe(&fc), "b0 L2-3 -> b1 [leave]\nb1 exit\n");
}

#[test]
fn a_loop_entered_at_the_top_of_the_code_gets_a_virtual_entry() {
    let src = "int f(int n) {\n  do {\n    n--;\n  } while (n > 0);\n  return n;\n}\nint main(void) { return f(5); }\n";
    let (_, fc) = cfg_of(src, "f");
    // The do-while body and test form one block that loops to itself.
    assert_eq!(
        describe(&fc),
        "b0 entry -> b1 []\nb1 L3-4 -> b2 [next] -> b1 [taken]\nb2 L5 -> b3 [leave]\nb3 exit\n"
    );
    let dfs = DepthFirst::compute(fc.cfg());
    let yields = fc.yield_points(&dfs);
    assert_eq!(yields, vec![(Block::new(1), Pc(0))]);
}

#[test]
fn switch_arms_sharing_a_target_share_an_edge_and_fallthrough_is_an_edge() {
    let src = "int g(int x) {
  switch (x) {
  case 0: x = 5;
  case 1: case 2: x = x + 1; break;
  case 3: return 7;
  case 4: x = 9; break;
  default: x = 0;
  }
  return x;
}
int main(void) { return g(1); }
";
    let (f, fc) = cfg_of(src, "g");
    let d = describe(&fc);
    if f.tables.is_empty() {
        // A compiler may lower a small switch to compare-and-branch chains; the invariants
        // were checked above, the table shape below does not apply.
        return;
    }
    assert_eq!(
        d,
        "b0 L2 -> b1 [arm 0] -> b2 [arm 1,arm 2] -> b3 [arm 3] -> b4 [arm 4] -> b5 [default]
b1 L3 -> b2 [next]
b2 L4 -> b6 [taken]
b3 L5 -> b7 [leave]
b4 L6 -> b6 [taken]
b5 L7 -> b6 [next]
b6 L9 -> b7 [leave]
b7 exit
"
    );
}

#[test]
fn exit_ends_the_activation_and_code_after_return_is_dropped() {
    let src = "#include <stdlib.h>
int h(int x) {
  if (x > 3) exit(4);
  return x;
  x = 5;
}
int main(void) { return h(2); }
";
    let (f, fc) = cfg_of(src, "h");
    assert_eq!(
        describe(&fc),
        "b0 L3 -> b1 [next] -> b2 [taken]\nb1 L3 -> b3 [leave]\nb2 L4 -> b3 [leave]\nb3 exit\n"
    );
    // `x = 5` and the implicit return after it belong to no block.
    assert!(fc.num_dropped_pcs() >= 2);
    let dead: Vec<usize> = (0..f.code.len())
        .filter(|&pc| fc.block_of_pc(Pc(pc as u16)).is_none())
        .collect();
    assert!(dead.iter().any(|&pc| f.locs[pc].line == 5), "{dead:?}");
}

#[test]
fn a_while_loop_has_its_header_at_the_bottom_test() {
    let src = "int f(int n) {
  int s = 0;
  while (n > 0) {
    s = s + n;
    n = n - 1;
  }
  return s;
}
int main(void) { return f(4); }
";
    let (f, fc) = cfg_of(src, "f");
    let cfg = fc.cfg();
    let dfs = DepthFirst::compute(cfg);
    let yields = fc.yield_points(&dfs);
    assert_eq!(yields.len(), 1);
    let (h, pc) = yields[0];
    // The header holds the test of line 3 and is the loop's last block in pc order; the body
    // (lines 4-5) comes before it.
    assert_eq!(fc.lines(h), Some([3, 3]));
    let loops = Loops::compute(cfg, &dfs);
    let l = loops.loop_of_header(h).unwrap();
    let max_pc = loops
        .blocks(l)
        .iter()
        .map(|&b| fc.first_pc(b).unwrap())
        .max()
        .unwrap();
    assert_eq!(pc, max_pc, "{}", describe(&fc));
    // Its back edge is not a backward jump: it is the body's edge into the test, and the
    // backward jump leaves the header.
    for &e in dfs.back_edges() {
        for bc in fc.bytecode_edges(e) {
            let target = match bc.way {
                Way::Next => bc.pc.index() + 1,
                _ => f.code[bc.pc.index()].target().unwrap().index(),
            };
            assert!(target > bc.pc.index(), "back edge {bc} jumps backwards");
        }
    }
    let body = fc.block_of_pc(Pc(pc.0 - 1)).unwrap();
    assert_eq!(fc.lines(body).map(|l| l[0]), Some(4));
    let backward = fc
        .edge(BcEdge {
            pc: fc.last_pc(h).unwrap(),
            way: Way::Taken,
        })
        .unwrap();
    assert!(!dfs.is_back_edge(backward));
}

#[test]
fn tier_zero_counts_become_an_edge_profile() {
    let src = "int f(int n) {\n  if (n > 2)\n    n = 1;\n  return n;\n}\nint main(void) { return f(5); }\n";
    let (_, fc) = cfg_of(src, "f");
    let cfg = fc.cfg();
    // 10 calls: the branch at the end of the entry block fell through 7 times, jumped 3 times.
    let prof = fc.edge_profile(10, |_, taken| if taken { 3 } else { 7 }, |_, _| 0);
    let entry = cfg.entry();
    let out: Vec<u64> = cfg.succ_edges(entry).map(|e| prof.edges[e]).collect();
    assert_eq!(out, vec![7, 3]);
    // The fall-through block passes its 7 on; the return block gets 7 + 3.
    let into_exit: Vec<u64> = cfg
        .pred_edges(cfg.exit())
        .iter()
        .map(|&e| prof.edges[e])
        .collect();
    assert_eq!(into_exit, vec![10]);
}

#[test]
fn malformed_code_is_an_error_not_a_panic() {
    use lang::bytecode::{Instr, JumpTable, Loc, Reg, TableIdx};
    use vm::tier::cfg_build::CfgBuildError;
    let loc = Loc { line: 1, col: 1 };
    let build = |code: &[Instr], tables: &[JumpTable]| {
        FunctionCfg::build(code, &vec![loc; code.len()], tables).unwrap_err()
    };
    assert_eq!(build(&[], &[]), CfgBuildError::Empty);
    assert_eq!(
        build(&[Instr::Jmp { t: Pc(7) }], &[]),
        CfgBuildError::BadTarget {
            pc: Pc(0),
            target: Pc(7)
        }
    );
    assert_eq!(
        build(&[Instr::LoadI { a: Reg(0), imm: 1 }], &[]),
        CfgBuildError::FallsOffEnd { pc: Pc(0) }
    );
    assert_eq!(
        build(
            &[Instr::JTab {
                a: Reg(0),
                tab: TableIdx(3)
            }],
            &[]
        ),
        CfgBuildError::BadTable { pc: Pc(0) }
    );
    let table = JumpTable {
        low: 0,
        targets: vec![Pc(1), Pc(9)],
        default: Pc(1),
    };
    assert_eq!(
        build(
            &[
                Instr::JTab {
                    a: Reg(0),
                    tab: TableIdx(0)
                },
                Instr::RetV {}
            ],
            &[table]
        ),
        CfgBuildError::BadTarget {
            pc: Pc(0),
            target: Pc(9)
        }
    );
    let e = FunctionCfg::build(&[Instr::RetV {}], &[], &[]).unwrap_err();
    assert_eq!(e, CfgBuildError::LocsMismatch { code: 1, locs: 0 });
    assert!(e
        .to_string()
        .contains("1 instructions but 0 source locations"));
}
