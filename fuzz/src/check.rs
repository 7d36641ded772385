//! The properties every fuzz target checks, through kifu's public API and the
//! path the CLI takes: `kifu::archive::Records` cuts the input into records,
//! `kifu::archive::Converter` reads and writes each one. A failed property is
//! a panic with a message, which libFuzzer reports as a crash.
//!
//! This file uses nothing but `kifu` and `std`: the fast test suite includes
//! it (`#[path]`, `tests/it/main.rs`), and `tests/it/fuzz_regressions.rs`
//! replays the saved findings through the same checks.

use kifu::archive::{Converted, Converter, Records, BATCH_BYTES};
use kifu::codec::{Framing, ReadOptions, WriteOptions};
use kifu::format::{by_name, Format, FORMATS};

/// The formats kifu reads, in the registry's order ([`FORMATS`]): each
/// has a reading and a round-trip fuzz target named after it
/// (`tests/fuzz_regressions.rs` requires them).
pub fn readers() -> impl Iterator<Item = &'static str> {
    FORMATS.iter().filter(|f| f.read.is_some()).map(|f| f.name)
}

/// The interchange formats every game round-trips through.
pub const INTERCHANGE: &[&str] = &["json", "xml"];

/// A readable format by name.
pub fn format(name: &str) -> &'static Format {
    let f = by_name(name).unwrap_or_else(|| panic!("no format {name}"));
    assert!(f.read.is_some(), "{name} is not readable");
    f
}

/// The formats whose games are also round-tripped as read by syntax alone
/// (`--no-validate`): draughts and Coerceo moves made up by the fuzzers are
/// seldom legal, and their games would otherwise never reach the writers.
pub const UNREPLAYED_TOO: &[&str] = &["draughts-num", "draughts-diag", "coerceo"];

fn converter(from: &'static Format, to: &'static Format) -> Converter<'static> {
    converter_with(from, to, ReadOptions::default())
}

fn converter_with(
    from: &'static Format,
    to: &'static Format,
    read: ReadOptions,
) -> Converter<'static> {
    Converter {
        from,
        to,
        read,
        write: WriteOptions::default(),
    }
}

/// One record: its bytes, its position and whether it holds a game.
type Cut = Vec<(Vec<u8>, usize, usize, bool)>;

/// The records of an input, cut with batches of about `batch` bytes.
pub fn split(format: &Format, data: &[u8], batch: usize) -> Cut {
    let mut records = Records::new(data, format.split);
    let mut out = Vec::new();
    while let Some(b) = records.next_batch(batch).expect("reading a slice") {
        for r in b.records {
            out.push((b.data[r.range].to_vec(), r.line, r.col, r.is_game));
        }
    }
    out
}

/// The records of an input as [`split`] cuts them, but those of blanks
/// alone between games: a run of blanks is passed a piece at a time where
/// it is long (`Records` passes one over the size limit so; json's scanner
/// ends one 64 KiB past the last bracket or comma), which changes no game
/// and no text between games.
pub fn split_solid(format: &Format, data: &[u8], batch: usize) -> Cut {
    let mut records = split(format, data, batch);
    records.retain(|r| r.3 || !r.0.trim_ascii().is_empty());
    records
}

/// The game records of an input, cut as the CLI cuts them. The cut does not
/// depend on the batch size (the CLI reads 1 MiB at a time, whatever the
/// record sizes; `tests/it/batches.rs` checks more sizes, on longer
/// inputs).
pub fn game_records(format: &Format, data: &[u8]) -> Vec<Vec<u8>> {
    let records = split_solid(format, data, BATCH_BYTES);
    let small = 1 + data.first().map_or(0, |&b| usize::from(b) % 64);
    let other = split_solid(format, data, small);
    assert!(
        records == other,
        "{}: the records depend on the batch size ({} records with 1 MiB batches, {} with {small}-byte batches)",
        format.name,
        records.len(),
        other.len()
    );
    records.into_iter().filter(|r| r.3).map(|r| r.0).collect()
}

/// Reads every record of an input as the CLI does (`--from F --to F`):
/// whatever the bytes, nothing panics. Returns what each game record gave.
pub fn reads(name: &str, data: &[u8]) -> Vec<Converted> {
    let f = format(name);
    let same = converter(f, f);
    game_records(f, data)
        .iter()
        .map(|r| same.convert(r))
        .collect()
}

/// At most this many characters of a text in a failure message.
const SHOW: usize = 1500;

