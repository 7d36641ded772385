//! The rows of the database tables (`csv`, `parquet`, and the tables of
//! the Python package): their columns, and the writer that gives a game's
//! rows as typed values (`Value`), encoded one of two ways
//! (`Encoding`):
//!
//! - the `csv` container rows: each row starts with its table's name
//!   (`games`, `tags`, `moves`) in place of the key columns, then its
//!   fields as the csv tables write them; [`crate::interchange::csv`]'s
//!   sink puts each row in its table after its game's key;
//! - typed rows, for the tables built in memory (the parquet row groups,
//!   the Python package's columns): each row is its table's digit, then
//!   each field as NUL (`\0`, NULL) or `=` and its value ended by NUL, then
//!   a line feed. No text of the tables holds a NUL ([`CANNOT_HOLD`]), so
//!   the values are found with no quoting undone and none copied:
//!   `typed_rows`.
//!
//! `--to-opt fen=true` ([`Options`]) adds the `fen` column to the moves
//! table: the position after each ply in its family's position text
//! ([`crate::family::positions`]).

use std::io;

use serde::Serialize;

use crate::codec::{Origin, RunWriter, SourceNotation, WriteOptions};
use crate::error::Problem;
use crate::family::spell::Lines;
use crate::family::{move_fields, positions, MoveFields};
use crate::ir::{Comment, Game, Ply, Side};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The names of the tables, as the container rows and the SQL schema name
/// them.
pub const TABLES: [&str; 3] = ["games", "tags", "moves"];

/// How a column holds its values, for the SQL schema and the parquet
/// tables' types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Text.
    Text,
    /// A whole number.
    Integer,
    /// `1` or `0`.
    Boolean,
    /// JSON text, as the `json` format writes the IR.
    Json,
}

/// One column: its name, kind, and whether it is never NULL.
pub(crate) type Column = (&'static str, Kind, bool);

use Kind::*;

/// The columns of `games.csv`.
const GAMES: &[Column] = &[
    ("game_id", Text, true),
    ("source", Text, true),
    ("game", Integer, true),
    ("family", Text, true),
    ("variant", Json, true),
    ("event", Text, false),
    ("site", Text, false),
    ("date", Text, false),
    ("round", Text, false),
    ("white", Text, false),
    ("black", Text, false),
    ("result_tag", Text, false),
    ("plies", Integer, true),
    ("result", Text, false),
    ("setup", Json, false),
    ("preamble", Json, false),
    ("comments_end", Json, false),
];

/// The columns of `tags.csv`.
const TAGS: &[Column] = &[
    ("game_id", Text, true),
    ("position", Integer, true),
    ("name", Text, true),
    ("value", Text, true),
];

/// The columns of `moves.csv`, and the `fen` column last where it is
/// asked for ([`Options::fen`]).
const MOVES: &[Column] = &[
    ("game_id", Text, true),
    ("seq", Integer, true),
    ("ply", Integer, false),
    ("number", Integer, false),
    ("side", Text, false),
    ("variation", Text, false),
    ("move", Text, false),
    ("canonical", Text, false),
    ("from_square", Text, false),
    ("to_square", Text, false),
    ("captured", Text, false),
    ("piece", Text, false),
    ("promotion", Text, false),
    ("is_check", Boolean, false),
    ("is_mate", Boolean, false),
    ("glyph", Text, false),
    ("nags", Text, false),
    ("comments_before", Json, false),
    ("comments_after", Json, false),
    ("comments_end", Json, false),
    ("ir", Json, false),
    ("fen", Text, false),
];

/// The number of the moves table's columns without `fen`.
const MOVES_PLAIN: usize = MOVES.len() - 1;

/// Each table's columns, in the order of [`TABLES`], without `fen`.
pub(crate) const COLUMNS: [&[Column]; 3] = [GAMES, TAGS, MOVES.split_at(MOVES_PLAIN).0];

/// Each table's columns, `fen` among the moves table's where it is asked
/// for.
pub(crate) fn columns(table: usize, fen: bool) -> &'static [Column] {
    match (table, fen) {
        (2, true) => MOVES,
        _ => COLUMNS[table],
    }
}

/// How many leading columns of each table the sink writes (the key, and
/// for games the source and index); the container row holds the rest.
pub(crate) const KEYS: [usize; 3] = [3, 1, 1];

