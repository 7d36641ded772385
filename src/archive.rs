//! The pipeline: input -> records -> f(record) in parallel -> results in
//! input order.
//!
//! - [`Records`] cuts a stream into records, a batch at a time, with the
//!   [`Scan`] its format supplies (the registry's `split`), so memory is
//!   bounded by the batch size whatever the archive size. Records over the
//!   size limit are streamed past unread ([`Oversize`]).
//! - [`Records::par_map`] is the ordered parallel map: a function runs on
//!   every record of a batch in parallel (rayon) while the next batch is
//!   read, and the results come back in input order ([`Mapped`]).
//! - [`convert_stream`] is the conversion on top of it: a [`Converter`]
//!   reads and writes each record, and the games go to a [`Sink`] in order,
//!   with diagnostics and counts reported as they come.
//!
//! This module knows no format by name: scanners, readers and writers come
//! from the [`crate::format`] registry.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::ops::Range;

use crate::codec::{
    Frame, Games, Origin, Oversize, Piece, ReadOptions, Scan, WriteOptions, MAX_RECORD,
};
use crate::error::Kind;
use crate::error::{Diagnostic, Error, Problem, Severity};
use crate::format::Format;
use crate::policy::record_text;
pub use crate::policy::{
    claim_memory, claim_memory_at, no_memory, read_record, too_large, Claim, MEMORY_PER_BYTE,
    STREAMED_PER_BYTE, UNCLAIMED_RECORD,
};

mod parallel;
mod sink;

pub use parallel::*;
pub use sink::Sink;

/// One record found in the input.
#[derive(Debug, Clone)]
pub struct RawRecord {
    /// Its bytes in the batch's data.
    pub range: Range<usize>,
    /// Byte offset of its first byte in the stream read (a byte-order
    /// mark at the stream's start counted): where a reader of the same
    /// stream starting there finds the same records.
    pub offset: u64,
    /// 1-based line of its first byte in the whole input.
    pub line: usize,
    /// 1-based column of its first byte.
    pub col: usize,
    /// False for text that holds no game (whitespace and comments only).
    pub is_game: bool,
    /// For a record over the size limit, its size in bytes: it was skipped
    /// while reading, and `range` is empty.
    pub oversize: Option<u64>,
    /// True when such a record was skipped because the memory to hold its
    /// bytes could not be had, below the size limit.
    pub short_of_memory: bool,
}

/// Consecutive records and the bytes they lie in.
#[derive(Debug, Default)]
pub struct Batch {
    /// The bytes.
    pub data: Vec<u8>,
    /// The records, in input order.
    pub records: Vec<RawRecord>,
}

/// Splits a stream into records, a batch at a time, with a format's
/// [`Scan`].
pub struct Records<'s, R: Read> {
    reader: R,
    split: &'s dyn Scan,
    buf: Vec<u8>,
    /// The stream offset of `buf[0]`.
    pos: u64,
    eof: bool,
    started: bool,
    line: usize,
    col: usize,
    limit: usize,
    batch: usize,
    /// The last byte read that is not blank ([`Scan::end_after`]).
    before: Option<u8>,
}

/// Batch size of the pipeline: small enough that two batches per worker
/// in flight keep memory flat on many cores, large enough that handing one
/// to a worker costs nothing beside converting it.
pub const BATCH_BYTES: usize = 256 << 10;

/// The least a batch's buffer reads at once from its input
/// ([`Records::next_batch`]): the first weighed batch's size
/// ([`WEIGHED_FIRST_BATCH`]), so that a batch cut small by what its
/// results weigh reads about its own bytes.
const MIN_READ: usize = WEIGHED_FIRST_BATCH;

/// Where the records of an input end, and whether their document is whole
/// ([`Scan::frame`]): what `convert` and `diff` report after the games
/// before the damage.
pub struct Document {
    frame: Option<Box<dyn Frame>>,
    line: usize,
    col: usize,
}

impl Document {
    /// The check of a format's document, before its first record.
    pub fn new(split: &dyn Scan) -> Document {
        Document {
            frame: split.frame(),
            line: 1,
            col: 1,
        }
    }

    /// Takes each record, in input order. Where the format has no
    /// document (PGN's records stand alone), nothing is kept: the records'
    /// lines are not counted a second time.
    pub fn record(&mut self, rec: &Record<'_>) {
        if let Some(frame) = self.frame.as_mut() {
            (self.line, self.col) = (rec.line, rec.col);
            advance(rec.bytes, &mut self.line, &mut self.col);
            frame.record(rec.bytes, rec.is_game);
        }
    }

    /// At the end of the input, when the document was cut short: the
    /// line and column where it ends, and what it lacks.
    pub fn cut(&self) -> Option<(usize, usize, String)> {
        let what = self.frame.as_ref()?.cut()?;
        Some((self.line, self.col, what))
    }
}

impl<'s, R: Read> Records<'s, R> {
    /// A splitter over a stream, finding records with a format's scan
    /// (its [`Format::split`]).
    pub fn new(reader: R, split: &'s dyn Scan) -> Records<'s, R> {
        Records {
            reader,
            split,
            buf: Vec::new(),
            pos: 0,
            eof: false,
            started: false,
            line: 1,
            col: 1,
            limit: MAX_RECORD,
            batch: BATCH_BYTES,
            before: None,
        }
    }

    /// Cuts batches of about `bytes` (the default is [`BATCH_BYTES`]): a
    /// map whose results are far larger than their records (`diff` keeps
    /// each game's IR until it is paired) keeps fewer of them in flight.
    pub fn with_batch(mut self, bytes: usize) -> Records<'s, R> {
        self.batch = bytes.max(1);
        self
    }

