//! The `xml` format: what kifu writes validates against schema/kifu.xsd
//! (xmllint), every character comes back, and every game of the corpora
//! comes back through XML (X -> xml -> X equals X -> X) for every family.
//! What kifu refuses to read (a DOCTYPE, entities, malformed XML) is in
//! `tests/it/xml.rs`.

use crate::common;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use common::{convert, counts, kifu, no_panic, stderr, stdout};
use kifu::archive::{read_record, Records, BATCH_BYTES};
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::format::{by_name, guess, Format};

/// Validates an XML document against schema/kifu.xsd with xmllint
/// (`--huge`: variations nested over about 120 deep pass its default depth
/// of 256 elements). Without
/// xmllint the test fails (CI installs it, `.ci/run`), unless
/// `KIFU_SKIP_XMLLINT=1` says to skip, with a message.
fn assert_valid(doc: &[u8], what: &str) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("games.xml");
    std::fs::write(&file, doc).expect("the document is written");
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/kifu.xsd");
    let out = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--huge")
        .arg("--schema")
        .arg(&schema)
        .arg(&file)
        .output();
    match out {
        Ok(out) => assert!(
            out.status.success(),
            "{what}: xmllint finds the document invalid:\n{}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .take(20)
                .collect::<Vec<_>>()
                .join("\n")
        ),
        Err(e) if std::env::var("KIFU_SKIP_XMLLINT").as_deref() == Ok("1") => {
            eprintln!("skipped: xmllint does not run ({e}); KIFU_SKIP_XMLLINT=1")
        }
        Err(e) => panic!(
            "xmllint does not run ({e}): install libxml2-utils, or set KIFU_SKIP_XMLLINT=1 to skip"
        ),
    }
}

/// A PGN game whose tags and comments hold what XML must escape: `<`, `&`,
/// both quotes, `]]>`, control characters (U+0000 too), CR LF, a lone CR,
/// a tab, U+FFFE, non-ASCII names, and a control character in a tag name.
const AWKWARD: &[u8] = b"[Event \"a<b & \\\"c\\\" 'd' ]]> \x01\x1f end\"]\n\
[Wh\x02ite \"\xc3\x86r\xc3\xb8sk\xc3\xb8bing \xe6\x9d\xb1\xe4\xba\xac\"]\n\
[Black \"&amp; &lt; &#38; <![CDATA[x]]>\"]\n\n\
{ before, with <tags> } 1. e4 {com\r\nment\r with\ttab <x> & ]]> \x00\x0b\xef\xbf\xbe \xf0\x9f\x98\x80} \
e5 ; line comment \x07 \"quoted\" 'single'\n\
%escape line &lt; \x08\n\
2. Nf3 (2. Nc3 {in a variation & <nested>} (2. f4)) *\n";

#[test]
fn every_character_round_trips_and_the_document_is_valid() {
    let canonical = convert("pgn", "pgn", &["-q"], AWKWARD);
    assert_eq!(counts(&convert("pgn", "pgn", &[], AWKWARD)), (1, 0));
    let xml = convert("pgn", "xml", &[], AWKWARD);
    assert_eq!(counts(&xml), (1, 0), "{}", stderr(&xml));
    let text = stdout(&xml);
    // Written as XML 1.0 can hold it: escaped, CR as a reference, control
    // characters as <char>.
    for wanted in [
        "<value>a&lt;b &amp; \"c\" 'd' ]]&gt; <char code=\"0001\"/><char code=\"001F\"/> end</value>",
        "<name>Wh<char code=\"0002\"/>ite</name>",
        "&#13;\nment&#13; with\ttab &lt;x&gt; &amp; ]]&gt; <char code=\"0000\"/><char code=\"000B\"/><char code=\"FFFE\"/> \u{1F600}",
        "\u{c6}r\u{f8}sk\u{f8}bing \u{6771}\u{4eac}",
        "<after kind=\"escape\">",
    ] {
        assert!(text.contains(wanted), "no `{wanted}` in\n{text}");
    }
    assert!(
        !text
            .bytes()
            .any(|b| b < 0x20 && !matches!(b, b'\t' | b'\n')),
        "a raw control character in\n{text}"
    );
    assert_valid(&xml.stdout, "the awkward game");
    let back = convert("xml", "pgn", &[], &xml.stdout);
    assert_eq!(counts(&back), (1, 0), "{}", stderr(&back));
    assert!(
        back.stdout == canonical.stdout,
        "pgn -> xml -> pgn differs from pgn -> pgn:\n{}\n---\n{}",
        String::from_utf8_lossy(&back.stdout),
        String::from_utf8_lossy(&canonical.stdout)
    );
    // And through json, which holds any character: the same game.
    let json = convert("pgn", "json", &["-q"], AWKWARD);
    let xml_json = convert("xml", "json", &["-q"], &xml.stdout);
    assert!(xml_json.stdout == json.stdout);
}

