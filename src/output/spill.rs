//! A long game's text, written a run at a time, kept in a temporary file
//! rather than in memory ([`Spill`], [`Spilled`]): what a record converted
//! a run at a time ([`crate::archive::Converter`]) writes can be many
//! times its size (an interchange output: json, xml, csv), and the ordered
//! output takes a game only once it is whole (`--strict` refuses a game
//! with a warning; a record that fails half-way is converted again
//! whole), so its text waits on disk, not in memory.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The text a record converted a run at a time holds before it is
/// written to its temporary file ([`Spill::take`]).
pub const SPILL_AT: usize = 1 << 20;

/// The temporary file of a game's text being written: created when the
/// text first reaches [`SPILL_AT`] bytes, in the system's temporary folder
/// (`TMPDIR`), and gone when dropped (on Unix, gone from the folder at
/// once). Where it cannot be created, the text stays in memory, as
/// before.
#[derive(Debug, Default)]
pub struct Spill {
    file: Option<TempFile>,
    /// The file could not be created: the text stays in memory.
    refused: bool,
}

impl Spill {
    /// A spill with nothing in it yet.
    pub fn new() -> Spill {
        Spill::default()
    }

    /// Moves the text written so far (`out`) to the file, once it holds
    /// [`SPILL_AT`] bytes. An error where the file cannot be written
    /// (the disk is full): the game's text is then not whole.
    pub fn take(&mut self, out: &mut String) -> io::Result<()> {
        if out.len() < SPILL_AT || self.refused {
            return Ok(());
        }
        if self.file.is_none() {
            match TempFile::new() {
                Ok(file) => self.file = Some(file),
                Err(_) => {
                    self.refused = true;
                    return Ok(());
                }
            }
        }
        let file = self.file.as_mut().expect("created above");
        file.file.write_all(out.as_bytes())?;
        file.len += out.len() as u64;
        out.clear();
        Ok(())
    }

    /// The game's text: `head`, what was moved to the file, then `out`.
    /// Held in one string where nothing was moved (the head put before
    /// the text in place, not copied); otherwise [`Spilled`].
    pub fn finish(self, head: String, mut out: String) -> io::Result<Text> {
        match self.file {
            None => {
                if !head.is_empty() {
                    out.reserve_exact(head.len());
                    out.insert_str(0, &head);
                }
                Ok(Text::Held(out))
            }
            Some(mut body) => {
                body.file.rewind()?;
                Ok(Text::Spilled(Spilled {
                    head,
                    body,
                    tail: out,
                }))
            }
        }
    }
}

/// A game's text as [`Spill::finish`] gives it.
#[derive(Debug)]
pub enum Text {
    /// In memory.
    Held(String),
    /// Mostly in a temporary file.
    Spilled(Spilled),
}

/// A game's text whose body lies in a temporary file: its head, the
/// file, its tail.
pub struct Spilled {
    head: String,
    body: TempFile,
    tail: String,
}

impl std::fmt::Debug for Spilled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spilled").field("len", &self.len()).finish()
    }
}

impl Spilled {
    /// The text's length in bytes.
    pub fn len(&self) -> u64 {
        self.head.len() as u64 + self.body.len + self.tail.len() as u64
    }

    /// Whether the text is empty (never, for a game).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text's first bytes: its head, or the start of its body where
    /// the head was written with it.
    pub fn head(&self) -> &str {
        &self.head
    }

    /// The same text with each mark of `fills` replaced
    /// ([`crate::codec::RunWriter::end_filled`]): in its head and tail in
    /// memory, and its body copied to a new temporary file a buffer at a
    /// time, the marks put in as they pass.
    pub fn fill(self, fills: &Fills) -> io::Result<Spilled> {
        if fills.is_empty() {
            return Ok(self);
        }
        let (mut head, mut tail) = (self.head, self.tail);
        fill(&mut head, 0, fills);
        fill(&mut tail, 0, fills);
        let mut body = TempFile::new()?;
        let mut from = (&self.body.file).take(self.body.len);
        body.len = fill_copy(&mut from, &mut body.file, fills)?;
        body.file.rewind()?;
        Ok(Spilled { head, body, tail })
    }

