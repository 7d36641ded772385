//! Long records converted a run of their main line at a time
//! (`Format::stream` and `Format::runs`): the same bytes and the same
//! messages as the record converted whole, wherever the runs are cut, and
//! the record never held whole.

use std::path::Path;

use kifu::archive::{Converted, Converter, Records};
use kifu::codec::{Piece, ReadOptions, WriteOptions};
use kifu::family::chess::Fen;
use kifu::family::Setup;
use kifu::format::by_name;
use kifu::output::spill::Text;

use crate::common::{self, kifu, scratch, stderr, stdout};

/// Every record of `text` converted from `from` to `to` as the converter
/// gives it (the text written and every message, or the failure): whole,
/// (`whole`), and streamed with a cut before every move (`run_bytes: 0`).
pub fn both_ways(
    from: &str,
    to: &str,
    text: &[u8],
    no_validate: bool,
) -> (Vec<String>, Vec<String>) {
    let (from, to) = (by_name(from).unwrap(), by_name(to).unwrap());
    let converter = |whole, run_bytes| Converter {
        from,
        to,
        read: ReadOptions {
            no_validate,
            whole,
            run_bytes,
            ..ReadOptions::default()
        },
        write: WriteOptions::default(),
    };
    let (whole, streamed) = (converter(true, None), converter(false, Some(0)));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut records = Records::new(text, from.split);
    while let Some(batch) = records.next_batch(1 << 16).unwrap() {
        for r in batch.records.iter().filter(|r| r.is_game) {
            let bytes = &batch.data[r.range.clone()];
            a.push(shown(whole.convert(bytes)));
            b.push(shown(streamed.convert(bytes)));
        }
    }
    (a, b)
}

/// What a conversion gave, its text read back where it was spilled to a
/// temporary file.
fn shown(converted: Converted) -> String {
    match converted.written() {
        Ok((Text::Held(text), warnings)) => format!("{text:?} {warnings:?}"),
        Ok((Text::Spilled(text), warnings)) => {
            format!("{:?} {warnings:?}", text.into_string().unwrap())
        }
        Err(p) => format!("failed: {p:?}"),
    }
}

/// The outputs of any family a record streams to, beside its own (svg:
/// its last position; html: the viewer's section).
const INTERCHANGE: [&str; 6] = ["json", "jsonl", "xml", "csv", "svg", "html"];

/// The outputs of chess alone a pgn record streams to, beside pgn: the
/// scoresheet and its printable page.
const SHEETS: [&str; 2] = ["sllavcco", "sllavcco-html"];

/// Every game record of `text` that the fast lexer takes is read a run at
/// a time by `from`'s stream (with a cut before every move), not left to
/// the whole path, so that the two ways compared are two; returns how many
/// records were read so, and how many there are.
pub fn streamed_records(from: &str, text: &[u8], no_validate: bool) -> (usize, usize) {
    let f = by_name(from).unwrap();
    let stream = f.read.filter(|r| r.walks()).expect("a format that streams");
    let lexed = match from {
        "pgn" => kifu::family::chess::pgn::lexed_fast,
        _ => kifu::family::draughts::num::lexed_fast,
    };
    let opts = ReadOptions {
        no_validate,
        run_bytes: Some(0),
        ..ReadOptions::default()
    };
    let mut records = Records::new(text, f.split);
    let (mut streamed, mut all) = (0, 0);
    while let Some(batch) = records.next_batch(1 << 16).unwrap() {
        for r in batch.records.iter().filter(|r| r.is_game) {
            all += 1;
            let record = std::str::from_utf8(&batch.data[r.range.clone()]).unwrap();
            if !lexed(record) {
                continue;
            }
            let read = stream.runs(record, &opts, &mut |_| Ok(()));
            assert!(
                matches!(read, Ok(Some(_))),
                "{from}: not read a run at a time: {read:?}\n{record}"
            );
            streamed += 1;
        }
    }
    (streamed, all)
}

/// Every game record of `text` is read a run at a time.
fn assert_every_record_streams(from: &str, text: &[u8], no_validate: bool) {
    let (streamed, all) = streamed_records(from, text, no_validate);
    assert!(
        all > 0 && streamed == all,
        "{from}: {streamed} of {all} streamed"
    );
}

