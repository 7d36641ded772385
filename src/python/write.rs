//! `kifu.write` and `Game.write`: games written with a format's writer and
//! framing ([`Sink`]).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::{named, settings};
use super::game::Game;
use super::{ReadError, WriteError};
use crate::archive::Sink;
use crate::codec::WriteOptions;
use crate::format::Format;
use crate::options::Side;

/// What a game is written with: the format's options from the keyword
/// arguments of `func` (whose own keywords are `own`).
pub(super) fn write_options(
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

pub(super) fn write_one(
    game: &Game,
    to: &Format,
    opts: &WriteOptions,
    out: &mut String,
) -> PyResult<()> {
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
pub(super) fn write(
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
