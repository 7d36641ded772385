//! A capture a record lists that the rules do not make, whose partner a
//! lost berserk leg put beyond the piece ([`partner`]): that leg written in
//! first.

use super::berserk::{BOUNDS, EARLIER, WIDE};
use super::taken_there::{first_listed, leg_ending_on};
use super::Reading;
use crate::error::Problem;
use crate::family::hnefatafl::rules::{lists_captures, Berserk};
use crate::family::hnefatafl::Square;
use crate::ir::Game;

/// Where the rules of a type with berserk moves refuse a record under every
/// other reading: the first move (the record's own moves played with the
/// captures they list) that lists a capture of an enemy man beside the
/// square its first leg ends on that the rules do not make there, the
/// square beyond that man empty; and a lost leg of an earlier capturing
/// move of the same side that ends on that square, written in (the
/// capture's partner), the berserk legs then searched as the first search,
/// then the wide search, do ([`leg_ending_on`], as [`super::taken_there`] writes in the leg
/// that put the piece a listed capture takes). Berserk 11x11
/// `game-3-95-10467`: the attackers' `8. h1-h4xg4` lists the defender on
/// g4, which the rules take only against an attacker on f4: `6.
/// k4-d4xc4` went on `d4-f4xf3` (f3 between f4 and the commander on f2),
/// and `10. h4-j4xj5` went back `j4-h4xg4`, taking the defender that `8...
/// g6-g4` put there, for `11. g1-g5`, which passes g4. The listed capture
/// is the evidence; kept only where the whole record then replays by the
/// type's rules, a `berserk-leg` warning at each move lengthened.
pub(super) fn partner(tried: &Reading, rules_tag: Option<usize>) -> Option<(Game, Vec<Problem>)> {
    let layout = tried.layouts.first()?;
    if layout.berserk == Berserk::No || !lists_captures(&tried.game.moves) {
        return None;
    }
    let dim = layout.dim;
    let (before, c, sq, side) = first_listed(tried, layout, |pos, step, side| {
        let leg = step.first_leg();
        let end = leg.to;
        let made = pos.clone().play(&leg, side, true).ok()?.captures;
        let mover = pos.piece(step.from)?.is_ascii_uppercase();
        step.captures.iter().find_map(|&at| {
            let man = pos.piece(at)?;
            let beyond = beyond(end, at, dim)?;
            (man != b'K'
                && man.is_ascii_uppercase() != mover
                && !made.contains(&at)
                && pos.piece(beyond).is_none())
            .then_some(beyond)
        })
    })?;
    leg_ending_on(
        tried,
        rules_tag,
        &before,
        (c, sq, side),
        &[BOUNDS, WIDE, EARLIER],
    )
}

/// The square beyond `at` from `from`, where the two are side by side
/// along a rank or file and it is on the board of side `dim`.
fn beyond(from: Square, at: Square, dim: u8) -> Option<Square> {
    let (df, dr) = (
        i16::from(at.file) - i16::from(from.file),
        i16::from(at.rank) - i16::from(from.rank),
    );
    if df.abs() + dr.abs() != 1 {
        return None;
    }
    let file = u8::try_from(i16::from(at.file) + df).ok()?;
    let rank = u8::try_from(i16::from(at.rank) + dr).ok()?;
    let sq = Square { file, rank };
    sq.on(dim).then_some(sq)
}
