//! Reads any bytes as `xml`; every game that reads round-trips
//! (X -> X -> X stable, X -> json -> X and X -> xml -> X equal to X -> X).
#![no_main]
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |data: &[u8]| {
    kifu_fuzz::check::round_trips("xml", data);
});
