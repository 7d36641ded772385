//! The game families: the one list of them, and the one place that
//! dispatches on it. Each family is a folder (`chess/`, `draughts/`) with
//! its square, piece, move and board types, its rules and its notations.

pub mod chess;
pub mod coerceo;
pub mod draughts;
pub mod hnefatafl;

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
}

impl Family {
    /// Every family, in the order a result token several families write is
    /// looked up in ([`crate::ir::GameResult::parse`]).
    pub const ALL: [Family; 4] = [
        Family::Chess,
        Family::Draughts,
        Family::Coerceo,
        Family::Tafl,
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
        }
    }

    /// The family's result tokens.
    pub fn results(self) -> &'static Results {
        self.dialect().results
    }

    /// The family's name as the CLI and `kifu formats` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Family::Chess => "chess",
            Family::Draughts => "draughts",
            Family::Coerceo => "coerceo",
            Family::Tafl => "tafl",
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
}

impl Variant {
    /// The chess board, if the game is chess.
    pub fn as_chess(&self) -> Option<chess::Board> {
        match self {
            Variant::Chess(b) => Some(*b),
            Variant::Draughts(_) | Variant::Coerceo | Variant::Tafl(_) => None,
        }
    }

    /// The draughts board, if the game is draughts.
    pub fn as_draughts(&self) -> Option<draughts::Board> {
        match self {
            Variant::Draughts(b) => Some(*b),
            Variant::Chess(_) | Variant::Coerceo | Variant::Tafl(_) => None,
        }
    }

    /// The tafl board, if the game is tafl.
    pub fn as_tafl(&self) -> Option<&hnefatafl::Board> {
        match self {
            Variant::Tafl(b) => Some(b),
            Variant::Chess(_) | Variant::Draughts(_) | Variant::Coerceo => None,
        }
    }

    /// The family this variant belongs to.
    pub fn family(&self) -> Family {
        match self {
            Variant::Chess(_) => Family::Chess,
            Variant::Draughts(_) => Family::Draughts,
            Variant::Coerceo => Family::Coerceo,
            Variant::Tafl(_) => Family::Tafl,
        }
    }

    /// The side that makes the first move of a game from the initial position.
    pub fn first_mover(&self) -> Side {
        match self {
            Variant::Chess(_) => Side::White,
            Variant::Draughts(b) => b.first,
            Variant::Coerceo => Side::White,
            Variant::Tafl(b) => b.first_mover(),
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
}

impl Move {
    /// The family the move belongs to.
    pub fn family(&self) -> Family {
        match self {
            Move::Chess(_) => Family::Chess,
            Move::Draughts(_) => Family::Draughts,
            Move::Coerceo(_) => Family::Coerceo,
            Move::Tafl(_) => Family::Tafl,
        }
    }

    /// The chess move, if the move is one. (Family code asks for its own
    /// kind of move through these; only this file lists the families.)
    pub fn as_chess(&self) -> Option<&chess::Ply> {
        match self {
            Move::Chess(p) => Some(p),
            Move::Draughts(_) | Move::Coerceo(_) | Move::Tafl(_) => None,
        }
    }

    /// The draughts move, if the move is one.
    pub fn as_draughts(&self) -> Option<&draughts::Move> {
        match self {
            Move::Draughts(m) => Some(m),
            Move::Chess(_) | Move::Coerceo(_) | Move::Tafl(_) => None,
        }
    }

    /// The Coerceo move, if the move is one.
    pub fn as_coerceo(&self) -> Option<&coerceo::Move> {
        match self {
            Move::Coerceo(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Tafl(_) => None,
        }
    }

    /// The tafl move, if the move is one.
    pub fn as_hnefatafl(&self) -> Option<&hnefatafl::Move> {
        match self {
            Move::Tafl(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Coerceo(_) => None,
        }
    }

    /// The tafl move, to fill in what the rules compute.
    pub fn as_hnefatafl_mut(&mut self) -> Option<&mut hnefatafl::Move> {
        match self {
            Move::Tafl(m) => Some(m),
            Move::Chess(_) | Move::Draughts(_) | Move::Coerceo(_) => None,
        }
    }
}

impl Setup {
    /// The chess position (a FEN), if the setup is one.
    pub fn as_chess(&self) -> Option<&str> {
        match self {
            Setup::Chess(fen) => Some(fen),
            Setup::Draughts(_) => None,
        }
    }

    /// The draughts position, if the setup is one.
    pub fn as_draughts(&self) -> Option<&draughts::Position> {
        match self {
            Setup::Draughts(p) => Some(p),
            Setup::Chess(_) => None,
        }
    }
}
