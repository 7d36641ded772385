//! What the two draughts notations share: the board and setup a record's
//! tags give, and their dialect of the container (the result tokens that end
//! a record).

use crate::error::Kind;
use crate::error::Problem;
use crate::family::draughts::hooks::{draughts_move, position_of};
use crate::family::draughts::{Board, Position, Square, SquareStyle};
use std::borrow::Cow;

use crate::codec::{line_col, ReadOptions, RunWriter};
use crate::container::{self, Start, Style};
use crate::family::any::{Move, Setup, Variant};
use crate::family::dialect::Dialect;
use crate::family::draughts::play;
use crate::family::draughts::rules::{fen_is_alphanumeric, fits, parse_fen, write_fen};
use crate::family::draughts::DIALECT;
use crate::family::spell::Spell;
use crate::ir::{back_tag, find_tag, Backing, Comment, Game, Line, Side, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};
use std::sync::OnceLock;

/// The options of the draughts notations (`draughts-num`, `draughts-diag`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The board to read every game on, overriding GameType tags.
    pub board: Option<Board>,
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[FormatOption {
        name: "board",
        sides: Sides::Read,
        values: Values::Kind(
            "a board's name (international, english, italian, russian, ...; a wrong one \
             lists them all), a GameType number, or a full GameType such as 20,W,10,10,N2,0",
        ),
        default: "the GameType tag, else inferred from the moves",
        help: "the board of every game, overriding GameType tags",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "board" => self.board = Some(Board::by_name(value)?),
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// The board a draughts record is read on, and whether it was assumed.
#[derive(Debug, Clone, Copy)]
pub struct BoardChoice {
    /// The board.
    pub board: Board,
    /// True when neither a GameType tag nor `--variant` named it.
    pub assumed: bool,
}

/// Decides the board (`--variant`, else the GameType tag, else international)
/// and reads the FEN tag against it. With `infer`, a board that neither
/// names is left to the moves ([`Inference`]): the FEN is read on the largest
/// board kifu infers, and the reader settles the board in its `finish`.
pub fn start(
    tags: &[Tag],
    at: &dyn Fn(&str) -> (usize, usize),
    opts: &ReadOptions,
    infer: bool,
) -> Result<(BoardChoice, Start), Problem> {
    let mut warnings = Vec::new();
    let game_type = find_tag(tags, "GameType").map(|i| &tags[i]);
    let named = opts.format.get::<Options>().and_then(|o| o.board);
    let (board, assumed) = match (named, game_type) {
        (Some(b), _) => (b, false),
        (None, Some(t)) => {
            let b = Board::from_game_type(&t.value)
                .map_err(|e| Problem::at(at("GameType"), e).of_kind(Kind::TagValue))?;
            if let Some(standard) = Board::preset(b.game_type) {
                if standard != b {
                    warnings.push(Problem::at(
                        at("GameType"),
                        format!(
                            "GameType {} differs from the standard `{}`; read as written, moves not replayed (--variant overrides)",
                            crate::error::quote(&t.value),
                            standard.game_type_string()
                        ),
                    )
                    .of_kind(Kind::NonstandardGametype));
                }
            }
            // A Variant tag that names another game: the GameType decides,
            // said (never another game's rules taken silently).
            if let Some(v) = find_tag(tags, "Variant").map(|i| &tags[i]) {
                if let Some(named) =
                    Board::by_variant(&v.value).filter(|n| !play::Rules::same_game(n, &b))
                {
                    warnings.push(
                        Problem::at(
                            at("Variant"),
                            format!(
                                "Variant {} names {} (GameType {}), the GameType tag {} \
                                 {}: read by the GameType (name the board with --variant)",
                                crate::error::quote(&v.value),
                                play::Rules::of(&named).name,
                                named.game_type,
                                crate::error::quote(&t.value),
                                play::Rules::of(&b).name,
                            ),
                        )
                        .of_kind(Kind::VariantConflict),
                    );
                }
            }
            (b, false)
        }
        (None, None) => match find_tag(tags, "Variant").map(|i| &tags[i]) {
            // The servers name the game in a Variant tag (PlayStrategy
            // writes no GameType).
            Some(t) => match Board::by_variant(&t.value) {
                Some(b) => (b, false),
                None => {
                    warnings.push(
                        Problem::at(
                            at("Variant"),
                            format!(
                                "Variant {} is no draughts game kifu knows: the board is \
                                 inferred from the moves (name it with --variant)",
                                crate::error::quote(&t.value)
                            ),
                        )
                        .of_kind(Kind::UnknownVariant),
                    );
                    (Board::INTERNATIONAL, true)
                }
            },
            None => (Board::INTERNATIONAL, true),
        },
    };
    let fen = find_tag(tags, "FEN")
        .map(|i| &tags[i])
        .filter(|t| !no_position(&t.value));
    let setup = match fen {
        // Alphanumeric squares are read as the moves' are: on the 10x10
        // board with a1 at the bottom left, settled with them.
        Some(t) if assumed && infer && fen_is_alphanumeric(&t.value) => Some(
            parse_fen(&t.value, &alpha_board(Board::INTERNATIONAL))
                .map_err(|e| Problem::at(at("FEN"), e).of_kind(Kind::TagValue))?,
        ),
        Some(t) if assumed && infer => {
            Some(parse_fen(&t.value, &Board::CANADIAN).map_err(|e| {
                Problem::at(at("FEN"), format!("{e}{UNNAMED}")).of_kind(Kind::TagValue)
            })?)
        }
        Some(t) => Some(
            parse_fen(&t.value, &board)
                .map_err(|e| Problem::at(at("FEN"), e).of_kind(Kind::TagValue))?,
        ),
        None => None,
    };
    let to_move = setup.as_ref().and_then(|p| p.to_move);
    Ok((
        BoardChoice { board, assumed },
        Start {
            variant: Variant::Draughts(board),
            setup: setup.map(Setup::Draughts),
            to_move,
            number: None,
            warnings,
        },
    ))
}

/// Said after a square too large for every board kifu infers.
pub const UNNAMED: &str = ": no GameType tag names the board, and Canadian 12x12 is the \
                           largest kifu infers from the moves (name the board with --variant)";

/// The boards kifu tells apart by their moves when no GameType tag names
/// the board, in the order of preference when several fit: the board, its
/// name in messages, and whether its kings fly (move and capture along a
/// whole diagonal).
const CANDIDATES: [(Board, &str, bool); 5] = [
    (Board::INTERNATIONAL, "international 10x10", true),
    (Board::ENGLISH, "English 8x8", false),
    (
        Board::ITALIAN,
        "Italian 8x8 (square 1 in the left corner)",
        false,
    ),
    (Board::CANADIAN, "Canadian 12x12", true),
    (
        Board::SPANISH,
        "Spanish 8x8 (square 1 in White's right corner, as Portuguese)",
        true,
    ),
];

/// The other rule sets played on a candidate's squares, tried when the
/// moves cannot be played by the candidate's own: Frisian draughts on the
/// international board, pool checkers (flying kings, men capturing
/// backwards) on the English one.
fn other_rules(game_type: u8) -> &'static [u8] {
    match game_type {
        20 => &[40],
        21 => &[23],
        _ => &[],
    }
}

/// The board inference settled on ([`Inference::settle`]): the warning
/// that says so, and what tells the other boards and rule sets to try when
/// the moves cannot be played on it (`Settled::others`).
#[derive(Debug)]
pub struct Settled {
    /// The warning that says which board and why.
    pub warning: Problem,
    /// The moves each of [`CANDIDATES`] does not fit.
    misfits: [u32; CANDIDATES.len()],
    /// The candidate taken.
    pick: usize,
    /// The largest square read.
    largest: u16,
}

impl Settled {
    /// The other boards and rule sets that hold the squares, in the order
    /// they are tried ([`judge_inferred`]): the other rule sets of the
    /// board taken, then every other board, those that fit best first (the
    /// squares tell the board only as far as the rules allow: a Frisian
    /// capture listed hop by hop along a row fits no diagonal board; the
    /// replay tells the rest), each with its other rule sets. Asked only
    /// after a failed replay.
    #[cold]
    fn others(&self) -> Vec<Board> {
        let rules = |b: Board| {
            std::iter::once(b).chain(
                other_rules(b.game_type)
                    .iter()
                    .filter_map(|&n| Board::preset(n)),
            )
        };
        let mut order: Vec<usize> = (0..CANDIDATES.len()).filter(|&i| i != self.pick).collect();
        order.sort_by_key(|&i| (self.misfits[i], CANDIDATES[i].0.square_count(), i));
        let taken = CANDIDATES.get(self.pick).map(|c| c.0);
        taken
            .into_iter()
            .flat_map(|b| rules(b).skip(1))
            .chain(
                order
                    .into_iter()
                    .map(|i| CANDIDATES[i].0)
                    .filter(|b| b.contains(Square(self.largest)))
                    .flat_map(rules),
            )
            .collect()
    }
}

/// How many moves more than the best a board may misfit before inference
/// stops looking at it.
const DROPPED: u32 = 8;

/// The column and row of each square of each board of [`CANDIDATES`]
/// (index: the square number; `(0, 0)` where there is no such square),
/// computed once: inference looks squares up on every move.
fn geometry() -> &'static [[(u8, u8); 73]; CANDIDATES.len()] {
    static TABLE: OnceLock<[[(u8, u8); 73]; CANDIDATES.len()]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[(0, 0); 73]; CANDIDATES.len()];
        for (row, (board, ..)) in table.iter_mut().zip(&CANDIDATES) {
            for (n, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = board.coords(Square(n as u16)).unwrap_or((0, 0));
            }
        }
        table
    })
}

