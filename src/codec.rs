//! The codec contract: what a format supplies and what the pipeline asks of
//! it, on the floor below everything that uses it.
//!
//! A format reads a record into a [`Parsed`] game ([`ReadFn`], with its
//! [`ReadOptions`]) and writes a game ([`WriteFn`], [`WriteOptions`],
//! framed by its [`Framing`]); it finds its records in a stream with a
//! [`Scan`] (and streams past one over [`MAX_RECORD`] with a [`Skip`]); a
//! format kept as a folder of tables says so ([`Folder`]). Problems name
//! their place with [`line_col`]; a variation nested too deep is
//! [`too_deep`]. This module imports only the IR, the errors and the
//! output streams: the format list ([`crate::format`]), the pipeline
//! ([`crate::archive`]), the container and the families all build on it.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::error::{Error, Kind, Problem};
use crate::family::Family;
use crate::ir::{Comment, Game, MAX_VARIATION_DEPTH};
use crate::options::Settings;
use crate::output::Output;

/// Options that change how records are read: the input format's own
/// (typed, from its registry entry) and the settings every reader shares.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The input format's own options (`Format::options`), built once for
    /// the run; empty for the format's defaults.
    pub format: Settings,
    /// Read by syntax alone, without replaying the moves (chess, draughts,
    /// tafl).
    pub no_validate: bool,
    /// Read every record with the pest grammar, never the fast lexer (to
    /// check the fast lexer against the grammar).
    pub grammar_only: bool,
    /// The largest record read, in bytes (`--max-record-size`); `None` is
    /// [`crate::codec::MAX_RECORD`]. A larger one fails, alone.
    pub max_record: Option<usize>,
    /// How much of a record's text a run read a run at a time holds at
    /// least before it is cut (a testing knob, `--run-bytes`: `Some(0)`
    /// cuts before every move of every line); `None` is
    /// [`crate::container::RUN_BYTES`].
    pub run_bytes: Option<usize>,
    /// Convert every record whole, never a run at a time (a testing knob,
    /// `--read-whole`: to compare the two ways, which give the same
    /// bytes). Otherwise every record is converted a run at a time where
    /// both formats can ([`StreamFn`], [`RunsFn`]), whatever its size.
    pub whole: bool,
}

/// Options that change how games are written.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// The output format's own options (`Format::options`), built once
    /// for the run; empty for the format's defaults.
    pub format: Settings,
    /// The notation the games were read from, for an output that keeps
    /// each move as its source spelled it (`csv`); `None` when unknown, or
    /// when the source spells no moves of its own (an interchange format).
    pub source: Option<SourceNotation>,
}

/// The notation games were read from, as an output that keeps each move
/// as its source spelled it needs it ([`WriteOptions::source`]; the format
/// list's [`crate::format::Format::source_notation`]).
#[derive(Debug, Clone)]
pub struct SourceNotation {
    /// The format's name.
    pub name: &'static str,
    /// The family whose games it holds.
    pub family: Family,
    /// How it spells each ply of a game.
    pub spell: SpellFn,
    /// The format's options the games were read with (a scoresheet read
    /// with German piece letters is spelled in them).
    pub read: crate::options::Settings,
}

/// Reads one record into a game (a format whose records are read whole
/// only: [`Reader::Whole`]).
pub type ReadFn = fn(&str, &ReadOptions) -> Result<Parsed, Problem>;

/// How a format reads its records: the one entry point of its reader in
/// the registry ([`crate::format::Format::read`]).
#[derive(Clone, Copy)]
pub enum Reader {
    /// Into a game, whole (json, xml, csv, the notations without a
    /// walk).
    Whole(ReadFn),
    /// By the walk of a container notation ([`StreamFn`]), which hands a
    /// record's pieces to a visitor: the one that builds the game
    /// ([`Visit::Game`]), or one that takes them a run at a time
    /// ([`Visit::Runs`]).
    Walk(StreamFn),
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reader::Whole(_) => "Reader::Whole",
            Reader::Walk(_) => "Reader::Walk",
        })
    }
}

