//! What a person meets: warnings grouped by kind, counts in words, messages
//! that say what happened and what to do, help built from the registry,
//! shell completions and the manual page.

use crate::common;

use common::{convert, kifu, stderr, stdout};

/// Three games whose comments a scoresheet cannot hold, each a different
/// count (so a different message): one kind.
const ANNOTATED: &str = "{a} 1. e4 {b} e5 *\n\n1. d4 {c} d5 *\n\n1. c4 (1. Nf3) c5 *\n";

#[test]
fn warnings_of_one_kind_are_one_line_with_a_count_and_verbose_lists_them() {
    let out = convert("pgn", "sllavcco", &[], ANNOTATED.as_bytes());
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "-:1:1: warning[dropped-annotations]: game 1: a scoresheet has no place for \
             comments, variations and NAGs: dropped 2 comments (2 more like this)",
            "converted 3 games, 0 failed, 3 warnings",
        ],
        "{err}"
    );
    let out = convert("pgn", "sllavcco", &["--verbose"], ANNOTATED.as_bytes());
    let err = stderr(&out);
    assert_eq!(
        err.matches("warning[dropped-annotations]").count(),
        3,
        "{err}"
    );
    assert!(err.contains("game 3: a scoresheet has no place for comments, variations and NAGs: dropped 1 variation"), "{err}");
}

#[test]
fn quiet_keeps_the_summary_and_twice_quiet_drops_it() {
    let out = convert("pgn", "sllavcco", &["-q"], ANNOTATED.as_bytes());
    assert_eq!(stderr(&out), "converted 3 games, 0 failed, 3 warnings\n");
    let out = convert("pgn", "sllavcco", &["-qq"], ANNOTATED.as_bytes());
    assert_eq!(stderr(&out), "");
    assert!(out.status.success());
    // Errors are printed whatever the quiet.
    let out = convert("pgn", "pgn", &["-qq"], b"1. e5 *\n");
    assert!(stderr(&out).contains("error"), "{}", stderr(&out));
}

