//! The record policy (`kifu::policy`, issue 34): every command takes a
//! record through one policy: the size limit, the memory claim that waits,
//! the retry that keeps a bad variation as text, and isolation (a panic
//! inside one record fails that record alone). Each test runs the `kifu`
//! binary, as a user would; a test build makes a reader panic on a record
//! holding the value of `KIFU_TEST_PANIC`.

use crate::common;

use std::process::{Command, Output, Stdio};

use common::{counts, errors_are_located, stderr, stdout};

/// The marker that makes a reader panic in these tests.
const MARKER: &str = "KIFU-PANIC-HERE";

/// Runs kifu with `KIFU_TEST_PANIC` set to [`MARKER`], on a file.
fn kifu_panicking(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .env("KIFU_TEST_PANIC", MARKER)
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs")
}

/// `n` chess games, the one numbered `bad` (from 1) holding the marker in
/// a comment.
fn chess_games(n: usize, bad: usize) -> String {
    (1..=n)
        .map(|i| {
            let note = if i == bad { MARKER } else { "fine" };
            format!("[Event \"game {i}\"]\n\n1. e4 {{{note}}} e5 2. Nf3 Nc6 *\n\n")
        })
        .collect()
}

/// The formats a chess game can be written as, from the registry (every
/// writable format of the chess family or of none).
fn chess_outputs() -> Vec<&'static kifu::format::Format> {
    kifu::format::FORMATS
        .iter()
        .filter(|f| f.write.is_some())
        .filter(|f| {
            f.family
                .is_none_or(|fam| fam == kifu::family::Family::Chess)
        })
        .collect()
}

/// Issue 34, item 3: a panic while one game is read fails that game with
/// an internal error that names its place, and the run goes on to the
/// games after it (exit 1), whatever the output and wherever the game is.
#[test]
fn a_panic_in_one_game_fails_that_game_alone_in_every_output() {
    let dir = common::scratch("policy", "panic_every_output");
    for n in [1, 3] {
        for bad in 1..=n {
            let input = dir.join(format!("games-{n}-{bad}.pgn"));
            std::fs::write(&input, chess_games(n, bad)).unwrap();
            for to in chess_outputs() {
                // One file per game for a format of one game an output.
                let out_dir = dir.join(format!("out-{n}-{bad}-{}", to.name));
                let input = input.to_str().unwrap();
                let args: Vec<&str> = if to.one_game || to.split.folder().is_some() {
                    vec![
                        "convert",
                        "--to",
                        to.name,
                        input,
                        "--out-dir",
                        out_dir.to_str().unwrap(),
                    ]
                } else {
                    vec!["convert", "--to", to.name, input]
                };
                let out = kifu_panicking(&args);
                let err = stderr(&out);
                let what = format!("{n} games, game {bad} panics, to {}: {err}", to.name);
                assert_eq!(out.status.code(), Some(1), "{what}");
                assert_eq!(counts(&out), (n - 1, 1), "{what}");
                assert!(errors_are_located(&err), "{what}");
                let line = 1 + 4 * (bad - 1);
                assert!(
                    err.contains(&format!(
                        ":{line}:1: error: game {bad}: internal error: kifu failed on this game"
                    )),
                    "{what}"
                );
                assert!(
                    !err.contains("panicked at"),
                    "the panic is not printed: {what}"
                );
            }
        }
    }
}

