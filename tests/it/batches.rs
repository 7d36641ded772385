//! Where a record ends does not depend on how the input is cut into
//! batches: [`Records`](kifu::archive::Records) hands each format's
//! scanner ([`kifu::codec::Scan`]) the bytes read so far, and a scanner
//! that says a record ends where the bytes it was given end, without the
//! input's end (`eof`) to tell it so, cuts a record in two where a batch
//! ends in it. Records reads 64 KiB or more at a time, so the inputs here
//! are longer: the deadline test's structures (`deadlines.rs`: each mark
//! and opener repeated to 64 KiB, alone and inside a sample; the first
//! half of a sample, repeated) and samples of each format repeated past
//! 64 KiB, each after some padding (so that its records straddle where a
//! read ends at every place), in every format of the registry
//! (`kifu::format::FORMATS`, those kifu reads; no list of names). Cut
//! with batches of a byte, of odd sizes, the pipeline's and 1 MiB, each
//! gives the same records: their bytes, lines, columns and whether each
//! holds a game (the text between games too, but where a run of blanks
//! alone is cut: `check::split_solid`).

use std::sync::OnceLock;

use proptest::prelude::*;

use kifu::archive::BATCH_BYTES;
use kifu::format::{by_name, Format};

use crate::check;
use crate::deadlines::{repeated_cases, repeated_count, samples, Rng};

/// The batch sizes compared: tiny, odd, the pipeline's and the CLI's
/// largest.
const BATCHES: [usize; 5] = [1, 28, 4099, BATCH_BYTES, 1 << 20];

/// What goes between the copies of a repeated sample.
const GAPS: [&[u8]; 4] = [b"\n", b"\n\n", b"", b" "];

/// Each format kifu reads, with its samples.
type Samples = Vec<(&'static Format, Vec<Vec<u8>>)>;

/// The samples of every format kifu reads, made once.
fn formats() -> &'static Samples {
    static SAMPLES: OnceLock<Samples> = OnceLock::new();
    SAMPLES.get_or_init(samples)
}

/// Asserts that `data` is cut into the same records by `f`'s scanner at
/// every size of [`BATCHES`].
fn assert_cut_alike(f: &Format, data: &[u8], what: &str) -> Result<(), TestCaseError> {
    let first = check::split_solid(f, data, BATCHES[BATCHES.len() - 1]);
    for batch in BATCHES {
        let other = check::split_solid(f, data, batch);
        if let Some(i) = (0..first.len().max(other.len())).find(|&i| first.get(i) != other.get(i)) {
            let show = |r: Option<&(Vec<u8>, usize, usize, bool)>| {
                r.map(|(bytes, line, col, game)| {
                    let head = &bytes[..bytes.len().min(80)];
                    format!(
                        "{} bytes at {line}:{col}, game {game}: {:?}",
                        bytes.len(),
                        String::from_utf8_lossy(head)
                    )
                })
            };
            return Err(TestCaseError::fail(format!(
                "{} ({what}, {} bytes): {} records with 1 MiB batches, {} with {batch}-byte \
                 batches; record {i} is {:?} with 1 MiB batches, {:?} with {batch}-byte ones",
                f.name,
                data.len(),
                first.len(),
                other.len(),
                show(first.get(i)),
                show(other.get(i))
            )));
        }
    }
    Ok(())
}

/// The input of case `pick` for a format: one of the deadline test's
/// structures or a sample repeated past 64 KiB, after `pad` bytes of a
/// sample's head or of blank lines.
fn input(f: &'static Format, list: &[Vec<u8>], pick: u64, pad: usize) -> (String, Vec<u8>) {
    let mut rng = Rng(pick);
    let (what, body) = if rng.below(3) == 0 {
        let sample = rng.pick(list);
        let mut body = Vec::new();
        while body.len() <= 70 << 10 {
            body.extend_from_slice(sample);
            let gap: &[u8] = GAPS[rng.below(GAPS.len())];
            body.extend_from_slice(gap);
        }
        ("a sample repeated".to_string(), body)
    } else {
        let pick = rng.below(repeated_count(list));
        let mut cases = repeated_cases(f, list, |i| i == pick);
        let case = cases.pop().expect("a structure");
        (case.name, case.data)
    };
    let mut data = match rng.below(2) {
        0 => {
            let sample = rng.pick(list);
            sample[..pad.min(sample.len())].to_vec()
        }
        _ => b"\n".repeat(pad),
    };
    data.extend_from_slice(&body);
    (format!("{what}, after {pad} bytes"), data)
}

