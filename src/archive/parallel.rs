//! The ordered parallel map over a stream's records ([`Records::par_map`],
//! [`Records::par_for_each`]): a function runs on every record of a batch
//! in parallel while the next batch is read, and the results come back in
//! input order.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;

use super::*;

impl<'s, R: Read + Send> Records<'s, R> {
    /// The ordered parallel map over the records of the stream, as a
    /// stream: `f` runs on every record (games, the text between them,
    /// records over the size limit) and `each` receives every batch's
    /// records with their results, in input order, on the calling thread.
    ///
    /// Three stages run at once, with bounded queues between them:
    /// - a reader thread reads and splits the input into batches of about
    ///   [`BATCH_BYTES`] (decompression, record scanning and line counting
    ///   happen there) and hands each batch to rayon's pool;
    /// - the pool's workers map the batches, one task per batch, several
    ///   batches in flight at once;
    /// - the calling thread takes the results in input order from a reorder
    ///   buffer and gives them to `each` (writing, diagnostics, counts).
    ///
    /// At most [`in_flight`] batches are read and not yet given to `each`,
    /// so memory is bounded whatever the input's size. A read error is
    /// given to `each` after the batches before it, and ends the stream; an
    /// error returned by `each` ends it at once (the reader stops at its
    /// next batch). A panic of `f` is raised again here.
    pub fn par_for_each<T, F, E, C>(self, f: F, each: C) -> Result<(), E>
    where
        T: Send,
        F: Fn(Record<'_>) -> T + Sync,
        C: FnMut(io::Result<Mapped<T>>) -> Result<(), E>,
    {
        self.par_for_each_weighed(f, None, each)
    }

    /// [`Records::par_for_each`] for results that may be far larger than
    /// their records (a page of drawings: `html` writes a thousand times
    /// what it reads of a short game): `weigh` says how many bytes a
    /// result holds, and the batches are cut so that the results in
    /// flight hold about [`RESULTS_IN_FLIGHT`] together (under a limit on
    /// the address space, at most a quarter of what it left:
    /// [`crate::policy::allowance`]). The first batch
    /// ([`WEIGHED_FIRST_BATCH`]) is weighed before the next is read; each
    /// batch weighed sizes the ones read after it (at most the batch size
    /// of [`Records::with_batch`]).
    pub fn par_for_each_weighed<T, F, E, C>(
        self,
        f: F,
        weigh: Option<fn(&T) -> usize>,
        mut each: C,
    ) -> Result<(), E>
    where
        T: Send,
        F: Fn(Record<'_>) -> T + Sync,
        C: FnMut(io::Result<Mapped<T>>) -> Result<(), E>,
    {
        let in_flight = in_flight();
        // Under a limit on the address space, a quarter of what it left.
        let weight =
            RESULTS_IN_FLIGHT.min(crate::policy::allowance().map_or(usize::MAX, |a| a / 4));
        let most = self.batch;
        let target = &std::sync::atomic::AtomicUsize::new(most.min(WEIGHED_FIRST_BATCH));
        let (weighed_tx, weighed_rx) = mpsc::channel::<()>();
        let mut weighed_tx = weigh.map(|_| weighed_tx);
        let (done_tx, done_rx) = mpsc::channel::<(usize, Done<T>)>();
        // One token per batch handed to the pool and not yet to `each`:
        // the reader blocks when `in_flight` are out.
        let (slot_tx, slot_rx) = mpsc::sync_channel::<()>(in_flight);
        let f = &f;
        let mut records = self;
        rayon::in_place_scope(|pool| {
            std::thread::scope(|threads| {
                threads.spawn(move || {
                    for seq in 0.. {
                        let size = match weigh {
                            Some(_) => target.load(std::sync::atomic::Ordering::Relaxed),
                            None => records.batch,
                        };
                        let next = records.next_batch(size);
                        if matches!(next, Ok(None)) || slot_tx.send(()).is_err() {
                            // The end, or `each` stopped the stream.
                            return;
                        }
                        match next {
                            Ok(Some(batch)) => {
                                let done = done_tx.clone();
                                let first = weighed_tx.take();
                                pool.spawn(move |_| {
                                    let results: std::thread::Result<Vec<T>> =
                                        std::panic::catch_unwind(AssertUnwindSafe(|| {
                                            let data = &batch.data;
                                            let records = batch.records.iter();
                                            records.map(|r| f(Record::of(data, r))).collect()
                                        }));
                                    if let (Some(weigh), Ok(results)) = (weigh, &results) {
                                        let held: usize = results.iter().map(weigh).sum();
                                        let bytes = batch.data.len();
                                        target.store(
                                            batch_size(weight / in_flight, held, bytes, most),
                                            std::sync::atomic::Ordering::Relaxed,
                                        );
                                    }
                                    // The first batch is weighed.
                                    drop(first);
                                    let mapped =
                                        results.map(|results| Ok(Mapped { batch, results }));
                                    // Gone when `each` stopped the stream.
                                    let _ = done.send((seq, mapped));
                                });
                                if seq == 0 {
                                    // (At once, where nothing is weighed.)
                                    let _ = weighed_rx.recv();
                                }
                            }
                            Ok(None) => return,
                            Err(e) => {
                                let _ = done_tx.send((seq, Ok(Err(e))));
                                return;
                            }
                        }
                    }
                });
                in_order(done_rx, slot_rx, &mut each)
            })
        })
    }

    /// The ordered parallel map as an iterator over batches: the stream of
    /// [`Records::par_for_each`] run on a thread of its own, for a reader
    /// of several inputs at once (`kifu diff`). A read error ends the
    /// iterator with that error; dropping the iterator stops the stream.
    ///
    /// ```
    /// use kifu::archive::Records;
    /// let pgn = kifu::format::by_name("pgn").unwrap();
    /// let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    /// let mut sizes = Vec::new();
    /// for batch in Records::new(text.as_bytes(), pgn.split).par_map(|r| r.bytes.len()) {
    ///     for (record, size) in batch.unwrap().drain() {
    ///         if record.is_game {
    ///             sizes.push((record.line, size));
    ///         }
    ///     }
    /// }
    /// // A record runs from the end of the one before (here, the line end
    /// // after `*` on line 3) to its result.
    /// assert_eq!(sizes, [(1, 20), (3, 25)]);
    /// ```
    pub fn par_map<T, F>(self, f: F) -> ParMap<T>
    where
        's: 'static,
        R: 'static,
        T: Send + 'static,
        F: Fn(Record<'_>) -> T + Sync + Send + 'static,
    {
        let (tx, rx) = mpsc::sync_channel(1);
        let thread = std::thread::spawn(move || {
            // Ends when the receiver is dropped.
            let _ = self.par_for_each(f, |batch| tx.send(batch));
        });
        ParMap {
            rx,
            thread: Some(thread),
        }
    }
}

/// What the results of the batches in flight hold together, about, where
/// they are weighed ([`Records::par_for_each_weighed`]).
pub const RESULTS_IN_FLIGHT: usize = 64 << 20;

/// The first batch of a weighed map ([`Records::par_for_each_weighed`]),
/// read alone: what its results weigh sizes the next.
pub const WEIGHED_FIRST_BATCH: usize = 16 << 10;

/// What one batch's results hold, about, at most, where they are weighed
/// ([`Records::par_for_each_weighed`]), whatever [`RESULTS_IN_FLIGHT`]
/// allows: the writer takes a batch's results one at a time, so results
/// several times their records (the tables' rows of a PGN record) held
/// past that are memory touched for the first time for nothing (at `-j
/// 1`, the typed rows of four batches of 256 KiB of PGN in flight: a
/// thousand page faults of the tables' run). A batch is never cut below
/// [`WEIGHED_FIRST_BATCH`] by it.
pub const RESULTS_PER_BATCH: usize = 256 << 10;

/// The input a weighed batch is cut at ([`Records::par_for_each_weighed`]),
/// from the batch before (its results `held` bytes of its `bytes` of
/// input; results lighter than their records are weighed as their
/// records): where its results hold about `per_batch` (the batches in
/// flight together hold what is allowed) and about [`RESULTS_PER_BATCH`]
/// at most (not below [`WEIGHED_FIRST_BATCH`] of input for that), within
/// one byte and `most`. The ratio is taken whole, not rounded to bytes of
/// results a byte (a record whose results are a little longer, pgn to pgn,
/// keeps batches of about its own bytes, not half of them).
pub(super) fn batch_size(per_batch: usize, held: usize, bytes: usize, most: usize) -> usize {
    let bytes = bytes.max(1) as u128;
    let held = (held as u128).max(bytes);
    let fit = |room: usize| usize::try_from(room as u128 * bytes / held).unwrap_or(usize::MAX);
    let cap = fit(RESULTS_PER_BATCH).max(WEIGHED_FIRST_BATCH);
    fit(per_batch).min(cap).clamp(1, most)
}

/// How many batches the pipeline holds at most between reading and `each`:
/// two per worker thread and two more, so that every worker has a batch
/// ready while the slowest in flight is waited for.
pub fn in_flight() -> usize {
    2 * rayon::current_num_threads() + 2
}

/// The writer's side of [`Records::par_for_each`]: gives the batches to
/// `each` in input order, as they come back from the workers.
fn in_order<T, E>(
    done: mpsc::Receiver<(usize, Done<T>)>,
    slots: mpsc::Receiver<()>,
    each: &mut dyn FnMut(io::Result<Mapped<T>>) -> Result<(), E>,
) -> Result<(), E> {
    // The batches that came back before the one to give next (at most
    // `in_flight` of them), by their place in the input.
    let mut waiting: BTreeMap<usize, io::Result<Mapped<T>>> = BTreeMap::new();
    let mut next = 0;
    loop {
        if let Some(batch) = waiting.remove(&next) {
            next += 1;
            // Its slot is free: the reader may hand out another.
            let _ = slots.try_recv();
            let end = batch.is_err();
            each(batch)?;
            if end {
                return Ok(());
            }
            continue;
        }
        match wait(&done) {
            Ok((seq, Ok(batch))) => {
                waiting.insert(seq, batch);
            }
            Ok((_, Err(panic))) => std::panic::resume_unwind(panic),
            // The reader and every worker are done.
            Err(_) => return Ok(()),
        }
    }
}

/// The next message from the workers. A caller that is itself one of the
/// pool's workers (a pipeline run inside `ThreadPool::install`) runs the
/// pool's jobs while it waits, instead of keeping them from running.
fn wait<M>(done: &mpsc::Receiver<M>) -> Result<M, mpsc::RecvError> {
    use mpsc::{RecvTimeoutError, TryRecvError};
    loop {
        match done.try_recv() {
            Ok(m) => return Ok(m),
            Err(TryRecvError::Disconnected) => return Err(mpsc::RecvError),
            Err(TryRecvError::Empty) => {}
        }
        match rayon::yield_now() {
            // Not on the pool: nothing to run here.
            None => return done.recv(),
            Some(rayon::Yield::Executed) => {}
            Some(rayon::Yield::Idle) => {
                match done.recv_timeout(std::time::Duration::from_millis(1)) {
                    Ok(m) => return Ok(m),
                    Err(RecvTimeoutError::Disconnected) => return Err(mpsc::RecvError),
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
        }
    }
}

/// The ordered parallel map over a stream's records
/// ([`Records::par_map`]): an iterator over batches of results.
pub struct ParMap<T> {
    rx: mpsc::Receiver<io::Result<Mapped<T>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl<T> Iterator for ParMap<T> {
    type Item = io::Result<Mapped<T>>;

    fn next(&mut self) -> Option<io::Result<Mapped<T>>> {
        match self.rx.recv() {
            Ok(batch) => Some(batch),
            Err(_) => {
                // The stream is over: a panic of the map is raised here.
                if let Some(Err(panic)) = self.thread.take().map(|t| t.join()) {
                    std::panic::resume_unwind(panic);
                }
                None
            }
        }
    }
}

/// One batch of records with their results, in input order.
pub struct Mapped<T> {
    pub(super) batch: Batch,
    pub(super) results: Vec<T>,
}

impl<T> Mapped<T> {
    /// The records with their results, in input order (each given once).
    pub fn drain(&mut self) -> impl Iterator<Item = (Record<'_>, T)> + '_ {
        let data = &self.batch.data;
        self.batch
            .records
            .iter()
            .zip(self.results.drain(..))
            .map(move |(r, t)| (Record::of(data, r), t))
    }

    /// How many input bytes the batch held (for progress).
    pub fn bytes(&self) -> usize {
        self.batch.data.len()
    }
}
