//! The games drawn: `--to svg` (one board per game) and `--to html` (the
//! viewer page), as a user runs them. What a browser makes of them is
//! `tests/conformance/pictures.rs`.

use crate::common::{self, counts, errors_are_located, kifu, no_panic, stderr, stdout};

use std::path::{Path, PathBuf};

/// A file of the checkout's corpus.
fn corpus(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(path)
}

/// Runs `kifu convert` with `args`, the input on standard input.
fn run(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    let out = kifu(&all, input);
    no_panic(&out);
    out
}

/// Asserts that a document is well-formed XML with one `<svg>` root of a
/// fixed size, and nothing a picture should not hold (a script, an
/// external file or font).
fn assert_plain_svg(svg: &str) {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut roots = 0;
    let mut depth = 0usize;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) => {
                if depth == 0 {
                    roots += 1;
                    assert_eq!(e.name().0, "svg");
                }
                depth += 1;
            }
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!(
                "not well-formed at {}: {e}\n{svg}",
                reader.buffer_position()
            ),
        }
    }
    assert_eq!((roots, depth), (1, 0));
    assert!(svg.contains(" width=\"") && svg.contains(" viewBox=\"0 0 "));
    for banned in ["<script", "<image", "@font-face", "url(", "href=\"http"] {
        assert!(!svg.contains(banned), "{banned} in {svg}");
    }
}

