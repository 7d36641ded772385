//! `kifu.convert` (`kifu convert`: [`crate::plan`], [`crate::convert::run`])
//! and `kifu.formats` (the registry, [`FORMATS`]).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyAny, PyDict};

use super::args::{keywords, unexpected, RecordSize};
use super::Raised;
use crate::codec::ReadOptions;
use crate::convert::{Ended, Run};
use crate::error::Error;
use crate::format::{Format, FORMATS};
use crate::options::{Side, Sides};
use crate::plan::{self, Outputs};

/// `kifu.formats`: every format, as `kifu formats` lists them.
#[pyfunction]
pub(super) fn formats(py: Python<'_>) -> PyResult<Vec<Py<PyDict>>> {
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
pub(super) fn convert(
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
