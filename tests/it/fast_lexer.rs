//! The fast lexer against the grammar: every record must read the same
//! (game, warnings, or error with its position) whichever of the two reads
//! it, on the bundled corpus and generated movetext full of the forms the
//! lexer leaves to the grammar (the whole shared corpus:
//! `tests/conformance/fast_lexer.rs`).

use std::path::PathBuf;

use kifu::family::chess::pgn;
use kifu::family::draughts::num as draughts_num;
use proptest::prelude::*;

use crate::common::fast_lexer::{both, check_dir, check_file, DIAG, NUM, PGN};

#[test]
fn fast_lexer_reads_the_bundled_corpus_as_the_grammar_does() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let (all, fast) = check_dir(PGN, &corpus.join("chess"), ".pgn");
    assert!(all > 0 && fast > 0, "chess: {fast} of {all}");
    let (all, fast) = check_dir(NUM, &corpus.join("draughts"), ".pdn");
    assert!(all > 0 && fast > 0, "draughts: {fast} of {all}");
    let (all, fast) = crate::common::files(&corpus.join("draughts"), ".diag.pdn")
        .iter()
        .map(|p| check_file(DIAG, p))
        .fold((0, 0), |(a, f), (x, y)| (a + x, f + y));
    assert!(all > 0 && fast > 0, "draughts-diag: {fast} of {all}");
}

