//! Deadlines over every reader: a loop of a reader or a scanner that does
//! not move forward on text it does not expect stands the conversion still
//! (a stray `}` among Russian short moves, a stray `}` where a JSON array's
//! element begins); one that moves back over what it read makes a long
//! input take quadratic time. Both are searched for here, in every format
//! of the registry (`kifu::format::FORMATS`, those kifu reads), never a
//! list of names:
//!
//! - noise shaped like each format: the format's samples (every record of
//!   `corpus/`, in its own format and converted to each format that reads
//!   its family's games), mutated (bytes inserted, deleted, duplicated;
//!   every structural character and token of every notation spliced in;
//!   tag lines, result tokens, byte-order marks, NULs, CRs, long lines and
//!   numbers, deep nesting), each under 4 KiB and read within a deadline
//!   by the library's reader (and its streaming reader) and through the
//!   pipeline the CLI takes: `Records` and the format's scanner, then each
//!   game record converted to its family's canonical notation and to json,
//!   whole and a run at a time. `KIFU_DEADLINE_CASES` sets the cases per
//!   format, `KIFU_DEADLINE_SEED` the first seed (a long search runs many
//!   of both).
//! - repeated structures: 64 KiB of one structure (unclosed `(`, `{`,
//!   `[`, quotes, tag heads, dashes, nested arrays and elements...) alone
//!   and inside a sample, each read within a budget of time.
//!
//! A case over its deadline fails the test with its format and its input,
//! escaped as a Rust byte string to replay.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::check;
use kifu::archive::{read_record, Converter};
use kifu::codec::{ReadOptions, WriteOptions};
use kifu::format::{by_name, guess, Format, FORMATS};

/// The time a case of noise (under 4 KiB) may take, in processor time of
/// the thread that reads it (a loaded machine does not fail it).
const DEADLINE: Duration = Duration::from_secs(5);

/// The wall-clock time a case may take, where it waits rather than works.
const WALL: Duration = Duration::from_secs(300);

/// The largest input of noise.
const NOISE_MAX: usize = 4 << 10;

/// The size of an input of one repeated structure.
const REPEATED: usize = 64 << 10;

/// The time such an input may take in processor time: 2 s optimised, more
/// unoptimised (where everything is some ten times slower).
fn repeated_budget() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(5)
    } else {
        Duration::from_secs(2)
    }
}

/// The formats kifu reads, from the registry.
fn readers() -> impl Iterator<Item = &'static Format> {
    FORMATS.iter().filter(|f| f.read.is_some())
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small, fast generator (SplitMix64): a case is its seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(crate) fn pick<'a, T>(&mut self, of: &'a [T]) -> &'a T {
        &of[self.below(of.len())]
    }
}

/// Every structural character and token of every notation kifu reads: the
/// containers' comments, variations, tags, escapes, NAGs and results; the
/// moves' separators; JSON, XML and the csv tables' rows; and the bytes
/// that readers meet rarely.
const MARKS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    "\"",
    "%",
    "$",
    "*",
    ".",
    "-",
    "x",
    ":",
    "/",
    "\\",
    "#",
    "=",
    "!",
    "?",
    "!!",
    "??",
    "!?",
    "'",
    "+",
    "@",
    "&",
    "<",
    ">",
    ",",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "...",
    "1.",
    "1...",
    "12.",
    "$1",
    "$255",
    "1-0",
    "0-1",
    "1/2-1/2",
    "½-½",
    "2-0",
    "0-2",
    "1-1",
    "0-0",
    "2-2",
    "0:1",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\t",
    " ",
    "\0",
    "\u{feff}",
    "\u{a0}",
    "é",
    "歩",
    "\u{7f}",
    "\u{1b}",
    "[Event \"",
    "[Event \"x\"]\n",
    "\n[Result \"1-0\"]\n",
    "[FEN \"",
    "[GameType \"",
    "[Rules \"",
    "[rules:dim:11 ",
    "[a]\n",
    "[]\n",
    "\n[",
    "\"]\n",
    "{\"",
    "\":",
    "\":[",
    "\":{",
    "null",
    "[]",
    "{}",
    "\"moves\":",
    "\"plies\":[",
    "\"variant\":{\"family\":\"chess\"}",
    "[[",
    "]]",
    "{{",
    "}}",
    "<game>",
    "</game>",
    "<games>",
    "</games>",
    "<a>",
    "</a>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&#",
    "<?xml",
    "/>",
    "games,",
    "tags:3,",
    "moves,",
    "\n\"",
    "\"\"",
    "O-O",
    "O-O-O",
    "e4",
    "Nf3",
    "=Q",
    "32-28",
    "28x19",
    "x19x10",
    "f45",
    "gf5",
    "d1-d3",
    "Ke5-f5xf6",
    "x14a",
    "T14",
    "1#",
    "3c-3e",
    "P-8g",
    "FiD",
    "Lnx!7d",
    "TT",
    "2#",
    "@@",
    "Ln",
    "c3",
    "Q3",
];