/// The seven-tag roster, in the order of its columns.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The header row of a table (without its line end).
pub(crate) fn header(table: usize, fen: bool) -> String {
    columns(table, fen)
        .iter()
        .map(|c| c.0)
        .collect::<Vec<_>>()
        .join(",")
}

/// The options of the `csv` and `parquet` tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Whether the moves table has the `fen` column: the position after
    /// each ply.
    pub fen: bool,
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[FormatOption {
        name: "fen",
        sides: Sides::Write,
        values: Values::OneOf(&["false", "true"]),
        default: "false",
        help: "a `fen` column in the moves table: the position after each ply, \
               as its family writes a position (chess FEN, draughts FEN, tafl, \
               Coerceo and tenjiku positions)",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "fen" => self.fen = value.eq_ignore_ascii_case("true"),
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// The tables' options of a run (the defaults where none were given).
pub(crate) fn options(opts: &WriteOptions) -> Options {
    opts.format.get::<Options>().copied().unwrap_or_default()
}

/// How a game's rows are written into its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// The `csv` container rows.
    Csv,
    /// Typed rows (`typed_rows`).
    Typed,
}

/// One value of a row, typed as its column.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    /// NULL.
    Null,
    /// A whole number.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// Text (JSON text in a JSON column).
    Text(&'a str),
}

impl<'a> Value<'a> {
    /// Text, or NULL.
    fn text(v: Option<&'a str>) -> Value<'a> {
        v.map_or(Value::Null, Value::Text)
    }

    /// Text where it is not empty, else NULL.
    fn nonempty(v: &'a str) -> Value<'a> {
        match v.is_empty() {
            true => Value::Null,
            false => Value::Text(v),
        }
    }

    /// A boolean, or NULL.
    fn flag(v: Option<bool>) -> Value<'a> {
        v.map_or(Value::Null, Value::Bool)
    }
}

/// The kind of the error of a game that the tables cannot hold: a NUL
/// character (U+0000) in a text, which PostgreSQL refuses (the whole file)
/// and SQLite cuts the value at. The game fails; the others convert.
pub const CANNOT_HOLD: crate::error::Kind = crate::error::Kind::CsvCannotHold;

/// Whether JSON text holds an escaped NUL character (`\u0000`, as
/// serde_json writes one), not a backslash followed by `u0000`.
fn json_has_nul(json: &str) -> bool {
    let bytes = json.as_bytes();
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\\', &bytes[at..]) {
        let i = at + i;
        if bytes[i + 1..].starts_with(b"u0000") {
            return true;
        }
        // Past the escaped character (a second backslash included).
        at = i + 2;
        if at >= bytes.len() {
            break;
        }
    }
    false
}

/// Appends a whole number in decimal.
fn push_int(out: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut n = v.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    for &b in &buf[at..] {
        out.push(char::from(b));
    }
}

/// Appends one csv field: NULL as nothing, the empty string and any value
/// with a comma, a quote or a line break quoted (quotes doubled), others
/// as they are.
pub(crate) fn field(out: &mut String, value: Option<&str>) {
    let Some(v) = value else { return };
    let plain = v.bytes().all(|b| !matches!(b, b',' | b'"' | b'\r' | b'\n'));
    if plain && !v.is_empty() {
        out.push_str(v);
        return;
    }
    out.push('"');
    let mut at = 0;
    for q in memchr::memchr_iter(b'"', v.as_bytes()) {
        out.push_str(&v[at..=q]);
        out.push('"');
        at = q + 1;
    }
    out.push_str(&v[at..]);
    out.push('"');
}

/// Appends one row of `table` (an index of [`TABLES`]): its values after
/// the key columns, encoded; an error when a text holds a NUL character,
/// which no database holds in text ([`CANNOT_HOLD`]).
fn row(out: &mut String, enc: Encoding, table: usize, values: &[Value<'_>]) -> Result<(), Problem> {
    for (&(name, kind, _), value) in columns(table, true)[KEYS[table]..].iter().zip(values) {
        let Value::Text(v) = value else { continue };
        let nul = match kind {
            Json => json_has_nul(v),
            Text | Integer | Boolean => memchr::memchr(0, v.as_bytes()).is_some(),
        };
        if nul {
            return Err(Problem::whole(format!(
                "cannot be written in the database tables (csv, parquet): the {} table's \
                 `{name}` holds a NUL character (U+0000), which database text cannot hold",
                TABLES[table]
            ))
            .of_kind(CANNOT_HOLD));
        }
    }
    match enc {
        Encoding::Csv => {
            out.push_str(TABLES[table]);
            for v in values {
                out.push(',');
                match *v {
                    Value::Null => {}
                    Value::Int(n) => push_int(out, n),
                    Value::Bool(b) => out.push(if b { '1' } else { '0' }),
                    Value::Text(t) => field(out, Some(t)),
                }
            }
            out.push_str("\r\n");
        }
        Encoding::Typed => {
            out.push(char::from(b'0' + table as u8));
            for v in values {
                match *v {
                    Value::Null => {
                        out.push('\0');
                        continue;
                    }
                    Value::Int(n) => {
                        out.push('=');
                        push_int(out, n);
                    }
                    Value::Bool(b) => out.push_str(if b { "=1" } else { "=0" }),
                    Value::Text(t) => {
                        out.push('=');
                        out.push_str(t);
                    }
                }
                out.push('\0');
            }
            out.push('\n');
        }
    }
    Ok(())
}

fn to_json(value: &impl Serialize) -> Result<String, Problem> {
    serde_json::to_string(value).map_err(|e| Problem::whole(e.to_string()))
}

/// Comments as a JSON array, as the `json` format writes them; `None` for
/// none.
fn comments_json(comments: &[Comment]) -> Result<Option<String>, Problem> {
    if comments.is_empty() {
        Ok(None)
    } else {
        to_json(&comments).map(Some)
    }
}

/// The error of a writer whose plies and move fields do not pair up (a
/// bug).
const LOST: &str = "the move fields lost their place in the game";

/// Writes one game as `csv` container rows: its games row, its tags rows,
/// and a moves row per ply (each ply, then its variations), plus a row for
/// each variation without plies. The `move` column holds each move as the
/// format it was read from ([`WriteOptions::source`]) spells it: through
/// its spelling ([`SourceNotation::spell`]) where that is not the
/// family's canonical notation, whose spelling [`move_fields`] gives.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// [`write()`] as typed rows (`typed_rows`): the rows of the `parquet`
/// tables and of the Python package's.
pub fn write_typed(
    game: &Game,
    opts: &WriteOptions,
    out: &mut String,
) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs_of(opts, Encoding::Typed), game, out)
}

