//! Games written as JSON by kifu, then edited member by member (other
//! values, deep arrays, copies of other parts), read as `json` and `jsonl`
//! and round-tripped.
#![no_main]
use kifu_fuzz::gen::{dump, Json};
libfuzzer_sys::fuzz_target!(init: kifu_fuzz::seed::from_env(), |json: Json| {
    let (array, lines) = json.render();
    dump("input.json", &array);
    kifu_fuzz::check::round_trips("json", array.as_bytes());
    kifu_fuzz::check::round_trips("jsonl", lines.as_bytes());
});
