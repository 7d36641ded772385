//! The command line as a user runs it: files, directories, standard input,
//! bad games in a batch, --strict, and the format list.

use crate::common;

use std::fs;

use common::*;

const GOOD: &str = "[Event \"one\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
const BAD_MIDDLE: &str = "[Event \"one\"]\n\n1. 32-28 19-23 *\n\n[Event \"two\"]\n\n1. 32-28 19-23 2. 28-99 *\n\n[Event \"three\"]\n\n1. 33-29 *\n";

#[test]
fn stdin_to_stdout() {
    let out = convert("draughts-num", "draughts-diag", &[], GOOD.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "[Event \"one\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n\n1. e45 e76 2. e57x e86x 2-0\n"
    );
    assert!(stderr(&out).contains("converted 1 game, 0 failed"));
}

#[test]
fn a_bad_game_in_the_middle_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("three.pdn");
    fs::write(&file, BAD_MIDDLE).unwrap();
    let path = file.to_str().unwrap();
    let out = kifu(&["convert", "--to", "draughts-num", path], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    // Line 7, column 22 of the file is `99`.
    assert!(
        err.contains(&format!(
            "{path}:7:22: error: game 2: square 99 is not on the 12x12 board (squares 1-72, \
             GameType 27): no GameType tag names the board"
        )),
        "{err}"
    );
    assert!(err.contains("converted 2 games, 1 failed"), "{err}");
    let text = stdout(&out);
    assert!(text.contains("[Event \"one\"]") && text.contains("[Event \"three\"]"));
    assert!(!text.contains("[Event \"two\"]"));
}

#[test]
fn strict_stops_at_the_first_error() {
    let out = convert(
        "draughts-num",
        "draughts-num",
        // The board named: an inferred one is a warning, which --strict
        // would stop at.
        &["--strict", "--variant", "international"],
        BAD_MIDDLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("-:7:22: error: game 2"), "{err}");
    assert!(err.contains("--strict"), "{err}");
}

#[test]
fn rejects_keep_failed_games_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.pdn");
    let out = convert(
        "draughts-num",
        "draughts-num",
        &["--rejects", rejects.to_str().unwrap()],
        BAD_MIDDLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let kept = fs::read_to_string(&rejects).unwrap();
    assert!(kept.contains("[Event \"two\"]") && kept.contains("28-99"));
    assert!(!kept.contains("[Event \"one\"]"));
}

#[test]
fn syntax_errors_say_what_was_expected_and_where() {
    let out = convert(
        "draughts-num",
        "draughts-num",
        &[],
        b"[Event \"x\"]\n\n1. 32-28 19-23 2. 28/19 14x23 *\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("-:3:19: error: game 1: expected a move, a move number, a move glyph, a NAG, a comment, a variation or a result, found `28/19`"),
        "{err}"
    );
}

