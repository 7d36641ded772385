//! The berserk legs aagenielsen.dk's records leave out, inferred
//! ([`berserk_legs`]): the site's JSON keeps only each move's first leg.

use std::borrow::Cow;

use crate::error::{Kind, Problem};
use crate::family::any::Move;
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::tafl;
use crate::family::hnefatafl::{Move as TMove, Square, Step, ATTACKERS};
use crate::ir::Game;

use super::needs::Needs;
use super::{other_layout, replay_layouts_by, set_rules, Reading};

/// How far the search for the berserk legs a record left out goes
/// ([`berserk_legs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bounds {
    /// How far back from a move the rules refuse a leg is looked for, in
    /// plies.
    back: usize,
    /// The most replays tried.
    tries: usize,
    /// The most legs inferred in one record.
    legs: usize,
    /// Whether a leg after which a move before the refused one is refused
    /// (its own move, whose first leg captures nothing by the rules where
    /// the record lists a capture, so that it may not go on; or one after
    /// it) is kept where legs searched back from that move bear it out
    /// ([`super::earlier`]).
    earlier: bool,
    /// Whether a leg after which the refused move is still refused is kept
    /// where it makes the first leg of a later move before the refused one
    /// capture, which captured nothing without it (so that the later move's
    /// piece may go on), and legs searched back from the refused move again
    /// bear it out ([`super::enabled`]; records that list no captures).
    enabling: bool,
    /// Whether the directed pass alone runs, and in it a further leg of a
    /// move the pass has lengthened is tried though it touches none of the
    /// refused move's needs, and kept where it leaves no more of them unmet
    /// (it may clear the way for a lost leg of another move that meets
    /// them), the legs searched back from the refused move again
    /// ([`super::cleared`]).
    clearing: bool,
}

/// The search's bounds.
pub(super) const BOUNDS: Bounds = Bounds {
    back: 30,
    tries: 600,
    legs: 6,
    earlier: false,
    enabling: false,
    clearing: false,
};

/// The wider bounds of the last search, tried only where nothing else
/// bears a record out ([`super::read`]): back to the first move, ten times
/// the replays, 8 legs.
pub(super) const WIDE: Bounds = Bounds {
    back: usize::MAX,
    tries: 6000,
    legs: 8,
    earlier: false,
    enabling: false,
    clearing: false,
};

/// The deepest search, tried last and kept only where the replay captures
/// no more than the record counts ([`super::deep`]): back to the first move,
/// ten times the wide search's replays, 16 legs (a commander's ring of
/// jumps round the king is seven or nine legs of one move).
pub(super) const DEEP: Bounds = Bounds {
    tries: 60_000,
    legs: 16,
    ..WIDE
};

/// The wide search's bounds, where a leg after which an earlier move than
/// the refused one is refused is kept when legs before that move bear it
/// out ([`super::earlier`]).
pub(super) const EARLIER: Bounds = Bounds {
    earlier: true,
    ..WIDE
};

/// The wide search's bounds, where a leg after which the refused move is
/// still refused is kept when it makes a later move's first leg capture
/// and legs searched again bear it out ([`super::enabled`]).
pub(super) const ENABLING: Bounds = Bounds {
    enabling: true,
    ..WIDE
};

/// The wide search's bounds, the directed pass alone, where a further leg
/// of a move the pass lengthened is kept though it meets none of the
/// refused move's needs, where it leaves no more of them unmet
/// ([`super::cleared`]).
pub(super) const CLEARING: Bounds = Bounds {
    clearing: true,
    ..WIDE
};

