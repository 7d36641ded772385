//! How `--out-dir` names outputs (issue 36 item 1): no two inputs ever
//! map to one output, whatever their names, and an output whose first name
//! meets no other keeps it. A property test over generated trees of
//! sibling names with the registry's extensions (in any case, compressed,
//! in zip archives, beside folders named like outputs), and the batch
//! recipe run by the `kifu` binary over the repository's own corpus for
//! every format that writes one file per input.

use crate::common::*;

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use kifu::format::{self, Format, FORMATS};
use kifu::plan::{plan, Outputs};
use proptest::prelude::*;

/// The root of the repository.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every extension kifu reads a file by (`pgn`, `diag.pdn`, ...), from the
/// registry.
fn read_extensions() -> Vec<&'static str> {
    FORMATS
        .iter()
        .flat_map(|f| f.extensions.iter().map(move |e| (f, *e)))
        .filter(|(f, e)| {
            format::guess(Path::new(&format!("x.{e}"))).is_some_and(|g| std::ptr::eq(g, *f))
        })
        .map(|(_, e)| e)
        .collect()
}

/// Every format that writes one output per input under `--out-dir` (not
/// the tables of a run, csv and parquet), from the registry.
fn per_input_formats() -> Vec<&'static Format> {
    let t = tempfile::tempdir().unwrap();
    let game = t.path().join("g.pgn");
    fs::write(&game, "1. e4 *\n").unwrap();
    FORMATS
        .iter()
        .filter(|f| f.write.is_some())
        .filter(|f| {
            plan(std::slice::from_ref(&game), None, f, Some(t.path()))
                .is_ok_and(|p| p.jobs[0].out.is_some())
        })
        .collect()
}

/// A path as a file system that ignores case compares it.
fn folded(p: &Path) -> String {
    p.to_string_lossy().to_lowercase()
}

/// A file of a generated tree: its folder, stem, extension (an index into
/// the registry's), whether the extension is in capitals, and its
/// compression.
type Entry = (usize, usize, usize, bool, usize);

const FOLDERS: [&str; 6] = ["", "a/", "A/", "x.jsonl/", "games/", "games.zip/"];
const STEMS: [&str; 6] = ["x", "X", "g", "games", "x.pgn", "g#2"];
const COMPRESSED: [&str; 4] = ["", ".gz", ".zst", ".GZ"];

/// The file name of an entry, for the extensions `exts`.
fn entry_name((folder, stem, ext, upper, comp): &Entry, exts: &[&str]) -> String {
    let ext = exts[*ext % exts.len()];
    let ext = if *upper {
        ext.to_uppercase()
    } else {
        ext.to_string()
    };
    format!(
        "{}{}.{ext}{}",
        FOLDERS[*folder], STEMS[*stem], COMPRESSED[*comp]
    )
}

