//! `pgn`: chess in standard algebraic notation (PGN import and export
//! format). Every game is replayed by the rules: each written move resolves
//! to one legal move, and the writer spells it canonically.

use crate::codec::Visit;
use pest::Parser;

use crate::codec::{Parsed, ReadOptions, RunWriter, WriteOptions};
use crate::container::fast::{self, Lexing};
use crate::container::{self, Count, MoveText, Notation, Start, Style};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Setup, Variant};
use crate::family::chess::hooks::ply_of;
use crate::family::chess::rules::{self as rules, Written};
use crate::family::chess::sllavcco;
use crate::family::chess::{Board as ChessBoard, Check, Ply as CPly, Role, Spelling, Square, Wing};
use crate::family::dialect::{Dialect, Layout};
use crate::family::spell::Lines;
use crate::family::spell::{Replay as _, Spell};
use crate::ir::{Comment, Game, Ply as IrPly, Tag};

/// The pest parser: the container, the chess family and SAN.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/chess.pest"]
    #[grammar = "grammars/pgn.pest"]
    pub struct PgnParser;

    container_rules!(Rule, pgn_move, |_| "a move");
}
use crate::family::chess::DIALECT;
use grammar::{PgnParser, Rule};

/// A move as written, where it was, and the check it claimed.
struct Seen {
    written: Written,
    check: Check,
    span: (usize, usize),
}

impl std::borrow::Borrow<Written> for Seen {
    fn borrow(&self) -> &Written {
        &self.written
    }
}

impl rules::WrittenMove for Seen {
    fn claimed_check(&self) -> Check {
        self.check
    }
}

struct Pgn<'t, 'o> {
    text: &'t str,
    opts: &'o ReadOptions,
    board: ChessBoard,
    start: rules::Position,
    /// The moves as written, in the order of the text (the replay's).
    seen: Vec<Seen>,
    /// Where the first pawn capture written without `x` is, if any.
    loose_capture: Option<usize>,
    /// Moves written as captures that capture nothing (`Nxf3`).
    false_captures: Count,
    /// Castling written in lower case (`o-o`).
    lower_castles: Count,
    /// Check or mate signs on moves that give no check, or no mate
    /// (`Nf3+`, `Qxf7#` where the king can escape).
    false_checks: Count,
    /// Whether any move was read (a game read a run at a time has read
    /// its moves before [`Notation::finish`]).
    moves_read: bool,
}

/// The warning of a game with pawn captures written without `x`.
const LOOSE_CAPTURE: &str = "a pawn capture written without `x` (`cd5`) was read as that capture";

