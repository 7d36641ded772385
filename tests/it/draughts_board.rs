//! The board of a draughts record that no GameType tag names: inferred from
//! its squares and moves (international 10x10, English 8x8, Italian 8x8,
//! Canadian 12x12), written as a GameType tag, and said in a warning.

use crate::common;

use std::fs;

use common::*;

const ENGLISH: &str = "[Event \"e1\"]\n[Result \"1-0\"]\n\n\
    1. 11-15 23-19 2. 8-11 22-17 3. 10-14 17x10 4. 7x14 24-20 5. 15x24 28x19 1-0\n\n\
    [Event \"e2\"]\n[Result \"*\"]\n\n1. 10-15 22-18 2. 15x22 25x18 *\n";

const ITALIAN: &str = "[Event \"i1\"]\n[Result \"1/2-1/2\"]\n\n\
    1. 23-19 11-15 2. 21-17 10-14 3. 19x10 5x14 4. 27-23 7-11 1/2-1/2\n";

const ENGLISH_WARNING: &str =
    "no GameType tag: the squares fit the English 8x8 board alone, read as GameType 21";
const ITALIAN_WARNING: &str = "no GameType tag: the squares fit the Italian 8x8 (square 1 in the \
     left corner) board alone, read as GameType 22";

/// Converts `text` written to a file named `name` in a fresh folder.
fn convert_file(name: &str, text: &str, to: &str, extra: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    fs::write(&file, text).unwrap();
    let mut args = vec!["convert", "--to", to, file.to_str().unwrap()];
    args.extend_from_slice(extra);
    kifu(&args, b"")
}

#[test]
fn an_english_file_without_game_type_converts_to_diag_as_english() {
    let out = convert_file("english.pdn", ENGLISH, "draughts-diag", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let named = convert_file(
        "english.pdn",
        ENGLISH,
        "draughts-diag",
        &["--variant", "english"],
    );
    assert!(named.status.success(), "{}", stderr(&named));
    // The same coordinates as when the user names the board, and the board
    // written into every game.
    assert_eq!(stdout(&out), stdout(&named));
    assert_eq!(stdout(&out).matches("[GameType \"21\"]").count(), 2);
    // One warning, shown once for the input with a count.
    let err = stderr(&out);
    assert!(err.contains(&format!("game 1: {ENGLISH_WARNING}")), "{err}");
    assert!(
        err.contains(&format!(
            "{ENGLISH_WARNING} (name the board with --variant) (1 more like this)"
        )),
        "{err}"
    );
    // Black moves first in English draughts: the plies say so.
    let json = convert_file("english.pdn", ENGLISH, "jsonl", &[]);
    let first = stdout(&json);
    assert!(
        first.contains("\"plies\":[{\"number\":1,\"side\":\"black\",\"move\":{\"draughts\":{\"path\":[11,15]}}}"),
        "{first}"
    );
}

#[test]
fn an_italian_file_without_game_type_is_read_as_italian() {
    // Italian boards have no diagonal coordinates: an error for the game,
    // never coordinates of another board (`11-15` as `b5-f9`).
    let out = convert_file("italian.pdn", ITALIAN, "draughts-diag", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("GameType 22,W,8,8,N2,1 is not one"), "{err}");
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));

    let out = convert_file("italian.pdn", ITALIAN, "draughts-num", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(ITALIAN_WARNING), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("[GameType \"22\"]\n\n1. 23-19 11-15"),
        "{text}"
    );
    // What kifu wrote names its board: read back, no warning, same bytes.
    let again = convert("draughts-num", "draughts-num", &[], text.as_bytes());
    assert_eq!(stdout(&again), text);
    assert!(!stderr(&again).contains("warning"), "{}", stderr(&again));
}

#[test]
fn variant_and_game_type_still_decide() {
    // An Italian game read on other boards: its moves cannot be played
    // there, so it is read by syntax alone.
    let out = convert_file(
        "italian.pdn",
        ITALIAN,
        "draughts-num",
        &["--variant", "english", "--no-validate"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("board"), "{}", stderr(&out));
    assert!(stdout(&out).contains("[GameType \"21\"]"));

    let tagged = ITALIAN.replace("[Result", "[GameType \"20\"]\n[Result");
    let out = convert_file("italian.pdn", &tagged, "draughts-diag", &["--no-validate"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("board"), "{}", stderr(&out));
    // Validated, the first move is refused: 23 holds no man of Black, who
    // moves first in English draughts.
    let out = convert_file(
        "italian.pdn",
        ITALIAN,
        "draughts-num",
        &["--variant", "english"],
    );
    assert!(
        stderr(&out).contains("1. 23-19: the piece on 23 is White's, and Black is to move"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn canadian_and_international_moves_tell_their_boards() {
    let canadian =
        "[Event \"c\"]\n\n1. 44-38 27-33 2. 38x27 21x34 3. 49-44 22-27 4. 55-49 16-22 *\n";
    let out = convert_file("canadian.pdn", canadian, "draughts-num", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("[GameType \"27\"]"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("the Canadian 12x12 board alone"),
        "{}",
        stderr(&out)
    );

    // A short international opening whose squares all lie in 1-32: its
    // first moves start from international's starting squares.
    let international = "[Event \"x\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n";
    let out = convert_file("int.pdn", international, "draughts-diag", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. e45 e76 2. e57x e86x *"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("[GameType \"20\"]"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("the squares fit the international 10x10 board alone"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_record_with_nothing_to_tell_says_what_was_assumed() {
    let out = convert_file("empty.pdn", "[Event \"x\"]\n\n*\n", "draughts-num", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "no GameType tag, and no move or FEN square to tell the board by: assumed \
             international 10x10 (GameType 20"
        ),
        "{}",
        stderr(&out)
    );
    // A FEN alone: the smallest board that holds its squares, and among the
    // 8x8 boards the one whose first mover is to move.
    let fen = "[FEN \"B:W21,22,23:B1,2,3\"]\n\n*\n";
    let out = convert_file("fen.pdn", fen, "draughts-num", &[]);
    assert!(
        stdout(&out).contains("[GameType \"21\"]"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("the squares fit several boards (international 10x10, English 8x8, "),
        "{}",
        stderr(&out)
    );
}
