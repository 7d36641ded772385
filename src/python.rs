//! The Python package `kifu` (its native module `kifu._kifu`): the
//! `python` feature, built by maturin (`pyproject.toml`, `pip install .`).
//! It is the library the command line runs, seen from Python:
//!
//! - `read` streams games out of a file or a text through the pipeline
//!   ([`Records::par_map`]): the records are read and parsed batch by
//!   batch on rayon's pool, with the GIL released while the next batch is
//!   waited for, and at most [`crate::archive::in_flight`] batches held;
//! - `write` writes games with a format's writer and framing ([`Sink`]);
//! - `convert` is `kifu convert` ([`crate::plan`], [`crate::convert::run`]);
//! - `formats` is the registry ([`crate::format::FORMATS`]);
//! - `table_parts` and `table_part` are the csv tables of an input cut
//!   into parts, for `kifu.dask`: the parts, cut at record boundaries by
//!   the format's scan ([`Records`]), and one part's rows (the csv
//!   writer's, [`rows::typed_rows`]) as columns.
//!
//! A game that fails is an item of the iteration (a `ReadError`), not an
//! exception that ends it. What the caller got wrong is raised as Python
//! raises it: a keyword no format of the call takes is a `TypeError`
//! naming it and the ones there are ([`unexpected`]), a size out of range
//! a `ValueError` ([`RecordSize`]), a file that is not there a
//! `FileNotFoundError` ([`os_error`]); and every long loop runs Python's
//! signal handlers as it goes, so that Ctrl-C stops it within a batch
//! ([`Raised`]).

use std::collections::VecDeque;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::archive::{cut_short, Document, ParMap, Records, Sink};
use crate::codec::{Parsed, ReadOptions, WriteOptions, MAX_RECORD};
use crate::convert::{Ended, Run};
use crate::error::{Error, Problem};
use crate::family::spell::Lines;
use crate::format::{self, Format, FORMATS};
use crate::input::Damage;
use crate::ir::{Comment, Game as IrGame, Line, Ply};
use crate::options::{Given, Settings, Side, Sides};
use crate::plan::{self, Outputs};
use crate::policy::read_claimed;

mod tables;

create_exception!(
    _kifu,
    ReadError,
    PyException,
    "A game kifu could not read: an item of `kifu.read`'s iteration (the games after it are still read). Its attributes: message, kind, file, line, col, game (its number in the input, from 1; 0 for damage outside any game) and text (the record as written, where there is one)."
);
create_exception!(
    _kifu,
    ReadWarning,
    PyUserWarning,
    "What kifu noticed while reading a game that it still read (`Game.warnings`): message, kind, file, line, col, game."
);
create_exception!(
    _kifu,
    WriteError,
    PyException,
    "A game that a format cannot write (`kifu.write`), or a conversion that could not run (`kifu.convert`)."
);

/// A kifu error as a Python exception: usage errors are `ValueError`s, the
/// rest `OSError`s (input and output: [`os_error`]) or `WriteError`s.
fn py_error(e: Error) -> PyErr {
    match e {
        Error::Usage(m) => PyValueError::new_err(m),
        Error::Io { path, source } => Python::attach(|py| os_error(py, &path, &source, "")),
        other => WriteError::new_err(other.to_string()),
    }
}

/// An I/O error on a path as Python raises one: `OSError(errno, strerror,
/// filename)`, which is the subclass its error number names
/// (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`, ...), with
/// `hint` after the reason. An error of no number is an `OSError` of the
/// path and the reason.
fn os_error(py: Python<'_>, path: &Path, e: &io::Error, hint: &str) -> PyErr {
    let name = path.to_string_lossy().into_owned();
    let errno = e.raw_os_error().or(match e.kind() {
        io::ErrorKind::NotFound => Some(2),
        io::ErrorKind::PermissionDenied => Some(13),
        io::ErrorKind::AlreadyExists => Some(17),
        io::ErrorKind::NotADirectory => Some(20),
        io::ErrorKind::IsADirectory => Some(21),
        _ => None,
    });
    let mut reason = e.to_string();
    if let Some(n) = e.raw_os_error() {
        let suffix = format!(" (os error {n})");
        if let Some(plain) = reason.strip_suffix(&suffix) {
            reason = plain.to_string();
        }
    }
    reason.push_str(hint);
    let made = match errno {
        Some(n) => py.get_type::<PyOSError>().call1((n, reason, name)),
        None => py.get_type::<PyOSError>().call1((format!(
            "{}: {reason}",
            crate::error::escape_controls(&name)
        ),)),
    };
    match made {
        Ok(value) => PyErr::from_value(value),
        Err(e) => e,
    }
}

