//! Damaged real files, read through the `kifu` binary (issue 7, items 11
//! and 12): results written as placeholders or with spaces, in the movetext
//! or the Result tag, and chess movetext written loosely (move numbers
//! without their dot, pawn captures without `x`). Each is read, said in one
//! fixed warning per kind, and written canonically; the fast lexer and the
//! grammar read each the same way.

use crate::common;

use common::*;

const SPACED: &str = "a result written with spaces (`1 - 0`, `1/2 - 1/2`) was read as that result";
const PLACEHOLDER: &str =
    "a placeholder result (`-`, `--`, `?` or empty) was read as the unknown result `*`";
const BARE_NUMBER: &str = "a move number written without its dot (`29 Qxf8+`) was read";
const LOOSE_CAPTURE: &str = "a pawn capture written without `x` (`cd5`) was read as that capture";

/// Converts with the fast lexer and with the grammar alone, requires both to
/// give the same output and messages, and returns the output and messages.
fn both_ways(from: &str, to: &str, input: &str) -> (std::process::Output, String, String) {
    both_ways_with(from, to, &[], input)
}

/// [`both_ways`] with more arguments.
fn both_ways_with(
    from: &str,
    to: &str,
    args: &[&str],
    input: &str,
) -> (std::process::Output, String, String) {
    let fast = convert(from, to, args, input.as_bytes());
    let grammar = convert(
        from,
        to,
        &[args, &["--grammar-only"]].concat(),
        input.as_bytes(),
    );
    no_panic(&fast);
    assert_eq!(stdout(&fast), stdout(&grammar), "{input}");
    assert_eq!(stderr(&fast), stderr(&grammar), "{input}");
    let (out, err) = (stdout(&fast), stderr(&fast));
    (fast, out, err)
}

/// The movetext lines of a PGN output (everything but tags and blanks).
fn movetext(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('['))
        .collect()
}

