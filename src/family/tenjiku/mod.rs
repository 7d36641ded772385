//! Tenjiku shogi types of the IR: squares, pieces and moves.
//!
//! The board is 16x16. A square is written with its file, 1 to 16, and its
//! rank, `a` to `p`: 1a is the top right corner seen from Black (who moves
//! first and starts on ranks l to p), 16p the bottom left (Hodges notation,
//! seed 001). Japanese coordinates write the rank as a kanji numeral
//! (2c = 2三, ranks 11 to 16 = 十一 to 十六).
//!
//! A piece is one of the 36 kinds of the start position or one of the 8
//! kinds that only appear by promotion; a piece on the board is a kind and
//! whether it has promoted ([`Piece`]). Each kind has three abbreviations:
//! the Tenjiku Shogi Association's (TSA, written by default), the Wikipedia
//! article's and the PBeM server's, as the table of C. Adams' tenjiku notes
//! ("luckydog" pages) lists them ([`KINDS`]).

pub mod hooks;
pub mod notation;
pub mod rules;
pub mod svg;

use std::fmt;

use serde::{Deserialize, Serialize};

/// A square of the 16x16 board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square {
    /// 1 to 16, from Black's right.
    file: u8,
    /// 1 (`a`) to 16 (`p`), from Black's far side.
    rank: u8,
}

/// The kanji numerals of ranks 1 to 10; 11 to 16 are 十 and a unit.
pub const KANJI: [char; 10] = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

impl Square {
    /// 1a, the top right corner seen from Black.
    pub const ONE_A: Square = Square { file: 1, rank: 1 };

    /// The square of a file and a rank, both 1 to 16.
    pub fn new(file: u32, rank: u32) -> Option<Square> {
        ((1..=16).contains(&file) && (1..=16).contains(&rank)).then_some(Square {
            file: file as u8,
            rank: rank as u8,
        })
    }

    /// The file, 1 to 16.
    pub fn file(self) -> u8 {
        self.file
    }

    /// The rank, 1 (`a`) to 16 (`p`).
    pub fn rank(self) -> u8 {
        self.rank
    }

    /// The index of the square on a board array, 0 to 255.
    pub fn index(self) -> usize {
        usize::from(self.rank - 1) * 16 + usize::from(self.file - 1)
    }

    /// The square of a board index.
    pub fn from_index(i: usize) -> Square {
        Square {
            file: (i % 16) as u8 + 1,
            rank: (i / 16) as u8 + 1,
        }
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = i32::from(self.file) + df;
        let r = i32::from(self.rank) + dr;
        Square::new(u32::try_from(f).ok()?, u32::try_from(r).ok()?)
    }

    /// Reads a square as written: a file `1`..`16` and a rank, a letter
    /// `a`..`p` or a kanji numeral `一`..`十六`. The error says which part is
    /// wrong.
    pub fn parse(text: &str) -> Result<Square, String> {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(format!(
                "{text} is not a square (a file 1 to 16 and a rank a to p, `7d`)",
                text = crate::error::quote(text)
            ));
        }
        let file: u32 = text[..digits].parse().unwrap_or(u32::MAX);
        if !(1..=16).contains(&file) {
            return Err(format!(
                "file {} is not on the board (files are 1 to 16)",
                &text[..digits]
            ));
        }
        let rank_text = &text[digits..];
        let rank = rank_number(rank_text).ok_or_else(|| {
            format!(
                "rank {rank_text} is not on the board (ranks are a to p, or 一 to 十六)",
                rank_text = crate::error::quote(rank_text)
            )
        })?;
        Square::new(file, rank)
            .ok_or_else(|| format!("{text} is not a square", text = crate::error::quote(text)))
    }

    /// Appends the square as written: `7d`, or `7四` in Japanese
    /// coordinates.
    pub fn write(self, japanese: bool, out: &mut String) {
        crate::ir::side::push_number(out, u32::from(self.file));
        if japanese {
            if self.rank > 10 {
                out.push('十');
                out.push(KANJI[usize::from(self.rank) - 11]);
            } else {
                out.push(KANJI[usize::from(self.rank) - 1]);
            }
        } else {
            out.push(char::from(b'a' + self.rank - 1));
        }
    }
}

