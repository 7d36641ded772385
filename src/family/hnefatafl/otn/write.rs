//! Writing an OpenTafl record: its tags, its turns with their commentary,
//! and its variations addressed as OpenTafl addresses them.

use crate::codec::WriteOptions;
use crate::error::{Kind, Problem};
use crate::family::hnefatafl::rules::Position;
use crate::family::hnefatafl::tafl;
use crate::family::hnefatafl::{Mark, Move as TMove, Square, Step, ATTACKERS};
use crate::family::spell::Lines;
use crate::family::spell::{self, Spell, Spelled};
use crate::ir::{Comment, Game, Line, Ply, Side};

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
    let options = opts
        .format
        .get::<tafl::Options>()
        .cloned()
        .unwrap_or_default();
    let Some(board) = game.variant.as_tafl() else {
        return Err(game.family().cannot_be_written_as("otn"));
    };
    let Some(rules) = &board.rules else {
        return Err(Problem::whole(NO_RULES).of_kind(Kind::CannotWrite));
    };
    let mut warnings = Vec::new();
    // Seen from another side, the rules' start position and the position
    // tag turn with the squares.
    let (q, m) = (options.quarters, options.mirror);
    let shown = rules.transformed(q, m);
    let mut shown_tags = game.tags.clone();
    tafl::view_position(&mut shown_tags, board.dim, q, m);
    // The comments before the first move (and those before the tags) are
    // the start comment.
    let opening = match game.moves.plies.first() {
        Some(p) => &p.before,
        None => &game.moves.trailing,
    };
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
                start_comment(out, &mut warnings);
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
                out.push_str(&fit(value, true, &mut warnings));
                out.push_str("]\n");
            }
        }
    }
    if !wrote_rules {
        out.push_str("[rules:");
        out.push_str(shown.text());
        out.push_str("]\n");
        start_comment(out, &mut warnings);
    }
    out.push('\n');
    rules
        .at_position(&game.tags)
        .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
    // Every move spelled where it stands, in the order the container
    // writes them (each ply, then its variations).
    let spelled = spell::spelled::<Otn>(game, &options, Lines::All)?;
    let mut w = Writer {
        out,
        first: board.first_mover(),
        spelled: &spelled,
        warnings: &mut warnings,
        judged: board.validated,
    };
    w.line(&game.moves, None, 0)?;
    Ok(warnings)
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

/// The plies of a line and its variations: how many texts of the spelling
/// they take.
fn count(line: &Line) -> usize {
    line.plies
        .iter()
        .map(|p| 1 + p.variations.iter().map(count).sum::<usize>())
        .sum()
}

struct Writer<'a> {
    out: &'a mut String,
    first: Side,
    /// Every ply's move spelled, in the order the container writes them.
    spelled: &'a Spelled,
    warnings: &'a mut Vec<Problem>,
    /// The moves were replayed by the rules, which judge the win and
    /// suicide marks (a reader computes them again).
    judged: bool,
}

