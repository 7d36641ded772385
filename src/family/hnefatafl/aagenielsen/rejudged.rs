//! Berserk legs that capture only once a later-found leg is in
//! ([`rejudged`]): the legs the search with `ber:m` finds, judged again by
//! the type's own rules.

use super::berserk::{berserk_legs, leg_warnings, Turn, WIDE};
use super::last_leg::{free_rules, Tried};
use super::listed::listed_of;
use super::{other_layout, replay_layouts_by, set_rules, Reading};
use crate::error::Problem;
use crate::family::any::Move;
use crate::family::hnefatafl::rules::{self, Berserk, Position, Rules};
use crate::family::hnefatafl::{Move as TMove, Step};
use crate::ir::Game;

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
pub(super) fn rejudged(search: &Tried, given: [Option<u64>; 2]) -> Option<(Game, Vec<Problem>)> {
    let (tried, rules_tag) = (search.reading, search.rules_tag);
    let lists = listed_of(&tried.game).map(|l| Some(l.len() as u64));
    if given != lists || !rules::lists_captures(&tried.game.moves) {
        return None;
    }
    let free = free_rules(tried, given, &[Berserk::Capture, Berserk::Take])?;
    let (reading, _, _) = search.search(&free, WIDE)?;
    if reading.places != tried.places {
        return None;
    }
    let lengthened = lengthened_of(&tried.game, &reading.game);
    if lengthened.is_empty() {
        return None;
    }
    tried.layouts.iter().enumerate().find_map(|(n, layout)| {
        let layouts = std::slice::from_ref(layout);
        let mut game = reading.game.clone();
        set_rules(&mut game, layout, rules_tag);
        with_legs_captures(&mut game, &tried.game, &lengthened, layout);
        // The legs the type's own rules bear out written in, the search by
        // them for the rest, where they do not replay the record yet.
        let game = match replay_layouts_by(&game, layouts, rules_tag, &tried.places, false) {
            Ok(_) => game,
            Err(_) => {
                let seeded = Reading {
                    game,
                    places: tried.places.clone(),
                    texts: tried.texts.clone(),
                    layouts: layouts.to_vec(),
                };
                berserk_legs(seeded, rules_tag, WIDE, Turn::No)?.0.game
            }
        };
        let (replayed, more) =
            replay_layouts_by(&game, layouts, rules_tag, &tried.places, false).ok()?;
        let mut said = Vec::new();
        if n > 0 {
            said.push(other_layout(&tried.layouts, n, &tried.places));
        }
        said.extend(leg_warnings(
            &game,
            &lengthened_of(&tried.game, &game),
            &tried.places,
        ));
        said.extend(more);
        Some((replayed, said))
    })
}

/// The plies of `now` (a reading of the record `was`, ply for ply) that
/// go on with legs `was` does not write: each ply's index, with its step
/// as written.
fn lengthened_of(was: &Game, now: &Game) -> Vec<(usize, Step)> {
    was.moves
        .plies
        .iter()
        .zip(&now.moves.plies)
        .enumerate()
        .filter_map(|(i, (was, now))| {
            let was = was.mv.as_tafl()?.step()?;
            let now = now.mv.as_tafl()?.step()?;
            (now.via.len() > was.via.len()).then(|| (i, was.clone()))
        })
        .collect()
}

/// Gives each lengthened ply of `game` (`lengthened`: its index and its
/// step as written) the captures the record lists for its first leg and
/// those `layout`'s rules make with its later legs, in the position the
/// moves before it make (each played with the captures it lists); a
/// lengthened move the rules refuse there is read as `record` writes it.
fn with_legs_captures(
    game: &mut Game,
    record: &Game,
    lengthened: &[(usize, Step)],
    layout: &Rules,
) {
    let mut pos = Position::new(layout);
    for (i, ply) in game.moves.plies.iter_mut().enumerate() {
        let side = ply.side;
        if lengthened.iter().any(|(c, _)| *c == i) {
            let Move::Tafl(TMove::Step(step)) = &ply.mv else {
                continue;
            };
            match pos.clone().play(step, side, true) {
                Ok(played) => {
                    let first = played.legs.first().map_or(0, |&n| n);
                    let mut step = step.clone();
                    if let Some(was) = record.moves.plies[i].mv.as_tafl().and_then(TMove::step) {
                        step.captures.clone_from(&was.captures);
                    }
                    for c in played.captures.iter().skip(first) {
                        if !step.captures.contains(c) {
                            step.captures.push(*c);
                        }
                    }
                    ply.mv = Move::Tafl(TMove::Step(step));
                }
                Err(_) => ply.mv = record.moves.plies[i].mv.clone(),
            }
        }
        if let Some(step) = ply.mv.as_tafl().and_then(TMove::step) {
            let _ = pos.play(step, side, false);
        }
    }
}
