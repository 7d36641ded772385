//! `kifu diff`: where two transcriptions of the same games disagree.
//!
//! Both sides are read into the IR by the shared pipeline (each file's
//! records read in parallel, in order: [`Games`]), in any notations of one
//! family. Games are paired in order or by tags; each pair is compared by
//! meaning ([`compare`]): tags, the start, the result, and the main line's
//! moves, aligned with `similar` so that a skipped half-move is one
//! insertion. A game whose moves cannot be replayed is read again by its
//! text alone, the illegal move is named, and both games are aligned by
//! what their text says. [`render_text`] and [`render_json`] show a pair;
//! [`report`] runs a whole diff.

use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::io::{self, Read};

use serde_json::{json, Value};
use similar::{capture_diff_slices, group_diff_ops, Algorithm, DiffOp, DiffTag};

use crate::archive::{cut_short, Document, ParMap, Record, Records};
use crate::codec::ReadOptions;
use crate::codec::MAX_RECORD;
use crate::error::Problem;
use crate::family::main_line_fens;
use crate::format::{by_name, Format};
use crate::ir::{Game, Side};
use crate::options::Settings;
use crate::policy::{read_claimed, read_record};
use crate::spell;

pub mod html;
pub mod report;

/// One game of one side, as read.
#[derive(Debug)]
pub struct Entry {
    /// Its number in its input, from 1.
    pub number: usize,
    /// The line its game starts on (the first of its record that is not
    /// blank).
    pub line: usize,
    /// The game: replayed, or (when its moves could not be replayed) read
    /// by its text alone.
    pub game: Option<Game>,
    /// Why it could not be read (replayed): `LINE:COL: what` in its input.
    pub error: Option<String>,
    /// What its reader said of it (what it mended: a capture mark on a
    /// move that captures nothing, castling in lower case, ...), placed in
    /// its input, as `convert` says it.
    pub warnings: Vec<Problem>,
}

/// Reads one record for diff: the game, or the error and the game read by
/// its text alone (`--no-validate`) when the text reads that way.
fn entry_of(format: &Format, opts: &ReadOptions, record: Record<'_>) -> Option<Entry> {
    let limit = opts.max_record.unwrap_or(MAX_RECORD);
    let read = record.apply(limit, |bytes| read_claimed(format, opts, bytes, limit))?;
    let mut warnings = Vec::new();
    let (game, error) = match read {
        Ok(p) => {
            warnings = p
                .warnings
                .into_iter()
                .map(|w| {
                    let at = record.place(&w);
                    w.placed(at)
                })
                .collect();
            (Some(p.game), None)
        }
        Err(e) => {
            let loose = ReadOptions {
                no_validate: true,
                ..opts.clone()
            };
            // A record over the limit was never held: no text to read.
            let game = match record.oversize {
                Some(_) => None,
                None => read_record(format, &loose, record.bytes)
                    .ok()
                    .map(|p| p.game),
            };
            (game, Some(located(&record, &e)))
        }
    };
    let (line, _) = record.start();
    Some(Entry {
        number: 0,
        line,
        game,
        error,
        warnings,
    })
}

/// A problem of a record, placed in the whole input.
fn located(record: &Record<'_>, e: &Problem) -> String {
    let (line, col) = record.place(e);
    format!("{line}:{col}: {}", e.message)
}

/// How many bytes of records [`Games`] reads a batch: a game's IR takes
/// tens of times its text, and the games of a few batches per worker wait
/// to be paired, so diff's batches are smaller than convert's.
pub const BATCH: usize = 32 << 10;

/// The games of one input, in order, read a batch at a time in parallel
/// (memory holds a few batches, whatever the input's size). A document cut
/// short (a json array without its `]`, an xml document without
/// `</games>`) ends the games with its error, after the games before it.
pub struct Games {
    map: ParMap<Option<Entry>>,
    ready: VecDeque<Entry>,
    count: usize,
    document: Document,
    ended: bool,
}