/// Asserts that `text` converts `from` -> `to` the same whole and a run at
/// a time, validated and not.
pub fn assert_same_both_ways(from: &str, to: &str, text: &[u8], what: &str) {
    for no_validate in [false, true] {
        let (whole, streamed) = both_ways(from, to, text, no_validate);
        assert!(!whole.is_empty(), "{what}: no records");
        for (i, (a, b)) in whole.iter().zip(&streamed).enumerate() {
            assert_eq!(
                a, b,
                "{what} ({from} -> {to}, no_validate {no_validate}): record {i} differs"
            );
        }
    }
}

/// A chess record of `plies` knight moves out and back, decorated by turns
/// with comments before and after, NAGs, glyphs, `;` comments, variations
/// (some nested, some ending in comments), from a setup where Black moves
/// at move 40 when `setup`.
fn knights(plies: usize, setup: bool) -> String {
    knights_from(plies, setup.then_some(KNIGHT_OUT[0]))
}

/// FEN tags of the position after `1. Nf3` (Black to move), as records
/// write them: canonical, then with Shredder castling letters in standard
/// chess, X-FEN letters, a move number past 65,535, castling rights no
/// rook backs (the fourth: repaired, with a warning, and the tag written
/// as the repaired setup), no move counters.
const KNIGHT_OUT: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 40",
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b HAha - 0 70000",
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b HQkq - 3 7",
    "rnbqkbn1/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 12",
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq -",
];

/// [`knights`] from the position of `fen` (one of [`KNIGHT_OUT`]: White's
/// knight out, Black to move), or from the start.
fn knights_from(plies: usize, fen: Option<&str>) -> String {
    let mut text = String::from("[Event \"streamed\"]\n[Result \"1/2-1/2\"]\n");
    let (mut number, mut white) = (1, true);
    if let Some(fen) = fen {
        text.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
        let fields: Vec<&str> = fen.split(' ').collect();
        number = fields.get(5).map_or(1, |n| n.parse().unwrap());
        white = false;
    }
    text.push('\n');
    // Where each side's knight stands: out (f3, f6) or home.
    let (mut w_out, mut b_out) = (fen.is_some(), false);
    if fen.is_some() {
        text.push_str(&format!("{number}... "));
    }
    for i in 0..plies {
        let (mv, alt) = match (white, if white { w_out } else { b_out }) {
            (true, false) => ("Nf3", "Nh3"),
            (true, true) => ("Ng1", "Nh4"),
            (false, false) => ("Nf6", "Nh6"),
            (false, true) => ("Ng8", "Nh5"),
        };
        if white {
            text.push_str(&format!("{number}. "));
        }
        if i % 11 == 5 {
            text.push_str("{before} ");
        }
        text.push_str(mv);
        match i % 7 {
            1 => text.push_str(" $1"),
            3 => text.push_str("!?"),
            4 => text.push_str(" {after the move} $14"),
            6 => text.push_str(" ; to the end of the line\n"),
            _ => {}
        }
        let dots = if white { "." } else { "..." };
        match i % 13 {
            2 => text.push_str(&format!(" ({number}{dots} {alt})")),
            8 => text.push_str(&format!(" ({number}{dots} {alt} {{in it}}) {{after it}}")),
            10 => text.push_str(&format!(" ({number}{dots} {alt} ({number}{dots} {mv}))")),
            _ => {}
        }
        text.push(' ');
        if i % 9 == 0 {
            text.push('\n');
        }
        if white {
            w_out = !w_out;
        } else {
            b_out = !b_out;
            number += 1;
        }
        white = !white;
    }
    text.push_str("{the end} 1/2-1/2\n");
    text
}

#[test]
fn chess_records_are_written_the_same_streamed_as_whole() {
    for (plies, setup) in [
        (1, false),
        (2, true),
        (40, false),
        (301, true),
        (2_000, false),
    ] {
        let text = knights(plies, setup);
        assert_every_record_streams("pgn", text.as_bytes(), false);
        for to in std::iter::once("pgn").chain(INTERCHANGE).chain(SHEETS) {
            assert_same_both_ways("pgn", to, text.as_bytes(), &format!("knights({plies})"));
        }
    }
}

