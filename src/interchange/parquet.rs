//! `parquet`: the `csv` tables as Apache Parquet files in a folder,
//! `games.parquet`, `tags.parquet` and `moves.parquet` (written only).
//!
//! The rows are the csv tables' own: the writer is
//! [`rows::write_typed`], whose typed rows (`rows::typed_rows`)
//! [`ParquetSink`] puts in their tables' columns with the same key
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
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use crate::codec::{Folder, Games, Origin, Oversize, Scan, Tables, WriteOptions};
use crate::error::Error;
use crate::interchange::csv;
use crate::interchange::rows::{self, columns, Column, Kind, TABLES};
use crate::output::{OutFile, Output};

/// The table files of a folder, in the order of [`TABLES`].
pub const FILES: [&str; 3] = ["games.parquet", "tags.parquet", "moves.parquet"];

/// A table's rows are written as a row group once it holds this many...
pub const ROW_GROUP_ROWS: usize = 100_000;

/// ... or this many bytes of values.
pub const ROW_GROUP_BYTES: usize = 8 << 20;

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
    /// `INT64`.
    Int(Vec<i64>),
    /// `BOOLEAN`.
    Bool(Vec<bool>),
    /// UTF-8 strings: their bytes one after another, and where each ends
    /// (one buffer, not an allocation per value).
    Text(Vec<u8>, Vec<usize>),
}

/// One column being filled.
struct Filling {
    values: Values,
    /// Definition levels, for a column that may be NULL.
    levels: Option<Vec<i16>>,
}

impl Filling {
    fn new(kind: Kind, not_null: bool) -> Filling {
        Filling {
            values: match kind {
                Kind::Integer => Values::Int(Vec::new()),
                Kind::Boolean => Values::Bool(Vec::new()),
                Kind::Text | Kind::Json => Values::Text(Vec::new(), Vec::new()),
            },
            levels: (!not_null).then(Vec::new),
        }
    }

    /// Adds a value (`None`: NULL) given as the typed rows hold it; the
    /// bytes it holds, or `None` where the value is not of the column's
    /// type or a NULL where the column has none (a bug).
    #[inline]
    fn push(&mut self, value: Option<&str>) -> Option<usize> {
        match (&mut self.levels, value) {
            (Some(levels), None) => {
                levels.push(0);
                return Some(0);
            }
            (None, None) => return None,
            (Some(levels), Some(_)) => levels.push(1),
            (None, Some(_)) => {}
        }
        let v = value.unwrap_or_default();
        match &mut self.values {
            Values::Int(values) => values.push(parse_int(v)?),
            Values::Bool(values) => values.push(match v {
                "1" => true,
                "0" => false,
                _ => return None,
            }),
            Values::Text(data, ends) => {
                data.extend_from_slice(v.as_bytes());
                ends.push(data.len());
            }
        }
        Some(v.len() + 8)
    }

    /// Writes the column's values and empties it.
    fn write(&mut self, writer: &mut ColumnWriter<'_>) -> parquet::errors::Result<()> {
        let levels = self.levels.as_deref();
        match (&mut self.values, writer) {
            (Values::Int(v), ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(v, levels, None)?;
                v.clear();
            }
            (Values::Bool(v), ColumnWriter::BoolColumnWriter(w)) => {
                w.write_batch(v, levels, None)?;
                v.clear();
            }
            (Values::Text(data, ends), ColumnWriter::ByteArrayColumnWriter(w)) => {
                // Each value a slice of the one buffer, shared; the next
                // row group's buffer starts as large.
                let size = data.len();
                let bytes = Bytes::from(std::mem::replace(data, Vec::with_capacity(size)));
                let mut start = 0;
                let values: Vec<ByteArray> = ends
                    .iter()
                    .map(|&end| {
                        let value = ByteArray::from(bytes.slice(start..end));
                        start = end;
                        value
                    })
                    .collect();
                w.write_batch(&values, levels, None)?;
                ends.clear();
            }
            _ => {
                return Err(parquet::errors::ParquetError::General(
                    "a column of another type than its schema's (a bug)".to_string(),
                ))
            }
        }
        if let Some(l) = &mut self.levels {
            l.clear();
        }
        Ok(())
    }
}