/// Openers nested deep: what a recursive reader might follow to the end of
/// its stack.
const OPENERS: &[&str] = &[
    "(", "{", "[", "<a>", "[{\"a\":", "{\"a\":[", "((", "( 1. e4 ",
];

/// Mutates a sample: one to five of insertions, deletions, duplications,
/// marks spliced in or put in place of a byte, long runs, deep nesting,
/// cuts and pieces of another sample; under [`NOISE_MAX`] bytes.
pub(crate) fn mutate(rng: &mut Rng, sample: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut data = sample.to_vec();
    for _ in 0..1 + rng.below(5) {
        let at = rng.below(data.len() + 1);
        match rng.below(12) {
            0 => data.insert(at, rng.next() as u8),
            1 => {
                let end = (at + 1 + rng.below(16)).min(data.len());
                data.drain(at..end);
            }
            2 => {
                let end = (at + 1 + rng.below(64)).min(data.len());
                let piece = data[at..end].to_vec();
                let to = rng.below(data.len() + 1);
                data.splice(to..to, piece);
            }
            3..=5 => {
                let mark = rng.pick(MARKS).as_bytes();
                data.splice(at..at, mark.iter().copied());
            }
            6 if at < data.len() => {
                let mark = rng.pick(MARKS).as_bytes();
                data.splice(at..at + 1, mark.iter().copied());
            }
            7 => {
                // A long line, word or number.
                let unit = rng.pick(&["9", "a", " ", "-", "x", "é", "1. ", "e4 ", "\""]);
                let run = unit.repeat(1 + rng.below(3000));
                data.splice(at..at, run.bytes());
            }
            8 => {
                let opener = rng.pick(OPENERS);
                let run = opener.repeat(1 + rng.below(1500));
                data.splice(at..at, run.bytes());
            }
            9 => data.truncate(at),
            10 if !others.is_empty() => {
                let other = rng.pick(others);
                let from = rng.below(other.len());
                let end = (from + 1 + rng.below(256)).min(other.len());
                data.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                // A mark repeated a few times.
                let mark = rng.pick(MARKS).repeat(2 + rng.below(40));
                data.splice(at..at, mark.bytes());
            }
        }
    }
    data.truncate(NOISE_MAX);
    data
}

/// The samples of every format kifu reads: each game record of each file
/// of `corpus/` in the format its name says, and each converted to every
/// other format that reads its family's games (an interchange format
/// reads all), those under 3 KiB, at most 24 a format.
pub(crate) fn samples() -> Vec<(&'static Format, Vec<Vec<u8>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut paths = Vec::new();
    for family in std::fs::read_dir(&root).expect("corpus/").flatten() {
        for file in std::fs::read_dir(family.path()).into_iter().flatten() {
            paths.push(file.expect("a corpus file").path());
        }
    }
    paths.sort();
    let mut out: Vec<(&'static Format, Vec<Vec<u8>>)> =
        readers().map(|f| (f, Vec::new())).collect();
    let mut add = |f: &Format, bytes: Vec<u8>| {
        let list = &mut out
            .iter_mut()
            .find(|(g, _)| std::ptr::eq(*g, f))
            .expect("a reader")
            .1;
        if bytes.len() < 3 << 10 && !list.contains(&bytes) {
            list.push(bytes);
        }
    };
    for path in &paths {
        let Some(from) = guess(path) else { continue };
        let data = std::fs::read(path).expect("a corpus file");
        for record in check::game_records(from, &data).into_iter().take(6) {
            for to in readers().filter(|t| {
                !std::ptr::eq(*t, from) && (t.family.is_none() || t.family == from.family)
            }) {
                let Some(_) = to.write else { continue };
                let conv = converter(from, to, ReadOptions::default());
                if let Ok((text, _)) = conv.convert(&record).text() {
                    add(to, text.into_bytes());
                }
            }
            add(from, record);
        }
    }
    for (f, list) in &mut out {
        assert!(
            !list.is_empty(),
            "{}: no sample under 3 KiB in corpus/ or converted from it",
            f.name
        );
        let step = list.len().div_ceil(24).max(1);
        *list = list.iter().step_by(step).cloned().collect();
    }
    out
}

fn converter(from: &'static Format, to: &'static Format, read: ReadOptions) -> Converter<'static> {
    Converter {
        from,
        to,
        read,
        write: WriteOptions::default(),
    }
}

