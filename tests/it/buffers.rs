//! The pipeline's buffers (issue 37: the record buffer no longer zeroed
//! before each read, the output's buffer passed by the games).
//!
//! Reading: [`Records`] reads into its buffer's spare capacity, as much as
//! a reader gives a call; whatever a reader gives (a byte a call, short
//! reads, interruptions), the records are those of the text read at once.
//!
//! Writing: games a [`Sink`] holds until they fill the output's buffer and
//! then writes in one vectored write come out as the games written one by
//! one would: the framing's head, the games with `between` between them,
//! its tail, whatever the writer takes of each write, on every output (a
//! file, standard output, a compressed file).

use std::io::{self, Read, Write};

use proptest::prelude::*;

use kifu::archive::{Records, Sink};
use kifu::codec::{Framing, Games, Origin};
use kifu::format::by_name;
use kifu::output::spill::Text;

use crate::common::{kifu, scratch, stdout};

/// A reader that gives at most `step` bytes a call (the `n`th call
/// `1 + n * step % 7` bytes where `vary`) and is interrupted every fourth
/// call.
struct Dribble<'a> {
    text: &'a [u8],
    step: usize,
    vary: bool,
    calls: usize,
}

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(4) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let step = match self.vary {
            true => 1 + self.calls * self.step % 7,
            false => self.step,
        };
        let n = buf.len().min(step).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// Every record of a stream: its bytes, offset, line, column and kind.
fn records<R: Read>(reader: R, target: usize) -> Vec<(Vec<u8>, u64, usize, usize, bool)> {
    let mut records = Records::new(reader, by_name("pgn").unwrap().split);
    let mut out = Vec::new();
    while let Some(batch) = records.next_batch(target).unwrap() {
        for r in &batch.records {
            let bytes = batch.data[r.range.clone()].to_vec();
            out.push((bytes, r.offset, r.line, r.col, r.is_game));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Records read from a reader that gives any number of bytes a call
    /// are those of the text read from memory, in batches of any size.
    #[test]
    fn records_are_the_same_whatever_a_reader_gives_a_call(
        copies in 1usize..12,
        bom in any::<bool>(),
        step in prop_oneof![1usize..8, 1usize..70_000],
        vary in any::<bool>(),
        target in prop_oneof![1usize..512, 1usize..300_000],
    ) {
        let mut text = match bom {
            true => "\u{feff}".to_string(),
            false => String::new(),
        };
        text.push_str(&openings(copies));
        let whole = records(text.as_bytes(), 256 << 10);
        let dribbled = records(Dribble { text: text.as_bytes(), step, vary, calls: 0 }, target);
        // Every game, and the text between games (none here but the end).
        prop_assert_eq!(whole.iter().filter(|r| r.4).count(), 36 * copies);
        prop_assert!(dribbled == whole, "{} records, {} wanted", dribbled.len(), whole.len());
    }
}

/// A writer that takes at most `step` bytes a call (of one slice or of
/// several) and is interrupted every fifth call, as a pipe or a slow
/// device may be.
struct Trickle {
    out: Vec<u8>,
    step: usize,
    calls: usize,
}

impl Trickle {
    fn interrupted(&mut self) -> bool {
        self.calls += 1;
        self.calls.is_multiple_of(5)
    }
}

impl Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.interrupted() {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.step);
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        if self.interrupted() {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let mut left = self.step;
        for b in bufs {
            let n = b.len().min(left);
            self.out.extend_from_slice(&b[..n]);
            left -= n;
            if left == 0 {
                break;
            }
        }
        Ok(self.step - left)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

const FRAMINGS: [Framing; 3] = [
    Framing::PLAIN,
    Framing {
        between: "\n",
        ..Framing::PLAIN
    },
    Framing {
        head: "[\n",
        between: ",\n",
        tail: "\n]\n",
        title: None,
    },
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Games given whole (held: `Games::text`) or borrowed (written at
    /// once: `Sink::game`), in any mix, short and long (past the 64 KiB
    /// buffer, alone and together), to a writer that takes any part of a
    /// write: the head, the games between `between`s, the tail.
    #[test]
    fn held_games_come_out_as_written_one_by_one(
        framing in 0..FRAMINGS.len(),
        games in prop::collection::vec((0usize..40_000, any::<bool>(), any::<u8>()), 0..24),
        step in prop_oneof![1usize..64, 1usize..100_000],
    ) {
        let framing = FRAMINGS[framing];
        let texts: Vec<String> = games
            .iter()
            .map(|&(len, _, c)| {
                let c = char::from(b'a' + c % 26);
                std::iter::repeat_n(c, len).collect()
            })
            .collect();
        let mut sink = Sink::new(Trickle { out: Vec::new(), step, calls: 0 }, framing);
        let origin = Origin { source: "test", index: 1, bytes: b"" };
        for (text, &(_, held, _)) in texts.iter().zip(&games) {
            match held {
                true => Games::text(&mut sink, Text::Held(text.clone()), &origin).unwrap(),
                false => sink.game(text).unwrap(),
            }
        }
        let out = sink.finish().unwrap().out;
        let wanted = format!("{}{}{}", framing.head, texts.join(framing.between), framing.tail);
        prop_assert!(out == wanted.as_bytes(), "{} bytes written, {} wanted", out.len(), wanted.len());
    }
}

/// The chess games of `corpus/chess/openings.pgn` (canonical: kifu writes
/// them as they are) `n` times: about 11 KB each time.
fn openings(n: usize) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let one = std::fs::read_to_string(root.join("corpus/chess/openings.pgn")).unwrap();
    vec![one; n].join("\n")
}

#[test]
fn a_run_writes_the_same_bytes_to_every_output_past_the_buffer() {
    let dir = scratch("sink", "every_output");
    let input = openings(24);
    assert!(
        input.len() > 4 * (64 << 10),
        "past the buffer several times"
    );
    let path = dir.join("in.pgn");
    std::fs::write(&path, &input).unwrap();
    let p = path.to_str().unwrap();
    for j in ["1", "2"] {
        // Standard output.
        let out = kifu(
            &["convert", "-q", "-j", j, "--to", "pgn", p, "-o", "-"],
            b"",
        );
        assert!(out.status.success());
        assert!(stdout(&out) == input, "-j {j}: standard output differs");
        // A file, and a gzip file.
        for name in ["out.pgn", "out.pgn.gz"] {
            let to = dir.join(name);
            let out = kifu(
                &["convert", "-q", "-j", j, p, "-o", to.to_str().unwrap()],
                b"",
            );
            assert!(out.status.success(), "{name}");
            let mut text = String::new();
            let file = std::fs::File::open(&to).unwrap();
            match name.ends_with(".gz") {
                true => flate2::read::GzDecoder::new(file).read_to_string(&mut text),
                false => io::BufReader::new(file).read_to_string(&mut text),
            }
            .unwrap();
            assert!(text == input, "-j {j}: {name} differs");
        }
    }
    // A framing with a head, `between` and a tail: one JSON array of every
    // game.
    let out = kifu(&["convert", "-q", "--to", "json", p, "-o", "-"], b"");
    assert!(out.status.success());
    let games: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(games.as_array().map(Vec::len), Some(24 * 36));
}
