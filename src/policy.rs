//! The record policy: what every command does with one record, in one
//! place. `kifu convert` ([`crate::archive::Converter`]), `kifu diff`, the
//! Python package (`kifu.read`, `kifu.dask`) and the whole-file format hint
//! ([`crate::archive::sniff`]) all take a record through it:
//!
//! - **the size limit**: a record over `--max-record-size` was streamed
//!   past unread, and fails alone ([`crate::archive::Record::apply`],
//!   [`too_large`]);
//! - **the memory claim**: a large record claims what converting it may
//!   take from one budget shared by every worker, and a worker whose claim
//!   does not fit waits for the others ([`claim_memory_at`]);
//! - **the retry** that keeps an unplayable variation as text and reads
//!   the record again ([`read_record`]);
//! - **isolation**: a panic inside one record fails that record with an
//!   internal error, and the run goes on ([`isolate`]).

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use crate::codec::ReadOptions;
use crate::error::Kind;
use crate::error::Problem;
use crate::format::Format;

thread_local! {
    /// How many [`isolate`] calls this thread is inside.
    static ISOLATED: Cell<usize> = const { Cell::new(0) };
    /// What the last panic caught by [`isolate`] on this thread said.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`, one record's work; a panic inside it fails the record with an
/// internal error ([`internal_error`]) that says what panicked and where,
/// instead of ending the run. The panic is not printed: its words are in
/// the error.
pub fn isolate<T>(f: impl FnOnce() -> Result<T, Problem>) -> Result<T, Problem> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let before = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if ISOLATED.with(Cell::get) == 0 {
                return before(info);
            }
            let what = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            CAUGHT.with(|c| *c.borrow_mut() = Some(format!("{what}{at}")));
        }));
    });
    ISOLATED.with(|n| n.set(n.get() + 1));
    let done = panic::catch_unwind(AssertUnwindSafe(f));
    ISOLATED.with(|n| n.set(n.get() - 1));
    done.unwrap_or_else(|_| {
        let what = CAUGHT
            .with(|c| c.borrow_mut().take())
            .unwrap_or_else(|| "a panic".to_string());
        Err(internal_error(&what))
    })
}

/// The error of a record whose reading or writing panicked (`what`: the
/// panic's words and place in kifu's source).
pub fn internal_error(what: &str) -> Problem {
    Problem::whole(format!(
        "internal error: kifu failed on this game ({}); it was skipped and the run went on: \
         please report it, with the game",
        crate::error::quote(what)
    ))
    .of_kind(Kind::Internal)
}

/// A test's way to make a reader panic (debug builds only): where the
/// environment variable `KIFU_TEST_PANIC` is set, a record whose bytes hold
/// its value panics when it is read.
fn panic_on_marker(bytes: &[u8]) {
    if !cfg!(debug_assertions) {
        return;
    }
    static MARKER: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    let marker = MARKER.get_or_init(|| {
        std::env::var_os("KIFU_TEST_PANIC")
            .filter(|m| !m.is_empty())
            .map(|m| m.into_encoded_bytes())
    });
    if let Some(m) = marker {
        if memchr::memmem::find(bytes, m).is_some() {
            panic!("KIFU_TEST_PANIC: the record holds the marker");
        }
    }
}

/// The most annotations of one record kept as text ([`crate::codec::Scan::demote`])
/// before it fails: each costs a reading of the record.
const MAX_DEMOTED: usize = 64;

/// Reads one record's bytes with a format's reader, as every command reads
/// records: UTF-8 (a stray BOM read as a space), or else Latin-1 with a
/// warning. The game, and every warning. A panic of the reader fails the
/// record alone ([`isolate`]).
pub fn read_record(
    from: &Format,
    opts: &ReadOptions,
    bytes: &[u8],
) -> Result<crate::codec::Parsed, Problem> {
    isolate(|| read_unguarded(from, opts, bytes))
}

fn read_unguarded(
    from: &Format,
    opts: &ReadOptions,
    bytes: &[u8],
) -> Result<crate::codec::Parsed, Problem> {
    let mut warnings = Vec::new();
    let text = record_text(from, bytes, &mut warnings);
    read_text(from, opts, &text, warnings)
}

