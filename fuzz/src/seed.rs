//! The seed corpora of the fuzz targets. Every game
//! record of every file under the DIRs (its format guessed from its name, as
//! the CLI guesses it), cut as the CLI cuts it, is one seed of its format;
//! each record converted by kifu to the other formats that read it (the
//! other notations of its family, json, jsonl) is a seed of those. Seeds go
//! to `OUT/FORMAT/` named by a hash of their content, at most MAX a format
//! (taken evenly over the records met). Nothing is copied into the
//! repository: `run.sh` makes them before fuzzing.
//!
//! The fuzz binaries are instrumented for libFuzzer, whose runtime owns
//! `main`: every target runs [`from_env`] first, and with `KIFU_FUZZ_SEED`
//! set it writes the seeds and exits instead of fuzzing.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::check::{game_records, readers};
use kifu::archive::Converter;
use kifu::format::{guess, FORMATS};
use kifu::codec::{ReadOptions, WriteOptions};

/// The seeds of one format in the order met, and the set of them.
type Seeds = (Vec<Vec<u8>>, BTreeSet<Vec<u8>>);

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        if dir.is_file() {
            out.push(dir.to_path_buf());
        }
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// With `KIFU_FUZZ_SEED="OUT MAX DIR..."` set, writes the seeds of the
/// files under the DIRs to `OUT/FORMAT/`, at most MAX a format, and exits.
pub fn from_env() {
    let Ok(spec) = std::env::var("KIFU_FUZZ_SEED") else {
        return;
    };
    let args: Vec<&str> = spec.split_whitespace().collect();
    let [out, max, dirs @ ..] = &args[..] else {
        eprintln!("KIFU_FUZZ_SEED: OUT MAX DIR...");
        std::process::exit(2);
    };
    let max: usize = max.parse().expect("MAX is a number");
    seed(Path::new(out), max, dirs);
    std::process::exit(0);
}

/// Writes the seeds of the files under `dirs` to `out/FORMAT/`, at most
/// `max` a format.
pub fn seed(out: &Path, max: usize, dirs: &[&str]) {
    let mut paths = Vec::new();
    for d in dirs {
        files(Path::new(d), &mut paths);
    }
    // Every seed of every format, deduplicated, in the order met.
    let mut seeds: BTreeMap<&str, Seeds> = BTreeMap::new();
    let mut add = |format: &'static str, bytes: Vec<u8>| {
        let (list, seen) = seeds.entry(format).or_default();
        if seen.insert(bytes.clone()) {
            list.push(bytes);
        }
    };
    for path in &paths {
        let Some(from) = guess(path) else { continue };
        if !readers().any(|r| r == from.name) {
            continue;
        }
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        for record in game_records(from, &data) {
            for to in FORMATS.iter().filter(|t| {
                readers().any(|r| r == t.name)
                    && t.name != from.name
                    && (t.family.is_none() || t.family == from.family)
            }) {
                let conv = Converter {
                    from,
                    to,
                    read: ReadOptions::default(),
                    write: WriteOptions::default(),
                };
                if let Ok((text, _)) = conv.convert(&record).text() {
                    add(to.name, text.into_bytes());
                }
            }
            add(from.name, record);
        }
    }
    for name in readers() {
        let dir = out.join(name);
        std::fs::create_dir_all(&dir).expect("OUT is writable");
        let Some((list, _)) = seeds.get(name) else {
            continue;
        };
        let step = list.len().div_ceil(max.max(1)).max(1);
        let mut n = 0;
        for s in list.iter().step_by(step) {
            let mut h = DefaultHasher::new();
            s.hash(&mut h);
            std::fs::write(dir.join(format!("{:016x}", h.finish())), s).expect("write a seed");
            n += 1;
        }
        eprintln!("{name}: {n} seeds of {} records", list.len());
    }
}
