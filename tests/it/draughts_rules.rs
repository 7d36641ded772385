//! Draughts move legality: every game read with validation on (the
//! default) is replayed on its board by the rules of its GameType, and a
//! move that cannot be played fails the game at the move, saying why and in
//! which position. In-process tables for the rules; the binary for
//! `--no-validate` and what a file's conversion says.

use crate::common;

use common::*;
use kifu::codec::ReadOptions;

/// A record of one game on a GameType's board, from a FEN position (empty:
/// the start position), with the movetext on line 4 (line 3 without FEN).
fn record(game_type: &str, fen: &str, moves: &str) -> String {
    let fen = if fen.is_empty() {
        String::new()
    } else {
        format!("[FEN \"{fen}\"]\n")
    };
    format!("[GameType \"{game_type}\"]\n{fen}\n{moves} *\n")
}

/// Reads a record as draughts-num with validation on: the error, if any,
/// as `LINE:COL: message`.
fn judged(text: &str) -> Result<(), String> {
    kifu::family::draughts::num::read(text, &ReadOptions::default())
        .map(|_| ())
        .map_err(|e| format!("{}:{}: {}", e.line, e.col, e.message))
}

#[test]
fn impossible_moves_are_refused_at_the_move_with_why_and_the_position() {
    // (GameType, FEN, moves, the error's start).
    let cases = [
        // A move from an empty square.
        (
            "20",
            "",
            "1. 32-28 19-23 2. 22-17",
            "3:19: 2. 22-17: no piece of White on 22 (position: W:W28,31,33,",
        ),
        // From a square holding the other side's piece.
        (
            "20",
            "",
            "1. 19-23",
            "3:4: 1. 19-23: the piece on 19 is Black's, and White is to move (position: W:W31,",
        ),
        // Onto an occupied square.
        (
            "20",
            "",
            "1. 32-28 19-23 2. 28-23",
            "3:19: 2. 28-23: 23 is occupied",
        ),
        // A man moving backwards without capturing.
        (
            "20",
            "W:W28:B5",
            "1. 28-32",
            "4:4: 1. 28-32: a man does not move backwards (position: W:W28:B5)",
        ),
        // A step that is not diagonal.
        (
            "20",
            "W:W28:B5",
            "1. 28-18",
            "4:4: 1. 28-18: 28-18 is not a move along a diagonal",
        ),
        // A man moving two squares.
        (
            "20",
            "W:W28:B5",
            "1. 28-17",
            "4:4: 1. 28-17: a man moves one square",
        ),
        // A capture that jumps no opponent piece.
        (
            "20",
            "W:W28:B5",
            "1. 28x19",
            "4:4: 1. 28x19: no capture path from 28 to 19",
        ),
        // A flying king's move through a piece.
        (
            "20",
            "W:WK46,28:B1",
            "1. 46-5",
            "4:4: 1. 46-5: the diagonal from 46 to 5 is blocked at 28 (position: W:W28,K46:B1)",
        ),
        // A piece jumped twice.
        (
            "20",
            "W:WK46:B37",
            "1. 46x28x46",
            "4:4: 1. 46x28x46: no capture path from 46 through 28 to 46",
        ),
        // An English king flies nowhere.
        (
            "21",
            "B:W32:BK1",
            "1. 1-10",
            "4:4: 1. 1-10: a king moves one square in English draughts",
        ),
        // English men do not capture backwards (White moves up, from 21-32).
        (
            "21",
            "W:W18:B23",
            "1... 18x27",
            "4:6: 1... 18x27: no capture path from 18 to 27",
        ),
        // An Italian man does not capture a king.
        (
            "22",
            "W:W22:BK18",
            "1. 22x13",
            "4:4: 1. 22x13: no capture path from 22 to 13",
        ),
        // Pieces capture along rows in Frisian draughts alone.
        (
            "20",
            "W:W28:B27",
            "1. 28x26",
            "4:4: 1. 28x26: no capture path from 28 to 26",
        ),
        // A Brazilian man crowned during a capture does not go on as a king.
        (
            "26",
            "W:Wb6:Bc7,f6",
            "1. b6:d8:h4",
            "4:4: 1. b6:d8:h4: no capture path from b6 through d8 to h4",
        ),
        // A later move: the error is at that move, in its line.
        (
            "20",
            "",
            "1. 32-28 19-23 2. 28x19 14x23\n3. 33-28 10-14 4. 28x10 23-28",
            "4:25: 4... 23-28: no piece of Black on 23",
        ),
    ];
    for (game_type, fen, moves, expected) in cases {
        let text = record(game_type, fen, moves);
        let err = judged(&text).expect_err(&text);
        assert!(
            err.starts_with(expected),
            "{moves}:\n{err}\nnot\n{expected}"
        );
    }
}

