//! The `parquet` tables without DuckDB or pyarrow: the three files are
//! written under `--out-dir`, are Parquet (magic bytes at both ends, a
//! footer the parquet crate reads), hold the csv tables' columns and as
//! many rows, and a game that fails leaves the others written. Reading
//! them with DuckDB, pandas and pyarrow is in `tests/conformance/parquet.rs`.

use std::fs;
use std::path::Path;

use ::parquet::file::reader::{FileReader, SerializedFileReader};
use ::parquet::record::Field;

use crate::common::csv::{csv_rows, GAMES};
use crate::common::*;

const TABLES: [&str; 3] = ["games", "tags", "moves"];

/// A Parquet file's reader, once its magic bytes are checked.
fn open(path: &Path) -> SerializedFileReader<fs::File> {
    let bytes = fs::read(path).unwrap();
    assert!(
        bytes.len() > 8 && bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"),
        "{} is not a Parquet file",
        path.display()
    );
    SerializedFileReader::new(fs::File::open(path).unwrap()).unwrap()
}

/// The column names of a Parquet file.
fn columns(reader: &SerializedFileReader<fs::File>) -> Vec<String> {
    let schema = reader.metadata().file_metadata().schema_descr();
    schema
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect()
}

/// Converts `input` (of `from`, on standard input) to the csv and the
/// parquet tables; their folders.
fn both(tmp: &Path, from: &str, input: &[u8]) -> (std::path::PathBuf, std::path::PathBuf) {
    let (c, p) = (tmp.join("c"), tmp.join("p"));
    for (to, dir) in [("csv", &c), ("parquet", &p)] {
        let out = convert(from, to, &["--out-dir", dir.to_str().unwrap(), "-"], input);
        no_panic(&out);
        assert_ne!(out.status.code(), Some(2), "{to}: {}", stderr(&out));
    }
    (c, p)
}

#[test]
fn the_tables_are_parquet_with_the_csv_tables_columns_and_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, p) = both(tmp.path(), "pgn", GAMES.as_bytes());
    for table in TABLES {
        let csv = csv_rows(&fs::read_to_string(c.join(format!("{table}.csv"))).unwrap());
        let reader = open(&p.join(format!("{table}.parquet")));
        assert_eq!(columns(&reader), csv[0], "{table}");
        let rows = reader.metadata().file_metadata().num_rows();
        assert_eq!(rows as usize, csv.len() - 1, "{table}");
        assert!(rows > 0, "{table}");
    }
    // The values are the csv tables', typed: the games rows' ids, sources,
    // numbers and plies.
    let csv = csv_rows(&fs::read_to_string(c.join("games.csv")).unwrap());
    let reader = open(&p.join("games.parquet"));
    let rows: Vec<_> = reader
        .get_row_iter(None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (row, want) in rows.iter().zip(&csv[1..]) {
        let fields: Vec<&Field> = row.get_column_iter().map(|(_, f)| f).collect();
        assert_eq!(fields[0], &Field::Str(want[0].clone()));
        assert_eq!(fields[1], &Field::Str("-".to_string()));
        assert_eq!(fields[2], &Field::Long(want[2].parse().unwrap()));
        assert_eq!(fields[12], &Field::Long(want[12].parse().unwrap()));
    }
    assert_eq!(rows.len(), 3);
    // NULL where the csv field is empty: the Site tag is empty (`""`), the
    // first game has no setup.
    let first: Vec<&Field> = rows[0].get_column_iter().map(|(_, f)| f).collect();
    assert_eq!(first[6], &Field::Str(String::new()));
    assert_eq!(first[14], &Field::Null);
}

#[test]
fn a_game_that_fails_leaves_the_others_written() {
    let bad = "[Event \"Bad\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let input = format!("{bad}{GAMES}");
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("p");
    let out = convert(
        "pgn",
        "parquet",
        &["--out-dir", p.to_str().unwrap(), "-"],
        input.as_bytes(),
    );
    no_panic(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(counts(&out), (3, 1), "{}", stderr(&out));
    let games = open(&p.join("games.parquet"));
    assert_eq!(games.metadata().file_metadata().num_rows(), 3);
    let moves = open(&p.join("moves.parquet"));
    // Six plies and two of a variation, then one ply of each other game.
    assert_eq!(moves.metadata().file_metadata().num_rows(), 10);
}

#[test]
fn the_tables_need_a_folder_and_are_never_written_over_an_input() {
    let out = convert("pgn", "parquet", &[], GAMES.as_bytes());
    no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--out-dir"), "{}", stderr(&out));
    // An input named as one of the tables is refused, and left as it was.
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("moves.parquet");
    fs::write(&input, GAMES).unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = kifu(
        &[
            "convert",
            "--from",
            "pgn",
            "--to",
            "parquet",
            "--out-dir",
            dir,
            input.to_str().unwrap(),
        ],
        b"",
    );
    no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&input).unwrap(), GAMES);
    assert!(!tmp.path().join("games.parquet").exists());
}

