//! A game type's last rules ([`last_rules`]): rules the table gives a type
//! after ` ||| `, which its records bear out where every other reading
//! fails (the Alea types' corner citadels of four squares, and the four
//! special men of the Alea Evangelii Berserk and dux4 types, which jump;
//! the Old Tyr-2 types' and Old TYR! 17x17's jumping berserk legs, `bj:l`,
//! with the captured pieces read as turned or left where the legs alone do
//! not replay).

use crate::error::Problem;
use crate::family::hnefatafl::rules::Rules;
use crate::ir::{Game, Side};

use super::berserk::WIDE;
use super::later::{read_by, reading_by, warning};
use super::turned::turned;
use super::Reading;

/// Where a game type's rules refuse a record under every start position
/// and every reading of it, its later rules' too: the record read by the
/// type's last rules (`last`, a start position each, tried in turn, then
/// the mends and the berserk legs under them, searched as far back as the
/// wide search goes, then, where they refuse it still, the captured pieces
/// read as turned or left under them, as [`turned`] reads them under the
/// type's rules), kept only where the whole record then replays. The
/// game replayed, written with them, and its warnings, the first an
/// `other-rules` warning at the first move naming the entries of the last
/// rules that the type's first rules do not have, and the pieces their
/// start position puts elsewhere. None where they refuse it too (or the
/// type has none).
///
/// The last rules are a change of the type's rules that the records read
/// unchecked bear out and no record that replays before needs: tried last,
/// so that every record read otherwise reads as before.
pub(super) fn last_rules(
    tried: &Reading,
    last: &[Rules],
    first: Side,
    rules_tag: Option<usize>,
) -> Option<(Game, Vec<Problem>)> {
    let (base, was) = (last.first()?, tried.layouts.first()?);
    let (places, game, mut said) = match read_by(tried, last, first, rules_tag, WIDE) {
        Some((reading, game, said)) => (reading.places, game, said),
        None => {
            let reading = reading_by(tried, last, rules_tag)?;
            let places = reading.places.clone();
            let (game, said) = turned(reading, rules_tag)?;
            (places, game, said)
        }
    };
    said.insert(0, warning(was, base, &places, "last"));
    Some((game, said))
}
