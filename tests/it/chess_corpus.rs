//! A file of the shared chess corpus whose errors are known, through the
//! `kifu` binary: the illegal move is located and the rest of the file
//! converts. Skipped with a message when the shared corpus is absent; the
//! round trips of every file are in `tests/conformance/chess_corpus.rs`.

use crate::common::*;

#[test]
fn illegal_moves_are_located_and_the_rest_of_the_file_converts() {
    let Some(dir) = shared("chess") else {
        return;
    };
    let file = dir.join("scoutfish/ambiguous.pgn");
    let out = convert("pgn", "pgn", &[], &std::fs::read(&file).unwrap());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(counts(&out), (2, 1));
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.contains(": error: "))
        .expect("an error");
    // file:line:col: error: game N: 12. Nd2: ambiguous: ... (position: FEN)
    assert!(errors_are_located(&err), "{err}");
    assert!(
        line.contains("ambiguous") && line.contains("(position: "),
        "{line}"
    );
}