/// A record from a setup, its FEN tag written as records write them
/// (non-canonical letters, counters past what cozy-chess holds, rights
/// repaired), is written the same streamed as whole: the position handed
/// from run to run is the rules' board, never its FEN made text and read
/// again, and the FEN tag is written as read.
#[test]
fn records_from_any_fen_are_written_the_same_streamed_as_whole() {
    for fen in KNIGHT_OUT {
        let text = knights_from(120, Some(fen));
        assert_every_record_streams("pgn", text.as_bytes(), false);
        for to in std::iter::once("pgn").chain(INTERCHANGE).chain(SHEETS) {
            assert_same_both_ways("pgn", to, text.as_bytes(), fen);
        }
        let (whole, _) = both_ways("pgn", "pgn", text.as_bytes(), false);
        // (Shown as Rust writes a string: its quotes escaped.)
        let tag = format!("[FEN \\\"{fen}\\\"]");
        let repaired = fen == KNIGHT_OUT[3];
        assert_eq!(whole[0].contains(&tag), !repaired, "{tag} in {}", whole[0]);
    }
}

#[test]
fn a_failing_record_fails_as_it_does_whole() {
    // An illegal move late in the game, a move the notation does not read,
    // a variation that cannot be played (kept as text, whole), and the
    // fast lexer giving up half-way (a `%` line).
    let long = knights(600, false);
    let cut = long.rfind(" Nf3").unwrap();
    for (what, text) in [
        ("illegal", format!("{} Qh5 Qh4 *", &long[..cut])),
        ("unread", format!("{} Nf3& *", &long[..cut])),
        ("variation", format!("{} (1. Ke2) *", &long[..cut])),
        ("escape", format!("{}\n% an escape line\n*", &long[..cut])),
        // A variation ending in comments after a variation of its last
        // move: the csv rows of that move are written before its end is
        // known, and the record is converted whole.
        (
            "ends after a variation",
            format!("{} Nf3 (Nh3 Nh6 (Nf6) {{after it}}) Nf6 *", &long[..cut]),
        ),
    ] {
        for to in std::iter::once("pgn").chain(INTERCHANGE) {
            assert_same_both_ways("pgn", to, text.as_bytes(), what);
        }
    }
}

#[test]
fn a_record_is_read_in_runs_and_its_head_holds_no_plies() {
    let text = knights(20_000, true);
    let stream = by_name("pgn").unwrap().read.unwrap();
    let opts = ReadOptions {
        run_bytes: Some(0),
        ..ReadOptions::default()
    };
    // Runs of the main line and in variations, each variation opened and
    // closed around its runs.
    let (mut main_runs, mut main_plies, mut longest, mut deep_runs) = (0, 0, 0, 0);
    let (mut depth, mut opened) = (0usize, 0);
    // The head comes first, once: the tags, before any ply.
    let mut heads = 0;
    let head = stream
        .runs(&text, &opts, &mut |piece: Piece<'_>| {
            match piece {
                Piece::Head(head) => {
                    assert_eq!((heads, main_runs), (0, 0), "the head first, once");
                    assert!(head.moves.plies.is_empty() && !head.tags.is_empty());
                    heads += 1;
                }
                Piece::Run(run) => {
                    // Each run starts from the position before it, the rules'
                    // board, never a FEN's text.
                    assert!(
                        matches!(run.setup, Some(Setup::Chess(Fen::Board(_)))),
                        "{:?}",
                        run.setup
                    );
                    if depth == 0 {
                        main_runs += 1;
                        main_plies += run.moves.plies.len();
                        longest = longest.max(run.moves.plies.len());
                    } else {
                        deep_runs += 1;
                    }
                }
                Piece::Open => {
                    depth += 1;
                    opened += 1;
                }
                Piece::Close(_) => depth -= 1,
            }
            Ok(())
        })
        .unwrap()
        .expect("read a run at a time");
    assert_eq!(heads, 1);
    assert_eq!(main_plies, 20_000);
    assert_eq!(main_runs, 20_000, "every ply a run");
    assert_eq!(longest, 1);
    assert_eq!(depth, 0, "every variation opened is closed");
    assert!(opened > 1000 && deep_runs >= opened, "{opened} {deep_runs}");
    assert!(head.game.moves.plies.is_empty());
    assert_eq!(head.game.result.map(|r| r.token()), Some("1/2-1/2"));
    // At the size kifu streams from, runs of at least RUN_BYTES of text.
    let mut runs = 0;
    stream
        .runs(&text, &ReadOptions::default(), &mut |piece| {
            runs += usize::from(matches!(piece, Piece::Run(_)));
            Ok(())
        })
        .unwrap()
        .expect("read a run at a time");
    // (A cut inside a variation hands on the main line's plies, the move
    // whose variation it is, and the variation's plies: up to four runs.)
    assert!(
        (2..=4 * (text.len() / kifu::container::RUN_BYTES + 1)).contains(&runs),
        "{runs} runs"
    );
}

