//! A start position of a record's own ([`own_start`]): where no start
//! position of its game type bears a record of aagenielsen.dk out, the one
//! its moves give, kept where its captures agree with the record's counts.

use super::{first_mover, renumber, set_rules, with_first};
use crate::error::{Kind, Problem};
use crate::family::any::Move;
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::tafl;
use crate::family::hnefatafl::{Move as TMove, Square, ATTACKERS};
use crate::ir::{Game, Ply, Side};

/// The pieces each side captures in a game replayed by these rules: the
/// attackers', then the defenders' (the king not counted, as the site's
/// counts leave him out).
pub(super) fn captured_by(game: &Game, r: &Rules) -> [u64; 2] {
    let mut taken = [0u64; 2];
    each_capture(game, r, |side, _| taken[side] += 1);
    taken
}

/// The squares each side captures on in a game replayed by these rules,
/// each side's sorted (the king not counted, as [`captured_by`]).
pub(super) fn captured_on(game: &Game, r: &Rules) -> [Vec<Square>; 2] {
    let mut made: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    each_capture(game, r, |side, sq| made[side].push(sq));
    made.iter_mut().for_each(|m| m.sort_unstable());
    made
}

/// Each man captured in a game replayed by these rules, in order: the
/// capturing side (0 the attackers, 1 the defenders) and the square (the
/// king not counted, as [`captured_by`]).
pub(super) fn each_capture(game: &Game, r: &Rules, mut each: impl FnMut(usize, Square)) {
    rules::track(
        &game.moves,
        &mut Position::new(r),
        &mut |step, piece, before| {
            let side = usize::from(piece.is_ascii_uppercase());
            for &c in &step.captures {
                if before.piece(c).is_some_and(|p| p != b'K') {
                    each(side, c);
                }
            }
        },
    );
}

/// Where the rules refuse a record under every start position of its type
/// and every mend: the start position the record's own moves give, from
/// the type's first (`base`). A square a move leaves before any piece
/// entered, passed or was captured on it held a piece of the mover's side,
/// one captured on first a piece of the other side, one first entered or
/// passed was empty, the rest as `base` has them (a king kept where the
/// defenders first move from his square, the other pieces men). The site
/// set some games of a type up otherwise than most (Old Magpie cross's
/// games 284 to 288 each move a piece of its own; Copenhagen 13x13's and
/// the Nielsen types' an attacker from `f2` or `g2`). Tried with the rules'
/// first mover, then the other (a `first-mover` warning): kept only where
/// the position has one king, the moves replay from it, and the replay's
/// captures agree with both the record's counts, which a record without
/// them cannot bear out. An `other-layout` warning at the first move names
/// the position.
pub(super) fn own_start(
    game: &Game,
    given: [Option<u64>; 2],
    base: &Rules,
    first: Side,
    rules_tag: Option<usize>,
    places: &[(usize, usize)],
) -> Option<(Game, Vec<Problem>)> {
    if given.iter().any(Option::is_none) {
        return None;
    }
    let locate = |i: usize| places.get(i).copied();
    for mover in [first, first.other()] {
        let Some(turned) = with_first(base, mover) else {
            continue;
        };
        let mut tried = game.clone();
        renumber(&mut tried.moves.plies, mover);
        let Some(rules) =
            own_cells(&tried.moves.plies, &turned).and_then(|cells| turned.with_start(&cells).ok())
        else {
            continue;
        };
        set_rules(&mut tried, &rules, rules_tag);
        let mut said = Vec::new();
        if tafl::settle(&mut tried, Some(rules.dim), true, &mut said, &locate).is_err()
            || captured_by(&tried, &rules).map(Some) != given
        {
            continue;
        }
        let at = places.first().copied().unwrap_or((1, 1));
        let start = rules
            .text()
            .split(' ')
            .find(|e| e.starts_with("start:") || e.starts_with("starti:"))
            .unwrap_or_default();
        said.insert(
            0,
            Problem::at(
                at,
                format!(
                    "no start position of the game type bears the moves out: they replay from \
                     the one they give themselves ({}: the squares they first leave held the \
                     mover's pieces, those they first enter were empty), with the captures the \
                     record counts: read from it",
                    crate::error::quote(start)
                ),
            )
            .of_kind(Kind::OtherLayout),
        );
        if mover != first {
            said.insert(0, first_mover(at, mover));
        }
        return Some((tried, said));
    }
    None
}

/// The start position a record's moves give ([`own_start`]), its plies
/// numbered with their sides, from the rules' (`None` where it is theirs).
fn own_cells(plies: &[Ply], rules: &Rules) -> Option<Vec<u8>> {
    let d = usize::from(rules.dim);
    let mut cells = rules.start.clone();
    let mut seen = vec![false; cells.len()];
    let index = |sq: Square| {
        (usize::from(sq.file) < d && usize::from(sq.rank) < d)
            .then(|| usize::from(sq.rank) * d + usize::from(sq.file))
    };
    let man = |defenders: bool| if defenders { b'T' } else { b't' };
    let of = |p: u8, defenders: bool| p != 0 && p.is_ascii_uppercase() == defenders;
    for ply in plies {
        let Move::Tafl(TMove::Step(s)) = &ply.mv else {
            continue;
        };
        let defenders = ply.side != ATTACKERS;
        let i = index(s.from)?;
        if !std::mem::replace(&mut seen[i], true) && !of(cells[i], defenders) {
            cells[i] = man(defenders);
        }
        let mut from = s.from;
        for &to in s.via.iter().chain(std::iter::once(&s.to)) {
            let (df, dr) = (
                i16::from(to.file) - i16::from(from.file),
                i16::from(to.rank) - i16::from(from.rank),
            );
            let n = df.abs().max(dr.abs());
            for k in 1..=n {
                let sq = Square::new(
                    u8::try_from(i16::from(from.file) + df.signum() * k).ok()?,
                    u8::try_from(i16::from(from.rank) + dr.signum() * k).ok()?,
                )?;
                let j = index(sq)?;
                if !std::mem::replace(&mut seen[j], true) {
                    cells[j] = 0;
                }
            }
            from = to;
        }
        for &c in &s.captures {
            let j = index(c)?;
            if !std::mem::replace(&mut seen[j], true) && !of(cells[j], !defenders) {
                cells[j] = man(!defenders);
            }
        }
    }
    (cells != rules.start).then_some(cells)
}