/// `max_record_size` as the command line's `--max-record-size` takes it:
/// bytes (an `int` from 1), or a text with K, M or G (`"64M"`). Out of
/// range is a `ValueError` (never an `OverflowError`), anything else a
/// `TypeError`.
pub(crate) struct RecordSize(pub(crate) usize);

impl<'a, 'py> FromPyObject<'a, 'py> for RecordSize {
    type Error = PyErr;

    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<RecordSize> {
        let py = value.py();
        if let Ok(text) = value.cast::<PyString>() {
            let text = text.to_cow()?;
            return plan::parse_size(&text)
                .map(RecordSize)
                .map_err(|why| PyValueError::new_err(format!("max_record_size={text:?}: {why}")));
        }
        let int = match value.is_instance_of::<PyBool>() {
            true => None,
            // An int, or what has its __index__ (numpy's integers).
            false => py.import("operator")?.call_method1("index", (value,)).ok(),
        };
        let Some(int) = int else {
            return Err(PyTypeError::new_err(format!(
                "max_record_size: a size in bytes (an int, or a text such as \"64M\"), not {}",
                value.get_type().name()?
            )));
        };
        match int.extract::<usize>() {
            Ok(n) if n > 0 => Ok(RecordSize(n)),
            _ => Err(PyValueError::new_err(format!(
                "max_record_size={int}: out of range: a size is 1 to {} bytes",
                usize::MAX
            ))),
        }
    }
}

/// A Python exception met by work that runs without the GIL and ends with
/// kifu's [`Error`]s (`kifu.convert`'s run): kept, the work told to stop,
/// and raised in place of the error it ended with. Its [`Raised::check`]
/// runs Python's signal handlers after each batch: on the main thread,
/// Ctrl-C's `KeyboardInterrupt` stops the run so.
#[derive(Default)]
pub(crate) struct Raised(Option<PyErr>);

impl Raised {
    /// Runs the signal handlers; a handler's exception (KeyboardInterrupt)
    /// stops the loop (an `Interrupted` error).
    pub(crate) fn check(&mut self) -> io::Result<()> {
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.0 = Some(e);
                Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"))
            }
        }
    }

    /// Keeps `e`, to be raised; the error that ends the work.
    pub(crate) fn keep(&mut self, e: PyErr) -> Error {
        self.0 = Some(e);
        Error::Usage("a Python exception".into())
    }

    /// What a loop came to, as Python sees it: the exception of a handler
    /// first, else its own error ([`py_error`]).
    pub(crate) fn result<T>(self, done: Result<T, Error>) -> PyResult<T> {
        match self.0 {
            Some(e) => Err(e),
            None => done.map_err(py_error),
        }
    }
}

/// A problem placed in the input: what `ReadError` and `ReadWarning` carry.
struct Placed {
    message: String,
    kind: crate::error::Kind,
    line: usize,
    col: usize,
    game: usize,
}

/// One item of the iteration, built without the GIL.
enum Item {
    Game {
        parsed: Box<Parsed>,
        texts: Option<Vec<String>>,
        warnings: Vec<Placed>,
        index: usize,
        line: usize,
    },
    Failed(Placed, Option<String>),
}

/// What a worker gives for one record.
enum Outcome {
    /// Text between games.
    Text,
    /// The game and how each of its plies is spelled ([`spelled`]).
    Read(Box<Result<Spelled, Problem>>),
}

/// A game read, with the text of each ply where it can be spelled.
type Spelled = (Parsed, Option<Vec<String>>);

/// What to do with a game that fails.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnError {
    Yield,
    Raise,
    Skip,
}

/// Where a reader is in its input: the pipeline's batches, the items of
/// the last batch not yet given, and what the end of the input needs.
struct Stream {
    /// `None` once the input is over.
    batches: Option<ParMap<Outcome>>,
    queue: VecDeque<Item>,
    document: Document,
    index: usize,
    /// Where the decompressor leaves the error of damaged data.
    damage: Damage,
    file: String,
}

/// The iterator `kifu.read` returns: the games of one input, in order.
#[pyclass(module = "kifu._kifu")]
pub struct Reader {
    stream: Mutex<Stream>,
    format: &'static Format,
    /// The format's options the games are read with.
    read: Settings,
    file: String,
    on_error: OnError,
}

/// Keyword arguments as format options for `sides` (`Both`: whichever
/// side's format has it, as the command line's `--from-opt` and
/// `--to-opt` together): `NAME=VALUE` with `_` for `-`, a bool as `true`
/// or `false`, shown in messages as the keyword was written.
fn keywords(options: Option<&Bound<'_, PyDict>>, sides: Sides) -> PyResult<Vec<Given>> {
    let mut out = Vec::new();
    if let Some(options) = options {
        for (k, v) in options.iter() {
            let keyword: String = k.extract()?;
            let value = if v.is_instance_of::<PyBool>() {
                if v.extract::<bool>()? {
                    "true"
                } else {
                    "false"
                }
                .to_string()
            } else {
                v.str()?.to_string()
            };
            out.push(Given {
                sides,
                shown: format!("{keyword}={value}"),
                name: keyword.replace('_', "-"),
                value,
            });
        }
    }
    Ok(out)
}

