//! `otn`: OpenTafl's game record (`.otg`), as opentafl-notation-spec.txt
//! (jslater89/OpenTafl) defines it and OpenTafl writes it.
//!
//! Tags `[key:value]` (lifted to PGN names: `event` is `Event`,
//! `attackers` is `Black`, `defenders` is `White`, `time-control` is
//! `TimeControl`; `result` 1 / -1 / 0 / ? is `0-1` / `1-0` / `1/2-1/2` /
//! `*`); `[rules:...]`, the rules of the game; `[start-comment:...]`, the
//! comment before the first move. Turns `12. d1-d3
//! Ke5-f5xf6` (a king's move prefixed `K`, captures joined by `/`, marks
//! `+ - ++ --`, `---` a resignation), each with its commentary under it,
//! `[first|second]`. Variations are addressed by the ply they replace
//! (`8a.1.` the first variation of ply 8a, its turns `8a.1.1a.`,
//! `8a.1.2a.`; one that replaces a second move starts `.....`).
//!
//! kifu writes what OpenTafl writes: a tag a line, a blank line, then each
//! turn as `N. first second ` (with its trailing space), its commentary
//! line, and a blank line. Variations are numbered by the ply they
//! replace and addressed as OpenTafl writes them: `12b.1.1a. ..... d2-c2`
//! on the main line, but `3a.2.1a.1.1a. ..... b1-b2` inside a variation,
//! where OpenTafl writes the letter `a` for either ply of a turn (the
//! reader tells the ply by the `.....`).

use std::collections::HashMap;

use pest::iterators::Pair;
use pest::Parser;

use crate::codec::{line_col, Lines, Oversize, Parsed, ReadOptions, Scan, Skip, Visit};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Variant};
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::tafl::{self, decode};
use crate::family::hnefatafl::{Board, Mark, Move as TMove, ATTACKERS, MAX_DIM};
use crate::ir::{Comment, Game, Line, Ply, Side, Tag};

mod stream;
mod write;

use stream::stream;
pub use write::*;

/// The pest parser of an OpenTafl record.
#[allow(missing_docs)]
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/otn.pest"]
    pub struct OtnParser;
}
use grammar::{OtnParser, Rule};

/// The tag keys OpenTafl writes, which start a record in a stream.
const KEYS: &[&str] = &[
    "event",
    "site",
    "date",
    "round",
    "attackers",
    "defenders",
    "result",
    "annotator",
    "compiler",
    "time-control",
    "termination",
    "variant",
    "rules",
    "start-comment",
    "position",
];

/// The PGN name of an OpenTafl tag key.
pub fn tag_name(key: &str) -> String {
    match key {
        "attackers" => "Black".into(),
        "defenders" => "White".into(),
        _ => key
            .split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect(),
    }
}

/// The OpenTafl key of a tag name.
pub fn tag_key(name: &str) -> String {
    match name {
        "Black" => "attackers".into(),
        "White" => "defenders".into(),
        _ => {
            let mut out = String::new();
            for (i, c) in name.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    out.push('-');
                }
                out.extend(c.to_lowercase());
            }
            out
        }
    }
}

/// An OpenTafl result as a PGN-style result (the attackers are Black).
fn result_in(value: &str) -> &str {
    match value {
        "1" => "0-1",
        "-1" => "1-0",
        "0" => "1/2-1/2",
        "?" => "*",
        v => v,
    }
}

fn result_out(value: &str) -> &str {
    match value {
        "0-1" => "1",
        "1-0" => "-1",
        "1/2-1/2" => "0",
        "*" => "?",
        v => v,
    }
}

/// The record scanner: a record ends where a line starts with a tag
/// OpenTafl writes (`[event:`, `[date:`, ...) after the record's turns, or
/// after a blank line that follows its tags (a record without turns),
/// outside any commentary.
#[derive(Debug)]
pub struct OtnScan;

fn starts_tag(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let key_end = rest.iter().position(|&b| b == b':');
    key_end.is_some_and(|k| {
        let key = &rest[..k];
        KEYS.iter().any(|t| t.as_bytes() == key) || key.starts_with(b"puzzle-")
    })
}