impl Games {
    /// The games of `reader`, read as `format` with `opts`.
    pub fn new<R: Read + Send + 'static>(
        reader: R,
        format: &'static Format,
        opts: ReadOptions,
    ) -> Games {
        Games {
            map: Records::new(reader, format.split)
                .with_limit(opts.max_record.unwrap_or(MAX_RECORD))
                .with_batch(BATCH)
                .par_map(move |r| entry_of(format, &opts, r)),
            ready: VecDeque::new(),
            count: 0,
            document: Document::new(format.split),
            ended: false,
        }
    }
}

impl Iterator for Games {
    type Item = io::Result<Entry>;

    fn next(&mut self) -> Option<io::Result<Entry>> {
        while self.ready.is_empty() {
            if self.ended {
                return None;
            }
            match self.map.next() {
                Some(Ok(mut batch)) => {
                    for (record, entry) in batch.drain() {
                        self.document.record(&record);
                        self.ready.extend(entry);
                    }
                }
                Some(Err(e)) => {
                    self.ended = true;
                    return Some(Err(e));
                }
                None => {
                    self.ended = true;
                    let (line, col, what) = self.document.cut()?;
                    let message = format!("{line}:{col}: {}", cut_short(&what));
                    return Some(Err(io::Error::new(io::ErrorKind::InvalidData, message)));
                }
            }
        }
        let mut e = self.ready.pop_front()?;
        self.count += 1;
        e.number = self.count;
        Some(Ok(e))
    }
}

/// A pair of games to compare, or a game of one input only.
pub type Pair = (Option<Entry>, Option<Entry>);

/// Which input an error of [`Pairs`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The first.
    A,
    /// The second.
    B,
}

/// How many games apart two games may be and still pair by their tags, by
/// default (`--match-window`).
pub const MATCH_WINDOW: usize = 1000;

/// How many games of one input only [`Pairs`] remembers by their tags, to
/// say which of them have a partner too far away to pair.
const FAR_KEYS: usize = 1 << 20;

/// The games of two inputs, paired as they are read: in order, or by the
/// values of some tags (`--match-tags`) within a window of games, so that
/// memory holds the window, never a whole input.
///
/// By tags, game `i` of the first input pairs with the first game of the
/// second whose tags have the same values, among its games `i - window` to
/// `i + window` not paired yet. A game of the second input that falls out of
/// the window unpaired, and one of the first that finds no partner in it,
/// is a game of one input only; when two such games have the same tags
/// (their partner was too far away), [`Pairs::notes`] says so.
pub struct Pairs {
    a: Games,
    b: Games,
    by: Option<ByTags>,
}

/// The state of pairing by tags.
struct ByTags {
    tags: Vec<String>,
    window: usize,
    /// Games of the second input read, in order, the first of them numbered
    /// `front`; `None` once paired.
    waiting: VecDeque<Option<Entry>>,
    front: usize,
    /// The numbers of the waiting games by their tags' values, in order.
    by_key: HashMap<Vec<String>, VecDeque<usize>>,
    b_done: bool,
    a_done: bool,
    out: VecDeque<Pair>,
    /// Games of one input only, by a hash of their tags' values: their
    /// number (of the first input's, of the second's).
    far: [HashMap<u64, usize>; 2],
    /// More games went unpaired than `far` holds.
    untracked: bool,
    notes: Vec<String>,
}

impl Pairs {
    /// Pairs in order (`tags` empty) or by the values of `tags`, within
    /// `window` games.
    pub fn new(a: Games, b: Games, tags: &[String], window: usize) -> Pairs {
        let by = (!tags.is_empty()).then(|| ByTags {
            tags: tags.iter().map(|t| t.trim().to_string()).collect(),
            window: window.max(1),
            waiting: VecDeque::new(),
            front: 1,
            by_key: HashMap::new(),
            b_done: false,
            a_done: false,
            out: VecDeque::new(),
            far: [HashMap::new(), HashMap::new()],
            untracked: false,
            notes: Vec::new(),
        });
        Pairs { a, b, by }
    }

