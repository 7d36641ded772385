//! Hnefatafl (tafl) types of the IR: squares, moves, marks and the board.
//!
//! A square is a file (`a`.., I and O included) and a rank (from 1 at the
//! bottom) on a board of 5x5 to 19x19. A ply moves one piece in a straight
//! line (`e5-e8`) and lists the pieces it captured (`xf8/d8`), or is a
//! resignation. The board carries the game's rules as an OpenTafl rules
//! string ([`rules::Rules`]), when they are known, from which the pieces
//! are tracked and captures checked or computed.

pub mod aagenielsen;
pub mod hooks;
pub mod otn;
pub mod rules;
pub mod rulestring;
pub mod svg;
pub mod tafl;

use std::fmt;

use crate::family::dialect::{Dialect, Layout, Numbering};
use crate::ir::result::PGN_RESULTS;
use serde::{Deserialize, Serialize};

pub use rulestring::Rules;

/// The smallest board side kifu reads.
pub const MIN_DIM: u8 = 5;
/// The largest board side kifu reads.
pub const MAX_DIM: u8 = 19;

/// A square: a file and a rank, both from 0 (`a1`); written `e5` (in JSON
/// too; the notations write it in their own case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square {
    /// 0 = `a`.
    pub file: u8,
    /// 0 = rank 1.
    pub rank: u8,
}

impl Square {
    /// The square of a file and rank, from 0; `None` past the largest board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < MAX_DIM && rank < MAX_DIM).then_some(Square { file, rank })
    }

    /// The squares a move along a file or a rank from here to `to` passes
    /// or lands on, in order (`to` the last); `None` where `to` is on
    /// neither line (no square is passed).
    pub fn toward(self, to: Square) -> Option<impl Iterator<Item = Square>> {
        if self.file != to.file && self.rank != to.rank {
            return None;
        }
        let step = |a: u8, b: u8| i16::from(b) - i16::from(a);
        let (df, dr) = (
            step(self.file, to.file).signum(),
            step(self.rank, to.rank).signum(),
        );
        let n = step(self.file, to.file)
            .abs()
            .max(step(self.rank, to.rank).abs());
        Some((1..=n).filter_map(move |k| {
            let f = u8::try_from(i16::from(self.file) + df * k).ok()?;
            let r = u8::try_from(i16::from(self.rank) + dr * k).ok()?;
            Square::new(f, r)
        }))
    }

    /// Reads `e5` or `E5` (a letter `a` to `s` and a rank 1 to 19); the
    /// error says what is wrong.
    pub fn parse(text: &str) -> Result<Square, String> {
        let b = text.as_bytes();
        let (Some(&l), true) = (b.first(), b.len() >= 2) else {
            return Err(format!(
                "{text} is not a square (a file letter and a rank, `e5`)",
                text = crate::error::quote(text)
            ));
        };
        let l = l.to_ascii_lowercase();
        if !l.is_ascii_lowercase() || !b[1..].iter().all(u8::is_ascii_digit) || b.len() > 4 {
            return Err(format!(
                "{text} is not a square (a file letter and a rank, `e5`)",
                text = crate::error::quote(text)
            ));
        }
        let rank: u32 = text[1..].parse().unwrap_or(0);
        let file = l - b'a';
        if file >= MAX_DIM || rank == 0 || rank > u32::from(MAX_DIM) {
            return Err(format!(
                "{text} is off every board (files a to s, ranks 1 to 19)",
                text = crate::error::quote(text)
            ));
        }
        Ok(Square {
            file,
            rank: rank as u8 - 1,
        })
    }

    /// Whether the square is on a board of side `dim`.
    pub fn on(self, dim: u8) -> bool {
        self.file < dim && self.rank < dim
    }

    /// The larger of its file and rank, plus one: the smallest board side
    /// that holds it.
    pub fn extent(self) -> u8 {
        self.file.max(self.rank) + 1
    }

    /// Appends the square, its letter in upper or lower case.
    pub fn write(self, upper: bool, out: &mut String) {
        let base = if upper { b'A' } else { b'a' };
        out.push(char::from(base + self.file));
        crate::ir::side::push_number(out, u32::from(self.rank) + 1);
    }

    /// The square seen from another side of a board of side `dim`: turned a
    /// quarter `quarters` times clockwise, then mirrored left to right.
    pub fn transform(self, dim: u8, quarters: u8, mirror: bool) -> Square {
        let n = dim - 1;
        let (mut f, mut r) = (self.file, self.rank);
        for _ in 0..quarters % 4 {
            // A quarter turn clockwise: the left edge becomes the top.
            (f, r) = (r, n - f);
        }
        if mirror {
            f = n - f;
        }
        Square { file: f, rank: r }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write(false, &mut s);
        f.write_str(&s)
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
        Square::parse(&s)
    }
}

