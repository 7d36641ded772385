//! Draughts types of the IR: the board, squares, moves and positions.
//!
//! A square is a number on a known board, never a string: numbered,
//! alphanumeric and diagonal coordinates are views computed from it by the
//! board geometry in [`crate::family::draughts::rules`].

pub mod diag;
pub mod hooks;
pub mod num;
pub mod pdn;
pub mod play;
pub mod rules;
pub mod svg;

use crate::error::Kind;
use serde::{Deserialize, Serialize};

use crate::family::dialect::{Dialect, Layout, Numbering};
use crate::ir::result::Outcome;
use crate::ir::result::{ResultToken, Results};
use crate::ir::side::Side;

/// How a board's squares are written in PDN (the notation field of GameType).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SquareStyle {
    /// Numbered squares `32-28` (GameType notation `N`).
    Numeric,
    /// Chess-like coordinates `c3-d4` (GameType notation `A`).
    Alpha,
}

/// A draughts board, as the PDN GameType tag describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// The GameType number (20 international, 21 English, 27 Canadian, ...).
    pub game_type: u8,
    /// The side that moves first.
    pub first: Side,
    /// Number of columns.
    pub width: u8,
    /// Number of rows.
    pub height: u8,
    /// How squares are written.
    pub style: SquareStyle,
    /// Where square 1 (or a1) lies, seen by the side that starts:
    /// 0 bottom left, 1 bottom right, 2 top left, 3 top right.
    pub corner: u8,
    /// True when the bottom left corner is not a playing square.
    pub invert: bool,
}

/// A playing square: its number on the board (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(transparent)]
pub struct Square(pub u16);

impl Serialize for Square {
    /// The number (written by hand to be inlined: a game writes hundreds).
    #[inline]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(self.0)
    }
}

/// A draughts move: the squares of its path and whether it captures.
///
/// A plain move has two squares; a capture has its start and end square and
/// any intermediate squares the source listed (`28x19x10`), kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The squares visited, at least two (held inline up to eight: a move
    /// costs no allocation of its own).
    pub path: Path,
    /// True for a capture.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capture: bool,
}

impl Move {
    /// Whether the move has the shape of a move, whatever the board: at
    /// least two squares, and a plain move (no capture) steps off every
    /// square it stands on (a capture may come back to where it began,
    /// `29x29`). `1-1` is a result token, not a move; reading one such
    /// would write a game that reads back as another.
    pub fn check_shape(&self) -> Result<(), String> {
        if self.path.len() < 2 {
            return Err("a draughts move needs at least two squares".into());
        }
        if !self.capture && self.path.windows(2).any(|w| w[0] == w[1]) {
            return Err("a move that captures nothing must leave its square".into());
        }
        Ok(())
    }

    /// What two transcriptions of this move must share to be the same move
    /// ([`crate::family::any::Move::key`]): its squares of departure and arrival
    /// and whether it captures, so that a path written in full equals its
    /// compact form.
    pub fn key(&self) -> String {
        let sep = if self.capture { 'x' } else { '-' };
        match (self.path.first(), self.path.last()) {
            (Some(a), Some(b)) => format!("{}{sep}{}", a.0, b.0),
            _ => String::new(),
        }
    }
}

/// The squares a move visits: inline up to eight, on the heap beyond.
pub type Path = smallvec::SmallVec<[Square; 8]>;

/// A piece on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// The square it stands on.
    pub square: Square,
    /// True for a king.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub king: bool,
}

/// A position, as a PDN FEN tag gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The side to move; `None` for FEN's `?`.
    pub to_move: Option<Side>,
    /// White's pieces, in the order the FEN lists them.
    pub white: Vec<Piece>,
    /// Black's pieces, in the order the FEN lists them.
    pub black: Vec<Piece>,
}

/// The draughts result tokens, in the order of `result_token` in
/// `grammars/draughts.pest`: international draughts scores `2-0 1-1 0-2`,
/// the double forfeit `0-0`, chess-style `1-0 0-1 1/2-1/2` (and `½-½`, read
/// as `1/2-1/2`), and `*` for unknown.
pub static RESULTS: Results = Results::new(&[
    ResultToken::new("2-0", Outcome::WhiteWins),
    ResultToken::new("0-2", Outcome::BlackWins),
    ResultToken::new("1-1", Outcome::Draw),
    ResultToken::new("0-0", Outcome::BothLose),
    ResultToken::new("1-0", Outcome::WhiteWins),
    ResultToken::new("0-1", Outcome::BlackWins),
    ResultToken::new("1/2-1/2", Outcome::Draw),
    ResultToken::alias("½-½", Outcome::Draw, "1/2-1/2"),
    // Russian records write the score with a colon (`0:1`): read as the
    // dashed score. Only where no square is 0 (`1:1` would be a capture
    // from square 1 back to it).
    ResultToken::alias("2:0", Outcome::WhiteWins, "2-0"),
    ResultToken::alias("0:2", Outcome::BlackWins, "0-2"),
    ResultToken::alias("1:0", Outcome::WhiteWins, "1-0"),
    ResultToken::alias("0:1", Outcome::BlackWins, "0-1"),
    ResultToken::alias("1/2:1/2", Outcome::Draw, "1/2-1/2"),
    ResultToken::new("*", Outcome::Unknown),
]);

/// The PDN dialect of the container, which draughts-num and draughts-diag
/// share: numbers by move pair, the draughts results, one paragraph wrapped
/// at 80 columns.
pub static DIALECT: Dialect = Dialect {
    name: "pdn",
    numbering: Numbering::Pair,
    results: &RESULTS,
    layouts: &[("text", Layout::Paragraph)],
    lifted: &["GameType", "FEN"],
};

/// Draughts as its room registers it ([`crate::family::hooks::GameFamily`]).
#[derive(Debug, Clone, Copy)]
pub struct Draughts;

impl crate::family::kind::Kind for Draughts {
    const NAME: &'static str = "draughts";
    const REPLAYS: bool = true;
    const DIALECT: &'static Dialect = &DIALECT;
    const CANONICAL: &'static str = "draughts-num";
    type Board = Board;
    type Move = Move;
    type Setup = Position;
    fn first_mover(board: &Board) -> crate::ir::side::Side {
        board.first
    }
}

/// Spells one move's path: its squares joined by `-`, or by `sep` for a
/// capture.
pub fn spell_numbers(
    board: &Board,
    sep: char,
    m: &Move,
    buf: &mut String,
) -> Result<(), crate::error::Problem> {
    m.check_shape().map_err(|e| {
        crate::error::Problem::whole(format!("{}: {e}", crate::error::quote(&m.key())))
            .of_kind(Kind::CannotWrite)
    })?;
    for (i, &sq) in m.path.iter().enumerate() {
        if !board.contains(sq) {
            return Err(crate::error::Problem::whole(format!(
                "square {} is not on the {}x{} board",
                sq.0, board.width, board.height
            ))
            .of_kind(Kind::CannotWrite));
        }
        if i > 0 {
            buf.push(if m.capture { sep } else { '-' });
        }
        board.write_square(sq, buf);
    }
    Ok(())
}
