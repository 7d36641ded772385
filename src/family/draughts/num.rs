//! `draughts-num`: PDN with numbered squares (PDN 3.0), and the alphanumeric
//! squares of the boards whose GameType says so.

use crate::codec::Visit;
use pest::Parser;

use crate::codec::{Parsed, ReadOptions, WriteOptions};
use crate::container::fast::{self, Lexing};
use crate::container::{self, MoveText, Notation, Start};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Setup, Variant};
use crate::family::dialect::Dialect;
use crate::family::draughts::hooks::position_of;
use crate::family::draughts::pdn::{self as draughts, alpha_board, BoardChoice, Inference};
use crate::family::draughts::rules::fen_is_alphanumeric;
use crate::family::draughts::{play, Board, Move as DMove, Path, Square, DIALECT, RESULTS};
use crate::family::spell::Spell;
use crate::ir::{find_tag, Game, Ply, Tag};

/// The pest parser: the container, the draughts family and this notation.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/draughts.pest"]
    #[grammar = "grammars/draughts_num.pest"]
    pub struct NumParser;

    container_rules!(Rule, dnum_move, |_| "a move");
}
use grammar::{NumParser, Rule};

struct Num<'o, 't> {
    opts: &'o ReadOptions,
    /// The record, to locate what [`Inference::settle`] reports.
    text: &'t str,
    choice: BoardChoice,
    alpha_seen: Option<(usize, usize)>,
    /// What the moves tell about a board no tag names.
    inference: Inference,
    /// Where the FEN tag is, when the board is inferred.
    fen_at: (usize, usize),
    /// Where each move was written (offset and length), in reading order.
    spans: draughts::Spans,
    /// The game's setup, where its main line starts when it is read a run
    /// at a time.
    setup: Option<Setup>,
    /// Runs were read ([`container::Runs`]): the record is read a run at a
    /// time.
    runs: bool,
    /// How a record read a run at a time whose board no tag names is read:
    /// at once, where its first run is its whole movetext, or first only
    /// to infer its board, then on that board.
    inferred: Inferred,
    /// The board the record is read on before its board is inferred (the
    /// whole game's, until [`Notation::finish`] settles it).
    read_on: Board,
    /// The movetext was read to its end ([`container::Runs::movetext_read`]).
    read_through: bool,
}

/// A board no tag names, for a record read a run at a time: the board is
/// known only from every move. Where the movetext ends before its first
/// run is cut (most records), that run is the whole main line: the board
/// is inferred from it and the game judged as a game read whole is, once.
/// Otherwise the record is read twice, first to find the board (its runs
/// dropped, the first two moves of its main line kept, which
/// [`Inference::settle`] weighs too), then on it.
#[derive(Default)]
enum Inferred {
    /// The board is named, or the record is read whole.
    #[default]
    No,
    /// The one run was the whole movetext: the board inferred from it, and
    /// the warnings of the game judged on it, said at the end.
    Once(Vec<Problem>),
    /// A run came before the board was known: the record is to be read
    /// twice.
    Needed,
    /// The first reading: the first moves of the main line so far.
    Finding(Vec<Ply>),
    /// The second: the board found, and the warning that says so.
    Found(Board, Option<Problem>),
}

