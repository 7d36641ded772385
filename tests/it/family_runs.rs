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
    let stream = f.read.filter(|r| r.walks()).expect("a format that streams");
    let opts = ReadOptions {
        no_validate,
        run_bytes: Some(0),
        ..ReadOptions::default()
    };
    let mut records = kifu::archive::Records::new(text, f.split);
    let (mut streamed, mut all) = (0, 0);
    while let Some(batch) = records.next_batch(1 << 16).unwrap() {
        for r in batch.records.iter().filter(|r| r.is_game) {
            all += 1;
            let record = std::str::from_utf8(&batch.data[r.range.clone()]).unwrap();
            let read = stream.runs(record, &opts, &mut |_| Ok(()));
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
    let parsed = by_name("draughts-num")
        .unwrap()
        .read
        .unwrap()
        .game(&text, &ReadOptions::default())
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

/// A record going to and fro between `moves`, with comments, NAGs and
/// variations (some nested, of `other`) by turns: `label(i)` gives what
/// goes before the i-th ply (from 0) and what a variation of it starts with.
fn to_and_fro(
    head: &str,
    moves: [&str; 4],
    other: [&str; 4],
    plies: usize,
    label: impl Fn(usize) -> (String, String),
) -> String {
    let mut text = head.to_string();
    for i in 0..plies {
        let (before, again) = label(i);
        text.push_str(&before);
        text.push_str(moves[i % 4]);
        let other = other[i % 4];
        match i % 7 {
            1 => text.push_str(" {a move} $1"),
            3 => text.push_str(&format!(" ({again} {other})")),
            5 => text.push_str(&format!(
                " ({again} {other} {{there}} ({again} {other}) ) {{after}}"
            )),
            _ => {}
        }
        text.push(' ');
    }
    text.push_str("*\n");
    text
}

/// The records of the bundled corpus's `folder` (files ending `ext`), each
/// written the same read a run at a time as whole to its own format and
/// every interchange format; at least one read a run at a time.
fn bundled_corpus_is_written_the_same_streamed_as_whole(format: &str, folder: &str, ext: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(folder);
    let mut streamed = 0;
    for file in common::files(&root, ext) {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read(&file).unwrap();
        streamed += streamed_records(format, &text, false).0;
        for to in [format].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways(format, to, &text, &name);
        }
    }
    assert!(streamed > 0, "no record of the corpus read a run at a time");
}

/// A tafl record on brandubh's rules of an attacker and a defender going
/// to and fro, with comments, NAGs and variations (some nested) by turns.
fn tafl_record(plies: usize) -> String {
    to_and_fro(
        "[Rules \"brandubh\"]\n\n",
        ["d2-e2", "c4-c5", "e2-d2", "c5-c4"],
        ["d2-f2", "c4-c6", "e2-e1", "c5-b5"],
        plies,
        |i| {
            let n = i / 2 + 1;
            match i % 2 {
                0 => (format!("{n}. "), format!("{n}.")),
                _ => (String::new(), format!("{n}...")),
            }
        },
    )
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
    bundled_corpus_is_written_the_same_streamed_as_whole("tafl", "tafl", ".tafl");
}

/// A coerceo record of a white and a black piece going to and fro from
/// the start, with comments, NAGs and variations (some nested) by turns.
fn coerceo_record(plies: usize) -> String {
    to_and_fro(
        "[Event \"to and fro\"]\n\n",
        ["3c-3e", "4b-3d", "3e-3c", "3d-4b"],
        ["5c-5a", "6d-5f", "5c-5a", "6d-5f"],
        plies,
        |i| (format!("{}# ", i + 1), format!("{}#", i + 1)),
    )
}

#[test]
fn coerceo_records_are_written_the_same_streamed_as_whole() {
    for plies in [1, 2, 9, 300] {
        let text = coerceo_record(plies);
        let (streamed, all) = streamed_records("coerceo", text.as_bytes(), false);
        assert!(all == 1 && streamed == 1, "{streamed} of {all}\n{text}");
        for to in ["coerceo"].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways("coerceo", to, text.as_bytes(), "to and fro");
        }
    }
}

#[test]
fn the_bundled_coerceo_corpus_is_written_the_same_streamed_as_whole() {
    bundled_corpus_is_written_the_same_streamed_as_whole("coerceo", "coerceo", ".coerceo");
}

/// Legal games with exchanges, removals and variations, on both boards
/// and with either exchange, bare and in full (`KIFU_COERCEO_GAMES` of
/// them, 24 by default): read a run at a time (cut
/// before every move), each is written as it is whole to coerceo and every
/// interchange output, messages included (what the whole replay decides
/// from every move: whether the record lists captures and removals, what
/// an exchange takes; the board the game started on, which a picture of a
/// run draws, its own start having lost tiles).
#[test]
fn legal_coerceo_games_are_written_the_same_streamed_as_whole() {
    let mut rare = 0;
    let games = std::env::var("KIFU_COERCEO_GAMES").map_or(24, |n| n.parse().unwrap());
    for seed in 0..games {
        let (bare, full, [_, _, removals, exchanges]) =
            crate::check::coerceo_game(&crate::otn_tenjiku_runs::bytes(seed, 400), true);
        rare += removals + exchanges;
        for text in [&bare, &full] {
            let (streamed, all) = streamed_records("coerceo", text.as_bytes(), false);
            assert!(all == 1 && streamed == 1, "{streamed} of {all}\n{text}");
            for to in ["coerceo"].into_iter().chain(INTERCHANGE) {
                assert_same_both_ways("coerceo", to, text.as_bytes(), text);
            }
        }
    }
    assert!(
        rare > 24,
        "{rare} exchanges and removals: the games reach too few"
    );
}

