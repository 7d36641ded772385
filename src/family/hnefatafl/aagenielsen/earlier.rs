//! Berserk legs found back from a move a later-found leg made refused
//! ([`earlier`]): a move's first leg lists a capture on a square the
//! record leaves empty, which an earlier lost leg of the other side filled.

use super::berserk::EARLIER;
use super::last_leg::Tried;
use super::listed::Gate;
use crate::error::Problem;
use crate::ir::Game;

/// Where the rules refuse a record under every start position and every
/// reading of it: the berserk legs searched as the wide search does, but
/// where a leg makes a move before the refused one refused (the leg's own
/// move, whose first leg then captures nothing by the rules, so that its
/// piece may not go on, though the record lists a capture there; or a move
/// after it), the legs before that move searched back from it ([`EARLIER`]).
/// The search looks back from the first move the rules refuse and keeps a
/// leg only where the moves then replay past it, so a lost leg that only a
/// later-found leg needs is never looked for. Berserk 11x11
/// `game-3-15-9457`: the defenders' `29... h7-h1` starts where `28...
/// f5-f7xf8` went on `f7-h7xh8` (h8 between h7 and the king on h9), and
/// `f5-f7` captures f8, which the record lists, only where the attackers'
/// `28. e2-e7xd7/e8` went on `e7-e8-f8xd8/g8`; with `8. h3-h8xh9` going on
/// `h8-i8xj8` for `9. i8-i7xj7`, the replay captures 7 and 3, as the record
/// counts. `game-3-30-3024`'s `9... g6-b6` passes d6, where the attackers'
/// `8. a6-d6xe6` stopped: it went on `d6-d9-c9-c7xd10/c10/b7`, each leg
/// capturing, its first legs blocking the defenders' `8... f9-b9`, which
/// passes d9 and c9, until the last is in. Kept only where the whole
/// record so replays by the type's own rules and its captures are both the
/// record's counts (`BlackPiecesCaptured`, `WhitePiecesCaptured`): a
/// `berserk-leg` warning for each move lengthened, none of other rules. Tried after every other reading: a
/// record read before reads as it did.
pub(super) fn earlier(tried: &Tried, given: [Option<u64>; 2]) -> Option<(Game, Vec<Problem>)> {
    if given.iter().any(Option::is_none) {
        return None;
    }
    let (_, game, said) = tried.search(&tried.reading.layouts, EARLIER)?;
    let rules = game.variant.as_tafl()?.rules.as_ref()?;
    Gate::from(given)
        .agrees(&game, rules)
        .then_some((game, said))
}
