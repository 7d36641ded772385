//! Damage the pipeline used to mistake (issue 36, item 7), each as a class
//! and through the `kifu` binary, as a person meets it:
//!
//! - text between games that holds none (blank lines, spaces, byte-order
//!   marks), of any length, in every format's scanner, is never "a game
//!   over the limit";
//! - a JSON array or JSON Lines holding values that are not games: each
//!   fails alone, with its position, and the games convert;
//! - one output under `--out-dir` that cannot be written (a name too long,
//!   a file where its folder should be) fails its input alone;
//! - text written into SVG and HTML is XML whatever characters it holds;
//! - move numbers past 65,535 are shown as they are.

use crate::common;

use std::io::Write;
use std::path::Path;

use common::scoresheet::Rng;
use common::{convert, counts, no_panic, scratch, stderr, stdout};

/// The limit the tests read with (`--max-record-size`): the blank runs
/// are a few times longer.
const LIMIT: usize = 4 << 10;

/// One game of each family, as its own format reads it.
fn source(family: &str) -> (&'static str, String) {
    match family {
        "chess" => ("pgn", "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n".to_string()),
        "draughts" => (
            "draughts-num",
            "[Event \"a\"]\n[GameType \"20\"]\n\n1. 32-28 18-23 *\n".to_string(),
        ),
        "tafl" => ("tafl", "[Rules \"copenhagen\"]\n\n1. d1-d3 *\n".to_string()),
        "tenjiku" => ("tenjiku", "1. P-7k P-9f *\n".to_string()),
        _ => {
            let text = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/coerceo/constructs.coerceo"),
            )
            .expect("the bundled Coerceo record");
            // Its first game.
            let second = text[1..].find("\n[Event").map_or(text.len(), |i| i + 2);
            ("coerceo", text[..second].to_string())
        }
    }
}

/// Every format that reads and writes, with its family.
const FORMATS: [(&str, &str); 12] = [
    ("chess", "pgn"),
    ("chess", "sllavcco"),
    ("chess", "json"),
    ("chess", "jsonl"),
    ("chess", "xml"),
    ("draughts", "draughts-num"),
    ("draughts", "draughts-diag"),
    ("tafl", "tafl"),
    ("tafl", "otn"),
    ("tenjiku", "tenjiku"),
    ("coerceo", "coerceo"),
    ("coerceo", "json"),
];

