//! `draughts-diag`: PDN with the diagonal coordinates of seed 002.
//!
//! A square is a letter line and a digit line: with the board seen from
//! White, column `c` and row `r` from 1, digit `(c + r) / 2` and letter
//! `(c - r + height) / 2`. Digit 10 is written `0`. Canonical moves are the
//! most compact form; boards over 10 rows write every square in full.

use crate::codec::Visit;
use pest::Parser;

use crate::codec::{Parsed, ReadOptions, WriteOptions};
use crate::container::fast::Lexing;
use crate::container::{self, MoveText, Notation, Start};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Setup};
use crate::family::dialect::Dialect;
use crate::family::draughts::pdn::{self as draughts, BoardChoice};
use crate::family::draughts::{Board, Move as DMove, Path, DIALECT};
use crate::family::spell::Spell;
use crate::ir::{Game, Ply, Tag};

/// The pest parser: the container, the draughts family and this notation.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/draughts.pest"]
    #[grammar = "grammars/draughts_diag.pest"]
    pub struct DiagParser;

    container_rules!(Rule, ddiag_move, |_| "a move");
}
use grammar::{DiagParser, Rule};

struct Diag<'o, 't> {
    opts: &'o ReadOptions,
    /// The record, to locate a move that cannot be played.
    text: &'t str,
    board: Board,
    /// Where each move was written (offset and length), in reading order.
    spans: draughts::Spans,
    /// The game's setup, where its main line starts when it is read a run
    /// at a time.
    setup: Option<Setup>,
    /// Runs were read ([`container::Runs`]): every move was judged in its
    /// run.
    runs: bool,
    /// The movetext was read to its end ([`container::Runs::movetext_read`]):
    /// no run follows from the runs still to come.
    read_through: bool,
}

impl Notation for Diag<'_, '_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let (BoardChoice { board, assumed }, mut start) =
            draughts::start(tags, at, self.opts, false)?;
        if !board.has_diagonal() {
            return Err(Problem::at(at("GameType"), no_diagonal(&board)).of_kind(Kind::TagValue));
        }
        if assumed {
            // Diagonal coordinates name squares only on a known board: no
            // inference from them, but no silent assumption either.
            start.warnings.push(
                Problem::whole(
                    "no GameType tag: diagonal coordinates read on the international 10x10 board \
                 (name the board with --variant)",
                )
                .of_kind(Kind::BoardAssumed),
            );
        }
        self.board = board;
        self.setup = start.setup.clone();
        Ok(start)
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        let spot = mv.spot();
        let written = mv.text();
        self.spans.push(mv.offset(), written.len());
        let form = form_of(written.as_bytes())
            .filter(|&(_, len)| len == written.len())
            .map(|(form, _)| form)
            .ok_or_else(|| Problem::at(spot.pos(), "unknown move form").of_kind(Kind::Syntax))?;
        // Each form is a text the grammar (or [`form_of`]) has checked:
        // decode it by position. Letters count from `a` = 1; digit 0 is 10.
        let b = written.as_bytes();
        let letter = |c: u8| i32::from(c - b'a') + 1;
        let digit = |c: u8| match c - b'0' {
            0 => 10,
            d => i32::from(d),
        };
        let pairs_of = |b: &[u8]| -> Vec<(i32, i32)> {
            b.chunks_exact(2)
                .map(|c| (letter(c[0]), digit(c[1])))
                .collect()
        };
        let (coords, capture) = match form {
            Form::Full => {
                let capture = written.contains(['x', ':']);
                let coords = written
                    .split(['-', 'x', ':'])
                    .map(|sq| {
                        let d = match sq[1..].parse::<i32>() {
                            Ok(0) => 10,
                            Ok(d) => d,
                            Err(_) => 0,
                        };
                        (letter(sq.as_bytes()[0]), d)
                    })
                    .collect();
                (coords, capture)
            }
            Form::SquaresX => (pairs_of(&b[..b.len() - 1]), true),
            Form::Two => (pairs_of(b), false),
            Form::OneX => {
                let sq = (letter(b[0]), digit(b[1]));
                (vec![sq, sq], true)
            }
            Form::LetterLine => {
                let l = letter(b[0]);
                (vec![(l, digit(b[1])), (l, digit(b[2]))], b.len() > 3)
            }
            Form::DigitLine => {
                let d = digit(b[2]);
                (vec![(letter(b[0]), d), (letter(b[1]), d)], b.len() > 3)
            }
        };
        let mut path = Path::new();
        for (l, d) in coords {
            let sq = self.board.from_diag(l, d).ok_or_else(|| {
                Problem::at(
                    spot.pos(),
                    format!(
                        "{} is not a square of the {}x{} board",
                        coord_text(&self.board, l, d),
                        self.board.width,
                        self.board.height
                    ),
                )
                .of_kind(Kind::OffBoard)
            })?;
            path.push(sq);
        }
        let mv = DMove { path, capture };
        mv.check_shape().map_err(|e| {
            Problem::at(
                spot.pos(),
                format!("{written}: {e}", written = crate::error::quote(written)),
            )
            .of_kind(Kind::Syntax)
        })?;
        Ok(Move::Draughts(mv))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if self.runs {
            // Every move was judged in its run.
            if self.opts.no_validate {
                warnings.push(Problem::whole(draughts::UNREPLAYED).of_kind(Kind::NotReplayed));
            }
            return Ok(());
        }
        draughts::judge(game, self.text, &self.spans, self.opts, warnings)
    }
}

