//! The walk of a record's movetext tokens into the lines of a game, as the
//! fast lexer or the pest grammar gives them, whole or a run at a time
//! ([`stream_record`](super::stream_record)).

use pest::RuleType;
use std::sync::Arc;

use super::tags::{check_result_agrees, check_result_tag, check_score_as_move};
use super::{number_of, Count, MoveText, Notation, Token};
use crate::codec::{too_deep, Lines, Parsed, ReadOptions};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::dialect::Numbering;
use crate::family::Setup;
use crate::ir::{
    find_tag, is_plain, Comment, CommentKind, Game, GameResult, Line, Ply, Side, Tag, Text,
    MAX_VARIATION_DEPTH,
};

/// The shared end of both readers: the board from the tags, then the
/// movetext walked into lines (`moves` is the main line's length, when
/// known; `room`, an empty buffer its plies go to).
#[allow(clippy::too_many_arguments)]
pub(super) fn assemble<'i, N: Notation>(
    lines: &Lines<'i>,
    preamble: Vec<Comment>,
    tags: Vec<Tag>,
    tag_at: &[usize],
    mut tokens: impl Iterator<Item = Token<'i, N::Rule>>,
    moves: usize,
    room: Vec<Ply>,
    notation: &mut N,
    mut warnings: Vec<Problem>,
    runs: &mut RunFlush<'_, N>,
    run_bytes: usize,
) -> Result<Parsed, Problem> {
    let text = lines.text();
    let result_tag = tags.iter().position(|t| t.name == "Result");
    check_result_tag(
        lines,
        &tags,
        tag_at,
        result_tag,
        N::DIALECT.results,
        &mut warnings,
    );
    for name in N::DIALECT.lifted {
        let mut named = tags
            .iter()
            .enumerate()
            .filter(|(_, t)| t.name.eq_ignore_ascii_case(name));
        if let (Some(_), Some((i, again))) = (named.next(), named.next()) {
            warnings.push(
                Problem::at(
                    lines.at(tag_at[i]),
                    format!(
                        "a second {} tag: the first is read, this one is kept as written and not read",
                        again.name
                    ),
                )
                .of_kind(Kind::RepeatedTag),
            );
        }
    }
    let at = |name: &str| -> (usize, usize) {
        find_tag(&tags, name).map_or((1, 1), |i| lines.at(tag_at[i]))
    };
    let start = notation.start(&tags, &at)?;
    warnings.extend(start.warnings);
    let mut game = Game::new(start.variant);
    game.preamble = preamble;
    game.setup = start.setup;
    game.tags = tags;
    let first = game.variant.first_mover();
    let (number, side) = (start.number.unwrap_or(1), start.to_move.unwrap_or(first));
    game.moves.plies = room;
    game.moves.plies.reserve(moves);
    let main = std::mem::take(&mut game.moves);
    let mut walker = Walker {
        head: &mut game,
        text,
        lines,
        shared: None,
        notation,
        first,
        warnings: &mut warnings,
        result: None,
        last_move: None,
        depth: 0,
        bare_number: false,
        off_numbers: Count::default(),
        scratch: Vec::new(),
        runs,
        run_from: 0,
        run_bytes,
        frames: Vec::new(),
        open: Vec::new(),
        handed_on: false,
    };
    let pos = walker.emit(Flushed::Begin)?;
    walker.open.push(Open {
        announced: true,
        pos,
        ..Open::default()
    });
    let mut main = walker.line(
        main,
        &mut tokens,
        number,
        side,
        start.to_move.is_some(),
        true,
    )?;
    // (The visitor that builds the whole game puts its main line back.)
    walker.emit(Flushed::End(&mut main))?;
    let (result, last_move, off) = (walker.result, walker.last_move, walker.off_numbers);
    game.moves = main;
    game.result = result;
    if off.n > 0 {
        warnings.push(
            off.said(
                text,
                "a move number does not follow the moves before it: the moves are numbered in their order",
            )
            .of_kind(Kind::MoveNumber),
        );
    }
    check_result_agrees(
        lines,
        &game.tags,
        tag_at,
        result_tag,
        game.result,
        N::DIALECT.results,
        &mut warnings,
    );
    check_score_as_move(lines, &game, last_move)?;
    notation.finish(&mut game, &mut warnings)?;
    Ok(Parsed { game, warnings })
}

