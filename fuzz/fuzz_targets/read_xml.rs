//! Reads any bytes as `xml` the way the CLI does: nothing panics.
#![no_main]
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |data: &[u8]| {
    kifu_fuzz::check::reads("xml", data);
});