/// The writer of a game's container rows a run at a time
/// ([`crate::codec::RunsFn`]): the moves rows as the runs come, the games
/// and tags rows (which say how many plies the main line has, and the
/// result) before them at the end. The last ply of a variation waits for
/// the next ply, the variation's end (its `comments_end`) or a variation
/// of it; a variation whose last move has a variation opened after it
/// and which ends in comments cannot be written so (its rows are
/// written), and the record is converted whole.
pub fn runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    runs_of(opts, Encoding::Csv)
}

fn runs_of(opts: &WriteOptions, enc: Encoding) -> Box<dyn RunWriter> {
    Box::new(TableRuns {
        source: opts.source.clone(),
        enc,
        fen: options(opts).fen,
        head_written: false,
        seq: 0,
        main_plies: 0,
        lines: vec![OpenLine::new(String::new(), true)],
    })
}

/// A game being written as rows a run at a time ([`runs`]).
struct TableRuns {
    source: Option<SourceNotation>,
    enc: Encoding,
    /// Whether the moves rows have the `fen` column.
    fen: bool,
    /// Whether [`RunWriter::head`] wrote the games and tags rows first.
    head_written: bool,
    /// The moves rows written.
    seq: usize,
    /// The main line's plies written.
    main_plies: usize,
    /// The lines open, the main line first.
    lines: Vec<OpenLine>,
}

/// A line open in a game written a run at a time.
struct OpenLine {
    /// Its variation path (empty for the main line).
    path: String,
    main: bool,
    /// The plies written in it.
    plies: usize,
    /// The variations of its last ply so far.
    variations: usize,
    /// Its last ply's row, and the rows of the variations read with it,
    /// until it is known whether the line ends after it.
    pending: Option<(MoveRow, String)>,
    /// Its last ply's row was written before the line's end was known (a
    /// variation of it opened).
    last_written: bool,
}

impl OpenLine {
    fn new(path: String, main: bool) -> OpenLine {
        OpenLine {
            path,
            main,
            plies: 0,
            variations: 0,
            pending: None,
            last_written: false,
        }
    }

