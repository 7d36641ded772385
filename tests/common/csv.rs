//! The `csv` tables: what `tests/it/csv.rs` (the tables themselves) and
//! `tests/conformance/csv.rs` (the tables in real databases, the shared
//! corpus through them) both use.

use std::path::Path;

use super::{counts, kifu, no_panic, stderr};

/// Three games: a known one (comments, a variation, a NAG, a glyph, an
/// empty tag, a comma and quotes in a tag), and one game twice, byte for
/// byte.
pub const GAMES: &str = r#"[Event "Known"]
[Site ""]
[Date "2024.01.01"]
[Round "1"]
[White "Anand, V"]
[Black "Ünïcode \"Q\""]
[Result "1-0"]
[Annotator ""]

{start} 1. e4 {good, "very"} e5 2. Nf3 (2. f4 exf4 {gambit}) 2... Nc6 3. Bb5 $1 a6?! 1-0

[Event "Twice"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

1. d4 *

[Event "Twice"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

1. d4 *
"#;

/// Converts the games above to tables in `dir`.
pub fn tables(dir: &Path) {
    let out = kifu(
        &["convert", "--from", "pgn", "--to", "csv", "--out-dir"]
            .into_iter()
            .chain([dir.to_str().unwrap(), "-"])
            .collect::<Vec<_>>(),
        GAMES.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(counts(&out), (3, 0));
}

/// X -> csv -> jsonl gives what X -> jsonl gives (the same games, every
/// field of the IR), and as many games and failures.
pub fn assert_round_trip(label: &str, from: &[&str], inputs: &[&str], stdin: &[u8]) {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t");
    let run_with = |to: &[&str]| {
        let mut args = vec!["convert", "-q"];
        args.extend_from_slice(from);
        args.extend_from_slice(to);
        args.extend_from_slice(inputs);
        let out = kifu(&args, stdin);
        no_panic(&out);
        out
    };
    let direct = run_with(&["--to", "jsonl"]);
    let tables = run_with(&["--to", "csv", "--out-dir", t.to_str().unwrap()]);
    assert_eq!(direct.status.code(), tables.status.code(), "{label}");
    let back = kifu(
        &[
            "convert",
            "--from",
            "csv",
            "--to",
            "jsonl",
            t.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(back.status.code(), Some(0), "{label}: {}", stderr(&back));
    assert!(!direct.stdout.is_empty(), "{label}: no games");
    // As many games in the tables as X -> X converts (none skipped unseen
    // as a format kifu cannot read).
    let (converted, _) = counts(&direct);
    assert_eq!(counts(&back), (converted, 0), "{label}");
    assert!(
        back.stdout == direct.stdout,
        "{label}: X -> csv -> X is not X -> X"
    );
}

/// The rows of a CSV text, quote-aware (for checking columns).
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => row.push(std::mem::take(&mut field)),
            '\r' if !quoted => {}
            '\n' if !quoted => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            c => field.push(c),
        }
    }
    rows
}