impl Scan for OtnScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        let mut i = 0;
        let mut open = false;
        let mut turns = false;
        let mut tags = false;
        let mut gap = false;
        while i < data.len() {
            let end = match memchr::memchr(b'\n', &data[i..]) {
                Some(j) => i + j + 1,
                None if eof => data.len(),
                None => return None,
            };
            let line = &data[i..end];
            if !open {
                if line.first() == Some(&b'[') {
                    let tag = starts_tag(line);
                    if (turns || gap) && tag {
                        return Some((i, true));
                    }
                    tags |= tag;
                    open = true;
                } else if line.first().is_some_and(u8::is_ascii_digit) {
                    turns = true;
                } else if tags && line.trim_ascii().is_empty() {
                    gap = true;
                }
            }
            if open && line.trim_ascii_end().ends_with(b"]") {
                open = false;
            }
            i = end;
        }
        // The record goes on past what was read, unless the input ends
        // here (the next line may go on with its turns, or close its tag:
        // where it ends must not depend on how much of it a batch holds).
        eof.then(|| (data.len(), !data.trim_ascii().is_empty()))
    }

    fn oversize(&self) -> Oversize {
        Oversize {
            skip: Box::new(ToEnd),
            from_start: false,
        }
    }
}

/// Streams past a record over the size limit: to the end of the input.
struct ToEnd;

impl Skip for ToEnd {
    fn end(&mut self, _data: &[u8]) -> Option<usize> {
        None
    }
}

fn describe(r: &Rule) -> &'static str {
    match r {
        Rule::otn_tag | Rule::tag_key | Rule::tag_value => "a tag",
        Rule::turn | Rule::turn_label => "a turn (`12. d1-d3 h6-h9`)",
        Rule::otn_move | Rule::filler => "a move",
        Rule::comment | Rule::comment_text => "a comment line `[...|...]`",
        _ => "the end of the record",
    }
}

fn syntax(text: &str, e: pest::error::Error<Rule>) -> Problem {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = Vec::new();
            for n in positives.iter().map(describe) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            names.join(" or ")
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found: String = text[offset.min(text.len())..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .take(24)
        .collect();
    Problem::at(
        line_col(text, offset),
        format!("expected {expected}, found {}", crate::error::quote(&found)),
    )
    .of_kind(Kind::Syntax)
}

/// Where a line of a game being read is: the steps from the main line
/// (ply index, variation index), and the number of its first turn.
#[derive(Clone)]
struct Place {
    path: Vec<(usize, usize)>,
    base: u32,
}

/// Where each ply was written: by its line's path and its index in the
/// line, the byte offset of its move.
type Spots = HashMap<(Vec<(usize, usize)>, usize), Spot>;

/// Where a ply was written, and the mover's letter of each of its records
/// (a berserk move has several), with where the record starts.
struct Spot {
    start: usize,
    letters: Vec<(Option<u8>, usize)>,
}

fn line_at<'g>(main: &'g mut Line, path: &[(usize, usize)]) -> &'g mut Line {
    let mut line = main;
    for &(p, v) in path {
        line = &mut line.plies[p].variations[v];
    }
    line
}

/// What a record's tags say: the tags, the start comments, the rules and
/// the position tags (each with its byte offset in the record).
#[derive(Default)]
struct Head {
    tags: Vec<Tag>,
    preamble: Vec<Comment>,
    rules: Option<Rules>,
    positions: Vec<(usize, Tag)>,
}

