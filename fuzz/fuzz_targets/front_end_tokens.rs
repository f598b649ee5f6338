//! cargo-fuzz target `front_end_tokens`: the body is `e2e::fuzz::front_end_tokens` (see its docs), which
//! `tests/tests/fuzz_replay.rs` also runs on every committed input of `fuzz/corpus/front_end_tokens/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| e2e::fuzz::front_end_tokens(data));
