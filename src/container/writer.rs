//! The writer of the PGN-style container: tags, then the movetext laid out
//! in lines, whole or a run at a time ([`Movetext`]).

use std::borrow::Cow;

use super::scan;
use crate::error::Kind;
use crate::error::Problem;
use crate::family::dialect::{Dialect, Layout, Numbering};
use crate::ir::{push_number, Comment, CommentKind, Game, Line, Ply, Side, Tag};

/// Tags that lead a canonical tag section, in this order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Writes a tag section: the seven-tag roster first in roster order, then the
/// other tags in input order, then a blank line (none when there are no tags).
/// A tag is one line: line breaks in a value (which JSON, XML or CSV may
/// hold) are written as spaces, and a name that the grammar would not read
/// back as one name (empty, or holding a blank, a quote, a bracket or a
/// line break) is written with `_` for each such character, each with a
/// warning in `warnings`.
pub fn write_tags(tags: &[Tag], out: &mut String, warnings: &mut Vec<Problem>) {
    // Every such character is ASCII: checked by bytes (this runs for every
    // tag of every game), replaced by chars.
    let not_in_name = |b: u8| matches!(b, b' ' | b'\t' | b'"' | b']' | b'[' | b'\r' | b'\n');
    let one_word = |name: &str| !name.is_empty() && !name.bytes().any(not_in_name);
    // Room for every tag as it is (`[Name "value"]` and its line end) and
    // the blank line after them: a head written apart, after a game's
    // runs, starts from nothing.
    out.reserve(
        tags.iter()
            .map(|t| t.name.len() + t.value.len() + 6)
            .sum::<usize>()
            + 2,
    );
    let mut write_one = |t: &Tag, out: &mut String| {
        out.push('[');
        if !one_word(&t.name) {
            let name = match t
                .name
                .replace(|c: char| c.is_ascii() && not_in_name(c as u8), "_")
            {
                n if n.is_empty() => "_".to_string(),
                n => n,
            };
            warnings.push(
                Problem::whole(format!(
                    "tag name {} is not one word: written as {}",
                    crate::error::quote(&t.name),
                    crate::error::quote(&name)
                ))
                .of_kind(Kind::TagName),
            );
            out.push_str(&name);
        } else {
            out.push_str(&t.name);
        }
        out.push_str(" \"");
        // Nearly every value is plain: one pass over its bytes tells.
        let plain = !t
            .value
            .bytes()
            .any(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'));
        if plain {
            out.push_str(&t.value);
        } else {
            let value = one_line(
                &t.value,
                || format!("tag {}", crate::error::quote(&t.name)),
                warnings,
            );
            for c in value.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
        }
        out.push_str("\"]\n");
    };
    for name in SEVEN_TAG_ROSTER {
        for t in tags.iter().filter(|t| t.name == name) {
            write_one(t, out);
        }
    }
    for t in tags
        .iter()
        .filter(|t| !SEVEN_TAG_ROSTER.contains(&t.name.as_str()))
    {
        write_one(t, out);
    }
    if !tags.is_empty() {
        out.push('\n');
    }
}

/// Lays out movetext tokens in lines: of at most 80 columns in a
/// paragraph, a move pair a line in pairs. A token is never split, so a
/// comment longer than a line keeps its own line.
struct Lines<'o> {
    out: &'o mut String,
    /// What the container cannot hold as it is (written otherwise).
    warnings: &'o mut Vec<Problem>,
    col: usize,
    /// The next token is glued to the previous one (after `(`).
    glue: bool,
    /// Write `!`, `?`, `!!`, `??`, `!?`, `?!` as the NAGs `$1`..`$6`.
    glyphs_as_nags: bool,
    /// The widest line: 80 in a paragraph, unbounded in pairs.
    width: usize,
}

/// How a notation's writer spells what the container holds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Write the traditional move suffixes as NAGs, as PGN export format
    /// requires (`Kg7?!` becomes `Kg7 $6`); other glyphs stay glued.
    pub glyphs_as_nags: bool,
    /// How the movetext is laid out in lines (one of the dialect's).
    pub layout: Layout,
}

