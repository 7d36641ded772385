//! `sllavcco`: the column scoresheet of Slavoljub Stojanović's new chess
//! notation (seed 004).
//!
//! A record is a header block of `FIELD<TAB>value` lines, a blank line and
//! the grid: a heading line, then White's and Black's line for every move,
//! nine tab-separated cells each (the move number, then the files a to h). A
//! move is written in the column of its arrival file (`Q3` in column c is
//! Qc3). The reader decodes every cell by its column and its row's side and
//! replays the game with the rules; the writer spells the replayed moves.
//! Comments, variations and NAGs have no place on a scoresheet: the writer
//! drops them with one warning per game.
//!
//! Choices where the notation is silent:
//! - Files end in `.sllavcco`: the notation's own name, which no other
//!   format claims (`.txt` would claim every text file).
//! - Header fields are written in the order of the game's tags; a tag with no
//!   scoresheet field, or whose value does not fit the field's form (a Date
//!   that is not `YYYY.MM.DD`, a Result that is not `1-0`, `0-1`,
//!   `1/2-1/2` or `*`), is written verbatim under its PGN name, so that
//!   every tag reads back unchanged (field names are upper case, PGN tag
//!   names are not). A game without a Result tag gets a SCORE from its
//!   termination marker; a termination marker its Result tag contradicts is
//!   lost, with a warning. A start position or Chess960 that no tag gives
//!   (a game from JSON) is written as `FEN` and `Variant` fields.
//! - `ARRANGEMENT` is written for Chess960 games whose start position is an
//!   initial position; the FEN tag, when there is one, is written too and
//!   wins on reading. Read without a FEN tag, the arrangement gives the
//!   start position as `Variant`, `SetUp` and `FEN` tags.
//! - A null move is an all-empty line (a White line keeps its number), except
//!   White's first line of a game whose start position has Black to move.
//! - Move numbers must follow on; readers accept spaces around a cell,
//!   `e.p.` without its space, CRLF, and a SCORE without spaces or with
//!   `1/2`; a DATE or SCORE of another form is kept as written, with a
//!   warning. `--no-validate` keeps the moves as the cells write them
//!   (piece, square, disambiguation, capture, check mark), unchecked.

use pest::iterators::Pair;
use pest::Parser;

use crate::codec::{line_col, Oversize, Parsed, ReadOptions, Scan, Skip, WriteOptions};
use crate::container::{syntax_problem, ContainerRule, Kind};
use crate::error::Problem;
use crate::family::any::{Family, Move, Setup, Variant};
use crate::family::chess::hooks::{board_of, fen_of, ply_of};
use crate::family::chess::rules::{self as rules, Written};
use crate::family::chess::{
    Board as ChessBoard, Check, Move as CMove, Ply as CPly, Role, Spelling, Square, Wing,
};
use crate::family::spell::Lines;
use crate::family::spell::Spell;
use crate::ir::{find_tag, Game, GameResult, Line, Ply, Side, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The pest parser of `grammars/sllavcco.pest`.
#[allow(missing_docs)]
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/sllavcco.pest"]
    pub struct SllavccoParser;
}
use grammar::{Rule, SllavccoParser};

impl ContainerRule for Rule {
    fn kind(self) -> Kind {
        Kind::Other
    }

    fn describe(self) -> &'static str {
        match self {
            Rule::sl_field | Rule::sl_name | Rule::sl_value => {
                "a header field (FIELD, a tab, its value)"
            }
            Rule::sl_gap => "a blank line",
            Rule::sl_heading => "the grid heading (NUMBER OF THE MOVE, then the files a to h)",
            Rule::sl_white => "White's line (the move number, then eight cells)",
            Rule::sl_black => "Black's line (an empty first cell, then eight cells)",
            Rule::sl_number => "a move number",
            Rule::sl_tab => "a tab (a grid line has nine cells)",
            Rule::sl_eol => "the end of the line (a grid line has nine cells)",
            Rule::sl_cell | Rule::sl_piece | Rule::sl_promo | Rule::sl_pawn => {
                "a move (Q3, Q3x, Na4, N₂3, 4, x5, 4x, Q, Qx, xQ; R and K for castling)"
            }
            Rule::sl_suffix => "the end of the cell (` e.p.`, `+`, `++`, `#`, a move glyph)",
            _ => "the end of the game",
        }
    }
}

/// The first line of the grid.
pub const HEADING: &str = "NUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th";

