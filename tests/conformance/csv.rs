//! The `csv` tables: loaded into real databases (SQLite with the `sqlite3`
//! command, PostgreSQL with a server this test starts in a temporary
//! folder) and queried, and read back (`--from csv DIR`) to the same games
//! for every family of the shared corpus (the tables without a database:
//! `tests/it/csv.rs`).
//!
//! The database tests need `sqlite3`, and PostgreSQL's `initdb`, `pg_ctl`
//! and `psql` (on the PATH or in /usr/lib/postgresql/*/bin); `.ci/run`
//! installs them. They fail when a tool is missing, unless
//! `KIFU_SKIP_DB=1` says to skip them.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::csv::{assert_round_trip, csv_rows, tables, GAMES};
use common::*;

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
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    tables(&dir);
    let q = sqlite_with(&tmp.path().join("games.db"), &dir);
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
        self.sql_in("postgres", command)
    }

    /// Runs SQL in the database `db`.
    fn sql_in(&self, db: &str, command: &str) -> String {
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
            .args(["-d", db, "-h"])
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
    postgres_with(&pg, &dir);
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
fn the_shared_corpus_round_trips_through_the_tables() {
    // Every chess file, the large archives included.
    if let Some(dir) = shared("chess") {
        assert_round_trip("chess", &["--from", "pgn"], &[dir.to_str().unwrap()], b"");
    }
    if let Some(dir) = shared("draughts") {
        assert_round_trip("draughts", &[], &[dir.to_str().unwrap()], b"");
    }
    if let Some(dir) = shared("tafl") {
        let d = dir.join("opentafl");
        assert_round_trip("opentafl", &[], &[d.to_str().unwrap()], b"");
        // The aagenielsen.dk games have the ending of any JSON: named.
        let games: Vec<PathBuf> = files(&dir.join("aagenielsen-json"), ".json")
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("game-")
            })
            .collect();
        let games: Vec<&str> = games.iter().map(|p| p.to_str().unwrap()).collect();
        assert!(games.len() > 50, "{}", games.len());
        assert_round_trip("aagenielsen", &["--from", "aagenielsen-json"], &games, b"");
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

/// A game that ends in a knight's mate, for the PostgreSQL recipe's query.
const MATE: &str = "[Event \"Mate\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1\n";

/// The recipes from an archive to an SQL query that `page` (a path from
/// the root of the repository: `docs/csv.md`) prints: each its
/// title (the comment line before it) and its commands (a line that ends
/// with `\` goes on to the next).
fn recipes(page: &str) -> Vec<(String, Vec<String>)> {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page))
        .unwrap_or_else(|e| panic!("{page}: {e}"));
    let at = text
        .find("From an archive to an SQL query in three commands:")
        .unwrap_or_else(|| panic!("no recipes in {page}"));
    let block = &text[at..];
    let open = block.find("```\n").expect("a code block") + 4;
    let close = open + block[open..].find("```").expect("its end");
    let mut recipes: Vec<(String, Vec<String>)> = Vec::new();
    let mut command = String::new();
    for line in block[open..close].lines() {
        if let Some(title) = line.strip_prefix("# ") {
            recipes.push((title.to_string(), Vec::new()));
        } else if !line.trim().is_empty() {
            command.push_str(line);
            command.push('\n');
            if !line.ends_with('\\') {
                let recipe = recipes.last_mut().expect("a title before the commands");
                recipe.1.push(std::mem::take(&mut command));
            }
        }
    }
    recipes
}

