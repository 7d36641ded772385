//! Record splitting and the parallel, ordered conversion pipeline.
//!
//! Records are cut from the input stream by a cheap byte scan, a batch at a
//! time, so memory is bounded by the batch size whatever the archive size.
//! The records of a batch are converted in parallel (rayon) and written in
//! input order.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::ops::Range;

use rayon::prelude::*;

use crate::container::dialect::{Dialect, Results};
use crate::error::{Diagnostic, Error, Problem, Severity};
use crate::format::{Format, Framing, ReadOptions, Split, WriteOptions};
use crate::interchange::json::Nesting;

/// One record found in the input.
#[derive(Debug, Clone)]
pub struct RawRecord {
    /// Its bytes in the batch's data.
    pub range: Range<usize>,
    /// 1-based line of its first byte in the whole input.
    pub line: usize,
    /// 1-based column of its first byte.
    pub col: usize,
    /// False for text that holds no game (whitespace and comments only).
    pub is_game: bool,
    /// For a record over the size limit, its size in bytes: it was skipped
    /// while reading, and `range` is empty.
    pub oversize: Option<u64>,
}

/// Consecutive records and the bytes they lie in.
#[derive(Debug, Default)]
pub struct Batch {
    /// The bytes.
    pub data: Vec<u8>,
    /// The records, in input order.
    pub records: Vec<RawRecord>,
}

/// Splits a stream into records, a batch at a time.
pub struct Records<R: Read> {
    reader: R,
    split: Split,
    buf: Vec<u8>,
    eof: bool,
    started: bool,
    line: usize,
    col: usize,
    limit: usize,
}

/// Default batch size: enough records to keep every core busy.
pub const BATCH_BYTES: usize = 1 << 20;

/// Default limit on the size of one record (`--max-record-size`): reading a
/// game costs a few tens of times its size in memory, and the largest games
/// of real archives (heavily annotated ones) are tens of kilobytes.
pub const MAX_RECORD: usize = 16 << 20;

/// Where a record over the size limit ends, found while streaming past it
/// without keeping it: the state of a scan that goes on chunk by chunk.
enum Skip {
    /// Before a line that starts with `[`, a tag (container formats);
    /// `line_start` says the last byte seen ended a line.
    Tag { line_start: bool },
    /// After the next line end (JSON Lines).
    Line,
    /// After the element's closing bracket, or before a `,` outside any
    /// bracket (JSON arrays).
    Json(Nesting),
    /// After the next blank line (scoresheets); `blank` says the line so
    /// far holds nothing but spaces.
    Blank { blank: bool },
}

impl Skip {
    fn new(split: Split) -> Skip {
        match split {
            Split::Container { .. } => Skip::Tag { line_start: false },
            Split::Lines => Skip::Line,
            Split::JsonArray => Skip::Json(Nesting::default()),
            Split::Sheet => Skip::Blank { blank: false },
        }
    }

    /// Where the record ends in the next chunk of it, if it does.
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        match self {
            Skip::Tag { line_start } => {
                if *line_start && data.first() == Some(&b'[') {
                    return Some(0);
                }
                let end = memchr::memmem::find(data, b"\n[").map(|i| i + 1);
                *line_start = data.last() == Some(&b'\n');
                end
            }
            Skip::Line => memchr::memchr(b'\n', data).map(|i| i + 1),
            Skip::Json(scan) => scan.element_end(data),
            Skip::Blank { blank } => {
                for (i, &b) in data.iter().enumerate() {
                    match b {
                        b'\n' if *blank => return Some(i + 1),
                        b'\n' => *blank = true,
                        b' ' | b'\r' => {}
                        _ => *blank = false,
                    }
                }
                None
            }
        }
    }
}

impl<R: Read> Records<R> {
    /// A splitter over a stream.
    pub fn new(reader: R, split: Split) -> Records<R> {
        Records {
            reader,
            split,
            buf: Vec::new(),
            eof: false,
            started: false,
            line: 1,
            col: 1,
            limit: MAX_RECORD,
        }
    }

