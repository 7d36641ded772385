//! Typed errors (issue 34, item 5): every problem has a kind
//! (`kifu::error::Kind`), diagnostics are grouped by it, and no code
//! decides by a message's text. A problem cannot be made without a kind
//! (`Problem::at` and `Problem::whole` give an `Unkinded`: the doc test of
//! `kifu::error::Unkinded` shows that a kindless one does not compile);
//! this file checks the rest: the source holds none of the text matches
//! removed, the kinds are shown as they were, and the grouping of a run is
//! by kind, over runs of many damaged games.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use kifu::archive::{convert_stream, Converter, Report, Sink, SHOWN_ERRORS};
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::error::{Diagnostic, Kind, Severity};
use kifu::format::by_name;
use proptest::prelude::*;

/// The code of every source file of `src/`, without its unit tests and
/// its `//` comments: (path, code).
fn sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap();
                let text = match text.find("#[cfg(test)]\nmod tests") {
                    Some(i) => &text[..i],
                    None => &text[..],
                };
                let code: Vec<&str> = text
                    .lines()
                    .map(|l| match l.trim_start().starts_with("//") {
                        true => "",
                        false => l,
                    })
                    .collect();
                out.push((path.display().to_string(), code.join("\n")));
            }
        }
    }
    assert!(out.len() > 50, "{}", out.len());
    out
}