    /// Refuses records over `limit` bytes (the default is [`MAX_RECORD`]):
    /// each is skipped while reading, without being kept whole, and comes
    /// as a record of its own with its size in `oversize`.
    pub fn with_limit(mut self, limit: usize) -> Records<'s, R> {
        self.limit = limit.max(1);
        self
    }

    /// Passes the record at the start of the buffer, which is over the
    /// limit, and returns it as a batch of its own: its position and its
    /// size, not its bytes. `len` is its length when the scan found its end
    /// in the buffer; otherwise it is streamed past, a chunk at a time.
    ///
    /// `is_game` is false for text the scan found to hold no game
    /// (comments), which is passed the same way but is no game over the
    /// limit.
    fn skip_oversize(
        &mut self,
        len: Option<usize>,
        short_of_memory: bool,
        is_game: bool,
    ) -> io::Result<Batch> {
        // Point at its first character that is not blank.
        let lead = self.buf.len() - self.buf.trim_ascii_start().len();
        let lead = lead.min(len.unwrap_or(usize::MAX));
        advance(&self.buf[..lead], &mut self.line, &mut self.col);
        self.buf.drain(..lead);
        self.pos += lead as u64;
        let (line, col, offset) = (self.line, self.col, self.pos);
        let size = match len {
            Some(len) => self.pass(len - lead),
            None => self.stream_past()?,
        };
        Ok(Batch {
            data: Vec::new(),
            records: vec![RawRecord {
                range: 0..0,
                offset,
                line,
                col,
                is_game,
                oversize: Some(size),
                short_of_memory,
            }],
        })
    }

    /// Passes the blank text at the start of the buffer (whitespace, and
    /// byte-order marks left by concatenating files), up to its last line
    /// end: text between games that holds none, however long, is never a
    /// record over the limit. Whether there was any: the caller scans
    /// again from the first character that is not blank, where the scan
    /// sees a line start as it does after any record. Only called where
    /// the record at the buffer's start is over the limit, so every other
    /// record keeps its bytes.
    fn pass_blank(&mut self) -> bool {
        let run = blank_run(&self.buf);
        let n = match memchr::memrchr(b'\n', &self.buf[..run]) {
            Some(last) => last + 1,
            None => run,
        };
        // A run that may go on past the buffer is passed whole.
        let n = if run == self.buf.len() { run } else { n };
        self.pass(n);
        n > 0
    }

    /// The record at the buffer's start, over the limit by the blank text
    /// at its end (`found`: its length and whether it holds a game, where
    /// the scan found its end), or whose end the blank text keeps out of
    /// the buffer: its text up to the line end after its last character
    /// that is not blank, as a batch of its own (where the scan does not
    /// know its end, it is asked as if the input ended there). The blank
    /// text after it is passed as the next record's lead
    /// ([`Records::pass_blank`]). `None` where the record is over the
    /// limit without its blank tail.
    fn cut_blank_tail(&mut self, found: Option<(usize, bool)>) -> Option<Batch> {
        let data = &self.buf[..found.map_or(self.buf.len(), |(len, _)| len)];
        let solid = data.trim_ascii_end().len();
        let keep = solid + memchr::memchr(b'\n', &data[solid..]).map_or(0, |i| i + 1);
        if solid == 0 || keep > self.limit || keep == data.len() {
            return None;
        }
        let (end, is_game) = match found {
            Some((_, is_game)) => (keep, is_game),
            None => self.split.end_after(&data[..keep], true, self.before)?,
        };
        let record = RawRecord {
            range: 0..end,
            offset: self.pos,
            line: self.line,
            col: self.col,
            is_game,
            oversize: None,
            short_of_memory: false,
        };
        let tail = self.buf.split_off(end);
        let data = std::mem::replace(&mut self.buf, tail);
        advance(&data, &mut self.line, &mut self.col);
        self.before = last_solid(&data).or(self.before);
        self.pos += end as u64;
        Some(Batch {
            data,
            records: vec![record],
        })
    }

    /// Drops the first `n` bytes of the buffer, moving the position past
    /// them.
    fn pass(&mut self, n: usize) -> u64 {
        advance(&self.buf[..n], &mut self.line, &mut self.col);
        self.before = last_solid(&self.buf[..n]).or(self.before);
        self.buf.drain(..n);
        self.pos += n as u64;
        n as u64
    }

    /// Streams past a record whose end the buffer does not hold; returns
    /// its size.
    fn stream_past(&mut self) -> io::Result<u64> {
        let Oversize {
            mut skip,
            from_start,
        } = self.split.oversize();
        // No end in the first `limit` bytes: the scan starts past them, or
        // at the record's start where the format says so.
        let mut from = if from_start {
            0
        } else {
            self.limit.min(self.buf.len())
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

    /// Reads until the buffer holds `want` bytes ([`MIN_READ`] at least a
    /// read) or the input ends, into
    /// the buffer's spare capacity without zeroing it first (`read_to_end`
    /// hands it to the reader as memory to fill, which a file or kifu's
    /// buffered readers write into directly): the buffer is a new one for
    /// each batch, which takes the last one's.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        while !self.eof && self.buf.len() < want {
            // (What the batch wants, not much more: what is read past it
            // is copied into the next batch's buffer, `next_batch`'s tail.)
            let grow = (want - self.buf.len()).max(MIN_READ);
            // A buffer that cannot grow is an error, not an abort.
            self.buf
                .try_reserve(grow)
                .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
            // Short of `grow` only where the reader said its input ended.
            let n = (&mut self.reader)
                .take(grow as u64)
                .read_to_end(&mut self.buf)?;
            self.eof = n < grow;
        }
        if !self.started && (self.buf.len() >= 3 || self.eof) {
            self.started = true;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
                self.pos += 3;
            }
        }
        Ok(())
    }

    /// The next batch of about `target` bytes of records; `None` at the end.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        let mut target = target.max(1);
        'batch: loop {
            self.fill(target)?;
            let mut records = Vec::new();
            let mut p = 0;
            while p < self.buf.len() && p < target {
                match self.split.end_after(&self.buf[p..], self.eof, self.before) {
                    Some((len, is_game)) => {
                        // A record of no bytes would stand the stream still
                        // (a scanner's bug): it takes one.
                        debug_assert!(len > 0, "a scanner ended a record of no bytes");
                        let len = len.max(1);
                        if len > self.limit && records.is_empty() {
                            if self.pass_blank() {
                                continue 'batch;
                            }
                            if let Some(batch) = self.cut_blank_tail(Some((len, is_game))) {
                                return Ok(Some(batch));
                            }
                            return self.skip_oversize(Some(len), false, is_game).map(Some);
                        }
                        if len > self.limit {
                            // Left for the next batch, where it comes first.
                            break;
                        }
                        records.push(RawRecord {
                            range: p..p + len,
                            offset: self.pos + p as u64,
                            line: self.line,
                            col: self.col,
                            is_game,
                            oversize: None,
                            short_of_memory: false,
                        });
                        advance(&self.buf[p..p + len], &mut self.line, &mut self.col);
                        self.before = last_solid(&self.buf[p..p + len]).or(self.before);
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
                self.pos += p as u64;
                let data = std::mem::replace(&mut self.buf, tail);
                return Ok(Some(Batch { data, records }));
            }
            if self.buf.len() > self.limit {
                if self.pass_blank() {
                    continue;
                }
                if let Some(batch) = self.cut_blank_tail(None) {
                    return Ok(Some(batch));
                }
                return self.skip_oversize(None, false, true).map(Some);
            }
            // One record is larger than the target: read more, up to the
            // limit and a byte. Where the memory for that cannot be had,
            // the record is streamed past like one over the limit.
            target = target.saturating_mul(2).min(self.limit + 1);
            if self
                .buf
                .try_reserve(target.saturating_sub(self.buf.len()))
                .is_err()
            {
                return self.skip_oversize(None, true, true).map(Some);
            }
        }
    }
}

