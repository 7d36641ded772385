//! Tenjiku shogi on the board: the start position, how each piece moves,
//! what a move captures and burns, and the resolution of a written move to
//! the one piece that can make it.
//!
//! Movements follow the reconstruction of the Wikipedia article and H. G.
//! Muller's chessvariants.com page (Betza notation in the comments of
//! `movement`), taking the more permissive reading where the sources
//! differ (a reader resolves moves, it does not referee): the free eagle
//! jumps to the second square in any direction and has lion power on the
//! diagonals; the lion and the lion hawk may step to an empty square and
//! on (a double move without capture) or back (a pass).
//!
//! Range-jumping generals move as their slider, and capture by jumping
//! over any number of pieces of either side whose rank is lower than
//! theirs: kings and crown princes are never jumped, the great general
//! jumps everything else but great generals, the vice general everything
//! but those and vice generals, rook and bishop generals everything but
//! the four generals.
//!
//! A fire demon that moves burns every enemy piece next to where it ends,
//! but enemy fire demons; a piece that ends next to an enemy fire demon is
//! burned itself (suicide, `*`), after its own burns.

use crate::family::tenjiku::{Claim, Kind, Move, Piece, Square};
use crate::ir::{Game, Line, Side};

/// A piece on the board: its side and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Man {
    /// Whose piece.
    pub side: Side,
    /// The piece.
    pub piece: Piece,
}

/// The 16x16 board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Man>; 256],
}

/// Black's pieces of the start position, rank by rank from Black's back
/// rank (p) forward, files 16 to 1 (left to right as Black sees them);
/// `.` is an empty square. White's are the same turned half round.
const START: [[&str; 16]; 5] = [
    [
        "L", "N", "FL", "I", "C", "S", "G", "K", "DE", "G", "S", "C", "I", "FL", "N", "L",
    ],
    [
        "RC", ".", "ChS", "ChS", ".", "BT", "Ky", "Ln", "FK", "Ph", "BT", ".", "ChS", "ChS", ".",
        "RC",
    ],
    [
        "SSo", "VSo", "B", "DH", "DK", "WBf", "FiD", "LHk", "FEg", "FiD", "WBf", "DK", "DH", "B",
        "VSo", "SSo",
    ],
    [
        "SM", "VM", "R", "HF", "SE", "BGn", "RGn", "GGn", "VGn", "RGn", "BGn", "SE", "HF", "R",
        "VM", "SM",
    ],
    ["P"; 16],
];

impl Board {
    /// An empty board.
    pub fn empty() -> Board {
        Board {
            squares: [None; 256],
        }
    }

    /// The standard start position: Black on ranks l to p, White on a to
    /// e, dogs on 5k, 12k (Black) and 5f, 12f (White).
    pub fn start() -> Board {
        let mut b = Board::empty();
        for (i, rank) in START.iter().enumerate() {
            let r = 16 - i as u32;
            for (j, name) in rank.iter().enumerate() {
                let Some(piece) = Piece::parse(name) else {
                    continue;
                };
                let f = 16 - j as u32;
                b.put(sq(f, r), Side::Black, piece);
                b.put(sq(17 - f, 17 - r), Side::White, piece);
            }
        }
        let dog = Piece::plain(Kind::Dog);
        for (f, r) in [(5, 11), (12, 11)] {
            b.put(sq(f, r), Side::Black, dog);
            b.put(sq(17 - f, 17 - r), Side::White, dog);
        }
        b
    }

    /// What stands on a square.
    pub fn at(&self, s: Square) -> Option<Man> {
        self.squares[s.index()]
    }

    /// Puts a piece on a square.
    pub fn put(&mut self, s: Square, side: Side, piece: Piece) {
        self.squares[s.index()] = Some(Man { side, piece });
    }

    /// Empties a square.
    pub fn clear(&mut self, s: Square) {
        self.squares[s.index()] = None;
    }

    /// Every piece with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Man)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| (Square::from_index(i), m)))
    }

    /// Whether an enemy of `side` stands on a square.
    pub fn is_enemy(&self, s: Square, side: Side) -> bool {
        self.at(s).is_some_and(|m| m.side != side)
    }

    /// A square a piece of `side` may end on: empty or an enemy's.
    fn open(&self, s: Square, side: Side) -> bool {
        self.at(s).is_none_or(|m| m.side != side)
    }
}

/// The position of a FEN tag, and the side to move. The tag lists the
/// ranks from `a` (White's back rank) to `p`, separated by `/`; each rank
/// its squares from file 16 to file 1 (left to right as Black sees the
/// board), separated by commas: a piece's abbreviation (any set; its first
/// letter upper case for Black, lower case for White: `FiD`, `fid`, `+P`,
/// `+p`) or a number of empty squares. Then a blank and `b` or `w`, the
/// side to move (`b` when left out).
pub fn parse_fen(text: &str) -> Result<(Board, Side), String> {
    let mut parts = text.split_whitespace();
    let placement = parts.next().unwrap_or("");
    let side = match parts.next() {
        None | Some("b") => Side::Black,
        Some("w") => Side::White,
        Some(other) => {
            return Err(format!(
                "FEN: the side to move is `b` or `w`, not {other}",
                other = crate::error::quote(other)
            ))
        }
    };
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 16 {
        return Err(format!(
            "FEN: {} ranks, where the board has 16 (a to p, separated by `/`)",
            ranks.len()
        ));
    }
    let mut board = Board::empty();
    for (r, rank) in ranks.iter().enumerate() {
        let letter = char::from(b'a' + r as u8);
        let mut file: u32 = 17;
        for cell in rank.split(',') {
            let cell = cell.trim();
            if let Ok(n) = cell.parse::<u32>() {
                if n == 0 || n > 16 {
                    return Err(format!(
                        "FEN: rank {letter}: {cell} empty squares",
                        cell = crate::error::quote(cell)
                    ));
                }
                file = file.saturating_sub(n);
            } else {
                let piece = Piece::parse(cell)
                    .ok_or_else(|| format!("FEN: {}", super::unknown_piece(cell)))?;
                let first = cell.trim_start_matches('+').chars().next().unwrap_or('a');
                let side = if first.is_ascii_uppercase() {
                    Side::Black
                } else {
                    Side::White
                };
                file -= 1;
                if file == 0 {
                    break;
                }
                board.put(sq(file, r as u32 + 1), side, piece);
            }
            if file == 0 {
                break;
            }
        }
        if file != 1 {
            return Err(format!("FEN: rank {letter} does not hold 16 squares"));
        }
    }
    Ok((board, side))
}

