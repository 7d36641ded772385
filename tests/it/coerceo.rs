//! Coerceo Game Notation (seed 000) through the `kifu` binary: the seed's
//! complete game and the records of `corpus/coerceo/`, both layouts,
//! results, JSON, and errors with their line and column.
//!
//! `corpus/coerceo/european-championship-2012.coerceo` is the seed's game as
//! the seed writes it (the tags of its example, its movetext with the
//! comments glued to `T16`, `T19`, `T23`, `x3d` and the blank line after
//! ply 115); `.text.coerceo` and `.columns.coerceo` are its two layouts.
//! `constructs.coerceo` is canonical, beside its `columns` layout and JSON.

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::*;

fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/coerceo")
        .join(name);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The movetext's tokens: a `{...}` comment is one (also glued to the token
/// before it), anything else is cut at blanks.
fn tokens(text: &str) -> Vec<String> {
    let movetext = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut rest = movetext.as_str();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return out;
        }
        let end = if rest.starts_with('{') {
            rest.find('}').expect("a closed comment") + 1
        } else {
            rest.find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len())
        };
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
}

#[test]
fn the_seed_game_reads_and_writes_back_token_for_token() {
    let seed = corpus("european-championship-2012.coerceo");
    // --verbose: every warning, not one line per kind.
    let out = convert("coerceo", "coerceo", &["--verbose"], &seed);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let written = stdout(&out);
    assert_eq!(
        written,
        String::from_utf8(corpus("european-championship-2012.text.coerceo")).unwrap()
    );
    let seed_text = String::from_utf8(seed).unwrap();
    let (before, after) = (tokens(&seed_text), tokens(&written));
    // Token for token, but for the three removals the rules correct.
    assert_eq!(before.len(), after.len());
    let changed: Vec<(&str, &str)> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(changed, [("T22", "T10"), ("T12", "T9"), ("T23", "T11")]);
    // 165 plies, every comment in place, the glued ones too.
    assert!(after.iter().any(|t| t == "165#") && !after.iter().any(|t| t == "166#"));
    assert_eq!(before.iter().filter(|t| t.starts_with('{')).count(), 14);
    for glued in [
        "90# 16b-6f T16 {?! black chooses",
        "115# 19c-2e T19 {white removes",
        "160# 11d-4b T11 {which black does}",
        "165# 4e-4a x3d {and white wins the game} 1-0",
    ] {
        let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(glued), "{glued}");
    }
    // Every line of the movetext within 80 columns, but for comments
    // longer than a line, which keep a line of their own.
    for line in written.lines() {
        assert!(
            line.chars().count() <= 80 || line.starts_with('{'),
            "{line}"
        );
    }
    // What the seed leaves open: T22 and T23 name no tile of the board,
    // T12 one that holds pieces, where the rules take off the tile the
    // step left; the exchange written after Black's step of 112# was
    // White's turn, so that 113# is Black's; and its example's Result tag
    // says Black won where the game ends with White's win. Each is said
    // in a located warning.
    contains_all(
        &stderr(&out),
        &[
            "-:9:270: warning[unknown-tile]: game 1: 27# 10e-3a T22: tile 22 is not on the board \
             (tiles are 1 to 19); the rules take off tile 10 here: written T10",
            "-:9:1494: warning[turn-order]: game 1: 113# 8b-8d TT x19b: numbered as White's, but \
             Black is to move",
            "-:11:355: warning[wrong-tile]: game 1: 144# 9f-2b T12: tile 12 is not taken off the \
             board here (pieces stand on it: 12b, 12d); the rules take off tile 9 here: written T9",
            "-:11:796: warning[unknown-tile]: game 1: 160# 11d-4b T23: tile 23 is not on the board",
            "-:7:1: warning[result-mismatch]: game 1: the Result tag says `0-1` but the game ends with `1-0`: \
             both are kept as written",
        ],
        "the seed game",
    );
    // Written back, it reads to itself.
    let again = convert("coerceo", "coerceo", &["-q"], &out.stdout);
    assert!(again.stdout == out.stdout);
}

#[test]
fn the_seed_game_survives_json() {
    let canonical = corpus("european-championship-2012.text.coerceo");
    assert_interchange_round_trip("coerceo", &[], &canonical, 1, "the seed game");
    let seed = corpus("european-championship-2012.coerceo");
    let json = convert("coerceo", "json", &["-q"], &seed);
    let back = convert("json", "coerceo", &[], &json.stdout);
    assert_eq!(counts(&back), (1, 0));
    assert!(back.stdout == canonical);
}

