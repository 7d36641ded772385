//! The games drawn: the `svg` format (one board, one file per game) and
//! the `html` viewer ([`html`]), both from the drawing each family makes of
//! its games ([`crate::family::draw`], [`crate::family::draw`]'s
//! `Diagram`).

pub mod glyphs;
pub mod html;

use crate::codec::{RunWriter, WriteOptions};
use crate::error::Problem;
use crate::family::draw::View;
use crate::ir::{Comment, Game};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The options of `svg` and `html`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The position after this many plies of the main line (`svg`; the
    /// position the `html` viewer opens on); `None`: the last.
    pub ply: Option<usize>,
    /// The board seen from the other side.
    pub flip: bool,
    /// The piece set (tenjiku), as named.
    pub pieces: Option<String>,
    /// The font tenjiku's kanji are drawn from (checked when set: a font
    /// kifu reads); `None`: one of the system's.
    pub font: Option<std::path::PathBuf>,
}

/// The piece sets a drawing names its pieces by (tenjiku's kanji and
/// abbreviation sets).
pub const PIECE_SETS: &[&str] = &["kanji", "tsa", "wikipedia", "pbem"];

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[
        FormatOption {
            name: "ply",
            sides: Sides::Write,
            values: Values::Kind("a number of plies of the main line, 0 the start"),
            default: "svg: the last; html: the start",
            help: "the position drawn (svg) or shown first (html): after this ply",
        },
        FormatOption {
            name: "flip",
            sides: Sides::Write,
            values: Values::OneOf(&["false", "true"]),
            default: "false",
            help: "the board seen from the other side",
        },
        FormatOption {
            name: "pieces",
            sides: Sides::Write,
            values: Values::OneOf(PIECE_SETS),
            default: "kanji",
            help: "tenjiku's pieces: as kanji, or as an abbreviation set",
        },
        FormatOption {
            name: "font",
            sides: Sides::Write,
            values: Values::Kind("a font file (.ttf, .otf, .ttc) that has the kanji"),
            default: "the first font of the system's folders that has them",
            help: "the font tenjiku's kanji are drawn from, as outlines",
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "ply" => {
                self.ply =
                    Some(value.trim().parse().map_err(|_| {
                        format!("`{value}` is not a number of plies (0 is the start)")
                    })?)
            }
            "flip" => self.flip = value.eq_ignore_ascii_case("true"),
            "pieces" => self.pieces = Some(value.to_ascii_lowercase()),
            "font" => {
                let file = std::path::PathBuf::from(value);
                // A font kifu reads (whether it has the characters a
                // drawing needs is said when it draws them).
                glyphs::outlines(Some(&file), "")?;
                self.font = Some(file);
            }
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// The options a writer was given (the defaults when none were).
fn options(opts: &WriteOptions) -> Options {
    opts.format.get::<Options>().cloned().unwrap_or_default()
}

/// How the drawing is asked for: the options, the notation the game was
/// read from, and the ids' prefix.
fn view<'a>(o: &'a Options, opts: &'a WriteOptions, id: &'a str) -> View<'a> {
    View {
        flip: o.flip,
        pieces: o.pieces.as_deref(),
        font: o.font.as_deref(),
        notation: opts.source.as_ref().map(|s| s.name),
        id,
    }
}

/// The name of a game: `White - Black, Event, Date`, each part known
/// ([`Game::title`]), else the family's name (`chess game`).
pub fn title(game: &Game) -> String {
    game.title()
        .unwrap_or_else(|| format!("{} game", game.family().name()))
}

/// Writes one game as an SVG picture of its board: the last position of
/// its main line, or the one after `ply=N`.
pub fn svg(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(svg_runs(opts), game, out)
}

/// The writer of a game as an SVG picture a run at a time
/// ([`crate::codec::RunsFn`]): it keeps the run of the main line that
/// holds the position asked for (its plies; the last run for the last
/// position) and draws it at the end, the others passing by.
pub fn svg_runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(SvgRuns {
        opts: opts.clone(),
        o: options(opts),
        depth: 0,
        plies: 0,
        kept: None,
    })
}

/// A game being drawn as an SVG picture a run at a time ([`svg_runs`]).
struct SvgRuns {
    opts: WriteOptions,
    o: Options,
    /// How deep in variations the runs coming are (0: the main line).
    depth: usize,
    /// The main line's plies so far.
    plies: usize,
    /// The run kept, after how many plies of the main line it starts.
    kept: Option<(usize, Game)>,
}

impl RunWriter for SvgRuns {
    fn head(&mut self, _game: &Game, _out: &mut String) -> Result<(), Problem> {
        Ok(())
    }

    fn run(&mut self, run: &Game, _out: &mut String) -> Result<(), Problem> {
        let len = run.moves.plies.len();
        if self.depth > 0 || len == 0 {
            return Ok(());
        }
        let before = self.plies;
        self.plies += len;
        // The run whose plies lead to the position asked for (the start:
        // the first run's), the last one for the last position.
        let holds = match self.o.ply {
            None => true,
            Some(0) => self.kept.is_none(),
            Some(n) => (before + 1..=before + len).contains(&n),
        };
        if holds {
            self.kept = Some((before, run.clone()));
        }
        Ok(())
    }

    fn open(&mut self, _out: &mut String) -> Result<(), Problem> {
        self.depth += 1;
        Ok(())
    }

    fn close(&mut self, _trailing: &[Comment], _out: &mut String) -> Result<(), Problem> {
        self.depth = self
            .depth
            .checked_sub(1)
            .ok_or_else(crate::codec::not_open)?;
        Ok(())
    }

    fn end(
        self: Box<Self>,
        game: &Game,
        _head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        let (before, drawn) = match &self.kept {
            Some((before, run)) => (*before, run),
            None => (0, game),
        };
        let diagram = crate::family::diagram(drawn, &view(&self.o, &self.opts, "k"))?;
        let n = self.o.ply.unwrap_or(self.plies);
        if n > self.plies {
            return Err(crate::family::draw::no_such_ply(n, self.plies));
        }
        out.push_str(&diagram.svg(Some(n - before), &title(game))?);
        Ok(diagram.warnings)
    }
}
