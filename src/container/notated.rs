//! The writer of a container notation a run at a time
//! ([`crate::codec::RunWriter`]), for a notation that says only how it
//! names its tags and spells a run's plies ([`Notated`]): coerceo, tafl
//! and tenjiku write every game so, whole ([`crate::codec::write_runs`])
//! or a run at a time.

use std::borrow::Cow;

use super::{Movetext, Style};
use crate::codec::RunWriter;
use crate::error::Problem;
use crate::family::dialect::Dialect;
use crate::ir::{Comment, Game, Tag};

/// What a container notation's writer says of a game and its runs.
pub trait Notated: 'static {
    /// The notation's dialect: its numbering and results.
    const DIALECT: &'static Dialect;
    /// How its movetext is laid out.
    fn style(&self) -> Style;
    /// The tags written for `game` (its own, or with what the notation
    /// adds); the error of a game it cannot write (another family's).
    fn tags<'g>(&self, game: &'g Game) -> Result<Cow<'g, [Tag]>, Problem>;
    /// Every ply of `run` spelled, in the order the container writes them
    /// (each ply, then its variations); the error of a run it cannot write.
    fn spell(&mut self, run: &Game) -> Result<crate::family::spell::Spelled, Problem>;
    /// What it says of the whole game after the container's warnings.
    fn said(self) -> Vec<Problem>
    where
        Self: Sized,
    {
        Vec::new()
    }
}

/// A [`Notated`] notation's [`RunWriter`].
pub fn runs<N: Notated>(notation: N) -> Box<dyn RunWriter> {
    Box::new(NotatedRuns {
        notation,
        movetext: None,
    })
}

/// A game being written in a [`Notated`] notation.
struct NotatedRuns<N> {
    notation: N,
    movetext: Option<Movetext>,
}

impl<N: Notated> NotatedRuns<N> {
    /// The game's movetext, begun when not yet.
    fn movetext(&mut self, game: &Game) -> &mut Movetext {
        let style = self.notation.style();
        self.movetext
            .get_or_insert_with(|| Movetext::new(game.variant.first_mover(), N::DIALECT, style))
    }
}

impl<N: Notated> RunWriter for NotatedRuns<N> {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        let tags = self.notation.tags(game)?.into_owned();
        self.movetext(game).head(game, &tags, out)
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        let spelled = self.notation.spell(run)?;
        let mut texts = spelled.texts();
        self.movetext(run)
            .plies(&run.moves.plies, out, |_, buf| texts.write_next(buf))?;
        texts.finish()
    }

    fn open(&mut self, out: &mut String) -> Result<(), Problem> {
        Movetext::open_in(self.movetext.as_mut(), out)
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        Movetext::close_in(self.movetext.as_mut(), trailing, out)
    }

    fn end(
        self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        let NotatedRuns { notation, movetext } = *self;
        let tags = notation.tags(game)?;
        let movetext = movetext.unwrap_or_else(|| {
            Movetext::new(game.variant.first_mover(), N::DIALECT, notation.style())
        });
        let mut warnings = movetext.end(game, || tags, N::DIALECT, head, out)?;
        warnings.extend(notation.said());
        Ok(warnings)
    }
}