impl Notation for Num<'_, '_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let (choice, mut start) = draughts::start(tags, at, self.opts, true)?;
        self.choice = choice;
        self.read_on = choice.board;
        self.setup = start.setup.clone();
        if let (true, Inferred::Found(board, _)) = (choice.assumed, &self.inferred) {
            // Read on the board the first reading found.
            self.choice = BoardChoice {
                board: *board,
                assumed: false,
            };
            start.variant = Variant::Draughts(*board);
            return Ok(start);
        }
        let fen = find_tag(tags, "FEN").map(|i| tags[i].value.as_str());
        if choice.assumed && fen.is_some_and(fen_is_alphanumeric) {
            // Alphanumeric squares in the FEN tag: read as the moves' would
            // be ([`draughts::settle_alpha`]).
            self.alpha_seen = Some(at("FEN"));
            self.choice.board = alpha_board(self.choice.board);
        } else if let (true, Some(pos)) = (choice.assumed, position_of(&start.setup)) {
            self.inference.add_setup(pos);
            self.fen_at = at("FEN");
        }
        Ok(start)
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        // The grammar matched `square (sep square)+` or two alphanumeric
        // squares; split the text at the separators.
        let text = mv.text();
        self.spans.push(mv.offset(), text.len());
        let bytes = text.as_bytes();
        let mut path = Path::new();
        let mut capture = false;
        let mut i = 0;
        // Where a square is due, `x` is the file of a board over 23 columns
        // wide (`w6xx5`), not a capture.
        let mut square_due = true;
        while i < bytes.len() {
            match bytes[i] {
                b' ' => i += 1,
                b'-' => {
                    square_due = true;
                    i += 1;
                }
                b'x' | b'X' | b':' if !square_due => {
                    capture = true;
                    square_due = true;
                    i += 1;
                }
                b => {
                    square_due = false;
                    let start = i;
                    let alpha = b.is_ascii_alphabetic();
                    i += usize::from(alpha);
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    if alpha && self.choice.assumed && self.alpha_seen.is_none() {
                        self.alpha_seen = Some(mv.pos(start));
                        self.choice.board = alpha_board(self.choice.board);
                    }
                    // A board no tag names is inferred from the numbers:
                    // read them on the largest board kifu infers.
                    let inferring = self.choice.assumed && self.alpha_seen.is_none();
                    let board = if inferring {
                        &Board::CANADIAN
                    } else {
                        &self.choice.board
                    };
                    let sq = board.parse_square(&text[start..i]).map_err(|e| {
                        let e = if inferring { e + draughts::UNNAMED } else { e };
                        Problem::at(mv.pos(start), e).of_kind(Kind::OffBoard)
                    })?;
                    path.push(sq);
                }
            }
        }
        let m = DMove { path, capture };
        m.check_shape().map_err(|e| {
            Problem::at(mv.pos(0), format!("{}: {e}", crate::error::quote(text)))
                .of_kind(Kind::Syntax)
        })?;
        if self.choice.assumed && self.alpha_seen.is_none() {
            self.inference.add_move(&m.path, capture, mv.offset());
        }
        Ok(Move::Draughts(m))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if self.runs {
            // Every move was judged in its run; the board inferred is said
            // where a game read whole says it.
            match &mut self.inferred {
                Inferred::Found(_, said) => {
                    if let Some(said) = said.take() {
                        warnings.push(said.of_kind(Kind::BoardInferred));
                    }
                }
                Inferred::Once(said) => {
                    // (What judging the whole game said, no-validate's
                    // warning included.)
                    warnings.append(said);
                    game.variant = Variant::Draughts(self.choice.board);
                    return Ok(());
                }
                _ => {}
            }
            if self.opts.no_validate {
                warnings.push(Problem::whole(draughts::UNREPLAYED).of_kind(Kind::NotReplayed));
            }
            return Ok(());
        }
        if let Some(pos) = self.alpha_seen {
            game.variant = Variant::Draughts(self.choice.board);
            warnings.push(draughts::settle_alpha(game, pos)?);
        } else if self.choice.assumed {
            let inference = std::mem::take(&mut self.inference);
            let settled = inference.settle(game, self.text, self.fen_at)?;
            return draughts::judge_inferred(
                game,
                self.text,
                &self.spans,
                self.opts,
                warnings,
                settled,
            );
        }
        draughts::judge(game, self.text, &self.spans, self.opts, warnings)
    }
}

impl container::Runs for Num<'_, '_> {
    fn start_position(&self) -> Option<Setup> {
        self.setup.clone()
    }

    fn head_settled(&self) -> bool {
        // A board no tag names is known from the moves.
        !self.choice.assumed
    }

    fn settle_head(&mut self, head: &mut Game) -> bool {
        // The board inferred from the one run (as `finish` puts it in).
        let once = matches!(self.inferred, Inferred::Once(_));
        if once {
            head.variant = Variant::Draughts(self.choice.board);
        }
        once
    }

    fn movetext_read(&mut self) {
        self.read_through = true;
    }