#[test]
fn the_columns_layout_has_a_white_and_a_black_ply_a_line() {
    let seed = corpus("european-championship-2012.coerceo");
    let out = convert(
        "coerceo",
        "coerceo",
        &["-q", "--to-opt", "layout=columns"],
        &seed,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let columns = corpus("european-championship-2012.columns.coerceo");
    assert_eq!(stdout(&out), String::from_utf8(columns.clone()).unwrap());
    let text = stdout(&out);
    let movetext: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
    assert_eq!(movetext.len(), 83);
    for (i, line) in movetext.iter().enumerate() {
        let (white, black) = (2 * i + 1, 2 * i + 2);
        assert!(line.starts_with(&format!("{white}# ")), "{line}");
        if white < 165 {
            assert!(line.contains(&format!(" {black}# ")), "{line}");
        }
    }
    assert_eq!(movetext[0], "1# 3c-3e 2# 4b-3d");
    assert_eq!(movetext[55], "111# 7a-19c 112# 8f-19b TT x19f");
    assert_eq!(movetext[82], "165# 4e-4a x3d {and white wins the game} 1-0");
    // Read back, the columns are the same game.
    let back = convert("coerceo", "coerceo", &["-q"], &columns);
    assert_eq!(
        back.stdout,
        corpus("european-championship-2012.text.coerceo")
    );
}

#[test]
fn every_construct_converts_to_its_expected_outputs_and_back() {
    let text = corpus("constructs.coerceo");
    let same = convert("coerceo", "coerceo", &[], &text);
    assert_eq!(counts(&same), (9, 0));
    assert!(
        same.stdout == text,
        "constructs.coerceo is not canonical:\n{}",
        stdout(&same)
    );
    let columns = convert(
        "coerceo",
        "coerceo",
        &["-q", "--to-opt", "layout=columns"],
        &text,
    );
    assert_eq!(
        stdout(&columns),
        String::from_utf8(corpus("constructs.columns.coerceo")).unwrap()
    );
    let back = convert("coerceo", "coerceo", &["-q"], &columns.stdout);
    assert!(back.stdout == text);
    let json = convert("coerceo", "json", &["-q"], &text);
    assert_eq!(
        stdout(&json),
        String::from_utf8(corpus("constructs.json")).unwrap()
    );
    let back = convert("json", "coerceo", &["-q"], &json.stdout);
    assert!(back.stdout == text);
    assert_interchange_round_trip("coerceo", &[], &text, 9, "constructs.coerceo");
}

#[test]
fn fields_and_tiles_out_of_range_are_errors_with_their_place() {
    for (text, at, what) in [
        (
            "1# 3c-3e 2# 20b-3d *",
            "1:13",
            "tile 20 is not on the board (tiles are 1 to 19)",
        ),
        (
            "1# 3c-3g *",
            "1:8",
            "field `g` is not on a tile (fields are a to f)",
        ),
        ("1# 0a-3c *", "1:4", "tile 0 is not on the board"),
        ("1# 3c-3e x19g *", "1:13", "field `g` is not on a tile"),
        ("1# 3C-3e *", "1:5", "field `C` is not on a tile"),
        (
            "[Event \"x\"]\n\n1# 3c-3e\n2# 4b-3d x25a *",
            "4:11",
            "tile 25 is not on the board",
        ),
        (
            "1# 3c-3e 2# 4b-3d T99999999999 *",
            "1:20",
            "tile number `99999999999` is too large",
        ),
        (
            "1# 14d-14b {a comment inside the ply} x14a *",
            "1:39",
            "`x14a` follows no move or exchange",
        ),
        ("1# T14 *", "1:4", "`T14` follows no move or exchange"),
        ("1# 14d-14fg *", "1:4", "expected a move"),
        ("1# 14d-14f-15a *", "1:4", "expected a move"),
        ("1. 14d-14f *", "1:1", "expected"),
    ] {
        let out = convert("coerceo", "coerceo", &[], text.as_bytes());
        no_panic(&out);
        assert_eq!(out.status.code(), Some(1), "{text}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("-:{at}: error: game 1: {what}")),
            "{text}: {err}"
        );
        assert!(errors_are_located(&err), "{err}");
    }
}

/// Tiles 1 and 2 alone: White's 2c steps to 1a, which encloses Black's
/// 1b (its third side is off the board) and leaves tile 2 empty, held by
/// tile 1 alone.
const SMALL: &str = "[Position \"1bw2b/2w3/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- w 0:0\"]\n\n";

#[test]
fn a_removal_of_a_tile_the_board_lacks_is_the_rules_tile_with_a_warning() {
    let text = format!("{SMALL}1# 2c-1a x1b T22 *\n");
    let out = convert("coerceo", "coerceo", &[], text.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{SMALL}1# 2c-1a x1b T2 *\n"));
    assert!(
        stderr(&out).contains(
            "-:3:14: warning[unknown-tile]: game 1: 1# 2c-1a x1b T22: tile 22 is not on the board \
             (tiles are 1 to 19); the rules take off tile 2 here: written T2"
        ),
        "{}",
        stderr(&out)
    );
    let strict = convert("coerceo", "coerceo", &["--strict"], text.as_bytes());
    assert_ne!(strict.status.code(), Some(0));
    assert!(strict.stdout.is_empty(), "{}", stdout(&strict));
    // Read by syntax alone, it is kept as written.
    let loose = convert("coerceo", "coerceo", &["--no-validate"], text.as_bytes());
    assert_eq!(stdout(&loose), text);
    contains_all(
        &stderr(&loose),
        &[
            "-:3:14: warning[unknown-tile]: game 1: tile 22 is not on the board (tiles are 1 to 19): \
             the removal `T22` is kept as written",
            "warning[not-replayed]: game 1: moves not replayed (--no-validate)",
        ],
        "--no-validate",
    );
}

#[test]
fn captures_and_removals_are_computed_where_a_record_lists_none_and_checked_where_it_lists_any() {
    let bare = format!("{SMALL}1# 2c-1a *\n");
    let out = convert("coerceo", "coerceo", &[], bare.as_bytes());
    assert_eq!(stdout(&out), format!("{SMALL}1# 2c-1a x1b T2 *\n"));
    for (written, at, why) in [
        (
            "2c-1a x1b",
            "3:4",
            "1# 2c-1a x1b: the turn takes tile 2 off the board too",
        ),
        ("2c-1a T2", "3:4", "1# 2c-1a T2: the turn captures 1b too"),
        (
            "2c-1a x1f x1b T2",
            "3:4",
            "1# 2c-1a x1f x1b T2: the rules capture nothing on 1f",
        ),
        ("1b-1d", "3:4", "1# 1b-1d: no White piece on 1b"),
        ("2c-1e", "3:4", "1# 2c-1e: 1e is not a step from 2c"),
        (
            "2c-3e",
            "3:4",
            "1# 2c-3e: 3e is on tile 3, which is off the board",
        ),
    ] {
        let text = format!("{SMALL}1# {written} *\n");
        let out = convert("coerceo", "coerceo", &[], text.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{written}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("-:{at}: error: game 1: {why}"))
                && err.contains("(position: 1bw2b/2w3/-/"),
            "{written}: {err}"
        );
        // Read by syntax alone, the same record converts.
        let loose = convert(
            "coerceo",
            "coerceo",
            &["--no-validate", "-q"],
            text.as_bytes(),
        );
        assert_eq!(stdout(&loose), text, "{written}");
    }
    // A record that lists captures anywhere has every turn checked: a
    // later turn that captures with nothing written is refused.
    let seed = String::from_utf8(corpus("european-championship-2012.coerceo")).unwrap();
    let out = convert(
        "coerceo",
        "coerceo",
        &[],
        seed.replace("33# 1e-6c x5f", "33# 1e-6c").as_bytes(),
    );
    assert!(
        stderr(&out).contains("33# 1e-6c: the turn captures 5f too (position: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_seed_game_without_its_captures_and_removals_gets_them_back() {
    // Every capture that an exchange did not choose, and every removal,
    // struck out: the rules put each back.
    let canonical = String::from_utf8(corpus("european-championship-2012.text.coerceo")).unwrap();
    let mut bare = Vec::new();
    let mut after_exchange = false;
    for t in tokens(&canonical) {
        let consequence = (t.starts_with('x') && !after_exchange)
            || (t.starts_with('T') && t.len() > 1 && t.as_bytes()[1].is_ascii_digit());
        after_exchange = t == "TT";
        if !consequence {
            bare.push(t);
        }
    }
    let bare = bare.join(" ");
    assert!(!bare.contains("x5f") && bare.contains("TT x19f") && !bare.contains("T10"));
    let out = convert("coerceo", "coerceo", &[], bare.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(tokens(&stdout(&out)), tokens(&canonical));
}

#[test]
fn json_xml_and_csv_carry_captures_and_removals_as_data() {
    let text = format!("{SMALL}1# 2c-1a *\n");
    let json = convert("coerceo", "json", &["-q"], text.as_bytes());
    assert!(
        stdout(&json).contains(
            r#""move":{"coerceo":{"step":{"from":"2c","to":"1a"},"actions":[{"capture":"1b"},{"remove":2}]}}"#
        ),
        "{}",
        stdout(&json)
    );
    let xml = convert("coerceo", "xml", &["-q"], text.as_bytes());
    contains_all(
        &stdout(&xml),
        &[
            r#"<step from="2c" to="1a"/>"#,
            r#"<actions capture="1b"/>"#,
            r#"<actions remove="2"/>"#,
        ],
        "xml",
    );
    let csv = convert("coerceo", "csv", &["-q"], text.as_bytes());
    assert!(stdout(&csv).contains("2c-1a x1b T2"), "{}", stdout(&csv));
    // Read back, each is checked again: a capture edited out of the JSON
    // is refused.
    let edited = stdout(&json).replace(r#"{"capture":"1b"},"#, "");
    let back = convert("json", "coerceo", &[], edited.as_bytes());
    assert_eq!(back.status.code(), Some(1));
    assert!(
        stderr(&back).contains("the turn captures 1b too"),
        "{}",
        stderr(&back)
    );
}

#[test]
fn ocius_is_the_game_of_seven_tiles() {
    let out = convert(
        "coerceo",
        "coerceo",
        &[],
        b"[Variant \"Ocius\"]\n\n1# 2c-1a 2# 3d-3b *\n",
    );
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let json = convert("coerceo", "json", &["-q"], &out.stdout);
    assert!(stdout(&json).contains(r#""variant":{"family":"coerceo","game":"ocius"}"#));
    // Tile 8 is not on its board; a variant kifu does not know is an
    // error at its tag.
    let out = convert(
        "coerceo",
        "coerceo",
        &[],
        b"[Variant \"Ocius\"]\n\n1# 3c-10a *\n",
    );
    assert!(
        stderr(&out).contains("10a is on tile 10, which is off the board"),
        "{}",
        stderr(&out)
    );
    let out = convert(
        "coerceo",
        "coerceo",
        &[],
        b"[Variant \"Maximus\"]\n\n1# 3c-4a *\n",
    );
    assert!(
        stderr(&out)
            .contains("-:1:1: error: game 1: variant `Maximus`: a Coerceo game is Laurentius"),
        "{}",
        stderr(&out)
    );
    let out = convert(
        "coerceo",
        "coerceo",
        &[],
        b"[Position \"6 w 0:0\"]\n\n1# 3c-4a *\n",
    );
    assert!(
        stderr(&out).contains("-:1:1: error: game 1: position `6 w 0:0`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn diff_compares_meaning_and_shows_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.coerceo");
    let b = dir.path().join("b.coerceo");
    fs::write(&a, format!("{SMALL}1# 2c-1a x1b T2 2# 1f-1d *\n")).unwrap();
    fs::write(&b, format!("{SMALL}1# 2c-1a 2# 1f-1d *\n")).unwrap();
    let out = kifu(&["diff", a.to_str().unwrap(), b.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    fs::write(&b, format!("{SMALL}1# 2c-1a 2# 1f-1b *\n")).unwrap();
    let out = kifu(&["diff", a.to_str().unwrap(), b.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("w1w2b/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/-/- b 1:0"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn every_result_reads_writes_back_and_ends_its_record() {
    // No blank lines, no tags: each result ends its game.
    let text =
        b"1# 3c-4a 1-0 1# 3c-4a 0-1 1# 3c-4a 0-0 1# 3c-4a R 1# 3c-4a W+R\n1# 3c-4a B+R 1# 3c-4a *";
    let out = convert("coerceo", "coerceo", &[], text);
    assert_eq!(counts(&out), (7, 0), "{}", stderr(&out));
    let games: Vec<&str> = stdout(&out).leak().split("\n\n").collect();
    let ends: Vec<&str> = games
        .iter()
        .map(|g| g.trim_end().rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(ends, ["1-0", "0-1", "0-0", "R", "W+R", "B+R", "*"]);
    // As JSON, each is its token; `0-0` is a draw here, where draughts
    // reads it as a double forfeit, and comes back as it was.
    let json = convert("coerceo", "jsonl", &["-q"], text);
    let lines = stdout(&json);
    assert!(
        lines
            .lines()
            .nth(2)
            .unwrap()
            .ends_with(",\"result\":\"0-0\"}"),
        "{lines}"
    );
    let back = convert("jsonl", "coerceo", &[], &json.stdout);
    assert!(back.stdout == out.stdout, "{}", stderr(&back));
    // A result spaced around its dash is that result, with a warning.
    let out = convert("coerceo", "coerceo", &[], b"1# 3c-4a 2# 4b-3d 0 - 0");
    assert_eq!(stdout(&out), "1# 3c-4a 2# 4b-3d 0-0\n");
    assert!(stderr(&out).contains("a result written with spaces"));
}

#[test]
fn the_result_tag_and_the_movetext_are_kept_as_written() {
    // `R` says a game was decided, not who won: a Result tag that names the
    // winner agrees with it; one that contradicts the movetext is warned
    // about; nothing is rewritten.
    for (tag, result, warned) in [
        ("1-0", "R", false),
        ("0-1", "R", false),
        ("W+R", "1-0", false),
        ("*", "0-1", false),
        ("0-1", "W+R", true),
        ("0-0", "1-0", true),
        ("R", "0-0", true),
    ] {
        let text = format!("[Result \"{tag}\"]\n\n1# 3c-4a {result}\n");
        let out = convert("coerceo", "coerceo", &[], text.as_bytes());
        assert_eq!(counts(&out), (1, 0));
        assert_eq!(stdout(&out), text, "{tag} {result}");
        let said = stderr(&out).contains(&format!(
            "-:1:1: warning[result-mismatch]: game 1: the Result tag says `{tag}` but the game ends with `{result}`"
        ));
        assert_eq!(said, warned, "{tag} {result}: {}", stderr(&out));
    }
    // Without a result in the movetext, the tag's is written; `R` alone is
    // written as `R`, with no tag added.
    let out = convert(
        "coerceo",
        "coerceo",
        &["-q"],
        b"[Result \"B+R\"]\n\n1# 3c-4a\n",
    );
    assert_eq!(stdout(&out), "[Result \"B+R\"]\n\n1# 3c-4a B+R\n");
    let out = convert("coerceo", "coerceo", &["-q"], b"1# 3c-4a R");
    assert_eq!(stdout(&out), "1# 3c-4a R\n");
}

#[test]
fn comments_glued_to_a_ply_and_glyphs_are_read() {
    // By syntax alone: these moves are not a game from the start.
    let text = b"1# 3c-3e{glued}2# 4b-3d x3c!? {after} 3# TT x15c?? 4# 15b-5f $1 *";
    let out = convert("coerceo", "coerceo", &["--no-validate"], text);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "1# 3c-3e {glued} 2# 4b-3d x3c!? {after} 3# TT x15c?? 4# 15b-5f $1 *\n"
    );
    let text = b"1# 3c-3e{glued}2# 4b-3d!? {after} 3# 5c-5a?? 4# 6d-5f $1 *";
    let out = convert("coerceo", "coerceo", &[], text);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "1# 3c-3e {glued} 2# 4b-3d!? {after} 3# 5c-5a?? 4# 6d-5f $1 *\n"
    );
}

#[test]
fn coerceo_is_its_own_family() {
    let out = convert("coerceo", "pgn", &[], b"1# 3c-4a 1-0");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("coerceo holds coerceo games and pgn holds chess games"),
        "{}",
        stderr(&out)
    );
    let out = convert("pgn", "coerceo", &[], b"1. e4 1-0");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("pgn holds chess games and coerceo holds coerceo games"),
        "{}",
        stderr(&out)
    );
    // A result of another family (a JSON game edited by hand) is written `*`,
    // with a warning.
    let json = br#"{"variant":{"family":"coerceo"},"moves":{"plies":[{"number":1,"side":"white","move":{"coerceo":{"step":{"from":"3c","to":"4a"}}}}]},"result":"2-0"}"#;
    let out = convert("jsonl", "coerceo", &[], json);
    assert_eq!(stdout(&out), "1# 3c-4a *\n");
    assert!(
        stderr(&out).contains("result `2-0` is not a coerceo result"),
        "{}",
        stderr(&out)
    );
    // What JSON cannot say wrong: a field off the board, a ply that neither
    // moves nor exchanges.
    for (bad, what) in [
        (
            r#"{"step":{"from":"3c","to":"4g"}}"#,
            "field `g` is not on a tile",
        ),
        (
            r#"{"actions":[{"capture":"14a"}]}"#,
            "1# a Coerceo ply moves a piece",
        ),
        (
            r#"{"step":{"from":"3c","to":"4a"},"actions":[{"remove":20}]}"#,
            "tile 20",
        ),
    ] {
        let json = format!(
            r#"{{"variant":{{"family":"coerceo"}},"moves":{{"plies":[{{"number":1,"side":"white","move":{{"coerceo":{bad}}}}}]}}}}"#
        );
        let out = convert("jsonl", "coerceo", &[], json.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(stderr(&out).contains(what), "{bad}: {}", stderr(&out));
    }
    let formats = kifu(&["formats"], b"");
    assert!(stdout(&formats).contains("coerceo"), "{}", stdout(&formats));
}
