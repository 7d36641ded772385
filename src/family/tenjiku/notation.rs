//! `tenjiku`: tenjiku shogi in Hodges notation (seed 001) in the PGN-style
//! container. Every move is resolved on a tracked board from the start
//! position: the written piece must stand on the origin, a short form
//! (`P-8g`) names the one piece that can make the move, and the writer adds
//! the origin exactly when another piece of the same name could make the
//! same move (or always, with the `long` option).
//!
//! With `--no-validate` ([`ReadOptions::no_validate`]) nothing is
//! resolved: each move is kept as its text claims it ([`Claim`]: the
//! piece, the origin where written, the squares with their marks,
//! promotion, burns), the game says it was not replayed
//! ([`TVariant::validated`]) with one warning, and the writer spells each
//! claim as written ([`spell_claim`]).

use std::borrow::Cow;

use pest::Parser;

use crate::codec::{Parsed, ReadOptions, WriteOptions};
use crate::container::{self, MoveText, Notation, Start, Style};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Family, Move, Setup, Variant};
use crate::family::dialect::{Dialect, Layout};
use crate::family::spell::Lines;
use crate::family::spell::{self, Spell};
use crate::family::tenjiku::rules::{self, Board};
use crate::family::tenjiku::{
    unknown_piece, Abbreviations, Claim, Move as TMove, Piece, Ply, Square, Variant as TVariant,
};
use crate::ir::{back_fen, find_tag, Game, Ply as IrPly, Side, Tag};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The pest parser: the container and Hodges moves.
#[allow(missing_docs)]
mod grammar {
    use crate::container_rules;

    #[derive(pest_derive::Parser)]
    #[grammar = "grammars/pair_numbers.pest"]
    #[grammar = "grammars/common.pest"]
    #[grammar = "grammars/tenjiku.pest"]
    pub struct TenjikuParser;

    container_rules!(Rule, tj_move, |_| "a move");
}
use crate::family::tenjiku::hooks::spell;
use crate::family::tenjiku::{spell_claim, Options, DIALECT};
use grammar::{Rule, TenjikuParser};

/// A move as written, and where.
struct Seen {
    written: Claim,
    span: (usize, usize),
}

struct Reader<'t> {
    text: &'t str,
    seen: Vec<Seen>,
    /// The board the game starts from.
    board: Board,
    /// Read by the text alone (`--no-validate`): the moves are kept as
    /// their text claims them, not replayed.
    no_validate: bool,
}

impl Notation for Reader<'_> {
    type Rule = Rule;
    const DIALECT: &'static Dialect = &DIALECT;

    fn start(
        &mut self,
        tags: &[Tag],
        at: &dyn Fn(&str) -> (usize, usize),
    ) -> Result<Start, Problem> {
        let fen = find_tag(tags, "FEN").map(|i| &tags[i]);
        let (setup, to_move) = match fen {
            None => (None, None),
            Some(tag) => {
                let (board, side) = rules::parse_fen(&tag.value)
                    .map_err(|e| Problem::at(at("FEN"), e).of_kind(Kind::TagValue))?;
                let fen = board.fen(side);
                self.board = board;
                (Some(Setup::Tenjiku(fen)), Some(side))
            }
        };
        Ok(Start {
            variant: Variant::Tenjiku(TVariant::REPLAYED),
            setup,
            to_move,
            number: None,
            warnings: Vec::new(),
        })
    }

    fn read_move(&mut self, mv: MoveText<'_, Rule>) -> Result<Move, Problem> {
        let written = decode(&mv)?;
        self.seen.push(Seen {
            written,
            span: (mv.offset(), mv.offset() + mv.text().len()),
        });
        // A placeholder: `finish` puts the resolved move here.
        Ok(Move::Tenjiku(Ply::Move(PLACEHOLDER)))
    }

    fn finish(&mut self, game: &mut Game, warnings: &mut Vec<Problem>) -> Result<(), Problem> {
        if self.no_validate {
            // The moves as their text claims them, nothing resolved.
            game.variant = Variant::Tenjiku(TVariant { validated: false });
            if !self.seen.is_empty() {
                warnings.push(Problem::whole(rules::UNREPLAYED).of_kind(Kind::NotReplayed));
            }
            let mut claims = std::mem::take(&mut self.seen)
                .into_iter()
                .map(|s| Ply::Claimed(s.written));
            return fill(&mut game.moves, &mut claims).ok_or_else(mismatch);
        }
        let mut board = self.board.clone();
        let mut index = 0;
        let mut moves = Vec::with_capacity(self.seen.len());
        let mut loose_mark = None;
        rules::walk(&game.moves, &mut board, &mut |b, ply| {
            let seen = self.seen.get(index).ok_or_else(mismatch)?;
            index += 1;
            let at = || crate::codec::line_col(self.text, seen.span.0);
            let mv = rules::resolve(b, ply.side, &seen.written).map_err(|why| {
                let text = &self.text[seen.span.0..seen.span.1];
                Problem::at(
                    at(),
                    format!("{} {text}: {why}", ply.label(crate::ir::Side::Black)),
                )
                .of_kind(Kind::IllegalMove)
            })?;
            // `x` onto an empty square, `-` onto an enemy piece (engines
            // write `7nx6k`): the move is what the board says.
            let wrong = seen
                .written
                .marks()
                .any(|(x, s)| x != b.at(s).is_some_and(|m| m.side != ply.side));
            if wrong && loose_mark.is_none() {
                loose_mark = Some(at());
            }
            moves.push(mv);
            Ok(mv)
        })?;
        if let Some(at) = loose_mark {
            warnings.push(
                Problem::at(
                    at,
                    "a move marked `x` onto an empty square, or `-` onto an enemy piece: read as \
                 the board has it (written `-` and `x`)",
                )
                .of_kind(Kind::CaptureMark),
            );
        }
        let mut moves = moves.into_iter().map(Ply::Move);
        fill(&mut game.moves, &mut moves).ok_or_else(mismatch)
    }
}

