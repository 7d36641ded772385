//! The tables of `kifu.dask`: an input cut into parts at record
//! boundaries ([`table_parts`]), one part's rows as columns
//! ([`table_part`]: the typed rows of [`rows::write_typed`], read by
//! [`rows::typed_rows`]), and the tables' columns ([`table_columns`]).

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::args::{keywords, named, unexpected, RecordSize};
use super::Raised;
use crate::archive::{convert_stream, Converter, Records, Report, BATCH_BYTES};
use crate::codec::{Games, Origin, ReadOptions, WriteOptions, MAX_RECORD};
use crate::error::Error;
use crate::input::Damage;
use crate::interchange::csv::{self, GameIds};
use crate::interchange::rows::{self, Kind, COLUMNS, TABLES};
use crate::options::{Side, Sides};
use crate::plan;

/// The keywords of `kifu.dask.tables` besides the formats' options.
const DASK_KEYWORDS: &[&str] = &[
    "paths",
    "blocksize",
    "format",
    "no_validate",
    "max_record_size",
];

/// One part of an input for `kifu.dask` ([`table_parts`]).
struct Part {
    /// The job of the input's plan (a file, or a member of a zip archive).
    job: usize,
    /// The input as messages and the tables' `source` column name it.
    source: String,
    /// The byte range of the file it reads; `0..None`: the whole input.
    start: u64,
    end: Option<u64>,
    /// The games of the input before it.
    first: usize,
    /// Its game records, failed ones and those over the size limit
    /// included.
    games: usize,
    /// The key ([`csv::game_key`]) of each of its game records under the
    /// size limit, 8 bytes little-endian each.
    keys: Vec<u8>,
}

/// A byte-order mark, which a reader drops at the start of its stream.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a file is read as its bytes are (no compression, no UTF-16), so
/// that an offset found in what kifu reads is one in the file.
fn plain_file(path: &Path) -> std::io::Result<bool> {
    use std::io::Read;
    let mut head = Vec::with_capacity(8);
    std::fs::File::open(path)?.take(8).read_to_end(&mut head)?;
    Ok(crate::input::is_plain(&head))
}

/// The parts of one job of a plan: its game records counted and keyed,
/// and, with `blocksize`, a plain file of a format whose records need no
/// document around them cut before the first game record past each
/// `blocksize` bytes (never before a byte-order mark, which a reader
/// starting there would drop, nor before a record over the size limit).
/// A reader that starts at a record boundary finds the records the whole
/// file's reader finds from there: the scan keeps no state across them.
fn job_parts(
    j: usize,
    job: &plan::Job,
    blocksize: Option<u64>,
    limit: usize,
    out: &mut Vec<Part>,
) -> Result<(), Error> {
    let source = job.name();
    let split = job.from.split;
    let cuttable = match (&job.input, &job.member) {
        (Some(p), None) if split.frame().is_none() && split.folder().is_none() => {
            plain_file(p).map_err(|e| Error::io(p, e))?
        }
        _ => false,
    };
    let blocksize = blocksize.filter(|_| cuttable).map(|b| b.max(1));
    let (input, _damage) = job.open()?;
    let mut records = Records::new(input, split).with_limit(limit);
    let mut part = Part {
        job: j,
        source: source.clone(),
        start: 0,
        end: None,
        first: 0,
        games: 0,
        keys: Vec::new(),
    };
    while let Some(batch) = records
        .next_batch(BATCH_BYTES)
        .map_err(|e| Error::io(&source, e))?
    {
        for r in &batch.records {
            let bytes = &batch.data[r.range.clone()];
            if let Some(size) = blocksize {
                if r.is_game
                    && r.oversize.is_none()
                    && r.offset - part.start >= size
                    && !bytes.starts_with(BOM)
                {
                    let next = Part {
                        start: r.offset,
                        first: part.first + part.games,
                        games: 0,
                        keys: Vec::new(),
                        source: source.clone(),
                        ..part
                    };
                    let mut done = std::mem::replace(&mut part, next);
                    done.end = Some(r.offset);
                    out.push(done);
                }
            }
            if r.is_game {
                part.games += 1;
                if r.oversize.is_none() {
                    part.keys
                        .extend_from_slice(&csv::game_key(bytes).to_le_bytes());
                }
            }
        }
    }
    out.push(part);
    Ok(())
}