/// What the squares of a record without a GameType tag (or `--variant`)
/// tell about its board, gathered while its moves are read: for each board
/// of `CANDIDATES`, how many moves (and FEN tags) do not fit it, and the
/// largest square read. Under the right numbering every plain move is one
/// diagonal step, every capture a chain of jumps, and a man's first moves
/// go forward.
#[derive(Debug, Clone, Default)]
pub struct Inference {
    misfits: [u32; CANDIDATES.len()],
    /// The largest square read, and the offset in the record of the move
    /// that holds it (`None` for the FEN tag).
    largest: Option<(u16, Option<usize>)>,
}

impl Inference {
    /// Counts one move, read at `offset` in the record.
    pub fn add_move(&mut self, path: &[Square], capture: bool, offset: usize) {
        if let Some(&max) = path.iter().max() {
            if self.largest.is_none_or(|(l, _)| max.0 > l) {
                self.largest = Some((max.0, Some(offset)));
            }
        }
        let table = geometry();
        let best = self.misfits.iter().copied().min().unwrap_or(0);
        for (i, misfit) in self.misfits.iter_mut().enumerate() {
            // A board that many moves behind the best is out: checking it
            // on every move would cost more than the rest of the reading.
            if *misfit > best.saturating_add(DROPPED) {
                *misfit = u32::MAX;
                continue;
            }
            let coords = |sq: Square| match table[i].get(usize::from(sq.0)) {
                Some(&(c, r)) if c > 0 => Some((i32::from(c), i32::from(r))),
                _ => None,
            };
            *misfit += u32::from(!fits(path, capture, CANDIDATES[i].2, coords));
        }
    }

