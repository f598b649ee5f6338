//! cargo-fuzz target `cfg_text`: the body is `e2e::fuzz::cfg_text` (see its docs), which
//! `tests/tests/fuzz_replay.rs` also runs on every committed input of `fuzz/corpus/cfg_text/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| e2e::fuzz::cfg_text(data));
