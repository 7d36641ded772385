//! Two dependent lost berserk legs in a record that lists no captures
//! ([`enabled`]): a leg that lets a later move's first leg capture, so that
//! its piece may go on, kept where legs searched again bear it out.

use super::berserk::{berserk_legs, Turn, ENABLING};
use super::Reading;
use crate::error::Problem;
use crate::family::hnefatafl::rules::{lists_captures, Berserk};
use crate::ir::Game;

/// Where the rules of a type with berserk moves refuse a record that lists
/// no captures (the site's old form) under every other reading: the
/// berserk legs searched with the wide search's bounds, but where a leg
/// leaves the refused move refused and makes the first leg of a later move
/// before it capture, which captured nothing without it, that leg kept and
/// the legs searched back from the refused move again ([`ENABLING`]).
///
/// The search tries legs only of a move whose first leg captures, and keeps
/// a leg only where the refused move then replays, so a leg the refused
/// move needs of a move that captures only once an earlier lost leg is in
/// is never found; a record that lists captures says which first legs
/// captured, one of the old form does not. Berserk 11x11 `game-3-54-5953`:
/// `22. e3-e9` moves from e3, where the attackers' `12. g4-g3` went on
/// `g3-e3xe2` (e2 against the attacker on e1); `g4-g3` takes h3 only where
/// i3 still stands, which the defenders' `11... e3-h3` takes against j3
/// unless the commander's `10. i2-k2` went on `k2-k3xj3`. Kept only where
/// the whole record then replays by the type's own rules, a `berserk-leg`
/// warning at each move lengthened. Tried after every other reading: a
/// record read before reads as it did.
pub(super) fn enabled(tried: &Reading, rules_tag: Option<usize>) -> Option<(Game, Vec<Problem>)> {
    let layout = tried.layouts.first()?;
    if layout.berserk == Berserk::No || lists_captures(&tried.game.moves) {
        return None;
    }
    berserk_legs(tried.clone(), rules_tag, ENABLING, Turn::No).map(|(_, game, said)| (game, said))
}