impl Reader {
    /// Reads one record into a game: the walk with the visitor that
    /// builds it, or the whole read of a format without a walk.
    pub fn game(self, text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
        match self {
            Reader::Whole(read) => read(text, opts),
            Reader::Walk(walk) => built(walk(text, opts, Visit::Game)),
        }
    }

    /// Reads one record a run at a time, each piece to `each` ([`Visit::Runs`]);
    /// `Ok(None)` where the record (or the format) is not read so.
    pub fn runs(
        self,
        text: &str,
        opts: &ReadOptions,
        each: &mut dyn FnMut(Piece<'_>) -> Result<(), Problem>,
    ) -> Result<Option<Parsed>, Problem> {
        match self {
            Reader::Whole(_) => Ok(None),
            Reader::Walk(walk) => walk(text, opts, Visit::Runs(each)),
        }
    }

    /// Whether records may be read a run at a time ([`Reader::runs`]).
    pub fn walks(self) -> bool {
        matches!(self, Reader::Walk(_))
    }
}

/// The game a walk with [`Visit::Game`] built: always one (a walk that gives
/// none is a bug of the notation).
pub fn built(walked: Result<Option<Parsed>, Problem>) -> Result<Parsed, Problem> {
    walked?.ok_or_else(|| {
        Problem::whole("the walk that builds the game built none").of_kind(Kind::Internal)
    })
}

/// The visitor a record's walk hands its pieces to ([`StreamFn`]).
pub enum Visit<'v> {
    /// The visitor that builds the whole game: the walk gives it
    /// (`Ok(Some)`), judged whole by the notation, or fails.
    Game,
    /// Each run, as it is read, and the variations opened and closed
    /// around them ([`Piece`]); the walk gives the game's head, or
    /// `Ok(None)` where the record is not read so (it is then read
    /// whole).
    Runs(&'v mut dyn FnMut(Piece<'_>) -> Result<(), Problem>),
}

/// Writes one game, appending to the string; returns warnings about what the
/// target could not hold.
pub type WriteFn = fn(&Game, &WriteOptions, &mut String) -> Result<Vec<Problem>, Problem>;

/// Spells each ply of a game's lines ([`crate::format::Format::spell`]):
/// the text of each, in the order the container writes them, or why the
/// game cannot be spelled. The settings are the format's options the game
/// was read with (`--pieces de`: a scoresheet's German letters), so that
/// a ply reads as its record writes it; empty for the defaults.
pub type SpellFn = fn(
    &Game,
    crate::family::spell::Lines,
    &crate::options::Settings,
) -> Result<Vec<String>, Problem>;

