//! Draughts move legality: a game's moves replayed on its board, from its
//! start position, by the rules of its GameType ([`Rules`]).
//!
//! Each move must start on a piece of the side to move. A plain move is one
//! diagonal step forward for a man, any distance along an empty diagonal
//! for a king where kings fly, one step in any direction for a king where
//! they do not. A capture is a chain of jumps, each over exactly one
//! opponent piece that was not jumped before, landing on an empty square
//! (a flying king may jump from a distance and land on any empty square
//! beyond); the captured pieces leave the board when the move ends. A
//! capture written by its ends alone (`15x24`) or with some of its landing
//! squares is resolved by searching the jump paths that visit the written
//! squares in order: the one capturing the most pieces, the first found
//! among those (a fixed order of directions), so that the result is
//! deterministic. A man ending its move on the far row is crowned (in
//! Russian draughts, as soon as a capture reaches it, and goes on capturing
//! as a king). The separator is a hint, not a rule: a move written with `-`
//! that is no plain move is taken as a capture when one fits (Nemesis writes
//! captures so), and one written with `x` that captures nothing as the
//! plain move when it is one (`10x14` for `10-14`, as some sources write).
//!
//! Not judged: mandatory capture, majority (and quality) capture, the
//! capture of every piece a chain can take, the Frisian limit on king
//! moves. Records do not always respect them, and a reader or `kifu diff`
//! should not call such a move illegal.
//!
//! The board is a fixed array of cells with a border of two off-board cells
//! around the playing squares, so that every step and jump looks a cell up
//! without testing the board's edges; replaying a move allocates nothing
//! (but a capture of more than 16 pieces, one that several paths fit, and
//! the copy of the board a ply with variations needs).

use std::cell::RefCell;
use std::rc::Rc;

use smallvec::SmallVec;

use crate::family::any::Move;
use crate::family::draughts::hooks::position_of;
use crate::family::draughts::rules::write_fen;
use crate::family::draughts::{Board, Move as DMove, Piece, Position, Square};
use crate::ir::{Game, Ply, Side};

/// How pieces move and capture in a GameType's draughts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// How messages name the rules (`English draughts`).
    pub name: &'static str,
    /// Kings move and capture along whole diagonals.
    pub flying: bool,
    /// A flying king lands on the square just beyond the piece it
    /// captures (Thai draughts).
    pub short_landing: bool,
    /// Men capture backwards too.
    pub men_capture_back: bool,
    /// Pieces also capture along rows and columns (Frisian draughts).
    pub orthogonal: bool,
    /// A man that reaches the far row during a capture goes on as a king
    /// (Russian draughts); elsewhere it is crowned only if it ends there.
    pub crown_in_capture: bool,
    /// Men may capture kings (not in Italian draughts).
    pub men_take_kings: bool,
}

impl Rules {
    /// Whether two boards are the same game as kifu plays it: the same
    /// playing squares, start, first mover and rules, whatever their
    /// numbers and numbering (lidraughts' breakthrough and international
    /// draughts are; Frysk! and Frisian draughts, five men a side and
    /// twenty, are not, nor Russian and Brazilian draughts).
    pub fn same_game(a: &Board, b: &Board) -> bool {
        let game = |board: &Board| {
            let rules = Rules {
                name: "",
                ..Rules::of(board)
            };
            let squares = (board.width, board.height, board.invert);
            (squares, board.start_rows(), board.first, rules)
        };
        game(a) == game(b)
    }

    /// The rules of a board's GameType. A GameType kifu knows no rules for
    /// (Spantsiretti, a number PDN does not define) is played by the most
    /// lenient ones: flying kings, men capturing backwards, a man crowned
    /// during a capture going on as a king.
    pub fn of(board: &Board) -> Rules {
        let rules = |name, flying, men_capture_back| Rules {
            name,
            flying,
            short_landing: false,
            men_capture_back,
            orthogonal: false,
            crown_in_capture: false,
            men_take_kings: true,
        };
        match board.game_type {
            20 => rules("international draughts", true, true),
            21 => rules("English draughts", false, false),
            22 => Rules {
                men_take_kings: false,
                ..rules("Italian draughts", false, false)
            },
            23 => rules("pool checkers", true, true),
            24 => rules("Spanish draughts", true, false),
            25 => Rules {
                crown_in_capture: true,
                ..rules("Russian draughts", true, true)
            },
            26 => rules("Brazilian draughts", true, true),
            27 => rules("Canadian draughts", true, true),
            28 => rules("Portuguese draughts", true, false),
            29 => rules("Czech draughts", true, false),
            31 => Rules {
                short_landing: true,
                ..rules("Thai draughts", true, false)
            },
            40 => Rules {
                orthogonal: true,
                ..rules("Frisian draughts", true, true)
            },
            // lidraughts' variants: Frysk! is Frisian draughts from five men
            // a side; breakthrough, antidraughts and a game from a position
            // move and capture as international draughts (only what wins
            // differs, which kifu does not judge).
            97 => Rules {
                orthogonal: true,
                ..rules("Frysk! (Frisian draughts)", true, true)
            },
            96 => rules("breakthrough (international draughts)", true, true),
            98 => rules("antidraughts (international draughts)", true, true),
            99 => rules("international draughts", true, true),
            _ => Rules {
                crown_in_capture: true,
                ..rules("this GameType's draughts", true, true)
            },
        }
    }
}

