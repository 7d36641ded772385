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
fn every_family_is_drawn_one_file_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    for (input, from, games) in [
        ("chess/petrosjan-sllavcco.pgn", "pgn", 1),
        ("draughts/english.pdn", "draughts-num", 2),
        ("draughts/canadian.diag.pdn", "draughts-diag", 1),
        ("tafl/brandubh.tafl", "tafl", 1),
        ("tafl/constructs.otg", "otn", 1),
        ("tenjiku/constructs.tenjiku", "tenjiku", 1),
        ("coerceo/european-championship-2012.coerceo", "coerceo", 1),
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
    // Tenjiku: kanji by default, as outlines of a font of the machine's
    // (never as text a reader's machine may have no font for), else the
    // tsa abbreviations (tests/it/glyphs.rs); an abbreviation set by
    // --pieces.
    let tenjiku = std::fs::read_to_string(out_dir.join("constructs.1.svg")).unwrap();
    assert!(!tenjiku.contains(">獅</text>"), "kanji as text");
    assert!(
        tenjiku.contains("<symbol ") || tenjiku.contains(">FiD</text>"),
        "kanji"
    );
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
    // Coerceo: the tiles numbered and the fields lettered.
    let coerceo =
        std::fs::read_to_string(out_dir.join("european-championship-2012.1.svg")).unwrap();
    for (label, times) in [
        (">1</text>", 1),
        (">19</text>", 1),
        (">a</text>", 19),
        (">f</text>", 19),
    ] {
        assert_eq!(coerceo.matches(label).count(), times, "{label}");
    }
}

/// A Coerceo board as drawn or as a position text says: the pieces (`3a`
/// and its side, `w` or `b`), the tiles on the board, and the tiles each
/// side holds (`1:4`).
#[derive(Debug, PartialEq, Eq)]
struct CoerceoBoard {
    pieces: std::collections::BTreeSet<String>,
    tiles: Vec<u32>,
    held: String,
}

/// Where each field's centre lies, from the centre of tile 1, in pixels
/// (y down), as docs/coerceo.md numbers the board: tiles 2 to 7 clockwise from
/// the one up and left of the centre, tile 8 beyond 2 and the second ring
/// clockwise; a tile's fields `a` (upper left) to `f` clockwise; a tile's
/// side 48 pixels.
fn coerceo_fields() -> Vec<(String, (f32, f32))> {
    let side = 48.0f32;
    let dir = |deg: f32, len: f32| {
        let r = deg.to_radians();
        (len * r.cos(), -len * r.sin())
    };
    let ring1: Vec<(f32, f32)> = (0..6)
        .map(|i| dir(150.0 - 60.0 * i as f32, side * 3f32.sqrt()))
        .collect();
    let mut tiles = vec![(0.0, 0.0)];
    tiles.extend(&ring1);
    for i in 0..6 {
        let (a, b) = (ring1[i], ring1[(i + 1) % 6]);
        tiles.push((2.0 * a.0, 2.0 * a.1));
        tiles.push((a.0 + b.0, a.1 + b.1));
    }
    let mut out = Vec::new();
    for (t, &(tx, ty)) in tiles.iter().enumerate() {
        for (j, letter) in ('a'..='f').enumerate() {
            let (fx, fy) = dir(150.0 - 60.0 * j as f32, side / 3f32.sqrt());
            out.push((format!("{}{letter}", t + 1), (tx + fx, ty + fy)));
        }
    }
    out
}

/// A number attribute of an element's text.
fn attr(element: &str, name: &str) -> f32 {
    let key = format!(" {name}=\"");
    let at = element
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {element}"))
        + key.len();
    element[at..].split('"').next().unwrap().parse().unwrap()
}

