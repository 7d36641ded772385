//! `coerceo`: Coerceo Game Notation (seed 000) in the PGN-style container.
//!
//! Tags as PGN; plies numbered one by one (`1#`, `2#`, White's odd); a ply
//! is a step `14d-14f` or an exchange `TT` / `T`, then its captures `x14a`,
//! tile removals `T14` and further exchanges in the order written; comments
//! `{...}` after a ply (glued to it too, `T16{...}`); glyphs glued to the
//! ply's last part; results `1-0 0-1 0-0 W+R B+R R` (and `*`, unknown). Two
//! layouts (seed 2.8): `text`, one paragraph wrapped at 80 columns, which
//! is canonical, and `columns`, a White ply and a Black ply a line.

use crate::codec::Visit;
use pest::Parser;

use crate::codec::{Parsed, ReadOptions, WriteOptions};
use crate::container::{self, MoveText, Notation, Start, Style};
use crate::error::Problem;
use crate::family::any::{Family, Move, Variant};
use crate::family::coerceo::rules::{self, Position};
use crate::family::coerceo::{
    not_a_tile, Action, Board, Exchange, Field, Kind, Move as CMove, Step, Tile,
};
use crate::family::dialect::{Dialect, Layout};
use crate::family::spell::Spell;
use crate::ir::{back_tag, find_tag, Backing, Game, Ply, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The pest parser: the Coerceo dialect and moves, and the container.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/coerceo.pest"]
    #[grammar = "grammars/common.pest"]
    pub struct CoerceoParser;

    container_rules!(Rule, co_move, |_| "a move");
}
use crate::family::coerceo::{DIALECT, TEXT};
use grammar::{CoerceoParser, Rule};

struct Reader<'o> {
    opts: &'o ReadOptions,
    /// The record's places, and where each move read is in it with each
    /// of its parts after the first (byte offsets), in the order read.
    places: crate::codec::Lines<'o>,
    moves: Vec<(usize, Vec<usize>)>,
    /// Warnings of removals of tiles the board does not have, for a game
    /// not replayed (the replay says which tile the rules take off).
    unknown: Vec<Problem>,
    /// The game the tags name.
    game: Kind,
    /// What a record read a run at a time replays its runs with
    /// ([`container::Runs`]); `None` when it is read whole.
    runs: Option<Replaying<'o>>,
}

/// The replay of a record read a run at a time: how it lists what its
/// turns caused and what an exchange takes (both known from every move
/// before the first run), the lines open with the position each goes on
/// from, and what the replay said so far.
struct Replaying<'l> {
    /// How the record lists what its turns caused.
    listing: rules::Listing,
    /// The tiles an exchange takes: the record's first exchange's.
    cost: u8,
    /// The lines open, the main line's first.
    lines: &'l std::cell::RefCell<container::kept::OpenLines<Position<'static>>>,
    /// How many plies the runs so far held.
    handed: usize,
    /// What the replay said, each with its place among them in the
    /// whole game's replay (a ply's after its variations').
    said: Vec<((usize, std::cmp::Reverse<usize>), Problem)>,
    /// Runs were read.
    ran: bool,
    /// The board the record's game starts on, which each run names
    /// ([`Board::started_on`]).
    board: Kind,
}

impl<'o> Reader<'o> {
    /// A reader of `text`, reading it whole (`runs` `None`) or a run at a
    /// time.
    fn new(opts: &'o ReadOptions, text: &'o str, runs: Option<Replaying<'o>>) -> Self {
        Reader {
            opts,
            places: crate::codec::Lines::new(text),
            moves: Vec::new(),
            unknown: Vec::new(),
            game: Kind::Laurentius,
            runs,
        }
    }
}