/// The pieces an SVG chess board shows, as a FEN placement (read back
/// from where each piece is placed: 45-pixel squares in an 18-pixel
/// margin).
fn chess_placement(svg: &str, flip: bool) -> String {
    let mut board = [[' '; 8]; 8];
    for part in svg.split("<use xlink:href=\"#k-").skip(1) {
        let side = part.as_bytes()[0];
        let role = part.as_bytes()[1] as char;
        let num = |attr: &str| -> f32 {
            let at = part.find(attr).unwrap() + attr.len();
            part[at..].split('"').next().unwrap().parse().unwrap()
        };
        let (col, row) = (
            ((num(" x=\"") - 18.0) / 45.0).round() as usize,
            ((num(" y=\"") - 18.0) / 45.0).round() as usize,
        );
        let (file, rank) = if flip { (7 - col, row) } else { (col, 7 - row) };
        board[rank][file] = if side == b'w' {
            role.to_ascii_uppercase()
        } else {
            role
        };
    }
    let mut fen = Vec::new();
    for rank in board.iter().rev() {
        let mut s = String::new();
        let mut empty = 0;
        for &c in rank {
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(c);
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        fen.push(s);
    }
    fen.join("/")
}

const RUY: &[u8] =
    b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n";

#[test]
fn a_chess_board_shows_the_replayed_position_after_any_ply_from_either_side() {
    let out = run(&["--from", "pgn", "--to", "svg", "-"], RUY);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = stdout(&out);
    assert_plain_svg(&svg);
    assert!(svg.contains("<title>A - B</title>"), "{svg}");
    assert_eq!(
        chess_placement(&svg, false),
        "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1"
    );
    // The last move (castling) marks the king's squares, e1 and g1.
    assert_eq!(
        svg.matches("fill=\"#f7ec74\"").count() + svg.matches("fill=\"#dac34b\"").count(),
        2
    );
    let flipped = stdout(&run(
        &["--from", "pgn", "--to", "svg", "--to-opt", "flip=true", "-"],
        RUY,
    ));
    assert_eq!(
        chess_placement(&flipped, true),
        "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1"
    );
    assert_ne!(flipped, svg);
    let start = stdout(&run(
        &["--from", "pgn", "--to", "svg", "--to-opt", "ply=0", "-"],
        RUY,
    ));
    assert_eq!(
        chess_placement(&start, false),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    );
    let one = stdout(&run(
        &["--from", "pgn", "--to", "svg", "--to-opt", "ply=1", "-"],
        RUY,
    ));
    assert_eq!(
        chess_placement(&one, false),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    );
}

#[test]
fn the_board_after_ply_n_is_the_last_board_of_the_game_cut_after_it() {
    // Every ply of a real game, against the game cut short there.
    let text = std::fs::read_to_string(corpus("chess/petrosjan-sllavcco.pgn")).unwrap();
    let json = stdout(&run(
        &["--from", "pgn", "--to", "json", "-"],
        text.as_bytes(),
    ));
    let games: serde_json::Value = serde_json::from_str(&json).unwrap();
    let plies = games[0]["moves"]["plies"].as_array().unwrap().len();
    assert!(plies > 30);
    for k in [0, 1, 2, 7, plies / 2, plies - 1, plies] {
        let at = stdout(&run(
            &[
                "--from",
                "pgn",
                "--to",
                "svg",
                "--to-opt",
                &format!("ply={k}"),
                "-",
            ],
            text.as_bytes(),
        ));
        let mut cut = games.clone();
        cut[0]["moves"]["plies"].as_array_mut().unwrap().truncate(k);
        let cut = serde_json::to_string(&cut).unwrap();
        let last = stdout(&run(
            &["--from", "json", "--to", "svg", "-"],
            cut.as_bytes(),
        ));
        assert_eq!(
            chess_placement(&at, false),
            chess_placement(&last, false),
            "ply {k}"
        );
    }
    let past = run(
        &[
            "--from",
            "pgn",
            "--to",
            "svg",
            "--to-opt",
            &format!("ply={}", plies + 1),
            "-",
        ],
        text.as_bytes(),
    );
    assert_eq!(out_code(&past), 1);
    assert!(
        stderr(&past).contains(&format!("the game has {plies} plies")),
        "{}",
        stderr(&past)
    );
    assert!(errors_are_located(&stderr(&past)));
    let bad = run(
        &["--from", "pgn", "--to", "svg", "--to-opt", "ply=x", "-"],
        RUY,
    );
    assert_eq!(out_code(&bad), 2);
    assert!(
        stderr(&bad).contains("is not a number of plies"),
        "{}",
        stderr(&bad)
    );
}

fn out_code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

#[test]
fn every_family_but_coerceo_is_drawn_one_file_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    for (input, from, games) in [
        ("chess/petrosjan-sllavcco.pgn", "pgn", 1),
        ("draughts/english.pdn", "draughts-num", 2),
        ("draughts/canadian.diag.pdn", "draughts-diag", 1),
        ("tafl/brandubh.tafl", "tafl", 1),
        ("tafl/constructs.otg", "otn", 1),
        ("tenjiku/constructs.tenjiku", "tenjiku", 1),
    ] {
        let out = run(
            &[
                "--from",
                from,
                "--to",
                "svg",
                corpus(input).to_str().unwrap(),
                "--out-dir",
                out_dir.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{input}: {}", stderr(&out));
        assert_eq!(counts(&out), (games, 0), "{input}");
        let name = Path::new(input).file_name().unwrap().to_str().unwrap();
        let stem = name.split('.').next().unwrap();
        for n in 1..=games {
            let file = out_dir.join(format!("{stem}.{n}.svg"));
            let svg = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert_plain_svg(&svg);
        }
    }
    // Diagonal coordinates where the game was read from them, numbers
    // where it was read from them.
    let diag = std::fs::read_to_string(out_dir.join("canadian.1.svg")).unwrap();
    assert!(
        diag.contains(">b8</text>") && !diag.contains(">72</text>"),
        "{diag}"
    );
    let num = std::fs::read_to_string(out_dir.join("english.1.svg")).unwrap();
    assert!(num.contains(">32</text>") && num.contains(">1</text>"));
    // Tafl: tafl letters upper case, otn lower case; the throne and corners.
    let tafl = std::fs::read_to_string(out_dir.join("brandubh.1.svg")).unwrap();
    assert!(tafl.contains(">G</text>") && !tafl.contains(">g</text>"));
    // Tenjiku: kanji by default, an abbreviation set by --pieces.
    let tenjiku = std::fs::read_to_string(out_dir.join("constructs.1.svg")).unwrap();
    assert!(tenjiku.contains(">獅</text>"), "kanji");
    let letters = run(
        &[
            "--to",
            "svg",
            "--pieces",
            "tsa",
            corpus("tenjiku/constructs.tenjiku").to_str().unwrap(),
        ],
        b"",
    );
    assert!(letters.status.success(), "{}", stderr(&letters));
    assert!(stdout(&letters).contains(">FiD</text>"));
    // Promoted pieces are red.
    assert!(stdout(&letters).contains("fill=\"#c0141e\""));
}

#[test]
fn coerceo_says_its_boards_are_not_drawn_yet() {
    let input = corpus("coerceo/european-championship-2012.coerceo");
    for to in ["svg", "html"] {
        let out = run(&["--to", to, input.to_str().unwrap()], b"");
        assert_eq!(out_code(&out), 1, "{to}");
        let err = stderr(&out);
        assert!(err.contains("Coerceo boards are not drawn yet"), "{err}");
        assert!(errors_are_located(&err), "{err}");
        assert_eq!(counts(&out).0, 0);
    }
}

#[test]
fn one_file_holds_one_board_and_out_dir_numbers_the_games_of_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus("draughts/english.pdn");
    let one = dir.path().join("one.svg");
    let out = run(
        &[
            "--to",
            "svg",
            input.to_str().unwrap(),
            "-o",
            one.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out_code(&out), 2);
    assert!(stderr(&out).contains("--out-dir"), "{}", stderr(&out));
    assert!(!one.exists(), "nothing written");
    // Standard output too: nothing written.
    let out = run(&["--to", "svg", input.to_str().unwrap()], b"");
    assert_eq!(out_code(&out), 2);
    assert!(out.stdout.is_empty());
    // A game that fails writes no file; the others keep their numbers.
    let mixed = b"1. e4 e5 *\n\n1. e4 e4 *\n\n1. d4 d5 *\n";
    let out_dir = dir.path().join("o");
    let games = dir.path().join("g.pgn");
    std::fs::write(&games, mixed).unwrap();
    let out = run(
        &[
            "--to",
            "svg",
            games.to_str().unwrap(),
            "--out-dir",
            out_dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(counts(&out), (2, 1));
    assert!(out_dir.join("g.1.svg").exists() && out_dir.join("g.3.svg").exists());
    assert!(!out_dir.join("g.2.svg").exists() && !out_dir.join("g.svg").exists());
    // -o for a one-game input; the format guessed from the name.
    let pic = dir.path().join("ruy.svg");
    let pgn = dir.path().join("ruy.pgn");
    std::fs::write(&pgn, RUY).unwrap();
    let out = run(&[pgn.to_str().unwrap(), "-o", pic.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_plain_svg(&std::fs::read_to_string(&pic).unwrap());
}

#[test]
fn a_game_not_replayed_has_no_position_to_draw() {
    let out = run(&["--from", "pgn", "--to", "svg", "--no-validate", "-"], RUY);
    assert_eq!(out_code(&out), 1);
    assert!(
        stderr(&out).contains("there is no position to draw"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_viewer_page_holds_every_game_its_boards_and_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("games.html");
    let inputs = [
        corpus("chess/petrosjan-sllavcco.pgn"),
        corpus("draughts/annotations.pdn"),
        corpus("tafl/brandubh.tafl"),
        corpus("tenjiku/constructs.tenjiku"),
    ];
    let mut args = vec!["--to", "html", "-o", page.to_str().unwrap()];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    let out = run(&args, b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let (games, _) = counts(&out);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<section class=\"game\"").count(), games);
    // Self-contained: nothing loaded from elsewhere.
    for banned in ["src=\"", "href=\"http", "<link", "@import", "url("] {
        assert!(!html.contains(banned), "{banned}");
    }
    // Each section: one frame per position of its main line, the one it
    // opens on shown, and a link per main-line ply.
    for section in html.split("<section class=\"game\"").skip(1) {
        let plies: usize = section
            .split("data-plies=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(section.matches("<g class=\"ply\"").count(), plies + 1);
        assert_eq!(section.matches("display=\"inline\"").count(), 1);
        assert_eq!(section.matches("<a class=\"move\"").count(), plies);
        assert!(section.contains("<svg "));
    }
    // Every id once in the page (the shapes of each game's board are its
    // own).
    let ids: Vec<&str> = html
        .split(" id=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert!(ids.len() > games);
    assert_eq!(unique.len(), ids.len(), "an id twice");
    // The moves in the game's own notation, with comments and variations.
    assert!(html.contains(">Nxc3</a>"), "pgn spelling");
    assert!(html.contains("class=\"comment\""));
    assert!(html.contains("class=\"variation\""));
    assert!(html.contains("<title>Petrosjan - Sllavcco"), "page title");
    // The ply it opens on.
    let out = run(
        &[
            "--to",
            "html",
            "--to-opt",
            "ply=3",
            corpus("chess/petrosjan-sllavcco.pgn").to_str().unwrap(),
        ],
        b"",
    );
    let one = stdout(&out);
    assert!(one.contains("data-start=\"3\""));
    assert!(one.contains("data-ply=\"3\" display=\"inline\""));
}

#[test]
fn a_big_tafl_board_from_the_shared_corpus_is_drawn() {
    let Some(dir) = common::shared("tafl") else {
        eprintln!("skipped: no shared corpus");
        return;
    };
    let files = common::files(&dir, ".otg");
    let Some(file) = files.first() else {
        eprintln!("skipped: no .otg file in the shared corpus");
        return;
    };
    let out = run(&["--to", "html", file.to_str().unwrap()], b"");
    let (converted, _) = counts(&out);
    assert!(converted > 0, "{}", stderr(&out));
    assert!(errors_are_located(&stderr(&out)));
}

#[test]
fn a_chess960_game_starts_from_its_arrangement() {
    let game = b"[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
        [FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. g4 g5 *\n";
    let start = run(
        &["--from", "pgn", "--to", "svg", "--to-opt", "ply=0", "-"],
        game,
    );
    assert!(start.status.success(), "{}", stderr(&start));
    assert_eq!(
        chess_placement(&stdout(&start), false),
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN"
    );
    let last = stdout(&run(&["--from", "pgn", "--to", "svg", "-"], game));
    assert_eq!(
        chess_placement(&last, false),
        "bqnbrkrn/pppppp1p/8/6p1/6P1/8/PPPPPP1P/BQNBRKRN"
    );
}
