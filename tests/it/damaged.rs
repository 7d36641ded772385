//! Damaged real files (issue 7, items 7, 9, 10, 13 and 13b): damaged tags
//! are read with a warning that says what was read, text after a tag is
//! skipped, a comment or variation left open ends at the next game's tags,
//! and every game of an input is counted once, in every container notation.

use crate::common;

use common::*;
use kifu::codec::ReadOptions;
use kifu::format::by_name;

/// The container notations, each with a short movetext of its own.
const NOTATIONS: &[(&str, &str)] = &[
    ("pgn", "1. e4 e5"),
    ("draughts-num", "1. 32-28 19-23"),
    ("draughts-diag", "1. e45 e76"),
];

/// Converts `input` from a notation to itself; returns (stdout, stderr,
/// exit code), checking that every error is located and nothing panicked.
fn run(format: &str, extra: &[&str], input: &str) -> (String, String, Option<i32>) {
    let out = convert(format, format, extra, input.as_bytes());
    no_panic(&out);
    let err = stderr(&out);
    assert!(errors_are_located(&err), "{format}: {err}");
    (stdout(&out), err, out.status.code())
}

/// How many games a run converted and failed.
fn summary(err: &str) -> String {
    err.lines()
        .rev()
        .find(|l| l.starts_with("converted "))
        .unwrap_or("no summary")
        .split(", ")
        .take(2)
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn malformed_tags_are_read_with_a_warning_that_says_what_was_read() {
    for &(format, moves) in NOTATIONS {
        let input = format!(
            "[Event \"a]\n[Bad tag no quote \"x\"]\n[White Elo \"2400\"]\n[Round 17]\n\n{moves} *\n"
        );
        // --verbose: every warning, not one line per kind.
        let (out, err, code) = run(format, &["--verbose"], &input);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(summary(&err), "converted 1 game, 0 failed", "{format}");
        contains_all(
            &out,
            &[
                "[Event \"a\"]",
                "[Badtagnoquote \"x\"]",
                "[WhiteElo \"2400\"]",
                "[Round \"17\"]",
            ],
            format,
        );
        contains_all(&err, &[
            "-:1:1: warning[tag-repair]: game 1: a tag value without its closing quote: `[Event \"a]` read as [Event \"a\"]",
            "-:2:1: warning[tag-repair]: game 1: a tag name of several words was read without its spaces: `[Bad tag no quote \"x\"]` read as [Badtagnoquote \"x\"]",
            "-:3:1: warning[tag-repair]: game 1: a tag name of several words was read without its spaces: `[White Elo \"2400\"]` read as [WhiteElo \"2400\"]",
        ], format);
        // A bare value is a form of real files, read without a word.
        assert!(!err.contains("Round"), "{format}: {err}");
        // What was written reads back without a warning.
        let (again, err, _) = run(format, &[], &out);
        assert_eq!(again, out, "{format}");
        assert!(!err.contains("warning"), "{format}: {err}");
    }
}

#[test]
fn text_after_a_tag_on_its_line_is_skipped_and_the_tags_kept() {
    for &(format, moves) in NOTATIONS {
        let input = format!(
            "[Event \"x\"] junk\n[Site \"y\"]\\r\n[Date \"z\"]^M\n[Round \"1\"][White \"w\"]]\n\n{moves} *\n\n\
             [Event \"second\"]\n\n{moves} *\n"
        );
        let (out, err, code) = run(format, &[], &input);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(
            summary(&err),
            "converted 2 games, 0 failed",
            "{format}: {err}"
        );
        contains_all(
            &out,
            &[
                "[Event \"x\"]",
                "[Site \"y\"]",
                "[Date \"z\"]",
                "[Round \"1\"]",
                "[White \"w\"]",
            ],
            format,
        );
        assert!(
            err.contains("-:1:13: warning[tag-repair]: game 1: text after a tag's `]` on its line was skipped (2 more like this)"),
            "{format}: {err}"
        );
        // The `\r` written out as text is a blank.
        assert!(
            err.contains("-:2:11: warning[escape-as-text]: game 1: "),
            "{format}: {err}"
        );
        // A game written on its tag line still reads.
        let one_line = format!("[Event \"x\"] {moves} *\n[Event \"y\"] {moves} *\n");
        let (_, err, code) = run(format, &[], &one_line);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(summary(&err), "converted 2 games, 0 failed", "{format}");
    }
}

#[test]
fn a_lone_bracket_a_doubled_bracket_and_a_tag_cut_short_are_read_past() {
    for &(format, moves) in NOTATIONS {
        let input = format!(
            "[Event \"first\"]\n\n{moves} *\n\n[\n[[Event \"Wijk aan\n[Site \"x\"\n[Black\n[White \"w\"]\n\n{moves} *\n\n\
             [Event \"third\"]\n\n{moves} *\n"
        );
        // --verbose: every warning, not one line per kind.
        let (out, err, code) = run(format, &["--verbose"], &input);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(
            summary(&err),
            "converted 3 games, 0 failed",
            "{format}: {err}"
        );
        contains_all(
            &out,
            &[
                "[Event \"Wijk aan\"]",
                "[Site \"x\"]",
                "[Black \"\"]",
                "[White \"w\"]",
                "[Event \"third\"]",
            ],
            format,
        );
        contains_all(&err, &[
            "-:5:1: warning[tag-repair]: game 2: a line holding a lone `[` was skipped",
            "-:6:1: warning[tag-repair]: game 2: a doubled `[` before a tag name was skipped",
            "-:6:1: warning[tag-repair]: game 2: a tag line cut short before its `]`: `[[Event \"Wijk aan` read as [Event \"Wijk aan\"]",
            "-:7:1: warning[tag-repair]: game 2: a tag line cut short before its `]`: `[Site \"x\"` read as [Site \"x\"]",
            "-:8:1: warning[tag-repair]: game 2: a tag line cut short before its `]`: `[Black` read as [Black \"\"]",
        ], format);
    }
}

#[test]
fn an_unclosed_brace_fails_its_game_and_the_next_game_is_read() {
    for &(format, moves) in NOTATIONS {
        let input = format!(
            "[Event \"A\"]\n\n{moves} {{ oops *\n\n[Event \"B\"]\n\n{moves} {{fine}} *\n\n[Event \"C\"]\n\n{moves} *\n"
        );
        let (out, err, code) = run(format, &[], &input);
        assert_eq!(code, Some(1), "{format}: {err}");
        assert_eq!(
            summary(&err),
            "converted 2 games, 1 failed",
            "{format}: {err}"
        );
        let col = moves.len() + 2;
        assert!(
            err.contains(&format!(
                "-:3:{col}: error: game 1: a `{{` is never closed: its comment runs to the end of the game"
            )),
            "{format}: {err}"
        );
        assert!(
            out.contains("[Event \"B\"]") && out.contains("[Event \"C\"]"),
            "{format}: {out}"
        );
        assert!(!out.contains("[Event \"A\"]"), "{format}: {out}");
    }
}

#[test]
fn an_unclosed_parenthesis_is_a_variation_kept_as_a_comment() {
    for &(format, moves) in NOTATIONS {
        let game = |i: usize| format!("[Event \"{i}\"]\n[Round \"{i}\"]\n\n{moves} 1-0\n\n");
        let mut input: String = (1..=40).map(game).collect();
        // One `(` after the first move of the first game.
        let first = input.find(moves).unwrap() + moves.rfind(' ').unwrap();
        input.insert_str(first, " (");
        let dir = tempfile::tempdir().unwrap();
        let rejects = dir.path().join("rejects");
        let (out, err, code) = run(format, &["--rejects", rejects.to_str().unwrap()], &input);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(
            summary(&err),
            "converted 40 games, 0 failed",
            "{format}: {err}"
        );
        assert!(
            err.contains(&format!(
                "-:4:{}: warning[variation-as-text]: game 1: a `(` is never closed: its variation, to the end of the game, was kept as a comment",
                moves.rfind(' ').unwrap() + 2
            )),
            "{format}: {err}"
        );
        assert!(out.contains("[Event \"1\"]") && out.contains("[Event \"40\"]"));
        // The game's last move is kept, as text, and its result.
        let last = moves.rsplit(' ').next().unwrap();
        assert!(
            out.contains(&format!("{{ {last} }} 1-0")),
            "{format}: {out}"
        );
        assert!(std::fs::read_to_string(&rejects)
            .unwrap_or_default()
            .is_empty());
    }
}

#[test]
fn a_brace_left_open_before_the_first_tag_ends_at_the_tag() {
    for &(format, moves) in NOTATIONS {
        let input =
            format!("{{ intro\n[Event \"A\"]\n\n{moves} 1-0\n\n[Event \"B\"]\n\n{moves} *\n");
        let (out, err, code) = run(format, &[], &input);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(
            summary(&err),
            "converted 2 games, 0 failed",
            "{format}: {err}"
        );
        assert!(
            out.starts_with("{ intro}\n\n[Event \"A\"]"),
            "{format}: {out}"
        );
        assert!(
            err.contains("-:1:1: warning[tag-repair]: game 1: a `{` before the tags is never closed: the comment ends before the first tag"),
            "{format}: {err}"
        );
        // --strict refuses it.
        let (_, err, code) = run(format, &["--strict"], &input);
        assert_eq!(code, Some(1), "{format}: {err}");
    }
}

#[test]
fn a_game_of_tags_only_is_a_game_of_its_own() {
    let cases = [
        (
            "pgn",
            "[Event \"A\"]\n[Site \"s\"]\n\n[Event \"B\"]\n\n1. e4 *\n",
            "[Event \"A\"]\n[Site \"s\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n*\n",
        ),
        (
            "draughts-num",
            "[GameType \"20\"]\n[Event \"A\"]\n\n[GameType \"20\"]\n[Event \"B\"]\n\n1. 32-28 *\n",
            "[Event \"A\"]\n[GameType \"20\"]\n\n*\n",
        ),
        (
            "draughts-diag",
            "[GameType \"20\"]\n[Event \"A\"]\n\n[GameType \"20\"]\n[Event \"B\"]\n\n1. e45 *\n",
            "[Event \"A\"]\n[GameType \"20\"]\n\n*\n",
        ),
    ];
    for (format, input, first) in cases {
        let (out, err, code) = run(format, &[], input);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert_eq!(
            summary(&err),
            "converted 2 games, 0 failed",
            "{format}: {err}"
        );
        assert!(
            out.starts_with(&format!("{first}\n[Event \"B\"]")),
            "{format}: {out}"
        );
    }
    // A blank line inside one tag section still keeps it one game.
    for &(format, moves) in NOTATIONS {
        let input = format!("[Event \"A\"]\n[Site \"s\"]\n\n[Round \"B\"]\n\n{moves} *\n");
        let (out, err, _) = run(format, &[], &input);
        assert_eq!(
            summary(&err),
            "converted 1 game, 0 failed",
            "{format}: {err}"
        );
        assert!(out.contains("[Round \"B\"]"), "{format}: {out}");
    }
}

#[test]
fn a_comment_ended_by_a_lone_cr_keeps_the_next_game_whole() {
    for &(format, moves) in NOTATIONS {
        // A part with CR-only line ends, then games with LF line ends.
        for input in [
            format!("[Event \"A\"]\r\r{moves} ; end\r[Event \"B\"]\n[Site \"t\"]\n\n{moves} *\n"),
            format!(
                "[Event \"A\"]\r\r{moves} *\r% escape\r[Event \"B\"]\n[Site \"t\"]\n\n{moves} *\n"
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let rejects = dir.path().join("rejects");
            let (out, err, code) = run(format, &["--rejects", rejects.to_str().unwrap()], &input);
            assert_eq!(code, Some(0), "{format}: {input:?}: {err}");
            assert_eq!(
                summary(&err),
                "converted 2 games, 0 failed",
                "{format}: {err}"
            );
            assert!(
                out.contains("[Event \"B\"]\n[Site \"t\"]"),
                "{format}: {out}"
            );
            assert_eq!(std::fs::read_to_string(&rejects).unwrap(), "");
        }
    }
}

/// The damaged forms above read the same through the fast lexer (which
/// leaves them to the grammar) as through the grammar alone.
#[test]
fn the_fast_lexer_reads_damaged_tags_as_the_grammar_does() {
    for &(format, moves) in NOTATIONS {
        for head in [
            "[Event \"a]\n",
            "[Bad tag no quote \"x\"]\n",
            "[Event \"x\"] junk\n",
            "[Event \"x\"]^M\n",
            "[Event \"x\"]\r[Site \"y\"]\r",
            "[Event \"a\"\r[Site \"b\"]\r",
            "[Event \"a\"\n[Site \"b\"]\n",
            "[\n[Event \"x\"]\n",
            "[[Event \"x\"]\n",
            "[Event \"Wijk aan\n",
            "[Event\n",
            "{ intro\n[Event \"A\"]\n",
        ] {
            let record = format!("{head}\n{moves} *\n");
            let read = by_name(format).and_then(|f| f.read).unwrap();
            let fast = read.game(&record, &ReadOptions::default());
            let pest = read.game(
                &record,
                &ReadOptions {
                    grammar_only: true,
                    ..ReadOptions::default()
                },
            );
            assert_eq!(
                format!("{fast:?}"),
                format!("{pest:?}"),
                "{format}: {record:?}"
            );
            assert!(fast.is_ok(), "{format}: {record:?}: {fast:?}");
        }
    }
}
