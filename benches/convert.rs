//! Throughput of whole-archive conversions through the same pipeline the CLI
//! uses (record splitting, parallel conversion, ordered output).
//!
//! The input is built at run time by concatenating the 10x10 games of
//! `../shared/corpus/draughts/international` until it passes 20 MB (or, when
//! the shared corpus is absent, the project's own `corpus/draughts`). Run with
//! `cargo bench --bench convert`; `KIFU_BENCH_MB` changes the size.

use std::io;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use kifu::archive::{convert_stream, Converter, Report, Sink};
use kifu::notation::{by_name, ReadOptions, WriteOptions};

fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/corpus/draughts/international");
    let dir = if shared.is_dir() {
        shared
    } else {
        eprintln!("shared corpus absent: benchmarking corpus/draughts");
        root.join("corpus/draughts")
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".pdn") && !name.ends_with(".diag.pdn")
        })
        .collect();
    files.sort();
    files
}

/// A PDN archive of at least `mb` megabytes.
fn archive(mb: usize) -> Vec<u8> {
    let files = sources();
    let mut data = Vec::with_capacity(mb << 20);
    while data.len() < mb * 1_000_000 {
        for f in &files {
            data.extend_from_slice(&std::fs::read(f).expect("corpus file"));
            data.extend_from_slice(b"\n");
        }
    }
    data
}

fn run(data: &[u8], from: &str, to: &str) -> usize {
    let conv = Converter {
        from: by_name(from).expect("format"),
        to: by_name(to).expect("format"),
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let mut sink = Sink::new(io::sink(), conv.to.framing);
    let mut report = Report {
        diagnostic: &mut |_| {},
        reject: None,
        progress: &mut |_| {},
        strict: false,
    };
    let summary = convert_stream(data, "bench", &conv, &mut sink, &mut report).expect("runs");
    summary.converted
}

fn bench(c: &mut Criterion) {
    let mb = std::env::var("KIFU_BENCH_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let data = archive(mb);
    let games = run(&data, "draughts-num", "draughts-num");
    eprintln!("archive: {} bytes, {games} games", data.len());
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

criterion_group!(benches, bench);
criterion_main!(benches);
