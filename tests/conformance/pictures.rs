//! The games drawn, in a real browser: headless Chromium shows each
//! family's board (`--to svg`) and its screenshot is compared with the
//! approved image under `tests/conformance/approved/` (a small tolerance:
//! at most 1% of the pixels may differ, by more than a faint shade), and
//! it loads the viewer page (`--to html`), whose DOM must hold the boards
//! and the moves, and whose board a key press steps: the position shown
//! after some steps is the one `--to svg --to-opt ply=N` draws from the
//! replay. Every family drawn (Coerceo's Laurentius and Ocius boards), and
//! a 300-move game.
//!
//! `KIFU_APPROVE=1` writes the screenshots as the approved images (look at
//! them before committing them). Skips without Chromium, unless
//! `KIFU_REQUIRE_CHROMIUM` is set.

use crate::common::{kifu, stderr, stdout};
use crate::scoresheet_print::{browser, pages, shuffle};

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A file of the checkout's corpus.
fn corpus(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(path)
}

/// Where the approved images are.
fn approved(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance/approved")
        .join(format!("{name}.png"))
}

/// An image: width, height, RGBA pixels.
struct Image {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

/// Reads a PNG as Chromium writes its screenshots: 8 bits a channel, RGB
/// or RGBA, not interlaced.
fn png(bytes: &[u8]) -> Image {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut at, mut width, mut height, mut channels) = (8, 0, 0, 0);
    let mut data = Vec::new();
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let body = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(body[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(body[4..8].try_into().unwrap()) as usize;
                assert_eq!(body[8], 8, "8 bits a channel");
                channels = match body[9] {
                    2 => 3,
                    6 => 4,
                    other => panic!("PNG colour type {other}"),
                };
                assert_eq!(body[12], 0, "not interlaced");
            }
            b"IDAT" => data.extend_from_slice(body),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&data[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = width * channels;
    let mut out = vec![0u8; height * stride];
    for y in 0..height {
        let filter = raw[y * (stride + 1)];
        let line = &raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)];
        for x in 0..stride {
            let a = if x >= channels {
                out[y * stride + x - channels]
            } else {
                0
            };
            let b = if y > 0 { out[(y - 1) * stride + x] } else { 0 };
            let c = if x >= channels && y > 0 {
                out[(y - 1) * stride + x - channels]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("PNG filter {f}"),
            };
            out[y * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    let rgba = if channels == 4 {
        out
    } else {
        out.chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect()
    };
    Image {
        width,
        height,
        rgba,
    }
}

/// The share of the pixels that differ by more than a faint shade.
fn difference(a: &Image, b: &Image) -> f64 {
    assert_eq!((a.width, a.height), (b.width, b.height), "the sizes differ");
    let differ = a
        .rgba
        .chunks(4)
        .zip(b.rgba.chunks(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 48))
        .count();
    differ as f64 / (a.width * a.height) as f64
}

/// The size an SVG says it has.
fn size(svg: &str) -> (usize, usize) {
    let attr = |name: &str| -> usize {
        let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("width"), attr("height"))
}

/// Runs headless Chromium with `args` on `url`, in its own profile.
fn chromium(browser: &str, profile: &Path, args: &[String], url: &str) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run the browser")
}

/// Converts with kifu, checking that it went well; the output's text.
fn convert(args: &[&str]) -> String {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    let out = kifu(&all, b"");
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// An international draughts game with a capture each, in a file of `dir`.
fn international(dir: &Path) -> PathBuf {
    let path = dir.join("international.pdn");
    std::fs::write(
        &path,
        "[White \"A\"]\n[Black \"B\"]\n[GameType \"20\"]\n\n\
         1. 32-28 19-23 2. 28x19 14x23 3. 33-28 10-14 4. 28x19 14x23 *\n",
    )
    .unwrap();
    path
}

/// An Ocius game from a position where White holds a tile, whose first
/// ply exchanges it for a piece, in a file of `dir`.
fn ocius(dir: &Path) -> PathBuf {
    let path = dir.join("ocius.coerceo");
    std::fs::write(
        &path,
        "[White \"A\"]\n[Black \"B\"]\n[Variant \"Ocius\"]\n\
         [Position \"1b2w1/2w1w1/3b1b/w3w1/1b3b/w1w3/1b1b2/-/-/-/-/-/-/-/-/-/-/-/- w 1:0\"]\n\n\
         1# T x1b 2# 3d-3b *\n",
    )
    .unwrap();
    path
}

#[test]
fn each_familys_board_looks_as_approved() {
    let Some(browser) = browser("to draw the boards") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.pgn");
    std::fs::write(&long, shuffle(300)).unwrap();
    // (name, input, options)
    let boards: Vec<(&str, PathBuf, Vec<&str>)> = vec![
        ("chess", corpus("chess/petrosjan-sllavcco.pgn"), vec![]),
        (
            "chess-flipped",
            corpus("chess/petrosjan-sllavcco.pgn"),
            vec!["--to-opt", "flip=true", "--to-opt", "ply=21"],
        ),
        ("chess-300-moves", long.clone(), vec!["--to-opt", "ply=301"]),
        ("draughts", international(dir.path()), vec![]),
        (
            "draughts-diag",
            corpus("draughts/canadian.diag.pdn"),
            vec![],
        ),
        ("hnefatafl", corpus("tafl/brandubh.tafl"), vec![]),
        (
            "tenjiku",
            corpus("tenjiku/constructs.tenjiku"),
            vec!["--pieces", "tsa"],
        ),
        (
            "coerceo",
            corpus("coerceo/european-championship-2012.coerceo"),
            vec!["--to-opt", "ply=94"],
        ),
        (
            "coerceo-ocius-flipped",
            ocius(dir.path()),
            vec!["--to-opt", "ply=1", "--to-opt", "flip=true"],
        ),
    ];
    let approve = std::env::var_os("KIFU_APPROVE").is_some();
    let shots: Vec<(String, PathBuf, PathBuf)> = std::thread::scope(|s| {
        let handles: Vec<_> = boards
            .iter()
            .enumerate()
            .map(|(i, (name, input, options))| {
                let dir = dir.path();
                s.spawn(move || {
                    let mut args = vec!["--to", "svg", input.to_str().unwrap()];
                    args.extend(options.iter().copied());
                    let svg = convert(&args);
                    let file = dir.join(format!("{name}.svg"));
                    std::fs::write(&file, &svg).unwrap();
                    let (w, h) = size(&svg);
                    let png = dir.join(format!("{name}.png"));
                    let out = chromium(
                        browser,
                        &dir.join(format!("profile{i}")),
                        &[
                            format!("--screenshot={}", png.display()),
                            format!("--window-size={w},{h}"),
                        ],
                        &format!("file://{}", file.display()),
                    );
                    assert!(
                        png.exists(),
                        "{name}: no screenshot: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    (name.to_string(), png, approved(name))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, shot, want) in shots {
        if approve {
            std::fs::create_dir_all(want.parent().unwrap()).unwrap();
            std::fs::copy(&shot, &want).unwrap();
            eprintln!("approved {}", want.display());
            continue;
        }
        let got = png(&std::fs::read(&shot).unwrap());
        let expected = png(&std::fs::read(&want).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (KIFU_APPROVE=1 writes the approved images)",
                want.display()
            )
        }));
        let share = difference(&got, &expected);
        assert!(
            share <= 0.01,
            "{name}: {:.2}% of the pixels differ from {} (the screenshot: {}; KIFU_APPROVE=1 \
             approves a change)",
            share * 100.0,
            want.display(),
            shot.display()
        );
    }
    // The approved images are kifu's own and small.
    for (name, _, _) in &boards {
        let len = std::fs::metadata(approved(name)).unwrap().len();
        assert!(len < 200_000, "{name}: {len} bytes");
    }
}

/// What the page shows after the test's script ran: one JSON object a
/// step, read back from the DOM that Chromium dumps.
const PROBE: &str = r#"<script>
(function () {
  var report = [];
  function look(what) {
    var g = document.querySelector("section.game:not([hidden])");
    var f = g.querySelector("g.ply[display=inline]");
    var cur = g.querySelector("a.move.current");
    report.push({
      what: what,
      game: g.id,
      shown: +g.getAttribute("data-shown"),
      frame: +f.getAttribute("data-ply"),
      visible: g.querySelectorAll("g.ply[display=inline]").length,
      current: cur ? cur.id : null,
      drawn: drawn(g.querySelector("svg")),
      boards: document.querySelectorAll("section.game svg").length,
      moves: g.querySelectorAll("a.move").length,
      games: document.querySelectorAll("nav#games li").length
    });
  }
  // Every element of the board as it is drawn, in order: the board and
  // the position shown (the frames hidden, the shapes and the title left
  // out), each `tag attr=value ...` (an id's page prefix dropped) and a
  // text's text.
  function drawn(svg) {
    var out = [];
    (function walk(node) {
      Array.prototype.forEach.call(node.children, function (e) {
        var tag = e.tagName;
        if (tag === "defs" || tag === "title") { return; }
        if (e.getAttribute("class") === "ply") {
          if (e.getAttribute("display") !== "none") { walk(e); }
          return;
        }
        var line = tag;
        e.getAttributeNames().forEach(function (a) {
          var v = e.getAttribute(a);
          if (a === "xlink:href") { v = v.split("-").pop(); }
          line += " " + a + "=" + v;
        });
        if (tag === "text") { line += " >" + e.textContent; }
        out.push(line);
        walk(e);
      });
    })(svg);
    return out;
  }
  function key(k) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  }
  look("loaded");
  STEPS
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
})();
</script>
</body>"#;

/// Every element of an SVG document as the probe writes those of the page
/// (`drawn`): the board and the position, without the root, the title and
/// the shapes.
fn drawn(svg: &str) -> Vec<String> {
    use quick_xml::events::{BytesStart, Event};
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out: Vec<String> = Vec::new();
    let mut depth = 0usize;
    // The depth at which an element left out (defs, title) began.
    let mut skipping: Option<usize> = None;
    let line = |e: &BytesStart<'_>| {
        let mut line = e.name().0.to_string();
        for a in e.attributes() {
            let a = a.unwrap();
            let key = a.key.0;
            let mut value = a
                .normalized_value(quick_xml::XmlVersion::default())
                .unwrap()
                .into_owned();
            if key == "xlink:href" {
                value = value.rsplit('-').next().unwrap().to_string();
            }
            line.push_str(&format!(" {key}={value}"));
        }
        if e.name().0 == "text" {
            line.push_str(" >");
        }
        line
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) => {
                let name = e.name().0;
                if skipping.is_none() && (name == "defs" || name == "title") {
                    skipping = Some(depth);
                } else if skipping.is_none() && depth > 0 {
                    out.push(line(&e));
                }
                depth += 1;
            }
            Event::Empty(e) if skipping.is_none() => out.push(line(&e)),
            Event::End(_) => {
                depth -= 1;
                if skipping == Some(depth) {
                    skipping = None;
                }
            }
            Event::Text(t) if skipping.is_none() => {
                if let Some(last) = out.last_mut().filter(|l| l.starts_with("text ")) {
                    last.push_str(t.trim_matches('\n'));
                }
            }
            Event::GeneralRef(r) if skipping.is_none() => {
                let c = match &*r {
                    "amp" => '&',
                    "lt" => '<',
                    "gt" => '>',
                    "quot" => '"',
                    "apos" => '\'',
                    _ => r.resolve_char_ref().unwrap().unwrap(),
                };
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

/// Loads the page with the probe's steps (`steps`: JavaScript calling
/// `key(...)`, `look(...)`), at `hash`, and gives what it saw.
fn probe(
    browser: &str,
    page: &Path,
    steps: &str,
    hash: &str,
    profile: &Path,
) -> Vec<serde_json::Value> {
    let html = std::fs::read_to_string(page).unwrap();
    let probed = page.with_extension("probe.html");
    std::fs::write(
        &probed,
        html.replacen("</body>", &PROBE.replace("STEPS", steps), 1),
    )
    .unwrap();
    let out = chromium(
        browser,
        profile,
        &["--dump-dom".to_string()],
        &format!("file://{}{hash}", probed.display()),
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    let json = dom
        .split("<pre id=\"probe\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!(
                "the probe did not run: {}\n{dom}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    report.as_array().unwrap().clone()
}

#[test]
fn the_viewer_steps_the_board_through_the_replayed_positions() {
    let Some(browser) = browser("to load the viewer") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.pgn");
    std::fs::write(&long, shuffle(300)).unwrap();
    let inputs = [
        corpus("chess/petrosjan-sllavcco.pgn"),
        international(dir.path()),
        corpus("tafl/brandubh.tafl"),
        corpus("tenjiku/constructs.tenjiku"),
        long.clone(),
        corpus("coerceo/european-championship-2012.coerceo"),
    ];
    let page = dir.path().join("games.html");
    let mut args = vec!["--to", "html", "-o", page.to_str().unwrap()];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    convert(&args);
    let html = std::fs::read_to_string(&page).unwrap();
    let games = html.matches("<section class=\"game\"").count();
    assert_eq!(games, inputs.len(), "one game an input");
    // Each game, from its link, stepped forward three plies and back one.
    for n in 1..=games {
        let seen = probe(
            browser,
            &page,
            "key(\"ArrowRight\"); key(\"ArrowRight\"); key(\"ArrowRight\"); look(\"three\"); \
             key(\"ArrowLeft\"); look(\"back\"); key(\"End\"); look(\"end\"); \
             key(\"Home\"); document.querySelector(\"section.game:not([hidden]) \
             button[data-step=forward]\").click(); look(\"clicked\");",
            &format!("#game-{n}"),
            &dir.path().join(format!("profile{n}")),
        );
        let (loaded, three, back, end, clicked) =
            (&seen[0], &seen[1], &seen[2], &seen[3], &seen[4]);
        assert_eq!(loaded["game"], format!("game-{n}"));
        assert_eq!(loaded["boards"].as_u64(), Some(games as u64));
        assert_eq!(
            loaded["games"].as_u64(),
            Some(games as u64),
            "the list of games"
        );
        assert!(
            loaded["moves"].as_u64().unwrap() >= 3,
            "game {n}: the moves"
        );
        assert_eq!(loaded["shown"], 0);
        assert_eq!(
            (three["shown"].as_u64(), three["frame"].as_u64()),
            (Some(3), Some(3))
        );
        assert_eq!(three["visible"], 1, "one position shown");
        assert_eq!(three["current"], format!("game-{n}-ply-3"));
        assert_eq!(back["frame"], 2);
        assert_eq!(clicked["frame"], 1, "Home, then the forward button");
        let last = end["moves"].as_u64().unwrap();
        assert_eq!(end["frame"].as_u64(), Some(last));
        for step in [three, back, end, clicked] {
            let k = step["frame"].as_u64().unwrap();
            let shown: Vec<String> = step["drawn"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u.as_str().unwrap().to_string())
                .collect();
            // The same position as the replay's board after that ply.
            let svg = convert(&[
                "--to",
                "svg",
                "--to-opt",
                &format!("ply={k}"),
                inputs[n - 1].to_str().unwrap(),
            ]);
            let want = drawn(&svg);
            // Not a blank board: the squares and the pieces (a Coerceo
            // board's tiles are shapes, one element each, fewer as they
            // go off the board: 10 tiles and 20 pieces at the seed's end).
            let coerceo = inputs[n - 1].extension().is_some_and(|e| e == "coerceo");
            let least = if coerceo { 30 } else { 64 };
            assert!(want.len() > least, "game {n} after ply {k}: {want:?}");
            assert_eq!(shown, want, "game {n} after ply {k}");
        }
    }
    // A link to a ply opens the game there.
    let seen = probe(
        browser,
        &page,
        "",
        "#game-5-ply-599",
        &dir.path().join("profile-link"),
    );
    assert_eq!(seen[0]["game"], "game-5");
    assert_eq!(seen[0]["frame"], 599);
    assert_eq!(seen[0]["moves"], 600, "the 300-move game");
    // It prints: the game shown, without the controls.
    let pdf = dir.path().join("games.pdf");
    let out = chromium(
        browser,
        &dir.path().join("profile-print"),
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".to_string(),
        ],
        &format!("file://{}#game-1-ply-5", page.display()),
    );
    let printed = std::fs::read(&pdf).unwrap_or_else(|e| {
        panic!(
            "nothing printed: {e}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(pages(&printed) >= 1, "no page printed");
}

#[test]
fn the_diff_page_shows_both_sides_and_the_board_where_they_part() {
    let Some(browser) = browser("to load the diff page") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    let b = dir.path().join("b.pgn");
    std::fs::write(&a, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n").unwrap();
    std::fs::write(&b, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 *\n").unwrap();
    let out = kifu(
        &[
            "diff",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--format",
            "html",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let page = dir.path().join("diff.html");
    std::fs::write(&page, &out.stdout).unwrap();
    let dom = chromium(
        browser,
        &dir.path().join("profile"),
        &["--dump-dom".to_string()],
        &format!("file://{}", page.display()),
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(dom.matches("<section class=\"pair\">").count(), 1, "{dom}");
    assert_eq!(dom.matches("<svg ").count(), 1, "the board: {dom}");
    assert_eq!(
        dom.matches("class=\"ply changed first\"").count(),
        2,
        "{dom}"
    );
    assert!(dom.contains("1 pair of games compared"), "{dom}");
}
