//! The game families: the one list of them, and the one place that
//! dispatches on it. Each family is a folder (`chess/`, `draughts/`) with
//! its square, piece, move and board types, its rules and its notations.

pub mod chess;
pub mod coerceo;
pub mod draughts;
pub mod hnefatafl;
pub mod tenjiku;

use serde::{Deserialize, Serialize};

use crate::container::dialect::{Dialect, Results};
use crate::error::Problem;
use crate::ir::{Game, Side};

/// A family of games: notations of one family can be converted into each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Chess, standard and Fischer random.
    Chess,
    /// Draughts and checkers on any board PDN describes.
    Draughts,
    /// Coerceo.
    Coerceo,
    /// Hnefatafl and the other tafl games.
    Tafl,
    /// Tenjiku shogi.
    Tenjiku,
}

impl Family {
    /// Every family, in the order a result token several families write is
    /// looked up in ([`crate::ir::GameResult::parse`]).
    pub const ALL: [Family; 5] = [
        Family::Chess,
        Family::Draughts,
        Family::Coerceo,
        Family::Tafl,
        Family::Tenjiku,
    ];

    /// The dialect of the family's container notations: its numbering and
    /// result tokens (for messages and results outside a notation: JSON, a
    /// Result tag).
    pub fn dialect(self) -> &'static Dialect {
        match self {
            Family::Chess => &chess::pgn::DIALECT,
            Family::Draughts => &draughts::pdn::DIALECT,
            Family::Coerceo => &coerceo::notation::DIALECT,
            Family::Tafl => &hnefatafl::tafl::DIALECT,
            Family::Tenjiku => &tenjiku::notation::DIALECT,
        }
    }

    /// The family's result tokens.
    pub fn results(self) -> &'static Results {
        self.dialect().results
    }

    /// The family's canonical notation, by its format's name: the one
    /// [`MoveFields::written`] spells moves in, and `kifu diff` shows a
    /// side's moves in when the side's own format spells none (JSON).
    pub fn canonical_notation(self) -> &'static str {
        match self {
            Family::Chess => "pgn",
            Family::Draughts => "draughts-num",
            Family::Coerceo => "coerceo",
            Family::Tafl => "tafl",
            Family::Tenjiku => "tenjiku",
        }
    }

    /// The family's name as the CLI and `kifu formats` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Family::Chess => "chess",
            Family::Draughts => "draughts",
            Family::Coerceo => "coerceo",
            Family::Tafl => "tafl",
            Family::Tenjiku => "tenjiku",
        }
    }
}

/// The game and board a record is played on: which family, and the family's
/// board description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Variant {
    /// Chess.
    Chess(chess::Board),
    /// A draughts board.
    Draughts(draughts::Board),
    /// Coerceo.
    Coerceo,
    /// A tafl board and its rules.
    Tafl(hnefatafl::Board),
    /// Tenjiku shogi: whether its moves were replayed.
    Tenjiku(tenjiku::Variant),
}

impl Variant {
    /// The chess board, if the game is chess.
    pub fn as_chess(&self) -> Option<chess::Board> {
        match self {
            Variant::Chess(b) => Some(*b),
            Variant::Draughts(_) | Variant::Coerceo | Variant::Tafl(_) | Variant::Tenjiku(_) => {
                None
            }
        }
    }

    /// The draughts board, if the game is draughts.
    pub fn as_draughts(&self) -> Option<draughts::Board> {
        match self {
            Variant::Draughts(b) => Some(*b),
            Variant::Chess(_) | Variant::Coerceo | Variant::Tafl(_) | Variant::Tenjiku(_) => None,
        }
    }

    /// The tafl board, if the game is tafl.
    pub fn as_tafl(&self) -> Option<&hnefatafl::Board> {
        match self {
            Variant::Tafl(b) => Some(b),
            Variant::Chess(_) | Variant::Draughts(_) | Variant::Coerceo | Variant::Tenjiku(_) => {
                None
            }
        }
    }

    /// The tenjiku variant, if the game is tenjiku shogi.
    pub fn as_tenjiku(&self) -> Option<tenjiku::Variant> {
        match self {
            Variant::Tenjiku(v) => Some(*v),
            Variant::Chess(_) | Variant::Draughts(_) | Variant::Coerceo | Variant::Tafl(_) => None,
        }
    }