/// A chess record whose main line is one move and a variation of it that
/// holds the rest of the record, `depth` levels deep (each level a
/// variation of the first move of the one above), its deepest line
/// knights out and back with a variation of its own every so often.
fn one_long_variation(plies: usize, depth: usize) -> String {
    let mut text = String::from("[Event \"deep\"]\n\n1. Nf3 ");
    for _ in 0..depth {
        text.push_str("(1. Nc3 ");
    }
    let cycle = ["Nf6", "Nb1", "Ng8", "Nc3"];
    let other = ["Nh6", "Na4", "Ng4", "Na3"];
    for i in 0..plies {
        if i % 2 == 0 {
            text.push_str(&format!("{}... ", i / 2 + 1));
        }
        text.push_str(cycle[i % 4]);
        text.push(' ');
        match i % 17 {
            3 => text.push_str("{in the line} "),
            9 => text.push_str(&format!("({} {{a knight}}) ", other[i % 4])),
            _ => {}
        }
    }
    for _ in 0..depth {
        text.push_str(") ");
    }
    text.push_str("1... e5 *\n");
    text
}

#[test]
fn a_record_held_in_one_long_variation_is_read_in_runs_too() {
    for depth in [1, 2, 7] {
        let text = one_long_variation(3_000, depth);
        assert_every_record_streams("pgn", text.as_bytes(), false);
        for to in std::iter::once("pgn").chain(INTERCHANGE) {
            assert_same_both_ways("pgn", to, text.as_bytes(), &format!("depth {depth}"));
        }
    }
    let text = one_long_variation(30_000, 3);
    let stream = by_name("pgn").unwrap().read.unwrap();
    let (mut depth, mut deepest, mut runs) = (0usize, 0usize, 0);
    stream
        .runs(&text, &ReadOptions::default(), &mut |piece| {
            match piece {
                Piece::Run(_) if depth == 3 => runs += 1,
                Piece::Open => depth += 1,
                Piece::Close(_) => depth -= 1,
                Piece::Run(_) | Piece::Head(_) => {}
            }
            deepest = deepest.max(depth);
            Ok(())
        })
        .unwrap()
        .expect("read a run at a time");
    // (A cut inside a variation of the deepest line opens it too.)
    assert!((3..=4).contains(&deepest), "{deepest}");
    assert!(runs >= 3, "the long variation in {runs} runs");
}

/// A draughts-num record of two kings going to and fro on `board`
/// (`GameType` named or not), with comments and variations by turns.
fn kings(plies: usize, named: bool) -> String {
    let mut text = String::new();
    if named {
        text.push_str("[GameType \"20\"]\n");
    }
    text.push_str("[FEN \"W:WK46:BK5\"]\n\n");
    let moves = ["46-41", "5-10", "41-46", "10-5"];
    for i in 0..plies {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(moves[i % 4]);
        match i % 5 {
            1 => text.push_str(" {a king}"),
            3 => text.push_str(&format!(
                " ({}{} {})",
                i / 2 + 1,
                if i % 2 == 0 { "." } else { "..." },
                ["46-37", "5-14", "41-37", "10-14"][i % 4]
            )),
            _ => {}
        }
        text.push(' ');
    }
    text.push_str("2-0\n");
    text
}

#[test]
fn draughts_records_are_written_the_same_streamed_as_whole() {
    for plies in [1, 7, 500] {
        for named in [true, false] {
            let text = kings(plies, named);
            assert_every_record_streams("draughts-num", text.as_bytes(), false);
            for to in ["draughts-num", "draughts-diag"]
                .into_iter()
                .chain(INTERCHANGE)
            {
                assert_same_both_ways("draughts-num", to, text.as_bytes(), "kings");
            }
        }
    }
    // A board no tag names is inferred from every move (a first reading),
    // then the record is read on it, a run at a time.
    let stream = by_name("draughts-num").unwrap().read.unwrap();
    let opts = ReadOptions {
        run_bytes: Some(0),
        ..ReadOptions::default()
    };
    for named in [true, false] {
        let mut runs = 0;
        let head = stream
            .runs(&kings(50, named), &opts, &mut |piece| {
                runs += usize::from(matches!(piece, Piece::Run(_)));
                Ok(())
            })
            .unwrap()
            .expect("read a run at a time");
        assert!(runs >= 50, "{runs}");
        let inferred = head
            .warnings
            .iter()
            .any(|w| w.kind == kifu::error::Kind::BoardInferred);
        assert_eq!(inferred, !named, "{:?}", head.warnings);
    }
}

