//! What a writer writes, kifu reads back: every board size the GameType tag
//! allows, every numbering, every result, in draughts-num and draughts-diag,
//! and every result in a chess game written as pgn. A writer may refuse a
//! game (an error) or say what it could not keep (a warning), never write a
//! file that does not read back.

use crate::common;

use proptest::collection::vec;
use proptest::prelude::*;

use kifu::codec::{ReadOptions, WriteOptions};
use kifu::family::draughts::{Board, Move as DMove, Square};
use kifu::family::{Family, Move, Variant};
use kifu::format::by_name;
use kifu::ir::{Game, GameResult, Line, Ply, Tag};

const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// A board from GameType fields over the whole range the reader accepts.
fn board() -> impl Strategy<Value = Board> {
    (
        proptest::sample::select(vec![20u8, 21, 22, 27, 50]),
        any::<bool>(),
        2u8..=13,
        4u8..=26,
        any::<bool>(),
        0u8..4,
        any::<bool>(),
    )
        .prop_map(|(n, white, half_width, height, alpha, corner, invert)| {
            let value = format!(
                "{n},{},{},{height},{}{corner},{}",
                if white { 'W' } else { 'B' },
                half_width * 2,
                if alpha { 'A' } else { 'N' },
                u8::from(invert)
            );
            Board::from_game_type(&value).expect("a GameType in range")
        })
}

fn game() -> impl Strategy<Value = Game> {
    (board(), 0usize..RESULTS.len(), 0usize..RESULTS.len())
        .prop_flat_map(|(board, result, tag)| {
            let n = board.square_count();
            let mv = (vec(1..=n, 2..4), any::<bool>()).prop_map(|(path, capture)| DMove {
                capture: capture || path[0] == path[path.len() - 1],
                path: path.into_iter().map(Square).collect(),
            });
            (Just(board), vec(mv, 0..6), Just(result), Just(tag))
        })
        .prop_map(|(board, moves, result, tag)| {
            let mut game = Game::new(Variant::Draughts(board));
            game.tags = vec![
                Tag::new("Result", RESULTS[tag]),
                Tag::new("GameType", board.game_type_string()),
            ];
            let mut line = Line::default();
            let (mut number, mut side) = (1, board.first);
            for m in moves {
                line.plies.push(Ply::new(number, side, Move::Draughts(m)));
                if side != board.first {
                    number += 1;
                }
                side = side.other();
            }
            game.moves = line;
            game.result = GameResult::parse(RESULTS[result]).map(|r| r.in_family(Family::Draughts));
            game
        })
}