impl Notation for Reader<'_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let find = |name: &str| find_tag(tags, name).map(|i| &tags[i]);
        if let Some(t) = find("Variant") {
            self.game = Kind::parse(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(crate::error::Kind::TagValue))?;
        }
        let mut to_move = None;
        let mut start = None;
        if let Some(t) = find("Position") {
            let pos = Position::parse(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(crate::error::Kind::TagValue))?;
            to_move = Some(pos.to_move);
            start = Some(pos);
        }
        if let Some(runs) = self.runs.as_mut() {
            // The position the main line's runs start from.
            let mut start = start.unwrap_or_else(|| Position::start(self.game));
            runs.board = start.board();
            start.cost = runs.cost;
            if !self.opts.no_validate {
                runs.lines.borrow_mut().top()?.pos = Some(start);
            }
        }
        Ok(Start {
            variant: Variant::Coerceo(Board {
                game: self.game,
                validated: !self.opts.no_validate,
                started_on: None,
            }),
            setup: None,
            to_move,
            number: None,
            warnings: Vec::new(),
        })
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        let mut parts = Vec::new();
        let m = decode(&mv, &mut self.unknown, &mut parts)?;
        self.moves.push((mv.offset(), parts));
        Ok(Move::Coerceo(m))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if let Some(runs) = self.runs.as_mut().filter(|r| r.ran) {
            // Every move was read (and replayed) in its run.
            if self.opts.no_validate {
                warnings.append(&mut self.unknown);
                warnings.push(
                    Problem::whole(rules::UNREPLAYED).of_kind(crate::error::Kind::NotReplayed),
                );
                return Ok(());
            }
            if runs.lines.borrow().unordered {
                return Err(Problem::whole(
                    "a variation of a ply the replay said something of: read whole",
                )
                .of_kind(crate::error::Kind::NotStreamed));
            }
            runs.said.sort_by_key(|(place, _)| *place);
            warnings.extend(runs.said.drain(..).map(|(_, p)| p));
            return Ok(());
        }
        // (A Result tag that contradicts the movetext is the container's
        // warning, for every notation.)
        if self.opts.no_validate {
            warnings.append(&mut self.unknown);
            if !self.moves.is_empty() {
                warnings.push(
                    Problem::whole(rules::UNREPLAYED).of_kind(crate::error::Kind::NotReplayed),
                );
            }
            return Ok(());
        }
        let (places, moves) = (&self.places, &self.moves);
        let place = |index: usize, action: Option<usize>| {
            moves.get(index).map(|(at, parts)| {
                let at = action.and_then(|a| parts.get(a)).unwrap_or(at);
                places.at(*at)
            })
        };
        let mut pos = rules::start_of(game, self.game)
            .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::TagValue))?;
        let listing = rules::Listing::of(&game.moves);
        let mut notes = Vec::new();
        rules::replay(&mut game.moves, &mut pos, listing, &mut notes).map_err(
            |(i, e)| match place(i, None) {
                Some(at) => Problem::at(at, e).of_kind(crate::error::Kind::IllegalMove),
                None => Problem::whole(e).of_kind(crate::error::Kind::IllegalMove),
            },
        )?;
        for n in notes {
            let p = match place(n.index, n.action) {
                Some(at) => Problem::at(at, n.message),
                None => Problem::whole(n.message),
            };
            warnings.push(p.of_kind(n.kind));
        }
        Ok(())
    }
}