    fn run(
        &mut self,
        plies: Vec<Ply>,
        from: &Option<Setup>,
        depth: usize,
    ) -> Result<(Game, Option<Setup>), Problem> {
        let first = !std::mem::replace(&mut self.runs, true);
        // A board no tag names is known only from the whole game's squares:
        // the first reading keeps the main line's first two moves alone.
        if let Inferred::Finding(first) = &mut self.inferred {
            if depth == 0 {
                for ply in plies.iter().take(2 - first.len().min(2)) {
                    let mut bare = ply.clone();
                    bare.variations.clear();
                    first.push(bare);
                }
            }
            let mut run = Game::new(Variant::Draughts(self.choice.board));
            run.moves.plies = plies;
            self.spans.forget(run.moves.ply_count());
            return Ok((run, None));
        }
        if self.choice.assumed && self.read_through && first && self.alpha_seen.is_none() {
            return self.run_whole(plies);
        }
        if self.choice.assumed {
            self.inferred = Inferred::Needed;
            return Err(Problem::whole(
                "no GameType tag: the board is inferred from the whole game",
            )
            .of_kind(Kind::NotStreamed));
        }
        draughts::replayed_run(
            self.choice.board,
            plies,
            from,
            self.text,
            &mut self.spans,
            self.opts,
            !self.read_through,
        )
    }
}

impl Num<'_, '_> {
    /// The one run of a record whose board no tag names, read to its end
    /// before the run was cut: the whole main line, its board inferred and
    /// the game judged as [`Notation::finish`] does a game read whole.
    fn run_whole(&mut self, plies: Vec<Ply>) -> Result<(Game, Option<Setup>), Problem> {
        self.runs = true;
        let mut game = Game::new(Variant::Draughts(self.read_on));
        game.setup = self.setup.clone();
        game.moves.plies = plies;
        let inference = std::mem::take(&mut self.inference);
        let settled = inference.settle(&mut game, self.text, self.fen_at)?;
        let mut said = Vec::new();
        draughts::judge_inferred(
            &mut game,
            self.text,
            &self.spans,
            self.opts,
            &mut said,
            settled,
        )?;
        if let Some(&board) = game.variant.as_draughts() {
            self.choice.board = board;
        }
        self.inferred = Inferred::Once(said);
        Ok((game, None))
    }
}

/// The length of a numbered move at the start of `b`, as `dnum_move` reads
/// it: squares of one to three digits, or alphanumeric (a letter and one or
/// two digits: `c3`, `E3`, the Russian boards' and those written so),
/// joined by `-`, `x`, `X` or `:` with spaces after a separator (`32-28`,
/// `28x19x10`, `1- 6`, `c3-d4`, `e3xc5`, `w6xx5`); or two alphanumeric
/// squares side by side (`a3b4`), the grammar's second form. `None` where
/// the grammar may read something else: a square of more digits, a
/// separator with no square after it, a result spaced after its dash.
fn num_len(b: &[u8]) -> Option<usize> {
    // A square at `i` as `dnum_square` reads it; `None` also where a digit
    // follows the digits it takes (the grammar's repetition stops there,
    // and what it then reads is left to it).
    let square = |i: usize| {
        let first = *b.get(i)?;
        let (from, most) = if first.is_ascii_alphabetic() {
            (i + 1, 2)
        } else {
            (i, 3)
        };
        let digits = b
            .get(from..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (1..=most).contains(&digits).then_some(from + digits)
    };
    let mut i = square(0)?;
    let mut squares = 1;
    let mut spaced = false;
    while matches!(b.get(i), Some(b'-' | b'x' | b'X' | b':')) {
        // Spaces may follow a separator (`1- 6`, numbers aligned).
        i += 1;
        while b.get(i) == Some(&b' ') {
            i += 1;
            spaced = true;
        }
        i = square(i)?;
        squares += 1;
    }
    if squares == 1 && b[0].is_ascii_alphabetic() && b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        // `a3b4`: two alphanumeric squares, no separator (a letter after the
        // first is no separator here: `x` and `X` were tried as one).
        return square(i);
    }
    // `1- 1` is a result spaced after its dash, not a move.
    if spaced && fast::spaced_result(&b[..i], &RESULTS) {
        return None;
    }
    (squares >= 2).then_some(i)
}

/// What the fast lexer needs to read draughts-num.
const LEXING: Lexing = Lexing { move_len: num_len };

/// Whether the fast lexer reads this record (otherwise the grammar does).
pub fn lexed_fast(text: &str) -> bool {
    fast::lex::<Rule>(text, LEXING, &DIALECT).is_some()
}

