//! Reading an OpenTafl record a run at a time ([`crate::codec::StreamFn`]).
//!
//! otn is no container notation: a turn pairs two plies, and the
//! variations of both come after it in the text, each addressed by the
//! ply it replaces (`12a.1.1a.`). The record is read turn by turn (each
//! parsed alone by the grammar's `turn`, after its tags by `otn_tag`), in
//! the order the lines are open: a turn of the line being read, of a line
//! open below it (the variations above it close), or the first turn of a
//! new variation of the last ply put on an open line. A turn's second ply
//! waits while the variations of its first may come. Any other order (a
//! variation of an earlier ply, a variation continued after another
//! closed) is no run's: the record is read whole.
//!
//! The positions are kept typed ([`crate::container::kept::OpenLines`]),
//! replayed by the rules a run at a time where the record is validated
//! (how the record lists captures found first, from every move), played
//! as written otherwise; each run carries its start as a `Position` tag,
//! from which its plies are spelled and drawn. The movers' letters are
//! checked as the whole read checks them, and said in its order (a ply's
//! after those of its variations).

use pest::Parser;

use super::{letters, OtnParser, Rule, Spot, Turn};
use crate::codec::{Lines, Parsed, Piece, ReadOptions};
use crate::container::kept::{self, OpenLines};
use crate::error::{Kind, Problem};
use crate::family::any::Variant;
use crate::family::hnefatafl::rules::{self, Position};
use crate::family::hnefatafl::tafl;
use crate::family::hnefatafl::{Board, Move as TMove};
use crate::ir::{Comment, Game, Line, Ply, Side, Tag};

/// The error of a record whose turns do not come as its lines open and
/// close: it is read whole.
fn unordered() -> Problem {
    Problem::whole("a variation's turns out of the order of its lines: read whole")
        .of_kind(Kind::NotStreamed)
}

/// Where the blanks (`hs` and `nl`) from `i` on end.
fn skip_blank(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// Each turn of the record from byte `i` on (past its tags), parsed, to
/// `each` with where it starts; an error where the grammar reads no turn
/// (the record read whole gives its syntax error).
fn turns<'t>(
    text: &'t str,
    from: usize,
    dim: u8,
    each: &mut dyn FnMut(Turn<'t>, usize) -> Result<(), Problem>,
) -> Result<(), Problem> {
    let b = text.as_bytes();
    let mut i = skip_blank(b, from);
    while i < b.len() {
        let pair = OtnParser::parse(Rule::turn, &text[i..])
            .ok()
            .and_then(|mut p| p.next())
            .ok_or_else(|| {
                Problem::whole("no turn where one was due: read whole").of_kind(Kind::NotStreamed)
            })?;
        let end = i + pair.as_span().end();
        each(Turn::parse(pair, text, i, dim)?, i)?;
        i = skip_blank(b, end);
    }
    Ok(())
}

/// Reads one record a run at a time ([`crate::codec::StreamFn`]); see the
/// module's description.
pub fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    let b = text.as_bytes();
    let mut head = super::Head::default();
    let mut i = skip_blank(b, 0);
    while b.get(i) == Some(&b'[') {
        let Some(pair) = OtnParser::parse(Rule::otn_tag, &text[i..])
            .ok()
            .and_then(|mut p| p.next())
        else {
            break;
        };
        let end = i + pair.as_span().end();
        head.tag(pair, text, i)?;
        i = skip_blank(b, end);
    }
    let preamble = std::mem::take(&mut head.preamble);
    let (mut game, first) = head.game(text, opts)?;
    let Some(board) = game.variant.as_tafl().cloned() else {
        return Ok(None);
    };
    let Some(rules) = board.rules.as_ref() else {
        return Ok(None);
    };
    let start = rules
        .at_position(&game.tags)
        .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
    // How the record lists captures: any move that lists one.
    let mut lists = false;
    if board.validated {
        turns(text, i, board.dim, &mut |turn, _| {
            lists |= turn
                .moves
                .iter()
                .any(|r| r.mv.step().is_some_and(|s| !s.captures.is_empty()));
            Ok(())
        })?;
    }
    let mut reader = Reader {
        text,
        places: Lines::new(text),
        first,
        board: &board,
        listing: if lists {
            rules::Listing::All
        } else {
            rules::Listing::None
        },
        lines: OpenLines::new(Some(Position::new(&start))),
        open: vec![Open::new(None, 1)],
        said: Vec::new(),
        completed: 0,
        preamble: Some(preamble),
        cut: i,
        run_bytes: kept::run_bytes(opts),
        each,
    };
    turns(text, i, board.dim, &mut |turn, at| reader.turn(turn, at))?;
    reader.close_to(0)?;
    reader.flush_all()?;
    let Reader {
        mut said,
        completed,
        preamble,
        mut open,
        ..
    } = reader;
    said.append(&mut open[0].said);
    // The start comments of a record without moves.
    if let Some(preamble) = preamble {
        game.moves.trailing.splice(0..0, preamble);
    }
    let mut warnings: Vec<Problem> = tafl::completed(completed).into_iter().collect();
    warnings.append(&mut said);
    Ok(Some(Parsed { game, warnings }))
}

