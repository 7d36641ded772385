//! The layout of `tests/`: two test crates, so that `cargo test` links one
//! test binary. A `tests/NAME.rs` would be a binary of its own (Cargo finds
//! it), and a file of `tests/it` or `tests/conformance` that its `main.rs`
//! does not name would never be compiled: both are refused here.

use std::fs;
use std::path::Path;

/// The `.rs` files of a folder, by name, sorted.
fn rust_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".rs"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_test_file_is_a_module_of_one_of_the_two_crates() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let loose = rust_files(&tests);
    assert!(
        loose.is_empty(),
        "{loose:?}: move each into tests/it (or tests/conformance, for a test that needs an \
         external tool or the whole shared corpus) as a module named in its main.rs"
    );
    for krate in ["it", "conformance"] {
        let dir = tests.join(krate);
        let main = fs::read_to_string(dir.join("main.rs")).expect("main.rs");
        for file in rust_files(&dir) {
            let name = file.trim_end_matches(".rs");
            assert!(
                file == "main.rs" || main.lines().any(|l| l == format!("mod {name};")),
                "tests/{krate}/{file} is not a module of tests/{krate}/main.rs"
            );
        }
    }
}

/// The crates beside the library (`fuzz/`, `benches/`) keep lockfiles of
/// their own, which hold the library's dependencies too: a dependency
/// added to the library must be added there as well, or `fuzz/build.sh`
/// (`--locked`, in `.ci/run`) fails. (A merge that added `parquet` left
/// `fuzz/Cargo.lock` behind.)
#[test]
fn the_fuzz_and_bench_lockfiles_hold_the_librarys_dependencies() {
    for krate in ["fuzz", "benches"] {
        let out = std::process::Command::new(env!("CARGO"))
            .args([
                "metadata",
                "--format-version",
                "1",
                "--locked",
                "--manifest-path",
            ])
            .arg(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(krate)
                    .join("Cargo.toml"),
            )
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "{krate}/Cargo.lock is behind the library's dependencies (run `cargo metadata \
             --manifest-path {krate}/Cargo.toml` to update it):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The binary stays a thin layer over the library (issue 23): its commands
/// and flags are defined in `kifu::cli`, planning, converting, diffing and
/// reporting are the library's; `src/main.rs` keeps only the process (the
/// worker threads, standard output, the exit status).
#[test]
fn the_command_line_binary_stays_thin() {
    let main = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs"))
        .expect("src/main.rs");
    let lines = main.lines().count();
    assert!(
        lines < 500,
        "src/main.rs has {lines} lines: move definitions to src/cli.rs and work to the library"
    );
    for derive in [
        "#[derive(Parser)]",
        "#[derive(clap::Args)]",
        "#[derive(Subcommand)]",
    ] {
        assert!(
            !main.contains(derive),
            "src/main.rs defines flags ({derive}): they are defined once, in src/cli.rs"
        );
    }
}

/// Every procedural macro `cargo test` builds runs only while kifu
/// compiles, so Cargo.toml keeps it at opt-level 0 (`[profile.dev.package.*]`
/// would otherwise optimise it at 2): a new dependency's macro without the
/// override costs every cold build (docs/benchmarks.md, "Build and test
/// times"). The list is Cargo's own (`cargo tree`), not one kept by hand.
#[test]
fn every_procedural_macro_is_built_unoptimised() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let tree = std::process::Command::new(cargo)
        .args(["tree", "--offline", "--locked", "-e", "normal,build,dev"])
        .args(["--prefix", "none"])
        .current_dir(root)
        .output()
        .expect("cargo tree runs");
    assert!(
        tree.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&tree.stderr)
    );
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let text = String::from_utf8_lossy(&tree.stdout).into_owned();
    let mut macros: Vec<&str> = Vec::new();
    for line in text.lines().filter(|l| l.contains("(proc-macro)")) {
        let name = line.split_whitespace().next().expect("a package name");
        if !macros.contains(&name) {
            macros.push(name);
        }
    }
    assert!(
        macros.contains(&"serde_derive"),
        "cargo tree lists no procedural macro: {text}"
    );
    let missing: Vec<&&str> = macros
        .iter()
        .filter(|name| {
            let table = format!("[profile.dev.package.{name}]\nopt-level = 0");
            !manifest.contains(&table)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "procedural macros without `opt-level = 0` in Cargo.toml's dev profile: {missing:?}"
    );
}

/// The most lines a file of `src/` holds before its unit tests (issue 37):
/// a longer one is split along its seams (the Python module into
/// `src/python/`: arguments, reading, games, writing, converting, tables).
const MAX_LINES_BEFORE_TESTS: usize = 1_200;

/// Every `.rs` file under a folder, with its path.
fn rust_files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of a source text before its test module: a `#[cfg(test)]`
/// followed by a `mod` line (all of them, where it has none). A
/// `#[cfg(test)]` on an import or an item is not the tests' start.
fn lines_before_tests(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .position(|w| {
            w[0].trim_start().starts_with("#[cfg(test)]") && {
                let next = w[1].trim_start();
                next.starts_with("mod ") || next.starts_with("pub(crate) mod ")
            }
        })
        .unwrap_or(lines.len())
}

#[test]
fn no_source_file_is_over_1200_lines_before_its_tests() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files_under(&src, &mut files);
    assert!(
        files.len() > 50 && files.iter().any(|f| f.ends_with("python/read.rs")),
        "the walk of src/ found {} files",
        files.len()
    );
    let mut long = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let n = lines_before_tests(&text);
        if n > MAX_LINES_BEFORE_TESTS {
            long.push(format!("{}: {n} lines", file.display()));
        }
    }
    long.sort();
    assert!(
        long.is_empty(),
        "files of src/ over {MAX_LINES_BEFORE_TESTS} lines before their unit tests: split each \
         along its seams (docs/layout.md):\n{}",
        long.join("\n")
    );
    // The count stops at the tests, and counts a file without them whole.
    assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
    assert_eq!(lines_before_tests("a\nb\nc\n"), 3);
    // A `#[cfg(test)]` on an import is not where the tests start.
    assert_eq!(
        lines_before_tests("a\n#[cfg(test)]\nuse x;\nb\n#[cfg(test)]\nmod tests {}\n"),
        4
    );
}