/// Russian draughts as its files write it (alphanumeric squares, no
/// GameType tag, FEN tags of either kind), which the fast lexer reads, with
/// records of the forms it leaves to the grammar among them: a batch.
const ALPHANUMERIC: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 \
    3. c3-b4 {a comment} g7-f6 4. d4-c5 b6xd4 5. e3xc5 (5. e3:c5 d6xb4) c7-b6 1-0\n\n\
    [Event \"b\"]\n[FEN \"W:Wa1,c1,e1,g1:Bb8,d8\"]\n\n1. a1-b2 b8-a7 2. c1b2 *\n\n\
    [Event \"c\"]\n[GameType \"25\"]\n\n1. C3-D4 F6-E5 2. D4xF6 G7xE5 *\n\n\
    [Event \"d\"]\n\n1. c3-d4 f6-g5 2. d4-e9 *\n\n\
    [Event \"e\"]\n\n1. c3-d4 f6-g5 2. c3-d4 *\n\n\
    [Event \"f\"]\n\n1. gf4 fe5 2. hg3 gf6 *\n\n\
    [Event \"g\"]\n\n1. c3-d4 f6-g5 2. b2-c3- *\n\n\
    [Event \"h\"]\n[FEN \"W:W21-32:B1-12\"]\n\n1. 22-18 11-15 2. 18x11 8x15 *\n";

/// What a person converting such a batch sees is what the grammar alone
/// gives: the same output, warnings and errors (the record of an illegal
/// move, of a square off the board, of a move the grammar cannot read),
/// whichever reads each record.
#[test]
fn the_command_line_reads_alphanumeric_draughts_as_the_grammar_does() {
    use crate::common::{convert, stderr, stdout};
    for to in ["draughts-diag", "draughts-num", "jsonl"] {
        let fast = convert("draughts-num", to, &[], ALPHANUMERIC.as_bytes());
        let grammar = convert(
            "draughts-num",
            to,
            &["--grammar-only"],
            ALPHANUMERIC.as_bytes(),
        );
        assert_eq!(stdout(&fast), stdout(&grammar), "to {to}");
        assert_eq!(stderr(&fast), stderr(&grammar), "to {to}");
        assert_eq!(fast.status.code(), grammar.status.code(), "to {to}");
        // Most games are written; the bad ones are said.
        assert!(
            stdout(&fast).matches("Event").count() >= 5,
            "to {to}: {}",
            stdout(&fast)
        );
        assert!(!stderr(&fast).is_empty(), "to {to}");
    }
}

#[test]
fn fast_lexer_leaves_what_it_does_not_know_to_the_grammar() {
    for plain in [
        "[Event \"x\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 {ok} (2. f4 $1) Nc6?! 3. O-O-O+ *\n",
        "[Annotator \"Lopez \"Battle Royale\"\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 -- 5. Z0 *",
        "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. o-o o-o *",
    ] {
        assert!(pgn::lexed_fast(plain), "not lexed: {plain}");
        let (a, b) = both("pgn", plain);
        assert_eq!(a, b, "{plain}");
    }
    for text in [
        "{pre}\n[Event \"x\"]\n\n1. e4 *",
        "[Event \"a \\\"b\\\"\"]\n\n1. e4 *",
        "[Event \"a \"b\" c\n\"]\n\n1. e4 *",
        "[Event x]\n\n1. e4 *",
        "1. e2e4 *",
        "1. e2-e4 *",
        "1. 0-0-1 *",
        "1. O-o *",
        "1. e4 ---- *",
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
        let (a, b) = both("pgn", text);
        assert_eq!(a, b, "{text}");
    }
    for text in [
        "1. 32-28 19-23 2. 1- 6 28x19 2-0",
        "1. c3-d4 f6-g5 2. b2-c3 g5xe3 3. d2xf4 *",
        "1. E3-D4 a3b4 2. w6xx5 3-d4 *",
    ] {
        assert!(draughts_num::lexed_fast(text), "not lexed: {text}");
        let (a, b) = both("draughts-num", text);
        assert_eq!(a, b, "{text}");
    }
    for text in [
        "1. c3- *",
        "1. c345-d4 *",
        "1. a3b4-c5 *",
        "1. a3b *",
        "1. 1234-5 *",
        "32-2832-28 1. ",
        "1. 32- *",
        "1. 1-1 5-10 *",
        "1. 32-28- *",
    ] {
        assert!(!draughts_num::lexed_fast(text), "lexed: {text}");
        let (a, b) = both("draughts-num", text);
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

/// Movetext of plain pieces with a trap now and then, some after tags.
fn records(
    plain: &'static [&'static str],
    traps: &'static [&'static str],
    tags: &'static str,
) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        9 => prop::sample::select(plain),
        1 => prop::sample::select(traps),
    ];
    let sep = prop_oneof![Just(" "), Just(""), Just("\n"), Just("  ")];
    let text = prop::collection::vec((piece, sep), 0..24).prop_map(|v| {
        v.into_iter()
            .map(|(p, sep)| format!("{p}{sep}"))
            .collect::<String>()
    });
    (text, prop::bool::ANY).prop_map(move |(text, tagged)| {
        if tagged {
            format!("{tags}\n{text}")
        } else {
            text
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn fast_lexer_and_grammar_agree_on_any_movetext(
        record in records(PLAIN, TRAPS, "[Event \"e\"]\n[Site \"s\"]\n"),
    ) {
        let (a, b) = both("pgn", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }

    #[test]
    fn fast_lexer_and_grammar_agree_on_any_text(
        text in prop_oneof![
            any::<String>(),
            "[ -~\n]{0,80}",
            "[0-9a-hxNBRQKO+#=.(){}$!? \n-]{0,60}",
        ],
    ) {
        for format in ["pgn", "draughts-num"] {
            let (a, b) = both(format, &text);
            prop_assert_eq!(a, b, "{} record: {:?}", format, text);
        }
    }

    #[test]
    fn fast_lexer_and_grammar_agree_on_any_tag_value(
        value in "[a \t\"\\\\\\]\\[\n]{0,12}",
        name in "[A-Za-z \"\\]]{0,4}",
    ) {
        let record = format!("[{name} \"{value}\"]\n[Site \"s\"]\n\n1. e4 e5 *");
        let (a, b) = both("pgn", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }

    #[test]
    fn fast_lexer_and_grammar_agree_on_any_draughts_movetext(
        record in records(DRAUGHTS_PLAIN, DRAUGHTS_TRAPS, "[Event \"e\"]\n[GameType \"20\"]\n"),
    ) {
        let (a, b) = both("draughts-num", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    /// Every form of diagonal coordinates (`f45`, `gf5`, `e8g6x`, `f11-g11`,
    /// `f4f5`...), glued to what may follow them, read the same by the
    /// lexer (its `form_of`) and the grammar.
    #[test]
    fn fast_lexer_and_grammar_agree_on_any_diag_movetext(
        record in records(DIAG_PLAIN, DIAG_TRAPS, "[Event \"e\"]\n[GameType \"20\"]\n"),
        glued in "[a-z0-9x:\\- ]{0,12}",
    ) {
        let (a, b) = both("draughts-diag", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
        let record = format!("[GameType \"20\"]\n\n1. {glued} *");
        let (a, b) = both("draughts-diag", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }
}

/// Diagonal movetext the lexer reads.
const DIAG_PLAIN: &[&str] = &[
    "1.", "2.", "12.", "1...", "f45", "gf5", "e8g6x", "eg8x", "f46x", "f6x", "e8g6i6x", "f4f5",
    "f11-g11", "e8xg6", "e8:g6", "f4-f5", "a1", "!", "?!", "$3", "{c}", "(", ")", ";l\n", "*",
    "2-0", "0-2", "1-1",
];

/// Traps for the diagonal lexer.
const DIAG_TRAPS: &[&str] = &[
    "f4", "f45xx", "f456", "z45", "F45", "f4-", "f4-g", "x", "32-28", "f45g", "f4f5f6", "e8g6i",
    "(!)", "}", "…", "[", "3",
];

/// Draughts movetext the lexer reads.
const DRAUGHTS_PLAIN: &[&str] = &[
    "1.", "2.", "12.", "1...", "32-28", "19-23", "28x19", "14x23", "28x19x10", "1- 6", "47x 9",
    "1-10", "10-15", "05-10", "33:22", "33X22", "c3-d4", "E3-D4", "a3b4", "e3xc5", "g3:e5:c3",
    "a10-b9", "c3-28", "28-c3", "w6xx5", "c3x d4", "!", "?!", "$3", "{c}", "(", ")", ";l\n", "*",
    "2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2",
];

/// Traps for the draughts lexer.
const DRAUGHTS_TRAPS: &[&str] = &[
    "c3-", "c345-d4", "a3b4-c5", "a3b", "a3b456", "c3x", "c3xy", "K", "1234-5", "32-", "32- ", "-",
    "x", "1/2", "½-½", "2-0x", "1-1-1", "32-28-", "(!)", "}", "%e\n", "…", "[", "3", "- -",
];
