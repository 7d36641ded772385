//! Structure-aware `draughts-num` records (deep nesting, long runs, damaged tags,
//! comments and results), read and round-tripped.
#![no_main]
use kifu_fuzz::gen::{dump, Input, Style};
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |input: Input| {
    let text = input.render(Style::Num);
    dump("input.draughts-num", &text);
    kifu_fuzz::check::round_trips("draughts-num", text.as_bytes());
});
