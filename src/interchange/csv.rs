//! `csv`: games as three database tables in a folder, `games.csv`,
//! `tags.csv` and `moves.csv` (UTF-8, a header row, RFC 4180 quoting, an
//! empty unquoted field for NULL and `""` for the empty string), that
//! `kifu schema --sql` describes and that read back to the same games.
//!
//! The writer ([`write()`]) gives one game's rows as a *container*: each row
//! starts with its table's name (`games`, `tags`, `moves`) in place of the
//! key columns, which depend on where the game came from. [`TableSink`]
//! puts each row into its table with its game's key (and the games row
//! with its source and index). Reading does the reverse: [`Folder::open`]
//! merges the three tables, game by game, into that container form (with
//! each row's line in its table, `moves:17`), which [`TableScan`] cuts into
//! records and [`read`] reads, one game at a time: memory stays flat
//! either way.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use crate::codec::{
    line_col, too_deep, Folder, Games, Origin, Oversize, Parsed, ReadOptions, Scan, Skip, Tables,
    WriteOptions,
};
use crate::error::{Error, Problem};
use crate::family::{Move, Setup, Variant};
use crate::interchange::rows::{self, columns, header, Kind::*, COLUMNS, KEYS};
use crate::ir::{Comment, Game, GameResult, Line, Ply, Side, Tag, MAX_VARIATION_DEPTH};
use crate::output::{OutFile, Output};

pub(crate) use crate::interchange::rows::field;
pub use crate::interchange::rows::{runs, write, CANNOT_HOLD, TABLES};

/// The table files of a folder, in the order of [`TABLES`].
pub const FILES: [&str; 3] = ["games.csv", "tags.csv", "moves.csv"];

/// Where the row that starts at `data[0]` ends: after its line end outside
/// quotes; `None` when `data` does not hold it.
fn row_end(data: &[u8]) -> Option<usize> {
    let mut quoted = false;
    let mut at = 0;
    while let Some(i) = memchr::memchr2(b'"', b'\n', &data[at..]) {
        let i = at + i;
        match data[i] {
            b'"' => quoted = !quoted,
            _ if !quoted => return Some(i + 1),
            _ => {}
        }
        at = i + 1;
    }
    None
}

/// A game's key: 16 hex digits of a hash of its record's bytes (blanks
/// around it left out), stable from run to run and machine to machine.
pub fn game_key(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes = bytes.trim_ascii();
    let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    // MurmurHash3's finalizer.
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// The tables of a run: each container row of a game goes to its table,
/// after its game's key (`game_id`: [`game_key`] of the record, and `-2`,
/// `-3`, ... for the second, third, ... record of the same bytes in the
/// run). The tables not kept (all but `moves` on one stream) are skipped.
pub struct TableSink {
    outs: [Option<Output>; 3],
    name: String,
    ids: GameIds,
    buf: String,
}

/// The `game_id` of each game of a run: [`game_key`] of its record, and
/// `-2`, `-3`, ... for the second, third, ... record of the same bytes.
/// The csv and the parquet tables both key their rows with it.
#[derive(Default)]
pub(crate) struct GameIds {
    /// The keys met so far.
    seen: HashSet<u64>,
    /// How many records of a key met more than once came so far.
    repeats: HashMap<u64, u32>,
}

impl GameIds {
    /// The ids of a run that goes on after games already keyed elsewhere
    /// (the partitions before one, `kifu.dask`): each key of `prior` with
    /// how many records of it came before.
    #[cfg_attr(not(feature = "python"), allow(dead_code))]
    pub(crate) fn after(prior: &[(u64, u32)]) -> GameIds {
        let mut ids = GameIds::default();
        for &(key, n) in prior.iter().filter(|p| p.1 > 0) {
            ids.seen.insert(key);
            if n > 1 {
                ids.repeats.insert(key, n);
            }
        }
        ids
    }

    /// The id of the next game, whose record is `bytes`.
    pub(crate) fn id(&mut self, bytes: &[u8]) -> String {
        let key = game_key(bytes);
        if self.seen.insert(key) {
            format!("{key:016x}")
        } else {
            let n = self.repeats.entry(key).or_insert(1);
            *n += 1;
            format!("{key:016x}-{n}")
        }
    }
}

/// The container rows of a game as [`write`] gives them: each row's table
/// (an index of [`TABLES`]) and its text after the table's name (from the
/// comma before its first field, its line end included).
pub(crate) fn container_rows(text: &str) -> impl Iterator<Item = io::Result<(usize, &str)>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = row_end(rest.as_bytes()).unwrap_or(rest.len());
        let (line, tail) = rest.split_at(end);
        rest = tail;
        let comma = memchr::memchr(b',', line.as_bytes()).unwrap_or(line.len());
        Some(
            TABLES
                .iter()
                .position(|t| *t == &line[..comma])
                .map(|t| (t, &line[comma..]))
                .ok_or_else(|| io::Error::other("a csv row of no table (a bug)")),
        )
    })
}

