//! What kifu does to its outputs, as a user sees it: an output is never an
//! input nor another output, it is written to a temporary file and renamed
//! into place when complete, --out-dir names never collide, a mixed folder
//! converts what it can, a closed pipe ends the run quietly, and what kifu
//! prints is safe on a terminal.

use crate::common;

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::*;

// Tagged with their board: a record without one is converted with a warning
// (the board inferred from its moves), which --strict would stop at.
const GOOD: &str =
    "[Event \"one\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
const BAD_MIDDLE: &str = "[Event \"one\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 *\n\n[Event \"two\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-99 *\n\n[Event \"three\"]\n[GameType \"20\"]\n\n1. 33-29 *\n";
const CHESS: &str = "[Event \"c\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";

/// Runs kifu in a folder, with no standard input.
fn kifu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs")
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Item 1: the output is one of the inputs, by any path.
#[test]
fn an_output_that_is_an_input_is_refused_by_any_path() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.pdn"), GOOD).unwrap();
    std::os::unix::fs::symlink(d.join("g.pdn"), d.join("link.pdn")).unwrap();
    fs::hard_link(d.join("g.pdn"), d.join("hard.pdn")).unwrap();
    fs::create_dir(d.join("sub")).unwrap();
    for out in ["g.pdn", "./g.pdn", "sub/../g.pdn", "link.pdn", "hard.pdn"] {
        let run = kifu_in(d, &["convert", "--to", "draughts-num", "g.pdn", "-o", out]);
        assert_eq!(run.status.code(), Some(2), "-o {out}: {}", stderr(&run));
        let err = stderr(&run);
        assert!(
            err.contains(out) && err.contains("g.pdn") && err.contains("input"),
            "-o {out}: {err}"
        );
        assert_eq!(
            fs::read_to_string(d.join("g.pdn")).unwrap(),
            GOOD,
            "-o {out}"
        );
    }
    // Standard input redirected from the file it would write.
    let run = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["convert", "--from", "draughts-num", "--to", "draughts-num"])
        .args(["-o", "g.pdn"])
        .current_dir(d)
        .stdin(fs::File::open(d.join("g.pdn")).unwrap())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(fs::read_to_string(d.join("g.pdn")).unwrap(), GOOD);
    // Nothing was left behind.
    assert_eq!(names(d), ["g.pdn", "hard.pdn", "link.pdn", "sub"]);
}

