//! Draughts records as the world writes them (issue 21), each class tested
//! on generated games, many a class, through the `kifu` binary:
//! - lidraughts' exports of every variant it plays, by its GameType numbers
//!   (standard 20, Frisian 40, Russian 25, Brazilian 26 and its own 96
//!   breakthrough, 97 Frysk!, 98 antidraughts, 99 from position), its
//!   numbered 8x8 squares (square 1 on b8), FEN tags with `:H0:F1` or `?`,
//!   clock comments and draughts results, read without `--variant`;
//! - PDN 3.0 position setups in the movetext (`/FEN "..."/`);
//! - 8x8 games without a GameType tag, alphanumeric or numbered by any 8x8
//!   GameType: never written with a 10x10 GameType.

use crate::common;

use common::*;
use kifu::family::draughts::{Board, Square};
use kifu::ir::Side;

/// A small deterministic generator (xorshift), so that every run checks
/// the same games and a failure names its seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A piece on the generator's board: its side (no kings: no man is let
/// onto its far row).
pub(crate) type Cells = std::collections::BTreeMap<(i32, i32), Side>;

/// A generated move: the squares (column, row, White's view) and whether
/// it captures.
pub(crate) struct GenMove {
    pub(crate) path: Vec<(i32, i32)>,
    pub(crate) capture: bool,
}

/// A random game of men's moves that every draughts rule set allows: steps
/// forward and single forward captures, no man reaching its far row. From
/// `start` (the board's start position when `None`), `plies` plies or
/// fewer; returns the moves and the position after each.
pub(crate) fn random_game(
    board: &Board,
    start: Option<(&Cells, Side)>,
    plies: usize,
    rng: &mut Rng,
) -> (Vec<GenMove>, Cells, Side) {
    let (mut cells, mut side) = match start {
        Some((c, s)) => (c.clone(), s),
        None => {
            let mut cells = Cells::new();
            for n in 1..=board.square_count() {
                let (c, r) = board.coords(Square(n)).unwrap();
                if let Some(s) = board.starting_side(Square(n)) {
                    cells.insert((i32::from(c), i32::from(r)), s);
                }
            }
            (cells, board.first)
        }
    };
    let h = i32::from(board.height);
    let w = i32::from(board.width);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let dir = if side == Side::White { 1 } else { -1 };
        let far = |r: i32| if side == Side::White { r == h } else { r == 1 };
        let on = |c: i32, r: i32| c >= 1 && c <= w && r >= 1 && r <= h;
        let mut options = Vec::new();
        for (&(c, r), &s) in &cells {
            if s != side {
                continue;
            }
            for dc in [-1, 1] {
                let (c1, r1) = (c + dc, r + dir);
                if on(c1, r1) && !far(r1) && !cells.contains_key(&(c1, r1)) {
                    options.push(GenMove {
                        path: vec![(c, r), (c1, r1)],
                        capture: false,
                    });
                }
                let (c2, r2) = (c + 2 * dc, r + 2 * dir);
                if on(c2, r2)
                    && !far(r2)
                    && !cells.contains_key(&(c2, r2))
                    && cells.get(&(c1, r1)) == Some(&side.other())
                {
                    options.push(GenMove {
                        path: vec![(c, r), (c2, r2)],
                        capture: true,
                    });
                }
            }
        }
        if options.is_empty() {
            break;
        }
        let m = options.swap_remove(rng.below(options.len()));
        let (from, to) = (m.path[0], m.path[1]);
        cells.remove(&from);
        if m.capture {
            cells.remove(&((from.0 + to.0) / 2, (from.1 + to.1) / 2));
        }
        cells.insert(to, side);
        moves.push(m);
        side = side.other();
    }
    (moves, cells, side)
}

/// A square spelled on `spelling` (numbers or alphanumeric, as that board
/// writes them).
pub(crate) fn spell(spelling: &Board, (c, r): (i32, i32)) -> String {
    let sq = spelling.square_at(c, r).expect("a playing square");
    let mut s = String::new();
    spelling.write_square(sq, &mut s);
    s
}