impl Board {
    /// The position as a FEN tag writes it ([`parse_fen`]), TSA letters.
    pub fn fen(&self, side: Side) -> String {
        let mut out = String::new();
        for rank in 1..=16 {
            if rank > 1 {
                out.push('/');
            }
            let mut cells: Vec<String> = Vec::new();
            let mut empty = 0;
            for file in (1..=16).rev() {
                match self.at(sq(file, rank)) {
                    None => empty += 1,
                    Some(m) => {
                        if empty > 0 {
                            cells.push(empty.to_string());
                            empty = 0;
                        }
                        let name = m.piece.to_string();
                        cells.push(match m.side {
                            Side::Black => name,
                            Side::White => name.to_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                cells.push(empty.to_string());
            }
            out.push_str(&cells.join(","));
        }
        out.push_str(match side {
            Side::Black => " b",
            Side::White => " w",
        });
        out
    }
}

fn sq(file: u32, rank: u32) -> Square {
    Square::new(file, rank).expect("a square of the board")
}

/// How a piece moves along one kind of direction.
#[derive(Debug, Clone, Copy, Default)]
struct Ray {
    /// How far it slides (15: any distance); 0 none.
    range: u8,
    /// It jumps to the second square.
    jump2: bool,
    /// Lion power along the line: to the first or second square, or
    /// capture on the first and go on to the second or back (igui).
    lion: bool,
    /// Heavenly tetrarchs: skips the first square and slides on, to at
    /// most this many squares.
    skip: u8,
    /// A range-jumping general: captures over lower pieces.
    general: bool,
}

const NO: Ray = Ray {
    range: 0,
    jump2: false,
    lion: false,
    skip: 0,
    general: false,
};
const fn step(n: u8) -> Ray {
    Ray { range: n, ..NO }
}
const SLIDE: Ray = step(15);
const JUMP2: Ray = Ray { jump2: true, ..NO };
const LION: Ray = Ray {
    range: 1,
    jump2: true,
    lion: true,
    ..NO
};
const GENERAL: Ray = Ray {
    general: true,
    ..SLIDE
};

/// How a kind moves: one ray per kind of direction (forward, forward
/// diagonals, sideways, backward diagonals, backward), and the moves that
/// are not along lines.
#[derive(Debug, Clone, Copy)]
struct Movement {
    forward: Ray,
    forward_diagonal: Ray,
    sideways: Ray,
    backward_diagonal: Ray,
    backward: Ray,
    /// The shogi knight's jump (two forward, one aside).
    knight: bool,
    /// The lion's move: any square within two, and double moves.
    lion: bool,
    /// The area move: up to three king steps through empty squares.
    area: bool,
    /// Captures an adjacent enemy without moving (heavenly tetrarchs).
    igui: bool,
}

const fn lines(f: Ray, fd: Ray, s: Ray, bd: Ray, b: Ray) -> Movement {
    Movement {
        forward: f,
        forward_diagonal: fd,
        sideways: s,
        backward_diagonal: bd,
        backward: b,
        knight: false,
        lion: false,
        area: false,
        igui: false,
    }
}

/// How each kind moves (Betza notation of chessvariants.com).
fn movement(kind: Kind) -> Movement {
    use Kind::*;
    let one = step(1);
    let two = step(2);
    match kind {
        // K
        King | CrownPrince => lines(one, one, one, one, one),
        // fW
        Pawn => lines(one, NO, NO, NO, NO),
        // fWbF
        Dog => lines(one, NO, NO, one, NO),
        // fFfW
        Iron => lines(one, one, NO, NO, NO),
        // fFvW
        Copper => lines(one, one, NO, NO, one),
        // FfW
        Silver => lines(one, one, NO, one, NO),
        // WfF
        Gold => lines(one, one, one, NO, one),
        // FvW
        FerociousLeopard => lines(one, one, NO, one, one),
        // FbsW
        BlindTiger => lines(NO, one, one, one, one),
        // FfsW
        DrunkElephant => lines(one, one, one, one, NO),
        // WA
        Phoenix => lines(one, JUMP2, one, JUMP2, one),
        // FD
        Kirin => lines(JUMP2, one, JUMP2, one, JUMP2),
        // ffN
        Knight => Movement {
            knight: true,
            ..lines(NO, NO, NO, NO, NO)
        },
        // fR
        Lance => lines(SLIDE, NO, NO, NO, NO),
        // vR
        ReverseChariot => lines(SLIDE, NO, NO, NO, SLIDE),
        // sRvW
        SideMover => lines(one, NO, SLIDE, NO, one),
        // vRsW
        VerticalMover => lines(SLIDE, NO, one, NO, SLIDE),
        // R
        Rook => lines(SLIDE, NO, SLIDE, NO, SLIDE),
        // B
        Bishop => lines(NO, SLIDE, NO, SLIDE, NO),
        // RF
        DragonKing => lines(SLIDE, one, SLIDE, one, SLIDE),
        // BW
        DragonHorse => lines(one, SLIDE, one, SLIDE, one),
        // Q
        FreeKing => lines(SLIDE, SLIDE, SLIDE, SLIDE, SLIDE),
        // sRbWfW2
        SideSoldier => lines(two, NO, SLIDE, NO, one),
        // fRbWsW2
        VerticalSoldier => lines(SLIDE, NO, two, NO, one),
        // BvRsW2
        ChariotSoldier => lines(SLIDE, SLIDE, two, SLIDE, SLIDE),
        // BsRvW2
        WaterBuffalo => lines(two, SLIDE, SLIDE, SLIDE, two),
        // BbsRfWfD(fcW-vW)
        HornedFalcon => lines(LION, SLIDE, SLIDE, SLIDE, SLIDE),
        // RbBfFfA(fcF-vF)
        SoaringEagle => lines(SLIDE, LION, SLIDE, SLIDE, SLIDE),
        // QA(cF-aF), and the second square orthogonally as the TSA has it
        FreeEagle => {
            let lion_slide = Ray { range: 15, ..LION };
            let jump_slide = Ray {
                jump2: true,
                ..SLIDE
            };
            lines(jump_slide, lion_slide, jump_slide, lion_slide, jump_slide)
        }
        // KNAD(cK-aK)
        Lion => Movement {
            lion: true,
            ..lines(NO, NO, NO, NO, NO)
        },
        // Lion + B
        LionHawk => Movement {
            lion: true,
            ..lines(NO, SLIDE, NO, SLIDE, NO)
        },
        // BcppB
        BishopGeneral => lines(NO, GENERAL, NO, GENERAL, NO),
        // RcppR
        RookGeneral => lines(GENERAL, NO, GENERAL, NO, GENERAL),
        // QcppQ
        GreatGeneral => lines(GENERAL, GENERAL, GENERAL, GENERAL, GENERAL),
        // BcppB(mK-amK-aK)
        ViceGeneral => Movement {
            area: true,
            ..lines(NO, GENERAL, NO, GENERAL, NO)
        },
        // BsR(mK-amK-aK); the TSA's fire demon (and the engine of the
        // firedemon records, `8fx8l`) also slides vertically: Q(mK-amK-aK)
        FireDemon => Movement {
            area: true,
            ..lines(SLIDE, SLIDE, SLIDE, SLIDE, SLIDE)
        },
        // fRbB
        MultiGeneral => lines(SLIDE, NO, NO, SLIDE, NO),
        // vRK
        FlyingStag => lines(SLIDE, one, one, one, SLIDE),
        // sRB
        FreeBoar => lines(NO, SLIDE, SLIDE, SLIDE, NO),
        // vRB
        FlyingOx => lines(SLIDE, SLIDE, NO, SLIDE, SLIDE),
        // vRbB
        Whale => lines(SLIDE, NO, NO, SLIDE, SLIDE),
        // vRfB
        WhiteHorse => lines(SLIDE, SLIDE, NO, NO, SLIDE),
        // Skips the first square and slides on, at most three squares
        // sideways; captures an adjacent enemy without moving.
        HeavenlyTetrarch => {
            let far = Ray { skip: 15, ..NO };
            Movement {
                igui: true,
                ..lines(far, far, Ray { skip: 3, ..NO }, far, far)
            }
        }
    }
}

/// The rank of a piece for range jumps: a general jumps only pieces of a
/// lower rank; kings and crown princes are never jumped.
fn jump_rank(kind: Kind) -> u8 {
    match kind {
        Kind::King | Kind::CrownPrince => 4,
        Kind::GreatGeneral => 3,
        Kind::ViceGeneral => 2,
        Kind::RookGeneral | Kind::BishopGeneral => 1,
        _ => 0,
    }
}

/// The direction of `side`'s forward, in ranks.
fn forward(side: Side) -> i32 {
    match side {
        Side::Black => -1,
        Side::White => 1,
    }
}

/// The ray of a movement in the direction `(df, dr)` (unit steps; `dr`
/// relative to the side's forward, negative forward).
fn ray(m: &Movement, df: i32, dr_forward: i32) -> Ray {
    match (df != 0, dr_forward) {
        (false, 1) => m.forward,
        (true, 1) => m.forward_diagonal,
        (true, 0) => m.sideways,
        (true, -1) => m.backward_diagonal,
        (false, -1) => m.backward,
        _ => NO,
    }
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file()) - i32::from(b.file())).abs();
    let dr = (i32::from(a.rank()) - i32::from(b.rank())).abs();
    df.max(dr)
}

/// The unit direction and distance from `a` to `b`, if they are on one
/// line (orthogonal or diagonal).
fn line(a: Square, b: Square) -> Option<(i32, i32, i32)> {
    let df = i32::from(b.file()) - i32::from(a.file());
    let dr = i32::from(b.rank()) - i32::from(a.rank());
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let k = df.abs().max(dr.abs());
    Some((df.signum(), dr.signum(), k))
}

impl Board {
    /// The squares strictly between `from` and `k` steps of `(df, dr)`,
    /// starting at step `first`.
    fn between(
        &self,
        from: Square,
        (df, dr): (i32, i32),
        first: i32,
        k: i32,
    ) -> impl Iterator<Item = Option<Man>> + '_ {
        (first..k).map(move |i| from.offset(df * i, dr * i).and_then(|s| self.at(s)))
    }

    /// Whether the piece of `side` on `from` can move to `to`, first
    /// stopping on `via` for a double move or igui (then `to` is the
    /// second square, or `from` again).
    pub fn reaches(&self, side: Side, from: Square, via: Option<Square>, to: Square) -> bool {
        let Some(man) = self.at(from).filter(|m| m.side == side) else {
            return false;
        };
        let kind = man.piece.moves_as();
        let m = movement(kind);
        let fwd = forward(side);
        match via {
            None => {
                if to == from || !self.open(to, side) {
                    return false;
                }
                if let Some((df, dr, k)) = line(from, to) {
                    let r = ray(&m, df, dr * fwd);
                    let clear = |first| self.between(from, (df, dr), first, k).all(|m| m.is_none());
                    if k <= i32::from(r.range) && clear(1) {
                        return true;
                    }
                    if (r.jump2 || r.lion) && k == 2 {
                        return true;
                    }
                    if r.skip > 0 && k >= 2 && k <= i32::from(r.skip) && clear(2) {
                        return true;
                    }
                    if r.general && self.is_enemy(to, side) {
                        let rank = jump_rank(kind);
                        let over = self
                            .between(from, (df, dr), 1, k)
                            .all(|m| m.is_none_or(|m| jump_rank(m.piece.moves_as()) < rank));
                        if over {
                            return true;
                        }
                    }
                }
                let df = i32::from(to.file()) - i32::from(from.file());
                let dr = i32::from(to.rank()) - i32::from(from.rank());
                if m.knight && df.abs() == 1 && dr == 2 * fwd {
                    return true;
                }
                if m.lion && distance(from, to) <= 2 {
                    return true;
                }
                m.area && self.area_reaches(from, to)
            }
            Some(v) => {
                if distance(from, v) != 1 || !self.open(v, side) {
                    return false;
                }
                if to != from && (distance(v, to) != 1 || !self.open(to, side)) {
                    return false;
                }
                if m.lion {
                    return true;
                }
                let (df, dr, _) = line(from, v).unwrap_or((0, 0, 0));
                let r = ray(&m, df, dr * fwd);
                let capture = self.is_enemy(v, side);
                let on = from.offset(2 * df, 2 * dr) == Some(to);
                (r.lion && capture && (to == from || on)) || (m.igui && capture && to == from)
            }
        }
    }

    /// The area move: up to three king steps, each but the last onto an
    /// empty square (the start counts as empty), ending on `to`.
    fn area_reaches(&self, from: Square, to: Square) -> bool {
        if distance(from, to) > 3 {
            return false;
        }
        let empty = |s: Square| s == from || self.at(s).is_none();
        let neighbours = |s: Square| {
            (-1..=1)
                .flat_map(move |df| (-1..=1).map(move |dr| (df, dr)))
                .filter(|&d| d != (0, 0))
                .filter_map(move |(df, dr)| s.offset(df, dr))
        };
        let mut frontier = vec![from];
        for _ in 0..3 {
            if frontier.iter().any(|&s| distance(s, to) == 1) {
                return true;
            }
            let mut next: Vec<Square> = frontier
                .iter()
                .flat_map(|&s| neighbours(s))
                .filter(|&s| empty(s))
                .collect();
            next.sort();
            next.dedup();
            frontier = next;
        }
        false
    }

    /// Whether a move of `side`'s piece entitles it to promote: a piece
    /// that promotes moving in, out of or inside the far five ranks.
    pub fn may_promote(&self, side: Side, mv: &Move) -> bool {
        let zone = |s: Square| match side {
            Side::Black => s.rank() <= 5,
            Side::White => s.rank() >= 12,
        };
        mv.piece.can_promote() && (zone(mv.from) || zone(mv.to))
    }

    /// Plays a move (already checked), and says what it took.
    pub fn play(&mut self, side: Side, mv: &Move) -> Effects {
        let mut fx = Effects::default();
        let Some(man) = self.at(mv.from) else {
            return fx;
        };
        self.clear(mv.from);
        for s in mv.via.into_iter().chain([mv.to]) {
            if self.is_enemy(s, side) {
                fx.captured.push(s);
                self.clear(s);
            }
        }
        let piece = if mv.promote {
            man.piece.promote()
        } else {
            man.piece
        };
        self.put(mv.to, side, piece);
        let demon = |m: Man| m.piece.moves_as() == Kind::FireDemon;
        let around: Vec<Square> = (-1..=1)
            .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
            .filter(|&d| d != (0, 0))
            .filter_map(|(df, dr)| mv.to.offset(df, dr))
            .collect();
        if demon(man) {
            for &s in &around {
                if self.at(s).is_some_and(|m| m.side != side && !demon(m)) {
                    fx.burned.push(s);
                    self.clear(s);
                }
            }
        }
        let moved = mv.to != mv.from;
        if moved
            && around
                .iter()
                .any(|&s| self.at(s).is_some_and(|m| m.side != side && demon(m)))
        {
            fx.suicide = true;
            self.clear(mv.to);
        }
        fx
    }
}

/// What a move took off the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// Squares whose enemy pieces it captured (the first square of a
    /// double move, then where it ended).
    pub captured: Vec<Square>,
    /// Squares whose enemy pieces a fire demon burned.
    pub burned: Vec<Square>,
    /// The moved piece ended next to an enemy fire demon and burned.
    pub suicide: bool,
}

