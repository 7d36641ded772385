//! `kifu.Game`: one game read, its parts as Python objects.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};

use super::args::named;
use super::write::{write_one, write_options};
use crate::family::spell::Lines;
use crate::format::{Format, FORMATS};
use crate::ir::{Comment, Game as IrGame, Line, Ply};
use crate::options::Settings;

/// One game read by `kifu.read`.
#[pyclass(module = "kifu._kifu", frozen)]
pub struct Game {
    pub(super) game: IrGame,
    /// Each ply's text, every line in the container's order ([`spelled`]).
    pub(super) texts: Option<Vec<String>>,
    pub(super) warnings: Vec<Py<PyAny>>,
    pub(super) format: &'static Format,
    /// The format's options it was read with (how its moves are spelled).
    pub(super) read: Settings,
    pub(super) index: usize,
    pub(super) line: usize,
    pub(super) file: String,
}

/// How each ply of a game (every line, in the container's order) is
/// spelled: in the source notation, or the first notation of the game's
/// family for an interchange format, with the source's options it was read
/// with (`read`); `None` where the moves cannot be replayed (read with
/// `no_validate`).
pub(super) fn spelled(game: &IrGame, source: &Format, read: &Settings) -> Option<Vec<String>> {
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
