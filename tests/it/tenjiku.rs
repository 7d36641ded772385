//! Tenjiku shogi in Hodges notation (seed 001) through the `kifu` binary:
//! the records of `corpus/tenjiku/` in every abbreviation set, Japanese
//! coordinates and the long form, JSON, the origin written exactly when
//! needed, located errors, and the firedemon-tenjiku records of
//! `../shared/corpus/shogi` (skipped with a message when absent).
//!
//! `constructs.tenjiku` is canonical (lion moves, igui, a capture and on, a
//! fire-demon burn and a suicide, promotion taken and declined, a
//! variation, comments, a glyph); `.japanese`, `.pbem` and
//! `.wikipedia-long` are its layouts under the `tenjiku` options, and
//! `.json` its JSON. `origins.tenjiku` needs an origin (two fire demons
//! reach one square), a range jump and a promoted piece. `loose.tenjiku`
//! holds forms that are read but not written (a handicap `...`, the three
//! sets mixed, lower case, blanks after the piece and origin, a coordinate
//! move, `x` onto an empty square); `loose.expected.tenjiku` is what kifu
//! writes for it. `handicap.tenjiku` starts from a FEN tag; `seed.tenjiku`
//! plays the seed's and the issue's forms as they write them, in a position
//! set up for them, beside `seed.expected.tenjiku`.

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::*;

fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/tenjiku")
        .join(name);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("UTF-8")
}

/// Converts tenjiku text to tenjiku with write options.
fn rewrite(input: &[u8], opts: &[&str]) -> std::process::Output {
    let mut extra = Vec::new();
    for o in opts {
        extra.push("--to-opt");
        extra.push(o);
    }
    convert("tenjiku", "tenjiku", &extra, input)
}

#[test]
fn canonical_records_write_back_byte_for_byte() {
    for name in ["constructs.tenjiku", "origins.tenjiku", "handicap.tenjiku"] {
        let input = corpus(name);
        let out = rewrite(&input, &[]);
        assert_eq!(counts(&out), (1, 0), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).lines().count() == 1,
            "{name}: {}",
            stderr(&out)
        );
        assert_eq!(stdout(&out), text(input), "{name}");
    }
}

#[test]
fn the_options_write_each_set_japanese_coordinates_and_the_long_form() {
    let canonical = corpus("constructs.tenjiku");
    for (file, opts) in [
        ("constructs.japanese.tenjiku", &["coordinates=japanese"][..]),
        ("constructs.pbem.tenjiku", &["abbreviations=pbem"][..]),
        (
            "constructs.wikipedia-long.tenjiku",
            &["abbreviations=wikipedia", "long=yes"][..],
        ),
    ] {
        let expected = corpus(file);
        let out = rewrite(&canonical, opts);
        assert_eq!(counts(&out), (1, 0), "{file}: {}", stderr(&out));
        assert_eq!(stdout(&out), text(expected.clone()), "{file}");
        // And each reads back to the canonical record.
        let back = rewrite(&expected, &[]);
        assert_eq!(counts(&back), (1, 0), "{file}: {}", stderr(&back));
        assert_eq!(stdout(&back), text(canonical.clone()), "{file} read back");
    }
    let japanese = text(corpus("constructs.japanese.tenjiku"));
    contains_all(
        &japanese,
        &["P-9十一", "FiD-4十x!1", "Ln-10五+", "Lnx!10六"],
        "japanese",
    );
    let pbem = text(corpus("constructs.pbem.tenjiku"));
    contains_all(&pbem, &["GG-9l", "BG-8k", "Fi-4jx!1"], "pbem");
    let wiki = text(corpus("constructs.wikipedia-long.tenjiku"));
    contains_all(
        &wiki,
        &["GG9m-9l", "FD7n-6k", "LN10gx!10f", "D5h-5i*"],
        "wikipedia",
    );
}

#[test]
fn the_constructs_are_written_as_hodges_writes_them() {
    let c = text(corpus("constructs.tenjiku"));
    let c = c.split_whitespace().collect::<Vec<_>>().join(" ");
    contains_all(
        &c,
        &[
            // Igui, a capture and on (the second square empty), the
            // promotion declined on entering and on leaving the zone.
            "7. Lnx!10f",
            "8. Lnx9f-8e=",
            "9. Ln-9f=!",
            // A burn counted, a suicide.
            "14. FiD-4jx!1 Dg-5i*",
            // Promotion taken and declined; the seed's `P-8g`.
            "15. Ln-10e+ (15. Ln-10e= P-2g)",
            "P-8g",
        ],
        "constructs",
    );
}

