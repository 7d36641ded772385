//! `json` and `jsonl`: the IR as JSON. Any game written and read back is the
//! same game. Reading, the JSON of pgn-extract and lichess is read too
//! (`peers`).

mod peers;

use serde::Deserialize;

use super::Last;
use crate::codec::{
    line_col, too_deep, Frame, Oversize, Parsed, ReadOptions, RunWriter, Scan, Skip, WriteOptions,
};
use crate::error::{Kind, Problem};
use crate::ir::{is_glyph, Comment, Game, Line, MAX_VARIATION_DEPTH};

/// How deeply JSON values nest in a game whose variations nest
/// [`MAX_VARIATION_DEPTH`] deep: each variation is a line object, its plies
/// array, a ply object and its variations array (four levels), under the
/// game object and its moves; a little room on top for what a game holds
/// beside its moves.
const MAX_JSON_DEPTH: usize = 4 * MAX_VARIATION_DEPTH + 8;

/// A scan of JSON text, a byte at a time, that knows how deeply objects and
/// arrays nest outside strings (escapes included). The record splitter, the
/// skip past an oversize element and the depth check before serde all read
/// JSON's structure through it; it keeps its state across chunks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nesting {
    depth: usize,
    in_str: bool,
    escaped: bool,
}

/// A structural byte outside strings, as [`Nesting::step`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// `{` or `[`.
    Open,
    /// `}` or `]`.
    Close,
    /// `,`.
    Comma,
}

impl Nesting {
    /// Takes one byte; says what it was when it opens, closes or separates.
    pub fn step(&mut self, b: u8) -> Option<Mark> {
        if self.in_str {
            match b {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_str = false,
                _ => {}
            }
            return None;
        }
        match b {
            b'"' => self.in_str = true,
            b'{' | b'[' => {
                self.depth += 1;
                return Some(Mark::Open);
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                return Some(Mark::Close);
            }
            b',' => return Some(Mark::Comma),
            _ => {}
        }
        None
    }

    /// How many objects and arrays are open.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Where the element this scan is in ends in the next chunk of it, if it
    /// does: after the bracket that closes it, or before a `,` or a `]`
    /// outside any (a scalar, `1` in `[1]`, ends before the bracket that
    /// closes the array around it).
    pub fn element_end(&mut self, data: &[u8]) -> Option<usize> {
        for (i, &b) in data.iter().enumerate() {
            let outside = self.depth == 0;
            match self.step(b) {
                Some(Mark::Close | Mark::Comma) if outside => return Some(i),
                Some(Mark::Close) if self.depth == 0 => return Some(i + 1),
                _ => {}
            }
        }
        None
    }
}

/// How many blank bytes after a comma or bracket the `json` scanner reads
/// on to see what follows them, before it ends the text between elements
/// there.
const BLANK_WAIT: usize = 64 << 10;

/// The record scanner of `json`: each element of the array is a record; the
/// brackets, commas and whitespace around elements belong to no game.
#[derive(Debug)]
pub struct ArrayScan;

impl Scan for ArrayScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        json_element_end(data, eof, None)
    }

    fn end_after(&self, data: &[u8], eof: bool, before: Option<u8>) -> Option<(usize, bool)> {
        json_element_end(data, eof, before)
    }

    fn oversize(&self) -> Oversize {
        // An element ends after the bracket that closes it, or before a `,`
        // outside any: scanned from its start, for its depth.
        Oversize {
            skip: Box::new(ElementSkip(Nesting::default())),
            from_start: true,
        }
    }

    fn has_text(&self, bytes: &[u8]) -> bool {
        bytes
            .iter()
            .any(|b| !b.is_ascii_whitespace() && !matches!(b, b'[' | b']' | b','))
    }

    fn frame(&self) -> Option<Box<dyn Frame>> {
        Some(Box::new(Brackets(0)))
    }
}

/// The array around the elements: how many of its `[` are not closed by a
/// `]` (the text between elements holds nothing else that counts).
struct Brackets(usize);

impl Frame for Brackets {
    fn record(&mut self, bytes: &[u8], is_game: bool) {
        if is_game {
            return;
        }
        for &b in bytes {
            match b {
                b'[' => self.0 += 1,
                b']' => self.0 = self.0.saturating_sub(1),
                _ => {}
            }
        }
    }

    fn cut(&self) -> Option<String> {
        (self.0 > 0).then(|| "the `]` that closes its array".to_string())
    }
}

struct ElementSkip(Nesting);

impl Skip for ElementSkip {
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        self.0.element_end(data)
    }
}