impl Notation for Pgn<'_, '_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let (board, fen, pos, repaired) =
            rules::start(tags).map_err(|(p, tag)| p.placed(at(tag)))?;
        let warnings = repaired
            .map(|r| Problem::at(at("FEN"), r).of_kind(Kind::FenRepair))
            .into_iter()
            .collect();
        self.board = board;
        if self.opts.no_validate {
            // As [`Pgn::settle`] leaves it: the head's board is the end's.
            self.board.validated = false;
        }
        let to_move = pos.side_to_move();
        let number = fen.is_some().then(|| pos.fullmove_number());
        self.start = pos;
        Ok(Start {
            variant: Variant::Chess(self.board),
            to_move: fen.as_ref().map(|_| to_move),
            setup: fen.map(|fen| Setup::Chess(rules::Fen::Text(fen))),
            number,
            warnings,
        })
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        let span = (mv.offset(), mv.offset() + mv.text().len());
        let (mut written, check) = decode(mv.text());
        if mv.text().starts_with('o') {
            self.lower_castles.add(span.0);
        }
        // `cd5`: a pawn with its file of departure and no `x` captures.
        if let Written::San {
            role: Role::Pawn,
            file: Some(file),
            rank: None,
            capture: capture @ false,
            to,
            ..
        } = &mut written
        {
            if *file == to.file() {
                return Err(Problem::at(
                    mv.pos(0),
                    format!(
                        "{}: a pawn move with its own file written twice",
                        crate::error::quote(mv.text())
                    ),
                )
                .of_kind(Kind::Syntax));
            }
            *capture = true;
            self.loose_capture.get_or_insert(span.0);
        }
        self.seen.push(Seen {
            written,
            check,
            span,
        });
        self.moves_read = true;
        // A placeholder: `finish` puts the resolved move here.
        Ok(Move::Chess(CPly::Null))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if let Some(at) = self.loose_capture {
            warnings.push(
                Problem::at(crate::codec::line_col(self.text, at), LOOSE_CAPTURE)
                    .of_kind(Kind::PawnCaptureWithoutX),
            );
        }
        if self.opts.no_validate && self.moves_read {
            warnings.push(Problem::whole(rules::UNREPLAYED).of_kind(Kind::NotReplayed));
        }
        self.settle(game, self.start, self.seen.len())?;
        // What a transcription checker must hear, though every reader
        // mends it: one warning a kind, counted.
        let said: [(&Count, &str, Kind); 3] = [
            (
                &self.false_captures,
                "a move written as a capture (`x`) captures nothing: read as the move",
                Kind::CaptureMark,
            ),
            (
                &self.lower_castles,
                "castling written in lower case (`o-o`) was read as `O-O`",
                Kind::LowerCaseCastling,
            ),
            (
                &self.false_checks,
                "a move written with a check or mate sign (`+`, `#`) gives no check, or no mate: read as the move",
                Kind::CheckMark,
            ),
        ];
        for (count, what, kind) in said {
            if count.n > 0 {
                warnings.push(count.said(self.text, what).of_kind(kind));
            }
        }
        Ok(())
    }
}

impl container::Runs for Pgn<'_, '_> {
    fn start_position(&self) -> Option<Setup> {
        (!self.opts.no_validate).then_some(Setup::Chess(rules::Fen::Board(self.start)))
    }

    fn head_settled(&self) -> bool {
        // The tags decide the board and the setup.
        true
    }

    fn run(
        &mut self,
        plies: Vec<IrPly>,
        from: &Option<Setup>,
        _depth: usize,
    ) -> Result<(Game, Option<Setup>), Problem> {
        let mut run = Game::new(Variant::Chess(self.board));
        run.moves.plies = plies;
        let moves = run.moves.ply_count();
        if moves > self.seen.len() {
            return Err(mismatch());
        }
        let start = match from {
            Some(Setup::Chess(fen)) if !self.opts.no_validate => fen
                .position()
                .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?,
            _ => self.start,
        };
        let after = self.settle(&mut run, start, moves)?;
        self.seen.drain(..moves);
        if self.opts.no_validate {
            return Ok((run, None));
        }
        run.setup = Some(Setup::Chess(rules::Fen::Board(start)));
        Ok((
            run,
            after.map(|after| Setup::Chess(rules::Fen::Board(after))),
        ))
    }
}