/// Reads `data` as `f` every way kifu does: the registry's reader and
/// streaming reader with the default options, and the pipeline: the
/// format's scanner through `Records` (at two batch sizes), each game
/// record converted to its family's canonical notation and to json, whole
/// and (where the format streams) a run at a time.
pub(crate) fn read_every_way(f: &'static Format, data: &[u8]) -> usize {
    let text = String::from_utf8_lossy(data);
    let options = ReadOptions::default();
    let read = f.read.expect("a reader");
    let _ = read.game(&text, &options);
    let _ = read.runs(&text, &options, &mut |_| Ok(()));
    let json = by_name("json").expect("json");
    let mut games = 0;
    // Cut with the CLI's batches and with small ones: the same records
    // (`batches.rs` checks it over more sizes and longer inputs).
    for record in check::game_records(f, data) {
        let family = match f.family {
            Some(family) => Some(family),
            None => read_record(f, &options, &record)
                .ok()
                .map(|p| p.game.family()),
        };
        let canonical = family.and_then(|family| by_name(family.canonical_notation()));
        for to in std::iter::once(json).chain(canonical) {
            let whole = ReadOptions {
                whole: true,
                ..options.clone()
            };
            let whole = converter(f, to, whole).convert(&record);
            games += usize::from(whole.text().is_ok());
            if f.read.is_some_and(|r| r.walks()) {
                let cut = ReadOptions {
                    run_bytes: Some(0),
                    ..options.clone()
                };
                let _ = converter(f, to, cut).convert(&record);
            }
        }
    }
    games
}

/// The processor time a thread has used, where the system tells it.
mod cpu {
    use std::time::Duration;

