//! Writing an OpenTafl record: its tags, its turns with their commentary,
//! and its variations addressed as OpenTafl addresses them.

use crate::codec::{RunWriter, WriteOptions};
use crate::error::{Kind, Problem};
use crate::family::hnefatafl::rules::Position;
use crate::family::hnefatafl::tafl;
use crate::family::hnefatafl::{Mark, Move as TMove, Square, Step, ATTACKERS};
use crate::family::spell::Lines;
use crate::family::spell::{self, Spell};
use crate::ir::{Comment, Game, Ply, Side};

use super::*;

/// Text as a tag value or commentary can hold it: a `]` at the end of a
/// line would close it (written `)`), and a `|` splits a turn's
/// commentary (written `/`) where `bar` is false; each change is a warning.
fn fit(text: &str, bar: bool, warnings: &mut Vec<Problem>) -> String {
    let b = text.as_bytes();
    let closes = |i: usize| {
        b[i] == b']'
            && b[i + 1..]
                .iter()
                .find(|&&c| c != b' ' && c != b'\t')
                .is_none_or(|&c| c == b'\n' || c == b'\r')
    };
    let bad = (0..b.len()).any(|i| closes(i) || (!bar && b[i] == b'|'));
    if !bad {
        return text.to_string();
    }
    warnings.push(
        Problem::whole(
            "otn cannot hold a `]` at the end of a line of a tag or comment, nor a `|` in a \
         turn's first comment: written `)` and `/`",
        )
        .of_kind(Kind::OtnEscape),
    );
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        out.push(match c {
            ']' if closes(i) => ')',
            '|' if !bar => '/',
            c => c,
        });
    }
    out
}

/// Comments as one commentary text, separated by spaces.
fn joined<'c>(parts: impl IntoIterator<Item = &'c Comment>) -> String {
    let texts: Vec<&str> = parts
        .into_iter()
        .map(|c| c.text.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    texts.join(" ")
}

/// Writes one game.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game a run at a time ([`crate::codec::RunsFn`]).
pub fn runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    let options = opts
        .format
        .get::<tafl::Options>()
        .cloned()
        .unwrap_or_default();
    Box::new(Runs {
        options,
        whole: false,
        said: Vec::new(),
        lines: vec![Open::default()],
        opening: None,
        first: ATTACKERS,
        judged: false,
    })
}

