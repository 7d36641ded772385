//! `parquet`: the `csv` tables as Apache Parquet files in a folder,
//! `games.parquet`, `tags.parquet` and `moves.parquet` (written only).
//!
//! The rows are the csv tables' own: the writer is
//! [`rows::write_typed`], whose typed rows (a game's columns, read by
//! `rows::Typed`) [`ParquetSink`] adds to their tables' columns with the same key
//! (`csv::GameIds`), so both have one set of columns
//! (`rows::columns`, `fen` among them with `--to-opt fen=true`).
//! Each column is typed from its kind: integers as `INT64`, booleans as
//! `BOOLEAN`, text and JSON as UTF-8 strings; a column that may be NULL
//! is `OPTIONAL`. Rows are kept a row group at a time
//! ([`ROW_GROUP_ROWS`], [`ROW_GROUP_BYTES`]), then written, compressed
//! with Zstandard: memory is bounded on any input. Each file is written to
//! a temporary file beside it and put in place when it is complete, as
//! every output is ([`OutFile`]).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{
    Compression, Encoding, LogicalType, PageType, Repetition, Type as Physical, ZstdLevel,
};
use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::file::metadata::{ColumnChunkMetaData, PageEncodingStats};
use parquet::file::page_index::offset_index::{OffsetIndexMetaData, PageLocation};
use parquet::file::properties::WriterProperties;
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, Type};

use crate::codec::{Folder, Games, Origin, Oversize, Scan, Tables, WriteOptions};
use crate::error::Error;
use crate::interchange::csv;
use crate::interchange::rows::{self, columns, Column, Kind, Typed};
use crate::output::{OutFile, Output};

mod chunks;
mod dict;
mod encode;
mod lanes;
mod levels;
use chunks::*;
use dict::{Code, Dict};
use encode::{add_bytes, delta_binary_packed, eights, rle_hybrid};
use lanes::{each, Ints, Lane};
use levels::Levels;

/// The table files of a folder, in the order of [`TABLES`](crate::interchange::rows::TABLES).
pub const FILES: [&str; 3] = ["games.parquet", "tags.parquet", "moves.parquet"];

/// A table's rows are written as a row group once it holds this many...
pub const ROW_GROUP_ROWS: usize = 100_000;

/// ... or holds this many bytes (a dictionary column's
/// indices and distinct values, each other value's bytes and place).
pub const ROW_GROUP_BYTES: usize = 8 << 20;

/// The rows a row group's columns have room for: [`ROW_GROUP_ROWS`] and
/// the rows of the game that passes it (a row group is written after the
/// game that fills it: the mixed chess file's hold 100,020 and 100,035
/// moves rows). Room for exactly `ROW_GROUP_ROWS` was outgrown by every
/// full row group's last game: each column's levels, indices and numbers
/// then copied into twice the room, memory touched anew (page faults).
/// A game of more rows still grows them, once.
const ROW_GROUP_ROOM: usize = ROW_GROUP_ROWS + 4_096;

/// The moves table, as an index of [`TABLES`].
const MOVES: usize = 2;

/// The Zstandard level: 1, its fastest (level 3, the command-line tool's
/// default, made the mixed chess file's moves table 2% smaller, 4.22 MB
/// against 4.31 MB, for 2% more of the run's instructions).
const ZSTD_LEVEL: i32 = 1;

/// The scan of the `parquet` format: its records are never read (kifu
/// writes parquet only); it says the format is kept as a folder.
#[derive(Debug)]
pub struct ParquetScan;

impl Scan for ParquetScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        csv::TableScan.end(data, eof)
    }

    fn oversize(&self) -> Oversize {
        csv::TableScan.oversize()
    }

    fn folder(&self) -> Option<&'static dyn Folder> {
        Some(&ParquetFolder)
    }
}

/// The folder of the `parquet` tables.
#[derive(Debug)]
pub struct ParquetFolder;

impl Folder for ParquetFolder {
    fn files(&self, dir: &Path) -> Vec<PathBuf> {
        FILES.iter().map(|f| dir.join(f)).collect()
    }

    fn open(&self, dir: &Path) -> io::Result<Box<dyn io::Read + Send>> {
        Err(io::Error::other(format!(
            "{}: kifu writes parquet tables but does not read them (read the csv tables)",
            dir.display()
        )))
    }

    fn create(&self, dir: &Path, opts: &WriteOptions) -> Result<Box<dyn Tables>, Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let name = dir.display().to_string();
        let fen = rows::options(opts).fen;
        let mut tables = Vec::with_capacity(3);
        for (t, file) in FILES.iter().enumerate() {
            let path = dir.join(file);
            let out = OutFile::create(&path)?;
            tables.push(Table::new(t, columns(t, fen), out).map_err(|e| Error::io(&path, e))?);
        }
        let Ok(tables) = <[Table; 3]>::try_from(tables) else {
            unreachable!("three tables");
        };
        Ok(Box::new(ParquetSink {
            tables,
            chunks: TextChunks::new().map_err(|e| Error::io(dir, e))?,
            name,
            ids: csv::GameIds::default(),
        }))
    }

    fn stream(&self, _out: Output, name: String, _: &WriteOptions) -> Box<dyn Tables> {
        Box::new(Refused(name))
    }
}

/// Parquet tables asked for on one stream (standard output, `-o`): they
/// are three files, written with `--out-dir`.
struct Refused(String);

impl Refused {
    fn error(&self) -> io::Error {
        io::Error::other("the parquet tables are three files: write them with --out-dir DIR")
    }
}

impl Games for Refused {
    fn game(&mut self, _: &str, _: &Origin<'_>) -> io::Result<()> {
        Err(self.error())
    }
    fn name(&self) -> &str {
        &self.0
    }
}

impl Tables for Refused {
    fn commit(self: Box<Self>) -> Result<(), Error> {
        Err(Error::io(&self.0, self.error()))
    }
}

/// The values of one column of a row group, with their definition levels
/// (1 a value, 0 NULL) where the column may be NULL.
enum Values {
    /// `INT64`, each as narrow as the column's values allow ([`Ints`]).
    Int(Ints),
    /// `BOOLEAN`.
    Bool(Vec<bool>),
    /// UTF-8 strings through a dictionary (the values are
    /// [`Filling::dict`]'s).
    Text,
    /// UTF-8 strings `PLAIN`, written a page at a time as they come
    /// ([`Paged`]).
    Paged(Paged),
}

/// Where a value is in a column's text: its start and end.
type Span = (u32, u32);

