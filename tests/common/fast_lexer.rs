//! The fast lexer against the grammar, record by record: what
//! `tests/it/fast_lexer.rs` (the bundled corpus, generated movetext) and
//! `tests/conformance/fast_lexer.rs` (the shared corpus) both check.

use std::path::Path;

use kifu::archive::Records;
use kifu::codec::ReadOptions;
use kifu::family::chess::pgn;
use kifu::family::draughts::num as draughts_num;
use kifu::format::by_name;

/// A notation with a fast lexer: its name and whether the lexer takes a
/// record.
pub type Lexing = (&'static str, fn(&str) -> bool);

pub const PGN: Lexing = ("pgn", pgn::lexed_fast);
pub const NUM: Lexing = ("draughts-num", draughts_num::lexed_fast);
pub const DIAG: Lexing = ("draughts-diag", kifu::family::draughts::diag::lexed_fast);

/// Reads a record both ways and returns what each gave, as text.
pub fn both(format: &str, text: &str) -> (String, String) {
    let read = by_name(format).and_then(|f| f.read).expect("a reader");
    let fast = read.game(text, &ReadOptions::default());
    let pest = read.game(
        text,
        &ReadOptions {
            grammar_only: true,
            ..ReadOptions::default()
        },
    );
    (format!("{fast:?}"), format!("{pest:?}"))
}

/// Checks every record of a file; returns (records, records the lexer took).
pub fn check_file((format, lexed_fast): Lexing, path: &Path) -> (usize, usize) {
    let data = std::fs::read(path).expect("readable file");
    let split = by_name(format).expect("a format").split;
    let mut records = Records::new(&data[..], split);
    let (mut all, mut fast) = (0, 0);
    while let Some(batch) = records.next_batch(1 << 20).expect("read") {
        for r in batch.records.iter().filter(|r| r.is_game) {
            let text = String::from_utf8_lossy(&batch.data[r.range.clone()]);
            let (a, b) = both(format, &text);
            assert_eq!(
                a,
                b,
                "{}:{}: the fast lexer and the grammar disagree",
                path.display(),
                r.line
            );
            all += 1;
            fast += usize::from(lexed_fast(&text));
        }
    }
    (all, fast)
}

/// Checks every file of a folder with the given ending.
pub fn check_dir(lexing: Lexing, dir: &Path, ending: &str) -> (usize, usize) {
    super::files(dir, ending)
        .iter()
        .filter(|p| !p.to_string_lossy().ends_with(".diag.pdn"))
        .map(|p| check_file(lexing, p))
        .fold((0, 0), |(a, f), (x, y)| (a + x, f + y))
}
