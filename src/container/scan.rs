//! The record scanner of PGN-style containers: where one game's text ends
//! in a stream, found by a cheap byte scan (tags, comments, escape lines,
//! variations and the dialect's result tokens), before anything is parsed.
//! Each container format names it in the registry with its dialect;
//! the pipeline ([`crate::archive`]) runs it once per record.

use crate::codec::{Oversize, Scan, Skip};
use crate::container::repair;
use crate::family::dialect::Dialect;
use crate::ir::Results;

/// The record scanner of a PGN-style container, for one dialect (its
/// result tokens end a record; its numbering mark tells a move number from
/// a spaced result).
#[derive(Debug)]
pub struct Scanner {
    /// The notation's dialect.
    dialect: &'static Dialect,
}

impl Scanner {
    /// A scanner for this dialect.
    pub const fn new(dialect: &'static Dialect) -> Scanner {
        Scanner { dialect }
    }
}

impl Scan for Scanner {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        container_end(data, self.dialect, eof)
    }

    fn has_text(&self, bytes: &[u8]) -> bool {
        let mut i = 0;
        while i < bytes.len() {
            let rest = &bytes[i..];
            i += if bytes[i].is_ascii_whitespace() {
                1
            } else if rest.starts_with(b"\xEF\xBB\xBF") {
                3
            } else if let Some(len) =
                repair::escape_len(rest).or_else(|| repair::html_blank_len(rest))
            {
                len
            } else if let Some(len) = line_start(bytes, i)
                .then(|| repair::wrapper_len(rest))
                .flatten()
            {
                len
            } else {
                return true;
            };
        }
        false
    }

    fn demote(
        &self,
        text: &str,
        problem: &crate::error::Problem,
    ) -> Option<(String, crate::error::Problem)> {
        repair::demote(text, problem, &|t| self.dialect.results.is_token(t))
    }

    fn repair(&self, text: &str) -> Option<(String, Vec<crate::error::Problem>)> {
        super::repair::repair(text)
    }

    fn oversize(&self) -> Oversize {
        // Past the tags, the record ends where the next one can start.
        Oversize {
            skip: Box::new(TagLine { line_start: false }),
            from_start: false,
        }
    }
}

/// Streams past a record over the size limit: it ends before a line that
/// starts with `[`, a tag. `line_start` says the last byte seen ended a
/// line.
struct TagLine {
    line_start: bool,
}

impl Skip for TagLine {
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        if self.line_start && data.first() == Some(&b'[') {
            return Some(0);
        }
        let end = memchr::memmem::find(data, b"\n[").map(|i| i + 1);
        self.line_start = data.last() == Some(&b'\n');
        end
    }
}

/// The bytes that end a movetext token for the record scan.
static DELIM: [bool; 256] = byte_table(b" \t\n\x0c\r{}()[];");

