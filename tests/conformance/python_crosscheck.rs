//! Cross-check against python-chess, run as a separate process: every PGN
//! file of the shared chess corpus is converted pgn -> pgn by the `kifu`
//! binary, and `tests/conformance/crosscheck.py` reads the output with
//! python-chess. Each
//! move (main line and variations) must be legal there and spelled exactly as
//! python-chess spells its SAN, and python-chess must read as many games as
//! kifu wrote.
//!
//! python-chess is installed by `.ci/run`; without it the test fails when
//! `CI` is set and is skipped otherwise.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::*;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/crosscheck.py")
}

/// True when `python3` can import python-chess. Without it the caller
/// skips, except on CI, which must have it.
fn python_chess() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "python-chess is missing on CI (.ci/run installs it)"
        );
        eprintln!("skipped: python3 cannot import chess (pip install chess)");
    }
    ok
}

/// Runs the cross-check on PGN text: its exit status and standard output.
fn crosscheck(pgn: &[u8]) -> (bool, String) {
    let script = script();
    let out = run("python3", &[script.to_str().expect("UTF-8 path"), "-"], pgn);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// The number after `name=` in the cross-check's summary line.
fn summary(out: &str, name: &str) -> Option<usize> {
    let line = out.lines().rev().find(|l| l.starts_with("games="))?;
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))?
        .parse()
        .ok()
}

/// Converts one file and cross-checks the output: games and moves checked,
/// or what went wrong.
fn check_file(file: &Path) -> Result<(usize, usize), String> {
    let name = file.display();
    let bytes = std::fs::read(file).expect("readable corpus file");
    let out = convert("pgn", "pgn", &[], &bytes);
    no_panic(&out);
    let (written, _failed) = counts(&out);
    let (ok, report) = crosscheck(&out.stdout);
    let games = summary(&report, "games");
    let moves = summary(&report, "moves").unwrap_or(0);
    if !ok {
        return Err(format!("{name}: python-chess disagrees:\n{report}"));
    }
    if games != Some(written) {
        return Err(format!(
            "{name}: kifu wrote {written} games, python-chess read {games:?}:\n{report}"
        ));
    }
    Ok((written, moves))
}

#[test]
fn python_chess_reads_the_same_legal_moves_and_san() {
    if !python_chess() {
        return;
    }
    let Some(dir) = shared("chess") else {
        return;
    };
    let files = files(&dir, ".pgn");
    // Both steps are single-threaded processes: run files side by side.
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let r = check_file(file);
                results.lock().expect("results").push(r);
            });
        }
    });
    let results = results.into_inner().expect("results");
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    let (games, moves) = results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .fold((0, 0), |(g, m), (dg, dm)| (g + dg, m + dm));
    eprintln!(
        "{} files, {games} games, {moves} moves cross-checked with python-chess",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        files.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(games > 1000, "only {games} games cross-checked");
}

#[test]
fn the_cross_check_catches_a_wrong_san() {
    if !python_chess() {
        return;
    }
    let good = b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let (ok, out) = crosscheck(good);
    assert!(ok, "{out}");
    assert_eq!(summary(&out, "moves"), Some(7), "{out}");
    // No mate mark, a needless disambiguation, an illegal move.
    for bad in [
        &b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ 1-0\n"[..],
        b"1. e4 e5 2. Ngf3 *\n",
        b"1. e4 e5 2. Ke3 *\n",
    ] {
        let (ok, out) = crosscheck(bad);
        assert!(!ok, "{}: {out}", String::from_utf8_lossy(bad));
        // Failed for a difference it found, not for a crash of its own.
        let found = summary(&out, "mismatches").unwrap_or(0) + summary(&out, "errors").unwrap_or(0);
        assert!(found > 0, "{}: {out}", String::from_utf8_lossy(bad));
    }
}