/// What a move's suffix says, by meaning; each notation spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// `+`: the mover threatens to win next move (tafl; otn writes `+` after
    /// an attacker's move, `-` after a defender's).
    Threat,
    /// `++`: the move wins, the king captured or escaped (otn: `++` by the
    /// attackers, `--` by the defenders). Judged by the rules where they
    /// are known: checked when written, filled in when left out.
    Win,
    /// tafl `--`: a suicidal move, after which the opponent wins at once
    /// (seed 003); judged as [`Mark::Win`] is. otn has no spelling for it.
    Suicide,
}

/// A move of one piece, and what it captured.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    /// Where the piece was.
    pub from: Square,
    /// Squares the piece passed on a multi-leg (Berserk) move, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<Square>,
    /// Where it went.
    pub to: Square,
    /// The squares of the pieces it captured, in the order written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<Square>,
    /// The suffix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
}

impl Step {
    /// A move of one leg from `from` to `to`, capturing nothing as written
    /// and with no mark (the rules compute its captures).
    pub fn leg(from: Square, to: Square) -> Step {
        Step {
            from,
            via: Vec::new(),
            to,
            captures: Vec::new(),
            mark: None,
        }
    }

    /// Its first leg alone, as [`Step::leg`] (the whole move where it has
    /// one leg, without its captures and mark).
    pub fn first_leg(&self) -> Step {
        Step::leg(self.from, self.via.first().copied().unwrap_or(self.to))
    }

    /// Its legs, in order: where each starts and where it ends (one leg
    /// but on a multi-leg, Berserk, move).
    pub fn legs(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        let ends = self.via.iter().copied().chain(std::iter::once(self.to));
        std::iter::once(self.from)
            .chain(self.via.iter().copied())
            .zip(ends)
    }
}

/// One tafl ply.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// A piece moved.
    Step(Step),
    /// The side to move resigned (tafl `--` alone, otn `---`).
    Resign,
}

impl Move {
    /// The step, if the ply moved a piece.
    pub fn step(&self) -> Option<&Step> {
        match self {
            Move::Step(s) => Some(s),
            Move::Resign => None,
        }
    }

    /// What two transcriptions of this ply must share to be the same move
    /// ([`crate::family::any::Move::key`]): its squares and the pieces it
    /// captures, in any order (the rules compute them where they are
    /// known), not its mark.
    pub fn key(&self) -> String {
        match self {
            Move::Step(s) => {
                let mut captures = s.captures.clone();
                captures.sort_by_key(|c| serde_json::to_string(c).unwrap_or_default());
                serde_json::to_string(&(s.from, &s.via, s.to, captures)).unwrap_or_default()
            }
            Move::Resign => "resign".to_string(),
        }
    }

    /// Every square the move names (to check them against a board).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.step().into_iter().flat_map(|s| {
            std::iter::once(s.from)
                .chain(s.via.iter().copied())
                .chain(std::iter::once(s.to))
                .chain(s.captures.iter().copied())
        })
    }
}