/// A keyword that no format of a call takes on its side, as Python refuses
/// an unexpected keyword: a `TypeError` naming it, with the call's own
/// keywords (`own`) and the options (as keywords) of each of `formats`;
/// `None`: the formats are not known yet, and a keyword no format takes is
/// refused.
fn unexpected(
    func: &str,
    own: &[&str],
    given: &[Given],
    formats: Option<&[(Side, &'static Format)]>,
) -> PyResult<()> {
    let takes = |g: &Given, side: Side, f: &Format| {
        g.sides.has(side) && f.options.declared(&g.name, side).is_some()
    };
    let refused = given.iter().find(|g| match formats {
        Some(formats) => !formats.iter().any(|&(side, f)| takes(g, side, f)),
        None => ![Side::Read, Side::Write]
            .into_iter()
            .any(|side| FORMATS.iter().any(|f| takes(g, side, f))),
    });
    let Some(g) = refused else { return Ok(()) };
    let mut text = format!(
        "{func}() got an unexpected keyword argument '{}': it takes {}",
        g.name.replace('-', "_"),
        own.join(", ")
    );
    match formats {
        None => text.push_str(", and no format has an option of that name"),
        Some(formats) => {
            let mut listed: Vec<(Side, &str)> = Vec::new();
            for &(side, f) in formats {
                if listed.contains(&(side, f.name)) {
                    continue;
                }
                listed.push((side, f.name));
                let doing = match side {
                    Side::Read => "reading",
                    Side::Write => "writing",
                };
                let names: Vec<String> = (f.options.list.iter())
                    .filter(|o| o.sides.has(side))
                    .map(|o| o.name.replace('-', "_"))
                    .collect();
                text.push_str(&match names.is_empty() {
                    true => format!("; {} has no options for {doing}", f.name),
                    false => format!("; {}'s options for {doing}: {}", f.name, names.join(", ")),
                });
            }
        }
    }
    Err(PyTypeError::new_err(text))
}

/// The keywords of `kifu.read` besides the format's options.
const READ_KEYWORDS: &[&str] = &[
    "source",
    "format",
    "text",
    "no_validate",
    "max_record_size",
    "errors",
];

/// One format's options from keyword arguments, for reading or writing it
/// (`side`), checked as the command line checks `--from-opt` and
/// `--to-opt` ([`crate::options::run::resolve`]): a keyword it does not
/// take is a `TypeError` ([`unexpected`]), a value it refuses a
/// `ValueError`.
fn settings(
    func: &str,
    own: &[&str],
    format: &'static Format,
    side: Side,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Settings> {
    let sides = match side {
        Side::Read => Sides::Read,
        Side::Write => Sides::Write,
    };
    let given = keywords(options, sides)?;
    unexpected(func, own, &given, Some(&[(side, format)]))?;
    let from: &[&'static Format] = match side {
        Side::Read => &[format],
        Side::Write => &[],
    };
    let resolved = crate::options::run::resolve(&given, from, format).map_err(py_error)?;
    Ok(match side {
        Side::Read => resolved.read(format),
        Side::Write => resolved.write(),
    })
}

/// The format of a name, or the command line's usage error.
fn named(name: &str) -> PyResult<&'static Format> {
    plan::named(name).map_err(py_error)
}

impl Reader {
    /// The stream, waited for without the GIL: a thread that holds it
    /// takes the GIL back when its batch is read. Ctrl-C stops the wait.
    fn lock(&self, py: Python<'_>) -> PyResult<std::sync::MutexGuard<'_, Stream>> {
        use std::sync::TryLockError;
        loop {
            match self.stream.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
                Err(TryLockError::WouldBlock) => {
                    py.check_signals()?;
                    py.detach(|| std::thread::sleep(std::time::Duration::from_millis(1)))
                }
            }
        }
    }
}

/// What `kifu.read` reads: a file, or the bytes of a text.
enum Source {
    Path(PathBuf),
    /// The bytes, and the name messages give them.
    Data(Vec<u8>, String),
}

impl Source {
    /// The `source` or `text=` of `kifu.read`: a `str` or `os.PathLike`
    /// is a path, `bytes` (or `bytearray`) the data, a file object (what
    /// has `read`) what it reads; `text=` a text (`str`, `bytes`).
    fn of(source: Option<&Bound<'_, PyAny>>, text: Option<&Bound<'_, PyAny>>) -> PyResult<Source> {
        let data = |v: &Bound<'_, PyAny>| -> PyResult<Option<Vec<u8>>> {
            Ok(if let Ok(s) = v.cast::<PyString>() {
                Some(s.to_cow()?.as_bytes().to_vec())
            } else if let Ok(b) = v.cast::<PyBytes>() {
                Some(b.as_bytes().to_vec())
            } else if let Ok(b) = v.cast::<PyByteArray>() {
                Some(b.to_vec())
            } else {
                None
            })
        };
        let kind =
            |v: &Bound<'_, PyAny>| -> PyResult<String> { Ok(v.get_type().name()?.to_string()) };
        match (source, text) {
            (Some(_), Some(_)) => Err(PyTypeError::new_err(
                "kifu.read() takes a source or text=, not both",
            )),
            (None, None) => Err(PyTypeError::new_err(
                "kifu.read() needs a source (a path or a file object) or text=",
            )),
            (None, Some(t)) => match data(t)? {
                Some(bytes) => Ok(Source::Data(bytes, "<text>".into())),
                None => Err(PyTypeError::new_err(format!(
                    "kifu.read(): text= is a str or bytes, not {}",
                    kind(t)?
                ))),
            },
            (Some(s), None) if s.is_instance_of::<PyString>() => {
                Ok(Source::Path(s.extract::<PathBuf>()?))
            }
            (Some(s), None) => {
                if let Some(bytes) = data(s)? {
                    return Ok(Source::Data(bytes, "<text>".into()));
                }
                if s.hasattr("read")? {
                    // A file object, read whole: its name, where it has one.
                    let read = s.call_method0("read")?;
                    let name = match s.getattr("name").ok() {
                        Some(n) if n.is_instance_of::<PyString>() => n.to_string(),
                        _ => "<text>".to_string(),
                    };
                    return match data(&read)? {
                        Some(bytes) => Ok(Source::Data(bytes, name)),
                        None => Err(PyTypeError::new_err(format!(
                            "kifu.read(): the file object's read() gave {}, not str or bytes",
                            kind(&read)?
                        ))),
                    };
                }
                if s.hasattr("__fspath__")? {
                    return Ok(Source::Path(s.extract::<PathBuf>()?));
                }
                Err(PyTypeError::new_err(format!(
                    "kifu.read(): source is a path (str or os.PathLike), bytes or a file object, \
                     not {} (a text goes as text=)",
                    kind(s)?
                )))
            }
        }
    }
}

/// A file opened for `kifu.read`, as Python's `open` refuses one: a file
/// that is not there is a `FileNotFoundError` (with a word, for a name that
/// looks like no format's, that a `str` is a path), a folder an
/// `IsADirectoryError`, a name with a NUL byte a `ValueError`.
fn open_path(
    py: Python<'_>,
    path: &Path,
) -> PyResult<(Box<dyn io::Read + Send>, crate::input::Damage)> {
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(PyValueError::new_err("embedded null byte"));
    }
    let hint = match format::guess(path) {
        Some(_) => "",
        None => " (a str is a path: give a text as text=, or in io.StringIO)",
    };
    match std::fs::metadata(path) {
        Err(e) => return Err(os_error(py, path, &e, hint)),
        Ok(m) if m.is_dir() => {
            let e = io::Error::new(io::ErrorKind::IsADirectory, "Is a directory");
            return Err(os_error(
                py,
                path,
                &e,
                " (kifu.read reads a file: kifu.convert reads folders)",
            ));
        }
        Ok(_) => {}
    }
    crate::input::open(path).map_err(|e| os_error(py, path, &e, ""))
}

