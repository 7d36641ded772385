//! Compressed inputs through the binary: gzip and zstd read as a stream,
//! recognised by their magic bytes, the format guessed under the
//! compression extension, damage reported after the games before it.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::{counts, kifu, no_panic, stderr, stdout};

const GAME: &str = "corpus/chess/petrosjan-sllavcco.pgn";

fn dir(test: &str) -> PathBuf {
    let d = common::scratch("compressed", test);
    // Emptied: the test lists what a run leaves there.
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn gz(text: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// Many games, each a little different so that they do not compress to
/// nothing.
fn games(n: usize) -> String {
    let one = std::fs::read_to_string(GAME).unwrap();
    (0..n)
        .map(|i| one.replace("[Round \"?\"]", &format!("[Round \"{i}\"]")) + "\n")
        .collect()
}

fn convert(args: &[&str]) -> (i32, String, String) {
    let out = kifu(args, b"");
    no_panic(&out);
    (out.status.code().unwrap_or(-1), stdout(&out), stderr(&out))
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn gzip_and_zstd_inputs_read_as_the_plain_text_does() {
    let d = dir("kinds");
    let text = games(50);
    let plain = d.join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    let (code, want, _) = convert(&["convert", "--to", "pgn", path(&plain)]);
    assert_eq!(code, 0);
    // Concatenated members and frames are read whole.
    let half = text.len() / 2;
    let cut = text[..half].rfind("\n[Event").unwrap() + 1;
    let mut two_gz = gz(&text.as_bytes()[..cut]);
    two_gz.extend(gz(&text.as_bytes()[cut..]));
    let mut two_zst = zstd::encode_all(&text.as_bytes()[..cut], 3).unwrap();
    two_zst.extend(zstd::encode_all(&text.as_bytes()[cut..], 3).unwrap());
    let bz = |t: &[u8]| {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(t).unwrap();
        e.finish().unwrap()
    };
    let mut two_bz = bz(&text.as_bytes()[..cut]);
    two_bz.extend(bz(&text.as_bytes()[cut..]));
    let xz = |t: &[u8]| {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(t).unwrap();
        e.finish().unwrap()
    };
    let mut two_xz = xz(&text.as_bytes()[..cut]);
    two_xz.extend(xz(&text.as_bytes()[cut..]));
    for (name, bytes) in [
        ("games.pgn.gz", &two_gz),
        ("games.pgn.zst", &two_zst),
        ("games.pgn.bz2", &two_bz),
        ("games.pgn.xz", &two_xz),
    ] {
        let file = d.join(name);
        std::fs::write(&file, bytes).unwrap();
        // The format is guessed under the compression extension.
        let (code, got, err) = convert(&["convert", "--to", "pgn", path(&file)]);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(got, want, "{name}");
    }
    // The magic bytes decide, not the name: gzip named .pgn, and on
    // standard input.
    let hidden = d.join("hidden.pgn");
    std::fs::write(&hidden, &two_gz).unwrap();
    let (code, got, _) = convert(&["convert", "--to", "pgn", path(&hidden)]);
    assert_eq!((code, got == want), (0, true));
    let out = kifu(&["convert", "--from", "pgn", "--to", "pgn"], &two_zst);
    assert_eq!(stdout(&out), want);
    // --out-dir names the output after the name under the compression,
    // and compresses it the same way.
    let out_dir = d.join("out");
    let (code, _, err) = convert(&[
        "convert",
        "--to",
        "jsonl",
        path(&d.join("games.pgn.gz")),
        "--out-dir",
        path(&out_dir),
    ]);
    assert_eq!(code, 0, "{err}");
    let written = out_dir.join("games.jsonl.gz");
    assert!(written.exists(), "{err}");
    assert_eq!(std::fs::read(&written).unwrap()[..2], [0x1f, 0x8b]);
    // Compressed outputs read back to the same games.
    for (name, magic) in [
        ("back.pgn.gz", &[0x1f, 0x8b][..]),
        ("back.pgn.zst", &[0x28, 0xb5, 0x2f, 0xfd][..]),
    ] {
        let back = d.join(name);
        let (code, _, err) =
            convert(&["convert", "--to", "pgn", path(&written), "-o", path(&back)]);
        assert_eq!(code, 0, "{err}");
        let head = std::fs::read(&back).unwrap();
        assert!(
            head.starts_with(magic),
            "{name} is not compressed as its name says"
        );
        let (code, got, _) = convert(&["convert", "--to", "pgn", path(&back)]);
        assert_eq!((code, got == want), (0, true), "{name}");
    }
    // diff reads them too.
    let (code, got, _) = convert(&["diff", path(&plain), path(&d.join("games.pgn.zst"))]);
    assert_eq!(code, 0, "{got}");
    assert!(got.contains("50 equal"), "{got}");
}

#[test]
fn a_truncated_file_keeps_the_games_before_the_damage_and_names_it() {
    let d = dir("truncated");
    let text = games(400);
    let whole = gz(text.as_bytes());
    let file = d.join("cut.pgn.gz");
    std::fs::write(&file, &whole[..whole.len() / 2]).unwrap();
    let target = d.join("cut.out.pgn");
    let out = kifu(
        &["convert", "--to", "pgn", path(&file), "-o", path(&target)],
        b"",
    );
    no_panic(&out);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cut.pgn.gz: error: damaged compressed data"),
        "{err}"
    );
    let (converted, _) = counts(&out);
    assert!(converted > 50 && converted < 400, "{converted}: {err}");
    // The games before the damage were written.
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.matches("[Event ").count() >= converted, "{err}");
}

#[test]
fn a_zip_is_refused_by_name() {
    let d = dir("refused");
    let file = d.join("games.pgn");
    std::fs::write(&file, b"PK\x03\x04\x14\x00\x00\x00").unwrap();
    let (code, _, err) = convert(&["convert", "--to", "pgn", path(&file)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("compressed with zip"), "{err}");
    assert!(err.contains("games.pgn"), "{err}");
}

#[test]
fn a_zip_is_read_member_by_member_and_named_in_messages() {
    let d = dir("zip");
    let file = d.join("games.zip");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&file).unwrap());
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        z.start_file("dir/a.pgn", opts).unwrap();
        z.write_all(std::fs::read_to_string(GAME).unwrap().as_bytes())
            .unwrap();
        z.start_file("dir/b.pgn", opts).unwrap();
        z.write_all(b"[Event \"b\"]\n\n1. e4 e5 2. Qxx *\n")
            .unwrap();
        z.start_file("readme.txt", opts).unwrap();
        z.write_all(b"not a game").unwrap();
        z.finish().unwrap();
    }
    let out_dir = d.join("out");
    let out = kifu(
        &[
            "convert",
            "--to",
            "jsonl",
            path(&file),
            "--out-dir",
            path(&out_dir),
        ],
        b"",
    );
    no_panic(&out);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Each member is an input of its own, named inside the archive.
    assert!(
        err.contains("games.zip:dir/b.pgn:3:13: error: game 1:"),
        "{err}"
    );
    assert_eq!(counts(&out), (1, 1), "{err}");
    assert!(out_dir.join("games/dir/a.jsonl").exists(), "{err}");
    assert!(!out_dir.join("games/readme.jsonl").exists());
}