#[test]
fn json_round_trips_and_holds_the_moves_meaning() {
    for name in [
        "constructs.tenjiku",
        "origins.tenjiku",
        "loose.expected.tenjiku",
    ] {
        assert_interchange_round_trip("tenjiku", &[], &corpus(name), 1, name);
    }
    let out = convert("tenjiku", "json", &[], &corpus("constructs.tenjiku"));
    assert_eq!(stdout(&out), text(corpus("constructs.json")));
    let json = stdout(&out);
    contains_all(
        &json,
        &[
            r#""variant":{"family":"tenjiku"}"#,
            r#"{"tenjiku":{"piece":"Ln","from":"10g","via":"10f","to":"10g"}}"#,
            r#"{"tenjiku":{"piece":"Ln","from":"10g","via":"9f","to":"8e"}}"#,
            r#"{"tenjiku":{"piece":"Ln","from":"9f","to":"10e","promote":true}}"#,
        ],
        "json",
    );
    // A JSON move that the board refuses is an error, not a game.
    let bad = json.replace(
        r#"{"piece":"GGn","from":"9m","to":"9l"}"#,
        r#"{"piece":"GGn","from":"9m","to":"9h"}"#,
    );
    assert_ne!(bad, json);
    let out = convert("json", "tenjiku", &[], bad.as_bytes());
    no_panic(&out);
    assert_eq!(counts(&out), (0, 1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot make this move"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn loose_forms_read_to_canonical_hodges() {
    let out = rewrite(&corpus("loose.tenjiku"), &[]);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), text(corpus("loose.expected.tenjiku")));
    // `8kx3f` names no piece; `x` onto the empty 6k is read with a warning.
    assert!(stdout(&out).contains("5. BGnx3f WBfx3f"));
    let out = rewrite(b"1. P 7l-7k P-9f 2. BGn 6m-8k P-8f 3. FiD 7nx6k *\n", &[]);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1. P-7k P-9f 2. BGn-8k P-8f 3. FiD-6k *\n");
    assert!(
        stderr(&out)
            .contains("-:1:38: warning[capture-mark]: game 1: a move marked `x` onto an empty"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_origin_is_written_exactly_when_another_piece_could_move() {
    let o = text(corpus("origins.tenjiku"));
    assert!(o.contains("7. FiD11k-8h") && o.contains("5. FiD-6k") && o.contains("6. FiD-11k"));
    // Without the origin the move is ambiguous, and the error names both.
    let short = o.replace("FiD11k-8h", "FiD-8h");
    let out = rewrite(short.as_bytes(), &[]);
    assert_eq!(counts(&out), (0, 1));
    let err = stderr(&out);
    assert!(errors_are_located(&err), "{err}");
    assert!(
        err.contains(":10:") && err.contains("7. FiD-8h: ambiguous: the FiD on 6k or 11k"),
        "{err}"
    );
    // A range jump over its own pawn, a promoted piece written `+RGn`;
    // the engines' `GGn 10c-10d` (the kind it moves as, with the origin)
    // is that piece too.
    assert!(o.contains("8. RGnx10f") && o.contains("9. RGn-10e+ P-1h 10. +RGnx10c"));
    let engine = o.replace("+RGnx10d", "GGn 10cx10d");
    let out = rewrite(engine.as_bytes(), &[]);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), o);
}

#[test]
fn bad_moves_are_located_errors() {
    for (record, at, message) in [
        (
            "1. P-17k *",
            "1:6",
            "file 17 is not on the board (files are 1 to 16)",
        ),
        ("1. P-9q *", "1:6", "rank `q` is not on the board"),
        ("1. P-9十七 *", "1:6", "rank `十七` is not on the board"),
        ("1. Zq-9k *", "1:4", "`Zq` is not a tenjiku piece"),
        ("1. P-9j *", "1:4", "1. P-9j: no P can make this move"),
        (
            "1. P-9k P-9f 2. +P-9j *",
            "1:17",
            "Black has no +P on the board",
        ),
        ("1. HT-9k *", "1:4", "Black has no HT on the board"),
        ("1. N 9l-9k *", "1:4", "the piece on 9l is P, not N"),
        ("1. 9e-9f *", "1:4", "the piece on 9e is the opponent's"),
        ("1. 9k-9j *", "1:4", "there is no piece on 9k"),
        ("1. P-9k+ *", "1:4", "the P cannot promote on this move"),
        ("1. P-9k= *", "1:4", "`=` declines a promotion"),
        ("1. P-9k* *", "1:4", "`*` says the piece burns"),
        (
            "1. P-9kx!2 *",
            "1:4",
            "the record says 2 burned, but the fire demon burns 0",
        ),
        (
            "1. Lnx!9n-9m *",
            "1:10",
            "igui (`x!`) is the only part of its move",
        ),
    ] {
        let out = rewrite(record.as_bytes(), &[]);
        no_panic(&out);
        let err = stderr(&out);
        assert_eq!(counts(&out), (0, 1), "{record}: {err}");
        assert!(errors_are_located(&err), "{record}: {err}");
        assert!(
            err.contains(&format!("-:{at}: error: game 1: ")),
            "{record}: {err}"
        );
        assert!(err.contains(message), "{record}: {err}");
    }
}

/// A position given by the record: `SetUp` and a `FEN` tag, ranks `a`
/// to `p` separated by `/`, squares from file 16 to 1 separated by commas,
/// Black's pieces with an upper-case first letter, White's lower case, and
/// the side to move. `handicap.tenjiku`: White gives the free king and
/// moves first.
#[test]
fn a_record_can_give_its_position() {
    let h = text(corpus("handicap.tenjiku"));
    assert!(h.contains(",ph,1,ln,") && h.contains(" w\"]") && h.contains("1... Ln-9b 2. P-9k"));
    // The FEN in other sets is kept as written; the moves are the same.
    let start = h.find("[FEN \"").unwrap();
    let end = start + h[start..].find('\n').unwrap();
    let mixed = h[start..end]
        .replace("FiD", "Fi")
        .replace("fid", "fd")
        .replace("WBf", "WB");
    let other = format!("{}{}{}", &h[..start], mixed, &h[end..]);
    let out = rewrite(other.as_bytes(), &[]);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), other);
    // From the standard position White's lion could not go to 9b.
    let without = format!("{}{}", &h[..h.find("[SetUp").unwrap()], &h[end + 1..]);
    let out = rewrite(without.as_bytes(), &[]);
    assert_eq!(counts(&out), (0, 1));
    assert!(stderr(&out).contains("1... Ln-9b: no Ln can make this move (from 8b)"));
    // A FEN the board cannot hold is an error at its tag.
    for (fen, message) in [
        ("16/16 b", "FEN: 2 ranks, where the board has 16"),
        (
            "zz,15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 b",
            "FEN: `zz` is not a tenjiku piece",
        ),
        (
            "15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 b",
            "FEN: rank a does not hold 16 squares",
        ),
    ] {
        let record = format!("[Event \"x\"]\n[FEN \"{fen}\"]\n\n*\n");
        let out = rewrite(record.as_bytes(), &[]);
        no_panic(&out);
        let err = stderr(&out);
        assert_eq!(counts(&out), (0, 1), "{err}");
        assert!(
            err.contains("-:2:1: error: game 1: ") && err.contains(message),
            "{err}"
        );
    }
}