impl Head {
    /// Takes one `otn_tag` pair, which starts `base` bytes into `text`.
    fn tag(&mut self, pair: Pair<'_, Rule>, text: &str, base: usize) -> Result<(), Problem> {
        // (Located only for an error: each from the record's start.)
        let start = base + pair.as_span().start();
        let at = || line_col(text, start);
        let mut inner = pair.into_inner();
        let key = inner.next().map_or("", |p| p.as_str());
        let value = inner.next().map_or("", |p| p.as_str());
        match key {
            "rules" => {
                let r = Rules::parse(value)
                    .map_err(|e| Problem::at(at(), e).of_kind(Kind::TagValue))?;
                self.tags
                    .push(Tag::new("Rules", r.preset_name().unwrap_or(value)));
                self.rules = Some(r);
            }
            "start-comment" => self.preamble.push(Comment::brace(value)),
            "result" => self.tags.push(Tag::new("Result", result_in(value))),
            "position" => {
                self.positions.push((start, Tag::new(tag_name(key), value)));
                self.tags.push(Tag::new(tag_name(key), value));
            }
            _ => self.tags.push(Tag::new(tag_name(key), value)),
        }
        Ok(())
    }

    /// The game the tags start: its board and rules (an error without
    /// rules, or with a position tag they cannot start from), and the
    /// side that moves first.
    fn game(&mut self, text: &str, opts: &ReadOptions) -> Result<(Game, Side), Problem> {
        let rules = self.rules.take().ok_or_else(|| {
            Problem::at(
                (1, 1),
                "no `[rules:...]` tag: an OpenTafl record names its rules",
            )
            .of_kind(Kind::TagValue)
        })?;
        // The game starts from its position tag, where it has one.
        for (at, t) in &self.positions {
            rules
                .at_position(std::slice::from_ref(t))
                .map_err(|e| Problem::at(line_col(text, *at), e).of_kind(Kind::TagValue))?;
        }
        let first = if rules.attackers_first {
            ATTACKERS
        } else {
            ATTACKERS.other()
        };
        let mut game = Game::new(Variant::Tafl(Board {
            dim: rules.dim,
            validated: !opts.no_validate,
            rules: Some(rules),
        }));
        game.tags = std::mem::take(&mut self.tags);
        Ok((game, first))
    }
}

/// Reads one record by the walk ([`crate::codec::StreamFn`], the one entry
/// point of the registry's reader): into the game ([`Visit::Game`], the
/// whole read, [`read`]), or a run at a time ([`Visit::Runs`]).
pub fn walk(text: &str, opts: &ReadOptions, visit: Visit<'_>) -> Result<Option<Parsed>, Problem> {
    crate::codec::walk_with(text, opts, visit, read, stream)
}

/// Reads one record.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let record = OtnParser::parse(Rule::record, text)
        .map_err(|e| syntax(text, e))?
        .next()
        .ok_or_else(|| Problem::whole("an empty record").of_kind(Kind::Syntax))?;
    let mut head = Head::default();
    let mut warnings = Vec::new();
    let mut turns = Vec::new();
    for pair in record.into_inner() {
        match pair.as_rule() {
            Rule::otn_tag => head.tag(pair, text, 0)?,
            Rule::turn => turns.push(pair),
            _ => {}
        }
    }
    let (mut game, first) = head.game(text, opts)?;
    let dim = game.variant.as_tafl().map_or(MAX_DIM, |b| b.dim);
    let preamble = std::mem::take(&mut head.preamble);
    let mut lines: HashMap<String, Place> = HashMap::new();
    let mut spots = HashMap::new();
    for turn in turns {
        let turn = Turn::parse(turn, text, 0, dim)?;
        read_turn(turn, text, first, &mut game.moves, &mut lines, &mut spots)?;
    }
    // Where each ply is, in the order the replay counts them (each ply
    // before its variations).
    fn order(
        line: &Line,
        path: &mut Vec<(usize, usize)>,
        spots: &Spots,
        out: &mut Vec<Option<usize>>,
    ) {
        for (pi, ply) in line.plies.iter().enumerate() {
            out.push(spots.get(&(path.clone(), pi)).map(|s| s.start));
            for (vi, v) in ply.variations.iter().enumerate() {
                path.push((pi, vi));
                order(v, path, spots, out);
                path.pop();
            }
        }
    }
    let mut places = Vec::new();
    order(&game.moves, &mut Vec::new(), &spots, &mut places);
    // The start comment is the comment before the first move.
    match game.moves.plies.first_mut() {
        Some(p) => p.before.splice(0..0, preamble),
        None => game.moves.trailing.splice(0..0, preamble),
    };
    // The record's places, for what the replay and the letters say of
    // each move.
    let lines = Lines::new(text);
    tafl::settle(&mut game, Some(dim), false, &mut warnings, &|i| {
        places.get(i).copied().flatten().map(|at| lines.at(at))
    })?;
    // The movers' letters, against the pieces the replay tracked.
    if let Some(Board {
        validated: true,
        rules: Some(r),
        ..
    }) = game.variant.as_tafl()
    {
        let start = r
            .at_position(&game.tags)
            .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
        let mut pos = Position::new(&start);
        let check = Letters {
            spots: &spots,
            lines: &lines,
            first,
        };
        check.line(&game.moves, &mut Vec::new(), &mut pos, &mut warnings)?;
    }
    Ok(Parsed { game, warnings })
}

