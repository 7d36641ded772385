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
//!   the Python package's columns): each table's rows as columns, each
//!   column a code a value (NULL, a number, a flag, a text's length) and
//!   its text values one after another (`Columns`; `typed::Typed` reads
//!   them): the parquet sink takes a game's column at a time, with no
//!   value looked for, parsed or quoted.
//!
//! `--to-opt fen=true` ([`Options`]) adds the `fen` column to the moves
//! table: the position after each ply in its family's position text
//! ([`crate::family::positions`]).

use std::io;

use serde::Serialize;

use crate::codec::{RunWriter, SourceNotation, WriteOptions};
use crate::error::Problem;
use crate::family::spell::Lines;
use crate::family::{positions, write_move_fields, Field, Fields, Move, PlyFields};
use crate::ir::{push_short, Comment, CommentKind, Game, Ply, Side};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

mod kept;
mod lines;
mod typed;

use kept::put_ir;

pub use lines::{runs, write, write_typed};
#[cfg(test)]
pub(crate) use typed::code;
#[cfg(any(test, feature = "python"))]
pub(crate) use typed::typed_rows;
pub(crate) use typed::{bug, unzigzag, zigzag, Typed};

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

/// The kind of the error of a game that the tables cannot hold: a NUL
/// character (U+0000) in a text, which PostgreSQL refuses (the whole file)
/// and SQLite cuts the value at. The game fails; the others convert.
pub const CANNOT_HOLD: crate::error::Kind = crate::error::Kind::CsvCannotHold;

/// Appends a whole number in decimal, a digit at a time (the numbers of a
/// row are short: a slice of digits checked as UTF-8 and copied cost
/// more).
#[inline]
fn push_int(out: &mut String, v: i64) {
    let mut n = v.unsigned_abs();
    if v < 0 {
        out.push('-');
    }
    let digit = |d: u64| char::from(b'0' + d as u8);
    if n < 10 {
        out.push(digit(n));
        return;
    }
    if n < 100 {
        out.push(digit(n / 10));
        out.push(digit(n % 10));
        return;
    }
    if n < 1000 {
        out.push(digit(n / 100));
        out.push(digit(n / 10 % 10));
        out.push(digit(n % 10));
        return;
    }
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    while n > 0 {
        at -= 1;
        buf[at] = (n % 10) as u8;
        n /= 10;
    }
    for &d in &buf[at..] {
        out.push(digit(u64::from(d)));
    }
}

/// A byte that makes a csv field quoted ([`CLASS`]).
const QUOTED: u8 = 1;

/// A NUL byte ([`CLASS`]).
const NUL: u8 = 2;

/// What each byte is to a text value: [`QUOTED`] for a comma, a quote or a
/// line break, [`NUL`] for NUL.
static CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    class[b',' as usize] = QUOTED;
    class[b'"' as usize] = QUOTED;
    class[b'\r' as usize] = QUOTED;
    class[b'\n' as usize] = QUOTED;
    class[0] = NUL;
    class
};

/// The classes ([`CLASS`]) of a value's bytes, together.
#[inline]
fn classes(v: &[u8]) -> u8 {
    v.iter().fold(0, |c, &b| c | CLASS[usize::from(b)])
}

/// Whether a csv field must be quoted: the empty string, and any value
/// with a comma, a quote or a line break.
fn must_quote(v: &str) -> bool {
    v.is_empty() || classes(v.as_bytes()) & QUOTED != 0
}

/// Appends one csv field: NULL as nothing, the empty string and any value
/// with a comma, a quote or a line break quoted (quotes doubled), others
/// as they are.
pub(crate) fn field(out: &mut String, value: Option<&str>) {
    let Some(v) = value else { return };
    if !must_quote(v) {
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

thread_local! {
    /// The JSON text of one value, before it goes into its row: one buffer
    /// a thread, kept from value to value.
    static JSON: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What a JSON value written into a row held ([`JsonField`]).
#[derive(Default)]
struct Seen {
    /// A NUL character, escaped (`\u0000`).
    nul: bool,
    /// What makes a csv field quoted: a quote or a comma.
    quote: bool,
}

/// `serde_json`'s compact JSON, written straight into a row: in a csv
/// field each of its quotes doubled as it is written (the field's own
/// quotes around it), with no text of its own made and quoted after.
struct JsonField<'s> {
    csv: bool,
    seen: &'s mut Seen,
}

impl serde_json::ser::Formatter for JsonField<'_> {
    fn begin_string<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.seen.quote = true;
        w.write_all(if self.csv { b"\"\"" } else { b"\"" })
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.csv { b"\"\"" } else { b"\"" })
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        use serde_json::ser::{CharEscape, CompactFormatter};
        match escape {
            CharEscape::Quote if self.csv => w.write_all(b"\\\"\""),
            CharEscape::AsciiControl(0) => {
                self.seen.nul = true;
                CompactFormatter.write_char_escape(w, escape)
            }
            _ => CompactFormatter.write_char_escape(w, escape),
        }
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            return Ok(());
        }
        self.seen.quote = true;
        w.write_all(b",")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.begin_array_value(w, first)
    }
}