/// The seed's forms (`P-8g`, `Nx7d=`, `+P`) and the issue's (`FiD 6h-7e`,
/// `Ln x!7d`, `Fi 6k-2gx!1`) as they write them, in a position set up for
/// them (`seed.tenjiku`), and how kifu writes them (`seed.expected.tenjiku`).
#[test]
fn the_seeds_forms_read_in_a_position_made_for_them() {
    let out = rewrite(&corpus("seed.tenjiku"), &[]);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let expected = text(corpus("seed.expected.tenjiku"));
    assert_eq!(stdout(&out), expected);
    contains_all(
        &expected,
        &[
            "1. P-8g",
            "2. Nx7d=",
            "3. FiD-7e",
            "4. Lnx!10d=",
            "5. +P-5b",
            "6. FiD-2gx!1",
        ],
        "seed",
    );
    assert_interchange_round_trip("tenjiku", &[], expected.as_bytes(), 1, "seed");
}

/// A lion that steps to an empty square and back passes; kifu writes both
/// steps (`Ln-10j-10k`), not igui's `x!`, which captures.
#[test]
fn a_lions_pass_is_written_with_its_two_steps() {
    let record = "1. P-9k P-10f 2. GGn-9l P-9f 3. Ln-9m P-8f 4. Ln-10k P-8g 5. Ln x!10j *\n";
    let out = rewrite(record.as_bytes(), &[]);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let written = stdout(&out);
    assert!(written.ends_with("5. Ln-10j-10k *\n"), "{written}");
    let again = rewrite(written.as_bytes(), &[]);
    assert_eq!(stdout(&again), written);
}