    /// Refuses records over `limit` bytes (the default is [`MAX_RECORD`]):
    /// each is skipped while reading, without being kept whole, and comes
    /// as a record of its own with its size in `oversize`.
    pub fn with_limit(mut self, limit: usize) -> Records<R> {
        self.limit = limit.max(1);
        self
    }

    /// Passes the record at the start of the buffer, which is over the
    /// limit, and returns it as a batch of its own: its position and its
    /// size, not its bytes. `len` is its length when the scan found its end
    /// in the buffer; otherwise it is streamed past, a chunk at a time.
    fn skip_oversize(&mut self, len: Option<usize>) -> io::Result<Batch> {
        // Point at its first character that is not blank.
        let lead = self.buf.len() - self.buf.trim_ascii_start().len();
        let lead = lead.min(len.unwrap_or(usize::MAX));
        advance(&self.buf[..lead], &mut self.line, &mut self.col);
        self.buf.drain(..lead);
        let (line, col) = (self.line, self.col);
        let size = match len {
            Some(len) => self.pass(len - lead),
            None => self.stream_past()?,
        };
        Ok(Batch {
            data: Vec::new(),
            records: vec![RawRecord {
                range: 0..0,
                line,
                col,
                is_game: true,
                oversize: Some(size),
            }],
        })
    }

    /// Drops the first `n` bytes of the buffer, moving the position past
    /// them.
    fn pass(&mut self, n: usize) -> u64 {
        advance(&self.buf[..n], &mut self.line, &mut self.col);
        self.buf.drain(..n);
        n as u64
    }

    /// Streams past a record whose end the buffer does not hold; returns
    /// its size.
    fn stream_past(&mut self) -> io::Result<u64> {
        let mut skip = Skip::new(self.split);
        // No end in the first `limit` bytes: past the tags (and a
        // scoresheet's header), the record ends where the next one can
        // start. A JSON element is scanned from its start, for its depth.
        let mut from = match self.split {
            Split::JsonArray => 0,
            _ => self.limit.min(self.buf.len()),
        };
        let mut size = 0;
        loop {
            if let Some(end) = skip.end(&self.buf[from..]) {
                return Ok(size + self.pass(from + end));
            }
            size += self.pass(self.buf.len());
            from = 0;
            if self.eof {
                return Ok(size);
            }
            self.fill(BATCH_BYTES)?;
        }
    }

    fn fill(&mut self, want: usize) -> io::Result<()> {
        while !self.eof && self.buf.len() < want {
            let old = self.buf.len();
            let grow = (want - old).max(64 * 1024);
            self.buf.resize(old + grow, 0);
            let n = loop {
                match self.reader.read(&mut self.buf[old..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.buf.truncate(old);
                        return Err(e);
                    }
                }
            };
            self.buf.truncate(old + n);
            if n == 0 {
                self.eof = true;
            }
        }
        if !self.started && (self.buf.len() >= 3 || self.eof) {
            self.started = true;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
            }
        }
        Ok(())
    }

    /// The next batch of about `target` bytes of records; `None` at the end.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        let mut target = target.max(1);
        loop {
            self.fill(target)?;
            let mut records = Vec::new();
            let mut p = 0;
            while p < self.buf.len() && p < target {
                match find_end(&self.buf[p..], self.split, self.eof) {
                    Some((len, is_game)) => {
                        if len > self.limit && records.is_empty() {
                            return self.skip_oversize(Some(len)).map(Some);
                        }
                        if len > self.limit {
                            // Left for the next batch, where it comes first.
                            break;
                        }
                        records.push(RawRecord {
                            range: p..p + len,
                            line: self.line,
                            col: self.col,
                            is_game,
                            oversize: None,
                        });
                        advance(&self.buf[p..p + len], &mut self.line, &mut self.col);
                        p += len;
                    }
                    None => break,
                }
            }
            if !records.is_empty() || (self.eof && p >= self.buf.len()) {
                if records.is_empty() {
                    return Ok(None);
                }
                let tail = self.buf.split_off(p);
                let data = std::mem::replace(&mut self.buf, tail);
                return Ok(Some(Batch { data, records }));
            }
            if self.buf.len() > self.limit {
                return self.skip_oversize(None).map(Some);
            }
            // One record is larger than the target: read more, up to the
            // limit and a byte.
            target = target.saturating_mul(2).min(self.limit + 1);
        }
    }
}

