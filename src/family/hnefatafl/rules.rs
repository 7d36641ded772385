//! The rules of a tafl game, as an OpenTafl rules string, and the replay
//! that tracks every piece, checks each move and computes its captures.
//!
//! A rules string (`dim:11 atkf:y ks:s sw:s efe:y start:/3ttttt3/.../`)
//! starts with the board's side and ends with the start position (`start:`
//! lists rank 1 first, `starti:` the top rank first); between them, the
//! entries of opentafl-notation-spec.txt: escape to the corners or edges
//! (`esc`), who moves first (`atkf`), the king armed (`ka`) and strong
//! (`ks`), corner and centre squares (`cor`, `cen`), whom they are hostile
//! to and who may pass or stop on them (`corh cenh cenhe corp cenp cors
//! cens`), shield walls (`sw`), edge forts (`efe`), berserk moves (`ber`)
//! and jumps (`kj nj cj`). Entries kifu does not know (`name:`, `tfr:`,
//! fortresses) are kept as written; the string is written back exactly as
//! read, but for its squares when the board is seen from another side
//! ([`Rules::transformed`]).

use std::fmt;

use crate::family::hnefatafl::{Mark, Move, Square, Step, ATTACKERS, MAX_DIM, MIN_DIM};
use crate::ir::{Line, Side, Tag};

pub use super::rulestring::*;

impl Rules {
    /// The rules with the start position a game's `Position` tag (otn's
    /// `position`: a position record, rank 1 first) gives, when it has
    /// one; the error says what is wrong with the tag.
    pub fn at_position(&self, tags: &[Tag]) -> Result<Rules, String> {
        let mut r = self.clone();
        if let Some(t) = tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case("Position"))
        {
            r.start = position(t.value.trim(), self.dim, false).map_err(|e| {
                format!("the position {}: {e}", crate::error::quote(t.value.trim()))
            })?;
            if r.start.iter().filter(|&&p| p == b'K').count() != 1 {
                return Err("the position has no king `K`, or more than one".into());
            }
        }
        Ok(r)
    }
}

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
    rules: &'r Rules,
    cells: Vec<u8>,
    over: Option<End>,
    /// Where the pieces captured from three sides ([`Rules::tough`]) stand.
    tough: Vec<Square>,
}