/// A fire demon's burns: counted (`x!1`, canonical, as C. Adams' notes
/// write them), claimed (`x!`) or named (`x!3f`); each checked on the board.
#[test]
fn fire_demon_burns_are_counted_claimed_or_named() {
    let before = "1. P 7l-7k SE 5d-3f 2. BG 6m-8k P 4e-4f 3. Fi 7n-6k P 10e-10f \
                  4. BG 8kx3f WB 6cx3f 5. ";
    for burn in ["FiD 6k-2gx!1", "FiD 6k-2gx!", "FiD 6k-2gx!3f", "Fi6k-2g"] {
        let out = rewrite(format!("{before}{burn} *\n").as_bytes(), &[]);
        assert_eq!(counts(&out), (1, 0), "{burn}: {}", stderr(&out));
        assert!(stdout(&out).ends_with("5. FiD-2gx!1 *\n"), "{burn}");
    }
    for (burn, message) in [
        (
            "FiD 6k-2gx!2",
            "the record says 2 burned, but the fire demon burns 1 (3f)",
        ),
        (
            "FiD 6k-2gx!1f",
            "the record says 1f burns, but the fire demon burns 3f",
        ),
        (
            "FiD 6k-5hx!",
            "`x!` says the fire demon burns, but no enemy piece is next to it",
        ),
    ] {
        let out = rewrite(format!("{before}{burn} *\n").as_bytes(), &[]);
        let err = stderr(&out);
        assert_eq!(counts(&out), (0, 1), "{burn}: {err}");
        assert!(
            errors_are_located(&err) && err.contains(message),
            "{burn}: {err}"
        );
    }
}

#[test]
fn a_batch_goes_on_past_a_bad_game() {
    let mut input = b"1. P-9j *\n\n".to_vec();
    input.extend(corpus("origins.tenjiku"));
    let out = rewrite(&input, &[]);
    assert_eq!(counts(&out), (1, 1), "{}", stderr(&out));
    assert_eq!(stdout(&out), text(corpus("origins.tenjiku")));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_options_belong_to_the_format() {
    let out = rewrite(b"1. P-9k *\n", &["abbreviations=xx"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("tenjiku: `xx` is not a value of abbreviations: give tsa, wikipedia, pbem"),
        "{}",
        stderr(&out)
    );
    let out = kifu(&["formats"], b"");
    let listed = stdout(&out);
    contains_all(
        &listed,
        &[
            "tenjiku",
            "pieces",
            "coordinates",
            "long",
            "wikipedia",
            "japanese",
        ],
        "kifu formats",
    );
}

#[test]
fn garbage_is_never_a_panic() {
    for junk in [
        &b"1. P-"[..],
        b"1. x!x!x! *",
        b"1. +-9k *",
        b"1. P 99999999999999999999a-9k *",
        b"1. P-9\xe5\x8d\x81 *",
        b"1. Ln x! *",
        b"[Event \"x\"]\n1. FiD-6k ( 1. P-9k ( 1... P-9f ) ) *",
        b"1. 9l-9kx9jx9i *",
        b"1. P-9kx!99999999999 *",
    ] {
        let out = rewrite(junk, &[]);
        no_panic(&out);
        assert!(errors_are_located(&stderr(&out)), "{}", stderr(&out));
    }
}

/// The firedemon engine's saved games: `1.7l-7k` (coordinates) or
/// `1.  P  7l-7k` (a piece and its origin), one ply a number. Those in
/// Hodges-like notation read, save where the record repeats a move (an
/// engine test file) or is no game (ANSI colours, `setup`, prose).
#[test]
fn the_firedemon_savegames_read_as_far_as_they_are_hodges() {
    let Some(dir) = shared("shogi") else { return };
    let dir = dir.join("firedemon-tenjiku/savegames");
    let mut read = 0;
    let mut failed = Vec::new();
    for path in files(&dir, "") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut data = fs::read(&path).unwrap();
        data.extend(b"\n*\n");
        let out = rewrite(&data, &[]);
        no_panic(&out);
        let err = stderr(&out);
        assert!(errors_are_located(&err), "{name}: {err}");
        match counts(&out) {
            (1, 0) => read += 1,
            _ => failed.push((name, err)),
        }
    }
    let names: Vec<&str> = failed.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "4hf-4f11",
            "4hf4f-1",
            "httest",
            "lpostest",
            "lptest",
            "luckydog-comments",
            "qawobgnx3f-21.01.09",
        ],
        "{failed:#?}"
    );
    assert_eq!(read, 30);
    // The three that repeat a move fail at it.
    for (name, at) in [
        (
            "4hf-4f11",
            ":11:6: error: game 1: 6. P  2e-2f: there is no piece on 2e",
        ),
        (
            "4hf4f-1",
            ":11:5: error: game 1: 6. FiD 10c-11f: there is no piece on 10c",
        ),
        (
            "qawobgnx3f-21.01.09",
            ":13:5: error: game 1: 7. FiD 11f-11i: there is no piece on 11f",
        ),
    ] {
        let err = &failed.iter().find(|f| f.0 == name).unwrap().1;
        assert!(err.contains(at), "{name}: {err}");
    }
}