impl TableSink {
    /// Tables over these outputs (in the order of [`TABLES`]); writes the
    /// header rows.
    fn new(outs: [Option<Output>; 3], name: String, fen: bool) -> io::Result<TableSink> {
        let mut sink = TableSink {
            outs,
            name,
            ids: GameIds::default(),
            buf: String::new(),
        };
        for (t, out) in sink.outs.iter_mut().enumerate() {
            if let Some(out) = out {
                out.write_all(header(t, fen).as_bytes())?;
                out.write_all(b"\r\n")?;
            }
        }
        Ok(sink)
    }
}

impl Games for TableSink {
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> io::Result<()> {
        let id = self.ids.id(origin.bytes);
        self.rows(text, &id, origin)
    }

    fn spilled(
        &mut self,
        text: crate::output::spill::Spilled,
        origin: &Origin<'_>,
    ) -> io::Result<()> {
        let id = self.ids.id(origin.bytes);
        text.pieces(rows_end, &mut |rows| self.rows(rows, &id, origin))
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// Where the last whole row of `data` ends, if one does.
fn rows_end(data: &[u8]) -> Option<usize> {
    let mut end = None;
    let mut at = 0;
    while let Some(n) = row_end(&data[at..]) {
        at += n;
        end = Some(at);
    }
    end
}

impl TableSink {
    /// Puts a game's container rows (whole rows) in their tables, after
    /// the game's `id`.
    fn rows(&mut self, text: &str, id: &str, origin: &Origin<'_>) -> io::Result<()> {
        for row in container_rows(text) {
            let (t, fields) = row?;
            let Some(out) = self.outs[t].as_mut() else {
                continue;
            };
            self.buf.clear();
            self.buf.push_str(id);
            if t == 0 {
                self.buf.push(',');
                field(&mut self.buf, Some(origin.source));
                self.buf.push(',');
                self.buf.push_str(&origin.index.to_string());
            }
            out.write_all(self.buf.as_bytes())?;
            out.write_all(fields.as_bytes())?;
        }
        Ok(())
    }
}

impl Tables for TableSink {
    fn commit(self: Box<Self>) -> Result<(), Error> {
        let name = self.name;
        let [games, tags, moves] = self.outs;
        for out in [games, tags, moves].into_iter().flatten() {
            let mut out = out;
            out.flush().map_err(|e| Error::io(&name, e))?;
            out.commit()?;
        }
        Ok(())
    }
}

/// The folder of the `csv` tables.
#[derive(Debug)]
pub struct CsvFolder;

impl Folder for CsvFolder {
    fn files(&self, dir: &Path) -> Vec<PathBuf> {
        FILES.iter().map(|f| dir.join(f)).collect()
    }

    fn open(&self, dir: &Path) -> io::Result<Box<dyn Read + Send>> {
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
        Ok(Box::new(Merge {
            games: open(0)?,
            upcoming: VecDeque::new(),
            counts: HashMap::new(),
            rows: [open(1)?, open(2)?],
            pending: [None, None],
            out: Vec::new(),
            pos: 0,
            done: false,
            failed: None,
        }))
    }

    fn create(&self, dir: &Path, opts: &WriteOptions) -> Result<Box<dyn Tables>, Error> {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let open = |name: &str| OutFile::create(&dir.join(name)).map(Output::File);
        let outs = [open(FILES[0])?, open(FILES[1])?, open(FILES[2])?];
        let name = dir.display().to_string();
        let fen = rows::options(opts).fen;
        let sink =
            TableSink::new(outs.map(Some), name.clone(), fen).map_err(|e| Error::io(name, e))?;
        Ok(Box::new(sink))
    }

    fn stream(&self, out: Output, name: String, opts: &WriteOptions) -> Box<dyn Tables> {
        // The header is written with the first write; an error there is
        // the stream's, reported when the sink is used or committed.
        match TableSink::new(
            [None, None, Some(out)],
            name.clone(),
            rows::options(opts).fen,
        ) {
            Ok(sink) => Box::new(sink),
            Err(e) => Box::new(Failed(name, Some(e))),
        }
    }
}

/// Tables whose header could not be written: the error comes back at the
/// first use.
struct Failed(String, Option<io::Error>);

impl Games for Failed {
    fn game(&mut self, _: &str, _: &Origin<'_>) -> io::Result<()> {
        Err(self
            .1
            .take()
            .unwrap_or_else(|| io::Error::other("write failed")))
    }
    fn name(&self) -> &str {
        &self.0
    }
}

impl Tables for Failed {
    fn commit(mut self: Box<Self>) -> Result<(), Error> {
        match self.1.take() {
            Some(e) => Err(Error::io(&self.0, e)),
            None => Ok(()),
        }
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
struct RowScan {
    /// How many fields.
    fields: usize,
    /// The first damage: its byte offset and why.
    damage: Option<(usize, &'static str)>,
    /// Where the scan goes on.
    at: usize,
    /// Where the quoted field still open at `at` starts, if one is.
    open: Option<usize>,
}

impl RowScan {
    fn new() -> RowScan {
        RowScan {
            fields: 1,
            damage: None,
            at: 0,
            open: None,
        }
    }

    /// Scans the row's text from where the last scan stopped.
    fn scan(&mut self, bytes: &[u8]) {
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
    fn damage(&self) -> Option<(usize, &'static str)> {
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
fn without_line_end(bytes: &[u8]) -> &[u8] {
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
struct Merge {
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

/// Whether a container row starts here: a games row starts a record.
fn starts_game(data: &[u8]) -> bool {
    data.starts_with(b"games,") || data.starts_with(b"games:")
}

/// The record scanner of `csv`: a record is one game's container rows,
/// from its games row to the next one.
#[derive(Debug)]
pub struct TableScan;

impl Scan for TableScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        let is_game = starts_game(data);
        let mut at = 0;
        while at < data.len() {
            if at > 0 && starts_game(&data[at..]) {
                return Some((at, is_game));
            }
            match row_end(&data[at..]) {
                Some(n) => at += n,
                None if eof => return Some((data.len(), is_game)),
                None => return None,
            }
            // A games row may be cut after its line end: more is needed.
            if !eof && data.len() - at < 6 {
                return None;
            }
        }
        eof.then_some((data.len(), is_game))
    }

    fn oversize(&self) -> Oversize {
        // A record over the limit is passed to the end of its games row;
        // its other rows then come as text of no game, which says nothing.
        Oversize {
            skip: Box::new(RowSkip(false)),
            from_start: true,
        }
    }

    fn has_text(&self, _: &[u8]) -> bool {
        false
    }

    fn folder(&self) -> Option<&'static dyn Folder> {
        Some(&CsvFolder)
    }
}

/// Streams past one row: it ends after its line end outside quotes.
struct RowSkip(bool);

impl Skip for RowSkip {
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        for (i, &b) in data.iter().enumerate() {
            match b {
                b'"' => self.0 = !self.0,
                b'\n' if !self.0 => return Some(i + 1),
                _ => {}
            }
        }
        None
    }
}

/// Reads one field starting at `pos`: its value (`None` for an empty
/// unquoted field, NULL), where the next field starts, and whether one
/// does (false at the row's end).
pub(crate) fn next_field(
    text: &str,
    pos: usize,
) -> Result<(Option<Cow<'_, str>>, usize, bool), String> {
    let bytes = text.as_bytes();
    let end_of = |i: usize| -> Result<(usize, bool), String> {
        match bytes.get(i) {
            None => Ok((i, false)),
            Some(b',') => Ok((i + 1, true)),
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => Ok((i + 2, false)),
            Some(b'\n') => Ok((i + 1, false)),
            Some(_) => Err("text after a quoted field's closing quote".to_string()),
        }
    };
    if bytes.get(pos) == Some(&b'"') {
        let mut value = String::new();
        let mut at = pos + 1;
        loop {
            let Some(q) = memchr::memchr(b'"', &bytes[at..]) else {
                return Err("a quoted field is never closed".to_string());
            };
            value.push_str(&text[at..at + q]);
            at += q + 1;
            if bytes.get(at) == Some(&b'"') {
                value.push('"');
                at += 1;
            } else {
                let (next, more) = end_of(at)?;
                return Ok((Some(Cow::Owned(value)), next, more));
            }
        }
    }
    let end = memchr::memchr2(b',', b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
    let value = text[pos..end].strip_suffix('\r').unwrap_or(&text[pos..end]);
    if value.contains('"') {
        return Err("a quote inside a field that is not quoted".to_string());
    }
    let value = (!value.is_empty()).then_some(Cow::Borrowed(value));
    let more = bytes.get(end) == Some(&b',');
    Ok((value, (end + 1).min(bytes.len()), more))
}

/// A container row, read.
struct Row<'t> {
    /// The table, as an index of [`TABLES`].
    table: usize,
    /// Its fields after the table's name.
    fields: Vec<Option<Cow<'t, str>>>,
    /// Where it is: in its table (`moves.csv line 17`) or in the record.
    place: String,
    /// Where it starts in the record.
    offset: usize,
    /// The record.
    text: &'t str,
}

impl Row<'_> {
    fn get(&self, i: usize) -> Option<&str> {
        self.fields.get(i).and_then(|f| f.as_deref())
    }

    /// Its line and column in the record.
    fn at(&self) -> (usize, usize) {
        line_col(self.text, self.offset)
    }

    fn error(&self, message: impl std::fmt::Display) -> Problem {
        Problem::at(self.at(), format!("{}: {message}", self.place))
    }

    /// A column that must hold a value.
    fn need(&self, i: usize) -> Result<&str, Problem> {
        self.get(i).ok_or_else(|| {
            let t = self.table;
            self.error(format!("`{}` is empty", COLUMNS[t][i + KEYS[t]].0))
        })
    }

    /// A column read as JSON, when it holds a value.
    fn json<T: serde::de::DeserializeOwned>(&self, i: usize) -> Result<Option<T>, Problem> {
        let t = self.table;
        self.get(i)
            .map(|text| {
                // serde_json's own depth limit (128) holds every value of
                // these columns: a game's variations are rows, not JSON.
                let mut de = serde_json::Deserializer::from_str(text);
                let value = T::deserialize(&mut de).and_then(|v| de.end().map(|()| v));
                value.map_err(|e| {
                    self.error(format!(
                        "`{}` is not kifu's JSON: {e}",
                        COLUMNS[t][i + KEYS[t]].0
                    ))
                })
            })
            .transpose()
    }

    /// A column read as a number, when it holds a value.
    fn number<T: std::str::FromStr>(&self, i: usize) -> Result<Option<T>, Problem> {
        let t = self.table;
        self.get(i)
            .map(|text| {
                text.parse().map_err(|_| {
                    self.error(format!(
                        "`{}` is not a number: {}",
                        COLUMNS[t][i + KEYS[t]].0,
                        crate::error::quote(text)
                    ))
                })
            })
            .transpose()
    }
}

/// Reads every container row of a record.
fn rows(text: &str) -> Result<Vec<Row<'_>>, Problem> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let at = || line_col(text, pos);
        let (name, mut next, mut more) = next_field(text, pos).map_err(|m| Problem::at(at(), m))?;
        let name = name.unwrap_or_default();
        let (table, line) = name.split_once(':').unwrap_or((&name, ""));
        // A row of a table that could not be read: its error.
        if let Some((line, col)) = line.split_once(':') {
            let file = TABLES
                .iter()
                .position(|n| *n == table)
                .map_or(table, |t| FILES[t]);
            let why = match more {
                true => next_field(text, next)
                    .ok()
                    .and_then(|f| f.0)
                    .unwrap_or_default(),
                false => Cow::Borrowed(""),
            };
            return Err(Problem::at(
                at(),
                format!("{file} line {line}, column {col}: {why}"),
            ));
        }
        let Some(t) = TABLES.iter().position(|n| *n == table) else {
            return Err(Problem::at(
                at(),
                format!(
                    "a row of no table {table} (games, tags or moves)",
                    table = crate::error::quote(table)
                ),
            ));
        };
        let place = match line {
            "" => format!("a {table} row"),
            l => format!("{} line {l}", FILES[t]),
        };
        let mut fields = Vec::new();
        while more {
            let (value, n, m) = next_field(text, next)
                .map_err(|m| Problem::at(line_col(text, next), format!("{place}: {m}")))?;
            fields.push(value);
            next = n;
            more = m;
        }
        let want = COLUMNS[t].len() - KEYS[t];
        // A moves row of tables with the `fen` column: it is not read.
        if t == 2 && fields.len() == want + 1 {
            fields.pop();
        }
        if fields.len() != want {
            return Err(Problem::at(
                at(),
                format!(
                    "{place}: {} columns where {table} has {}",
                    fields.len() + KEYS[t],
                    want + KEYS[t]
                ),
            ));
        }
        out.push(Row {
            table: t,
            fields,
            place,
            offset: pos,
            text,
        });
        pos = next;
    }
    Ok(out)
}

/// Reads a variation path: `12.1/3.2` is the second variation of the third
/// ply of the first variation of the main line's twelfth ply.
fn path_of(text: &str) -> Option<Vec<(usize, usize)>> {
    text.split('/')
        .map(|step| {
            let (p, v) = step.split_once('.')?;
            let (p, v) = (p.parse().ok()?, v.parse().ok()?);
            (p > 0 && v > 0).then_some((p, v))
        })
        .collect()
}

/// The line a path names, a variation made when it is the next one of its
/// ply.
fn line_at<'l>(mut line: &'l mut Line, path: &[(usize, usize)]) -> Option<&'l mut Line> {
    for &(p, v) in path {
        let ply = line.plies.get_mut(p - 1)?;
        if v == ply.variations.len() + 1 {
            ply.variations.push(Line::default());
        }
        line = ply.variations.get_mut(v - 1)?;
    }
    Some(line)
}

/// Reads one game: its container rows (a games row, its tags rows, its
/// moves rows).
pub fn read(text: &str, _opts: &ReadOptions) -> Result<Parsed, Problem> {
    let rows = rows(text)?;
    let Some((first, rest)) = rows.split_first().filter(|(r, _)| r.table == 0) else {
        return Err(Problem::whole("a game's rows start with its games row"));
    };
    let variant: Variant = first
        .json(1)?
        .ok_or_else(|| first.error("`variant` is empty"))?;
    if variant.family().name() != first.need(0)? {
        return Err(first.error(format!(
            "the family {} is not the variant's, {}",
            crate::error::quote(first.need(0)?),
            variant.family().name()
        )));
    }
    let mut game = Game::new(variant);
    game.result = match first.get(10) {
        None => None,
        Some(token) => Some(GameResult::parse(token).ok_or_else(|| {
            first.error(format!(
                "{token} is not a game result",
                token = crate::error::quote(token)
            ))
        })?),
    };
    game.setup = first.json::<Setup>(11)?;
    game.preamble = first.json(12)?.unwrap_or_default();
    game.moves.trailing = first.json(13)?.unwrap_or_default();
    for row in rest {
        match row.table {
            0 => return Err(row.error("a second games row in one game")),
            1 => game
                .tags
                .push(Tag::new(row.need(1)?, row.get(2).unwrap_or(""))),
            _ => add_move(&mut game, row)?,
        }
    }
    if game.moves.depth(MAX_VARIATION_DEPTH) > MAX_VARIATION_DEPTH {
        return Err(too_deep((0, 0)));
    }
    game.result = game.result.map(|r| r.in_family(game.family()));
    crate::interchange::json::validate(&game)?;
    Ok(Parsed {
        game,
        warnings: Vec::new(),
    })
}

/// Puts a moves row's ply (or its empty variation) in its place.
fn add_move(game: &mut Game, row: &Row<'_>) -> Result<(), Problem> {
    let path = match row.get(4) {
        None => Vec::new(),
        Some(text) => path_of(text).ok_or_else(|| {
            row.error(format!(
                "{text} is no variation path (`12.1/3.2`)",
                text = crate::error::quote(text)
            ))
        })?,
    };
    if path.len() > MAX_VARIATION_DEPTH {
        return Err(too_deep(row.at()));
    }
    let line = line_at(&mut game.moves, &path)
        .ok_or_else(|| row.error("its variation follows no ply before it"))?;
    let end: Option<Vec<Comment>> = row.json(18)?;
    let Some(mv) = row.json::<Move>(19)? else {
        // A variation without plies.
        if path.is_empty() || !line.plies.is_empty() {
            return Err(row.error("`ir` is empty: a row without a move is an empty variation"));
        }
        line.trailing = end.unwrap_or_default();
        return Ok(());
    };
    let index: usize = row.number(1)?.ok_or_else(|| row.error("`ply` is empty"))?;
    if index != line.plies.len() + 1 {
        return Err(row.error(format!(
            "ply {index} where its line has {} plies before it",
            line.plies.len()
        )));
    }
    let number = row
        .number(2)?
        .ok_or_else(|| row.error("`number` is empty"))?;
    let side = match row.get(3) {
        Some("white") => Side::White,
        Some("black") => Side::Black,
        other => {
            return Err(row.error(format!(
                "`side` is {}, not white or black",
                crate::error::quote(other.unwrap_or(""))
            )))
        }
    };
    let mut ply = Ply::new(number, side, mv);
    ply.glyph = row.get(14).map(str::to_string);
    if let Some(nags) = row.get(15) {
        ply.nags = nags
            .split_ascii_whitespace()
            .map(|n| n.parse())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                row.error(format!(
                    "`nags` is not numbers: {nags}",
                    nags = crate::error::quote(nags)
                ))
            })?;
    }
    ply.before = row.json(16)?.unwrap_or_default();
    ply.after = row.json(17)?.unwrap_or_default();
    line.plies.push(ply);
    if let Some(end) = end {
        line.trailing = end;
    }
    Ok(())
}

