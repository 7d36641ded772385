//! `conformance/peers.py` (the README's table of the peers' files) reads
//! kifu's messages right: over a peer's repository made here (pgn4web's,
//! whose peer has no count), games of three kinds mixed over two files,
//! clean, warned (one warning or two) and failed, with text of no game
//! between them, are counted as kifu found them, and the failures are
//! listed by class with their file, line and column.

use std::path::Path;
use std::process::Command;

/// A game of kind `k`: 0 clean, 1 warned once, 2 warned twice, 3 failed.
fn game(k: usize, n: usize) -> String {
    let tags = format!("[Event \"game {n}\"]\n");
    match k {
        0 => format!("{tags}[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"),
        1 => format!("{tags}[Result \"1-0\"]\n\n1. d4 d5 0-1\n\n"),
        2 => format!("{tags}[Result \"1-0\"]\n\n1. d4 {{ a {{ nested }} comment }} d5 0-1\n\n"),
        _ => format!("{tags}[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n"),
    }
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=kifu", "-c", "user.email=kifu@example.org"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn peers_counts_the_games_kifu_converts_warns_and_fails() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("pgn4web");
    std::fs::create_dir_all(repo.join("live")).unwrap();
    let mut want = [0usize; 4];
    for (i, name) in ["games.pgn", "live/live.pgn"].iter().enumerate() {
        let mut text = String::from("stray text of no game\n\n");
        for n in 0..13 {
            let k = (n * 7 + i * 3) % 4;
            want[k] += 1;
            text += &game(k, n);
        }
        text += "{ a comment after the last game }\n";
        std::fs::write(repo.join(name), text).unwrap();
    }
    std::fs::write(repo.join("not-a-game.txt"), "no").unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "games"]);

    let out_dir = tmp.path().join("peers");
    let script = root.join("conformance/peers.py");
    let extract = Command::new("python3")
        .arg(&script)
        .args(["extract", "--git"])
        .arg(format!("hauva69/pgn4web={}", repo.join(".git").display()))
        .arg(&out_dir)
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&extract.stdout);
    assert!(
        extract.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&extract.stderr)
    );
    assert!(
        said.contains("pgn4web: 2 files from hauva69/pgn4web"),
        "{said}"
    );

    let run = Command::new("python3")
        .arg(&script)
        .args([
            "run",
            "--markdown",
            "--failures",
            "99",
            "--kifu",
            env!("CARGO_BIN_EXE_kifu"),
        ])
        .arg(&out_dir)
        .output()
        .expect("python3 runs");
    let table = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{table}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let [clean, once, twice, failed] = want;
    let row = format!(
        "| pgn4web (hauva69/pgn4web) | 2 | {} | {} | {} | {failed} | n/a |",
        clean + once + twice + failed,
        clean + once + twice,
        once + twice,
    );
    assert!(table.contains(&row), "no row {row} in\n{table}");
    assert!(
        table.contains("pgn4web: pgn4web reads PGN in a browser page"),
        "{table}"
    );
    let listed = table
        .lines()
        .filter(|l| l.contains(": 2. Ke3: illegal move"))
        .count();
    assert_eq!(listed, failed, "{table}");
    assert!(
        table.contains(&format!("pgn4web: {failed} x MOVE illegal move")),
        "{table}"
    );
    assert!(table.contains("pgn4web/games.pgn:"), "{table}");
}
