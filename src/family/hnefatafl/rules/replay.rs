//! The replay of a tafl game's lines by its rules: each ply checked, its
//! captures compared with what the record lists, and what differs said.

use crate::error::Kind;
use crate::family::hnefatafl::{Mark, Move, Square, Step, ATTACKERS, MAX_DIM, MIN_DIM};
use crate::ir::{Line, Side};

use super::*;

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
    replay_by(line, pos, listing, false, notes)
}

/// Replays a site's record as [`replay`] does, but where a move starts
/// from an empty square on which a capture listed by the record took a
/// piece, and no move has entered or passed it since, a piece of the
/// mover's side is read as there: the piece taken turned to the mover's
/// side, where the mover's side took it (a `capture-turned` note), else
/// the mover's piece was not taken (`capture-left`). The record's own move
/// shows a piece of that side there. Tried only where [`replay`] refuses a record (aagenielsen.dk's
/// Old Tyr types).
pub fn replay_turning(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    notes: &mut Vec<Note>,
) -> Result<usize, (usize, String)> {
    replay_by(line, pos, listing, true, notes)
}

/// [`replay`], reading captured pieces as [`replay_turning`] does where
/// `turn`.
fn replay_by(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    turn: bool,
    notes: &mut Vec<Note>,
) -> Result<usize, (usize, String)> {
    let mut completed = 0;
    replay_from(line, pos, listing, turn, &mut 0, &mut completed, notes)?;
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
    pub kind: crate::error::Kind,
    /// What it says.
    pub message: String,
}