    /// Writes the last ply's row held, its `comments_end` `end`.
    fn flush(&mut self, end: Option<String>, rows: &Rows, out: &mut String) -> Result<(), Problem> {
        if let Some((mut row, after)) = self.pending.take() {
            row.end = end;
            rows.moves_row(&row, out)?;
            out.push_str(&after);
        }
        Ok(())
    }
}

/// How a game's moves rows are written: the encoding, and whether they
/// have the `fen` column.
#[derive(Clone, Copy)]
struct Rows {
    enc: Encoding,
    fen: bool,
}

impl TableRuns {
    fn line(&mut self) -> Result<&mut OpenLine, Problem> {
        self.lines.last_mut().ok_or_else(crate::codec::not_open)
    }

    fn rows(&self) -> Rows {
        Rows {
            enc: self.enc,
            fen: self.fen,
        }
    }
}

impl RunWriter for TableRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        head_rows(game, game.moves.plies.len(), self.enc, out)?;
        self.head_written = true;
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        let rows = self.rows();
        // Room for the rows (a moves row is about 200 bytes): the text is
        // not copied as it grows.
        out.reserve(run.moves.plies.len() * 256);
        let mut plies = PlyRows::of(run, self.source.as_ref(), self.fen)?;
        let seq = &mut self.seq;
        let line = self.lines.last_mut().ok_or_else(crate::codec::not_open)?;
        for ply in &run.moves.plies {
            line.flush(None, &rows, out)?;
            line.plies += 1;
            line.variations = ply.variations.len();
            line.last_written = false;
            let row = plies.row(seq, ply, line.plies, &line.path)?;
            let mut after = String::new();
            plies.variations(seq, rows, &mut after, ply, line.plies, &line.path)?;
            match line.main {
                true => {
                    rows.moves_row(&row, out)?;
                    out.push_str(&after);
                }
                false => line.pending = Some((row, after)),
            }
        }
        if line.main {
            self.main_plies += run.moves.plies.len();
        }
        plies.done()
    }

    fn open(&mut self, out: &mut String) -> Result<(), Problem> {
        let rows = self.rows();
        let line = self.line()?;
        if line.plies == 0 {
            return Err(crate::codec::opened_first());
        }
        if line.pending.is_some() {
            line.flush(None, &rows, out)?;
            line.last_written = true;
        }
        line.variations += 1;
        let path = variation_path(&line.path, line.plies, line.variations);
        self.lines.push(OpenLine::new(path, false));
        Ok(())
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        if self.lines.len() < 2 {
            return Err(crate::codec::not_open());
        }
        let rows = self.rows();
        let mut line = self.lines.pop().expect("checked above");
        let end = comments_json(trailing)?;
        if line.plies == 0 {
            return rows.empty_variation(&mut self.seq, &line.path, end, out);
        }
        if line.last_written && end.is_some() {
            return Err(Problem::whole(
                "a variation ends in comments after a variation of its last move: written whole",
            ));
        }
        line.flush(end, &rows, out)
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if self.lines.len() != 1 {
            return Err(crate::codec::left_open());
        }
        let rows = self.rows();
        self.line()?.flush(None, &rows, out)?;
        if !self.head_written {
            head_rows(game, self.main_plies, self.enc, head)?;
        }
        Ok(Vec::new())
    }
}

/// The games row of a game whose main line has `plies` plies, and its
/// tags rows.
fn head_rows(game: &Game, plies: usize, enc: Encoding, out: &mut String) -> Result<(), Problem> {
    let variant = to_json(&game.variant)?;
    let setup = game.setup.as_ref().map(to_json).transpose()?;
    let preamble = comments_json(&game.preamble)?;
    let end = comments_json(&game.moves.trailing)?;
    let mut games: Vec<Value<'_>> = vec![Value::Text(game.family().name()), Value::Text(&variant)];
    games.extend(ROSTER.map(|t| Value::text(game.tag(t))));
    games.extend([
        Value::Int(plies as i64),
        Value::text(game.result.map(|r| r.token())),
        Value::text(setup.as_deref()),
        Value::text(preamble.as_deref()),
        Value::text(end.as_deref()),
    ]);
    row(out, enc, 0, &games)?;
    for (i, tag) in game.tags.iter().enumerate() {
        row(
            out,
            enc,
            1,
            &[
                Value::Int(i as i64 + 1),
                Value::Text(&tag.name),
                Value::Text(&tag.value),
            ],
        )?;
    }
    Ok(())
}

