//! The Python package `kifu` (its native module `kifu._kifu`): the
//! `python` feature, built by maturin (`pyproject.toml`, `pip install .`).
//! It is the library the command line runs, seen from Python:
//!
//! - `read` streams games out of a file or a text through the pipeline
//!   ([`Records::par_map`](crate::archive::Records::par_map)): the records are read and parsed batch by
//!   batch on rayon's pool, with the GIL released while the next batch is
//!   waited for, and at most [`crate::archive::in_flight`] batches held;
//! - `write` writes games with a format's writer and framing ([`Sink`](crate::archive::Sink));
//! - `convert` is `kifu convert` ([`crate::plan`], [`crate::convert::run`]);
//! - `formats` is the registry ([`crate::format::FORMATS`]);
//! - `table_parts` and `table_part` are the csv tables of an input cut
//!   into parts, for `kifu.dask`: the parts, cut at record boundaries by
//!   the format's scan ([`Records`](crate::archive::Records)), and one part's rows (the csv
//!   writer's, [`rows::typed_rows`](crate::interchange::rows::typed_rows)) as columns.
//!
//! A game that fails is an item of the iteration (a `ReadError`), not an
//! exception that ends it. What the caller got wrong is raised as Python
//! raises it: a keyword no format of the call takes is a `TypeError`
//! naming it and the ones there are ([`args::unexpected`]), a size out of range
//! a `ValueError` ([`args::RecordSize`]), a file that is not there a
//! `FileNotFoundError` ([`os_error`]); and every long loop runs Python's
//! signal handlers as it goes, so that Ctrl-C stops it within a batch
//! ([`Raised`]).

use std::io;
use std::path::Path;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyUserWarning, PyValueError};
use pyo3::prelude::*;

use crate::error::Error;

mod args;
mod convert;
mod game;
mod read;
mod tables;
mod write;

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

/// The native module, `kifu._kifu`; `python/kifu/__init__.py` is its face.
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<read::Reader>()?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(write::write, m)?)?;
    m.add_function(wrap_pyfunction!(convert::formats, m)?)?;
    m.add_function(wrap_pyfunction!(convert::convert, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_parts, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_part, m)?)?;
    m.add_function(wrap_pyfunction!(tables::table_columns, m)?)?;
    m.add("ReadError", py.get_type::<ReadError>())?;
    m.add("ReadWarning", py.get_type::<ReadWarning>())?;
    m.add("WriteError", py.get_type::<WriteError>())?;
    Ok(())
}
