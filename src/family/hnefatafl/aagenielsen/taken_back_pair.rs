//! A move and its reply taken back, the mover then playing another move
//! ([`taken_back_pair`]): the site keeps moves taken back in its JSON, and
//! its counts keep their captures.

use super::listed::{listed_in, listed_of};
use super::own_start::captured_on;
use super::{drop_plies, off_rules, replay_layouts, Reading, LONGEST_REPEAT};
use crate::error::{Kind, Problem};
use crate::family::hnefatafl::ATTACKERS;
use crate::ir::Game;

/// Where the rules refuse a record (at ply `at`) under every start
/// position and every other reading of it: two plies in a row, a move and
/// the other side's reply, read as taken back, the mover having then
/// played another move in its place (the record does not write the move
/// again, so the mend that reads a move written again as the end of moves
/// taken back, [`super::mend`], does not find them). The site keeps moves
/// taken back in its JSON and counts their captures: of its records whose
/// moves taken back the record writes again, every one whose moves taken
/// back capture counts those captures too (Old Hnefatafl 11x11
/// `game-15-42-4043`, `WhitePiecesCaptured` 2, the moves replayed 1;
/// Fetlar `game-4-15-6981`, 16 and 12). Kept only where the record lists
/// its captures, each count is its side's list, the pair lists a capture,
/// the rest replays by the type's rules (any of its start positions) with
/// no capture read otherwise than the rules make it, and the replay's
/// captures are the record's list less the pair's, square for square: the
/// counts bear the pair out, having counted the captures the record no
/// longer makes. The pair nearest the refused move is taken, no further
/// back than [`LONGEST_REPEAT`] moves of each side. Magpie circle 7x7
/// `game-65-28-1188`: the attackers' `18. b7-c7xc6` takes the defender on
/// c6 against c5, and `19... c6-c7xb7` moves a defender from c6, which no
/// move between enters; the defenders' `17... c7-d7` and `18. b7-c7xc6`
/// were taken back, the king's `18... d4-c4xc5` (c5 between c4 and the
/// defender on c6) played in their place, and `19. d3-d7xc7` then lands on
/// an empty d7, taking c7 against the attacker on b7 that `19... c6-c7xb7`
/// takes. A `repeated-moves` warning names the plies read as taken back;
/// the `capture-count` warning that follows keeps the count. Last in the
/// read chain: a record read before reads as it did.
pub(super) fn taken_back_pair(
    tried: &Reading,
    at: Option<usize>,
    given: [Option<u64>; 2],
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    let k = at?;
    let plies = &tried.game.moves.plies;
    let first = plies.first()?.side;
    let listed = listed_of(&tried.game);
    let counted = (0..2).all(|s| given[s] == Some(listed[s].len() as u64));
    if !counted || listed.iter().all(Vec::is_empty) {
        return None;
    }
    let back = k.saturating_sub(2 * LONGEST_REPEAT);
    let last = k.min(plies.len().checked_sub(2)?);
    (back..=last).rev().find_map(|j| {
        let pair = listed_in(&plies[j..j + 2]);
        if pair.iter().all(Vec::is_empty) {
            return None;
        }
        let mut probe = tried.clone();
        drop_plies(&mut probe, j, 2, first);
        let (game, said) =
            replay_layouts(&probe.game, &probe.layouts, rules_tag, &probe.places).ok()?;
        if off_rules(&said) {
            return None;
        }
        let mut expected = listed.clone();
        for (side, list) in pair.iter().enumerate() {
            for c in list {
                let i = expected[side].iter().position(|s| s == c)?;
                expected[side].remove(i);
            }
        }
        let rules = game.variant.as_tafl()?.rules.as_ref()?;
        if captured_on(&game, rules) != expected {
            return None;
        }
        let mut out = vec![Problem::at(
            tried.places[j],
            format!(
                "the record writes {} and then another move of the {} in their place, and the \
                 rules refuse a later move ({}) unless they were taken back; the counts count \
                 their capture: read as taken back",
                crate::error::quote(&tried.texts[j..j + 2].join(" ")),
                if plies[j].side == ATTACKERS {
                    "attackers"
                } else {
                    "defenders"
                },
                crate::error::quote(tried.texts[k]),
            ),
        )
        .of_kind(Kind::RepeatedMoves)];
        out.extend(said);
        Some((game, out))
    })
}