/// The field whose centre is at a point of a Coerceo SVG (within 2
/// pixels), the board's centre found from the picture's size (a margin of
/// 14 pixels, a band of 26 under the board), turned half round when
/// flipped.
fn coerceo_field_at(svg: &str, flip: bool, (x, y): (f32, f32)) -> String {
    let (w, h) = (attr(svg, "width"), attr(svg, "height"));
    let (cx, cy) = (w / 2.0, 14.0 + (h - 28.0 - 26.0) / 2.0);
    let (dx, dy) = if flip {
        (cx - x, cy - y)
    } else {
        (x - cx, y - cy)
    };
    let (name, d) = coerceo_fields()
        .into_iter()
        .map(|(n, (fx, fy))| (n, (fx - dx).hypot(fy - dy)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    assert!(d < 2.0, "({x}, {y}) is {d} pixels from {name}");
    name
}

/// What a Coerceo SVG shows: its pieces, read back from where each disc
/// is placed, its tiles and the tiles held.
fn coerceo_drawn(svg: &str, flip: bool) -> CoerceoBoard {
    coerceo_shown(svg, "k", flip)
}

/// What a Coerceo drawing shows whose shapes' ids begin with `id`: an SVG
/// document, or the `<svg>` element of a viewer page and one frame.
fn coerceo_shown(svg: &str, id: &str, flip: bool) -> CoerceoBoard {
    let mut pieces = std::collections::BTreeSet::new();
    let mut tiles = Vec::new();
    for part in svg.split(&format!("<use xlink:href=\"#{id}-")).skip(1) {
        let element = part.split("/>").next().unwrap();
        let name = element.split('"').next().unwrap();
        match name {
            "w" | "b" => {
                let field = coerceo_field_at(svg, flip, (attr(element, "x"), attr(element, "y")));
                assert!(pieces.insert(format!("{field}{name}")), "two on {field}");
            }
            _ => tiles.push(name.strip_prefix('t').unwrap().parse().unwrap()),
        }
    }
    let held = svg.split(">held: White ").nth(1).unwrap();
    let count = |s: &str| s.split(' ').next().unwrap().to_string();
    let black = held.split(", Black ").nth(1).unwrap();
    CoerceoBoard {
        pieces,
        tiles,
        held: format!("{}:{}", count(held), count(black)),
    }
}

/// What a position text says (tiles 1 to 19 separated by `/`, `-` a tile
/// off the board, its fields `a` to `f` as `w`, `b` or a run of empty
/// ones; the side to move; the tiles held).
fn coerceo_position(text: &str) -> CoerceoBoard {
    let parts: Vec<&str> = text.split(' ').collect();
    let mut pieces = std::collections::BTreeSet::new();
    let mut tiles = Vec::new();
    for (t, tile) in parts[0].split('/').enumerate() {
        if tile == "-" {
            continue;
        }
        tiles.push(t as u32 + 1);
        let mut letter = b'a';
        for c in tile.chars() {
            match c.to_digit(10) {
                Some(n) => letter += n as u8,
                None => {
                    pieces.insert(format!("{}{}{c}", t + 1, letter as char));
                    letter += 1;
                }
            }
        }
    }
    CoerceoBoard {
        pieces,
        tiles,
        held: parts[2].to_string(),
    }
}

/// The positions of a one-game Coerceo record's main line, as the rules
/// replay it (position texts).
fn coerceo_positions(text: &str) -> Vec<String> {
    let read = kifu::format::by_name("coerceo")
        .and_then(|f| f.read)
        .unwrap();
    let game = read
        .game(text, &kifu::codec::ReadOptions::default())
        .unwrap()
        .game;
    kifu::family::main_line_fens(&game).unwrap()
}

/// The seed's complete game: 165 plies, with captures, tile removals and
/// exchanges.
fn seed_game() -> (PathBuf, String) {
    let path = corpus("coerceo/european-championship-2012.coerceo");
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

/// `--to svg` of a file with `options`, which must succeed.
fn svg_of(path: &Path, options: &[&str]) -> String {
    let mut args = vec!["--to", "svg", path.to_str().unwrap()];
    args.extend_from_slice(options);
    let out = run(&args, b"");
    assert!(out.status.success(), "{options:?}: {}", stderr(&out));
    let svg = stdout(&out);
    assert_plain_svg(&svg);
    svg
}

#[test]
fn a_coerceo_board_shows_the_replayed_position_after_any_ply_from_either_side() {
    let (path, text) = seed_game();
    let positions = coerceo_positions(&text);
    assert_eq!(positions.len(), 166);
    // The start; a removal (27: T10); a capture (33: x5f); an exchange after
    // a step (112: 8f-19b TT x19f); the last position (165).
    for k in [0, 1, 2, 27, 33, 94, 112, 113, 144, 165] {
        let want = coerceo_position(&positions[k]);
        for flip in [false, true] {
            let mut options = vec!["--to-opt".to_string(), format!("ply={k}")];
            if flip {
                options.extend(["--to-opt".to_string(), "flip=true".to_string()]);
            }
            let options: Vec<&str> = options.iter().map(String::as_str).collect();
            let svg = svg_of(&path, &options);
            assert_eq!(coerceo_drawn(&svg, flip), want, "ply {k}, flip {flip}");
            assert_eq!((attr(&svg, "width"), attr(&svg, "height")), (412.0, 470.0));
        }
    }
    // The last position, by default: tiles taken off are gone, and what
    // each side holds is written.
    let last = svg_of(&path, &[]);
    let board = coerceo_drawn(&last, false);
    assert_eq!(board, coerceo_position(&positions[165]));
    assert_eq!(board.tiles, [1, 2, 3, 4, 5, 6, 7, 12, 13, 15]);
    assert!(!last.contains("href=\"#k-t8\""), "tile 8 is off the board");
    assert!(
        last.contains(">held: White 1 tile, Black 4 tiles</text>"),
        "{last}"
    );
    // A flipped board is another picture of the same position.
    assert_ne!(last, svg_of(&path, &["--to-opt", "flip=true"]));
}

/// The fields a Coerceo SVG marks: the step's (filled in the marks'
/// colours) and the captures (crossed out in red), and how many tiles it
/// outlines as taken off.
fn coerceo_marks(svg: &str) -> (Vec<String>, Vec<String>, usize) {
    let mut step = Vec::new();
    for part in svg.split("<polygon points=\"").skip(1) {
        let element = part.split("/>").next().unwrap();
        if element.contains("fill=\"#f5d63d\"") || element.contains("fill=\"#c9a41a\"") {
            let corners: Vec<(f32, f32)> = element
                .split('"')
                .next()
                .unwrap()
                .split(' ')
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let n = corners.len() as f32;
            let centre = (
                corners.iter().map(|c| c.0).sum::<f32>() / n,
                corners.iter().map(|c| c.1).sum::<f32>() / n,
            );
            step.push(coerceo_field_at(svg, false, centre));
        }
    }
    let mut captured = Vec::new();
    for part in svg.split("<line").skip(1) {
        let element = part.split("/>").next().unwrap();
        if element.contains("stroke=\"#c0392b\"") {
            let centre = (
                (attr(element, "x1") + attr(element, "x2")) / 2.0,
                (attr(element, "y1") + attr(element, "y2")) / 2.0,
            );
            let field = coerceo_field_at(svg, false, centre);
            if !captured.contains(&field) {
                captured.push(field);
            }
        }
    }
    (step, captured, svg.matches("stroke-dasharray").count())
}

#[test]
fn a_coerceo_board_marks_the_last_step_its_captures_and_the_tiles_taken_off() {
    let (path, _) = seed_game();
    let at = |k: usize| svg_of(&path, &["--to-opt", &format!("ply={k}")]);
    let none: Vec<String> = Vec::new();
    // The start: nothing marked.
    assert_eq!(coerceo_marks(&at(0)), (none.clone(), none.clone(), 0));
    // 1# 3c-3e: its two fields.
    assert_eq!(
        coerceo_marks(&at(1)),
        (vec!["3c".into(), "3e".into()], none.clone(), 0)
    );
    // 27# 10e-3a T22 (the rules' T10): the tile the step left outlined.
    assert_eq!(
        coerceo_marks(&at(27)),
        (vec!["10e".into(), "3a".into()], none.clone(), 1)
    );
    // 33# 1e-6c x5f: the piece taken crossed out.
    let (step, captured, _) = coerceo_marks(&at(33));
    assert_eq!(
        (step, captured),
        (vec!["1e".into(), "6c".into()], vec!["5f".to_string()])
    );
    // 112# 8f-19b TT x19f: Black's step, and White's exchange taking 19f.
    let (step, captured, _) = coerceo_marks(&at(112));
    assert_eq!(
        (step, captured),
        (vec!["8f".into(), "19b".into()], vec!["19f".to_string()])
    );
}

#[test]
fn an_ocius_board_is_the_centre_and_its_ring() {
    let dir = tempfile::tempdir().unwrap();
    let game = "[Variant \"Ocius\"]\n\n1# 1e-1c 2# 1b-1d 3# 1c-1a *\n";
    let path = dir.path().join("ocius.coerceo");
    std::fs::write(&path, game).unwrap();
    let positions = coerceo_positions(game);
    assert_eq!(positions.len(), 4);
    for (k, position) in positions.iter().enumerate() {
        for flip in [false, true] {
            let mut options = vec![format!("ply={k}")];
            if flip {
                options.push("flip=true".to_string());
            }
            let mut args = Vec::new();
            for o in &options {
                args.extend(["--to-opt", o.as_str()]);
            }
            let svg = svg_of(&path, &args);
            assert_eq!((attr(&svg, "width"), attr(&svg, "height")), (268.0, 303.0));
            let board = coerceo_drawn(&svg, flip);
            assert_eq!(board, coerceo_position(position), "ply {k}");
            assert_eq!(board.tiles, [1, 2, 3, 4, 5, 6, 7]);
            assert_eq!(board.pieces.len(), 14);
            assert!(!svg.contains("id=\"k-t8\""), "no second ring");
            assert_eq!(svg.matches(">a</text>").count(), 7);
            assert!(svg.contains(">7</text>") && !svg.contains(">8</text>"));
        }
    }
}

#[test]
fn every_frame_of_a_coerceo_game_in_the_viewer_is_the_replays_position() {
    let (path, text) = seed_game();
    let positions = coerceo_positions(&text);
    for flip in [false, true] {
        let out = run(
            &[
                "--to",
                "html",
                "--to-opt",
                &format!("flip={flip}"),
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let page = stdout(&out);
        let svg = page.split("<svg ").nth(1).expect("a board");
        let open = format!("<svg {}", svg.split('>').next().unwrap());
        let id = svg
            .split("<use xlink:href=\"#")
            .nth(1)
            .and_then(|s| s.split("-t").next())
            .expect("a tile");
        let frames: Vec<&str> = svg.split("<g class=\"ply\" data-ply=\"").skip(1).collect();
        assert_eq!(frames.len(), positions.len());
        for (k, (frame, position)) in frames.iter().zip(&positions).enumerate() {
            assert!(frame.starts_with(&format!("{k}\"")));
            let frame = frame.split("</g>").next().unwrap();
            assert_eq!(
                coerceo_shown(&format!("{open}{frame}"), id, flip),
                coerceo_position(position),
                "ply {k}, flip {flip}"
            );
        }
    }
}

#[test]
fn a_coerceo_ply_past_the_end_or_not_replayed_is_an_error() {
    let (path, text) = seed_game();
    let past = run(
        &["--to", "svg", "--to-opt", "ply=166", path.to_str().unwrap()],
        b"",
    );
    assert_eq!(out_code(&past), 1);
    let err = stderr(&past);
    assert!(err.contains("ply=166: the game has 165 plies"), "{err}");
    assert!(errors_are_located(&err), "{err}");
    assert!(past.stdout.is_empty());
    let loose = run(
        &["--from", "coerceo", "--to", "svg", "--no-validate", "-"],
        text.as_bytes(),
    );
    assert_eq!(out_code(&loose), 1);
    assert!(
        stderr(&loose).contains("there is no position to draw"),
        "{}",
        stderr(&loose)
    );
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
        corpus("coerceo/european-championship-2012.coerceo"),
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
    // The Coerceo game: its 165 plies, each a frame of its board, its
    // tiles and pieces shapes of its own, its moves in its notation.
    let coerceo = html
        .split("<section class=\"game\"")
        .find(|s| s.contains("data-plies=\"165\""))
        .expect("the Coerceo game");
    assert!(coerceo.contains(">8f-19b TT x19f</a>"), "{coerceo}");
    assert!(coerceo.contains("-t19\"") && coerceo.contains("-w\""));
    assert_eq!(coerceo.matches(">held: White ").count(), 166);
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
