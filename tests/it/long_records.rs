//! A long record is read in time that grows with its length, not with its
//! square: no reader places each move, token, comment or warning by
//! counting from the record's start (`kifu::codec::line_col`, O(offset)),
//! but asks the record's `kifu::codec::Lines`. The work of placing is
//! counted, not timed (`kifu::codec::bytes_scanned_for_places`, the bytes
//! this thread read to find lines and columns): for every format of the
//! registry that kifu reads (`kifu::format::FORMATS`, no list of names), a
//! long game of each family it holds, written in it by kifu, alone and
//! with a mark put in every few words (a stray `}`, a NAG, a move number,
//! text in parentheses...: what a reader mends and warns of, once a mark),
//! is read every way the CLI reads it (`deadlines::read_every_way`: whole
//! and a run at a time, to json and to the family's notation); reading it
//! twice as long may not take more than 2.5 times the work.
//! `KIFU_LONG_SHOW=1` prints each case's work and lengths.

use kifu::codec::{bytes_scanned_for_places, ReadOptions, WriteOptions};
use kifu::family::Family;
use kifu::format::{by_name, Format, FORMATS};

use crate::deadlines::read_every_way;

/// The plies of the shorter of the two games compared.
const PLIES: usize = 500;

/// The most the work may grow when the record's length doubles.
const GROWTH: f64 = 2.5;

/// A game of `family` of `plies` plies (about), in the family's own
/// notation: pieces that go back and forth, with a comment after each
/// move and a variation every few. None for a family added since that has
/// no long game here yet (`adding_a_family`'s toy): its formats are not
/// checked until one is written.
fn long_game(family: Family, plies: usize) -> Option<String> {
    let mut text = String::new();
    let moves = plies / 2;
    match family {
        Family::Chess => {
            text.push_str("[Event \"long\"]\n[Result \"*\"]\n\n");
            let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
            for i in 0..moves {
                let (w, b) = (cycle[(2 * i) % 4], cycle[(2 * i + 1) % 4]);
                text.push_str(&format!("{}. {w} {{c{i}}} {b} ", i + 1));
                if i % 3 == 0 {
                    text.push_str(&format!("({}... Nc6 {{v}}) ", i + 1));
                }
                if i % 6 == 5 {
                    text.push('\n');
                }
            }
        }
        Family::Draughts => {
            text.push_str("[Event \"long\"]\n[GameType \"20\"]\n[FEN \"W:WK46:BK5\"]\n\n");
            for i in 0..moves {
                let (w, b) = if i % 2 == 0 {
                    ("46-41", "5-10")
                } else {
                    ("41-46", "10-5")
                };
                text.push_str(&format!("{}. {w} {{c{i}}} {b} ", i + 1));
                if i % 6 == 0 {
                    text.push_str(&format!("({}... 5-14 {{v}}) ", i + 1));
                }
                if i % 6 == 5 {
                    text.push('\n');
                }
            }
        }
        Family::Tafl => {
            text.push_str("[Event \"long\"]\n[Rules \"brandubh\"]\n\n");
            for i in 0..moves {
                let (w, b) = if i % 2 == 0 {
                    ("d2-e2", "c4-c5")
                } else {
                    ("e2-d2", "c5-c4")
                };
                text.push_str(&format!("{}. {w} {{c{i}}} {b} ", i + 1));
                if i % 6 == 5 {
                    text.push('\n');
                }
            }
        }
        Family::Coerceo => {
            text.push_str("[Event \"long\"]\n\n");
            for i in 0..moves {
                let (w, b) = if i % 2 == 0 {
                    ("3c-3e", "4b-3d")
                } else {
                    ("3e-3c", "3d-4b")
                };
                text.push_str(&format!("{}# {w} {{c{i}}} {}# {b} ", 2 * i + 1, 2 * i + 2));
                if i % 6 == 5 {
                    text.push('\n');
                }
            }
        }
        Family::Tenjiku => {
            text.push_str(
                "[Event \"long\"]\n[SetUp \"1\"]\n[FEN \"8,k,7/16/11,+P,4/6,p,2,g,6/6,Ln,9/8,N,6,s/\
                 16/8,P,1,FiD,5/16/16/10,FiD,5/16/16/16/16/7,K,8 b\"]\n\n",
            );
            for i in 0..moves {
                let (b, w) = if i % 2 == 0 {
                    ("K-8o", "K-8b")
                } else {
                    ("K-9p", "K-8a")
                };
                text.push_str(&format!("{}. {b} {{c{i}}} {w} ", i + 1));
                if i % 6 == 5 {
                    text.push('\n');
                }
            }
        }
        #[allow(unreachable_patterns)]
        _ => return None,
    }
    text.push_str("*\n");
    Some(text)
}

