//! A move spelled in a given notation (the floor of [`crate::spell`]), as shakmaty's
//! `San::from_move(&position, &move)` spells a chess move: from the
//! position before it.
//!
//! Each family has one replay ([`Replay`]): it walks a game's plies once, in
//! the order the container writes them (each ply, then its variations, as
//! [`crate::family::hooks::plies_in_order`] gives them), and gives each ply with
//! what its notations need of the position before it (chess: the
//! disambiguation and check the rules derive; tafl: the pieces on the
//! board; draughts: the board alone). Each notation spells one ply from
//! that ([`Spell::spell_ply`]): its writer spells every move so, and so do
//! `kifu diff` (each side's moves in its own notation) and the `csv`
//! tables' `move` column (each move as its source notation spells it),
//! through the function a format's registry entry carries
//! ([`crate::format::Format::spell`], which is [`plies`] of the
//! notation). A game is spelled in one walk, however many variations it
//! has.

use crate::error::{Kind, Problem};
use crate::family::any::Family;
use crate::ir::{Game, Ply};

/// Which lines of a game a walk takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// Every ply: each ply of the main line, then its variations (and
    /// theirs), as the container writes them.
    All,
    /// The main line alone.
    Main,
}

/// A family's one replay of a game's moves, as its notations spell them.
pub trait Replay {
    /// The family whose games it walks.
    const FAMILY: Family;
    /// What a notation of the family needs of the position before a ply to
    /// spell it.
    type Before<'p>: Copy;
    /// Walks `game`'s plies of `lines` in the order the container writes
    /// them, giving `visit` each ply and what its notations need of the
    /// position before it. The error: a game of another family, or one its
    /// replay cannot play, or the first `visit` returned (a walk may go on
    /// past it).
    fn walk<'g>(
        game: &'g Game,
        lines: Lines,
        visit: impl FnMut(&'g Ply, Self::Before<'_>) -> Result<(), Problem>,
    ) -> Result<(), Problem>;
}

/// Walks a game's plies of `lines` in the order the container writes them,
/// for a family whose notations need nothing of the position (the walk of
/// its [`Replay`]).
pub fn each_ply<'g>(
    game: &'g Game,
    lines: Lines,
    mut visit: impl FnMut(&'g Ply) -> Result<(), Problem>,
) -> Result<(), Problem> {
    fn walk_line<'g>(
        line: &'g crate::ir::Line,
        visit: &mut impl FnMut(&'g Ply) -> Result<(), Problem>,
    ) -> Result<(), Problem> {
        for ply in &line.plies {
            visit(ply)?;
            for v in &ply.variations {
                walk_line(v, visit)?;
            }
        }
        Ok(())
    }
    match lines {
        Lines::All => walk_line(&game.moves, &mut visit),
        Lines::Main => game.moves.plies.iter().try_for_each(visit),
    }
}

/// For a replay that walks every line: which plies of its walk are of
/// `lines` (the main line's come in the walk in their order).
pub struct Only<'g> {
    lines: Lines,
    main: std::iter::Peekable<std::slice::Iter<'g, Ply>>,
}

