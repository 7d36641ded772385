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
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::codec::{
    line_col, too_deep, Folder, Games, Origin, Oversize, Parsed, ReadOptions, Scan, Skip, Tables,
    WriteOptions,
};
use crate::error::{Error, Problem};
use crate::family::{Move, Setup, Variant};
use crate::interchange::merge;
use crate::interchange::rows::{self, header, Kind::*, COLUMNS, KEYS};
use crate::ir::{Comment, Game, GameResult, Line, Ply, Side, Tag, MAX_VARIATION_DEPTH};
use crate::output::{OutFile, Output};

pub(crate) use crate::interchange::rows::field;
pub use crate::interchange::rows::{runs, write, CANNOT_HOLD, TABLES};

/// The table files of a folder, in the order of [`TABLES`].
pub const FILES: [&str; 3] = ["games.csv", "tags.csv", "moves.csv"];

/// Where the row that starts at `data[0]` ends: after its line end outside
/// quotes; `None` when `data` does not hold it.
fn row_end(data: &[u8]) -> Option<usize> {
    // Inside quotes after an odd number of them (a quote in a field is
    // doubled): a line end after an even number ends the row. Only the
    // count's parity matters, taken eight bytes at a time (stopping at
    // each quote is slow: the JSON columns hold many).
    let mut odd = false;
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\n', &data[at..]) {
        let nl = at + i;
        odd ^= quotes_odd(&data[at..nl]);
        if !odd {
            return Some(nl + 1);
        }
        at = nl + 1;
    }
    None
}

/// Whether `data` holds an odd number of quotes: their count in a `u8`,
/// wrapping (its parity is the count's), which the compiler adds up
/// thirty-two bytes at a time (in a `usize` it widened byte by byte; a
/// word's quotes found by arithmetic took a dozen instructions for eight
/// bytes).
fn quotes_odd(data: &[u8]) -> bool {
    let count = data
        .iter()
        .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'"')));
    count % 2 == 1
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
        // Each table's name and its comma, moves first (most rows are):
        // prefixes of a known length, compared without a call.
        let table = [2, 1, 0].into_iter().find(|&t| {
            let name = TABLES[t];
            line.len() > name.len() && line.starts_with(name) && line.as_bytes()[name.len()] == b','
        });
        Some(
            table
                .map(|t| (t, &line[TABLES[t].len()..]))
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
        Ok(Box::new(merge::Merge::open(dir)?))
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
            .of_kind(crate::error::Kind::Document)
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
        let (name, mut next, mut more) = next_field(text, pos)
            .map_err(|m| Problem::at(at(), m).of_kind(crate::error::Kind::Document))?;
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
            return Err(
                Problem::at(at(), format!("{file} line {line}, column {col}: {why}"))
                    .of_kind(crate::error::Kind::Document),
            );
        }
        let Some(t) = TABLES.iter().position(|n| *n == table) else {
            return Err(Problem::at(
                at(),
                format!(
                    "a row of no table {table} (games, tags or moves)",
                    table = crate::error::quote(table)
                ),
            )
            .of_kind(crate::error::Kind::Document));
        };
        let place = match line {
            "" => format!("a {table} row"),
            l => format!("{} line {l}", FILES[t]),
        };
        let mut fields = Vec::new();
        while more {
            let (value, n, m) = next_field(text, next).map_err(|m| {
                Problem::at(line_col(text, next), format!("{place}: {m}"))
                    .of_kind(crate::error::Kind::Document)
            })?;
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
            )
            .of_kind(crate::error::Kind::Document));
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
        return Err(Problem::whole("a game's rows start with its games row")
            .of_kind(crate::error::Kind::Document));
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
    use crate::interchange::merge::{without_line_end, RowScan};

    proptest::proptest! {
        /// A row ends where a line end follows an even number of quotes,
        /// at any length and any place of the quotes in their words.
        #[test]
        fn a_row_ends_after_an_even_number_of_quotes(
            data in proptest::collection::vec(
                proptest::sample::select(b"\"\n\r,a\xe9".to_vec()), 0..80)
        ) {
            let mut quotes = 0;
            let mut want = None;
            for (i, &b) in data.iter().enumerate() {
                match b {
                    b'"' => quotes += 1,
                    b'\n' if quotes % 2 == 0 => {
                        want = Some(i + 1);
                        break;
                    }
                    _ => {}
                }
            }
            proptest::prop_assert_eq!(row_end(&data), want);
            let odd = data.iter().filter(|&&b| b == b'"').count() % 2 == 1;
            proptest::prop_assert_eq!(quotes_odd(&data), odd);
        }
    }

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