    /// Counts the squares of a FEN setup.
    pub fn add_setup(&mut self, pos: &Position) {
        let Some(max) = pos.white.iter().chain(&pos.black).map(|p| p.square).max() else {
            return;
        };
        if self.largest.is_none_or(|(l, _)| max.0 > l) {
            self.largest = Some((max.0, None));
        }
        for (misfit, (board, ..)) in self.misfits.iter_mut().zip(&CANDIDATES) {
            *misfit = misfit.saturating_add(u32::from(!board.contains(max)));
        }
    }

    /// Settles the board of `game`, read on the international board: the
    /// board that fits the most moves; among boards that fit alike, the
    /// smallest that holds the largest square (a record that never leaves
    /// squares 1-32 is taken for an 8x8 game), and among the 8x8 boards the
    /// one whose first mover is the FEN's side to move. With no square at
    /// all, international 10x10 is assumed. Renumbers the plies when the
    /// board's first mover is Black, and returns the warning that says what
    /// was inferred. `text` is the record, to locate a square off the board.
    pub fn settle(
        mut self,
        game: &mut Game,
        text: &str,
        fen_at: (usize, usize),
    ) -> Result<Settled, Problem> {
        let Some((largest, largest_at)) = self.largest else {
            return Ok(Settled {
                warning: Problem::whole(
                    "no GameType tag, and no move or FEN square to tell the board by: assumed \
                     international 10x10 (GameType 20; name the board with --variant)",
                )
                .of_kind(Kind::BoardInferred),
                misfits: self.misfits,
                pick: usize::MAX,
                largest: 0,
            });
        };
        self.first_moves(game);
        let best = self.misfits.iter().copied().min().unwrap_or(0);
        let to_move = position_of(&game.setup).and_then(|p| p.to_move);
        let key = |i: usize| {
            let b = &CANDIDATES[i].0;
            (
                !b.contains(Square(largest)),
                b.square_count(),
                to_move.is_some_and(|s| s != b.first),
                i,
            )
        };
        let fitting = || (0..CANDIDATES.len()).filter(|&i| self.misfits[i] == best);
        let Some(pick) = fitting().min_by_key(|&i| key(i)) else {
            return Err(Problem::whole("no board to read the game on").of_kind(Kind::TagValue));
        };
        let (board, name, ..) = CANDIDATES[pick];
        if !board.contains(Square(largest)) {
            let at = largest_at.map_or(fen_at, |o| line_col(text, o));
            let e = board
                .parse_square(&largest.to_string())
                .err()
                .unwrap_or_default();
            return Err(Problem::at(at, format!("{e}{UNNAMED}")).of_kind(Kind::OffBoard));
        }
        let n = board.game_type;
        let message = if best > 0 {
            format!(
                "no GameType tag, and no board fits every move: read on the {name} board, \
                 which fits the most (GameType {n}; name the board with --variant)"
            )
        } else if fitting().count() == 1 {
            format!(
                "no GameType tag: the squares fit the {name} board alone, read as GameType {n} \
                 (name the board with --variant)"
            )
        } else {
            let names: Vec<&str> = fitting().map(|i| CANDIDATES[i].1).collect();
            format!(
                "no GameType tag, and the squares fit several boards ({}): assumed the {name} \
                 board (GameType {n}; name the board with --variant)",
                names.join(", ")
            )
        };
        if board.first != game.variant.first_mover() {
            renumber(game, board.first);
        }
        game.variant = Variant::Draughts(board);
        Ok(Settled {
            warning: Problem::whole(message).of_kind(Kind::BoardInferred),
            misfits: self.misfits,
            pick,
            largest,
        })
    }

