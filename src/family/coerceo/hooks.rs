//! Coerceo's hooks that need its rules: the walk the notation spells from
//! ([`Positions`]), the `csv` fields of its moves, and the hooks of
//! [`crate::family::GameFamily`].

use super::*;
use crate::error::Kind;

/// The Coerceo walk as the notation spells from it ([`crate::spell`]): a
/// ply is spelled from its own parts alone.
pub struct Positions;

impl crate::family::spell::Replay for Positions {
    const FAMILY: crate::family::any::Family = crate::family::any::Family::Coerceo;
    type Before<'p> = ();

    fn walk<'g>(
        game: &'g crate::ir::Game,
        lines: crate::family::spell::Lines,
        mut visit: impl FnMut(&'g crate::ir::Ply, ()) -> Result<(), crate::error::Problem>,
    ) -> Result<(), crate::error::Problem> {
        crate::family::spell::each_ply(game, lines, |ply| visit(ply, ()))
    }
}

/// The `csv` move fields of every ply of a game ([`crate::family::move_fields`]):
/// the ply in CGN (written and canonical), its step's fields and the fields
/// it captured, in the order written.
pub fn move_fields(
    game: &crate::ir::Game,
    out: &mut crate::family::hooks::Fields,
) -> Result<(), crate::error::Problem> {
    use crate::family::any::{Family, Move as AnyMove};
    use crate::family::hooks::{fields_in_order, Field::*};
    use std::fmt::Write;
    fields_in_order(game, Family::Coerceo, AnyMove::as_coerceo, out, |m, out| {
        out.write(Written, |t| spell(m, t))?;
        out.same(Canonical, Written);
        if let Some(s) = m.step {
            out.write(From, |t| write!(t, "{}", s.from)).ok();
            out.write(To, |t| write!(t, "{}", s.to)).ok();
        }
        for a in &m.actions {
            if let Action::Capture(f) = a {
                out.capture(|t| {
                    write!(t, "{f}").ok();
                });
            }
        }
        Ok(())
    })
}

impl crate::family::hooks::GameFamily for Coerceo {
    fn positions(game: &crate::ir::Game, _: &Self::Board) -> Vec<Option<String>> {
        super::rules::positions(game)
    }
    const SCHEMA: crate::family::hooks::Schema = crate::family::hooks::Schema {
        board: r#"    <xs:attribute name="validated" type="xs:boolean"/>
    <xs:attribute name="game">
      <xs:simpleType>
        <xs:restriction base="xs:string">
          <xs:enumeration value="laurentius"/>
          <xs:enumeration value="ocius"/>
        </xs:restriction>
      </xs:simpleType>
    </xs:attribute>
"#,
        setup: None,
        types: include_str!("schema.xsd"),
    };
    fn check(game: &crate::ir::Game, board: &Board) -> Result<(), crate::error::Problem> {
        rules::check_game(game, board)
            .map_err(|e| crate::error::Problem::whole(e).of_kind(Kind::IllegalMove))
    }
    fn key(mv: &Move, loose: bool) -> String {
        key(mv, loose)
    }
    fn move_fields(
        game: &crate::ir::Game,
        _: &Board,
        out: &mut crate::family::hooks::Fields,
    ) -> Result<(), crate::error::Problem> {
        move_fields(game, out)
    }
    fn main_line_fens(game: &crate::ir::Game) -> Option<Vec<String>> {
        rules::main_line_positions(game)
    }
    const DRAW: Option<crate::family::hooks::Draw> = Some(svg::draw);
}
