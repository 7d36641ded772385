//! Damaged interchange documents and tables: a json or xml document cut
//! short at any byte, and csv tables with stray quotes, dropped columns,
//! rows cut short. The games before the damage are kept, the damage is an
//! error at its place, and every game is counted once, converted or
//! failed, whatever the damage: never a panic, never a game lost in
//! silence.
//!
//! The process-level tests run the `kifu` binary; the properties run the
//! pipeline in-process (`convert_stream`, as `kifu convert` does), so that
//! every byte offset of a document is tried in a few seconds.

use crate::common;

use std::io;
use std::path::Path;

use common::{counts, kifu, no_panic, stderr, stdout};
use kifu::archive::{convert_stream, Converter, Report, Sink, Summary};
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::error::{Diagnostic, Severity};
use kifu::format::by_name;

/// Five short chess games of one pgn file, told apart by their Event.
fn pgn(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "[Event \"g{i}\"]\n[White \"W, {i}\"]\n[Black \"say \\\"{i}\\\"\"]\n\n\
                 1. e4 {{a comment, \"quoted\"}} e5 2. Nf3 (2. f4 exf4) Nc6 *\n\n"
            )
        })
        .collect()
}

/// `pgn(n)` converted by the binary to `to` (standard output).
fn written(n: usize, to: &str) -> Vec<u8> {
    let out = common::convert("pgn", to, &[], pgn(n).as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    out.stdout
}

/// Converts an input in-process, as `kifu convert` does: the counts and
/// every diagnostic.
fn convert_in_process(input: impl io::Read + Send, from: &str) -> (Summary, Vec<Diagnostic>) {
    let conv = Converter {
        from: by_name(from).expect("a format"),
        to: by_name("jsonl").expect("jsonl"),
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let mut sink = Sink::new(io::sink(), conv.to.framing);
    let mut seen = Vec::new();
    let mut keep = |d: &Diagnostic| seen.push(d.clone());
    let mut report = Report {
        diagnostic: &mut keep,
        reject: None,
        progress: &mut |_| Ok(()),
        strict: false,
        verbose: true,
    };
    let summary = convert_stream(input, "doc", &conv, &mut sink, &mut report).expect("runs");
    (summary, seen)
}

/// Where each game of a document ends (the byte after it): after each
/// `}` that closes a json element, each `</game>`, each jsonl line.
fn game_ends(doc: &[u8], format: &str) -> Vec<usize> {
    let text = std::str::from_utf8(doc).unwrap();
    match format {
        "xml" => text
            .match_indices("</game>")
            .map(|(i, m)| i + m.len())
            .collect(),
        "json" => {
            let mut ends = Vec::new();
            let mut at = 0;
            for line in text.split_inclusive('\n') {
                if line.starts_with('{') {
                    let body = line.trim_end().trim_end_matches(',');
                    ends.push(at + body.len());
                }
                at += line.len();
            }
            ends
        }
        _ => text
            .match_indices('\n')
            .map(|(i, _)| i) // a line is whole without its newline
            .collect(),
    }
}

#[test]
fn a_document_cut_at_a_game_boundary_is_an_error_at_its_end_and_the_games_before_it_convert() {
    let tmp = tempfile::tempdir().unwrap();
    for (format, lacks) in [("json", "`]`"), ("xml", "`</games>`")] {
        let doc = written(5, format);
        let ends = game_ends(&doc, format);
        assert_eq!(ends.len(), 5, "{format}");
        // Cut after the third game's line end.
        let stop = ends[2] + doc[ends[2]..].iter().position(|&b| b == b'\n').unwrap() + 1;
        let cut = &doc[..stop];
        let file = tmp.path().join(format!("cut.{format}"));
        std::fs::write(&file, cut).unwrap();
        let out = kifu(&["convert", "--to", "pgn", file.to_str().unwrap()], b"");
        no_panic(&out);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{format}: {err}");
        assert_eq!(counts(&out), (3, 0), "{format}: {err}");
        assert_eq!(stdout(&out).matches("[Event ").count(), 3, "{format}");
        // At the end of the input: the line after the third game, column 1.
        let line = cut.iter().filter(|&&b| b == b'\n').count() + 1;
        let want =
            format!("cut.{format}:{line}:1: error: the document ends here, before the {lacks}",);
        let want = want.replace("the `</games>`", "`</games>`");
        assert!(err.contains(&want), "{format}: no `{want}` in\n{err}");
        assert!(err.contains("1 input damaged"), "{format}: {err}");
        // diff says so too, after the pairs before it.
        let whole = tmp.path().join(format!("whole.{format}"));
        std::fs::write(&whole, &doc).unwrap();
        let out = kifu(
            &["diff", whole.to_str().unwrap(), file.to_str().unwrap()],
            b"",
        );
        no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{format}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("the document ends here"),
            "{format}: {}",
            stderr(&out)
        );
    }
    // A jsonl file whose last line has no line end is whole.
    let doc = written(3, "jsonl");
    let out = common::convert("jsonl", "pgn", &[], &doc[..doc.len() - 1]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(counts(&out), (3, 0));
}

#[test]
fn a_document_cut_at_every_byte_keeps_the_games_before_and_is_never_silent() {
    for format in ["json", "xml", "jsonl"] {
        let doc = written(3, format);
        let ends = game_ends(&doc, format);
        assert_eq!(ends.len(), 3, "{format}");
        let whole = std::str::from_utf8(&doc).unwrap().trim_end();
        for k in 0..doc.len() {
            let cut = &doc[..k];
            let (done, seen) = convert_in_process(cut, format);
            let before = ends.iter().filter(|&&e| e <= k).count();
            let at = format!("{format} cut at {k}: {done:?} {seen:?}");
            assert_eq!(done.converted, before, "{at}");
            assert!(done.failed <= 1, "{at}");
            let text = std::str::from_utf8(cut).unwrap_or("");
            let blank = text.trim().is_empty();
            let complete = text.trim_end() == whole;
            let errors = seen.iter().filter(|d| d.severity == Severity::Error);
            // jsonl has no frame: a cut between lines is no damage.
            let between = format == "jsonl" && (k == 0 || doc[k - 1] == b'\n' || ends.contains(&k));
            if blank || complete || between {
                assert_eq!((done.failed, done.damaged), (0, 0), "{at}");
            } else {
                assert!(done.failed + done.damaged >= 1, "silent: {at}");
            }
            assert_eq!(errors.clone().count(), done.failed + done.damaged, "{at}");
            for d in errors {
                assert!(d.line > 0 && d.col > 0, "unlocated: {at}");
            }
        }
    }
}

/// The csv tables of `pgn(n)`, written by the binary into `dir`.
fn tables(n: usize, dir: &Path) {
    let out = kifu(
        &[
            "convert",
            "--from",
            "pgn",
            "--to",
            "csv",
            "--out-dir",
            dir.to_str().unwrap(),
            "-",
        ],
        pgn(n).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Converts the tables in `dir` in-process: the counts and diagnostics, or
/// the error that ended the input.
fn convert_tables(dir: &Path) -> Result<(Summary, Vec<Diagnostic>), String> {
    let folder = by_name("csv").unwrap().split.folder().unwrap();
    let input = folder.open(dir).map_err(|e| e.to_string())?;
    let conv = Converter {
        from: by_name("csv").unwrap(),
        to: by_name("jsonl").unwrap(),
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let mut sink = Sink::new(io::sink(), conv.to.framing);
    let mut seen = Vec::new();
    let mut keep = |d: &Diagnostic| seen.push(d.clone());
    let mut report = Report {
        diagnostic: &mut keep,
        reject: None,
        progress: &mut |_| Ok(()),
        strict: false,
        verbose: true,
    };
    let done = convert_stream(input, "t", &conv, &mut sink, &mut report);
    let done = done.map_err(|e| e.to_string())?;
    Ok((done, seen))
}

/// The rows of games.csv a table's text holds, after its header: each
/// line, a last one without its line end included (kifu writes no line end
/// inside a field of these games).
fn games_rows(text: &[u8]) -> usize {
    text.split_inclusive(|&b| b == b'\n').skip(1).count()
}

/// Runs `kifu convert --from csv DIR --to pgn`: the exit code, counts,
/// standard output and error.
fn convert_dir(dir: &Path) -> (Option<i32>, (usize, usize), String, String) {
    let out = kifu(
        &[
            "convert",
            "--from",
            "csv",
            "--to",
            "pgn",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    no_panic(&out);
    let err = stderr(&out);
    let counted = if err.contains("converted ") {
        counts(&out)
    } else {
        (0, 0)
    };
    (out.status.code(), counted, stdout(&out), err)
}

/// Edits line `line` (from 0, the header) of a table: `edit` gives the new
/// line from the old (without its line end).
fn edit_row(dir: &Path, file: &str, line: usize, edit: impl Fn(&str) -> String) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.split("\r\n").map(str::to_string).collect();
    lines[line] = edit(&lines[line]);
    std::fs::write(&path, lines.join("\r\n")).unwrap();
}

/// How a test changes a row.
type Edit = Box<dyn Fn(&str) -> String>;

#[test]
fn a_stray_quote_in_any_table_fails_its_game_alone_and_every_game_is_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let fresh = |name: &str| {
        let dir = tmp.path().join(name);
        tables(5, &dir);
        dir
    };
    // Line 5 of tags.csv (index 4) is game 2's first tag (Event): a quote
    // in the middle of its value, then at the start of it (never closed);
    // line 8 of moves.csv is game 2's first ply (game 1 has six rows).
    let cases: Vec<(&str, usize, Edit, &str)> = vec![
        (
            "tags.csv",
            4,
            Box::new(|l: &str| l.replace(",g2", ",g\"2")),
            "tags.csv line 5, column 27: a quote inside a field that is not quoted",
        ),
        (
            "tags.csv",
            4,
            Box::new(|l: &str| l.replace(",g2", ",\"g2")),
            "a quoted field is never closed",
        ),
        (
            "games.csv",
            2,
            Box::new(|l: &str| l.replace(",g2,", ",g\"2,")),
            "games.csv line 3, column",
        ),
        (
            "games.csv",
            2,
            Box::new(|l: &str| l.replace(",g2,", ",\"g2,")),
            "games.csv line 3",
        ),
        (
            "moves.csv",
            7,
            Box::new(|l: &str| l.replace(",white,", ",\"white,")),
            "moves.csv line 8",
        ),
        // A missing column, and one too many.
        (
            "games.csv",
            2,
            Box::new(|l: &str| l.replacen(",g2,", ",", 1)),
            "16 columns where games.csv has 17",
        ),
        (
            "tags.csv",
            4,
            Box::new(|l: &str| format!("{l},x")),
            "5 columns where tags.csv has 4",
        ),
    ];
    for (i, (file, line, edit, said)) in cases.into_iter().enumerate() {
        let dir = fresh(&format!("c{i}"));
        edit_row(&dir, file, line, edit);
        let (code, counted, out, err) = convert_dir(&dir);
        let at = format!("{file} case {i}: {err}");
        assert_eq!(code, Some(1), "{at}");
        assert_eq!(counted, (4, 1), "{at}");
        assert!(err.contains(said), "{at}");
        assert!(err.contains("error: game 2: "), "{at}");
        for g in [1, 3, 4, 5] {
            assert!(
                out.contains(&format!("[Event \"g{g}\"]")),
                "g{g}: {at}\n{out}"
            );
        }
    }
    // A quote never closed in the last row of moves.csv, with no line end.
    let dir = fresh("last");
    let moves = dir.join("moves.csv");
    let text = std::fs::read_to_string(&moves).unwrap();
    let cut = text.trim_end().rsplit_once(',').unwrap().0.to_string();
    std::fs::write(&moves, format!("{cut},\"{{\"\"open")).unwrap();
    let (code, counted, _, err) = convert_dir(&dir);
    assert_eq!((code, counted), (Some(1), (4, 1)), "{err}");
    assert!(err.contains("error: game 5: moves.csv line"), "{err}");
    // A CR LF inside a quoted field is the field's: a tag value of two
    // lines.
    let dir = fresh("crlf");
    edit_row(&dir, "tags.csv", 4, |l| l.replace(",g2", ",\"g\r\n2\""));
    let (code, counted, out, err) = convert_dir(&dir);
    assert_eq!(counted, (5, 0), "{err}");
    assert_ne!(code, Some(2), "{err}");
    // (pgn writes the line break as a space, with a warning.)
    assert!(out.contains("[Event \"g 2\"]"), "{out}");
    assert!(err.contains("holds line breaks"), "{err}");
    // Rows of a game that games.csv lacks (its row deleted): the game
    // whose rows they are found among fails, saying so; the others convert.
    let dir = fresh("lacks");
    edit_row(&dir, "games.csv", 3, |_| String::new());
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    std::fs::write(dir.join("games.csv"), text.replace("\r\n\r\n", "\r\n")).unwrap();
    let (code, counted, out, err) = convert_dir(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(counted, (3, 1), "{err}");
    assert!(err.contains("which games.csv does not have here"), "{err}");
    for g in [1, 4, 5] {
        assert!(
            out.contains(&format!("[Event \"g{g}\"]")),
            "g{g}: {err}\n{out}"
        );
    }
}

/// A small deterministic generator (xorshift), so that a failure names its
/// case and comes back.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

#[test]
fn damaged_tables_count_every_game_once_whatever_the_damage() {
    let tmp = tempfile::tempdir().unwrap();
    let clean = tmp.path().join("clean");
    tables(6, &clean);
    let files = ["games.csv", "tags.csv", "moves.csv"];
    let original: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(clean.join(f)).unwrap())
        .collect();
    let dir = tmp.path().join("damaged");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..400 {
        let t = rng.below(3);
        let mut text = original[t].clone();
        let header = text.iter().position(|&b| b == b'\n').unwrap() + 1;
        let at = header + rng.below(text.len() - header);
        let kind = rng.below(7);
        match kind {
            0 => text.insert(at, b'"'),
            1 => text.insert(at, b','),
            2 => text.insert(at, [b'[', b']', b'{', b'}'][rng.below(4)]),
            // A column dropped: from a comma to the next.
            3 => {
                if let Some(c) = text[at..].iter().position(|&b| b == b',') {
                    let from = at + c;
                    let to = text[from + 1..]
                        .iter()
                        .position(|&b| b == b',' || b == b'\r')
                        .map_or(text.len(), |e| from + 1 + e);
                    text.drain(from..to);
                }
            }
            4 => text.truncate(at),
            5 => {
                text.remove(at);
            }
            _ => text[at] = b'"',
        }
        for (f, (name, bytes)) in files.iter().zip(&original).enumerate() {
            let bytes = if f == t { &text } else { bytes };
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        let games_text = if t == 0 { &text } else { &original[0] };
        let want = games_rows(games_text);
        let what = format!(
            "case {case}: {} kind {kind} at {at}: {}",
            files[t],
            String::from_utf8_lossy(
                &text[at.saturating_sub(40).min(text.len())..(at + 40).min(text.len())]
            )
        );
        match convert_tables(&dir) {
            Ok((done, seen)) => {
                assert_eq!(done.converted + done.failed, want, "{what}: {done:?}");
                let errors = seen.iter().filter(|d| d.severity == Severity::Error);
                assert_eq!(errors.clone().count(), done.failed, "{what}");
                for d in errors {
                    assert!(d.line > 0 && d.col > 0 && d.game > 0, "{what}: {d:?}");
                }
            }
            // Rows of no game where games.csv has no game left: an error
            // of the input, located.
            Err(e) => assert!(want == 0 && e.contains(".csv:"), "{what}: {e}"),
        }
    }
}
