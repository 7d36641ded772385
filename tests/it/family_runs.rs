//! Issue 34, "every output streams", for the families beside chess and
//! draughts-num: draughts-diag read a run at a time (every record of the
//! bundled corpus and generated ones, cut before every move, written the
//! same as read whole, to its own notation, draughts-num and every
//! interchange output); the writers of coerceo, tafl and tenjiku, which
//! write a whole game as one run, give the same text where the game comes
//! a ply at a time.

use std::path::Path;

use kifu::codec::{ReadOptions, WriteOptions};
use kifu::format::by_name;
use kifu::ir::Game;

use crate::common::{self, kifu, scratch, stdout};
use crate::streaming::assert_same_both_ways;

/// How many game records of `text` `from`'s stream reads a run at a time
/// (cut before every move), and how many there are.
fn streamed_records(from: &str, text: &[u8], no_validate: bool) -> (usize, usize) {
    let f = by_name(from).unwrap();
    let stream = f.stream.expect("a format that streams");
    let opts = ReadOptions {
        no_validate,
        stream_above: Some(0),
        ..ReadOptions::default()
    };
    let mut records = kifu::archive::Records::new(text, f.split);
    let (mut streamed, mut all) = (0, 0);
    while let Some(batch) = records.next_batch(1 << 16).unwrap() {
        for r in batch.records.iter().filter(|r| r.is_game) {
            all += 1;
            let record = std::str::from_utf8(&batch.data[r.range.clone()]).unwrap();
            let read = stream(record, &opts, &mut |_| Ok(()));
            streamed += usize::from(matches!(read, Ok(Some(_))));
        }
    }
    (streamed, all)
}

/// The outputs of any family a record streams to (svg: its last position;
/// html: the viewer's section).
const INTERCHANGE: [&str; 6] = ["json", "jsonl", "xml", "csv", "svg", "html"];

/// A draughts record of two kings going to and fro on the international
/// board, with comments, NAGs and variations (some nested) by turns,
/// written in draughts-num, then in draughts-diag by kifu.
fn diag_kings(plies: usize) -> String {
    let mut text = String::from("[GameType \"20\"]\n[FEN \"W:WK46:BK5\"]\n\n");
    let moves = ["46-41", "5-10", "41-46", "10-5"];
    let other = ["46-37", "5-14", "41-37", "10-14"];
    for i in 0..plies {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(moves[i % 4]);
        let again = if i % 2 == 0 { "." } else { "..." };
        match i % 7 {
            1 => text.push_str(" {a king} $1"),
            3 => text.push_str(&format!(" ({}{again} {})", i / 2 + 1, other[i % 4])),
            5 => text.push_str(&format!(
                " ({}{again} {} {{there}} ({}{again} {}) ) {{after}}",
                i / 2 + 1,
                other[i % 4],
                i / 2 + 1,
                other[i % 4]
            )),
            _ => {}
        }
        text.push(' ');
    }
    text.push_str("2-0\n");
    let parsed = (by_name("draughts-num").unwrap().read.unwrap())(&text, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let mut diag = String::new();
    (by_name("draughts-diag").unwrap().write.unwrap())(
        &parsed.game,
        &WriteOptions::default(),
        &mut diag,
    )
    .unwrap();
    diag
}

#[test]
fn diag_records_are_written_the_same_streamed_as_whole() {
    for plies in [1, 2, 9, 300] {
        let text = diag_kings(plies);
        let (streamed, all) = streamed_records("draughts-diag", text.as_bytes(), false);
        assert!(all == 1 && streamed == 1, "{streamed} of {all}\n{text}");
        for to in ["draughts-diag", "draughts-num"]
            .into_iter()
            .chain(INTERCHANGE)
        {
            assert_same_both_ways("draughts-diag", to, text.as_bytes(), "kings");
        }
    }
}

#[test]
fn the_bundled_diag_corpus_is_written_the_same_streamed_as_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/draughts");
    let mut streamed = 0;
    for file in common::files(&root, ".diag.pdn") {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read(&file).unwrap();
        streamed += streamed_records("draughts-diag", &text, false).0;
        for to in ["draughts-diag", "draughts-num"]
            .into_iter()
            .chain(INTERCHANGE)
        {
            assert_same_both_ways("draughts-diag", to, &text, &name);
        }
    }
    assert!(streamed > 0, "no record of the corpus read a run at a time");
}

