//! Draughts board geometry: GameType boards, square numbering, alphanumeric
//! and diagonal coordinates, and PDN FEN positions.
//!
//! Coordinates are computed in "White's view": column `c` from 1 at the left,
//! row `r` from 1 at the bottom, as White sees the board.

use crate::error::{Kind, Problem};
use crate::family::any::Setup;
use crate::family::draughts::hooks::draughts_move;
use crate::family::draughts::{Board, Piece, Position, Square, SquareStyle};
use crate::ir::{Game, Line, Side};

/// A board from its GameType fields.
const fn board(
    game_type: u8,
    first: Side,
    size: (u8, u8),
    style: SquareStyle,
    corner: u8,
    invert: bool,
) -> Board {
    Board {
        game_type,
        first,
        width: size.0,
        height: size.1,
        style,
        corner,
        invert,
    }
}

/// The predefined PDN game types kifu plays on, with the names `--variant`
/// accepts (the first is the canonical one).
const PRESETS: &[(&[&str], Board)] = {
    use Side::{Black as B, White as W};
    use SquareStyle::{Alpha as A, Numeric as N};
    &[
        (&["international"], board(20, W, (10, 10), N, 2, false)),
        (&["english", "checkers"], board(21, B, (8, 8), N, 1, false)),
        (&["italian"], board(22, W, (8, 8), N, 2, true)),
        (&["american", "pool"], board(23, B, (8, 8), N, 1, false)),
        (&["spanish"], board(24, W, (8, 8), N, 1, true)),
        (&["russian"], board(25, W, (8, 8), A, 0, false)),
        (&["brazilian"], board(26, W, (8, 8), A, 0, false)),
        (&["canadian"], board(27, W, (12, 12), N, 2, false)),
        (&["portuguese"], board(28, W, (8, 8), N, 1, true)),
        (&["czech"], board(29, W, (8, 8), A, 0, false)),
        (&["thai"], board(31, B, (8, 8), N, 2, false)),
        (&["frisian"], board(40, W, (10, 10), N, 2, false)),
        (&["spantsiretti"], board(41, W, (10, 8), A, 0, false)),
        // lidraughts' own numbers for its 10x10 variants (its `Variant`
        // table): not PDN's, but what its exports write.
        (&["breakthrough"], board(96, W, (10, 10), N, 2, false)),
        (&["frysk", "frysk!"], board(97, W, (10, 10), N, 2, false)),
        (&["antidraughts"], board(98, W, (10, 10), N, 2, false)),
        (
            &["from-position", "fromposition"],
            board(99, W, (10, 10), N, 2, false),
        ),
    ]
};

/// The names the draughts servers write in a `Variant` tag, with the
/// GameType each names, compared as [`Board::by_variant`] says (lower case,
/// letters and digits only: `Frysk!` is `frysk`, `From Position` `fromposition`,
/// `American/English` `americanenglish`). lidraughts' names (its `Variant`
/// table: Standard, Frisian, Frysk!, Antidraughts, Breakthrough, Russian,
/// Brazilian, From Position) and PlayStrategy's (its `variantName`
/// translations: International, Frisian, Frysk!, Antidraughts, BRKTHRU,
/// Russian, Brazilian, Pool, Spanish (its Portuguese rules), American/English,
/// From Position), then the names of draughts games PDN numbers. PlayStrategy's
/// own GameType numbers differ from PDN's (27 for pool, 31 for its
/// Spanish, 32 for English): it writes none, and its names are read as
/// PDN's games.
const VARIANT_NAMES: &[(&str, u8)] = &[
    ("standard", 20),
    ("international", 20),
    ("frisian", 40),
    ("frysk", 97),
    ("antidraughts", 98),
    ("breakthrough", 96),
    ("brkthru", 96),
    ("russian", 25),
    ("brazilian", 26),
    ("fromposition", 99),
    ("americanenglish", 21),
    ("englishamerican", 21),
    ("english", 21),
    ("american", 21),
    ("checkers", 21),
    ("pool", 23),
    ("americanpool", 23),
    ("spanish", 24),
    ("portuguese", 28),
    ("italian", 22),
    ("canadian", 27),
    ("czech", 29),
    ("thai", 31),
];

impl Board {
    /// The board a `Variant` tag names (`VARIANT_NAMES`: the names
    /// lidraughts and PlayStrategy write), `None` for a name kifu does not
    /// know. Compared in lower case, letters and digits only, and also
    /// without a last word `draughts`, `checkers` or `dama` after a name
    /// (`Russian draughts` is `russian`, `Antidraughts` itself).
    pub fn by_variant(value: &str) -> Option<Board> {
        let key: String = value
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let bare = ["draughts", "checkers", "dama"]
            .iter()
            .find_map(|word| key.strip_suffix(word).filter(|n| !n.is_empty()));
        let named = [Some(key.as_str()), bare]
            .into_iter()
            .flatten()
            .find_map(|k| VARIANT_NAMES.iter().find(|(name, _)| *name == k));
        named.and_then(|&(_, n)| Board::preset(n))
    }