impl Pgn<'_, '_> {
    /// Puts the first `moves` moves read into the game's plies: each
    /// resolved on the board from `start`, or as written (not replayed).
    /// Returns the position after the main line's plies, where replayed.
    fn settle(
        &mut self,
        game: &mut Game,
        start: rules::Position,
        moves: usize,
    ) -> Result<Option<rules::Position>, Problem> {
        let chess960 = self.board.chess960;
        let seen = &self.seen[..moves];
        if self.opts.no_validate {
            self.board.validated = false;
            game.variant = Variant::Chess(self.board);
            // The moves as their text claims them.
            let mut seen = seen.iter().enumerate();
            return rules::fill(&mut game.moves, &mut |ply| {
                let (k, s) = seen.next().ok_or_else(mismatch)?;
                rules::as_written(&s.written, s.check, ply.side)
                    .map_err(|e| self.problem(k, ply, None, &e))
            })
            .map(|()| None);
        }
        // Every move resolved on the board, in the order it was written.
        // Each move resolved said as it comes: a capture mark on a move
        // that captures nothing, a check sign on one that gives none (a
        // sign short of what the move gives, `+` on a mate, stays quiet,
        // as a missing one does).
        let mut resolved = Vec::with_capacity(moves);
        let (false_captures, false_checks) = (&mut self.false_captures, &mut self.false_checks);
        let after = rules::Replay::start(&game.moves, Some(start), chess960)
            .resolve(seen, |step| {
                let s = &seen[resolved.len()];
                if matches!(s.written, Written::San { capture: true, .. })
                    && matches!(step.mv, CPly::Move(m) if !m.capture)
                {
                    false_captures.add(s.span.0);
                }
                let gives = step.spelling.check;
                let false_check = match s.check {
                    Check::None => false,
                    Check::Mate => gives != Check::Mate,
                    _ => gives == Check::None,
                };
                if false_check {
                    false_checks.add(s.span.0);
                }
                resolved.push(step.mv);
            })
            .map_err(|stop| self.problem(stop.index, stop.ply, stop.position, &stop.why))?;
        let mut resolved = resolved.into_iter();
        rules::fill(&mut game.moves, &mut |_| resolved.next().ok_or(()))
            .map_err(|()| mismatch())?;
        Ok(after)
    }
}

/// The error of a reader whose moves and plies do not pair up (a bug).
fn mismatch() -> Problem {
    Problem::whole("move count mismatch").of_kind(Kind::Internal)
}

impl Pgn<'_, '_> {
    /// The error of the `index`-th move written: where, which, why, and in
    /// which position.
    fn problem(
        &self,
        index: usize,
        ply: &crate::ir::Ply,
        position: Option<String>,
        why: &str,
    ) -> Problem {
        let seen = &self.seen[index];
        let pos = crate::codec::line_col(self.text, seen.span.0);
        let text = &self.text[seen.span.0..seen.span.1];
        let number = ply.label(crate::ir::Side::White);
        let fen = position.map_or(String::new(), |p| format!(" (position: {p})"));
        Problem::at(pos, format!("{number} {text}: {why}{fen}")).of_kind(Kind::IllegalMove)
    }
}