#[test]
fn variations_nested_500_deep_come_back_and_501_are_refused() {
    let deep = format!("1. e4 {}{} e5 *\n", "(1. d4 ".repeat(500), ")".repeat(500));
    let canonical = convert("pgn", "pgn", &[], deep.as_bytes());
    assert_eq!(counts(&canonical), (1, 0), "{}", stderr(&canonical));
    let xml = convert("pgn", "xml", &[], deep.as_bytes());
    assert_eq!(counts(&xml), (1, 0), "{}", stderr(&xml));
    assert_valid(&xml.stdout, "500 nested variations");
    let back = convert("xml", "pgn", &[], &xml.stdout);
    assert_eq!(counts(&back), (1, 0), "{}", stderr(&back));
    assert!(back.stdout == canonical.stdout);

    let mut doc = String::from("<games><game><variant family=\"chess\"/><moves>");
    let ply = "<ply number=\"1\" side=\"white\"><chess><move role=\"pawn\" from=\"e2\" to=\"e4\"/></chess>";
    for _ in 0..600 {
        doc.push_str(ply);
        doc.push_str("<variation>");
    }
    let out = convert("xml", "pgn", &[], doc.as_bytes());
    no_panic(&out);
    assert_eq!(counts(&out), (0, 1));
    assert!(
        stderr(&out).contains("variations nested more than 500 deep"),
        "{}",
        stderr(&out)
    );
}

/// Folders of the shared corpus whose files' names do not say their
/// format: the folder, the start of its games' names, and their format.
const NAMED: [(&str, &str, &str); 2] = [
    // FireDemon's tenjiku savegames have no ending.
    ("shogi/firedemon-tenjiku/savegames", "", "tenjiku"),
    // aagenielsen.dk games end in .json, as any JSON does.
    ("tafl/aagenielsen-json", "game-", "aagenielsen-json"),
];

