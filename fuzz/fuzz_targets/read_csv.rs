//! Reads any bytes as `csv` the way the CLI does: nothing panics. The input
//! is the container form the three tables are merged into when a folder is
//! read (`games,...`, `tags:3,...`, `moves,...` rows, a game from its games
//! row to the next), which is what the record scanner and the reader see.
#![no_main]
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |data: &[u8]| {
    kifu_fuzz::check::reads("csv", data);
});
