//! `tafl`: the hnefatafl notation of seed 003 in the PGN-style container.
//!
//! Tags as PGN, with `[Board "11x11"]` and `[Rules "copenhagen"]` (a preset
//! or an OpenTafl rules string); moves numbered as in chess; a move
//! `E5-E8`, its captures `xD8/F8/E9`, a suffix `+`, `++` or `--`; `--`
//! alone a resignation. Squares in any case, written in upper case. The
//! board comes from the Board tag, the rules, the `board` option, or the
//! largest square of the record (with a warning). With rules, every move is
//! checked and its captures checked (a record that lists captures) or
//! computed (one that lists none).

use crate::codec::Visit;
use std::borrow::Cow;

use pest::Parser;

use crate::codec::{Parsed, ReadOptions, WriteOptions};
use crate::container::{self, MoveText, Notation, Start, Style};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Variant};
use crate::family::dialect::{Dialect, Layout};
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::{Board, Mark, Move as TMove, Square, Step, MAX_DIM, MIN_DIM};
use crate::family::spell::Lines;
use crate::family::spell::{self, Spell};
use crate::ir::{back_tag, find_tag, Backing, Game, Line, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The pest parser: the tafl dialect and moves, and the container.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/tafl.pest"]
    pub struct TaflParser;

    container_rules!(Rule, tafl_move, |_| "a move");
}
use crate::family::hnefatafl::DIALECT;
use grammar::{Rule, TaflParser};

/// The options of `tafl` and `otn`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The board side when the record does not say (`board=11`).
    pub board: Option<u8>,
    /// The rules when the record does not say.
    pub rules: Option<Rules>,
    /// Quarter turns clockwise applied to every square written.
    pub quarters: u8,
    /// Mirror every square written left to right.
    pub mirror: bool,
}

