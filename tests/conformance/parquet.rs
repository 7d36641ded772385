//! The `parquet` tables read by DuckDB, pandas and pyarrow (Python
//! packages; `.ci/run` installs them): the same rows, value for value, as
//! the csv tables of the same run, the same answers to a few joins, typed
//! columns, a dictionary-encoded `move` column and Zstandard; for the
//! project's corpus and, when it is there, the shared corpus (the tables
//! without those readers: `tests/it/parquet.rs`).
//!
//! The test fails when python3 cannot import duckdb, pandas and pyarrow,
//! unless `KIFU_SKIP_DB=1` says to skip the database tests.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// The script that reads the tables.
const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/conformance/parquet_check.py"
);

/// Converts `inputs` to the csv and the parquet tables under `tmp`, then
/// reads both with the script: its report.
fn tables_read(tmp: &Path, inputs: &[&str]) -> Value {
    let (c, p) = (tmp.join("csv"), tmp.join("parquet"));
    for (to, dir) in [("csv", &c), ("parquet", &p)] {
        let mut args = vec!["convert", "--to", to, "--out-dir", dir.to_str().unwrap()];
        args.extend(inputs);
        let out = kifu(&args, b"");
        no_panic(&out);
        assert_ne!(out.status.code(), Some(2), "{to}: {}", stderr(&out));
        assert!(counts(&out).0 > 0, "{to}: {}", stderr(&out));
    }
    let out = run(
        "python3",
        &[SCRIPT, c.to_str().unwrap(), p.to_str().unwrap()],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("the script's JSON")
}

/// Whether python3 has the readers; a failure that says how to get them,
/// or `false` (skip) with `KIFU_SKIP_DB=1`.
fn readers() -> bool {
    if std::env::var("KIFU_SKIP_DB").is_ok_and(|v| v == "1") {
        eprintln!("skipped: KIFU_SKIP_DB=1");
        return false;
    }
    let out = run("python3", &["-c", "import duckdb, pandas, pyarrow"], b"");
    assert!(
        out.status.success(),
        "python3 cannot import duckdb, pandas and pyarrow: `python3 -m pip install duckdb \
         pyarrow pandas` (.ci/run does), or set KIFU_SKIP_DB=1 to skip: {}",
        stderr(&out)
    );
    true
}

/// Every reader counts the csv tables' rows, and the two sides hold the
/// same rows and answer the joins alike; the total of moves rows.
fn assert_same(report: &Value, label: &str) -> u64 {
    for table in ["games", "tags", "moves"] {
        let t = &report["tables"][table];
        let csv = t["csv"].as_u64().unwrap();
        assert!(csv > 0, "{label} {table}: no rows");
        for reader in ["duckdb", "pandas", "pyarrow"] {
            assert_eq!(t[reader].as_u64(), Some(csv), "{label} {table}: {reader}");
        }
        assert_eq!(t["only_parquet"], 0, "{label} {table}: rows not in csv");
        assert_eq!(t["only_csv"], 0, "{label} {table}: rows not in parquet");
    }
    let joins = report["joins"].as_object().unwrap();
    assert_eq!(joins.len(), 4);
    for (name, sides) in joins {
        assert!(
            !sides["csv"].as_array().unwrap().is_empty(),
            "{label} {name}"
        );
        assert_eq!(sides["csv"], sides["parquet"], "{label} {name}");
    }
    // Every game's main-line rows are its plies.
    let games = report["tables"]["games"]["csv"].as_u64().unwrap();
    assert_eq!(
        joins["plies_match"]["parquet"][0][0],
        games.to_string(),
        "{label}"
    );
    // Typed columns.
    let types = |t: &str| &report["tables"][t]["types"];
    assert_eq!(types("games")["game"], "BIGINT");
    assert_eq!(types("games")["plies"], "BIGINT");
    assert_eq!(types("tags")["position"], "BIGINT");
    assert_eq!(types("moves")["seq"], "BIGINT");
    assert_eq!(types("moves")["is_check"], "BOOLEAN");
    assert_eq!(types("moves")["move"], "VARCHAR");
    // The move column: a dictionary, Zstandard.
    let mv = &report["move"];
    assert!(
        mv["encodings"]
            .as_array()
            .unwrap()
            .contains(&"RLE_DICTIONARY".into()),
        "{label}: {mv}"
    );
    assert_eq!(mv["compression"], "ZSTD", "{label}");
    report["tables"]["moves"]["csv"].as_u64().unwrap()
}

#[test]
fn duckdb_pandas_and_pyarrow_read_the_parquet_tables_as_the_csv_tables() {
    if !readers() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let report = tables_read(tmp.path(), &[corpus.to_str().unwrap()]);
    assert_same(&report, "corpus");
    // Every family of the corpus is in the moves.
    let families = report["joins"]["moves_per_family"]["parquet"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(families, 5, "{report}");
}

#[test]
fn the_shared_corpus_reads_the_same_from_parquet_in_row_groups() {
    if !readers() {
        return;
    }
    let dirs: Vec<PathBuf> = ["chess", "draughts", "tafl"]
        .into_iter()
        .filter_map(shared)
        .collect();
    if dirs.is_empty() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let inputs: Vec<&str> = dirs.iter().map(|d| d.to_str().unwrap()).collect();
    let report = tables_read(tmp.path(), &inputs);
    let moves = assert_same(&report, "shared corpus");
    // A row group per 100,000 rows at most: memory stays flat.
    let groups = report["move"]["row_groups"].as_u64().unwrap();
    assert!(
        groups >= moves.div_ceil(100_000),
        "{moves} rows in {groups}"
    );
}