/// Reads one record into a game ([`walk`]'s visitor that builds it).
fn read_game(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let read = read_plain(text, opts);
    // A record in Russian short notation is read by finding each move's
    // square of departure; where that cannot be done, it fails for its
    // notation, not for the first move the grammar cannot read.
    match read {
        Ok(parsed) => Ok(parsed),
        Err(e) => match short_notation(text, &e) {
            Some(refusal) => read_short(text, opts).map_err(|why| match why {
                Some(at_move) => at_move,
                None => refusal,
            }),
            None => Err(e),
        },
    }
}

/// The warning of a record read from Russian short notation.
const SHORT_READ: &str = "read from Russian short notation (`gf4`: the file moved from, then \
                          the square moved to): each move's square of departure was found by \
                          the rules";

/// Reads a record written in Russian short notation (`1. gf4 fe5`, `fb2` a
/// whole capture): its moves (short, or in full among them), move numbers,
/// comments, variations, NAGs and a result. Each move's square of
/// departure is the one piece of its file that can go to its square, the
/// moves after it settling a move that several could make
/// ([`play::resolve_short`]); the record is then read with the moves
/// written in full (`g3-f4`, `f2:b2`), and says so in a warning. Without a
/// GameType tag the board is Russian draughts', as the record read in full
/// says. The error is `Some` where a move can be found by no piece or by
/// several (at that move), `None` where the record is not in that notation.
///
/// [`play::resolve_short`]: crate::family::draughts::play::resolve_short
#[cold]
#[inline(never)]
fn read_short(text: &str, opts: &ReadOptions) -> Result<Parsed, Option<Problem>> {
    // The tags: the lines before the first that is neither a tag nor blank.
    let mut body = 0;
    let mut tags = Vec::new();
    let mut tag_at = Vec::new();
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if !(t.is_empty() || t.starts_with('[')) {
            break;
        }
        if let Some(inner) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if let Some((name, value)) = inner.split_once(' ') {
                let value = value.trim().trim_matches('"');
                tags.push(Tag::new(name.trim(), value));
                tag_at.push(body + (line.len() - line.trim_start().len()));
            }
        }
        body += line.len();
    }
    // A tag's place, for an error at it (its FEN off the board): the
    // record's own error, not the refusal of its notation.
    let tag_place = |name: &str| {
        let i = find_tag(&tags, name).map_or(0, |i| tag_at[i]);
        crate::codec::line_col(text, i)
    };
    let (choice, start) = draughts::start(&tags, &tag_place, opts, false).map_err(Some)?;
    // No GameType: the board short notation is written for.
    let board = if choice.assumed {
        Board::preset(draughts::ALPHA_8X8).ok_or(None)?
    } else {
        choice.board
    };
    if board.style != crate::family::draughts::SquareStyle::Alpha {
        return Err(None);
    }
    let first = start.to_move.unwrap_or(board.first);
    let (line, at) = short_moves(text, body, &board)?;
    let setup = match (choice.assumed, find_tag(&tags, "FEN")) {
        (true, Some(i)) => Some(
            crate::family::draughts::rules::parse_fen(&tags[i].value, &board)
                .map_err(|e| Some(Problem::at(tag_place("FEN"), e).of_kind(Kind::TagValue)))?,
        ),
        _ => crate::family::draughts::hooks::position_of(&start.setup).cloned(),
    };
    let found = play::resolve_short(&board, setup.as_ref(), first, &line, at.len()).map_err(
        |(i, why)| {
            let (o, len) = at[i];
            Some(
                Problem::at(
                    crate::codec::line_col(text, o),
                    format!(
                        "{} (Russian short notation): {why}",
                        crate::error::quote(&text[o..o + len])
                    ),
                )
                .of_kind(Kind::UnreadNotation),
            )
        },
    )?;
    // The record with every move written in full.
    let square = |sq: Square| {
        let (f, r) = board.alpha(sq).unwrap_or((1, 1));
        format!("{}{r}", char::from(b'a' + f - 1))
    };
    let mut full = String::with_capacity(text.len() + at.len() * 2);
    let mut last = 0;
    for (&(o, len), &(from, captured)) in at.iter().zip(&found) {
        let to = board
            .parse_square(&text[o + len - 2..o + len])
            .map_err(|_| None)?;
        full.push_str(&text[last..o]);
        full.push_str(&square(from));
        full.push(if captured { ':' } else { '-' });
        full.push_str(&square(to));
        last = o + len;
    }
    full.push_str(&text[last..]);
    let mut parsed = read_plain(&full, opts).map_err(|_| None)?;
    parsed
        .warnings
        .push(Problem::whole(SHORT_READ).of_kind(Kind::ShortNotation));
    Ok(parsed)
}