/// A tafl record on brandubh's rules of an attacker and a defender going
/// to and fro, with comments, NAGs and variations (some nested) by turns.
fn tafl_record(plies: usize) -> String {
    let mut text = String::from("[Rules \"brandubh\"]\n\n");
    let moves = ["d2-e2", "c4-c5", "e2-d2", "c5-c4"];
    let other = ["d2-f2", "c4-c6", "e2-e1", "c5-b5"];
    for i in 0..plies {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(moves[i % 4]);
        let again = if i % 2 == 0 { "." } else { "..." };
        let n = i / 2 + 1;
        match i % 7 {
            1 => text.push_str(" {a move} $1"),
            3 => text.push_str(&format!(" ({n}{again} {})", other[i % 4])),
            5 => text.push_str(&format!(
                " ({n}{again} {} {{there}} ({n}{again} {}) ) {{after}}",
                other[i % 4],
                other[i % 4]
            )),
            _ => {}
        }
        text.push(' ');
    }
    text.push_str("*\n");
    text
}

#[test]
fn tafl_records_are_written_the_same_streamed_as_whole() {
    for plies in [1, 2, 9, 300] {
        let text = tafl_record(plies);
        let (streamed, all) = streamed_records("tafl", text.as_bytes(), false);
        assert!(all == 1 && streamed == 1, "{streamed} of {all}\n{text}");
        for to in ["tafl"].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways("tafl", to, text.as_bytes(), "brandubh");
        }
    }
}

#[test]
fn the_bundled_tafl_corpus_is_written_the_same_streamed_as_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tafl");
    let mut streamed = 0;
    for file in common::files(&root, ".tafl") {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read(&file).unwrap();
        streamed += streamed_records("tafl", &text, false).0;
        for to in ["tafl"].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways("tafl", to, &text, &name);
        }
    }
    assert!(streamed > 0, "no record of the corpus read a run at a time");
}

/// The command line: a long draughts-diag record (past the size records
/// stream from) is written the same as when it is converted whole.
#[test]
fn the_command_line_streams_a_long_diag_record() {
    let dir = scratch("family_runs", "diag");
    let text = diag_kings(30_000);
    assert!(text.len() > kifu::codec::STREAM_ABOVE, "{}", text.len());
    let input = dir.join("long.pdn");
    std::fs::write(&input, &text).unwrap();
    let input = input.to_str().unwrap();
    for to in ["draughts-diag", "json"] {
        let run = |extra: &[&str]| {
            let mut args = vec!["convert", "--from", "draughts-diag", "--to", to, input];
            args.extend_from_slice(extra);
            let out = kifu(&args, b"");
            assert!(out.status.success(), "{to}: {out:?}");
            stdout(&out)
        };
        assert_eq!(run(&[]), run(&["--stream-above", "1000000000"]), "{to}");
    }
}

/// Every game of a notation's files written whole, and with its main line
/// handed to the notation's writer a ply at a time (each ply with the
/// variations it holds, then its end): the same text and warnings.
fn assert_written_the_same_a_ply_at_a_time(format: &str, dir: &str, ending: &str) {
    let f = by_name(format).unwrap();
    let (read, write, runs) = (f.read.unwrap(), f.write.unwrap(), f.runs.unwrap());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(dir);
    let mut games = 0;
    for file in common::files(&root, ending) {
        let data = std::fs::read(&file).unwrap();
        let mut records = kifu::archive::Records::new(&data[..], f.split);
        while let Some(batch) = records.next_batch(1 << 20).unwrap() {
            for r in batch.records.iter().filter(|r| r.is_game) {
                let text = std::str::from_utf8(&batch.data[r.range.clone()]).unwrap();
                let Ok(parsed) = read(text, &ReadOptions::default()) else {
                    continue;
                };
                let game = parsed.game;
                let opts = WriteOptions::default();
                let mut whole = String::new();
                let said = write(&game, &opts, &mut whole).map(|w| format!("{w:?}"));
                let mut writer = runs(&opts);
                let mut out = String::new();
                let mut ran = Ok(());
                for ply in &game.moves.plies {
                    let run = Game {
                        moves: kifu::ir::Line {
                            plies: vec![ply.clone()],
                            ..kifu::ir::Line::default()
                        },
                        ..game.clone()
                    };
                    ran = ran.and_then(|()| writer.run(&run, &mut out));
                }
                let mut head = String::new();
                let ended = ran
                    .and_then(|()| writer.end(&game, &mut head, &mut out))
                    .map(|w| format!("{w:?}"));
                assert_eq!(
                    said.map(|w| (whole, w)),
                    ended.map(|w| (head + &out, w)),
                    "{}: {text}",
                    file.display()
                );
                games += 1;
            }
        }
    }
    assert!(games > 0, "{format}: no game");
}

#[test]
fn coerceo_is_written_the_same_a_ply_at_a_time() {
    assert_written_the_same_a_ply_at_a_time("coerceo", "coerceo", ".coerceo");
}

#[test]
fn tafl_is_written_the_same_a_ply_at_a_time() {
    assert_written_the_same_a_ply_at_a_time("tafl", "tafl", ".tafl");
}
