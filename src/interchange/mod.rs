//! Interchange formats: faithful dumps of the IR.

pub mod csv;
pub mod json;
mod merge;
pub mod parquet;
pub mod rows;
pub mod xml;

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
