//! The arguments of the package's functions checked as Python checks
//! them: keywords as format options ([`keywords`], [`settings`]), a keyword
//! no format takes ([`unexpected`]), a format's name ([`named`]), a record
//! size ([`RecordSize`]).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use super::py_error;
use crate::format::{Format, FORMATS};
use crate::options::{Given, Settings, Side, Sides};
use crate::plan;

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

/// Keyword arguments as format options for `sides` (`Both`: whichever
/// side's format has it, as the command line's `--from-opt` and
/// `--to-opt` together): `NAME=VALUE` with `_` for `-`, a bool as `true`
/// or `false`, shown in messages as the keyword was written.
pub(super) fn keywords(options: Option<&Bound<'_, PyDict>>, sides: Sides) -> PyResult<Vec<Given>> {
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
pub(super) fn unexpected(
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

/// One format's options from keyword arguments, for reading or writing it
/// (`side`), checked as the command line checks `--from-opt` and
/// `--to-opt` ([`crate::options::run::resolve`]): a keyword it does not
/// take is a `TypeError` ([`unexpected`]), a value it refuses a
/// `ValueError`.
pub(super) fn settings(
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
pub(super) fn named(name: &str) -> PyResult<&'static Format> {
    plan::named(name).map_err(py_error)
}
