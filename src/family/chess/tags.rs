//! The tags that carry a chess game's meaning (`Variant`, `SetUp`, `FEN`),
//! rendered from its typed fields. Readers lift these tags into the
//! variant and the setup; every chess writer writes the tags this module
//! gives, so the typed fields are the one source of truth: a game from
//! JSON whose setup was changed is written with its new FEN, and a tag
//! that agrees with the typed field is kept as written.

use std::borrow::Cow;

use crate::family::any::Setup;
use crate::family::chess::rules;
use crate::ir::{back_fen, back_tag, Backing, Game, Tag};

/// The game's tags, with `Variant`, `SetUp` and `FEN` made to say what its
/// variant and setup say: a tag that agrees is kept as written, one that
/// disagrees gets the typed field's value, a missing one is added at the
/// end, and one the typed fields do not back (a FEN tag of a game without
/// a setup) is dropped.
pub fn render(game: &Game) -> Cow<'_, [Tag]> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    let chess960 = game.variant.as_chess().is_some_and(|b| b.chess960);
    let variant = if chess960 {
        Backing::Value {
            agrees: &|v| rules::names_chess960(v) == Some(true),
            value: &|| "Chess960".into(),
        }
    } else {
        Backing::Nothing {
            reads_as_nothing: &|v| rules::names_chess960(v) != Some(true),
        }
    };
    back_tag(&mut tags, "Variant", variant);
    match game.setup.as_ref().and_then(Setup::as_chess) {
        // The setup holds the FEN with Shredder castling letters; a tag is
        // written with the letters of the game's variant.
        Some(fen) => {
            let fen = fen.text();
            back_fen(
                &mut tags,
                Some((
                    &|v| rules::refen(v, true).is_ok_and(|f| *f == *fen),
                    &|| rules::refen(&fen, chess960).unwrap_or_else(|_| fen.to_string()),
                )),
            )
        }
        None => back_fen(&mut tags, None),
    }
    tags
}