/// The move fields of each ply of a game (each ply, then its variations),
/// their `move` as the source spells it ([`source_spelling`]).
fn fields_of(game: &Game, source: Option<&SourceNotation>) -> Result<Vec<MoveFields>, Problem> {
    let mut fields = move_fields(game)?;
    if let Some(spelled) = source_spelling(game, source) {
        if spelled.len() != fields.len() {
            return Err(Problem::whole(LOST));
        }
        for (f, text) in fields.iter_mut().zip(spelled) {
            // A move its source writes as nothing (a null move on a
            // scoresheet) keeps the family's spelling.
            if !text.is_empty() {
                f.written = text;
            }
        }
    }
    Ok(fields)
}

/// Each move of a game (in the order [`move_fields`] gives them) as the
/// source format spells it ([`crate::family::spell::every_ply`]), where that is not what
/// [`move_fields`] writes already: `None` for a source of no family (an
/// interchange format: json, xml, csv), for the family's canonical
/// notation (whose spelling [`MoveFields::written`] is), for a format
/// that spells no moves (one kifu only reads), and for a game it cannot
/// spell; then `move` is the family's canonical notation.
fn source_spelling(game: &Game, source: Option<&SourceNotation>) -> Option<Vec<String>> {
    let source = source.filter(|s| s.family == game.family())?;
    if source.name == game.family().canonical_notation() {
        return None;
    }
    (source.spell)(game, Lines::All, &source.read).ok()
}

/// The variation path of the `v`th variation of the `index`th ply of the
/// line at `path`.
fn variation_path(path: &str, index: usize, v: usize) -> String {
    match path {
        "" => format!("{index}.{v}"),
        _ => format!("{path}/{index}.{v}"),
    }
}

/// One ply's moves row, typed, until it is written (the last ply of a
/// variation waits for its `comments_end`).
struct MoveRow {
    seq: usize,
    /// The ply's place in its line, from 1.
    index: usize,
    number: u32,
    side: Side,
    /// The variation path (empty for the main line).
    path: String,
    fields: MoveFields,
    glyph: Option<String>,
    nags: String,
    before: Option<String>,
    after: Option<String>,
    end: Option<String>,
    ir: String,
    fen: Option<String>,
}

impl Rows {
    /// Writes one ply's moves row.
    fn moves_row(&self, r: &MoveRow, out: &mut String) -> Result<(), Problem> {
        let f = &r.fields;
        let captured = f.captured.join(" ");
        let side = match r.side {
            Side::White => "white",
            Side::Black => "black",
        };
        let values = [
            Value::Int(r.seq as i64),
            Value::Int(r.index as i64),
            Value::Int(i64::from(r.number)),
            Value::Text(side),
            Value::nonempty(&r.path),
            Value::Text(&f.written),
            Value::Text(&f.canonical),
            Value::text(f.from.as_deref()),
            Value::text(f.to.as_deref()),
            Value::nonempty(&captured),
            Value::text(f.piece.as_deref()),
            Value::text(f.promotion.as_deref()),
            Value::flag(f.check),
            Value::flag(f.mate),
            Value::text(r.glyph.as_deref()),
            Value::nonempty(&r.nags),
            Value::text(r.before.as_deref()),
            Value::text(r.after.as_deref()),
            Value::text(r.end.as_deref()),
            Value::Text(&r.ir),
            Value::text(r.fen.as_deref()),
        ];
        self.write(out, &values)
    }

    /// Writes a moves row, `fen` (the last value) left out where the
    /// table has no such column.
    fn write(&self, out: &mut String, values: &[Value<'_>]) -> Result<(), Problem> {
        let n = columns(2, self.fen).len() - KEYS[2];
        row(out, self.enc, 2, &values[..n])
    }

    /// The row of a variation without plies: a row of its own, with no
    /// move, numbered next.
    fn empty_variation(
        &self,
        seq: &mut usize,
        path: &str,
        end: Option<String>,
        out: &mut String,
    ) -> Result<(), Problem> {
        *seq += 1;
        let mut values = [Value::Null; MOVES.len() - 1];
        values[0] = Value::Int(*seq as i64);
        values[4] = Value::Text(path);
        values[18] = Value::text(end.as_deref());
        self.write(out, &values)
    }
}

/// The moves rows of a game (or of a run of one): its plies' fields and
/// positions, taken in the order the rows are written (each ply, then its
/// variations).
struct PlyRows {
    fields: std::vec::IntoIter<MoveFields>,
    fens: Option<std::vec::IntoIter<Option<String>>>,
}

impl PlyRows {
    /// The rows of `game`'s plies; their positions where `fen` asks.
    fn of(game: &Game, source: Option<&SourceNotation>, fen: bool) -> Result<PlyRows, Problem> {
        let fields = fields_of(game, source)?;
        let fens = match fen {
            true => {
                let fens = positions(game);
                if fens.len() != fields.len() {
                    return Err(Problem::whole(LOST));
                }
                Some(fens.into_iter())
            }
            false => None,
        };
        Ok(PlyRows {
            fields: fields.into_iter(),
            fens,
        })
    }