impl<'g> Only<'g> {
    /// The plies of `lines` of `game`.
    pub fn new(game: &'g Game, lines: Lines) -> Only<'g> {
        Only {
            lines,
            main: game.moves.plies.iter().peekable(),
        }
    }

    /// Whether `ply`, the next of the walk, is of the lines.
    pub fn takes(&mut self, ply: &Ply) -> bool {
        if self.lines == Lines::All {
            return true;
        }
        self.main.next_if(|m| std::ptr::eq(*m, ply)).is_some()
    }
}

/// A notation's spelling of its moves: one ply from the position before it.
pub trait Spell {
    /// The replay of the notation's family.
    type Replay: Replay;
    /// The writer's options that change how a move is spelled; [`plies`]
    /// spells with those a record was read with (`kifu diff`), else
    /// with their default (the csv `move` column).
    type Options: Default + Clone + 'static;
    /// Appends the text of `ply` (without the glyph, the move number or
    /// anything else the writer puts around it) to `out`, as the notation
    /// writes it where it stands. The error: a move the notation cannot
    /// write.
    fn spell_ply(
        options: &Self::Options,
        before: <Self::Replay as Replay>::Before<'_>,
        ply: &Ply,
        out: &mut String,
    ) -> Result<(), Problem>;
}

/// The text of every ply of `lines` of a game as the notation `N` spells
/// it with the options of `settings` (the defaults where they hold none of
/// `N`'s), in the order the container writes them: a format's
/// [`crate::format::Format::spell`].
pub fn plies<N: Spell>(
    game: &Game,
    lines: Lines,
    settings: &crate::options::Settings,
) -> Result<Vec<String>, Problem> {
    let options = settings.get::<N::Options>().cloned().unwrap_or_default();
    let mut out = Vec::new();
    walk::<N>(game, lines, |ply, before| {
        let mut text = String::new();
        N::spell_ply(&options, before, ply, &mut text)?;
        out.push(text);
        Ok(())
    })?;
    Ok(out)
}

/// Walks a game of `N`'s family, checked to be one.
fn walk<'g, N: Spell>(
    game: &'g Game,
    lines: Lines,
    visit: impl FnMut(&'g Ply, <N::Replay as Replay>::Before<'_>) -> Result<(), Problem>,
) -> Result<(), Problem> {
    let family = <N::Replay as Replay>::FAMILY;
    if game.family() != family {
        return Err(Problem::whole(format!(
            "a {} game has no {} moves to spell",
            game.family().name(),
            family.name()
        ))
        .of_kind(Kind::WrongFamily));
    }
    N::Replay::walk(game, lines, visit)
}

/// The text of every ply of a game spelled by a writer, one after another
/// in one string ([`spelled`]).
#[derive(Debug, Default)]
pub struct Spelled {
    text: String,
    /// Where each ply's text ends in `text`.
    ends: Vec<usize>,
}

/// The error of a writer whose plies and spellings do not pair up (a bug).
const LOST: &str = "the spelling lost its place in the game";

impl Spelled {
    /// How many plies it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds no ply.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The text of the `i`-th ply spelled.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.text.get(start..end)
    }

    /// The texts in order, for a writer that writes the plies in the
    /// order they were spelled (the container's).
    pub fn texts(&self) -> Texts<'_> {
        Texts {
            spelled: self,
            next: 0,
        }
    }
}

/// The texts of a [`Spelled`] taken one after another by a writer.
pub struct Texts<'s> {
    spelled: &'s Spelled,
    next: usize,
}

impl Texts<'_> {
    /// Appends the next ply's text to `buf`.
    #[inline]
    pub fn write_next(&mut self, buf: &mut String) -> Result<(), Problem> {
        let text = self
            .spelled
            .get(self.next)
            .ok_or_else(|| Problem::whole(LOST).of_kind(Kind::Internal))?;
        buf.push_str(text);
        self.next += 1;
        Ok(())
    }

    /// Checks that every text was taken.
    pub fn finish(self) -> Result<(), Problem> {
        if self.next == self.spelled.len() {
            Ok(())
        } else {
            Err(Problem::whole(LOST).of_kind(Kind::Internal))
        }
    }
}

/// Every ply of `lines` of a game spelled by the notation `N` with a
/// writer's `options`, in the order the container writes them.
pub fn spelled<N: Spell>(
    game: &Game,
    options: &N::Options,
    lines: Lines,
) -> Result<Spelled, Problem> {
    // (The main line's length: enough for a game without variations.)
    let plies = game.moves.plies.len();
    let mut out = Spelled {
        text: String::with_capacity(plies * 8),
        ends: Vec::with_capacity(plies),
    };
    walk::<N>(game, lines, |ply, before| {
        N::spell_ply(options, before, ply, &mut out.text)?;
        out.ends.push(out.text.len());
        Ok(())
    })?;
    Ok(out)
}
