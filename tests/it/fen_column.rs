//! `--to-opt fen=true` on the `csv` and `parquet` tables: the moves table's
//! `fen` column, the position after each ply in its family's position text,
//! for every family (a known position after a known move), in variations,
//! NULL where no position is known, the same in parquet, and the tables
//! read back with it. Without the option the tables are as they were.

use std::fs;
use std::path::{Path, PathBuf};

use ::parquet::file::reader::{FileReader, SerializedFileReader};
use ::parquet::record::Field;

use crate::common::csv::csv_rows;
use crate::common::*;

/// A file of the project's corpus.
fn corpus(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(path)
}

/// Writes `input` (a file, or `-` for `stdin`) as the `to` tables with
/// `extra` options into `dir`; the moves table's rows (header first) for
/// csv.
fn tables(dir: &Path, from: &str, to: &str, extra: &[&str], input: &str, stdin: &[u8]) {
    let mut args = vec!["convert", "--from", from, "--to", to];
    args.extend_from_slice(extra);
    args.extend(["--out-dir", dir.to_str().unwrap(), input]);
    let out = kifu(&args, stdin);
    no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// The moves rows of the csv tables in `dir`, as (column name, value)
/// maps in row order.
fn moves(dir: &Path) -> Vec<Vec<(String, String)>> {
    let rows = csv_rows(&fs::read_to_string(dir.join("moves.csv")).unwrap());
    let header = rows[0].clone();
    rows[1..]
        .iter()
        .map(|r| header.iter().cloned().zip(r.iter().cloned()).collect())
        .collect()
}

fn get<'r>(row: &'r [(String, String)], name: &str) -> &'r str {
    &row.iter().find(|(n, _)| n == name).unwrap().1
}

/// The fen of the first moves row of a corpus file, with `fen=true`.
fn first_fen(from: &str, file: &str) -> (String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(file);
    tables(
        tmp.path(),
        from,
        "csv",
        &["--to-opt", "fen=true"],
        input.to_str().unwrap(),
        b"",
    );
    let rows = moves(tmp.path());
    (
        get(&rows[0], "move").to_string(),
        get(&rows[0], "fen").to_string(),
    )
}

#[test]
fn each_family_writes_the_position_after_a_known_move_in_its_own_text() {
    let cases = [
        (
            "draughts-num",
            "draughts/english.pdn",
            "11-15",
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
        ),
        (
            "tafl",
            "tafl/brandubh.tafl",
            "D2-E2",
            "/3t3/4t2/3T3/ttTKTtt/3T3/3t3/3t3/",
        ),
        (
            "coerceo",
            "coerceo/european-championship-2012.coerceo",
            "3c-3e",
            "6/1b3b/w3w1/1b1b2/2w1w1/3b1b/w3w1/1b3b/2w2b/w1w3/w2b2/1b1b2/1b2w1/2w1w1/2w2b/3b1b/w2b2/w3w1/1b2w1 b 0:0",
        ),
        (
            "tenjiku",
            "tenjiku/constructs.pbem.tenjiku",
            "P-9k",
            "l,n,fl,i,c,s,g,de,k,g,s,c,i,fl,n,l/rc,1,chs,chs,1,bt,ph,fk,ln,ky,bt,1,chs,chs,1,rc/\
             sso,vso,b,dh,dk,wbf,fid,feg,lhk,fid,wbf,dk,dh,b,vso,sso/\
             sm,vm,r,hf,se,bgn,rgn,vgn,ggn,rgn,bgn,se,hf,r,vm,sm/p,p,p,p,p,p,p,p,p,p,p,p,p,p,p,p/\
             4,dg,6,dg,4/16/16/16/16/4,Dg,2,P,3,Dg,4/P,P,P,P,P,P,P,1,P,P,P,P,P,P,P,P/\
             SM,VM,R,HF,SE,BGn,RGn,GGn,VGn,RGn,BGn,SE,HF,R,VM,SM/\
             SSo,VSo,B,DH,DK,WBf,FiD,LHk,FEg,FiD,WBf,DK,DH,B,VSo,SSo/\
             RC,1,ChS,ChS,1,BT,Ky,Ln,FK,Ph,BT,1,ChS,ChS,1,RC/L,N,FL,I,C,S,G,K,DE,G,S,C,I,FL,N,L w",
        ),
    ];
    for (from, file, mv, fen) in cases {
        assert_eq!(
            first_fen(from, file),
            (mv.to_string(), fen.to_string()),
            "{file}"
        );
    }
}

#[test]
fn chess_positions_follow_the_main_line_and_each_variation_from_its_ply() {
    let tmp = tempfile::tempdir().unwrap();
    let game = "[Event \"e\"]\n\n1. e4 (1. d4 d5) 1... e5 2. Nf3 *\n";
    tables(
        tmp.path(),
        "pgn",
        "csv",
        &["--to-opt", "fen=true"],
        "-",
        game.as_bytes(),
    );
    let rows = moves(tmp.path());
    let seen: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (get(r, "move"), get(r, "fen")))
        .collect();
    assert_eq!(
        seen,
        [
            (
                "e4",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
            ),
            (
                "d4",
                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
            ),
            (
                "d5",
                "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2"
            ),
            (
                "e5",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
            ),
            (
                "Nf3",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
            ),
        ]
    );
}