/// Item 1: an output is complete or untouched: a run stopped by --strict
/// leaves the earlier file as it was and no temporary file; a good run
/// replaces it.
#[test]
fn a_stopped_run_leaves_the_previous_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("bad.pdn"), BAD_MIDDLE).unwrap();
    fs::write(d.join("good.pdn"), GOOD).unwrap();
    fs::write(d.join("out.pdn"), "previous output\n").unwrap();
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "draughts-num",
            "--strict",
            "bad.pdn",
            "-o",
            "out.pdn",
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert_eq!(
        fs::read_to_string(d.join("out.pdn")).unwrap(),
        "previous output\n"
    );
    assert_eq!(names(d), ["bad.pdn", "good.pdn", "out.pdn"]);

    // The same under --out-dir.
    fs::create_dir(d.join("o")).unwrap();
    fs::write(d.join("o/bad.pdn"), "previous output\n").unwrap();
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "draughts-num",
            "--strict",
            "bad.pdn",
            "--out-dir",
            "o",
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert_eq!(
        fs::read_to_string(d.join("o/bad.pdn")).unwrap(),
        "previous output\n"
    );
    assert_eq!(names(&d.join("o")), ["bad.pdn"]);

    // A run that completes replaces the file, through a symbolic link too
    // (the link stays a link).
    std::os::unix::fs::symlink(d.join("out.pdn"), d.join("out-link.pdn")).unwrap();
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "draughts-num",
            "good.pdn",
            "-o",
            "out-link.pdn",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(fs::read_to_string(d.join("out.pdn")).unwrap(), GOOD);
    assert!(fs::symlink_metadata(d.join("out-link.pdn"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        names(d),
        ["bad.pdn", "good.pdn", "o", "out-link.pdn", "out.pdn"]
    );
}

/// Item 2: two inputs never write one --out-dir file: where two would
/// meet, each keeps its input's extension (issue 36 item 1: they were
/// refused, exit 2, which no one could mend in a tree).
#[test]
fn out_dir_outputs_that_would_meet_keep_their_inputs_extensions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("x1")).unwrap();
    fs::create_dir_all(d.join("x2")).unwrap();
    fs::write(d.join("x1/g.pdn"), GOOD).unwrap();
    fs::write(d.join("x2/g.pdn"), GOOD).unwrap();
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "json",
            "x1/g.pdn",
            "x2/g.pdn",
            "--out-dir",
            "o",
        ],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // One name twice: the first in the run's order keeps it, the second is
    // numbered.
    assert_eq!(names(&d.join("o")), ["g.pdn#2.json", "g.pdn.json"]);

    // english.pdn and english.diag.pdn would both give english.json.
    fs::create_dir_all(d.join("e")).unwrap();
    fs::write(d.join("e/english.pdn"), GOOD).unwrap();
    fs::write(d.join("e/english.diag.pdn"), "1. e45 e76 *\n").unwrap();
    let run = kifu_in(d, &["convert", "--to", "json", "e", "--out-dir", "p"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(
        names(&d.join("p")),
        ["english.diag.pdn.json", "english.pdn.json"]
    );
    let (diag, num) = (
        fs::read_to_string(d.join("p/english.diag.pdn.json")).unwrap(),
        fs::read_to_string(d.join("p/english.pdn.json")).unwrap(),
    );
    assert!(diag.contains("\"moves\"") && diag != num, "{diag}");
}

/// Item 3: a folder mixing families converts what it can.
#[test]
fn a_folder_mixing_families_converts_what_it_can() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("corpus")).unwrap();
    fs::write(d.join("corpus/c.pgn"), CHESS).unwrap();
    fs::write(d.join("corpus/d.pdn"), GOOD).unwrap();
    let run = kifu_in(
        d,
        &["convert", "--to", "sllavcco", "corpus", "--out-dir", "out"],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(
        err.lines()
            .any(|l| l.contains("corpus/d.pdn") && l.contains("warning")),
        "{err}"
    );
    assert!(err.contains("converted 1 game, 0 failed"), "{err}");
    assert!(fs::read_to_string(d.join("out/c.sllavcco"))
        .unwrap()
        .contains("N3"));
    assert_eq!(names(&d.join("out")), ["c.sllavcco"]);
    // Alone, an input of the other family is still a usage error.
    let run = kifu_in(d, &["convert", "--to", "sllavcco", "corpus/d.pdn"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
}

/// The games of a draughts file as big as `n` games.
fn many_games(n: usize) -> String {
    GOOD.repeat(n).replace("2-0\n[", "2-0\n\n[")
}

/// Item 4: `kifu ... | head -1` ends quietly.
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let input = many_games(4000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args([
            "convert",
            "--from",
            "draughts-num",
            "--to",
            "draughts-num",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "[Event \"one\"]\n");
    // The reading end is closed here, as `head -1` does.
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("kifu:"),
        "{err}"
    );
}

/// Item 5: a write error names the output, exit 2; a closed standard output
/// is a write error, never "converted N games".
#[test]
fn write_errors_and_a_closed_standard_output_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.pdn"), GOOD).unwrap();
    if Path::new("/dev/full").exists() {
        let run = kifu_in(
            d,
            &[
                "convert",
                "--to",
                "draughts-num",
                "g.pdn",
                "-o",
                "/dev/full",
            ],
        );
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(stderr(&run).contains("/dev/full"), "{}", stderr(&run));
    }
    let run = Command::new("sh")
        .args([
            "-c",
            "exec \"$0\" convert --to draughts-num g.pdn >&-",
            env!("CARGO_BIN_EXE_kifu"),
        ])
        .current_dir(d)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("standard output"), "{err}");
    assert!(!err.contains("converted"), "{err}");
}

/// Item 5b: --rejects is an output like the others.
#[test]
fn rejects_is_never_an_input_nor_another_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("bad.pdn"), BAD_MIDDLE).unwrap();
    for args in [
        &["--rejects", "./bad.pdn"][..],
        &["-o", "all.pdn", "--rejects", "all.pdn"][..],
        &["-o", "all.pdn", "--rejects", "sub/../all.pdn"][..],
        &["--out-dir", "o", "--rejects", "o/bad.pdn"][..],
    ] {
        fs::create_dir_all(d.join("sub")).unwrap();
        let mut full = vec!["convert", "--to", "draughts-num", "bad.pdn"];
        full.extend_from_slice(args);
        let run = kifu_in(d, &full);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert_eq!(fs::read_to_string(d.join("bad.pdn")).unwrap(), BAD_MIDDLE);
        assert!(
            !d.join("all.pdn").exists() && !d.join("o").exists(),
            "{args:?}"
        );
    }
}

