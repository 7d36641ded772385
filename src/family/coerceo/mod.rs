//! Coerceo types of the IR: tiles, fields and moves.
//!
//! The board is 19 hexagonal tiles, numbered 1 (the centre), 2 to 7 (the
//! first ring) and 8 to 19 (the second ring); each tile has six triangular
//! fields, `a` to `f`. A field is written with its tile and letter (`14d`).
//! A ply is a move of a piece (`14d-14f`) or an exchange of tiles for a
//! piece (`TT`, two tiles; `T`, one), followed by what it caused, in the
//! order written: captures (`x14a`), tile removals (`T14`) and further
//! exchanges. Seed 000 (Coerceo Game Notation, The Coerceo Company, 2012).

pub mod board;
pub mod hooks;
pub mod notation;
pub mod rules;
pub mod svg;

use std::fmt;

use crate::family::dialect::{Dialect, Layout, Numbering};
use crate::ir::result::Outcome;
use crate::ir::result::{ResultToken, Results};
use serde::{Deserialize, Serialize};

/// A tile of the board, 1 to 19; written as its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub struct Tile(u8);

impl Tile {
    /// How many tiles the board has.
    pub const COUNT: u8 = 19;

    /// The tile of this number, if the board has one.
    pub fn new(number: u32) -> Option<Tile> {
        (1..=u32::from(Tile::COUNT))
            .contains(&number)
            .then_some(Tile(number as u8))
    }

    /// The tile's number, 1 to 19.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The tile's index on the board, 0 to 18.
    pub fn index(self) -> usize {
        usize::from(self.0 - 1)
    }
}

impl From<Tile> for u8 {
    fn from(t: Tile) -> u8 {
        t.0
    }
}

impl TryFrom<u8> for Tile {
    type Error = String;
    fn try_from(n: u8) -> Result<Tile, String> {
        Tile::new(u32::from(n)).ok_or_else(|| not_a_tile(u32::from(n)))
    }
}

/// The message for a tile number the board does not have.
pub fn not_a_tile(n: u32) -> String {
    format!("tile {n} is not on the board (tiles are 1 to 19)")
}

/// A triangular field: a tile and one of its six fields `a` to `f`;
/// written `14d` (in JSON too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Field {
    tile: Tile,
    /// 0 = `a` ... 5 = `f`.
    letter: u8,
}

impl Field {
    /// The field of a tile by its letter, `a` to `f`.
    pub fn new(tile: Tile, letter: char) -> Option<Field> {
        ('a'..='f').contains(&letter).then(|| Field {
            tile,
            letter: letter as u8 - b'a',
        })
    }

    /// The tile the field is on.
    pub fn tile(self) -> Tile {
        self.tile
    }

    /// The field's letter, `a` to `f`.
    pub fn letter(self) -> char {
        char::from(b'a' + self.letter)
    }

    /// Reads `14d`: a tile number and a letter; the error says which part is
    /// wrong.
    pub fn parse(text: &str) -> Result<Field, String> {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        let letter = &text[digits..];
        let mut letters = letter.chars();
        let (Some(l), None, true) = (letters.next(), letters.next(), digits > 0) else {
            return Err(format!(
                "{text} is not a field (a tile 1 to 19 and a letter a to f, `14d`)",
                text = crate::error::quote(text)
            ));
        };
        let n: u32 = text[..digits].parse().map_err(|_| not_a_tile(u32::MAX))?;
        let tile = Tile::new(n).ok_or_else(|| not_a_tile(n))?;
        Field::new(tile, l).ok_or_else(|| {
            format!(
                "field {l} is not on a tile (fields are a to f)",
                l = crate::error::quote(&l.to_string())
            )
        })
    }

    /// The field's index on the board, `6 * (tile - 1) + letter` (`1a` is
    /// 0, `19f` 113): see [`board::Geometry`].
    pub fn index(self) -> usize {
        6 * usize::from(self.tile.0 - 1) + usize::from(self.letter)
    }

    /// The field of an index below [`board::FIELDS`].
    pub fn from_index(index: usize) -> Field {
        Field {
            tile: Tile((index / 6 + 1) as u8),
            letter: (index % 6) as u8,
        }
    }

