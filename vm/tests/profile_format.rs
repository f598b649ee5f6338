//! The JSON profile (`vm::profile`) and its documentation: the example in
//! `docs/profile-format.md` is exactly what the model writes for the example program, and so
//! are its report and annotated source (so the documentation cannot drift), the text is deterministic, it reads back, and `check` rejects
//! what the format forbids.

mod tier_support;

use profiler::{Block, Path, PathEnds};
use tier_support::{profile_by_definition, record};
use vm::profile::annotate::{annotate, AnnotateOptions, CodeLines};
use vm::profile::report::{render, ReportOptions};
use vm::profile::{FunctionProfile, Mode, Profile};
use vm::tier::cfg_build::FunctionCfg;

const EXAMPLE_PROGRAM: &str = "#include <stdio.h>

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

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/profile-format.md");
    std::fs::read_to_string(path).unwrap()
}

/// The contents of the first fenced block of `doc` that starts right after the line `marker`.
fn fenced_after(doc: &str, marker: &str) -> String {
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("marker {marker:?} missing from the documentation"));
    let rest = &doc[at..];
    let open = rest.find("```").unwrap();
    let body = &rest[open..];
    let start = body.find('\n').unwrap() + 1;
    let end = body[start..].find("```").unwrap();
    body[start..start + end].to_string()
}

fn example() -> Profile {
    let rec = record("steps.c", EXAMPLE_PROGRAM);
    assert_eq!(rec.stdout, b"8\n");
    profile_by_definition("steps.c", &rec, PathEnds::Header)
}

#[test]
fn the_documented_example_is_what_the_model_writes() {
    let p = example();
    let json = p.to_json();
    let program = lang::compile_source("steps.c", EXAMPLE_PROGRAM).unwrap();
    let code = CodeLines::of_program(&program).unwrap();
    let annotated = annotate(&p, EXAMPLE_PROGRAM, &code, &AnnotateOptions::default());
    // To refresh the documentation after a deliberate change: PROFILE_DOC_PRINT=1 cargo test
    // -p vm --test profile_format -- --nocapture, and paste the three blocks.
    if std::env::var_os("PROFILE_DOC_PRINT").is_some() {
        println!(
            "{json}\n{}\n{annotated}",
            render(&p, &ReportOptions::default())
        );
    }
    let doc = doc();
    assert_eq!(
        fenced_after(&doc, "<!-- example-program -->"),
        EXAMPLE_PROGRAM
    );
    assert_eq!(fenced_after(&doc, "<!-- example-json -->"), json);
    assert_eq!(
        fenced_after(&doc, "<!-- example-report -->"),
        render(&p, &ReportOptions::default())
    );
    assert_eq!(fenced_after(&doc, "<!-- example-annotate -->"), annotated);
}

#[test]
fn the_example_counts_follow_from_the_program() {
    // steps(6): 6 3 10 5 16 8 4 2 1, eight iterations: even, odd, even, odd, even, even, even,
    // even. Under `header` path ends: entry -> header once, four times even-then-header, ...
    let p = example();
    let f = p.functions.iter().find(|f| f.name == "steps").unwrap();
    let counts: Vec<u64> = f.paths.iter().map(|p| p.count).collect();
    // 9 header arrivals: the entry path, 8 iteration paths (6 even, 2 odd), and the way out.
    assert_eq!(f.total(), 1 + 8 + 1);
    assert_eq!(counts, vec![6, 2, 1, 1]);
    let main = p.functions.iter().find(|f| f.name == "main").unwrap();
    assert_eq!(main.paths.len(), 1);
    assert_eq!(main.paths[0].count, 1);
    assert_eq!(main.paths[0].end, None);
}

#[test]
fn json_reads_back_and_is_deterministic() {
    let a = example();
    let b = example();
    assert_eq!(a.to_json(), b.to_json());
    let back = Profile::from_json(&a.to_json()).unwrap();
    assert_eq!(back, a);
    assert_eq!(back.to_json(), a.to_json());
}