/// A whole number as the typed rows write it (decimal, `-` before a
/// negative one); `None` for any other text.
#[inline]
fn parse_int(v: &str) -> Option<i64> {
    let (negative, digits) = match v.as_bytes().split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, v.as_bytes()),
    };
    // Up to 18 digits cannot overflow; longer ones are rare.
    if digits.is_empty() || digits.len() > 18 {
        return v.parse().ok();
    }
    let mut n = 0i64;
    for &d in digits {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n * 10 + i64::from(d);
    }
    Some(if negative { -n } else { n })
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

/// How a table's files are written: Zstandard; dictionaries where values
/// repeat ([`NO_DICTIONARY`]); minimum and maximum statistics where a
/// query may prune row groups by them: not on JSON text, nor on the moves
/// table's text columns, whose every row group spans the whole range (all
/// squares, moves and pieces; `game_id`s are hashes), where comparing
/// each value cost a twentieth of the parquet writer's time.
fn properties(table: usize, columns: &[Column]) -> Result<WriterProperties, io::Error> {
    let level = ZstdLevel::try_new(ZSTD_LEVEL).map_err(io::Error::other)?;
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_dictionary_enabled(true)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")));
    for &(name, kind, _) in columns {
        if NO_DICTIONARY.contains(&name) {
            props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
        if kind == Kind::Json || (table == MOVES && kind == Kind::Text) {
            props = props
                .set_column_statistics_enabled(ColumnPath::from(name), EnabledStatistics::None);
        }
    }
    Ok(props.build())
}

/// One table being written.
struct Table {
    writer: SerializedFileWriter<OutFile>,
    columns: Vec<Filling>,
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
        let props = properties(table, columns)?;
        let writer = SerializedFileWriter::new(out, Arc::new(types), Arc::new(props))
            .map_err(io::Error::other)?;
        Ok(Table {
            writer,
            columns: columns
                .iter()
                .map(|&(_, kind, not_null)| Filling::new(kind, not_null))
                .collect(),
            schema: columns,
            table,
            rows: 0,
            bytes: 0,
        })
    }

    /// Adds a row, given its values (each as the csv tables write it);
    /// writes a row group when one is full.
    fn push(&mut self, values: &[Option<&str>]) -> io::Result<()> {
        if values.len() != self.columns.len() {
            return Err(io::Error::other(format!(
                "a {} row of {} columns where it has {} (a bug)",
                TABLES[self.table],
                values.len(),
                self.columns.len()
            )));
        }
        for (n, (column, value)) in self.columns.iter_mut().zip(values).enumerate() {
            match column.push(*value) {
                Some(bytes) => self.bytes += bytes,
                None => {
                    return Err(io::Error::other(format!(
                        "`{}` holds {value:?}, not what its type says (a bug)",
                        self.schema[n].0
                    )))
                }
            }
        }
        self.rows += 1;
        if self.rows >= ROW_GROUP_ROWS || self.bytes >= ROW_GROUP_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the rows kept as a row group.
    fn flush(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(io::Error::other)?;
        let mut columns = self.columns.iter_mut();
        while let Some(mut writer) = group.next_column().map_err(io::Error::other)? {
            let column = columns
                .next()
                .ok_or_else(|| io::Error::other("more columns than the schema's (a bug)"))?;
            column.write(writer.untyped()).map_err(io::Error::other)?;
            writer.close().map_err(io::Error::other)?;
        }
        group.close().map_err(io::Error::other)?;
        (self.rows, self.bytes) = (0, 0);
        Ok(())
    }

    /// Writes the last row group and the footer; the file, to put in place.
    fn finish(mut self) -> io::Result<OutFile> {
        self.flush()?;
        self.writer.into_inner().map_err(io::Error::other)
    }
}

/// The parquet tables of a run: each typed row of a game (as
/// [`rows::write_typed`] gives them) goes to its table, after its game's
/// key.
pub struct ParquetSink {
    tables: [Table; 3],
    name: String,
    ids: csv::GameIds,
}

impl Games for ParquetSink {
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> io::Result<()> {
        let id = self.ids.id(origin.bytes);
        let tables = &mut self.tables;
        rows::typed_rows(text, origin, &id, |t, values| tables[t].push(values))
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Tables for ParquetSink {
    fn commit(self: Box<Self>) -> Result<(), Error> {
        let name = self.name;
        for table in self.tables {
            let file = FILES[table.table];
            let out = table
                .finish()
                .map_err(|e| Error::io(Path::new(&name).join(file), e))?;
            out.commit()?;
        }
        Ok(())
    }
}