/// Writes `game` in `format`; when the writer takes it, reads it back (by
/// syntax alone: the games are made up move by move) and returns the game
/// read and whether the writer warned.
fn write_and_read(format: &str, game: &Game) -> Option<(String, Game, bool)> {
    let f = by_name(format).expect("a format");
    let mut text = String::new();
    let warnings = (f.write.expect("a writer"))(game, &WriteOptions::default(), &mut text).ok()?;
    let opts = ReadOptions {
        no_validate: true,
        ..ReadOptions::default()
    };
    let back = f
        .read
        .expect("a reader")
        .game(&text, &opts)
        .unwrap_or_else(|e| panic!("{format} wrote what it cannot read: {e:?}\n{text}"));
    Some((text, back.game, !warnings.is_empty()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn every_board_and_result_reads_back_or_is_refused(game in game()) {
        for format in ["draughts-num", "draughts-diag"] {
            if let Some((text, back, _)) = write_and_read(format, &game) {
                prop_assert_eq!(&back, &game, "{}:\n{}", format, text);
            }
        }
    }
}

#[test]
fn every_board_size_reads_back_or_is_refused() {
    // Each size once, with a move between its two corner squares.
    let mut diag_written = 0;
    for width in (4..=26).step_by(2) {
        for height in 4..=26 {
            let board = Board::from_game_type(&format!("20,W,{width},{height},N2,0")).unwrap();
            let last = board.square_count();
            let mut game = Game::new(Variant::Draughts(board));
            game.tags = vec![Tag::new("GameType", board.game_type_string())];
            game.result = Some(GameResult::UNKNOWN);
            for (i, path) in [[1, last], [last, 1]].into_iter().enumerate() {
                let m = DMove {
                    path: path.into_iter().map(Square).collect(),
                    capture: i == 1,
                };
                let side = if i == 0 {
                    board.first
                } else {
                    board.first.other()
                };
                game.moves.plies.push(Ply::new(1, side, Move::Draughts(m)));
            }
            for format in ["draughts-num", "draughts-diag"] {
                if let Some((text, back, _)) = write_and_read(format, &game) {
                    assert_eq!(back, game, "{format}:\n{text}");
                    diag_written += usize::from(format == "draughts-diag");
                }
            }
        }
    }
    // Every board of even height whose width and height add up to 48 at
    // most: all 12 x 12 even sizes but 24x26, 26x24 and 26x26.
    assert_eq!(diag_written, 12 * 12 - 3);
}

#[test]
fn every_result_of_a_chess_game_reads_back_or_warns() {
    let pgn = by_name("pgn").expect("pgn");
    let base = pgn
        .read
        .expect("reader")
        .game("[Event \"e\"]\n\n1. e4 e5 *\n", &ReadOptions::default())
        .expect("a chess game")
        .game;
    for tag in RESULTS.iter().map(Some).chain([None]) {
        for result in RESULTS.iter().map(|r| GameResult::parse(r)).chain([None]) {
            let mut game = base.clone();
            game.tags.retain(|t| t.name != "Result");
            if let Some(t) = tag {
                game.tags.push(Tag::new("Result", *t));
            }
            game.result = result;
            let Some((text, back, warned)) = write_and_read("pgn", &game) else {
                continue;
            };
            // Read back exactly, or said: and what was written is stable.
            assert!(
                warned || back.result == game.result || game.result.is_none(),
                "{text}"
            );
            let foreign = ["2-0", "0-2", "1-1", "0-0"];
            let movetext_result = text.trim_end().rsplit(' ').next().unwrap_or("");
            assert!(!foreign.contains(&movetext_result), "{text}");
            assert_eq!(
                warned,
                foreign.contains(&game.effective_result_source()),
                "{text}"
            );
            let (again, _, _) = write_and_read("pgn", &back).expect("written again");
            assert_eq!(again, text);
        }
    }
}

/// The result a chess writer starts from: the termination marker, else the
/// Result tag.
trait Source {
    fn effective_result_source(&self) -> &str;
}

impl Source for Game {
    fn effective_result_source(&self) -> &str {
        match self.result {
            Some(r) => r.token(),
            None => self.tag("Result").unwrap_or("*"),
        }
    }
}

/// Converts through the binary, then reads the output back with kifu.
fn through_and_back(
    from: &str,
    to: &str,
    input: &str,
) -> (std::process::Output, std::process::Output) {
    let out = common::convert(from, to, &[], input.as_bytes());
    let back = common::convert(to, to, &[], &out.stdout);
    (out, back)
}

#[test]
fn a_chess_game_with_a_draughts_result_is_written_with_star_and_a_warning() {
    for result in ["1-1", "2-0", "0-2", "0-0"] {
        let input = format!("[Event \"e\"]\n[Result \"{result}\"]\n\n1. e4\n");
        let (out, back) = through_and_back("pgn", "pgn", &input);
        assert!(out.status.success(), "{}", common::stderr(&out));
        let text = common::stdout(&out);
        assert!(text.contains(&format!("[Result \"{result}\"]")), "{text}");
        assert!(text.ends_with("\n1. e4 *\n"), "{text}");
        assert!(
            common::stderr(&out).contains(&format!("result `{result}` is not a chess result")),
            "{}",
            common::stderr(&out)
        );
        assert!(back.status.success(), "{}", common::stderr(&back));
        assert_eq!(common::stdout(&back), text);
    }
}

#[test]
fn diagonal_coordinates_of_wide_and_large_boards_read_back_or_are_refused() {
    // Digits over 10 on a board wider than tall: every square in full.
    let input = "[GameType \"20,W,14,8,N2,0\"]\n\n1. 1x7 *\n";
    let (out, back) = through_and_back("draughts-num", "draughts-diag", input);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        common::stdout(&out).contains("1. a5xg11 *"),
        "{}",
        common::stdout(&out)
    );
    assert!(back.status.success(), "{}", common::stderr(&back));
    let num = common::convert("draughts-diag", "draughts-num", &[], &out.stdout);
    assert!(
        common::stdout(&num).contains("1. 1x7 *"),
        "{}",
        common::stdout(&num)
    );

    // Past letter w (x marks captures): refused, located, nothing written.
    let input = "[GameType \"20,W,26,26,N2,0\"]\n\n1. 1-14 *\n";
    let out = common::convert("draughts-num", "draughts-diag", &[], input.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("-:1:1: error: game 1: diagonal coordinates need a board"),
        "{}",
        common::stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_alphanumeric_file_x_reads_as_a_square() {
    let input = "[GameType \"20,W,26,10,A0,0\"]\n\n1. w1-x2 y1xx2 *\n";
    let (out, back) = through_and_back("draughts-num", "draughts-num", input);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        common::stdout(&out).contains("1. w1-x2 y1xx2 *"),
        "{}",
        common::stdout(&out)
    );
    assert_eq!(common::stdout(&back), common::stdout(&out));
}

use crate::check;

/// Text made of what the PGN-style container has to take care of in a
/// comment or a tag value: line breaks, a tag's head at a line start,
/// braces, escapes, quotes, escape and line comment marks, results.
fn awkward() -> impl Strategy<Value = String> {
    let pieces = vec![
        "\n",
        "\r\n",
        "\r",
        "[Event \"",
        "[a \"x\"]",
        "  [Site \"",
        " ",
        "}",
        "{",
        "\\",
        "\"",
        "]",
        "[",
        "%",
        ";",
        "a",
        "1-0",
        "*",
        "(",
        ")",
    ];
    vec(proptest::sample::select(pieces), 0..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Comments of every kind (before the tags, before and after a move),
    /// tag values and tag names of any text are written so that the game reads back alone and whole, or
    /// refused: the text, written twice as the CLI frames it, is two games
    /// that each read back to it (the fuzz targets' check), and the game
    /// read back is the game written unless the writer warned.
    #[test]
    fn comments_and_tag_values_of_any_text_read_back_or_are_refused(
        pre in awkward(), before in awkward(), after in awkward(), value in awkward(),
        name in awkward(), kinds in vec(0usize..3, 3)
    ) {
        use kifu::ir::{Comment, CommentKind};
        let comment = |text: &str, k: usize| Comment {
            text: text.into(),
            kind: [CommentKind::Brace, CommentKind::Line, CommentKind::Escape][k],
        };
        for (format, record) in [
            ("pgn", "[Event \"e\"]\n\n1. e4 e5 *\n"),
            ("draughts-num", "[GameType \"20\"]\n\n1. 32-28 19-23 *\n"),
            ("draughts-diag", "[GameType \"20\"]\n\n1. e45 e76 *\n"),
        ] {
            let f = by_name(format).expect("a format");
            let mut game = f.read.expect("a reader").game(record, &ReadOptions::default())
                .expect("the record reads")
                .game;
            game.preamble = vec![comment(&pre, kinds[0])];
            game.moves.plies[0].before = vec![comment(&before, kinds[1])];
            game.moves.plies[1].after = [comment(&after, kinds[2])].into();
            game.tags.insert(0, Tag::new("Annotator", value.clone()));
            game.tags.push(Tag::new(format!("X{name}"), "x"));
            let mut text = String::new();
            let Ok(warnings) = (f.write.expect("a writer"))(&game, &WriteOptions::default(), &mut text)
            else {
                continue;
            };
            let records = check::game_records(check::format(format), text.as_bytes());
            prop_assert_eq!(records.len(), 1, "{} wrote {} games:\n{}", format, records.len(), text);
            check::round_trips_as_text(format, text.as_bytes());
            if warnings.is_empty() {
                let back = f.read.expect("a reader").game(&text, &ReadOptions::default())
                    .unwrap_or_else(|e| panic!("{format} wrote what it cannot read: {e:?}\n{text}"));
                prop_assert_eq!(&back.game.preamble, &game.preamble, "{}:\n{}", format, text);
                prop_assert_eq!(&back.game.moves, &game.moves, "{}:\n{}", format, text);
                prop_assert_eq!(back.game.tag("Annotator"), Some(value.as_str()), "{}:\n{}", format, text);
                prop_assert_eq!(back.game.tag(&format!("X{name}")), Some("x"), "{}:\n{}", format, text);
            }
        }
    }
}
