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

/// A comment of any kind the container holds, written as a record holds
/// it: `{...}`, `;...` to the end of its line, a `%` line, text in
/// parentheses that is no variation. Its text plain (ASCII on one line,
/// without `}`: decided once, as it is read, and written without a look
/// at it) or not: a `}` in a `;` comment, a line break, a tab, a control,
/// a letter outside ASCII.
fn any_comment() -> impl Strategy<Value = String> {
    let plain = "[a-zA-Z0-9 =,.:+%\\[\\]-]{0,100}";
    let odd = "[a-z {}é♞\t\x01]{0,40}";
    prop_oneof![
        3 => plain.prop_map(|t| format!("{{{t}}}")),
        2 => body().prop_map(|t| format!("{{{t}}}")),
        1 => odd.prop_map(|t| format!("{{{}}}", t.replace('}', ""))),
        1 => odd.prop_map(|t| format!(";{t}\n")),
        1 => plain.prop_map(|t| format!(";{t}\n")),
        1 => odd.prop_map(|t| format!("\n%{t}\n")),
        1 => plain.prop_map(|t| format!("\n%{t}\n")),
        1 => "[a-z ]{1,20}".prop_map(|t| format!("(see {t})")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever reads a comment decides whether it is plain as the writer
    /// would: a record with comments of every kind is written the same by
    /// the fast lexer whole (`--read-whole`), the grammar (`--grammar-only`),
    /// a reading a run at a time and a ply at a time (`--run-bytes 0`) and
    /// through JSON (whose reader makes
    /// each text anew), in chess and in draughts, and what is written
    /// reads back to itself.
    #[test]
    fn every_reader_of_a_comment_writes_it_alike(c in prop::collection::vec(any_comment(), 5)) {
        for (format, head, moves) in [
            ("pgn", "[Event \"e\"]", ["1. e4", "e5", "(1... c5", "2. Nf3)", "2. Nf3"]),
            ("draughts-num", "[GameType \"20\"]", ["1. 31-27", "20-24", "(1... 19-23", "2. 36-31)", "2. 36-31"]),
        ] {
            let record = format!(
                "{head}\n\n{} {} {} {} {} {} {} {} {} {} *\n",
                moves[0], c[0], moves[1], c[1], moves[2], c[2], moves[3], c[3], moves[4], c[4]
            );
            let out = convert(format, format, &["--read-whole"], record.as_bytes());
            prop_assert!(out.status.success(), "{format}: {}", stderr(&out));
            let written = stdout(&out);
            for extra in [&["--grammar-only"][..], &[][..], &["--run-bytes", "0"][..]] {
                let other = convert(format, format, extra, record.as_bytes());
                prop_assert_eq!(stdout(&other), written.clone(), "{} {:?}", format, extra);
            }
            let json = convert(format, "json", &[], record.as_bytes());
            prop_assert!(json.status.success(), "{format}: {}", stderr(&json));
            let back = convert("json", format, &[], &json.stdout);
            prop_assert_eq!(stdout(&back), written.clone(), "{} through json", format);
            let again = convert(format, format, &[], written.as_bytes());
            prop_assert_eq!(stdout(&again), written.clone(), "{} read back", format);
        }
    }
}