impl<'r> Position<'r> {
    /// The start position of the rules.
    pub fn new(rules: &'r Rules) -> Position<'r> {
        Position {
            rules,
            cells: rules.start.clone(),
            over: None,
            tough: rules
                .tough
                .iter()
                .copied()
                .filter(|&sq| rules.start_piece(sq).is_some_and(|p| p != b'K'))
                .collect(),
        }
    }

    /// Becomes a copy of `other` (of the same rules), reusing its buffer.
    fn refill(&mut self, other: &Position<'r>) {
        self.cells.clone_from(&other.cells);
        self.over = other.over;
        self.tough.clone_from(&other.tough);
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

    fn set(&mut self, sq: Square, p: u8) {
        let i = self.rules.index(sq);
        self.cells[i] = p;
    }

    /// Moves the piece on `from` to `to` (on the board).
    fn shift(&mut self, from: Square, to: Square, p: u8) {
        self.set(from, 0);
        self.set(to, p);
        if let Some(t) = self.tough.iter_mut().find(|t| **t == from) {
            *t = to;
        }
    }

    /// Takes the piece on `sq` off the board.
    fn take(&mut self, sq: Square) {
        self.set(sq, 0);
        self.tough.retain(|&t| t != sq);
    }

    /// Whether the piece on `sq`, of the other side than `side`, is
    /// captured from three sides ([`Rules::tough`]) and three of its four
    /// neighbours close on it: pieces of `side`, squares hostile to it,
    /// and the tough pieces' empty start squares.
    fn tough_taken(&self, sq: Square, victim: u8, side: Side) -> Option<bool> {
        if !self.tough.contains(&sq) {
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
                let enemy = matches!(occ, b't' | b'T') && side_of(occ) != side_of(p);
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
    /// captured, and, under `ber:c`, one that captures itself). With
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
        let legs = step.via.iter().copied().chain(std::iter::once(step.to));
        for (i, to) in legs.enumerate() {
            if i > 0 {
                if let Some(end) = self.over {
                    return Err(format!("{from}-{to}: {end}"));
                }
                if played.legs.last() == Some(&0) {
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
            let mut leg = self.captures_after(to, p);
            if let Some(over) = over {
                if self.rules.jump_of(p) == Jump::Capture && !leg.captures.contains(&over) {
                    leg.captures.insert(0, over);
                }
            }
            if i > 0 && leg.captures.is_empty() && self.rules.berserk == Berserk::Capture {
                return Err(format!(
                    "{from}-{to}: a berserk leg must capture under these rules (`ber:c`)"
                ));
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

/// A ply's number as messages write it: `12.` for the side that moves
/// first, `12...` for the other.
pub fn label(number: u32, side: Side, first: Side) -> String {
    format!("{number}{}", if side == first { "." } else { "..." })
}

/// How messages name a side.
pub fn who(side: Side) -> &'static str {
    if side == ATTACKERS {
        "attackers"
    } else {
        "defenders"
    }
}

/// Whether any move of a line (or its variations) lists a capture.
pub fn lists_captures(line: &Line) -> bool {
    line.plies.iter().any(|p| {
        p.mv.as_tafl()
            .and_then(Move::step)
            .is_some_and(|s| !s.captures.is_empty())
            || p.variations.iter().any(lists_captures)
    })
}

/// How a record lists captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// It lists none: the rules' are filled in.
    None,
    /// It lists them all: each move's are checked.
    All,
    /// It lists all but the king's (aagenielsen.dk): each move's are
    /// checked, and a captured king is added.
    NotTheKing,
}

impl Listing {
    /// How a line lists captures: `All` (or `NotTheKing` when
    /// `king_implied`) when any move lists one.
    pub fn of(line: &Line, king_implied: bool) -> Listing {
        match (lists_captures(line), king_implied) {
            (false, _) => Listing::None,
            (true, false) => Listing::All,
            (true, true) => Listing::NotTheKing,
        }
    }
}

/// Replays a line from a position: each move is checked, its captures
/// compared with those listed or filled in, as `listing` says, and a `++`
/// mark checked. The error names the ply and says why, with the ply's
/// place in the record: its index among the plies in the order written
/// (each ply before its variations). A record that lists captures but
/// leaves out the king's alone (the capture that ends the game) has it
/// completed, as aagenielsen.dk's records always leave it out: returns how
/// many moves were so completed, for the reader's warning.
///
/// A site's record (`Listing::NotTheKing`) is the word of the game as it
/// was played there: where it lists a capture the rules do not make, or
/// leaves out one they make, or plays on after the rules end the game (the
/// king captured, escaped, or in an edge fort), the record's word is kept
/// (the pieces it lists taken, no others) and `notes` gets a note of each,
/// instead of an error; a move the rules refuse is still an error.
pub fn replay(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    notes: &mut Vec<Note>,
) -> Result<usize, (usize, String)> {
    let mut completed = 0;
    replay_from(line, pos, listing, &mut 0, &mut completed, notes)?;
    Ok(completed)
}

/// Where a site's record and the rules differ, and the record's word was
/// kept ([`replay`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The ply's index among the plies in the order written.
    pub index: usize,
    /// The warning's kind: `capture-unruled` (a capture listed that the
    /// rules do not make), `capture-unlisted` (one they make, not listed),
    /// `played-on` (the record plays on after the rules end the game).
    pub kind: &'static str,
    /// What it says.
    pub message: String,
}

fn replay_from(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    index: &mut usize,
    completed: &mut usize,
    notes: &mut Vec<Note>,
) -> Result<(), (usize, String)> {
    let listed = listing != Listing::None;
    // A site's record: its word is kept where the rules differ.
    let lenient = listing == Listing::NotTheKing;
    // The last move of the line: the king's capture the record leaves out
    // is completed there alone; before it, the record plays on.
    let last_step = line
        .plies
        .iter()
        .rposition(|p| matches!(p.mv.as_tafl(), Some(Move::Step(_))));
    // What each move of the line does to the squares, for a site's record
    // whose capture the rules make and it leaves out: its later moves say
    // whether the piece stayed (one moves from its square, or captures it
    // there) or went (one enters or passes its square).
    let traces: Vec<Option<Step>> = if lenient {
        line.plies
            .iter()
            .map(|p| p.mv.as_tafl().and_then(Move::step).cloned())
            .collect()
    } else {
        Vec::new()
    };
    let first = if pos.rules.attackers_first {
        ATTACKERS
    } else {
        ATTACKERS.other()
    };
    // The position each ply is played in, for its errors: one buffer for
    // the line, refilled (no allocation a ply).
    let mut before = pos.clone();
    for (i, ply) in line.plies.iter_mut().enumerate() {
        let at = *index;
        *index += 1;
        for var in &mut ply.variations {
            let mut p = pos.clone();
            replay_from(var, &mut p, listing, index, completed, notes)?;
        }
        let (number, side) = (ply.number, ply.side);
        let Some(Move::Step(step)) =
            <super::Tafl as crate::family::any::Member>::of_move_mut(&mut ply.mv)
        else {
            continue;
        };
        if let (true, Some(end)) = (lenient, pos.over) {
            notes.push(Note {
                index: at,
                kind: "played-on",
                message: format!(
                    "{} {}: {end} by the rules, and the record plays on: its moves are kept",
                    label(number, side, first),
                    spelled(step)
                ),
            });
            pos.over = None;
        }
        // A rules error names the move and the position it was played in.
        before.refill(pos);
        let fail = |step: &Step, why: &str| {
            (
                at,
                format!(
                    "{} {}: {why} ({})",
                    label(number, side, first),
                    spelled(step),
                    before.described(side)
                ),
            )
        };
        let played = pos.play(step, side, true).map_err(|e| fail(step, &e))?;
        // The marks the rules judge: a win (`++`), the king captured or
        // escaped, or (edge-fort rules) the defenders' king in an edge
        // fort; a suicidal move (`--`), after which the other side wins at
        // once. A mark the record writes is checked, one it leaves out
        // filled in.
        let wins = played.king_captured || played.escaped || played.edge_fort;
        match step.mark {
            Some(Mark::Win) if !wins => {
                let why = format!(
                    "marked `++`, but the king is neither captured nor escaped{}",
                    if pos.rules.edge_forts && side != ATTACKERS {
                        " nor in an edge fort"
                    } else {
                        ""
                    }
                );
                return Err(fail(step, &why));
            }
            Some(Mark::Suicide) if !pos.wins_at_once(side.other()) => {
                let why = format!(
                    "marked `--` (suicidal), but the {} have no move that {} at once",
                    who(side.other()),
                    if side == ATTACKERS {
                        "lets the king escape"
                    } else {
                        "captures the king"
                    }
                );
                return Err(fail(step, &why));
            }
            // A site's record that plays on after a win of the rules'
            // gets no mark there.
            None if wins && (!lenient || last_step == Some(i)) => step.mark = Some(Mark::Win),
            None if wins => {}
            None if pos.wins_at_once(side.other()) => step.mark = Some(Mark::Suicide),
            _ => {}
        }
        if step.captures.is_empty() && played.captures.is_empty() {
            continue;
        }
        if let (Listing::NotTheKing | Listing::All, Some(k)) = (listing, played.king) {
            // The king's capture, which the record leaves out, where the
            // rules find it: aagenielsen.dk never lists it; another record
            // that lists every other capture of the move (and nothing the
            // rules do not capture) gets it completed, with a warning.
            let others_listed = played
                .captures
                .iter()
                .all(|c| *c == k || step.captures.contains(c))
                && step.captures.iter().all(|c| played.captures.contains(c));
            let ends = !lenient || last_step == Some(i);
            if !step.captures.contains(&k)
                && ends
                && (listing == Listing::NotTheKing || others_listed)
            {
                let at = played.captures.iter().position(|&c| c == k).unwrap_or(0);
                step.captures.insert(at.min(step.captures.len()), k);
                *completed += usize::from(listing == Listing::All);
            }
        }
        let mut written = step.captures.clone();
        written.sort();
        written.dedup();
        let mut found = played.captures.clone();
        found.sort();
        if listed && written != found {
            let missing: Vec<String> = found
                .iter()
                .filter(|s| !written.contains(s))
                .map(|s| s.to_string())
                .collect();
            let extra: Vec<String> = written
                .iter()
                .filter(|s| !found.contains(s))
                .map(|s| s.to_string())
                .collect();
            if lenient {
                let move_ = format!("{} {}", label(number, side, first), spelled(step));
                // Of the captures the rules make and the record leaves out,
                // those its later moves bear out (a piece enters or passes
                // the square before one moves from it or captures on it).
                let borne_out: Vec<Square> = found
                    .iter()
                    .copied()
                    .filter(|c| !written.contains(c) && gone_later(&traces[i + 1..], *c))
                    .collect();
                let kept: Vec<String> = missing
                    .iter()
                    .filter(|m| !borne_out.iter().any(|b| b.to_string() == **m))
                    .cloned()
                    .collect();
                let taken: Vec<String> = borne_out.iter().map(Square::to_string).collect();
                for (kind, squares, what) in [
                    (
                        "capture-unruled",
                        &extra,
                        "the rules capture nothing on {}, which the record lists: the record's word is kept",
                    ),
                    (
                        "capture-unlisted",
                        &kept,
                        "the rules capture {}, which the record does not list: the record's word is kept",
                    ),
                    (
                        "capture-unlisted",
                        &taken,
                        "the rules capture {}, which the record does not list, and its later moves bear them out: taken",
                    ),
                ] {
                    if !squares.is_empty() {
                        notes.push(Note {
                            index: at,
                            kind,
                            message: format!(
                                "{move_}: {} ({})",
                                what.replace("{}", &squares.join(", ")),
                                before.described(side)
                            ),
                        });
                    }
                }
                // The record's word: the move as written, the pieces it
                // lists taken (and those its later moves show gone).
                pos.refill(&before);
                step.captures.extend(borne_out);
                let _ = pos.play(step, side, false);
                continue;
            }
            let mut why = Vec::new();
            if !extra.is_empty() {
                why.push(format!("the rules capture nothing on {}", extra.join(", ")));
            }
            if !missing.is_empty() {
                why.push(format!("the move captures {} too", missing.join(", ")));
            }
            return Err(fail(step, &why.join("; ")));
        }
        if !listed {
            step.captures.clone_from(&played.captures);
        } else if step.captures.len() != written.len() {
            step.captures.dedup();
        }
    }
    Ok(())
}

/// Whether the later moves of a record show the piece on `sq` gone: one
/// enters or passes the square before one moves from it or captures on it.
fn gone_later(later: &[Option<Step>], sq: Square) -> bool {
    for step in later.iter().flatten() {
        if step.from == sq || step.captures.contains(&sq) {
            return false;
        }
        let mut at = step.from;
        for to in step.via.iter().chain(std::iter::once(&step.to)) {
            let (df, dr) = (
                (i16::from(to.file) - i16::from(at.file)).signum(),
                (i16::from(to.rank) - i16::from(at.rank)).signum(),
            );
            let (mut f, mut r) = (i16::from(at.file), i16::from(at.rank));
            // Not along a line (the replay refuses it): no square passed.
            if df != 0 && dr != 0 {
                at = *to;
                continue;
            }
            while (f, r) != (i16::from(to.file), i16::from(to.rank)) {
                f += df;
                r += dr;
                if (f, r) == (i16::from(sq.file), i16::from(sq.rank)) {
                    return true;
                }
            }
            at = *to;
        }
    }
    false
}

/// Plays a line as written, without checking, for the pieces each move
/// moves: calls `each` with every step and the piece it moved (0 when its
/// square was empty).
pub fn track(line: &Line, pos: &mut Position<'_>, each: &mut dyn FnMut(&Step, u8, &Position<'_>)) {
    for ply in &line.plies {
        for var in &ply.variations {
            let mut p = pos.clone();
            track(var, &mut p, each);
        }
        if let Some(Move::Step(step)) = ply.mv.as_tafl() {
            let before = pos.clone();
            let piece = pos.piece(step.from).unwrap_or(0);
            let _ = pos.play(step, ply.side, false);
            each(step, piece, &before);
        }
    }
}

/// A step as messages write it (`e5-e8xf8`).
pub fn spelled(step: &Step) -> String {
    let mut s = String::new();
    step.from.write(false, &mut s);
    for v in &step.via {
        s.push('-');
        v.write(false, &mut s);
    }
    s.push('-');
    step.to.write(false, &mut s);
    for (i, c) in step.captures.iter().enumerate() {
        s.push(if i == 0 { 'x' } else { '/' });
        c.write(false, &mut s);
    }
    s
}

/// Checks a tafl game that did not come through a grammar (JSON): every
/// square on the board, and, when the game was validated, its moves
/// replayed with their captures as listed.
pub fn check_game(game: &crate::ir::Game, board: &super::Board) -> Result<(), String> {
    fn squares(line: &Line, dim: u8, first: crate::ir::Side) -> Result<(), String> {
        for ply in &line.plies {
            let m = ply
                .mv
                .of(
                    crate::family::any::Family::Tafl,
                    crate::family::any::Move::as_tafl,
                )
                .map_err(|e| format!("{} {e}", ply.label(first)))?;
            if let Some(sq) = m.squares().find(|s| !s.on(dim)) {
                return Err(format!(
                    "{} {sq} is off the {dim}x{dim} board",
                    ply.label(first)
                ));
            }
            for v in &ply.variations {
                squares(v, dim, first)?;
            }
        }
        Ok(())
    }
    if !(MIN_DIM..=MAX_DIM).contains(&board.dim) {
        return Err(format!(
            "a tafl board is 5 to 19 squares a side, not {}",
            board.dim
        ));
    }
    if let Some(r) = &board.rules {
        if r.dim != board.dim {
            return Err(format!(
                "the rules are for a {0}x{0} board, and the board is {1}x{1}",
                r.dim, board.dim
            ));
        }
    }
    squares(&game.moves, board.dim, board.first_mover())?;
    if let (Some(rules), true) = (&board.rules, board.validated) {
        let mut line = game.moves.clone();
        let start = rules.at_position(&game.tags)?;
        replay(
            &mut line,
            &mut Position::new(&start),
            Listing::All,
            &mut Vec::new(),
        )
        .map_err(|(_, e)| e)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn step(from: &str, to: &str) -> Step {
        Step {
            from: sq(from),
            via: Vec::new(),
            to: sq(to),
            captures: Vec::new(),
            mark: None,
        }
    }

    /// A position of the rules with `start` replaced by a position record.
    fn rules(preset: &str, start: &str) -> Rules {
        let base = Rules::preset(preset).unwrap();
        let text = base.text().split(" start:").next().unwrap().to_string();
        Rules::parse(&format!("{text} start:{start}")).unwrap()
    }

    fn captures(r: &Rules, from: &str, to: &str, side: Side) -> (Vec<String>, bool, bool) {
        let mut pos = Position::new(r);
        let p = pos.play(&step(from, to), side, true).unwrap();
        let mut c: Vec<String> = p.captures.iter().map(|s| s.to_string()).collect();
        c.sort();
        (c, p.king_captured, p.escaped)
    }

    const ATT: Side = ATTACKERS;

    #[test]
    fn rules_strings_read_with_their_defaults() {
        let r = Rules::preset("Copenhagen").unwrap();
        assert_eq!(r.dim, 11);
        assert_eq!(r.preset_name(), Some("copenhagen"));
        assert_eq!(r.start_piece(sq("f6")), Some(b'K'));
        assert_eq!(r.start_piece(sq("d1")), Some(b't'));
        assert_eq!(r.shieldwall, Shieldwall::Strong);
        let puzzle = Rules::parse(
            "dim:7 name:CopenhagenPuzzle atkf:y tfr:w cor:g7, cen:b2, sw:s efe:y starti:/tt2T2/1t2K2/2tt3/6t/3TTt1/4Tt1/4Tt1/",
        )
        .unwrap();
        assert_eq!(puzzle.corners, [sq("g7")]);
        assert_eq!(puzzle.start_piece(sq("e6")), Some(b'K'));
        assert_eq!(puzzle.start_piece(sq("f3")), Some(b't'));
        for bad in [
            "dim:4 start:/4/4/4/4/",
            "start:/3/",
            "dim:7",
            "dim:7 ka:q start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/",
        ] {
            assert!(Rules::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn custodial_captures_against_pieces_corners_and_the_throne() {
        // An attacker on d2 moves to d4: the defender on e4 is caught
        // against f4.
        let r = rules("copenhagen", "/11/3t7/11/4Tt5/11/5K5/11/11/11/11/11/");
        assert_eq!(captures(&r, "d2", "d4", ATT).0, ["e4"]);
        // Against a corner: a defender on b1, an attacker moving to c1.
        let r = rules("copenhagen", "/1T9/2t8/11/11/11/5K5/11/11/11/11/11/");
        assert_eq!(captures(&r, "c2", "c1", ATT).0, ["b1"]);
        // Against the empty throne: the king is away, a defender on f5.
        let r = rules("copenhagen", "/11/11/5t5/11/5T5/11/11/11/11/11/K10/");
        assert_eq!(captures(&r, "f3", "f4", ATT).0, ["f5"]);
        // Moving between two enemies is safe.
        let r = rules("copenhagen", "/11/11/11/4T1T4/11/11/11/11/11/5t5/K10/");
        assert!(captures(&r, "f10", "f4", ATT).0.is_empty());
    }

    #[test]
    fn tough_pieces_are_captured_from_three_sides() {
        let r = |start: &str| {
            Rules::parse(&format!("dim:7 atkf:y cen: three:c3 start:{start}")).unwrap()
        };
        // Between two attackers (b3, d3) the piece from c3 stands; a third
        // on c2 closes it.
        assert!(captures(&r("/3t3/7/1tT4/7/7/4K2/7/"), "d1", "d3", ATT)
            .0
            .is_empty());
        assert_eq!(
            captures(&r("/3t3/2t4/1tT4/7/7/4K2/7/"), "d1", "d3", ATT).0,
            ["c3"]
        );
        // It stays tough when it moves; its empty start square closes on it.
        let play = |start: &str, to: &str, hammer: &str| {
            let rules = r(start);
            let mut pos = Position::new(&rules);
            pos.play(&step("c3", to), ATT.other(), true).unwrap();
            let p = pos.play(&step("d1", hammer), ATT, true).unwrap();
            p.captures.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        };
        assert_eq!(play("/3t3/7/2T4/1t5/7/4K2/7/", "c4", "d4"), ["c4"]);
        assert!(play("/3t3/7/2T4/7/1t5/4K2/7/", "c5", "d5").is_empty());
        // Turned with the board.
        let turned = r("/3t3/7/1tT4/7/7/4K2/7/").transformed(2, false);
        assert_eq!(turned.tough, [sq("e5")]);
        assert!(turned.text().contains("three:e5"), "{}", turned.text());
    }

    #[test]
    fn the_king_armed_or_not() {
        // The king moves d6-d4: the attacker on e4 is caught against the
        // defender on f4 when the king is armed.
        let armed = rules("copenhagen", "/11/11/11/4tT5/11/3K7/11/11/11/11/5t5/");
        assert_eq!(captures(&armed, "d6", "d4", ATT.other()).0, ["e4"]);
        let unarmed = rules("sea-battle", "/9/9/9/4tT3/9/3K5/9/9/4t4/");
        assert!(captures(&unarmed, "d6", "d4", ATT.other()).0.is_empty());
    }

    #[test]
    fn the_king_captured_by_four_or_two() {
        // Copenhagen: the king on c9, attackers on b9, d9 and c10; one
        // comes c7-c8.
        let four = rules("copenhagen", "/11/11/11/11/11/5T5/2t8/11/1tKt7/2t8/11/");
        let (c, king, _) = captures(&four, "c7", "c8", ATT);
        assert!(king && c == ["c9"], "{c:?}");
        // Three sides only: no capture.
        let three = rules("copenhagen", "/11/11/11/11/11/5T5/2t8/11/1tK8/2t8/11/");
        assert!(!captures(&three, "c7", "c8", ATT).1);
        // On the edge the king cannot be surrounded.
        let edge = rules("copenhagen", "/11/11/11/11/11/5T5/11/11/2t8/11/1tKt7/");
        assert!(!captures(&edge, "c9", "c10", ATT).1);
        // Brandubh: two sides away from the throne.
        let two = rules("brandubh", "/7/1t1Kt2/7/3T3/7/7/7/");
        let (c, king, _) = captures(&two, "b2", "c2", ATT);
        assert!(king && c == ["d2"], "{c:?}");
        // Beside the throne, four are needed: three and the empty throne.
        let beside = rules("brandubh", "/7/t6/2tKt2/7/7/7/6T/");
        let (c, king, _) = captures(&beside, "a2", "d2", ATT);
        assert!(king && c == ["d3"], "{c:?}");
        let two_only = rules("brandubh", "/7/t6/2tK3/7/7/7/6T/");
        assert!(!captures(&two_only, "a2", "d2", ATT).1);
    }

    #[test]
    fn the_king_escapes_to_a_corner_or_an_edge() {
        let r = rules("copenhagen", "/11/11/11/11/11/t10/11/11/11/11/K10/");
        let mut pos = Position::new(&r);
        assert!(
            !pos.play(&step("a11", "e11"), ATT.other(), true)
                .unwrap()
                .escaped
        );
        assert!(
            pos.play(&step("e11", "k11"), ATT.other(), true)
                .unwrap()
                .escaped
        );
        let t = rules("tablut", "/9/9/9/9/4K4/9/9/9/t8/");
        let mut pos = Position::new(&t);
        assert!(
            pos.play(&step("e5", "e1"), ATT.other(), true)
                .unwrap()
                .escaped
        );
    }

    #[test]
    fn shield_walls_capture_along_the_edge() {
        // Defenders on c1 d1 e1, attackers in front on c2 d2 e2, one on
        // b1; an attacker comes to f1 from f3.
        let r = rules("copenhagen", "/1tTTT6/2ttt6/5t5/11/11/5K5/11/11/11/11/11/");
        let (c, _, _) = captures(&r, "f3", "f1", ATT);
        assert_eq!(c, ["c1", "d1", "e1"]);
        // The king in the wall is not captured, those beside him are.
        let r = rules("copenhagen", "/1tTKT6/2ttt6/5t5/11/11/11/11/11/11/11/11/");
        let (c, king, _) = captures(&r, "f3", "f1", ATT);
        assert_eq!(c, ["c1", "e1"]);
        assert!(!king);
        // Without shield walls (fetlar), nothing.
        let f = rules("fetlar", "/1tTTT6/2ttt6/5t5/11/11/5K5/11/11/11/11/11/");
        assert!(captures(&f, "f3", "f1", ATT).0.is_empty());
    }

    #[test]
    fn edge_forts() {
        // The king on e1 with room on e2, walled by d1 f1 d2 f2 e3, e3
        // covered by d3.
        let fort = rules("copenhagen", "/3TKT5/3T1T5/3TT6/11/11/11/11/11/11/11/t10/");
        assert!(Position::new(&fort).edge_fort());
        // Without d3, e3 can be captured: no fort.
        let open = rules("copenhagen", "/3TKT5/3T1T5/4T6/11/11/11/11/11/11/11/t10/");
        assert!(!Position::new(&open).edge_fort());
        // An attacker inside: no fort.
        let inside = rules("copenhagen", "/3TKT5/3TtT5/3TT6/11/11/11/11/11/11/11/11/");
        assert!(!Position::new(&inside).edge_fort());
        // No room to move: no fort.
        let shut = rules("copenhagen", "/3TKT5/4T6/11/11/11/11/11/11/11/11/t10/");
        assert!(!Position::new(&shut).edge_fort());
        // Off the edge: no fort.
        assert!(!Position::new(&Rules::preset("copenhagen").unwrap()).edge_fort());
    }

    #[test]
    fn moves_are_checked() {
        let r = Rules::preset("copenhagen").unwrap();
        let pos = Position::new(&r);
        assert!(pos.check_step(&step("d1", "d3"), ATT).is_ok());
        assert!(pos.check_step(&step("d1", "e3"), ATT).is_err());
        assert!(pos.check_step(&step("f6", "f9"), ATT.other()).is_err());
        assert!(
            pos.check_step(&step("f4", "f3"), ATT).is_err(),
            "the other side's piece"
        );
        assert!(
            pos.check_step(&step("c3", "c4"), ATT).is_err(),
            "empty square"
        );
        assert!(
            pos.check_step(&step("a6", "c6"), ATT).is_err(),
            "in the way"
        );
    }
}