/// Puts the moves (resolved or claimed) into the plies, in the walk's
/// order.
fn fill(line: &mut crate::ir::Line, moves: &mut impl Iterator<Item = Ply>) -> Option<()> {
    for ply in &mut line.plies {
        ply.mv = Move::Tenjiku(moves.next()?);
        for v in &mut ply.variations {
            fill(v, moves)?;
        }
    }
    Some(())
}

const PLACEHOLDER: TMove = TMove {
    piece: Piece::plain(crate::family::tenjiku::Kind::Pawn),
    from: Square::ONE_A,
    via: None,
    to: Square::ONE_A,
    promote: false,
};

/// The error of a reader whose moves and plies do not pair up (a bug).
fn mismatch() -> Problem {
    Problem::whole("move count mismatch").of_kind(Kind::Internal)
}

/// Decodes one move, which the grammar has matched; squares and pieces are
/// checked here, each error at its place.
fn decode(mv: &MoveText<'_, Rule>) -> Result<Claim, Problem> {
    let text = mv.text();
    let b = text.as_bytes();
    let mut w = Claim::default();
    // Igui (`x!7d`), and the squares moved to with whether `x` came before
    // each.
    let mut igui = None;
    let mut to: Vec<(bool, Square)> = Vec::new();
    let mut i = 0;
    let err = |at: usize, msg: String| Problem::at(mv.pos(at), msg).of_kind(Kind::Syntax);
    let square_at = |i: usize| -> Result<(Square, usize), Problem> {
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let mut end = i + digits;
        let mut chars = text[end..].chars();
        match chars.next() {
            Some('十') => {
                end += '十'.len_utf8();
                if let Some(c) = chars
                    .next()
                    .filter(|c| crate::family::tenjiku::KANJI[..9].contains(c))
                {
                    end += c.len_utf8();
                }
            }
            Some(c) => end += c.len_utf8(),
            None => {}
        }
        Square::parse(&text[i..end])
            .map(|s| (s, end))
            .map_err(|e| err(i, e))
    };
    // The piece, if one is named.
    if !b[0].is_ascii_digit() {
        let mut end = usize::from(b[0] == b'+');
        while end < b.len()
            && b[end].is_ascii_alphabetic()
            && !(b[end] == b'x'
                && b.get(end + 1)
                    .is_some_and(|c| c.is_ascii_digit() || *c == b'!'))
        {
            end += 1;
        }
        let name = &text[..end];
        w.piece = Some(Piece::parse(name).ok_or_else(|| err(0, unknown_piece(name)))?);
        i = end;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
    }
    // The origin, where a square comes before the first `-` or `x`.
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        let (s, end) = square_at(i)?;
        w.from = Some(s);
        i = end;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
    }
    // The parts: `-7d`, `x7d`, `x!7d`, and a burn count `x!5`.
    while i < b.len() {
        match &b[i..] {
            [b'x', b'!', ..] => {
                let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
                let after = b.get(i + 2 + digits);
                if after.is_none_or(|c| matches!(c, b'+' | b'=' | b'*')) {
                    if digits == 0 {
                        w.burns = true;
                    } else {
                        let n = text[i + 2..i + 2 + digits].parse().unwrap_or(u32::MAX);
                        w.burned = Some(n);
                    }
                    i += 2 + digits;
                } else {
                    if igui.is_some() {
                        return Err(err(i, "igui (`x!`) is the only part of its move".into()));
                    }
                    let (s, end) = square_at(i + 2)?;
                    // After the move's squares, a square a fire demon
                    // burns; else igui.
                    if to.is_empty() {
                        igui = Some(s);
                    } else {
                        w.burned_at.push(s);
                    }
                    i = end;
                }
            }
            [c @ (b'-' | b'x'), ..] => {
                if igui.is_some() {
                    return Err(err(i, "igui (`x!`) is the only part of its move".into()));
                }
                if to.len() == 2 {
                    return Err(err(i, "a move stops on two squares at most".into()));
                }
                if !w.burned_at.is_empty() || w.promote.is_some() {
                    return Err(err(
                        i,
                        "a move's squares come before its promotion and burns".into(),
                    ));
                }
                let (s, end) = square_at(i + 1)?;
                to.push((*c == b'x', s));
                i = end;
            }
            [b'+', ..] => {
                w.promote = Some(true);
                i += 1;
            }
            [b'=', ..] => {
                w.promote = Some(false);
                i += 1;
            }
            [b'*', ..] => {
                w.suicide = true;
                i += 1;
            }
            _ => {
                return Err(err(
                    i,
                    format!("{} is not part of a move", crate::error::quote(&text[i..])),
                ))
            }
        }
    }
    match (igui, to.as_slice()) {
        (Some(v), _) => w.via = Some(v),
        (None, [(x, t)]) => (w.capture, w.to) = (*x, Some(*t)),
        (None, [(vx, v), (x, t)]) => {
            (w.via_capture, w.via) = (*vx, Some(*v));
            (w.capture, w.to) = (*x, Some(*t));
        }
        // The grammar has a part in every move.
        _ => return Err(err(0, "a move names the square it goes to".into())),
    }
    Ok(w)
}

