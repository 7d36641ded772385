//! The `csv` tables: loaded into real databases (SQLite with the `sqlite3`
//! command, PostgreSQL with a server this test starts in a temporary
//! folder) and queried, and read back (`--from csv DIR`) to the same games
//! for every family, on the project's corpus and the shared one.
//!
//! The database tests need `sqlite3`, and PostgreSQL's `initdb`, `pg_ctl`
//! and `psql` (on the PATH or in /usr/lib/postgresql/*/bin); `.ci/run`
//! installs them. They fail when a tool is missing, unless
//! `KIFU_SKIP_DB=1` says to skip them.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

/// Three games: a known one (comments, a variation, a NAG, a glyph, an
/// empty tag, a comma and quotes in a tag), and one game twice, byte for
/// byte.
const GAMES: &str = r#"[Event "Known"]
[Site ""]
[Date "2024.01.01"]
[Round "1"]
[White "Anand, V"]
[Black "Ünïcode \"Q\""]
[Result "1-0"]
[Annotator ""]

{start} 1. e4 {good, "very"} e5 2. Nf3 (2. f4 exf4 {gambit}) 2... Nc6 3. Bb5 $1 a6?! 1-0

[Event "Twice"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

1. d4 *

[Event "Twice"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

1. d4 *
"#;

/// Converts the games above to tables in `dir`.
fn tables(dir: &Path) {
    let out = kifu(
        &["convert", "--from", "pgn", "--to", "csv", "--out-dir"]
            .into_iter()
            .chain([dir.to_str().unwrap(), "-"])
            .collect::<Vec<_>>(),
        GAMES.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(counts(&out), (3, 0));
}

/// Whether the database tests are to be skipped (`KIFU_SKIP_DB=1`).
fn skip_db() -> bool {
    if std::env::var("KIFU_SKIP_DB").is_ok_and(|v| v == "1") {
        eprintln!("skipped: KIFU_SKIP_DB=1");
        return true;
    }
    false
}

/// A program on the PATH, or in one of `also` (the newest first).
fn find_tool(name: &str, also: &[PathBuf]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(also.iter().cloned())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A tool the database tests need: a failure that says how to get it.
fn need_tool(name: &str, also: &[PathBuf], package: &str) -> PathBuf {
    find_tool(name, also).unwrap_or_else(|| {
        panic!(
            "`{name}` is not installed: install {package} (.ci/run does), or set KIFU_SKIP_DB=1 \
             to skip the database tests"
        )
    })
}

fn checked(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn sqlite_loads_the_tables_and_answers_queries() {
    if skip_db() {
        return;
    }
    let sqlite = need_tool("sqlite3", &[], "sqlite3");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    tables(&dir);
    let db = tmp.path().join("games.db");
    let schema = checked(kifu(&["schema", "--sql", "sqlite"], b""), "kifu schema");
    let sql = |args: &[&str], stdin: &str| {
        let mut all = vec![db.to_str().unwrap()];
        all.extend_from_slice(args);
        checked(
            run(sqlite.to_str().unwrap(), &all, stdin.as_bytes()),
            &format!("sqlite3 {args:?}"),
        )
    };
    sql(&[], &schema);
    for table in ["games", "tags", "moves"] {
        let file = dir.join(format!("{table}.csv"));
        let import = format!(".import --csv --skip 1 {} {table}", file.display());
        sql(&[&import], "");
    }
    let q = |query: &str| sql(&[query], "").trim_end().to_string();
    assert_eq!(q("SELECT count(*) FROM games"), "3");
    assert_eq!(q("SELECT count(DISTINCT game_id) FROM games"), "3");
    // Plies per game, as the games table says and as the moves rows count.
    assert_eq!(
        q(
            "SELECT game, plies, (SELECT count(*) FROM moves m WHERE m.game_id = g.game_id \
           AND m.variation IS NULL) FROM games g ORDER BY game"
        ),
        "1|6|6\n2|1|1\n3|1|1"
    );
    // The known game's moves in order, its variation, and their fields.
    let known = "(SELECT game_id FROM games WHERE event = 'Known')";
    assert_eq!(
        q(&format!(
            "SELECT group_concat(move, ' ') FROM (SELECT move FROM moves WHERE game_id = {known} \
             AND variation IS NULL ORDER BY seq)"
        )),
        "e4 e5 Nf3 Nc6 Bb5 a6"
    );
    assert_eq!(
        q(&format!(
            "SELECT group_concat(move || ':' || canonical, ' ') FROM (SELECT * FROM moves \
             WHERE game_id = {known} AND variation = '3.1' ORDER BY seq)"
        )),
        "f4:f2f4 exf4:e5f4"
    );
    assert_eq!(
        q(
            "SELECT from_square, to_square, captured, piece, is_check FROM moves \
           WHERE move = 'exf4'"
        ),
        "e5|f4|f4|P|0"
    );
    assert_eq!(
        q("SELECT json_extract(comments_after, '$[0].text') FROM moves WHERE move = 'e4'"),
        "good, \"very\""
    );
    assert_eq!(q("SELECT glyph, nags FROM moves WHERE move = 'a6'"), "?!|");
    assert_eq!(q("SELECT nags FROM moves WHERE move = 'Bb5'"), "1");
    assert_eq!(
        q("SELECT black FROM games WHERE event = 'Known'"),
        "Ünïcode \"Q\""
    );
    // NULL against the empty string: an empty tag value is '', a missing
    // glyph and a missing setup are NULL.
    assert_eq!(
        q("SELECT quote(value) FROM tags WHERE name = 'Annotator'"),
        "''"
    );
    assert_eq!(
        q("SELECT count(*) FROM moves WHERE glyph IS NULL"),
        q("SELECT count(*) - 1 FROM moves")
    );
    assert_eq!(q("SELECT count(*) FROM games WHERE setup IS NULL"), "3");
    assert_eq!(q("SELECT count(*) FROM moves WHERE glyph = ''"), "0");
}

/// A PostgreSQL server in a temporary folder, for one test: run by the
/// user running the tests, or by `nobody` when that is root (which initdb
/// refuses); reached through a Unix socket in its folder alone. Stopped
/// when dropped.
struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    psql: PathBuf,
}

impl Postgres {
    fn start() -> Postgres {
        let mut also: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
            .map(|d| d.flatten().map(|e| e.path().join("bin")).collect())
            .unwrap_or_default();
        also.sort();
        also.reverse();
        let initdb = need_tool("initdb", &also, "postgresql");
        let bin = initdb.parent().unwrap().to_path_buf();
        need_tool("pg_ctl", std::slice::from_ref(&bin), "postgresql");
        let psql = need_tool("psql", std::slice::from_ref(&bin), "postgresql");
        let dir = tempfile::tempdir().unwrap();
        let pg = Postgres { dir, bin, psql };
        if Postgres::is_root() {
            let owner = Command::new("chown")
                .args(["nobody"])
                .arg(pg.dir.path())
                .output()
                .expect("chown runs");
            checked(owner, "chown nobody");
        }
        let data = pg.dir.path().join("data");
        let data = data.to_str().unwrap();
        pg.server(&[
            "initdb",
            "-D",
            data,
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        ]);
        let options = format!(
            "-c listen_addresses='' -c unix_socket_directories='{}' -c fsync=off",
            pg.dir.path().display()
        );
        let log = pg.dir.path().join("log");
        pg.server(&[
            "pg_ctl",
            "-D",
            data,
            "-l",
            log.to_str().unwrap(),
            "-w",
            "-o",
            &options,
            "start",
        ]);
        pg
    }

    fn is_root() -> bool {
        checked(
            Command::new("id").arg("-u").output().expect("id runs"),
            "id",
        )
        .trim()
            == "0"
    }

    /// Runs a server program, as `nobody` when the tests run as root.
    fn server(&self, args: &[&str]) -> String {
        let program = self.bin.join(args[0]);
        let mut cmd = if Postgres::is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "nobody", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        cmd.args(&args[1..]).current_dir(self.dir.path());
        checked(cmd.output().expect("the server program runs"), args[0])
    }

    /// Runs SQL (or a psql command) and gives its rows, unaligned.
    fn sql(&self, command: &str) -> String {
        let out = Command::new(&self.psql)
            .args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-U",
                "postgres",
            ])
            .args(["-d", "postgres", "-h"])
            .arg(self.dir.path())
            .args(["-c", command])
            .output()
            .expect("psql runs");
        checked(out, command).trim_end().to_string()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.server(&[
                "pg_ctl",
                "-D",
                data.to_str().unwrap(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ])
        }));
    }
}

