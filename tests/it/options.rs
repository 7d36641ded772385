//! Options belong to formats: `--from-opt NAME=VALUE` and `--to-opt
//! NAME=VALUE` set an option of the input or the output format, each format
//! declares and parses its own, an option no format of the run declares is
//! a usage error that lists the formats' options (before anything is
//! written), `kifu formats` and `kifu convert --help` list them from the
//! registry, and `--pieces` and `--variant` still work as shorthands.

use crate::common;

use std::fs;

use common::{convert, kifu, stderr, stdout};
use kifu::codec::Framing;
use kifu::format::Format;
use kifu::options::run::resolve;
use kifu::options::{FormatOption, FormatOptions, Given, Options, Side, Sides, Values};

const GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";

/// Runs a conversion that must succeed; gives its output.
fn ok(from: &str, to: &str, extra: &[&str], input: &[u8]) -> String {
    let out = convert(from, to, extra, input);
    assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
    stdout(&out)
}

/// Runs a conversion that must be a usage error; gives its message.
fn refused(from: &str, to: &str, extra: &[&str], input: &[u8]) -> String {
    let out = convert(from, to, extra, input);
    assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
    assert!(out.stdout.is_empty(), "{extra:?}: wrote {}", stdout(&out));
    stderr(&out)
}