/// The same in every reader: a panic in a draughts, tafl or JSON record
/// fails it alone.
#[test]
fn a_panic_fails_its_game_alone_in_every_family() {
    let dir = common::scratch("policy", "panic_every_family");
    let cases: [(&str, &str, String); 3] = [
        (
            "draughts-num",
            "pdn",
            format!(
                "[GameType \"20\"]\n\n1. 32-28 {{{MARKER}}} *\n\n[GameType \"20\"]\n\n1. 32-28 19-23 *\n"
            ),
        ),
        (
            "jsonl",
            "jsonl",
            format!(
                "{}\n{}\n",
                r#"{"variant":{"family":"chess"},"tags":[{"name":"Event","value":"KIFU-PANIC-HERE"}],"moves":{"plies":[]}}"#,
                r#"{"variant":{"family":"chess"},"tags":[{"name":"Event","value":"b"}],"moves":{"plies":[]}}"#
            ),
        ),
        (
            "pgn",
            "pgn",
            format!("{{{MARKER}}}\n1. e4 *\n\n1. d4 *\n"),
        ),
    ];
    for (from, ext, text) in cases {
        let input = dir.join(format!("in.{ext}"));
        std::fs::write(&input, text).unwrap();
        let out = kifu_panicking(&[
            "convert",
            "--from",
            from,
            "--to",
            "jsonl",
            input.to_str().unwrap(),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{from}: {err}");
        assert_eq!(counts(&out), (1, 1), "{from}: {err}");
        assert!(err.contains("game 1: internal error"), "{from}: {err}");
        assert_eq!(stdout(&out).lines().count(), 1, "{from}");
    }
}

/// `kifu diff` takes records through the same policy: a game whose reader
/// panics is an error of that game, and the other pairs are compared.
#[test]
fn diff_reports_a_panicking_game_and_goes_on() {
    let dir = common::scratch("policy", "diff_panic");
    let a = dir.join("a.pgn");
    let b = dir.join("b.pgn");
    std::fs::write(&a, chess_games(3, 0)).unwrap();
    std::fs::write(&b, chess_games(3, 2)).unwrap();
    let out = kifu_panicking(&[
        "diff",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--color",
        "never",
    ]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(text.contains("internal error"), "{text}{err}");
    assert!(!err.contains("panicked at"), "{err}");
}

/// Issue 34: `kifu diff` read records without the size limit the converter
/// applies: two different games over it were "equal" (neither was read).
/// They are now each an error of its game, as convert says it.
#[test]
fn diff_refuses_records_over_the_limit_as_convert_does() {
    let dir = common::scratch("policy", "diff_limit");
    let long = |first: &str| {
        let mut text = format!("[Event \"x\"]\n\n1. {first} ");
        for i in 0..400 {
            text.push_str(if i % 2 == 0 { "Nf6 Nf3 " } else { "Ng8 Ng1 " });
        }
        text.push_str("*\n");
        text
    };
    let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
    std::fs::write(&a, long("e4")).unwrap();
    std::fs::write(&b, long("d4")).unwrap();
    let args = |limit: &'static str| {
        vec![
            "diff".to_string(),
            a.display().to_string(),
            b.display().to_string(),
            "--color".to_string(),
            "never".to_string(),
            "--max-record-size".to_string(),
            limit.to_string(),
        ]
    };
    let run = |args: Vec<String>| {
        Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(&args)
            .output()
            .expect("kifu runs")
    };
    let out = run(args("1K"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains(" 0 equal"), "{text}");
    assert!(text.contains("1 unreadable on both sides"), "{text}");
    assert!(text.contains("over the limit of 1 KiB"), "{text}");
    // Under the limit, the first move differs.
    let out = run(args("1M"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(!text.contains("over the limit"), "{text}");
}

/// Issue 34, item 4: `-j` above the machine's cores is capped with a
/// warning (`-j 100000` panicked; `-j 3000` took 20 s for one game).
#[test]
fn a_huge_j_is_capped_with_a_warning() {
    let started = std::time::Instant::now();
    let out = common::convert(
        "pgn",
        "pgn",
        &["-j", "100000"],
        chess_games(3, 0).as_bytes(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(counts(&out), (3, 0), "{err}");
    assert!(err.contains("-j 100000 is more than the"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // -q quiets it.
    let out = common::convert(
        "pgn",
        "pgn",
        &["-j", "100000", "-q"],
        chess_games(1, 0).as_bytes(),
    );
    assert!(!stderr(&out).contains("-j 100000"), "{}", stderr(&out));
}

/// Runs `kifu ARGS` with an address space of `kib` KiB (`ulimit -v`).
fn kifu_in(kib: usize, args: &[&str]) -> Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    let mut all = vec!["-c", &script, env!("CARGO_BIN_EXE_kifu")];
    all.extend_from_slice(args);
    common::run("sh", &all, b"")
}

/// Issue 34, item 4: under a memory limit, a worker whose claim does not
/// fit beside another's waits for it: six records of 3.5 MB (each claiming
/// 160 times its size, two of which do not fit together) gave a different
/// number of failures at each `-j 2` run, and fewer than `-j 1`. The same
/// inputs under the same limit now give the same results at `-j 1`, `-j 2`
/// and `-j 4`, again and again; where no record fits, every one fails at
/// every `-j`.
#[test]
fn results_under_a_memory_limit_do_not_depend_on_j() {
    let dir = common::scratch("policy", "memory_limit_j");
    let pgn = dir.join("long.pgn");
    let moves = vec!["Nf3 Nf6 Ng1 Ng8"; 9000].join(" ");
    std::fs::write(&pgn, format!("[Event \"long\"]\n\n{moves} *\n")).unwrap();
    let one = common::kifu(&["convert", "--to", "jsonl", pgn.to_str().unwrap()], b"");
    assert_eq!(counts(&one), (1, 0), "{}", stderr(&one));
    let jsonl = dir.join("six.jsonl");
    std::fs::write(&jsonl, one.stdout.repeat(6)).unwrap();
    let jsonl = jsonl.to_str().unwrap();
    for (kib, converted) in [(1_000_000, 6), (300_000, 0)] {
        let mut seen = Vec::new();
        for j in ["1", "2", "2", "4", "2"] {
            let out = kifu_in(
                kib,
                &["convert", "--from", "jsonl", "--to", "pgn", "-j", j, jsonl],
            );
            let err = stderr(&out);
            assert_eq!(
                counts(&out),
                (converted, 6 - converted),
                "{kib} KiB, -j {j}: {err}"
            );
            // (Without the warning that caps -j at the machine's cores.)
            let err: Vec<String> = err
                .lines()
                .filter(|l| !l.starts_with("kifu: warning: -j"))
                .map(String::from)
                .collect();
            seen.push((out.stdout.clone(), err));
        }
        for w in seen.windows(2) {
            assert!(w[0].0 == w[1].0, "{kib} KiB: the outputs differ");
            assert_eq!(w[0].1, w[1].1, "{kib} KiB");
        }
    }
}