fn show(text: &[u8]) -> String {
    let s = String::from_utf8_lossy(text);
    match s.char_indices().nth(SHOW) {
        Some((i, _)) => format!("{}... ({} bytes in all)", &s[..i], text.len()),
        None => s.into_owned(),
    }
}

/// What an output of this format holding these game texts looks like, as the
/// CLI frames it.
fn framed(framing: Framing, games: &[&str]) -> String {
    let mut out = String::from(framing.head);
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push_str(framing.between);
        }
        out.push_str(g);
    }
    out.push_str(framing.tail);
    out
}

/// Reads every record like [`reads`], and for every game record that
/// reads (X -> X gives a text A):
/// - an output of two copies of A, framed as the CLI frames it, splits into
///   exactly two game records (and nothing else but blanks), each of which
///   reads and writes back to A (X -> X -> X is stable);
/// - the record written in each interchange format ([`INTERCHANGE`]) reads
///   back and writes A (X -> json -> X and X -> xml -> X equal X -> X).
///
/// A format that reads records a run at a time ([`Format::stream`]) gives
/// every record the same converted a run at a time, cut before every move.
/// The same holds converted to every other output that writes a run at a
/// time (json, jsonl, xml, csv, svg, html, the record's family's own).
/// The games of [`UNREPLAYED_TOO`] are checked a second time as read by
/// syntax alone.
pub fn round_trips(name: &str, data: &[u8]) {
    round_trips_to(name, data, Outputs::Every);
}

/// [`round_trips`] without the conversions to the other outputs a run at a
/// time: the checks of what a record's text reads back to, for tests that
/// make many texts of one small game (the streams are another property's,
/// and drawing every output of thousands of them took minutes).
pub fn round_trips_as_text(name: &str, data: &[u8]) {
    round_trips_to(name, data, Outputs::Own);
}

/// Which outputs [`round_trips_to`] converts each record to a run at a time.
#[derive(Clone, Copy, PartialEq)]
enum Outputs {
    /// The record's own notation only.
    Own,
    /// Its own and every other output that writes a run at a time.
    Every,
}

fn round_trips_to(name: &str, data: &[u8], outputs: Outputs) {
    round_trips_with(name, data, &ReadOptions::default(), outputs);
    if UNREPLAYED_TOO.contains(&name) {
        let loose = ReadOptions {
            no_validate: true,
            ..ReadOptions::default()
        };
        round_trips_with(name, data, &loose, outputs);
    }
}