#[test]
fn the_bundled_corpus_is_written_the_same_streamed_as_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (dir, from, tos) in [
        ("chess", "pgn", &["pgn", "sllavcco", "sllavcco-html"][..]),
        ("draughts", "pdn", &["draughts-num", "draughts-diag"][..]),
    ] {
        for file in common::files(&root.join(dir), from) {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".diag.pdn") {
                continue;
            }
            let text = std::fs::read(&file).unwrap();
            let from = if from == "pgn" { "pgn" } else { "draughts-num" };
            for to in tos.iter().chain(&INTERCHANGE) {
                assert_same_both_ways(from, to, &text, &name);
            }
        }
    }
}

#[test]
fn named_shared_files_are_written_the_same_streamed_as_whole() {
    for (family, file, from, to) in [
        ("chess", "twic/twic0920.pgn", "pgn", "pgn"),
        ("chess", "pychess-tests/annotated.pgn", "pgn", "pgn"),
        (
            "draughts",
            "pdn3-testsuite/games/succeed/lpc.pdn",
            "draughts-num",
            "draughts-diag",
        ),
    ] {
        let Some(dir) = common::shared(family) else {
            return;
        };
        let path = dir.join(file);
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let sheets = SHEETS.iter().filter(|_| family == "chess");
        for to in std::iter::once(to)
            .chain(INTERCHANGE)
            .chain(sheets.copied())
        {
            assert_same_both_ways(from, to, &text, file);
        }
    }
}

#[test]
fn the_command_line_streams_a_long_record_and_writes_what_it_writes_whole() {
    let dir = scratch("streaming", "cli");
    let text = knights(60_000, false);
    assert!(
        text.len() > 16 * kifu::container::RUN_BYTES,
        "{}",
        text.len()
    );
    let input = dir.join("long.pgn");
    // Between two short games: the long one's text, spilled to a temporary
    // file (past 1 MiB), goes to the output in its place.
    let short = knights(3, false);
    std::fs::write(&input, format!("{short}\n{text}\n{short}")).unwrap();
    let input = input.to_str().unwrap();
    // (svg holds one game: drawn below; html, a page of frames: below.)
    for to in std::iter::once("pgn").chain(
        INTERCHANGE
            .into_iter()
            .filter(|to| !matches!(*to, "svg" | "html")),
    ) {
        let streamed = kifu(&["convert", "--to", to, input], b"");
        let whole = kifu(&["convert", "--to", to, "--read-whole", input], b"");
        assert!(streamed.status.success(), "{to}: {}", stderr(&streamed));
        assert!(
            stdout(&streamed).len() > 2 * kifu::output::spill::SPILL_AT || to == "pgn",
            "{to}: spilled"
        );
        assert_eq!(stdout(&streamed), stdout(&whole), "{to}");
        assert_eq!(stderr(&streamed), stderr(&whole), "{to}");
        assert!(
            stderr(&streamed).contains("converted 3 games, 0 failed"),
            "{to}"
        );
    }
}

#[test]
fn a_long_record_is_drawn_the_same_streamed_as_whole_at_any_ply() {
    let dir = scratch("streaming", "svg");
    let text = knights(40_000, true);
    assert!(
        text.len() > 16 * kifu::container::RUN_BYTES,
        "{}",
        text.len()
    );
    let input = dir.join("long.pgn");
    std::fs::write(&input, &text).unwrap();
    let input = input.to_str().unwrap();
    // The start, a ply in the first run, one far on, the last, past it.
    for ply in ["", "ply=0", "ply=1", "ply=29999", "ply=40000", "ply=40001"] {
        let run = |more: &[&str]| {
            let mut args = vec!["convert", "--to", "svg", input];
            if !ply.is_empty() {
                args.extend(["--to-opt", ply]);
            }
            args.extend(more);
            kifu(&args, b"")
        };
        let (streamed, whole) = (run(&[]), run(&["--read-whole"]));
        assert_eq!(stdout(&streamed), stdout(&whole), "{ply}");
        assert_eq!(stderr(&streamed), stderr(&whole), "{ply}");
        match ply {
            "ply=40001" => assert!(stderr(&streamed).contains("the game has 40000 plies")),
            _ => assert!(
                stdout(&streamed).starts_with("<?xml"),
                "{ply}: {}",
                stderr(&streamed)
            ),
        }
    }
}

