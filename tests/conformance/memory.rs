//! Memory per record (issue 22, docs/benchmarks.md "Memory per record"):
//! one record of each shape `benches/memory.py` makes (moves, comments,
//! variations, 400 nested variations, a record held in one variation 50
//! deep, the densest movetext, draughts with its board named and
//! inferred), 16 MB, converted validated and with `--no-validate`, peaks at
//! most 8 times its size (GNU time's peak resident set of the test build
//! of kifu), and converts.

use std::path::Path;
use std::process::Command;

#[test]
fn a_long_record_of_any_shape_takes_at_most_8_times_its_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !Path::new("/usr/bin/time").exists() {
        panic!("GNU time (/usr/bin/time) is needed: .ci/run installs it (the `time` package)");
    }
    let out = Command::new("python3")
        .arg(root.join("benches/memory.py"))
        .args([
            "--kifu",
            env!("CARGO_BIN_EXE_kifu"),
            "--sizes",
            "16",
            "--max-ratio",
            "8",
        ])
        .args([
            "--shapes",
            "chess-moves,chess-comments,chess-variations,chess-deep,chess-one-variation,chess-dense,draughts-moves,draughts-inferred",
        ])
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("{said}");
    assert!(out.status.success(), "{said}\n{err}");
    // Every shape measured, validated and not.
    assert_eq!(
        said.lines().filter(|l| l.contains(" MB | ")).count(),
        8,
        "{said}"
    );
}