/// Header fields and the PGN tags they carry.
pub const FIELDS: [(&str, &str); 14] = [
    ("TOURNAMENT", "Event"),
    ("PLACE", "Site"),
    ("DATE", "Date"),
    ("ROUND", "Round"),
    ("CHESSBOARD", "Board"),
    ("WHITE", "White"),
    ("BLACK", "Black"),
    ("WHITE TITLE", "WhiteTitle"),
    ("WHITE RATING", "WhiteElo"),
    ("WHITE COUNTRY", "WhiteCountry"),
    ("BLACK TITLE", "BlackTitle"),
    ("BLACK RATING", "BlackElo"),
    ("BLACK COUNTRY", "BlackCountry"),
    ("SCORE", "Result"),
];

/// The header field of a Fischer chess arrangement (seed 16.2).
pub const ARRANGEMENT: &str = "ARRANGEMENT";

/// The values of the option `pieces`, as help and errors say them.
pub const PIECE_SETS: &str = "en (K Q R B N), sr or de (K D T L S), fr (R D T F C), nl \
     (K D T L P), es or it (R D T A C), figurine, or five different letters for K Q R B N (not a \
     to h, not x)";

/// The options of `sllavcco`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The piece letters of the cells; figurines are read with any set.
    pub pieces: Pieces,
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[FormatOption {
        name: "pieces",
        sides: Sides::Both,
        values: Values::Kind(PIECE_SETS),
        default: "en",
        help: "the piece letters of the cells (figurines are read with any)",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "pieces" => self.pieces = Pieces::parse(value)?,
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// The symbols that name pieces in cells (the option `pieces`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pieces {
    /// One letter each for the king, queen, rook, bishop and knight.
    Letters([char; 5]),
    /// Figurines: ♔♕♖♗♘ for White, ♚♛♜♝♞ for Black.
    Figurine,
}

/// The roles of the five piece symbols, in the order `--pieces` names them.
const ROLES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];
const WHITE_FIGURINES: [char; 5] = ['♔', '♕', '♖', '♗', '♘'];
const BLACK_FIGURINES: [char; 5] = ['♚', '♛', '♜', '♝', '♞'];

impl Default for Pieces {
    fn default() -> Pieces {
        Pieces::ENGLISH
    }
}

impl Pieces {
    /// English letters, K Q R B N.
    pub const ENGLISH: Pieces = Pieces::Letters(['K', 'Q', 'R', 'B', 'N']);

    /// Reads a `--pieces` value: `en`, `sr`, `de`, `fr`, `nl`, `es`, `it`,
    /// `figurine`, or five letters for K Q R B N (`KDTLS`).
    pub fn parse(name: &str) -> Result<Pieces, String> {
        let letters = match name.trim().to_ascii_lowercase().as_str() {
            "en" => "KQRBN",
            "sr" | "de" => "KDTLS",
            "fr" => "RDTFC",
            "nl" => "KDTLP",
            "es" | "it" => "RDTAC",
            "figurine" => return Ok(Pieces::Figurine),
            _ => name,
        };
        let chars: Vec<char> = letters
            .chars()
            .filter(|c| !matches!(c, ' ' | ','))
            .collect();
        let wrong = || {
            format!(
                "{name} is no piece set: give {PIECE_SETS}",
                name = crate::error::quote(name)
            )
        };
        let set: [char; 5] = chars.clone().try_into().map_err(|_| wrong())?;
        let usable = |c: &char| pest::unicode::LETTER(*c) && !('a'..='h').contains(c) && *c != 'x';
        if !set.iter().all(usable) || (1..5).any(|i| set[..i].contains(&set[i])) {
            return Err(wrong());
        }
        Ok(Pieces::Letters(set))
    }

    /// The symbol of a piece of a side.
    pub fn symbol(self, role: Role, side: Side) -> char {
        let i = ROLES.iter().position(|&r| r == role).unwrap_or(0);
        match (self, side) {
            (Pieces::Letters(l), _) => l[i],
            (Pieces::Figurine, Side::White) => WHITE_FIGURINES[i],
            (Pieces::Figurine, Side::Black) => BLACK_FIGURINES[i],
        }
    }

    /// The piece a symbol names: this set's letters (English ones with
    /// figurines) and figurines of either colour.
    pub fn role(self, c: char) -> Option<Role> {
        let letters = match self {
            Pieces::Letters(l) => l,
            Pieces::Figurine => ['K', 'Q', 'R', 'B', 'N'],
        };
        [letters, WHITE_FIGURINES, BLACK_FIGURINES]
            .iter()
            .find_map(|set| set.iter().position(|&s| s == c))
            .map(|i| ROLES[i])
    }

    fn describe(self) -> String {
        let letters = match self {
            Pieces::Letters(l) => l,
            Pieces::Figurine => ['K', 'Q', 'R', 'B', 'N'],
        };
        let list: Vec<String> = letters.iter().map(char::to_string).collect();
        format!("{} (or figurines)", list.join(" "))
    }
}