    /// The row of the `index`th ply of the line at `path` (its
    /// `comments_end` empty), numbered next.
    fn row(
        &mut self,
        seq: &mut usize,
        ply: &Ply,
        index: usize,
        path: &str,
    ) -> Result<MoveRow, Problem> {
        let fields = self.fields.next().ok_or_else(|| Problem::whole(LOST))?;
        let fen = match &mut self.fens {
            Some(fens) => fens.next().ok_or_else(|| Problem::whole(LOST))?,
            None => None,
        };
        *seq += 1;
        let mut nags = String::new();
        for (i, n) in ply.nags.iter().enumerate() {
            if i > 0 {
                nags.push(' ');
            }
            push_int(&mut nags, i64::from(*n));
        }
        Ok(MoveRow {
            seq: *seq,
            index,
            number: ply.number,
            side: ply.side,
            path: path.to_string(),
            fields,
            glyph: ply.glyph.clone(),
            nags,
            before: comments_json(&ply.before)?,
            after: comments_json(&ply.after)?,
            end: None,
            ir: to_json(&ply.mv)?,
            fen,
        })
    }

    /// The rows of a line whose variation path is `path` (empty for the
    /// main line, whose comments after its last ply are the games row's).
    fn line(
        &mut self,
        seq: &mut usize,
        rows: Rows,
        out: &mut String,
        line: &crate::ir::Line,
        path: &str,
    ) -> Result<(), Problem> {
        if line.plies.is_empty() {
            return rows.empty_variation(seq, path, comments_json(&line.trailing)?, out);
        }
        let last = line.plies.len();
        for (i, ply) in line.plies.iter().enumerate() {
            let mut row = self.row(seq, ply, i + 1, path)?;
            if i + 1 == last {
                row.end = comments_json(&line.trailing)?;
            }
            rows.moves_row(&row, out)?;
            self.variations(seq, rows, out, ply, i + 1, path)?;
        }
        Ok(())
    }

    /// The rows of the variations of the `index`th ply of the line at
    /// `path`.
    fn variations(
        &mut self,
        seq: &mut usize,
        rows: Rows,
        out: &mut String,
        ply: &Ply,
        index: usize,
        path: &str,
    ) -> Result<(), Problem> {
        for (v, var) in ply.variations.iter().enumerate() {
            self.line(seq, rows, out, var, &variation_path(path, index, v + 1))?;
        }
        Ok(())
    }