/// A long game of `family` as the read-only format `f` holds it, for a
/// format kifu reads but does not write (so cannot write a long game in).
fn long_unwritten(f: &Format, family: Family, plies: usize) -> Option<String> {
    match (f.name, family) {
        ("aagenielsen-json", Family::Tafl) => {
            let moves: Vec<String> = (0..plies)
                .map(|i| ["\"d2-e2\"", "\"c4-c5\"", "\"e2-d2\"", "\"c5-c4\""][i % 4].to_string())
                .collect();
            Some(format!(
                "{{\"AageGameTypeKey\": 35, \"AageGameTypeName\": \"Historical Hnefatafl 7x7 \
                 (Irish Brandubh 1) \", \"WhoMovedFirst\": \"black\", \"Moves\": [{}], \
                 \"WhoWon\": null}}\n",
                moves.join(",\n")
            ))
        }
        (_, _) if f.family.is_some_and(|g| g != family) => None,
        (name, _) => panic!("{name}: a format kifu reads and does not write: make its long game"),
    }
}

/// A long game of `family` in format `f`: the family's own notation's,
/// converted by kifu.
fn long_record(f: &'static Format, family: Family, plies: usize) -> Option<Vec<u8>> {
    if f.family.is_some_and(|g| g != family) {
        return None;
    }
    if f.write.is_none() {
        return long_unwritten(f, family, plies).map(String::into_bytes);
    }
    let own = by_name(family.canonical_notation()).expect("the family's notation");
    let text = long_game(family, plies)?;
    if std::ptr::eq(own, f) {
        return Some(text.into_bytes());
    }
    let converter = kifu::archive::Converter {
        from: own,
        to: f,
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let (written, _) = converter
        .convert(text.as_bytes())
        .text()
        .unwrap_or_else(|p| panic!("{}: the long game does not convert: {p:?}", f.name));
    Some(written.into_bytes())
}

/// What is put in every few words: what readers mend, each with a
/// warning, or keep as text.
const MARKS: &[&str] = &[
    "}",
    "(a remark)",
    "$1",
    "!",
    "99.",
    "1...",
    ")",
    "*",
    "\r\n",
    "é",
    "{}",
    ";c\n",
];

/// `record` with `mark` put before every fifth space past its first blank
/// line (past the head of a container notation), or every fifth space.
fn marked(record: &[u8], mark: &str) -> Vec<u8> {
    let from = record
        .windows(2)
        .position(|w| w == b"\n\n")
        .map_or(0, |i| i + 2);
    let mut out = record[..from].to_vec();
    let mut spaces = 0;
    for &b in &record[from..] {
        if b == b' ' {
            spaces += 1;
            if spaces % 5 == 0 {
                out.push(b' ');
                out.extend_from_slice(mark.as_bytes());
            }
        }
        out.push(b);
    }
    out
}

/// The bytes read to place problems while `data` is read every way, and
/// how many of its games converted.
fn placing_work(f: &'static Format, data: &[u8]) -> (u64, usize) {
    let before = bytes_scanned_for_places();
    let games = read_every_way(f, data);
    (bytes_scanned_for_places() - before, games)
}

/// The cases of one format: (what, the record, the record twice as long).
fn cases(f: &'static Format) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for family in Family::ALL.iter().copied() {
        let (Some(short), Some(long)) = (
            long_record(f, family, PLIES),
            long_record(f, family, 2 * PLIES),
        ) else {
            continue;
        };
        for mark in std::iter::once("").chain(MARKS.iter().copied()) {
            let (a, b) = if mark.is_empty() {
                (short.clone(), long.clone())
            } else {
                (marked(&short, mark), marked(&long, mark))
            };
            out.push((format!("{family:?}, {mark:?} every few words"), a, b));
        }
    }
    out
}

