//! The README's everyday recipes run as written in a fresh clone (issue 36
//! items 4 and 9): each shell block of the section, in order, by `sh -e`
//! in a folder that holds a copy of the repository's `corpus/` and nothing
//! else, with the `kifu` under test first on the PATH. A block that needs
//! a tool kifu does not (sqlite3, Python's duckdb) is skipped, with a
//! message, where the tool is missing. And no page a user reads names a
//! file a clone does not have (`../shared`, the project's `/work/`).

use crate::common::*;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The root of the repository.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shell blocks (fenced without a language) of the README between the
/// heading `## Everyday recipes` and the next `## ` heading.
fn recipes() -> Vec<String> {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("\n## Everyday recipes")
        .expect("the README's recipes");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in section.lines() {
        match (&mut open, line.trim_end()) {
            (None, "```") => open = Some(String::new()),
            (None, l) if l.starts_with("```") => open = Some("skip".into()),
            (Some(block), "```") => {
                if block != "skip" {
                    blocks.push(std::mem::take(block));
                }
                open = None;
            }
            (Some(block), l) => {
                if block != "skip" {
                    block.push_str(l);
                    block.push('\n');
                }
            }
            (None, _) => {}
        }
    }
    blocks
}

/// Whether a shell command succeeds (a tool is there).
fn works(script: &str) -> bool {
    Command::new("sh")
        .args(["-c", script])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_readmes_recipes_run_as_written_in_a_fresh_clone() {
    let blocks = recipes();
    assert!(blocks.len() >= 5, "{blocks:?}");
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    copy_tree(&root().join("corpus"), &dir.join("corpus"));
    let bin = Path::new(env!("CARGO_BIN_EXE_kifu")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for block in &blocks {
        let needs = [
            ("sqlite3", "command -v sqlite3"),
            ("duckdb", "python3 -c 'import duckdb'"),
        ];
        if let Some((tool, _)) = needs
            .iter()
            .find(|(tool, check)| block.contains(tool) && !works(check))
        {
            eprintln!("skipped (no {tool} here):\n{block}");
            continue;
        }
        let run = Command::new("sh")
            .args(["-ec", block])
            .current_dir(dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{block}\nexit {:?}: {}{}",
            run.status.code(),
            stdout(&run),
            stderr(&run)
        );
        assert!(!stderr(&run).contains("panicked"), "{block}");
        ran += 1;
    }
    assert!(ran >= 3, "{ran} blocks ran");
    // What the recipes say they make.
    for made in [
        "games.pgn",
        "out/tafl/position.jsonl",
        "out/draughts/english.pdn.jsonl",
        "out/draughts/english.diag.pdn.jsonl",
        "games.jsonl.gz",
        "games.de.sllavcco",
        "pgn/openings.pgn",
        "diff.html",
        "game.svg",
        "games.view.html",
    ] {
        assert!(dir.join(made).is_file(), "the recipes made no {made}");
    }
}

/// The pages for those who work on kifu, which may say what its tests and
/// measures read from the shared folder.
const FOR_DEVELOPERS: [&str; 4] = ["testing.md", "benchmarks.md", "fuzzing.md", "layout.md"];

#[test]
fn no_page_a_user_reads_names_a_file_a_clone_lacks() {
    let mut pages = vec![root().join("README.md")];
    for dir in [
        "docs",
        "corpus/chess",
        "corpus/draughts",
        "corpus/coerceo",
        "corpus/tafl",
        "corpus/tenjiku",
    ] {
        for e in fs::read_dir(root().join(dir)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "md") {
                pages.push(e.path());
            }
        }
    }
    let mut wrong = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        let developers = FOR_DEVELOPERS.iter().any(|d| name == format!("docs/{d}"));
        let mut code = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                code = !code;
                continue;
            }
            // The project's own machine: never a path of a clone.
            if line.contains("/work/") {
                wrong.push(format!("{name}:{}: {line}", n + 1));
            }
            // An example a user runs names only what a clone has.
            if code && !developers && line.contains("../shared") {
                wrong.push(format!("{name}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "paths a clone lacks:\n{}",
        wrong.join("\n")
    );
}

/// The README's install lines, `tools/install-test-tools.sh` and CI
/// (`.ci/run`) pin the same versions of python-chess and mdBook.
#[test]
fn the_install_lines_the_script_and_ci_pin_the_same_versions() {
    let read = |p: &str| fs::read_to_string(root().join(p)).unwrap();
    let (readme, script, ci) = (
        read("README.md"),
        read("tools/install-test-tools.sh"),
        read(".ci/run"),
    );
    let pin = |text: &str, name: &str| -> String {
        let at = text
            .find(&format!("{name}="))
            .unwrap_or_else(|| panic!("{name}= pinned"));
        text[at + name.len() + 1..]
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap()
            .to_string()
    };
    let (chess, mdbook) = (pin(&script, "CHESS"), pin(&script, "MDBOOK"));
    assert_eq!(
        (pin(&ci, "CHESS"), pin(&ci, "MDBOOK")),
        (chess.clone(), mdbook.clone())
    );
    assert!(
        readme.contains(&format!("pip install chess=={chess}")),
        "README: python-chess {chess}"
    );
    assert!(
        readme.contains(&format!("cargo install mdbook --version {mdbook} ")),
        "README: mdBook {mdbook}"
    );
    assert!(readme.contains("pip install pandas pyarrow duckdb"));
    assert!(readme.contains("tools/install-test-tools.sh"));
}