/// A zip archive of empty members named `members`.
fn zip(path: &Path, members: &[String]) {
    let mut w = zip::ZipWriter::new(fs::File::create(path).unwrap());
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    // (A name twice is written once: the zip crate refuses a second.)
    let mut seen = std::collections::HashSet::new();
    for name in members.iter().filter(|n| seen.insert(n.as_str())) {
        w.start_file(name.as_str(), opts).unwrap();
        w.write_all(b"").unwrap();
    }
    w.finish().unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Generated trees: the outputs of a run are one per input, none the
    /// same as another (by any case), none a folder another goes in, none
    /// an input, all inside `--out-dir`; where the first names of the
    /// outputs meet nothing, they are kept.
    #[test]
    fn no_two_inputs_of_a_generated_tree_meet_under_out_dir(
        files in proptest::collection::vec((0..FOLDERS.len(), 0..STEMS.len(), 0..64usize, any::<bool>(), 0..COMPRESSED.len()), 1..14),
        archives in proptest::collection::vec(
            (0..3usize, proptest::collection::vec((0..FOLDERS.len(), 0..STEMS.len(), 0..64usize, any::<bool>(), 0..1usize), 1..5)),
            0..3,
        ),
        to in 0..64usize,
    ) {
        let exts = read_extensions();
        let targets = per_input_formats();
        let to = targets[to % targets.len()];
        let t = tempfile::tempdir().unwrap();
        let (input, out) = (t.path().join("in"), t.path().join("out"));
        fs::create_dir_all(&input).unwrap();
        // (A name that is a folder's already, or under a file, is left out.)
        for e in &files {
            let path = input.join(entry_name(e, &exts));
            if fs::create_dir_all(path.parent().unwrap()).is_ok() && !path.is_dir() {
                fs::write(&path, "").unwrap();
            }
        }
        for (name, members) in &archives {
            let members: Vec<String> = members.iter().map(|m| entry_name(m, &exts)).collect();
            let name = ["games.zip", "x.jsonl.zip", "a/games.ZIP"][*name];
            let path = input.join(name);
            if fs::create_dir_all(path.parent().unwrap()).is_ok() && !path.is_dir() {
                zip(&path, &members);
            }
        }
        let mut p = plan(std::slice::from_ref(&input), None, to, Some(&out)).unwrap();
        // Inputs of another family than the output's are set aside; a run
        // of nothing else is refused, as `kifu convert` refuses it.
        if p.jobs.is_empty() || p.set_aside(to, false).is_err() {
            return Ok(());
        }
        let first: Vec<PathBuf> = p.jobs.iter().map(|j| j.out.clone().unwrap()).collect();
        let outputs = Outputs { out_dir: Some(&out), ..Outputs::default() };
        let checked = p.check(&outputs, to);
        prop_assert!(checked.is_ok(), "{:?}", checked);
        let outs: Vec<PathBuf> = p.jobs.iter().map(|j| j.out.clone().unwrap()).collect();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut folders: HashMap<String, usize> = HashMap::new();
        for (i, o) in outs.iter().enumerate() {
            let rel = o.strip_prefix(&out);
            prop_assert!(rel.is_ok(), "{} is outside {}", o.display(), out.display());
            prop_assert!(
                rel.unwrap().components().all(|c| matches!(c, Component::Normal(_))),
                "{} leaves the folder", o.display()
            );
            prop_assert!(!o.exists(), "{} is an input", o.display());
            if let Some(j) = seen.insert(folded(o), i) {
                prop_assert!(false, "{} and {} meet at {}", p.jobs[j].name(), p.jobs[i].name(), o.display());
            }
            for above in o.ancestors().skip(1).take_while(|a| a.starts_with(&out) && *a != out) {
                folders.insert(folded(above), i);
            }
        }
        for (i, o) in outs.iter().enumerate() {
            prop_assert!(
                !folders.contains_key(&folded(o)),
                "the output {} of {} is a folder of others", o.display(), p.jobs[i].name()
            );
        }
        // The first names: where one meets no other, it is kept.
        let mut count: HashMap<String, usize> = HashMap::new();
        let mut first_folders: HashMap<String, ()> = HashMap::new();
        for o in &first {
            *count.entry(folded(o)).or_default() += 1;
            for above in o.ancestors().skip(1) {
                first_folders.insert(folded(above), ());
            }
        }
        // (An archive's member goes where its archive's folder goes, which
        // may meet another folder: only files are checked here.)
        for (i, o) in first.iter().enumerate() {
            let alone = count[&folded(o)] == 1 && !first_folders.contains_key(&folded(o));
            if alone && p.jobs[i].member.is_none() {
                prop_assert_eq!(&outs[i], o, "{} met nothing", p.jobs[i].name());
            }
        }
    }
}

/// A copy of the repository's `corpus/` in a fresh folder, as a fresh
/// clone has it.
fn fresh_corpus() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&root().join("corpus"), &t.path().join("corpus"));
    t
}

/// Runs `kifu` with `args` in `dir`.
fn kifu_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let run = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    no_panic(&run);
    run
}

/// The files under `dir`, relative to it, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
                found.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// The batch recipe on kifu's own corpus, for every format that writes a
