//! Every draughts record reads what its world writes, second round (issue
//! 35), each class on generated games through the `kifu` binary, read
//! whole and a run at a time:
//! - a record's `Variant` tag decides its rules: PlayStrategy's exports of
//!   every draughts variant it plays (its names, no GameType, 8x8 squares
//!   written a1-h8 with a1 the first mover's bottom left, mirrored for its
//!   Spanish), read as the PDN game of that name; an unknown name is a
//!   warning, the board inferred as before;
//! - inference tries the rules the squares could be played by: tagless
//!   Frisian games (orthogonal captures) on the international board, and an
//!   alphanumeric FEN tag without GameType read with the moves;
//! - Russian short notation with comments, variations, no GameType, and a
//!   move two pieces of its file could make, settled by the moves after it;
//! - kifu reads back what it writes: a position setup in the movetext,
//!   num -> diag -> num as num -> num.

use crate::common::*;
use crate::draughts_world::{fen, game_types, random_game, read_all, spell, Cells, GenMove, Rng};
use crate::streaming::{both_ways, streamed_records};
use kifu::family::draughts::{Board, Square};
use kifu::ir::Side;

/// Numbered plies as text: each move spelled by `square`, `x` (or `sep`)
/// between the squares of a capture, the first ply `first` of the game
/// (0: the first mover's first move).
fn plies(
    moves: &[GenMove],
    first: usize,
    sep: &str,
    square: &dyn Fn((i32, i32)) -> String,
) -> String {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        let j = first + i;
        if j.is_multiple_of(2) {
            out.push_str(&format!("{}. ", j / 2 + 1));
        } else if i == 0 {
            out.push_str(&format!("{}... ", j / 2 + 1));
        }
        let squares: Vec<String> = m.path.iter().map(|&p| square(p)).collect();
        out.push_str(&squares.join(if m.capture { sep } else { "-" }));
        out.push(' ');
    }
    out
}

/// PlayStrategy's draughts variants: the name its `Variant` tag writes
/// (its `variantName` translations) and the PDN GameType of that game.
const PLAYSTRATEGY: &[(&str, u8)] = &[
    ("International", 20),
    ("Frisian", 40),
    ("Frysk!", 97),
    ("Antidraughts", 98),
    ("BRKTHRU", 96),
    ("From Position", 99),
    ("Russian", 25),
    ("Brazilian", 26),
    ("American/English", 21),
    ("Pool", 23),
    ("Spanish", 24),
];

/// A square as PlayStrategy writes it: numbered as lidraughts on 10x10,
/// a1-h8 on 8x8 with a1 the bottom left corner of the side that moves
/// first (seen by Black where Black starts), mirrored where that corner is
/// not a playing square (its Spanish).
/// Writes `text` as the file `name` of the test's scratch folder and
/// converts it from draughts-num to `to` with the CLI, as a user does: the
/// file and the run.
fn convert_file(
    test: &str,
    name: &str,
    text: &str,
    to: &str,
) -> (std::path::PathBuf, std::process::Output) {
    let file = scratch("draughts_variants", test).join(name);
    std::fs::write(&file, text).unwrap();
    let run = kifu(
        &[
            "convert",
            "--from",
            "draughts-num",
            "--to",
            to,
            file.to_str().unwrap(),
        ],
        b"",
    );
    (file, run)
}

fn playstrategy_square(board: &Board, (c, r): (i32, i32)) -> String {
    if board.height == 10 {
        return spell(board, (c, r));
    }
    let (file, rank) = if board.first == Side::Black {
        (9 - c, 9 - r)
    } else if (c + r) % 2 == 0 {
        (c, r)
    } else {
        (9 - c, r)
    };
    format!("{}{rank}", char::from(b'a' + file as u8 - 1))
}

/// PlayStrategy's tags (no GameType; `P1` and `P2` for the players).
fn playstrategy_tags(name: &str, i: usize) -> String {
    format!(
        "[Event \"Rated {name} game\"]\n[Site \"https://playstrategy.org/g{i:07}\"]\n\
         [Date \"2024.05.0{}\"]\n[P1 \"p{i}\"]\n[P2 \"q{i}\"]\n[Result \"*\"]\n\
         [UTCDate \"2024.05.01\"]\n[UTCTime \"10:00:00\"]\n[P1Elo \"1500\"]\n[P2Elo \"1500\"]\n\
         [Variant \"{name}\"]\n[TimeControl \"180+2\"]\n[ECO \"?\"]\n[Opening \"?\"]\n\
         [Termination \"Normal\"]\n",
        1 + i % 9
    )
}