/// Where the rules refuse a record's moves and its game type
/// has berserk moves (`ber:c`, `ber:m`, `ber:t`: a piece that captured may move
/// again, the same turn): the berserk legs the record leaves out (the
/// site's JSON keeps only each move's first leg), inferred. Searching back
/// from the refused move, a leg of the piece that made a capture, which
/// the rules allow there (under `ber:c`, one that captures; under `ber:t`,
/// one that captures or steps onto a square the move captured on), is added to
/// its move, with its captures, where the moves then replay past the
/// refused one; legs are added so, depth first, until every move replays;
/// where that finds none under any start position, the directed pass
/// ([`Needs`]) tries again. Each move so lengthened is a `berserk-leg` warning; none is kept
/// unless the whole record then replays.
///
/// Where `turn` is not [`Turn::No`], the moves are replayed reading the
/// captured pieces the record's later moves move for the capturing side as
/// turned ([`super::turned`]), and under [`Turn::Search`] the search's own
/// positions read them so too ([`super::turned_on`]).
pub(super) fn berserk_legs(
    reading: Reading,
    rules_tag: Option<usize>,
    bounds: Bounds,
    turn: Turn,
) -> Option<(Reading, Game, Vec<Problem>)> {
    let listed = rules::lists_captures(&reading.game.moves);
    let extent = tafl::extent_of(&reading.game.moves);
    // The search as it was under every start position, then, where it
    // finds no legs under any, the directed pass ([`Needs`]) under each: a
    // record the first reads is read as before.
    // (Where `clearing`, the directed pass alone: the search as it was
    // runs under the wide bounds before.)
    let tries = [false, true]
        .into_iter()
        .filter(|&directed| directed || !bounds.clearing)
        .flat_map(|directed| {
            reading
                .layouts
                .iter()
                .enumerate()
                .map(move |(n, layout)| (directed, n, layout))
        });
    for (directed, n, layout) in tries {
        if layout.berserk == rules::Berserk::No || layout.dim < extent {
            continue;
        }
        let mut game = reading.game.clone();
        if n > 0 {
            set_rules(&mut game, layout, rules_tag);
        }
        let refused = |game: &Game| -> Option<usize> {
            let mut line = game.moves.clone();
            let listing = rules::Listing::of(&line, true);
            let replay = if turning(turn) {
                rules::replay_turning
            } else {
                rules::replay
            };
            replay(
                &mut line,
                &mut Position::new(layout),
                listing,
                &mut Vec::new(),
            )
            .err()
            .map(|(i, _)| i)
        };
        // Searched back from the first move this layout refuses.
        let Some(first) = refused(&game) else {
            continue;
        };
        // Capturing legs alone first; under `ber:t`, where they do not
        // bear the moves out, the steps onto a captured square too (the
        // readings `ber:c` finds stay as they were).
        let passes: &[bool] = if layout.berserk == rules::Berserk::Take {
            &[false, true]
        } else {
            &[false]
        };
        let Some(search) = passes.iter().find_map(|&take| {
            let mut search = Search {
                rules: layout,
                bounds,
                listed,
                directed,
                take,
                turn,
                tries: 0,
                legs: 0,
                lengthened: Vec::new(),
            };
            search
                .extend(&mut game, first, None, &refused)
                .then_some(search)
        }) else {
            continue;
        };
        let mut said = leg_warnings(&game, &search.lengthened, &reading.places);
        let layouts = std::slice::from_ref(layout);
        let (replayed, mut more) =
            replay_layouts_by(&game, layouts, rules_tag, &reading.places, turning(turn)).ok()?;
        if n > 0 {
            said.insert(0, other_layout(&reading.layouts, n, &reading.places));
        }
        said.append(&mut more);
        let mended = Reading { game, ..reading };
        return Some((mended, replayed, said));
    }
    None
}