/// How many bytes at the start of `data` are blank: ASCII whitespace and
/// byte-order marks.
fn blank_run(data: &[u8]) -> usize {
    let mut i = 0;
    while i < data.len() {
        if data[i].is_ascii_whitespace() {
            i += 1;
        } else if data[i..].starts_with(b"\xEF\xBB\xBF") {
            i += 3;
        } else {
            break;
        }
    }
    i
}

/// The last byte of `bytes` that is not ASCII whitespace.
fn last_solid(bytes: &[u8]) -> Option<u8> {
    bytes
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .copied()
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

/// One record, as the ordered parallel map hands it over.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// Its bytes (none for a record over the size limit).
    pub bytes: &'a [u8],
    /// 1-based line of its first byte in the whole input.
    pub line: usize,
    /// 1-based column of its first byte.
    pub col: usize,
    /// False for text that holds no game (whitespace and comments only).
    pub is_game: bool,
    /// For a record over the size limit, its size in bytes: it was streamed
    /// past unread.
    pub oversize: Option<u64>,
    /// True when such a record was streamed past because the memory to
    /// hold it could not be had, below the size limit.
    pub short_of_memory: bool,
}

impl<'a> Record<'a> {
    fn of(data: &'a [u8], raw: &RawRecord) -> Record<'a> {
        Record {
            bytes: &data[raw.range.clone()],
            line: raw.line,
            col: raw.col,
            is_game: raw.is_game,
            oversize: raw.oversize,
            short_of_memory: raw.short_of_memory,
        }
    }

    /// What the record policy ([`crate::policy`]) makes of the record, `f`
    /// reading (or converting) its bytes: `None` for text that holds no
    /// game; an error for a record over the size limit (`limit`,
    /// `--max-record-size`) or one whose memory could not be had; otherwise
    /// what `f` gave, a panic of `f` failing the record alone
    /// ([`crate::policy::isolate`]).
    pub fn apply<T>(
        &self,
        limit: usize,
        f: impl FnOnce(&[u8]) -> Result<T, Problem>,
    ) -> Option<Result<T, Problem>> {
        match self.oversize {
            _ if !self.is_game => None,
            Some(size) if self.short_of_memory => Some(Err(no_memory(size, None))),
            Some(size) => Some(Err(too_large(size, limit))),
            None => Some(crate::policy::isolate(|| f(self.bytes))),
        }
    }

    /// Where its text starts in the whole input: the line and column of
    /// its first character that is not blank (a record starts where the
    /// one before it ended, so its leading blanks are not its place).
    pub fn start(&self) -> (usize, usize) {
        self.place_at((0, 0))
    }

    /// Where a problem of this record is in the whole input: its own
    /// position moved by the record's, or (a problem of the whole record)
    /// [`Record::start`].
    pub fn place(&self, p: &Problem) -> (usize, usize) {
        self.place_at((p.line, p.col))
    }

    /// [`Record::place`] of a position in the record (line 0: the record
    /// as a whole).
    fn place_at(&self, (line, col): (usize, usize)) -> (usize, usize) {
        let (line, col) = if line == 0 {
            let skip = self.bytes.len() - self.bytes.trim_ascii_start().len();
            let (mut l, mut c) = (1, 1);
            advance(&self.bytes[..skip], &mut l, &mut c);
            (l, c)
        } else {
            (line, col)
        };
        if line == 1 {
            (self.line, self.col + col - 1)
        } else {
            (self.line + line - 1, col)
        }
    }
}

/// What a worker sends back for one batch: its records with their results
/// (or the read error that ended the input there), or the panic of `f`.
type Done<T> = std::thread::Result<io::Result<Mapped<T>>>;

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
    /// The game, written a run at a time, too long to hold: its text
    /// mostly in a temporary file ([`crate::output::spill`]), and the warnings.
    Spilled(crate::output::spill::Spilled, Vec<Problem>),
    /// The record failed.
    Failed(Problem),
}

impl Converted {
    /// The game's text and warnings, or why the record failed.
    pub fn written(self) -> Result<(crate::output::spill::Text, Vec<Problem>), Problem> {
        match self {
            Converted::Game(text, warnings) => {
                Ok((crate::output::spill::Text::Held(text), warnings))
            }
            Converted::Spilled(text, warnings) => {
                Ok((crate::output::spill::Text::Spilled(text), warnings))
            }
            Converted::Failed(p) => Err(p),
        }
    }

    /// The game's text, read back into memory where it was spilled, and
    /// its warnings; or why the record failed.
    pub fn text(self) -> Result<(String, Vec<Problem>), Problem> {
        match self {
            Converted::Spilled(text, warnings) => match text.into_string() {
                Ok(text) => Ok((text, warnings)),
                Err(e) => Err(Problem::whole(e.to_string()).of_kind(Kind::OutputFailed)),
            },
            Converted::Game(text, warnings) => Ok((text, warnings)),
            Converted::Failed(p) => Err(p),
        }
    }
}