/// Resolves a written move (what its text claims) on the board for
/// `side`: the one piece that can make it, checked against what the record
/// says it did.
pub fn resolve(board: &Board, side: Side, w: &Claim) -> Result<Move, String> {
    let name = |p: Piece| p.to_string();
    let origins: Vec<Square> = match (w.from, w.piece) {
        (Some(from), piece) => match board.at(from) {
            // A promoted piece written by the kind it moves as, with its
            // origin (`GGn 7e-8f` for a promoted rook general), as the
            // firedemon engine writes it, is that piece.
            Some(m)
                if m.side == side
                    && piece.is_none_or(|p| {
                        p == m.piece
                            || (!p.promoted && m.piece.promoted && p.kind == m.piece.moves_as())
                    }) =>
            {
                vec![from]
            }
            Some(m) if m.side == side => {
                return Err(format!(
                    "the piece on {from} is {}, not {}",
                    name(m.piece),
                    piece.map_or(String::new(), name)
                ))
            }
            Some(_) => return Err(format!("the piece on {from} is the opponent's")),
            None => return Err(format!("there is no piece on {from}")),
        },
        (None, Some(p)) => board
            .pieces()
            .filter(|(_, m)| m.side == side && m.piece == p)
            .map(|(s, _)| s)
            .collect(),
        (None, None) => return Err("a move names a piece or its square".to_string()),
    };
    let shape = |from: Square| -> Option<(Option<Square>, Square)> {
        match (w.via, w.to) {
            // Igui: the piece stays on its square.
            (Some(v), None) => Some((Some(v), from)),
            (via, Some(to)) => Some((via, to)),
            (None, None) => None,
        }
    };
    let found: Vec<(Square, Option<Square>, Square)> = origins
        .iter()
        .filter_map(|&from| shape(from).map(|(v, to)| (from, v, to)))
        .filter(|&(from, v, to)| board.reaches(side, from, v, to))
        .collect();
    let (from, via, to) = match found.as_slice() {
        [one] => *one,
        [] => {
            let what = w
                .piece
                .or_else(|| w.from.and_then(|f| board.at(f)).map(|m| m.piece))
                .map_or("piece".to_string(), name);
            return Err(match origins.len() {
                0 => format!("{} has no {what} on the board", side_name(side)),
                _ => format!(
                    "no {what} can make this move (from {})",
                    list(origins.iter().copied())
                ),
            });
        }
        more => {
            return Err(format!(
                "ambiguous: the {} on {} can each make this move",
                w.piece.map_or("piece".to_string(), name),
                list(more.iter().map(|c| c.0))
            ))
        }
    };
    let piece = board
        .at(from)
        .map(|m| m.piece)
        .unwrap_or(Piece::plain(Kind::Pawn));
    let mut mv = Move {
        piece,
        from,
        via,
        to,
        promote: false,
    };
    let may = board.may_promote(side, &mv);
    match w.promote {
        Some(true) if !may => {
            return Err(format!("the {} cannot promote on this move", name(piece)))
        }
        Some(false) if !may => {
            return Err(format!(
                "`=` declines a promotion, but the {} cannot promote on this move",
                name(piece)
            ))
        }
        Some(p) => mv.promote = p,
        None => {}
    }
    let fx = board.clone().play(side, &mv);
    if let Some(n) = w.burned {
        if n as usize != fx.burned.len() {
            return Err(format!(
                "the record says {n} burned, but the fire demon burns {}{}",
                fx.burned.len(),
                if fx.burned.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", list(fx.burned.iter().copied()))
                }
            ));
        }
    }
    if let Some(s) = w.burned_at.iter().find(|s| !fx.burned.contains(s)) {
        return Err(format!(
            "the record says {s} burns, but the fire demon burns {}",
            if fx.burned.is_empty() {
                "nothing".to_string()
            } else {
                list(fx.burned.iter().copied())
            }
        ));
    }
    if w.burns && fx.burned.is_empty() {
        return Err("`x!` says the fire demon burns, but no enemy piece is next to it".to_string());
    }
    if w.suicide && !fx.suicide {
        return Err("`*` says the piece burns, but no enemy fire demon is next to it".to_string());
    }
    Ok(mv)
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "Black",
        Side::White => "White",
    }
}

