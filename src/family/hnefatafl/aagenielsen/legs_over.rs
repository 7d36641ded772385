//! Berserk legs found back from a move a later-found leg made refused,
//! where the replay captures more than the record counts ([`legs_over`]):
//! the record's moves as written capture no more than its counts, and what
//! the replay captures past them the inferred legs took.

use super::berserk::EARLIER;
use super::last_leg::Tried;
use crate::error::Problem;
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::ATTACKERS;
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
    written_within(&game, rules, given).then_some((game, said))
}

/// Whether a game's moves as written, each move's first leg replayed by
/// `r` in the position the game has before it, capture no more pieces of
/// either side than `given` (the attackers', then the defenders').
fn written_within(game: &Game, r: &Rules, given: [u64; 2]) -> bool {
    let written = first_legs_capture(game, r);
    (0..2).all(|side| written[side] <= given[side])
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
            let leg = step.first_leg();
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

#[cfg(test)]
mod tests {
    use super::super::own_start::captured_by;
    use super::*;
    use crate::family::any::{Move, Variant};
    use crate::family::hnefatafl::{Board, Move as TMove, Square, Step};
    use crate::ir::{Ply, Side};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn the_moves_as_written_capture_what_their_first_legs_take() {
        // An attacker takes c7 on its way down to c8 (against c6) and goes
        // on along rank 8 to f8, taking g8 (against h8): its first leg
        // takes one man, the whole move two.
        let rules =
            Rules::parse("dim:11 atkf:y ber:c start:/5K5/11/11/11/11/2t8/2T8/6Tt3/11/11/2t8/")
                .unwrap();
        let mut game = Game::new(Variant::Tafl(Board {
            dim: 11,
            rules: Some(rules.clone()),
            validated: true,
        }));
        let step = Step {
            from: sq("c11"),
            via: vec![sq("c8")],
            to: sq("f8"),
            captures: vec![sq("c7"), sq("g8")],
            mark: None,
        };
        game.moves
            .plies
            .push(Ply::new(1, Side::Black, Move::Tafl(TMove::Step(step))));
        assert_eq!(captured_by(&game, &rules), [2, 0]);
        assert_eq!(first_legs_capture(&game, &rules), [1, 0]);
        assert!(
            written_within(&game, &rules, [1, 0]),
            "the leg's capture is over the count"
        );
        assert!(written_within(&game, &rules, [2, 0]));
        assert!(
            !written_within(&game, &rules, [0, 0]),
            "the move as written takes one"
        );
    }
}
