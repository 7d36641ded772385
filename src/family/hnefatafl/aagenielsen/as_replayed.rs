//! The berserk legs looked for in positions that read each move's captures
//! as the replay does ([`as_replayed`]).

use super::berserk::{berserk_legs, Turn, WIDE};
use super::Reading;
use crate::error::Problem;
use crate::ir::Game;

/// Where the rules refuse a record under every other reading: the berserk
/// legs it leaves out, looked for with the search's positions reading each
/// move's captures as the replay reads them ([`Turn::AsRead`]), not as the
/// record lists them. The search judges a leg in the position before it;
/// where that position takes a piece the record lists as captured but its
/// later moves show still there (the replay leaves it: `capture-unruled`,
/// "not taken"), or leaves one the rules capture that the record does not
/// list and its later moves show gone (the replay takes it), the search and
/// the replay disagree on the board, and a leg that captures in the
/// replay's position (Berserk 11x11 `game-3-89-1296`'s `9... h6-h4xh3`,
/// going on to i4 and taking i3 against i2, which the search read as taken
/// by the attackers' `9. g1-h1xi2`) is refused. With the wide search's
/// bounds; the game replayed and its warnings, where the whole record
/// replays. Tried after the captured pieces read as turned and before the
/// last leg that captures nothing ([`super::last_leg_free`]): a reading by
/// the type's own rules before one by other rules (`ber:m`, which read
/// `game-3-89-1296` before, with the same moves and captures).
pub(super) fn as_replayed(
    reading: Reading,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    berserk_legs(reading, rules_tag, WIDE, Turn::AsRead).map(|(_, game, said)| (game, said))
}