    /// What pairing by tags has to say since the last call: games of
    /// one input only that have a partner further away than the window.
    pub fn notes(&mut self) -> Vec<String> {
        match self.by.as_mut() {
            Some(by) => std::mem::take(&mut by.notes),
            None => Vec::new(),
        }
    }
}

impl Iterator for Pairs {
    type Item = Result<Pair, (Which, io::Error)>;

    fn next(&mut self) -> Option<Self::Item> {
        let Some(by) = self.by.as_mut() else {
            let x = match self.a.next().transpose() {
                Ok(x) => x,
                Err(e) => return Some(Err((Which::A, e))),
            };
            let y = match self.b.next().transpose() {
                Ok(y) => y,
                Err(e) => return Some(Err((Which::B, e))),
            };
            return (x.is_some() || y.is_some()).then_some(Ok((x, y)));
        };
        loop {
            if let Some(pair) = by.out.pop_front() {
                return Some(Ok(pair));
            }
            match by.step(&mut self.a, &mut self.b) {
                Err(e) => return Some(Err(e)),
                Ok(true) => continue,
                Ok(false) => {}
            }
            if by.untracked {
                by.untracked = false;
                by.notes.push(format!(
                    "over {FAR_KEYS} games were of one input only: some of them may have a \
                     partner more than {} games away (--match-window)",
                    by.window
                ));
            }
            return None;
        }
    }
}

impl ByTags {
    fn key(&self, e: &Entry) -> Vec<String> {
        self.tags
            .iter()
            .map(|t| {
                e.game
                    .as_ref()
                    .and_then(|g| g.tag(t))
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }

    /// Reads the next game of the second input into the window.
    fn read_b(&mut self, b: &mut Games) -> Result<bool, (Which, io::Error)> {
        if self.b_done {
            return Ok(false);
        }
        match b.next() {
            None => {
                self.b_done = true;
                Ok(false)
            }
            Some(Err(e)) => {
                self.b_done = true;
                Err((Which::B, e))
            }
            Some(Ok(y)) => {
                let key = self.key(&y);
                self.by_key.entry(key).or_default().push_back(y.number);
                self.waiting.push_back(Some(y));
                Ok(true)
            }
        }
    }

    /// Gives out the first waiting game of the second input, paired or not.
    fn pop_b(&mut self) {
        let Some(slot) = self.waiting.pop_front() else {
            return;
        };
        self.front += 1;
        if let Some(y) = slot {
            let key = self.key(&y);
            if let Some(q) = self.by_key.get_mut(&key) {
                q.pop_front();
                if q.is_empty() {
                    self.by_key.remove(&key);
                }
            }
            self.alone(Which::B, &key, y.number);
            self.out.push_back((None, Some(y)));
        }
    }

    /// A game of one input only: a note when the other input had one of
    /// the same tags, too far away to pair.
    fn alone(&mut self, which: Which, key: &[String], number: usize) {
        let mut h = std::hash::DefaultHasher::new();
        key.hash(&mut h);
        let h = h.finish();
        let (mine, other) = match which {
            Which::A => (0, 1),
            Which::B => (1, 0),
        };
        if let Some(n) = self.far[other].remove(&h) {
            let (i, j) = if mine == 0 { (number, n) } else { (n, number) };
            self.notes.push(format!(
                "game {i} of the first file and game {j} of the second have the same {} \
                 ({}) but are more than {} games apart: not paired (--match-window)",
                self.tags.join(", "),
                key.join(", "),
                self.window
            ));
        } else if self.far[mine].len() < FAR_KEYS {
            self.far[mine].entry(h).or_insert(number);
        } else {
            self.untracked = true;
        }
    }

    /// Pairs the next game of the first input (or, at its end, gives out
    /// the second's rest); false when both inputs are done.
    fn step(&mut self, a: &mut Games, b: &mut Games) -> Result<bool, (Which, io::Error)> {
        if self.a_done {
            if self.waiting.is_empty() && !self.read_b(b)? {
                return Ok(false);
            }
            self.pop_b();
            return Ok(true);
        }
        let x = match a.next() {
            None => {
                self.a_done = true;
                return Ok(true);
            }
            Some(Err(e)) => {
                self.a_done = true;
                return Err((Which::A, e));
            }
            Some(Ok(x)) => x,
        };
        let i = x.number;
        while self.front + self.waiting.len() <= i + self.window && self.read_b(b)? {}
        let key = self.key(&x);
        let found = self.by_key.get_mut(&key).and_then(|q| {
            let j = q.pop_front()?;
            Some((j, q.is_empty()))
        });
        let y = match found {
            Some((j, empty)) => {
                if empty {
                    self.by_key.remove(&key);
                }
                self.waiting[j - self.front].take()
            }
            None => {
                self.alone(Which::A, &key, i);
                None
            }
        };
        self.out.push_back((Some(x), y));
        // The games of the second input no later game of the first may
        // pair with: out of the window.
        while self.front + self.window <= i && !self.waiting.is_empty() {
            self.pop_b();
        }
        Ok(true)
    }
}

/// A tag that differs: its name and its value on each side (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagDiff {
    /// The tag's name.
    pub name: String,
    /// Its value in the first file.
    pub a: Option<String>,
    /// Its value in the second file.
    pub b: Option<String>,
}

/// A ply of a main line as diff shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Its index in the main line, from 0.
    pub index: usize,
    /// Its label (`12.`, `12...`, `7#`).
    pub label: String,
    /// The side that plays it.
    pub side: Side,
    /// The move as its notation spells it.
    pub text: String,
}