#[pymethods]
impl Reader {
    #[new]
    #[pyo3(signature = (source=None, format=None, *, text=None, no_validate=false, max_record_size=None, errors="yield", options=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        source: Option<&Bound<'_, PyAny>>,
        format: Option<&str>,
        text: Option<&Bound<'_, PyAny>>,
        no_validate: bool,
        max_record_size: Option<RecordSize>,
        errors: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Reader> {
        let on_error = match errors {
            "yield" => OnError::Yield,
            "raise" => OnError::Raise,
            "skip" => OnError::Skip,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "errors={errors:?}: write \"yield\", \"raise\" or \"skip\""
                )))
            }
        };
        let format = format.map(named).transpose()?;
        // No format: a keyword no format takes is said first.
        let unknown = |why: String| -> PyResult<&'static Format> {
            let given = keywords(options, Sides::Read)?;
            unexpected("kifu.read", READ_KEYWORDS, &given, None)?;
            Err(PyValueError::new_err(format!(
                "{why}: give format= (kifu.formats() lists them)"
            )))
        };
        let (input, damage, file, format) = match Source::of(source, text)? {
            Source::Path(p) => {
                let (r, damage) = open_path(py, &p)?;
                let format = match format.or_else(|| format::guess(&p)) {
                    Some(f) => f,
                    None => unknown(format!(
                        "{}: kifu cannot tell the format from the name",
                        p.display()
                    ))?,
                };
                (r, damage, p.display().to_string(), format)
            }
            Source::Data(bytes, name) => {
                let format = match format {
                    Some(f) => f,
                    None => unknown("a text needs its format".into())?,
                };
                let (r, damage) = crate::input::decompressed(Cursor::new(bytes))?;
                (r, damage, name, format)
            }
        };
        if format.read.is_none() || format.split.folder().is_some() {
            return Err(PyValueError::new_err(format!(
                "kifu.read does not read {} (kifu.convert does what the command line does)",
                format.name
            )));
        }
        let read = ReadOptions {
            format: settings("kifu.read", READ_KEYWORDS, format, Side::Read, options)?,
            no_validate,
            grammar_only: false,
            max_record: max_record_size.map(|s| s.0),
            stream_above: None,
        };
        let read_settings = read.format.clone();
        let limit = read.max_record.unwrap_or(MAX_RECORD);
        let from = format;
        let map = move |r: crate::archive::Record<'_>| {
            let done = r.apply(limit, |bytes| {
                read_claimed(from, &read, bytes, limit).map(|parsed| {
                    // Spelled here, on the pool: the main thread only
                    // turns the game into Python objects.
                    let texts = spelled(&parsed.game, from, &read.format);
                    (parsed, texts)
                })
            });
            match done {
                None => Outcome::Text,
                Some(done) => Outcome::Read(Box::new(done)),
            }
        };
        // Smaller batches than the command line's: a game's IR is tens of
        // times its text, and the batches in flight hold them.
        let batches = Records::new(input, format.split)
            .with_limit(limit)
            .with_batch(64 << 10)
            .par_map(map);
        Ok(Reader {
            stream: Mutex::new(Stream {
                batches: Some(batches),
                queue: VecDeque::new(),
                document: Document::new(format.split),
                index: 0,
                damage,
                file: file.clone(),
            }),
            format,
            read: read_settings,
            file,
            on_error,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            // `list(kifu.read(...))` runs no Python code between items:
            // Ctrl-C is seen here.
            py.check_signals()?;
            let item = {
                let mut stream = self.lock(py)?;
                match stream.queue.pop_front() {
                    Some(item) => Some(item),
                    None if stream.batches.is_none() => return Ok(None),
                    None => {
                        let stream = &mut *stream;
                        py.detach(|| stream.fill())
                            .map_err(|e| os_error(py, Path::new(&self.file), &e, ""))?;
                        None
                    }
                }
            };
            let Some(item) = item else { continue };
            match item {
                Item::Game {
                    parsed,
                    texts,
                    warnings,
                    index,
                    line,
                } => {
                    let warnings = warnings
                        .into_iter()
                        .map(|w| {
                            placed(
                                py,
                                ReadWarning::new_err(w.message.clone()),
                                &w,
                                &self.file,
                                None,
                            )
                        })
                        .collect::<PyResult<Vec<_>>>()?;
                    let game = Game {
                        game: parsed.game,
                        texts,
                        warnings,
                        format: self.format,
                        read: self.read.clone(),
                        index,
                        line,
                        file: self.file.clone(),
                    };
                    return Ok(Some(Py::new(py, game)?.into_any()));
                }
                Item::Failed(p, text) => {
                    let e = placed(
                        py,
                        ReadError::new_err(p.message.clone()),
                        &p,
                        &self.file,
                        text,
                    )?;
                    match self.on_error {
                        OnError::Yield => return Ok(Some(e)),
                        OnError::Raise => return Err(PyErr::from_value(e.into_bound(py))),
                        OnError::Skip => continue,
                    }
                }
            }
        }
    }
}