/// The movetext of generated moves, numbered for `board`, the first move
/// played by `side` (`1...` when that is not the board's first mover).
pub(crate) fn movetext(
    moves: &[GenMove],
    spelling: &Board,
    board: &Board,
    side: Side,
    clocks: bool,
) -> String {
    let mut out = String::new();
    let skip = usize::from(side != board.first);
    if skip == 1 && !moves.is_empty() {
        out.push_str("1... ");
    }
    for (i, m) in moves.iter().enumerate() {
        let j = i + skip;
        if j % 2 == 0 {
            out.push_str(&format!("{}. ", j / 2 + 1));
        }
        let sep = if m.capture { "x" } else { "-" };
        let squares: Vec<String> = m.path.iter().map(|&p| spell(spelling, p)).collect();
        out.push_str(&squares.join(sep));
        if clocks {
            out.push_str(&format!(
                " {{[%clock w0:0{}:00 B0:0{}:00]}}",
                i % 10,
                (i + 3) % 10
            ));
        }
        out.push(' ');
    }
    out
}

/// A FEN of the generator's position, squares spelled on `spelling`.
pub(crate) fn fen(cells: &Cells, side: Side, spelling: &Board) -> String {
    let list = |s: Side| {
        cells
            .iter()
            .filter(|(_, &v)| v == s)
            .map(|(&p, _)| spell(spelling, p))
            .collect::<Vec<_>>()
            .join(",")
    };
    let to_move = if side == Side::White { "W" } else { "B" };
    format!("{to_move}:W{}:B{}", list(Side::White), list(Side::Black))
}

/// The board lidraughts numbers the squares of an 8x8 or 10x10 game on:
/// square 1 in the top left corner seen by White (b8 on 8x8).
fn lidraughts_numbers(board: &Board) -> Board {
    Board::from_game_type(&format!("20,W,{},{},N2,0", board.width, board.height)).unwrap()
}

/// The values of every `[GameType "..."]` tag in a text.
pub(crate) fn game_types(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("[GameType \""))
        .map(|l| l.trim_end_matches("\"]").to_string())
        .collect()
}

/// Converts to draughts-num and checks the run: no panic, every game read
/// (`games`), errors located; returns stdout and stderr.
pub(crate) fn read_all(input: &str, games: usize, extra: &[&str]) -> (String, String) {
    let out = convert("draughts-num", "draughts-num", extra, input.as_bytes());
    no_panic(&out);
    let err = stderr(&out);
    assert_eq!(counts(&out), (games, 0), "{err}\n{input}");
    (stdout(&out), err)
}

/// lidraughts' variants: (GameType, name, its start position is written
/// in a FEN tag, as lidraughts does for these).
const LIDRAUGHTS: &[(u8, &str, bool)] = &[
    (20, "standard", false),
    (40, "frisian", false),
    (96, "breakthrough", false),
    (97, "frysk", true),
    (98, "antidraughts", false),
    (99, "from position", true),
    (25, "russian", true),
    (26, "brazilian", true),
];

/// One lidraughts export of a generated game of a variant.
fn lidraughts_game(game_type: u8, name: &str, with_fen: bool, rng: &mut Rng, i: usize) -> String {
    let board = Board::preset(game_type).expect("kifu knows the variant");
    let numbers = lidraughts_numbers(&board);
    let plies = 4 + rng.below(40);
    let (moves, ..) = random_game(&board, None, plies, rng);
    let (start, _, _) = random_game(&board, None, 0, rng);
    assert!(start.is_empty());
    let mut tags = format!(
        "[Event \"Rated {name} game\"]\n[Site \"https://lidraughts.org/g{i:07}\"]\n\
         [Date \"2024.03.0{}\"]\n[Round \"-\"]\n[White \"w{i}\"]\n[Black \"b{i}\"]\n\
         [Result \"{}\"]\n[UTCDate \"2024.03.01\"]\n[UTCTime \"12:00:00\"]\n\
         [WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n[GameType \"{game_type}\"]\n\
         [TimeControl \"180+2\"]\n[Opening \"?\"]\n[Termination \"Normal\"]\n",
        1 + i % 9,
        ["2-0", "1-1", "0-2", "*"][i % 4],
    );
    if with_fen {
        // The start position, numbered as lidraughts numbers it, with its
        // halfmove clock and move number; or `?`, as it writes a FEN it
        // did not keep.
        let (_, cells, side) = random_game(&board, None, 0, rng);
        let value = if i % 5 == 4 {
            "?".to_string()
        } else {
            format!("{}:H0:F1", fen(&cells, side, &numbers))
        };
        tags.push_str(&format!("[FEN \"{value}\"]\n"));
    }
    format!(
        "{tags}\n{}{}\n\n",
        movetext(&moves, &numbers, &board, board.first, true),
        ["2-0", "1-1", "0-2", "*"][i % 4]
    )
}