/// What a cell holds: nothing, a man of a side, a king (with the side's
/// bit), a mark on a piece a capture being searched has jumped, or the
/// border.
const EMPTY: u8 = 0;
const WHITE: u8 = 1;
const BLACK: u8 = 2;
const KING: u8 = 4;
const TAKEN: u8 = 8;
const OFF: u8 = 16;

/// Cells per row: the widest board (26 columns) and two border cells on
/// each side.
const STRIDE: usize = 30;
/// The cells of the array: as many rows as columns.
const CELLS: usize = STRIDE * STRIDE;

/// One diagonal step up and right (up: towards Black, seen by White).
const UP_RIGHT: isize = STRIDE as isize + 1;
/// One diagonal step up and left.
const UP_LEFT: isize = STRIDE as isize - 1;
/// The four diagonal directions, White's forward ones first.
const DIAGONALS: [isize; 4] = [UP_RIGHT, UP_LEFT, -UP_LEFT, -UP_RIGHT];
/// The four diagonal directions, then the four orthogonal ones (Frisian
/// captures): the next playing square along a column or a row is two cells
/// away.
const LINES: [isize; 8] = [
    UP_RIGHT,
    UP_LEFT,
    -UP_LEFT,
    -UP_RIGHT,
    2 * STRIDE as isize,
    -2 * STRIDE as isize,
    2,
    -2,
];

/// How many jump positions the capture searches of one game may visit in
/// all: far more than any real game needs (no game of the shared corpus
/// needs more than 52: most captures are a man's single jump, played
/// without a search), and a bound on what a made-up one costs.
const SEARCH_LIMIT: u32 = 200_000;

/// The side's bit in a cell.
fn color(side: Side) -> u8 {
    match side {
        Side::White => WHITE,
        Side::Black => BLACK,
    }
}

/// The side's name in messages.
fn named(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A board's squares in the cell array, its rules and its start position:
/// built once per board ([`geometry`]).
struct Geometry {
    board: Board,
    rules: Rules,
    /// The cell of each square (index: the square's number).
    cell: Vec<u16>,
    /// The board without pieces.
    empty: Cells,
    /// The board at the start of a game: men on each side's first rows
    /// ([`Board::starting_side`]).
    start: Cells,
    /// The directions a man of White, of Black, captures in.
    man_dirs: [&'static [isize]; 2],
    /// The directions a king captures in.
    king_dirs: &'static [isize],
}

/// The pieces on the board.
#[derive(Clone)]
struct Cells([u8; CELLS]);

/// The geometry of a board: the one built last on this thread when the
/// board is the same (a file's games share their board), else a new one.
fn geometry(board: Board) -> Rc<Geometry> {
    thread_local! {
        static LAST: RefCell<Option<Rc<Geometry>>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some(g) if g.board == board => g.clone(),
            _ => {
                let g = Rc::new(Geometry::new(board));
                *last = Some(g.clone());
                g
            }
        }
    })
}

impl Geometry {
    fn new(board: Board) -> Geometry {
        let count = usize::from(board.square_count());
        let mut cell = vec![0u16; count + 1];
        let mut empty = Cells([OFF; CELLS]);
        let mut start = Cells([OFF; CELLS]);
        for (n, c) in cell.iter_mut().enumerate().skip(1) {
            let sq = Square(n as u16);
            if let Some((col, row)) = board.coords(sq) {
                let at = (usize::from(row) + 1) * STRIDE + usize::from(col) + 1;
                *c = at as u16;
                empty.0[at] = EMPTY;
                start.0[at] = match board.starting_side(sq) {
                    Some(side) => color(side),
                    None => EMPTY,
                };
            }
        }
        let rules = Rules::of(&board);
        let all: &'static [isize] = if rules.orthogonal { &LINES } else { &DIAGONALS };
        let (white, black) = if rules.men_capture_back {
            (all, all)
        } else {
            (&DIAGONALS[..2], &DIAGONALS[2..])
        };
        Geometry {
            board,
            rules,
            cell,
            empty,
            start,
            man_dirs: [white, black],
            king_dirs: all,
        }
    }

    /// The cell of a square (0, a border cell, for a square off the board).
    #[inline]
    fn at(&self, sq: Square) -> usize {
        self.cell
            .get(usize::from(sq.0))
            .map_or(0, |&c| usize::from(c))
    }

    /// The square of a cell.
    fn square(&self, cell: usize) -> Square {
        let (col, row) = ((cell % STRIDE) as i32 - 1, (cell / STRIDE) as i32 - 1);
        self.board.square_at(col, row).unwrap_or(Square(0))
    }

    /// Whether a cell is on `side`'s far row, where its men are crowned.
    #[inline]
    fn far_row(&self, cell: usize, side: Side) -> bool {
        // Row r holds the cells from (r + 1) * STRIDE on; the border rows
        // around the board hold no piece.
        match side {
            Side::White => cell >= (usize::from(self.board.height) + 1) * STRIDE,
            Side::Black => cell < 3 * STRIDE,
        }
    }

    /// The cells of a position.
    fn place(&self, pos: &Position) -> Cells {
        let mut cells = self.empty.clone();
        for (pieces, bit) in [(&pos.white, WHITE), (&pos.black, BLACK)] {
            for p in pieces {
                let c = self.at(p.square);
                if c != 0 {
                    cells.0[c] = bit | if p.king { KING } else { 0 };
                }
            }
        }
        cells
    }