/// Reads a board side: `11` or `11x11`.
pub fn parse_board(text: &str) -> Result<u8, String> {
    let t = text.trim();
    let side = match t.split_once(['x', 'X']) {
        Some((a, b)) if a.trim() == b.trim() => a.trim(),
        Some(_) => {
            return Err(format!(
                "board {text} is not square",
                text = crate::error::quote(text)
            ))
        }
        None => t,
    };
    side.parse::<u8>()
        .ok()
        .filter(|d| (MIN_DIM..=MAX_DIM).contains(d))
        .ok_or_else(|| {
            format!(
                "board {text}: a tafl board is 5x5 to 19x19",
                text = crate::error::quote(text)
            )
        })
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[
        FormatOption {
            name: "board",
            sides: Sides::Read,
            values: Values::Kind("a side 5 to 19, or 11x11"),
            default: "the Board tag, the rules, or the largest square seen",
            help: "the board of records that do not say",
        },
        FormatOption {
            name: "rules",
            sides: Sides::Read,
            values: Values::Kind("a preset (copenhagen, fetlar, berserk, brandubh, brandubh-walker, tablut, sea-battle, tawlbwrdd, hnefatafl-13, tyr-15, old-tyr-17, alea-evangelii) or an OpenTafl rules string"),
            default: "the Rules tag; none: moves not checked",
            help: "the rules of records that do not say",
        },
        FormatOption {
            name: "rotate",
            sides: Sides::Write,
            values: Values::OneOf(&["0", "90", "180", "270"]),
            default: "0",
            help: "turn every square clockwise by this many degrees (the side the board is seen from)",
        },
        FormatOption {
            name: "mirror",
            sides: Sides::Write,
            values: Values::OneOf(&["no", "yes"]),
            default: "no",
            help: "mirror every square left to right (after a rotation)",
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "board" => self.board = Some(parse_board(value)?),
            "rules" => self.rules = Some(Rules::named(value)?),
            "rotate" => {
                self.quarters = match value {
                    "90" => 1,
                    "180" => 2,
                    "270" => 3,
                    _ => 0,
                }
            }
            "mirror" => self.mirror = value == "yes",
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// What the tags (and the options) say about the board and the rules; the
/// error is located at the tag.
pub fn board_from_tags(
    tags: &[Tag],
    at: &dyn Fn(&str) -> (usize, usize),
    opts: &Options,
) -> Result<(Option<u8>, Option<Rules>), Problem> {
    let find = |name: &str| find_tag(tags, name).map(|i| &tags[i]);
    let rules = match find("Rules") {
        Some(t) => Some(
            Rules::named(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(Kind::TagValue))?,
        ),
        None => opts.rules.clone(),
    };
    let board = match find("Board") {
        Some(t) => Some(
            parse_board(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(Kind::TagValue))?,
        ),
        None => opts.board,
    };
    if let (Some(r), Some(t)) = (&rules, find("Position")) {
        r.at_position(std::slice::from_ref(t))
            .map_err(|e| Problem::at(at(&t.name), e).of_kind(Kind::TagValue))?;
    }
    if let (Some(r), Some(b)) = (&rules, board) {
        if r.dim != b {
            let place = find("Board").map_or((0, 0), |t| at(&t.name));
            return Err(Problem::at(
                place,
                format!("the board is {b}x{b}, and the rules are for {0}x{0}", r.dim),
            )
            .of_kind(Kind::TagValue));
        }
    }
    Ok((rules.as_ref().map(|r| r.dim).or(board), rules))
}

struct Reader<'o, 'r> {
    opts: &'o ReadOptions,
    /// The record's places, and where each move read is in it, in the
    /// order read.
    places: crate::codec::Lines<'o>,
    moves: Vec<usize>,
    options: Options,
    dim: Option<u8>,
    rules: Option<Rules>,
    /// What a record read a run at a time replays its runs with
    /// ([`container::Runs`]); `None` when it is read whole.
    runs: Option<Replaying<'o, 'r>>,
}

/// The replay of a record read a run at a time: how it lists captures
/// (known from every move before the first run), the lines open with the
/// position each goes on from, and what the replay said so far.
struct Replaying<'l, 'r> {
    /// How the record lists captures.
    listing: rules::Listing,
    /// The lines open, the main line's first; `None` positions where the
    /// moves are not replayed.
    lines: &'l std::cell::RefCell<container::kept::OpenLines<Position<'r>>>,
    /// The king's captures completed so far.
    completed: usize,
    /// Runs were read.
    ran: bool,
}

impl<'o, 'r> Reader<'o, 'r> {
    /// A reader of `text` with its options, reading it whole (`runs`
    /// `None`) or a run at a time.
    fn new(
        opts: &'o ReadOptions,
        text: &'o str,
        options: Options,
        runs: Option<Replaying<'o, 'r>>,
    ) -> Self {
        Reader {
            opts,
            places: crate::codec::Lines::new(text),
            moves: Vec::new(),
            options,
            dim: None,
            rules: None,
            runs,
        }
    }
}

impl Notation for Reader<'_, '_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let (dim, rules) = board_from_tags(tags, at, &self.options)?;
        self.dim = dim;
        self.rules = rules.clone();
        let board = Board {
            dim: dim.unwrap_or(MAX_DIM),
            validated: rules.is_some() && !self.opts.no_validate,
            rules,
        };
        Ok(Start {
            variant: Variant::Tafl(board),
            setup: None,
            to_move: None,
            number: None,
            warnings: Vec::new(),
        })
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        self.moves.push(mv.offset());
        decode(mv.text(), self.dim, '-', &|at, e| {
            Problem::at(mv.pos(at), e).of_kind(Kind::Syntax)
        })
        .map(Move::Tafl)
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if let Some(runs) = self.runs.as_ref().filter(|r| r.ran) {
            // Every move was replayed in its run (the board was known).
            warnings.extend(completed(runs.completed));
            return Ok(());
        }
        let (places, moves) = (&self.places, &self.moves);
        settle(game, self.dim, false, warnings, &|i| {
            moves.get(i).map(|&at| places.at(at))
        })
    }
}

impl container::Runs for Reader<'_, '_> {
    fn start_position(&self) -> Option<crate::family::Setup> {
        None
    }

    fn run(
        &mut self,
        plies: Vec<crate::ir::Ply>,
        _from: &Option<crate::family::Setup>,
        _depth: usize,
    ) -> Result<(Game, Option<crate::family::Setup>), Problem> {
        let runs = self.runs.as_mut().ok_or_else(|| {
            Problem::whole("a run of a record read whole").of_kind(Kind::Internal)
        })?;
        runs.ran = true;
        let dim = self.dim.ok_or_else(|| {
            Problem::whole("the board is known only from every move").of_kind(Kind::NotStreamed)
        })?;
        let board = Board {
            dim,
            validated: self.rules.is_some() && !self.opts.no_validate,
            rules: self.rules.clone(),
        };
        let mut run = Game::new(Variant::Tafl(board));
        run.moves.plies = plies;
        let moves = run.moves.ply_count();
        self.moves.drain(..moves.min(self.moves.len()));
        let (listing, cell) = (runs.listing, runs.lines);
        let mut lines = cell.borrow_mut();
        let top = lines.top()?;
        let Some(mut at) = top.pos.take() else {
            // Not replayed: the moves as written.
            return Ok((run, None));
        };
        // The run starts where the last one left: its Position tag, for
        // what draws it.
        run.tags.push(Tag::new("Position", at.record()));
        let replay = |line: &mut Line, at: &mut Position<'_>| {
            let mut notes = Vec::new();
            rules::replay(line, at, listing, &mut notes)
                .map_err(|(_, e)| Problem::whole(e).of_kind(Kind::IllegalMove))
        };
        // The position before the last ply is kept: a variation of it
        // starts there.
        let last = run.moves.plies.pop();
        let mut done = replay(&mut run.moves, &mut at)?;
        top.before_last = Some(at.clone());
        if let Some(last) = last {
            let mut one = Line {
                plies: vec![last],
                ..Line::default()
            };
            done += replay(&mut one, &mut at)?;
            run.moves.plies.append(&mut one.plies);
        }
        top.pos = Some(at);
        drop(lines);
        runs.completed += done;
        Ok((run, None))
    }
}