/// Moves a line/column position over some bytes.
fn advance(bytes: &[u8], line: &mut usize, col: &mut usize) {
    match memchr::memrchr(b'\n', bytes) {
        Some(last) => {
            *line += memchr::memchr_iter(b'\n', bytes).count();
            *col = 1 + chars(&bytes[last + 1..]);
        }
        None => *col += chars(bytes),
    }
}

fn chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

/// Finds the end of the record that starts at `data[0]`: its length and
/// whether it holds a game. `None` when more data is needed to tell.
pub fn find_end(data: &[u8], split: Split, eof: bool) -> Option<(usize, bool)> {
    match split {
        Split::Container { dialect } => container_end(data, dialect, eof),
        Split::Lines => match memchr::memchr(b'\n', data) {
            Some(i) => Some((i + 1, !data[..i].trim_ascii().is_empty())),
            None if eof => Some((data.len(), !data.trim_ascii().is_empty())),
            None => None,
        },
        Split::JsonArray => json_element_end(data, eof),
        Split::Sheet => sheet_end(data, eof),
    }
}

/// The scan of scoresheets: blank lines (empty, or spaces only), then a
/// header block up to a blank line, then the grid up to the next blank line
/// (not included) or the end. A record may have no header when it starts
/// with the grid heading. Grid lines of empty cells hold tabs: not blank.
fn sheet_end(data: &[u8], eof: bool) -> Option<(usize, bool)> {
    #[derive(PartialEq)]
    enum State {
        Lead,
        Header,
        Gap,
        Grid,
    }
    let n = data.len();
    let mut state = State::Lead;
    let mut i = 0;
    while i < n {
        let end = match memchr::memchr(b'\n', &data[i..]) {
            Some(j) => i + j + 1,
            None if eof => n,
            None => return None,
        };
        let line = &data[i..end];
        let blank = line.iter().all(|&b| matches!(b, b' ' | b'\r' | b'\n'));
        state = match (state, blank) {
            (State::Lead, true) => State::Lead,
            (State::Lead, false) if line.starts_with(b"NUMBER OF THE MOVE") => State::Grid,
            (State::Lead | State::Header, false) => State::Header,
            (State::Header | State::Gap, true) => State::Gap,
            (State::Gap | State::Grid, false) => State::Grid,
            (State::Grid, true) => return Some((i, true)),
        };
        i = end;
    }
    if eof {
        Some((n, state != State::Lead))
    } else {
        None
    }
}

/// The bytes that end a movetext token for the record scan.
static DELIM: [bool; 256] = {
    let mut t = [false; 256];
    let delims = b" \t\n\x0c\r{}()[];";
    let mut i = 0;
    while i < delims.len() {
        t[delims[i] as usize] = true;
        i += 1;
    }
    t
};

fn is_delim(b: u8) -> bool {
    DELIM[usize::from(b)]
}