/// The game of `family` written in `format` once and twice: the text of
/// two games, and where the text of one ends in it (the place between the
/// two, whatever the format puts around and between games).
fn two_games(family: &str, format: &str) -> (String, usize) {
    let (from, one) = source(family);
    let write = |text: &str| {
        let out = convert(from, format, &[], text.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{from} to {format}: {}",
            stderr(&out)
        );
        stdout(&out)
    };
    let single = write(&one);
    let double = write(&format!("{one}\n{one}"));
    let same = single
        .bytes()
        .zip(double.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    // Back to the end of a line or of markup (`</game>\n<` is shared by
    // `</games>` and `<game>`).
    let at = double[..same]
        .rfind(['\n', '>', '}'])
        .map_or(same, |i| i + 1);
    (double, at)
}

/// A run of blank text at least `len` bytes long: spaces, tabs (`tabs`:
/// not in a scoresheet, where a line of tabs is a row of its grid), line
/// ends of both kinds, and (`bom`) byte-order marks at line starts, as
/// concatenated files leave them.
fn blanks(rng: &mut Rng, len: usize, tabs: bool, bom: bool) -> String {
    let pieces: &[&str] = match (tabs, bom) {
        (_, true) => &[" ", "\n", "\r\n", "\t", "\n\n\n", "\n\u{feff}"],
        (true, false) => &[" ", "\n", "\r\n", "\t", "\n\n\n", "    "],
        (false, false) => &[" ", "\n", "\r\n", "\n\n\n", "    "],
    };
    let mut text = String::new();
    while text.len() < len {
        text.push_str(pieces[rng.below(pieces.len())]);
    }
    // Blank lines: the next game starts a line.
    text.push('\n');
    text
}

/// 20 MB of blank lines between two games read as one game of 3.0 MiB
/// over the limit, and exit 1. In every format, blank text of any length
/// between two games is passed: the two games convert as they do with a
/// line between them.
#[test]
fn blank_text_between_games_of_any_length_is_no_game_over_the_limit() {
    let limit = format!("--max-record-size={LIMIT}");
    let mut rng = Rng::new(367);
    for (family, format) in FORMATS {
        let (text, at) = two_games(family, format);
        let boms = matches!(format, "pgn" | "draughts-num");
        for (len, bom) in [
            (LIMIT + 1, false),
            (3 * LIMIT + rng.below(LIMIT), false),
            (5 * LIMIT + rng.below(LIMIT), boms),
        ] {
            let run = blanks(&mut rng, len, format != "sllavcco", bom);
            let short = format!("{}\n{}", &text[..at], &text[at..]);
            let long = format!("{}{run}{}", &text[..at], &text[at..]);
            let want = convert(format, "jsonl", &[&limit], short.as_bytes());
            let got = convert(format, "jsonl", &[&limit], long.as_bytes());
            no_panic(&got);
            let err = stderr(&got);
            let what = format!("{format}, {} blank bytes (BOMs: {bom})", run.len());
            assert_eq!(counts(&got), (2, 0), "{what}: {err}");
            assert_eq!(got.status.code(), Some(0), "{what}: {err}");
            assert!(!err.contains("over the limit"), "{what}: {err}");
            assert_eq!(stdout(&got), stdout(&want), "{what}: the games differ");
        }
    }
}

/// The same blank text, longer than the default limit of 16 MiB, as the
/// issue met it: 20 MB of line ends between two PGN games.
#[test]
fn twenty_megabytes_of_line_ends_between_two_games_are_passed() {
    let game = "[Event \"a\"]\n\n1. e4 e5 *\n";
    let text = format!("{game}{}{game}", "\n".repeat(20 << 20));
    let out = convert("pgn", "pgn", &[], text.as_bytes());
    let err = stderr(&out);
    assert_eq!(counts(&out), (2, 0), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

/// Values of a JSON array that are not games (scalars, arrays, objects of
/// another shape), among games.
const NOT_GAMES: [&str; 9] = [
    "1",
    "-1.5e3",
    "\"s\"",
    "null",
    "true",
    "[2]",
    "[1, [\"]\", {}]]",
    "{\"a\": [1]}",
    "{}",
];

/// `[1]` read as an array cut short, its input damaged. Every value of a
/// JSON array or JSON Lines input that is not a game fails alone, at its
/// place; the games beside it convert, and the array is whole.
#[test]
fn values_that_are_not_games_fail_alone_in_json_and_jsonl() {
    let (text, at) = two_games("chess", "json");
    // The JSON of the game: the first element of the array.
    let start = text.find('{').expect("an object");
    let game = &text[start..at];
    let mut rng = Rng::new(3672);
    for round in 0..40 {
        let n = 1 + rng.below(6);
        let mut values = Vec::new();
        let mut games = 0;
        for _ in 0..n {
            if rng.below(3) == 0 {
                values.push(game.to_string());
                games += 1;
            } else {
                values.push(NOT_GAMES[rng.below(NOT_GAMES.len())].to_string());
            }
        }
        let failed = n - games;
        let space = [" ", "", "\n", "\n  "];
        let mut array = String::from("[");
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                array.push(',');
            }
            array.push_str(space[rng.below(space.len())]);
            array.push_str(v);
            array.push_str(space[rng.below(space.len())]);
        }
        array.push_str("]\n");
        let lines = values.join("\n") + "\n";
        for (format, input) in [("json", &array), ("jsonl", &lines)] {
            // Every error listed (`-v`): more than 3 of a kind are grouped.
            let out = convert(format, "pgn", &["-v"], input.as_bytes());
            no_panic(&out);
            let err = stderr(&out);
            let what = format!("round {round}, {format}: {input}");
            assert_eq!(counts(&out), (games, failed), "{what}\n{err}");
            assert!(!err.contains("cut short"), "{what}\n{err}");
            assert!(!err.contains("damaged"), "{what}\n{err}");
            let code = if failed > 0 { 1 } else { 0 };
            assert_eq!(out.status.code(), Some(code), "{what}\n{err}");
            // Each failure is placed: `-:LINE:COL: error: game N: ...`.
            let errors: Vec<&str> = err.lines().filter(|l| l.contains(": error:")).collect();
            assert_eq!(errors.len(), failed, "{what}\n{err}");
            for e in errors {
                let mut parts = e.splitn(4, ':');
                let (_, line, col) = (parts.next(), parts.next(), parts.next());
                assert!(
                    line.is_some_and(|l| l.parse::<usize>().is_ok())
                        && col.is_some_and(|c| c.parse::<usize>().is_ok()),
                    "{what}: an error without its place: {e}"
                );
            }
        }
    }
}

/// The exact case of the issue: `[1]` is one value that is no game, and a
/// whole array.
#[test]
fn a_json_array_of_one_number_is_one_failed_value_and_not_cut_short() {
    let out = convert("json", "pgn", &[], b"[1]");
    let err = stderr(&out);
    assert_eq!(counts(&out), (0, 1), "{err}");
    assert!(err.contains("-:1:2: error: game 1:"), "{err}");
    assert!(
        !err.contains("cut short") && !err.contains("damaged"),
        "{err}"
    );
}

/// Runs kifu in `dir`.
fn kifu_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("kifu runs");
    no_panic(&out);
    out
}

