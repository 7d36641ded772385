//! `tafl`: the hnefatafl notation of seed 003 in the PGN-style container.
//!
//! Tags as PGN, with `[Board "11x11"]` and `[Rules "copenhagen"]` (a preset
//! or an OpenTafl rules string); moves numbered as in chess; a move
//! `E5-E8`, its captures `xD8/F8/E9`, a suffix `+`, `++` or `--`; `--`
//! alone a resignation. Squares in any case, written in upper case. The
//! board comes from the Board tag, the rules, the `board` option, or the
//! largest square of the record (with a warning). With rules, every move is
//! checked and its captures checked (a record that lists captures) or
//! computed (one that lists none).

use std::borrow::Cow;

use pest::Parser;

use crate::codec::{Parsed, ReadOptions, WriteOptions};
use crate::container::{self, MoveText, Notation, Start, Style};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Variant};
use crate::family::dialect::{Dialect, Layout};
use crate::family::hnefatafl::rules::{self, Position, Rules};
use crate::family::hnefatafl::{Board, Mark, Move as TMove, Square, Step, MAX_DIM, MIN_DIM};
use crate::family::spell::Lines;
use crate::family::spell::{self, Spell};
use crate::ir::{back_tag, find_tag, Backing, Game, Line, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The pest parser: the tafl dialect and moves, and the container.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/tafl.pest"]
    pub struct TaflParser;

    container_rules!(Rule, tafl_move, |_| "a move");
}
use crate::family::hnefatafl::DIALECT;
use grammar::{Rule, TaflParser};

/// The options of `tafl` and `otn`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The board side when the record does not say (`board=11`).
    pub board: Option<u8>,
    /// The rules when the record does not say.
    pub rules: Option<Rules>,
    /// Quarter turns clockwise applied to every square written.
    pub quarters: u8,
    /// Mirror every square written left to right.
    pub mirror: bool,
}

