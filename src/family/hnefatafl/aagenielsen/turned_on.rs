//! Pieces read as turned that go on ([`turned_on`]): where a record of
//! aagenielsen.dk moves a captured piece on for the side that captured it
//! ([`super::turned`]), and that piece, or another whose position depends
//! on it, captures and goes on with berserk legs the record leaves out.

use super::berserk::{berserk_legs, Turn, BOUNDS, WIDE};
use super::Reading;
use crate::error::Problem;
use crate::ir::Game;

/// Where the rules refuse a record under every other reading, the captured
/// pieces the record moves on included ([`super::turned`]): the berserk
/// legs it leaves out, looked for with the search's positions reading
/// those pieces as turned too, so that a piece read as turned (Old Tyr-1
/// 13x13's `35. h4-h10xh11`, from the square where the attackers' `17.
/// h11-h5xh4` took a defender) goes on with its own legs (`h10-l10`,
/// from where `36. l10-i10` starts): with the search's bounds, then its
/// wider ones. The game replayed and its warnings, where the whole record
/// replays. Tried only where every reading before it fails, so a record
/// read before reads as it did.
pub(super) fn turned_on(
    reading: Reading,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    [BOUNDS, WIDE].into_iter().find_map(|bounds| {
        berserk_legs(reading.clone(), rules_tag, bounds, Turn::Search)
            .map(|(_, game, said)| (game, said))
    })
}