#[test]
fn to_opt_and_from_opt_set_the_pieces_of_each_side() {
    let german = ok(
        "pgn",
        "sllavcco",
        &["--to-opt", "pieces=de"],
        GAME.as_bytes(),
    );
    assert!(
        german.contains("\tS3\t") && german.contains("L5"),
        "{german}"
    );
    // The shorthand sets the same option.
    assert_eq!(
        ok("pgn", "sllavcco", &["--pieces", "de"], GAME.as_bytes()),
        german
    );
    // Read back with the input's option.
    let back = ok(
        "sllavcco",
        "pgn",
        &["--from-opt", "pieces=de"],
        german.as_bytes(),
    );
    assert!(back.contains("2. Nf3 Nc6 3. Bb5 a6 *"), "{back}");
    // Each side its own: a German sheet rewritten in French letters, which
    // one option for both sides could not say.
    let french = ok(
        "sllavcco",
        "sllavcco",
        &["--from-opt", "pieces=de", "--to-opt", "pieces=fr"],
        german.as_bytes(),
    );
    assert_eq!(
        french,
        ok(
            "pgn",
            "sllavcco",
            &["--to-opt", "pieces=fr"],
            GAME.as_bytes()
        )
    );
    assert!(
        french.contains("\tC3\t") && french.contains("F5"),
        "{french}"
    );
    // Without the option, the German letters are not English ones.
    let out = convert("sllavcco", "pgn", &[], german.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn a_later_value_wins_over_the_shorthand() {
    assert_eq!(
        ok(
            "pgn",
            "sllavcco",
            &["--to-opt", "pieces=fr", "--pieces", "de"],
            GAME.as_bytes()
        ),
        ok(
            "pgn",
            "sllavcco",
            &["--to-opt", "pieces=fr"],
            GAME.as_bytes()
        )
    );
    assert_eq!(
        ok(
            "pgn",
            "sllavcco",
            &["--to-opt", "pieces=de", "--to-opt", "pieces=nl"],
            GAME.as_bytes()
        ),
        ok("pgn", "sllavcco", &["--pieces", "nl"], GAME.as_bytes())
    );
}

#[test]
fn the_same_word_in_two_formats_is_each_formats_own() {
    // `pieces` of sllavcco (English by default) and of sllavcco-html
    // (figurines by default): the option of the input leaves the output's
    // default alone.
    let german = ok("pgn", "sllavcco", &["--pieces", "de"], GAME.as_bytes());
    let html = ok(
        "sllavcco",
        "sllavcco-html",
        &["--from-opt", "pieces=de"],
        german.as_bytes(),
    );
    assert!(
        html.contains("<td><span class=\"fw\">♘</span>3</td>"),
        "{html}"
    );
    let html = ok(
        "sllavcco",
        "sllavcco-html",
        &["--from-opt", "pieces=de", "--to-opt", "pieces=en"],
        german.as_bytes(),
    );
    assert!(
        html.contains("<td>N3</td>") && !html.contains('♘'),
        "{html}"
    );
    // The shorthand sets both.
    let html = ok(
        "sllavcco",
        "sllavcco-html",
        &["--pieces", "de"],
        german.as_bytes(),
    );
    assert!(html.contains("<td>S3</td>"), "{html}");
}

#[test]
fn from_opt_board_is_what_variant_was() {
    let english = b"1. 11-15 23-19 2. 8-11 22-17 *\n";
    let named = ok(
        "draughts-num",
        "draughts-diag",
        &["--from-opt", "board=english"],
        english,
    );
    assert_eq!(named, "[GameType \"21\"]\n\n1. d65 e45 2. d76 dc3 *\n");
    assert_eq!(
        ok(
            "draughts-num",
            "draughts-diag",
            &["--variant", "english"],
            english
        ),
        named
    );
    assert_eq!(
        ok(
            "draughts-num",
            "draughts-diag",
            &["--from-opt", "board=21"],
            english
        ),
        named
    );
    let diag = ok(
        "draughts-diag",
        "draughts-num",
        &["--from-opt", "board=english"],
        named.as_bytes(),
    );
    assert!(diag.contains("1. 11-15 23-19 2. 8-11 22-17 *"), "{diag}");
    let err = refused(
        "draughts-num",
        "draughts-num",
        &["--from-opt", "board=klingon"],
        english,
    );
    assert!(
        err.contains("--from-opt board=klingon: draughts-num: ")
            && err.contains("known variants: international, english"),
        "{err}"
    );
}

#[test]
fn an_option_the_format_does_not_declare_is_an_error_listing_its_options() {
    let err = refused(
        "pgn",
        "pgn",
        &["--to-opt", "layout=columns"],
        GAME.as_bytes(),
    );
    assert!(
        err.contains("--to-opt layout=columns: the output format pgn has no option `layout`; pgn has no options"),
        "{err}"
    );
    let err = refused(
        "pgn",
        "sllavcco",
        &["--to-opt", "colour=red"],
        GAME.as_bytes(),
    );
    assert!(
        err.contains("the output format sllavcco has no option `colour`; sllavcco's options: pieces (read, write): "),
        "{err}"
    );
    // An option of the format's other side.
    let err = refused(
        "draughts-num",
        "draughts-diag",
        &["--to-opt", "board=english"],
        b"1. 32-28 *\n",
    );
    assert!(
        err.contains("the output format draughts-diag has no option `board` when writing; draughts-diag's options: board (read): "),
        "{err}"
    );
    let err = refused(
        "pgn",
        "sllavcco",
        &["--from-opt", "pieces=de"],
        GAME.as_bytes(),
    );
    assert!(
        err.contains("the input format pgn has no option `pieces`"),
        "{err}"
    );
    // A shorthand no format of the run has.
    let err = refused("pgn", "json", &["--pieces", "de"], GAME.as_bytes());
    assert!(
        err.contains("--pieces de: no format of this run has an option `pieces` (input pgn, output json); pgn has no options; json has no options"),
        "{err}"
    );
    let err = refused("pgn", "pgn", &["--variant", "english"], GAME.as_bytes());
    assert!(err.contains("--variant english: "), "{err}");
    // Not NAME=VALUE.
    let err = refused("pgn", "sllavcco", &["--to-opt", "pieces"], GAME.as_bytes());
    assert!(err.contains("--to-opt pieces: write NAME=VALUE"), "{err}");
    // A value the format refuses.
    let err = refused(
        "pgn",
        "sllavcco",
        &["--to-opt", "pieces=xx"],
        GAME.as_bytes(),
    );
    assert!(
        err.contains("--to-opt pieces=xx: sllavcco: `xx` is no piece set: give en"),
        "{err}"
    );
}

#[test]
fn an_option_error_comes_before_any_output_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("g.pgn");
    fs::write(&input, GAME).unwrap();
    let new = dir.path().join("new.sllavcco");
    let old = dir.path().join("old.sllavcco");
    fs::write(&old, "kept").unwrap();
    let rejects = dir.path().join("rejects.pgn");
    for (out, option) in [(&new, "layout=columns"), (&old, "pieces=xx")] {
        let run = kifu(
            &[
                "convert",
                "--to",
                "sllavcco",
                "--to-opt",
                option,
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--rejects",
                rejects.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(stderr(&run).contains(option), "{}", stderr(&run));
    }
    assert!(!new.exists() && !rejects.exists());
    assert_eq!(fs::read_to_string(&old).unwrap(), "kept");
    let mut left: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["g.pgn", "old.sllavcco"]);
}

#[test]
fn options_act_on_the_input_formats_of_a_folder_that_have_them() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    fs::create_dir(&inputs).unwrap();
    fs::write(inputs.join("a.pgn"), GAME).unwrap();
    fs::write(inputs.join("b.pdn"), "1. 11-15 23-19 *\n").unwrap();
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "convert",
            "--to",
            "jsonl",
            inputs.to_str().unwrap(),
            "--out-dir",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        kifu(&args, b"")
    };
    // board is draughts-num's: the chess file converts as it is.
    let done = run(&["--from-opt", "board=english"]);
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let draughts = fs::read_to_string(out.join("b.jsonl")).unwrap();
    assert!(draughts.contains("\"game_type\":21"), "{draughts}");
    assert!(fs::read_to_string(out.join("a.jsonl"))
        .unwrap()
        .contains("\"family\":\"chess\""));
    // An option neither input format has.
    let refused = run(&["--from-opt", "pieces=de"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains(
            "--from-opt pieces=de: no format of this run has an option `pieces` (input pgn, input draughts-num)"
        ),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn formats_and_help_list_each_formats_options() {
    let out = kifu(&["formats"], b"");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    for (name, option) in [
        ("draughts-num", "option board (read): "),
        ("draughts-diag", "option board (read): "),
        ("sllavcco", "option pieces (read, write): "),
        ("sllavcco-html", "option pieces (write): "),
    ] {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing: {text}"));
        assert!(
            lines[at + 1].trim_start().starts_with(option),
            "{name}: {text}"
        );
    }
    assert!(text.contains("(default figurine)") && text.contains("(default en)"));
    // pgn has none: the next line is the next format.
    let at = lines.iter().position(|l| l.starts_with("pgn ")).unwrap();
    assert!(lines[at + 1].starts_with("draughts-num "), "{text}");

    let out = kifu(&["convert", "--help"], b"");
    assert!(out.status.success());
    let help = stdout(&out);
    assert!(help.contains("--from-opt <NAME=VALUE>") && help.contains("--to-opt <NAME=VALUE>"));
    assert!(help.contains("  sllavcco-html  pieces (write): "), "{help}");
    assert!(help.contains("  draughts-diag  board (read): "), "{help}");
    assert!(
        help.contains("on the formats that have it (sllavcco, sllavcco-html, svg, html)"),
        "{help}"
    );
    assert!(
        help.contains("on the formats that have it (draughts-num, draughts-diag, tafl, otn)"),
        "{help}"
    );
}

/// A test format's options: `pieces` as a count.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Count {
    pieces: u8,
}

impl FormatOptions for Count {
    const LIST: &'static [FormatOption] = &[FormatOption {
        name: "pieces",
        sides: Sides::Read,
        values: Values::Kind("a number"),
        default: "0",
        help: "how many pieces",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "pieces" => self.pieces = value.parse().map_err(|_| "not a number".to_string())?,
            _ => return Err(kifu::options::undeclared(name)),
        }
        Ok(())
    }
}