    /// The position of the cells, `side` to move, as a PDN FEN.
    fn fen(&self, cells: &Cells, side: Side) -> String {
        write_fen(&self.position(cells, side), &self.board)
    }

    /// The position of the cells, `side` to move.
    fn position(&self, cells: &Cells, side: Side) -> Position {
        let mut pos = Position {
            to_move: Some(side),
            white: Vec::new(),
            black: Vec::new(),
        };
        for n in 1..self.cell.len() {
            let v = cells.0[usize::from(self.cell[n])];
            let piece = Piece {
                square: Square(n as u16),
                king: v & KING != 0,
            };
            if v & WHITE != 0 {
                pos.white.push(piece);
            } else if v & BLACK != 0 {
                pos.black.push(piece);
            }
        }
        pos
    }

    /// A square as the board writes it, for messages.
    fn name(&self, sq: Square) -> String {
        let mut s = String::new();
        self.board.write_square(sq, &mut s);
        s
    }

    /// A cell's square as the board writes it, for messages.
    fn cell_name(&self, cell: usize) -> String {
        self.name(self.square(cell))
    }

    /// Plays `m` for `side`, or says why it cannot be played (the cells
    /// are then as they were). A capture that several jump paths with
    /// different captured pieces fit is left unplayed and its paths put in
    /// `paths` (empty otherwise): the moves after it tell which one it is.
    #[inline]
    fn play(
        &self,
        cells: &mut Cells,
        side: Side,
        m: &DMove,
        paths: &mut Paths,
        budget: &mut u32,
    ) -> Result<(), String> {
        // Nearly every move at once: a man's or a king's step written as one.
        if let ([first, last], false) = (m.path.as_slice(), m.capture) {
            let (from, to) = (self.at(*first), self.at(*last));
            let piece = cells.0[from];
            if piece & color(side) != 0 && cells.0[to] == EMPTY {
                let diff = to as isize - from as isize;
                let up = diff == UP_RIGHT || diff == UP_LEFT;
                let down = diff == -UP_RIGHT || diff == -UP_LEFT;
                let forward = if side == Side::White { up } else { down };
                if forward || ((up || down) && piece & KING != 0) {
                    let crowned = if self.far_row(to, side) { KING } else { 0 };
                    cells.0[from] = EMPTY;
                    cells.0[to] = piece | crowned;
                    return Ok(());
                }
            }
        }
        self.play_any(cells, side, m, paths, budget)
    }

    /// [`Geometry::play`] for every move.
    fn play_any(
        &self,
        cells: &mut Cells,
        side: Side,
        m: &DMove,
        paths: &mut Paths,
        budget: &mut u32,
    ) -> Result<(), String> {
        if m.path.len() < 2 {
            return Err("a move needs at least two squares".to_string());
        }
        let (first, last) = (m.path[0], m.path[m.path.len() - 1]);
        let from = self.at(first);
        let piece = cells.0[from];
        let own = color(side);
        if piece & own == 0 {
            return Err(if piece & (WHITE | BLACK) == 0 {
                format!("no piece of {} on {}", named(side), self.name(first))
            } else {
                format!(
                    "the piece on {} is {}'s, and {} is to move",
                    self.name(first),
                    named(side.other()),
                    named(side)
                )
            });
        }
        if m.path.len() > 2 {
            return self.capture(cells, side, m, paths, budget);
        }
        let to = self.at(last);
        let step = |cells: &mut Cells| {
            self.step(cells, side, from, to)?;
            let crowned = if self.far_row(to, side) { KING } else { 0 };
            cells.0[from] = EMPTY;
            cells.0[to] = piece | crowned;
            Ok(())
        };
        // The separator is a hint: a capture written with `-` (as Nemesis
        // writes them) and a step written with `x` (as some sources do,
        // `10x14`) are read as what they are; the message is the written
        // kind's.
        if m.capture {
            self.capture(cells, side, m, paths, budget)
                .or_else(|why| step(cells).map_err(|_: String| why))
        } else {
            step(cells).or_else(|why| self.capture(cells, side, m, paths, budget).map_err(|_| why))
        }
    }

    /// Why the piece on `from` cannot make the plain move to `to`, if it
    /// cannot.
    fn step(&self, cells: &Cells, side: Side, from: usize, to: usize) -> Result<(), String> {
        let names = || (self.cell_name(from), self.cell_name(to));
        let (dc, dr) = (
            (to % STRIDE) as isize - (from % STRIDE) as isize,
            (to / STRIDE) as isize - (from / STRIDE) as isize,
        );
        if dc.abs() != dr.abs() || dc == 0 {
            let (a, b) = names();
            return Err(format!("{a}-{b} is not a move along a diagonal"));
        }
        if cells.0[to] != EMPTY {
            return Err(format!("{} is occupied", names().1));
        }
        let king = cells.0[from] & KING != 0;
        let distance = dc.unsigned_abs();
        if !king {
            if (dr > 0) != (side == Side::White) {
                return Err("a man does not move backwards".to_string());
            }
            if distance > 1 {
                return Err("a man moves one square".to_string());
            }
            return Ok(());
        }
        if distance > 1 && !self.rules.flying {
            return Err(format!("a king moves one square in {}", self.rules.name));
        }
        let dir = dr.signum() * STRIDE as isize + dc.signum();
        let mut c = from.wrapping_add_signed(dir);
        while c != to {
            if cells.0[c] != EMPTY {
                let (a, b) = names();
                return Err(format!(
                    "the diagonal from {a} to {b} is blocked at {}",
                    self.cell_name(c)
                ));
            }
            c = c.wrapping_add_signed(dir);
        }
        Ok(())
    }