    /// A thread's clock.
    #[derive(Clone, Copy)]
    pub struct Clock(#[cfg(target_os = "linux")] libc::clockid_t);

    #[cfg(target_os = "linux")]
    impl Clock {
        /// The calling thread's clock, as other threads read it.
        pub fn this_thread() -> Option<Clock> {
            let mut id: libc::clockid_t = 0;
            // SAFETY: pthread_self is the calling thread, alive; `id` is
            // written by the call.
            let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
            (rc == 0).then_some(Clock(id))
        }

        /// The time on the clock; `None` once its thread has ended.
        pub fn read(self) -> Option<Duration> {
            let mut t = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `t` is a valid timespec to write.
            let rc = unsafe { libc::clock_gettime(self.0, &mut t) };
            (rc == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
        }
    }

    #[cfg(not(target_os = "linux"))]
    impl Clock {
        /// None here: the wall clock is used instead.
        pub fn this_thread() -> Option<Clock> {
            None
        }

        /// Never read.
        pub fn read(self) -> Option<Duration> {
            None
        }
    }
}

/// What a worker is reading: the case, when it began, and whether it was
/// said to be past its deadline.
struct Current {
    case: usize,
    wall: Instant,
    cpu: Option<Duration>,
    said: bool,
}

struct Worker {
    clock: Option<cpu::Clock>,
    current: Option<Current>,
}

/// One input to read: its format, its name (a seed or a structure) and
/// its bytes.
pub(crate) struct Case {
    pub(crate) format: &'static Format,
    pub(crate) name: String,
    pub(crate) data: Vec<u8>,
}

/// A case as a failure names it: its format, its name and its bytes as a
/// Rust byte string, whole up to 4 KiB; a longer input is written to a
/// file of the temporary folder, named.
fn replay(case: &Case) -> String {
    let head = format!(
        "{} ({}, {} bytes)",
        case.format.name,
        case.name,
        case.data.len()
    );
    if case.data.len() <= NOISE_MAX {
        return format!("{head}: b\"{}\"", case.data.escape_ascii());
    }
    let dir = std::env::temp_dir().join("kifu-deadlines");
    let file = dir.join(format!(
        "{}-{:016x}.bin",
        case.format.name,
        hash(&String::from_utf8_lossy(&case.data))
    ));
    let _ = std::fs::create_dir_all(&dir);
    let written = std::fs::write(&file, &case.data).is_ok();
    format!(
        "{head}: b\"{}\"... ({})",
        case.data[..120].escape_ascii(),
        if written {
            format!("written to {}", file.display())
        } else {
            "not written".to_string()
        }
    )
}

/// How many times its deadline a case may run before the test stops
/// waiting for it (a loop that never ends): until then a case past its
/// deadline is said at once and failed when it ends, and the others go on.
const STUCK: u32 = 6;

/// Reads every case with `read`, on a few threads, each case within
/// `limit` of processor time (and [`WALL`] of wall-clock time): a case
/// past it, or one whose reading panics, fails with its format and input
/// (every such case, once all have run; one that does not end at all
/// stops the test). Returns the processor (or wall) time each case took
/// and what `read` returned.
fn under_deadline<T: Default + Clone + Send + 'static>(
    cases: Vec<Case>,
    limit: Duration,
    read: fn(&'static Format, &[u8]) -> T,
) -> Vec<(Duration, T)> {
    let cases = Arc::new(cases);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(cases.len())
        .max(1);
    let next = Arc::new(AtomicUsize::new(0));
    let took = Arc::new(Mutex::new(vec![
        (Duration::ZERO, T::default());
        cases.len()
    ]));
    let failed = Arc::new(Mutex::new(Vec::<String>::new()));
    let workers: Vec<Arc<Mutex<Worker>>> = (0..threads)
        .map(|_| {
            Arc::new(Mutex::new(Worker {
                clock: None,
                current: None,
            }))
        })
        .collect();
    let handles: Vec<_> = workers
        .iter()
        .map(|w| {
            let (w, cases, next, took, failed) = (
                w.clone(),
                cases.clone(),
                next.clone(),
                took.clone(),
                failed.clone(),
            );
            std::thread::spawn(move || {
                let clock = cpu::Clock::this_thread();
                w.lock().unwrap().clock = clock;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let (wall, cpu) = (Instant::now(), clock.and_then(|c| c.read()));
                    w.lock().unwrap().current = Some(Current {
                        case: i,
                        wall,
                        cpu,
                        said: false,
                    });
                    let result = catch_unwind(AssertUnwindSafe(|| read(case.format, &case.data)));
                    let spent = match (clock.and_then(|c| c.read()), cpu) {
                        (Some(now), Some(then)) => now.saturating_sub(then),
                        _ => wall.elapsed(),
                    };
                    w.lock().unwrap().current = None;
                    let mut failed = failed.lock().unwrap();
                    if spent > limit {
                        failed.push(format!("took {spent:?}: {}", replay(case)));
                    }
                    match result {
                        Ok(out) => took.lock().unwrap()[i] = (spent, out),
                        Err(e) => {
                            let what = e
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_default();
                            failed.push(format!("panicked ({what}): {}", replay(case)));
                        }
                    }
                }
            })
        })
        .collect();
    loop {
        std::thread::sleep(Duration::from_millis(20));
        for w in &workers {
            let mut w = w.lock().unwrap();
            let clock = w.clock;
            let Some(current) = &mut w.current else {
                continue;
            };
            let spent = match (clock.and_then(|c| c.read()), current.cpu) {
                (Some(now), Some(then)) => now.saturating_sub(then),
                _ => current.wall.elapsed(),
            };
            if spent > limit && !current.said {
                current.said = true;
                eprintln!(
                    "deadlines: past its deadline, still running: {}",
                    replay(&cases[current.case])
                );
            }
            if spent > limit * STUCK || current.wall.elapsed() > WALL {
                // The thread cannot be stopped: the test fails, and the
                // process ends with it.
                panic!(
                    "a read does not end ({spent:?} of processor time, {:?} in all): {}",
                    current.wall.elapsed(),
                    replay(&cases[current.case])
                );
            }
        }
        if handles.iter().all(|h| h.is_finished()) {
            break;
        }
    }
    for h in handles {
        h.join().expect("a worker");
    }
    let took = took.lock().unwrap().clone();
    if let Some(n) = std::env::var("KIFU_DEADLINE_SLOWEST")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        let mut order: Vec<usize> = (0..cases.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(took[i].0));
        for &i in order.iter().take(n) {
            let c = &cases[i];
            eprintln!(
                "deadlines: {:?} {} ({}, {} bytes)",
                took[i].0,
                c.format.name,
                c.name,
                c.data.len()
            );
        }
    }
    let failed = failed.lock().unwrap();
    assert!(
        failed.is_empty(),
        "{} case(s) failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    took
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Noise shaped like each format, read every way within the deadline:
/// `KIFU_DEADLINE_CASES` cases a format (default 24), from the seed
/// `KIFU_DEADLINE_SEED` on (default 0). Some of them still hold games
/// that convert (in every format, over 500 cases a format): the noise is
/// near enough to the format to reach past its first token.
#[test]
fn noise_shaped_like_every_format_is_read_within_a_deadline() {
    let per_format = env_number("KIFU_DEADLINE_CASES", 24);
    let first = env_number("KIFU_DEADLINE_SEED", 0);
    let samples = samples();
    let mut cases = Vec::new();
    for (f, list) in &samples {
        for n in 0..per_format {
            let seed = first + n;
            let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ hash(f.name));
            let sample = rng.pick(list);
            cases.push(Case {
                format: f,
                name: format!("seed {seed}"),
                data: mutate(&mut rng, sample, list),
            });
        }
    }
    let formats: Vec<&'static Format> = cases.iter().map(|c| c.format).collect();
    let took = under_deadline(cases, DEADLINE, read_every_way);
    // The noise reaches past the first token: some of it still converts
    // (in each format, over a long search).
    let games = |f: &Format| -> usize {
        formats
            .iter()
            .zip(&took)
            .filter(|(g, _)| std::ptr::eq(**g, f))
            .map(|(_, t)| t.1)
            .sum()
    };
    assert!(samples.iter().map(|(f, _)| games(f)).sum::<usize>() > 0);
    for (f, _) in &samples {
        assert!(
            games(f) > 0 || per_format < 500,
            "{}: no case of noise held a game that converts",
            f.name
        );
    }
}

/// How many structures [`repeated_cases`] makes of a format's samples.
pub(crate) fn repeated_count(list: &[Vec<u8>]) -> usize {
    (MARKS.len() + OPENERS.len()) * 3 * 2 + list.len()
}

/// Structures repeated to [`REPEATED`] bytes: each mark of [`MARKS`] and
/// each opener of [`OPENERS`], alone and inside a sample of the format
/// (after its first half); each such unit after a blank line; and the
/// first half of each sample (a record cut short) repeated. Those whose
/// index (of [`repeated_count`]) `keep` takes are made.
pub(crate) fn repeated_cases(
    f: &'static Format,
    list: &[Vec<u8>],
    keep: impl Fn(usize) -> bool,
) -> Vec<Case> {
    let sample = &list[0];
    let half = sample.len() / 2;
    let mut cases = Vec::new();
    let fill = |unit: &[u8]| -> Vec<u8> {
        let n = REPEATED / unit.len().max(1);
        unit.repeat(n)
    };
    let mut index = 0;
    let mut add = |name: String, data: &dyn Fn() -> Vec<u8>| {
        if keep(index) {
            cases.push(Case {
                format: f,
                name,
                data: data(),
            });
        }
        index += 1;
    };
    for mark in MARKS.iter().chain(OPENERS) {
        for unit in [mark.to_string(), format!("{mark}\n\n"), format!("{mark} ")] {
            add(format!("{unit:?} repeated"), &|| fill(unit.as_bytes()));
            add(format!("{unit:?} repeated inside a sample"), &|| {
                let mut inside = sample[..half].to_vec();
                inside.extend_from_slice(&fill(unit.as_bytes()));
                inside.extend_from_slice(&sample[half..]);
                inside
            });
        }
    }
    for s in list {
        add("the first half of a sample repeated".into(), &|| {
            fill(&s[..s.len() / 2 + 1])
        });
    }
    cases
}

/// 64 KiB of one structure, in every format, read every way within a
/// budget ([`repeated_budget`]): a reader or scanner that re-reads to the
/// end of the input for each repetition takes quadratic time.
/// `KIFU_DEADLINE_STRUCTURES` structures a format (default 3, taken evenly
/// from the list; `all`: every one).
#[test]
fn repeated_structures_are_read_in_linear_time() {
    let samples = samples();
    let mut cases = Vec::new();
    for (f, list) in &samples {
        let all = repeated_count(list);
        let want = match std::env::var("KIFU_DEADLINE_STRUCTURES").as_deref() {
            Ok("all") => all,
            Ok(n) => n.parse().unwrap_or(3),
            Err(_) => 3,
        };
        let step = all.div_ceil(want.max(1)).max(1);
        let offset = env_number("KIFU_DEADLINE_SEED", 0) as usize % step;
        cases.extend(repeated_cases(f, list, |i| {
            i >= offset && (i - offset).is_multiple_of(step)
        }));
    }
    under_deadline(cases, repeated_budget(), read_every_way);
}

/// The structures the search found quadratic, each [`REPEATED`] bytes,
/// in every format kifu reads:
/// - `e4e4e4...`, glued squares: draughts-diag's capture form
///   (`e8g6i4x`) read the run to its end again at each pair taken from
///   it (64 KiB: 26 s unoptimised);
/// - `1.` after a blank line, again and again: the record scanner asked,
///   at each, whether the text since the last tag held a move, reading it
///   all again;
/// - many tokens on a tag's line: the scanner looked for the line's end
///   from the tag at each.
pub(crate) fn found_quadratic() -> Vec<(&'static str, Vec<u8>)> {
    let fill = |head: &str, unit: &str| {
        let mut text = head.to_string();
        while text.len() + unit.len() <= REPEATED {
            text.push_str(unit);
        }
        text.into_bytes()
    };
    vec![
        ("glued squares", fill("", "e4")),
        ("`1.` after blank lines", fill("", "1.\n\n")),
        (
            "`1.` after blank lines, after tags",
            fill("[Event \"x\"]\n\n", "1.\n\n"),
        ),
        ("tokens on a tag's line", fill("[Event \"x\"] ", "a ")),
    ]
}

#[test]
fn structures_found_quadratic_are_read_in_linear_time() {
    let mut cases = Vec::new();
    for f in readers() {
        for (name, data) in found_quadratic() {
            cases.push(Case {
                format: f,
                name: name.to_string(),
                data,
            });
        }
    }
    under_deadline(cases, repeated_budget(), read_every_way);
}

/// The same through the `kifu` binary, as a user meets them, read as the
/// formats they were found in: each file converted (and, none of its
/// games converting, sniffed for another format by every reader) well
/// within the time it took.
#[test]
fn structures_found_quadratic_convert_in_time_through_the_binary() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for f in ["pgn", "draughts-diag"].map(|name| by_name(name).expect("a format")) {
        for (name, data) in found_quadratic() {
            let file = dir.path().join(format!("in.{}", f.extensions[0]));
            std::fs::write(&file, &data).expect("written");
            let start = Instant::now();
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
                .args([
                    "convert",
                    "--from",
                    f.name,
                    "--to",
                    "json",
                    "-o",
                    "/dev/null",
                ])
                .arg(&file)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("kifu runs");
            let status = loop {
                if let Some(status) = child.try_wait().expect("waited") {
                    break status;
                }
                if start.elapsed() > WALL / 4 {
                    let _ = child.kill();
                    panic!(
                        "kifu convert --from {} on {name}: past {:?}",
                        f.name,
                        WALL / 4
                    );
                }
                std::thread::sleep(Duration::from_millis(10));
            };
            assert!(
                matches!(status.code(), Some(0..=2)),
                "kifu convert --from {} on {name}: {status}",
                f.name
            );
        }
    }
}