#[test]
fn playstrategy_exports_of_every_variant_are_read_by_their_variant_tag() {
    for (k, &(name, game_type)) in PLAYSTRATEGY.iter().enumerate() {
        let board = Board::preset(game_type).expect("a board kifu knows");
        let mut rng = Rng(0x51ed_2705_9e3a_11c3 ^ (k as u64 + 3));
        let n = 40;
        let (mut exported, mut own) = (String::new(), String::new());
        for i in 0..n {
            let (moves, ..) = random_game(&board, None, 2 + rng.below(40), &mut rng);
            let tags = playstrategy_tags(name, i);
            let ps = plies(&moves, 0, "x", &|p| playstrategy_square(&board, p));
            exported.push_str(&format!("{tags}\n{ps}*\n\n"));
            // The same game as PDN writes it, its GameType named.
            let pdn = plies(&moves, 0, "x", &|p| spell(&board, p));
            own.push_str(&format!("{tags}[GameType \"{game_type}\"]\n\n{pdn}*\n\n"));
        }
        let (out, err) = read_all(&exported, n, &[]);
        assert!(!err.contains("warning"), "{name}: {err}");
        for value in game_types(&out) {
            assert_eq!(value, game_type.to_string(), "{name}");
        }
        let (expected, _) = read_all(&own, n, &[]);
        assert_eq!(out, expected, "{name}: not the game PDN writes");
        // Read back, and through diagonal coordinates where the board has
        // them (not Spanish's).
        let (again, _) = read_all(&out, n, &[]);
        assert_eq!(again, out, "{name}: not idempotent");
        if board.has_diagonal() {
            let diag = convert("draughts-num", "draughts-diag", &[], out.as_bytes());
            assert_eq!(counts(&diag), (n, 0), "{name}: {}", stderr(&diag));
            let back = convert("draughts-diag", "draughts-num", &[], &diag.stdout);
            assert_eq!(stdout(&back), out, "{name}: num -> diag -> num");
        }
        let (whole, streamed) =
            both_ways("draughts-num", "draughts-num", exported.as_bytes(), false);
        assert_eq!(whole, streamed, "{name}: streamed");
        // The numbered ones are read a run at a time (the alphanumeric
        // squares of 8x8 are left to the grammar, which reads whole); by
        // syntax alone, as a capture that several paths fit at the end of a
        // one-ply run is settled without the moves after it (the record is
        // then read whole, the same).
        let (runs, all) = streamed_records("draughts-num", exported.as_bytes(), true);
        assert_eq!(all, n);
        if board.height == 10 {
            assert_eq!(runs, n, "{name}: not streamed");
        }
    }
}

#[test]
fn an_american_english_export_is_english_checkers_not_russian() {
    // The record: a1-h8, Black first, c3-d4 for 11-15.
    let (file, out) = convert_file(
        "american_english",
        "ps.pdn",
        "[Variant \"American/English\"]\n[Result \"*\"]\n\n1. c3-d4 d6-e5 2. b2-c3 c7-d6 *\n",
        "draughts-num",
    );
    let path = file.to_str().unwrap();
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("[GameType \"21\"]\n\n1. 11-15 23-18 2. 8-11 27-23 *"),
        "{}",
        stdout(&out)
    );
    // Named on the command line, the same.
    let named = kifu(
        &[
            "convert",
            "--from",
            "draughts-num",
            "--to",
            "draughts-num",
            "--variant",
            "english",
            path,
        ],
        b"",
    );
    assert_eq!(stdout(&named), stdout(&out));
    // A move English rules forbid is refused, located: a man moves back.
    std::fs::write(
        &file,
        "[Variant \"American/English\"]\n[Result \"*\"]\n\n1. c3-d4 d6-e5 2. d4-c3 *\n",
    )
    .unwrap();
    let bad = kifu(
        &[
            "convert",
            "--from",
            "draughts-num",
            "--to",
            "draughts-num",
            path,
        ],
        b"",
    );
    assert_eq!(counts(&bad), (0, 1));
    assert!(
        stderr(&bad)
            .contains("ps.pdn:4:19: error: game 1: 2. d4-c3: a man does not move backwards"),
        "{}",
        stderr(&bad)
    );
    // A name kifu does not know: a warning, the board inferred as before.
    std::fs::write(&file, "[Variant \"Crazyhouse\"]\n\n1. 32-28 19-23 *\n").unwrap();
    let unknown = kifu(
        &[
            "convert",
            "--from",
            "draughts-num",
            "--to",
            "draughts-num",
            path,
        ],
        b"",
    );
    assert_eq!(counts(&unknown), (1, 0));
    let err = stderr(&unknown);
    assert!(
        err.contains("ps.pdn:1:1: warning[unknown-variant]: game 1: Variant `Crazyhouse` is no draughts game kifu knows"),
        "{err}"
    );
    assert!(err.contains("warning[board-inferred]"), "{err}");
    assert!(stdout(&unknown).contains("[GameType \"20\"]"));
}