/// An exception with the place of its problem as attributes.
fn placed(
    py: Python<'_>,
    e: PyErr,
    p: &Placed,
    file: &str,
    text: Option<String>,
) -> PyResult<Py<PyAny>> {
    let v = e.value(py);
    v.setattr("message", &p.message)?;
    v.setattr("kind", p.kind.name())?;
    v.setattr("file", file)?;
    v.setattr("line", p.line)?;
    v.setattr("col", p.col)?;
    v.setattr("game", p.game)?;
    v.setattr("text", text)?;
    Ok(v.clone().into_any().unbind())
}

impl Stream {
    /// Takes the next batch of games (or, at the end, the document's
    /// damage) into the queue; called without the GIL.
    fn fill(&mut self) -> std::io::Result<()> {
        let Some(batches) = self.batches.as_mut() else {
            return Ok(());
        };
        let Some(batch) = batches.next() else {
            self.batches = None;
            if let Some((line, col, what)) = self.document.cut() {
                let p = Placed {
                    message: cut_short(&what),
                    kind: crate::error::Kind::DamagedInput,
                    line,
                    col,
                    game: 0,
                };
                self.queue.push_back(Item::Failed(p, None));
            }
            // Compressed data cut short or corrupt: the stream ended
            // there, after the games before it.
            if let Some(e) = self.damage.take() {
                let d = crate::report::damaged(self.file.clone(), &e);
                let p = Placed {
                    message: d.message,
                    kind: d.kind,
                    line: d.line,
                    col: d.col,
                    game: 0,
                };
                self.queue.push_back(Item::Failed(p, None));
            }
            return Ok(());
        };
        let mut batch = match batch {
            Ok(b) => b,
            Err(e) => {
                self.batches = None;
                return Err(e);
            }
        };
        for (rec, outcome) in batch.drain() {
            self.document.record(&rec);
            let Outcome::Read(result) = outcome else {
                continue;
            };
            self.index += 1;
            let place = |p: &Problem| {
                let (line, col) = rec.place(p);
                Placed {
                    message: p.message.clone(),
                    kind: p.kind,
                    line,
                    col,
                    game: self.index,
                }
            };
            let item = match *result {
                Ok((parsed, texts)) => Item::Game {
                    warnings: parsed.warnings.iter().map(place).collect(),
                    parsed: Box::new(parsed),
                    texts,
                    index: self.index,
                    line: rec.start().0,
                },
                Err(p) => Item::Failed(
                    place(&p),
                    (!rec.bytes.is_empty()).then(|| {
                        String::from_utf8_lossy(rec.bytes.trim_ascii_start()).into_owned()
                    }),
                ),
            };
            self.queue.push_back(item);
        }
        Ok(())
    }
}

