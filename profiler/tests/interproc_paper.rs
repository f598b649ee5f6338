//! Melski & Reps 1998 on its own example (Figures 4-9 and 14-17): the program that sums
//! squares through two calls of `pow`, as `programs/cfgs/melski-reps-pow.cfg`, run along its
//! trace. Every number below is printed in the paper.

use std::collections::BTreeMap;

use profiler::interproc::command::{count, labelled_edges};
use profiler::interproc::definition::paths_by_definition;
use profiler::interproc::numbering::{EntryTarget, ExitTarget};
use profiler::interproc::path::{check_dense, regenerate};
use profiler::interproc::text::{parse_program, ParsedProgram};
use profiler::interproc::{IppKind, IppNumbering, Linear, ProcId};
use profiler::PathEnds;

fn example() -> (ParsedProgram, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/cfgs/");
    let cfg = std::fs::read_to_string(format!("{dir}melski-reps-pow.cfg")).unwrap();
    let trace = std::fs::read_to_string(format!("{dir}melski-reps-pow.trace")).unwrap();
    (parse_program(&cfg).unwrap(), trace)
}

fn numbering(parsed: &ParsedProgram, kind: IppKind) -> IppNumbering {
    IppNumbering::new(&parsed.sg, kind, PathEnds::Backedge, u64::MAX).unwrap()
}

/// `ψ` of the vertex named `name`.
fn psi(parsed: &ParsedProgram, num: &IppNumbering, name: &str) -> Linear {
    let (p, b) = parsed.vertex(name).unwrap();
    num.psi(p, b)
}

/// The `ρ` of every edge that is not `⟨0, 0⟩`, as `from -> to` with names.
fn labelled(parsed: &ParsedProgram, num: &IppNumbering) -> BTreeMap<String, (u64, u64)> {
    labelled_edges(parsed, num)
        .into_iter()
        .map(|(_, from, to, rho)| (format!("{from} -> {to}"), (rho.a, rho.b)))
        .collect()
}

fn replay(parsed: &ParsedProgram, num: &IppNumbering, trace: &str) -> BTreeMap<u64, u64> {
    count(&parsed.sg, num, &parsed.runs(trace).unwrap())
}