/// How many of an input's first bytes [`sniff`] reads.
pub const SNIFF_BYTES: usize = 64 << 10;

/// The format an input's first bytes (`head`) and its name suggest, when
/// it is not `not` (the format it was read as, none of whose games
/// converted): the first format of the registry that reads the first game
/// of `head` (the one `name`'s ending names first), else the one `name`'s
/// ending names ([`crate::format::guess`]) unless `not` reads files of
/// that name by itself ([`crate::format::in_folder`]). Each reader tries one game,
/// cut by the format's own scanner. `failed`: `not` found games, and each
/// failed; then only a format that reads the first game is named, for a
/// name's ending is no evidence against games `not` found (a site's JSON
/// in a file not named as the site names its files is not kifu's json).
pub fn sniff(
    head: &[u8],
    name: &std::path::Path,
    not: &Format,
    failed: bool,
) -> Option<&'static Format> {
    // A name that `not` reads by itself (aagenielsen's `game-*.json`) is no
    // hint of the format its ending names.
    let by_name = crate::format::guess(name)
        .filter(|f| !std::ptr::eq(*f, not))
        .filter(|_| {
            let read_as = crate::format::FORMATS
                .iter()
                .find(|f| std::ptr::eq(*f, not));
            read_as.is_none_or(|f| crate::format::in_folder(name, Some(f)).is_none())
        });
    let reads = |f: &Format| {
        let Ok(Some(batch)) = Records::new(head, f.split).next_batch(head.len()) else {
            return false;
        };
        let Some(first) = batch
            .records
            .iter()
            .find(|r| r.is_game && r.oversize.is_none())
        else {
            return false;
        };
        let bytes = &batch.data[first.range.clone()];
        read_record(f, &ReadOptions::default(), bytes).is_ok()
    };
    if head.iter().all(u8::is_ascii_whitespace) {
        return by_name;
    }
    if by_name.is_some_and(&reads) {
        return by_name;
    }
    crate::format::FORMATS
        .iter()
        .filter(|f| f.read.is_some() && f.split.folder().is_none() && !std::ptr::eq(*f, not))
        .find(|f| reads(f))
        .or(by_name.filter(|_| !failed))
}

impl Converter<'_> {
    /// Converts one record, within the memory budget of the records
    /// converted at once ([`claim_memory`]); a panic while converting it
    /// fails the record alone ([`crate::policy::isolate`]).
    pub fn convert(&self, bytes: &[u8]) -> Converted {
        let converted = crate::policy::isolate(|| match self.convert_unguarded(bytes) {
            Converted::Failed(p) => Err(p),
            done => Ok(done),
        });
        converted.unwrap_or_else(Converted::Failed)
    }

    fn convert_unguarded(&self, bytes: &[u8]) -> Converted {
        let limit = self.read.max_record.unwrap_or(MAX_RECORD);
        // A record is converted a run at a time where both formats can,
        // whatever its size; one the stream does not take (or fails) is
        // converted whole, from the same text. A record streamed claims
        // what streaming takes; one converted whole, what a whole game
        // takes.
        let mut warnings = Vec::new();
        let text = record_text(self.from, bytes, &mut warnings);
        if !self.read.whole && self.streams() {
            let claim = match claim_memory_at(bytes.len(), limit, STREAMED_PER_BYTE) {
                Ok(claim) => claim,
                Err(e) => return Converted::Failed(e),
            };
            if let Some(done) = self.stream(&text, &mut warnings) {
                return done;
            }
            drop(claim);
        }
        self.convert_text(bytes.len(), &text, warnings)
    }

    /// Converts one record whole: read into its game (the walk with the
    /// visitor that builds it), then written. What a record the stream
    /// does not take is converted by, and what the tests compare the
    /// stream with.
    pub fn convert_whole(&self, bytes: &[u8]) -> Converted {
        let mut warnings = Vec::new();
        let text = record_text(self.from, bytes, &mut warnings);
        self.convert_text(bytes.len(), &text, warnings)
    }

    /// [`Converter::convert_whole`] of a record's text as
    /// [`record_text`] made it from its `size` bytes, with the warnings
    /// that making it gave.
    fn convert_text(&self, size: usize, text: &str, warnings: Vec<Problem>) -> Converted {
        let limit = self.read.max_record.unwrap_or(MAX_RECORD);
        let Some(write) = self.to.write else {
            return Converted::Failed(
                Problem::whole(format!("{} cannot be written", self.to.name))
                    .of_kind(Kind::Internal),
            );
        };
        let _claim = match claim_memory(size, limit) {
            Ok(claim) => claim,
            Err(e) => return Converted::Failed(e),
        };
        let parsed = match crate::policy::read_text(self.from, &self.read, text, warnings) {
            Ok(p) => p,
            Err(e) => return Converted::Failed(e),
        };
        let mut warnings = parsed.warnings;
        if let Some(family) = self.to.family {
            if parsed.game.family() != family {
                return Converted::Failed(parsed.game.family().cannot_be_written_as(self.to.name));
            }
        }
        let mut out = String::with_capacity(size + size / 4);
        let written = write(&parsed.game, &self.write, &mut out);
        let mut game = parsed.game;
        crate::container::keep_plies(&mut game.moves.plies);
        match written {
            Ok(w) => {
                warnings.extend(w);
                Converted::Game(out, warnings)
            }
            Err(e) => Converted::Failed(e),
        }
    }
}