/// Reads one record: every move resolved on the board, or, with
/// `--no-validate`, kept as its text claims it.
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let mut reader = Reader {
        text,
        seen: Vec::new(),
        board: Board::start(),
        no_validate: opts.no_validate,
    };
    let parse = |t| TenjikuParser::parse(Rule::record, t);
    container::read_record(text, opts, None, parse, &mut reader)
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[
        FormatOption {
            name: "abbreviations",
            sides: Sides::Write,
            values: Values::OneOf(&Abbreviations::NAMES),
            default: "tsa",
            help: "the piece abbreviations written (tsa: FiD GGn SE; wikipedia: FD GG SE; pbem: Fi GG SE); every set is read",
        },
        FormatOption {
            name: "coordinates",
            sides: Sides::Write,
            values: Values::OneOf(&["western", "japanese"]),
            default: "western",
            help: "ranks as letters (2c) or as kanji numerals (2三); both are read",
        },
        FormatOption {
            name: "long",
            sides: Sides::Write,
            values: Values::OneOf(&["no", "yes"]),
            default: "no",
            help: "write every move's origin (FiD6h-7e), not only where another piece could make the move",
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "abbreviations" => {
                self.pieces = Abbreviations::named(value).ok_or_else(|| {
                    format!(
                        "abbreviations {value} is not tsa, wikipedia or pbem",
                        value = crate::error::quote(value)
                    )
                })?
            }
            "coordinates" => {
                self.japanese = match value {
                    "western" => false,
                    "japanese" => true,
                    _ => {
                        return Err(format!(
                            "coordinates {value} is not western or japanese",
                            value = crate::error::quote(value)
                        ))
                    }
                }
            }
            "long" => {
                self.long = match value {
                    "no" => false,
                    "yes" => true,
                    _ => {
                        return Err(format!(
                            "long {value} is not yes or no",
                            value = crate::error::quote(value)
                        ))
                    }
                }
            }
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// Writes one game: each move spelled on the board, or, in a game not
/// replayed, as its text claimed it (with a warning where `long=yes` asks
/// for an origin that the text does not give).
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game a run at a time ([`crate::codec::RunsFn`]).
pub fn runs(opts: &WriteOptions) -> Box<dyn crate::codec::RunWriter> {
    let options = opts.format.get::<Options>().copied().unwrap_or_default();
    container::notated::runs(Written {
        options,
        without_origin: 0,
    })
}

/// Hodges' notation written with its options ([`container::notated`]).
struct Written {
    options: Options,
    /// The moves not replayed written without the origin that `long=yes`
    /// asks for.
    without_origin: usize,
}

/// The error of a game of another family.
fn tenjiku_only(game: &Game) -> Result<(), Problem> {
    if game.family() == Family::Tenjiku {
        return Ok(());
    }
    Err(game.family().cannot_be_written_as("tenjiku"))
}

impl container::notated::Notated for Written {
    const DIALECT: &'static Dialect = &DIALECT;

    fn style(&self) -> Style {
        Style {
            glyphs_as_nags: false,
            layout: Layout::Paragraph,
        }
    }

    fn tags<'g>(&self, game: &'g Game) -> Result<Cow<'g, [Tag]>, Problem> {
        tenjiku_only(game)?;
        Ok(Cow::Owned(render_tags(game)))
    }

    fn spell(&mut self, run: &Game) -> Result<spell::Spelled, Problem> {
        tenjiku_only(run)?;
        // Every move spelled, in the order the container writes them: on
        // the board, or (a game not replayed) as its text claimed it.
        let spelled = spell::spelled::<Hodges>(run, &self.options, Lines::All)?;
        if self.options.long && !rules::replayed(run) {
            self.without_origin += crate::family::hooks::plies_in_order(&run.moves)
                .into_iter()
                .filter_map(|ply| ply.mv.as_tenjiku().and_then(|p| p.claimed().ok()))
                .filter(|c| c.from.is_none())
                .count();
        }
        Ok(spelled)
    }

    fn said(self) -> Vec<Problem> {
        let n = self.without_origin;
        if n == 0 {
            return Vec::new();
        }
        vec![Problem::whole(format!(
            "long=yes: {n} move{} not replayed (--no-validate) written without the origin, \
             which the text does not give",
            if n == 1 { "" } else { "s" }
        ))
        .of_kind(Kind::OriginUnknown)]
    }
}

