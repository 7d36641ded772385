//! Reading the `csv` tables: each table a row at a time as RFC 4180 reads
//! it ([`TableReader`]), and the three merged, game by game, into the
//! container rows that [`super::csv::read`] reads ([`Merge`]), each row
//! with its line in its table (`moves:17`); a damaged row becomes a row
//! that says where and why, so that its game fails and the others read.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::csv::{field, next_field, FILES};
use super::rows::{columns, header, KEYS, TABLES};

impl Merge {
    /// The tables of the folder `dir`, merged, their header rows checked.
    pub(super) fn open(dir: &Path) -> io::Result<Merge> {
        let open = |t: usize| -> io::Result<TableReader> {
            let path = dir.join(FILES[t]);
            let file = File::open(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            let mut table = TableReader {
                input: Box::new(BufReader::with_capacity(1 << 16, file)),
                path,
                table: t,
                line: 1,
                again: Vec::new(),
                again_at: 0,
                fen: false,
            };
            // The moves table may have the `fen` column (written with
            // `--to-opt fen=true`): it is read past.
            let head = table.next()?;
            let head = head.as_ref().map(|h| h.text.trim_start_matches('\u{feff}'));
            match head {
                Some(h) if h == header(t, false) => Ok(table),
                Some(h) if t == 2 && h == header(t, true) => {
                    table.fen = true;
                    Ok(table)
                }
                _ => Err(table.error(
                    1,
                    &format!(
                        "the header row is not kifu's: {}",
                        crate::error::quote(&header(t, false))
                    ),
                )),
            }
        };
        Ok(Merge {
            games: open(0)?,
            upcoming: VecDeque::new(),
            counts: HashMap::new(),
            rows: [open(1)?, open(2)?],
            pending: [None, None],
            out: Vec::new(),
            pos: 0,
            done: false,
            failed: None,
        })
    }
}

/// One row of a table as read: its text without its line end, its line,
/// and, when it cannot be read, why.
struct RawRow {
    text: String,
    line: usize,
    /// What is wrong with it: its column in the row and the reason. A
    /// damaged row is its first line alone (see [`TableReader::next`]).
    damage: Option<(usize, String)>,
}

/// The longest row kifu reads across line ends (a quoted field holding
/// them: a tag value or a comment of several lines): a quote opened and
/// never closed is damage found within it, and each such quote costs a
/// scan of at most this much.
const ROW_LIMIT: usize = 1 << 20;

/// Reads a table a row at a time, as RFC 4180 says: a field that starts
/// with a quote is quoted (and may hold line ends), a quote anywhere else
/// is damage. A row that cannot be read (a quote never closed, text after
/// a closing quote, a quote inside a field that is not quoted, a wrong
/// number of columns, not UTF-8) is its first line alone, and the lines
/// after it are read again as rows of their own: damage stays in its row.
struct TableReader {
    input: Box<dyn BufRead + Send>,
    path: PathBuf,
    /// The table, as an index of [`TABLES`].
    table: usize,
    /// The line of the next row.
    line: usize,
    /// Lines read past a damaged row, read again first.
    again: Vec<u8>,
    again_at: usize,
    /// Whether it is a moves table with the `fen` column.
    fen: bool,
}

/// A scan of a row's text (without its line end) as RFC 4180 reads it, a
/// field at a time (memchr to the next quote or comma). It goes on where
/// it stopped when the row grows by a line (a quoted field that holds a
/// line end), so a long row is scanned once.
pub(super) struct RowScan {
    /// How many fields.
    pub(super) fields: usize,
    /// The first damage: its byte offset and why.
    damage: Option<(usize, &'static str)>,
    /// Where the scan goes on.
    at: usize,
    /// Where the quoted field still open at `at` starts, if one is.
    pub(super) open: Option<usize>,
}

impl RowScan {
    pub(super) fn new() -> RowScan {
        RowScan {
            fields: 1,
            damage: None,
            at: 0,
            open: None,
        }
    }

