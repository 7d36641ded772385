//! `tenjiku`: tenjiku shogi in Hodges notation (seed 001) in the PGN-style
//! container. Every move is resolved on a tracked board from the start
//! position: the written piece must stand on the origin, a short form
//! (`P-8g`) names the one piece that can make the move, and the writer adds
//! the origin exactly when another piece of the same name could make the
//! same move (or always, with the `long` option).
//!
//! With `--no-validate` ([`ReadOptions::no_validate`]) nothing is
//! resolved: each move is kept as its text claims it ([`Claim`]: the
//! piece, the origin where written, the squares with their marks,
//! promotion, burns), the game says it was not replayed
//! ([`TVariant::validated`]) with one warning, and the writer spells each
//! claim as written ([`spell_claim`]).

use std::borrow::Cow;

use pest::Parser;

use crate::codec::{Parsed, ReadOptions, Visit, WriteOptions};
use crate::container::{self, MoveText, Notation, Start, Style};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Family, Move, Setup, Variant};
use crate::family::dialect::{Dialect, Layout};
use crate::family::spell::Lines;
use crate::family::spell::{self, Spell};
use crate::family::tenjiku::rules::{self, Board};
use crate::family::tenjiku::{
    unknown_piece, Abbreviations, Claim, Move as TMove, Piece, Ply, Square, Variant as TVariant,
};
use crate::ir::{back_fen, find_tag, Game, Ply as IrPly, Side, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The pest parser: the container and Hodges moves.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/tenjiku.pest"]
    pub struct TenjikuParser;

    container_rules!(Rule, tj_move, |_| "a move");
}
use crate::family::tenjiku::hooks::spell;
use crate::family::tenjiku::{spell_claim, Options, DIALECT};
use grammar::{Rule, TenjikuParser};

/// A move as written, and where.
struct Seen {
    written: Claim,
    span: (usize, usize),
}

struct Reader<'t> {
    text: &'t str,
    /// The record's places, for what is said of its moves.
    places: crate::codec::Lines<'t>,
    seen: Vec<Seen>,
    /// The board the game starts from.
    board: Board,
    /// Read by the text alone (`--no-validate`): the moves are kept as
    /// their text claims them, not replayed.
    no_validate: bool,
    /// What a record read a run at a time replays its runs with
    /// ([`container::Runs`]); `None` when it is read whole.
    runs: Option<Replaying<'t>>,
}

/// The replay of a record read a run at a time: the lines open with the
/// board each goes on from, and what the replay found so far.
struct Replaying<'l> {
    /// The lines open, the main line's first.
    lines: &'l std::cell::RefCell<container::kept::OpenLines<Board>>,
    /// Runs were read, and how many moves they held.
    ran: bool,
    moves: usize,
    /// Where the first move marked `x` onto an empty square (or `-` onto
    /// an enemy piece) is.
    loose_mark: Option<(usize, usize)>,
}

impl<'t> Reader<'t> {
    /// A reader of `text`, reading it whole (`runs` `None`) or a run at a
    /// time.
    fn new(text: &'t str, opts: &ReadOptions, runs: Option<Replaying<'t>>) -> Self {
        Reader {
            text,
            places: crate::codec::Lines::new(text),
            seen: Vec::new(),
            board: Board::start(),
            no_validate: opts.no_validate,
            runs,
        }
    }

    /// Resolves the move `seen` of `ply` on the board before it; whether
    /// its `x` or `-` says otherwise than the board.
    fn resolve(&self, board: &Board, ply: &IrPly, seen: &Seen) -> Result<(TMove, bool), Problem> {
        let mv = rules::resolve(board, ply.side, &seen.written).map_err(|why| {
            let text = &self.text[seen.span.0..seen.span.1];
            Problem::at(
                self.places.at(seen.span.0),
                format!("{} {text}: {why}", ply.label(crate::ir::Side::Black)),
            )
            .of_kind(Kind::IllegalMove)
        })?;
        // `x` onto an empty square, `-` onto an enemy piece (engines
        // write `7nx6k`): the move is what the board says.
        let wrong = seen
            .written
            .marks()
            .any(|(x, s)| x != board.at(s).is_some_and(|m| m.side != ply.side));
        Ok((mv, wrong))
    }
}

/// The warning of a game with a move marked `x` onto an empty square, or
/// `-` onto an enemy piece, at the first.
fn loose_mark(at: (usize, usize)) -> Problem {
    Problem::at(
        at,
        "a move marked `x` onto an empty square, or `-` onto an enemy piece: read as \
     the board has it (written `-` and `x`)",
    )
    .of_kind(Kind::CaptureMark)
}

