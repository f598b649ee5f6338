//! Bad input never panics: random `.cfg` texts and traces, built from the characters that
//! matter, go through `vmrun cfg`'s logic in every mode and give output or a clean error.

use profiler::cfg_command::{run, CfgCommand, CommandError, Format, ProfileKind};
use profiler::PathEnds;
use proptest::prelude::*;

fn cfg_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "entry [a-d]".prop_map(|s| s),
        "exit [a-d]".prop_map(|s| s),
        "[a-d] ->( [a-d]){0,3}".prop_map(|s| s),
        "[a-d()^;#$ >-]{0,8}".prop_map(|s| s),
    ];
    proptest::collection::vec(line, 0..8).prop_map(|lines| lines.join("\n"))
}

fn trace_text() -> impl Strategy<Value = String> {
    "[a-d ()^0-9;]{0,16}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_inputs_give_output_or_a_clean_error(
        cfg in cfg_text(),
        trace in proptest::option::of(trace_text()),
        k in 1u32..3,
        backedge in any::<bool>(),
        json in any::<bool>(),
    ) {
        let mut cmd = CfgCommand::new("random.cfg", cfg);
        cmd.path_ends = if backedge { PathEnds::Backedge } else { PathEnds::Header };
        cmd.format = if json { Format::Json } else { Format::Text };
        cmd.profile = trace.as_ref().map(|_| if k == 1 { ProfileKind::Bl } else { ProfileKind::KIter(k) });
        cmd.k = Some(k);
        cmd.trace = trace;
        match run(&cmd) {
            Ok(out) => prop_assert!(!out.is_empty()),
            Err(CommandError::Input(m)) => prop_assert!(!m.is_empty()),
            Err(CommandError::Usage(m)) => prop_assert!(!m.is_empty()),
        }
    }
}

#[test]
fn a_valid_graph_from_the_generator_works_in_every_mode() {
    let cmd = CfgCommand::new("x.cfg", "entry a\nexit d\na -> b c\nb -> d\nc -> c d\n");
    for (k, ends, format) in [
        (1, PathEnds::Header, Format::Text),
        (1, PathEnds::Backedge, Format::Json),
        (1, PathEnds::Header, Format::Dot),
        (2, PathEnds::Backedge, Format::Text),
        (3, PathEnds::Header, Format::Json),
    ] {
        let mut c = cmd.clone();
        c.k = Some(k);
        c.path_ends = ends;
        c.format = format;
        assert!(run(&c).is_ok(), "{k} {ends} {format:?}");
        c.trace = Some("a (c)^3 d ; a b d".into());
        if format != Format::Dot || k == 1 {
            assert!(run(&c).is_ok(), "trace {k} {ends} {format:?}");
        }
    }
}