fn replay_from(
    line: &mut Line,
    pos: &mut Position<'_>,
    listing: Listing,
    turn: bool,
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
    // The squares a listed capture emptied and no move has entered or
    // passed since, each with the capturing side and move ([`replay_turning`]).
    let mut emptied: Vec<Emptied> = Vec::new();
    for (i, ply) in line.plies.iter_mut().enumerate() {
        let at = *index;
        *index += 1;
        for var in &mut ply.variations {
            let mut p = pos.clone();
            replay_from(var, &mut p, listing, turn, index, completed, notes)?;
        }
        let (number, side) = (ply.number, ply.side);
        let Some(Move::Step(step)) =
            <crate::family::hnefatafl::Tafl as crate::family::any::Member>::of_move_mut(
                &mut ply.mv,
            )
        else {
            continue;
        };
        if let (true, Some(end)) = (lenient, pos.over) {
            notes.push(Note {
                index: at,
                kind: Kind::PlayedOn,
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
        if turn {
            turned(pos, step, side, &mut emptied, &mut |kind, message| {
                notes.push(Note {
                    index: at,
                    kind,
                    message: format!(
                        "{} {}: {message} ({})",
                        label(number, side, first),
                        spelled(step),
                        before.described(side)
                    ),
                });
            });
        }
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
            // Of the captures a site's record lists and the rules do not
            // make, those its later moves show still there (one moves from
            // the square, or captures on it, before one enters or passes
            // it): the record contradicts itself, and its moves are kept;
            // of those the rules make and it leaves out, those its later
            // moves bear out, taken ([`as_read`]).
            let (stayed, borne_out) = if lenient {
                as_read(&written, &found, &traces[i + 1..])
            } else {
                (Vec::new(), Vec::new())
            };
            let extra: Vec<String> = written
                .iter()
                .filter(|s| !found.contains(s) && !stayed.contains(s))
                .map(|s| s.to_string())
                .collect();
            if lenient {
                let move_ = format!("{} {}", label(number, side, first), spelled(step));
                let kept: Vec<String> = missing
                    .iter()
                    .filter(|m| !borne_out.iter().any(|b| b.to_string() == **m))
                    .cloned()
                    .collect();
                let taken: Vec<String> = borne_out.iter().map(Square::to_string).collect();
                let left: Vec<String> = stayed.iter().map(Square::to_string).collect();
                for (kind, squares, what) in [
                    (
                        Kind::CaptureUnruled,
                        &left,
                        "the rules capture nothing on {}, which the record lists, and its later moves move the piece from there: not taken",
                    ),
                    (
                        Kind::CaptureUnruled,
                        &extra,
                        "the rules capture nothing on {}, which the record lists: the record's word is kept",
                    ),
                    (
                        Kind::CaptureUnlisted,
                        &kept,
                        "the rules capture {}, which the record does not list: the record's word is kept",
                    ),
                    (
                        Kind::CaptureUnlisted,
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
                step.captures.retain(|c| !stayed.contains(c));
                step.captures.extend(borne_out);
                let _ = pos.play(step, side, false);
                if turn {
                    emptied.extend(step.captures.iter().map(|&c| (c, side, move_.clone())));
                }
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
        if turn && listed {
            let move_ = format!("{} {}", label(number, side, first), spelled(step));
            emptied.extend(step.captures.iter().map(|&c| (c, side, move_.clone())));
        }
    }
    Ok(())
}

/// A square a listed capture emptied, which no move has entered or passed
/// since ([`replay_turning`]): the square, the capturing side and its move
/// as written (for the warning).
pub type Emptied = (Square, Side, String);

/// Before `side`'s `step` ([`replay_turning`]): where it starts from an
/// empty square a listed capture emptied, no move entering or passing it
/// since, a man of `side` is put there, and `say` told why (of which kind):
/// the piece taken turned to `side` where `side` took it (`capture-turned`),
/// else it was not taken (`capture-left`). The squares the step leaves,
/// passes or lands on are no longer `emptied`.
pub fn turned(
    pos: &mut Position<'_>,
    step: &Step,
    side: Side,
    emptied: &mut Vec<Emptied>,
    say: &mut dyn FnMut(Kind, String),
) {
    if pos.piece(step.from).is_none() {
        if let Some(k) = emptied.iter().position(|(sq, _, _)| *sq == step.from) {
            let (sq, by, capture) = emptied.remove(k);
            pos.set(sq, if side == ATTACKERS { b't' } else { b'T' });
            let (kind, read) = if by == side {
                (
                    Kind::CaptureTurned,
                    format!("the piece taken is read as turned to the {}", who(side)),
                )
            } else {
                (
                    Kind::CaptureLeft,
                    format!("the {}' piece is read as not taken", who(side)),
                )
            };
            say(
                kind,
                format!(
                    "no piece on {sq}, where the {}' `{capture}` took one and no move has \
                     entered or passed since: {read}",
                    who(by)
                ),
            );
        }
    }
    let path: Vec<Square> = std::iter::once(step.from)
        .chain(
            step.legs()
                .flat_map(|(at, to)| at.toward(to).into_iter().flatten()),
        )
        .collect();
    emptied.retain(|(sq, _, _)| !path.contains(sq));
}

/// How a site's record's move is read where the captures it lists
/// (`written`) and the rules' (`found`) differ ([`replay`]): of the
/// captures listed that the rules do not make, those its `later` moves show
/// still there (one moves from the square, or captures on it, before one
/// enters or passes it), not taken; of the captures the rules make that it
/// leaves out, those its later moves bear out (a piece enters or passes the
/// square before one moves from it or captures on it), taken. The record's
/// word stands for the rest.
pub fn as_read(
    written: &[Square],
    found: &[Square],
    later: &[Option<Step>],
) -> (Vec<Square>, Vec<Square>) {
    let stayed = written
        .iter()
        .copied()
        .filter(|c| !found.contains(c) && stayed_later(later, *c))
        .collect();
    let borne_out = found
        .iter()
        .copied()
        .filter(|c| !written.contains(c) && gone_later(later, *c))
        .collect();
    (stayed, borne_out)
}

/// Whether the later moves of a record show the piece on `sq` gone: one
/// enters or passes the square before one moves from it or captures on it.
fn gone_later(later: &[Option<Step>], sq: Square) -> bool {
    next_at(later, sq) == Some(true)
}

/// Whether the later moves of a record show a piece still on `sq`: one
/// moves from it or captures on it before one enters or passes it.
fn stayed_later(later: &[Option<Step>], sq: Square) -> bool {
    next_at(later, sq) == Some(false)
}

/// What the first of the later moves of a record that touches `sq` does
/// there: `true` where it enters or passes the square (it was empty),
/// `false` where it moves from it or captures on it (a piece was there),
/// none where no later move touches it.
fn next_at(later: &[Option<Step>], sq: Square) -> Option<bool> {
    for step in later.iter().flatten() {
        if step.from == sq || step.captures.contains(&sq) {
            return Some(false);
        }
        // A leg not along a line (the replay refuses it) passes no square.
        if step.legs().any(|(at, to)| {
            at.toward(to)
                .is_some_and(|mut passed| passed.any(|p| p == sq))
        }) {
            return Some(true);
        }
    }
    None
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

/// The position after every ply of a game as OpenTafl's position record
/// writes it ([`Position::record`]), in the order the container writes
/// the plies ([`crate::family::positions`]); none for a game whose rules
/// are not known.
pub fn positions(game: &crate::ir::Game) -> Vec<Option<String>> {
    let rules = game
        .variant
        .as_tafl()
        .and_then(|b| b.rules.as_ref())
        .and_then(|r| r.at_position(&game.tags).ok());
    crate::family::hooks::positions_in_order(
        &game.moves,
        rules.as_ref().map(Position::new),
        &mut |pos, plies, i| match plies[i].mv.as_tafl() {
            Some(Move::Step(step)) => pos.play(step, plies[i].side, true).is_ok(),
            Some(_) => true,
            None => false,
        },
        &|pos, _| pos.record(),
    )
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
pub fn check_game(
    game: &crate::ir::Game,
    board: &crate::family::hnefatafl::Board,
) -> Result<(), String> {
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