/// The comment a token holds, if it is one: a slice of the record `text`,
/// shared as `shared` (made at the record's first comment), or its own
/// copy where there is none (a record longer than [`SHARED_RECORD`]).
pub(super) fn comment<R: RuleType>(
    lines: &Lines<'_>,
    shared: Option<&mut Option<Arc<str>>>,
    token: Token<'_, R>,
    warnings: &mut Vec<Problem>,
) -> Option<Comment> {
    let (kind, body, plain) = match token {
        Token::Comment(kind, body, _, plain) => (kind, body, plain),
        Token::ParenComment(body, at) => {
            warnings.push(
                Problem::at(
                    lines.at(at),
                    "text in parentheses that is not a variation was read as a comment",
                )
                .of_kind(Kind::ParenComment),
            );
            (CommentKind::Brace, body, is_plain(body))
        }
        _ => return None,
    };
    let text = lines.text();
    // Where the body is in the record (the lexers give slices of it).
    let at = (body.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let range = at..at.wrapping_add(body.len());
    let in_record = text
        .get(range.clone())
        .is_some_and(|r| std::ptr::eq(r, body));
    let text = match shared {
        Some(record) if in_record => {
            Text::slice_known(record.get_or_insert_with(|| Arc::from(text)), range, plain)
        }
        _ => None,
    };
    Some(Comment {
        text: text.unwrap_or_else(|| Text::from(body)),
        kind,
    })
}

struct Walker<'n, 'w, 'r, 'i, N: Notation> {
    /// The game's head (its tags, preamble, setup and board; its plies
    /// are the walk's), handed to the visitor with each piece.
    head: &'w mut Game,
    text: &'i str,
    /// The record's places, for what the walk says of its tokens.
    lines: &'w Lines<'i>,
    /// The record, shared by its comments ([`Text`]), once one is read.
    shared: Option<Arc<str>>,
    notation: &'n mut N,
    first: Side,
    warnings: &'w mut Vec<Problem>,
    result: Option<GameResult>,
    /// Text and offset of the last move read on the main line.
    last_move: Option<(&'i str, usize)>,
    /// How many variations are open.
    depth: usize,
    /// A move number without its dot was seen (warned once a game).
    bare_number: bool,
    /// The move numbers that do not follow the moves before them.
    off_numbers: Count,
    /// The plies of the variation being read at each depth, reused: a
    /// variation's line is allocated once, at its length.
    scratch: Vec<Vec<Ply>>,
    /// The visitor the pieces go to: the one that builds the whole game
    /// ([`read_record`](super::read_record)), or the runs of a record read
    /// a run at a time ([`stream_record`](super::stream_record)).
    runs: &'w mut RunFlush<'r, N>,
    /// Where the run being read started in the record.
    run_from: usize,
    /// How much text a run holds at least ([`run_bytes`]).
    run_bytes: usize,
    /// The lines open above the one being read, while a variation is read.
    frames: Vec<Line>,
    /// What was handed on of each line open, by depth (the main line's
    /// first).
    open: Vec<Open>,
    /// The variation just read was handed on as it was read: its parent
    /// does not hold it.
    handed_on: bool,
}

/// What was handed on of a line open ([`stream_record`](super::stream_record)).
#[derive(Debug, Clone, Default)]
struct Open {
    /// The line was opened in the stream
    /// ([`Piece::Open`](crate::codec::Piece::Open)): what is left of it is
    /// handed on when it ends, and its parent does not hold it.
    announced: bool,
    /// The line's first ply was handed on (without the variations read
    /// after): the ply whose variation was being read.
    head_done: bool,
    /// The position before the line's first ply not handed on.
    pos: Option<Setup>,
    /// The position before the first ply, when it was handed on (its
    /// variations start there).
    open_pos: Option<Setup>,
}

/// What the walker hands on of a record read a run at a time.
pub(super) enum Flushed<'a> {
    /// The reading begins, after the tags (the head handed with it is the
    /// game's as they give it: its tags, preamble, setup and board as the
    /// notation's [`Notation::start`] decided them); the visitor returns
    /// the position the main line starts from.
    Begin,
    /// A run of plies of the line open, from a position; the vector is
    /// given back (emptied or not), and the position after them returned.
    Run {
        plies: &'a mut Vec<Ply>,
        from: &'a Option<Setup>,
        /// The depth of the line (0: the main line).
        depth: usize,
    },
    /// A variation of the last ply handed on opens.
    Open,
    /// The variation open closes, after these comments.
    Close(&'a [Comment]),
    /// The movetext was read to its end; the main line's last runs come
    /// next.
    Read,
    /// The reading of the movetext ends: the main line as the game holds
    /// it (without the plies handed on), before the notation's
    /// [`Notation::finish`] judges the game.
    End(&'a mut Line),
}

/// What takes the pieces of a record read a run at a time
/// ([`stream_record`](super::stream_record)), each with the game's head
/// (without its plies), which a visitor may settle as the runs tell
/// ([`super::Runs::settle_head`]).
pub(super) type RunFlush<'f, N> =
    dyn FnMut(&mut N, &mut Game, Flushed<'_>) -> Result<Option<Setup>, Problem> + 'f;

/// The longest record whose comments share it ([`Text`]), copied once
/// for them: a longer one, read a run at a time, is not copied whole, and
/// each comment is a copy of its own.
const SHARED_RECORD: usize = 1 << 20;

/// The error of a record whose stream cannot go on (a glyph or NAG after
/// the variations of a move already handed on, which the container writes
/// before them): it is read whole.
const NOT_STREAMED: &str = "a glyph or NAG after the variations of a move handed on";

/// How much of a record's text is read between two cuts, at least: the
/// lines open are cut before the first move past it, at any depth.
pub const RUN_BYTES: usize = 16 << 10;

/// How much text a run holds for these options: [`RUN_BYTES`], or what
/// the testing knob says (`--run-bytes 0` makes each ply a run, which the
/// tests use to cut games everywhere).
pub(super) fn run_bytes(opts: &ReadOptions) -> usize {
    opts.run_bytes.unwrap_or(RUN_BYTES)
}

/// The warning of a game with move numbers written without their dot.
pub const BARE_NUMBER: &str = "a move number written without its dot (`29 Qxf8+`) was read";

impl<'i, N: Notation> Walker<'_, '_, '_, 'i, N> {
    /// Reads one line into `line` (empty), up to the `)` that closes it or
    /// the end of the movetext. `number` and `side` are those of its first ply;
    /// `fixed_side` says the side is known (a setup, or a variation) and a
    /// move number's dots must not change it.
    fn line(
        &mut self,
        mut line: Line,
        tokens: &mut impl Iterator<Item = Token<'i, N::Rule>>,
        mut number: u32,
        mut side: Side,
        fixed_side: bool,
        main: bool,
    ) -> Result<Line, Problem> {
        let mut pending: Vec<Comment> = Vec::new();
        if !main {
            if self.open.len() <= self.depth {
                self.open.resize_with(self.depth + 1, Open::default);
            }
            self.open[self.depth] = Open::default();
        }
        if !main {
            // A variation's plies go to the reused buffer of its depth,
            // then into a line of their number: growing each line by
            // doubling took four plies' room for a variation of one.
            if self.scratch.len() < self.depth {
                self.scratch.resize_with(self.depth, Vec::new);
            }
            std::mem::swap(&mut line.plies, &mut self.scratch[self.depth - 1]);
        }
        let mut numbered = !main;
        // Numbers count plies, not move pairs (a constant of the notation,
        // folded where the walker is compiled for it).
        let per_ply = matches!(N::DIALECT.numbering, Numbering::Ply { .. });
        let lines = self.lines;
        let at = |offset: usize| lines.at(offset);
        while let Some(token) = tokens.next() {
            // `29 Qxf8+`: a move number without its dot, which the chess
            // grammar reads.
            if let Token::MoveNumber(text, offset) = token {
                if text.as_bytes().last().is_some_and(u8::is_ascii_digit) {
                    self.bare_number(offset);
                }
            }
            match token {
                Token::Move(text, offset, pair) => {
                    if main {
                        self.last_move = Some((text, offset));
                    }
                    if offset - self.run_from >= self.run_bytes {
                        self.flush(&mut line)?;
                        self.run_from = offset;
                    }
                    let mv = self.notation.read_move(MoveText {
                        lines: self.lines,
                        at: offset,
                        text,
                        pair,
                    })?;
                    let mut ply = Ply::new(number, side, mv);
                    if !pending.is_empty() {
                        // (Its empty list is not dropped for each move.)
                        ply.before = std::mem::take(&mut pending);
                    }
                    line.plies.push(ply);
                    numbered = true;
                    if per_ply || side != self.first {
                        number += 1;
                    }
                    side = side.other();
                }
                Token::MoveNumber(text, offset) if !numbered && line.plies.is_empty() => {
                    number = N::DIALECT.numbering.digits(text).parse().map_err(|_| {
                        Problem::at(
                            at(offset),
                            format!("move number {} is too large", crate::error::quote(text)),
                        )
                        .of_kind(Kind::NumberTooLarge)
                    })?;
                    if !fixed_side {
                        if let Some(s) = N::DIALECT.numbering.side_of(text, number, self.first) {
                            side = s;
                        }
                    }
                    numbered = true;
                }
                Token::Ellipsis if line.plies.is_empty() && !fixed_side => {
                    side = self.first.other();
                }
                Token::Glyph(_, offset) | Token::Nag(_, offset) if self.last_handed_on(&line) => {
                    return Err(Problem::at(at(offset), NOT_STREAMED).of_kind(Kind::NotStreamed))
                }
                Token::Glyph(text, offset) => match line.plies.last_mut() {
                    Some(ply) if ply.glyph.is_none() => ply.glyph = Some(text.to_string()),
                    Some(_) => {
                        return Err(Problem::at(at(offset), "a second glyph for one move")
                            .of_kind(Kind::Syntax))
                    }
                    None => pending.push(self.annotation_first(text, offset)),
                },
                Token::Nag(text, offset) => {
                    let value = nag_value(text).ok_or_else(|| {
                        Problem::at(
                            at(offset),
                            format!("NAG {} is too large", crate::error::quote(text)),
                        )
                        .of_kind(Kind::NumberTooLarge)
                    })?;
                    match line.plies.last_mut() {
                        Some(ply) => ply.nags.push(value),
                        None => pending.push(self.annotation_first(text, offset)),
                    }
                }
                t @ (Token::Comment(..) | Token::ParenComment(..)) => {
                    let shared = (self.text.len() <= SHARED_RECORD).then_some(&mut self.shared);
                    if let Some(c) = comment(self.lines, shared, t, self.warnings) {
                        let handed_on = self.last_handed_on(&line);
                        match line.plies.last_mut() {
                            // (A ply handed on had variations.)
                            Some(ply)
                                if ply.variations.is_empty()
                                    && pending.is_empty()
                                    && !handed_on =>
                            {
                                // (Held in the ply: no allocation for one.)
                                ply.after.push(c)
                            }
                            _ => pending.push(c),
                        }
                    }
                }
                Token::Open(offset) => {
                    let (n, s) = match line.plies.last() {
                        Some(ply) => (ply.number, ply.side),
                        None => {
                            return Err(Problem::at(at(offset), "a variation before any move")
                                .of_kind(Kind::Syntax))
                        }
                    };
                    if self.depth == MAX_VARIATION_DEPTH {
                        return Err(too_deep(at(offset)));
                    }
                    self.depth += 1;
                    // The lines open are the walker's while the variation
                    // is read (a cut hands on what they hold).
                    self.frames.push(std::mem::take(&mut line));
                    let var = self.line(Line::default(), tokens, n, s, true, false);
                    line = self.frames.pop().unwrap_or_default();
                    let var = var?;
                    self.depth -= 1;
                    if std::mem::take(&mut self.handed_on) {
                        continue;
                    }
                    if let Some(ply) = line.plies.last_mut() {
                        // Most plies have one variation, if any: room for
                        // one, not the four a first push makes.
                        ply.variations.reserve_exact(1);
                        ply.variations.push(var);
                    }
                }
                Token::Close => break,
                Token::Result(text, offset) => {
                    let results = N::DIALECT.results;
                    self.result = results.parse(text).or_else(|| {
                        let (result, repair) = results.parse_damaged(text)?;
                        self.warnings
                            .push(Problem::at(at(offset), repair.message()).of_kind(repair.kind()));
                        Some(result)
                    })
                }
                Token::StrayBrace(offset) => self.warnings.push(
                    Problem::at(at(offset), "a `}` outside any comment was skipped")
                        .of_kind(Kind::StrayBrace),
                ),
                Token::MoveNumber(text, offset) => {
                    if number_of(text) != number {
                        self.off_numbers.add(offset);
                    }
                }
                Token::Ellipsis => {}
            }
        }
        line.trailing = pending;
        self.end_line(&mut line, main)?;
        if !main {
            let plies = line.plies.drain(..).collect();
            self.scratch[self.depth - 1] = std::mem::replace(&mut line.plies, plies);
        }
        Ok(line)
    }

    /// Hands a piece of a record read a run at a time on.
    fn emit(&mut self, piece: Flushed<'_>) -> Result<Option<Setup>, Problem> {
        (self.runs)(self.notation, self.head, piece)
    }

    /// Whether the last ply of `line`, the line being read, was handed on
    /// (read a run at a time).
    fn last_handed_on(&self, line: &Line) -> bool {
        line.plies.len() == 1 && self.open[self.depth].head_done
    }

    /// Hands on what every line open holds (`current` is the one being
    /// read, at the walker's depth; those above it are the walker's
    /// frames), in the order of the text: of each line above, its plies up
    /// to the one whose variation is being read, that ply alone, then the
    /// variation opened; of `current`, every ply.
    fn flush(&mut self, current: &mut Line) -> Result<(), Problem> {
        let depth = self.depth;
        for k in 0..depth {
            let mut line = std::mem::take(&mut self.frames[k]);
            let handed = self.hand_on(k, &mut line, true);
            self.frames[k] = line;
            handed?;
            if !self.open[k + 1].announced {
                self.emit(Flushed::Open)?;
                self.open[k + 1] = Open {
                    announced: true,
                    pos: self.open[k].open_pos.clone(),
                    ..Open::default()
                };
            }
        }
        self.hand_on(depth, current, false)
    }

    /// Hands on the plies of `line`, at depth `k`, that were not: first
    /// the variations of its first ply read since that ply was handed on,
    /// then its plies, all of them or (`keep_last`) those before its last,
    /// which is then handed on alone, with the variations it has, and kept.
    fn hand_on(&mut self, k: usize, line: &mut Line, keep_last: bool) -> Result<(), Problem> {
        let mut plies = std::mem::take(&mut line.plies);
        let handed = (|| {
            if self.open[k].head_done {
                let from = self.open[k].open_pos.clone();
                for mut var in std::mem::take(&mut plies[0].variations) {
                    self.emit(Flushed::Open)?;
                    self.emit(Flushed::Run {
                        plies: &mut var.plies,
                        from: &from,
                        depth: k + 1,
                    })?;
                    self.emit(Flushed::Close(&var.trailing))?;
                }
                if keep_last && plies.len() == 1 {
                    return Ok(());
                }
                plies.remove(0);
                self.open[k].head_done = false;
            }
            let last = if keep_last { plies.pop() } else { None };
            if !plies.is_empty() {
                // (Replaced by the position after the run.)
                let from = std::mem::take(&mut self.open[k].pos);
                self.open[k].pos = self.emit(Flushed::Run {
                    plies: &mut plies,
                    from: &from,
                    depth: k,
                })?;
            }
            plies.clear();
            if let Some(ply) = last {
                let from = std::mem::take(&mut self.open[k].pos);
                let mut alone = vec![ply];
                let after = self.emit(Flushed::Run {
                    plies: &mut alone,
                    from: &from,
                    depth: k,
                })?;
                let mut ply = alone
                    .pop()
                    .ok_or_else(|| Problem::whole(NOT_STREAMED).of_kind(Kind::NotStreamed))?;
                // Written with it.
                ply.variations.clear();
                plies.push(ply);
                self.open[k].open_pos = from;
                self.open[k].pos = after;
                self.open[k].head_done = true;
            }
            Ok(())
        })();
        line.plies = plies;
        handed
    }

    /// Ends a line of a record read a run at a time: the main line, or a
    /// variation opened in the stream, hands on what is left of it, and
    /// the variation closes (its parent then does not hold it).
    fn end_line(&mut self, line: &mut Line, main: bool) -> Result<(), Problem> {
        let depth = self.depth;
        if !main && !self.open[depth].announced {
            return Ok(());
        }
        if main {
            self.emit(Flushed::Read)?;
        }
        self.hand_on(depth, line, false)?;
        if !main {
            let trailing = std::mem::take(&mut line.trailing);
            self.emit(Flushed::Close(&trailing))?;
            self.handed_on = true;
        }
        self.open[depth] = Open::default();
        Ok(())
    }

    /// A NAG or glyph before any move of its line (`$22 {...} 1. e4`):
    /// kept as a comment that holds it as written, with a warning.
    #[cold]
    fn annotation_first(&mut self, text: &str, offset: usize) -> Comment {
        self.warnings.push(
            Problem::at(
                self.lines.at(offset),
                format!(
                    "{} before any move was kept as a comment",
                    crate::error::quote(text)
                ),
            )
            .of_kind(Kind::AnnotationBeforeMove),
        );
        Comment::brace(text)
    }

    /// Warns (once a game) of a move number written without its dot, which
    /// the chess grammar reads.
    #[cold]
    fn bare_number(&mut self, offset: usize) {
        if !self.bare_number {
            self.bare_number = true;
            self.warnings.push(
                Problem::at(self.lines.at(offset), BARE_NUMBER).of_kind(Kind::BareMoveNumber),
            );
        }
    }
}

/// The symbols read where a NAG goes (`grammars/common.pest`, `nag_symbol`),
/// and their NAGs, as ChessBase, lichess (scalachess's `Glyph`) and the
/// PGN standard's table give them. They are written as `$n`.
pub const NAG_SYMBOLS: [(&str, u32); 24] = [
    ("=∞", 44),
    ("=/∞", 44),
    ("+/=", 14),
    ("=/+", 15),
    ("+/-", 16),
    ("-/+", 17),
    ("+-", 18),
    ("-+", 19),
    ("+−", 18),
    ("−+", 19),
    ("⩲", 14),
    ("⩱", 15),
    ("±", 16),
    ("∓", 17),
    ("∞", 13),
    ("□", 7),
    ("⨀", 22),
    ("⇆", 132),
    ("↑↑", 32),
    ("↑", 36),
    ("→", 40),
    ("⊕", 138),
    ("∆", 140),
    ("=", 10),
];

/// The NAG of a `nag` token: `$14`, or a symbol of [`NAG_SYMBOLS`]; `None`
/// for a number too large.
fn nag_value(text: &str) -> Option<u32> {
    match text.strip_prefix('$') {
        Some(digits) => digits.parse().ok(),
        None => NAG_SYMBOLS
            .iter()
            .find(|&&(s, _)| s == text)
            .map(|&(_, n)| n),
    }
}