    /// The family this variant belongs to.
    pub fn family(&self) -> Family {
        match self {
            Variant::Chess(_) => Family::Chess,
            Variant::Draughts(_) => Family::Draughts,
            Variant::Coerceo => Family::Coerceo,
            Variant::Tafl(_) => Family::Tafl,
            Variant::Tenjiku(_) => Family::Tenjiku,
        }
    }

    /// The side that makes the first move of a game from the initial position.
    pub fn first_mover(&self) -> Side {
        match self {
            Variant::Chess(_) => Side::White,
            Variant::Draughts(b) => b.first,
            Variant::Coerceo => Side::White,
            Variant::Tafl(b) => b.first_mover(),
            Variant::Tenjiku(_) => Side::Black,
        }
    }

    /// Checks a game that did not come through one of the family's
    /// grammars (JSON) by the family's rules: the board is one kifu
    /// handles, and every move is possible on it.
    pub fn check(&self, game: &Game) -> Result<(), Problem> {
        match self {
            Variant::Chess(_) => chess::rules::check_game(game).map_err(Problem::whole),
            Variant::Draughts(board) => draughts::rules::check_game(game, board),
            Variant::Coerceo => coerceo::rules::check_game(game).map_err(Problem::whole),
            Variant::Tafl(board) => {
                hnefatafl::rules::check_game(game, board).map_err(Problem::whole)
            }
            Variant::Tenjiku(_) => tenjiku::rules::check_game(game).map_err(Problem::whole),
        }
    }
}

/// A starting position given by the record (a FEN tag or its equivalent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Setup {
    /// A chess position, as a FEN (Shredder castling letters in Chess960).
    Chess(String),
    /// A draughts position.
    Draughts(draughts::Position),
    /// A tenjiku position, as its FEN tag writes it
    /// ([`tenjiku::rules::Board::fen`]).
    Tenjiku(String),
}

/// One move of any family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Move {
    /// A chess move or null move.
    Chess(chess::Ply),
    /// A draughts move: a path of squares.
    Draughts(draughts::Move),
    /// A Coerceo ply: a step or an exchange, with its captures and tiles.
    Coerceo(coerceo::Move),
    /// A tafl ply: a move and its captures, or a resignation.
    Tafl(hnefatafl::Move),
    /// A tenjiku shogi move: piece, origin, destination, promotion; or,
    /// in a game not replayed, what its text claims.
    Tenjiku(tenjiku::Ply),
}

/// The positions of a game's main line as FENs, for `kifu diff`: the
/// start, then the position after each ply; `None` for a family without a
/// position notation kifu writes (or a game not replayed).
pub fn main_line_fens(game: &Game) -> Option<Vec<String>> {
    match game.variant {
        Variant::Chess(_) => chess::rules::main_line_fens(game),
        Variant::Draughts(_) | Variant::Coerceo | Variant::Tafl(_) | Variant::Tenjiku(_) => None,
    }
}

impl Move {
    /// The family the move belongs to.
    pub fn family(&self) -> Family {
        match self {
            Move::Chess(_) => Family::Chess,
            Move::Draughts(_) => Family::Draughts,
            Move::Coerceo(_) => Family::Coerceo,
            Move::Tafl(_) => Family::Tafl,
            Move::Tenjiku(_) => Family::Tenjiku,
        }
    }

    /// What two transcriptions of a ply must share to be the same move
    /// (`kifu diff`): the meaning its family's rules gave it, so that
    /// `Nbd2` equals `Nd2`, a draughts path in full its compact form and a
    /// tafl move with its captures computed the same move with them
    /// written; with `loose`, only what the text says, for a game that
    /// could not be replayed and the game it is compared with.
    pub fn key(&self, loose: bool) -> String {
        match self {
            Move::Chess(p) => p.key(loose),
            Move::Draughts(m) => m.key(),
            Move::Coerceo(m) => serde_json::to_string(m).unwrap_or_default(),
            Move::Tafl(m) => m.key(),
            Move::Tenjiku(p) => p.key(loose),
        }
    }

