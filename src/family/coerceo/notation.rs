//! `coerceo`: Coerceo Game Notation (seed 000) in the PGN-style container.
//!
//! Tags as PGN; plies numbered one by one (`1#`, `2#`, White's odd); a ply
//! is a step `14d-14f` or an exchange `TT` / `T`, then its captures `x14a`,
//! tile removals `T14` and further exchanges in the order written; comments
//! `{...}` after a ply (glued to it too, `T16{...}`); glyphs glued to the
//! ply's last part; results `1-0 0-1 0-0 W+R B+R R` (and `*`, unknown). Two
//! layouts (seed 2.8): `text`, one paragraph wrapped at 80 columns, which
//! is canonical, and `columns`, a White ply and a Black ply a line.

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
    /// The record, and where each move read is in it with each of its
    /// parts after the first (byte offsets), in the order read.
    text: &'o str,
    moves: Vec<(usize, Vec<usize>)>,
    /// Warnings of removals of tiles the board does not have, for a game
    /// not replayed (the replay says which tile the rules take off).
    unknown: Vec<Problem>,
    /// The game the tags name.
    game: Kind,
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
        if let Some(t) = find("Position") {
            let pos = Position::parse(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(crate::error::Kind::TagValue))?;
            to_move = Some(pos.to_move);
        }
        Ok(Start {
            variant: Variant::Coerceo(Board {
                game: self.game,
                validated: !self.opts.no_validate,
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
        let (text, moves) = (self.text, &self.moves);
        let place = |index: usize, action: Option<usize>| {
            moves.get(index).map(|(at, parts)| {
                let at = action.and_then(|a| parts.get(a)).unwrap_or(at);
                crate::codec::line_col(text, *at)
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

/// Reads one record.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let mut reader = Reader {
        opts,
        text,
        moves: Vec::new(),
        unknown: Vec::new(),
        game: Kind::Laurentius,
    };
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
    let options = opts.format.get::<Options>().copied().unwrap_or_default();
    write_layout(game, options.layout, out)
}

/// Writes one game in a layout of [`DIALECT`] (`DIALECT.layout("columns")`).
pub fn write_layout(
    game: &Game,
    layout: Layout,
    out: &mut String,
) -> Result<Vec<Problem>, Problem> {
    if game.family() != Family::Coerceo {
        return Err(Problem::whole(format!(
            "a {} game cannot be written as coerceo",
            game.family().name()
        ))
        .of_kind(crate::error::Kind::WrongFamily));
    }
    let style = Style {
        glyphs_as_nags: false,
        layout,
    };
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
    // A ply is spelled from its own parts alone, wherever it stands: each
    // where the container writes it.
    container::write(game, &tags, out, &DIALECT, style, |ply, buf| {
        Cgn::spell_ply(&(), (), ply, buf)
    })
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