    /// The error of fields left over (a bug).
    fn done(mut self) -> Result<(), Problem> {
        match self.fields.next() {
            Some(_) => Err(Problem::whole(LOST)),
            None => Ok(()),
        }
    }
}

/// Each typed row of one game's text ([`write_typed`]), keys first: `push`
/// takes each row's table (an index of [`TABLES`]) and its values
/// (`None`: NULL), in the order of [`columns`]; the keys are the game's
/// `id`, and for the games row its source and index from `origin`.
pub(crate) fn typed_rows(
    text: &str,
    origin: &Origin<'_>,
    id: &str,
    mut push: impl FnMut(usize, &[Option<&str>]) -> io::Result<()>,
) -> io::Result<()> {
    let bug = |what: &str| io::Error::other(format!("typed rows: {what} (a bug)"));
    let mut index = String::new();
    push_int(&mut index, origin.index as i64);
    let bytes = text.as_bytes();
    let mut values: Vec<Option<&str>> = Vec::with_capacity(MOVES.len());
    let mut at = 0;
    while at < bytes.len() {
        let t = usize::from(bytes[at].wrapping_sub(b'0'));
        if t >= TABLES.len() {
            return Err(bug("a row of no table"));
        }
        at += 1;
        values.clear();
        values.push(Some(id));
        if t == 0 {
            values.extend([Some(origin.source), Some(index.as_str())]);
        }
        loop {
            match bytes.get(at) {
                Some(b'\n') => {
                    at += 1;
                    break;
                }
                Some(0) => {
                    values.push(None);
                    at += 1;
                }
                Some(b'=') => {
                    let end = memchr::memchr(0, &bytes[at..])
                        .map(|n| at + n)
                        .ok_or_else(|| bug("a value never ended"))?;
                    values.push(Some(&text[at + 1..end]));
                    at = end + 1;
                }
                _ => return Err(bug("a value without its mark")),
            }
        }
        push(t, &values)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_decimal() {
        for n in [0i64, 7, -7, 10, 1234567890, i64::MAX, i64::MIN] {
            let mut s = String::new();
            push_int(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn a_field_is_quoted_where_it_must_be() {
        let cases = [
            ("", "\"\""),
            ("a", "a"),
            ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("\"", "\"\"\"\""),
            ("line\r\nbreak", "\"line\r\nbreak\""),
        ];
        for (v, want) in cases {
            let mut s = String::new();
            field(&mut s, Some(v));
            assert_eq!(s, want, "{v:?}");
        }
        let mut s = String::new();
        field(&mut s, None);
        assert_eq!(s, "");
    }

    /// A value of a row: NULL, a number, or text of the characters that
    /// matter to the encodings (commas, quotes, line ends, `=`, a
    /// character of several bytes) and others.
    fn value() -> impl proptest::strategy::Strategy<Value = Option<String>> {
        use proptest::prelude::*;
        prop_oneof![
            Just(None),
            any::<i64>().prop_map(|n| Some(n.to_string())),
            "[a,\"\r\n= \u{e9}\u{1F600}]{0,12}".prop_map(Some),
        ]
    }

    proptest::proptest! {
        /// Any row of values reads back the same from either encoding:
        /// the csv fields through the csv reader's `next_field`, the typed
        /// rows through `typed_rows`.
        #[test]
        fn any_row_reads_back_from_both_encodings(
            values in proptest::collection::vec(value(), 1..8)
        ) {
            let typed: Vec<Value<'_>> = values
                .iter()
                .map(|v| Value::text(v.as_deref()))
                .collect();
            let mut csv = String::new();
            row(&mut csv, Encoding::Csv, 1, &typed).unwrap();
            let mut back = Vec::new();
            let (mut at, mut more) = (TABLES[1].len() + 1, true);
            while more {
                let (v, next, m) = crate::interchange::csv::next_field(&csv, at).unwrap();
                back.push(v.map(|v| v.into_owned()));
                (at, more) = (next, m);
            }
            // csv writes the empty string quoted, NULL as nothing.
            proptest::prop_assert_eq!(&back, &values, "{:?}", csv);
            let mut text = String::new();
            row(&mut text, Encoding::Typed, 1, &typed).unwrap();
            row(&mut text, Encoding::Typed, 2, &typed).unwrap();
            let origin = Origin { source: "s", index: 1, bytes: b"" };
            let mut got = Vec::new();
            typed_rows(&text, &origin, "id", |t, v| {
                got.push((t, v[1..].iter().map(|v| v.map(String::from)).collect::<Vec<_>>()));
                Ok(())
            })
            .unwrap();
            proptest::prop_assert_eq!(got, vec![(1, values.clone()), (2, values.clone())]);
        }
    }

    #[test]
    fn typed_rows_read_back_every_value() {
        let mut text = String::new();
        let values = [
            Value::Int(-3),
            Value::Null,
            Value::Text(""),
            Value::Text("a,\"b\"\n=c"),
        ];
        row(&mut text, Encoding::Typed, 1, &values[1..]).unwrap();
        let origin = Origin {
            source: "in.pgn",
            index: 4,
            bytes: b"",
        };
        let mut got = Vec::new();
        typed_rows(&text, &origin, "id", |t, v| {
            got.push((t, v.iter().map(|v| v.map(String::from)).collect::<Vec<_>>()));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            got,
            [(
                1,
                vec![
                    Some("id".to_string()),
                    None,
                    Some(String::new()),
                    Some("a,\"b\"\n=c".to_string())
                ]
            )]
        );
    }
}