/// The opening book: each line is a path of coordinate moves without a
/// dash (`9l9k:9e9f:8m14g`) and a reply (`8d-10f`), which the test writes
/// as a record. 116 of its 145 lines replay; 27 have two moves of one side
/// in a row (the book's own slip) and two a typo (`10x9a`, `109a`).
#[test]
fn the_firedemon_book_lines_replay() {
    let Some(dir) = shared("shogi") else { return };
    let book = fs::read_to_string(dir.join("firedemon-tenjiku/tenjiku.book.in")).unwrap();
    let mut records = String::new();
    let mut lines = 0;
    for line in book.lines().filter(|l| !l.trim().is_empty()) {
        lines += 1;
        let (path, reply) = line.trim().split_once(' ').expect("a path and a reply");
        let mut moves: Vec<String> = path.split(':').map(dashed).collect();
        moves.push(reply.to_string());
        records.push_str(&format!("[Event \"book line {lines}\"]\n\n"));
        for (i, m) in moves.iter().enumerate() {
            if i % 2 == 0 {
                records.push_str(&format!("{}. ", i / 2 + 1));
            }
            records.push_str(m);
            records.push(' ');
        }
        records.push_str("*\n\n");
    }
    assert_eq!(lines, 145);
    // Every error, one a line (--verbose: not grouped).
    let out = convert("tenjiku", "tenjiku", &["-v"], records.as_bytes());
    no_panic(&out);
    let err = stderr(&out);
    assert!(errors_are_located(&err), "{err}");
    assert_eq!(counts(&out), (116, 29), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    let side = errors
        .iter()
        .filter(|l| l.ends_with("is the opponent's"))
        .count();
    let typos = errors
        .iter()
        .filter(|l| l.contains("expected a move"))
        .count();
    assert_eq!((side, typos), (27, 2), "{err}");
    // The lines read are written in Hodges notation with TSA pieces.
    let written = stdout(&out);
    assert!(written.contains("1. P-9k P-9f 2. VGn-14g GGn-10f 3. VGnx10c FKx10c"));
}

/// `9l9k` as `9l-9k`, `7m7e+` as `7m-7e+`; anything else as written.
fn dashed(m: &str) -> String {
    let b = m.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == 0
        || i >= b.len()
        || !b[i].is_ascii_lowercase()
        || !b.get(i + 1).is_some_and(u8::is_ascii_digit)
    {
        return m.to_string();
    }
    format!("{}-{}", &m[..=i], &m[i + 1..])
}

/// The annotated analysis (`luckydog-comments`, C. Adams' PBeM notes) is
/// prose with moves in it, numbered one a ply (`1: P 7l-7k`, `16.VGn-6c`),
/// TSA and PBeM letters mixed. The test takes every numbered move outside
/// parentheses, cuts them into runs of consecutive numbers, and replays
/// the lines the text develops: in its first game the main line to 16,
/// the variation `Ln-7n` (numbered from 1 again) after move 6, and the two
/// lines from move 16 (`16.VGn-6c`, `16.B-2b`) after the main line's 15;
/// in its second the variation from White's 6th (`1: BG 11d-9f` ...
/// `10: Fi 14gx14ex!5`), the line `7: HF 4m-4k 8.GGn-8e` ... `15.Lnx7m`
/// and the line `8.HF 13d-13f ??? 9.GGn-9l` ... `10.P-4f` ...
/// `17.HFx11d* mate`.
#[test]
fn the_luckydog_analysis_lines_replay() {
    let Some(dir) = shared("shogi") else { return };
    let notes =
        fs::read_to_string(dir.join("firedemon-tenjiku/savegames/luckydog-comments")).unwrap();
    let moves = numbered_moves(&notes);
    let mut runs: Vec<Vec<(u32, String)>> = Vec::new();
    for (n, m) in moves {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|l| l.0 + 1 == n) => run.push((n, m)),
            _ => runs.push(vec![(n, m)]),
        }
    }
    let numbers: Vec<(u32, u32)> = runs.iter().map(|r| (r[0].0, r[r.len() - 1].0)).collect();
    assert_eq!(
        numbers,
        [
            // The first game: main line, the variation Ln-7n, the rest of
            // the main line, a `2. FiD-5d` in prose, the lines from 16.
            (1, 6),
            (1, 16),
            (7, 16),
            (2, 2),
            (16, 26),
            (28, 28),
            (16, 22),
            // The second: main line, `6.SEg-14f` in brackets, the
            // variation from White's 6th, 7, the lines after it.
            (1, 6),
            (6, 6),
            (1, 10),
            (7, 8),
            (8, 8),
            (8, 11),
            (10, 17),
            (8, 8),
            (8, 15)
        ],
        "{runs:?}"
    );
    let plies = |parts: &[&[(u32, String)]]| -> Vec<String> {
        parts
            .iter()
            .flat_map(|p| p.iter().map(|m| m.1.clone()))
            .collect()
    };
    let main_to_15 = &runs[2][..9];
    let lines = [
        plies(&[&runs[0], &runs[2]]),
        plies(&[&runs[0], &runs[1]]),
        plies(&[&runs[0], main_to_15, &runs[4]]),
        plies(&[&runs[0], main_to_15, &runs[6]]),
        plies(&[&runs[7][..5], &runs[9]]),
        plies(&[&runs[7], &runs[10][..1], &runs[15]]),
        plies(&[&runs[7], &runs[10][..1], &runs[12][..2], &runs[13]]),
    ];
    let mut records = String::new();
    for line in &lines {
        for (i, m) in line.iter().enumerate() {
            if i % 2 == 0 {
                records.push_str(&format!("{}. ", i / 2 + 1));
            }
            records.push_str(m);
            records.push(' ');
        }
        records.push_str("*\n\n");
    }
    let out = rewrite(records.as_bytes(), &[]);
    no_panic(&out);
    let err = stderr(&out);
    assert_eq!(counts(&out), (7, 0), "{records}\n{err}");
    let written = stdout(&out);
    // The burns as the notes count them: `Fi 6k-2gx!1`, `Fi 2gx3ex!5`.
    contains_all(
        &written,
        &[
            "8. FiD-2gx!1",
            "11. FiDx3ex!5",
            "8. LHkx10n-11m",
            "13. FiD-8k",
            "VGnx15h*",
            "FiDx14ex!5",
            "HFx11d=*",
            "RGnx10m=*",
        ],
        "luckydog",
    );
}