/// The number of a rank written as a letter `a`..`p` or as a kanji numeral
/// `一`..`十六`.
fn rank_number(text: &str) -> Option<u32> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let rest: Vec<char> = chars.collect();
    if first.is_ascii_lowercase() && rest.is_empty() {
        let r = u32::from(first) - u32::from('a') + 1;
        return (r <= 16).then_some(r);
    }
    let kanji = |c: char| KANJI.iter().position(|&k| k == c).map(|p| p as u32 + 1);
    match (kanji(first)?, rest.as_slice()) {
        (n, []) => Some(n),
        (10, [u]) => kanji(*u).filter(|&u| u <= 6).map(|u| 10 + u),
        _ => None,
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

/// A kind of piece: the 36 of the start position, then the 8 that only
/// appear by promotion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Kind {
    King,
    GreatGeneral,
    ViceGeneral,
    RookGeneral,
    BishopGeneral,
    FreeEagle,
    FreeKing,
    SoaringEagle,
    HornedFalcon,
    WaterBuffalo,
    ChariotSoldier,
    FireDemon,
    LionHawk,
    Lion,
    DragonKing,
    DragonHorse,
    Rook,
    Bishop,
    Kirin,
    Phoenix,
    DrunkElephant,
    BlindTiger,
    FerociousLeopard,
    Gold,
    Silver,
    Copper,
    VerticalMover,
    SideMover,
    ReverseChariot,
    VerticalSoldier,
    SideSoldier,
    Lance,
    Knight,
    Iron,
    Dog,
    Pawn,
    // Only by promotion.
    CrownPrince,
    HeavenlyTetrarch,
    MultiGeneral,
    FlyingStag,
    FreeBoar,
    FlyingOx,
    Whale,
    WhiteHorse,
}

/// One row of the piece table.
#[derive(Debug, Clone, Copy)]
pub struct KindInfo {
    /// The kind.
    pub kind: Kind,
    /// Its English name.
    pub name: &'static str,
    /// The TSA abbreviation.
    pub tsa: &'static str,
    /// The Wikipedia abbreviation.
    pub wikipedia: &'static str,
    /// The PBeM abbreviation.
    pub pbem: &'static str,
    /// What it promotes to, if it promotes.
    pub promotes: Option<Kind>,
}

const fn row(
    kind: Kind,
    name: &'static str,
    tsa: &'static str,
    wikipedia: &'static str,
    pbem: &'static str,
    promotes: Option<Kind>,
) -> KindInfo {
    KindInfo {
        kind,
        name,
        tsa,
        wikipedia,
        pbem,
        promotes,
    }
}

use crate::family::dialect::{Dialect, Layout, Numbering};
use crate::ir::result::PGN_RESULTS;
use Kind::*;