/// A zip member whose output cannot be written (a name too long for the
/// file system) ended the whole `--out-dir` run with exit 2. Each such
/// output fails its input alone, named; the other members are written;
/// exit 1.
#[test]
fn an_output_that_cannot_be_written_fails_its_input_alone() {
    let dir = scratch("damage", "output_fails_alone");
    let game = "[Event \"a\"]\n\n1. e4 e5 *\n";
    let long = format!("{}.pgn", "x".repeat(300));
    let zip_path = dir.join("t.zip");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        for name in ["a.pgn", &long, "d.pgn", "d.pgn/inner.pgn", "z.pgn"] {
            z.start_file(name, opts).unwrap();
            z.write_all(game.as_bytes()).unwrap();
        }
        z.finish().unwrap();
    }
    // A folder too: a name of 251 letters fits the file system as .pgn,
    // not as .jsonl (and not with the temporary file's mark).
    let folder = dir.join("f");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    for name in ["a.pgn".to_string(), format!("{}.pgn", "y".repeat(251))] {
        std::fs::write(folder.join(name), game).unwrap();
    }
    // `d.pgn` beside `d.pgn/inner.pgn` no longer meet: the file keeps its
    // input's extension (docs/cli.md, how --out-dir names outputs).
    let cases: [(&str, &str, usize, &[&str]); 2] = [
        (
            "t.zip",
            "pgn",
            1,
            &["t/a.pgn", "t/z.pgn", "t/d.pgn.pgn", "t/d.pgn/inner.pgn"],
        ),
        ("f", "jsonl", 1, &["a.jsonl"]),
    ];
    for (input, to, lost, written) in cases {
        let out_dir = dir.join(format!("out-{to}"));
        let _ = std::fs::remove_dir_all(&out_dir);
        let out = kifu_in(
            &dir,
            &[
                "convert",
                input,
                "--to",
                to,
                "--out-dir",
                out_dir.to_str().unwrap(),
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{input}: {err}");
        let errors: Vec<&str> = err.lines().filter(|l| l.contains(": error:")).collect();
        assert_eq!(errors.len(), lost, "{input}: {err}");
        for e in &errors {
            assert!(
                e.contains("its output cannot be written") && e.starts_with(input),
                "{input}: {e}"
            );
        }
        let (converted, failed) = counts(&out);
        assert_eq!(
            (converted + failed, failed),
            (5 - 3 * usize::from(input == "f"), lost)
        );
        for w in written {
            assert!(out_dir.join(w).is_file(), "{input}: {w} written: {err}");
        }
    }
}

/// Whether every character of `text` is one XML 1.0 allows.
fn xml_chars(text: &str) -> bool {
    text.chars().all(|c| {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
            || c >= '\u{10000}'
    })
}

/// Asserts that `doc` is a well-formed XML document of XML characters.
fn assert_xml(doc: &str, what: &str) {
    assert!(xml_chars(doc), "{what}: a character XML forbids in {doc:?}");
    let mut reader = quick_xml::Reader::from_str(doc);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("{what}: not well-formed: {e}\n{doc}"),
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The one escape of every picture and page writer: whatever the text
    /// (U+FFFE, U+FFFF, C0 controls, markup), it reads back as XML in an
    /// element and in an attribute.
    #[test]
    fn escaped_text_is_xml_whatever_it_holds(text in "(\\PC|[\\x00-\\x1f\u{fffe}\u{ffff}<>&\"'])*") {
        let mut escaped = String::new();
        kifu::family::draw::escape(&text, &mut escaped);
        assert_xml(&format!("<t a=\"{escaped}\">{escaped}</t>"), &format!("{text:?}"));
    }
}

/// An SVG of a game with U+FFFE in a tag was not well-formed XML. Every
/// picture and page (svg, html, sllavcco-html) of a game whose tags and
/// comments hold characters XML forbids is XML text.
#[test]
fn pictures_and_pages_of_text_xml_forbids_hold_none_of_it() {
    let bad = "a\u{fffe}b\u{ffff}c\u{1}d\u{1b}[31me\u{7f}<&>";
    let game =
        format!("[Event \"{bad}\"]\n[White \"{bad}\"]\n[Black \"x\"]\n\n1. e4 {{{bad}}} e5 *\n");
    for to in ["svg", "html", "sllavcco-html"] {
        let out = convert("pgn", to, &[], game.as_bytes());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{to}: {err}");
        let text = stdout(&out);
        assert!(xml_chars(&text), "{to}: a character XML forbids: {text:?}");
        if to == "svg" {
            assert_xml(&text, to);
        }
    }
}

/// A game of `moves` moves of knights going out and back, then `last`.
fn long_game(moves: usize, last: &str) -> String {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut text = String::from("[Event \"long\"]\n\n");
    for i in 0..moves {
        let _ = std::fmt::Write::write_fmt(
            &mut text,
            format_args!(
                "{}. {} {} ",
                i + 1,
                cycle[(2 * i) % 4],
                cycle[(2 * i + 1) % 4]
            ),
        );
    }
    text.push_str(&format!("{}. {last} *\n", moves + 1));
    text
}

/// A position in a message after move 65,535 said 65535. The counters a
/// person is shown (move numbers, the position's move number, lines and
/// columns) go on past 65,535.
#[test]
fn counters_go_on_past_move_65535() {
    let moves = 70_000;
    let out = convert("pgn", "pgn", &[], long_game(moves, "Ke5").as_bytes());
    let err = stderr(&out);
    assert_eq!(counts(&out), (0, 1), "{err}");
    // The column of the move, on the third line.
    let col = long_game(moves, "Ke5").find("70001. Ke5").unwrap() + "70001. ".len()
        - "[Event \"long\"]\n\n".len()
        + 1;
    assert!(
        err.contains(&format!(
            "-:3:{col}: error: game 1: 70001. Ke5: illegal move (position: "
        )),
        "{err}"
    );
    assert!(
        err.contains("RNBQKBNR w KQkq - 100 70001)"),
        "the position's move number: {err}"
    );
    // Written, the game keeps its numbers, whole or a run at a time (each
    // run starts from the position the one before it ended in).
    let whole = convert("pgn", "pgn", &[], long_game(moves, "e4").as_bytes());
    assert_eq!(counts(&whole), (1, 0), "{}", stderr(&whole));
    assert!(stdout(&whole).contains("70001. e4 *"));
    let runs = convert(
        "pgn",
        "pgn",
        &["--run-bytes", "65536"],
        long_game(moves, "e4").as_bytes(),
    );
    assert_eq!(counts(&runs), (1, 0), "{}", stderr(&runs));
    assert_eq!(stdout(&runs), stdout(&whole));
    // A FEN past move 65,535 is read with its number, and written so.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 70000";
    let game = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n70000. e4 e5 70001. Nf3 *\n");
    let out = convert("pgn", "pgn", &[], game.as_bytes());
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(fen) && text.contains("70000. e4 e5 70001. Nf3 *"),
        "{text}"
    );
}

