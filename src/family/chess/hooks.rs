//! Chess's hooks that need its rules: the replay the notations spell from
//! ([`Positions`]), the `csv` fields of its moves, and the hooks of
//! [`crate::family::hooks::GameFamily`].

use super::*;
use crate::error::Kind;

/// The chess move of a ply, or the error for a move of another family.
#[inline]
pub fn ply_of(mv: &crate::family::any::Move) -> Result<&Ply, String> {
    mv.of(
        crate::family::any::Family::Chess,
        crate::family::any::Move::as_chess,
    )
}

/// The chess board of a variant, or `None` for a game of another family.
pub fn board_of(variant: &crate::family::any::Variant) -> Option<Board> {
    variant.as_chess().copied()
}

/// A chess start position (`None` for the standard start), or the error
/// for a setup of another family.
pub fn fen_of(setup: &Option<crate::family::any::Setup>) -> Result<Option<&Fen>, String> {
    match setup {
        None => Ok(None),
        Some(s) => s
            .as_chess()
            .map(Some)
            .ok_or_else(|| "a position of another game in a chess game".to_string()),
    }
}

/// The chess replay as the notations spell from it ([`crate::spell`]):
/// [`rules::Replay::spelling`], which gives each ply with how standard
/// notation shows it where it stands (its disambiguation and check: what
/// the rules derive from the positions before and after it).
pub struct Positions;

impl crate::family::spell::Replay for Positions {
    const FAMILY: crate::family::any::Family = crate::family::any::Family::Chess;
    type Before<'p> = Spelling;

    fn walk<'g>(
        game: &'g crate::ir::Game,
        lines: crate::family::spell::Lines,
        mut visit: impl FnMut(&'g crate::ir::Ply, Spelling) -> Result<(), crate::error::Problem>,
    ) -> Result<(), crate::error::Problem> {
        use crate::error::Problem;
        let mut replay = rules::Replay::spelling(game)
            .map_err(|e| Problem::whole(e).of_kind(Kind::IllegalMove))?;
        if lines == crate::family::spell::Lines::Main {
            replay = replay.main_line();
        }
        // (The replay's walk goes on past an error of `visit`: the first
        // is kept.)
        let mut failed = None;
        replay
            .walk(|step| {
                if let Err(e) = visit(step.ply, step.spelling) {
                    failed.get_or_insert(e);
                }
            })
            .map_err(|stop| Problem::whole(stop.to_string()).of_kind(Kind::IllegalMove))?;
        failed.map_or(Ok(()), Err)
    }
}

/// The `csv` move fields of every ply of a game ([`crate::family::move_fields`]),
/// from the replay that spells them: SAN as written where it stands, long
/// algebraic as the canonical form (`e2e4`, `e7e8q`, `O-O` for castling,
/// `--` for a null move), the squares, the piece letter (`P` for a pawn),
/// the captured square (the passed pawn's, en passant), check and mate;
/// each ply's written in `out`.
pub fn move_fields(
    game: &crate::ir::Game,
    out: &mut crate::family::hooks::Fields,
) -> Result<(), crate::error::Problem> {
    use crate::error::Problem;
    use crate::family::hooks::Field::*;
    let mut failed = None;
    rules::Replay::spelling(game)
        .map_err(|e| Problem::whole(e).of_kind(Kind::IllegalMove))?
        .walk(|step| {
            let ply = match ply_of(&step.ply.mv) {
                Ok(ply) => ply,
                Err(e) => {
                    failed = Some(Problem::whole(e).of_kind(Kind::WrongFamily));
                    return;
                }
            };
            out.ply(|out| {
                out.write(Written, |t| {
                    crate::family::chess::spell(ply, step.spelling, t)
                });
                out.flags(
                    Some(step.spelling.check != Check::None),
                    Some(step.spelling.check == Check::Mate),
                );
                match step.mv {
                    Ply::Move(m) => {
                        out.write(Piece, |t| t.push(m.role.san_letter().unwrap_or('P')));
                        if let Some(p) = m.promotion.and_then(Role::san_letter) {
                            out.write(Promotion, |t| t.push(p));
                        }
                        let to = match (m.castle, m.from) {
                            (Some(Wing::King), Some(from)) => Square::new(6, from.rank()),
                            (Some(Wing::Queen), Some(from)) => Square::new(2, from.rank()),
                            _ => m.to,
                        };
                        if let Some(from) = m.from {
                            out.set(From, from.name());
                        }
                        out.set(To, to.name());
                        if m.capture {
                            let taken = match (m.en_passant, m.from) {
                                (true, Some(from)) => Square::new(m.to.file(), from.rank()),
                                _ => m.to,
                            };
                            out.capture(|t| crate::ir::push_short(t, taken.name()));
                        }
                        match (m.castle, m.from) {
                            (Some(Wing::King), _) => out.set(Canonical, "O-O"),
                            (Some(Wing::Queen), _) => out.set(Canonical, "O-O-O"),
                            (None, Some(from)) => out.write(Canonical, |c| {
                                crate::ir::push_short(c, from.name());
                                crate::ir::push_short(c, m.to.name());
                                if let Some(p) = m.promotion.and_then(Role::san_letter) {
                                    c.push(p.to_ascii_lowercase());
                                }
                            }),
                            // A move not replayed names no square of departure.
                            (None, None) => out.same(Canonical, Written),
                        }
                    }
                    Ply::Null | Ply::Claimed(_) => out.same(Canonical, Written),
                }
            });
        })
        .map_err(|stop| Problem::whole(stop.to_string()).of_kind(Kind::IllegalMove))?;
    match failed {
        Some(p) => Err(p),
        None => Ok(()),
    }
}

impl crate::family::hooks::GameFamily for Chess {
    fn positions(game: &crate::ir::Game, _: &Self::Board) -> Vec<Option<String>> {
        super::rules::positions(game)
    }
    const SCHEMA: crate::family::hooks::Schema = crate::family::hooks::Schema {
        board: r#"    <xs:attribute name="chess960" type="xs:boolean"/>
    <xs:attribute name="validated" type="xs:boolean"/>
"#,
        setup: Some("Text"),
        types: include_str!("schema.xsd"),
    };
    fn check(game: &crate::ir::Game, _: &Board) -> Result<(), crate::error::Problem> {
        rules::check_game(game)
            .map_err(|e| crate::error::Problem::whole(e).of_kind(Kind::IllegalMove))
    }
    fn key(mv: &Ply, loose: bool) -> String {
        mv.key(loose)
    }
    fn move_fields(
        game: &crate::ir::Game,
        _: &Board,
        out: &mut crate::family::hooks::Fields,
    ) -> Result<(), crate::error::Problem> {
        move_fields(game, out)
    }
    fn main_line_fens(game: &crate::ir::Game) -> Option<Vec<String>> {
        rules::main_line_fens(game)
    }
    const DRAW: Option<crate::family::hooks::Draw> = Some(svg::draw);
}