/// [`read_record`] of a record's text as [`record_text`] made it, with
/// the warnings that making it gave (not isolated: the caller is).
pub(crate) fn read_text(
    from: &Format,
    opts: &ReadOptions,
    text: &str,
    mut warnings: Vec<Problem>,
) -> Result<crate::codec::Parsed, Problem> {
    let read = from.read.ok_or_else(|| {
        Problem::whole(format!("{} cannot be read", from.name)).of_kind(Kind::Internal)
    })?;
    let mut parsed = read.game(text, opts);
    // A variation that cannot be read or played is kept as text, one at a
    // time, and the record read again (a bounded number of times).
    let mut again = String::new();
    for _ in 0..MAX_DEMOTED {
        let Err(e) = &parsed else { break };
        let current = if again.is_empty() {
            text
        } else {
            again.as_str()
        };
        let Some((fixed, said)) = from.split.demote(current, e) else {
            break;
        };
        warnings.push(said);
        parsed = read.game(&fixed, opts);
        again = fixed;
    }
    let mut parsed = parsed?;
    warnings.append(&mut parsed.warnings);
    parsed.warnings = warnings;
    Ok(parsed)
}

/// [`read_record`] within the memory budget ([`claim_memory`]), as every
/// command that reads a record's game (not converting it) reads it:
/// `limit` is the largest record allowed (`--max-record-size`).
pub fn read_claimed(
    from: &Format,
    opts: &ReadOptions,
    bytes: &[u8],
    limit: usize,
) -> Result<crate::codec::Parsed, Problem> {
    let _claim = claim_memory(bytes.len(), limit)?;
    read_record(from, opts, bytes)
}

/// A record's bytes as text, as every reader takes them: UTF-8 (a stray
/// BOM read as a space), or else Latin-1 with a warning; then repaired as
/// the format's scanner repairs damaged records ([`crate::codec::Scan::repair`]).
pub(crate) fn record_text<'b>(
    from: &Format,
    bytes: &'b [u8],
    warnings: &mut Vec<Problem>,
) -> std::borrow::Cow<'b, str> {
    use std::borrow::Cow;
    panic_on_marker(bytes);
    let text = match std::str::from_utf8(bytes) {
        // A BOM left inside the input by concatenating files: a space.
        Ok(t) if has_bom(bytes) => Cow::Owned(t.replace('\u{feff}', " ")),
        Ok(t) => Cow::Borrowed(t),
        Err(_) => {
            warnings.push(Problem::whole("not UTF-8: read as Latin-1").of_kind(Kind::Latin1));
            Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect::<String>())
        }
    };
    match from.split.repair(&text) {
        Some((fixed, mut said)) => {
            warnings.append(&mut said);
            Cow::Owned(fixed)
        }
        None => text,
    }
}

/// Whether UTF-8 bytes hold a BOM (U+FEFF), looked for by its first byte:
/// one byte is found faster than three, and text holds it only where a
/// character from U+F000 to U+FFFF begins.
fn has_bom(bytes: &[u8]) -> bool {
    memchr::memchr_iter(0xEF, bytes).any(|i| bytes[i..].starts_with("\u{feff}".as_bytes()))
}

/// The memory that converting a record may take at most, as a multiple of
/// its size: reading (the tokens and the game held whole, with every ply,
/// comment and variation), checking and writing it. Measured by
/// `benches/memory.py` (docs/benchmarks.md, Memory per record): ordinary movetext peaks at 30 to
/// 50 times its size, the densest shape found (a move and an empty comment
/// in every four bytes, read by the grammar) at about 125 times.
pub const MEMORY_PER_BYTE: usize = 160;

/// Records up to this size are converted without a claim on the memory
/// budget: every record of a real archive (the largest are tens of
/// kilobytes), each worker taking at most [`MEMORY_PER_BYTE`] times it.
pub const UNCLAIMED_RECORD: usize = 256 << 10;

