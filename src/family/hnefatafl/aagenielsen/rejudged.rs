//! Berserk legs that capture only once a later-found leg is in
//! ([`rejudged`]): the legs the search with `ber:m` finds, judged again by
//! the type's own rules.

use super::berserk::{leg_warnings, WIDE};
use super::last_leg::free_rules;
use super::later::read_by;
use super::listed::listed_of;
use super::{other_layout, replay_layouts_by, set_rules, Reading};
use crate::error::Problem;
use crate::family::any::Move;
use crate::family::hnefatafl::rules::{self, Berserk, Position, Rules};
use crate::family::hnefatafl::{Move as TMove, Step};
use crate::ir::{Game, Side};

/// Where the rules of a type whose berserk legs capture (`ber:c`, `ber:t`)
/// refuse a record under every start position and every reading of it:
/// the legs the search finds under the type's rules with `ber:m` (a leg
/// need not capture), each leg's captures the type's own rules make, the
/// record replayed by the type's own rules with them. The search looks
/// for a move's legs in the position before it, and takes the nearest
/// that lets the refused move replay: a leg that captures only where an
/// earlier move's leg, which a later move needs, is in is not found, as
/// that earlier leg is looked for only after it. Old Tyr 15x15
/// `game-155-112-23371`: the attackers' `33. k13-i13xi14` goes on
/// `i13-i4xi3` and `i4-i6xj6` (so that `34. i2-i5` passes i3 and i4, and
/// `43. j3-j6` lands on j6), and j6 lies between i6 and k6 only where
/// `27. k3-k11xk12` went on `k11-k6xl6` (so that `47. l5-l9` passes l6).
/// Kept only where the whole record so replays by the type's own rules
/// (each leg capturing, or under `ber:t` stepping onto a captured
/// square), the reading's moves are the record's (no mend), and the
/// record's counts (`BlackPiecesCaptured`, `WhitePiecesCaptured`) are the
/// captures its moves list, side by side, as the site's counts are in
/// most records of these types the berserk legs lengthen (the counts leave
/// out the lost legs' captures, as the lists do). A `berserk-leg` warning
/// for each move lengthened, as the search's; none of other rules.
pub(super) fn rejudged(
    tried: &Reading,
    given: [Option<u64>; 2],
    first: Side,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    let lists = listed_of(&tried.game).map(|l| Some(l.len() as u64));
    if given != lists || !rules::lists_captures(&tried.game.moves) {
        return None;
    }
    let free = free_rules(tried, given, &[Berserk::Capture, Berserk::Take])?;
    let (reading, _, _) = read_by(tried, &free, first, rules_tag, WIDE)?;
    if reading.places != tried.places {
        return None;
    }
    // Each ply the search lengthened, with its step as written.
    let lengthened: Vec<(usize, Step)> = tried
        .game
        .moves
        .plies
        .iter()
        .zip(&reading.game.moves.plies)
        .enumerate()
        .filter_map(|(i, (was, now))| {
            let was = was.mv.as_tafl()?.step()?;
            let now = now.mv.as_tafl()?.step()?;
            (now.via.len() > was.via.len()).then(|| (i, was.clone()))
        })
        .collect();
    if lengthened.is_empty() {
        return None;
    }
    tried.layouts.iter().enumerate().find_map(|(n, layout)| {
        let mut game = reading.game.clone();
        set_rules(&mut game, layout, rules_tag);
        with_legs_captures(&mut game, &lengthened, layout)?;
        let layouts = std::slice::from_ref(layout);
        let (replayed, more) =
            replay_layouts_by(&game, layouts, rules_tag, &tried.places, false).ok()?;
        let mut said = Vec::new();
        if n > 0 {
            said.push(other_layout(&tried.layouts, n, &tried.places));
        }
        said.extend(leg_warnings(&game, &lengthened, &tried.places));
        said.extend(more);
        Some((replayed, said))
    })
}

/// Gives each lengthened ply of `game` (`lengthened`: its index and its
/// step as written) the captures the record lists for its first leg and
/// those `layout`'s rules make with its later legs, in the position the
/// moves before it make (each played with the captures it lists): none
/// where the rules refuse a lengthened move there.
fn with_legs_captures(game: &mut Game, lengthened: &[(usize, Step)], layout: &Rules) -> Option<()> {
    let mut pos = Position::new(layout);
    for (i, ply) in game.moves.plies.iter_mut().enumerate() {
        let side = ply.side;
        let Move::Tafl(TMove::Step(step)) = &mut ply.mv else {
            continue;
        };
        if let Some((_, was)) = lengthened.iter().find(|(c, _)| *c == i) {
            let played = pos.clone().play(step, side, true).ok()?;
            let later = played.legs.first().map_or(0, |&n| n);
            let mut captures = was.captures.clone();
            for c in played.captures.iter().skip(later) {
                if !captures.contains(c) {
                    captures.push(*c);
                }
            }
            step.captures = captures;
        }
        let _ = pos.play(step, side, false);
    }
    Some(())
}