/// Writes the head of a game: its tags, the start comments (`opening`,
/// the comments before the first move, after the game's preamble) after
/// its rules, and a blank line; the error of a game otn cannot hold.
fn head(
    game: &Game,
    options: &tafl::Options,
    opening: &[Comment],
    out: &mut String,
    warnings: &mut Vec<Problem>,
) -> Result<(), Problem> {
    let Some(board) = game.variant.as_tafl() else {
        return Err(game.family().cannot_be_written_as("otn"));
    };
    let Some(rules) = &board.rules else {
        return Err(Problem::whole(NO_RULES).of_kind(Kind::CannotWrite));
    };
    // Seen from another side, the rules' start position and the position
    // tag turn with the squares.
    let (q, m) = (options.quarters, options.mirror);
    let shown = rules.transformed(q, m);
    let mut shown_tags = game.tags.clone();
    tafl::view_position(&mut shown_tags, board.dim, q, m);
    // The comments before the first move (and those before the tags) are
    // the start comment.
    let start_comment = |out: &mut String, warnings: &mut Vec<Problem>| {
        for c in game.preamble.iter().chain(opening) {
            out.push_str("[start-comment:");
            out.push_str(&fit(&c.text, true, warnings));
            out.push_str("]\n");
        }
    };
    let mut wrote_rules = false;
    let has_result = game.tag("Result").is_some();
    // A record is found by its first tag, which must be one OpenTafl
    // writes (`OtnScan`): where the game's first is another (a key kifu
    // keeps, `[foo:x]`), its result tag comes first.
    let known_first = shown_tags
        .iter()
        .find(|t| t.name != "Board")
        .is_none_or(|t| {
            t.name == "Rules" || starts_tag(format!("[{}:", tag_key(&t.name)).as_bytes())
        });
    let result_first = match (has_result, game.result) {
        (true, _) if known_first => None,
        (true, _) => game.tag("Result").map(|v| result_out(v).to_string()),
        (false, Some(r)) => Some(result_out(r.token()).to_string()),
        (false, None) if known_first => None,
        (false, None) => Some("?".to_string()),
    };
    if let Some(r) = &result_first {
        out.push_str("[result:");
        out.push_str(r);
        out.push_str("]\n");
    }
    let mut result_moved = has_result && result_first.is_some();
    for t in &shown_tags {
        match t.name.as_str() {
            "Board" => {}
            "Result" if std::mem::take(&mut result_moved) => {}
            // A record has one rules tag, the game's: the start comments
            // follow it once (a second one read back would double them).
            "Rules" if wrote_rules => warnings.push(
                Problem::whole(
                    "a second Rules tag: an OpenTafl record has one, the game's rules: left out",
                )
                .of_kind(Kind::TagLeftOut),
            ),
            "Rules" => {
                out.push_str("[rules:");
                out.push_str(shown.text());
                out.push_str("]\n");
                start_comment(out, warnings);
                wrote_rules = true;
            }
            name => {
                let key = tag_key(name);
                // A name otn can spell, and that reads back as itself.
                let fits = !key.is_empty()
                    && key
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                    && tag_name(&key) == name;
                if !fits {
                    warnings.push(
                        Problem::whole(format!(
                            "tag {name}: an otn tag name is letters, digits, `-` and `_`, \
                         and {name} has no otn key that reads back as it: left out",
                            name = crate::error::quote(name)
                        ))
                        .of_kind(Kind::TagLeftOut),
                    );
                    continue;
                }
                out.push('[');
                out.push_str(&key);
                out.push(':');
                let value = if name == "Result" {
                    result_out(&t.value)
                } else {
                    &t.value
                };
                out.push_str(&fit(value, true, warnings));
                out.push_str("]\n");
            }
        }
    }
    if !wrote_rules {
        out.push_str("[rules:");
        out.push_str(shown.text());
        out.push_str("]\n");
        start_comment(out, warnings);
    }
    out.push('\n');
    rules
        .at_position(&game.tags)
        .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
    Ok(())
}

/// The OpenTafl move record ([`crate::spell`]): `Ke5-f5xf6`, `d4^d6`
/// (a jump), `---` for a resignation, in lower case, each square seen
/// from the side the options turn the board to; the mark by the side
/// that moved (`+`, `-`; `++`, `--` for a win the rules did not judge).
pub struct Otn;

impl Spell for Otn {
    type Replay = crate::family::hnefatafl::hooks::Positions;
    type Options = tafl::Options;