/// Walks one record ([`Reader::Walk`]) to a visitor ([`Visit`]): into the
/// whole game ([`Visit::Game`]), or a run at a time ([`Visit::Runs`]),
/// giving each run to the function as a game of its own (its setup the
/// position before the run: [`crate::container::Runs`]), and the
/// variations opened and closed around the runs in them ([`Piece`]);
/// then returns the game's head, the game without its plies (its tags,
/// setup, result, the main line's trailing comments), with every warning
/// of the record, or `Ok(None)` where the record is not read so (then it
/// is read whole, by the same walk with [`Visit::Game`]).
pub type StreamFn = fn(&str, &ReadOptions, Visit<'_>) -> Result<Option<Parsed>, Problem>;

/// A notation's read a run at a time: each piece of the record to the
/// visitor ([`Visit::Runs`]); `Ok(None)` where the record is not read so.
pub type PiecesFn = fn(
    &str,
    &ReadOptions,
    &mut dyn FnMut(Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem>;

/// A notation's walk ([`StreamFn`]) made of its two visits: `game` builds
/// the game ([`Visit::Game`]), `pieces` hands on the runs ([`Visit::Runs`]).
pub fn walk_with(
    text: &str,
    opts: &ReadOptions,
    visit: Visit<'_>,
    game: ReadFn,
    pieces: PiecesFn,
) -> Result<Option<Parsed>, Problem> {
    match visit {
        Visit::Game => game(text, opts).map(Some),
        // `grammar_only` reads every record with the grammar (to check the
        // fast lexer, by which the streams read, against it): whole.
        Visit::Runs(_) if opts.grammar_only => Ok(None),
        Visit::Runs(each) => pieces(text, opts, each),
    }
}

/// A piece of a record read a run at a time ([`StreamFn`]), in the order
/// of the text, for a [`RunWriter`].
#[derive(Debug)]
pub enum Piece<'a> {
    /// The game's head, before its first run ([`RunWriter::begin`]): its
    /// tags, preamble, setup and board as the record's end will give them
    /// (not its result, plies or trailing comments). Sent only where the
    /// reader knows them so early (a draughts board no tag names is known
    /// only from the moves).
    Head(&'a Game),
    /// A run of the line open ([`RunWriter::run`]): its setup the
    /// family's typed position before it (chess:
    /// [`crate::family::chess::Fen::Board`]), never a position's text.
    Run(&'a Game),
    /// A variation of the last ply opens ([`RunWriter::open`]).
    Open,
    /// The variation open closes, after these comments
    /// ([`RunWriter::close`]).
    Close(&'a [Comment]),
}

/// A writer that takes a game a run at a time
/// ([`StreamFn`]), its writer of a whole game being the same runs: all of
/// the game as one run, then its end.
pub trait RunWriter {
    /// Writes the head first, where the whole game is known before its
    /// runs (a writer of a whole game); otherwise [`RunWriter::end`] puts
    /// it before them.
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem>;
    /// Writes what it can of the head before the runs of a game read a
    /// run at a time, from the head the reader knows then
    /// ([`Piece::Head`]): a writer whose head needs nothing else writes it
    /// here, in place, and [`RunWriter::end`] then puts nothing before the
    /// runs (no copy of the text written). By default, nothing.
    fn begin(&mut self, head: &Game, out: &mut String) -> Result<(), Problem> {
        let _ = (head, out);
        Ok(())
    }
    /// Writes a run of the line open (the main line, or the variation
    /// opened last): `run` holds its plies, and as its setup the position
    /// before them.
    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem>;
    /// Opens a variation of the last ply written, whose runs come next.
    fn open(&mut self, out: &mut String) -> Result<(), Problem>;
    /// Closes the variation open, after its `trailing` comments.
    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem>;
    /// Ends the game (its head `game`, whose plies are not written):
    /// what goes after the runs to `out`, and what goes before them to
    /// `head` (nothing, where [`RunWriter::head`] wrote it first), so that
    /// the runs written need not be held (the pipeline spills a long
    /// game's text: [`crate::output::spill::Spilled`]). Returns the warnings of
    /// the whole game.
    fn end(
        self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem>;
    /// [`RunWriter::end`] for a writer that marks, in the runs it writes,
    /// text known only at the end (a page's ids, a hash of the whole
    /// section): the warnings, and each mark with what replaces it
    /// everywhere in the game's text ([`crate::output::spill::Fills`]), which the pipeline puts
    /// in (in the temporary file too: [`crate::output::spill::Spilled::fill`]).
    /// Its [`RunWriter::end`] puts them in `head` and `out` itself (a
    /// whole game, held). By default, no marks.
    fn end_filled(
        self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<(Vec<Problem>, crate::output::spill::Fills), Problem> {
        Ok((self.end(game, head, out)?, Vec::new()))
    }
}

/// Writes a whole game with a [`RunWriter`]: its head, all of it as one
/// run, then its end (the one way every [`RunsFn`] format writes a game).
pub fn write_runs(
    mut writer: Box<dyn RunWriter>,
    game: &Game,
    out: &mut String,
) -> Result<Vec<Problem>, Problem> {
    writer.head(game, out)?;
    writer.run(game, out)?;
    let mut head = String::new();
    let warnings = writer.end(game, &mut head, out)?;
    debug_assert!(head.is_empty(), "the head was written first");
    Ok(warnings)
}

/// The error of a [`RunWriter`] told to close a variation that is not
/// open (a bug of the stream): every writer says it so.
pub fn not_open() -> Problem {
    Problem::whole("a variation closed that was not open").of_kind(Kind::Internal)
}

/// The error of a [`RunWriter`] told to open a variation in a line where
/// no ply was written.
pub fn opened_first() -> Problem {
    Problem::whole("a variation opened before any move").of_kind(Kind::Internal)
}

/// The error of a [`RunWriter`] whose game ends with a variation open.
pub fn left_open() -> Problem {
    Problem::whole("a variation was left open").of_kind(Kind::Internal)
}

/// A format's [`RunWriter`], for the options of a run.
pub type RunsFn = fn(&WriteOptions) -> Box<dyn RunWriter>;

/// A game read from a record, with what the reader noticed.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The game.
    pub game: Game,
    /// Warnings: the game was read, but something was guessed or reinterpreted.
    pub warnings: Vec<Problem>,
}

/// Default limit on the size of one record (`--max-record-size`): reading a
/// game costs a few tens of times its size in memory, and the largest games
/// of real archives (heavily annotated ones) are tens of kilobytes.
pub const MAX_RECORD: usize = 16 << 20;

/// How a format's records are found in a stream: a cheap byte scan that
/// the format supplies (the registry's `Format::split`); the pipeline
/// knows none of them by name. [`crate::archive::Records`] calls [`Scan::end`] once per
/// record over the buffered bytes, so a scan keeps its per-byte loop to
/// itself (no dynamic call per byte).
pub trait Scan: Sync + std::fmt::Debug {
    /// The end of the record that starts at `data[0]`: its length and
    /// whether it holds a game (false for text between games: blanks,
    /// comments). `None` when more data is needed to tell; at `eof` the
    /// answer is always `Some`, and a length of at least one byte is
    /// expected whenever `data` is not empty.
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)>;

    /// [`Scan::end`] told what came before `data`: `before`, the last byte
    /// before it that is not blank (`None` at the input's start). For a
    /// format whose records a byte opens or not by what precedes it (a
    /// `[` that opens json's array of games, or an array among its
    /// values); the default ignores it.
    fn end_after(&self, data: &[u8], eof: bool, before: Option<u8>) -> Option<(usize, bool)> {
        let _ = before;
        self.end(data, eof)
    }

    /// How to stream past a record over the size limit, without keeping it.
    fn oversize(&self) -> Oversize;

    /// Whether a record that holds no game says anything, to be reported as
    /// text that belongs to no game. Whitespace says nothing.
    fn has_text(&self, bytes: &[u8]) -> bool {
        !bytes.trim_ascii().is_empty()
    }

    /// Repairs damage to a record's text that its reader should not see
    /// (a container's escape sequences written as text, say): the text to
    /// read instead and a warning per kind of repair, or `None` when there
    /// is nothing to repair (every format but the containers).
    fn repair(&self, _text: &str) -> Option<(String, Vec<Problem>)> {
        None
    }

    /// Where reading a record failed with `problem` in an annotation that
    /// its format keeps as text instead (a container's variation that
    /// cannot be played): the text to read again and the warning that says
    /// so; `None` (every format but the containers) when the record fails.
    fn demote(&self, _text: &str, _problem: &Problem) -> Option<(String, Problem)> {
        None
    }

    /// For a format kept as a folder of files rather than one stream (the
    /// `csv` tables), how that folder is read and written; its records are
    /// then found in the stream [`Folder::open`] gives. `None` (every other
    /// format): one stream.
    fn folder(&self) -> Option<&'static dyn crate::codec::Folder> {
        None
    }

    /// For a format whose records lie in a document (json's array, xml's
    /// root element), the check that the document is whole: a document
    /// cut short at a game's end would otherwise read as complete.
    /// `None` (every other format): records need no frame.
    fn frame(&self) -> Option<Box<dyn Frame>> {
        None
    }
}

/// The document around a format's records, checked as they pass
/// ([`Scan::frame`]).
pub trait Frame: Send {
    /// Takes each record, in input order, and whether it holds a game.
    fn record(&mut self, bytes: &[u8], is_game: bool);

    /// At the end of the input: what the document lacks, when it was cut
    /// short.
    fn cut(&self) -> Option<String>;
}

/// Finds where a record over the size limit ends, a chunk at a time, keeping
/// its state across chunks.
pub trait Skip: Send {
    /// Where the record ends in the next chunk of it, if it does.
    fn end(&mut self, data: &[u8]) -> Option<usize>;
}

/// How a format streams past a record over the size limit.
pub struct Oversize {
    /// The scan that finds its end.
    pub skip: Box<dyn Skip>,
    /// Whether the scan must see the record from its first byte (a JSON
    /// element, for its depth); otherwise it starts past the first `limit`
    /// bytes, where (past the tags, or a scoresheet's header) a record ends
    /// where the next one can start.
    pub from_start: bool,
}

/// What a writer puts around and between games in one output.
#[derive(Debug, Clone, Copy)]
pub struct Framing {
    /// Before the first game.
    pub head: &'static str,
    /// Between two games.
    pub between: &'static str,
    /// After the last game.
    pub tail: &'static str,
    /// For a page whose head names its first game (`sllavcco-html`): the
    /// text that replaces `{title}` in `head`, given the first game as
    /// written (`""` when there is none).
    pub title: Option<fn(&str) -> String>,
}

impl Framing {
    /// Games one after another, with nothing around them.
    pub const PLAIN: Framing = Framing {
        head: "",
        between: "",
        tail: "",
        title: None,
    };

    /// The head, for the first game as written (`""`: none).
    pub fn head(&self, first: &str) -> std::borrow::Cow<'static, str> {
        match self.title {
            Some(title) => self.head.replace("{title}", &title(first)).into(),
            None => self.head.into(),
        }
    }
}

/// A format kept as a folder of files (the `csv` tables) rather than one
/// stream, as its scan says ([`Scan::folder`]): how the folder is read and
/// written.
pub trait Folder: Sync {
    /// The files of the folder `dir`, in the order they are written.
    fn files(&self, dir: &Path) -> Vec<PathBuf>;
    /// Opens the folder as one stream of the format's records.
    fn open(&self, dir: &Path) -> io::Result<Box<dyn Read + Send>>;
    /// The tables of a run, written into the folder `dir` (`--out-dir`),
    /// each file put in place by [`Tables::commit`]; their columns as the
    /// run's options (`opts`) say.
    fn create(&self, dir: &Path, opts: &WriteOptions) -> Result<Box<dyn Tables>, Error>;
    /// What of the tables one stream holds (standard output, `-o`), called
    /// `name` in errors.
    fn stream(&self, out: Output, name: String, opts: &WriteOptions) -> Box<dyn Tables>;
}

/// The tables a run writes ([`Folder::create`], [`Folder::stream`]).
pub trait Tables: Games {
    /// Ends every file and puts it in place.
    fn commit(self: Box<Self>) -> Result<(), Error>;
}

/// Where a record's game came from, for outputs that keep it
/// ([`Games::game`]): the `csv` tables' source, index and game key.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The input as messages name it (a path, `-`, `archive.zip:member`).
    pub source: &'a str,
    /// The game's number in its input, from 1, as messages count them.
    pub index: usize,
    /// The record's bytes.
    pub bytes: &'a [u8],
}

/// Where converted games go, in input order: a [`crate::archive::Sink`] (one stream with
/// its format's framing), or a format's tables
/// ([`crate::codec::Folder`]).
pub trait Games {
    /// Writes one game, converted from `origin`.
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> io::Result<()>;
    /// Writes one game whose text lies in a temporary file (a long record
    /// converted a run at a time: [`crate::output::spill`]); by default read back
    /// into memory and written by [`Games::game`].
    fn spilled(
        &mut self,
        text: crate::output::spill::Spilled,
        origin: &Origin<'_>,
    ) -> io::Result<()> {
        self.game(&text.into_string()?, origin)
    }
    /// Writes one game's text, held or spilled.
    fn text(&mut self, text: crate::output::spill::Text, origin: &Origin<'_>) -> io::Result<()> {
        match text {
            crate::output::spill::Text::Held(text) => self.game(&text, origin),
            crate::output::spill::Text::Spilled(text) => self.spilled(text, origin),
        }
    }
    /// What errors call this output.
    fn name(&self) -> &str;
}

/// Line and column (1-based, in characters) of a byte offset in a record,
/// counted from the record's start: O(offset). For a problem said once per
/// record (a syntax error, a tag's place, a warning counted and said once);
/// a reader that places something per move, per token or per warning asks
/// the record's [`Lines`] instead, or a long record takes time that grows
/// with the square of its length.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    // As pest counts (`\r\n` is one line end, a lone `\r` a column), by
    // searching for line ends rather than walking every character.
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return (1, 1);
    }
    scanned(offset);
    let before = &text.as_bytes()[..offset];
    let line = 1 + memchr::memchr_iter(b'\n', before).count();
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    (line, 1 + text[start..offset].chars().count())
}

