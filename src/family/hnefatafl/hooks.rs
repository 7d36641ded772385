//! Tafl's hooks that need its rules: the replay the notations spell from
//! ([`Positions`], [`Before`]), the `csv` fields of its moves, and
//! the hooks of [`crate::family::GameFamily`].

use super::*;
use crate::error::Kind;

/// What the tafl notations need of the position before a ply
/// ([`crate::spell`]): the board, and the pieces on it where the rules
/// are known.
#[derive(Debug, Clone, Copy)]
pub struct Before<'p> {
    /// The game's board.
    pub board: &'p Board,
    /// The pieces before the ply, where the game has rules (and their
    /// start).
    pub position: Option<&'p rules::Position<'p>>,
}

/// The tafl replay as the notations spell from it ([`crate::spell`]): the
/// pieces tracked from the rules' start, each ply played as it is written
/// (the reader's replay checked it, and filled in what the rules compute).
pub struct Positions;

impl crate::family::spell::Replay for Positions {
    const FAMILY: crate::family::any::Family = crate::family::any::Family::Tafl;
    type Before<'p> = Before<'p>;

    fn walk<'g>(
        game: &'g crate::ir::Game,
        lines: crate::family::spell::Lines,
        mut visit: impl FnMut(&'g crate::ir::Ply, Before<'_>) -> Result<(), crate::error::Problem>,
    ) -> Result<(), crate::error::Problem> {
        use crate::error::Problem;
        use crate::ir::Line;
        /// Walks a line from `pos`, the position before its first ply.
        fn walk_line<'g, V>(
            line: &'g Line,
            board: &Board,
            mut pos: Option<&mut rules::Position<'_>>,
            variations: bool,
            visit: &mut V,
        ) -> Result<(), Problem>
        where
            V: FnMut(&'g crate::ir::Ply, Before<'_>) -> Result<(), Problem>,
        {
            for ply in &line.plies {
                let position = pos.as_deref();
                visit(ply, Before { board, position })?;
                // Variations start from the position before the ply.
                for v in ply.variations.iter().filter(|_| variations) {
                    let mut from = pos.as_deref().cloned();
                    walk_line(v, board, from.as_mut(), true, visit)?;
                }
                if let (Some(p), Some(step)) =
                    (pos.as_deref_mut(), ply.mv.as_tafl().and_then(Move::step))
                {
                    let _ = p.play(step, ply.side, false);
                }
            }
            Ok(())
        }
        let board = game.variant.as_tafl().ok_or_else(|| {
            Problem::whole(format!(
                "a {} game is not a tafl game",
                game.family().name()
            ))
            .of_kind(Kind::WrongFamily)
        })?;
        let start = board
            .rules
            .as_ref()
            .and_then(|r| r.at_position(&game.tags).ok());
        let mut pos = start.as_ref().map(rules::Position::new);
        let all = lines == crate::family::spell::Lines::All;
        walk_line(&game.moves, board, pos.as_mut(), all, &mut visit)
    }
}

/// The `csv` move fields of every ply of a game ([`crate::family::move_fields`]):
/// the move in tafl notation (written and canonical, `E5-E8xD8/F8+`, `--`
/// for a resignation), its squares, the squares it captured (computed by
/// the rules where they are known), and `mate` for a winning move (`++`).
pub fn move_fields(
    game: &crate::ir::Game,
    out: &mut crate::family::hooks::Fields,
) -> Result<(), crate::error::Problem> {
    use crate::family::any::{Family, Move as AnyMove};
    use crate::family::hooks::{fields_in_order, Field::*};
    use std::fmt::Write;
    fields_in_order(game, Family::Tafl, AnyMove::as_tafl, out, |m, out| {
        out.write(Written, |t| spell_move(m, t, &|s| s));
        out.same(Canonical, Written);
        let step = m.step();
        if let Some(s) = step {
            out.write(From, |t| write!(t, "{}", s.from)).ok();
            out.write(To, |t| write!(t, "{}", s.to)).ok();
            for c in &s.captures {
                out.capture(|t| {
                    write!(t, "{c}").ok();
                });
            }
        }
        out.flags(None, step.map(|s| s.mark == Some(Mark::Win)));
        Ok(())
    })
}

impl crate::family::hooks::GameFamily for Tafl {
    fn positions(game: &crate::ir::Game, _: &Self::Board) -> Vec<Option<String>> {
        super::rules::positions(game)
    }
    const SCHEMA: crate::family::hooks::Schema = crate::family::hooks::Schema {
        board: r#"    <xs:attribute name="validated" type="xs:boolean"/>
    <xs:attribute name="dim" type="xs:unsignedByte"/>
    <xs:attribute name="rules" type="xs:string"/>
"#,
        setup: None,
        types: include_str!("schema.xsd"),
    };
    fn check(game: &crate::ir::Game, board: &Board) -> Result<(), crate::error::Problem> {
        rules::check_game(game, board)
            .map_err(|e| crate::error::Problem::whole(e).of_kind(Kind::IllegalMove))
    }
    fn key(mv: &Move, _loose: bool) -> String {
        mv.key()
    }
    fn move_fields(
        game: &crate::ir::Game,
        _: &Board,
        out: &mut crate::family::hooks::Fields,
    ) -> Result<(), crate::error::Problem> {
        move_fields(game, out)
    }
    const DRAW: Option<crate::family::hooks::Draw> = Some(svg::draw);
}