/// Whether a line that holds a tag starts at `i`: spaces or tabs, then
/// `[Name "` (the grammar's `tag_head`). False when the data ends first.
fn tag_head(data: &[u8], mut i: usize) -> bool {
    let n = data.len();
    while i < n && matches!(data[i], b' ' | b'\t') {
        i += 1;
    }
    if i + 1 >= n || data[i] != b'[' || !data[i + 1].is_ascii_alphabetic() {
        return false;
    }
    i += 2;
    while i < n && (data[i].is_ascii_alphanumeric() || data[i] == b'_') {
        i += 1;
    }
    while i < n && matches!(data[i], b' ' | b'\t') {
        i += 1;
    }
    i < n && data[i] == b'"'
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

/// Whether `i` is at the start of a line, or after spaces and tabs there.
fn line_start(data: &[u8], mut i: usize) -> bool {
    while i > 0 && matches!(data[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    i == 0 || matches!(data[i - 1], b'\n' | b'\r')
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
/// after one of the dialect's result tokens outside variations. Damage is bounded too: a record
/// ends before a tag whose name its tag section already has (a game of tags
/// only), and before a line that starts with a tag inside a comment or
/// variation left open after movetext. Text after a tag's `]` on its line
/// is movetext only when it starts with a digit (stray text is skipped by
/// the grammar; a game written on its tag line starts with a move number).
fn container_end(data: &[u8], dialect: &Dialect, eof: bool) -> Option<(usize, bool)> {
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
    let mut names = Names {
        hashes: 0,
        at: [(0, 0); 16],
        len: 0,
    };
    // Where the last tag's `]` ended.
    let mut tag_end = None;
    let at_line_start = |i: usize| i == 0 || matches!(data[i - 1], b'\n' | b'\r');
    while i < n {
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
                if body && (depth == 0 || (line_start(data, i) && tag_head(data, i))) {
                    return Some((i, true));
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
                        b'"' if data[i - 1] != b'\\' => quoted = !quoted,
                        b']' if !quoted => {
                            i += 1;
                            tag_end = Some(i);
                            break;
                        }
                        b'\n' => break,
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
            // A BOM where files were concatenated is blank too.
            0xEF if data[i..].starts_with(b"\xEF\xBB\xBF") => i += 3,
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
                            Some(Some(end)) => return Some((end, true)),
                            Some(None) => {}
                            None => return None,
                        }
                    }
                    if results.is_token(token) {
                        return Some((i, true));
                    }
                }
                if !body {
                    // On a tag's line, only a move number starts movetext.
                    let on_tag_line = tag_end.is_some_and(|e: usize| {
                        memchr::memchr2(b'\n', b'\r', &data[e..start]).is_none()
                    });
                    body = !on_tag_line || b.is_ascii_digit();
                }
            }
        }
    }
    if eof {
        Some((n, tags || body))
    } else {
        None
    }
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

/// The scan of a JSON array: each element is a record; the brackets, commas
/// and whitespace around elements belong to no game.
fn json_element_end(data: &[u8], eof: bool) -> Option<(usize, bool)> {
    let n = data.len();
    let mut i = 0;
    while i < n && (data[i].is_ascii_whitespace() || matches!(data[i], b'[' | b']' | b',')) {
        i += 1;
    }
    if i > 0 {
        return Some((i, false));
    }
    if let Some(end) = Nesting::default().element_end(data) {
        return Some((end, true));
    }
    if eof {
        Some((n, true))
    } else {
        None
    }
}

/// A conversion from one format to another.
pub struct Converter<'a> {
    /// The input format.
    pub from: &'a Format,
    /// The output format.
    pub to: &'a Format,
    /// Reading options.
    pub read: ReadOptions,
    /// Writing options.
    pub write: WriteOptions,
}

/// What converting one record gave.
#[derive(Debug)]
pub enum Converted {
    /// The game, written, and the warnings.
    Game(String, Vec<Problem>),
    /// The record failed.
    Failed(Problem),
}

impl Converter<'_> {
    /// Converts one record.
    pub fn convert(&self, bytes: &[u8]) -> Converted {
        let mut warnings = Vec::new();
        let decoded;
        let text = match std::str::from_utf8(bytes) {
            // A BOM left inside the input by concatenating files: a space.
            Ok(t) if memchr::memmem::find(bytes, "\u{feff}".as_bytes()).is_some() => {
                decoded = t.replace('\u{feff}', " ");
                decoded.as_str()
            }
            Ok(t) => t,
            Err(_) => {
                decoded = bytes.iter().map(|&b| char::from(b)).collect::<String>();
                warnings.push(Problem::whole("not UTF-8: read as Latin-1"));
                decoded.as_str()
            }
        };
        let (Some(read), Some(write)) = (self.from.read, self.to.write) else {
            return Converted::Failed(Problem::whole("format cannot be read or written"));
        };
        let parsed = match read(text, &self.read) {
            Ok(p) => p,
            Err(e) => return Converted::Failed(e),
        };
        warnings.extend(parsed.warnings);
        if let Some(family) = self.to.family {
            if parsed.game.family() != family {
                return Converted::Failed(Problem::whole(format!(
                    "a {} game cannot be written as {}",
                    parsed.game.family().name(),
                    self.to.name
                )));
            }
        }
        let mut out = String::with_capacity(bytes.len() + bytes.len() / 4);
        match write(&parsed.game, &self.write, &mut out) {
            Ok(w) => {
                warnings.extend(w);
                Converted::Game(out, warnings)
            }
            Err(e) => Converted::Failed(e),
        }
    }
}