impl Notation for Reader<'_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let fen = find_tag(tags, "FEN").map(|i| &tags[i]);
        let (setup, to_move) = match fen {
            None => (None, None),
            Some(tag) => {
                let (board, side) = rules::parse_fen(&tag.value)
                    .map_err(|e| Problem::at(at("FEN"), e).of_kind(Kind::TagValue))?;
                let fen = board.fen(side);
                self.board = board;
                (Some(Setup::Tenjiku(fen)), Some(side))
            }
        };
        if let Some(runs) = self.runs.as_ref().filter(|_| !self.no_validate) {
            // The board the main line's runs start from.
            runs.lines.borrow_mut().top()?.pos = Some(self.board.clone());
        }
        Ok(Start {
            variant: Variant::Tenjiku(TVariant::REPLAYED),
            setup,
            to_move,
            number: None,
            warnings: Vec::new(),
        })
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        let written = decode(&mv)?;
        self.seen.push(Seen {
            written,
            span: (mv.offset(), mv.offset() + mv.text().len()),
        });
        // A placeholder: `finish` puts the resolved move here.
        Ok(Move::Tenjiku(Ply::Move(PLACEHOLDER)))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if let Some(runs) = self.runs.as_ref().filter(|r| r.ran) {
            // Every move was read (and replayed) in its run.
            if self.no_validate {
                game.variant = Variant::Tenjiku(TVariant { validated: false });
                if runs.moves > 0 {
                    warnings.push(Problem::whole(rules::UNREPLAYED).of_kind(Kind::NotReplayed));
                }
            }
            warnings.extend(runs.loose_mark.map(loose_mark));
            return Ok(());
        }
        if self.no_validate {
            // The moves as their text claims them, nothing resolved.
            game.variant = Variant::Tenjiku(TVariant { validated: false });
            if !self.seen.is_empty() {
                warnings.push(Problem::whole(rules::UNREPLAYED).of_kind(Kind::NotReplayed));
            }
            let mut claims = std::mem::take(&mut self.seen)
                .into_iter()
                .map(|s| Ply::Claimed(s.written));
            return fill(&mut game.moves, &mut claims).ok_or_else(mismatch);
        }
        let mut board = self.board.clone();
        let mut index = 0;
        let mut moves = Vec::with_capacity(self.seen.len());
        let mut loose = None;
        rules::walk(&game.moves, &mut board, &mut |b, ply| {
            let seen = self.seen.get(index).ok_or_else(mismatch)?;
            index += 1;
            let (mv, wrong) = self.resolve(b, ply, seen)?;
            if wrong && loose.is_none() {
                loose = Some(self.places.at(seen.span.0));
            }
            moves.push(mv);
            Ok(mv)
        })?;
        warnings.extend(loose.map(loose_mark));
        let mut moves = moves.into_iter().map(Ply::Move);
        fill(&mut game.moves, &mut moves).ok_or_else(mismatch)
    }
}

impl container::Runs for Reader<'_> {
    fn start_position(&self) -> Option<Setup> {
        None
    }

    fn run(
        &mut self,
        plies: Vec<IrPly>,
        _from: &Option<Setup>,
        _depth: usize,
    ) -> Result<(Game, Option<Setup>), Problem> {
        let Some(runs) = self.runs.as_mut() else {
            return Err(Problem::whole("a run of a record read whole").of_kind(Kind::Internal));
        };
        runs.ran = true;
        let mut run = Game::new(Variant::Tenjiku(TVariant {
            validated: !self.no_validate,
        }));
        run.moves.plies = plies;
        let n = run.moves.ply_count();
        runs.moves += n;
        let seen: Vec<Seen> = self.seen.drain(..n.min(self.seen.len())).collect();
        if self.no_validate {
            let mut claims = seen.into_iter().map(|s| Ply::Claimed(s.written));
            fill(&mut run.moves, &mut claims).ok_or_else(mismatch)?;
            return Ok((run, None));
        }
        let cell = runs.lines;
        let mut lines = cell.borrow_mut();
        let top = lines.top()?;
        let mut board = top
            .pos
            .take()
            .ok_or_else(|| Problem::whole("a run with no position").of_kind(Kind::Internal))?;
        // The run starts where the last one left: its setup, from which
        // it is spelled and drawn.
        let side = run.moves.plies.first().map_or(Side::Black, |p| p.side);
        run.setup = Some(Setup::Tenjiku(board.fen(side)));
        let mut index = 0;
        let mut moves = Vec::with_capacity(n);
        let mut loose = None;
        let mut resolve = |b: &Board, ply: &IrPly| -> Result<TMove, Problem> {
            let seen = seen.get(index).ok_or_else(mismatch)?;
            index += 1;
            let (mv, wrong) = self.resolve(b, ply, seen)?;
            if wrong && loose.is_none() {
                loose = Some(self.places.at(seen.span.0));
            }
            moves.push(mv);
            Ok(mv)
        };
        // The board before the last ply is kept: a variation of it starts
        // there.
        let mut last = crate::ir::Line {
            plies: run.moves.plies.pop().into_iter().collect(),
            ..crate::ir::Line::default()
        };
        rules::walk(&run.moves, &mut board, &mut resolve)?;
        top.before_last = Some(board.clone());
        rules::walk(&last, &mut board, &mut resolve)?;
        run.moves.plies.append(&mut last.plies);
        top.pos = Some(board);
        drop(lines);
        let mut moves = moves.into_iter().map(Ply::Move);
        fill(&mut run.moves, &mut moves).ok_or_else(mismatch)?;
        if let Some(runs) = self.runs.as_mut() {
            runs.loose_mark = runs.loose_mark.or(loose);
        }
        Ok((run, None))
    }
}