/// Where a game's rows are written, a value at a time: the `csv`
/// container rows (`String`: each value after a comma, quoted where it
/// must be, [`field`]) or the typed rows ([`Columns`]: each table's
/// values a column at a time). `table` is an index of [`TABLES`],
/// `column` of [`columns`].
trait Out {
    /// The encoding.
    const ENC: Encoding;
    /// Starts a row of `table`.
    fn start(&mut self, table: usize);
    /// Ends a row of `table`.
    fn end(&mut self, table: usize);
    /// Writes NULL.
    fn null(&mut self, table: usize, column: usize);
    /// Writes a whole number.
    fn int(&mut self, table: usize, column: usize, n: i64);
    /// Writes a boolean.
    fn flag(&mut self, table: usize, column: usize, b: bool);
    /// Writes the `nags` (not empty), their numbers a space between them.
    fn nags(&mut self, table: usize, column: usize, nags: &[u32]);
    /// Writes text known to need no quoting and to hold no NUL, not
    /// empty.
    fn word(&mut self, table: usize, column: usize, v: &str);
    /// Writes the code of a move field `len` bytes long whose text is in
    /// its column's already (a table written a column at a time:
    /// [`Columns::place`]; no other output places fields, and writes NULL).
    #[inline(always)]
    fn placed(&mut self, table: usize, column: usize, len: usize) {
        debug_assert!(false, "a field of {len} bytes placed in rows of text");
        self.null(table, column);
    }
    /// Writes text with no NUL whose bytes' classes ([`classes`]) are
    /// `class`.
    fn text(&mut self, table: usize, column: usize, v: &str, class: u8);
    /// Appends a JSON value's text (`quote`: it holds a quote or a comma)
    /// as this encoding writes it (`serde_json`'s text through
    /// [`JsonField`], its quotes doubled in `csv`) to `into`: what
    /// [`Out::encoded`] writes.
    fn encode_json(text: &str, quote: bool, into: &mut String);
    /// Writes a value as [`Out::encode_json`] gave it.
    fn encoded(&mut self, table: usize, column: usize, v: &str);
    /// Writes a JSON value's text (`quote`: it holds a quote or a comma),
    /// as [`Out::encode_json`] encodes it.
    fn json(&mut self, table: usize, column: usize, text: &str, quote: bool);
    /// Where the next value goes in the text (the `csv` rows), for a
    /// value put there later ([`Rows::set_end`]).
    fn mark(&self) -> usize;
    /// Gives the `ir` value just written in a row of `table` its id, the
    /// move packed ([`IR_IDS`]; the typed rows alone keep it).
    #[inline(always)]
    fn ir_id(&mut self, table: usize, id: u64) {
        let _ = (table, id);
    }
}

impl Out for String {
    const ENC: Encoding = Encoding::Csv;

    #[inline]
    fn start(&mut self, table: usize) {
        self.push_str(TABLES[table]);
    }

    #[inline]
    fn end(&mut self, _: usize) {
        self.push_str("\r\n");
    }

    #[inline]
    fn null(&mut self, _: usize, _: usize) {
        self.push(',');
    }

    #[inline]
    fn int(&mut self, _: usize, _: usize, n: i64) {
        self.push(',');
        push_int(self, n);
    }

    #[inline]
    fn flag(&mut self, _: usize, _: usize, b: bool) {
        self.push_str(if b { ",1" } else { ",0" });
    }

    fn nags(&mut self, _: usize, _: usize, nags: &[u32]) {
        self.push(',');
        push_nags(self, nags);
    }

    #[inline]
    fn word(&mut self, _: usize, _: usize, v: &str) {
        self.push(',');
        push_short(self, v);
    }

    #[inline]
    fn text(&mut self, _: usize, _: usize, v: &str, class: u8) {
        self.push(',');
        match class & QUOTED != 0 || v.is_empty() {
            true => field(self, Some(v)),
            false => push_short(self, v),
        }
    }

    fn encode_json(text: &str, quote: bool, into: &mut String) {
        match quote {
            true => {
                into.push_str(",\"");
                into.push_str(text);
                into.push('"');
            }
            // Nothing to quote (a number, `[]`).
            false => {
                into.push(',');
                into.push_str(text);
            }
        }
    }

    #[inline]
    fn encoded(&mut self, _: usize, _: usize, v: &str) {
        self.push_str(v);
    }

    fn json(&mut self, _: usize, _: usize, text: &str, quote: bool) {
        Self::encode_json(text, quote, self);
    }

    #[inline]
    fn mark(&self) -> usize {
        self.len()
    }
}

/// Appends a ply's NAGs (not empty), a space between them.
fn push_nags(out: &mut String, nags: &[u32]) {
    for (i, n) in nags.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_int(out, i64::from(*n));
    }
}

/// A game's typed rows being written (`write_typed`): each table's rows
/// as columns, each column its values' codes ([`typed::code`]: 0 NULL,
/// else the value and 1: a number zigzagged, a boolean, a text's length)
/// and its text values one after another. Kept from game to game (one a
/// thread), its buffers used again.
///
/// Each table's columns are an array of their own, so that a row's
/// values, which come in the order of its columns with the table and
/// column known where each is written (`Row`, inlined), go to a column at
/// a fixed place: no index kept, looked up or checked a value. A moves
/// row's codes (the table of nearly every row) are cells of one array
/// (`row`: a byte each, at a fixed place), the row's cells added to the
/// game's (`grid`) at once as it ends, and made each column's codes once
/// the game is written ([`Columns::finish`]): a code pushed into a
/// column's own text each value (its room checked, its length stored)
/// was half of a moves row's instructions.
#[derive(Default)]
pub(crate) struct Columns {
    /// Whether the moves table has the `fen` column.
    fen: bool,
    /// Each table's rows.
    rows: [usize; 3],
    /// The games table's columns after its keys ([`KEYS`]).
    games: [ColumnText; GAMES.len() - KEYS[0]],
    /// The tags table's columns after its keys.
    tags: [ColumnText; TAGS.len() - KEYS[1]],
    /// The moves table's columns' text values after its keys, `fen` last
    /// (written where [`Columns::fen`] says); their codes are `grid`'s.
    moves: [String; ID_CELL],
    /// The moves row being written: each column's code as a cell
    /// ([`Columns::code`]), then its `ir` id's ([`IR_IDS`]).
    row: [u8; MOVE_CELLS],
    /// The game's moves rows' cells, a row after another.
    grid: Vec<u8>,
    /// Each moves column's codes of [`LONG_CELL`] or more, in row order
    /// (their cells are `LONG_CELL`).
    longs: [Vec<u64>; ID_CELL],
    /// A moves column's cells, gathered from `grid`
    /// ([`Columns::column_codes`]).
    gathered: Vec<u8>,
    /// Each moves column's last whole number in the game (0 before the
    /// first), which the next is written as the difference from
    /// ([`DELTAS`]).
    last: [i64; ID_CELL],
}

/// The table (an index of [`TABLES`]) whose whole numbers are written in
/// the typed rows as the difference from the value before in their
/// column and game (the first from 0; NULLs skipped): the moves table,
/// whose `seq`, `ply` and `number` go up by one or none from row to row,
/// a code of one byte each (a `seq` or `ply` past 55 took two).
pub(crate) const DELTAS: usize = 2;