#[test]
fn spaced_results_end_their_record_and_are_read() {
    // Tagless games one after the other: only the result ends each one, and
    // `1/2 - 1/2` must not end at its first `1/2`.
    let input = "1. e4 e5 1 - 0\n1. d4 d5 0 - 1\n1. c4 c5 1/2 - 1/2\n1. Nf3 Nf6 1 -0\n\
                 [Event \"E\"]\n\n1. b3 ½ - ½\n\n[Event \"F\"]\n\n1. g3 *\n";
    let (out, text, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (6, 0), "{err}");
    assert_eq!(
        movetext(&text),
        [
            "1. e4 e5 1-0",
            "1. d4 d5 0-1",
            "1. c4 c5 1/2-1/2",
            "1. Nf3 Nf6 1-0",
            "1. b3 1/2-1/2",
            "1. g3 *"
        ]
    );
    // One line for the kind: the first place, and how many more.
    assert_eq!(err.matches(SPACED).count(), 1, "{err}");
    assert!(
        err.contains(&format!("{SPACED} (4 more like this)")),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn spaced_draughts_results_are_read_and_end_their_record() {
    // `1- 6`, a move from square 1 with its numbers aligned, cannot be
    // played there: the moves are read by syntax alone.
    let input = "1. 32-28 19-23 2 - 0\n1. 33-29 1- 6 0 - 2\n1. 31-27 1 - 1\n1. 34-30 1- 1\n";
    let (out, text, err) =
        both_ways_with("draughts-num", "draughts-num", &["--no-validate"], input);
    assert_eq!(counts(&out), (4, 0), "{err}");
    assert_eq!(
        movetext(&text),
        [
            "1. 32-28 19-23 2-0",
            "1. 33-29 1-6 0-2",
            "1. 31-27 1-1",
            "1. 34-30 1-1"
        ]
    );
    assert!(
        err.contains(&format!("{SPACED} (3 more like this)")),
        "{err}"
    );
}

#[test]
fn placeholder_results_are_the_unknown_result() {
    // `-` and `--` ending the movetext, `?` and nothing in the Result tag.
    let input = "[Result \"?\"]\n\n1. e4 e5 --\n\n[Result \"\"]\n\n1. d4 d5 -\n\n\
                 [Result \"-\"]\n\n1. c4\n";
    let (out, text, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (3, 0), "{err}");
    assert_eq!(movetext(&text), ["1. e4 e5 *", "1. d4 d5 *", "1. c4 *"]);
    // The tags are kept as written.
    assert!(text.contains("[Result \"?\"]") && text.contains("[Result \"\"]"));
    assert!(err.contains(PLACEHOLDER), "{err}");
    assert!(err.contains("(4 more like this)"), "{err}");
}

#[test]
fn a_null_move_is_a_placeholder_only_at_the_end_of_the_movetext() {
    // (A game without tags after a placeholder would be glued to it: the
    // placeholder ends the movetext only before a tag or the end.)
    let input = "1. e4 -- 2. d4 (2. c4 --) 2... -- {c} 3. c4 *\n\n1. e4 --\n\n\
                 [Event \"C\"]\n\n1. e4 e5 --!\n";
    let (out, text, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (3, 0), "{err}");
    assert_eq!(
        movetext(&text),
        [
            "1. e4 -- 2. d4 (2. c4 --) 2... -- {c} 3. c4 *",
            "1. e4 *",
            "1. e4 e5 2. -- $1 *"
        ]
    );
    assert_eq!(err.matches(PLACEHOLDER).count(), 1, "{err}");
}

#[test]
fn a_spaced_result_tag_gives_the_result() {
    let input = "[Result \"0 - 1\"]\n\n1. f3 e5 2. g4 Qh4#\n";
    let (out, text, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (1, 0), "{err}");
    assert_eq!(movetext(&text), ["1. f3 e5 2. g4 Qh4# 0-1"]);
    assert!(err.contains(SPACED), "{err}");
}

#[test]
fn move_numbers_without_their_dot_are_read() {
    let input = "1 e4 e5 2 Nf3 Nc6 3 Bb5 *\n\n\
                 [FEN \"5rk1/8/8/8/8/8/5Q2/6K1 w - - 0 29\"]\n\n29 Qxf8+ Kxf8 30 Kg2 *\n\n\
                 [FEN \"r3k2r/8/8/8/8/8/8/4K3 b kq - 0 12\"]\n\n12 ... O-O 13 Kd2 *\n";
    let (out, text, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (3, 0), "{err}");
    assert_eq!(
        movetext(&text),
        [
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 *",
            "29. Qxf8+ Kxf8 30. Kg2 *",
            "12... O-O 13. Kd2 *"
        ]
    );
    // One warning a game, whatever the count of numbers.
    assert_eq!(err.matches(BARE_NUMBER).count(), 1, "{err}");
    assert!(
        err.contains(&format!("{BARE_NUMBER} (2 more like this)")),
        "{err}"
    );
}

#[test]
fn pawn_captures_without_x_are_read_as_python_chess_reads_them() {
    // python-chess 1.11.2 reads these as exd5, dxc6, exd6 (en passant) and
    // cxd8=Q+.
    let input = "1. e4 d5 2. ed5 c6 3. dc6 Nxc6 *\n\n1. e4 a6 2. e5 d5 3. ed6 *\n\n\
                 [FEN \"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. cd8Q *\n";
    let (out, text, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (3, 0), "{err}");
    assert_eq!(
        movetext(&text),
        [
            "1. e4 d5 2. exd5 c6 3. dxc6 Nxc6 *",
            "1. e4 a6 2. e5 d5 3. exd6 *",
            "1. cxd8=Q+ *"
        ]
    );
    assert!(
        err.contains(&format!("{LOOSE_CAPTURE} (2 more like this)")),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_loose_pawn_move_that_captures_nothing_is_an_error() {
    let input = "1. e4 e5 2. dd4 *\n\n1. ee4 *\n\n1. e4 e5 2. de5 *\n";
    let (out, _, err) = both_ways("pgn", "pgn", input);
    assert_eq!(counts(&out), (0, 3), "{err}");
    assert!(
        err.contains("`dd4`: a pawn move with its own file written twice"),
        "{err}"
    );
    assert!(err.contains("2. de5: illegal move"), "{err}");
}

#[test]
fn draughts_reads_no_bare_move_number() {
    // `29 32-28`: a bare number is no draughts move number (it could be a
    // square); `1- 6` stays a move.
    let (out, _, err) = both_ways("draughts-num", "draughts-num", "29 32-28 *\n");
    assert_eq!(counts(&out), (0, 1), "{err}");
    assert!(err.contains("found `29`"), "{err}");
}

/// A score written with a colon (`1:0`, `0:1`, `1/2:1/2`, as Russian and
/// other records write it) is that score in every PGN-style notation whose
/// scores are `1-0`, `0-1`, `1/2-1/2`: it ends its record (tagless games
/// one after another), is read by the fast lexer and the grammar alike, and
/// is written dashed. Draughts adds `2:0` and `0:2`.
#[test]
fn colon_scores_are_read_as_the_dashed_ones_in_every_notation() {
    // (format, the moves before the score, the scores of its own)
    type Case = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
    );
    let cases: [Case; 5] = [
        ("pgn", "1. e4 e5", &[]),
        ("tafl", "1. E5-E8 D4-D2", &[]),
        ("tenjiku", "", &[]),
        (
            "draughts-num",
            "1. 32-28 19-23",
            &[("2:0", "2-0"), ("0:2", "0-2")],
        ),
        (
            "draughts-diag",
            "1. c3-d4 f6-e5",
            &[("2:0", "2-0"), ("0:2", "0-2")],
        ),
    ];
    for (format, moves, more) in cases {
        let mut scores = vec![("1:0", "1-0"), ("0:1", "0-1"), ("1/2:1/2", "1/2-1/2")];
        scores.extend_from_slice(more);
        let input: String = scores
            .iter()
            .map(|(colon, _)| format!("{moves} {colon}\n"))
            .collect();
        let (out, text, err) = both_ways_with(format, format, &["--no-validate"], &input);
        assert_eq!(counts(&out), (scores.len(), 0), "{format}: {err}");
        let written: Vec<&str> = movetext(&text)
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap_or(l))
            .collect();
        let dashed: Vec<&str> = scores.iter().map(|(_, d)| *d).collect();
        assert_eq!(written, dashed, "{format}: {text}");
    }
}