/// The line and column of any byte offset of one record, each found in
/// time bounded by a constant, however long the record and in whatever
/// order they are asked: what a reader that places a problem per move,
/// per token or per warning asks, made once per record (or per run of a
/// document). Its answers are [`line_col`]'s.
///
/// The record is indexed on the first question, in one pass: for each
/// block of [`Lines::BLOCK`] bytes, the line ends and characters before
/// it and the characters before the start of its line (a few percent of
/// the record's size). A question then reads at most the block that holds
/// its offset, or, asked after a nearby offset before it, only the bytes
/// between them.
#[derive(Debug)]
pub struct Lines<'t> {
    text: &'t str,
    index: std::cell::OnceCell<Vec<Block>>,
    /// The offset asked last and its place, which a question a little
    /// further on counts from.
    last: std::cell::Cell<(usize, usize, usize)>,
}

/// What [`Lines`] knows of the start of one of its blocks.
#[derive(Debug, Clone, Copy)]
struct Block {
    /// Line ends before it.
    newlines: usize,
    /// Characters before it.
    chars: usize,
    /// Characters before the start of the line it lies in.
    line_chars: usize,
}

/// The characters of UTF-8 bytes: those that do not continue one.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl<'t> Lines<'t> {
    /// The bytes of a block of the index.
    pub const BLOCK: usize = 256;

    /// The finder of `text`'s places; nothing is read until it is asked.
    pub fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            index: std::cell::OnceCell::new(),
            last: std::cell::Cell::new((0, 1, 1)),
        }
    }

    /// The record.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// Line and column (1-based, in characters) of a byte offset, as
    /// [`line_col`] gives them: `(1, 1)` inside a character, the end's
    /// place past it.
    pub fn at(&self, offset: usize) -> (usize, usize) {
        let text = self.text.as_bytes();
        let offset = offset.min(text.len());
        if !self.text.is_char_boundary(offset) {
            return (1, 1);
        }
        let (last, line, col) = self.last.get();
        let block = offset / Self::BLOCK * Self::BLOCK;
        let place = if last <= offset && offset - last <= Self::BLOCK {
            // Forward from the last question.
            count_on(&text[last..offset], line, col)
        } else {
            let b = self.index()[offset / Self::BLOCK];
            let col = 1 + b.chars - b.line_chars;
            count_on(&text[block..offset], 1 + b.newlines, col)
        };
        self.last.set((offset, place.0, place.1));
        place
    }

    /// The index, made on the first question.
    fn index(&self) -> &[Block] {
        self.index.get_or_init(|| {
            let text = self.text.as_bytes();
            scanned(text.len());
            let mut blocks = Vec::with_capacity(text.len() / Self::BLOCK + 1);
            let (mut newlines, mut chars, mut line_chars) = (0, 0, 0);
            for chunk in text.chunks(Self::BLOCK) {
                blocks.push(Block {
                    newlines,
                    chars,
                    line_chars,
                });
                newlines += memchr::memchr_iter(b'\n', chunk).count();
                if let Some(i) = memchr::memrchr(b'\n', chunk) {
                    line_chars = chars + chars_in(&chunk[..=i]);
                }
                chars += chars_in(chunk);
            }
            // The end's block, when the text fills its last one.
            blocks.push(Block {
                newlines,
                chars,
                line_chars,
            });
            blocks
        })
    }
}