fn list(squares: impl Iterator<Item = Square>) -> String {
    let v: Vec<String> = squares.map(|s| s.to_string()).collect();
    match v.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// How many pieces of the same name could make the same move: more than
/// one, and a move's origin must be written.
pub fn needs_origin(board: &Board, side: Side, mv: &Move) -> bool {
    board
        .pieces()
        .filter(|&(s, m)| s != mv.from && m.side == side && m.piece == mv.piece)
        .any(|(s, _)| {
            let to = if mv.to == mv.from && mv.via.is_some() {
                s
            } else {
                mv.to
            };
            board.reaches(side, s, mv.via, to)
        })
}

/// Checks a move of the IR against the board: the piece is there and can
/// make it, and promotes only where it may.
pub fn check(board: &Board, side: Side, mv: &Move) -> Result<(), String> {
    match board.at(mv.from) {
        Some(m) if m.side == side && m.piece == mv.piece => {}
        Some(m) if m.side == side => {
            return Err(format!(
                "the piece on {} is {}, not {}",
                mv.from, m.piece, mv.piece
            ))
        }
        _ => return Err(format!("{} has no piece on {}", side_name(side), mv.from)),
    }
    if !board.reaches(side, mv.from, mv.via, mv.to) {
        return Err(format!(
            "the {} on {} cannot make this move",
            mv.piece, mv.from
        ));
    }
    if mv.promote && !board.may_promote(side, mv) {
        return Err(format!("the {} cannot promote on this move", mv.piece));
    }
    Ok(())
}

/// Walks a line from a position in the order its moves are written (a
/// ply, then its variations from the position before it), giving `visit`
/// the board before each ply; `visit` returns the move to play.
pub fn walk<'g, E>(
    line: &'g Line,
    board: &mut Board,
    visit: &mut impl FnMut(&Board, &'g crate::ir::Ply) -> Result<Move, E>,
) -> Result<(), E> {
    for ply in &line.plies {
        let before = (!ply.variations.is_empty()).then(|| board.clone());
        let mv = visit(board, ply)?;
        for v in &ply.variations {
            let mut b = before.clone().unwrap_or_else(Board::empty);
            walk(v, &mut b, visit)?;
        }
        board.play(ply.side, &mv);
    }
    Ok(())
}

/// The board a game starts from: its setup, or the start position.
pub fn start_of(game: &Game) -> Result<Board, String> {
    match game.setup.as_ref() {
        None => Ok(Board::start()),
        Some(setup) => match setup.as_tenjiku() {
            Some(fen) => parse_fen(fen).map(|(b, _)| b),
            None => Err("the setup is not a tenjiku position".to_string()),
        },
    }
}

/// Walks a game's moves (each ply, then its variations) from its start on
/// the board, each checked by the rules; `visit` gets the board before the
/// move, the ply and its move. An error names the ply.
pub fn walk_checked<'g>(
    game: &'g Game,
    visit: &mut impl FnMut(&Board, &'g crate::ir::Ply, &Move),
) -> Result<(), String> {
    let mut board = start_of(game)?;
    walk(&game.moves, &mut board, &mut |b, ply| {
        let m = ply
            .mv
            .of(
                crate::family::any::Family::Tenjiku,
                crate::family::any::Move::as_tenjiku,
            )
            .and_then(super::Ply::replayed)
            .and_then(|m| check(b, ply.side, m).map(|()| m))
            .map_err(|e| format!("{} {e}", ply.label(Side::Black)))?;
        visit(b, ply, m);
        Ok(*m)
    })
}

/// Checks every move of a tenjiku game from the start position (a game
/// read from JSON), naming the ply. A game not replayed
/// ([`super::Variant::validated`] false) is checked without the board:
/// every move is a claim that the notation writes and reads back.
pub fn check_game(game: &Game) -> Result<(), String> {
    if replayed(game) {
        return walk_checked(game, &mut |_, _, _| {});
    }
    start_of(game)?;
    crate::family::hooks::plies_in_order(&game.moves)
        .into_iter()
        .try_for_each(|ply| {
            ply.mv
                .of(
                    crate::family::any::Family::Tenjiku,
                    crate::family::any::Move::as_tenjiku,
                )
                .and_then(super::Ply::claimed)
                .and_then(Claim::check)
                .map_err(|e| format!("{} {e}", ply.label(Side::Black)))
        })
}

/// The position after every ply of a replayed game as a tenjiku FEN, in
/// the order the container writes the plies
/// ([`crate::family::positions`]); none for a game not replayed.
pub fn positions(game: &Game) -> Vec<Option<String>> {
    let start = replayed(game).then(|| start_of(game).ok()).flatten();
    crate::family::hooks::positions_in_order(
        &game.moves,
        start,
        &mut |board, plies, i| {
            let ply = &plies[i];
            let mv = ply
                .mv
                .as_tenjiku()
                .and_then(|p| p.replayed().ok())
                .filter(|m| check(board, ply.side, m).is_ok());
            match mv {
                Some(m) => {
                    board.play(ply.side, m);
                    true
                }
                None => false,
            }
        },
        &|board, ply| board.fen(ply.side.other()),
    )
}

/// Whether a tenjiku game's moves were replayed (not read with
/// `--no-validate`).
pub fn replayed(game: &Game) -> bool {
    game.variant.as_tenjiku().is_none_or(|v| v.validated)
}

/// The warning of a game read without replaying its moves.
pub const UNREPLAYED: &str = "moves not replayed (--no-validate): pieces, origins, captures, \
                              promotions and burns are as written, unchecked";

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Square {
        Square::parse(t).unwrap()
    }

    fn p(t: &str) -> Piece {
        Piece::parse(t).unwrap()
    }

    /// A board with the given pieces: (square, side, piece).
    fn board(men: &[(&str, Side, &str)]) -> Board {
        let mut b = Board::empty();
        for &(at, side, piece) in men {
            b.put(s(at), side, p(piece));
        }
        b
    }

    /// The squares a lone piece reaches with single moves.
    fn reach(b: &Board, from: &str) -> Vec<String> {
        let side = b.at(s(from)).unwrap().side;
        (0..256)
            .map(Square::from_index)
            .filter(|&t| b.reaches(side, s(from), None, t))
            .map(|t| t.to_string())
            .collect()
    }

    fn count(b: &Board, from: &str) -> usize {
        reach(b, from).len()
    }

    use Side::{Black as B, White as W};

    #[test]
    fn the_start_position_has_78_pieces_a_side() {
        let b = Board::start();
        for side in [B, W] {
            assert_eq!(b.pieces().filter(|(_, m)| m.side == side).count(), 78);
        }
        let at = |t: &str| b.at(s(t)).map(|m| (m.side, m.piece.to_string()));
        assert_eq!(at("9p"), Some((B, "K".into())));
        assert_eq!(at("8a"), Some((W, "K".into())));
        assert_eq!(at("9o"), Some((B, "Ln".into())));
        assert_eq!(at("10o"), Some((B, "Ky".into())));
        assert_eq!(at("7n"), Some((B, "FiD".into())));
        assert_eq!(at("10c"), Some((W, "FiD".into())));
        assert_eq!(at("9m"), Some((B, "GGn".into())));
        assert_eq!(at("8d"), Some((W, "GGn".into())));
        assert_eq!(at("12k"), Some((B, "Dg".into())));
        assert_eq!(at("12f"), Some((W, "Dg".into())));
        assert_eq!(at("8k"), None);
        // Every kind of the start position is there, 36 of them.
        let mut kinds: Vec<_> = b.pieces().map(|(_, m)| m.piece.kind).collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds.len(), 36);
    }

    #[test]
    fn fen_tags_read_and_write_a_position() {
        let start = Board::start();
        let fen = start.fen(B);
        assert!(fen.starts_with("l,n,fl,i,c,s,g,de,k,g,s,c,i,fl,n,l/rc,1,chs,chs,1,bt,ph,fk,"));
        assert!(fen.ends_with("/L,N,FL,I,C,S,G,K,DE,G,S,C,I,FL,N,L b"));
        assert_eq!(parse_fen(&fen), Ok((start.clone(), B)));
        // Any set, any case but the first letter, `+` for promoted.
        let mut b = Board::empty();
        b.put(s("9p"), B, p("K"));
        b.put(s("8a"), W, p("K"));
        b.put(s("1a"), W, p("+P"));
        b.put(s("16p"), B, p("HT"));
        let text = "8,k,6,+p/16/16/16/16/16/16/16/16/16/16/16/16/16/16/Ht,6,K,8 w";
        assert_eq!(parse_fen(text), Ok((b.clone(), W)));
        assert_eq!(
            b.fen(W),
            "8,k,6,+p/16/16/16/16/16/16/16/16/16/16/16/16/16/16/HT,6,K,8 w"
        );
        for bad in [
            "16/16",
            "17/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16",
            "15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16",
            "zz,15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16",
            "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 x",
            "K,K,K,K,K,K,K,K,K,K,K,K,K,K,K,K,K/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16",
        ] {
            assert!(parse_fen(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn steppers_on_an_empty_board() {
        for (piece, n) in [
            ("K", 8),
            ("P", 1),
            ("Dg", 3),
            ("I", 3),
            ("C", 4),
            ("S", 5),
            ("G", 6),
            ("FL", 6),
            ("BT", 7),
            ("DE", 7),
            ("N", 2),
            ("Ph", 8),
            ("Ky", 8),
        ] {
            let b = board(&[("8h", B, piece)]);
            assert_eq!(count(&b, "8h"), n, "{piece}");
        }
        // The pawn goes forward: toward rank a for Black, p for White.
        assert_eq!(reach(&board(&[("8h", B, "P")]), "8h"), ["8g"]);
        assert_eq!(reach(&board(&[("8h", W, "P")]), "8h"), ["8i"]);
        assert_eq!(reach(&board(&[("8h", B, "N")]), "8h"), ["7f", "9f"]);
        assert_eq!(reach(&board(&[("8h", B, "Dg")]), "8h"), ["8g", "7i", "9i"]);
    }

    /// Every kind alone on 8h, Black: how many squares it reaches with one
    /// move (counted by hand: from 8h, 7 squares ahead, 8 behind, 15
    /// sideways, 14 on the forward diagonals, 15 on the backward ones).
    #[test]
    fn every_kind_on_an_empty_board() {
        use Kind::*;
        let expected = [
            (King, 8),
            (GreatGeneral, 59),
            // Bishop, and the 48 squares within three, 12 of them diagonal.
            (ViceGeneral, 29 + 48 - 12),
            (RookGeneral, 30),
            (BishopGeneral, 29),
            (FreeEagle, 59),
            (FreeKing, 59),
            // Rook lines and backward diagonals; two and two on the
            // forward diagonals.
            (SoaringEagle, 7 + 15 + 8 + 15 + 4),
            // All but forward, and two forward.
            (HornedFalcon, 14 + 15 + 15 + 8 + 2),
            (WaterBuffalo, 15 + 29 + 2 + 2),
            (ChariotSoldier, 7 + 8 + 29 + 4),
            // Queen, and the 48 within three, 24 of them on its lines.
            (FireDemon, 59 + 48 - 24),
            // Lion and bishop, 8 squares in both.
            (LionHawk, 24 + 29 - 8),
            (Lion, 24),
            (DragonKing, 34),
            (DragonHorse, 33),
            (Rook, 30),
            (Bishop, 29),
            (Kirin, 8),
            (Phoenix, 8),
            (DrunkElephant, 7),
            (BlindTiger, 7),
            (FerociousLeopard, 6),
            (Gold, 6),
            (Silver, 5),
            (Copper, 4),
            (VerticalMover, 17),
            (SideMover, 17),
            (ReverseChariot, 15),
            (VerticalSoldier, 7 + 4 + 1),
            (SideSoldier, 15 + 2 + 1),
            (Lance, 7),
            (Knight, 2),
            (Iron, 3),
            (Dog, 3),
            (Pawn, 1),
            (CrownPrince, 8),
            // Skipping the first square: 6 ahead, 7 behind, 2 and 2
            // sideways, 6 and 6 forward diagonally, 7 and 6 backward.
            (HeavenlyTetrarch, 6 + 7 + 4 + 12 + 13),
            (MultiGeneral, 7 + 15),
            (FlyingStag, 7 + 8 + 6),
            (FreeBoar, 15 + 29),
            (FlyingOx, 15 + 29),
            (Whale, 15 + 15),
            (WhiteHorse, 15 + 14),
        ];
        assert_eq!(expected.len(), KINDS_COUNT);
        for (kind, n) in expected {
            let piece = match kind.promoted_from() {
                Some(from) => Piece::plain(from).promote(),
                None => Piece::plain(kind),
            };
            let mut b = Board::empty();
            b.put(s("8h"), B, piece);
            assert_eq!(count(&b, "8h"), n, "{kind:?}");
            // White's is the same turned round.
            let mut w = Board::empty();
            w.put(s("9i"), W, piece);
            assert_eq!(count(&w, "9i"), n, "{kind:?} (White)");
        }
    }

    const KINDS_COUNT: usize = crate::family::tenjiku::KINDS.len();

    #[test]
    fn sliders_stop_at_the_first_piece() {
        // Rook on 8h: 7 up, 8 down, 7 right, 8 left.
        assert_eq!(count(&board(&[("8h", B, "R")]), "8h"), 30);
        let b = board(&[("8h", B, "R"), ("8e", W, "P"), ("5h", B, "P")]);
        let r = reach(&b, "8h");
        assert!(r.contains(&"8e".to_string()) && !r.contains(&"8d".to_string()));
        assert!(r.contains(&"6h".to_string()) && !r.contains(&"5h".to_string()));
        assert_eq!(count(&board(&[("8h", B, "L")]), "8h"), 7);
        assert_eq!(count(&board(&[("8h", B, "RC")]), "8h"), 15);
        assert_eq!(count(&board(&[("8h", B, "SM")]), "8h"), 17);
        assert_eq!(count(&board(&[("8h", B, "VM")]), "8h"), 17);
        assert_eq!(count(&board(&[("8h", B, "FK")]), "8h"), 30 + 7 + 7 + 7 + 8);
        assert_eq!(count(&board(&[("8h", B, "SSo")]), "8h"), 15 + 2 + 1);
        assert_eq!(count(&board(&[("8h", B, "VSo")]), "8h"), 7 + 4 + 1);
        assert_eq!(count(&board(&[("8h", B, "+L")]), "8h"), 15 + 7 + 7);
    }

    #[test]
    fn jumps_over_pieces() {
        let wall: Vec<(&str, Side, &str)> = ["7g", "8g", "9g", "7h", "9h", "7i", "8i", "9i"]
            .iter()
            .map(|&t| (t, B, "P"))
            .collect();
        let with = |piece| {
            let mut men = wall.clone();
            men.push(("8h", B, piece));
            reach(&board(&men), "8h")
        };
        assert_eq!(with("Ph"), ["6f", "10f", "6j", "10j"]);
        assert_eq!(with("Ky"), ["8f", "6h", "10h", "8j"]);
        assert_eq!(with("Ln").len(), 16);
        assert_eq!(with("N"), ["7f", "9f"]);
        // Heavenly tetrarchs skip the first square: sideways at most 3.
        let ht = with("HT");
        assert!(ht.contains(&"8a".to_string()) && ht.contains(&"5h".to_string()));
        assert!(!ht.contains(&"4h".to_string()));
        assert_eq!(with("FEg").len(), 8);
        assert!(with("R").is_empty() && with("FiD").is_empty());
    }

    #[test]
    fn range_jumping_generals_capture_over_lower_pieces() {
        let b = board(&[
            ("8h", B, "RGn"),
            ("8g", B, "P"),
            ("8f", W, "G"),
            ("8e", W, "Ln"),
            ("8d", W, "GGn"),
            ("8c", W, "P"),
        ]);
        let r = reach(&b, "8h");
        // Over its own pawn and the gold to the lion, or on to the great
        // general, which it cannot jump.
        assert!(r.contains(&"8f".to_string()));
        assert!(r.contains(&"8e".to_string()) && r.contains(&"8d".to_string()));
        assert!(!r.contains(&"8c".to_string()));
        // Without capturing it moves as a rook.
        assert!(!b.reaches(B, s("8h"), None, s("8a")));
        let b = board(&[("8h", B, "GGn"), ("8g", W, "GGn"), ("8f", W, "P")]);
        assert!(!b.reaches(B, s("8h"), None, s("8f")));
        let b = board(&[("8h", B, "GGn"), ("8g", W, "VGn"), ("8f", W, "P")]);
        assert!(b.reaches(B, s("8h"), None, s("8f")));
        // (11e is out of reach of the vice general's area move.)
        let b = board(&[("8h", B, "VGn"), ("9g", W, "K"), ("11e", W, "P")]);
        assert!(!b.reaches(B, s("8h"), None, s("11e")));
        let b = board(&[("8h", B, "BGn"), ("9g", W, "FiD"), ("11e", W, "P")]);
        assert!(b.reaches(B, s("8h"), None, s("11e")));
    }

    #[test]
    fn lion_moves_double_moves_and_igui() {
        let b = board(&[
            ("8h", B, "Ln"),
            ("8g", W, "P"),
            ("8f", W, "P"),
            ("7g", B, "P"),
        ]);
        assert_eq!(count(&b, "8h"), 24 - 1);
        // Capture on 8g and on to 8f; igui on 8g; not onto its own pawn.
        assert!(b.reaches(B, s("8h"), Some(s("8g")), s("8f")));
        assert!(b.reaches(B, s("8h"), Some(s("8g")), s("8h")));
        assert!(!b.reaches(B, s("8h"), Some(s("7g")), s("7f")));
        assert!(!b.reaches(B, s("8h"), Some(s("8g")), s("8e")));
        // Horned falcon: lion power forward only; soaring eagle on the
        // forward diagonals.
        let b = board(&[("8h", B, "HF"), ("8g", W, "P"), ("7g", W, "P")]);
        assert!(b.reaches(B, s("8h"), Some(s("8g")), s("8h")));
        assert!(b.reaches(B, s("8h"), Some(s("8g")), s("8f")));
        assert!(!b.reaches(B, s("8h"), Some(s("7g")), s("8h")));
        let b = board(&[("8h", B, "SE"), ("8g", W, "P"), ("7g", W, "P")]);
        assert!(b.reaches(B, s("8h"), Some(s("7g")), s("6f")));
        assert!(!b.reaches(B, s("8h"), Some(s("8g")), s("8h")));
        // Heavenly tetrarchs: igui on any adjacent enemy.
        let b = board(&[("8h", B, "HT"), ("8i", W, "P")]);
        assert!(b.reaches(B, s("8h"), Some(s("8i")), s("8h")));
        // Lion hawk slides diagonally too.
        let b = board(&[("8h", B, "LHk")]);
        assert!(b.reaches(B, s("8h"), None, s("1a")));
    }

    #[test]
    fn area_moves_go_around_pieces() {
        let mut men: Vec<(&str, Side, &str)> = vec![("8h", B, "FiD")];
        for t in ["7g", "8g", "9g", "7h", "9h", "7i", "8i"] {
            men.push((t, B, "P"));
        }
        let b = board(&men);
        // Out through 9i only.
        assert!(b.reaches(B, s("8h"), None, s("10j")));
        assert!(b.reaches(B, s("8h"), None, s("11k")));
        assert!(b.reaches(B, s("8h"), None, s("8k")));
        assert!(!b.reaches(B, s("8h"), None, s("8e")));
        let vg = board(&[("8h", B, "VGn")]);
        assert!(vg.reaches(B, s("8h"), None, s("8e")) && vg.reaches(B, s("8h"), None, s("5g")));
        assert!(!vg.reaches(B, s("8h"), None, s("8d")));
    }

    #[test]
    fn fire_demons_burn_and_pieces_burn_next_to_them() {
        let mut b = board(&[
            ("8h", B, "FiD"),
            ("8f", W, "P"),
            ("9e", W, "G"),
            ("7e", W, "FiD"),
            ("8d", W, "S"),
        ]);
        let mv = Move {
            piece: p("FiD"),
            from: s("8h"),
            via: None,
            to: s("8e"),
            promote: false,
        };
        assert!(b.reaches(B, mv.from, None, mv.to));
        let fx = b.play(B, &mv);
        assert_eq!(fx.captured, Vec::<Square>::new());
        let mut burned = fx.burned.clone();
        burned.sort();
        assert_eq!(burned, [s("8d"), s("8f"), s("9e")]);
        assert!(fx.suicide);
        assert!(b.at(s("8e")).is_none() && b.at(s("7e")).is_some());
    }

    #[test]
    fn promotion_zones() {
        let b = Board::start();
        let mv = |from: &str, to: &str| Move {
            piece: p("P"),
            from: s(from),
            via: None,
            to: s(to),
            promote: false,
        };
        assert!(!b.may_promote(B, &mv("7l", "7k")));
        assert!(b.may_promote(B, &mv("7f", "7e")));
        assert!(b.may_promote(W, &mv("7k", "7l")));
        assert!(!b.may_promote(W, &mv("7e", "7f")));
    }

    #[test]
    fn resolving_short_forms() {
        let b = Board::start();
        let w = |piece: &str, to: &str| Claim {
            piece: Some(p(piece)),
            to: Some(s(to)),
            ..Claim::default()
        };
        let mv = resolve(&b, B, &w("P", "7k")).unwrap();
        assert_eq!(mv.from, s("7l"));
        // The soaring eagle jumps its pawn on the forward diagonal.
        let mv = resolve(&b, B, &w("SE", "14k")).unwrap();
        assert_eq!(mv.from, s("12m"));
        assert_eq!(resolve(&b, W, &w("SE", "3f")).unwrap().from, s("5d"));
        // A move no piece can make names the candidates.
        let e = resolve(&b, B, &w("P", "7j")).unwrap_err();
        assert!(e.contains("7l"), "{e}");
        let e = resolve(&b, B, &w("HT", "7j")).unwrap_err();
        assert!(e.contains("Black has no HT"), "{e}");
        // Two fire demons that reach one square: ambiguous, named.
        let two = board(&[("8h", B, "FiD"), ("6h", B, "FiD")]);
        let e = resolve(&two, B, &w("FiD", "7g")).unwrap_err();
        assert!(e.contains("8h or 6h") || e.contains("6h or 8h"), "{e}");
        let mut with_origin = w("FiD", "7g");
        with_origin.from = Some(s("6h"));
        assert_eq!(resolve(&two, B, &with_origin).unwrap().from, s("6h"));
        assert!(needs_origin(
            &two,
            B,
            &resolve(&two, B, &with_origin).unwrap()
        ));
    }
}