/// Runs `kifu` in `dir` with no standard input, killed after a minute (a
/// loop that never ends fails the test instead of hanging it): its exit
/// code and standard error.
fn kifu_within(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("kifu runs");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waited") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("kifu {args:?} ran past a minute");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (status.code(), reader.join().expect("stderr read"))
}

/// Compressed inputs that end early, at every few bytes, in each
/// compression kifu reads: each run ends, with the games before the damage
/// and the damage said, never a panic or a loop.
#[test]
fn compressed_inputs_cut_short_end() {
    use std::io::Write;
    let text = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(40);
    let text = text.as_bytes();
    let gz = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    };
    let bz2 = {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    };
    let xz = {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
        e.write_all(text).unwrap();
        e.finish().unwrap()
    };
    let zst = zstd::encode_all(text, 3).unwrap();
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (ext, whole) in [("gz", gz), ("bz2", bz2), ("xz", xz), ("zst", zst)] {
        let step = (whole.len() / 12).max(1);
        let cuts = (0..8).chain((8..whole.len()).step_by(step));
        for cut in cuts {
            let name = format!("in.pgn.{ext}");
            std::fs::write(dir.path().join(&name), &whole[..cut]).unwrap();
            let (code, err) = kifu_within(
                dir.path(),
                &["convert", "--to", "json", &name, "-o", "/dev/null"],
            );
            assert!(
                matches!(code, Some(0..=2)) && !err.contains("panicked"),
                "{name} cut at {cut} of {}: {code:?}\n{err}",
                whole.len()
            );
        }
    }
}