/// The moves table's `ir` column, as an index of [`MOVES`]: before its
/// codes, the typed rows give each row's `ir` id ([`IR_IDS`]).
pub(crate) const IR_COLUMN: usize = 20;

/// The bytes of a moves row's `ir` id in the typed rows: six bits each,
/// the lowest first, each byte a column of the rows' bytes before the
/// `ir` column's codes ([`IR_COLUMN`]). An id is the move packed
/// ([`Move::packed`], of which the `ir` JSON is a function) where that is
/// under `2^30` (every chess move), else 0 (none): a reader may take a
/// row's `ir` value for an id it has seen with that value (the parquet
/// sink's dictionary: its bytes looked up once a row group).
pub(crate) const IR_IDS: usize = 5;

/// The cells of a moves row ([`Columns::row`]): its columns after the
/// key, `fen` among them, then its `ir` id's ([`IR_IDS`]).
const MOVE_CELLS: usize = MOVES.len() - KEYS[2] + IR_IDS;

/// The first cell of a moves row's `ir` id.
const ID_CELL: usize = MOVES.len() - KEYS[2];

/// A moves row's cell holds a code under it, itself (a code of one byte,
/// or of two under it: a `ply` to 119, a text to 238 bytes); a greater
/// code is kept apart ([`Columns::longs`]), its cell `LONG_CELL`.
const LONG_CELL: u64 = 0xf0;

/// One column of a game's typed rows ([`Columns`]) of the games and tags
/// tables.
#[derive(Default)]
struct ColumnText {
    /// Each value's code.
    codes: String,
    /// The text values, one after another.
    data: String,
}

impl Columns {
    /// Empties the columns for a game, the moves table's `fen` among them
    /// where `fen` asks.
    fn reset(&mut self, fen: bool) {
        self.fen = fen;
        self.rows = [0; 3];
        for c in self.games.iter_mut().chain(self.tags.iter_mut()) {
            c.codes.clear();
            c.data.clear();
        }
        for c in &mut self.moves {
            c.clear();
        }
        for l in &mut self.longs {
            l.clear();
        }
        self.grid.clear();
        self.last = [0; ID_CELL];
    }

    /// The moves table's columns after its key, as the game has them (the
    /// `fen` column where it is asked for).
    fn move_columns(&self) -> usize {
        columns(2, self.fen).len() - KEYS[2]
    }

    /// The text values of the column `column` of `table`: at a fixed
    /// place where both are known where it is written.
    #[inline(always)]
    fn data(&mut self, table: usize, column: usize) -> &mut String {
        match table {
            0 => &mut self.games[column - KEYS[0]].data,
            1 => &mut self.tags[column - KEYS[1]].data,
            _ => &mut self.moves[column - KEYS[2]],
        }
    }

    /// Writes the code of a value of the column `column` of `table`: a
    /// moves row's in its cell, another table's in its column's codes.
    #[inline(always)]
    fn code(&mut self, table: usize, column: usize, code: u64) {
        match table {
            0 => typed::code(&mut self.games[column - KEYS[0]].codes, code),
            1 => typed::code(&mut self.tags[column - KEYS[1]].codes, code),
            _ => {
                let c = column - KEYS[2];
                self.row[c] = match code < LONG_CELL {
                    true => code as u8,
                    false => self.long(c, code),
                };
            }
        }
    }

    /// Keeps a moves row's code of [`LONG_CELL`] or more of the column
    /// `c` (after the key): its cell's.
    #[cold]
    fn long(&mut self, c: usize, code: u64) -> u8 {
        self.longs[c].push(code);
        LONG_CELL as u8
    }

    /// Appends the game's columns to `out`: whether the moves table has
    /// the `fen` column, then for each table its rows' count, then each
    /// column's codes and its text ([`typed::Typed`] reads them).
    fn finish(&mut self, out: &mut String) {
        let (fen, rows) = (self.fen, self.rows);
        let moves = self.move_columns();
        let long_codes: usize = self.longs.iter().map(Vec::len).sum();
        let size: usize = self
            .games
            .iter()
            .chain(self.tags.iter())
            .map(|c| c.codes.len() + c.data.len())
            .chain(self.moves[..moves].iter().map(String::len))
            .sum::<usize>()
            + 2 * MOVE_CELLS * rows[2]
            + 11 * long_codes;
        // An empty `out` with too little room is made anew, not grown:
        // growing copies the whole of its old room, which holds nothing.
        match out.is_empty() && out.capacity() < size + 16 {
            true => *out = String::with_capacity(size + 16),
            false => out.reserve(size + 16),
        }
        typed::code(out, u64::from(fen));
        for (t, columns) in [&self.games[..], &self.tags[..]].iter().enumerate() {
            typed::code(out, rows[t] as u64);
            for c in columns.iter() {
                out.push_str(&c.codes);
                out.push_str(&c.data);
            }
        }
        typed::code(out, rows[2] as u64);
        debug_assert_eq!(
            self.grid.len(),
            rows[2] * MOVE_CELLS,
            "a moves row not ended"
        );
        for c in 0..moves {
            if c + KEYS[2] == IR_COLUMN {
                for id in ID_CELL..MOVE_CELLS {
                    self.column_codes(id, out);
                }
            }
            self.column_codes(c, out);
            out.push_str(&self.moves[c]);
        }
    }

    /// Appends the codes of the moves table's column `c` (after the key)
    /// to `out`: its cells gathered from the rows' at once
    /// ([`column_codes`]).
    fn column_codes(&mut self, c: usize, out: &mut String) {
        let gathered = &mut self.gathered;
        gathered.clear();
        gathered.extend(self.grid.chunks_exact(MOVE_CELLS).map(|row| row[c]));
        let longs = self.longs.get(c).map_or(&[][..], Vec::as_slice);
        column_codes(gathered, longs, out);
    }