/// The warning of the king's captures completed in `n` moves (none when
/// `n` is 0).
pub(super) fn completed(n: usize) -> Option<Problem> {
    (n > 0).then(|| {
        Problem::whole(format!(
            "the captures listed leave out the king's, which the rules find: \
             completed ({n} move{})",
            if n == 1 { "" } else { "s" }
        ))
        .of_kind(Kind::KingCaptureCompleted)
    })
}

/// Settles the board of a game read: the side the record showed (the
/// largest square, with a warning, where nothing said it), then the moves
/// replayed by the rules when there are rules and the game is validated
/// (`king_implied`: a record that lists captures leaves out the king's).
pub fn settle(
    game: &mut Game,
    dim: Option<u8>,
    king_implied: bool,
    warnings: &mut Vec<Problem>,
    locate: &dyn Fn(usize) -> Option<(usize, usize)>,
) -> Result<(), Problem> {
    settle_by(game, dim, king_implied, false, warnings, locate)
}

/// Settles the board of a game read as [`settle`] does, the moves replayed
/// with [`rules::replay_turning`] where `turn` (a site's record whose
/// later moves move captured pieces for the capturing side).
pub(crate) fn settle_by(
    game: &mut Game,
    dim: Option<u8>,
    king_implied: bool,
    turn: bool,
    warnings: &mut Vec<Problem>,
    locate: &dyn Fn(usize) -> Option<(usize, usize)>,
) -> Result<(), Problem> {
    let Variant::Tafl(board) = &mut game.variant else {
        return Ok(());
    };
    if dim.is_none() {
        let extent = extent_of(&game.moves);
        board.dim = extent;
        warnings.push(
            Problem::whole(format!(
            "no Board tag or rules: the board is taken to be {extent}x{extent}, the smallest that \
             holds every square of the record"
        ))
            .of_kind(Kind::BoardAssumed),
        );
    }
    if board.validated {
        if let Some(rules) = board.rules.clone() {
            let listing = rules::Listing::of(&game.moves, king_implied);
            let start = rules
                .at_position(&game.tags)
                .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
            let mut pos = Position::new(&start);
            let place = |i: usize, e: String| match locate(i) {
                Some(at) => Problem::at(at, e),
                None => Problem::whole(e),
            };
            let mut notes = Vec::new();
            let replay = if turn {
                rules::replay_turning
            } else {
                rules::replay
            };
            let completed = replay(&mut game.moves, &mut pos, listing, &mut notes)
                .map_err(|(i, e)| place(i, e).of_kind(Kind::IllegalMove))?;
            warnings.extend(
                notes
                    .into_iter()
                    .map(|n| place(n.index, n.message).of_kind(n.kind)),
            );
            warnings.extend(self::completed(completed));
        }
    }
    Ok(())
}

