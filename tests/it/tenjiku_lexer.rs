//! tenjiku's fast lexer (its `tj_len`, which its whole read and its
//! stream take) against its grammar: every record reads the same (game,
//! warnings, or error with its place) whichever of the two reads it, on
//! the bundled and shared records and on generated movetext of Hodges
//! moves glued to the forms the lexer must leave to the grammar.

use std::path::Path;

use kifu::family::tenjiku::notation::lexed_fast;
use proptest::prelude::*;

use crate::common::fast_lexer::{both, check_dir, Lexing};

const TENJIKU: Lexing = ("tenjiku", lexed_fast);

#[test]
fn the_tenjiku_records_read_the_same_by_the_lexer_and_the_grammar() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tenjiku");
    let (all, fast) = check_dir(TENJIKU, &root, ".tenjiku");
    assert!(all > 0 && fast > 0, "tenjiku: {fast} of {all}");
    if let Some(shared) = crate::common::shared("shogi") {
        check_dir(TENJIKU, &shared, ".tenjiku");
    }
    for plain in [
        "1. P-9k P-10f 2. GGn-9l P-9f (2... P-8f {a}) 3. Ln-9m *",
        "1. FiD 6h-7e Lnx!7d 2. Ln 9nx10n-11m FiD-4jx!1 3. Ln-10e+ Ln-10e= *",
        "1. 7l-7k 7mx7e+ 2. P-8g! Dg-5i* *",
    ] {
        assert!(lexed_fast(plain), "not lexed: {plain}");
        let (a, b) = both("tenjiku", plain);
        assert_eq!(a, b, "{plain}");
    }
    for text in [
        "1. P-9十 *",
        "1. K 9o *",
        "1. P-8gX *",
        "1. P--8g *",
        "1. Kx!5A *",
    ] {
        assert!(!lexed_fast(text), "lexed: {text}");
        let (a, b) = both("tenjiku", text);
        assert_eq!(a, b, "{text}");
    }
}

/// Pieces of tenjiku movetext the lexer reads.
const PLAIN: &[&str] = &[
    "1.",
    "2.",
    "12.",
    "1...",
    "...",
    "P-8g",
    "Nx7d",
    "Nx7d=",
    "FiD 6h-7e",
    "FiD6h-7e",
    "Lnx!7d",
    "Ln 9nx10n-11m",
    "7l-7k",
    "7mx7e+",
    "+P-8g",
    "HT-3c",
    "FiD-4jx!1",
    "FiD-4jx!",
    "FiD-4jx!3f",
    "Dg-5i*",
    "P-8g!",
    "P-8g?!",
    "$1",
    "{c}",
    "(",
    ")",
    ";l\n",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
];

/// Traps: forms the lexer must leave to the grammar.
const TRAPS: &[&str] = &[
    "P-9十", "P-8二", "K", "K 9o", "x", "-", "+", "=", "x!", "P-", "P-8", "P-8G", "9", "8g",
    "P--8g", "Px!", "P-8g-", "P-8g**", "(!)", "}", "…", "[", "%e\n", "1-0x", "½-½",
];

/// Movetext of plain pieces with a trap now and then, glued or spaced,
/// some after tags.
fn records() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        9 => prop::sample::select(PLAIN),
        1 => prop::sample::select(TRAPS),
    ];
    let sep = prop_oneof![Just(" "), Just(""), Just("\n"), Just("\t")];
    let text = prop::collection::vec((piece, sep), 0..24).prop_map(|v| {
        v.into_iter()
            .map(|(p, sep)| format!("{p}{sep}"))
            .collect::<String>()
    });
    (text, prop::bool::ANY).prop_map(|(text, tagged)| {
        if tagged {
            format!("[Event \"e\"]\n\n{text}")
        } else {
            text
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn tenjiku_lexer_and_grammar_agree_on_any_movetext(record in records()) {
        let (a, b) = both("tenjiku", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }

    #[test]
    fn tenjiku_lexer_and_grammar_agree_on_any_move(
        glued in "[+A-Za-z0-9x!*=\\- \t十二]{1,14}",
    ) {
        let record = format!("1. {glued} *");
        let (a, b) = both("tenjiku", &record);
        prop_assert_eq!(a, b, "record: {:?}", record);
    }
}
