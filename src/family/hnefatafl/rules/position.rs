//! The position engine of a tafl game: a board under its [`Rules`], each
//! move checked and its captures computed.

use std::fmt;

use crate::family::hnefatafl::{Square, Step, ATTACKERS};
use crate::ir::Side;

use super::*;

/// Whether a piece letter is the attackers'.
fn attacker(p: u8) -> bool {
    p.is_ascii_lowercase()
}

/// The side a piece letter belongs to.
fn side_of(p: u8) -> Side {
    if attacker(p) {
        ATTACKERS
    } else {
        ATTACKERS.other()
    }
}

const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// What a move did, by the rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Played {
    /// The squares of the pieces it captured, in the order kifu finds them
    /// (around the moved piece, then shield walls).
    pub captures: Vec<Square>,
    /// The king was captured.
    pub king_captured: bool,
    /// Where the king was captured.
    pub king: Option<Square>,
    /// The king escaped.
    pub escaped: bool,
    /// The defenders' move left their king in an edge fort, which ends the
    /// game under edge-fort rules ([`Position::edge_fort`]).
    pub edge_fort: bool,
    /// The piece that moved (`K` for the king).
    pub piece: u8,
    /// How many of the captures each leg made, in order (one leg but for
    /// a berserk move).
    pub legs: Vec<usize>,
}

/// How a game ended on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The king was captured.
    Captured,
    /// The king escaped.
    Escaped,
    /// The king stands in an edge fort (`efe:y`).
    EdgeFort,
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            End::Captured => "the game is over: the king was captured",
            End::Escaped => "the game is over: the king escaped",
            End::EdgeFort => "the game is over: the king stands in an edge fort (`efe:y`)",
        })
    }
}

/// A position: every piece, and how the game ended, if it did.
#[derive(Debug, Clone)]
pub struct Position<'r> {
    pub(super) rules: &'r Rules,
    cells: Vec<u8>,
    pub(super) over: Option<End>,
    /// Where the pieces captured from three sides ([`Rules::tough`]) and
    /// those that change sides when captured ([`Rules::turncoats`]) stand
    /// (one list, which a move walks once).
    marked: Vec<(Square, Mark)>,
}

/// What marks a piece of [`Position::marked`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Captured from three sides ([`Rules::tough`]).
    Tough,
    /// Changes sides when captured ([`Rules::turncoats`]).
    Turncoat,
}