/// The smallest board side that holds every square of a line.
pub(crate) fn extent_of(line: &Line) -> u8 {
    let mut e = MIN_DIM;
    for ply in &line.plies {
        if let Some(m) = ply.mv.as_tafl() {
            for sq in m.squares() {
                e = e.max(sq.extent());
            }
        }
        for v in &ply.variations {
            e = e.max(extent_of(v));
        }
    }
    e
}

/// Reads one move the grammar matched (or an aagenielsen move: `sep` is
/// its leg separator): squares checked against the board when its side is
/// known; `err` locates an error at a byte of the move.
pub fn decode(
    text: &str,
    dim: Option<u8>,
    sep: char,
    err: &dyn Fn(usize, String) -> Problem,
) -> Result<TMove, Problem> {
    if text == "--" {
        return Ok(TMove::Resign);
    }
    let (body, mark) = if let Some(b) = text.strip_suffix("++") {
        (b, Some(Mark::Win))
    } else if let Some(b) = text.strip_suffix("--") {
        (b, Some(Mark::Suicide))
    } else if let Some(b) = text.strip_suffix('+') {
        (b, Some(Mark::Threat))
    } else {
        (text, None)
    };
    let square = |at: usize, s: &str| -> Result<Square, Problem> {
        let sq = Square::parse(s).map_err(|e| err(at, e))?;
        match dim {
            Some(d) if !sq.on(d) => Err(err(at, format!("{s} is off the {d}x{d} board"))),
            _ => Ok(sq),
        }
    };
    let (legs, caps) = match body.find(['x', 'X']) {
        Some(i) => (&body[..i], Some((i + 1, &body[i + 1..]))),
        None => (body, None),
    };
    let mut squares = Vec::new();
    let mut at = 0;
    for part in legs.split(sep) {
        squares.push(square(at, part)?);
        at += part.len() + 1;
    }
    let mut captures = Vec::new();
    if let Some((mut at, caps)) = caps {
        for part in caps.split('/') {
            captures.push(square(at, part)?);
            at += part.len() + 1;
        }
    }
    if squares.len() < 2 {
        return Err(err(
            0,
            format!(
                "{text} is not a move (`e5-e8`)",
                text = crate::error::quote(text)
            ),
        ));
    }
    let to = squares.pop().unwrap_or(squares[0]);
    let from = squares.remove(0);
    Ok(TMove::Step(Step {
        from,
        via: squares,
        to,
        captures,
        mark,
    }))
}

/// Reads one record into a game ([`walk`]'s visitor that builds it).
fn read_game(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let options = opts.format.get::<Options>().cloned().unwrap_or_default();
    let mut reader = Reader::new(opts, text, options, None);
    let parse = |t| TaflParser::parse(Rule::record, t);
    container::read_record(text, opts, None, parse, &mut reader)
}

/// The length of a tafl move at the start of `b`, as `tafl_move` reads it
/// (its repetitions as long as they go, as a PEG does): a square, `-` and
/// squares, captures after `x` joined by `/`, a mark; `None` for anything
/// else, and for `--` alone (a resignation, or a placeholder result at
/// the end: the grammar tells), which the grammar reads.
fn tafl_len(b: &[u8]) -> Option<usize> {
    let square = |i: usize| -> Option<usize> {
        if !b.get(i)?.is_ascii_alphabetic() {
            return None;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        (digits > 0).then_some(i + 1 + digits)
    };
    let mut i = square(0)?;
    let mut legs = 0;
    while b.get(i) == Some(&b'-') {
        let Some(j) = square(i + 1) else { break };
        i = j;
        legs += 1;
    }
    if legs == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'x' | b'X')) {
        if let Some(mut j) = square(i + 1) {
            while b.get(j) == Some(&b'/') {
                let Some(k) = square(j + 1) else { break };
                j = k;
            }
            i = j;
        }
    }
    if b[i..].starts_with(b"++") || b[i..].starts_with(b"--") {
        i += 2;
    } else if b.get(i) == Some(&b'+') {
        i += 1;
    }
    let ends = b
        .get(i)
        .is_none_or(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'/')));
    ends.then_some(i)
}

