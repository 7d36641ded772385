//! Throughput of whole-archive conversions through the same pipeline the CLI
//! uses (record splitting, parallel conversion, ordered output).
//!
//! The inputs are built at run time by concatenating corpus files until they
//! pass 20 MB:
//! - draughts: the 10x10 games of `../shared/corpus/draughts/international`
//!   (or, when the shared corpus is absent, the project's own
//!   `corpus/draughts`);
//! - chess: the files of the "Throughput file" line of
//!   `../shared/corpus/chess/SOURCES.txt` that are present and convert
//!   without a failed game (or, without them, the project's `corpus/chess`).
//!   Chess is measured on one worker thread (`-j 1`) and on all cores, and
//!   once with every record read by the pest grammar (`--grammar-only`), to
//!   show what the fast lexer saves.
//!
//! - tafl: every game of `../shared/corpus/tafl` (the aagenielsen move
//!   lists and the OpenTafl records) whose rules kifu knows, converted to
//!   tafl (or, without the shared corpus, `corpus/tafl`), measured
//!   tafl -> otn: every move replayed by the rules, captures checked, the
//!   king's moves found.
//!
//! - every notation of the registry (`kifu::format::FORMATS`: each format
//!   that reads and writes a family's games), on the project's own
//!   `corpus/` files of that format repeated to `KIFU_BENCH_FORMAT_MB`
//!   (2 MB by default), converted to itself on one worker thread: a family
//!   or notation added to the registry is measured without a line here.
//!
//! The chess archive is also read compressed (`chess compressed`: .zst and
//! .gz, compressed in memory), beside the decompressor alone, the floor of
//! a compressed input.
//!
//! Run with `cargo bench --manifest-path benches/Cargo.toml` (a crate of its
//! own, so that `cargo test` never builds criterion); `KIFU_BENCH_MB` changes the size,
//! and `KIFU_BENCH_ARCHIVE=FILE` also writes the chess archive to FILE, to
//! time the CLI or another tool on the same bytes.

use std::io;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use kifu::archive::{convert_stream, Converter, Report, Sink, Summary};
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::format::by_name;

/// The chess files of the throughput archive, as SOURCES.txt lists them.
const CHESS_THROUGHPUT: &[&str] = &[
    "players/Korchnoi.pgn",
    "twic/twic0920.pgn",
    "shakmaty-bench/twic1599_1000k.pgn",
    "shakmaty-bench/lichess_db_1000k.pgn",
    "pychess-tests/world_matches.pgn",
    "scoutfish/famous_games.pgn",
    "pychess-tests/dortmund.pgn",
    "tcec/TCEC_Season_13_-_Superfinal.pgn",
];

/// The repository (this crate is `benches/` in it).
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The files of a folder whose names pass `keep`, sorted.
fn files_in(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| keep(&p.to_string_lossy()));
    files.sort();
    files
}

fn draughts_sources() -> Vec<PathBuf> {
    let shared = root().join("../shared/corpus/draughts/international");
    let dir = if shared.is_dir() {
        shared
    } else {
        eprintln!("shared corpus absent: benchmarking corpus/draughts");
        root().join("corpus/draughts")
    };
    files_in(&dir, |name| {
        name.ends_with(".pdn") && !name.ends_with(".diag.pdn")
    })
}

/// The chess files to concatenate: those of [`CHESS_THROUGHPUT`] that are
/// present and in which no game fails (a clean measure), else the project's
/// own `corpus/chess`.
fn chess_sources() -> Vec<PathBuf> {
    let shared = root().join("../shared/corpus/chess");
    let mut files = Vec::new();
    for name in CHESS_THROUGHPUT {
        let path = shared.join(name);
        let Ok(data) = std::fs::read(&path) else {
            eprintln!("chess: {name} absent");
            continue;
        };
        let summary = convert(&data, "pgn", "pgn");
        if summary.failed > 0 {
            eprintln!("chess: {name} left out ({} failed games)", summary.failed);
            continue;
        }
        files.push(path);
    }
    if files.is_empty() {
        eprintln!("shared chess corpus absent: benchmarking corpus/chess");
        files = files_in(&root().join("corpus/chess"), |n| n.ends_with(".pgn"));
    }
    files
}

/// An archive of at least `mb` megabytes: the files, each followed by a
/// blank line, over and over.
fn archive(files: &[PathBuf], mb: usize) -> Vec<u8> {
    let mut data = Vec::with_capacity(mb << 20);
    if files.is_empty() {
        return data;
    }
    while data.len() < mb * 1_000_000 {
        for f in files {
            data.extend_from_slice(&std::fs::read(f).expect("corpus file"));
            data.extend_from_slice(b"\n");
        }
    }
    data
}