/// The moves of a record in Russian short notation ([`short_moves`]): the
/// main line, and where each move is written, by index.
type ShortMoves = (Vec<play::ShortMove>, Vec<(usize, usize)>);

/// The moves of a record's movetext (from `body`) in Russian short
/// notation, as the tree [`play::resolve_short`] resolves, and where each
/// is written (offset and length), by index. Comments (`{...}`, `;` to the
/// end of the line), NAGs (`$1`), move numbers, results and the marks
/// after a move (`gf4!?`) are passed over; `None` for anything else, or a
/// variation that replaces no move.
fn short_moves(text: &str, body: usize, board: &Board) -> Result<ShortMoves, Option<Problem>> {
    let b = text.as_bytes();
    let mut lines: Vec<Vec<play::ShortMove>> = vec![Vec::new()];
    let mut at = Vec::new();
    let mut i = body;
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    let square = |f: u8, r: u8| {
        let name = [f, r];
        let name = std::str::from_utf8(&name).unwrap_or_default();
        board.parse_square(name).map_err(|_| None)
    };
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'{' => i = memchr::memchr(b'}', &b[i..]).map_or(b.len(), |n| i + n + 1),
            b';' => i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n + 1),
            b'(' => {
                if lines.last().is_none_or(Vec::is_empty) {
                    return Err(None);
                }
                lines.push(Vec::new());
                i += 1;
            }
            b')' => {
                let line = lines.pop().filter(|l| !l.is_empty()).ok_or(None)?;
                let replaced = lines.last_mut().and_then(|l| l.last_mut()).ok_or(None)?;
                replaced.variations.push(line);
                i += 1;
            }
            b'$' => {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            // A `}` that closes no comment: not the plain short notation
            // this reads (and the loop below would not move past it).
            b'}' => return Err(None),
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"{}();".contains(&b[i]) {
                    i += 1;
                }
                let whole = text[start..i].trim_end_matches(['!', '?']);
                if RESULTS.is_token(whole.as_bytes()) {
                    continue;
                }
                // A move number (`12.`, `12...`), alone or glued to its move.
                let word = whole
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim_start_matches('.');
                if word.is_empty() {
                    continue;
                }
                let (f, from, to) = match *word.as_bytes() {
                    // Short: the file moved from, the square moved to.
                    [f, g, r] if file(f) && file(g) && rank(r) => (f, None, square(g, r)?),
                    // In full among them (`c3-d4`, `c3:e5`).
                    [f, r, b'-' | b':' | b'x', g, s]
                        if file(f) && rank(r) && file(g) && rank(s) =>
                    {
                        (f, Some(square(f, r)?), square(g, s)?)
                    }
                    _ => return Err(None),
                };
                let index = at.len();
                at.push((start + (whole.len() - word.len()), word.len()));
                lines.last_mut().ok_or(None)?.push(play::ShortMove {
                    file: f - b'a' + 1,
                    from,
                    to,
                    index,
                    variations: Vec::new(),
                });
            }
        }
    }
    match (lines.pop(), lines.is_empty()) {
        (Some(line), true) => Ok((line, at)),
        _ => Err(None),
    }
}

/// Reads one record as it is written.
fn read_plain(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    match draughts::lift_setups(text) {
        Some((lifted, setups)) => read_lifted(&lifted, opts, &setups),
        None => {
            let mut num = num(text, opts);
            let parse = |t| NumParser::parse(Rule::record, t);
            container::read_record(text, opts, Some(LEXING), parse, &mut num)
        }
    }
}

/// The refusal of Russian short notation (`gf4`: the file of the square
/// moved from, then the square moved to; `fb2` a whole capture) where a
/// record failed at such a move and [`read_short`] could not read it: kifu
/// reads that notation among moves, move numbers, comments, variations,
/// NAGs and a result, and this one holds something else among its moves.
#[cold]
fn short_notation(text: &str, e: &Problem) -> Option<Problem> {
    let token = e.token_in(text)?;
    let short = matches!(token.as_bytes(), [a, b, r] if (b'a'..=b'h').contains(a)
        && (b'a'..=b'h').contains(b) && (b'1'..=b'8').contains(r));
    short.then(|| {
        Problem::at(
            (e.line, e.col),
            format!(
                "{} is Russian short notation (the file of the square moved from, then \
                 the square moved to), which kifu reads among moves, move numbers, comments, \
                 variations, NAGs and a result, on an 8x8 board written a1-h8, and this \
                 record holds something else: elsewhere it reads squares written in full \
                 (c3-d4, c3:e5, or numbers such as 22-17)",
                crate::error::quote(&token)
            ),
        )
        .of_kind(Kind::UnreadNotation)
    })
}

