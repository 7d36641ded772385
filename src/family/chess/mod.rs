//! Chess types of the IR: squares, pieces, moves and the variant.
//!
//! A move holds its meaning (piece, from, to, capture, promotion, castling,
//! en passant), never its spelling: what a writer needs beyond the meaning
//! (the disambiguation standard algebraic notation shows, the check mark) is
//! derived by the rules' replay ([`rules::Replay`]) when writing. A game
//! converted with `--no-validate` is not replayed: its moves are
//! [`Claim`]s, what their text says and nothing more, spelled as written.

pub mod hooks;
pub mod pgn;
pub mod rules;
pub mod sllavcco;
pub mod sllavcco_html;
pub mod svg;
pub mod tags;

use std::fmt;

use crate::family::dialect::{Dialect, Layout, Numbering};
use crate::ir::result::Outcome;
use crate::ir::result::{ResultToken, Results};
use serde::{Deserialize, Serialize};

/// A square, 0 = a1, 1 = b1, ... 63 = h8; written `e4` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub struct Square(pub u8);

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

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

impl Square {
    /// The square's name, `e4` (the tables and JSON write millions of
    /// them: no formatting machinery).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 64] = [
            "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2",
            "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4",
            "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6",
            "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7",
            "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
        ];
        NAMES[usize::from(self.0 & 63)]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Square> for String {
    fn from(s: Square) -> String {
        s.name().to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = String;
    fn try_from(s: String) -> Result<Square, String> {
        Square::parse(&s).ok_or_else(|| format!("{} is not a square", crate::error::quote(&s)))
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

    /// The piece's name as JSON writes it (`knight`).
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
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

/// What standard notation shows of a move beyond its meaning: the part of
/// its square of departure that tells it from its rivals, and the check it
/// gives. The rules derive it from the position ([`rules::Replay`]); a
/// [`Claim`] carries the text's own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Spelling {
    /// The file of departure shown (`Nbd2`, `exd5`), 0 = a.
    pub file: Option<u8>,
    /// The rank of departure shown (`R1e2`), 0 = the first rank.
    pub rank: Option<u8>,
    /// The check the move gives.
    pub check: Check,
}

/// One chess move: what it does. JSON written by earlier versions of kifu
/// may hold `check`, `show_file` and `show_rank` members beside these: they
/// are read and dropped, the rules derive them (see [`Ply`]'s reading).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The piece that moves (the king, for castling).
    pub role: Role,
    /// Where it comes from; `None` only in a game not replayed
    /// (`--no-validate`, [`Claim::meaning`]).
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
        }
    }
}

/// A move of a game that was not replayed (`--no-validate`), as its text
/// claims it: the piece, where it goes, what the text names of where it
/// comes from, capture, promotion, castling and the check mark. Nothing is
/// derived or checked; writers spell it as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Claim {
    /// The piece that moves (the king, for castling).
    pub role: Role,
    /// The file of departure the text names, 0 = a.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<u8>,
    /// The rank of departure the text names, 0 = the first rank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u8>,
    /// Where it goes; for castling, the rook's square of the standard start.
    pub to: Square,
    /// Written as a capture.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capture: bool,
    /// The piece a pawn becomes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotion: Option<Role>,
    /// Castling, and to which wing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub castle: Option<Wing>,
    /// The check mark written.
    #[serde(default, skip_serializing_if = "Check::is_none")]
    pub check: Check,
}

impl Ply {
    /// What two transcriptions of this ply must share to be the same move
    /// ([`crate::family::any::Move::key`]): with `loose`, the piece, the square
    /// of arrival, the promotion and the castling wing, which the text
    /// alone gives (`Nbd2` and `Nd2` alike); otherwise the replayed move,
    /// squares of departure and arrival and promotion.
    pub fn key(&self, loose: bool) -> String {
        let loose_key = |role: Role, to: Square, promotion: Option<Role>, castle| match castle {
            Some(Wing::King) => "O-O".to_string(),
            Some(Wing::Queen) => "O-O-O".to_string(),
            None => format!(
                "{}{to}{}",
                role.san_letter().unwrap_or('P'),
                promotion
                    .and_then(Role::san_letter)
                    .map_or(String::new(), String::from)
            ),
        };
        match self {
            Ply::Null => "--".to_string(),
            Ply::Claimed(c) => loose_key(c.role, c.to, c.promotion, c.castle),
            Ply::Move(m) if loose => loose_key(m.role, m.to, m.promotion, m.castle),
            Ply::Move(m) => format!(
                "{}{}{}{}",
                m.role.san_letter().unwrap_or('P'),
                m.from.map_or(String::new(), |f| f.to_string()),
                m.to,
                m.promotion
                    .and_then(Role::san_letter)
                    .map_or(String::new(), String::from)
            ),
        }
    }
}