    /// Scans the row's text from where the last scan stopped.
    pub(super) fn scan(&mut self, bytes: &[u8]) {
        let mut i = self.at;
        loop {
            let opened = match self.open.take() {
                Some(o) => Some(o),
                None if bytes.get(i) == Some(&b'"') => {
                    i += 1;
                    Some(i - 1)
                }
                None => None,
            };
            if let Some(opened) = opened {
                // A quoted field: to its closing quote, past doubled ones.
                loop {
                    let Some(q) = memchr::memchr(b'"', &bytes[i..]) else {
                        self.open = Some(opened);
                        self.at = bytes.len();
                        return;
                    };
                    if bytes.get(i + q + 1) == Some(&b'"') {
                        i += q + 2;
                        continue;
                    }
                    i += q + 1;
                    break;
                }
                match bytes.get(i) {
                    None => break,
                    Some(b',') => {
                        self.fields += 1;
                        i += 1;
                        continue;
                    }
                    Some(_) => {
                        self.damage
                            .get_or_insert((i, "text after a quoted field's closing quote"));
                    }
                }
            }
            // An unquoted field (or the rest of a damaged one): to its
            // comma; a quote in it is damage.
            match memchr::memchr2(b',', b'"', &bytes[i..]) {
                Some(c) if bytes[i + c] == b'"' => {
                    self.damage
                        .get_or_insert((i + c, "a quote inside a field that is not quoted"));
                    i += c + 1;
                    match memchr::memchr(b',', &bytes[i..]) {
                        Some(c) => {
                            self.fields += 1;
                            i += c + 1;
                        }
                        None => break,
                    }
                }
                Some(c) => {
                    self.fields += 1;
                    i += c + 1;
                }
                None => break,
            }
        }
        self.at = bytes.len();
    }

    /// The damage found, a quoted field never closed included.
    pub(super) fn damage(&self) -> Option<(usize, &'static str)> {
        self.damage
            .or(self.open.map(|at| (at, "a quoted field is never closed")))
    }
}

impl TableReader {
    fn error(&self, line: usize, message: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}:{line}: {message}", self.path.display()),
        )
    }

    /// Appends the next line (with its line end) to `buf`; its length, 0
    /// at the end.
    fn read_line(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        if self.again_at < self.again.len() {
            let rest = &self.again[self.again_at..];
            let n = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
            buf.extend_from_slice(&rest[..n]);
            self.again_at += n;
            if self.again_at == self.again.len() {
                self.again.clear();
                self.again_at = 0;
            }
            return Ok(n);
        }
        self.input.read_until(b'\n', buf)
    }

    fn next(&mut self) -> io::Result<Option<RawRow>> {
        let line = self.line;
        let mut bytes = Vec::with_capacity(256);
        if self.read_line(&mut bytes)? == 0 {
            return Ok(None);
        }
        self.line += 1;
        let first = bytes.len();
        let columns = columns(self.table, self.fen).len();
        let mut scan = RowScan::new();
        scan.scan(without_line_end(&bytes));
        // A quoted field that holds a line end: the row goes on.
        while scan.open.is_some() && bytes.len() < ROW_LIMIT {
            if self.read_line(&mut bytes)? == 0 {
                break;
            }
            self.line += 1;
            scan.scan(without_line_end(&bytes));
        }
        let mut damage = match scan.damage() {
            Some((at, why)) => Some((at, why.to_string())),
            None if scan.fields != columns => Some((
                0,
                format!(
                    "{} columns where {} has {columns}",
                    scan.fields, FILES[self.table]
                ),
            )),
            None => None,
        };
        if damage.is_some() && bytes.len() > first {
            // The damage took the lines after its own: they are rows of
            // their own, read again.
            let mut rest = bytes.split_off(first);
            rest.extend_from_slice(&self.again[self.again_at..]);
            (self.again, self.again_at) = (rest, 0);
            self.line = line + 1;
            let mut one = RowScan::new();
            one.scan(without_line_end(&bytes));
            let (at, why) = one.damage().unwrap_or((0, "a damaged row"));
            damage = Some((at, why.to_string()));
        }
        let len = without_line_end(&bytes).len();
        bytes.truncate(len);
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                damage.get_or_insert((e.utf8_error().valid_up_to(), "not UTF-8".to_string()));
                text
            }
        };
        // The damage's column, counted in characters.
        let damage = damage.map(|(at, why)| {
            let at = at.min(text.len());
            let col = text.char_indices().take_while(|&(i, _)| i < at).count() + 1;
            (col, why)
        });
        Ok(Some(RawRow { text, line, damage }))
    }
}