/// An output stream with its format's framing.
pub struct Sink<W: Write> {
    out: W,
    framing: Framing,
    games: usize,
    name: String,
}

impl<W: Write> Sink<W> {
    /// A sink writing a format's games to `out`, called "output" in errors.
    pub fn new(out: W, framing: Framing) -> Sink<W> {
        Sink {
            out,
            framing,
            games: 0,
            name: "output".to_string(),
        }
    }

    /// The same sink, named in errors as `name` (a path, "standard output").
    pub fn named(mut self, name: impl Into<String>) -> Sink<W> {
        self.name = name.into();
        self
    }

    /// What errors call this output.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one game.
    pub fn game(&mut self, text: &str) -> io::Result<()> {
        let sep = if self.games == 0 {
            self.framing.head
        } else {
            self.framing.between
        };
        self.out.write_all(sep.as_bytes())?;
        self.out.write_all(text.as_bytes())?;
        self.games += 1;
        Ok(())
    }

    /// Ends the output and gives the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        if self.games == 0 {
            self.out.write_all(self.framing.head.as_bytes())?;
        }
        self.out.write_all(self.framing.tail.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Games converted.
    pub converted: usize,
    /// Games that failed.
    pub failed: usize,
    /// Warnings given.
    pub warnings: usize,
}

impl std::ops::AddAssign for Summary {
    fn add_assign(&mut self, o: Summary) {
        self.converted += o.converted;
        self.failed += o.failed;
        self.warnings += o.warnings;
    }
}

/// Where the pipeline reports to.
pub struct Report<'r> {
    /// Receives every diagnostic that should be shown.
    pub diagnostic: &'r mut dyn FnMut(&Diagnostic),
    /// Receives the original bytes of every failed record (`--rejects`).
    pub reject: Option<&'r mut dyn Write>,
    /// Called with the number of input bytes done after each batch.
    pub progress: &'r mut dyn FnMut(usize),
    /// Stop at the first error, and count warnings as errors.
    pub strict: bool,
}

