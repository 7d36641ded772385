//! Chess through the command line: SAN read in every form and written
//! canonically, replay errors, variants, Chess960 and --no-validate.

use crate::common;

use common::*;

fn pgn(movetext: &str) -> String {
    format!("[Event \"t\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n{movetext}\n")
}

fn to_pgn(text: &str, extra: &[&str]) -> (String, String, Option<i32>) {
    let out = convert("pgn", "pgn", extra, text.as_bytes());
    no_panic(&out);
    (stdout(&out), stderr(&out), out.status.code())
}

#[test]
fn every_input_form_is_written_as_canonical_san() {
    let (out, err, code) = to_pgn(
        &pgn("1. e2e4 e7e5 2. Ng1f3 Nb8c6 3. Bf1-b5 a7a6 4. 0-0 Ng8:f6 5. Ba4 b7b5 6. Ba4-b3 d7d6 7. c2c3 Bf8-e7 8. Rf1e1 O-O *"),
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Ba4 b5 6. Bb3 d6 7. c3 Be7 8. Re1\nO-O *\n"
        ),
        "{out}"
    );
}

#[test]
fn promotions_en_passant_checks_and_mates_are_derived() {
    let (out, err, code) = to_pgn(
        "[FEN \"4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n[SetUp \"1\"]\n\n1. exd6 e.p. Kd7 2. b8Q Ke6 3. Qe8+ *\n",
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("1. exd6 Kd7 2. b8=Q Ke6 3. Qe8+ *"), "{out}");
    // Scholar's mate: the mate sign comes from the position, not the text.
    let (out, _, _) = to_pgn(&pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *"), &[]);
    assert!(out.contains("4. Qxf7# *"), "{out}");
}

#[test]
fn illegal_and_ambiguous_moves_name_game_move_side_text_and_position() {
    let text = format!(
        "{}\n{}",
        pgn("1. e4 e5 *"),
        pgn("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. Qe5 *")
    );
    let out = convert("pgn", "pgn", &[], text.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("-:19:35: error: game 2: 4. Qe5: illegal move (position: r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4)"),
        "{err}"
    );
    assert_eq!(counts(&out), (1, 1));
    let (_, err, code) = to_pgn(
        "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 b - - 0 7\"]\n\n7... Kd7 8. Nd2 *\n",
        &[],
    );
    assert_eq!(code, Some(1));
    assert!(
        err.contains("8. Nd2: ambiguous: it can come from b1 or f3"),
        "{err}"
    );
}

#[test]
fn variants_kifu_does_not_play_are_refused_at_their_tag() {
    let (_, err, code) = to_pgn("[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n", &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(
            "-:1:1: error[variant-unplayed]: game 1: variant `Crazyhouse` is not played by kifu"
        ),
        "{err}"
    );
}

#[test]
fn chess960_castling_with_shredder_and_x_fen() {
    // King on b1, rooks on a1 and g1: O-O puts the king on g1, rook on f1.
    for fen in [
        "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1",
        "1k6/8/8/8/8/8/8/RK4R1 w KQ - 0 1",
    ] {
        let text = format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n1. O-O Kc7 2. Rf7+ *\n");
        let (out, err, code) = to_pgn(&text, &[]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("1. O-O Kc7 2. Rf7+ *"), "{out}");
        let json = convert("pgn", "json", &[], text.as_bytes());
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(v[0]["variant"]["chess960"], true);
        assert_eq!(
            v[0]["moves"]["plies"][0]["move"]["chess"]["move"]["castle"],
            "king"
        );
    }
}

#[test]
fn null_moves_and_tagless_games() {
    let (out, err, code) = to_pgn("1. e4 -- 2. d4 Z0 *\n1. d4 d5 *\n", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("1. e4 -- 2. d4 -- *"), "{out}");
    assert!(out.contains("1. d4 d5 *"), "{out}");
    // The seven-tag roster is completed, as export format requires.
    assert_eq!(out.matches("[Event \"?\"]").count(), 2, "{out}");
}

#[test]
fn no_validate_converts_by_syntax_and_says_so() {
    // Ke3 is illegal: replayed it fails, by syntax it converts.
    let text = pgn("1. e4 e5 2. Ke3 Nc6+ *");
    let (_, _, code) = to_pgn(&text, &[]);
    assert_eq!(code, Some(1));
    let (out, err, code) = to_pgn(&text, &["--no-validate"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2. Ke3 Nc6+ *"), "{out}");
    assert!(err.contains("moves not replayed (--no-validate)"), "{err}");
}

#[test]
fn damaged_files_are_read() {
    // BOM, CRLF, a blank line inside the tags, an unescaped quote, no result.
    let text = "\u{feff}[Event \"The \"Best\" game\"]\r\n\r\n[Site \"x\"]\r\n\r\n1. e4 e5 {a comment} 2. Nf3\r\n";
    let (out, err, code) = to_pgn(text, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("[Event \"The \\\"Best\\\" game\"]\n[Site \"x\"]\n"),
        "{out}"
    );
    assert!(out.contains("1. e4 e5 {a comment} 2. Nf3 *"), "{out}");
}

#[test]
fn move_suffixes_are_written_as_nags_in_export_format() {
    // PGN export format: `!` .. `?!` become $1 .. $6; other glyphs stay.
    let (out, err, code) = to_pgn(&pgn("1. e4! e5?! 2. Nf3 $14 Nc6!! $32 3. Bb5(!?) *"), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("1. e4 $1 e5 $6 2. Nf3 $14 Nc6 $3 $32 3. Bb5(!?) *"),
        "{out}"
    );
}

#[test]
fn a_json_glyph_no_notation_can_hold_is_refused() {
    // A hand-edited glyph with a tab would shift a scoresheet's columns and
    // glue text to a PGN move: the JSON reader refuses it.
    let json = convert("pgn", "jsonl", &[], b"1. e4! e5 *\n");
    assert_eq!(counts(&json), (1, 0), "{}", stderr(&json));
    let edited = stdout(&json).replace("\"glyph\":\"!\"", "\"glyph\":\"\\tzz\"");
    assert!(edited.contains("\\tzz"), "{edited}");
    for to in ["pgn", "sllavcco"] {
        let out = convert("jsonl", to, &[], edited.as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (0, 1), "{to}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("is not a move glyph"),
            "{}",
            stderr(&out)
        );
    }
}

/// Games whose spelling the rules derive: the knight on b1 told from the
/// one on f3 (`Nbd2`), a check in a variation (`Bxd2+`), a mate (`Qxf7#`).
const SPELLED: &str = "1. d4 d5 2. Nf3 Nf6 3. Nbd2 e6 4. e4 Bb4 5. c3 (5. a3 Bxd2+ 6. Bxd2) \
                       5... dxe4 *\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 (3... g6 4. Qf3) 4. Qxf7# 1-0\n";

#[test]
fn json_holds_moves_not_their_spelling() {
    let json = convert("pgn", "jsonl", &[], SPELLED.as_bytes());
    assert_eq!(counts(&json), (2, 0), "{}", stderr(&json));
    let text = stdout(&json);
    for field in ["\"check\"", "\"show_file\"", "\"show_rank\""] {
        assert!(!text.contains(field), "{field} in {text}");
    }
    // What the rules derive comes back when written.
    let back = convert("jsonl", "pgn", &[], text.as_bytes());
    assert_eq!(counts(&back), (2, 0), "{}", stderr(&back));
    let direct = convert("pgn", "pgn", &[], SPELLED.as_bytes());
    assert_eq!(stdout(&back), stdout(&direct));
    contains_all(
        &stdout(&back),
        &["3. Nbd2 e6", "(5. a3 Bxd2+ 6. Bxd2)", "4. Qxf7# 1-0"],
        "json -> pgn",
    );
}

#[test]
fn json_with_stale_spelling_fields_converts_to_correct_san() {
    // JSON written by earlier versions of kifu held the spelling beside
    // the move: such files are read, and those fields are ignored, right
    // or wrong (here a disambiguation and a mate on a move that has none).
    let text = pgn("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nc3 Bd6 6. d4 *");
    let json = convert("pgn", "jsonl", &[], text.as_bytes());
    assert_eq!(counts(&json), (1, 0), "{}", stderr(&json));
    let stale = stdout(&json).replacen(
        "\"role\":\"knight\",\"from\":\"g1\",\"to\":\"f3\"",
        "\"role\":\"knight\",\"from\":\"g1\",\"to\":\"f3\",\"check\":\"mate\",\"show_file\":6,\"show_rank\":0",
        1,
    );
    assert_ne!(stale, stdout(&json), "the edit must apply");
    for to in ["pgn", "sllavcco"] {
        let out = convert("jsonl", to, &[], stale.as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (1, 0), "{to}: {}", stderr(&out));
        assert_eq!(
            stdout(&out),
            stdout(&convert("pgn", to, &[], text.as_bytes())),
            "{to}"
        );
    }
    assert!(stdout(&convert("jsonl", "pgn", &[], stale.as_bytes()))
        .contains("2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nc3 Bd6 6. d4 *"));
}

#[test]
fn no_validate_games_keep_their_text_through_json() {
    // Not replayed, a move is what its text claims: its disambiguation and
    // check mark are kept, even where the rules would spell it otherwise.
    let text = pgn("1. e4 e5 2. Ngf3 Nc6+ 3. Qh5 Nf6 4. Qxf7 *");
    let direct = convert("pgn", "pgn", &["--no-validate"], text.as_bytes());
    assert!(
        stdout(&direct).contains("2. Ngf3 Nc6+ 3. Qh5 Nf6 4. Qxf7 *"),
        "{}",
        stdout(&direct)
    );
    let json = convert("pgn", "jsonl", &["--no-validate"], text.as_bytes());
    assert!(stdout(&json).contains("\"claimed\""), "{}", stdout(&json));
    let back = convert("jsonl", "pgn", &[], &json.stdout);
    assert_eq!(counts(&back), (1, 0), "{}", stderr(&back));
    assert_eq!(stdout(&back), stdout(&direct));
}

#[test]
fn json_of_earlier_versions_converts_as_it_did() {
    // As kifu wrote them before moves held meaning alone: the spelling
    // beside each move. A replayed game's is dropped and derived again; a
    // game not replayed (`--no-validate`) keeps what its text claimed.
    let replayed = r#"{"variant":{"family":"chess"},"moves":{"plies":[{"number":1,"side":"white","move":{"chess":{"move":{"role":"pawn","from":"e2","to":"e4"}}}},{"number":1,"side":"black","move":{"chess":{"move":{"role":"pawn","from":"e7","to":"e5"}}}},{"number":2,"side":"white","move":{"chess":{"move":{"role":"queen","from":"d1","to":"h5","show_rank":0}}}},{"number":2,"side":"black","move":{"chess":{"move":{"role":"knight","from":"b8","to":"c6"}}}},{"number":3,"side":"white","move":{"chess":{"move":{"role":"bishop","from":"f1","to":"c4","check":"check"}}}},{"number":3,"side":"black","move":{"chess":{"move":{"role":"knight","from":"g8","to":"f6"}}}},{"number":4,"side":"white","move":{"chess":{"move":{"role":"queen","from":"h5","to":"f7","capture":true,"check":"mate"}}}}]},"result":"1-0"}"#;
    let out = convert("jsonl", "pgn", &[], replayed.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"),
        "{}",
        stdout(&out)
    );
    let unreplayed = r#"{"variant":{"family":"chess","validated":false},"moves":{"plies":[{"number":1,"side":"white","move":{"chess":{"move":{"role":"pawn","to":"e4"}}}},{"number":1,"side":"black","move":{"chess":{"move":{"role":"pawn","to":"e5"}}}},{"number":2,"side":"white","move":{"chess":{"move":{"role":"knight","to":"f3","show_file":6}}}},{"number":2,"side":"black","move":{"chess":{"move":{"role":"knight","to":"c6","check":"check"}}}},{"number":3,"side":"white","move":{"chess":{"move":{"role":"pawn","to":"d5","capture":true,"show_file":4}}}}]},"result":"*"}"#;
    let out = convert("jsonl", "pgn", &[], unreplayed.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. e4 e5 2. Ngf3 Nc6+ 3. exd5 *"),
        "{}",
        stdout(&out)
    );
}
