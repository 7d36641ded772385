//! Helpers shared by the test crates (`tests/it`, the fast suite, and
//! `tests/conformance`): run the `kifu` binary, find the shared folder.

#![allow(dead_code)]

pub mod csv;
pub mod fast_lexer;
pub mod font;
pub mod scoresheet;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs a program with arguments, feeding it standard input.
pub fn run(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("the program ends");
    writer.join().expect("stdin writer");
    out
}

/// Runs `kifu` with arguments and standard input.
pub fn kifu(args: &[&str], stdin: &[u8]) -> Output {
    run(env!("CARGO_BIN_EXE_kifu"), args, stdin)
}

/// Converts bytes from one format to another through standard input.
pub fn convert(from: &str, to: &str, extra: &[&str], input: &[u8]) -> Output {
    let mut args = vec!["convert", "--from", from, "--to", to];
    args.extend_from_slice(extra);
    args.push("-");
    kifu(&args, input)
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("kifu writes UTF-8")
}

/// Asserts that kifu did not crash (a panic exits with 101).
pub fn no_panic(out: &Output) {
    assert_ne!(
        out.status.code(),
        Some(101),
        "kifu panicked: {}",
        stderr(out)
    );
    assert!(
        !stderr(out).contains("panicked"),
        "kifu panicked: {}",
        stderr(out)
    );
}

/// The shared folder: where `KIFU_SHARED` points when it is set (a path
/// relative to the checkout, or absolute), else `../shared` beside the
/// checkout. It may be absent: every test that reads it finds it through
/// [`shared_folder`] or [`shared`], which skip with a message.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("KIFU_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// A folder of the shared folder (`corpus`, `corpus/chess`), or `None`,
/// with a message for the test's output, when it is not there: the caller
/// skips what needs it.
pub fn shared_folder(path: &str) -> Option<PathBuf> {
    let dir = shared_root().join(path);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: {} is absent (the shared folder is ../shared beside the checkout, or KIFU_SHARED)",
            dir.display()
        );
        None
    }
}

/// The shared corpus folder of a family (`../shared/corpus/chess`), or
/// `None` (with a message) when it is absent.
pub fn shared(family: &str) -> Option<PathBuf> {
    shared_folder(&format!("corpus/{family}"))
}

/// Every file under a folder whose name ends with `ending`, sorted.
pub fn files(dir: &Path, ending: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(ending) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The "converted N games, M failed" counts of a run.
pub fn counts(out: &Output) -> (usize, usize) {
    let err = stderr(out);
    let line = err
        .lines()
        .rev()
        .find(|l| l.starts_with("converted "))
        .unwrap_or_else(|| panic!("no summary line in: {err}"));
    let nums: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a count"))
        .collect();
    (nums[0], nums[1])
}

/// How many more diagnostics a grouped line stands for (its `(N more like
/// this)`), 0 for a line of one.
pub fn more_like_this(line: &str) -> usize {
    line.strip_suffix(" more like this)")
        .and_then(|l| l.rsplit_once('(')?.1.parse().ok())
        .unwrap_or(0)
}

/// A message line without its kind (`error[too-deep]:` as `error:`,
/// `warning[latin-1]:` as `warning:`), for checks of its form.
pub fn kindless(line: &str) -> String {
    for what in [": error[", ": warning["] {
        if let Some(at) = line.find(what) {
            let open = at + what.len() - 1;
            if let Some(close) = line[open..].find("]:") {
                return format!("{}{}", &line[..open], &line[open + close + 1..]);
            }
        }
    }
    line.to_string()
}

/// True when every error line has the form `file:line:col: error: game N: ...`
/// (or, for a document cut short, `file:line:col: error: the document ends
/// here...`) and, when the run's summary line is there, the lines stand for
/// every failed game (a grouped line for itself and its `N more like
/// this`).
pub fn errors_are_located(err: &str) -> bool {
    let plain: Vec<String> = err.lines().map(kindless).collect();
    let mut errors = plain.iter().filter(|l| l.contains(": error: "));
    // Errors of one kind are grouped: the line of those not shown says
    // how many more came (`(N more like this)`).
    let games = errors
        .clone()
        .filter(|l| l.contains(": error: game "))
        .map(|l| 1 + more_like_this(l))
        .sum::<usize>();
    let failed = err
        .lines()
        .rev()
        .find(|l| l.starts_with("converted "))
        .and_then(|l| {
            l.split(", ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        });
    if failed.is_some_and(|f| f != games) {
        return false;
    }
    errors.all(|l| {
        let mut parts = l.splitn(4, ':');
        let (_file, line, col) = (parts.next(), parts.next(), parts.next());
        let rest = parts.next().unwrap_or("");
        line.is_some_and(|s| s.parse::<usize>().is_ok_and(|n| n > 0))
            && col.is_some_and(|s| s.parse::<usize>().is_ok_and(|n| n > 0))
            && (rest.starts_with(" error: game ")
                || rest.starts_with(" error: the document ends here"))
    })
}

/// Asserts that `canonical` (the output of `format` -> `format`, holding
/// `games` games) comes back byte for byte through json and through jsonl.
pub fn assert_interchange_round_trip(
    format: &str,
    extra: &[&str],
    canonical: &[u8],
    games: usize,
    name: &str,
) {
    for fmt in ["json", "jsonl"] {
        let there = convert(format, fmt, extra, canonical);
        assert_eq!(counts(&there), (games, 0), "{name} -> {fmt}");
        let back = convert(fmt, format, &[], &there.stdout);
        assert_eq!(
            counts(&back),
            (games, 0),
            "{name} <- {fmt}: {}",
            stderr(&back)
        );
        assert!(
            back.stdout == canonical,
            "{name}: {format} -> {fmt} -> {format} differs"
        );
    }
}

/// Asserts that `text` holds every one of `wanted`, naming what was run
/// (`context`) and the first missing one.
pub fn contains_all(text: &str, wanted: &[&str], context: &str) {
    for w in wanted {
        assert!(text.contains(w), "{context}: no `{w}` in\n{text}");
    }
}

/// A folder of one test's own under cargo's temporary folder for tests
/// (`target/tmp`, not the system's: nothing is left in `/tmp`, and a run
/// reuses the folders of the last); `group` and `test` name it (test names are unique
/// within a group). Each call gives the same folder, its files kept: a
/// test that writes several files calls it for each.
pub fn scratch(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{group}-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bundled chess game (`corpus/chess/petrosjan-sllavcco.pgn`) written
/// as a Sllavcco scoresheet in German piece letters (`--pieces de`): a
/// transcription that only a reader told its letters reads as its moves.
pub fn german_sheet() -> Vec<u8> {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/chess/petrosjan-sllavcco.pgn");
    let out = kifu(
        &[
            "convert",
            "-q",
            "--to",
            "sllavcco",
            "--pieces",
            "de",
            game.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    out.stdout
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}