    /// The capture that `m`'s squares describe for `side`, resolved by
    /// [`Search`]: played when every jump path that fits gives one
    /// position, else its paths, those capturing the most pieces first;
    /// or why none fits.
    fn capture(
        &self,
        cells: &mut Cells,
        side: Side,
        m: &DMove,
        paths: &mut Paths,
        budget: &mut u32,
    ) -> Result<(), String> {
        if let [first, last] = m.path.as_slice() {
            if self.single_jump(cells, side, self.at(*first), self.at(*last)) {
                return Ok(());
            }
        }
        self.search(cells, side, m, paths, budget)
    }

    /// [`Geometry::capture`] by the search of every jump path.
    #[inline(never)]
    fn search(
        &self,
        cells: &mut Cells,
        side: Side,
        m: &DMove,
        paths: &mut Paths,
        budget: &mut u32,
    ) -> Result<(), String> {
        let written: SmallVec<[usize; 8]> = m.path.iter().map(|&s| self.at(s)).collect();
        let from = written[0];
        let piece = cells.0[from];
        let mut search = Search {
            geo: self,
            side,
            foe: color(side.other()),
            written: &written,
            taken: SmallVec::new(),
            found: SmallVec::new(),
            budget: *budget,
        };
        // The piece leaves its square: a king may pass it or end there.
        cells.0[from] = EMPTY;
        search.jumps(cells, from, piece & KING != 0, 1);
        cells.0[from] = piece;
        *budget = search.budget;
        let mut found = std::mem::take(&mut search.found);
        if found.is_empty() {
            let mut why = format!("no capture path from {}", self.name(m.path[0]));
            let inner = &m.path[1..m.path.len() - 1];
            if !inner.is_empty() {
                let names: Vec<String> = inner.iter().map(|&s| self.name(s)).collect();
                why.push_str(&format!(" through {}", names.join(", ")));
            }
            why.push_str(&format!(" to {}", self.name(m.path[m.path.len() - 1])));
            if search.budget == 0 {
                why.push_str(&format!(
                    " (the searches stopped after {SEARCH_LIMIT} positions)"
                ));
            }
            return Err(why);
        }
        if found.len() == 1 {
            self.apply(cells, side, &found[0]);
            return Ok(());
        }
        // Most captures first, as majority capture wants; else the order
        // they were found in.
        found.sort_by_key(|f| std::cmp::Reverse(f.taken.len()));
        *paths = found;
        Ok(())
    }

    /// Whether a man on `from` can jump a piece of `foe` in direction
    /// `dir` (the piece not jumped yet, and one men may capture).
    #[inline]
    fn man_jumps(&self, cells: &Cells, from: usize, dir: isize, foe: u8) -> bool {
        let v = cells.0[from.wrapping_add_signed(dir)];
        v & foe != 0
            && v & TAKEN == 0
            && (self.rules.men_take_kings || v & KING == 0)
            && cells.0[from.wrapping_add_signed(2 * dir)] == EMPTY
    }

    /// Plays the most common capture at once, when it is the only path
    /// that fits: a man's single jump from `from` to `to` when it has no
    /// other jump there and none from `to` (the search would find that
    /// path alone). Leaves the cells as they were and says false
    /// otherwise.
    fn single_jump(&self, cells: &mut Cells, side: Side, from: usize, to: usize) -> bool {
        let piece = cells.0[from];
        if piece & KING != 0 || piece & color(side) == 0 {
            return false;
        }
        let dirs = self.man_dirs[usize::from(side == Side::Black)];
        let foe = color(side.other());
        let mut only = None;
        for &dir in dirs.iter() {
            if self.man_jumps(cells, from, dir, foe) {
                if only.is_some() || from.wrapping_add_signed(2 * dir) != to {
                    return false;
                }
                only = Some(dir);
            }
        }
        let Some(dir) = only else {
            return false;
        };
        let crowned = self.far_row(to, side);
        if crowned && self.rules.crown_in_capture {
            return false;
        }
        let over = from.wrapping_add_signed(dir);
        cells.0[from] = EMPTY;
        cells.0[over] |= TAKEN;
        let more = dirs.iter().any(|&d| self.man_jumps(cells, to, d, foe));
        if more {
            cells.0[over] &= !TAKEN;
            cells.0[from] = piece;
            return false;
        }
        cells.0[over] = EMPTY;
        cells.0[to] = piece | if crowned { KING } else { 0 };
        true
    }

    /// Plays a capture path found by [`Search`].
    fn apply(&self, cells: &mut Cells, side: Side, found: &Found) {
        let piece = cells.0[found.from];
        cells.0[found.from] = EMPTY;
        for &c in &found.taken {
            cells.0[usize::from(c)] = EMPTY;
        }
        let crowned = if found.king || self.far_row(found.end, side) {
            KING
        } else {
            0
        };
        cells.0[found.end] = piece | crowned;
    }
}

