//! Tallam, Zhang & Gupta 2004, section 3: the paths across the call of Figure 2
//! (`programs/cfgs/tallam-figure2-f.cfg` calls `tallam-figure2-g.cfg` in block `C1`):
//! the number of I-OL-K and II-OL-K paths of each degree (Tables 6 and 7: 3, 6, 6, 12 and
//! 5, 10, the maximum degrees 3 and 1), the 15 and 10 interesting paths, and the example of
//! section 3.2.3 (100 calls, all along `1 ! 1`: every Type I path bounded by 0 and 100 from
//! Ball-Larus counts, exact from I-OL-1 counts).

use profiler::cfg_text::{parse_cfg, ParsedCfg};
use profiler::overlap::calls::{
    call_bounds, cross_paths_by_definition, max_overlaps, overlap_of, path_spans, Activation, Call,
    CallBounds, Crossing, Extent, Source,
};
use profiler::overlap::estimate::Listing;
use profiler::overlap::OlContext;
use profiler::{BallLarus, Block, Numbering, PathEnds};
use std::collections::{BTreeMap, BTreeSet};

fn read(name: &str) -> ParsedCfg {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/cfgs");
    parse_cfg(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn blocks(p: &ParsedCfg, names: &str) -> Vec<Block> {
    names
        .split_whitespace()
        .map(|n| p.block(n).unwrap_or_else(|| panic!("no block {n}")))
        .collect()
}

/// Every Ball-Larus path of `p` (all start at the entry: the graphs have no loops).
fn all_paths(p: &ParsedCfg) -> Vec<Vec<Block>> {
    let bl = BallLarus::new(&p.cfg, PathEnds::Backedge, Numbering::Canonical, u64::MAX).unwrap();
    (0..bl.num_paths())
        .map(|id| bl.regenerate(&p.cfg, id).unwrap().nodes)
        .collect()
}

/// The number of predicates of `part` under `cx`, its end counted as one (the paper's "we
/// assume gEx is a predicate node").
fn predicates(cx: &OlContext<'_>, part: &[Block]) -> usize {
    let inner = part.iter().filter(|&&b| cx.is_predicate(b)).count();
    let last = *part.last().unwrap();
    inner + usize::from(!cx.is_predicate(last))
}

/// The paths of exactly degree `k` (their part after the call has `k + 1` predicates) among
/// the OL paths of `befores` joined to the parts `afters`, as Tables 6 and 7 count them.
fn of_degree(cx: &OlContext<'_>, befores: usize, afters: &[Vec<Block>], k: u32) -> usize {
    let parts: BTreeSet<&[Block]> = afters
        .iter()
        .map(|a| overlap_of(cx, a))
        .filter(|a| predicates(cx, a) == k as usize + 1)
        .collect();
    befores * parts.len()
}

#[test]
fn tables_6_and_7_number_of_paths_by_degree() {
    let (f, g) = (read("tallam-figure2-f.cfg"), read("tallam-figure2-g.cfg"));
    let c1 = f.block("C1").unwrap();
    let f_paths = all_paths(&f);
    let g_paths = all_paths(&g);
    assert_eq!(g_paths.len(), 5);
    let prefixes: BTreeSet<Vec<Block>> = f_paths
        .iter()
        .map(|p| p[..=p.iter().position(|&b| b == c1).unwrap()].to_vec())
        .collect();
    let suffixes: Vec<Vec<Block>> = f_paths
        .iter()
        .map(|p| p[p.iter().position(|&b| b == c1).unwrap()..].to_vec())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(prefixes.len(), 3, "3 ways of reaching C1");
    // The interesting paths: 15 of Type I, 10 of Type II.
    assert_eq!(prefixes.len() * g_paths.len(), 15);
    assert_eq!(g_paths.len() * suffixes.len(), 10);
    let table6: Vec<usize> = (0..4)
        .map(|k| {
            let cx = OlContext::new(&g.cfg, PathEnds::Backedge, k).unwrap();
            of_degree(&cx, prefixes.len(), &g_paths, k)
        })
        .collect();
    assert_eq!(table6, [3, 6, 6, 12]);
    let cx = OlContext::new(&g.cfg, PathEnds::Backedge, 4).unwrap();
    assert_eq!(
        of_degree(&cx, prefixes.len(), &g_paths, 4),
        0,
        "max degree 3"
    );
    let table7: Vec<usize> = (0..3)
        .map(|k| {
            let cx = OlContext::new(&f.cfg, PathEnds::Backedge, k).unwrap();
            of_degree(&cx, g_paths.len(), &suffixes, k)
        })
        .collect();
    assert_eq!(table7, [5, 10, 0], "max degree 1");
    // The maximum overlaps, from the graphs: 3 into g() from its entry, 1 back into f() at C1.
    let gcx = OlContext::new(&g.cfg, PathEnds::Backedge, 0).unwrap();
    assert_eq!(max_overlaps(&gcx)[g.cfg.entry().index()], 3);
    let fcx = OlContext::new(&f.cfg, PathEnds::Backedge, 0).unwrap();
    assert_eq!(max_overlaps(&fcx)[c1.index()], 1);
}

/// Section 3.2.3's run: `f` calls `g` 100 times, each time along its path 1 and `g`'s path
/// 1 (then `P3 B4 B6`); `g` also runs, called from elsewhere, 100 more times along path 1 and
/// 200 times along each of its other paths, so every sequence of `g` is at least as frequent
/// as the calls (the paper has each at 200).
struct Run {
    f_blocks: Vec<Block>,
    g_runs: Vec<Vec<Block>>,
}

fn section_323_run(f: &ParsedCfg, g: &ParsedCfg) -> Run {
    let g_paths = all_paths(g);
    let path1 = blocks(g, "gEn P1 B3 gEx");
    assert!(g_paths.contains(&path1));
    let mut g_runs = vec![path1.clone(); 200];
    for p in g_paths.iter().filter(|p| **p != path1) {
        g_runs.extend(std::iter::repeat_n(p.clone(), 200));
    }
    Run {
        f_blocks: blocks(f, "fEn P1 P2 B1 B3 C1 P3 B4 B6 fEx"),
        g_runs,
    }
}

fn bounds_of(f: &ParsedCfg, g: &ParsedCfg, k: u32, source: Source) -> Vec<CallBounds> {
    let run = section_323_run(f, g);
    let contexts = [
        OlContext::new(&f.cfg, PathEnds::Backedge, k).unwrap(),
        OlContext::new(&g.cfg, PathEnds::Backedge, k).unwrap(),
    ];
    let calls: Vec<Vec<Call>> = (0..100)
        .map(|i| {
            vec![Call {
                at: 5,
                callee: i, // the first 100 runs of g are along path 1
            }]
        })
        .collect();
    let mut runs: Vec<Activation<'_>> = run
        .g_runs
        .iter()
        .map(|b| Activation {
            func: 1,
            blocks: b,
            calls: &[],
            finished: true,
        })
        .collect();
    for c in &calls {
        runs.push(Activation {
            func: 0,
            blocks: &run.f_blocks,
            calls: c,
            finished: true,
        });
    }
    let counts = cross_paths_by_definition(&contexts, &runs, Extent::Overlap);
    let mut bl: Vec<BTreeMap<&[Block], u64>> = vec![BTreeMap::new(); 2];
    for r in &runs {
        for s in path_spans(&contexts[r.func as usize], r.blocks) {
            *bl[r.func as usize].entry(&r.blocks[s]).or_insert(0) += 1;
        }
    }
    let bl: Vec<Vec<(&[Block], u64)>> = bl.into_iter().map(|m| m.into_iter().collect()).collect();
    call_bounds(&contexts, &counts, &bl, source, Listing::All)
}

fn into(bounds: &[CallBounds]) -> &CallBounds {
    bounds
        .iter()
        .find(|b| b.key.crossing == Crossing::Into)
        .unwrap()
}

#[test]
fn section_3_2_3_bl_bounds_every_path_by_0_and_100_and_i_ol_1_is_exact() {
    let (f, g) = (read("tallam-figure2-f.cfg"), read("tallam-figure2-g.cfg"));
    let path11 = (
        blocks(&f, "fEn P1 P2 B1 B3 C1"),
        blocks(&g, "gEn P1 B3 gEx"),
    );
    let bl = bounds_of(&f, &g, 1, Source::BallLarus);
    let site = into(&bl);
    assert_eq!(site.calls, 100);
    assert_eq!(site.paths.len(), 5, "one path to C1 ran, with any of g's 5");
    for b in &site.paths {
        assert_eq!((b.lower, b.upper), (0, 100), "{b:?}");
    }
    let ol = bounds_of(&f, &g, 1, Source::Overlap);
    for b in &into(&ol).paths {
        let exact = if (&b.path.before, &b.path.after) == (&path11.0, &path11.1) {
            100
        } else {
            0
        };
        assert_eq!((b.lower, b.upper), (exact, exact), "{b:?}");
    }
    assert_eq!((into(&ol).definite, into(&ol).potential), (100, 100));
    // I-OL-0 stops at g's first predicate P1, which every path has: no better than BL.
    let ol0 = bounds_of(&f, &g, 0, Source::Overlap);
    assert!(into(&ol0)
        .paths
        .iter()
        .all(|b| (b.lower, b.upper) == (0, 100)));
}