/// Checks the movers' letters of a record read (`K` for the king, `N n C
/// c` for knights and commanders) against the pieces that move: a letter
/// that names another piece is an error, a special piece's move without
/// its letter a warning (kifu writes it).
struct Letters<'a> {
    spots: &'a Spots,
    lines: &'a Lines<'a>,
    first: Side,
}

impl Letters<'_> {
    fn line(
        &self,
        line: &Line,
        path: &mut Vec<(usize, usize)>,
        pos: &mut Position<'_>,
        warnings: &mut Vec<Problem>,
    ) -> Result<(), Problem> {
        for (pi, ply) in line.plies.iter().enumerate() {
            for (vi, v) in ply.variations.iter().enumerate() {
                path.push((pi, vi));
                self.line(v, path, &mut pos.clone(), warnings)?;
                path.pop();
            }
            let Some(TMove::Step(step)) = ply.mv.as_tafl() else {
                continue;
            };
            if let Some(spot) = self.spots.get(&(path.clone(), pi)) {
                letters(ply, step, spot, pos, self.first, self.lines, warnings)?;
            }
            let _ = pos.play(step, ply.side, false);
        }
        Ok(())
    }
}

/// Checks the movers' letters of a ply's records (`spot`) against the
/// piece on its square in `pos`, the position before it.
fn letters(
    ply: &Ply,
    step: &crate::family::hnefatafl::Step,
    spot: &Spot,
    pos: &Position<'_>,
    first: Side,
    lines: &Lines<'_>,
    warnings: &mut Vec<Problem>,
) -> Result<(), Problem> {
    let piece = pos.piece(step.from).unwrap_or(0);
    let special = matches!(piece.to_ascii_lowercase(), b'k' | b'n' | b'c');
    let what = |p: u8| match p.to_ascii_lowercase() {
        b'k' => "the king",
        b'n' => "a knight",
        b'c' => "a commander",
        _ => "a man",
    };
    let label = || {
        format!(
            "{} {}",
            rules::label(ply.number, ply.side, first),
            rules::spelled(step)
        )
    };
    for &(letter, at) in &spot.letters {
        // (Its line and column only for a message.)
        let at = || lines.at(at);
        match letter {
            Some(l) if !special || !l.eq_ignore_ascii_case(&piece) => {
                return Err(Problem::at(
                    at(),
                    format!(
                        "{}: `{}` names {}, and {} moves ({})",
                        label(),
                        char::from(l),
                        what(l),
                        what(piece),
                        pos.described(ply.side)
                    ),
                )
                .of_kind(Kind::IllegalMove));
            }
            None if special => warnings.push(
                Problem::at(
                    at(),
                    format!(
                        "{}: {}'s move is written without its `{}`: kifu writes it",
                        label(),
                        what(piece),
                        char::from(piece)
                    ),
                )
                .of_kind(Kind::PieceLetter),
            ),
            _ => {}
        }
    }
    Ok(())
}

/// One turn as read: its label, whether it starts with the filler
/// `.....`, its move records and its commentary.
struct Turn<'t> {
    /// The record, and where the turn starts in it (its line and column
    /// found only for a message: each from the record's start).
    text: &'t str,
    at: usize,
    label: &'t str,
    filler: bool,
    moves: Vec<Record>,
    comment: Option<&'t str>,
}