impl container::Runs for Reader<'_> {
    fn start_position(&self) -> Option<crate::family::Setup> {
        None
    }

    fn run(
        &mut self,
        plies: Vec<Ply>,
        _from: &Option<crate::family::Setup>,
        _depth: usize,
    ) -> Result<(Game, Option<crate::family::Setup>), Problem> {
        let runs = self.runs.as_mut().ok_or_else(|| {
            Problem::whole("a run of a record read whole").of_kind(crate::error::Kind::Internal)
        })?;
        runs.ran = true;
        let mut run = Game::new(Variant::Coerceo(Board {
            game: self.game,
            validated: !self.opts.no_validate,
            started_on: Some(runs.board),
        }));
        run.moves.plies = plies;
        let n = run.moves.ply_count();
        let moves: Vec<(usize, Vec<usize>)> = self.moves.drain(..n.min(self.moves.len())).collect();
        let base = runs.handed;
        runs.handed += n;
        if self.opts.no_validate {
            return Ok((run, None));
        }
        let (listing, cell) = (runs.listing, runs.lines);
        let mut lines = cell.borrow_mut();
        let top = lines.top()?;
        let mut pos = top.pos.take().ok_or_else(|| {
            Problem::whole("a run with no position").of_kind(crate::error::Kind::Internal)
        })?;
        // The run starts where the last one left: its Position tag, for
        // what draws it.
        run.tags.push(Tag::new("Position", pos.text()));
        let replay = |line: &mut crate::ir::Line, pos: &mut Position<'static>, notes: &mut _| {
            rules::replay(line, pos, listing, notes)
                .map_err(|(_, e)| Problem::whole(e).of_kind(crate::error::Kind::IllegalMove))
        };
        // The position before the last ply is kept: a variation of it
        // starts there.
        let last = run.moves.plies.pop();
        let mut notes = Vec::new();
        replay(&mut run.moves, &mut pos, &mut notes)?;
        let before = run.moves.ply_count();
        top.before_last = Some(pos.clone());
        top.noted = false;
        if let Some(last) = last {
            let mut one = crate::ir::Line {
                plies: vec![last],
                ..crate::ir::Line::default()
            };
            let mut said = Vec::new();
            replay(&mut one, &mut pos, &mut said)?;
            // (Its own notes: the first ply of the line; the others are
            // its variations'.)
            top.noted = said.iter().any(|n| n.index == 0);
            notes.extend(said.into_iter().map(|mut n| {
                n.index += before;
                n
            }));
            run.moves.plies.append(&mut one.plies);
        }
        top.pos = Some(pos);
        drop(lines);
        // Where each ply's variations end, in the order written.
        let mut ends = Vec::with_capacity(n);
        subtree_ends(&run.moves, &mut ends);
        let places = &self.places;
        for note in notes {
            let place = moves.get(note.index).map(|(at, parts)| {
                let at = note.action.and_then(|a| parts.get(a)).unwrap_or(at);
                places.at(*at)
            });
            let p = match place {
                Some(at) => Problem::at(at, note.message),
                None => Problem::whole(note.message),
            };
            let end = ends.get(note.index).copied().unwrap_or(note.index);
            runs.said.push((
                (base + end, std::cmp::Reverse(base + note.index)),
                p.of_kind(note.kind),
            ));
        }
        Ok((run, None))
    }
}

/// The index of the last ply of each ply's variations (its own where it
/// has none), the plies in the order written (each before its
/// variations), appended to `out`.
fn subtree_ends(line: &crate::ir::Line, out: &mut Vec<usize>) {
    for ply in &line.plies {
        let at = out.len();
        out.push(at);
        for v in &ply.variations {
            subtree_ends(v, out);
        }
        out[at] = out.len() - 1;
    }
}

/// What a move's text (the grammar's `co_move`) says of the record: that
/// it lists what a turn caused (a capture not an exchange's piece, or a
/// removal), and the tiles its first exchange takes.
fn consequences(text: &str) -> (bool, Option<u8>) {
    let (mut lists, mut cost) = (false, None);
    let mut after_exchange = false;
    for (k, part) in text
        .split(char::is_whitespace)
        .filter(|p| !p.is_empty())
        .enumerate()
    {
        let b = part.as_bytes();
        let exchange = match b {
            b"T" => Some(1),
            b"TT" => Some(2),
            _ => None,
        };
        match b {
            [b'x', ..] if k > 0 => lists |= !after_exchange,
            [b'T', b'0'..=b'9', ..] if k > 0 => lists = true,
            _ => {}
        }
        cost = cost.or(exchange);
        after_exchange = exchange.is_some();
    }
    (lists, cost)
}

/// The length of a ply at the start of `b`, as the grammar's `co_move`
/// reads it (its choices tried in order, each repetition as long as it
/// goes, as a PEG does): a step or an exchange, then its actions after
/// blanks; or a lone capture or removal (which the reader refuses).
fn co_len(b: &[u8]) -> Option<usize> {
    let digits = |i: usize| {
        b.get(i..)
            .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
    };
    // `co_end`: no letter, digit, `-` or `+` follows.
    let end = |i: usize| {
        b.get(i)
            .is_none_or(|&c| !(c.is_ascii_alphanumeric() || c == b'-' || c == b'+'))
            .then_some(i)
    };
    let field = |i: usize| {
        let d = digits(i);
        (d > 0 && b.get(i + d).is_some_and(u8::is_ascii_alphabetic)).then_some(i + d + 1)
    };
    let step = |i: usize| {
        let j = field(i)?;
        (b.get(j) == Some(&b'-')).then_some(())?;
        end(field(j + 1)?)
    };
    let capture = |i: usize| {
        (b.get(i) == Some(&b'x')).then_some(())?;
        end(field(i + 1)?)
    };
    let removal = |i: usize| {
        (b.get(i) == Some(&b'T')).then_some(())?;
        let d = digits(i + 1);
        (d > 0).then_some(())?;
        end(i + 1 + d)
    };
    // `("TT" | "T") ~ co_end`: a `TT` that is not followed by its end is
    // no exchange (the choice is not tried again with `T`).
    let exchange = |i: usize| {
        if b.get(i..).is_some_and(|r| r.starts_with(b"TT")) {
            end(i + 2)
        } else if b.get(i) == Some(&b'T') {
            end(i + 1)
        } else {
            None
        }
    };
    let gap = |i: usize| {
        let n = b.get(i..).map_or(0, |r| {
            r.iter()
                .take_while(|&&c| container::fast::is_space(c))
                .count()
        });
        (n > 0).then_some(i + n)
    };
    let action = |i: usize| capture(i).or_else(|| removal(i)).or_else(|| exchange(i));
    match step(0).or_else(|| exchange(0)) {
        Some(mut i) => {
            while let Some(j) = gap(i).and_then(action) {
                i = j;
            }
            Some(i)
        }
        None => capture(0).or_else(|| removal(0)),
    }
}

