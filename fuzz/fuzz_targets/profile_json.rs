//! cargo-fuzz target `profile_json`: the body is `e2e::fuzz::profile_json` (see its docs), which
//! `tests/tests/fuzz_replay.rs` also runs on every committed input of `fuzz/corpus/profile_json/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| e2e::fuzz::profile_json(data));