/// A line open, as the turns read put plies on it.
struct Open {
    /// Its key (`8a.1`); `None` for the main line.
    key: Option<String>,
    /// The number of its first turn's plies.
    base: u32,
    /// The number of the last ply put on it.
    last: Option<u32>,
    /// The plies put on it, not yet handed on, with where each was
    /// written.
    held: Vec<(Ply, Option<Spot>)>,
    /// The second ply of its last turn, held back while variations of
    /// the first may come.
    waiting: Option<(Ply, Option<Spot>)>,
    /// The last ply handed on (its number and side).
    handed: Option<(u32, Side)>,
    /// The ply the variations opened last replace, and their keys.
    varied: Option<(u32, Side)>,
    keys: Vec<String>,
    /// What the movers' letters of the last ply handed on said, said
    /// after its variations'.
    said: Vec<Problem>,
}

impl Open {
    fn new(key: Option<String>, base: u32) -> Open {
        Open {
            key,
            base,
            last: None,
            held: Vec::new(),
            waiting: None,
            handed: None,
            varied: None,
            keys: Vec::new(),
            said: Vec::new(),
        }
    }
}

/// A record being read a run at a time.
struct Reader<'t, 'b, 'r, 'e> {
    text: &'t str,
    /// The record's places, for what the letters say of each move.
    places: Lines<'t>,
    first: Side,
    /// The game's board, each run's.
    board: &'b Board,
    listing: rules::Listing,
    /// The positions of the lines open.
    lines: OpenLines<Position<'r>>,
    /// The lines open, the main line's first.
    open: Vec<Open>,
    /// What the movers' letters said, in the whole read's order.
    said: Vec<Problem>,
    /// The king's captures completed.
    completed: usize,
    /// The start comments, until the main line's first ply takes them.
    preamble: Option<Vec<Comment>>,
    /// Where the last run was cut, and how much text a run holds.
    cut: usize,
    run_bytes: usize,
    each: &'e mut dyn FnMut(Piece<'_>) -> Result<(), Problem>,
}

impl Reader<'_, '_, '_, '_> {
    /// Puts a turn that starts at byte `at` on its line.
    fn turn(&mut self, turn: Turn<'_>, at: usize) -> Result<(), Problem> {
        let (key, t) = turn.address()?;
        let depth = match key {
            None => 0,
            Some(key) => match self.open.iter().position(|l| l.key.as_deref() == Some(key)) {
                Some(d) => d,
                None => {
                    let (pkey, ptn, second) = turn.varied(key)?;
                    let parent = self
                        .open
                        .iter()
                        .position(|l| l.key.as_deref() == pkey)
                        .ok_or_else(unordered)?;
                    self.close_to(parent)?;
                    let side = if second {
                        self.first.other()
                    } else {
                        self.first
                    };
                    let number = self.open[parent].base + ptn - 1;
                    self.open_variation(key, (number, side))?;
                    parent + 1
                }
            },
        };
        self.close_to(depth)?;
        let line = &mut self.open[depth];
        let number = line.base + t - 1;
        turn.check_number(number, line.base, line.last)?;
        let plies = turn.plies(self.text, number, self.first)?;
        if let Some(w) = line.waiting.take() {
            line.held.push(w);
        }
        if at - self.cut >= self.run_bytes && !line.held.is_empty() {
            self.flush()?;
            self.cut = at;
        }
        let line = &mut self.open[depth];
        for (k, (mut ply, spot)) in plies.into_iter().enumerate() {
            if let Some(preamble) = self.preamble.take_if(|_| depth == 0) {
                ply.before.splice(0..0, preamble);
            }
            line.last = Some(ply.number);
            if k == 1 {
                line.waiting = Some((ply, spot));
            } else {
                line.held.push((ply, spot));
            }
        }
        Ok(())
    }