/// The command line: a file of legal coerceo games (with exchanges,
/// removals and variations), one of them of many runs, converted with a
/// cut before every move (`--run-bytes 0`), at the default cut and whole
/// (`--read-whole`) to each output: the same output and messages.
#[test]
fn the_command_line_streams_coerceo_records() {
    let mut text = String::new();
    for seed in 100..106 {
        let (bare, full, _) =
            crate::check::coerceo_game(&crate::otn_tenjiku_runs::bytes(seed, 300), true);
        text.push_str(&bare);
        text.push('\n');
        text.push_str(&full);
        text.push('\n');
    }
    // A game of many runs (a piece going to and fro), which the command
    // line streams with its own cut too.
    let outputs: Vec<&str> = ["coerceo"].into_iter().chain(INTERCHANGE).collect();
    crate::otn_tenjiku_runs::assert_the_command_line_streams(
        "coerceo",
        &text,
        &coerceo_record(25_000),
        &outputs,
    );
}

/// The command line: a long draughts-diag record (of many runs) is written
/// the same as when it is converted whole.
#[test]
fn the_command_line_streams_a_long_diag_record() {
    let dir = scratch("family_runs", "diag");
    let text = diag_kings(30_000);
    assert!(
        text.len() > 16 * kifu::container::RUN_BYTES,
        "{}",
        text.len()
    );
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
        assert_eq!(run(&[]), run(&["--read-whole"]), "{to}");
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
                let Ok(parsed) = read.game(text, &ReadOptions::default()) else {
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

/// A draughts record whose board no tag names, read a run at a time with
/// runs of the default size: its movetext ends before the first cut, so
/// its one run is its whole main line, read once (the board inferred from
/// every move, the game judged as a game read whole is), not once to find
/// the board and again on it. The run holds the whole game's plies on the
/// whole game's board, and the head says what the whole game says; the
/// head is handed on once, just before the run (the moves decided the
/// board: the run settled it), with the whole game's board and tags, so
/// that a writer puts it in place.
#[test]
fn a_draughts_record_whose_board_no_tag_names_is_streamed_in_one_reading() {
    let f = by_name("draughts-num").unwrap();
    let reader = f.read.unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join("draughts");
    let (mut once, mut all) = (0, 0);
    for file in common::files(&root, ".pdn") {
        if file.to_string_lossy().ends_with(".diag.pdn") {
            continue;
        }
        // The same records without their GameType tags.
        let data: String = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("[GameType"))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut records = kifu::archive::Records::new(data.as_bytes(), f.split);
        while let Some(batch) = records.next_batch(1 << 20).unwrap() {
            for r in batch.records.iter().filter(|r| r.is_game) {
                let text = std::str::from_utf8(&batch.data[r.range.clone()]).unwrap();
                all += 1;
                let whole = reader.game(text, &ReadOptions::default());
                let (mut heads, mut runs) = (Vec::new(), Vec::new());
                let streamed = reader.runs(text, &ReadOptions::default(), &mut |piece| {
                    match piece {
                        kifu::codec::Piece::Head(head) => {
                            assert!(runs.is_empty(), "{file:?}: the head before the run");
                            heads.push((head.variant.clone(), head.tags.clone()));
                        }
                        kifu::codec::Piece::Run(run) => runs.push(run.clone()),
                        _ => {}
                    }
                    Ok(())
                });
                let (Ok(whole), Ok(Some(head))) = (&whole, &streamed) else {
                    // What the stream does not take is converted whole.
                    assert!(
                        whole.is_ok() || !matches!(streamed, Ok(Some(_))),
                        "{file:?}: {whole:?} {streamed:?}\n{text}"
                    );
                    continue;
                };
                assert_eq!(
                    heads,
                    [(whole.game.variant.clone(), whole.game.tags.clone())],
                    "{file:?}: the head once, as the whole game's"
                );
                assert_eq!(runs.len(), 1, "{file:?}: one run\n{text}");
                let run = &runs[0];
                assert_eq!(run.moves.plies, whole.game.moves.plies, "{file:?}\n{text}");
                assert_eq!(run.variant, whole.game.variant, "{file:?}\n{text}");
                assert_eq!(head.game.variant, whole.game.variant, "{file:?}\n{text}");
                assert_eq!(
                    format!("{:?}", head.warnings),
                    format!("{:?}", whole.warnings),
                    "{file:?}\n{text}"
                );
                once += 1;
            }
        }
    }
    assert!(once >= 10 && once * 2 >= all, "{once} of {all} read once");
}