    fn spell_ply(
        options: &tafl::Options,
        before: crate::family::hnefatafl::hooks::Before<'_>,
        ply: &Ply,
        out: &mut String,
    ) -> Result<(), Problem> {
        let m = ply
            .mv
            .of(
                crate::family::any::Family::Tafl,
                crate::family::any::Move::as_tafl,
            )
            .map_err(|e| Problem::whole(e).of_kind(Kind::WrongFamily))?;
        let Some(step) = m.step() else {
            out.push_str("---");
            return Ok(());
        };
        let Some(pos) = before.position else {
            return Err(Problem::whole(NO_RULES).of_kind(Kind::CannotWrite));
        };
        let dim = before.board.dim;
        let view = |s: Square| s.transform(dim, options.quarters, options.mirror);
        let mut record = MoveRecord { out, view: &view };
        let Some(piece) = pos.piece(step.from) else {
            // A move from an empty square (not validated): as written.
            record.write(step.from, step.to, b'-', &step.captures, &[], 0);
            mark(record.out, ply, step, before.board.validated);
            return Ok(());
        };
        // Each leg a record: a jump `^` (two squares over a piece), a
        // berserk leg `=`; a capture goes with the leg that ends nearest
        // to it (a custodial capture is next to its leg's end).
        let ends: Vec<Square> = step.via.iter().copied().chain([step.to]).collect();
        let mut by_leg: Vec<Vec<Square>> = vec![Vec::new(); ends.len()];
        for &c in &step.captures {
            let near = |e: &Square| {
                (i16::from(e.file) - i16::from(c.file)).abs()
                    + (i16::from(e.rank) - i16::from(c.rank)).abs()
            };
            // (A tie is a jumped piece, next to the jump's start and end:
            // the jump's.)
            let leg = (0..ends.len())
                .min_by_key(|&i| (near(&ends[i]), std::cmp::Reverse(i)))
                .unwrap_or(0);
            by_leg[leg].push(c);
        }
        // The position after the legs played so far, for a move of
        // several legs (a berserk move).
        let mut played: Option<Position<'_>> = None;
        let mut from = step.from;
        for (i, (&to, caps)) in ends.iter().zip(&by_leg).enumerate() {
            if i > 0 {
                record.out.push(' ');
            }
            let here = played.as_ref().unwrap_or(pos);
            let far = (i16::from(to.file) - i16::from(from.file)).abs()
                + (i16::from(to.rank) - i16::from(from.rank)).abs();
            let mid = Square {
                file: ((u16::from(from.file) + u16::from(to.file)) / 2) as u8,
                rank: ((u16::from(from.rank) + u16::from(to.rank)) / 2) as u8,
            };
            let jump = far == 2 && here.piece(mid).is_some();
            // The captured pieces' letters, before they go.
            let kinds: Vec<u8> = caps.iter().map(|&c| here.piece(c).unwrap_or(0)).collect();
            if i + 1 < ends.len() {
                let leg = Step {
                    from,
                    via: Vec::new(),
                    to,
                    captures: caps.clone(),
                    mark: None,
                };
                let _ = played
                    .get_or_insert_with(|| pos.clone())
                    .play(&leg, ply.side, false);
            }
            let kind = match (jump, i > 0) {
                (false, false) => b'-',
                (true, false) => b'^',
                (false, true) => b'=',
                (true, true) => b'*',
            };
            record.write(from, to, kind, caps, &kinds, piece);
            from = to;
        }
        mark(record.out, ply, step, before.board.validated);
        Ok(())
    }
}

/// Why a game without rules has no otn moves.
const NO_RULES: &str = "the game names no rules, and an OpenTafl record starts from its rules \
     (give them with --from-opt rules=NAME, or a Rules tag)";

/// Where a move record is written, and how its squares are seen.
struct MoveRecord<'a> {
    out: &'a mut String,
    view: &'a dyn Fn(Square) -> Square,
}

impl MoveRecord<'_> {
    /// Writes one move record: the mover's letter (for a king, knight or
    /// commander), the squares joined by the kind (`-`, `^`, `=`, `*` for
    /// `^=`), the captures with the letters of special pieces.
    fn write(
        &mut self,
        from: Square,
        to: Square,
        kind: u8,
        caps: &[Square],
        kinds: &[u8],
        piece: u8,
    ) {
        let special = |p: u8| matches!(p, b'K' | b'k' | b'N' | b'n' | b'C' | b'c');
        if special(piece) {
            self.out.push(char::from(piece));
        }
        let view = self.view;
        view(from).write(false, self.out);
        self.out.push_str(match kind {
            b'^' => "^",
            b'=' => "=",
            b'*' => "^=",
            _ => "-",
        });
        view(to).write(false, self.out);
        for (i, &c) in caps.iter().enumerate() {
            self.out.push(if i == 0 { 'x' } else { '/' });
            if let Some(&k) = kinds.get(i).filter(|&&k| special(k)) {
                self.out.push(char::from(k));
            }
            view(c).write(false, self.out);
        }
    }
}

