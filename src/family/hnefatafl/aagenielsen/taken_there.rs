//! A piece a record's move takes where no move of the record put it
//! ([`taken_there`]): the lost berserk leg that did, written in first.

use super::berserk::{berserk_legs, leg_warnings, Bounds, Turn, WIDE};
use super::{replay_layouts, Reading};
use crate::error::Problem;
use crate::family::any::Move;
use crate::family::hnefatafl::rules::{lists_captures, Berserk, Position, Rules};
use crate::family::hnefatafl::{Move as TMove, Square, Step};
use crate::ir::{Game, Side};

/// Where the rules of a type with berserk moves refuse a record under every
/// other reading: the first move whose listed capture names an empty square
/// (the record's own moves played with the captures it lists), and a lost
/// leg of an earlier capturing move of the other side that ends there,
/// written in, the berserk legs then searched as the wide search does.
///
/// The berserk search keeps a leg only where the refused move, or a
/// further leg of the same move, then replays; a leg that puts a piece
/// where a later move of the other side takes it lets no refused move
/// through by itself, and a leg that that capturing move lost exists only
/// once it is in (Alea Berserk 19x19 `game-102-15-24417`: the knight's `2...
/// j15-l15xk15` went on `l15-l17xl16`, jumping l16, where the attackers'
/// `6. f17-k17xl17` takes it, and that move went on `k17-k15xj15`, for the
/// defenders' `6... j14-j15`). The record's listed capture on the empty
/// square is the evidence: a leg is written in only where it lands on that
/// square (under `ber:c` or `ber:t`, one that captures), nearest the
/// capture first, and kept only where the whole record then replays by the
/// type's rules; a `berserk-leg` warning at its move, as a leg the search
/// infers.
pub(super) fn taken_there(
    tried: &Reading,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    let layout = tried.layouts.first()?;
    if layout.berserk == Berserk::No || !lists_captures(&tried.game.moves) {
        return None;
    }
    let (before, c, sq, taker) = first_listed(tried, layout, |pos, step, _| {
        step.captures
            .iter()
            .copied()
            .find(|&sq| pos.piece(sq).is_none())
    })?;
    leg_ending_on(tried, rules_tag, &before, (c, sq, taker.other()), &[WIDE])
}

/// The record's own moves played with the captures they list, to the first
/// whose listed captures `find` names a square of (given the position
/// before it, the move and its side): the positions before each move
/// played, that move's place, the square and its side. None where no move
/// is named, or a move is not a step.
pub(super) fn first_listed<'r>(
    tried: &Reading,
    layout: &'r Rules,
    find: impl Fn(&Position<'r>, &Step, Side) -> Option<Square>,
) -> Option<(Vec<Position<'r>>, usize, Square, Side)> {
    let plies = &tried.game.moves.plies;
    let mut pos = Position::new(layout);
    let mut before = Vec::new();
    for (i, ply) in plies.iter().enumerate() {
        let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
            return None;
        };
        if let Some(sq) = find(&pos, step, ply.side) {
            return Some((before, i, sq, ply.side));
        }
        before.push(pos.clone());
        pos.play(step, ply.side, false).ok()?;
    }
    None
}

/// A lost leg of a capturing move of `side` before the move at `c` that
/// ends on `sq` (`before`: the positions before each move, the record's
/// own moves played with the captures they list), written in, nearest the
/// move at `c` first, as the rules allow it there (under `ber:c` or
/// `ber:t`, one that captures), the berserk legs then searched within each
/// of `bounds` in turn: the first with which the whole record replays by the
/// type's rules, its warnings a `berserk-leg` warning at the leg's move
/// first.
pub(super) fn leg_ending_on(
    tried: &Reading,
    rules_tag: Option<usize>,
    before: &[Position<'_>],
    (c, sq, side): (usize, Square, Side),
    bounds: &[Bounds],
) -> Option<(Game, Vec<Problem>)> {
    let layout = tried.layouts.first()?;
    let plies = &tried.game.moves.plies;
    for p in (0..c).rev() {
        let ply = &plies[p];
        let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
            continue;
        };
        if ply.side != side || step.captures.is_empty() {
            continue;
        }
        let mut after = before[p].clone();
        after.play(step, ply.side, false).ok()?;
        let leg = Step::leg(step.to, sq);
        let Ok(played) = after.play(&leg, ply.side, true) else {
            continue;
        };
        if layout.berserk != Berserk::Move && played.captures.is_empty() {
            continue;
        }
        let mut game = tried.game.clone();
        let Some(Move::Tafl(TMove::Step(written))) = game.moves.plies.get_mut(p).map(|p| &mut p.mv)
        else {
            continue;
        };
        let was = written.clone();
        written.via.push(written.to);
        written.to = sq;
        written.captures.extend(played.captures);
        let mut said = leg_warnings(&game, &[(p, was)], &tried.places);
        let reading = Reading {
            game,
            ..tried.clone()
        };
        let read = match replay_layouts(&reading.game, &reading.layouts, rules_tag, &reading.places)
        {
            Ok(read) => Some(read),
            Err(_) => bounds.iter().find_map(|&b| {
                berserk_legs(reading.clone(), rules_tag, b, Turn::No)
                    .map(|(_, game, more)| (game, more))
            }),
        };
        if let Some((game, mut more)) = read {
            said.append(&mut more);
            return Some((game, said));
        }
    }
    None
}