/// What the fast lexer needs to read coerceo.
const LEXING: container::fast::Lexing = container::fast::Lexing { move_len: co_len };

/// Reads one record a run at a time ([`crate::codec::StreamFn`]): its
/// moves replayed a run at a time from the position the last run left,
/// kept typed; how the record lists what its turns caused and what its
/// exchanges take are found first, from every move, by the fast lexer.
/// What the replay says of a ply it says after what it says of the ply's
/// variations, as the whole game's replay does (where a variation opens
/// on a ply it said something of, the record is read whole).
fn stream(
    text: &str,
    opts: &ReadOptions,
    each: &mut dyn FnMut(crate::codec::Piece<'_>) -> Result<(), Problem>,
) -> Result<Option<Parsed>, Problem> {
    let Some((_, mut movetext)) = container::fast::lex_tags(text, LEXING, &DIALECT) else {
        return Ok(None);
    };
    let (mut lists, mut cost) = (false, None);
    if !opts.no_validate {
        let mut tokens: Vec<container::Token<'_, Rule>> = Vec::new();
        loop {
            tokens.clear();
            let Some(done) = movetext.fill::<true, Rule>(&mut tokens, 4096) else {
                return Ok(None);
            };
            for t in &tokens {
                if let container::Token::Move(m, ..) = t {
                    let (l, c) = consequences(m);
                    lists |= l;
                    cost = cost.or(c);
                }
            }
            if done {
                break;
            }
        }
    }
    let lines = std::cell::RefCell::new(container::kept::OpenLines::new(None));
    let mut reader = Reader::new(
        opts,
        text,
        Some(Replaying {
            listing: if lists {
                rules::Listing::All
            } else {
                rules::Listing::None
            },
            cost: cost.unwrap_or(2),
            lines: &lines,
            handed: 0,
            said: Vec::new(),
            ran: false,
            board: Kind::Laurentius,
        }),
    );
    let mut follow = |piece: crate::codec::Piece<'_>| {
        lines.borrow_mut().follow(&piece);
        each(piece)
    };
    container::stream_record(text, opts, LEXING, &mut reader, &mut follow)
}

/// Whether the fast lexer reads this record (every coerceo record is read
/// by the grammar whole; a run at a time, by the lexer).
pub fn lexed_fast(text: &str) -> bool {
    container::fast::lex::<Rule>(text, LEXING, &DIALECT).is_some()
}

