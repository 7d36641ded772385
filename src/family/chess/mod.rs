//! Chess types of the IR: squares, pieces, moves and the variant.
//!
//! A move holds its meaning (piece, from, to, capture, promotion, castling,
//! en passant) and what the rules derive for writers: the check state after
//! it and the disambiguation standard algebraic notation needs. Readers fill
//! in what the text says; the rules replay ([`crate::family::chess::rules`]) resolves
//! the rest. A game converted with `--no-validate` keeps only what its text
//! said (`from` may be unknown).

pub mod pgn;
pub mod rules;
pub mod sllavcco;
pub mod sllavcco_html;
pub mod tags;

use std::fmt;

use serde::{Deserialize, Serialize};

/// A square, 0 = a1, 1 = b1, ... 63 = h8; written `e4` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square(pub u8);

impl Square {
    /// The square on a file (0 = a) and rank (0 = 1).
    pub fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }
    /// File, 0 = a.
    pub fn file(self) -> u8 {
        self.0 % 8
    }
    /// Rank, 0 = the first rank.
    pub fn rank(self) -> u8 {
        self.0 / 8
    }
    /// Reads `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::new(f - b'a', r - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

impl From<Square> for String {
    fn from(s: Square) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = String;
    fn try_from(s: String) -> Result<Square, String> {
        Square::parse(&s).ok_or_else(|| format!("`{s}` is not a square"))
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// The English SAN letter (`N`, `B`, `R`, `Q`, `K`; none for a pawn).
    pub fn san_letter(self) -> Option<char> {
        match self {
            Role::Pawn => None,
            Role::Knight => Some('N'),
            Role::Bishop => Some('B'),
            Role::Rook => Some('R'),
            Role::Queen => Some('Q'),
            Role::King => Some('K'),
        }
    }

    /// The role of an English SAN letter (`P` for a pawn).
    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
}

/// The side of the board a king castles to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wing {
    /// `O-O`.
    King,
    /// `O-O-O`.
    Queen,
}

/// What a move does to the opponent's king.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// No check.
    #[default]
    None,
    /// Check by one piece.
    Check,
    /// Check by two pieces.
    Double,
    /// Checkmate.
    Mate,
}

impl Check {
    fn is_none(&self) -> bool {
        *self == Check::None
    }
}

/// One chess move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The piece that moves (the king, for castling).
    pub role: Role,
    /// Where it comes from; `None` only when the game was not replayed and the
    /// text did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Square>,
    /// Where it goes; for castling, the square of the rook it castles with
    /// (which also names the rook in Chess960).
    pub to: Square,
    /// True when it captures.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capture: bool,
    /// The piece a pawn becomes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotion: Option<Role>,
    /// Castling, and to which wing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub castle: Option<Wing>,
    /// An en passant capture.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub en_passant: bool,
    /// The check the move gives.
    #[serde(default, skip_serializing_if = "Check::is_none")]
    pub check: Check,
    /// The file of `from` that standard notation shows (`Nbd2`, `exd5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_file: Option<u8>,
    /// The rank of `from` that standard notation shows (`R1e2`), 0-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_rank: Option<u8>,
}

impl Move {
    /// A plain move of a piece, nothing derived yet.
    pub fn new(role: Role, to: Square) -> Move {
        Move {
            role,
            from: None,
            to,
            capture: false,
            promotion: None,
            castle: None,
            en_passant: false,
            check: Check::None,
            show_file: None,
            show_rank: None,
        }
    }
}

/// A chess move, or a null move (`--`, `Z0`): a pass used in analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ply {
    /// A move.
    Move(Move),
    /// A null move.
    Null,
}

/// The chess variant a game is played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Fischer random chess (Chess960): castling as in its rules.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// False when the moves were not replayed (`--no-validate`): `from` and
    /// the derived fields may be missing.
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub validated: bool,
}

fn yes() -> bool {
    true
}

impl Board {
    /// Standard chess, moves replayed.
    pub const STANDARD: Board = Board {
        chess960: false,
        validated: true,
    };
}