/// The record scanner of scoresheets (`sllavcco`, `sllavcco-html`): a
/// record is a header block, a blank line and the grid, and ends at the
/// blank line after its grid.
#[derive(Debug)]
pub struct SheetScan;

impl Scan for SheetScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        sheet_end(data, eof)
    }

    fn oversize(&self) -> Oversize {
        Oversize {
            skip: Box::new(BlankLine { blank: false }),
            from_start: false,
        }
    }
}

/// Streams past a scoresheet over the size limit: it ends after the next
/// blank line; `blank` says the line so far holds nothing but spaces.
struct BlankLine {
    blank: bool,
}

impl Skip for BlankLine {
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        for (i, &b) in data.iter().enumerate() {
            match b {
                b'\n' if self.blank => return Some(i + 1),
                b'\n' => self.blank = true,
                b' ' | b'\r' => {}
                _ => self.blank = false,
            }
        }
        None
    }
}

/// The scan of scoresheets: blank lines (empty, or spaces only), then a
/// header block up to a blank line, then the grid up to the next blank line
/// (not included) or the end. A record may have no header when it starts
/// with the grid heading. Grid lines of empty cells hold tabs: not blank.
fn sheet_end(data: &[u8], eof: bool) -> Option<(usize, bool)> {
    #[derive(PartialEq)]
    enum State {
        Lead,
        Header,
        Gap,
        Grid,
    }
    let n = data.len();
    let mut state = State::Lead;
    let mut i = 0;
    while i < n {
        let end = match memchr::memchr(b'\n', &data[i..]) {
            Some(j) => i + j + 1,
            None if eof => n,
            None => return None,
        };
        let line = &data[i..end];
        let blank = line.iter().all(|&b| matches!(b, b' ' | b'\r' | b'\n'));
        state = match (state, blank) {
            (State::Lead, true) => State::Lead,
            (State::Lead, false) if line.starts_with(b"NUMBER OF THE MOVE") => State::Grid,
            (State::Lead | State::Header, false) => State::Header,
            (State::Header | State::Gap, true) => State::Gap,
            (State::Gap | State::Grid, false) => State::Grid,
            (State::Grid, true) => return Some((i, true)),
        };
        i = end;
    }
    if eof {
        Some((n, state != State::Lead))
    } else {
        None
    }
}

/// `YYYY.MM.DD` (digits or `?`) as `DD.MM.YYYY`, and back with `reverse`.
fn flip_date(value: &str, reverse: bool) -> Option<String> {
    let parts: Vec<&str> = value.split('.').collect();
    let widths = if reverse { [2, 2, 4] } else { [4, 2, 2] };
    let fits = parts.len() == 3
        && parts
            .iter()
            .zip(widths)
            .all(|(p, w)| p.len() == w && p.bytes().all(|b| b.is_ascii_digit() || b == b'?'));
    fits.then(|| format!("{}.{}.{}", parts[2], parts[1], parts[0]))
}

/// A Result tag value as a SCORE.
fn score_of(result: &str) -> Option<&'static str> {
    Some(match result {
        "1-0" => "1 : 0",
        "0-1" => "0 : 1",
        "1/2-1/2" => "½ : ½",
        "*" => "*",
        _ => return None,
    })
}