/// One game read by `kifu.read`.
#[pyclass(module = "kifu._kifu", frozen)]
pub struct Game {
    game: IrGame,
    /// Each ply's text, every line in the container's order ([`spelled`]).
    texts: Option<Vec<String>>,
    warnings: Vec<Py<PyAny>>,
    format: &'static Format,
    /// The format's options it was read with (how its moves are spelled).
    read: Settings,
    index: usize,
    line: usize,
    file: String,
}

/// How each ply of a game (every line, in the container's order) is
/// spelled: in the source notation, or the first notation of the game's
/// family for an interchange format, with the source's options it was read
/// with (`read`); `None` where the moves cannot be replayed (read with
/// `no_validate`).
fn spelled(game: &IrGame, source: &Format, read: &Settings) -> Option<Vec<String>> {
    let family = game.family();
    let notation = if source.family == Some(family) && source.spell.is_some() {
        source
    } else {
        FORMATS
            .iter()
            .find(|f| f.family == Some(family) && f.spell.is_some())?
    };
    (notation.spell?)(game, Lines::All, read).ok()
}

fn json_value(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_value(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_value(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

fn comment_texts(comments: &[Comment]) -> Vec<&str> {
    comments.iter().map(|c| c.text.as_str()).collect()
}

/// A line as a list of ply dictionaries, taking each ply's text from
/// `texts` in the container's order (each ply, then its variations).
fn line_to_py(
    py: Python<'_>,
    line: &Line,
    texts: &mut Option<std::vec::IntoIter<String>>,
) -> PyResult<Py<PyList>> {
    let list = PyList::empty(py);
    for ply in &line.plies {
        list.append(ply_to_py(py, ply, texts)?)?;
    }
    Ok(list.unbind())
}

fn ply_to_py(
    py: Python<'_>,
    ply: &Ply,
    texts: &mut Option<std::vec::IntoIter<String>>,
) -> PyResult<Py<PyAny>> {
    let d = PyDict::new(py);
    let text = texts.as_mut().and_then(|t| t.next());
    d.set_item("number", ply.number)?;
    d.set_item(
        "side",
        match ply.side {
            crate::ir::Side::White => "white",
            crate::ir::Side::Black => "black",
        },
    )?;
    d.set_item("text", text)?;
    let mv = serde_json::to_value(&ply.mv).map_err(|e| PyValueError::new_err(e.to_string()))?;
    d.set_item("move", json_value(py, &mv)?)?;
    d.set_item("glyph", ply.glyph.as_deref())?;
    d.set_item("nags", &ply.nags)?;
    d.set_item("before", comment_texts(&ply.before))?;
    d.set_item("after", comment_texts(&ply.after))?;
    let vars = PyList::empty(py);
    for v in &ply.variations {
        vars.append(line_to_py(py, v, texts)?)?;
    }
    d.set_item("variations", vars)?;
    Ok(d.into_any().unbind())
}

#[pymethods]
impl Game {
    /// The tags in the order of the record (the first of two of one name).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for t in &self.game.tags {
            if !d.contains(&t.name)? {
                d.set_item(&t.name, &t.value)?;
            }
        }
        Ok(d)
    }

    /// The main line: a dictionary per ply.
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let mut texts = self.texts.clone().map(Vec::into_iter);
        line_to_py(py, &self.game.moves, &mut texts)
    }

    /// The variations of the main line: (index of the main-line ply each
    /// replaces, its plies).
    #[getter]
    fn variations(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let moves = self.moves(py)?;
        let out = PyList::empty(py);
        for (i, ply) in moves.bind(py).iter().enumerate() {
            let vars = ply.get_item("variations")?;
            for v in vars.try_iter()? {
                out.append(PyTuple::new(py, [i.into_pyobject(py)?.into_any(), v?])?)?;
            }
        }
        Ok(out.unbind())
    }

    /// The comments of the main line: (how many of its plies come before
    /// it, its text), in order; those before the tags first.
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        let g = &self.game;
        out.extend(g.preamble.iter().map(|c| (0, c.text.to_string())));
        for (i, ply) in g.moves.plies.iter().enumerate() {
            out.extend(ply.before.iter().map(|c| (i, c.text.to_string())));
            out.extend(ply.after.iter().map(|c| (i + 1, c.text.to_string())));
        }
        let n = g.moves.plies.len();
        out.extend(g.moves.trailing.iter().map(|c| (n, c.text.to_string())));
        out
    }

    /// The result token (`1-0`, `*`), or `None` when the record has none.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game.result.map(|r| r.token())
    }

    /// The game family (`chess`, `draughts`, ...).
    #[getter]
    fn family(&self) -> &'static str {
        self.game.family().name()
    }

    /// The format it was read from.
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name
    }

    /// Its number in the input, from 1 (failed games count).
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// The line of the input where it starts.
    #[getter]
    fn line(&self) -> usize {
        self.line
    }

    /// The input's name (a path, or `<text>`).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// What kifu noticed while reading it: `ReadWarning`s.
    #[getter]
    fn warnings(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.warnings.iter().map(|w| w.clone_ref(py)).collect()
    }

    /// The game in kifu's JSON (the `json` format).
    fn to_json(&self) -> PyResult<String> {
        self.write("json", None)
    }

    /// The game written in a format (its options as keyword arguments).
    #[pyo3(signature = (format, **options))]
    fn write(&self, format: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let to = named(format)?;
        let opts = write_options("Game.write", &["format"], to, options)?;
        let mut out = String::new();
        write_one(self, to, &opts, &mut out)?;
        Ok(out)
    }

    fn __repr__(&self) -> String {
        let tag = |n| self.game.tag(n).unwrap_or("?");
        format!(
            "<kifu.Game {} #{}: {} - {}, {} plies, {}>",
            self.family(),
            self.index,
            tag("White"),
            tag("Black"),
            self.game.moves.plies.len(),
            self.result().unwrap_or("no result")
        )
    }
}