    /// Writes the text to `out`, a buffer at a time.
    pub fn copy_to(self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.head.as_bytes())?;
        let copied = io::copy(&mut (&self.body.file).take(self.body.len), out)?;
        if copied != self.body.len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "a game's temporary file was cut short",
            ));
        }
        out.write_all(self.tail.as_bytes())
    }

    /// Gives the text to `each` a piece at a time, each of about
    /// [`SPILL_AT`] bytes or more: where `cut` says the whole pieces of
    /// what was read end (a csv row's end, outside quotes), or all of it
    /// at the end.
    pub fn pieces(
        self,
        cut: fn(&[u8]) -> Option<usize>,
        each: &mut dyn FnMut(&str) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut pending: Vec<u8> = Vec::with_capacity(SPILL_AT * 2);
        let mut give = |pending: &mut Vec<u8>, all: bool| -> io::Result<()> {
            let end = match all {
                true => pending.len(),
                false => match cut(pending) {
                    Some(end) => end,
                    None => return Ok(()),
                },
            };
            let text = std::str::from_utf8(&pending[..end])
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            each(text)?;
            pending.drain(..end);
            Ok(())
        };
        pending.extend_from_slice(self.head.as_bytes());
        let mut body = (&self.body.file).take(self.body.len);
        let mut chunk = vec![0u8; SPILL_AT];
        loop {
            let n = body.read(&mut chunk)?;
            if n == 0 {
                break;
            }
            pending.extend_from_slice(&chunk[..n]);
            if pending.len() >= SPILL_AT {
                give(&mut pending, false)?;
            }
        }
        pending.extend_from_slice(self.tail.as_bytes());
        give(&mut pending, true)
    }

    /// The whole text, read back into memory.
    pub fn into_string(self) -> io::Result<String> {
        let mut text = Vec::with_capacity(usize::try_from(self.len()).unwrap_or(0));
        self.copy_to(&mut text)?;
        String::from_utf8(text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

impl Text {
    /// The same text with each mark of `fills` replaced
    /// ([`Spilled::fill`]).
    pub fn fill(self, fills: &Fills) -> io::Result<Text> {
        Ok(match self {
            Text::Held(mut text) => {
                fill(&mut text, 0, fills);
                Text::Held(text)
            }
            Text::Spilled(text) => Text::Spilled(text.fill(fills)?),
        })
    }
}

/// Copies `from` to `to` with each mark of `fills` replaced, a buffer at
/// a time (a mark cut between two buffers is found whole: the bytes where
/// one may begin wait for the next); the bytes written.
fn fill_copy(from: &mut dyn Read, to: &mut dyn Write, fills: &Fills) -> io::Result<u64> {
    let keep = fills.iter().map(|(m, _)| m.len()).max().unwrap_or(1) - 1;
    let mut pending: Vec<u8> = Vec::with_capacity(SPILL_AT + keep);
    let mut chunk = vec![0u8; SPILL_AT];
    let mut written = 0u64;
    loop {
        let n = from.read(&mut chunk)?;
        pending.extend_from_slice(&chunk[..n]);
        let mut start = 0;
        // The first mark at or after `start`, whole in `pending`.
        while let Some((at, len, with)) = fills
            .iter()
            .filter_map(|(m, w)| {
                memchr::memmem::find(&pending[start..], m.as_bytes())
                    .map(|i| (start + i, m.len(), w))
            })
            .min_by_key(|f| f.0)
        {
            to.write_all(&pending[start..at])?;
            to.write_all(with.as_bytes())?;
            written += (at - start + with.len()) as u64;
            start = at + len;
        }
        // What may begin a mark waits, but at the end.
        let safe = match n {
            0 => pending.len(),
            _ => pending.len().saturating_sub(keep).max(start),
        };
        to.write_all(&pending[start..safe])?;
        written += (safe - start) as u64;
        pending.drain(..safe);
        if n == 0 {
            return Ok(written);
        }
    }
}

/// The marks a [`crate::codec::RunWriter`] left in a game's text and
/// what replaces each ([`crate::codec::RunWriter::end_filled`]). A mark is
/// text no game's text holds otherwise (`<` is escaped in a page).
pub type Fills = Vec<(&'static str, String)>;

/// The end of a whole game by a writer whose end fills marks
/// ([`crate::codec::RunWriter::end_filled`] gave `ended`): the fills put
/// in its `head` and in its text `out` from byte `from` on (where the game
/// starts), and its warnings returned.
pub fn filled(
    ended: Result<(Vec<crate::error::Problem>, Fills), crate::error::Problem>,
    head: &mut String,
    out: &mut String,
    from: usize,
) -> Result<Vec<crate::error::Problem>, crate::error::Problem> {
    let (warnings, fills) = ended?;
    fill(head, 0, &fills);
    fill(out, from.min(out.len()), &fills);
    Ok(warnings)
}

/// Puts each fill in `text`, from byte `from` on.
pub fn fill(text: &mut String, from: usize, fills: &Fills) {
    for (mark, with) in fills {
        if text[from..].contains(mark) {
            let filled = text[from..].replace(mark, with);
            text.truncate(from);
            text.push_str(&filled);
        }
    }
}

/// A temporary file, removed when dropped (on Unix, at once: it lives
/// while open).
#[derive(Debug)]
struct TempFile {
    file: File,
    /// Its path, to remove when dropped, where it could not be removed
    /// while open.
    path: Option<PathBuf>,
    /// The bytes written.
    len: u64,
}

impl TempFile {
    fn new() -> io::Result<TempFile> {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir();
        let mut tries = 0;
        loop {
            let n = COUNT.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".kifu-spill-{}-{n}", std::process::id()));
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    let path = match std::fs::remove_file(&path) {
                        Ok(()) => None,
                        Err(_) => Some(path),
                    };
                    return Ok(TempFile { file, path, len: 0 });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spilled_text_reads_back_whole_and_in_pieces() {
        let mut spill = Spill::new();
        let line = "a row of text, é\n".repeat(1000);
        let mut out = String::new();
        let mut all = String::from("head\n");
        for _ in 0..200 {
            out.push_str(&line);
            all.push_str(&line);
            spill.take(&mut out).unwrap();
        }
        out.push_str("tail");
        all.push_str("tail");
        let Text::Spilled(spilled) = spill.finish("head\n".into(), out).unwrap() else {
            panic!("not spilled");
        };
        assert_eq!(spilled.len(), all.len() as u64);
        assert_eq!(spilled.into_string().unwrap(), all);
        // Again, in lines.
        let mut spill = Spill::new();
        let mut out = all[5..all.len() - 4].to_string();
        spill.take(&mut out).unwrap();
        let Text::Spilled(spilled) = spill.finish("head\n".into(), "tail".into()).unwrap() else {
            panic!("not spilled");
        };
        let mut pieces = Vec::new();
        let lines = |data: &[u8]| memchr::memrchr(b'\n', data).map(|i| i + 1);
        spilled
            .pieces(lines, &mut |piece| {
                pieces.push(piece.to_string());
                Ok(())
            })
            .unwrap();
        assert!(pieces.len() > 1);
        assert!(pieces[..pieces.len() - 1].iter().all(|p| p.ends_with('\n')));
        assert_eq!(pieces.concat(), all);
    }

    #[test]
    fn marks_cut_between_buffers_are_filled() {
        let fills: Fills = vec![("<ID>", "g0123".into()), ("<N>", String::new())];
        for cut in [0, 1, 2, 3, 5] {
            let mut text = "x".repeat(SPILL_AT - cut);
            text.push_str("<ID> <N>y<I<ID><N>");
            text.push_str(&"z<ID>".repeat(1000));
            let mut filled = Vec::new();
            let n = fill_copy(&mut text.as_bytes(), &mut filled, &fills).unwrap();
            let mut want = text.clone();
            fill(&mut want, 0, &fills);
            assert_eq!(n as usize, want.len());
            assert_eq!(String::from_utf8(filled).unwrap(), want, "cut {cut}");
        }
    }

    #[test]
    fn a_short_text_stays_in_memory_with_its_head_before_it() {
        let mut spill = Spill::new();
        let mut out = "body".to_string();
        spill.take(&mut out).unwrap();
        match spill.finish("head ".into(), out).unwrap() {
            Text::Held(text) => assert_eq!(text, "head body"),
            Text::Spilled(_) => panic!("spilled"),
        }
    }
}