/// What the fast lexer needs to read tafl.
const LEXING: container::fast::Lexing = container::fast::Lexing { move_len: tafl_len };

/// Reads one record a run at a time ([`crate::codec::StreamFn`]): a record
/// whose board its tags (or the options) name. Its moves are replayed a
/// run at a time from the position the last run left, kept typed; how the
/// record lists captures (any move that lists one) is found first, by the
/// fast lexer.
fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(crate::codec::Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    let options = opts.format.get::<Options>().cloned().unwrap_or_default();
    let Some((lexed, mut movetext)) = container::fast::lex_tags(text, LEXING, &DIALECT) else {
        return Ok(None);
    };
    let tags: Vec<Tag> = lexed.iter().map(|&(n, v, _)| Tag::new(n, v)).collect();
    // A board the tags do not name is known from every move: read whole.
    let Ok((Some(_), rules)) = board_from_tags(&tags, &|_| (0, 0), &options) else {
        return Ok(None);
    };
    let start = match rules.filter(|_| !opts.no_validate) {
        Some(r) => match r.at_position(&tags) {
            Ok(start) => Some(start),
            Err(_) => return Ok(None),
        },
        None => None,
    };
    // Whether any move lists a capture.
    let mut lists = false;
    if start.is_some() {
        let mut tokens: Vec<container::Token<'_, Rule>> = Vec::new();
        loop {
            tokens.clear();
            let Some(done) = movetext.fill::<true, Rule>(&mut tokens, 4096) else {
                return Ok(None);
            };
            lists |= tokens
                .iter()
                .any(|t| matches!(t, container::Token::Move(m, ..) if m.contains(['x', 'X'])));
            if done {
                break;
            }
        }
    }
    let listing = if lists {
        rules::Listing::All
    } else {
        rules::Listing::None
    };
    let lines = std::cell::RefCell::new(container::kept::OpenLines::new(
        start.as_ref().map(Position::new),
    ));
    let mut reader = Reader::new(
        opts,
        text,
        options,
        Some(Replaying {
            listing,
            lines: &lines,
            completed: 0,
            ran: false,
        }),
    );
    let mut follow = |piece: crate::codec::Piece<'_>| {
        lines.borrow_mut().follow(&piece);
        each(piece)
    };
    container::stream_record(text, opts, LEXING, &mut reader, &mut follow)
}

/// Whether the fast lexer reads this record (every tafl record is read
/// by the grammar whole; a run at a time, by the lexer).
pub fn lexed_fast(text: &str) -> bool {
    container::fast::lex::<Rule>(text, LEXING, &DIALECT).is_some()
}

/// The game's tags with `Board` and `Rules` made to say what its board
/// says: a tag that agrees is kept as written, one that disagrees gets the
/// board's value, a missing Rules tag is added at the end (a preset's name,
/// or the rules string); a Board tag is added when there are no rules.
pub fn render_tags(game: &Game, board: &Board) -> Vec<Tag> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    let side = || format!("{0}x{0}", board.dim);
    let agrees = |v: &str| parse_board(v) == Ok(board.dim);
    if board.rules.is_none() || find_tag(&tags, "Board").is_some() {
        back_tag(
            &mut tags,
            "Board",
            Backing::Value {
                agrees: &agrees,
                value: &side,
            },
        );
    }
    let rules = match &board.rules {
        Some(r) => Backing::Value {
            agrees: &|v| Rules::named(v).ok().as_ref() == Some(r),
            value: &|| {
                r.preset_name()
                    .map_or_else(|| r.text().to_string(), str::to_string)
            },
        },
        // Every Rules tag is read as rules.
        None => Backing::Nothing {
            reads_as_nothing: &|_| false,
        },
    };
    back_tag(&mut tags, "Rules", rules);
    tags.into_owned()
}

/// Writes one game.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game a run at a time ([`crate::codec::RunsFn`]).
pub fn runs(opts: &WriteOptions) -> Box<dyn crate::codec::RunWriter> {
    let options = opts.format.get::<Options>().cloned().unwrap_or_default();
    container::notated::runs(Written(options))
}

