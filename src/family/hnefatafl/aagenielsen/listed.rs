//! A count the record's own list of captures contradicts ([`listed`]):
//! where a record of aagenielsen.dk counts fewer captures of a side than
//! its moves list, the readings with `ber:m` held to that side's list.

use super::last_leg::{last_leg_free, Tried};
use super::last_leg_turned::last_leg_turned;
use super::own_start::{captured_by, captured_on};
use super::Reading;
use crate::error::Problem;
use crate::family::any::Move;
use crate::family::hnefatafl::rules::Rules;
use crate::family::hnefatafl::{Square, ATTACKERS};
use crate::ir::{Game, Ply};

/// What the captures of a reading with `ber:m` must agree with to be kept
/// ([`super::last_leg::counted`]): the record's counts
/// (`BlackPiecesCaptured`, `WhitePiecesCaptured`), each side's, or, for a
/// side whose count falls short of the captures the record's own moves
/// list, that list.
pub(super) struct Gate {
    /// The record's counts: the attackers' captures, then the defenders'.
    given: [Option<u64>; 2],
    /// The squares the record's moves list as captured, each side's
    /// sorted, where some side's count falls short of them; none where the
    /// counts alone are the gate.
    listed: Option<[Vec<Square>; 2]>,
    /// Whether each side's captures need only be no more than its count
    /// ([`Gate::at_most`]).
    at_most: bool,
}

impl From<[Option<u64>; 2]> for Gate {
    fn from(given: [Option<u64>; 2]) -> Self {
        Gate {
            given,
            listed: None,
            at_most: false,
        }
    }
}

impl Gate {
    /// The record's counts, as [`super::Record`] gives them.
    pub(super) fn given(&self) -> [Option<u64>; 2] {
        self.given
    }

    /// The gate of a record (`tried`, as written) one of whose counts
    /// (`given`) falls short of the captures its moves list for that side:
    /// none where both counts are at least the list's (the counts alone are
    /// the gate, and were tried), or the record lacks one.
    fn of_list(tried: &Reading, given: [Option<u64>; 2]) -> Option<Gate> {
        let listed = listed_of(&tried.game);
        let short = given
            .iter()
            .zip(&listed)
            .any(|(g, l)| g.is_some_and(|g| g < l.len() as u64));
        (short && given.iter().all(Option::is_some)).then_some(Gate {
            given,
            listed: Some(listed),
            at_most: false,
        })
    }

    /// The gate of a record whose captures need only be no more than its
    /// counts, each side's ([`super::at_most`]).
    pub(super) fn at_most(given: [Option<u64>; 2]) -> Gate {
        Gate {
            at_most: true,
            ..Gate::from(given)
        }
    }

    /// Whether a game's captures, replayed by `rules`, agree: each side's
    /// number with its count, or, for a side whose count falls short of
    /// its list, its squares with the list's, one for one.
    pub(super) fn agrees(&self, game: &Game, rules: &Rules) -> bool {
        let Some(listed) = &self.listed else {
            let taken = captured_by(game, rules);
            if self.at_most {
                return (0..2).all(|side| self.given[side].is_some_and(|g| taken[side] <= g));
            }
            return taken.map(Some) == self.given;
        };
        let made = captured_on(game, rules);
        (0..2).all(|side| {
            let count = self.given[side].unwrap_or(0);
            if count < listed[side].len() as u64 {
                made[side] == listed[side]
            } else {
                made[side].len() as u64 == count
            }
        })
    }

    /// What the captures agree with, for the `other-rules` warning.
    pub(super) fn what(&self) -> &'static str {
        match self.listed {
            None if self.at_most => {
                "capturing no more than the record counts (fewer where a leg no later move needs \
                 is not seen)"
            }
            None => "with the captures the record counts",
            Some(_) => {
                "with the captures the record lists, square for square, for a side it counts \
                 fewer of than it lists (the count contradicting its own moves), and as many as \
                 it counts for the other"
            }
        }
    }
}

/// The squares a game's moves, as the record writes them, list as
/// captured: the attackers', then the defenders', each sorted.
pub(super) fn listed_of(game: &Game) -> [Vec<Square>; 2] {
    listed_in(&game.moves.plies)
}

/// [`listed_of`] of some plies of a game.
pub(super) fn listed_in(plies: &[Ply]) -> [Vec<Square>; 2] {
    let mut listed: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    for ply in plies {
        if let Move::Tafl(mv) = &ply.mv {
            if let Some(step) = mv.step() {
                listed[usize::from(ply.side != ATTACKERS)].extend(&step.captures);
            }
        }
    }
    listed.iter_mut().for_each(|l| l.sort_unstable());
    listed
}

/// Where the rules of a type with berserk moves refuse a record under
/// every start position and every reading of it, the last legs that
/// capture nothing ([`last_leg_free`], [`last_leg_turned`]) included, and
/// the record counts fewer captures of a side than its own moves list (the
/// site's counts are not its lists: Old Tyr 11x11 `game-156-58-22977`
/// lists three captures of the attackers, `6. c5-f5xf4`, `8. d4-d5xd6`
/// and `13. h4-h6xh7`, and counts two): those readings again, each kept
/// where the moves replay and the replay's captures of that side are the
/// ones listed, square for square, and those of a side whose count is at
/// least its list as many as it counts. That record's `13. h4-h6xh7` went
/// back to h4 (`h4-h6-h4xh7`), from where `16. h4-h6` moves the piece
/// again; its captures are the three listed and the defenders' five.
/// Tried only where a count falls short of its list, after every other
/// reading: a record read before reads as it did, and one whose counts
/// are at least its lists pays nothing. The `other-rules` warning says
/// what the captures agree with; the `capture-count` warning that follows
/// every replay whose captures differ from a count keeps the count.
pub(super) fn listed(tried: &Tried, given: [Option<u64>; 2]) -> Option<(Game, Vec<Problem>)> {
    let gate = Gate::of_list(tried.reading, given)?;
    gated(tried, &gate)
}

/// The readings with `ber:m` ([`last_leg_free`], then
/// [`last_leg_turned`]), each kept where its captures agree with `gate`.
pub(super) fn gated(tried: &Tried, gate: &Gate) -> Option<(Game, Vec<Problem>)> {
    last_leg_free(tried, gate).or_else(|| last_leg_turned(tried, gate))
}
