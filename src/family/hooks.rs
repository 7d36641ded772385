//! The hooks only a family knows, which need its rules ([`GameFamily`]),
//! and what the rooms share to answer them (the `csv` fields of a move).
//! Above the IR and below the dispatch (`family/mod.rs`), so that a room
//! implements them without naming the registry.

use crate::error::Problem;
use crate::family::any::{Family, Move};
use crate::family::draw;
use crate::family::kind::Kind;
use crate::ir::{Game, Line, Ply};

/// A game family, as its room registers it: the hooks that need its rules,
/// over what its own module declares ([`Kind`]). Everything that
/// dispatches on the family is generated from the one registration line
/// of each family (`registered!` in `family/mod.rs`), from these traits.
pub trait GameFamily: Kind {
    /// Checks a game that did not come through one of the family's
    /// grammars (JSON) by the family's rules: the board is one kifu
    /// handles, and every move is possible on it.
    fn check(game: &Game, board: &Self::Board) -> Result<(), Problem>;
    /// What two transcriptions of a move must share to be the same move
    /// (`kifu diff`): see [`Move::key`].
    fn key(mv: &Self::Move, loose: bool) -> String;
    /// The `csv` fields of every move of a game, in the order the
    /// container writes its plies ([`crate::family::move_fields`]).
    fn move_fields(game: &Game, board: &Self::Board) -> Result<Vec<MoveFields>, Problem>;
    /// The positions of the main line as the family's position notation
    /// writes them (the start, then after each ply), for `kifu diff`;
    /// `None` (the default) for a family without one kifu writes.
    fn main_line_fens(_game: &Game) -> Option<Vec<String>> {
        None
    }
    /// The position after every ply of a game as the family's position
    /// text writes it (chess FEN, draughts FEN, ...), in the order
    /// [`GameFamily::move_fields`] gives the plies: the `fen` column of the
    /// `csv` tables ([`crate::family::positions`]), through
    /// [`positions_in_order`]; `None` where it is not known (a game not
    /// replayed, a ply the rules refuse and those after it). By default
    /// none is known.
    fn positions(game: &Game, _board: &Self::Board) -> Vec<Option<String>> {
        vec![None; plies_in_order(&game.moves).len()]
    }
    /// How the family draws a game's main line on its board
    /// ([`draw::Diagram`], the `svg` and `html` formats), from the
    /// positions its replay gives; `None` (the default) for a family whose
    /// boards are not drawn yet, whose games fail with that error, naming
    /// the families that are ([`crate::family::diagram`]).
    const DRAW: Option<Draw> = None;
    /// The family's part of the XML schema of the `xml` format.
    const SCHEMA: Schema;
}

/// A family's part of the XML schema (`schema/kifu.xsd`, which
/// [`crate::interchange::xml::xsd`] makes from every family's).
#[derive(Debug)]
pub struct Schema {
    /// The attributes of `<variant>` that the family's board has, as
    /// schema text, one `<xs:attribute>` after another; an attribute
    /// several families' boards have is written once, and must read the
    /// same in each.
    pub board: &'static str,
    /// The type of the family's element in `<setup>`; `None` for a family
    /// whose records give no start position.
    pub setup: Option<&'static str>,
    /// The types of the family's moves as schema text (the room's
    /// `schema.xsd`): first of all `NameMove` (`ChessMove`: the
    /// registration's name), the type of its element in `<ply>`.
    pub types: &'static str,
}

/// A family's drawing of a game's main line ([`GameFamily::DRAW`]).
pub type Draw = fn(&Game, &draw::View<'_>) -> Result<draw::Diagram, Problem>;

/// The typed fields of one move, as the `csv` tables write them
/// ([`crate::family::move_fields`]): what a database query asks of a move, in any family.
/// `None` (NULL) where the family's records do not say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveFields {
    /// The move as the family's canonical notation
    /// ([`Family::canonical_notation`]) spells it where it stands (chess
    /// SAN with its check mark, a draughts path as held, CGN, tafl,
    /// Hodges): kifu keeps a move's meaning, not its source text. (The
    /// `csv` writer puts the spelling of the format a game was read from
    /// in its place: [`crate::spell`].)
    pub written: String,
    /// The family's notation-independent form of the move: chess long
    /// algebraic (`g1f3`, `e7e8q`), tenjiku with its origin (`FiD7n-6k`);
    /// the written form where the family's notation is already complete.
    pub canonical: String,
    /// The square (field) the piece left.
    pub from: Option<String>,
    /// The square (field) the piece reached.
    pub to: Option<String>,
    /// The squares of the pieces it took off the board, in order.
    pub captured: Vec<String>,
    /// The piece that moved, as the family abbreviates it.
    pub piece: Option<String>,
    /// What the piece became (chess: the new piece; tenjiku: the promoted
    /// piece).
    pub promotion: Option<String>,
    /// Whether the move gives check (chess).
    pub check: Option<bool>,
    /// Whether the move mates (chess) or wins at once (tafl `++`).
    pub mate: Option<bool>,
}

/// The `csv` fields of every move of a game in the order the container
/// writes them, for a family whose moves spell without a board: `fields`
/// of each move as the family's own kind (`pick`, see [`Move::of`]).
pub fn fields_in_order<M>(
    game: &Game,
    family: Family,
    pick: for<'m> fn(&'m Move) -> Option<&'m M>,
    fields: impl Fn(&M) -> Result<MoveFields, Problem>,
) -> Result<Vec<MoveFields>, Problem> {
    plies_in_order(&game.moves)
        .into_iter()
        .map(|ply| fields(ply.mv.of(family, pick).map_err(Problem::whole)?))
        .collect()
}

/// The position after each ply of a line and its variations, in the order
/// the container writes them (each ply, then its variations, which start
/// from the position before their ply), as `text` writes the position and
/// the ply just played: the one walk of every family's
/// [`GameFamily::positions`]. `play` plays the `i`th ply of `plies` (the
/// rest of its line is there for rules that look ahead) and says whether
/// it could; after a ply it cannot play, and everywhere without a
/// `start`, no position is known (`None`).
pub fn positions_in_order<P: Clone>(
    line: &Line,
    start: Option<P>,
    play: &mut dyn FnMut(&mut P, &[Ply], usize) -> bool,
    text: &dyn Fn(&P, &Ply) -> String,
) -> Vec<Option<String>> {
    type Play<'a, P> = &'a mut dyn FnMut(&mut P, &[Ply], usize) -> bool;
    fn walk<P: Clone>(
        line: &Line,
        mut pos: Option<P>,
        play: Play<'_, P>,
        text: &dyn Fn(&P, &Ply) -> String,
        out: &mut Vec<Option<String>>,
    ) {
        for (i, ply) in line.plies.iter().enumerate() {
            let before = match ply.variations.is_empty() {
                true => None,
                false => pos.clone(),
            };
            if let Some(p) = pos.as_mut() {
                if !play(p, &line.plies, i) {
                    pos = None;
                }
            }
            out.push(pos.as_ref().map(|p| text(p, ply)));
            for v in &ply.variations {
                walk(v, before.clone(), play, text, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(line, start, play, text, &mut out);
    out
}

/// The plies of a line and its variations, in the order the container
/// writes them (each ply, then its variations).
pub fn plies_in_order(line: &Line) -> Vec<&Ply> {
    fn walk<'g>(line: &'g Line, out: &mut Vec<&'g Ply>) {
        for ply in &line.plies {
            out.push(ply);
            for v in &ply.variations {
                walk(v, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(line, &mut out);
    out
}