    /// The frame alphanumeric squares are read in on a numbered board
    /// (English, international, Italian, ...): `a1` is the bottom left
    /// corner seen by the side that moves first when that corner is a
    /// playing square, else its bottom right one (files run right to
    /// left: the board mirrored), so that `a1` is always a playing square,
    /// as the servers write every 8x8 game (PlayStrategy: American/English
    /// `c3-d4` for `11-15`, its Spanish mirrored). A board whose squares
    /// are alphanumeric is its own frame.
    pub fn alpha_frame(&self) -> Board {
        if self.style == SquareStyle::Alpha {
            return *self;
        }
        let frame = Board {
            style: SquareStyle::Alpha,
            corner: 0,
            ..*self
        };
        if frame.from_alpha(1, 1).is_some() {
            frame
        } else {
            Board { corner: 1, ..frame }
        }
    }

    /// International draughts, 10x10 (GameType 20): the board when a record
    /// names none.
    pub const INTERNATIONAL: Board = PRESETS[0].1;
    /// English draughts (checkers), 8x8 (GameType 21).
    pub const ENGLISH: Board = PRESETS[1].1;
    /// Italian draughts, 8x8 with mirrored numbering (GameType 22).
    pub const ITALIAN: Board = PRESETS[2].1;
    /// Spanish draughts, 8x8 with square 1 in White's right corner
    /// (GameType 24; Portuguese draughts, 28, share its board).
    pub const SPANISH: Board = PRESETS[4].1;
    /// Canadian draughts, 12x12 (GameType 27).
    pub const CANADIAN: Board = PRESETS[7].1;

    /// The board of a predefined GameType number.
    pub fn preset(game_type: u8) -> Option<Board> {
        PRESETS
            .iter()
            .find(|p| p.1.game_type == game_type)
            .map(|p| p.1)
    }