impl<'r> Position<'r> {
    /// The start position of the rules.
    pub fn new(rules: &'r Rules) -> Position<'r> {
        Position {
            rules,
            cells: rules.start.clone(),
            over: None,
            marked: (rules.tough.iter().map(|&sq| (sq, Mark::Tough)))
                .chain(rules.turncoats.iter().map(|&sq| (sq, Mark::Turncoat)))
                .filter(|&(sq, _)| rules.start_piece(sq).is_some_and(|p| p != b'K'))
                .collect(),
        }
    }

    /// Becomes a copy of `other` (of the same rules), reusing its buffer.
    pub(super) fn refill(&mut self, other: &Position<'r>) {
        self.cells.clone_from(&other.cells);
        self.over = other.over;
        self.marked.clone_from(&other.marked);
    }

    /// Whether the game is over on the board (the king captured, escaped,
    /// or in an edge fort).
    pub fn is_over(&self) -> bool {
        self.over.is_some()
    }

    /// The piece on a square.
    pub fn piece(&self, sq: Square) -> Option<u8> {
        let p = *self.cells.get(self.rules.index(sq))?;
        (p != 0).then_some(p)
    }

    fn at(&self, file: i16, rank: i16) -> Option<(Square, u8)> {
        let d = i16::from(self.rules.dim);
        if file < 0 || rank < 0 || file >= d || rank >= d {
            return None;
        }
        let sq = Square {
            file: file as u8,
            rank: rank as u8,
        };
        Some((sq, self.cells[self.rules.index(sq)]))
    }

    /// Sets a square: the piece `p` (0: none). The replay puts a piece
    /// on an empty square so where a site's record's own moves show one
    /// there ([`super::replay_turning`]).
    pub(super) fn set(&mut self, sq: Square, p: u8) {
        let i = self.rules.index(sq);
        self.cells[i] = p;
    }

    /// Moves the piece on `from` to `to` (on the board).
    fn shift(&mut self, from: Square, to: Square, p: u8) {
        self.set(from, 0);
        self.set(to, p);
        if let Some(t) = self.marked.iter_mut().find(|t| t.0 == from) {
            t.0 = to;
        }
    }

    /// Takes the piece on `sq` off the board, or turns it over to the
    /// other side where it is one that changes sides ([`Rules::turncoats`]).
    fn take(&mut self, sq: Square) {
        if let Some(i) = self.marked.iter().position(|t| t.0 == sq) {
            if let (Mark::Turncoat, Some(p)) = (self.marked[i].1, self.piece(sq)) {
                let turned = if attacker(p) {
                    p.to_ascii_uppercase()
                } else {
                    p.to_ascii_lowercase()
                };
                self.set(sq, turned);
                return;
            }
            self.marked.remove(i);
        }
        self.set(sq, 0);
    }

    /// Whether the piece on `sq`, of the other side than `side`, is
    /// captured from three sides ([`Rules::tough`]) and three of its four
    /// neighbours close on it: pieces of `side`, squares hostile to it,
    /// and the tough pieces' empty start squares.
    fn tough_taken(&self, sq: Square, victim: u8, side: Side) -> Option<bool> {
        if !self.marked.contains(&(sq, Mark::Tough)) {
            return None;
        }
        let (f, r) = (i16::from(sq.file), i16::from(sq.rank));
        let closed = DIRECTIONS
            .iter()
            .filter(|&&(df, dr)| {
                self.at(f + i16::from(df), r + i16::from(dr))
                    .is_some_and(|(s, occ)| {
                        self.anvil(s, occ, victim, side)
                            || (occ == 0 && self.rules.tough.contains(&s))
                    })
            })
            .count();
        Some(closed >= 3)
    }

    /// Whether a square is hostile to `victim` by itself (a corner or an
    /// empty centre, or a centre the king holds, as the rules say).
    fn hostile_square(&self, sq: Square, occupant: u8, victim: u8) -> bool {
        let r = self.rules;
        (r.is_corner(sq) && occupant == 0 && r.corner_hostile.has(victim))
            || (r.is_centre(sq)
                && if occupant == 0 {
                    r.centre_hostile_empty.has(victim)
                } else {
                    occupant.eq_ignore_ascii_case(&b'k') && r.centre_hostile.has(victim)
                })
    }

    /// Whether the square beyond a victim closes a capture by `side`.
    fn anvil(&self, sq: Square, occupant: u8, victim: u8, side: Side) -> bool {
        if occupant != 0 && side_of(occupant) == side {
            let king = occupant == b'K' || occupant == b'k';
            if !king || matches!(self.rules.armed, Armed::Yes | Armed::Anvil) {
                return true;
            }
        }
        self.hostile_square(sq, occupant, victim)
    }

    /// Checks that a step is a move of the side to move: from one of its
    /// pieces, each leg in a straight unobstructed line (or a jump) to a
    /// square it may stop on; a leg after the first only where the rules
    /// allow berserk moves. Returns the piece that moves.
    pub fn check_step(&self, step: &Step, side: Side) -> Result<u8, String> {
        let d = self.rules.dim;
        for sq in std::iter::once(step.from)
            .chain(step.via.iter().copied())
            .chain(std::iter::once(step.to))
        {
            if !sq.on(d) {
                return Err(format!("{sq} is off the {d}x{d} board"));
            }
        }
        let Some(p) = self.piece(step.from) else {
            return Err(format!("no piece on {}", step.from));
        };
        if side_of(p) != side {
            return Err(format!(
                "the piece on {} is the {}', and the {} are to move",
                step.from,
                who(side_of(p)),
                who(side)
            ));
        }
        if !step.via.is_empty() && self.rules.berserk == Berserk::No {
            return Err(
                "a move of several legs is a berserk move, which these rules do not allow".into(),
            );
        }
        self.check_leg(step.from, step.via.first().copied().unwrap_or(step.to), p)?;
        Ok(p)
    }

    /// Checks one leg of piece `p` from `from` to `to`: a slide along a
    /// rank or file over empty squares, or a jump; the jumped square when
    /// it is one.
    fn check_leg(&self, from: Square, to: Square, p: u8) -> Result<Option<Square>, String> {
        let r = self.rules;
        if from == to || (from.file != to.file && from.rank != to.rank) {
            return Err(format!(
                "{from}-{to} is not a straight line along a rank or file"
            ));
        }
        let stop = |sq: Square| -> Result<(), String> {
            if (r.is_corner(sq) && !r.corner_stop.has(p))
                || (r.is_centre(sq) && !r.centre_stop.has(p))
            {
                return Err(format!("only the king may stop on {sq}"));
            }
            Ok(())
        };
        let df = (i16::from(to.file) - i16::from(from.file)).signum();
        let dr = (i16::from(to.rank) - i16::from(from.rank)).signum();
        let (mut f, mut rk) = (i16::from(from.file) + df, i16::from(from.rank) + dr);
        // A jump: two squares, over an ordinary enemy piece, to an empty one.
        let far = (i16::from(to.file) - i16::from(from.file)).abs()
            + (i16::from(to.rank) - i16::from(from.rank)).abs();
        if let (2, Some((over, occ))) = (far, self.at(f, rk)) {
            if occ != 0 {
                let jump = r.jump_of(p);
                let enemy = r.jumps_over(p, occ);
                let special = |s: Square| r.is_corner(s) || r.is_centre(s);
                let allowed = match jump {
                    Jump::No => false,
                    Jump::Restricted => special(from) || special(to),
                    Jump::Jump | Jump::Capture => true,
                };
                if !allowed || !enemy {
                    return Err(format!("{over} is in the way"));
                }
                if self.piece(to).is_some() {
                    return Err(format!("{to} is taken"));
                }
                stop(to)?;
                return Ok(Some(over));
            }
        }
        while let Some((sq, occ)) = self.at(f, rk) {
            if occ != 0 {
                return Err(format!("{sq} is in the way"));
            }
            if sq == to {
                stop(sq)?;
                break;
            }
            if (r.is_corner(sq) && !r.corner_pass.has(p))
                || (r.is_centre(sq) && !r.centre_pass.has(p))
            {
                return Err(format!("the piece may not pass {sq}"));
            }
            f += df;
            rk += dr;
        }
        Ok(None)
    }

    /// Moves a piece (checked or not) and finds what it captures by the
    /// rules; the captures are not yet taken off the board.
    fn captures_after(&self, to: Square, p: u8) -> Played {
        let side = side_of(p);
        let r = self.rules;
        let mut out = Played {
            piece: p,
            ..Played::default()
        };
        let king_mover = p == b'K' || p == b'k';
        let (tf, tr) = (i16::from(to.file), i16::from(to.rank));
        for (df, dr) in DIRECTIONS {
            let Some((sq, victim)) = self.at(tf + i16::from(df), tr + i16::from(dr)) else {
                continue;
            };
            if victim == 0 || side_of(victim) == side {
                continue;
            }
            if victim == b'K' {
                if self.king_taken(sq, (df, dr), to) {
                    out.king_captured = true;
                    out.king = Some(sq);
                    out.captures.push(sq);
                }
                continue;
            }
            if king_mover && matches!(r.armed, Armed::No | Armed::Anvil) {
                continue;
            }
            if let Some(taken) = self.tough_taken(sq, victim, side) {
                if taken {
                    out.captures.push(sq);
                }
                continue;
            }
            let Some((beyond, occ)) = self.at(tf + 2 * i16::from(df), tr + 2 * i16::from(dr))
            else {
                continue;
            };
            if self.anvil(beyond, occ, victim, side) {
                out.captures.push(sq);
            }
        }
        if r.shieldwall != Shieldwall::No {
            self.shieldwalls(to, side, &mut out.captures);
        }
        if king_mover && side != ATTACKERS {
            out.escaped = r.escapes(to);
        }
        out
    }

    /// Whether the king on `sq`, next to an attacker that moved to `to`
    /// (from direction `dir` as seen from `to`), is captured.
    fn king_taken(&self, sq: Square, dir: (i8, i8), to: Square) -> bool {
        let r = self.rules;
        let near_centre = r.centres.iter().any(|c| {
            (i16::from(c.file) - i16::from(sq.file)).abs()
                + (i16::from(c.rank) - i16::from(sq.rank)).abs()
                <= 1
        });
        let strong = match r.strength {
            Strength::Strong => true,
            Strength::Weak => false,
            Strength::StrongCentre => near_centre,
        };
        let (kf, kr) = (i16::from(sq.file), i16::from(sq.rank));
        let closes = |s: Square, occ: u8| -> bool {
            (occ != 0 && attacker(occ)) || self.hostile_square(s, occ, b'K')
        };
        if strong {
            DIRECTIONS.iter().all(|&(df, dr)| {
                match self.at(kf + i16::from(df), kr + i16::from(dr)) {
                    Some((s, occ)) => s == to || closes(s, occ),
                    None => false,
                }
            })
        } else {
            match self.at(kf + i16::from(dir.0), kr + i16::from(dir.1)) {
                Some((s, occ)) => closes(s, occ),
                None => false,
            }
        }
    }

    /// Shield-wall captures closed by a piece of `side` that moved to `to`
    /// on an edge: a row of two or more enemies along the edge, each with
    /// a piece of `side` in front of it, bracketed at the far end by a
    /// piece of `side` (or a corner, in strong shield walls). The king is
    /// part of a wall but is not captured in it.
    fn shieldwalls(&self, to: Square, side: Side, captures: &mut Vec<Square>) {
        let r = self.rules;
        let n = i16::from(r.dim) - 1;
        let (tf, tr) = (i16::from(to.file), i16::from(to.rank));
        // (along the edge, inward) for each edge `to` is on.
        let mut edges = Vec::new();
        if tr == 0 {
            edges.push(((1, 0), (0, 1)));
        }
        if tr == n {
            edges.push(((1, 0), (0, -1)));
        }
        if tf == 0 {
            edges.push(((0, 1), (1, 0)));
        }
        if tf == n {
            edges.push(((0, 1), (-1, 0)));
        }
        for ((af, ar), (inf, inr)) in edges {
            for sign in [1i16, -1] {
                let (sf, sr) = (af * sign, ar * sign);
                let mut row = Vec::new();
                let (mut f, mut rk) = (tf + sf, tr + sr);
                let closed = loop {
                    let Some((sq, occ)) = self.at(f, rk) else {
                        break false;
                    };
                    if occ != 0 && side_of(occ) != side {
                        let front = self.at(f + inf, rk + inr);
                        match front {
                            Some((_, fo)) if fo != 0 && side_of(fo) == side => row.push((sq, occ)),
                            _ => break false,
                        }
                    } else if occ != 0 {
                        break true;
                    } else {
                        break r.shieldwall == Shieldwall::Strong && r.is_corner(sq);
                    }
                    f += sf;
                    rk += sr;
                };
                if closed && row.len() >= 2 {
                    for (sq, occ) in row {
                        if occ != b'K' && occ != b'k' && !captures.contains(&sq) {
                            captures.push(sq);
                        }
                    }
                }
            }
        }
    }

    /// Whether the king stands in an edge fort (Copenhagen): on an edge,
    /// with room to move, in a region of empty squares that no attacker
    /// touches, walled by defenders none of whom can be captured: each has,
    /// along each line, a side the attackers cannot take, the board's
    /// edge, the fort or another defender (whom kifu takes to hold: a wall
    /// that holds only while a defender beyond it does is counted a fort).
    pub fn edge_fort(&self) -> bool {
        let d = i16::from(self.rules.dim);
        let Some(i) = self.cells.iter().position(|&p| p == b'K') else {
            return false;
        };
        let (kf, kr) = (
            (i % usize::from(self.rules.dim)) as i16,
            (i / usize::from(self.rules.dim)) as i16,
        );
        if kf != 0 && kr != 0 && kf != d - 1 && kr != d - 1 {
            return false;
        }
        let n = self.cells.len();
        let mut inside = vec![false; n];
        let mut wall = vec![false; n];
        let index = |f: i16, r: i16| (r * d + f) as usize;
        inside[i] = true;
        let mut stack = vec![(kf, kr)];
        while let Some((f, r)) = stack.pop() {
            for (df, dr) in DIRECTIONS {
                let Some((sq, occ)) = self.at(f + i16::from(df), r + i16::from(dr)) else {
                    continue;
                };
                let j = self.rules.index(sq);
                match occ {
                    0 if !inside[j] => {
                        inside[j] = true;
                        stack.push((i16::from(sq.file), i16::from(sq.rank)));
                    }
                    0 => {}
                    p if attacker(p) => return false,
                    b'K' => {}
                    _ => wall[j] = true,
                }
            }
        }
        if inside.iter().filter(|&&x| x).count() < 2 {
            return false;
        }
        // The attackers can take a square beside a wall piece when it is
        // on the board, outside the fort, and holds no defender.
        let open = |f: i16, r: i16| -> bool {
            f >= 0
                && r >= 0
                && f < d
                && r < d
                && !inside[index(f, r)]
                && !self.cells[index(f, r)].is_ascii_uppercase()
        };
        (0..n).filter(|&j| wall[j]).all(|j| {
            let (f, r) = (
                (j % usize::from(self.rules.dim)) as i16,
                (j / usize::from(self.rules.dim)) as i16,
            );
            let across = open(f - 1, r) && open(f + 1, r);
            let along = open(f, r - 1) && open(f, r + 1);
            !(across || along)
        })
    }

    /// The position as OpenTafl's position record writes it (rank 1
    /// first, as a `position` tag and `start:`), `/3t3/3t3/3T3/ttTKTtt/...`.
    pub fn record(&self) -> String {
        write_position(&self.cells, self.rules.dim, false)
    }

    /// The position and the side to move, as rules errors end:
    /// `position: /3t3/.../, attackers to move`.
    pub fn described(&self, to_move: Side) -> String {
        format!("position: {}, {} to move", self.record(), who(to_move))
    }

    /// Whether the piece on `from` may move in one leg (along a line over
    /// empty squares, or a jump) to a square `wanted` accepts; `wanted` is
    /// asked first, the leg checked only for the squares it wants.
    fn reaches(&self, from: Square, wanted: impl Fn(Square) -> bool) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        let (ff, fr) = (i16::from(from.file), i16::from(from.rank));
        let ok = |to: Square| wanted(to) && self.check_leg(from, to, p).is_ok();
        for (df, dr) in DIRECTIONS {
            let (df, dr) = (i16::from(df), i16::from(dr));
            let mut k = 1;
            while let Some((sq, occ)) = self.at(ff + k * df, fr + k * dr) {
                if occ != 0 {
                    // A jump over the piece next to it.
                    if k == 1 {
                        if let Some((to, _)) = self.at(ff + 2 * df, fr + 2 * dr) {
                            if ok(to) {
                                return true;
                            }
                        }
                    }
                    break;
                }
                if ok(sq) {
                    return true;
                }
                k += 1;
            }
        }
        false
    }