/// Puts the moves (resolved or claimed) into the plies, in the walk's
/// order.
fn fill(line: &mut crate::ir::Line, moves: &mut impl Iterator<Item = Ply>) -> Option<()> {
    for ply in &mut line.plies {
        ply.mv = Move::Tenjiku(moves.next()?);
        for v in &mut ply.variations {
            fill(v, moves)?;
        }
    }
    Some(())
}

const PLACEHOLDER: TMove = TMove {
    piece: Piece::plain(crate::family::tenjiku::Kind::Pawn),
    from: Square::ONE_A,
    via: None,
    to: Square::ONE_A,
    promote: false,
};

/// The error of a reader whose moves and plies do not pair up (a bug).
fn mismatch() -> Problem {
    Problem::whole("move count mismatch").of_kind(Kind::Internal)
}

/// Decodes one move, which the grammar has matched; squares and pieces are
/// checked here, each error at its place.
fn decode(mv: &MoveText<'_, Rule>) -> Result<Claim, Problem> {
    let text = mv.text();
    let b = text.as_bytes();
    let mut w = Claim::default();
    // Igui (`x!7d`), and the squares moved to with whether `x` came before
    // each.
    let mut igui = None;
    let mut to: Vec<(bool, Square)> = Vec::new();
    let mut i = 0;
    let err = |at: usize, msg: String| Problem::at(mv.pos(at), msg).of_kind(Kind::Syntax);
    let square_at = |i: usize| -> Result<(Square, usize), Problem> {
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let mut end = i + digits;
        let mut chars = text[end..].chars();
        match chars.next() {
            Some('十') => {
                end += '十'.len_utf8();
                if let Some(c) = chars
                    .next()
                    .filter(|c| crate::family::tenjiku::KANJI[..9].contains(c))
                {
                    end += c.len_utf8();
                }
            }
            Some(c) => end += c.len_utf8(),
            None => {}
        }
        Square::parse(&text[i..end])
            .map(|s| (s, end))
            .map_err(|e| err(i, e))
    };
    // The piece, if one is named.
    if !b[0].is_ascii_digit() {
        let mut end = usize::from(b[0] == b'+');
        while end < b.len()
            && b[end].is_ascii_alphabetic()
            && !(b[end] == b'x'
                && b.get(end + 1)
                    .is_some_and(|c| c.is_ascii_digit() || *c == b'!'))
        {
            end += 1;
        }
        let name = &text[..end];
        w.piece = Some(Piece::parse(name).ok_or_else(|| err(0, unknown_piece(name)))?);
        i = end;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
    }
    // The origin, where a square comes before the first `-` or `x`.
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        let (s, end) = square_at(i)?;
        w.from = Some(s);
        i = end;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
    }
    // The parts: `-7d`, `x7d`, `x!7d`, and a burn count `x!5`.
    while i < b.len() {
        match &b[i..] {
            [b'x', b'!', ..] => {
                let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
                let after = b.get(i + 2 + digits);
                if after.is_none_or(|c| matches!(c, b'+' | b'=' | b'*')) {
                    if digits == 0 {
                        w.burns = true;
                    } else {
                        let n = text[i + 2..i + 2 + digits].parse().unwrap_or(u32::MAX);
                        w.burned = Some(n);
                    }
                    i += 2 + digits;
                } else {
                    if igui.is_some() {
                        return Err(err(i, "igui (`x!`) is the only part of its move".into()));
                    }
                    let (s, end) = square_at(i + 2)?;
                    // After the move's squares, a square a fire demon
                    // burns; else igui.
                    if to.is_empty() {
                        igui = Some(s);
                    } else {
                        w.burned_at.push(s);
                    }
                    i = end;
                }
            }
            [c @ (b'-' | b'x'), ..] => {
                if igui.is_some() {
                    return Err(err(i, "igui (`x!`) is the only part of its move".into()));
                }
                if to.len() == 2 {
                    return Err(err(i, "a move stops on two squares at most".into()));
                }
                if !w.burned_at.is_empty() || w.promote.is_some() {
                    return Err(err(
                        i,
                        "a move's squares come before its promotion and burns".into(),
                    ));
                }
                let (s, end) = square_at(i + 1)?;
                to.push((*c == b'x', s));
                i = end;
            }
            [b'+', ..] => {
                w.promote = Some(true);
                i += 1;
            }
            [b'=', ..] => {
                w.promote = Some(false);
                i += 1;
            }
            [b'*', ..] => {
                w.suicide = true;
                i += 1;
            }
            _ => {
                return Err(err(
                    i,
                    format!("{} is not part of a move", crate::error::quote(&text[i..])),
                ))
            }
        }
    }
    match (igui, to.as_slice()) {
        (Some(v), _) => w.via = Some(v),
        (None, [(x, t)]) => (w.capture, w.to) = (*x, Some(*t)),
        (None, [(vx, v), (x, t)]) => {
            (w.via_capture, w.via) = (*vx, Some(*v));
            (w.capture, w.to) = (*x, Some(*t));
        }
        // The grammar has a part in every move.
        _ => return Err(err(0, "a move names the square it goes to".into())),
    }
    Ok(w)
}