    /// Appends the field as written (`14d`).
    pub fn write(self, out: &mut String) {
        crate::ir::side::push_number(out, u32::from(self.tile.0));
        out.push(self.letter());
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.tile.0, self.letter())
    }
}

impl From<Field> for String {
    fn from(f: Field) -> String {
        f.to_string()
    }
}

impl TryFrom<String> for Field {
    type Error = String;
    fn try_from(s: String) -> Result<Field, String> {
        Field::parse(&s)
    }
}

/// How many tiles an exchange gives for a piece: `TT` two, `T` one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum Exchange {
    /// `T`: one tile.
    One,
    /// `TT`: two tiles.
    Two,
}

impl Exchange {
    /// As written: `T` or `TT`.
    pub fn token(self) -> &'static str {
        match self {
            Exchange::One => "T",
            Exchange::Two => "TT",
        }
    }
}

impl From<Exchange> for u8 {
    fn from(e: Exchange) -> u8 {
        match e {
            Exchange::One => 1,
            Exchange::Two => 2,
        }
    }
}

impl TryFrom<u8> for Exchange {
    type Error = String;
    fn try_from(n: u8) -> Result<Exchange, String> {
        match n {
            1 => Ok(Exchange::One),
            2 => Ok(Exchange::Two),
            _ => Err(format!("an exchange gives 1 or 2 tiles, not {n}")),
        }
    }
}

/// What a ply did besides moving a piece, in the order written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// `x14a`: the piece on this field is captured.
    Capture(Field),
    /// `T14`: this tile is removed from the board.
    Remove(Tile),
    /// `T22`: a removal that names a tile the board does not have (the
    /// seed's complete game has `T22` and `T23`), kept as written; the
    /// reader warns of it. Never a number 1 to 19, which is a [`Tile`].
    RemoveUnknown(u32),
    /// `TT` or `T`: tiles exchanged for a piece (the capture that follows
    /// says which).
    Exchange(Exchange),
}

/// A move of a piece from one field to another (`14d-14f`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    /// Where the piece was.
    pub from: Field,
    /// Where it went.
    pub to: Field,
}

/// One Coerceo ply: a step and what followed it, or an exchange and what
/// followed it (then `actions` starts with the exchange).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Move {
    /// The piece moved, if one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
    /// Captures, tile removals and exchanges, in the order written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
}

/// The Coerceo result tokens, in the order of `result_token` in
/// `grammars/coerceo.pest`: seed 2.7's, and `*` for a game whose result is
/// not known (the container ends every game with a result).
pub static RESULTS: Results = Results::new(&[
    ResultToken::new("1-0", Outcome::WhiteWins),
    ResultToken::new("0-1", Outcome::BlackWins),
    ResultToken::new("0-0", Outcome::Draw),
    ResultToken::new("W+R", Outcome::WhiteWins),
    ResultToken::new("B+R", Outcome::BlackWins),
    ResultToken::new("R", Outcome::Decided),
    ResultToken::new("*", Outcome::Unknown),
]);

/// The canonical layout: one paragraph wrapped at 80 columns.
pub const TEXT: Layout = Layout::Paragraph;

/// Seed 2.8's first way: a White ply and a Black ply a line.
pub const COLUMNS: Layout = Layout::Pairs;

/// Coerceo's dialect of the container: plies numbered `1#`, `2#`, the
/// Coerceo results, the layouts `text` (canonical) and `columns`.
pub static DIALECT: Dialect = Dialect {
    name: "coerceo",
    numbering: Numbering::Ply { mark: b'#' },
    results: &RESULTS,
    layouts: &[("text", TEXT), ("columns", COLUMNS)],
    lifted: &["Variant", "Position"],
};

/// The two games the publisher plays on the board: Laurentius, the
/// standard game (19 tiles, 18 pieces a side), and Ocius, the short game
/// (the 7 tiles of the centre and the first ring, 7 pieces a side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// 19 tiles.
    #[default]
    Laurentius,
    /// 7 tiles.
    Ocius,
}

