//! Issue 34, "every output streams", for otn and tenjiku: legal games
//! (played by the families' rules from bytes), with comments and nested
//! variations, read a run at a time (cut before every turn) and written
//! the same as read whole, bytes and messages, validated and not, to
//! their own notation, each other's of their family and every
//! interchange output; the bundled records too; and the command line on
//! a file past the size records stream from.

use std::path::Path;

use kifu::codec::{Piece, ReadOptions, WriteOptions};
use kifu::family::hnefatafl::rules::{self, Position, Rules};
use kifu::family::hnefatafl::{Square, Step, ATTACKERS};
use kifu::format::by_name;
use kifu::ir::Side;

use crate::common::{self, kifu, scratch, stderr, stdout};
use crate::streaming::assert_same_both_ways;

/// The outputs of any family a record streams to.
const INTERCHANGE: [&str; 6] = ["json", "jsonl", "xml", "csv", "svg", "html"];

/// Bytes from a seed (xorshift), the first the seed's own (the generated
/// games of this file and family_runs.rs's coerceo games).
pub(crate) fn bytes(seed: u32, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12_345);
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if i == 0 {
                seed as u8
            } else {
                (x >> 8) as u8
            }
        })
        .collect()
}

/// Every record of `text` is read a run at a time by `from`'s stream
/// (cut before every turn) and handed whole to the writer of each of
/// `outputs`, which takes every piece and ends: the streamed way is the
/// one compared, not a fall-back to the whole (validated, and not).
fn assert_streams_to(from: &str, outputs: &[&str], text: &[u8]) {
    let f = by_name(from).unwrap();
    let reader = f.read.filter(|r| r.walks()).expect("a format that streams");
    let mut records = kifu::archive::Records::new(text, f.split);
    let mut all = 0;
    while let Some(batch) = records.next_batch(1 << 20).unwrap() {
        for r in batch.records.iter().filter(|r| r.is_game) {
            all += 1;
            let record = std::str::from_utf8(&batch.data[r.range.clone()]).unwrap();
            for no_validate in [false, true] {
                let opts = ReadOptions {
                    no_validate,
                    run_bytes: Some(0),
                    ..ReadOptions::default()
                };
                for to in outputs {
                    let picture = by_name(to).unwrap().read.is_none();
                    if picture && no_validate {
                        continue;
                    }
                    let mut writer = (by_name(to).unwrap().runs.unwrap())(&WriteOptions::default());
                    let mut out = String::new();
                    let read = reader.runs(record, &opts, &mut |piece| match piece {
                        Piece::Head(head) => writer.begin(head, &mut out),
                        Piece::Run(run) => writer.run(run, &mut out),
                        Piece::Open => writer.open(&mut out),
                        Piece::Close(trailing) => writer.close(trailing, &mut out),
                    });
                    let head = match read {
                        Ok(Some(parsed)) => parsed.game,
                        other => panic!("{from} -> {to}: not streamed: {other:?}\n{record}"),
                    };
                    let ended = writer.end(&head, &mut String::new(), &mut out);
                    assert!(ended.is_ok(), "{from} -> {to}: {ended:?}\n{record}");
                }
            }
        }
    }
    assert!(all > 0, "no records");
}

/// Every step of `side` from `pos` that the rules allow (along a rank or
/// a file, any distance).
fn steps(pos: &Position<'_>, dim: u8, side: Side) -> Vec<Step> {
    let mut out = Vec::new();
    for file in 0..dim {
        for rank in 0..dim {
            let from = Square { file, rank };
            if pos.piece(from).is_none() {
                continue;
            }
            for (df, dr) in [(0i16, 1i16), (0, -1), (1, 0), (-1, 0)] {
                for d in 1..i16::from(dim) {
                    let (f, r) = (i16::from(file) + df * d, i16::from(rank) + dr * d);
                    if !(0..i16::from(dim)).contains(&f) || !(0..i16::from(dim)).contains(&r) {
                        break;
                    }
                    let step = Step {
                        from,
                        via: Vec::new(),
                        to: Square {
                            file: f as u8,
                            rank: r as u8,
                        },
                        captures: Vec::new(),
                        mark: None,
                    };
                    if pos.check_step(&step, side).is_ok() {
                        out.push(step);
                    }
                }
            }
        }
    }
    out
}