/// Decodes the text of one move, which the grammar has checked: SAN, long
/// algebraic or coordinates, castling or a null move, with its check sign.
fn decode(text: &str) -> (Written, Check) {
    let (body, check) = if let Some(b) = text.strip_suffix("++") {
        (b, Check::Double)
    } else if let Some(b) = text.strip_suffix('#') {
        (b, Check::Mate)
    } else if let Some(b) = text.strip_suffix('+') {
        (b, Check::Check)
    } else {
        (text, Check::None)
    };
    // `exf6 e.p.`, `exf6e.p.`, `bxa6ep`: the rules know an en passant
    // capture without its suffix (only a pawn move has one, as the grammar
    // reads it).
    let body = match body
        .strip_suffix("e.p.")
        .or_else(|| body.strip_suffix("ep"))
    {
        Some(b) => b.trim_end_matches(' '),
        None => body,
    };
    let b = body.as_bytes();
    let written = match b.first() {
        Some(b'O' | b'0' | b'o') => Written::Castle(if b.len() >= 5 {
            Wing::Queen
        } else {
            Wing::King
        }),
        Some(b'-' | b'Z') => Written::Null,
        _ => {
            let (role, rest) = match b.first().and_then(|&c| c.is_ascii_uppercase().then_some(c)) {
                Some(c) => (
                    Role::from_letter(char::from(c)).unwrap_or(Role::Pawn),
                    &b[1..],
                ),
                None => (Role::Pawn, b),
            };
            // The forms nearly every move has, read at once (the loop below
            // reads them the same way).
            let at = |f: u8, r: u8| Square::new(f - b'a', r - b'1');
            let san = |file, rank, capture, to| Written::San {
                role,
                file,
                rank,
                capture,
                to,
                promotion: None,
            };
            match *rest {
                [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                    return (san(None, None, false, at(f, r)), check)
                }
                [b'x' | b':', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                    return (san(None, None, true, at(f, r)), check)
                }
                [d @ b'a'..=b'h', b'x' | b':', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                    return (san(Some(d - b'a'), None, true, at(f, r)), check)
                }
                [d @ b'a'..=b'h', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                    return (san(Some(d - b'a'), None, false, at(f, r)), check)
                }
                _ => {}
            }
            // Files, ranks and the promotion letter, in order; `e.p.` and
            // separators carry nothing the rules do not derive.
            let mut coords: [(u8, u8); 4] = [(0, 0); 4];
            let mut n = 0;
            let mut capture = false;
            let mut promotion = None;
            let mut i = 0;
            while i < rest.len() {
                match rest[i] {
                    c @ b'a'..=b'h' if n < 4 => {
                        coords[n] = (b'f', c - b'a');
                        n += 1;
                    }
                    c @ b'1'..=b'8' if n < 4 => {
                        coords[n] = (b'r', c - b'1');
                        n += 1;
                    }
                    b'x' | b':' => capture = true,
                    b' ' => break, // ` e.p.`
                    c @ (b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'b' | b'n') => {
                        promotion = Role::from_letter(char::from(c));
                    }
                    _ => {}
                }
                i += 1;
            }
            let sq = |k: usize| Square::new(coords[k].1, coords[k + 1].1);
            let full_from = n == 4 && coords[0].0 == b'f' && coords[1].0 == b'r';
            if full_from {
                // Long algebraic or coordinates: the squares say it all.
                Written::Uci {
                    from: sq(0),
                    to: sq(2),
                    promotion,
                }
            } else {
                let to = sq(n - 2);
                let (mut file, mut rank) = (None, None);
                for &(kind, v) in &coords[..n - 2] {
                    if kind == b'f' {
                        file = Some(v);
                    } else {
                        rank = Some(v);
                    }
                }
                Written::San {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion,
                }
            }
        }
    };
    (written, check)
}

/// The length of a move at the start of `b`, with its check sign, if it is
/// SAN that `pgn_move` reads as exactly that text when a space, comment,
/// glyph, NAG or parenthesis follows: `e4`, `exd5`, `e8=Q`, `e8Q`, `Nf3`,
/// `Nbd2`, `R1e2`, `Qh4e1`, `Nxf3`, `O-O`, `0-0-0`, `o-o`, and the null
/// moves `--` (unless it ends the record) and `Z0`. Anything else (long algebraic, coordinates, `:`,
/// `e.p.`) is left to the grammar.
fn san_len(b: &[u8]) -> Option<usize> {
    let file = |i: usize| matches!(b.get(i), Some(b'a'..=b'h'));
    let rank = |i: usize| matches!(b.get(i), Some(b'1'..=b'8'));
    let square = |i: usize| file(i) && rank(i + 1);
    let promotion = |i: usize| matches!(b.get(i), Some(b'Q' | b'R' | b'B' | b'N'));
    let mut i = match b.first()? {
        b'a'..=b'h' => {
            let mut i = if rank(1) {
                2
            } else if b.get(1) == Some(&b'x') && square(2) {
                4
            } else {
                return None;
            };
            if b.get(i) == Some(&b'=') && promotion(i + 1) {
                i += 2;
            } else if promotion(i) {
                i += 1;
            }
            let rest = &b[i..];
            let rest = rest.strip_prefix(b" ").unwrap_or(rest);
            if rest.starts_with(b"e.p.") || rest.starts_with(b"ep") {
                return None;
            }
            i
        }
        b'K' | b'Q' | b'R' | b'B' | b'N' => {
            let mut j = 1;
            while matches!(b.get(j), Some(b'a'..=b'h' | b'1'..=b'8' | b'x')) {
                j += 1;
            }
            let x = |i: usize| b.get(i) == Some(&b'x');
            let one = |i: usize| file(i) || rank(i);
            let known = match j - 1 {
                2 => square(1),
                3 => (x(1) || one(1)) && square(2),
                4 => (one(1) && x(2) && square(3)) || (square(1) && square(3)),
                5 => square(1) && x(3) && square(4),
                _ => false,
            };
            if !known {
                return None;
            }
            j
        }
        b'O' | b'0' | b'o' => {
            let c = b[0];
            let castle = [c, b'-', c, b'-', c];
            if b.starts_with(&castle) {
                5
            } else if b.starts_with(&castle[..3]) {
                3
            } else {
                return None;
            }
        }
        // `--` ending the movetext is a placeholder result (pgn.pest).
        b'-' if b.starts_with(b"--") && !b[2..].iter().all(|&c| fast::is_space(c)) => 2,
        b'Z' if b.starts_with(b"Z0") => 2,
        _ => return None,
    };
    if b[i..].starts_with(b"++") {
        i += 2;
    } else if matches!(b.get(i), Some(b'+' | b'#')) {
        i += 1;
    }
    Some(i)
}