/// Reads one record by the walk ([`crate::codec::StreamFn`], the one entry
/// point of the registry's reader): into the game ([`Visit::Game`], the
/// whole read, [`read`]), or a run at a time ([`Visit::Runs`]).
pub fn walk(text: &str, opts: &ReadOptions, visit: Visit<'_>) -> Result<Option<Parsed>, Problem> {
    crate::codec::walk_with(text, opts, visit, read, stream)
}

/// Reads one record: every move resolved on the board, or, with
/// `--no-validate`, kept as its text claims it.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let mut reader = Reader::new(text, opts, None);
    let parse = |t| TenjikuParser::parse(Rule::record, t);
    container::read_record(text, opts, Some(LEXING), parse, &mut reader)
}

/// The length of a Hodges move at the start of `b`, as `tj_move` reads it
/// (its choices tried in order, each repetition as long as it goes, as a
/// PEG does): a piece (letters up to an `x` that a digit or `!` follows,
/// after a `+`), blanks, an origin square and blanks; or an origin square
/// alone; then a part (`-7d`, `x7d`, `x!7d`), more parts, promotions and
/// burns, a `*`, and no letter, digit or move sign after it. `None` for
/// anything else, and wherever a byte that is not ASCII is met (a kanji
/// rank: the grammar reads the record).
fn tj_len(b: &[u8]) -> Option<usize> {
    let digits = |i: usize| {
        b.get(i..)
            .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
    };
    // `tj_square`: digits and a rank letter; `Err` at a byte that is not
    // ASCII, where a kanji may be.
    let square = |i: usize| -> Result<Option<usize>, ()> {
        let d = digits(i);
        if d == 0 {
            return Ok(None);
        }
        match b.get(i + d) {
            Some(c) if !c.is_ascii() => Err(()),
            Some(c) if c.is_ascii_lowercase() => Ok(Some(i + d + 1)),
            _ => Ok(None),
        }
    };
    let gap = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    // `tj_part`: `x!` and a square, or `-` or `x` and a square.
    let part = |i: usize| -> Result<Option<usize>, ()> {
        if b.get(i..).is_some_and(|r| r.starts_with(b"x!")) {
            if let Some(j) = square(i + 2)? {
                return Ok(Some(j));
            }
        }
        match b.get(i) {
            Some(b'-' | b'x') => square(i + 1),
            _ => Ok(None),
        }
    };
    // `tj_burn`: `x!`, digits, and no letter (nor kanji) after them.
    let burn = |i: usize| -> Result<Option<usize>, ()> {
        if !b.get(i..).is_some_and(|r| r.starts_with(b"x!")) {
            return Ok(None);
        }
        let j = i + 2 + digits(i + 2);
        match b.get(j) {
            Some(c) if !c.is_ascii() => Err(()),
            Some(c) if c.is_ascii_alphabetic() => Ok(None),
            _ => Ok(Some(j)),
        }
    };
    let len = || -> Result<Option<usize>, ()> {
        // The piece: `+`, then letters up to an `x` that a digit or `!`
        // follows.
        let mut i = usize::from(b.first() == Some(&b'+'));
        let letters = i;
        while b.get(i).is_some_and(u8::is_ascii_alphabetic)
            && !(b[i] == b'x'
                && b.get(i + 1)
                    .is_some_and(|&c| c.is_ascii_digit() || c == b'!'))
        {
            i += 1;
        }
        let mut i = if i > letters {
            let i = gap(i);
            match square(i)? {
                Some(j) => gap(j),
                None => i,
            }
        } else {
            match square(0)? {
                Some(j) => j,
                None => return Ok(None),
            }
        };
        let Some(j) = part(i)? else {
            return Ok(None);
        };
        i = j;
        loop {
            if let Some(j) = part(i)? {
                i = j;
            } else if matches!(b.get(i), Some(b'+' | b'=')) {
                i += 1;
            } else if let Some(j) = burn(i)? {
                i = j;
            } else {
                break;
            }
        }
        if b.get(i) == Some(&b'*') {
            i += 1;
        }
        // `tj_end`: no letter, digit or move sign follows.
        let ends = match b.get(i) {
            None => true,
            Some(c) if !c.is_ascii() => return Err(()),
            Some(&c) => !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'=' | b'*')),
        };
        Ok(ends.then_some(i))
    };
    len().ok().flatten()
}