/// The memory claimed by the large records being converted, across every
/// worker and input of the process.
struct Budget {
    used: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

static BUDGET: Budget = Budget {
    used: std::sync::Mutex::new(0),
    freed: std::sync::Condvar::new(),
};

/// A claim on the memory budget ([`claim_memory`]), given back when dropped.
#[derive(Debug)]
pub struct Claim(usize);

impl Drop for Claim {
    fn drop(&mut self) {
        let mut used = BUDGET.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= self.0;
        BUDGET.freed.notify_all();
    }
}

/// Claims the memory that converting a record of `size` bytes may take
/// ([`MEMORY_PER_BYTE`] times its size), for records over
/// [`UNCLAIMED_RECORD`]; `None` for smaller ones.
///
/// The large records converted at once share one budget: what the largest
/// record allowed (`limit`, `--max-record-size`) may take. A worker whose
/// record does not fit beside those being converted waits for them, so
/// that `-j N` takes no more for large records than one record at the
/// limit; a record alone always fits. Then the claim is tried
/// ([`claim_memory_at`]): where the system cannot give the memory even
/// with no other claim held, the record fails alone with an error, before
/// kifu starts on it, instead of the allocation failing halfway and
/// aborting the run.
pub fn claim_memory(size: usize, limit: usize) -> Result<Option<Claim>, Problem> {
    claim_memory_at(size, limit, MEMORY_PER_BYTE)
}

/// The memory that converting a record a run at a time
/// may take at most, as a multiple of its size: its text, the text
/// written and a run (docs/benchmarks.md, Memory per record: 3 to 6 times
/// at 16 MB and more).
pub const STREAMED_PER_BYTE: usize = 8;

/// [`claim_memory`] for a conversion that takes at most `per_byte` times
/// the record's size, from the same budget.
///
/// Under a limit on the process's address space (`ulimit -v`), what the
/// claims may take together is what the limit left when the first was
/// made ([`allowance`]): a claim larger than that fails at once, and one
/// that does not fit beside the others waits for them, so which records
/// fail never depends on `-j` or on timing. Without such a limit, the
/// memory is asked of the system (and given back at once, never touched):
/// where it cannot be had while other records hold claims, the worker
/// waits until one of them ends and asks again; only a record whose memory
/// cannot be had while no other holds any fails.
pub fn claim_memory_at(
    size: usize,
    limit: usize,
    per_byte: usize,
) -> Result<Option<Claim>, Problem> {
    if size <= UNCLAIMED_RECORD {
        return Ok(None);
    }
    let need = size.saturating_mul(per_byte);
    let refused = || Err(no_memory(size as u64, Some((need, per_byte))));
    let allowance = allowance();
    if allowance.is_some_and(|a| need > a) {
        return refused();
    }
    let budget = limit
        .max(size)
        .saturating_mul(MEMORY_PER_BYTE)
        .min(allowance.unwrap_or(usize::MAX));
    let mut used = BUDGET.used.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        while *used > 0 && used.saturating_add(need) > budget {
            used = BUDGET.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        let mut probe: Vec<u8> = Vec::new();
        if allowance.is_some() || probe.try_reserve_exact(need).is_ok() {
            *used += need;
            return Ok(Some(Claim(need)));
        }
        if *used == 0 {
            return refused();
        }
        // Others hold memory: wait for one to give it back.
        used = BUDGET.freed.wait(used).unwrap_or_else(|e| e.into_inner());
    }
}

/// Under a limit on the process's address space, what it left when first
/// asked (the limit less the address space the process held then; the
/// command asks before its worker threads exist, so that it is the same
/// whatever `-j`): what the memory claims of the run may take together. `None` without such a
/// limit, or where the system does not say (systems without `/proc`).
pub fn allowance() -> Option<usize> {
    static ALLOWANCE: OnceLock<Option<usize>> = OnceLock::new();
    *ALLOWANCE.get_or_init(|| {
        let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
        let line = limits
            .lines()
            .find(|l| l.starts_with("Max address space"))?;
        let soft: usize = line
            .trim_start_matches("Max address space")
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let held: usize = status
            .lines()
            .find_map(|l| l.strip_prefix("VmSize:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(soft.saturating_sub(held.saturating_mul(1024)))
    })
}

/// The error for a record of `size` bytes, over the limit.
pub fn too_large(size: u64, limit: usize) -> Problem {
    Problem::whole(format!(
        "the game is {} long, over the limit of {} on one record: it was skipped (raise the limit with --max-record-size)",
        bytes_text(size),
        bytes_text(limit as u64)
    )).of_kind(Kind::RecordTooLarge)
}

/// The error for a record of `size` bytes that could not be held, or
/// converted in the memory it `needs`.
pub fn no_memory(size: u64, needs: Option<(usize, usize)>) -> Problem {
    let needs = match needs {
        Some((n, per_byte)) => format!(
            ", and converting it takes up to {} of memory ({per_byte} times its size)",
            bytes_text(n as u64)
        ),
        None => String::new(),
    };
    Problem::whole(format!(
        "the game is {} long{needs}: kifu could not have that much memory, and skipped it",
        bytes_text(size)
    ))
    .of_kind(Kind::RecordTooLarge)
}

/// A size in bytes as a person reads it: `130.0 MiB (136314880 bytes)`,
/// or `16 MiB` and `64 KiB` for a whole number of them.
pub fn bytes_text(n: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    match n {
        0 => "0 bytes".to_string(),
        _ if n.is_multiple_of(MIB) => format!("{} MiB", n / MIB),
        _ if n.is_multiple_of(KIB) && n < MIB => format!("{} KiB", n / KIB),
        _ if n >= MIB => format!("{:.1} MiB ({n} bytes)", n as f64 / MIB as f64),
        _ if n >= KIB => format!("{:.1} KiB ({n} bytes)", n as f64 / KIB as f64),
        _ => format!("{n} bytes"),
    }
}
