//! Interchange formats: faithful dumps of the IR.

pub mod csv;
pub mod json;
pub mod parquet;
pub mod xml;

use crate::error::Problem;
use crate::ir::Ply;

/// Where the last ply written in an open line of a game written a run at
/// a time stands (`json`, `xml`): its element is left open, for the
/// variations that may open after it ([`crate::codec::RunWriter::open`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Last {
    /// No ply written in the line yet, or the last one closed.
    None,
    /// The ply open, without variations.
    Open,
    /// The ply open, after its variations.
    InVariations,
}

impl Last {
    /// Where a ply just written stands.
    pub(crate) fn of(ply: &Ply) -> Last {
        match ply.variations.is_empty() {
            true => Last::Open,
            false => Last::InVariations,
        }
    }
}

/// The error of a run or a close where no line is open (a bug of the
/// stream).
pub(crate) fn closed() -> Problem {
    Problem::whole("a variation closed that was not open")
}

/// The error of a variation opened in a line where no ply was written.
pub(crate) fn opened_first() -> Problem {
    Problem::whole("a variation opened before any move")
}

/// The error of a game ended with a variation open.
pub(crate) fn left_open() -> Problem {
    Problem::whole("a variation was left open")
}