#[test]
fn no_position_is_null_and_without_the_option_there_is_no_column() {
    let tmp = tempfile::tempdir().unwrap();
    // Moves not replayed (`--no-validate`), and a variation without plies.
    let game = "[Event \"e\"]\n\n1. e4 ( ) e5 *\n";
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    tables(
        &a,
        "pgn",
        "csv",
        &["--to-opt", "fen=true", "--no-validate"],
        "-",
        game.as_bytes(),
    );
    for row in moves(&a) {
        assert_eq!(get(&row, "fen"), "", "{row:?}");
    }
    tables(&b, "pgn", "csv", &[], "-", game.as_bytes());
    let text = fs::read_to_string(b.join("moves.csv")).unwrap();
    assert!(text.starts_with("game_id,seq,") && !text.lines().next().unwrap().contains("fen"));
    // The empty variation's row has no position with the option either.
    let c = tmp.path().join("c");
    tables(
        &c,
        "pgn",
        "csv",
        &["--to-opt", "fen=true"],
        "-",
        game.as_bytes(),
    );
    let rows = moves(&c);
    assert_eq!(rows.len(), 3);
    assert_eq!(get(&rows[1], "variation"), "1.1");
    assert_eq!(get(&rows[1], "fen"), "");
    assert!(!get(&rows[2], "fen").is_empty());
}

#[test]
fn every_family_reads_back_with_the_column_and_has_a_position_for_every_move() {
    let files = [
        ("pgn", "chess/petrosjan-sllavcco.pgn"),
        ("draughts-num", "draughts/annotations.pdn"),
        ("draughts-num", "draughts/canadian.pdn"),
        ("coerceo", "coerceo/constructs.coerceo"),
        ("tafl", "tafl/constructs.tafl"),
        ("tafl", "tafl/berserk.tafl"),
        ("tenjiku", "tenjiku/constructs.pbem.tenjiku"),
    ];
    for (from, file) in files {
        let tmp = tempfile::tempdir().unwrap();
        let (with, without) = (tmp.path().join("with"), tmp.path().join("without"));
        let input = corpus(file);
        let input = input.to_str().unwrap();
        tables(&with, from, "csv", &["--to-opt", "fen=true"], input, b"");
        tables(&without, from, "csv", &[], input, b"");
        // The other columns are the same, the fen column added last.
        let (a, b) = (moves(&with), moves(&without));
        assert_eq!(a.len(), b.len(), "{file}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(&x[..x.len() - 1], &y[..], "{file}");
            assert_eq!(x.last().unwrap().0, "fen");
            // A position for every move of a game replayed.
            assert_eq!(
                get(x, "ir").is_empty(),
                get(x, "fen").is_empty(),
                "{file}: {x:?}"
            );
        }
        for t in ["games.csv", "tags.csv"] {
            assert_eq!(
                fs::read(with.join(t)).unwrap(),
                fs::read(without.join(t)).unwrap()
            );
        }
        // Read back, the tables with the column give the same games.
        let back = |dir: &Path| {
            let out = kifu(
                &[
                    "convert",
                    "--from",
                    "csv",
                    "--to",
                    "jsonl",
                    dir.to_str().unwrap(),
                ],
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
            out.stdout
        };
        assert_eq!(back(&with), back(&without), "{file}");
    }
}

#[test]
fn parquet_has_the_same_fen_column() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, p) = (tmp.path().join("c"), tmp.path().join("p"));
    let input = corpus("draughts/english.pdn");
    let input = input.to_str().unwrap();
    tables(
        &c,
        "draughts-num",
        "csv",
        &["--to-opt", "fen=true"],
        input,
        b"",
    );
    tables(
        &p,
        "draughts-num",
        "parquet",
        &["--to-opt", "fen=true"],
        input,
        b"",
    );
    let reader =
        SerializedFileReader::new(fs::File::open(p.join("moves.parquet")).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr();
    let last = schema.column(schema.num_columns() - 1);
    assert_eq!(last.name(), "fen");
    let fens: Vec<String> = reader
        .get_row_iter(None)
        .unwrap()
        .map(
            |row| match row.unwrap().get_column_iter().last().unwrap().1 {
                Field::Str(s) => s.clone(),
                Field::Null => String::new(),
                other => panic!("fen is {other:?}"),
            },
        )
        .collect();
    let want: Vec<String> = moves(&c)
        .iter()
        .map(|r| get(r, "fen").to_string())
        .collect();
    assert_eq!(fens, want);
    assert!(!fens[0].is_empty());
}

#[test]
fn the_option_is_refused_by_formats_without_it() {
    let out = convert("pgn", "jsonl", &["--to-opt", "fen=true"], b"1. e4 *\n");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("fen"), "{}", stderr(&out));
}

#[test]
fn a_record_streamed_a_run_at_a_time_has_the_positions_of_one_written_whole() {
    // Of many runs (16 KiB each): read and written a run at a time. The
    // knights go out and back, so every fourth position is the same.
    let comment = format!("{{{}}}", "x".repeat(300));
    let mut game = String::from("[Event \"long\"]\n\n");
    for i in 1..=400 {
        game.push_str(&format!(
            "{}. Nf3 {comment} Nf6 {comment} {}. Ng1 {comment} Ng8 {comment} ",
            2 * i - 1,
            2 * i
        ));
    }
    game.push_str("*\n");
    assert!(game.len() > 16 * kifu::container::RUN_BYTES);
    let tmp = tempfile::tempdir().unwrap();
    tables(
        tmp.path(),
        "pgn",
        "csv",
        &["--to-opt", "fen=true"],
        "-",
        game.as_bytes(),
    );
    let rows = moves(tmp.path());
    assert_eq!(rows.len(), 1600);
    let board = |fen: &str| fen.split(' ').next().unwrap().to_string();
    for (k, row) in rows.iter().enumerate() {
        let fen = get(row, "fen");
        assert_eq!(board(fen), board(get(&rows[k % 4], "fen")), "row {}", k + 1);
        // The move number goes on across the runs.
        let number = fen.rsplit(' ').next().unwrap();
        assert_eq!(
            number,
            (k / 2 + 1 + k % 2).to_string(),
            "row {}: {fen}",
            k + 1
        );
    }
}