impl Converter<'_> {
    /// Whether records may be converted a run at a time
    /// ([`Converter::stream`]): both formats can, and the output writes
    /// games of the input's family, or of any (an interchange format; a
    /// picture, written only, where the moves are replayed: a position not
    /// replayed is drawn from the whole game).
    fn streams(&self) -> bool {
        let picture = self.to.family.is_none() && self.to.read.is_none();
        self.from.read.is_some_and(crate::codec::Reader::walks)
            && self.to.runs.is_some()
            && self.from.family.is_some()
            && (self.to.family.is_none() || self.from.family == self.to.family)
            && !(picture && self.read.no_validate)
    }

    /// Converts one record a run at a time, where both
    /// formats can ([`crate::codec::Reader::runs`] and
    /// [`crate::format::Format::runs`]): the record's text and one run are
    /// held, never the whole game, and the text written is moved to a
    /// temporary file as it grows ([`crate::output::spill`]). `None`
    /// where it cannot be converted so, and where it fails: it is then
    /// converted whole, which gives every failure as a record read whole
    /// gives it (and keeps a variation that cannot be read as text).
    /// `text` is the record's as [`record_text`] made it, and `warnings`
    /// what making it said: taken where the record is converted.
    fn stream(&self, text: &str, warnings: &mut Vec<Problem>) -> Option<Converted> {
        let (reader, runs) = (self.from.read?, self.to.runs?);
        // As a record converted whole makes room for its text, up to what
        // is held before it is moved to the temporary file: made as the
        // first piece comes (a record the stream does not take makes none).
        let room = text.len().min(crate::output::spill::SPILL_AT);
        let mut out = String::new();
        let mut spill = crate::output::spill::Spill::new();
        let mut writer = runs(&self.write);
        let mut each = |piece: Piece<'_>| {
            if out.capacity() == 0 {
                out.reserve(room + room / 4);
            }
            match piece {
                Piece::Head(head) => writer.begin(head, &mut out),
                Piece::Run(run) => writer.run(run, &mut out),
                Piece::Open => writer.open(&mut out),
                Piece::Close(trailing) => writer.close(trailing, &mut out),
            }?;
            spill
                .take(&mut out)
                .map_err(|e| Problem::whole(e.to_string()).of_kind(Kind::OutputFailed))
        };
        let parsed = reader.runs(text, &self.read, &mut each).ok()??;
        let mut head = String::new();
        let (written, fills) = writer.end_filled(&parsed.game, &mut head, &mut out).ok()?;
        let done = spill.finish(head, out).and_then(|t| t.fill(&fills)).ok()?;
        let mut warnings = std::mem::take(warnings);
        warnings.extend(parsed.warnings);
        warnings.extend(written);
        Some(match done {
            crate::output::spill::Text::Held(text) => Converted::Game(text, warnings),
            crate::output::spill::Text::Spilled(text) => Converted::Spilled(text, warnings),
        })
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
    /// Inputs damaged outside any game (cut short, a compressed stream
    /// broken): each an error, after the games before the damage.
    pub damaged: usize,
}

impl Summary {
    /// `n` games converted whose output could not be written: they count
    /// as failed (at most the games converted leave that count).
    pub fn lose(&mut self, n: usize) {
        self.converted -= n.min(self.converted);
        self.failed += n;
    }
}

impl std::ops::AddAssign for Summary {
    fn add_assign(&mut self, o: Summary) {
        self.converted += o.converted;
        self.failed += o.failed;
        self.warnings += o.warnings;
        self.damaged += o.damaged;
    }
}

/// Where the pipeline reports to.
pub struct Report<'r> {
    /// Receives every diagnostic that should be shown.
    pub diagnostic: &'r mut dyn FnMut(&Diagnostic),
    /// Receives the original bytes of every failed record (`--rejects`).
    pub reject: Option<&'r mut dyn Write>,
    /// Called with the number of input bytes done after each batch; an
    /// error it returns (a run interrupted: `kifu.convert` on Ctrl-C) ends
    /// the input there, as an error of the input.
    pub progress: &'r mut dyn FnMut(usize) -> io::Result<()>,
    /// Stop at the first error, and count warnings as errors.
    pub strict: bool,
    /// Show every warning and error as it comes, instead of grouping them
    /// by kind (and input) with a count: a warning's group one line at the
    /// end of the input, an error's first [`SHOWN_ERRORS`] as they come.
    pub verbose: bool,
}

/// How many errors of one group are shown as they come; the rest are one
/// line at the end of the input, the first of them with how many more.
pub const SHOWN_ERRORS: usize = 3;

/// The diagnostics of one input, grouped by severity and kind, in the
/// order each group first came. A warning's game was converted: its group
/// is one line at the end of the input, the first warning with how many
/// more came. An error's game failed: the first [`SHOWN_ERRORS`] of its
/// group are shown as they come (the first error of a long run is not held
/// back), the rest counted in one line at the end of the input. `verbose`
/// shows every diagnostic as it comes.
#[derive(Default)]
pub(crate) struct Groups {
    index: HashMap<(Severity, Kind), usize>,
    groups: Vec<Group>,
}

/// One group of [`Groups`]: the first of its diagnostics not shown as it
/// came, and how many came.
struct Group {
    held: Option<Diagnostic>,
    count: usize,
}

/// How many diagnostics of a group of this severity are shown as they come
/// ([`Groups`]).
fn shown_at_once(severity: Severity) -> usize {
    match severity {
        Severity::Error => SHOWN_ERRORS,
        Severity::Warning => 0,
    }
}

impl Groups {
    /// One diagnostic: shown now (to `show`) with `verbose` or where its
    /// group shows it as it comes, else counted in its group.
    pub(crate) fn add(&mut self, d: Diagnostic, verbose: bool, show: &mut dyn FnMut(&Diagnostic)) {
        if verbose {
            show(&d);
            return;
        }
        let key = (d.severity, d.kind);
        let groups = &mut self.groups;
        let i = *self.index.entry(key).or_insert_with(|| {
            groups.push(Group {
                held: None,
                count: 0,
            });
            groups.len() - 1
        });
        let group = &mut self.groups[i];
        group.count += 1;
        if group.count <= shown_at_once(d.severity) {
            show(&d);
        } else if group.held.is_none() {
            group.held = Some(d);
        }
    }

    /// Shows (to `show`) one line per group with diagnostics not shown as
    /// they came: the first of them, with how many more came.
    pub(crate) fn report(self, show: &mut dyn FnMut(&Diagnostic)) {
        for group in self.groups {
            let Some(mut d) = group.held else { continue };
            let more = group.count - shown_at_once(d.severity) - 1;
            if more > 0 {
                d.message.push_str(&format!(" ({more} more like this)"));
            }
            show(&d);
        }
    }
}

