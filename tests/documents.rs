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

mod common;

use std::io;
use std::path::Path;

use common::{counts, kifu, no_panic, stderr, stdout};
use kifu::archive::{convert_stream, Converter, Report, Sink, Summary};
use kifu::error::{Diagnostic, Severity};
use kifu::format::{by_name, ReadOptions, WriteOptions};

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
        progress: &mut |_| {},
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
