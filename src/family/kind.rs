//! What a family's own module declares ([`Kind`]): its name, dialect,
//! board, move and setup types. The floor a room's own types stand on,
//! below the enums of any family ([`crate::family::any`]) and the IR.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::family::dialect::Dialect;
use crate::ir::side::Side;

/// What a family's records hold, as its room's own module (its leaf, which
/// imports nothing above the IR) declares it: the part of a family the IR
/// and the dispatching enums are made of. The hooks that need the
/// family's rules are [`crate::family::GameFamily`]'s.
pub trait Kind: 'static {
    /// The family's name as the CLI, `kifu formats` and the interchange
    /// formats spell it (`chess`).
    const NAME: &'static str;
    /// The dialect of the family's container notations: its numbering and
    /// result tokens.
    const DIALECT: &'static Dialect;
    /// The family's canonical notation, by its format's name: the one
    /// [`crate::family::MoveFields::written`] spells moves in, and `kifu
    /// diff` shows a side's moves in when the side's own format spells none
    /// (JSON).
    const CANONICAL: &'static str;
    /// Whether the family's readers replay each game's moves by its rules,
    /// which [`crate::codec::ReadOptions::no_validate`] (`--no-validate`)
    /// turns off: the moves are then read by their text alone, and what
    /// could not be checked is said in a warning. `--no-validate`'s help
    /// lists the families that do ([`crate::family::Family::replays`]).
    const REPLAYS: bool;
    /// The board a game is played on, as a record names it (the payload of
    /// [`crate::family::Variant`]).
    type Board: Clone + PartialEq + Eq + std::fmt::Debug + Serialize + DeserializeOwned;
    /// One move (the payload of [`crate::family::Move`]).
    type Move: Clone + PartialEq + Eq + std::fmt::Debug + Serialize + DeserializeOwned;
    /// A starting position a record gives (the payload of [`crate::family::Setup`]);
    /// [`NoSetup`] for a family whose records give none.
    type Setup: Clone + PartialEq + Eq + std::fmt::Debug + Serialize + DeserializeOwned;
    /// The side that moves first from the initial position of `board`.
    fn first_mover(board: &Self::Board) -> Side;
    /// The move as a number below 2^50, where the family's moves pack into
    /// one whole: equal numbers only for equal moves. `None` (the default)
    /// for a move that does not; the rows writer then compares the moves
    /// themselves to find a move's `ir` it keeps
    /// ([`crate::family::Move::packed`]).
    fn pack(_mv: &Self::Move) -> Option<u64> {
        None
    }
    /// Appends the move's JSON as `serde_json` writes it, put together
    /// from its parts (with `csv`, each quote doubled, as in a `csv`
    /// field), and gives true; false, nothing appended (the default), for
    /// a move the family does not put together so: `serde_json` writes it.
    /// The rows writer's `ir` values are written so
    /// ([`crate::family::Move::json_parts`]); a test compares the two
    /// texts.
    fn json_parts(_mv: &Self::Move, _csv: bool, _out: &mut String) -> bool {
        false
    }
}

/// The setup of a family whose records give no starting position: no
/// value has this type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoSetup {}