/// Converts one input stream into a sink. Failed games are reported and
/// skipped; with `strict`, the first one ends the run with an error.
pub fn convert_stream<R: Read + Send>(
    input: R,
    name: &str,
    conv: &Converter<'_>,
    sink: &mut dyn Games,
    report: &mut Report<'_>,
) -> Result<Summary, Error> {
    convert_input(input, name, conv, sink, report).map(|(summary, _)| summary)
}

/// [`convert_stream`], giving the input's first bytes too (up to
/// [`SNIFF_BYTES`]): what [`sniff`] tells
/// an input's format by, where none of its games converted.
pub fn convert_input<R: Read + Send>(
    input: R,
    name: &str,
    conv: &Converter<'_>,
    sink: &mut dyn Games,
    report: &mut Report<'_>,
) -> Result<(Summary, Vec<u8>), Error> {
    let mut head = Vec::new();
    let io_err = |e: io::Error| Error::io(name, e);
    let limit = conv.read.max_record.unwrap_or(MAX_RECORD);
    let split = conv.from.split;
    let mut summary = Summary::default();
    // Games seen so far in this input; messages number them from 1.
    let mut game_index = 0usize;
    // Warnings and errors are grouped by kind: see [`Groups`].
    let mut groups = Groups::default();
    let mut document = Document::new(split);
    let map = |r: Record<'_>| {
        r.apply(limit, |bytes| Ok(conv.convert(bytes)))
            .map(|done| done.unwrap_or_else(Converted::Failed))
    };
    let each = |batch: io::Result<Mapped<Option<Converted>>>| -> Result<(), Error> {
        let mut batch = batch.map_err(io_err)?;
        if head.len() < SNIFF_BYTES {
            let data = &batch.batch.data;
            let take = data.len().min(SNIFF_BYTES - head.len());
            head.extend_from_slice(&data[..take]);
        }
        for (rec, result) in batch.drain() {
            let bytes = rec.bytes;
            document.record(&rec);
            let Some(result) = result else {
                let after = match game_index {
                    0 => String::new(),
                    n => format!(" after game {n}"),
                };
                let message = match rec.oversize {
                    // Text that holds no game, over the limit: passed unread.
                    Some(size) => Some(format!(
                        "{} of comments or text{after} belong to no game, over the limit of {} on one record: not read, not written",
                        crate::policy::bytes_text(size),
                        crate::policy::bytes_text(limit as u64)
                    )),
                    None if split.has_text(bytes) => {
                        let quote = crate::error::quote_bytes(bytes.trim_ascii(), 40);
                        Some(match game_index {
                            0 => format!("comments or text that belong to no game: not written ({quote})"),
                            _ => format!("comments or text{after} belong to no game: not written ({quote})"),
                        })
                    }
                    None => None,
                };
                if let Some(message) = message {
                    let (line, col) = rec.start();
                    summary.warnings += 1;
                    groups.add(
                        Diagnostic {
                            severity: Severity::Warning,
                            file: name.to_string(),
                            line,
                            col,
                            game: 0,
                            message,
                            kind: Kind::StrayComments,
                        },
                        report.verbose,
                        report.diagnostic,
                    );
                }
                continue;
            };
            game_index += 1;
            let diag = |p: &Problem, severity| {
                let (line, col) = rec.place(p);
                Diagnostic {
                    severity,
                    file: name.to_string(),
                    line,
                    col,
                    game: game_index,
                    message: p.message.clone(),
                    kind: p.kind,
                }
            };
            // The text of a failed game goes to --rejects, --strict or not.
            let reject = |report: &mut Report<'_>| match report.reject.as_mut() {
                Some(rej) => rej.write_all(bytes).map_err(|e| Error::io("rejects", e)),
                None => Ok(()),
            };
            match result.written() {
                Ok((text, warnings)) => {
                    if report.strict {
                        if let Some(w) = warnings.first() {
                            reject(report)?;
                            return Err(Error::Strict(diag(w, Severity::Error)));
                        }
                    }
                    for w in &warnings {
                        summary.warnings += 1;
                        groups.add(
                            diag(w, Severity::Warning),
                            report.verbose,
                            report.diagnostic,
                        );
                    }
                    let origin = Origin {
                        source: name,
                        index: game_index,
                        bytes,
                    };
                    sink.text(text, &origin)
                        .map_err(|e| Error::io(sink.name(), e))?;
                    summary.converted += 1;
                }
                Err(p) => {
                    let d = diag(&p, Severity::Error);
                    reject(report)?;
                    if report.strict {
                        return Err(Error::Strict(d));
                    }
                    groups.add(d, report.verbose, report.diagnostic);
                    summary.failed += 1;
                }
            }
        }
        (report.progress)(batch.bytes()).map_err(io_err)
    };
    // A game's text may be a thousand times its record (a page of
    // drawings): the batches are cut by what their text holds.
    let weigh: fn(&Option<Converted>) -> usize = |c| match c {
        Some(Converted::Game(text, _)) => text.len(),
        _ => 0,
    };
    Records::new(input, split)
        .with_limit(limit)
        .par_for_each_weighed(map, Some(weigh), each)?;
    groups.report(report.diagnostic);
    if let Some((line, col, what)) = document.cut() {
        let d = Diagnostic {
            severity: Severity::Error,
            file: name.to_string(),
            line,
            col,
            game: 0,
            message: cut_short(&what),
            kind: Kind::DamagedInput,
        };
        if report.strict {
            return Err(Error::Strict(d));
        }
        (report.diagnostic)(&d);
        summary.damaged += 1;
    }
    Ok((summary, head))
}

