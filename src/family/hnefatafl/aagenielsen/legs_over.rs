//! Berserk legs found back from a move a later-found leg made refused,
//! where the replay captures more than the record counts ([`legs_over`]):
//! the record's moves as written capture no more than its counts, and what
//! the replay captures past them the inferred legs took.

use super::berserk::EARLIER;
use super::last_leg::Tried;
use crate::error::Problem;
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::{Step, ATTACKERS};
use crate::ir::Game;

/// Where the rules refuse a record under every start position and every
/// reading of it, the search back from a move a later-found leg made
/// refused ([`super::earlier`]) too, where its replay's captures are not
/// the record's counts: the same search's reading (the type's own rules,
/// each inferred leg capturing, the whole record replaying), kept where
/// the record's moves as written, each move's first leg replayed in the
/// position the reading has before it, capture no more pieces of either
/// side than the record counts (`BlackPiecesCaptured`,
/// `WhitePiecesCaptured`). The captures past a count are then the inferred
/// legs', as they are in the records the first search reads (of Berserk
/// 11x11's, 119 replay capturing one to five more than a count, every one
/// of them with legs inferred; none without). Berserk 11x11
/// `game-3-68-1619`: the attackers' `22. g5-e5` moves from g5, where
/// `19. k5-i5xi6` went on `i5-g5xg4`. A `berserk-leg` warning for each
/// move lengthened, and a `capture-count` warning keeps each count the
/// replay differs from. Tried after every other reading: a record read
/// before reads as it did.
pub(super) fn legs_over(tried: &Tried, given: [Option<u64>; 2]) -> Option<(Game, Vec<Problem>)> {
    let given = [given[0]?, given[1]?];
    let (_, game, said) = tried.search(&tried.reading.layouts, EARLIER)?;
    let rules = game.variant.as_tafl()?.rules.as_ref()?;
    let written = first_legs_capture(&game, rules);
    (0..2)
        .all(|side| written[side] <= given[side])
        .then_some((game, said))
}

/// The pieces each side's moves capture with their first legs alone, as
/// the record writes them, each replayed by `r` in the position the whole
/// game has before it: the attackers', then the defenders' (the king not
/// counted, as the site's counts leave him out).
fn first_legs_capture(game: &Game, r: &Rules) -> [u64; 2] {
    let mut taken = [0u64; 2];
    rules::track(
        &game.moves,
        &mut Position::new(r),
        &mut |step, piece, before| {
            let defenders = piece.is_ascii_uppercase();
            let leg = Step {
                from: step.from,
                via: Vec::new(),
                to: step.via.first().copied().unwrap_or(step.to),
                captures: Vec::new(),
                mark: None,
            };
            let side = if defenders {
                ATTACKERS.other()
            } else {
                ATTACKERS
            };
            if let Ok(played) = before.clone().play(&leg, side, true) {
                taken[usize::from(defenders)] += played
                    .captures
                    .iter()
                    .filter(|&&c| before.piece(c).is_some_and(|p| p != b'K'))
                    .count() as u64;
            }
        },
    );
    taken
}