/// A turn's address: the line it belongs to (`None`: the main line;
/// else the variation's key, `8a.1`) and its number in that line.
type Address<'t> = (Option<&'t str>, u32);

/// The ply a new variation replaces, as its key (`8a.1`, `3a.2.1a.1`)
/// names it: the key of the line it is in (`None`: the main line), its
/// turn there, and whether it is that turn's second ply.
type Varied<'t> = (Option<&'t str>, u32, bool);

impl<'t> Turn<'t> {
    /// Reads a `turn` pair, which starts `base` bytes into `text`; the
    /// moves checked against a board of side `dim`.
    fn parse(
        turn: Pair<'t, Rule>,
        text: &'t str,
        base: usize,
        dim: u8,
    ) -> Result<Turn<'t>, Problem> {
        let mut read = Turn {
            text,
            at: base + turn.as_span().start(),
            label: "",
            filler: false,
            moves: Vec::new(),
            comment: None,
        };
        for p in turn.into_inner() {
            match p.as_rule() {
                Rule::turn_label => read.label = p.as_str(),
                Rule::filler => read.filler = true,
                Rule::otn_move => {
                    let start = base + p.as_span().start();
                    let m = read_move(p.as_str(), dim, &|off, e| {
                        Problem::at(line_col(text, start + off), e).of_kind(Kind::Syntax)
                    })?;
                    read.moves.push(Record { start, ..m });
                }
                Rule::comment => {
                    read.comment = Some(p.into_inner().next().map_or("", |c| c.as_str()));
                }
                _ => {}
            }
        }
        Ok(read)
    }

    /// The error of a turn whose label or moves are wrong.
    fn bad(&self, why: &str) -> Problem {
        Problem::at(
            line_col(self.text, self.at),
            format!(
                "turn {label}: {why}",
                label = crate::error::quote(self.label)
            ),
        )
        .of_kind(Kind::Syntax)
    }

    /// Where its label puts it.
    fn address(&self) -> Result<Address<'t>, Problem> {
        let address = self.label.trim_end_matches('.');
        match address.rsplit_once('.') {
            None => Ok((
                None,
                address
                    .parse::<u32>()
                    .map_err(|_| self.bad("not a turn number"))?,
            )),
            Some((key, last)) => Ok((
                Some(key),
                last.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                    .parse()
                    .map_err(|_| self.bad("not a variation's turn"))?,
            )),
        }
    }

    /// The ply the variation `key` replaces, for its first turn (this
    /// one): of the ply its parent names, the second one when the
    /// variation starts with `.....`.
    fn varied<'k>(&self, key: &'k str) -> Result<Varied<'k>, Problem> {
        let (parent, _k) = key
            .rsplit_once('.')
            .ok_or_else(|| self.bad("a variation's address is `8a.1.1a.`"))?;
        let (pkey, pturn) = match parent.rsplit_once('.') {
            Some((pk, pt)) => (Some(pk), pt),
            None => (None, parent),
        };
        let ptn: u32 = pturn
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .map_err(|_| self.bad("not a variation's address"))?;
        Ok((pkey, ptn, self.filler || pturn.ends_with('b')))
    }

    /// The error of a turn numbered `number` in a line whose first turn
    /// is numbered `base` and whose last ply is numbered `last`.
    fn check_number(&self, number: u32, base: u32, last: Option<u32>) -> Result<(), Problem> {
        match last {
            Some(last) if number != last + 1 => {
                let shown = number + 1 - base;
                let expected = last + 2 - base;
                Err(self.bad(&format!("turn {shown} where turn {expected} is due")))
            }
            _ => Ok(()),
        }
    }

    /// The plies of the turn, numbered `number` (the first moving first
    /// unless the turn starts with the filler), a berserk record joined to
    /// the ply before it, the commentary shared out; and where each ply
    /// was written (none for a resignation).
    fn plies(
        mut self,
        text: &str,
        number: u32,
        first: Side,
    ) -> Result<Vec<(Ply, Option<Spot>)>, Problem> {
        let filler = self.filler;
        let mut side = if filler { first.other() } else { first };
        // Each record's place in the commentary is a slot (the filler's
        // first).
        let mut plies: Vec<(Ply, Option<Spot>)> = Vec::new();
        let mut slots: Vec<Option<usize>> = if filler { vec![None] } else { Vec::new() };
        for r in std::mem::take(&mut self.moves) {
            let TMove::Step(step) = &r.mv else {
                plies.push((Ply::new(number, side, Move::Tafl(r.mv)), None));
                side = side.other();
                slots.push(Some(plies.len() - 1));
                continue;
            };
            if r.berserk {
                let Some((Some(TMove::Step(prev)), spot)) = plies.last_mut().map(|(p, s)| {
                    (
                        <super::Tafl as crate::family::any::Member>::of_move_mut(&mut p.mv),
                        s,
                    )
                }) else {
                    return Err(Problem::at(
                        line_col(text, r.start),
                        "a berserk record (`=`) continues a move of its turn, and none is before it",
                    )
                    .of_kind(Kind::IllegalMove));
                };
                if prev.to != step.from {
                    return Err(Problem::at(
                        line_col(text, r.start),
                        format!(
                            "a berserk record continues the piece on {}, not {}",
                            prev.to, step.from
                        ),
                    )
                    .of_kind(Kind::IllegalMove));
                }
                prev.via.push(prev.to);
                prev.to = step.to;
                prev.captures.extend(step.captures.iter().copied());
                prev.mark = step.mark;
                if let Some(l) = spot {
                    l.letters.push((r.letter, r.start));
                }
            } else {
                let spot = Spot {
                    start: r.start,
                    letters: vec![(r.letter, r.start)],
                };
                plies.push((Ply::new(number, side, Move::Tafl(r.mv)), Some(spot)));
                side = side.other();
            }
            slots.push(Some(plies.len() - 1));
        }
        if plies.len() > 2 || (filler && plies.len() > 1) {
            return Err(self.bad(if filler {
                "a turn that starts with `.....` has one move"
            } else {
                "a turn has at most two moves, one a side"
            }));
        }
        if let Some(c) = self.comment {
            // One part a record (the filler's first), the last taking the
            // rest. (A turn of one record may still write `[first|]`.)
            let split = |n: usize| -> Vec<&str> { c.splitn(n.max(2), '|').collect() };
            let mut parts = split(slots.len());
            if filler && parts.len() < slots.len() {
                // No part for the filler: the parts are the records'.
                slots.remove(0);
                parts = split(slots.len());
            }
            if parts.len() > slots.len() && parts[slots.len()..].iter().any(|p| !p.is_empty()) {
                return Err(self.bad("a second comment for a turn of one move"));
            }
            let n = plies.len();
            for (part, slot) in parts
                .iter()
                .zip(slots.iter().chain(std::iter::repeat(&None)))
            {
                if part.is_empty() {
                    continue;
                }
                match slot {
                    None if n > 0 && filler => plies[0].0.before.push(Comment::brace(*part)),
                    Some(i) => plies[*i].0.after.push(Comment::brace(*part)),
                    None => {}
                }
            }
        }
        Ok(plies)
    }
}

