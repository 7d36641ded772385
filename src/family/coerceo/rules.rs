//! What a Coerceo move means, and the checks a game read from JSON gets.
//!
//! kifu does not replay Coerceo (no legality check): a move means what it
//! says, the piece's from and to fields, the pieces it captured, the tiles
//! it removed and the tiles it exchanged. The checks here hold what the
//! notation's grammar holds for a game read from text, so that every game
//! kifu accepts can be written and read back.

use crate::family::coerceo::{Action, Exchange, Field, Move, Tile};
use crate::ir::{Game, Line};

impl Move {
    /// The field the moved piece left.
    pub fn from(&self) -> Option<Field> {
        self.step.map(|s| s.from)
    }

    /// The field the moved piece reached.
    pub fn to(&self) -> Option<Field> {
        self.step.map(|s| s.to)
    }

    /// The fields whose pieces were captured, in order.
    pub fn captures(&self) -> impl Iterator<Item = Field> + '_ {
        self.actions.iter().filter_map(|a| match *a {
            Action::Capture(f) => Some(f),
            _ => None,
        })
    }

    /// The tiles removed, in order (a tile the board does not have is left
    /// out: see [`Action::RemoveUnknown`]).
    pub fn removed(&self) -> impl Iterator<Item = Tile> + '_ {
        self.actions.iter().filter_map(|a| match *a {
            Action::Remove(t) => Some(t),
            _ => None,
        })
    }

    /// The exchanges of tiles for pieces, in order.
    pub fn exchanges(&self) -> impl Iterator<Item = Exchange> + '_ {
        self.actions.iter().filter_map(|a| match *a {
            Action::Exchange(e) => Some(e),
            _ => None,
        })
    }

    /// Checks what the notation's grammar holds: a ply moves a piece or
    /// starts with an exchange, and a removal of a tile the board does not
    /// have names a number outside 1 to 19 (one spelling for each thing).
    pub fn check(&self) -> Result<(), String> {
        if self.step.is_none() && !matches!(self.actions.first(), Some(Action::Exchange(_))) {
            return Err(
                "a Coerceo ply moves a piece (`14d-14f`) or starts with an exchange (`TT`, `T`)"
                    .to_string(),
            );
        }
        for a in &self.actions {
            if let Action::RemoveUnknown(n) = *a {
                if let Some(t) = Tile::new(n) {
                    return Err(format!(
                        "`remove_unknown` {n} is tile {}: write it as `remove`",
                        t.number()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Checks every move of a Coerceo game ([`Move::check`]), naming the ply.
pub fn check_game(game: &Game) -> Result<(), String> {
    fn line(l: &Line) -> Result<(), String> {
        for ply in &l.plies {
            ply.mv
                .of(
                    crate::family::Family::Coerceo,
                    crate::family::Move::as_coerceo,
                )
                .and_then(|m| m.check())
                .map_err(|e| format!("{} {e}", ply.label(crate::ir::Side::White)))?;
            for v in &ply.variations {
                line(v)?;
            }
        }
        Ok(())
    }
    line(&game.moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::coerceo::Step;

    fn field(s: &str) -> Field {
        Field::parse(s).unwrap()
    }

    #[test]
    fn a_move_means_what_it_says() {
        let m = Move {
            step: Some(Step {
                from: field("8f"),
                to: field("19b"),
            }),
            actions: vec![
                Action::Exchange(Exchange::Two),
                Action::Capture(field("19f")),
                Action::Remove(Tile::new(8).unwrap()),
                Action::RemoveUnknown(22),
            ],
        };
        assert_eq!(m.from(), Some(field("8f")));
        assert_eq!(m.to(), Some(field("19b")));
        assert_eq!(m.captures().collect::<Vec<_>>(), [field("19f")]);
        assert_eq!(m.removed().collect::<Vec<_>>(), [Tile::new(8).unwrap()]);
        assert_eq!(m.exchanges().collect::<Vec<_>>(), [Exchange::Two]);
        assert_eq!(m.check(), Ok(()));
    }

    #[test]
    fn a_ply_needs_a_step_or_an_exchange_first() {
        let m = Move {
            step: None,
            actions: vec![Action::Capture(field("14a"))],
        };
        assert!(m.check().is_err());
        let m = Move {
            step: None,
            actions: vec![
                Action::Exchange(Exchange::One),
                Action::Capture(field("15c")),
            ],
        };
        assert_eq!(m.check(), Ok(()));
        let m = Move {
            step: None,
            actions: vec![Action::Exchange(Exchange::One), Action::RemoveUnknown(14)],
        };
        assert!(m.check().is_err());
    }

    #[test]
    fn fields_and_tiles_are_typed() {
        assert_eq!(field("14d").to_string(), "14d");
        assert_eq!(field("014d").to_string(), "14d");
        for bad in ["20a", "0a", "14g", "14", "d", "14dd", "14D"] {
            assert!(Field::parse(bad).is_err(), "{bad}");
        }
        assert!(Tile::new(19).is_some() && Tile::new(20).is_none() && Tile::new(0).is_none());
    }
}