/// Converts a whole archive to nowhere.
fn convert(data: &[u8], from: &str, to: &str) -> Summary {
    convert_with(data, from, to, ReadOptions::default())
}

/// Converts a whole archive to nowhere, with reading options.
fn convert_with(data: &[u8], from: &str, to: &str, read: ReadOptions) -> Summary {
    convert_reader(data, from, to, read)
}

/// Converts a whole input stream to nowhere, with reading options.
fn convert_reader<R: io::Read + Send>(
    input: R,
    from: &str,
    to: &str,
    read: ReadOptions,
) -> Summary {
    let conv = Converter {
        from: by_name(from).expect("format"),
        to: by_name(to).expect("format"),
        read,
        write: WriteOptions::default(),
    };
    let mut sink = Sink::new(io::sink(), conv.to.framing);
    let mut report = Report {
        diagnostic: &mut |_| {},
        reject: None,
        progress: &mut |_| Ok(()),
        strict: false,
        verbose: false,
    };
    convert_stream(input, "bench", &conv, &mut sink, &mut report).expect("runs")
}

fn run(data: &[u8], from: &str, to: &str) -> usize {
    convert(data, from, to).converted
}

fn megabytes() -> usize {
    std::env::var("KIFU_BENCH_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

fn draughts(c: &mut Criterion) {
    let data = archive(&draughts_sources(), megabytes());
    let games = run(&data, "draughts-num", "draughts-num");
    eprintln!("draughts archive: {} bytes, {games} games", data.len());
    let mut group = c.benchmark_group("draughts");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    for (from, to) in [
        ("draughts-num", "draughts-diag"),
        ("draughts-num", "draughts-num"),
        ("draughts-num", "jsonl"),
    ] {
        group.bench_function(format!("{from} -> {to}"), |b| {
            b.iter(|| run(&data, from, to))
        });
    }
    group.finish();
}

fn chess(c: &mut Criterion) {
    let sources = chess_sources();
    let data = archive(&sources, megabytes());
    if data.is_empty() {
        eprintln!("no chess corpus: chess benchmarks skipped");
        return;
    }
    if let Some(path) = std::env::var_os("KIFU_BENCH_ARCHIVE") {
        std::fs::write(&path, &data).expect("archive written");
        eprintln!("chess archive written to {}", Path::new(&path).display());
    }
    let games = run(&data, "pgn", "pgn");
    eprintln!(
        "chess archive: {} bytes, {games} games, from {}",
        data.len(),
        sources
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // Formats being added come in when the registry has them.
    let targets: Vec<&str> = ["pgn", "sllavcco"]
        .into_iter()
        .filter(|name| by_name(name).is_some_and(|f| f.write.is_some()))
        .collect();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("chess");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    for to in targets {
        group.bench_function(format!("pgn -> {to} (1 thread)"), |b| {
            b.iter(|| one.install(|| run(&data, "pgn", to)))
        });
        group.bench_function(format!("pgn -> {to} (all cores)"), |b| {
            b.iter(|| run(&data, "pgn", to))
        });
    }
    // What the fast lexer saves: every record read by the pest grammar.
    let grammar = ReadOptions {
        grammar_only: true,
        ..ReadOptions::default()
    };
    group.bench_function("pgn -> pgn (grammar only, 1 thread)", |b| {
        b.iter(|| one.install(|| convert_with(&data, "pgn", "pgn", grammar.clone()).converted))
    });
    group.finish();
    compressed(c, &data);
}

/// The chess archive read compressed (.zst, .gz) on all cores, beside the
/// decompressor alone: decompression is serial per stream, on the reading
/// side of the pipeline, so the decompressor's time is the floor. The
/// throughput is of the uncompressed text.
fn compressed(c: &mut Criterion, data: &[u8]) {
    use std::io::Write;
    let zst = zstd::encode_all(data, 3).expect("zstd");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(data).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let mut group = c.benchmark_group("chess compressed");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    let stream = |bytes: &[u8]| {
        let (reader, _) =
            kifu::input::decompressed(io::Cursor::new(bytes.to_vec())).expect("a stream");
        reader
    };
    group.bench_function("pgn -> pgn (plain, all cores)", |b| {
        b.iter(|| run(data, "pgn", "pgn"))
    });
    for (name, bytes) in [("zst", &zst), ("gz", &gz)] {
        group.bench_function(format!("pgn.{name} -> pgn (all cores)"), |b| {
            b.iter(|| convert_reader(stream(bytes), "pgn", "pgn", ReadOptions::default()).converted)
        });
        group.bench_function(format!("{name} decompression alone"), |b| {
            b.iter(|| io::copy(&mut stream(bytes), &mut io::sink()).expect("decompressed"))
        });
    }
    group.finish();
}

/// Converts a whole input, keeping the output.
fn converted(data: &[u8], from: &str, to: &str) -> Vec<u8> {
    let conv = Converter {
        from: by_name(from).expect("format"),
        to: by_name(to).expect("format"),
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let mut sink = Sink::new(Vec::new(), conv.to.framing);
    let mut report = Report {
        diagnostic: &mut |_| {},
        reject: None,
        progress: &mut |_| Ok(()),
        strict: false,
        verbose: false,
    };
    convert_stream(data, "bench", &conv, &mut sink, &mut report).expect("runs");
    sink.finish().expect("written")
}

/// The tafl games of the corpus, as tafl text: the aagenielsen move lists
/// and the OpenTafl records converted, or the project's `corpus/tafl`.
fn tafl_games() -> Vec<u8> {
    let shared = root().join("../shared/corpus/tafl");
    let mut text = Vec::new();
    for (dir, from) in [
        ("aagenielsen-json", "aagenielsen-json"),
        ("opentafl", "otn"),
    ] {
        for f in files_in(&shared.join(dir), |n| {
            n.contains("game-") || n.ends_with(".otg")
        }) {
            // Only the games whose rules kifu knows: the others are not
            // replayed, and otn cannot hold them.
            let data = std::fs::read(&f).expect("corpus file");
            let tafl = converted(&data, from, "tafl");
            if tafl.windows(7).any(|w| w == b"[Rules ") {
                text.extend_from_slice(&tafl);
                text.extend_from_slice(b"\n");
            }
        }
    }
    if text.is_empty() {
        eprintln!("shared tafl corpus absent: benchmarking corpus/tafl");
        for f in files_in(&root().join("corpus/tafl"), |n| n.ends_with(".tafl")) {
            text.extend_from_slice(&std::fs::read(&f).expect("corpus file"));
            text.extend_from_slice(b"\n");
        }
    }
    text
}

fn tafl(c: &mut Criterion) {
    let games = tafl_games();
    let mut data = Vec::with_capacity(megabytes() << 20);
    while !games.is_empty() && data.len() < megabytes() * 1_000_000 {
        data.extend_from_slice(&games);
    }
    let n = run(&data, "tafl", "otn");
    eprintln!("tafl archive: {} bytes, {n} games", data.len());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("tafl");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("tafl -> otn (1 thread)", |b| {
        b.iter(|| one.install(|| run(&data, "tafl", "otn")))
    });
    group.bench_function("tafl -> otn (all cores)", |b| {
        b.iter(|| run(&data, "tafl", "otn"))
    });
    group.finish();
}

/// The project's own corpus files (`corpus/`, every folder) that `format`
/// reads by their names, sorted.
fn corpus_files_of(format: &'static kifu::format::Format) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root().join("corpus")];
    while let Some(dir) = dirs.pop() {
        for entry in files_in(&dir, |_| true) {
            if entry.is_dir() {
                dirs.push(entry);
            } else if kifu::format::guess(&entry).is_some_and(|f| std::ptr::eq(f, format)) {
                files.push(entry);
            }
        }
    }
    files.sort();
    files
}

/// Every notation of the registry, X -> X on one worker thread, on the
/// project's corpus files of X (made from the format list: a new family's
/// notations come in with their registry entries and corpus samples).
fn formats(c: &mut Criterion) {
    let mb = std::env::var("KIFU_BENCH_FORMAT_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut group = c.benchmark_group("formats");
    group.sample_size(10);
    for format in kifu::format::FORMATS {
        if format.family.is_none() || format.read.is_none() || format.write.is_none() {
            continue;
        }
        let data = archive(&corpus_files_of(format), mb);
        if data.is_empty() {
            eprintln!("{}: no corpus file", format.name);
            continue;
        }
        group.throughput(Throughput::Bytes(data.len() as u64));
        let name = format.name;
        group.bench_function(format!("{name} -> {name} (1 thread)"), |b| {
            b.iter(|| one.install(|| run(&data, name, name)))
        });
    }
    group.finish();
}

criterion_group!(benches, draughts, chess, tafl, formats);
criterion_main!(benches);