#[test]
fn postgresql_loads_the_tables_with_copy_and_answers_queries() {
    if skip_db() {
        return;
    }
    let pg = Postgres::start();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    tables(&dir);
    let schema = checked(kifu(&["schema", "--sql", "postgres"], b""), "kifu schema");
    pg.sql(&schema);
    for table in ["games", "tags", "moves"] {
        let file = dir.join(format!("{table}.csv"));
        pg.sql(&format!(
            "\\copy {table} FROM '{}' (FORMAT csv, HEADER)",
            file.display()
        ));
    }
    assert_eq!(pg.sql("SELECT count(*) FROM games"), "3");
    assert_eq!(
        pg.sql(
            "SELECT game, plies, (SELECT count(*) FROM moves m WHERE m.game_id = g.game_id \
             AND m.variation IS NULL) FROM games g ORDER BY game"
        ),
        "1|6|6\n2|1|1\n3|1|1"
    );
    let known = "(SELECT game_id FROM games WHERE event = 'Known')";
    assert_eq!(
        pg.sql(&format!(
            "SELECT string_agg(move, ' ' ORDER BY seq) FROM moves WHERE game_id = {known} \
             AND variation IS NULL"
        )),
        "e4 e5 Nf3 Nc6 Bb5 a6"
    );
    assert_eq!(
        pg.sql(&format!(
            "SELECT string_agg(move, ' ' ORDER BY seq) FROM moves WHERE game_id = {known} \
             AND variation = '3.1'"
        )),
        "f4 exf4"
    );
    assert_eq!(
        pg.sql("SELECT comments_after->0->>'text', is_check FROM moves WHERE move = 'e4'"),
        "good, \"very\"|f"
    );
    assert_eq!(
        pg.sql("SELECT variant->>'family', black FROM games WHERE event = 'Known'"),
        "chess|Ünïcode \"Q\""
    );
    // NULL against the empty string, as COPY reads them: `""` is the empty
    // string (the empty Site tag, in its roster column too), an empty
    // field NULL.
    assert_eq!(
        pg.sql("SELECT site = '', site IS NULL FROM games WHERE event = 'Known'"),
        "t|f"
    );
    assert_eq!(
        pg.sql("SELECT value = '' FROM tags WHERE name = 'Annotator'"),
        "t"
    );
    assert_eq!(
        pg.sql("SELECT count(*) FROM moves WHERE glyph IS NULL"),
        pg.sql("SELECT count(*) - 1 FROM moves")
    );
    assert_eq!(
        pg.sql("SELECT count(*) FROM games WHERE setup IS NULL"),
        "3"
    );
}

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