/// The jump paths of a capture that several fit, with different outcomes.
type Paths = SmallVec<[Found; 2]>;

/// A capture path that fits the written squares.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    /// The cell it starts from.
    from: usize,
    /// The cells of the pieces it jumps, in order of the cells.
    taken: SmallVec<[u16; 16]>,
    /// The cell it ends on.
    end: usize,
    /// The piece was crowned on the way (Russian draughts).
    king: bool,
}

/// At most this many capture paths with different outcomes are kept for
/// one move.
const PATHS: usize = 16;

/// The depth-first search of the jump paths of one capture.
struct Search<'a> {
    geo: &'a Geometry,
    side: Side,
    /// The opponent's bit.
    foe: u8,
    /// The written squares' cells: start, landings, end.
    written: &'a [usize],
    /// The pieces jumped so far on the path searched (marked [`TAKEN`]).
    taken: SmallVec<[u16; 16]>,
    /// The paths that fit, one for each outcome.
    found: Paths,
    /// Jump positions the search may still visit.
    budget: u32,
}

impl Search<'_> {
    /// Tries every jump from `at`; `next` is the index of the written
    /// square the path must land on next (the last one ends it).
    fn jumps(&mut self, cells: &mut Cells, at: usize, king: bool, next: usize) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let rules = &self.geo.rules;
        let flying = king && rules.flying;
        let dirs = if king {
            self.geo.king_dirs
        } else {
            self.geo.man_dirs[usize::from(self.side == Side::Black)]
        };
        let last = self.written.len() - 1;
        for &dir in dirs.iter() {
            // The piece to jump: the next one along the line (the adjacent
            // square for a piece that does not fly).
            let mut over = at.wrapping_add_signed(dir);
            if flying {
                while cells.0[over] == EMPTY {
                    over = over.wrapping_add_signed(dir);
                }
            }
            let v = cells.0[over];
            if v & self.foe == 0
                || v & TAKEN != 0
                || (!king && !rules.men_take_kings && v & KING != 0)
            {
                continue;
            }
            cells.0[over] |= TAKEN;
            self.taken.push(over as u16);
            let mut land = over.wrapping_add_signed(dir);
            while cells.0[land] == EMPTY {
                let crowned = !king && rules.crown_in_capture && self.geo.far_row(land, self.side);
                let next = if next < last && land == self.written[next] {
                    next + 1
                } else {
                    next
                };
                if next == last && land == self.written[last] {
                    self.record(land, king || crowned);
                }
                self.jumps(cells, land, king || crowned, next);
                if !flying || rules.short_landing {
                    break;
                }
                land = land.wrapping_add_signed(dir);
            }
            self.taken.pop();
            cells.0[over] &= !TAKEN;
        }
    }

    /// Keeps the path searched, ending on `end`, unless one with the same
    /// outcome is kept already.
    fn record(&mut self, end: usize, king: bool) {
        if self.found.len() == PATHS {
            return;
        }
        let mut taken = self.taken.clone();
        taken.sort_unstable();
        let path = Found {
            from: self.written[0],
            taken,
            end,
            king,
        };
        if !self.found.contains(&path) {
            self.found.push(path);
        }
    }
}

/// Why a replay stopped at a ply.
#[derive(Debug, Clone)]
pub struct Illegal<'g> {
    /// The ply whose move cannot be played.
    pub ply: &'g Ply,
    /// Its place in the walk, from 0: the order its moves are written in
    /// (each ply, then its variations).
    pub index: usize,
    /// Why (`no piece of White on 23`, `32 is occupied`, ...).
    pub why: String,
    /// The position before it, as a PDN FEN.
    pub position: String,
}

/// How many times a replay may go back to an ambiguous capture to try
/// another of its paths: real games have a few such captures, and a
/// made-up one cannot make the replay exponential.
const RETRIES: u32 = 64;

/// Replays a draughts game's moves, main line and variations (each from
/// the position before the ply it replaces), from its setup or the board's
/// start position ([`Board::starting_side`]), each ply played by the side its
/// numbering gives. Stops at the first move that cannot be played. A
/// capture that several jump paths fit with different captured pieces
/// (`15x24` written by its ends) takes the path under which the rest of its
/// line can be played, trying those that capture the most pieces first;
/// when none can, the error is the one furthest into the game. A game of
/// another family has nothing to replay.
pub fn replay(game: &Game) -> Result<(), Illegal<'_>> {
    replay_to_end(game, false).map(|_| ())
}

/// [`replay`], and (`to_end`) the position after the game's main line
/// (`None` for a game of another family or without moves).
pub fn replay_to_end(game: &Game, to_end: bool) -> Result<Option<Position>, Illegal<'_>> {
    let Some(board) = game.variant.as_draughts() else {
        return Ok(None);
    };
    let geo = geometry(*board);
    let mut cells = match position_of(&game.setup) {
        Some(p) => geo.place(p),
        None => geo.start.clone(),
    };
    let mut walk = Walk {
        geo: &geo,
        index: 0,
        retries: RETRIES,
        branches: 0,
        budget: SEARCH_LIMIT,
    };
    walk.line(&game.moves.plies, &mut cells)?;
    Ok(game
        .moves
        .plies
        .last()
        .filter(|_| to_end)
        .map(|last| geo.position(&cells, last.side.other())))
}