/// A SCORE as a Result tag value (spaces optional, `1/2` for `½`).
fn result_of(score: &str) -> Option<&'static str> {
    let s: String = score.chars().filter(|c| *c != ' ').collect();
    Some(match s.replace("1/2", "½").as_str() {
        "1:0" => "1-0",
        "0:1" => "0-1",
        "½:½" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

/// The FEN of the initial position of an arrangement (the pieces of files
/// a to h, the same for both sides), with Shredder castling rights.
fn initial_fen(back: &[Role; 8]) -> Result<String, String> {
    let count = |r: Role| back.iter().filter(|&&x| x == r).count();
    let files = |r: Role| -> Vec<usize> { (0..8).filter(|&i| back[i] == r).collect() };
    let (kings, rooks) = (files(Role::King), files(Role::Rook));
    let complete = count(Role::King) == 1
        && count(Role::Queen) == 1
        && count(Role::Rook) == 2
        && count(Role::Bishop) == 2
        && count(Role::Knight) == 2;
    if !(complete && rooks[0] < kings[0] && kings[0] < rooks[1]) {
        return Err(
            "an arrangement is one king between two rooks, a queen, two bishops and two knights"
                .to_string(),
        );
    }
    let white: String = back.iter().filter_map(|r| r.san_letter()).collect();
    let file = |i: usize| char::from(b'a' + i as u8);
    let castling: String = [rooks[1], rooks[0]]
        .iter()
        .map(|&i| file(i).to_ascii_uppercase())
        .chain([rooks[1], rooks[0]].iter().map(|&i| file(i)))
        .collect();
    Ok(format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1",
        white.to_ascii_lowercase()
    ))
}

/// The board placement field of a FEN.
fn placement(fen: &str) -> &str {
    fen.split(' ').next().unwrap_or("")
}

/// The arrangement of a Chess960 game: the pieces of files a to h of its
/// start position, when that is an initial position.
fn arrangement(game: &Game) -> Option<[Role; 8]> {
    let fen = match fen_of(&game.setup).ok()? {
        Some(fen) => rules::fen(&rules::parse_fen(&fen.text()).ok()?, true),
        None => rules::fen(&rules::start_position(), true),
    };
    let first_rank = placement(&fen).rsplit('/').next()?;
    let roles: Vec<Role> = first_rank
        .chars()
        .map(|c| Role::from_letter(c).filter(|_| c.is_ascii_uppercase()))
        .collect::<Option<_>>()?;
    let roles: [Role; 8] = roles.try_into().ok()?;
    let start = initial_fen(&roles).ok()?;
    (placement(&start) == placement(&fen)).then_some(roles)
}

// ---------------------------------------------------------------- reading

/// A non-empty cell of the grid.
struct Cell<'i> {
    /// The file of its column, 0 = a.
    col: u8,
    /// The form rule: `sl_piece`, `sl_promo` or `sl_pawn`.
    form: Rule,
    /// The form's text.
    body: &'i str,
    /// ` e.p.`, the check mark and the glyph.
    suffix: &'i str,
    /// The whole cell.
    text: &'i str,
    /// Its byte offset in the record.
    pos: usize,
}

impl Cell<'_> {
    fn named(&self) -> String {
        format!(
            "{} in column {}",
            crate::error::quote(self.text),
            file_char(self.col)
        )
    }

    /// ` e.p.` was written, and what follows it (check mark and glyph).
    fn after_ep(&self) -> (bool, &str) {
        let s = self.suffix;
        match s.strip_prefix(" e.p.").or_else(|| s.strip_prefix("e.p.")) {
            Some(rest) => (true, rest),
            None => (false, s),
        }
    }

    /// ` e.p.` was written, and the glyph.
    fn suffix(&self) -> (bool, Option<String>) {
        let (ep, rest) = self.after_ep();
        let glyph = rest.trim_start_matches(['+', '#']);
        (ep, (!glyph.is_empty()).then(|| glyph.to_string()))
    }

    /// The check mark written after the move.
    fn check(&self) -> Check {
        let s = self.after_ep().1;
        if s.starts_with("++") {
            Check::Double
        } else if s.starts_with('#') {
            Check::Mate
        } else if s.starts_with('+') {
            Check::Check
        } else {
            Check::None
        }
    }

    /// The letter of a lone-letter cell (`Q`, `R`, `K`).
    fn lone(&self) -> Option<char> {
        let mut cs = self.body.chars();
        match (self.form, cs.next(), cs.next()) {
            (Rule::sl_promo, Some(c), None) => Some(c),
            _ => None,
        }
    }
}

fn file_char(f: u8) -> char {
    char::from(b'a' + f)
}

/// One line of the grid.
struct GridLine<'i> {
    side: Side,
    /// The move number of a White line, and its byte offset.
    number: Option<(u32, usize)>,
    pos: usize,
    cells: Vec<Cell<'i>>,
}

impl std::borrow::Borrow<Written> for Seen {
    fn borrow(&self) -> &Written {
        &self.written
    }
}

// (A cell's check mark is read only without the rules.)
impl rules::WrittenMove for Seen {}

/// A move as written, ready to be replayed.
struct Seen {
    number: u32,
    side: Side,
    written: Written,
    /// The check mark as written (used only without the rules).
    check: Check,
    glyph: Option<String>,
    /// The cells, for messages.
    what: String,
    pos: usize,
}

