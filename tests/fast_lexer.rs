//! The fast lexer against the grammar: every record must read the same
//! (game, warnings, or error with its position) whichever of the two reads
//! it, on the whole shared chess corpus, the bundled corpus and generated
//! movetext full of the forms the lexer leaves to the grammar.

mod common;

use std::path::PathBuf;

use kifu::archive::Records;
use kifu::notation::{by_name, pgn, ReadOptions};
use proptest::prelude::*;

/// Reads a record both ways and returns what each gave, as text.
fn both(text: &str) -> (String, String) {
    let read = by_name("pgn").and_then(|f| f.read).expect("pgn reads");
    let fast = read(text, &ReadOptions::default());
    let pest = read(
        text,
        &ReadOptions {
            grammar_only: true,
            ..ReadOptions::default()
        },
    );
    (format!("{fast:?}"), format!("{pest:?}"))
}

/// Checks every record of a file; returns (records, records the lexer took).
fn check_file(path: &PathBuf) -> (usize, usize) {
    let data = std::fs::read(path).expect("readable file");
    let split = by_name("pgn").expect("pgn").split;
    let mut records = Records::new(&data[..], split);
    let (mut all, mut fast) = (0, 0);
    while let Some(batch) = records.next_batch(1 << 20).expect("read") {
        for r in batch.records.iter().filter(|r| r.is_game) {
            let text = String::from_utf8_lossy(&batch.data[r.range.clone()]);
            let (a, b) = both(&text);
            assert_eq!(
                a,
                b,
                "{}:{}: the fast lexer and the grammar disagree",
                path.display(),
                r.line
            );
            all += 1;
            fast += usize::from(pgn::lexed_fast(&text));
        }
    }
    (all, fast)
}

#[test]
fn fast_lexer_reads_the_shared_corpus_as_the_grammar_does() {
    let Some(dir) = common::shared("chess") else {
        return;
    };
    let (mut all, mut fast) = (0, 0);
    for path in common::files(&dir, ".pgn") {
        let (a, f) = check_file(&path);
        all += a;
        fast += f;
    }
    eprintln!("{fast} of {all} records read by the fast lexer");
    assert!(all > 5000, "the corpus holds {all} records");
    // Most real records are plain: the lexer must take them.
    assert!(fast * 10 > all * 8, "the lexer took only {fast} of {all}");
}

#[test]
fn fast_lexer_reads_the_bundled_corpus_as_the_grammar_does() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/chess");
    let (all, fast) = common::files(&dir, ".pgn")
        .iter()
        .map(check_file)
        .fold((0, 0), |(a, f), (x, y)| (a + x, f + y));
    assert!(all > 0 && fast > 0, "{fast} of {all}");
}

#[test]
fn fast_lexer_leaves_what_it_does_not_know_to_the_grammar() {
    let plain =
        "[Event \"x\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 {ok} (2. f4 $1) Nc6?! 3. O-O-O+ *\n";
    assert!(pgn::lexed_fast(plain));
    for text in [
        "{pre}\n[Event \"x\"]\n\n1. e4 *",
        "[Event \"a \\\"b\\\"\"]\n\n1. e4 *",
        "[Event \"a \"b\" c\"]\n\n1. e4 *",
        "[Event x]\n\n1. e4 *",
        "1. e2e4 *",
        "1. e2-e4 *",
        "1. 0-0 *",
        "1. e4 -- *",
        "1. exd6 e.p. *",
        "1. exd6ep *",
        "1. e4 (!) *",
        "1. e4 } *",
        "1. e4 (1-0) *",
        "1. e4 1-0 e5",
        "1. e4 %x\n*",
        "1… e4 *",
        "1. e4\u{a0}e5 *",
        "1. Nf3Q *",
        "1. e4 ½-½",
    ] {
        assert!(!pgn::lexed_fast(text), "lexed: {text}");
        let (a, b) = both(text);
        assert_eq!(a, b, "{text}");
    }
}

/// Pieces of movetext the lexer reads.
const PLAIN: &[&str] = &[
    "1.",
    "2.",
    "1...",
    "12.",
    "e4",
    "e5",
    "d4",
    "exd5",
    "Nf3",
    "Nc6",
    "Nbd2",
    "N1f3",
    "Ng1f3",
    "Qh4e1",
    "Qh4xe1",
    "Bb5+",
    "Qxf7#",
    "O-O",
    "O-O-O",
    "e8=Q",
    "e8Q",
    "exd8=N+",
    "Kxe2++",
    "!",
    "?",
    "!?",
    "$1",
    "$14",
    "{c}",
    "{ a ( b }",
    "(",
    ")",
    ";line\n",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "1/2",
    "...",
];

/// Traps: forms the lexer must leave to the grammar.
const TRAPS: &[&str] = &[
    "e.p.", "ep", "0-0", "--", "Z0", "e2e4", "e2-e4", "e4:d5", "(!)", "(?!)", "}", "%esc\n", "…",
    "½-½", "[", "]", "\"", "x", "=", "Q", "+", "#", "-", "a", "9", "..", "\u{a0}",
];

fn movetext() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        9 => prop::sample::select(PLAIN),
        1 => prop::sample::select(TRAPS),
    ];
    let sep = prop_oneof![Just(" "), Just(""), Just("\n"), Just("  ")];
    prop::collection::vec((piece, sep), 0..24)
        .prop_map(|v| v.into_iter().map(|(p, sep)| format!("{p}{sep}")).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn fast_lexer_and_grammar_agree_on_any_movetext(
        text in movetext(),
        tags in prop::bool::ANY,
    ) {
        let record = if tags {
            format!("[Event \"e\"]\n[Site \"s\"]\n\n{text}")
        } else {
            text
        };
        let (a, b) = both(&record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }
}