    /// Puts the game's move fields' texts in their columns, whose rows
    /// gave only their codes ([`Out::placed`]): each field's values one
    /// after another ([`Fields::placed`]), swapped in whole. The fields
    /// are emptied.
    fn place(&mut self, fields: &mut Fields) {
        let first = columns(2, false)
            .iter()
            .position(|c| c.0 == "move")
            .unwrap_or_default();
        fields.drain_placed(|field, text| {
            let c = self.data(2, first + field as usize);
            debug_assert!(c.is_empty(), "a placed column's text written");
            std::mem::swap(c, text);
        });
    }

    /// Writes a text value.
    #[inline(always)]
    fn value(&mut self, table: usize, column: usize, v: &str) {
        self.code(table, column, v.len() as u64 + 1);
        push_short(self.data(table, column), v);
    }
}

/// Appends the codes of a moves column to `out`, from its `cells` (a
/// row's code under [`LONG_CELL`], else `LONG_CELL` and the code among
/// `longs`, in row order): the cells as they are where every one is
/// under [`typed::ONE_BYTE`] (most columns of most games), else a cell
/// at a time.
fn column_codes(cells: &[u8], longs: &[u64], out: &mut String) {
    // (The greatest cell, found many at a time.)
    let most = cells.iter().fold(0, |m, &b| m.max(b));
    if u64::from(most) < typed::ONE_BYTE {
        // Bytes under 0x80: ASCII, which the check finds many at a time.
        if let Ok(codes) = std::str::from_utf8(cells) {
            out.push_str(codes);
            return;
        }
    }
    // A cell of two bytes' code (under `LONG_CELL`) written here, as
    // `typed::code` writes it; a longer code by it.
    let two = char::from(typed::ONE_BYTE as u8 + 1);
    let mut longs = longs.iter();
    for &cell in cells {
        match u64::from(cell) {
            c if c < typed::ONE_BYTE => out.push(char::from(cell)),
            c if c < LONG_CELL => {
                out.push(two);
                out.push(char::from(cell - typed::ONE_BYTE as u8));
            }
            _ => typed::code(out, longs.next().copied().unwrap_or_default()),
        }
    }
}

impl Out for Columns {
    const ENC: Encoding = Encoding::Typed;

    #[inline(always)]
    fn start(&mut self, table: usize) {
        self.rows[table] += 1;
        if table == 2 {
            // No `ir` id until one is given (a row of no move).
            self.row[ID_CELL..MOVE_CELLS].fill(0);
        }
    }

    #[inline(always)]
    fn ir_id(&mut self, table: usize, id: u64) {
        if table == 2 && id < 1 << (6 * IR_IDS) {
            for (k, cell) in self.row[ID_CELL..MOVE_CELLS].iter_mut().enumerate() {
                *cell = (id >> (6 * k)) as u8 & 63;
            }
        }
    }

    #[inline(always)]
    fn end(&mut self, table: usize) {
        if table == 2 {
            self.grid.extend_from_slice(&self.row);
        }
    }

    #[inline(always)]
    fn null(&mut self, table: usize, column: usize) {
        self.code(table, column, 0);
    }

    #[inline(always)]
    fn int(&mut self, table: usize, column: usize, n: i64) {
        // A moves row's number as the difference from its column's before
        // ([`DELTAS`]).
        let n = match table {
            2 => {
                let last = &mut self.last[column - KEYS[2]];
                let d = n.wrapping_sub(*last);
                *last = n;
                d
            }
            _ => n,
        };
        // The tables' numbers are counts and move numbers: never
        // i64::MIN, whose code would need 65 bits (nor a difference of
        // them).
        debug_assert!(n != i64::MIN, "i64::MIN in a table");
        let code = typed::zigzag(n).saturating_add(1);
        self.code(table, column, code);
    }

    #[inline(always)]
    fn flag(&mut self, table: usize, column: usize, b: bool) {
        self.code(table, column, 1 + u64::from(b));
    }

    fn nags(&mut self, table: usize, column: usize, nags: &[u32]) {
        let data = self.data(table, column);
        let at = data.len();
        push_nags(data, nags);
        let len = data.len() - at;
        self.code(table, column, len as u64 + 1);
    }

    #[inline(always)]
    fn word(&mut self, table: usize, column: usize, v: &str) {
        self.value(table, column, v);
    }

    #[inline(always)]
    fn placed(&mut self, table: usize, column: usize, len: usize) {
        self.code(table, column, len as u64 + 1);
    }

    #[inline(always)]
    fn text(&mut self, table: usize, column: usize, v: &str, _: u8) {
        self.value(table, column, v);
    }

    fn encode_json(text: &str, _: bool, into: &mut String) {
        into.push_str(text);
    }

    #[inline(always)]
    fn encoded(&mut self, table: usize, column: usize, v: &str) {
        self.value(table, column, v);
    }

    fn json(&mut self, table: usize, column: usize, text: &str, _: bool) {
        self.value(table, column, text);
    }

    #[inline(always)]
    fn mark(&self) -> usize {
        0
    }
}

/// One row being written, a value at a time, into its [`Out`]. A text
/// that holds a NUL character is an error ([`CANNOT_HOLD`]), which no
/// database holds in text.
struct Row<'o, O: Out> {
    out: &'o mut O,
    /// The table, as an index of [`TABLES`].
    table: usize,
    /// The column of the next value.
    column: usize,
}