/// Runs a recipe's commands as printed with `sh`, in a fresh folder that
/// holds `games.pgn`, with `kifu` and the folders of `tools` on the PATH
/// and `env` set; each must succeed and say no error. Each command's
/// standard output.
fn run_recipe(commands: &[String], tools: &[&Path], env: &[(&str, &Path)]) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("games.pgn"), format!("{GAMES}\n{MATE}")).unwrap();
    let kifu = Path::new(env!("CARGO_BIN_EXE_kifu")).parent().unwrap();
    let old = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        [kifu]
            .iter()
            .chain(tools)
            .map(|p| p.to_path_buf())
            .chain(std::env::split_paths(&old)),
    )
    .unwrap();
    let mut outs = Vec::new();
    for command in commands {
        let out = Command::new("sh")
            .args(["-c", command])
            .current_dir(tmp.path())
            .env("PATH", &path)
            .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
            .output()
            .expect("sh runs");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(
            out.status.success() && !err.to_lowercase().contains("error"),
            "{command}: {err}"
        );
        outs.push(String::from_utf8(out.stdout).expect("UTF-8"));
    }
    outs
}

/// The recipes of `page` by title: `name`'s commands (three of them).
fn recipe(page: &str, name: &str) -> Vec<String> {
    let (_, commands) = recipes(page)
        .into_iter()
        .find(|(title, _)| title.starts_with(name))
        .unwrap_or_else(|| panic!("no {name} recipe in {page}"));
    assert_eq!(commands.len(), 3, "{page}, {name}: {commands:?}");
    commands
}

#[test]
fn the_documented_recipes_run_as_printed_on_a_fresh_server() {
    if skip_db() {
        return;
    }
    let recipe = |name: &str| recipe("docs/csv.md", name);
    let sqlite = need_tool("sqlite3", &[], "sqlite3");
    let out = run_recipe(&recipe("SQLite"), &[sqlite.parent().unwrap()], &[]);
    assert_eq!(out[2], "Anand, V|Ünïcode \"Q\"|6\n");
    // A server just made: only its own databases, reached as libpq's
    // environment says.
    let pg = Postgres::start();
    let out = run_recipe(
        &recipe("PostgreSQL"),
        &[&pg.bin],
        &[("PGHOST", pg.dir.path()), ("PGUSER", Path::new("postgres"))],
    );
    assert!(out[2].contains("Nf3#"), "{}", out[2]);
    assert_eq!(pg.sql_in("chess", "SELECT count(*) FROM games"), "4");
}

/// Creates kifu's schema in an SQLite database and imports the tables of
/// `dir`: a function that runs a query there and gives its rows.
fn sqlite_with(db: &Path, dir: &Path) -> impl Fn(&str) -> String {
    let sqlite = need_tool("sqlite3", &[], "sqlite3");
    let db = db.to_path_buf();
    let sql = move |args: &[&str], stdin: &str| {
        let mut all = vec![db.to_str().unwrap()];
        all.extend_from_slice(args);
        checked(
            run(sqlite.to_str().unwrap(), &all, stdin.as_bytes()),
            &format!("sqlite3 {args:?}"),
        )
    };
    let schema = checked(kifu(&["schema", "--sql", "sqlite"], b""), "kifu schema");
    sql(&[], &schema);
    for table in ["games", "tags", "moves"] {
        let file = dir.join(format!("{table}.csv"));
        let import = format!(".import --csv --skip 1 {} {table}", file.display());
        sql(&[&import], "");
    }
    move |query| sql(&[query], "").trim_end().to_string()
}

/// Creates kifu's schema in the server's `postgres` database and copies
/// the tables of `dir` in.
fn postgres_with(pg: &Postgres, dir: &Path) {
    let schema = checked(kifu(&["schema", "--sql", "postgres"], b""), "kifu schema");
    pg.sql(&schema);
    for table in ["games", "tags", "moves"] {
        let file = dir.join(format!("{table}.csv"));
        pg.sql(&format!(
            "\\copy {table} FROM '{}' (FORMAT csv, HEADER)",
            file.display()
        ));
    }
}

