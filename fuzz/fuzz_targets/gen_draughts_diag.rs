//! Structure-aware `draughts-diag` records (deep nesting, long runs, damaged tags,
//! comments and results), read and round-tripped.
#![no_main]
use kifu_fuzz::gen::{dump, Input, Style};
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |input: Input| {
    let text = input.render(Style::Diag);
    dump("input.draughts-diag", &text);
    kifu_fuzz::check::round_trips("draughts-diag", text.as_bytes());
});