/// The moves numbered `N:` or `N.` in a text, outside parentheses: a
/// piece's letters, then its squares (up to the next number).
fn numbered_moves(text: &str) -> Vec<(u32, String)> {
    let mut flat = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => flat.push(if c == '\n' { ' ' } else { c }),
            _ => {}
        }
        if depth == 0 && c == ')' {
            flat.push(' ');
        }
    }
    let b = flat.as_bytes();
    // Where a number and its mark start, and where its move starts.
    let mut marks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_digit()) {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j < b.len() && (b[j] == b':' || b[j] == b'.') {
                let mut k = j + 1;
                while k < b.len() && b[k] == b' ' {
                    k += 1;
                }
                if k < b.len() && b[k].is_ascii_uppercase() {
                    marks.push((i, flat[i..j].parse::<u32>().unwrap(), k));
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    let mut out = Vec::new();
    for (n, &(_, number, start)) in marks.iter().enumerate() {
        let end = marks.get(n + 1).map_or(b.len(), |m| m.0);
        let mut k = start;
        while k < end && (b[k].is_ascii_alphabetic() || b[k] == b'+') {
            k += 1;
        }
        let piece = &flat[start..k];
        while k < end && b[k] == b' ' {
            k += 1;
        }
        let from = k;
        while k < end && b"0123456789abcdefghijklmnop-x!+=*".contains(&b[k]) {
            k += 1;
        }
        if k > from && !piece.is_empty() {
            out.push((number, flat[start..k].to_string()));
        }
    }
    out
}

/// `seed.tenjiku` with a ply pair inserted after move 2 that the board
/// refuses (`3. P-1a`: no pawn reaches 1a), the later numbers as they were.
fn seed_with_an_impossible_move() -> String {
    let seed = text(corpus("seed.tenjiku"));
    let b = seed.replace("2. Nx7d= K-8a ", "2. Nx7d= K-8a 3. P-1a K-8b ");
    assert_ne!(b, seed);
    b
}

const UNREPLAYED: &str = "warning[not-replayed]: game 1: moves not replayed (--no-validate)";

#[test]
fn no_validate_converts_a_game_with_an_impossible_move_as_written() {
    let input = seed_with_an_impossible_move();
    // Replayed, the game fails at the move.
    let out = rewrite(input.as_bytes(), &[]);
    assert_eq!(counts(&out), (0, 1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("5:31: error: game 1: 3. P-1a: no P can make this move (from 8g)"),
        "{}",
        stderr(&out)
    );
    // By its text alone, it converts, each move as written (the origins
    // `FiD 6h-7e` and `Fi 6k-2gx!1` name, no `=` the board would add,
    // the burn count as written), and says so once.
    let out = convert("tenjiku", "tenjiku", &["--no-validate"], input.as_bytes());
    let err = stderr(&out);
    assert_eq!(counts(&out), (1, 0), "{err}");
    assert_eq!(err.matches(UNREPLAYED).count(), 1, "{err}");
    // (The later numbers, as they were, do not follow the inserted pair:
    // the moves are numbered in their order, and that is said too.)
    assert_eq!(err.matches("warning[move-number]").count(), 1, "{err}");
    assert_eq!(err.matches("warning[").count(), 2, "{err}");
    let written = stdout(&out);
    assert!(
        written.ends_with(
            "\n\n1. P-8g K-8b 2. Nx7d= K-8a 3. P-1a K-8b 4. FiD6h-7e K-8b 5. Lnx!10d K-8a\n\
             6. +P-5b K-8b 7. FiD6k-2gx!1 *\n"
        ),
        "{written}"
    );
    assert!(written.contains("[FEN \"8,k,7/16/11,+P,4/"), "{written}");
    // What it writes reads back the same way.
    let again = convert("tenjiku", "tenjiku", &["--no-validate"], written.as_bytes());
    assert_eq!(stdout(&again), written);
}

#[test]
fn no_validate_writes_every_form_back_as_written() {
    // The canonical records and their layouts under the options: read by
    // their text alone and written with the same options, byte for byte
    // (igui, a double move with its marks, `=`, a burn count, `*`, a
    // variation, comments, a glyph, origins, Japanese ranks, the sets, the
    // long form).
    for (name, opts) in [
        ("constructs.tenjiku", &[][..]),
        ("origins.tenjiku", &[][..]),
        ("handicap.tenjiku", &[][..]),
        ("seed.expected.tenjiku", &[][..]),
        ("constructs.japanese.tenjiku", &["coordinates=japanese"][..]),
        ("constructs.pbem.tenjiku", &["abbreviations=pbem"][..]),
        (
            "constructs.wikipedia-long.tenjiku",
            &["abbreviations=wikipedia", "long=yes"][..],
        ),
    ] {
        let mut extra = vec!["--no-validate"];
        for o in opts {
            extra.extend(["--to-opt", o]);
        }
        let out = convert("tenjiku", "tenjiku", &extra, &corpus(name));
        let err = stderr(&out);
        assert_eq!(counts(&out), (1, 0), "{name}: {err}");
        assert_eq!(err.matches(UNREPLAYED).count(), 1, "{name}: {err}");
        assert_eq!(stdout(&out), text(corpus(name)), "{name}");
    }
    // Loose forms keep what their text says, in kifu's spelling: the
    // coordinate moves without a piece, `x` where written, the named burn.
    let out = convert(
        "tenjiku",
        "tenjiku",
        &["--no-validate"],
        &corpus("loose.tenjiku"),
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with(
            "\n\n1... P8e-8f 2. P7l-7k 10e-10f 3. BGn6m-8k SE5d-3f 4. FiD7n-6k P4e-4f 5. 8kx3f\n\
             WBf6cx3f 6. FiD6k-2gx!3f ChS4b-5b *\n"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_claimed_game_round_trips_through_json_and_xml() {
    let input = seed_with_an_impossible_move();
    let canonical = stdout(&convert(
        "tenjiku",
        "tenjiku",
        &["--no-validate"],
        input.as_bytes(),
    ));
    let json = stdout(&convert(
        "tenjiku",
        "json",
        &["--no-validate"],
        input.as_bytes(),
    ));
    contains_all(
        &json,
        &[
            r#""variant":{"family":"tenjiku","validated":false}"#,
            r#"{"tenjiku":{"claimed":{"piece":"P","to":"1a"}}}"#,
            r#"{"tenjiku":{"claimed":{"piece":"N","to":"7d","capture":true,"promote":false}}}"#,
            r#"{"tenjiku":{"claimed":{"piece":"FiD","from":"6h","to":"7e"}}}"#,
            r#"{"tenjiku":{"claimed":{"piece":"Ln","via":"10d"}}}"#,
            r#"{"tenjiku":{"claimed":{"piece":"FiD","from":"6k","to":"2g","burned":1}}}"#,
        ],
        "json",
    );
    for fmt in ["json", "jsonl", "xml"] {
        let there = convert("tenjiku", fmt, &["--no-validate"], input.as_bytes());
        assert_eq!(counts(&there), (1, 0), "{fmt}: {}", stderr(&there));
        let back = convert(fmt, "tenjiku", &[], &there.stdout);
        assert_eq!(counts(&back), (1, 0), "{fmt}: {}", stderr(&back));
        assert_eq!(stdout(&back), canonical, "tenjiku -> {fmt} -> tenjiku");
    }
    let xml = stdout(&convert(
        "tenjiku",
        "xml",
        &["--no-validate"],
        input.as_bytes(),
    ));
    contains_all(
        &xml,
        &[
            r#"<variant family="tenjiku" validated="false"/>"#,
            r#"<tenjiku><claimed piece="P" to="1a"/></tenjiku>"#,
        ],
        "xml",
    );
    // A claim in a replayed game, a replayed move in a game not replayed and
    // a claim the notation cannot write are refused, each naming its ply.
    for (from, to, message) in [
        (
            r#","validated":false"#,
            "",
            "1. a move as written (not replayed) in a replayed game",
        ),
        (
            r#"{"claimed":{"piece":"P","to":"8g"}}"#,
            r#"{"piece":"P","from":"8h","to":"8g"}"#,
            "1. a replayed move in a game not replayed",
        ),
        (
            r#"{"piece":"P","to":"8g"}"#,
            r#"{"to":"8g"}"#,
            "1. a move names a piece or its square",
        ),
        (
            r#""burned":1"#,
            r#""burned":1,"burns":true"#,
            "7. a move writes its burns once",
        ),
    ] {
        let bad = json.replacen(from, to, 1);
        assert_ne!(bad, json, "{from}");
        let out = convert("json", "tenjiku", &[], bad.as_bytes());
        no_panic(&out);
        assert_eq!(counts(&out), (0, 1), "{from}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{from}: {}", stderr(&out));
    }
}

#[test]
fn the_long_form_of_a_claim_without_its_origin_is_written_as_it_is_with_a_warning() {
    let input = seed_with_an_impossible_move();
    let out = convert(
        "tenjiku",
        "tenjiku",
        &[
            "--no-validate",
            "--to-opt",
            "long=yes",
            "--to-opt",
            "abbreviations=pbem",
        ],
        input.as_bytes(),
    );
    let err = stderr(&out);
    assert_eq!(counts(&out), (1, 0), "{err}");
    assert!(
        err.contains(
            "warning[origin-unknown]: game 1: long=yes: 11 moves not replayed (--no-validate) \
             written without the origin"
        ),
        "{err}"
    );
    // No origin is invented: the moves whose text gives one have it.
    assert!(
        stdout(&out).contains("1. P-8g K-8b 2. Nx7d= K-8a 3. P-1a K-8b 4. Fi6h-7e K-8b"),
        "{}",
        stdout(&out)
    );
}