/// Reads one ply, which the grammar has matched: its parts, separated by
/// blanks. Tiles and fields are checked here, each error at its place;
/// `parts` gets the offset of each action in the record.
fn decode(
    mv: &MoveText<'_, Rule>,
    warnings: &mut Vec<Problem>,
    parts_at: &mut Vec<usize>,
) -> Result<CMove, Problem> {
    let text = mv.text();
    let mut m = CMove::default();
    let parts = text
        .split(char::is_whitespace)
        .filter(|p| !p.is_empty())
        .map(|p| (p.as_ptr() as usize - text.as_ptr() as usize, p));
    for (k, (at, part)) in parts.enumerate() {
        let b = part.as_bytes();
        let action = match b {
            [b'0'..=b'9', ..] => {
                let dash = part.find('-').unwrap_or(part.len());
                let from = field(mv, at, &part[..dash])?;
                let to = field(mv, at + dash + 1, part.get(dash + 1..).unwrap_or(""))?;
                m.step = Some(Step { from, to });
                continue;
            }
            [b'x', ..] if k > 0 => Action::Capture(field(mv, at + 1, &part[1..])?),
            b"T" => Action::Exchange(Exchange::One),
            b"TT" => Action::Exchange(Exchange::Two),
            [b'T', ..] if k > 0 => {
                let n = tile_number(mv, at + 1, &part[1..])?;
                match Tile::new(n) {
                    Some(t) => Action::Remove(t),
                    None => {
                        warnings.push(
                            Problem::at(
                                mv.pos(at),
                                format!(
                                    "{}: the removal {} is kept as written",
                                    not_a_tile(n),
                                    crate::error::quote(part)
                                ),
                            )
                            .of_kind(crate::error::Kind::UnknownTile),
                        );
                        Action::RemoveUnknown(n)
                    }
                }
            }
            _ => {
                return Err(Problem::at(
                    mv.pos(at),
                    format!(
                        "{} follows no move or exchange: a capture or tile removal is \
                         written right after its ply's move (a comment goes after the ply's \
                         last part)",
                        crate::error::quote(part)
                    ),
                )
                .of_kind(crate::error::Kind::Syntax))
            }
        };
        m.actions.push(action);
        parts_at.push(mv.offset() + at);
    }
    Ok(m)
}

/// A tile number written at byte `at` of the move.
fn tile_number(mv: &MoveText<'_, Rule>, at: usize, digits: &str) -> Result<u32, Problem> {
    digits.parse().map_err(|_| {
        Problem::at(
            mv.pos(at),
            format!(
                "tile number {digits} is too large",
                digits = crate::error::quote(digits)
            ),
        )
        .of_kind(crate::error::Kind::NumberTooLarge)
    })
}

/// A field (`14d`) written at byte `at` of the move.
fn field(mv: &MoveText<'_, Rule>, at: usize, text: &str) -> Result<Field, Problem> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let n = tile_number(mv, at, &text[..digits])?;
    let tile = Tile::new(n).ok_or_else(|| {
        Problem::at(mv.pos(at), not_a_tile(n)).of_kind(crate::error::Kind::OffBoard)
    })?;
    let letter = text[digits..].chars().next().unwrap_or('?');
    Field::new(tile, letter).ok_or_else(|| {
        Problem::at(
            mv.pos(at + digits),
            format!(
                "field {letter} is not on a tile (fields are a to f)",
                letter = crate::error::quote(&letter.to_string())
            ),
        )
        .of_kind(crate::error::Kind::OffBoard)
    })
}

/// Reads one record into a game ([`walk`]'s visitor that builds it).
fn read_game(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let mut reader = Reader::new(opts, text, None);
    let parse = |t| CoerceoParser::parse(Rule::record, t);
    container::read_record(text, opts, None, parse, &mut reader)
}

/// The options of `coerceo`.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// How the moves are laid out.
    pub layout: Layout,
}