impl<'o, O: Out> Row<'o, O> {
    /// Starts a row of `table`.
    fn start(out: &'o mut O, table: usize) -> Row<'o, O> {
        out.start(table);
        Row {
            out,
            table,
            column: KEYS[table],
        }
    }

    /// Ends the row.
    fn end(self) {
        self.out.end(self.table);
    }

    /// Writes NULL.
    #[inline(always)]
    fn null(&mut self) {
        self.out.null(self.table, self.column);
        self.column += 1;
    }

    /// Writes a whole number.
    #[inline(always)]
    fn int(&mut self, n: i64) {
        self.out.int(self.table, self.column, n);
        self.column += 1;
    }

    /// Writes a boolean (`1` or `0`), or NULL.
    #[inline(always)]
    fn flag(&mut self, v: Option<bool>) {
        match v {
            Some(b) => {
                self.out.flag(self.table, self.column, b);
                self.column += 1;
            }
            None => self.null(),
        }
    }

    /// Writes a ply's NAGs, NULL for none.
    fn nags(&mut self, nags: &[u32]) {
        match nags.is_empty() {
            true => self.null(),
            false => {
                self.out.nags(self.table, self.column, nags);
                self.column += 1;
            }
        }
    }

    /// Writes text, or NULL.
    #[inline(always)]
    fn text(&mut self, v: Option<&str>) -> Result<(), Problem> {
        let Some(v) = v else {
            self.null();
            return Ok(());
        };
        // One look at each byte: whether it is quoted, whether it holds a
        // NUL (the values are short: a call each costs more).
        let class = classes(v.as_bytes());
        if class & NUL != 0 {
            return Err(cannot_hold(self.table, self.column));
        }
        self.out.text(self.table, self.column, v, class);
        self.column += 1;
        Ok(())
    }

    /// Writes text known to need no quoting and to hold no NUL, not
    /// empty (a move field of a game whose fields hold none:
    /// [`PlyRows::plain`]; a constant): as it is, with no error to give
    /// (a call to [`Row::text`] cost as much as the writing).
    #[inline(always)]
    fn word(&mut self, v: &str) {
        self.out.word(self.table, self.column, v);
        self.column += 1;
    }

    /// Writes a move field: as a [`Row::word`] where the game's fields
    /// are `plain` and it is not empty, else as [`Row::text`].
    #[inline(always)]
    fn move_field(&mut self, v: Option<&str>, plain: bool) -> Result<(), Problem> {
        match v {
            Some(v) if plain && !v.is_empty() => {
                self.word(v);
                Ok(())
            }
            v => self.text(v),
        }
    }

    /// Writes a move field `len` bytes long whose text is its column's
    /// already ([`Out::placed`]), or NULL.
    #[inline(always)]
    fn placed(&mut self, len: Option<usize>) {
        match len {
            Some(len) => {
                self.out.placed(self.table, self.column, len);
                self.column += 1;
            }
            None => self.null(),
        }
    }

    /// Writes a value as JSON, as the `json` format writes it.
    fn json(&mut self, v: &impl Serialize) -> Result<(), Problem> {
        put_json(&mut *self.out, self.table, self.column, v)?;
        self.column += 1;
        Ok(())
    }

    /// Writes a ply's move as JSON ([`Row::json`]), through the values
    /// kept ([`kept`]); `key` gives two move fields of it, which find its
    /// set where the move does not pack into a number ([`Move::packed`]).
    #[inline(always)]
    fn ir<'f>(&mut self, mv: &Move, key: impl FnOnce() -> [&'f str; 2]) -> Result<(), Problem> {
        put_ir(&mut *self.out, self.table, self.column, mv, key)?;
        self.column += 1;
        Ok(())
    }

    /// Writes comments as a JSON array, as the `json` format writes them;
    /// NULL for none (most plies' comments: no call made for them).
    #[inline(always)]
    fn comments(&mut self, comments: &[Comment]) -> Result<(), Problem> {
        if !comments.is_empty() {
            put_comments(&mut *self.out, self.table, self.column, comments)?;
        } else {
            self.out.null(self.table, self.column);
        }
        self.column += 1;
        Ok(())
    }
}

// What a row writes past its inlined values is written by the functions
// below, given the row's table and column as values: a `Row` is never
// borrowed past its own methods, so that where it is inlined its table and
// columns are known, each value going to its column's fixed place
// ([`Columns::column`]).

/// Writes a value as JSON into the column `column` of `table`
/// ([`Row::json`]).
fn put_json<O: Out>(
    out: &mut O,
    table: usize,
    column: usize,
    v: &impl Serialize,
) -> Result<(), Problem> {
    json_text::<O, _>(table, column, v, |text, quote| {
        out.json(table, column, text, quote)
    })
}

/// Writes comments (not none) as a JSON array into the column `column`
/// of `table` ([`Row::comments`]): put together from their texts where
/// none holds what JSON escapes ([`comments_json`]), else through
/// `serde_json` ([`put_json`]): the same text.
#[inline(never)]
fn put_comments<O: Out>(
    out: &mut O,
    table: usize,
    column: usize,
    comments: &[Comment],
) -> Result<(), Problem> {
    let written = COMMENTS.with_borrow_mut(|buf| {
        let done = comments_json(comments, O::ENC == Encoding::Csv, buf);
        if done {
            // A JSON array of objects holds quotes.
            out.json(table, column, buf, true);
        }
        done
    });
    match written {
        true => Ok(()),
        false => put_json(out, table, column, &comments),
    }
}