/// `kifu._kifu.table_parts`: the parts of an input (a file, a folder or a
/// zip archive, planned as `kifu convert` plans it) for `kifu.dask`: one
/// per file or archive member, or, with `blocksize`, one per byte range of
/// a plain file, cut at record boundaries. Each part: `job`, `source`,
/// `start`, `end` (`None`: to the end), `first` (the games before it in
/// its input), `games` and `keys` (the key of each game record, 8 bytes
/// little-endian each, for the game ids of a run). The format options
/// `table_part` will read with are checked here, before any part is read:
/// one that no format of an input takes is a `TypeError`.
#[pyfunction]
#[pyo3(signature = (path, *, blocksize=None, from_format=None, max_record_size=None, **options))]
pub(super) fn table_parts(
    py: Python<'_>,
    path: PathBuf,
    blocksize: Option<u64>,
    from_format: Option<&str>,
    max_record_size: Option<RecordSize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Py<PyDict>>> {
    let from = from_format.map(named).transpose()?;
    let to = named("csv")?;
    // What table_part writes the rows with.
    let typed = named("parquet")?;
    let limit = max_record_size.map_or(MAX_RECORD, |s| s.0);
    let given = keywords(options, Sides::Both)?;
    let mut raised = Raised::default();
    let parts = py.detach(|| -> Result<Vec<Part>, Error> {
        let plan = plan::plan(&[path], from, to, None)?;
        let mut parts = Vec::new();
        for (j, job) in plan.jobs.iter().enumerate() {
            let sides = [(Side::Read, job.from), (Side::Write, typed)];
            unexpected("kifu.dask.tables", DASK_KEYWORDS, &given, Some(&sides))
                .map_err(|e| raised.keep(e))?;
            job_parts(j, job, blocksize, limit, &mut parts)?;
        }
        Ok(parts)
    });
    let parts = raised.result(parts)?;
    parts
        .into_iter()
        .map(|p| {
            let d = PyDict::new(py);
            d.set_item("job", p.job)?;
            d.set_item("source", p.source)?;
            d.set_item("start", p.start)?;
            d.set_item("end", p.end)?;
            d.set_item("first", p.first)?;
            d.set_item("games", p.games)?;
            d.set_item("keys", pyo3::types::PyBytes::new(py, &p.keys))?;
            Ok(d.unbind())
        })
        .collect()
}

/// One column of a part's table, typed as the parquet tables type it, in
/// buffers that numpy, pandas and Arrow take without a Python object per
/// value.
enum Col {
    /// Integers, and a byte per row that is 1 where it is NULL.
    Int(Vec<i64>, Vec<u8>),
    /// Booleans as bytes (0, 1), and the NULL mask.
    Bool(Vec<u8>, Vec<u8>),
    /// Text as Arrow's `large_string`: the values' bytes one after another,
    /// where each starts and ends (`offsets`, from 0), and a validity
    /// bitmap (bit `i` set where row `i` is not NULL), with the NULLs
    /// counted.
    Text {
        data: Vec<u8>,
        offsets: Vec<i64>,
        valid: Vec<u8>,
        nulls: usize,
    },
}

impl Col {
    fn new(kind: Kind) -> Col {
        match kind {
            Kind::Integer => Col::Int(Vec::new(), Vec::new()),
            Kind::Boolean => Col::Bool(Vec::new(), Vec::new()),
            Kind::Text | Kind::Json => Col::Text {
                data: Vec::new(),
                offsets: vec![0],
                valid: Vec::new(),
                nulls: 0,
            },
        }
    }

    /// Adds a value as the csv tables write it (`None`: NULL).
    fn push(&mut self, name: &str, value: Option<&str>) -> std::io::Result<()> {
        let bad = |v: &str| {
            std::io::Error::other(format!(
                "`{name}` holds `{v}`, not what its type says (a bug)"
            ))
        };
        match self {
            Col::Int(values, mask) => {
                let v = value.map(|v| v.parse().map_err(|_| bad(v))).transpose()?;
                values.push(v.unwrap_or(0));
                mask.push(u8::from(v.is_none()));
            }
            Col::Bool(values, mask) => {
                let v = match value {
                    None => None,
                    Some("1") => Some(1),
                    Some("0") => Some(0),
                    Some(v) => return Err(bad(v)),
                };
                values.push(v.unwrap_or(0));
                mask.push(u8::from(v.is_none()));
            }
            Col::Text {
                data,
                offsets,
                valid,
                nulls,
            } => {
                let row = offsets.len() - 1;
                if row % 8 == 0 {
                    valid.push(0);
                }
                match value {
                    Some(v) => {
                        data.extend_from_slice(v.as_bytes());
                        valid[row / 8] |= 1 << (row % 8);
                    }
                    None => *nulls += 1,
                }
                offsets.push(data.len() as i64);
            }
        }
        Ok(())
    }

    /// The column for `kifu.dask`: `("integer" | "boolean", values, mask)`
    /// (8 bytes little-endian a value, or one), or `("text", rows, offsets,
    /// data, validity, nulls)`.
    fn to_py(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        use pyo3::types::PyBytes;
        let le = |v: &[i64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        Ok(match self {
            Col::Int(values, mask) => (
                "integer",
                PyBytes::new(py, &le(values)),
                PyBytes::new(py, mask),
            )
                .into_pyobject(py)?,
            Col::Bool(values, mask) => {
                ("boolean", PyBytes::new(py, values), PyBytes::new(py, mask)).into_pyobject(py)?
            }
            Col::Text {
                data,
                offsets,
                valid,
                nulls,
            } => (
                "text",
                offsets.len() - 1,
                PyBytes::new(py, &le(offsets)),
                PyBytes::new(py, data),
                PyBytes::new(py, valid),
                *nulls,
            )
                .into_pyobject(py)?,
        }
        .unbind())
    }
}

/// The rows of a part, kept as columns: the csv tables' rows
/// ([`rows::typed_rows`]), each game numbered after the `first` games of
/// its input before the part and keyed after the records before it.
struct Columns {
    tables: [Vec<Col>; 3],
    ids: GameIds,
    first: usize,
}

impl Games for Columns {
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> std::io::Result<()> {
        let id = self.ids.id(origin.bytes);
        let origin = Origin {
            index: origin.index + self.first,
            ..*origin
        };
        let tables = &mut self.tables;
        rows::typed_rows(text, &origin, &id, |t, values| {
            for ((col, value), column) in tables[t].iter_mut().zip(values).zip(COLUMNS[t]) {
                col.push(column.0, *value)?;
            }
            Ok(())
        })
    }

    fn name(&self) -> &str {
        "the tables"
    }
}

/// `kifu._kifu.table_part`: the csv tables' rows of one part of an input
/// ([`table_parts`]: its `job`, `start`, `end`, `first`, and `games` to
/// check), keyed after `prior` (each key met in the parts before it, with
/// how many records of it), as `kifu convert --to csv` over the whole
/// input writes them: three dicts of columns (games, tags, moves; each
/// column as [`Col::to_py`] gives it) and the part's counts and diagnostics (their lines and game numbers counted
/// from the part's start).
#[pyfunction]
#[pyo3(signature = (path, job=0, *, start=0, end=None, first=0, games=None, prior=None, from_format=None, no_validate=false, max_record_size=None, **options))]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
pub(super) fn table_part(
    py: Python<'_>,
    path: PathBuf,
    job: usize,
    start: u64,
    end: Option<u64>,
    first: usize,
    games: Option<usize>,
    prior: Option<Vec<(u64, u32)>>,
    from_format: Option<&str>,
    no_validate: bool,
    max_record_size: Option<RecordSize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Py<PyDict>, Py<PyDict>, Py<PyDict>, Py<PyDict>)> {
    use std::io::{Read, Seek, SeekFrom};
    let from = from_format.map(named).transpose()?;
    // The csv tables' rows, typed ([`rows::write_typed`]).
    let to = named("parquet")?;
    let given = keywords(options, Sides::Both)?;
    let prior = prior.unwrap_or_default();
    let max_record_size = max_record_size.map(|s| s.0);
    let mut raised = Raised::default();
    let done = py.detach(|| -> Result<_, Error> {
        let plan = plan::plan(std::slice::from_ref(&path), from, to, None)?;
        let job = plan
            .jobs
            .get(job)
            .ok_or_else(|| Error::Usage(format!("{}: it has no input {job}", path.display())))?;
        let options = crate::options::run::resolve(&given, &[job.from], to)?;
        let write = options.write();
        if write.get::<rows::Options>().is_some_and(|o| o.fen) {
            return Err(Error::Usage(
                "kifu.dask's tables have no fen column: write the csv or parquet tables \
                 with kifu.convert(..., fen=True) to have it"
                    .into(),
            ));
        }
        let conv = Converter {
            from: job.from,
            to,
            read: ReadOptions {
                format: options.read(job.from),
                no_validate,
                grammar_only: false,
                max_record: max_record_size,
                run_bytes: None,
                whole: false,
            },
            write: WriteOptions {
                format: options.write(),
                source: job.from.source_notation(&options.read(job.from)),
            },
        };
        let name = job.name();
        let (input, damage): (Box<dyn Read + Send>, Damage) = match (&job.input, start, end) {
            (_, 0, None) => job.open()?,
            (Some(p), _, _) => {
                let mut file = std::fs::File::open(p).map_err(|e| Error::io(p, e))?;
                file.seek(SeekFrom::Start(start))
                    .map_err(|e| Error::io(p, e))?;
                let file = std::io::BufReader::with_capacity(1 << 16, file);
                let range: Box<dyn Read + Send> = match end {
                    Some(end) => Box::new(file.take(end.saturating_sub(start))),
                    None => Box::new(file),
                };
                (range, Damage::default())
            }
            (None, _, _) => return Err(Error::Usage("standard input has no byte ranges".into())),
        };
        let mut sink = Columns {
            tables: COLUMNS.map(|cols| cols.iter().map(|c| Col::new(c.1)).collect()),
            ids: GameIds::after(&prior),
            first,
        };
        let mut said = Vec::new();
        let mut show = |d: &crate::error::Diagnostic| said.push(d.render(false));
        let mut report = Report {
            diagnostic: &mut show,
            reject: None,
            progress: &mut |_| raised.check(),
            strict: false,
            verbose: true,
        };
        let mut summary = convert_stream(input, &name, &conv, &mut sink, &mut report)?;
        if let Some(e) = damage.take() {
            said.push(crate::report::damaged(name.clone(), &e).render(false));
            summary.damaged += 1;
        }
        if let Some(games) = games {
            let read = summary.converted + summary.failed;
            if read != games {
                return Err(Error::io(
                    &name,
                    std::io::Error::other(format!(
                        "bytes {start}..{}: {read} games where the scan found {games} (a bug)",
                        end.map_or("the end".to_string(), |e| e.to_string())
                    )),
                ));
            }
        }
        Ok((sink, summary, said))
    });
    let (sink, summary, said) = raised.result(done)?;
    let mut out = Vec::with_capacity(3);
    for (t, cols) in sink.tables.iter().enumerate() {
        let d = PyDict::new(py);
        for (col, column) in cols.iter().zip(COLUMNS[t]) {
            d.set_item(column.0, col.to_py(py)?)?;
        }
        out.push(d.unbind());
    }
    let counts = PyDict::new(py);
    counts.set_item("converted", summary.converted)?;
    counts.set_item("failed", summary.failed)?;
    counts.set_item("warnings", summary.warnings)?;
    counts.set_item("damaged", summary.damaged)?;
    counts.set_item("diagnostics", said)?;
    let [games, tags, moves]: [Py<PyDict>; 3] = out
        .try_into()
        .map_err(|_| PyValueError::new_err("three tables (a bug)"))?;
    Ok((games, tags, moves, counts.unbind()))
}

/// A column of the csv tables as `table_columns` gives it: name, kind,
/// whether it is never NULL.
type ColumnInfo = (&'static str, &'static str, bool);

/// `kifu._kifu.table_columns`: the columns of the csv tables, as
/// `[(table, [(name, kind, not_null), ...]), ...]`, kind one of `text`,
/// `integer`, `boolean` and `json` (the schema `kifu.dask` types them by).
#[pyfunction]
pub(super) fn table_columns() -> Vec<(&'static str, Vec<ColumnInfo>)> {
    TABLES
        .iter()
        .zip(COLUMNS)
        .map(|(table, cols)| {
            let cols = cols
                .iter()
                .map(|&(name, kind, not_null)| {
                    let kind = match kind {
                        Kind::Text => "text",
                        Kind::Integer => "integer",
                        Kind::Boolean => "boolean",
                        Kind::Json => "json",
                    };
                    (name, kind, not_null)
                })
                .collect();
            (*table, cols)
        })
        .collect()
}