/// One change of the aligned main lines: plies of the first file deleted,
/// plies of the second inserted, or both (replaced).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// `delete`, `insert` or `replace`.
    pub kind: &'static str,
    /// The plies of the first file.
    pub a: Vec<Shown>,
    /// The plies of the second file.
    pub b: Vec<Shown>,
    /// The plies both share just before and after, for context.
    pub context: (Vec<Shown>, Vec<Shown>),
}

/// Where two main lines first disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The ply of the first file there (none: it ended).
    pub a: Option<Shown>,
    /// The ply of the second file there.
    pub b: Option<Shown>,
    /// The position before it, as a FEN (chess).
    pub position: Option<String>,
}

/// How two games of a pair differ ([`compare`]); empty when they agree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameDiff {
    /// Tags that differ, in the order of the first file, then the second.
    pub tags: Vec<TagDiff>,
    /// The start positions differ (their FEN tags, or a setup on one side).
    pub start: bool,
    /// The results differ: each side's token.
    pub result: Option<(String, String)>,
    /// Why a side's moves could not be replayed (then both are aligned by
    /// what their text says).
    pub illegal: (Option<String>, Option<String>),
    /// Where the main lines first disagree.
    pub first: Option<Divergence>,
    /// The changes of the aligned main lines.
    pub changes: Vec<Change>,
    /// When the lines differ but reach the same position again after the
    /// same number of plies: the first such ply of each side.
    pub transposition: Option<(Shown, Shown)>,
    /// Annotations differ (with `--annotations`): the labels of the plies.
    pub annotations: Vec<String>,
}

impl GameDiff {
    /// Whether the two games agree.
    pub fn is_empty(&self) -> bool {
        *self == GameDiff::default()
    }
}

/// What [`compare`] looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Compare glyphs, NAGs and comments too.
    pub annotations: bool,
}

/// Tag values that say nothing: a tag with one on one side and absent on
/// the other is no difference.
fn placeholder(value: &str) -> bool {
    matches!(value.trim(), "" | "?" | "-" | "*" | "????.??.??")
}

/// Tags that the IR holds as typed fields or that restate the moves (the
/// start, the board, the result): compared by what they mean, not as tags.
pub const DERIVED: [&str; 6] = ["Result", "FEN", "SetUp", "Variant", "GameType", "PlyCount"];