/// Reads a board side: `11` or `11x11`.
pub fn parse_board(text: &str) -> Result<u8, String> {
    let t = text.trim();
    let side = match t.split_once(['x', 'X']) {
        Some((a, b)) if a.trim() == b.trim() => a.trim(),
        Some(_) => {
            return Err(format!(
                "board {text} is not square",
                text = crate::error::quote(text)
            ))
        }
        None => t,
    };
    side.parse::<u8>()
        .ok()
        .filter(|d| (MIN_DIM..=MAX_DIM).contains(d))
        .ok_or_else(|| {
            format!(
                "board {text}: a tafl board is 5x5 to 19x19",
                text = crate::error::quote(text)
            )
        })
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[
        FormatOption {
            name: "board",
            sides: Sides::Read,
            values: Values::Kind("a side 5 to 19, or 11x11"),
            default: "the Board tag, the rules, or the largest square seen",
            help: "the board of records that do not say",
        },
        FormatOption {
            name: "rules",
            sides: Sides::Read,
            values: Values::Kind("a preset (copenhagen, fetlar, berserk, brandubh, brandubh-walker, tablut, sea-battle, tawlbwrdd, hnefatafl-13, tyr-15, old-tyr-17, alea-evangelii) or an OpenTafl rules string"),
            default: "the Rules tag; none: moves not checked",
            help: "the rules of records that do not say",
        },
        FormatOption {
            name: "rotate",
            sides: Sides::Write,
            values: Values::OneOf(&["0", "90", "180", "270"]),
            default: "0",
            help: "turn every square clockwise by this many degrees (the side the board is seen from)",
        },
        FormatOption {
            name: "mirror",
            sides: Sides::Write,
            values: Values::OneOf(&["no", "yes"]),
            default: "no",
            help: "mirror every square left to right (after a rotation)",
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "board" => self.board = Some(parse_board(value)?),
            "rules" => self.rules = Some(Rules::named(value)?),
            "rotate" => {
                self.quarters = match value {
                    "90" => 1,
                    "180" => 2,
                    "270" => 3,
                    _ => 0,
                }
            }
            "mirror" => self.mirror = value == "yes",
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// What the tags (and the options) say about the board and the rules; the
/// error is located at the tag.
pub fn board_from_tags(
    tags: &[Tag],
    at: &dyn Fn(&str) -> (usize, usize),
    opts: &Options,
) -> Result<(Option<u8>, Option<Rules>), Problem> {
    let find = |name: &str| find_tag(tags, name).map(|i| &tags[i]);
    let rules = match find("Rules") {
        Some(t) => Some(
            Rules::named(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(Kind::TagValue))?,
        ),
        None => opts.rules.clone(),
    };
    let board = match find("Board") {
        Some(t) => Some(
            parse_board(&t.value)
                .map_err(|e| Problem::at(at(&t.name), e).of_kind(Kind::TagValue))?,
        ),
        None => opts.board,
    };
    if let (Some(r), Some(t)) = (&rules, find("Position")) {
        r.at_position(std::slice::from_ref(t))
            .map_err(|e| Problem::at(at(&t.name), e).of_kind(Kind::TagValue))?;
    }
    if let (Some(r), Some(b)) = (&rules, board) {
        if r.dim != b {
            let place = find("Board").map_or((0, 0), |t| at(&t.name));
            return Err(Problem::at(
                place,
                format!("the board is {b}x{b}, and the rules are for {0}x{0}", r.dim),
            )
            .of_kind(Kind::TagValue));
        }
    }
    Ok((rules.as_ref().map(|r| r.dim).or(board), rules))
}

struct Reader<'o> {
    opts: &'o ReadOptions,
    /// The record, and where each move read is in it, in the order read.
    text: &'o str,
    moves: Vec<usize>,
    options: Options,
    dim: Option<u8>,
    rules: Option<Rules>,
}

impl Notation for Reader<'_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let (dim, rules) = board_from_tags(tags, at, &self.options)?;
        self.dim = dim;
        self.rules = rules.clone();
        let board = Board {
            dim: dim.unwrap_or(MAX_DIM),
            validated: rules.is_some() && !self.opts.no_validate,
            rules,
        };
        Ok(Start {
            variant: Variant::Tafl(board),
            setup: None,
            to_move: None,
            number: None,
            warnings: Vec::new(),
        })
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        self.moves.push(mv.offset());
        decode(mv.text(), self.dim, '-', &|at, e| {
            Problem::at(mv.pos(at), e).of_kind(Kind::Syntax)
        })
        .map(Move::Tafl)
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        let (text, moves) = (self.text, &self.moves);
        settle(game, self.dim, false, warnings, &|i| {
            moves.get(i).map(|&at| crate::codec::line_col(text, at))
        })
    }
}

/// Settles the board of a game read: the side the record showed (the
/// largest square, with a warning, where nothing said it), then the moves
/// replayed by the rules when there are rules and the game is validated
/// (`king_implied`: a record that lists captures leaves out the king's).
pub fn settle(
    game: &mut Game,
    dim: Option<u8>,
    king_implied: bool,
    warnings: &mut Vec<Problem>,
    locate: &dyn Fn(usize) -> Option<(usize, usize)>,
) -> Result<(), Problem> {
    let Variant::Tafl(board) = &mut game.variant else {
        return Ok(());
    };
    if dim.is_none() {
        let extent = extent_of(&game.moves);
        board.dim = extent;
        warnings.push(
            Problem::whole(format!(
            "no Board tag or rules: the board is taken to be {extent}x{extent}, the smallest that \
             holds every square of the record"
        ))
            .of_kind(Kind::BoardAssumed),
        );
    }
    if board.validated {
        if let Some(rules) = board.rules.clone() {
            let listing = rules::Listing::of(&game.moves, king_implied);
            let start = rules
                .at_position(&game.tags)
                .map_err(|e| Problem::whole(e).of_kind(Kind::TagValue))?;
            let mut pos = Position::new(&start);
            let place = |i: usize, e: String| match locate(i) {
                Some(at) => Problem::at(at, e),
                None => Problem::whole(e),
            };
            let mut notes = Vec::new();
            let completed = rules::replay(&mut game.moves, &mut pos, listing, &mut notes)
                .map_err(|(i, e)| place(i, e).of_kind(Kind::IllegalMove))?;
            warnings.extend(
                notes
                    .into_iter()
                    .map(|n| place(n.index, n.message).of_kind(n.kind)),
            );
            if completed > 0 {
                warnings.push(
                    Problem::whole(format!(
                        "the captures listed leave out the king's, which the rules find: \
                         completed ({completed} move{})",
                        if completed == 1 { "" } else { "s" }
                    ))
                    .of_kind(Kind::KingCaptureCompleted),
                );
            }
        }
    }
    Ok(())
}