impl container::Runs for Diag<'_, '_> {
    fn start_position(&self) -> Option<Setup> {
        self.setup.clone()
    }

    fn head_settled(&self) -> bool {
        // The tags decide the board (or it is assumed): the moves never.
        true
    }

    fn movetext_read(&mut self) {
        self.read_through = true;
    }

    fn run(
        &mut self,
        plies: Vec<Ply>,
        from: &Option<Setup>,
        _depth: usize,
    ) -> Result<(Game, Option<Setup>), Problem> {
        self.runs = true;
        draughts::replayed_run(
            self.board,
            plies,
            from,
            self.text,
            &mut self.spans,
            self.opts,
            !self.read_through,
        )
    }
}

/// A form of a move in diagonal coordinates: the rule of
/// `grammars/draughts_diag.pest` that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `ddiag_full`: squares joined by `-`, `x` or `:` (`f11-g11`).
    Full,
    /// `ddiag_squares_x`: a capture with its squares (`e8g6x`).
    SquaresX,
    /// `ddiag_two`: two squares (`f4f5`).
    Two,
    /// `ddiag_letter_line`: along a letter line (`f45`, `f46x`).
    LetterLine,
    /// `ddiag_digit_line`: along a digit line (`gf5`, `eg8x`).
    DigitLine,
    /// `ddiag_one_x`: a capture ending where it began (`f6x`).
    OneX,
}

/// The form of the move at the start of `b` and its length, as the
/// grammar's `ddiag_move` reads it (its forms tried in its order, each
/// repetition as long as it goes, as a PEG does); `None` where none reads.
fn form_of(b: &[u8]) -> Option<(Form, usize)> {
    let letter = |i: usize| b.get(i).is_some_and(|c| (b'a'..=b'w').contains(c));
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let x = |i: usize| b.get(i) == Some(&b'x');
    // A square of the full form: a letter and one or two digits.
    let square = |i: usize| -> Option<usize> {
        if !(letter(i) && digit(i + 1)) {
            return None;
        }
        Some(if digit(i + 2) { i + 3 } else { i + 2 })
    };
    if let Some(mut i) = square(0) {
        let mut squares = 1;
        while matches!(b.get(i), Some(b'-' | b'x' | b':')) {
            match square(i + 1) {
                Some(j) => {
                    i = j;
                    squares += 1;
                }
                None => break,
            }
        }
        if squares > 1 {
            return Some((Form::Full, i));
        }
    }
    // A compact square: a letter and one digit.
    let csq = |i: usize| letter(i) && digit(i + 1);
    if csq(0) && csq(2) {
        let mut i = 4;
        while csq(i) {
            i += 2;
        }
        if x(i) {
            return Some((Form::SquaresX, i + 1));
        }
        return Some((Form::Two, 4));
    }
    if letter(0) && digit(1) && digit(2) {
        return Some((Form::LetterLine, 3 + usize::from(x(3))));
    }
    if letter(0) && letter(1) && digit(2) {
        return Some((Form::DigitLine, 3 + usize::from(x(3))));
    }
    if csq(0) && x(2) {
        return Some((Form::OneX, 3));
    }
    None
}

