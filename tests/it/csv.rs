//! The `csv` tables without a database: their rows and columns, stable
//! keys, damaged rows, the schema, and every family of the project's corpus
//! read back (`--from csv DIR`) to the same games. Loading them into SQLite
//! and PostgreSQL, the recipes of docs/csv.md and the shared corpus are in
//! `tests/conformance/csv.rs`.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::common::csv::{assert_round_trip, csv_rows, tables, GAMES};
use crate::common::*;

#[test]
fn game_ids_are_stable_and_identical_records_get_distinct_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    tables(&a);
    tables(&b);
    for file in ["games.csv", "tags.csv", "moves.csv"] {
        assert_eq!(
            fs::read(a.join(file)).unwrap(),
            fs::read(b.join(file)).unwrap(),
            "{file}"
        );
    }
    let games = fs::read_to_string(a.join("games.csv")).unwrap();
    let ids: Vec<&str> = games
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[2], format!("{}-2", ids[1]), "{games}");
    assert!(ids[0].len() == 16 && ids[0].bytes().all(|b| b.is_ascii_hexdigit()));
    // Every row ends with CRLF, and the header comes first.
    assert!(games.starts_with("game_id,source,game,family,variant,"));
    assert_eq!(games.matches("\r\n").count(), 4, "{games}");
    assert!(!games.replace("\r\n", "").contains('\n'), "{games}");
}