/// X -> csv -> jsonl gives what X -> jsonl gives (the same games, every
/// field of the IR), and as many games and failures.
fn assert_round_trip(label: &str, from: &[&str], inputs: &[&str], stdin: &[u8]) {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("t");
    let run_with = |to: &[&str]| {
        let mut args = vec!["convert", "-q"];
        args.extend_from_slice(from);
        args.extend_from_slice(to);
        args.extend_from_slice(inputs);
        let out = kifu(&args, stdin);
        no_panic(&out);
        out
    };
    let direct = run_with(&["--to", "jsonl"]);
    let tables = run_with(&["--to", "csv", "--out-dir", t.to_str().unwrap()]);
    assert_eq!(direct.status.code(), tables.status.code(), "{label}");
    let back = kifu(
        &[
            "convert",
            "--from",
            "csv",
            "--to",
            "jsonl",
            t.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(back.status.code(), Some(0), "{label}: {}", stderr(&back));
    assert!(!direct.stdout.is_empty(), "{label}: no games");
    assert!(
        back.stdout == direct.stdout,
        "{label}: X -> csv -> X is not X -> X"
    );
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
fn the_shared_corpus_round_trips_through_the_tables() {
    // Every chess file, the large archives included.
    if let Some(dir) = shared("chess") {
        assert_round_trip("chess", &["--from", "pgn"], &[dir.to_str().unwrap()], b"");
    }
    for family in ["draughts", "tafl"] {
        if let Some(dir) = shared(family) {
            assert_round_trip(family, &[], &[dir.to_str().unwrap()], b"");
        }
    }
    // The tenjiku savegames have no ending: read as one stream of games.
    if let Some(dir) = shared("shogi") {
        let mut data = Vec::new();
        for path in files(&dir.join("firedemon-tenjiku/savegames"), "") {
            data.extend(fs::read(&path).unwrap());
            data.extend(b"\n*\n");
        }
        assert_round_trip("tenjiku", &["--from", "tenjiku"], &["-"], &data);
    }
}

/// The rows of a CSV text, quote-aware (for checking columns).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => row.push(std::mem::take(&mut field)),
            '\r' if !quoted => {}
            '\n' if !quoted => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            c => field.push(c),
        }
    }
    rows
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
            "14d-14b x14a",
            &[
                ("from_square", "14d"),
                ("to_square", "14b"),
                ("captured", "14a"),
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