/// What the fast lexer needs to read pgn.
const LEXING: Lexing = Lexing { move_len: san_len };

/// Whether the fast lexer reads this record (otherwise the grammar does).
pub fn lexed_fast(text: &str) -> bool {
    fast::lex::<Rule>(text, LEXING, &DIALECT).is_some()
}

thread_local! {
    /// The moves as written of the last record a thread read, kept for the
    /// next: one allocation a thread instead of a large one a record.
    static SEEN: std::cell::Cell<Vec<Seen>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The most moves as written a thread keeps between records (a record of
/// more gets its own).
const SEEN_KEPT: usize = 1 << 14;

impl Pgn<'_, '_> {
    /// Gives the thread its vector of moves as written back, unless it
    /// grew too large to keep.
    fn done(self) {
        if self.seen.capacity() <= SEEN_KEPT {
            SEEN.set(self.seen);
        }
    }
}

/// The reader of one record, with the thread's vector of moves as
/// written.
fn reader<'t, 'o>(text: &'t str, opts: &'o ReadOptions, moves: usize) -> Pgn<'t, 'o> {
    let mut seen = SEEN.take();
    seen.clear();
    seen.reserve(moves);
    Pgn {
        text,
        opts,
        board: ChessBoard::STANDARD,
        start: rules::Position::start(),
        seen,
        loose_capture: None,
        false_captures: Count::default(),
        lower_castles: Count::default(),
        false_checks: Count::default(),
        moves_read: false,
    }
}

/// Reads one record a run at a time ([`Visit::Runs`]).
fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(crate::codec::Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    let mut pgn = reader(text, opts, 0);
    let read = container::stream_record(text, opts, LEXING, &mut pgn, each);
    pgn.done();
    read
}

/// Reads one record into a game ([`walk`]'s visitor that builds it): as
/// written, or, where it fails at a move whose piece letter is another
/// language's (`Sf3`), with its piece letters read as English ones
/// (`localized`).
fn read_game(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let failed = match read_written(text, opts) {
        Err(e) => e,
        ok => return ok,
    };
    // (Each language whose letters could be the movetext's, in turn: `R`
    // is a rook in English and a king in French or Spanish.)
    for (english, said) in localized(text, &failed) {
        if let Ok(mut parsed) = read_written(&english, opts) {
            parsed.warnings.insert(0, said);
            return Ok(parsed);
        }
    }
    Err(failed)
}

/// The piece letters of the languages a PGN may be written in besides
/// English, as the scoresheet's `pieces` option names them
/// ([`sllavcco::Pieces::parse`]), in the order they are tried.
const LANGUAGES: [(&str, &str); 4] = [
    ("de", "German"),
    ("nl", "Dutch"),
    ("fr", "French"),
    ("es", "Spanish or Italian"),
];

/// A record that failed at a move spelled with another language's piece
/// letters (`Sf3`, `Lb5`, `Te1`, `Dd8`: German; `Re2`, a French king),
/// its movetext with every piece letter read as English (`Nf3`, `Bb5`,
/// `Re1`, `Qd8`; `Ke2`), and the warning that says so (counted): one for
/// each of [`LANGUAGES`], in order, whose letters are all the piece
/// letters the movetext uses and read some of them otherwise than
/// English does; none when the failure is at no piece letter. Tags and
/// comments keep their text; every line keeps its length.
#[cold]
fn localized(text: &str, failed: &Problem) -> Vec<(String, Problem)> {
    let mut found = Vec::new();
    let Some(first) = failed.token_in(text).and_then(|t| t.chars().next()) else {
        return found;
    };
    if !first.is_ascii_uppercase() || first == 'O' {
        return found;
    }
    // The uppercase letters of the movetext's tokens.
    let b = text.as_bytes();
    let mut used = [false; 26];
    movetext_letters(b, |i| used[usize::from(b[i] - b'A')] = true);
    let english = sllavcco::Pieces::ENGLISH;
    for (code, name) in LANGUAGES {
        let Ok(sllavcco::Pieces::Letters(set)) = sllavcco::Pieces::parse(code) else {
            continue;
        };
        let covers =
            (0..26u8).all(|k| !used[usize::from(k)] || set.contains(&char::from(b'A' + k)));
        if !covers {
            continue;
        }
        let mut fixed = b.to_vec();
        let mut count = Count::default();
        // (Nothing read otherwise: the record as it failed.)
        movetext_letters(b, |i| {
            if let Some(k) = set.iter().position(|&c| c == char::from(b[i])) {
                let role = sllavcco::Pieces::Letters(set).role(set[k]);
                if let Some(role) = role {
                    let letter = english.symbol(role, crate::ir::Side::White) as u8;
                    if letter != b[i] {
                        count.add(i);
                    }
                    fixed[i] = letter;
                }
            }
        });
        if count.n == 0 {
            continue;
        }
        let Ok(fixed) = String::from_utf8(fixed) else {
            continue;
        };
        let letters: String = set.iter().map(|c| format!("{c} ")).collect();
        let said = count
            .said(
                text,
                &format!(
                    "piece letters of another language ({name}: {}) were read as English ones (K Q R B N)",
                    letters.trim_end()
                ),
            )
            .of_kind(Kind::LocalizedPieces);
        found.push((fixed, said));
    }
    found
}

/// Calls `each` at every uppercase ASCII letter of a record's movetext
/// tokens: outside tags, comments, escape lines and NAGs; never the `O`
/// of castling.
fn movetext_letters(b: &[u8], mut each: impl FnMut(usize)) {
    let n = b.len();
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(n, |k| i + k);
    let mut i = 0;
    while i < n {
        match b[i] {
            b'[' => i = memchr::memchr2(b']', b'\n', &b[i..]).map_or(n, |k| i + k + 1),
            b'{' => i = memchr::memchr(b'}', &b[i..]).map_or(n, |k| i + k + 1),
            b';' => i = line_end(i),
            b'%' if i == 0 || matches!(b[i - 1], b'\n' | b'\r') => i = line_end(i),
            c => {
                if c.is_ascii_uppercase() && c != b'O' {
                    each(i);
                }
                i += 1;
            }
        }
    }
}

/// Reads one record as written.
fn read_written(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    // About one move in eight bytes of a record.
    let mut pgn = reader(text, opts, text.len() / 8);
    let parse = |t| PgnParser::parse(Rule::record, t);
    let read = container::read_record(text, opts, Some(LEXING), parse, &mut pgn);
    pgn.done();
    // A game of a variant kifu does not play (crazyhouse's `N@f3`) fails
    // for its variant, not for the first move the grammar cannot read;
    // without a Variant tag, a drop says what it is.
    read.map_err(|e| {
        unplayed_variant(text)
            .or_else(|| drop_move(text, &e))
            .unwrap_or(e)
    })
}

/// The refusal of a drop (`N@f3`, `@e4`) where a record failed at one:
/// a move of crazyhouse and its kin, which kifu does not play.
#[cold]
fn drop_move(text: &str, e: &Problem) -> Option<Problem> {
    let token = e.token_in(text)?;
    let square = |b: &[u8]| matches!(b, [f, r, ..] if (b'a'..=b'h').contains(f) && (b'1'..=b'8').contains(r));
    let drop = match token.as_bytes() {
        [b'@', rest @ ..] => square(rest),
        [p, b'@', rest @ ..] => b"PNBRQK".contains(p) && square(rest),
        _ => false,
    };
    drop.then(|| {
        Problem::at(
            (e.line, e.col),
            format!(
                "{} is a drop (a captured piece put back on the board), a move of \
                 crazyhouse and its kin: kifu plays standard chess and Chess960 only",
                crate::error::quote(&token)
            ),
        )
        .of_kind(Kind::VariantUnplayed)
    })
}

/// The refusal of a record's Variant tag, when it names a variant kifu
/// does not play (read only after the record failed).
#[cold]
fn unplayed_variant(text: &str) -> Option<Problem> {
    let at = text.match_indices('[').map(|(i, _)| i).find(|&i| {
        text[i + 1..]
            .trim_start()
            .get(..8)
            .is_some_and(|n| n.eq_ignore_ascii_case("variant "))
    })?;
    let rest = &text[at..];
    let open = rest.find('"')?;
    let close = open + 1 + rest[open + 1..].find('"')?;
    let tag = crate::ir::Tag::new("Variant", &rest[open + 1..close]);
    match rules::start(&[tag]) {
        Err((p, _)) => Some(p.placed(crate::codec::line_col(text, at))),
        Ok(_) => None,
    }
}

/// The seven-tag roster with its placeholders, which PGN export format
/// requires in every game.
const ROSTER_DEFAULTS: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes one game in PGN export format.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game in PGN export format a run at a time ([`RunsFn`]).
///
/// [`RunsFn`]: crate::codec::RunsFn
pub fn runs(_opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(PgnWriter { movetext: None })
}

const STYLE: Style = Style {
    glyphs_as_nags: true,
    layout: Layout::Paragraph,
};

/// A game being written in PGN export format.
struct PgnWriter {
    movetext: Option<container::Movetext>,
}

/// The error of a game of another family.
fn not_chess(game: &Game) -> Problem {
    game.family().cannot_be_written_as("pgn")
}

/// The tags PGN export format writes: the game's, with the seven-tag
/// roster completed.
fn export_tags(game: &Game) -> std::borrow::Cow<'_, [Tag]> {
    let missing = ROSTER_DEFAULTS
        .iter()
        .filter(|(name, _)| game.tag(name).is_none())
        .map(|&(name, value)| match name {
            "Result" => Tag::new(name, game.effective_result().token()),
            _ => Tag::new(name, value),
        });
    let mut tags = super::tags::render(game);
    for tag in missing {
        tags.to_mut().push(tag);
    }
    tags
}

impl PgnWriter {
    /// The game's movetext, begun when not yet.
    fn movetext(&mut self, game: &Game) -> &mut container::Movetext {
        self.movetext.get_or_insert_with(|| {
            container::Movetext::new(game.variant.first_mover(), &DIALECT, STYLE)
        })
    }
}

impl RunWriter for PgnWriter {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        if game.family() != crate::family::any::Family::Chess {
            return Err(not_chess(game));
        }
        let tags = export_tags(game);
        self.movetext(game).head(game, &tags, out)
    }

    fn begin(&mut self, head: &Game, out: &mut String) -> Result<(), Problem> {
        // The head needs the result only for a Result tag it adds.
        if head.tag("Result").is_some() {
            self.head(head, out)?;
        }
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        if run.family() != crate::family::any::Family::Chess {
            return Err(not_chess(run));
        }
        let movetext = self.movetext(run);
        // What the replay says of each move where it stands (a few bytes a
        // ply), in the order the container writes them: each move is spelled
        // from it where the container writes it.
        let mut spellings = Vec::with_capacity(run.moves.plies.len());
        super::hooks::Positions::walk(run, Lines::All, |_, spelling| {
            spellings.push(spelling);
            Ok(())
        })?;
        let mut spellings = spellings.into_iter();
        movetext.plies(&run.moves.plies, out, |ply, buf| {
            let spelling = spellings
                .next()
                .ok_or_else(|| Problem::whole(LOST).of_kind(Kind::Internal))?;
            San::spell_ply(&(), spelling, ply, buf)
        })?;
        if spellings.next().is_some() {
            return Err(Problem::whole(LOST).of_kind(Kind::Internal));
        }
        Ok(())
    }

    fn open(&mut self, out: &mut String) -> Result<(), Problem> {
        container::Movetext::open_in(self.movetext.as_mut(), out)
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        container::Movetext::close_in(self.movetext.as_mut(), trailing, out)
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if game.family() != crate::family::any::Family::Chess {
            return Err(not_chess(game));
        }
        self.movetext(game);
        let movetext = self.movetext.take().expect("begun above");
        movetext.end(game, || export_tags(game), &DIALECT, head, out)
    }
}