/// The piece table, in the order of [`Kind`]. Abbreviations of the 36
/// kinds of the start position: the table "Piece Name / TSA / Wiki / PBeM"
/// of C. Adams' tenjiku notes (luckydog.pwp.blueyonder.co.uk, tennotes.htm).
/// The 8 kinds that only appear by promotion have legends of their own in
/// the TSA set (the notes: "TSA uses new piece legends for pieces
/// introduced for the first time after promotion, eg. a promoted Chariot
/// Soldier (+Ch) becomes HT"); HT is the notes' example, the others are
/// kifu's choice after the English names. The Wikipedia and PBeM sets write
/// them as the promoted piece (`+CS`, `+Ch`), so their columns here repeat
/// the TSA legend, which is read with any set.
pub const KINDS: [KindInfo; 44] = [
    row(King, "king", "K", "K", "K", None),
    row(GreatGeneral, "great general", "GGn", "GG", "GG", None),
    row(ViceGeneral, "vice general", "VGn", "VG", "VG", None),
    row(
        RookGeneral,
        "rook general",
        "RGn",
        "RG",
        "RG",
        Some(GreatGeneral),
    ),
    row(
        BishopGeneral,
        "bishop general",
        "BGn",
        "BG",
        "BG",
        Some(ViceGeneral),
    ),
    row(FreeEagle, "free eagle", "FEg", "FE", "FE", None),
    row(FreeKing, "free king", "FK", "FK", "FK", Some(FreeEagle)),
    row(
        SoaringEagle,
        "soaring eagle",
        "SE",
        "SE",
        "SE",
        Some(RookGeneral),
    ),
    row(
        HornedFalcon,
        "horned falcon",
        "HF",
        "HF",
        "HF",
        Some(BishopGeneral),
    ),
    row(
        WaterBuffalo,
        "water buffalo",
        "WBf",
        "WB",
        "WB",
        Some(FireDemon),
    ),
    row(
        ChariotSoldier,
        "chariot soldier",
        "ChS",
        "CS",
        "Ch",
        Some(HeavenlyTetrarch),
    ),
    row(FireDemon, "fire demon", "FiD", "FD", "Fi", None),
    row(LionHawk, "lion hawk", "LHk", "LH", "LH", None),
    row(Lion, "lion", "Ln", "LN", "Ln", Some(LionHawk)),
    row(
        DragonKing,
        "dragon king",
        "DK",
        "DK",
        "DK",
        Some(SoaringEagle),
    ),
    row(
        DragonHorse,
        "dragon horse",
        "DH",
        "DH",
        "DH",
        Some(HornedFalcon),
    ),
    row(Rook, "rook", "R", "R", "R", Some(DragonKing)),
    row(Bishop, "bishop", "B", "B", "B", Some(DragonHorse)),
    row(Kirin, "kirin", "Ky", "KR", "Ky", Some(Lion)),
    row(Phoenix, "phoenix", "Ph", "PH", "Ph", Some(FreeKing)),
    row(
        DrunkElephant,
        "drunk elephant",
        "DE",
        "DE",
        "DE",
        Some(CrownPrince),
    ),
    row(
        BlindTiger,
        "blind tiger",
        "BT",
        "BT",
        "BT",
        Some(FlyingStag),
    ),
    row(
        FerociousLeopard,
        "ferocious leopard",
        "FL",
        "FL",
        "FL",
        Some(Bishop),
    ),
    row(Gold, "gold general", "G", "G", "G", Some(Rook)),
    row(Silver, "silver general", "S", "S", "S", Some(VerticalMover)),
    row(Copper, "copper general", "C", "C", "C", Some(SideMover)),
    row(
        VerticalMover,
        "vertical mover",
        "VM",
        "VM",
        "VM",
        Some(FlyingOx),
    ),
    row(SideMover, "side mover", "SM", "SM", "SM", Some(FreeBoar)),
    row(
        ReverseChariot,
        "reverse chariot",
        "RC",
        "RC",
        "RC",
        Some(Whale),
    ),
    row(
        VerticalSoldier,
        "vertical soldier",
        "VSo",
        "VS",
        "VS",
        Some(ChariotSoldier),
    ),
    row(
        SideSoldier,
        "side soldier",
        "SSo",
        "SS",
        "SS",
        Some(WaterBuffalo),
    ),
    row(Lance, "lance", "L", "L", "L", Some(WhiteHorse)),
    row(Knight, "knight", "N", "N", "N", Some(SideSoldier)),
    row(Iron, "iron general", "I", "I", "I", Some(VerticalSoldier)),
    row(Dog, "dog", "Dg", "D", "Dg", Some(MultiGeneral)),
    row(Pawn, "pawn", "P", "P", "P", Some(Gold)),
    row(CrownPrince, "crown prince", "CP", "CP", "CP", None),
    row(
        HeavenlyTetrarch,
        "heavenly tetrarchs",
        "HT",
        "HT",
        "HT",
        None,
    ),
    row(MultiGeneral, "multi general", "MGn", "MGn", "MGn", None),
    row(FlyingStag, "flying stag", "FSt", "FSt", "FSt", None),
    row(FreeBoar, "free boar", "FBo", "FBo", "FBo", None),
    row(FlyingOx, "flying ox", "FO", "FO", "FO", None),
    row(Whale, "whale", "W", "W", "W", None),
    row(WhiteHorse, "white horse", "WH", "WH", "WH", None),
];

/// Other spellings read (never written): the firedemon engine's `SEg`
/// (its `WB` is the Wikipedia and PBeM water buffalo; upper-case forms
/// such as `LHK` are read by case folding).
const ALIASES: [(&str, Kind); 1] = [("SEg", SoaringEagle)];

impl Kind {
    /// The kind's row of [`KINDS`].
    pub fn info(self) -> &'static KindInfo {
        &KINDS[self as usize]
    }

    /// What the kind promotes to, if it promotes.
    pub fn promotes(self) -> Option<Kind> {
        self.info().promotes
    }

    /// True for the kinds that only appear by promotion.
    pub fn promoted_only(self) -> bool {
        self as usize >= CrownPrince as usize
    }

    /// The kind a promoted-only kind comes from (a heavenly tetrarch from a
    /// chariot soldier).
    pub fn promoted_from(self) -> Option<Kind> {
        KINDS
            .iter()
            .find(|k| !k.kind.promoted_only() && k.promotes == Some(self))
            .map(|k| k.kind)
    }
}

/// A set of piece abbreviations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Abbreviations {
    /// The Tenjiku Shogi Association's (`FiD`, `SE`, `GGn`), the default.
    #[default]
    Tsa,
    /// The Wikipedia article's (`FD`, `SE`, `GG`).
    Wikipedia,
    /// The PBeM server's (`Fi`, `SE`, `GG`).
    Pbem,
}

impl Abbreviations {
    /// The sets by option value.
    pub const NAMES: [&'static str; 3] = ["tsa", "wikipedia", "pbem"];

    /// The set of an option value.
    pub fn named(name: &str) -> Option<Abbreviations> {
        match name {
            "tsa" => Some(Abbreviations::Tsa),
            "wikipedia" => Some(Abbreviations::Wikipedia),
            "pbem" => Some(Abbreviations::Pbem),
            _ => None,
        }
    }

    /// A kind's abbreviation in this set.
    pub fn of(self, kind: Kind) -> &'static str {
        let info = kind.info();
        match self {
            Abbreviations::Tsa => info.tsa,
            Abbreviations::Wikipedia => info.wikipedia,
            Abbreviations::Pbem => info.pbem,
        }
    }
}

