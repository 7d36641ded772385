//! Reading the typed rows of a game's text ([`super::write_typed`]) back:
//! where each value is, and each value.

use std::io;

use super::{push_int, MOVES, TABLES};
use crate::codec::Origin;

/// Where the first NUL at or after `at` in `bytes` is: most values are a
/// few bytes, which eight at a time find sooner than a call to `memchr`
/// starts.
#[inline]
pub(super) fn nul_after(bytes: &[u8], at: usize) -> Option<usize> {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let rest = bytes.get(at..)?;
    let mut words = rest.chunks_exact(8);
    for (n, w) in (&mut words).take(4).enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        let x = u64::from_le_bytes(b);
        // The high bit of each zero byte, exactly.
        let zero = !(((x & LOW) + LOW) | x | LOW);
        if zero != 0 {
            return Some(at + 8 * n + (zero.trailing_zeros() / 8) as usize);
        }
    }
    let seen = rest.len() - words.remainder().len() - words.len() * 8;
    memchr::memchr(0, &rest[seen..]).map(|n| at + seen + n)
}

/// Each typed row of one game's text ([`super::write_typed`]), as where its
/// values are: `row` takes each row's table (an index of [`TABLES`]), the
/// row's place in `text` (after its table's digit, before its line end)
/// and each value's, after the keys (`None`: NULL), in the order of
/// [`super::columns`]. Nothing is copied: the values are read where they lie.
pub(crate) fn typed_spans(
    text: &str,
    mut row: impl FnMut(usize, (usize, usize), &[Option<(usize, usize)>]) -> io::Result<()>,
) -> io::Result<()> {
    let bug = |what: &str| io::Error::other(format!("typed rows: {what} (a bug)"));
    let bytes = text.as_bytes();
    let mut spans: Vec<Option<(usize, usize)>> = Vec::with_capacity(MOVES.len());
    let mut at = 0;
    while at < bytes.len() {
        let t = usize::from(bytes[at].wrapping_sub(b'0'));
        if t >= TABLES.len() {
            return Err(bug("a row of no table"));
        }
        at += 1;
        let start = at;
        spans.clear();
        loop {
            match bytes.get(at) {
                Some(b'\n') => break,
                Some(0) => {
                    spans.push(None);
                    at += 1;
                }
                Some(b'=') => {
                    let end = nul_after(bytes, at + 1).ok_or_else(|| bug("a value never ended"))?;
                    spans.push(Some((at + 1, end)));
                    at = end + 1;
                }
                _ => return Err(bug("a value without its mark")),
            }
        }
        row(t, (start, at), &spans)?;
        at += 1;
    }
    Ok(())
}

/// Each typed row of one game's text ([`super::write_typed`]), keys first: `push`
/// takes each row's table (an index of [`TABLES`]) and its values
/// (`None`: NULL), in the order of [`super::columns`]; the keys are the game's
/// `id`, and for the games row its source and index from `origin`.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub(crate) fn typed_rows(
    text: &str,
    origin: &Origin<'_>,
    id: &str,
    mut push: impl FnMut(usize, &[Option<&str>]) -> io::Result<()>,
) -> io::Result<()> {
    let mut index = String::new();
    push_int(&mut index, origin.index as i64);
    let mut values: Vec<Option<&str>> = Vec::with_capacity(MOVES.len());
    typed_spans(text, |t, _, spans| {
        values.clear();
        values.push(Some(id));
        if t == 0 {
            values.extend([Some(origin.source), Some(index.as_str())]);
        }
        values.extend(spans.iter().map(|s| s.map(|(a, b)| &text[a..b])));
        push(t, &values)
    })
}