/// What the fast lexer needs to read tenjiku.
const LEXING: container::fast::Lexing = container::fast::Lexing { move_len: tj_len };

/// Whether the fast lexer reads this record (else the grammar does).
pub fn lexed_fast(text: &str) -> bool {
    container::fast::lex::<Rule>(text, LEXING, &DIALECT).is_some()
}

/// Reads one record a run at a time ([`crate::codec::StreamFn`]): its
/// moves resolved a run at a time on the board the last run left, kept
/// typed ([`container::kept::OpenLines`]); each run's setup is the
/// position before it, from which it is spelled and drawn. `Ok(None)`
/// where the fast lexer does not take the record.
fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(crate::codec::Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    let lines = std::cell::RefCell::new(container::kept::OpenLines::new(None));
    let replaying = Replaying {
        lines: &lines,
        ran: false,
        moves: 0,
        loose_mark: None,
    };
    let mut reader = Reader::new(text, opts, Some(replaying));
    let mut follow = |piece: crate::codec::Piece<'_>| {
        lines.borrow_mut().follow(&piece);
        each(piece)
    };
    container::stream_record(text, opts, LEXING, &mut reader, &mut follow)
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[
        FormatOption {
            name: "abbreviations",
            sides: Sides::Write,
            values: Values::OneOf(&Abbreviations::NAMES),
            default: "tsa",
            help: "the piece abbreviations written (tsa: FiD GGn SE; wikipedia: FD GG SE; pbem: Fi GG SE); every set is read",
        },
        FormatOption {
            name: "coordinates",
            sides: Sides::Write,
            values: Values::OneOf(&["western", "japanese"]),
            default: "western",
            help: "ranks as letters (2c) or as kanji numerals (2三); both are read",
        },
        FormatOption {
            name: "long",
            sides: Sides::Write,
            values: Values::OneOf(&["no", "yes"]),
            default: "no",
            help: "write every move's origin (FiD6h-7e), not only where another piece could make the move",
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "abbreviations" => {
                self.pieces = Abbreviations::named(value).ok_or_else(|| {
                    format!(
                        "abbreviations {value} is not tsa, wikipedia or pbem",
                        value = crate::error::quote(value)
                    )
                })?
            }
            "coordinates" => {
                self.japanese = match value {
                    "western" => false,
                    "japanese" => true,
                    _ => {
                        return Err(format!(
                            "coordinates {value} is not western or japanese",
                            value = crate::error::quote(value)
                        ))
                    }
                }
            }
            "long" => {
                self.long = match value {
                    "no" => false,
                    "yes" => true,
                    _ => {
                        return Err(format!(
                            "long {value} is not yes or no",
                            value = crate::error::quote(value)
                        ))
                    }
                }
            }
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// Writes one game: each move spelled on the board, or, in a game not
/// replayed, as its text claimed it (with a warning where `long=yes` asks
/// for an origin that the text does not give).
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game a run at a time ([`crate::codec::RunsFn`]).
pub fn runs(opts: &WriteOptions) -> Box<dyn crate::codec::RunWriter> {
    let options = opts.format.get::<Options>().copied().unwrap_or_default();
    container::notated::runs(Written {
        options,
        without_origin: 0,
    })
}

/// Hodges' notation written with its options ([`container::notated`]).
struct Written {
    options: Options,
    /// The moves not replayed written without the origin that `long=yes`
    /// asks for.
    without_origin: usize,
}

/// The error of a game of another family.
fn tenjiku_only(game: &Game) -> Result<(), Problem> {
    if game.family() == Family::Tenjiku {
        return Ok(());
    }
    Err(game.family().cannot_be_written_as("tenjiku"))
}

impl container::notated::Notated for Written {
    const DIALECT: &'static Dialect = &DIALECT;

    fn style(&self) -> Style {
        Style {
            glyphs_as_nags: false,
            layout: Layout::Paragraph,
        }
    }

    fn tags<'g>(&self, game: &'g Game) -> Result<Cow<'g, [Tag]>, Problem> {
        tenjiku_only(game)?;
        Ok(Cow::Owned(render_tags(game)))
    }

    fn spell(&mut self, run: &Game) -> Result<spell::Spelled, Problem> {
        tenjiku_only(run)?;
        // Every move spelled, in the order the container writes them: on
        // the board, or (a game not replayed) as its text claimed it.
        let spelled = spell::spelled::<Hodges>(run, &self.options, Lines::All)?;
        if self.options.long && !rules::replayed(run) {
            self.without_origin += crate::family::hooks::plies_in_order(&run.moves)
                .into_iter()
                .filter_map(|ply| ply.mv.as_tenjiku().and_then(|p| p.claimed().ok()))
                .filter(|c| c.from.is_none())
                .count();
        }
        Ok(spelled)
    }

    fn said(self) -> Vec<Problem> {
        let n = self.without_origin;
        if n == 0 {
            return Vec::new();
        }
        vec![Problem::whole(format!(
            "long=yes: {n} move{} not replayed (--no-validate) written without the origin, \
             which the text does not give",
            if n == 1 { "" } else { "s" }
        ))
        .of_kind(Kind::OriginUnknown)]
    }
}