/// A table of the bytes that are in `bytes`.
const fn byte_table(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

fn is_delim(b: u8) -> bool {
    DELIM[usize::from(b)]
}

/// The bytes that may end a record, or change how the scan reads on, where
/// a movetext token starts, beside a result's first byte: `1` (a move one
/// after a blank line starts a game of its own), `%` (an escape line), `\\`
/// (an escape sequence written as text), a BOM's first byte, and the
/// delimiters that mark structure: comments, tags, variations. Any other
/// token, once movetext has begun, is passed over whole.
static MATTERS: [bool; 256] = byte_table(b"1%\\\xEF{;[()");

/// Whether a line that holds a tag starts at `i`: spaces or tabs, then
/// `[Name "` (the grammar's `tag_head`). False when the data ends first.
pub fn tag_head(data: &[u8], i: usize) -> bool {
    tag_head_known(data, i).unwrap_or(false)
}

/// [`tag_head`], `None` where the data ends before it tells (`[Na` at its
/// end): a scan not at the input's end asks for more rather than take
/// the cut head for text.
fn tag_head_known(data: &[u8], mut i: usize) -> Option<bool> {
    let n = data.len();
    while i < n && matches!(data[i], b' ' | b'\t') {
        i += 1;
    }
    if i + 1 >= n {
        return (i < n && data[i] != b'[').then_some(false);
    }
    if data[i] != b'[' || !data[i + 1].is_ascii_alphabetic() {
        return Some(false);
    }
    i += 2;
    while i < n && (data[i].is_ascii_alphanumeric() || data[i] == b'_') {
        i += 1;
    }
    while i < n && matches!(data[i], b' ' | b'\t') {
        i += 1;
    }
    (i < n).then(|| data[i] == b'"')
}

/// Whether the byte at `i` is escaped: an odd number of `\\` before it
/// (`\\"` is an escaped backslash and a quote, as the grammar reads it).
fn escaped(data: &[u8], i: usize) -> bool {
    let run = data[..i].iter().rev().take_while(|&&b| b == b'\\').count();
    run % 2 == 1
}

/// Whether some text holds a blank line: two line ends (LF, CR or CRLF)
/// with nothing but spaces and tabs between them.
fn blank_line(text: &[u8]) -> bool {
    let mut ends = 0;
    let mut prev = 0u8;
    for &b in text {
        match b {
            b'\n' if prev == b'\r' => {}
            b'\n' | b'\r' => {
                ends += 1;
                if ends == 2 {
                    return true;
                }
            }
            b' ' | b'\t' => {}
            _ => ends = 0,
        }
        prev = b;
    }
    false
}

/// Whether text holds a move, as far as a byte scan tells one in any
/// container notation: a token outside comments that holds a digit and is
/// more than a move number (`12.`, `3#`) or a NAG (`e4`, `Nf3`, `32-28`,
/// `d2-e2`), or castling (`O-O`). Text without one (`Some text here`,
/// `2024`, `1.`) is no game, before a tag or at the input's end.
#[cold]
#[inline(never)]
fn holds_moves(text: &[u8], mark: u8) -> bool {
    MovesScan::default().holds_moves(text, mark)
}

/// Where [`holds_moves`] stopped in a text that holds no move, to go on
/// from there when the same text, longer, is asked again: asking at each
/// of many tokens from one start read the text before each again
/// (quadratic time).
#[derive(Clone, Copy, Default)]
struct MovesScan {
    /// How far the text was read.
    at: usize,
    /// Inside a `{` comment, or a `;` comment, there.
    within: Option<u8>,
}

impl MovesScan {
    /// Whether `text` holds a move, reading it from where the last call
    /// (over a shorter text of the same start, ending between tokens)
    /// stopped.
    #[cold]
    #[inline(never)]
    fn holds_moves(&mut self, text: &[u8], mark: u8) -> bool {
        let n = text.len();
        let mut i = self.at.min(n);
        // Where a comment open at the end of the text goes on.
        let comment = |within: u8, from: usize, this: &mut MovesScan| {
            let end = match within {
                b'{' => memchr::memchr(b'}', &text[from..]).map(|k| from + k + 1),
                _ => memchr::memchr2(b'\n', b'\r', &text[from..]).map(|k| from + k),
            };
            this.within = end.is_none().then_some(within);
            end.unwrap_or(n)
        };
        if let Some(within) = self.within {
            i = comment(within, i, self);
        }
        while i < n {
            match text[i] {
                b'{' => i = comment(b'{', i, self),
                b';' => i = comment(b';', i, self),
                b'$' => {
                    while i < n && !is_delim(text[i]) {
                        i += 1;
                    }
                }
                c if is_delim(c) => i += 1,
                _ => {
                    let start = i;
                    while i < n && !is_delim(text[i]) {
                        i += 1;
                    }
                    let token = &text[start..i];
                    let digit = token.iter().any(u8::is_ascii_digit);
                    let more = token
                        .iter()
                        .any(|&c| !c.is_ascii_digit() && c != mark && c != b'.');
                    if (digit && more) || castles(token) {
                        return true;
                    }
                }
            }
        }
        self.at = n;
        false
    }
}

/// Whether a token is castling written with letters (`O-O`, `o-o-o+`,
/// `O-O!`): the one move of standard notation without a digit.
fn castles(token: &[u8]) -> bool {
    let end = token
        .iter()
        .rposition(|c| !matches!(c, b'+' | b'#' | b'!' | b'?'))
        .map_or(0, |k| k + 1);
    let word = &token[..end];
    word.eq_ignore_ascii_case(b"O-O") || word.eq_ignore_ascii_case(b"O-O-O")
}

/// Where the game of a move one at `i` starts when a blank line comes
/// before it with nothing but annotations between: comments, NAGs and
/// glyphs, `;` comments and escape lines (`{Game two} $1 1. d4` after a
/// blank line: they are the next game's, as before a game's first move),
/// and the HTML a pasted page keeps (`<p>1. d4`).
/// `None` without such a blank line. Read back from `i`; asked only where
/// a game's main line went back to move 1.
#[cold]
#[inline(never)]
fn blank_line_start(data: &[u8], i: usize) -> Option<usize> {
    let mut k = i;
    loop {
        let mut j = k;
        while j > 0 && data[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        if blank_line(&data[j..k]) {
            return Some(k);
        }
        if j == 0 {
            return None;
        }
        // The line that ends at `j`.
        let line = memchr::memrchr2(b'\n', b'\r', &data[..j]).map_or(0, |p| p + 1);
        k = if let Some(html) = repair::html_before(data, j) {
            html
        } else if data[j - 1] == b'}' {
            // The comment's `{`: the first after the `}` before it (a `{`
            // inside a comment is its text).
            let from = memchr::memrchr(b'}', &data[..j - 1]).map_or(0, |p| p + 1);
            from + memchr::memchr(b'{', &data[from..j - 1])?
        } else if data[line] == b'%' {
            line
        } else if let Some(p) = memchr::memchr(b';', &data[line..j]) {
            line + p
        } else {
            let t = data[..j]
                .iter()
                .rposition(|&c| is_delim(c))
                .map_or(0, |p| p + 1);
            let token = &data[t..j];
            let annotation = token.first() == Some(&b'$')
                || (!token.is_empty() && token.iter().all(|c| matches!(c, b'!' | b'?')));
            if !annotation {
                return None;
            }
            t
        };
    }
}

/// Whether a result at `start..end` that ends a record ends a game: not
/// after prose (`Section 2: 1-0 wins` before a game's tags), nor alone
/// before a game's tags (`1-0` on a line of its own, no tag, move or
/// comment before it); elsewhere a result alone is an empty game, as
/// before. `None` when the data ends before the line after it tells.
/// `(tags, body)` say tags, or movetext, came before it.
#[inline]
fn result_ends_game(
    data: &[u8],
    start: usize,
    end: usize,
    (tags, body): (bool, bool),
    eof: bool,
) -> Option<bool> {
    if tags {
        return Some(true);
    }
    result_after_text(data, start, end, body, eof)
}

/// [`result_ends_game`] where no tag may have come before the result.
#[cold]
#[inline(never)]
fn result_after_text(data: &[u8], start: usize, end: usize, body: bool, eof: bool) -> Option<bool> {
    if starts_with_prose(&data[..start]) {
        return Some(false);
    }
    if body || !lone(data, start) {
        return Some(true);
    }
    let mut k = end;
    while k < data.len() && data[k].is_ascii_whitespace() {
        k += 1;
    }
    match tag_head_known(data, k) {
        Some(head) => Some(!head),
        None if eof => Some(true),
        None => None,
    }
}

/// Whether nothing but blanks (and BOMs) come before `i`.
#[cold]
#[inline(never)]
fn lone(data: &[u8], i: usize) -> bool {
    let mut k = 0;
    while k < i {
        if data[k..].starts_with(b"\xEF\xBB\xBF") {
            k += 3;
        } else if data[k].is_ascii_whitespace() {
            k += 1;
        } else {
            return false;
        }
    }
    true
}

/// Whether a text's first token outside comments, escape lines, NAGs,
/// variations' parentheses, `[pgn]` wrapper lines and HTML breaks is a word no movetext starts
/// with: letters without a digit that are no castling (`Round 3: games`,
/// `Partie 1: Müller - Schmidt`), or markup (`<h1>`). Every move, move
/// number and result holds a digit, or is castling or a null move.
#[cold]
#[inline(never)]
fn starts_with_prose(text: &[u8]) -> bool {
    let n = text.len();
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &text[i..]).map_or(n, |k| i + k);
    let mut i = 0;
    while i < n {
        let rest = &text[i..];
        match text[i] {
            b'{' => i = memchr::memchr(b'}', rest).map_or(n, |k| i + k + 1),
            b';' => i = line_end(i),
            b'%' if line_start(text, i) => i = line_end(i),
            b'[' if line_start(text, i) && repair::wrapper_len(rest).is_some() => {
                i += repair::wrapper_len(rest).unwrap_or(1);
            }
            _ if rest.starts_with(b"\xEF\xBB\xBF") => i += 3,
            b'<' | b'&' if repair::html_blank_len(rest).is_some() => {
                i += repair::html_blank_len(rest).unwrap_or(1);
            }
            b'<' => return true,
            c if is_delim(c) => i += 1,
            c => {
                let end = rest.iter().position(|&b| is_delim(b)).map_or(n, |k| i + k);
                let token = &text[i..end];
                if c == b'$' || token.iter().all(|b| matches!(b, b'!' | b'?')) {
                    i = end;
                    continue;
                }
                return (c.is_ascii_alphabetic() || c >= 0x80)
                    && !token.iter().any(u8::is_ascii_digit)
                    && !castles(token);
            }
        }
    }
    false
}

/// Whether `i` is at the start of a line, after blanks and the HTML a
/// pasted page keeps there ([`repair::line_start`]).
fn line_start(data: &[u8], i: usize) -> bool {
    repair::line_start(data, i)
}

/// The tag names of one tag section, to tell a repeated name: a bit set of
/// name hashes, and the first names (offsets in the record) to compare when
/// a hash repeats. No allocation.
struct Names {
    hashes: u128,
    at: [(u32, u32); 16],
    len: usize,
}

impl Names {
    /// Records a name; true when the section already had it.
    fn repeated(&mut self, data: &[u8], start: usize, end: usize) -> bool {
        let name = &data[start..end];
        let byte = |i: usize| usize::from(name[i]);
        let hash = (name.len() * 8
            + byte(0)
            + byte(usize::from(name.len() > 1)) * 7
            + byte(name.len() - 1) * 27)
            & 127;
        let bit = 1u128 << hash;
        if self.hashes & bit != 0
            && self.at[..self.len]
                .iter()
                .any(|&(a, b)| &data[a as usize..b as usize] == name)
        {
            return true;
        }
        self.hashes |= bit;
        if self.len < self.at.len() {
            if let (Ok(a), Ok(b)) = (u32::try_from(start), u32::try_from(end)) {
                self.at[self.len] = (a, b);
                self.len += 1;
            }
        }
        false
    }
}

/// The record scan of PGN-style containers: comments, escape lines and tags
/// are skipped over; a record ends before a tag that follows movetext, or
/// after a result token outside variations. Damage is bounded too: a record
/// ends before a tag whose name its tag section already has (a game of tags
/// only), and before a line that starts with a tag inside a comment or
/// variation left open after movetext. Text after a tag's `]` on its line
/// is movetext only when it starts with a digit (stray text is skipped by
/// the grammar; a game written on its tag line starts with a move number).
fn container_end(data: &[u8], dialect: &Dialect, eof: bool) -> Option<(usize, bool)> {
    scan_end(data, dialect, eof, two_digits_pass(dialect))
}

/// Whether a token that starts with two digits (`12.`, `32-28`, `10-15`)
/// can neither end a record nor start one in this dialect: no result token
/// has a digit second, nor is its numbering mark a digit (no `1.`, no
/// result, spaced or not). Then the scan passes over it with the tokens
/// that cannot: draughts' squares and move numbers from 10 on.
fn two_digits_pass(dialect: &Dialect) -> bool {
    !dialect.numbering.mark().is_ascii_digit()
        && !dialect
            .results
            .tokens()
            .iter()
            .any(|r| r.text.as_bytes().get(1).is_some_and(u8::is_ascii_digit))
}

/// [`container_end`], passing over tokens that start with two digits at
/// once where `two_digits_pass` (and reading each whole otherwise, as a
/// test compares).
fn scan_end(
    data: &[u8],
    dialect: &Dialect,
    eof: bool,
    two_digits_pass: bool,
) -> Option<(usize, bool)> {
    let n = data.len();
    let results = dialect.results;
    let firsts = results.firsts();
    // What ends a move number (`1.`), which is no result spaced around its
    // dash.
    let mark = dialect.numbering.mark();
    let mut i = 0;
    let mut depth = 0usize;
    let mut tags = false;
    let mut body = false;
    // Text that starts no movetext came before any tag or movetext.
    let mut stray = false;
    let mut names = Names {
        hashes: 0,
        at: [(0, 0); 16],
        len: 0,
    };
    // Where the last tag's `]` ended.
    let mut tag_end = None;
    // How far the text since the last tag was read for a move
    // ([`MovesScan`]), and from where.
    let (mut moves_from, mut moves_scan) = (0, MovesScan::default());
    // The last tag's end and the first line end after it.
    let mut tag_line = (usize::MAX, 0);
    let at_line_start = |i: usize| i == 0 || matches!(data[i - 1], b'\n' | b'\r');
    while i < n {
        if body {
            // Once movetext has begun, blanks and tokens that cannot end
            // the record are passed over at once: what is left for the
            // match below is a token that may ([`MATTERS`], a result's
            // first byte) and the delimiters that mark structure.
            while i < n {
                let c = data[i];
                if c.is_ascii_whitespace() {
                    i += 1;
                    continue;
                }
                if (MATTERS[usize::from(c)] || firsts.contains(c))
                    && !(two_digits_pass
                        && c.is_ascii_digit()
                        && data.get(i + 1).is_some_and(u8::is_ascii_digit))
                {
                    break;
                }
                i += 1;
                while i < n && !is_delim(data[i]) {
                    i += 1;
                }
                if i == n && !eof {
                    return None;
                }
            }
            if i == n {
                break;
            }
        }
        let b = data[i];
        match b {
            b'%' if at_line_start(i) => match memchr::memchr2(b'\n', b'\r', &data[i..]) {
                Some(j) => i += j + 1,
                None => i = n,
            },
            b'{' => {
                // A comment ends at its `}`; one left open ends at a line
                // that starts with a tag, and so does its record when
                // movetext came before it.
                i += 1;
                loop {
                    let Some(j) = memchr::memchr2(b'}', b'\n', &data[i..]) else {
                        i = n;
                        break;
                    };
                    i += j + 1;
                    if data[i - 1] == b'}' {
                        break;
                    }
                    if tag_head(data, i) {
                        if body {
                            return Some((i, true));
                        }
                        break;
                    }
                }
            }
            b';' => match memchr::memchr2(b'\n', b'\r', &data[i..]) {
                Some(j) => i += j + 1,
                None => i = n,
            },
            b'[' => {
                // `[pgn]`, `[/pgn]`: blank (when the line is cut short here,
                // the rest is read as a tag).
                // (Whether it is one is told by the byte after `[` and
                // its line's end: where the data ends first, more tells.)
                if !eof && i + 1 == n {
                    return None;
                }
                if matches!(data.get(i + 1), Some(b'p' | b'P' | b'/')) && line_start(data, i) {
                    if !eof && memchr::memchr2(b'\n', b'\r', &data[i..]).is_none() {
                        return None;
                    }
                    if let Some(len) = repair::wrapper_len(&data[i..]) {
                        i += len;
                        continue;
                    }
                }
                if body && (depth == 0 || (line_start(data, i) && tag_head(data, i))) {
                    // Text before a game's first tag that holds no move
                    // (`Some text here`) is no game of its own; a tag's
                    // head cut short by the data's end tells nothing yet.
                    let text_only = !tags
                        && line_start(data, i)
                        && match tag_head_known(data, i) {
                            Some(head) => head,
                            None if eof => false,
                            None => return None,
                        }
                        && (!holds_moves(&data[..i], mark) || starts_with_prose(&data[..i]));
                    return Some((i, !text_only));
                }
                // Stray text before a game's tags is no game of its own.
                if stray && !tags && line_start(data, i) && tag_head(data, i) {
                    return Some((i, false));
                }
                // The name: from after `[` (and a doubled `[`) to the
                // first quote, `]` or line end.
                let open = i;
                let mut j = i + 1;
                while j < n && matches!(data[j], b'[' | b' ' | b'\t') {
                    j += 1;
                }
                let start = j;
                // A tag may be cut short at the end of the input.
                let stop = memchr::memchr3(b'"', b']', b'\n', &data[j..]).map(|k| j + k);
                let mut end = stop.unwrap_or(n);
                while end > start && matches!(data[end - 1], b' ' | b'\t' | b'\r') {
                    end -= 1;
                }
                // A name the tag section already has, after a blank line,
                // starts a game (kifu writes no blank line inside a tag
                // section, so a game it writes with a repeated tag reads
                // back whole).
                if end > start
                    && !body
                    && names.repeated(data, start, end)
                    && blank_line(&data[tag_end.unwrap_or(0)..open])
                {
                    return Some((open, true));
                }
                tags |= end > start;
                let Some(stop) = stop else {
                    tags |= j < n;
                    break;
                };
                i = stop;
                let mut quoted = false;
                loop {
                    match data[i] {
                        b'"' if !escaped(data, i) => quoted = !quoted,
                        b']' if !quoted => {
                            i += 1;
                            tag_end = Some(i);
                            break;
                        }
                        // A tag split across lines goes on on the next
                        // when that holds its rest.
                        b'\n' => match tag_rest(data, i, quoted, eof) {
                            Some(true) => {}
                            Some(false) => break,
                            None => return None,
                        },
                        _ => {}
                    }
                    i += 1;
                    let Some(j) = memchr::memchr3(b'"', b']', b'\n', &data[i..]) else {
                        i = n;
                        break;
                    };
                    i += j;
                }
            }
            b'(' => {
                depth += 1;
                body = true;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ if b.is_ascii_whitespace() => i += 1,
            // A BOM where files were concatenated is blank too, and so is
            // an escape sequence written as text (`\r`: the reader's
            // repair, [`repair`]).
            0xEF if data[i..].starts_with(b"\xEF\xBB\xBF") => i += 3,
            b'\\' if repair::escape_len(&data[i..]).is_some() => i += 2,
            _ => {
                let start = i;
                let maybe_result = firsts.contains(b);
                // A stray `}` or `]` is a token of its own.
                i += 1;
                while i < n && !is_delim(data[i]) {
                    i += 1;
                }
                if i == n && !eof {
                    return None;
                }
                let token = &data[start..i];
                // A move number at depth 0: `1.` after a blank line, once a
                // move came, starts a game of its own (tagless games a blank
                // line apart, results or none: a game's main line never goes
                // back to move 1).
                // (The annotations after that blank line start it too.)
                if b == b'1'
                    && token.get(1) == Some(&mark)
                    && token.get(2) != Some(&mark)
                    && depth == 0
                    && body
                {
                    if let Some(at) = blank_line_start(data, start) {
                        // Read on from the last `1.` asked about since the
                        // last tag.
                        let from = tag_end.unwrap_or(0);
                        if moves_from != from {
                            (moves_from, moves_scan) = (from, MovesScan::default());
                        }
                        if at >= from && moves_scan.holds_moves(&data[from..at], mark) {
                            return Some((at, true));
                        }
                    }
                }
                if maybe_result && depth == 0 {
                    // `1 - 0`, `1/2 - 1/2`, `1- 1`: a result spaced around
                    // its dash (tried first: `1/2` alone is a result too).
                    // The token is its left side (`1`, `1/2`, `½`) before a
                    // blank, or that side and the dash (`1-`).
                    let spaced = match *token {
                        [.., b'-'] => true,
                        [a] | [a, _] | [a, _, _] => {
                            matches!(data.get(i), Some(b' ' | b'\t'))
                                && !matches!(token.last(), Some(&c) if c == mark || c == b'-' || c == b'x')
                                && a != b'-'
                                && !token.contains(&b'-')
                        }
                        _ => false,
                    };
                    if spaced {
                        match spaced_result_end(data, start, results, eof) {
                            Some(Some(end)) => {
                                return result_ends_game(data, start, end, (tags, body), eof)
                                    .map(|game| (end, game))
                            }
                            Some(None) => {}
                            None => return None,
                        }
                    }
                    if results.is_token(token)
                        || (token.iter().any(|&c| c >= 0x80) && dashed_result(token, results))
                    {
                        return result_ends_game(data, start, i, (tags, body), eof)
                            .map(|game| (i, game));
                    }
                }
                if !body && b.is_ascii_alphabetic() && line_start(data, start) {
                    // A tag line that lost its `[`: a tag, no movetext.
                    match unopened_tag(data, start, eof) {
                        Some(Some(end)) => {
                            tags = true;
                            tag_end = Some(end);
                            i = end;
                            continue;
                        }
                        Some(None) => {}
                        None => return None,
                    }
                }
                if !body {
                    if starts_movetext(b) {
                        // On a tag's line, only a move number starts movetext.
                        // (The line end after the last tag found once:
                        // looking for it from the tag at each token read
                        // the line again.)
                        let on_tag_line = tag_end.is_some_and(|e: usize| {
                            if tag_line.0 != e {
                                let end = memchr::memchr2(b'\n', b'\r', &data[e..]);
                                tag_line = (e, end.map_or(n, |k| e + k));
                            }
                            start <= tag_line.1
                        });
                        body = !on_tag_line || b.is_ascii_digit();
                    } else {
                        stray |= !tags;
                    }
                }
            }
        }
    }
    if eof {
        // Text with no tag that holds no move is no game, at the input's
        // end as before a tag: the same text is the same record whether
        // the input ends after it or a tag follows (where the pipeline
        // cuts a long record, it asks as if the input ended there).
        Some((n, tags || (body && holds_moves(data, mark))))
    } else {
        None
    }
}

/// Whether a tag line that lost its `[` starts at `i` (`Event "x"]`, as
/// the grammar's `tag_unopened` reads it): a name, blanks, a quoted value
/// and `]` last on the line. `Some(Some(end))`, the end of its `]`, when
/// it does; `Some(None)` when not; `None` when more data is needed to tell.
#[cold]
#[inline(never)]
fn unopened_tag(data: &[u8], i: usize, eof: bool) -> Option<Option<usize>> {
    let line_end = match memchr::memchr2(b'\n', b'\r', &data[i..]) {
        Some(k) => i + k,
        None if eof => data.len(),
        None => return None,
    };
    let line = &data[i..line_end];
    let name = line
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    let mut k = name;
    while k < line.len() && matches!(line[k], b' ' | b'\t') {
        k += 1;
    }
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    let close = end;
    let mut q = end.saturating_sub(1);
    while q > k && matches!(line[q - 1], b' ' | b'\t') {
        q -= 1;
    }
    let tag = name > 0
        && line[0].is_ascii_alphabetic()
        && line.get(k) == Some(&b'"')
        && close > 0
        && line[close - 1] == b']'
        && q > k + 1
        && line[q - 1] == b'"';
    Some(tag.then_some(i + close))
}

/// Whether the line after the line end at `i` goes on with a tag split
/// across lines there, as the grammar reads it: inside its value
/// (`quoted`; `tag_wrapped`), a line that does not start with `[` and whose
/// first quote ends it or `]` follows last; after its name or value
/// (`tag_split`), a line that starts with `]`, or with a quote and ends
/// with `]` or holds no other quote (a value split again). `None` when more
/// data is needed to tell.
#[cold]
#[inline(never)]
fn tag_rest(data: &[u8], i: usize, quoted: bool, eof: bool) -> Option<bool> {
    let start = i + 1;
    let line_end = match memchr::memchr2(b'\n', b'\r', &data[start..]) {
        Some(k) => start + k,
        None if eof => data.len(),
        None => return None,
    };
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let line = &data[start..line_end];
    let from = line.iter().position(|b| !blank(b)).unwrap_or(line.len());
    let to = line.iter().rposition(|b| !blank(b)).map_or(from, |k| k + 1);
    let line = &line[from..to];
    Some(if quoted {
        line.first() != Some(&b'[')
            && memchr::memchr(b'"', line).is_some_and(|q| {
                let mut rest = line[q + 1..].iter().skip_while(|b| blank(b));
                matches!(rest.next(), None | Some(&b']')) && rest.next().is_none()
            })
    } else {
        match line {
            [b']', ..] | [b'"', .., b']'] => true,
            [b'"', rest @ ..] => !rest.contains(&b'"'),
            _ => false,
        }
    })
}

/// Whether a token's first byte can start movetext in some container
/// notation: a move, a move number, a result, a null move, a glyph or NAG.
/// Text between games that starts otherwise (a stray `ÿ`, `,`, `\\`) is no
/// game of its own: it is reported as text that belongs to no game.
fn starts_movetext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'$' | b'!' | b'?' | b'@' | b'+')
}