#[test]
fn counts_are_in_words() {
    let out = convert("pgn", "pgn", &[], b"1. e4 {x} *\n");
    assert_eq!(stderr(&out), "converted 1 game, 0 failed\n");
    let out = convert("pgn", "sllavcco", &[], b"1. e4 {x} *\n");
    assert!(
        stderr(&out).ends_with("converted 1 game, 0 failed, 1 warning\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn diagnostics_are_coloured_when_asked_and_plain_when_piped() {
    let plain = convert("pgn", "sllavcco", &[], ANNOTATED.as_bytes());
    assert!(!stderr(&plain).contains('\x1b'));
    let coloured = convert(
        "pgn",
        "sllavcco",
        &["--color", "always"],
        ANNOTATED.as_bytes(),
    );
    let err = stderr(&coloured);
    assert!(
        err.starts_with("\x1b[1m-:1:1\x1b[0m: \x1b[1;33mwarning[dropped-annotations]\x1b[0m: "),
        "{err:?}"
    );
    let failed = convert("pgn", "pgn", &["--color", "always"], b"1. e5 *\n");
    assert!(
        stderr(&failed).contains("\x1b[1;31merror\x1b[0m"),
        "{:?}",
        stderr(&failed)
    );
}

#[test]
fn a_format_named_on_the_wrong_side_says_which_formats_fit() {
    let out = convert("sllavcco-html", "pgn", &[], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains("kifu: kifu"), "{err}");
    assert!(
        err.contains("sllavcco-html is written only: kifu cannot read it. Formats kifu reads: pgn, sllavcco, json, jsonl"),
        "{err}"
    );
    let out = convert("pgn", "aagenielsen-json", &[], b"");
    assert!(
        stderr(&out).contains(
            "aagenielsen-json is read only: kifu cannot write it. Formats kifu writes: tafl, otn,"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_input_named_as_a_written_format_and_a_folder_as_output_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("sheet.html");
    std::fs::write(&sheet, "<html></html>").unwrap();
    let out = kifu(&["convert", "--to", "pgn", sheet.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "sheet.html is named as sllavcco-html (.html), which kifu writes but cannot read"
        ),
        "{}",
        stderr(&out)
    );
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, "1. e4 *\n").unwrap();
    let folder = format!("{}/", dir.path().join("newdir").display());
    let out = kifu(
        &[
            "convert",
            "--to",
            "pgn",
            pgn.to_str().unwrap(),
            "-o",
            &folder,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("names a folder") && err.contains("--out-dir"),
        "{err}"
    );
    assert!(!err.contains("Is a directory"), "{err}");
}

#[test]
fn a_game_of_a_variant_not_played_fails_for_its_variant() {
    let out = convert(
        "pgn",
        "pgn",
        &[],
        b"[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. N@f3+ *\n",
    );
    assert_eq!(
        stderr(&out),
        "-:2:1: error[variant-unplayed]: game 1: variant `Crazyhouse` is not played by kifu (standard chess and \
         Chess960 only)\nconverted 0 games, 1 failed\n"
    );
}

#[test]
fn an_empty_input_and_a_folder_of_nothing_to_convert_give_a_hint() {
    // Named by --from, the hint does not say to name it.
    let out = convert("pgn", "pgn", &[], b"");
    assert!(
        stderr(&out).contains(
            "-: warning[no-games]: no games in this input, read as pgn: is that its format? \
             (as --from names it)"
        ),
        "{}",
        stderr(&out)
    );
    // Guessed from the name, it does.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let out = kifu(&["convert", "--to", "json", empty.to_str().unwrap()], b"");
    assert!(
        stderr(&out).contains("read as pgn: is that its format? (--from names another)"),
        "{}",
        stderr(&out)
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "nothing").unwrap();
    let path = dir.path().to_str().unwrap();
    let out = kifu(&["convert", "--to", "pgn", path], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds no file to convert"),
        "{}",
        stderr(&out)
    );
    let out = kifu(&["convert", "--from", "pgn", "--to", "pgn", path], b"");
    assert!(
        stderr(&out).contains("holds no file to convert (looked for .pgn files)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_output_format_is_guessed_from_the_output_name() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, "1. e4 e5 *\n").unwrap();
    let html = dir.path().join("sheet.html");
    let out = kifu(
        &[
            "convert",
            pgn.to_str().unwrap(),
            "-o",
            html.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&html)
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
    let json = dir.path().join("games.jsonl.zst");
    let out = kifu(
        &[
            "convert",
            pgn.to_str().unwrap(),
            "-o",
            json.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // No -o and no --to: say what to do.
    let out = kifu(&["convert", pgn.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("name the output format with --to (pgn, "));
}

#[test]
fn help_lists_the_formats_from_the_registry_and_ends_with_examples() {
    let out = kifu(&["convert", "--help"], b"");
    let help = stdout(&out);
    for f in kifu::format::FORMATS {
        assert!(help.contains(f.name), "{}", f.name);
    }
    assert!(help.contains("guessed from -o's extension when omitted: pgn, draughts-num"));
    assert!(help
        .trim_end()
        .ends_with("every format, its extensions and its options"));
    let formats = stdout(&kifu(&["formats"], b""));
    for word in [" IR ", "the IR", "seed 0"] {
        assert!(!formats.contains(word), "`{word}` in:\n{formats}");
    }
}

#[test]
fn completions_and_the_manual_page_come_from_the_command_line_definition() {
    for shell in ["bash", "zsh", "fish"] {
        let out = kifu(&["completions", shell], b"");
        assert!(out.status.success(), "{shell}");
        let script = stdout(&out);
        assert!(
            script.contains("kifu") && script.contains("out-dir"),
            "{shell}"
        );
    }
    let page = stdout(&kifu(&["man"], b""));
    assert!(
        page.starts_with(".ie") && page.contains(".TH kifu 1"),
        "{page}"
    );
    let page = stdout(&kifu(&["man", "convert"], b""));
    assert!(page.contains(".TH kifu-convert 1"), "{page}");
    assert!(
        page.contains("Examples:") && page.contains("out\\-dir"),
        "{page}"
    );
}

#[test]
fn repaired_tags_are_one_kind_and_group() {
    let input = "[Event \"e1]\n\n1. e4 *\n\n[Event \"e2]\n\n1. d4 *\n\n[Event \"e3]\n\n1. c4 *\n";
    let out = convert("pgn", "pgn", &[], input.as_bytes());
    let err = stderr(&out);
    assert_eq!(err.matches("warning[tag-repair]").count(), 1, "{err}");
    assert!(err.contains("(2 more like this)"), "{err}");
    assert!(
        err.ends_with("converted 3 games, 0 failed, 3 warnings\n"),
        "{err}"
    );
}

#[test]
fn an_output_in_a_missing_folder_is_named_never_its_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nod/x.pgn");
    let out = kifu(
        &[
            "convert",
            "--from",
            "pgn",
            "--to",
            "pgn",
            "-o",
            missing.to_str().unwrap(),
        ],
        b"1. e4 *\n",
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("kifu-tmp"), "{err}");
    assert!(
        err.contains(&format!("{}: there is no folder", missing.display()))
            && err.contains("create it first"),
        "{err}"
    );
}

#[test]
fn a_folder_named_by_o_says_so_with_or_without_to() {
    let dir = tempfile::tempdir().unwrap();
    let folder = format!("{}/newdir/", dir.path().display());
    for to in [&["--to", "json"][..], &[][..]] {
        let mut args = vec!["convert", "--from", "pgn", "-o", &folder];
        args.extend_from_slice(to);
        let out = kifu(&args, b"1. e4 *\n");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("names a folder") && err.contains("--out-dir"),
            "{err}"
        );
    }
}

#[test]
fn a_drop_without_a_variant_tag_says_what_it_is() {
    let out = convert("pgn", "json", &[], b"1. e4 d5 2. exd5 Nf6 3. N@f3+ *\n");
    let err = stderr(&out);
    assert!(
        err.contains("-:1:25: error[variant-unplayed]: game 1: `N@f3+` is a drop")
            && err.contains("crazyhouse")
            && err.contains("standard chess and Chess960 only"),
        "{err}"
    );
}

#[test]
fn a_folder_with_nothing_to_convert_counts_as_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let game = dir.path().join("g.pgn");
    std::fs::write(&game, "1. e4 *\n").unwrap();
    let out = kifu(
        &[
            "convert",
            "--to",
            "json",
            empty.to_str().unwrap(),
            game.to_str().unwrap(),
        ],
        b"",
    );
    let err = stderr(&out);
    assert!(err.contains("warning[nothing-to-convert]"), "{err}");
    assert!(
        err.ends_with("converted 1 game, 0 failed, 1 warning\n"),
        "{err}"
    );
}

/// `n` games that fail the same way (an illegal first move, a different
/// one in each), then `odd` that fail each another way.
fn failing(n: usize, odd: &[&str]) -> String {
    let moves = ["e5", "d5", "Nf6", "Ke2", "c5", "Bb5"];
    let mut text: String = (0..n)
        .map(|i| format!("[Event \"{i}\"]\n\n1. {} *\n\n", moves[i % moves.len()]))
        .collect();
    for o in odd {
        text.push_str(&format!("[Event \"odd\"]\n\n{o}\n\n"));
    }
    text
}

#[test]
fn errors_of_one_kind_are_grouped_with_an_exact_count_and_verbose_lists_them() {
    // Of other kinds: text the grammar does not read (two, of different
    // words: one group, both shown as they come), a number too large.
    // (An illegal castling, `1. O-O`, is of the group of illegal moves.)
    let odd = [
        "1. z9 *",
        "123456789012345678901234. e4 *",
        "1. e4 {never closed *",
    ];
    for n in [4, 50, 700] {
        let text = failing(n, &odd);
        let out = convert("pgn", "pgn", &[], text.as_bytes());
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().collect();
        // The first 3 as they come, one line for the rest, one for each
        // other way to fail, the summary.
        assert_eq!(lines.len(), 3 + 1 + odd.len() + 1, "{n}: {err}");
        assert!(
            lines[..3].iter().all(|l| l.contains("illegal move")),
            "{err}"
        );
        let rest = lines
            .iter()
            .find(|l| l.contains("more like this") || l.contains("game 4:"))
            .unwrap_or_else(|| panic!("{err}"));
        assert_eq!(common::more_like_this(rest), n - 4, "{rest}");
        assert!(rest.contains("game 4: 1. Ke2: illegal move"), "{rest}");
        assert!(
            err.ends_with(&format!("converted 0 games, {} failed\n", n + odd.len())),
            "{err}"
        );
        assert!(common::errors_are_located(&err), "{err}");
        assert_eq!(out.status.code(), Some(1));
        // --verbose: every one, as it comes, and nothing said twice.
        let out = convert("pgn", "pgn", &["-v"], text.as_bytes());
        let err = stderr(&out);
        assert_eq!(err.matches(": error: ").count(), n + odd.len(), "{err}");
        assert!(!err.contains("more like this"), "{err}");
    }
}

#[test]
fn rejects_keep_every_failed_game_of_a_group() {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.pgn");
    let text = failing(200, &[]);
    let out = convert(
        "pgn",
        "pgn",
        &["--rejects", rejects.to_str().unwrap()],
        text.as_bytes(),
    );
    assert!(stderr(&out).lines().count() <= 5, "{}", stderr(&out));
    let kept = std::fs::read_to_string(&rejects).unwrap();
    assert_eq!(kept.matches("[Event ").count(), 200);
}

/// Russian short notation (`gf4`: the file moved from, then the square
/// moved to) is read: each move's square of departure found by the rules,
/// said in one warning per input; a move no piece, or more than one, of its
/// file can make fails its game at that move, grouped like every error.
#[test]
fn russian_short_notation_is_read_and_said_once() {
    let game =
        "[GameType \"25\"]\n\n1. gf4 fe5 2. hg3 gf6 0:1\n\n[GameType \"25\"]\n\n1. c3-d4 fe5 *\n\n";
    let out = convert(
        "draughts-num",
        "draughts-num",
        &[],
        game.repeat(50).as_bytes(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].contains("warning[short-notation]"), "{err}");
    assert_eq!(common::more_like_this(lines[0]), 99, "{err}");
    assert_eq!(lines[1], "converted 100 games, 0 failed, 100 warnings");
    let games = stdout(&out);
    assert!(
        games.contains("1. g3-f4 f6-e5 2. h2-g3 g7-f6 0-1"),
        "{games}"
    );
    assert!(games.contains("1. c3-d4 f6-e5 *"), "{games}");
    // Written in full, the same games: kifu reads them back as they are.
    let back = convert("draughts-num", "draughts-num", &[], games.as_bytes());
    assert_eq!(stdout(&back), games);
    // No piece of White on file a reaches b6: the error names the move.
    let bad = "[GameType \"25\"]\n\n1. ab6 fe5 *\n\n".repeat(40);
    let out = convert("draughts-num", "json", &[], bad.as_bytes());
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    assert!(
        lines[0].contains(":3:4: error: game 1: `ab6` (Russian short notation): no piece of White on file a can go to b6"),
        "{err}"
    );
    assert_eq!(common::more_like_this(lines[3]), 36, "{err}");
    assert_eq!(lines[4], "converted 0 games, 40 failed");
}

/// The hint said once for an input none of whose games converted.
fn hint_once(out: &std::process::Output, format: &str) {
    let err = stderr(out);
    let hint = format!("; this looks like {format}: try --from {format}");
    assert_eq!(err.matches(&hint).count(), 1, "{err}");
    assert_eq!(err.matches("this looks like").count(), 1, "{err}");
    // The games failed as before: the exit status says so.
    assert_eq!(out.status.code(), Some(1), "{err}");
}

#[test]
fn a_whole_input_that_fails_says_once_what_it_looks_like() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n".repeat(20);
    let draughts = "[Event \"a\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n".repeat(20);
    // By its contents, on standard input.
    hint_once(&convert("draughts-num", "json", &[], pgn.as_bytes()), "pgn");
    hint_once(
        &convert("pgn", "json", &[], draughts.as_bytes()),
        "draughts-num",
    );
    let json = stdout(&convert("pgn", "json", &[], pgn.as_bytes()));
    hint_once(&convert("pgn", "pgn", &[], json.as_bytes()), "json");
    // A file, by its name and contents.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let file = file.to_str().unwrap();
    let out = kifu(
        &["convert", "--from", "draughts-num", "--to", "json", file],
        b"",
    );
    hint_once(&out, "pgn");
    assert!(
        stderr(&out).contains(&format!(
            "{file}: warning[other-format]: every game of this input failed (40 games), read \
             as draughts-num; this looks like pgn: try --from pgn"
        )),
        "{}",
        stderr(&out)
    );
    // Games of the format named, some failing: no hint.
    let mixed = format!("{pgn}\n1. e5 *\n");
    let out = convert("pgn", "pgn", &[], mixed.as_bytes());
    assert!(!stderr(&out).contains("looks like"), "{}", stderr(&out));
    let out = convert("pgn", "pgn", &[], b"1. e5 *\n\n1. d5 *\n");
    assert!(!stderr(&out).contains("looks like"), "{}", stderr(&out));
}

#[test]
fn every_format_read_as_another_is_named_by_the_hint_and_never_misnamed() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<(&str, std::path::PathBuf)> = [
        ("pgn", "chess/petrosjan-sllavcco.pgn"),
        ("sllavcco", "chess/petrosjan-sllavcco.sllavcco"),
        ("draughts-num", "draughts/english.pdn"),
        ("draughts-diag", "draughts/english.diag.pdn"),
        ("coerceo", "coerceo/constructs.coerceo"),
        ("json", "coerceo/constructs.json"),
        ("tafl", "tafl/brandubh.tafl"),
        ("otn", "tafl/brandubh.otg"),
        ("aagenielsen-json", "tafl/brandubh.aagenielsen.json"),
        ("tenjiku", "tenjiku/seed.tenjiku"),
    ]
    .into_iter()
    .map(|(f, p)| (f, corpus.join(p)))
    .collect();
    for (to, ext) in [("jsonl", "jsonl"), ("xml", "xml")] {
        let path = dir.path().join(format!("games.{ext}"));
        let source = corpus.join("draughts/english.pdn");
        let out = kifu(
            &[
                "convert",
                "--to",
                to,
                "-o",
                path.to_str().unwrap(),
                source.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        files.push((to, path));
    }
    let readable: Vec<&str> = files.iter().map(|(f, _)| *f).collect();
    for (format, path) in &files {
        assert!(path.exists(), "{}", path.display());
        for from in readable.iter().filter(|f| *f != format) {
            // By name and contents, and by contents alone.
            let p = path.to_str().unwrap();
            let bytes = std::fs::read(path).unwrap();
            for (name, stdin) in [(p, &b""[..]), ("-", &bytes[..])] {
                let out = kifu(&["convert", "--from", from, "--to", "json", name], stdin);
                common::no_panic(&out);
                let err = stderr(&out);
                let (converted, _) = common::counts(&out);
                let said: Vec<&str> = err
                    .match_indices("this looks like ")
                    .map(|(i, _)| err[i + 16..].split(':').next().unwrap())
                    .collect();
                assert_eq!(
                    said.len(),
                    usize::from(converted == 0),
                    "{format} as {from}: {err}"
                );
                let Some(hinted) = said.first() else { continue };
                if name == p {
                    // The file's name and contents agree.
                    assert_eq!(hinted, format, "{format} as {from}: {err}");
                } else {
                    // By contents alone: a format that reads it (jsonl is
                    // read as json too).
                    let again = kifu(&["convert", "--from", hinted, "--to", "json", "-"], stdin);
                    assert!(common::counts(&again).0 > 0, "{format} as {from}: {err}");
                }
            }
        }
    }
}

#[test]
fn a_carriage_return_and_the_characters_backslash_r_are_quoted_apart() {
    // A game whose square is `e`, then (in JSON's escapes) a carriage
    // return, `\r` or `\x0d`, then `5`: three messages.
    let game = |square: &str| {
        format!(
            "[{{\"variant\":{{\"family\":\"chess\"}},\"moves\":{{\"plies\":[{{\"number\":1,\
             \"side\":\"white\",\"move\":{{\"chess\":{{\"move\":{{\"role\":\"pawn\",\
             \"from\":\"e2\",\"to\":\"{square}\"}}}}}}}}]}},\"result\":\"*\"}}]\n"
        )
    };
    let said = |square: &str| {
        let out = convert("json", "pgn", &[], game(square).as_bytes());
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        let line = err.lines().next().unwrap().to_string();
        let at = line
            .find("is not a square")
            .unwrap_or_else(|| panic!("{line}"));
        line[..at].rsplit(": ").next().unwrap().trim().to_string()
    };
    assert_eq!(said("e\\r5"), "`e\\r5`");
    assert_eq!(said("e\\\\r5"), "`e\\\\r5`");
    assert_eq!(said("e\\\\x0d5"), "`e\\\\x0d5`");
    // And the raw bytes of a file: a CR never reaches standard error.
    let out = convert("json", "pgn", &[], game("e\\r5").as_bytes());
    assert!(!out.stderr.contains(&b'\r'));
}

/// The kinds of problems are one list, `kifu::error::Kind`: each has a
/// name of its own, in the form messages show (`lower-case-words`), and
/// the book (`docs/`) names each of them.
#[test]
fn every_kind_has_its_own_name_and_is_documented() {
    use kifu::error::Kind;
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let book: String = std::fs::read_dir(docs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let mut names = std::collections::BTreeSet::new();
    for &kind in Kind::ALL {
        let name = kind.name();
        assert!(names.insert(name), "two kinds are named {name}");
        assert!(
            name.split('-').all(|w| !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
            "{name}"
        );
        assert!(
            book.contains(&format!("`{name}`")),
            "no page of docs/ names the kind `{name}`"
        );
        assert_eq!(kind.to_string(), name);
    }
    assert!(names.len() > 60, "{names:?}");
}