/// The error of a document cut short, lacking `what`.
pub fn cut_short(what: &str) -> String {
    format!("the document ends here, before {what}: cut short? The games before it were read")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Skip;

    /// A scan of one record a line, for the pipeline's own tests.
    #[derive(Debug)]
    struct Lines;

    impl Scan for Lines {
        fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
            match memchr::memchr(b'\n', data) {
                Some(i) => Some((i + 1, i > 0)),
                None => eof.then_some((data.len(), !data.is_empty())),
            }
        }

        fn oversize(&self) -> Oversize {
            struct End;
            impl Skip for End {
                fn end(&mut self, data: &[u8]) -> Option<usize> {
                    memchr::memchr(b'\n', data).map(|i| i + 1)
                }
            }
            Oversize {
                skip: Box::new(End),
                from_start: false,
            }
        }
    }

    /// The numbers of `0\n\n1\n\n...` with their lines, checked in order.
    fn check_numbers(seen: &[(usize, usize)], count: usize) {
        assert_eq!(seen.len(), count);
        for (i, &(n, line)) in seen.iter().enumerate() {
            assert_eq!((n, line), (i, 2 * i + 1));
        }
    }

    fn number(r: Record<'_>) -> Option<(usize, usize)> {
        let n: Option<usize> = std::str::from_utf8(r.bytes).ok()?.trim().parse().ok();
        n.map(|n| (n, r.line))
    }

    #[test]
    fn par_for_each_gives_every_record_once_in_input_order() {
        // Many batches of many records, mapped on the pool.
        let text: String = (0..200_000).map(|i| format!("{i}\n\n")).collect();
        let mut seen = Vec::new();
        let mut bytes = 0;
        Records::new(text.as_bytes(), &Lines)
            .par_for_each(number, |batch| -> Result<(), ()> {
                let mut batch = batch.unwrap();
                for (record, n) in batch.drain() {
                    assert_eq!(record.is_game, n.is_some(), "{record:?}");
                    seen.extend(n);
                }
                bytes += batch.bytes();
                Ok(())
            })
            .unwrap();
        assert_eq!(bytes, text.len());
        check_numbers(&seen, 200_000);
    }

    #[test]
    fn weighed_batches_hold_about_what_is_allowed_in_flight() {
        // Records of 7 bytes whose results weigh 1,000 times that (a page
        // of drawings per short game), then records whose results weigh
        // nothing: the batches shrink, then grow back, every record given
        // once in order.
        let heavy: String = (0..40_000).map(|i| format!("{i:05}\n\n")).collect();
        let light: String = (40_000..90_000).map(|i| format!("{i:05}\n\n")).collect();
        let text = format!("{heavy}{light}");
        let weigh: fn(&Option<(usize, usize)>) -> usize = |n| match n {
            Some((n, _)) if *n < 40_000 => 7_000,
            _ => 0,
        };
        let per_batch = RESULTS_IN_FLIGHT / in_flight();
        let (mut seen, mut weights) = (Vec::new(), Vec::new());
        let mut largest_light = 0;
        Records::new(text.as_bytes(), &Lines)
            .par_for_each_weighed(number, Some(weigh), |batch| -> Result<(), ()> {
                let mut batch = batch.unwrap();
                weights.push(batch.results.iter().map(weigh).sum::<usize>());
                let all_light = batch.results.iter().flatten().all(|(n, _)| *n >= 40_000);
                if all_light {
                    largest_light = largest_light.max(batch.bytes());
                }
                seen.extend(batch.drain().filter_map(|(_, n)| n));
                Ok(())
            })
            .unwrap();
        check_numbers(&seen, 90_000);
        // The first (16 KiB) is weighed; every batch after it holds about
        // what is allowed.
        assert!(weights.len() > 10, "{}", weights.len());
        for w in &weights[1..] {
            assert!(*w <= per_batch * 2, "{w} > {per_batch}");
        }
        assert!(largest_light > WEIGHED_FIRST_BATCH, "{largest_light}");
    }

    #[test]
    fn weighed_batches_hold_about_a_batch_of_results_whatever_is_allowed_in_flight() {
        // Records of 8 bytes whose results weigh 7 times that (the tables'
        // rows of a PGN record): every batch after the first is cut so
        // that its results hold about `RESULTS_PER_BATCH`, not the 256
        // KiB of input that `RESULTS_IN_FLIGHT` allows.
        let text: String = (0..200_000).map(|i| format!("{i:06}\n\n")).collect();
        let weigh: fn(&Option<(usize, usize)>) -> usize = |n| 56 * usize::from(n.is_some());
        let mut weights = Vec::new();
        let mut seen = Vec::new();
        Records::new(text.as_bytes(), &Lines)
            .par_for_each_weighed(number, Some(weigh), |batch| -> Result<(), ()> {
                let mut batch = batch.unwrap();
                weights.push(batch.results.iter().map(weigh).sum::<usize>());
                seen.extend(batch.drain().filter_map(|(_, n)| n));
                Ok(())
            })
            .unwrap();
        check_numbers(&seen, 200_000);
        let last = weights.len() - 1;
        assert!(weights.len() > 20, "{}", weights.len());
        for w in &weights[1..last] {
            assert!(
                (RESULTS_PER_BATCH / 2..=RESULTS_PER_BATCH + 56).contains(w),
                "{w}"
            );
        }
    }

    #[test]
    fn a_weighed_batch_holds_what_both_bounds_allow() {
        // Results of every weight from none to 5,000 bytes a byte of
        // input, in thousandths (the ratio is not rounded), every number
        // of batches in flight from 1 to 64 workers, under no limit and a
        // small one.
        let most = BATCH_BYTES;
        let bytes = 100_000usize;
        let millis = (0..5_000).chain((5_000..5_000_000).step_by(997));
        for workers in [1, 2, 4, 16, 64] {
            let in_flight = 2 * workers + 2;
            for weight in [RESULTS_IN_FLIGHT, 4 << 20] {
                let per_batch = weight / in_flight;
                for milli in millis.clone() {
                    let held = bytes * milli / 1000;
                    let size = parallel::batch_size(per_batch, held, bytes, most);
                    // Results per byte, at least one.
                    let p = held.max(bytes) as f64 / bytes as f64;
                    let fit = |room: usize| room * bytes / held.max(bytes);
                    let before = fit(per_batch).clamp(1, most);
                    // Never more than the batches in flight allow.
                    assert!(size <= before, "{workers} {milli}: {size} > {before}");
                    // About a batch of results at most, where that leaves
                    // a first batch's input.
                    if fit(RESULTS_PER_BATCH) >= WEIGHED_FIRST_BATCH {
                        assert!(
                            size as f64 * p <= RESULTS_PER_BATCH as f64 + p,
                            "{milli}: {size}"
                        );
                    }
                    // Cut no smaller than the first batch by it, nor than
                    // what the batches in flight allow.
                    assert!(size >= before.min(WEIGHED_FIRST_BATCH), "{milli}: {size}");
                    assert!(
                        size + 1 >= before.min(fit(RESULTS_PER_BATCH)),
                        "{milli}: {size}"
                    );
                }
                if per_batch >= most {
                    // Results no longer than their records keep whole
                    // batches; a little longer (pgn to pgn), nearly whole.
                    assert_eq!(parallel::batch_size(per_batch, bytes, bytes, most), most);
                    let longer = parallel::batch_size(per_batch, bytes * 105 / 100, bytes, most);
                    assert!(longer * 105 / 100 >= RESULTS_PER_BATCH - 105, "{longer}");
                }
            }
        }
    }

    #[test]
    fn par_map_gives_every_record_once_in_input_order() {
        let text: String = (0..200_000).map(|i| format!("{i}\n\n")).collect();
        let len = text.len();
        let mut seen = Vec::new();
        let mut bytes = 0;
        for batch in Records::new(io::Cursor::new(text.into_bytes()), &Lines).par_map(number) {
            let mut batch = batch.unwrap();
            seen.extend(batch.drain().filter_map(|(_, n)| n));
            bytes += batch.bytes();
        }
        assert_eq!(bytes, len);
        check_numbers(&seen, 200_000);
    }

    /// Gives `n` reads of up to 2,048 lines `1`, then fails.
    struct Failing(usize);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            let n = buf.len().min(4096) & !1;
            for pair in buf[..n].chunks_mut(2) {
                pair.copy_from_slice(b"1\n");
            }
            Ok(n)
        }
    }

    #[test]
    fn par_map_ends_at_a_read_error() {
        let results: Vec<io::Result<Mapped<()>>> =
            Records::new(Failing(3), &Lines).par_map(|_| ()).collect();
        assert_eq!(results.len(), 1);
        assert!(results[0].is_err());
    }

    #[test]
    fn a_read_error_comes_after_the_batches_before_it() {
        // Far more than a batch of lines before the error.
        let reads = 3 * BATCH_BYTES / 4096;
        let lines = reads * 2048;
        let mut got = Vec::new();
        Records::new(Failing(reads), &Lines)
            .par_for_each(
                |r| r.is_game,
                |batch| -> Result<(), ()> {
                    got.push(batch.map(|mut b| b.drain().filter(|(_, g)| *g).count()));
                    Ok(())
                },
            )
            .unwrap();
        let (last, before) = got.split_last().unwrap();
        assert!(last.is_err(), "the error comes last");
        let games: usize = before.iter().map(|b| *b.as_ref().unwrap()).sum();
        assert!(!before.is_empty() && games <= lines, "{games}");
    }

    /// An endless input of records, counting the bytes read from it.
    struct Endless(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(1 << 16) & !1;
            for pair in buf[..n].chunks_mut(2) {
                pair.copy_from_slice(b"1\n");
            }
            self.0.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
            Ok(n)
        }
    }

    #[test]
    fn the_reader_stays_a_bounded_number_of_batches_ahead_and_stops_with_the_writer() {
        let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut batches = 0;
        let stopped = Records::new(Endless(read.clone()), &Lines).par_for_each(
            |r| r.bytes.len(),
            |batch| {
                batch.unwrap();
                batches += 1;
                if batches == 1 {
                    // A slow writer: the reader runs ahead as far as it may.
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    let ahead = read.load(std::sync::atomic::Ordering::SeqCst);
                    assert!(ahead > BATCH_BYTES, "the reader went on: {ahead}");
                    let bound = (in_flight() + 3) * (BATCH_BYTES + (1 << 16));
                    assert!(ahead <= bound, "read {ahead} bytes ahead, over {bound}");
                }
                if batches == 3 {
                    return Err("enough");
                }
                Ok(())
            },
        );
        // The writer's error ends an endless input.
        assert_eq!(stopped, Err("enough"));
    }

    #[test]
    fn par_for_each_runs_inside_a_pool_of_one_thread() {
        // The calling thread is the pool's only worker: it runs the
        // workers' tasks while it waits for them.
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let text: String = (0..100_000).map(|i| format!("{i}\n\n")).collect();
        let mut seen = Vec::new();
        one.install(|| {
            Records::new(text.as_bytes(), &Lines).par_for_each(number, |batch| -> Result<(), ()> {
                seen.extend(batch.unwrap().drain().filter_map(|(_, n)| n));
                Ok(())
            })
        })
        .unwrap();
        check_numbers(&seen, 100_000);
    }

    #[test]
    #[should_panic(expected = "a bug in a reader")]
    fn a_panic_of_the_map_is_raised_again() {
        let text: String = (0..100_000).map(|i| format!("{i}\n")).collect();
        let _ = Records::new(text.as_bytes(), &Lines).par_for_each(
            |r| assert!(r.line != 77_777, "a bug in a reader"),
            |_| -> Result<(), ()> { Ok(()) },
        );
    }

    #[test]
    fn each_record_knows_its_offset_in_the_stream_past_a_mark_and_oversize_records() {
        // A byte-order mark, short records, one over the limit (after
        // blanks), one at the end without a line end.
        let text = format!("\u{feff}a\n\nbb\n   {}\nccc\nd", "x".repeat(40));
        let bytes = text.as_bytes();
        let mut records = Records::new(bytes, &Lines).with_limit(16);
        let mut seen = Vec::new();
        while let Some(batch) = records.next_batch(8).unwrap() {
            for r in &batch.records {
                seen.push((r.offset, r.oversize.is_some()));
                if r.oversize.is_none() {
                    // A reader starting at the offset finds the same bytes.
                    let at = r.offset as usize;
                    assert_eq!(&bytes[at..at + r.range.len()], &batch.data[r.range.clone()]);
                }
            }
        }
        let x = text.find('x').unwrap() as u64;
        assert_eq!(
            seen,
            [
                (3, false),
                (5, false),
                (6, false),
                (x, true),
                (x + 41, false),
                (x + 45, false)
            ]
        );
    }
}
