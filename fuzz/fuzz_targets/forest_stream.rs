//! cargo-fuzz target `forest_stream`: the body is `e2e::fuzz::forest_stream` (see its docs), which
//! `tests/tests/fuzz_replay.rs` also runs on every committed input of `fuzz/corpus/forest_stream/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| e2e::fuzz::forest_stream(data));