/// Writes a step's mark, by the side that moved. A win or suicide mark
/// the rules judge (`judged`) is left out, as OpenTafl's serializer writes
/// none (reading the record back with its rules computes them again); a
/// suicide mark has no otn spelling (the writer warns).
fn mark(out: &mut String, ply: &Ply, step: &Step, judged: bool) {
    let attacker = ply.side == ATTACKERS;
    match step.mark {
        None | Some(Mark::Suicide) => {}
        Some(Mark::Threat) => out.push(if attacker { '+' } else { '-' }),
        Some(Mark::Win) if judged => {}
        Some(Mark::Win) => out.push_str(if attacker { "++" } else { "--" }),
    }
}

/// A game being written a run at a time ([`RunWriter`]): the lines open,
/// each numbering its turns and addressing the variations of its plies.
/// A turn pairs two plies, and the variations of both come after it: the
/// first ply of a turn waits for its second ([`Pending`]), and what its
/// variations write is held with it until the turn is written.
struct Runs {
    options: tafl::Options,
    /// The game is written whole: its head first, then it as one run.
    whole: bool,
    /// The warnings of what is written to the output, in order.
    said: Vec<Problem>,
    /// The lines open, the main line's first.
    lines: Vec<Open>,
    /// The comments before the main line's first ply, once it came (the
    /// start comment).
    opening: Option<Vec<Comment>>,
    /// The side that moves first, and whether the rules judged the
    /// moves' marks (the game's board's).
    first: Side,
    judged: bool,
}

/// A line being written.
#[derive(Default)]
struct Open {
    /// The address of its turns (`8a.1.`); `None` for the main line.
    prefix: Option<String>,
    /// The number of its first ply.
    base: Option<u32>,
    /// How many turns were written.
    turns: usize,
    /// The first ply of a turn, waiting for its second.
    pending: Option<Pending>,
    /// The address of the last ply written, whose variations open next
    /// (`12b`, `3a.2.1a`), and how many opened.
    last: Option<(String, usize)>,
}

/// A ply as its turn writes it.
struct Written {
    number: u32,
    side: Side,
    /// Its move spelled.
    text: String,
    /// How many records its move is (a berserk move's legs).
    legs: usize,
    before: Vec<Comment>,
    after: Vec<Comment>,
    /// The warning of a mark otn cannot write.
    dropped: Option<Problem>,
}

/// The first ply of a turn, waiting for the second, and what its
/// variations wrote.
struct Pending {
    ply: Written,
    /// Its address, and how many variations of it opened.
    address: String,
    vars: usize,
    /// The text its variations wrote, and their warnings.
    held: String,
    said: Vec<Problem>,
}

