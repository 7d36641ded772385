//! The fast lexer against the grammar on the whole shared chess and
//! draughts corpus: every record must read the same (game, warnings, or
//! error with its position) whichever of the two reads it, and the lexer
//! must take most real records (the rest: `tests/it/fast_lexer.rs`).

use crate::common;
use crate::common::fast_lexer::{check_dir, NUM, PGN};

#[test]
fn fast_lexer_reads_the_shared_chess_corpus_as_the_grammar_does() {
    let Some(dir) = common::shared("chess") else {
        return;
    };
    let (all, fast) = check_dir(PGN, &dir, ".pgn");
    eprintln!("chess: {fast} of {all} records read by the fast lexer");
    assert!(all > 5000, "the corpus holds {all} records");
    // Most real records are plain: the lexer must take them.
    assert!(fast * 10 > all * 8, "the lexer took only {fast} of {all}");
}

#[test]
fn fast_lexer_reads_the_shared_draughts_corpus_as_the_grammar_does() {
    let Some(dir) = common::shared("draughts") else {
        return;
    };
    let (all, fast) = check_dir(NUM, &dir, ".pdn");
    eprintln!("draughts: {fast} of {all} records read by the fast lexer");
    assert!(all > 1000, "the corpus holds {all} records");
    assert!(fast * 10 > all * 7, "the lexer took only {fast} of {all}");
}