/// What the fast lexer needs to read draughts-diag.
const LEXING: Lexing = Lexing {
    move_len: |b| form_of(b).map(|(_, len)| len),
};

fn no_diagonal(board: &Board) -> String {
    format!(
        "diagonal coordinates need a board whose bottom left corner is a playing square, \
         whose height is even and whose width and height add up to 48 at most (letters a-w); \
         GameType {} is not one",
        board.game_type_string()
    )
}

/// A square as the notation spells it (digit 10 is `0` up to 10 rows).
fn coord_text(board: &Board, letter: i32, digit: i32) -> String {
    let l = u8::try_from(letter + i32::from(b'a') - 1).map_or('?', char::from);
    if digit == 10 && board.diag_compact() {
        format!("{l}0")
    } else {
        format!("{l}{digit}")
    }
}

/// Reads one record into a game ([`walk`]'s visitor that builds it).
fn read_game(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let parse = |t| DiagParser::parse(Rule::record, t);
    let Some((lifted, setups)) = draughts::lift_setups(text) else {
        let mut diag = diag(text, opts);
        return container::read_record(text, opts, Some(LEXING), parse, &mut diag);
    };
    // Position setups in the movetext: read by a reader of their own.
    let quiet = setups.options(opts);
    let inner_opts = quiet.as_ref().unwrap_or(opts);
    let mut reader = draughts::WithSetups {
        inner: diag(&lifted, inner_opts),
        setups: &setups,
        replayed: !opts.no_validate,
    };
    container::read_record(&lifted, inner_opts, Some(LEXING), parse, &mut reader)
}

/// Reads one record a run at a time ([`crate::codec::StreamFn`]): a record
/// whose movetext holds no position setups.
fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(crate::codec::Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    if draughts::lift_setups(text).is_some() {
        return Ok(None);
    }
    let mut reader = diag(text, opts);
    container::stream_record(text, opts, LEXING, &mut reader, each)
}

/// Whether the fast lexer reads this record (otherwise the grammar does).
pub fn lexed_fast(text: &str) -> bool {
    container::fast::lex::<Rule>(text, LEXING, &DIALECT).is_some()
}

/// The reader of one record.
fn diag<'o, 't>(text: &'t str, opts: &'o ReadOptions) -> Diag<'o, 't> {
    Diag {
        opts,
        text,
        board: Board::INTERNATIONAL,
        spans: draughts::Spans::new(),
        setup: None,
        runs: false,
        read_through: false,
    }
}

/// Writes one game.
pub fn write(game: &Game, _opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    draughts::write_game::<Diagonal>(game, "draughts-diag", diagonal, out)
}

/// Whether a board has diagonal coordinates (the error says why not).
fn diagonal(board: &Board) -> Result<(), Problem> {
    if board.has_diagonal() {
        Ok(())
    } else {
        Err(Problem::whole(no_diagonal(board)).of_kind(Kind::CannotWrite))
    }
}

/// The writer of draughts-diag a run at a time
/// ([`crate::codec::RunsFn`]).
pub fn runs(_opts: &WriteOptions) -> Box<dyn crate::codec::RunWriter> {
    draughts::runs::<Diagonal>("draughts-diag", diagonal)
}

/// Diagonal coordinates ([`crate::spell`]), each move in its most compact
/// form (`f45`, `gf5`, `e8g6x`).
pub struct Diagonal;

impl Spell for Diagonal {
    type Replay = super::hooks::Positions;
    type Options = ();

    fn spell_ply(_: &(), board: &Board, ply: &Ply, out: &mut String) -> Result<(), Problem> {
        if !board.has_diagonal() {
            return Err(Problem::whole(no_diagonal(board)).of_kind(Kind::CannotWrite));
        }
        spell(
            board,
            crate::family::draughts::hooks::draughts_move(&ply.mv)?,
            out,
        )
    }
}