impl Claim {
    /// The move as far as the text tells it (`from` when it names both file
    /// and rank).
    pub fn meaning(&self) -> Move {
        let from = match (self.file, self.rank) {
            (Some(f), Some(r)) if f < 8 && r < 8 => Some(Square::new(f, r)),
            _ => None,
        };
        Move {
            role: self.role,
            from,
            to: self.to,
            capture: self.capture,
            promotion: self.promotion,
            castle: self.castle,
            en_passant: false,
        }
    }

    /// How the text spelled it.
    pub fn spelling(&self) -> Spelling {
        Spelling {
            file: self.file,
            rank: self.rank,
            check: self.check,
        }
    }
}

/// A chess move, or a null move (`--`, `Z0`): a pass used in analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", from = "StoredPly")]
pub enum Ply {
    /// A move.
    Move(Move),
    /// A null move.
    Null,
    /// A move as its text claims it, in a game not replayed
    /// (`--no-validate`); never in a replayed game.
    Claimed(Claim),
}

/// A ply as JSON holds it, written by this version or an earlier one.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum StoredPly {
    Move(StoredMove),
    Null,
    Claimed(Claim),
}

/// A move as JSON holds it: earlier versions of kifu kept the spelling
/// beside the meaning (`check`, `show_file`, `show_rank`).
#[derive(Deserialize)]
struct StoredMove {
    role: Role,
    #[serde(default)]
    from: Option<Square>,
    to: Square,
    #[serde(default)]
    capture: bool,
    #[serde(default)]
    promotion: Option<Role>,
    #[serde(default)]
    castle: Option<Wing>,
    #[serde(default)]
    en_passant: bool,
    #[serde(default)]
    check: Option<Check>,
    #[serde(default)]
    show_file: Option<u8>,
    #[serde(default)]
    show_rank: Option<u8>,
}

impl From<StoredPly> for Ply {
    /// A move with its square of departure is its meaning, and its stored
    /// spelling is dropped: the rules derive it. One without it that
    /// carries a spelling is the move of a game not replayed, as earlier
    /// versions stored them: what its text claimed.
    fn from(p: StoredPly) -> Ply {
        let m = match p {
            StoredPly::Move(m) => m,
            StoredPly::Null => return Ply::Null,
            StoredPly::Claimed(c) => return Ply::Claimed(c),
        };
        let spelled = m.check.is_some() || m.show_file.is_some() || m.show_rank.is_some();
        if m.from.is_none() && spelled {
            return Ply::Claimed(Claim {
                role: m.role,
                file: m.show_file,
                rank: m.show_rank,
                to: m.to,
                capture: m.capture,
                promotion: m.promotion,
                castle: m.castle,
                check: m.check.unwrap_or_default(),
            });
        }
        Ply::Move(Move {
            role: m.role,
            from: m.from,
            to: m.to,
            capture: m.capture,
            promotion: m.promotion,
            castle: m.castle,
            en_passant: m.en_passant,
        })
    }
}

/// The chess variant a game is played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Fischer random chess (Chess960): castling as in its rules.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// False when the moves were not replayed (`--no-validate`): they are
    /// [`Claim`]s.
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