/// file per input: no two inputs meet, and none fails for its name. json,
/// jsonl and xml convert every file (exit 0); a family's notation converts
/// that family's files and sets the others aside with a warning (exit 1).
/// What fails is not the names: the games of another family in a JSON
/// file (whose family is known only once read), and tafl records that name
/// no rules, which otn cannot write and svg and html cannot draw.
#[test]
fn the_batch_recipe_converts_kifus_own_corpus_to_every_format() {
    let t = fresh_corpus();
    let dir = t.path();
    let targets = per_input_formats();
    assert!(
        targets.len() >= 14,
        "{:?}",
        targets.iter().map(|f| f.name).collect::<Vec<_>>()
    );
    for to in targets {
        let out = format!("out-{}", to.name);
        let run = kifu_in(
            dir,
            &[
                "convert",
                "-q",
                "--to",
                to.name,
                "corpus/",
                "--out-dir",
                &out,
            ],
        );
        let err = stderr(&run);
        assert!(
            !err.contains("would both be written"),
            "--to {}: {err}",
            to.name
        );
        let written = tree(&dir.join(&out));
        assert!(
            matches!(run.status.code(), Some(0 | 1)),
            "--to {}: {err}",
            to.name
        );
        let other = err.lines().find(|l| {
            l.contains("error")
                && !l.contains("cannot be written as")
                && !l.contains("names no rules")
        });
        assert!(other.is_none(), "--to {}: {err}", to.name);
        match to.family {
            // The interchange formats hold every game: the command.
            None if ["json", "jsonl", "xml"].contains(&to.name) => {
                assert_eq!(run.status.code(), Some(0), "--to {}: {err}", to.name);
                assert!(err.contains(", 0 failed"), "--to {}: {err}", to.name);
            }
            None => assert!(!written.is_empty(), "--to {}", to.name),
            Some(family) => {
                let prefix = format!("{}/", family.name());
                assert!(
                    written.iter().any(|w| w.starts_with(&prefix)),
                    "--to {}: {written:?}",
                    to.name
                );
            }
        }
    }
    // Where two inputs meet, both keep their extension; the others keep
    // their names.
    let jsonl = tree(&dir.join("out-jsonl"));
    for name in [
        "chess/petrosjan-sllavcco.pgn.jsonl",
        "chess/petrosjan-sllavcco.sllavcco.jsonl",
        "draughts/english.pdn.jsonl",
        "draughts/english.diag.pdn.jsonl",
        "tafl/berserk.otg.jsonl",
        "tafl/berserk.tafl.jsonl",
        "tafl/position.jsonl",
    ] {
        assert!(jsonl.iter().any(|n| n == name), "{name} not in {jsonl:?}");
    }
}

/// The examples of the batch run in the README, docs/cli.md and `kifu
/// convert --help`, on a fresh clone's corpus (`archive/` in `--help` is
/// the corpus here).
#[test]
fn the_documented_batch_examples_run_on_the_corpus() {
    let t = fresh_corpus();
    let dir = t.path();
    copy_tree(&dir.join("corpus"), &dir.join("archive"));
    let help = stdout(&kifu_in(dir, &["convert", "--help"]));
    let example = help
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("kifu convert") && l.contains("--out-dir"))
        .expect("an --out-dir example in kifu convert --help");
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let cli = fs::read_to_string(root().join("docs/cli.md")).unwrap();
    let mut commands = vec![(example.to_string(), 0)];
    for (page, text) in [("README.md", &readme), ("docs/cli.md", &cli)] {
        // Each `kifu convert` of a line, up to a code span's end or a
        // comment.
        let found: Vec<&str> = text
            .lines()
            .flat_map(|l| l.match_indices("kifu convert").map(move |(at, _)| &l[at..]))
            .map(|c| c.split(['`', '#']).next().unwrap().trim())
            .filter(|c| c.contains("corpus/ --out-dir"))
            .collect();
        assert!(
            !found.is_empty(),
            "{page} has no batch example over corpus/"
        );
        for command in found {
            let command = command.to_string();
            // A folder mixing families: the other family's inputs are set
            // aside with a warning (exit 1).
            let code = if command.contains("--to sllavcco") {
                1
            } else {
                0
            };
            commands.push((command, code));
        }
    }
    for (command, code) in commands {
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let run = kifu_in(dir, &args);
        assert_eq!(run.status.code(), Some(code), "{command}: {}", stderr(&run));
        assert!(!stderr(&run).contains("would both"), "{command}");
    }
}