/// A random game of Frisian draughts' men on the international board with
/// at least one capture along a row or a column (which international rules
/// do not allow): steps forward, captures in the eight directions going on
/// where they can, written hop by hop (captures taken first, those along a
/// line when there are), no man on its far row.
fn frisian_game(rng: &mut Rng, plies: usize) -> Vec<GenMove> {
    let board = Board::INTERNATIONAL;
    loop {
        let mut cells = Cells::new();
        for n in 1..=board.square_count() {
            let (c, r) = board.coords(Square(n)).unwrap();
            if let Some(s) = board.starting_side(Square(n)) {
                cells.insert((i32::from(c), i32::from(r)), s);
            }
        }
        let mut side = Side::White;
        let (mut moves, mut orthogonal) = (Vec::new(), false);
        for _ in 0..plies {
            let dir = if side == Side::White { 1 } else { -1 };
            let far = |r: i32| if side == Side::White { r == 10 } else { r == 1 };
            let free = |c: i32, r: i32, cells: &Cells| {
                (1..=10).contains(&c)
                    && (1..=10).contains(&r)
                    && !far(r)
                    && !cells.contains_key(&(c, r))
            };
            let (mut steps, mut diagonal, mut lines) = (Vec::new(), Vec::new(), Vec::new());
            for (&(c, r), &s) in &cells {
                if s != side {
                    continue;
                }
                for dc in [-1, 1] {
                    if free(c + dc, r + dir, &cells) {
                        steps.push(((c, r), (c + dc, r + dir), None));
                    }
                    for dr in [-1, 1] {
                        let over = (c + dc, r + dr);
                        if cells.get(&over) == Some(&side.other())
                            && free(c + 2 * dc, r + 2 * dr, &cells)
                        {
                            diagonal.push(((c, r), (c + 2 * dc, r + 2 * dr), Some(over)));
                        }
                    }
                }
                for (dc, dr) in [(2, 0), (-2, 0), (0, 2), (0, -2)] {
                    let over = (c + dc, r + dr);
                    if cells.get(&over) == Some(&side.other())
                        && free(c + 2 * dc, r + 2 * dr, &cells)
                    {
                        lines.push(((c, r), (c + 2 * dc, r + 2 * dr), Some(over)));
                    }
                }
            }
            let options = if !lines.is_empty() {
                orthogonal = true;
                lines
            } else if !diagonal.is_empty() {
                diagonal
            } else {
                steps
            };
            if options.is_empty() {
                break;
            }
            let (from, to, over) = options[rng.below(options.len())];
            cells.remove(&from);
            let mut path = vec![from, to];
            if let Some(o) = over {
                // The capture goes on where it can (written hop by hop),
                // the pieces taken leaving the board when it ends.
                let mut taken = vec![o];
                let mut at = to;
                loop {
                    let lines = [
                        (1, 1),
                        (1, -1),
                        (-1, 1),
                        (-1, -1),
                        (2, 0),
                        (-2, 0),
                        (0, 2),
                        (0, -2),
                    ];
                    let next: Vec<_> = lines
                        .iter()
                        .map(|&(dc, dr)| ((at.0 + dc, at.1 + dr), (at.0 + 2 * dc, at.1 + 2 * dr)))
                        .filter(|&(over, land)| {
                            cells.get(&over) == Some(&side.other())
                                && !taken.contains(&over)
                                && free(land.0, land.1, &cells)
                        })
                        .collect();
                    if next.is_empty() {
                        break;
                    }
                    let (over, land) = next[rng.below(next.len())];
                    taken.push(over);
                    path.push(land);
                    at = land;
                }
                for t in &taken {
                    cells.remove(t);
                }
            }
            cells.insert(*path.last().unwrap(), side);
            moves.push(GenMove {
                path,
                capture: over.is_some(),
            });
            side = side.other();
        }
        if orthogonal {
            return moves;
        }
    }
}

