//! The hnefatafl family through the `kifu` binary: the tafl notation of
//! seed 003, OpenTafl's `.otg` records (otn) and the aagenielsen.dk move
//! lists, with captures checked and computed by the rules.
//!
//! `corpus/tafl/brandubh.tafl` is a real Brandubh game written as the seed
//! allows (lower case, captures left out); `.canonical.tafl` is kifu's
//! output, with every capture computed, and `brandubh.otg` the same game
//! as OpenTafl writes it. `constructs.otg` holds every construct of otn
//! (tags, start comment, variations of a first and a second move, nested,
//! marks, a resignation) and is written back byte for byte;
//! `constructs.tafl` is its tafl. `seed.tafl` holds the seed's forms on a
//! board the record does not name. The shared corpus (`../shared/corpus/
//! tafl`) is read when it is there.

use crate::common;

use crate::check;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;

fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/tafl")
        .join(name);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(name: &str) -> String {
    String::from_utf8(corpus(name)).unwrap()
}

/// Converts a tafl record to tafl: one game converts, none fails, and the
/// output holds `wanted`. Gives the run.
fn tafl_writes(input: &str, wanted: &str) -> std::process::Output {
    let out = convert("tafl", "tafl", &[], input.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(stdout(&out).contains(wanted), "{}", stdout(&out));
    out
}

#[test]
fn captures_left_out_are_computed_and_written() {
    let out = convert("tafl", "tafl", &[], &corpus("brandubh.tafl"));
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), text("brandubh.canonical.tafl"));
    contains_all(
        &stdout(&out),
        &[
            "3. D6-A6xA5",
            "3... D5-A5xA6",
            "4... D3-A3xA4",
            "6. B4-C4 B5-B4xC4",
        ],
        "brandubh",
    );
    // The canonical record reads to itself, and through JSON.
    let again = convert("tafl", "tafl", &[], &out.stdout);
    assert!(again.stdout == out.stdout);
    assert_interchange_round_trip("tafl", &[], &out.stdout, 1, "brandubh");
}

#[test]
fn tafl_and_otn_convert_both_ways() {
    let otn = convert("tafl", "otn", &[], &corpus("brandubh.tafl"));
    assert_eq!(counts(&otn), (1, 0), "{}", stderr(&otn));
    assert_eq!(stdout(&otn), text("brandubh.otg"));
    // The king's moves get their K from the tracked pieces.
    contains_all(
        &stdout(&otn),
        &["Kd4-d3", "Kd3-f3", "Kf3-f2-"],
        "brandubh.otg",
    );
    let back = convert("otn", "tafl", &[], &otn.stdout);
    assert_eq!(stdout(&back), text("brandubh.canonical.tafl"));
    // An otn record with every construct: tafl keeps its comments,
    // variations, start position and rules.
    let tafl = convert("otn", "tafl", &[], &corpus("constructs.otg"));
    assert_eq!(counts(&tafl), (1, 0), "{}", stderr(&tafl));
    assert_eq!(stdout(&tafl), text("constructs.tafl"));
    let otn = convert("tafl", "otn", &[], &tafl.stdout);
    let again = convert("otn", "tafl", &[], &otn.stdout);
    assert_eq!(stdout(&again), text("constructs.tafl"));
}

#[test]
fn otn_records_are_written_back_byte_for_byte() {
    let otg = corpus("constructs.otg");
    let out = convert("otn", "otn", &[], &otg);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(out.stdout == otg, "{}", stdout(&out));
    assert_interchange_round_trip("otn", &[], &otg, 1, "constructs.otg");
    // A move the rules refuse, in a variation, is located.
    let text = String::from_utf8(otg.clone())
        .unwrap()
        .replace("3a.1.2a. b6-b5 a6-a5 ", "3a.1.2a. b6-b5 a6-a4 ");
    let out = convert("otn", "otn", &[], text.as_bytes());
    assert!(
        stderr(&out).contains("-:31:16: error: game 1: 4... a6-a4: a4 is in the way"),
        "{}",
        stderr(&out)
    );
    // Turns out of order are a located error.
    let text = String::from_utf8(otg.clone())
        .unwrap()
        .replace("\n2. f4-f5", "\n9. f4-f5");
    let out = convert("otn", "otn", &[], text.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains(":22:1: error: game 1: turn `9.`: turn 9 where turn 2 is due"),
        "{}",
        stderr(&out)
    );
    // Two records in one stream are two games.
    let mut two = otg.clone();
    two.extend_from_slice(&otg);
    let out = convert("otn", "otn", &[], &two);
    assert_eq!(counts(&out), (2, 0), "{}", stderr(&out));
    assert!(out.stdout == two);
    // Records without turns too.
    let bare = b"[date:2016.09.16]\n[rules:dim:5 start:/1tTTt/tKt2/t2T1/5/1T3/]\n\n";
    let two = [&bare[..], &bare[..]].concat();
    let out = convert("otn", "otn", &[], &two);
    assert_eq!(counts(&out), (2, 0), "{}", stderr(&out));
    assert!(out.stdout == two);
}

