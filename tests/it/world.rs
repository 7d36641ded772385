//! Read what the world writes (issue 21): each class of damage that real
//! exports and other projects' test suites show, generated in many forms
//! over clean games of several families, must read as the clean games do
//! (the same games written, none failed), with the warning of its kind.
//! Each class has a property test here; `conformance/pgn.py` runs kifu
//! against python-chess over the peers' suites themselves.

use crate::common;

use std::io::Cursor;

use proptest::prelude::*;

use common::*;
use kifu::archive::{read_record, Records};
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::format::by_name;

/// Clean games of each container family that the damage is put into:
/// tags, a blank line, movetext tokens (the last the result).
pub(crate) const GAMES: &[(&str, &[&str])] = &[
    (
        "pgn",
        &[
            "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0",
            "[Event \"B\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 0-1",
            "[Event \"C\"]\n[Result \"1/2-1/2\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 {x} 4. d4 Nf6 1/2-1/2",
            "[Event \"D\"]\n[Result \"*\"]\n\n1. e4 d5 2. e5 f5 3. exf6 e6 4. d4 Bd6 *",
        ],
    ),
    (
        "draughts-num",
        &[
            "[Event \"A\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 10-14 2-0",
            "[Event \"B\"]\n[GameType \"20\"]\n[Result \"1-1\"]\n\n1. 31-27 17-21 2. 33-29 21-26 1-1",
        ],
    ),
    (
        "tafl",
        &["[Event \"A\"]\n[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 *"],
    ),
];

/// Converts a whole input in process, as `convert` does: every record the
/// format's scanner finds, read (with the repairs) and written back in
/// the same format. The games written, how many failed, and the kinds of
/// the warnings.
pub(crate) fn convert_all(format: &str, input: &[u8]) -> (Vec<String>, usize, Vec<&'static str>) {
    let f = by_name(format).expect("a format");
    let write = f.write.expect("a writer");
    let (stream, _) = kifu::input::decompressed(Cursor::new(input.to_vec())).expect("in memory");
    let mut records = Records::new(stream, f.split);
    let (mut games, mut failed, mut kinds) = (Vec::new(), 0, Vec::new());
    while let Some(batch) = records.next_batch(1 << 16).expect("in memory") {
        for r in &batch.records {
            let bytes = &batch.data[r.range.clone()];
            if !r.is_game {
                if f.split.has_text(bytes) {
                    kinds.push("stray-comments");
                }
                continue;
            }
            match read_record(f, &ReadOptions::default(), bytes) {
                Ok(p) => {
                    kinds.extend(p.warnings.iter().map(|w| w.kind.name()));
                    let mut out = String::new();
                    write(&p.game, &WriteOptions::default(), &mut out).expect("written");
                    games.push(out);
                }
                Err(_) => failed += 1,
            }
        }
    }
    (games, failed, kinds)
}

/// The clean input of a family: its games, a blank line apart.
pub(crate) fn clean(family: usize) -> String {
    GAMES[family].1.join("\n\n") + "\n"
}

/// Where blanks go between two tokens of the movetext of `text`: byte
/// offsets of each run of spaces after the tags.
pub(crate) fn gaps(text: &str) -> Vec<usize> {
    let body = text.find("\n\n").map_or(0, |i| i + 2);
    let mut out = Vec::new();
    let mut in_comment = false;
    let mut line_start = true;
    let mut tag_line = false;
    for (i, c) in text.char_indices().skip_while(|&(i, _)| i < body) {
        if line_start {
            tag_line = c == '[';
        }
        line_start = c == '\n';
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            ' ' | '\n' if !in_comment && !tag_line => out.push(i),
            _ => {}
        }
    }
    out
}

/// Inserts `pieces` at the offsets chosen among `at` by `picks`.
pub(crate) fn insert_at(text: &str, at: &[usize], picks: &[(usize, String)]) -> String {
    let mut spots: Vec<(usize, &str)> = picks
        .iter()
        .map(|(k, piece)| (at[k % at.len()], piece.as_str()))
        .collect();
    spots.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (i, piece) in spots {
        out.insert_str(i, piece);
    }
    out
}

/// What the clean input of a family reads as.
pub(crate) fn clean_games(family: usize) -> Vec<String> {
    let (games, failed, kinds) = convert_all(GAMES[family].0, clean(family).as_bytes());
    assert_eq!(failed, 0, "{kinds:?}");
    assert!(kinds.is_empty(), "{kinds:?}");
    games
}

fn escape() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(" \\r".to_string()),
        Just("\\r\\n".to_string()),
        Just(" \\n ".to_string()),
        Just("\\t".to_string()),
        Just("\n\\r\n".to_string()),
        Just(" \\r\\n\\r\\n".to_string()),
    ]
}