#[test]
fn doubling_a_record_at_most_doubles_the_work_of_placing_its_problems() {
    let readers: Vec<&'static Format> = FORMATS.iter().filter(|f| f.read.is_some()).collect();
    let checked = std::sync::atomic::AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = readers
            .iter()
            .map(|&f| {
                let checked = &checked;
                s.spawn(move || {
                    let mut failed = Vec::new();
                    let mut read = 0;
                    let cases = cases(f);
                    let made = !cases.is_empty();
                    for (what, short, long) in cases {
                        let (w1, g1) = placing_work(f, &short);
                        let (w2, g2) = placing_work(f, &long);
                        if g1 == 0 || g2 == 0 {
                            continue;
                        }
                        read += 1;
                        if std::env::var_os("KIFU_LONG_SHOW").is_some() {
                            eprintln!(
                                "{} ({what}): {w1} / {} bytes, {w2} / {} bytes",
                                f.name,
                                short.len(),
                                long.len()
                            );
                        }
                        // (A record read without a problem placed does no work.)
                        let growth = w2 as f64 / (w1.max(1)) as f64;
                        if w2 > long.len() as u64 && growth > GROWTH {
                            failed.push(format!(
                                "{} ({what}): {} bytes read to place problems in {} bytes, \
                                 {} in {} bytes ({growth:.1}x)",
                                f.name,
                                w1,
                                short.len(),
                                w2,
                                long.len()
                            ));
                        }
                    }
                    assert!(
                        read > 0 || !made,
                        "{}: no long record of it converted",
                        f.name
                    );
                    checked.fetch_add(usize::from(read > 0), std::sync::atomic::Ordering::Relaxed);
                    failed
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a format's worker"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every format of the five families' own notations and the
    // interchange ones at least.
    let checked = checked.into_inner();
    assert!(
        checked >= 10,
        "only {checked} formats had a long record read"
    );
}

/// A record whose header is `fields` fields long, each of which the reader
/// mends and warns of, in format `name`: tag lines that lost their `[` in
/// pgn and draughts-num, `DATE` fields not written DD.MM.YYYY in the
/// scoresheet.
fn long_warned_header(name: &str, fields: usize) -> Vec<u8> {
    let mut text = String::new();
    match name {
        "sllavcco" => {
            text.push_str("WHITE\tA\nBLACK\tB\n");
            for i in 0..fields {
                text.push_str(&format!("DATE\tday {i}\n"));
            }
            text.push_str("SCORE\t*\n\nNUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th\n");
            text.push_str("01\t\t\t\t\t4\t\t\t\n\t\t\t\t\t5\t\t\t\n");
        }
        _ => {
            text.push_str("[Event \"x\"]\n");
            if name == "draughts-num" {
                text.push_str("[GameType \"20\"]\n");
            }
            for i in 0..fields {
                text.push_str(&format!("Annotator \"a{i}\"]\n"));
            }
            text.push_str("[Result \"*\"]\n\n");
            text.push_str(if name == "pgn" {
                "1. e4 e5 *\n"
            } else {
                "1. 32-28 19-23 *\n"
            });
        }
    }
    text.into_bytes()
}

/// The header is a record's too: a warning per field placed from the
/// record's start would make a long header quadratic (the scoresheet's
/// header did so until it asked the record's `Lines`).
#[test]
fn a_long_header_of_mended_fields_is_placed_in_linear_work() {
    for name in ["pgn", "draughts-num", "sllavcco"] {
        let f = by_name(name).expect("a registered format");
        let short = long_warned_header(name, 2_000);
        let long = long_warned_header(name, 4_000);
        let (w1, g1) = placing_work(f, &short);
        let (w2, g2) = placing_work(f, &long);
        assert!(g1 > 0 && g2 > 0, "{name}: the long header's game converts");
        assert!(w1 > 0, "{name}: the mended fields are placed");
        let growth = w2 as f64 / w1 as f64;
        assert!(
            growth <= GROWTH,
            "{name}: {w1} bytes read to place problems in {} bytes, {w2} in {} ({growth:.1}x)",
            short.len(),
            long.len()
        );
    }
}
