//! The typed rows of a game's text ([`super::write_typed`]): each table's
//! rows as columns, written by [`super::Columns`] and read back here.
//!
//! A game's text is a code saying whether the moves table has the `fen`
//! column (1) or not (0), then, for each table in the order of [`TABLES`], its rows'
//! count, then each of its columns after the keys ([`super::KEYS`]), in
//! the order of [`super::columns`]: a code a row (0 NULL, else 1 and the
//! value: a whole number zigzagged ([`zigzag`]), a boolean (1 false, 2
//! true), a text's length in bytes), then, for a text column, its values'
//! text one after another. A code is written six bits a byte, the lowest
//! first, the byte's bit 6 set where more follow ([`code`]): every byte
//! of a code is ASCII, so the text stays UTF-8 with no value escaped, and
//! a text value of under 63 bytes (a square, a move, a number) costs one.

use std::io;

use super::{push_int, Kind, TABLES};
use crate::codec::Origin;

/// Appends `n` as a code: six bits a byte, the lowest first, bit 6 set
/// where more bytes follow.
#[inline]
pub(crate) fn code(out: &mut String, mut n: u64) {
    while n >= 0x40 {
        out.push(char::from(0x40 | (n & 0x3f) as u8));
        n >>= 6;
    }
    out.push(char::from(n as u8));
}

/// A whole number as an unsigned one, small either side of 0 (`0, -1, 1,
/// -2` are `0, 1, 2, 3`).
#[inline]
pub(crate) fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// [`zigzag`] undone.
#[inline]
pub(crate) fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

/// The error of typed rows that are not as [`super::Columns`] writes
/// them (a bug).
#[cold]
pub(crate) fn bug(what: &str) -> io::Error {
    io::Error::other(format!("typed rows: {what} (a bug)"))
}

/// A reader of a game's typed rows: each table's count of rows, each
/// column's codes and text, in the order they were written.
pub(crate) struct Typed<'t> {
    bytes: &'t [u8],
    text: &'t str,
    at: usize,
}

impl<'t> Typed<'t> {
    /// A reader of `text`, a game's typed rows.
    pub(crate) fn new(text: &'t str) -> Typed<'t> {
        Typed {
            bytes: text.as_bytes(),
            text,
            at: 0,
        }
    }

    /// The next code.
    #[inline]
    pub(crate) fn code(&mut self) -> io::Result<u64> {
        let (mut n, mut shift) = (0u64, 0);
        loop {
            let b = *self
                .bytes
                .get(self.at)
                .ok_or_else(|| bug("a column cut short"))?;
            self.at += 1;
            if b >= 0x80 || shift > 60 {
                return Err(bug("a code of no number"));
            }
            n |= u64::from(b & 0x3f) << shift;
            if b & 0x40 == 0 {
                return Ok(n);
            }
            shift += 6;
        }
    }

    /// Gives `n` codes to `each`, in order.
    #[inline]
    pub(crate) fn codes(&mut self, n: usize, mut each: impl FnMut(u64)) -> io::Result<()> {
        for _ in 0..n {
            // Most codes are one byte.
            match self.bytes.get(self.at) {
                Some(&b) if b < 0x40 => {
                    self.at += 1;
                    each(u64::from(b));
                }
                _ => each(self.code()?),
            }
        }
        Ok(())
    }

    /// The next `n` codes into `out` (emptied first): at once where each
    /// is one byte (a text of under 63 bytes, NULL, a flag, a number
    /// between -31 and 31), else a code at a time.
    #[inline]
    pub(crate) fn codes_into(&mut self, n: usize, out: &mut Vec<u64>) -> io::Result<()> {
        out.clear();
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        if let Some(head) = rest.get(..n) {
            // (An OR of the bytes, which the compiler does many at a time.)
            if head.iter().fold(0, |a, &b| a | b) < 0x40 {
                out.extend(head.iter().map(|&b| u64::from(b)));
                self.at += n;
                return Ok(());
            }
        }
        out.reserve(n);
        let mut at = 0;
        for _ in 0..n {
            let (mut v, mut shift) = (0u64, 0);
            loop {
                let b = *rest.get(at).ok_or_else(|| bug("a column cut short"))?;
                at += 1;
                if b >= 0x80 || shift > 60 {
                    return Err(bug("a code of no number"));
                }
                v |= u64::from(b & 0x3f) << shift;
                if b & 0x40 == 0 {
                    break;
                }
                shift += 6;
            }
            out.push(v);
        }
        self.at += at;
        Ok(())
    }

    /// The next `n` codes at once where each is one byte (a text of under
    /// 63 bytes, NULL, a flag, a number between -31 and 31): their bytes,
    /// each the code; `None`, nothing read, where one is not.
    #[inline]
    pub(crate) fn byte_codes(&mut self, n: usize) -> Option<&'t [u8]> {
        let head = self.bytes.get(self.at..)?.get(..n)?;
        // (An OR of the bytes, which the compiler does many at a time.)
        if head.iter().fold(0, |a, &b| a | b) >= 0x40 {
            return None;
        }
        self.at += n;
        Some(head)
    }