    /// Counts the first two plies of the main line against each board's
    /// opening: from the starting position (no FEN) each moves a man of
    /// the side to move from that board's starting squares, forward, and
    /// the first lands on an empty square; after a FEN, a man the FEN
    /// places moves forward.
    fn first_moves(&mut self, game: &Game) {
        let setup = position_of(&game.setup);
        let assumed_first = game.variant.first_mover();
        for (i, ply) in game.moves.plies.iter().take(2).enumerate() {
            let Ok(m) = draughts_move(&ply.mv) else {
                continue;
            };
            let (Some(&from), Some(&to)) = (m.path.first(), m.path.last()) else {
                continue;
            };
            for (misfit, (board, ..)) in self.misfits.iter_mut().zip(&CANDIDATES) {
                // Without a side to move from the FEN, the sides were read
                // with international's first mover: map them to this board's.
                let side = match (setup.and_then(|p| p.to_move), ply.side == assumed_first) {
                    (Some(_), _) => ply.side,
                    (None, true) => board.first,
                    (None, false) => board.first.other(),
                };
                let man = match setup {
                    None => {
                        let empty = board.starting_side(to).is_none();
                        if board.starting_side(from) != Some(side)
                            || (i == 0 && !m.capture && !empty)
                        {
                            *misfit = misfit.saturating_add(1);
                            continue;
                        }
                        true
                    }
                    Some(p) => {
                        let pieces = if side == Side::White {
                            &p.white
                        } else {
                            &p.black
                        };
                        pieces.iter().any(|pc| pc.square == from && !pc.king)
                    }
                };
                if man && !m.capture && board.forward(from, to, side) == Some(false) {
                    *misfit = misfit.saturating_add(1);
                }
            }
        }
    }
}

/// Judges a game whose board was inferred ([`Inference::settle`]), as
/// [`judge`] does; where its moves cannot be played on that board, each of
/// the other boards and rule sets that hold its squares is tried in turn
/// (those its squares fit best first), and the first its moves play on is
/// taken, its warning saying so (a tagless Frisian game fits the
/// international board, and plays only by Frisian rules). Where none plays them, the error is the first board's, saying
/// that the board was inferred. Pushes the warning of the board taken, where
/// the first board's would be.
pub fn judge_inferred(
    game: &mut Game,
    text: &str,
    spans: &Spans,
    opts: &ReadOptions,
    warnings: &mut Vec<Problem>,
    mut settled: Settled,
) -> Result<(), Problem> {
    let said = warnings.len();
    let warning = std::mem::replace(
        &mut settled.warning,
        Problem::whole(String::new()).of_kind(Kind::BoardInferred),
    );
    warnings.push(warning.of_kind(Kind::BoardInferred));
    let Err(mut e) = judge(game, text, spans, opts, warnings) else {
        return Ok(());
    };
    let first = *game.variant.as_draughts().unwrap_or(&Board::INTERNATIONAL);
    for board in settled.others() {
        if board.first != game.variant.first_mover() {
            renumber(game, board.first);
        }
        game.variant = Variant::Draughts(board);
        if play::replay(game).is_ok() {
            let n = board.game_type;
            warnings[said] = Problem::whole(format!(
                "no GameType tag: the moves cannot be played by the rules of the board \
                     their squares fit best (GameType {}), and play by {} (GameType {n}): read \
                     so (name the board with --variant)",
                first.game_type,
                play::Rules::of(&board).name
            ))
            .of_kind(Kind::BoardInferred);
            return Ok(());
        }
    }
    // A move that cannot be played on the board kifu inferred may be one
    // of another board: the error says which board it was.
    e.message.push_str(&format!(
        "; no GameType tag: the board was inferred as GameType {} (name the board with \
         --variant)",
        first.game_type
    ));
    Err(e)
}

/// Gives every ply of `game` the number and side it has when `first` moves
/// first. Without a side to move from the setup the sides swap; with one,
/// only the numbers change.
fn renumber(game: &mut Game, first: Side) {
    fn walk(line: &mut Line, first: Side, mut number: u32, mut side: Side) {
        for ply in &mut line.plies {
            ply.number = number;
            ply.side = side;
            for var in &mut ply.variations {
                walk(var, first, number, side);
            }
            if side != first {
                number += 1;
            }
            side = side.other();
        }
    }
    let fixed = position_of(&game.setup).is_some_and(|p| p.to_move.is_some());
    let Some(ply) = game.moves.plies.first() else {
        return;
    };
    let (number, side) = (ply.number, if fixed { ply.side } else { ply.side.other() });
    walk(&mut game.moves, first, number, side);
}

/// The board an assumed international board becomes when its moves are
/// written with alphanumeric squares: a1 at the bottom left.
pub fn alpha_board(board: Board) -> Board {
    Board {
        style: SquareStyle::Alpha,
        corner: 0,
        ..board
    }
}

/// The PDN 3.0 position setups in a record's movetext (`/FEN "W:..."/`,
/// a FEN command between slashes, which the standard allows anywhere in
/// the game), found by [`lift_setups`].
#[derive(Debug, Default)]
pub struct Setups {
    /// The FEN of a setup before the first move: the game starts there, as
    /// if its FEN tag said so.
    pub first: Option<String>,
    /// How many setups come after a move: each kept as a comment, and the
    /// game's moves not replayed (the position jumps there).
    pub later: usize,
}

impl Setups {
    /// The tags the game is read with: its own, with the FEN of a setup
    /// before the first move as its FEN tag.
    #[cold]
    #[inline(never)]
    pub fn tags(&self, tags: &[Tag]) -> Vec<Tag> {
        let mut tags = tags.to_vec();
        let Some(fen) = &self.first else {
            return tags;
        };
        match find_tag(&tags, "FEN") {
            Some(i) => tags[i].value.clone_from(fen),
            None => tags.push(Tag::new("FEN", fen.as_str())),
        }
        tags
    }