fn tiny() -> (FunctionCfg, Profile) {
    let prog = lang::compile_source(
        "t.c",
        "int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += i; return s; }",
    )
    .unwrap();
    let fc = FunctionCfg::of_function(&prog.functions[0]).unwrap();
    let p = Profile::new("t.c", Mode::Bl, PathEnds::Header, 0, true);
    (fc, p)
}

#[test]
fn path_order_is_count_then_id_whatever_the_input_order() {
    let (fc, mut p) = tiny();
    let entry = fc.cfg().entry();
    // A path of the CFG: the entry block, cut where it goes (the loop header).
    let next = fc.cfg().successors(entry)[0];
    let mk = |id: u64, count: u64| {
        (
            id,
            count,
            Path {
                nodes: vec![entry],
                end: Some(next),
            },
        )
    };
    let input = vec![mk(3, 5), mk(1, 7), mk(0, 5), mk(2, 0)];
    let mut rev = input.clone();
    rev.reverse();
    let f1 = FunctionProfile::new("main", 1, &fc, 10, Some(0), input);
    let f2 = FunctionProfile::new("main", 1, &fc, 10, Some(0), rev);
    assert_eq!(f1, f2);
    let order: Vec<(u64, u64)> = f1.paths.iter().map(|p| (p.id, p.count)).collect();
    assert_eq!(order, vec![(1, 7), (0, 5), (3, 5)]);
    p.functions.push(f1);
    p.check().unwrap();
}

/// One way to break a valid profile.
type Breakage = Box<dyn Fn(&mut Profile)>;

#[test]
fn check_rejects_what_the_format_forbids() {
    let good = example();
    good.check().unwrap();
    let broken: Vec<(&str, Breakage)> = vec![
        ("format", Box::new(|p| p.format = "other".into())),
        ("version", Box::new(|p| p.version = 99)),
        ("unsorted", Box::new(|p| p.functions[0].paths.reverse())),
        (
            "id range",
            Box::new(|p| p.functions[0].paths[0].id = p.functions[0].static_paths),
        ),
        (
            "zero count",
            Box::new(|p| p.functions[0].paths.last_mut().unwrap().count = 0),
        ),
        (
            "bad block",
            Box::new(|p| p.functions[0].paths[0].blocks.push(999)),
        ),
        (
            "bad end",
            Box::new(|p| p.functions[0].paths[0].end = Some(999)),
        ),
        ("block ids", Box::new(|p| p.functions[0].blocks[0].id = 5)),
        (
            "bad successor",
            Box::new(|p| p.functions[0].blocks[0].succs.push(999)),
        ),
        (
            "not a path of the CFG",
            Box::new(|p| {
                // A path with its blocks in reverse order walks edges backwards.
                let q = &mut p.functions[0].paths[0];
                q.blocks.reverse();
            }),
        ),
        (
            "an end not after the last block",
            Box::new(|p| {
                let f = &mut p.functions[0];
                let q = f.paths.iter_mut().find(|q| q.end.is_some()).unwrap();
                q.end = Some(q.blocks[0]);
                q.blocks.push(q.blocks[0]);
            }),
        ),
        (
            "exit",
            Box::new(|p| {
                let f = &mut p.functions[0];
                let q = f.paths.iter_mut().find(|q| q.end.is_none()).unwrap();
                q.blocks.pop();
            }),
        ),
    ];
    for (what, f) in broken {
        let mut p = good.clone();
        // The example's first function (`steps`) has several paths.
        assert!(p.functions[0].paths.len() > 1);
        f(&mut p);
        assert!(p.check().is_err(), "{what} accepted");
        assert!(
            Profile::from_json(&p.to_json()).is_err(),
            "{what} read back"
        );
    }
    let err = Profile::from_json("{\"format\": 3}").unwrap_err();
    assert!(err.starts_with("line 1:"), "{err}");
}

