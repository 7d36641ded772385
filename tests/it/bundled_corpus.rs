//! The project's own records in `corpus/draughts/`: each `X.pdn` is written
//! in canonical form beside its expected diagonal output `X.diag.pdn`
//! (checked by hand against the formula of seed 002; the games whose moves
//! could not be played, which kifu refuses since it replays draughts, were
//! made legal and their diagonal outputs written by kifu).

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::*;

#[test]
fn bundled_records_convert_to_their_expected_outputs_and_back() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/draughts");
    let inputs: Vec<PathBuf> = files(&dir, ".pdn")
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".diag.pdn"))
        .collect();
    assert!(inputs.len() >= 4, "{inputs:?}");
    for num_file in inputs {
        let diag_file = num_file.with_extension("diag.pdn");
        let num = fs::read(&num_file).unwrap();
        let diag = fs::read(&diag_file).unwrap();
        let name = num_file.display();

        let same = convert("draughts-num", "draughts-num", &[], &num);
        assert!(same.status.success(), "{name}: {}", stderr(&same));
        assert!(same.stdout == num, "{name} is not in canonical form");

        let to_diag = convert("draughts-num", "draughts-diag", &[], &num);
        assert!(to_diag.status.success(), "{name}: {}", stderr(&to_diag));
        assert_eq!(
            stdout(&to_diag),
            String::from_utf8(diag.clone()).unwrap(),
            "{name}"
        );

        let back = convert("draughts-diag", "draughts-num", &[], &diag);
        assert!(back.status.success(), "{name}: {}", stderr(&back));
        assert_eq!(
            stdout(&back),
            String::from_utf8(num.clone()).unwrap(),
            "{name}"
        );

        let again = convert("draughts-diag", "draughts-diag", &[], &diag);
        assert!(
            again.stdout == diag,
            "{name}: diag is not in canonical form"
        );
    }
}

#[test]
fn every_read_only_diagonal_form_is_read() {
    // Forms kifu reads but does not write, each beside its canonical form.
    let cases = [
        ("f4-f5", "f45"),
        ("f4f5", "f45"),
        ("g5-f5", "gf5"),
        ("e8xg6", "e8g6x"),
        ("e8:g6", "e8g6x"),
        ("e8xg8", "eg8x"),
        ("f4xf6", "f46x"),
        ("e8xg6xi6", "e8g6i6x"),
        ("e10-e9", "e09"),
        ("e0-e9", "e09"),
    ];
    // Notation alone: the moves are read by syntax (`f4-f5` is no move
    // from the start position).
    for (written, canonical) in cases {
        let input = format!("[GameType \"20\"]\n\n1. {written} *\n");
        let out = convert(
            "draughts-diag",
            "draughts-diag",
            &["--no-validate"],
            input.as_bytes(),
        );
        assert!(out.status.success(), "{written}: {}", stderr(&out));
        assert_eq!(
            stdout(&out),
            format!("[GameType \"20\"]\n\n1. {canonical} *\n")
        );
    }
}

#[test]
fn a_plain_move_that_leaves_every_line_is_written_in_full() {
    // Only a corrupt record has one (5-4 moves along a row): read by syntax
    // alone, it is written in full so that nothing is lost, and read back.
    let input = "[GameType \"20\"]\n\n1. 5-4 *\n";
    let loose = ["--no-validate"];
    let out = convert("draughts-num", "draughts-diag", &loose, input.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "[GameType \"20\"]\n\n1. e0-d9 *\n");
    let back = convert("draughts-diag", "draughts-num", &loose, &out.stdout);
    assert_eq!(stdout(&back), input);
    // Validated, it is refused at the move.
    let out = convert("draughts-num", "draughts-diag", &[], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("-:3:4: error: game 1: 1. 5-4: the piece on 5 is Black's"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn squares_off_the_board_are_errors_with_their_position() {
    for (text, col, what) in [
        ("1. a1b2x *", 4, "a1 is not a square"),
        ("1. f45 j5-j6 *", 8, "j5 is not a square"),
        ("1. f4-f5-f6-f7-f8-f9-f0 *", 4, "f0 is not a square"),
        ("1. f4-f5-f11 *", 4, "f11 is not a square"),
    ] {
        let out = convert("draughts-diag", "draughts-num", &[], text.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{text}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("-:1:{col}: error: game 1: {what}")),
            "{text}: {err}"
        );
    }
}

#[test]
fn petrosjan_sllavcco_converts_both_ways() {
    // The game of seed 004, reconstructed (corpus/chess/petrosjan-sllavcco.md).
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/chess");
    let pgn = fs::read(dir.join("petrosjan-sllavcco.pgn")).unwrap();
    let sheet = fs::read(dir.join("petrosjan-sllavcco.sllavcco")).unwrap();
    let out = convert("pgn", "sllavcco", &[], &pgn);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == sheet, "pgn -> sllavcco:\n{}", stdout(&out));
    let out = convert("sllavcco", "pgn", &[], &sheet);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout == pgn, "sllavcco -> pgn:\n{}", stdout(&out));
    // The seed's own cells: the opening, the castling cells and pawn captures.
    let text = String::from_utf8(sheet).unwrap();
    for line in [
        "01\t\t\t\t\t4\t\t\t",
        "05\t\t\t\t4\t\t\t\t",
        "\t\t\t\t4x\t\t\t\t",
        "06\t\t\t\t\t\tR\tK\t",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} missing");
    }
}