/// Item 5b: an output inside an input folder is never read by the run that
/// writes it, and an earlier one found there is refused as an input.
#[test]
fn an_output_inside_an_input_folder_is_not_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("games")).unwrap();
    fs::write(d.join("games/a.pdn"), GOOD).unwrap();
    fs::write(d.join("games/b.pdn"), GOOD).unwrap();
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "draughts-num",
            "games",
            "-o",
            "games/all.pdn",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(counts(&run), (2, 0));
    let all = fs::read_to_string(d.join("games/all.pdn")).unwrap();
    assert_eq!(all.matches("[Event").count(), 2);
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "draughts-num",
            "games",
            "-o",
            "games/all.pdn",
        ],
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("games/all.pdn"), "{}", stderr(&run));
    assert_eq!(fs::read_to_string(d.join("games/all.pdn")).unwrap(), all);
    assert_eq!(names(&d.join("games")), ["a.pdn", "all.pdn", "b.pdn"]);
}

/// Item 5b: --strict still writes the failing game to --rejects.
#[test]
fn strict_writes_the_failing_game_to_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("bad.pdn"), BAD_MIDDLE).unwrap();
    let run = kifu_in(
        d,
        &[
            "convert",
            "--to",
            "draughts-num",
            "--strict",
            "bad.pdn",
            "--rejects",
            "rej.pdn",
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let kept = fs::read_to_string(d.join("rej.pdn")).unwrap();
    assert!(
        kept.contains("[Event \"two\"]") && kept.contains("28-99"),
        "{kept:?}"
    );
    assert!(!kept.contains("three"), "{kept:?}");
}

/// Item 8: kifu reads its own JSON without a word; no message says game 0.
#[test]
fn json_arrays_read_back_without_warnings_and_games_count_from_1() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("x.pdn"), BAD_MIDDLE.replace("28-99", "28-22")).unwrap();
    let run = kifu_in(d, &["convert", "--to", "json", "x.pdn", "-o", "a.json"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let direct = kifu_in(d, &["convert", "--to", "draughts-num", "x.pdn"]);
    let back = kifu_in(d, &["convert", "--to", "draughts-num", "a.json"]);
    let err = stderr(&back);
    assert!(back.status.success(), "{err}");
    assert!(!err.contains("warning"), "{err}");
    assert_eq!(err.trim_end(), "converted 3 games, 0 failed");
    assert_eq!(back.stdout, direct.stdout);

    // Comments after the last game: said once, with the game they follow.
    fs::write(d.join("t.pdn"), format!("{GOOD}\n{{ the end }}\n")).unwrap();
    let run = kifu_in(d, &["convert", "--to", "draughts-num", "t.pdn"]);
    let err = stderr(&run);
    assert!(err.contains("after game 1"), "{err}");
    assert!(!err.contains("game 0"), "{err}");
    fs::write(d.join("c.pdn"), "{ no game here }\n").unwrap();
    let run = kifu_in(d, &["convert", "--to", "draughts-num", "c.pdn"]);
    let err = stderr(&run);
    assert!(err.contains("belong to no game"), "{err}");
    assert!(!err.contains("game 0"), "{err}");
}

/// Item 14: control bytes of an input are escaped in messages.
#[test]
fn control_bytes_are_escaped_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = b"[GameType \"2\x1b[31m0\x00\"]\n\n1. 32-28 *\n\n[Event \"x\"]\n\n1. 32-2\x008 *\n\n[GameType \"\x93\xe9\"]\n\n1. 32-28 *\n";
    fs::write(d.join("c\x1b[1m.pdn"), record).unwrap();
    let run = kifu_in(d, &["convert", "--to", "draughts-num", "c\x1b[1m.pdn"]);
    assert_eq!(run.status.code(), Some(1));
    let err = &run.stderr;
    let text = String::from_utf8_lossy(err);
    assert!(
        !err.iter().any(|&b| (b < 0x20 && b != b'\n') || b == 0x7f),
        "{text:?}"
    );
    assert!(
        !text.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)),
        "{text:?}"
    );
    assert!(
        text.contains("c\\x1b[1m.pdn:1:1: error: game 1: GameType `2\\x1b[31m0\\x00`"),
        "{text}"
    );
    assert!(text.contains("found `\\x008`"), "{text}");
    // A C1 control read as Latin-1 is escaped; a letter that is not ASCII
    // stays as it is.
    assert!(text.contains("GameType `\\u{93}\u{e9}`"), "{text}");
}