impl Runs {
    /// Where the line at `depth` writes: the text held by the nearest
    /// line below it whose turn waits (the line is of its variations), or
    /// the output.
    fn sink<'a>(
        &'a mut self,
        depth: usize,
        out: &'a mut String,
    ) -> (&'a mut String, &'a mut Vec<Problem>) {
        match self.lines[..depth]
            .iter_mut()
            .rev()
            .find_map(|l| l.pending.as_mut())
        {
            Some(p) => (&mut p.held, &mut p.said),
            None => (out, &mut self.said),
        }
    }

    /// Puts a ply (without its variations) on the line on top.
    fn put(&mut self, ply: &Ply, text: &str, out: &mut String) -> Result<(), Problem> {
        let depth = self.lines.len() - 1;
        if depth == 0 && self.opening.is_none() {
            self.opening = Some(ply.before.clone());
        }
        let written = Written {
            number: ply.number,
            side: ply.side,
            text: text.to_string(),
            legs: ply
                .mv
                .as_tafl()
                .and_then(TMove::step)
                .map_or(1, |s| s.via.len() + 1),
            before: ply.before.clone(),
            after: ply.after.to_vec(),
            dropped: dropped_mark(ply, self.first, self.judged),
        };
        let first = self.first;
        let line = &mut self.lines[depth];
        let base = *line.base.get_or_insert(ply.number);
        let t = |number: u32| number + 1 - base;
        let address = |line: &Open, p: &Written| match &line.prefix {
            None => format!("{}{}", p.number, if p.side == first { 'a' } else { 'b' }),
            Some(pre) => format!("{pre}{}a", t(p.number)),
        };
        if let Some(pending) = line.pending.take() {
            if written.side != first && written.number == pending.ply.number {
                // The second ply of the turn: the turn, then the
                // variations of its first.
                let address = match &line.prefix {
                    None => address(line, &written),
                    Some(pre) => format!("{pre}{}a", t(pending.ply.number)),
                };
                line.last = Some((address, 0));
                self.turn(depth, &[pending.ply, written], out);
                let (sink, said) = self.sink(depth, out);
                sink.push_str(&pending.held);
                said.extend(pending.said);
                return Ok(());
            }
            self.flush_pending(depth, Some(pending), out);
        }
        let line = &mut self.lines[depth];
        let address = address(line, &written);
        if written.side == first {
            line.last = None;
            line.pending = Some(Pending {
                ply: written,
                address,
                vars: 0,
                held: String::new(),
                said: Vec::new(),
            });
        } else {
            line.last = Some((address, 0));
            self.turn(depth, &[written], out);
        }
        Ok(())
    }

    /// Writes the waiting ply of the line at `depth` (taken out of it) as
    /// a turn of its own, then what its variations wrote.
    fn flush_pending(&mut self, depth: usize, pending: Option<Pending>, out: &mut String) {
        let Some(pending) = pending else {
            return;
        };
        self.turn(depth, &[pending.ply], out);
        let (sink, said) = self.sink(depth, out);
        sink.push_str(&pending.held);
        said.extend(pending.said);
    }

    /// Writes one turn of the line at `depth`: its label, its moves, its
    /// commentary.
    fn turn(&mut self, depth: usize, turn: &[Written], out: &mut String) {
        let first = self.first;
        let line = &mut self.lines[depth];
        let index = line.turns;
        line.turns += 1;
        let base = line.base.unwrap_or(1);
        let prefix = line.prefix.clone();
        let (out, warnings) = self.sink(depth, out);
        let a = &turn[0];
        let t = a.number + 1 - base;
        match &prefix {
            None => {
                crate::ir::push_number(out, a.number);
                out.push('.');
            }
            Some(pre) => {
                out.push_str(pre);
                crate::ir::push_number(out, t);
                out.push_str("a.");
            }
        }
        let filler = a.side != first;
        if filler {
            out.push_str(" .....");
        }
        for p in turn {
            out.push(' ');
            out.push_str(&p.text);
            warnings.extend(p.dropped.clone());
        }
        out.push_str(" \n[");
        // The main line's first comments went into the start comment.
        let opening = prefix.is_none() && index == 0;
        let none: &[Comment] = &[];
        let lead = if opening { none } else { &turn[0].before };
        // One part a record: the comments of a berserk move's legs go to
        // its last record.
        let mut parts: Vec<String> = Vec::new();
        match turn {
            [x, y] => {
                parts.extend(std::iter::repeat_n(String::new(), x.legs - 1));
                parts.push(joined(lead.iter().chain(&x.after)));
                parts.extend(std::iter::repeat_n(String::new(), y.legs - 1));
                parts.push(joined(y.before.iter().chain(&y.after)));
            }
            [x] if filler && !x.before.is_empty() => {
                parts.push(joined(lead));
                parts.extend(std::iter::repeat_n(String::new(), x.legs - 1));
                parts.push(joined(&x.after));
            }
            [x] => {
                parts.extend(std::iter::repeat_n(String::new(), x.legs - 1));
                parts.push(joined(lead.iter().chain(&x.after)));
            }
            _ => {}
        }
        let n = parts.len();
        for (k, part) in parts.iter().enumerate() {
            if k > 0 {
                out.push('|');
            }
            out.push_str(&fit(part, k + 1 == n, warnings));
        }
        out.push_str("]\n\n");
    }

    /// Writes a line of a run: each ply, then its variations.
    fn line(
        &mut self,
        plies: &[Ply],
        texts: &mut spell::Texts<'_>,
        out: &mut String,
    ) -> Result<(), Problem> {
        for ply in plies {
            let mut text = String::new();
            texts.write_next(&mut text)?;
            self.put(ply, &text, out)?;
            for v in &ply.variations {
                self.open(out)?;
                self.line(&v.plies, texts, out)?;
                self.close(&v.trailing, out)?;
            }
        }
        Ok(())
    }

    /// The warning of comments after a line's last move (but those of a
    /// main line without moves, the start comment).
    fn trailing(&mut self, depth: usize, trailing: &[Comment], out: &mut String) {
        let opening = depth == 0 && self.opening.is_none();
        if !trailing.is_empty() && !opening {
            let (_, said) = self.sink(depth, out);
            said.push(
                Problem::whole("comments after a line's last move have no place in otn: left out")
                    .of_kind(Kind::DroppedAnnotations),
            );
        }
    }
}