/// Hodges' notation ([`crate::spell`]): a move spelled on the board before
/// it ([`spell()`]), or, in a game not replayed, as its text claimed it
/// ([`spell_claim`]), in the options' abbreviations and coordinates.
pub struct Hodges;

impl Spell for Hodges {
    type Replay = super::hooks::Positions;
    type Options = Options;

    fn spell_ply(
        options: &Options,
        board: Option<&Board>,
        ply: &IrPly,
        out: &mut String,
    ) -> Result<(), Problem> {
        let labelled = |e: String| {
            Problem::whole(format!("{} {e}", ply.label(Side::Black))).of_kind(Kind::CannotWrite)
        };
        let p = ply
            .mv
            .of(Family::Tenjiku, Move::as_tenjiku)
            .map_err(labelled)?;
        match board {
            Some(b) => spell(b, ply.side, p.replayed().map_err(labelled)?, options, out),
            None => {
                let claim = p
                    .claimed()
                    .and_then(|c| c.check().map(|()| c))
                    .map_err(labelled)?;
                spell_claim(claim, options, out);
            }
        }
        Ok(())
    }
}

/// The game's tags, with `FEN` (and `SetUp`) saying what its setup says: a
/// FEN tag that gives the same position is kept as written, one that
/// differs gets the setup's, a missing one is added (after `SetUp "1"`),
/// and one without a setup is dropped with its `SetUp`.
fn render_tags(game: &Game) -> Vec<Tag> {
    let mut tags = Cow::Borrowed(game.tags.as_slice());
    match game.setup.as_ref().and_then(Setup::as_tenjiku) {
        Some(fen) => back_fen(
            &mut tags,
            Some((
                &|v| rules::parse_fen(v).is_ok_and(|(b, side)| b.fen(side) == *fen),
                &|| fen.clone(),
            )),
        ),
        None => back_fen(&mut tags, None),
    }
    tags.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_reads_exactly_the_result_table() {
        crate::family::check_grammar::<TenjikuParser, _>(
            &crate::ir::result::PGN_RESULTS,
            Rule::result,
        );
    }
}
