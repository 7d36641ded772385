//! Issue 36 (3): tenjiku boards carry their kanji. The pieces' kanji are
//! drawn as glyph outlines taken from a font at conversion time (`--to-opt
//! font=FILE`, else a font of the system's folders that has them all),
//! legible on a machine without a Japanese font; where no font has them,
//! the pieces are named by their tsa abbreviations, with a warning, never
//! drawn as empty boxes. The fonts are made here ([`crate::common::font`]):
//! the test machines have none with kanji, and the repository holds none.
//! The system's folders are replaced by `KIFU_TEST_FONT_DIRS` (debug builds
//! only).

use crate::common::font::{self, Cmap, Glyph, Tables};
use crate::common::{kifu, no_panic, stderr, stdout};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use proptest::prelude::*;

/// Every character tenjiku's pieces are inscribed with.
fn kanji() -> Vec<char> {
    kifu::family::tenjiku::svg::all_kanji().chars().collect()
}

/// A glyph for the `i`-th character: a rectangle or a triangle whose
/// third side is a quadratic curve, each of a height of its own (so that
/// each character's outline is known from its shape).
fn shape(i: usize, c: char, em: u16) -> Glyph {
    let unit = |v: f32| (v * f32::from(em) / 1000.0) as i16;
    let h = unit(100.0 + 8.0 * i as f32);
    if i.is_multiple_of(2) {
        Glyph::rect(c, em, (unit(100.0), 0), (unit(900.0), h))
    } else {
        Glyph {
            c,
            advance: unit(800.0) as u16,
            points: vec![
                (unit(100.0), unit(-50.0), true),
                (unit(700.0), unit(-50.0), true),
                (unit(400.0), h, false),
            ],
        }
    }
}

/// A font of `em` units with a glyph for each of `chars`.
fn face(chars: &[char], em: u16, cmap: Cmap) -> (Tables, Vec<Glyph>) {
    let glyphs: Vec<Glyph> = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| shape(i, c, em))
        .collect();
    (font::tables(em, &glyphs, cmap), glyphs)
}

/// Writes a font with every kanji; its glyphs.
fn kanji_font(file: &Path, em: u16, cmap: Cmap) -> Vec<Glyph> {
    let (tables, glyphs) = face(&kanji(), em, cmap);
    std::fs::write(file, font::file(&[tables])).unwrap();
    glyphs
}

/// Where a glyph's points lie in an outline's em square (1000 units, y
/// down, the baseline 880 from the top, centred across): what its path
/// must pass through.
fn expected(g: &Glyph, em: u16) -> Vec<(i32, i32)> {
    let k = 1000.0 / f64::from(em);
    let dx = (1000.0 - f64::from(g.advance) * k) / 2.0;
    g.points
        .iter()
        .map(|&(x, y, _)| {
            (
                (f64::from(x) * k + dx).round() as i32,
                (880.0 - f64::from(y) * k).round() as i32,
            )
        })
        .collect()
}

