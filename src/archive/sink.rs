//! An output stream with its format's framing ([`Sink`]). The games a run
//! converts come as texts of their own; those the sink is given whole
//! ([`Games::text`]) are held, not copied, until they fill the output's
//! buffer ([`crate::output::BUFFER`]), and then written together in one
//! vectored write, which passes the buffer: a game's text goes to the
//! file without being copied into the buffer first.

use std::io::{self, IoSlice, Write};

use crate::codec::{Framing, Games, Origin};
use crate::output::spill::{Spilled, Text};
use crate::output::BUFFER;

/// An output stream with its format's framing.
pub struct Sink<W: Write> {
    out: W,
    framing: Framing,
    games: usize,
    name: String,
    /// Games given whole and not yet written (never the first game, whose
    /// text the head may name), each after the framing's `between`.
    held: Vec<String>,
    /// The bytes of `held`.
    held_bytes: usize,
}

impl<W: Write> Sink<W> {
    /// A sink writing a format's games to `out`, called "output" in errors.
    pub fn new(out: W, framing: Framing) -> Sink<W> {
        Sink {
            out,
            framing,
            games: 0,
            name: "output".to_string(),
            held: Vec::new(),
            held_bytes: 0,
        }
    }

    /// The same sink, named in errors as `name` (a path, "standard output").
    pub fn named(mut self, name: impl Into<String>) -> Sink<W> {
        self.name = name.into();
        self
    }

    /// What errors call this output.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one game.
    pub fn game(&mut self, text: &str) -> io::Result<()> {
        self.write_held()?;
        if self.games == 0 {
            self.out.write_all(self.framing.head(text).as_bytes())?;
        } else {
            self.out.write_all(self.framing.between.as_bytes())?;
        }
        self.out.write_all(text.as_bytes())?;
        self.games += 1;
        Ok(())
    }

    /// Takes one game's text, written with the games held beside it once
    /// they fill the output's buffer.
    fn hold(&mut self, text: String) -> io::Result<()> {
        if self.games == 0 {
            return self.game(&text);
        }
        self.held_bytes += self.framing.between.len() + text.len();
        self.held.push(text);
        self.games += 1;
        if self.held_bytes >= BUFFER {
            self.write_held()?;
        }
        Ok(())
    }

    /// Writes the games held, in one vectored write (as many as it takes).
    fn write_held(&mut self) -> io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        let between = self.framing.between.as_bytes();
        let mut slices = Vec::with_capacity(2 * self.held.len());
        for text in &self.held {
            if !between.is_empty() {
                slices.push(IoSlice::new(between));
            }
            slices.push(IoSlice::new(text.as_bytes()));
        }
        let mut rest = &mut slices[..];
        while !rest.is_empty() {
            match self.out.write_vectored(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => IoSlice::advance_slices(&mut rest, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.held.clear();
        self.held_bytes = 0;
        Ok(())
    }

    /// Ends the output and gives the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_held()?;
        if self.games == 0 {
            self.out.write_all(self.framing.head("").as_bytes())?;
        }
        self.out.write_all(self.framing.tail.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Games for Sink<W> {
    fn game(&mut self, text: &str, _: &Origin<'_>) -> io::Result<()> {
        Sink::game(self, text)
    }
    fn text(&mut self, text: Text, origin: &Origin<'_>) -> io::Result<()> {
        match text {
            Text::Held(text) => self.hold(text),
            Text::Spilled(text) => self.spilled(text, origin),
        }
    }
    fn spilled(&mut self, text: Spilled, _origin: &Origin<'_>) -> io::Result<()> {
        self.write_held()?;
        if self.games == 0 {
            // A head that names the first game finds its name in the
            // game's head (`html`: the section's title).
            self.out
                .write_all(self.framing.head(text.head()).as_bytes())?;
        } else {
            self.out.write_all(self.framing.between.as_bytes())?;
        }
        text.copy_to(&mut self.out)?;
        self.games += 1;
        Ok(())
    }
    fn name(&self) -> &str {
        &self.name
    }
}