/// Issue 34: a long record to the `html` viewer, streamed (its frames
/// written as its runs come, past 1 MiB to a temporary file), gives the
/// page it gives whole, at any ply it opens on, first in the page (which
/// names the page) or between two others.
#[test]
fn a_long_record_is_viewed_the_same_streamed_as_whole_at_any_ply() {
    let dir = scratch("streaming", "html");
    let text = knights(1_500, true);
    let short = knights(3, false);
    let (alone, between) = (dir.join("alone.pgn"), dir.join("between.pgn"));
    std::fs::write(&alone, &text).unwrap();
    std::fs::write(&between, format!("{short}\n{text}\n{short}")).unwrap();
    for input in [&alone, &between] {
        let input = input.to_str().unwrap();
        for ply in [
            "",
            "ply=0",
            "ply=1",
            "ply=900",
            "ply=1500",
            "ply=1501",
            "ply=99999",
        ] {
            let run = |how: &[&str]| {
                let mut args = vec!["convert", "--to", "html", input];
                args.extend(how);
                if !ply.is_empty() {
                    args.extend(["--to-opt", ply]);
                }
                kifu(&args, b"")
            };
            let (streamed, whole) = (run(&["--run-bytes", "1000"]), run(&["--read-whole"]));
            assert!(streamed.status.success(), "{ply}: {}", stderr(&streamed));
            let page = stdout(&streamed);
            assert!(page.len() > 2 * kifu::output::spill::SPILL_AT, "spilled");
            assert_eq!(page, stdout(&whole), "{input} {ply}");
            assert_eq!(stderr(&streamed), stderr(&whole), "{ply}");
            assert!(page.contains("<title>streamed</title>"), "{ply}");
            assert!(!page.contains("<ID>"), "every id put in");
            // One frame shown per section.
            let shown = page.matches("display=\"inline\"").count();
            assert_eq!(shown, page.matches("<section").count(), "{ply}");
        }
    }
}

/// Issue 34: a long record to the scoresheet and its printable page,
/// streamed (each grid line written as its run comes; a page written once
/// the next begins, its title, header and number of pages put in at the
/// end), gives what it gives whole: one page, several, a game that starts
/// with Black, first in the output (which names the page) or between two
/// others; the grid lines of the first run are not all the first page's.
#[test]
fn a_long_record_is_written_on_a_scoresheet_the_same_streamed_as_whole() {
    let dir = scratch("streaming", "sheets");
    let short = knights(3, false);
    for (plies, setup) in [(30, false), (130, true), (3_000, true)] {
        let text = knights(plies, setup);
        let (alone, between) = (dir.join("alone.pgn"), dir.join("between.pgn"));
        std::fs::write(&alone, &text).unwrap();
        std::fs::write(&between, format!("{short}\n{text}\n{short}")).unwrap();
        for input in [&alone, &between] {
            let input = input.to_str().unwrap();
            for to in SHEETS {
                let run = |how: &[&str]| {
                    let mut args = vec!["convert", "--to", to, input];
                    args.extend(how);
                    kifu(&args, b"")
                };
                let (streamed, whole) = (run(&["--run-bytes", "100"]), run(&["--read-whole"]));
                assert!(streamed.status.success(), "{to}: {}", stderr(&streamed));
                assert_eq!(stdout(&streamed), stdout(&whole), "{to} {plies} {input}");
                assert_eq!(stderr(&streamed), stderr(&whole), "{to} {plies}");
                let page = stdout(&streamed);
                assert!(!page.contains("<kifu-"), "every mark filled");
                if to == "sllavcco-html" {
                    assert!(page.contains("<title>streamed</title>"), "{plies}");
                    let pages = page.matches("<section class=\"sheet\"").count();
                    assert!(pages > usize::from(plies > 200), "{plies}: {pages} pages");
                }
            }
        }
    }
}

