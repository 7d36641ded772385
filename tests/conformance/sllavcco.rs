//! The sllavcco column scoresheet on the shared chess corpus: every file
//! that converts pgn -> pgn goes to a scoresheet and back with its main
//! line (the format itself: `tests/it/sllavcco.rs`).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::*;

/// Tags and main-line plies (number, side, move, glyph) of every game of a
/// `jsonl` output: what a scoresheet keeps.
fn main_lines(jsonl: &str) -> Vec<Value> {
    jsonl
        .lines()
        .map(|l| {
            let mut g: BTreeMap<String, Value> = serde_json::from_str(l).expect("IR JSON");
            let plies: Vec<Value> = g
                .get("moves")
                .and_then(|m| m.get("plies"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|p| {
                    let keep: serde_json::Map<String, Value> = p
                        .as_object()
                        .expect("a ply")
                        .iter()
                        .filter(|(k, _)| matches!(k.as_str(), "number" | "side" | "move" | "glyph"))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    Value::Object(keep)
                })
                .collect();
            g.insert("moves".to_string(), Value::Array(plies));
            g.remove("preamble");
            g.remove("result");
            serde_json::to_value(g).expect("JSON")
        })
        .collect()
}

#[test]
fn the_shared_chess_corpus_round_trips_on_the_main_line() {
    let Some(dir) = shared("chess") else {
        return;
    };
    let (mut checked, mut games) = (0, 0);
    for file in files(&dir, ".pgn") {
        let name = file.display().to_string();
        let data = std::fs::read(&file).unwrap();
        let direct = convert("pgn", "pgn", &[], &data);
        no_panic(&direct);
        let (n, failed) = counts(&direct);
        if failed > 0 || n == 0 {
            eprintln!("skipped {name}: pgn -> pgn fails {failed} games");
            continue;
        }
        let sheet = convert("pgn", "sllavcco", &[], &data);
        assert_eq!(counts(&sheet), (n, 0), "{name}: {}", stderr(&sheet));
        let back = convert("sllavcco", "pgn", &[], &sheet.stdout);
        assert_eq!(counts(&back), (n, 0), "{name}: {}", stderr(&back));
        let ir = |pgn_text: &[u8]| {
            let out = convert("pgn", "jsonl", &[], pgn_text);
            assert_eq!(counts(&out), (n, 0), "{name}: {}", stderr(&out));
            main_lines(&stdout(&out))
        };
        let (want, got) = (ir(&direct.stdout), ir(&back.stdout));
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(g, w, "{name}: game {}", i + 1);
        }
        let again = convert("sllavcco", "sllavcco", &[], &sheet.stdout);
        assert!(
            again.stdout == sheet.stdout,
            "{name}: sllavcco -> sllavcco changes it"
        );
        checked += 1;
        games += n;
    }
    eprintln!("{checked} files, {games} games");
    assert!(
        checked >= 50 && games >= 1000,
        "{checked} files, {games} games"
    );
}