/// A legal tafl game played from `data` on `preset`'s rules (each byte
/// picks a step of those the side to move has), with a comment now and
/// then and, where a byte is 3 past a multiple of 7, a variation of the
/// ply (another step from the position before it, then up to two more,
/// nested two deep at most), in tafl notation: captures listed (`full`)
/// or left to the rules.
fn tafl_game(preset: &str, data: &[u8], full: bool) -> String {
    /// Plays at most `plies` plies of a line from `pos`.
    #[allow(clippy::too_many_arguments)]
    fn line(
        mut pos: Position<'_>,
        dim: u8,
        bytes: &mut std::slice::Iter<'_, u8>,
        mut ply: usize,
        plies: usize,
        depth: usize,
        full: bool,
        text: &mut String,
    ) {
        for k in 0..plies {
            if pos.is_over() {
                return;
            }
            let side = if ply.is_multiple_of(2) {
                ATTACKERS
            } else {
                ATTACKERS.other()
            };
            let steps = steps(&pos, dim, side);
            let Some(&c) = bytes.next().filter(|_| !steps.is_empty()) else {
                return;
            };
            let before = pos.clone();
            let mut step = steps[usize::from(c) % steps.len()].clone();
            let played = pos
                .play(&step, side, true)
                .expect("a step of those listed plays");
            if full {
                step.captures = played.captures.clone();
            }
            let n = ply / 2 + 1;
            match (side == ATTACKERS, k == 0) {
                (true, _) => text.push_str(&format!("{n}. ")),
                (false, true) => text.push_str(&format!("{n}... ")),
                (false, false) => {}
            }
            text.push_str(&rules::spelled(&step));
            match c % 7 {
                1 => text.push_str(" {a move}"),
                3 if depth < 2 => {
                    text.push_str(" (");
                    let more = 1 + usize::from(c / 7) % 3;
                    line(before, dim, bytes, ply, more, depth + 1, full, text);
                    text.push(')');
                }
                _ => {}
            }
            text.push(' ');
            ply += 1;
        }
    }
    let rules = Rules::preset(preset).unwrap();
    let mut text = format!("[Rules \"{preset}\"]\n\n");
    let mut data = data.iter();
    line(
        Position::new(&rules),
        rules.dim,
        &mut data,
        0,
        usize::MAX,
        0,
        full,
        &mut text,
    );
    text + "*\n"
}

/// A tafl record as an OpenTafl record, written whole by kifu.
fn as_otn(tafl: &str) -> String {
    let parsed = by_name("tafl")
        .unwrap()
        .read
        .unwrap()
        .game(tafl, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{e:?}\n{tafl}"));
    let mut otn = String::new();
    (by_name("otn").unwrap().write.unwrap())(&parsed.game, &WriteOptions::default(), &mut otn)
        .unwrap();
    otn
}

/// The presets the games are played on: a small board, a large one with
/// its own captures (shield walls, edge forts), and berserk moves.
const PRESETS: [&str; 3] = ["brandubh", "copenhagen", "berserk"];

/// Legal tafl games with variations and comments, captures listed and
/// not (`KIFU_OTN_GAMES` seeds, 6 by default), as OpenTafl records: read
/// a run at a time, each written as it is whole to otn, tafl and every
/// interchange output, messages included; the tafl records to otn too.
#[test]
fn legal_otn_games_are_written_the_same_streamed_as_whole() {
    let games = std::env::var("KIFU_OTN_GAMES").map_or(6, |n| n.parse().unwrap());
    let mut plies = 0;
    for seed in 0..games {
        for preset in PRESETS {
            for full in [false, true] {
                let tafl = tafl_game(preset, &bytes(seed, 120), full);
                plies += tafl.matches(['-']).count();
                let otn = as_otn(&tafl);
                assert_streams_to(
                    "otn",
                    &["otn", "tafl", "json", "csv", "html"],
                    otn.as_bytes(),
                );
                for to in ["otn", "tafl"].into_iter().chain(INTERCHANGE) {
                    assert_same_both_ways("otn", to, otn.as_bytes(), &otn);
                }
                assert_same_both_ways("tafl", "otn", tafl.as_bytes(), &tafl);
            }
        }
    }
    assert!(
        plies > 200 * games as usize,
        "{plies} moves: the games are too short"
    );
}

/// The bundled OpenTafl records (and the shared corpus's, where it is
/// present): each read a run at a time, written as whole.
#[test]
fn the_otn_records_are_written_the_same_streamed_as_whole() {
    let mut files = common::files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tafl"),
        ".otg",
    );
    if let Some(shared) = common::shared_folder("corpus/tafl/opentafl") {
        files.extend(common::files(&shared, ".otg"));
    }
    assert!(!files.is_empty());
    for file in files {
        let name = file.display().to_string();
        let text = std::fs::read(&file).unwrap();
        assert_streams_to("otn", &["otn", "tafl", "json"], &text);
        for to in ["otn", "tafl"].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways("otn", to, &text, &name);
        }
    }
}