/// Games of three inputs that hold a NUL character: a damaged PGN (a NUL
/// byte in a comment of its second game), JSON (`\u0000` in a tag value)
/// and XML (`<char code="0000"/>` in a comment). Writes them in `dir`:
/// their paths.
fn nul_inputs(dir: &Path) -> Vec<PathBuf> {
    let pgn = dir.join("damaged.pgn");
    fs::write(
        &pgn,
        b"[Event \"One\"]\n\n1. e4 e5 *\n\n[Event \"Pgn\"]\n\n1. d4 {bro\0ken} d5 *\n\n\
          [Event \"Three\"]\n\n1. c4 *\n",
    )
    .unwrap();
    let json = stdout(&convert(
        "pgn",
        "json",
        &[],
        b"[Event \"Json\"]\n[Annotator \"A\"]\n\n1. Nf3 *\n",
    ));
    let json_nul = json.replace("\"A\"", "\"A\\u0000B\"");
    assert_ne!(json, json_nul);
    let xml = stdout(&convert(
        "pgn",
        "xml",
        &[],
        b"[Event \"Xml\"]\n\n1. e4 {note} *\n",
    ));
    let xml_nul = xml.replace("note", "no<char code=\"0000\"/>te");
    assert_ne!(xml, xml_nul);
    let (j, x) = (dir.join("nul.json"), dir.join("nul.xml"));
    fs::write(&j, json_nul).unwrap();
    fs::write(&x, xml_nul).unwrap();
    vec![pgn, j, x]
}

#[test]
fn a_nul_character_fails_its_game_alone_and_the_other_tables_load() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = nul_inputs(tmp.path());
    let dir = tmp.path().join("t");
    let mut args = vec!["convert", "--to", "csv", "--out-dir", dir.to_str().unwrap()];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    let out = kifu(&args, b"");
    no_panic(&out);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(counts(&out), (2, 3), "{err}");
    for want in [
        "damaged.pgn:5:1: error[csv-cannot-hold]: game 2: cannot be written in the database tables \
         (csv, parquet): the moves table's `comments_after` holds a NUL character (U+0000)",
        "nul.json:2:1: error[csv-cannot-hold]: game 1: cannot be written in the database tables \
         (csv, parquet): the tags table's `value` holds a NUL character",
        "nul.xml:3:1: error[csv-cannot-hold]: game 1: cannot be written in the database tables \
         (csv, parquet): the moves table's `comments_after` holds a NUL character",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
    for file in ["games.csv", "tags.csv", "moves.csv"] {
        let text = fs::read_to_string(dir.join(file)).unwrap();
        assert!(!text.contains('\0') && !text.contains("\\u0000"), "{file}");
    }
    // Standard output (the moves rows) fails the same games.
    let out = kifu(
        &["convert", "--to", "csv", inputs[0].to_str().unwrap()],
        b"",
    );
    assert_eq!(counts(&out), (2, 1), "{}", stderr(&out));
    if skip_db() {
        return;
    }
    let q = sqlite_with(&tmp.path().join("games.db"), &dir);
    assert_eq!(q("SELECT group_concat(event, ' ') FROM games"), "One Three");
    assert_eq!(q("SELECT count(*) FROM moves"), "3");
    let pg = Postgres::start();
    postgres_with(&pg, &dir);
    assert_eq!(
        pg.sql("SELECT string_agg(event, ' ' ORDER BY game) FROM games"),
        "One Three"
    );
    assert_eq!(pg.sql("SELECT count(*) FROM moves"), "3");
}

