//! Reads any bytes as `coerceo`; every game that reads round-trips
//! (X -> X -> X stable, X -> json -> X equal to X -> X). The same bytes
//! also choose the turns of a random legal game, on either board, which
//! written bare reads back with every capture and removal computed.
#![no_main]
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |data: &[u8]| {
    kifu_fuzz::check::round_trips("coerceo", data);
    let _ = kifu_fuzz::check::coerceo_plays(data);
});