/// Reads one turn into its line (the main line, or the variation its label
/// addresses, created at its first turn).
fn read_turn(
    turn: Turn<'_>,
    text: &str,
    first: Side,
    main: &mut Line,
    lines: &mut HashMap<String, Place>,
    spots: &mut Spots,
) -> Result<(), Problem> {
    let (key, t) = turn.address()?;
    let place = match key {
        None => Place {
            path: Vec::new(),
            base: 1,
        },
        Some(key) => match lines.get(key) {
            Some(p) => p.clone(),
            None => {
                // A new variation, of the ply its parent names.
                let (pkey, ptn, second) = turn.varied(key)?;
                let pplace = match pkey {
                    None => Place {
                        path: Vec::new(),
                        base: 1,
                    },
                    Some(k) => lines
                        .get(k)
                        .cloned()
                        .ok_or_else(|| turn.bad("its parent variation comes later"))?,
                };
                let side = if second { first.other() } else { first };
                let number = pplace.base + ptn - 1;
                let pline = line_at(main, &pplace.path);
                let pi = pline
                    .plies
                    .iter()
                    .position(|p| p.number == number && p.side == side)
                    .ok_or_else(|| turn.bad("the ply it varies is not in the record"))?;
                let vi = pline.plies[pi].variations.len();
                pline.plies[pi].variations.push(Line::default());
                let mut path = pplace.path.clone();
                path.push((pi, vi));
                let p = Place { path, base: number };
                lines.insert(key.to_string(), p.clone());
                p
            }
        },
    };
    let number = place.base + t - 1;
    let line = line_at(main, &place.path);
    turn.check_number(number, place.base, line.plies.last().map(|p| p.number))?;
    let at = line.plies.len();
    for (k, (ply, spot)) in turn.plies(text, number, first)?.into_iter().enumerate() {
        if let Some(spot) = spot {
            spots.insert((place.path.clone(), at + k), spot);
        }
        line.plies.push(ply);
    }
    Ok(())
}