/// The SQL dialects `kifu schema --sql` writes.
pub const DIALECTS: [&str; 2] = ["sqlite", "postgres"];

/// The CREATE TABLE statements that load the three tables as they are, in
/// a dialect of [`DIALECTS`].
pub fn schema(dialect: &str) -> Option<String> {
    let pg = match dialect {
        "sqlite" => false,
        "postgres" => true,
        _ => return None,
    };
    let mut out = String::new();
    let keys: [&str; 3] = ["game_id", "game_id, position", "game_id, seq"];
    for (t, table) in TABLES.iter().enumerate() {
        out.push_str(&format!("CREATE TABLE {table} (\n"));
        for &(name, kind, not_null) in COLUMNS[t] {
            let ty = match (kind, pg) {
                (Text, _) => "TEXT",
                (Integer, _) => "INTEGER",
                (Boolean, false) => "INTEGER",
                (Boolean, true) => "BOOLEAN",
                (Json, false) => "TEXT",
                (Json, true) => "JSONB",
            };
            out.push_str(&format!("    {name} {ty}"));
            if not_null {
                out.push_str(" NOT NULL");
            }
            if t > 0 && name == "game_id" {
                out.push_str(" REFERENCES games (game_id)");
            }
            out.push_str(",\n");
        }
        out.push_str(&format!("    PRIMARY KEY ({})\n);\n", keys[t]));
        // SQLite's `.import` reads an empty field as the empty string, as
        // it reads `""`: each row's empty fields are made NULL again where
        // it may be NULL (in the roster columns an empty tag value then
        // reads NULL too: tags keeps it).
        let nullable: Vec<&str> = COLUMNS[t].iter().filter(|c| !c.2).map(|c| c.0).collect();
        if !pg && !nullable.is_empty() {
            let sets: Vec<String> = nullable
                .iter()
                .map(|c| format!("{c} = NULLIF({c}, '')"))
                .collect();
            out.push_str(&format!(
                "CREATE TRIGGER {table}_null AFTER INSERT ON {table} BEGIN\n    UPDATE {table} SET {}\n    WHERE rowid = NEW.rowid;\nEND;\n",
                sets.join(", ")
            ));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_rfc_4180_says_and_read_back() {
        for value in [
            None,
            Some(""),
            Some("plain"),
            Some("a,b"),
            Some("say \"hi\""),
            Some("two\r\nlines\n"),
            Some("\"\""),
        ] {
            let mut out = String::new();
            field(&mut out, value);
            let (back, next, more) = next_field(&out, 0).unwrap();
            assert_eq!(back.as_deref(), value, "{out}");
            assert_eq!((next, more), (out.len(), false), "{out}");
        }
    }

    #[test]
    fn json_nested_past_any_game_is_an_error_not_a_stack_overflow() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let mut text =
            String::from("games,chess,\"{\"\"family\"\":\"\"chess\"\"}\",,,,,,,,0,,,,\r\n");
        text.push_str("moves,1,1,1,white,,e4,e2e4,e2,e4,,P,,0,0,,,,,,\"");
        text.push_str(&deep);
        text.push_str("\"\r\n");
        let e = read(&text, &ReadOptions::default()).unwrap_err();
        assert!(
            e.message.contains("`ir` is not kifu's JSON"),
            "{}",
            e.message
        );
    }

    #[test]
    fn ids_after_the_keys_of_earlier_parts_are_one_runs_ids() {
        let records: Vec<&[u8]> = vec![b"a", b"b", b"a", b"c", b"a", b"b", b"d", b"a"];
        let mut one = GameIds::default();
        let whole: Vec<String> = records.iter().map(|r| one.id(r)).collect();
        for cut in 0..=records.len() {
            let (before, after) = records.split_at(cut);
            let mut first = GameIds::default();
            let mut ids: Vec<String> = before.iter().map(|r| first.id(r)).collect();
            let mut prior: Vec<(u64, u32)> = Vec::new();
            for r in before {
                let key = game_key(r);
                match prior.iter_mut().find(|p| p.0 == key) {
                    Some(p) => p.1 += 1,
                    None => prior.push((key, 1)),
                }
            }
            let mut rest = GameIds::after(&prior);
            ids.extend(after.iter().map(|r| rest.id(r)));
            assert_eq!(ids, whole, "cut at {cut}");
        }
        assert!(whole[7].ends_with("-4") && whole[5].ends_with("-2"));
    }

    #[test]
    fn the_key_is_stable_and_ignores_blanks_around_the_record() {
        assert_eq!(game_key(b"1. e4 *"), game_key(b"\n\n1. e4 *\n"));
        assert_ne!(game_key(b"1. e4 *"), game_key(b"1. d4 *"));
        assert_eq!(
            format!("{:016x}", game_key(b"")),
            format!("{:016x}", game_key(b""))
        );
    }

    #[test]
    fn a_row_is_scanned_as_rfc_4180_says_and_goes_on_where_it_stopped() {
        let scan = |text: &str| {
            let mut s = RowScan::new();
            s.scan(text.as_bytes());
            (s.fields, s.damage(), s.open.is_some())
        };
        assert_eq!(scan("a,\"b,\"\"c\",d"), (3, None, false));
        assert_eq!(scan("a,\"\""), (2, None, false));
        assert_eq!(
            scan("a,b\"c,d"),
            (
                3,
                Some((3, "a quote inside a field that is not quoted")),
                false
            )
        );
        assert_eq!(
            scan("a,\"b\"c,d"),
            (
                3,
                Some((5, "text after a quoted field's closing quote")),
                false
            )
        );
        assert_eq!(
            scan("a,\"b,c"),
            (2, Some((2, "a quoted field is never closed")), true)
        );
        // A quoted field that holds line ends, scanned a line at a time.
        let row = "k,\"one\r\ntwo \"\"q\"\"\nthree\",z";
        let mut s = RowScan::new();
        let mut ends = row
            .match_indices('\n')
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>();
        ends.push(row.len());
        for end in ends {
            s.scan(without_line_end(&row.as_bytes()[..end]));
        }
        assert_eq!((s.fields, s.damage(), s.open), (3, None, None));
    }

    #[test]
    fn a_record_ends_before_the_next_games_row_outside_quotes() {
        let text = b"games,a\r\ntags,\"x\ngames,y\"\r\ngames,b\r\n";
        assert_eq!(TableScan.end(text, true), Some((27, true)));
        assert_eq!(TableScan.end(&text[..30], false), None);
        assert_eq!(TableScan.end(&text[27..], true), Some((9, true)));
    }
}