    /// Whether a piece of `side` that may move to `to` in one leg (a slide
    /// along a line, or a jump) makes `wanted` true of its square; asks
    /// until one does.
    fn any_mover_to(&self, to: Square, side: Side, mut wanted: impl FnMut(Square) -> bool) -> bool {
        let (tf, tr) = (i16::from(to.file), i16::from(to.rank));
        let mut mover = |from: Square, p: u8| {
            p != 0 && side_of(p) == side && self.check_leg(from, to, p).is_ok() && wanted(from)
        };
        for (df, dr) in DIRECTIONS {
            let (df, dr) = (i16::from(df), i16::from(dr));
            let mut k = 1;
            while let Some((sq, occ)) = self.at(tf + k * df, tr + k * dr) {
                if occ != 0 {
                    if mover(sq, occ) {
                        return true;
                    }
                    // A jumper beyond the piece next to `to`.
                    if k == 1 {
                        if let Some((from, p)) = self.at(tf + 2 * df, tr + 2 * dr) {
                            if mover(from, p) {
                                return true;
                            }
                        }
                    }
                    break;
                }
                k += 1;
            }
        }
        false
    }

    /// Whether `side`, to move, has a move of one leg that wins at once:
    /// the defenders' king escaping, or the attackers capturing him (a
    /// move of several legs, and an edge fort a move would close, are not
    /// looked for).
    pub fn wins_at_once(&self, side: Side) -> bool {
        if self.over.is_some() {
            return false;
        }
        let Some(i) = self.cells.iter().position(|&p| p == b'K') else {
            return false;
        };
        let d = usize::from(self.rules.dim);
        let king = Square {
            file: (i % d) as u8,
            rank: (i / d) as u8,
        };
        if side != ATTACKERS {
            return self.reaches(king, |to| self.rules.escapes(to));
        }
        let (kf, kr) = (i16::from(king.file), i16::from(king.rank));
        // One copy of the position to try the moves on, made when needed.
        let mut after: Option<Position<'r>> = None;
        DIRECTIONS.iter().any(|&(df, dr)| {
            let (df, dr) = (i16::from(df), i16::from(dr));
            let Some((to, 0)) = self.at(kf + df, kr + dr) else {
                return false;
            };
            // Every capture of the king is custodial: the square across
            // him from `to` must close it (off the board, the rules'
            // edges decide in `play`). Where it cannot, no move to `to`
            // captures him, and none is tried.
            if let Some((beyond, occupant)) = self.at(kf - df, kr - dr) {
                if !self.anvil(beyond, occupant, b'K', side) {
                    return false;
                }
            }
            self.any_mover_to(to, side, |from| {
                let step = Step {
                    from,
                    via: Vec::new(),
                    to,
                    captures: Vec::new(),
                    mark: None,
                };
                let after = after.get_or_insert_with(|| self.clone());
                after.refill(self);
                after
                    .play(&step, side, true)
                    .is_ok_and(|played| played.king_captured)
            })
        })
    }