#[test]
fn without_out_dir_the_moves_rows_stream_to_standard_output() {
    let out = convert("pgn", "csv", &[], GAMES.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "game_id,seq,ply,number,side,variation,move,canonical,from_square,to_square,\
             captured,piece,promotion,is_check,is_mate,glyph,nags,comments_before,\
             comments_after,comments_end,ir\r\n"
        ),
        "{text}"
    );
    // The header; six plies and two of a variation, then one ply of each
    // other game.
    assert_eq!(text.lines().count(), 11, "{text}");
    // -o writes the same rows to a file.
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("moves.csv");
    let out = convert(
        "pgn",
        "csv",
        &["-o", file.to_str().unwrap()],
        GAMES.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn tables_are_never_written_over_their_input_and_a_file_is_no_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    tables(&dir);
    let before = fs::read(dir.join("moves.csv")).unwrap();
    let d = dir.to_str().unwrap();
    let out = kifu(
        &["convert", "--from", "csv", "--to", "csv", "--out-dir", d, d],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    assert_eq!(fs::read(dir.join("moves.csv")).unwrap(), before);
    let file = dir.join("games.csv");
    let out = kifu(
        &[
            "convert",
            "--from",
            "csv",
            "--to",
            "pgn",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is not a folder"), "{}", stderr(&out));
}

#[test]
fn a_damaged_row_fails_its_game_alone_with_its_table_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    tables(&dir);
    let moves = fs::read_to_string(dir.join("moves.csv")).unwrap();
    // The third row of moves.csv (line 3): the known game's e5, its side
    // changed to one no game has.
    let damaged = moves.replacen(",black,,e5,", ",purple,,e5,", 1);
    assert_ne!(damaged, moves);
    fs::write(dir.join("moves.csv"), damaged).unwrap();
    let out = kifu(
        &[
            "convert",
            "--from",
            "csv",
            "--to",
            "pgn",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(counts(&out), (2, 1));
    let err = stderr(&out);
    assert!(
        err.contains("error: game 1: moves.csv line 3: `side` is `purple`"),
        "{err}"
    );
    assert_eq!(stdout(&out).matches("1. d4 *").count(), 2);
    // A header that is not kifu's ends the input.
    fs::write(dir.join("tags.csv"), "id,name\r\n").unwrap();
    let out = kifu(
        &[
            "convert",
            "--from",
            "csv",
            "--to",
            "pgn",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("tags.csv:1: the header row is not kifu's"));
}

#[test]
fn the_schema_has_keys_and_types_for_both_dialects() {
    let pg = stdout(&kifu(&["schema", "--sql", "postgres"], b""));
    for want in [
        "CREATE TABLE games (",
        "game_id TEXT NOT NULL",
        "variant JSONB NOT NULL",
        "is_check BOOLEAN",
        "game_id TEXT NOT NULL REFERENCES games (game_id)",
        "PRIMARY KEY (game_id, seq)",
    ] {
        assert!(pg.contains(want), "{want}: {pg}");
    }
    let lite = stdout(&kifu(&["schema"], b""));
    assert!(lite.contains("is_check INTEGER"), "{lite}");
    assert!(lite.contains("CREATE TRIGGER moves_null AFTER INSERT ON moves"));
    let bad = kifu(&["schema", "--sql", "oracle"], b"");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn every_family_of_the_corpus_round_trips_through_the_tables() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    // Each family in its own notation: X -> csv -> X is X -> X.
    for (format, dir) in [
        ("pgn", "chess"),
        ("draughts-num", "draughts"),
        ("draughts-diag", "draughts"),
        ("coerceo", "coerceo"),
        ("tafl", "tafl"),
        ("otn", "tafl"),
        ("tenjiku", "tenjiku"),
    ] {
        let dir = corpus.join(dir);
        let d = dir.to_str().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().join("t");
        let t = t.to_str().unwrap();
        let direct = kifu(&["convert", "-q", "--from", format, "--to", format, d], b"");
        let tables = kifu(
            &[
                "convert",
                "-q",
                "--from",
                format,
                "--to",
                "csv",
                "--out-dir",
                t,
                d,
            ],
            b"",
        );
        assert_eq!(direct.status.code(), tables.status.code(), "{format}");
        let back = kifu(&["convert", "--from", "csv", "--to", format, t], b"");
        assert_eq!(back.status.code(), Some(0), "{format}: {}", stderr(&back));
        assert!(!direct.stdout.is_empty(), "{format}");
        assert!(
            back.stdout == direct.stdout,
            "{format}: X -> csv -> X differs"
        );
    }
    // Every file, JSON included, in the IR.
    assert_round_trip("corpus", &[], &[corpus.to_str().unwrap()], b"");
}

#[test]
fn every_family_fills_its_move_columns() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    // (file, move, [(column, value)]).
    type Case = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
    );
    let cases: [Case; 5] = [
        (
            "chess/petrosjan-sllavcco.pgn",
            "exd4",
            &[
                ("canonical", "e5d4"),
                ("from_square", "e5"),
                ("to_square", "d4"),
                ("captured", "d4"),
                ("piece", "P"),
                ("is_check", "0"),
                ("side", "black"),
            ],
        ),
        (
            "draughts/english.pdn",
            "11-15",
            &[
                ("from_square", "11"),
                ("to_square", "15"),
                ("captured", ""),
                ("piece", ""),
            ],
        ),
        (
            "coerceo/constructs.coerceo",
            "8f-19b TT x19f",
            &[
                ("from_square", "8f"),
                ("to_square", "19b"),
                ("captured", "19f"),
                (
                    "ir",
                    r#"{"coerceo":{"step":{"from":"8f","to":"19b"},"actions":[{"exchange":2},{"capture":"19f"}]}}"#,
                ),
            ],
        ),
        (
            "tafl/brandubh.tafl",
            "D6-A6xA5",
            &[
                ("from_square", "d6"),
                ("to_square", "a6"),
                ("captured", "a5"),
                ("is_mate", "0"),
            ],
        ),
        (
            "tenjiku/constructs.tenjiku",
            "Lnx9f-8e=",
            &[
                ("canonical", "Ln10gx9f-8e="),
                ("from_square", "10g"),
                ("to_square", "8e"),
                ("captured", "9f"),
                ("piece", "Ln"),
                ("promotion", ""),
            ],
        ),
    ];
    for (file, mv, want) in cases {
        let out = kifu(
            &[
                "convert",
                "-q",
                "--to",
                "csv",
                corpus.join(file).to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        let rows = csv_rows(&stdout(&out));
        let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
        let row = rows
            .iter()
            .find(|r| r[col("move")] == mv)
            .unwrap_or_else(|| panic!("{file}: no row of {mv}"));
        for (name, value) in want {
            assert_eq!(row[col(name)], *value, "{file} {mv}: {name}");
        }
    }
}

#[test]
fn the_move_column_holds_the_move_as_its_source_spells_it() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let rows_of = |out: Output| {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        csv_rows(&stdout(&out))
    };
    let tables = |file: &str| {
        let path = corpus.join(file);
        rows_of(kifu(
            &["convert", "-q", "--to", "csv", path.to_str().unwrap()],
            b"",
        ))
    };
    // (rows, [(canonical, variation, move)]): the first row of that
    // canonical move in that variation.
    let check = |what: &str, rows: &[Vec<String>], want: &[(&str, &str, &str)]| {
        let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
        for (canonical, variation, mv) in want {
            let row = rows
                .iter()
                .find(|r| r[col("canonical")] == *canonical && r[col("variation")] == *variation)
                .unwrap_or_else(|| panic!("{what}: no row of {canonical}"));
            assert_eq!(row[col("move")], *mv, "{what}: {canonical}");
        }
    };
    let diag = tables("draughts/annotations.diag.pdn");
    check(
        "draughts-diag",
        &diag,
        &[
            ("32-28", "", "e45"),
            ("28x19", "", "e57x"),
            ("18-23", "2.1", "de6"),
            ("37-32", "2.1/2.1", "e34"),
        ],
    );
    let sheet = tables("chess/petrosjan-sllavcco.sllavcco");
    check(
        "sllavcco",
        &sheet,
        &[
            ("e2e4", "", "4 (e)"),
            ("g1f3", "", "N3 (f)"),
            ("e5d4", "", "4x (d)"),
            ("O-O", "", "R (f) K (g)"),
        ],
    );
    // A sheet written and read with German letters is spelled in them, as
    // its source spells it (it was spelled in English).
    let german = german_sheet();
    let de = rows_of(kifu(
        &[
            "convert", "-q", "--from", "sllavcco", "--pieces", "de", "--to", "csv",
        ],
        &german,
    ));
    check(
        "sllavcco --pieces de",
        &de,
        &[("g1f3", "", "S3 (f)"), ("O-O", "", "T (f) K (g)")],
    );
    // The html viewer's move list keeps the source's spelling the same way.
    let page = kifu(
        &[
            "convert",
            "-q",
            "--from",
            "sllavcco",
            "--from-opt",
            "pieces=de",
            "--to",
            "html",
        ],
        &german,
    );
    assert!(
        stdout(&page).contains("S3 (f)"),
        "the viewer spells in English"
    );
    let pgn = tables("chess/petrosjan-sllavcco.pgn");
    check(
        "pgn",
        &pgn,
        &[("e2e4", "", "e4"), ("e5d4", "", "exd4"), ("O-O", "", "O-O")],
    );
    // The canonical column is the same whatever the source.
    let canonical = |rows: &[Vec<String>]| {
        let c = rows[0].iter().position(|c| c == "canonical").unwrap();
        rows[1..].iter().map(|r| r[c].clone()).collect::<Vec<_>>()
    };
    assert_eq!(canonical(&sheet), canonical(&pgn));
    check(
        "otn",
        &tables("tafl/brandubh.otg"),
        &[
            ("D6-A6xA5", "", "d6-a6xa5"),
            ("B4-B3", "7.1", "b4-b3"),
            ("D4-D3", "", "Kd4-d3"),
        ],
    );
    check(
        "otn berserk",
        &tables("tafl/berserk.otg"),
        &[("E3-E1xE2", "", "Ne3^e1xe2")],
    );
    check(
        "tafl",
        &tables("tafl/brandubh.tafl"),
        &[("D6-A6xA5", "", "D6-A6xA5")],
    );
    // An interchange source: the family's first notation.
    let json = stdout(&kifu(
        &[
            "convert",
            "-q",
            "--to",
            "json",
            corpus
                .join("chess/petrosjan-sllavcco.sllavcco")
                .to_str()
                .unwrap(),
        ],
        b"",
    ));
    let from_json = rows_of(convert("json", "csv", &["-q"], json.as_bytes()));
    check(
        "json",
        &from_json,
        &[("e5d4", "", "exd4"), ("O-O", "", "O-O")],
    );
    check(
        "tenjiku json",
        &tables("tenjiku/constructs.json"),
        &[("Ln10gx!10f", "", "Lnx!10f")],
    );
}