fn dash() -> impl Strategy<Value = char> {
    proptest::sample::select(vec![
        '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
        '\u{FE63}', '\u{FF0D}',
    ])
}

/// Text a person would not take for a game, left between games.
fn junk() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\u{ff}".to_string()),
        Just("\\r".to_string()),
        Just("[/pgn]".to_string()),
        Just("[pgn]".to_string()),
        Just("\u{2014}\u{2014}".to_string()),
        Just(", ,".to_string()),
        Just("\\".to_string()),
        Just("\u{b6}".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// `\r`, `\n`, `\t` written out as text where a blank goes: in the
    /// movetext, after the result, on lines of their own.
    #[test]
    fn escape_sequences_as_text_read_as_blanks(
        family in 0..GAMES.len(),
        picks in proptest::collection::vec((any::<usize>(), escape()), 1..6),
    ) {
        let text = clean(family);
        let damaged = insert_at(&text, &gaps(&text), &picks);
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        // (None said when every one is after the last game: blanks.)
        prop_assert!(kinds.iter().all(|&k| k == "escape-as-text"), "{:?}", kinds);
    }

    /// Dashes written as Unicode look-alikes, in moves and results.
    #[test]
    fn unicode_dashes_read_as_hyphens(family in 0..GAMES.len(), dashes in proptest::collection::vec((any::<bool>(), dash()), 1..40)) {
        // Every `-` of the movetext (tag lines keep theirs: a tag's value
        // is text).
        let mut k = 0;
        let damaged: String = clean(family)
            .split_inclusive('\n')
            .map(|line| {
                if line.starts_with('[') {
                    return line.to_string();
                }
                line.chars()
                    .map(|c| {
                        if c != '-' {
                            return c;
                        }
                        let (swap, d) = dashes[k % dashes.len()];
                        k += 1;
                        if swap { d } else { '-' }
                    })
                    .collect()
            })
            .collect();
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        prop_assert!(kinds.iter().all(|&k| k == "unicode-dash"), "{:?}", kinds);
    }

    /// Junk between a game's result and the next game: the games are read
    /// as they are, the junk is said to belong to no game.
    #[test]
    fn text_between_games_is_no_game(
        family in 0..GAMES.len(),
        lines in proptest::collection::vec(junk(), 1..4),
        same_line in any::<bool>(),
    ) {
        let glue = if same_line { " " } else { "\n" };
        let sep = format!("{glue}{}\n\n", lines.join("\n"));
        let damaged = GAMES[family].1.join(&sep) + &sep;
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(&games, &clean_games(family), "{}", damaged);
        // Text that is a blank (`\r` written out, a wrapper line) may pass
        // unsaid after the last game; anything else is said.
        if lines.iter().any(|l| !matches!(l.as_str(), "\\r" | "[pgn]" | "[/pgn]")) {
            prop_assert!(!kinds.is_empty(), "{}", damaged);
        }
    }

    /// A variation that cannot be played, after any move of the main line:
    /// kept as a comment, the main line read.
    #[test]
    fn unplayable_variations_are_kept_as_text(
        family in 0..GAMES.len(),
        // Variations no game of GAMES can play wherever they stand (no
        // queen of theirs ever reaches h6 or h3; `Qh5 Qh4` was playable
        // after `1. e4 e5`).
        picks in proptest::collection::vec((any::<usize>(), proptest::sample::select(vec![
            "(1. Qh6 Qh3 2. Qxh3)", "(Kxe8, Qxe7 {why})", "(3... Zz9)", "(1. e4 (1... Qxd1))", ")",
        ])), 1..3),
    ) {
        let text = clean(family);
        // After a move: the gaps that follow a token that is no number.
        let results = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "1-1"];
        let after_moves: Vec<usize> = gaps(&text)
            .into_iter()
            .filter(|&i| {
                let before = &text[..i];
                let next = text[i..].trim_start();
                !before.ends_with('.')
                    && !before.ends_with('}')
                    && !results.iter().any(|r| before.ends_with(r))
                    && !next.is_empty()
                    && !next.starts_with('[')
            })
            .collect();
        let picks: Vec<(usize, String)> = picks.into_iter().map(|(k, v)| (k, format!(" {v}"))).collect();
        let damaged = insert_at(&text, &after_moves, &picks);
        let (games, failed, kinds) = convert_all(GAMES[family].0, damaged.as_bytes());
        prop_assert_eq!(failed, 0, "{}", damaged);
        prop_assert_eq!(games.len(), clean_games(family).len());
        // (Text in parentheses that holds no move at all is read as a
        // comment, as before: paren-comment.)
        prop_assert!(
            kinds.iter().any(|&k| matches!(k, "variation-as-text" | "stray-paren" | "paren-comment")),
            "{:?} {}", kinds, damaged
        );
        // Each main line is the clean one: the moves once the comments
        // are taken out.
        for (got, want) in games.iter().zip(clean_games(family)) {
            prop_assert_eq!(moves_only(got), moves_only(&want), "{}", damaged);
        }
    }

    /// UTF-16, either byte order, with or without its mark.
    #[test]
    fn utf16_inputs_are_decoded(family in 0..GAMES.len(), big in any::<bool>(), mark in any::<bool>()) {
        let text = clean(family);
        let mut bytes: Vec<u8> = Vec::new();
        if mark {
            bytes.extend(if big { [0xFE, 0xFF] } else { [0xFF, 0xFE] });
        }
        for u in text.encode_utf16() {
            bytes.extend(if big { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        let (games, failed, kinds) = convert_all(GAMES[family].0, &bytes);
        prop_assert_eq!(failed, 0);
        prop_assert_eq!(&games, &clean_games(family));
        prop_assert!(kinds.is_empty(), "{:?}", kinds);
    }
}

/// The main line of a written game: its movetext without comments,
/// variations, move numbers and blanks.
pub(crate) fn moves_only(game: &str) -> String {
    let body = game.find("\n\n").map_or(game, |i| &game[i..]);
    let mut text = String::new();
    let mut depth = 0;
    for c in body.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace()
        .filter(|t| {
            !(t.ends_with('.') && t.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The NAG symbols where a NAG goes, each read as its `$n`.
#[test]
fn nag_symbols_are_read_as_their_nags() {
    for &(symbol, nag) in kifu::container::NAG_SYMBOLS.iter() {
        let input = format!("1. e4 {symbol} e5 {symbol} {{c}} 2. Nf3 *\n");
        let (games, failed, _) = convert_all("pgn", input.as_bytes());
        assert_eq!(failed, 0, "{symbol}");
        assert!(
            games[0].contains(&format!("1. e4 ${nag} e5 ${nag} {{c}}")),
            "{symbol}: {}",
            games[0]
        );
    }
}

/// The scalachess, pgn-extract and python-chess forms, through the binary.
#[test]
fn the_peers_forms_convert_with_their_warnings() {
    let cases: &[(&str, &str, &str)] = &[
        ("1. e4 d5 2. e5 f5 3. exf6e.p. *", "3. exf6", ""),
        ("1. e4 d5 2. e5 f5 3. exf6ep *", "3. exf6", ""),
        (
            "1. e4 e6 2. d4 d5 3. Nc3 (3. e5) 3. .. Nf6 *",
            "3... Nf6",
            "",
        ),
        ("1. e4 e5 (1.. c5 2. Nf3) 2. Nf3 ..Nc6 *", "(1... c5", ""),
        (
            "[Result \"1\u{2013}0\"]\n\n1. e4 e5 1\u{2013}0",
            "1. e4 e5 1-0",
            "unicode-dash",
        ),
        (
            "1. Nf3 d5 2. g3 Nf6 3. Bg2 e6 4. O\u{2011}O Be7 *",
            "4. O-O",
            "unicode-dash",
        ),
        ("[pgn]\n1. e4 e5 *\n[/pgn]\n", "1. e4 e5 *", "wrapper-line"),
        (
            "[Result \"1-0\"]\n\n1. e4 e5 0-1",
            "1. e4 e5 0-1",
            "result-mismatch",
        ),
        (
            "1. e4 (1. d4))) e5 *",
            "1. e4 (1. d4) 1... e5 *",
            "stray-paren",
        ),
        ("((( 1. c4 *", "1. c4 *", "stray-paren"),
        (
            "1. e4 { a { b } c } e5 *",
            "{ a ( b ) c }",
            "nested-comment",
        ),
        ("[White \"S\"]\n[Result \"+--\"]\n\n +--", "1-0", ""),
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1\"]\n\n1. Kd2 *",
            "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]",
            "fen-repair",
        ),
    ];
    for &(input, want, kind) in cases {
        let out = convert("pgn", "pgn", &[], input.as_bytes());
        no_panic(&out);
        let err = stderr(&out);
        assert_eq!(counts(&out), (1, 0), "{input}: {err}");
        assert!(stdout(&out).contains(want), "{input}: {}", stdout(&out));
        if !kind.is_empty() {
            assert!(err.contains(&format!("warning[{kind}]")), "{input}: {err}");
        }
    }
}
