//! The format registry: every notation and interchange format kifu reads or
//! writes, with its name, file extensions, family, reader, writer and
//! description. A new format is one module and one entry in [`FORMATS`].

use std::path::Path;

use crate::container::dialect::Dialect;
pub use crate::container::Parsed;
use crate::error::Problem;
use crate::family::chess::{pgn, sllavcco, sllavcco_html};
use crate::family::coerceo::notation as coerceo;
use crate::family::draughts::Board;
use crate::family::draughts::{diag as draughts_diag, num as draughts_num, pdn as draughts};
use crate::family::Family;
use crate::interchange::json;
use crate::ir::Game;

/// Options that change how records are read.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The draughts board to read every game on (`--variant`), overriding
    /// the GameType tag.
    pub draughts: Option<Board>,
    /// Convert chess by syntax alone, without replaying the moves.
    pub no_validate: bool,
    /// The piece letters of sllavcco cells (`--pieces`); `None` is English.
    /// Figurines are read with any set.
    pub pieces: Option<sllavcco::Pieces>,
    /// Read every record with the pest grammar, never the fast lexer (to
    /// check the fast lexer against the grammar).
    pub grammar_only: bool,
    /// The largest record read, in bytes (`--max-record-size`); `None` is
    /// [`crate::archive::MAX_RECORD`]. A larger one fails, alone.
    pub max_record: Option<usize>,
}

/// Options that change how games are written.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// The piece letters of sllavcco cells (`--pieces`); `None` is the
    /// format's default: English for `sllavcco`, figurines for
    /// `sllavcco-html`.
    pub pieces: Option<sllavcco::Pieces>,
}

/// Reads one record into a game.
pub type ReadFn = fn(&str, &ReadOptions) -> Result<Parsed, Problem>;

/// Writes one game, appending to the string; returns warnings about what the
/// target could not hold.
pub type WriteFn = fn(&Game, &WriteOptions, &mut String) -> Result<Vec<Problem>, Problem>;

/// How the records of a format are found in a stream by a cheap scan.
#[derive(Debug, Clone, Copy)]
pub enum Split {
    /// A PGN-style container: a record starts at a tag after movetext, or
    /// after one of the dialect's result tokens.
    Container {
        /// The notation's dialect of the container.
        dialect: &'static Dialect,
    },
    /// One record a line (JSON Lines).
    Lines,
    /// The elements of one JSON array.
    JsonArray,
    /// Scoresheets: a header block, a blank line and the grid; a record ends
    /// at the blank line after its grid.
    Sheet,
}

/// What a writer puts around and between games in one output.
#[derive(Debug, Clone, Copy)]
pub struct Framing {
    /// Before the first game.
    pub head: &'static str,
    /// Between two games.
    pub between: &'static str,
    /// After the last game.
    pub tail: &'static str,
}

const CONTAINER: Framing = Framing {
    head: "",
    between: "\n",
    tail: "",
};

/// One format of the registry.
#[derive(Debug)]
pub struct Format {
    /// The name used by `--from` and `--to`.
    pub name: &'static str,
    /// File name endings, without the leading dot; the first is written.
    pub extensions: &'static [&'static str],
    /// The family whose games it holds; `None` for interchange formats.
    pub family: Option<Family>,
    /// One line for `kifu formats`.
    pub description: &'static str,
    /// How records are split from a stream.
    pub split: Split,
    /// The reader, if kifu reads the format.
    pub read: Option<ReadFn>,
    /// The writer, if kifu writes the format.
    pub write: Option<WriteFn>,
    /// What goes around the games of one output.
    pub framing: Framing,
}