/// A piece as a move names it: its kind as it started the game and whether
/// it has promoted. A promoted piece moves as the kind it promoted to.
/// Written `P`, `+P` (a promoted pawn), `HT` (a promoted chariot soldier,
/// the TSA legend of a kind that only appears by promotion); in JSON as
/// its TSA spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Piece {
    /// The kind the piece had before promoting (never a promoted-only kind).
    pub kind: Kind,
    /// Whether it has promoted.
    pub promoted: bool,
}

impl Piece {
    /// An unpromoted piece.
    pub const fn plain(kind: Kind) -> Piece {
        Piece {
            kind,
            promoted: false,
        }
    }

    /// The kind the piece moves as.
    pub fn moves_as(self) -> Kind {
        if self.promoted {
            self.kind.promotes().unwrap_or(self.kind)
        } else {
            self.kind
        }
    }

    /// Whether the piece can still promote.
    pub fn can_promote(self) -> bool {
        !self.promoted && self.kind.promotes().is_some()
    }

    /// The piece after promoting.
    pub fn promote(self) -> Piece {
        Piece {
            kind: self.kind,
            promoted: true,
        }
    }

    /// Reads an abbreviation of any set, case-insensitively where that is
    /// unambiguous (exact case first): `FiD`, `FD`, `Fi`, `fid`, `+P`, `HT`.
    pub fn parse(text: &str) -> Option<Piece> {
        let (plus, name) = match text.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let kind = lookup(name)?;
        match (plus, kind.promoted_only()) {
            (false, true) => kind.promoted_from().map(|from| Piece {
                kind: from,
                promoted: true,
            }),
            (true, true) => None,
            (true, false) => kind.promotes().map(|_| Piece {
                kind,
                promoted: true,
            }),
            (false, false) => Some(Piece::plain(kind)),
        }
    }

    /// The piece as a set writes it: `+P`, `HT` (TSA) or `+Ch` (PBeM).
    pub fn write(self, set: Abbreviations, out: &mut String) {
        if self.promoted {
            let to = self.moves_as();
            if to.promoted_only() && set == Abbreviations::Tsa {
                out.push_str(set.of(to));
                return;
            }
            out.push('+');
        }
        out.push_str(set.of(self.kind));
    }
}

/// The kind an abbreviation names: exactly as one of the sets spells it,
/// else the one kind it names ignoring case.
fn lookup(name: &str) -> Option<Kind> {
    let sets = |k: &KindInfo| [k.tsa, k.wikipedia, k.pbem];
    if let Some(k) = KINDS.iter().find(|k| sets(k).contains(&name)) {
        return Some(k.kind);
    }
    if let Some((_, k)) = ALIASES.iter().find(|(a, _)| *a == name) {
        return Some(*k);
    }
    let mut found = KINDS
        .iter()
        .filter(|k| sets(k).iter().any(|s| s.eq_ignore_ascii_case(name)))
        .map(|k| k.kind)
        .chain(
            ALIASES
                .iter()
                .filter(|(a, _)| a.eq_ignore_ascii_case(name))
                .map(|(_, k)| *k),
        );
    let first = found.next()?;
    found.all(|k| k == first).then_some(first)
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write(Abbreviations::Tsa, &mut s);
        f.write_str(&s)
    }
}

impl From<Piece> for String {
    fn from(p: Piece) -> String {
        p.to_string()
    }
}

impl TryFrom<String> for Piece {
    type Error = String;
    fn try_from(s: String) -> Result<Piece, String> {
        Piece::parse(&s).ok_or_else(|| unknown_piece(&s))
    }
}

/// The message for an abbreviation no set has.
pub fn unknown_piece(text: &str) -> String {
    format!(
        "{text} is not a tenjiku piece (TSA, Wikipedia or PBeM abbreviations)",
        text = crate::error::quote(text)
    )
}

/// One tenjiku move, as its meaning: the piece, where it was, where it
/// went, the square a lion-like piece stopped on first (a double move
/// `Ln 9nx10n-11m`, or igui `Ln x!7d`, where `to` is `from`), and whether it
/// promoted. What it captured, burned or lost to a fire demon follows from
/// the board ([`rules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The piece moved, as it was before the move.
    pub piece: Piece,
    /// Where it was.
    pub from: Square,
    /// The first square of a double move or igui.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Square>,
    /// Where it ended.
    pub to: Square,
    /// Whether it promoted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub promote: bool,
}

/// How a tenjiku game was read: its moves replayed on the board, or not
/// (`--no-validate`), when they are [`Claim`]s. In JSON and XML the
/// variant's `validated` member, written only when false.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Variant {
    /// False when the moves were not replayed (`--no-validate`): they are
    /// [`Claim`]s, as their text wrote them.
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub validated: bool,
}

