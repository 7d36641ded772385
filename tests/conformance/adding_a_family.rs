//! docs/layout.md, "Adding a family": a family is its room and one registration
//! line. Proved by adding one: a copy of kifu's crate gets the toy room of
//! `toy/mod.rs.txt` and `toy/hooks.rs.txt` (a piece hopping along a row) as
//! `src/family/toy/`, `pub mod toy;` and the line `Toy(toy::Toy) as as_toy;`
//! in `src/family/mod.rs`, and nothing else; the whole fast suite must pass
//! in the copy, as on a fresh clone (`cargo test` with no shared folder: the unit tests, the toy's among them, and
//! `tests/it`, with the floors test, which finds no circle across the toy's
//! wall and no toy named outside its room, and the registry and schema
//! tests): the toy is in `Family::ALL`, its moves dispatch (`Move::key`),
//! and a toy game goes through json, jsonl and xml and back, checked by
//! the toy's own rules. A match on the families written by hand anywhere
//! in kifu would fail the build here. The copy builds in
//! `target/adding-a-family/target`, kept between runs and seeded on the
//! first from the main build's dependencies, so that only kifu compiles
//! there (the main target folder is not shared: the copy's `kifu` binary
//! would replace the one the other tests run).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Seeds the copy's target folder `to`, when it has no build yet, with the
/// dependencies the main build compiled (`deps`, `build`, `.fingerprint`
/// of its debug profile): they are the same crates with the same flags, so
/// that only kifu compiles in the copy (minutes less on a fresh machine).
fn seed_target(root: &Path, to: &Path) {
    let main = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("debug");
    let debug = to.join("debug");
    if debug.exists() || !main.join("deps").is_dir() {
        return;
    }
    std::fs::create_dir_all(&debug).unwrap();
    for part in ["deps", "build", ".fingerprint"] {
        let status = Command::new("cp")
            .arg("-a")
            .arg(main.join(part))
            .arg(&debug)
            .status()
            .expect("cp runs");
        assert!(status.success(), "copying {part} of the main build");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder for the copy");
    for e in std::fs::read_dir(from).expect("readable folder").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        // Build outputs and git's own files stay behind.
        if e.file_name() == "target" || e.file_name() == ".git" {
            continue;
        }
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copied");
        }
    }
}

/// Puts `add` after the line holding `after`, which must be there once.
fn insert_after(text: &str, after: &str, add: &str) -> String {
    assert_eq!(
        text.matches(after).count(),
        1,
        "`{after}` is not there once"
    );
    let at = text.find(after).unwrap();
    let end = at + text[at..].find('\n').unwrap() + 1;
    format!("{}{add}{}", &text[..end], &text[end..])
}

#[test]
fn a_family_is_its_room_and_one_registration_line_and_passes_the_fast_suite() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/adding-a-family");
    let krate = work.join("crate");
    let _ = std::fs::remove_dir_all(&krate);
    // The whole project (the fast suite reads its docs, fuzz regressions,
    // corpus and schema), without its build outputs.
    copy_tree(&root, &krate);
    // The room.
    let room = krate.join("src/family/toy");
    std::fs::create_dir_all(&room).unwrap();
    for file in ["mod.rs", "hooks.rs"] {
        std::fs::copy(
            root.join(format!("tests/conformance/toy/{file}.txt")),
            room.join(file),
        )
        .unwrap();
    }
    // The registration line (and the room's module line beside the others).
    let registry = krate.join("src/family/mod.rs");
    let text = std::fs::read_to_string(&registry).unwrap();
    let text = insert_after(&text, "pub mod tenjiku;", "pub mod toy;\n");
    let text = insert_after(
        &text,
        "Tenjiku(tenjiku::Tenjiku) as as_tenjiku;",
        "    /// A toy, registered by a test.\n    Toy(toy::Toy) as as_toy;\n",
    );
    std::fs::write(&registry, text).unwrap();

    // The whole fast suite, as `cargo test` runs it on a fresh clone: the
    // shared folder hidden (KIFU_SHARED at a path that does not exist). The
    // toy has no records there, so the tests that read it (the slowest of
    // the suite) would only test the other families again, which `.ci/run`
    // has done on this very code.
    let shared = work.join("no-shared-folder");
    seed_target(&root, &work.join("target"));
    let out = Command::new(env!("CARGO"))
        .args([
            "test",
            "--quiet",
            "--lib",
            "--test",
            "it",
            "--manifest-path",
        ])
        .arg(krate.join("Cargo.toml"))
        // The toy has no notation of its own (no format reads it, so it
        // has no corpus sample and no record of a refused move): the two
        // tests that ask that of every family are all that is skipped.
        .args([
            "--",
            "--skip",
            "every_notation_of_every_family_has_a_corpus_sample_that_round_trips",
            "--skip",
            "the_families_that_replay_are_those_whose_readers_honour_no_validate",
        ])
        .env("CARGO_TARGET_DIR", work.join("target"))
        .env("KIFU_SHARED", shared)
        // The files made from the registry (schema/kifu.xsd) written for
        // the toy, as the one adding a family does, before they are checked.
        .env("KIFU_BLESS", "1")
        .output()
        .expect("cargo runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "the copy with a toy family:\n{all}");
    // Two test binaries ran (the unit tests, tests/it), each passing tests.
    let results: Vec<&str> = all
        .lines()
        .filter(|l| l.starts_with("test result:"))
        .collect();
    assert!(
        results.len() == 2
            && results
                .iter()
                .all(|l| l.starts_with("test result: ok. ") && !l.contains(" 0 passed")),
        "the suite did not run whole in the copy:\n{all}"
    );
}