/// Reads one record.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let pieces = opts
        .format
        .get::<Options>()
        .copied()
        .unwrap_or_default()
        .pieces;
    let mut pairs =
        SllavccoParser::parse(Rule::sl_record, text).map_err(|e| syntax_problem(text, e))?;
    let record = pairs
        .next()
        .ok_or_else(|| Problem::whole("empty record").of_kind(crate::error::Kind::Syntax))?;
    let mut warnings = Vec::new();
    let mut header = Header::default();
    let mut lines = Vec::new();
    // The header's places: each field may warn, and counting lines from the
    // record's start for each would be quadratic in the header.
    let places = crate::codec::Lines::new(text);
    for pair in record.into_inner() {
        match pair.as_rule() {
            Rule::sl_header => header.read(&places, pair, pieces, &mut warnings)?,
            Rule::sl_grid => {
                let mut side = Side::White;
                for line in pair.into_inner() {
                    if matches!(line.as_rule(), Rule::sl_white | Rule::sl_black) {
                        lines.push(grid_line(text, line, side)?);
                        side = side.other();
                    }
                }
            }
            _ => {}
        }
    }
    header.settle_arrangement(text, &mut warnings)?;
    let Header { tags, at, .. } = header;
    let place = |name: &str| find_tag(&tags, name).map_or((1, 1), |i| places.at(at[i]));
    let (board, fen, start, repaired) =
        rules::start(&tags).map_err(|(p, name)| p.placed(place(name)))?;
    if let Some(r) = repaired {
        warnings.push(Problem::at(place("FEN"), r).of_kind(crate::error::Kind::FenRepair));
    }
    let to_move = start.side_to_move();
    let seen = moves(text, &lines, to_move, pieces)?;
    let mut game = Game::new(Variant::Chess(board));
    let position = if opts.no_validate {
        if !seen.is_empty() {
            warnings
                .push(Problem::whole(rules::UNREPLAYED).of_kind(crate::error::Kind::NotReplayed));
        }
        game.variant = Variant::Chess(ChessBoard {
            validated: false,
            ..board
        });
        None
    } else {
        Some(start)
    };
    game.moves = settle(text, seen, position, board.chess960)?;
    game.setup = fen.map(|fen| Setup::Chess(rules::Fen::Text(fen)));
    game.result = tags
        .iter()
        .find(|t| t.name == "Result")
        .and_then(|t| GameResult::parse(&t.value));
    game.tags = tags;
    Ok(Parsed { game, warnings })
}

/// The tags of a header, where each was written, and its arrangement.
#[derive(Default)]
struct Header {
    tags: Vec<Tag>,
    /// Byte offsets of the fields the tags come from.
    at: Vec<usize>,
    /// The arrangement, the index of the tags it comes before, and where.
    arrangement: Option<([Role; 8], usize, usize)>,
}

impl Header {
    fn push(&mut self, name: &str, value: impl Into<String>, pos: usize) {
        self.tags.push(Tag::new(name, value));
        self.at.push(pos);
    }

    fn read(
        &mut self,
        places: &crate::codec::Lines<'_>,
        pair: Pair<'_, Rule>,
        pieces: Pieces,
        warnings: &mut Vec<Problem>,
    ) -> Result<(), Problem> {
        for field in pair.into_inner() {
            if field.as_rule() != Rule::sl_field {
                continue;
            }
            let pos = field.as_span().start();
            let at = || places.at(pos);
            let (mut name, mut value) = ("", "");
            for part in field.into_inner() {
                match part.as_rule() {
                    Rule::sl_name => name = part.as_str(),
                    Rule::sl_value => value = part.as_str(),
                    _ => {}
                }
            }
            let tag = FIELDS.iter().find(|(f, _)| *f == name).map(|(_, t)| *t);
            match (name, tag) {
                (ARRANGEMENT, _) => {
                    let roles = read_arrangement(value, pieces)
                        .map_err(|e| Problem::at(at(), e).of_kind(crate::error::Kind::TagValue))?;
                    if self.arrangement.is_some() {
                        return Err(Problem::at(at(), "a second ARRANGEMENT")
                            .of_kind(crate::error::Kind::TagValue));
                    }
                    self.arrangement = Some((roles, self.tags.len(), pos));
                }
                ("DATE", Some(tag)) => match flip_date(value, true) {
                    Some(date) => self.push(tag, date, pos),
                    None => {
                        warnings.push(
                            Problem::at(
                                at(),
                                format!(
                                    "DATE {value} is not DD.MM.YYYY: kept as written",
                                    value = crate::error::quote(value)
                                ),
                            )
                            .of_kind(crate::error::Kind::FieldAsWritten),
                        );
                        self.push(tag, value, pos);
                    }
                },
                ("SCORE", Some(tag)) => match result_of(value) {
                    Some(result) => self.push(tag, result, pos),
                    None => {
                        let why = format!(
                            "SCORE {value} is not 1 : 0, 0 : 1, ½ : ½ or *",
                            value = crate::error::quote(value)
                        );
                        warnings.push(
                            Problem::at(at(), format!("{why}: kept as written"))
                                .of_kind(crate::error::Kind::FieldAsWritten),
                        );
                        self.push(tag, value, pos);
                    }
                },
                (_, Some(tag)) => self.push(tag, value, pos),
                (_, None) => self.push(name, value, pos),
            }
        }
        Ok(())
    }

