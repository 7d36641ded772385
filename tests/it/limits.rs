//! Limits that must not end a whole run: deeply nested variations, runs of
//! unclosed parentheses, records larger than memory should hold. Each test
//! runs the `kifu` binary, as a user would.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_interchange_round_trip, convert, counts, errors_are_located, stderr};

/// kifu's limit on nested variations (`kifu::ir::MAX_VARIATION_DEPTH`).
const LIMIT: usize = kifu::ir::MAX_VARIATION_DEPTH;

/// A game of one move whose alternative is replaced by the same
/// alternative, `depth` variations deep.
fn deep_game(format: &str, depth: usize) -> String {
    let (first, alt, reply) = match format {
        "pgn" => ("e4", "d4", "e5"),
        _ => ("32-28", "33-29", "18-23"),
    };
    format!(
        "[Event \"deep\"]\n\n1. {first} {} {} {reply} *\n\n",
        format!("(1. {alt} ").repeat(depth),
        ")".repeat(depth)
    )
}

fn good_game(format: &str, i: usize) -> String {
    match format {
        "pgn" => format!("[Event \"good {i}\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"),
        _ => format!("[Event \"good {i}\"]\n\n1. 32-28 18-23 2. 37-32 12-18 2-0\n\n"),
    }
}

/// 200 good games with `bad` in the middle.
fn archive(format: &str, bad: &str) -> String {
    let mut text = String::new();
    for i in 0..200 {
        if i == 100 {
            text.push_str(bad);
        }
        text.push_str(&good_game(format, i));
    }
    text
}