    /// Settles the game after its moves are read: the FEN tag that a setup
    /// before the first move gives, and the warning of setups after it
    /// (whose game was read without replaying its moves: `replayed` says
    /// whether the user asked for the replay, whose `not-replayed` warning
    /// this one replaces).
    #[cold]
    #[inline(never)]
    pub fn finish(&self, game: &mut Game, warnings: &mut Vec<Problem>, replayed: bool) {
        if let Some(fen) = &self.first {
            match find_tag(&game.tags, "FEN") {
                Some(i) => game.tags[i].value.clone_from(fen),
                None => game.tags.push(Tag::new("FEN", fen.as_str())),
            }
        }
        if self.later == 0 {
            return;
        }
        if replayed {
            warnings.retain(|w| w.kind != Kind::NotReplayed);
        }
        warnings.push(
            Problem::whole(format!(
                "{} position setup{} (`/FEN \"...\"/`) after the first move: kept as a comment \
                 (`{{FEN \"...\"}}`), and the moves read as written, not replayed",
                self.later,
                if self.later == 1 { "" } else { "s" }
            ))
            .of_kind(Kind::SetupInMoves),
        );
    }

    /// The options a record with these setups is read with: a setup after
    /// a move makes the position jump, so that its moves are read by syntax
    /// alone.
    pub fn options(&self, opts: &ReadOptions) -> Option<ReadOptions> {
        (self.later > 0 && !opts.no_validate).then(|| ReadOptions {
            no_validate: true,
            ..opts.clone()
        })
    }
}

/// A draughts notation reading a record whose movetext held position
/// setups ([`lift_setups`]): the notation itself, given the FEN of a setup
/// before the first move as the game's FEN tag. A separate reader, so that
/// the records without setups (nearly all) are read by the notation alone,
/// as before.
pub struct WithSetups<'s, N> {
    /// The notation.
    pub inner: N,
    /// The setups the movetext held.
    pub setups: &'s Setups,
    /// Whether the user asked for the moves to be replayed.
    pub replayed: bool,
}

impl<N: container::Notation> container::Notation for WithSetups<'_, N> {
    type Rule = N::Rule;
    const DIALECT: &'static Dialect = N::DIALECT;
    const MOVE_PAIR: bool = N::MOVE_PAIR;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        self.inner.start(&self.setups.tags(tags), at)
    }

    fn read_move(&mut self, mv: container::MoveText<'_, Self::Rule>) -> Result<Move, Problem> {
        self.inner.read_move(mv)
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        self.inner.finish(game, warnings)?;
        self.setups.finish(game, warnings, self.replayed);
        Ok(())
    }
}

/// Finds the PDN 3.0 position setups (`/FEN "..."/`) in a record's
/// movetext, outside comments and tag lines. A setup before the first move
/// is blanked out and its FEN returned (the game starts there); one after a
/// move becomes a comment of the same length (`{FEN "..."}`), and such a
/// comment after a move (kifu's own output) is counted as the setup it
/// keeps, so that what kifu writes reads back as it was read. The record's
/// text keeps its length, so that every place in it is where it was.
/// Returns `None`, and costs one search for `/`, when there is none.
/// Never inlined: the reader that calls it stays as small as it was, and
/// the container's lexer is inlined into it as before.
#[inline(never)]
pub fn lift_setups(text: &str) -> Option<(String, Setups)> {
    let b = text.as_bytes();
    let mut found: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut next = 0;
    for open in memchr::memchr_iter(b'/', b) {
        if open < next {
            continue;
        }
        // `FEN` after the slash (spaces between), on a line that is no tag.
        let rest = &text[open + 1..];
        let fen = rest.trim_start_matches([' ', '\t']);
        let Some(value) = fen.strip_prefix("FEN") else {
            continue;
        };
        let line_start = memchr::memrchr(b'\n', &b[..open]).map_or(0, |n| n + 1);
        if text[line_start..open].trim_start().starts_with('[') {
            continue;
        }
        // `FEN "value"`, then the closing slash.
        let from = b.len() - value.len();
        let q1 = value.len() - value.trim_start().len();
        if !value[q1..].starts_with('"') {
            continue;
        }
        let Some(q2) = value[q1 + 1..].find('"').map(|j| q1 + 1 + j) else {
            continue;
        };
        let after = &value[q2 + 1..];
        let sp = after.len() - after.trim_start_matches([' ', '\t']).len();
        if !after[sp..].starts_with('/') {
            continue;
        }
        let close = from + q2 + 1 + sp;
        found.push((open, from + q1 + 1, from + q2, close));
        next = close + 1;
    }
    // A setup after a move, as kifu keeps it (`{FEN "..."}`), read back.
    if found.is_empty() && !memchr::memchr_iter(b'{', b).any(|i| b[i..].starts_with(b"{FEN \"")) {
        return None;
    }
    // Which setups lie inside a comment, and which come after a move.
    let mut out = b.to_vec();
    let mut setups = Setups::default();
    let mut depth = 0usize;
    let mut moved = false;
    let mut k = 0;
    let mut at_line_start = true;
    let mut in_tag = false;
    let mut i = 0;
    while i < b.len() {
        if let Some(&(open, v0, v1, close)) = found.get(k) {
            if i == open {
                k += 1;
                if depth == 0 && !in_tag {
                    if moved {
                        out[open] = b'{';
                        out[close] = b'}';
                        setups.later += 1;
                    } else if setups.first.is_none() {
                        setups.first = Some(text[v0..v1].to_string());
                        out[open..=close].fill(b' ');
                    }
                    i = close + 1;
                    continue;
                }
            }
        }
        let c = b[i];
        match c {
            b'{' if !in_tag && depth == 0 && moved && kept_setup(&b[i..]) => {
                setups.later += 1;
                depth += 1;
            }
            b'{' if !in_tag => depth += 1,
            b'}' if !in_tag => depth = depth.saturating_sub(1),
            b'[' if at_line_start && depth == 0 => in_tag = true,
            b'\n' => in_tag = false,
            c if depth == 0 && !in_tag && c.is_ascii_digit() => {
                // A digit outside a move number (`12.`) is a move's.
                let end = b[i..]
                    .iter()
                    .position(|d| !d.is_ascii_digit())
                    .map_or(b.len(), |n| i + n);
                if b.get(end) != Some(&b'.') {
                    moved = true;
                }
                i = end;
                at_line_start = false;
                continue;
            }
            _ => {}
        }
        at_line_start = c == b'\n' || (at_line_start && matches!(c, b' ' | b'\t' | b'\r'));
        i += 1;
    }
    if setups.first.is_none() && setups.later == 0 {
        return None;
    }
    // Only ASCII bytes were changed: the text is still UTF-8.
    String::from_utf8(out).ok().map(|t| (t, setups))
}