impl Default for Options {
    fn default() -> Options {
        Options { layout: TEXT }
    }
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[FormatOption {
        name: "layout",
        sides: Sides::Write,
        values: Values::OneOf(&["text", "columns"]),
        default: "text",
        help: "how the plies are laid out (text: one paragraph wrapped at 80 columns; columns: a White and a Black ply a line)",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "layout" => {
                self.layout = DIALECT.layout(value).ok_or_else(|| {
                    format!(
                        "layout {value} is not text or columns",
                        value = crate::error::quote(value)
                    )
                })?
            }
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// Writes one game in the layout its options name (`text` by default).
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game a run at a time ([`crate::codec::RunsFn`]), in
/// the layout its options name.
pub fn runs(opts: &WriteOptions) -> Box<dyn crate::codec::RunWriter> {
    let options = opts.format.get::<Options>().copied().unwrap_or_default();
    container::notated::runs(Written(options.layout))
}

/// The error of a game of another family.
fn coerceo_only(game: &Game) -> Result<(), Problem> {
    if game.family() == Family::Coerceo {
        return Ok(());
    }
    Err(game.family().cannot_be_written_as("coerceo"))
}

/// Coerceo written in a layout ([`container::notated`]).
struct Written(Layout);

impl container::notated::Notated for Written {
    const DIALECT: &'static Dialect = &DIALECT;

    fn style(&self) -> Style {
        Style {
            glyphs_as_nags: false,
            layout: self.0,
        }
    }

    fn tags<'g>(&self, game: &'g Game) -> Result<std::borrow::Cow<'g, [Tag]>, Problem> {
        coerceo_only(game)?;
        // The Variant tag says the board: Ocius's is written, Laurentius's
        // (the default) kept where the record had it.
        let kind = game
            .variant
            .as_coerceo()
            .map_or(Kind::Laurentius, |b| b.game);
        let mut tags = std::borrow::Cow::Borrowed(game.tags.as_slice());
        let backing = match kind {
            Kind::Laurentius => Backing::Nothing {
                reads_as_nothing: &|v| Kind::parse(v) == Ok(Kind::Laurentius),
            },
            Kind::Ocius => Backing::Value {
                agrees: &|v| Kind::parse(v) == Ok(Kind::Ocius),
                value: &|| Kind::Ocius.name().to_string(),
            },
        };
        back_tag(&mut tags, "Variant", backing);
        Ok(tags)
    }

    fn spell(&mut self, run: &Game) -> Result<crate::family::spell::Spelled, Problem> {
        coerceo_only(run)?;
        // A ply is spelled from its own parts alone, wherever it stands.
        crate::family::spell::spelled::<Cgn>(run, &(), crate::family::spell::Lines::All)
    }
}

/// Coerceo game notation ([`crate::spell`]): a ply's step, then its
/// actions, blank-separated (`8f-19b TT x19f`).
pub struct Cgn;

impl Spell for Cgn {
    type Replay = super::hooks::Positions;
    type Options = ();

    fn spell_ply(_: &(), (): (), ply: &Ply, out: &mut String) -> Result<(), Problem> {
        let m = ply
            .mv
            .of(Family::Coerceo, Move::as_coerceo)
            .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::WrongFamily))?;
        crate::family::coerceo::spell(m, out)
    }
}

/// Reads one record by the walk ([`crate::codec::StreamFn`], the one entry
/// point of the registry's reader): into the game ([`Visit::Game`]), or a
/// run at a time ([`Visit::Runs`]).
pub fn walk(text: &str, opts: &ReadOptions, visit: Visit<'_>) -> Result<Option<Parsed>, Problem> {
    crate::codec::walk_with(text, opts, visit, read_game, stream)
}

/// Reads one record into a game: [`walk`] with the visitor that builds it.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    crate::codec::built(walk(text, opts, Visit::Game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<CoerceoParser, _>(
            &crate::family::coerceo::RESULTS,
            Rule::result,
        );
    }

    /// Reads by syntax alone (these games are not played from the start).
    fn read_one(text: &str) -> Parsed {
        let opts = ReadOptions {
            no_validate: true,
            ..ReadOptions::default()
        };
        read(text, &opts).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    #[test]
    fn plies_are_numbered_one_by_one_white_odd() {
        let g = read_one("1# 3c-3e 2# 4b-3d 3# 5c-5a *").game;
        let sides: Vec<_> = g.moves.plies.iter().map(|p| (p.number, p.side)).collect();
        use crate::ir::Side::*;
        assert_eq!(sides, [(1, White), (2, Black), (3, White)]);
        assert_eq!(g.moves.plies[1].label(crate::ir::Side::White), "2#");
        // Numbers may be left out; a first even number is Black's.
        let g = read_one("4# 6d-5f 5f-1d *").game;
        let sides: Vec<_> = g.moves.plies.iter().map(|p| (p.number, p.side)).collect();
        assert_eq!(sides, [(4, Black), (5, White)]);
    }

    #[test]
    fn parts_are_kept_in_the_order_written() {
        let g = read_one("112# 8f-19b TT x19f T8 T x5c *").game;
        let Move::Coerceo(m) = &g.moves.plies[0].mv else {
            panic!()
        };
        let f = |s: &str| Field::parse(s).unwrap();
        assert_eq!(
            m.step,
            Some(Step {
                from: f("8f"),
                to: f("19b")
            })
        );
        assert_eq!(
            m.actions,
            [
                Action::Exchange(Exchange::Two),
                Action::Capture(f("19f")),
                Action::Remove(Tile::new(8).unwrap()),
                Action::Exchange(Exchange::One),
                Action::Capture(f("5c")),
            ]
        );
    }
}