    /// Opens a variation `key` of the ply `varied` of the line on top: the
    /// last ply put on it, or the first of its last turn while the second
    /// waits; else the record is read whole.
    fn open_variation(&mut self, key: &str, varied: (u32, Side)) -> Result<(), Problem> {
        let line = self.open.last_mut().ok_or_else(unordered)?;
        let id = |(p, _): &(Ply, Option<Spot>)| (p.number, p.side);
        let last = line.held.last().map(id).or(line.handed);
        // (A variation of the waiting ply: it is put first.)
        let of_waiting = line.waiting.as_ref().map(id) == Some(varied);
        if of_waiting {
            let w = line.waiting.take();
            line.held.extend(w);
        } else if last != Some(varied) {
            return Err(unordered());
        }
        if line.varied != Some(varied) {
            line.varied = Some(varied);
            line.keys.clear();
        }
        if line.keys.iter().any(|k| k == key) {
            return Err(unordered());
        }
        line.keys.push(key.to_string());
        self.flush()?;
        self.piece(Piece::Open)?;
        self.open.push(Open::new(Some(key.to_string()), varied.0));
        Ok(())
    }

    /// Closes the lines open above `depth`, each handing on what it holds.
    fn close_to(&mut self, depth: usize) -> Result<(), Problem> {
        while self.open.len() > depth + 1 {
            self.flush_all()?;
            let mut line = self.open.pop().ok_or_else(unordered)?;
            self.said.append(&mut line.said);
            self.piece(Piece::Close(&[]))?;
        }
        Ok(())
    }

    /// Hands a piece on, the positions following it.
    fn piece(&mut self, piece: Piece<'_>) -> Result<(), Problem> {
        self.lines.follow(&piece);
        (self.each)(piece)
    }

    /// Hands on every ply the line on top holds, its waiting ply too (the
    /// line ends).
    fn flush_all(&mut self) -> Result<(), Problem> {
        if let Some(line) = self.open.last_mut() {
            let w = line.waiting.take();
            line.held.extend(w);
        }
        self.flush()
    }

    /// Hands on the plies the line on top holds as a run: replayed from where its last run left (validated), or played
    /// as written; the movers' letters checked.
    fn flush(&mut self) -> Result<(), Problem> {
        let Some(line) = self.open.last_mut() else {
            return Ok(());
        };
        if line.held.is_empty() {
            return Ok(());
        }
        let validated = self.board.validated;
        let mut run = Game::new(Variant::Tafl(self.board.clone()));
        let top = self.lines.top()?;
        let mut pos = top
            .pos
            .take()
            .ok_or_else(|| Problem::whole("a run with no position").of_kind(Kind::Internal))?;
        // The run starts where the last one left: its Position tag, from
        // which it is spelled and drawn.
        run.tags.push(Tag::new("Position", pos.record()));
        let n = line.held.len();
        run.moves.plies.reserve(n);
        for (k, (ply, spot)) in line.held.drain(..).enumerate() {
            // The letters of the ply before, after its variations'.
            self.said.append(&mut line.said);
            if k + 1 == n {
                top.before_last = Some(pos.clone());
            }
            let step = ply.mv.as_tafl().and_then(TMove::step);
            // The position before the ply, where its letters say
            // something of its piece.
            let before = match (step, &spot) {
                (Some(s), Some(spot)) if validated => {
                    let special = matches!(
                        pos.piece(s.from).map(|p| p.to_ascii_lowercase()),
                        Some(b'k' | b'n' | b'c')
                    );
                    (special || spot.letters.iter().any(|(l, _)| l.is_some())).then(|| pos.clone())
                }
                _ => None,
            };
            let ply = if validated {
                let mut one = Line {
                    plies: vec![ply],
                    ..Line::default()
                };
                self.completed += rules::replay(&mut one, &mut pos, self.listing, &mut Vec::new())
                    .map_err(|(_, e)| Problem::whole(e).of_kind(Kind::IllegalMove))?;
                one.plies.pop().ok_or_else(unordered)?
            } else {
                if let Some(step) = step {
                    let _ = pos.play(step, ply.side, false);
                }
                ply
            };
            if let (Some(before), Some(spot), Some(TMove::Step(step))) =
                (&before, &spot, ply.mv.as_tafl())
            {
                letters(
                    &ply,
                    step,
                    spot,
                    before,
                    self.first,
                    &self.places,
                    &mut line.said,
                )?;
            }
            line.handed = Some((ply.number, ply.side));
            run.moves.plies.push(ply);
        }
        top.pos = Some(pos);
        self.piece(Piece::Run(&run))
    }
}
