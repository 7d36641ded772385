//! docs/layout.md, "Adding a family": a family is its room and one registration
//! line. Proved by adding one: a copy of kifu's crate gets the toy room of
//! `toy/mod.rs.txt` (a piece hopping along a row) as `src/family/toy/`,
//! `pub mod toy;` and the line `Toy(toy::Toy) as as_toy;` in
//! `src/family/mod.rs`, and nothing else; the copy must build, and the
//! toy's unit test must pass in it: the toy is in `Family::ALL`, its moves
//! dispatch (`Move::key`), and a toy game goes through json, jsonl and xml
//! and back, checked by the toy's own rules. A match on the families
//! written by hand anywhere in kifu would fail the build here. (Builds the
//! copy in `target/adding-a-family`, about a minute on two cores once its
//! dependencies are built.)

use std::path::{Path, PathBuf};
use std::process::Command;

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder for the copy");
    for e in std::fs::read_dir(from).expect("readable folder").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
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
fn a_family_is_its_room_and_one_registration_line() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/adding-a-family");
    let krate = work.join("crate");
    let _ = std::fs::remove_dir_all(&krate);
    for dir in ["src", "grammars", "schema", "tests", "corpus"] {
        copy_tree(&root.join(dir), &krate.join(dir));
    }
    for file in ["Cargo.toml", "Cargo.lock", "README.md"] {
        std::fs::copy(root.join(file), krate.join(file)).expect("copied");
    }
    // The room.
    let room = krate.join("src/family/toy");
    std::fs::create_dir_all(&room).unwrap();
    std::fs::copy(
        root.join("tests/conformance/toy/mod.rs.txt"),
        room.join("mod.rs"),
    )
    .unwrap();
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

    let out = Command::new(env!("CARGO"))
        .args(["test", "--lib", "--quiet", "--manifest-path"])
        .arg(krate.join("Cargo.toml"))
        .args(["family::toy", "--", "--test-threads=1"])
        .env("CARGO_TARGET_DIR", work.join("target"))
        .output()
        .expect("cargo runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "the copy with a toy family:\n{all}");
    assert!(
        all.contains("1 passed"),
        "the toy's test did not run:\n{all}"
    );
}