#[test]
fn an_incomplete_run_is_marked_and_reported() {
    let src = "int a[3];\nint main(void) {\n  int s = 0;\n  for (int i = 0; i < 10; i++)\n    s += a[i];\n  return s;\n}\n";
    let rec = record("trap.c", src);
    assert!(!rec.complete);
    let p = profile_by_definition("trap.c", &rec, PathEnds::Header);
    assert!(!p.complete);
    assert!(p.to_json().contains("\"complete\": false"));
    let f = &p.functions[0];
    // Three iterations completed before the trap at a[3]: entry path + 3 iteration paths.
    assert_eq!(f.total(), 4);
    assert!(f.paths.iter().all(|q| q.end.is_some()));
    let report = render(&p, &ReportOptions::default());
    assert!(report.contains("INCOMPLETE"), "{report}");
}

#[test]
fn sink_ids_regenerate_and_functions_never_tiered_have_no_paths() {
    let (fc, _) = tiny();
    let bl = profiler::BallLarus::new(
        fc.cfg(),
        PathEnds::Header,
        profiler::Numbering::Canonical,
        u64::MAX,
    )
    .unwrap();
    // Static paths by brute force: from the entry and from every header, follow edges until
    // arriving at a header (a cut) or at the exit.
    let cfg = fc.cfg();
    let dfs = profiler::DepthFirst::compute(cfg);
    fn count(cfg: &profiler::Cfg, dfs: &profiler::DepthFirst, b: Block) -> u64 {
        if b == cfg.exit() {
            return 1;
        }
        cfg.successors(b)
            .iter()
            .map(|&s| {
                if dfs.is_header(s) {
                    1
                } else {
                    count(cfg, dfs, s)
                }
            })
            .sum()
    }
    let brute: u64 = std::iter::once(cfg.entry())
        .chain(dfs.headers().iter().copied())
        .map(|b| count(cfg, &dfs, b))
        .sum();
    assert_eq!(bl.num_paths(), brute);
    assert!(brute >= 3, "entry, iteration and exit paths at least");
    let f = FunctionProfile::from_ids("main", 1, &fc, &bl, 7, [(0, 1), (1, 3), (2, 1)]).unwrap();
    assert_eq!(f.total(), 5);
    assert_eq!(f.tiered_up_at, Some(7));
    for p in &f.paths {
        let path = bl.regenerate(fc.cfg(), p.id).unwrap();
        let bs: Vec<u32> = path.nodes.iter().map(|b| b.as_u32()).collect();
        assert_eq!(p.blocks, bs);
    }
    let err = FunctionProfile::from_ids("main", 1, &fc, &bl, 7, [(brute, 1)]).unwrap_err();
    assert_eq!(
        err,
        format!("function main: path id {brute} is not below its {brute} static paths")
    );
    let idle = FunctionProfile::not_tiered("main", 1, &fc, PathEnds::Header);
    assert_eq!(idle.static_paths, brute);
    assert!(idle.paths.is_empty() && idle.tiered_up_at.is_none());
    assert_eq!(idle.blocks.len(), fc.num_blocks());
}

#[test]
fn paths_through_the_same_lines_are_told_apart_by_their_blocks() {
    // Every block is on one line, so all paths cover the same lines: only their blocks differ.
    let src = "int main(void) { int n = 0; for (int i = 0; i < 30; i++) { if (i % 2 == 0 && i % 3 == 0) n++; else n--; } return n & 127; }\n";
    let rec = record("one_line.c", src);
    let p = profile_by_definition("one_line.c", &rec, PathEnds::Header);
    let f = p.functions.iter().find(|f| f.name == "main").unwrap();
    assert!(f.paths.len() >= 4, "{:?}", f.paths);
    let report = render(
        &p,
        &ReportOptions {
            top: 0,
            ..ReportOptions::default()
        },
    );
    let mut texts = Vec::new();
    for path in &f.paths {
        let lines = vm::profile::report::path_lines(f, path);
        let shared = f
            .paths
            .iter()
            .filter(|q| vm::profile::report::path_lines(f, q) == lines)
            .count();
        let blocks: Vec<String> = path.blocks.iter().map(|b| b.to_string()).collect();
        let want = if shared > 1 {
            format!("{lines} [blocks {}]", blocks.join(" "))
        } else {
            lines
        };
        let row = report
            .lines()
            .find(|r| {
                let cols: Vec<&str> = r.split_whitespace().collect();
                cols.len() > 3 && cols[2] == path.id.to_string() && r.ends_with(&want)
            })
            .unwrap_or_else(|| {
                panic!(
                    "no row for path {} ending with {want:?}:\n{report}",
                    path.id
                )
            });
        texts.push(row.split_whitespace().skip(3).collect::<Vec<_>>().join(" "));
    }
    let mut distinct = texts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), texts.len(), "{report}");
}

