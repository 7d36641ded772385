//! A berserk move's last leg that captures nothing, with the other
//! readings ([`last_leg_turned`]): where no reading bears a record of a
//! type with `ber:c` or `ber:t` out, its rules read with `ber:m` through
//! the readings its own rules had, kept where the captures agree with the
//! record's counts.

use super::berserk::{Bounds, BOUNDS, WIDE};
use super::last_leg::{counted, free_rules, searched, Tried};
use super::later::reading_by;
use super::listed::Gate;
use super::turned::turned;
use super::turned_on::turned_on;
use crate::error::Problem;
use crate::family::hnefatafl::rules::Berserk;
use crate::ir::Game;

/// Where the rules of a type with berserk moves that capture (`ber:c`) or
/// that capture or step onto the square captured on (`ber:t`, the Old
/// Tyr-1, Old Tyr-2 and Old TYR! types) refuse a record under every start
/// position and every reading of it, the last leg that captures nothing
/// ([`super::last_leg::last_leg_free`]) included: the record read by the
/// type's rules with `ber:m` as its own rules were read before, each
/// reading kept only where the moves replay and the replay's captures
/// agree with both the record's counts, in turn: the mends and berserk
/// legs with the search's bounds, then its wider ones (for `ber:t`: a
/// `ber:c` type's were tried already); the captured pieces
/// the record moves on read as turned or left ([`turned`]); and those
/// pieces going on with their own legs ([`turned_on`]). Old Tyr-1 13x13
/// `game-135-4-10616`'s defenders' `26... d10-e10xe9` went on to f10,
/// capturing nothing, so that their `27... d9-e9`, from where `25...
/// h10-d10xd9` took an attacker, moves the piece taken, turned. The
/// warnings are those of the readings, after the `other-rules` one at the
/// first move; none where every reading fails.
pub(super) fn last_leg_turned(tried: &Tried, gate: &Gate) -> Option<(Game, Vec<Problem>)> {
    let rules_tag = tried.rules_tag;
    let free = free_rules(
        tried.reading,
        gate.given(),
        &[Berserk::Capture, Berserk::Take],
    )?;
    let reading = reading_by(tried.reading, &free, rules_tag)?;
    let searched = |bounds: Bounds| searched(tried, &free, gate, bounds);
    let kept = |(game, said)| counted(&reading, game, said, gate);
    // A `ber:c` type's wide search under `ber:m` is
    // [`super::last_leg::last_leg_free`]'s, which has failed.
    let wide = tried
        .reading
        .layouts
        .iter()
        .any(|r| r.berserk == Berserk::Take);
    searched(BOUNDS)
        .or_else(|| if wide { searched(WIDE) } else { None })
        .or_else(|| turned(reading.clone(), rules_tag).and_then(kept))
        .or_else(|| turned_on(reading.clone(), rules_tag).and_then(kept))
}