/// The `berserk-leg` warnings of the plies of `game` lengthened
/// (`lengthened`: each ply's index and its step as written), at each ply's
/// place (`places`).
pub(super) fn leg_warnings(
    game: &Game,
    lengthened: &[(usize, Step)],
    places: &[(usize, usize)],
) -> Vec<Problem> {
    let mover = game.moves.plies.first().map_or(ATTACKERS, |p| p.side);
    let mut said = Vec::new();
    for &(i, ref was) in lengthened {
        let ply = &game.moves.plies[i];
        let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
            continue;
        };
        said.push(
            Problem::at(
                places[i],
                format!(
                    "{} {}: the record leaves out the berserk legs {} (the piece captured, and \
                     the later moves bear them out): read as {}",
                    rules::label(ply.number, ply.side, mover),
                    crate::error::quote(&rules::spelled(was)),
                    crate::error::quote(&legs_after(step, was)),
                    crate::error::quote(&rules::spelled(step)),
                ),
            )
            .of_kind(Kind::BerserkLeg),
        );
    }
    said
}

/// Whether the captured pieces a record moves on for the capturing side
/// are read as turned ([`super::turned`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Turn {
    /// Not read so.
    No,
    /// The record's replay reads them so; the search's positions, from
    /// which it takes the legs a move may go on with, do not.
    Replay,
    /// The search's positions read them so too: a piece read as turned
    /// moves on with the legs it captures by ([`super::turned_on`]).
    Search,
    /// None is read as turned, but the search's positions read each move's
    /// captures as the replay does ([`rules::as_read`]: a listed capture
    /// the record's later moves show still there not taken, one the rules
    /// make that it leaves out and its later moves bear out taken), not as
    /// the record lists them ([`super::as_replayed`]).
    AsRead,
}

/// Whether the replay reads the captured pieces the record moves on for
/// the capturing side as turned.
fn turning(turn: Turn) -> bool {
    matches!(turn, Turn::Replay | Turn::Search)
}

/// The legs a lengthened step adds to the step as written (`c8-c6xc5`).
fn legs_after(step: &Step, was: &Step) -> String {
    let mut legs = vec![was.to];
    legs.extend(step.via.iter().skip(was.via.len() + 1).copied());
    legs.push(step.to);
    let mut s = legs
        .iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join("-");
    for (i, c) in step.captures.iter().skip(was.captures.len()).enumerate() {
        s.push(if i == 0 { 'x' } else { '/' });
        s.push_str(&c.to_string());
    }
    s
}

/// The search for the berserk legs a record left out ([`berserk_legs`]).
struct Search<'r> {
    rules: &'r Rules,
    /// How far it goes.
    bounds: Bounds,
    /// Whether the record lists captures (the inferred legs' are added).
    listed: bool,
    /// The directed pass: only legs that touch the refused move's needs
    /// are tried, and one that meets more of them is kept though the same
    /// move is still refused ([`Needs`]).
    directed: bool,
    /// Whether a leg may step onto a square the move captured on without
    /// capturing (`ber:t`), besides the legs that capture.
    take: bool,
    /// How its positions read the captured pieces the record moves on:
    /// as turned ([`Turn::Search`]), each move's captures as the replay
    /// reads them ([`Turn::AsRead`]), or as the record lists them.
    turn: Turn,
    /// The replays tried.
    tries: usize,
    /// The legs added.
    legs: usize,
    /// The plies lengthened, each with its step as written.
    lengthened: Vec<(usize, Step)>,
}