/// No code of `src/` decides by what a message says: not by a problem's
/// or an error's text (`.message.contains(...)`, `message == ...`, an
/// error's `to_string()` matched), not by the words of pest's limits
/// (`"stack limit reached"`), not by the shape of a message (the grouping
/// of old, `archive::shape`); and no problem or diagnostic is of no kind
/// (`kind: None`, `kind: Option<...>`). Each decides by a kind or a typed value.
#[test]
fn no_code_decides_by_a_message_s_text() {
    let patterns = [
        ".message.contains(",
        ".message.starts_with(",
        ".message.ends_with(",
        ".message.find(",
        ".message.as_str() ==",
        "message ==",
        "== message",
        "message.contains(",
        "to_string().contains(",
        "to_string().starts_with(",
        "\"stack limit reached\"",
        "\"call limit reached\"",
        "fn shape(",
        "shape(&d.message)",
        "kind: None",
        "kind: Option<",
    ];
    let mut found = Vec::new();
    for (path, code) in sources() {
        for (i, line) in code.lines().enumerate() {
            for p in patterns {
                if line.contains(p) {
                    found.push(format!("{path}:{}: {p}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "text matched:\n{}", found.join("\n"));
}

/// Every problem made in `src/` is given its kind where it is made: each
/// `Problem::at(...)` and `Problem::whole(...)` is followed by
/// `.of_kind(...)`, or made in a place that hands on an `Unkinded` (a
/// helper whose caller names the kind). The compiler refuses a kindless
/// `Problem`; this counts the places, so that a way around it (a struct
/// literal) is seen.
#[test]
fn every_problem_is_made_with_its_kind() {
    let mut made = 0;
    let mut literal = Vec::new();
    for (path, code) in sources() {
        made += code.matches("Problem::at(").count() + code.matches("Problem::whole(").count();
        if path.ends_with("error.rs") {
            continue;
        }
        for (i, line) in code.lines().enumerate() {
            if line.contains("Problem {") && !line.contains("->") && !line.contains("impl") {
                literal.push(format!("{path}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(made > 200, "{made}");
    assert!(
        literal.is_empty(),
        "a Problem made as a struct literal, not by Problem::at/whole(...).of_kind:\n{}",
        literal.join("\n")
    );
}

/// Messages show a kind where [`Kind::shown`] (every warning's kind of
/// old and the few errors that showed theirs: `error[too-deep]`); the
/// kinds errors gained are not shown, so that their messages are as they
/// were. Every kind has a name of its own and a sentence in the book.
#[test]
fn a_kind_is_shown_where_it_was_and_nowhere_else() {
    let quiet: Vec<Kind> = Kind::ALL.iter().copied().filter(|k| !k.shown()).collect();
    assert!(quiet.contains(&Kind::Syntax) && quiet.contains(&Kind::IllegalMove));
    for kind in [
        Kind::TooDeep,
        Kind::VariantUnplayed,
        Kind::Latin1,
        Kind::CsvCannotHold,
    ] {
        assert!(kind.shown(), "{kind}");
    }
    for &kind in Kind::ALL {
        for severity in [Severity::Error, Severity::Warning] {
            let d = Diagnostic {
                severity,
                file: "f.pgn".into(),
                line: 3,
                col: 1,
                game: 2,
                message: "what".into(),
                kind,
            };
            let word = match severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let said = match kind.shown() {
                true => format!("f.pgn:3:1: {word}[{kind}]: game 2: what"),
                false => format!("f.pgn:3:1: {word}: game 2: what"),
            };
            assert_eq!(d.to_string(), said);
        }
        assert!(!kind.what().is_empty(), "{kind}");
    }
}

/// A chess game that fails (or not) in a way of its own, its number `n`
/// making each one's text its own; with the kind of its failure.
fn game(template: usize, n: usize) -> (String, Option<Kind>) {
    let event = format!("[Event \"g{n}\"]\n\n");
    let (moves, kind) = match template {
        0 => (format!("1. e4 e5 2. Nf3 {{{n}}} *"), None),
        // Moves the rules refuse, of two wordings (illegal; no piece).
        1 => (
            format!("1. e4 e5 2. Ke{} *", 3 + n % 4),
            Some(Kind::IllegalMove),
        ),
        2 => (format!("1. d4 {{{n}}} Qh4 *"), Some(Kind::IllegalMove)),
        // Text the grammar does not read.
        3 => (format!("1. e4 @{n} *"), Some(Kind::Syntax)),
        // A move number too large.
        4 => (
            format!("1{n}000000000000000000000. e4 *"),
            Some(Kind::NumberTooLarge),
        ),
        // A FEN kifu cannot read.
        _ => {
            let tags = format!("[Event \"g{n}\"]\n[SetUp \"1\"]\n[FEN \"x{n}\"]\n\n");
            return (format!("{tags}1. e4 *\n\n"), Some(Kind::TagValue));
        }
    };
    (format!("{event}{moves}\n\n"), kind)
}

/// The diagnostics of a pgn input converted in-process as `kifu convert`
/// does, grouped (`verbose` false) or each as it comes.
fn diagnostics(input: &str, verbose: bool) -> Vec<Diagnostic> {
    let conv = Converter {
        from: by_name("pgn").expect("pgn"),
        to: by_name("jsonl").expect("jsonl"),
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let mut sink = Sink::new(std::io::sink(), conv.to.framing);
    let mut seen = Vec::new();
    let mut keep = |d: &Diagnostic| seen.push(d.clone());
    let mut report = Report {
        diagnostic: &mut keep,
        reject: None,
        progress: &mut |_| Ok(()),
        strict: false,
        verbose,
    };
    convert_stream(input.as_bytes(), "t.pgn", &conv, &mut sink, &mut report).expect("runs");
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Over games failing in several ways, in any order: each game's error
    /// is of the kind of its failure, and the run groups errors by kind
    /// alone, whatever their words: of a kind that came `n` times, the
    /// first [`SHOWN_ERRORS`] are shown as they come and the rest are one
    /// line at the end, the first of them with `(N more like this)`.
    #[test]
    fn a_run_groups_its_errors_by_kind(picks in proptest::collection::vec(0usize..6, 1..40)) {
        let mut input = String::new();
        let mut wanted: Vec<Option<Kind>> = Vec::new();
        for (n, &t) in picks.iter().enumerate() {
            let (text, kind) = game(t, n);
            input.push_str(&text);
            wanted.push(kind);
        }
        let every = diagnostics(&input, true);
        let failed: Vec<Kind> = wanted.iter().flatten().copied().collect();
        let errors: Vec<&Diagnostic> =
            every.iter().filter(|d| d.severity == Severity::Error).collect();
        prop_assert_eq!(
            errors.iter().map(|d| d.kind).collect::<Vec<_>>(),
            failed.clone(),
            "{:?}",
            errors.iter().map(|d| d.to_string()).collect::<Vec<_>>()
        );
        for d in &errors {
            // Errors of the kinds they gained show none.
            prop_assert!(d.to_string().contains(": error: "), "{}", d);
        }
        let mut count: BTreeMap<Kind, usize> = BTreeMap::new();
        for k in &failed {
            *count.entry(*k).or_default() += 1;
        }
        let grouped = diagnostics(&input, false);
        for (&kind, &n) in &count {
            let of: Vec<&Diagnostic> = grouped
                .iter()
                .filter(|d| d.severity == Severity::Error && d.kind == kind)
                .collect();
            let held = usize::from(n > SHOWN_ERRORS);
            prop_assert_eq!(of.len(), n.min(SHOWN_ERRORS) + held, "{}: {:?}", kind, of);
            let more = of.iter().filter(|d| d.message.ends_with("more like this)")).count();
            prop_assert_eq!(more, usize::from(n > SHOWN_ERRORS + 1), "{}", kind);
            if n > SHOWN_ERRORS + 1 {
                let last = of.last().unwrap();
                let tail = format!(" ({} more like this)", n - SHOWN_ERRORS - 1);
                prop_assert!(last.message.ends_with(&tail), "{}", last);
            }
        }
    }
}

/// At the command line: errors of one kind and of different words are one
/// group (`(N more like this)` counts them together), the errors show no
/// kind, and a game type of aagenielsen.dk that is not tafl is
/// `error[variant-unplayed]`, as conformance/peers.py counts it.
#[test]
fn the_command_line_groups_errors_by_kind() {
    let mut input = String::new();
    for n in 0..6 {
        input.push_str(&game(1 + n % 2, n).0);
    }
    let out = common::convert("pgn", "jsonl", &[], input.as_bytes());
    let said = common::stderr(&out);
    let lines: Vec<&str> = said.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(lines.len(), SHOWN_ERRORS + 1, "{said}");
    assert!(lines.iter().all(|l| l.contains(": error: game ")), "{said}");
    assert!(
        lines[SHOWN_ERRORS].ends_with(" (2 more like this)"),
        "{said}"
    );
    assert!(said.contains("converted 0 games, 6 failed"), "{said}");

    let record = r#"{"AageGameTypeName": "Daldøs 3x12", "Moves": ["e2-e4"]}"#;
    let out = common::convert("aagenielsen-json", "tafl", &[], record.as_bytes());
    let said = common::stderr(&out);
    assert!(
        said.contains(": error[variant-unplayed]: ") && said.contains("is not a tafl game"),
        "{said}"
    );
}
