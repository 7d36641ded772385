//! Berserk legs found back from a move a later-found leg made refused, in
//! a record whose counts are its own lists ([`counted_as_listed`]): the
//! site counted the captures its JSON lists, which leaves out the lost
//! legs', so the counts say nothing of them.

use super::berserk::EARLIER;
use super::last_leg::Tried;
use super::listed::listed_of;
use super::own_start::captured_by;
use crate::error::Problem;
use crate::family::hnefatafl::ATTACKERS;
use crate::ir::Game;

/// Where the rules of a type with berserk moves refuse a record under
/// every start position and every reading of it: the berserk legs searched
/// as the wide search does, going back from a move a found leg made
/// refused ([`EARLIER`], the search of [`super::earlier`]), kept where the
/// whole record so replays by the type's own rules, the record's counts
/// (`BlackPiecesCaptured`, `WhitePiecesCaptured`) are the captures its
/// moves list ([`counts_are_lists`]) and the replay captures no fewer of
/// either side than it counts. [`super::earlier`] holds the same legs to
/// both counts exactly, which a record whose counts are its lists meets
/// only where no lost leg captures: the site's counts of the Tyr types
/// leave out the lost legs' captures, as its lists do (Tyr 15x15: of the
/// 74 counts of a side to whose list the legs the searches infer add
/// captures, 56 are the side's list, 14 the list less the last move's,
/// none the replay's). Tyr 15x15 `game-145-48-3948`: the defenders' `15... h9-j9`
/// stops on j9, where the attackers' `20. k9-j9` lands; the attackers'
/// `16. k1-k6xl6` went on `k6-k10xl10`, `k10-h10xh11` (so that `23.
/// h12-h10` passes h11) and `h10-j10xj9`, its first leg's end in the way
/// of the attackers' own `17. k15-k9` and its second's where `23.` lands,
/// until the last is in: it counts 6 and 4, its lists but the last move's
/// capture, and captures 10 and 4.
/// The `capture-count` warnings that follow keep the counts; a
/// `berserk-leg` warning for each move lengthened, none of other rules.
/// Last in the read chain: a record read before reads as it did.
pub(super) fn counted_as_listed(
    tried: &Tried,
    given: [Option<u64>; 2],
) -> Option<(Game, Vec<Problem>)> {
    if !counts_are_lists(&tried.reading.game, given) {
        return None;
    }
    let (_, game, said) = tried.search(&tried.reading.layouts, EARLIER)?;
    let rules = game.variant.as_tafl()?.rules.as_ref()?;
    let taken = captured_by(&game, rules);
    (0..2)
        .all(|side| given[side].is_some_and(|g| taken[side] >= g))
        .then_some((game, said))
}

/// Whether each side's count (`given`: the attackers', then the
/// defenders') is the captures the record's moves (`game`, as written)
/// list for that side, or those less the last move's where the record's
/// last move is that side's and captures (the count taken before it, as
/// the site's often is); false where a count is missing.
pub(super) fn counts_are_lists(game: &Game, given: [Option<u64>; 2]) -> bool {
    let listed = listed_of(game);
    let last = game.moves.plies.iter().rev().find_map(|p| {
        let step = p.mv.as_tafl()?.step()?;
        Some((usize::from(p.side != ATTACKERS), step.captures.len() as u64))
    });
    (0..2).all(|side| {
        let Some(count) = given[side] else {
            return false;
        };
        let list = listed[side].len() as u64;
        let before_last = match last {
            Some((s, n)) if s == side && n > 0 => list.checked_sub(n),
            _ => None,
        };
        count == list || before_last == Some(count)
    })
}