#[test]
fn legal_moves_of_every_kind_are_read() {
    let cases = [
        // Men stepping forward, a single capture, a capture of two written
        // in full and by its ends.
        (
            "20",
            "",
            "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 10-14 4. 28x10",
        ),
        ("20", "W:W32:B27,17", "1. 32x21x12"),
        ("20", "W:W32:B27,17", "1. 32x12"),
        // International men capture backwards.
        ("20", "W:W28:B33", "1. 28x39"),
        // A flying king moves along an empty diagonal and captures from a
        // distance, landing anywhere beyond.
        ("20", "W:WK46:B1", "1. 46-5"),
        ("20", "W:WK46:B23", "1. 46x5"),
        ("20", "W:WK46:B23", "1. 46x14"),
        // A man reaching the far row is crowned: then it flies.
        ("20", "W:W6:B45", "1. 6-1 45-50 2. 1-23 50-6"),
        // An English king steps, backwards too.
        ("21", "B:W32:BK1", "1. 1-6"),
        ("21", "B:W32:BK10", "1. 10-6 32-27 2. 6-10"),
        // A Russian man crowned during a capture goes on as a flying king.
        ("25", "W:Wb6:Bc7,f6", "1. b6:d8:h4"),
        ("25", "W:Wb6:Bc7,f6", "1. b6:h4"),
        // Men capture kings, but in Italian draughts.
        ("21", "W:W22:BK18", "1... 22x15"),
        ("22", "W:W22:B18", "1. 22x13"),
        // A capture written with `-` (Nemesis) and a step written with `x`.
        ("20", "W:W28:B23", "1. 28-19"),
        ("20", "W:W28:B5", "1. 28x23"),
        // Frisian pieces also capture along rows and columns.
        ("40", "W:W28:B27", "1. 28x26"),
        ("40", "W:W28:B18", "1. 28x8"),
    ];
    for (game_type, fen, moves) in cases {
        let text = record(game_type, fen, moves);
        assert_eq!(judged(&text), Ok(()), "{text}");
    }
}

#[test]
fn an_ambiguous_capture_takes_the_path_the_next_moves_need() {
    // 38x18 jumps 33 and 23 (by 29) or 32 and 22 (by 27): Black's next move
    // says which pieces are still there. Every move of the game stays as
    // written.
    for (reply, taken) in [("23-28", "32 and 22"), ("33-39", "32 and 22")] {
        let text = record("20", "W:W38:B33,23,32,22", &format!("1. 38x18 {reply}"));
        assert_eq!(judged(&text), Ok(()), "{taken}: {text}");
    }
    for reply in ["22-27", "32-37"] {
        let text = record("20", "W:W38:B33,23,32,22", &format!("1. 38x18 {reply}"));
        assert_eq!(judged(&text), Ok(()), "{text}");
    }
    // The path written in full decides, and a piece it took cannot move.
    let text = record("20", "W:W38:B33,23,32,22", "1. 38x29x18 23-28");
    let err = judged(&text).unwrap_err();
    assert!(
        err.starts_with("4:13: 1... 23-28: no piece of Black on 23 (position: B:W18:B22,32)"),
        "{err}"
    );
    // When no path lets the game go on, the error is the one furthest in.
    let text = record("20", "W:W38:B33,23,32,22", "1. 38x18 23-28 2. 18-13 32-37");
    let err = judged(&text).unwrap_err();
    assert!(
        err.starts_with("4:25: 2... 32-37: no piece of Black on 32 (position: B:W13:B28,33)"),
        "{err}"
    );
}

#[test]
fn variations_are_replayed_from_the_position_before_their_ply() {
    let text = record(
        "20",
        "",
        "1. 32-28 (1. 33-28 18-23 (1... 19-23 2. 28x19 14x23) 2. 39-33) 1... 19-23 2. 28x19 14x23",
    );
    assert_eq!(judged(&text), Ok(()));
    // An impossible move inside a variation fails the game there.
    let text = record("20", "", "1. 32-28 (1. 33-28 18-23 2. 28-23) 1... 19-23");
    let err = judged(&text).unwrap_err();
    assert!(err.starts_with("3:29: 2. 28-23: 23 is occupied"), "{err}");
}