/// pgn reads a record one way: the stream's walk, never cut, with the
/// visitor that builds the game (`container::read_record`), the grammar
/// only where the fast lexer does not take the record. Its moves are
/// resolved once its text is read, as before: a record that fails at its
/// text and at a move fails at its text, one whose Result tag is its last
/// "move" says so before the moves fail, and otherwise the first illegal
/// move is named, with where and in which position, the same read with
/// the fast lexer or the grammar.
#[test]
fn a_record_read_whole_fails_at_its_text_before_its_moves() {
    let read = by_name("pgn").unwrap().read.unwrap();
    let lexed = kifu::family::chess::pgn::lexed_fast;
    let fails = |text: &str| {
        let whole = read.game(text, &ReadOptions::default()).unwrap_err();
        let grammar = ReadOptions {
            grammar_only: true,
            ..ReadOptions::default()
        };
        assert_eq!(read.game(text, &grammar).unwrap_err(), whole, "{text}");
        whole
    };
    let text = "[Event \"e\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Nf3 !? !! *\n";
    assert!(lexed(text));
    let e = fails(text);
    assert_eq!((e.line, e.col), (3, 31), "{e:?}");
    assert!(e.message.contains("a second glyph"), "{e:?}");
    for (text, at) in [
        ("[Event \"e\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n", (3, 13)),
        // (A variation is resolved after its move, before the moves
        // after it.)
        (
            "[Event \"e\"]\n\n1. e4 e5 2. Nf3 (2. Ke3) Nc6 3. Kf1 *\n",
            (3, 21),
        ),
        (
            "[Event \"e\"]\n\n1. e4 e5 2. Nf3 (2. Nf3 Nc6 3. Ke3) *\n",
            (3, 32),
        ),
    ] {
        assert!(lexed(text));
        let e = fails(text);
        assert_eq!((e.line, e.col), at, "{text}: {e:?}");
        assert!(e.message.contains("(position: "), "{e:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 6,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Issue 34: no size decides the path. Files of chess and draughts
    /// records of any length (one ply to many runs; the draughts board named
    /// or not) are each read a run at a time by their format's walk with
    /// the default options, and the command line converts them by default
    /// to what it writes whole (`--read-whole`): the same text and messages,
    /// to their own notation and to jsonl.
    #[test]
    fn records_of_any_size_are_streamed_and_written_as_whole(
        sizes in proptest::collection::vec(
            proptest::prop_oneof![1usize..40, 40usize..400, 2_000usize..4_000],
            1..5,
        ),
        named in proptest::prelude::any::<bool>(),
    ) {
        let dir = scratch("streaming", "any_size");
        for (from, ext) in [("pgn", "pgn"), ("draughts-num", "pdn")] {
            let records: Vec<String> = sizes
                .iter()
                .map(|&n| if from == "pgn" { knights(n, named) } else { kings(n, named) })
                .collect();
            let walk = by_name(from).unwrap().read.unwrap();
            for record in &records {
                let read = walk.runs(record, &ReadOptions::default(), &mut |_| Ok(()));
                proptest::prop_assert!(
                    matches!(read, Ok(Some(_))),
                    "{} of {} bytes not read a run at a time: {:?}",
                    from,
                    record.len(),
                    read
                );
            }
            let input = dir.join(format!("games.{ext}"));
            std::fs::write(&input, records.join("\n")).unwrap();
            let input = input.to_str().unwrap();
            for to in [from, "jsonl"] {
                let run = |how: &[&str]| {
                    let mut args = vec!["convert", "--from", from, "--to", to, input];
                    args.extend(how);
                    kifu(&args, b"")
                };
                let (streamed, whole) = (run(&[]), run(&["--read-whole"]));
                proptest::prop_assert!(streamed.status.success(), "{}", stderr(&streamed));
                proptest::prop_assert_eq!(stdout(&streamed), stdout(&whole), "{} -> {}", from, to);
                proptest::prop_assert_eq!(stderr(&streamed), stderr(&whole), "{} -> {}", from, to);
                let games = if records.len() == 1 { "game" } else { "games" };
                let converted = format!("converted {} {games}, 0 failed", records.len());
                proptest::prop_assert!(stderr(&streamed).contains(&converted), "{}", stderr(&streamed));
            }
        }
    }
}