/// Whether a comment (from its `{`) is a position setup after a move as
/// kifu keeps it: `{FEN "..."}`, the FEN's text and nothing else.
fn kept_setup(b: &[u8]) -> bool {
    let Some(close) = memchr::memchr(b'}', b) else {
        return false;
    };
    let inner = &b[1..close];
    inner.starts_with(b"FEN \"")
        && inner.ends_with(b"\"")
        && inner.len() > 5
        && memchr::memchr(b'"', &inner[5..inner.len() - 1]).is_none()
}

/// The 8x8 board alphanumeric squares without a GameType tag are read on
/// when every square of the record (its moves, its FEN tag) lies in `a1`-`h8`:
/// Russian draughts (GameType 25). Brazilian (26) and Czech (29) draughts
/// share its board and notation, and nothing in a record's squares tells them
/// apart; Russian rules replay every game of the others (men capture
/// backwards, a man crowned in a capture goes on as a king), so no game is
/// refused for the choice, and the warning says to name the board.
pub const ALPHA_8X8: u8 = 25;

/// Settles a record read with alphanumeric squares and no GameType tag (on
/// the 10x10 board of [`alpha_board`]): when every square of its moves and
/// its FEN tag lies on the 8x8 board, the game is moved onto the board of
/// [`ALPHA_8X8`] (its squares renamed, its FEN read again there) and the
/// warning says so; otherwise it stays on the 10x10 board, its moves not
/// replayed. Returns the warning, located at `at` (the first alphanumeric
/// square).
#[cold]
#[inline(never)]
pub fn settle_alpha(game: &mut Game, at: (usize, usize)) -> Result<Problem, Problem> {
    let mut warning = settle_alpha_board(game)?;
    warning.line = at.0;
    warning.col = at.1;
    Ok(warning.of_kind(Kind::BoardAssumed))
}

fn settle_alpha_board(game: &mut Game) -> Result<Problem, Problem> {
    let Some(&wide) = game.variant.as_draughts() else {
        return Ok(Problem::whole("no board to read the game on").of_kind(Kind::BoardAssumed));
    };
    let Some(small) = Board::preset(ALPHA_8X8) else {
        return Ok(Problem::whole("no board to read the game on").of_kind(Kind::BoardAssumed));
    };
    let on_small = |sq: Square| {
        wide.alpha(sq)
            .and_then(|(f, r)| small.from_alpha(f.into(), r.into()))
    };
    fn fits(line: &Line, on: &dyn Fn(Square) -> Option<Square>) -> bool {
        line.plies.iter().all(|p| {
            p.mv.as_draughts()
                .is_none_or(|m| m.path.iter().all(|&sq| on(sq).is_some()))
                && p.variations.iter().all(|v| fits(v, on))
        })
    }
    let fen = find_tag(&game.tags, "FEN")
        .map(|i| &game.tags[i])
        .filter(|t| !no_position(&t.value));
    let setup = fen.map(|t| parse_fen(&t.value, &small));
    if !fits(&game.moves, &on_small) || matches!(setup, Some(Err(_))) {
        // The setup is read again on that board: it was read on the
        // largest board kifu infers, whose squares this one may not have
        // (a FEN naming square 55 would be written as no board reads it).
        if let Some(t) = fen {
            let pos = parse_fen(&t.value, &wide)
                .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
            game.setup = Some(Setup::Draughts(pos));
        }
        return Ok(Problem::whole(
            "alphanumeric squares and no GameType tag: read on a 10x10 board with a1 at the \
             bottom left, moves not replayed (name the board with --variant)",
        )
        .of_kind(Kind::BoardAssumed));
    }
    fn rename(line: &mut Line, on: &dyn Fn(Square) -> Option<Square>) {
        for p in &mut line.plies {
            if let Move::Draughts(m) = &mut p.mv {
                for sq in &mut m.path {
                    *sq = on(*sq).unwrap_or(*sq);
                }
            }
            for v in &mut p.variations {
                rename(v, on);
            }
        }
    }
    rename(&mut game.moves, &on_small);
    if let Some(Ok(pos)) = setup {
        game.setup = Some(Setup::Draughts(pos));
    }
    game.variant = Variant::Draughts(small);
    Ok(Problem::whole(format!(
        "alphanumeric squares within a1-h8 and no GameType tag: read as Russian draughts \
         8x8 (GameType {ALPHA_8X8}; Brazilian 26 and Czech 29 share its board: name the board \
         with --variant)"
    ))
    .of_kind(Kind::BoardAssumed))
}