/// One OpenTafl move record as read.
struct Record {
    mv: TMove,
    /// The mover's letter (`K`, `n`, `C`), if written.
    letter: Option<u8>,
    /// A berserk record (`=`, `^=`): the same piece again.
    berserk: bool,
    /// Where it starts in the text.
    start: usize,
}

/// Reads one OpenTafl move: an optional piece letter, the squares joined
/// by `-` (`^` a jump, `=` a berserk record, `^=` both), the captures
/// (each with an optional piece letter), the mark.
fn read_move(
    text: &str,
    dim: u8,
    err: &dyn Fn(usize, String) -> Problem,
) -> Result<Record, Problem> {
    if text == "---" {
        return Ok(Record {
            mv: TMove::Resign,
            letter: None,
            berserk: false,
            start: 0,
        });
    }
    let skip = usize::from(text.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic));
    let letter = (skip == 1).then(|| text.as_bytes()[0]);
    let body = &text[skip..];
    let berserk = body.contains('=');
    // The captured pieces' letters go; marks are read by meaning: `-` and
    // `+` a threat, `--` and `++` a win.
    let (body, mark) = if let Some(b) = body.strip_suffix("++").or(body.strip_suffix("--")) {
        (b, Some(Mark::Win))
    } else if let Some(b) = body.strip_suffix('+').or(body.strip_suffix('-')) {
        (b, Some(Mark::Threat))
    } else {
        (body, None)
    };
    let mut clean = String::with_capacity(body.len());
    let mut map = Vec::with_capacity(body.len());
    let b = body.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let letter_before_letter = c.is_ascii_alphabetic()
            && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
            && i > 0
            && matches!(b[i - 1], b'x' | b'/');
        // The kind of a move (`^`, `=`, `^=`) reads as `-`.
        let second_of_kind = c == b'=' && i > 0 && b[i - 1] == b'^';
        if !letter_before_letter && !second_of_kind {
            clean.push(if matches!(c, b'^' | b'=') {
                '-'
            } else {
                char::from(c)
            });
            map.push(i);
        }
    }
    let mut m = decode(&clean, Some(dim), '-', &|at, e| {
        err(skip + map.get(at).copied().unwrap_or(0), e)
    })?;
    if let TMove::Step(s) = &mut m {
        s.mark = mark;
    }
    Ok(Record {
        mv: m,
        letter,
        berserk,
        start: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_names_map_both_ways() {
        for key in [
            "event",
            "time-control",
            "start-comment",
            "puzzle-prestart",
            "attackers",
            "defenders",
            "result",
        ] {
            assert_eq!(tag_key(&tag_name(key)), key);
        }
        assert_eq!(tag_name("time-control"), "TimeControl");
        assert_eq!(tag_name("attackers"), "Black");
    }
}