#[test]
fn the_seed_forms_on_a_board_read_from_the_squares() {
    let out = convert("tafl", "tafl", &[], &corpus("seed.tafl"));
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), text("seed.canonical.tafl"));
    contains_all(
        &stderr(&out),
        &["warning[board-assumed]: game 1: no Board tag or rules: the board is taken to be 9x9"],
        "seed.tafl",
    );
    // `--` alone is a resignation, `--` after a move a suicidal move.
    contains_all(
        &stdout(&out),
        &["C1-C2-- -- *", "B2-B3++", "D2-D3xD8/F8/E9"],
        "seed",
    );
    let json = convert("tafl", "json", &[], &corpus("seed.tafl"));
    contains_all(
        &stdout(&json),
        &["\"resign\"", "\"suicide\"", "\"win\""],
        "seed json",
    );
    // The board as an option: then no warning, and a square off it is an
    // error at its place.
    let out = convert(
        "tafl",
        "tafl",
        &["--from-opt", "board=9x9"],
        &corpus("seed.tafl"),
    );
    assert_eq!(counts(&out), (1, 0));
    assert!(!stderr(&out).contains("warning"));
    let out = convert(
        "tafl",
        "tafl",
        &["--from-opt", "board=7"],
        &corpus("seed.tafl"),
    );
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains("-:4:7: error: game 1: E8 is off the 7x7 board"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_moves_are_located_errors() {
    let cases: [(&str, &str); 5] = [
        (
            "[Board \"7x7\"]\n\n1. a1-a4 k11-k3 *\n",
            "-:3:10: error: game 1: k11 is off the 7x7 board",
        ),
        ("1. e5-e8y *\n", "-:1:4: error: game 1: expected"),
        (
            "1. e5-t8 *\n",
            "-:1:7: error: game 1: `t8` is off every board",
        ),
        (
            "[Rules \"brandubh\"]\n\n1. d2-e2xe3 *\n",
            "game 1: 1. d2-e2xe3: the rules capture nothing on e3",
        ),
        (
            "[Rules \"brandubh\"]\n\n1. d2-e3 *\n",
            "game 1: 1. d2-e3: d2-e3 is not a straight line",
        ),
    ];
    for (input, wanted) in cases {
        let out = convert("tafl", "tafl", &[], input.as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (0, 1), "{input}");
        assert!(errors_are_located(&stderr(&out)), "{}", stderr(&out));
        assert!(stderr(&out).contains(wanted), "{input}: {}", stderr(&out));
    }
    // Rules and boards that cannot be: errors at their tags.
    for (input, format, wanted) in [
        (
            "[Event \"x\"]\n[Rules \"copenhagn\"]\n\n1. a1-a2 *\n",
            "tafl",
            "-:2:1: error: game 1: rules `copenhagn` are neither a preset",
        ),
        (
            "[Board \"9x9\"]\n[Rules \"copenhagen\"]\n\n1. d1-d3 *\n",
            "tafl",
            "-:1:1: error: game 1: the board is 9x9, and the rules are for 11x11",
        ),
        (
            "[date:x]\n[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/]\n\n",
            "otn",
            "-:2:1: error: game 1: `start:`: 6 rows for a 7x7 board",
        ),
        (
            "[date:x]\n\n1. d1-d3 \n[]\n",
            "otn",
            "-:1:1: error: game 1: no `[rules:...]` tag",
        ),
    ] {
        let out = convert(format, format, &[], input.as_bytes());
        assert_eq!(counts(&out), (0, 1), "{input}");
        assert!(stderr(&out).contains(wanted), "{input}: {}", stderr(&out));
    }
    // A capture the rules make that a record listing captures leaves out.
    let out = convert(
        "tafl",
        "tafl",
        &[],
        b"[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6xa5 d5-a5 *\n",
    );
    assert!(
        stderr(&out).contains("-:3:43: error: game 1: 3... d5-a5: the move captures a6 too"),
        "{}",
        stderr(&out)
    );
    // A move of a variation that cannot be played: the variation is kept
    // as a comment, the warning says where and why.
    let out = convert(
        "tafl",
        "tafl",
        &[],
        b"[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 (2... c5-c6 3. d6-a6xa5) *\n",
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("-:3:31: warning[variation-as-text]: game 1: a variation that cannot be read or played was kept as a comment (3. d6-a6xa5: c6 is in the way (position: "),
        "{}",
        stderr(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("{2... c5-c6 3. d6-a6xa5}"));
    // A move of the wrong side, and moves after the game is over.
    let out = convert("tafl", "tafl", &[], b"[Rules \"brandubh\"]\n\n1. c4-c5 *\n");
    assert!(
        stderr(&out).contains("the piece on c4 is the defenders'"),
        "{}",
        stderr(&out)
    );
}

/// A 7x7 board where the defenders move first and the king on c1 can
/// reach the corner a1.
const ESCAPE: &str = "[Rules \"dim:7 atkf:n start:/2K4/7/7/3t3/7/7/7/\"]\n\n";

#[test]
fn winning_marks_are_checked() {
    let ok = format!("{ESCAPE}1. c1-a1++ 1-0\n");
    let out = convert("tafl", "otn", &[], ok.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    // otn leaves out a win the rules judge, as OpenTafl writes none; read
    // back, it is computed again.
    assert!(stdout(&out).contains("1. Kc1-a1 \n"), "{}", stdout(&out));
    let back = convert("otn", "tafl", &[], &out.stdout);
    assert!(
        stdout(&back).contains("1. C1-A1++ 1-0"),
        "{}",
        stdout(&back)
    );
    // Moves by syntax alone: otn writes the defenders' win `--`.
    let out = convert("tafl", "otn", &["--no-validate"], ok.as_bytes());
    assert!(stdout(&out).contains("1. Kc1-a1-- \n"), "{}", stdout(&out));
    let bad = format!("{ESCAPE}1. c1-b1++ 1-0\n");
    let out = convert("tafl", "tafl", &[], bad.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(stderr(&out).contains("marked `++`, but the king is neither captured nor escaped"));
    // Copenhagen's edge fort: d5-d3 closes the fort of the king on e1.
    let fort =
        "[Rules \"dim:11 atkf:n efe:y start:/3TKT5/3T1T5/4T6/11/3T7/11/11/11/11/11/t10/\"]\n\n";
    let out = convert(
        "tafl",
        "otn",
        &[],
        format!("{fort}1. d5-d3++ 1-0\n").as_bytes(),
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(stdout(&out).contains("1. d5-d3 \n"), "{}", stdout(&out));
    let out = convert(
        "tafl",
        "tafl",
        &[],
        format!("{fort}1. d5-d4++ 1-0\n").as_bytes(),
    );
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains(
            "-:3:4: error: game 1: 1. d5-d4: marked `++`, but the king is neither captured nor escaped nor in an edge fort"
        ),
        "{}",
        stderr(&out)
    );
    let after = format!("{ESCAPE}1. c1-a1 d4-d5 *\n");
    let out = convert("tafl", "tafl", &[], after.as_bytes());
    assert!(
        stderr(&out).contains("1... d4-d5: the game is over"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn rules_errors_give_the_position_and_the_side_to_move() {
    // As chess errors give the FEN: the position the move was played in,
    // as OpenTafl's position record writes it (rank 1 first).
    for (input, wanted) in [
        (
            "[Rules \"brandubh\"]\n\n1. d2-e3 *\n",
            "-:3:4: error: game 1: 1. d2-e3: d2-e3 is not a straight line along a rank or file (position: /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/, attackers to move)",
        ),
        (
            "[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6xa5 d5-a5 *\n",
            "-:3:43: error: game 1: 3... d5-a5: the move captures a6 too (position: /3t3/4t2/3T3/tt1KT1t/3T1t1/t6/3t3/, defenders to move)",
        ),
        (
            "[Rules \"brandubh\"]\n\n1. d2-e2++ *\n",
            "-:3:4: error: game 1: 1. d2-e2: marked `++`, but the king is neither captured nor escaped (position: /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/, attackers to move)",
        ),
    ] {
        let out = convert("tafl", "tafl", &[], input.as_bytes());
        assert_eq!(counts(&out), (0, 1), "{input}");
        assert!(stderr(&out).contains(wanted), "{input}: {}", stderr(&out));
    }
    // otn: a move the rules refuse, and a mover's letter that names
    // another piece.
    let rules =
        "[rules:dim:7 name:Brandubh atkf:y ka:y ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n";
    for (moves, wanted) in [
        (
            "1. d2-e2 c4-a4 \n[|]\n",
            "-:3:10: error: game 1: 1... c4-a4: b4 is in the way (position: /3t3/4t2/3T3/ttTKTtt/3T3/3t3/3t3/, defenders to move)",
        ),
        (
            "1. d2-e2 Kc4-c5 \n[|]\n",
            "-:3:10: error: game 1: 1... c4-c5: `K` names the king, and a man moves (position: /3t3/4t2/3T3/ttTKTtt/3T3/3t3/3t3/, defenders to move)",
        ),
    ] {
        let out = convert("otn", "otn", &[], format!("{rules}{moves}").as_bytes());
        assert_eq!(counts(&out), (0, 1), "{moves}");
        assert!(stderr(&out).contains(wanted), "{moves}: {}", stderr(&out));
    }
}

/// A 7x7 board where the attacker on a2 keeps the king on a3 from the
/// corner a1: moving it away is suicidal.
const SUICIDE: &str = "[Rules \"dim:7 atkf:y start:/7/t6/K6/7/7/7/7/\"]\n\n";

#[test]
fn suicide_marks_are_checked_and_marks_left_out_computed() {
    // `--` on a move after which the other side cannot win at once is an
    // error at the move, as a `++` that wins nothing is.
    for (input, wanted) in [
        (
            "[Rules \"brandubh\"]\n\n1. d2-e2-- *\n".to_string(),
            "-:3:4: error: game 1: 1. d2-e2: marked `--` (suicidal), but the defenders have no move that lets the king escape at once",
        ),
        (
            format!("{SUICIDE}1. a2-b2 a3-a4-- *\n"),
            "-:3:10: error: game 1: 1... a3-a4: marked `--` (suicidal), but the attackers have no move that captures the king at once",
        ),
    ] {
        let out = convert("tafl", "tafl", &[], input.as_bytes());
        assert_eq!(counts(&out), (0, 1), "{input}");
        assert!(stderr(&out).contains(wanted), "{input}: {}", stderr(&out));
    }
    // Where the record leaves the marks out, the rules give them: the
    // attacker opens the king's way to a1 (`--`), the king escapes (`++`).
    let out = tafl_writes(
        &format!("{SUICIDE}1. a2-b2 a3-a1 *\n"),
        "1. A2-B2-- A3-A1++ *",
    );
    let written = format!("{SUICIDE}1. a2-b2-- a3-a1++ *\n");
    let again = convert("tafl", "tafl", &[], written.as_bytes());
    assert!(again.stdout == out.stdout, "{}", stderr(&again));
    // The king's move next to an attacker that another can close on
    // (Brandubh's king, away from the throne, is captured by two).
    let out = convert(
        "tafl",
        "tafl",
        &[],
        b"[Rules \"dim:7 atkf:y ka:y ks:c start:/2t4/7/7/7/7/t3K2/7/\"]\n\n1. c1-c2 e6-b6 2. c2-c6 *\n",
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. C1-C2 E6-B6-- 2. C2-C6xB6++ *"),
        "{}",
        stdout(&out)
    );
    assert_interchange_round_trip("tafl", &[], &out.stdout, 1, "marks");
}

#[test]
fn an_edge_fort_ends_the_game_under_edge_fort_rules() {
    // The defenders' d5-d3 closes the fort of the king on e1: the game is
    // over, as after a king captured or escaped (OpenTafl's `efe:y`).
    let fort =
        "[Rules \"dim:11 atkf:n efe:y start:/3TKT5/3T1T5/4T6/11/3T7/11/11/11/11/11/t10/\"]\n\n";
    let out = convert(
        "tafl",
        "tafl",
        &[],
        format!("{fort}1. d5-d3 a11-a10 *\n").as_bytes(),
    );
    assert_eq!(counts(&out), (0, 1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains(
            "-:3:10: error: game 1: 1... a11-a10: the game is over: the king stands in an edge fort (`efe:y`) (position: /3TKT5/3T1T5/3TT6/11/11/11/11/11/11/11/t10/, attackers to move)"
        ),
        "{}",
        stderr(&out)
    );
    // The move that closes it wins: its `++` is computed.
    tafl_writes(&format!("{fort}1. d5-d3 1-0\n"), "1. D5-D3++ 1-0");
    // Without edge-fort rules the game goes on.
    let open = fort.replace(" efe:y", "");
    tafl_writes(&format!("{open}1. d5-d3 a11-a10 *\n"), "1. D5-D3 A11-A10 *");
}

#[test]
fn no_validate_converts_by_syntax_alone() {
    let input = b"[Rules \"brandubh\"]\n\n1. d2-e3xf3 *\n";
    let out = convert("tafl", "tafl", &[], input);
    assert_eq!(counts(&out), (0, 1));
    let out = convert("tafl", "tafl", &["--no-validate"], input);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(stdout(&out).contains("1. D2-E3xF3 *"));
    // Rules given as an option compute the captures of a record without a
    // Rules tag.
    let out = convert(
        "tafl",
        "tafl",
        &["--from-opt", "rules=brandubh"],
        b"1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6 *\n",
    );
    assert!(stdout(&out).contains("3. D6-A6xA5 *"), "{}", stdout(&out));
}

#[test]
fn rotation_and_mirror_change_the_viewing_side() {
    let input = b"[Board \"11x11\"]\n\n1. a1-a4 c3-c2xb2 *\n";
    let out = convert("tafl", "tafl", &["--to-opt", "rotate=180"], input);
    assert!(
        stdout(&out).contains("1. K11-K8 I9-I10xJ10 *"),
        "{}",
        stdout(&out)
    );
    // Four quarter turns give the record back.
    let mut record = input.to_vec();
    for _ in 0..4 {
        record = convert("tafl", "tafl", &["--to-opt", "rotate=90"], &record).stdout;
    }
    let plain = convert("tafl", "tafl", &[], input);
    assert!(
        record == plain.stdout,
        "{}",
        String::from_utf8_lossy(&record)
    );
    let out = convert("tafl", "tafl", &["--to-opt", "mirror=yes"], input);
    assert!(
        stdout(&out).contains("1. K1-K4 I3-I2xJ2 *"),
        "{}",
        stdout(&out)
    );
    // The same as conversion flags.
    let flags = convert("tafl", "tafl", &["--mirror"], input);
    assert!(flags.stdout == out.stdout, "{}", stderr(&flags));
    let flags = convert("tafl", "tafl", &["--rotate", "180"], input);
    assert!(
        stdout(&flags).contains("1. K11-K8 I9-I10xJ10 *"),
        "{}",
        stderr(&flags)
    );
    let bad = convert("tafl", "tafl", &["--rotate", "45"], input);
    assert_eq!(bad.status.code(), Some(2));
    let out = convert(
        "tafl",
        "otn",
        &["--from-opt", "rules=copenhagen", "--to-opt", "rotate=90"],
        b"1. d1-d3 *\n",
    );
    assert!(stdout(&out).contains("1. a8-c8 \n"), "{}", stdout(&out));
    // The rules' start position (with their corner and centre squares) and
    // a Position tag turn with the squares, so that the rules written
    // match the moves written; four quarter turns give the record back.
    let input = "[Rules \"dim:7 atkf:y cor:g7, cen:b2, start:/t6/1t2K2/7/7/7/4T2/7/\"]\n[Position \"/t6/1t2K2/7/7/7/4T2/6t/\"]\n\n1. a1-a3 *\n";
    let out = convert("tafl", "tafl", &["--rotate", "90"], input.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    contains_all(
        &stdout(&out),
        &[
            "[Rules \"dim:7 atkf:y cor:g1, cen:b6, start:/7/7/1K3T1/7/7/1t5/t6/\"]",
            "[Position \"/6t/7/1K3T1/7/7/1t5/t6/\"]",
            "1. A7-C7 *",
        ],
        "rotated",
    );
    // The turned record replays as written: its moves fit its rules.
    let again = convert("tafl", "tafl", &[], &out.stdout);
    assert!(again.stdout == out.stdout, "{}", stderr(&again));
    let mut record = input.as_bytes().to_vec();
    for _ in 0..4 {
        record = convert("tafl", "tafl", &["--rotate", "90"], &record).stdout;
    }
    assert_eq!(
        String::from_utf8_lossy(&record),
        input.replace("a1-a3", "A1-A3")
    );
    let otn = convert("tafl", "otn", &["--mirror"], input.as_bytes());
    contains_all(
        &stdout(&otn),
        &[
            "[rules:dim:7 atkf:y cor:a7, cen:f2, start:/6t/2K2t1/7/7/7/2T4/7/]",
            "[position:/6t/2K2t1/7/7/7/2T4/t6/]",
            "1. g1-g3 ",
        ],
        "mirrored otn",
    );
    let back = convert("otn", "otn", &[], &otn.stdout);
    assert!(back.stdout == otn.stdout, "{}", stderr(&back));
}

/// The whitespace OpenTafl's records differ in: spaces at line ends and
/// blank lines.
fn squeezed(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_opentafl_record_reads_and_writes_back() {
    let Some(dir) = shared("tafl") else { return };
    let files = files(&dir.join("opentafl"), ".otg");
    assert_eq!(files.len(), 12);
    // Hand-compiled records that write turns without OpenTafl's trailing
    // space, end without the last blank line, or (example-variations)
    // leave a blank line out between two turns; Altti-Piirsoo's last turn,
    // of one move, has its commentary as `[...|]`, which kifu writes
    // `[...]` as OpenTafl does; one king's move lacks its `K` (below).
    let spacing = [
        "Altti-Piirsoo-Steve-Lonsdale-Sea-Battle-Triathlon-2015.otg",
        "Animals-Xerxes-Brandub-Triathlon-2015.otg",
        "Crust-vs-Schachus-Grandmasters-2015.otg",
        "example-variations-replay.otg",
    ];
    let mut exact = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let input = fs::read(f).unwrap();
        let out = convert("otn", "otn", &[], &input);
        assert_eq!(counts(&out), (1, 0), "{name}: {}", stderr(&out));
        if out.stdout == input {
            exact += 1;
        } else {
            assert!(spacing.contains(&name.as_str()), "{name} differs");
            let mut expected = squeezed(&String::from_utf8_lossy(&input));
            if name.starts_with("Altti") {
                expected = format!("{}]", expected.strip_suffix("|]").unwrap());
            }
            // Crust-vs-Schachus writes the king's move 30... g9-h9xi9
            // without its `K`, which kifu writes from the tracked pieces.
            if name.starts_with("Crust") {
                assert!(expected.contains("\n30. i10-i9 g9-h9xi9\n"));
                expected = expected.replace("30. i10-i9 g9-h9xi9", "30. i10-i9 Kg9-h9xi9");
            }
            assert_eq!(squeezed(&stdout(&out)), expected, "{name}");
        }
        // Through tafl and back, the same game.
        let tafl = convert("otn", "tafl", &[], &input);
        assert_eq!(counts(&tafl), (1, 0), "{name}");
        let json2 = convert("tafl", "json", &[], &tafl.stdout);
        assert_eq!(counts(&json2), (1, 0), "{name}: {}", stderr(&json2));
        let back = convert("json", "otn", &[], &json2.stdout);
        assert!(
            back.stdout == out.stdout || tags_moved(&back.stdout, &out.stdout),
            "{name}"
        );
    }
    assert_eq!(exact, 8);
}

/// Whether two otn records differ only in the order of their tag lines.
fn tags_moved(a: &[u8], b: &[u8]) -> bool {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let split = |t: &str| -> (Vec<String>, String) {
        let t = format!("\n{t}");
        let i = t.find("]\n\n").unwrap_or(t.len());
        let mut tags: Vec<String> = t[..i].split("\n[").map(str::to_string).collect();
        tags.sort();
        (tags, t[i..].to_string())
    };
    split(&a) == split(&b)
}

fn aagenielsen(dir: &Path) -> Vec<PathBuf> {
    files(&dir.join("aagenielsen-json"), ".json")
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("game-"))
        })
        .collect()
}

/// The records of the shared corpus where the rules as kifu knows them and
/// the record differ, and how kifu says so (with the line and column of the
/// move): the site played these games, so each is read, with a warning. In
/// the Fetlar game 4-12 the attackers' 29th move `a6e6` is followed by
/// `e6e4`, the same piece again, where the defenders' reply should be (a
/// move lost by the source): it is read unchecked (`rules-refused`). The
/// Alea Berserk game 102-136 (Bartley), where a defender's man jumps
/// (`j5-l5xl6` over an attacker on k5), is read by its type's later rules
/// (`tj:j flip:f6,n6,f14,n14`: `other-rules`). In the Tyr game 145-115
/// the attackers' 23rd move `f12-f8xe8` went on `f8-e8xe9`, a berserk leg
/// the record leaves out (without it the defenders' 24th move `j9-f9`
/// captures the attacker on f8, which the record does not list, and the
/// attackers' 28th move `e8-e9` starts on an empty square), and in the
/// Alea Berserk game 102-61 the attackers' 4th move `p8-p9xp10` went on
/// `p9-o9xo8`; in the Berserk game 3-45 the defenders' 17th move `g4-c4`
/// needs two legs the record leaves out, of two moves, neither of which
/// alone lets it through (`16... c4-e4xd4` went on `e4-g4xf4`, and the
/// attackers' `17. c2-c4xb4`, on `c4-c5xb5`): the legs are inferred
/// (`berserk-leg`). In the Old Tyr-1 game 134-75 the attackers' 29th move
/// `j11-j6` captures the defender on j5 against the empty j4, which no
/// rules string explains: the record's word is kept (`capture-unruled`).
const DIFFER: [(&str, &str, &str); 6] = [
    (
        "game-4-12-14185.json",
        "29... e6-e4: the piece on e6 is the attackers', and the defenders are to move",
        ".json:67:10: warning[rules-refused]: game 1: the rules of `Fetlar Hnefatafl 11x11` as kifu knows them refuse a move (",
    ),
    (
        "game-3-45-3031.json",
        "17. `c2-c4xb4`: the record leaves out the berserk legs `c4-c5xb5` (the piece captured, and the later moves bear them out): read as `c2-c4-c5xb4/b5`",
        ".json:42:10: warning[berserk-leg]: game 1: ",
    ),
    (
        "game-145-115-16724.json",
        "23. `f12-f8xe8`: the record leaves out the berserk legs `f8-e8xe9` (the piece captured, and the later moves bear them out): read as `f12-f8-e8xe8/e9`",
        ".json:54:10: warning[berserk-leg]: game 1: ",
    ),
    (
        "game-102-136-15917.json",
        "its later rules bear them out (its rules with `tj:j flip:f6,n6,f14,n14`): read by them",
        ".json:10:10: warning[other-rules]: game 1: ",
    ),
    (
        "game-102-61-10093.json",
        "4. `p8-p9xp10`: the record leaves out the berserk legs `p9-o9xo8` (the piece captured, and the later moves bear them out): read as `p8-p9-o9xp10/o8`",
        ".json:16:10: warning[berserk-leg]: game 1: ",
    ),
    (
        "game-134-75-3038.json",
        "29. j11-j6xk6/j5: the rules capture nothing on j5, which the record lists: the record's word is kept",
        ".json:66:10: warning[capture-unruled]: game 1: ",
    ),
];

/// The records of the shared corpus of a game that is not tafl (Saami
/// Cuhkka: its pieces move diagonally and capture by jumping), refused.
const NOT_TAFL: [&str; 2] = ["game-149-20-186.json", "game-149-91-25997.json"];

/// The aagenielsen game types of the shared corpus and the preset kifu
/// had for each (they replay on the rules of kifu's table, which keeps a
/// preset where the site's games bear it out best; `None`: its games of the
/// corpus are read unchecked, see DIFFER; the Saami Cuhkka games are not
/// tafl, see NOT_TAFL).
const GAME_TYPES: [(&str, Option<&str>); 14] = [
    ("Copenhagen Hnefatafl 11x11", Some("copenhagen")),
    ("Fetlar Hnefatafl 11x11", Some("fetlar")),
    ("Berserk Hnefatafl 11x11", Some("berserk")),
    ("Old Hnefatafl 11x11", Some("fetlar")),
    (
        "Historical Hnefatafl 11x11 (Welsh Tawlbwrdd)",
        Some("tawlbwrdd"),
    ),
    ("Historical Hnefatafl 9x9 (Saami Tablut)", Some("tablut")),
    ("Sea battle T 9x9", Some("sea-battle")),
    (
        "Historical Hnefatafl 7x7 (Irish Brandubh 1)",
        Some("brandubh"),
    ),
    ("Brandubh 7x7 (Walker)", Some("brandubh-walker")),
    ("Historical Hnefatafl 13x13", Some("hnefatafl-13")),
    ("Tyr 15x15", Some("tyr-15")),
    ("Old Tyr-1 17x17", Some("old-tyr-17")),
    ("Unst Alea Evangelii 19x19", Some("alea-evangelii")),
    ("Alea Berserk 19x19 (Bartley)", None),
];

/// A small aagenielsen record of a Brandubh game.
const AAGE_GAME: &str = r#"{"WhiteSidePlayerName": "w", "BlackSidePlayerName": "b",
"AageGameTypeKey": 35, "AageGameTypeName": "Historical Hnefatafl 7x7 (Irish Brandubh 1) ",
"WhoMovedFirst": "black", "Moves": ["d2-e2", "c4-c5", "f4-f5", "c5-a5", "d6-a6xa5"], "WhoWon": null}"#;

#[test]
fn a_folder_named_with_from_gives_the_files_that_format_reads() {
    // aagenielsen's games are `game-*.json`, beside the index of game
    // types, `_allGametypes.json`, which is not a game.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("aage");
    fs::create_dir(&src).unwrap();
    fs::write(src.join("game-35-1-1.json"), AAGE_GAME).unwrap();
    fs::write(src.join("game-35-2-2.json"), AAGE_GAME).unwrap();
    fs::write(
        src.join("_allGametypes.json"),
        r#"{"35": {"spiltype": 35, "name": "Historical Hnefatafl 7x7 (Irish Brandubh 1) "}}"#,
    )
    .unwrap();
    fs::write(src.join("notes.pgn"), "1. e4 *\n").unwrap();
    let out_dir = dir.path().join("out");
    let args = |from: Option<&str>| {
        let mut a = vec!["convert".to_string()];
        if let Some(f) = from {
            a.extend(["--from".to_string(), f.to_string()]);
        }
        a.extend([
            "--to".to_string(),
            "tafl".to_string(),
            src.to_string_lossy().into_owned(),
            "--out-dir".to_string(),
            out_dir.to_string_lossy().into_owned(),
        ]);
        a
    };
    let a = args(Some("aagenielsen-json"));
    let out = kifu(&a.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(counts(&out), (2, 0), "{}", stderr(&out));
    let mut written: Vec<String> = fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, ["game-35-1-1.tafl", "game-35-2-2.tafl"]);
    let game = fs::read_to_string(out_dir.join("game-35-1-1.tafl")).unwrap();
    assert!(game.contains("3. D6-A6xA5 *"), "{game}");
    // Another format named finds none of them; a folder without the
    // format's files says what was looked for.
    let a = args(Some("tafl"));
    let out = kifu(&a.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds no file to convert (looked for .tafl files)"),
        "{}",
        stderr(&out)
    );
    fs::remove_file(src.join("game-35-1-1.json")).unwrap();
    fs::remove_file(src.join("game-35-2-2.json")).unwrap();
    let a = args(Some("aagenielsen-json"));
    let out = kifu(&a.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    assert!(
        stderr(&out)
            .contains("holds no file to convert (looked for .aagenielsen.json, game-*.json files)"),
        "{}",
        stderr(&out)
    );
    // The shared corpus's folder: every game read, the index left alone,
    // the two that are not tafl failed (see NOT_TAFL).
    let Some(shared) = shared("tafl") else { return };
    let out_dir = dir.path().join("corpus");
    let folder = shared.join("aagenielsen-json");
    let out = kifu(
        &[
            "convert",
            "--from",
            "aagenielsen-json",
            "--to",
            "tafl",
            &folder.to_string_lossy(),
            "--out-dir",
            &out_dir.to_string_lossy(),
        ],
        b"",
    );
    no_panic(&out);
    let games = aagenielsen(&shared).len();
    assert_eq!(
        counts(&out),
        (games - NOT_TAFL.len(), NOT_TAFL.len()),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("_allGametypes"), "{}", stderr(&out));
    assert!(!out_dir.join("_allGametypes.tafl").exists());
}

#[test]
fn every_aagenielsen_record_reads() {
    let Some(dir) = shared("tafl") else { return };
    let files = aagenielsen(&dir);
    assert!(files.len() >= 80, "{}", files.len());
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let out = kifu(
            &[
                "convert",
                "-f",
                "aagenielsen-json",
                "-t",
                "tafl",
                &f.to_string_lossy(),
            ],
            b"",
        );
        no_panic(&out);
        if NOT_TAFL.contains(&name.as_str()) {
            assert_eq!(counts(&out), (0, 1));
            assert!(
                stderr(&out).contains(
                    ".json:5:7: error[variant-unplayed]: game 1: the game type `Saami Cuhkka 5x5` is not a tafl game"
                ),
                "{}",
                stderr(&out)
            );
            assert!(
                !stderr(&out).contains("looks like json"),
                "{}",
                stderr(&out)
            );
            continue;
        }
        if let Some((_, why, at)) = DIFFER.iter().find(|r| r.0 == name) {
            assert_eq!(counts(&out), (1, 0));
            assert!(
                stderr(&out)
                    .lines()
                    .any(|l| l.contains(at) && l.contains(why)),
                "{}",
                stderr(&out)
            );
            let loose = kifu(
                &[
                    "convert",
                    "--no-validate",
                    "-f",
                    "aagenielsen-json",
                    "-t",
                    "tafl",
                    &f.to_string_lossy(),
                ],
                b"",
            );
            assert_eq!(counts(&loose), (1, 0));
            continue;
        }
        assert_eq!(counts(&out), (1, 0), "{name}: {}", stderr(&out));
        // The written record reads back to itself.
        let again = convert("tafl", "tafl", &[], &out.stdout);
        assert!(again.stdout == out.stdout, "{name}: {}", stderr(&again));
    }
}

#[test]
fn berserk_moves_and_jumps_are_replayed_leg_by_leg() {
    // A berserk move of two legs (each capturing), a knight's jump that
    // captures the piece jumped, a commander's jump that does not: the
    // captures the record leaves out are computed, leg by leg.
    let out = convert("tafl", "tafl", &[], &corpus("berserk.tafl"));
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. B2-B5-B6xC5/C6 E3-E1xE2 2. G3-E3 *"),
        "{}",
        stdout(&out)
    );
    // otn writes each leg as a record, `=` a berserk leg, `^` a jump, with
    // the pieces' letters; it reads back to itself and to the same tafl.
    let otn = convert("tafl", "otn", &[], &corpus("berserk.tafl"));
    assert_eq!(stdout(&otn), text("berserk.otg"));
    contains_all(
        &stdout(&otn),
        &["1. b2-b5xc5 b5=b6xc6 Ne3^e1xe2 \n[||]", "2. cg3^e3 "],
        "berserk.otg",
    );
    let again = convert("otn", "otn", &[], &corpus("berserk.otg"));
    assert_eq!(stdout(&again), text("berserk.otg"));
    let back = convert("otn", "tafl", &[], &corpus("berserk.otg"));
    assert!(stdout(&back).contains("1. B2-B5-B6xC5/C6 E3-E1xE2 2. G3-E3 *"));
    assert_interchange_round_trip("tafl", &[], &out.stdout, 1, "berserk.tafl");
    assert_interchange_round_trip("otn", &[], &corpus("berserk.otg"), 1, "berserk.otg");
    // A knight's two capturing jumps in one berserk move: the second
    // jumped piece, next to both legs' ends, goes with the second record.
    let out = convert(
        "tafl",
        "otn",
        &[],
        b"[Rules \"dim:7 atkf:y ber:c start:/4K2/7/7/nT5/2T4/7/7/\"]\n\n1. a4-c4-c6 *\n",
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. na4^c4xb4 nc4^=c6xc5 \n[|]\n"),
        "{}",
        stdout(&out)
    );
    // Each leg checked with its captures.
    let rules = "[Rules \"dim:7 atkf:y ber:c start:/7/1t2t2/4NTc/3K3/2Tt3/2Tt3/7/\"]\n\n";
    for (moves, wanted) in [
        (
            "1. b2-b5-b6xc5 *",
            "-:3:4: error: game 1: 1. b2-b5-b6xc5: the move captures c6 too",
        ),
        (
            "1. b2-b4-b6 *",
            "1. b2-b4-b6: b4-b6: a berserk leg follows a leg that captured",
        ),
        (
            "1. b2-b5-b7 *",
            "1. b2-b5-b7: b5-b7: a berserk leg must capture under these rules (`ber:c`)",
        ),
        ("1. e2-e4 *", "1. e2-e4: e3 is in the way"),
        ("1. g3-e3 *", "1. g3-e3: e3 is taken"),
    ] {
        let out = convert("tafl", "tafl", &[], format!("{rules}{moves}\n").as_bytes());
        assert_eq!(counts(&out), (0, 1), "{moves}");
        assert!(stderr(&out).contains(wanted), "{moves}: {}", stderr(&out));
    }
    // Without berserk rules, a move of several legs is refused.
    let out = convert(
        "tafl",
        "tafl",
        &[],
        b"[Rules \"brandubh\"]\n\n1. d2-e2-e3 *\n",
    );
    assert!(
        stderr(&out)
            .contains("a move of several legs is a berserk move, which these rules do not allow"),
        "{}",
        stderr(&out)
    );
    // An otn berserk record with no move before it in its turn.
    let out = convert(
        "otn",
        "otn",
        &[],
        b"[rules:dim:7 ber:c start:/7/1t2t2/4NTc/3K3/2Tt3/2Tt3/7/]\n\n1. b5=b6xc6 \n[]\n",
    );
    assert!(
        stderr(&out).contains("-:3:4: error: game 1: a berserk record (`=`) continues a move"),
        "{}",
        stderr(&out)
    );
    // The Berserk games of the aagenielsen corpus replay on the berserk
    // preset (one, game 3-45, with two berserk legs inferred: see DIFFER), the king's capture
    // the source leaves out added.
    let Some(dir) = shared("tafl") else { return };
    let mut replayed = 0;
    for f in aagenielsen(&dir) {
        let input = fs::read_to_string(&f).unwrap();
        if !input.contains("\"Berserk Hnefatafl 11x11\"") || f.ends_with(DIFFER[1].0) {
            continue;
        }
        let out = convert("aagenielsen-json", "tafl", &[], input.as_bytes());
        assert_eq!(counts(&out), (1, 0), "{}: {}", f.display(), stderr(&out));
        assert!(stdout(&out).contains("[Rules \"berserk\"]"));
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
        replayed += 1;
    }
    assert_eq!(replayed, 3);
}

/// A tafl record's movetext with each move's captures in square order.
fn captures_sorted(text: &str) -> String {
    text.split_whitespace()
        .map(|t| match t.split_once('x') {
            Some((m, caps)) if !t.starts_with('[') => {
                let end = caps.trim_end_matches(['+', '-']);
                let mut c: Vec<&str> = end.split('/').collect();
                c.sort();
                format!("{m}x{}{}", c.join("/"), &caps[end.len()..])
            }
            _ => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn games_start_from_their_position_tag() {
    // otn's `position` tag (a Position tag in tafl): the game starts from
    // it, not from the rules' start (where c4 holds a defender).
    let out = convert("otn", "otn", &[], &corpus("position.otg"));
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout(&out), text("position.otg"));
    assert_interchange_round_trip("otn", &[], &corpus("position.otg"), 1, "position.otg");
    let tafl = convert("otn", "tafl", &[], &corpus("position.otg"));
    contains_all(
        &stdout(&tafl),
        &[
            "[Position \"/7/1t5/5T1/2tK3/5t1/5T1/7/\"]",
            "1. C4-C5 F3-F4xF5 2. B2-B4 D4-E4 *",
        ],
        "position.tafl",
    );
    // Its captures left out, tafl gets them from the position, and otn its
    // king's `K`.
    let bare = "[Rules \"brandubh\"]\n[Position \"/7/1t5/5T1/2tK3/5t1/5T1/7/\"]\n\n1. c4-c5 f3-f4 2. b2-b4 d4-e4 *\n";
    let otn = convert("tafl", "otn", &[], bare.as_bytes());
    assert_eq!(counts(&otn), (1, 0), "{}", stderr(&otn));
    contains_all(
        &stdout(&otn),
        &[
            "[position:/7/1t5/5T1/2tK3/5t1/5T1/7/]",
            "1. c4-c5 f3-f4xf5 ",
            "2. b2-b4 Kd4-e4 ",
        ],
        "position.otg",
    );
    // A position that cannot be is an error at its tag.
    for (format, input, wanted) in [
        (
            "otn",
            "[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n[position:/7/7/]\n\n",
            "-:2:1: error: game 1: the position `/7/7/`: 2 rows for a 7x7 board",
        ),
        (
            "tafl",
            "[Rules \"brandubh\"]\n[Position \"/7/7/7/7/7/7/7/\"]\n\n1. d1-d2 *\n",
            "-:2:1: error: game 1: the position has no king",
        ),
    ] {
        let out = convert(format, format, &[], input.as_bytes());
        assert_eq!(counts(&out), (0, 1), "{input}");
        assert!(stderr(&out).contains(wanted), "{input}: {}", stderr(&out));
    }
}

#[test]
fn otn_piece_letters_are_checked_against_the_pieces() {
    let rules =
        "[rules:dim:7 name:Brandubh atkf:y ka:y ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n";
    // A `K` on a man's move is an error at the move, like a capture the
    // rules do not make.
    let out = convert(
        "otn",
        "otn",
        &[],
        format!("{rules}1. Kd2-e2 c4-c5 \n[|]\n").as_bytes(),
    );
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out)
            .contains("-:3:4: error: game 1: 1. d2-e2: `K` names the king, and a man moves"),
        "{}",
        stderr(&out)
    );
    // A king's move without its `K`: a warning at the move, and kifu
    // writes it.
    let input = format!("{rules}1. d2-e2 c4-c5 \n[|]\n\n2. e2-e3 d4-c4 \n[|]\n");
    let out = convert("otn", "otn", &[], input.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "-:6:10: warning[piece-letter]: game 1: 2... d4-c4: the king's move is written without its `K`: kifu writes it"
        ),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("2. e2-e3 Kd4-c4 \n"),
        "{}",
        stdout(&out)
    );
    // By syntax alone, the letters are not checked.
    let loose = convert(
        "otn",
        "otn",
        &["--no-validate"],
        format!("{rules}1. Kd2-e2 c4-c5 \n[|]\n").as_bytes(),
    );
    assert_eq!(counts(&loose), (1, 0), "{}", stderr(&loose));
    // OpenTafl's own Crust-vs-Schachus record leaves one `K` out.
    let Some(dir) = shared("tafl") else { return };
    let f = dir.join("opentafl/Crust-vs-Schachus-Grandmasters-2015.otg");
    let out = convert("otn", "otn", &[], &fs::read(f).unwrap());
    assert!(
        stderr(&out).contains(
            ":100:12: warning[piece-letter]: game 1: 30... g9-h9xi9: the king's move is written without its `K`"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn every_game_type_replays_on_its_preset() {
    let Some(dir) = shared("tafl") else { return };
    let mut seen = std::collections::BTreeMap::new();
    for f in aagenielsen(&dir) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let input = fs::read_to_string(&f).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&input).unwrap();
        let kind = v["AageGameTypeName"].as_str().unwrap().trim().to_string();
        if NOT_TAFL.contains(&name.as_str()) {
            continue;
        }
        let preset = GAME_TYPES
            .iter()
            .find(|(t, _)| *t == kind)
            .unwrap_or_else(|| panic!("{name}: game type `{kind}` not in the table"))
            .1;
        *seen.entry(kind.clone()).or_insert(0) += 1;
        if DIFFER.iter().any(|r| r.0 == name) {
            continue;
        }
        let listed = convert("aagenielsen-json", "tafl", &[], input.as_bytes());
        assert_eq!(counts(&listed), (1, 0), "{name}: {}", stderr(&listed));
        if preset.is_none() {
            assert!(!stdout(&listed).contains("[Rules "), "{name}");
            assert!(stdout(&listed).contains("[Board "), "{name}");
            continue;
        }
        // The table's rules, a preset's name where they are one's.
        let rules = &kifu::family::hnefatafl::aagenielsen::rules_of(&kind, None)[0];
        let tag = rules.preset_name().unwrap_or(rules.text());
        assert!(
            stdout(&listed).contains(&format!("[Rules \"{tag}\"]")),
            "{name}: {}",
            stdout(&listed)
        );
        // The captures removed, the rules give them back (in the order
        // the rules find them, which a record need not keep).
        for m in v["Moves"].as_array_mut().unwrap() {
            let s = m.as_str().unwrap();
            *m = serde_json::Value::from(s.split('x').next().unwrap());
        }
        let stripped = serde_json::to_string(&v).unwrap();
        let computed = convert("aagenielsen-json", "tafl", &[], stripped.as_bytes());
        assert_eq!(counts(&computed), (1, 0), "{name}: {}", stderr(&computed));
        assert_eq!(
            captures_sorted(&stdout(&computed)),
            captures_sorted(&stdout(&listed)),
            "{name}"
        );
    }
    assert_eq!(seen.len(), GAME_TYPES.len(), "{seen:?}");
    // Each preset reads by name, and the formats' help lists them.
    let help = kifu(&["formats"], b"");
    for (_, preset) in GAME_TYPES {
        let Some(preset) = preset else { continue };
        assert!(
            stdout(&help).contains(preset),
            "{preset}: {}",
            stdout(&help)
        );
    }
}

#[test]
fn copenhagen_captures_agree_with_the_rules_and_are_computed_back() {
    let Some(dir) = shared("tafl") else { return };
    let mut games = 0;
    for f in aagenielsen(&dir) {
        let input = fs::read_to_string(&f).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&input).unwrap();
        if v["AageGameTypeName"] != "Copenhagen Hnefatafl 11x11" {
            continue;
        }
        games += 1;
        let name = f.display().to_string();
        // Replayed with every recorded capture checked.
        let listed = convert("aagenielsen-json", "tafl", &[], input.as_bytes());
        assert_eq!(counts(&listed), (1, 0), "{name}: {}", stderr(&listed));
        assert!(stdout(&listed).contains("[Rules \"copenhagen\"]"));
        // The record's counts of captures agree with the replay's.
        assert!(
            !stderr(&listed).contains("warning"),
            "{name}: {}",
            stderr(&listed)
        );
        if games == 1 {
            let n = v["BlackPiecesCaptured"].as_u64().unwrap();
            let tampered = input.replace(
                &format!("\"BlackPiecesCaptured\": {n}"),
                "\"BlackPiecesCaptured\": 99",
            );
            let out = convert("aagenielsen-json", "tafl", &[], tampered.as_bytes());
            assert!(
                stderr(&out).contains(&format!(
                    "warning[capture-count]: game 1: `BlackPiecesCaptured` says 99, and the moves capture {n}"
                )),
                "{}",
                stderr(&out)
            );
        }
        // The captures removed, the rules give them back exactly.
        for m in v["Moves"].as_array_mut().unwrap() {
            let s = m.as_str().unwrap();
            *m = serde_json::Value::from(s.split('x').next().unwrap());
        }
        let stripped = serde_json::to_string(&v).unwrap();
        let computed = convert("aagenielsen-json", "tafl", &[], stripped.as_bytes());
        assert_eq!(counts(&computed), (1, 0), "{name}: {}", stderr(&computed));
        assert!(computed.stdout == listed.stdout, "{name}");
    }
    assert_eq!(games, 20, "the Copenhagen games of the shared corpus");
}

#[test]
fn what_a_target_cannot_hold_is_a_warning() {
    // An otn tag over two lines is one line in tafl.
    let otg = "[site:two\nlines]\n[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 \n[]\n\n";
    let out = convert("otn", "tafl", &[], otg.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("[Site \"two lines\"]"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("tag `Site` holds line breaks"),
        "{}",
        stderr(&out)
    );
    let again = convert("tafl", "tafl", &[], &out.stdout);
    assert!(again.stdout == out.stdout);
    // A tafl comment with a `|`, or a `]` ending a line, and a tag name
    // otn cannot spell.
    let tafl = "[Odd/Name \"x\"]\n[Rules \"brandubh\"]\n\n1. d2-e2 {a|b} c4-c5 {c]\nd} *\n";
    let out = convert("tafl", "otn", &[], tafl.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(stdout(&out).contains("[a/b|c)\nd]"), "{}", stdout(&out));
    contains_all(
        &stderr(&out),
        &["written `)` and `/`", "tag `Odd/Name`: an otn tag name"],
        "otn",
    );
    let back = convert("otn", "otn", &[], &out.stdout);
    assert!(back.stdout == out.stdout, "{}", stderr(&back));
    // A suicide mark has no otn spelling: where the rules judge it, it is
    // left out silently (reading the record back computes it again), and
    // with a warning by syntax alone.
    let suicide = format!("{SUICIDE}1. a2-b2-- *\n");
    let out = convert("tafl", "otn", &[], suicide.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(stdout(&out).contains("1. a2-b2 \n"), "{}", stdout(&out));
    let back = convert("otn", "tafl", &[], &out.stdout);
    assert!(stdout(&back).contains("1. A2-B2-- *"), "{}", stdout(&back));
    let out = convert("tafl", "otn", &["--no-validate"], suicide.as_bytes());
    assert!(stderr(&out).contains("the mark `--` of a suicidal move has no otn spelling"));
}

#[test]
fn formats_and_help_list_the_tafl_formats_and_options() {
    let out = kifu(&["formats"], b"");
    let text = stdout(&out);
    contains_all(
        &text,
        &[
            "tafl ",
            "otn ",
            "aagenielsen-json ",
            "option rotate (write): ",
            "option rules (read): ",
        ],
        "kifu formats",
    );
    let out = kifu(&["convert", "--help"], b"");
    contains_all(
        &stdout(&out),
        &[
            "tafl, otn: a side 5 to 19, or 11x11",
            "--rotate <ROTATE>         Shorthand for --to-opt rotate=... on the formats that have it (tafl, otn): 0, 90, 180, 270",
        ],
        "convert --help",
    );
    // --variant names the board of tafl records too.
    let out = convert("tafl", "tafl", &["--variant", "9x9"], &corpus("seed.tafl"));
    assert_eq!(counts(&out), (1, 0));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// What the fuzz targets check (`fuzz/src/check.rs`), on every record of
/// the corpora: cut into records as the CLI cuts them, read, X -> X -> X
/// stable and X -> json -> X equal to X -> X.
#[test]
fn the_fuzz_properties_hold_on_the_corpora() {
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/tafl");
    let mut dirs = vec![own];
    if let Some(shared) = shared("tafl") {
        dirs.push(shared.join("opentafl"));
    }
    for dir in dirs {
        for (ending, format) in [(".tafl", "tafl"), (".otg", "otn")] {
            for f in files(&dir, ending) {
                check::round_trips(format, &fs::read(&f).unwrap());
            }
        }
    }
    if let Some(shared) = shared("tafl") {
        for f in aagenielsen(&shared) {
            let data = fs::read(&f).unwrap();
            assert!(!check::reads("aagenielsen-json", &data).is_empty());
        }
    }
}

#[test]
fn an_otn_record_starts_with_a_tag_opentafl_writes() {
    // A record is found by its first tag: a key kifu keeps but OpenTafl
    // does not write (`[foo:x]`) is written after the result, so that two
    // records written one after the other read back as two.
    let rules = "[rules:dim:7 atkf:y ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]";
    for input in [
        format!("[foo:x]\n{rules}\n\n1. d2-e2\n"),
        format!("[foo:x]\n[result:1]\n{rules}\n\n1. d2-e2\n"),
    ] {
        let once = convert("otn", "otn", &[], input.as_bytes());
        assert_eq!(counts(&once), (1, 0), "{}", stderr(&once));
        assert!(stdout(&once).starts_with("[result:"), "{}", stdout(&once));
        let twice = stdout(&once).repeat(2);
        let again = convert("otn", "otn", &[], twice.as_bytes());
        assert_eq!(counts(&again), (2, 0), "{}", stderr(&again));
        assert_eq!(stdout(&again), twice);
    }
}

/// A position string (rank 1 first, as `start:`) of an empty `dim` board
/// with pieces at (file, rank), 1-based.
fn position_of(dim: u8, pieces: &[(u8, u8, char)]) -> String {
    let mut out = String::from("/");
    for rank in 1..=dim {
        let mut empty = 0;
        for file in 1..=dim {
            match pieces.iter().find(|p| p.0 == file && p.1 == rank) {
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(p.2);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        out.push('/');
    }
    out
}

fn square_name(file: u8, rank: u8) -> String {
    format!("{}{rank}", (b'A' + file - 1) as char)
}

#[test]
fn tawlbwrdd_is_an_edge_escape_game_as_aagenielsen_plays_it() {
    // aagenielsen.dk: "the Tawlbwrdd king is armed, is captured from two
    // sides and wins on the edge". Every inner square of the king, every
    // direction: the king's move to the edge wins (`++` filled in) under
    // `tawlbwrdd`, and not under `copenhagen` (corner escape).
    let mut games = 0;
    for file in 3..=9u8 {
        for rank in 3..=9u8 {
            for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
                let (mut f, mut r) = (file, rank);
                while (2..=10).contains(&f) && (2..=10).contains(&r) {
                    f = (f as i8 + df) as u8;
                    r = (r as i8 + dr) as u8;
                }
                if (f == 1 || f == 11) && (r == 1 || r == 11) {
                    continue;
                }
                let pos = position_of(11, &[(file, rank, 'K'), (2, 1, 't')]);
                let king = format!("{}-{}", square_name(file, rank), square_name(f, r));
                let record = |rules: &str| {
                    format!("[Rules \"{rules}\"]\n[Position \"{pos}\"]\n\n1. B1-B2 {king} *\n")
                };
                let out = convert("tafl", "tafl", &[], record("tawlbwrdd").as_bytes());
                assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
                assert!(
                    stdout(&out).contains(&format!("{king}++")),
                    "{}",
                    stdout(&out)
                );
                let out = convert("tafl", "tafl", &[], record("copenhagen").as_bytes());
                assert!(!stdout(&out).contains("++"), "{}", stdout(&out));
                games += 1;
            }
        }
    }
    assert!(games > 150);
    // Captured by two, off the throne and on it.
    let pos = position_of(11, &[(4, 4, 'K'), (3, 4, 't'), (5, 9, 't'), (2, 1, 't')]);
    let record = format!("[Rules \"tawlbwrdd\"]\n[Position \"{pos}\"]\n\n1. E9-E4 *\n");
    tafl_writes(&record, "1. E9-E4xD4++");
}

#[test]
fn a_king_capture_left_out_of_a_listed_move_is_completed_with_a_warning() {
    // A record that lists captures but leaves out the king's, in the move
    // that takes him (the capture that ends the game), reads with the
    // capture completed and a warning, as aagenielsen.dk's records are
    // read; any other capture left out is still an error. Every king the
    // attackers can take by two on a 9x9 tablut board away from the
    // throne, from each side, after a move whose capture is listed.
    let mut games = 0;
    for file in 3..=7u8 {
        for rank in 3..=7u8 {
            if (4..=6).contains(&file) && (4..=6).contains(&rank) {
                continue;
            }
            for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
                // An attacker on one side of the king, another coming to the
                // other side from two squares away across its line.
                let (af, ar) = ((file as i8 - df) as u8, (rank as i8 - dr) as u8);
                let (lf, lr) = ((file as i8 + df) as u8, (rank as i8 + dr) as u8);
                let (sf, sr) = (lf + 2 * dr.unsigned_abs(), lr + 2 * df.unsigned_abs());
                if !(2..=8).contains(&sf) || !(2..=8).contains(&sr) {
                    continue;
                }
                let pos = position_of(
                    9,
                    &[
                        (file, rank, 'K'),
                        (af, ar, 't'),
                        (sf, sr, 't'),
                        // A capture listed first: C1-A1 takes A2.
                        (3, 1, 't'),
                        (1, 3, 't'),
                        (1, 2, 'T'),
                        (9, 9, 'T'),
                    ],
                );
                let came = format!("{}-{}", square_name(sf, sr), square_name(lf, lr));
                let king = square_name(file, rank);
                let record = |first: &str, last: &str| {
                    format!(
                        "[Rules \"tablut\"]\n[Position \"{pos}\"]\n\n1. {first} I9-I8 2. {last} *\n"
                    )
                };
                let listed = convert(
                    "tafl",
                    "tafl",
                    &[],
                    record("C1-A1xA2", &format!("{came}x{king}")).as_bytes(),
                );
                assert_eq!(counts(&listed), (1, 0), "{}", stderr(&listed));
                assert!(
                    stderr(&listed).contains("converted 1 game, 0 failed\n"),
                    "{}",
                    stderr(&listed)
                );
                let left_out = convert("tafl", "tafl", &[], record("C1-A1xA2", &came).as_bytes());
                assert_eq!(counts(&left_out), (1, 0), "{}", stderr(&left_out));
                assert!(
                    stderr(&left_out).contains(
                        "warning[king-capture-completed]: game 1: the captures listed leave out the king's, which the rules find: completed (1 move)"
                    ),
                    "{}",
                    stderr(&left_out)
                );
                assert_eq!(stdout(&left_out), stdout(&listed));
                // Another capture left out is no annotation of the king's
                // end: an error, located.
                let other = convert(
                    "tafl",
                    "tafl",
                    &[],
                    record("C1-A1", &format!("{came}x{king}")).as_bytes(),
                );
                assert_eq!(counts(&other), (0, 1));
                assert!(
                    stderr(&other).contains("the move captures a2 too"),
                    "{}",
                    stderr(&other)
                );
                games += 1;
            }
        }
    }
    assert!(games >= 20, "{games}");
}
