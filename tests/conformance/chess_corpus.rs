//! Round trips on every PGN file of the shared chess corpus, through the
//! `kifu` binary: pgn -> pgn is idempotent, pgn -> json -> pgn and
//! pgn -> jsonl -> pgn are exact, and games that do not replay give located
//! errors while the rest of their file converts (one file's errors, by line:
//! `tests/it/chess_corpus.rs`).

use crate::common;

use std::path::Path;

use common::*;

/// Games of the corpus that kifu refuses, and why: defects of the sources or
/// variants kifu does not play.
fn known_bad(path: &Path) -> usize {
    match path.file_name().and_then(|n| n.to_str()) {
        // Not PGN at all.
        Some("badpgn.pgn") => 1,
        // Illegal, ambiguous or malformed moves (see SOURCES.txt).
        Some("ambiguous.pgn") => 1,
        // (chessdoctor's `1/2 - 1/2` and `cd5` are read, with warnings.)
        Some("chessdoctor.pgn") => 4,
        // (and immortal_games' `29 Qxf8+` and `15 Qc2`; its variations
        // written `9. Bxe7, Qxe7` are kept as comments).
        Some("immortal_games.pgn") => 4,
        // scalachess's fixtures: a fragment of SAN, an illegal move.
        Some("disambiguated.pgn" | "festivalFigueira.pgn") => 1,
        _ => 0,
    }
}

#[test]
fn every_pgn_file_round_trips_exactly() {
    let Some(dir) = shared("chess") else {
        return;
    };
    let mut games = 0;
    for file in files(&dir, ".pgn") {
        let bytes = std::fs::read(&file).expect("readable corpus file");
        let name = file.display();

        let first = convert("pgn", "pgn", &[], &bytes);
        no_panic(&first);
        let (read, failed) = counts(&first);
        // Games of variants kifu does not play (Antichess, Crazyhouse,
        // Atomic, ...: the corpus keeps them as negative tests) are refused
        // as such.
        let refused = stderr(&first)
            .lines()
            .filter(|l| l.contains(": error[variant-unplayed]: "))
            .count();
        assert_eq!(
            failed - refused,
            known_bad(&file),
            "{name}: {}",
            stderr(&first)
        );
        assert!(errors_are_located(&stderr(&first)), "{name}");
        assert_eq!(first.status.code(), Some(i32::from(failed > 0)), "{name}");
        games += read;
        let canonical = first.stdout;

        let again = convert("pgn", "pgn", &[], &canonical);
        assert_eq!(counts(&again), (read, 0), "{name}: {}", stderr(&again));
        assert!(
            again.stdout == canonical,
            "{name}: pgn -> pgn is not idempotent"
        );

        assert_interchange_round_trip("pgn", &[], &canonical, read, &name.to_string());
    }
    eprintln!("{games} chess games read");
    assert!(games > 5000, "only {games} games in the corpus");
}