/// The chess result tokens, in the order of `result_token` in
/// `grammars/chess.pest`: PGN's, the `½-½` and `1/2` of some old files
/// (read as `1/2-1/2`), and the forfeits `+--`, `--+`, `+:-`, `-:+` (read as
/// `1-0` and `0-1`). `0-0` is castling in chess, never a result.
pub static RESULTS: Results = Results::new(&[
    ResultToken::new("1-0", Outcome::WhiteWins),
    ResultToken::new("0-1", Outcome::BlackWins),
    ResultToken::new("1/2-1/2", Outcome::Draw),
    ResultToken::alias("½-½", Outcome::Draw, "1/2-1/2"),
    ResultToken::alias("1/2", Outcome::Draw, "1/2-1/2"),
    // The score with a colon, as Russian and other records write it.
    ResultToken::alias("1:0", Outcome::WhiteWins, "1-0"),
    ResultToken::alias("0:1", Outcome::BlackWins, "0-1"),
    ResultToken::alias("1/2:1/2", Outcome::Draw, "1/2-1/2"),
    ResultToken::new("*", Outcome::Unknown),
    // A game won by forfeit, the other player absent, as German tournament
    // programs write it (lichess reads them too: lila issue 14249).
    ResultToken::alias("+--", Outcome::WhiteWins, "1-0"),
    ResultToken::alias("--+", Outcome::BlackWins, "0-1"),
    ResultToken::alias("+:-", Outcome::WhiteWins, "1-0"),
    ResultToken::alias("-:+", Outcome::BlackWins, "0-1"),
]);

/// PGN's dialect of the container: numbers by move pair, the chess results,
/// one paragraph wrapped at 80 columns.
pub static DIALECT: Dialect = Dialect {
    name: "pgn",
    numbering: Numbering::Pair,
    results: &RESULTS,
    layouts: &[("text", Layout::Paragraph)],
    lifted: &["Variant", "SetUp", "FEN"],
};

/// Chess as its room registers it ([`crate::family::kind::Kind`], and [`crate::family::hooks::GameFamily`] in [`hooks`]).
#[derive(Debug, Clone, Copy)]
pub struct Chess;

impl crate::family::kind::Kind for Chess {
    const NAME: &'static str = "chess";
    const REPLAYS: bool = true;
    const DIALECT: &'static Dialect = &DIALECT;
    const CANONICAL: &'static str = "pgn";
    type Board = Board;
    type Move = Ply;
    type Setup = Fen;
    fn first_mover(_: &Board) -> crate::ir::side::Side {
        crate::ir::side::Side::White
    }
    /// A move or a null move put together from its fields' names (each
    /// part a constant or a name, where `serde_json` took
    /// some 1,780 instructions a move); a claimed move is left to
    /// `serde_json`.
    #[inline]
    fn json_parts(ply: &Ply, csv: bool, out: &mut String) -> bool {
        // A part as JSON, or as a csv field's JSON (its quotes doubled).
        let put = |out: &mut String, json: &'static str, field: &'static str| {
            out.push_str(if csv { field } else { json });
        };
        let m = match ply {
            Ply::Move(m) => m,
            Ply::Null => {
                put(out, "\"null\"", "\"\"null\"\"");
                return true;
            }
            Ply::Claimed(_) => return false,
        };
        put(
            out,
            "{\"move\":{\"role\":\"",
            "{\"\"move\"\":{\"\"role\"\":\"\"",
        );
        out.push_str(m.role.name());
        if let Some(from) = m.from {
            put(out, "\",\"from\":\"", "\"\",\"\"from\"\":\"\"");
            out.push_str(from.name());
        }
        put(out, "\",\"to\":\"", "\"\",\"\"to\"\":\"\"");
        out.push_str(m.to.name());
        put(out, "\"", "\"\"");
        if m.capture {
            put(out, ",\"capture\":true", ",\"\"capture\"\":true");
        }
        if let Some(p) = m.promotion {
            put(out, ",\"promotion\":\"", ",\"\"promotion\"\":\"\"");
            out.push_str(p.name());
            put(out, "\"", "\"\"");
        }
        match m.castle {
            Some(Wing::King) => put(out, ",\"castle\":\"king\"", ",\"\"castle\"\":\"\"king\"\""),
            Some(Wing::Queen) => put(
                out,
                ",\"castle\":\"queen\"",
                ",\"\"castle\"\":\"\"queen\"\"",
            ),
            None => {}
        }
        if m.en_passant {
            put(out, ",\"en_passant\":true", ",\"\"en_passant\"\":true");
        }
        out.push_str("}}");
        true
    }
    /// A move or a null move as 30 bits, each field in bits of its own
    /// (a square as its whole byte); a claimed move (`--no-validate`)
    /// does not pack.
    #[inline(always)]
    fn pack(ply: &Ply) -> Option<u64> {
        let m = match ply {
            Ply::Move(m) => m,
            Ply::Null => return Some(2),
            Ply::Claimed(_) => return None,
        };
        let from = m.from.map_or(0, |f| 0x100 | u64::from(f.0));
        let promotion = m.promotion.map_or(0, |r| 8 | r as u64);
        let castle = m.castle.map_or(0, |w| 2 | w as u64);
        Some(
            1 | (m.role as u64) << 2
                | from << 5
                | u64::from(m.to.0) << 14
                | u64::from(m.capture) << 22
                | promotion << 23
                | castle << 27
                | u64::from(m.en_passant) << 29,
        )
    }
}

