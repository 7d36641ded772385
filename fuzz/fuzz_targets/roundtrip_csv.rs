//! Reads any bytes as `csv` (the container form of the tables, as
//! `read_csv`); every game that reads round-trips (X -> X -> X stable,
//! X -> json -> X equal to X -> X).
#![no_main]
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |data: &[u8]| {
    kifu_fuzz::check::round_trips("csv", data);
});