/// A move written in Russian short notation (`gf4`: a piece of file `g`
/// goes to f4; `fb2`: a piece of file `f` captures its way to b2), or in
/// full among such moves (`c3-d4`), with the variations that replace it.
#[derive(Debug, Clone)]
pub struct ShortMove {
    /// The file moved from, 1 = `a`.
    pub file: u8,
    /// The square moved from, where the record writes it in full.
    pub from: Option<Square>,
    /// The square moved to.
    pub to: Square,
    /// Its place among the record's short moves, in the order they are
    /// written (each move, then the moves of its variations).
    pub index: usize,
    /// The variations that replace it, each a line from the position
    /// before it.
    pub variations: Vec<Vec<ShortMove>>,
}

/// How many moves a search of short moves may try in all: an ambiguous
/// move is settled by the moves after it, and a made-up record of many
/// cannot make the search exponential.
const SHORT_LIMIT: u32 = 100_000;

/// Finds the square each move written in Russian short notation starts
/// from ([`ShortMove`]), main line and variations (each from the position
/// before the move it replaces), playing them from `setup` (or the board's
/// start) by the board's rules, `first` moving first. A move that more
/// than one piece of its file can make (with different outcomes) is the
/// one under which the rest of its line can be played: the moves after it
/// settle it. Gives each move's square of departure and whether it
/// captures, by its index. The error is at the index of a move no piece of
/// its file can make, of the move furthest into the record where no choice
/// lets the line go on, or of a move the moves after it do not settle,
/// with why.
pub fn resolve_short(
    board: &Board,
    setup: Option<&Position>,
    first: Side,
    line: &[ShortMove],
    count: usize,
) -> Result<Vec<(Square, bool)>, (usize, String)> {
    let geo = geometry(*board);
    let cells = match setup {
        Some(p) => geo.place(p),
        None => geo.start.clone(),
    };
    let mut search = Short {
        geo: &geo,
        budget: SEARCH_LIMIT,
        tries: SHORT_LIMIT,
    };
    let found = search.line(&cells, first, line)?;
    let mut out = vec![(Square(0), false); count];
    for (i, from, captured) in found {
        if let Some(slot) = out.get_mut(i) {
            *slot = (from, captured);
        }
    }
    Ok(out)
}

/// A search of the squares short moves start from ([`resolve_short`]).
struct Short<'a> {
    geo: &'a Geometry,
    /// Jump positions the capture searches may still visit.
    budget: u32,
    /// Moves the search may still try.
    tries: u32,
}

/// What a line of short moves resolves to: each move's index, square of
/// departure and whether it captures.
type Resolved = Vec<(usize, Square, bool)>;

impl Short<'_> {
    /// The moves of the piece of `m`'s file (or on its square, written in
    /// full) that can go to its square, `side` to move: each square of
    /// departure, whether it captures, and the position after it; one per
    /// outcome.
    fn choices(
        &mut self,
        cells: &Cells,
        side: Side,
        m: &ShortMove,
    ) -> SmallVec<[(Square, bool, Cells); 2]> {
        let geo = self.geo;
        let mut found: SmallVec<[(Square, bool, Cells); 2]> = SmallVec::new();
        for n in 1..geo.cell.len() {
            let from = Square(n as u16);
            let candidate = match m.from {
                Some(w) => w == from,
                None => geo.board.alpha(from).is_some_and(|(f, _)| f == m.file),
            };
            if !candidate || from == m.to || cells.0[geo.at(from)] & color(side) == 0 {
                continue;
            }
            let mv = DMove {
                path: [from, m.to].into_iter().collect(),
                capture: false,
            };
            let mut after = cells.clone();
            let mut paths = Paths::new();
            if geo
                .play(&mut after, side, &mv, &mut paths, &mut self.budget)
                .is_ok()
                && paths.is_empty()
            {
                let theirs = |c: &Cells| {
                    c.0.iter()
                        .filter(|&&v| v & color(side.other()) != 0)
                        .count()
                };
                let captured = theirs(&after) < theirs(cells);
                if !found.iter().any(|f| f.2 .0 == after.0) {
                    found.push((from, captured, after));
                }
            }
        }
        found
    }

    /// Resolves a line of short moves from `cells`, `side` to move.
    fn line(
        &mut self,
        cells: &Cells,
        side: Side,
        line: &[ShortMove],
    ) -> Result<Resolved, (usize, String)> {
        let Some((m, rest)) = line.split_first() else {
            return Ok(Vec::new());
        };
        if self.tries == 0 {
            return Err((
                m.index,
                "too many ways to read the moves before it".to_string(),
            ));
        }
        self.tries -= 1;
        // Its variations start from the same position, whatever it is.
        let mut variations = Vec::new();
        for v in &m.variations {
            variations.extend(self.line(cells, side, v)?);
        }
        let mut name = String::new();
        self.geo.board.write_square(m.to, &mut name);
        let choices = self.choices(cells, side, m);
        let file = char::from(b'a' + m.file - 1);
        if choices.is_empty() {
            return Err((
                m.index,
                format!(
                    "no piece of {} on file {file} can go to {name}",
                    named(side)
                ),
            ));
        }
        let mut taken: Option<Resolved> = None;
        let mut furthest: Option<(usize, String)> = None;
        for (from, captured, after) in &choices {
            match self.line(after, side.other(), rest) {
                Ok(found) if taken.is_some() => {
                    let _ = found;
                    return Err((
                        m.index,
                        format!(
                            "more than one piece of {} on file {file} can go to {name}, and the \
                             moves after it do not tell which",
                            named(side)
                        ),
                    ));
                }
                Ok(found) => {
                    let mut all = vec![(m.index, *from, *captured)];
                    all.extend(variations.iter().copied());
                    all.extend(found);
                    taken = Some(all);
                }
                Err(e) if furthest.as_ref().is_none_or(|f| e.0 > f.0) => furthest = Some(e),
                Err(_) => {}
            }
        }
        match (taken, furthest) {
            (Some(all), _) => Ok(all),
            (None, Some(e)) => Err(e),
            (None, None) => Err((m.index, "no move".to_string())),
        }
    }
}

