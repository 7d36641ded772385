//! The tags that carry a chess game's meaning (`Variant`, `SetUp`, `FEN`),
//! rendered from its typed fields. Readers lift these tags into the
//! variant and the setup; every chess writer writes the tags this module
//! gives, so the typed fields are the one source of truth: a game from
//! JSON whose setup was changed is written with its new FEN, and a tag
//! that agrees with the typed field is kept as written.

use std::borrow::Cow;

use crate::family::chess::rules;
use crate::family::Setup;
use crate::ir::{Game, Tag};

/// The game's tags, with `Variant`, `SetUp` and `FEN` made to say what its
/// variant and setup say: a tag that agrees is kept as written, one that
/// disagrees gets the typed field's value, a missing one is added at the
/// end, and one the typed fields do not back (a FEN tag of a game without
/// a setup) is dropped.
pub fn render(game: &Game) -> Cow<'_, [Tag]> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    let find =
        |tags: &[Tag], name: &str| tags.iter().position(|t| t.name.eq_ignore_ascii_case(name));
    let chess960 = game.variant.as_chess().is_some_and(|b| b.chess960);
    let named = find(&tags, "Variant").map(|i| (i, rules::names_chess960(&tags[i].value)));
    match (chess960, named) {
        (true, None) => tags.to_mut().push(Tag::new("Variant", "Chess960")),
        (true, Some((i, named))) if named != Some(true) => {
            tags.to_mut()[i].value = "Chess960".into()
        }
        (false, Some((i, Some(true)))) => {
            tags.to_mut().remove(i);
        }
        _ => {}
    }
    let fen = game.setup.as_ref().and_then(Setup::as_chess);
    // The setup holds the FEN with Shredder castling letters; a tag is
    // written with the letters of the game's variant.
    let written = |fen: &str| {
        rules::parse_fen(fen).map_or_else(|_| fen.to_string(), |b| rules::fen(&b, chess960))
    };
    match (fen, find(&tags, "FEN")) {
        (Some(fen), Some(i)) => {
            let same = rules::parse_fen(&tags[i].value).is_ok_and(|b| rules::fen(&b, true) == *fen);
            if !same {
                tags.to_mut()[i].value = written(fen);
            }
        }
        (Some(fen), None) => {
            if find(&tags, "SetUp").is_none() {
                tags.to_mut().push(Tag::new("SetUp", "1"));
            }
            tags.to_mut().push(Tag::new("FEN", written(fen)));
        }
        (None, Some(i)) => {
            let t = tags.to_mut();
            t.remove(i);
            if let Some(j) = find(t, "SetUp") {
                t.remove(j);
            }
        }
        (None, None) => {}
    }
    tags
}
