//! Tenjiku's hooks that need its rules: the replay the notation spells from
//! ([`Positions`]) and a move spelled on its board ([`spell`]), the
//! `csv` fields of its moves, and the hooks of
//! [`crate::family::GameFamily`].

use super::*;
use crate::error::Kind;

/// The tenjiku replay as the notation spells from it ([`crate::spell`]):
/// each move checked on the board before it ([`rules::walk_checked`]), or,
/// in a game not replayed, no board (each move is its text's claim).
pub struct Positions;

impl crate::family::spell::Replay for Positions {
    const FAMILY: crate::family::any::Family = crate::family::any::Family::Tenjiku;
    type Before<'p> = Option<&'p rules::Board>;

    fn walk<'g>(
        game: &'g crate::ir::Game,
        lines: crate::family::spell::Lines,
        mut visit: impl FnMut(
            &'g crate::ir::Ply,
            Option<&rules::Board>,
        ) -> Result<(), crate::error::Problem>,
    ) -> Result<(), crate::error::Problem> {
        use crate::error::Problem;
        let mut only = crate::family::spell::Only::new(game, lines);
        if !rules::replayed(game) {
            return crate::family::spell::each_ply(game, lines, |ply| visit(ply, None));
        }
        let mut failed = None;
        rules::walk_checked(game, &mut |b, ply, _| {
            if failed.is_none() && only.takes(ply) {
                if let Err(e) = visit(ply, Some(b)) {
                    failed = Some(e);
                }
            }
        })
        .map_err(|e| Problem::whole(e).of_kind(Kind::IllegalMove))?;
        failed.map_or(Ok(()), Err)
    }
}

/// The `csv` move fields of every ply of a game ([`crate::family::move_fields`]),
/// each move resolved on the board: Hodges notation as kifu writes it by
/// default (written) and with its origin (canonical, `FiD7n-6k`), the
/// squares, the piece (TSA), the promoted piece, and the squares whose
/// pieces it captured or burned. In a game not replayed (`--no-validate`),
/// each move as its text claims it: written and canonical as written, and
/// the squares, piece and promotion that the text names (no captures).
pub fn move_fields(
    game: &crate::ir::Game,
    out: &mut crate::family::hooks::Fields,
) -> Result<(), crate::error::Problem> {
    use crate::error::Problem;
    use crate::family::hooks::Field::*;
    use std::fmt::Write;
    let short = Options::default();
    let long = Options {
        long: true,
        ..short
    };
    if !rules::replayed(game) {
        // Moves not replayed: what their text says, spelled as written.
        return crate::family::hooks::fields_in_order(
            game,
            crate::family::any::Family::Tenjiku,
            crate::family::any::Move::as_tenjiku,
            out,
            |p, out| {
                let c = p
                    .claimed()
                    .map_err(|e| Problem::whole(e).of_kind(Kind::CannotWrite))?;
                out.write(Written, |t| spell_claim(c, &short, t));
                out.same(Canonical, Written);
                if let Some(from) = c.from {
                    out.write(From, |t| write!(t, "{from}")).ok();
                }
                if let Some(to) = c.to.or(c.via.and(c.from)) {
                    out.write(To, |t| write!(t, "{to}")).ok();
                }
                if let Some(piece) = c.piece {
                    out.write(Piece, |t| write!(t, "{piece}")).ok();
                }
                let promoted = c
                    .piece
                    .filter(|p| c.promote == Some(true) && p.can_promote());
                if let Some(p) = promoted {
                    out.write(Promotion, |t| write!(t, "{}", p.promote())).ok();
                }
                Ok(())
            },
        );
    }
    rules::walk_checked(game, &mut |b, ply, m| {
        out.ply(|out| {
            out.write(Written, |t| spell(b, ply.side, m, &short, t));
            out.write(Canonical, |t| spell(b, ply.side, m, &long, t));
            let fx = b.clone().play(ply.side, m);
            out.write(From, |t| write!(t, "{}", m.from)).ok();
            out.write(To, |t| write!(t, "{}", m.to)).ok();
            for s in fx.captured.iter().chain(&fx.burned) {
                out.capture(|t| {
                    write!(t, "{s}").ok();
                });
            }
            out.write(Piece, |t| write!(t, "{}", m.piece)).ok();
            if m.promote {
                out.write(Promotion, |t| write!(t, "{}", m.piece.promote()))
                    .ok();
            }
        });
    })
    .map_err(|e| Problem::whole(e).of_kind(Kind::IllegalMove))?;
    Ok(())
}

/// Spells one move where it stands: piece, origin where needed, parts,
/// promotion sign where the move could promote, burn count, suicide.
pub fn spell(board: &rules::Board, side: crate::ir::Side, m: &Move, o: &Options, buf: &mut String) {
    m.piece.write(o.pieces, buf);
    if o.long || rules::needs_origin(board, side, m) {
        m.from.write(o.japanese, buf);
    }
    let mark = |s: Square| {
        if board.at(s).is_some_and(|x| x.side != side) {
            'x'
        } else {
            '-'
        }
    };
    match m.via {
        // Igui; a lion's pass (to an empty square and back) is written
        // with its two steps, `Ln-8g-8h`.
        Some(v) if m.to == m.from && board.is_enemy(v, side) => {
            buf.push_str("x!");
            v.write(o.japanese, buf);
        }
        Some(v) => {
            buf.push(mark(v));
            v.write(o.japanese, buf);
            buf.push(mark(m.to));
            m.to.write(o.japanese, buf);
        }
        None => {
            buf.push(mark(m.to));
            m.to.write(o.japanese, buf);
        }
    }
    if m.promote {
        buf.push('+');
    } else if board.may_promote(side, m) {
        buf.push('=');
    }
    let fx = board.clone().play(side, m);
    if !fx.burned.is_empty() {
        buf.push_str("x!");
        crate::ir::push_number(buf, fx.burned.len() as u32);
    }
    if fx.suicide {
        buf.push('*');
    }
}

impl crate::family::hooks::GameFamily for Tenjiku {
    fn positions(game: &crate::ir::Game, _: &Self::Board) -> Vec<Option<String>> {
        super::rules::positions(game)
    }
    const SCHEMA: crate::family::hooks::Schema = crate::family::hooks::Schema {
        board: r#"    <xs:attribute name="validated" type="xs:boolean"/>
"#,
        setup: Some("Text"),
        types: include_str!("schema.xsd"),
    };
    fn check(game: &crate::ir::Game, _: &Variant) -> Result<(), crate::error::Problem> {
        rules::check_game(game)
            .map_err(|e| crate::error::Problem::whole(e).of_kind(Kind::IllegalMove))
    }
    fn key(mv: &Ply, loose: bool) -> String {
        mv.key(loose)
    }
    fn move_fields(
        game: &crate::ir::Game,
        _: &Variant,
        out: &mut crate::family::hooks::Fields,
    ) -> Result<(), crate::error::Problem> {
        move_fields(game, out)
    }
    const DRAW: Option<crate::family::hooks::Draw> = Some(svg::draw);
}