/// The positions of a draughts game's main line, replayed as [`replay`]
/// replays it: the start, then the position after each ply (a capture that
/// several jump paths fit takes the first under which the rest of the main
/// line can be played). The error names the first ply that cannot be
/// played.
pub fn main_line(game: &Game) -> Result<Vec<Position>, String> {
    let Some(board) = game.variant.as_draughts() else {
        return Err(format!(
            "a {} game is not a draughts game",
            game.family().name()
        ));
    };
    let geo = geometry(*board);
    let mut cells = match position_of(&game.setup) {
        Some(p) => geo.place(p),
        None => geo.start.clone(),
    };
    let plies = &game.moves.plies;
    let mut out = Vec::with_capacity(plies.len() + 1);
    out.push(geo.position(&cells, board.first));
    let mut budget = SEARCH_LIMIT;
    for (i, ply) in plies.iter().enumerate() {
        let mut paths = Paths::new();
        let played = match &ply.mv {
            Move::Draughts(m) => geo.play(&mut cells, ply.side, m, &mut paths, &mut budget),
            other => Err(format!(
                "a {} move in a draughts game",
                other.family().name()
            )),
        };
        played.map_err(|why| format!("{} {why}", ply.label(board.first)))?;
        settle(&geo, &mut cells, ply.side, &paths, &plies[i + 1..]);
        out.push(geo.position(&cells, ply.side.other()));
    }
    Ok(out)
}

/// Plays, of the jump paths an ambiguous capture fits (`paths`; none
/// where it was not ambiguous and is played already), the first under
/// which the `rest` of its line can be played, or else the first.
fn settle(geo: &Geometry, cells: &mut Cells, side: Side, paths: &Paths, rest: &[Ply]) {
    if paths.is_empty() {
        return;
    }
    let fits = |path: &&Found| {
        let mut after = cells.clone();
        geo.apply(&mut after, side, path);
        let mut walk = Walk {
            geo,
            index: 0,
            retries: RETRIES,
            branches: 0,
            budget: SEARCH_LIMIT,
        };
        walk.line(rest, &mut after).is_ok()
    };
    let path = paths.iter().find(fits).unwrap_or(&paths[0]);
    geo.apply(cells, side, path);
}

/// The position after every ply of a draughts game as a PDN FEN, in the
/// order the container writes the plies ([`crate::family::positions`]),
/// replayed as [`main_line`] replays the main line (an ambiguous capture
/// takes the first path under which the rest of its line can be played).
pub fn positions(game: &Game) -> Vec<Option<String>> {
    let Some(board) = game.variant.as_draughts() else {
        return vec![None; crate::family::hooks::plies_in_order(&game.moves).len()];
    };
    let geo = geometry(*board);
    let start = match position_of(&game.setup) {
        Some(p) => geo.place(p),
        None => geo.start.clone(),
    };
    let mut budget = SEARCH_LIMIT;
    crate::family::hooks::positions_in_order(
        &game.moves,
        Some(start),
        &mut |cells, plies, i| {
            let ply = &plies[i];
            let Move::Draughts(m) = &ply.mv else {
                return false;
            };
            let mut paths = Paths::new();
            if geo
                .play(cells, ply.side, m, &mut paths, &mut budget)
                .is_err()
            {
                return false;
            }
            settle(&geo, cells, ply.side, &paths, &plies[i + 1..]);
            true
        },
        &|cells, ply| geo.fen(cells, ply.side.other()),
    )
}

/// A replay under way.
struct Walk<'a> {
    geo: &'a Geometry,
    /// The place in the walk of the next ply.
    index: usize,
    /// Returns to an ambiguous capture left.
    retries: u32,
    /// Ambiguous captures being tried, one inside the other (each holds a
    /// board on the heap and a few frames of the stack).
    branches: u32,
    /// Jump positions the capture searches may still visit.
    budget: u32,
}