/// A named pipe whose writer writes half a game and closes it: the run
/// ends with what it read, as it does at the end of a file.
#[cfg(unix)]
#[test]
fn a_named_pipe_closed_early_ends_the_run() {
    use std::ffi::CString;
    use std::io::Write;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("in.pgn");
    let path = CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a plain system call on a NUL-ended path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    for half in [
        "",
        "[Event \"a\"]\n\n1. e4 e5 2. Nf",
        "[Event \"a\"]\n\n1. e4 {",
    ] {
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut pipe = std::fs::OpenOptions::new()
                    .write(true)
                    .open(fifo)
                    .expect("the pipe opens");
                let _ = pipe.write_all(half.as_bytes());
            })
        };
        let (code, err) = kifu_within(
            dir.path(),
            &["convert", "--to", "json", "in.pgn", "-o", "/dev/null"],
        );
        writer.join().expect("the writer");
        assert!(
            matches!(code, Some(0..=2)) && !err.contains("panicked"),
            "{half:?}: {code:?}\n{err}"
        );
    }
}

/// A long record with a warning every few words, through the `kifu`
/// binary as a user meets it: 4 MB of one chess game with a stray `}`
/// every fifth word (150,000 warnings), converted a run at a time (cut as
/// records are, and before every move) and whole. Each warning placed by counting lines from the record's start
/// took minutes; placed by the record's `codec::Lines`, a few seconds
/// (`long_records.rs` counts the work in every format).
#[test]
fn a_long_record_with_a_warning_every_few_words_converts_in_time() {
    let mut text = String::from("[Event \"long\"]\n\n");
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut i = 0;
    while text.len() < 4 << 20 {
        let (w, b) = (cycle[(2 * i) % 4], cycle[(2 * i + 1) % 4]);
        text.push_str(&format!("{}. {w} {{c}} }} {b} (a remark) ", i + 1));
        if i % 6 == 5 {
            text.push('\n');
        }
        i += 1;
    }
    text.push_str("*\n");
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("long.pgn"), &text).expect("written");
    // Its runs as they come, a run before every move, and the record whole.
    for way in [&[][..], &["--run-bytes", "0"], &["--read-whole"]] {
        let mut args = vec!["convert", "--to", "json", "long.pgn", "-o", "/dev/null"];
        args.extend_from_slice(way);
        let start = Instant::now();
        let (code, err) = kifu_within(dir.path(), &args);
        let took = start.elapsed();
        assert_eq!(code, Some(0), "kifu {args:?}: {err}");
        let said: usize = err
            .split(" warnings")
            .next()
            .and_then(|head| head.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(
            said >= i,
            "kifu {args:?}: each stray brace and remark said ({i} moves): {err}"
        );
        assert!(
            took < Duration::from_secs(30),
            "kifu {args:?} took {took:?} on a {} byte record",
            text.len()
        );
    }
}