/// The points an SVG path of relative commands (`m l h v q c z`, as kifu
/// writes outlines) passes through or is pulled to, in order; a point
/// repeated at once, or the contour's first again at its end, once.
fn path_points(d: &str) -> Vec<(i32, i32)> {
    let mut tokens = Vec::new();
    let mut number = String::new();
    for c in d.chars() {
        if c.is_ascii_digit() || (c == '-' && number.is_empty()) {
            number.push(c);
            continue;
        }
        if !number.is_empty() {
            tokens.push(std::mem::take(&mut number));
        }
        if c == '-' {
            number.push(c);
        } else if c.is_ascii_alphabetic() {
            tokens.push(c.to_string());
        }
    }
    if !number.is_empty() {
        tokens.push(number);
    }
    let (mut at, mut start, mut command) = ((0, 0), (0, 0), 'm');
    let mut points: Vec<(i32, i32)> = Vec::new();
    let mut tokens = tokens.into_iter().peekable();
    let next = |t: &mut std::iter::Peekable<std::vec::IntoIter<String>>| -> i32 {
        t.next().expect("a number").parse().expect("a whole number")
    };
    while let Some(t) = tokens.peek().cloned() {
        if t.chars().all(|c| c.is_ascii_alphabetic()) {
            tokens.next();
            command = t.chars().next().unwrap();
            if command == 'z' {
                at = start;
                continue;
            }
        }
        let pairs = match command {
            'm' | 'l' => 1,
            'q' => 2,
            'c' => 3,
            'h' | 'v' => 0,
            other => panic!("command {other} in {d}"),
        };
        if pairs == 0 {
            let n = next(&mut tokens);
            at = if command == 'h' {
                (at.0 + n, at.1)
            } else {
                (at.0, at.1 + n)
            };
            points.push(at);
            continue;
        }
        let from = at;
        for _ in 0..pairs {
            let (x, y) = (next(&mut tokens), next(&mut tokens));
            at = (from.0 + x, from.1 + y);
            points.push(at);
        }
        if command == 'm' {
            start = at;
            command = 'l';
        }
    }
    points.dedup();
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    points
}

/// Whether two lists of points are the same within a unit (rounding).
fn near(a: &[(i32, i32)], b: &[(i32, i32)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| (p.0 - q.0).abs() <= 1 && (p.1 - q.1).abs() <= 1)
}

/// The value of an attribute in an element's text (from its first
/// attribute on, or from its name).
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let opening = format!("{name}=\"");
    element
        .strip_prefix(&opening)
        .or_else(|| element.split(&format!(" {opening}")).nth(1))
        .and_then(|s| s.split('"').next())
}

/// The shapes of a drawing's kanji: each symbol's id and its path.
fn symbols(svg: &str) -> BTreeMap<String, String> {
    svg.split("<symbol ")
        .skip(1)
        .map(|s| {
            let id = attr(s, "id").expect("an id").to_string();
            let d = s
                .split("<path d=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (id, d.to_string())
        })
        .collect()
}

/// The character a shape's id names (`...-k7389`).
fn char_of(id: &str) -> char {
    let hex = id.rsplit_once("-k").expect("a glyph's id").1;
    char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap()
}

/// What each piece of a drawing is inscribed with, in the order drawn:
/// its kanji (from the shapes it places) or its text, and the colour.
fn inscriptions(svg: &str) -> Vec<(String, String)> {
    svg.split("<polygon ")
        .skip(1)
        .map(|piece| {
            let piece = piece.split("</g>").next().unwrap();
            let uses: Vec<&str> = piece.split("<use ").skip(1).collect();
            let texts: Vec<&str> = piece.split("<text ").skip(1).collect();
            assert!(
                uses.is_empty() != texts.is_empty(),
                "kanji or text, not both: {piece}"
            );
            let fill = |e: &str| attr(e, "fill").unwrap().to_string();
            if uses.is_empty() {
                let t = texts[0]
                    .split('>')
                    .nth(1)
                    .unwrap()
                    .split('<')
                    .next()
                    .unwrap();
                (t.to_string(), fill(texts[0]))
            } else {
                let fills: BTreeSet<String> = uses.iter().map(|u| fill(u)).collect();
                assert_eq!(fills.len(), 1, "{piece}");
                let chars: String = uses
                    .iter()
                    .map(|u| char_of(attr(u, "xlink:href").unwrap().trim_start_matches('#')))
                    .collect();
                (chars, fills.into_iter().next().unwrap())
            }
        })
        .collect()
}

/// Asserts that a text is well-formed XML.
fn well_formed(text: &str) {
    let mut reader = quick_xml::Reader::from_str(text);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", reader.buffer_position()),
        }
    }
}