#[test]
fn a_tagless_frisian_game_is_read_by_frisian_rules() {
    let board = Board::INTERNATIONAL;
    let mut rng = Rng(0x0f1e_2d3c_4b5a_6978);
    let n = 30;
    let (mut tagless, mut named) = (String::new(), String::new());
    for i in 0..n {
        let plies_wanted = 30 + rng.below(50);
        let moves = frisian_game(&mut rng, plies_wanted);
        let text = plies(&moves, 0, "x", &|p| spell(&board, p));
        tagless.push_str(&format!("[Event \"f{i}\"]\n[Result \"*\"]\n\n{text}*\n\n"));
        named.push_str(&format!(
            "[Event \"f{i}\"]\n[Result \"*\"]\n[GameType \"40\"]\n\n{text}*\n\n"
        ));
    }
    let (out, err) = read_all(&tagless, n, &[]);
    assert!(
        err.contains("warning[board-inferred]: game 1: no GameType tag: the moves cannot be played by the rules of the board their squares fit best (GameType 20), and play by Frisian draughts (GameType 40)"),
        "{err}"
    );
    assert!(
        err.contains(&format!("({} more like this)", n - 1)),
        "{err}"
    );
    let (expected, _) = read_all(&named, n, &[]);
    assert_eq!(out, expected);
    // They are no international games.
    let strict = convert(
        "draughts-num",
        "draughts-num",
        &["--variant", "international"],
        tagless.as_bytes(),
    );
    assert_eq!(counts(&strict), (0, n), "{}", stderr(&strict));
    // Read a run at a time, the same.
    let (whole, streamed) = both_ways("draughts-num", "draughts-num", tagless.as_bytes(), false);
    assert_eq!(whole, streamed);
    // The CLI on a file.
    let (_, run) = convert_file("frisian", "frisian.pdn", &tagless, "draughts-diag");
    assert_eq!(counts(&run), (n, 0), "{}", stderr(&run));
    assert_eq!(game_types(&stdout(&run)), vec!["40".to_string(); n]);
}

#[test]
fn an_alphanumeric_fen_without_gametype_is_read_with_its_moves() {
    let board = Board::preset(25).unwrap();
    let mut rng = Rng(0x7a3b_91c2_d4e5_f607);
    let n = 40;
    let (mut tagless, mut named) = (String::new(), String::new());
    for i in 0..n {
        let (_, cells, side) = random_game(&board, None, 2 + rng.below(20), &mut rng);
        let (moves, ..) = random_game(&board, Some((&cells, side)), rng.below(20), &mut rng);
        let f = fen(&cells, side, &board);
        let first = usize::from(side == Side::Black);
        let text = plies(&moves, first, ":", &|p| spell(&board, p));
        tagless.push_str(&format!("[Event \"a{i}\"]\n[FEN \"{f}\"]\n\n{text}*\n\n"));
        named.push_str(&format!(
            "[Event \"a{i}\"]\n[FEN \"{f}\"]\n[GameType \"25\"]\n\n{text}*\n\n"
        ));
    }
    let (out, err) = read_all(&tagless, n, &[]);
    assert!(
        err.contains("read as Russian draughts 8x8 (GameType 25"),
        "{err}"
    );
    let (expected, _) = read_all(&named, n, &[]);
    assert_eq!(out, expected);
    let (whole, streamed) = both_ways("draughts-num", "draughts-num", tagless.as_bytes(), false);
    assert_eq!(whole, streamed);
    // The record, on a file.
    let (_, run) = convert_file(
        "alpha_fen",
        "fen.pdn",
        "[FEN \"W:Wc3:Bf6\"]\n\n1. c3-d4 f6-e5 *\n",
        "draughts-num",
    );
    assert_eq!(counts(&run), (1, 0), "{}", stderr(&run));
    assert!(
        stdout(&run).contains("[GameType \"25\"]\n\n1. c3-d4 f6-e5 *"),
        "{}",
        stdout(&run)
    );
}

/// A square's name on the Russian board (a1 at White's bottom left).
fn alpha((c, r): (i32, i32)) -> String {
    format!("{}{r}", char::from(b'a' + c as u8 - 1))
}

/// A move in Russian short notation: the file moved from, the square
/// reached.
fn short(m: &GenMove) -> String {
    let (c, _) = m.path[0];
    format!(
        "{}{}",
        char::from(b'a' + c as u8 - 1),
        alpha(*m.path.last().unwrap())
    )
}