/// `-o -` is standard output, as `-` among the inputs is standard input
/// (pandoc's and pgn-extract's reading of it): it wrote a file named `-`
/// in the working folder, and one was committed once by accident.
#[test]
fn dash_as_the_output_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("g.pgn"), CHESS).unwrap();
    for (to, text) in [
        ("pgn", "Nf3"),
        ("json", "\"family\""),
        ("xml", "<game"),
        ("sllavcco", "TOURNAMENT\tc"),
    ] {
        let out = kifu_in(dir.path(), &["convert", "g.pgn", "--to", to, "-o", "-"]);
        no_panic(&out);
        assert!(out.status.success(), "{to}: {}", stderr(&out));
        assert!(
            stdout(&out).contains(text),
            "{to}: the game is not on standard output:\n{}",
            stdout(&out)
        );
        assert_eq!(names(dir.path()), ["g.pgn"], "{to}: a file was written");
    }
    // Without --to, `-` names no format: the message says to name one.
    let out = kifu_in(dir.path(), &["convert", "g.pgn", "-o", "-"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(names(dir.path()), ["g.pgn"]);
}

/// A run that its progress stops (what `kifu.convert` does on Ctrl-C: an
/// error from the callback after a batch) ends with that error, and leaves
/// neither an output nor a temporary file, whatever the output: one file
/// (`-o`), one per input, the tables of a folder, the rejects.
#[test]
fn a_run_its_progress_stops_leaves_no_output() {
    use kifu::convert::{run, Run};
    use kifu::plan::{self, Outputs};
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("many.pgn");
    // Batches of 256 KiB: a few dozen of them.
    fs::write(&input, format!("{CHESS}\n").repeat(200_000)).unwrap();
    for (to, out_dir) in [("jsonl", false), ("pgn", true), ("csv", true)] {
        let out = dir.path().join(format!("out-{to}"));
        fs::create_dir(&out).unwrap();
        let to = kifu::format::by_name(to).unwrap();
        let file = out.join(format!("all.{}", to.extensions[0]));
        let rejects = out.join("rejects.pgn");
        let outputs = Outputs {
            output: (!out_dir).then_some(file.as_path()),
            out_dir: out_dir.then_some(out.as_path()),
            rejects: Some(&rejects),
        };
        let inputs = [input.clone()];
        let mut plan = plan::plan(&inputs, None, to, outputs.out_dir).unwrap();
        plan.check(&outputs, to).unwrap();
        let options = kifu::options::run::resolve(&[], &[plan.jobs[0].from], to).unwrap();
        let settings = Run {
            to,
            options: &options,
            read: Default::default(),
            outputs,
            strict: false,
            verbose: true,
        };
        let mut batches = 0;
        let ended = run(&plan, &settings, &mut |_| {}, &mut |_| {
            batches += 1;
            match batches {
                3 => Err(std::io::Error::from(std::io::ErrorKind::Interrupted)),
                _ => Ok(()),
            }
        });
        let Err(kifu::error::Error::Io { source, .. }) = ended else {
            panic!("{}: the run was not stopped: {ended:?}", to.name);
        };
        assert_eq!(source.kind(), std::io::ErrorKind::Interrupted);
        assert_eq!(batches, 3, "{}", to.name);
        assert!(names(&out).is_empty(), "{}: {:?}", to.name, names(&out));
    }
}

/// Ctrl-C during a conversion stops it at the next batch, exit 130, and
/// leaves neither the output nor a temporary file beside it (issue 36: a
/// run stopped so left `.out.jsonl.kifu-tmp-PID`). The input is a named
/// pipe fed until kifu stops, so the run is surely under way.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_conversion_and_leaves_no_output() {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    for out in [["-o", "out.jsonl"], ["--out-dir", "o"]] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let fifo = d.join("in.pdn");
        let path = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a plain system call on a NUL-ended path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        let child = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .current_dir(d)
            .args(["convert", "--to", "jsonl", "in.pdn", out[0], out[1]])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Fed until kifu is gone (the pipe then fails).
        let feeder = std::thread::spawn(move || {
            let mut pipe = fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let games = many_games(200);
            for _ in 0..100_000 {
                if pipe.write_all(games.as_bytes()).is_err() {
                    return true;
                }
            }
            false
        });
        std::thread::sleep(std::time::Duration::from_millis(800));
        // SAFETY: a signal to the child this test started.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
        let run = child.wait_with_output().unwrap();
        assert!(feeder.join().unwrap(), "kifu read the whole input");
        assert_eq!(run.status.code(), Some(130), "{}", stderr(&run));
        assert!(
            stderr(&run).contains("kifu: interrupted"),
            "{}",
            stderr(&run)
        );
        // Nothing beside the input but the (empty) output folder.
        let mut left = names(d);
        if d.join("o").is_dir() {
            assert_eq!(names(&d.join("o")), Vec::<String>::new());
            left.retain(|n| n != "o");
        }
        assert_eq!(left, ["in.pdn"]);
    }
}