    /// The text from here to the end: the next text values, and what
    /// follows them.
    #[inline]
    pub(crate) fn rest(&self) -> &'t [u8] {
        self.bytes.get(self.at..).unwrap_or_default()
    }

    /// The next `len` bytes of text values.
    #[inline]
    pub(crate) fn text(&mut self, len: usize) -> io::Result<&'t str> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| bug("a column's text cut short"))?;
        let text = self
            .text
            .get(self.at..end)
            .ok_or_else(|| bug("a value cut inside a character"))?;
        self.at = end;
        Ok(text)
    }

    /// Whether the moves table has the `fen` column: the text's first
    /// code.
    pub(crate) fn fen(&mut self) -> io::Result<bool> {
        match self.code()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bug("no fen code")),
        }
    }

    /// Whether every table was read.
    pub(crate) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Each typed row of one game's text ([`super::write_typed`]), keys
/// first: `push` takes each row's table (an index of [`TABLES`]) and its
/// values as text (`None`: NULL; numbers in decimal, booleans `1` or
/// `0`), in the order of [`super::columns`]; the keys are the game's `id`,
/// and for the games row its source and index from `origin`.
#[cfg_attr(not(any(test, feature = "python")), allow(dead_code))]
pub(crate) fn typed_rows(
    text: &str,
    origin: &Origin<'_>,
    id: &str,
    mut push: impl FnMut(usize, &[Option<&str>]) -> io::Result<()>,
) -> io::Result<()> {
    let mut index = String::new();
    push_int(&mut index, origin.index as i64);
    let mut typed = Typed::new(text);
    let fen = typed.fen()?;
    for t in 0..TABLES.len() {
        let rows = usize::try_from(typed.code()?).map_err(|_| bug("rows past counting"))?;
        let columns = &super::columns(t, fen)[super::KEYS[t]..];
        // Each column's values, a row at a time: a text value where it
        // lies, a number or a flag written as text in `numbers`.
        let mut numbers = String::new();
        let mut values: Vec<Vec<Option<(bool, usize, usize)>>> = Vec::with_capacity(columns.len());
        for &(_, kind, _) in columns {
            let mut column = Vec::with_capacity(rows);
            match kind {
                Kind::Text | Kind::Json => {
                    let mut len = 0;
                    typed.codes(rows, |c| {
                        column.push(c.checked_sub(1).map(|n| (true, len, len + n as usize)));
                        len += c.saturating_sub(1) as usize;
                    })?;
                    let base = typed.at;
                    typed.text(len)?;
                    for (_, a, b) in column.iter_mut().flatten() {
                        (*a, *b) = (*a + base, *b + base);
                    }
                }
                Kind::Integer | Kind::Boolean => {
                    typed.codes(rows, |c| {
                        column.push(c.checked_sub(1).map(|n| {
                            let at = numbers.len();
                            match kind {
                                Kind::Boolean => numbers.push(if n == 1 { '1' } else { '0' }),
                                _ => push_int(&mut numbers, unzigzag(n)),
                            }
                            (false, at, numbers.len())
                        }));
                    })?;
                }
            }
            values.push(column);
        }
        let mut row: Vec<Option<&str>> = Vec::with_capacity(columns.len() + 3);
        for r in 0..rows {
            row.clear();
            row.push(Some(id));
            if t == 0 {
                row.extend([Some(origin.source), Some(index.as_str())]);
            }
            for column in &values {
                row.push(column[r].map(|(in_text, a, b)| match in_text {
                    true => &text[a..b],
                    false => &numbers[a..b],
                }));
            }
            push(t, &row)?;
        }
    }
    match typed.done() {
        true => Ok(()),
        false => Err(bug("text after the tables")),
    }
}
