//! A game type's later rules ([`later_rules`]): rules the table gives a
//! type after ` || `, which its records bear out where its first rules
//! refuse them (Alea Berserk 19x19's variegated men, which change sides
//! when captured, and its men's jumps).

use crate::error::{Kind, Problem};
use crate::family::hnefatafl::rules::Rules;
use crate::family::hnefatafl::Square;
use crate::ir::{Game, Side};

use super::berserk::Bounds;
use super::{at_first_move, mended, replay_layouts, set_rules, Reading};

/// Where a game type's rules refuse a record under every start position
/// and every reading of it (the mends, the berserk legs, a start position
/// of its own), the record read by the type's later rules (`later`, a
/// start position each, tried in turn, then the mends and berserk legs
/// under them): the reading, the game replayed and its warnings, the
/// first an `other-rules` warning at the first move naming the entries of
/// the later rules that differ from the first's. None where they refuse
/// it too (or the type has none).
pub(super) fn later_rules<'a>(
    tried: &Reading<'a>,
    later: &[Rules],
    first: Side,
    rules_tag: Option<usize>,
    bounds: Bounds,
) -> Option<(Reading<'a>, Game, Vec<Problem>)> {
    let (base, was) = (later.first()?, tried.layouts.first()?);
    let (reading, game, mut said) = read_by(tried, later, first, rules_tag, bounds)?;
    said.insert(0, warning(was, base, &reading.places, "later"));
    Some((reading, game, said))
}

/// A record read by other rules than its type's (`rules`, a start
/// position each, tried in turn, then the mends and berserk legs under
/// them): the reading, the game replayed, written with them, and its
/// warnings; none where they refuse it too.
pub(super) fn read_by<'a>(
    tried: &Reading<'a>,
    later: &[Rules],
    first: Side,
    rules_tag: Option<usize>,
    bounds: Bounds,
) -> Option<(Reading<'a>, Game, Vec<Problem>)> {
    let reading = reading_by(tried, later, rules_tag)?;
    match replay_layouts(&reading.game, later, rules_tag, &reading.places) {
        Ok((game, said)) => Some((reading, game, said)),
        Err(e) => {
            let at = reading.places.iter().position(|&p| p == (e.line, e.col));
            mended(reading, at, first, rules_tag, bounds)
        }
    }
}

/// The record of `tried` to be read by other rules (`rules`, a start
/// position each), its game written with the first; none where there are
/// none, or the game has no Rules tag.
pub(super) fn reading_by<'a>(
    tried: &Reading<'a>,
    rules: &[Rules],
    rules_tag: Option<usize>,
) -> Option<Reading<'a>> {
    let base = rules.first()?;
    rules_tag?;
    let mut game = tried.game.clone();
    set_rules(&mut game, base, rules_tag);
    Some(Reading {
        game,
        places: tried.places.clone(),
        texts: tried.texts.clone(),
        layouts: rules.to_vec(),
    })
}

/// The `other-rules` warning of a type's `which` rules (`later`, `last`):
/// the entries of those rules `now` that the first rules `was` do not have,
/// and the pieces their start position puts where the first's puts others,
/// at the first move.
pub(super) fn warning(was: &Rules, now: &Rules, places: &[(usize, usize)], which: &str) -> Problem {
    let old: Vec<&str> = was.text().split_ascii_whitespace().collect();
    let mut new: Vec<String> = now
        .text()
        .split_ascii_whitespace()
        .filter(|e| !old.contains(e) && !e.starts_with("start"))
        .map(str::to_string)
        .collect();
    new.extend(start_differs(was, now));
    let message = format!(
        "the rules of the game type refuse the moves under every start position and every \
         reading of them, and its {which} rules bear them out (its rules with {}): read by them",
        crate::error::quote(&new.join(" ")),
    );
    at_first_move(places, message, Kind::OtherRules)
}

/// The squares where the start position of `now` puts another piece than
/// that of `was` (on a board of the same size), a piece each:
/// `N:f6,n6,f14,n14` (`-` for an empty square).
fn start_differs(was: &Rules, now: &Rules) -> Vec<String> {
    let mut by_piece: Vec<(u8, Vec<String>)> = Vec::new();
    if was.dim != now.dim {
        return Vec::new();
    }
    for rank in 0..now.dim {
        for file in 0..now.dim {
            let sq = Square { file, rank };
            let piece = now.start_piece(sq);
            if piece != was.start_piece(sq) {
                let letter = piece.unwrap_or(b'-');
                match by_piece.iter_mut().find(|(p, _)| *p == letter) {
                    Some((_, squares)) => squares.push(sq.to_string()),
                    None => by_piece.push((letter, vec![sq.to_string()])),
                }
            }
        }
    }
    by_piece
        .into_iter()
        .map(|(p, squares)| format!("{}:{}", char::from(p), squares.join(",")))
        .collect()
}