    /// Without a FEN tag, the arrangement gives the start position (as the
    /// tags `Variant`, `SetUp` and `FEN`); with one, it must agree with it.
    fn settle_arrangement(
        &mut self,
        text: &str,
        warnings: &mut Vec<Problem>,
    ) -> Result<(), Problem> {
        let Some((roles, index, pos)) = self.arrangement else {
            return Ok(());
        };
        let at = line_col(text, pos);
        let start = initial_fen(&roles)
            .map_err(|e| Problem::at(at, e).of_kind(crate::error::Kind::TagValue))?;
        let board = rules::parse_fen(&start)
            .map_err(|e| Problem::at(at, e).of_kind(crate::error::Kind::TagValue))?;
        let start = rules::fen(&board, true);
        let has = |name: &str| find_tag(&self.tags, name).is_some();
        if let Some(t) = find_tag(&self.tags, "FEN").map(|i| &self.tags[i]) {
            let fen = rules::parse_fen(&t.value).map(|b| rules::fen(&b, true));
            if fen.as_deref().map(placement).ok() != Some(placement(&start)) {
                warnings.push(
                    Problem::at(
                        at,
                        "ARRANGEMENT is not the position of the FEN tag: the FEN is used",
                    )
                    .of_kind(crate::error::Kind::ArrangementMismatch),
                );
            }
            return Ok(());
        }
        let standard = placement(&start) == placement(&rules::fen(&rules::start_position(), true));
        let mut added = Vec::new();
        if !has("Variant") {
            added.push(Tag::new("Variant", "Chess960"));
        }
        if !standard {
            if !has("SetUp") {
                added.push(Tag::new("SetUp", "1"));
            }
            added.push(Tag::new("FEN", start));
        }
        for (k, tag) in added.into_iter().enumerate() {
            self.tags.insert(index + k, tag);
            self.at.insert(index + k, pos);
        }
        Ok(())
    }
}

/// Reads the cells of an ARRANGEMENT field.
fn read_arrangement(value: &str, pieces: Pieces) -> Result<[Role; 8], String> {
    let cells: Vec<&str> = value.split('\t').map(str::trim).collect();
    let roles: Vec<Role> = cells
        .iter()
        .map(|c| {
            let mut cs = c.chars();
            match (cs.next(), cs.next()) {
                (Some(ch), None) => pieces.role(ch).ok_or_else(|| {
                    format!(
                        "ARRANGEMENT: {} is not a piece letter of {}",
                        crate::error::quote(c),
                        pieces.describe()
                    )
                }),
                _ => Err(format!(
                    "ARRANGEMENT: {c} is not one piece letter",
                    c = crate::error::quote(c)
                )),
            }
        })
        .collect::<Result<_, _>>()?;
    roles.try_into().map_err(|_| {
        "ARRANGEMENT names the pieces of the eight files a to h, a tab before each".to_string()
    })
}

/// Reads the cells of one grid line.
fn grid_line<'i>(text: &str, pair: Pair<'i, Rule>, side: Side) -> Result<GridLine<'i>, Problem> {
    let pos = pair.as_span().start();
    let mut number = None;
    let mut cells = Vec::new();
    // The tab rules seen (the first tab of a line is none): a cell after k
    // of them is in column k (0 = a).
    let mut tabs = 0u8;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::sl_number => {
                let at = part.as_span().start();
                let n = part.as_str().parse::<u32>().map_err(|_| {
                    Problem::at(
                        line_col(text, at),
                        format!(
                            "move number {} is too large",
                            crate::error::quote(part.as_str())
                        ),
                    )
                    .of_kind(crate::error::Kind::NumberTooLarge)
                })?;
                number = Some((n, at));
            }
            Rule::sl_tab => tabs += 1,
            Rule::sl_cell => {
                let at = part.as_span().start();
                let cell_text = part.as_str();
                let mut inner = part.into_inner();
                let form = inner.next().ok_or_else(|| {
                    Problem::at(line_col(text, at), "an empty cell")
                        .of_kind(crate::error::Kind::Syntax)
                })?;
                cells.push(Cell {
                    col: tabs,
                    form: form.as_rule(),
                    body: form.as_str(),
                    suffix: inner.next().map_or("", |s| s.as_str()),
                    text: cell_text,
                    pos: at,
                });
            }
            _ => {}
        }
    }
    Ok(GridLine {
        side,
        number,
        pos,
        cells,
    })
}