/// The bundled corpus as tables in `dir`, and per family (in name order)
/// `family|games|plies of the main lines` as kifu reads it (its JSON
/// Lines): what the databases must count.
fn corpus_tables(dir: &Path) -> String {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let c = corpus.to_str().unwrap();
    let lines = kifu(&["convert", "-q", "--to", "jsonl", c], b"");
    assert_eq!(lines.status.code(), Some(0), "{}", stderr(&lines));
    let mut per: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for line in stdout(&lines).lines() {
        let game: serde_json::Value = serde_json::from_str(line).expect("a game");
        let family = game["variant"]["family"].as_str().expect("a family");
        let plies = game["moves"]["plies"].as_array().map_or(0, Vec::len);
        let e = per.entry(family.to_string()).or_default();
        *e = (e.0 + 1, e.1 + plies);
    }
    assert_eq!(
        per.keys().collect::<Vec<_>>(),
        ["chess", "coerceo", "draughts", "tafl", "tenjiku"]
    );
    let t = dir.to_str().unwrap();
    let out = kifu(&["convert", "-q", "--to", "csv", "--out-dir", t, c], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    per.iter()
        .map(|(f, (games, plies))| format!("{f}|{games}|{plies}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Per family: its games, the plies its games row says, and its main-line
/// moves rows.
const PER_FAMILY: &str = "SELECT family, count(*), sum(plies), (SELECT count(*) FROM moves m \
    JOIN games h ON h.game_id = m.game_id WHERE h.family = g.family AND m.variation IS NULL \
    AND m.ir IS NOT NULL) FROM games g GROUP BY family ORDER BY family";

#[test]
fn every_family_of_the_bundled_corpus_loads_into_sqlite_and_postgresql() {
    if skip_db() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let want = corpus_tables(&dir);
    // The plies the games rows say are the moves rows of the main lines.
    let want: String = want
        .lines()
        .map(|l| format!("{l}|{}\n", l.rsplit('|').next().unwrap()))
        .collect();
    let q = sqlite_with(&tmp.path().join("games.db"), &dir);
    assert_eq!(q(PER_FAMILY), want.trim_end(), "SQLite");
    let pg = Postgres::start();
    postgres_with(&pg, &dir);
    assert_eq!(pg.sql(PER_FAMILY), want.trim_end(), "PostgreSQL");
    // Every row of every table is there.
    for table in ["games", "tags", "moves"] {
        let rows = fs::read_to_string(dir.join(format!("{table}.csv")))
            .map(|t| csv_rows(&t).len() - 1)
            .unwrap();
        let count = format!("SELECT count(*) FROM {table}");
        assert_eq!(q(&count), rows.to_string(), "SQLite {table}");
        assert_eq!(pg.sql(&count), rows.to_string(), "PostgreSQL {table}");
    }
}

/// Every game record of a file, as bytes.
fn game_records(path: &Path, format: &kifu::format::Format) -> Vec<Vec<u8>> {
    use kifu::archive::{Records, BATCH_BYTES};
    let data = fs::read(path).unwrap();
    let mut out = Vec::new();
    let mut split = Records::new(&data[..], format.split);
    while let Some(batch) = split.next_batch(BATCH_BYTES).expect("read") {
        for r in batch
            .records
            .iter()
            .filter(|r| r.is_game && r.oversize.is_none())
        {
            out.push(batch.data[r.range.clone()].to_vec());
        }
    }
    out
}

#[test]
fn the_canonical_notation_of_a_family_spells_each_move_as_the_move_fields_do() {
    // The csv writer keeps `move_fields`' spelling for a game read from its
    // family's first notation, without writing it again: the same text.
    use kifu::codec::ReadOptions;
    use kifu::format::{by_name, guess};
    use rayon::prelude::*;
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")];
    dirs.extend(["chess", "draughts", "tafl"].into_iter().filter_map(shared));
    // More than 100 games with the shared corpus; the project's own alone
    // (the shared folder absent) hold 72.
    let least = if dirs.len() > 1 { 100 } else { 50 };
    let mut games = 0;
    for path in dirs.iter().flat_map(|d| files(d, "")) {
        let Some(format) = guess(&path).filter(|f| f.read.is_some()) else {
            continue;
        };
        let checked: usize = game_records(&path, format)
            .par_iter()
            .filter_map(|record| {
                let game = kifu::archive::read_record(format, &ReadOptions::default(), record)
                    .ok()?
                    .game;
                let fields = kifu::family::move_fields(&game).ok()?;
                let canonical = by_name(game.family().canonical_notation()).unwrap();
                let spelled = canonical.spell.and_then(|spell| {
                    spell(&game, kifu::family::spell::Lines::All, &Default::default()).ok()
                });
                let written: Vec<String> = fields.into_iter().map(|f| f.written).collect();
                assert_eq!(
                    spelled.as_ref(),
                    Some(&written),
                    "{}: {}",
                    path.display(),
                    String::from_utf8_lossy(record)
                );
                Some(1)
            })
            .sum();
        games += checked;
    }
    assert!(games > least, "{games}");
}