/// The NAG of a traditional move suffix.
fn glyph_nag(glyph: &str) -> Option<u32> {
    crate::ir::SUFFIX_NAGS
        .iter()
        .position(|&g| g == glyph)
        .map(|i| i as u32 + 1)
}

const WIDTH: usize = 80;

impl Lines<'_> {
    fn token(&mut self, tok: &str) {
        // Width in characters and the last line break (moves, numbers and
        // NAGs are ASCII on one line: their width is their length).
        let (len, last_break) = if tok.bytes().all(|b| b < 0x80 && b != b'\n') {
            (tok.len(), None)
        } else {
            (tok.chars().count(), tok.rfind('\n'))
        };
        self.put("", tok, "", len, last_break);
    }

    /// Writes `body` between `open` and `close` (ASCII, no line break) as
    /// one token, [`Lines::token`] of the three put together, without
    /// putting them together: a comment costs what copying it costs.
    fn wrapped(&mut self, open: &str, body: &str, close: &str) {
        match body.rfind('\n') {
            None => self.unbroken(open, body, close),
            Some(i) => {
                let len = open.len() + body.chars().count() + close.len();
                self.put(open, body, close, len, Some(i));
            }
        }
    }

    /// [`Lines::wrapped`] of a `body` without a line break.
    fn unbroken(&mut self, open: &str, body: &str, close: &str) {
        // An `|` of every byte, which does not stop early, runs a vector
        // at a time.
        let len = if body.bytes().fold(0, |a, x| a | x) < 0x80 {
            body.len()
        } else {
            body.chars().count()
        };
        self.put(open, body, close, open.len() + len + close.len(), None);
    }

    /// Places a token of `len` characters, `open`, `body` and `close`,
    /// whose last line break (in `body`) is at `last_break`.
    #[inline(always)]
    fn put(&mut self, open: &str, body: &str, close: &str, len: usize, last_break: Option<usize>) {
        if self.glue {
            self.glue = false;
        } else if self.col > 0 {
            if self.col + 1 + len > self.width {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(open);
        self.out.push_str(body);
        self.out.push_str(close);
        match last_break {
            Some(i) => self.col = body[i + 1..].chars().count() + close.len(),
            None => self.col += len,
        }
    }

    /// A token that must end its line (`;` comments).
    fn line_end(&mut self) {
        self.out.push('\n');
        self.col = 0;
    }

    /// A token that must start at column 1 and end its line (`%` lines).
    fn own_line(&mut self, mark: &str, tok: &str) {
        if self.col > 0 {
            self.out.push('\n');
        }
        self.out.push_str(mark);
        self.out.push_str(tok);
        self.out.push('\n');
        self.col = 0;
        self.glue = false;
    }

    fn comment(&mut self, c: &Comment) -> Result<(), Problem> {
        // A plain text (decided when it was read: ASCII on one line, no
        // `}`) is written as it is, one column a byte, without a look at it.
        let text = &c.text;
        if text.is_plain() {
            match c.kind {
                CommentKind::Brace => self.put("{", text, "}", text.len() + 2, None),
                CommentKind::Line => {
                    self.put(";", text, "", text.len() + 1, None);
                    self.line_end();
                }
                CommentKind::Escape => self.own_line("%", text),
            }
            return Ok(());
        }
        match c.kind {
            // Most comments hold no `}` and no line break: written as they
            // were read, on one line (one pass over them to know so).
            CommentKind::Brace
                if memchr::memchr3(b'}', b'\n', b'\r', c.text.as_bytes()).is_none() =>
            {
                self.unbroken("{", &c.text, "}")
            }
            CommentKind::Brace => {
                let text = brace_text(&c.text, self.warnings)?;
                self.wrapped("{", &text, "}");
            }
            CommentKind::Line => {
                let text = one_line(&c.text, || "a `;` comment".into(), self.warnings);
                self.wrapped(";", &text, "");
                self.line_end();
            }
            CommentKind::Escape => {
                let text = one_line(&c.text, || "a `%` line".into(), self.warnings);
                self.own_line("%", &text);
            }
        }
        Ok(())
    }

    fn open(&mut self) {
        self.token("(");
        self.glue = true;
    }

    /// Ends the line, unless nothing is on it (a new move pair in pairs).
    fn break_line(&mut self) {
        if self.col > 0 {
            self.out.push('\n');
            self.col = 0;
            self.glue = false;
        }
    }

    fn close(&mut self) {
        if self.col + 1 > self.width {
            self.out.push('\n');
            self.col = 0;
        }
        self.out.push(')');
        self.col += 1;
        self.glue = false;
    }
}

/// Writes a whole game in the PGN-style container: preamble comments, tags,
/// movetext numbered and laid out as the dialect and style say, and the
/// result, ending with a newline. `tags` are the tags to write: the game's
/// own, or those with what the target adds to them; `spell` writes one
/// ply's move in the target notation. The result is the dialect's token for
/// [`Game::result_in`] (`*` for one the dialect has no token for). Returns
/// the warnings: a result the family does not know, and what a comment
/// cannot hold as it is (`brace_text`). The one way a container game is
/// written, whole or a run at a time ([`Movetext`]).
pub fn write<F>(
    game: &Game,
    tags: &[Tag],
    out: &mut String,
    dialect: &Dialect,
    style: Style,
    spell: F,
) -> Result<Vec<Problem>, Problem>
where
    F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
{
    let mut movetext = Movetext::new(game.variant.first_mover(), dialect, style);
    movetext.head(game, tags, out)?;
    movetext.plies(&game.moves.plies, out, spell)?;
    movetext.end(
        game,
        || Cow::Borrowed(tags),
        dialect,
        &mut String::new(),
        out,
    )
}

/// A container game's text written a run at a time: the
/// movetext first, as the runs come ([`Movetext::plies`]), then its end,
/// and the head (preamble and tags) put before it ([`Movetext::end`]), so
/// that the head may say what only the whole game knows (its result). A
/// writer that holds the whole game writes the head first
/// ([`Movetext::head`]).
pub struct Movetext {
    /// The warnings of the head, when it was written first.
    head: Option<Vec<Problem>>,
    col: usize,
    glue: bool,
    /// Whether the next ply of each open line is written with its number:
    /// the main line's first, then each variation open in it
    /// ([`Movetext::open`]).
    need_number: bool,
    /// The same, of each variation open ([`Movetext::open`]), outermost
    /// first.
    need_in: Vec<bool>,
    numbers: Numbers,
    glyphs_as_nags: bool,
    width: usize,
    /// The warnings of the movetext so far.
    warnings: Vec<Problem>,
}

impl Movetext {
    /// The movetext of a game whose first mover is `first`.
    pub fn new(first: Side, dialect: &Dialect, style: Style) -> Movetext {
        Movetext {
            head: None,
            col: 0,
            glue: false,
            need_number: true,
            need_in: Vec::new(),
            numbers: Numbers {
                first,
                numbering: dialect.numbering,
                pairs: style.layout == Layout::Pairs,
            },
            glyphs_as_nags: style.glyphs_as_nags,
            width: match style.layout {
                Layout::Paragraph => WIDTH,
                Layout::Pairs => usize::MAX,
            },
            warnings: Vec::new(),
        }
    }

    /// Writes the head (`game`'s preamble and `tags`) first, before any
    /// ply, where the whole game is known.
    pub fn head(&mut self, game: &Game, tags: &[Tag], out: &mut String) -> Result<(), Problem> {
        let mut warnings = Vec::new();
        write_head(game, tags, out, &mut warnings)?;
        self.head = Some(warnings);
        Ok(())
    }

    /// Writes the next plies of the line open (the main line, or the
    /// variation [`Movetext::open`] opened last), with their comments and
    /// variations, to `out`.
    pub fn plies<F>(&mut self, plies: &[Ply], out: &mut String, mut spell: F) -> Result<(), Problem>
    where
        F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
    {
        let main = self.need_in.is_empty();
        let numbers = self.numbers;
        let mut buf = String::new();
        let (mut lines, need) = self.lines(out);
        let written = write_plies(plies, need, numbers, main, &mut lines, &mut spell, &mut buf);
        let (col, glue) = (lines.col, lines.glue);
        (self.col, self.glue) = (col, glue);
        written
    }

    /// Opens a variation of the last ply written, whose plies
    /// [`Movetext::plies`] then writes.
    pub fn open(&mut self, out: &mut String) {
        let (mut lines, _) = self.lines(out);
        lines.open();
        let (col, glue) = (lines.col, lines.glue);
        (self.col, self.glue) = (col, glue);
        self.need_in.push(true);
    }

    /// [`Movetext::open`] of a game's movetext, which a variation cannot
    /// open before any move began it.
    pub fn open_in(movetext: Option<&mut Movetext>, out: &mut String) -> Result<(), Problem> {
        let movetext = movetext.ok_or_else(crate::codec::opened_first)?;
        movetext.open(out);
        Ok(())
    }

    /// [`Movetext::close`] of a game's movetext, begun or not.
    pub fn close_in(
        movetext: Option<&mut Movetext>,
        trailing: &[Comment],
        out: &mut String,
    ) -> Result<(), Problem> {
        movetext
            .ok_or_else(|| {
                Problem::whole("a variation closed before any move").of_kind(Kind::Internal)
            })?
            .close(trailing, out)
    }

    /// Closes the variation open, after its `trailing` comments.
    pub fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        if self.need_in.is_empty() {
            return Err(crate::codec::not_open());
        }
        let (mut lines, _) = self.lines(out);
        for c in trailing {
            lines.comment(c)?;
        }
        lines.close();
        let (col, glue) = (lines.col, lines.glue);
        (self.col, self.glue) = (col, glue);
        self.need_in.pop();
        *self.need_in.last_mut().unwrap_or(&mut self.need_number) = true;
        Ok(())
    }

    /// The lines laid out from where the text written so far ends, and
    /// whether the open line's next ply needs its number.
    fn lines<'o>(&'o mut self, out: &'o mut String) -> (Lines<'o>, &'o mut bool) {
        let need = self.need_in.last_mut().unwrap_or(&mut self.need_number);
        (
            Lines {
                out,
                warnings: &mut self.warnings,
                col: self.col,
                glue: self.glue,
                glyphs_as_nags: self.glyphs_as_nags,
                width: self.width,
            },
            need,
        )
    }

    /// Ends the game: the main line's trailing comments and the result
    /// after the movetext, and the head (`game`'s preamble and the tags
    /// `tags` gives, asked for only then) before it, unless it was written
    /// first: to `head` ([`crate::codec::RunWriter::end`]). The warnings
    /// of the whole game, in the order of its text.
    pub fn end<'t>(
        mut self,
        game: &Game,
        tags: impl FnOnce() -> Cow<'t, [Tag]>,
        dialect: &Dialect,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if !self.need_in.is_empty() {
            return Err(crate::codec::left_open());
        }
        let (mut lines, _) = self.lines(out);
        for c in &game.moves.trailing {
            lines.comment(c)?;
        }
        lines.token(game.result_in(dialect.results).token());
        lines.out.push('\n');
        let mut warnings = match self.head.take() {
            Some(said) => said,
            None => {
                let mut said = Vec::new();
                write_head(game, &tags(), head, &mut said)?;
                said
            }
        };
        warnings.append(&mut self.warnings);
        if let Some(r) = game.foreign_result() {
            warnings.push(
                Problem::whole(format!(
                    "result {} is not a {} result: `*` ends the movetext (a Result tag is kept \
                     as written)",
                    crate::error::quote(&r),
                    game.family().name()
                ))
                .of_kind(Kind::ResultNotHeld),
            );
        }
        Ok(warnings)
    }
}