/// The JSON of one chess game whose first move has `depth` nested
/// variations (written by hand: kifu writes no game this deep).
fn deep_json(depth: usize) -> String {
    let ply = |variations: &str| {
        format!(
            r#"{{"number":1,"side":"white","move":{{"chess":{{"move":{{"role":"pawn","from":"d2","to":"d4"}}}}}}{variations}}}"#
        )
    };
    let mut inner = ply("");
    for _ in 0..depth {
        inner = ply(&format!(r#","variations":[{{"plies":[{inner}]}}]"#));
    }
    format!(
        r#"{{"variant":{{"family":"chess"}},"tags":[{{"name":"Event","value":"deep"}}],"moves":{{"plies":[{inner}]}},"result":"*"}}"#
    )
}

/// Item 15: 3,434 nested variations overflowed the stack and ended the run
/// with nothing written. Now that game alone fails, with its position.
#[test]
fn a_deeply_nested_game_among_good_ones_fails_alone() {
    for (format, extra) in [
        ("pgn", &[][..]),
        ("pgn", &["--grammar-only"][..]),
        ("draughts-num", &[][..]),
    ] {
        let text = archive(format, &deep_game(format, 3434));
        let out = convert(format, format, extra, text.as_bytes());
        let err = stderr(&out);
        assert_eq!(counts(&out), (200, 1), "{format} {extra:?}: {err}");
        assert_eq!(out.status.code(), Some(1), "{format}: {err}");
        assert!(errors_are_located(&err), "{format}: {err}");
        assert!(
            err.contains("game 101: variations nested more than 500 deep"),
            "{format} {extra:?}: {err}"
        );
        // Located at the `(` that opens level 501, on the deep game's line.
        let line = 100 * 4 + 3;
        assert!(err.contains(&format!(":{line}:")), "{format}: {err}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout)
                .matches("[Event \"good")
                .count(),
            200
        );
    }
    // The same from JSON Lines and from a JSON array.
    let good = convert("pgn", "jsonl", &[], archive("pgn", "").as_bytes());
    let lines: Vec<&str> = std::str::from_utf8(&good.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 200);
    let deep = deep_json(3434);
    let mut jsonl: Vec<&str> = lines.clone();
    jsonl.insert(100, &deep);
    let jsonl = jsonl.join("\n") + "\n";
    let array = format!("[\n{}\n]\n", jsonl.trim_end().replace('\n', ",\n"));
    for (from, text) in [("jsonl", jsonl), ("json", array)] {
        let out = convert(from, "pgn", &[], text.as_bytes());
        let err = stderr(&out);
        assert_eq!(counts(&out), (200, 1), "{from}: {err}");
        assert!(errors_are_located(&err), "{from}: {err}");
        assert!(
            err.contains("game 101: variations nested more than 500 deep"),
            "{from}: {err}"
        );
    }
}

/// Item 15: any depth kifu writes, it reads back, in every format: a game
/// nested exactly at the limit goes X -> X and X -> json -> X exactly (JSON
/// stopped at about 30 levels, serde_json's recursion limit).
#[test]
fn a_game_nested_at_the_limit_round_trips() {
    for format in ["pgn", "draughts-num"] {
        let first = convert(format, format, &[], deep_game(format, LIMIT).as_bytes());
        assert_eq!(counts(&first), (1, 0), "{format}: {}", stderr(&first));
        let canonical = first.stdout;
        let again = convert(format, format, &[], &canonical);
        assert_eq!(counts(&again), (1, 0), "{format}: {}", stderr(&again));
        assert!(again.stdout == canonical, "{format} -> {format} differs");
        let grammar = convert(format, format, &["--grammar-only"], &canonical);
        assert!(grammar.stdout == canonical, "{format} by the grammar");
        assert_interchange_round_trip(format, &[], &canonical, 1, "deep");
    }
    let num = convert(
        "draughts-num",
        "draughts-num",
        &[],
        deep_game("num", LIMIT).as_bytes(),
    );
    let diag = convert("draughts-num", "draughts-diag", &[], &num.stdout);
    let back = convert("draughts-diag", "draughts-num", &[], &diag.stdout);
    assert_eq!(counts(&back), (1, 0), "{}", stderr(&back));
    assert!(
        back.stdout == num.stdout,
        "draughts-diag round trip differs"
    );
    // One level more is refused, by either reader.
    for extra in [&[][..], &["--grammar-only"][..]] {
        let out = convert("pgn", "pgn", extra, deep_game("pgn", LIMIT + 1).as_bytes());
        assert_eq!(counts(&out), (0, 1), "{}", stderr(&out));
    }
}

/// Runs kifu on `input`, killing it after `limit`; returns how long it ran
/// and its output.
fn timed(args: &[&str], input: &[u8], limit: Duration) -> (Duration, std::process::Output) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    let start = Instant::now();
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("kifu {args:?} ran over {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = start.elapsed();
    writer.join().expect("stdin writer");
    (elapsed, child.wait_with_output().expect("output"))
}

/// Item 16: each unclosed `(` made the grammar re-scan the text after it
/// (9,000 of them before 229 KB of moves took 112 s). The time is now a
/// constant times the text: the game with the parentheses takes about as
/// long as the same moves without them.
#[test]
fn unclosed_parentheses_cost_linear_time() {
    let moves: String = (1..)
        .map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i - 1, 2 * i))
        .take_while({
            let mut len = 0;
            move |s: &String| {
                len += s.len();
                len < 100_000
            }
        })
        .collect();
    let plain = format!("[Event \"x\"]\n\n{moves}*\n");
    let parens = format!("[Event \"x\"]\n\n1. e4 {}{moves}*\n", "(".repeat(400));
    // Output to a file: a pipe nobody reads while kifu runs would fill.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let sink = dir.path().join("out.pgn");
    let sink = sink.to_str().expect("a UTF-8 path");
    let args = ["convert", "--from", "pgn", "--to", "pgn", "-o", sink, "-"];
    let limit = Duration::from_secs(60);
    let (base, out) = timed(&args, plain.as_bytes(), limit);
    assert_eq!(counts(&out), (1, 0), "{}", stderr(&out));
    let (took, out) = timed(&args, parens.as_bytes(), limit);
    let err = stderr(&out);
    // The variation never closed is kept as a comment.
    assert_eq!(counts(&out), (1, 0), "{err}");
    assert!(err.contains("warning[variation-as-text]"), "{err}");
    // Quadratic took minutes here; linear is within a few baselines.
    assert!(
        took < base * 10 + Duration::from_secs(3),
        "unclosed parentheses took {took:?}, the same moves {base:?}"
    );
}