/// The moves of the grid lines, numbered, in order.
fn moves(
    text: &str,
    lines: &[GridLine<'_>],
    to_move: Side,
    pieces: Pieces,
) -> Result<Vec<Seen>, Problem> {
    let at = |offset: usize| line_col(text, offset);
    let mut seen = Vec::with_capacity(lines.len());
    let mut number = 1;
    let mut expect: Option<u32> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some((n, offset)) = line.number {
            if let Some(e) = expect.filter(|&e| e != n) {
                return Err(Problem::at(
                    at(offset),
                    format!("move number {n:02} where {e:02} was expected"),
                )
                .of_kind(crate::error::Kind::Syntax));
            }
            number = n;
            expect = n.checked_add(1);
        }
        if i == 0 && to_move == Side::Black {
            if let Some(c) = line.cells.first() {
                return Err(Problem::at(
                    at(c.pos),
                    "the start position has Black to move: White's first line must be empty",
                )
                .of_kind(crate::error::Kind::Syntax));
            }
            continue;
        }
        let (written, check, glyph, what, pos) = match line.cells.as_slice() {
            [] => (
                Written::Null,
                Check::None,
                None,
                "an empty line".to_string(),
                line.pos,
            ),
            [c] => {
                let (_, glyph) = c.suffix();
                let written = decode(text, c, line.side, pieces)?;
                (written, c.check(), glyph, c.named(), c.pos)
            }
            [a, b] => {
                let wing = match (
                    a.col,
                    a.lone().and_then(|x| pieces.role(x)),
                    b.col,
                    b.lone().and_then(|x| pieces.role(x)),
                ) {
                    (5, Some(Role::Rook), 6, Some(Role::King)) => Wing::King,
                    (2, Some(Role::King), 3, Some(Role::Rook)) => Wing::Queen,
                    _ => {
                        return Err(Problem::at(
                            at(b.pos),
                            format!(
                                "{} and {}: a line holds one move; only castling takes two cells \
                                 (rook in f and king in g, or king in c and rook in d)",
                                a.named(),
                                b.named()
                            ),
                        )
                        .of_kind(crate::error::Kind::Syntax))
                    }
                };
                let ((ep_a, glyph_a), (ep_b, glyph_b)) = (a.suffix(), b.suffix());
                if ep_a || ep_b {
                    return Err(Problem::at(at(b.pos), "castling with e.p.")
                        .of_kind(crate::error::Kind::Syntax));
                }
                let what = format!(
                    "{} {} in columns {} and {}",
                    crate::error::quote(a.text),
                    crate::error::quote(b.text),
                    file_char(a.col),
                    file_char(b.col)
                );
                let check = b.check();
                (
                    Written::Castle(wing),
                    check,
                    glyph_b.or(glyph_a),
                    what,
                    a.pos,
                )
            }
            [a, b, c, ..] => {
                return Err(Problem::at(
                    at(c.pos),
                    format!(
                        "{}, {} and {}: a line holds one move",
                        a.named(),
                        b.named(),
                        c.named()
                    ),
                )
                .of_kind(crate::error::Kind::Syntax))
            }
        };
        seen.push(Seen {
            number,
            side: line.side,
            written,
            check,
            glyph,
            what,
            pos,
        });
    }
    Ok(seen)
}