impl Walk<'_> {
    /// Plays `plies` (a line, or the rest of one) and the variations of
    /// each, from `cells`.
    fn line<'g>(&mut self, plies: &'g [Ply], cells: &mut Cells) -> Result<(), Illegal<'g>> {
        // The paths of an ambiguous capture (empty for every other move).
        let mut paths = Paths::new();
        for (i, ply) in plies.iter().enumerate() {
            let k = self.index;
            self.index += 1;
            // Variations start from the position before the ply.
            let before = (!ply.variations.is_empty()).then(|| Box::new(cells.clone()));
            let played = match &ply.mv {
                Move::Draughts(m) => {
                    self.geo
                        .play(cells, ply.side, m, &mut paths, &mut self.budget)
                }
                other => Err(format!(
                    "a {} move in a draughts game",
                    other.family().name()
                )),
            };
            if let Err(why) = played {
                return Err(self.illegal(ply, k, why, cells));
            }
            if let Some(mut before) = before {
                let last = ply.variations.len() - 1;
                for (j, v) in ply.variations.iter().enumerate() {
                    if j == last {
                        self.line(&v.plies, &mut before)?;
                    } else {
                        self.line(&v.plies, &mut before.clone())?;
                    }
                }
            }
            if !paths.is_empty() {
                if self.retries > 0 && self.branches < RETRIES {
                    return self.branch(&plies[i + 1..], cells, ply.side, &paths);
                }
                // Out of retries: the first path, without going back.
                self.geo.apply(cells, ply.side, &paths[0]);
                paths.clear();
            }
        }
        Ok(())
    }

    /// The error of the `k`-th ply of the walk, played from `cells`.
    #[cold]
    fn illegal<'g>(&self, ply: &'g Ply, k: usize, why: String, cells: &Cells) -> Illegal<'g> {
        Illegal {
            ply,
            index: k,
            why,
            position: self.geo.fen(cells, ply.side),
        }
    }

    /// Plays the rest of a line after an ambiguous capture, under each of
    /// its paths in turn until one can be played to the end.
    fn branch<'g>(
        &mut self,
        rest: &'g [Ply],
        cells: &mut Cells,
        side: Side,
        paths: &[Found],
    ) -> Result<(), Illegal<'g>> {
        let start = self.index;
        self.branches += 1;
        let mut furthest: Option<Illegal<'g>> = None;
        for (n, path) in paths.iter().enumerate() {
            if n > 0 {
                if self.retries == 0 {
                    break;
                }
                self.retries -= 1;
            }
            self.index = start;
            let mut after = Box::new(cells.clone());
            self.geo.apply(&mut after, side, path);
            match self.line(rest, &mut after) {
                Ok(()) => {
                    self.branches -= 1;
                    // The position at the end of the line.
                    *cells = *after;
                    return Ok(());
                }
                Err(e) if furthest.as_ref().is_none_or(|f| e.index > f.index) => furthest = Some(e),
                Err(_) => {}
            }
        }
        self.branches -= 1;
        furthest.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod short_tests {
    use super::*;

    fn at(board: &Board, text: &str) -> Square {
        let b = text.as_bytes();
        board
            .from_alpha(i32::from(b[0] - b'a' + 1), i32::from(b[1] - b'0'))
            .expect("a playing square")
    }

    /// A main line of short moves, indexed in order.
    fn moves(list: &[(u8, Option<Square>, Square)]) -> Vec<ShortMove> {
        list.iter()
            .enumerate()
            .map(|(index, &(file, from, to))| ShortMove {
                file,
                from,
                to,
                index,
                variations: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn a_short_move_is_the_one_piece_of_its_file_that_can_make_it() {
        let board = Board::preset(25).expect("Russian draughts");
        // From the start: c3-d4, f6-e5, then d4:f6 (a capture), g7:e5.
        let line = moves(&[
            (3, None, at(&board, "d4")),
            (6, None, at(&board, "e5")),
            (4, None, at(&board, "f6")),
            (7, None, at(&board, "e5")),
        ]);
        let found = resolve_short(&board, None, Side::White, &line, 4).unwrap();
        let want = [("c3", false), ("f6", false), ("d4", true), ("g7", true)];
        for ((sq, captured), (name, capture)) in found.iter().zip(want) {
            assert_eq!((*sq, *captured), (at(&board, name), capture), "{name}");
        }
        // A king on c5 and a man on c3 both reach d4, and nothing after
        // tells which: ambiguous.
        let piece = |name, king| Piece {
            square: at(&board, name),
            king,
        };
        let pos = Position {
            to_move: Some(Side::White),
            white: vec![piece("c3", false), piece("c5", true)],
            black: vec![piece("h8", false)],
        };
        let one = moves(&[(3, None, at(&board, "d4"))]);
        let err = resolve_short(&board, Some(&pos), Side::White, &one, 1).unwrap_err();
        assert_eq!(err.0, 0);
        assert!(
            err.1.contains("more than one piece of White on file c"),
            "{}",
            err.1
        );
        // The moves after settle it: `cb6` needs the king still on c5, so
        // the man went c3-d4.
        let settled = moves(&[
            (3, None, at(&board, "d4")),
            (8, None, at(&board, "g7")),
            (3, None, at(&board, "b6")),
        ]);
        let found = resolve_short(&board, Some(&pos), Side::White, &settled, 3).unwrap();
        assert_eq!(found[0].0, at(&board, "c3"));
        assert_eq!(found[2].0, at(&board, "c5"));
        // Written in full, only that piece is asked.
        let full = moves(&[(3, Some(at(&board, "c5")), at(&board, "d4"))]);
        let one = resolve_short(&board, Some(&pos), Side::White, &full, 1).unwrap();
        assert_eq!(one, [(at(&board, "c5"), false)]);
        // Nothing on file a reaches b6.
        let none = resolve_short(
            &board,
            None,
            Side::White,
            &moves(&[(1, None, at(&board, "b6"))]),
            1,
        );
        assert!(none.unwrap_err().1.contains("no piece of White on file a"));
    }
}