#[test]
fn lidraughts_exports_of_every_variant_read_without_variant() {
    for (k, &(game_type, name, with_fen)) in LIDRAUGHTS.iter().enumerate() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (k as u64 + 1));
        let n = 60;
        let input: String = (0..n)
            .map(|i| lidraughts_game(game_type, name, with_fen, &mut rng, i))
            .collect();
        let (out, err) = read_all(&input, n, &[]);
        // Nothing guessed: the GameType tag names the board.
        assert!(!err.contains("warning"), "{name}: {err}");
        let board = Board::preset(game_type).unwrap();
        for value in game_types(&out) {
            assert_eq!(value, game_type.to_string(), "{name}");
        }
        // kifu's own output reads back the same, and in diagonal
        // coordinates and back too.
        let (again, _) = read_all(&out, n, &[]);
        assert_eq!(again, out, "{name}: not idempotent");
        let diag = convert("draughts-num", "draughts-diag", &[], out.as_bytes());
        assert_eq!(counts(&diag), (n, 0), "{name}: {}", stderr(&diag));
        let back = convert("draughts-diag", "draughts-num", &[], &diag.stdout);
        assert_eq!(stdout(&back), out, "{name}: num -> diag -> num");
        // The 8x8 games are written as their board writes them: Russian
        // and Brazilian moves alphanumeric.
        if board.height == 8 {
            assert!(
                out.contains("1. c3-")
                    || out.contains("1. a3-")
                    || out.contains("1. e3-")
                    || out.contains("1. g3-"),
                "{name}: {out}"
            );
        }
    }
}

#[test]
fn a_lidraughts_8x8_number_is_its_square_not_a1_numbering() {
    // lidraughts numbers Russian and Brazilian squares from b8 (1) to g1
    // (32): 22-18 is c3-d4, White's men on 21-32.
    for gt in ["25", "26"] {
        let text = format!(
            "[GameType \"{gt}\"]\n[FEN \"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1\"]\n\n\
             1. 22-18 11-15 2. 18x11 8x15 2-0\n"
        );
        let (out, _) = read_all(&text, 1, &[]);
        assert!(out.contains("1. c3-d4 f6-e5 2. d4"), "{out}");
    }
    // A move the numbers make impossible is refused at the move.
    let bad = "[GameType \"25\"]\n\n1. 22-18 11-15 2. 18-22 *\n";
    let out = convert("draughts-num", "draughts-num", &[], bad.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains("-:3:19: error: game 1: 2. 18-22: a man does not move backwards"),
        "{}",
        stderr(&out)
    );
}

/// Every 8x8 GameType kifu knows.
const EIGHT: &[u8] = &[21, 22, 23, 24, 25, 26, 28, 29, 31];

#[test]
fn an_8x8_game_without_a_gametype_is_never_written_as_10x10() {
    for (k, &gt) in EIGHT.iter().enumerate() {
        let board = Board::preset(gt).unwrap();
        assert_eq!(board.height, 8);
        let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ (k as u64 + 7));
        // Spelled as the type writes its squares: alphanumeric (a1 at
        // White's bottom left: Russian, Brazilian, Czech) or numbered by the
        // type's own numbering.
        {
            let spelling = board;
            let n = 40;
            let input: String = (0..n)
                .map(|i| {
                    let (moves, ..) = random_game(&board, None, 2 + rng.below(30), &mut rng);
                    format!(
                        "[Event \"g{i}\"]\n[Result \"*\"]\n\n{}*\n\n",
                        movetext(&moves, &spelling, &board, board.first, false)
                    )
                })
                .collect();
            let run = convert("draughts-num", "draughts-num", &[], input.as_bytes());
            no_panic(&run);
            // Thai draughts (8 men a side, numbered from White's bottom
            // right) is not among the boards kifu infers: its games are read
            // on an 8x8 board that may not play them (name it with
            // --variant thai). Every other type reads every game.
            if gt != 31 {
                assert_eq!(counts(&run), (n, 0), "GameType {gt}: {}", stderr(&run));
            }
            let out = stdout(&run);
            for value in game_types(&out) {
                let written = Board::from_game_type(&value).unwrap();
                assert_eq!(
                    (written.width, written.height),
                    (8, 8),
                    "GameType {gt} spelled {:?}: written as {value}",
                    spelling.style
                );
            }
        }
    }
}