/// A move in full, as the short one reads.
fn full(m: &GenMove) -> String {
    let sep = if m.capture { ":" } else { "-" };
    format!(
        "{}{sep}{}",
        alpha(m.path[0]),
        alpha(*m.path.last().unwrap())
    )
}

#[test]
fn russian_short_notation_with_comments_variations_and_no_gametype() {
    let board = Board::preset(25).unwrap();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let n = 50;
    let (mut shorts, mut fulls) = (String::new(), String::new());
    let mut read = 0;
    for i in 0..n {
        let k = 1 + rng.below(12);
        let (before, cells, side) = random_game(&board, None, k, &mut rng);
        let (after, ..) = random_game(&board, Some((&cells, side)), 1 + rng.below(20), &mut rng);
        let (var, ..) = random_game(&board, Some((&cells, side)), 1 + rng.below(6), &mut rng);
        if before.len() < k || after.is_empty() || var.is_empty() {
            continue;
        }
        let tag = if i % 2 == 0 {
            ""
        } else {
            "[GameType \"25\"]\n"
        };
        for (out, spell) in [
            (&mut shorts, short as fn(&GenMove) -> String),
            (&mut fulls, full),
        ] {
            let mut text = String::new();
            let words = |moves: &[GenMove], first: usize| {
                let mut t = String::new();
                for (j, m) in moves.iter().enumerate() {
                    let ply = first + j;
                    if ply.is_multiple_of(2) {
                        t.push_str(&format!("{}. ", ply / 2 + 1));
                    } else if j == 0 {
                        t.push_str(&format!("{}... ", ply / 2 + 1));
                    }
                    t.push_str(&spell(m));
                    t.push(' ');
                    if (ply + i).is_multiple_of(5) {
                        t.push_str("{a comment} ");
                    }
                }
                t
            };
            text.push_str(&words(&before, 0));
            text.push_str(&words(&after[..1], k));
            text.push_str(&format!("({}) ", words(&var, k).trim_end()));
            text.push_str(&words(&after[1..], k + 1));
            out.push_str(&format!("[Event \"s{i}\"]\n{tag}\n{text}*\n\n"));
        }
        read += 1;
    }
    let s = convert("draughts-num", "draughts-num", &[], shorts.as_bytes());
    assert_eq!(counts(&s), (read, 0), "{}", stderr(&s));
    assert!(
        stderr(&s).contains("warning[short-notation]"),
        "{}",
        stderr(&s)
    );
    let f = convert("draughts-num", "draughts-num", &[], fulls.as_bytes());
    assert_eq!(counts(&f), (read, 0), "{}", stderr(&f));
    assert_eq!(stdout(&s), stdout(&f));
    let (whole, streamed) = both_ways("draughts-num", "draughts-num", shorts.as_bytes(), false);
    assert_eq!(whole, streamed);
    // The record: no GameType, a plain main line.
    let (_, run) = convert_file(
        "short",
        "short.pdn",
        "1. gf4 fe5 2. hg3 ef6 *\n",
        "draughts-num",
    );
    assert_eq!(counts(&run), (1, 0), "{}", stderr(&run));
    assert!(
        stdout(&run).contains("1. g3-f4 f6-e5 2. h2-g3 e7-f6 *"),
        "{}",
        stdout(&run)
    );
}

