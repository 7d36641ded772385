//! Captured pieces a record of aagenielsen.dk moves on for the side that
//! captured them ([`turned`]): where no other reading bears the record
//! out, the piece taken is read as turned to the capturing side.

use super::berserk::{berserk_legs, Turn, BOUNDS};
use super::{replay_layouts_by, Reading};
use crate::error::Problem;
use crate::ir::Game;

/// Where the rules refuse a record under every start position, mend,
/// berserk leg and start position of its own: the record replayed under
/// each start position of its type, a move from a square that a listed
/// capture of the mover's side emptied, no move entering or passing it
/// since, reading the piece taken there as turned to the mover's side, or,
/// where the other side took it, as not taken
/// ([`crate::family::hnefatafl::rules::replay_turning`]; Old Tyr-1 17x17's
/// `24... q8-p8xo8`, then `25... o8-o7xn7` and `27... p8-q8`: both the
/// capturer and a piece on the square it captured on move on); where the
/// rules still refuse a move, the berserk legs the record leaves out are
/// looked for so read. The game replayed and its warnings (a
/// `capture-turned` or `capture-left` at each such move), where the whole
/// record replays.
pub(super) fn turned(reading: Reading, rules_tag: Option<usize>) -> Option<(Game, Vec<Problem>)> {
    match replay_layouts_by(
        &reading.game,
        &reading.layouts,
        rules_tag,
        &reading.places,
        true,
    ) {
        Ok(done) => Some(done),
        Err(_) => berserk_legs(reading, rules_tag, BOUNDS, Turn::Replay)
            .map(|(_, game, said)| (game, said)),
    }
}