/// A legal tenjiku game played from `data` from the start (each byte
/// picks a piece of the side to move, then one of the steps it may make
/// to a square at most three files and ranks away, promoting where it
/// may when the byte is odd), with comments and variations as
/// [`tafl_game`]'s; and how many promotions and captures it holds.
fn tenjiku_game(data: &[u8]) -> (String, usize) {
    use kifu::family::tenjiku::rules::{check, Board};
    use kifu::family::tenjiku::{hooks, Move, Options, Square as TSquare};
    /// The moves of `side`'s piece picked by `c` (the first of them, on,
    /// that has one).
    fn moves(board: &Board, side: Side, c: u8) -> Vec<Move> {
        let men: Vec<_> = board.pieces().filter(|(_, m)| m.side == side).collect();
        for k in 0..men.len() {
            let (from, man) = men[(usize::from(c) + k) % men.len()];
            let name = from.to_string();
            let digits = name.bytes().take_while(u8::is_ascii_digit).count();
            let (file, rank) = (
                name[..digits].parse::<i32>().unwrap(),
                name.as_bytes()[digits],
            );
            let mut out = Vec::new();
            for df in -3..=3i32 {
                for dr in -3..=3i32 {
                    let (f, r) = (file + df, i32::from(rank) + dr);
                    if (df, dr) == (0, 0) || !(1..=16).contains(&f) || !(97..=112).contains(&r) {
                        continue;
                    }
                    let to = TSquare::parse(&format!("{f}{}", r as u8 as char)).unwrap();
                    for promote in [false, true] {
                        let mv = Move {
                            piece: man.piece,
                            from,
                            via: None,
                            to,
                            promote,
                        };
                        if check(board, side, &mv).is_ok() {
                            out.push(mv);
                        }
                    }
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
        Vec::new()
    }
    #[allow(clippy::too_many_arguments)]
    fn line(
        mut board: Board,
        bytes: &mut std::slice::Iter<'_, u8>,
        mut ply: usize,
        plies: usize,
        depth: usize,
        text: &mut String,
        rare: &mut usize,
    ) {
        for k in 0..plies {
            let side = if ply.is_multiple_of(2) {
                Side::Black
            } else {
                Side::White
            };
            let (Some(&c), Some(&d)) = (bytes.next(), bytes.next()) else {
                return;
            };
            let moves = moves(&board, side, c);
            if moves.is_empty() {
                return;
            }
            let mv = moves[usize::from(d) % moves.len()];
            let before = board.clone();
            let n = ply / 2 + 1;
            match (side == Side::Black, k == 0) {
                (true, _) => text.push_str(&format!("{n}. ")),
                (false, true) => text.push_str(&format!("{n}... ")),
                (false, false) => {}
            }
            *rare += usize::from(mv.promote) + usize::from(board.at(mv.to).is_some());
            hooks::spell(&board, side, &mv, &Options::default(), text);
            board.play(side, &mv);
            match c % 7 {
                1 => text.push_str(" {a move}"),
                3 if depth < 2 => {
                    text.push_str(" (");
                    let more = 1 + usize::from(c / 7) % 3;
                    line(before, bytes, ply, more, depth + 1, text, rare);
                    text.push(')');
                }
                _ => {}
            }
            text.push(' ');
            ply += 1;
        }
    }
    let mut text = String::from("[Event \"legal\"]\n\n");
    let mut rare = 0;
    line(
        Board::start(),
        &mut data.iter(),
        0,
        usize::MAX,
        0,
        &mut text,
        &mut rare,
    );
    (text + "*\n", rare)
}

/// Legal tenjiku games with promotions, captures, comments and
/// variations (`KIFU_TENJIKU_GAMES` seeds, 6 by default): read a run at a
/// time, each written as it is whole to tenjiku and every interchange
/// output, messages included.
#[test]
fn legal_tenjiku_games_are_written_the_same_streamed_as_whole() {
    let games = std::env::var("KIFU_TENJIKU_GAMES").map_or(6, |n| n.parse().unwrap());
    let mut rare = 0;
    for seed in 0..games {
        let (text, r) = tenjiku_game(&bytes(seed, 300));
        rare += r;
        let read = by_name("tenjiku")
            .unwrap()
            .read
            .unwrap()
            .game(&text, &ReadOptions::default());
        assert!(read.is_ok(), "{read:?}\n{text}");
        assert_streams_to(
            "tenjiku",
            &["tenjiku", "json", "csv", "html"],
            text.as_bytes(),
        );
        for to in ["tenjiku"].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways("tenjiku", to, text.as_bytes(), &text);
        }
    }
    assert!(
        rare > 6,
        "{rare} promotions and captures: the games reach too few"
    );
}

/// The bundled tenjiku records: each read a run at a time where the fast
/// lexer takes it, written as whole.
#[test]
fn the_tenjiku_records_are_written_the_same_streamed_as_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tenjiku");
    for file in common::files(&root, ".tenjiku") {
        let name = file.display().to_string();
        let text = std::fs::read(&file).unwrap();
        for to in ["tenjiku"].into_iter().chain(INTERCHANGE) {
            assert_same_both_ways("tenjiku", to, &text, &name);
        }
    }
}

/// The command line: a file of legal games of `from` and one record of
/// many runs (`long`), converted with a cut before every move
/// (`--run-bytes 0`), at the default cut and whole (`--read-whole`) to
/// each of `outputs`: the same output and messages.
pub fn assert_the_command_line_streams(from: &str, games: &str, long: &str, outputs: &[&str]) {
    assert!(
        long.len() > 16 * kifu::container::RUN_BYTES,
        "{}",
        long.len()
    );
    let dir = scratch("otn_tenjiku_runs", from);
    let input = dir.join(format!("games.{}", by_name(from).unwrap().extensions[0]));
    std::fs::write(&input, format!("{games}{long}")).unwrap();
    let input = input.to_str().unwrap();
    for to in outputs {
        let one_game = by_name(to).unwrap().one_game;
        let run = |how: &[&str]| {
            let out_dir = dir.join(format!("{to}-{}", how.join("")));
            let out_dir = out_dir.to_str().unwrap();
            let mut args = vec!["convert", "--from", from, "--to", to, input];
            args.extend(how);
            if one_game {
                let _ = std::fs::remove_dir_all(out_dir);
                args.extend(["--out-dir", out_dir]);
            }
            let out = kifu(&args, b"");
            assert!(out.status.success(), "{to}: {out:?}");
            let mut written = stdout(&out);
            if one_game {
                let mut files: Vec<_> = std::fs::read_dir(out_dir)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                files.sort();
                for file in files {
                    written.push_str(&std::fs::read_to_string(file).unwrap());
                }
            }
            (written, stderr(&out).replace(out_dir, "DIR"))
        };
        let whole = run(&["--read-whole"]);
        assert!(!whole.0.is_empty(), "{to}");
        assert_eq!(run(&["--run-bytes", "0"]), whole, "{to}");
        assert_eq!(run(&[]), whole, "{to}");
    }
}

#[test]
fn the_command_line_streams_otn_records() {
    let mut games = String::new();
    for seed in 100..104 {
        games.push_str(&as_otn(&tafl_game(
            "brandubh",
            &bytes(seed, 100),
            seed % 2 == 0,
        )));
    }
    // A long game: an attacker and a defender going to and fro, with a
    // comment and a variation now and then.
    let mut tafl = String::from("[Event \"long\"]\n[Rules \"brandubh\"]\n\n");
    let moves = ["d2-e2", "c4-c5", "e2-d2", "c5-c4"];
    for i in 0..24_000 {
        if i % 2 == 0 {
            tafl.push_str(&format!("{}. ", i / 2 + 1));
        }
        tafl.push_str(moves[i % 4]);
        // (9 past a multiple of 98: a ply of the second side.)
        match i % 98 {
            5 => tafl.push_str(" {to and fro}"),
            9 => {
                let other = if i % 4 == 1 { "c4-c6" } else { "c5-c6" };
                tafl.push_str(&format!(" ({}... {other})", i / 2 + 1));
            }
            _ => {}
        }
        tafl.push(' ');
    }
    tafl.push_str("*\n");
    let long = as_otn(&tafl);
    assert_the_command_line_streams(
        "otn",
        &games,
        &long,
        &["otn", "tafl", "json", "jsonl", "xml", "csv", "svg", "html"],
    );
}

#[test]
fn the_command_line_streams_tenjiku_records() {
    let mut games = String::new();
    for seed in 100..104 {
        games.push_str(&tenjiku_game(&bytes(seed, 200)).0);
        games.push('\n');
    }
    // A long game: two kings alone going to and fro, with a comment and a
    // variation now and then.
    let mut long = String::from(
        "[Event \"long\"]\n[SetUp \"1\"]\n[FEN \"8,k,7/16/16/16/16/16/16/16/16/16/16/16/16/16/16/7,K,8 b\"]\n\n",
    );
    let moves = ["K-9o", "K-8b", "K-9p", "K-8a"];
    for i in 0..36_000 {
        if i % 2 == 0 {
            long.push_str(&format!("{}. ", i / 2 + 1));
        }
        long.push_str(moves[i % 4]);
        // (9 past a multiple of 98: a ply of the second side.)
        match i % 98 {
            5 => long.push_str(" {to and fro}"),
            9 => long.push_str(&format!(" ({}... K-7b)", i / 2 + 1)),
            _ => {}
        }
        long.push(' ');
    }
    long.push_str("*\n");
    assert_the_command_line_streams(
        "tenjiku",
        &games,
        &long,
        &["tenjiku", "json", "jsonl", "xml", "csv", "svg", "html"],
    );
}