#[test]
fn figure_7_psi_and_rho_functions() {
    let (parsed, _) = example();
    let num = numbering(&parsed, IppKind::Context);
    // "Only six edges are labeled with functions other than <0, 0>".
    let expected: BTreeMap<String, (u64, u64)> = [
        ("v1 -> v4", (1, 17)),
        ("v4 -> v15", (0, 17)),
        ("v5 -> v9", (0, 12)),
        ("v9 -> v13", (0, 4)),
        ("u1 -> u3", (1, 1)),
        ("u3 -> u7", (0, 1)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(labelled(&parsed, &num), expected);
    // ψ_u1 = λx.2x + 2: 12 paths from u1' (numPaths[Exit_pow1] = 5), 4 from u1'' (1).
    let u1 = psi(&parsed, &num, "u1");
    assert_eq!(u1, Linear { a: 2, b: 2 });
    assert_eq!((u1.apply(5), u1.apply(1)), (12, 4));
    // The fourth argument of the calls: ψ_v7 = 5 and ψ_v11 = 1 (Figure 9).
    assert_eq!(psi(&parsed, &num, "v7").apply(1), 5);
    assert_eq!(psi(&parsed, &num, "v11").apply(1), 1);
    // "36 possible paths in total"; pow is entered at most twice on a path.
    assert_eq!(num.num_paths(), 36);
    let pow = parsed.sg.proc_named("pow").unwrap();
    assert_eq!(
        (num.max_enters(parsed.sg.main()), num.max_enters(pow)),
        (1, 2)
    );
}

#[test]
fn figures_8_and_9_profile() {
    let (parsed, trace) = example();
    let num = numbering(&parsed, IppKind::Context);
    let expected: BTreeMap<u64, u64> = [
        (16, 1),
        (18, 9),
        (24, 9),
        (25, 3),
        (27, 3),
        (28, 3),
        (29, 6),
        (30, 3),
        (32, 3),
        (33, 3),
        (34, 5),
        (35, 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(replay(&parsed, &num, &trace), expected);
}

#[test]
fn example_paths_of_section_3_3() {
    let (parsed, _) = example();
    let num = numbering(&parsed, IppKind::Context);
    let text = |n: u64| {
        regenerate(&parsed.sg, &num, n).unwrap().text(
            &parsed.sg,
            &num,
            &|p, b| parsed.name(p, b).to_string(),
            &|p, g| parsed.special(p, g).to_string(),
        )
    };
    // The path of Figure 6 that goes through pow'' (the second call site).
    let figure_6 =
        "Entry_global -> v1 -> v4 -> v5 -> v9 -> v10 -> u1 -> u3 -> u4 -> u5 -> u6 -> Exit_global";
    let found: Vec<u64> = (0..36).filter(|&n| text(n) == figure_6).collect();
    assert_eq!(found.len(), 1);
    // Path (3): a cyclic unbalanced-left path that enters pow from both call sites; its edge
    // u1 -> u3 contributes 6 on the first entry and 2 on the second (Example 3.2).
    let path_3 = "Entry_global -> v1 -> v2 -> v3 -> v4 -> v5 -> v6 -> u1 -> u3 -> u7 -> u8 -> v7 -> v8 -> v9 -> v10 -> u1 -> u3";
    let with_3: Vec<u64> = (0..36).filter(|&n| text(n).starts_with(path_3)).collect();
    assert!(!with_3.is_empty());
}

#[test]
fn figures_16_and_17_piecewise_profile() {
    let (parsed, trace) = example();
    let num = numbering(&parsed, IppKind::Piecewise);
    assert_eq!(num.num_paths(), 21);
    // numValidComps = ψ_Entry_main(1) + ψ_GEntry_main(1) + ψ_GEntry_pow(4) = 8 + 8 + 5.
    let main = parsed.sg.main();
    let pow = parsed.sg.proc_named("pow").unwrap();
    let entries: Vec<(EntryTarget, u64, u64)> = num
        .entries()
        .iter()
        .map(|e| (e.to, e.value, e.count))
        .collect();
    assert_eq!(
        entries,
        vec![
            (EntryTarget::Entry(main), 0, 8),
            (EntryTarget::GEntry(main), 8, 8),
            (EntryTarget::GEntry(pow), 16, 5),
        ]
    );
    // numUnbalRLPaths(u8) = 4; the return edge u8 -> v11 adds 3.
    assert_eq!(num.unbal_exit(pow), 4);
    assert_eq!(num.unbal_exit(main), 1);
    let exits: Vec<(ExitTarget, u64)> = num.exits(pow).iter().map(|e| (e.to, e.value)).collect();
    let v11 = parsed.vertex("v11").unwrap().1;
    let second = parsed
        .sg
        .sites()
        .find(|&s| parsed.sg.site(s).ret == v11)
        .unwrap();
    assert_eq!(exits[1], (ExitTarget::Site(second), 3));
    assert_eq!(num.return_value(second), 3);
    assert_eq!(num.resume_value(pow), 16);
    let expected_rho: BTreeMap<String, (u64, u64)> = [
        ("v5 -> v9", (0, 4)),
        ("v9 -> v13", (0, 2)),
        ("v4 -> v15", (0, 7)),
        ("u3 -> u7", (0, 1)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(labelled(&parsed, &num), expected_rho);
    let expected: BTreeMap<u64, u64> = [
        (6, 1),
        (8, 9),
        (12, 3),
        (14, 5),
        (15, 1),
        (16, 15),
        (17, 3),
        (19, 6),
        (20, 6),
    ]
    .into_iter()
    .collect();
    assert_eq!(replay(&parsed, &num, &trace), expected);
}

#[test]
fn the_numbering_is_dense_and_regenerates_and_the_counts_are_the_definitions() {
    let (parsed, trace) = example();
    let sg = &parsed.sg;
    for kind in [IppKind::Context, IppKind::Piecewise] {
        for ends in [PathEnds::Backedge, PathEnds::Header] {
            let num = IppNumbering::new(sg, kind, ends, u64::MAX).unwrap();
            check_dense(sg, &num, 10_000).unwrap_or_else(|e| panic!("{kind} {ends}: {e}"));
            // Counts by the state machine = paths by definition.
            let runs = parsed.runs(&trace).unwrap();
            let counted = count(sg, &num, &runs);
            let mut defined: BTreeMap<u64, u64> = BTreeMap::new();
            for run in &runs {
                for p in paths_by_definition(sg, &num, run) {
                    *defined.entry(p.number(sg, &num).unwrap()).or_insert(0) += 1;
                }
            }
            assert_eq!(counted, defined, "{kind} {ends}");
            let _: ProcId = sg.main();
        }
    }
}
