//! A file of the shared draughts corpus, through the `kifu` binary: Italian
//! games have no diagonal coordinates. Skipped with a message when the
//! shared corpus is absent; the round trips of every file are in
//! `tests/conformance/draughts_corpus.rs`.

use crate::common::*;

#[test]
fn italian_has_no_diagonal_coordinates() {
    let Some(dir) = shared("draughts") else {
        return;
    };
    let file = dir.join("italian/ci98-fero.pdn");
    let bytes = std::fs::read(file).expect("readable corpus file");
    let out = convert(
        "draughts-num",
        "draughts-diag",
        &["--variant", "italian"],
        &bytes,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("diagonal coordinates need a board"));
}
