//! The registry of families and formats, walked: every family kifu
//! registers (`kifu::family::Family::ALL`) and every format of the list
//! (`kifu::format::FORMATS`) has what the project promises for each, so that
//! a family or format added without one of them fails here, not in a user's
//! hands:
//! - a fuzz target that reads it and one that round-trips it (`fuzz/`:
//!   `tests/fuzz_regressions.rs` requires them of every format kifu reads);
//! - its entries in the XML schema (`schema/kifu.xsd`);
//! - a sample in the bundled corpus (`corpus/FAMILY/`) that each of its
//!   notations reads;
//! - a round trip of those samples: X -> X -> X stable, X -> json -> X and
//!   X -> xml -> X equal to X -> X (the fuzz targets' own check), and every
//!   game written in each other notation of its family reads back to the
//!   same moves.

use std::fs;
use std::path::{Path, PathBuf};

use crate::check;
use kifu::codec::ReadOptions;
use kifu::family::Family;
use kifu::format::{Format, FORMATS};
use kifu::ir::Game;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The formats that hold games of `family`.
fn notations(family: Family) -> impl Iterator<Item = &'static Format> {
    FORMATS.iter().filter(move |f| f.family == Some(family))
}

#[test]
fn every_family_has_its_entries_in_the_xml_schema() {
    let xsd = fs::read_to_string(root().join("schema/kifu.xsd")).unwrap();
    for family in Family::ALL {
        let name = family.name();
        assert!(
            xsd.contains(&format!("<xs:enumeration value=\"{name}\"/>")),
            "schema/kifu.xsd: the family enumeration lacks {name}"
        );
        let element = format!("<xs:element name=\"{name}\" type=\"");
        let at = xsd
            .find(&element)
            .unwrap_or_else(|| panic!("schema/kifu.xsd: no move element for {name}"));
        let ty = &xsd[at + element.len()..];
        let ty = &ty[..ty.find('"').unwrap()];
        assert!(
            xsd.contains(&format!("<xs:complexType name=\"{ty}\"")),
            "schema/kifu.xsd: {name}'s move type {ty} is not defined"
        );
    }
}

/// A record read as `format` reads it.
fn read(format: &'static Format, text: &str) -> Result<Game, kifu::error::Problem> {
    (format.read.unwrap())(text, &ReadOptions::default()).map(|p| p.game)
}

/// The files of `corpus/FAMILY/` that `format` reads: those with one of its
/// extensions, each giving games and no failure.
fn samples(family: Family, format: &'static Format) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = root().join("corpus").join(family.name());
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(&dir) else {
        return out;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !format
            .extensions
            .iter()
            .any(|e| name.ends_with(&format!(".{e}")))
        {
            continue;
        }
        let data = fs::read(&path).unwrap();
        let records = check::game_records(format, &data);
        let reads = |r: &Vec<u8>| read(format, &String::from_utf8_lossy(r)).is_ok();
        if !records.is_empty() && records.iter().all(reads) {
            out.push((path, data));
        }
    }
    out
}

#[test]
fn every_notation_of_every_family_has_a_corpus_sample_that_round_trips() {
    for &family in Family::ALL {
        let mut notations_read = 0;
        for format in notations(family).filter(|f| f.read.is_some()) {
            notations_read += 1;
            let samples = samples(family, format);
            assert!(
                !samples.is_empty(),
                "corpus/{}/ holds no sample that {} reads whole (a file ending .{})",
                family.name(),
                format.name,
                format.extensions[0]
            );
            for (path, data) in &samples {
                // X -> X -> X, X -> json -> X, X -> xml -> X.
                if format.write.is_some() {
                    check::round_trips(format.name, data);
                }
                // Into every other notation of the family and back: the
                // same moves.
                for to in notations(family).filter(|t| t.write.is_some() && t.read.is_some()) {
                    same_moves_through(format, to, path, data);
                }
            }
        }
        assert!(
            notations_read > 0,
            "{} has no notation kifu reads",
            family.name()
        );
    }
}

/// Every game of `data` (read as `from`) written as `to` and read back has
/// the same moves, by their keys (what `kifu diff` compares), or was
/// refused by the writer with an error (a notation that cannot hold it).
fn same_moves_through(from: &'static Format, to: &'static Format, path: &Path, data: &[u8]) {
    for record in check::game_records(from, data) {
        let text = String::from_utf8_lossy(&record);
        let Ok(game) = read(from, &text) else {
            continue;
        };
        let mut written = String::new();
        if (to.write.unwrap())(&game, &Default::default(), &mut written).is_err() {
            continue;
        }
        let back = read(to, &written).unwrap_or_else(|e| {
            panic!(
                "{}: {} -> {} does not read back: {}\n{written}",
                path.display(),
                from.name,
                to.name,
                e.message
            )
        });
        let keys =
            |g: &Game| -> Vec<String> { g.moves.plies.iter().map(|p| p.mv.key(false)).collect() };
        assert_eq!(
            keys(&game),
            keys(&back),
            "{}: {} -> {} -> {} changes the moves",
            path.display(),
            from.name,
            to.name,
            to.name
        );
    }
}