/// The smallest board side that holds every square of a line.
fn extent_of(line: &Line) -> u8 {
    let mut e = MIN_DIM;
    for ply in &line.plies {
        if let Some(m) = ply.mv.as_tafl() {
            for sq in m.squares() {
                e = e.max(sq.extent());
            }
        }
        for v in &ply.variations {
            e = e.max(extent_of(v));
        }
    }
    e
}

/// Reads one move the grammar matched (or an aagenielsen move: `sep` is
/// its leg separator): squares checked against the board when its side is
/// known; `err` locates an error at a byte of the move.
pub fn decode(
    text: &str,
    dim: Option<u8>,
    sep: char,
    err: &dyn Fn(usize, String) -> Problem,
) -> Result<TMove, Problem> {
    if text == "--" {
        return Ok(TMove::Resign);
    }
    let (body, mark) = if let Some(b) = text.strip_suffix("++") {
        (b, Some(Mark::Win))
    } else if let Some(b) = text.strip_suffix("--") {
        (b, Some(Mark::Suicide))
    } else if let Some(b) = text.strip_suffix('+') {
        (b, Some(Mark::Threat))
    } else {
        (text, None)
    };
    let square = |at: usize, s: &str| -> Result<Square, Problem> {
        let sq = Square::parse(s).map_err(|e| err(at, e))?;
        match dim {
            Some(d) if !sq.on(d) => Err(err(at, format!("{s} is off the {d}x{d} board"))),
            _ => Ok(sq),
        }
    };
    let (legs, caps) = match body.find(['x', 'X']) {
        Some(i) => (&body[..i], Some((i + 1, &body[i + 1..]))),
        None => (body, None),
    };
    let mut squares = Vec::new();
    let mut at = 0;
    for part in legs.split(sep) {
        squares.push(square(at, part)?);
        at += part.len() + 1;
    }
    let mut captures = Vec::new();
    if let Some((mut at, caps)) = caps {
        for part in caps.split('/') {
            captures.push(square(at, part)?);
            at += part.len() + 1;
        }
    }
    if squares.len() < 2 {
        return Err(err(
            0,
            format!(
                "{text} is not a move (`e5-e8`)",
                text = crate::error::quote(text)
            ),
        ));
    }
    let to = squares.pop().unwrap_or(squares[0]);
    let from = squares.remove(0);
    Ok(TMove::Step(Step {
        from,
        via: squares,
        to,
        captures,
        mark,
    }))
}

/// Reads one record.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let options = opts.format.get::<Options>().cloned().unwrap_or_default();
    let mut reader = Reader {
        opts,
        text,
        moves: Vec::new(),
        options,
        dim: None,
        rules: None,
    };
    let parse = |t| TaflParser::parse(Rule::record, t);
    container::read_record(text, opts, None, parse, &mut reader)
}

/// The game's tags with `Board` and `Rules` made to say what its board
/// says: a tag that agrees is kept as written, one that disagrees gets the
/// board's value, a missing Rules tag is added at the end (a preset's name,
/// or the rules string); a Board tag is added when there are no rules.
pub fn render_tags(game: &Game, board: &Board) -> Vec<Tag> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    let side = || format!("{0}x{0}", board.dim);
    let agrees = |v: &str| parse_board(v) == Ok(board.dim);
    if board.rules.is_none() || find_tag(&tags, "Board").is_some() {
        back_tag(
            &mut tags,
            "Board",
            Backing::Value {
                agrees: &agrees,
                value: &side,
            },
        );
    }
    let rules = match &board.rules {
        Some(r) => Backing::Value {
            agrees: &|v| Rules::named(v).ok().as_ref() == Some(r),
            value: &|| {
                r.preset_name()
                    .map_or_else(|| r.text().to_string(), str::to_string)
            },
        },
        // Every Rules tag is read as rules.
        None => Backing::Nothing {
            reads_as_nothing: &|_| false,
        },
    };
    back_tag(&mut tags, "Rules", rules);
    tags.into_owned()
}