/// A chess game's start position (the payload of
/// [`crate::family::any::Setup`]): the FEN a record or a document gives
/// (with Shredder castling letters), kept as read, or a position of the
/// rules' board, as a long record read a run at a time hands it from one
/// run to the next ([`crate::container::Runs`]), never made text and read
/// again. Either is serialized as the FEN's text (a position's made only
/// where an output writes it), and read back as text (`rules` implements
/// both, and [`Fen::text`] and [`Fen::position`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fen {
    /// The FEN as read.
    Text(String),
    /// A position of the rules' board.
    Board(Position),
}

use cozy_chess as cz;

/// The castling rights of one side: the file of the rook each wing castles
/// with (any file, for Chess960), by [`Wing`] index (king's side first).
pub(crate) type Rights = [Option<cz::File>; 2];

/// The one board of the chess rules: where the pieces stand, whose move it
/// is, the en passant square, the castling rights and the move counters.
///
/// Readers resolve written moves on it, the JSON check checks given moves
/// on it, and writers derive how standard notation spells a move on it
/// (the rivals a move must be told from, and the check or mate it gives).
/// Playing a move is a few bit operations (no hash, no pin bookkeeping);
/// legality is decided exactly where it is asked (a move of a piece other
/// than the king is legal when its own king is not attacked after it).
/// cozy-chess supplies the attack tables and reads and writes FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The pieces of each kind, by `cz::Piece` index.
    pub(in crate::family::chess) pieces: [cz::BitBoard; 6],
    /// The pieces of each side, by `cz::Color` index.
    pub(in crate::family::chess) colors: [cz::BitBoard; 2],
    /// The side to move.
    pub(in crate::family::chess) us: cz::Color,
    /// The square a pawn passed over with its last move, if it did.
    pub(in crate::family::chess) en_passant: Option<cz::Square>,
    /// The castling rights, by `cz::Color` index.
    pub(in crate::family::chess) castling: [Rights; 2],
    /// Plies since the last capture or pawn move (at most 100, as FEN
    /// writers keep it).
    pub(in crate::family::chess) halfmove: u8,
    /// The number of the move being played (wider than a FEN read by
    /// cozy-chess holds: a game goes on past move 65,535).
    pub(in crate::family::chess) fullmove: u32,
}

/// Spells one move in canonical SAN, as `spelling` says it is shown where
/// it stands (a claim, as its own says).
pub fn spell(ply: &Ply, spelling: Spelling, buf: &mut String) {
    match ply {
        Ply::Null => buf.push_str("--"),
        Ply::Move(m) => spell_move(m, spelling, buf),
        Ply::Claimed(c) => spell_move(&c.meaning(), c.spelling(), buf),
    }
}

#[inline]
fn spell_move(m: &Move, spelling: Spelling, buf: &mut String) {
    match m.castle {
        Some(Wing::King) => buf.push_str("O-O"),
        Some(Wing::Queen) => buf.push_str("O-O-O"),
        None => {
            if let Some(c) = m.role.san_letter() {
                buf.push(c);
            }
            if let Some(f) = spelling.file {
                buf.push(char::from(b'a' + f));
            }
            if let Some(r) = spelling.rank {
                buf.push(char::from(b'1' + r));
            }
            if m.capture {
                buf.push('x');
            }
            buf.push(char::from(b'a' + m.to.file()));
            buf.push(char::from(b'1' + m.to.rank()));
            if let Some(p) = m.promotion.and_then(Role::san_letter) {
                buf.push('=');
                buf.push(p);
            }
        }
    }
    match spelling.check {
        Check::None => {}
        Check::Check | Check::Double => buf.push('+'),
        Check::Mate => buf.push('#'),
    }
}