    /// The board `--variant` names: a name (`international`, `english`,
    /// `canadian`, `frisian`, ...), a name a `Variant` tag gives
    /// ([`Board::by_variant`]: `American/English`, `Standard`, `Russian
    /// draughts`, ...), a GameType number, or a full GameType.
    pub fn by_name(name: &str) -> Result<Board, String> {
        let lower = name.trim().to_ascii_lowercase();
        if let Some(p) = PRESETS.iter().find(|p| p.0.contains(&lower.as_str())) {
            return Ok(p.1);
        }
        if let Some(b) = Board::by_variant(name) {
            return Ok(b);
        }
        Board::from_game_type(name).map_err(|e| {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.0[0]).collect();
            format!("{e}; known variants: {}", names.join(", "))
        })
    }

    /// Reads a GameType tag value: `"20"` or the full `"20,W,10,10,N2,0"`.
    pub fn from_game_type(value: &str) -> Result<Board, String> {
        let fields: Vec<&str> = value.split(',').map(str::trim).collect();
        let number: u8 = fields[0].parse().map_err(|_| {
            format!(
                "GameType {value} does not start with a game number",
                value = crate::error::quote(value)
            )
        })?;
        if fields.len() == 1 {
            return Board::preset(number).ok_or_else(|| match number {
                0..=19 => format!("GameType {number} is not a draughts game"),
                30 => "GameType 30 (Turkish draughts) is played on every square: not supported"
                    .to_string(),
                _ => format!("GameType {number} is not a draughts game kifu knows"),
            });
        }
        if !(5..=6).contains(&fields.len()) {
            return Err(format!("GameType {value} should be `number` or `number,colour,width,height,notation[,invert]`", value = crate::error::quote(value)));
        }
        let first = match fields[1] {
            "W" | "w" => Side::White,
            "B" | "b" => Side::Black,
            other => {
                return Err(format!(
                    "GameType start colour {other} is not W or B",
                    other = crate::error::quote(other)
                ))
            }
        };
        let size = |s: &str| -> Result<u8, String> {
            match s.parse::<u8>() {
                Ok(n) if (4..=26).contains(&n) => Ok(n),
                _ => Err(format!(
                    "GameType board size {s} is not a number from 4 to 26",
                    s = crate::error::quote(s)
                )),
            }
        };
        let (width, height) = (size(fields[2])?, size(fields[3])?);
        if width % 2 != 0 {
            return Err(format!(
                "GameType board width {width} is odd: not supported"
            ));
        }
        let mut nota = fields[4].chars();
        let style = match nota.next() {
            Some('N') => SquareStyle::Numeric,
            Some('A') => SquareStyle::Alpha,
            Some('S') => return Err("GameType notation S (SAN) is not supported".to_string()),
            _ => {
                return Err(format!(
                    "GameType notation {} is not N, A or S",
                    crate::error::quote(fields[4])
                ))
            }
        };
        let corner = match (nota.next(), nota.next()) {
            (Some(d @ '0'..='3'), None) => d as u8 - b'0',
            _ => {
                return Err(format!(
                    "GameType notation `{}` needs a corner 0-3",
                    fields[4]
                ))
            }
        };
        let invert = match fields.get(5).copied() {
            None | Some("0") => false,
            Some("1") => true,
            Some(other) => {
                return Err(format!(
                    "GameType invert flag {other} is not 0 or 1",
                    other = crate::error::quote(other)
                ))
            }
        };
        Ok(Board {
            game_type: number,
            first,
            width,
            height,
            style,
            corner,
            invert,
        })
    }

    /// The full GameType spelling of this board (`20,W,10,10,N2,0`).
    pub fn game_type_string(&self) -> String {
        format!(
            "{},{},{},{},{}{},{}",
            self.game_type,
            if self.first == Side::White { 'W' } else { 'B' },
            self.width,
            self.height,
            if self.style == SquareStyle::Numeric {
                'N'
            } else {
                'A'
            },
            self.corner,
            u8::from(self.invert)
        )
    }

    /// The number of playing squares.
    pub fn square_count(&self) -> u16 {
        u16::from(self.width) * u16::from(self.height) / 2
    }

    /// True when the square exists on this board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.0 >= 1 && sq.0 <= self.square_count()
    }

    /// The corner square 1 (or a1) lies in, seen by White:
    /// (is it on the left, is it at the bottom).
    fn origin(&self) -> (bool, bool) {
        let c = if self.first == Side::Black {
            3 - (self.corner & 3)
        } else {
            self.corner & 3
        };
        (c % 2 == 0, c < 2)
    }

    fn playing(&self, c: i32, r: i32) -> bool {
        (c + r).rem_euclid(2) == i32::from(self.invert)
    }

    /// Column and row (White's view, 1-based) of a square.
    pub fn coords(&self, sq: Square) -> Option<(u8, u8)> {
        if !self.contains(sq) {
            return None;
        }
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        let per_row = w / 2;
        let idx = i32::from(sq.0) - 1;
        let (row_i, k) = (idx / per_row, idx % per_row);
        let (left, bottom) = self.origin();
        let r = if bottom { 1 + row_i } else { h - row_i };
        let c = if left {
            let c0 = if self.playing(1, r) { 1 } else { 2 };
            c0 + 2 * k
        } else {
            let c0 = if self.playing(w, r) { w } else { w - 1 };
            c0 - 2 * k
        };
        Some((c as u8, r as u8))
    }

    /// The square at a column and row (White's view), if it is a playing square.
    pub fn square_at(&self, c: i32, r: i32) -> Option<Square> {
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        if c < 1 || c > w || r < 1 || r > h || !self.playing(c, r) {
            return None;
        }
        let (left, bottom) = self.origin();
        let row_i = if bottom { r - 1 } else { h - r };
        let k = if left {
            let c0 = if self.playing(1, r) { 1 } else { 2 };
            (c - c0) / 2
        } else {
            let c0 = if self.playing(w, r) { w } else { w - 1 };
            (c0 - c) / 2
        };
        Some(Square((row_i * (w / 2) + k + 1) as u16))
    }

    /// Alphanumeric coordinates (file 1 = `a`, rank 1) of a square, in the
    /// frame the GameType's corner gives.
    pub fn alpha(&self, sq: Square) -> Option<(u8, u8)> {
        let (c, r) = self.coords(sq)?;
        let (left, bottom) = self.origin();
        let file = if left { c } else { self.width + 1 - c };
        let rank = if bottom { r } else { self.height + 1 - r };
        Some((file, rank))
    }

    /// The square at alphanumeric coordinates, if it is a playing square.
    pub fn from_alpha(&self, file: i32, rank: i32) -> Option<Square> {
        let (left, bottom) = self.origin();
        let c = if left {
            file
        } else {
            i32::from(self.width) + 1 - file
        };
        let r = if bottom {
            rank
        } else {
            i32::from(self.height) + 1 - rank
        };
        self.square_at(c, r)
    }

    /// True when diagonal coordinates are defined: the bottom left corner is
    /// a playing square, the height is even, and every letter line has a
    /// letter from `a` to `w` (`x` marks captures): width + height at most 48.
    pub fn has_diagonal(&self) -> bool {
        !self.invert && self.height.is_multiple_of(2) && self.diag_limits().0 <= 23
    }

    /// The largest letter and the largest digit of diagonal coordinates on
    /// this board (a non-inverted board of even width and height).
    pub fn diag_limits(&self) -> (u16, u16) {
        let (w, h) = (u16::from(self.width), u16::from(self.height));
        ((w + h - 2) / 2, (w + h) / 2)
    }

    /// True when a square's diagonal coordinates are one letter and one
    /// digit (digit 10 written `0`), so that moves are written compactly:
    /// up to 10 rows and no digit over 10. Other boards write every square
    /// in full (`f11-g11`).
    pub fn diag_compact(&self) -> bool {
        self.height <= 10 && self.diag_limits().1 <= 10
    }

    /// Diagonal coordinates (letter number, 1 = `a`; digit) of a square.
    pub fn diag(&self, sq: Square) -> Option<(u8, u8)> {
        if !self.has_diagonal() {
            return None;
        }
        let (c, r) = self.coords(sq)?;
        let (c, r) = (i32::from(c), i32::from(r));
        let digit = (c + r) / 2;
        let letter = (c - r + i32::from(self.height)) / 2;
        Some((letter as u8, digit as u8))
    }

    /// The square at diagonal coordinates, if there is one.
    pub fn from_diag(&self, letter: i32, digit: i32) -> Option<Square> {
        if !self.has_diagonal() {
            return None;
        }
        let half = i32::from(self.height) / 2;
        self.square_at(digit + letter - half, digit - letter + half)
    }

    /// Whether a move from `from` to `to` goes towards the far side for
    /// `side` (up for White, down for Black, seen by White), as a man moves.
    pub fn forward(&self, from: Square, to: Square, side: Side) -> Option<bool> {
        let (_, r1) = self.coords(from)?;
        let (_, r2) = self.coords(to)?;
        Some(match side {
            Side::White => r2 > r1,
            Side::Black => r2 < r1,
        })
    }

    /// How many rows of men each side starts with: the rows of each half
    /// but the middle two (4 on 10x10, 3 on 8x8, 5 on 12x12), 2 in Thai
    /// draughts (GameType 31, 8 men a side) and 1 in lidraughts' Frysk!
    /// (97, 5 men a side).
    pub fn start_rows(&self) -> u8 {
        match self.game_type {
            31 => 2,
            97 => 1,
            _ => (self.height / 2).saturating_sub(1),
        }
    }

    /// The side whose man stands on a square at the start of a game, if
    /// any: White's on the bottom rows, Black's on the top rows (seen by
    /// White), [`Board::start_rows`] each.
    pub fn starting_side(&self, sq: Square) -> Option<Side> {
        let (_, r) = self.coords(sq)?;
        let rows = self.start_rows();
        if r <= rows {
            Some(Side::White)
        } else if r > self.height - rows {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The capture separator PDN prescribes for this game type.
    pub fn capture_separator(&self) -> char {
        match self.game_type {
            25 | 41 => ':',
            _ => 'x',
        }
    }

    /// Reads one square as PDN writes it: a number, or alphanumeric
    /// coordinates (`c3`). Leading zeros are accepted.
    pub fn parse_square(&self, text: &str) -> Result<Square, String> {
        let bytes = text.as_bytes();
        let sq = match bytes.first() {
            Some(&b) if b.is_ascii_alphabetic() => {
                let rank: i32 = text[1..].parse().map_err(|_| {
                    format!("{text} is not a square", text = crate::error::quote(text))
                })?;
                let file = i32::from(b.to_ascii_lowercase() - b'a') + 1;
                let found = if self.style == SquareStyle::Alpha {
                    self.from_alpha(file, rank)
                } else {
                    // On a numbered board, in its alphanumeric frame.
                    let frame = self.alpha_frame();
                    frame.from_alpha(file, rank).and_then(|sq| {
                        let (c, r) = frame.coords(sq)?;
                        self.square_at(c.into(), r.into())
                    })
                };
                found.ok_or_else(|| {
                    format!(
                        "square {text} is not a playing square of the {}x{} board (GameType {})",
                        self.width, self.height, self.game_type
                    )
                })?
            }
            _ => {
                let n: u32 = text.parse().map_err(|_| {
                    format!("{text} is not a square", text = crate::error::quote(text))
                })?;
                let mut sq = Square(u16::try_from(n).unwrap_or(u16::MAX));
                if self.style == SquareStyle::Alpha && self.contains(sq) {
                    sq = self.numbered_square(sq);
                }
                if !self.contains(sq) {
                    return Err(format!(
                        "square {n} is not on the {}x{} board (squares 1-{}, GameType {})",
                        self.width,
                        self.height,
                        self.square_count(),
                        self.game_type
                    ));
                }
                sq
            }
        };
        Ok(sq)
    }

    /// The square a number names on a board whose squares are written
    /// alphanumerically (Russian, Brazilian, Czech): numbered as on the
    /// international board, from square 1 in the top left corner seen by
    /// White, row by row, as lidraughts writes its 8x8 games (`22-18`,
    /// FEN `W:W21-32:B1-12`) and the Russian files of the PDN test suite
    /// write their FEN tags. `sq` must be on the board.
    fn numbered_square(&self, sq: Square) -> Square {
        let numbered = Board {
            style: SquareStyle::Numeric,
            corner: if self.first == Side::White { 2 } else { 1 },
            ..*self
        };
        numbered
            .coords(sq)
            .and_then(|(c, r)| self.square_at(c.into(), r.into()))
            .unwrap_or(sq)
    }

    /// Writes one square in this board's PDN style.
    pub fn write_square(&self, sq: Square, out: &mut String) {
        use std::fmt::Write;
        match (self.style, self.alpha(sq)) {
            (SquareStyle::Alpha, Some((file, rank))) => {
                out.push((b'a' + file - 1) as char);
                let _ = write!(out, "{rank}");
            }
            _ => {
                let _ = write!(out, "{}", sq.0);
            }
        }
    }
}

/// Whether a move fits a board's geometry, as far as the squares alone
/// tell, given the column and row of each square (`None` off the board): a
/// plain move goes along a diagonal where kings fly, and is one diagonal step
/// or a capture written with `-` (as Nemesis writes them) where they do not;
/// each listed hop of a capture is a jump along a diagonal (two steps where
/// kings do not fly); a capture given by its ends alone moves an even number
/// of columns and rows where kings do not fly, or is a step written with
/// `x`. Used to tell boards apart when no GameType tag names one.
#[inline]
pub fn fits(
    path: &[Square],
    capture: bool,
    flying: bool,
    coords: impl Fn(Square) -> Option<(i32, i32)>,
) -> bool {
    let mut prev: Option<(i32, i32)> = None;
    for &sq in path {
        let Some((c, r)) = coords(sq) else {
            return false;
        };
        if let Some((pc, pr)) = prev {
            let (dc, dr) = ((c - pc).abs(), (r - pr).abs());
            let diagonal = dc == dr;
            let jumps = dc % 2 == 0 && dr % 2 == 0;
            let step = diagonal && dc == 1;
            let ok = match (capture, path.len() > 2, flying) {
                (false, _, true) => diagonal && dc > 0,
                (false, _, false) => step || (jumps && dc + dr > 0),
                (true, false, true) => true,
                (true, false, false) => jumps || step,
                (true, true, true) => diagonal && dc >= 2,
                (true, true, false) => diagonal && dc == 2,
            };
            if !ok {
                return false;
            }
        }
        prev = Some((c, r));
    }
    true
}

/// Whether a PDN FEN value names its squares alphanumerically
/// (`W:Wc3,Ke1:Bf6`): a square of its piece lists starts with a letter.
pub fn fen_is_alphanumeric(value: &str) -> bool {
    split_at(value, |b| b == b':').skip(1).any(|part| {
        let list = trimmed(part).get(1..).unwrap_or_default();
        split_at(list, |b| matches!(b, b',' | b'-')).any(|item| {
            let item = trimmed(item);
            let item = match item.strip_prefix(['K', 'k']) {
                Some(rest) => rest.trim_start(),
                None => item,
            };
            item.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        })
    })
}

/// The pieces of `text` between the ASCII bytes `sep` says, as
/// `str::split` gives them: a FEN's parts and items, cut without a string
/// search per piece (a FEN tag is read for every record that has one, by
/// its reader and again by its writer).
fn split_at(text: &str, sep: impl Fn(u8) -> bool) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(&sep) {
            // An ASCII byte: the text either side is text.
            Some(k) => {
                rest = Some(&r[k + 1..]);
                Some(&r[..k])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// `text` without the whitespace around it, as `str::trim` gives it; at once
/// where it starts and ends with a visible ASCII character.
fn trimmed(text: &str) -> &str {
    match (text.as_bytes().first(), text.as_bytes().last()) {
        (Some(a), Some(z)) if a.is_ascii_graphic() && z.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

/// Reads a PDN FEN value (`W:W31-50:B1-20`, `B:W13,12,K8:B6,3,K1.`,
/// `?:W...`) and checks every square against the board.
pub fn parse_fen(value: &str, board: &Board) -> Result<Position, String> {
    let text = value.trim();
    let text = text.strip_suffix('.').unwrap_or(text).trim_end();
    let mut parts = split_at(text, |b| b == b':');
    let to_move = match parts.next().map(trimmed) {
        Some("W" | "w") => Some(Side::White),
        Some("B" | "b") => Some(Side::Black),
        Some("?") => None,
        other => {
            return Err(format!(
                "FEN `{value}`: side to move `{}` is not W, B or ?",
                other.unwrap_or("")
            ))
        }
    };
    let mut pos = Position {
        to_move,
        white: Vec::new(),
        black: Vec::new(),
    };
    // The squares that hold a piece, a bit each (no allocation up to 255
    // squares).
    let mut seen: smallvec::SmallVec<[u64; 4]> =
        smallvec::smallvec![0; usize::from(board.square_count()) / 64 + 1];
    for part in parts {
        let part = trimmed(part);
        if part.is_empty() {
            continue;
        }
        // lidraughts' halfmove clock and move number (`:H0:F1`).
        if part.len() > 1
            && matches!(part.as_bytes()[0], b'H' | b'F')
            && part[1..].bytes().all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let (side, list) = match part.as_bytes()[0] {
            b'W' | b'w' => (Side::White, &part[1..]),
            b'B' | b'b' => (Side::Black, &part[1..]),
            _ => {
                return Err(format!(
                    "FEN {value}: {part} does not start with W or B",
                    value = crate::error::quote(value),
                    part = crate::error::quote(part)
                ))
            }
        };
        let pieces = match side {
            Side::White => &mut pos.white,
            Side::Black => &mut pos.black,
        };
        pieces.reserve(list.bytes().filter(|&b| b == b',').count() + 1);
        for item in split_at(list, |b| b == b',')
            .map(trimmed)
            .filter(|s| !s.is_empty())
        {
            let (king, item) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest.trim_start()),
                None => (false, item),
            };
            let (from, to) = match item.bytes().position(|b| b == b'-') {
                Some(k) => (trimmed(&item[..k]), Some(trimmed(&item[k + 1..]))),
                None => (item, None),
            };
            let a = board
                .parse_square(from)
                .map_err(|e| format!("FEN {value}: {e}", value = crate::error::quote(value)))?;
            let b = match to {
                Some(t) => board
                    .parse_square(t)
                    .map_err(|e| format!("FEN {value}: {e}", value = crate::error::quote(value)))?,
                None => a,
            };
            if b < a {
                return Err(format!(
                    "FEN {value}: range {item} runs backwards",
                    value = crate::error::quote(value),
                    item = crate::error::quote(item)
                ));
            }
            for n in a.0..=b.0 {
                let (word, bit) = (usize::from(n / 64), 1u64 << (n % 64));
                if seen[word] & bit != 0 {
                    return Err(format!(
                        "FEN {value}: square {n} holds two pieces",
                        value = crate::error::quote(value)
                    ));
                }
                seen[word] |= bit;
                pieces.push(Piece {
                    square: Square(n),
                    king,
                });
            }
        }
    }
    Ok(pos)
}

/// A position as a PDN FEN tag value (`W:W31,32,K40:B19,20`): pieces in
/// the position's order, kings with `K`, squares as the board writes them;
/// [`parse_fen`] reads it back as the same position.
pub fn write_fen(pos: &Position, board: &Board) -> String {
    let mut out = String::from(match pos.to_move {
        Some(Side::White) => "W",
        Some(Side::Black) => "B",
        None => "?",
    });
    for (letter, pieces) in [('W', &pos.white), ('B', &pos.black)] {
        out.push(':');
        out.push(letter);
        for (i, p) in pieces.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if p.king {
                out.push('K');
            }
            board.write_square(p.square, &mut out);
        }
    }
    out
}

/// Checks a game that did not come through a draughts grammar (JSON): that
/// its board is one kifu reads, and every square of its setup and moves is
/// on it.
pub fn check_game(game: &Game, board: &Board) -> Result<(), Problem> {
    let check = Board::from_game_type(&board.game_type_string());
    if check.as_ref().ok() != Some(board) {
        return Err(Problem::whole(format!(
            "board {} is not one kifu can read",
            board.game_type_string()
        ))
        .of_kind(Kind::TagValue));
    }
    let bad =
        |n: u16| Problem::whole(format!("square {n} is not on the board")).of_kind(Kind::OffBoard);
    if let Some(Setup::Draughts(p)) = &game.setup {
        for piece in p.white.iter().chain(&p.black) {
            if !board.contains(piece.square) {
                return Err(bad(piece.square.0));
            }
        }
    }
    fn line(l: &Line, board: &Board) -> Result<(), Problem> {
        for ply in &l.plies {
            let m = draughts_move(&ply.mv)?;
            m.check_shape().map_err(|e| {
                Problem::whole(format!("{}: {e}", crate::error::quote(&m.key())))
                    .of_kind(Kind::Syntax)
            })?;
            if let Some(sq) = m.path.iter().find(|s| !board.contains(**s)) {
                return Err(
                    Problem::whole(format!("square {} is not on the board", sq.0))
                        .of_kind(Kind::OffBoard),
                );
            }
            for v in &ply.variations {
                line(v, board)?;
            }
        }
        Ok(())
    }
    line(&game.moves, board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn international_numbering_matches_the_seed_corners() {
        let b = Board::INTERNATIONAL;
        assert_eq!(b.coords(Square(1)), Some((2, 10)));
        assert_eq!(b.coords(Square(5)), Some((10, 10)));
        assert_eq!(b.coords(Square(46)), Some((1, 1)));
        assert_eq!(b.coords(Square(50)), Some((9, 1)));
        for n in 1..=50 {
            let (c, r) = b.coords(Square(n)).unwrap();
            assert_eq!(b.square_at(c.into(), r.into()), Some(Square(n)));
        }
    }

    #[test]
    fn english_square_one_is_b8_and_29_is_a1() {
        let b = Board::preset(21).unwrap();
        assert_eq!(b.coords(Square(1)), Some((2, 8)));
        assert_eq!(b.coords(Square(4)), Some((8, 8)));
        assert_eq!(b.coords(Square(29)), Some((1, 1)));
        assert_eq!(b.coords(Square(32)), Some((7, 1)));
    }

    #[test]
    fn italian_square_one_is_the_top_left_corner() {
        let b = Board::preset(22).unwrap();
        assert_eq!(b.coords(Square(1)), Some((1, 8)));
        assert!(!b.has_diagonal());
        assert_eq!(b.diag(Square(1)), None);
    }

    #[test]
    fn diagonal_limits_are_those_of_the_squares() {
        for w in (4..=26).step_by(2) {
            for h in (4..=26).step_by(2) {
                let b = Board::from_game_type(&format!("20,W,{w},{h},N2,0")).unwrap();
                let (mut letter, mut digit) = (0, 0);
                for n in 1..=b.square_count() {
                    let (c, r) = b.coords(Square(n)).unwrap();
                    let (c, r) = (u16::from(c), u16::from(r));
                    letter = letter.max((c + h - r) / 2);
                    digit = digit.max((c + r) / 2);
                }
                assert_eq!(b.diag_limits(), (letter, digit), "{w}x{h}");
            }
        }
    }

    #[test]
    fn full_game_type_is_read_and_written_back() {
        let b = Board::from_game_type("27,W,12,12,N2,0").unwrap();
        assert_eq!(b, Board::preset(27).unwrap());
        assert_eq!(b.game_type_string(), "27,W,12,12,N2,0");
        assert!(Board::from_game_type("0").is_err());
        assert!(Board::from_game_type("20,X,10,10,N2,0").is_err());
    }

    #[test]
    fn a_numbered_board_reads_alphanumeric_squares_with_a1_playing() {
        // PlayStrategy's American/English: c3-d4 is 11-15, a1 square 4.
        let e = Board::ENGLISH;
        assert_eq!(e.parse_square("c3"), Ok(Square(11)));
        assert_eq!(e.parse_square("d4"), Ok(Square(15)));
        assert_eq!(e.parse_square("a1"), Ok(Square(4)));
        assert_eq!(e.parse_square("d6"), Ok(Square(23)));
        // International: a1 is 46.
        assert_eq!(Board::INTERNATIONAL.parse_square("a1"), Ok(Square(46)));
        // Spanish (bottom left not playing): mirrored, a1 on h1.
        let s = Board::SPANISH;
        let (c, r) = s.coords(s.parse_square("a1").unwrap()).unwrap();
        assert_eq!((c, r), (8, 1));
        assert!(s.parse_square("b1").is_err());
        assert_eq!(Board::by_variant("American/English"), Some(e));
        assert_eq!(Board::by_variant("Frysk!").map(|b| b.game_type), Some(97));
        assert_eq!(
            Board::by_variant("From Position").map(|b| b.game_type),
            Some(99)
        );
        assert_eq!(
            Board::by_variant("Russian draughts").map(|b| b.game_type),
            Some(25)
        );
        assert_eq!(Board::by_variant("Crazyhouse"), None);
        assert_eq!(
            Board::by_variant("Antidraughts").map(|b| b.game_type),
            Some(98)
        );
        assert!(fen_is_alphanumeric("W:Wc3,Ke1:Bf6"));
        assert!(!fen_is_alphanumeric("W:W31-50:BK1,2"));
    }

    #[test]
    fn fen_ranges_kings_and_trailing_dot() {
        let b = Board::INTERNATIONAL;
        let p = parse_fen("W:W31-50:B1-20", &b).unwrap();
        assert_eq!((p.white.len(), p.black.len()), (20, 20));
        let p = parse_fen("B:WK27,K23:BK28,12.", &b).unwrap();
        assert_eq!(p.to_move, Some(Side::Black));
        assert!(p.white[0].king && !p.black[1].king);
        assert!(parse_fen("W:W51:B1", &b).is_err());
        assert!(parse_fen("W:W1,1:B2", &b).is_err());
        assert!(parse_fen("X:W1", &b).is_err());
    }

    /// The plain reading of a FEN value with `str`'s own searches, what
    /// [`parse_fen`] and [`fen_is_alphanumeric`] read byte by byte: their
    /// oracle.
    mod plain {
        use super::super::*;

        pub fn is_alphanumeric(value: &str) -> bool {
            value.split(':').skip(1).any(|part| {
                let list = part.trim().get(1..).unwrap_or_default();
                list.split([',', '-']).any(|item| {
                    let item = item.trim();
                    let item = item.strip_prefix(['K', 'k']).unwrap_or(item).trim_start();
                    item.starts_with(|c: char| c.is_ascii_alphabetic())
                })
            })
        }

        pub fn parse(value: &str, board: &Board) -> Result<Position, String> {
            let text = value.trim();
            let text = text.strip_suffix('.').unwrap_or(text).trim_end();
            let mut parts = text.split(':');
            let to_move = match parts.next().map(str::trim) {
                Some("W" | "w") => Some(Side::White),
                Some("B" | "b") => Some(Side::Black),
                Some("?") => None,
                other => {
                    return Err(format!(
                        "FEN `{value}`: side to move `{}` is not W, B or ?",
                        other.unwrap_or("")
                    ))
                }
            };
            let mut pos = Position {
                to_move,
                white: Vec::new(),
                black: Vec::new(),
            };
            let mut seen = vec![false; usize::from(board.square_count()) + 1];
            let quote = crate::error::quote;
            for part in parts {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                if part.len() > 1
                    && matches!(part.as_bytes()[0], b'H' | b'F')
                    && part[1..].bytes().all(|b| b.is_ascii_digit())
                {
                    continue;
                }
                let (side, list) = match part.as_bytes()[0] {
                    b'W' | b'w' => (Side::White, &part[1..]),
                    b'B' | b'b' => (Side::Black, &part[1..]),
                    _ => {
                        return Err(format!(
                            "FEN {}: {} does not start with W or B",
                            quote(value),
                            quote(part)
                        ))
                    }
                };
                for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    let (king, item) = match item.strip_prefix(['K', 'k']) {
                        Some(rest) => (true, rest.trim_start()),
                        None => (false, item),
                    };
                    let (from, to) = match item.split_once('-') {
                        Some((a, b)) => (a.trim(), Some(b.trim())),
                        None => (item, None),
                    };
                    let square = |t| {
                        board
                            .parse_square(t)
                            .map_err(|e| format!("FEN {}: {e}", quote(value)))
                    };
                    let a = square(from)?;
                    let b = match to {
                        Some(t) => square(t)?,
                        None => a,
                    };
                    if b < a {
                        return Err(format!(
                            "FEN {}: range {} runs backwards",
                            quote(value),
                            quote(item)
                        ));
                    }
                    for n in a.0..=b.0 {
                        if std::mem::replace(&mut seen[usize::from(n)], true) {
                            return Err(format!(
                                "FEN {}: square {n} holds two pieces",
                                quote(value)
                            ));
                        }
                        let piece = Piece {
                            square: Square(n),
                            king,
                        };
                        match side {
                            Side::White => pos.white.push(piece),
                            Side::Black => pos.black.push(piece),
                        }
                    }
                }
            }
            Ok(pos)
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Any FEN-like text (sides, kings, ranges, lidraughts' clocks,
        /// alphanumeric squares, blanks of any script, damage) reads on
        /// any board as the plain `str` reading has it: the same position,
        /// or the same error.
        #[test]
        fn a_fen_reads_as_its_plain_reading_does(
            value in "[WBwb?:,K k.HF0-9a-jx\\-\t\u{a0}\u{3000}é]{0,40}",
            numbered in "[WB]:[WB][K ]?[0-9]{1,2}(-[0-9]{1,3})?(, ?K?[0-9]{1,3}){0,12}(:[WB]([0-9]{1,2},?){0,8})?\\.?",
            board in proptest::sample::select(vec![
                Board::INTERNATIONAL,
                Board::ENGLISH,
                Board::CANADIAN,
                Board { style: SquareStyle::Alpha, corner: 0, ..Board::INTERNATIONAL },
                Board::preset(25).expect("Russian"),
            ]),
        ) {
            for value in [&value, &numbered] {
                proptest::prop_assert_eq!(
                    fen_is_alphanumeric(value),
                    plain::is_alphanumeric(value),
                    "{:?}",
                    value
                );
                proptest::prop_assert_eq!(
                    parse_fen(value, &board),
                    plain::parse(value, &board),
                    "{:?}",
                    value
                );
            }
        }
    }
}