/// The place after `bytes`, which start at line `line`, column `col`.
fn count_on(bytes: &[u8], line: usize, col: usize) -> (usize, usize) {
    scanned(bytes.len());
    match memchr::memrchr(b'\n', bytes) {
        Some(i) => (
            line + memchr::memchr_iter(b'\n', bytes).count(),
            1 + chars_in(&bytes[i + 1..]),
        ),
        None => (line, col + chars_in(bytes)),
    }
}

thread_local! {
    /// The bytes this thread's position finding has read ([`scanned`]).
    static SCANNED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts bytes read to find a line and column.
fn scanned(bytes: usize) {
    SCANNED.with(|s| s.set(s.get() + bytes as u64));
}

/// How many bytes [`line_col`] and [`Lines`] have read on this thread
/// since it began: the work of placing problems, which the tests compare
/// across record lengths (growing with the square of a record's length
/// where a reader places each problem from the record's start).
pub fn bytes_scanned_for_places() -> u64 {
    SCANNED.with(std::cell::Cell::get)
}

/// The error for a variation opened [`MAX_VARIATION_DEPTH`] levels deep,
/// at `pos` (line and column in the record, or `(0, 0)` for the record).
pub fn too_deep(pos: (usize, usize)) -> Problem {
    Problem::at(
        pos,
        format!("variations nested more than {MAX_VARIATION_DEPTH} deep: kifu reads at most {MAX_VARIATION_DEPTH} levels"),
    )
    .of_kind(Kind::TooDeep)
}

/// Whether a problem is [`too_deep`]'s: a limit of kifu, not damage, which
/// fails its game (no variation of it is kept as text instead).
pub fn is_too_deep(p: &Problem) -> bool {
    p.kind == Kind::TooDeep
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// [`super::line_col`] counts as pest does, at every offset (char
        /// boundaries, the middle of a character, past the end), `\r\n`,
        /// lone `\r` and multi-byte characters included; and [`super::Lines`]
        /// as `line_col` does, asked in any order (forward, back, again),
        /// over records longer than its blocks.
        #[test]
        fn line_col_counts_as_pest_does(text in "[a\r\n\u{e9}\u{1F600}]{0,40}") {
            for offset in 0..=text.len() + 1 {
                let pest = pest::Position::new(&text, offset.min(text.len()))
                    .map_or((1, 1), |p| p.line_col());
                prop_assert_eq!(super::line_col(&text, offset), pest, "{:?} at {}", text, offset);
            }
        }

        #[test]
        fn lines_place_as_line_col_does(
            text in "([a\r\n\u{e9}\u{1F600}]{0,40}|a{200,600}|\n{0,3}|\u{e9}{100,300}){0,12}",
            asked in proptest::collection::vec(0usize..4000, 0..60),
        ) {
            let lines = super::Lines::new(&text);
            let every = 0..=text.len() + 1;
            for offset in asked.iter().map(|a| a % (text.len() + 2)).chain(every.clone()).chain(every.rev()) {
                prop_assert_eq!(lines.at(offset), super::line_col(&text, offset), "{:?} at {}", text, offset);
            }
        }
    }
}