/// Text that belongs to no game and is over the limit (a comment after the
/// last game) was a game over the limit, failed: it is a warning of its
/// kind, and the run succeeds.
#[test]
fn comments_of_no_game_over_the_limit_are_a_warning() {
    let limit = format!("--max-record-size={LIMIT}");
    let text = format!(
        "[Event \"a\"]\n\n1. e4 e5 *\n{{{}}}\n",
        "x".repeat(2 * LIMIT)
    );
    let out = convert("pgn", "pgn", &[&limit], text.as_bytes());
    let err = stderr(&out);
    assert_eq!(counts(&out), (1, 0), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("-:4:1: warning[stray-comments]: 8.0 KiB (8195 bytes) of comments or text after game 1 belong to no game, over the limit of 4 KiB on one record: not read, not written"),
        "{err}"
    );
}

/// An XML document's children that are not games (another element, a
/// `<game>` of another shape, text) fail alone, each at its place, and the
/// games beside them convert.
#[test]
fn elements_that_are_not_games_fail_alone_in_xml() {
    let (text, at) = two_games("chess", "xml");
    let bad = "<foo/>\n<game><nothing/></game>\n<bar>text</bar>\nstray text\n";
    let doc = format!("{}{bad}{}", &text[..at], &text[at..]);
    let out = convert("xml", "pgn", &[], doc.as_bytes());
    no_panic(&out);
    let err = stderr(&out);
    assert_eq!(counts(&out), (2, 4), "{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        !err.contains("cut short") && !err.contains("damaged"),
        "{err}"
    );
    assert_eq!(err.matches(": error: game ").count(), 4, "{err}");
}

/// A stray `}` where a JSON array's element begins ended an element of no
/// bytes, and the stream stood still pushing records until memory ran
/// out (found by the fuzz targets `read_json` and `read_aagenielsen_json`).
/// Each such text is an element that fails alone, located.
#[test]
fn a_stray_closing_brace_in_a_json_array_fails_alone() {
    let dir = scratch("damage", "stray_brace_json");
    let game = r#"{"variant":{"family":"chess"},"moves":{"plies":[]}}"#;
    for text in [
        "}".to_string(),
        "[}]".to_string(),
        format!("[{game},}},{game}]"),
        format!("[{game}}}]"),
        format!("{game}}}"),
    ] {
        let file = dir.join("t.json");
        std::fs::write(&file, &text).unwrap();
        let out = kifu_in(
            &dir,
            &[
                "convert",
                "--from",
                "json",
                "--to",
                "json",
                "t.json",
                "-o",
                "/dev/null",
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{text}: {err}");
        assert!(err.contains("t.json:1:"), "{text}: {err}");
    }
}