/// The tags that differ, but [`DERIVED`] ones (the IR holds them as typed
/// fields or they restate the moves: their difference is the start's or
/// the result's, said once). A tag is looked up by its exact name (its
/// first value, as [`Game::tag`] gives it) and compared once whatever the
/// case of its name; one pass over each side's tags with hash maps, so a
/// game of a hundred thousand tags costs what its reading does.
fn tag_diffs(a: &Game, b: &Game) -> Vec<TagDiff> {
    use std::collections::{HashMap, HashSet};
    fn values(g: &Game) -> HashMap<&str, &str> {
        let mut map = HashMap::with_capacity(g.tags.len());
        for t in &g.tags {
            map.entry(t.name.as_str()).or_insert(t.value.as_str());
        }
        map
    }
    let (in_a, in_b) = (values(a), values(b));
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for t in a.tags.iter().chain(&b.tags) {
        let name = t.name.as_str();
        if DERIVED.iter().any(|d| d.eq_ignore_ascii_case(name))
            || !seen.insert(name.to_ascii_lowercase())
        {
            continue;
        }
        let (va, vb) = (in_a.get(name).copied(), in_b.get(name).copied());
        let same = match (va, vb) {
            (Some(x), Some(y)) => x == y,
            (Some(x), None) | (None, Some(x)) => placeholder(x),
            (None, None) => true,
        };
        if !same {
            out.push(TagDiff {
                name: name.to_string(),
                a: va.map(str::to_string),
                b: vb.map(str::to_string),
            });
        }
    }
    out
}

/// How each ply of a game's main line is spelled in its notation
/// ([`crate::spell`]) with the options it was read with (`read`: a
/// scoresheet's letters), or, where that spells none (JSON), in its
/// family's canonical notation
/// ([`crate::family::Family::canonical_notation`]); else by what the move
/// means.
pub(crate) fn spell_main_line(game: &Game, own: &'static Format, read: &Settings) -> Vec<String> {
    let canonical = by_name(game.family().canonical_notation());
    spell::main_line(game, own, read)
        .or_else(|| canonical.and_then(|f| spell::main_line(game, f, &Settings::default())))
        .unwrap_or_else(|| game.moves.plies.iter().map(|p| p.mv.key(false)).collect())
}

fn shown(game: &Game, spelled: &[String], index: usize) -> Shown {
    let ply = &game.moves.plies[index];
    Shown {
        index,
        label: ply.label(game.variant.first_mover()),
        side: ply.side,
        text: spelled.get(index).cloned().unwrap_or_default(),
    }
}

/// The FEN of a position without its en passant square and move counters:
/// what makes two positions the same (an en passant square is written after
/// every double step, capture possible or not).
fn placement(fen: &str) -> String {
    fen.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// A side of a pair: its game, why it could not be replayed, its format.
pub struct Sided<'g> {
    /// The game (read by its text alone when `error` is set).
    pub game: &'g Game,
    /// Why its moves could not be replayed.
    pub error: Option<&'g str>,
    /// Its input's format.
    pub format: &'static Format,
    /// The format's options its input was read with, which its moves are
    /// shown in.
    pub read: &'g Settings,
}

