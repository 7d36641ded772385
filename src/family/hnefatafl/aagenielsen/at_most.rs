//! The readings with `ber:m` kept where they capture no more than the
//! record counts ([`at_most`]): the berserk legs' captures are lost from
//! the site's JSON, and the search finds only the legs later moves need.

use super::last_leg::Tried;
use super::listed::{gated, Gate};
use super::{other_layout, Reading};
use crate::error::Problem;
use crate::ir::Game;

/// Where the rules of a type with berserk moves that capture (`ber:c`,
/// `ber:t`) refuse a record under every start position and every reading
/// of it, the readings with `ber:m` held to its counts or its lists and a
/// piece that jumped going on included: those readings with `ber:m` again
/// (the last leg that captures nothing, [`super::last_leg::last_leg_free`],
/// then with the other readings, [`super::last_leg_turned::last_leg_turned`]),
/// each kept where the moves replay and the replay captures no more pieces
/// of either side than the record counts (`BlackPiecesCaptured`,
/// `WhitePiecesCaptured`). Fewer is what the record's JSON leads to
/// expect: it keeps each move's first leg and its captures alone, and the
/// search infers only the legs that later moves need, so the captures of
/// a leg no later move needs are not seen (the type's own rules replay
/// 184 of the 1,345 Berserk 11x11 records so, a count larger than the
/// replay's captures; the
/// reading of a piece that jumped going on, [`super::jump_on`], is held to
/// the same gate). More is evidence against the reading (a capture the
/// game did not make): not kept. Berserk 11x11 `game-3-10-25631` (its
/// moves list no captures, the rules' are taken): the attackers' `10.
/// k8-h8` takes h7 and went back `h8-k8`, capturing nothing, for the
/// king's `10... g8-i8` passes h8; read so, it captures 6 and 2 where the
/// record counts 6 and 4. The `other-rules` warning says what the captures
/// agree with, and the `capture-count` warning that follows every replay
/// whose captures differ from a count keeps the count. Where the type has
/// several start positions and no reading under them all is kept (the
/// search takes the first start position's legs where it finds any, and
/// they may capture more than the counts where another's do not), the
/// readings under each start position alone, in turn: Berserk 11x11
/// `game-3-177-24856` replays from the type's second (an `other-layout`
/// warning after the `other-rules` one names it). Last in the read chain:
/// a record read before reads as it did.
pub(super) fn at_most(tried: &Tried, given: [Option<u64>; 2]) -> Option<(Game, Vec<Problem>)> {
    let gate = Gate::at_most(given);
    let record = tried.reading;
    let alone = |n: usize| {
        let one = Reading {
            layouts: vec![record.layouts[n].clone()],
            ..record.clone()
        };
        let one = Tried::new(&one, tried.first, tried.rules_tag);
        let (game, mut said) = gated(&one, &gate)?;
        if n > 0 {
            said.insert(1, other_layout(&record.layouts, n, &record.places));
        }
        Some((game, said))
    };
    let several = record.layouts.len() > 1;
    gated(tried, &gate).or_else(|| {
        several
            .then(|| (0..record.layouts.len()).find_map(alone))
            .flatten()
    })
}
