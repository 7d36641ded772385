//! A berserk move's last leg that captures nothing ([`last_leg_free`]):
//! where no other reading bears a record of a type with `ber:c` out, its
//! rules read with `ber:m`, kept where the captures agree with the
//! record's counts.

use super::berserk::{Bounds, WIDE};
use super::later::read_by;
use super::listed::Gate;
use super::{at_first_move, with_entry, Reading};
use crate::error::{Kind, Problem};
use crate::family::hnefatafl::rules::{Berserk, Rules};
use crate::ir::{Game, Side};

/// Where the rules of a type with berserk moves that capture (`ber:c`:
/// each further leg captures) refuse a record under every start position
/// and every reading of it (the mends, the berserk legs near and far, a
/// start position of its own, its later rules, the captured pieces read as
/// turned): the record read by the type's rules with `ber:m` (a piece that
/// captured moves on, and its last leg need not capture, as the site's
/// Berserk pages trace the rule to the Somali games, where "the player may
/// continue to move the same stone as long as he makes captures with it"),
/// the berserk legs searched as far back as the wide search goes. Kept only
/// where the moves then replay and the replay's captures agree with both
/// the record's counts (`BlackPiecesCaptured`, `WhitePiecesCaptured`; the
/// `gate`, [`Gate`]): a record without them, or whose counts differ, stays
/// unchecked. An
/// `other-rules` warning at the first move says so, and the game is
/// written with those rules. None for a type without `ber:c`.
pub(super) fn last_leg_free(
    tried: &Reading,
    gate: &Gate,
    first: Side,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    let free = free_rules(tried, gate.given(), &[Berserk::Capture])?;
    searched(tried, &free, gate, first, rules_tag, WIDE)
}

/// The record of `tried` read by `free` (its rules with `ber:m`,
/// [`free_rules`]), the mends and berserk legs searched within `bounds`,
/// kept where its captures agree with the `gate` ([`counted`]).
pub(super) fn searched(
    tried: &Reading,
    free: &[Rules],
    gate: &Gate,
    first: Side,
    rules_tag: Option<usize>,
    bounds: Bounds,
) -> Option<(Game, Vec<Problem>)> {
    let (reading, game, said) = read_by(tried, free, first, rules_tag, bounds)?;
    counted(&reading, game, said, gate)
}

/// The start positions of `tried` with `ber:m` for their berserk rule,
/// where the record gives both its counts and every start position's
/// berserk rule is one of `of`; none otherwise.
pub(super) fn free_rules(
    tried: &Reading,
    given: [Option<u64>; 2],
    of: &[Berserk],
) -> Option<Vec<Rules>> {
    if given.iter().any(Option::is_none) || !tried.layouts.iter().all(|r| of.contains(&r.berserk)) {
        return None;
    }
    tried
        .layouts
        .iter()
        .map(|r| with_entry(r, "ber:m"))
        .collect()
}

/// A game read with `ber:m` ([`free_rules`]; `reading` the reading it was
/// replayed from, `said` its warnings), kept where its captures agree with
/// the `gate` (both the record's counts, or a list it holds them to), with
/// the `other-rules` warning at its first move; none where they differ.
pub(super) fn counted(
    reading: &Reading,
    game: Game,
    mut said: Vec<Problem>,
    gate: &Gate,
) -> Option<(Game, Vec<Problem>)> {
    let rules = game.variant.as_tafl()?.rules.as_ref()?;
    if !gate.agrees(&game, rules) {
        return None;
    }
    let message = format!(
        "the rules of the game type refuse the moves under every start position and every \
         reading of them, and its rules with `ber:m` bear them out, {} (a piece that captured \
         moves on, its last leg capturing nothing): read by them",
        gate.what()
    );
    said.insert(0, at_first_move(&reading.places, message, Kind::OtherRules));
    Some((game, said))
}