/// Every file kifu reads in a folder: its format guessed from its name, as
/// the CLI guesses, or named by [`NAMED`].
fn corpus_files(dir: &Path) -> Vec<(PathBuf, &'static Format)> {
    let mut out: Vec<_> = common::files(dir, "")
        .into_iter()
        .filter_map(|p| {
            let named = NAMED
                .iter()
                .find(|(folder, _, _)| p.starts_with(dir.join(folder)));
            let f = match named {
                Some((_, start, name)) => {
                    let file = p.file_name()?.to_string_lossy();
                    if !file.starts_with(start) {
                        return None;
                    }
                    by_name(name).expect("a format")
                }
                None => guess(&p)?,
            };
            f.read.is_some().then_some((p, f))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// X -> xml -> X equals X -> X for every game of every file, in-process
/// (for a format kifu reads only, X -> json: the same game); the XML of
/// every game, framed as the CLI frames it, one document per family,
/// validates. Returns the number of games of each format.
fn round_trip_corpus(dir: &Path) -> std::collections::BTreeMap<&'static str, usize> {
    let xml = by_name("xml").expect("xml");
    let json = by_name("json").expect("json");
    let mut docs: std::collections::BTreeMap<String, String> = Default::default();
    let mut games: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for (path, from) in corpus_files(dir) {
        let f = if from.write.is_some() { from } else { json };
        let data = std::fs::read(&path).expect("readable");
        let mut records = Vec::new();
        let mut split = Records::new(&data[..], from.split);
        while let Some(batch) = split.next_batch(BATCH_BYTES).expect("read") {
            for r in batch
                .records
                .iter()
                .filter(|r| r.is_game && r.oversize.is_none())
            {
                records.push(batch.data[r.range.clone()].to_vec());
            }
        }
        let name = path.display().to_string();
        let opts = (ReadOptions::default(), WriteOptions::default());
        let write = |f: &Format, game: &kifu::ir::Game| {
            let mut out = String::new();
            (f.write.expect("a writer"))(game, &opts.1, &mut out)
                .ok()
                .map(|_| out)
        };
        let written: Vec<Option<(String, String)>> = records
            .par_iter()
            .enumerate()
            .map(|(i, rec)| {
                // X -> X and X -> xml from one reading of the record.
                let game = read_record(from, &opts.0, rec).ok()?.game;
                let a = write(f, &game)?;
                let x = write(xml, &game)
                    .unwrap_or_else(|| panic!("{name} game {}: X -> xml fails", i + 1));
                match read_record(xml, &opts.0, x.as_bytes()) {
                    Ok(back) => {
                        let b = write(f, &back.game).unwrap_or_default();
                        assert!(
                            b == a,
                            "{name} game {}: X -> xml -> X differs from X -> X\n--- X -> X:\n{a}\n--- X -> xml -> X:\n{b}\n--- xml:\n{x}",
                            i + 1
                        );
                    }
                    Err(p) => panic!(
                        "{name} game {}: the XML written does not read back: {}:{}: {}\n{x}",
                        i + 1,
                        p.line,
                        p.col,
                        p.message
                    ),
                }
                let family = from.family.map_or_else(|| "any".to_string(), |fam| fam.name().to_string());
                Some((family, x))
            })
            .collect();
        for (family, x) in written.into_iter().flatten() {
            *games.entry(from.name).or_default() += 1;
            let doc = docs.entry(family).or_default();
            doc.push_str(if doc.is_empty() {
                xml.framing.head
            } else {
                xml.framing.between
            });
            doc.push_str(&x);
        }
    }
    for (family, mut doc) in docs {
        doc.push_str(xml.framing.tail);
        assert_valid(doc.as_bytes(), &format!("{} ({family})", dir.display()));
    }
    games
}

#[test]
fn every_game_of_the_bundled_corpus_round_trips_through_xml_and_validates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let games: usize = round_trip_corpus(&dir).values().sum();
    assert!(games > 50, "only {games} games in corpus/");
}

#[test]
fn every_game_of_the_shared_corpus_round_trips_through_xml_and_validates() {
    let Some(dir) = common::shared_folder("corpus") else {
        return;
    };
    let games = round_trip_corpus(&dir);
    eprintln!("games of the shared corpus through xml: {games:?}");
    // Every family, and the files whose names do not say their format.
    for format in ["pgn", "draughts-num", "otn", "aagenielsen-json", "tenjiku"] {
        let n = games.get(format).copied().unwrap_or(0);
        assert!(
            n > 10,
            "only {n} {format} games of the shared corpus through xml"
        );
    }
    let all: usize = games.values().sum();
    assert!(all > 1000, "only {all} games in the shared corpus");
}

#[test]
fn xml_is_a_format_of_the_cli_with_its_extension() {
    let out = kifu(&["formats"], b"");
    assert!(stdout(&out).contains("xml"), "{}", stdout(&out));
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, "1. e4 e5 1-0\n\n1. d4 d5 0-1\n").expect("written");
    let out = kifu(
        &[
            "convert",
            "-q",
            "--to",
            "xml",
            "--out-dir",
            &dir.path().join("x").display().to_string(),
            &pgn.display().to_string(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let written = dir.path().join("x/g.xml");
    let doc = std::fs::read(&written).expect("g.xml is written");
    assert_valid(&doc, "g.xml");
    // Read back by its extension, two games.
    let out = kifu(
        &["convert", "--to", "pgn", &written.display().to_string()],
        b"",
    );
    assert_eq!(counts(&out), (2, 0), "{}", stderr(&out));
    // No game at all: still a valid document.
    let out = convert("pgn", "xml", &[], b"");
    assert_valid(&out.stdout, "an empty output");
}
