//! Draughts' hooks that need its rules: the walk the notations spell from
//! ([`Positions`]), the `csv` fields of its moves, and the hooks of
//! [`crate::family::GameFamily`].

use super::*;
use crate::error::Kind;

/// The draughts position a game starts from, if its setup gives one
/// (`None` for a setup of another family, which a draughts game never has).
pub fn position_of(setup: &Option<crate::family::any::Setup>) -> Option<&Position> {
    setup.as_ref()?.as_draughts()
}

/// The draughts move of a ply, or the error for a move of another family.
pub fn draughts_move(mv: &crate::family::any::Move) -> Result<&Move, crate::error::Problem> {
    mv.of(
        crate::family::any::Family::Draughts,
        crate::family::any::Move::as_draughts,
    )
    .map_err(|e| crate::error::Problem::whole(e).of_kind(Kind::WrongFamily))
}

/// The draughts board of a game's variant, or the error a draughts writer gives for a
/// game of another family.
pub fn board_of(
    variant: &crate::family::any::Variant,
    format: &str,
) -> Result<Board, crate::error::Problem> {
    variant
        .as_draughts()
        .copied()
        .ok_or_else(|| variant.family().cannot_be_written_as(format))
}

/// The draughts walk as the notations spell from it ([`crate::spell`]):
/// a draughts move is spelled on its board alone, wherever it stands.
pub struct Positions;

impl crate::family::spell::Replay for Positions {
    const FAMILY: crate::family::any::Family = crate::family::any::Family::Draughts;
    type Before<'p> = &'p Board;

    fn walk<'g>(
        game: &'g crate::ir::Game,
        lines: crate::family::spell::Lines,
        mut visit: impl FnMut(&'g crate::ir::Ply, &Board) -> Result<(), crate::error::Problem>,
    ) -> Result<(), crate::error::Problem> {
        let board = board_of(&game.variant, "draughts")?;
        crate::family::spell::each_ply(game, lines, |ply| visit(ply, &board))
    }
}

/// The `csv` move fields of every ply of a game ([`crate::family::move_fields`]):
/// the path as the numbered notation writes it (written and canonical,
/// [`num::Numbers`]), its first and last squares. Draughts records name no
/// captured piece, and the table holds what the record writes (the replay
/// of [`play::replay`] only judges the moves), so the captured squares,
/// the piece and the flags are left empty.
pub fn move_fields(
    game: &crate::ir::Game,
    board: &Board,
    out: &mut crate::family::hooks::Fields,
) -> Result<(), crate::error::Problem> {
    use crate::family::hooks::Field::*;
    crate::family::hooks::fields_in_order(
        game,
        crate::family::any::Family::Draughts,
        crate::family::any::Move::as_draughts,
        out,
        |m, out| {
            out.write(Written, |t| {
                spell_numbers(board, board.capture_separator(), m, t)
            })?;
            out.same(Canonical, Written);
            if let Some(&sq) = m.path.first() {
                out.write(From, |t| board.write_square(sq, t));
            }
            if let Some(&sq) = m.path.last() {
                out.write(To, |t| board.write_square(sq, t));
            }
            Ok(())
        },
    )
}

impl crate::family::hooks::GameFamily for Draughts {
    fn positions(game: &crate::ir::Game, _: &Self::Board) -> Vec<Option<String>> {
        super::play::positions(game)
    }
    const SCHEMA: crate::family::hooks::Schema = crate::family::hooks::Schema {
        board: r#"    <xs:attribute name="game_type" type="xs:unsignedByte"/>
    <xs:attribute name="first" type="Side"/>
    <xs:attribute name="width" type="xs:unsignedByte"/>
    <xs:attribute name="height" type="xs:unsignedByte"/>
    <xs:attribute name="style">
      <xs:simpleType>
        <xs:restriction base="xs:string">
          <xs:enumeration value="numeric"/>
          <xs:enumeration value="alpha"/>
        </xs:restriction>
      </xs:simpleType>
    </xs:attribute>
    <xs:attribute name="corner" type="xs:unsignedByte"/>
    <xs:attribute name="invert" type="xs:boolean"/>
"#,
        setup: Some("DraughtsPosition"),
        types: include_str!("schema.xsd"),
    };
    fn check(game: &crate::ir::Game, board: &Board) -> Result<(), crate::error::Problem> {
        rules::check_game(game, board)
    }
    fn key(mv: &Move, _loose: bool) -> String {
        mv.key()
    }
    fn move_fields(
        game: &crate::ir::Game,
        board: &Board,
        out: &mut crate::family::hooks::Fields,
    ) -> Result<(), crate::error::Problem> {
        move_fields(game, board, out)
    }
    const DRAW: Option<crate::family::hooks::Draw> = Some(svg::draw);
}