/// Asserts that every shape a drawing places is one of its own, whose
/// path is the outline of that character's glyph of the font, and that
/// no text is in kanji.
fn outlines_of(svg: &str, glyphs: &[Glyph], em: u16) {
    let shapes = symbols(svg);
    for (id, d) in &shapes {
        let c = char_of(id);
        let g = glyphs.iter().find(|g| g.c == c).expect("a glyph");
        assert!(
            near(&path_points(d), &expected(g, em)),
            "{c}: {d} is not {:?}",
            expected(g, em)
        );
    }
    let placed: BTreeSet<&str> = svg
        .split("<use xlink:href=\"#")
        .skip(1)
        .map(|u| u.split('"').next().unwrap())
        .collect();
    assert!(!placed.is_empty(), "no kanji placed");
    for id in placed {
        assert!(shapes.contains_key(id), "{id} placed, not defined");
    }
    for text in svg.split("<text ").skip(1) {
        let t = text.split('>').nth(1).unwrap().split('<').next().unwrap();
        assert!(t.is_ascii(), "a text in kanji: {t}");
    }
}

/// Runs `kifu` with the system's font folders replaced by `dirs` and
/// `HOME` pointed at `home`.
fn kifu_with_fonts(args: &[&str], dirs: &[&Path], home: &Path) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .env(
            "KIFU_TEST_FONT_DIRS",
            std::env::join_paths(dirs).expect("folders"),
        )
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs");
    no_panic(&out);
    out
}

/// The tenjiku games of the checkout's corpus.
fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tenjiku");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tenjiku"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    files
}

/// Each `.svg` of a folder, by name.
fn svgs(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_tenjiku_board_carries_its_kanji_as_outlines_of_the_font_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let empty = dir.join("no-fonts");
    std::fs::create_dir_all(&empty).unwrap();
    let file = dir.join("tiny.ttf");
    let glyphs = kanji_font(&file, 1000, Cmap::Segments);
    let inputs: Vec<String> = corpus().iter().map(|p| p.display().to_string()).collect();
    let (kanji_dir, tsa_dir) = (dir.join("kanji"), dir.join("tsa"));
    let font = format!("font={}", file.display());
    for (out_dir, extra) in [
        (&kanji_dir, ["--to-opt", font.as_str()]),
        (&tsa_dir, ["--pieces", "tsa"]),
    ] {
        let mut args = vec![
            "convert",
            "--to",
            "svg",
            "--out-dir",
            out_dir.to_str().unwrap(),
        ];
        args.extend(extra);
        args.extend(inputs.iter().map(String::as_str));
        let out = kifu_with_fonts(&args, &[&empty], &empty);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    }
    let (drawn, named) = (svgs(&kanji_dir), svgs(&tsa_dir));
    assert_eq!(
        drawn.keys().collect::<Vec<_>>(),
        named.keys().collect::<Vec<_>>()
    );
    assert!(drawn.len() >= inputs.len(), "{:?}", drawn.keys());
    // Each abbreviation is always the same kanji, and two abbreviations
    // never are: the kanji are the pieces' own, each piece's colour too.
    let mut by_letters: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut by_kanji: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut pieces = 0;
    for (name, svg) in &drawn {
        well_formed(svg);
        outlines_of(svg, &glyphs, 1000);
        let (k, t) = (inscriptions(svg), inscriptions(&named[name]));
        assert_eq!(k.len(), t.len(), "{name}: the same pieces");
        assert!(!k.is_empty(), "{name}: no piece");
        pieces += k.len();
        for ((kanji, k_fill), (letters, t_fill)) in k.into_iter().zip(t) {
            assert_eq!(k_fill, t_fill, "{name}: {letters}");
            assert!(matches!(kanji.chars().count(), 1 | 2), "{kanji}");
            by_letters
                .entry(letters.clone())
                .or_default()
                .insert(kanji.clone());
            // (A promoted piece, `+RGn`, is named by what it moves as.)
            if !letters.starts_with('+') {
                by_kanji.entry(kanji).or_default().insert(letters);
            }
        }
    }
    for (letters, kanji) in &by_letters {
        assert_eq!(kanji.len(), 1, "{letters} drawn as {kanji:?}");
    }
    for (kanji, letters) in &by_kanji {
        assert_eq!(letters.len(), 1, "{kanji} names {letters:?}");
    }
    for (letters, kanji) in by_letters.iter().filter(|(l, _)| l.starts_with('+')) {
        if let Some(plain) = by_letters.get(&letters[1..]) {
            assert_ne!(plain, kanji, "{letters} drawn as its unpromoted kind");
        }
    }
    assert!(
        pieces > 500 && by_kanji.len() > 30,
        "{pieces} {}",
        by_kanji.len()
    );
    // Promoted pieces (red) are there, drawn as what they move as.
    assert!(drawn.values().any(|s| s.contains("fill=\"#c0141e\"/>")));
}