impl Writer<'_> {
    /// Writes a line: the main line (`prefix` None, turns numbered by
    /// their move numbers) or a variation addressed by `prefix` (`8a.1.`);
    /// `at` is where its first ply's move is in the spelling.
    fn line(&mut self, line: &Line, prefix: Option<&str>, at: usize) -> Result<(), Problem> {
        // Where each ply's move is in the spelling (each ply, then its
        // variations).
        let mut places = Vec::with_capacity(line.plies.len());
        let mut next = at;
        for p in &line.plies {
            places.push(next);
            next += 1 + p.variations.iter().map(count).sum::<usize>();
        }
        let base = line.plies.first().map_or(1, |p| p.number);
        let mut i = 0;
        while i < line.plies.len() {
            let a = &line.plies[i];
            let pair = a.side == self.first
                && line
                    .plies
                    .get(i + 1)
                    .is_some_and(|b| b.side != self.first && b.number == a.number);
            let turn: Vec<&Ply> = if pair {
                vec![a, &line.plies[i + 1]]
            } else {
                vec![a]
            };
            let t = a.number + 1 - base;
            // A ply's address, as its variations name it: `8a`, `12b` on
            // the main line; `3a.2.1a` inside a variation, where OpenTafl
            // writes the letter `a` for either ply of a turn.
            let first = self.first;
            let address = |p: &Ply| match prefix {
                None => format!("{}{}", p.number, if p.side == first { 'a' } else { 'b' }),
                Some(pre) => format!("{pre}{t}a"),
            };
            match prefix {
                None => {
                    crate::ir::push_number(self.out, a.number);
                    self.out.push('.');
                }
                Some(pre) => {
                    self.out.push_str(pre);
                    crate::ir::push_number(self.out, t);
                    self.out.push_str("a.");
                }
            }
            let filler = a.side != self.first;
            if filler {
                self.out.push_str(" .....");
            }
            for (k, p) in turn.iter().enumerate() {
                self.out.push(' ');
                let text = self.spelled.get(places[i + k]).ok_or_else(|| {
                    Problem::whole("the spelling lost its place in the game")
                        .of_kind(Kind::Internal)
                })?;
                self.out.push_str(text);
                self.dropped_mark(p);
            }
            self.out.push_str(" \n[");
            // The main line's first comments went into the start comment.
            let opening = prefix.is_none() && i == 0;
            let none: &[Comment] = &[];
            let lead = if opening { none } else { &turn[0].before };
            // One part a record: the comments of a berserk move's legs go
            // to its last record.
            let legs = |p: &Ply| {
                p.mv.as_tafl()
                    .and_then(TMove::step)
                    .map_or(1, |s| s.via.len() + 1)
            };
            let mut parts: Vec<String> = Vec::new();
            match turn.as_slice() {
                [x, y] => {
                    parts.extend(std::iter::repeat_n(String::new(), legs(x) - 1));
                    parts.push(joined(lead.iter().chain(&x.after)));
                    parts.extend(std::iter::repeat_n(String::new(), legs(y) - 1));
                    parts.push(joined(y.before.iter().chain(&y.after)));
                }
                [x] if filler && !x.before.is_empty() => {
                    parts.push(joined(lead));
                    parts.extend(std::iter::repeat_n(String::new(), legs(x) - 1));
                    parts.push(joined(&x.after));
                }
                [x] => {
                    parts.extend(std::iter::repeat_n(String::new(), legs(x) - 1));
                    parts.push(joined(lead.iter().chain(&x.after)));
                }
                _ => {}
            }
            let n = parts.len();
            for (k, part) in parts.iter().enumerate() {
                if k > 0 {
                    self.out.push('|');
                }
                self.out.push_str(&fit(part, k + 1 == n, self.warnings));
            }
            self.out.push_str("]\n\n");
            for (k, p) in turn.iter().enumerate() {
                // A ply's variations follow its move in the spelling.
                let mut at = places[i + k] + 1;
                for (j, v) in p.variations.iter().enumerate() {
                    let pre = format!("{}.{}.", address(p), j + 1);
                    self.line(v, Some(&pre), at)?;
                    at += count(v);
                }
            }
            i += turn.len();
        }
        // (Those of an empty main line went into the start comment.)
        let opening = prefix.is_none() && line.plies.is_empty();
        if !line.trailing.is_empty() && !opening {
            self.warnings.push(
                Problem::whole("comments after a line's last move have no place in otn: left out")
                    .of_kind(Kind::DroppedAnnotations),
            );
        }
        Ok(())
    }

    /// Warns of a suicide mark the rules did not judge: otn has no
    /// spelling for it.
    fn dropped_mark(&mut self, ply: &Ply) {
        let suicide = ply
            .mv
            .as_tafl()
            .and_then(TMove::step)
            .is_some_and(|s| s.mark == Some(Mark::Suicide));
        if suicide && !self.judged {
            self.warnings.push(
                Problem::whole(format!(
                    "{} the mark `--` of a suicidal move has no otn spelling: left out",
                    ply.label(self.first)
                ))
                .of_kind(Kind::MarkDropped),
            );
        }
    }
}