fn round_trips_with(name: &str, data: &[u8], read: &ReadOptions, outputs: Outputs) {
    let f = format(name);
    // Whole (`--read-whole`): what a run at a time is compared with.
    let whole = ReadOptions {
        whole: true,
        ..read.clone()
    };
    let same = converter_with(f, f, whole.clone());
    // Read a run at a time where the format can, with a cut before every
    // move of every line (`--run-bytes 0`).
    let cut = f.read.filter(|r| r.walks()).map(|_| {
        converter_with(
            f,
            f,
            ReadOptions {
                run_bytes: Some(0),
                ..read.clone()
            },
        )
    });
    let through: Vec<_> = INTERCHANGE
        .iter()
        .map(|&via| {
            (
                converter_with(f, format(via), read.clone()),
                converter_with(format(via), f, read.clone()),
                via,
            )
        })
        .collect();
    // The same, to every other output that writes a run at a time, of
    // any family (json, jsonl, xml, csv, svg, html) or of the record's own
    // (sllavcco, sllavcco-html; draughts-diag), cut before every move.
    let cut_to: Vec<_> = match f.read.filter(|r| r.walks()) {
        Some(_) if outputs == Outputs::Every => kifu::format::FORMATS
            .iter()
            .filter(|to| {
                to.runs.is_some()
                    && (to.family.is_none() || to.family == f.family)
                    && !std::ptr::eq(*to, f)
            })
            .map(|to| {
                let cut = ReadOptions {
                    run_bytes: Some(0),
                    ..read.clone()
                };
                (
                    converter_with(f, to, whole.clone()),
                    converter_with(f, to, cut),
                    to.name,
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    for (n, record) in game_records(f, data).iter().enumerate() {
        let n = n + 1;
        let whole = same.convert(record).text();
        // Converted a run at a time, the same text and the same messages
        // (or the same failure), read back where it was spilled.
        if let Some(cut) = &cut {
            let streamed = cut.convert(record).text();
            assert!(
                whole == streamed,
                "{name} game {n}: converted a run at a time, it is not what it is whole\n--- record:\n{}\n--- whole:\n{whole:?}\n--- a run at a time:\n{streamed:?}",
                show(record)
            );
        }
        for (whole, streamed, to) in &cut_to {
            let (whole, streamed) = (whole.convert(record), streamed.convert(record));
            let (whole, streamed) = (whole.text(), streamed.text());
            assert!(
                whole == streamed,
                "{name} game {n}: converted to {to} a run at a time, it is not what it is whole\n--- record:\n{}\n--- whole:\n{whole:?}\n--- a run at a time:\n{streamed:?}",
                show(record)
            );
        }
        let Ok((a, _)) = whole else {
            continue;
        };
        // X -> X -> X, through the record splitter, two games in a row.
        let output = framed(f.framing, &[&a, &a]);
        let records = split(f, output.as_bytes(), BATCH_BYTES);
        let games: Vec<&Vec<u8>> = records.iter().filter(|r| r.3).map(|r| &r.0).collect();
        assert!(
            games.len() == 2,
            "{name} game {n}: written twice, it reads back as {} games\n--- record:\n{}\n--- written:\n{}",
            games.len(),
            show(record),
            show(a.as_bytes())
        );
        for r in records.iter().filter(|r| !r.3) {
            // Blanks, and the brackets and commas of a JSON array: what the
            // format's scanner says is no text.
            assert!(
                !f.split.has_text(&r.0),
                "{name} game {n}: the output holds text outside its games: {}\n--- record:\n{}",
                show(&r.0),
                show(record)
            );
        }
        for g in games {
            match same.convert(g).text() {
                Ok((b, _)) => assert!(
                    b == a,
                    "{name} game {n}: X -> X -> X is not stable\n--- record:\n{}\n--- X -> X:\n{}\n--- X -> X -> X:\n{}",
                    show(record),
                    show(a.as_bytes()),
                    show(b.as_bytes())
                ),
                Err(p) => panic!(
                    "{name} game {n}: X -> X wrote what it cannot read back: {}:{}: {}\n--- record:\n{}\n--- written:\n{}",
                    p.line,
                    p.col,
                    p.message,
                    show(record),
                    show(g)
                ),
            }
        }
        // X -> json -> X, X -> xml -> X.
        for (to_i, from_i, via) in &through {
            let j = match to_i.convert(record).text() {
                Ok((j, _)) => j,
                // What XML 1.0 cannot hold (a control character in an
                // attribute) fails the game with this kind: refused, not lost.
                Err(p) if *via == "xml" && p.kind == kifu::error::Kind::XmlCannotHold => continue,
                Err(p) => panic!(
                    "{name} game {n}: X -> X converts but X -> {via} fails: {}\n--- record:\n{}",
                    p.message,
                    show(record)
                ),
            };
            match from_i.convert(j.as_bytes()).text() {
                Ok((c, _)) => assert!(
                    c == a,
                    "{name} game {n}: X -> {via} -> X differs from X -> X\n--- record:\n{}\n--- X -> X:\n{}\n--- X -> {via} -> X:\n{}",
                    show(record),
                    show(a.as_bytes()),
                    show(c.as_bytes())
                ),
                Err(p) => panic!(
                    "{name} game {n}: X -> {via} wrote what does not read back: {}:{}: {}\n--- record:\n{}\n--- {via}:\n{}",
                    p.line,
                    p.col,
                    p.message,
                    show(record),
                    show(j.as_bytes())
                ),
            }
        }
    }
}

/// A legal Coerceo game played from `data` (the first byte the board,
/// Ocius when odd, and the exchange, one tile when its second bit is set;
/// each next byte picks a turn of those the side to move has), written
/// bare (steps and exchanges alone) and in full (every capture and removal
/// listed), with how many turns, captures, removals and exchanges it plays
/// (variations included). `rich` adds a comment where a byte is 1 past a
/// multiple of 7 and, where it is 3 past one, a variation of the ply
/// (another turn from the position before it, then up to two more, nested
/// two deep at most).
pub fn coerceo_game(data: &[u8], rich: bool) -> (String, String, [usize; 4]) {
    use kifu::family::coerceo::rules::{Position, Turn};
    use kifu::family::coerceo::Kind;
    /// What one line's plies are written into and counted in.
    struct Texts {
        bare_full: [String; 2],
        counts: [usize; 4],
        rich: bool,
    }
    /// Plays at most `plies` plies of a line from `pos`, numbered from `n`.
    fn line(
        mut pos: Position<'static>,
        bytes: &mut std::slice::Iter<'_, u8>,
        mut n: usize,
        plies: usize,
        depth: usize,
        out: &mut Texts,
    ) {
        for _ in 0..plies {
            let turns = pos.turns();
            let Some(&c) = bytes.next().filter(|_| !turns.is_empty()) else {
                return;
            };
            let before = pos.clone();
            let turn: Turn = turns[usize::from(c) % turns.len()];
            let played = pos.play(turn).expect("a turn of those listed plays");
            out.counts[0] += 1;
            out.counts[1] += played.captures.len();
            out.counts[2] += played.removed.len();
            out.counts[3] += usize::from(matches!(turn, Turn::Exchange(..)));
            let spelled = format!("{n}# {}", turn.spelled());
            let mut full = spelled.clone();
            for f in &played.captures {
                full.push_str(&format!(" x{f}"));
            }
            for t in &played.removed {
                full.push_str(&format!(" T{}", t.number()));
            }
            out.bare_full[0].push_str(&spelled);
            out.bare_full[1].push_str(&full);
            match c % 7 {
                1 if out.rich => out
                    .bare_full
                    .iter_mut()
                    .for_each(|t| t.push_str(" {a turn}")),
                3 if out.rich && depth < 2 => {
                    out.bare_full.iter_mut().for_each(|t| t.push_str(" ("));
                    let more = 1 + usize::from(c / 7) % 3;
                    line(before, bytes, n, more, depth + 1, out);
                    out.bare_full.iter_mut().for_each(|t| t.push(')'));
                }
                _ => {}
            }
            out.bare_full.iter_mut().for_each(|t| t.push(' '));
            n += 1;
        }
    }
    let Some((&first, choices)) = data.split_first() else {
        return (String::from("*\n"), String::from("*\n"), [0; 4]);
    };
    let kind = if first & 1 == 1 {
        Kind::Ocius
    } else {
        Kind::Laurentius
    };
    let mut pos = Position::start(kind);
    pos.cost = if first & 2 == 2 { 1 } else { 2 };
    let head = match kind {
        Kind::Ocius => "[Variant \"Ocius\"]\n\n",
        Kind::Laurentius => "",
    };
    let mut out = Texts {
        bare_full: [head.to_string(), head.to_string()],
        counts: [0; 4],
        rich,
    };
    line(pos, &mut choices.iter(), 1, usize::MAX, 0, &mut out);
    let [bare, full] = out.bare_full.map(|t| t + "*\n");
    (bare, full, out.counts)
}

/// Plays a random legal Coerceo game ([`coerceo_game`], a main line
/// alone), and checks that the game written bare reads back with every
/// capture and removal computed, the same as written in full, and that
/// the full record round-trips as text ([`round_trips_as_text`]).
/// Returns how many turns, captures, removals and exchanges the game had.
pub fn coerceo_plays(data: &[u8]) -> [usize; 4] {
    if data.is_empty() {
        return [0; 4];
    }
    let (bare, full, counts) = coerceo_game(data, false);
    let f = format("coerceo");
    let same = converter(f, f);
    let written = |text: &str| match same.convert(text.as_bytes()).text() {
        Ok((a, _)) => a,
        Err(p) => panic!(
            "coerceo: a legal game does not read: {}:{}: {}\n--- record:\n{}",
            p.line,
            p.col,
            p.message,
            show(text.as_bytes())
        ),
    };
    let (a, b) = (written(&bare), written(&full));
    assert!(
        a == b,
        "coerceo: the bare game reads back otherwise than the full one\n--- bare:\n{}\n--- read:\n{}\n--- full read:\n{}",
        show(bare.as_bytes()),
        show(a.as_bytes()),
        show(b.as_bytes())
    );
    let tokens = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert!(
        tokens(&a) == tokens(&full),
        "coerceo: the captures and removals computed are not the rules'\n--- full:\n{}\n--- read:\n{}",
        show(full.as_bytes()),
        show(a.as_bytes())
    );
    // Streamed to every output: tests/it/family_runs.rs's coerceo games
    // (to coerceo and the interchange formats) and its command-line test
    // (to every output); drawing every run of hundreds of long games here
    // took minutes of each test run.
    round_trips_as_text("coerceo", full.as_bytes());
    counts
}