#[test]
fn diagonal_coordinates_are_judged_the_same() {
    // 32-28 is e45 in diagonal coordinates (from e4 to e5).
    let ok = "[GameType \"20\"]\n\n1. e45 *\n";
    let read = kifu::family::draughts::diag::read(ok, &ReadOptions::default());
    assert!(read.is_ok(), "{:?}", read.err());
    // From an empty square: e5 (28) to e6.
    let bad = "[GameType \"20\"]\n\n1. e56 *\n";
    let err = kifu::family::draughts::diag::read(bad, &ReadOptions::default()).unwrap_err();
    assert_eq!((err.line, err.col), (3, 4), "{}", err.message);
    assert!(
        err.message.starts_with("1. e56: no piece of White on 28"),
        "{}",
        err.message
    );
}

#[test]
fn boards_kifu_does_not_know_the_start_of_are_not_judged() {
    // A GameType that differs from its number's standard (square 1 in
    // another corner) is read as written, and its moves are not replayed.
    let text = "[GameType \"20,W,10,10,N1,0\"]\n\n1. 32-28 19-23 *\n";
    assert!(judged(text).is_ok());
    // Nor is the 10x10 board assumed for alphanumeric squares past h8
    // without a GameType tag.
    assert!(judged("1. c3-d4 f6-g5 2. d4xf6 3. i3-j4 *\n").is_ok());
    // Within a1-h8 they are Russian draughts' 8x8 board, and judged there.
    let err = judged("1. c3-d4 f6-g5 2. d4xf6 *\n").unwrap_err();
    assert!(
        err.starts_with("1:19: 2. d4xf6: no capture path from d4 to f6"),
        "{err}"
    );
}

#[test]
fn no_validate_reads_an_impossible_game_by_its_text() {
    let text = "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-23 *\n";
    let refused = convert("draughts-num", "draughts-num", &[], text.as_bytes());
    assert_eq!(refused.status.code(), Some(1));
    let err = stderr(&refused);
    assert!(
        err.contains("-:3:19: error: game 1: 2. 28-23: 23 is occupied (position: W:"),
        "{err}"
    );
    assert!(err.contains("converted 0 games, 1 failed"), "{err}");
    let loose = convert(
        "draughts-num",
        "draughts-num",
        &["--no-validate"],
        text.as_bytes(),
    );
    assert!(loose.status.success(), "{}", stderr(&loose));
    assert_eq!(stdout(&loose), text);
    let err = stderr(&loose);
    assert!(err.contains("warning[not-replayed]"), "{err}");
    // And the diagonal notation the same.
    let diag = convert(
        "draughts-num",
        "draughts-diag",
        &["--no-validate"],
        text.as_bytes(),
    );
    assert!(diag.status.success(), "{}", stderr(&diag));
    let back = convert(
        "draughts-diag",
        "draughts-num",
        &["--no-validate"],
        &diag.stdout,
    );
    assert_eq!(stdout(&back), text);
}

/// A move that captures nothing and stays on its square (`1-1`, a result
/// token once its leading zero is gone) is no move, whatever the board and
/// with or without replay: every draughts reader refuses it at the move,
/// JSON too, and the batch goes on to the next game. A capture may come
/// back where it began (`29x29`).
#[test]
fn a_plain_move_that_stays_on_its_square_is_refused_by_every_reader() {
    let cases = [
        ("draughts-num", "01-1", "1. 32-28 *"),
        ("draughts-num", "32-32", "1. 32-28 *"),
        ("draughts-num", "32-28-28", "1. 32-28 *"),
        ("draughts-diag", "c3-c3", "1. e45 *"),
    ];
    for (format, bad, good) in cases {
        let text = format!("[GameType \"20\"]\n\n1. {bad} *\n\n[GameType \"20\"]\n\n{good}\n");
        for extra in [&[][..], &["--no-validate"]] {
            let out = convert(format, "json", extra, text.as_bytes());
            no_panic(&out);
            let err = stderr(&out);
            assert_eq!(counts(&out), (1, 1), "{format} {bad} {extra:?}: {err}");
            assert!(
                err.contains(&format!("-:3:4: error: game 1: `{bad}`")) && errors_are_located(&err),
                "{format} {bad} {extra:?}: {err}"
            );
        }
    }
    let json = r#"[{"variant":{"family":"draughts","game_type":20,"first":"white","width":10,"height":10,"style":"numeric","corner":2,"invert":false},"tags":[],"moves":{"plies":[{"number":1,"side":"white","move":{"draughts":{"path":[1,1]}}}]}}]"#;
    let out = convert("json", "draughts-num", &[], json.as_bytes());
    assert_eq!(counts(&out), (0, 1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`1-1`: a move that captures nothing"),
        "{}",
        stderr(&out)
    );
    // A capture back to its square stays a move.
    let out = convert(
        "draughts-num",
        "draughts-num",
        &[],
        b"[GameType \"20\"]\n[FEN \"W:W29:B13,14,23,24\"]\n\n1. 29x29 *\n",
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
}
