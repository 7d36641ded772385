//! The berserk legs of a piece that captures round and round
//! ([`deep`]): more legs than the wide search looks for, kept where the
//! record's counts bear them out.

use super::berserk::DEEP;
use super::counted_as_listed::counts_are_lists;
use super::later::later_rules;
use super::listed::Gate;
use super::own_start::captured_by;
use super::{mended, Reading};
use crate::error::Problem;
use crate::family::hnefatafl::rules::{lists_captures, Berserk, Rules};
use crate::ir::{Game, Side};

/// Where the rules of a type with berserk moves refuse a record that lists
/// its captures and counts them under every other reading: the berserk
/// legs searched with the deepest bounds ([`DEEP`]: ten times the wide
/// search's replays, 16 legs), by the type's rules and then by its later
/// rules, each kept only where the whole record replays and the replay
/// captures no more pieces of either side than the record counts
/// (`BlackPiecesCaptured`, `WhitePiecesCaptured`; fewer where a leg no
/// later move needs is not seen, as [`super::at_most`] holds), or, where
/// the counts are the captures the record's moves list
/// ([`counts_are_lists`]: the site's counts then leave the lost legs'
/// captures out, as [`super::counted_as_listed`] reads them), no fewer.
/// Of Alea Berserk 19x19's records that replay with legs adding captures
/// to a side, the side's count is its list in 34 of 49, its list and the
/// legs' captures in 3.
///
/// Alea Berserk 19x19's commanders capture by jumping (`cj:c`) and, under
/// its `ber:m`, go on: a commander that jumps a guard of the king may go
/// on round the king, jumping and taking each guard, seven or nine legs in
/// one move, which the wide search's 8 legs and 6,000 replays do not reach.
/// `game-102-50-24435`: the attackers' `12. j13-j12xj11` went on round the
/// king (`j12-h12-h10-h8-j8-l8-l10-l12-n12`, taking ten), off l11 for the
/// king's `13... p11-f11`; the record counts 23 captures of the attackers
/// where its moves list 10, and the replay makes no more. A reading that
/// captures more than counts that are not the lists is a capture the game
/// did not make: not kept (`game-102-39-18247`, nine legs round the king,
/// 19 where it counts 8). Each move lengthened is a `berserk-leg` warning (and the later
/// rules' `other-rules` warning where they read it). Last in the read
/// chain: a record read before reads as it did, and only a record every
/// other reading leaves refused pays for the search.
pub(super) fn deep(
    tried: &Reading,
    at: Option<usize>,
    later: &[Rules],
    first: Side,
    rules_tag: Option<usize>,
    given: [Option<u64>; 2],
) -> Option<(Game, Vec<Problem>)> {
    let layout = tried.layouts.first()?;
    if layout.berserk == Berserk::No
        || !lists_captures(&tried.game.moves)
        || given.iter().any(Option::is_none)
    {
        return None;
    }
    let gate = Gate::at_most(given);
    // A record whose counts are its own lists: the site counted the
    // captures its JSON lists, which leaves out the lost legs', so the
    // counts say nothing of them ([`super::counted_as_listed`]).
    let as_listed = counts_are_lists(&tried.game, given);
    let kept = |game: &Game| {
        game.variant
            .as_tafl()
            .and_then(|board| board.rules.as_ref())
            .is_some_and(|rules| {
                if as_listed {
                    let taken = captured_by(game, rules);
                    (0..2).all(|side| given[side].is_some_and(|g| taken[side] >= g))
                } else {
                    gate.agrees(game, rules)
                }
            })
    };
    mended(tried.clone(), at, first, rules_tag, DEEP)
        .map(|(_, game, said)| (game, said))
        .filter(|(game, _)| kept(game))
        .or_else(|| {
            later_rules(tried, later, first, rules_tag, DEEP)
                .map(|(_, game, said)| (game, said))
                .filter(|(game, _)| kept(game))
        })
}