#[test]
fn the_viewer_carries_the_kanji_of_every_position_streamed_or_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let empty = dir.join("no-fonts");
    std::fs::create_dir_all(&empty).unwrap();
    let file = dir.join("tiny.ttf");
    let glyphs = kanji_font(&file, 1000, Cmap::Segments);
    // The games, and one read from json (a reader that streams: a long
    // game's section head is drawn from its start, its frames as they
    // come).
    let mut inputs: Vec<String> = corpus().iter().map(|p| p.display().to_string()).collect();
    let json = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tenjiku/constructs.json");
    inputs.push(json.display().to_string());
    // A dog that promotes to a multi general, whose kanji (雑将) no piece
    // of the start bears, as tenjiku and as json.
    let dog = dir.join("dog.tenjiku");
    std::fs::write(
        &dog,
        "[Event \"a dog promotes\"]\n[SetUp \"1\"]\n\
         [FEN \"8,k,7/16/16/16/16/5,Dg,10/16/16/16/16/16/16/16/16/16/7,K,8 b\"]\n\n\
         1. Dg-11e+ K-8b *\n",
    )
    .unwrap();
    let dog_json = dir.join("dog.json");
    let out = kifu(
        &[
            "convert",
            dog.to_str().unwrap(),
            "--to",
            "json",
            "-o",
            dog_json.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    inputs.extend([dog, dog_json].map(|p| p.display().to_string()));
    let font = format!("font={}", file.display());
    let page = |how: &[&'static str]| {
        let mut args = vec!["convert", "--to", "html", "--to-opt", &font];
        args.extend(how);
        args.extend(inputs.iter().map(String::as_str));
        let out = kifu_with_fonts(&args, &[&empty], &empty);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
        stdout(&out)
    };
    let (whole, streamed) = (page(&["--read-whole"]), page(&["--run-bytes", "100"]));
    assert_eq!(whole, streamed, "streamed as whole");
    let sections: Vec<&str> = whole.split("<section class=\"game\"").skip(1).collect();
    assert!(sections.len() >= inputs.len());
    let multi_general = format!("-k{:x}\"", u32::from('雑'));
    assert_eq!(
        sections
            .iter()
            .filter(|s| s.contains("a dog promotes") && s.contains(&multi_general))
            .count(),
        2,
        "the promoted dog's kanji"
    );
    for section in sections {
        let svg = section
            .split_once("<svg ")
            .and_then(|(_, s)| s.split_once("</svg>"))
            .map(|(s, _)| format!("<svg {s}</svg>"))
            .expect("a board");
        well_formed(&svg);
        // Every frame's kanji (promotions on the way too) are shapes of
        // the section's own.
        outlines_of(&svg, &glyphs, 1000);
        for frame in svg.split("<g class=\"ply\"").skip(1) {
            assert!(!inscriptions(frame).is_empty());
        }
    }
}

#[test]
fn without_a_font_the_pieces_are_named_by_their_abbreviations_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let empty = dir.join("no-fonts");
    std::fs::create_dir_all(&empty).unwrap();
    let input = corpus()
        .into_iter()
        .find(|p| p.ends_with("constructs.tenjiku"))
        .unwrap();
    let input = input.to_str().unwrap();
    for to in ["svg", "html"] {
        let default = kifu_with_fonts(&["convert", "--to", to, input], &[&empty], &empty);
        let tsa = kifu_with_fonts(
            &["convert", "--to", to, "--pieces", "tsa", input],
            &[&empty],
            &empty,
        );
        assert_eq!(default.status.code(), Some(0), "{}", stderr(&default));
        // Drawn as --pieces tsa draws them, byte for byte: no empty box.
        assert_eq!(stdout(&default), stdout(&tsa), "{to}");
        assert!(stdout(&default).contains(">FiD</text>"), "{to}");
        assert!(!stdout(&default).contains("<symbol"), "{to}");
        let err = stderr(&default);
        assert!(err.contains("warning[no-font]"), "{to}: {err}");
        for said in [
            empty.to_str().unwrap(),
            "--to-opt font=FILE",
            "--pieces tsa",
            "0 font files looked at",
        ] {
            assert!(err.contains(said), "{to}: {said} not in {err}");
        }
        assert!(err.contains("1 warning"), "{err}");
        assert!(!stderr(&tsa).contains("warning"), "{}", stderr(&tsa));
    }
}