/// Decodes a one-cell move by its column and its line's side.
fn decode(text: &str, c: &Cell<'_>, side: Side, pieces: Pieces) -> Result<Written, Problem> {
    let bad = |why: String| {
        Problem::at(line_col(text, c.pos), format!("{}: {why}", c.named()))
            .of_kind(crate::error::Kind::Syntax)
    };
    let role_of = |ch: char| {
        pieces.role(ch).ok_or_else(|| {
            bad(format!(
                "{} is not a piece letter of {}",
                crate::error::quote(&ch.to_string()),
                pieces.describe()
            ))
        })
    };
    let rank_of = |ch: char| -> Result<u8, Problem> {
        match ch {
            '1'..='8' => Ok(ch as u8 - b'1'),
            _ => Err(bad(format!(
                "{ch} is not a rank",
                ch = crate::error::quote(&ch.to_string())
            ))),
        }
    };
    // The pawn's file when the `x` is on its left (-1) or right (+1).
    let from = |dir: i8| -> Result<u8, Problem> {
        let f = c.col as i8 + dir;
        if (0..8).contains(&f) {
            Ok(f as u8)
        } else {
            Err(bad(format!(
                "there is no file {} of {}",
                if dir < 0 { "left" } else { "right" },
                file_char(c.col)
            )))
        }
    };
    let (ep, _) = c.after_ep();
    if ep && c.form != Rule::sl_pawn {
        return Err(bad("e.p. is for a pawn capturing a pawn".to_string()));
    }
    let chars: Vec<char> = c.body.chars().collect();
    match (c.form, chars.as_slice()) {
        (Rule::sl_pawn, body) => {
            let (rank, dir) = match body {
                ['x', r] => (*r, Some(-1)),
                [r, 'x'] => (*r, Some(1)),
                [r] => (*r, None),
                _ => return Err(bad("unreadable pawn move".to_string())),
            };
            if ep && dir.is_none() {
                return Err(bad(
                    "e.p. needs a capture, `x` on the side the pawn comes from".to_string(),
                ));
            }
            Ok(Written::San {
                role: Role::Pawn,
                file: dir.map(from).transpose()?,
                rank: None,
                capture: dir.is_some(),
                to: Square::new(c.col, rank_of(rank)?),
                promotion: None,
            })
        }
        (Rule::sl_promo, body) => {
            let (letter, dir) = match body {
                ['x', l] => (*l, Some(-1)),
                [l, 'x'] => (*l, Some(1)),
                [l] => (*l, None),
                _ => return Err(bad("unreadable promotion".to_string())),
            };
            let role = role_of(letter)?;
            if role == Role::King {
                return Err(bad(
                    "a lone king is no move: castling is written with the rook \
                     (rook in f and king in g, or king in c and rook in d)"
                        .to_string(),
                ));
            }
            let rank = if side == Side::White { 7 } else { 0 };
            Ok(Written::San {
                role: Role::Pawn,
                file: dir.map(from).transpose()?,
                rank: None,
                capture: dir.is_some(),
                to: Square::new(c.col, rank),
                promotion: Some(role),
            })
        }
        (Rule::sl_piece, [letter, rest @ ..]) => {
            let role = role_of(*letter)?;
            let mut i = 0;
            let file = match rest.first() {
                Some(f @ 'a'..='h') => {
                    i += 1;
                    Some(*f as u8 - b'a')
                }
                _ => None,
            };
            let rank = match rest.get(i) {
                Some(s @ '₁'..='₈') => {
                    i += 1;
                    Some((u32::from(*s) - u32::from('₁')) as u8)
                }
                Some('_') => {
                    i += 2;
                    Some(rank_of(rest.get(i - 1).copied().unwrap_or(' '))?)
                }
                _ => None,
            };
            let to = rank_of(rest.get(i).copied().unwrap_or(' '))?;
            Ok(Written::San {
                role,
                file,
                rank,
                capture: rest.get(i + 1) == Some(&'x'),
                to: Square::new(c.col, to),
                promotion: None,
            })
        }
        _ => Err(bad("unreadable cell".to_string())),
    }
}

/// The main line of the moves: replayed from the start position, or kept
/// as the cells write them when there is no board (`--no-validate`).
fn settle(
    text: &str,
    mut seen: Vec<Seen>,
    board: Option<rules::Position>,
    chess960: bool,
) -> Result<Line, Problem> {
    let mut line = Line::default();
    line.plies.reserve(seen.len());
    for s in &mut seen {
        let mut ply = Ply::new(s.number, s.side, Move::Chess(CPly::Null));
        ply.glyph = s.glyph.take();
        line.plies.push(ply);
    }
    let at = |s: &Seen| line_col(text, s.pos);
    let mut moves = Vec::with_capacity(seen.len());
    match board {
        None => {
            for s in &seen {
                let mv = rules::as_written(&s.written, s.check, s.side).map_err(|e| {
                    Problem::at(at(s), format!("move {}, {}: {e}", s.number, s.what))
                        .of_kind(crate::error::Kind::Syntax)
                })?;
                moves.push(mv);
            }
        }
        Some(board) => {
            rules::Replay::start(&line, Some(board), chess960)
                .resolve(&seen, |step| moves.push(step.mv))
                .map_err(|stop| {
                    let s = &seen[stop.index];
                    let side = match s.side {
                        Side::White => "White",
                        Side::Black => "Black",
                    };
                    let fen = stop.position.unwrap_or_default();
                    Problem::at(
                        at(s),
                        format!(
                            "move {} ({side}), {}: {} (position: {fen})",
                            s.number, s.what, stop.why
                        ),
                    )
                    .of_kind(crate::error::Kind::IllegalMove)
                })?;
        }
    }
    for (ply, mv) in line.plies.iter_mut().zip(moves) {
        ply.mv = Move::Chess(mv);
    }
    Ok(line)
}

mod sheet;

pub use sheet::{
    closed, counted, ended, opened, runs, write, Cells, Dropped, Grid, Runs, Sheet, SheetRow,
};