/// A key of a game's rows, which the sink gives (`rows::KEYS`): its
/// `game_id`, and for the games row its source and index.
#[derive(Clone, Copy)]
enum Key<'a> {
    /// Text, looked up in its column's dictionary (a game's source).
    Text(&'a str),
    /// Text of this game alone (its `game_id`: `csv::GameIds` gives each
    /// record its own), new to its column's dictionary in each table:
    /// added without a look-up.
    Id(&'a str),
    Int(i64),
}

/// One column being filled.
struct Filling {
    values: Values,
    /// Definition levels, for a column that may be NULL: a bit each, made
    /// bytes where its pages are written ([`Levels`]).
    levels: Option<Levels>,
    /// How kifu writes its chunks ([`TextChunks`]): through a dictionary
    /// or not.
    own: Own,
    /// A dictionary column's values ([`Own::Dictionary`]): its distinct
    /// values and each row's index.
    dict: Option<Dict>,
    /// Whether a text column's chunks have statistics
    /// ([`text_statistics`]).
    stats: bool,
    /// Whether the typed rows give its values' ids before their codes
    /// (the moves table's `ir`, [`rows::IR_IDS`]): a value is then looked
    /// up by its bytes once a row group ([`Dict::push_all`]).
    ids: bool,
    /// Whether the typed rows give its whole numbers as the difference
    /// from the one before (the moves table's, [`rows::DELTAS`]).
    deltas: bool,
}

/// How kifu writes a text column's chunks ([`TextChunks`]).
#[derive(Clone, Copy)]
enum Own {
    /// Each value's index in the chunk's dictionary.
    Dictionary,
    /// Each value as it is.
    Plain,
}

impl Filling {
    /// A column with room for a row group's rows ([`ROW_GROUP_ROOM`]): its
    /// levels, its values or a dictionary's indices are not grown by
    /// doubling, each time copied (a vector's room is reserved, not
    /// written: the memory a row group does not fill is not used); nor
    /// are a dictionary's values (room for a dictionary page,
    /// [`DICTIONARY_BYTES`]): grown, each was copied into memory touched
    /// anew (a page fault a page), its room taken where the column's
    /// other vectors lie. A text column with no dictionary keeps a page
    /// of its values, not a row group's ([`Paged`]).
    fn new(kind: Kind, not_null: bool, own: Own, stats: bool) -> Filling {
        let rows = ROW_GROUP_ROOM;
        let dict = matches!(own, Own::Dictionary).then(|| {
            let mut dict = Dict::default();
            dict.indices = lanes::Indices::with_capacity(rows);
            dict.data.reserve(DICTIONARY_BYTES);
            dict.ends.reserve(rows);
            dict
        });
        Filling {
            values: match (kind, &dict) {
                (Kind::Integer, _) => Values::Int(Ints::with_capacity(rows)),
                (Kind::Boolean, _) => Values::Bool(Vec::with_capacity(rows)),
                (_, Some(_)) => Values::Text,
                (_, None) => Values::Paged(Paged::new()),
            },
            levels: (!not_null).then(|| Levels::with_capacity(rows)),
            own,
            dict,
            stats,
            ids: false,
            deltas: false,
        }
    }

    /// Writes the column's values as a chunk ([`TextChunks`]) into
    /// `group` and empties it.
    fn write(
        &mut self,
        chunks: &mut TextChunks,
        descr: &ColumnDescPtr,
        group: &mut parquet::file::writer::SerializedRowGroupWriter<'_, OutFile>,
    ) -> parquet::errors::Result<()> {
        let (bytes, close) = match (&mut self.dict, &mut self.values) {
            (None, Values::Paged(paged)) => {
                debug_assert!(matches!(self.own, Own::Plain) && !self.stats);
                chunks.paged_chunk(descr.clone(), paged, self.levels.as_ref())?
            }
            (dict, values) => {
                // The levels as bytes, in the writer's one buffer for them.
                let mut bytes = std::mem::take(&mut chunks.levels);
                let levels = self
                    .levels
                    .as_ref()
                    .map(|l| l.bytes(0..l.len(), &mut bytes));
                let chunk = match dict {
                    Some(dict) => chunks.dictionary_chunk(descr.clone(), dict, levels, self.stats),
                    None => chunks.numbers(descr.clone(), values, levels),
                };
                chunks.levels = bytes;
                chunk?
            }
        };
        group.append_column(&bytes, close)?;
        // The chunk's memory kept for the next (a paged column's its own).
        match &mut self.values {
            Values::Paged(paged) => paged.kept = reclaim(bytes),
            _ => chunks.reuse(bytes),
        }
        match &mut self.values {
            Values::Int(v) => v.clear(),
            Values::Bool(v) => v.clear(),
            Values::Text | Values::Paged(_) => {}
        }
        if let Some(dict) = &mut self.dict {
            dict.clear();
        }
        if let Some(l) = &mut self.levels {
            l.clear();
        }
        Ok(())
    }

    /// Adds `n` rows of the value `key`: the bytes the row group holds
    /// for them more ([`Filling::read`]); `None` where it is not of the
    /// column's type (a bug).
    fn key(&mut self, key: Key<'_>, n: usize, chunks: &mut TextChunks) -> Option<usize> {
        let Filling {
            values,
            levels,
            dict,
            ..
        } = self;
        if let Some(levels) = levels {
            levels.ones(n);
        }
        let held = match (values, key, dict) {
            (Values::Text, Key::Text(v) | Key::Id(v), Some(dict)) => {
                let before = dict.data.len();
                match key {
                    Key::Id(_) => dict.push_new(v.as_bytes(), n).ok()?,
                    _ => dict.push_n(v.as_bytes(), n).ok()?,
                }
                dict.data.len() - before + 4 * n
            }
            (Values::Paged(paged), Key::Text(v) | Key::Id(v), None) => {
                for _ in 0..n {
                    paged
                        .push(Some(v.as_bytes()), chunks, levels.as_ref())
                        .ok()?;
                }
                v.len() + 8 * n
            }
            (Values::Int(values), Key::Int(v), _) => {
                values.push_n(v, n);
                8 * n
            }
            _ => return None,
        };
        Some(held)
    }

    /// Adds a game's `n` values of the column, read from `typed` (its
    /// codes, then for text its values' text, copied at once); gives the
    /// bytes the row group holds for them more (its size,
    /// [`ROW_GROUP_BYTES`]): a text value's bytes and 8 (its place), a
    /// number's 8, but a dictionary column's values 4 each (an index) and
    /// the bytes of those new to its dictionary. A NULL where the column
    /// has none, or a code of no value of its type, is an error (a bug).
    fn read(
        &mut self,
        typed: &mut Typed<'_>,
        n: usize,
        name: &str,
        codes: &mut Vec<u64>,
        chunks: &mut TextChunks,
    ) -> io::Result<usize> {
        let ids = match self.ids {
            true => Some(typed.ir_ids(n)?),
            false => None,
        };
        // Most games' codes of a column are a byte each: read where they
        // lie, else widened.
        match typed.byte_codes(n) {
            Some(bytes) => self.fill(typed, bytes, ids, name, chunks),
            None => {
                typed.codes_into(n, codes)?;
                self.fill(typed, codes, ids, name, chunks)
            }
        }
    }

    /// [`Filling::read`] of the `codes` read.
    #[inline(always)]
    fn fill<C: Code>(
        &mut self,
        typed: &mut Typed<'_>,
        codes: &[C],
        ids: Option<&[u8]>,
        name: &str,
        chunks: &mut TextChunks,
    ) -> io::Result<usize> {
        let Filling {
            values,
            levels,
            dict,
            deltas,
            ..
        } = self;
        // 0 is NULL: a definition level of 0, or an error where the
        // column has none.
        let nulls = C::zeros(codes);
        let n = codes.len();
        let mut bad = match levels {
            Some(l) => {
                l.extend(codes, nulls);
                false
            }
            None => nulls > 0,
        };
        // The text values' lengths, together: each code not NULL is its
        // value's length and 1.
        let text_len = || {
            C::sum(codes)
                .map(|t| t - (n - nulls))
                .ok_or_else(|| rows::bug("a column's text past counting"))
        };
        let added = match (values, dict) {
            // Each value looked up in the dictionary where it lies in the
            // game's text, the distinct ones alone copied.
            (Values::Text, Some(dict)) => {
                let total = text_len()?;
                let rest = typed.rest();
                typed.text(total)?;
                let before = dict.data.len();
                // (A game's column of NULLs alone has no value to add.)
                if nulls < n {
                    dict.push_all(rest, total, codes, ids)?;
                }
                dict.data.len() - before + 4 * (n - nulls)
            }
            (Values::Int(v), _) if *deltas => {
                // Each code a difference's zigzag and 1 (NULL none): the
                // numbers added up into their column. A sum of `n` of them
                // is at most `n` times the greatest difference either way,
                // its reach (zigzag) at most `n` times the greatest code
                // and 1 (the greatest found many at a time).
                let step = |c: u64| rows::unzigzag(c.wrapping_sub(1));
                let most = codes.iter().fold(0, |m, &c| m.max(c.wide()));
                let reach = most.saturating_mul(n as u64).saturating_add(1);
                let mut sum = 0i64;
                let mut add = |c: u64| {
                    sum = sum.wrapping_add(step(c));
                    sum
                };
                each!(v.fit(reach), v => match nulls {
                    0 => fill_from(v, n, codes.iter().map(|&c| Lane::narrow(add(c.wide())))),
                    _ => {
                        let values = codes.iter().map(|&c| c.wide()).filter(|&c| c != 0);
                        fill_from(v, n - nulls, values.map(|c| Lane::narrow(add(c))));
                    }
                });
                8 * (n - nulls)
            }
            (Values::Int(v), _) => {
                // A code is a number's zigzag and 1: its reach.
                let reach = C::most(codes).saturating_sub(1);
                let number = |c: u64| rows::unzigzag(c.wrapping_sub(1));
                each!(v.fit(reach), v => match nulls {
                    // No NULL (most games' columns): each code a value,
                    // many at a time.
                    0 => fill_from(v, n, codes.iter().map(|&c| Lane::narrow(number(c.wide())))),
                    _ => {
                        let values = codes.iter().map(|&c| c.wide()).filter(|&c| c != 0);
                        fill_from(v, n - nulls, values.map(|c| Lane::narrow(number(c))));
                    }
                });
                8 * (n - nulls)
            }
            (Values::Bool(v), _) => {
                // 1 false, 2 true (the greatest code found many at a time).
                bad |= codes.iter().fold(0, |m, &c| m.max(c.wide())) > 2;
                match nulls {
                    0 => fill_from(v, n, codes.iter().map(|&c| c.wide() == 2)),
                    _ => {
                        let values = codes.iter().map(|&c| c.wide()).filter(|&c| c != 0);
                        fill_from(v, n - nulls, values.map(|c| c == 2));
                    }
                }
                8 * (n - nulls)
            }
            (Values::Paged(paged), None) => {
                let total = text_len()?;
                let text = typed.text(total)?.as_bytes();
                paged.push_all(codes, n - nulls, text, chunks, levels.as_ref())?;
                total + 8 * (n - nulls)
            }
            (Values::Text, None) | (Values::Paged(_), Some(_)) => {
                return Err(rows::bug("a text column's dictionary lost"))
            }
        };
        match bad {
            true => Err(rows::bug(&format!(
                "`{name}` holds a value not of its type, or NULL where it has none"
            ))),
            false => Ok(added),
        }
    }
}

/// Appends the `n` values of `from` to `to`: room made for them at once
/// (zeros), then each written in its place, with no check of the vector's
/// room nor its length kept in memory a value (as `extend` of a filtered
/// iterator does). `from` gives `n` values (a game's codes not NULL); were
/// it to give fewer, the rest stay zeros (not read: a bug).
#[inline(always)]
fn fill_from<T: Copy + Default>(to: &mut Vec<T>, n: usize, from: impl Iterator<Item = T>) {
    let start = to.len();
    to.resize(start + n, T::default());
    for (slot, v) in to[start..].iter_mut().zip(from) {
        *slot = v;
    }
}

/// How many of `levels` are 1 (a value; each level is 0 or 1): added up
/// many at a time ([`add_bytes`]).
fn present(levels: &[u8]) -> usize {
    add_bytes(levels)
}

/// How many of `levels` are 0 (NULL).
fn nulls(levels: &[u8]) -> usize {
    levels.len() - present(levels)
}

/// The parquet schema of a table: its csv columns, typed.
fn schema(columns: &[Column]) -> parquet::errors::Result<Type> {
    let fields = columns
        .iter()
        .map(|&(name, kind, not_null)| {
            let repetition = match not_null {
                true => Repetition::REQUIRED,
                false => Repetition::OPTIONAL,
            };
            let (physical, logical) = match kind {
                Kind::Integer => (Physical::INT64, None),
                Kind::Boolean => (Physical::BOOLEAN, None),
                Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
                Kind::Json => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
            };
            Type::primitive_type_builder(name, physical)
                .with_repetition(repetition)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
        })
        .collect::<parquet::errors::Result<Vec<_>>>()?;
    Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
}

/// The columns with no dictionary: those whose values are mostly each
/// row's own (a game's comments, the position after each ply), where a
/// dictionary only costs (it is hashed and outgrows its page). Every other
/// column repeats its values: the squares, moves, pieces, a game's
/// `game_id` on each of its moves rows, and the `ir` JSON of a move (the
/// mixed chess file's 85,294 moves have 6,267 of them, 390 kB of text for
/// 5.2 MB of values), for which a dictionary is smaller to compress than
/// the values; where one outgrows its page anyway the writer goes on
/// without it.
const NO_DICTIONARY: [&str; 6] = [
    "preamble",
    "setup",
    "comments_before",
    "comments_after",
    "comments_end",
    "fen",
];

/// How a table's files are written: the file's own settings (its
/// `created_by`); every column chunk is made by kifu ([`TextChunks`]),
/// with its encodings, statistics and Zstandard ([`own`],
/// [`text_statistics`]).
fn properties() -> Result<WriterProperties, io::Error> {
    let level = ZstdLevel::try_new(ZSTD_LEVEL).map_err(io::Error::other)?;
    Ok(WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")))
        .build())
}

/// How kifu writes a column's chunks ([`TextChunks`]): the numbers and
/// flags as they are, the text through a dictionary unless
/// [`NO_DICTIONARY`] names it.
fn own(name: &str, kind: Kind) -> Own {
    match kind {
        Kind::Integer | Kind::Boolean => Own::Plain,
        _ if NO_DICTIONARY.contains(&name) => Own::Plain,
        _ => Own::Dictionary,
    }
}

/// Whether a text column's chunks have their minimum, maximum and NULLs
/// as statistics: the games and tags tables' text, by which a query may
/// prune row groups (not JSON, nor the moves table's text, whose every
/// row group spans the whole range: all squares, moves and pieces;
/// `game_id`s are hashes). The numbers and flags have them all.
fn text_statistics(table: usize, kind: Kind) -> bool {
    table != MOVES && kind == Kind::Text
}

/// One table being written.
struct Table {
    writer: SerializedFileWriter<OutFile>,
    columns: Vec<Filling>,
    /// Its columns' descriptions, for the chunks kifu writes.
    descrs: Vec<ColumnDescPtr>,
    /// A game's codes of a column ([`Filling::read`]), kept for the next.
    codes: Vec<u64>,
    /// Its columns' names, kinds and NULLs.
    schema: &'static [Column],
    /// The table, as an index of [`TABLES`].
    table: usize,
    rows: usize,
    bytes: usize,
}

impl Table {
    fn new(table: usize, columns: &'static [Column], out: OutFile) -> io::Result<Table> {
        let types = schema(columns).map_err(io::Error::other)?;
        let props = properties()?;
        let writer = SerializedFileWriter::new(out, Arc::new(types), Arc::new(props))
            .map_err(io::Error::other)?;
        let descrs = writer.schema_descr().columns().to_vec();
        Ok(Table {
            writer,
            columns: columns
                .iter()
                .enumerate()
                .map(|(i, &(name, kind, not_null))| {
                    let stats = text_statistics(table, kind);
                    let mut column = Filling::new(kind, not_null, own(name, kind), stats);
                    column.ids = table == MOVES && i == rows::IR_COLUMN;
                    column.deltas = table == rows::DELTAS;
                    column
                })
                .collect(),
            descrs,
            codes: Vec::new(),
            schema: columns,
            table,
            rows: 0,
            bytes: 0,
        })
    }

    /// Adds a game's rows of this table, read from `typed` (their count,
    /// then each column's values after the keys: `rows::Typed`), each
    /// with the `keys` (the game's id, and for the games row its source
    /// and index); writes a row group when one is full.
    fn rows(
        &mut self,
        keys: &[Key<'_>],
        typed: &mut Typed<'_>,
        chunks: &mut TextChunks,
    ) -> io::Result<()> {
        let n = usize::try_from(typed.code()?).map_err(|_| rows::bug("rows past counting"))?;
        if n == 0 {
            return Ok(());
        }
        let at = keys.len().min(self.columns.len());
        let (keyed, rest) = self.columns.split_at_mut(at);
        // Each value's bytes and 8 more (its place), as a row group's
        // size is counted (NULLs nothing).
        let mut bytes = 0;
        for ((column, key), c) in keyed.iter_mut().zip(keys).zip(self.schema) {
            bytes += column
                .key(*key, n, chunks)
                .ok_or_else(|| rows::bug(&format!("the key `{}` not of its type", c.0)))?;
        }
        for (column, c) in rest.iter_mut().zip(&self.schema[keys.len()..]) {
            bytes += column.read(typed, n, c.0, &mut self.codes, chunks)?;
        }
        self.bytes += bytes;
        self.rows += n;
        if self.rows >= ROW_GROUP_ROWS || self.bytes >= ROW_GROUP_BYTES {
            self.flush(chunks)?;
        }
        Ok(())
    }

    /// Writes the rows kept as a row group.
    fn flush(&mut self, chunks: &mut TextChunks) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(io::Error::other)?;
        for (column, descr) in self.columns.iter_mut().zip(&self.descrs) {
            column
                .write(chunks, descr, &mut group)
                .map_err(io::Error::other)?;
        }
        group.close().map_err(io::Error::other)?;
        (self.rows, self.bytes) = (0, 0);
        Ok(())
    }

    /// Writes the last row group and the footer; the file, to put in place.
    fn finish(mut self, chunks: &mut TextChunks) -> io::Result<OutFile> {
        self.flush(chunks)?;
        self.writer.into_inner().map_err(io::Error::other)
    }
}

/// The parquet tables of a run: the typed rows of a game (as
/// [`rows::write_typed`] gives them, a table's columns at a time) go to
/// their tables' columns, after its game's key.
pub struct ParquetSink {
    tables: [Table; 3],
    /// The writer of the three tables' column chunks.
    chunks: TextChunks,
    name: String,
    ids: csv::GameIds,
}

impl Games for ParquetSink {
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> io::Result<()> {
        let id = self.ids.id(origin.bytes);
        let mut typed = Typed::new(text);
        if typed.fen()? != (self.tables[MOVES].schema.len() > rows::COLUMNS[MOVES].len()) {
            return Err(rows::bug(
                "the fen column where the tables have none, or none where they have it",
            ));
        }
        let games = [
            Key::Id(&id),
            Key::Text(origin.source),
            Key::Int(origin.index as i64),
        ];
        for (t, table) in self.tables.iter_mut().enumerate() {
            let keys = match t {
                0 => &games[..],
                _ => &games[..1],
            };
            table.rows(keys, &mut typed, &mut self.chunks)?;
        }
        match typed.done() {
            true => Ok(()),
            false => Err(rows::bug("text after the tables")),
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Tables for ParquetSink {
    fn commit(self: Box<Self>) -> Result<(), Error> {
        let ParquetSink {
            tables,
            mut chunks,
            name,
            ..
        } = *self;
        for table in tables {
            let file = FILES[table.table];
            let out = table
                .finish(&mut chunks)
                .map_err(|e| Error::io(Path::new(&name).join(file), e))?;
            out.commit()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::dict::{short_key, small_key_in};
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    /// Three text columns of the moves table that kifu writes itself
    /// ([`own`]): one never NULL through a dictionary, one through a
    /// dictionary, one (JSON) with none.
    const THREE: &[Column] = &[
        ("game_id", Kind::Text, true),
        ("move", Kind::Text, false),
        ("comments_after", Kind::Json, false),
    ];

    /// Each row group's statistics of each column, as a file read back
    /// holds them.
    fn statistics(reader: &SerializedFileReader<std::fs::File>) -> Vec<Vec<Option<Statistics>>> {
        reader
            .metadata()
            .row_groups()
            .iter()
            .map(|g| {
                g.columns()
                    .iter()
                    .map(|c| c.statistics().cloned())
                    .collect()
            })
            .collect()
    }

    type Row = (String, Option<String>, Option<String>);
    type Rows = Vec<Row>;

    /// Writes `rows` as a moves table of [`THREE`], reads the file back
    /// with the parquet crate's reader: its rows, and the encodings of
    /// each column's chunks.
    fn round_trip(rows: &Rows) -> (Rows, Vec<Vec<Encoding>>) {
        let (back, encodings, _) = round_trip_in(MOVES, rows);
        (back, encodings)
    }

    /// Each row group's statistics of each column.
    type Stats = Vec<Vec<Option<Statistics>>>;

    /// [`round_trip`] as the table `table` (an index of `rows::TABLES`),
    /// each row group's statistics too.
    fn round_trip_in(table: usize, rows: &Rows) -> (Rows, Vec<Vec<Encoding>>, Stats) {
        assert!(matches!(own(THREE[1].0, THREE[1].1), Own::Dictionary));
        assert!(matches!(own(THREE[2].0, THREE[2].1), Own::Plain));
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("t.parquet");
        let mut table = Table::new(table, THREE, OutFile::create(&path).unwrap()).unwrap();
        let mut chunks = TextChunks::new().unwrap();
        // The rows of each key together, as a game's typed rows write
        // them (`rows::Columns`: their count, then each column's codes
        // and text), the key given apart.
        for run in rows.chunk_by(|x, y| x.0 == y.0) {
            let mut text = String::new();
            rows::code(&mut text, run.len() as u64);
            for column in [|r: &Row| r.1.clone(), |r: &Row| r.2.clone()] {
                let values: Vec<Option<String>> = run.iter().map(column).collect();
                for v in &values {
                    rows::code(&mut text, v.as_ref().map_or(0, |v| v.len() as u64 + 1));
                }
                text.extend(values.into_iter().flatten());
            }
            let mut typed = Typed::new(&text);
            table
                .rows(&[Key::Text(&run[0].0)], &mut typed, &mut chunks)
                .unwrap();
            assert!(typed.done());
        }
        table.finish(&mut chunks).unwrap().commit().unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let encodings = (0..THREE.len())
            .map(|c| {
                let mut e: Vec<Encoding> = reader
                    .metadata()
                    .row_groups()
                    .iter()
                    .flat_map(|g| g.column(c).encodings().collect::<Vec<_>>())
                    .collect();
                e.sort_by_key(|e| format!("{e:?}"));
                e.dedup();
                e
            })
            .collect();
        let text = |f: &Field| match f {
            Field::Null => None,
            Field::Str(s) => Some(s.clone()),
            other => panic!("not text: {other:?}"),
        };
        let back = reader
            .get_row_iter(None)
            .unwrap()
            .map(|row| {
                let row = row.unwrap();
                let f: Vec<Option<String>> = row.get_column_iter().map(|(_, f)| text(f)).collect();
                (f[0].clone().unwrap(), f[1].clone(), f[2].clone())
            })
            .collect();
        let stats = statistics(&reader);
        (back, encodings, stats)
    }

    /// A value of few distinct ones (runs and repeats), or of many.
    fn text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            "[ab]{0,2}",
            "[a-z\"\u{e9},]{0,12}",
            proptest::collection::vec(Just("x"), 0..40).prop_map(|v| v.concat()),
        ]
    }

    /// Rows of a few kinds repeated in runs of any length, in any order.
    fn rows() -> impl proptest::strategy::Strategy<Value = Rows> {
        use proptest::prelude::*;
        let row = (
            text(),
            proptest::option::weighted(0.7, text()),
            proptest::option::weighted(0.5, text()),
        );
        proptest::collection::vec(row, 1..40)
            .prop_flat_map(|kinds| {
                let n = kinds.len();
                (
                    proptest::collection::vec((0..n, 1usize..30), 1..60),
                    Just(kinds),
                )
            })
            .prop_map(|(picks, kinds)| {
                picks
                    .into_iter()
                    .flat_map(|(i, times)| std::iter::repeat_n(kinds[i].clone(), times))
                    .collect()
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any rows read back as they were written: runs of a value, NULLs
        /// in any places, values repeated or not, empty strings.
        #[test]
        fn any_text_chunk_reads_back(rows in rows()) {
            let (back, encodings) = round_trip(&rows);
            proptest::prop_assert_eq!(back, rows);
            proptest::prop_assert!(encodings[0].contains(&Encoding::RLE_DICTIONARY));
            proptest::prop_assert!(!encodings[2].contains(&Encoding::RLE_DICTIONARY));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        /// The games and tags tables' text columns ([`text_statistics`])
        /// read back as written, with each row group's least and greatest
        /// value (bytewise, whole) and NULLs as their statistics; their
        /// JSON has none.
        #[test]
        fn text_statistics_are_the_least_and_greatest_values(rows in rows()) {
            let (back, _, stats) = round_trip_in(1, &rows);
            proptest::prop_assert_eq!(&back, &rows);
            proptest::prop_assert_eq!(stats.len(), 1);
            let columns: [Vec<Option<&str>>; 2] = [
                rows.iter().map(|r| Some(r.0.as_str())).collect(),
                rows.iter().map(|r| r.1.as_deref()).collect(),
            ];
            for (c, values) in columns.iter().enumerate() {
                let some: Vec<&[u8]> = values.iter().flatten().map(|v| v.as_bytes()).collect();
                let got = stats[0][c].as_ref().unwrap();
                proptest::prop_assert_eq!(got.min_bytes_opt(), some.iter().min().copied());
                proptest::prop_assert_eq!(got.max_bytes_opt(), some.iter().max().copied());
                proptest::prop_assert_eq!(got.null_count_opt(), Some((values.len() - some.len()) as u64));
            }
            proptest::prop_assert!(stats[0][2].as_ref().is_none_or(|s| s.min_bytes_opt().is_none()));
        }
    }

    proptest::proptest! {
        /// Two values (of no NUL, as every text of the tables) have the
        /// same short key only where they are the same; one of more than
        /// 16 bytes has none, the empty string 0.
        #[test]
        fn short_keys_tell_values_apart(
            a in proptest::collection::vec(1u8..=255, 0..20),
            b in proptest::collection::vec(1u8..=255, 0..20),
        ) {
            let (ka, kb) = (short_key(&a), short_key(&b));
            proptest::prop_assert_eq!(ka.is_some(), a.len() <= 16);
            if let (Some(ka), Some(kb)) = (ka, kb) {
                proptest::prop_assert_eq!(ka == kb, a == b, "{:?} {:?}", a, b);
                proptest::prop_assert_eq!(ka == 0, a.is_empty());
            }
            // A value and itself cut or grown by a byte.
            for c in [&a[..a.len().saturating_sub(1)], &[&a[..], &[7]].concat()[..]] {
                if let (Some(ka), Some(kc)) = (short_key(&a), short_key(c)) {
                    proptest::prop_assert_eq!(ka == kc, a == c);
                }
            }
        }
    }

    proptest::proptest! {
        /// A value of one to eight bytes has as its key read from the text
        /// it lies in (a word from its start, where 8 bytes are there) its
        /// own short key, wherever it lies and whatever follows it.
        #[test]
        fn a_short_key_in_its_text_is_its_own(
            text in proptest::collection::vec(1u8..=255, 0..40),
            at in 0usize..40,
            len in 0usize..20,
        ) {
            let start = at.min(text.len());
            let end = (start + len.clamp(1, 8)).min(text.len());
            if end > start {
                proptest::prop_assert_eq!(
                    Some(u128::from(small_key_in(&text, start, end))),
                    short_key(&text[start..end])
                );
            }
        }
    }

    /// Number columns kifu writes itself ([`TextChunks::numbers`]): one
    /// never NULL, one that may be, and booleans.
    const NUMBERS: &[Column] = &[
        ("seq", Kind::Integer, true),
        ("ply", Kind::Integer, false),
        ("is_check", Kind::Boolean, false),
    ];

    type NumberRow = (i64, Option<i64>, Option<bool>);

    /// Writes `rows` as a table of [`NUMBERS`] (a game's rows at a time,
    /// `per_game` each, as typed rows), reads them back with the parquet
    /// crate's reader: its rows, and each column's statistics of each row
    /// group (minimum, maximum, NULLs).
    /// As a table of the tags (whole numbers as they are) or, with
    /// `deltas`, of the moves (each the difference from the one before:
    /// `rows::DELTAS`).
    fn numbers_round_trip(
        rows: &[NumberRow],
        per_game: usize,
        deltas: bool,
    ) -> (Vec<NumberRow>, Vec<Vec<Option<Statistics>>>) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("n.parquet");
        let t = if deltas { rows::DELTAS } else { 1 };
        let mut table = Table::new(t, NUMBERS, OutFile::create(&path).unwrap()).unwrap();
        let mut chunks = TextChunks::new().unwrap();
        for game in rows.chunks(per_game.max(1)) {
            let mut text = String::new();
            rows::code(&mut text, game.len() as u64);
            let mut last = [0i64; 2];
            let mut number = |c: usize, v: i64| {
                let d = match deltas {
                    true => v.wrapping_sub(std::mem::replace(&mut last[c], v)),
                    false => v,
                };
                rows::zigzag(d) + 1
            };
            for r in game {
                let code = number(0, r.0);
                rows::code(&mut text, code);
            }
            for r in game {
                let code = r.1.map_or(0, |v| number(1, v));
                rows::code(&mut text, code);
            }
            for r in game {
                rows::code(&mut text, r.2.map_or(0, |b| 1 + u64::from(b)));
            }
            // `seq` is the key here: given apart, so written as the
            // typed rows' first column instead.
            let mut typed = Typed::new(&text);
            table.rows(&[], &mut typed, &mut chunks).unwrap();
            assert!(typed.done());
        }
        table.finish(&mut chunks).unwrap().commit().unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let stats = statistics(&reader);
        let back = reader
            .get_row_iter(None)
            .unwrap()
            .map(|row| {
                let row = row.unwrap();
                let f: Vec<Field> = row.get_column_iter().map(|(_, f)| f.clone()).collect();
                let int = |f: &Field| match f {
                    Field::Long(n) => Some(*n),
                    Field::Null => None,
                    other => panic!("not a number: {other:?}"),
                };
                let flag = match &f[2] {
                    Field::Bool(b) => Some(*b),
                    Field::Null => None,
                    other => panic!("not a boolean: {other:?}"),
                };
                (int(&f[0]).unwrap(), int(&f[1]), flag)
            })
            .collect();
        (back, stats)
    }

    /// A whole number: small ones counting up or not, and any (the
    /// differences of the least and the greatest overflow).
    fn number() -> impl proptest::strategy::Strategy<Value = i64> {
        use proptest::prelude::*;
        prop_oneof![
            0i64..300,
            -5i64..5,
            // i64::MIN is no number of the tables (counts, move numbers):
            // a code holds a zigzagged number and 1.
            Just(i64::MIN + 1),
            Just(i64::MAX),
            (i64::MIN + 1)..=i64::MAX,
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any numbers and booleans read back as they were written (past
        /// a block of 128 and its miniblocks of 32, in games of any
        /// size), each row group's statistics their minimum, maximum and
        /// NULLs.
        #[test]
        fn any_numbers_read_back_with_their_statistics(
            rows in proptest::collection::vec(
                (number(), proptest::option::of(number()), proptest::option::of(proptest::bool::ANY)),
                0..700,
            ),
            per_game in 1usize..200,
        ) {
            let (back, stats) = numbers_round_trip(&rows, per_game, false);
            proptest::prop_assert_eq!(&back, &rows);
            // The moves table's, each the difference from the one
            // before (numbers whose differences fit 64 bits).
            let fit = |v: i64| v >> 2;
            let small: Vec<NumberRow> = rows.iter().map(|r| (fit(r.0), r.1.map(fit), r.2)).collect();
            proptest::prop_assert_eq!(numbers_round_trip(&small, per_game, true).0, small);
            if rows.is_empty() {
                return Ok(());
            }
            proptest::prop_assert_eq!(stats.len(), 1);
            let ints: Vec<i64> = rows.iter().map(|r| r.0).collect();
            let some: Vec<i64> = rows.iter().filter_map(|r| r.1).collect();
            let flags: Vec<bool> = rows.iter().filter_map(|r| r.2).collect();
            let want = [
                Statistics::int64(ints.iter().min().copied(), ints.iter().max().copied(), None, Some(0), false),
                Statistics::int64(some.iter().min().copied(), some.iter().max().copied(), None,
                    Some((rows.len() - some.len()) as u64), false),
                Statistics::boolean(flags.first().map(|_| flags.iter().all(|&b| b)),
                    flags.first().map(|_| flags.iter().any(|&b| b)), None,
                    Some((rows.len() - flags.len()) as u64), false),
            ];
            for (got, want) in stats[0].iter().zip(want) {
                let got = got.as_ref().unwrap();
                proptest::prop_assert_eq!(got.null_count_opt(), want.null_count_opt());
                proptest::prop_assert_eq!(got.min_bytes_opt(), want.min_bytes_opt());
                proptest::prop_assert_eq!(got.max_bytes_opt(), want.max_bytes_opt());
            }
        }
    }

    /// Numbers past a page (20,000 rows) and a row group (100,000) read
    /// back.
    #[test]
    fn numbers_past_pages_and_row_groups_read_back() {
        let rows: Vec<NumberRow> = (0..130_000i64)
            .map(|i| {
                (
                    i,
                    (i % 7 != 0).then_some(i % 300 - 150),
                    (i % 5 != 0).then_some(i % 3 == 0),
                )
            })
            .collect();
        let (back, stats) = numbers_round_trip(&rows, 90, false);
        assert_eq!(numbers_round_trip(&rows, 90, true).0, rows);
        assert!(back == rows);
        assert_eq!(stats.len(), 2);
    }

    /// Rows past a page (20,000) and a row group (100,000), and values
    /// past a page's bytes and a dictionary's (written `PLAIN` then), read
    /// back.
    #[test]
    fn pages_row_groups_and_large_dictionaries_read_back() {
        let rows: Rows = (0..130_000usize)
            .map(|i| {
                (
                    format!("{:016x}", i / 90),
                    (i % 7 != 0).then(|| ["e4", "Nf3", "O-O", ""][i % 4].to_string()),
                    (i % 3 == 0).then(|| format!("[{i}]")),
                )
            })
            .collect();
        let (back, _) = round_trip(&rows);
        assert!(back == rows);
        // Distinct values of 20 kB: 3 MB, past a dictionary and a page.
        let rows: Rows = (0..150usize)
            .map(|i| {
                let long = format!("{i:05}").repeat(4_000);
                (
                    long.clone(),
                    Some(long.clone()),
                    (i % 2 == 0).then_some(long),
                )
            })
            .collect();
        let (back, encodings) = round_trip(&rows);
        assert!(back == rows);
        assert!(!encodings[0].contains(&Encoding::RLE_DICTIONARY));
    }

    /// A row group's dictionary indices widened as its dictionary grows
    /// (bytes to 256 values, `u16`s to 65,536, then `u32`s: in the
    /// middle of a game's rows too), read back as written.
    #[test]
    fn dictionaries_past_a_byte_and_sixteen_bits_read_back() {
        let rows: Rows = (0..80_000usize)
            .map(|i| {
                (
                    format!("g{}", i / 7),
                    (i % 11 != 0).then(|| format!("{i:x}")),
                    None,
                )
            })
            .collect();
        let (back, encodings) = round_trip(&rows);
        assert!(back == rows);
        assert!(encodings[0].contains(&Encoding::RLE_DICTIONARY));
        assert!(encodings[1].contains(&Encoding::RLE_DICTIONARY));
    }

    /// A column's description, as its file's schema gives it.
    fn descr_of(column: Column) -> ColumnDescPtr {
        let types = schema(&[column]).unwrap();
        parquet::schema::types::SchemaDescriptor::new(Arc::new(types)).column(0)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// A text column with no dictionary written a page at a time as
        /// its rows come ([`Paged`]) is the same bytes and metadata as its
        /// row group's values written at once ([`TextChunks::pages`]): its
        /// pages end at [`PAGE_ROWS`] rows or [`PAGE_BYTES`] alike, NULLs
        /// among the rows or none, values short and long (past a page),
        /// row groups one after another through the same column, the rows
        /// given a game at a time (games of any size: a page ending among
        /// a game's rows or not), each game with the levels up to its
        /// last row only.
        #[test]
        fn pages_written_as_rows_come_are_those_written_at_once(
            groups in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::prop_oneof![
                        4 => (proptest::bool::weighted(0.5), 0usize..30, 1usize..4_000),
                        1 => (proptest::bool::weighted(0.8), 0usize..700_000, 1usize..3),
                    ],
                    1..16,
                ),
                1..4,
            ),
            nullable in proptest::bool::ANY,
            games in proptest::collection::vec(1usize..3_000, 1..8),
        ) {
            let pattern: Vec<u8> = (0..701_000u64)
                .map(|i| b'a' + ((i * i / 7 + i / 3) % 26) as u8)
                .collect();
            let descr = descr_of(("comments_after", Kind::Json, !nullable));
            let (mut chunks, mut at_once) = (TextChunks::new().unwrap(), TextChunks::new().unwrap());
            let mut paged = Paged::new();
            for group in &groups {
                let (mut levels, mut text, mut spans) = (Vec::new(), Vec::new(), Vec::new());
                for (k, &(present, len, times)) in group.iter().enumerate() {
                    for _ in 0..times {
                        let present = present || !nullable;
                        levels.push(u8::from(present));
                        if present {
                            let start = text.len() as u32;
                            text.extend_from_slice(&pattern[k * 37 % 1_000..][..len]);
                            spans.push((start, text.len() as u32));
                        }
                    }
                }
                let levels = nullable.then_some(&levels[..]);
                // Each row's code (0 NULL, else its value's length and 1).
                let mut values = spans.iter().map(|&(s, e)| u64::from(e - s) + 1);
                let codes: Vec<u64> = (0..levels.map_or(spans.len(), <[u8]>::len))
                    .map(|row| match levels {
                        Some(l) if l[row] == 0 => 0,
                        _ => values.next().unwrap(),
                    })
                    .collect();
                let (mut row, mut at) = (0, 0);
                // The levels a bit each, as a column keeps them, a game's
                // added before its rows.
                let mut kept = Levels::default();
                for &size in games.iter().cycle() {
                    if row == codes.len() {
                        break;
                    }
                    let game = &codes[row..codes.len().min(row + size)];
                    let present = game.iter().filter(|&&c| c != 0).count();
                    let len: usize = game.iter().map(|&c| c.saturating_sub(1) as usize).sum();
                    if let Some(l) = levels {
                        let game = &l[row..row + game.len()];
                        kept.extend(game, game.iter().filter(|&&l| l == 0).count());
                    }
                    let until = levels.map(|_| &kept);
                    paged
                        .push_all(game, present, &text[at..at + len], &mut chunks, until)
                        .unwrap();
                    (row, at) = (row + game.len(), at + len);
                }
                let (got, got_close) = chunks
                    .paged_chunk(descr.clone(), &mut paged, levels.map(|_| &kept))
                    .unwrap();
                let body = Body::Text { text: &text, spans: &spans };
                let (want, want_close) = at_once.pages(descr.clone(), levels, None, &body, None).unwrap();
                proptest::prop_assert!(got == want, "{} bytes against {}", got.len(), want.len());
                proptest::prop_assert_eq!(
                    format!("{:?}", got_close.metadata),
                    format!("{:?}", want_close.metadata)
                );
                proptest::prop_assert_eq!(
                    format!("{:?}", got_close.offset_index),
                    format!("{:?}", want_close.offset_index)
                );
                proptest::prop_assert_eq!(got_close.rows_written, want_close.rows_written);
                paged.kept = reclaim(got);
                at_once.reuse(want);
            }
        }
    }

    /// A column's room holds a full row group and the rows of the game
    /// that fills it (up to [`ROW_GROUP_ROOM`]): none of its vectors is
    /// grown, each copied into memory touched anew, whatever the games'
    /// sizes, a text column through a dictionary, a number or a flag,
    /// NULLs among them.
    #[test]
    fn a_row_group_and_its_last_game_fit_the_room() {
        let mut chunks = TextChunks::new().unwrap();
        for (kind, name) in [
            (Kind::Text, "move"),
            (Kind::Integer, "ply"),
            (Kind::Boolean, "is_check"),
        ] {
            for game in [1, 77, 999, ROW_GROUP_ROOM - ROW_GROUP_ROWS] {
                let mut column = Filling::new(kind, false, own(name, kind), false);
                let room = |c: &Filling| {
                    let values = match &c.values {
                        Values::Bool(v) => v.capacity(),
                        _ => 0,
                    };
                    let dict = c
                        .dict
                        .as_ref()
                        .map(|d| (d.ends.capacity(), d.data.capacity()));
                    (c.levels.as_ref().map(Levels::capacity), values, dict)
                };
                let before = room(&column);
                // Games of `game` rows, a NULL every third, until a row
                // group is full (the sink writes it after that game).
                let mut rows = 0;
                while rows < ROW_GROUP_ROWS {
                    let mut text = String::new();
                    let mut codes = String::new();
                    for i in 0..game {
                        // 0 NULL; a text's length and 1; a number's or a
                        // flag's 2 (-1 zigzagged and 1; true).
                        match (kind, i % 3) {
                            (_, 0) => codes.push(char::from(0)),
                            (Kind::Text, _) => {
                                let v = format!("m{}", (rows + i) % 500);
                                codes.push(char::from(v.len() as u8 + 1));
                                text.push_str(&v);
                            }
                            _ => codes.push(char::from(2)),
                        }
                    }
                    codes.push_str(&text);
                    let mut typed = Typed::new(&codes);
                    column
                        .read(&mut typed, game, name, &mut Vec::new(), &mut chunks)
                        .unwrap();
                    assert!(typed.done());
                    rows += game;
                }
                assert_eq!(room(&column), before, "{name}, games of {game} rows");
            }
        }
    }

    /// Where a page from row `row` (value `value`) ends, a row at a
    /// time: once its values take [`PAGE_BYTES`] `PLAIN`, or at
    /// [`PAGE_ROWS`] rows.
    fn page_a_row_at_a_time(
        levels: Option<&[u8]>,
        spans: &[Span],
        rows: usize,
        row: usize,
        value: usize,
    ) -> (usize, usize) {
        let (mut end_row, mut end_value, mut bytes) = (row, value, 0);
        while end_row < rows && end_row - row < PAGE_ROWS && bytes < PAGE_BYTES {
            if levels.is_none_or(|l| l[end_row] == 1) {
                bytes += (spans[end_value].1 - spans[end_value].0) as usize + 4;
                end_value += 1;
            }
            end_row += 1;
        }
        (end_row, end_value)
    }

    proptest::proptest! {
        /// A text column's pages end where its values, counted a row at a
        /// time, take a page: found in one pass over the values, NULLs
        /// among them or not.
        #[test]
        fn a_page_ends_where_its_values_take_a_page(
            rows in proptest::collection::vec(
                (proptest::bool::weighted(0.7), 0u32..400_000),
                1..80,
            ),
            nullable in proptest::bool::ANY,
        ) {
            let levels: Vec<u8> = rows.iter().map(|r| u8::from(r.0 || !nullable)).collect();
            let mut spans = Vec::new();
            let mut at = 0u32;
            for (_, len) in rows.iter().zip(&levels).filter(|(_, &l)| l == 1).map(|(r, _)| *r) {
                spans.push((at, at + len));
                at += len;
            }
            let body = Body::Text { text: &[], spans: &spans };
            let levels = nullable.then_some(&levels[..]);
            let (mut row, mut value) = (0, 0);
            while row < rows.len() {
                let got = body.page(levels, rows.len(), row, value);
                let want = page_a_row_at_a_time(levels, &spans, rows.len(), row, value);
                proptest::prop_assert_eq!(got, want);
                (row, value) = got;
            }
        }
    }
}
