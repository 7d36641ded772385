//! The board of a draughts record that no GameType tag names, on every file
//! of the English, Italian and international folders of the shared draughts
//! corpus (the inference itself: `tests/it/draughts_board.rs`).

use std::path::Path;

use crate::common::*;

/// The GameType tag each game of a canonical draughts-num text carries, and
/// whether the game has a move or a FEN to tell its board by.
fn game_types(text: &str) -> Vec<(Option<String>, bool)> {
    text.split("\n\n[")
        // A comment before the first game is no game.
        .filter(|g| g.contains("\"]\n"))
        .map(|g| {
            let t = g
                .split("GameType \"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .map(str::to_string);
            let body = g.rsplit_once("]\n\n").map_or("", |b| b.1).trim_end();
            // The movetext without its result (the last token).
            let moves = body.rsplit_once([' ', '\n']).map_or("", |b| b.0);
            let told = g.contains("[FEN ") || g.starts_with("FEN ") || moves.contains(['-', 'x']);
            (t, told)
        })
        .collect()
}

#[test]
fn every_shared_corpus_file_gets_its_board_without_variant() {
    let Some(dir) = shared("draughts") else {
        return;
    };
    for (folder, want) in [
        ("english", "21"),
        ("italian", "22"),
        ("international", "20"),
    ] {
        for file in files(&dir.join(folder), ".pdn") {
            let out = kifu(
                &[
                    "convert",
                    "--from",
                    "draughts-num",
                    "--to",
                    "draughts-num",
                    file.to_str().unwrap(),
                ],
                b"",
            );
            no_panic(&out);
            let name = file.display();
            let text = stdout(&out);
            let types = game_types(&text);
            assert_eq!(types.len(), counts(&out).0, "{name}");
            let mut untold = 0;
            for (i, (t, told)) in types.iter().enumerate() {
                let got = t.as_deref().unwrap_or("20");
                if !told {
                    // Nothing to tell the board by: international assumed.
                    assert_eq!(got, "20", "{name}: game {} of the output", i + 1);
                    untold += 1;
                    continue;
                }
                assert_eq!(got, want, "{name}: game {} of the output", i + 1);
            }
            assert!(
                untold * 10 <= types.len(),
                "{name}: {untold} games without moves"
            );
            if untold > 0 {
                eprintln!("{}: {untold} games without moves or FEN", short(&file));
            }
            // Which games stayed ambiguous, and what was assumed.
            for line in stderr(&out).lines().filter(|l| !l.contains(": game ")) {
                if line.contains("several boards")
                    || line.contains("no board fits")
                    || line.contains("assumed")
                {
                    eprintln!("{}: {line}", short(&file));
                }
            }
        }
    }
}

fn short(path: &Path) -> String {
    path.iter()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .map(|p| p.to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