/// Compares two games by meaning.
pub fn compare(a: &Sided<'_>, b: &Sided<'_>, opts: Options) -> GameDiff {
    let (ga, gb) = (a.game, b.game);
    let mut d = GameDiff {
        tags: tag_diffs(ga, gb),
        start: ga.setup != gb.setup,
        illegal: (a.error.map(str::to_string), b.error.map(str::to_string)),
        ..GameDiff::default()
    };
    let (ra, rb) = (ga.effective_result(), gb.effective_result());
    if ra.outcome != rb.outcome {
        d.result = Some((ra.token().to_string(), rb.token().to_string()));
    }
    // Compare replayed moves by what they mean; if either side could not be
    // replayed, both by what their text says.
    let loose = a.error.is_some() || b.error.is_some();
    let keys =
        |g: &Game| -> Vec<String> { g.moves.plies.iter().map(|p| p.mv.key(loose)).collect() };
    let (ka, kb) = (keys(ga), keys(gb));
    let ops = capture_diff_slices(Algorithm::Myers, &ka, &kb);
    if ops.iter().any(|op| op.tag() != DiffTag::Equal) {
        let (sa, sb) = (
            spell_main_line(ga, a.format, a.read),
            spell_main_line(gb, b.format, b.read),
        );
        let show_a = |i: usize| shown(ga, &sa, i);
        let show_b = |i: usize| shown(gb, &sb, i);
        // Each side's positions, once (replayed sides only).
        let fens =
            |g: &Game, error: Option<&str>| error.is_none().then(|| main_line_fens(g)).flatten();
        let (fa, fb) = (fens(ga, a.error), fens(gb, b.error));
        // The first divergence.
        if let Some(op) = ops.iter().find(|op| op.tag() != DiffTag::Equal) {
            let (_, ra, rb) = op.as_tag_tuple();
            d.first = Some(Divergence {
                a: (ra.start < ka.len()).then(|| show_a(ra.start)),
                b: (rb.start < kb.len()).then(|| show_b(rb.start)),
                position: fa.as_ref().and_then(|f| f.get(ra.start).cloned()),
            });
        }
        for group in group_diff_ops(ops.clone(), 1) {
            let mut lead = Vec::new();
            let start = d.changes.len();
            for op in &group {
                let (tag, ra, rb) = op.as_tag_tuple();
                if tag == DiffTag::Equal {
                    let plies: Vec<Shown> = ra.clone().map(show_a).collect();
                    match d.changes[start..].last_mut() {
                        Some(c) => c.context.1 = plies,
                        None => lead = plies,
                    }
                    continue;
                }
                d.changes.push(Change {
                    kind: match tag {
                        DiffTag::Delete => "delete",
                        DiffTag::Insert => "insert",
                        _ => "replace",
                    },
                    a: ra.map(show_a).collect(),
                    b: rb.map(show_b).collect(),
                    context: (std::mem::take(&mut lead), Vec::new()),
                });
            }
        }
        // A transposition: the same position after the same number of plies,
        // past the first divergence.
        if let (Some(fa), Some(fb)) = (&fa, &fb) {
            let first = d
                .first
                .as_ref()
                .and_then(|f| f.a.as_ref().or(f.b.as_ref()))
                .map_or(0, |s| s.index);
            let n = fa.len().min(fb.len());
            if let Some(k) = (first + 1..n).find(|&k| placement(&fa[k]) == placement(&fb[k])) {
                d.transposition = Some((show_a(k - 1), show_b(k - 1)));
            }
        }
    }
    if opts.annotations {
        for op in &ops {
            if let DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = *op
            {
                for k in 0..len {
                    let (pa, pb) = (
                        &ga.moves.plies[old_index + k],
                        &gb.moves.plies[new_index + k],
                    );
                    if pa.glyph != pb.glyph
                        || pa.nags != pb.nags
                        || pa.before != pb.before
                        || pa.after != pb.after
                    {
                        d.annotations.push(pa.label(ga.variant.first_mover()));
                    }
                }
            }
        }
    }
    d
}