/// What a game is written with: the format's options from the keyword
/// arguments of `func` (whose own keywords are `own`).
fn write_options(
    func: &str,
    own: &[&str],
    to: &'static Format,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<WriteOptions> {
    if to.write.is_none() || to.split.folder().is_some() || to.one_game {
        return Err(PyValueError::new_err(format!(
            "kifu.write does not write {} (kifu.convert does)",
            to.name
        )));
    }
    Ok(WriteOptions {
        format: settings(func, own, to, Side::Write, options)?,
        source: None,
    })
}

fn write_one(game: &Game, to: &Format, opts: &WriteOptions, out: &mut String) -> PyResult<()> {
    if let Some(family) = to.family {
        if family != game.game.family() {
            return Err(WriteError::new_err(format!(
                "game {}: a {} game cannot be written as {}",
                game.index,
                game.game.family().name(),
                to.name
            )));
        }
    }
    let opts = WriteOptions {
        source: game.format.source_notation(&game.read),
        ..opts.clone()
    };
    let write = to.write.expect("checked");
    write(&game.game, &opts, out)
        .map(|_| ())
        .map_err(|p| WriteError::new_err(format!("game {}: {}", game.index, p.message)))
}

/// `kifu.write`: the games in one text of a format, framed as a file of it.
/// Ctrl-C stops it between two games.
#[pyfunction]
#[pyo3(signature = (games, format, **options))]
fn write(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    format: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let to = named(format)?;
    let opts = write_options("kifu.write", &["games", "format"], to, options)?;
    let mut sink = Sink::new(Vec::new(), to.framing);
    let mut text = String::new();
    for (i, game) in games.try_iter()?.enumerate() {
        py.check_signals()?;
        let game = game?;
        let Ok(game) = game.cast::<Game>() else {
            let hint = match game.is_instance_of::<ReadError>() {
                true => " (a game kifu.read could not read: read with errors=\"skip\" to leave them out)",
                false => "",
            };
            return Err(PyTypeError::new_err(format!(
                "kifu.write takes the games kifu.read gives: item {i} is a {}{hint}",
                game.get_type().name()?
            )));
        };
        text.clear();
        write_one(game.get(), to, &opts, &mut text)?;
        sink.game(&text)?;
    }
    let bytes = sink.finish()?;
    String::from_utf8(bytes).map_err(|e| WriteError::new_err(e.to_string()))
}