    /// Plays a step of `side`: checked when `check` (the error says why it
    /// is not a move), leg by leg, each leg's captures found and the pieces
    /// captured taken off the board (a berserk leg only after a leg that
    /// captured, or, under `bj:y`, one that jumped, and, under `ber:c`, one that captures itself; under
    /// `ber:t`, one that captures or steps onto a square the leg before
    /// captured on; under `bj:l`, either may be a jump instead). With
    /// `check` off, the move is applied as written, its listed captures
    /// taken.
    pub fn play(&mut self, step: &Step, side: Side, check: bool) -> Result<Played, String> {
        if let (true, Some(end)) = (check, self.over) {
            return Err(end.to_string());
        }
        if !check {
            let Some(p) = self.piece(step.from) else {
                let mut out = Played::default();
                out.captures.clone_from(&step.captures);
                return Ok(out);
            };
            if step.to.on(self.rules.dim) {
                self.shift(step.from, step.to, p);
            } else {
                self.take(step.from);
            }
            for &sq in &step.captures {
                if sq.on(self.rules.dim) && sq != step.to {
                    self.take(sq);
                }
            }
            return Ok(Played {
                captures: step.captures.clone(),
                piece: p,
                ..Played::default()
            });
        }
        let p = self.check_step(step, side)?;
        let mut played = Played {
            piece: p,
            ..Played::default()
        };
        let mut from = step.from;
        // The squares the leg before captured on (`ber:t` steps onto one).
        let mut took: Vec<Square> = Vec::new();
        // Whether the leg before was a jump (`bj:y` lets the piece go on).
        let mut jumped = false;
        let legs = step.via.iter().copied().chain(std::iter::once(step.to));
        for (i, to) in legs.enumerate() {
            if i > 0 {
                if let Some(end) = self.over {
                    return Err(format!("{from}-{to}: {end}"));
                }
                if played.legs.last() == Some(&0) && !(jumped && self.rules.jump_on) {
                    return Err(format!(
                        "{from}-{to}: a berserk leg follows a leg that captured"
                    ));
                }
            }
            let over = self.check_leg(from, to, p).map_err(|e| {
                if i > 0 {
                    format!("{from}-{to}: {e}")
                } else {
                    e
                }
            })?;
            self.shift(from, to, p);
            jumped = over.is_some();
            let mut leg = self.captures_after(to, p);
            if let Some(over) = over {
                // A capturing jump takes an enemy, never a piece of its own
                // side (which `jo` lets it jump over).
                let enemy = self.piece(over).is_some_and(|o| side_of(o) != side_of(p));
                if self.rules.jump_of(p) == Jump::Capture && enemy && !leg.captures.contains(&over)
                {
                    leg.captures.insert(0, over);
                }
            }
            // `bj:l`: a leg that jumps need not capture.
            if i > 0 && leg.captures.is_empty() && !(jumped && self.rules.jump_leg) {
                match self.rules.berserk {
                    Berserk::Capture => {
                        return Err(format!(
                            "{from}-{to}: a berserk leg must capture under these rules (`ber:c`)"
                        ))
                    }
                    Berserk::Take if !took.contains(&to) => {
                        return Err(format!(
                            "{from}-{to}: a berserk leg must capture, or step onto a square the \
                             leg before captured on, under these rules (`ber:t`)"
                        ))
                    }
                    _ => {}
                }
            }
            if self.rules.berserk == Berserk::Take {
                took.clone_from(&leg.captures);
            }
            for &sq in &leg.captures {
                self.take(sq);
            }
            played.legs.push(leg.captures.len());
            played.captures.extend(leg.captures);
            played.king_captured |= leg.king_captured;
            played.king = played.king.or(leg.king);
            played.escaped |= leg.escaped;
            if played.king_captured {
                self.over = Some(End::Captured);
            } else if played.escaped {
                self.over = Some(End::Escaped);
            }
            from = to;
        }
        // Under edge-fort rules, the defenders win when their move leaves
        // the king in an edge fort (OpenTafl's `efe`: the game ends).
        if side != ATTACKERS && self.rules.edge_forts && self.over.is_none() && self.edge_fort() {
            played.edge_fort = true;
            self.over = Some(End::EdgeFort);
        }
        Ok(played)
    }
}