fn show_list(plies: &[Shown]) -> String {
    plies
        .iter()
        .map(|s| format!("{} {}", s.label, plain(&s.text)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Colours for a terminal, or none.
#[derive(Debug, Clone, Copy, Default)]
pub struct Paint {
    /// Whether to colour.
    pub on: bool,
}

impl Paint {
    fn paint(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Text of a record as the text report shows it: its terminal controls
/// and invisible characters escaped as messages escape them
/// ([`crate::error::escape_controls`]), so that a record never writes to
/// the terminal (only kifu's own colours do).
fn plain(text: &str) -> std::borrow::Cow<'_, str> {
    crate::error::escape_controls(text)
}

/// A pair's differences as text, one line each, indented under a heading
/// the caller writes. What comes from the records is shown with its
/// terminal controls escaped, as messages quote them.
pub fn render_text(d: &GameDiff, paint: Paint) -> String {
    let mut out = String::new();
    let q = |v: &Option<String>| {
        v.as_ref()
            .map_or("(none)".to_string(), |v| format!("\"{}\"", plain(v)))
    };
    for t in &d.tags {
        out.push_str(&format!(
            "  tag {}: {} | {}\n",
            plain(&t.name),
            paint.paint("31", &q(&t.a)),
            paint.paint("32", &q(&t.b))
        ));
    }
    if d.start {
        out.push_str("  the start positions differ\n");
    }
    if let Some((ra, rb)) = &d.result {
        out.push_str(&format!(
            "  result: {} | {}\n",
            paint.paint("31", ra),
            paint.paint("32", rb)
        ));
    }
    for (name, why) in [("a", &d.illegal.0), ("b", &d.illegal.1)] {
        if let Some(why) = why {
            out.push_str(&format!(
                "  {name}: cannot be replayed: {why}; the moves are aligned as written\n"
            ));
        }
    }
    if let Some(f) = &d.first {
        let at = f.a.as_ref().or(f.b.as_ref());
        let text = |s: &Option<Shown>| {
            s.as_ref()
                .map_or("(nothing)".to_string(), |s| plain(&s.text).into_owned())
        };
        out.push_str(&format!(
            "  first divergence at {}{}: a {}, b {}\n",
            at.map_or(String::new(), |s| s.label.clone()),
            at.map_or(String::new(), |s| format!(" ({})", side_name(s.side))),
            paint.paint("31", &text(&f.a)),
            paint.paint("32", &text(&f.b))
        ));
        if let Some(p) = &f.position {
            out.push_str(&format!("    position before it: {}\n", plain(p)));
        }
    }
    for c in &d.changes {
        if !c.context.0.is_empty() {
            out.push_str(&format!("      {}\n", show_list(&c.context.0)));
        }
        if !c.a.is_empty() {
            out.push_str(&format!("    - {}\n", paint.paint("31", &show_list(&c.a))));
        }
        if !c.b.is_empty() {
            out.push_str(&format!("    + {}\n", paint.paint("32", &show_list(&c.b))));
        }
        if !c.context.1.is_empty() {
            out.push_str(&format!("      {}\n", show_list(&c.context.1)));
        }
    }
    if let Some((a, b)) = &d.transposition {
        out.push_str(&format!(
            "  a transposition: both reach the same position after {} plies (a {} {}, b {} {})\n",
            a.index + 1,
            a.label,
            plain(&a.text),
            b.label,
            plain(&b.text)
        ));
    }
    if !d.annotations.is_empty() {
        out.push_str(&format!(
            "  annotations differ at {}\n",
            plain(&d.annotations.join(" "))
        ));
    }
    out
}

fn shown_json(s: &Shown) -> Value {
    json!({"ply": s.index + 1, "label": s.label, "side": side_name(s.side).to_ascii_lowercase(), "move": s.text})
}

/// A pair's differences as a JSON object (docs/cli.md, kifu diff).
pub fn render_json(d: &GameDiff) -> Value {
    let list = |v: &[Shown]| v.iter().map(shown_json).collect::<Vec<_>>();
    json!({
        "tags": d.tags.iter().map(|t| json!({"name": t.name, "a": t.a, "b": t.b})).collect::<Vec<_>>(),
        "start_differs": d.start,
        "result": d.result.as_ref().map(|(a, b)| json!({"a": a, "b": b})),
        "illegal": {"a": d.illegal.0, "b": d.illegal.1},
        "first_divergence": d.first.as_ref().map(|f| json!({
            "a": f.a.as_ref().map(shown_json),
            "b": f.b.as_ref().map(shown_json),
            "position": f.position,
        })),
        "changes": d.changes.iter().map(|c| json!({
            "kind": c.kind,
            "a": list(&c.a),
            "b": list(&c.b),
        })).collect::<Vec<_>>(),
        "transposition": d.transposition.as_ref().map(|(a, b)| json!({"a": shown_json(a), "b": shown_json(b)})),
        "annotations": d.annotations,
    })
}