/// Converts one input stream into a sink. Failed games are reported and
/// skipped; with `strict`, the first one ends the run with an error.
pub fn convert_stream<R: Read + Send, W: Write>(
    input: R,
    name: &str,
    conv: &Converter<'_>,
    sink: &mut Sink<W>,
    report: &mut Report<'_>,
) -> Result<Summary, Error> {
    let io_err = |e: io::Error| Error::io(name, e);
    let limit = conv.read.max_record.unwrap_or(MAX_RECORD);
    let mut records = Records::new(input, conv.from.split).with_limit(limit);
    let mut summary = Summary::default();
    // Games seen so far in this input; messages number them from 1.
    let mut game_index = 0usize;
    // Identical warnings are shown once per input, then counted.
    // Each warning message once, with how many more times it came.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut repeats: Vec<(String, usize)> = Vec::new();
    let mut next = records.next_batch(BATCH_BYTES).map_err(io_err)?;
    while let Some(batch) = next {
        // Convert this batch while the next one is read and split.
        let (results, following) = rayon::join(
            || {
                batch
                    .records
                    .par_iter()
                    .map(|r| match r.oversize {
                        Some(size) => Some(Converted::Failed(too_large(size, limit))),
                        None => r
                            .is_game
                            .then(|| conv.convert(&batch.data[r.range.clone()])),
                    })
                    .collect::<Vec<Option<Converted>>>()
            },
            || records.next_batch(BATCH_BYTES),
        );
        next = following.map_err(io_err)?;
        for (rec, result) in batch.records.iter().zip(results) {
            let bytes = &batch.data[rec.range.clone()];
            let Some(result) = result else {
                if has_text(bytes, conv.from.split) {
                    let (line, col) = locate(bytes, rec, &Problem::whole(""));
                    summary.warnings += 1;
                    let message = match game_index {
                        0 => "comments that belong to no game: not written".to_string(),
                        n => format!("comments after game {n} belong to no game: not written"),
                    };
                    (report.diagnostic)(&Diagnostic {
                        severity: Severity::Warning,
                        file: name.to_string(),
                        line,
                        col,
                        game: 0,
                        message,
                    });
                }
                continue;
            };
            game_index += 1;
            let diag = |p: &Problem, severity| {
                let (line, col) = locate(bytes, rec, p);
                Diagnostic {
                    severity,
                    file: name.to_string(),
                    line,
                    col,
                    game: game_index,
                    message: p.message.clone(),
                }
            };
            // The text of a failed game goes to --rejects, --strict or not.
            let reject = |report: &mut Report<'_>| match report.reject.as_mut() {
                Some(rej) => rej.write_all(bytes).map_err(|e| Error::io("rejects", e)),
                None => Ok(()),
            };
            match result {
                Converted::Game(text, warnings) => {
                    if report.strict {
                        if let Some(w) = warnings.first() {
                            reject(report)?;
                            return Err(Error::Strict(diag(w, Severity::Error)));
                        }
                    }
                    for w in &warnings {
                        summary.warnings += 1;
                        match seen.get(&w.message) {
                            Some(&i) => repeats[i].1 += 1,
                            None => {
                                seen.insert(w.message.clone(), repeats.len());
                                repeats.push((w.message.clone(), 0));
                                (report.diagnostic)(&diag(w, Severity::Warning));
                            }
                        }
                    }
                    sink.game(&text).map_err(|e| Error::io(sink.name(), e))?;
                    summary.converted += 1;
                }
                Converted::Failed(p) => {
                    let d = diag(&p, Severity::Error);
                    reject(report)?;
                    if report.strict {
                        return Err(Error::Strict(d));
                    }
                    (report.diagnostic)(&d);
                    summary.failed += 1;
                }
            }
        }
        (report.progress)(batch.data.len());
    }
    // Repeated warnings, in the order they first appeared.
    for (message, more) in repeats {
        if more > 0 {
            (report.diagnostic)(&Diagnostic {
                severity: Severity::Warning,
                file: name.to_string(),
                line: 0,
                col: 0,
                game: 0,
                message: format!("{message} ({more} more like this)"),
            });
        }
    }
    Ok(summary)
}

/// The error for a record of `size` bytes, over the limit.
fn too_large(size: u64, limit: usize) -> Problem {
    Problem::whole(format!(
        "the game is {} long, over the limit of {} on one record: it was skipped (raise the limit with --max-record-size)",
        bytes_text(size),
        bytes_text(limit as u64)
    ))
}

/// A size in bytes as a person reads it: `130.0 MiB (136314880 bytes)`,
/// or `16 MiB` and `64 KiB` for a whole number of them.
fn bytes_text(n: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    match n {
        0 => "0 bytes".to_string(),
        _ if n % MIB == 0 => format!("{} MiB", n / MIB),
        _ if n % KIB == 0 && n < MIB => format!("{} KiB", n / KIB),
        _ if n >= MIB => format!("{:.1} MiB ({n} bytes)", n as f64 / MIB as f64),
        _ if n >= KIB => format!("{:.1} KiB ({n} bytes)", n as f64 / KIB as f64),
        _ => format!("{n} bytes"),
    }
}

/// Whether text between games (a record that holds no game) says anything:
/// whitespace is nothing, and in a JSON array neither are the brackets and
/// commas between elements.
fn has_text(bytes: &[u8], split: Split) -> bool {
    match split {
        Split::JsonArray => bytes
            .iter()
            .any(|b| !b.is_ascii_whitespace() && !matches!(b, b'[' | b']' | b',')),
        _ => !bytes.trim_ascii().is_empty(),
    }
}