/// Hodges' notation ([`crate::spell`]): a move spelled on the board before
/// it ([`spell()`]), or, in a game not replayed, as its text claimed it
/// ([`spell_claim`]), in the options' abbreviations and coordinates.
pub struct Hodges;

impl Spell for Hodges {
    type Replay = super::hooks::Positions;
    type Options = Options;

    fn spell_ply(
        options: &Options,
        board: Option<&Board>,
        ply: &IrPly,
        out: &mut String,
    ) -> Result<(), Problem> {
        let labelled = |e: String| {
            Problem::whole(format!("{} {e}", ply.label(Side::Black))).of_kind(Kind::CannotWrite)
        };
        let p = ply
            .mv
            .of(Family::Tenjiku, Move::as_tenjiku)
            .map_err(labelled)?;
        match board {
            Some(b) => spell(b, ply.side, p.replayed().map_err(labelled)?, options, out),
            None => {
                let claim = p
                    .claimed()
                    .and_then(|c| c.check().map(|()| c))
                    .map_err(labelled)?;
                spell_claim(claim, options, out);
            }
        }
        Ok(())
    }
}

/// The game's tags, with `FEN` (and `SetUp`) saying what its setup says: a
/// FEN tag that gives the same position is kept as written, one that
/// differs gets the setup's, a missing one is added (after `SetUp "1"`),
/// and one without a setup is dropped with its `SetUp`.
fn render_tags(game: &Game) -> Vec<Tag> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    match game.setup.as_ref().and_then(Setup::as_tenjiku) {
        Some(fen) => back_fen(
            &mut tags,
            Some((
                &|v| rules::parse_fen(v).is_ok_and(|(b, side)| b.fen(side) == *fen),
                &|| fen.clone(),
            )),
        ),
        None => back_fen(&mut tags, None),
    }
    tags.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<TenjikuParser, _>(
            &crate::ir::result::PGN_RESULTS,
            Rule::result,
        );
    }
}