fn yes() -> bool {
    true
}

impl Variant {
    /// A game whose moves are replayed on the board.
    pub const REPLAYED: Variant = Variant { validated: true };
}

/// A move of a game that was not replayed (`--no-validate`), as its text
/// claims it: the piece as written, the origin where the text gives one
/// (`FiD 6h-7e`), the first square of a double move or igui, where it
/// ends, the capture marks, promotion and burns as written. Nothing is
/// derived from a board or checked against one; the writer spells it as
/// written. The reader decodes every move into one, which the board then
/// resolves into a [`Move`] ([`rules::resolve`]) unless the game is read
/// with `--no-validate`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Claim {
    /// The piece named; none in a coordinate move (`7l-7k`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    /// The origin, where written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Square>,
    /// The first square of a double move (`Ln 9nx10n-11m`: 10n), or the
    /// square captured by igui (`Ln x!7d`: 7d, where `to` is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Square>,
    /// `x` (not `-`) written before the first square of a double move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub via_capture: bool,
    /// Where the move ends; none for igui (the piece stays where it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Square>,
    /// `x` (not `-`) written before where it ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capture: bool,
    /// `+` (true) or `=` (false), where written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promote: Option<bool>,
    /// The squares named as burned by a fire demon (`x!3f`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub burned_at: Vec<Square>,
    /// A burn count written (`x!5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burned: Option<u32>,
    /// `x!` without a count: the fire demon burns some.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub burns: bool,
    /// `*` written: the piece burns beside an enemy fire demon.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suicide: bool,
}

impl Claim {
    /// The squares the move is written to stop on, each with whether `x`
    /// was written before it: the first square of a double move, then
    /// where it ends (none for igui).
    pub fn marks(&self) -> impl Iterator<Item = (bool, Square)> + '_ {
        let via = self.via.filter(|_| self.to.is_some());
        via.map(|v| (self.via_capture, v))
            .into_iter()
            .chain(self.to.map(|t| (self.capture, t)))
    }

    /// Whether the claim is one the notation writes and reads back as
    /// itself: a piece or an origin, a square to go to (or igui), the
    /// marks in the order the notation has them; the error says what is
    /// missing or cannot be written (a claim read from JSON).
    pub fn check(&self) -> Result<(), String> {
        if self.piece.is_none() && self.from.is_none() {
            return Err("a move names a piece or its square".to_string());
        }
        match (self.via, self.to) {
            (None, None) => return Err("a move names the square it goes to".to_string()),
            (Some(_), None) if self.via_capture => {
                return Err("igui (`x!`) has no `x` of its own before the square".to_string())
            }
            (Some(_), None) if !self.burned_at.is_empty() => {
                return Err("igui (`x!`) is the only part of its move".to_string())
            }
            _ => {}
        }
        if self.burned.is_some() && self.burns {
            return Err("a move writes its burns once: a count (`x!5`) or `x!`".to_string());
        }
        Ok(())
    }

    /// What two transcriptions of the move must share to be the same move
    /// by their text alone (`kifu diff`, [`Ply::key`]): the kind the piece
    /// moves as, the first square of a double move or igui, where it ends,
    /// and whether it promotes.
    fn loose_key(
        piece: Option<Piece>,
        via: Option<Square>,
        to: Option<Square>,
        promote: bool,
    ) -> String {
        let mut key = String::new();
        match piece {
            Some(p) => key.push_str(Abbreviations::Tsa.of(p.moves_as())),
            None => key.push('?'),
        }
        if let Some(v) = via {
            key.push_str(&format!("/{v}"));
        }
        key.push('-');
        if let Some(t) = to {
            key.push_str(&t.to_string());
        }
        if promote {
            key.push('+');
        }
        key
    }
}

/// The move of a tenjiku ply: a move replayed on the board, or (in a game
/// not replayed, `--no-validate`) what its text claims. JSON holds a move
/// as it always has, `{"piece":"P","from":"8h","to":"8g"}`, and a claim
/// as `{"claimed":{"piece":"P","to":"8g"}}`; XML alike (`<claimed>` in the
/// ply's `<tenjiku>`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "StoredPly")]
pub enum Ply {
    /// A move resolved on the board.
    Move(Move),
    /// A move as its text claims it, in a game not replayed; never in a
    /// replayed game.
    Claimed(Claim),
}

impl Serialize for Ply {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// A claim, under its name.
        #[derive(Serialize)]
        struct Claimed<'c> {
            claimed: &'c Claim,
        }
        match self {
            Ply::Move(m) => m.serialize(s),
            Ply::Claimed(c) => Claimed { claimed: c }.serialize(s),
        }
    }
}