/// Where the array element (or the text between elements) that starts at
/// `data[0]` ends, `before` the last byte before it that is not blank.
/// Between elements lie blanks, commas and the brackets of the array; a
/// `[` after a `[` or a `,` opens an element (an array, which is no game),
/// not the array of games.
fn json_element_end(data: &[u8], eof: bool, before: Option<u8>) -> Option<(usize, bool)> {
    let n = data.len();
    let mut i = 0;
    // The last byte between elements that is not blank, and where (one
    // before `data` is at 0).
    let mut last = before.filter(|b| matches!(b, b'[' | b',')).map(|b| (b, 0));
    while i < n {
        match data[i] {
            b if b.is_ascii_whitespace() => {}
            b'[' if matches!(last, Some((b'[' | b',', _))) => break,
            b @ (b'[' | b']' | b',') => last = Some((b, i)),
            _ => break,
        }
        i += 1;
    }
    if i > 0 {
        // Text between elements that may go on past `data`: more is read
        // before it ends, so that a `[` after it is known for an element;
        // unless blanks run on past the last bracket or comma (they are
        // passed however long, and what follows is taken for the array).
        if i == n && !eof && last.is_some_and(|(_, at)| n - at < BLANK_WAIT) {
            return None;
        }
        return Some((i, false));
    }
    if let Some(end) = Nesting::default().element_end(data) {
        // A stray closing `}` ends an element before it: taken as a
        // (failed) element of its own, never one of no bytes.
        return Some((end.max(1), true));
    }
    if eof {
        Some((n, true))
    } else {
        None
    }
}

/// The record scanner of `jsonl`: one record a line.
#[derive(Debug)]
pub struct LineScan;

impl Scan for LineScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        match memchr::memchr(b'\n', data) {
            Some(i) => Some((i + 1, !data[..i].trim_ascii().is_empty())),
            None if eof => Some((data.len(), !data.trim_ascii().is_empty())),
            None => None,
        }
    }

    fn oversize(&self) -> Oversize {
        Oversize {
            skip: Box::new(LineEnd),
            from_start: false,
        }
    }
}

/// Streams past a line over the size limit: it ends after the next line
/// end.
struct LineEnd;

impl Skip for LineEnd {
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        memchr::memchr(b'\n', data).map(|i| i + 1)
    }
}

/// Where JSON values first nest deeper than `limit`, if they do: one pass
/// over the bytes, before serde recurses into them.
fn too_deep_at(text: &str, limit: usize) -> Option<usize> {
    let mut scan = Nesting::default();
    text.bytes()
        .position(|b| scan.step(b) == Some(Mark::Open) && scan.depth() > limit)
}

/// Reads one game (one array element or one line).
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    // serde_json's own limit (128 levels) stops at about 30 nested
    // variations; this one is kifu's, checked before serde recurses.
    if let Some(at) = too_deep_at(text, MAX_JSON_DEPTH) {
        return Err(too_deep(line_col(text, at)));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let game = Game::deserialize(&mut de).and_then(|g| de.end().map(|()| g));
    // No game of kifu's: a game of another tool's JSON, told by its
    // content ([`peers`]), or the error.
    if game.is_err() {
        if let Some(read) = peers::read(text, opts) {
            return read;
        }
    }
    let game = game.map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        Problem::at(
            (e.line().max(1), e.column().max(1)),
            format!("invalid game JSON: {msg}"),
        )
        .of_kind(Kind::Document)
    })?;
    Ok(Parsed {
        game: settle(game)?,
        warnings: Vec::new(),
    })
}

/// Finishes a game an interchange format read (`json`, `xml`): no deeper
/// than kifu reads, its result in its family's reading, and checked by
/// [`validate`].
pub(crate) fn settle(mut game: Game) -> Result<Game, Problem> {
    if game.moves.depth(MAX_VARIATION_DEPTH) > MAX_VARIATION_DEPTH {
        return Err(too_deep((0, 0)));
    }
    // A token several families write means what the game's family says.
    game.result = game.result.map(|r| r.in_family(game.family()));
    validate(&game)?;
    Ok(game)
}

/// Writes one game as one line of JSON, without a newline.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// Writes one game as one line of JSON, with its newline.
pub fn write_line(
    game: &Game,
    opts: &WriteOptions,
    out: &mut String,
) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs_line(opts), game, out)
}

/// The writer of a game as JSON a run at a time ([`crate::codec::RunsFn`]),
/// without a newline: the text serde writes of the whole game.
pub fn runs(_opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(JsonRuns::new(false))
}

/// [`runs`], each game ending with its newline (`jsonl`).
pub fn runs_line(_opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(JsonRuns::new(true))
}

/// A game being written as JSON a run at a time: the game's object up to
/// its main line's `plies` array (the head, serde's text of the game
/// without its plies, cut where its plies go), each ply as serde writes
/// it, its object left open until the next ply, the end of its line or a
/// variation of it; the rest of the head after the plies.
struct JsonRuns {
    /// A newline after the game (`jsonl`).
    newline: bool,
    /// Whether [`RunWriter::head`] wrote the head first.
    head_written: bool,
    /// The last ply of each open line, the main line first.
    lines: Vec<Last>,
    /// serde's text of one ply, reused.
    buf: Vec<u8>,
}