/// Writes a game's head: its preamble comments and `tags`.
fn write_head(
    game: &Game,
    tags: &[Tag],
    out: &mut String,
    warnings: &mut Vec<Problem>,
) -> Result<(), Problem> {
    for c in &game.preamble {
        match c.kind {
            CommentKind::Brace => {
                let text = brace_text(&c.text, warnings)?;
                out.extend(["{", &*text, "}\n"]);
            }
            CommentKind::Line => {
                let text = one_line(&c.text, || "a `;` comment".into(), warnings);
                out.extend([";", &*text, "\n"]);
            }
            CommentKind::Escape => {
                let text = one_line(&c.text, || "a `%` line".into(), warnings);
                out.extend(["%", &*text, "\n"]);
            }
        }
    }
    if !game.preamble.is_empty() {
        out.push('\n');
    }
    write_tags(tags, out, warnings);
    Ok(())
}

/// A text that must stay on its line (a tag's value, a `;` or `%` comment):
/// its line breaks are written as spaces, with a warning naming `what`.
fn one_line<'t>(
    text: &'t str,
    what: impl FnOnce() -> String,
    warnings: &mut Vec<Problem>,
) -> Cow<'t, str> {
    if memchr::memchr2(b'\n', b'\r', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    warnings.push(
        Problem::whole(format!(
            "{} holds line breaks, which its line cannot: written as spaces",
            what()
        ))
        .of_kind(Kind::LineBreaks),
    );
    Cow::Owned(
        text.split(['\n', '\r'])
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The text of a comment as it can stand between braces. A `}` would end
/// it early: an error. A line inside it that starts like a tag (`[Name "`)
/// would end the game when it is read back (the scanner ends a comment left
/// open there, [`scan::tag_head`]): the blanks and line breaks before such
/// a line are written as one space, with a warning.
fn brace_text<'t>(text: &'t str, warnings: &mut Vec<Problem>) -> Result<Cow<'t, str>, Problem> {
    if text.contains('}') {
        return Err(Problem::whole(format!(
            "comment {} holds a `}}` and cannot be written between braces",
            crate::error::quote(text)
        ))
        .of_kind(Kind::CannotWrite));
    }
    let b = text.as_bytes();
    let mut joined: Option<String> = None;
    // Copied into `joined` up to here.
    let mut from = 0;
    let mut i = 0;
    while let Some(j) = memchr::memchr2(b'\n', b'\r', &b[i..]) {
        let line_break = i + j;
        i = line_break;
        while i < b.len() && matches!(b[i], b'\n' | b'\r') {
            i += 1;
        }
        if scan::tag_head(b, i) {
            let s = joined.get_or_insert_with(|| String::with_capacity(text.len()));
            if s.is_empty() {
                let line: String = text[i..]
                    .trim_start()
                    .chars()
                    .take_while(|&c| c != '\n' && c != '\r')
                    .take(24)
                    .collect();
                warnings.push(
                    Problem::whole(format!(
                        "a comment holds a line that starts like a tag ({}), which would \
                         end the game when read back: its line break is written as a space",
                        crate::error::quote(&line)
                    ))
                    .of_kind(Kind::CommentLineJoined),
                );
            }
            // The whole run of blanks and line breaks before the tag's
            // line: a break left before it, with blanks alone after it,
            // would start the line again.
            let mut start = line_break;
            while start > from && matches!(b[start - 1], b' ' | b'\t' | b'\n' | b'\r') {
                start -= 1;
            }
            s.push_str(&text[from..start]);
            s.push(' ');
            from = i;
        }
    }
    Ok(match joined {
        Some(mut s) => {
            s.push_str(&text[from..]);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(text),
    })
}

/// How the plies of a game are numbered and broken into lines.
#[derive(Clone, Copy)]
struct Numbers {
    first: Side,
    numbering: Numbering,
    /// A move pair a line (on the main line).
    pairs: bool,
}

/// Writes a line: its plies, then its trailing comments.
fn write_line<F>(
    line: &Line,
    numbers: Numbers,
    lines: &mut Lines<'_>,
    spell: &mut F,
    buf: &mut String,
) -> Result<(), Problem>
where
    F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
{
    let mut need_number = true;
    write_plies(
        &line.plies,
        &mut need_number,
        numbers,
        false,
        lines,
        spell,
        buf,
    )?;
    for c in &line.trailing {
        lines.comment(c)?;
    }
    Ok(())
}

/// Writes plies of a line (`main`: the main line); `need_number` says
/// the next ply is written with its number, and is left so for the next.
fn write_plies<F>(
    plies: &[Ply],
    need_number: &mut bool,
    numbers: Numbers,
    main: bool,
    lines: &mut Lines<'_>,
    spell: &mut F,
    buf: &mut String,
) -> Result<(), Problem>
where
    F: FnMut(&Ply, &mut String) -> Result<(), Problem>,
{
    let first = numbers.first;
    let breaks = main && numbers.pairs;
    let mut need = *need_number;
    for ply in plies {
        if breaks && ply.side == first {
            lines.break_line();
        }
        for c in &ply.before {
            lines.comment(c)?;
            need = true;
        }
        // A move number stays on the line of its move.
        buf.clear();
        match numbers.numbering {
            Numbering::Pair if ply.side == first => {
                push_number(buf, ply.number);
                buf.push_str(". ");
            }
            Numbering::Pair if need => {
                push_number(buf, ply.number);
                buf.push_str("... ");
            }
            Numbering::Pair => {}
            Numbering::Ply { mark } => {
                push_number(buf, ply.number);
                buf.push(char::from(mark));
                buf.push(' ');
            }
        }
        need = false;
        spell(ply, buf)?;
        let glyph_as_nag = match &ply.glyph {
            Some(g) if lines.glyphs_as_nags => glyph_nag(g),
            _ => None,
        };
        if let (Some(g), None) = (&ply.glyph, glyph_as_nag) {
            buf.push_str(g);
        }
        lines.token(buf);
        for &nag in glyph_as_nag.iter().chain(&ply.nags) {
            buf.clear();
            buf.push('$');
            push_number(buf, nag);
            lines.token(buf);
        }
        for c in &ply.after {
            lines.comment(c)?;
            need = true;
        }
        for var in &ply.variations {
            lines.open();
            write_line(var, numbers, lines, spell, buf)?;
            lines.close();
            need = true;
        }
    }
    *need_number = need;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lines over a string, at column `col` (glued or not), as a paragraph.
    fn lines<'o>(
        out: &'o mut String,
        warnings: &'o mut Vec<Problem>,
        col: usize,
        glue: bool,
    ) -> Lines<'o> {
        Lines {
            out,
            warnings,
            col,
            glue,
            glyphs_as_nags: false,
            width: WIDTH,
        }
    }

    proptest! {
        /// A comment placed as its parts ([`Lines::wrapped`]) is laid out
        /// as the one token they make ([`Lines::token`]): the same text and
        /// the same column after, for any text (line breaks, any script).
        #[test]
        fn a_comment_is_placed_as_the_token_it_makes(
            body in "[a-z é—♞中\n]{0,120}",
            col in 0usize..100,
            glue: bool,
            kind in 0usize..2,
        ) {
            let (open, close) = [("{", "}"), (";", "")][kind];
            let (mut whole, mut parts) = (String::new(), String::new());
            let (mut w1, mut w2) = (Vec::new(), Vec::new());
            let mut a = lines(&mut whole, &mut w1, col, glue);
            a.token(&format!("{open}{body}{close}"));
            let col_a = a.col;
            let mut b = lines(&mut parts, &mut w2, col, glue);
            b.wrapped(open, &body, close);
            let col_b = b.col;
            prop_assert_eq!(col_a, col_b);
            if kind == 0 {
                let (mut read, mut w3) = (String::new(), Vec::new());
                let mut c = lines(&mut read, &mut w3, col, glue);
                c.comment(&Comment::brace(body.as_str())).expect("no `}` in it");
                prop_assert_eq!(c.col, col_a);
                prop_assert_eq!(&read, &whole);
            }
            prop_assert_eq!(whole, parts);
        }
    }
}