/// Every format kifu knows.
pub static FORMATS: &[Format] = &[
    Format {
        name: "pgn",
        extensions: &["pgn"],
        family: Some(Family::Chess),
        description: "chess, PGN with standard algebraic notation (every move replayed)",
        split: Split::Container {
            dialect: &pgn::DIALECT,
        },
        read: Some(pgn::read),
        write: Some(pgn::write),
        framing: CONTAINER,
    },
    Format {
        name: "draughts-num",
        extensions: &["pdn"],
        family: Some(Family::Draughts),
        description: "PDN 3.0 with numbered squares (32-28, 28x19x10)",
        split: Split::Container {
            dialect: &draughts::DIALECT,
        },
        read: Some(draughts_num::read),
        write: Some(draughts_num::write),
        framing: CONTAINER,
    },
    Format {
        name: "draughts-diag",
        extensions: &["diag.pdn"],
        family: Some(Family::Draughts),
        description: "PDN with diagonal coordinates (f45, gf5, e8g6x)",
        split: Split::Container {
            dialect: &draughts::DIALECT,
        },
        read: Some(draughts_diag::read),
        write: Some(draughts_diag::write),
        framing: CONTAINER,
    },
    Format {
        name: "sllavcco",
        extensions: &["sllavcco"],
        family: Some(Family::Chess),
        description: "chess, the column scoresheet (seed 004): Q3 in column c is Qc3",
        split: Split::Sheet,
        read: Some(sllavcco::read),
        write: Some(sllavcco::write),
        framing: CONTAINER,
    },
    Format {
        name: "sllavcco-html",
        extensions: &["html"],
        family: Some(Family::Chess),
        description: "chess, the column scoresheet as a printable HTML page (figurines)",
        split: Split::Sheet,
        read: None,
        write: Some(sllavcco_html::write),
        framing: sllavcco_html::FRAMING,
    },
    Format {
        name: "coerceo",
        extensions: &["coerceo"],
        family: Some(Family::Coerceo),
        description: "Coerceo Game Notation (seed 000): 1# 3c-3e 2# 4b-3d, x14a, T14, TT",
        split: Split::Container {
            dialect: &coerceo::DIALECT,
        },
        read: Some(coerceo::read),
        write: Some(coerceo::write),
        framing: CONTAINER,
    },
    Format {
        name: "coerceo-columns",
        extensions: &["coerceo"],
        family: Some(Family::Coerceo),
        description: "Coerceo Game Notation, a White and a Black ply a line (write only)",
        split: Split::Container {
            dialect: &coerceo::DIALECT,
        },
        read: None,
        write: Some(coerceo::write_columns),
        framing: CONTAINER,
    },
    Format {
        name: "json",
        extensions: &["json"],
        family: None,
        description: "the IR as one JSON array of games (any family)",
        split: Split::JsonArray,
        read: Some(json::read),
        write: Some(json::write),
        framing: Framing {
            head: "[\n",
            between: ",\n",
            tail: "\n]\n",
        },
    },
    Format {
        name: "jsonl",
        extensions: &["jsonl"],
        family: None,
        description: "the IR as JSON Lines, one game a line (any family)",
        split: Split::Lines,
        read: Some(json::read),
        write: Some(json::write_line),
        framing: Framing {
            head: "",
            between: "",
            tail: "",
        },
    },
];

/// The format with this name.
pub fn by_name(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(name))
}

/// The readable format a file name's ending names (the longest ending wins:
/// `x.diag.pdn` is draughts-diag, `x.pdn` draughts-num).
pub fn guess(path: &Path) -> Option<&'static Format> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    FORMATS
        .iter()
        .filter(|f| f.read.is_some())
        .flat_map(|f| f.extensions.iter().map(move |e| (f, *e)))
        .filter(|(_, e)| {
            name.len() > e.len() + 1
                && name.ends_with(e)
                && name.as_bytes()[name.len() - e.len() - 1] == b'.'
        })
        .max_by_key(|(_, e)| e.len())
        .map(|(f, _)| f)
}

/// A file name without the ending of its format (or its last extension).
pub fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(f) = guess(path) {
        for e in f.extensions {
            if name.to_ascii_lowercase().ends_with(&format!(".{e}")) {
                return name[..name.len() - e.len() - 1].to_string();
            }
        }
    }
    match name.rfind('.') {
        Some(i) if i > 0 => name[..i].to_string(),
        _ => name,
    }
}