/// How many cases the property runs: `KIFU_BATCH_CASES`, 64 by default
/// (each reads every format).
fn cases() -> u32 {
    std::env::var("KIFU_BATCH_CASES").map_or(64, |n| n.parse().expect("a number"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Every format's records are the same whatever the batches.
    #[test]
    fn records_do_not_depend_on_the_batch_size(pick in any::<u64>(), pad in 0usize..5000) {
        for (f, list) in formats() {
            let (what, data) = input(f, list, pick, pad);
            assert_cut_alike(f, &data, &what)?;
        }
    }
}

/// The member found first: an otn record whose `[rules:` tag is never
/// closed, before 64 KiB of `=` lines, was one record with 1 MiB batches
/// and two with 28-byte ones (the scanner said the record ended where the
/// bytes it was given ended).
#[test]
fn an_unclosed_otn_tag_before_a_long_text_is_one_record() {
    let f = by_name("otn").expect("otn");
    let mut data = b"[rules: dim:7".to_vec();
    data.extend_from_slice(&b"=\n\n".repeat((64 << 10) / 3 + 1));
    // Past what `Records` reads at a time, so that a batch ends in it.
    assert!(data.len() > 64 << 10, "{}", data.len());
    assert_cut_alike(f, &data, "an unclosed tag").unwrap();
    assert_eq!(check::split_solid(f, &data, 28).len(), 1);
}

/// Text of no move (move numbers, NAGs, words, comments) is no game
/// whether the input ends after it or a tag follows, and whatever the
/// batches: the member found first, `1.` and a blank line repeated past
/// 64 KiB before a tag, was text between games with 1 MiB batches and a
/// game with 1-byte ones (the pipeline cut the long record, asking the
/// scan as if the input ended there, and the scan's end of input took
/// any movetext for a game).
#[test]
fn text_of_no_move_is_no_game_whatever_follows_or_the_batches() {
    const WORDS: [&str; 7] = ["1.", "12.", "$22", "Some", "2024", "{a comment}", "3..."];
    const BLANKS: [&str; 3] = [" ", "\n", "\n\n"];
    let game: &[u8] = b"[Event \"x\"]\n\n1. e4 e5 *\n";
    for f in ["pgn", "draughts-num", "draughts-diag", "tafl"] {
        let f = by_name(f).expect("a format");
        for pick in 0..6u64 {
            let mut rng = Rng(pick + 1);
            let mut text = Vec::new();
            while text.len() <= 66 << 10 {
                text.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
                text.extend_from_slice(BLANKS[rng.below(BLANKS.len())].as_bytes());
            }
            text.extend_from_slice(b"\n\n");
            for tail in [&b""[..], game] {
                let mut data = game.to_vec();
                data.extend_from_slice(b"\n");
                data.extend_from_slice(&text);
                data.extend_from_slice(tail);
                let what = format!("{} text of no move, {pick}", f.name);
                assert_cut_alike(f, &data, &what).unwrap();
                let games = check::split_solid(f, &data, 1 << 20)
                    .iter()
                    .filter(|r| r.3)
                    .count();
                assert_eq!(games, 1 + usize::from(!tail.is_empty()), "{what}");
            }
        }
    }
    // Castling is a move, though it holds no digit.
    let f = by_name("pgn").expect("pgn");
    for last in ["1. O-O", "1. o-o-o+", "1... O-O-O!"] {
        let data = format!("1. e4 e5 *\n\n{last}\n");
        let records = check::split_solid(f, data.as_bytes(), 1 << 20);
        assert_eq!(records.iter().filter(|r| r.3).count(), 2, "{last}");
    }
}

/// Every format's scan (its `Format::split`), over the data read so far
/// (not the input's end), says nothing or what it says over the whole
/// input, cut anywhere: where a record ends and whether it holds a game
/// never depend on where a read stopped (the member found first, in the
/// container scan: a tag's head cut short, `[Res`, after text of no tag,
/// was taken for text), each sample after its own tagless movetext.
#[test]
fn every_scan_of_a_prefix_says_nothing_or_what_the_whole_says() {
    for (f, list) in formats() {
        for sample in list.iter().take(12) {
            // The sample after its own movetext without its tag lines: a
            // record with no tag before one whose tags the cuts split.
            let mut both: Vec<u8> = sample
                .split(|&b| b == b'\n')
                .filter(|l| !l.trim_ascii_start().starts_with(b"["))
                .flat_map(|l| l.iter().copied().chain([b'\n']))
                .collect();
            both.extend_from_slice(b"\n\n");
            both.extend_from_slice(sample);
            let data = &both[..both.len().min(3000)];
            // Each record of the sample in turn, told what came before it.
            let mut from = 0;
            while from < data.len() {
                let rest = &data[from..];
                let before = data[..from]
                    .iter()
                    .rev()
                    .find(|b| !b.is_ascii_whitespace())
                    .copied();
                let whole = f.split.end_after(rest, true, before);
                for k in 0..rest.len() {
                    if let Some(said) = f.split.end_after(&rest[..k], false, before) {
                        // (A run of blanks may be passed a piece at a time:
                        // `check::split_solid`.)
                        if !said.1 && rest[..said.0].trim_ascii().is_empty() {
                            continue;
                        }
                        assert_eq!(
                            Some(said),
                            whole,
                            "{}: {:?} cut at {k}",
                            f.name,
                            String::from_utf8_lossy(&rest[..rest.len().min(200)])
                        );
                    }
                }
                match whole {
                    Some((len, _)) if len > 0 => from += len,
                    _ => break,
                }
            }
        }
    }
}