impl Search<'_> {
    /// Lengthens moves before ply `refused` (the first the rules refuse)
    /// until the game replays: whether it does. A leg after which the same
    /// move is still the first refused is kept only where a further leg of
    /// the same move (`only`) goes past it (a piece that captured twice,
    /// the second leg ending where the refused move starts).
    fn extend(
        &mut self,
        game: &mut Game,
        refused: usize,
        only: Option<usize>,
        replay: &dyn Fn(&Game) -> Option<usize>,
    ) -> bool {
        if self.legs >= self.bounds.legs {
            return false;
        }
        let (lo, hi) = match only {
            Some(c) => (c, c + 1),
            None => (refused.saturating_sub(self.bounds.back), refused),
        };
        // The refused move's needs, and how far the position before it is
        // from them (the directed pass).
        let needs = self
            .directed
            .then(|| self.needs_at(game, refused))
            .flatten();
        for c in (lo..hi).rev() {
            // Which moves between this one and the refused one capture by
            // their first legs (where a leg that makes one capture is kept).
            let capturing = (self.bounds.enabling && only.is_none())
                .then(|| self.first_legs_capture(game, c + 1, refused));
            for (leg, captures) in self.legs_at(game, c) {
                if self.tries >= self.bounds.tries {
                    return false;
                }
                let Some(Move::Tafl(TMove::Step(step))) =
                    game.moves.plies.get_mut(c).map(|p| &mut p.mv)
                else {
                    continue;
                };
                // A further leg of a move this search lengthened (where
                // `clearing`).
                let continuing =
                    self.bounds.clearing && self.lengthened.iter().any(|(i, _)| *i == c);
                // The directed pass tries only the legs that touch the
                // refused move's needs (and, where `clearing`, the
                // further legs of the moves it lengthened).
                if let (Some((needs, _)), None) = (&needs, only) {
                    if !needs.touched(step.to, leg, &captures) && !continuing {
                        continue;
                    }
                }
                self.tries += 1;
                let was = step.clone();
                step.via.push(step.to);
                step.to = leg;
                if self.listed {
                    step.captures.extend(captures);
                }
                let fresh = !self.lengthened.iter().any(|(i, _)| *i == c);
                if fresh {
                    self.lengthened.push((c, was.clone()));
                }
                self.legs += 1;
                let nearer = |search: &Self, game: &Game| {
                    needs.as_ref().is_some_and(|(_, unmet)| {
                        search
                            .needs_at(game, refused)
                            .is_some_and(|(_, now)| now < *unmet)
                    })
                };
                // No farther from the needs than before the leg.
                let no_farther = |search: &Self, game: &Game| {
                    needs.as_ref().is_some_and(|(_, unmet)| {
                        search
                            .needs_at(game, refused)
                            .is_some_and(|(_, now)| now <= *unmet)
                    })
                };
                let done = match replay(game) {
                    None => true,
                    Some(next) if next > refused => self.extend(game, next, None, replay),
                    Some(next) if next == refused && nearer(self, game) => {
                        self.extend(game, next, None, replay)
                    }
                    Some(next)
                        if next == refused
                            && continuing
                            && only.is_none()
                            && no_farther(self, game) =>
                    {
                        self.extend(game, next, None, replay)
                    }
                    Some(next) if next == refused => {
                        self.extend(game, next, Some(c), replay)
                            || capturing.as_ref().is_some_and(|before| {
                                let now = self.first_legs_capture(game, c + 1, refused);
                                now.iter().zip(before).any(|(&n, &b)| n && !b)
                            }) && self.extend(game, next, None, replay)
                    }
                    // A move before the refused one now refused (the leg's
                    // own, whose first leg then captures nothing by the
                    // rules, or one after it): the legs before that move
                    // that bear it out.
                    Some(next) if self.bounds.earlier => self.extend(game, next, None, replay),
                    Some(_) => false,
                };
                if done {
                    return true;
                }
                self.legs -= 1;
                if fresh {
                    self.lengthened.pop();
                }
                if let Some(Move::Tafl(TMove::Step(step))) =
                    game.moves.plies.get_mut(c).map(|p| &mut p.mv)
                {
                    *step = was;
                }
            }
        }
        false
    }

    /// Whether each move of plies `from..to` captures by its first leg, by
    /// the rules, in the position before it ([`Self::before`] of `from`,
    /// then each move played as the rules play it).
    fn first_legs_capture(&self, game: &Game, from: usize, to: usize) -> Vec<bool> {
        let mut pos = self.before(game, from);
        let plies = game.moves.plies.get(from..to).unwrap_or_default();
        plies
            .iter()
            .map(|ply| {
                let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
                    return false;
                };
                let took = pos
                    .clone()
                    .play(&step.first_leg(), ply.side, true)
                    .is_ok_and(|p| !p.captures.is_empty());
                // As the rules play it, else as written.
                let mut next = pos.clone();
                if next.play(step, ply.side, true).is_ok() {
                    pos = next;
                } else {
                    let _ = pos.play(step, ply.side, false);
                }
                took
            })
            .collect()
    }

    /// The position before ply `c`: each move played with the record's
    /// captures where it lists them, else the rules'.
    fn before(&self, game: &Game, c: usize) -> Position<'_> {
        self.played_to(game, c, None)
    }

    /// The position before ply `c`, as [`Self::before`] gives it; where
    /// `emptied` is given, the captured pieces the record moves on for the
    /// capturing side read as turned, as [`rules::replay_turning`] reads
    /// them: each move from a square a listed capture emptied, no move
    /// having entered or passed it since, finds a piece of its own side
    /// there ([`rules::turned`]), and `emptied` holds those squares after
    /// the last move played.
    fn played_to(
        &self,
        game: &Game,
        c: usize,
        mut emptied: Option<&mut Vec<rules::Emptied>>,
    ) -> Position<'_> {
        let mut pos = Position::new(self.rules);
        // The game's steps, for the moves read as the replay reads them
        // (collected once, where one is).
        let mut steps = None;
        for (i, ply) in game.moves.plies[..c].iter().enumerate() {
            if let Some(TMove::Step(step)) = ply.mv.as_tafl() {
                if let Some(emptied) = emptied.as_deref_mut() {
                    rules::turned(&mut pos, step, ply.side, emptied, &mut |_, _| {});
                }
                if self.turn == Turn::AsRead && self.listed {
                    self.play_as_read(&mut pos, game, i, &mut steps);
                } else if self.listed || pos.clone().play(step, ply.side, true).is_err() {
                    let _ = pos.play(step, ply.side, false);
                } else {
                    let _ = pos.play(step, ply.side, true);
                }
                if let (Some(emptied), true) = (emptied.as_deref_mut(), self.listed) {
                    emptied.extend(step.captures.iter().map(|&c| (c, ply.side, String::new())));
                }
            }
        }
        pos
    }

    /// Plays ply `i` of a record that lists captures with the captures the
    /// replay reads it with ([`rules::as_read`]), where the rules allow the
    /// move (else as the record lists them): whether it captured. `steps`:
    /// the game's steps, collected here the first time a move needs the
    /// later ones.
    fn play_as_read(
        &self,
        pos: &mut Position<'_>,
        game: &Game,
        i: usize,
        steps: &mut Option<Vec<Option<Step>>>,
    ) -> bool {
        let plies = &game.moves.plies;
        let Some(TMove::Step(step)) = plies[i].mv.as_tafl() else {
            return false;
        };
        let side = plies[i].side;
        // A capture of one not among the other's.
        let beyond = |a: &[Square], b: &[Square]| a.iter().any(|c| !b.contains(c));
        // As the record lists it, but where the rules allow the move and
        // capture otherwise (the later moves looked at only then).
        let read = match pos.clone().play(step, side, true) {
            Ok(played)
                if beyond(&step.captures, &played.captures)
                    || beyond(&played.captures, &step.captures) =>
            {
                let steps = steps.get_or_insert_with(|| {
                    plies
                        .iter()
                        .map(|p| p.mv.as_tafl().and_then(TMove::step).cloned())
                        .collect()
                });
                let later = steps.get(i + 1..).unwrap_or_default();
                let (stayed, borne_out) = rules::as_read(&step.captures, &played.captures, later);
                let mut read = step.clone();
                read.captures.retain(|c| !stayed.contains(c));
                read.captures.extend(borne_out);
                Cow::Owned(read)
            }
            _ => Cow::Borrowed(step),
        };
        let _ = pos.play(&read, side, false);
        !read.captures.is_empty()
    }

    /// The needs of the move at ply `k` and how many of them the position
    /// before it leaves unmet ([`Needs`]).
    fn needs_at(&self, game: &Game, k: usize) -> Option<(Needs, usize)> {
        let ply = game.moves.plies.get(k)?;
        let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
            return None;
        };
        let needs = Needs::of(step);
        let unmet = needs.unmet(&self.before(game, k), ply.side);
        Some((needs, unmet))
    }

    /// The berserk legs the piece that moved at ply `c` may go on with
    /// (where its move captured): each leg's end and its captures.
    fn legs_at(&self, game: &Game, c: usize) -> Vec<(Square, Vec<Square>)> {
        let plies = &game.moves.plies;
        let mut emptied = Vec::new();
        let mut pos = self.played_to(game, c, (self.turn == Turn::Search).then_some(&mut emptied));
        let Some(ply) = plies.get(c) else {
            return Vec::new();
        };
        let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
            return Vec::new();
        };
        if self.turn == Turn::Search {
            rules::turned(&mut pos, step, ply.side, &mut emptied, &mut |_, _| {});
        }
        // A jump (`bj:y`: the piece may go on as one that captured may).
        let jumped = self.rules.jump_on && jumps(&pos, step);
        // The move as played: its captures (the record's, or the rules').
        // (`ber:t`: the squares it captured on, which a leg may step onto).
        let (captured, took) = if self.turn == Turn::AsRead && self.listed {
            let read = self.play_as_read(&mut pos, game, c, &mut None);
            (read, step.captures.clone())
        } else if self.listed {
            let _ = pos.play(step, ply.side, false);
            (!step.captures.is_empty(), step.captures.clone())
        } else {
            match pos.play(step, ply.side, true) {
                Ok(p) => (p.legs.last().is_some_and(|&n| n > 0), p.captures),
                Err(_) => (false, Vec::new()),
            }
        };
        if !(captured || jumped) || pos.is_over() {
            return Vec::new();
        }
        let dim = i16::from(self.rules.dim);
        let (f, r) = (i16::from(step.to.file), i16::from(step.to.rank));
        let mut out = Vec::new();
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            for k in 1..dim {
                let (tf, tr) = (f + k * df, r + k * dr);
                if tf < 0 || tr < 0 || tf >= dim || tr >= dim {
                    break;
                }
                let to = Square {
                    file: tf as u8,
                    rank: tr as u8,
                };
                let leg = Step::leg(step.to, to);
                let mut trial = pos.clone();
                if let Ok(played) = trial.play(&leg, ply.side, true) {
                    let capture = self.rules.berserk == rules::Berserk::Move
                        || !played.captures.is_empty()
                        || (self.take && took.contains(&to))
                        || (self.rules.jump_leg && jumps(&pos, &leg));
                    if capture && !played.king_captured {
                        out.push((to, played.captures));
                    }
                }
                // Past an occupied square only by a jump, two squares.
                if pos.piece(to).is_some() && k > 1 {
                    break;
                }
            }
        }
        out
    }
}

/// Whether `step` is a jump in `pos`, the position before it
/// ([`jump_over`], a piece on the square it passes).
fn jumps(pos: &Position, step: &Step) -> bool {
    jump_over(step).is_some_and(|over| pos.piece(over).is_some())
}

/// The square `step` would jump over: the one between its start and its
/// end, where it is a move of one leg two squares along a line.
pub(super) fn jump_over(step: &Step) -> Option<Square> {
    let (df, dr) = (
        step.to.file.abs_diff(step.from.file),
        step.to.rank.abs_diff(step.from.rank),
    );
    (step.via.is_empty() && matches!((df, dr), (2, 0) | (0, 2))).then(|| Square {
        file: step.from.file.midpoint(step.to.file),
        rank: step.from.rank.midpoint(step.to.rank),
    })
}
