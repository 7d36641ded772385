//! `kifu.read`: the iterator of an input's games ([`Reader`]), read and
//! parsed batch by batch on rayon's pool ([`Records::par_map`]).

use std::collections::VecDeque;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

use super::args::{keywords, named, settings, unexpected, RecordSize};
use super::game::{spelled, Game};
use super::{os_error, ReadError, ReadWarning};
use crate::archive::{cut_short, Document, ParMap, Records};
use crate::codec::{Parsed, ReadOptions, MAX_RECORD};
use crate::error::Problem;
use crate::format::{self, Format};
use crate::input::Damage;
use crate::options::{Settings, Side, Sides};
use crate::policy::read_claimed;

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

/// The keywords of `kifu.read` besides the format's options.
const READ_KEYWORDS: &[&str] = &[
    "source",
    "format",
    "text",
    "no_validate",
    "max_record_size",
    "errors",
];

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
            run_bytes: None,
            whole: false,
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