/// `kifu.formats`: every format, as `kifu formats` lists them.
#[pyfunction]
fn formats(py: Python<'_>) -> PyResult<Vec<Py<PyDict>>> {
    FORMATS
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            d.set_item("name", f.name)?;
            d.set_item("extensions", f.extensions.to_vec())?;
            d.set_item("family", f.family.map(|x| x.name()))?;
            d.set_item("description", f.description)?;
            d.set_item("reads", f.read.is_some())?;
            d.set_item("writes", f.write.is_some())?;
            Ok(d.unbind())
        })
        .collect()
}

/// The keywords of `kifu.convert` besides the formats' options.
const CONVERT_KEYWORDS: &[&str] = &[
    "src",
    "dst",
    "to",
    "from_format",
    "out_dir",
    "no_validate",
    "max_record_size",
    "strict",
    "rejects",
];

/// `kifu.convert`: `kifu convert` from Python. Ctrl-C stops it after the
/// batch it is converting, its outputs not put in place ([`Raised`]).
#[pyfunction]
#[pyo3(signature = (src, dst=None, *, to=None, from_format=None, out_dir=false, no_validate=false, max_record_size=None, strict=false, rejects=None, **options))]
#[allow(clippy::too_many_arguments)]
fn convert(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: Option<PathBuf>,
    to: Option<&str>,
    from_format: Option<&str>,
    out_dir: bool,
    no_validate: bool,
    max_record_size: Option<RecordSize>,
    strict: bool,
    rejects: Option<PathBuf>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyDict>> {
    let inputs: Vec<PathBuf> = match src.extract::<PathBuf>() {
        Ok(p) => vec![p],
        Err(_) => src.extract::<Vec<PathBuf>>()?,
    };
    let (output, dir) = match (dst.as_deref(), out_dir) {
        (Some(d), true) => (None, Some(d)),
        (d, _) => (d, None),
    };
    let given = keywords(options, Sides::Both)?;
    let rejects = rejects.as_deref();
    let max_record = max_record_size.map(|s| s.0);
    let mut raised = Raised::default();
    let done = py.detach(|| -> Result<(Ended, Vec<String>), Error> {
        let (from, to) = plan::formats(from_format, to, output)?;
        let mut plan = plan::plan(&inputs, from, to, dir)?;
        if let Some(why) = plan.nothing_to_convert() {
            return Err(Error::Usage(why.to_string()));
        }
        plan.set_aside(to, strict)?;
        let formats: Vec<&'static Format> = match from {
            Some(f) => vec![f],
            None => plan.jobs.iter().map(|j| j.from).collect(),
        };
        let sides: Vec<(Side, &'static Format)> = (formats.iter().map(|&f| (Side::Read, f)))
            .chain([(Side::Write, to)])
            .collect();
        unexpected("kifu.convert", CONVERT_KEYWORDS, &given, Some(&sides))
            .map_err(|e| raised.keep(e))?;
        let options = crate::options::run::resolve(&given, &formats, to)?;
        let outputs = Outputs {
            output,
            out_dir: dir,
            rejects,
        };
        plan.check(&outputs, to)?;
        let run = Run {
            to,
            options: &options,
            read: ReadOptions {
                no_validate,
                max_record,
                ..ReadOptions::default()
            },
            outputs,
            strict,
            verbose: true,
        };
        let mut said = Vec::new();
        let ended = crate::convert::run(
            &plan,
            &run,
            &mut |d| said.push(d.render(false)),
            &mut |_| raised.check(),
        )?;
        Ok((ended, said))
    });
    let (ended, said) = raised.result(done)?;
    let d = PyDict::new(py);
    if let Ended::Done(totals) = ended {
        let s = totals.summary;
        d.set_item("converted", s.converted)?;
        d.set_item("failed", s.failed)?;
        d.set_item("warnings", s.warnings)?;
        d.set_item("damaged", s.damaged)?;
        d.set_item("skipped", totals.skipped)?;
        d.set_item("summary", totals.line())?;
    }
    d.set_item("diagnostics", said)?;
    Ok(d.unbind())
}

/// The native module, `kifu._kifu`; `python/kifu/__init__.py` is its face.
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Reader>()?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_parts, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_part, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_columns, m)?)?;
    m.add("ReadError", py.get_type::<ReadError>())?;
    m.add("ReadWarning", py.get_type::<ReadWarning>())?;
    m.add("WriteError", py.get_type::<WriteError>())?;
    Ok(())
}