#[test]
fn the_system_fonts_are_looked_through_for_one_with_the_kanji() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (fonts, home) = (dir.join("fonts"), dir.join("home"));
    for d in [&fonts.join("deeper/still"), &home] {
        std::fs::create_dir_all(d).unwrap();
    }
    // What a font folder holds: junk named as fonts, a cut font, a font
    // with a few of the kanji, and (found last by name, deeper) a
    // collection whose second face has them all, in 2048 units, its
    // character map of format 12.
    let all = kanji();
    let (few, _) = face(&all[..5], 1000, Cmap::Segments);
    let few_file = font::file(std::slice::from_ref(&few));
    std::fs::write(fonts.join("junk.ttf"), b"not a font at all").unwrap();
    std::fs::write(fonts.join("empty.otf"), b"").unwrap();
    std::fs::write(fonts.join("cut-cjk.ttf"), &few_file[..few_file.len() / 2]).unwrap();
    std::fs::write(fonts.join("a-few-jp.ttf"), &few_file).unwrap();
    let (whole, glyphs) = face(&all, 2048, Cmap::Groups);
    std::fs::write(
        fonts.join("deeper/still/zz-cjk.TTC"),
        font::file(&[few, whole]),
    )
    .unwrap();
    let input = corpus()
        .into_iter()
        .find(|p| p.ends_with("constructs.tenjiku"))
        .unwrap();
    let out = kifu_with_fonts(
        &["convert", "--to", "svg", input.to_str().unwrap()],
        &[&dir.join("missing"), &fonts],
        &home,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let svg = stdout(&out);
    well_formed(&svg);
    outlines_of(&svg, &glyphs, 2048);
    // The font named gives the same drawing as the same font found.
    let named = dir.join("named.ttc");
    std::fs::copy(fonts.join("deeper/still/zz-cjk.TTC"), &named).unwrap();
    let again = kifu_with_fonts(
        &[
            "convert",
            "--to",
            "svg",
            "--to-opt",
            &format!("font={}", named.display()),
            input.to_str().unwrap(),
        ],
        &[&home],
        &home,
    );
    assert_eq!(stdout(&again), svg);
}

