//! cargo-fuzz target `front_end_bytes`: the body is `e2e::fuzz::front_end_bytes` (see its docs), which
//! `tests/tests/fuzz_replay.rs` also runs on every committed input of `fuzz/corpus/front_end_bytes/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| e2e::fuzz::front_end_bytes(data));