/// A ply as JSON and XML hold it: the members of a [`Move`], or a claim.
#[derive(Deserialize)]
struct StoredPly {
    #[serde(default)]
    piece: Option<Piece>,
    #[serde(default)]
    from: Option<Square>,
    #[serde(default)]
    via: Option<Square>,
    #[serde(default)]
    to: Option<Square>,
    #[serde(default)]
    promote: bool,
    #[serde(default)]
    claimed: Option<Claim>,
}

impl TryFrom<StoredPly> for Ply {
    type Error = String;

    fn try_from(p: StoredPly) -> Result<Ply, String> {
        if let Some(c) = p.claimed {
            if p.piece.is_some() || p.from.is_some() || p.via.is_some() || p.to.is_some() {
                return Err("a tenjiku move is a move or a claim, not both".to_string());
            }
            return Ok(Ply::Claimed(c));
        }
        let missing =
            |name: &str| format!("missing field {name}", name = crate::error::quote(name));
        Ok(Ply::Move(Move {
            piece: p.piece.ok_or_else(|| missing("piece"))?,
            from: p.from.ok_or_else(|| missing("from"))?,
            via: p.via,
            to: p.to.ok_or_else(|| missing("to"))?,
            promote: p.promote,
        }))
    }
}

impl Ply {
    /// The move replayed on the board, or the error for a claim met in a
    /// replayed game.
    pub fn replayed(&self) -> Result<&Move, String> {
        match self {
            Ply::Move(m) => Ok(m),
            Ply::Claimed(_) => {
                Err("a move as written (not replayed) in a replayed game".to_string())
            }
        }
    }

    /// The claim, or the error for a replayed move met in a game not
    /// replayed (its capture marks and burns are the board's, which that
    /// game has not).
    pub fn claimed(&self) -> Result<&Claim, String> {
        match self {
            Ply::Claimed(c) => Ok(c),
            Ply::Move(_) => Err(
                "a replayed move in a game not replayed (`validated` false): its marks need the board"
                    .to_string(),
            ),
        }
    }

    /// What two transcriptions of this ply must share to be the same move
    /// ([`crate::family::any::Move::key`]): with `loose`, what the text alone
    /// gives, the kind the piece moves as, the first square of a double
    /// move or igui, where it ends (not for igui, which stays on its
    /// origin), and promotion; a claim always so. Otherwise the replayed
    /// move whole.
    pub fn key(&self, loose: bool) -> String {
        match self {
            Ply::Move(m) if !loose => serde_json::to_string(m).unwrap_or_default(),
            Ply::Move(m) => {
                let stays = m.via.is_some() && m.to == m.from;
                Claim::loose_key(Some(m.piece), m.via, (!stays).then_some(m.to), m.promote)
            }
            Ply::Claimed(c) => {
                // A lion's pass written with its origin stays, as igui does.
                let stays = c.via.is_some() && c.to.is_some() && c.to == c.from;
                let to = c.to.filter(|_| !stays);
                Claim::loose_key(c.piece, c.via, to, c.promote == Some(true))
            }
        }
    }
}

/// The tenjiku dialect of the container: numbers by move pair (Black, who
/// moves first, has `12.`), PGN results, one paragraph wrapped at 80.
pub static DIALECT: Dialect = Dialect {
    name: "tenjiku",
    numbering: Numbering::Pair,
    results: &PGN_RESULTS,
    layouts: &[("text", Layout::Paragraph)],
    lifted: &["SetUp", "FEN"],
};

/// Tenjiku shogi as its room registers it ([`crate::family::hooks::GameFamily`]).
#[derive(Debug, Clone, Copy)]
pub struct Tenjiku;

impl crate::family::kind::Kind for Tenjiku {
    const NAME: &'static str = "tenjiku";
    const REPLAYS: bool = true;
    const DIALECT: &'static Dialect = &DIALECT;
    const CANONICAL: &'static str = "tenjiku";
    type Board = Variant;
    type Move = Ply;
    type Setup = String;
    fn first_mover(_: &Variant) -> crate::ir::side::Side {
        crate::ir::side::Side::Black
    }
}

/// The options of `tenjiku`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The abbreviations written.
    pub pieces: Abbreviations,
    /// Ranks written as kanji numerals.
    pub japanese: bool,
    /// Every move written with its origin.
    pub long: bool,
}

