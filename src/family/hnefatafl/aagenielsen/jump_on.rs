//! A piece that jumped and went on ([`jump_on`]): where no other reading
//! bears a record of a type with berserk moves out, its rules read with
//! `bj:y` (a leg may follow a jump as it follows a capture), kept where
//! the replay captures no more than the record counts.

use super::berserk::{jump_over, WIDE};
use super::later::read_by;
use super::own_start::captured_by;
use super::{at_first_move, with_entry, Reading};
use crate::error::{Kind, Problem};
use crate::family::hnefatafl::rules::{Berserk, Rules};
use crate::family::hnefatafl::Move as TMove;
use crate::ir::{Game, Side};

/// Where the rules of a type with berserk moves refuse a record under
/// every start position and every reading of it: the record read by the
/// type's rules with `bj:y`, under which a piece that jumped over another
/// (a knight, a commander, the king, a man where `tj` lets it) may move on
/// in the same turn as one that captured may, the berserk legs searched as
/// far back as the wide search goes. The site's Berserk rules take the
/// jump from the Somali game High Jump, where jumping over a piece is a
/// way of capturing, and the records bear it out: Berserk 11x11
/// `game-3-46-5724`'s commander `26. g8-i8` jumps the defender on h8 and
/// goes on `i8-j8xj9`, the square the attackers' `27.` and `29.` moves
/// need. Tried only for a record with a move of two squares along a line
/// (a jump), that gives both its counts (`BlackPiecesCaptured`,
/// `WhitePiecesCaptured`), and kept only where the moves then replay and
/// the replay captures no more pieces of either side than the record
/// counts (fewer where a leg no later move needs is not seen, as the
/// berserk legs' captures are). An `other-rules` warning at the first move
/// says so, and the game is written with those rules.
pub(super) fn jump_on(
    tried: &Reading,
    given: [Option<u64>; 2],
    first: Side,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    let [Some(a), Some(d)] = given else {
        return None;
    };
    let any_jump = tried.game.moves.plies.iter().any(|p| {
        p.mv.as_tafl()
            .and_then(TMove::step)
            .is_some_and(|s| jump_over(s).is_some())
    });
    if !any_jump || tried.layouts.iter().any(|r| r.berserk == Berserk::No) {
        return None;
    }
    let rules: Vec<Rules> = tried
        .layouts
        .iter()
        .map(|r| with_entry(r, "bj:y"))
        .collect::<Option<_>>()?;
    let (reading, game, mut said) = read_by(tried, &rules, first, rules_tag, WIDE)?;
    let taken = captured_by(&game, game.variant.as_tafl()?.rules.as_ref()?);
    if taken[0] > a || taken[1] > d {
        return None;
    }
    let message = "the rules of the game type refuse the moves under every start position and \
                   every reading of them, and its rules with `bj:y` bear them out, capturing no \
                   more than the record counts (a piece that jumped moves on, as one that \
                   captured does): read by them";
    said.insert(
        0,
        at_first_move(&reading.places, message.into(), Kind::OtherRules),
    );
    Some((game, said))
}