/// Another test format's options: `pieces` as a word, and a layout.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Words {
    tall: bool,
    columns: bool,
}

impl FormatOptions for Words {
    const LIST: &'static [FormatOption] = &[
        FormatOption {
            name: "pieces",
            sides: Sides::Both,
            values: Values::OneOf(&["short", "tall"]),
            default: "short",
            help: "the piece names",
        },
        FormatOption {
            name: "layout",
            sides: Sides::Write,
            values: Values::OneOf(&["text", "columns"]),
            default: "text",
            help: "the layout",
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "pieces" => self.tall = value == "tall",
            "layout" => self.columns = value == "columns",
            _ => return Err(kifu::options::undeclared(name)),
        }
        Ok(())
    }
}

fn test_format(name: &'static str, options: Options) -> Format {
    Format {
        name,
        extensions: &[],
        names: &[],
        family: None,
        description: "a test format",
        split: kifu::format::by_name("jsonl").unwrap().split,
        read: None,
        write: None,
        runs: None,
        spell: None,
        framing: Framing::PLAIN,
        one_game: false,
        options,
    }
}

#[test]
fn a_new_format_brings_its_options_in_its_registry_entry_alone() {
    // Two formats that spell `pieces` differently, each parsing its own;
    // nothing but their entries says so.
    let a: &'static Format = Box::leak(Box::new(test_format("a", Options::of::<Count>())));
    let b: &'static Format = Box::leak(Box::new(test_format("b", Options::of::<Words>())));
    let given = |side, text: &str| Given::parse(side, text).unwrap();
    let run = resolve(
        &[
            given(Side::Read, "pieces=3"),
            given(Side::Write, "pieces=TALL"),
            given(Side::Write, "layout=columns"),
        ],
        &[a],
        b,
    )
    .unwrap();
    assert_eq!(run.read(a).get::<Count>(), Some(&Count { pieces: 3 }));
    assert_eq!(
        run.write().get::<Words>(),
        Some(&Words {
            tall: true,
            columns: true
        })
    );
    // The other way round, each side gets the other format's meaning.
    let e = resolve(&[given(Side::Write, "pieces=3")], &[b], a).unwrap_err();
    assert!(
        e.to_string()
            .contains("the output format a has no option `pieces` when writing"),
        "{e}"
    );
    let e = resolve(&[given(Side::Read, "pieces=3")], &[b], a).unwrap_err();
    assert!(
        e.to_string()
            .contains("--from-opt pieces=3: b: `3` is not a value of pieces: give short, tall"),
        "{e}"
    );
    let e = resolve(&[given(Side::Read, "pieces=tall")], &[a], b).unwrap_err();
    assert!(
        e.to_string()
            .contains("--from-opt pieces=tall: a: not a number"),
        "{e}"
    );
    // A shorthand for both sides sets it where each side declares it.
    let both = Given::shorthand("--pieces", Sides::Both, "pieces", "tall");
    let run = resolve(&[both], &[b], b).unwrap();
    assert!(run.read(b).get::<Words>().unwrap().tall);
    assert!(run.write().get::<Words>().unwrap().tall);
    // Nothing given: each format's defaults, typed.
    let run = resolve(&[], &[a], b).unwrap();
    assert_eq!(run.read(a).get::<Count>(), Some(&Count::default()));
    assert_eq!(run.write().get::<Words>(), Some(&Words::default()));
}