#[test]
fn a_czech_record_is_read_on_8x8_and_judged() {
    // Czech championship style: alphanumeric, `x` captures with paths, no
    // GameType, 2-0 results.
    let text = "[Event \"MR CR\"]\n[Result \"2-0\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 2-0\n";
    let (out, err) = read_all(text, 1, &[]);
    assert!(out.contains("[GameType \"25\"]"), "{out}");
    assert!(
        err.contains("read as Russian draughts 8x8 (GameType 25"),
        "{err}"
    );
    // Named, it is Czech (men do not capture backwards there).
    let (out, _) = read_all(text, 1, &["--variant", "czech"]);
    assert!(out.contains("1. c3-d4 f6-e5 2. d4xf6 g7xe5"), "{out}");
    // Past h8, the 10x10 board with a1 at the bottom left, as before.
    let wide = "1. c3-d4 f6-g5 2. i3-j4 *\n";
    let (out, _) = read_all(wide, 1, &[]);
    assert!(out.contains("[GameType \"20,W,10,10,A0,0\"]"), "{out}");
}

#[test]
fn a_setup_in_the_movetext_is_the_games_start_or_a_kept_comment() {
    let board = Board::INTERNATIONAL;
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let n = 50;
    let (mut at_start, mut as_tag, mut mid) = (String::new(), String::new(), String::new());
    for i in 0..n {
        let (_, cells, side) = random_game(&board, None, 4 + rng.below(20), &mut rng);
        let (moves, ..) = random_game(&board, Some((&cells, side)), 1 + rng.below(20), &mut rng);
        let f = fen(&cells, side, &board);
        let text = movetext(&moves, &board, &board, side, false);
        // A setup before the first move, spaced or not, after a comment or
        // not; the same game with a FEN tag.
        let spaced = if i % 2 == 0 { "/FEN \"" } else { "/ FEN \"" };
        let lead = if i % 3 == 0 { "{a study} " } else { "" };
        at_start.push_str(&format!(
            "[Event \"s{i}\"]\n[GameType \"20\"]\n[Result \"*\"]\n\n{lead}{spaced}{f}\"/ {text}*\n\n"
        ));
        as_tag.push_str(&format!(
            "[Event \"s{i}\"]\n[GameType \"20\"]\n[Result \"*\"]\n[FEN \"{f}\"]\n\n{lead}{text}*\n\n"
        ));
        // A setup after a move: the game is read, the setup kept as a
        // comment, the moves not replayed.
        let (before, ..) = random_game(&board, None, 2, &mut rng);
        mid.push_str(&format!(
            "[Event \"m{i}\"]\n[GameType \"20\"]\n[Result \"*\"]\n\n{}/FEN \"{f}\"/ {text}*\n\n",
            movetext(&before, &board, &board, board.first, false)
        ));
    }
    let (a, err) = read_all(&at_start, n, &[]);
    assert!(!err.contains("warning"), "{err}");
    let (b, _) = read_all(&as_tag, n, &[]);
    // The same games, but for where the FEN tag stands.
    let strip = |t: &str| {
        let mut lines: Vec<&str> = t.lines().collect();
        lines.sort_unstable();
        lines.join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
    // Read back from kifu's output, and through diagonal coordinates.
    let (again, _) = read_all(&a, n, &[]);
    assert_eq!(again, a);
    let diag = convert("draughts-num", "draughts-diag", &[], at_start.as_bytes());
    assert_eq!(counts(&diag), (n, 0), "{}", stderr(&diag));

    let (m, err) = read_all(&mid, n, &[]);
    assert!(
        err.contains("warning[setup-in-moves]: game 1: 1 position setup (`/FEN \"...\"/`) after the first move"),
        "{err}"
    );
    assert!(
        err.contains(&format!("({} more like this)", n - 1)),
        "{err}"
    );
    assert_eq!(m.matches("{FEN \"").count(), n);
    // A setup inside a comment is the comment's text.
    let (c, _) = read_all(
        "[GameType \"20\"]\n\n1. 32-28 {/FEN \"W:W1:B2\"/} 19-23 *\n",
        1,
        &[],
    );
    assert!(c.contains("{/FEN \"W:W1:B2\"/}"), "{c}");
    // A setup whose FEN is off the board fails its game, located.
    let bad = "[GameType \"21\"]\n\n/FEN \"W:W40:B1\"/ 1. 40-35 *\n";
    let out = convert("draughts-num", "draughts-num", &[], bad.as_bytes());
    assert_eq!(counts(&out), (0, 1));
    assert!(errors_are_located(&stderr(&out)), "{}", stderr(&out));
}