/// Writes one game.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    let options = opts.format.get::<Options>().cloned().unwrap_or_default();
    let Some(board) = game.variant.as_tafl() else {
        return Err(Problem::whole(format!(
            "a {} game cannot be written as tafl",
            game.family().name()
        ))
        .of_kind(Kind::WrongFamily));
    };
    let (q, m) = (options.quarters, options.mirror);
    // Seen from another side, the rules' start position and the Position
    // tag turn with the squares.
    let turned;
    let board = if !q.is_multiple_of(4) || m {
        turned = Board {
            rules: board.rules.as_ref().map(|r| r.transformed(q, m)),
            ..board.clone()
        };
        &turned
    } else {
        board
    };
    let mut tags = render_tags(game, board);
    view_position(&mut tags, board.dim, q, m);
    let mut warnings = Vec::new();
    let style = Style {
        glyphs_as_nags: false,
        layout: Layout::Paragraph,
    };
    let spelled = spell::spelled::<Tafl>(game, &options, Lines::All)?;
    let mut texts = spelled.texts();
    warnings.extend(container::write(
        game,
        &tags,
        out,
        &DIALECT,
        style,
        |_, buf| texts.write_next(buf),
    )?);
    texts.finish()?;
    Ok(warnings)
}

/// tafl notation ([`crate::spell`]): `E5-E8xD8/F8+`, `--` for a
/// resignation, each square seen from the side the options turn the
/// board to.
pub struct Tafl;

impl Spell for Tafl {
    type Replay = super::hooks::Positions;
    type Options = Options;

    fn spell_ply(
        options: &Options,
        before: super::hooks::Before<'_>,
        ply: &crate::ir::Ply,
        out: &mut String,
    ) -> Result<(), Problem> {
        let t = ply
            .mv
            .of(crate::family::any::Family::Tafl, Move::as_tafl)
            .map_err(|e| Problem::whole(e).of_kind(Kind::WrongFamily))?;
        let (dim, q, m) = (before.board.dim, options.quarters, options.mirror);
        crate::family::hnefatafl::spell_move(t, out, &|s| s.transform(dim, q, m));
        Ok(())
    }
}

/// Turns a Position tag's position with the squares.
pub fn view_position(tags: &mut [Tag], dim: u8, quarters: u8, mirror: bool) {
    if quarters.is_multiple_of(4) && !mirror {
        return;
    }
    for t in tags
        .iter_mut()
        .filter(|t| t.name.eq_ignore_ascii_case("Position"))
    {
        if let Some(v) = rules::transform_position(&t.value, dim, quarters, mirror) {
            t.value = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<TaflParser, _>(
            &crate::ir::result::PGN_RESULTS,
            Rule::result,
        );
    }

    #[test]
    fn the_rules_option_lists_every_preset() {
        let Some(Values::Kind(text)) = Options::LIST
            .iter()
            .find(|o| o.name == "rules")
            .map(|o| &o.values)
        else {
            panic!("no rules option");
        };
        for (name, rules) in rules::PRESETS {
            assert!(
                text.contains(&format!(" {name},"))
                    || text.contains(&format!(" {name})"))
                    || text.contains(&format!("({name},")),
                "{name}"
            );
            assert!(Rules::parse(rules).is_ok(), "{name}");
        }
    }

    fn read_one(text: &str) -> Result<Parsed, Problem> {
        read(text, &ReadOptions::default())
    }

    #[test]
    fn captures_are_computed_when_the_record_lists_none() {
        let g = read_one("[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6 d5-a5 *")
            .unwrap()
            .game;
        let mut out = String::new();
        write(&g, &WriteOptions::default(), &mut out).unwrap();
        assert!(out.contains("3. D6-A6xA5 D5-A5xA6 *"), "{out}");
    }

    #[test]
    fn a_listed_capture_the_rules_do_not_make_is_an_error() {
        let e = read_one("[Rules \"brandubh\"]\n\n1. d2-e2xe3 *").unwrap_err();
        assert!(e.message.contains("capture nothing on e3"), "{}", e.message);
        let e =
            read_one("[Rules \"brandubh\"]\n\n1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6xa5 d5-a5 *")
                .unwrap_err();
        assert!(e.message.contains("captures a6 too"), "{}", e.message);
    }
}
