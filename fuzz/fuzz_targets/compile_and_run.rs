//! cargo-fuzz target `compile_and_run`: the body is `e2e::fuzz::compile_and_run` (see its docs), which
//! `tests/tests/fuzz_replay.rs` also runs on every committed input of `fuzz/corpus/compile_and_run/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| e2e::fuzz::compile_and_run(data));