/// Whether a token is a result once its Unicode look-alike dashes are read
/// as `-` (`1–0`), as the reader's repair reads them.
#[cold]
#[inline(never)]
fn dashed_result(token: &[u8], results: &Results) -> bool {
    if memchr::memchr2(0xE2, 0xEF, token).is_none() || token.len() > 24 {
        return false;
    }
    let mut buf = [0u8; 24];
    let (mut i, mut n) = (0, 0);
    while i < token.len() {
        match repair::dash_len(&token[i..]) {
            Some(len) => {
                buf[n] = b'-';
                i += len;
            }
            None => {
                buf[n] = token[i];
                i += 1;
            }
        }
        n += 1;
    }
    results.is_token(&buf[..n])
}

/// The end of a result token written with blanks around its dash (`1 - 0`,
/// `2 -0`), as the grammars' `result_dash` reads it, starting at `start`:
/// `Some(None)` when there is none, `None` when more data is needed to tell.
#[cold]
#[inline(never)]
fn spaced_result_end(
    data: &[u8],
    start: usize,
    results: &Results,
    eof: bool,
) -> Option<Option<usize>> {
    let blanks = |mut i: usize| {
        while i < data.len() && matches!(data[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    for r in results.tokens() {
        let r = r.text;
        let Some(d) = r.bytes().position(|c| c == b'-') else {
            continue;
        };
        let (left, right) = (&r[..d], &r[d + 1..]);
        if !data[start..].starts_with(left.as_bytes()) {
            continue;
        }
        let dash = blanks(start + left.len());
        match data.get(dash) {
            Some(b'-') => {}
            Some(_) => continue,
            None if eof => continue,
            None => return None,
        }
        let right_at = blanks(dash + 1);
        let end = right_at + right.len();
        if end >= data.len() && !eof {
            return None;
        }
        if end != start + r.len()
            && data[right_at..].starts_with(right.as_bytes())
            && data.get(end).is_none_or(|&b| is_delim(b))
        {
            return Some(Some(end));
        }
    }
    Some(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::Records;

    const SCAN: Scanner = Scanner::new(&crate::family::draughts::DIALECT);

    fn split(text: &str, batch: usize) -> Vec<(String, usize, usize, bool)> {
        let mut r = Records::new(text.as_bytes(), &SCAN);
        let mut out = Vec::new();
        while let Some(b) = r.next_batch(batch).unwrap() {
            for rec in b.records {
                let s = String::from_utf8(b.data[rec.range].to_vec()).unwrap();
                out.push((s, rec.line, rec.col, rec.is_game));
            }
        }
        out
    }

    #[test]
    fn splits_on_results_and_tags_with_positions() {
        let text = "{ file }\n[Event \"a [1-0]\"]\n1. 32-28 {1-0 ; [x]} 1-0\n[Event \"b\"]\n1. 33-29\n[Event \"c\"]\n1. 1-6 *";
        for batch in [1, 7, 1 << 20] {
            let recs = split(text, batch);
            assert_eq!(recs.len(), 3, "batch {batch}: {recs:?}");
            assert!(recs[0].0.ends_with("1-0"));
            assert_eq!((recs[1].1, recs[1].2), (3, 25));
            assert!(recs[1].0.contains("33-29") && !recs[1].0.contains("Event \"c"));
            assert_eq!(recs[2].1, 6);
            assert!(recs[2].0.ends_with('*'));
        }
    }

    #[test]
    fn trailing_comment_is_no_game_and_bom_is_dropped() {
        let recs = split("\u{feff}1. 32-28 1-0\n{ the end }\n", 4);
        assert_eq!(recs.len(), 2);
        assert!(recs[0].0.starts_with("1."));
        assert!(!recs[1].3);
    }

    #[test]
    fn stray_closing_brace_does_not_hang() {
        let recs = split("1. 32-28 { a { b } } 1-0", 1 << 20);
        assert_eq!(recs.len(), 1);
    }

    #[test]
    fn a_bom_between_concatenated_files_is_blank() {
        let recs = split("1. 32-28 *\n\u{feff}[Event \"x\"]\n1. 33-29 *", 1 << 20);
        assert_eq!(recs.len(), 2, "{recs:?}");
        assert!(recs[1].0.contains("[Event"));
    }

    #[test]
    fn result_inside_a_variation_does_not_split() {
        let recs = split("1. 32-28 (1. 33-29 1-0) 18-23 0-1", 1 << 20);
        assert_eq!(recs.len(), 1);
    }

    #[test]
    fn damage_is_bounded_by_the_next_tags() {
        let cases: &[(&str, &[&str])] = &[
            // A repeated tag name after a blank line starts a record; a blank
            // line alone does not.
            (
                "[Event \"A\"]\n[Site \"s\"]\n\n[Event \"B\"]\n1. 32-28 *",
                &[
                    "[Event \"A\"]\n[Site \"s\"]\n\n",
                    "[Event \"B\"]\n1. 32-28 *",
                ],
            ),
            (
                "[Event \"A\"]\n\n[Site \"s\"]\n1. 32-28 *",
                &["[Event \"A\"]\n\n[Site \"s\"]\n1. 32-28 *"],
            ),
            // A doubled `[` is the same name.
            (
                "[GameType \"20\"]\n\n[[GameType \"20\"]\n1. 32-28 *",
                &["[GameType \"20\"]\n\n", "[[GameType \"20\"]\n1. 32-28 *"],
            ),
            // Without a blank line before it, a repeated name stays in its
            // section (as kifu writes a game that has it twice).
            (
                "[Event \"A\"]\n[Event \"B\"]\n1. 32-28 *",
                &["[Event \"A\"]\n[Event \"B\"]\n1. 32-28 *"],
            ),
            // A tag cut short at the end of the input counts too.
            (
                "[Event \"A\"]\n\n[Event ",
                &["[Event \"A\"]\n\n", "[Event "],
            ),
            // A comment or variation left open ends at a tag line after
            // movetext, not before it.
            (
                "1. 32-28 { a\nb [Event \"x\"]\n[Event \"B\"]\n1. 33-29 {c} *",
                &[
                    "1. 32-28 { a\nb [Event \"x\"]\n",
                    "[Event \"B\"]\n1. 33-29 {c} *",
                ],
            ),
            (
                "1. 32-28 (19-23 1-0\r\n  [Event \"B\"]\n1. 33-29 *",
                &["1. 32-28 (19-23 1-0\r\n  ", "[Event \"B\"]\n1. 33-29 *"],
            ),
            (
                "{ intro\n[Event \"A\"]\n1. 32-28 { x } *",
                &["{ intro\n[Event \"A\"]\n1. 32-28 { x } *"],
            ),
            // Stray text on a tag line is no movetext; a move number is.
            (
                "[Event \"A\"]^M\n[Site \"s\"] x\n1. 32-28 *",
                &["[Event \"A\"]^M\n[Site \"s\"] x\n1. 32-28 *"],
            ),
            (
                "[Event \"A\"] 1. 32-28\n[Event \"B\"] 1. 33-29",
                &["[Event \"A\"] 1. 32-28\n", "[Event \"B\"] 1. 33-29"],
            ),
            // Tagless games a blank line apart: `1.` after a blank line,
            // once past move 1 (here, a move), starts a game; not in a
            // variation, nor `1...`.
            (
                "1. 32-28 19-23 2. 33-29\n\n1. 31-27 *",
                &["1. 32-28 19-23 2. 33-29\n\n", "1. 31-27 *"],
            ),
            (
                "1. 32-28 {c}\n\n1... 19-23 2. 33-29 (2. 31-27\n\n1. 34-30) *",
                &["1. 32-28 {c}\n\n1... 19-23 2. 33-29 (2. 31-27\n\n1. 34-30) *"],
            ),
            // `;` and `%` lines end at a lone CR too.
            (
                "[Event \"A\"]\r1. 32-28 ; c\r[Event \"B\"]\n1. 33-29 *",
                &["[Event \"A\"]\r1. 32-28 ; c\r", "[Event \"B\"]\n1. 33-29 *"],
            ),
        ];
        for &(text, want) in cases {
            for batch in [1, 5, 1 << 20] {
                let got: Vec<String> = split(text, batch).into_iter().map(|r| r.0).collect();
                assert_eq!(got, want, "batch {batch}: {text:?}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Passing over the tokens that start with two digits at once ends
        /// every record where reading each whole does, in every container
        /// dialect, on movetext of moves, numbers, results (spaced too),
        /// tags, comments, variations and blank lines, cut anywhere.
        #[test]
        fn two_digit_tokens_end_records_where_reading_them_whole_does(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "12.", "1.", "10.", "32-28", "12-17", "10x19", "28x19x10", "e4", "Nf3", "19-23",
                "1-0", "0-1", "2-0", "1-1", "0-2", "1/2-1/2", "1 - 0", "12 - 0", "10 -", "11-",
                "*", "{12-0}", "(", ")", "[Event \"x\"]", "\n\n", "\n", " ", "1\u{2013}0",
                "12\u{2013}0", "2:0", "01", "100", "1.", "11...", "%e\n", "1-", "- 0",
            ]), 0..40),
            cut in 0usize..400,
        ) {
            let text: String = pieces.join(" ");
            let data = text.as_bytes();
            for dialect in [
                &crate::family::draughts::DIALECT,
                &crate::family::chess::DIALECT,
            ] {
                let mut from = 0;
                while from < data.len() {
                    let end = (from + cut).min(data.len());
                    for eof in [false, true] {
                        let rest = &data[from..if eof { data.len() } else { end }];
                        proptest::prop_assert_eq!(
                            scan_end(rest, dialect, eof, two_digits_pass(dialect)),
                            scan_end(rest, dialect, eof, false),
                            "{:?}",
                            String::from_utf8_lossy(rest)
                        );
                    }
                    match scan_end(&data[from..], dialect, true, false) {
                        Some((k, _)) if k > 0 => from += k,
                        _ => break,
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The scan over the data read so far (not the input's end) says
        /// nothing, or what it says over the whole input: where a record
        /// ends and whether it holds a game never depend on where a read
        /// stopped. The member found first: move numbers alone, then a
        /// tag whose head the data cut (`[Res`), were a game; over the
        /// whole input, text between games.
        #[test]
        fn the_scan_of_a_prefix_says_nothing_or_what_the_whole_says(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "1.", "12.", "3...", "e4", "O-O", "32-28", "$22", "Some", "text", "{c}",
                "{open", "}", ";c\n", "%e\n", "(", ")", "*", "1-0", "2-0", "1 - 0",
                "[Event \"x\"]", "[Result \"2-0\"]", "[ Site \"y\"]", "[pgn]", "[/pgn]",
                "Event \"z\"]", "\n\n", "\n", " ", "\t",
            ]), 0..30),
        ) {
            let text: String = pieces.concat();
            let data = text.as_bytes();
            for dialect in [
                &crate::family::draughts::DIALECT,
                &crate::family::chess::DIALECT,
            ] {
                let whole = container_end(data, dialect, true);
                for k in 0..data.len() {
                    if let Some(said) = container_end(&data[..k], dialect, false) {
                        proptest::prop_assert_eq!(
                            Some(said),
                            whole,
                            "{:?} cut at {}",
                            text,
                            k
                        );
                    }
                }
            }
        }
    }
}