impl RunWriter for Runs {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        self.whole = true;
        let opening = match game.moves.plies.first() {
            Some(p) => &p.before,
            None => &game.moves.trailing,
        };
        head(game, &self.options, opening, out, &mut self.said)
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        let Some(board) = run.variant.as_tafl() else {
            return Err(run.family().cannot_be_written_as("otn"));
        };
        // A run's moves are spelled from its start, which a run read a
        // run at a time names (a game written whole starts from its own).
        if !self.whole && run.tag("Position").is_none() {
            return Err(
                Problem::whole("a run that does not name its start").of_kind(Kind::NotStreamed)
            );
        }
        self.first = board.first_mover();
        self.judged = board.validated;
        // Every move spelled where it stands, in the order the container
        // writes them (each ply, then its variations).
        let spelled = spell::spelled::<Otn>(run, &self.options, Lines::All)?;
        let mut texts = spelled.texts();
        self.line(&run.moves.plies, &mut texts, out)?;
        texts.finish()
    }

    fn open(&mut self, _out: &mut String) -> Result<(), Problem> {
        let line = self
            .lines
            .last_mut()
            .ok_or_else(crate::codec::opened_first)?;
        let prefix = match (&mut line.pending, &mut line.last) {
            (Some(p), _) => {
                p.vars += 1;
                format!("{}.{}.", p.address, p.vars)
            }
            (None, Some((address, vars))) => {
                *vars += 1;
                format!("{address}.{vars}.")
            }
            (None, None) => return Err(crate::codec::opened_first()),
        };
        self.lines.push(Open {
            prefix: Some(prefix),
            ..Open::default()
        });
        Ok(())
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        let depth = self.lines.len() - 1;
        if depth == 0 {
            return Err(crate::codec::not_open());
        }
        let pending = self.lines[depth].pending.take();
        self.flush_pending(depth, pending, out);
        self.trailing(depth, trailing, out);
        self.lines.pop();
        Ok(())
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head_out: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if self.lines.len() != 1 {
            return Err(crate::codec::left_open());
        }
        let pending = self.lines[0].pending.take();
        self.flush_pending(0, pending, out);
        self.trailing(0, &game.moves.trailing, out);
        if self.whole {
            return Ok(self.said);
        }
        // The head, which the runs came without, before them.
        let mut said = Vec::new();
        let opening = match &self.opening {
            Some(before) => before.as_slice(),
            None => &game.moves.trailing,
        };
        head(game, &self.options, opening, head_out, &mut said)?;
        said.append(&mut self.said);
        Ok(said)
    }
}

/// The warning of a suicide mark the rules did not judge: otn has no
/// spelling for it.
fn dropped_mark(ply: &Ply, first: Side, judged: bool) -> Option<Problem> {
    let suicide = ply
        .mv
        .as_tafl()
        .and_then(TMove::step)
        .is_some_and(|s| s.mark == Some(Mark::Suicide));
    (suicide && !judged).then(|| {
        Problem::whole(format!(
            "{} the mark `--` of a suicidal move has no otn spelling: left out",
            ply.label(first)
        ))
        .of_kind(Kind::MarkDropped)
    })
}
