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
use std::cell::RefCell;

/// A reading found by a search ([`read_by`]): the reading it replayed, the
/// game and its warnings.
type Found<'a> = (Reading<'a>, Game, Vec<Problem>);

/// A search made ([`Tried::search`]): its rules, its bounds, what it found.
type Search<'a> = (Vec<Rules>, Bounds, Option<Found<'a>>);

/// A record as written (`tried`), the side that moves first and the
/// Rules tag's place, with the searches made of it ([`Tried::search`]):
/// the readings with `ber:m` ask for the same search under several gates
/// (the record's counts, its list, no more than its counts: [`Gate`]),
/// which judge only what it finds, so each is made once a record.
pub(super) struct Tried<'r, 'a> {
    /// The record as written.
    pub(super) reading: &'r Reading<'a>,
    /// The side that moves first.
    pub(super) first: Side,
    /// The place of the game's Rules tag.
    pub(super) rules_tag: Option<usize>,
    /// Each search made.
    searches: RefCell<Vec<Search<'a>>>,
}

impl<'r, 'a> Tried<'r, 'a> {
    /// The record `reading`, no search made yet.
    pub(super) fn new(reading: &'r Reading<'a>, first: Side, rules_tag: Option<usize>) -> Self {
        Tried {
            reading,
            first,
            rules_tag,
            searches: RefCell::new(Vec::new()),
        }
    }

    /// The record read by `rules` (a start position each), the mends and
    /// berserk legs searched within `bounds` ([`read_by`]): made once,
    /// then given again.
    pub(super) fn search(&self, rules: &[Rules], bounds: Bounds) -> Option<Found<'a>> {
        let made = self.searches.borrow().iter().find_map(|(r, b, found)| {
            (r.as_slice() == rules && *b == bounds).then(|| found.clone())
        });
        if let Some(found) = made {
            return found;
        }
        let found = read_by(self.reading, rules, self.first, self.rules_tag, bounds);
        self.searches
            .borrow_mut()
            .push((rules.to_vec(), bounds, found.clone()));
        found
    }
}

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
pub(super) fn last_leg_free(tried: &Tried, gate: &Gate) -> Option<(Game, Vec<Problem>)> {
    let free = free_rules(tried.reading, gate.given(), &[Berserk::Capture])?;
    searched(tried, &free, gate, WIDE)
}

/// The record of `tried` read by `free` (its rules with `ber:m`,
/// [`free_rules`]), the mends and berserk legs searched within `bounds`
/// ([`Tried::search`]), kept where its captures agree with the `gate`
/// ([`counted`]).
pub(super) fn searched(
    tried: &Tried,
    free: &[Rules],
    gate: &Gate,
    bounds: Bounds,
) -> Option<(Game, Vec<Problem>)> {
    let (reading, game, said) = tried.search(free, bounds)?;
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