/// The error of a writer whose plies and spellings do not pair up (a bug).
const LOST: &str = "the replay lost its place in the game";

/// Standard algebraic notation, as PGN writes it ([`crate::spell`]):
/// `Nbd2`, `exd5`, `O-O`, `e8=Q#`, `--` for a null move.
pub struct San;

impl Spell for San {
    type Replay = super::hooks::Positions;
    type Options = ();

    #[inline]
    fn spell_ply(_: &(), spelling: Spelling, ply: &IrPly, out: &mut String) -> Result<(), Problem> {
        crate::family::chess::spell(
            ply_of(&ply.mv).map_err(|e| Problem::whole(e).of_kind(Kind::WrongFamily))?,
            spelling,
            out,
        );
        Ok(())
    }
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

    fn roundtrip(text: &str) -> String {
        let parsed = read(text, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
        let mut out = String::new();
        write(&parsed.game, &WriteOptions::default(), &mut out).unwrap();
        out
    }

    #[test]
    fn every_san_form_is_read_and_written_canonically() {
        let out = roundtrip("1. e2e4 e7e5 2. Ng1f3 Nb8c6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0 *");
        assert!(
            out.ends_with("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O *\n"),
            "{out}"
        );
        let out =
            roundtrip("[FEN \"4k3/P7/8/8/8/5N2/8/1N2K3 w - - 0 40\"]\n\n40. Nbd2 Kf7 41. a8Q *");
        assert!(out.contains("40. Nbd2 Kf7 41. a8=Q *"), "{out}");
    }

    #[test]
    fn illegal_and_ambiguous_moves_name_the_move_and_position() {
        let e = read("1. e4 e5 2. Ke3 *", &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 13));
        assert!(e.message.starts_with("2. Ke3: illegal move (position: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"), "{}", e.message);
        let e = read(
            "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *",
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(e.message.contains("ambiguous"), "{}", e.message);
    }

    #[test]
    fn variations_replay_from_their_parent_position() {
        let out = roundtrip("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 *");
        assert!(
            out.contains("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 *"),
            "{out}"
        );
    }
}

#[cfg(test)]
mod dialect_tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<PgnParser, _>(&crate::family::chess::RESULTS, Rule::result);
    }
}