/// Spells a move of a game not replayed as its text claimed it, without a
/// board: the piece in the options' set, the origin where the text gives
/// one, each square with the mark written before it (`-`, `x`; igui
/// `x!7d`), `+` or `=` where written, the burns as written (named squares,
/// a count or `x!`) and `*`. The text's own spacing is not kept
/// (`FiD 6h-7e` is `FiD6h-7e`). Returns false where the `long` option asks
/// for an origin that the text does not give: the move is written without
/// it (no origin is invented).
pub fn spell_claim(c: &Claim, o: &Options, buf: &mut String) -> bool {
    if let Some(p) = c.piece {
        p.write(o.pieces, buf);
    }
    if let Some(f) = c.from {
        f.write(o.japanese, buf);
    }
    let mark = |x: bool| if x { 'x' } else { '-' };
    match (c.via, c.to) {
        (Some(v), None) => {
            buf.push_str("x!");
            v.write(o.japanese, buf);
        }
        (via, to) => {
            if let (Some(v), Some(_)) = (via, to) {
                buf.push(mark(c.via_capture));
                v.write(o.japanese, buf);
            }
            if let Some(t) = to {
                buf.push(mark(c.capture));
                t.write(o.japanese, buf);
            }
        }
    }
    match c.promote {
        Some(true) => buf.push('+'),
        Some(false) => buf.push('='),
        None => {}
    }
    for s in &c.burned_at {
        buf.push_str("x!");
        s.write(o.japanese, buf);
    }
    if let Some(n) = c.burned {
        buf.push_str("x!");
        crate::ir::side::push_number(buf, n);
    } else if c.burns {
        buf.push_str("x!");
    }
    if c.suicide {
        buf.push('*');
    }
    !(o.long && c.from.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_order_of_the_kinds() {
        for (i, k) in KINDS.iter().enumerate() {
            assert_eq!(k.kind as usize, i, "{}", k.name);
        }
        // Every promoted-only kind comes from exactly one kind.
        for k in KINDS.iter().filter(|k| k.kind.promoted_only()) {
            let from: Vec<_> = KINDS
                .iter()
                .filter(|f| f.promotes == Some(k.kind))
                .collect();
            assert_eq!(from.len(), 1, "{}", k.name);
            assert!(k.promotes.is_none());
        }
    }

    #[test]
    fn the_three_sets_are_those_published() {
        // The table of the tenjiku notes, row by row (TSA, Wiki, PBeM).
        let published = [
            ("bishop", "B", "B", "B"),
            ("bishop general", "BGn", "BG", "BG"),
            ("blind tiger", "BT", "BT", "BT"),
            ("copper general", "C", "C", "C"),
            ("chariot soldier", "ChS", "CS", "Ch"),
            ("dog", "Dg", "D", "Dg"),
            ("drunk elephant", "DE", "DE", "DE"),
            ("dragon horse", "DH", "DH", "DH"),
            ("dragon king", "DK", "DK", "DK"),
            ("fire demon", "FiD", "FD", "Fi"),
            ("free eagle", "FEg", "FE", "FE"),
            ("free king", "FK", "FK", "FK"),
            ("ferocious leopard", "FL", "FL", "FL"),
            ("gold general", "G", "G", "G"),
            ("great general", "GGn", "GG", "GG"),
            ("horned falcon", "HF", "HF", "HF"),
            ("iron general", "I", "I", "I"),
            ("king", "K", "K", "K"),
            ("kirin", "Ky", "KR", "Ky"),
            ("lance", "L", "L", "L"),
            ("lion hawk", "LHk", "LH", "LH"),
            ("lion", "Ln", "LN", "Ln"),
            ("knight", "N", "N", "N"),
            ("pawn", "P", "P", "P"),
            ("phoenix", "Ph", "PH", "Ph"),
            ("rook", "R", "R", "R"),
            ("reverse chariot", "RC", "RC", "RC"),
            ("rook general", "RGn", "RG", "RG"),
            ("silver general", "S", "S", "S"),
            ("soaring eagle", "SE", "SE", "SE"),
            ("side mover", "SM", "SM", "SM"),
            ("side soldier", "SSo", "SS", "SS"),
            ("vice general", "VGn", "VG", "VG"),
            ("vertical mover", "VM", "VM", "VM"),
            ("vertical soldier", "VSo", "VS", "VS"),
            ("water buffalo", "WBf", "WB", "WB"),
        ];
        assert_eq!(published.len(), 36);
        for (name, tsa, wiki, pbem) in published {
            let k = KINDS.iter().find(|k| k.name == name).expect(name);
            assert!(!k.kind.promoted_only());
            assert_eq!((k.tsa, k.wikipedia, k.pbem), (tsa, wiki, pbem), "{name}");
            for s in [tsa, wiki, pbem] {
                assert_eq!(Piece::parse(s), Some(Piece::plain(k.kind)), "{s}");
            }
        }
    }

    #[test]
    fn abbreviations_read_in_any_set_and_case() {
        let fid = Some(Piece::plain(FireDemon));
        for s in ["FiD", "FD", "Fi", "fid", "FID", "fi", "fd"] {
            assert_eq!(Piece::parse(s), fid, "{s}");
        }
        assert_eq!(Piece::parse("SEg"), Some(Piece::plain(SoaringEagle)));
        assert_eq!(Piece::parse("+P"), Some(Piece::plain(Pawn).promote()));
        let ht = Some(Piece::plain(ChariotSoldier).promote());
        assert_eq!(Piece::parse("HT"), ht);
        assert_eq!(Piece::parse("+Ch"), ht);
        assert_eq!(Piece::parse("+CS"), ht);
        assert_eq!(Piece::parse("+HT"), None);
        assert_eq!(Piece::parse("+K"), None);
        assert_eq!(Piece::parse("Zz"), None);
        // Written: TSA by default, the new legend for a promoted-only kind.
        let mut s = String::new();
        Piece::plain(ChariotSoldier)
            .promote()
            .write(Abbreviations::Tsa, &mut s);
        s.push(' ');
        Piece::plain(ChariotSoldier)
            .promote()
            .write(Abbreviations::Pbem, &mut s);
        s.push(' ');
        Piece::plain(FireDemon).write(Abbreviations::Wikipedia, &mut s);
        s.push(' ');
        Piece::plain(Pawn)
            .promote()
            .write(Abbreviations::Tsa, &mut s);
        assert_eq!(s, "HT +Ch FD +P");
    }

    #[test]
    fn every_abbreviation_names_one_kind_ignoring_case() {
        for k in &KINDS {
            for s in [k.tsa, k.wikipedia, k.pbem] {
                let p = Piece::parse(&s.to_ascii_lowercase()).expect(s);
                assert_eq!(p.moves_as(), k.kind, "{s}");
            }
        }
    }

    #[test]
    fn a_replayed_move_and_its_text_share_the_loose_key() {
        let sq = |s: &str| Square::parse(s).unwrap();
        let ln = Piece::plain(Lion);
        let mv = |from: &str, via: Option<&str>, to: &str, promote| Move {
            piece: ln,
            from: sq(from),
            via: via.map(sq),
            to: sq(to),
            promote,
        };
        let claim = |via: Option<&str>, to: Option<&str>, promote| Claim {
            piece: Some(ln),
            via: via.map(sq),
            to: to.map(sq),
            promote,
            ..Claim::default()
        };
        for (m, c) in [
            // Igui: the claim names no square it ends on.
            (
                mv("10e", Some("10d"), "10e", false),
                claim(Some("10d"), None, None),
            ),
            // A double move; `=` or nothing, promotion declined alike.
            (
                mv("10g", Some("9f"), "8e", false),
                claim(Some("9f"), Some("8e"), Some(false)),
            ),
            (
                mv("9f", None, "10e", true),
                claim(None, Some("10e"), Some(true)),
            ),
            (mv("9f", None, "10e", false), claim(None, Some("10e"), None)),
        ] {
            let (m, c) = (Ply::Move(m), Ply::Claimed(c));
            assert_eq!(m.key(true), c.key(true), "{m:?}");
            // A claim is compared by its text whatever is asked.
            assert_eq!(c.key(false), c.key(true));
        }
        let taken = Ply::Move(mv("9f", None, "10e", true));
        let declined = Ply::Claimed(claim(None, Some("10e"), Some(false)));
        assert_ne!(taken.key(true), declined.key(true));
        // A promoted rook general named by the kind it moves as (`GGn`).
        let rgn = Ply::Move(Move {
            piece: Piece::plain(RookGeneral).promote(),
            ..mv("7e", None, "8f", false)
        });
        let ggn = Ply::Claimed(Claim {
            piece: Some(Piece::plain(GreatGeneral)),
            from: Some(sq("7e")),
            to: Some(sq("8f")),
            ..Claim::default()
        });
        assert_eq!(rgn.key(true), ggn.key(true));
        // Replayed, the key and the JSON are the move's as before.
        let m = mv("10g", Some("9f"), "8e", false);
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(Ply::Move(m).key(false), json);
        assert_eq!(serde_json::to_string(&Ply::Move(m)).unwrap(), json);
        assert_eq!(serde_json::from_str::<Ply>(&json).unwrap(), Ply::Move(m));
        let c = Ply::Claimed(claim(Some("9f"), Some("8e"), Some(false)));
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"claimed":{"piece":"Ln","via":"9f","to":"8e","promote":false}}"#
        );
        assert_eq!(serde_json::from_str::<Ply>(&json).unwrap(), c);
    }

    #[test]
    fn squares_in_letters_and_kanji() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(sq("2c"), sq("2三"));
        assert_eq!(sq("16p"), sq("16十六"));
        assert_eq!(sq("1k"), sq("1十一"));
        assert_eq!(sq("10j"), sq("10十"));
        let mut s = String::new();
        sq("16p").write(true, &mut s);
        sq("7d").write(true, &mut s);
        sq("1j").write(true, &mut s);
        assert_eq!(s, "16十六7四1十");
        for bad in ["17a", "0a", "1q", "a", "1", "1十七", "1一一", "1A"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(sq("1a").index(), 0);
        assert_eq!(Square::from_index(255), sq("16p"));
    }
}