#[test]
fn directories_are_mirrored_into_out_dir() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("archive");
    fs::create_dir_all(input.join("2024/round1")).unwrap();
    fs::write(input.join("a.pdn"), GOOD).unwrap();
    fs::write(input.join("2024/round1/b.pdn"), GOOD).unwrap();
    fs::write(input.join("2024/notes.txt"), "not a game").unwrap();
    let out_dir = dir.path().join("out");
    let out = kifu(
        &[
            "convert",
            "--from",
            "draughts-num",
            "--to",
            "draughts-diag",
            input.to_str().unwrap(),
            "--out-dir",
            out_dir.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let a = fs::read_to_string(out_dir.join("a.diag.pdn")).unwrap();
    let b = fs::read_to_string(out_dir.join("2024/round1/b.diag.pdn")).unwrap();
    assert_eq!(a, b);
    assert!(a.contains("1. e45 e76"));
    assert!(!out_dir.join("2024/notes.diag.pdn").exists());
    assert!(stderr(&out).contains("converted 2 games, 0 failed"));

    // And back, guessing the format from the `.diag.pdn` ending.
    let back = dir.path().join("back");
    let out = kifu(
        &[
            "convert",
            "--to",
            "draughts-num",
            out_dir.to_str().unwrap(),
            "--out-dir",
            back.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // The board inferred from the moves is named in what kifu writes.
    let named = GOOD.replace("\n\n1.", "\n[GameType \"20\"]\n\n1.");
    assert_eq!(fs::read_to_string(back.join("a.pdn")).unwrap(), named);
}

#[test]
fn output_file_and_json_array() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.pdn");
    fs::write(&file, format!("{GOOD}\n{GOOD}")).unwrap();
    let json = dir.path().join("all.json");
    let out = kifu(
        &[
            "convert",
            "--to",
            "json",
            file.to_str().unwrap(),
            "-o",
            json.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    assert_eq!(value.as_array().map(Vec::len), Some(2));
    assert_eq!(value[0]["variant"]["family"], "draughts");
    assert_eq!(
        value[0]["moves"]["plies"][2]["move"]["draughts"]["path"],
        serde_json::json!([28, 19])
    );
}

#[test]
fn the_input_format_must_be_known() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.txt");
    fs::write(&file, GOOD).unwrap();
    let out = kifu(
        &["convert", "--to", "draughts-diag", file.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot tell the format of"),
        "{}",
        stderr(&out)
    );
    let out = kifu(&["convert", "--to", "draughts-diag"], GOOD.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs --from"));
    let out = kifu(&["convert", "--from", "klingon", "--to", "json", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown format `klingon`"));
}

#[test]
fn an_input_is_never_overwritten_by_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.pdn");
    fs::write(&file, GOOD).unwrap();
    let out = kifu(
        &[
            "convert",
            "--to",
            "draughts-num",
            file.to_str().unwrap(),
            "--out-dir",
            dir.path().to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_to_string(&file).unwrap(), GOOD);
}

#[test]
fn formats_lists_every_format() {
    let out = kifu(&["formats"], b"");
    assert!(out.status.success());
    let text = stdout(&out);
    for (name, ext) in [
        ("draughts-num", ".pdn"),
        ("draughts-diag", ".diag.pdn"),
        ("json", ".json"),
        ("jsonl", ".jsonl"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing"));
        assert!(line.contains(ext) && line.contains("rw"), "{line}");
    }
}

#[test]
fn variant_names_the_board() {
    let english = "1. 11-15 23-19 2. 8-11 22-17 *\n";
    let out = convert(
        "draughts-num",
        "draughts-diag",
        &["--variant", "english"],
        english.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // English: Black starts; 11-15 is d6-d5; the board is named in the output.
    assert_eq!(
        stdout(&out),
        "[GameType \"21\"]\n\n1. d65 e45 2. d76 dc3 *\n"
    );
    let out = convert(
        "draughts-num",
        "draughts-num",
        &["--variant", "klingon"],
        english.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("known variants: international, english"));
}

#[test]
fn latin1_is_read_and_written_as_utf8_with_a_warning() {
    let mut bytes = b"[Event \"40\xb0 Campionato\"]\n\n1. 32-28 *\n".to_vec();
    bytes.extend_from_slice(b"\n[Event \"caf\xe9\"]\n\n1. 33-29 *\n");
    let out = convert("draughts-num", "draughts-num", &[], &bytes);
    assert!(out.status.success());
    assert!(stdout(&out).contains("[Event \"40° Campionato\"]"));
    let err = stderr(&out);
    assert!(
        err.contains(
            "-:1:1: warning[latin-1]: game 1: not UTF-8: read as Latin-1 (1 more like this)"
        ),
        "{err}"
    );
    assert!(err.contains("(1 more like this)"), "{err}");
}

/// A table of the csv tables named as an input is told to name its folder
/// (kifu reads the csv tables as a folder), not that kifu cannot read csv.
#[test]
fn a_csv_table_named_alone_is_told_to_name_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("t");
    let out = kifu(
        &[
            "convert",
            "--from",
            "draughts-num",
            "--to",
            "csv",
            "--out-dir",
            tables.to_str().unwrap(),
        ],
        GOOD.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let games = tables.join("games.csv");
    let out = kifu(
        &["convert", games.to_str().unwrap(), "--to", "draughts-num"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("is one table of kifu's csv tables, which kifu reads as a folder")
            && err.contains(&format!("kifu convert {} --from csv", tables.display())),
        "{err}"
    );
    // As told, it converts.
    let out = kifu(
        &[
            "convert",
            tables.to_str().unwrap(),
            "--from",
            "csv",
            "--to",
            "draughts-num",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("32-28"), "{}", stdout(&out));
}

/// `kifu schema --xsd` prints the XML Schema the xml format names
/// (`kifu formats` says its documents are valid against it): the one kifu
/// makes from the registry (tests/it/registry.rs checks that
/// schema/kifu.xsd is that schema; compared here with the library's, not
/// the file, which a run with `KIFU_BLESS` may be writing meanwhile).
#[test]
fn kifu_schema_xsd_prints_the_schema_of_the_xml_format() {
    let out = kifu(&["schema", "--xsd"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), kifu::interchange::xml::xsd());
    let formats = stdout(&kifu(&["formats"], b""));
    assert!(formats.contains("kifu schema --xsd"), "{formats}");
    let out = kifu(&["schema", "--xsd", "--sql", "postgres"], b"");
    assert_eq!(out.status.code(), Some(2));
}