/// The reader of one record.
fn num<'o, 't>(text: &'t str, opts: &'o ReadOptions) -> Num<'o, 't> {
    Num {
        opts,
        text,
        choice: BoardChoice {
            board: Board::INTERNATIONAL,
            assumed: true,
        },
        alpha_seen: None,
        inference: Inference::default(),
        fen_at: (1, 1),
        spans: draughts::Spans::new(),
        setup: None,
        runs: false,
        inferred: Inferred::No,
        read_on: Board::INTERNATIONAL,
        read_through: false,
    }
}

/// Reads one record a run at a time ([`crate::codec::StreamFn`]): a record
/// whose movetext holds no position setups. Where no tag names the board
/// (numbered squares), the record is first read to infer it, its runs
/// dropped, then read on it.
fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(crate::codec::Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    if draughts::lift_setups(text).is_some() {
        return Ok(None);
    }
    let mut reader = num(text, opts);
    let read = container::stream_record(text, opts, LEXING, &mut reader, each);
    if !matches!(reader.inferred, Inferred::Needed) {
        return read;
    }
    // The board no tag names, found from every move.
    let mut finding = num(text, opts);
    finding.inferred = Inferred::Finding(Vec::new());
    if container::stream_record(text, opts, LEXING, &mut finding, &mut |_| Ok(()))?.is_none()
        || finding.alpha_seen.is_some()
    {
        return Ok(None);
    }
    let Inferred::Finding(first) = std::mem::take(&mut finding.inferred) else {
        return Ok(None);
    };
    let mut opening = Game::new(Variant::Draughts(finding.choice.board));
    opening.setup = finding.setup.clone();
    opening.moves.plies = first;
    let said = std::mem::take(&mut finding.inference)
        .settle(&mut opening, text, finding.fen_at)?
        .warning;
    let Some(&board) = opening.variant.as_draughts() else {
        return Ok(None);
    };
    let mut reader = num(text, opts);
    reader.inferred = Inferred::Found(board, Some(said));
    container::stream_record(text, opts, LEXING, &mut reader, each)
}

/// The writer of draughts-num a run at a time
/// ([`crate::codec::RunsFn`]).
pub fn runs(_opts: &WriteOptions) -> Box<dyn crate::codec::RunWriter> {
    draughts::runs::<Numbers>("draughts-num", |_| Ok(()))
}

/// Reads a record whose movetext held position setups (rare: a reader of
/// its own, out of the way of the plain records').
#[cold]
#[inline(never)]
fn read_lifted(
    text: &str,
    opts: &ReadOptions,
    setups: &draughts::Setups,
) -> Result<Parsed, Problem> {
    let quiet = setups.options(opts);
    let inner_opts = quiet.as_ref().unwrap_or(opts);
    let mut reader = draughts::WithSetups {
        inner: num(text, inner_opts),
        setups,
        replayed: !opts.no_validate,
    };
    let parse = |t| NumParser::parse(Rule::record, t);
    container::read_record(text, inner_opts, Some(LEXING), parse, &mut reader)
}

/// Writes one game.
pub fn write(game: &Game, _opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    draughts::write_game::<Numbers>(game, "draughts-num", |_| Ok(()), out)
}

/// Numbered squares ([`crate::spell`]): `32-28`, a capture's path with
/// the board's separator (`28x19x10`).
pub struct Numbers;

impl Spell for Numbers {
    type Replay = super::hooks::Positions;
    type Options = ();

    fn spell_ply(_: &(), board: &Board, ply: &Ply, out: &mut String) -> Result<(), Problem> {
        let m = crate::family::draughts::hooks::draughts_move(&ply.mv)?;
        crate::family::draughts::spell_numbers(board, board.capture_separator(), m, out)
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
mod dialect_tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<NumParser, _>(&RESULTS, Rule::result);
    }
}