/// The position in the whole input of a problem in a record. A problem with
/// no position points at the record's first non-blank character.
fn locate(bytes: &[u8], rec: &RawRecord, p: &Problem) -> (usize, usize) {
    let (line, col) = if p.line == 0 {
        let skip = bytes.len() - bytes.trim_ascii_start().len();
        let (mut l, mut c) = (1, 1);
        advance(&bytes[..skip], &mut l, &mut c);
        (l, c)
    } else {
        (p.line, p.col)
    };
    if line == 1 {
        (rec.line, rec.col + col - 1)
    } else {
        (rec.line + line - 1, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIALECT: &Dialect = &crate::family::draughts::pdn::DIALECT;

    fn split(text: &str, batch: usize) -> Vec<(String, usize, usize, bool)> {
        let mut r = Records::new(text.as_bytes(), Split::Container { dialect: DIALECT });
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

    #[test]
    fn sheets_end_at_the_blank_line_after_their_grid() {
        let one = "WHITE\tA\n\nNUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th\n01\t\t\t\t\t4\t\t\t\n\t\t\t\t\t\t\t\t\n";
        let two = "\nWHITE\tB\n\n\nNUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th\n01\t\t\t\t\t4\t\t\t";
        let text = format!("\n{one}{two}\n\n");
        for batch in [1, 9, 1 << 20] {
            let mut r = Records::new(text.as_bytes(), Split::Sheet);
            let mut recs = Vec::new();
            while let Some(b) = r.next_batch(batch).unwrap() {
                for rec in b.records {
                    let s = String::from_utf8(b.data[rec.range].to_vec()).unwrap();
                    recs.push((s, rec.line, rec.is_game));
                }
            }
            // The all-empty Black line (tabs only) stays in the first grid.
            assert_eq!(recs.len(), 3, "batch {batch}: {recs:?}");
            assert_eq!(recs[0], (format!("\n{one}"), 1, true));
            assert_eq!(recs[1], (format!("{two}\n"), 7, true));
            assert_eq!(recs[2], ("\n".to_string(), 13, false));
        }
    }

    #[test]
    fn records_over_the_limit_are_passed_in_every_split() {
        let long = "x".repeat(300);
        let cases = [
            (
                3,
                Split::Container { dialect: DIALECT },
                format!("[E \"a\"]\n1. 32-28 *\n[E \"b\"]\n1. {long}\n[E \"c\"]\n1. 33-29 *\n"),
            ),
            (
                2,
                Split::Lines,
                format!("{{\"a\":1}}\n{{\"b\":\"{long}\"}}\n{{\"c\":1}}\n"),
            ),
            (
                2,
                Split::JsonArray,
                format!("[{{\"a\":1}},\n{{\"b\":[\"]\",{{\"{long}\":[]}}]}},\n{{\"c\":1}}]\n"),
            ),
        ];
        for (line, split, text) in cases {
            for batch in [1, 7, 1 << 20] {
                let mut r = Records::new(text.as_bytes(), split).with_limit(100);
                let mut recs = Vec::new();
                while let Some(b) = r.next_batch(batch).unwrap() {
                    for rec in b.records.into_iter().filter(|r| r.is_game) {
                        let s = String::from_utf8(b.data[rec.range].to_vec()).unwrap();
                        recs.push((s, rec.line, rec.oversize.is_some()));
                    }
                }
                let text = &text;
                assert_eq!(recs.len(), 3, "{batch} {text}: {recs:?}");
                assert!(recs[0].0.contains('a') && !recs[0].2, "{recs:?}");
                assert_eq!((recs[1].1, recs[1].2), (line, true), "{text}: {recs:?}");
                assert!(recs[2].0.contains('c') && !recs[2].2, "{text}: {recs:?}");
            }
        }
    }

    #[test]
    fn json_array_elements() {
        let text = b"[\n{\"a\":\"}\\\"\"},\n{\"b\":[1,{}]}\n]\n";
        let mut r = Records::new(&text[..], Split::JsonArray);
        let b = r.next_batch(1 << 20).unwrap().unwrap();
        let games: Vec<&[u8]> = b
            .records
            .iter()
            .filter(|r| r.is_game)
            .map(|r| &b.data[r.range.clone()])
            .collect();
        assert_eq!(
            games,
            vec![&b"{\"a\":\"}\\\"\"}"[..], &b"{\"b\":[1,{}]}"[..]]
        );
    }
}