/// Whether a FEN tag's value gives no position: `[FEN "?"]` (lidraughts'
/// export of a game whose start it did not keep) and an empty value, read
/// as the board's start.
fn no_position(value: &str) -> bool {
    matches!(value.trim(), "" | "?")
}

/// The tags to write: the game's tags with `GameType` and `FEN` made to
/// say what its board and setup say (the typed fields are the one source of
/// truth; readers lift these tags into them). A GameType tag names the board
/// whenever the tags alone would not give it back (a board from `--variant`,
/// inferred from the moves, or guessed from the squares; international
/// included, so that what kifu writes never depends on an inference when
/// read back): the short form for a standard board, else the full one. A
/// FEN tag that gives the setup's position is kept as written, one that
/// does not gets the setup's FEN, and without a setup one that gives no
/// position (`?`) is kept and the others are dropped ([`back_tag`]).
pub fn render_tags(game: &Game, board: Board) -> Cow<'_, [Tag]> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    let game_type = || {
        if Board::preset(board.game_type) == Some(board) {
            board.game_type.to_string()
        } else {
            board.game_type_string()
        }
    };
    let agrees = |v: &str| Board::from_game_type(v).ok() == Some(board);
    back_tag(
        &mut tags,
        "GameType",
        Backing::Value {
            agrees: &agrees,
            value: &game_type,
        },
    );
    let fen = match game.setup.as_ref().and_then(Setup::as_draughts) {
        Some(pos) => Backing::Value {
            agrees: &|v| parse_fen(v, &board).as_ref() == Ok(pos),
            value: &|| write_fen(pos, &board),
        },
        None => Backing::Nothing {
            reads_as_nothing: &no_position,
        },
    };
    back_tag(&mut tags, "FEN", fen);
    tags
}

/// Where each move of a record was written (byte offset and length in the
/// record), in reading order: what locates a move that cannot be played
/// ([`judge`]). Its buffer is the thread's kept one
/// (`container::fast::kept`), given back when dropped, so that
/// reading a record costs no allocation for it.
pub struct Spans(Vec<(usize, usize)>);

impl Spans {
    /// No move yet, in this thread's buffer.
    pub fn new() -> Spans {
        Spans(crate::container::fast::kept::<(usize, usize), _>())
    }

    /// Notes a move written at `at`, `len` bytes long.
    #[inline]
    pub fn push(&mut self, at: usize, len: usize) {
        self.0.push((at, len));
    }

    /// Forgets the first `moves` moves noted (a run of them was judged).
    pub fn forget(&mut self, moves: usize) {
        self.0.drain(..moves.min(self.0.len()));
    }
}

impl Default for Spans {
    fn default() -> Spans {
        Spans::new()
    }
}

impl Drop for Spans {
    fn drop(&mut self) {
        crate::container::fast::keep::<(usize, usize), _>(std::mem::take(&mut self.0));
    }
}

/// The warning of a game read without replaying its moves.
pub const UNREPLAYED: &str =
    "moves not replayed (--no-validate): their legality is as written, unchecked";

/// Judges the moves of a game a draughts reader has read (and settled the
/// board of): replayed by the rules of its board ([`play::replay`]) unless
/// `--no-validate` reads by syntax alone (then a warning says so). Only a
/// standard board (the predefined board of its GameType number, however
/// named: tag, `--variant` or inferred) is judged: on another (a tag that
/// differs from its GameType's standard, as `20,W,10,10,N1,0`, or the 10x10
/// board assumed for alphanumeric squares without a tag) kifu knows neither
/// where the men start nor that the tag is right, and the moves are read as
/// written, as a warning says when kifu read the board so. `spans`
/// holds where each move was written in `text`, the record (byte offset and
/// length), in the order they were read: the error of a move that cannot
/// be played is located there and says which move, why, and the position
/// before it (`12... 32-28: 28 is occupied (position: W:W...:B...)`). The
/// game itself is left as it was read.
pub fn judge(
    game: &Game,
    text: &str,
    spans: &Spans,
    opts: &ReadOptions,
    warnings: &mut Vec<Problem>,
) -> Result<(), Problem> {
    if opts.no_validate && !game.moves.plies.is_empty() {
        warnings.push(Problem::whole(UNREPLAYED).of_kind(Kind::NotReplayed));
    }
    replayed(game, text, spans, opts, false).map(|_| ())
}