    /// The move as its family's own kind (`pick`: one of the `as_*` below),
    /// or the error for a move of another family met in a game of
    /// `family` (`a draughts move in a tafl game`).
    pub fn of<'m, M>(
        &'m self,
        family: Family,
        pick: fn(&'m Move) -> Option<&'m M>,
    ) -> Result<&'m M, String> {
        pick(self).ok_or_else(|| {
            format!(
                "a {} move in a {} game",
                self.family().name(),
                family.name()
            )
        })
    }

    /// The chess move, if the move is one. (Family code asks for its own
    /// kind of move through these; only this file lists the families.)
    pub fn as_chess(&self) -> Option<&chess::Ply> {
        match self {
            Move::Chess(p) => Some(p),
            Move::Draughts(_) | Move::Coerceo(_) | Move::Tafl(_) | Move::Tenjiku(_) => None,
        }
    }

    /// The draughts move, if the move is one.
    pub fn as_draughts(&self) -> Option<&draughts::Move> {
        match self {
            Move::Draughts(m) => Some(m),
            Move::Chess(_) | Move::Coerceo(_) | Move::Tafl(_) | Move::Tenjiku(_) => None,
        }
    }

    /// The Coerceo move, if the move is one.
    pub fn as_coerceo(&self) -> Option<&coerceo::Move> {
        match self {
            Move::Coerceo(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Tafl(_) | Move::Tenjiku(_) => None,
        }
    }

    /// The tafl move, if the move is one.
    pub fn as_tafl(&self) -> Option<&hnefatafl::Move> {
        match self {
            Move::Tafl(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Coerceo(_) | Move::Tenjiku(_) => None,
        }
    }

    /// The tafl move, to fill in what the rules compute.
    pub fn as_tafl_mut(&mut self) -> Option<&mut hnefatafl::Move> {
        match self {
            Move::Tafl(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Coerceo(_) | Move::Tenjiku(_) => None,
        }
    }

    /// The tenjiku move, if the move is one.
    pub fn as_tenjiku(&self) -> Option<&tenjiku::Ply> {
        match self {
            Move::Tenjiku(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Coerceo(_) | Move::Tafl(_) => None,
        }
    }
}

/// The typed fields of one move, as the `csv` tables write them
/// ([`move_fields`]): what a database query asks of a move, in any family.
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

/// The fields of every move of a game, in the order the container writes
/// its plies (each ply, then its variations): the one per-family hook of
/// the `csv` tables; a new family only adds its own.
pub fn move_fields(game: &Game) -> Result<Vec<MoveFields>, Problem> {
    match game.variant {
        Variant::Chess(_) => chess::move_fields(game),
        Variant::Draughts(board) => draughts::move_fields(game, &board),
        Variant::Coerceo => coerceo::move_fields(game),
        Variant::Tafl(_) => hnefatafl::move_fields(game),
        Variant::Tenjiku(_) => tenjiku::move_fields(game),
    }
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

/// The plies of a line and its variations, in the order the container
/// writes them (each ply, then its variations).
pub fn plies_in_order(line: &crate::ir::Line) -> Vec<&crate::ir::Ply> {
    fn walk<'g>(line: &'g crate::ir::Line, out: &mut Vec<&'g crate::ir::Ply>) {
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

impl Setup {
    /// The chess position (a FEN), if the setup is one.
    pub fn as_chess(&self) -> Option<&str> {
        match self {
            Setup::Chess(fen) => Some(fen),
            Setup::Draughts(_) | Setup::Tenjiku(_) => None,
        }
    }

    /// The draughts position, if the setup is one.
    pub fn as_draughts(&self) -> Option<&draughts::Position> {
        match self {
            Setup::Draughts(p) => Some(p),
            Setup::Chess(_) | Setup::Tenjiku(_) => None,
        }
    }

    /// The tenjiku position (its FEN), if the setup is one.
    pub fn as_tenjiku(&self) -> Option<&str> {
        match self {
            Setup::Tenjiku(fen) => Some(fen),
            Setup::Chess(_) | Setup::Draughts(_) => None,
        }
    }
}