/// A chess game of `bytes` or a little more, all its moves on one line.
fn long_game(bytes: usize) -> String {
    let mut moves = String::new();
    let mut i = 1;
    while moves.len() < bytes {
        moves.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i - 1, 2 * i));
        i += 1;
    }
    format!("[Event \"long\"]\n\n{moves}*\n\n")
}

/// Item 17: a record over the limit fails alone, with its position, its
/// size and the option that raises the limit; it is skipped while reading
/// (never held whole), and the games after it convert. A 60 MB one-game line
/// took 1.9 GB, and 130 MB aborted the run.
#[test]
fn a_record_over_the_limit_fails_alone_and_the_limit_can_be_raised() {
    // 100 good games, a game of 200 KB, 100 good games; limit 64K.
    let text = archive("pgn", &long_game(200_000));
    let limited = ["--max-record-size", "64K"];
    let out = convert("pgn", "pgn", &limited, text.as_bytes());
    let err = stderr(&out);
    assert_eq!(counts(&out), (200, 1), "{err}");
    assert!(errors_are_located(&err), "{err}");
    assert!(
        err.contains("-:401:1: error: game 101: the game is 195."),
        "{err}"
    );
    assert!(
        err.contains("over the limit of 64 KiB") || err.contains("over the limit of 65536 bytes"),
        "{err}"
    );
    assert!(err.contains("--max-record-size"), "{err}");
    // Raised, it converts.
    let out = convert("pgn", "pgn", &["--max-record-size", "1M"], text.as_bytes());
    assert_eq!(counts(&out), (201, 0), "{}", stderr(&out));

    // The same from JSON Lines, a JSON array and draughts-num.
    let lines = convert("pgn", "jsonl", &[], text.as_bytes());
    assert_eq!(counts(&lines), (201, 0));
    let array = convert("pgn", "json", &[], text.as_bytes());
    for (from, input) in [("jsonl", &lines.stdout), ("json", &array.stdout)] {
        let out = convert(from, "pgn", &limited, input);
        let err = stderr(&out);
        assert_eq!(counts(&out), (200, 1), "{from}: {err}");
        assert!(err.contains("game 101: the game is "), "{from}: {err}");
    }
    let mut moves = String::new();
    while moves.len() < 200_000 {
        moves.push_str("32-28 18-23 28-32 23-18 ");
    }
    let long = format!("[Event \"long\"]\n\n{moves}*\n\n");
    let out = convert(
        "draughts-num",
        "draughts-num",
        &limited,
        archive("num", &long).as_bytes(),
    );
    assert_eq!(counts(&out), (200, 1), "{}", stderr(&out));

    // A size that is not one is a usage error.
    let out = convert("pgn", "pgn", &["--max-record-size", "lots"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// Item 17, at the default limit (16 MiB): a 17 MB game between two good
/// ones is refused and skipped; nothing else is lost.
#[test]
fn the_default_limit_refuses_a_17_mb_game() {
    let good = |i| good_game("pgn", i);
    let text = format!("{}{}{}", good(1), long_game(17_000_000), good(2));
    let out = convert("pgn", "pgn", &[], text.as_bytes());
    let err = stderr(&out);
    assert_eq!(counts(&out), (2, 1), "{err}");
    assert!(
        err.contains("-:5:1: error: game 2: the game is 16."),
        "{err}"
    );
    assert!(err.contains("over the limit of 16 MiB"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("good 2"));
}

/// Issue 22, item 14: past the depth where pest's stack runs out (about
/// 58,000 levels on a worker thread), the grammar's error named the place
/// where it ran out, hundreds of thousands of columns past the variation
/// that is too deep. Every container reader now names the `(` that opens
/// level 501, whatever the depth and however the variations are laid out
/// in lines.
#[test]
fn the_depth_error_names_the_parenthesis_that_opens_level_501() {
    // (format, flags, the first move, its alternative)
    let readers: [(&str, &[&str], &str, &str); 8] = [
        ("pgn", &[], "1. e4", "1. d4"),
        ("pgn", &["--grammar-only"], "1. e4", "1. d4"),
        ("draughts-num", &[], "1. 32-28", "1. 33-29"),
        ("draughts-num", &["--grammar-only"], "1. 32-28", "1. 33-29"),
        ("draughts-diag", &[], "1. e45", "1. e45"),
        ("coerceo", &[], "1# 3c-3e", "1# 3c-3e"),
        ("tafl", &[], "1. d2-e2", "1. d2-e2"),
        ("tenjiku", &[], "1. P-8g", "1. P-8g"),
    ];
    // How each level is opened: on the first move's line, a level a line,
    // and between comments that hold parentheses.
    type Shape = (&'static str, fn(&str) -> String);
    let shapes: [Shape; 3] = [
        ("one line", |alt| format!("({alt} ")),
        ("a level a line", |alt| format!("\n({alt}")),
        ("comments", |alt| format!("{{a (b}} ({alt} ; (c\n")),
    ];
    for depth in [LIMIT + 1, 60_000, 100_000] {
        for (format, flags, first, alt) in readers {
            for (shape, open) in shapes {
                let level = open(alt);
                let movetext = format!(
                    "{first} {} {alt} {}",
                    level.repeat(depth),
                    ")".repeat(depth)
                );
                let game = format!("[Event \"deep\"]\n\n{movetext} *\n");
                // Where level 501 opens: the `(` of its variation in the
                // copy of `level` after the first 500.
                let before = format!("[Event \"deep\"]\n\n{first} {}", level.repeat(LIMIT));
                let opens = level.find(&format!("({alt}")).expect("a level opens");
                let paren = before.len() + opens;
                let head = &game[..paren];
                let line = head.matches('\n').count() + 1;
                let col = paren - head.rfind('\n').map_or(0, |i| i + 1) + 1;
                let out = convert(format, format, flags, game.as_bytes());
                let err = stderr(&out);
                let what = format!("{format} {flags:?} {shape}, {depth} deep");
                assert_eq!(counts(&out), (0, 1), "{what}: {err}");
                assert!(
                    err.contains(&format!(
                        "-:{line}:{col}: error[too-deep]: game 1: variations nested more than 500 deep"
                    )),
                    "{what}: expected {line}:{col}: {err}"
                );
            }
        }
    }
}

/// Runs `kifu convert --from pgn --to pgn ARGS -` with an address space of
/// `kib` KiB (`ulimit -v`), as a machine short of memory would.
fn convert_in(kib: usize, args: &[&str], input: &[u8]) -> std::process::Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    let mut all = vec!["-c", &script, env!("CARGO_BIN_EXE_kifu")];
    all.extend_from_slice(&["convert", "--from", "pgn", "--to", "pgn"]);
    all.extend_from_slice(args);
    all.push("-");
    common::run("sh", &all, input)
}

/// Issue 22, item 13: a record under `--max-record-size` whose conversion
/// needs more memory than the process can have failed an allocation and
/// aborted the whole run (nothing written, no message but Rust's). It now
/// fails alone, before kifu starts on it, with its place, its size and
/// what it would take; the games after it convert. A record that fits
/// converts under the same limit.
#[test]
fn a_record_kifu_has_no_memory_for_fails_alone() {
    let good = |i| good_game("pgn", i);
    let big = long_game(40 << 20);
    let text = format!("{}{big}{}", good(1), good(2));
    let raised = ["--max-record-size", "1G"];
    // 1 GiB of address space: the 40 MiB game read whole (as a pair of
    // formats that does not stream reads it) takes more to convert.
    let whole = [&raised[..], &["--read-whole"]].concat();
    let out = convert_in(1 << 20, &whole, text.as_bytes());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(counts(&out), (2, 1), "{err}");
    assert!(errors_are_located(&err), "{err}");
    assert!(
        err.contains("-:5:1: error: game 2: the game is 40.0 MiB"),
        "{err}"
    );
    assert!(err.contains("could not have that much memory"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("good 2"));
    // Streamed (pgn -> pgn, a record over 256 KiB), it takes a few times
    // its size, and converts in the same address space.
    let out = convert_in(1 << 20, &raised, text.as_bytes());
    assert_eq!(counts(&out), (3, 0), "{}", stderr(&out));
    // A game of 2 MiB converts in the same address space, -j 1 and -j 2.
    let text = format!("{}{}{}", good(1), long_game(2 << 20), good(2));
    for jobs in ["1", "2"] {
        let out = convert_in(
            1 << 20,
            &[&raised[..], &["-j", jobs]].concat(),
            text.as_bytes(),
        );
        assert_eq!(counts(&out), (3, 0), "-j {jobs}: {}", stderr(&out));
    }
}

/// Issue 22, item 13: the large records converted at once share one
/// memory budget, what one record at the size limit may take: a record
/// that does not fit beside those being converted waits for them (with
/// `-j 4`, four records of 16 MB took four times the memory of one), and a
/// record alone always fits.
#[test]
fn large_records_share_one_memory_budget() {
    use kifu::archive::{claim_memory, MEMORY_PER_BYTE, UNCLAIMED_RECORD};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    // Small records claim nothing.
    assert!(claim_memory(UNCLAIMED_RECORD, 1 << 20).unwrap().is_none());
    let limit = 4 << 20;
    let first = claim_memory(3 << 20, limit).unwrap().expect("a claim");
    // A second record of 3 MiB does not fit beside the first (the budget
    // is what a 4 MiB one takes): it waits until the first is done.
    let done = Arc::new(AtomicBool::new(false));
    let waiter = std::thread::spawn({
        let done = done.clone();
        move || {
            let second = claim_memory(3 << 20, limit).unwrap();
            assert!(done.load(Ordering::SeqCst), "claimed beside the first");
            second.is_some()
        }
    });
    std::thread::sleep(Duration::from_millis(300));
    done.store(true, Ordering::SeqCst);
    drop(first);
    assert!(waiter.join().unwrap());
    // Two that fit together are claimed at once; one over the whole budget
    // runs alone.
    let a = claim_memory(1 << 20, limit).unwrap();
    let b = claim_memory(2 << 20, limit).unwrap();
    drop((a, b));
    let alone = claim_memory(8 << 20, limit).unwrap();
    assert!(alone.is_some());
    drop(alone);
    // What no system gives is refused, not aborted.
    let huge = usize::MAX / MEMORY_PER_BYTE / 2;
    let err = claim_memory(huge, huge).unwrap_err();
    assert!(
        err.message.contains("could not have that much memory"),
        "{}",
        err.message
    );
}

/// Records larger than a batch, one after another, each convert: the
/// reader's buffer grows for each from what the one before left in it
/// (which may already be more than the next step of its growth).
#[test]
fn records_larger_than_a_batch_in_a_row_all_convert() {
    for size in [300 << 10, 1 << 20, 3 << 20] {
        let text = long_game(size).repeat(4);
        for jobs in ["1", "2"] {
            let out = convert("pgn", "pgn", &["-j", jobs], text.as_bytes());
            assert_eq!(counts(&out), (4, 0), "{size} -j {jobs}: {}", stderr(&out));
        }
    }
}