/// A NUL character, which database text cannot hold, fails its game in
/// the parquet tables as in the csv ones, with a message that names the
/// table and column and fits both (it said "cannot be written as csv").
#[test]
fn a_nul_character_fails_its_game_with_the_table_and_column() {
    let game = r#"{"variant":{"family":"chess"},"tags":[{"name":"Event","value":"a\u0000b"}],"moves":{"plies":[]},"result":"*"}"#;
    let input = format!("{game}\n{}\n", game.replace("a\\u0000b", "ab"));
    for to in ["parquet", "csv"] {
        let dir = tempfile::tempdir().unwrap();
        let out = convert(
            "jsonl",
            to,
            &["--out-dir", dir.path().to_str().unwrap()],
            input.as_bytes(),
        );
        let err = stderr(&out);
        assert_eq!(counts(&out), (1, 1), "{to}: {err}");
        assert!(
            err.contains(
                "error[csv-cannot-hold]: game 1: cannot be written in the database tables \
                 (csv, parquet): the games table's `event` holds a NUL character (U+0000)"
            ),
            "{to}: {err}"
        );
    }
}

/// The games and tags tables' text columns carry their least and greatest
/// value and their NULLs as statistics (by which a query prunes row
/// groups), those of the values read back; their JSON columns and the
/// moves table's text carry no least nor greatest value.
#[test]
fn the_games_and_tags_text_has_the_statistics_of_its_values() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, p) = both(tmp.path(), "pgn", GAMES.as_bytes());
    let json = ["variant", "setup", "preamble", "comments_end", "ir"];
    for table in TABLES {
        let reader = open(&p.join(format!("{table}.parquet")));
        let rows: Vec<_> = reader
            .get_row_iter(None)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let names = columns(&reader);
        let meta = reader.metadata();
        assert_eq!(meta.num_row_groups(), 1, "{table}");
        let mut checked = 0;
        for (c, chunk) in meta.row_group(0).columns().iter().enumerate() {
            let values: Vec<Option<&[u8]>> = rows
                .iter()
                .filter_map(|r| match r.get_column_iter().nth(c).unwrap().1 {
                    Field::Str(s) => Some(Some(s.as_bytes())),
                    Field::Null => Some(None),
                    _ => None,
                })
                .collect();
            if values.len() != rows.len() {
                continue; // not text
            }
            let stats = chunk.statistics();
            let min_max = stats.and_then(|s| s.min_bytes_opt().zip(s.max_bytes_opt()));
            if table == "moves" || json.contains(&names[c].as_str()) {
                assert_eq!(min_max, None, "{table}.{}", names[c]);
                continue;
            }
            let some: Vec<&[u8]> = values.iter().flatten().copied().collect();
            let want = some.iter().min().copied().zip(some.iter().max().copied());
            assert_eq!(min_max, want, "{table}.{}", names[c]);
            let nulls = (values.len() - some.len()) as u64;
            assert_eq!(
                stats.unwrap().null_count_opt(),
                Some(nulls),
                "{table}.{}",
                names[c]
            );
            checked += 1;
        }
        assert!(checked > 0 || table == "moves", "{table}");
    }
}

/// The moves table's move fields (`move` to `promotion`), whose texts the
/// typed rows hand over a column whole, are the csv table's in every
/// family and from every kind of source: a family's canonical notation
/// (the fields' texts placed as they are) and another (each `move` put in
/// place of the family's spelling: the texts not placed, each value
/// copied), with captures, promotions and variations.
#[test]
fn the_move_fields_are_the_csv_ones_in_every_family_and_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let sources = [
        ("pgn", "chess/openings.pgn"),
        ("sllavcco", "chess/petrosjan-sllavcco.sllavcco"),
        ("draughts-num", "draughts/annotations.pdn"),
        ("draughts-diag", "draughts/english.diag.pdn"),
        ("coerceo", "coerceo/constructs.coerceo"),
        ("tafl", "tafl/constructs.tafl"),
        ("otn", "tafl/berserk.otg"),
        ("tenjiku", "tenjiku/constructs.tenjiku"),
    ];
    let mut captures = 0;
    for (from, file) in sources {
        let tmp = tempfile::tempdir().unwrap();
        let (c, p) = both(tmp.path(), from, &fs::read(root.join(file)).unwrap());
        let csv = csv_rows(&fs::read_to_string(c.join("moves.csv")).unwrap());
        let reader = open(&p.join("moves.parquet"));
        let first = csv[0].iter().position(|c| c == "move").unwrap();
        let rows: Vec<_> = reader
            .get_row_iter(None)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(rows.len(), csv.len() - 1, "{file}");
        assert!(!rows.is_empty(), "{file}: no rows");
        for (row, want) in rows.iter().zip(&csv[1..]) {
            let fields: Vec<&Field> = row.get_column_iter().map(|(_, f)| f).collect();
            for column in first..first + 7 {
                let got = match fields[column] {
                    Field::Str(s) => s.clone(),
                    Field::Null => String::new(),
                    other => panic!("{file}: {other:?} in column {column}"),
                };
                assert_eq!(got, want[column], "{file}: column {column} of {want:?}");
            }
            captures += usize::from(!want[first + 4].is_empty());
        }
    }
    assert!(captures > 0, "no captures");
}
