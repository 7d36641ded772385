//! Chess games written as scoresheets by kifu, then damaged line by line and
//! cell by cell, read and round-tripped.
#![no_main]
use kifu_fuzz::gen::{dump, Sheet};
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |sheet: Sheet| {
    let text = sheet.render();
    dump("input.sllavcco", &text);
    kifu_fuzz::check::round_trips("sllavcco", text.as_bytes());
});