/// Where a game's main line starts in serde's text of it.
const PLIES: &str = "\"moves\":{\"plies\":[";

impl JsonRuns {
    fn new(newline: bool) -> JsonRuns {
        JsonRuns {
            newline,
            head_written: false,
            lines: vec![Last::None],
            buf: Vec::new(),
        }
    }

    /// Closes the object of the open line's last ply, if open.
    fn close_ply(&mut self, out: &mut String) -> Result<(), Problem> {
        let last = self.lines.last_mut().ok_or_else(crate::codec::not_open)?;
        match std::mem::replace(last, Last::None) {
            Last::None => {}
            Last::Open => out.push('}'),
            Last::InVariations => out.push_str("]}"),
        }
        Ok(())
    }
}

/// serde's text of `game` without its plies, cut where they go: what comes
/// before them and what after (without the `]` that ends them).
fn head_text(game: &Game) -> Result<(String, String), Problem> {
    let head = Game {
        variant: game.variant.clone(),
        preamble: game.preamble.clone(),
        tags: game.tags.clone(),
        setup: game.setup.clone(),
        moves: Line {
            plies: Vec::new(),
            trailing: game.moves.trailing.clone(),
        },
        result: game.result,
    };
    let mut text = serde_json::to_string(&head)
        .map_err(|e| Problem::whole(e.to_string()).of_kind(Kind::Internal))?;
    // (The last: only the result, a token, follows the main line; no text
    // in a string holds an unescaped quote.)
    let at = text
        .rfind(PLIES)
        .ok_or_else(|| Problem::whole("no moves in the game's JSON").of_kind(Kind::Internal))?;
    let after = text.split_off(at + PLIES.len());
    Ok((text, after[1..].to_string()))
}

impl RunWriter for JsonRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        out.push_str(&head_text(game)?.0);
        self.head_written = true;
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        for ply in &run.moves.plies {
            let first = *self.lines.last().ok_or_else(crate::codec::not_open)? == Last::None;
            self.close_ply(out)?;
            if !first {
                out.push(',');
            }
            self.buf.clear();
            serde_json::to_writer(&mut self.buf, ply)
                .map_err(|e| Problem::whole(e.to_string()).of_kind(Kind::Internal))?;
            let text = std::str::from_utf8(&self.buf)
                .map_err(|e| Problem::whole(e.to_string()).of_kind(Kind::Internal))?;
            // Left open: `}` of a ply without variations, `]}` of one with.
            let last = Last::of(ply);
            let open = match last {
                Last::InVariations => text.len() - 2,
                _ => text.len() - 1,
            };
            out.push_str(&text[..open]);
            *self.lines.last_mut().expect("checked above") = last;
        }
        Ok(())
    }

    fn open(&mut self, out: &mut String) -> Result<(), Problem> {
        let last = self.lines.last_mut().ok_or_else(crate::codec::not_open)?;
        match *last {
            Last::None => return Err(crate::codec::opened_first()),
            Last::Open => out.push_str(",\"variations\":["),
            Last::InVariations => out.push(','),
        }
        *last = Last::InVariations;
        out.push_str("{\"plies\":[");
        self.lines.push(Last::None);
        Ok(())
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        if self.lines.len() < 2 {
            return Err(crate::codec::not_open());
        }
        self.close_ply(out)?;
        self.lines.pop();
        out.push(']');
        if !trailing.is_empty() {
            out.push_str(",\"trailing\":");
            let text = serde_json::to_string(trailing)
                .map_err(|e| Problem::whole(e.to_string()).of_kind(Kind::Internal))?;
            out.push_str(&text);
        }
        out.push('}');
        Ok(())
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if self.lines.len() != 1 {
            return Err(crate::codec::left_open());
        }
        self.close_ply(out)?;
        let (before, after) = head_text(game)?;
        if !self.head_written {
            head.push_str(&before);
        }
        out.push(']');
        out.push_str(&after);
        if self.newline {
            out.push('\n');
        }
        Ok(Vec::new())
    }
}

/// Checks what the JSON schema cannot: that every glyph reads back, and
/// (by the game's family) that the board is one kifu can handle and every
/// move is possible on it.
pub(crate) fn validate(game: &Game) -> Result<(), Problem> {
    check_glyphs(&game.moves, game.variant.first_mover())?;
    game.variant.check(game)
}

/// Every glyph must be one a writer can write and read back.
fn check_glyphs(line: &Line, first: crate::ir::Side) -> Result<(), Problem> {
    for ply in &line.plies {
        if let Some(g) = ply.glyph.as_deref().filter(|g| !is_glyph(g)) {
            return Err(Problem::whole(format!(
                "{} {} is not a move glyph (`!`, `?`, `!?`, `(!)`, ...)",
                ply.label(first),
                crate::error::quote(g)
            ))
            .of_kind(Kind::CannotWrite));
        }
        for v in &ply.variations {
            check_glyphs(v, first)?;
        }
    }
    Ok(())
}