thread_local! {
    /// The JSON text put together from its parts: a ply's comments
    /// ([`comments_json`]), a move's `ir` ([`Move::json_parts`]). One
    /// buffer a thread, kept from value to value.
    static COMMENTS: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Puts comments' JSON array in `buf`, as `serde_json` writes it
/// (`[{"text":"...","kind":"line"}]`, the kind of a brace comment left
/// out; in a `csv` field each quote doubled, as [`JsonField`] writes it),
/// where no text holds a character JSON escapes (a quote, a backslash, a
/// control character): each text is then copied as it is. Gives false,
/// `buf` to be ignored, for comments of which one does (`serde_json`
/// writes them: [`Row::json`]).
fn comments_json(comments: &[Comment], csv: bool, buf: &mut String) -> bool {
    // What goes before a comment's text, and after it for each kind: as
    // JSON, then as a csv field's JSON (its quotes doubled).
    const PARTS: [[&str; 4]; 2] = [
        [
            r#"{"text":""#,
            r#""}"#,
            r#"","kind":"line"}"#,
            r#"","kind":"escape"}"#,
        ],
        [
            r#"{""text"":"""#,
            r#"""}"#,
            r#""",""kind"":""line""}"#,
            r#""",""kind"":""escape""}"#,
        ],
    ];
    let [before, brace, line, escape] = PARTS[usize::from(csv)];
    buf.clear();
    buf.push('[');
    for (i, c) in comments.iter().enumerate() {
        let text = c.text.as_str();
        // Looked at whole (no early exit), so that it is done a word of
        // bytes at a time.
        let escaped = text
            .bytes()
            .fold(false, |e, b| e | (b < 0x20) | (b == b'"') | (b == b'\\'));
        if escaped {
            return false;
        }
        if i > 0 {
            buf.push(',');
        }
        buf.push_str(before);
        buf.push_str(text);
        buf.push_str(match c.kind {
            CommentKind::Brace => brace,
            CommentKind::Line => line,
            CommentKind::Escape => escape,
        });
    }
    buf.push(']');
    true
}

/// The error of a text of `column` of `table` that holds a NUL character.
#[cold]
fn cannot_hold(table: usize, column: usize) -> Problem {
    let name = columns(table, true)[column].0;
    Problem::whole(format!(
        "cannot be written in the database tables (csv, parquet): the {} table's \
         `{name}` holds a NUL character (U+0000), which database text cannot hold",
        TABLES[table]
    ))
    .of_kind(CANNOT_HOLD)
}

/// Serializes a value as JSON, as the `json` format writes it (in a csv
/// field its quotes doubled: [`JsonField`]), into the thread's buffer
/// ([`JSON`]), and gives its text and whether it holds a quote or a comma
/// to `put`; a value of `column` of `table` that holds a NUL character is
/// the error [`CANNOT_HOLD`].
fn json_text<O: Out, R>(
    table: usize,
    column: usize,
    v: &impl Serialize,
    put: impl FnOnce(&str, bool) -> R,
) -> Result<R, Problem> {
    JSON.with_borrow_mut(|buf| {
        buf.clear();
        let mut seen = Seen::default();
        let mut json = serde_json::Serializer::with_formatter(
            &mut *buf,
            JsonField {
                csv: O::ENC == Encoding::Csv,
                seen: &mut seen,
            },
        );
        v.serialize(&mut json)
            .map_err(|e| Problem::whole(e.to_string()).of_kind(crate::error::Kind::Internal))?;
        if seen.nul {
            return Err(cannot_hold(table, column));
        }
        let text = std::str::from_utf8(buf)
            .map_err(|e| Problem::whole(e.to_string()).of_kind(crate::error::Kind::Internal))?;
        Ok(put(text, seen.quote))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Origin;

    #[test]
    fn numbers_are_written_as_decimal() {
        for n in [
            0i64,
            7,
            -7,
            10,
            99,
            100,
            -100,
            999,
            1000,
            1234567890,
            i64::MAX,
            i64::MIN,
        ] {
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

    /// A row of text values (`None`: NULL) of `table`.
    fn text_row(out: &mut impl Out, table: usize, values: &[Option<String>]) {
        let mut row = Row::start(out, table);
        for v in values {
            row.text(v.as_deref()).unwrap();
        }
        row.end();
    }

    proptest::proptest! {
        /// Any row of text values reads back the same from the csv fields
        /// (through the csv reader's `next_field`).
        #[test]
        fn any_row_reads_back_from_the_csv_fields(
            values in proptest::collection::vec(value(), 1..8)
        ) {
            let mut csv = String::new();
            text_row(&mut csv, 1, &values);
            let mut back = Vec::new();
            let (mut at, mut more) = (TABLES[1].len() + 1, true);
            while more {
                let (v, next, m) = crate::interchange::csv::next_field(&csv, at).unwrap();
                back.push(v.map(|v| v.into_owned()));
                (at, more) = (next, m);
            }
            // csv writes the empty string quoted, NULL as nothing.
            proptest::prop_assert_eq!(&back, &values, "{:?}", csv);
        }
    }

    /// A value of a column of `kind`: NULL, or one of its type (whole
    /// numbers of any size, flags, text of the characters that matter to
    /// the encodings and of several bytes, long text), as text.
    fn value_of(kind: Kind) -> proptest::strategy::BoxedStrategy<Option<String>> {
        use proptest::prelude::*;
        let value = match kind {
            // Any number of the tables (i64::MIN is none: `Columns::int`),
            // those whose codes take one, two or three bytes among them.
            // (The moves table's are written as differences, which a
            // number past 2^62 either way could take past 64 bits.)
            Kind::Integer => prop_oneof![-130i64..130, -(1i64 << 62)..(1i64 << 62)]
                .prop_map(|n| n.to_string())
                .boxed(),
            Kind::Boolean => prop_oneof![Just("0".to_string()), Just("1".to_string())].boxed(),
            Kind::Text | Kind::Json => prop_oneof![
                "[a,\"\r\n= \u{e9}\u{1F600}]{0,12}",
                "[ab]{60,70}",
                "[ab]{105,120}",
                "c{230,245}",
                "x{4000,5000}",
            ]
            .boxed(),
        };
        proptest::option::weighted(0.8, value).boxed()
    }

    /// Rows of each table (any number, none too; the moves table's past
    /// eight and sixteen, as its cells are turned into columns), each
    /// value of its column's kind (after the keys).
    fn typed_tables() -> impl proptest::strategy::Strategy<Value = [Vec<Vec<Option<String>>>; 3]> {
        use proptest::prelude::*;
        let table = |t: usize| {
            let row: Vec<_> = columns(t, false)[KEYS[t]..]
                .iter()
                .map(|c| value_of(c.1))
                .collect();
            proptest::collection::vec(row, 0..[4, 4, 20][t])
        };
        (table(0), table(1), table(2)).prop_map(|(a, b, c)| [a, b, c])
    }

    /// Writes `rows` as a game's typed rows ([`Columns`]), each value of
    /// its column's kind.
    fn typed_text(tables: &[Vec<Vec<Option<String>>>; 3]) -> String {
        let mut cols = Columns::default();
        cols.reset(false);
        for (t, rows) in tables.iter().enumerate() {
            for values in rows {
                let mut row = Row::start(&mut cols, t);
                for (v, c) in values.iter().zip(&columns(t, false)[KEYS[t]..]) {
                    match (v, c.1) {
                        (None, _) => row.null(),
                        (Some(v), Kind::Integer) => row.int(v.parse().unwrap()),
                        (Some(v), Kind::Boolean) => row.flag(Some(v == "1")),
                        (Some(v), _) => row.text(Some(v)).unwrap(),
                    }
                }
                row.end();
            }
        }
        let mut text = String::new();
        cols.finish(&mut text);
        text
    }

    proptest::proptest! {
        /// Any rows of the three tables read back the same from the typed
        /// rows (`typed_rows`, after their keys), and the text is UTF-8
        /// whatever the values.
        #[test]
        fn any_rows_read_back_from_the_typed_rows(tables in typed_tables()) {
            let text = typed_text(&tables);
            let origin = Origin { source: "s", index: 7, bytes: b"" };
            let mut got: [Vec<Vec<Option<String>>>; 3] = Default::default();
            typed_rows(&text, &origin, "id", |t, v| {
                let keys: Vec<_> = v[..KEYS[t]].iter().map(|k| k.unwrap()).collect();
                assert_eq!(keys, ["id", "s", "7"][..KEYS[t]]);
                got[t].push(v[KEYS[t]..].iter().map(|v| v.map(String::from)).collect());
                Ok(())
            })
            .unwrap();
            proptest::prop_assert_eq!(got, tables);
        }
    }

    proptest::proptest! {
        /// Any moves rows' `ir` ids read back from the typed rows, in
        /// their columns before the `ir` column's codes; an id past
        /// [`IR_IDS`]' bits, or none given, reads as 0.
        #[test]
        fn ir_ids_read_back(ids in proptest::collection::vec(
            proptest::option::weighted(0.8, proptest::prop_oneof![0u64..5000, 0u64..(1 << 31)]),
            0..30,
        )) {
            let mut cols = Columns::default();
            cols.reset(false);
            for id in &ids {
                let mut row = Row::start(&mut cols, 2);
                for _ in KEYS[2]..MOVES_PLAIN {
                    row.null();
                }
                if let Some(id) = id {
                    row.out.ir_id(2, *id);
                }
                row.end();
            }
            let mut text = String::new();
            cols.finish(&mut text);
            let n = ids.len();
            let mut typed = Typed::new(&text);
            proptest::prop_assert!(!typed.fen().unwrap());
            proptest::prop_assert_eq!(typed.code().unwrap(), 0);
            proptest::prop_assert_eq!(typed.code().unwrap(), 0);
            proptest::prop_assert_eq!(typed.code().unwrap(), n as u64);
            for _ in KEYS[2]..IR_COLUMN {
                proptest::prop_assert!(typed.byte_codes(n).unwrap().iter().all(|&c| c == 0));
            }
            let cells = typed.ir_ids(n).unwrap();
            let got: Vec<u64> = (0..n)
                .map(|r| (0..IR_IDS).map(|k| u64::from(cells[k * n + r]) << (6 * k)).sum())
                .collect();
            let want: Vec<u64> = ids
                .iter()
                .map(|id| id.filter(|&id| id < 1 << (6 * IR_IDS)).unwrap_or(0))
                .collect();
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert!(typed.byte_codes(n).unwrap().iter().all(|&c| c == 0));
            proptest::prop_assert!(typed.done());
        }
    }

    /// The moves table's `ir` column is where [`IR_COLUMN`] says.
    #[test]
    fn the_ir_column_is_where_its_ids_go() {
        assert_eq!(MOVES[IR_COLUMN].0, "ir");
    }

    /// Typed rows cut short, or with a code of no number, are an error,
    /// never a panic nor a value read from outside them.
    #[test]
    fn typed_rows_cut_anywhere_are_an_error() {
        let row = |v: &str| {
            vec![
                Some("1".to_string()),
                Some("a".to_string()),
                Some(v.to_string()),
            ]
        };
        let text = typed_text(&[vec![], vec![row("x"), row(&"long".repeat(40))], vec![]]);
        let origin = Origin {
            source: "s",
            index: 1,
            bytes: b"",
        };
        let ok = |t: &str| typed_rows(t, &origin, "id", |_, _| Ok(())).is_ok();
        assert!(ok(&text));
        for end in 0..text.len() {
            assert!(!ok(&text[..end]), "{:?}", &text[..end]);
        }
        assert!(!ok(&format!("{text}x")));
        let mut bad = text.clone().into_bytes();
        bad[0] = 0xff;
        assert!(!ok(&String::from_utf8_lossy(&bad)));
    }

    /// A ply's `ir` written through the values kept (`kept`) is its move's
    /// JSON: every move of a game, each twice, in both encodings, is
    /// written as `Row::json` writes it (a move kept is used only for an
    /// equal move, in its encoding; `kept`'s tests put any moves, packed
    /// or not, in one set).
    #[test]
    fn the_ir_kept_is_used_only_for_an_equal_move() {
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 \
                    7. Nxd4 c5 8. Nb3 Qxd1 9. Rxd1 Bg4 10. f3 Be6 11. Nc3 Bd6 *";
        let game = crate::family::chess::pgn::read(text, &crate::codec::ReadOptions::default())
            .unwrap()
            .game;
        let mut hits = 0;
        let kept = |enc: Encoding, mv: &Move| kept::holds(["same", "slot"], enc, mv);
        for ply in &game.moves.plies {
            for _ in 0..2 {
                let want = csv_value(|row| row.json(&ply.mv).unwrap());
                hits += usize::from(kept(Encoding::Csv, &ply.mv));
                let got = csv_value(|row| row.ir(&ply.mv, || ["same", "slot"]).unwrap());
                assert_eq!(got, want, "{:?}", ply.mv);
            }
            for _ in 0..2 {
                let want = typed_value(|row| row.json(&ply.mv).unwrap());
                hits += usize::from(kept(Encoding::Typed, &ply.mv));
                let got = typed_value(|row| row.ir(&ply.mv, || ["same", "slot"]).unwrap());
                assert_eq!(got, want, "{:?}", ply.mv);
            }
        }
        // Each encoding's second writing of a move finds it kept, the
        // first does not (the other encoding's text is not its own).
        assert_eq!(hits, 2 * game.moves.plies.len());
        let a = csv_value(|row| row.ir(&game.moves.plies[0].mv, || ["e2e4", "P"]).unwrap());
        let b = csv_value(|row| row.ir(&game.moves.plies[0].mv, || ["e2e4", "P"]).unwrap());
        assert_eq!(a, b);
        assert!(kept::holds(
            ["e2e4", "P"],
            Encoding::Csv,
            &game.moves.plies[0].mv
        ));
    }

    /// The text `write` writes as the moves table's `ir` (one value) in
    /// the csv rows.
    fn csv_value(write: impl FnOnce(&mut Row<'_, String>)) -> String {
        let mut out = String::new();
        let mut row = Row {
            out: &mut out,
            table: 2,
            column: 20,
        };
        write(&mut row);
        assert_eq!(row.column, 21);
        out
    }

    /// The value `write` writes as the moves table's `ir` (one value) in
    /// the typed rows: its text, after its code says its length.
    fn typed_value(write: impl FnOnce(&mut Row<'_, Columns>)) -> String {
        let mut cols = Columns::default();
        cols.reset(false);
        // (No code's cell: nothing is written where the value fails.)
        cols.row[19] = u8::MAX;
        let mut row = Row {
            out: &mut cols,
            table: 2,
            column: 20,
        };
        write(&mut row);
        assert_eq!(row.column, 21);
        let data = cols.data(2, 20).clone();
        let code = match u64::from(cols.row[19]) {
            0xff => None,
            LONG_CELL => cols.longs[19].last().copied(),
            cell => Some(cell),
        };
        if let Some(code) = code {
            assert_eq!(code, data.len() as u64 + 1);
        }
        data
    }

    /// Any comments: texts of the characters that matter to csv and to
    /// JSON's escapes (quotes, commas, backslashes, line ends, controls,
    /// NUL) or of none of them, of each kind.
    fn any_comments() -> impl proptest::strategy::Strategy<Value = Vec<Comment>> {
        use proptest::prelude::*;
        let text = prop_oneof![
            "[a-z0-9 %:\\[\\].=\u{e9}\u{1F600}]{0,12}",
            "[a,\"\\\\\r\n\t\u{0}\u{1}\u{7f} =\u{e9}]{0,6}",
        ];
        let kind = prop_oneof![
            Just(CommentKind::Brace),
            Just(CommentKind::Line),
            Just(CommentKind::Escape),
        ];
        let comment = (text, kind).prop_map(|(text, kind)| Comment {
            text: text.into(),
            kind,
        });
        proptest::collection::vec(comment, 1..4)
    }

    proptest::proptest! {
        /// Comments written into a row (put together where no text needs
        /// escaping) are the text `serde_json` writes for them, in a csv
        /// field and as a typed value; one that holds a NUL character is
        /// the error the tables give.
        #[test]
        fn comments_written_into_a_row_are_serde_json_text(comments in any_comments()) {
            // A value that fails moves the row on as one written does.
            fn put<O: Out>(
                row: &mut Row<'_, O>,
                write: impl FnOnce(&mut Row<'_, O>) -> Result<(), Problem>,
            ) -> Result<(), Problem> {
                let done = write(row);
                if done.is_err() {
                    row.column += 1;
                }
                done
            }
            let (mut csv, mut typed, mut csv_want) = (Ok(()), Ok(()), Ok(()));
            let got = csv_value(|row| csv = put(row, |r| r.comments(&comments)));
            let want = csv_value(|row| csv_want = put(row, |r| r.json(&comments)));
            let typed_got = typed_value(|row| typed = put(row, |r| r.comments(&comments)));
            let typed_want = typed_value(|row| {
                let _ = put(row, |r| r.json(&comments));
            });
            match csv_want {
                Ok(()) => {
                    csv.unwrap();
                    typed.unwrap();
                    proptest::prop_assert_eq!(got, want);
                    proptest::prop_assert_eq!(typed_got, typed_want);
                }
                Err(e) => {
                    proptest::prop_assert_eq!(csv.unwrap_err().message, e.message.clone());
                    proptest::prop_assert_eq!(typed.unwrap_err().message, e.message);
                }
            }
        }
    }

    /// Any JSON value: strings of the characters that matter to csv and to
    /// JSON's escapes (quotes, commas, backslashes, line ends, controls,
    /// NUL), numbers, and arrays and objects of them.
    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        use serde_json::Value as J;
        let text = "[a,\"\\\r\n\u{0}\u{1}\u{7f} =\u{e9}\u{1F600}]{0,6}";
        let leaf = prop_oneof![
            Just(J::Null),
            any::<bool>().prop_map(J::Bool),
            any::<i64>().prop_map(J::from),
            (-1e6f64..1e6).prop_map(J::from),
            text.prop_map(J::String),
        ];
        leaf.prop_recursive(3, 24, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(J::Array),
                proptest::collection::btree_map(text, inner, 0..4)
                    .prop_map(|m| J::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Whether a JSON value holds a NUL character, in a string or a key.
    fn holds_nul(v: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match v {
            J::String(s) => s.contains('\0'),
            J::Array(a) => a.iter().any(holds_nul),
            J::Object(o) => o.iter().any(|(k, v)| k.contains('\0') || holds_nul(v)),
            _ => false,
        }
    }

    proptest::proptest! {
        /// A JSON value written straight into a row is the text of
        /// `serde_json::to_string` as a csv field (quoted where it must
        /// be, its quotes doubled) and as a typed value; one that holds a
        /// NUL character is the error the tables give.
        #[test]
        fn json_written_into_a_row_is_serde_json_text_quoted(v in json_value()) {
            let text = serde_json::to_string(&v).unwrap();
            let mut csv = Ok(());
            let got = csv_value(|row| {
                csv = row.json(&v);
                if csv.is_err() {
                    row.column += 1;
                }
            });
            let mut typed = Ok(());
            let typed_got = typed_value(|row| {
                typed = row.json(&v);
                if typed.is_err() {
                    row.column += 1;
                }
            });
            if holds_nul(&v) {
                for e in [csv.unwrap_err(), typed.unwrap_err()] {
                    proptest::prop_assert_eq!(e.kind, CANNOT_HOLD);
                    proptest::prop_assert!(e.message.contains("`ir`"), "{}", e.message);
                }
                return Ok(());
            }
            csv.unwrap();
            typed.unwrap();
            let mut want = String::from(",");
            field(&mut want, Some(&text));
            proptest::prop_assert_eq!(&got, &want);
            proptest::prop_assert_eq!(&typed_got, &text);
        }
    }
}