/// A row's bytes without its line end (LF or CRLF).
pub(super) fn without_line_end(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

/// The key a row names: its first field; for a damaged row, what lies
/// before its first comma, quotes left out. `None` when empty.
fn row_key(row: &RawRow) -> Option<String> {
    let key = match (&row.damage, next_field(&row.text, 0)) {
        (None, Ok((key, _, _))) => key.map(Cow::into_owned),
        _ => {
            let first = row.text.split(',').next().unwrap_or("");
            Some(first.replace('"', ""))
        }
    };
    key.filter(|k| !k.trim().is_empty())
}

/// The hash of a key, as the window of games ahead holds it.
fn key_hash(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// How many games.csv rows ahead the merge looks for the game of a tags or
/// moves row that is not the game's being merged: a row whose game is none
/// of them belongs to no game there.
const WINDOW: usize = 1 << 16;

/// A row of `tags.csv` or `moves.csv` waiting for its game.
struct Pending {
    row: RawRow,
    id: Option<String>,
}

/// The three tables merged, game by game, into the container form
/// [`read`] reads: a game's games row, then the tags and moves rows that
/// follow it in their tables with its key. Every row of games.csv is a
/// game. A row that cannot be read goes into the record of its game (by
/// its key, read as well as it can be) as the error it is; a row whose key
/// is neither the game's being merged nor one of the next [`WINDOW`]
/// games' (a row of no game, or out of games.csv's order) goes into the
/// record of the game being merged as an error: one game fails, never the
/// ones after it.
pub(super) struct Merge {
    games: TableReader,
    /// Rows of games.csv read ahead (to find the game of a row that is not
    /// the game's being merged; most often the next), with their keys.
    upcoming: VecDeque<(RawRow, Option<String>)>,
    /// How many of `upcoming` have each key (by its hash).
    counts: HashMap<u64, u32>,
    rows: [TableReader; 2],
    pending: [Option<Pending>; 2],
    out: Vec<u8>,
    pos: usize,
    done: bool,
    /// An error met after the games before it were given.
    failed: Option<io::Error>,
}

/// The key of a good row and where the columns after its first `skip`
/// start.
fn key_of(text: &str, skip: usize) -> Result<(String, usize), String> {
    let mut pos = 0;
    let mut id = None;
    for i in 0..skip {
        let (value, next, more) = next_field(text, pos)?;
        if i == 0 {
            id = value.map(Cow::into_owned);
        }
        if !more {
            return Err(format!("a row of fewer than {} columns", skip + 1));
        }
        pos = next;
    }
    match id {
        Some(id) => Ok((id, pos)),
        None => Err("a row without its game_id".to_string()),
    }
}

/// Appends a container row that is the error of a table's row: the table
/// with its line and column, and the message.
fn damaged_row(out: &mut Vec<u8>, table: usize, line: usize, col: usize, message: &str) {
    let mut text = format!("{}:{line}:{col},", TABLES[table]);
    field(&mut text, Some(message));
    text.push('\n');
    out.extend_from_slice(text.as_bytes());
}

/// Appends a table's row to a record: as it is after its key columns, or
/// as the error it is.
fn put_row(out: &mut Vec<u8>, table: usize, row: &RawRow) {
    if let Some((col, why)) = &row.damage {
        return damaged_row(out, table, row.line, *col, why);
    }
    match key_of(&row.text, KEYS[table]) {
        Ok((_, rest)) => {
            out.extend_from_slice(format!("{}:{},", TABLES[table], row.line).as_bytes());
            out.extend_from_slice(&row.text.as_bytes()[rest..]);
            out.push(b'\n');
        }
        Err(why) => damaged_row(out, table, row.line, 1, &why),
    }
}

impl Merge {
    /// Whether a key is one of the games to come, within [`WINDOW`] games:
    /// games.csv is read ahead as far as needed to tell.
    fn is_upcoming(&mut self, key: &str) -> io::Result<bool> {
        let hash = key_hash(key);
        if self.counts.contains_key(&hash) {
            return Ok(true);
        }
        while self.upcoming.len() < WINDOW {
            let Some(row) = self.games.next()? else {
                break;
            };
            let id = row_key(&row);
            let found = match &id {
                Some(k) => {
                    let h = key_hash(k);
                    *self.counts.entry(h).or_default() += 1;
                    h == hash
                }
                None => false,
            };
            self.upcoming.push_back((row, id));
            if found {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The next row of games.csv, with its key.
    fn next_games_row(&mut self) -> io::Result<Option<(RawRow, Option<String>)>> {
        let Some((row, id)) = self.upcoming.pop_front() else {
            return Ok(self.games.next()?.map(|row| {
                let id = row_key(&row);
                (row, id)
            }));
        };
        if let Some(k) = &id {
            let h = key_hash(k);
            if let Some(n) = self.counts.get_mut(&h) {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&h);
                }
            }
        }
        Ok(Some((row, id)))
    }

    /// Reads the next row of `tags.csv` (0) or `moves.csv` (1) into
    /// `pending`.
    fn fill(&mut self, t: usize) -> io::Result<()> {
        if self.pending[t].is_none() {
            if let Some(row) = self.rows[t].next()? {
                let id = row_key(&row);
                self.pending[t] = Some(Pending { row, id });
            }
        }
        Ok(())
    }

    /// The next game, in container form, into `out`; false at the end.
    fn next_game(&mut self) -> io::Result<bool> {
        self.out.clear();
        self.pos = 0;
        let Some((row, id)) = self.next_games_row()? else {
            for t in 0..2 {
                self.fill(t)?;
                if let Some(p) = &self.pending[t] {
                    return Err(self.rows[t].error(
                        p.row.line,
                        &format!(
                            "a row of game {}, which games.csv does not have",
                            p.id.as_deref().unwrap_or("(none)")
                        ),
                    ));
                }
            }
            return Ok(false);
        };
        put_row(&mut self.out, 0, &row);
        for t in 0..2 {
            // Rows of no game met among this game's: how many, and the
            // first one's line and key.
            let mut stray: Option<(usize, Option<String>, usize)> = None;
            loop {
                self.fill(t)?;
                let Some(p) = self.pending[t].take() else {
                    break;
                };
                if p.id.is_some() && p.id == id {
                    put_row(&mut self.out, t + 1, &p.row);
                    continue;
                }
                let upcoming = match p.id.as_deref() {
                    Some(k) => self.is_upcoming(k)?,
                    None => false,
                };
                if upcoming {
                    self.pending[t] = Some(p);
                    break;
                }
                match stray.as_mut() {
                    Some((_, _, n)) => *n += 1,
                    None => stray = Some((p.row.line, p.id, 1)),
                }
            }
            if let Some((line, key, n)) = stray {
                let more = match n {
                    1 => String::new(),
                    n => format!(" (and the {} rows after it)", n - 1),
                };
                let message = format!(
                    "a row of game {}, which games.csv does not have here: a game's rows \
                     follow games.csv's order{more}",
                    crate::error::quote(key.as_deref().unwrap_or(""))
                );
                damaged_row(&mut self.out, t + 1, line, 1, &message);
            }
        }
        Ok(true)
    }
}

impl Read for Merge {
    /// Fills `buf` with as many games as it holds (a reader asks for
    /// large reads, as a file gives them).
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let mut filled = 0;
        while filled < buf.len() {
            if self.pos == self.out.len() {
                match self.next_game() {
                    _ if self.done => break,
                    Ok(true) => continue,
                    Ok(false) => self.done = true,
                    // The games before the error are read first.
                    Err(e) if filled > 0 => self.failed = Some(e),
                    Err(e) => return Err(e),
                }
                break;
            }
            let n = (buf.len() - filled).min(self.out.len() - self.pos);
            buf[filled..filled + n].copy_from_slice(&self.out[self.pos..self.pos + n]);
            self.pos += n;
            filled += n;
        }
        Ok(filled)
    }
}
