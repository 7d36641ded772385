//! A lost berserk leg that clears the way for another ([`cleared`]): a
//! refused move needs lost legs of two moves, and one of them reaches its
//! square only once a further leg of the other has left the way.

use super::berserk::{berserk_legs, Turn, CLEARING};
use super::Reading;
use crate::error::Problem;
use crate::ir::Game;

/// Where the rules of a type with berserk moves refuse a record under every
/// other reading: the directed pass of the berserk legs' search with the
/// wide search's bounds, where a further leg of a move the pass lengthened
/// is tried though it touches none of the refused move's needs, and kept
/// where it leaves no more of them unmet, the legs searched back from the
/// refused move again ([`CLEARING`]); with the captured pieces the record
/// moves on read as the replay reads them, then as turned ([`Turn::Replay`],
/// [`super::turned`]).
///
/// The directed pass keeps only legs that touch the refused move's needs, so
/// a leg that clears the way for another is never tried. Old Tyr-1 15x15
/// `game-136-107-11642`: the defenders' `13... e5-e11xf11` passes e8 and
/// lands on e11, both held by defenders; the attackers' `11. j5-f5xf4` went
/// on `f5-f8xe8` (e8 against d8) and `f8-f11xf12` (f12 against f13), which
/// left f8, so that `13. f3-f1xg1` could go on `f1-f11xe11` (e11 against
/// d11) past it. Kept only where the whole record then replays by the type's
/// own rules, a `berserk-leg` warning at each move lengthened. Tried after
/// every other reading: a record read before reads as it did.
pub(super) fn cleared(tried: &Reading, rules_tag: Option<usize>) -> Option<(Game, Vec<Problem>)> {
    [Turn::No, Turn::Replay].into_iter().find_map(|turn| {
        berserk_legs(tried.clone(), rules_tag, CLEARING, turn).map(|(_, game, said)| (game, said))
    })
}