/// An `ol:1` profile of the demo of paths across calls, every function instrumented.
fn ol_example() -> Profile {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../programs/demo/tallam_calls.c"
    );
    let src = std::fs::read_to_string(path).unwrap();
    let options = vm::RunOptions {
        profile: vm::ProfileSettings {
            mode: Mode::Ol,
            k: 1,
            tier_up: 0,
            ..vm::ProfileSettings::default()
        },
        ..vm::RunOptions::default()
    };
    let result = vm::run_source("tallam_calls.c", &src, &options, &mut Vec::new());
    assert_eq!(result.exit_status, 0, "{}", result.stderr);
    result.profile.expect("a profile")
}

#[test]
fn the_overlap_member_reads_back_and_check_rejects_what_it_forbids() {
    let good = ol_example();
    good.check().unwrap();
    assert_eq!(Profile::from_json(&good.to_json()).unwrap(), good);
    let f = good.functions.iter().position(|f| f.name == "f").unwrap();
    let main = good
        .functions
        .iter()
        .position(|f| f.name == "main")
        .unwrap();
    let calls_of_f = &good.functions[f].overlap.as_ref().unwrap().calls;
    assert_eq!(calls_of_f.len(), 2, "into and out of g");
    assert!(!good.functions[main]
        .overlap
        .as_ref()
        .unwrap()
        .loops
        .is_empty());
    fn call(p: &mut Profile, f: usize) -> &mut vm::profile::overlap::CallEstimate {
        &mut p.functions[f].overlap.as_mut().unwrap().calls[0]
    }
    fn a_loop(p: &mut Profile, f: usize) -> &mut vm::profile::overlap::LoopEstimate {
        &mut p.functions[f].overlap.as_mut().unwrap().loops[0]
    }
    let broken: Vec<(&str, Breakage)> = vec![
        ("another mode", Box::new(|p| p.mode = Mode::Bl)),
        (
            "crossing",
            Box::new(move |p| call(p, f).crossing = "sideways".into()),
        ),
        (
            "callee",
            Box::new(move |p| call(p, f).callee = "nowhere".into()),
        ),
        (
            "zero count",
            Box::new(move |p| call(p, f).paths[0].count = 0),
        ),
        ("calls", Box::new(move |p| call(p, f).calls += 1)),
        (
            "block",
            Box::new(move |p| call(p, f).paths[0].after.push(999)),
        ),
        (
            "flow above potential",
            Box::new(move |p| call(p, f).from_bl = [0, 0]),
        ),
        ("overlap above k", Box::new(move |p| call(p, f).overlap = 2)),
        (
            "listed more than certain",
            Box::new(move |p| call(p, f).pairs[0] = 0),
        ),
        (
            "loop flow",
            Box::new(move |p| {
                let l = a_loop(p, main);
                l.flow = l.from_ol[1] + 1;
            }),
        ),
        (
            "loop header",
            Box::new(move |p| a_loop(p, main).header = 999),
        ),
    ];
    for (what, breakage) in broken {
        let mut p = good.clone();
        breakage(&mut p);
        assert!(p.check().is_err(), "{what} accepted");
    }
}
