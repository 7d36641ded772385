//! Every finding of the fuzzers, kept under `fuzz/regressions/FORMAT/`, is
//! replayed through the checks of the fuzz targets (`fuzz/src/check.rs`,
//! included here): the input is cut into records and read as the CLI reads
//! it, nothing panics, and every game that reads round-trips (X -> X -> X is
//! stable, X -> json -> X equals X -> X).
//! A finding is committed with its fix: every file here must pass.

use crate::check;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions")
}

/// Every saved finding: (format, path relative to `fuzz/regressions`).
fn findings() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for format in check::readers() {
        let Ok(dir) = std::fs::read_dir(root().join(format)) else {
            continue;
        };
        let mut names: Vec<String> = dir
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for n in names {
            out.push((format.to_string(), format!("{format}/{n}")));
        }
    }
    out
}

fn replay(format: &str, file: &str) {
    let data = std::fs::read(root().join(file)).expect("a saved finding");
    check::round_trips(format, &data);
}

/// A new reader cannot skip the fuzzers: every readable format has its
/// reader and round-trip targets, which `fuzz/run.sh` (and so `.ci/run`)
/// runs. They are made from the format list: with `KIFU_BLESS=1`, a
/// format's missing target is written (`read_pgn.rs`, `roundtrip_pgn.rs`
/// with the format's name) with its `[[bin]]` entry.
#[test]
fn every_reader_has_fuzz_targets() {
    let readers: Vec<&str> = check::readers().collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    let cargo = dir.join("../Cargo.toml");
    let bless = std::env::var_os("KIFU_BLESS").is_some();
    for r in readers {
        for kind in ["read", "roundtrip"] {
            let name = format!("{kind}_{}", r.replace('-', "_"));
            let path = dir.join(format!("{name}.rs"));
            if bless && !path.exists() {
                let template = std::fs::read_to_string(dir.join(format!("{kind}_pgn.rs")))
                    .expect("the pgn target, the template of the others");
                std::fs::write(&path, template.replace("pgn", r)).unwrap();
                let mut manifest = std::fs::read_to_string(&cargo).unwrap();
                manifest.push_str(&format!(
                    "\n[[bin]]\nname = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"\ntest = false\ndoc = false\nbench = false\n"
                ));
                std::fs::write(&cargo, manifest).unwrap();
            }
            let manifest = std::fs::read_to_string(&cargo).expect("fuzz/Cargo.toml");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                panic!("no fuzz target {} (KIFU_BLESS=1 writes it)", path.display())
            });
            assert!(
                text.contains(&format!("(\"{r}\", data)")),
                "{} does not fuzz {r}",
                path.display()
            );
            assert!(
                manifest.contains(&format!("name = \"{name}\"")),
                "fuzz/Cargo.toml has no [[bin]] {name}"
            );
        }
    }
}

#[test]
fn every_folder_is_a_readable_format() {
    for e in std::fs::read_dir(root())
        .expect("fuzz/regressions")
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            check::readers().any(|r| r == name),
            "fuzz/regressions/{name} is not a format kifu reads"
        );
    }
}

#[test]
fn fixed_findings_stay_fixed() {
    let all = findings();
    assert!(!all.is_empty(), "no findings under fuzz/regressions");
    let mut failing = Vec::new();
    for (format, file) in &all {
        eprintln!("replaying {file}");
        if std::panic::catch_unwind(|| replay(format, file)).is_err() {
            failing.push(file.as_str());
        }
    }
    assert!(
        failing.is_empty(),
        "fixed findings that fail again: {failing:?}"
    );
}

/// The checks accept good input: every record of the bundled corpus reads
/// and round-trips (else the fuzzers would report nothing but noise).
#[test]
fn the_checks_accept_the_bundled_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut games = 0;
    for dir in ["chess", "draughts"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join(dir))
            .expect("corpus/")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for path in files {
            let Some(format) = kifu::format::guess(&path) else {
                continue;
            };
            let data = std::fs::read(&path).expect("a corpus file");
            let read = check::reads(format.name, &data);
            assert!(
                read.iter()
                    .all(|c| matches!(c, kifu::archive::Converted::Game(..))),
                "{}: a game of the bundled corpus does not read",
                path.display()
            );
            games += read.len();
            check::round_trips(format.name, &data);
        }
    }
    assert!(games >= 10, "only {games} games in corpus/");
}