#[test]
fn a_font_named_that_cannot_draw_the_kanji_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let few = dir.join("few.ttf");
    let (tables, _) = face(&kanji()[..3], 1000, Cmap::Segments);
    std::fs::write(&few, font::file(&[tables])).unwrap();
    let junk = dir.join("junk.otf");
    std::fs::write(&junk, b"OTTO but nothing more").unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tenjiku/seed.tenjiku");
    // A font that lacks some: the abbreviations, with the warning.
    let font = format!("font={}", few.display());
    for to in ["svg", "html"] {
        let out = kifu(
            &[
                "convert",
                "--to",
                to,
                "--to-opt",
                &font,
                input.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("warning[no-font]"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("lacks"), "{}", stderr(&out));
        assert!(!stdout(&out).contains("<symbol"));
    }
    for (file, said) in [
        (dir.join("missing.ttf"), "missing.ttf"),
        (junk, "not a font"),
    ] {
        for to in ["svg", "html"] {
            let font = format!("font={}", file.display());
            let out = kifu(
                &[
                    "convert",
                    "--to",
                    to,
                    "--to-opt",
                    &font,
                    input.to_str().unwrap(),
                ],
                b"",
            );
            no_panic(&out);
            assert_eq!(out.status.code(), Some(2), "{to} {said}: {}", stderr(&out));
            assert!(stderr(&out).contains(said), "{said}: {}", stderr(&out));
            assert!(stdout(&out).is_empty());
        }
    }
}

/// DejaVu Sans, where the machine has it (the test machines do): each
/// Latin letter's outline spans its glyph's box, moved into the em square
/// (the control points of its curves too).
#[test]
fn the_outlines_of_a_real_font_span_its_glyphs_boxes() {
    let file = Path::new("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    if !file.exists() {
        eprintln!("skipped: no {}", file.display());
        return;
    }
    let letters: String = ('A'..='Z').chain('a'..='z').collect();
    let outlines =
        kifu::picture::glyphs::outlines(Some(file), &letters).expect("DejaVu Sans has them");
    let data = std::fs::read(file).unwrap();
    let face = ttf_parser::Face::parse(&data, 0).unwrap();
    let k = 1000.0 / f32::from(face.units_per_em());
    for c in letters.chars() {
        let glyph = face.glyph_index(c).unwrap();
        let b = face.glyph_bounding_box(glyph).unwrap();
        let dx = (1000.0 - f32::from(face.glyph_hor_advance(glyph).unwrap()) * k) / 2.0;
        let want = [
            f32::from(b.x_min) * k + dx,
            880.0 - f32::from(b.y_max) * k,
            f32::from(b.x_max) * k + dx,
            880.0 - f32::from(b.y_min) * k,
        ];
        let d = outlines.path(c).unwrap();
        let points = path_points(d);
        let got = [
            points.iter().map(|p| p.0).min().unwrap(),
            points.iter().map(|p| p.1).min().unwrap(),
            points.iter().map(|p| p.0).max().unwrap(),
            points.iter().map(|p| p.1).max().unwrap(),
        ];
        for (g, w) in got.iter().zip(want) {
            assert!(
                (*g as f32 - w).abs() <= 1.0,
                "{c}: {got:?}, not {want:?}: {d}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any glyph of straight and quadratic sides, in fonts of any units
    /// and either character map, comes out as its outline in the em
    /// square.
    #[test]
    fn any_glyph_comes_out_as_its_outline(
        em in prop::sample::select(vec![256u16, 1000, 1024, 2048, 4096]),
        groups in any::<bool>(),
        shapes in prop::collection::vec(
            (
                prop::collection::vec((-300i16..1200, -300i16..1200, any::<bool>()), 3..12),
                1u16..1200,
            ),
            1..6,
        ),
        first in 0x4e00u32..0x9f00,
    ) {
        let glyphs: Vec<Glyph> = shapes
            .into_iter()
            .enumerate()
            .map(|(i, (mut points, advance))| {
                // Scaled into the font's units; the first point on the curve.
                let s = |v: i16| (i32::from(v) * i32::from(em) / 1000) as i16;
                for p in &mut points {
                    (p.0, p.1) = (s(p.0), s(p.1));
                }
                points[0].2 = true;
                Glyph {
                    c: char::from_u32(first + 7 * i as u32).unwrap(),
                    advance: (u32::from(advance) * u32::from(em) / 1000) as u16,
                    points,
                }
            })
            .collect();
        let cmap = if groups { Cmap::Groups } else { Cmap::Segments };
        let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
        let file = dir.join("any.ttf");
        std::fs::write(&file, font::file(&[font::tables(em, &glyphs, cmap)])).unwrap();
        let chars: String = glyphs.iter().map(|g| g.c).collect();
        let outlines = kifu::picture::glyphs::outlines(Some(&file), &chars)
            .map_err(TestCaseError::fail)?;
        for g in &glyphs {
            let d = outlines.path(g.c).expect("an outline");
            let drawn = path_points(d);
            // A point off the curve between two on it is where TrueType
            // puts an implied point on the curve: the points drawn are the
            // glyph's, and those implied ones.
            let want = expected(g, em);
            let close = |p: &(i32, i32), q: &(i32, i32)| (p.0 - q.0).abs() <= 1 && (p.1 - q.1).abs() <= 1;
            for p in &want {
                prop_assert!(drawn.iter().any(|q| close(p, q)), "{:?} not in {} ({:?})", p, d, drawn);
            }
            let implied: Vec<(i32, i32)> = (0..want.len())
                .map(|i| (i, (i + 1) % want.len()))
                .filter(|&(i, j)| !g.points[i].2 && !g.points[j].2)
                .map(|(i, j)| ((want[i].0 + want[j].0) / 2, (want[i].1 + want[j].1) / 2))
                .collect();
            for q in &drawn {
                prop_assert!(
                    want.iter().chain(&implied).any(|p| close(p, q)),
                    "{:?} of {} is not the glyph's", q, d
                );
            }
            prop_assert!(d.starts_with('m') && d.ends_with('z'), "{}", d);
        }
    }
}

#[test]
fn kifu_diff_draws_its_tenjiku_boards_as_convert_does_and_says_a_missing_font_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (empty, fonts) = (dir.join("no-fonts"), dir.join("fonts"));
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::create_dir_all(&fonts).unwrap();
    let glyphs = kanji_font(&fonts.join("tiny.ttf"), 1000, Cmap::Segments);
    // Two pairs that differ (a ply pair inserted after move 2): a board
    // each, at their first divergence.
    let seed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/tenjiku/seed.tenjiku"),
    )
    .unwrap();
    let changed = seed.replace("2. Nx7d= K-8a ", "2. Nx7d= K-8a 3. P-1a K-8b ");
    assert_ne!(changed, seed);
    let (a, b) = (dir.join("a.tenjiku"), dir.join("b.tenjiku"));
    std::fs::write(&a, format!("{seed}\n{seed}")).unwrap();
    std::fs::write(&b, format!("{changed}\n{changed}")).unwrap();
    let args = [
        "diff",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--format",
        "html",
    ];
    // No font with the kanji: the boards name the pieces by their
    // abbreviations, and the warning convert gives is said, once a run.
    let out = kifu_with_fonts(&args, &[&empty], &empty);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let (page, err) = (stdout(&out), stderr(&out));
    assert_eq!(
        page.matches("<figure class=\"board\">").count(),
        2,
        "{page}"
    );
    assert!(!page.contains("<symbol"), "{page}");
    assert!(page.contains(">FiD</text>"), "{page}");
    assert_eq!(err.matches("warning[no-font]").count(), 1, "{err}");
    for said in [
        "--to-opt font=FILE",
        "--pieces tsa",
        empty.to_str().unwrap(),
    ] {
        assert!(err.contains(said), "{said} not in {err}");
    }
    // A font found: the kanji drawn as its outlines, nothing said.
    let out = kifu_with_fonts(&args, &[&fonts], &empty);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(
        page.matches("<figure class=\"board\">").count(),
        2,
        "{page}"
    );
    assert!(!page.contains(">FiD</text>"), "{page}");
    outlines_of(&page, &glyphs, 1000);
}