/// A tafl board: its side, and the rules when they are known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The side of the board, 5 to 19.
    pub dim: u8,
    /// The rules (and start position), as an OpenTafl rules string; `None`
    /// when the record does not say and no preset fits the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// Whether the moves were replayed by the rules when read (false with
    /// `--no-validate` or without rules: the captures are as written).
    #[serde(default = "yes")]
    pub validated: bool,
}

fn yes() -> bool {
    true
}

impl Board {
    /// The side that moves first: the attackers (Black), unless the rules
    /// say the defenders (White) do.
    pub fn first_mover(&self) -> crate::ir::side::Side {
        match &self.rules {
            Some(r) if !r.attackers_first => crate::ir::side::Side::White,
            _ => crate::ir::side::Side::Black,
        }
    }
}

/// The side that attacks is Black in the IR (it moves first in most
/// variants, as Black does in the tafl seed's diagrams); the defenders,
/// with the king, are White.
pub const ATTACKERS: crate::ir::side::Side = crate::ir::side::Side::Black;

/// tafl's dialect of the container: numbers by move pair, PGN's results (the
/// defenders, White, win `1-0`; the attackers, Black, `0-1`),
/// one paragraph wrapped at 80 columns.
pub static DIALECT: Dialect = Dialect {
    name: "tafl",
    numbering: Numbering::Pair,
    results: &PGN_RESULTS,
    layouts: &[("text", Layout::Paragraph)],
    lifted: &["Board", "Rules", "Position"],
};

/// Tafl as its room registers it ([`crate::family::hooks::GameFamily`]).
#[derive(Debug, Clone, Copy)]
pub struct Tafl;

impl crate::family::kind::Kind for Tafl {
    const NAME: &'static str = "tafl";
    const REPLAYS: bool = true;
    const DIALECT: &'static Dialect = &DIALECT;
    const CANONICAL: &'static str = "tafl";
    type Board = Board;
    type Move = Move;
    type Setup = crate::family::kind::NoSetup;
    fn first_mover(board: &Board) -> crate::ir::side::Side {
        board.first_mover()
    }
}

/// Spells one move in upper case: `E5-E8xD8/F8+`, `--` for a resignation;
/// `view` turns each square.
pub fn spell_move(m: &Move, buf: &mut String, view: &dyn Fn(Square) -> Square) {
    let Some(step) = m.step() else {
        buf.push_str("--");
        return;
    };
    view(step.from).write(true, buf);
    for &v in step.via.iter().chain(std::iter::once(&step.to)) {
        buf.push('-');
        view(v).write(true, buf);
    }
    for (i, &c) in step.captures.iter().enumerate() {
        buf.push(if i == 0 { 'x' } else { '/' });
        view(c).write(true, buf);
    }
    buf.push_str(match step.mark {
        None => "",
        Some(Mark::Threat) => "+",
        Some(Mark::Win) => "++",
        Some(Mark::Suicide) => "--",
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_turn() {
        let s = Square::parse("A1").unwrap();
        assert_eq!(s, Square { file: 0, rank: 0 });
        assert_eq!(Square::parse("k11").unwrap().to_string(), "k11");
        for bad in ["a0", "t1", "a20", "5a", "a", "", "a1x"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
        // A half turn of a1-a4 on 11x11 is k11-k8.
        let a1 = Square::parse("a1").unwrap();
        let a4 = Square::parse("a4").unwrap();
        assert_eq!(a1.transform(11, 2, false).to_string(), "k11");
        assert_eq!(a4.transform(11, 2, false).to_string(), "k8");
        let e3 = Square::parse("e3").unwrap();
        assert_eq!(e3.transform(11, 4, false), e3);
        assert_eq!(e3.transform(11, 0, true).transform(11, 0, true), e3);
        assert_eq!(a1.transform(11, 1, false).to_string(), "a11");
    }
}