/// tafl written with its options ([`container::notated`]).
struct Written(Options);

/// The board of a tafl game, or the error of a game of another family.
fn board_of(game: &Game) -> Result<&Board, Problem> {
    game.variant
        .as_tafl()
        .ok_or_else(|| game.family().cannot_be_written_as("tafl"))
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
        let board = board_of(game)?;
        let (q, m) = (self.0.quarters, self.0.mirror);
        // Seen from another side, the rules' start position and the
        // Position tag turn with the squares.
        let turned;
        let board = if !q.is_multiple_of(4) || m {
            turned = Board {
                rules: board.rules.as_ref().map(|r| r.transformed(q, m)),
                ..board.clone()
            };
            &turned
        } else {
            board
        };
        let mut tags = render_tags(game, board);
        view_position(&mut tags, board.dim, q, m);
        Ok(Cow::Owned(tags))
    }

    fn spell(&mut self, run: &Game) -> Result<spell::Spelled, Problem> {
        board_of(run)?;
        spell::spelled::<Tafl>(run, &self.0, Lines::All)
    }
}

/// tafl notation ([`crate::spell`]): `E5-E8xD8/F8+`, `--` for a
/// resignation, each square seen from the side the options turn the
/// board to.
pub struct Tafl;

impl Spell for Tafl {
    type Replay = super::hooks::Positions;
    type Options = Options;

    fn spell_ply(
        options: &Options,
        before: super::hooks::Before<'_>,
        ply: &crate::ir::Ply,
        out: &mut String,
    ) -> Result<(), Problem> {
        let t = ply
            .mv
            .of(crate::family::any::Family::Tafl, Move::as_tafl)
            .map_err(|e| Problem::whole(e).of_kind(Kind::WrongFamily))?;
        let (dim, q, m) = (before.board.dim, options.quarters, options.mirror);
        crate::family::hnefatafl::spell_move(t, out, &|s| s.transform(dim, q, m));
        Ok(())
    }
}

/// Turns a Position tag's position with the squares.
pub fn view_position(tags: &mut [Tag], dim: u8, quarters: u8, mirror: bool) {
    if quarters.is_multiple_of(4) && !mirror {
        return;
    }
    for t in tags
        .iter_mut()
        .filter(|t| t.name.eq_ignore_ascii_case("Position"))
    {
        if let Some(v) = rules::transform_position(&t.value, dim, quarters, mirror) {
            t.value = v;
        }
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

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<TaflParser, _>(
            &crate::ir::result::PGN_RESULTS,
            Rule::result,
        );
    }

    #[test]
    fn the_rules_option_lists_every_preset() {
        let Some(Values::Kind(text)) = Options::LIST
            .iter()
            .find(|o| o.name == "rules")
            .map(|o| &o.values)
        else {
            panic!("no rules option");
        };
        for (name, rules) in rules::PRESETS {
            assert!(
                text.contains(&format!(" {name},"))
                    || text.contains(&format!(" {name})"))
                    || text.contains(&format!("({name},")),
                "{name}"
            );
            assert!(Rules::parse(rules).is_ok(), "{name}");
        }
    }

    fn read_one(text: &str) -> Result<Parsed, Problem> {
        read(text, &ReadOptions::default())
    }

    #[test]
    fn captures_are_computed_when_the_record_lists_none() {
        let g = read_one("[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6 d5-a5 *")
            .unwrap()
            .game;
        let mut out = String::new();
        write(&g, &WriteOptions::default(), &mut out).unwrap();
        assert!(out.contains("3. D6-A6xA5 D5-A5xA6 *"), "{out}");
    }

    #[test]
    fn a_listed_capture_the_rules_do_not_make_is_an_error() {
        let e = read_one("[Rules \"brandubh\"]\n\n1. d2-e2xe3 *").unwrap_err();
        assert!(e.message.contains("capture nothing on e3"), "{}", e.message);
        let e =
            read_one("[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6xa5 d5-a5 *")
                .unwrap_err();
        assert!(e.message.contains("captures a6 too"), "{}", e.message);
    }
}