/// Replays a game's moves as [`judge`] does, and gives the position after
/// its main line (when `to_end`), where they were replayed (`None` where
/// they are not: a board not standard, `--no-validate`, no moves).
pub fn replayed(
    game: &Game,
    text: &str,
    spans: &Spans,
    opts: &ReadOptions,
    to_end: bool,
) -> Result<Option<Position>, Problem> {
    let standard = game
        .variant
        .as_draughts()
        .is_some_and(|b| Board::preset(b.game_type) == Some(*b));
    if opts.no_validate || !standard {
        return Ok(None);
    }
    play::replay_to_end(game, to_end).map_err(|stop| {
        let (at, len) = spans.0.get(stop.index).copied().unwrap_or((0, 0));
        let written = text.get(at..at + len).unwrap_or_default();
        let label = stop.ply.label(game.variant.first_mover());
        Problem::at(
            line_col(text, at),
            format!(
                "{label} {written}: {} (position: {})",
                stop.why, stop.position
            ),
        )
        .of_kind(Kind::IllegalMove)
    })
}

/// A run of plies read a run at a time ([`crate::container::Runs::run`]),
/// a game of its own on `board` from the position `from`, replayed as
/// [`replayed`] does; its moves' spans forgotten. Gives the run and the
/// position after it (`None` where the moves are not replayed, or where
/// no run follows from it: `after` false, once the movetext was read to
/// its end).
pub fn replayed_run(
    board: Board,
    plies: Vec<crate::ir::Ply>,
    from: &Option<Setup>,
    text: &str,
    spans: &mut Spans,
    opts: &ReadOptions,
    after: bool,
) -> Result<(Game, Option<Setup>), Problem> {
    let mut run = Game::new(Variant::Draughts(board));
    run.setup = from.clone();
    run.moves.plies = plies;
    let moves = run.moves.ply_count();
    let after = replayed(&run, text, spans, opts, after)?;
    spans.forget(moves);
    Ok((run, after.map(Setup::Draughts)))
}

/// Writes a draughts game in the PGN-style container: the board's GameType
/// tag when needed, and every move spelled by the notation `N` on the
/// game's board.
pub fn write_game<N>(
    game: &Game,
    format: &'static str,
    writes: BoardCheck,
    out: &mut String,
) -> Result<Vec<Problem>, Problem>
where
    N: Spell<Replay = super::hooks::Positions, Options = ()> + 'static,
{
    crate::codec::write_runs(runs::<N>(format, writes), game, out)
}

/// The writer of a draughts game in the notation `N` a run of its main
/// line at a time ([`crate::codec::RunsFn`]).
pub fn runs<N>(format: &'static str, writes: BoardCheck) -> Box<dyn RunWriter>
where
    N: Spell<Replay = super::hooks::Positions, Options = ()> + 'static,
{
    Box::new(Writer::<N> {
        format,
        writes,
        movetext: None,
        notation: std::marker::PhantomData,
    })
}

/// Whether a notation writes games of a board (the error says why not).
pub type BoardCheck = fn(&Board) -> Result<(), Problem>;

/// A draughts game being written in the notation `N`.
struct Writer<N> {
    format: &'static str,
    writes: BoardCheck,
    movetext: Option<container::Movetext>,
    notation: std::marker::PhantomData<N>,
}

impl<N> Writer<N> {
    /// The game's movetext, begun when not yet.
    fn movetext(&mut self, game: &Game) -> &mut container::Movetext {
        self.movetext.get_or_insert_with(|| {
            container::Movetext::new(game.variant.first_mover(), &DIALECT, Style::default())
        })
    }
}

impl<N> RunWriter for Writer<N>
where
    N: Spell<Replay = super::hooks::Positions, Options = ()>,
{
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        let board = crate::family::draughts::hooks::board_of(&game.variant, self.format)?;
        (self.writes)(&board)?;
        let tags = render_tags(game, board);
        self.movetext(game).head(game, &tags, out)
    }

    fn begin(&mut self, head: &Game, out: &mut String) -> Result<(), Problem> {
        // The head is the tags, board and setup: no result.
        self.head(head, out)
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        let board = crate::family::draughts::hooks::board_of(&run.variant, self.format)?;
        (self.writes)(&board)?;
        // A draughts move is spelled on the board alone, wherever it stands:
        // each where the container writes it.
        self.movetext(run).plies(&run.moves.plies, out, |ply, buf| {
            N::spell_ply(&(), &board, ply, buf)
        })
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
        let board = crate::family::draughts::hooks::board_of(&game.variant, self.format)?;
        (self.writes)(&board)?;
        self.movetext(game);
        let movetext = self.movetext.take().expect("begun above");
        movetext.end(game, || render_tags(game, board), &DIALECT, head, out)
    }
}