impl Kind {
    /// The game's name, as a `Variant` tag writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Laurentius => "Laurentius",
            Kind::Ocius => "Ocius",
        }
    }

    /// Reads a `Variant` tag's value (any case).
    pub fn parse(text: &str) -> Result<Kind, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "laurentius" => Ok(Kind::Laurentius),
            "ocius" => Ok(Kind::Ocius),
            _ => Err(format!(
                "variant {text}: a Coerceo game is Laurentius (19 tiles) or Ocius (7 tiles)",
                text = crate::error::quote(text)
            )),
        }
    }

    fn is_default(&self) -> bool {
        *self == Kind::Laurentius
    }
}

/// Coerceo's board (the payload of [`crate::family::any::Variant::Coerceo`]):
/// which game, and whether the moves were replayed by the rules when read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Laurentius or Ocius (the `Variant` tag).
    #[serde(default, skip_serializing_if = "Kind::is_default")]
    pub game: Kind,
    /// Whether the moves were replayed by the rules when read (false with
    /// `--no-validate`: what each ply caused is as written).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub validated: bool,
    /// The board the record's game starts on, where this game does not
    /// start there: a run of a record read a run at a time, which starts
    /// where the last run left, with the tiles taken off by then gone
    /// (what draws it draws the game's board,
    /// [`rules::Position::board`]). `None`: its own start says it. Never
    /// written.
    #[serde(skip)]
    pub started_on: Option<Kind>,
}

impl Default for Board {
    fn default() -> Board {
        Board {
            game: Kind::Laurentius,
            validated: true,
            started_on: None,
        }
    }
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

/// What two transcriptions of a ply must share to be the same move
/// (`kifu diff`): its step, its exchanges with their pieces, and (unless
/// `loose`, for a game not replayed) the pieces and tiles its turns took
/// off the board, in any order.
pub fn key(m: &Move, loose: bool) -> String {
    let bare = m.bare();
    if loose {
        return serde_json::to_string(&bare).unwrap_or_default();
    }
    let mut captures: Vec<Field> = m.captures().collect();
    for a in &bare.actions {
        if let Action::Capture(f) = a {
            if let Some(i) = captures.iter().position(|c| c == f) {
                captures.remove(i);
            }
        }
    }
    captures.sort();
    let mut removed: Vec<u32> = m
        .actions
        .iter()
        .filter_map(|a| match *a {
            Action::Remove(t) => Some(u32::from(t.number())),
            Action::RemoveUnknown(n) => Some(n),
            _ => None,
        })
        .collect();
    removed.sort_unstable();
    serde_json::to_string(&(&bare, captures, removed)).unwrap_or_default()
}

/// Coerceo as its room registers it ([`crate::family::hooks::GameFamily`]).
#[derive(Debug, Clone, Copy)]
pub struct Coerceo;

impl crate::family::kind::Kind for Coerceo {
    const NAME: &'static str = "coerceo";
    const REPLAYS: bool = true;
    const DIALECT: &'static Dialect = &DIALECT;
    const CANONICAL: &'static str = "coerceo";
    type Board = Board;
    type Move = Move;
    type Setup = crate::family::kind::NoSetup;
    fn first_mover(_: &Board) -> crate::ir::side::Side {
        crate::ir::side::Side::White
    }
}

/// Spells one ply: its step, then its actions, separated by spaces.
pub fn spell(m: &Move, buf: &mut String) -> Result<(), crate::error::Problem> {
    m.check()
        .map_err(|e| crate::error::Problem::whole(e).of_kind(crate::error::Kind::CannotWrite))?;
    let mut first = true;
    if let Some(step) = m.step {
        step.from.write(buf);
        buf.push('-');
        step.to.write(buf);
        first = false;
    }
    for a in &m.actions {
        if !first {
            buf.push(' ');
        }
        first = false;
        match *a {
            Action::Capture(f) => {
                buf.push('x');
                f.write(buf);
            }
            Action::Remove(t) => {
                buf.push('T');
                crate::ir::side::push_number(buf, u32::from(t.number()));
            }
            Action::RemoveUnknown(n) => {
                buf.push('T');
                crate::ir::side::push_number(buf, n);
            }
            Action::Exchange(e) => buf.push_str(e.token()),
        }
    }
    Ok(())
}
