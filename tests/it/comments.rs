//! Comments as chess records carry them (issue 37): lichess clocks and
//! evaluations, engine reports longer than a line, text on several lines,
//! non-ASCII text, `;` comments, comments in variations and before the
//! tags. Each is written as it was read, laid out as before (the expected
//! text is what kifu wrote before comments were shared slices of the
//! record), whether the fast lexer or the grammar reads it.

use crate::common::{convert, stderr, stdout};
use proptest::prelude::*;

/// A game with a comment of every shape.
const SHAPES: &str = r#"[Event "Shapes"]
[Site "?"]
[Date "2026.11.28"]
[Round "1"]
[White "Engine A"]
[Black "Engine B"]
[Result "1-0"]

{Opening book: Ruy López, Berlin — 中文 comment before the game}
1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 { [%eval 0.21] [%clk 0:02:58] } 2. Nf3
{d=27, sd=40, mt=12345, tl=5400000, s=23456789, n=345678901, pv=Nc6 Bb5 Nf6 O-O Nxe4 Re1 Nd6 Nxe5 Be7 Bf1 Nxe5 Rxe5 O-O d4 Bf6 Re1, tb=0, h=12.3, ph=0.0, wv=0.23, R50=50, Rd=-11, Rr=-1000, mb=+0+0+0+0+0,}
Nc6 {a comment
on two lines, the second one long enough to reach past the eightieth column of its line} 3. Bb5 ; a line comment é
a6 {émoji ♞ and accents — wide} (3... Nf6 {the Berlin} 4. O-O) 4. Ba4 {}
Nf6 1-0
"#;

/// What `kifu convert --from pgn --to pgn` writes of [`SHAPES`].
const WRITTEN: &str = r#"[Event "Shapes"]
[Site "?"]
[Date "2026.11.28"]
[Round "1"]
[White "Engine A"]
[Black "Engine B"]
[Result "1-0"]

{Opening book: Ruy López, Berlin — 中文 comment before the game} 1. e4
{ [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval 0.21] [%clk 0:02:58] } 2. Nf3
{d=27, sd=40, mt=12345, tl=5400000, s=23456789, n=345678901, pv=Nc6 Bb5 Nf6 O-O Nxe4 Re1 Nd6 Nxe5 Be7 Bf1 Nxe5 Rxe5 O-O d4 Bf6 Re1, tb=0, h=12.3, ph=0.0, wv=0.23, R50=50, Rd=-11, Rr=-1000, mb=+0+0+0+0+0,}
2... Nc6
{a comment
on two lines, the second one long enough to reach past the eightieth column of its line}
3. Bb5 ; a line comment é
3... a6 {émoji ♞ and accents — wide} (3... Nf6 {the Berlin} 4. O-O) 4. Ba4 {}
4... Nf6 1-0
"#;

#[test]
fn every_shape_of_comment_is_written_as_before() {
    for extra in [&[][..], &["--grammar-only"][..], &["-j", "1"][..]] {
        let out = convert("pgn", "pgn", extra, SHAPES.as_bytes());
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), WRITTEN, "{extra:?}");
    }
    // Written again, it is what it was.
    let again = convert("pgn", "pgn", &[], WRITTEN.as_bytes());
    assert_eq!(stdout(&again), WRITTEN);
}

/// The text of a comment: clocks, engine reports, words of any script,
/// short or longer than a line, on one line or several.
fn body() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        "[a-z0-9=,.+-]{1,12}",
        Just("[%clk 0:01:02]".to_string()),
        Just("[%eval -0.35]".to_string()),
        Just("pv=Nf3 d5 c4 e6 Nc3".to_string()),
        "[é—♞中]{1,3}",
        Just("\n".to_string()),
        Just("\r\n".to_string()),
    ];
    prop::collection::vec(word, 0..30).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Comments of any of those texts after moves, before the first and in
    /// a variation are written as they were read (`{text}` whole in the
    /// output), the fast lexer and the grammar write the same, and what is
    /// written reads back to itself.
    #[test]
    fn comments_are_copied_whole_and_read_back(bodies in prop::collection::vec(body(), 6)) {
        let b = &bodies;
        let record = format!(
            "[Event \"e\"]\n\n{{{}}} 1. e4 {{{}}} e5 {{{}}} (1... c5 {{{}}} 2. Nf3 {{{}}}) 2. Nf3 {{{}}} *\n",
            b[0], b[1], b[2], b[3], b[4], b[5]
        );
        let out = convert("pgn", "pgn", &[], record.as_bytes());
        prop_assert!(out.status.success(), "{}", stderr(&out));
        let written = stdout(&out);
        for body in b {
            let whole = format!("{{{body}}}");
            prop_assert!(written.contains(&whole), "{whole:?} not in\n{written}");
        }
        let grammar = convert("pgn", "pgn", &["--grammar-only"], record.as_bytes());
        prop_assert_eq!(stdout(&grammar), written.clone());
        let again = convert("pgn", "pgn", &[], written.as_bytes());
        prop_assert_eq!(stdout(&again), written);
    }
}