#[test]
fn a_short_move_two_pieces_could_make_is_settled_by_the_moves_after_it() {
    // White men on file f at rows r and r + 4, Black men between them so
    // that both capture to the same square; the move after uses the man
    // that did not capture (forward, away from the side `d` of the
    // captures): only one choice lets the game go on. Black answers b8-a7.
    let mut records = String::new();
    let mut expected = Vec::new();
    for file in 2..=7 {
        for d in [-1, 1] {
            for r in 1..=3 {
                if (file + r) % 2 != 0 {
                    continue;
                }
                let low = (file, r);
                let high = (file, r + 4);
                let over_low = (file + d, r + 1);
                let over_high = (file + d, r + 3);
                let land = (file + 2 * d, r + 2);
                if !(1..=8).contains(&land.0) {
                    continue;
                }
                let (black, black_to) = ((2, 8), (1, 7));
                for lower_captures in [true, false] {
                    // The man left moves on: forward, away from the
                    // captured pieces' side.
                    let (left, captured) = if lower_captures {
                        (high, over_low)
                    } else {
                        (low, over_high)
                    };
                    let next = (left.0 - d, left.1 + 1);
                    if !(1..=8).contains(&next.0) || next == black_to || next.1 > 8 {
                        continue;
                    }
                    let f = format!(
                        "W:W{},{}:B{},{},{}",
                        alpha(low),
                        alpha(high),
                        alpha(over_low),
                        alpha(over_high),
                        alpha(black)
                    );
                    let name = |sq| alpha(sq);
                    let file_of = |sq: (i32, i32)| char::from(b'a' + sq.0 as u8 - 1);
                    records.push_str(&format!(
                        "[FEN \"{f}\"]\n\n1. {}{} {}{} 2. {}{} *\n\n",
                        file_of(low),
                        name(land),
                        file_of(black),
                        name(black_to),
                        file_of(left),
                        name(next)
                    ));
                    let mover = if lower_captures { low } else { high };
                    let _ = captured;
                    expected.push(format!(
                        "1. {}:{} {}-{} 2. {}-{} *",
                        alpha(mover),
                        alpha(land),
                        alpha(black),
                        alpha(black_to),
                        alpha(left),
                        alpha(next)
                    ));
                }
            }
        }
    }
    assert!(expected.len() > 10, "{}", expected.len());
    let out = convert("draughts-num", "draughts-num", &[], records.as_bytes());
    assert_eq!(
        counts(&out),
        (expected.len(), 0),
        "{}\n{records}",
        stderr(&out)
    );
    let text = stdout(&out);
    for want in &expected {
        assert!(text.contains(want.as_str()), "{want}\n{text}");
    }
    // Nothing after it: the move is refused, located, saying why.
    let open = "[FEN \"W:Wc3,c7:Bd4,d6,h8\"]\n\n1. ce5 *\n";
    let out = convert("draughts-num", "draughts-num", &[], open.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains("-:3:4: error: game 1: `ce5` (Russian short notation): more than one piece of White on file c can go to e5, and the moves after it do not tell which"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_setup_in_the_movetext_reads_back_from_every_output() {
    let mut rng = Rng(0x5eed_0f5e_7c0d_e123);
    let n = 40;
    let mut records = String::new();
    for (k, gt) in [20u8, 21, 25].into_iter().enumerate() {
        let board = Board::preset(gt).unwrap();
        for i in 0..n {
            let (before, ..) = random_game(&board, None, 1 + rng.below(6), &mut rng);
            let (_, cells, side) = random_game(&board, None, 4 + rng.below(20), &mut rng);
            let (moves, ..) =
                random_game(&board, Some((&cells, side)), 1 + rng.below(20), &mut rng);
            let sep = if gt == 25 { ":" } else { "x" };
            let lead = plies(&before, 0, sep, &|p| spell(&board, p));
            let f = fen(&cells, side, &board);
            // Moves after a setup are numbered afresh.
            let first = usize::from(side != board.first);
            let text = plies(&moves, first, sep, &|p| spell(&board, p));
            records.push_str(&format!(
                "[Event \"m{k}{i}\"]\n[GameType \"{gt}\"]\n\n{lead}/FEN \"{f}\"/ {text}*\n\n"
            ));
        }
    }
    let all = 3 * n;
    let num = convert("draughts-num", "draughts-num", &[], records.as_bytes());
    assert_eq!(counts(&num), (all, 0), "{}", stderr(&num));
    let canonical = num.stdout;
    assert_eq!(
        canonical.windows(6).filter(|w| w == b"{FEN \"").count(),
        all
    );
    // kifu's own output reads back as it was read: num, and through diag.
    let again = convert("draughts-num", "draughts-num", &[], &canonical);
    assert_eq!(counts(&again), (all, 0), "{}", stderr(&again));
    assert!(again.stdout == canonical, "num -> num is not idempotent");
    assert!(
        stderr(&again).contains("warning[setup-in-moves]"),
        "{}",
        stderr(&again)
    );
    let diag = convert("draughts-num", "draughts-diag", &[], &canonical);
    assert_eq!(counts(&diag), (all, 0), "{}", stderr(&diag));
    let back = convert("draughts-diag", "draughts-num", &[], &diag.stdout);
    assert_eq!(counts(&back), (all, 0), "{}", stderr(&back));
    assert!(
        back.stdout == canonical,
        "num -> diag -> num differs from num -> num"
    );
    // The record, on a file.
    let (file, to_diag) = convert_file(
        "setup",
        "mid.pdn",
        "[GameType \"20\"]\n\n1. 32-28 19-23 /FEN \"W:W28,40:B23,12\"/ 2. 28x19 12-17 *\n",
        "draughts-diag",
    );
    let written = file.with_file_name("mid.diag.pdn");
    std::fs::write(&written, &to_diag.stdout).unwrap();
    let read = kifu(
        &[
            "convert",
            "--from",
            "draughts-diag",
            "--to",
            "draughts-num",
            written.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(counts(&read), (1, 0), "{}", stderr(&read));
    assert!(
        stdout(&read).contains("1. 32-28 19-23 {FEN \"W:W28,40:B23,12\"} 2. 28x19 12-17 *"),
        "{}",
        stdout(&read)
    );
}

/// Russian short notation read by hand (`num::short_moves`): a stray `}`
/// made its loop stand still, and the reader never returned (found by
/// `properties::pdn_shaped_noise_never_panics`). Every byte that ends a
/// word, put at every place of a short record, reads or fails within
/// seconds.
#[test]
fn short_notation_with_any_stray_mark_ends() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let read = kifu::format::by_name("draughts-num")
            .and_then(|f| f.read)
            .expect("a reader");
        let record = "1. gf4 fe5 2. hg3 ef6 *";
        let mut n = 0;
        for mark in [
            "}", "{", ")", "(", ";", "$", "!", "?", ".", "-", "x", "}}", ")(",
        ] {
            for at in 0..=record.len() {
                let text = format!("{}{mark}{}\n", &record[..at], &record[at..]);
                let _ = read.game(&text, &kifu::codec::ReadOptions::default());
                n += 1;
            }
        }
        tx.send(n).unwrap();
    });
    let n = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("every record read or refused within a minute");
    assert_eq!(n, 13 * 24);
}

/// The games kifu plays alike (the same squares, start and rules), by
/// GameType: lidraughts' breakthrough, antidraughts and games from a
/// position are international draughts; Spanish and Portuguese draughts
/// differ only in name. Every other GameType is a game of its own.
const SAME_GAME: &[&[u8]] = &[&[20, 96, 98, 99], &[24, 28]];

/// A Variant tag beside a GameType tag, every pair of a GameType kifu
/// knows and a name the servers write (spelt as they spell it, or with a
/// last word `draughts`): the GameType decides the board, and where the
/// Variant names another game, a `variant-conflict` warning at the tag
/// says so, one a game; where it names the same game (negative members:
/// the GameType's own name, lidraughts' Standard beside its breakthrough
/// number), nothing is said. Read by the GameType either way: the same
/// output as without the Variant tag, but for the tag.
#[test]
fn a_variant_against_the_gametype_is_said() {
    const TYPES: &[u8] = &[
        20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 40, 96, 97, 98, 99,
    ];
    const NAMES: &[(&str, u8)] = &[
        ("Standard", 20),
        ("International", 20),
        ("Frisian", 40),
        ("Frysk!", 97),
        ("Antidraughts", 98),
        ("Breakthrough", 96),
        ("BRKTHRU", 96),
        ("fromPosition", 99),
        ("From Position", 99),
        ("Russian", 25),
        ("Russian draughts", 25),
        ("Brazilian", 26),
        ("American/English", 21),
        ("English checkers", 21),
        ("Pool", 23),
        ("Spanish", 24),
        ("Portuguese", 28),
        ("Italian", 22),
        ("Canadian", 27),
        ("Czech", 29),
        ("Thai", 31),
    ];
    let group = |gt: u8| SAME_GAME.iter().position(|g| g.contains(&gt));
    let same = |a: u8, b: u8| a == b || group(a).is_some_and(|g| group(b) == Some(g));
    let mut rng = Rng(0x7a11_e2b3_c4d5_e6f7);
    let (mut tagged, mut bare) = (String::new(), String::new());
    let mut conflicts = Vec::new();
    let mut n = 0;
    for &gt in TYPES {
        let board = Board::preset(gt).unwrap();
        for &(name, named) in NAMES {
            n += 1;
            let (moves, ..) = random_game(&board, None, 2 + rng.below(20), &mut rng);
            let text = plies(&moves, 0, "x", &|p| spell(&board, p));
            // Either order of the two tags.
            let (a, b) = (
                format!("[GameType \"{gt}\"]\n"),
                format!("[Variant \"{name}\"]\n"),
            );
            let tags = if n % 2 == 0 { a.clone() + &b } else { b + &a };
            tagged.push_str(&format!("[Event \"g{n}\"]\n{tags}\n{text}*\n\n"));
            bare.push_str(&format!("[Event \"g{n}\"]\n{a}\n{text}*\n\n"));
            if !same(gt, named) {
                conflicts.push(n);
            }
        }
    }
    assert!(
        conflicts.len() > 200 && conflicts.len() < n,
        "{}",
        conflicts.len()
    );
    let (out, err) = read_all(&tagged, n, &["-v"]);
    let said: Vec<usize> = err
        .lines()
        .filter(|l| l.contains("warning[variant-conflict]"))
        .map(|l| {
            let game = l.split("game ").nth(1).unwrap();
            game[..game.find(':').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(said, conflicts, "{err}");
    // Where it is said: at the Variant tag (game 3's second line),
    // naming both games.
    assert!(
        err.contains("-:14:1: warning[variant-conflict]: game 3: Variant `Frisian` names Frisian draughts (GameType 40), the GameType tag `20` international draughts: read by the GameType"),
        "{err}"
    );
    // Read by the GameType: the output of the games without the Variant
    // tag, but for the tag.
    let (expected, _) = read_all(&bare, n, &[]);
    let without: String = out
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("[Variant "))
        .collect();
    assert_eq!(without, expected);
}

/// `--variant` takes every name a Variant tag gives (the servers'
/// spellings): a tagless record read with `--variant NAME` is the record
/// read with `[Variant "NAME"]`, but for the tag. Negative members: a name
/// no server writes is refused, listing the names.
#[test]
fn variant_takes_the_names_the_variant_tag_reads() {
    let mut rng = Rng(0x0ddc_0ffe_e0dd_f00d);
    for &(name, game_type) in PLAYSTRATEGY.iter().chain(&[
        ("Standard", 20),
        ("Breakthrough", 96),
        ("fromPosition", 99),
        ("Russian draughts", 25),
        ("English checkers", 21),
        ("Portuguese", 28),
    ]) {
        let board = Board::preset(game_type).unwrap();
        let n = 10;
        let (mut tagged, mut bare) = (String::new(), String::new());
        for i in 0..n {
            let (moves, ..) = random_game(&board, None, 2 + rng.below(30), &mut rng);
            let text = plies(&moves, 0, "x", &|p| playstrategy_square(&board, p));
            tagged.push_str(&format!(
                "[Event \"v{i}\"]\n[Variant \"{name}\"]\n\n{text}*\n\n"
            ));
            bare.push_str(&format!("[Event \"v{i}\"]\n\n{text}*\n\n"));
        }
        let (want, _) = read_all(&tagged, n, &[]);
        let want: String = want
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("[Variant "))
            .collect();
        let (got, err) = read_all(&bare, n, &["--variant", name]);
        assert_eq!(got, want, "{name}");
        assert!(!err.contains("warning"), "{name}: {err}");
    }
    let out = convert(
        "draughts-num",
        "draughts-num",
        &["--variant", "Turkish"],
        b"*\n",
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("known variants: international"),
        "{}",
        stderr(&out)
    );
}

/// A record in Russian short notation whose FEN tag places a piece off the
/// playing squares fails at the FEN tag, saying so (the record's own
/// error), not with the refusal of its notation: either side to move, with
/// a GameType or none, the FEN tag first or last. Negative member: the same
/// record with the FEN on the board reads.
#[test]
fn a_short_record_with_a_fen_off_the_board_fails_at_the_fen() {
    for side in ["W", "B"] {
        for game_type in ["", "[GameType \"25\"]\n"] {
            for fen_first in [true, false] {
                let tags = |fen: &str| {
                    let fen = format!("[FEN \"{side}:W{fen},c3:Bh8\"]\n");
                    if fen_first {
                        format!("{fen}[Event \"e\"]\n{game_type}")
                    } else {
                        format!("[Event \"e\"]\n{game_type}{fen}")
                    }
                };
                let moves = if side == "W" {
                    "1. cb4 hg7 *"
                } else {
                    "1... hg7 2. cb4 *"
                };
                let bad = format!("{}\n{moves}\n", tags("f5"));
                let out = convert("draughts-num", "draughts-num", &[], bad.as_bytes());
                no_panic(&out);
                assert_eq!(counts(&out), (0, 1), "{bad}");
                let line = if fen_first {
                    1
                } else {
                    2 + usize::from(!game_type.is_empty())
                };
                let want = format!("-:{line}:1: error: game 1: FEN `");
                let err = stderr(&out);
                assert!(
                    err.contains(&want) && err.contains("f5 is not a playing square"),
                    "{bad}\n{err}"
                );
                let good = format!("{}\n{moves}\n", tags("e5"));
                read_all(&good, 1, &[]);
            }
        }
    }
}