/// Spells one move in its canonical (most compact) form.
fn spell(board: &Board, m: &DMove, buf: &mut String) -> Result<(), Problem> {
    let mut coords: smallvec::SmallVec<[(u8, u8); 8]> = smallvec::SmallVec::new();
    for &sq in &m.path {
        coords.push(board.diag(sq).ok_or_else(|| {
            Problem::whole(format!(
                "square {} is not on the {}x{} board",
                sq.0, board.width, board.height
            ))
            .of_kind(Kind::CannotWrite)
        })?);
    }
    m.check_shape().map_err(|e| {
        Problem::whole(format!("{}: {e}", crate::error::quote(&m.key()))).of_kind(Kind::CannotWrite)
    })?;
    let compact = board.diag_compact();
    let letter = |l: u8| char::from(b'a' + l - 1);
    let digit = |d: u8, buf: &mut String| {
        if compact && d == 10 {
            buf.push('0');
        } else {
            crate::ir::push_number(buf, u32::from(d));
        }
    };
    let ((l1, d1), (l2, d2)) = (coords[0], coords[coords.len() - 1]);
    if compact && coords.len() == 2 {
        if m.capture && (l1, d1) == (l2, d2) {
            buf.push(letter(l1));
            digit(d1, buf);
            buf.push('x');
            return Ok(());
        }
        if l1 == l2 {
            buf.push(letter(l1));
            digit(d1, buf);
            digit(d2, buf);
            if m.capture {
                buf.push('x');
            }
            return Ok(());
        }
        if d1 == d2 {
            buf.push(letter(l1));
            buf.push(letter(l2));
            digit(d1, buf);
            if m.capture {
                buf.push('x');
            }
            return Ok(());
        }
    }
    if compact && m.capture {
        for &(l, d) in &coords {
            buf.push(letter(l));
            digit(d, buf);
        }
        buf.push('x');
        return Ok(());
    }
    // Full form: required over 10 rows, and for plain moves that leave every
    // line (which only a corrupt record has), so that nothing is lost.
    for (i, &(l, d)) in coords.iter().enumerate() {
        if i > 0 {
            buf.push(if m.capture { 'x' } else { '-' });
        }
        buf.push(letter(l));
        digit(d, buf);
    }
    Ok(())
}

/// Reads one record by the walk ([`crate::codec::StreamFn`], the one entry
/// point of the registry's reader): into the game ([`Visit::Game`]), or a
/// run at a time ([`Visit::Runs`]).
pub fn walk(text: &str, opts: &ReadOptions, visit: Visit<'_>) -> Result<Option<Parsed>, Problem> {
    crate::codec::walk_with(text, opts, visit, read_game, stream)
}

/// Reads one record into a game: [`walk`] with the visitor that builds it.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    crate::codec::built(walk(text, opts, Visit::Game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::draughts::Square;

    fn mv(path: &[u16], capture: bool) -> DMove {
        DMove {
            path: path.iter().map(|&n| Square(n)).collect(),
            capture,
        }
    }

    fn spelled(board: &Board, path: &[u16], capture: bool) -> String {
        let mut s = String::new();
        spell(board, &mv(path, capture), &mut s).unwrap();
        s
    }

    #[test]
    fn every_compact_form_of_the_seed() {
        let b = Board::INTERNATIONAL;
        assert_eq!(spelled(&b, &[38, 33], false), "f45");
        assert_eq!(spelled(&b, &[39, 33], false), "gf5");
        assert_eq!(spelled(&b, &[14, 34], true), "e8g6x");
        assert_eq!(spelled(&b, &[14, 25], true), "eg8x");
        assert_eq!(spelled(&b, &[38, 29], true), "f46x");
        assert_eq!(spelled(&b, &[29, 29], true), "f6x");
        assert_eq!(spelled(&b, &[14, 34, 45], true), "e8g6i6x");
    }

    #[test]
    fn canadian_squares_are_written_in_full() {
        let b = Board::preset(27).unwrap();
        let s = spelled(&b, &[1, 2], false);
        assert!(s.contains('-'), "{s}");
    }
}

#[cfg(test)]
mod dialect_tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<DiagParser, _>(
            &crate::family::draughts::RESULTS,
            Rule::result,
        );
    }
}
